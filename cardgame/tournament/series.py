"""Many tournaments between bots, played in parallel, with each bot's finishing-place statistics: how
often it finished in the money (ITM %), its average place, its return on the buy-ins (ROI), its wins.

::

    from cardgame.tournament import EventSpec, Series, run_series

    result = run_series(Series(EventSpec(9, ("random", "pair-raiser", "calling-station")), events=200, seed=1),
                        workers=2)
    print(result.table())

The events are cut into shards of ``shard_events`` (:func:`cardgame.simulate.split`), each event seeded
from the series' seed, and the shards played by the match backends (:func:`cardgame.simulate.run_jobs`:
here, in local processes or on Ray). The shards are combined in their order, so the results are the same
for one seed whatever the workers and the backend; ``event_seeds`` replays any one event
(:func:`~cardgame.tournament.event.run_event`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass

import attrs

from cardgame.model.inputs import check_instance, check_int, excerpt
from cardgame.model.rng import check_seed, new_seed
from cardgame.tournament.errors import TournamentError
from cardgame.tournament.event import EventSpec, columns, run_event

__all__ = ["MAX_EVENTS", "BotStats", "Series", "SeriesResult", "play_events", "run_series"]

#: The most events a series may have.
MAX_EVENTS = 1_000_000


def _spec(value: object) -> EventSpec:
    return check_instance(value, EventSpec, "An EventSpec", TournamentError)


def _events(value: object) -> int:
    return check_int(value, "number of events", TournamentError, minimum=1, maximum=MAX_EVENTS)


def _shard(value: object) -> int:
    return check_int(value, "events per shard", TournamentError, minimum=1, maximum=MAX_EVENTS)


def _seed(value: object) -> int:
    return new_seed() if value is None else check_seed(value, TournamentError)


@attrs.frozen
class Series:
    """``events`` tournaments of ``spec`` (2 to :data:`MAX_EVENTS`), seeded from ``seed`` (default: 128 bits
    from the operating system, kept here), played in shards of ``shard_events``."""

    spec: EventSpec = attrs.field(converter=_spec)
    events: int = attrs.field(converter=_events)
    seed: int = attrs.field(default=None, converter=_seed)
    shard_events: int = attrs.field(default=5, converter=_shard)


@dataclass(frozen=True)
class _Tally:
    """One bot's finishes in some events: entries, in the money, the places added up (a tie counts the
    middle of the places it covers), prizes, wins (first place alone)."""

    entries: int = 0
    in_money: int = 0
    places: float = 0.0
    prizes: int = 0
    wins: int = 0

    def __add__(self, other: _Tally) -> _Tally:
        return _Tally(self.entries + other.entries, self.in_money + other.in_money, self.places + other.places,
                      self.prizes + other.prizes, self.wins + other.wins)


@dataclass(frozen=True)
class _Played:
    """What one shard gives back: per event its seed, hands and rounds; per bot its tally."""

    index: int
    seeds: tuple[int, ...]
    hands: int
    rounds: int
    tallies: dict[str, _Tally]


def play_events(series: Series, shard: object) -> _Played:
    """Play the events of one shard (a :class:`cardgame.simulate.Shard`: ``hands`` is its number of events)."""
    from cardgame.simulate import Shard, split

    series = check_instance(series, Series, "A Series", TournamentError)
    part = check_instance(shard, Shard, "A Shard", TournamentError)
    spec = series.spec
    tallies: dict[str, _Tally] = {}
    seeds, hands, rounds = [], 0, 0
    for one in split(part.hands, 1, part.seed):
        result = run_event(spec, one.seed)
        seeds.append(one.seed)
        hands += result.hands
        rounds += result.rounds
        for finish in result.standings.finishes:
            bot = result.bot(finish.name)
            mine = _Tally(1, finish.prize > 0, finish.place + (finish.shared - 1) / 2, finish.prize,
                          finish.place == 1 and finish.shared == 1)
            tallies[bot] = tallies.get(bot, _Tally()) + mine
    return _Played(part.index, tuple(seeds), hands, rounds, tallies)


@dataclass(frozen=True)
class BotStats:
    """One bot's results over a series: its ``entries`` (events entered, counting each of its seats),
    ``itm`` (the percentage of entries that won a prize), ``average_place``, ``wins``, ``prizes`` and
    ``buy_ins`` (money units) and ``roi``, (prizes - buy-ins) / buy-ins in percent (``None`` without a
    buy-in)."""

    name: str
    entries: int
    itm: float
    average_place: float
    wins: int
    prizes: int
    buy_ins: int
    roi: float | None


@dataclass(frozen=True)
class SeriesResult:
    """A series' results: the ``seed``, ``events``, entrants a event, ``hands`` and ``rounds`` played in
    all, each event's seed (``event_seeds``, for :func:`~cardgame.tournament.event.run_event`), and one
    :class:`BotStats` a bot (in the order the spec names them)."""

    seed: int
    events: int
    entrants: int
    hands: int
    rounds: int
    event_seeds: tuple[int, ...]
    bots: tuple[BotStats, ...]

    def table(self) -> str:
        """The bots' statistics as text."""
        rows = [("bot", "entries", "ITM %", "avg place", "wins", "prizes", "ROI %")]
        for b in self.bots:
            rows.append((b.name, f"{b.entries:,}", f"{b.itm:.1f}", f"{b.average_place:.2f}", f"{b.wins:,}",
                         f"{b.prizes:,}", "-" if b.roi is None else f"{b.roi:+.1f}"))
        return columns(rows, left=(0,))

    def to_json(self) -> str:
        return json.dumps({"seed": self.seed, "events": self.events, "entrants": self.entrants, "hands": self.hands,
                           "rounds": self.rounds, "event_seeds": list(self.event_seeds),
                           "bots": [asdict(b) for b in self.bots]}, indent=2)


Progress = Callable[[int, int], None]


def run_series(series: Series, *, workers: int = 1, backend: str | None = None,
               progress: Progress | None = None) -> SeriesResult:
    """Play ``series`` and return each bot's statistics. ``workers`` shards are played at once: here one
    after another (one worker), in local processes, or on Ray (``backend``: ``"serial"``, ``"process"`` or
    ``"ray"``, as :func:`cardgame.simulate.simulate`). ``progress(done, total)`` is called with the events
    played so far, before the first shard and as each finishes. The results depend on the seed alone."""
    from cardgame.model.errors import CardgameError
    from cardgame.simulate import run_jobs, split

    series = check_instance(series, Series, "A Series", TournamentError)
    if progress is not None and not callable(progress):
        raise TournamentError(f"progress must be None or a function progress(done, total), not {excerpt(progress)}.")
    shards = split(series.events, series.shard_events, series.seed)
    done = 0

    def finished(played: _Played) -> None:
        nonlocal done
        done += len(played.seeds)
        if progress is not None:
            progress(done, series.events)

    if progress is not None:
        progress(0, series.events)
    try:
        parts = run_jobs(series, shards, play_events, workers=workers, backend=backend, done=finished)
    except CardgameError as exc:
        if isinstance(exc, TournamentError):
            raise
        raise TournamentError(str(exc)) from None
    parts.sort(key=lambda p: p.index)
    total: dict[str, _Tally] = {}
    for part in parts:
        for bot, tally in part.tallies.items():
            total[bot] = total.get(bot, _Tally()) + tally
    spec = series.spec
    stats = []
    for bot in dict.fromkeys(spec.bots):
        t = total.get(bot, _Tally())
        paid = t.entries * spec.buy_in
        stats.append(BotStats(bot, t.entries, 100 * t.in_money / t.entries if t.entries else 0.0,
                              t.places / t.entries if t.entries else 0.0, t.wins, t.prizes, paid,
                              100 * (t.prizes - paid) / paid if paid else None))
    return SeriesResult(series.seed, series.events, spec.entrants, sum(p.hands for p in parts),
                        sum(p.rounds for p in parts), tuple(s for p in parts for s in p.seeds), tuple(stats))
