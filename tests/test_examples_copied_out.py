"""The bomb-pot example and its tests run copied out of the repository, with the library alone: no
``tests`` package beside them, and they name nothing private of the library."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FILES = ("bomb_pot.py", "test_bomb_pot.py")


def test_the_example_and_its_tests_use_the_public_api_only() -> None:
    for name in FILES:
        tree = ast.parse((REPO / "examples" / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module is not None and node.module.split(".")[0] != "tests", (name, node.module)
                assert not any(part.startswith("_") for part in node.module.split(".") if part != "__future__")
                assert not any(alias.name.startswith("_") for alias in node.names), (name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(alias.name.split(".")[0] == "tests" for alias in node.names), name
            elif isinstance(node, ast.Attribute):
                assert not (node.attr.startswith("_") and not node.attr.startswith("__")), (name, node.attr)


def test_copied_out_they_pass_with_the_library_alone(tmp_path: Path) -> None:
    work, library = tmp_path / "mine", tmp_path / "site"
    work.mkdir()
    library.mkdir()
    for name in FILES:
        shutil.copy(REPO / "examples" / name, work / name)
    for package in ("cardgame", "variants"):  # the library as installed: its packages, not the repo's tests
        (library / package).symlink_to(REPO / package, target_is_directory=True)
    env = {**os.environ, "PYTHONPATH": str(library)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(work),
                           "test_bomb_pot.py"], cwd=work, capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout
