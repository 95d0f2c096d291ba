"""clubs: one ``clubs.poker.Dealer`` configured for no-limit hold'em, ``reset(reset_stacks=True)``
per hand (moves the button, posts blinds, deals) and ``step(bet)`` per decision, with the sizes
from its observation (``call``, ``min_raise``, ``max_raise``: chips to add); ``step`` settles
the hand itself when it ends.
"""

from __future__ import annotations

import importlib.util
import random
from functools import partial

from .common import BIG_BLIND, SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "clubs"
DIST = "clubs"


def available() -> bool:
    return importlib.util.find_spec("clubs") is not None


def _table(players: int, rng: random.Random) -> Hand:
    from clubs.poker import Dealer

    dealer = Dealer(
        num_players=players,
        num_streets=4,
        blinds=[SMALL_BLIND, BIG_BLIND] + [0] * (players - 2),
        antes=0,
        raise_sizes="inf",
        num_raises="inf",
        num_suits=4,
        num_ranks=13,
        num_hole_cards=2,
        num_community_cards=[0, 3, 1, 1],
        num_cards_for_hand=5,
        mandatory_num_hole_cards=0,
        start_stack=STACK,
    )

    def hand() -> tuple[int, int]:
        obs = dealer.reset(reset_stacks=True)
        decisions, done = 0, False
        while not done:
            call, low, high = obs["call"], obs["min_raise"], obs["max_raise"]
            options = [-1, call] if call else [0]  # -1 folds, 0 checks
            if high > call:
                options += [low] if high == low else [low, high]
            obs, _, ended = dealer.step(rng.choice(options))
            done = all(ended)
            decisions += 1
        return decisions, sum(dealer.stacks)

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
