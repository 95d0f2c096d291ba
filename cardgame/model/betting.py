"""Betting structures (no-limit, pot-limit, fixed-limit) and the rules of legal actions (see ``cardgame.model.legal``).

Rules followed (TDA rules 40-43 and Robert's Rules of Poker, section 3):

* The minimum bet is the structure's ``min_bet`` (normally the big blind). The minimum raise
  raises by at least the size of the last full bet or raise of the street.
* An all-in short of a full raise does not reopen betting to a player who already acted, unless
  a full raise followed or the all-ins since that player's last action add up to a full raise
  (TDA rule 43; Robert's Rules, no-limit rule 3).
* Fixed limit (Robert's Rules, betting and raising): bets and raises are one small or big bet; a
  round allows ``cap`` bets and raises, a bet and three raises by default (rule 3; the big blind
  counts as the bet). Raising is unlimited once only two players who are not all-in contest the
  pot, unless the round was capped before (rule 4; ``heads_up_uncapped=False`` keeps the cap
  heads-up, as tournaments do). An all-in wager of half a bet or more is treated as a full bet,
  and several all-ins too small alone act as one once together they reach half a bet (rule 6):
  the wager is measured from the level of the last full bet or raise, so on a 20-chip round a
  15-chip all-in bet, or all-ins to 8 and then 15, may be raised to 35. An all-in wager of less
  than half a bet may be called or completed (raise to the last full bet plus one bet). Betting
  is reopened to a player who already acted only when what they face since they acted is half a
  bet or more. After a stud bring-in the first raise completes the bet to a full small bet. The
  bring-in is no bet: not for the cap, and a completion (or an all-in treated as one) is the first
  bet the bring-in and those who called it face, so they may raise it; a bring-in of 25 then an
  all-in to 38 on a 50-chip round may be raised to 88.
  Seven-card stud: with an open pair on fourth street, the first bet may be the small or the big
  bet; after a big bet, raises are big bets (Robert's Rules, seven-card stud, rule 7); a short
  all-in never sets the round's bet size.
* Pot limit: the largest raise is to the current bet plus the pot after calling.
* A bet or raise is capped at what the largest opponent can match; a raise to that amount is
  legal even below the full raise size. Nobody may raise when no opponent could call more.

Other engines' and cardrooms' conventions are keyword options of the structures (the default is
the rulebook; docs/rules.md lists each with PokerKit 0.7.7's choice):

* ``first_raise_reopens`` (all): the blinds are not a raise, so the first bet or raise of a round
  is a full one whatever its size, and later raises are measured against the largest bet or raise
  made in the round.
* ``straddle_sets_min_raise`` (no-limit, pot-limit; default ``True``): ``False`` makes the minimum
  raise the largest bet or raise made in the round, at least ``min_bet``: a straddle (or a blind
  above ``min_bet``) does not set it.
* ``raise_to_match`` (all; default ``True``): ``False`` refuses a raise below the minimum unless it
  is all-in, even to all an opponent can match.
* ``full_bet_rule`` (fixed limit): an all-in raise is a full raise only if its increment is at least
  the largest bet or raise of the round; the next raise is a full bet over the all-in (nothing is
  completed); a player who already acted may raise again only facing at least that increment, and
  not while short all-ins since the last full raise add up to less (PokerKit's limit rule).
* ``cap_counts_blind`` (fixed limit; default ``True``): ``False`` counts for the cap every bet,
  raise and completion made in the round, short all-ins too, and never the blind (PokerKit).
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import attrs

from cardgame.model.errors import ConfigError
from cardgame.model.hand import HandPlayer
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.legal import LegalActions
from cardgame.model.street import Street

__all__ = ["BettingStructure", "FixedLimit", "LegalActions", "NoLimit", "PotLimit", "RaiseChanges"]


def _non_negative_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    check_int(value, f"{attribute.name} (chips)", ConfigError, minimum=0)


def _positive_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    check_int(value, f"{attribute.name} (chips)", ConfigError, minimum=1)


def _bool(_inst: object, attribute: attrs.Attribute[bool], value: bool) -> None:
    if type(value) is not bool:
        raise ConfigError(f"{attribute.name} must be True or False, not {excerpt(value)}.")


def _option(default: bool) -> bool:
    """A keyword-only true/false convention of a structure."""
    return attrs.field(default=default, kw_only=True, validator=_bool)


class RaiseChanges(NamedTuple):
    """What a bet or raise changes in the street besides the bet and the raise counts, as a structure
    computes it (:meth:`BettingStructure.raise_changes`): the new values of those fields."""

    min_raise: int
    bet_size: int
    capped: bool
    short_all_ins: int


#: Builds a ``RaiseChanges`` from all its fields at once, without the named tuple's generated ``__new__``
#: (a Python function: a frame per fixed-limit bet), as :mod:`cardgame.model.legal` builds its answers.
_new = tuple.__new__


class BettingStructure:
    """How much a player may bet or raise. Subclasses define :meth:`raise_bounds`."""

    name: ClassVar[str] = "structure"
    code: ClassVar[str] = ""
    min_bet: int
    #: Conventions (see the module docstring); the structures that offer one make it a field.
    first_raise_reopens: bool = False
    straddle_sets_min_raise: bool = True
    raise_to_match: bool = True
    #: Set per class: ``cap_reached`` is the base one (never capped), so it need not be called.
    _uncapped: ClassVar[bool] = True
    #: Set per class: ``raise_changes`` is the base one (changes nothing), so it need not be called.
    _plain_raises: ClassVar[bool] = True
    #: ``raise_bounds`` gives the only two sizes allowed (a stud open pair), not a range.
    exact_sizes: ClassVar[bool] = False

    def opening_bet(self, street: int) -> int:
        """The minimum bet, and the raise increment at the start of ``street`` (0 = first)."""
        return self.min_bet

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        """(min, max) raise-to for ``hp``, before the all-in cap."""
        raise NotImplementedError

    def raise_step(self, st: Street) -> int:
        """The smallest increment of a raise that is not all-in: the round's largest bet or raise, at
        least ``min_bet`` (a straddle sets it unless ``straddle_sets_min_raise`` is off)."""
        step = st.min_raise if self.straddle_sets_min_raise else st.largest_raise
        return step if step > self.min_bet else self.min_bet

    def is_full_raise(self, st: Street, increment: int, street: int) -> bool:
        """Whether raising the bet by ``increment`` is a full raise (it reopens betting, counts for the cap)."""
        if self.first_raise_reopens:  # the blinds are not a raise: measured against the raises made
            return increment >= st.largest_raise
        if self.straddle_sets_min_raise:
            return increment >= st.min_raise
        return increment >= self.raise_step(st)

    def reopens(self, st: Street, acted_at: int, street: int) -> bool:
        """Whether betting is open again to a player who last acted at bet level ``acted_at``: a full
        raise came since, or the all-ins since add up to one."""
        return st.full_to > acted_at or self.is_full_raise(st, st.bet_to - acted_at, street)

    def raise_changes(self, st: Street, raiser: HandPlayer, to: int, street: int) -> RaiseChanges | None:
        """What a bet or raise to ``to`` by ``raiser`` changes in ``st`` besides the bet and the raise
        counts (read after those are counted, before the bet changes); ``None``: nothing. The
        structure computes; the betting round, which owns the street, writes."""
        return None

    def cap_reached(self, st: Street) -> bool:
        return False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._uncapped = cls.cap_reached is BettingStructure.cap_reached
        cls._plain_raises = cls.raise_changes is BettingStructure.raise_changes


@attrs.frozen
class _SizedByPlayer(BettingStructure):
    """The structures where the player sizes a bet (no-limit, pot-limit): a minimum bet, and the
    conventions where rooms and engines differ (see the module docstring)."""

    min_bet: int = attrs.field(validator=_positive_int)
    first_raise_reopens: bool = _option(False)
    straddle_sets_min_raise: bool = _option(True)
    raise_to_match: bool = _option(True)


@attrs.frozen
class NoLimit(_SizedByPlayer):
    """No-limit: bet or raise any amount from the minimum up to all-in."""

    name: ClassVar[str] = "no-limit"
    code: ClassVar[str] = "N"

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        if self.straddle_sets_min_raise:  # the default, without the call
            step = st.min_raise if st.min_raise > self.min_bet else self.min_bet
        else:
            step = self.raise_step(st)
        return st.bet_to + step, hp.bet + hp.player.stack


@attrs.frozen
class PotLimit(_SizedByPlayer):
    """Pot-limit: the largest raise is to the bet plus the pot after calling."""

    name: ClassVar[str] = "pot-limit"
    code: ClassVar[str] = "P"

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        call = st.bet_to - hp.bet
        pot_after_call = st.pot_total() + call
        return st.bet_to + self.raise_step(st), st.bet_to + pot_after_call


@attrs.frozen
class FixedLimit(BettingStructure):
    """Fixed-limit: small bets on the first ``big_from`` streets, big bets after; ``cap`` bets a round,
    lifted heads-up unless ``heads_up_uncapped`` is off."""

    name: ClassVar[str] = "fixed-limit"
    code: ClassVar[str] = "F"
    exact_sizes: ClassVar[bool] = True
    small_bet: int = attrs.field(validator=_positive_int)
    big_bet: int = attrs.field(validator=_positive_int)
    cap: int = attrs.field(default=4, validator=_positive_int)
    big_from: int = attrs.field(default=2, validator=_non_negative_int)
    heads_up_uncapped: bool = attrs.field(default=True, validator=_bool)
    full_bet_rule: bool = _option(False)
    cap_counts_blind: bool = _option(True)
    first_raise_reopens: bool = _option(False)
    raise_to_match: bool = _option(True)

    @property
    def min_bet(self) -> int:  # type: ignore[override]
        return self.small_bet

    def opening_bet(self, street: int) -> int:
        return self.small_bet if street < self.big_from else self.big_bet

    def bet_size(self, st: Street, street: int) -> int:
        """This round's bet size: the street's, or the big bet once one was made on an open pair."""
        return st.bet_size or self.opening_bet(street)

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        if st.bet_to == 0 and st.big_bet_option:
            return self.small_bet, self.big_bet
        size = self.bet_size(st, street)
        if self.full_bet_rule and st.round_raises:  # a full bet over the bet itself: nothing is completed
            to = st.bet_to + (st.largest_raise if st.largest_raise > size else size)
            return to, to
        to = st.full_to + size  # a full bet over the last full one: completes a short all-in
        if to <= st.bet_to:  # never below the bet (a bet size that grew on an open pair)
            to = st.bet_to + size
        return to, to

    def is_full_raise(self, st: Street, increment: int, street: int) -> bool:
        if self.full_bet_rule:
            if self.first_raise_reopens:
                return increment >= st.largest_raise
            return increment >= st.min_raise or st.bet_to + increment >= st.full_to + self.bet_size(st, street)
        # Robert's Rules: the whole wager over the last full bet, half a bet or more (several all-ins add up)
        return 2 * (st.bet_to + increment - st.full_to) >= self.bet_size(st, street) or (
            self.first_raise_reopens and st.round_raises == 0)

    def reopens(self, st: Street, acted_at: int, street: int) -> bool:
        facing = st.bet_to - acted_at
        if self.full_bet_rule:  # PokerKit: facing the largest raise, and no short all-ins pending since acting
            step = st.largest_raise if self.first_raise_reopens else st.min_raise
            return facing >= step and not (st.short_all_ins and acted_at >= st.full_to)
        # Robert's Rules: what the player faces since acting is half a bet or more
        return 2 * facing >= self.bet_size(st, street) or (
            self.first_raise_reopens and st.round_raises == 1 and acted_at < st.full_to)

    def raise_changes(self, st: Street, raiser: HandPlayer, to: int, street: int) -> RaiseChanges:
        bet_size = st.bet_size
        if st.bet_to == 0 and to >= self.big_bet and st.big_bet_option:
            bet_size = self.big_bet  # a big bet on an open pair: raises are big bets too
        capped = st.capped or (self.heads_up_uncapped and self._raises(st) >= self.cap and _contesting(st) >= 3)
        short = st.short_all_ins
        if self.full_bet_rule:  # PokerKit's consecutive short all-ins, until they add up to the largest raise
            if not raiser.all_in:
                short = 0
            else:
                pending = short + to - st.bet_to
                short = 0 if pending >= st.largest_raise else pending
        return _new(RaiseChanges, (st.min_raise, bet_size, capped, short))

    def cap_reached(self, st: Street) -> bool:
        if (st.raises if self.cap_counts_blind else st.round_raises) < self.cap:
            return False
        return not self.heads_up_uncapped or st.capped or _contesting(st) >= 3

    def _raises(self, st: Street) -> int:
        """The raises the cap counts: full ones with the blind as the bet, or every one made (PokerKit)."""
        return st.raises if self.cap_counts_blind else st.round_raises


def _contesting(st: Street) -> int:
    """Players still in the hand who are not all-in."""
    n = 0
    for hp in st.players:
        if not hp.folded and not hp.all_in:
            n += 1
    return n
