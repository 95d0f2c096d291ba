"""The ``cardgame`` command: ``demo`` (bots play; the hand history is printed), ``phh check``
(replay hand histories), ``equity`` (exact or Monte Carlo all-in equity), ``simulate`` (a
match between bots) and ``acpc`` (a bot against an ACPC dealer, or a dealer for ACPC bots).

Errors in the command line or the input print one line on stderr and exit with status 2. Every
number on the command line is read as ASCII digits (``²`` and ``٥`` are refused) within bounds
checked before any work starts: a number of hands, samples or workers past them is an error, not a
run that never ends.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, NoReturn

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardgame.evaluation.equity import MAX_SAMPLES
from cardgame.model.errors import CardgameError, StageError
from cardgame.model.events import Event, StageFailed
from cardgame.model.inputs import excerpt, read_int
from cardgame.model.table import MAX_SEATS
from cardgame.play.bots import pair_raiser, random_bot, random_draw
from cardgame.play.game import Game
from cardgame.play.narration import Line, Narration, PlayerResult
from cardgame.play.view import status_legend, status_table, table_view

__all__ = ["main"]


_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")

#: Bounds of the command line's numbers (the library's own, where it has one).
MAX_SEED = 2**64 - 1  # what the demo draws when given none, so any seed a run printed can be given back
MAX_CHIPS = 10**12  # a table's default maximum buy-in
MAX_DEMO_HANDS = 100_000
MAX_COUNT = 10**18 - 1  # a dealer's hands (a match the user means to run until stopped)
MAX_TIMEOUT_MS = 86_400_000  # a day


def _demo(args: argparse.Namespace, console: Console) -> int:
    """Bots play ``--hands`` hands; print the hand history (or only the results, or JSON)."""
    import variants

    variant = variants.get(args.variant)
    if args.seats is None:
        args.seats = min(6, variant.max_players)
    if not 2 <= args.seats <= variant.max_players:
        raise CardgameError(f"--seats must be 2 to {variant.max_players} for {variant.name}, not {args.seats}")
    stages = variant.build()
    seed = secrets.randbits(64) if args.seed is None else args.seed  # a demo is seeded: its seed replays it
    game = Game(stages, seats=args.seats, seed=seed, max_hands=args.hands)
    history = Narration.for_stages(stages)
    quiet = args.quiet or args.json

    def show(event: Event) -> None:
        lines = history.feed(event)
        if not quiet:
            _print(console, lines)

    game.subscribe(show)
    for i in range(args.seats):
        game.sit_down(_NAMES[i], args.stack)
    bots = {i: (pair_raiser if i % 2 else random_bot) for i in range(args.seats)}
    stud = history.complete_to is not None
    if not quiet:
        _introduce(console, game, variant.name, variant.code, history.stakes, args)
        if args.table:
            console.print(status_legend(button=not stud), highlight=False, markup=False)
    game.start()
    while game.status_name == "running" and game.to_act is not None:
        if args.table:
            _print(console, history.flush())
            view = table_view(game.ctx, reveal=True, to_act=game.to_act)
            console.print(status_table(view, button=not stud), highlight=False, markup=False)
        game.play(bots, drawer=random_draw, max_actions=1)  # each bot sees only its seat's view
    if game.status_name == "failed":
        failed = next((e for e in reversed(game.events) if isinstance(e, StageFailed)), None)
        raise StageError(failed.describe() if failed is not None else "the game failed")
    if not quiet:
        _print(console, history.flush())
    results = history.results()
    stopped = _why_stopped(history.hands_played, args.hands, results)
    if args.json:
        print(json.dumps({
            "variant": variant.name, "code": variant.code, "seed": game.seed, "seats": args.seats,
            "stack": args.stack, "hands_requested": args.hands, "hands_played": history.hands_played,
            "stopped_early": stopped is not None, "stop_reason": stopped,
            "players": [{"seat": r.seat, "name": r.name, "hands": r.hands, "net": r.net, "stack": r.stack}
                        for r in results],
        }, indent=2))
        return 0
    if not args.quiet:
        console.print()
    console.print(_results_table(results, history.hands_played))
    if stopped:
        console.print(stopped, highlight=False, markup=False)
    return 0


def _print(console: Console, lines: list[Line]) -> None:
    """Print hand-history lines: a rule for a hand's header, streets in bold, actions indented."""
    for line in lines:
        if line.kind == "hand":
            console.print()
            console.rule(Text(line.text, style="bold"))
        elif line.kind == "street":
            console.print(Text(line.text, style="bold"), highlight=False)
        else:
            console.print(("  " if line.kind == "action" else "") + line.text, highlight=False, markup=False)


def _introduce(console: Console, game: Game, name: str, code: str | None, stakes: str,
               args: argparse.Namespace) -> None:
    """The lines before the first hand: the game, the players and their bots, how cards are shown."""
    names = game.names()
    pair, rand = ([n for s, n in names.items() if s % 2 == odd] for odd in (1, 0))
    say = console.print
    say(f"{name} ({code or 'no PHH code'}){f', {stakes}' if stakes else ''}: {args.seats} players with "
        f"{args.stack} chips each, {args.hands} hand{'s' if args.hands != 1 else ''}, seed {game.seed} "
        "(the same seed replays the same game).", highlight=False, markup=False)
    say(f"Bots: {_and(rand)} {_verb('act', rand)} at random; {_and(pair)} {_verb('raise', pair)} with a pair of "
        "fives or better and otherwise check or fold.", highlight=False, markup=False)
    say("Everyone's cards are shown; cards in [brackets] are face up for all to see.", highlight=False,
        markup=False)


def _why_stopped(played: int, wanted: int, results: list[PlayerResult]) -> str | None:
    """Why fewer than ``wanted`` hands were played (``None``: all were)."""
    if played >= wanted:
        return None
    out = [r.name for r in results if r.stack == 0]
    left = [r.name for r in results if r.stack > 0]
    if not out:
        return f"Stopped after {played} of {wanted} hands: fewer than two players are left to play."
    rest = f"only {left[0]} can play" if len(left) == 1 else "fewer than two can play"
    return (f"Stopped after {played} of {wanted} hands: {_and(out)} {'is' if len(out) == 1 else 'are'} out of "
            f"chips, so {rest} and a hand needs two players.")


def _and(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cat``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _verb(verb: str, names: Sequence[str]) -> str:
    """``verb`` agreeing with one name or several: ``raises`` or ``raise``."""
    return verb + "s" if len(names) == 1 else verb


def _results_table(results: list[PlayerResult], played: int) -> Table:
    """The closing table: each player's hands, net chips and final stack, biggest winner first."""
    table = Table(title=f"Results after {played} hand{'s' if played != 1 else ''}", title_justify="left")
    table.add_column("Player")
    table.add_column("Hands", justify="right")
    table.add_column("Net", justify="right")
    table.add_column("Stack", justify="right")
    for r in sorted(results, key=lambda r: (-r.net, r.seat)):
        style = "green" if r.net > 0 else "red" if r.net < 0 else ""
        table.add_row(r.name, str(r.hands), Text(f"{r.net:+d}" if r.net else "0", style=style), str(r.stack))
    return table


def _phh_check(args: argparse.Namespace, console: Console) -> int:
    from cardgame.phh.replay import check_paths

    report = check_paths(args.paths)
    if not report.hands:
        raise CardgameError(f"no PHH hands found in {' '.join(args.paths)} (looked for .phh and .phhs files)")
    for line in report.lines():
        console.print(line, highlight=False, markup=False)
    return 0 if report.ok else 1


def _equity(args: argparse.Namespace, console: Console) -> int:
    from cardgame.evaluation.equity import equity

    exact = True if args.exact else (False if args.samples is not None else None)
    result = equity(args.hands, args.board or (), game=args.game, hi_lo=args.hi_lo, exact=exact,
                    samples=args.samples or 100_000, seed=args.seed)
    kind = "exact over" if result.exact else "Monte Carlo,"
    console.print(f"{kind} {result.boards:,} boards", highlight=False)
    width = max(len(h) for h in args.hands)
    console.print(f"{'hand':<{width}}  {'equity':>9}  {'wins':>10}  {'ties':>9}  exact", highlight=False)
    for hand, eq, wins, ties in zip(args.hands, result.equity, result.wins, result.ties, strict=True):
        frac = f"{eq.numerator}/{eq.denominator}" if result.exact else ""
        console.print(f"{hand:<{width}}  {float(eq):>9.4%}  {wins:>10,}  {ties:>9,}  {frac}", highlight=False)
    return 0


def _simulate(args: argparse.Namespace, console: Console) -> int:
    from cardgame.simulate import Match, simulate

    match = Match(args.variant, tuple(b.strip() for b in args.bots.split(",") if b.strip()), args.hands,
                  seed=args.seed, stack=args.stack, mode="tournament" if args.tournament else "cash",
                  duplicate=args.duplicate)
    result = simulate(match, workers=args.workers, backend=args.backend, progress=console.is_terminal)
    unit = "deals, each played once per seat rotation" if args.duplicate else "hands"
    console.print(f"{args.variant}: {args.hands:,} {unit}, seed {args.seed}", highlight=False)
    console.print(result.table(), highlight=False, markup=False)
    if args.json:
        with open(args.json, "w") as out:
            out.write(result.to_json() + "\n")
    if args.plot:
        result.plot(args.plot)
    return 0


def add_simulate(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``simulate`` subcommand: a match between bots, printed as a results table."""
    from cardgame.play.bots import available
    from cardgame.simulate import BACKENDS
    from cardgame.simulate.config import MAX_HANDS
    from cardgame.simulate.workers import MAX_WORKERS

    sim = sub.add_parser(
        "simulate", help="a match between bots: bb/100 with a 95%% interval, VPIP, PFR, AF",
        description="Play a match between bots and print each bot's results: hands, net chips, big blinds won "
                    "per 100 hands with a 95% confidence interval, VPIP and PFR (how often it put chips in, and "
                    "raised, before the flop), AF (aggression: bets and raises per call), SD won (showdowns won); "
                    "tournaments add the tournaments won and the mean finishing place.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sim.add_argument("--variant", default="NT", help="variant name or PHH code")
    sim.add_argument("--bots", default="seed-ai,random,all-in",
                     help=f"comma-separated, one per seat, from: {', '.join(available())}")
    sim.add_argument("--hands", type=_whole("number of hands", 1, MAX_HANDS), default=10_000,
                     help="hands to play (deals with --duplicate)")
    sim.add_argument("--seed", type=_whole("seed", 0, MAX_SEED), default=0, help="the match replays from it")
    sim.add_argument("--stack", type=_whole("stack", 1, MAX_CHIPS), default=None,
                     help="starting stack (None: 100 big blinds)")
    sim.add_argument("--workers", type=_whole("number of workers", 1, MAX_WORKERS), default=1,
                     help="processes sharing the hands (the results are the same for any number)")
    sim.add_argument("--backend", choices=BACKENDS, default=None,
                     help="None: serial for one worker, else process")
    sim.add_argument("--duplicate", action="store_true", help="replay every deal with the seats rotated")
    sim.add_argument("--tournament", action="store_true", help="freeze-outs with rising blinds, not a cash game")
    sim.add_argument("--json", type=_output, default=None, help="write the results as JSON to this file")
    sim.add_argument("--plot", type=_output, default=None,
                     help="save cumulative winnings as a PNG (needs cardgame[plot])")


def _serve(args: argparse.Namespace, console: Console) -> int:
    try:
        from cardgame.server.serve import serve
    except ImportError as exc:
        raise CardgameError(f"cardgame serve needs the server extra ({exc.name} is missing): "
                            "pip install 'cardgame[server]'") from None
    return serve(db=None if args.no_db else args.db, host=args.host, port=args.port, tables=args.table,
                 bots=args.bots, allowed_origins=args.allow_origin, name=args.name, phh=not args.no_phh,
                 console=console)


def add_serve(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``serve`` subcommand: the table server (needs ``cardgame[server]``)."""
    serve = sub.add_parser("serve", help="the table server: a lobby and tables in the browser, over websockets")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="default 8000")
    serve.add_argument("--db", default="cardgame-server.db",
                       help="the event store tables are recorded in and recovered from: a SQLite file (default "
                            "cardgame-server.db) or a postgresql:// address")
    serve.add_argument("--no-db", action="store_true", help="record nothing: tables end with the process")
    serve.add_argument("--no-phh", action="store_true",
                       help="record events only, not each hand's PHH text as well (faster when busy)")
    serve.add_argument("--table", action="append", default=[], metavar="VARIANT",
                       help="open a table of this variant (name or PHH code) when the server holds none; repeatable")
    serve.add_argument("--bots", type=_whole("number of bots", 0, 9), default=2,
                       help="bots seated at each --table (default 2)")
    serve.add_argument("--name", default=None, metavar="URL",
                       help="this process's address, for several processes sharing one database: each drives the "
                            "tables it created (default http://HOST:PORT)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                       help="another web origin whose pages may connect (e.g. https://example.org)")


def _acpc(args: argparse.Namespace, console: Console) -> int:
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
    with open(args.log, "w") if args.log else contextlib.nullcontext() as log:  # no --log: no log written
        dealer = Dealer(game, hands=args.hands, seed=args.seed, ports=args.ports, host=args.host,
                        timeout_ms=args.timeout_ms, names=names, log=log, game_name=args.game,
                        warn=None if args.quiet else lambda text: print(f"cardgame: warning: {text}", file=sys.stderr))

        async def host() -> str:
            ports = await dealer.listen()
            if not args.quiet:
                for seat, port in enumerate(ports, start=1):
                    print(f"listening on {args.host}:{port} (seat {seat})", file=sys.stderr)
                sys.stderr.flush()
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


def add_acpc(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``acpc`` subcommand: ``client`` (a bot plays a remote dealer) and ``dealer`` (host a match)."""
    from cardgame.acpc.dealer import DEFAULT_TIMEOUT_MS
    from cardgame.acpc.gamedef import STANDARD_GAMES
    from cardgame.play.bots import available

    acpc = sub.add_parser("acpc", help="the ACPC poker protocol: a bot against a dealer, or a dealer for bots")
    acpc_sub = acpc.add_subparsers(dest="acpc_command", required=True)
    games = f"a .game file, or a standard game: {', '.join(STANDARD_GAMES)}"
    client = acpc_sub.add_parser("client", help="play a bot against an ACPC dealer")
    client.add_argument("game", help=games)
    client.add_argument("host")
    client.add_argument("port", type=_port)
    client.add_argument("--bot", default="random", help=f"the bot to play (default random): {', '.join(available())}")
    client.add_argument("--seed", type=_whole("seed", 0, MAX_SEED), default=None,
                        help="seeds the bot's random choices")
    dealer = acpc_sub.add_parser("dealer", help="host a match for ACPC bots: one port per seat")
    dealer.add_argument("game", help=games)
    dealer.add_argument("--hands", type=_whole("number of hands", 1, MAX_COUNT), required=True)
    dealer.add_argument("--seed", type=_whole("seed", 0, 2**32 - 1), required=True,
                        help="the cards: the reference dealer's for this seed (0 to 2**32 - 1, as its seeds)")
    dealer.add_argument("--ports", type=_ports, default=None,
                        help="comma-separated, one per seat (default: free ports)")
    dealer.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    dealer.add_argument("--timeout-ms", type=_whole("time-out", 1, MAX_TIMEOUT_MS), default=DEFAULT_TIMEOUT_MS,
                        help=f"time for one answer; then the player checks or folds (default {DEFAULT_TIMEOUT_MS})")
    dealer.add_argument("--start-timeout-ms", type=_whole("start time-out", 1, MAX_TIMEOUT_MS), default=None,
                        help="time for every seat to connect (default: no limit)")
    dealer.add_argument("--names", default=None, help="comma-separated player names for the log (default P1,P2...)")
    dealer.add_argument("--log", type=_output, default=None,
                        help="write the match log (STATE lines, SCORE) to this file")
    dealer.add_argument("--quiet", action="store_true",
                        help="nothing on stderr but errors: no 'listening on' lines, no warnings (time-outs...)")
    again = acpc_sub.add_parser("replay", help="replay a dealer's log on the engine and compare every payoff")
    again.add_argument("game", help=games)
    again.add_argument("log", help="the log: STATE lines and the SCORE line (# comments skipped)")


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535, in ASCII digits."""
    return _whole("port", 0, 65535)(text)


def _ports(text: str) -> list[int]:
    """An argparse type: comma-separated ports."""
    return [_port(p.strip()) for p in text.split(",")]


def _whole(what: str, minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum`` in ASCII digits
    (:func:`cardgame.model.inputs.read_int`)."""

    def parse(text: str) -> int:
        try:
            return read_int(text, what, CardgameError, signed=True, minimum=minimum, maximum=maximum,
                            max_digits=max(18, len(str(maximum))))
        except CardgameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def _output(text: str) -> str:
    """An argparse type: a file the command can write (checked before it runs): not a folder, in a folder
    that exists and may be written."""
    folder = os.path.dirname(os.path.abspath(text)) if text else ""
    if not text or os.path.isdir(text) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write the file {excerpt(text)}: give a file name in a folder that "
                                         "exists and may be written")
    return text


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        if len(message) > 300:  # argparse quotes a bad value whole
            message = message[:300] + f"... ({len(message):,} characters)"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    try:
        return version("cardgame")
    except PackageNotFoundError:
        from cardgame import __version__

        return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="cardgame", description="Poker assembled from small state machines.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="bots play a few hands; print the hand history and the results",
                          description="Bots play a few hands; print the hand history, then each player's "
                                      "results.")
    demo.add_argument("--variant", default="NT", help="variant name or PHH code (default NT, no-limit hold'em)")
    demo.add_argument("--seats", type=_whole("number of seats", 2, MAX_SEATS), default=None,
                      help="players (default 6, or the variant's maximum if lower)")
    demo.add_argument("--hands", type=_whole("number of hands", 1, MAX_DEMO_HANDS), default=5,
                      help="hands to play (default 5; fewer if players run out of chips)")
    demo.add_argument("--seed", type=_whole("seed", 0, MAX_SEED), default=None,
                      help="replay a game exactly (default: random)")
    demo.add_argument("--stack", type=_whole("stack", 1, MAX_CHIPS), default=200,
                      help="each player's buy-in (default 200)")
    show = demo.add_mutually_exclusive_group()
    show.add_argument("--table", action="store_true", help="also print the status table before every action")
    show.add_argument("--quiet", action="store_true", help="print only the results table")
    show.add_argument("--json", action="store_true", help="print only the results, as JSON")
    phh = sub.add_parser("phh", help="hand histories in the PHH format")
    phh_sub = phh.add_subparsers(dest="phh_command", required=True)
    check = phh_sub.add_parser("check", help="replay PHH files and compare finishing stacks")
    check.add_argument("paths", nargs="+")
    eq = sub.add_parser("equity", help="all-in equity of known hands (exact or Monte Carlo)")
    eq.add_argument("hands", nargs="+", help="each hand's cards, e.g. AhKh QsQd")
    eq.add_argument("--board", default="", help="known board cards, e.g. 'Jc 3d 5c'")
    eq.add_argument("--game", choices=["holdem", "omaha"], default="holdem")
    eq.add_argument("--hi-lo", action="store_true", help="split pots with an eight-or-better low")
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every board")
    how.add_argument("--samples", type=_whole("number of samples", 1, MAX_SAMPLES), default=None,
                     help="Monte Carlo with this many boards")
    eq.add_argument("--seed", type=_whole("seed", 0, MAX_SEED), default=None)
    add_simulate(sub)
    add_acpc(sub)
    add_serve(sub)
    args = parser.parse_args(argv)
    console = Console(soft_wrap=True)
    try:
        if args.command == "demo":
            return _demo(args, console)
        if args.command == "equity":
            return _equity(args, console)
        if args.command == "simulate":
            return _simulate(args, console)
        if args.command == "acpc":
            return _acpc(args, console)
        if args.command == "serve":
            return _serve(args, console)
        return _phh_check(args, console)
    except BrokenPipeError:  # the reader stopped reading (``cardgame demo | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (CardgameError, OSError) as exc:
        print(f"cardgame: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardgame: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
