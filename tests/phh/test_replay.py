"""Replaying PHH hands through the engine: every sample reproduces its finishing stacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgame.cli import main
from cardgame.model.errors import HandHistoryError
from cardgame.phh import iter_paths, load, loads
from cardgame.phh.replay import check_paths, replay

from .conftest import PHH_DATA

PLURIBUS = sorted(iter_paths(PHH_DATA / "pluribus")) if PHH_DATA.is_dir() else []


def test_every_pluribus_hand_reproduces_its_finishing_stacks(phh_data: Path) -> None:
    report = check_paths([phh_data / "pluribus"])
    statuses = [h.status for h in report.hands]
    assert len(statuses) == 416
    bad = [(h.path, h.detail) for h in report.hands if h.status != "ok"]
    assert bad == []


def test_half_chip_hand_is_compared_within_one_chip(phh_data: Path) -> None:
    [hh] = load(phh_data / "pluribus" / "32" / "23.phh")
    assert any(isinstance(s, float) and not s.is_integer() for s in hh.finishing_stacks or ())
    result = replay(hh)
    assert result.complete
    assert all(abs(a - b) <= 1 for a, b in zip(result.stacks, hh.finishing_stacks or (), strict=True))


@pytest.mark.parametrize("name", ["dwan-ivey-2009.phh", "antonius-blom-2009.phh"])
def test_famous_hold_em_hands_replay_without_error(phh_data: Path, name: str) -> None:
    [hh] = load(phh_data / name)
    result = replay(hh, source=name)
    assert result.complete
    assert sum(result.stacks) == pytest.approx(sum(hh.starting_stacks))


def test_fractional_stacks_are_scaled_to_whole_chips(phh_data: Path) -> None:
    [hh] = load(phh_data / "antonius-blom-2009.phh")
    result = replay(hh)
    assert isinstance(result.game.table.player(0).stack, int)  # chips stay integers inside the engine
    # Antonius's A-3 makes the wheel with 2-4-5 (exactly two hole cards); Blom's wrap is no straight.
    assert result.stacks == (1937923.75, 0)


BAD = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AhKh", "d dh p2 QsQd", "d dh p3 7c2d", "p3 cbr 3", "p1 f"]
"""


def test_an_action_the_rules_forbid_names_file_hand_and_action() -> None:
    [hh] = loads(BAD, source="bad.phh")
    with pytest.raises(HandHistoryError, match=r"bad.phh: actions\[3\] 'p3 cbr 3': The amount 3 is below the minimum"):
        replay(hh, source="bad.phh")


def test_cli_check_passes_on_the_samples_and_fails_on_a_mismatch(tmp_path: Path, phh_data: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["phh", "check", str(phh_data)]) == 0
    out = capsys.readouterr().out
    assert "NT: 416 reproduced" in out and "total: 422 hands" in out and "FR: 1 reproduced" in out
    wrong = tmp_path / "wrong.phh"
    text = (phh_data / "pluribus" / "30" / "0.phh").read_text()
    wrong.write_text(text.replace("finishing_stacks = [9950,", "finishing_stacks = [9000,"))
    assert main(["phh", "check", str(wrong)]) == 1
    assert "mismatch" in capsys.readouterr().out
    bad = tmp_path / "bad.phh"
    bad.write_text(BAD)
    assert main(["phh", "check", str(bad)]) == 1
