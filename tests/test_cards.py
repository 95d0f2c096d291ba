"""Cards and decks: parsing every accepted format, errors, deck specs, seeded shuffles."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardgame.model.cards import CARDS, Card, format_cards, parse_card, parse_cards
from cardgame.model.deck import SHORT_DECK, STANDARD_DECK, Deck, DeckSpec
from cardgame.model.errors import CardError, ConfigError
from cardgame.model.rng import RandomSource


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ah 7c Td", "Ah 7c Td"),
        ("AhKd", "Ah Kd"),
        ("10h", "Th"),
        ("10h 9h", "Th 9h"),
        ("ah kD", "Ah Kd"),
        ("Ah, 7c", "Ah 7c"),
        ("", ""),
    ],
)
def test_parse_formats(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_card_is_an_int_with_rank_and_suit() -> None:
    ace = Card("As")
    assert ace == 51 and ace.rank == 12 and ace.suit == 3 and str(ace) == "As"
    assert Card(0) == parse_card("2c") and Card(ace) is ace and CARDS[51] is ace
    assert repr(Card("Td")) == "Card('Td')"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ah Xx", r"cannot read 'Xx' at position 3"),
        ("Ah 1h", r"cannot read '1h'"),
        ("Ahh", r"cannot read 'h'"),
        ("Ah Ah", r"Card Ah appears twice"),
    ],
)
def test_malformed_strings_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_cards(text)


def test_single_card_errors() -> None:
    with pytest.raises(CardError, match="Malformed card 'A'"):
        parse_card("A")
    with pytest.raises(CardError, match="out of range; allowed are 0 to 51"):
        Card(52)


def test_deck_specs() -> None:
    assert len(STANDARD_DECK) == 52 and len(SHORT_DECK) == 36
    assert min(c.rank for c in SHORT_DECK.cards) == 4  # sixes
    leduc = DeckSpec("KQJ", "hs")
    assert format_cards(leduc.cards) == "Jh Js Qh Qs Kh Ks"
    with pytest.raises(ConfigError, match="distinct characters"):
        DeckSpec("AA")
    with pytest.raises(ConfigError):
        DeckSpec("AK", "x")


def test_seeded_shuffles_replay_and_dealing() -> None:
    a = Deck.shuffled(STANDARD_DECK, RandomSource(42))
    b = Deck.shuffled(STANDARD_DECK, RandomSource(42))
    first = a.deal(5)
    assert first == b.deal(5)
    assert first != Deck.shuffled(STANDARD_DECK, RandomSource(43)).deal(5)
    assert len(a) == 47 and not set(first) & set(a.remaining)
    everything = first + a.deal(47)
    assert sorted(everything) == list(STANDARD_DECK.cards)  # every card exactly once
    with pytest.raises(CardError, match="only 0 remain"):
        a.deal(1)
    unseeded = RandomSource()  # no seed: the operating system's cryptographic source, not replayable
    assert unseeded.seed is None and not unseeded.seeded
    assert Deck.shuffled(STANDARD_DECK, unseeded).deal(5) != Deck.shuffled(STANDARD_DECK, RandomSource()).deal(5)


def _fisher_yates(stock: list[Card], bits: Callable[[int], int], count: int) -> list[Card]:
    """``count`` cards drawn from ``stock`` (which loses them) as one Fisher-Yates step per card deals them: each
    place drawn as ``random.randrange`` draws it (rejection sampling on ``bits``), the last card moved into it."""
    drawn = []
    for _ in range(count):
        n = len(stock)
        i = bits(n.bit_length())
        while i >= n:
            i = bits(n.bit_length())
        drawn.append(stock[i])
        stock[i] = stock[-1]
        stock.pop()
    return drawn


def test_seeded_deals_are_one_fisher_yates_step_per_card() -> None:
    """A shuffled deck deals what one Fisher-Yates step per card gives, the draw exactly as
    ``random.randrange`` makes it (rejection sampling on ``getrandbits``), and keeps the cards it has
    not dealt in that step's order: the same seed deals the same cards however the deals are cut
    (the deck's loop rewritten for speed must not change a seeded game)."""
    import random

    for seed in range(40):
        deck = Deck.shuffled(STANDARD_DECK, RandomSource(seed))
        stock, bits, cuts = list(STANDARD_DECK.cards), RandomSource(seed).generator.getrandbits, random.Random(seed)
        while stock:
            count = min(len(stock), cuts.randint(1, 9))
            assert deck.deal(count) == _fisher_yates(stock, bits, count)
            assert deck.remaining == tuple(reversed(stock))


def test_a_stock_of_more_cards_than_a_deck_deals_as_fisher_yates_too() -> None:
    """The per-card bits come from a table sized for one deck; a stock given more cards (cards put back on
    top of a full deck) draws with as many bits as its size needs, one Fisher-Yates step per card still."""
    for seed in range(10):
        deck = Deck.shuffled(STANDARD_DECK, RandomSource(seed))
        deck.put_back(range(20))  # 72 cards: 0..19 twice
        stock, bits = [*(STANDARD_DECK.cards[:20]), *STANDARD_DECK.cards], RandomSource(seed).generator.getrandbits
        expected = _fisher_yates(stock, bits, 30)
        assert deck.deal(30) == expected and deck.remaining == tuple(reversed(stock))


def test_lazy_shuffle_is_uniform() -> None:
    rng = RandomSource(7)
    counts = [0] * 52
    for _ in range(5200):
        counts[Deck.shuffled(STANDARD_DECK, rng).deal(3)[2]] += 1
    assert min(counts) > 50 and max(counts) < 160  # about 100 each


def test_stacked_deck_deals_in_order() -> None:
    d = Deck.stacked(parse_cards("2c 3d 4h"))
    assert format_cards(d.deal(3)) == "2c 3d 4h"
