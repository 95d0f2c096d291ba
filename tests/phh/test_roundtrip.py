"""Property: any valid HandHistory is written and read back unchanged, alone or in a .phhs file."""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.model.cards import CARDS
from cardgame.phh import (
    VARIANTS,
    Action,
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    HandHistory,
    NoOpAction,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
    dump,
    dumps,
    load,
    loads,
    save,
)

_ints = st.integers(0, 10**12)
_floats = st.floats(0, 1e12, allow_nan=False, allow_infinity=False)
_non_negative = st.one_of(_ints, _floats)
_positive = st.one_of(st.integers(1, 10**12), st.floats(1e-3, 1e12))
_comments = st.one_of(st.none(), st.text(max_size=20))
_toml_scalars = st.one_of(st.text(max_size=10), st.integers(-(2**63), 2**63 - 1), _floats, st.booleans())
_toml_values = st.recursive(
    _toml_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def _actions(draw: st.DrawFn, code: str, players: int) -> list[Action]:
    info = VARIANTS[code]
    deck = [c for c in draw(st.permutations(CARDS)) if info.deck == "standard" or c.rank >= 4]
    hidden = st.booleans()
    out: list[Action] = []
    kinds = ["hole", "cbr", "cc", "f", "sm", "noop"]
    kinds += {"board": ["board"], "stud": ["pb"], "draw": ["sd"]}[info.dealing]
    for kind in draw(st.lists(st.sampled_from(kinds), max_size=12)):
        player = draw(st.integers(0, players - 1))
        comment = draw(_comments)
        if kind in ("hole", "board"):
            cards = tuple(None if draw(hidden) else deck.pop() for _ in range(draw(st.integers(1, 3))))
            out.append(
                DealHoleAction(player, cards, commentary=comment)
                if kind == "hole"
                else DealBoardAction(cards, commentary=comment)
            )
        elif kind == "cbr":
            out.append(CompleteBetRaiseAction(player, draw(_positive), commentary=comment))
        elif kind == "sm":
            out.append(ShowMuckAction(player, draw(st.sampled_from([None, (), (None, None)])), commentary=comment))
        elif kind == "sd":
            out.append(StandPatDiscardAction(player, draw(st.sampled_from([(), (None,)])), commentary=comment))
        else:
            if kind == "cc":
                out.append(CheckCallAction(player, commentary=comment))
            elif kind == "f":
                out.append(FoldAction(player, commentary=comment))
            elif kind == "pb":
                out.append(PostBringInAction(player, commentary=comment))
            else:
                out.append(NoOpAction(commentary=comment))
    return out


@st.composite
def hand_histories(draw: st.DrawFn) -> HandHistory:
    code = draw(st.sampled_from(list(VARIANTS)))
    n = draw(st.integers(2, 9))

    def per_player(values: st.SearchStrategy[Any]) -> Any:
        return draw(st.lists(values, min_size=n, max_size=n))

    fields: dict[str, Any] = {"variant": code, "antes": per_player(_non_negative)}
    for name in VARIANTS[code].required:
        if name == "blinds_or_straddles":
            fields[name] = per_player(_non_negative)
        elif name in ("bring_in", "small_bet", "big_bet", "min_bet"):
            fields[name] = draw(_positive)
    fields["starting_stacks"] = per_player(st.one_of(_positive, st.just(float("inf"))))
    fields["actions"] = draw(_actions(code, n))
    optional: dict[str, st.SearchStrategy[Any]] = {
        "ante_trimming_status": st.booleans(),
        "author": st.text(),
        "event": st.text(),
        "url": st.just("https://example.com/a?b=c#d"),
        "city": st.text(max_size=10),
        "postal_code": st.text(max_size=10),
        "time": st.one_of(st.times(), st.dates(), st.datetimes(), st.datetimes(timezones=st.just(dt.UTC))),
        "time_zone": st.just("America/Toronto"),
        "day": st.integers(1, 31),
        "month": st.integers(1, 12),
        "year": st.integers(1900, 2100),
        "hand": st.one_of(st.integers(0, 10**6), st.text(max_size=8)),
        "level": st.integers(1, 40),
        "seats": st.lists(st.integers(1, 10), min_size=n, max_size=n),
        "seat_count": st.integers(2, 10),
        "table": st.one_of(st.integers(1, 100), st.text(max_size=8)),
        "players": st.lists(st.text(max_size=12), min_size=n, max_size=n),
        "finishing_stacks": st.lists(_non_negative, min_size=n, max_size=n),
        "winnings": st.lists(_non_negative, min_size=n, max_size=n),
        "currency": st.just("USD"),
        "currency_symbol": st.just("$"),
        "time_limit": st.one_of(_non_negative, st.just(float("inf"))),
        "time_banks": st.lists(_non_negative, min_size=n, max_size=n),
    }
    for name in draw(st.lists(st.sampled_from(sorted(optional)), unique=True)):
        fields[name] = draw(optional[name])
    extra_keys = st.text("abcdefghijklmnopqrstuvwxyz_0123456789 .", min_size=1, max_size=8).map("_".__add__)
    fields["extra"] = draw(st.dictionaries(extra_keys, _toml_values, max_size=3))
    return HandHistory(**fields)


@given(hand_histories())
@settings(max_examples=150, deadline=None)
def test_dump_then_load_is_identity(hand: HandHistory) -> None:
    hand.validate()
    text = dumps(hand)
    assert tomllib.loads(text)  # valid TOML on its own
    assert loads(text) == [hand]
    assert dumps(loads(text)) == text


@given(st.lists(hand_histories(), max_size=3))
@settings(max_examples=30, deadline=None)
def test_phhs_round_trip(hands: list[HandHistory]) -> None:
    assert loads(dumps(hands, multi=True), multi=True) == hands


def test_dump_is_dumps() -> None:
    assert dump is dumps


def test_save_and_load_files(tmp_path: Path) -> None:
    hand = HandHistory(
        variant="NT",
        antes=[0, 0],
        blinds_or_straddles=[1, 2],
        min_bet=2,
        starting_stacks=[200.0, 150.5],
        actions=[DealHoleAction(0, "AcAd"), DealHoleAction(1, "????"), FoldAction(1, commentary="easy")],
        players=['Quote " and \\ back', "Ünïcode\n"],
    )
    assert hand.starting_stacks == (200, 150.5) and isinstance(hand.starting_stacks[0], int)
    save(tmp_path / "one.phh", hand)
    save(tmp_path / "many.phhs", [hand, hand])
    assert load(tmp_path / "one.phh") == [hand]
    assert load(tmp_path / "many.phhs") == [hand, hand]
    text = (tmp_path / "one.phh").read_text(encoding="utf-8")
    assert text == (
        'variant = "NT"\n'
        "antes = [0, 0]\n"
        "blinds_or_straddles = [1, 2]\n"
        "min_bet = 2\n"
        "starting_stacks = [200, 150.5]\n"
        "actions = [\n"
        '  "d dh p1 AcAd",\n'
        '  "d dh p2 ????",\n'
        '  "p2 f # easy",\n'
        "]\n"
        'players = ["Quote \\" and \\\\ back", "Ünïcode\\n"]\n'
    )
    assert (tmp_path / "many.phhs").read_text(encoding="utf-8").startswith('[1]\nvariant = "NT"\n')


def test_hand_history_is_hashable_and_frozen() -> None:
    [hand] = loads(
        'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        "starting_stacks = [200, 200]\nactions = []\n_x = [1]\n"
    )
    assert hash(hand) == hash(loads(dumps(hand))[0])
    with pytest.raises(AttributeError):
        hand.variant = "FT"  # type: ignore[misc]
    with pytest.raises(TypeError):
        hand.extra["_y"] = 1  # type: ignore[index]
