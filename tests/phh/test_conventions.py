"""``cardgame phh check`` on real online hands (tests/data/handhq, from the PHH dataset's HandHQ
logs): a hand whose recorded winnings differ from the engine's pots is explained by a named site
convention, checked by replaying the hand under it, and a tampered hand is still a mismatch."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardgame.phh import loads
from cardgame.phh.replay import CONVENTIONS, check_hand, check_paths

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "data" / "handhq"


def _check(*paths: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cardgame", "phh", "check", *map(str, paths)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def test_every_real_hand_reproduces_plainly_or_under_a_named_convention() -> None:
    run = _check(REAL)
    assert run.returncode == 0, run.stdout + run.stderr
    totals = re.search(r"total: (\d+) hands: (\d+) reproduced, (\d+) replayed without finishing stacks, "
                       r"0 unsupported variant, 0 failed", run.stdout)
    assert totals is not None, run.stdout
    hands, reproduced, unchecked = map(int, totals.groups())
    assert hands >= 50 and reproduced + unchecked == hands and reproduced >= 40
    assert "abs-nlh-100-2009-07-01.phhs: 17/17 reproduced" in run.stdout
    assert "  hand 2: ok (convention: rake inferred 1.35)\n" in run.stdout  # 5 % of $17 and a $0.50 jackpot drop
    assert "  hand 6: ok (convention: uncalled bet counted as won)\n" in run.stdout  # the big blind's own dollar
    line = next(x for x in run.stdout.splitlines() if x.startswith("reproduced under a convention: "))
    counts = dict(re.findall(r"([a-z ,]+?) (\d+)(?:, |$)", line.removeprefix("reproduced under a convention: ")))
    assert int(counts["rake inferred"]) >= 10 and int(counts["uncalled bet counted as won"]) >= 1
    report = check_paths([REAL])
    for h in report.hands:  # every explanation is one of the documented conventions
        if h.detail.startswith("convention: "):
            names = re.sub(r"rake inferred [0-9.]+", "rake inferred", h.detail.removeprefix("convention: "))
            assert all(name in CONVENTIONS for name in names.split(", ")), h.detail


def _first(path: Path, predicate: str) -> str:
    """The text of the first hand of ``path`` whose detail under check_paths starts with ``predicate``."""
    text = path.read_text()
    blocks = re.split(r"(?m)^\[\d+\]\n", text)[1:]
    for i, block in enumerate(blocks):
        [hh] = loads(block)
        if check_hand(hh, str(path), i).detail.startswith(predicate):
            return block
    raise AssertionError(f"no hand of {path} is explained by {predicate}")


@pytest.mark.parametrize("tamper", ["winner", "loser"])
def test_a_tampered_hand_is_still_a_mismatch(tmp_path: Path, tamper: str) -> None:
    source = next(REAL.glob("abs-*.phhs"))
    block = _first(source, "convention: rake inferred")
    winnings = re.search(r"(?m)^winnings = \[(.*)\]$", block)
    assert winnings is not None
    values = [float(v) for v in winnings.group(1).split(", ")]
    winner = max(range(len(values)), key=values.__getitem__)
    if tamper == "winner":  # more than the pot: no rake explains it
        values[winner] += 50
    else:  # a player who lost wins 0.10 too: the total is still below the pot, but not the winner's share
        values[(winner + 1) % len(values)] += 0.10
    bad = block.replace(winnings.group(0), f"winnings = [{', '.join(f'{v:g}' for v in values)}]")
    path = tmp_path / "tampered.phh"
    path.write_text(bad)
    run = _check(path)
    assert run.returncode == 1
    assert "0/1 reproduced" in run.stdout and "mismatch: winnings: expected" in run.stdout
    assert "tried: as recorded" in run.stdout and ("rake inferred" in run.stdout) == (tamper == "loser")


def test_a_tampered_finishing_stack_is_a_mismatch(tmp_path: Path) -> None:
    good_path = ROOT / "tests" / "data" / "phh" / "pokerkit-razz-8-handed.phh"
    good = good_path.read_text()
    stacks = re.search(r"(?m)^finishing_stacks = \[(.*)\]$", good)
    assert stacks is not None and _check(good_path).returncode == 0
    values = stacks.group(1).split(", ")
    values[0] = str(int(values[0]) - 3)  # three chips gone, as a rake would take them, but from a loser
    path = tmp_path / "tampered.phh"
    path.write_text(good.replace(stacks.group(0), f"finishing_stacks = [{', '.join(values)}]"))
    run = _check(path)
    assert run.returncode == 1 and "mismatch: stacks: expected" in run.stdout, run.stdout


def test_a_real_hand_no_convention_explains_is_reported_with_what_was_tried() -> None:
    run = _check(ROOT / "tests" / "data" / "handhq-unexplained")
    assert run.returncode == 1
    assert ("hand 0: mismatch: winnings: expected [0, 0, 37.5, 0, 0, 0], engine [0.0, 0.0, 40.0, 0.0, 0.0, 0.0]; "
            "tried: as recorded; uncalled bet counted as won; in cents") in run.stdout
