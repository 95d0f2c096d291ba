"""texasholdem: one ``TexasHoldEm`` table kept across hands (button moves), chips reset to the
starting stack before ``start_hand()``; legal moves come from ``get_available_moves()`` and
actions go through ``take_action()``, which deals, settles side pots and shows down by itself.
"""

from __future__ import annotations

import importlib.util
import random
from functools import partial

from .common import BIG_BLIND, SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "texasholdem"
DIST = "texasholdem"


def available() -> bool:
    return importlib.util.find_spec("texasholdem") is not None


def _table(players: int, rng: random.Random) -> Hand:
    from texasholdem import ActionType, TexasHoldEm

    fold, call, check, raise_ = ActionType.FOLD, ActionType.CALL, ActionType.CHECK, ActionType.RAISE
    game = TexasHoldEm(buyin=STACK, big_blind=BIG_BLIND, small_blind=SMALL_BLIND, max_players=players)

    def hand() -> tuple[int, int]:
        for player in game.players:
            player.chips = STACK
        game.start_hand()
        decisions = 0
        while game.is_hand_running():
            moves = game.get_available_moves()
            options: list[tuple[ActionType, int | None]]
            options = [(fold, None), (call, None)] if call in moves.action_types else [(check, None)]
            raises = moves.raise_range
            if raises:
                options.append((raise_, raises[0]))
                if raises[-1] != raises[0]:
                    options.append((raise_, raises[-1]))
            action, total = rng.choice(options)
            game.take_action(action, total=total)
            decisions += 1
        return decisions, sum(player.chips for player in game.players)

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
