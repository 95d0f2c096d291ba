"""Write the exploitability table of docs/rl.md: our CFR, CFR+ and linear CFR beside OpenSpiel's at 10,
100 and 1,000 iterations on Kuhn and Leduc (pyspiel, a test extra, is needed).

    python scripts/cfr_table.py          # rewrite the table in docs/rl.md (about five minutes)
    python scripts/cfr_table.py --check  # exit 1 if it is out of date

OpenSpiel's side is its C++ ``CFRSolver`` and ``CFRPlusSolver`` and its Python ``LCFRSolver`` (linear
CFR has no C++ solver), scored by its own ``exploitability``; ours is :class:`cardgame.rl.cfr.CFR` on the
tree enumerated through the environment, scored by :func:`cardgame.rl.cfr.exploitability`. Both are
NashConv over the number of players, in chips per hand. ``tests/rl/test_spiel.py`` checks the average
policies equal at every information set, iterate for iterate, for the first iterations; this table
shows that they stay equal.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from architecture import ROOT, fill, write_or_check  # the generated documents' one command line

DOC = ROOT / "docs" / "rl.md"
GAMES = ("kuhn_poker", "leduc_poker")
METHODS = ("vanilla", "cfr+", "linear")
CHECKPOINTS = (10, 100, 1000)


def _theirs(game: Any, method: str) -> Any:
    import pyspiel
    from open_spiel.python.algorithms import discounted_cfr

    if method == "linear":
        return discounted_cfr.LCFRSolver(game)
    return pyspiel.CFRSolver(game) if method == "vanilla" else pyspiel.CFRPlusSolver(game)


def _their_exploitability(game: Any, solver: Any) -> float:
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    policy = solver.average_policy()
    if isinstance(policy, pyspiel.TabularPolicy):
        return float(pyspiel.exploitability(game, policy))
    return float(exploitability.exploitability(game, policy))


def rows() -> list[str]:
    """One table row a game, method and checkpoint: ours, OpenSpiel's and the difference."""
    import pyspiel

    sys.path.insert(0, str(ROOT))
    from cardgame.rl.cfr import CFR, GameTree, exploitability
    from cardgame.rl.spiel import load_game

    out = []
    for name in GAMES:
        tree = GameTree.build(load_game(name))
        game = pyspiel.load_game(name)
        for method in METHODS:
            ours, theirs, done = CFR(tree, method), _theirs(game, method), 0
            for n in CHECKPOINTS:
                ours.iterate(n - done)
                for _ in range(n - done):
                    theirs.evaluate_and_update_policy()
                done = n
                a, b = exploitability(tree, ours.average_policy()), _their_exploitability(game, theirs)
                out.append(f"| {name} | {method} | {n:,} | {a:.6g} | {b:.6g} | {abs(a - b):.1e} |")
    return out


def table() -> str:
    """The table's lines."""
    return "\n".join(["| game | method | iterations | ours | OpenSpiel | difference |", "|---|---|---|---|---|---|",
                      *rows()])


def main(argv: list[str] | None = None) -> int:
    return write_or_check(DOC, lambda text: fill(DOC, text, {"cfr-table": table}), argv,
                          (__doc__ or "").split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
