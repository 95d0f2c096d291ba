"""Snapshots: save a game anywhere, restore it on a fresh stage list, and both games continue alike."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardgame.engine import Dispatcher, Outcome, Push, Restart, Settings, Stage
from cardgame.evaluation import OMAHA_HIGH
from cardgame.model import events as ev
from cardgame.model.betting import PotLimit
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.deck import Deck
from cardgame.model.errors import CardgameError, StageError
from cardgame.model.events import Event, HandEnded, HoleCardsDealt
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.rake import Rake
from cardgame.model.rng import RandomSource
from cardgame.model.street import Street
from cardgame.model.table import Player, Table
from cardgame.play.bots import always_all_in, calling_station, random_bot, random_draw
from cardgame.play.game import Game
from cardgame.stages import DealHole, WaitForPlayers
from cardgame.store import snapshot as snap
from cardgame.store.serialize import decode_event, decode_value, encode_event, encode_value
from cardgame.store.snapshot import SnapshotError, dumps, loads, restore, snapshot, stage_settings
from variants import available, fixed_limit_holdem, no_limit_holdem, pot_limit_omaha
from variants import get as variants_get
from variants.streets import blind_levels, community_card_game

Build = Callable[[], list[Stage]]

OPTIONAL_BUILDERS = {
    "variants.stud": ("seven_card_stud", "seven_card_stud_hi_lo", "razz"),
    "variants.draw": ("deuce_to_seven_single_draw", "deuce_to_seven_triple_draw", "badugi", "five_card_draw"),
    "variants.research": ("kuhn_poker", "leduc_holdem"),
}


def _variant_params() -> list[Any]:
    params = [pytest.param(v.build, id=v.code or v.name) for v in available()]
    registered = {v.build for v in available()}
    for module, names in OPTIONAL_BUILDERS.items():
        try:
            mod = importlib.import_module(module)
        except ImportError as exc:
            reason = f"{module} does not import: {exc} (missing {exc.name!r})"
            params.append(pytest.param(None, id=module, marks=pytest.mark.skip(reason=reason)))
            continue
        for name in names:
            build = getattr(mod, name, None)
            if build in registered:
                continue
            if build is None:
                params.append(pytest.param(None, id=f"{module}.{name}",
                                           marks=pytest.mark.skip(reason=f"{module} has no {name!r}")))
            else:
                params.append(pytest.param(build, id=f"{module}.{name}"))
    return params


# --- driving a game with decisions drawn by hypothesis ---------------------------------------------

Decision = tuple[Any, ...]


def _table_op(game: Game, data: st.DataObject) -> Decision:
    seated = [p.seat for p in game.table.players()]
    empty = [i for i, p in enumerate(game.table.seats) if p is None]
    kinds = ["sit_out", "sit_in", "leave", "top_up"] if seated else []
    if empty:
        kinds.append("sit_down")
    kind = data.draw(st.sampled_from(kinds))
    if kind == "sit_down":
        return ("sit_down", f"n{data.draw(st.integers(0, 99))}", data.draw(st.integers(1, 300)),
                data.draw(st.sampled_from(empty)))
    seat = data.draw(st.sampled_from(seated))
    if kind == "top_up":
        return ("top_up", seat, data.draw(st.integers(1, 200)))
    return (kind, seat)


def _choose(game: Game, data: st.DataObject) -> Decision | None:
    """A random legal decision for the player to act, sometimes a seating change; ``None``: stop."""
    if game.to_act is None:
        if game.status_name != "running" or not data.draw(st.booleans()):
            return None
        return _table_op(game, data)
    if data.draw(st.integers(0, 11)) == 0:
        return _table_op(game, data)
    opts = game.draw_options()
    if opts is not None:
        k = data.draw(st.integers(0, opts.max_discards))
        order = data.draw(st.permutations(opts.hole))
        return ("draw", opts.seat, tuple(order[:k]))
    legal = game.legal_actions()
    assert legal is not None
    choices: list[Decision] = []
    if legal.bring_in:
        choices.append(("act", legal.seat, "bring_in", None))
    else:
        if legal.can_fold:
            choices.append(("act", legal.seat, "fold", None))
        choices.append(("act", legal.seat, "call" if legal.call_amount else "check", None))
    if legal.can_raise:
        word = "bet" if legal.is_bet else "raise"
        choices.append(("act", legal.seat, word, data.draw(st.integers(legal.min_raise_to, legal.max_raise_to))))
    return data.draw(st.sampled_from(choices))


def _apply(game: Game, d: Decision) -> str:
    """Apply ``d``; returns the error it raised (type and message) or ``""``."""
    try:
        kind = d[0]
        if kind == "act":
            game.act(d[1], d[2], d[3])
        elif kind == "draw":
            game.draw(d[1], d[2])
        elif kind == "sit_down":
            game.sit_down(d[1], d[2], d[3])
        elif kind == "top_up":
            game.top_up(d[1], d[2])
        else:
            getattr(game, kind)(d[1])
    except CardgameError as exc:
        return f"{type(exc).__name__}: {exc}"
    return ""


def _same(a: Game, b: Game) -> None:
    assert a.events == b.events
    assert [(p.seat, p.name, p.stack, p.sitting_out, p.leaving, p.owes) for p in a.table.players()] == \
        [(p.seat, p.name, p.stack, p.sitting_out, p.leaving, p.owes) for p in b.table.players()]
    assert a.status(reveal=True) == b.status(reveal=True)
    assert a.status_name == b.status_name
    assert a.to_act == b.to_act
    assert a.legal_actions() == b.legal_actions()
    assert a.draw_options() == b.draw_options()
    assert snapshot(a) == snapshot(b)
    for x, y in zip(a.dispatcher.stages, b.dispatcher.stages, strict=True):
        for name in _stage_attributes(type(x)):  # undeclared runtime state would differ here
            assert getattr(x, name) == getattr(y, name), f"{type(x).__name__}.{name}"


def _stage_attributes(cls: type) -> set[str]:
    """Public slots of a stage class (configuration and runtime fields), not the links or caches."""
    names = {n for c in cls.__mro__ for n in getattr(c, "__slots__", ())}
    return {n for n in names if not n.startswith("_") and n not in ("ctx", "parent")}


@pytest.mark.parametrize("build", _variant_params())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    stacks=st.lists(st.integers(1, 300), min_size=2, max_size=6),
    seed=st.integers(0, 2**64 - 1),
    max_hands=st.integers(2, 6),
    keep_hands=st.one_of(st.none(), st.integers(1, 3)),
    snap_at=st.integers(0, 30),
    data=st.data(),
)
def test_restored_game_continues_exactly_like_the_original(
    build: Build, stacks: list[int], seed: int, max_hands: int, keep_hands: int | None, snap_at: int,
    data: st.DataObject,
) -> None:
    game = Game(build(), seats=len(stacks) + 1, seed=seed, max_hands=max_hands, keep_hands=keep_hands)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    steps = 0
    if snap_at > 0:
        game.start()
        while steps < snap_at - 1 and (d := _choose(game, data)) is not None:
            _apply(game, d)
            steps += 1
    where = "in a hand" if game.hand is not None else "between hands"
    event(f"snapshot {where} ({game.status_name}, {type(game.stage).__name__ if game.stage else 'no stage'})")
    text = dumps(game)
    restored = loads(text, build())
    assert dumps(restored) == text
    _same(game, restored)
    if snap_at == 0:
        game.start()
        restored.start()
    after = 0
    for after in range(400):  # noqa: B007
        d = _choose(game, data)
        if d is None:
            break
        assert _apply(game, d) == _apply(restored, d)
        assert game.events[-1:] == restored.events[-1:]
    event(f"decisions after the snapshot: {'0' if not after else '1-9' if after < 10 else '10+'}")
    _same(game, restored)


@pytest.mark.parametrize("build", _variant_params())
def test_bots_drawing_from_the_restored_random_source_play_the_same_hands(build: Build) -> None:
    game = Game(build(), seats=4, seed=99, max_hands=6)
    for i in range(3):
        game.sit_down(f"p{i}", 150, i)
    game.start()
    game.play(random_bot, drawer=random_draw, max_actions=9)
    restored = loads(dumps(game), build())
    game.play(random_bot, drawer=random_draw)
    restored.play(random_bot, drawer=random_draw)
    _same(game, restored)


# --- particular moments -----------------------------------------------------------------------------


def _holdem(players: int = 3, stack: int = 200, **options: Any) -> Game:
    game = Game(no_limit_holdem(1, 2), seed=7, **options)
    for i in range(players):
        game.sit_down(f"p{i}", stack, i)
    return game


def test_snapshot_before_the_game_starts() -> None:
    game = _holdem(max_hands=3)
    restored = restore(snapshot(game), no_limit_holdem(1, 2))
    assert restored.status_name == "new" and restored.hand is None
    for g in (game, restored):
        g.start()
        g.play(random_bot)
    _same(game, restored)


def test_snapshot_while_waiting_for_players() -> None:
    game = _holdem(players=1, max_hands=2)
    game.start()
    assert game.status_name == "running" and game.stage is not None and game.stage.state == "waiting_for_players"
    assert game.hand is None
    restored = loads(dumps(game), no_limit_holdem(1, 2))
    assert restored.stage is restored.dispatcher.stages[0] and restored.stage.state == "waiting_for_players"
    for g in (game, restored):
        g.sit_down("late", 200)  # the hand opens at once
        assert g.hand is not None
        g.play(random_bot)
    _same(game, restored)


def test_snapshot_between_hands_after_a_player_busts() -> None:
    game = _holdem(players=2, max_hands=20)
    game.start()
    game.play(always_all_in)
    assert game.hand is None and game.ctx.hands_played >= 1  # one player broke: waiting
    restored = loads(dumps(game), no_limit_holdem(1, 2))
    broke = next(p.seat for p in game.table.players() if p.stack == 0)
    for g in (game, restored):
        g.top_up(broke, 100)
        g.sit_in(broke)
        g.play(random_bot)
    _same(game, restored)


def test_snapshot_mid_hand_keeps_the_lazy_deck_and_the_next_stacked_deck() -> None:
    game = _holdem()
    game.start()
    game.call(game.to_act or 0)
    data = snapshot(game)
    assert data["context"]["hand"]["deck"]["rng"] == "context"
    game.ctx.stack_deck([])  # a stacked deck for the next hand: dealt in order, no rng
    data = snapshot(game)
    assert data["context"]["next_deck"]["rng"] is None
    restored = restore(data, no_limit_holdem(1, 2))
    assert restored.ctx.next_deck is not None and restored.ctx.next_deck._rng is None
    assert restored.hand.deck._rng is restored.ctx.rng
    assert game.ctx.next_deck is not None
    assert restored.ctx.next_deck.remaining == game.ctx.next_deck.remaining


def test_snapshot_after_exit() -> None:
    game = _holdem(max_hands=2)
    game.start()
    game.play(random_bot)
    assert game.status_name == "exited"
    restored = loads(dumps(game), no_limit_holdem(1, 2))
    _same(game, restored)
    for g in (game, restored):
        with pytest.raises(StageError, match="exited"):
            g.dispatcher.send("act", 0, "fold")


def test_snapshot_of_a_failed_game_keeps_the_failure() -> None:
    def broken() -> list[Stage]:
        # no stage restarts: finishing the last one fails (a stage of the kernel alone, which the build-time
        # check cannot see through; a poker list without EndHand is refused when the game is built)
        return [WaitForPlayers(2), DealHole(2), _Pass()]

    game = Game(broken(), seed=1)
    game.sit_down("a", 10)
    game.sit_down("b", 10)
    with pytest.raises(StageError):
        game.start()
    assert game.status_name == "failed"
    restored = loads(dumps(game), broken())
    assert restored.status_name == "failed"
    assert restored.dispatcher.failure == game.dispatcher.failure
    assert type(restored.stage) is _Pass
    _same(game, restored)


def test_snapshot_is_json_ready_with_cards_as_text() -> None:
    game = _holdem()
    game.start()
    data = snapshot(game)
    assert json.loads(json.dumps(data)) == data
    assert data["format"] == snap.FORMAT and data["version"] == snap.VERSION
    hole = data["context"]["hand"]["players"][0]["hole"]
    assert len(hole) == 2 and all(isinstance(c, str) and len(c) == 2 for c in hole)
    dealt = [e for e in data["context"]["log"] if e["type"] == "HoleCardsDealt"]
    assert dealt and all(isinstance(c, str) for c in dealt[0]["cards"])
    rng_state = game.ctx.rng.getstate()
    assert restore(data, no_limit_holdem(1, 2)).ctx.rng.getstate() == rng_state  # tuples round-trip


def test_listeners_are_not_saved() -> None:
    game = _holdem()
    seen: list[object] = []
    game.subscribe(seen.append)
    game.start()
    restored = loads(dumps(game), no_limit_holdem(1, 2))
    assert restored.ctx.listeners == ()


def test_generic_values_round_trip() -> None:
    value = {"a": (1, [2, (3,)], None), 4: HoleCardsDealt(1, (None,)), "c": (True, 1.5, "x")}
    encoded = encode_value(value)
    assert json.loads(json.dumps(encoded)) == encoded
    assert decode_value(encoded) == value


# --- what cannot be saved ---------------------------------------------------------------------------


@attrs.frozen
class _Custom:
    """A result type defined outside the library: saved as ``module:QualName``."""

    seats: tuple[int, ...]


class _Pass(Stage):
    """The base machine: ``done`` hands on what it was given."""

    name: ClassVar[str] = "pass"
    __slots__ = ()


class _WaitsForTick(Stage):
    """Waits in ``running`` for a ``tick`` event, keeping a counter as runtime state."""

    name: ClassVar[str] = "ticks"
    states: ClassVar[list[str]] = ["ready", "running"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "running", "after": "on_start"},
    ]
    events: ClassVar[tuple[str, ...]] = ("tick",)
    snapshot_fields: ClassVar[tuple[str, ...]] = ("ticks", "seen")
    __slots__ = ("seen", "ticks")

    def __init__(self) -> None:
        super().__init__()
        self.ticks = 0
        self.seen: Any = None

    def on_start(self) -> None:
        self.seen = _Custom(self.previous.seats)

    def on_tick(self) -> Outcome | None:
        self.ticks += 1
        return Restart() if self.ticks == 2 else None


class _PushesASubstage(Stage):
    name: ClassVar[str] = "pusher"
    states: ClassVar[list[str]] = ["ready", "waiting"]
    transitions: ClassVar[list[dict[str, Any]]] = [{"trigger": "begin", "source": "ready", "dest": "waiting"}]
    events: ClassVar[tuple[str, ...]] = ("go",)
    __slots__ = ()

    def on_go(self) -> Outcome:
        return Push(_WaitsForTick(), _Custom((0, 1)))


def test_custom_stage_fields_and_custom_result_types_round_trip() -> None:
    def stages() -> list[Stage]:
        return [WaitForPlayers(2), _Pass(), _WaitsForTick()]

    game = Game(stages(), seed=3)
    game.sit_down("a", 10)
    game.sit_down("b", 10)
    game.start()
    game.dispatcher.send("tick")
    assert game.stage.ticks == 1  # type: ignore[union-attr]
    data = snapshot(game)
    assert data["stages"][2]["fields"]["seen"]["type"] == f"{__name__}:_Custom"
    restored = restore(data, stages())
    assert restored.stage.ticks == 1 and restored.stage.seen == _Custom((1, 0))  # type: ignore[union-attr]
    for g in (game, restored):
        g.dispatcher.send("tick")  # the second tick restarts: the next hand opens
        assert g.stage is not None and g.stage.name == "ticks" and g.stage.ticks == 2  # type: ignore[attr-defined]
    _same(game, restored)


def test_an_older_snapshot_of_a_base_machine_stage_ended_in_running_is_restored() -> None:
    """Before stages ended by their final state, the base machine's stage ended in ``running`` with a saved
    ``outcome``: that snapshot is read, the stage in its final state ``done`` (which gives the outcome)."""

    def stages() -> list[Stage]:
        return [WaitForPlayers(2), _Pass(), _WaitsForTick()]

    game = Game(stages(), seed=3)
    game.sit_down("a", 10)
    game.sit_down("b", 10)
    game.start()
    data = snapshot(game)
    assert data["stages"][1]["state"] == "done" and data["stages"][1]["outcome"] is None
    old = json.loads(json.dumps(data))
    old["stages"][1].update(state="running", outcome={"type": "done", "result": old["stages"][1]["previous"]})
    restored = restore(old, stages())
    assert restored.dispatcher.stages[1].state == "done"
    assert restored.dispatcher.stages[1].outcome == game.dispatcher.stages[1].outcome
    _same(game, restored)


def test_a_pushed_substage_cannot_be_saved() -> None:
    pusher = _PushesASubstage()
    game = Game([WaitForPlayers(2), pusher], seed=3)
    game.sit_down("a", 10)
    game.sit_down("b", 10)
    game.start()
    game.dispatcher.send("go")
    assert type(game.stage) is _WaitsForTick
    with pytest.raises(SnapshotError, match=r"pushed by a Push outcome"):
        snapshot(game)


def test_a_snapshot_from_inside_a_hook_is_refused() -> None:
    game = _holdem(max_hands=1)
    errors: list[Exception] = []

    def listener(event: object) -> None:
        if isinstance(event, HandEnded):
            try:
                snapshot(game)
            except SnapshotError as exc:
                errors.append(exc)

    game.hook(listener)
    game.start()
    game.play(random_bot)
    assert errors and "hook" in str(errors[0])


# --- corrupt and mismatched snapshots ----------------------------------------------------------------


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    game = _holdem()
    game.start()
    game.call(game.to_act or 0)
    return snapshot(game)


def _corrupt(saved: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(saved)
    change(data)
    return data


def _hand(d: dict[str, Any]) -> dict[str, Any]:
    return d["context"]["hand"]  # type: ignore[no-any-return]


def _street(d: dict[str, Any]) -> dict[str, Any]:
    """The saved street of the betting round that runs (its ``street_record``)."""
    return d["stages"][d["dispatcher"]["current"]]["fields"]["street_record"]  # type: ignore[no-any-return]


CORRUPTIONS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", lambda d: d.update(format="other"), "not a cardgame snapshot"),
    ("version", lambda d: d.update(version=99), "version 99"),
    ("old version", lambda d: d.update(version=3), "version 3 is not supported; this library reads 4"),  # hand's street
    ("missing key", lambda d: d["context"].pop("rng"), r"context\.rng is missing"),
    ("bad card", lambda d: _hand(d)["players"][0]["hole"].__setitem__(0, "Zz"),
     r"context\.hand\.players\[0\]\.hole\[0\].*Zz"),
    ("card as int", lambda d: _hand(d)["board"].append(12), r"context\.hand\.board\[0\] must be a card as text"),
    ("duplicate card", lambda d: _hand(d)["players"][1]["hole"].__setitem__(0, _hand(d)["players"][0]["hole"][0]),
     "appears twice"),
    ("wrong type", lambda d: _hand(d)["players"][0].update(bet="ten"), r"players\[0\]\.bet must be a whole number"),
    ("face_up length", lambda d: _hand(d)["players"][0]["face_up"].pop(), r"face_up must be one"),
    ("to_act", lambda d: _street(d).update(to_act=5), "seat 5 is asked to act but is not a live player"),
    ("event tag", lambda d: d["context"]["log"][0].update(type="NoSuchEvent"), r"log\[0\]: unknown record type"),
    ("event field", lambda d: d["context"]["log"][0].update(seat="x"), r"log\[0\]: not a valid PlayerSeated"),
    ("rng state", lambda d: d["context"]["rng"].update(state=[3, [1, 2], None]), "not a valid random generator"),
    ("stage state", lambda d: d["stages"][0].update(state="dancing"), "has no state 'dancing'"),
    ("stack index", lambda d: d["dispatcher"]["stack"].append(40), r"dispatcher\.stack\[\d+\] must be a stage index"),
    ("status", lambda d: d["dispatcher"].update(status="sleeping"), "dispatcher.status"),
    ("outcome", lambda d: d["stages"][0].update(outcome={"type": "maybe"}), r"stages\[0\]\.outcome\.type"),
    ("seat count", lambda d: d["context"]["table"]["seats"].pop(), "lists 5 seats but seat_count is 6"),
    ("empty seat in hand", lambda d: d["context"]["table"]["seats"].__setitem__(0, None), "seat 0 is in the hand"),
    ("not an object", lambda d: d.update(context=[]), "context must be an object"),
]


@pytest.mark.parametrize(("change", "message"), [pytest.param(c, m, id=i) for i, c, m in CORRUPTIONS])
def test_corrupt_snapshots_raise_a_snapshot_error_naming_the_problem(
    saved: dict[str, Any], change: Callable[[dict[str, Any]], None], message: str
) -> None:
    with pytest.raises(SnapshotError, match=message) as info:
        restore(_corrupt(saved, change), no_limit_holdem(1, 2))
    assert isinstance(info.value, CardgameError) and isinstance(info.value, ValueError)


def test_invalid_json_text() -> None:
    with pytest.raises(SnapshotError, match="not valid JSON"):
        loads('{"format": "cardgame-snapshot", ', no_limit_holdem(1, 2))


def test_a_stage_list_of_another_variant_is_refused(saved: dict[str, Any]) -> None:
    stud = pytest.importorskip("variants.stud")
    with pytest.raises(SnapshotError, match="stages but the stage list given has"):
        restore(saved, stud.seven_card_stud())
    wrong_order = list(no_limit_holdem(1, 2))
    wrong_order[2], wrong_order[3] = wrong_order[3], wrong_order[2]
    with pytest.raises(SnapshotError, match="Stage 2 is a BettingRound but the snapshot has a DealHole"):
        restore(saved, wrong_order)


def test_a_used_stage_list_is_refused(saved: dict[str, Any]) -> None:
    game = _holdem()
    game.start()
    with pytest.raises(SnapshotError, match="fresh stage list"):
        restore(saved, list(game.dispatcher.stages))


def test_same_stage_classes_with_other_settings_are_refused(saved: dict[str, Any]) -> None:
    """PLO's stage list has the same classes as hold'em's, but other settings: the snapshot's own
    settings tell them apart, as they tell other blinds apart."""
    with pytest.raises(SnapshotError, match=r"Stage 2 \(DealHole\) was saved with face_up \(False, False\) but "
                                            r"the stage list given has face_up \(False, False, False, False\)"):
        restore(saved, pot_limit_omaha(1, 2))
    with pytest.raises(SnapshotError, match=r"blinds \(1, 2\) but the stage list given has blinds \(5, 10\)"):
        restore(saved, no_limit_holdem(5, 10))
    with pytest.raises(SnapshotError, match=r"structure 'NoLimit\(.* but the stage list given has structure "
                                            r"'FixedLimit\("):
        restore(saved, fixed_limit_holdem())  # blinds 1/2 too
    restore(saved, no_limit_holdem(1, 2))  # the same variant and parameters


def test_a_snapshot_without_settings_restores_on_any_settings(saved: dict[str, Any]) -> None:
    """An older snapshot has no settings, or has them as text (before they were values): configuration
    comes from code, as it did."""
    old = copy.deepcopy(saved)
    for stage in old["stages"]:
        del stage["setting_values"]
    game = restore(old, pot_limit_omaha(1, 2))
    assert game.hand is not None and len(game.hand.players[0].hole) == 2
    for stage in old["stages"]:
        stage["settings"] = {"face_up": "(False, False)"}
    restore(old, pot_limit_omaha(1, 2))


def test_the_settings_are_the_same_data_in_every_process() -> None:
    """Values with a memory address in their repr (a function) are saved by name."""
    import variants

    for v in variants.available():
        for stage in v.build():
            assert " at 0x" not in json.dumps(stage_settings(stage)), (v.name, stage)
    razz = [stage_settings(s) for s in variants.get("FR").build()]
    order = {"type": "code", "name": "cardgame.model.action_order.best_showing_low"}
    assert any(s.get("order") == order for s in razz), razz


def _bomb_pot_example() -> Any:
    """examples/bomb_pot.py, loaded from its file (``examples`` is not a package)."""
    path = Path(__file__).resolve().parents[1] / "examples" / "bomb_pot.py"
    spec = importlib.util.spec_from_file_location("bomb_pot_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BOMB_POT = _bomb_pot_example()
BombPotEvery = BOMB_POT.BombPotEvery


def _bomb_every(blinds: tuple[int, int] = (1, 2), every: int = 5) -> list[Stage]:
    stages: list[Stage] = BOMB_POT.bomb_pot_every(every, 10, blinds)
    return stages


def _in_the_fifth_hand() -> Game:
    game = Game(_bomb_every(), seed=3, max_hands=8)
    for i in range(3):
        game.sit_down(f"p{i}", 500, i)
    game.start()
    while game.ctx.hands_played < 4 or game.to_act is None:
        game.play(calling_station, max_actions=1)
    assert [(e.bet, e.amount) for e in game.events if isinstance(e, ev.ForcedBetPosted)] == [("ante", 10)] * 3
    return game


def test_a_stage_keeping_its_settings_under_other_names_restores_in_its_bomb_pot() -> None:
    """A bomb pot every fifth hand (its stage keeps ``every`` as ``period`` and changes ``blinds``
    as it runs) snapshots and restores in the bomb pot, and both games play on alike."""
    game = _in_the_fifth_hand()
    restored = loads(dumps(game), _bomb_every())
    assert restored.events == game.events and restored.status(reveal=True) == game.status(reveal=True)
    assert snapshot(restored) == snapshot(game)
    for g in (game, restored):
        g.play(random_bot)
    _same(game, restored)
    assert game.ctx.hands_played == 8


@pytest.mark.parametrize(("stages", "message"), [
    (lambda: _bomb_every(every=3), r"Stage 1 \(BombPotEvery\) was saved with period 5 but the stage list given has "
                                    r"period 3: restore with a stage list of the same variant and parameters"),
    (lambda: _bomb_every((5, 10)), r"Stage 1 \(BombPotEvery\) was saved with normal_blinds \(1, 2\) but the stage "
                                    r"list given has normal_blinds \(5, 10\)"),
])
def test_a_changed_setting_of_such_a_stage_is_refused_naming_it(stages: Build, message: str) -> None:
    data = snapshot(_in_the_fifth_hand())
    with pytest.raises(SnapshotError, match=message):
        restore(data, stages())


def test_settings_are_compared_by_value_not_by_text() -> None:
    """Equal settings are equal values; a bool is not the number 1 even where Python says so."""
    assert DealHole(2).settings == DealHole(face_up=[False, False]).settings
    assert hash(DealHole(2).settings) == hash(DealHole(face_up=(False, False)).settings)
    assert BombPotEvery(every=5).settings == Settings(normal_blinds=(1, 2), bomb_ante=10, period=5)
    data = snapshot(_holdem())
    data["stages"][0]["setting_values"]["min_players"] = True  # the fresh list has 2
    with pytest.raises(SnapshotError, match=r"Stage 0 \(WaitForPlayers\) was saved with min_players True but the "
                                            r"stage list given has min_players 2"):
        restore(data, no_limit_holdem(1, 2))



def test_a_rakes_exact_fraction_is_saved_as_a_value_and_a_changed_rake_is_refused() -> None:
    """A ``Rake`` of 10/3 % is a setting JSON cannot hold as a number: it is saved as a record with its
    fraction as text (compared by value, not by its ``repr``), restores, and another rake is refused."""
    rake = Rake(Fraction(10, 3), cap=5)
    showdown = next(s for s in no_limit_holdem(1, 2, rake=rake) if "rake" in s.settings)
    saved = snap.stage_settings(showdown)["rake"]
    assert saved == {"type": "Rake", "percent": "10/3", "cap": 5, "no_flop_no_drop": True, "unit": 1,
                     "cap_by_players": [], "no_drop_until": "board"}
    assert decode_value(saved) == rake
    game = Game(no_limit_holdem(1, 2, rake=rake), seats=3, seed=4)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    data = snapshot(game)
    assert restore(json.loads(json.dumps(data)), no_limit_holdem(1, 2, rake=Rake(Fraction(20, 6), cap=5)))
    with pytest.raises(SnapshotError, match=r"saved with rake 'Rake\(percent=Fraction\(10, 3\).* but the stage "
                                            r"list given has rake 'Rake\(percent=Fraction\(7, 2\)"):
        restore(data, no_limit_holdem(1, 2, rake=Rake(Fraction(7, 2), cap=5)))


@pytest.mark.parametrize("text", ["1/0", "x", "1.5", "1/-2", "9" * 19, ["1"], 3])
def test_a_hostile_saved_fraction_is_refused(text: object) -> None:
    data = {"type": "Rake", "percent": text, "cap": None}
    with pytest.raises(SnapshotError, match="Rake"):
        decode_value(data)

# --- the snapshot keeps every runtime attribute ------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "saved_slots"),
    [
        # _listeners, _hooks: code, not saved; emit, quiet: from _log, _listeners and _hooks; _pin, _trimmed:
        # mark and first_since, _queue, _held, _delivering: within one call; listener_errors: reports
        (Context, {"_delivering", "_hand_starts", "_held", "_hooks", "_listeners", "_log", "_pin", "_queue",
                   "_trimmed", "deck_spec", "emit", "hand", "hands_played", "keep_hands", "listener_errors",
                   "max_hands", "next_deck", "quiet", "rng", "stop_requested", "table", "voidable"}),
        (Hand, {"board", "bring_in", "button", "by_seat", "dead", "deck", "discards", "first_to_act", "killed",
                "last_aggressor", "mucked", "number", "players", "ring",  # ring: from players
                "rounds", "runouts", "street"}),
        # saved by the betting round as its street_record (a StreetRecord); hand and players: from the hand
        (Street, {"bet_size", "bet_to", "big_bet_option", "capped", "full_to", "hand", "largest_raise", "min_raise",
                  "players", "raises", "round_raises", "short_all_ins", "to_act"}),
        (HandPlayer, {"acted_at", "all_in", "bet", "contributed", "face_up", "folded", "hole", "player", "seat"}),
        (Deck, {"_bits", "_cards", "_rng", "dealt", "spec"}),  # _bits: from _rng (set with it)
        # _full: from stages; _holds: from ctx
        (Dispatcher, {"_full", "_holds", "busy", "ctx", "current", "failure", "stack", "stages", "status"}),
        (Stage, {"ctx", "parent", "previous", "state"}),
        (Player, {"name", "seat", "stack", "sitting_out", "leaving", "owes"}),
        (Table, {"seat_count", "min_buy_in", "max_buy_in", "first_button", "button", "seats"}),
        (RandomSource, {"_random", "_streams", "seed"}),
    ],
)
def test_the_snapshot_knows_every_attribute_of_the_runtime_classes(cls: type, saved_slots: set[str]) -> None:
    """A new attribute on one of these classes must be added to cardgame/store/snapshot.py (and here)."""
    slots = set(getattr(cls, "__slots__", ()))
    if attrs.has(cls):
        slots = {a.name for a in attrs.fields(cls)}
    assert slots == saved_slots


# --- every event class round-trips -----------------------------------------------------------------

_AH, _KD = Card("Ah"), Card("Kd")
EVENT_SAMPLES: list[Event] = [
    ev.PlayerSeated(0, "Ann", 100),
    ev.ChipsAdded(0, 50, 150),
    ev.PlayerSatOut(1),
    ev.PlayerSatIn(1),
    ev.PlayerLeft(2, "Bob", 75),
    ev.HandStarted(3, 0, (1, 2, 0), (100, 90, 80)),
    ev.ForcedBetPosted(1, "small blind", 1, False),
    ev.BlindsPlaced(4, None, 2),
    ev.BlindMissed(3, "both"),
    ev.HoleCardsDealt(1, (_AH, None), (True, False)),
    ev.BoardDealt("flop", (_AH, _KD), (_AH, _KD)),
    ev.ActionTaken(2, "raise", 10, 12, True),
    ev.BetReturned(2, 4),
    ev.CardsShown(1, (_AH, _KD), "high card"),
    ev.HandMucked(2),
    ev.PotAwarded(0, 20, (1, 2), (10, 10), "a pair", "high"),
    ev.PotAwarded(0, 20, (1,), (20,), "a pair", "", 1),
    ev.RunsChosen(3, 2),
    ev.RakeTaken(3),
    ev.HandEnded(3, ((0, 100), (1, 95))),
    ev.HandVoided(4, ((0, 100), (1, 95))),
    ev.StageFailed("showdown", "boom"),
    ev.CardsDiscarded(1, (_KD, None)),
    ev.DiscardsReshuffled(7),
]


def test_every_event_class_has_a_sample() -> None:
    classes = {getattr(ev, n) for n in ev.__all__} - {Event}
    assert {type(e) for e in EVENT_SAMPLES} == classes


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_class_round_trips_through_json(event: Event) -> None:
    data = json.loads(json.dumps(encode_event(event)))
    assert data["type"] == type(event).__name__
    assert decode_event(data) == event


def test_a_deck_that_dealt_its_discards_again_restores() -> None:
    """Triple draw: six players drawing five cards three times run the deck out; the discards go
    back and are dealt again, so the deck has dealt more cards than it holds."""
    import variants
    from cardgame.play.bots import calling_station

    variant = variants.get("F2L3D")
    game = Game(variant.build(), seats=6, seed=0, max_hands=1, deck=variant.deck)
    for i in range(6):
        game.sit_down(f"p{i}", 500, i)
    game.start()
    while game.to_act is not None and (game.hand is None or game.hand.deck.dealt <= 52):
        game.play(calling_station, drawer=lambda view: list(view.draw.hole), max_actions=1)
    assert game.hand is not None and game.hand.deck.dealt > 52
    restored = loads(dumps(game), variant.build())
    assert restored.hand is not None and restored.hand.deck.dealt == game.hand.deck.dealt
    _same(game, restored)


# --- every stage's saved fields: present, of their type, consistent; edited snapshots ----------------------


def _kuhn_waiting() -> tuple[dict[str, Any], int]:
    """A two-player Kuhn snapshot with the betting round waiting on a player, and its betting stage's index."""
    game = Game(variants_get("two-player kuhn poker").build(), seed=4, keep_hands=None)
    game.sit_down("a", 56)
    game.sit_down("b", 56)
    game.start()
    game.play(random_bot, max_actions=1)
    data = snapshot(game)
    return data, data["dispatcher"]["current"]


@pytest.mark.parametrize(("change", "message"), [
    pytest.param(lambda f: f.update(street_record=None), r"street_record is null but BettingRound is in state "
                 "'waiting_for_action'", id="null"),
    pytest.param(lambda f: f.pop("street_record"), r"fields has \[\] but BettingRound saves \['street_record'\]",
                 id="removed"),
    pytest.param(lambda f: f.update(street_record=3), r"street_record must be a StreetRecord or null, not 3",
                 id="int"),
    pytest.param(lambda f: f["street_record"].update(to_act=None), "names nobody to act", id="nobody to act"),
])
def test_a_kuhn_snapshot_without_its_betting_street_is_refused(change: Callable[[dict[str, Any]], None],
                                                                message: str) -> None:
    """A betting round restored waiting with no street (its saved field null) was accepted: nobody
    could act again, and the hand never ended."""
    data, current = _kuhn_waiting()
    change(data["stages"][current]["fields"])
    with pytest.raises(SnapshotError, match=message):
        restore(data, variants_get("two-player kuhn poker").build())


def _run_it_twice_omaha() -> list[Stage]:
    return community_card_game(PotLimit(2), hole_cards=4, blinds=blind_levels(1, 2), high=OMAHA_HIGH,
                               run_it_twice=True)


EDITED_VARIANTS: dict[str, tuple[Build, int, Any]] = {
    "NT": (no_limit_holdem, 4, random_bot),
    "F7S": (lambda: variants_get("seven-card stud").build(), 4, random_bot),
    "F2L3D": (lambda: variants_get("2-7 triple draw").build(), 3, random_bot),
    "kuhn": (lambda: variants_get("kuhn poker").build(), 3, random_bot),
    "PO-RIT": (_run_it_twice_omaha, 3, always_all_in),
}


def _paths(x: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and index path in JSON data."""
    items = list(x.items()) if isinstance(x, dict) else list(enumerate(x)) if isinstance(x, list) else []
    return [p for k, v in items for p in ((*path, k), *_paths(v, (*path, k)))]


def _edited(data: dict[str, Any], rng: Any) -> tuple[dict[str, Any], str]:
    """``data`` with one field deleted, duplicated or altered (and what was done)."""
    path = rng.choice(_paths(data))
    d = copy.deepcopy(data)
    parent = d
    for key in path[:-1]:
        parent = parent[key]
    key, value = path[-1], parent[path[-1]]
    how = rng.choice(["delete", "duplicate", "alter", "alter", "alter"])
    if how == "delete":
        del parent[key]
    elif how == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        else:
            parent[key] = value + value[-1:] if isinstance(value, list) else copy.deepcopy(value)
    elif rng.random() < 0.25:
        parent[key] = None
    elif type(value) is int:
        parent[key] = rng.choice([value + 1, value - 1, value + 6, -value, 0, 2 * value, 10**20])
    elif type(value) is bool:
        parent[key] = not value
    elif type(value) is str:
        parent[key] = rng.choice(["", value + "x", "Ah", "fold", "running"])
    elif isinstance(value, list):
        parent[key] = rng.choice([[], value[::-1], value + value[-1:]])
    else:
        parent[key] = rng.choice([0, "x", [], {}])
    return d, f"{how} {'/'.join(map(str, path))}"


@pytest.mark.parametrize("code", list(EDITED_VARIANTS))
def test_an_edited_snapshot_is_refused_or_plays_its_hand_out_keeping_every_chip(code: str) -> None:
    import random

    build, players, bot = EDITED_VARIANTS[code]
    tried = {"refused": 0, "played": 0}
    for seed in range(3):
        game = Game(build(), seed=seed, keep_hands=None)
        for i in range(players):
            game.sit_down(f"p{i}", 60 + 7 * i)
        game.start()
        game.play(bot, max_actions=2 + 2 * seed)
        data = snapshot(game)
        assert game.hand is not None and data["chips"] == game.ctx.total_chips()
        for k in range(50):
            edited, what = _edited(data, random.Random(seed * 100 + k))
            try:
                restored = restore(edited, build())
            except CardgameError as exc:
                assert len(str(exc)) < 400, (what, str(exc))
                tried["refused"] += 1
                continue
            cashed: list[int] = []
            restored.subscribe(lambda e, out=cashed: out.append(e.cashed_out) if isinstance(e, ev.PlayerLeft) else None)
            played = restored.ctx.hands_played
            in_hand = restored.hand is not None
            restored.ctx.max_hands = played + 1
            restored.play(bot, drawer=random_draw)
            if in_hand:
                assert restored.ctx.hands_played == played + 1, (what, "the hand never ended")
            assert restored.ctx.total_chips() + sum(cashed) == data["chips"], what
            tried["played"] += 1
    assert tried["refused"] > 20 and tried["played"] > 20, tried


def test_a_snapshot_restores_onto_the_variant_itself_as_game_takes_it() -> None:
    """``loads(text, variants.get(...))``: the variant is built with its defaults, as ``Game`` builds it;
    anything but a stage list or a variant is the library's error."""
    game = Game(variants_get("kuhn poker"), seed=2)
    for name in ("A", "B", "C"):
        game.sit_down(name, 40)
    game.start()
    again = loads(dumps(game), variants_get("kuhn poker"))
    assert again.status() == game.status()
    with pytest.raises(SnapshotError, match="fresh stage list of its variant, or the variant itself"):
        loads(dumps(game), 5)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [10**5000, {"a": 1, 2: 3}, object(), float("nan"), "x" * 100_000, [[[[]]]] * 3,
                                   {"type": "code", "name": "x" * 100_000}, {"type": "object", "repr": None}],
                         ids=["huge int", "mixed keys", "object", "nan", "long text", "lists", "long code", "object"])
def test_a_hostile_saved_setting_is_refused_with_a_short_snapshot_error(value: object) -> None:
    data = snapshot(_holdem())
    data["stages"][0]["setting_values"]["min_players"] = value
    with pytest.raises(SnapshotError, match=r"min_players") as info:
        restore(data, no_limit_holdem(1, 2))
    assert len(str(info.value)) <= 700
