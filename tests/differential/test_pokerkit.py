"""Our engine against PokerKit, hand by hand in both directions (see harness.py); skipped without PokerKit.

Any unexplained disagreement fails with its repro: the variant, direction, seed and the PHH text.
``python scripts/differential.py --hands 2000`` runs the same comparison at scale.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pokerkit")

from tests.differential.harness import CODES, DEVIATIONS, run_hand

HANDS = 60  # per variant and direction: 1,320 hands, about 12 s


@pytest.mark.parametrize("direction", ["A", "B"])
@pytest.mark.parametrize("code", CODES)
def test_every_hand_agrees_or_is_a_documented_deviation(code: str, direction: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about the hands it plays (free folds, burned chips)
        outcomes = [run_hand(code, direction, seed) for seed in range(HANDS)]
    bad = [o for o in outcomes if o.status == "disagree"]
    assert not bad, "\n\n".join(o.repro() for o in bad[:3])
    assert sum(o.status == "agree" for o in outcomes) >= HANDS // 2  # the comparison really ran


def test_every_deviation_is_in_the_rules_page() -> None:
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    missing = [d.id for d in DEVIATIONS if f"`{d.id}`" not in rules]
    assert not missing, f"docs/rules.md does not list {missing}"
