"""``cardgame diagram``: a variant's stage list and each stage's state machine, drawn from the machines
(:mod:`cardgame.engine.diagram`).

``mermaid`` is Markdown, one fenced ``mermaid`` block per diagram (GitHub renders it as it is, and
mermaid's own command line reads Markdown); ``dot`` is one graphviz ``digraph`` (the stage list and
each machine a cluster). ``svg`` and ``png`` run graphviz's ``dot`` program on that graph. svg is text
and goes to standard output like the others; png is binary, so it goes to standard output only when
that is not a terminal (piped or redirected), where its bytes would garble the screen.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from cardgame.cli.args import output
from cardgame.engine import Stage
from cardgame.engine.diagram import (
    machine_classes,
    machine_dot,
    machine_mermaid,
    machines_dot,
    machines_markdown,
    variant_dot,
    variant_markdown,
)
from cardgame.model.errors import CardgameError
from cardgame.model.inputs import excerpt

__all__ = ["FORMATS", "SUFFIXES", "add", "draw", "stage_classes"]

#: The formats, text first; the images need graphviz's ``dot`` program.
FORMATS = ("mermaid", "dot", "svg", "png")
#: The file suffixes that name a format: an ``--output`` with one of them must be of that format.
SUFFIXES = {".svg": "svg", ".png": "png", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid", ".md": "mermaid"}
DOT_TIMEOUT = 60  # seconds graphviz may take on one variant (it takes well under one)


def stage_classes(stages: Sequence[Stage[Any]], name: str) -> list[type[Stage[Any]]]:
    """The classes of the stages ``name`` picks in ``stages`` or the sub-stages they push (any case): a
    stage class's name (``betting round``) or class name (``BettingRound``) picks that class; otherwise a
    street as the dealer says it (``flop``, ``third street``, ``first draw``) picks every stage whose
    label names it (``deal the flop``, ``flop betting``). A name not there is a :class:`CardgameError`
    listing the names there are."""
    classes = machine_classes(stages)
    wanted = " ".join(name.split()).lower()
    found = [cls for cls in classes if wanted in (cls.name.lower(), cls.__name__.lower())]
    if len(found) > 1:  # two classes share the name: their class names tell them apart
        raise CardgameError(f"Several stages are called {excerpt(name)}: give the class name, one of "
                            f"{', '.join(cls.__name__ for cls in found)}.")
    if not found and wanted:
        says = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")
        for stage in stages:
            if says.search(stage.label.lower()) and type(stage) not in found:
                found.append(type(stage))
    if found:
        return found
    names = ", ".join(f"{cls.name!r}" for cls in classes)
    labels = ", ".join(dict.fromkeys(f"{s.label!r}" for s in stages if s.label != s.name))
    variant = getattr(getattr(stages, "variant", None), "name", None) or "This stage list"
    raise CardgameError(f"{variant} has no stage called {excerpt(name)}; its stages are {names}"
                        + (f"; by street, {labels}." if labels else "."))


def _graphviz(dot_text: str, fmt: str) -> bytes:
    """``dot_text`` drawn as ``fmt`` by graphviz's ``dot`` program."""
    program = shutil.which("dot")
    if program is None:
        raise CardgameError(f"--format {fmt} needs graphviz's dot program, which is not installed (not on PATH): "
                            "install graphviz (apt install graphviz, brew install graphviz, or see "
                            "https://graphviz.org/download/), or use --format mermaid or --format dot.")
    try:
        done = subprocess.run([program, f"-T{fmt}"], input=dot_text.encode(), capture_output=True,
                              timeout=DOT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise CardgameError(f"graphviz's dot did not finish within {DOT_TIMEOUT} seconds.") from None
    if done.returncode != 0:
        why = excerpt(done.stderr.decode(errors="replace").strip())
        raise CardgameError(f"graphviz's dot failed (status {done.returncode}): {why}")
    return done.stdout


def draw(variant: str, fmt: str = "mermaid", stage: str | None = None) -> bytes:
    """The diagram of ``variant`` (a name or PHH code; only its stage ``stage``'s machine if given) in
    ``fmt``, one of :data:`FORMATS`, as bytes (text is UTF-8)."""
    import variants

    if fmt not in FORMATS:
        raise CardgameError(f"Unknown diagram format {excerpt(fmt)}; the formats are {', '.join(FORMATS)}.")
    chosen = variants.get(variant)  # an unknown one: ConfigError listing every name and code
    stages = chosen.build()
    title = f"{chosen.name} ({chosen.code})" if chosen.code else chosen.name
    if stage is not None:
        classes = stage_classes(stages, stage)
        if len(classes) == 1:
            text = (f"```mermaid\n{machine_mermaid(classes[0])}\n```\n" if fmt == "mermaid"
                    else machine_dot(classes[0]) + "\n")
        else:  # a street: each of its stages' machines
            text = (machines_markdown(classes) + "\n" if fmt == "mermaid"
                    else machines_dot(classes, f"{title}: {' '.join(stage.split())}") + "\n")
    else:
        text = variant_markdown(stages) if fmt == "mermaid" else variant_dot(stages, title) + "\n"
    if fmt in ("mermaid", "dot"):
        return text.encode()
    return _graphviz(text, fmt)


def run(args: argparse.Namespace, console: Console) -> int:
    """Draw the variant; write the diagram to ``--output`` or standard output."""
    if args.output is not None:
        suffix = os.path.splitext(args.output)[1].lower()
        named = SUFFIXES.get(suffix)
        if named is not None and named != args.format:
            raise CardgameError(f"--output {excerpt(args.output)} names a {named} file but --format is {args.format}: "
                                f"give --format {named}, or an --output name ending in "
                                f"{' or '.join(k for k, f in SUFFIXES.items() if f == args.format)}.")
    if args.format == "png" and args.output is None and sys.stdout.isatty():
        raise CardgameError("A png is binary: give --output FILE, or redirect standard output to a file or a program.")
    data = draw(args.variant, args.format, args.stage)
    if args.output is not None:
        with open(args.output, "wb") as f:
            f.write(data)
    elif args.format != "png":  # text: through the text stream, whatever it is
        sys.stdout.write(data.decode())
        sys.stdout.flush()
    else:
        binary = getattr(sys.stdout, "buffer", None)
        if binary is None:
            raise CardgameError("A png is binary and standard output here takes only text: give --output FILE.")
        sys.stdout.flush()
        binary.write(data)
        binary.flush()
    return 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``diagram`` subcommand."""
    diagram = sub.add_parser(
        "diagram", help="draw a variant's stages and their state machines (mermaid, dot, svg, png)",
        description="Draw a variant's stage list (each stage's result to the next, jumps to a later stage, "
                    "sub-stages, the restart to the next hand) and each stage class's state machine, from the "
                    "machines themselves. mermaid is Markdown with one ```mermaid block per diagram (GitHub "
                    "renders it); dot is one graphviz graph; svg and png need graphviz's dot program. A png goes "
                    "to standard output only when that is not a terminal.")
    diagram.add_argument("variant", help="variant name or PHH code, e.g. NT, F7S, F2L3D (an unknown one is "
                                         "refused with the list of them all)")
    diagram.add_argument("--stage", default=None, metavar="NAME",
                         help="draw only this stage's machine, e.g. 'betting round' (default: the whole variant)")
    diagram.add_argument("--format", choices=FORMATS, default="mermaid", help="default mermaid")
    diagram.add_argument("--output", type=output, default=None, metavar="FILE",
                         help="write the diagram to FILE (default: standard output); a name ending in .svg, .png, "
                              ".dot, .gv, .mmd or .md must be of that format")
    diagram.set_defaults(run=run)
