"""Main and side pots from each player's contribution, and splitting a pot among winners.

Split pots follow Robert's Rules of Poker (section 3, "odd chips"): a pot that does not divide
evenly gives the odd chips one at a time to the winners in order clockwise from the button.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.errors import ConfigError
from cardgame.model.hand import HandPlayer
from cardgame.model.inputs import check_int, excerpt

__all__ = ["Pot", "settled_pots", "side_pots", "split"]


@fast_init
@attrs.frozen
class Pot:
    """``amount`` chips that any seat in ``eligible`` may win (0 is the main pot)."""

    amount: int
    eligible: tuple[int, ...]


def side_pots(players: Sequence[HandPlayer], dead: int = 0) -> list[Pot]:
    """Pots by contribution level: each all-in player caps one pot; folded chips stay in play.

    ``players`` are in clockwise order from the button's left; each pot lists its eligible
    (not folded) seats in that order. Levels with no one eligible are added to the pot below.
    ``dead`` chips (a big-blind ante) belong to no level: they go into the main pot.
    """
    return _with_dead(_side_pots(players, [hp.contributed for hp in players]), players, dead)


def settled_pots(players: Sequence[HandPlayer], dead: int = 0) -> list[Pot]:
    """The pots as they stand in the middle during a betting round: :func:`side_pots` of the chips
    put in on the streets before this one. This street's bets are in front of the players until
    the round ends (Robert's Rules of Poker, section 3: bets are gathered into the pot at the end
    of each round), so a bet nobody has called yet is no side pot, and a player still to act is
    not left out of one."""
    return _with_dead(_side_pots(players, [hp.contributed - hp.bet for hp in players]), players, dead)


def _with_dead(pots: list[Pot], players: Sequence[HandPlayer], dead: int) -> list[Pot]:
    if dead:
        live = tuple([hp.seat for hp in players if not hp.folded])
        if pots and pots[0].eligible == live:
            pots[0] = Pot(pots[0].amount + dead, live)
        else:  # a live player put in nothing but dead money (all-in on an untrimmed ante): a pot of its own
            pots.insert(0, Pot(dead, live))
    return pots


def _side_pots(players: Sequence[HandPlayer], chips: Sequence[int]) -> list[Pot]:
    """``chips[i]``: what ``players[i]`` put in."""
    total = level = 0
    several = False
    contributors: list[int] = []
    for hp, c in zip(players, chips, strict=True):  # one pass: the total, and whether every live amount is the same
        total += c
        if c > 0 and not hp.folded:
            contributors.append(hp.seat)
            if level == 0:
                level = c
            elif c != level:
                several = True
    if level and not several:  # no side pot: everything (folded chips above the level too) is one pot
        return [Pot(total, tuple(contributors))]
    levels = sorted({c for hp, c in zip(players, chips, strict=True) if not hp.folded and c > 0})
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = 0
        for c in chips:
            if c > floor:
                amount += (c if c < level else level) - floor
        eligible = tuple([hp.seat for hp, c in zip(players, chips, strict=True) if not hp.folded and c >= level])
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        floor = level
    leftover = sum([c - floor for c in chips if c > floor])
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            live = tuple([hp.seat for hp in players if not hp.folded])
            pots.append(Pot(leftover, live))
    return pots


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Shares of ``amount`` for ``winners`` (in order from the button's left): odd chips go first."""
    if type(amount) is not int:
        amount = check_int(amount, "amount to split", ConfigError, minimum=0)
    n = len(winners) if type(winners) in (list, tuple) or (  # a list or tuple at once: the ABC check costs more
        isinstance(winners, Sequence) and not isinstance(winners, str)) else 0
    if n == 0:
        raise ConfigError(f"Chips are split among one or more winners (a list of seats), not {excerpt(winners)}.")
    if n == 1:
        return [amount]
    base, odd = divmod(amount, n)
    return [base + (1 if i < odd else 0) for i in range(n)]
