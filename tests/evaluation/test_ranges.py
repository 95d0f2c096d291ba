"""Range strings: the syntax, the combinations against eval7's HandRange, the short form, the errors."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.evaluation.ranges import MAX_RANGE_TEXT, Range, RangeError, hand_class, parse_range
from cardgame.model.cards import Card, parse_cards
from cardgame.model.errors import CardError, CardgameError

CORPUS = [
    "AKs, QQ+, A5s-A2s, KQo, AhKh, T9s+",
    "22+",
    "AA",
    "AK",
    "AKo",
    "A2s+",
    "ATo+, KTs+, QJs",
    "88-JJ",
    "JJ-88",
    "A7o-ATo",
    "ATo-A7o",
    "55+, 87o, K9s-KJs",
    "JJ+, AT+, 80%(A8s+)",
    "0.4(JJ), TT",
    "As3c, 8c5s, 7d7h",
    "22+, A2s+, K9s+, Q9s+, J9s+, T9s, A9o+, KTo+, QTo+, JTo",
    "77-22, A9s-A2s, K8s-K2s",
    "aks, kqo, tt",
    "AKs,QQ+",
    "0.5(AA, KK), 0.25(QQ)",
    "T9s+, 98s+, 87s+",
]


def ours(text: str) -> dict[tuple[int, ...], float]:
    return {tuple(sorted(map(int, hand), reverse=True)): w for hand, w in parse_range(text).combos.items()}


@pytest.mark.parametrize("text", CORPUS)
def test_same_combinations_and_weights_as_eval7(text: str) -> None:
    eval7 = pytest.importorskip("eval7", reason="eval7 is a test extra: pip install -e '.[test]'")
    theirs: dict[tuple[int, ...], float] = {}
    for hand, weight in eval7.HandRange(text):
        key = tuple(sorted((int(parse_cards(str(c))[0]) for c in hand), reverse=True))
        theirs[key] = weight  # eval7 lists a hand once per mention; the corpus names each once
    assert ours(text) == pytest.approx(theirs)
    assert len(parse_range(text)) == len(theirs)


def test_the_issues_example() -> None:
    r = parse_range("AKs, QQ+, A5s-A2s, KQo, AhKh, T9s+")
    assert len(r) == 4 + 18 + 16 + 12 + 4  # AhKh is one of AKs
    assert "KhAh" in r and (Card("Ah"), Card("Kh")) in r and "AhKd" not in r
    assert r.weight("As Ks") == 1.0 and r.weight("2c2d") == 0.0
    assert str(r) == "QQ+, AKs, A5s-A2s, KQo, T9s"
    assert all(hand[0] > hand[1] for hand in r.combos)


@pytest.mark.parametrize(("text", "short"), [
    ("KK, QQ, AA, AhKh, AKs", "QQ+, AKs"),
    ("AKs, AKo", "AK"),
    ("ATs+, AQo+", "ATs+, AQo+"),
    ("AQ+, ATs-AJs", "ATs+, AQo+"),
    ("JJ-88, 77", "JJ-77"),
    ("0.4(JJ), TT:0.5, AA, 0.5(AA)", "0.5(AA, TT), JJ:0.4"),
    ("22+, A2s+, K9s+, AJo+, 50%(77-22)", "88+, A2s+, AJo+, K9s+, 77-22:0.5"),
    ("??", "random"),
    ("AhKh, AsKs", "AsKs, AhKh"),
    ("", ""),
])
def test_prints_back_in_short_form(text: str, short: str) -> None:
    r = parse_range(text)
    assert str(r) == short
    assert parse_range(short) == r and Range(short) == r
    assert pickle.loads(pickle.dumps(r)) == r and hash(pickle.loads(pickle.dumps(r))) == hash(r)


@pytest.mark.parametrize(("game", "text", "count"), [
    ("omaha", "AA**", 6 * 1128 + 4 * 48 + 1),  # two aces and two non-aces, three aces, four
    ("omaha", "AA", 6961),  # filled with wildcards
    ("omaha", "AAKKds", 6),
    ("omaha", "AsA**", 20825 - 17296),  # the ace of spades and another ace (counted once wrongly as any)
    ("omaha", "AhKh**ds", 234),  # the other two cards a pair of one suit not hearts
    ("2-7", "7h5d3c2s*", 48),  # listed directly, not by scanning 2.6 million hands
    ("omaha", "AsAhKdKc", 1),
    ("omaha", "random", 270725),
    ("omaha", "****r", 13**4),
    ("omaha5", "AAKK*", 6 * 6 * 44 + 2 * 4 * 6),  # and a third ace or king
    ("stud", "**Qc", 1275),
    ("razz", "A2*", 4 * 4 * 44 + 2 * 6 * 4),  # AA2 and A22 once each
    ("badugi", "A234r", 24),
    ("2-7", "75432", 4**5),
    ("short-deck", "A6s+", 32),
    ("short-deck", "random", 630),
])
def test_patterns_for_other_games(game: str, text: str, count: int) -> None:
    r = parse_range(text, game)
    assert len(r) == count
    assert parse_range(str(r), game) == r
    assert r.size == len(next(iter(r.combos)))


def test_double_suited_means_two_suits_twice() -> None:
    r = parse_range("AAKKds", "omaha")
    for hand in r:
        suits = sorted(c.suit for c in hand)
        assert suits[0] == suits[1] != suits[2] == suits[3]


@pytest.mark.parametrize(("text", "token"), [
    ("AKs, QZ+", "QZ+"), ("AKs, 1.5(JJ)", "1.5"), ("JJ:2", "2"), ("AhAh", "AhAh"), ("QQs", "QQs"),
    ("A5s-K2s", "A5s-K2s"), ("AKs-AQo", "AKs-AQo"), ("0.4(JJ:0.3)", "JJ:0.3"), ("AsKsQs", "AsKsQs"),
    ("22, #tag#", "#tag#"), ("0.4", "0.4"), ("AA(", "AA"), ("0.4(AA", "("), ("AA)", ")"),
])
def test_bad_range_names_the_token(text: str, token: str) -> None:
    with pytest.raises(RangeError, match=None) as info:
        parse_range(text)
    assert token in str(info.value) and isinstance(info.value, CardError)


def test_short_deck_refuses_small_cards_and_limits_hold() -> None:
    with pytest.raises(RangeError, match="No short-deck hand matches '22'"):
        parse_range("22", "short-deck")
    with pytest.raises(RangeError, match="at most 20,000 characters"):
        parse_range("AA," * MAX_RANGE_TEXT)
    with pytest.raises(RangeError, match="game must be one of"):
        parse_range("AA", "chess")


def test_from_combos_and_hand_class() -> None:
    r = Range.from_combos({"AhKh": 0.5, "QsQd": 1, "7c2d": 0})
    assert len(r) == 2 and r.weight("KhAh") == 0.5 and str(r) == "QsQd, AhKh:0.5"
    assert Range.from_combos(["AsAh", "AdAc", "AsAd", "AhAc", "AsAc", "AhAd"]) == parse_range("AA")
    assert [hand_class(h) for h in ("AhKh", "Kd Ac", "7c7s")] == ["AKs", "AKo", "77"]
    with pytest.raises(RangeError):
        Range.from_combos({"AhKh": 2.0})
    with pytest.raises(CardgameError):
        Range.from_combos(["AhKhQh"])


def test_a_range_cannot_change() -> None:
    r = parse_range("AA")
    with pytest.raises(AttributeError):
        r.game = "omaha"
    with pytest.raises(TypeError):
        r.combos[(Card("As"), Card("Ah"))] = 0.5  # type: ignore[index]
    with pytest.raises(ValueError, match="read-only"):
        r.hands[0, 0] = 0


TOKENS = st.sampled_from(["AA", "KK+", "AKs", "AKo", "AK", "A2s+", "T9s", "K9o-KJo", "22-55", "AhKh", "7c2d",
                          "Q*", "random", "JJ:0.5", "0.25(QQ, AQs)", "AA:0"])


@settings(max_examples=60, deadline=None)
@given(st.lists(TOKENS, max_size=6))
def test_short_form_reads_back_to_the_same_range(tokens: list[str]) -> None:
    r = parse_range(", ".join(tokens))
    assert parse_range(str(r)) == r
    if not any(t in ("random", "Q*", "AA:0", "JJ:0.5", "0.25(QQ, AQs)") for t in tokens):  # one weight: as short
        assert len(str(r)) <= len(", ".join(tokens))


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="AKQJT98765432shdcxo*?+-:%.,() 0", max_size=30))
def test_any_text_parses_or_is_refused_with_a_range_error(text: str) -> None:
    try:
        r = parse_range(text)
    except RangeError as exc:
        assert len(str(exc)) <= 700
    else:
        assert parse_range(str(r)) == r
