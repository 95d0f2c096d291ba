"""Shared fixtures: the ../shared reference data and hand-built contexts for stage tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The project's shared reference data (``../shared`` beside the repository)."""
    assert SHARED.is_dir(), f"reference data missing: expected {SHARED} beside the repository"
    return SHARED
