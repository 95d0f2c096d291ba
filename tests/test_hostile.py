"""Hostile input: the crashes a seeded fuzz of the card, snapshot, store and CLI parsers found, kept as
regression tests, and a bounded, seeded fuzz of each parser.

Every bad input raises the library's own error (:class:`~cardgame.model.errors.CardgameError`), naming what
was wrong and what is allowed, quoting at most a short excerpt of the input; a refused input changes
nothing (the project's bad-input rule; issue 20, "Hostile input").
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import itertools
import json
import math
import os
import random
import re
import sqlite3
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, seed, settings
from hypothesis import strategies as st

import variants
from cardgame.cli import main
from cardgame.engine import Stage
from cardgame.evaluation.equity import equity, hand_strength
from cardgame.model.cards import MAX_CARD_TEXT, Card, parse_card, parse_cards
from cardgame.model.errors import BotError, CardError, CardgameError
from cardgame.model.events import PlayerLeft
from cardgame.model.inputs import EXCERPT_LIMIT
from cardgame.play.bots import random_bot, random_draw
from cardgame.play.game import Game
from cardgame.simulate import Match, simulate
from cardgame.store import EventStore, StoreError, recover, replay_log
from cardgame.store.snapshot import SnapshotError, loads, restore, snapshot
from variants import no_limit_holdem

#: Longest message a bad input may produce: the text of the message (with what is allowed) and an excerpt.
MESSAGE_LIMIT = 600

FUZZ = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- cards ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [None, math.nan, math.inf, 3, 3.5, True, b"Ah", bytearray(b"Ah"), object(), Ellipsis],
    ids=repr,
)
def test_parse_cards_refuses_what_is_neither_a_string_nor_an_iterable(value: Any) -> None:
    """``parse_cards(None)`` and ``parse_cards(float('nan'))`` raised a bare TypeError."""
    with pytest.raises(CardError, match=r"Cards are a string such as 'Ah 7c Td' or an iterable of cards") as info:
        parse_cards(value)
    assert repr(value)[:20] in str(info.value)


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ([None], "A card is a string such as 'Ah' or an index 0 to 51, not None"),
        (["Ah", math.nan], "not nan"),
        ([1.0], "not 1.0"),
        ([True], "not True"),
        ([52], "Card index 52 is out of range"),
        ([["Ah"]], r"not \['Ah'\]"),
        (["Ah Kd"], "Malformed card 'Ah Kd'"),
        (itertools.repeat("Ah"), "More than 52 cards were given"),
        (range(10**18), "More than 52 cards were given"),
    ],
)
def test_parse_cards_refuses_iterables_of_the_wrong_things(value: Any, match: str) -> None:
    with pytest.raises(CardError, match=match) as info:
        parse_cards(value)
    assert len(str(info.value)) < MESSAGE_LIMIT


def test_a_long_card_string_is_refused_before_it_is_read() -> None:
    """A 100,000-character card string took over 2 s and 429 MB, and its error quoted all of it."""
    for text in ("Ah " * 33_334, "x" * 100_000, "10h, " * 20_000):
        start = time.perf_counter()
        with pytest.raises(CardError, match=f"at most {MAX_CARD_TEXT:,} characters") as info:
            parse_cards(text)
        assert time.perf_counter() - start < 0.05
        assert len(str(info.value)) < MESSAGE_LIMIT and f"({len(text):,} characters)" in str(info.value)


def test_a_whole_deck_written_the_longest_way_is_within_the_bound() -> None:
    deck = ", ".join(("10" if c.rank_char == "T" else c.rank_char) + c.suit_char for c in map(Card, range(52)))
    assert len(deck) <= MAX_CARD_TEXT and len(parse_cards(deck)) == 52


@pytest.mark.parametrize("call", [parse_card, Card, parse_cards], ids=lambda f: f.__name__)
def test_card_errors_quote_an_excerpt_not_the_whole_input(call: Any) -> None:
    text = "Zz" + "q" * 20_000
    with pytest.raises(CardError) as info:
        call(text)
    assert len(str(info.value)) < MESSAGE_LIMIT and "q" * (EXCERPT_LIMIT + 1) not in str(info.value)


_CARD_TEXT = st.text(alphabet=st.sampled_from("23456789TJQKA10cdhsCDHS ,\n\t²٥xZ\x00é"), max_size=80)
_ANYTHING = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6) | st.binary(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.tuples(inner) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=10,
)


@seed(20)
@FUZZ
@given(value=_CARD_TEXT | _ANYTHING | st.lists(_CARD_TEXT | st.integers(-3, 60), max_size=60))
def test_fuzz_parse_cards_raises_only_card_errors(value: Any) -> None:
    try:
        cards = parse_cards(value)
    except CardError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT
    else:
        assert len(set(cards)) == len(cards) <= 52 and all(type(c) is Card for c in cards)


# --- snapshots --------------------------------------------------------------------------------------


def _snapshot_game(build: Any = no_limit_holdem, actions: int = 1, seed: int = 7) -> dict[str, Any]:
    game = Game(build(), seats=4, seed=seed, keep_hands=None)
    for i, name in enumerate(("Ann", "Bob", "Cat")):
        game.sit_down(name, 100 + 20 * i, i)
    game.start()
    game.play(random_bot, drawer=random_draw, max_actions=actions)
    return snapshot(game)


@pytest.fixture(scope="module")
def mid_hand() -> dict[str, Any]:
    """No-limit hold'em, three players, the second decision of the first hand pending."""
    return _snapshot_game()


def _stage_state(stages: Sequence[Stage]) -> list[tuple[Any, ...]]:
    """Everything restore may change on a stage list."""
    return [(s.state, s.ctx, s.outcome, s.previous, s.parent,
             tuple(getattr(s, f) for f in type(s).snapshot_fields)) for s in stages]


def refused_snapshot(data: Any, match: str, build: Any = no_limit_holdem) -> SnapshotError:
    """``restore(data)`` raises SnapshotError matching ``match`` and leaves the stage list as it was."""
    stages = build()
    before = _stage_state(stages)
    with pytest.raises(SnapshotError, match=match) as info:
        restore(data, stages)
    assert _stage_state(stages) == before
    assert len(str(info.value)) < MESSAGE_LIMIT
    return info.value


def _edit(data: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    change(out)
    return out


def test_a_stage_index_added_to_the_dispatcher_stack_is_refused(mid_hand: dict[str, Any]) -> None:
    """Found by fuzzing: stage 0 (wait for players) pushed under the running betting round opened a new hand
    mid-hand and threw the pot away (38 chips lost)."""
    data = _edit(mid_hand, lambda d: d["dispatcher"]["stack"].append(0))
    refused_snapshot(data, r"dispatcher\.stack .* is not what running the stages leaves")


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["dispatcher"]["stack"].__setitem__(0, 4),  # an earlier stage in place of the last
        lambda d: d["dispatcher"]["stack"].pop(),  # the next stage skipped
        lambda d: d["dispatcher"].update(current=5),  # a later betting round current
    ],
    ids=["swapped", "skipped", "current moved"],
)
def test_a_dispatcher_stack_out_of_order_is_refused(mid_hand: dict[str, Any], change: Any) -> None:
    refused_snapshot(_edit(mid_hand, change), r"dispatcher\.stack|was not started")


def test_a_parent_outside_the_current_chain_is_refused(mid_hand: dict[str, Any]) -> None:
    """Found by fuzzing: a parent link on a finished stage failed the game ("pushed a sub-stage but does not
    take its result") on the next action."""
    data = _edit(mid_hand, lambda d: d["stages"][2].update(parent=1))
    refused_snapshot(data, r"have a parent but only the current stage's chain")
    data = _edit(mid_hand, lambda d: d["stages"][3].update(parent=3))
    refused_snapshot(data, r"loop of sub-stages|pushes no sub-stage")


def test_a_current_stage_in_its_final_state_is_refused(mid_hand: dict[str, Any]) -> None:
    """Found by fuzzing: the running betting round saved as done raised MachineError on the next action."""
    data = _edit(mid_hand, lambda d: d["stages"][3].update(state="round_closed"))
    refused_snapshot(data, r"in its final state 'round_closed'")


def test_a_detached_copy_of_a_seated_player_is_refused(mid_hand: dict[str, Any]) -> None:
    """A hand player saved as detached while seated: its stack was outside the chip count, so a copy with
    10,000 chips restored and paid out chips nobody brought."""

    def change(d: dict[str, Any]) -> None:
        hp = d["context"]["hand"]["players"][0]
        player = d["context"]["table"]["seats"][hp["seat"]]
        hp["detached_player"] = {**player, "stack": 10_000}

    refused_snapshot(_edit(mid_hand, change), r"detached_player: '\w+' is seated at the table")


def test_chips_moved_between_stack_and_claimed_total_disagree_with_the_log(mid_hand: dict[str, Any]) -> None:
    """Raising a stack and the claimed total together passed the old total check; the log's
    HandStarted says what the hand's players started with."""

    def change(d: dict[str, Any]) -> None:
        d["context"]["table"]["seats"][1]["stack"] += 500
        d["chips"] += 500

    refused_snapshot(_edit(mid_hand, change), r"The chips of hand #1 do not add up: its players started with 360")


def test_chips_between_hands_disagree_with_the_ledger() -> None:
    game = Game(no_limit_holdem(1, 2), seats=4, seed=3, max_hands=1, keep_hands=None)
    for name in ("Ann", "Bob"):
        game.sit_down(name, 100)
    game.start()
    game.play(random_bot)
    data = snapshot(game)
    assert data["context"]["hand"] is None and data["dispatcher"]["status"] == "exited"

    def change(d: dict[str, Any]) -> None:
        d["context"]["table"]["seats"][1]["stack"] += 50
        d["chips"] += 50

    refused_snapshot(_edit(data, change), r"Seat 1 has \d+ chips but the log's ledger")


def test_a_hand_with_one_player_left_waiting_for_an_action_is_refused(mid_hand: dict[str, Any]) -> None:
    """Found by fuzzing: with every other player folded the last one was still asked to act, folded too,
    and nobody won the pot (38 chips lost)."""

    def change(d: dict[str, Any]) -> None:
        hand = d["context"]["hand"]
        to_act = d["stages"][d["dispatcher"]["current"]]["fields"]["street_record"]["to_act"]
        for hp in hand["players"]:
            hp["folded"] = hp["seat"] != to_act

    refused_snapshot(_edit(mid_hand, change), r"is asked to act but is not a live player facing another")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d["context"]["rng"]["state"][1].__setitem__(5, 2**40), "each word must be 0 to 2"),
        (lambda d: d["context"]["rng"]["state"][1].__setitem__(624, 700), "position 0 to 624"),
        (lambda d: d["context"]["rng"]["state"][1].pop(), r"624 words and a position"),
        (lambda d: d["context"]["rng"].update(state=[3, "x", None]), r"624 words and a position"),
        (lambda d: d["context"]["rng"]["state"].__setitem__(2, "gauss"), r"cached Gaussian"),
        (lambda d: d["context"]["hand"]["deck"].update(rng={"seed": 1, "state": [2]}), r"deck\.rng\.state"),
        (lambda d: d["context"]["rng"].update(seed=10**50), r"seed must be at most"),
    ],
    ids=["word", "position", "short", "not a list", "gauss", "detached deck rng", "seed"],
)
def test_a_random_state_of_the_wrong_shape_is_refused(mid_hand: dict[str, Any], change: Any, match: str) -> None:
    refused_snapshot(_edit(mid_hand, change), match)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d.update(chips=10**30), r"chips must be at most 999999999999999999"),
        (lambda d: d["context"]["table"].update(seat_count=2**59), r"lists 4 seats but seat_count is"),
        (lambda d: d["context"]["table"].update(seat_count=2**62), r"seat_count must be at most"),
        (lambda d: d["context"]["hand"]["players"][0].update(bet=-(10**4000)), r"bet must be at least 0, not a whole "
         r"number of about 4,000 digits"),
        (lambda d: d["context"]["hand"].update(number=5), r"hand\.number is 5 but 0 hands were played"),
        (lambda d: d["context"]["hand"]["board"].append("Ah" * 10_000), r"Malformed card 'AhAh"),
        (lambda d: d["context"]["hand"].update(mucked=[9]), r"mucked \[9\] names a seat that is not in the hand"),
        (lambda d: d["context"]["hand"]["deck"].update(spec={"ranks": "AKQJT", "suits": "cdhs"}),
         r"is not in the deck"),
        (lambda d: d["context"]["log"][0].update(type="x" * 10_000), r"unknown record type 'xxxx"),
        (lambda d: d["context"].update(hand_starts=[0, 10**6]), r"hand_starts\[1\] must be at most"),
        (lambda d: d["stages"][0].update(previous={"type": "tuple", "items": []}), r"WaitForPlayers takes"),
        (lambda d: d["context"]["log"].append({"type": "HoleCardsDealt", "seat": 0, "cards": ["Ah", "Kd"],
                                                "face_up": [True]}), r"HoleCardsDealt does not hold together"),
        (lambda d: d["stages"][2].update(outcome={"type": "done", "result": math.nan}), r"nan is not a finite number"),
        (lambda d: d["stages"][2].update(previous=[10**40]), r"has more than 18 digits"),
    ],
    ids=["chips", "seat count", "seat count 2**62", "huge negative", "hand number", "long card", "mucked", "deck spec",
         "long tag", "hand starts", "previous type", "event", "nan", "huge value"],
)
def test_hostile_values_in_a_snapshot_are_refused(mid_hand: dict[str, Any], change: Any, match: str) -> None:
    """Huge numbers (a seat count of 2**62 made a MemoryError), long text quoted whole, values the game
    cannot hold."""
    refused_snapshot(_edit(mid_hand, change), match)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests more than 100 levels deep"),
        ('{"a":' * 150 + "1" + "}" * 150, "nests more than 100 levels deep"),
        ("[]", "must be an object, not a list"),
        ("3", "must be an object, not a number"),
        ("null", "must be an object, not null"),
        ('"cardgame-snapshot"', "must be an object"),
        ('{"format": NaN}', "NaN is not a JSON number"),
        ('{"chips": ' + "9" * 5000 + "}", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        ("", "not valid JSON"),
    ],
    ids=["deep lists", "deep objects", "list", "number", "null", "string", "nan", "5000 digits", "bytes", "empty"],
)
def test_hostile_snapshot_text_is_refused(text: str | bytes, match: str) -> None:
    """Deep nesting raised RecursionError in the loader; other JSON that is not an object, a TypeError."""
    stages = no_limit_holdem(1, 2)
    before = _stage_state(stages)
    with pytest.raises(SnapshotError, match=match) as info:
        loads(text, stages)
    assert _stage_state(stages) == before and len(str(info.value)) < MESSAGE_LIMIT


def test_deeply_nested_data_given_to_restore_is_refused(mid_hand: dict[str, Any]) -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    refused_snapshot(_edit(mid_hand, lambda d: d["stages"][0].update(previous=deep)), "nests more than 100 levels")
    loop: list[Any] = []
    loop.append(loop)
    refused_snapshot(_edit(mid_hand, lambda d: d["stages"][0].update(previous=loop)), "nests more than 100 levels")


def test_snapshot_text_over_the_size_limit_is_refused_before_it_is_parsed(mid_hand: dict[str, Any]) -> None:
    text = json.dumps(mid_hand)
    with pytest.raises(SnapshotError, match=f"has {len(text):,} characters; at most 1,000 are read"):
        loads(text, no_limit_holdem(1, 2), max_size=1_000)
    assert loads(text, no_limit_holdem(1, 2)).ctx.total_chips() == mid_hand["chips"]
    for value in (None, 3, ["{}"]):
        with pytest.raises(SnapshotError, match="A snapshot is JSON text"):
            loads(value, no_limit_holdem(1, 2))  # type: ignore[arg-type]


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in ``data`` (objects and lists included)."""
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _leaves(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _leaves(v, (*path, i))
    return out


_HOSTILE_VALUES = st.sampled_from([None, True, False, -1, 0, 1, 2, 3, 2**62, 10**30, -(10**30), 1.5, math.nan, "",
                                   "x", "Ah", "context", "done", [], {}, [1], {"type": "card", "value": "Ah"}])


@functools.cache
def _fuzz_bases() -> tuple[tuple[str, dict[str, Any]], ...]:
    """Real snapshots: three variants, in a hand at a few points, and between hands."""
    out = []
    for code, actions in (("NT", 0), ("NT", 3), ("NT", 40), ("PO", 5), ("F7S", 4), ("F2L3D", 6)):
        variant = variants.get(code)
        out.append((code, _snapshot_game(variant.build, actions, seed=actions)))
    return tuple(out)


def _apply_mutation(data: dict[str, Any], draw: st.DataObject) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for _ in range(draw.draw(st.integers(1, 3), "edits")):
        paths = [p for p in _leaves(out) if p]
        path = draw.draw(st.sampled_from(paths), "path")
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        old = parent[path[-1]]
        how = draw.draw(st.sampled_from(["value", "nudge", "copy", "drop"]), "how")
        if how == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
            continue
        if how == "nudge" and type(old) is int:
            new = old + draw.draw(st.sampled_from([-100, -5, -1, 1, 5, 100]), "nudge")
        elif how == "copy":
            other = draw.draw(st.sampled_from(paths), "from")
            new = out
            for key in other:
                new = new[key]
            new = copy.deepcopy(new)
        else:
            new = draw.draw(_HOSTILE_VALUES, "value")
        parent[path[-1]] = new
    return out


@seed(20)
@FUZZ
@given(base=st.integers(0, 5), draw=st.data())
def test_fuzz_restore_refuses_with_snapshot_error_or_restores_a_game_that_conserves_chips(
    base: int, draw: st.DataObject
) -> None:
    code, data = _fuzz_bases()[base]
    build = variants.get(code).build
    mutated = _apply_mutation(data, draw)
    stages = build()
    before = _stage_state(stages)
    try:
        game = restore(mutated, stages)
    except SnapshotError as exc:
        event("refused")
        assert _stage_state(stages) == before
        assert len(str(exc)) < MESSAGE_LIMIT
        return
    event("restored")
    # accepted: the chips are all there, and stay there while bots play on
    chips = mutated["chips"]
    left: list[int] = []
    game.subscribe(lambda e: left.append(e.cashed_out) if isinstance(e, PlayerLeft) else None)
    assert game.ctx.total_chips() == chips
    if game.status_name == "new":
        game.start()
    for _ in range(40):
        if game.status_name != "running" or game.to_act is None:
            break
        try:
            game.play(random_bot, drawer=random_draw, max_actions=1)
        except BotError:
            break  # a bot answered what a hand the edit made odd does not allow: refused, nothing changed
        assert game.ctx.total_chips() + sum(left) == chips
    assert game.status_name != "failed"


# --- the SQLite store -------------------------------------------------------------------------------


def _record_store(path: Path) -> None:
    """A store of two tables: "done" played three hands to the end, "crashed" stopped mid-hand."""
    with EventStore(path, synchronous="NORMAL") as store:
        game = Game(no_limit_holdem(1, 2), seats=4, seed=1, max_hands=3)
        for name in ("Ann", "Bob", "Cat"):
            game.sit_down(name, 100)
        recorder = store.record(game, "done", phh_writer=None)
        game.start()
        game.play(random_bot)
        recorder.detach()
        game = Game(no_limit_holdem(1, 2), seats=3, seed=2)
        for name in ("Dan", "Eve"):
            game.sit_down(name, 100)
        recorder = store.record(game, "crashed", phh_writer=None)
        game.start()
        game.play(random_bot, max_actions=2)  # the process "dies" here: hand #1 never ends
        recorder.detach()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # one file: copies of it are whole stores
    db.close()


@functools.cache
def _base_store() -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "base.db"
        _record_store(path)
        return path.read_bytes()


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "tables.db"
    path.write_bytes(_base_store())
    return path


def _edit_store(path: Path, sql: str, *params: Any) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, params)
    db.commit()
    db.close()


def _dump(path: Path) -> list[Any]:
    """Every row of every table of the store (text as bytes: a corrupt row may not be UTF-8)."""
    db = sqlite3.connect(path)
    db.text_factory = bytes
    try:
        return [sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in _STORE_COLUMNS]
    finally:
        db.close()


def _reads(store: EventStore) -> list[Any]:
    """Every way of reading a store back."""
    out: list[Any] = []
    for table_id in ("done", "crashed"):
        out += [lambda t=table_id: store.table(t), lambda t=table_id: store.hands(t),
                lambda t=table_id: store.events(t), lambda t=table_id: store.hand_events(t, 1),
                lambda t=table_id: store.export_jsonl(io.StringIO(), t)]
    return [store.tables, lambda: store.hands(player="Ann"), *out]


def refused_store(path: Path, match: str, *, recovering: str = "crashed") -> None:
    """Some read of the store at ``path`` raises StoreError matching ``match``; nothing escapes that is not
    a StoreError; ``recover`` fails cleanly (the file unchanged) or voids the interrupted hand."""
    messages = []
    with EventStore(path) as store:
        for read in _reads(store):
            try:
                read()
            except StoreError as exc:
                messages.append(str(exc))
                assert len(str(exc)) < MESSAGE_LIMIT
        before = _dump(path)
        try:
            recover(store, recovering, no_limit_holdem(1, 2), seed=1)
        except StoreError as exc:
            messages.append(str(exc))
            assert _dump(path) == before  # never half-applied
    assert any(re.search(match, m) for m in messages), messages


def test_a_payload_that_is_not_utf8_names_its_row(store_file: Path) -> None:
    """Found by fuzzing: a payload of bytes that are not UTF-8 raised UnicodeDecodeError from the cursor."""
    _edit_store(store_file, "UPDATE events SET payload = CAST(? AS TEXT) WHERE table_id = 'done' AND seq = 3", b"\xc3(")
    refused_store(store_file, r"The events row \(table 'done', seq 3\) is corrupt: payload must be text of at most "
                              r"1,000,000 characters, not bytes that are not UTF-8 text")


def test_a_payload_stored_as_a_blob_cannot_be_exported(store_file: Path) -> None:
    """Found by fuzzing: export_jsonl raised TypeError ("bytes is not JSON serializable")."""
    _edit_store(store_file, "UPDATE events SET kind = ? WHERE table_id = 'done' AND seq = 0", b"")
    refused_store(store_file, r"The events row \(table 'done', seq 0\) is corrupt: kind must be text")


def test_a_seat_count_of_2_to_the_62_is_refused(store_file: Path) -> None:
    """Found by fuzzing: recover built a table of 2**62 seats (MemoryError)."""
    _edit_store(store_file, "UPDATE tables SET seat_count = ? WHERE table_id = 'crashed'", 2**62)
    refused_store(store_file, r"The tables row \(table 'crashed'\) is corrupt: seat_count must be a whole number from "
                              r"2 to 1,000, not 4611686018427387904")


def test_a_sequence_number_that_is_text_is_refused(store_file: Path) -> None:
    """A seq edited to text made ``max(seq) + 1`` a TypeError when recovery continued the log."""
    _edit_store(store_file, "UPDATE events SET seq = 'x' WHERE table_id = 'crashed' AND seq = 2")
    refused_store(store_file, r"(events rows of table 'crashed' are corrupt: a seq is 'x')|(seq must be a whole)")


@pytest.mark.parametrize(
    ("sql", "match"),
    [
        ("UPDATE tables SET min_buy_in = 0", r"min_buy_in must be a whole number from 1"),
        ("UPDATE tables SET created = 'yesterday'", r"created must be a time in seconds"),
        ("UPDATE tables SET first_button = 7 WHERE table_id = 'crashed'", r"first_button must be a whole number "
         r"from 0 to 2 or null"),
        ("UPDATE hands SET players = '[[0,\"Ann\",100],[0,\"Bob\",5]]' WHERE hand = 1", r"players must list each seat"),
        ("UPDATE hands SET players = '" + "[" * 5000 + "'", r"nests more than 100 levels deep"),
        ("UPDATE hands SET final_stacks = '[[0, " + "9" * 5000 + "]]'", r"is corrupt"),
        ("UPDATE hands SET started = 1e999", r"started must be a time in seconds"),
        ("UPDATE events SET payload = '{\"type\":\"HandStarted\",\"hand\":1,\"button\":0,\"seats\":[0,1],"
         "\"stacks\":[100]}' WHERE table_id = 'crashed' AND kind = 'hand started'",
         r"hand #1 starts with seats \(0, 1\) and stacks \(100,\)"),
        ("UPDATE events SET payload = '{\"type\":\"PlayerSeated\",\"seat\":0,\"name\":\"Dan\",\"stack\":-5}' "
         "WHERE table_id = 'crashed' AND seq = 0", r"a TableState|negative stack|kind is 'table state'"),
        ("UPDATE events SET hand = -3 WHERE seq = 4", r"hand must be a whole number from 1"),
        ("UPDATE events SET seat = 5000 WHERE seq = 4", r"seat must be a whole number from 0 to 999 or null"),
    ],
    ids=["min buy-in", "created", "first button", "seat twice", "deep json", "5000 digits", "infinite time",
         "stacks short", "negative stack", "hand", "seat"],
)
def test_edited_rows_are_refused_naming_the_row(store_file: Path, sql: str, match: str) -> None:
    _edit_store(store_file, sql)
    refused_store(store_file, match)


def test_chips_created_by_an_edited_hand_end_are_refused_and_recover_changes_nothing(store_file: Path) -> None:
    """A HandEnded edited to give a player 1,000 more chips: replay gave them to the player."""
    db = sqlite3.connect(store_file)
    seq, payload = db.execute("SELECT seq, payload FROM events WHERE table_id = 'done' AND kind = 'hand ended' "
                              "ORDER BY seq").fetchone()
    data = json.loads(payload)
    data["stacks"][0][1] += 1000
    db.execute("UPDATE events SET payload = ? WHERE table_id = 'done' AND seq = ?", (json.dumps(data), seq))
    db.commit()
    db.close()
    refused_store(store_file, r"hand #1's players started with 300 chips and end with 1300", recovering="done")


def test_random_bytes_in_the_file_give_store_errors(tmp_path: Path) -> None:
    """Found by fuzzing: bytes flipped in a store file raised UnicodeDecodeError (an SQLite message in
    another encoding) when it was opened or read."""
    base = _base_store()
    rng = random.Random(20)
    for k in range(40):
        data = bytearray(base)
        for _ in range(rng.randint(1, 30)):
            data[rng.randrange(100, len(data))] = rng.randrange(256)
        path = tmp_path / f"flipped{k}.db"
        path.write_bytes(bytes(data))
        try:
            with EventStore(path) as store:
                for read in _reads(store):
                    with contextlib.suppress(StoreError):
                        read()
                with contextlib.suppress(StoreError):
                    recover(store, "crashed", no_limit_holdem(1, 2))
        except StoreError as exc:
            assert len(str(exc)) < MESSAGE_LIMIT
    noise = tmp_path / "noise.db"
    noise.write_bytes(random.Random(1).randbytes(8192))
    with pytest.raises(StoreError, match="is not a readable event store"):
        EventStore(noise)


_STORE_COLUMNS = {
    "tables": ("table_id", "created", "seat_count", "min_buy_in", "max_buy_in", "first_button"),
    "events": ("table_id", "seq", "hand", "time", "kind", "seat", "payload"),
    "hands": ("table_id", "hand", "started", "ended", "status", "players", "final_stacks", "phh"),
    "hand_players": ("table_id", "hand", "seat", "name"),
}
_STORE_VALUES = st.sampled_from([None, 0, -1, 1, 2, 7, 2**62, -(2**63), 1.5, math.inf, "", "x", "done", "crashed",
                                 b"\xc3(", b"", "[]", "{}", "null", "[[0,\"Ann\",100]]", "[" * 3000, "9" * 5000,
                                 '{"type":"PlayerSeated","seat":2,"name":"Zed","stack":99999}',
                                 '{"type":"HandEnded","hand":1,"stacks":[[0,500]]}'])


@seed(20)
@settings(FUZZ, max_examples=120)
@given(edits=st.lists(st.tuples(st.sampled_from(sorted(_STORE_COLUMNS)), st.integers(0, 7), st.integers(0, 200),
                                _STORE_VALUES), min_size=1, max_size=2))
def test_fuzz_store_rows_raise_only_store_errors_and_recover_never_half_applies(
    edits: list[tuple[str, int, int, Any]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzzed.db"
        path.write_bytes(_base_store())
        db = sqlite3.connect(path)
        for table, column, row, value in edits:
            name = _STORE_COLUMNS[table][column % len(_STORE_COLUMNS[table])]
            rowids = [r for (r,) in db.execute(f"SELECT rowid FROM {table}")] if table != "events" else \
                [r for (r,) in db.execute("SELECT seq FROM events")]
            where = "seq = ?" if table == "events" else "rowid = ?"
            with contextlib.suppress(sqlite3.Error):  # a constraint refused the edit
                db.execute(f"UPDATE {table} SET {name} = ? WHERE {where}", (value, rowids[row % len(rowids)]))
        db.commit()
        db.close()
        with EventStore(path) as store:
            for read in _reads(store):
                with contextlib.suppress(StoreError):
                    read()
            for table_id in ("crashed", "done"):
                before = _dump(path)
                try:
                    game = recover(store, table_id, no_limit_holdem(1, 2), seed=1)
                except StoreError:
                    assert _dump(path) == before
                    continue
                log = replay_log(e.event for e in store.events(table_id))
                assert game.ctx.total_chips() == sum(s.stack for s in log.seats)
                assert all(p.stack >= 0 for p in game.table.players())


# --- the command line ---------------------------------------------------------------------------------


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """``cardgame argv`` in this process, in a folder of its own (``--json 3`` writes a file ``3``):
    (status, stdout, stderr); argparse's exit is a status too."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


def refused_cli(argv: list[str], match: str) -> None:
    """``argv`` fails at once with status 2 and one short line on stderr matching ``match``."""
    start = time.perf_counter()
    status, _out, err = _cli(argv)
    assert status == 2 and err.count("\n") == 1 and len(err) < MESSAGE_LIMIT, err
    assert re.search(match, err), err
    assert time.perf_counter() - start < 5


HUGE = str(10**30)


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        # found by fuzzing: OverflowError ("cannot fit 'int' into an index-sized integer")
        (["simulate", "--hands", HUGE], r"--hands: The number of hands must be a whole number from 1 to"),
        (["simulate", "--hands", "1000000001"], r"--hands: The number of hands 1000000001 is out of range; allowed is "
                                                r"at least 1 and at most 1000000000"),
        # found by fuzzing: OverflowError in multiprocessing ("Python int too large to convert to C int")
        (["simulate", "--workers", "10000000000000000000"], r"--workers: The number of workers must be a whole"),
        (["simulate", "--workers", "1025"], r"--workers: The number of workers 1025 is out of range"),
        # found by fuzzing: ran on with no bound
        (["equity", "AhKh", "QsQd", "--samples", HUGE], r"--samples: The number of samples must be a whole number"),
        (["equity", "AhKh", "QsQd", "--samples", "100000001"], r"samples 100000001 is out of range"),
        # Unicode digits: str.isdigit and int() take them for numbers
        (["acpc", "client", "kuhn", "127.0.0.1", "²"], r"argument port: The port must be a whole number"),
        (["acpc", "client", "kuhn", "127.0.0.1", "٥"], r"argument port: The port must be a whole number .* not '٥'"),
        (["acpc", "client", "kuhn", "127.0.0.1", "65536"], r"The port 65536 is out of range"),
        (["acpc", "dealer", "kuhn", "--hands", "1", "--seed", "1", "--ports", "1,²"], r"--ports: The port must be"),
        (["acpc", "dealer", "kuhn", "--hands", "1", "--seed", str(2**32)], r"--seed: The seed 4294967296 is out of "
                                                                          r"range"),
        (["acpc", "dealer", "kuhn", "--hands", "1", "--seed", "1", "--timeout-ms", "٣"], r"--timeout-ms: The time-out "
                                                                                       r"must be"),
        (["demo", "--seats", "٥"], r"--seats: The number of seats must be a whole number"),
        (["demo", "--hands", "₅"], r"--hands: The number of hands must be"),
        (["demo", "--hands", "100001"], r"--hands: The number of hands 100001 is out of range"),
        (["demo", "--stack", str(10**12 + 1)], r"--stack: The stack 1000000000001 is out of range"),
        (["demo", "--seed", "9" * 5000], r"--seed: The seed must be a whole number .*\(5,000 characters\)"),
        (["demo", "--seed", "nan"], r"--seed: The seed must be a whole number"),
        (["demo", "--seed", str(2**128)], r"--seed: The seed 340282366920938463463374607431768211456 is out of range"),
        (["equity", "AhKh", "QsQd", "--seed", "inf"], r"--seed: The seed must be a whole number"),
        (["demo", "--variant", "x" * 20_000], r"Unknown variant 'xxxx.*\(20,000 characters\)"),
        (["equity", "Ah" * 50_000, "QsQd"], r"A range string may have at most 20,000 characters"),
        (["equity", "AhKh", "QsQd", "--game", "x" * 20_000], r"invalid choice: 'xxxx.*characters\)"),
        # bad paths are refused before the run, not after it
        (["simulate", "--hands", "10", "--json", "/no/such/folder/out.json"], r"--json: cannot write the file"),
        (["simulate", "--hands", "10", "--plot", "/"], r"--plot: cannot write the file '/'"),
        (["acpc", "dealer", "kuhn", "--hands", "1", "--seed", "1", "--log", ""], r"--log: cannot write the file ''"),
    ],
    ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else None,
)
def test_hostile_command_lines_fail_at_once_with_one_line(argv: list[str], match: str) -> None:
    refused_cli(argv, match)


def test_a_seed_a_run_printed_is_accepted_back() -> None:
    """RandomSource() draws 64-bit seeds, which the demo prints: any of them can be given back."""
    status, out, _err = _cli(["demo", "--json", "--hands", "1", "--seed", str(2**128 - 1)])
    assert status == 0 and json.loads(out)["seed"] == 2**128 - 1


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: equity(["AhKh", "QsQd"], samples=10**30), r"samples must be a whole number from 1 to 100,000,000"),
        (lambda: equity(["AhKh", "QsQd"], samples=1.5), r"samples must be a whole number"),
        (lambda: equity(["AhKh", "QsQd"], seed=-1), r"seed must be None or a whole number"),
        (lambda: equity(["AhKh", "QsQd"], exact="yes"), r"exact must be True, False or None"),
        (lambda: equity("AhKh QsQd"), r"hands must be a list of hands"),
        (lambda: equity(iter(["AhKh", "QsQd"])), r"hands must be a list of hands"),
        (lambda: equity(["AhKh", None]), r"Cards are a string such as 'Ah 7c Td'"),
        (lambda: equity(["AhKh", "QsQd"], game="x" * 10_000), r"game must be one of holdem, .*, not 'xxx"),
        (lambda: hand_strength("AhKh", samples=10**30), r"samples must be a whole number"),
        (lambda: hand_strength("AhKh", opponents=2.5), r"opponents must be 1 to 9"),
        (lambda: hand_strength("AhKh", weakest=None), r"weakest must be two ranks"),
        (lambda: Match("NT", ("random", "random"), hands=10**30), r"hands must be a whole number from 1 to"),
        (lambda: Match("NT", ("random", "random"), hands=10, seed=-1),
         r"seed must be a whole number of at least 0 and below 2\*\*128"),
        (lambda: simulate(Match("NT", ("random", "random"), hands=10), workers=10**19),
         r"workers must be a whole number from 1 to 1,024"),
    ],
    ids=["samples", "float samples", "seed", "exact", "hands text", "hands iterator", "hand None", "game",
         "strength samples", "opponents", "weakest", "match hands", "match seed", "workers"],
)
def test_the_entry_points_behind_the_command_line_refuse_hostile_values(call: Any, match: str) -> None:
    """``equity(seed=-1)`` raised numpy's ValueError; ``samples=10**30`` ran on; the others raised
    OverflowError or TypeError."""
    start = time.perf_counter()
    with pytest.raises(CardgameError, match=match) as info:
        call()
    assert len(str(info.value)) < MESSAGE_LIMIT and time.perf_counter() - start < 2


#: A real hand history (tests/data/phh: see its README) for ``cardgame replay``.
PHH_FILE = Path(__file__).parent / "data" / "phh" / "dwan-ivey-2009.phh"
_CLI_VALUES = st.sampled_from(["-1", "0", "1", "2", "3", "+2", "²", "٥", "₅", "1e3", "nan", "inf", "-inf", "", " 5",
                               "0x10", HUGE, "9" * 5000, "x" * 500, "1.5", "/", "/no/such/dir/f", "AhKh", "None"])
_CLI_COMMANDS = {
    "demo": ["--variant", "--seats", "--hands", "--seed", "--stack"],
    "equity": ["--board", "--game", "--samples", "--seed"],
    "simulate": ["--variant", "--bots", "--hands", "--seed", "--stack", "--workers", "--json", "--plot"],
    "acpc client": ["--bot", "--seed"],
    "play": ["--variant", "--seats", "--bots", "--seed", "--stack", "--time", "--resume", "--save", "--phh"],
    "replay": ["--hand", "--seat"],
    "diagram": ["--stage", "--output"],
}


@seed(20)
@settings(FUZZ, max_examples=80)
@given(command=st.sampled_from(sorted(_CLI_COMMANDS)), draw=st.data())
def test_fuzz_command_lines_end_with_a_status_never_a_traceback(command: str, draw: st.DataObject) -> None:
    argv = command.split()
    if command == "equity":
        argv += [draw.draw(st.sampled_from(["AhKh", "AhAd", "²", "x" * 500, ""])), "QsQd"]
    if command == "acpc client":
        argv += ["kuhn", "127.0.0.1", draw.draw(_CLI_VALUES, "port")]
    if command == "replay":
        argv += [draw.draw(st.sampled_from([str(PHH_FILE), "/", "/no/such/file.phh", "x" * 500, ""]), "file"),
                 "--print"]
    if command == "diagram":
        argv += [draw.draw(st.sampled_from(["NT", "F7S", "x" * 500, "", "²"]), "variant"),
                 "--format", draw.draw(st.sampled_from(["mermaid", "dot", "svg", "png", "x"]), "format")]
    for option in draw.draw(st.lists(st.sampled_from(_CLI_COMMANDS[command]), max_size=3, unique=True), "options"):
        argv += [option, draw.draw(_CLI_VALUES, option)]
    if command == "simulate":
        argv += ["--backend", "serial"]  # no processes: workers only bound the run
    if command in ("demo", "simulate") and "--hands" not in argv:
        argv += ["--hands", "2"]
    with open(os.devnull) as nothing, mock.patch("sys.stdin", nothing):  # play: input ends at once (quit)
        status, _out, err = _cli(argv)
    assert status in (0, 1, 2), (argv, status, err)
    if status == 2:
        assert err.count("\n") == 1 and len(err) < MESSAGE_LIMIT and "Traceback" not in err, (argv, err)
