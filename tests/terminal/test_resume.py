"""``cardgame play --resume FILE`` with a hand-edited save: every field is checked before anything
starts and a wrong one is refused in one line naming it; a save does not continue under another
variant or other parameters."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardgame.model.errors import CardgameError, ConfigError
from cardgame.store.serialize import SnapshotError
from cardgame.terminal.play import load, new_session


def _quit(prompt: str, timeout: float | None) -> str | None:
    return "quit"


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, color_system=None), out


def _saved(tmp_path: Path, variant: str = "NT", seats: int = 3, answers: tuple[str, ...] = ("c",),
           **kwargs: Any) -> Path:
    """A game saved by the person after ``answers``, in ``tmp_path/game.json``."""
    save = tmp_path / "game.json"
    script = iter([*answers, "save", "quit"])
    console, _ = _console()
    session = new_session(variant, seats, console, lambda p, t: next(script), seed=4, save=str(save),
                          bots=["calling-station"], **kwargs)
    session.run()
    return save


def _edit(path: Path, change: Callable[[dict[str, Any]], object]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


WRONG: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("seat past the table", lambda d: d.update(seat=5), r"saved seat is wrong: 5 is not a seat at the table "
                                                        r"\(seated: 0, 1, 2\)"),
    ("negative seat", lambda d: d.update(seat=-1), "saved seat is wrong: -1 is not a seat"),
    ("seat as text", lambda d: d.update(seat="0"), "saved seat is wrong: '0' is not a seat"),
    ("seat as boolean", lambda d: d.update(seat=True), "saved seat is wrong: True is not a seat"),
    ("time zero", lambda d: d.update(time=0), "saved time is wrong: 0 is not a number of seconds from 1 to 3600"),
    ("time past an hour", lambda d: d.update(time=3601), "saved time is wrong: 3601"),
    ("time as text", lambda d: d.update(time="5"), "saved time is wrong: '5'"),
    ("phh not text", lambda d: d.update(phh=5), "saved phh is wrong: 5 is not a file name"),
    ("phh not .phhs", lambda d: d.update(phh="hands.txt"), "saved phh is wrong: The PHH file holds every hand"),
    ("phh in no folder", lambda d: d.update(phh="/no/such/folder/hands.phhs"),
     "saved phh file '/no/such/folder/hands.phhs' cannot be written"),
    ("unknown bot", lambda d: d["bots"].update({"1": "nobody"}), "saved bots is wrong: seat 1's 'nobody' is not a bot"),
    ("bot for the person", lambda d: d["bots"].update({"0": "random"}), r"saved bots is wrong: '0' is not one of the "
                                                                         r"other seats \(1, 2\)"),
    ("bot for an empty seat", lambda d: d["bots"].update({"7": "random"}), "'7' is not one of the other seats"),
    ("a seat without a bot", lambda d: d["bots"].pop("2"), r"the seats 1, 2 each need a bot, not 1"),
    ("bots not an object", lambda d: d.update(bots=[]), r"saved bots is wrong: \[\] is not an object"),
    ("no bots", lambda d: d.pop("bots"), "a saved game's field is missing: bots"),
    ("escape in a name", lambda d: d["game"]["context"]["table"]["seats"][1].update(name="\x1b]0;pwned\x07"),
     r"saved players is wrong: the name '\\x1b\]0;pwned\\x07': a name is 1 to 20 printable characters"),
    ("unknown parameter", lambda d: d.update(params={"blinds": 3}), "Bad parameters for no-limit hold'em"),
    ("parameters not an object", lambda d: d.update(params=[[1, 2]]), r"saved params is wrong: \[\[1, 2\]\]"),
    ("unknown variant", lambda d: d.update(variant="snap"), "saved variant is wrong: 'snap' is not a variant's name"),
]


@pytest.mark.parametrize(("change", "said"), [pytest.param(c, s, id=i) for i, c, s in WRONG])
def test_a_wrong_field_is_refused_in_one_line(tmp_path: Path, change: Callable[[dict[str, Any]], object],
                                              said: str) -> None:
    save = _saved(tmp_path)
    _edit(save, change)
    console, out = _console()
    with pytest.raises(SnapshotError, match=said) as info:
        load(str(save), console, _quit)
    assert "\n" not in str(info.value) and str(info.value).startswith(str(save))
    assert "\x1b" not in str(info.value) and out.getvalue() == ""


@pytest.mark.parametrize(("variant", "edited", "said"), [
    ("NT", {"variant": "FT"}, r"Stage 3 \(BettingRound\) was saved with structure 'NoLimit"),
    ("F7S", {"variant": "FR"}, r"Stage 3 \(BringIn\) was saved with highest False but the stage list given has "
                               r"highest True"),
    ("NT", {"params": {"small_blind": 5, "big_blind": 10}}, r"blinds \(1, 2\) but the stage list given has blinds "
                                                           r"\(5, 10\)"),
])
def test_another_variant_or_other_parameters_are_refused(tmp_path: Path, variant: str, edited: dict[str, Any],
                                                         said: str) -> None:
    save = _saved(tmp_path, variant, answers=("bi", "c") if variant == "F7S" else ("c",))
    _edit(save, lambda d: d.update(edited))
    console, _ = _console()
    with pytest.raises(SnapshotError, match=said):
        load(str(save), console, _quit)


def test_a_good_save_resumes_and_the_command_line_replaces_the_files(tmp_path: Path) -> None:
    save = _saved(tmp_path, time_limit=30, phh=str(tmp_path / "hands.phhs"))
    console, _ = _console()
    session = load(str(save), console, _quit)
    assert (session.setup.seat, session.setup.time, session.setup.phh) == (0, 30, str(tmp_path / "hands.phhs"))
    assert session.setup.bots == {1: "calling-station", 2: "calling-station"}
    # a --phh on the command line is used instead of the saved one, and checked as the command line's
    other = tmp_path / "other.phhs"
    assert load(str(save), console, _quit, phh=str(other), time_limit=7).setup.phh == str(other)
    with pytest.raises(ConfigError, match=r"The --phh file '/no/such/x\.phhs' cannot be written"):
        load(str(save), console, _quit, phh="/no/such/x.phhs")
    with pytest.raises(ConfigError, match=r"give a \.phhs file"):
        load(str(save), console, _quit, phh=str(tmp_path / "x.phh"))
    with pytest.raises(ConfigError, match=r"would be saved to '/no/such/g\.json', which cannot be written"):
        load(str(save), console, _quit, save="/no/such/g.json")


def test_a_bad_name_is_refused_before_anything_starts() -> None:
    console, out = _console()
    for name in ("\x1b]0;title\x07", "\x1b[2J", "Ann\n", "x" * 21, "   ", ""):
        with pytest.raises(ConfigError, match="a name is 1 to 20 printable characters"):
            new_session("NT", 2, console, _quit, name=name)
    new_session("NT", 2, console, _quit, name="x" * 20)
    assert out.getvalue() == ""
    assert issubclass(SnapshotError, CardgameError)
