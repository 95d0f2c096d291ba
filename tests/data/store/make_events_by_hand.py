"""Made with the store of commit 36392c5 (its schema indexes every event by hand: ``events_by_hand``), run from
a checkout of it as ``python make_events_by_hand.py events-by-hand.db``: two recorded heads-up tables, each with
a hand interrupted and voided by recovery, then more hands, the last in progress."""

from __future__ import annotations

import random
import sys

from cardgame import Game
from cardgame.store import EventStore, recover
from variants import no_limit_holdem


def play(game: Game, rng: random.Random, decisions: int) -> None:
    for _ in range(decisions):
        legal = game.legal_actions()
        if legal is None:
            return
        if legal.call_amount and rng.random() < 0.1:
            game.act(legal.seat, "fold")
        elif legal.can_raise and rng.random() < 0.2:
            game.act(legal.seat, "bet" if legal.is_bet else "raise", legal.min_raise_to)
        else:
            game.act(legal.seat, "call" if legal.call_amount else "check")


def main(path: str) -> None:
    store = EventStore(path)
    rng = random.Random(5)
    for table_id, seed in (("alpha", 7), ("beta", 8)):
        game = Game(no_limit_holdem(1, 2), seats=2, seed=seed)
        store.record(game, table_id, phh_writer=None)
        game.sit_down("Ann", 200, 0)
        game.sit_down("Bob", 200, 1)
        game.start()
        while game.ctx.hands_played < 4:
            play(game, rng, 1)
        play(game, rng, 3)  # hand 5, interrupted
        again = recover(store, table_id, no_limit_holdem(1, 2), seed=9)
        store.record(again, table_id, phh_writer=None)
        again.start()
        while again.ctx.hands_played < 7:
            play(again, rng, 1)
    store.close()


if __name__ == "__main__":
    main(sys.argv[1])
