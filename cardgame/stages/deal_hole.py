"""Deal hole cards to every player still in the hand."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import attrs

from cardgame.model.cards import CARDS
from cardgame.model.errors import ConfigError
from cardgame.model.events import BoardDealt, HoleCardsDealt
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import count, table_fit

__all__ = ["DealHole"]


class DealHole(PokerStage):
    """Deals ``len(face_up)`` cards (or ``count`` face-down cards) to each live player.

    Players are served clockwise from the button's left, each taking their cards as one block
    from the top of the deck (with a shuffled deck this deals the same hands as one card at a
    time, and a stacked deck for a replay lists each player's cards together). Passes the
    previous result on. Ends at once, dealing nothing, when fewer than two players are live.

    With ``community_if_short`` (seven-card stud's last card), when the deck cannot give every
    live player a card, one card is dealt face up to the board for everyone instead (Robert's
    Rules of Poker, stud: "if there are not enough cards...a common card").
    """

    name: ClassVar[str] = "deal hole cards"
    states: ClassVar[list[str]] = ["ready", "dealt", "not_contested"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "dealt", "conditions": "hand_contested", "unless": "deck_short",
         "after": "deal"},
        {"trigger": "begin", "source": "ready", "dest": "dealt", "conditions": ["hand_contested", "deck_short"],
         "after": "deal_community_card"},
        {"trigger": "begin", "source": "ready", "dest": "not_contested"},
    ]
    ends: ClassVar[dict[str, str]] = {"dealt": "passed_on", "not_contested": "passed_on"}
    __slots__ = ("community_if_short", "face_up", "street")

    def __init__(
        self, count: object = 2, *, face_up: Sequence[bool] | None = None, community_if_short: bool = False,
        street: str = "",
    ) -> None:
        super().__init__()
        #: The street these cards make, as a dealer names it (stud's ``third street``); "" for the hole cards.
        self.street = check_text(street, "street name", ConfigError, max_length=60, empty=True)
        if face_up is None:
            count = check_int(count, "hole card count", ConfigError, minimum=1, maximum=len(CARDS))
            face_up = (False,) * count
        given: object = face_up  # checked here: a caller may pass anything
        if isinstance(given, str | bytes) or not isinstance(given, Sequence) or len(given) > len(CARDS):
            raise ConfigError(f"face_up is a list of True/False, one per card dealt, not {excerpt(given)}.")
        if not face_up:
            raise ConfigError("DealHole must deal at least one card.")
        self.face_up = tuple(bool(u) for u in face_up)
        self.community_if_short = community_if_short

    @property
    def label(self) -> str:
        """``deal hole cards``, or the street it deals: ``deal third street``."""
        return f"deal {self.street}" if self.street else self.name

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Adds its cards to each player's (its up cards to those showing); the deck must hold them
        for the most players dealt in, unless the last card becomes a community card when it runs
        short (``community_if_short``)."""
        table = table_fit(before)
        if table is None:
            return before
        n, up = len(self.face_up), sum(self.face_up)
        need, deck = table.needed(n, 0), table.deck
        if self.community_if_short and need is not None and deck is not None and need > deck:
            # at the most seats one community card; with fewer players, a card each
            table.take(0, 1, "a community card when the deck is short")
            return attrs.evolve(table, hole=(table.hole[0], table.hole[1] + n),
                                board=(table.board[0], table.board[1] + 1),
                                together=(table.together[0] + min(n, 1), table.together[1] + n), other=table.other + 1)
        table.take(n, 0, f"{count(n)} to each player")
        return table.deal(n, up, 0)

    def fit_key(self) -> Hashable:
        return self.face_up, self.community_if_short

    # --- conditions and callbacks ---------------------------------------------------------------
    def hand_contested(self) -> bool:
        """Two or more players are live."""
        return self.ctx.hand.contested()  # type: ignore[union-attr]  # dealing runs inside a hand

    def _dealt_to(self) -> int:
        """Live players still dealt to: a hand killed before the run-out gets no more cards."""
        hand = self.ctx.hand
        assert hand is not None
        live = hand.live_count()
        return live - len(hand.killed) if hand.killed else live

    def deck_short(self) -> bool:
        """Seven-card stud's last card when the deck cannot give every live player one."""
        return self.community_if_short and len(self.ctx.hand.deck) < (  # type: ignore[union-attr]  # in a hand
            self._dealt_to() * len(self.face_up))

    def deal_community_card(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        card = hand.deck.deal(1)
        hand.board.extend(card)
        self.ctx.emit(BoardDealt("community card", tuple(card), tuple(hand.board)))

    def deal(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        killed = hand.killed
        up = self.face_up
        n = len(up)
        dealt = tuple(hand.deck.deal(n * self._dealt_to()))  # one draw for everyone: each takes the next n
        emit = self.ctx.emit
        i = 0
        for hp in hand.players:
            if hp.folded or (killed and hp.seat in killed):
                continue
            cards = dealt[i : i + n]
            i += n
            hp.hole.extend(cards)
            hp.face_up.extend(up)
            emit(HoleCardsDealt(hp.seat, cards, up))
