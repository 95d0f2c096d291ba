"""Hands per second of a full ACPC match over loopback, and where the time goes.

    python benchmarks/acpc.py [--hands 2000] [--games holdem.limit.2p.reverse_blinds,...] [--bot random]
    python benchmarks/acpc.py --compare /tmp/acpc-old --runs 5   # the process figures, this tree against another

For each game, four figures:

* ``engine``: the hands alone on :class:`~cardgame.acpc.hand.AcpcHand` (the dealer's cards and
  the actions of a recorded match, no sockets): the ceiling the protocol adds to;
* ``one loop``: the dealer and every client as tasks of one asyncio loop in one process, over
  loopback TCP (one core: protocol, engine twice per hand -- the dealer's and each client's);
* ``processes``: ``cardgame acpc dealer`` and one ``cardgame acpc client`` per seat as separate
  processes, timed from the ports line to the ``SCORE`` line (the machine's cores shared; each
  client replays every hand on the engine and asks its bot, so this is dealer and clients);
* ``dealer``: ``cardgame acpc dealer`` against stand-ins for the reference's example players
  (``benchmarks/acpc_player.py``: a random valid action from each line, no engine), so the time
  is the dealer's own and the loopback's. The reference's example players are C programs, not
  available here; these cost a little more per line. On a shared machine the wall-clock rate is
  bound by how soon each process gets a core back after every line, so the dealer's own cost is
  also given: ``CPU us/hand``, the dealer process's CPU time (user and system) from its ports
  line to its exit, per hand.

``--compare DIR`` runs the process figures for the source tree ``DIR`` too (``git worktree add
DIR COMMIT``), alternating the two trees run by run, and prints the median of ``--runs`` runs and
the ratio; the stand-in players are this tree's in both.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cardgame.acpc.client import play
from cardgame.acpc.dealer import Dealer
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.log import parse_log, replay
from cardgame.play.bots import get

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent  # the source tree whose code the processes run (this one, unless --compare)


async def _one_loop(game: GameDef, hands: int, bot: str) -> tuple[float, str]:
    log = io.StringIO()
    dealer = Dealer(game, hands=hands, seed=1, log=log, timeout_ms=60_000)
    ports = await dealer.listen()
    start = time.perf_counter()
    clients = [asyncio.create_task(play(game, "127.0.0.1", p, get(bot), seed=i)) for i, p in enumerate(ports)]
    await dealer.play(start_timeout=30)
    await asyncio.gather(*clients)
    return time.perf_counter() - start, log.getvalue()


def _engine(game: GameDef, log: str) -> float:
    records = parse_log(log, game).hands
    start = time.perf_counter()
    for record in records:
        replay(record, game)
    return len(records) / (time.perf_counter() - start)


def _env(source: Path) -> dict[str, str]:
    """The environment of a process that runs ``source``'s code (ahead of any installed copy)."""
    return {**os.environ, "PYTHONPATH": str(source)}


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) the running process ``pid`` has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _processes(name: str, hands: int, bot: str, players: int, *, stand_in: bool = False,
               source: Path = SOURCE) -> tuple[float, float]:
    """Hands per second of ``cardgame acpc dealer`` (from ``source``) and one player process a seat:
    ``cardgame acpc client`` with ``bot`` (also from ``source``), or this tree's stand-in player;
    and the dealer's CPU time a hand in microseconds (from its ports line to its exit)."""
    command = [sys.executable, "-m", "cardgame", "acpc"]
    dealer = subprocess.Popen([*command, "dealer", name, "--hands", str(hands), "--seed", "1", "--quiet",
                               "--timeout-ms", "60000"], stdout=subprocess.PIPE, text=True, env=_env(source),
                              cwd=source)  # ``-m`` puts the working directory first on the path
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    start = time.perf_counter()
    started = _cpu_seconds(dealer.pid)  # the imports and listening: not the match
    if stand_in:
        clients = [subprocess.Popen([sys.executable, str(HERE / "acpc_player.py"), name, "127.0.0.1", port, str(i)],
                                    env=_env(SOURCE)) for i, port in enumerate(ports)]
    else:
        clients = [subprocess.Popen([*command, "client", name, "127.0.0.1", port, "--bot", bot, "--seed", str(i)],
                                    stdout=subprocess.DEVNULL, env=_env(source), cwd=source)
                   for i, port in enumerate(ports)]
    score = dealer.stdout.readline()
    elapsed = time.perf_counter() - start
    for c in clients:
        c.wait(timeout=60)
    _, status, usage = os.wait4(dealer.pid, 0)
    dealer.returncode = os.waitstatus_to_exitcode(status)
    dealer.stdout.close()
    assert score.startswith("SCORE:") and len(ports) == players and dealer.returncode == 0
    return hands / elapsed, (usage.ru_utime + usage.ru_stime - started) / hands * 1e6


def _compare(names: list[str], hands: int, bot: str, other: Path, runs: int) -> None:
    """The process figures of ``other`` and this tree, alternating run by run: medians and ratios."""
    print(f"{hands} hands a match, median of {runs} runs, the two trees alternating")
    print(f"{'game':<34} {'figure':<22} {'other':>7} {'this':>7} {'ratio':>6}   (other: {other})")
    for name in names:
        game = STANDARD_GAMES[name]
        for figure, stand_in in (("processes", False), ("dealer", True)):
            rates: dict[Path, list[float]] = {other: [], SOURCE: []}
            cpu: dict[Path, list[float]] = {other: [], SOURCE: []}
            for _ in range(runs):
                for source in (other, SOURCE):
                    rate, used = _processes(name, hands, bot, game.num_players, stand_in=stand_in, source=source)
                    rates[source].append(rate)
                    cpu[source].append(used)
            rows = [(f"{figure} hands/s", rates, False)]
            if stand_in:
                rows.append(("dealer CPU us a hand", cpu, True))
            for label, got, lower_is_better in rows:
                old, new = statistics.median(got[other]), statistics.median(got[SOURCE])
                ratio = old / new if lower_is_better else new / old
                runs_text = f"{' '.join(f'{v:.0f}' for v in got[other])} | {' '.join(f'{v:.0f}' for v in got[SOURCE])}"
                print(f"{name:<34} {label:<22} {old:7.0f} {new:7.0f} {ratio:5.2f}x   (runs: {runs_text})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", default=",".join(STANDARD_GAMES), help="comma-separated standard game names")
    parser.add_argument("--bot", default="random", help="the bot every client plays (default random)")
    parser.add_argument("--no-processes", action="store_true", help="skip the separate-processes figures")
    parser.add_argument("--compare", type=Path, default=None, metavar="DIR",
                        help="also run the process figures for the source tree DIR, alternating with this one")
    parser.add_argument("--runs", type=int, default=3, help="runs of each process figure with --compare (median)")
    args = parser.parse_args()
    names = args.games.split(",")
    if args.compare is not None:
        _compare(names, args.hands, args.bot, args.compare.resolve(), args.runs)
        return
    print(f"{args.hands} hands a match, every seat played by {args.bot!r} (hands per second)")
    print(f"{'game':<34} {'engine':>9} {'one loop':>9} {'processes':>10} {'dealer':>8} {'CPU us/hand':>11}")
    for name in names:
        game = STANDARD_GAMES[name]
        elapsed, log = asyncio.run(_one_loop(game, args.hands, args.bot))
        procs = dealer = cpu = "-"
        if not args.no_processes:
            procs = f"{_processes(name, args.hands, args.bot, game.num_players)[0]:.0f}"
            rate, used = _processes(name, args.hands, args.bot, game.num_players, stand_in=True)
            dealer, cpu = f"{rate:.0f}", f"{used:.0f}"
        print(f"{name:<34} {_engine(game, log):9.0f} {args.hands / elapsed:9.0f} {procs:>10} {dealer:>8} {cpu:>11}",
              flush=True)


if __name__ == "__main__":
    main()
