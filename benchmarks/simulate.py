"""Bot-match benchmark: hands per second of ``cardgame.simulate`` on 1 and 2 worker processes, and
of the same match played in PyPokerEngine's ``Emulator`` and in rlcard's no-limit hold'em env.

Every match is no-limit hold'em with blinds 1/2 and every stack reset to 200 before each hand:

* ``heads-up``: random against calling-station;
* ``6-max``: random, calling-station and all-in, twice each;
* ``seed-ai heads-up`` and ``seed-ai 6-max``: the seed AI (Monte-Carlo hand strength on every
  decision) against simple bots; played by cardgame only, since the peers have no seed AI.

The simple bots (``cardgame.play.bots`` and their twins in ``peers/matches.py``) cost next to nothing,
so the engine dominates. Ours is timed around the whole ``simulate(Match(...), workers=N)`` call,
the process pool's start and the statistics included (``--workers 2``: local processes); its
decisions are counted in the one-worker run (the hands are the same on any number of workers, and
the two runs' results are compared). A peer plays the same number of hands, or stops after
``--seconds``. Every run is in a fresh interpreter so that imports and caches do not leak;
``--in-process`` runs them all in this one (quick checks only).

    python benchmarks/simulate.py                                  # about a minute
    python benchmarks/simulate.py --matches heads-up --workers 1 --only cardgame rlcard
    python benchmarks/simulate.py --json results.json              # the table, and the runs as JSON
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for _path in (str(HERE), str(HERE.parent)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from peers.matches import BIG_BLIND, SMALL_BLIND, STACK, MatchStats, cpu_seconds  # noqa: E402


@dataclass(frozen=True)
class Spec:
    """A match: its bots (by ``cardgame.play.bots`` name), its hands, and whether the peers play it."""

    bots: tuple[str, ...]
    hands: int
    peers: bool


MATCHES = {
    "heads-up": Spec(("random", "calling-station"), 20_000, True),
    "6-max": Spec(("random", "calling-station", "all-in") * 2, 10_000, True),
    "seed-ai heads-up": Spec(("seed-ai", "random"), 8_000, False),
    "seed-ai 6-max": Spec(("seed-ai", "random", "calling-station", "all-in", "random", "calling-station"), 5_000,
                          False),
}

OURS = "cardgame"
#: Engine name -> runner module in ``peers/`` (ours is played here).
PEERS = {"pypokerengine": "pypokerengine_match", "rlcard": "rlcard_match"}


@dataclass
class Run:
    """One measured run (``error`` set when it failed); ``digest`` fingerprints our results."""

    match: str
    engine: str
    workers: int
    stats: MatchStats | None = None
    digest: str = ""
    error: str = ""

    @property
    def hands_per_s(self) -> float:
        return self.stats.hands / self.stats.seconds if self.stats and self.stats.seconds else 0.0


def play_cardgame(bots: tuple[str, ...], hands: int, seed: int, workers: int) -> tuple[MatchStats, str]:
    """Time ``simulate`` on the match; decisions are counted (from ``Game.play``) on one worker only."""
    from unittest import mock

    from cardgame.play.game import Game
    from cardgame.simulate import Match, simulate

    match = Match("NT", bots, hands=hands, seed=seed, stack=STACK,
                  params={"small_blind": SMALL_BLIND, "big_blind": BIG_BLIND})
    counted = [0]
    play = Game.play

    def counting(self: Game, *args: Any, **kwargs: Any) -> int:
        decisions = play(self, *args, **kwargs)
        counted[0] += decisions
        return decisions

    patch = mock.patch.object(Game, "play", counting) if workers == 1 else contextlib.nullcontext()
    with patch:
        cpu0, start = cpu_seconds(), time.perf_counter()
        result = simulate(match, workers=workers, backend="serial" if workers == 1 else "process")
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    stats = MatchStats(hands=result.hands, seconds=seconds, cpu_seconds=cpu,
                       decisions=counted[0] if workers == 1 else None,
                       conservation_failures=int(sum(b.chips for b in result.bots) != 0))  # the bots' nets sum to 0
    return stats, hashlib.sha256(result.to_json().encode()).hexdigest()[:16]


def play(engine: str, match: str, hands: int, seed: int, workers: int, seconds: float | None) -> Run:
    """Play one run here, in this interpreter."""
    spec = MATCHES[match]
    if engine == OURS:
        stats, digest = play_cardgame(spec.bots, hands, seed, workers)
        return Run(match, engine, workers, stats, digest)
    module = importlib.import_module(f"peers.{PEERS[engine]}")
    return Run(match, engine, 1, module.play(spec.bots, hands, seed, seconds))


def to_json(run: Run) -> dict[str, Any]:
    return {"match": run.match, "engine": run.engine, "workers": run.workers, "error": run.error,
            "digest": run.digest, "stats": asdict(run.stats) if run.stats else None}


def from_json(data: dict[str, Any]) -> Run:
    stats = MatchStats(**data["stats"]) if data["stats"] else None
    return Run(data["match"], data["engine"], data["workers"], stats, data["digest"], data["error"])


def measure(engine: str, match: str, workers: int, args: argparse.Namespace) -> Run:
    """Play one run, in a fresh interpreter unless ``--in-process``."""
    hands = args.hands or MATCHES[match].hands
    if args.in_process:
        try:
            return play(engine, match, hands, args.seed, workers, args.seconds or None)
        except Exception as exc:
            return Run(match, engine, workers, error=f"{type(exc).__name__}: {exc}")
    command = [sys.executable, __file__, "--worker", engine, "--matches", match, "--hands", str(hands),
               "--seed", str(args.seed), "--workers", str(workers), "--seconds", str(args.seconds)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        return Run(match, engine, workers, error=(done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])
    return from_json(json.loads(done.stdout.strip().splitlines()[-1]))


def label(engine: str) -> str:
    """The engine's name in the table, with its installed version."""
    if engine == OURS:
        name, dist = "cardgame", "cardgame"
    else:
        module = importlib.import_module(f"peers.{PEERS[engine]}")
        name, dist = module.NAME, module.DIST
    try:
        return f"{name} {metadata.version(dist)}"
    except metadata.PackageNotFoundError:
        return name


def available(engine: str) -> bool:
    return engine == OURS or bool(importlib.import_module(f"peers.{PEERS[engine]}").available())


def machine() -> dict[str, Any]:
    """What the numbers depend on: the interpreter, the processor, the load when measured."""
    load = os.getloadavg()
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "processor": _processor(), "cpus": os.cpu_count(),
            "load_average_1_5_15": [round(x, 2) for x in load]}


def _processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def rows(runs: list[Run]) -> tuple[list[dict[str, Any]], list[str]]:
    """The table's rows (plain values) and the notes under it: ratios are hands/s of ours on 1 and
    on 2 workers over the row's."""
    ours = {(r.match, r.workers): r for r in runs if r.engine == OURS and r.stats}
    out, notes = [], []
    for run in runs:
        if run.error or not run.stats:
            notes.append(f"{run.engine} ({run.match}, {run.workers} worker(s)) failed: {run.error}")
            continue
        s = run.stats
        decisions = s.decisions
        if decisions is None and (one := ours.get((run.match, 1))) and one.digest == run.digest and one.stats:
            decisions = one.stats.decisions  # the same hands as on one worker
        row: dict[str, Any] = {
            "match": run.match, "engine": run.engine, "label": label(run.engine), "workers": run.workers,
            "hands": s.hands, "decisions": decisions, "seconds": s.seconds, "cpu_seconds": s.cpu_seconds,
            "hands_per_s": run.hands_per_s,
            "decisions_per_s": decisions / s.seconds if decisions is not None and s.seconds else None,
            "decisions_per_hand": decisions / s.hands if decisions is not None and s.hands else None,
            "errors": s.errors, "conservation_failures": s.conservation_failures,
        }
        for w in (1, 2):
            base = ours.get((run.match, w))
            row[f"ours_{w}w_over_this"] = base.hands_per_s / run.hands_per_s if base and run.hands_per_s else None
        out.append(row)
        notes += [f"{run.engine} ({run.match}): {count}× {kind}" for kind, count in s.error_kinds.items()]
        if s.conservation_failures:
            why = "" if run.engine == OURS else getattr(importlib.import_module(f"peers.{PEERS[run.engine]}"),
                                                        "CHIPS_NOTE", "")
            notes.append(f"{run.engine} ({run.match}): {s.conservation_failures} hands whose chips did not add up"
                         + (f" ({why})" if why else ""))
    for match in dict.fromkeys(r.match for r in runs):
        one, two = ours.get((match, 1)), ours.get((match, 2))
        if one and two and one.digest != two.digest:
            notes.append(f"{match}: the results on 1 and 2 workers differ ({one.digest} != {two.digest})")
        if two and two.stats and two.stats.seconds and two.stats.cpu_seconds / two.stats.seconds < 1.5:
            busy = two.stats.cpu_seconds / two.stats.seconds
            notes.append(f"{match}: the 2-worker run kept {busy:.2f} CPUs busy on average (CPU s / seconds), so "
                         "it did not have two free CPUs, or its pool's start-up outweighed the hands")
    return out, notes


def report(table: list[dict[str, Any]], notes: list[str], info: dict[str, Any]) -> None:
    """Print the table (rich), the notes and the machine."""
    from rich.console import Console
    from rich.table import Table

    def num(value: float | None, digits: int = 0) -> str:
        return "–" if value is None else f"{value:,.{digits}f}"

    title = (f"Bot matches, no-limit hold'em {SMALL_BLIND}/{BIG_BLIND}, stacks {STACK} reset every hand: "
             "cardgame.simulate, PyPokerEngine's Emulator, rlcard's env\n"
             "(ours Nw / this: hands/s of cardgame.simulate on N workers over the row's)")
    out = Table("match", "engine", "workers", "hands", "decisions", "dec/hand", "seconds", "CPU s", "hands/s",
                "decisions/s", "ours 1w / this", "ours 2w / this", title=title)
    previous = None
    for row in table:
        if previous is not None and row["match"] != previous:
            out.add_section()
        previous = row["match"]
        out.add_row(row["match"], row["label"], str(row["workers"]), f"{row['hands']:,}", num(row["decisions"]),
                    num(row["decisions_per_hand"], 2), f"{row['seconds']:.2f}", f"{row['cpu_seconds']:.2f}",
                    num(row["hands_per_s"]), num(row["decisions_per_s"]), num(row["ours_1w_over_this"], 2),
                    num(row["ours_2w_over_this"], 2))
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(out)
    for note in notes:
        console.print(note, markup=False)
    load = info["load_average_1_5_15"]
    console.print(f"Machine: {info['processor']}, {info['cpus']} CPUs, {info['implementation']} {info['python']}, "
                  f"{info['platform']}; load average before {load[0]:.2f}, after {info['load_after'][0]:.2f} "
                  "(CPU s includes the worker processes; another load on the CPUs slows the 2-worker runs most).",
                  markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", nargs="+", choices=list(MATCHES), default=list(MATCHES), metavar="MATCH",
                        help=f"matches to play: {', '.join(MATCHES)} (default: all)")
    parser.add_argument("--only", nargs="+", choices=[OURS, *PEERS], metavar="ENGINE",
                        help=f"engines to run: {', '.join([OURS, *PEERS])} (default: all installed)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="our worker counts (default 1 2)")
    parser.add_argument("--hands", type=int, help="hands of every match (default: each match's own)")
    parser.add_argument("--seconds", type=float, default=8.0, help="time budget of a peer's run, 0 for none")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", nargs="?", const="-", metavar="PATH",
                        help="write the runs as JSON to PATH (with no PATH: print JSON instead of the table)")
    parser.add_argument("--in-process", action="store_true", help="run every engine in this interpreter")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        run = play(args.worker, args.matches[0], args.hands, args.seed, args.workers[0], args.seconds or None)
        print(json.dumps(to_json(run)))
        return 0
    info = machine()
    engines = args.only or [OURS, *PEERS]
    runs: list[Run] = []
    notes: list[str] = []
    for engine in engines:
        if not available(engine):
            notes.append(f"{engine}: not installed (pip install -e '.[bench]'), skipped")
    for match in args.matches:
        for engine in engines:
            if engine != OURS and (not MATCHES[match].peers or not available(engine)):
                continue
            for workers in args.workers if engine == OURS else [1]:
                print(f"running {engine} on {match} ({workers} worker(s))…", file=sys.stderr)
                runs.append(measure(engine, match, workers, args))
    info["load_after"] = [round(x, 2) for x in os.getloadavg()]
    table, more = rows(runs)
    notes += more
    if args.json:
        text = json.dumps({"machine": info, "rows": table, "notes": notes}, indent=2)
        if args.json == "-":
            print(text)
            return 0
        Path(args.json).write_text(text + "\n")
    report(table, notes, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
