"""``cardgame play`` driven as a person would, through a pseudo-terminal (pexpect): typed commands,
a wrong input explained and asked again, help, what the screen shows, the final stacks; save and
resume; a draw, a stud hand and the run-it-twice question."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

import variants
from cardgame.store.snapshot import restore, snapshot

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def _spawn(*args: str, cwd: Path | None = None) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}
    child = pexpect.spawn(sys.executable, ["-m", "cardgame", "play", *args], env=env, encoding="utf-8",
                          timeout=10, dimensions=(24, 80), cwd=str(cwd or ROOT))
    return child


def _expect_words(child: pexpect.spawn, text: str) -> None:
    """``text`` on the screen, its lines broken anywhere between words (fitted to 80 columns)."""
    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def _done(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


def test_a_seeded_heads_up_hand_played_by_typing() -> None:
    child = _spawn("--seats", "2", "--seed", "5", "--bots", "calling-station", "--stack", "100")
    child.expect_exact("no-limit hold'em, blinds 1/2. Seed 5.")
    child.expect_exact("You are Hero at seat 0; against Ann (calling-station).")
    child.expect_exact("Hand #1  preflop  Pot 3  you to act")
    child.expect(r">\s+0\s+Hero \(you\)\s+K♠ 7♥\s+99\s+1\s+button")
    child.expect(r"1\s+Ann\s+▒▒ ▒▒\s+98\s+2")
    child.expect_exact("f (fold), c (call 1), r N (raise to N, 4 to 100) > ")
    child.sendline("zz")
    child.expect_exact("'zz' is not an action. Allowed: f (fold), c (call 1), r N (raise to N, 4 to\r\n"
                       "    100); or help, quit.")  # fitted to the terminal's 80 columns
    child.expect_exact("f (fold), c (call 1), r N (raise to N, 4 to 100) > ")  # asked again
    child.sendline("help")
    child.expect_exact("Shortcuts (raise to): min 4, half 4, pot 6, allin 100")
    child.sendline("c")
    child.expect_exact("Hand #1  flop  Pot 4  you to act")
    child.expect_exact("Board: Q♦ T♦ 2♦")
    child.sendline("x")
    child.expect_exact("Hand #1  turn  Pot 4")
    child.sendline("b 10")
    child.expect_exact("Hand #1  river  Pot 24")
    child.expect_exact("Ann calls 10")
    child.sendline("x")
    child.expect_exact("Ann shows Js 6c: Pair of Twos (Q J T)")
    child.expect_exact("Stacks: Hero 112 (+12), Ann 88 (-12)")
    child.expect_exact("Hand #2  preflop  Pot 4  you to act")
    child.sendline("quit")
    child.expect_exact("You leave the table.")
    assert "Stacks: Hero 110, Ann 86; 4 more in the pot of the unfinished hand" in _done(child)


def test_save_then_resume_gives_the_same_game(tmp_path: Path) -> None:
    """Run in the save's folder with a relative name, so what the screen shows does not depend on
    how long the temporary folder's path is (it did: a path past 80 columns broke the line)."""
    save = tmp_path / "game.json"
    child = _spawn("--seats", "3", "--seed", "8", "--save", "game.json", cwd=tmp_path)
    child.expect_exact("you to act")
    child.sendline("c")
    child.expect_exact("you to act")
    child.sendline("save")
    child.expect_exact("Saved to game.json.\r\n")
    child.expect_exact("Continue with: cardgame play --resume game.json\r\n")
    child.sendline("quit")
    _done(child)
    saved = json.loads(save.read_text())
    child = _spawn("--resume", "game.json", cwd=tmp_path)
    child.expect_exact("Seed 8.")
    child.expect_exact("You are Hero at seat 0; against Ann (seed-ai), Bob (seed-ai).")
    child.expect_exact("you to act")
    child.sendline("save")
    child.expect_exact("Saved to")
    child.sendline("quit")
    _done(child)
    again = json.loads(save.read_text())
    stages = variants.get("NT").build()
    assert again == saved and snapshot(restore(again["game"], stages)) == saved["game"]


def test_a_draw_asks_for_discards() -> None:
    child = _spawn("--variant", "F2L3D", "--seats", "2", "--seed", "2", "--bots", "calling-station")
    child.expect_exact("Q♥ 6♠ 6♣ J♥ 5♦")
    child.sendline("c")
    child.expect_exact("Discard (0-5, cards or positions; pat) > ")
    child.sendline("Kh")
    _expect_words(child, "Kh is not in your hand. Discard 0 to 5 of your cards Qh 6s 6c Jh 5d, as cards or positions "
                         "1 to 5; or help, quit.")
    child.sendline("1 4")
    child.expect_exact("Hero discards 2: Qh Jh; draws")
    child.sendline("quit")
    _done(child)


def test_a_stud_hand_shows_up_and_down_cards() -> None:
    child = _spawn("--variant", "razz", "--seats", "3", "--seed", "2", "--bots", "calling-station")
    child.expect_exact("Cards in [brackets] are face up")
    child.expect(r"Hero \(you\)\s+6♠ 6♣ \[J♥\]")
    child.expect(r"Ann\s+▒▒ ▒▒ \[A♥\]")
    child.sendline("c")
    child.expect_exact("Hand #1  fourth street")
    child.expect(r"Hero \(you\)\s+6♠ 6♣ \[J♥ 2♥\]")
    child.sendline("quit")
    text = _done(child)
    assert "button" not in text


def test_run_it_twice_is_asked() -> None:
    child = _spawn("--seats", "2", "--seed", "1", "--bots", "all-in", "--run-it-twice")
    child.expect_exact("you to act")
    child.sendline("allin")
    child.expect_exact("Run the board how many times (1-2) > ")
    child.sendline("7")
    child.expect_exact("'7' is not a number of run-outs. Type 1 to 2; or help, quit.")
    child.sendline("2")
    child.expect(r"Stacks: ")
    child.sendline("quit")
    _done(child)


def test_bad_arguments_are_errors_before_anything_starts() -> None:
    for args, said in ((("--variant", "snap"), "Unknown variant"), (("--bots", "nobody"), "Unknown bot"),
                       (("--seats", "11"), "seats 2 to 10 players, not 11")):
        child = _spawn(*args)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 2 and said in str(child.before)


def test_the_clock_folds_a_silent_person_on_a_terminal() -> None:
    child = _spawn("--seats", "2", "--seed", "5", "--bots", "calling-station", "--time", "1")
    child.expect_exact("you to act  ⏱ 1s")
    child.expect_exact("[1s] > ")
    child.expect_exact("Time is up: you fold.", timeout=5)  # nothing typed: the read timed out
    child.expect_exact("Hand #2")
    child.sendline("quit")
    _done(child)


def test_every_line_fits_an_80_column_terminal() -> None:
    """Six-max triple draw: the intro, the deal of every player's five cards, help, a refusal, the
    table drawn again and the stacks, each line at most 80 columns (the terminal does not wrap them)."""
    child = _spawn("--variant", "F2L3D", "--seats", "6", "--seed", "3", "--bots", "calling-station", "--time", "600",
                   "--name", "Twenty Characters Ok")
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect_exact("[600s] > ")
    for answer in ("help", "zz" * 50, "table", "c"):
        child.sendline(answer)
        child.expect(r"\[\d+s\] > ")
    child.sendline("quit")
    _done(child)
    text = seen.getvalue()
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "").split("\n")
    assert "*** HOLE CARDS *** Ann ?? ?? ?? ?? ??," in text and "Stacks: " in text
    lines = [line for line in lines if not line.endswith("> " + "zz" * 50)]  # the echo of what was typed
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]
