"""Write the generated parts of docs/rl.md from the environments themselves: each registered
variant's default action abstraction, its size and the observation sizes, as ``cardgame.rl.env``
gives them.

    python scripts/rl_tables.py          # rewrite docs/rl.md in place
    python scripts/rl_tables.py --check  # exit 1 if it is out of date (tests/rl/test_tables.py runs this)

The generated part sits between ``<!-- generated: sizes -->`` and ``<!-- end: sizes -->``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from architecture import ROOT, fill, write_or_check  # the generated documents' one command line

DOC = ROOT / "docs" / "rl.md"

#: The table's second planes column is this many players (or the variant's most, if fewer).
MANY = 6


def sizes() -> str:
    """The sizes table: one row per registered variant."""
    import variants
    from cardgame.model.errors import ConfigError
    from cardgame.rl import raw_env

    def observation(variant: object, players: int, encoding: str = "planes") -> int:
        aec = raw_env(variant, players, observation=encoding)  # type: ignore[arg-type]
        return int(aec.observation_space(aec.possible_agents[0])["observation"].shape[0])

    rows = ["| variant | actions (default) | n | planes, 2 players | planes, 6 players | rlcard "
            "| infostate, 2 players |", "|---|---|---|---|---|---|---|"]
    for variant in variants.available():
        aec = raw_env(variant, 2)
        top = min(variant.max_players or MANY, MANY)
        if top == MANY:
            many = str(observation(variant, MANY))
        elif top > 2:
            many = f"{observation(variant, top)} ({top} players)"
        else:
            many = f"- ({top} players at most)"
        try:
            rlcard = str(observation(variant, 2, "rlcard"))
        except ConfigError:
            rlcard = "-"
        label = f"{variant.code} {variant.name}" if variant.code else variant.name
        rows.append(f"| {label} | {type(aec.actions).__name__} | {aec.actions.space.n} | {observation(variant, 2)} "
                    f"| {many} | {rlcard} | {observation(variant, 2, 'infostate')} |")
    return "\n".join(rows)


def render(text: str) -> str:
    return fill(DOC, text, {"sizes": sizes})


def main(argv: list[str] | None = None) -> int:
    return write_or_check(DOC, render, argv, (__doc__ or "").split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
