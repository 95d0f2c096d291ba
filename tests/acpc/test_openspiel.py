"""Legality cross-checked against an independent implementation of the ACPC game rules: OpenSpiel's
``universal_poker`` (test-only; skipped when ``open_spiel`` is not installed). Random hands are
played on both with the same cards; at every decision the player to act and the legal actions
must agree, and at the end the betting string and every payoff."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.matchstate import Action, format_betting
from cardgame.model.cards import RANKS, SUITS, Card
from tests.acpc.test_loopback import ODD, UNEVEN

pyspiel = pytest.importorskip("pyspiel")

GAMES = {**STANDARD_GAMES, "uneven stacks": UNEVEN, "odd shape": ODD}
_BETTING = re.compile(r"ACPC State: STATE:\d+:([^:]*):")


def spiel_game(game: GameDef) -> Any:
    params: dict[str, Any] = {
        "betting": game.betting, "numPlayers": game.num_players, "numRounds": game.num_rounds,
        "blind": " ".join(map(str, game.blinds)), "firstPlayer": " ".join(map(str, game.first_player)),
        "numSuits": game.num_suits, "numRanks": game.num_ranks, "numHoleCards": game.num_hole_cards,
        "numBoardCards": " ".join(map(str, game.num_board_cards)), "stack": " ".join(map(str, game.stack_sizes)),
        "bettingAbstraction": "fcpa" if game.is_limit else "fullgame",
    }
    if game.raise_sizes is not None:
        params["raiseSize"] = " ".join(map(str, game.raise_sizes))
    if game.max_raises is not None:
        params["maxRaises"] = " ".join(map(str, game.max_raises))
    return pyspiel.load_game("universal_poker", params)


def card_ids(game: GameDef, spiel: Any) -> dict[Card, int]:
    """Our cards to OpenSpiel's deal actions: OpenSpiel deals the lowest ranks of the first suits,
    the reference dealer the highest of the last; cards correspond in rank and suit order."""
    state = spiel.new_initial_state()
    theirs = []
    for action, _ in state.chance_outcomes():
        text = state.action_to_string(action).rsplit(" ", 1)[1]
        theirs.append(((RANKS.index(text[0]), SUITS.index(text[1])), action))
    ours = sorted(game.deck.cards, key=lambda c: (c.rank, c.suit))
    return {card: action for card, (_, action) in zip(ours, sorted(theirs), strict=True)}


def expected(hand: AcpcHand, limit: bool) -> set[int]:
    """Our legal actions in OpenSpiel's numbering: 0 fold, 1 check/call, then 2 (limit raise) or
    each no-limit raise-to total."""
    la = hand.legal()
    assert la is not None
    out = {1} | ({0} if la.can_fold else set())
    if la.can_raise:
        base = hand.base()
        out |= {2} if limit else set(range(la.min_raise_to + base, la.max_raise_to + base + 1))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_and_payoffs_agree_with_openspiel(name: str) -> None:
    game = GAMES[name]
    spiel = spiel_game(game)
    ids = card_ids(game, spiel)
    deals = ReferenceDeals(game, 7)
    rng = random.Random(name)
    decisions = 0
    for number in range(150):
        hole, board = deals()
        cards = iter([ids[c] for h in hole for c in h] + [ids[c] for c in board])
        ours = AcpcHand(game, number, hole, board)
        state = spiel.new_initial_state()
        while True:
            while state.is_chance_node():
                state.apply_action(next(cards))
            if ours.finished:
                break
            assert not state.is_terminal()
            assert state.current_player() == ours.to_act
            legal = set(state.legal_actions())
            assert legal == expected(ours, game.is_limit), (name, number, format_betting(ours.betting))
            raises = sorted(a for a in legal if a > 1)
            choices = [a for a in legal if a < 2] + (raises[:1] + raises[-1:] + [rng.choice(raises)]) * 2 if raises \
                else sorted(legal)
            choice = rng.choice(choices)
            action = Action("f") if choice == 0 else Action("c") if choice == 1 else (
                Action("r") if game.is_limit else Action("r", choice))
            ours.apply(action)
            state.apply_action(choice)
            decisions += 1
        assert state.is_terminal()
        betting = _BETTING.search(str(state))
        assert betting is not None and betting.group(1) == format_betting(ours.betting)
        assert state.returns() == pytest.approx(list(ours.values()))
    assert decisions > 300
