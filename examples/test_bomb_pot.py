"""Tests of examples/bomb_pot.py: the forced bets of one hand, then the variant end to end.

They use the library's public API only (nothing of the repo's test suite, no private name), so the
example and its tests can be copied out of the repo together. Run: pytest examples/test_bomb_pot.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bomb_pot import bomb_pot_every, bomb_pot_holdem

from cardgame import Game
from cardgame.engine import check_fit
from cardgame.model.errors import ConfigError
from cardgame.model.events import ActionTaken, BoardDealt, Event, ForcedBetPosted, HandStarted
from cardgame.play.bots import calling_station, random_bot
from cardgame.stages import BettingRound, ForcedBets
from cardgame.store.snapshot import SnapshotError, dumps, loads


def first_hand(stacks: list[int]) -> Game:
    """A bomb pot of 10 on seats 0.. with ``stacks``, the button on the last seat, run to its first decision."""
    game = Game(bomb_pot_holdem(10, 2), seats=len(stacks), first_button=len(stacks) - 1, seed=1, max_hands=1)
    for seat, chips in enumerate(stacks):
        game.sit_down(f"p{seat}", chips, seat)
    game.start()
    return game


def posts(game: Game) -> list[tuple[int, str, int, bool]]:
    return [(e.seat, e.bet, e.amount, e.all_in) for e in game.events if isinstance(e, ForcedBetPosted)]


def test_every_player_antes_the_bomb_pot_and_the_flop_is_out_before_anyone_acts() -> None:
    game = first_hand([100, 100, 100])
    assert sorted(posts(game)) == [(0, "ante", 10, False), (1, "ante", 10, False), (2, "ante", 10, False)]
    assert [p.stack for p in game.table.players()] == [90, 90, 90]
    hand = game.hand
    assert hand.pot_total() == 30 and len(hand.board) == 3 and hand.street == "flop"
    assert not any(isinstance(e, ActionTaken) for e in game.events)
    legal = game.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call_amount == 0  # left of the button; nothing to call


def test_a_short_player_antes_what_they_have_and_is_all_in() -> None:
    game = first_hand([100, 4, 100])
    assert posts(game) == [(0, "ante", 10, False), (1, "ante", 4, True), (2, "ante", 10, False)]
    assert game.hand.pot_total() == 24 and game.to_act == 0  # the all-in player is skipped


def test_heads_up_the_button_antes_first() -> None:
    game = Game(bomb_pot_holdem(5, 2), seats=2, first_button=0, seed=1, max_hands=1)
    game.sit_down("a", 50, 0)
    game.sit_down("b", 50, 1)
    game.start()
    assert posts(game) == [(0, "ante", 5, False), (1, "ante", 5, False)]


@pytest.mark.parametrize("amount", [0, -5, True, 2.5, "10"])
def test_a_bad_amount_is_refused(amount: object) -> None:
    with pytest.raises(ConfigError, match="positive whole number"):
        bomb_pot_holdem(amount)  # type: ignore[arg-type]


def test_the_variant_is_antes_only_forced_bets_and_no_pre_flop_betting() -> None:
    stages = bomb_pot_holdem(10, 2)
    check_fit(stages)
    (forced,) = [s for s in stages if isinstance(s, ForcedBets)]
    assert forced.blinds == () and forced.ante == (10,)
    assert [s.street for s in stages if isinstance(s, BettingRound)] == [1, 2, 3]  # flop, turn, river


@pytest.mark.parametrize("seed", range(2, 10))  # seeds whose games last at least two hands
def test_bomb_pot_holdem_conserves_chips_and_first_bets_on_the_flop(seed: int) -> None:
    hands = 20
    game = Game(bomb_pot_holdem(amount=10, big_blind=2), seats=4, seed=seed, max_hands=hands, keep_hands=None)
    buy_ins = [200, 150, 100, 15]
    for i, chips in enumerate(buy_ins):
        game.sit_down(f"p{i}", chips, i)
    total = sum(buy_ins)
    streets: list[str] = []  # the street of every action, read as it happens

    street = ["preflop"]
    unbalanced: list[Event] = []

    def listen(event: Event) -> None:  # called once each change is complete: the chips add up
        if game.ctx.total_chips() != total:
            unbalanced.append(event)
        if isinstance(event, HandStarted):
            street[0] = "preflop"
        elif isinstance(event, BoardDealt):
            street[0] = event.street
        elif isinstance(event, ActionTaken):
            streets.append(street[0])

    game.subscribe(listen)
    game.start()
    game.play(random_bot)

    assert unbalanced == [] and game.listener_errors == []
    assert sum(p.stack for p in game.table.players()) == total
    assert streets and set(streets) <= {"flop", "turn", "river"}
    # no action between a hand's start and its flop; every player dealt in posts the bomb pot first
    started = flopped = False
    dealt_in: tuple[int, ...] = ()
    posted: list[int] = []
    for event in game.events:
        if isinstance(event, HandStarted):
            started, flopped, dealt_in, posted = True, False, event.seats, []
        elif isinstance(event, ForcedBetPosted):
            assert event.bet == "ante" and not flopped
            posted.append(event.seat)
        elif isinstance(event, BoardDealt) and event.street == "flop":
            flopped = True
            assert sorted(posted) == sorted(dealt_in)
        elif isinstance(event, ActionTaken):
            assert started and flopped, "an action before the flop"
    assert game.ctx.hands_played >= 2


def test_main_registers_the_variant_and_prints_the_hands() -> None:
    # in a process of its own, as ``python bomb_pot.py`` runs: registering leaves this one's registry as it was
    script = """
import bomb_pot
from cardgame.cli import main
from variants import get

bomb_pot.main()
variant = get("bomb pot hold'em")
assert variant.builder is bomb_pot.bomb_pot_holdem and bomb_pot.register_bomb_pot() is variant  # registered once
assert main(["demo", "--variant", "bomb pot hold'em", "--hands", "2", "--seed", "3", "--quiet"]) == 0
"""
    here = Path(__file__).resolve().parent
    paths = [str(here), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Hand #1, button Ann" in out and "Dan posts ante 6 and is all-in" in out
    assert "Flop:" in out and "Hand #3 ends" in out and "Stack" in out
    assert "Results after 2 hands" in out  # the command line plays the registered variant


def test_a_bomb_pot_every_fifth_hand_is_saved_in_the_bomb_pot_and_restored() -> None:
    game = Game(bomb_pot_every(5, bomb=10, blinds=(1, 2)), seed=3, max_hands=7)
    for seat in range(3):
        game.sit_down(f"p{seat}", 500, seat)
    game.start()
    while game.ctx.hands_played < 4 or game.to_act is None:  # into the fifth hand's first decision
        game.play(calling_station, max_actions=1)
    assert sorted(posts(game)) == [(0, "ante", 10, False), (1, "ante", 10, False), (2, "ante", 10, False)]
    text = dumps(game)
    with pytest.raises(SnapshotError, match="saved with period 5 but the stage list given has period 3"):
        loads(text, bomb_pot_every(3, bomb=10, blinds=(1, 2)))
    restored = loads(text, bomb_pot_every(5, bomb=10, blinds=(1, 2)))
    for g in (game, restored):
        g.play(random_bot)
    assert restored.events == game.events and game.ctx.hands_played == 7
    assert [p.stack for p in restored.table.players()] == [p.stack for p in game.table.players()]
