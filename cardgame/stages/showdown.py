"""Showdown: show the live hands, split every pot among its best hands, end the hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardgame.errors import ConfigError
from cardgame.evaluation import HIGH, HandEvaluator, winners
from cardgame.events import CardsShown, PotAwarded
from cardgame.hand import Hand, HandPlayer
from cardgame.pots import side_pots, split
from cardgame.stage import Stage
from cardgame.stages.results import ShowdownResult

__all__ = ["Showdown", "ShowdownResult"]

#: How odd chips of a split pot are given out (see :class:`Showdown`).
ODD_CHIPS = ("position", "high card", "low card")

#: Hand descriptions by evaluator name and value: a hand's text depends only on its value.
_DESCRIPTIONS: dict[str, dict[int, str]] = {}


def _card_order(cards: Sequence[int], low: bool) -> int:
    """Sort key putting first the player with the highest card by suit (``low``: the lowest, aces low)."""
    if low:
        return min([((c >> 2) + 1) % 13 * 4 + (c & 3) for c in cards])
    return -max(cards)


def _describe(
    evaluator: HandEvaluator, memo: dict[int, str], value: int, hole: Sequence[int], board: Sequence[int]
) -> str:
    """Describe the hand worth ``value`` and remember the text in ``memo``."""
    hv = evaluator.describe(hole, board)
    text = memo[value] = "" if hv is None else hv.description
    return text


class Showdown(Stage):
    """Awards the pots and hands on a :class:`ShowdownResult` (the hand's end is the next stage).

    * The last player standing wins every pot without showing. A hand in ``hand.mucked`` or
      ``hand.killed`` is not shown and wins no pot another hand contests; a pot only it can win (its
      own excess) comes back to it. If every hand mucks, the full hands are shown after all.
    * Otherwise the live hands are shown, starting with the last player to bet or raise on the
      final round, else the first live player left of the button (Robert's Rules, showdown).
    * Each pot (main, then side pots) goes to its best eligible ``high`` hand; with a ``low``
      evaluator a pot splits into a high half and a low half (the odd chip to the high half), and
      the high hand scoops when no eligible hand qualifies for low.
    * Odd chips (Robert's Rules, ties): no winner gets more than one. ``odd_chips="position"``
      (flop and draw games) gives them one at a time to the winners in order clockwise from the
      button; stud gives them to the highest card by suit (``"high card"``; razz and the low half
      of hi/lo: the lowest card by suit, aces low, ``"low card"``), all of a player's cards counted.
    """

    name: ClassVar[str] = "showdown"
    states: ClassVar[list[str]] = ["ready", "pots_awarded", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "prepare": "gather_hands",
         "conditions": "one_hand_left", "after": ["award_to_last_hand", "hand_on"]},
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "after": ["show_and_award", "hand_on"]},
        {"trigger": "end", "source": "*", "dest": "done"},
    ]
    gives: ClassVar[tuple[type, ...]] = (ShowdownResult,)
    __slots__ = ("_live", "_mucked", "_shown", "_won", "high", "low", "odd_chips")

    def __init__(
        self,
        high: HandEvaluator | None = HIGH,
        low: HandEvaluator | None = None,
        *,
        odd_chips: str = "position",
    ) -> None:
        super().__init__()
        if high is None and low is None:
            raise ConfigError("A showdown needs a high evaluator, a low evaluator, or both.")
        if odd_chips not in ODD_CHIPS:
            raise ConfigError(f"odd_chips must be one of {', '.join(ODD_CHIPS)}, not {odd_chips!r}.")
        self.high = high
        self.low = low
        self.odd_chips = odd_chips
        self._live: list[HandPlayer] = []
        self._mucked: frozenset[int] = frozenset()
        self._won: dict[int, int] = {}
        self._shown: list[int] = []

    # --- conditions and callbacks ---------------------------------------------------------------
    def gather_hands(self) -> None:
        """The hands still in: a mucked hand is not shown but stays eligible for a pot nobody else
        can win (its own excess); if every hand mucks, the full hands are shown after all."""
        hand = self.ctx.hand
        assert hand is not None, "showdown runs inside a hand"
        self._won, self._shown = {}, []
        mucked = hand.mucked | hand.killed if hand.mucked or hand.killed else hand.mucked
        if mucked:
            for hp in hand.players:
                if hp.seat in mucked:
                    hp.folded = False
            live = hand.live()
            if all(hp.seat in mucked for hp in live):  # (a hand killed before the run-out is not full)
                most = max(len(hp.hole) for hp in live)
                mucked = frozenset([hp.seat for hp in live if len(hp.hole) < most])
        self._live = hand.live()
        self._mucked = mucked

    def one_hand_left(self) -> bool:
        return len(self._live) == 1

    def award_to_last_hand(self) -> None:
        """The last player standing wins every pot without showing."""
        hand = self.ctx.hand
        assert hand is not None
        last = self._live[0]
        total = hand.pot_total()
        last.player.stack += total
        self._won[last.seat] = total
        self.ctx.emit(PotAwarded(0, total, (last.seat,), (total,)))

    def show_and_award(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        live, mucked = self._live, self._mucked
        if live:
            self._shown = self._award(hand, [hp for hp in live if hp.seat not in mucked] if mucked else live,
                                      self._won, mucked)

    def hand_on(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        for hp in hand.players:
            hp.contributed = 0
            hp.bet = 0
        hand.dead = 0
        result = ShowdownResult(hand.number, tuple(sorted(self._won.items())), tuple(self._shown))
        self._live, self._won, self._shown = [], {}, []
        self.finish(result)

    def _show_order(self, hand: Hand, live: list[HandPlayer]) -> list[HandPlayer]:
        if hand.last_aggressor is not None and hand.last_aggressor in hand.by_seat:
            agg = hand.by_seat[hand.last_aggressor]
            if agg in live:
                i = live.index(agg)
                return live[i:] + live[:i]
        return live

    def _award(
        self, hand: Hand, live: list[HandPlayer], won: dict[int, int], mucked: frozenset[int]
    ) -> list[int]:
        emit = self.ctx.emit
        board = hand.board
        high, low = self.high, self.low
        highs: dict[int, int | None] = {}
        lows: dict[int, int | None] = {}
        texts: dict[int, tuple[str, str]] = {}
        hi_memo = _DESCRIPTIONS.setdefault(high.name, {}) if high is not None else {}
        lo_memo = _DESCRIPTIONS.setdefault(low.name, {}) if low is not None else {}
        for hp in self._show_order(hand, live):
            seat, hole = hp.seat, hp.hole
            hi_text = lo_text = ""
            if high is not None:
                v = highs[seat] = high.rank(hole, board)
                if v is not None:
                    hi_text = hi_memo.get(v) or _describe(high, hi_memo, v, hole, board)
            if low is not None:
                v = lows[seat] = low.rank(hole, board)
                if v is not None:
                    lo_text = lo_memo.get(v) or _describe(low, lo_memo, v, hole, board)
            texts[seat] = (hi_text, lo_text)
            emit(CardsShown(seat, tuple(hole), f"{hi_text} / {lo_text}" if hi_text and lo_text else hi_text or lo_text))
        for index, pot in enumerate(side_pots(hand.players, hand.dead)):
            eligible = ([seat for seat in pot.eligible if seat not in mucked] if mucked else None) or list(pot.eligible)
            low_winners = self._best(eligible, lows) if self.low is not None else []
            high_winners = self._best(eligible, highs) if self.high is not None else []
            if low_winners and high_winners:
                low_half = pot.amount // 2
                self._pay(index, pot.amount - low_half, high_winners, won, texts, 0, "high")
                self._pay(index, low_half, low_winners, won, texts, 1, "low")
            elif high_winners or low_winners:
                winners, which = (high_winners, 0) if high_winners else (low_winners, 1)
                self._pay(index, pot.amount, winners, won, texts, which, "")
            else:  # nobody qualifies (e.g. a low-only game with no qualifying hand): split evenly
                self._pay(index, pot.amount, eligible, won, texts, 0, "")
        return [hp.seat for hp in live]

    @staticmethod
    def _best(seats: list[int], values: dict[int, int | None]) -> list[int]:
        """The seats holding the best qualifying value (all of them on a tie)."""
        return [seats[i] for i in winners(seats, key=values.get)]

    def _pay(
        self,
        index: int,
        amount: int,
        winners: list[int],
        won: dict[int, int],
        texts: dict[int, tuple[str, str]],
        which: int,
        share: str,
    ) -> None:
        hand = self.ctx.hand
        assert hand is not None
        if self.odd_chips != "position" and len(winners) > 1 and amount % len(winners):
            low = which == 1 or self.odd_chips == "low card"
            winners = sorted(winners, key=lambda seat: _card_order(hand.by_seat[seat].hole, low))
        shares = split(amount, winners)
        for seat, chips in zip(winners, shares, strict=True):
            hand.by_seat[seat].player.stack += chips
            won[seat] = won.get(seat, 0) + chips
        text = texts.get(winners[0], ("", ""))[which]  # "" for a mucked hand taking back its own excess
        self.ctx.emit(PotAwarded(index, amount, tuple(winners), tuple(shares), text, share))
