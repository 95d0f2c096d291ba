"""``Game.copy``: an independent copy of a running game that goes on exactly as the original, and
``Game.stack_deck``, which chooses the cards to come (search: copy, stack, play on)."""

from __future__ import annotations

import contextlib
import random
import types
from collections import deque
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardgame.engine import Dispatcher, Stage, StageError
from cardgame.engine.copies import shallow_copy, shallow_copy_but, slot_names
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.deck import STANDARD_DECK, Deck
from cardgame.model.errors import CardError, CardgameError
from cardgame.model.events import ChipsAdded, HandEnded, PlayerLeft, PlayerSeated
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.rng import RandomSource
from cardgame.model.street import Street
from cardgame.model.table import Player, Table
from cardgame.play.bots import random_bot, random_draw
from cardgame.play.game import Game
from cardgame.simulate.stages import CountHands, StackedDeals
from cardgame.store.snapshot import snapshot
from tests.helpers import failing_hook, load_script
from variants import Variant, available, get, leduc_holdem, no_limit_holdem

Decision = tuple[Any, ...]


# --- driving a game with seeded random decisions ------------------------------------------------------


def _choose(game: Game, rng: random.Random) -> Decision | None:
    """A random legal decision for the player to act, now and then a table change; ``None``: nobody acts."""
    if game.to_act is None:
        return None
    if rng.randrange(15) == 0:
        seated = [p.seat for p in game.table.players()]
        kind = rng.choice(["sit_out", "sit_in", "leave", "top_up"])
        return (kind, rng.choice(seated), 50) if kind == "top_up" else (kind, rng.choice(seated))
    opts = game.draw_options()
    if opts is not None:
        hole = list(opts.hole)
        rng.shuffle(hole)
        return ("draw", opts.seat, tuple(hole[: rng.randint(0, opts.max_discards)]))
    runs = game.run_options()
    if runs is not None:
        return ("choose_runs", runs.seat, rng.randint(1, runs.max_runs))
    legal = game.legal_actions()
    assert legal is not None
    if legal.bring_in:
        return ("act", legal.seat, "bring_in", None)
    choices: list[Decision] = [("act", legal.seat, "call" if legal.call_amount else "check", None)]
    if legal.can_fold:
        choices.append(("act", legal.seat, "fold", None))
    if legal.can_raise:
        low, high = legal.min_raise_to, legal.max_raise_to
        amount = rng.choice([low, high, rng.randint(low, high)])
        choices.append(("act", legal.seat, "bet" if legal.is_bet else "raise", amount))
    return rng.choice(choices)


def _apply(game: Game, d: Decision) -> str:
    """Apply ``d``; the error it raised (type and message), or ``""``."""
    try:
        kind, *args = d
        if kind == "act":
            game.act(*args)
        elif kind == "top_up":
            game.top_up(*args)
        else:
            getattr(game, kind)(*args)
    except CardgameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


def _same(a: Game, b: Game) -> None:
    """``a`` and ``b`` are in the same state, as every seat sees it."""
    assert snapshot(a) == snapshot(b)
    assert a.events == b.events
    assert a.to_act == b.to_act and a.status_name == b.status_name
    assert a.legal_actions() == b.legal_actions()
    assert a.draw_options() == b.draw_options() and a.run_options() == b.run_options()
    for seat in [None, *range(a.table.seat_count)]:
        assert a.view(seat) == b.view(seat)


def _play_both(a: Game, b: Game, rng: random.Random, steps: int) -> None:
    """The same random decisions (drawn from ``a``'s state) on both games, compared after each."""
    for _ in range(steps):
        d = _choose(a, rng)
        if d is None:
            break
        assert _apply(a, d) == _apply(b, d)
        assert a.events[-3:] == b.events[-3:]
    _same(a, b)


def _new_game(variant: Variant, rng: random.Random) -> Game:
    """A seeded game of ``variant`` with 2 to 6 players (as the variant allows), started, keeping its log."""
    players = rng.randint(2, min(6, variant.max_players))
    game = Game(variant, seats=players + 1, seed=rng.randrange(2**32), max_hands=5, keep_hands=None)
    for i in range(players):
        game.sit_down(f"p{i}", rng.randint(20, 300), i)
    game.start()
    return game


def _chips_conserved(game: Game) -> None:
    """The table holds the chips brought to it, less what players left with."""
    ledger = 0
    for e in game.events:
        if isinstance(e, PlayerSeated | ChipsAdded):
            ledger += e.stack if isinstance(e, PlayerSeated) else e.amount
        elif isinstance(e, PlayerLeft):
            ledger -= e.cashed_out
    assert game.ctx.total_chips() == ledger


# --- the copy goes on exactly as the original, and neither changes the other ----------------------


@pytest.mark.parametrize("variant", available(), ids=lambda v: v.code or v.name)
def test_a_copy_at_random_points_goes_on_like_the_original_and_is_independent(variant: Variant) -> None:
    rng = random.Random(variant.name)
    for _ in range(4):
        game = _new_game(variant, rng)
        for _ in range(rng.randint(0, 25)):  # a random point of a random hand
            d = _choose(game, rng)
            if d is None:
                break
            _apply(game, d)
        saved = snapshot(game)
        twin = game.copy()
        _same(game, twin)
        _play_both(twin.copy(), twin, random.Random(rng.random()), 40)  # a copy of a copy, played on the copy
        assert snapshot(game) == saved, "acting on the copy changed the original"
        later = game.copy()
        _play_both(game, later, rng, 60)  # ... and acting on the original changes no copy
        assert snapshot(twin) != saved or twin.to_act is None
        for g in (game, twin, later):
            _chips_conserved(g)


def test_a_copy_shares_nothing_mutable_with_the_original() -> None:
    """No list, dict, set, player, hand, deck, street, stage, random generator... of the copy is the
    original's (reached through every attribute, container and bound method), while the events,
    cards and the stages' settings are shared."""
    for variant in available():
        game = _new_game(variant, random.Random(variant.name))
        for _ in range(8):
            if (d := _choose(game, random.Random(1))) is not None:
                _apply(game, d)
        game.ctx.rng.stream("bot seat 0")
        twin = game.copy()
        mine, theirs = _reachable(game), _reachable(twin)
        shared = [type(x).__name__ for i, x in mine.items() if i in theirs and _mutable(x)]
        assert not shared, f"{variant.name}: the copy shares {shared}"
        assert game.events and all(x is y for x, y in zip(game.events, twin.events, strict=True))
        assert all(type(x) is type(y) for x, y in zip(game.dispatcher.stages, twin.dispatcher.stages, strict=True))


_RUNTIME = (list, dict, set, deque, random.Random, Player, HandPlayer, Hand, Deck, Street, Stage, Context, Table,
            RandomSource, Dispatcher, Game)
_SETTINGS = ("cardgame.evaluation", "cardgame.model.betting", "cardgame.model.action_order", "variants")


def _mutable(x: object) -> bool:
    return isinstance(x, _RUNTIME)


def _reachable(root: object) -> dict[int, object]:
    """Every object reached from ``root`` through slots, ``__dict__``, containers and bound methods;
    the stages' settings (evaluators, betting structures, orders, the variant) are not entered."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        x = todo.pop()
        if id(x) in seen or x is None or isinstance(x, int | str | float | type | types.FunctionType):
            continue
        seen[id(x)] = x
        if isinstance(x, list | tuple | set | frozenset | deque):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x)
            todo.extend(x.values())
        elif isinstance(x, types.BuiltinMethodType | types.MethodType):
            todo.append(x.__self__)
        elif not type(x).__module__.startswith(_SETTINGS) and not isinstance(x, random.Random):
            todo.extend(getattr(x, name, None) for name in slot_names(type(x)))
            todo.extend(getattr(x, "__dict__", {}).values())
    return seen


def test_the_copy_and_the_original_deal_the_same_cards_from_the_same_random_state() -> None:
    game = Game(no_limit_holdem(1, 2), seats=3, seed=11)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.start()
    twin = game.copy()
    for g in (game, twin):
        while g.hand is not None and g.hand.number == 1 and g.to_act is not None:
            g.call(g.to_act) if g.can_call(g.to_act) else g.check(g.to_act)
    assert [e for e in game.events if type(e).__name__ == "BoardDealt"] == \
        [e for e in twin.events if type(e).__name__ == "BoardDealt"]
    _same(game, twin)


# --- particular moments ----------------------------------------------------------------------------


def test_copies_before_the_start_between_hands_and_after_the_end() -> None:
    game = Game(leduc_holdem(), seats=2, seed=4, max_hands=2)
    game.sit_down("Ann", 50)
    game.sit_down("Bob", 50)
    before = game.copy()
    assert before.status_name == "new" and before.table.seats[0] is not game.table.seats[0]
    before.start()
    assert game.status_name == "new" and game.hand is None
    game.start()
    _same(game, before)
    game.play(random_bot)
    assert game.status_name == "exited"
    after = game.copy()
    _same(game, after)
    after.sit_down("Cat", 40) if after.table.seats[1] is None else after.leave(1)
    assert snapshot(game) != snapshot(after)
    waiting = Game(leduc_holdem(), seats=2, seed=4)
    waiting.sit_down("Ann", 50)
    waiting.start()  # waits for a second player, between hands
    twin = waiting.copy()
    twin.sit_down("Bob", 50)
    assert waiting.hand is None and twin.hand is not None and waiting.table.seats[1] is None


def test_a_copy_mid_draw_goes_on_like_the_original() -> None:
    game = Game(get("F2L3D"), seats=3, seed=8)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 200)
    game.start()
    while game.draw_options() is None:
        game.call(game.to_act) if game.can_call(game.to_act) else game.check(game.to_act)  # type: ignore[arg-type]
    opts = game.draw_options()
    assert opts is not None
    game.draw(opts.seat, opts.hole[:2])  # one player drew, the next is to draw
    twin = game.copy()
    _same(game, twin)
    opts = twin.draw_options()
    assert opts is not None
    twin.draw(opts.seat, opts.hole[:3])
    assert game.draw_options() == opts  # the original still waits on that player
    game.draw(opts.seat, opts.hole[:3])
    _play_both(game, twin, random.Random(2), 80)


def test_a_copy_while_the_players_choose_to_run_it_twice() -> None:
    game = Game(no_limit_holdem(1, 2, run_it_twice=True), seats=2, seed=3)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.start()
    game.all_in(game.to_act)  # type: ignore[arg-type]
    game.call(game.to_act)  # type: ignore[arg-type]
    opts = game.run_options()
    assert opts is not None
    game.choose_runs(opts.seat, 2)  # one chose, the other is to choose
    twin = game.copy()
    _same(game, twin)
    for g in (game, twin):
        runs = g.run_options()
        assert runs is not None
        g.choose_runs(runs.seat, 2)
    _same(game, twin)
    assert any(type(e).__name__ == "PotAwarded" for e in twin.events)
    assert game.ctx.total_chips() == twin.ctx.total_chips() == 200


def test_a_player_who_left_mid_hand_is_copied_with_the_hand() -> None:
    game = Game(no_limit_holdem(1, 2), seats=3, seed=5)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.start()
    leaver = next(hp.seat for hp in game.hand.players if hp.seat != game.to_act)  # type: ignore[union-attr]
    game.leave(leaver)
    twin = game.copy()
    _same(game, twin)
    _play_both(game, twin, random.Random(9), 50)


def test_listeners_are_not_copied_unless_asked() -> None:
    game = Game(leduc_holdem(), seats=2, seed=1)
    game.sit_down("Ann", 50)
    game.sit_down("Bob", 50)
    seen: list[object] = []
    game.subscribe(seen.append)
    game.start()
    quiet, heard = game.copy(), game.copy(listeners=True)
    count = len(seen)
    quiet.fold(quiet.to_act)  # type: ignore[arg-type]
    assert len(seen) == count and quiet.ctx.listeners == ()
    heard.fold(heard.to_act)  # type: ignore[arg-type]
    assert len(seen) > count and heard.ctx.listeners == game.ctx.listeners


def test_a_copy_is_refused_from_inside_a_hook_and_made_in_a_listener() -> None:
    game = Game(leduc_holdem(), seats=2, seed=1)
    game.sit_down("Ann", 50)
    game.sit_down("Bob", 50)
    errors: list[str] = []

    def listener(event: object) -> None:
        try:
            game.copy()
        except StageError as exc:
            errors.append(str(exc))

    game.hook(listener)
    game.start()
    assert errors and "between calls" in errors[0]
    copies: list[Game] = []
    game.subscribe(lambda event: copies.append(game.copy()))  # the change is complete: a state that exists
    _ = game.fold(game.to_act)  # type: ignore[arg-type]
    assert copies and game.listener_errors == []


def test_bots_on_the_copy_draw_from_copies_of_their_streams() -> None:
    """Bots playing the copy leave the original's streams where they were, and play as the
    original's bots then do."""
    game = Game(get("F2L3D"), seats=3, seed=21, max_hands=4)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.start()
    game.play(random_bot, drawer=random_draw, max_actions=6)
    streams = {label: gen.getstate() for label, gen in game.ctx.rng.streams.items()}
    assert streams
    twin = game.copy()
    twin.play(random_bot, drawer=random_draw)
    assert {label: gen.getstate() for label, gen in game.ctx.rng.streams.items()} == streams
    game.play(random_bot, drawer=random_draw)
    _same(game, twin)


def test_an_unseeded_game_copies_and_deals_from_the_operating_system() -> None:
    game = Game(leduc_holdem(), seats=2)
    game.sit_down("Ann", 50)
    game.sit_down("Bob", 50)
    game.start()
    twin = game.copy()
    assert twin.seed is None and twin.ctx.rng.generator is game.ctx.rng.generator  # stateless: shared
    twin.fold(twin.to_act)  # type: ignore[arg-type]
    assert twin.hand is not None and game.hand is not None and (game.hand.number, twin.hand.number) == (1, 2)


# --- stacking the cards to come ----------------------------------------------------------------------


def _leduc(seed: int = 2) -> Game:
    game = Game(leduc_holdem(), seats=2, seed=seed)
    game.sit_down("Ann", 50)
    game.sit_down("Bob", 50)
    return game


def test_stacking_before_the_start_deals_the_hole_cards_chosen() -> None:
    game = _leduc()
    game.stack_deck("Kh Js")
    game.start()
    assert game.hand is not None
    assert [hp.hole for hp in game.hand.players] == [[Card("Kh")], [Card("Js")]]


def test_stacking_mid_hand_deals_each_chance_outcome_to_its_own_copy() -> None:
    game = _leduc()
    game.start()
    game.check(game.to_act)  # type: ignore[arg-type]
    assert game.hand is not None
    undealt = game.hand.deck.remaining
    saved = snapshot(game)
    boards = []
    for card in undealt:  # the chance node after the first round: every board card
        twin = game.copy()
        twin.stack_deck([card])
        twin.check(twin.to_act)  # type: ignore[arg-type]
        assert twin.hand is not None
        boards.append(twin.hand.board)
    assert boards == [[card] for card in undealt]
    assert snapshot(game) == saved


def test_stacking_refuses_a_card_dealt_given_twice_or_not_in_the_deck_and_changes_nothing() -> None:
    game = _leduc()
    game.start()
    assert game.hand is not None
    dealt = str(game.hand.players[0].hole[0])
    saved = snapshot(game)
    for cards in ([dealt], "Qh Qh", "Ah", ["Zz"], [60]):
        with pytest.raises(CardError):
            game.stack_deck(cards)
        assert snapshot(game) == saved
    with pytest.raises(CardError, match="undealt"):
        game.stack_deck([dealt])


def test_stacking_the_turn_and_river_of_a_copy_on_the_flop() -> None:
    game = Game(no_limit_holdem(1, 2), seats=2, seed=6)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.start()
    game.call(game.to_act)  # type: ignore[arg-type]
    game.check(game.to_act)  # type: ignore[arg-type]
    assert game.hand is not None and len(game.hand.board) == 3
    free = [c for c in game.hand.deck.remaining][:4]
    twin = game.copy()
    twin.stack_deck(free)  # burn, turn, burn, river
    for _ in range(4):
        twin.check(twin.to_act)  # type: ignore[arg-type]
    runout = [e for e in twin.events if type(e).__name__ == "BoardDealt"][-2:]
    assert [list(e.cards) for e in runout] == [[free[1]], [free[3]]]


# --- the pieces ----------------------------------------------------------------------------------------


def test_shallow_copy_copies_every_slot_and_the_dict() -> None:
    class Base:
        __slots__ = ("__hidden", "a")

        def __init__(self) -> None:
            self.a = [1]
            self.__hidden = 2

        def hidden(self) -> int:
            return self.__hidden

    class Free(Base):
        def __init__(self) -> None:
            super().__init__()
            self.b = "x"

    obj = Free()
    new = shallow_copy(obj)
    assert type(new) is Free and new.a is obj.a and new.hidden() == 2 and new.b == "x"
    assert slot_names(Free) == ("_Base__hidden", "a")


def test_shallow_copy_but_leaves_the_named_slots_unset_and_copies_the_rest() -> None:
    class Three:
        __slots__ = ("a", "b", "c")

    obj = Three()
    obj.a, obj.b, obj.c = [1], [2], [3]
    new = shallow_copy_but(obj, frozenset({"b"}))
    assert type(new) is Three and new.a is obj.a and new.c is obj.c and not hasattr(new, "b")
    assert shallow_copy(obj).b is obj.b  # the whole copy is another function, kept apart


def test_a_template_context_copy_owns_what_it_replaces() -> None:
    game = Game(no_limit_holdem(1, 2), seats=2, seed=3)
    game.sit_down("a", 100, 0)
    game.sit_down("b", 100, 1)
    seen: list[object] = []
    game.subscribe(seen.append)
    ctx = game.ctx
    for listeners in (False, True):
        new = ctx.copy(listeners=listeners)
        assert new.table is not ctx.table and new.log == ctx.log and new.log is not ctx.log
        assert new.quiet is not listeners and new.listeners == (ctx.listeners if listeners else ())
        new.emit(HandEnded(1, ()))
        assert new.log[-1] == HandEnded(1, ()) and ctx.log[-1:] != new.log[-1:]


@pytest.mark.parametrize("cls", [Player, HandPlayer, Hand, Deck, Street, Table, RandomSource, Context])
def test_each_runtime_class_has_a_copy(cls: type) -> None:
    assert callable(getattr(cls, "copy", None))
    if attrs.has(cls):
        assert {a.name for a in attrs.fields(cls)} <= set(slot_names(cls))


def test_a_match_s_stages_are_copied_with_their_own_deals_and_buffer() -> None:
    """cardgame.simulate's stages: the copy deals the next hand from a copy of the match's deals,
    and buffers its own events."""
    counted: list[int] = []
    counter = CountHands(lambda events: counted.append(len(events)))
    game = Game([counter, StackedDeals(5, STANDARD_DECK), *no_limit_holdem(1, 2)], seats=2, seed=1)
    game.hook(counter.buffer.append)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.start()
    twin = game.copy()
    mine, theirs = _reachable(game), _reachable(twin)
    assert not [type(x).__name__ for i, x in mine.items() if i in theirs and _mutable(x)]
    for g in (game, twin):
        g.fold(g.to_act)  # type: ignore[arg-type]
    assert game.hand is not None and twin.hand is not None
    assert [hp.hole for hp in game.hand.players] == [hp.hole for hp in twin.hand.players]
    assert counted[-2] > 0 and counted[-1] == 0  # the match counted its hand; the copy, no listener, nothing


def test_the_copy_cost_benchmark_runs_and_every_way_copies_the_state() -> None:
    """A smoke test of ``benchmarks/copy_cost.py`` (its own check: each way's copy has the game's
    snapshot); no timing is checked."""
    bench = load_script(Path(__file__).resolve().parents[1] / "benchmarks" / "copy_cost.py", "benchmark_copy_cost")
    rows = bench.measure(number=2, repeat=1)
    assert [(r.position, r.way) for r in rows] == [(p.name, w) for p in bench.POSITIONS for w in (
        "Game.copy", "deepcopy, shared memo", "copy.deepcopy", "replay the hand", "snapshot + restore")]
    assert all(r.us > 0 for r in rows) and [r.ratio for r in rows if r.way == "Game.copy"] == [1.0] * 3


@pytest.mark.parametrize("variant", available(), ids=lambda v: v.code or v.name)
def test_a_copy_at_every_decision_after_a_round_cut_short_goes_on_like_the_original(variant: Variant) -> None:
    """A game fails mid-street (a hook raises) and is started again: the rounds cut short keep the
    street (or the player to draw) of a hand that is over. A copy at every decision after that, over
    several hands, takes the same decisions as the original and gives the same
    events, stacks and state (was: AssertionError or KeyError in the stage's copy)."""
    rng = random.Random(f"cut short {variant.name}")
    for _ in range(3):
        game = _new_game(variant, rng)
        armed = failing_hook(game)
        for _ in range(120):
            if game.status_name == "failed":
                game.start()  # the stages that did not run again keep what the failed hand left
                _chips_conserved(game)  # the failed hand is void: its pot went back (was lost)
                continue
            if rng.randrange(12) == 0 and game.to_act is not None:
                armed[0] = True
                d = _choose(game, rng)
                assert d is not None
                with contextlib.suppress(StageError):
                    _apply(game, d)
                armed[0] = False  # (a refused table change emitted nothing)
                continue
            twin = game.copy()
            d = _choose(game, rng)
            if d is None:
                break
            outcome = _apply(game, d)
            assert _apply(twin, d) == outcome
            assert twin.events[-3:] == game.events[-3:] and twin.to_act == game.to_act
            assert [(p.seat, p.stack) for p in twin.table.players()] == [
                (p.seat, p.stack) for p in game.table.players()]
        _play_both(game, game.copy(), rng, 30)
