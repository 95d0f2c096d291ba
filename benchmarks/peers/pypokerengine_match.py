"""PyPokerEngine's ``Emulator`` playing a bot match: one ``BasePokerPlayer`` per bot registered
with it, every stack reset before ``start_new_round`` (which moves the button and posts the
blinds), then ``run_until_round_finish``, which asks each player's ``declare_action`` with the
valid actions and the round state it builds for every decision (showdown and side pots included).

``declare_action`` gets no "facing a bet" flag, so the random bot compares the call amount with
what it has put in on this street (its last entry in the street's action history).

PyPokerEngine splits a pot between winners by integer division and drops the odd chip, so a few
split pots lose a chip: the benchmark reports them as hands whose chips did not add up.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from .matches import SMALL_BLIND, STACK, Hand, MatchStats, check_bots, drive

NAME = "PyPokerEngine"
DIST = "PyPokerEngine"
#: Why chips may not add up (see above).
CHIPS_NOTE = "it drops the odd chip of a split pot"

Policy = Callable[[list[dict[str, Any]], dict[str, Any], str, random.Random], tuple[str, int]]


def available() -> bool:
    return importlib.util.find_spec("pypokerengine") is not None


def _paid_this_street(round_state: dict[str, Any], uuid: str) -> int:
    for entry in reversed(round_state["action_histories"].get(round_state["street"], ())):
        if entry["uuid"] == uuid and "amount" in entry:
            return int(entry["amount"])
    return 0


def _random(valid: list[dict[str, Any]], round_state: dict[str, Any], uuid: str, rng: random.Random) -> tuple[str, int]:
    call = valid[1]["amount"]
    options = [("fold", 0)] if call > _paid_this_street(round_state, uuid) else []
    options.append(("call", call))
    low, high = valid[2]["amount"]["min"], valid[2]["amount"]["max"]
    if low != -1:
        options += [("raise", low)] if high == low else [("raise", low), ("raise", high)]
    return rng.choice(options)


def _calling_station(valid: list[dict[str, Any]], round_state: dict[str, Any], uuid: str,
                     rng: random.Random) -> tuple[str, int]:
    return "call", valid[1]["amount"]


def _all_in(valid: list[dict[str, Any]], round_state: dict[str, Any], uuid: str, rng: random.Random) -> tuple[str, int]:
    high = valid[2]["amount"]["max"]
    return ("raise", high) if high != -1 else ("call", valid[1]["amount"])


POLICIES: dict[str, Policy] = {"random": _random, "calling-station": _calling_station, "all-in": _all_in}


def _table(bots: tuple[str, ...], hands: int, rng: random.Random) -> Hand:
    from pypokerengine.api.emulator import Emulator
    from pypokerengine.players import BasePokerPlayer

    class Player(BasePokerPlayer):  # type: ignore[misc]
        def __init__(self, uuid: str, policy: Policy, counter: list[int]) -> None:
            self.uuid, self.policy, self.counter = uuid, policy, counter

        def declare_action(self, valid_actions: list[dict[str, Any]], hole_card: list[str],
                           round_state: dict[str, Any]) -> tuple[str, int]:
            self.counter[0] += 1
            return self.policy(valid_actions, round_state, self.uuid, rng)

    counter = [0]
    emulator = Emulator()
    emulator.set_game_rule(player_num=len(bots), max_round=hands + 1, small_blind_amount=SMALL_BLIND, ante_amount=0)
    info = {}
    for i, bot in enumerate(bots):
        uuid = f"p{i}"
        emulator.register_player(uuid, Player(uuid, POLICIES[bot], counter))
        info[uuid] = {"name": uuid, "stack": STACK}
    state = emulator.generate_initial_game_state(info)

    def hand() -> tuple[int, bool]:
        nonlocal state
        for player in state["table"].seats.players:
            player.stack = STACK
        state, _ = emulator.start_new_round(state)
        before = counter[0]
        state, _ = emulator.run_until_round_finish(state)
        players = state["table"].seats.players
        return counter[0] - before, sum(p.stack for p in players) == STACK * len(players)

    return hand


def play(bots: tuple[str, ...], hands: int, seed: int, seconds: float | None = None) -> MatchStats:
    check_bots(bots)
    return drive(partial(_table, bots, hands), hands, seed, seconds)
