"""Hostile input: the crashes a seeded fuzz of the card, snapshot, store and CLI parsers found, kept as
regression tests, and a bounded, seeded fuzz of each parser.

Every bad input raises the library's own error (:class:`~cardgame.errors.CardgameError`), naming what
was wrong and what is allowed, quoting at most a short excerpt of the input; a refused input changes
nothing (the project's bad-input rule; issue 20, "Hostile input").
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from cardgame.cards import MAX_CARD_TEXT, Card, parse_card, parse_cards
from cardgame.errors import CardError, CardgameError
from cardgame.inputs import EXCERPT_LIMIT

#: Longest message a bad input may produce: the text of the message plus one excerpt.
MESSAGE_LIMIT = 400

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
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
