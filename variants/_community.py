"""The shared shape of community-card games: deal hole cards, four betting rounds, showdown."""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.betting import BettingStructure
from cardgame.deck import DeckSpec
from cardgame.evaluation import HandEvaluator
from cardgame.stages import (
    BettingRound,
    DealBoard,
    DealHole,
    EndHand,
    ForcedBets,
    RunItTwice,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import PokerStage

__all__ = ["community_card_game"]


def community_card_game(
    structure: BettingStructure,
    *,
    hole_cards: int,
    blinds: Sequence[int],
    ante: int | Sequence[int] = 0,
    big_blind_ante: bool = False,
    ante_trimming: bool = True,
    dead: Sequence[int] = (),
    live: Sequence[int] = (),
    button_blind: int = 0,
    high: HandEvaluator | None,
    low: HandEvaluator | None = None,
    deck: DeckSpec | None = None,
    min_players: int = 2,
    run_it_twice: bool = False,
) -> list[PokerStage]:
    """Wait, forced bets, hole cards, pre-flop betting, then flop/turn/river each with betting.

    With ``run_it_twice`` a :class:`~cardgame.stages.RunItTwice` stage follows every betting round
    but the river's: players all in before the river may run the rest of the board twice."""
    stages: list[PokerStage] = [WaitForPlayers(min_players, deck=deck)]
    if any(blinds) or any(dead) or any(live) or button_blind or (ante if isinstance(ante, int) else any(ante)):
        stages.append(ForcedBets(blinds, ante=ante, big_blind_ante=big_blind_ante, ante_trimming=ante_trimming,
                                 dead=dead, live=live, button_blind=button_blind))
    streets = ((3, "flop"), (1, "turn"), (1, "river"))
    stages += [DealHole(hole_cards), BettingRound(structure, 0)]
    for street, (count, name) in enumerate(streets, start=1):
        if run_it_twice:
            stages.append(RunItTwice(streets[street - 1 :]))
        stages += [DealBoard(count, name), BettingRound(structure, street)]
    stages += [Showdown(high, low), EndHand()]
    return stages
