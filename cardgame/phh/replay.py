"""Replay PHH hands through the engine and compare ``finishing_stacks``.

A hand is rebuilt as a variant's stage list from its fields, dealt from a deck stacked in the
engine's dealing order (hole cards per player from ``p1``, then a burn card before each board
deal), and driven action by action through :class:`~cardgame.game.Game`. Unknown cards (``??``)
are taken from later ``sm`` lines when shown there, else filled with unused cards. Amounts that
are not whole numbers (``1259450.25``) are scaled by a power of ten so chips stay integers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path

import attrs

from cardgame.betting import BettingStructure, FixedLimit, NoLimit, PotLimit
from cardgame.cards import Card
from cardgame.deck import STANDARD_DECK
from cardgame.errors import CardgameError, HandHistoryError
from cardgame.evaluation import HIGH, OMAHA_HIGH, HandEvaluator
from cardgame.game import Game
from cardgame.phh.actions import CheckCall, CompleteBetRaise, DealBoard, DealHole, Fold, ShowMuck
from cardgame.phh.history import HandHistory
from cardgame.phh.io import iter_paths, load
from cardgame.stage import Stage
from cardgame.stages import BettingRound, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages import DealBoard as DealBoardStage
from cardgame.stages import DealHole as DealHoleStage

__all__ = ["CheckReport", "HandCheck", "ReplayResult", "check_paths", "replay"]

_SUPPORTED = ("NT", "FT", "PO")


@attrs.frozen
class ReplayResult:
    """The engine's final stacks (in the file's units) and whether the hand ran to its end."""

    stacks: tuple[float, ...]
    complete: bool
    game: Game


def _scale(hh: HandHistory) -> int:
    """The smallest power of ten that makes every amount in the hand a whole number."""
    values: list[float] = [*hh.starting_stacks, *(hh.antes or ()), *(hh.blinds_or_straddles or ())]
    values += [v for v in (hh.min_bet, hh.small_bet, hh.big_bet) if v is not None]
    values += [a.amount for a in hh.actions if isinstance(a, CompleteBetRaise)]
    scale = 1
    for v in values:
        frac = Fraction(str(v))
        while (frac * scale).denominator != 1:
            scale *= 10
            if scale > 10**6:
                raise HandHistoryError(f"amount {v} has too many decimal places to replay in whole chips")
    return scale


def _stages(hh: HandHistory, scale: int, hole_cards: int) -> list[Stage]:
    def chips(v: float | None) -> int:
        return round(Fraction(str(v or 0)) * scale)

    code = hh.variant
    structure: BettingStructure
    if code == "FT":
        structure = FixedLimit(chips(hh.small_bet), chips(hh.big_bet))
    elif code == "NT":
        structure = NoLimit(chips(hh.min_bet))
    else:
        structure = PotLimit(chips(hh.min_bet))
    evaluator: HandEvaluator = OMAHA_HIGH if code == "PO" else HIGH
    blinds = tuple(chips(b) for b in hh.blinds_or_straddles or ())
    while blinds and blinds[-1] == 0:
        blinds = blinds[:-1]
    antes = tuple(chips(a) for a in hh.antes or ())
    stages: list[Stage] = [WaitForPlayers(2)]
    if any(blinds) or any(antes):
        stages.append(ForcedBets(blinds, ante=antes if any(antes) else 0))
    stages += [DealHoleStage(hole_cards), BettingRound(structure, 0)]
    for street, (count, name) in enumerate(((3, "flop"), (1, "turn"), (1, "river")), start=1):
        stages += [DealBoardStage(count, name), BettingRound(structure, street)]
    stages.append(Showdown(evaluator))
    return stages


def _deck_order(hh: HandHistory, n: int, seed: int) -> tuple[list[Card], int]:
    """Cards top first in the engine's dealing order, and the hole-card count."""
    holes: dict[int, list[Card | None]] = {i: [] for i in range(n)}
    board: list[Card | None] = []
    shown: dict[int, tuple[Card | None, ...]] = {}
    for a in hh.actions:
        if isinstance(a, DealHole):
            holes[a.player].extend(a.cards)
        elif isinstance(a, DealBoard):
            board.extend(a.cards)
        elif isinstance(a, ShowMuck) and a.cards:
            shown[a.player] = a.cards
    for p, cards in shown.items():  # unknown hole cards revealed at showdown
        hole = holes[p]
        if len(cards) == len(hole):
            holes[p] = [h if h is not None else c for h, c in zip(hole, cards, strict=True)]
    count = max((len(h) for h in holes.values()), default=2) or 2
    known = {c for h in holes.values() for c in h if c is not None} | {c for c in board if c is not None}
    spare = [c for c in STANDARD_DECK.cards if c not in known]
    random.Random(seed).shuffle(spare)

    def fill(c: Card | None) -> Card:
        return c if c is not None else spare.pop()

    order: list[Card] = []
    for p in range(n):
        hole = holes[p] + [None] * (count - len(holes[p]))
        order += [fill(c) for c in hole]
    board += [None] * (5 - len(board))
    for start, end in ((0, 3), (3, 4), (4, 5)):
        order.append(spare.pop())  # burn
        order += [fill(c) for c in board[start:end]]
    return order, count


def replay(hh: HandHistory, *, source: str = "<hand>", seed: int = 0) -> ReplayResult:
    """Play ``hh`` through the engine. Raises :class:`HandHistoryError` naming the action at fault."""
    if hh.variant not in _SUPPORTED:
        raise HandHistoryError(
            f"{source}: variant {hh.variant!r} cannot be replayed yet; supported are {', '.join(_SUPPORTED)}."
        )
    n = hh.player_count
    scale = _scale(hh)
    order, hole_count = _deck_order(hh, n, seed)
    game = Game(_stages(hh, scale, hole_count), seats=n, first_button=n - 1, seed=seed, max_hands=1)
    for i, s in enumerate(hh.starting_stacks):
        game.sit_down(f"p{i + 1}", round(Fraction(str(s)) * scale), i)
    game.ctx.stack_deck(order)
    game.start()
    for index, a in enumerate(hh.actions):
        where = f"{source}: actions[{index}] {a.to_text()!r}"
        try:
            if isinstance(a, Fold):
                game.act(a.player, "fold")
            elif isinstance(a, CheckCall):
                game.act(a.player, "check_call")
            elif isinstance(a, CompleteBetRaise):
                amount = Fraction(str(a.amount)) * scale
                game.act(a.player, "bet_raise", int(amount))
            elif isinstance(a, DealBoard):
                _check_board(game, a, where)
            elif isinstance(a, DealHole | ShowMuck):
                continue
            else:
                raise HandHistoryError(f"{where}: this action cannot be replayed for {hh.variant}")
        except HandHistoryError:
            raise
        except CardgameError as exc:
            raise HandHistoryError(f"{where}: {exc}") from exc
    complete = game.status_name == "exited"
    stacks = tuple(float(Fraction(p.stack, scale)) if scale != 1 else p.stack
                   for p in sorted(game.table.players(), key=lambda p: p.seat))
    return ReplayResult(stacks, complete, game)


def _check_board(game: Game, a: DealBoard, where: str) -> None:
    hand = game.hand
    board: Sequence[Card] = hand.board if hand is not None else []
    known = [c for c in a.cards if c is not None]
    if hand is not None and not all(c in board for c in known):
        raise HandHistoryError(f"{where}: the engine has not dealt these board cards yet (board is {board})")


@attrs.frozen
class HandCheck:
    """One hand's outcome: ``ok``, ``mismatch``, ``unchecked`` (no finishing stacks), ``unsupported``
    (a variant the replay does not cover yet) or ``error``."""

    path: str
    index: int
    variant: str
    status: str
    detail: str = ""


@attrs.frozen
class CheckReport:
    """Per-hand results of :func:`check_paths`, with per-file and per-variant totals."""

    hands: tuple[HandCheck, ...]

    @property
    def ok(self) -> bool:
        return all(h.status in ("ok", "unchecked", "unsupported") for h in self.hands)

    def lines(self) -> list[str]:
        out: list[str] = []
        by_file: dict[str, list[HandCheck]] = {}
        for h in self.hands:
            by_file.setdefault(h.path, []).append(h)
        for path, hands in by_file.items():
            good = sum(h.status == "ok" for h in hands)
            unchecked = sum(h.status == "unchecked" for h in hands)
            unsupported = sum(h.status == "unsupported" for h in hands)
            tail = f", {unchecked} replayed without finishing stacks" if unchecked else ""
            tail += f", {unsupported} not replayed (variant not supported yet)" if unsupported else ""
            out.append(f"{path}: {good}/{len(hands) - unchecked - unsupported} reproduced{tail}")
            out += [f"  hand {h.index}: {h.status}: {h.detail}" for h in hands if h.status in ("mismatch", "error")]
        variants = sorted({h.variant for h in self.hands})
        for v in variants:
            hs = [h for h in self.hands if h.variant == v]
            out.append(f"{v}: {sum(h.status == 'ok' for h in hs)} reproduced, "
                       f"{sum(h.status == 'unchecked' for h in hs)} unchecked, "
                       f"{sum(h.status == 'unsupported' for h in hs)} unsupported, "
                       f"{sum(h.status == 'mismatch' for h in hs)} mismatched, "
                       f"{sum(h.status == 'error' for h in hs)} errors")
        total = len(self.hands)
        good = sum(h.status == "ok" for h in self.hands)
        bad = sum(h.status in ("mismatch", "error") for h in self.hands)
        skipped = sum(h.status == "unsupported" for h in self.hands)
        out.append(f"total: {total} hands: {good} reproduced, {total - good - bad - skipped} replayed without "
                   f"finishing stacks, {skipped} unsupported variant, {bad} failed")
        return out


def check_hand(hh: HandHistory, path: str, index: int) -> HandCheck:
    """Replay one hand and compare its stacks with ``finishing_stacks`` (one chip of tolerance)."""
    if hh.variant not in _SUPPORTED:
        return HandCheck(path, index, hh.variant, "unsupported", f"variant {hh.variant} is not replayed yet")
    try:
        result = replay(hh, source=f"{path}: hand {index}")
    except HandHistoryError as exc:
        return HandCheck(path, index, hh.variant, "error", str(exc))
    if hh.finishing_stacks is None:
        return HandCheck(path, index, hh.variant, "unchecked", "no finishing_stacks")
    if not result.complete:
        return HandCheck(path, index, hh.variant, "mismatch", "the actions end before the hand does")
    expected = hh.finishing_stacks
    if len(expected) == len(result.stacks) and all(
        abs(float(e) - float(g)) <= 1 for e, g in zip(expected, result.stacks, strict=True)
    ):
        return HandCheck(path, index, hh.variant, "ok")
    return HandCheck(path, index, hh.variant, "mismatch", f"expected {list(expected)}, engine {list(result.stacks)}")


def check_paths(paths: Iterable[str | Path]) -> CheckReport:
    """Replay every hand in ``paths`` (files or folders) and report what reproduced."""
    results: list[HandCheck] = []
    for path in iter_paths(list(paths)):
        try:
            hands = load(path)
        except HandHistoryError as exc:
            results.append(HandCheck(str(path), 0, "?", "error", str(exc)))
            continue
        for i, hh in enumerate(hands):
            results.append(check_hand(hh, str(path), i))
    return CheckReport(tuple(results))
