"""``cardgame replay``: a hand history's steps (cardgame.phh.steps), the session's commands
(cardgame.terminal.replay) and the command line, printed and through a pseudo-terminal."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from cardgame.cli import main
from cardgame.model.errors import HandHistoryError
from cardgame.phh.actions import ShowMuckAction
from cardgame.phh.io import load, loads, save
from cardgame.phh.replay import replay
from cardgame.phh.steps import HandSteps, hand_steps, pick_hand, seat_of
from cardgame.terminal.replay import HELP, Replayer, interact, print_steps
from tests.conftest import DATA, REPO
from tests.phh.test_unknown_cards import STUD_HI_LO

PHH = DATA / "phh"
DWAN_IVEY = PHH / "dwan-ivey-2009.phh"  # p2's cards unknown (????); all in on the turn, shown before the river
NAMED = sorted(PHH.glob("*.phh"))  # hold'em, short deck, Omaha, a triple draw, badugi
PLURIBUS = sorted((PHH / "pluribus" / "30").glob("*.phh"))[:12]  # six-handed, with finishing stacks
STUD = STUD_HI_LO  # seven-card stud hi/lo: up cards seen by all; p1's cards unknown to the file
ENV = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "120"}


def screen_text(replayer: Replayer) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(replayer.screen())
    return out.getvalue()


# --- the steps -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", NAMED + PLURIBUS[:4], ids=lambda p: p.name)
def test_one_step_per_action(path: Path) -> None:
    hh = load(path)[0]
    steps = hand_steps(hh)
    assert len(steps) == len(hh.actions)
    assert [s.index for s in steps.steps] == list(range(len(hh.actions)))


#: Three players all in before the flop; the file shows their hands, then deals the board a street a step.
ALL_IN = """variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ["d dh p1 9cTs", "d dh p2 Ad9d", "d dh p3 AsTc", "p3 cc", "p1 cbr 200", "p2 cc", "p3 cc", "p1 sm 9cTs",
           "p2 sm Ad9d", "p3 sm AsTc", "d db 5c4sKh", "d db Qc", "d db Qs"]
finishing_stacks = [0, 0, 600]
"""


def test_an_all_in_run_out_comes_a_street_a_step_as_the_file_deals_it() -> None:
    """The engine runs the board out at the last call; the steps follow the file: the call, each show
    (without the value of cards to come), the flop, the turn, the river and the pot."""
    steps = hand_steps(loads(ALL_IN)[0]).steps
    boards = [len(s.views[None].board) for s in steps]
    assert boards == [0] * 10 + [3, 4, 5]
    assert [s.views[None].pot for s in steps[6:]] == [600] * 6 + [0]
    assert [s.views[None].seat(2).stack for s in steps[6:]] == [0] * 6 + [600]
    shows = [line.text for s in steps[7:10] for line in s.lines[None] if "shows" in line.text]
    assert shows == ["p1 shows 9c Ts", "p2 shows Ad 9d", "p3 shows As Tc"]  # Queens come on the turn and river
    assert steps[7].views[2].seat(0).hole != (None, None) and steps[6].views[2].seat(0).hole == (None, None)
    assert any("Main pot of 600: p3" in line.text for line in steps[-1].lines[None])


@pytest.mark.parametrize("path", NAMED + PLURIBUS, ids=lambda p: p.name)
def test_each_step_shows_the_board_the_file_has_dealt_so_far(path: Path) -> None:
    hh = load(path)[0]
    dealt = 0
    for step in hand_steps(hh).steps:
        action = hh.actions[step.index]
        dealt += len(action.cards) if type(action).__name__ == "DealBoardAction" else 0  # type: ignore[union-attr]
        if step.index < len(hh.actions) - 1:
            assert len(step.views[None].board) == dealt, (step.index, action)


def test_replay_calls_after_once_seated_and_after_every_action() -> None:
    hh = load(DWAN_IVEY)[0]
    seen: list[int] = []
    replay(hh, after=lambda game, index: seen.append(index))
    assert seen == [-1, *range(len(hh.actions))]


@pytest.mark.parametrize("path", PLURIBUS, ids=lambda p: p.name)
def test_the_last_step_shows_the_files_finishing_stacks(path: Path) -> None:
    hh = load(path)[0]
    assert hh.finishing_stacks is not None
    final = hand_steps(hh).steps[-1].views[None]
    want = [round(s) for s in hh.finishing_stacks]
    got = [s.stack for s in final.seats]
    assert sum(got) == sum(hh.starting_stacks)  # chips conserved (the file rounds an odd chip: 10387.5)
    assert all(abs(g - w) <= 1 for g, w in zip(got, want, strict=True))


def _hidden_leaks(steps: HandSteps) -> list[str]:
    """Every place a seat's view shows another seat's card that is neither face up nor shown yet."""
    leaks = []
    shown: dict[int, set[str]] = {}
    for step in steps.steps:
        action = steps.history.actions[step.index]
        if isinstance(action, ShowMuckAction) and action.cards:
            shown.setdefault(action.player, set()).update(str(c) for c in action.cards if c is not None)
        for line in step.lines[None]:
            for seat, name in enumerate(steps.names):
                m = re.match(rf"{re.escape(name)} shows (.*?)(:|$)", line.text)
                if m:
                    shown.setdefault(seat, set()).update(m.group(1).split())
        every = step.views[None]
        for viewer in range(len(steps.names)):
            view = step.views[viewer]
            said = " ".join(line.text for line in step.lines[viewer])  # (cards as words: "Ac 2d"; the PHH: "Ac2d")
            named = {*re.findall(r"\b[2-9TJQKA][cdhs]\b", said), *re.findall(r"[2-9TJQKA][cdhs]", step.actions[viewer])}
            for i, seat in enumerate(view.seats):
                if seat.seat == viewer:
                    continue
                up = view.face_up[i] if i < len(view.face_up) else ()
                for j, card in enumerate(every.seats[i].hole):
                    if card is None or str(card) in shown.get(seat.seat, set()) or (j < len(up) and up[j]):
                        continue
                    if seat.hole[j] is not None or str(card) in named:
                        leaks.append(f"step {step.index + 1}: seat {viewer} sees {card} of seat {seat.seat}")
    return leaks


@pytest.mark.parametrize("path", NAMED + PLURIBUS, ids=lambda p: p.name)
def test_a_seat_never_sees_anothers_hidden_cards_until_shown(path: Path) -> None:
    steps = hand_steps(load(path)[0])
    assert _hidden_leaks(steps) == []
    for viewer in range(len(steps.names)):  # while its own cards are in its view
        own = next(s for s in steps.steps[-1].views[viewer].seats if s.seat == viewer).hole
        assert own == next(s for s in steps.steps[-1].views[None].seats if s.seat == viewer).hole


def test_stud_up_cards_are_seen_by_every_seat_and_down_cards_by_none() -> None:
    steps = hand_steps(loads(STUD)[0])
    assert len(steps) == 27 and not steps.button
    assert _hidden_leaks(steps) == []
    p4 = steps.steps[10].views[3]  # 4th street, p4 folded: p3's up cards only
    assert [str(c) if c else None for c in p4.seat(2).hole] == [None, None, "8c", "5c"]
    assert [str(c) if c else None for c in steps.steps[10].views[2].seat(2).hole] == ["Td", "Ts", "8c", "5c"]
    assert steps.steps[10].actions[3] == "d dh p3 5c" and steps.steps[2].actions[3] == "d dh p3 ????8c"
    assert [s.stack for s in steps.steps[-1].views[None].seats] == [58500, 86000, 43000, 69500]


def test_the_leak_check_finds_a_leak() -> None:
    steps = hand_steps(load(DWAN_IVEY)[0])
    everything = steps.steps[0].views[None]
    first = steps.steps[0]
    leaky = type(first)(first.index, first.actions, first.lines, {**first.views, 1: everything})
    assert _hidden_leaks(HandSteps(steps.history, steps.names, (leaky,), 1, True))


def test_cards_the_file_does_not_know_are_hidden_in_every_view() -> None:
    steps = hand_steps(load(DWAN_IVEY)[0])  # "d dh p2 ????": the replay deals p2 unused cards
    for step in steps.steps:
        for viewer, view in step.views.items():
            assert view.seat(1).hole in ((None, None), ()), (step.index, viewer)
            assert "Patrik Antonius ?? ??" in " ".join(line.text for line in steps.steps[0].lines[viewer])
    first = steps.steps[0].views
    assert [str(c) for c in first[None].seat(0).hole] == ["Ac", "2d"]
    assert first[2].seat(0).hole == (None, None)  # Dwan does not see Ivey's cards ...
    assert [str(c) for c in steps.steps[-1].views[2].seat(0).hole] == ["Ac", "2d"]  # ... until shown


# --- the session -------------------------------------------------------------------------------------------
def test_forwards_then_backwards_shows_the_same_steps() -> None:
    r = Replayer(DWAN_IVEY, seat="3")
    forwards = [screen_text(r)]
    while r.command("n") is None:
        forwards.append(screen_text(r))
    assert len(forwards) == 18 and r.position == 17
    backwards = [screen_text(r)]
    while r.command("p") is None:
        backwards.append(screen_text(r))
    assert backwards[::-1] == forwards
    assert r.command("g 15") is None and screen_text(r) == forwards[14]
    assert "Tom Dwan calls 262400 and is all-in" in forwards[14]


def test_commands_switch_the_viewpoint_and_refuse_bad_input_unchanged() -> None:
    r = Replayer(DWAN_IVEY)
    assert "7♥ 6♥" in screen_text(r) and "A♣ 2♦" in screen_text(r)
    assert r.command("s 1") is None and r.viewer == 0
    assert "A♣ 2♦" in screen_text(r) and "7♥ 6♥" not in screen_text(r)
    assert r.command("s tom dwan") is None and r.viewer == 2
    assert r.command("a") is None and r.viewer is None
    before = (r.position, r.viewer)
    for bad, says in (("s 4", "1 to 3"), ("s", "give 'all'"), ("g 0", "1 to 18"), ("g 19", "1 to 18"),
                      ("g x", "1 to 18"), ("p", "first step"), ("x", "type help"), ("h 2", "1 hand")):
        assert says in (r.command(bad) or ""), bad
        assert (r.position, r.viewer) == before
    assert r.command("help") == HELP
    assert "> 1. NT" in (r.command("h") or "")
    with pytest.raises(EOFError):
        r.command("q")


def test_a_phhs_file_lists_its_hands_and_goes_to_another(tmp_path: Path) -> None:
    path = tmp_path / "two.phhs"
    save(path, [load(DWAN_IVEY)[0], load(PHH / "phua-xuan-2019.phh")[0]])
    r = Replayer(path, hand=2, seat="p5")
    assert r.steps.history.variant == "NS" and r.viewer == 4
    assert "hand 2 of 2" in screen_text(r)
    listing = r.command("h") or ""
    assert "  1. NT" in listing and "> 2. NS" in listing
    assert r.command("h 1") is None and r.number == 1 and r.viewer is None  # (no seat 5 in a 3-player hand)
    assert "Phil Ivey" in screen_text(r)
    with pytest.raises(HandHistoryError, match="no hand 3: the file has 2 hands"):
        Replayer(path, hand=3)


def test_pick_hand_and_seat_of_name_the_choices() -> None:
    hands = load(DWAN_IVEY)
    assert pick_hand(hands, 1, "x") is hands[0]
    with pytest.raises(HandHistoryError, match="no hand 2: the file has 1 hand "):
        pick_hand(hands, 2, "x")
    broken = HandHistoryError("x: hand [2]: bad")
    with pytest.raises(HandHistoryError, match="hand \\[2\\]: bad"):
        pick_hand([hands[0], broken], 2, "x")
    assert seat_of("ALL", ("a", "b")) is None and seat_of("p2", ("a", "b")) == 1 and seat_of("B", ("a", "b")) == 1
    with pytest.raises(HandHistoryError, match="1 to 2 or a name \\(a, b\\)"):
        seat_of("3", ("a", "b"))


def test_a_hand_the_engine_cannot_replay_is_the_replays_error(tmp_path: Path) -> None:
    text = DWAN_IVEY.read_text().replace('"p1 cbr 23000"', '"p1 cbr 1"')
    path = tmp_path / "bad.phh"
    path.write_text(text)
    with pytest.raises(HandHistoryError, match=r"actions\[4\] 'p1 cbr 1'"):
        Replayer(path)


# --- the command line -----------------------------------------------------------------------------------------
def test_print_shows_every_step_and_the_finishing_stacks(capsys: pytest.CaptureFixture[str]) -> None:
    path = PLURIBUS[0]
    hh = load(path)[0]
    assert main(["replay", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    n = len(hh.actions)
    assert [int(k) for k in re.findall(rf"step (\d+) of {n}", out)] == list(range(1, n + 1))
    last = out.rsplit(f"step {n} of {n}", 1)[1]
    assert hh.players and hh.finishing_stacks
    for name, stack in zip(hh.players, hh.finishing_stacks, strict=True):
        assert re.search(rf"{re.escape(name)}.*\b{round(stack)}\b", last), (name, stack)
    for i, name in enumerate(hh.players, 1):  # seats numbered as the file numbers its players, as --seat takes them
        assert re.search(rf"^\s*p{i}\s+{re.escape(name)}\b", last, re.M), (i, name)


def test_without_a_terminal_every_step_is_printed() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardgame", "replay", str(DWAN_IVEY), "--seat", "Tom Dwan"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=ENV, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("as Tom Dwan (p3) sees it") == 18
    assert "actions[0]: d dh p1 ????" in proc.stdout and "actions[2]: d dh p3 7h6h" in proc.stdout


@pytest.mark.parametrize(("args", "says"), [
    (["--hand", "2"], "no hand 2: the file has 1 hand (1 to 1)"),
    (["--hand", "0"], "--hand"),
    (["--seat", "4"], "a player's number 1 to 3"),
    (["--seat", "nobody"], "no seat 'nobody'"),
])
def test_bad_arguments_are_one_line_and_status_2(args: list[str], says: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status: object = main(["replay", str(DWAN_IVEY), "--print", *args])
    except SystemExit as exc:  # (argparse's own check)
        status = exc.code
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert says in captured.err and captured.err.count("\n") == 1


NO_ACTIONS = "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [9, 9]\n" \
             "actions = []"


@pytest.mark.parametrize("content", [None, "variant = \n[[[", "variant = 'NT'\n", "\x00\x01binary", NO_ACTIONS])
def test_a_missing_or_corrupt_file_is_one_line_and_status_2(content: str | None, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hand.phh"
    if content is not None:
        path.write_text(content)
    assert main(["replay", str(path), "--print"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("cardgame: error: ") and captured.err.count("\n") == 1
    assert str(path) in captured.err


def plain(text: str) -> str:
    """Terminal output without its escape sequences (colour, clearing the screen)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_text_from_the_file_cannot_drive_the_terminal(tmp_path: Path) -> None:
    text = DWAN_IVEY.read_text().replace('"Phil Ivey"', '"Phil\\u001b[2J' + "x" * 100 + '"')
    text = text.replace('"p2 f",', '"p2 f #\\u001b]0;title\\u0007",')
    path = tmp_path / "escapes.phh"
    path.write_text(text)
    r = Replayer(path, seat="p1")
    assert r.steps.names[0] == "Phil?[2J" + "x" * 29 + "..."
    shown = [screen_text(r)]
    while r.command("n") is None:
        shown.append(screen_text(r))
    assert not any("\x1b" in s or "\x07" in s for s in shown)
    assert "actions[5]: p2 f # ?]0;title?" in shown[5]
    assert "\x1b" not in (r.command("h") or "x\x1b")


def test_a_session_through_a_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "cardgame", "replay", str(DWAN_IVEY)], env=ENV,
                          dimensions=(50, 120), encoding="utf-8", timeout=20)
    try:
        child.expect("step 1 of 18  every card shown")
        child.expect("replay> ")
        assert "7♥ 6♥" in plain(child.before)  # every card: Dwan's too
        child.sendline("n")
        child.expect("step 2 of 18")
        child.expect("replay> ")
        child.sendline("p")
        child.expect("step 1 of 18")
        child.expect("replay> ")
        child.sendline("s 2")
        child.expect(r"step 1 of 18  as Patrik Antonius \(p2\) sees it")
        child.expect("replay> ")
        screen = plain(child.before)
        assert "7♥" not in screen and "A♣" not in screen and "▒▒ ▒▒" in screen
        assert "Phil Ivey ?? ??, Patrik Antonius ?? ??, Tom Dwan ?? ??" in screen
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("path", [*NAMED, *PLURIBUS[:3]], ids=lambda p: p.name)
def test_every_line_fits_80_columns(path: Path) -> None:
    """The command line's console does not wrap (``soft_wrap``): the title, the file's action, the
    deals and the table of every step, as every seat sees it, are fitted to 80 columns."""
    r = Replayer(path)
    console = Console(file=io.StringIO(), width=80, soft_wrap=True, color_system=None, record=True)
    for viewer in ["all", *(str(seat + 1) for seat in range(len(r.steps.names)))]:
        r.command(f"s {viewer}" if viewer != "all" else "a")
        print_steps(r, console)
    lines = console.export_text().splitlines()
    assert any(" sees it" in line for line in lines)
    assert max(cell_len(line) for line in lines) <= 80, [line for line in lines if cell_len(line) > 80]


def test_the_title_help_and_messages_fit_80_columns() -> None:
    r = Replayer(DWAN_IVEY, seat="p2")
    r.position = 4
    console = Console(file=io.StringIO(), width=80, soft_wrap=True, color_system=None, record=True)
    answers = iter(["help", "s nobody-at-this-table-by-that-name", "h", "q"])
    interact(r, console, lambda prompt: next(answers))
    text = console.export_text()
    assert "step 5 of 18" in text and "as Patrik Antonius (p2) sees it" in text
    assert "see the hand as SEAT" in text and "no seat 'nobody-at-this-table-by-that-name'" in text
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    assert max(len(line) for line in HELP.splitlines()) <= 80


def test_a_session_through_an_80_column_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    seen = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "cardgame", "replay", str(DWAN_IVEY), "--seat", "p2"],
                          env={**ENV, "COLUMNS": "80", "LINES": "24"}, dimensions=(24, 80), encoding="utf-8",
                          timeout=20)
    child.logfile_read = seen
    try:
        for command in ("g 5", "help", "h", "s nobody-at-this-table-by-that-name"):
            child.expect("replay> ")
            child.sendline(command)
        child.expect("replay> ")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    lines = [line for line in plain(seen.getvalue()).replace("\r", "").split("\n")
             if not line.startswith("replay> ")]  # the echo of what was typed
    assert any("as Patrik Antonius (p2) sees it" in line for line in lines)
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
