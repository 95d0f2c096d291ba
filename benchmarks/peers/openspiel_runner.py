"""OpenSpiel: one ``universal_poker`` game loaded from an ACPC game definition, one
``new_initial_state()`` per hand (so every stack starts at 400 and the seats never move), driven
from Python through ``pyspiel`` until ``state.is_terminal()``.

The definition is no-limit, 4 rounds with 0/3/1/1 board cards, 2 hole cards, 4 suits × 13 ranks,
stack 400 for every seat. Seat 0 posts the small blind and seat 1 the big blind
(``blind = 1 2 0 …``); ``firstPlayer`` (1-based, per round) starts pre-flop left of the big
blind and post-flop left of the button: ``3 1 1 1`` for 6 players (seat 5 is the button), and
``1 2 2 2`` heads-up, where seat 0 is both button and small blind.

Bet sizes: ``universal_poker`` defaults to the ``fcpa`` betting abstraction (fold, call, pot-size
bet, all-in), which has no minimum raise. The definition sets ``bettingAbstraction = fullgame``
instead: the full no-limit action set, where action 0 folds, 1 checks or calls and every other
action ``n`` raises to ``n`` chips committed in the hand (the legal ones run from the minimum raise
to all-in). From those the runner offers the shared workload's options, not every size: fold
(``legal_actions()`` lists it only when facing a bet), check/call, the smallest legal raise and
the largest (all-in) when it differs, one of them drawn uniformly by the seeded ``random.Random``.
Chance nodes (every dealt card) take an outcome drawn uniformly by the same generator from
``chance_outcomes()``, whose probabilities are uniform. The sum of stacks after a hand is
``players * 400`` plus the sum of ``state.returns()`` (chips won or lost).
"""

from __future__ import annotations

import importlib.util
import random
from functools import partial

from .common import BIG_BLIND, SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "openspiel"
DIST = "open_spiel"


def available() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def gamedef(players: int) -> str:
    """The ACPC game definition of the shared workload for ``players`` seats."""
    blinds = [SMALL_BLIND, BIG_BLIND] + [0] * (players - 2)
    # 1-based seat to act first in each round: pre-flop left of the big blind (seat 2, or the
    # small blind/button heads-up), post-flop left of the button (seat 0, or the big blind heads-up).
    first = "1 2 2 2" if players == 2 else "3 1 1 1"
    return "\n".join(
        [
            "GAMEDEF",
            "nolimit",
            f"numPlayers = {players}",
            "numRounds = 4",
            f"stack = {' '.join([str(STACK)] * players)}",
            f"blind = {' '.join(map(str, blinds))}",
            f"firstPlayer = {first}",
            "numSuits = 4",
            "numRanks = 13",
            "numHoleCards = 2",
            "numBoardCards = 0 3 1 1",
            "bettingAbstraction = fullgame",
            "END GAMEDEF",
            "",
        ]
    )


def _table(players: int, rng: random.Random) -> Hand:
    import pyspiel

    game = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(gamedef(players))
    if game.get_parameters()["bettingAbstraction"] != "fullgame":
        raise RuntimeError("universal_poker did not take bettingAbstraction = fullgame")
    expected = players * STACK

    def hand() -> tuple[int, int]:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            legal = state.legal_actions()
            options = legal[:2] if legal[0] == 0 else legal[:1]  # [fold,] check/call
            if legal[-1] > 1:  # raises: every size from the minimum to all-in
                smallest = legal[len(options)]
                options += [smallest] if legal[-1] == smallest else [smallest, legal[-1]]
            state.apply_action(rng.choice(options))
            decisions += 1
        return decisions, expected + round(sum(state.returns()))

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
