"""One shard of a match: a block of hands played with its own seed, in one process.

Cash shards play ``hands`` hands in one game whose stacks reset every hand (in a duplicate
match, once per seat rotation, from the same stacked deals). Tournament shards play freeze-outs
back to back until ``hands`` hands are spent, one game per blind level. The result holds the
counts of each bot (by its index in the match) and, for the confidence interval, its net per
unit of play: a hand, or in a duplicate match a deal summed over its rotations. Tournament shards
also give each bot's net in every hand of the shard, in the order played (0 in a hand it was not
dealt in, once out of chips), so that every bot's cumulative winnings span the whole match.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import attrs

from cardgame.engine import Stage, Stages
from cardgame.model.context import Context
from cardgame.model.events import Event, HandEnded, HandStarted
from cardgame.play.bot import Bot
from cardgame.play.game import Game
from cardgame.simulate.config import Match
from cardgame.simulate.stages import CountHands, ResetStacks, StackedDeals
from cardgame.simulate.tally import Counts, Tally

__all__ = ["Shard", "ShardResult", "play_shard"]


@attrs.frozen
class Shard:
    """Shard ``index`` of a match: ``hands`` deals seeded with ``seed``."""

    index: int
    hands: int
    seed: int


@attrs.frozen
class ShardResult:
    """What a shard gives back: per bot, its counts and its nets per unit of play (the hands it was
    dealt in, or deals); in tournament mode each bot's place in each tournament finished (1 is the
    winner) and ``by_hand``, its net in every hand of the shard in the order played (0 once it is
    out); the hands as PHH when the match keeps them.

    :attr:`timeline` is what the cumulative curves add up: ``by_hand`` in tournaments, else
    ``units`` (in a cash game every bot is dealt every hand)."""

    index: int
    counts: tuple[Counts, ...]
    units: tuple[tuple[int, ...], ...]
    places: tuple[tuple[int, ...], ...] = ()
    phh: tuple[Any, ...] = ()
    by_hand: tuple[tuple[int, ...], ...] = ()

    @property
    def timeline(self) -> tuple[tuple[int, ...], ...]:
        """Per bot, its net in each hand (or deal) of the shard, every bot the same length."""
        return self.by_hand or self.units


def _bot(spec: str | Bot) -> Bot:
    from cardgame.play.bots import get

    return get(spec) if isinstance(spec, str) else copy.deepcopy(spec)


def _stack(match: Match, stages: Stages) -> int:
    if match.stack is not None:
        return match.stack
    from cardgame.play.shape import game_shape

    return 100 * game_shape(stages).big_blind


class _Recording:
    """Keeps the hands of the shard's games: in the SQLite store and as PHH."""

    def __init__(self, match: Match, shard: Shard) -> None:
        self.match = match
        self.shard = shard
        self.store: Any = None
        self.phh: list[Any] = []
        if match.record:
            from cardgame.store import EventStore

            self.store = EventStore(match.record, synchronous="NORMAL")

    def watch(self, game: Game, table: str, names: dict[int, str]) -> Callable[[], None]:
        """Record ``game`` (not started yet); the returned function finishes."""
        if self.store is not None:
            self.store.record(game, f"shard-{self.shard.index}-{table}")
        if not self.match.phh:
            return lambda: None
        events: list[Event] = []
        game.subscribe(events.append)

        def done() -> None:
            from cardgame.phh.export import game_to_phh

            self.phh.extend(game_to_phh(events, game.dispatcher.stages, names))

        return done

    def close(self) -> None:
        if self.store is not None:
            self.store.close()


def _cash(match: Match, shard: Shard, rec: _Recording) -> ShardResult:
    import variants

    variant = variants.get(match.variant)
    n = len(match.bots)
    counts = [Counts() for _ in range(n)]
    units = [[0] * shard.hands for _ in range(n)]
    rotations = range(n) if match.duplicate else range(1)
    for r in rotations:
        built = variant.build(**match.params)
        stack = _stack(match, built)
        mine = [Counts() for _ in range(n)]
        seats = {(p + r) % n: p for p in range(n)}  # seat -> the bot's index in the match
        counter = CountHands(Tally(seats, mine).feed)
        front: list[Stage[Context]] = [counter, *([StackedDeals(shard.seed, variant.deck)] if match.duplicate else [])]
        stages = Stages([*front, ResetStacks(stack), *built], variant)
        game = Game(stages, seats=n, seed=shard.seed, max_hands=shard.hands, deck=variant.deck,
                    first_button=0 if match.duplicate else None, keep_hands=2)
        names = {seat: match.names[p] for seat, p in seats.items()}
        for seat, p in sorted(seats.items()):
            game.sit_down(match.names[p], stack, seat)
        game.hook(counter.buffer.append)
        finish = rec.watch(game, f"rotation-{r}", names)
        game.start()
        game.play({seat: _bot(match.bots[p]) for seat, p in seats.items()})
        counter.flush()  # the last hand
        finish()
        for p in range(n):
            counts[p].add(mine[p])
            for h, net in enumerate(mine[p].nets):
                units[p][h] += net
    return ShardResult(shard.index, tuple(counts), tuple(tuple(u) for u in units))


class _Busts:
    """Watches a tournament game: which seats went broke, in order (ties by the stack they started
    the hand with: the bigger stack finishes higher), and each of the ``seats`` seats' net in every
    hand (0 for a seat not dealt in)."""

    def __init__(self, seats: int) -> None:
        self.order: list[list[int]] = []  # groups of seats that went broke in the same hand
        self.nets: list[list[int]] = [[] for _ in range(seats)]
        self.start: dict[int, int] = {}

    def __call__(self, e: Event) -> None:
        if type(e) is HandStarted:
            assert isinstance(e, HandStarted)
            self.start = dict(zip(e.seats, e.stacks, strict=True))
        elif type(e) is HandEnded:
            assert isinstance(e, HandEnded)
            after = dict(e.stacks)
            for seat, nets in enumerate(self.nets):
                nets.append(after.get(seat, 0) - self.start[seat] if seat in self.start else 0)
            broke = [s for s, stack in e.stacks if stack == 0 and self.start.get(s, 0) > 0]
            if broke:
                self.order.append(sorted(broke, key=lambda s: self.start[s]))


def _tournaments(match: Match, shard: Shard, rec: _Recording) -> ShardResult:
    import variants

    variant = variants.get(match.variant)
    n = len(match.bots)
    counts = [Counts() for _ in range(n)]
    units: list[list[int]] = [[] for _ in range(n)]
    places: list[list[int]] = [[] for _ in range(n)]
    by_hand: list[list[int]] = [[] for _ in range(n)]
    left = shard.hands
    game_seed = shard.seed
    number = 0
    while left > 0:
        stack = _stack(match, variant.build(**match.params))
        stacks = dict.fromkeys(range(n), stack)
        finish_order: list[int] = []  # bots out, first out first
        level, button = 0, None
        while left > 0 and sum(1 for s in stacks.values() if s > 0) >= 2:
            params = match.schedule.params(variant.builder, match.params, level)
            game = Game(variant.build(**params), seats=n, seed=game_seed, deck=variant.deck,
                        max_hands=min(match.schedule.hands_per_level, left),
                        first_button=None if button is None else (button + 1) % n, keep_hands=2)
            game_seed += 1_000_003
            for p in range(n):
                if stacks[p] > 0:
                    game.sit_down(match.names[p], stacks[p], p)
            mine = [Counts() for _ in range(n)]
            game.subscribe(Tally({p: p for p in range(n)}, mine))
            busts = _Busts(n)
            game.subscribe(busts)
            finish = rec.watch(game, f"tournament-{number}-level-{level}", dict(enumerate(match.names)))
            game.start()
            game.play({p: _bot(match.bots[p]) for p in range(n) if stacks[p] > 0})
            finish()
            for p in range(n):
                counts[p].add(mine[p])
                units[p] += mine[p].nets
                by_hand[p] += busts.nets[p]
            left -= game.ctx.hands_played
            for group in busts.order:
                finish_order += group
            stacks = {p: 0 for p in range(n)} | {pl.seat: pl.stack for pl in game.table.players()}
            button = game.table.button
            level += 1
        alive = [p for p in range(n) if stacks[p] > 0]
        if len(alive) == 1:  # finished: the winner first, then the others from the last out
            order = alive + finish_order[::-1]
            for place, p in enumerate(order, 1):
                places[p].append(place)
        number += 1
    return ShardResult(shard.index, tuple(counts), tuple(tuple(u) for u in units), tuple(tuple(p) for p in places),
                       by_hand=tuple(tuple(h) for h in by_hand))


def play_shard(match: Match, shard: Shard) -> ShardResult:
    """Play one shard of ``match``."""
    rec = _Recording(match, shard)
    try:
        result = _tournaments(match, shard, rec) if match.mode == "tournament" else _cash(match, shard, rec)
    finally:
        rec.close()
    return attrs.evolve(result, phh=tuple(rec.phh))
