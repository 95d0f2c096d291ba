"""``cardgame simulate``: a match between bots, printed as a results table."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_CHIPS, MAX_SEED, output, whole

__all__ = ["add"]


#: ``--tournament``'s kinds: freeze-outs inside a match, sit-and-gos, multi-table events.
KINDS = ("freezeout", "sng", "mtt")
#: The most entrants a sit-and-go has (one table).
SNG_MOST = 10


def events(args: argparse.Namespace, console: Console) -> int:
    """Play ``--events`` sit-and-gos or multi-table events between the bots and print each bot's ITM %,
    average place and ROI. Every argument is checked before the first event."""
    from cardgame.cli.progress import progress_bar
    from cardgame.model.errors import CardgameError
    from cardgame.tournament import EventSpec, SeatingRules, Series, Structure, preset, run_series

    if args.plot or args.duplicate:
        raise CardgameError(f"--tournament {args.tournament} prints finishing places; --plot and --duplicate are for "
                            f"matches.")
    entrants = args.entrants or (9 if args.tournament == "sng" else 180)
    if args.tournament == "sng" and entrants > SNG_MOST:
        raise CardgameError(f"A sit-and-go is one table: 2 to {SNG_MOST} entrants, not {entrants:,}; "
                            f"--tournament mtt plays more.")
    name = args.structure
    structure = Structure.read(name) if name.strip().lower().endswith(".toml") else preset(name)
    rules = SeatingRules(table_size=entrants) if args.tournament == "sng" else SeatingRules()  # sng: one table
    spec = EventSpec(entrants, tuple(b.strip() for b in args.bots.split(",") if b.strip()), structure,
                     stack=args.stack or 1_500, buy_in=args.buy_in, rules=rules, variant=args.variant)
    series = Series(spec, args.events, args.seed)
    with progress_bar(f"{args.tournament}: {args.events:,} events of {entrants:,}") as progress:
        result = run_series(series, workers=args.workers, backend=args.backend, progress=progress)
    kind = "sit-and-go" if args.tournament == "sng" else "multi-table event"
    console.print(f"{args.events:,} {kind}s of {entrants:,} entrants ({args.variant}, {structure.name or name}, "
                  f"buy-in {spec.buy_in:,}), {result.hands:,} hands, seed {result.seed} (--seed {result.seed} "
                  f"replays it)", highlight=False)
    console.print(result.table(), highlight=False, markup=False)
    if args.json:
        with open(args.json, "w") as out:
            out.write(result.to_json() + "\n")
    return 0


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the match and print its results table; write the JSON and the plot if asked. Every
    argument, the plot's format and matplotlib are checked before the first hand."""
    from cardgame.cli.progress import progress_bar
    from cardgame.simulate import Match, simulate
    from cardgame.simulate.results import check_plot_path

    if args.tournament in ("sng", "mtt"):
        return events(args, console)
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
    from cardgame.tournament.seating import MAX_ENTRANTS
    from cardgame.tournament.series import MAX_EVENTS
    from cardgame.tournament.structure import PRESETS

    sim = sub.add_parser(
        "simulate", help="a match between bots: bb/100 with a 95%% interval, VPIP, PFR, AF",
        description="Play a match between bots and print each bot's results: hands, net chips, big blinds won "
                    "per 100 hands with a 95% confidence interval, VPIP and PFR (how often it put chips in, and "
                    "raised, before the flop), AF (aggression: bets and raises per call), SD won (showdowns won); "
                    "tournaments add the tournaments won and the mean finishing place. --tournament sng or mtt plays "
                    "--events whole tournaments instead and prints each bot's entries, ITM % (in the money), "
                    "average place, wins, prizes and ROI.",
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
                     help="starting stack (in sng and mtt events 1,500) (default: 100 big blinds)")
    sim.add_argument("--workers", type=whole("number of workers", 1, MAX_WORKERS), default=1,
                     help="processes sharing the hands (the results are the same for any number)")
    sim.add_argument("--backend", choices=BACKENDS, default=None,
                     help="how the workers run (default: serial for one worker, else process)")
    sim.add_argument("--duplicate", action="store_true", help="replay every deal with the seats rotated")
    sim.add_argument("--tournament", nargs="?", const="freezeout", choices=KINDS, default=None,
                     help="freezeout (alone: --tournament): freeze-outs with rising blinds within the match's hands; "
                          "sng: --events sit-and-gos; mtt: --events multi-table events (seat draw, balancing, "
                          "final table), each reported by ITM %%, average place and ROI")
    sim.add_argument("--entrants", type=whole("number of entrants", 2, MAX_ENTRANTS), default=None,
                     help="players in each sng or mtt, playing the bots in turn (default: 9 for sng, 180 for mtt)")
    sim.add_argument("--events", type=whole("number of events", 1, MAX_EVENTS), default=100,
                     help="sng or mtt events to play")
    sim.add_argument("--structure", default="turbo sng hands",
                     help=f"blind structure of sng and mtt events: a preset ({', '.join(PRESETS)}) or a .toml file")
    sim.add_argument("--buy-in", type=whole("buy-in", 0, MAX_CHIPS), default=100,
                     help="each entrant's buy-in to an sng or mtt, paid out by the default payout table")
    sim.add_argument("--json", type=output, default=None, help="also write the results as JSON to this file")
    sim.add_argument("--plot", type=output, default=None,
                     help="save cumulative winnings as an image, its format the file's extension (which it must "
                          "have): .png, .svg, .pdf... (needs cardgame[plot]; checked before the run)")
    sim.set_defaults(run=run)
