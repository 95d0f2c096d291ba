"""Betting structures (no-limit, pot-limit, fixed-limit) and the legal actions of a player.

Rules followed (TDA rules 40-43 and Robert's Rules of Poker, section 3):

* The minimum bet is the structure's ``min_bet`` (normally the big blind). The minimum raise
  raises by at least the size of the last full bet or raise of the street.
* An all-in short of a full raise does not reopen betting to a player who already acted, unless
  the all-ins since that player's last action add up to a full raise (TDA rule 43).
* Fixed limit: bets and raises are one small or big bet; a round allows ``cap`` bets and raises
  (the big blind counts as the first bet). After a stud bring-in, the first raise completes
  the bet to a full small bet; the bring-in itself is not a bet for the cap. An all-in of half
  a bet or more counts as a full raise for reopening (Robert's Rules, limit all-in rule); less does not.
  Seven-card stud: with an open pair on fourth street, the first bet may be the small or the big
  bet; after a big bet, raises are big bets (Robert's Rules, seven-card stud, rule 7).
* Pot limit: the largest raise is to the current bet plus the pot after calling.
* Nobody may raise when every other player still in the hand is all-in.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

import attrs

from cardgame.errors import ConfigError
from cardgame.hand import Hand, HandPlayer

__all__ = ["BettingStructure", "FixedLimit", "LegalActions", "NoLimit", "PotLimit"]


def _non_negative_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"{attribute.name} must be a non-negative whole number of chips, not {value!r}.")


def _positive_int(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{attribute.name} must be a positive whole number of chips, not {value!r}.")


class LegalActions(NamedTuple):
    """What the player to act may do now. Raise-to amounts are the player's street total.

    Immutable (a named tuple: it is built on every decision, and a tuple builds about three
    times faster than a frozen attrs class); ``_replace`` gives a changed copy.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int  # chips a call puts in (0 when checking); capped at the stack
    can_raise: bool  # a bet when ``bet_to`` is 0, else a raise
    min_raise_to: int
    max_raise_to: int
    bet_to: int
    stack: int
    bring_in: int = 0  # stud: the bring-in this player may post instead of completing (0: none)
    amounts: tuple[int, ...] = ()  # when set, the only raise-to amounts allowed (stud open pair)

    @property
    def can_call(self) -> bool:
        return self.call_amount > 0

    @property
    def is_bet(self) -> bool:
        """The raise option is an opening bet."""
        return self.bet_to == 0

    def describe(self) -> str:
        """``"fold, call 4, raise to 8..100"``: the allowed actions, for error messages."""
        parts = []
        if self.bring_in:
            parts.append(f"bring in {self.bring_in}")
        if self.can_fold:
            parts.append("fold")
        if self.can_check:
            parts.append("check")
        if self.call_amount:
            parts.append(f"call {self.call_amount}")
        if self.can_raise:
            word = "bet" if self.is_bet else "raise to"
            if self.amounts:
                parts.append(f"{word} {' or '.join(map(str, self.amounts))}")
            elif self.min_raise_to == self.max_raise_to:
                parts.append(f"{word} {self.min_raise_to}")
            else:
                parts.append(f"{word} {self.min_raise_to} to {self.max_raise_to}")
        return ", ".join(parts)


class BettingStructure:
    """How much a player may bet or raise. Subclasses define :meth:`raise_bounds`."""

    name: ClassVar[str] = "structure"
    code: ClassVar[str] = ""
    min_bet: int
    #: Set per class: ``cap_reached`` is the base one (never capped), so it need not be called.
    _uncapped: ClassVar[bool] = True

    def opening_bet(self, street: int) -> int:
        """The minimum bet, and the raise increment at the start of ``street`` (0 = first)."""
        return self.min_bet

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        """(min, max) raise-to for ``hp``, before the all-in cap."""
        raise NotImplementedError

    def is_full_raise(self, hand: Hand, increment: int, street: int) -> bool:
        """Whether raising the bet by ``increment`` reopens betting."""
        return increment >= hand.min_raise

    def cap_reached(self, hand: Hand) -> bool:
        return False

    def legal_actions(self, hand: Hand, hp: HandPlayer, street: int) -> LegalActions:
        """The legal actions of ``hp`` (who must be the player to act)."""
        bet_to = hand.bet_to
        stack = hp.player.stack
        owed = bet_to - hp.bet
        call = owed if owed < stack else stack
        most = hp.bet + stack
        can_raise = most > bet_to and (self._uncapped or not self.cap_reached(hand))
        if can_raise and hp.acted_at is not None and not self.is_full_raise(hand, bet_to - hp.acted_at, street):
            can_raise = False  # only short all-ins since this player acted: betting is not reopened
        if can_raise:
            for other in hand.players:
                if other is not hp and not other.folded and not other.all_in:
                    break
            else:
                can_raise = False  # nobody left to call a raise
        if not can_raise:
            return LegalActions(hp.seat, owed > 0, owed <= 0, call, False, 0, 0, bet_to, stack, 0, ())
        lo, hi = self.raise_bounds(hand, hp, street)
        amounts: tuple[int, ...] = ()
        if lo != hi and isinstance(self, FixedLimit):  # fixed limit: exactly one of the two sizes
            amounts = tuple(sorted({min(lo, most), min(hi, most)}))
        if hi > most:
            hi = most
        if lo > most:
            lo = most
        return LegalActions(hp.seat, owed > 0, owed <= 0, call, True, lo, hi, bet_to, stack, 0, amounts)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._uncapped = cls.cap_reached is BettingStructure.cap_reached


@attrs.frozen
class NoLimit(BettingStructure):
    """No-limit: bet or raise any amount from the minimum up to all-in."""

    name: ClassVar[str] = "no-limit"
    code: ClassVar[str] = "N"
    min_bet: int = attrs.field(validator=_positive_int)

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        return hand.bet_to + max(hand.min_raise, self.min_bet), hp.bet + hp.player.stack


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
    small_bet: int = attrs.field(validator=_positive_int)
    big_bet: int = attrs.field(validator=_positive_int)
    cap: int = attrs.field(default=4, validator=_positive_int)
    big_from: int = attrs.field(default=2, validator=_non_negative_int)

    @property
    def min_bet(self) -> int:  # type: ignore[override]
        return self.small_bet

    def opening_bet(self, street: int) -> int:
        return self.small_bet if street < self.big_from else self.big_bet

    def bet_size(self, hand: Hand, street: int) -> int:
        """This round's bet size: the street's, or the big bet once one was made on an open pair."""
        return hand.forced.get("bet_size") or self.opening_bet(street)

    def raise_bounds(self, hand: Hand, hp: HandPlayer, street: int) -> tuple[int, int]:
        if hand.bet_to == 0 and "big_bet_option" in hand.forced:
            return self.small_bet, self.big_bet
        size = self.bet_size(hand, street)
        to = size if hand.bet_to < size else hand.bet_to + size  # below one bet: complete it
        return to, to

    def is_full_raise(self, hand: Hand, increment: int, street: int) -> bool:
        size = self.bet_size(hand, street)
        if hand.bet_to < size and hand.bet_to + increment >= size:
            return True  # completing a bring-in (or a short bet) to a full bet
        return 2 * increment >= size

    def cap_reached(self, hand: Hand) -> bool:
        return hand.raises >= self.cap
