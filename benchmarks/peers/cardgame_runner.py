"""cardgame: one ``Game`` kept across hands. A ``ResetStacks`` stage put in front of the no-limit
hold'em stage list resets every stack before each hand (a variant is just a list of stages); the
decisions use ``LegalActions`` and go through ``Game.act``.
"""

from __future__ import annotations

import random
from functools import partial
from typing import ClassVar

from cardgame import Game
from cardgame.evaluation import evaluate_high
from cardgame.model.events import HandEnded
from cardgame.stages.base import PokerStage
from variants import no_limit_holdem

from .common import BIG_BLIND, SMALL_BLIND, STACK, Hand, RunStats, drive

NAME = "cardgame"
DIST = "cardgame"


def available() -> bool:
    return True


class ResetStacks(PokerStage):
    """Sets every seated player's stack to ``STACK`` and sits them in; the base machine's ``done`` then hands
    on what it was given."""

    name: ClassVar[str] = "reset stacks"
    __slots__ = ()

    def on_start(self) -> None:
        for p in self.ctx.table.seats:  # a plain loop over the seats, as the texasholdem runner resets chips
            if p is not None:
                p.stack = STACK
                p.sitting_out = False


def _table(players: int, rng: random.Random) -> Hand:
    game = Game([ResetStacks(), *no_limit_holdem(SMALL_BLIND, BIG_BLIND)], seats=players,
                seed=random.getrandbits(32))
    for i in range(players):
        game.sit_down(f"p{i}", STACK, i)
    evaluate_high(range(7))  # build the evaluator's lazy tables now, as the peers do at import
    game.start()
    choice = rng.choice
    act = game.act
    ctx = game.ctx
    log = ctx.log

    def hand() -> tuple[int, int]:
        decisions = 0
        played = ctx.hands_played
        while ctx.hands_played == played:
            legal = game.legal_actions()
            assert legal is not None
            options: list[tuple[str, int | None]]
            options = [("fold", None), ("call", None)] if legal.call_amount else [("check", None)]
            if legal.can_raise:
                options.append(("raise", legal.min_raise_to))
                if legal.max_raise_to != legal.min_raise_to:
                    options.append(("raise", legal.max_raise_to))
            action, amount = choice(options)
            if action == "raise" and legal.is_bet:
                action = "bet"
            act(legal.seat, action, amount)
            decisions += 1
        for ended in reversed(log):  # the hand's end (the next hand has begun): a loop, no generator's frame
            if type(ended) is HandEnded:
                return decisions, sum([stack for _, stack in ended.stacks])
        raise AssertionError("the hand ended without a HandEnded event")

    return hand


def play(hands: int, players: int, seed: int, seconds: float | None = None) -> RunStats:
    return drive(partial(_table, players), hands, players, seed, seconds)
