"""PyPokerEngine: its lower-level ``RoundManager`` driven directly, as its own ``Dealer`` does
but without the player/message-handler layer: stacks reset, button shifted and blinds placed
on one ``Table`` per hand, legal actions from ``ActionChecker.legal_actions``, then
``RoundManager.apply_action`` until the street is ``FINISHED`` (showdown and side pots included).
``RoundManager`` still copies the table and builds its ask/update messages on every action:
that is part of the engine.
"""

from __future__ import annotations

import importlib.util
import random
from functools import partial

from .common import SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "PyPokerEngine"
DIST = "PyPokerEngine"


def available() -> bool:
    return importlib.util.find_spec("pypokerengine") is not None


def _table(players: int, rng: random.Random) -> Hand:
    from pypokerengine.engine.action_checker import ActionChecker
    from pypokerengine.engine.player import Player
    from pypokerengine.engine.poker_constants import PokerConstants
    from pypokerengine.engine.round_manager import RoundManager
    from pypokerengine.engine.table import Table

    finished, legal_actions = PokerConstants.Street.FINISHED, ActionChecker.legal_actions
    table = Table()
    for i in range(players):
        table.seats.sitdown(Player(str(i), STACK))
    count = 0

    def hand() -> tuple[int, int]:
        nonlocal table, count
        for player in table.seats.players:
            player.stack = STACK
        table.shift_dealer_btn()
        small = table.next_active_player_pos(table.dealer_btn)
        table.set_blind_pos(small, table.next_active_player_pos(small))
        count += 1
        state, _ = RoundManager.start_new_round(count, SMALL_BLIND, 0, table)
        decisions = 0
        while state["street"] != finished:
            seats, position = state["table"].seats.players, state["next_player"]
            _, call, raise_ = legal_actions(seats, position, SMALL_BLIND)
            options = [("fold", 0)] if call["amount"] > seats[position].paid_sum() else []
            options.append(("call", call["amount"]))
            low, high = raise_["amount"]["min"], raise_["amount"]["max"]
            if low != -1:
                options += [("raise", low)] if high == low else [("raise", low), ("raise", high)]
            action, amount = rng.choice(options)
            state, _ = RoundManager.apply_action(state, action, amount)
            decisions += 1
        table = state["table"]
        return decisions, sum(player.stack for player in table.seats.players)

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
