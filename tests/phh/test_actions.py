"""Action notation: each kind parses, prints canonically, and bad lines raise HandHistoryError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgame.model.cards import CARDS, Card, parse_cards
from cardgame.model.errors import HandHistoryError
from cardgame.phh import (
    Action,
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    MaybeCard,
    NoOpAction,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
    format_phh_cards,
    parse_action,
    parse_phh_cards,
)

AC, TWO_D = Card("Ac"), Card("2d")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("d dh p1 Ac2d", DealHoleAction(0, (AC, TWO_D))),
        ("d dh p2 ????", DealHoleAction(1, (None, None))),
        ("d dh p3 Ac??", DealHoleAction(2, (AC, None))),
        ("d db Jc3d5c", DealBoardAction(parse_cards("Jc 3d 5c"))),
        ("p1 pb", PostBringInAction(0)),
        ("p3 cbr 7000", CompleteBetRaiseAction(2, 7000)),
        ("p3 cbr 10112.5", CompleteBetRaiseAction(2, 10112.5)),
        ("p2 cc", CheckCallAction(1)),
        ("p2 f", FoldAction(1)),
        ("p1 sd", StandPatDiscardAction(0)),
        ("p4 sd AsQs", StandPatDiscardAction(3, parse_cards("As Qs"))),
        ("p1 sm", ShowMuckAction(0)),
        ("p1 sm -", ShowMuckAction(0, None)),
        ("p1 sm ??Ad", ShowMuckAction(0, (None, Card("Ad")))),
        ("p1 sm Ac2d", ShowMuckAction(0, (AC, TWO_D))),
        ("", NoOpAction()),
        ("# Burn card 6s is exposed", NoOpAction(commentary="Burn card 6s is exposed")),
        ("p1 cc # Ivey thinks for a while", CheckCallAction(0, commentary="Ivey thinks for a while")),
    ],
)
def test_parse_and_canonical_text(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert action.to_text() == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("   p1    cbr   300   ", "p1 cbr 300"),
        ("p1 cbr 300.0", "p1 cbr 300"),
        ("p1 cc#  why  ", "p1 cc # why"),
        ("  ", ""),
        ("#x", "# x"),
        ("d dh p1 acTD", "d dh p1 AcTd"),
        ("p1 sm Ac2d # shows # twice", "p1 sm Ac2d # shows # twice"),
    ],
)
def test_lenient_spacing_gives_canonical_text(text: str, canonical: str) -> None:
    assert parse_action(text).to_text() == canonical


def test_flags_and_conversions() -> None:
    assert ShowMuckAction(0).mucks and not ShowMuckAction(0, None).mucks
    assert StandPatDiscardAction(0).stands_pat
    assert DealHoleAction(0, "Ac??") == DealHoleAction(0, (AC, None))  # a card string is parsed
    assert ShowMuckAction(0, "-") == ShowMuckAction(0, None)
    assert CompleteBetRaiseAction(0, 200.0).amount == 200 and isinstance(CompleteBetRaiseAction(0, 200.0).amount, int)
    assert CheckCallAction(0, commentary="  hi ").commentary == "hi"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("p1 xyz", "unknown action code 'xyz'"),
        ("p1 dh Ac2d", "unknown action code 'dh'"),
        ("d cc", "unknown dealer action 'cc'"),
        ("d", "unknown dealer action ''"),
        ("x1 cc", "unknown actor 'x1'"),
        ("p1", "missing action code"),
        ("p0 cc", "bad player 'p0'"),
        ("pp cc", "bad player 'pp'"),
        ("d dh 1 Ac2d", "bad player '1'"),
        ("p1 cbr", "'cbr' takes one argument, got 0"),
        ("p1 cbr 1 2", "'cbr' takes one argument, got 2"),
        ("p1 cc 100", "'cc' takes no argument"),
        ("p1 sm Ac 2d", "at most one argument"),
        ("p1 cbr -5", "bad amount '-5'"),
        ("p1 cbr 0", "bad amount '0'"),
        ("p1 cbr lots", "bad amount 'lots'"),
        ("d dh p1", "'d dh pN CARDS'"),
        ("d db", "'d db CARDS'"),
        ("d dh p1 Ac2", "odd length"),
        ("d dh p1 Zx2d", "malformed card 'Zx'"),
        ("d db 1c2c3c", "malformed card '1c'"),
        ("d dh p1 AcAc", "card Ac appears twice"),
        ("p1 sm ?hAd", "partially known card '?h'"),
        ("p1 sd A?", "partially known card 'A?'"),
    ],
)
def test_bad_action_lines(text: str, fragment: str) -> None:
    with pytest.raises(HandHistoryError, match="action") as info:
        parse_action(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


def test_player_count_is_checked() -> None:
    assert parse_action("p6 f", player_count=6) == FoldAction(5)
    with pytest.raises(HandHistoryError, match=r"player p9 is out of range; the hand has 6 players \(p1-p6\)"):
        parse_action("p9 f", player_count=6)
    with pytest.raises(HandHistoryError, match="p7 is out of range"):
        parse_action("d dh p7 ????", player_count=6)


def test_card_helpers() -> None:
    assert parse_phh_cards("") == ()
    assert parse_phh_cards("??Ah") == (None, Card("Ah"))
    assert format_phh_cards((None, Card("Ah"))) == "??Ah"
    with pytest.raises(HandHistoryError, match="malformed card"):
        parse_phh_cards("Ahx?")


# --- property: every action object prints to a line that parses back to it ---------------------

_maybe_cards = st.lists(st.one_of(st.none(), st.sampled_from(CARDS)), max_size=7).map(
    lambda cs: tuple(c for i, c in enumerate(cs) if c is None or c not in cs[:i])
)
_players = st.integers(0, 20)
_amounts = st.one_of(
    st.integers(1, 10**15),
    st.floats(min_value=1e-6, max_value=1e15, allow_nan=False, allow_infinity=False),
)
_comments = st.one_of(st.none(), st.text())


def _nonempty(cards: tuple[MaybeCard, ...]) -> bool:
    return len(cards) > 0


_actions = st.one_of(
    st.builds(DealHoleAction, _players, _maybe_cards.filter(_nonempty), commentary=_comments),
    st.builds(DealBoardAction, _maybe_cards.filter(_nonempty), commentary=_comments),
    st.builds(PostBringInAction, _players, commentary=_comments),
    st.builds(CompleteBetRaiseAction, _players, _amounts, commentary=_comments),
    st.builds(CheckCallAction, _players, commentary=_comments),
    st.builds(FoldAction, _players, commentary=_comments),
    st.builds(StandPatDiscardAction, _players, _maybe_cards, commentary=_comments),
    st.builds(ShowMuckAction, _players, st.one_of(st.none(), _maybe_cards), commentary=_comments),
    st.builds(NoOpAction, commentary=_comments),
)


@given(_actions)
def test_to_text_round_trips(action: Action) -> None:
    assert parse_action(action.to_text()) == action
