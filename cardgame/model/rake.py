"""The house's rake: a percentage of the pot with a cap, taken before the pot is awarded.

Card rooms that spread cash games take their fee from each pot (Robert's Rules of Poker, general
rules: the house "may collect a rake"; the amount and its limits are the house's posted rule).
What rooms post, and :class:`Rake` takes:

* a **percentage** of the pot, the pot being what is left in the middle once an uncalled bet has
  gone back to its owner (an uncalled bet is no part of the pot);
* a **cap**, the most taken from one hand, per variant and per stakes: a room's schedule is one
  :class:`Rake` for each table it spreads (``no_limit_holdem(1, 2, rake=Rake(5, 6))`` beside
  ``pot_limit_omaha(1, 2, rake=Rake(5, 10))``), and within a table the cap may rise with the
  number of players dealt in (``cap_by_players``, as online rooms post it);
* **no flop, no drop**: a hand that ends before a board card is dealt pays nothing. Games without
  a board (stud, draw) never see a flop, so by default they are raked only with
  ``no_flop_no_drop=False`` (PokerKit's reading of the rule too); rooms that rake them drop nothing
  from a hand won in its first betting round (on third street, before the draw) and rake it once a
  second round begins: ``no_drop_until="second round"`` (the same as ``"board"`` in a flop game,
  whose second round follows the flop).

Rounding: chips are whole, so the percentage is rounded **down** to a whole chip, then to a multiple
of ``unit`` (a room raking in 5-cent steps with chips of one cent: ``unit=5``); the house never
takes more than its posted percentage (the common practice of online rooms, which drop fractions
of a cent). The rake is taken from the main pot first, then from each side pot in turn (the main
pot is the one every live hand contests; a dealer drops the rake from it). PokerKit rakes each pot
on its own, each with its own cap (docs/rules.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import attrs

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt, whole_number
from cardgame.model.pots import Pot

__all__ = ["FixedRake", "Rake", "rake_pots"]

#: The highest number of players a cap is posted for.
MAX_PLAYERS = 100


def _percent(value: object) -> Fraction:
    """A percentage from 0 to 100 as an exact fraction (``5``, ``2.5``, ``Fraction(10, 3)``)."""
    refused = ConfigError(f"The rake percentage is a number from 0 to 100 with at most six decimal places "
                          f"(5 for 5%), not {excerpt(value)}.")
    whole = whole_number(value)  # (numpy's integers too)
    if whole is not None:
        if not 0 <= whole <= 100:
            raise refused
        return Fraction(whole)
    if isinstance(value, Decimal):
        if not value.is_finite() or not -6 <= int(value.as_tuple().exponent) <= 2:
            raise refused
        exact = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise refused
        exact = Fraction(str(value))
    elif isinstance(value, Fraction):
        exact = value
    else:
        raise refused
    if not 0 <= exact <= 100 or exact.denominator > 10**6:
        raise refused
    return exact


def _cap(value: object) -> int | None:
    return None if value is None else check_int(value, "rake cap (in chips)", ConfigError, minimum=0)


def _chips(value: object) -> int:
    return check_int(value, "rake (in chips)", ConfigError, minimum=0)


def _unit(value: object) -> int:
    return check_int(value, "rake unit (in chips)", ConfigError, minimum=1)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"no_flop_no_drop is True or False, not {excerpt(value)}.")
    return value


#: What a hand must reach to be raked under "no flop, no drop" (:attr:`Rake.no_drop_until`).
NO_DROP_UNTIL = ("board", "second round")


def _until(value: object) -> str:
    if value not in NO_DROP_UNTIL:
        raise ConfigError(f"no_drop_until is one of {', '.join(map(repr, NO_DROP_UNTIL))}, not {excerpt(value)}.")
    return str(value)


def _caps(value: object) -> tuple[tuple[int, int], ...]:
    """``((players, cap), ...)``: from that many players dealt in on, that cap; sorted by players."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) > MAX_PLAYERS:
        raise ConfigError(f"cap_by_players is a list of (players dealt in, cap) pairs, such as ((2, 50), (5, 100)), "
                          f"not {excerpt(value)}.")
    out: dict[int, int] = {}
    for item in value:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise ConfigError(f"Each of cap_by_players is a (players dealt in, cap) pair, not {excerpt(item)}.")
        players = check_int(item[0], "number of players of a rake cap", ConfigError, minimum=2, maximum=MAX_PLAYERS)
        out[players] = check_int(item[1], "rake cap (in chips)", ConfigError, minimum=0)
    return tuple(sorted(out.items()))


@attrs.frozen
class Rake:
    """``percent`` of each pot (0 to 100), rounded down to whole chips and to a multiple of ``unit``,
    at most ``cap`` chips a hand (``None``: no cap); ``cap_by_players`` (``((2, 50), (5, 100))``)
    sets the cap by the number of players dealt in, from that many on (fewer than the first:
    ``cap``). With ``no_flop_no_drop`` (the default) a hand that ends before a board card is dealt
    pays nothing, or with ``no_drop_until="second round"`` one that ends in its first betting round
    (stud and draw games raked too). See :mod:`cardgame.model.rake` for the rules and their sources."""

    percent: Fraction = attrs.field(converter=_percent)
    cap: int | None = attrs.field(default=None, converter=_cap)
    no_flop_no_drop: bool = attrs.field(default=True, kw_only=True, converter=_flag)
    unit: int = attrs.field(default=1, kw_only=True, converter=_unit)
    cap_by_players: tuple[tuple[int, int], ...] = attrs.field(default=(), kw_only=True, converter=_caps)
    no_drop_until: str = attrs.field(default="board", kw_only=True, converter=_until)

    def cap_for(self, players: int) -> int | None:
        """The cap of a hand dealt to ``players`` players."""
        cap = self.cap
        for least, posted in self.cap_by_players:
            if players >= least:
                cap = posted
        return cap

    def amount(self, pot: int, *, flop: bool, players: int, second_round: bool = False) -> int:
        """The chips taken from a ``pot`` of that many chips (uncalled bets already returned), in a
        hand dealt to ``players`` players that saw a flop (a board card) or not, and reached a second
        betting round or not."""
        pot = check_int(pot, "pot (in chips)", ConfigError, minimum=0)
        if self.no_flop_no_drop and not flop and not (second_round and self.no_drop_until == "second round"):
            return 0
        chips: int = math.floor(pot * self.percent / 100)
        chips -= chips % self.unit
        cap = self.cap_for(check_int(players, "number of players", ConfigError, minimum=0))
        return chips if cap is None else min(chips, cap)


@attrs.frozen
class FixedRake:
    """A rake of ``chips`` known in advance (at most the pot): a hand history's recorded rake,
    replayed as the site took it."""

    chips: int = attrs.field(converter=_chips)

    def amount(self, pot: int, *, flop: bool, players: int, second_round: bool = False) -> int:
        """``chips``, or the whole ``pot`` if it is smaller (the hand's progress and players do not matter)."""
        return min(self.chips, check_int(pot, "pot (in chips)", ConfigError, minimum=0))


def rake_pots(pots: Sequence[Pot], chips: int) -> list[Pot]:
    """``pots`` (the main pot first) with ``chips`` taken out: from the main pot first, then from each
    side pot in turn. Raises :class:`ConfigError` if the pots hold fewer chips."""
    left = check_int(chips, "rake (in chips)", ConfigError, minimum=0)
    if isinstance(pots, str | bytes) or not isinstance(pots, Sequence):
        raise ConfigError(f"The pots to rake are a list of Pot records, not {excerpt(pots)}.")
    out: list[Pot] = []
    for pot in pots:
        if not isinstance(pot, Pot):
            raise ConfigError(f"The pots to rake are Pot records, not {excerpt(pot)}.")
        taken = min(left, pot.amount)
        left -= taken
        out.append(Pot(pot.amount - taken, pot.eligible) if taken else pot)
    if left:
        raise ConfigError(f"A rake of {chips} chips is more than the pots hold.")
    return out
