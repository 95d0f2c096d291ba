"""Long work reports progress: ``simulate`` and ``equity`` call a progress callback, the command line
draws it on stderr only when stderr is a terminal (piped output stays clean)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from cardgame.cli.progress import progress_bar
from cardgame.evaluation.equity import equity
from cardgame.model.errors import ConfigError
from cardgame.simulate import Match, simulate

REPO = Path(__file__).resolve().parents[1]


def test_simulate_reports_the_hands_played_after_each_shard() -> None:
    match = Match("NT", ("random", "pair-raiser"), hands=50, seed=1, shard_hands=20)
    calls: list[tuple[int, int]] = []
    result = simulate(match, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 50), (20, 50), (40, 50), (50, 50)]  # shards of 20, 20 and 10 hands
    assert result == simulate(match)  # reporting changes nothing


def test_simulate_on_two_processes_reports_every_shard_once() -> None:
    match = Match("NT", ("random", "pair-raiser"), hands=50, seed=1, shard_hands=20)
    calls: list[tuple[int, int]] = []
    simulate(match, workers=2, progress=lambda done, total: calls.append((done, total)))
    done = [d for d, _ in calls]
    assert done[0] == 0 and done[-1] == 50 and done == sorted(done) and len(done) == 4
    assert {t for _, t in calls} == {50}


def test_equity_reports_the_boards_dealt_after_each_batch() -> None:
    calls: list[tuple[int, int]] = []
    result = equity(["AhKh", "QsQd"], exact=False, samples=150_000, seed=1, progress=lambda d, t: calls.append((d, t)))
    done = [d for d, _ in calls]  # after each batch of deals, those kept so far
    assert calls[0] == (0, 150_000) and calls[-1] == (150_000, 150_000) and len(calls) > 3
    assert done == sorted(done) and {t for _, t in calls} == {150_000}
    assert result == equity(["AhKh", "QsQd"], exact=False, samples=150_000, seed=1)
    calls.clear()
    exact = equity(["AhKhQdJd", "QsQcTs9s"], "2c 3d 4h", game="omaha", exact=True,
                   progress=lambda d, t: calls.append((d, t)))
    assert calls == [(0, exact.boards), (exact.boards, exact.boards)]  # 741 boards: one batch
    calls.clear()
    holdem = equity(["AhKh", "QsQd"], "2c 3d 4h", exact=True, progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, holdem.boards) and calls[-1] == (holdem.boards, holdem.boards)  # compiled or not


@pytest.mark.parametrize("call", [
    lambda: equity(["AhKh", "QsQd"], samples=10, progress=3),  # type: ignore[arg-type]
    lambda: simulate(Match("NT", ("random", "random"), hands=2), progress="yes"),  # type: ignore[arg-type]
])
def test_a_progress_that_is_not_a_function_is_refused(call: object) -> None:
    with pytest.raises(ConfigError, match=r"progress must be None or a function progress\(done, total\)"):
        call()  # type: ignore[operator]


def test_the_bar_is_drawn_on_a_terminal_only() -> None:
    screen = io.StringIO()
    with progress_bar("NT: 100 hands", Console(file=screen, force_terminal=True, width=80)) as progress:
        assert progress is not None
        progress(40, 100)
    assert "NT: 100 hands" in screen.getvalue() and "40/100" in screen.getvalue()
    piped = io.StringIO()
    with progress_bar("NT: 100 hands", Console(file=piped, force_terminal=False)) as progress:
        assert progress is None
    assert piped.getvalue() == ""


@pytest.mark.parametrize("args", [
    ["simulate", "--bots", "random,random", "--hands", "30"],
    ["equity", "AhKh", "QsQd", "--samples", "100000", "--seed", "1"],
])
def test_piped_output_has_no_progress_noise(args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run([sys.executable, "-m", "cardgame", *args], capture_output=True, text=True, env=env,
                          check=False)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "\x1b" not in proc.stdout and "━" not in proc.stdout
