"""Assemble a new variant in a few lines: blind-less hold'em where everyone antes.

A variant is just a list of stages; this one drops the blinds and posts antes instead.
Run: python examples/blindless_variant.py
"""

from cardgame import Game, NoLimit
from cardgame.evaluation import HIGH
from cardgame.play.bots import calling_station, random_bot
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers


def ante_only_holdem(ante: int = 5, min_bet: int = 10) -> list:
    betting = NoLimit(min_bet)
    return [
        WaitForPlayers(2),
        ForcedBets(blinds=(), ante=ante),  # no blinds: action starts left of the button
        DealHole(2),
        BettingRound(betting, 0),
        DealBoard(3, "flop"),
        BettingRound(betting, 1),
        DealBoard(1, "turn"),
        BettingRound(betting, 2),
        DealBoard(1, "river"),
        BettingRound(betting, 3),
        Showdown(HIGH),
        EndHand(),
    ]


game = Game(ante_only_holdem(), seed=11, max_hands=3)
for name in ("Ann", "Bob", "Cat", "Dan"):
    game.sit_down(name, 500)
names = game.names()
game.subscribe(lambda event: print(event.describe(names)))
game.start()
game.play({0: random_bot, 1: calling_station, 2: random_bot, 3: calling_station})
print(game.status())
