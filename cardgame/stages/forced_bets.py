"""Forced bets: antes (or a big-blind ante), blinds and straddles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from cardgame.errors import ConfigError
from cardgame.events import ForcedBetPosted
from cardgame.hand import HandPlayer
from cardgame.stage import Stage
from cardgame.stages.results import ForcedBetsResult

__all__ = ["ForcedBets", "ForcedBetsResult"]


def _amounts(value: int | Sequence[int], what: str) -> tuple[int, ...]:
    items = (value,) if isinstance(value, int) else tuple(value)
    for v in items:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ConfigError(f"{what} must be non-negative whole numbers of chips, not {value!r}.")
    return items


@mypyc_attr(allow_interpreted_subclasses=True)
class ForcedBets(Stage):
    """Posts antes (dead money) and then live blinds, in blind order (heads-up: button first).

    ``blinds`` lists the live blinds from the small blind on: ``(1, 2)``, or ``(1, 2, 4)`` with a
    straddle. ``ante`` is one amount for everyone, or a tuple by position from the small blind;
    with ``big_blind_ante`` the big blind alone posts ``ante`` for the table; ``button_blind`` is a
    live blind posted by the button (short-deck's Triton format). A player short of a
    forced bet posts what they have and is all-in; the amount to call stays the full blind (TDA).
    Pre-flop action starts left of the last live blind.
    """

    name: ClassVar[str] = "forced bets"
    __slots__ = ("ante", "big_blind_ante", "blinds", "button_blind")

    def __init__(
        self,
        blinds: Sequence[int] = (1, 2),
        *,
        ante: int | Sequence[int] = 0,
        big_blind_ante: bool = False,
        button_blind: int = 0,
    ) -> None:
        super().__init__()
        self.blinds = _amounts(blinds, "Blinds")
        self.ante = _amounts(ante, "Antes")
        if big_blind_ante and len(self.ante) != 1:
            raise ConfigError("A big-blind ante is one amount, posted by the big blind.")
        if big_blind_ante and len(self.blinds) < 2:
            raise ConfigError("A big-blind ante needs a big blind: give at least two blinds.")
        self.big_blind_ante = big_blind_ante
        (self.button_blind,) = _amounts(button_blind, "The button blind")

    def on_start(self, previous: Any) -> None:
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None, "forced bets run inside a hand"
        order = hand.blind_order()
        emit = ctx.emit
        antes: list[tuple[int, int]] = []
        ante = self.ante
        if self.big_blind_ante:
            if ante[0] and len(order) >= 2:
                antes.append(self._post_dead(order[1], ante[0], "big blind ante"))
        elif len(ante) == 1:
            if ante[0]:
                antes.extend([self._post_dead(hp, ante[0], "ante") for hp in order])
        else:
            antes.extend([self._post_dead(hp, amt, "ante") for hp, amt in zip(order, ante, strict=False) if amt])
        blinds: list[tuple[int, int]] = []
        last: HandPlayer | None = None
        top = 0
        names = ("small blind", "big blind")
        for i, (hp, amount) in enumerate(zip(order, self.blinds, strict=False)):
            if amount == 0 or hp.all_in:
                continue
            paid = hp.put_in(min(amount, hp.player.stack))
            kind = names[i] if i < 2 else "straddle"
            emit(ForcedBetPosted(hp.seat, kind, paid, hp.all_in))
            blinds.append((hp.seat, paid))
            last = hp
            if amount > top:
                top = amount
        button = hand.players[-1]
        if self.button_blind and not button.all_in:
            paid = button.put_in(min(self.button_blind, button.player.stack))
            emit(ForcedBetPosted(button.seat, "button blind", paid, button.all_in))
            blinds.append((button.seat, paid))
            last = button
            top = max(top, self.button_blind)
        hand.bet_to = top
        hand.min_raise = top
        hand.raises = 1 if top else 0
        if last is not None:
            i = order.index(last)
            hand.forced["opener"] = order[(i + 1) % len(order)].seat
        self.finish(ForcedBetsResult(hand.button, tuple(blinds), tuple(antes)))

    def _post_dead(self, hp: HandPlayer, amount: int, kind: str) -> tuple[int, int]:
        paid = hp.put_dead(min(amount, hp.player.stack))
        self.ctx.emit(ForcedBetPosted(hp.seat, kind, paid, hp.all_in))
        return (hp.seat, paid)
