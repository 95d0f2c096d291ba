"""What a bot's decision costs: Monte-Carlo hand strength per decision, and whole decisions of the
seed AI and of the range bots.

    python benchmarks/bots.py [--samples 500] [--repeat 300]

Hand strength is timed on fixed situations (hold'em before and after the flop, seven-card stud,
deuce-to-seven triple draw, razz); a decision is timed on the views a bot answers while it plays
hands against random bots (range bots: against calling stations, which never bust), which adds
building the view and the fold/call/raise choice. A range bot's decision before the flop is a
look-up in its ranges; after it, a hand strength of 200 deals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import variants
from cardgame import Game
from cardgame.model.cards import parse_cards
from cardgame.play.ai import SeedAI
from cardgame.play.bot import Answer, Bot, BotView
from cardgame.play.bots import calling_station, get, random_bot
from cardgame.play.shape import game_shape
from cardgame.play.strength import Situation, hand_strength

SITUATIONS = {
    "hold'em pre-flop, 1 opponent": ("NT", Situation(parse_cards("AhKh"), 2, (), 5, ((),), 2, (True,))),
    "hold'em pre-flop, 5 opponents": ("NT", Situation(parse_cards("AhKh"), 2, (), 5, ((),) * 5, 2, (True,) * 5)),
    "hold'em flop, 2 opponents": ("NT", Situation(parse_cards("AhKh"), 2, parse_cards("Jh Th 2c"), 5, ((), ()), 2)),
    "stud third street, 2 opponents": ("F7S", Situation(parse_cards("Ah Kh Qs"), 7, (), 0,
                                                        (parse_cards("2c"), parse_cards("9d")), 7, (True, True))),
    "2-7 triple draw, 2 opponents": ("F2L3D", Situation(parse_cards("2h 3d 4c 7s"), 5, (), 0, ((), ()), 5)),
    "razz, 2 opponents": ("FR", Situation(parse_cards("Ah 2d 3c"), 7, (), 0, (parse_cards("Kc"), parse_cards("9d")),
                                          7)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=500, help="Monte-Carlo deals per decision (the default)")
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    gen = np.random.default_rng(1)
    print(f"hand strength, {args.samples} deals (median of {args.repeat} runs):")
    for name, (code, where) in SITUATIONS.items():
        shape = game_shape(variants.get(code).build())
        hand_strength(shape, where, gen, samples=args.samples)  # build the tables first
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            hand_strength(shape, where, gen, samples=args.samples)
            times.append(time.perf_counter() - t)
        print(f"  {name:<34} {np.median(times) * 1e6:8.0f} us")
    print("whole seed-AI decisions while playing against two random bots (mean):")
    for code in ("NT", "F7S", "F2L3D"):
        print(f"  {code:<34} {_decisions(SeedAI(), code)}")
    print("whole range-bot decisions in hold'em against two calling stations (mean):")
    for name in ("tight-aggressive", "loose-aggressive", "tight-passive", "nit"):
        print(f"  {name:<34} {_decisions(get(name), 'NT', calling_station)}")


def _decisions(bot: Bot, code: str, opponent: Bot = random_bot) -> str:
    """The mean time of ``bot``'s decisions over 200 hands against two ``opponent`` bots."""
    spent: list[float] = []

    def timed(view: BotView) -> Answer:
        t = time.perf_counter()
        answer = bot(view)
        spent.append(time.perf_counter() - t)
        return answer

    v = variants.get(code)
    game = Game(v.build(), seats=3, seed=1, max_hands=200, deck=v.deck)
    for i in range(3):
        game.sit_down(f"p{i}", 10_000)
    game.start()
    game.play({0: timed, 1: opponent, 2: opponent})
    return f"{np.mean(spent) * 1e6:8.0f} us over {len(spent)} decisions"

if __name__ == "__main__":
    main()
