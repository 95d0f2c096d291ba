"""The public API of the applications (``cardgame.server``, ``cardgame.terminal``, ``cardgame.rl``) walked
with hostile values, as ``tests/test_public_api_fuzz.py`` walks the core packages (see
:mod:`tests.api_walk`): every public callable either works or refuses the value with the library's own
error (:class:`~cardgame.model.errors.CardgameError`) whose message is short, within a few seconds.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardgame.model.errors import ConfigError, HandHistoryError
from cardgame.server import TableConfig, TableHost
from cardgame.store.serialize import SnapshotError
from cardgame.terminal.lines import fit
from cardgame.terminal.play import load, new_session
from cardgame.terminal.replay import Replayer, interact
from tests.api_walk import (
    MESSAGE_LIMIT,
    public_callables,
    walk_tests,
)

APPS = ("cardgame.server", "cardgame.terminal", "cardgame.rl", *(f"cardgame.rl.{m}" for m in (
    "actions", "cfr", "env", "gym", "mccfr", "observe", "spiel", "vector")),
    "cardgame.tournament", *(f"cardgame.tournament.{m}" for m in (
        "event", "icm", "payouts", "places", "seating", "series", "structure")))

#: Public names not called by the walk, each with the reason (exact names: a class's builder is walked).
#: The entry points that run until stopped are outside the walked ``__all__`` (``cardgame.server.serve.serve``:
#: its arguments are checked before uvicorn starts, :func:`test_serve_refuses_bad_arguments_before_it_starts`)
#: or refuse a hostile argument before they start (``replay.interact`` checks its Replayer and Console first;
#: ``terminal_reader`` reads only when a prompt asks), so the walk calls them.
ALLOWED: dict[str, str] = {
    "cardgame.rl.cfr.GameTree": "the tree GameTree.build makes from its own Nodes (GameTree.build is walked)",
    "cardgame.rl.cfr.Node": "a node GameTree.build makes while it walks a SpielGame",
}

#: Names (prefixes) whose arguments are the library's own runtime objects, never parsed from input.
RUNTIME: tuple[str, ...] = (
    # drawing a frame: a TableView, the Cards of a view, a seat-label function, made by the game each frame
    "cardgame.terminal.render.",
    # rl's input checks, whose bounds, names and room are code (as model.inputs in the core walk)
    "cardgame.rl.actions.whole_or_none", "cardgame.rl.env.check_seed",
)

#: Escapes not yet mended (``name: what escapes``): each a strict xfail. Empty.
KNOWN_ESCAPES: dict[str, str] = {}

API = public_callables(APPS, ALLOWED, RUNTIME)


#: Every test in a folder of its own: a hostile string may be taken for a file name and written.
pytestmark = pytest.mark.usefixtures("own_folder")


def test_the_walk_finds_the_applications_public_api() -> None:
    names = {name for name, _ in API}
    assert {"cardgame.server.TableHost", "cardgame.server.read_config", "cardgame.server.read_message",
            "cardgame.server.TableConfig", "cardgame.server.create_app", "cardgame.server.Server",
            "cardgame.terminal.replay.Replayer", "cardgame.terminal.play.new_session", "cardgame.terminal.play.load",
            "cardgame.terminal.prompt.parse_action", "cardgame.terminal.lines.fit", "cardgame.rl.env",
            "cardgame.tournament.icm", "cardgame.tournament.Structure.from_toml",
            "cardgame.tournament.Standings", "cardgame.tournament.payouts_for"} <= names


#: Each fixed hostile value in each parameter, and hypothesis's (:func:`tests.api_walk.walk_tests`).
test_application_callables_refuse_each_fixed_hostile_value, test_application_callables_refuse_hostile_values = (
    walk_tests(API, KNOWN_ESCAPES))


# --- arguments the walk does not reach (after a first one it makes hostile) -------------------------------

HUGE = 10**5000
DATA = Path(__file__).parent / "data"


def _console() -> Console:
    return Console(file=io.StringIO())


def _no_input(prompt: str, timeout: float | None) -> str | None:
    raise EOFError


@pytest.mark.parametrize(("keyword", "value"), [
    ("bots", 5), ("bots", None), ("bots", b"random"), ("params", "x"), ("params", [1, 2]), ("phh", 5),
    ("phh", b"h.phhs"), ("save", 5), ("save", ["x" * 100_000]), ("time_limit", "30"), ("time_limit", HUGE),
    ("time_limit", 1.5)], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else type(v).__name__)
def test_new_session_refuses_a_bad_keyword_before_anything_starts(keyword: str, value: Any) -> None:
    """``new_session(bots=5)`` was a bare TypeError, ``params="x"`` a ValueError, ``phh=5`` an AttributeError
    (the walk makes ``seats`` hostile with them, so it stops before them)."""
    with pytest.raises(ConfigError) as info:
        new_session("NT", 3, _console(), _no_input, **{keyword: value})
    assert len(str(info.value)) <= MESSAGE_LIMIT


@pytest.mark.parametrize(("keyword", "value"), [("save", 5), ("phh", 5), ("time_limit", 0), ("time_limit", "30")])
def test_load_refuses_a_bad_keyword_before_reading_the_file(keyword: str, value: Any) -> None:
    """``load`` took any ``time_limit``, and a ``save`` or ``phh`` of 5 was a bare TypeError or AttributeError."""
    with pytest.raises(ConfigError, match=keyword.replace("_limit", "").replace("time", "clock")):
        load("saved.json", _console(), _no_input, **{keyword: value})


def test_a_missing_file_is_the_librarys_error_with_the_command_lines_words(tmp_path: Any) -> None:
    """``Replayer`` and ``load`` raised the bare ``OSError`` of a file that cannot be opened; now their own
    error, worded as the command line worded the OSError (an excerpt of the path and the system's reason)."""
    for call, error in ((lambda p: Replayer(p), HandHistoryError), (lambda p: load(p, _console(), _no_input),
                                                                    SnapshotError)):
        with pytest.raises(error, match=r"^'gone\.phh': No such file or directory$"):
            call("gone.phh")
        with pytest.raises(error, match="File name too long") as info:
            call("x" * 100_000)
        assert len(str(info.value)) <= MESSAGE_LIMIT
    with pytest.raises(HandHistoryError, match="a file's path"):
        Replayer("a\0b")


def test_serve_refuses_bad_arguments_before_it_starts() -> None:
    """``serve`` starts uvicorn and runs until interrupted; a bad argument is refused before that (the walk
    cannot call it, so its checks are called here)."""
    serve = pytest.importorskip("cardgame.server.serve").serve
    for kwargs in ({"bots": "2"}, {"bots": HUGE}, {"port": -1}, {"port": "80"}, {"host": 5},
                   {"tables": 5}, {"tables": ["NoSuchGame"]}, {"allowed_origins": 5}, {"name": 5}):
        with pytest.raises(ConfigError):
            serve(db=None, **kwargs)


def test_lines_fit_refuses_a_width_that_is_no_number_and_bounds_a_huge_one() -> None:
    """A width of NaN ran ``textwrap`` for ever (``max(nan, 20)`` is NaN) and a float or text one was a
    bare TypeError; a huge width is taken as the widest line, 10,000 columns."""
    for width in (math.nan, math.inf, 80.0, "80", None):
        with pytest.raises(ConfigError, match="width"):
            fit("a b", width)
    assert fit("a b", 10**17) == ["a b"]
    assert fit("word " * 5000, 10**17)[0] == ("word " * 2000).strip()
    with pytest.raises(ConfigError):
        fit("a b", 10**19)


@pytest.mark.parametrize(("keyword", "value"), [("hand", "1"), ("hand", 1.0), ("hand", None), ("hand", HUGE),
                                                ("seat", 5), ("seat", None), ("seat", b"all")],
                         ids=lambda v: v if isinstance(v, str) else type(v).__name__)
def test_replayer_refuses_a_bad_hand_or_seat_of_a_good_file(keyword: str, value: Any) -> None:
    """With a file that opens (the walk's hostile path stops it first), ``hand="1"`` was a bare TypeError and
    ``seat=5`` an AttributeError."""
    with pytest.raises(HandHistoryError, match=keyword) as info:
        Replayer(DATA / "phh" / "dwan-ivey-2009.phh", **{keyword: value})
    assert len(str(info.value)) <= MESSAGE_LIMIT


@pytest.mark.parametrize(("keyword", "value"), [("game", 5), ("tokens", 5), ("tokens", {"1": 5}), ("first_seq", "1"),
                                                ("first_seq", HUGE), ("now", 5), ("on_token", "x")],
                         ids=lambda v: v if isinstance(v, str) else type(v).__name__)
def test_table_host_refuses_a_bad_keyword_with_a_good_config(keyword: str, value: Any) -> None:
    """With a good config (the walk's hostile one stops it first), ``game=5`` was a bare AttributeError and
    ``tokens=5`` or ``first_seq="1"`` a TypeError; a hook that cannot be called was taken, to fail later."""
    with pytest.raises(ConfigError, match=f"(?i){keyword}") as info:
        TableHost("t", TableConfig("NT"), **{keyword: value})
    assert len(str(info.value)) <= MESSAGE_LIMIT


def test_a_session_and_the_replay_loop_refuse_a_reader_that_is_no_function() -> None:
    """``new_session(..., read=5)`` built the game and failed at the first prompt with a bare TypeError; it and
    ``interact`` now refuse it before anything starts."""
    with pytest.raises(ConfigError, match="read must be a function"):
        new_session("NT", 3, _console(), 5)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="read must be a function"):
        interact(Replayer(DATA / "phh" / "dwan-ivey-2009.phh"), _console(), 5)  # type: ignore[arg-type]
    lines: list[str] = []
    interact(Replayer(DATA / "phh" / "dwan-ivey-2009.phh"), _console(), lambda prompt: _closed(lines))
    assert lines == ["asked"]  # a closed input ends the loop at its first prompt


def _closed(lines: list[str]) -> str:
    lines.append("asked")
    raise EOFError  # input ended: the loop ends
