"""Step through one no-limit hold'em hand action by action, printing the status table.

Run: python examples/step_through_a_hand.py
"""

from cardgame import Game
from variants import no_limit_holdem

game = Game(no_limit_holdem(small_blind=1, big_blind=2), seed=2024, max_hands=1)
for name in ("Ann", "Bob", "Cat"):
    game.sit_down(name, 200)
names = game.names()
game.subscribe(lambda event: print("  *", event.describe(names)))
game.start()

# A fixed script: Ann (button) raises, Bob (small blind) calls, Cat (big blind) folds,
# then Bob and Ann check every street down to the showdown.
script = [("raise", 6), ("call", None), ("fold", None)] + [("check", None)] * 6
for action, amount in script:
    print()
    print(game.status())
    seat = game.to_act
    legal = game.legal_actions()
    print(f"Legal for seat {seat}: {legal.describe() if legal else '-'}  ->  {action} {amount or ''}")
    game.act(seat, action, amount)

print()
print(game.status(reveal=True))
