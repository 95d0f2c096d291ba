"""Showdown: show the live hands, split every pot among its best hands, end the hand."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Self

from cardgame.engine import Done
from cardgame.evaluation import HIGH, HandEvaluator, winners
from cardgame.evaluation.protocol import card_counts
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError
from cardgame.model.events import CardsShown, PotAwarded, RakeTaken
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import excerpt
from cardgame.model.pots import Pot, side_pots, split
from cardgame.model.rake import FixedRake, Rake, rake_pots
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import TableFit, table_fit
from cardgame.stages.results import ShowdownResult

__all__ = ["Showdown", "ShowdownResult"]

#: How odd chips of a split pot are given out (see :class:`Showdown`).
ODD_CHIPS = ("position", "high card", "low card")

#: What becomes of a pot's low half when none of its hands qualifies for low (see :class:`Showdown`).
NO_LOW = ("scoop", "split")

#: The values and descriptions of an evaluator a showdown does not have (read, never written).
_NO_VALUES: tuple[dict[int, int | None], dict[int, str]] = ({}, {})

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
    """Describe the hand worth ``value`` (from the value alone when the evaluator
    :class:`~cardgame.evaluation.protocol.DescribesValues`) and remember the text in ``memo``."""
    text_of = getattr(evaluator, "text", None)  # DescribesValues (a runtime protocol check costs ~10 us)
    if callable(text_of):
        text: str = text_of(value)
        memo[value] = text
        return text
    hv = evaluator.describe(hole, board)
    text = memo[value] = "" if hv is None else hv.description
    return text


class Showdown(PokerStage):
    """Awards the pots and hands on a :class:`ShowdownResult` (the hand's end is the next stage).

    * The last player standing wins every pot without showing. A hand in ``hand.mucked`` or
      ``hand.killed`` is not shown and wins no pot another hand contests; a pot only it can win (its
      own excess) comes back to it. If every hand mucks, the full hands are shown after all; if
      all but one muck, that one wins what it contests without showing (however short the board).
    * Otherwise the live hands are shown, starting with the last player to bet or raise on the
      final round, else the first live player from where that round's action started: left of
      the button, or stud's best board (TDA rule 16; Robert's Rules, showdown).
    * Each pot (main, then side pots) goes to its best eligible ``high`` hand; with a ``low``
      evaluator a pot splits into a high half and a low half (the odd chip to the high half), and
      the high hand scoops when no eligible hand qualifies for low.
    * Odd chips (Robert's Rules, ties): no winner gets more than one. ``odd_chips="position"``
      (flop and draw games) gives them one at a time to the winners in order clockwise from the
      button; stud gives them to the highest card by suit (``"high card"``; razz and the low half
      of hi/lo: the lowest card by suit, aces low, ``"low card"``), all of a player's cards counted.

    Options that follow PokerKit (0.7.7) instead of the rulebook, for comparing with it:

    * ``one_odd_chip_each=False``: every odd chip of a split goes to the first winner in the
      odd-chip order.
    * ``merge_pots=True``: after the hands that can win nothing are set aside, consecutive pots
      contested by the same remaining hands are merged and split as one (Robert's Rules split
      side pots and the main pot separately).
    * ``no_low="split"``: when a hand qualifies for low in some pot but none of a pot's hands
      does, that pot's low half is split among its hands that can win something, not scooped.

    ``rake`` (a :class:`~cardgame.model.rake.Rake`, or a :class:`~cardgame.model.rake.FixedRake` of a
    recorded amount) takes the house's cut from the pots before they are awarded, the main pot
    first, and says how much with a :class:`~cardgame.model.events.RakeTaken` event.
    """

    name: ClassVar[str] = "showdown"
    states: ClassVar[list[str]] = ["ready", "pots_awarded"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "prepare": "gather_hands",
         "conditions": "one_hand_left", "after": ["award_to_last_hand", "hand_on"]},
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "after": ["show_and_award", "hand_on"]},
    ]
    ends: ClassVar[dict[str, str]] = {"pots_awarded": "awards"}
    gives: ClassVar[tuple[type, ...]] = (ShowdownResult,)
    __slots__ = ("_awarded", "_live", "_mucked", "_shown", "_won", "high", "low", "merge_pots", "no_low", "odd_chips",
                 "one_odd_chip_each", "rake")

    def __init__(
        self,
        high: HandEvaluator | None = HIGH,
        low: HandEvaluator | None = None,
        *,
        odd_chips: str = "position",
        one_odd_chip_each: bool = True,
        merge_pots: bool = False,
        no_low: str = "scoop",
        rake: Rake | FixedRake | None = None,
    ) -> None:
        super().__init__()
        if high is None and low is None:
            raise ConfigError("A showdown needs a high evaluator, a low evaluator, or both.")
        if odd_chips not in ODD_CHIPS:
            raise ConfigError(f"odd_chips must be one of {', '.join(ODD_CHIPS)}, not {excerpt(odd_chips)}.")
        if no_low not in NO_LOW:
            raise ConfigError(f"no_low must be one of {', '.join(NO_LOW)}, not {excerpt(no_low)}.")
        if rake is not None and not isinstance(rake, Rake | FixedRake):
            raise ConfigError(f"rake is a Rake (percent, cap), a FixedRake or None, not {excerpt(rake)}.")
        self.rake = rake
        self.high = high
        self.low = low
        self.odd_chips = odd_chips
        self.one_odd_chip_each = one_odd_chip_each
        self.merge_pots = merge_pots
        self.no_low = no_low
        self._live: list[HandPlayer] = []
        self._mucked: frozenset[int] = frozenset()
        self._won: dict[int, int] = {}
        self._shown: list[int] = []
        self._awarded: ShowdownResult | None = None  # what the last hand_on handed on

    def copy(self, ctx: Context) -> Self:
        """This showdown in a copy of the game: its hands those of ``ctx``'s hand, its tallies its own."""
        new = super().copy(ctx)
        hand = ctx.hand
        new._live = [] if hand is None else [hand.by_seat[hp.seat] for hp in self._live]
        new._won = dict(self._won)
        new._shown = self._shown[:]
        return new

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Needs the cards its evaluators rank (:class:`~cardgame.evaluation.CardCounts`), hole, up
        and board cards, on every path where hands are shown."""
        table = table_fit(before)
        if table is None:
            return before
        if table.contested:
            for evaluator in (self.high, self.low):
                counts = card_counts(evaluator)
                problem = None if counts is None else counts.misfit(table.hole, table.board, table.together)
                if problem:
                    name = getattr(evaluator, "name", None)
                    name = name if isinstance(name, str) and len(name) <= 60 else excerpt(name)
                    raise ConfigError(f"the {name} evaluator ranks hands of {problem}, but players here can use "
                                      f"{table.cards_text()}")
        return TableFit(table.seats, table.deck, blinds=table.blinds)  # the paths meet: the pots are awarded

    def fit_key(self) -> Hashable:
        return card_counts(self.high), card_counts(self.low)

    # --- conditions and callbacks ---------------------------------------------------------------
    def gather_hands(self) -> None:
        """The hands still in: a mucked hand is not shown but stays eligible for a pot nobody else
        can win (its own excess); if every hand mucks, the full hands are shown after all."""
        hand = self.ctx.hand
        assert hand is not None, "showdown runs inside a hand"
        self._won, self._shown = {}, []
        mucked = hand.mucked | hand.killed if hand.mucked or hand.killed else hand.mucked
        if mucked:
            mucked = _unmucked(hand, mucked)
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
        if self.rake is not None:
            total -= self._take_rake(hand, total)
        last.player.stack += total
        self._won[last.seat] = total
        self.ctx.emit(PotAwarded(0, total, (last.seat,), (total,)))

    def show_and_award(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        live, mucked = self._live, self._mucked
        if mucked and sum(hp.seat not in mucked for hp in live) == 1:
            self._award_unshown(hand, mucked)
        elif live:
            self._shown = self._award(hand, [hp for hp in live if hp.seat not in mucked] if mucked else live,
                                      self._won, mucked)

    def _award_unshown(self, hand: Hand, mucked: frozenset[int]) -> None:
        """Every other live hand was mucked (perhaps before the run-out, so the board may be short):
        the one hand left wins every pot it contests without showing, as the last player standing
        does. A pot only mucked hands contest (their excess over it) goes back to them, split
        evenly, odd chips in position order, since none of them is shown."""
        emit, won = self.ctx.emit, self._won
        for index, pot in enumerate(self._pots(hand)):
            winners = [seat for seat in pot.eligible if seat not in mucked] or list(pot.eligible)
            shares = split(pot.amount, winners)
            for seat, chips in zip(winners, shares, strict=True):
                hand.by_seat[seat].player.stack += chips
                won[seat] = won.get(seat, 0) + chips
            emit(PotAwarded(index, pot.amount, tuple(winners), tuple(shares)))

    def _pots(self, hand: Hand) -> list[Pot]:
        """The pots to award: :func:`~cardgame.model.pots.side_pots`, less the rake (main pot first)."""
        pots = side_pots(hand.players, hand.dead)
        if self.rake is None:
            return pots
        chips = self._take_rake(hand, sum([pot.amount for pot in pots]))
        return rake_pots(pots, chips) if chips else pots

    def _take_rake(self, hand: Hand, pot: int) -> int:
        """The rake on a ``pot`` of that many chips (announced with :class:`RakeTaken` when there is one)."""
        assert self.rake is not None
        chips = self.rake.amount(pot, flop=bool(hand.board or hand.runouts), players=len(hand.players))
        if chips:
            self.ctx.emit(RakeTaken(chips))
        return chips

    def hand_on(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        for hp in hand.players:
            hp.contributed = 0
            hp.bet = 0
        hand.dead = 0
        self._awarded = ShowdownResult(hand.number, tuple(sorted(self._won.items())), tuple(self._shown))
        self._live, self._won, self._shown = [], {}, []

    def awards(self) -> Done:
        """The ending of ``pots_awarded``: who won what and whose hands were shown."""
        return Done(self._awarded)

    def _show_order(self, hand: Hand, live: list[HandPlayer]) -> list[HandPlayer]:
        """TDA rule 16 (Robert's Rules, showdown): the last player to bet or raise on the final round
        shows first; with no bet, the first live player from where that round's action started (left
        of the button in flop and draw games, the best board showing in stud, the worst in razz)."""
        if hand.last_aggressor is not None and hand.last_aggressor in hand.by_seat:
            agg = hand.by_seat[hand.last_aggressor]
            if agg in live:
                i = live.index(agg)
                return live[i:] + live[:i]
        if hand.first_to_act is not None and hand.first_to_act in hand.by_seat:
            start = hand.players.index(hand.by_seat[hand.first_to_act])
            order = hand.ring[start : start + len(hand.players)]
            return [hp for hp in order if hp in live]
        return live

    def _award(
        self, hand: Hand, live: list[HandPlayer], won: dict[int, int], mucked: frozenset[int]
    ) -> list[int]:
        """Show the hands in order and award every pot; a hand run more than once splits each pot
        equally between its run-outs (an odd chip to the first) and awards each part on its board."""
        emit = self.ctx.emit
        boards = hand.runouts or (hand.board,)
        high, low = self.high, self.low
        runs = [(self._values(high, live, board), self._values(low, live, board) if low is not None else _NO_VALUES)
                for board in boards]
        for hp in self._show_order(hand, live):
            parts = []
            for (_, hi_text), (_, lo_text) in runs:
                t = (hi_text.get(hp.seat, ""), lo_text.get(hp.seat, ""))
                parts.append(f"{t[0]} / {t[1]}" if t[0] and t[1] else t[0] or t[1])
            emit(CardsShown(hp.seat, tuple(hp.hole), parts[0] if len(parts) == 1 else "; ".join(
                f"run {i + 1}: {text}" for i, text in enumerate(parts))))
        several = len(boards) > 1
        pots = [(index, pot.amount, ([seat for seat in pot.eligible if seat not in mucked] if mucked else None)
                 or list(pot.eligible)) for index, pot in enumerate(self._pots(hand))]
        contenders = self._contenders(pots, runs) if self.merge_pots or self.no_low == "split" else None
        if self.merge_pots and contenders is not None:
            pots = _merged(pots, contenders)
        for index, pot_amount, eligible in pots:
            for run, amount in enumerate(split(pot_amount, range(len(boards))) if several else (pot_amount,)):
                (highs, hi_texts), (lows, lo_texts) = runs[run]
                texts = (hi_texts, lo_texts)
                label = run if several else None
                low_winners = self._best(eligible, lows) if low is not None else []
                high_winners = self._best(eligible, highs) if high is not None else []
                if (not low_winners and high_winners and contenders is not None and self.no_low == "split"
                        and any(v is not None for v in lows.values())):  # PokerKit: the low half still split
                    low_winners = [seat for seat in eligible if seat in contenders]
                if low_winners and high_winners:
                    low_half = amount // 2
                    self._pay(index, amount - low_half, high_winners, won, texts, 0, "high", label)
                    self._pay(index, low_half, low_winners, won, texts, 1, "low", label)
                elif high_winners or low_winners:
                    winners, which = (high_winners, 0) if high_winners else (low_winners, 1)
                    self._pay(index, amount, winners, won, texts, which, "", label)
                else:  # nobody qualifies (e.g. a low-only game with no qualifying hand): split evenly
                    self._pay(index, amount, eligible, won, texts, 0, "", label)
        return [hp.seat for hp in live]

    def _contenders(
        self, pots: list[tuple[int, int, list[int]]],
        runs: list[tuple[tuple[dict[int, int | None], dict[int, str]], tuple[dict[int, int | None], dict[int, str]]]],
    ) -> frozenset[int]:
        """The seats that win a share (high or low, on some board) of some pot they are eligible for."""
        out: set[int] = set()
        for _, _, eligible in pots:
            for (highs, _), (lows, _) in runs:
                if self.high is not None:
                    out.update(self._best(eligible, highs))
                if self.low is not None:
                    out.update(self._best(eligible, lows))
        return frozenset(out)

    @staticmethod
    def _values(
        evaluator: HandEvaluator | None, live: list[HandPlayer], board: Sequence[Card]
    ) -> tuple[dict[int, int | None], dict[int, str]]:
        """Each live hand's value with ``board`` (``None``: does not qualify) and its description."""
        values: dict[int, int | None] = {}
        texts: dict[int, str] = {}
        if evaluator is None:
            return values, texts
        memo = _DESCRIPTIONS.setdefault(evaluator.name, {})
        for hp in live:
            v = values[hp.seat] = evaluator.rank(hp.hole, board)
            if v is not None:
                texts[hp.seat] = memo.get(v) or _describe(evaluator, memo, v, hp.hole, board)
        return values, texts

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
        texts: tuple[dict[int, str], dict[int, str]],
        which: int,
        share: str,
        run: int | None = None,
    ) -> None:
        hand = self.ctx.hand
        assert hand is not None
        if self.odd_chips != "position" and len(winners) > 1 and amount % len(winners):
            low = which == 1 or self.odd_chips == "low card"
            winners = sorted(winners, key=lambda seat: _card_order(hand.by_seat[seat].hole, low))
        shares = split(amount, winners)
        if not self.one_odd_chip_each and len(shares) > 1:  # every odd chip to the first winner
            shares = [amount - shares[-1] * (len(shares) - 1)] + [shares[-1]] * (len(shares) - 1)
        for i, seat in enumerate(winners):  # one share per winner
            chips = shares[i]
            hand.by_seat[seat].player.stack += chips
            won[seat] = won.get(seat, 0) + chips
        text = texts[which].get(winners[0], "")  # "" for a mucked hand taking back its own excess
        self.ctx.emit(PotAwarded(index, amount, tuple(winners), tuple(shares), text, share, run))


def _unmucked(hand: Hand, mucked: frozenset[int]) -> frozenset[int]:
    """The mucked hands back in (eligible for what only they can win); the seats that stay mucked: all of
    them, unless every live hand mucks, when the full hands are shown after all (a hand killed before the
    run-out is not full)."""
    for hp in hand.players:
        if hp.seat in mucked:
            hp.folded = False
    live = hand.live()
    if all(hp.seat in mucked for hp in live):
        most = max(len(hp.hole) for hp in live)
        mucked = frozenset([hp.seat for hp in live if len(hp.hole) < most])
    return mucked


def _merged(pots: list[tuple[int, int, list[int]]], contenders: frozenset[int]) -> list[tuple[int, int, list[int]]]:
    """Consecutive pots contested by the same ``contenders`` merged into one (PokerKit's pots)."""
    out: list[tuple[int, int, list[int]]] = []
    for index, amount, eligible in pots:
        live = [seat for seat in eligible if seat in contenders] or eligible
        if out and out[-1][2] == live:
            out[-1] = (out[-1][0], out[-1][1] + amount, live)
        else:
            out.append((index, amount, live))
    return out
