"""Hostile PHH input: every crash found by fuzzing the PHH reader, replay and ``cardgame phh check``,
kept as a regression test with its literal input. Each must end in the library's own
:class:`HandHistoryError` (never ``ValueError``, ``OverflowError``, ``RecursionError``, ``IndexError``
or ``MemoryError``), quoting at most a short excerpt of the input.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgame.cli import main
from cardgame.model.errors import HandHistoryError
from cardgame.phh import HandHistory, dumps, load, loads
from cardgame.phh.io import MAX_BYTES
from cardgame.phh.replay import check_paths, replay

GOOD = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AcAd', 'd dh p2 ????', 'p2 cbr 6', 'p1 cc', 'd db 2c3d4h', 'p1 cc', 'p2 cc', 'd db 5s',
           'p1 cc', 'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'p1 sm AcAd', 'p2 sm ????']
"""
MESSAGE_LIMIT = 400  # characters: a message names the problem and quotes an excerpt, never the input


def _edit(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


#: name -> (text, a phrase the error must contain). Found by tests/phh/test_fuzz.py and the issue's audit.
CORPUS = {
    # numbers past int()'s 4,300-digit limit (ValueError before)
    "amount of 5,000 digits": (_edit("'p2 cbr 6'", "'p2 cbr " + "9" * 5000 + "'"), "bad amount"),
    "player of 5,000 digits": (_edit("'p2 cbr 6'", "'p" + "9" * 5000 + " cbr 6'"), "out of range"),
    "TOML integer of 5,000 digits": (_edit("[200, 200]", "[" + "9" * 5000 + ", 200]"), "a number too long"),
    # numbers too large for a float (OverflowError before)
    "stack of 400 digits": (_edit("[200, 200]", "[" + "9" * 400 + ", 200]"), "more than 18 digits"),
    "ante of 400 digits": (_edit("antes = [0, 0]", "antes = [" + "9" * 400 + ", 0]"), "more than 18 digits"),
    "year of 400 digits": (GOOD + "year = " + "9" * 400 + "\n", "more than 18 digits"),
    "blind of 30 digits": (_edit("[1, 2]", "[1, -" + "9" * 30 + "]"), "more than 18 digits"),
    "amount of 19 digits": (_edit("'p2 cbr 6'", "'p2 cbr 1" + "0" * 18 + "'"), "at most 18 digits"),
    # deep nesting (RecursionError before)
    "arrays 100,000 deep": (GOOD + "_x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested more than"),
    "tables 100,000 deep": (GOOD + "_x = " + "{a=" * 100_000 + "1" + "}" * 100_000 + "\n", "nested more than"),
    # more unknown cards than the deck holds (IndexError in the replay's card plan before)
    "60 unknown hole cards": (_edit("'d dh p1 AcAd'", "'d dh p1 " + "??" * 60 + "'"), "more cards than the deck"),
    "60 unknown board cards": (_edit("'d db 9h'", "'d db " + "??" * 60 + "'"), "more cards than the deck"),
    # Unicode digits are not numbers
    "superscript amount": (_edit("'p2 cbr 6'", "'p2 cbr ²'"), "bad amount"),
    "subscript amount": (_edit("'p2 cbr 6'", "'p2 cbr ₅'"), "bad amount"),
    "Arabic-Indic amount": (_edit("'p2 cbr 6'", "'p2 cbr ٦'"), "bad amount"),
    "Arabic-Indic player": (_edit("'p2 cbr 6'", "'p٢ cbr 6'"), "bad player"),
    "superscript card": (_edit("'d dh p1 AcAd'", "'d dh p1 ²c٦d'"), "malformed card"),
    # long input is quoted as an excerpt (messages of 100,000 characters before)
    "action line of 100,000 characters": (_edit("'p2 cbr 6'", "'p2 cbr 6 " + "x" * 100_000 + "'"), "takes one"),
    "variant of 100,000 characters": (_edit("'NT'", "'" + "N" * 100_000 + "'"), "unknown variant"),
    "amount of 100,000 characters": (_edit("'p2 cbr 6'", "'p2 cbr 6." + "0" * 100_000 + "1'"), "bad amount"),
    # the engine refusing the table is the hand's error (StageError before; now the table's seat bound refuses it)
    "5,000 players": (_edit("starting_stacks = [200, 200]", "starting_stacks = [" + ", ".join(["200"] * 5000) + "]")
                      .replace("antes = [0, 0]", "antes = [" + ", ".join(["0"] * 5000) + "]")
                      .replace("[1, 2]", "[" + ", ".join(["1", "2"] + ["0"] * 4998) + "]"), "the table cannot be set"),
    "amount not in whole chips": (_edit("'p2 cbr 6'", "'p2 cbr 6.0000000001'"), "<hand>: amount 6.0000000001"),
}


@pytest.mark.parametrize("name", list(CORPUS))
def test_hostile_text_is_a_hand_history_error(name: str) -> None:
    text, phrase = CORPUS[name]
    with pytest.raises(HandHistoryError) as caught:
        for hand in loads(text):
            replay(hand)
    message = str(caught.value)
    assert phrase in message and len(message) <= MESSAGE_LIMIT


def test_a_str_is_required_and_field_names_are_strings() -> None:
    with pytest.raises(HandHistoryError, match="must be a str"):
        loads(b"variant = 'NT'")  # type: ignore[arg-type]
    with pytest.raises(HandHistoryError, match="field names are strings"):
        HandHistory.from_dict({"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [1, 2], "min_bet": 2,
                               "starting_stacks": [5, 5], "actions": [], 7: 1})


def test_writing_a_value_toml_cannot_hold_is_an_error() -> None:
    [hand] = loads(GOOD)
    huge = HandHistory(**{**{f: getattr(hand, f) for f in ("variant", "antes", "blinds_or_straddles", "min_bet",
                                                           "starting_stacks", "actions")},
                          "extra": {"_x": 10**5000}})
    with pytest.raises(HandHistoryError, match="hand 1: cannot write"):
        dumps(huge)


def test_text_over_the_size_bound_is_refused_before_parsing() -> None:
    with pytest.raises(HandHistoryError, match="too large"):
        loads(" " * (MAX_BYTES + 1))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_dev_zero_is_read_only_to_the_bound() -> None:
    """An endless file (``/dev/zero``) was read until MemoryError."""
    with pytest.raises(HandHistoryError, match="longer than 67,108,864 bytes, the most a hand-history file may hold"):
        load("/dev/zero")
    [hand] = check_paths(["/dev/zero"]).hands
    assert hand.status == "error" and "longer than" in hand.detail


def test_non_utf8_bytes_are_that_files_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_bytes(b"variant = 'NT'\n\xff\xfe\n")
    with pytest.raises(HandHistoryError, match="not UTF-8 text"):
        load(bad)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_phh_check_reports_every_bad_file_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cardgame phh check``: each bad hand or file (``/dev/zero`` too) is its own error line; the good
    hand is still checked; no traceback; exit status 1."""
    (tmp_path / "bad.phh").write_bytes(b"\xff\xfe")
    (tmp_path / "deep.phh").write_text(CORPUS["arrays 100,000 deep"][0])
    (tmp_path / "huge.phh").write_text(CORPUS["amount of 5,000 digits"][0])
    (tmp_path / "deck.phh").write_text(CORPUS["60 unknown board cards"][0])
    (tmp_path / "good.phh").write_text(GOOD)
    (tmp_path / "folder.phh").mkdir()
    code = main(["phh", "check", str(tmp_path), "/dev/zero"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    assert "good.phh: 0/0 reproduced, 1 replayed without finishing stacks" in out
    for name in ("bad.phh", "deep.phh", "huge.phh", "deck.phh", "/dev/zero"):
        assert f"{name}: 0/1 reproduced" in out
    assert max(len(line) for line in out.splitlines()) <= MESSAGE_LIMIT


@pytest.mark.filterwarnings("ignore::cardgame.phh.UnknownFieldWarning")
@pytest.mark.parametrize("rake", ["'abc'", "[1, 2]", "nan", "true", "1e400"])
def test_a_rake_field_that_is_not_a_number_is_ignored(tmp_path: Path, rake: str) -> None:
    """``rake`` (a HandHQ field outside the spec) was passed to ``float()``: ValueError or TypeError."""
    path = tmp_path / "raked.phh"
    path.write_text(GOOD + f"finishing_stacks = [203, 197]\nrake = {rake}\n")
    [hand] = check_paths([path]).hands
    assert hand.status == "mismatch"
