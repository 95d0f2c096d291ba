"""The value encodings of cardgame.store.serialize that snapshots and the event store share."""

from __future__ import annotations

import pytest

import cardgame.store
from cardgame.engine import Done, Exit, Failed, Goto, PassOn, Restart
from cardgame.model.cards import Card
from cardgame.model.deck import SHORT_DECK
from cardgame.model.player import Player
from cardgame.model.rng import RandomSource
from cardgame.model.table import Table
from cardgame.store.serialize import (
    SnapshotError,
    decode_cards,
    decode_deck_spec,
    decode_outcome,
    decode_player,
    decode_rng,
    decode_table,
    encode_cards,
    encode_deck_spec,
    encode_outcome,
    encode_player,
    encode_rng,
    encode_table,
    from_json,
    structure,
    to_compact_json,
    to_json,
    unstructure,
)


def test_cards_are_text_both_ways() -> None:
    cards = [Card("Ah"), Card("Td")]
    assert encode_cards(cards) == ["Ah", "Td"]
    assert decode_cards(["Ah", "Td"], "x") == cards
    with pytest.raises(SnapshotError, match=r"x\[1\] must be a card as text"):
        decode_cards(["Ah", 3], "x")
    with pytest.raises(SnapshotError, match=r"x\[0\]: .*Zz"):
        decode_cards(["Zz"], "x")


def test_players_tables_specs_and_random_states_round_trip() -> None:
    p = Player("Ann", 1, 50, True, False)
    assert encode_player(decode_player(encode_player(p), "p")) == encode_player(p)
    t = Table(3, 10, 100, 1)
    t.seats[1] = p
    t.button = 1
    data = encode_table(t)
    assert list(data) == ["seat_count", "min_buy_in", "max_buy_in", "first_button", "button", "seats"]
    assert encode_table(decode_table(data, "t")) == data
    assert encode_deck_spec(SHORT_DECK) == {"ranks": SHORT_DECK.ranks, "suits": SHORT_DECK.suits}
    assert decode_deck_spec(encode_deck_spec(SHORT_DECK), "s") == SHORT_DECK
    with pytest.raises(SnapshotError, match=r"s\.ranks is missing"):
        decode_deck_spec({"suits": "cdhs"}, "s")
    rng = RandomSource(7)
    rng.generator.random()
    again = decode_rng(from_json(to_json(encode_rng(rng))), "rng")
    assert again.seed == 7 and again.generator.random() == rng.generator.random()


def test_outcomes_round_trip() -> None:
    for outcome in (Done((1, "a")), Goto("showdown", 3), PassOn(), Restart(), Exit(),
                    Failed("broke", "Deal", "dealing")):
        back = decode_outcome(from_json(to_json(encode_outcome(outcome))), "o")
        assert repr(back) == repr(outcome)
    assert encode_outcome(None) is None and decode_outcome(None) is None
    with pytest.raises(SnapshotError, match=r"o\.type must be done, goto, pass_on, restart, exit or failed"):
        decode_outcome({"type": "maybe"}, "o")


def test_plain_structures_are_strict_and_name_the_path() -> None:
    stacks = ((0, 98), (2, 104))
    assert to_compact_json(unstructure(stacks)) == "[[0,98],[2,104]]"
    assert structure(from_json("[[0,98],[2,104]]"), tuple[tuple[int, int], ...], "s") == stacks
    with pytest.raises(SnapshotError, match=r"s\[0\]\[0\]"):
        structure([["0", 98]], tuple[tuple[int, int], ...], "s")
    with pytest.raises(SnapshotError):
        from_json("{broken")


def test_the_store_package_keeps_its_public_names() -> None:
    for name in cardgame.store.__all__:
        assert getattr(cardgame.store, name) is not None
    assert cardgame.store.EventStore.__module__ == "cardgame.store.database"


def test_deep_json_is_refused_by_its_nesting_whatever_the_recursion_limit() -> None:
    """The message once depended on the stack left: under a raised recursion limit (as a test before it
    may leave it) ``json.loads`` read 5,000 ``[`` as "Expecting value". Nesting is counted first."""
    import sys

    from cardgame.store.serialize import SnapshotError, from_json

    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)
    try:
        for text in ("[" * 5000, b"[" * 5000, '{"a":' * 101 + "1" + "}" * 101):
            with pytest.raises(SnapshotError, match="nests more than 100 levels deep"):
                from_json(text)
    finally:
        sys.setrecursionlimit(saved)
    assert from_json('["[[[[", {"a": "{{{{"}]' + "") == ["[[[[", {"a": "{{{{"}]  # brackets in strings do not nest
    assert from_json("[" * 100 + "]" * 100) is not None
