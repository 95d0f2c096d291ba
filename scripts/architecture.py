"""Write the generated parts of docs/architecture.md from the code itself: the layers (from the
imports) and each stage's machine (from its compiled ``transitions`` table).

    python scripts/architecture.py          # rewrite docs/architecture.md in place
    python scripts/architecture.py --check  # exit 1 if it is out of date (a test runs this)

The generated parts sit between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->`` markers;
everything else in the file is prose, kept as it is.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import pkgutil
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

#: The layers, bottom first, and what each holds. A module may import only from its own layer or
#: below (tests/test_layers.py checks it); the applications may use one another.
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("kernel", ("engine",), "machines, stages, outcomes, the dispatcher: no poker"),
    ("poker model", ("model",), "cards, deck, table, hand, pots, betting, legality, events, context"),
    ("evaluation", ("evaluation",), "hand values and equity"),
    ("stages", ("stages",), "one poker stage per module"),
    ("play", ("play",), "Game, views, bots, the seed AI, narration"),
    ("variants", ("variants",), "the games, each a list of stages (the top-level variants/ package)"),
    ("applications", ("phh", "acpc", "store", "simulate", "server", "terminal", "rl", "tournament", "cli",
                      "__main__"),
     "hand histories, ACPC, the event store and snapshots, simulation, the table server, terminal play and "
     "replay, learning environments, tournaments (ICM, payouts, structures, places, seating, balancing, events), "
     "the command line"),
)


def package_of(module: str) -> str:
    """The layer folder of a ``cardgame.X...`` module (``X``), or ``variants`` for the variants package."""
    parts = module.split(".")
    if parts[0] == "variants":
        return "variants"
    return parts[1] if len(parts) > 1 else "__init__"


def _ours(name: str) -> bool:
    return name.startswith("cardgame.") or name == "variants" or name.startswith("variants.")


def imports(root: Path = ROOT) -> dict[str, set[str]]:
    """``module -> cardgame and variants modules it imports`` (top-level, function-level and TYPE_CHECKING
    alike), for every module of ``cardgame/`` and ``variants/``."""
    found: dict[str, set[str]] = {}
    for path in sorted([*(root / "cardgame").rglob("*.py"), *(root / "variants").rglob("*.py")]):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        found[module] = {n for n in names if _ours(n)}
    return found


def upward(found: dict[str, set[str]]) -> list[str]:
    """Every import in ``found`` from a higher layer than the importer's (the package's front door,
    ``cardgame/__init__.py``, re-exports from every layer and is left out)."""
    index = {pkg: i for i, (_, pkgs, _) in enumerate(LAYERS) for pkg in pkgs}
    wrong = []
    for module, targets in sorted(found.items()):
        me = index.get(package_of(module))
        if module == "cardgame" or me is None:
            continue
        for target in sorted(targets):
            other = index.get(package_of(target))
            if other is not None and other > me:
                wrong.append(f"{module} ({LAYERS[me][0]}) imports {target} ({LAYERS[other][0]})")
    return wrong


def layer_graph() -> str:
    index = {pkg: i for i, (_, pkgs, _) in enumerate(LAYERS) for pkg in pkgs}
    edges: set[tuple[int, int]] = set()
    for module, targets in imports().items():
        me = index.get(package_of(module))
        for target in targets:
            other = index.get(package_of(target))
            if me is not None and other is not None and other != me:
                edges.add((me, other))
    lines = ["```mermaid", "flowchart TD"]
    for i, (name, pkgs, what) in reversed(list(enumerate(LAYERS))):
        folders = ", ".join(f"{p}/" if p != "__main__" else f"{p}.py" for p in pkgs)
        lines.append(f'    L{i}["<b>{name}</b><br/>{folders}<br/><i>{what}</i>"]')
    lines += [f"    L{a} --> L{b}" for a, b in sorted(edges, reverse=True)]
    lines.append("```")
    return "\n".join(lines)


def stage_classes() -> list[type]:
    from cardgame.engine import Stage

    for info in pkgutil.walk_packages(importlib.import_module("cardgame").__path__, "cardgame."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)

    def walk(cls: type) -> list[type]:
        return [c for sub in cls.__subclasses__() for c in (sub, *walk(sub))]

    def named(c: type) -> bool:  # a class of its module's own (not one made at run time, as verify's twins)
        return getattr(sys.modules.get(c.__module__), c.__name__, None) is c

    found = {c for c in walk(Stage) if c.__module__.startswith("cardgame.stages.") and c.__name__ != "PokerStage"
             and named(c)}
    return sorted(found, key=lambda c: (c.__module__, c.__name__))


def machines() -> str:
    from cardgame.engine.diagram import machine_mermaid

    parts = []
    for cls in stage_classes():
        doc = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        events = ", ".join(f"`{e}`" for e in cls.events) or "none"
        everywhere = ", ".join(f"`{t}`" for t in cls.everywhere)
        if everywhere:
            events += f" (triggers in every state, not drawn: {everywhere})"
        parts.append(f"### {cls.__name__} (`{cls.__module__}`)\n\n{doc}\n\nEvents: {events}.\n\n"
                     f"```mermaid\n{machine_mermaid(cls)}\n```")
    return "\n\n".join(parts)


SECTIONS = {"layers": layer_graph, "machines": machines}


def fill(doc: Path, text: str, sections: dict[str, Callable[[], str]]) -> str:
    """``text`` (``doc``'s) with each ``<!-- generated: NAME -->`` ... ``<!-- end: NAME -->`` section
    rewritten as ``sections[NAME]()`` gives it."""
    for name, make in sections.items():
        pattern = re.compile(rf"(<!-- generated: {name} -->\n)(?:.*?\n)?(<!-- end: {name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"{doc}: no <!-- generated: {name} --> ... <!-- end: {name} --> section")
        body = make()
        text = pattern.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)
    return text


def render(text: str) -> str:
    return fill(DOC, text, SECTIONS)


def write_or_check(doc: Path, make: Callable[[str], str], argv: list[str] | None, description: str) -> int:
    """The generated documents' command line: rewrite ``doc`` as ``make(current text)`` gives it, or with
    ``--check`` exit 1 if it differs (a test runs that)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {doc.relative_to(ROOT)} is out of date")
    args = parser.parse_args(argv)
    current = doc.read_text(encoding="utf-8") if doc.exists() else ""
    wanted = make(current)
    if args.check:
        if wanted != current:
            script = Path(sys.argv[0]).name if sys.argv[0].endswith(".py") else "the script that writes it"
            print(f"{doc.relative_to(ROOT)} is out of date: run python scripts/{script}", file=sys.stderr)
            return 1
        return 0
    doc.write_text(wanted, encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_or_check(DOC, render, argv, __doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
