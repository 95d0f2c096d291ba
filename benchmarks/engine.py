"""Engine benchmark: our engine against other Python poker engines on one workload.

The workload (no-limit hold'em 1/2, stacks reset to 400 every hand, uniformly random legal
decisions from a seeded ``random.Random``) and the measuring loop live in ``peers/common.py``;
each engine has a runner module in ``peers/`` exposing ``NAME``, ``available()`` and
``play(hands, players, seed, seconds=None) -> RunStats``. Our engine is included when
``peers/cardgame_runner.py`` exists.

Every (engine, player count) runs in a fresh interpreter so that imports, caches and the RSS
high-water mark of one engine do not affect the next. On a shared, noisy machine ``--repeat N``
measures every engine N times, taking turns (ours, then each peer, then ours again...), and
reports each one's median run, so that a slow moment falls on one run of one engine rather than
on the ratio. The default of 20,000 hands makes each of the fast engines run for one to six
seconds: at 2,000 hands the fastest runs last a tenth of a second, and one pause of the shared
machine moves their figure by a tenth; the slow engines stop at the 10-second budget either way.

    python benchmarks/engine.py                      # 6 and 2 players, 20,000 hands or 10 s each
    python benchmarks/engine.py --players 6 --seconds 0 --only pokerkit clubs
    python benchmarks/engine.py --hands 20000 --repeat 5 --only cardgame texasholdem clubs
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from peers import common  # noqa: E402
from peers.common import RunStats  # noqa: E402

OURS = "cardgame_runner"
PEERS = ("pokerkit_runner", "texasholdem_runner", "pypokerengine_runner", "clubs_runner", "openspiel_runner")


def runners() -> list[ModuleType]:
    names = ([OURS] if (HERE / "peers" / f"{OURS}.py").exists() else []) + list(PEERS)
    return [importlib.import_module(f"peers.{name}") for name in names]


def label(module: ModuleType) -> str:
    try:
        return f"{module.NAME} {metadata.version(module.DIST)}"
    except (AttributeError, metadata.PackageNotFoundError):
        return f"{module.NAME}"


def worker(args: argparse.Namespace) -> None:
    common.TRACEMALLOC = args.tracemalloc
    module = importlib.import_module(f"peers.{args.worker}")
    stats = module.play(args.hands, args.players[0], args.seed, seconds=args.seconds or None)
    print(json.dumps(asdict(stats)))


def measure(module: ModuleType, players: int, args: argparse.Namespace) -> RunStats | str:
    name = module.__name__.rsplit(".", 1)[-1]
    options = f"--players {players} --hands {args.hands} --seed {args.seed} --seconds {args.seconds}"
    command = [sys.executable, __file__, "--worker", name, *options.split()]
    command += ["--tracemalloc"] if args.tracemalloc else []
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        return (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return RunStats(**data)


def report(results: list[tuple[int, str, bool, RunStats | str]], tracemalloc: bool) -> None:
    memory = "tracemalloc KiB" if tracemalloc else "RSS growth KiB"
    headers = ["players", "engine", "hands", "decisions", "seconds", "hands/s", "decisions/s", memory]
    headers += ["errors", "chip fails", "ours/peer"]
    ours = {players: stats for players, _, is_ours, stats in results if is_ours}
    rows, notes = [], []
    for players, name, is_ours, stats in results:
        if isinstance(stats, str):
            notes.append(f"{name} ({players} players) failed to run: {stats}")
            continue
        base = ours.get(players)
        ratio = (
            f"{base.hands_per_s / stats.hands_per_s:.2f}"
            if isinstance(base, RunStats) and not is_ours and stats.hands_per_s
            else ""
        )
        row = [str(players), name, str(stats.hands), str(stats.decisions), f"{stats.seconds:.2f}"]
        row += [f"{value:,.0f}" for value in (stats.hands_per_s, stats.decisions_per_s, stats.peak_kib)]
        rows.append([*row, str(stats.errors), str(stats.conservation_failures), ratio])
        notes += [f"{name} ({players} players): {count}× {kind}" for kind, count in stats.error_kinds.items()]
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]
        for row in [headers, *rows]:
            print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        print("\n".join(notes))
    else:
        table = Table(*headers, title="Engine benchmark (ours/peer = ratio of hands/s)")
        for row in rows:
            table.add_row(*row)
        console = Console(width=None if sys.stdout.isatty() else 150)
        console.print(table)
        for note in notes:
            console.print(note, markup=False)


def _median(measured: list[RunStats | str]) -> RunStats | str:
    """The run with the median hands per second (a failure, if any run failed)."""
    failed = [m for m in measured if isinstance(m, str)]
    if failed:
        return failed[0]
    ordered = sorted((m for m in measured if isinstance(m, RunStats)), key=lambda m: m.hands_per_s)
    return ordered[len(ordered) // 2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=20000, help="hands per engine and player count")
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per run, 0 for none")
    parser.add_argument("--players", type=int, nargs="+", default=[6, 2])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="engines to run (by NAME)")
    parser.add_argument("--tracemalloc", action="store_true", help="peak memory by tracemalloc (slower)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each engine, taking turns; the median is shown")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args)
        return 0
    wanted = {name.lower() for name in args.only or ()}
    modules = []
    for module in runners():
        if wanted and module.NAME.lower() not in wanted:
            continue
        if not module.available():
            print(f"skipping {module.NAME}: not installed", file=sys.stderr)
            continue
        modules.append(module)
    runs: dict[tuple[int, int], list[RunStats | str]] = {}
    for turn in range(max(args.repeat, 1)):
        for players in args.players:
            for i, module in enumerate(modules):
                print(f"running {module.NAME} with {players} players (run {turn + 1})…", file=sys.stderr)
                runs.setdefault((players, i), []).append(measure(module, players, args))
    results: list[tuple[int, str, bool, RunStats | str]] = []
    for (players, i), measured in runs.items():
        module = modules[i]
        results.append((players, label(module), module.__name__.endswith(OURS), _median(measured)))
    results.sort(key=lambda result: -result[0])
    report(results, args.tracemalloc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
