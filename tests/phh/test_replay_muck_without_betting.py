"""PHH replay: a stud hand mucked before the run-out when nobody could bet (found by the PokerKit
differential harness, F7S/8 direction A, seed 22001201)."""

from __future__ import annotations

from cardgame.model.events import HoleCardsDealt
from cardgame.phh import loads
from cardgame.phh.replay import replay

# p1 and p2 are all-in on the antes; p3, who covers them, mucks at the showdown before the run-out.
# The file then deals fourth to seventh street to p1 and p2 only. Robert's Rules, high-low split:
# p1's ace-queen high takes the high half (2 chips), p2's 8-7-5-3-2 the low half (1).
HAND = """variant = "F7S/8"
ante_trimming_status = true
antes = [1, 1, 1]
bring_in = 1
small_bet = 4
big_bet = 8
starting_stacks = [1, 1, 435]
actions = ["d dh p1 7sAc9c", "d dh p2 9d2c3d", "d dh p3 2h7h3s", "p2 sm 9d2c3d", "p3 sm", "p1 sm 7sAc9c",
  "d dh p1 Jh", "d dh p2 Ks", "d dh p1 3h", "d dh p2 8d", "d dh p1 8c", "d dh p2 5s", "d dh p1 Qd", "d dh p2 7d",
  "p1 sm 7sAc9cJh3h8cQd", "p2 sm 9d2c3dKs8d5s7d"]
"""


def test_a_hand_mucked_with_no_betting_before_it_is_dealt_no_more_cards() -> None:
    [hh] = loads(HAND)
    result = replay(hh)
    dealt = [(e.seat, "".join(str(c) for c in e.cards)) for e in result.game.events if isinstance(e, HoleCardsDealt)]
    assert dealt[3:] == [(0, "Jh"), (1, "Ks"), (0, "3h"), (1, "8d"), (0, "8c"), (1, "5s"), (0, "Qd"), (1, "7d")]
    assert result.stacks == (2, 1, 434)
