"""Malformed hands raise HandHistoryError naming the file, the hand and the field or action line."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardgame.model.errors import CardgameError, HandHistoryError
from cardgame.phh import FoldAction, HandHistory, UnknownFieldWarning, dumps, load, loads, save

GOOD = """\
variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [50, 100, 0, 0, 0, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]
actions = [
  "d dh p1 3c9s", "d dh p2 6d5s", "d dh p3 9dTs", "d dh p4 2sQs", "d dh p5 AdKd", "d dh p6 7cTc",
  "p3 f", "p4 f", "p5 cbr 225", "p6 f", "p1 f", "p2 f",
]
"""


def _error(text: str, *, source: str = "bad.phh", multi: bool = False) -> str:
    with pytest.raises(HandHistoryError) as info:
        loads(text, source=source, multi=multi)
    return str(info.value)


def _replace(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


def test_good_hand_parses() -> None:
    [hand] = loads(GOOD)
    assert hand.player_count == 6 and hand.actions[-1] == FoldAction(1)


def test_error_is_a_library_value_error() -> None:
    assert issubclass(HandHistoryError, CardgameError) and issubclass(HandHistoryError, ValueError)


def test_bad_card() -> None:
    msg = _error(_replace('"d dh p2 6d5s"', '"d dh p2 6d5x"'))
    assert msg.startswith("bad.phh: actions[1] 'd dh p2 6d5x': malformed card '5x'")


def test_unknown_action() -> None:
    msg = _error(_replace('"p4 f"', '"p4 raise 300"'))
    assert msg.startswith("bad.phh: actions[7] 'p4 raise 300': unknown action code 'raise'")


def test_player_out_of_range() -> None:
    msg = _error(_replace('"p6 f"', '"p9 f"'))
    assert "bad.phh: actions[9] 'p9 f': player p9 is out of range; the hand has 6 players (p1-p6)" in msg


def test_missing_min_bet_for_no_limit() -> None:
    msg = _error(_replace("min_bet = 100\n", ""))
    assert msg == "bad.phh: missing field 'min_bet', required for variant 'NT' (no-limit Texas hold'em)"


@pytest.mark.parametrize(
    ("variant", "fields", "missing"),
    [
        ("FT", "blinds_or_straddles = [1, 2]\nsmall_bet = 100\n", "field 'big_bet'"),
        ("F7S", "small_bet = 100\nbig_bet = 200\n", "field 'bring_in'"),
        ("FB", "min_bet = 100\n", "fields 'blinds_or_straddles', 'small_bet', 'big_bet'"),
    ],
)
def test_missing_fields_per_variant(variant: str, fields: str, missing: str) -> None:
    text = f'variant = "{variant}"\nantes = [1, 1]\n{fields}starting_stacks = [100, 100]\nactions = []\n'
    assert f"missing {missing}, required for variant {variant!r}" in _error(text)


def test_missing_required_common_fields() -> None:
    assert "missing required field 'variant'" in _error(_replace('variant = "NT"\n', ""))
    assert "missing field 'actions'" in _error(GOOD.split("actions")[0])
    assert "missing field 'starting_stacks'" in _error(_replace("starting_stacks", "_starting_stacks"))


def test_field_forbidden_for_variant() -> None:
    msg = _error(_replace("min_bet = 100\n", "min_bet = 100\nsmall_bet = 100\n"))
    assert "field 'small_bet' must not be given for variant 'NT'" in msg
    msg = _error(_replace("min_bet = 100\n", "min_bet = 100\nbring_in = 10\n"))
    assert "field 'bring_in' must not be given" in msg


def test_unknown_variant() -> None:
    assert "unknown variant 'NLHE'; known codes are FT, NT, NS" in _error(_replace('"NT"', '"NLHE"'))


def test_bad_toml() -> None:
    msg = _error('variant = "NT"\nantes = [0, 0]]\n')
    assert msg.startswith("bad.phh: invalid TOML: ") and "line 2" in msg


def test_wrong_types() -> None:
    assert "field 'min_bet' must be a number, got '100'" in _error(_replace("min_bet = 100", 'min_bet = "100"'))
    assert "field 'min_bet' must be a number, got True" in _error(_replace("min_bet = 100", "min_bet = true"))
    assert "field 'players' must be an array of strings" in _error(GOOD + 'players = ["a", 1, "c", "d", "e", "f"]\n')
    assert "field 'actions' must be an array of action strings" in _error(_replace('"p3 f"', "3"))
    assert "field 'year' must be an integer" in _error(GOOD + "year = 2019.5\n")
    assert "field 'time' must be a TOML local time" in _error(GOOD + 'time = "noon"\n')


def test_per_player_lengths() -> None:
    msg = _error(_replace("antes = [0, 0, 0, 0, 0, 0]", "antes = [0, 0, 0]"))
    assert "field 'antes' has 3 entries but there are 6 players" in msg
    assert "field 'finishing_stacks' has 1 entries" in _error(GOOD + "finishing_stacks = [1]\n")
    one = _replace("starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]", "starting_stacks = [1]")
    assert "a hand needs at least 2 players" in _error(one)


def test_value_ranges() -> None:
    stacks = "starting_stacks = [10000, 10000, 10000, 10000, 10000, 10000]"
    assert "field 'starting_stacks' entry 2 is 0; it must be positive" in _error(
        _replace(stacks, "starting_stacks = [10000, 0, 10000, 10000, 10000, 10000]")
    )
    assert "field 'antes' entry 1 is -5; it must not be negative" in _error(_replace("antes = [0,", "antes = [-5,"))
    assert "field 'min_bet' is nan" in _error(_replace("min_bet = 100", "min_bet = nan"))
    assert "field 'month' is 13" in _error(GOOD + "month = 13\n")
    # Unknown stacks may be written inf (spec); a finite field may not.
    [hand] = loads(_replace(stacks, "starting_stacks = [inf, 10000, 10000, 10000, 10000, 10000]"))
    assert hand.starting_stacks[0] == float("inf")
    assert "field 'min_bet' is inf; it must be finite" in _error(_replace("min_bet = 100", "min_bet = inf"))


def test_duplicate_cards_across_actions() -> None:
    msg = _error(_replace('"d dh p4 2sQs"', '"d dh p4 2s3c"'))
    assert "actions[3] 'd dh p4 2s3c': card 3c was already dealt to p1 in actions[0]" in msg
    text = _replace('"p2 f",', '"p2 cc", "d db 7c8c9c",')
    assert "card 7c was already dealt to p6 in actions[5]" in _error(text)


def test_show_of_someone_elses_card() -> None:
    text = _replace('"p1 f", "p2 f",', '"p1 f", "p2 cc", "p5 sm AdKd", "p2 sm 7cTc",')
    assert "p2 shows 7c, which was dealt to p6 in actions[5]" in _error(text)


def test_short_deck_rejects_low_cards() -> None:
    text = _replace('"NT"', '"NS"')
    assert "card 3c is not in the short deck (6 to A) used by NS" in _error(text)


def test_actions_the_variant_does_not_use() -> None:
    assert "NT (no-limit Texas hold'em) is not a draw game; 'sd' is not allowed" in _error(
        _replace('"p3 f"', '"p3 sd"')
    )
    assert "has no bring-in" in _error(_replace('"p3 f"', '"p3 pb"'))
    stud = (
        'variant = "F7S"\nantes = [1, 1]\nbring_in = 1\nsmall_bet = 2\nbig_bet = 4\n'
        'starting_stacks = [100, 100]\nactions = ["d dh p1 ????Ac", "d dh p2 ????Kc", "d db 2c3c"]\n'
    )
    assert ("actions[2] 'd db 2c3c': F7S (fixed-limit seven card stud) deals the board one community card at a "
            "time") in _error(stud)
    draw = stud.replace('"F7S"', '"F2L3D"').replace("bring_in = 1", "blinds_or_straddles = [1, 2]")
    assert "F2L3D (fixed-limit deuce-to-seven lowball triple draw) has no board cards" in _error(draw)


def test_phhs_errors_name_the_hand() -> None:
    bad = _replace('"p6 f"', '"p9 f"')
    text = "[1]\n" + GOOD + "\n[2]\n" + bad
    msg = _error(text, source="many.phhs", multi=True)
    assert msg.startswith("many.phhs: hand [2]: actions[9] 'p9 f': player p9 is out of range")


def test_phhs_layout_errors() -> None:
    assert "top-level key 'variant' is not a hand table" in _error(GOOD, source="x.phhs", multi=True)
    msg = _error("[1]\n" + GOOD + "\n[2]\n" + GOOD)
    assert "looks like a .phhs file of several hands (tables [1], [2]...); load it with multi=True" in msg


def test_load_names_the_file(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.phh", tmp_path / "many.phhs"
    good.write_text(GOOD, encoding="utf-8")
    bad.write_text("[1]\n" + GOOD + "\n[2]\n" + _replace("min_bet = 100\n", ""), encoding="utf-8")
    assert len(load(good)) == 1
    with pytest.raises(HandHistoryError, match=rf"^{bad}: hand \[2\]: missing field 'min_bet'"):
        load(bad)
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"variant = '\xff'\n")
    with pytest.raises(HandHistoryError, match="not UTF-8"):
        load(binary)
    with pytest.raises(HandHistoryError, match=r"Cannot read a hand-history file: .*missing.phh': No such file"):
        load(tmp_path / "missing.phh")


def test_unknown_fields_are_kept() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        [hand] = loads(GOOD + '_sponsors = ["", "GGPoker", "", "", "", ""]\n_meta = {source = "test"}\n')
    assert hand.extra == {"_sponsors": ["", "GGPoker", "", "", "", ""], "_meta": {"source": "test"}}
    with pytest.warns(UnknownFieldWarning, match="unknown field 'player'"):
        [typo] = loads(GOOD + 'player = "Bob"\n')
    assert typo.extra == {"player": "Bob"}
    assert loads(dumps(hand)) == [hand]


def test_writing_invalid_hands_fails(tmp_path: Path) -> None:
    [hand] = loads(GOOD)
    with pytest.raises(HandHistoryError, match="hand 1: cannot write: field 'antes' has 2 entries"):
        dumps(HandHistory(**{**_fields(hand), "antes": (0, 0)}))
    with pytest.raises(HandHistoryError, match="extra field 'antes' is a standard field"):
        HandHistory(**{**_fields(hand), "extra": {"antes": [1]}}).validate()
    with pytest.raises(HandHistoryError, match="exactly one hand, got 2"):
        dumps([hand, hand], multi=False)
    with pytest.raises(HandHistoryError, match="exactly one hand, got 2"):
        save(tmp_path / "two.phh", [hand, hand])
    with pytest.raises(HandHistoryError, match="cannot write object value"):
        dumps(HandHistory(**{**_fields(hand), "extra": {"_x": object()}}))


def _fields(hand: HandHistory) -> dict[str, Any]:
    return attrs.asdict(hand, recurse=False)


def test_from_dict_and_to_dict() -> None:
    [hand] = loads(GOOD)
    data = hand.to_dict()
    assert list(data)[:3] == ["variant", "antes", "blinds_or_straddles"]
    assert data["actions"][0] == "d dh p1 3c9s" and data["antes"] == [0] * 6
    assert HandHistory.from_dict(data) == hand
    with pytest.raises(HandHistoryError, match=r"^mine: field 'antes' has 2 entries"):
        HandHistory.from_dict({**data, "antes": [0, 0]}, source="mine")
    with pytest.raises(HandHistoryError, match="is not a PHH action object"):
        HandHistory(**{**_fields(hand), "actions": ["p1 f"]}).validate()
    with pytest.raises(HandHistoryError, match="expected an array"):
        HandHistory(variant="NT", starting_stacks=[1, 2], players="ab")
