"""docs/rl.md's sizes table is written from the environments by scripts/rl_tables.py and kept current."""

from __future__ import annotations

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
    assert "| two-player kuhn poker | FixedLimit | 3 | 36 | - (2 players at most) | - |" in rows
    assert "| kuhn poker | FixedLimit | 3 | 37 | 52 (3 players) | - |" in rows
