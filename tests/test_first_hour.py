"""The first hour of a new user (issue 23's list), each item that is not tested beside its feature:
the demo needs nothing but the package's own dependencies, and ``Card`` says what its numbers are.
(The others: falling blinds in tests/variants/test_holdem_end_to_end.py, ``simulate --help`` in
tests/test_cli.py, the curves and ``--plot`` in tests/test_simulate.py, progress in
tests/test_progress.py, the dealer's lines in tests/acpc, the run-2 labels and the demo's bots and
width in tests/test_cli.py, the bomb-pot example in tests/test_examples_copied_out.py.)"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from cardgame.model.cards import Card

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _base_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[<>=\[; ]", d, maxsplit=1)[0].lower().replace("-", "_") for d in project["dependencies"]}


def test_the_readme_demo_installs_the_package_alone_and_the_tests_the_test_extra() -> None:
    shell = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    first, second = shell[0], shell[1]
    assert "pip install -e . &&" in first and "[test]" not in first and "cardgame demo" in first
    assert 'pip install -e ".[test]"' in second and "pytest" in second
    # the second works from a new shell too: it activates the environment the first made, not the system's pip
    venv = re.search(r"python3 -m venv (\S+) && \. (\S+)/bin/activate &&", first)
    assert venv is not None and venv[1] == venv[2] and second.startswith(f". {venv[1]}/bin/activate && pip install")


def test_the_demo_imports_nothing_outside_the_base_dependencies() -> None:
    """What ``pip install -e .`` installs is enough for ``cardgame demo``: the modules it loads come from
    the standard library, the package and its declared dependencies (and theirs)."""
    code = (
        "import sys\n"
        "from cardgame.cli import main\n"
        "before = set(sys.modules)\n"
        "assert main(['demo', '--hands', '2', '--seed', '1', '--quiet']) == 0\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=True)
    loaded = set(proc.stdout.split("\n")[-2].split())
    extras = {"pokerkit", "open_spiel", "pyspiel", "mypy", "eval7", "phevaluator", "matplotlib", "starlette",
              "uvicorn", "psycopg", "playwright", "pexpect", "hypothesis", "pytest", "ray", "numba"}
    assert not loaded & extras, loaded & extras
    assert {"transitions", "attrs", "rich"} <= loaded | _base_dependencies()


def test_card_says_what_its_int_rank_and_suit_are() -> None:
    doc = Card.__doc__ or ""
    assert "0 to 51" in doc and "rank * 4 + suit" in doc and "0 for a deuce to 12 for an ace" in doc
    assert "clubs, diamonds, hearts, spades" in doc
    ace = Card("Ah")  # and what it says is so
    assert int(ace) == ace.rank * 4 + ace.suit and ace.rank == 12 and ace.suit == 2
