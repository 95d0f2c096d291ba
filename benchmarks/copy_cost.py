"""What a copy of a running game costs, for search (CFR, MCTS): ``Game.copy`` against the other ways
to get an independent game in the same state.

    python benchmarks/copy_cost.py [--number 2000] [--repeat 7] [--json runs.json]

Each way is timed on the same positions, in µs per copy (the median of ``--repeat`` runs of
``--number`` copies, garbage collection on as in a search):

* ``Game.copy`` -- the game's own copy (shallow copies generated per class, mutable parts replaced);
* ``deepcopy, shared memo`` -- ``copy.deepcopy`` with its memo seeded with what ``Game.copy``
  shares (cards, events, the variant, the deck spec, the stages' settings), the other idea weighed;
* ``copy.deepcopy`` -- plain (it also copies the evaluators and leaves the copy's log bound to the
  original's, so it is not even a correct copy; timed for scale);
* ``replay the hand`` -- a new ``Game`` with the same seed, the same players and the same actions;
* ``snapshot + restore`` -- :mod:`cardgame.store.snapshot` onto a fresh stage list.

Each copy is checked to be in the game's state (equal snapshots) before it is timed.
:func:`measure` returns the rows for ``benchmarks/rl.py``.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import variants
from cardgame import Game
from cardgame.engine.copies import slot_names
from cardgame.model.cards import CARDS
from cardgame.model.hand import HandPlayer
from cardgame.model.street import Street
from cardgame.store.snapshot import restore, snapshot

Action = tuple[str, int]


@dataclass(frozen=True)
class Position:
    """A game to copy: ``code`` and ``params`` pick the variant, ``players`` sit with ``stack``;
    the first hand is played with ``seed`` until ``until(game)`` holds, everyone checking or calling."""

    name: str
    code: str
    players: int
    stack: int
    seed: int
    until: Callable[[Game], bool]


POSITIONS = (
    Position("NT 6-max, flop", "NT", 6, 200, 3, lambda g: g.hand is not None and g.hand.street == "flop"),
    Position("Leduc, second round", "leduc hold'em", 2, 100, 3,
             lambda g: g.hand is not None and g.hand.street == "second round"),
    Position("Kuhn (3 players), first decision", "kuhn poker", 3, 100, 3, lambda g: True),
)


@dataclass(frozen=True)
class Row:
    """One way of copying one position: ``us`` per copy, ``ratio`` against ``Game.copy``."""

    position: str
    way: str
    us: float
    ratio: float


def play_to(position: Position) -> tuple[Game, list[Action]]:
    """The position's game, and the actions that led to it (each player checks or calls)."""
    game = _seated(position)
    actions: list[Action] = []
    while not position.until(game):
        legal = game.legal_actions()
        assert legal is not None, f"{position.name}: the hand ended before the position"
        kind = "call" if legal.can_call else "check"
        game.act(legal.seat, kind)
        actions.append((kind, legal.seat))
    return game, actions


def _seated(position: Position) -> Game:
    game = Game(variants.get(position.code), seats=position.players, seed=position.seed)
    for i in range(position.players):
        game.sit_down(f"p{i}", position.stack, i)
    game.start()
    return game


def replay(position: Position, actions: Sequence[Action]) -> Game:
    """The position replayed from the start of its hand: the same seed, players and actions."""
    game = _seated(position)
    for kind, seat in actions:
        game.act(seat, kind)
    return game


def shared_memo(game: Game) -> dict[int, Any]:
    """A ``copy.deepcopy`` memo that maps what ``Game.copy`` shares to itself: the cards, the events,
    the variant, the deck spec, and each stage's settings (its attributes that are not runtime state)."""
    runtime = (list, dict, set, Street, HandPlayer)
    shared: list[Any] = [*CARDS, *game.ctx.log, game.ctx.deck_spec, game.dispatcher.stages.variant]
    for stage in game.dispatcher.stages:
        for name in slot_names(type(stage)):
            value = getattr(stage, name)
            if name not in ("ctx", "parent") and not isinstance(value, runtime):
                shared.append(value)
    return {id(x): x for x in shared}


def _deepcopy_shared(game: Game, memo: dict[int, Any]) -> Game:
    new: Game = copy.deepcopy(game, dict(memo))
    new.ctx.log = new.ctx.log  # deepcopy keeps emit bound to the original's log: bind it to the copy's
    return new


def ways(position: Position, game: Game, actions: list[Action]) -> dict[str, Callable[[], Game]]:
    """Each way of copying ``game``, as a function returning the copy."""
    memo = shared_memo(game)
    build = variants.get(position.code).build
    return {
        "Game.copy": game.copy,
        "deepcopy, shared memo": lambda: _deepcopy_shared(game, memo),
        "copy.deepcopy": lambda: copy.deepcopy(game),
        "replay the hand": lambda: replay(position, actions),
        "snapshot + restore": lambda: restore(snapshot(game), build()),
    }


def _time(fn: Callable[[], object], number: int, repeat: int) -> float:
    """µs per call: the median of ``repeat`` runs of ``number`` calls, with garbage collection on."""
    runs = []
    gc.collect()
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number * 1e6)
    return statistics.median(runs)


def measure(number: int = 2000, repeat: int = 7, positions: Sequence[Position] = POSITIONS) -> list[Row]:
    """Time every way on every position (the slow ways run ``number // 20`` copies, at least 5)."""
    rows: list[Row] = []
    for position in positions:
        game, actions = play_to(position)
        want = snapshot(game)
        base = 0.0
        for way, fn in ways(position, game, actions).items():
            got = snapshot(fn())
            assert got == want, f"{position.name}: {way} is not in the game's state"
            n = number if way == "Game.copy" else max(5, number // 20)
            us = _time(fn, n, repeat)
            base = base or us
            rows.append(Row(position.name, way, us, us / base))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--number", type=int, default=2000, help="copies per run of Game.copy (others: 1/20)")
    parser.add_argument("--repeat", type=int, default=7, help="runs; the median is reported")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    rows = measure(args.number, args.repeat)
    print(f"µs per copy (median of {args.repeat} runs), and against Game.copy; Python {sys.version.split()[0]}")
    for position in dict.fromkeys(r.position for r in rows):
        print(position)
        for r in rows:
            if r.position == position:
                print(f"  {r.way:<24} {r.us:10.1f} µs  {r.ratio:7.1f}x")
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": [asdict(r) for r in rows]}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
