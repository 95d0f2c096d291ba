"""The events' encodings the store's rows and the server's views share (:func:`encoded`,
:func:`encoded_json`): made by a plan of each event class's fields, they must be exactly what
:func:`encode_record` makes, key order included, for every event every variant emits."""

from __future__ import annotations

import random

import pytest

import variants
from cardgame.model.cards import Card
from cardgame.model.events import ActionTaken, Event, HoleCardsDealt
from cardgame.play import bots
from cardgame.play.bot import HandEvents, decide
from cardgame.play.game import Game
from cardgame.play.shape import game_shape
from cardgame.store.serialize import encode_record, encoded, encoded_json, records, to_compact_json


def played(name: str) -> list[Event]:
    variant = variants.get(name)
    seats = min(3, variant.max_players)
    game = Game(variant, seats=seats, min_buy_in=40, max_buy_in=200, seed=3)
    events: list[Event] = []
    game.hook(events.append)
    for s in range(seats):
        game.sit_down(f"p{s} é", 100, s)
    game.start()
    rng, bot, seen = random.Random(1), bots.get("random"), HandEvents()
    shape = game_shape(game.dispatcher.stages, game.ctx.deck_spec, variant.name)
    for _ in range(200):
        if game.to_act is None or game.dispatcher.status != "running":
            break
        decide(game, game.to_act, bot, rng, shape=shape, events=seen)
    return events


@pytest.mark.parametrize("name", [v.name for v in variants.available()])
def test_every_event_is_encoded_as_encode_record_encodes_it(name: str) -> None:
    events = played(name)
    assert len(events) > 20
    for event in events:
        for shown in {event, event.seen_by(0), event.seen_by(None)}:
            records._ENCODED.clear()
            data, expected = encoded(shown), encode_record(shown)
            assert data == expected and list(data) == list(expected)
            assert encoded_json(shown) == to_compact_json(expected)
    assert all(records._PLAIN.get(type(e)) is not None for e in events)  # the plans were used


def test_a_value_not_of_its_fields_declared_kind_is_encoded_the_general_way() -> None:
    odd = [ActionTaken(0, "call", Card(3), 10), ActionTaken(0, "call", 2, 10, all_in=1),  # type: ignore[arg-type]
           HoleCardsDealt(1, [Card(0), None], ()), HoleCardsDealt(1, (0, 1), ())]  # type: ignore[arg-type]
    for event in odd:
        records._ENCODED.clear()
        assert encoded(event) == encode_record(event)
        assert encoded_json(event) == to_compact_json(encode_record(event))


@pytest.mark.parametrize("name", ["no-limit hold'em", "seven-card stud", "2-7 triple draw", "courchevel"])
def test_the_text_of_an_event_is_written_directly_as_to_compact_json_writes_its_data(name: str) -> None:
    events = played(name)
    for event in events:
        for shown in {event, event.seen_by(0), event.seen_by(None)}:
            records._ENCODED.clear()
            text = encoded_json(shown)  # first: written by the class's writer, without the data
            assert records._ENCODED[id(shown)][1] is None
            assert text == to_compact_json(encode_record(shown))
    assert all(records._WRITERS.get(type(e)) is not None for e in events)


def test_the_direct_text_writes_every_scalar_as_json_does() -> None:
    import attrs

    @attrs.frozen
    class Odd(Event):
        kind = "odd"
        seat: int | None
        note: str
        share: float
        flag: bool
        stacks: tuple[tuple[int, int], ...]
        names: tuple[str, ...]

    for share in (0.1, float("nan"), float("inf"), -float("inf"), 1e300):
        for note in ('say "hi"\\ \n é 😀', ""):
            event = Odd(None, note, share, True, ((0, -5), (1, 10**17)), ("a", 'b"'))
            records._ENCODED.clear()
            assert encoded_json(event) == to_compact_json(encode_record(event))
    for bad in (Odd(1, "x", 1.0, 1, (), ()), Odd(1, "x", 1.0, False, ((0, 1, 2),), ()),  # type: ignore[arg-type]
                Odd(True, "x", 1.0, False, (), ("a", 3))):  # type: ignore[arg-type]
        records._ENCODED.clear()
        assert encoded_json(bad) == to_compact_json(encode_record(bad))


def test_a_hands_players_and_stacks_are_written_as_their_unstructured_data() -> None:
    from cardgame.store.recorder import _rows_json
    from cardgame.store.serialize import unstructure

    for rows in (((0, 'A "é" 😀', 200), (5, "", 0)), ((0, 10**17), (1, -3)), (), ((0, 1.5, None, True),),
                 ((0, Card(3)),), ([0, 1],), "ab", (("x",),)):
        assert _rows_json(rows) == to_compact_json(unstructure(rows))


def test_the_cache_keeps_the_newest_events_encoded_and_no_more() -> None:
    """The encodings of the newest ``_ENCODED_LIMIT`` events are kept (the same text object again), an
    older one's is dropped (made anew), and the cache never holds more."""
    limit = records._ENCODED_LIMIT
    events = [ActionTaken(seat=i % 9, action="call", amount=i) for i in range(limit + 50)]
    texts = [encoded_json(e) for e in events]
    assert len(records._ENCODED) <= limit
    for event, text in zip(events[-limit:], texts[-limit:], strict=True):
        assert records._ENCODED[id(event)][0] is event
        assert encoded_json(event) is text
    assert id(events[0]) not in records._ENCODED or records._ENCODED[id(events[0])][0] is not events[0]
    again = encoded_json(events[0])
    assert again == texts[0] and again is not texts[0]
    assert len(records._ENCODED) <= limit
