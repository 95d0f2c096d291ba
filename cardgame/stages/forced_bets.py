"""Forced bets: antes (or a big-blind ante), blinds and straddles."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Self

import attrs

from cardgame.engine import Done
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError
from cardgame.model.events import ForcedBetPosted
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import check_bool, check_int, excerpt
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import table_fit
from cardgame.stages.results import ForcedBetsResult, HandOpened

__all__ = ["ForcedBets", "ForcedBetsResult"]


def _amounts(value: int | Sequence[int], what: str) -> tuple[int, ...]:
    if isinstance(value, int | str | bytes) or not isinstance(value, Sequence):
        return (check_int(value, f"{what} (in chips)", ConfigError, minimum=0),)
    return tuple(check_int(v, f"{what} (in chips)", ConfigError, minimum=0) for v in value)


_BLIND_NAMES = ("small blind", "big blind")

#: What the others call when a blind is short (see :class:`ForcedBets`).
SHORT_BLIND = ("full", "posted")


class ForcedBets(PokerStage):
    """Posts antes (dead money) and then live blinds, in blind order (heads-up: button first).

    ``blinds`` lists the live blinds from the small blind on: ``(1, 2)``, or ``(1, 2, 4)`` with a
    straddle. ``ante`` is one amount for everyone, or a tuple by position from the small blind;
    ``button_blind`` is a live blind posted by the button (short-deck's Triton format).

    * With ``big_blind_ante`` the big blind alone posts ``ante`` for the table, after the blind
      (a short big blind posts the blind first), as dead money in the main pot: every player can
      win it and it is never returned (TDA rules 2024, big-blind ante: big blind first).
      ``big_blind_ante_first`` posts it before the blinds instead, an ante like any other (TDA
      2019's order; PokerKit's).
    * Antes are dead money, each counted as its poster's contribution: a player short of the
      ante competes only for the antes they matched (``ante_trimming``, Robert's Rules; PHH's
      ``ante_trimming_status``). With ``ante_trimming=False`` every ante goes to the main pot.
    * Posts to come in (a new or returning player's, PHH's negative ``blinds_or_straddles``
      entries) follow the blinds, by position: ``live`` posts count toward calling, as a blind
      does, without moving the first to act; ``dead`` posts are dead money for the main pot
      (Robert's Rules, buttons and blinds: of a player's missed blinds, an amount up to the big
      blind is live and the rest dead).
    * A player short of a forced bet posts what they have and is all-in; the amount to call stays
      the full blind whether the blind is short by its stack or by the ante (TDA: others call the
      full blind); with ``short_blind="posted"`` the others call what the short blind posted, the
      minimum raise staying the full blind (PokerKit's rule). Pre-flop action starts left of the
      last blind.
    """

    name: ClassVar[str] = "forced bets"
    states: ClassVar[list[str]] = ["ready", "posted"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "posted", "conditions": "big_blind_antes_first",
         "before": ["post_big_blind_ante", "post_blinds", "post_dead"], "after": "hand_on"},
        {"trigger": "begin", "source": "ready", "dest": "posted", "conditions": "big_blind_antes",
         "before": ["post_blinds", "post_dead", "post_big_blind_ante"], "after": "hand_on"},
        {"trigger": "begin", "source": "ready", "dest": "posted",
         "before": ["post_antes", "post_blinds", "post_dead"], "after": "hand_on"},
    ]
    ends: ClassVar[dict[str, str]] = {"posted": "posts"}
    takes: ClassVar[tuple[type, ...]] = (HandOpened,)
    gives: ClassVar[tuple[type, ...]] = (ForcedBetsResult,)
    __slots__ = ("_antes", "_blinds", "_full", "_opener", "_posted", "_top", "ante", "ante_trimming", "big_blind_ante",
                 "big_blind_ante_first", "blinds", "button_blind", "dead", "live", "short_blind")

    def __init__(
        self,
        blinds: Sequence[int] = (1, 2),
        *,
        ante: int | Sequence[int] = 0,
        big_blind_ante: bool = False,
        live: Sequence[int] = (),
        button_blind: int = 0,
        ante_trimming: bool = True,
        dead: Sequence[int] = (),
        big_blind_ante_first: bool = False,
        short_blind: str = "full",
    ) -> None:
        super().__init__()
        for what, flag in (("big_blind_ante", big_blind_ante), ("big_blind_ante_first", big_blind_ante_first),
                           ("ante_trimming", ante_trimming)):
            check_bool(flag, what, ConfigError)
        self._posted: ForcedBetsResult | None = None  # what the last hand_on handed on
        self.blinds = _amounts(blinds, "blinds")
        self.ante = _amounts(ante, "antes")
        if big_blind_ante and len(self.ante) != 1:
            raise ConfigError("A big-blind ante is one amount, posted by the big blind.")
        if big_blind_ante and len(self.blinds) < 2:
            raise ConfigError("A big-blind ante needs a big blind: give at least two blinds.")
        if short_blind not in SHORT_BLIND:
            raise ConfigError(f"short_blind must be one of {', '.join(SHORT_BLIND)}, not {excerpt(short_blind)}.")
        self.big_blind_ante = big_blind_ante
        self.big_blind_ante_first = big_blind_ante_first
        self.short_blind = short_blind
        self.ante_trimming = ante_trimming
        self.dead = _amounts(dead, "dead posts")
        self.live = _amounts(live, "live posts")
        self.button_blind = check_int(button_blind, "button blind (in chips)", ConfigError, minimum=0)
        self._blinds: list[tuple[int, int]] = []
        self._antes: list[tuple[int, int]] = []
        self._opener: int | None = None
        self._top = 0
        self._full = 0

    def copy(self, ctx: Context) -> Self:
        """These forced bets in a copy of the game, with lists of posts of their own."""
        new = super().copy(ctx)
        new._blinds = self._blinds[:]
        new._antes = self._antes[:]
        return new

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Says whether live blinds open the betting (a stud bring-in cannot follow them)."""
        table = table_fit(before)
        return before if table is None else attrs.evolve(table, blinds=self._posts_blinds())

    def fit_key(self) -> Hashable:
        return self._posts_blinds()

    def _posts_blinds(self) -> bool:
        return any(self.blinds) or self.button_blind > 0

    # --- conditions and callbacks ---------------------------------------------------------------
    def big_blind_antes_first(self) -> bool:
        """The big blind posts the ante for the table before the blinds (TDA 2019; PokerKit)."""
        return self.big_blind_ante and self.big_blind_ante_first and self.ante[0] > 0

    def big_blind_antes(self) -> bool:
        """The big blind posts the ante for the table, after the blind (TDA 2024, big-blind ante)."""
        return self.big_blind_ante and self.ante[0] > 0

    def post_antes(self) -> None:
        hand = self.ctx.hand
        assert hand is not None, "forced bets run inside a hand"
        self._antes = antes = []
        ante = self.ante
        if len(ante) == 1:
            if ante[0]:
                for hp in hand.blind_order():
                    antes.append(self._post_dead(hp, ante[0], "ante"))
        else:
            for hp, amount in zip(hand.blind_order(), ante, strict=False):
                if amount:
                    antes.append(self._post_dead(hp, amount, "ante"))

    def post_blinds(self) -> None:
        """Live blinds in order; the full blind is the bet to call even when its poster is short or
        all-in on the ante (TDA: others call the full blind), and action starts left of the last."""
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None, "forced bets run inside a hand"
        if not self.blinds and not self.button_blind:  # antes only (Leduc, stud): no blind, no opener from one
            self._blinds, self._opener, self._full, self._top = [], None, 0, 0
        else:
            order = hand.blind_order()
            self._blinds = blinds = []
            last = -1
            top = 0
            amounts = self.blinds
            for i in range(min(len(order), len(amounts))):  # (not zip(..., strict=False): its keyword costs more)
                amount = amounts[i]
                if amount == 0:
                    continue
                hp = order[i]
                last = i
                if amount > top:
                    top = amount
                if hp.all_in:
                    continue
                paid = hp.put_in(min(amount, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, _BLIND_NAMES[i] if i < 2 else "straddle", paid, hp.all_in))
                blinds.append((hp.seat, paid))
            button = hand.players[-1]
            if self.button_blind:
                last = order.index(button)
                top = max(top, self.button_blind)
                if not button.all_in:
                    paid = button.put_in(min(self.button_blind, button.player.stack))
                    ctx.emit(ForcedBetPosted(button.seat, "button blind", paid, button.all_in))
                    blinds.append((button.seat, paid))
            self._opener = order[(last + 1) % len(order)].seat if last >= 0 else None  # left of the last blind
            self._full = top
            if self.short_blind == "posted":  # the others call what was posted (PokerKit)
                top = 0
                for _, paid in blinds:
                    if paid > top:
                        top = paid
            self._top = top

    def post_dead(self) -> None:
        """Posts to come in: the live part is a bet this street, then the dead part goes to the main pot."""
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None
        for hp, amount in zip(hand.blind_order(), self.live, strict=False) if self.live else ():
            if amount and not hp.all_in:
                paid = hp.put_in(min(amount, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, "live post", paid, hp.all_in))
                self._blinds.append((hp.seat, paid))
                self._top = max(self._top, paid)
        for hp, amount in zip(hand.blind_order(), self.dead, strict=False) if self.dead else ():
            if amount and not hp.all_in:
                paid = hp.put_main_pot(hand, min(amount, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, "dead blind", paid, hp.all_in))
                self._antes.append((hp.seat, paid))

    def post_big_blind_ante(self) -> None:
        """The big blind's ante: dead money in the main pot; posted first, an ante like any other
        (its poster's contribution when ``ante_trimming``, else the main pot's)."""
        hand = self.ctx.hand
        assert hand is not None
        bb = self.big_blind_player(hand)
        if bb is not None and self.big_blind_ante_first:
            self._antes.append(self._post_dead(bb, self.ante[0], "big blind ante"))
        elif bb is not None:
            paid = bb.put_main_pot(hand, min(self.ante[0], bb.player.stack))
            self.ctx.emit(ForcedBetPosted(bb.seat, "big blind ante", paid, bb.all_in))
            self._antes.append((bb.seat, paid))

    def big_blind_player(self, hand: Hand) -> HandPlayer | None:
        """Who posts the big-blind ante: the player in the big blind (second in blind order; heads-up the
        player who is not the button), ``None`` with one player."""
        order = hand.blind_order()
        return order[1] if len(order) >= 2 else None

    def hand_on(self) -> None:
        """Hand on the posts and what the betting round starts from: the bet to call, the minimum
        raise (the full blind) and the blind counted as the round's bet."""
        hand = self.ctx.hand
        assert hand is not None
        top = self._top
        blinds, antes = tuple(self._blinds), tuple(self._antes)
        self._blinds, self._antes = [], []
        self._posted = ForcedBetsResult(hand.button, blinds, antes, self._opener, top,
                                        self._full if self._full > top else top, 1 if top else 0)

    def posts(self) -> Done:
        """The ending of ``posted``: the posts, as :meth:`hand_on` gathered them."""
        return Done(self._posted)

    def _post_dead(self, hp: HandPlayer, amount: int, kind: str) -> tuple[int, int]:
        if self.ante_trimming:
            paid = hp.put_dead(min(amount, hp.player.stack))
        else:
            assert self.ctx.hand is not None
            paid = hp.put_main_pot(self.ctx.hand, min(amount, hp.player.stack))
        self.ctx.emit(ForcedBetPosted(hp.seat, kind, paid, hp.all_in))
        return (hp.seat, paid)
