"""PokerKit: one ``NoLimitTexasHoldem`` ``State`` per hand (a state is a single hand in PokerKit),
tournament mode (single runout), every automation on (posting, dealing, burning, collecting,
showdown, killing, pushing, pulling), so the glue only makes the betting decisions.
"""

from __future__ import annotations

import importlib.util
import random
from functools import partial

from .common import BIG_BLIND, SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "pokerkit"
DIST = "pokerkit"


def available() -> bool:
    return importlib.util.find_spec("pokerkit") is not None


def _table(players: int, rng: random.Random) -> Hand:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations, stacks = tuple(Automation), (STACK,) * players

    def hand() -> tuple[int, int]:
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (SMALL_BLIND, BIG_BLIND), BIG_BLIND, stacks, players
        )
        decisions = 0
        while state.actor_index is not None:
            options: list[int | None] = [-1] if state.checking_or_calling_amount else []
            options.append(None)  # None: check/call, -1: fold, n: raise to n
            low = state.min_completion_betting_or_raising_to_amount
            if low is not None:
                high = state.max_completion_betting_or_raising_to_amount
                options += [low] if high == low else [low, high]
            choice = rng.choice(options)
            if choice is None:
                state.check_or_call()
            elif choice < 0:
                state.fold()
            else:
                state.complete_bet_or_raise_to(choice)
            decisions += 1
        if state.status:
            raise RuntimeError("hand stopped before its end")
        return decisions, sum(state.stacks)

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
