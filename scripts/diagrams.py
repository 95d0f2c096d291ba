"""Write docs/diagrams.md: the stage lists and machines of hold'em, stud and triple draw, drawn from the
machines themselves (what ``cardgame diagram VARIANT`` prints).

    python scripts/diagrams.py          # rewrite docs/diagrams.md
    python scripts/diagrams.py --check  # exit 1 if it is out of date (tests/test_diagram.py runs this)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from architecture import ROOT, write_or_check  # the generated documents' one command line

DOC = ROOT / "docs" / "diagrams.md"

#: The variants drawn, by PHH code: a community-card game, a stud game and a draw game.
VARIANTS = ("NT", "F7S", "F2L3D")

INTRO = """\
# Diagrams

Written from the machines themselves by `python scripts/diagrams.py` (a test fails when this file is
out of date; do not edit it by hand). `cardgame diagram VARIANT` prints the same for any variant, or
one stage's machine with `--stage NAME`, as mermaid, graphviz dot, svg or png; the machines of every
stage class, with their documentation, are in [architecture.md](architecture.md).

**The stage list** is the dispatcher's (`cardgame/engine/dispatcher.py`): a solid arrow is a stage
finishing (`Done`) with the result the next stage starts with, named by its type; a dashed `goto`
arrow is a stage that may jump to a later stage (`Goto`, its `goes_to`), such as a hand won before
the showdown; a dashed `push` arrow is a sub-stage run on top of the stage, whose result comes back
to it; the thick `restart` arrow starts the next hand from the first stage, and `exit` stops the game.
Several stages of one class (the betting rounds) share one machine, drawn once.

**A machine** has one arrow per transition of its compiled table: `trigger (prepare callbacks)
[conditions] / callbacks`, in the order they run (`cardgame/engine/machine.py`).
"""


def render() -> str:
    """The document's text."""
    import variants
    from cardgame.engine.diagram import variant_markdown

    parts = [INTRO]
    for code in VARIANTS:
        variant = variants.get(code)
        parts.append(f"## {variant.name} ({code})\n\n{variant_markdown(variant.build(), level=3)}")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    return write_or_check(DOC, lambda _current: render(), argv, (__doc__ or "").split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
