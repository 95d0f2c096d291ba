"""Bad input is refused with the library's own error, naming the problem, and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from cardgame import Game
from cardgame.model.cards import Card, parse_card
from cardgame.model.errors import CardError, CardgameError, ConfigError, IllegalActionError, TableError
from cardgame.stages import BringIn, DealBoard, DealHole
from cardgame.store import snapshot
from cardgame.store.serialize import SnapshotError
from variants import deuce_to_seven_triple_draw, no_limit_holdem


def holdem() -> Game:
    game = Game(no_limit_holdem(1, 2), seats=4, seed=5)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.start()
    return game


def drawing() -> Game:
    game = Game(deuce_to_seven_triple_draw(2, 4), seats=3, seed=5)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.start()
    while game.draw_options() is None:
        game.act(game.to_act, "check_call")  # type: ignore[arg-type]
    return game


def refused(game: Game, error: type[CardgameError], match: str, call: Callable[[Game], Any]) -> None:
    """``call`` raises ``error`` and the game is exactly as it was, and still plays."""
    before = snapshot.dumps(game)
    with pytest.raises(error, match=match):
        call(game)
    assert snapshot.dumps(game) == before
    assert game.status_name == "running"


@pytest.mark.parametrize(
    ("cards", "match"),
    [
        (["Ah"], "can only discard cards from their hand"),
        ([52], "Card index 52 is out of range"),
        (None, "Discards must be a list of cards"),
        ([3.0], "not 3.0"),
        ([True], "not True"),
        ("Ah", "Discards must be a list of cards"),
    ],
)
def test_bad_discards(cards: object, match: str) -> None:
    game = drawing()
    seat = game.draw_options().seat  # type: ignore[union-attr]
    refused(game, IllegalActionError, match, lambda g: g.draw(seat, cards))  # type: ignore[arg-type]
    game.draw(seat, [])  # the game goes on


def test_discards_as_card_strings_are_accepted() -> None:
    game = drawing()
    options = game.draw_options()
    assert options is not None
    game.draw(options.seat, [str(options.hole[0])])


@pytest.mark.parametrize(
    ("seat", "match"),
    [([0], r"Seat \[0\] is not a seat number"), ({0: 1}, "is not a seat number"), (0.0, "Seat 0.0 is not a seat"),
     (True, "Seat True is not a seat number"), (9, "Seat 9 is not in this hand")],
)
def test_bad_seats(seat: object, match: str) -> None:
    refused(holdem(), IllegalActionError, match, lambda g: g.call(seat))  # type: ignore[arg-type]


@pytest.mark.parametrize("action", ["fold", "check", "call"])
def test_an_amount_given_to_fold_check_or_call_is_refused(action: str) -> None:
    game = holdem()
    seat = game.to_act
    refused(game, IllegalActionError, "was given to", lambda g: g.act(seat, action, 999))  # type: ignore[arg-type]
    refused(game, IllegalActionError, "was given to", lambda g: getattr(g, action)(seat, 999))


@pytest.mark.parametrize("name", [None, 123, "", "  ", ["x"]])
def test_bad_names(name: object) -> None:
    refused(holdem(), TableError, "name \\(a non-empty string\\) must be a", lambda g: g.sit_down(name, 100))  # type: ignore[arg-type]


def test_bad_top_up_seat() -> None:
    refused(holdem(), TableError, r"Seat \[0\] does not exist", lambda g: g.top_up([0], 10))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cards", "match"),
    [([0, 0], "2c appear more than once"), (["Ah", "Ah"], "Ah appear more than once"), ([52], "out of range"),
     (["Xx"], "Malformed card"), ([1.5], "not 1.5")],
)
def test_bad_stacked_decks(cards: list[Any], match: str) -> None:
    game = holdem()
    with pytest.raises(CardError, match=match):
        game.ctx.stack_deck(cards)
    assert game.ctx.next_deck is None


def test_a_stacked_deck_takes_card_strings() -> None:
    game = Game(no_limit_holdem(1, 2), seats=2, seed=1, max_hands=1)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.ctx.stack_deck(["Ah", "Kd", "Qs", "Jc"])
    game.start()
    hand = game.hand
    assert hand is not None and [str(c) for c in hand.players[0].hole] == ["Ah", "Kd"]


@pytest.mark.parametrize(("value", "match"), [(52, "card string"), (None, "card string"), ("Zz", "Malformed card")])
def test_parse_card_refuses(value: object, match: str) -> None:
    with pytest.raises(CardError, match=match):
        parse_card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [3.0, True, None, [1]])
def test_card_refuses_what_is_not_a_card(value: object) -> None:
    with pytest.raises(CardError, match="A card is a string"):
        Card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build", [lambda: BringIn(True), lambda: DealBoard(True), lambda: DealHole(True)], ids=["BringIn", "DealBoard",
                                                                                          "DealHole"],
)
def test_a_bool_is_not_a_number(build: Callable[[], object]) -> None:
    with pytest.raises(ConfigError, match="True"):
        build()


def _edited(game: Game, edit: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(snapshot.dumps(game))
    edit(data)
    return json.dumps(data)


def test_a_snapshot_whose_chips_do_not_add_up_is_refused() -> None:
    game = holdem()

    def richer(data: dict[str, Any]) -> None:
        data["context"]["table"]["seats"][0]["stack"] += 1000

    with pytest.raises(SnapshotError, match="chips do not add up"):
        snapshot.loads(_edited(game, richer), no_limit_holdem(1, 2))


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [("bet", 500, "more than the"), ("contributed", -1, "at least 0"), ("all_in", True, "all-in with")],
)
def test_a_snapshot_with_fields_out_of_range_is_refused(field: str, value: object, match: str) -> None:
    game = holdem()

    def edit(data: dict[str, Any]) -> None:
        data["context"]["hand"]["players"][0][field] = value

    with pytest.raises(SnapshotError, match=match):
        snapshot.loads(_edited(game, edit), no_limit_holdem(1, 2))
