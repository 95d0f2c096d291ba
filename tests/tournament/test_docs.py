"""docs/tournaments.md's example runs and says what the page says it does."""

from __future__ import annotations

import re
from typing import Any

from cardgame.tournament import icm, icm_table
from tests.conftest import REPO


def test_the_pages_example_runs_as_written() -> None:
    page = (REPO / "docs" / "tournaments.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code.group(1).replace("print(", "str("), "docs/tournaments.md", "exec"), scope)
    assert scope["prizes"] == (450, 270, 180)
    clock = scope["clock"]
    assert (clock.level, clock.blinds.small_blind, clock.blinds.big_blind, clock.remaining) == (3, 25, 50, 180)
    assert [f.places for f in scope["standings"].finishes] == ["3-4", "3-4"]
    table = icm_table(icm([5000, 3000, 1500, 500], [500, 300, 200]), ["A", "B", "C", "D"])
    assert f"```\n{table}\n```" in page  # the table the page shows is the one icm_table writes


def test_the_pages_event_example_runs_as_written() -> None:
    page = (REPO / "docs" / "tournaments.md").read_text(encoding="utf-8")
    section = page[page.index("## Playing an event"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, Any] = {"print": lambda *args: None}
    exec(compile(code.group(1), "docs/tournaments.md", "exec"), scope)
    result, stats = scope["result"], scope["stats"]
    assert result.standings.over and sum(result.prizes.values()) == 100 * 100
    assert [b.entries for b in stats.bots] == [60, 60, 60] and sum(b.prizes for b in stats.bots) == 20 * 900
