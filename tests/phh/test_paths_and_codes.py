"""iter_paths expansion and sorting; the variant code table."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from cardgame.model.errors import HandHistoryError
from cardgame.phh import (
    FIELD_NAMES,
    PER_PLAYER_FIELDS,
    VARIANTS,
    HandHistory,
    forbidden_fields,
    iter_paths,
    required_fields,
)


def test_iter_paths_expands_sorts_and_dedupes(tmp_path: Path) -> None:
    for name in ["b/10.phh", "b/9.phh", "b/2.phhs", "a.phh", "b/c/1.PHH", "notes.txt", "b/skip.toml"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    names = [p.relative_to(tmp_path).as_posix() for p in iter_paths([tmp_path, tmp_path / "a.phh"])]
    assert names == ["a.phh", "b/2.phhs", "b/9.phh", "b/10.phh", "b/c/1.PHH"]
    assert list(iter_paths(str(tmp_path / "notes.txt"))) == [tmp_path / "notes.txt"]  # named files are kept
    assert list(iter_paths([])) == []
    with pytest.raises(HandHistoryError, match="no such file or folder"):
        list(iter_paths(tmp_path / "nope"))


def test_iter_paths_on_samples(phh_data: Path) -> None:
    paths = list(iter_paths(phh_data / "pluribus" / "30"))
    assert paths[:3] == [phh_data / "pluribus" / "30" / f"{i}.phh" for i in range(3)]


def test_variant_table() -> None:
    assert list(VARIANTS) == ["FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"]
    assert required_fields("NT") == ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")
    assert "bring_in" in required_fields("FR") and "blinds_or_straddles" not in required_fields("FR")
    assert set(forbidden_fields("FT")) == {"bring_in", "min_bet"}
    assert set(forbidden_fields("F7S/8")) == {"blinds_or_straddles", "min_bet"}
    assert VARIANTS["NS"].deck == "short" and VARIANTS["FB"].dealing == "draw"
    assert VARIANTS["PO"].betting == "pot" and VARIANTS["F7S"].dealing == "stud"
    with pytest.raises(HandHistoryError, match="Unknown PHH variant code 'XX'; the codes are FT, NT"):
        required_fields("XX")


def test_field_names_match_the_class() -> None:
    assert [a.name for a in attrs.fields(HandHistory)] == [*FIELD_NAMES, "extra"]
    assert set(PER_PLAYER_FIELDS) <= set(FIELD_NAMES)
    assert len(FIELD_NAMES) == 37
