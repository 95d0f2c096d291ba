"""Seeded games play the same hands from one version to the next: a digest of every event of a few hundred
seeded hands (Leduc hold'em heads-up and three-handed, no-limit hold'em heads-up and six-handed with short
stacks, so all-ins and side pots, pot-limit Omaha) equals the one recorded before the engine's short-hand fast
paths, and the one-board showdown awards exactly as the general one does."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

import variants
from cardgame.model.events import Event
from cardgame.play.game import Game

#: (variant, params, seats, stack, hands, seed) -> the digest recorded (commit e06ccc4, before the change).
GAMES: dict[tuple[str, tuple[tuple[str, int], ...], int, int, int, int], str] = {
    ("leduc hold'em", (("players", 2),), 2, 20, 2000, 1): "134ae98e56c2c960534cf5ff6c588875",
    ("leduc hold'em", (("players", 3),), 3, 9, 1000, 2): "d5173bf91ae0ee2debf492041250ee85",
    ("NT", (), 2, 60, 1000, 3): "ed0c4592f2497fcc56227083a2d56ccc",
    ("NT", (), 6, 40, 1000, 4): "4ec1d2c1ce157d1c5b9e9a8eef0c2ec9",
    ("PO", (), 4, 50, 500, 5): "1ad2342a409a754f4fbb389848a74749",
}


def _played(variant: str, params: tuple[tuple[str, int], ...], seats: int, stack: int, hands: int, seed: int) -> str:
    """The digest of every event of ``hands`` hands of a seeded game, each decision a seeded random legal one
    (a bet or raise the minimum or the maximum), every broke player's stack put back between hands."""
    game = Game(variants.get(variant), params=dict(params), seats=seats, seed=seed)
    for seat in range(seats):
        game.sit_down(f"p{seat}", stack, seat)
    digest = hashlib.blake2b(digest_size=16)
    events: list[Event] = []
    game.subscribe(events.append)
    choose = random.Random(seed).choice
    game.start()
    while game.ctx.hands_played < hands:
        legal = game.legal_actions()
        assert legal is not None
        options: list[tuple[str, int | None]] = [("check", None)]
        if legal.call_amount:
            options = [("fold", None), ("call", None)]
        if legal.can_raise:
            options += [("raise", legal.min_raise_to), ("raise", legal.max_raise_to)]
        action, amount = choose(options)
        if action == "raise" and legal.is_bet:
            action = "bet"
        played = game.ctx.hands_played
        game.act(legal.seat, action, amount)
        if game.ctx.hands_played != played:
            for p in game.table.seats:
                if p is not None and p.stack == 0 and p.sitting_out:  # (broke at the last hand's end)
                    game.top_up(p.seat, stack)
                    game.sit_in(p.seat)
        digest.update(repr(events).encode())
        events.clear()
    return digest.hexdigest()


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: f"{g[0]}-{g[2]}")
def test_a_seeded_game_plays_the_hands_recorded(game: tuple[Any, ...]) -> None:
    assert _played(*game) == GAMES[game]

