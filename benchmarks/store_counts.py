"""What recording a hand costs the table server's store, counted rather than timed.

On a shared machine a timed run moves by half or more with the load; a count does not. This plays
heads-up no-limit hold'em (blinds 1/2, stacks reset to 200 each hand) with the load generator's bots of
``benchmarks/server.py`` (check or call, a minimum raise one time in ten, a fold to a bet one time in
ten), recorded as ``cardgame serve`` records it: a batching :class:`~cardgame.store.Recorder`, its rows
taken after each decision and written by the server's store thread's function
(:func:`cardgame.server.writer.write`, the server's lease checked in each transaction). ``--group N``
commits N tables' rows together, as the server does for the tables whose decisions arrive at once.

Per hand and per decision it counts the SQL statements run (SQLite's trace callback: a row of an
``executemany`` is one), the commits, the pages SQLite appends to its
write-ahead log (what a commit costs in C), the bytes of the rows' text, and the Python bytecode
instructions run by the recorder (on the event loop, as each event happens) and by the write (on the store's
thread, holding the GIL). ``--top N`` lists the functions executing the most instructions.

    python benchmarks/store_counts.py                  # 200 hands after 20, one table a commit
    python benchmarks/store_counts.py --group 4 --top 15
    python benchmarks/store_counts.py --time            # CPU time of the two instead (moves with load)
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from engine_counts import tracer  # noqa: E402
from peers.cardgame_runner import ResetStacks  # noqa: E402

from cardgame import Game  # noqa: E402
from cardgame.server.writer import write  # noqa: E402
from cardgame.store import EventStore, Recorder  # noqa: E402
from cardgame.store.lease import Lease  # noqa: E402
from variants import no_limit_holdem  # noqa: E402

STACK = 200


class Counts:
    """Instructions by function, per phase, and the statements seen by SQLite's trace callback."""

    def __init__(self) -> None:
        self.ops: dict[str, Counter[str]] = {"recorder": Counter(), "write": Counter()}
        self.statements: Counter[str] = Counter()
        self.text_bytes = 0
        self.timing = False  # time the phases (CPU seconds of this thread) instead of counting instructions
        self.seconds: Counter[str] = Counter()

    @contextmanager
    def tracing(self, phase: str) -> Iterator[None]:
        ops = self.ops[phase]
        if self.timing:
            start = time.thread_time()
            try:
                yield
            finally:
                self.seconds[phase] += time.thread_time() - start
            return

        sys.settrace(tracer(ops, lambda code: code.co_filename == __file__))  # (not the statement counter)
        try:
            yield
        finally:
            sys.settrace(None)

    def statement(self, sql: str) -> None:
        words = sql.split(None, 3)
        self.statements[" ".join(words[:3])] += 1


def bot(game: Game, rng: random.Random) -> None:
    """One decision of the load generator's bot."""
    legal = game.legal_actions()
    assert legal is not None
    if legal.call_amount and rng.random() < 0.1:
        game.act(legal.seat, "fold")
    elif legal.can_raise and rng.random() < 0.1:
        game.act(legal.seat, "bet" if legal.is_bet else "raise", legal.min_raise_to)
    else:
        game.act(legal.seat, "call" if legal.call_amount else "check")


def run(hands: int, warm: int, group: int, seed: int, path: Path, *,
        timing: bool = False) -> tuple[Counts, int, int, int, int]:
    """Play ``warm`` then ``hands`` hands on each of ``group`` tables; the counts of the second part, the
    decisions, commits, WAL pages and hands counted."""
    counts = Counts()
    counts.timing = timing
    store = EventStore(path, synchronous="NORMAL")
    db = store.database.connection  # type: ignore[attr-defined]
    db.execute("PRAGMA wal_autocheckpoint=0")  # the log keeps every page, to be counted
    lease = Lease(store, "counts")
    lease.acquire()
    rng = random.Random(seed)
    games, recorders = [], []
    for t in range(group):
        game = Game([ResetStacks(), *no_limit_holdem(1, 2)], seats=2, seed=rng.getrandbits(32))
        game.sit_down("a", STACK, 0)
        game.sit_down("b", STACK, 1)
        recorders.append(store.record(game, f"table {t}", batch=True, phh_writer=None))
        games.append(game)
    original: Callable[[Recorder, Any], None] = Recorder.__call__
    measuring = [False]

    def counted(self: Recorder, event: Any) -> None:
        if not measuring[0]:
            return original(self, event)
        with counts.tracing("recorder"):
            original(self, event)

    Recorder.__call__ = counted  # type: ignore[method-assign]

    def commit() -> None:
        groups = [r.take() for r in recorders]
        if measuring[0]:
            counts.text_bytes += sum(len(v) for rows in groups for _, params in rows for v in params
                                     if isinstance(v, str))
            with counts.tracing("write"):
                write(store, lease, groups)
        else:
            write(store, lease, groups)

    try:
        for game in games:
            game.start()
        commit()
        decisions = commits = pages = 0
        for measured in (False, True):
            if measured:
                frames = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                assert frames[0] == 0, frames
                if not timing:
                    db.set_trace_callback(counts.statement)
                measuring[0] = True
            target = [g.ctx.hands_played + (hands if measured else warm) for g in games]
            while any(g.ctx.hands_played < n for g, n in zip(games, target, strict=True)):
                for game, n in zip(games, target, strict=True):
                    if game.ctx.hands_played < n:
                        bot(game, rng)
                        decisions += measured
                commit()
                commits += measured
        db.set_trace_callback(None)
        pages = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    finally:
        Recorder.__call__ = original  # type: ignore[method-assign]
        store.close()
    return counts, decisions, commits, pages, hands * group


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands counted a table (default 200)")
    parser.add_argument("--warm", type=int, default=20, help="hands played first, not counted (default 20)")
    parser.add_argument("--group", type=int, default=1, help="tables committed together (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time", action="store_true",
                        help="CPU time of the recorder and the write instead of instruction counts (moves with load)")
    parser.add_argument("--top", type=int, default=0, help="list the N functions running the most instructions")
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        counts, decisions, commits, pages, hands = run(opts.hands, opts.warm, opts.group, opts.seed,
                                                       Path(work) / "store.db", timing=opts.time)
    print(f"{hands} hands, {decisions} decisions, {opts.group} table(s) a commit (sqlite {sqlite3.sqlite_version})")
    print(f"{'':28} {'a hand':>10} {'a decision':>12}")
    statements = sum(n for k, n in counts.statements.items() if k not in ("BEGIN IMMEDIATE", "COMMIT"))
    figures = [("commits", commits), ("statements (but BEGIN, COMMIT)", statements), ("WAL pages", pages),
               ("bytes of row text", counts.text_bytes),
               ("instructions: recorder", sum(counts.ops["recorder"].values())),
               ("instructions: write", sum(counts.ops["write"].values()))]
    if opts.time:
        figures[1:2] = []
        figures[-2:] = [("µs CPU: recorder", counts.seconds["recorder"] * 1e6),
                        ("µs CPU: write", counts.seconds["write"] * 1e6)]
    for name, n in figures:
        print(f"{name:28} {n / hands:10.1f} {n / decisions:12.2f}")
    print("statements a hand: " + ", ".join(f"{k} {n / hands:.1f}" for k, n in counts.statements.most_common()))
    if opts.top:
        for phase, ops in counts.ops.items():
            print(f"\n{phase}: instructions a hand")
            for where, n in ops.most_common(opts.top):
                print(f"{n / hands:10.1f}  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
