"""Blind structures: the clock by hands and by time (a new level from the next hand, TDA rule 23), breaks,
the big-blind ante handed to a game (TDA 2024 RP-11), structures read from TOML files and rows, the
presets, and bad structures refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import variants
from cardgame.play.game import Game
from cardgame.tournament import Break, Level, Structure, TournamentError, preset
from cardgame.tournament.structure import PRESETS

HOME = """
name = "home game"
unit = "minutes"
ante_format = "big blind"

[[levels]]
small_blind = 25
big_blind = 50
length = 20

[[levels]]
small_blind = 50
big_blind = 100
ante = 100
length = 20

[[levels]]
break = 10

[[levels]]
small_blind = 100
big_blind = 200
ante = 200
"""


def test_a_structure_file_read_from_disk_and_its_clock(tmp_path: Path) -> None:
    path = tmp_path / "home.toml"
    path.write_text(HOME, encoding="utf-8")
    s = Structure.read(path)
    assert s.name == "home game" and len(s.blind_levels) == 3 and s.levels[2] == Break(10)
    start = s.at_time(0)
    assert (start.level, start.blinds, start.remaining, start.until_break) == (1, Level(25, 50), 1200, 2400)
    assert start.next_level == Level(50, 100, 100)
    assert s.at_time(1199).blinds == Level(25, 50) and s.at_time(1199).remaining == 1
    second = s.at_time(1200)  # a hand dealt once the clock reached 20:00 plays the new level (TDA rule 23)
    assert (second.level, second.blinds.big_blind, second.remaining, second.until_break) == (2, 100, 1200, 1200)
    pause = s.at_time(2400 + 60)
    assert pause.on_break and pause.level == 3 and pause.blinds == Level(100, 200, 200) and pause.remaining == 540
    assert pause.until_break == 0 and pause.next_level is None
    last = s.at_time(3000)
    assert not last.on_break and last.level == 3 and last.remaining is None and last.until_break is None
    assert s.at_time(10**12) == last


def test_a_structure_by_hands() -> None:
    s = Structure.from_rows([[1, 2, 0, 3], [2, 4, 0, 3], [5, 10]], unit="hands", ante_format="everyone")
    readings = [s.at_hand(h) for h in range(1, 9)]
    assert [r.level for r in readings] == [1, 1, 1, 2, 2, 2, 3, 3]
    assert [r.remaining for r in readings] == [3, 2, 1, 3, 2, 1, None, None]
    assert readings[6].blinds == Level(5, 10, 0, 20) and readings[0].until_break is None
    with pytest.raises(TournamentError, match="counted in hands: ask at_hand"):
        s.at_time(0)
    with pytest.raises(TournamentError, match="counted in minutes: ask at_time"):
        preset("regular mtt").at_hand(1)


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=8), st.integers(min_value=0,
                                                                                           max_value=20_000))
def test_the_clock_counts_down_to_the_next_level(lengths: list[int], second: int) -> None:
    """Between two readings a second apart, the time left drops by one or a new level or break starts."""
    s = Structure(tuple(Level(i + 1, 2 * (i + 1), 0, n) for i, n in enumerate(lengths)))
    now, then = s.at_time(second), s.at_time(second + 1)
    if now.remaining is None:
        assert then == now
    elif now.remaining > 1:
        assert then.remaining == now.remaining - 1 and then.level == now.level
    else:
        assert then.level == now.level + 1 and then.blinds == now.next_level
    assert sum(lengths[: now.level - 1]) * 60 <= second


def test_a_level_plays_a_hand_with_the_big_blind_ante() -> None:
    """The big blind posts the ante for the table (TDA 2024 RP-11: big-blind ante, big blind first);
    a level's options build the game."""
    s = preset("regular mtt")
    options = s.game_options(s.at_time(0).blinds)
    assert options == {"small_blind": 100, "big_blind": 200, "ante": 200, "big_blind_ante": True}
    game = Game(variants.no_limit_holdem(**options), seats=3, seed=1, max_hands=1)
    for who in ("Ann", "Bob", "Cat"):
        game.sit_down(who, 20_000)
    game.start()
    assert 3 * 20_000 - sum(p.stack for p in game.table.players()) == 100 + 200 + 200
    everyone = Structure((Level(1, 2, 1),), ante_format="everyone")
    assert everyone.game_options(Level(1, 2, 1))["big_blind_ante"] is False


def test_the_presets() -> None:
    assert set(PRESETS) == {"turbo sng", "turbo sng hands", "regular mtt"}
    mtt = preset("regular mtt")
    assert mtt.at_time(6 * 20 * 60).on_break and mtt.at_time(0).until_break == 2 * 3600
    assert preset("turbo sng").at_time(5 * 60).blinds == Level(15, 30, 0, 5)
    assert preset("turbo sng hands").at_hand(31).blinds == Level(50, 100, 100, 10)
    for s in PRESETS.values():
        bigs = [level.big_blind for level in s.blind_levels]
        assert bigs == sorted(bigs)


HUGE = 10**5000


@pytest.mark.parametrize(("call", "match"), [
    (lambda: Level(3, 2), r"small blind \(3\) must be at most the big blind \(2\)"),
    (lambda: Level(1, 0), "big blind must be a whole number from 1"),
    (lambda: Level(1, HUGE), "at most 18 digits"),
    (lambda: Level(1, 2, -1), "ante"),
    (lambda: Level(1, 2, 0, 0), "level length"),
    (lambda: Break(0), "break length"),
    (lambda: Structure(()), "from 1 to 1,000 entries"),
    (lambda: Structure((Level(1, 2), "x")), "Entry 2 of the structure must be a Level or a Break"),
    (lambda: Structure((Break(5), Level(1, 2))), "starts and ends with a level"),
    (lambda: Structure((Level(1, 2), Break(5), Level(2, 4)), unit="hands"), "only a structure counted in minutes"),
    (lambda: Structure((Level(1, 2),), unit="days"), "unit must be one of"),
    (lambda: Structure((Level(1, 2),), ante_format="button"), "ante format must be one of"),
    (lambda: Structure.from_rows([[1]]), "a level is"),
    (lambda: Structure.from_rows([["break", 5, 6]]), "a break is"),
    (lambda: Structure.from_rows([[1, 2, 0, 20, 9]]), "from 1 to 4 entries"),
    (lambda: Structure.from_rows([{"small_blind": 1}]), "must have small_blind and big_blind"),
    (lambda: Structure.from_toml("unit = 'minutes'"), "no \\[\\[levels\\]\\] given"),
    (lambda: Structure.from_toml("levels = [[1, 2]]\ncolour = 'red'"), "unknown keys"),
    (lambda: Structure.from_toml("levels = [[1, 2]\n"), "invalid TOML"),
    (lambda: Structure.from_toml("levels = " + "[" * 50 + "]" * 50), "nested more than 32 deep"),
    (lambda: Structure.from_toml("levels = [[1, 2]]\nunit = 'x'", "mine.toml"), "mine.toml: The structure's unit"),
    (lambda: Structure.from_toml("levels = [[1, 2, 0, 99999999999999999999]]"), "level length"),
    (lambda: Structure.read("missing.toml"), "Cannot read a blind structure"),
    (lambda: preset("x" * 100_000), "Unknown structure"),
    (lambda: preset("regular mtt").at_time(-1), "elapsed seconds"),
    (lambda: preset("turbo sng hands").at_hand(0), "hand number"),
    (lambda: preset("regular mtt").game_options("level"), "A Level is needed"),
])
def test_bad_structures_are_refused_with_a_short_message(call: Any, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as info:
        call()
    assert len(str(info.value)) <= 700


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (2 << 20))
    with pytest.raises(TournamentError, match="longer than 1,048,576 bytes"):
        Structure.read(path)
