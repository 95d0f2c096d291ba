"""Hands per second of a full ACPC match over loopback, and where the time goes.

    python benchmarks/acpc.py [--hands 2000] [--games holdem.limit.2p.reverse_blinds,...] [--bot random]

For each game, three figures:

* ``engine``: the hands alone on :class:`~cardgame.acpc.hand.AcpcHand` (the dealer's cards and
  the actions of a recorded match, no sockets): the ceiling the protocol adds to;
* ``one loop``: the dealer and every client as tasks of one asyncio loop in one process, over
  loopback TCP (one core: protocol, engine twice per hand -- the dealer's and each client's);
* ``processes``: ``cardgame acpc dealer`` and one ``cardgame acpc client`` per seat as separate
  processes, timed from the ports line to the ``SCORE`` line (the machine's cores shared).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import subprocess
import sys
import time

from cardgame.acpc.client import play
from cardgame.acpc.dealer import Dealer
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.log import parse_log, replay
from cardgame.bots import get


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


def _processes(name: str, hands: int, bot: str, players: int) -> float:
    command = [sys.executable, "-m", "cardgame", "acpc"]
    dealer = subprocess.Popen([*command, "dealer", name, "--hands", str(hands), "--seed", "1", "--quiet"],
                              stdout=subprocess.PIPE, text=True)
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    start = time.perf_counter()
    clients = [subprocess.Popen([*command, "client", name, "127.0.0.1", port, "--bot", bot, "--seed", str(i)],
                                stdout=subprocess.DEVNULL) for i, port in enumerate(ports)]
    score = dealer.stdout.readline()
    elapsed = time.perf_counter() - start
    for c in clients:
        c.wait(timeout=60)
    dealer.wait(timeout=60)
    assert score.startswith("SCORE:") and len(ports) == players
    return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--games", default=",".join(STANDARD_GAMES), help="comma-separated standard game names")
    parser.add_argument("--bot", default="random", help="the bot every client plays (default random)")
    parser.add_argument("--no-processes", action="store_true", help="skip the separate-processes figure")
    args = parser.parse_args()
    print(f"{args.hands} hands a match, every seat played by {args.bot!r} (hands per second)")
    print(f"{'game':<34} {'engine':>9} {'one loop':>9} {'processes':>10}")
    for name in args.games.split(","):
        game = STANDARD_GAMES[name]
        elapsed, log = asyncio.run(_one_loop(game, args.hands, args.bot))
        procs = "-" if args.no_processes else f"{_processes(name, args.hands, args.bot, game.num_players):10.0f}"
        print(f"{name:<34} {_engine(game, log):9.0f} {args.hands / elapsed:9.0f} {procs:>10}")


if __name__ == "__main__":
    main()
