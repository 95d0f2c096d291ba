"""``cardgame play``: one person against bots in the terminal (:mod:`cardgame.terminal.play`)."""

from __future__ import annotations

import argparse
import inspect
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_CHIPS, MAX_SEED, output, whole
from cardgame.model.errors import ConfigError
from cardgame.model.table import MAX_SEATS
from cardgame.terminal.play import MAX_NAME, MAX_TIME, load, new_session, terminal_reader

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    """Check every argument, then play until the person quits."""
    read = terminal_reader(console)
    if args.resume is not None:
        given = [f"--{k}" for k in ("variant", "seats", "bots", "seed", "stack", "name")
                 if getattr(args, k) is not None] + (["--run-it-twice"] if args.run_it_twice else [])
        if given:
            raise ConfigError(f"--resume continues the saved game as it was; {', '.join(given)} cannot change it.")
        session = load(args.resume, console, read, save=args.save, phh=args.phh, time_limit=args.time)
    else:
        if args.run_it_twice:
            _check_run_it_twice(args.variant or "NT")
        bots = [b.strip() for b in (args.bots or "seed-ai").split(",")]
        session = new_session(args.variant or "NT", args.seats or 6, console, read, bots=bots, seed=args.seed,
                              stack=args.stack or 200, name=args.name or "Hero",
                              params={"run_it_twice": True} if args.run_it_twice else None,
                              time_limit=args.time, save=args.save, phh=args.phh)
    return session.run()


def _check_run_it_twice(name: str) -> None:
    """Refuse ``--run-it-twice`` for a variant whose builder has no such option, naming those that do."""
    import variants

    def offers(v: variants.Variant) -> bool:
        try:
            return "run_it_twice" in inspect.signature(v.builder).parameters
        except (TypeError, ValueError):
            return False

    v = variants.get(name)
    if not offers(v):
        some = ", ".join(f"{w.code} ({w.name})" if w.code else w.name for w in variants.available() if offers(w))
        raise ConfigError(f"{v.name} has no run-it-twice option; the variants with it: {some}.")


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``play`` subcommand."""
    play = sub.add_parser("play", help="play against bots in the terminal",
                          description="Play against bots in the terminal: the table is drawn before each of your "
                                      "decisions; type help at any prompt for what you may do. The game can be saved "
                                      "(type save) and resumed (--resume FILE).")
    play.add_argument("--variant", default=None, help="variant name or PHH code (default NT, no-limit hold'em)")
    play.add_argument("--seats", type=whole("number of seats", 2, MAX_SEATS), default=None,
                      help="players, you included (default 6)")
    play.add_argument("--bots", default=None, help="bots for the other seats, comma-separated: one for all or one a "
                                                   "seat (default seed-ai)")
    play.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None,
                      help="deal the same cards again (default: random)")
    play.add_argument("--stack", type=whole("stack", 1, MAX_CHIPS), default=None, help="every buy-in (default 200)")
    play.add_argument("--name", default=None, help=f"your name, 1 to {MAX_NAME} printable characters (default Hero, "
                                                   "as hand histories call the one they follow)")
    play.add_argument("--run-it-twice", action="store_true", help="players all in may run the board twice "
                                                                  "(variants that offer it)")
    play.add_argument("--time", type=whole("time limit", 1, MAX_TIME), default=None,
                      help="seconds for each decision; when it runs out you check if you may, else fold")
    play.add_argument("--resume", default=None, metavar="FILE", help="continue a game saved with save")
    play.add_argument("--save", type=output, default=None, metavar="FILE",
                      help="where save writes the game (default cardgame-save.json)")
    play.add_argument("--phh", type=output, default=None, metavar="FILE",
                      help="write every hand to this .phhs file as it ends (after the hands already in it)")
    play.set_defaults(run=run)
