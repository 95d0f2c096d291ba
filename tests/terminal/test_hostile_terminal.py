"""Hostile input at every surface of ``cardgame play`` and ``cardgame replay``, as a user reaches it:
the command line and its files (``play --resume`` with hostile saves, ``replay`` with hostile flags),
every prompt of the game (action, amount, draw, run-it-twice, save with a file name) and every
command of the replay. Each answer is one short line: the command exits 2 with one line on stderr,
or the prompt says what was wrong and asks again; never a traceback.

Found and fixed here: 5,000 digits (past Python's 4,300-digit limit of ``int``) crashed ``replay
--seat``, the replay's ``g``/``h``/``s`` and the draw prompt; a save nested 100,000 deep, ``/dev/zero``
or with its log emptied crashed ``--resume``; an ``OSError`` quoted a 100,000-character path whole; a
PHH or save file that could not be written once the game had started ended the game unsaved.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from rich.console import Console

import variants
from cardgame.cli import main
from cardgame.play.bots import available as bot_names
from cardgame.terminal.play import Session, new_session
from cardgame.terminal.replay import Replayer, interact

ROOT = Path(__file__).resolve().parents[2]
PHH_FILE = ROOT / "tests" / "data" / "phh" / "dwan-ivey-2009.phh"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "TERM": "dumb"}
#: The longest line an answer may be.
LINE = 300
DIGITS = "9" * 5000  # past Python's 4,300-digit limit of int()
LONG = "x" * 100_000
#: Text a hostile user or file types where a word or number is expected.
HOSTILE = ["", " ", "-1", "0", "+2", "-" + DIGITS, DIGITS, "1" + "0" * 18, "²", "٥", "１２", "1e3", "0x10", "1.5",
           "nan", LONG, "\x1b[2J\x1b]0;title\x07", "\x00", "\t\r", "p" + DIGITS, "é" * 50, "all " + LONG]
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])


def _cli(argv: list[str], folder: Path, stdin: str = "") -> tuple[int, str, str]:
    """``cardgame argv`` in this process, in ``folder``, ``stdin`` its input: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as typed, contextlib.chdir(folder), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), mock.patch("sys.stdin", typed):
        typed.write(stdin)  # a file: the game reads its file descriptor
        typed.seek(0)
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
    return status, out.getvalue(), err.getvalue()


#: The lists of choices some messages end with (every variant, every bot): not the input's, so not counted.
CHOICES = (", ".join(f"{v.code} or {v.name}" if v.code else v.name for v in variants.available()),
           ", ".join(bot_names()))


def _one_line_error(status: int, err: str, what: object = None) -> None:
    assert status == 2, (what, status, err[:500])
    short = err
    for choices in CHOICES:
        short = short.replace(choices, "...")
    assert err.count("\n") == 1 and len(short) < LINE and "Traceback" not in err, (what, err[:1000])


def _short_lines(text: str, what: object = None) -> None:
    long = [line[:200] for line in text.splitlines() if len(line) >= LINE]
    assert not long and "Traceback" not in text, (what, long)


# --- cardgame replay -----------------------------------------------------------------------------


def test_replay_seat_of_5000_digits_is_one_line() -> None:
    """It crashed with Python's ValueError (the 4,300-digit limit of int)."""
    done = subprocess.run([sys.executable, "-m", "cardgame", "replay", str(PHH_FILE), "--seat", DIGITS, "--print"],
                          capture_output=True, text=True, env=ENV, timeout=60)
    _one_line_error(done.returncode, done.stderr)
    assert "no seat '99999" in done.stderr and "a player's number 1 to 3" in done.stderr


@pytest.mark.parametrize("flag", ["--seat", "--hand"])
@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: repr(v[:12]))
def test_replay_flags_refuse_hostile_values_in_one_line(tmp_path: Path, flag: str, value: str) -> None:
    status, out, err = _cli(["replay", str(PHH_FILE), flag, value, "--print"], tmp_path)
    if status == 0:  # a value that means something: "+2" is no hand number, but a seat may be "all"
        assert flag == "--seat" and out and not err
    else:
        _one_line_error(status, err, value)


def _replayer() -> Replayer:
    return Replayer(PHH_FILE)


def test_replay_commands_with_5000_digits_answer_in_one_line() -> None:
    """``g``, ``h`` and ``s`` with 5,000 digits crashed the replay with a ValueError."""
    r = _replayer()
    for command in ("g", "h", "s"):
        said = r.command(f"{command} {DIGITS}") or ""
        assert "\n" not in said and len(said) < LINE and "99999" in said, said
        assert (r.position, r.viewer, r.number) == (0, None, 1)


@seed(7)
@settings(FUZZ)
@given(word=st.sampled_from(["g", "h", "s", "n", "p", "a", "help", "x", "G", "S", "?"]),
       arg=st.sampled_from(HOSTILE) | st.text(max_size=30), moves=st.integers(0, 20))
def test_replay_commands_refuse_hostile_arguments_unchanged(word: str, arg: str, moves: int) -> None:
    r = _replayer()
    for _ in range(moves):
        r.command("n")
    before = (r.position, r.viewer, r.number)
    said = r.command(f"{word} {arg}")
    if said is not None:
        assert all(len(line) < LINE for line in said.splitlines()), said[:500]
        if word not in ("help", "?") and not (word == "h" and not arg.strip()) and not (word == "n" and said):
            assert (r.position, r.viewer, r.number) == before, (word, arg)


def test_the_interactive_replay_says_one_line_and_goes_on() -> None:
    """The session's loop (as on a terminal): each hostile command is answered and the prompt comes back."""
    console = Console(file=io.StringIO(), width=80, color_system=None, record=True)
    typed = [f"{w} {a}" for w in ("g", "h", "s") for a in (DIGITS, "-1", "٥", LONG, "\x1b[2J")] + [LONG, "\x00", "q"]
    prompts = []
    answers = iter(typed)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    interact(_replayer(), console, read)
    assert len(prompts) == len(typed)
    text = console.export_text()
    _short_lines(text)
    assert "\x1b" not in text and re.search(r"g N: N is a step from 1 to 18, not\s+'99999", text)


# --- cardgame play --resume ----------------------------------------------------------------------


def _edited(data: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> str:
    copy = json.loads(json.dumps(data))
    change(copy)
    return json.dumps(copy)


def _context(d: dict[str, Any]) -> dict[str, Any]:
    context: dict[str, Any] = d["game"]["context"]
    return context


class _Good:
    """A good save made once (for tests that use no fixture: hypothesis)."""

    def __init__(self) -> None:
        self._data: dict[str, Any] | None = None
        self._folder: Path | None = None

    @property
    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="cardgame-hostile-"))
        return self._folder

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            status, out, _err = _cli(["play", "--seats", "3", "--seed", "4", "--bots", "calling-station", "--save",
                                      "g.json"], self.folder, "c\nsave\nquit\n")
            assert status == 0, out
            self._data = json.loads((self.folder / "g.json").read_text())
        return self._data


_GOOD = _Good()


#: Hostile save files: (name, the file's text from the good save's data, or None for a special file).
SAVES: list[tuple[str, Callable[[dict[str, Any]], str | bytes]]] = [
    ("empty", lambda d: ""),
    ("not JSON", lambda d: "hello"),
    ("truncated", lambda d: json.dumps(d)[: len(json.dumps(d)) // 2]),
    ("not UTF-8", lambda d: b"\xff\xfe" + json.dumps(d).encode()),
    ("NUL bytes", lambda d: b"\0" * 1000),
    ("nested 100,000 deep", lambda d: "[" * 100_000 + "]" * 100_000),
    ("a game nested 100,000 deep", lambda d: json.dumps({**d, "game": None}).replace(
        '"game": null', '"game": ' + "[" * 100_000 + "]" * 100_000)),
    ("a number of 5,000 digits", lambda d: json.dumps(d).replace('"seat": 0', '"seat": ' + DIGITS)),
    ("a top-level list", lambda d: "[1, 2]"),
    ("a string of 100,000 characters", lambda d: json.dumps(LONG)),
    ("the variant 100,000 characters", lambda d: _edited(d, lambda e: e.update(variant=LONG))),
    ("a bot 100,000 characters", lambda d: _edited(d, lambda e: e["bots"].update({"1": LONG}))),
    ("a bot seat of 5,000 digits", lambda d: _edited(d, lambda e: e["bots"].update({DIGITS: "random"}))),
    ("params a string", lambda d: _edited(d, lambda e: e.update(params="x"))),
    ("params hostile", lambda d: _edited(d, lambda e: e.update(params={"small_blind": 10**30, "big_blind": -1}))),
    ("the game a string", lambda d: _edited(d, lambda e: e.update(game="x"))),
    ("the game empty", lambda d: _edited(d, lambda e: e.update(game={}))),
    ("the log emptied", lambda d: _edited(d, lambda e: _context(e).update(log=[], hand_starts=[]))),
    ("the log cut", lambda d: _edited(d, lambda e: _context(e).update(log=_context(e)["log"][:2], hand_starts=[]))),
    ("the log a string", lambda d: _edited(d, lambda e: _context(e).update(log="x"))),
    ("a stack changed", lambda d: _edited(d, lambda e: _context(e)["table"]["seats"][1].update(stack=10**6))),
    ("a stack negative", lambda d: _edited(d, lambda e: _context(e)["table"]["seats"][1].update(stack=-5))),
    ("the chips changed", lambda d: _edited(d, lambda e: e["game"].update(chips=1))),
    ("the hand removed", lambda d: _edited(d, lambda e: _context(e).update(hand=None))),
    ("the stages emptied", lambda d: _edited(d, lambda e: e["game"].update(stages=[]))),
    ("the time huge", lambda d: _edited(d, lambda e: e.update(time=10**30))),
    ("the phh path 100,000 characters", lambda d: _edited(d, lambda e: e.update(phh=LONG + ".phhs"))),
    ("a name of control characters", lambda d: _edited(
        d, lambda e: _context(e)["table"]["seats"][0].update(name="\x1b[2J\x07"))),
]


@pytest.mark.parametrize("make", [pytest.param(m, id=i) for i, m in SAVES])
def test_resume_refuses_a_hostile_save_in_one_line(tmp_path: Path,
                                                   make: Callable[[dict[str, Any]], str | bytes]) -> None:
    text = make(_GOOD.data)
    path = tmp_path / "save.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    start = time.perf_counter()
    status, out, err = _cli(["play", "--resume", "save.json"], tmp_path, "quit\n")
    _one_line_error(status, err)
    assert out == "" and time.perf_counter() - start < 10


@pytest.mark.parametrize("path", ["/dev/zero", "/", "/no/such/save.json", "/tmp/" + LONG, "\x00", ""])
def test_resume_refuses_a_file_that_is_no_save_in_one_line(tmp_path: Path, path: str) -> None:
    """``/dev/zero`` was read until memory ran out (20 s, then a MemoryError)."""
    start = time.perf_counter()
    status, _out, err = _cli(["play", "--resume", path], tmp_path, "quit\n")
    _one_line_error(status, err, path)
    assert time.perf_counter() - start < 10


def test_resume_refuses_a_file_past_the_size_bound(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:  # sparse: no disk used
        f.truncate(70 * 2**20)
    status, _out, err = _cli(["play", "--resume", str(big)], tmp_path, "quit\n")
    _one_line_error(status, err)
    assert "is longer than 67,174,400 bytes" in err


def test_resume_with_the_log_emptied_says_so() -> None:
    """The save passed the snapshot's checks and then failed with ``max() arg is an empty sequence``."""
    data = json.loads(json.dumps(_GOOD.data))
    _context(data).update(log=[], hand_starts=[])
    folder = _GOOD.folder
    (folder / "emptied.json").write_text(json.dumps(data))
    status, _out, err = _cli(["play", "--resume", "emptied.json"], folder, "quit\n")
    _one_line_error(status, err)
    assert "emptied.json: the saved log has no start of hand #1, which is in progress." in err




def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``data`` (keys and indices), depth first."""
    yield at
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*at, i))


_EDITS = st.sampled_from([None, True, -1, 0, 1, 2, 10**18, 10**19, -(10**30), 1.5, "", "x", "Ah", LONG[:1000],
                          "\x1b[2J", [], {}, [[[[]]]], {"type": "x"}, "p" + "9" * 100])


@seed(11)
@settings(FUZZ, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")))
@given(draw=st.data())
def test_fuzz_an_edited_field_of_a_save(draw: st.DataObject) -> None:
    """One field of a good save (anywhere in it) replaced by a hostile value: the game resumes or the
    save is refused in one line."""
    data = json.loads(json.dumps(_GOOD.data))
    places = list(_paths(data))[1:]
    at = draw.draw(st.sampled_from(places), "at")
    value = draw.draw(_EDITS, "value")
    holder = data
    for key in at[:-1]:
        holder = holder[key]
    if draw.draw(st.booleans(), "remove") and isinstance(holder, dict):
        del holder[at[-1]]
    else:
        holder[at[-1]] = value
    (_GOOD.folder / "edited.json").write_text(json.dumps(data))
    status, out, err = _cli(["play", "--resume", "edited.json", "--save", "other.json"], _GOOD.folder,
                            "x\nc\nf\nquit\n")
    if status == 0:
        _short_lines(out, at)
        assert err == "", (at, value, err[:1000])
    else:
        _one_line_error(status, err, (at, value))


_PLAY_FLAGS = ["--variant", "--seats", "--bots", "--seed", "--stack", "--name", "--time", "--save", "--phh", "--resume"]


@seed(5)
@settings(FUZZ)
@given(flags=st.lists(st.tuples(st.sampled_from(_PLAY_FLAGS), st.sampled_from(HOSTILE) | st.text(max_size=20)),
                      min_size=1, max_size=3, unique_by=lambda pair: pair[0]))
def test_fuzz_play_flags_end_in_one_line(tmp_path_factory: pytest.TempPathFactory,
                                         flags: list[tuple[str, str]]) -> None:
    """Hostile values of ``cardgame play``'s flags: refused in one line (status 2), or the game starts
    and the person quits."""
    argv = ["play", *(part for pair in flags for part in pair)]
    status, out, err = _cli(argv, tmp_path_factory.mktemp("flags"), "quit\n")
    if status == 0:
        _short_lines(out, flags)
        assert "You leave the table." in out and err == ""
    else:
        _one_line_error(status, err, flags)


# --- the prompts of cardgame play ----------------------------------------------------------------


def _session(variant: str, reader: Callable[[str, float | None], str | None], **kwargs: Any) -> tuple[Session,
                                                                                                       io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    return new_session(variant, 2, console, reader, seed=kwargs.pop("seed", 2),
                       bots=[kwargs.pop("bot", "calling-station")], **kwargs), out


def test_5000_digits_at_the_draw_prompt_are_refused_and_asked_again() -> None:
    """The draw prompt took them for positions and crashed with a ValueError (through a pipe, as a
    terminal's line discipline keeps at most 4,095 characters of a line)."""
    done = subprocess.run([sys.executable, "-m", "cardgame", "play", "--variant", "F2L3D", "--seats", "2", "--seed",
                           "2", "--bots", "calling-station"], input=f"c\n{DIGITS}\n-1\n٥\n1 4\nquit\n",
                          capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    _short_lines(done.stdout)
    assert re.search(r"There is no card at position\s+'99999", done.stdout), done.stdout[-3000:]
    assert "Hero discards 2: Qh Jh; draws" in done.stdout


#: Answers at any prompt, a legal one or two among them so the game reaches its other prompts.
_ANSWERS = st.sampled_from([*HOSTILE, "c", "c", "x", "allin", "2", "1", "pat", "1 4", "b", "r", "b " + DIGITS,
                            "r -5", "r ٥", "b 1e3", "min", "pot", "bi", "help", "table", "c 5", "f f f",
                            "save " + LONG, "save /no/such/dir/g.json", "save .", "save \x00", "save a\nb",
                            "save g.json", "1 " + DIGITS, "Ah Ah", "9 9 9 9 9 9", "twice", "3"])


@seed(3)
@settings(FUZZ, max_examples=int(os.environ.get("FUZZ_EXAMPLES", "30")))
@given(variant=st.sampled_from(["NT", "F2L3D", "F7S"]), answers=st.lists(_ANSWERS, max_size=25),
       run_twice=st.booleans())
def test_fuzz_every_prompt_answers_in_one_short_line_and_goes_on(tmp_path_factory: pytest.TempPathFactory,
                                                                 variant: str, answers: list[str],
                                                                 run_twice: bool) -> None:
    """Hostile answers at the action, amount, draw and run-it-twice prompts and to save: each is taken
    or refused in a line of its own and the prompt asks again; the chips are all there."""
    folder = tmp_path_factory.mktemp("prompts")
    script = iter(answers)
    prompts: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        prompts.append(prompt)
        return next(script, "quit")

    params = {"params": {"run_it_twice": True}} if run_twice and variant == "NT" else {}
    with contextlib.chdir(folder):
        session, out = _session(variant, read, **params)
        assert session.run() == 0
    text = out.getvalue()
    _short_lines(text, answers)
    assert "\x1b" not in text and "\x07" not in text and "\x00" not in text
    # each answer asked once, then quit (twice after a failed save), unless the game ended first
    assert len(prompts) - len(answers) in (1, 2) or "the game is over" in text or "No hand can be dealt" in text
    game = session.game
    assert sum(p.stack for p in game.table.players()) + (game.hand.pot_total() if game.hand else 0) == 400


#: Hostile answers but the blank ones (which run the board once, or stand pat).
_WORDS = [h for h in HOSTILE if h.strip()]
#: Hostile answers at a betting prompt: alone, as an amount, as a save's file name.
_AT_ACTION = [*HOSTILE, *(f"{word} {h}" for word in ("b", "r", "c", "bet", "raise", "save") for h in _WORDS),
              "b", "r", "f f", "c c c", "allin 5", "min 5", "x"]


@pytest.mark.parametrize(("variant", "kind", "answers", "then"), [
    ("NT", "action", _AT_ACTION, "allin"),
    ("NT", "run-it-twice", [*_WORDS, "3", "twice twice", *(f"save {h}" for h in _WORDS)], "2"),
    ("F2L3D", "draw", [*(h for h in _WORDS if h != "0"), "1 " + DIGITS, "1 1", "6", "Ah", "Ah Ah", "1 2 3 4 5 6",
                       "0 1", "save " + LONG], "pat"),
])
def test_every_prompt_refuses_every_hostile_answer_and_asks_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  variant: str, kind: str, answers: list[str],
                                                                  then: str) -> None:
    """Every hostile answer at the action (and amount), run-it-twice and draw prompts, and as a save's
    file name: refused (or saved) in a short line, the same question asked again, the game unchanged."""
    monkeypatch.chdir(tmp_path)  # where "save -1" writes
    prefix = {"action": "f (fold)", "run-it-twice": "Run the board", "draw": "Discard"}[kind]
    queue = iter([*answers, then])
    asked: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        if prompt.startswith(prefix):
            asked.append(prompt)
            return next(queue, "quit")
        if asked:  # the question was answered: done
            return "quit"
        return "allin" if variant == "NT" else "c"

    bot = "all-in" if kind == "run-it-twice" else "calling-station"
    session, out = _session(variant, read, seed=1 if variant == "NT" else 2, bot=bot,
                            params={"run_it_twice": True} if kind == "run-it-twice" else {})
    session.run()
    text = out.getvalue()
    _short_lines(text)
    assert "\x1b" not in text and "\x00" not in text
    assert len(asked) == len(answers) + 1 and len(set(asked)) == 1, asked[-3:]  # asked again, the same question
    refused = len(re.findall(r"Allowed: |Type 1 to 2; or help|or positions 1 to 5; or help|Could not save|Saved to",
                             " ".join(text.split())))
    assert refused == len(answers), (refused, len(answers))


def test_the_run_it_twice_prompt_refuses_digits_past_the_limit() -> None:
    answers = iter(["allin", DIGITS, "-1", "٥", "2", "quit"])
    said: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        said.append(prompt)
        return next(answers)

    session, out = _session("NT", read, seed=1, params={"run_it_twice": True}, bot="all-in")
    session.run()
    text = out.getvalue()
    _short_lines(text)
    assert text.count("is not a number of run-outs") == 3 and said.count("Run the board how many times (1-2) > ") == 4


# --- files that cannot be written once the game has started -----------------------------------------


@pytest.mark.parametrize("long_path", [False, True])
def test_a_phh_file_become_a_folder_is_said_and_the_game_goes_on(tmp_path: Path, long_path: bool) -> None:
    """The PHH file passed the start-up check, then could not be written at the first hand's end: the
    game ended with the error and was lost. Now it is said once, the hands are kept and written when
    the file can be written again. A path of 100 characters (wider than the console's 80 columns, short
    enough to be quoted whole) is printed whole, the colon after it too: the console folded the long
    line ``fit`` left."""
    folder = tmp_path / ("d" * max(1, 100 - len(str(tmp_path)) - len("//hands.phhs")) if long_path else "")
    folder.mkdir(exist_ok=True)
    phh = folder / "hands.phhs"
    seen: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        seen.append(prompt)
        if len(seen) == 1:
            phh.mkdir()  # after the start-up check
        if len(seen) == 6:
            phh.rmdir()
        if len(seen) > 10:
            return "quit"
        return "f" if "f (fold)" in prompt else "x"

    session, out = _session("NT", read, phh=str(phh))
    assert session.run() == 0
    text = out.getvalue()
    _short_lines(text)
    flat = " ".join(text.split())  # fitted to 80 columns, the path kept whole
    assert flat.count("Could not write the hands to") == 1, text  # said once while it lasts
    assert f"Could not write the hands to '{phh}': Is a directory; they are kept" in flat
    assert f"The hands are written to {phh} again." in flat and "You leave the table." in text
    ended = flat.count("Main pot of")  # each hand that ended: every one is in the file, the first ones too
    assert ended >= 3 and phh.read_text().count("\n[") + phh.read_text().startswith("[") == ended


def test_save_and_phh_in_a_folder_removed_after_start_say_so_and_save_elsewhere(tmp_path: Path) -> None:
    """Through a terminal: the folder of --save and --phh is removed once the game started; the hand's
    end and ``save`` each say in one line they could not write, the game goes on, and ``save FILE``
    saves it elsewhere; the saved game resumes."""
    pexpect = pytest.importorskip("pexpect")
    gone = tmp_path / "gone"
    gone.mkdir()
    child = pexpect.spawn(sys.executable, ["-m", "cardgame", "play", "--seats", "2", "--seed", "5", "--bots",
                                           "calling-station", "--save", "gone/g.json", "--phh", "gone/h.phhs"],
                          env={**ENV, "LINES": "24"}, encoding="utf-8", timeout=20, dimensions=(24, 80),
                          cwd=str(tmp_path))
    seen = io.StringIO()
    child.logfile_read = seen
    try:
        child.expect_exact("you to act")
        child.expect_exact(" > ")
        shutil.rmtree(gone)
        child.sendline("f")
        _expect_words(child, "Could not write the hands to 'gone/h.phhs': No such file or directory; they are kept")
        child.expect_exact("Hand #2")
        child.expect_exact(" > ")
        child.sendline("save")
        _expect_words(child, "Could not save to 'gone/g.json': No such file or directory; the game goes on: type save "
                             "FILE to save elsewhere.")
        child.expect_exact(" > ")
        child.sendline("quit")  # right after a failed save: asked again
        _expect_words(child, "The game is not saved: the last save failed. Type quit again to leave without saving, "
                             "or save FILE to save it elsewhere.")
        child.expect_exact(" > ")
        child.sendline("save elsewhere.json")
        child.expect_exact("Saved to elsewhere.json.")
        child.expect_exact(" > ")
        child.sendline("quit")
        _expect_words(child, "Could not write the last hands to 'gone/h.phhs': No such file or directory: they are "
                             "not in the file.")
        child.expect_exact("You leave the table.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.getvalue())
    _short_lines(text)
    status, out, err = _cli(["play", "--resume", "elsewhere.json", "--phh", "h.phhs"], tmp_path, "allin\nquit\n")
    assert status == 0 and "Hand #2" in out and err == "", err
    assert "hand = 2" in (tmp_path / "h.phhs").read_text()  # the hand played on after resuming


def test_a_quit_after_a_failed_save_is_asked_again(tmp_path: Path) -> None:
    answers = iter(["save no/such/folder/g.json", "quit", "c", "save \x1b[2J", "quit", "quit"])
    session, out = _session("NT", lambda prompt, timeout: next(answers))
    assert session.run() == 0
    text = " ".join(out.getvalue().split())
    assert text.count("The game is not saved: the last save failed.") == 2 and "You leave the table." in text
    assert "Could not save to 'no/such/folder/g.json': No such file or directory; the game goes on" in text
    assert "Could not save to '\\x1b[2J': a file name is printable characters" in text


def _expect_words(child: Any, text: str) -> None:
    """``text`` on the screen, its lines broken anywhere between words (fitted to 80 columns)."""
    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def test_a_new_game_keeps_the_hands_already_in_its_phh_file(tmp_path: Path) -> None:
    """A second game with the same --phh file overwrote the first game's hands; a file that is not
    hand histories is refused before the game starts, not overwritten."""
    for _ in range(2):
        status, _out, err = _cli(["play", "--seats", "2", "--seed", "5", "--bots", "calling-station", "--phh",
                                  "h.phhs"], tmp_path, "f\nquit\n")
        assert status == 0, err
    assert (tmp_path / "h.phhs").read_text().count("hand = 1") == 2
    (tmp_path / "notes.phhs").write_text("my notes\n")
    status, _out, err = _cli(["play", "--phh", "notes.phhs"], tmp_path, "quit\n")
    _one_line_error(status, err)
    assert (tmp_path / "notes.phhs").read_text() == "my notes\n"


def test_a_line_of_100000_characters_is_one_answer() -> None:
    """A pasted line longer than any answer was read as 25 answers, each refused; now it is one,
    refused once (its start quoted), and the next line is the next answer."""
    done = subprocess.run([sys.executable, "-m", "cardgame", "play", "--seats", "2", "--seed", "5", "--bots",
                           "calling-station"], input=f"{LONG}\nc\nquit\n", capture_output=True, text=True, env=ENV,
                          timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    _short_lines(done.stdout)
    flat = " ".join(done.stdout.split())
    assert flat.count("is not an action") == 1 and "(4,096 characters) is not an action" in flat
    assert "Hero calls 1" in flat and "You leave the table." in flat
