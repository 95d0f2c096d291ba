"""Find the stud bring-in: the lowest up card (razz: the highest), ties broken by suit."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from cardgame.engine import Done
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import table_fit
from cardgame.stages.results import BringInResult

__all__ = ["BringIn", "BringInResult"]


class BringIn(PokerStage):
    """Names the player who must open third street with the bring-in.

    Stud (Robert's Rules): the lowest up card brings in, aces high; equal ranks are broken by
    suit, clubs lowest, then diamonds, hearts, spades. Razz (``highest=True``): the highest up
    card brings in, aces low, and the highest suit (spades) breaks ties. A player all-in on the
    ante cannot bring in: the next card in that order does. The player then posts the bring-in
    (all they have when short of it) or completes to the small bet in the betting round that follows.

    ``all_in_passes="seat"`` follows PokerKit (0.7.7) instead: when the card that would bring in
    is an all-in player's, the next player clockwise who can bet brings in.
    """

    name: ClassVar[str] = "bring-in"
    states: ClassVar[list[str]] = ["ready", "brought_in", "no_bring_in"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "brought_in", "prepare": "find_bring_in",
         "conditions": "someone_can_bring_in", "after": "name_the_bring_in"},
        {"trigger": "begin", "source": "ready", "dest": "no_bring_in"},
    ]
    ends: ClassVar[dict[str, str]] = {"brought_in": "bring_in", "no_bring_in": "no_bring_in"}
    takes: ClassVar[tuple[type, ...]] = (object,)
    gives: ClassVar[tuple[type, ...]] = (BringInResult,)
    __slots__ = ("_chosen", "all_in_passes", "amount", "highest")

    def __init__(
        self, amount: object, *, highest: bool = False, all_in_passes: str = "card"  # object: checked here
    ) -> None:
        super().__init__()
        amount = check_int(amount, "bring-in (chips)", ConfigError, minimum=1)
        if all_in_passes not in ("card", "seat"):
            raise ConfigError(f"all_in_passes must be 'card' or 'seat', not {excerpt(all_in_passes)}.")
        self.amount = amount
        self.highest = highest
        self.all_in_passes = all_in_passes
        self._chosen: int | None = None

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Needs an up card dealt to each player before it, and no blinds: the bring-in opens a stud
        game's betting (Robert's Rules, seven-card stud), where only antes are posted."""
        table = table_fit(before)
        if table is None:
            return before
        if table.up < 1:
            raise ConfigError(
                "the lowest up card brings in (razz: the highest), but no up card is dealt before it; "
                "deal each player an up card first, as stud does with DealHole(face_up=(False, False, True))"
            )
        if table.blinds:
            raise ConfigError(
                "a bring-in opens the betting in a game without blinds, but blinds are posted before it; "
                "post antes only (ForcedBets((), ante=...)), or leave the bring-in out and let the blinds open"
            )
        return before

    # --- conditions and callbacks ---------------------------------------------------------------
    def find_bring_in(self) -> None:
        """The lowest up card (razz: the highest) among the players who can still bet."""
        hand = self.ctx.hand
        assert hand is not None, "the bring-in is found inside a hand"
        chosen = None
        best: tuple[int, int] | None = None
        by_seat = self.all_in_passes == "seat"
        for hp in hand.players:
            if hp.folded or (hp.all_in and not by_seat):  # all-in on the ante: the next lowest card brings in
                continue
            up = [c for c, u in zip(hp.hole, hp.face_up, strict=True) if u]
            if not up:
                continue
            card = up[-1]
            if self.highest:  # razz: aces low; the highest card (and suit) brings in
                key = ((card.rank + 1) % 13, card.suit)
            else:  # stud: the lowest card (and suit) brings in; negate to keep "largest wins"
                key = (-card.rank, -card.suit)
            if best is None or key > best:
                best, chosen = key, hp
        if chosen is not None and chosen.all_in:  # ``all_in_passes="seat"``: the next player who can bet
            players = hand.players
            i = players.index(chosen)
            able = [hp for hp in players[i + 1:] + players[:i] if not hp.folded and not hp.all_in]
            chosen = able[0] if able else None
        self._chosen = None if chosen is None or hand.live_count() < 2 else chosen.seat

    def someone_can_bring_in(self) -> bool:
        return self._chosen is not None

    def name_the_bring_in(self) -> None:
        hand = self.ctx.hand
        assert hand is not None and self._chosen is not None
        hand.bring_in = self._chosen

    def bring_in(self) -> Done:
        """The ending of ``brought_in``: who brings in, and how much."""
        return Done(BringInResult(self._chosen, self.amount))

    def no_bring_in(self) -> Done:
        """The ending of ``no_bring_in``: nobody brings in (fewer than two can bet)."""
        return Done(BringInResult(None, self.amount))
