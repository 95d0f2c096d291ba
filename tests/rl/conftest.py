"""The Leduc tree, built once for the CFR and OpenSpiel tests (about a second and a half)."""

from __future__ import annotations

import pytest

from cardgame.rl.cfr import GameTree
from cardgame.rl.spiel import load_game


@pytest.fixture(scope="session")
def leduc_tree() -> GameTree:
    return GameTree.build(load_game("leduc_poker"))


@pytest.fixture(scope="session")
def kuhn_tree() -> GameTree:
    return GameTree.build(load_game("kuhn_poker"))
