"""``cardgame demo``: bots play a few hands; the hand history and the results are printed, every line
fitted to the console's width (80 columns when it is not a terminal)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardgame.cli.args import MAX_CHIPS, MAX_SEED, whole
from cardgame.model.errors import CardgameError, StageError
from cardgame.model.events import Event, StageFailed
from cardgame.model.rng import new_seed
from cardgame.model.table import MAX_SEATS
from cardgame.play.bot import Bot
from cardgame.play.game import Game
from cardgame.play.narration import Line, Narration, PlayerResult
from cardgame.play.view import status_legend, status_table, table_view
from cardgame.terminal.lines import fit, fit_line

__all__ = ["add"]

_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")
MAX_DEMO_HANDS = 100_000
DEFAULT_BOTS = "seed-ai,tight-aggressive,seed-ai-tight"
"""The demo's table: the poker-AI seed's bot, balanced and tight, and the tight-aggressive range bot."""

#: What each bot does, for the lines before the first hand: (said of one player, of several).
_PLAYS = {
    "random": ("acts at random", "act at random"),
    "calling-station": ("always checks or calls", "always check or call"),
    "all-in": ("goes all in whenever it may", "go all in whenever they may"),
    "pair-raiser": ("raises with a pair of fives or better and otherwise checks or folds",
                    "raise with a pair of fives or better and otherwise check or fold"),
    "tight-aggressive": ("opens a fifth of its hands with a raise, by position, and bets its good hands",
                         "open a fifth of their hands with a raise, by position, and bet their good hands"),
    "loose-aggressive": ("opens a third of its hands with a raise and bets often", "open a third of their hands with "
                         "a raise and bet often"),
    "tight-passive": ("plays few hands and mostly limps, checks and calls", "play few hands and mostly limp, check "
                      "and call"),
    "nit": ("plays only one hand in ten, raising with it", "play only one hand in ten, raising with it"),
    "seed-ai": ("weighs its hand's strength against the pot odds (the poker-AI seed's bot)",
                "weigh their hand's strength against the pot odds (the poker-AI seed's bot)"),
    "seed-ai-tight": ("is the seed's bot made tight: it folds more and bets smaller",
                      "are the seed's bot made tight: they fold more and bet smaller"),
    "seed-ai-loose": ("is the seed's bot made loose: it calls more", "are the seed's bot made loose: they call more"),
    "seed-ai-maniac": ("is the seed's bot made a maniac: it raises big and often",
                       "are the seed's bot made a maniac: they raise big and often"),
}


def run(args: argparse.Namespace, console: Console) -> int:
    """Bots play ``--hands`` hands; print the hand history (or only the results, or JSON)."""
    import variants
    from cardgame.play.bots import get

    variant = variants.get(args.variant)
    if args.seats is None:
        args.seats = min(6, variant.max_players)
    if not 2 <= args.seats <= variant.max_players:
        many = "exactly 2" if variant.max_players == 2 else f"2 to {variant.max_players}"
        raise CardgameError(f"--seats must be {many} for {variant.name}, not {args.seats}")
    stages = variant.build()
    seed = new_seed() if args.seed is None else args.seed  # a demo is seeded: its seed replays it
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
    kinds = [b.strip().lower() for b in args.bots.split(",") if b.strip()] or [""]
    seat_kinds = {i: kinds[i % len(kinds)] for i in range(args.seats)}
    bots: dict[int, Bot] = {i: get(kind) for i, kind in seat_kinds.items()}
    stud = history.complete_to is not None
    if not quiet:
        _introduce(console, game, variant.name, variant.code, history.stakes, seat_kinds, args)
        if args.table:
            for sentence in status_legend(button=not stud).split(". "):
                for line in fit(sentence.rstrip(".") + ".", console.width):
                    console.print(line, highlight=False, markup=False)
    game.start()
    while game.status_name == "running" and game.to_act is not None:
        if args.table:
            _print(console, history.flush())
            view = table_view(game.ctx, reveal=True, to_act=game.to_act)
            console.print(status_table(view, button=not stud), highlight=False, markup=False)
        game.play(bots, max_actions=1)  # each bot sees only its seat's view
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
    """Print hand-history lines: a rule for a hand's header, streets in bold, actions indented; a line
    wider than the console goes on indented lines (a deal breaks between players)."""
    width = console.width
    for line in lines:
        if line.kind == "hand":
            console.print()
            console.rule(Text(line.text, style="bold"))
            continue
        for text in fit_line(line, width):
            console.print(Text(text, style="bold" if line.kind == "street" else ""), highlight=False)


def _introduce(console: Console, game: Game, name: str, code: str | None, stakes: str, kinds: dict[int, str],
               args: argparse.Namespace) -> None:
    """The lines before the first hand: the game, the players and their bots, how cards are shown."""
    names = game.names()
    groups: dict[str, list[str]] = {}
    for seat, kind in kinds.items():
        groups.setdefault(kind, []).append(names[seat])
    plays = []
    for kind, who in groups.items():
        one, several = _PLAYS.get(kind, (f"plays as the {kind} bot", f"play as the {kind} bot"))
        plays.append(f"{_and(who)} {one if len(who) == 1 else several}")
    for text in (
        f"{name} ({code or 'no PHH code'}){f', {stakes}' if stakes else ''}: {args.seats} players with "
        f"{args.stack} chips each, {args.hands} hand{'s' if args.hands != 1 else ''}.",
        f"Seed {game.seed}: the same seed replays the same game (--seed {game.seed}).",
        f"Bots: {'; '.join(plays)}.",
        "Everyone's cards are shown; cards in [brackets] are face up for all to see.",
    ):
        for line in fit(text, console.width):
            console.print(line, highlight=False, markup=False)


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


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``demo`` subcommand."""
    from cardgame.play.bots import available

    demo = sub.add_parser("demo", help="bots play a few hands; print the hand history and the results",
                          description="Bots play a few hands; print the hand history, then each player's "
                                      "results.")
    demo.add_argument("--variant", default="NT", help="variant name or PHH code (default NT, no-limit hold'em)")
    demo.add_argument("--seats", type=whole("number of seats", 2, MAX_SEATS), default=None,
                      help="players (default 6, or the variant's maximum if lower)")
    demo.add_argument("--hands", type=whole("number of hands", 1, MAX_DEMO_HANDS), default=5,
                      help="hands to play (default 5; fewer if players run out of chips)")
    demo.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None,
                      help="replay a game exactly (default: random)")
    demo.add_argument("--stack", type=whole("stack", 1, MAX_CHIPS), default=200,
                      help="each player's buy-in (default 200)")
    demo.add_argument("--bots", default=DEFAULT_BOTS,
                      help=f"comma-separated, dealt to the seats in turn (default {DEFAULT_BOTS}), from: "
                           f"{', '.join(available())}")
    show = demo.add_mutually_exclusive_group()
    show.add_argument("--table", action="store_true", help="also print the status table before every action")
    show.add_argument("--quiet", action="store_true", help="print only the results table")
    show.add_argument("--json", action="store_true", help="print only the results, as JSON")
    demo.set_defaults(run=run)
