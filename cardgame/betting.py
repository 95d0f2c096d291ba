"""Betting structures (no-limit, pot-limit, fixed-limit) and the rules of legal actions (see ``cardgame.legal``).

Rules followed (TDA rules 40-43 and Robert's Rules of Poker, section 3):

* The minimum bet is the structure's ``min_bet`` (normally the big blind). The minimum raise
  raises by at least the size of the last full bet or raise of the street.
* An all-in short of a full raise does not reopen betting to a player who already acted, unless
  a full raise followed or the all-ins since that player's last action add up to a full raise
  (TDA rule 43; Robert's Rules, no-limit rule 3).
* Fixed limit (Robert's Rules, betting and raising): bets and raises are one small or big bet; a
  round allows ``cap`` bets and raises, a bet and three raises by default (rule 3; the big blind
  counts as the bet). With ``heads_up_uncapped`` raising is unlimited once only two players who
  are not all-in contest the pot, unless it was capped before (rule 4). An all-in of half a bet or
  more is treated as a full bet: the next raise is a full bet over it (a 3-chip all-in on a 4-chip
  round: raise to 7); an all-in of less may be called or completed (raise to the last full bet
  plus one bet), and does not reopen the betting (rule 6). After a stud bring-in the first raise
  completes the bet to a full small bet; the bring-in is not a bet for the cap.
  Seven-card stud: with an open pair on fourth street, the first bet may be the small or the big
  bet; after a big bet, raises are big bets (Robert's Rules, seven-card stud, rule 7); a short
  all-in never sets the round's bet size.
* Pot limit: the largest raise is to the current bet plus the pot after calling.
* A bet or raise is capped at what the largest opponent can match; a raise to that amount is
  legal even below the full raise size. Nobody may raise when no opponent could call more.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from cardgame.errors import ConfigError
from cardgame.hand import Hand, HandPlayer
from cardgame.legal import LegalActions

__all__ = ["BettingStructure", "FixedLimit", "LegalActions", "NoLimit", "PotLimit"]


def _non_negative_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"{attribute.name} must be a non-negative whole number of chips, not {value!r}.")


def _positive_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{attribute.name} must be a positive whole number of chips, not {value!r}.")


class BettingStructure:
    """How much a player may bet or raise. Subclasses define :meth:`raise_bounds`."""

    name: ClassVar[str] = "structure"
    code: ClassVar[str] = ""
    min_bet: int
    #: Set per class: ``cap_reached`` is the base one (never capped), so it need not be called.
    _uncapped: ClassVar[bool] = True
    #: Set per class: ``on_raise`` is the base one (does nothing), so it need not be called.
    _plain_raises: ClassVar[bool] = True
    #: ``raise_bounds`` gives the only two sizes allowed (a stud open pair), not a range.
    exact_sizes: ClassVar[bool] = False

    def opening_bet(self, street: int) -> int:
        """The minimum bet, and the raise increment at the start of ``street`` (0 = first)."""
        return self.min_bet

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        """(min, max) raise-to for ``hp``, before the all-in cap."""
        raise NotImplementedError

    def is_full_raise(self, hand: Hand, increment: int, street: int) -> bool:
        """Whether raising the bet by ``increment`` is a full raise (it reopens betting, counts for the cap)."""
        return increment >= hand.min_raise

    def reopens(self, hand: Hand, acted_at: int, street: int) -> bool:
        """Whether betting is open again to a player who last acted at bet level ``acted_at``: a full
        raise came since, or the all-ins since add up to one."""
        return hand.full_to > acted_at or self.is_full_raise(hand, hand.bet_to - acted_at, street)

    def on_raise(self, hand: Hand, to: int, street: int) -> None:
        """Called for each bet or raise to ``to``, after the raise count and before ``bet_to`` change."""

    def cap_reached(self, hand: Hand) -> bool:
        return False


    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._uncapped = cls.cap_reached is BettingStructure.cap_reached
        cls._plain_raises = cls.on_raise is BettingStructure.on_raise


@attrs.frozen
class NoLimit(BettingStructure):
    """No-limit: bet or raise any amount from the minimum up to all-in."""

    name: ClassVar[str] = "no-limit"
    code: ClassVar[str] = "N"
    min_bet: int = attrs.field(validator=_positive_int)

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        step = hand.min_raise if hand.min_raise > self.min_bet else self.min_bet  # max(), without the call
        return hand.bet_to + step, hp.bet + hp.player.stack


@attrs.frozen
class PotLimit(BettingStructure):
    """Pot-limit: the largest raise is to the bet plus the pot after calling."""

    name: ClassVar[str] = "pot-limit"
    code: ClassVar[str] = "P"
    min_bet: int = attrs.field(validator=_positive_int)

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        call = hand.bet_to - hp.bet
        pot_after_call = hand.pot_total() + call
        return hand.bet_to + max(hand.min_raise, self.min_bet), hand.bet_to + pot_after_call


@attrs.frozen
class FixedLimit(BettingStructure):
    """Fixed-limit: small bets on the first ``big_from`` streets, big bets after; ``cap`` bets a round."""

    name: ClassVar[str] = "fixed-limit"
    code: ClassVar[str] = "F"
    exact_sizes: ClassVar[bool] = True
    small_bet: int = attrs.field(validator=_positive_int)
    big_bet: int = attrs.field(validator=_positive_int)
    cap: int = attrs.field(default=4, validator=_positive_int)
    big_from: int = attrs.field(default=2, validator=_non_negative_int)
    heads_up_uncapped: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

    @property
    def min_bet(self) -> int:  # type: ignore[override]
        return self.small_bet

    def opening_bet(self, street: int) -> int:
        return self.small_bet if street < self.big_from else self.big_bet

    def bet_size(self, hand: Hand, street: int) -> int:
        """This round's bet size: the street's, or the big bet once one was made on an open pair."""
        return hand.bet_size or self.opening_bet(street)

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        if hand.bet_to == 0 and hand.big_bet_option:
            return self.small_bet, self.big_bet
        size = self.bet_size(hand, street)
        to = hand.full_to + size  # a full bet over the last full one: completes a short all-in
        if to <= hand.bet_to:  # short all-ins that add up to a bet: raise over the bet itself
            to = hand.bet_to + size
        return to, to

    def is_full_raise(self, hand: Hand, increment: int, street: int) -> bool:
        size = self.bet_size(hand, street)
        # half a bet or more, or reaching a full bet (completing a bring-in or a short bet)
        return 2 * increment >= size or hand.bet_to + increment >= hand.full_to + size

    def reopens(self, hand: Hand, acted_at: int, street: int) -> bool:
        return hand.full_to > acted_at or 2 * (hand.bet_to - acted_at) >= self.bet_size(hand, street)

    def on_raise(self, hand: Hand, to: int, street: int) -> None:
        if hand.bet_to == 0 and to >= self.big_bet and hand.big_bet_option:
            hand.bet_size = self.big_bet  # a big bet on an open pair: raises are big bets too
        if self.heads_up_uncapped and hand.raises >= self.cap and _contesting(hand) >= 3:
            hand.capped = True

    def cap_reached(self, hand: Hand) -> bool:
        if hand.raises < self.cap:
            return False
        return not self.heads_up_uncapped or hand.capped or _contesting(hand) >= 3


def _contesting(hand: Hand) -> int:
    """Players still in the hand who are not all-in."""
    n = 0
    for hp in hand.players:
        if not hp.folded and not hp.all_in:
            n += 1
    return n
