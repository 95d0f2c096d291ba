"""A match's results per bot, from its shards: chips, big blinds per 100 hands with a 95 %
confidence interval, VPIP, PFR, aggression factor, showdowns; as JSON, a table, a PNG plot."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import attrs

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.simulate.config import Match
from cardgame.simulate.shard import ShardResult
from cardgame.simulate.tally import Counts

__all__ = ["BotResult", "MatchResult", "check_plot_path", "combine"]

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
CURVE_POINTS = 400


@attrs.frozen
class BotResult:
    """One bot's results. ``bb_per_100`` is its mean win rate in big blinds per 100 hands and
    ``ci95`` the half-width of its 95 % confidence interval (normal approximation over the units
    of play: hands, or duplicate deals). ``aggression`` is (bets + raises) / calls (``None``
    without a call). In tournaments, ``places`` lists its place in each one finished."""

    name: str
    hands: int
    chips: int
    bb_per_100: float
    ci95: float
    vpip: float
    pfr: float
    aggression: float | None
    showdowns: int
    showdown_win_rate: float | None
    places: tuple[int, ...] = ()

    @property
    def significant(self) -> bool:
        """The interval excludes zero: the bot wins (or loses) with 95 % confidence."""
        return abs(self.bb_per_100) > self.ci95

    @property
    def wins(self) -> int:
        """Tournaments won."""
        return sum(1 for p in self.places if p == 1)


@attrs.frozen
class MatchResult:
    """A match's results, from :func:`cardgame.simulate.simulate`; the same for one seed whatever
    the workers and the backend.

    * ``variant``, ``mode`` (``"cash"`` or ``"tournament"``), ``duplicate``, ``seed``, ``hands``:
      the match played (``hands`` counts deals in a duplicate match);
    * ``big_blind``: the variant's big blind (at the first level, in tournaments), the unit of
      ``bb_per_100`` and of the plot;
    * ``bots``: one :class:`BotResult` per bot, in the match's order;
    * ``curve_hands`` and ``curves``: each bot's cumulative chips won after ``curve_hands[i]``
      hands of the match (at most 400 points, the last one the match's last hand), so
      ``curves[b][-1] == bots[b].chips``. The x axis is the match's hands in the order played: in
      a duplicate match its deals (each summed over the seat rotations); in tournament mode the
      tournaments one after the other, so a bot out of chips stays flat until the next one starts.
    """

    variant: str
    mode: str
    duplicate: bool
    seed: int
    hands: int
    big_blind: int
    bots: tuple[BotResult, ...]
    curve_hands: tuple[int, ...]
    curves: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        """The results as plain JSON values (identical for one seed whatever the workers)."""
        out = attrs.asdict(self, recurse=True)
        for bot, result in zip(out["bots"], self.bots, strict=True):
            bot["significant"] = result.significant
            if self.mode == "tournament":
                bot["tournaments_won"] = result.wins
            else:
                del bot["places"]
        out["bots"] = {bot.pop("name"): bot for bot in out["bots"]}
        out["curves"] = dict(zip((b.name for b in self.bots), self.curves, strict=True))
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def table(self) -> str:
        """A plain-text results table, one row a bot."""
        head = (f"{'bot':<18}{'hands':>9}{'chips':>11}{'bb/100':>9}{'± 95%':>8}{'VPIP':>7}{'PFR':>7}"
                f"{'AF':>6}{'SD won':>8}")
        if self.mode == "tournament":
            head += f"{'won':>6}{'place':>7}"
        lines = [head]
        for b in self.bots:
            af = "-" if b.aggression is None else f"{b.aggression:.1f}"
            sd = "-" if b.showdown_win_rate is None else f"{b.showdown_win_rate:.0%}"
            line = (f"{b.name:<18}{b.hands:>9,}{b.chips:>11,}{b.bb_per_100:>9.1f}{b.ci95:>8.1f}{b.vpip:>7.0%}"
                    f"{b.pfr:>7.0%}{af:>6}{sd:>8}")
            if self.mode == "tournament":
                mean = f"{sum(b.places) / len(b.places):.2f}" if b.places else "-"
                line += f"{b.wins:>6}{mean:>7}"
            lines.append(line)
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Save each bot's cumulative winnings in big blinds (``curves``) as an image; its format is
        the file's extension, which it must have (see :func:`check_plot_path`). Needs matplotlib
        (``pip install 'cardgame[plot]'``)."""
        check_plot_path(path)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 4.5))
        for bot, curve in zip(self.bots, self.curves, strict=True):
            ax.plot(self.curve_hands, [c / self.big_blind for c in curve], label=bot.name)
        unit = "deals" if self.duplicate else "hands"
        ax.set_xlabel(unit if self.mode == "cash" else "hands, the tournaments one after the other")
        ax.set_ylabel("big blinds won")
        ax.set_title(f"{self.variant}, {self.hands:,} {unit}, seed {self.seed}")
        ax.axhline(0, color="grey", linewidth=0.5)
        ax.legend()
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)


def check_plot_path(path: str) -> None:
    """Raise :class:`ConfigError` unless :meth:`MatchResult.plot` can draw to ``path``: matplotlib
    is installed and the file's extension is an image format it writes (a name without one is
    refused: matplotlib would add ``.png`` and write another file than the one named). Whether
    the folder may be written is the caller's to check (the command line checks it first)."""
    import os

    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
    except ImportError:
        raise ConfigError("Plotting needs matplotlib: pip install 'cardgame[plot]'.") from None
    formats = sorted(set(FigureCanvasAgg.get_supported_filetypes()) - {"pgf"})  # pgf needs LaTeX
    extension = os.path.splitext(path)[1].lstrip(".").lower()
    if not extension:
        raise ConfigError(f"Cannot plot to {excerpt(path)}: the file's extension names the image format; give one "
                          f"of {', '.join('.' + f for f in formats)}.")
    if extension not in formats:
        raise ConfigError(f"Cannot plot to {excerpt(path)}: matplotlib writes no {excerpt('.' + extension)} images; "
                          f"use one of {', '.join('.' + f for f in formats)}.")


def _mean_sd(values: Sequence[int]) -> tuple[float, float]:
    n = len(values)
    if n < 2:
        return (float(values[0]) if values else 0.0), 0.0
    mean = math.fsum(values) / n
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def combine(match: Match, big_blind: int, shards: Sequence[ShardResult]) -> MatchResult:
    """Add up ``shards`` (in shard order) into the match's results."""
    shards = sorted(shards, key=lambda s: s.index)
    n = len(match.bots)
    bots = []
    series: list[list[int]] = []
    for p in range(n):
        c = Counts()
        units: list[int] = []
        places: list[int] = []
        for s in shards:
            c.add(s.counts[p])
            units += s.units[p]
            if s.places:
                places += s.places[p]
        total = sum(units)
        _, sd = _mean_sd(units)
        hands = max(c.hands, 1)
        scale = 100 / (hands * big_blind)
        bots.append(BotResult(
            name=match.names[p], hands=c.hands, chips=total, bb_per_100=round(total * scale, 6),
            ci95=round(Z95 * sd * math.sqrt(len(units)) * scale, 6), vpip=round(c.vpip / hands, 6),
            pfr=round(c.pfr / hands, 6), aggression=round(c.aggressive / c.calls, 6) if c.calls else None,
            showdowns=c.showdowns,
            showdown_win_rate=round(c.showdowns_won / c.showdowns, 6) if c.showdowns else None,
            places=tuple(places),
        ))
        series.append([net for s in shards for net in s.timeline[p]])
    length = len(series[0])
    assert all(len(nets) == length for nets in series), "every bot's timeline covers every hand of the match"
    step = max(1, -(-length // CURVE_POINTS))
    marks = tuple(range(step, length + 1, step))
    if length and (not marks or marks[-1] != length):
        marks += (length,)
    curves = []
    for nets in series:
        running, i, curve = 0, 0, []
        for mark in marks:
            running += sum(nets[i:mark])
            i = mark
            curve.append(running)
        curves.append(tuple(curve))
    return MatchResult(match.variant, match.mode, match.duplicate, match.seed, match.hands, big_blind, tuple(bots),
                       marks, tuple(curves))
