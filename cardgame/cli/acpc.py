"""``cardgame acpc``: a bot against an ACPC dealer (``client``), a dealer for ACPC bots (``dealer``), and a
dealer's log replayed on the engine (``replay``)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_COUNT, MAX_SEED, MAX_TIMEOUT_MS, output, port, ports, whole
from cardgame.model.errors import CardgameError

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    """``acpc client``: a bot plays against a dealer; ``acpc dealer``: host a match for remote bots;
    ``acpc replay``: a dealer's log replayed on the engine."""
    import asyncio

    from cardgame.acpc.gamedef import load_gamedef

    game = load_gamedef(args.game)
    if args.acpc_command == "client":
        from cardgame.acpc.client import run_client
        from cardgame.acpc.log import format_value
        from cardgame.play.bots import get

        result = run_client(game, args.host, args.port, get(args.bot), seed=args.seed)
        print(f"{result.hands} hand{'s' if result.hands != 1 else ''} played: {format_value(result.value)} "
              f"({result.chips:+d} chips)")
        return 0
    if args.acpc_command == "replay":
        return _acpc_replay(game, args.log)
    from cardgame.acpc.dealer import Dealer

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    start = None if args.start_timeout_ms is None else args.start_timeout_ms / 1000

    def say(text: str) -> None:
        if not args.quiet:
            print(f"cardgame: {text}", file=sys.stderr, flush=True)

    with open(args.log, "w") if args.log else contextlib.nullcontext() as log:  # no --log: no log written
        seats = game.num_players
        connected = 0

        def seated(seat: int) -> None:
            nonlocal connected
            connected += 1
            more = seats - connected
            say(f"seat {seat} connected; " + (f"waiting for {more} more" if more else
                                              f"every seat is taken: playing {args.hands:,} hands"))

        dealer = Dealer(game, hands=args.hands, seed=args.seed, ports=args.ports, host=args.host,
                        timeout_ms=args.timeout_ms, hand_ms=args.hand_ms, per_hand_ms=args.per_hand_ms,
                        names=names, log=log, game_name=args.game,
                        warn=None if args.quiet else lambda text: print(f"cardgame: warning: {text}", file=sys.stderr),
                        seated=seated)

        async def host() -> str:
            ports = await dealer.listen()
            if not args.quiet:
                for seat, port in enumerate(ports, start=1):
                    print(f"listening on {args.host}:{port} (seat {seat})", file=sys.stderr)
                limit = "" if start is None else f" (at most {start:g} s)"
                say(f"waiting for {seats} bots to connect, one per port{limit}; the match starts when all have")
            print(" ".join(map(str, ports)), flush=True)  # as the reference dealer prints them
            return str((await dealer.play(start)).score)

        print(asyncio.run(host()), flush=True)
    return 0


def _acpc_replay(game: Any, path: str) -> int:
    """Replay every hand of a dealer's log on the engine, read as a stream; 1 if any payoff differs
    from the log's (compared as numbers: exactly, to the 6 decimals the reference prints) or a hand
    cannot be played as logged, 2 if the log is malformed."""
    from fractions import Fraction

    from cardgame.acpc.log import HandRecord, Score, format_value, payoff, read_log, replay

    def show(values: Any) -> str:
        return "|".join(map(format_value, values))

    differ = hands = 0
    totals: dict[str, Fraction] = {}
    size = Fraction(0)  # the sum of every payoff's size: bounds the rounding in the reference's SCORE
    score: Score | None = None
    for entry in read_log(path, game):
        if isinstance(entry, Score):
            score = entry
        if not isinstance(entry, HandRecord):
            continue
        hands += 1
        try:
            engine = tuple(Fraction(v) for v in replay(entry, game).values())
        except CardgameError as exc:
            differ += 1
            print(f"hand {entry.hand}: the engine cannot play it as logged: {exc}")
            engine = entry.values  # the SCORE check goes on with the log's own payoffs
        else:
            if tuple(map(payoff, engine)) != entry.values:
                differ += 1
                print(f"hand {entry.hand}: the log says {show(entry.values)}, the engine {show(engine)}")
        for name, value in zip(entry.names, engine, strict=True):
            totals[name] = totals.get(name, Fraction(0)) + value
            size += abs(value)
    if score is not None:
        # the reference adds doubles: its total may be off the exact one by its rounding, bounded here
        slack = Fraction(1, 2 * 10**6) + (hands + 2) * size / 2**53
        added = tuple(totals.get(name, Fraction(0)) for name in score.names)
        if set(totals) - set(score.names) or any(abs(a - v) > slack for a, v in zip(added, score.values, strict=True)):
            differ += 1
            print(f"SCORE: the log says {show(score.values)}:{'|'.join(score.names)}, the hands add up to "
                  f"{'|'.join(f'{format_value(v)} {n}' for n, v in totals.items())}")
    print(f"{hands} hands replayed: " + (f"{differ} disagree" if differ else "every payoff agrees"))
    return 1 if differ else 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``acpc`` subcommand: ``client`` (a bot plays a remote dealer) and ``dealer`` (host a match)."""
    from cardgame.acpc.dealer import DEFAULT_HAND_MS, DEFAULT_PER_HAND_MS, DEFAULT_TIMEOUT_MS
    from cardgame.acpc.gamedef import STANDARD_GAMES
    from cardgame.play.bots import available

    acpc = sub.add_parser("acpc", help="the ACPC poker protocol: a bot against a dealer, or a dealer for bots")
    acpc_sub = acpc.add_subparsers(dest="acpc_command", required=True)
    games = f"a .game file, or a standard game: {', '.join(STANDARD_GAMES)}"
    client = acpc_sub.add_parser("client", help="play a bot against an ACPC dealer")
    client.add_argument("game", help=games)
    client.add_argument("host")
    client.add_argument("port", type=port)
    client.add_argument("--bot", default="random", help=f"the bot to play (default random): {', '.join(available())}")
    client.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None,
                        help="seeds the bot's random choices")
    dealer = acpc_sub.add_parser(
        "dealer", help="host a match for ACPC bots: one port per seat",
        description="Host a match for ACPC bots, one port per seat. Standard output is the reference dealer's, "
                    "for scripts: the ports on one line as soon as they listen, then the final SCORE line. "
                    "Standard error says what the dealer waits for: the ports, each bot as it connects, and "
                    "warnings (time-outs, invalid actions); --quiet leaves only errors.")
    dealer.add_argument("game", help=games)
    dealer.add_argument("--hands", type=whole("number of hands", 1, MAX_COUNT), required=True)
    dealer.add_argument("--seed", type=whole("seed", 0, 2**32 - 1), required=True,
                        help="the cards: the reference dealer's for this seed (0 to 2**32 - 1, as its seeds)")
    dealer.add_argument("--ports", type=ports, default=None,
                        help="comma-separated, one per seat (default: free ports)")
    dealer.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    dealer.add_argument("--timeout-ms", type=whole("time-out", 1, MAX_TIMEOUT_MS), default=DEFAULT_TIMEOUT_MS,
                        help=f"time for one answer; then the player checks or folds (default {DEFAULT_TIMEOUT_MS})")
    dealer.add_argument("--hand-ms", type=whole("time a hand", 1, MAX_TIMEOUT_MS), default=DEFAULT_HAND_MS,
                        help="a player's time in one hand, as the reference's --t_hand; past it the player checks "
                             f"or folds for the rest of the match (default {DEFAULT_HAND_MS})")
    dealer.add_argument("--per-hand-ms", type=whole("average time a hand", 1, MAX_TIMEOUT_MS),
                        default=DEFAULT_PER_HAND_MS,
                        help="a player's average time a hand over the match, as the reference's --t_per_hand "
                             f"(default {DEFAULT_PER_HAND_MS})")
    dealer.add_argument("--start-timeout-ms", type=whole("start time-out", 1, MAX_TIMEOUT_MS), default=None,
                        help="time for every seat to connect (default: no limit)")
    dealer.add_argument("--names", default=None, help="comma-separated player names for the log (default P1,P2...)")
    dealer.add_argument("--log", type=output, default=None,
                        help="write the match log (STATE lines, SCORE) to this file")
    dealer.add_argument("--quiet", action="store_true",
                        help="nothing on stderr but errors: no 'listening on' and 'connected' lines, no warnings "
                             "(time-outs...)")
    again = acpc_sub.add_parser("replay", help="replay a dealer's log on the engine and compare every payoff")
    again.add_argument("game", help=games)
    again.add_argument("log", help="the log: STATE lines and the SCORE line (# comments skipped)")
    for parser in (client, dealer, again):
        parser.set_defaults(run=run)
