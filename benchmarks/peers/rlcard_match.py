"""rlcard's no-limit hold'em environment playing a bot match: ``rlcard.make('no-limit-holdem')``
with ``chips_for_each`` = 200 (its blinds are 1/2), ``env.reset()`` per hand (which deals every
player a new stack), ``env.step(action_id)`` per decision until ``env.is_over()``, then
``env.get_payoffs()`` (the showdown). The environment keeps the button where it first put it, so
the runner moves it (``game.dealer_id``) before each hand, as the other engines do.

rlcard's no-limit game has an abstract action set: fold, check/call, raise half the pot, raise the
pot, all-in. The bots read the observation an agent gets (``state['raw_obs']``): the random bot's
smallest raise is the smallest of those raises allowed (half the pot, else the pot), its largest
is all-in; it folds only facing a bet (``max(all_chips) > my_chips``), although rlcard always
allows a fold. Each player is dealt its hole cards and the board from the environment's seeded
``numpy`` generator.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from .matches import STACK, Hand, MatchStats, check_bots, drive

NAME = "rlcard"
DIST = "rlcard"

FOLD, CHECK_CALL, RAISE_HALF_POT, RAISE_POT, ALL_IN = range(5)  # rlcard's nolimitholdem Action values

Policy = Callable[[dict[str, Any], random.Random], int]


def available() -> bool:
    return importlib.util.find_spec("rlcard") is not None


def _random(state: dict[str, Any], rng: random.Random) -> int:
    legal, obs = state["legal_actions"], state["raw_obs"]
    options = [FOLD] if max(obs["all_chips"]) > obs["my_chips"] else []
    options.append(CHECK_CALL)
    if ALL_IN in legal:  # rlcard allows a raise exactly when it allows all-in
        smallest = next((a for a in (RAISE_HALF_POT, RAISE_POT) if a in legal), None)
        options += [ALL_IN] if smallest is None else [smallest, ALL_IN]
    return rng.choice(options)


def _calling_station(state: dict[str, Any], rng: random.Random) -> int:
    return CHECK_CALL


def _all_in(state: dict[str, Any], rng: random.Random) -> int:
    return ALL_IN if ALL_IN in state["legal_actions"] else CHECK_CALL


POLICIES: dict[str, Policy] = {"random": _random, "calling-station": _calling_station, "all-in": _all_in}


def _table(bots: tuple[str, ...], seed: int, rng: random.Random) -> Hand:
    import rlcard

    players = len(bots)
    env = rlcard.make("no-limit-holdem", config={"seed": seed, "game_num_players": players, "chips_for_each": STACK})
    policies = [POLICIES[bot] for bot in bots]
    button = [players - 1]

    def hand() -> tuple[int, bool]:
        button[0] = (button[0] + 1) % players
        env.game.dealer_id = button[0]
        state, seat = env.reset()
        decisions = 0
        while not env.is_over():
            state, seat = env.step(policies[seat](state, rng))
            decisions += 1
        payoffs = env.get_payoffs()
        return decisions, abs(float(sum(payoffs))) < 1e-9

    return hand


def play(bots: tuple[str, ...], hands: int, seed: int, seconds: float | None = None) -> MatchStats:
    check_bots(bots)
    return drive(partial(_table, bots, seed), hands, seed, seconds)
