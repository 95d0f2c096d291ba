"""``cardgame play``: one person against bots in the terminal (:mod:`cardgame.terminal.play`)."""

from __future__ import annotations

import argparse
import inspect
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_CHIPS, MAX_SEED, output, whole
from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.table import MAX_SEATS
from cardgame.terminal.play import MAX_NAME, MAX_TIME, RAKE_FORM, load, new_session, rake_from_text, terminal_reader

__all__ = ["add"]

#: The table-rule options: each one's builder parameters and the one whose presence says a variant offers it.
_RULES = {"run_it_twice": ("--run-it-twice", "run_it_twice"), "show_or_muck": ("--show-or-muck", "show_or_muck"),
          "dead_button": ("--dead-button", "button"), "rake": ("--rake", "rake")}


def run(args: argparse.Namespace, console: Console) -> int:
    """Check every argument, then play until the person quits."""
    read = terminal_reader(console)
    if args.resume is not None:
        given = [f"--{k}" for k in ("variant", "seats", "bots", "seed", "stack", "name")
                 if getattr(args, k) is not None] + [flag for key, (flag, _) in _RULES.items() if getattr(args, key)]
        if given:
            raise ConfigError(f"--resume continues the saved game as it was; {', '.join(given)} cannot change it.")
        session = load(args.resume, console, read, save=args.save, phh=args.phh, time_limit=args.time)
    else:
        params = _params(args)
        bots = [b.strip() for b in (args.bots or "seed-ai").split(",")]
        session = new_session(args.variant or "NT", args.seats or 6, console, read, bots=bots, seed=args.seed,
                              stack=args.stack or 200, name=args.name or "Hero",
                              params=params or None,
                              time_limit=args.time, save=args.save, phh=args.phh)
    return session.run()


def _params(args: argparse.Namespace) -> dict[str, Any]:
    """The variant's builder parameters the table-rule options set (as a save keeps them: a rake as
    its text); an option the variant has not is refused, naming the variants that have it."""
    import variants

    v = variants.get(args.variant or "NT")
    values: dict[str, dict[str, Any]] = {
        "run_it_twice": {"run_it_twice": True}, "show_or_muck": {"show_or_muck": True, "ask_to_see": True},
        "dead_button": {"button": "dead"}, "rake": {"rake": args.rake}}
    params: dict[str, Any] = {}
    for key, (flag, parameter) in _RULES.items():
        if not getattr(args, key):
            continue
        if not _offers(v, parameter, values[key]):
            some = ", ".join(f"{w.code} ({w.name})" if w.code else w.name for w in variants.available()
                             if _offers(w, parameter, values[key]))
            raise ConfigError(f"{v.name} has no {flag[2:]} option; the variants with it: {some}.")
        params.update(values[key])
    return params


def _offers(v: Any, parameter: str, values: dict[str, Any]) -> bool:
    """Whether variant ``v``'s builder takes ``parameter`` and builds with ``values`` (short deck's button
    blind refuses the dead button)."""
    try:
        if parameter not in inspect.signature(v.builder).parameters:
            return False
        v.build(**{**values, "rake": rake_from_text(values["rake"])} if "rake" in values else values)
    except (CardgameError, TypeError, ValueError):
        return False
    return True


def _rake(text: str) -> str:
    """An argparse type: a rake as :data:`RAKE_FORM` says, kept as its text (a save holds it so)."""
    try:
        rake_from_text(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip()


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
    play.add_argument("--show-or-muck", action="store_true",
                      help="at the showdown each player in turn shows or mucks (TDA rule 16), and may ask to see a "
                           "called hand mucked (TDA rule 18)")
    play.add_argument("--dead-button", action="store_true",
                      help="the dead-button rule: when a player is out the button may stay on an empty seat and the "
                           "small blind be dead (TDA; variants with blinds)")
    play.add_argument("--rake", type=_rake, default=None, metavar="PERCENT[:CAP]",
                      help=f"the house's cut of each pot, {RAKE_FORM.partition(': ')[2]}; no flop, no drop (a hand "
                           "won in its first betting round pays none)")
    play.add_argument("--time", type=whole("time limit", 1, MAX_TIME), default=None,
                      help="seconds for each decision; when it runs out you check if you may, else fold")
    play.add_argument("--resume", default=None, metavar="FILE", help="continue a game saved with save")
    play.add_argument("--save", type=output, default=None, metavar="FILE",
                      help="where save writes the game (default cardgame-save.json)")
    play.add_argument("--phh", type=output, default=None, metavar="FILE",
                      help="write every hand to this .phhs file as it ends (after the hands already in it)")
    play.set_defaults(run=run)
