"""Build backend: setuptools, plus what mypyc needs when ``CARDGAME_COMPILE=1`` (see ``setup.py``).

mypyc type-checks the whole package before compiling it, so the compiled build needs mypy and the
runtime dependencies (for their types) in the build environment; the default pure-Python build
needs neither, and does not download them.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the rest of the PEP 517 hooks, unchanged)


def _compile_requires() -> list[str]:
    if os.environ.get("CARDGAME_COMPILE", "") in ("", "0"):
        return []
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
    return ["mypy>=1.10", *project["dependencies"]]


# When compiling, setuptools' own hooks are not asked: they run setup.py, which needs mypyc already.
def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = _compile_requires()
    return ["wheel", *extra] if extra else _setuptools.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = _compile_requires()
    return ["wheel", *extra] if extra else _setuptools.get_requires_for_build_editable(config_settings)


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = _compile_requires()
    return ["wheel", *extra] if extra else _setuptools.get_requires_for_build_sdist(config_settings)
