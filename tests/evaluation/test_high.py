"""High hands: exhaustive five-card counts, per-call against batch and a brute-force reference."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import chain, combinations, pairwise
from math import comb
from pathlib import Path

import numpy as np
import pytest

from cardgame.evaluation import (
    CATEGORY_NAMES,
    HIGH,
    HandEvaluator,
    HandValue,
    _tables,
    category,
    describe_high,
    evaluate_high,
    nibble_value,
    winners,
)
from cardgame.evaluation.batch import HAVE_NUMBA, evaluate_high_batch
from cardgame.model.cards import CARDS, parse_cards
from cardgame.model.errors import CardError
from tests.evaluation._reference import best_norvig, norvig_rank, vectors

KEYS = [
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
]  # fmt: skip
BATCH_MODES = [False, True] if HAVE_NUMBA else [False]


@pytest.fixture(scope="module")
def all_five() -> np.ndarray:
    n = comb(52, 5)
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8, count=5 * n)
    return flat.reshape(n, 5)


@pytest.mark.parametrize("use_numba", BATCH_MODES)
def test_every_five_card_hand(all_five: np.ndarray, use_numba: bool) -> None:
    ref = vectors()["five_card_categories"]
    values = evaluate_high_batch(all_five, use_numba=use_numba)
    assert len(values) == ref["hands"]
    assert len(np.unique(values)) == ref["distinct_values"] == 7462
    counts = np.bincount(values >> 20, minlength=9)
    assert {KEYS[i]: int(counts[i]) for i in range(9)} == {k: ref[k] for k in KEYS}


def test_value_order_matches_norvig_on_every_five_card_class(all_five: np.ndarray) -> None:
    """One hand per distinct value, sorted by our value: the reference ranks rise strictly."""
    values = evaluate_high_batch(all_five, use_numba=False)
    distinct, first = np.unique(values, return_index=True)
    refs = [norvig_rank(tuple(int(c) for c in all_five[i])) for i in first]
    assert all(a < b for a, b in pairwise(refs))
    # per-call agrees with the batch on these representatives
    assert [evaluate_high(all_five[i].tolist()) for i in first] == distinct.tolist()


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("use_numba", BATCH_MODES)
def test_per_call_equals_batch_on_random_hands(k: int, use_numba: bool) -> None:
    rng = np.random.default_rng(k)
    hands = np.argsort(rng.random((60_000, 52)), axis=1)[:, :k]
    batch = evaluate_high_batch(hands, use_numba=use_numba)
    per_call = [evaluate_high(row) for row in hands.tolist()]
    assert batch.tolist() == per_call


def test_seven_cards_match_brute_force_best_five() -> None:
    rng = random.Random(7)
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(1500)]
    # include plenty of flushes and straights, which random deals rarely give
    for _ in range(500):
        suit = rng.randrange(4)
        suited = rng.sample([r * 4 + suit for r in range(13)], rng.choice([5, 6]))
        rest = rng.sample([c for c in range(52) if c not in suited], 7 - len(suited))
        hands.append(tuple(suited + rest))
    for _ in range(500):
        low = rng.randrange(-1, 9)
        ranks = [(low + i) % 13 for i in range(5)]
        cards = [r * 4 + rng.randrange(4) for r in ranks]
        hands.append(tuple(cards + rng.sample([c for c in range(52) if c not in cards], 2)))
    ours = [evaluate_high(h) for h in hands]
    refs = [best_norvig(h) for h in hands]
    order = sorted(range(len(hands)), key=ours.__getitem__)
    for a, b in pairwise(order):
        assert (ours[a] < ours[b]) == (refs[a] < refs[b]), (hands[a], hands[b])
        assert (ours[a] == ours[b]) == (refs[a] == refs[b]), (hands[a], hands[b])
    assert [category(v) for v in ours] == [r[0] for r in refs]


def test_nibble_values_of_the_seed() -> None:
    for example in vectors()["nibble_hand_values"]["examples"]:
        cards = parse_cards(example["cards"])
        assert nibble_value(cards) == int(example["value"], 16)
        assert evaluate_high(cards) == int(example["value"], 16)


@pytest.mark.parametrize(
    ("cards", "description", "used"),
    [
        ("Ah Qd 4s Kh 8c", "High Card (A K Q 8 4)", "Ah Kh Qd 8c 4s"),
        ("4d Jd 3d 4c Ad", "Pair (4 A J 3)", "4d 4c Ad Jd 3d"),
        ("Ah 7c Jd As 7h", "Two Pair (A 7 J)", "As Ah 7h 7c Jd"),
        ("Ah 7c Jd As 7h Js 2c", "Two Pair (A J 7)", "As Ah Js Jd 7h"),
        ("Qc Qd Qs 9h 5c 2d 3d", "Three of a Kind (Q 9 5)", "Qs Qd Qc 9h 5c"),
        ("7c 6c 5c 4c 3d", "Straight (7)", "7c 6c 5c 4c 3d"),
        ("Ad 2c 3h 4s 5d Kc", "Straight (5)", "5d 4s 3h 2c Ad"),
        ("Ts Jh Qc Kd Ad 2d 2h", "Straight (A)", "Ad Kd Qc Jh Ts"),
        ("Ah Qh 9h 7h 3h 2h Kd", "Flush (A Q 9 7 3)", "Ah Qh 9h 7h 3h"),
        ("Kh Kd Ks 7c 7d 7h 2s", "Full House (K over 7)", "Ks Kh Kd 7h 7d"),
        ("9c 9d 9h 9s Kd Kh Ks", "Four of a Kind (9 K)", "9s 9h 9d 9c Ks"),
        ("As Ks Qs Js Ts 9s Ah", "Straight Flush (A)", "As Ks Qs Js Ts"),
        ("5d 4d 3d 2d Ad 6c", "Straight Flush (5)", "5d 4d 3d 2d Ad"),
        ("Tc 2c 3c 4c 5c 6c Ac", "Straight Flush (6)", "6c 5c 4c 3c 2c"),
    ],
)
def test_descriptions_and_cards_used(cards: str, description: str, used: str) -> None:
    hv = describe_high(parse_cards(cards))
    assert hv.description == description == str(hv)
    assert hv.category == description.split(" (")[0] == CATEGORY_NAMES[category(hv.value)]
    assert hv.cards == parse_cards(used)
    assert hv.value == evaluate_high(parse_cards(cards))


def test_ordering_across_and_within_categories() -> None:
    ladder = [
        "7c 5d 4h 3s 2c", "Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c", "Ac Ad Kh Qs Jc", "2c 2d 3h 3s 4c",
        "Ac Ad Kh Ks 2c", "Ac Ad Kh Ks 3c", "2c 2d 2h 3s 4c", "Ac Ad Ah Ks Qc", "Ac 2d 3h 4s 5c",
        "2c 3d 4h 5s 6c", "Tc Jd Qh Ks Ac", "7c 5c 4c 3c 2c", "Ac Kc Qc Jc 9c", "2c 2d 2h 3s 3c",
        "Ac Ad Ah Ks Kc", "2c 2d 2h 2s 3c", "Ac Ad Ah As Kc", "Ac 2c 3c 4c 5c", "Tc Jc Qc Kc Ac",
    ]  # fmt: skip
    values = [evaluate_high(parse_cards(h)) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    # suits never matter without a flush
    assert evaluate_high(parse_cards("Ac Ad Kh Ks 2c")) == evaluate_high(parse_cards("Ah As Kc Kd 2s"))


def test_hand_value_compares_by_value_only() -> None:
    a = describe_high(parse_cards("Ah Ad 7c 7d Jh"))
    b = describe_high(parse_cards("As Ac 7h 7s Jd"))
    c = describe_high(parse_cards("Kh Kd 7c 7d Jh"))
    assert a == b and hash(a) == hash(b) and a.cards != b.cards
    assert c < a <= b and max(a, c) is a
    assert isinstance(a, HandValue)


@pytest.mark.parametrize(
    "bad",
    [
        [0, 1, 2, 3],  # too few
        [0, 1, 2, 3, 4, 5, 6, 7],  # too many
        [0, 1, 2, 3, 52],  # out of range
        [0, 1, 2, 3, -1],
        [0, 1, 2, 3, 200],
        ["Ah", 1, 2, 3, 4],
        [0, 4, 8, 12, 12],  # repeated card
    ],
)
def test_bad_input_raises_card_error(bad: list[int]) -> None:
    with pytest.raises(CardError):
        describe_high(bad)
    with pytest.raises(CardError):
        nibble_value(bad)
    if bad != [0, 4, 8, 12, 12]:  # the fast path does not look for repeats outside flushes
        with pytest.raises(CardError):
            evaluate_high(bad)


def test_repeated_card_in_a_flush_is_caught_by_the_fast_path() -> None:
    with pytest.raises(CardError, match="twice"):
        evaluate_high([0, 4, 8, 12, 12, 20])


def test_high_evaluator() -> None:
    assert isinstance(HIGH, HandEvaluator)
    hole, board = parse_cards("Ah Kh"), parse_cards("Qh Jh 2c 3d Th")
    assert HIGH.rank(hole, board) == evaluate_high(hole + board)
    hv = HIGH.describe(hole, board)
    assert hv.description == "Straight Flush (A)" and hv.value == HIGH.rank(hole, board)
    with pytest.raises(CardError):
        HIGH.rank(hole, board[:2])


def test_winners_is_allmax() -> None:
    assert winners([3, 7, 7, 1]) == [1, 2]
    assert winners([]) == []
    assert winners([None, 2, None]) == [1]
    assert winners([None, None]) == []
    board = parse_cards("2c 7d 9h Ts Kc")
    holes = [parse_cards(h) for h in ("Ad Qd", "Ah Qh", "3c 4c", "Kd 2d")]
    assert winners(holes, key=lambda h: HIGH.rank(h, board)) == [3]
    assert winners(holes[:3], key=lambda h: HIGH.rank(h, board)) == [0, 1]


def test_seven_card_paths_agree_with_the_generic_sum() -> None:
    """The unpacked 7-card and 2+5 paths (plain ints, Card objects, numpy ints) match the
    generic path's dict lookup, which ``HIGH.rank`` takes for a hand split 6 + 1."""
    rng = random.Random(11)
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(3000)]
    for _ in range(500):  # flushes of 5, 6 and 7 cards
        suit = rng.randrange(4)
        suited = rng.sample([r * 4 + suit for r in range(13)], rng.choice([5, 6, 7]))
        hands.append(tuple(suited + rng.sample([c for c in range(52) if c not in suited], 7 - len(suited))))
    for h in hands:
        reference = HIGH.rank(h[:6], h[6:])  # 6 + 1: the generic path
        assert evaluate_high(h) == reference
        assert evaluate_high(list(h)) == reference
        assert HIGH.rank(h[:2], h[2:]) == reference
        assert HIGH.rank(list(h[:2]), list(h[2:])) == reference
        assert HIGH.rank(h, ()) == reference  # stud: the hole is the hand
        assert HIGH.rank(h[:5], []) == evaluate_high(h[:5]) == HIGH.rank(h[:3], h[3:5])  # draw
        cards = tuple(CARDS[c] for c in h)
        assert evaluate_high(cards) == HIGH.rank(cards[:2], cards[2:]) == reference
        assert evaluate_high(list(np.array(h, dtype=np.int8))) == reference  # numpy integers


@pytest.mark.parametrize(
    "bad",
    [
        [0, 1, 2, 3, 4, 5, 52],
        [0, 1, 2, 3, 4, 5, 103],
        [0, 1, 2, 3, 4, 5, 104],
        [-1, 1, 2, 3, 4, 5, 6],
        [0, 1, 2, 3, 4, 5, -200],
        [0, 1, 2, 3, 4, 5, "Ah"],
        [0, 1, 2, 3, 4, 5, None],
        [0, 1, 2, 3, 4, 5, 6.0],
        [0, 4, 8, 12, 16, 20, 200],  # a straight flush plus a bad card
        [0, 4, 8, 12, 16, 20, -1],
        [0, 4, 8, 12, 16, 16, 1],  # a repeated card in a flush
        [48, 48, 48, 48, 48, 1, 2],  # five aces: past the end of the seven-card lists
    ],
)
def test_bad_seven_card_input_raises_card_error(bad: list[int]) -> None:
    with pytest.raises(CardError):
        evaluate_high(bad)
    with pytest.raises(CardError):
        HIGH.rank(bad[:2], bad[2:])


def test_tables_are_built_on_first_use() -> None:
    """Importing builds no rank table; the first evaluation (of any size) builds them all."""
    code = (
        "import cardgame.evaluation as ev, cardgame.evaluation._tables as t\n"
        "assert not t.NONFLUSH_VALUES and not t.SEVEN_VALUES\n"
        "assert ev.evaluate_high({cards}) == {value}\n"
        "assert len(t.NONFLUSH_VALUES) == 73775 and len(t.SEVEN_VALUES) == 49205\n"
    )
    for cards in ([48, 44, 40, 36, 31], [48, 44, 40, 36, 31, 2, 7], [0, 4, 8, 12, 16, 20, 24]):
        value = evaluate_high(cards)
        run = subprocess.run(
            [sys.executable, "-c", code.format(cards=cards, value=value)],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert run.returncode == 0, run.stderr


def test_vectorized_table_builders_match_the_direct_rules() -> None:
    assert _tables.build_rank_table(_tables.high_value_of_ranks) == _tables.rank_values()
    keys = _tables.seven_rank_keys().tolist()
    assert [_tables.NONFLUSH_VALUES[k] for k in keys] == _tables.SEVEN_VALUES
    for mask in range(8192):
        ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
        if len(ranks) < 5:
            expected = 0
        elif _tables.STRAIGHT_HIGH[mask] >= 0:
            expected = _tables.pack(_tables.STRAIGHT_FLUSH, [_tables.STRAIGHT_HIGH[mask]])
        else:
            expected = _tables.pack(_tables.FLUSH, ranks[:5])
        assert _tables.FLUSH_VALUES[mask] == expected


@pytest.mark.parametrize("hand", ["Ah Kh Qh Jh Th", "5d 4d 3d 2d Ad", "9s 9h 9d 9c 2h", "Ks Kh Kd 7c 7h",
                                  "As 9s 7s 4s 2s", "5c 4d 3h 2s Ad", "Qs Qh Qd 8c 2h", "As Ah 7d 7c Jh",
                                  "4s 4h Ad Kc 3h", "As Kh 8d 4c 2h", "Ah Kh Qh Jh Th 9h 2c", "7s 7h 7d 2c 2h 2d 3s"])
def test_the_text_of_a_value_is_the_description_of_its_hand(hand: str) -> None:
    cards = parse_cards(hand)
    assert HIGH.text(evaluate_high(cards)) == describe_high(cards).description


def test_the_text_of_a_value_agrees_with_describe_on_random_hands() -> None:
    """``HIGH.text`` (from the value alone, what the showdown uses) against ``HIGH.describe`` (from the cards)."""
    from cardgame.evaluation.omaha import OMAHA_HIGH

    rng = random.Random(7)
    seen = set()
    for _ in range(6000):
        cards = rng.sample(range(52), 9)
        hole, board = cards[:2], cards[2:7]
        value = HIGH.rank(hole, board)
        seen.add(category(value))
        assert HIGH.text(value) == HIGH.describe(hole, board).description, (hole, board)
        o_hole, o_board = cards[:4], cards[4:9]
        assert OMAHA_HIGH.text(OMAHA_HIGH.rank(o_hole, o_board)) == OMAHA_HIGH.describe(o_hole, o_board).description
    assert len(seen) >= 7  # every common category came up
