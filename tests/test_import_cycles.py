"""No import loops among the library's modules: each layer imports only the ones below it.

The graph is read from the source with :mod:`ast`, so every import counts: at module level, inside
functions, and under ``TYPE_CHECKING`` (a loop hidden in a function is still a loop). ``from a.b
import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``. The package ``__init__``
that Python runs before a submodule is not an edge (a package re-exporting its modules is no
loop); an explicit import of a package is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardgame", "variants")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of ``packages`` under ``root``."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(found: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ``found`` it imports anywhere in its source."""

    def known(name: str) -> str | None:  # the module itself, or the package it is a name of
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(known(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in found else known(base))
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop as ``[a, b, ..., a]``, or ``None`` if there is none."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = [start]
        on_path = {start}
        stack = [iter(sorted(graph[start]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:  # every import of the module on top explored: no loop through it
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                stack.pop()
            elif nxt in on_path:
                return [*path[path.index(nxt):], nxt]
            elif nxt not in done:
                path.append(nxt)
                on_path.add(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def test_no_module_imports_itself_back_through_others() -> None:
    found = modules(ROOT, PACKAGES)
    assert "cardgame.play.game" in found and "cardgame.play.bot" in found and "cardgame.store.database" in found
    cycle = find_cycle(import_graph(found))
    assert cycle is None, "import loop: " + " -> ".join(cycle or ())


@pytest.mark.parametrize(
    ("files", "loop"),
    [
        ({"a.py": "from pkg import b\n", "b.py": "def f():\n    from pkg.a import x\n"}, ["pkg.a", "pkg.b", "pkg.a"]),
        ({"a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
          "b.py": "import pkg.c\n", "c.py": "from . import a\n"}, ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]),
        ({"a.py": "import pkg.b\n", "b.py": "import os\n"}, None),
    ],
    ids=["in a function", "type checking and relative", "no loop"],
)
def test_the_check_finds_a_loop_however_it_is_written(tmp_path: Path, files: dict[str, str],
                                                      loop: list[str] | None) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from pkg.a import *\n", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / "pkg" / name).write_text(text, encoding="utf-8")
    assert find_cycle(import_graph(modules(tmp_path, ("pkg",)))) == loop
