"""docs/rl.md's sizes table is written from the environments by scripts/rl_tables.py and kept current."""

from __future__ import annotations

import pytest

import variants
from scripts import rl_tables
from tests.conftest import REPO


def test_the_sizes_table_is_current() -> None:
    assert rl_tables.main(["--check"]) == 0, "run: python scripts/rl_tables.py"


def test_the_sizes_table_has_a_row_per_variant_with_the_environments_sizes() -> None:
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    table = text.split("<!-- generated: sizes -->\n")[1].split("<!-- end: sizes -->")[0]
    rows = table.splitlines()[2:]
    assert len(rows) == len(variants.available())
    assert "| two-player kuhn poker | FixedLimit | 3 | 36 | - (2 players at most) | - | 11 |" in rows
    assert "| kuhn poker | FixedLimit | 3 | 37 | 52 (3 players) | - | 12 |" in rows
    assert "| leduc hold'em | FixedLimit | 3 | 56 | - (2 players at most) | 36 | 30 |" in rows  # OpenSpiel's 30


def test_the_cfr_table_script_scores_ours_beside_openspiels(monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/cfr_table.py on Kuhn for two checkpoints (the whole table takes minutes): a row a method and
    checkpoint, ours equal to OpenSpiel's."""
    pytest.importorskip("pyspiel")
    from scripts import cfr_table

    monkeypatch.setattr(cfr_table, "GAMES", ("kuhn_poker",))
    monkeypatch.setattr(cfr_table, "CHECKPOINTS", (1, 5))
    rows = cfr_table.rows()
    assert len(rows) == 2 * len(cfr_table.METHODS)
    for row in rows:
        ours, theirs = (float(cell) for cell in row.strip("|").split("|")[3:5])
        assert ours == pytest.approx(theirs, abs=1e-12), row
