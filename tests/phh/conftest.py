"""The PHH samples in ``../shared/phh`` (read from there, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED

SHARED_PHH = SHARED / "phh"


@pytest.fixture(scope="session")
def shared_phh() -> Path:
    assert SHARED_PHH.is_dir(), f"PHH samples missing: expected {SHARED_PHH}"
    return SHARED_PHH
