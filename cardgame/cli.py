"""The ``cardgame`` command: ``demo`` (bots play and every action is printed), ``phh check``
(replay hand histories), ``equity`` (exact or Monte Carlo all-in equity) and ``simulate`` (a
match between bots)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from cardgame.bots import pair_raiser, random_bot, random_draw
from cardgame.errors import CardgameError
from cardgame.events import Event, HandEnded, HandStarted
from cardgame.game import Game

__all__ = ["main"]


def _demo(args: argparse.Namespace, console: Console) -> int:
    import variants

    variant = variants.get(args.variant)
    if args.seats is None:
        args.seats = min(6, variant.max_players)
    if not 2 <= args.seats <= variant.max_players:
        raise CardgameError(f"--seats must be 2 to {variant.max_players} for {variant.name}, not {args.seats}")
    game = Game(variant.build(), seats=args.seats, seed=args.seed, max_hands=args.hands)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon"]
    for i in range(args.seats):
        game.sit_down(names[i], args.stack)
    lookup = game.names()
    bots = {i: (pair_raiser if i % 2 else random_bot) for i in range(args.seats)}

    def show(event: Event) -> None:
        if isinstance(event, HandStarted):
            console.rule(f"[bold]{event.describe(lookup)}[/bold]")
        console.print(("  " if not isinstance(event, HandStarted | HandEnded) else "") + event.describe(lookup),
                      highlight=False, markup=False)

    game.subscribe(show)
    console.print(f"{variant.name} ({variant.code or '-'}), {args.seats} seats, seed {game.seed}; "
                  f"odd seats play the seed's pair-raiser bot, even seats a random bot.", highlight=False)
    game.start()
    while game.status_name == "running" and game.to_act is not None:
        console.print(game.status(), highlight=False, markup=False)
        game.play(bots, drawer=random_draw, max_actions=1)
    console.rule("[bold]Final stacks[/bold]")
    console.print(game.status(reveal=True), highlight=False, markup=False)
    return 0


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


def add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``simulate`` subcommand: a match between bots, printed as a results table."""
    from cardgame.bots import available
    from cardgame.simulate import BACKENDS

    sim = sub.add_parser("simulate", help="a match between bots: bb/100 with a 95%% interval, VPIP, PFR, AF")
    sim.add_argument("--variant", default="NT", help="variant name or PHH code (default NT)")
    sim.add_argument("--bots", default="seed-ai,random,all-in",
                     help=f"comma-separated, one per seat, from: {', '.join(available())}")
    sim.add_argument("--hands", type=_count(1), default=10_000)
    sim.add_argument("--seed", type=_count(0), default=0)
    sim.add_argument("--stack", type=_count(1), default=None, help="starting stack (default 100 big blinds)")
    sim.add_argument("--workers", type=_count(1), default=1)
    sim.add_argument("--backend", choices=BACKENDS, default=None,
                     help="default: serial for one worker, else process")
    sim.add_argument("--duplicate", action="store_true", help="replay every deal with the seats rotated")
    sim.add_argument("--tournament", action="store_true", help="freeze-outs with rising blinds, not a cash game")
    sim.add_argument("--json", default=None, help="write the results as JSON to this file")
    sim.add_argument("--plot", default=None, help="save cumulative winnings as a PNG (needs cardgame[plot])")


def _count(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardgame", description="Poker assembled from small state machines.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play hands between simple bots and print every action")
    demo.add_argument("--variant", default="NT", help="variant name or PHH code (default NT)")
    demo.add_argument("--seats", type=_count(2), default=None, help="players (default 6, or the variant's maximum)")
    demo.add_argument("--hands", type=_count(1), default=5)
    demo.add_argument("--seed", type=_count(0), default=None, help="replay a game exactly (default: random)")
    demo.add_argument("--stack", type=_count(1), default=200, help="each player's buy-in (default 200)")
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
    how.add_argument("--samples", type=_count(1), default=None, help="Monte Carlo with this many boards")
    eq.add_argument("--seed", type=_count(0), default=None)
    add_simulate(sub)
    args = parser.parse_args(argv)
    console = Console(soft_wrap=True)
    try:
        if args.command == "demo":
            return _demo(args, console)
        if args.command == "equity":
            return _equity(args, console)
        if args.command == "simulate":
            return _simulate(args, console)
        return _phh_check(args, console)
    except (CardgameError, OSError) as exc:
        print(f"cardgame: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
