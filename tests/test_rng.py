"""The game's randomness: bots draw from streams of their own, never from the deck's generator.

The attack the issue measured: a bot draws 624 32-bit numbers from ``view.rng``, rebuilds the
Mersenne Twister's state (untempering each output) and deals the next hand's flop itself. Given
the deck's generator it names every flop card; given its own stream it names them at chance.
"""

from __future__ import annotations

import gc
import random
import sys
from types import FunctionType, ModuleType
from typing import Any

import pytest

from cardgame.model import rng as rng_module
from cardgame.model.deck import STANDARD_DECK, Deck
from cardgame.model.errors import ReplayError
from cardgame.model.rng import MAX_SEED, RandomSource
from cardgame.play.bot import BotView, build_view, play, seat_rng
from cardgame.play.bots import random_bot, random_draw
from cardgame.play.game import Game
from cardgame.play.shape import game_shape
from cardgame.store.serialize import SnapshotError, decode_rng, encode_rng
from cardgame.store.snapshot import restore, snapshot
from variants import no_limit_holdem

WORDS = 624
FLOP = 3


# --- the attack ------------------------------------------------------------------------------------
def _unshift_right(y: int, shift: int) -> int:
    out = y
    for _ in range(32 // shift + 1):
        out = y ^ (out >> shift)
    return out & 0xFFFFFFFF


def _unshift_left(y: int, shift: int, mask: int) -> int:
    out = y
    for _ in range(32 // shift + 1):
        out = y ^ ((out << shift) & mask)
    return out & 0xFFFFFFFF


def untemper(y: int) -> int:
    """The MT19937 state word that tempers to the output ``y``."""
    y = _unshift_right(y, 18)
    y = _unshift_left(y, 15, 0xEFC60000)
    y = _unshift_left(y, 7, 0x9D2C5680)
    return _unshift_right(y, 11)


def test_untemper_inverts_the_tempering() -> None:
    gen = random.Random(3)
    outputs = [gen.getrandbits(32) for _ in range(WORDS)]
    clone = random.Random()
    clone.setstate((3, (*[untemper(y) for y in outputs], WORDS), None))
    assert [clone.getrandbits(32) for _ in range(50)] == [gen.getrandbits(32) for _ in range(50)]


class Attacker:
    """Heads-up, seat 0. Every other hand it draws 624 numbers through ``view.rng.randrange``
    (one 32-bit output each), rebuilds the generator behind them, folds (so no card is dealt
    before the next hand), and deals the next hand itself: four hole cards, a burn, the flop.
    In the hand after, it calls down, and :attr:`hits` counts the flop cards it named."""

    def __init__(self) -> None:
        self.predicted: dict[int, set[int]] = {}  # hand number -> the flop it named
        self.hits = 0
        self.flops = 0

    def __call__(self, view: BotView) -> Any:
        if view.hand % 2:
            if view.hand + 1 not in self.predicted:
                outputs = [view.rng.randrange(0xFFFFFFFF) for _ in range(WORDS)]  # getrandbits(32) inside
                clone = RandomSource(0)
                clone.setstate((3, (*[untemper(y) for y in outputs], WORDS), None))
                deck = Deck.shuffled(STANDARD_DECK, clone)
                deck.deal(4)  # the hole cards of the next hand
                self.predicted[view.hand + 1] = set(deck.deal(1 + FLOP)[1:])  # a burn, then the flop
            return "fold"
        if view.board and view.hand in self.predicted:
            self.hits += len(self.predicted.pop(view.hand) & set(view.board[:FLOP]))
            self.flops += 1
        return "call"


def _calls(view: BotView) -> str:
    return "call"


def _heads_up(seed: int, hands: int) -> Game:
    game = Game(no_limit_holdem(1, 2), seats=2, seed=seed, max_hands=hands)
    game.sit_down("Attacker", 10_000)
    game.sit_down("Caller", 10_000)
    game.start()
    return game


def _play_with(game: Game, bots: dict[int, Any], rng: random.Random) -> None:
    """Run the bots as :func:`~cardgame.play.bot.play` does, but every view's ``rng`` is ``rng``."""
    shape = game_shape(game.dispatcher.stages)
    while (seat := game.to_act) is not None:
        legal = game.legal_actions()
        assert legal is not None
        answer = bots[seat](build_view(game, seat, shape, rng, legal=legal))
        game.act(seat, "fold" if answer == "fold" else "call" if legal.call_amount else "check")


HANDS = 400  # 200 flops named


def test_the_attack_names_every_flop_card_from_the_decks_generator() -> None:
    """The hole the issue found: a view whose rng is the deck's generator (as on main) gives the
    next flop away."""
    attacker = Attacker()
    game = _heads_up(11, HANDS)
    _play_with(game, {0: attacker, 1: _calls}, game.ctx.rng.generator)
    assert attacker.flops >= 150
    assert attacker.hits == FLOP * attacker.flops  # every card, every time


def test_the_attack_names_flop_cards_at_chance_from_the_bots_own_stream() -> None:
    attacker = Attacker()
    game = _heads_up(11, HANDS)
    play(game, {0: attacker, 1: _calls})
    named = FLOP * attacker.flops
    assert attacker.flops >= 150
    # Each named card is on the flop with probability 3/52: about 35 hits of 600, standard
    # deviation about 5.7. Deterministic seeds: the count is the same on every run.
    expected = named * FLOP / 52
    sd = (named * FLOP / 52 * (1 - FLOP / 52)) ** 0.5
    assert abs(attacker.hits - expected) < 4 * sd, (attacker.hits, expected)
    for seed in (12, 13, 14):  # more seeds, the same bound
        attacker = Attacker()
        play(_heads_up(seed, HANDS), {0: attacker, 1: _calls})
        assert abs(attacker.hits - FLOP * attacker.flops * FLOP / 52) < 4 * sd


# --- nothing a bot holds reaches the deck ----------------------------------------------------------
def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` by reference (attributes, ``__dict__``, slots, closures,
    bound methods' ``__self__``), not through modules, classes or a function's globals: code, not
    the game's data."""
    module_dicts = {id(vars(m)) for m in list(sys.modules.values()) if isinstance(m, ModuleType)}
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, ModuleType | type) or id(obj) in module_dicts:
            continue
        seen[id(obj)] = obj
        refs = gc.get_referents(obj)
        if isinstance(obj, FunctionType):
            refs = [r for r in refs if r is not obj.__globals__]
        todo.extend(refs)
    return list(seen.values())


@pytest.mark.parametrize("seed", [5, None])
def test_nothing_reachable_from_a_view_is_the_decks_generator(seed: int | None) -> None:
    game = Game(no_limit_holdem(1, 2), seats=3, seed=seed, max_hands=3)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 200)
    game.start()
    views: list[BotView] = []

    def bot(view: BotView) -> Any:
        views.append(view)
        return random_bot(view)

    play(game, bot)
    secret = {id(game), id(game.ctx), id(game.ctx.rng), id(game.ctx.rng.generator), id(game.table)}
    assert views
    for view in views:
        found = [type(o).__name__ for o in _reachable(view) if id(o) in secret]
        assert not found, found
        assert view.rng is seat_rng(game, view.seat) and view.rng is not game.ctx.rng.generator


# --- streams: derived, replayable, independent -----------------------------------------------------
def test_streams_are_derived_from_the_seed_and_the_label() -> None:
    a, b = RandomSource(7), RandomSource(7)
    assert a.derive("x").random() == b.derive("x").random()  # the same seed: the same numbers
    assert a.derive("x").random() != a.derive("y").random()
    assert a.derive("x").random() != RandomSource(8).derive("x").random()
    assert a.stream("x") is a.stream("x") and a.stream("x") is not a.derive("x")
    deck = RandomSource(7)
    a.stream("seat 0").random()
    assert a.generator.random() == deck.generator.random()  # drawing from a stream leaves the deck alone
    assert RandomSource(7).generator.random() == random.Random(7).random()  # a seeded deck: random.Random(seed)


def test_seeded_matches_replay_bots_included() -> None:
    logs = []
    for _ in range(2):
        game = Game(no_limit_holdem(1, 2), seats=4, seed=21, max_hands=20)
        for i in range(4):
            game.sit_down(f"p{i}", 200)
        game.start()
        play(game, random_bot)
        logs.append([e.describe() for e in game.events])
    assert logs[0] == logs[1]


def test_bot_streams_go_on_across_calls_and_through_a_snapshot() -> None:
    def fresh() -> Game:
        game = Game(no_limit_holdem(1, 2), seats=3, seed=4, max_hands=12, keep_hands=None)
        for name in ("Ann", "Bob", "Cat"):
            game.sit_down(name, 200)
        game.start()
        return game

    whole = fresh()
    play(whole, random_bot)
    split = fresh()
    play(split, random_bot, max_actions=7)
    data = snapshot(split)
    assert set(data["context"]["rng"]["streams"]) == {f"bot seat {s}" for s in range(3)}
    restored = restore(data, no_limit_holdem(1, 2))
    play(restored, random_bot)
    play(split, random_bot)  # the same game, one play() call after another
    final = [e.describe() for e in whole.events]
    assert [e.describe() for e in split.events] == final
    assert [e.describe() for e in restored.events] == final


# --- a game without a seed -------------------------------------------------------------------------
def test_an_unseeded_game_shuffles_with_the_operating_system() -> None:
    game = Game(no_limit_holdem(1, 2), seats=2)
    assert game.seed is None and not game.ctx.rng.seeded
    assert isinstance(game.ctx.rng.generator, random.SystemRandom)
    with pytest.raises(ReplayError, match=r"without a seed.*no state to save or replay"):
        game.ctx.rng.getstate()
    with pytest.raises(ReplayError, match="without a seed"):
        game.ctx.rng.setstate(random.Random(1).getstate())
    a, b = RandomSource(), RandomSource()
    assert a.derive("x").getrandbits(64) != b.derive("x").getrandbits(64)  # streams seeded from secrets


def test_an_unseeded_games_snapshot_saves_no_state_and_restores_unseeded() -> None:
    game = Game(no_limit_holdem(1, 2), seats=3, keep_hands=None)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 200)
    game.start()
    play(game, random_bot, drawer=random_draw, max_actions=2)
    data = snapshot(game)
    assert data["context"]["rng"] == {"seed": None, "state": None}
    restored = restore(data, no_limit_holdem(1, 2))
    assert restored.seed is None and restored.hand is not None
    assert restored.hand.deck.rng is restored.ctx.rng  # the hand in progress deals from the OS too
    play(restored, random_bot)
    assert restored.ctx.total_chips() == 600


def test_a_saved_random_state_is_checked() -> None:
    with pytest.raises(SnapshotError, match=r"rng\.state must be null when the seed is null"):
        decode_rng({"seed": None, "state": [3, [0] * 625, None]}, "rng")
    good = encode_rng(RandomSource(3))
    with pytest.raises(SnapshotError, match=r"rng\.streams must be an object"):
        decode_rng({**good, "streams": [1]}, "rng")
    with pytest.raises(SnapshotError, match=r"rng\.streams\.s must be a generator state"):
        decode_rng({**good, "streams": {"s": 1}}, "rng")
    with pytest.raises(SnapshotError, match=r"rng\.streams\.s is not a valid random generator state"):
        decode_rng({**good, "streams": {"s": [3, [1, 2], None]}}, "rng")
    rng = RandomSource(3)
    rng.stream("s").random()
    back = decode_rng(encode_rng(rng), "rng")
    assert back.stream("s").random() == rng.stream("s").random()


@pytest.mark.parametrize("seed", [0, 1, -1, 2**32, 2**64 + 5, MAX_SEED, -MAX_SEED, 2**256 - 1])
def test_the_decks_and_streams_generators_are_pythons_random_with_that_seed(seed: int) -> None:
    """``RandomSource`` seeds its generators without ``random.Random``'s Python layers: each must be in the
    very state ``random.Random(seed)`` starts in, draw the same numbers, and ``gauss`` must work."""
    made = rng_module._twister(seed)
    assert made.getstate() == random.Random(seed).getstate()
    assert [made.getrandbits(64), made.gauss(0, 1)] == [(r := random.Random(seed)).getrandbits(64), r.gauss(0, 1)]
    if -MAX_SEED <= seed <= MAX_SEED:
        assert RandomSource(seed).generator.getstate() == random.Random(seed).getstate()
