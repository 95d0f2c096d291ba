"""The PHH samples in ``tests/data/phh`` (copied from the project's shared references)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA

PHH_DATA = DATA / "phh"


@pytest.fixture(scope="session")
def phh_data() -> Path:
    return PHH_DATA
