"""The README's Python examples run as written: in this process, and (the one that starts worker
processes) pasted into a script of its own, as a user would; without its ``__main__`` guard that
script fails in one line saying to add it."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
#: The tournament example: it runs ``simulate(match, workers=2)``, so worker processes import its script.
WORKERS = next(block for block in BLOCKS if "workers=2" in block)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"README.md example {index + 1}", "exec"), {"__name__": "__main__"})


def _script(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "tournament.py"
    script.write_text(code)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_the_example_with_workers_runs_as_a_script(tmp_path: Path) -> None:
    done = _script(tmp_path, WORKERS)
    assert done.returncode == 0 and "200/200 hands" in done.stdout and done.stderr == "", done.stderr[-2000:]


def test_a_script_without_the_main_guard_is_told_to_add_it(tmp_path: Path) -> None:
    """Pasted without its guard, the script died in a 100-line ``BrokenProcessPool`` traceback (each
    worker, importing the script, started the work again)."""
    head, _, body = WORKERS.partition('if __name__ == "__main__":')
    done = _script(tmp_path, head + textwrap.dedent(body.split("\n", 1)[1]))
    assert done.returncode == 1 and "BrokenProcessPool" not in done.stderr, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("cardgame.engine.errors.ConfigError: The worker processes stopped") and len(last) < 400
    assert 'under if __name__ == "__main__":' in last and "'tournament.py'" in last
    assert done.stderr.count("Traceback") == 1 and done.stderr.count("\n") < 20, done.stderr
