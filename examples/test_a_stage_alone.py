"""Unit-test one stage on its own with a hand-built context (run with pytest).

Run: pytest examples/test_a_stage_alone.py
"""

from cardgame import Context, Deck, NoLimit, Table, parse_cards
from cardgame.stages import BettingRound


def test_a_flop_betting_round_alone() -> None:
    # Build the context by hand: three players, a hand opened with a known deck.
    table = Table(3, first_button=2)
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        table.sit_down(name, 100, seat)
    ctx = Context(table, seed=1)
    ctx.open_hand(table.in_play(), Deck.stacked(parse_cards("AhKh QsQd 7c2d")))

    flop = BettingRound(NoLimit(2), street=1)
    flop.start(ctx, None)  # previous stage's result: none needed here
    assert flop.to_act == 0  # first left of the button

    flop.handle("act", 0, "bet", 10)
    flop.handle("act", 1, "fold")
    flop.handle("act", 2, "call")
    assert flop.state == "round_closed"
    assert flop.outcome is not None and flop.outcome.result.live == (0, 2)  # type: ignore[attr-defined]
    assert ctx.hand.pot_total() == 20
