"""The demo's narration: a game's events as the lines a poker player reads, one line per action
(the PHH hand-history format is :mod:`cardgame.phh`).

``Narration.for_stages(stages)`` reads the variant's forced bets (and whether it is a stud game,
where no button is named and the first full bet after the bring-in *completes*) from its stage
list; ``feed(event)`` returns the lines the event adds (a deal is written once every seat has its
cards, so its line comes with the next event); ``results()`` tallies each player's hands, net
chips and stack. Every player's cards are written; cards everyone sees are in brackets::

    ─────────── Hand #4, button Dan, blinds 1/2 ───────────
    Eve posts small blind 1
    *** HOLE CARDS *** Eve Qc Kh, Fay 6h 3s, Ann Ks 7d
    Ann raises to 4
    *** FLOP *** [5s 8d 8h]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

import attrs

from cardgame.engine import Stage
from cardgame.model.cards import Card, format_cards
from cardgame.model.context import Context
from cardgame.model.events import (
    ActionTaken,
    BoardDealt,
    CardsDiscarded,
    CardsShown,
    ChipsAdded,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandMucked,
    HandStarted,
    HoleCardsDealt,
    PlayerLeft,
    PlayerSatOut,
    PlayerSeated,
    PotAwarded,
    RunsChosen,
)
from cardgame.stages import BettingRound, BringIn, ForcedBets

__all__ = ["Line", "Narration", "PlayerResult", "plain_hand", "stakes_of"]

LineKind = Literal["hand", "street", "action", "result"]


@attrs.frozen
class Line:
    """One line of a hand history: ``kind`` is "hand" (a hand's header), "street" (a deal, the
    board, the showdown), "action" (a bet, a forced bet, a pot won...) or "result" (stacks after
    a hand, a player out of chips)."""

    kind: LineKind
    text: str


@attrs.frozen
class PlayerResult:
    """One player's game: hands dealt in, chips won or lost, and the stack now (or cashed out)."""

    seat: int
    name: str
    hands: int
    net: int
    stack: int


_RANK_NAMES = dict(zip("23456789TJQKA", ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
                                          "Jack", "Queen", "King", "Ace"), strict=True))
_RUN = re.compile(r"run (\d+): ")  # a board's label in a showdown of a hand run more than once
_HIGH = re.compile(r"^(High Card|Pair|Two Pair|Three of a Kind|Straight|Flush|Full House|Four of a Kind|"
                   r"Straight Flush) \(([2-9TJQKA](?: [2-9TJQKA]| over [2-9TJQKA])*)\)$")


def _plural(rank: str) -> str:
    name = _RANK_NAMES[rank]
    return name + ("es" if name == "Six" else "s")


def _plain_high(description: str) -> str:
    """One high-hand description (``Pair (8 K Q 7)``) in words (``Pair of Eights (K Q 7)``)."""
    m = _HIGH.match(description)
    if m is None:
        return description
    category, ranks = m.group(1), m.group(2).replace(" over ", " ").split()
    top, rest = ranks[0], " ".join(ranks[1:])
    kickers = f" ({rest})" if rest else ""
    if category == "High Card":
        return f"{_RANK_NAMES[top]} high{kickers}"
    if category == "Pair":
        return f"Pair of {_plural(top)}{kickers}"
    if category == "Two Pair":
        tail = f" ({' '.join(ranks[2:])})" if ranks[2:] else ""
        return f"Two Pair, {_plural(top)} and {_plural(ranks[1])}{tail}"
    if category == "Full House":
        return f"Full House, {_plural(top)} full of {_plural(ranks[1])}"
    if category in ("Straight", "Straight Flush"):
        return "Royal Flush" if category == "Straight Flush" and top == "A" else f"{category}, {_RANK_NAMES[top]} high"
    if category == "Flush":
        return f"Flush, {_RANK_NAMES[top]} high{kickers}"
    return f"{category}, {_plural(top)}{kickers}"  # three or four of a kind


def plain_hand(description: str) -> str:
    """A showdown description in a poker player's words: ``Pair (8 K Q 7)`` becomes ``Pair of
    Eights (K Q 7)`` and ``Full House (7 over J)`` ``Full House, Sevens full of Jacks``.

    High hands (the format of :func:`cardgame.evaluation.describe_high`) are rewritten, each half
    of a hi/lo description (``high / low``, ``; `` between boards) on its own, each board of a hand
    run more than once after its label (``run 2: Pair (8 K Q 7)`` becomes ``Run 2: Pair of Eights
    (K Q 7)``); any other text (lows, badugi, Kuhn's ``King high``) is returned as it is.
    """
    out = []
    for board in description.split("; "):
        run = _RUN.match(board)
        label, text = (f"Run {run.group(1)}: ", board[run.end():]) if run else ("", board)
        out.append(label + " / ".join(_plain_high(half) for half in text.split(" / ")))
    return "; ".join(out)


def stakes_of(stages: Sequence[Stage[Context]]) -> str:
    """The forced bets of a stage list in words: ``blinds 1/2``, ``ante 1, bring-in 2``."""
    parts: list[str] = []
    for stage in stages:
        if isinstance(stage, ForcedBets):
            if any(stage.blinds):
                parts.append("blinds " + "/".join(map(str, stage.blinds)))
            if any(stage.ante):
                what = "big-blind ante" if stage.big_blind_ante else "ante" if len(stage.ante) == 1 else "antes"
                parts.append(f"{what} " + "/".join(map(str, stage.ante)))
        elif isinstance(stage, BringIn):
            parts.append(f"bring-in {stage.amount}")
    return ", ".join(parts)


def _cards(cards: Sequence[Card | None], face_up: Sequence[bool]) -> str:
    """Cards in dealt order, each run of face-up cards in brackets: ``4c Jc [Ac 7d]``."""
    out: list[str] = []
    run: list[str] = []
    up = list(face_up) or [False] * len(cards)
    for card, shown in zip(cards, up, strict=True):
        text = "??" if card is None else str(card)
        if shown:
            run.append(text)
            continue
        if run:
            out.append(f"[{' '.join(run)}]")
            run = []
        out.append(text)
    if run:
        out.append(f"[{' '.join(run)}]")
    return " ".join(out)


_ORDINALS = ("FIRST", "SECOND", "THIRD")


class Narration:
    """Turns events into hand-history lines and keeps each player's results.

    ``stakes`` is added to each hand's header. ``complete_to`` marks a stud game (``None``: a
    game with a button): no button is named, and the first bet or raise of third street to at
    least ``complete_to`` is written as a completion of the bring-in.
    """

    def __init__(self, names: Mapping[int, str] | None = None, *, stakes: str = "",
                 complete_to: int | None = None) -> None:
        self.names: dict[int, str] = dict(names or {})
        self.stakes = stakes
        self.complete_to = complete_to
        self.hands_played = 0
        self._bought: dict[int, int] = {}
        self._stack: dict[int, int] = {}
        self._hands: dict[int, int] = {}
        self._left: list[PlayerResult] = []  # players who cashed out and left
        self._started: dict[int, int] = {}  # stacks when the hand in progress started
        self._deals: list[HoleCardsDealt] = []  # a deal not yet written
        self._antes: list[ForcedBetPosted] = []  # antes of one amount, not yet written
        self._holding: dict[int, tuple[list[Card | None], list[bool]]] = {}
        self._discard: CardsDiscarded | None = None
        self._draws = 0
        self._drawing = False
        self._completing = False
        self._shown = False
        self._dealt = False
        self._sat_out: list[PlayerSatOut] = []  # in a hand: said at its end, unless out of chips
        self._runs: list[int] = []  # run-outs each player asked for, in this hand
        self._common: int | None = None  # board cards shared by every run-out (once they are dealt)
        self._run = 0  # the run-out being dealt (1 is the first; 0: the board is dealt once)

    @classmethod
    def for_stages(cls, stages: Sequence[Stage[Context]], names: Mapping[int, str] | None = None) -> Narration:
        """A history for a game of ``stages``: its stakes, and stud (a bring-in stage) or not."""
        complete_to: int | None = None
        if any(isinstance(s, BringIn) for s in stages):
            rounds = [s for s in stages if isinstance(s, BettingRound)]
            complete_to = rounds[0].structure.opening_bet(rounds[0].street) if rounds else 0
        return cls(names, stakes=stakes_of(stages), complete_to=complete_to)

    # --- the lines ---------------------------------------------------------------------------------
    def feed(self, event: Event) -> list[Line]:
        """The lines ``event`` adds (with the pending deal's line first, if any)."""
        if isinstance(event, HoleCardsDealt):
            if self._discard is not None and self._discard.seat == event.seat:
                discard, self._discard = self._discard, None
                return [Line("action", self._draw(discard, event))]
            if not any(d.seat == event.seat for d in self._deals):
                self._deals.append(event)
                return []
        if isinstance(event, ForcedBetPosted) and event.bet == "ante" and not event.all_in:
            if self._antes and self._antes[0].amount != event.amount:
                lines = self.flush()
                self._antes.append(event)
                return lines
            self._antes.append(event)
            return []
        lines = self.flush()
        lines += self._lines(event)
        return lines

    def _draw(self, discard: CardsDiscarded, dealt: HoleCardsDealt) -> str:
        """A discard and its replacement cards, and the hand they make: one line."""
        cards, up = self._holding.setdefault(dealt.seat, ([], []))
        for card in discard.cards:
            if card in cards:
                del up[cards.index(card)]
                cards.remove(card)
        cards += dealt.cards
        up += dealt.face_up or (False,) * len(dealt.cards)
        return f"{discard.describe(self.names)}; draws {_cards(dealt.cards, ())}, holds {_cards(cards, up)}"

    def _name(self, seat: int) -> str:
        return self.names.get(seat, f"seat {seat}")

    def flush(self) -> list[Line]:
        """The lines held back so far: antes, a deal or a discard not yet written (they are
        written with the next event; call this to have them now, e.g. before a status table)."""
        lines: list[Line] = []
        if len(self._antes) == 1:
            lines.append(Line("action", self._antes[0].describe(self.names)))
        elif self._antes:
            who = _and([self._name(a.seat) for a in self._antes])
            lines.append(Line("action", f"{who} post antes of {self._antes[0].amount}"))
        self._antes = []
        if self._discard is not None:
            lines.append(Line("action", self._discard.describe(self.names)))
            self._discard = None
        if not self._deals:
            return lines
        parts = []
        stud = False
        for deal in self._deals:
            cards, up = self._holding.setdefault(deal.seat, ([], []))
            cards += deal.cards
            up += deal.face_up or (False,) * len(deal.cards)
            stud = stud or any(up)
            parts.append(f"{self._name(deal.seat)} {_cards(cards, up)}")
        held = max(len(self._holding[d.seat][0]) for d in self._deals)
        self._deals = []
        if stud:
            street = {3: "3RD STREET", 4: "4TH STREET", 5: "5TH STREET", 6: "6TH STREET", 7: "7TH STREET"}
            title = street.get(held, "DEAL")
            if held > 3:
                self._completing = False
        else:
            title = "DEAL" if self._dealt else "HOLE CARDS"
        self._dealt = True
        lines.append(Line("street", f"*** {title} *** " + ", ".join(parts)))
        return lines

    def _lines(self, event: Event) -> list[Line]:
        names = self.names
        if isinstance(event, HandStarted):
            return self._start(event)
        if isinstance(event, ActionTaken):
            self._drawing = False
            if self._completing and event.action in ("bet", "raise") and event.to >= (self.complete_to or 0):
                self._completing = False
                event = attrs.evolve(event, action="complete")
            return [Line("action", event.describe(names))]
        if isinstance(event, PotAwarded):
            return [Line("action", self._award(event))]
        if isinstance(event, RunsChosen):
            self._runs.append(event.runs)
        if isinstance(event, BoardDealt):
            before = event.board[: len(event.board) - len(event.cards)]
            head = f"[{format_cards(before)}] " if before else ""
            return [Line("street", f"*** {self._run_label(len(before))}{event.street.upper()} *** {head}"
                                   f"[{format_cards(event.cards)}]")]
        if isinstance(event, CardsDiscarded):
            lines = []
            if not self._drawing:
                self._drawing = True
                self._draws += 1
                n = self._draws
                lines.append(Line("street", f"*** {_ORDINALS[n - 1]} DRAW ***" if n <= 3 else f"*** DRAW {n} ***"))
            if event.cards:
                self._discard = event
            else:
                lines.append(Line("action", event.describe(names)))
            return lines
        if isinstance(event, CardsShown | HandMucked):
            lines = [] if self._shown else [Line("street", "*** SHOWDOWN ***")]
            self._shown = True
            shown = attrs.evolve(event, hand=plain_hand(event.hand)) if isinstance(event, CardsShown) and event.hand \
                else event
            return [*lines, Line("action", shown.describe(names))]
        if isinstance(event, HandEnded):
            return self._end(event)
        if isinstance(event, PlayerSeated):
            self.names[event.seat] = event.name
            self._bought[event.seat] = self._bought.get(event.seat, 0) + event.stack
            self._stack[event.seat] = event.stack
            self._hands.setdefault(event.seat, 0)
            return [Line("action", event.describe(names))] if self.hands_played else []
        if isinstance(event, ChipsAdded):
            self._bought[event.seat] = self._bought.get(event.seat, 0) + event.amount
            self._stack[event.seat] = event.stack
        if isinstance(event, PlayerLeft):
            self._left.append(PlayerResult(event.seat, event.name, self._hands.pop(event.seat, 0),
                                           event.cashed_out - self._bought.pop(event.seat, 0), event.cashed_out))
            self._stack.pop(event.seat, None)
        if isinstance(event, PlayerSatOut) and self._started:
            self._sat_out.append(event)
            return []
        return [Line("action", event.describe(names))]

    def _run_label(self, shared: int) -> str:
        """``RUN 2: `` for a street of the second run-out (``shared`` cards on the board before it);
        nothing when the board is dealt once. A run-out starts again from the cards shared by all."""
        if not self._runs or min(self._runs) < 2:
            return ""
        if self._common is None:
            self._common = shared
        if shared == self._common:
            self._run += 1
        return f"RUN {self._run}: "

    def _award(self, event: PotAwarded) -> str:
        """A pot won, the hand in words; ``Run 2, main pot...`` for its part played on run-out 2."""
        shown = attrs.evolve(event, hand=plain_hand(event.hand), run=None)
        text = shown.describe(self.names)
        return text if event.run is None else f"Run {event.run + 1}, {text[0].lower()}{text[1:]}"

    def _start(self, event: HandStarted) -> list[Line]:
        self._started = dict(zip(event.seats, event.stacks, strict=False))
        for seat in event.seats:
            self._hands[seat] = self._hands.get(seat, 0) + 1
        self._holding = {}
        self._draws = 0
        self._drawing = False
        self._shown = False
        self._dealt = False
        self._runs, self._common, self._run = [], None, 0
        self._completing = self.complete_to is not None
        head = attrs.evolve(event, button=None) if self.complete_to is not None else event
        text = head.describe(self.names) + (f", {self.stakes}" if self.stakes else "")
        return [Line("hand", text)]

    def _end(self, event: HandEnded) -> list[Line]:
        self.hands_played += 1
        changes = []
        for seat, stack in event.stacks:
            self._stack[seat] = stack
            before = self._started.get(seat)
            if before is not None and stack != before:
                changes.append(f"{self._name(seat)} {stack} ({stack - before:+d})")
        lines = [Line("result", "Stacks: " + ", ".join(changes))] if changes else []
        out = [self._name(seat) for seat, stack in event.stacks if stack == 0 and seat in self._started]
        if out:
            verb = "is" if len(out) == 1 else "are"
            lines.append(Line("result", f"{_and(out)} {verb} out of chips"))
        lines += [Line("action", e.describe(self.names)) for e in self._sat_out if self._stack.get(e.seat) != 0]
        self._sat_out = []
        self._started = {}
        return lines

    # --- the results ---------------------------------------------------------------------------------
    def results(self) -> list[PlayerResult]:
        """Every player seen, seated or gone, by seat: hands dealt in, net chips and stack."""
        rows = [PlayerResult(seat, self._name(seat), self._hands.get(seat, 0), stack - self._bought.get(seat, 0), stack)
                for seat, stack in self._stack.items()]
        return sorted([*self._left, *rows], key=lambda r: r.seat)  # a seat's past players first


def _and(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cat``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
