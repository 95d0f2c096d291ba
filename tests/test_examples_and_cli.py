"""The examples run, and the command line plays demos and checks PHH files."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import variants
from cardgame.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["step_through_a_hand.py", "blindless_variant.py"])
def test_example_runs(script: str, capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(REPO / "examples" / script), run_name="__main__")
    out = capsys.readouterr().out
    assert "Hand #1" in out and "Stack" in out


@pytest.mark.parametrize("variant", [v.code or v.name for v in variants.available()])
def test_demo_plays_every_registered_variant(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", variant, "--hands", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Hand #2" in out and "Results after 2 hands" in out


def test_demo_is_replayable_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--hands", "3", "--seed", "9"])
    first = capsys.readouterr().out
    main(["demo", "--hands", "3", "--seed", "9"])
    assert capsys.readouterr().out == first


def test_demo_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--variant", "XX"]) == 2
    assert "Unknown variant 'XX'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--seats", "1"])
    assert exc.value.code == 2
    assert "--seats: The number of seats 1 is out of range; allowed is at least 2" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["phh", "check", "no/such/file.phh"], "no/such/file.phh: no such file or folder"),
        (["phh", "check", "{empty}"], "no PHH hands found in"),
        (["equity", "AhKh", "QsQd", "--seed", "-1"], "--seed: The seed -1 is out of range; allowed is at least 0"),
        (["equity", "AhKh", "QsQd", "--samples", "0"],
         "--samples: The number of samples 0 is out of range; allowed is at least 1"),
        (["demo", "--hands", "-3"], "--hands: The number of hands -3 is out of range; allowed is at least 1"),
        (["demo", "--variant", "XX"], "Unknown variant 'XX'; give a PHH code or a name: "),
    ],
)
def test_bad_command_lines_get_one_line_on_stderr(args: list[str], message: str, tmp_path: Path) -> None:
    args = [a.replace("{empty}", str(tmp_path)) for a in args]
    proc = subprocess.run([sys.executable, "-m", "cardgame", *args], capture_output=True, text=True, check=False)
    assert proc.returncode != 0
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_installed_command_runs() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardgame", "demo", "--hands", "1", "--seed", "1"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Results after 1 hand" in proc.stdout


def test_equity_command_prints_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "QsQd", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "exact over 1,712,304 boards" in out and "197833/428076" in out and "46.02%" in out


def test_equity_command_monte_carlo_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    main(["equity", "AhKh", "QsQd", "--board", "Jh Th 2c", "--samples", "5000", "--seed", "3"])
    first = capsys.readouterr().out
    main(["equity", "AhKh", "QsQd", "--board", "Jh Th 2c", "--samples", "5000", "--seed", "3"])
    assert capsys.readouterr().out == first and "Monte Carlo over 5,000 samples" in first and "±" in first


def test_equity_command_rejects_bad_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "Zz"]) == 2
    assert "cannot read 'Zz'" in capsys.readouterr().err
