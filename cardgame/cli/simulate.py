"""``cardgame simulate``: a match between bots, printed as a results table."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_CHIPS, MAX_SEED, output, whole

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the match and print its results table; write the JSON and the plot if asked. Every
    argument, the plot's format and matplotlib are checked before the first hand."""
    from cardgame.cli.progress import progress_bar
    from cardgame.simulate import Match, simulate
    from cardgame.simulate.results import check_plot_path

    match = Match(args.variant, tuple(b.strip() for b in args.bots.split(",") if b.strip()), args.hands,
                  seed=args.seed, stack=args.stack, mode="tournament" if args.tournament else "cash",
                  duplicate=args.duplicate)
    if args.plot:
        check_plot_path(args.plot)
    unit = "deals, each played once per seat rotation" if args.duplicate else "hands"
    with progress_bar(f"{args.variant}: {args.hands:,} {'deals' if args.duplicate else 'hands'}") as progress:
        result = simulate(match, workers=args.workers, backend=args.backend, progress=progress)
    console.print(f"{args.variant}: {args.hands:,} {unit}, seed {result.seed} (--seed {result.seed} replays it)",
                  highlight=False)
    console.print(result.table(), highlight=False, markup=False)
    if args.json:
        with open(args.json, "w") as out:
            out.write(result.to_json() + "\n")
    if args.plot:
        result.plot(args.plot)
    return 0


class _Defaults(argparse.ArgumentDefaultsHelpFormatter):
    """Shows an option's default after its help, unless it is ``None`` or ``False`` (a flag off, or
    a default its help says in words); never breaks a line inside a hyphenated name (``seed-ai``)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def add(sub: argparse._SubParsersAction[Any]) -> None:
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
        formatter_class=_Defaults)
    sim.add_argument("--variant", default="NT", help="variant name or PHH code")
    sim.add_argument("--bots", default="seed-ai,random,all-in",
                     help=f"comma-separated, one per seat, from: {', '.join(available())}; or a range style's "
                          f".toml file (cardgame.play.rangebot)")
    sim.add_argument("--hands", type=whole("number of hands", 1, MAX_HANDS), default=10_000,
                     help="hands to play (deals with --duplicate)")
    sim.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None,
                     help="the match replays from it (default: 128 bits from the operating system, printed)")
    sim.add_argument("--stack", type=whole("stack", 1, MAX_CHIPS), default=None,
                     help="starting stack (default: 100 big blinds)")
    sim.add_argument("--workers", type=whole("number of workers", 1, MAX_WORKERS), default=1,
                     help="processes sharing the hands (the results are the same for any number)")
    sim.add_argument("--backend", choices=BACKENDS, default=None,
                     help="how the workers run (default: serial for one worker, else process)")
    sim.add_argument("--duplicate", action="store_true", help="replay every deal with the seats rotated")
    sim.add_argument("--tournament", action="store_true", help="freeze-outs with rising blinds, not a cash game")
    sim.add_argument("--json", type=output, default=None, help="also write the results as JSON to this file")
    sim.add_argument("--plot", type=output, default=None,
                     help="save cumulative winnings as an image, its format the file's extension (which it must "
                          "have): .png, .svg, .pdf... (needs cardgame[plot]; checked before the run)")
    sim.set_defaults(run=run)
