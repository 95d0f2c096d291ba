"""Courchevel and bomb pots cross-checked against PokerKit 0.7.7, which has neither as a named
game but plays both as a ``State`` with streets of our own: Courchevel's first street deals five
hole cards and one board card before its betting; a bomb pot's deals the hole cards and the flop.

Our engine plays seeded random hands (with PokerKit's conventions, docs/rules.md: the pot-limit
and no-limit options of ``cardgame.phh.games.POKERKIT``, odd chips to the first winner, pots with
the same players merged, a short blind called as posted); each hand's cards and actions are then
replayed in PokerKit, which must accept every action and end with the same stacks. PokerKit has
no discard-only round (its draws always replace), so Pineapple is not cross-checked here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import pytest

from cardgame.engine import Stage
from cardgame.evaluation import HIGH, OMAHA_HIGH
from cardgame.model.betting import NoLimit, PotLimit
from cardgame.model.events import ActionTaken, BoardDealt, HandEnded, HandStarted, HoleCardsDealt
from cardgame.phh.games import POKERKIT
from cardgame.play.bots import random_bot
from cardgame.play.game import Game
from cardgame.stages import ForcedBets, Showdown
from variants import community_card_game

pokerkit = pytest.importorskip("pokerkit")

CONVENTIONS = {k: v for d in POKERKIT.values() for k, v in d.items()}


def _options(cls: type) -> dict[str, bool]:
    names = {a.name for a in attrs.fields(cls)}
    return {k: v for k, v in CONVENTIONS.items() if k in names}


def _pokerkit_rules(stages: list[Stage]) -> list[Stage]:
    for s in stages:
        if isinstance(s, Showdown):
            s.one_odd_chip_each, s.merge_pots = False, True
        elif isinstance(s, ForcedBets):
            s.short_blind = "posted"
    return stages


def courchevel_pk() -> list[Stage]:
    return _pokerkit_rules(community_card_game(
        PotLimit(2, **_options(PotLimit)), hole_cards=5, blinds=(1, 2), high=OMAHA_HIGH, exposed=1))


def bomb_pot_pk() -> list[Stage]:
    return _pokerkit_rules(community_card_game(NoLimit(2, **_options(NoLimit)), hole_cards=2, blinds=(),
                                               high=HIGH, bomb_pot=5))


def _state(game: str, stacks: Sequence[int], antes: int) -> Any:
    pk = pokerkit
    A = pk.Automation
    automations = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.HAND_KILLING,
                   A.CHIPS_PUSHING, A.CHIPS_PULLING, A.HOLE_CARDS_SHOWING_OR_MUCKING)
    if game == "courchevel":
        first = pk.Street(False, (False,) * 5, 1, False, pk.Opening.POSITION, 2, None)
        rest = [pk.Street(False, (), n, False, pk.Opening.POSITION, 2, None) for n in (2, 1, 1)]
        return pk.State(automations, pk.Deck.STANDARD, (pk.OmahaHoldemHand,), (first, *rest),
                        pk.BettingStructure.POT_LIMIT, True, 0, (1, 2), 0, tuple(stacks), len(stacks),
                        mode=pk.Mode.CASH_GAME)
    first = pk.Street(False, (False,) * 2, 3, False, pk.Opening.POSITION, 2, None)  # the flop with the hole cards
    rest = [pk.Street(False, (), 1, False, pk.Opening.POSITION, 2, None) for _ in range(2)]
    return pk.State(automations, pk.Deck.STANDARD, (pk.StandardHighHand,), (first, *rest),
                    pk.BettingStructure.NO_LIMIT, True, antes, 0, 0, tuple(stacks), len(stacks),
                    mode=pk.Mode.CASH_GAME)


def _lone_check(state: Any, actor: int | None) -> None:
    """PokerKit asks for a check nobody can bet over (the rest all in), and each all-in player's
    run-out count; our engine asks neither (the hand runs once)."""
    while True:
        if state.can_select_runout_count():
            state.select_runout_count(1)
        elif (state.actor_index is not None and state.actor_index != actor and not state.checking_or_calling_amount
              and not state.can_complete_bet_or_raise_to()):
            state.check_or_call()
        else:
            return


def replay_in_pokerkit(game: str, events: Sequence[Any]) -> tuple[list[int], list[int]]:
    """One hand of ``events`` replayed in PokerKit: (its final stacks, ours), players from the button's left."""
    start = next(e for e in events if isinstance(e, HandStarted))
    seats = list(start.seats)
    index = {seat: i for i, seat in enumerate(seats)}
    state = _state(game, start.stacks, 5)
    for e in events:
        if isinstance(e, HoleCardsDealt):
            state.deal_hole("".join(map(str, e.cards)))
        elif isinstance(e, BoardDealt):
            _lone_check(state, None)
            state.deal_board("".join(map(str, e.cards)))
        elif isinstance(e, ActionTaken) and e.action in ("fold", "check", "call", "bet", "raise", "all_in"):
            _lone_check(state, index[e.seat])
            assert state.actor_index == index[e.seat], f"PokerKit waits for p{state.actor_index}, not {e}"
            if e.action == "fold":
                state.fold()
            elif e.action in ("check", "call"):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(e.to)
        elif isinstance(e, HandEnded):
            for _ in range(50):
                if not state.status:
                    break
                _lone_check(state, None)
                if state.can_show_or_muck_hole_cards():
                    state.show_or_muck_hole_cards(True)
            final = dict(e.stacks)
            return list(state.stacks), [final.get(s, 0) for s in seats]
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(("game", "build"), [("courchevel", courchevel_pk), ("bomb pot", bomb_pot_pk)])
@pytest.mark.parametrize("seed", range(40))
def test_pokerkit_plays_our_hands_to_the_same_stacks(game: str, build: Callable[[], list[Stage]], seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(3, 8 if game == "courchevel" else 9)
    ours = Game(build(), seats=n, seed=seed, max_hands=1, keep_hands=None)
    for seat in range(n):
        ours.sit_down(f"p{seat}", rng.choice([3, 20, 60, 150, 400]), seat)
    ours.start()
    ours.play(random_bot)
    assert ours.status_name == "exited"
    theirs, mine = replay_in_pokerkit(game, ours.events)
    assert theirs == mine
