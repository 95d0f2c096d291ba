"""Betting structures (no-limit, pot-limit, fixed-limit) and the rules of legal actions (see ``cardgame.legal``).

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

from typing import ClassVar

import attrs

from cardgame.errors import ConfigError
from cardgame.hand import Hand, HandPlayer
from cardgame.legal import LegalActions, legal_actions

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
    #: ``raise_bounds`` gives the only two sizes allowed (a stud open pair), not a range.
    exact_sizes: ClassVar[bool] = False

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
        """The legal actions of ``hp`` (who must be the player to act), by the rules above."""
        return legal_actions(self, hand, hp, street)

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
    exact_sizes: ClassVar[bool] = True
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
