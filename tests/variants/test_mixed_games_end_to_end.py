"""Every mixed-game variant end to end, with scripted hands and exact final stacks.

Hands of the PHH variants are written as PHH text and replayed through the engine, which must
reproduce the ``finishing_stacks`` worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from cardgame.model.cards import parse_cards
from cardgame.model.errors import IllegalActionError
from cardgame.model.events import CardsShown, DiscardsReshuffled, PotAwarded
from cardgame.phh import loads
from cardgame.phh.replay import replay
from cardgame.play.bots import calling_station
from cardgame.play.game import Game
from variants import deuce_to_seven_triple_draw, kuhn_poker, leduc_holdem

HI_LO_QUARTERED = """
variant = "FO/8"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ["d dh p1 Ah4s9c9d", "d dh p2 As4cJhJd", "d dh p3 KcKh5d6d",
           "p3 cbr 4", "p1 cc", "p2 cc",
           "d db 2c3d7h", "p1 cc", "p2 cc", "p3 cc",
           "d db Kd", "p1 cc", "p2 cc", "p3 cc",
           "d db Qs", "p1 cc", "p2 cc", "p3 cc"]
# Pot 12. High: p3's set of kings takes 6. Low: p1 and p2 both make 7-4-3-2-A and quarter the pot.
finishing_stacks = [99, 99, 102]
"""

STUD_BRING_IN_COMPLETED = """
variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AsKs3c", "d dh p2 QhQd2d", "d dh p3 7c8c9c",
           "p2 pb", "p3 cbr 5", "p1 cc", "p2 cc",
           "d dh p1 3s", "d dh p2 5h", "d dh p3 Tc",
           "p1 cbr 5", "p2 f", "p3 cc",
           "d dh p1 4d", "d dh p3 Jd",
           "p1 cc", "p3 cbr 10", "p1 cc",
           "d dh p1 6h", "d dh p3 2c", "p1 cc", "p3 cc",
           "d dh p1 Ah", "d dh p3 Qc", "p1 cc", "p3 cc"]
# The 2d brings in; p3 completes to 5. p1's open threes act first from fourth street on.
# p3's club flush beats aces up and wins 3 + 15 + 10 + 20 = 48.
finishing_stacks = [79, 94, 127]
"""

STUD_HI_LO = """
variant = "F7S/8"
antes = [1, 1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50, 50]
actions = ["d dh p1 KsKc9d", "d dh p2 Ah2h3c", "d dh p3 7s8s5s",
           "p2 pb", "p3 f", "p1 cbr 2", "p2 cc",
           "d dh p1 Kd", "d dh p2 4h", "p1 cc", "p2 cc",
           "d dh p1 9s", "d dh p2 6d", "p1 cbr 4", "p2 cc",
           "d dh p1 Jc", "d dh p2 Tc", "p1 cc", "p2 cc",
           "d dh p1 2c", "d dh p2 Qd", "p1 cc", "p2 cc"]
# Pot 15: kings full take the high half (8, the odd chip), 6-4-3-2-A the low half (7).
finishing_stacks = [51, 50, 49]
"""

RAZZ = """
variant = "FR"
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ["d dh p1 AsKs4c", "d dh p2 2d3dKh",
           "p2 pb", "p1 cbr 2", "p2 cc",
           "d dh p1 5h", "d dh p2 Qd",
           "p1 cbr 2", "p2 f"]
# Razz: the king (highest card) brings in; the lowest board (5-4) acts first on fourth street.
finishing_stacks = [53, 47]
"""

SHORT_DECK_FLUSH_OVER_FULL_HOUSE = """
variant = "NS"
antes = [1, 1, 1]
blinds_or_straddles = [0, 0, 2]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 QhTh", "d dh p2 6c9c", "d dh p3 7c8d",
           "p1 cc", "p2 cc", "p3 cc",
           "d db AhKh6h", "p1 cc", "p2 cc", "p3 cc",
           "d db 6d", "p1 cc", "p2 cc", "p3 cc",
           "d db 9s", "p1 cc", "p2 cc", "p3 cc"]
# p1's flush beats p2's sixes full (short deck); p3's A-6-7-8-9 straight is third. Pot 9.
finishing_stacks = [106, 97, 97]
"""

SINGLE_DRAW = """
variant = "N2L1D"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [50, 50]
actions = ["d dh p1 7h5c4d3s2h", "d dh p2 8s6c4c3hKc",
           "p2 cc", "p1 cc",
           "p1 sd", "p2 sd Kc", "d dh p2 2d",
           "p1 cbr 10", "p2 cc"]
# Heads-up the button (p2) posts the small blind. 7-5-4-3-2 beats 8-6-4-3-2: p1 wins 24.
finishing_stacks = [62, 38]
"""

BADUGI = """
variant = "FB"
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = ["d dh p1 As2d3c4h", "d dh p2 5s6d7cKc",
           "p2 cc", "p1 cc",
           "p1 sd", "p2 sd Kc", "d dh p2 8h",
           "p1 cbr 2", "p2 cc",
           "p1 sd", "p2 sd",
           "p1 cbr 4", "p2 cc",
           "p1 sd", "p2 sd",
           "p1 cc", "p2 cc"]
# A-2-3-4 badugi beats 8-7-6-5: p1 wins 16.
finishing_stacks = [58, 42]
"""


@pytest.mark.parametrize(
    "text",
    [HI_LO_QUARTERED, STUD_BRING_IN_COMPLETED, STUD_HI_LO, RAZZ, SHORT_DECK_FLUSH_OVER_FULL_HOUSE, SINGLE_DRAW,
     BADUGI],
    ids=["FO/8 quartered", "F7S bring-in completed", "F7S/8 split", "FR", "NS flush over boat", "N2L1D", "FB"],
)
def test_scripted_hand_reproduces_exact_stacks(text: str) -> None:
    [hh] = loads(text)
    result = replay(hh)
    assert result.complete
    assert list(result.stacks) == list(hh.finishing_stacks or ())


def test_hi_lo_quartering_awards() -> None:
    [hh] = loads(HI_LO_QUARTERED)
    game = replay(hh).game
    awards = [(e.share, e.winners, e.amounts) for e in game.events if isinstance(e, PotAwarded)]
    assert awards == [("high", (2,), (6,)), ("low", (0, 1), (3, 3))]


def test_short_deck_shows_the_flush_and_the_full_house() -> None:
    [hh] = loads(SHORT_DECK_FLUSH_OVER_FULL_HOUSE)
    shown = {e.seat: e.hand for e in replay(hh).game.events if isinstance(e, CardsShown)}
    assert shown[0].startswith("Flush") and shown[1].startswith("Full House") and shown[2].startswith("Straight")


def test_wrong_bring_in_player_is_rejected() -> None:
    [hh] = loads(STUD_BRING_IN_COMPLETED.replace('"p2 pb"', '"p1 pb"'))
    with pytest.raises(Exception, match="not seat 0's turn"):
        replay(hh)


def test_triple_draw_that_exhausts_the_deck() -> None:
    # Six players limp and discard all five cards at every draw: 30 dealt, then 90 more
    # needed from 22; discards are reshuffled, never the drawer's own.
    game = Game(deuce_to_seven_triple_draw(2, 4), seats=6, seed=11, max_hands=1)
    for i in range(6):
        game.sit_down(f"p{i}", 100)
    game.start()
    game.play(calling_station, drawer=lambda view: view.draw.hole if view.draw else ())
    assert game.status_name == "exited"
    assert [e for e in game.events if isinstance(e, DiscardsReshuffled)]
    shown = [c for e in game.events if isinstance(e, CardsShown) for c in e.cards]
    assert len(shown) == 30 and len(set(shown)) == 30
    assert game.table.total_chips() == 600


def test_kuhn_poker_three_players() -> None:
    game = Game(kuhn_poker(), seats=3, first_button=2, seed=1, max_hands=1)
    for i in range(3):
        game.sit_down(f"p{i}", 10)
    game.ctx.stack_deck(parse_cards("Js Qs As"))
    game.start()
    game.check(0)
    game.bet(1, 1)
    assert not game.can_raise_to(2)  # one bet, no raise
    game.call(2)
    game.fold(0)
    assert [p.stack for p in game.table.players()] == [9, 8, 13]


def test_leduc_holdem_pair_with_the_board_wins() -> None:
    game = Game(leduc_holdem(), seats=2, first_button=1, seed=1, max_hands=1)
    game.sit_down("a", 20)
    game.sit_down("b", 20)
    game.ctx.stack_deck(parse_cards("Kh Qs Qh"))
    game.start()
    game.bet(0, 2)
    game.raise_to(1, 4)
    with pytest.raises(IllegalActionError, match="raise cap is reached"):
        game.raise_to(0, 6)
    game.call(0)
    game.check(0)
    game.bet(1, 4)
    game.call(0)
    assert [p.stack for p in game.table.players()] == [11, 29]


def test_open_pair_on_fourth_street_allows_the_big_bet() -> None:
    from variants import seven_card_stud

    game = Game(seven_card_stud(ante=1, bring_in=2, small_bet=5, big_bet=10), seats=2, first_button=1, seed=1,
                max_hands=1)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    # third street: a: 2s 3s | 9h (up), b: 4s 5s | 9d (up); fourth: a 8c, b 9c -> b shows a pair of nines
    game.ctx.stack_deck(parse_cards("2s3s9h 4s5s9d 8c 9c"))
    game.start()
    game.act(1, "bring_in")  # 9d: the lower suit brings in
    game.call(0)  # third street is over: the bring-in already acted
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.amounts == (5, 10)  # the open pair acts first
    assert "bet 5 or 10" in la.describe()
    with pytest.raises(IllegalActionError, match="not a fixed-limit bet"):
        game.bet(1, 7)
    game.bet(1, 10)
    la = game.legal_actions()
    assert la is not None and la.min_raise_to == la.max_raise_to == 20  # raises are big bets now


def test_stud_deals_a_community_seventh_card_when_the_deck_runs_short() -> None:
    from cardgame.model.events import BoardDealt
    from variants import seven_card_stud

    game = Game(seven_card_stud(), seats=8, seed=4, max_hands=1)
    for i in range(8):
        game.sit_down(f"p{i}", 1000)
    game.start()
    game.play(calling_station)  # eight players to seventh street need 56 cards
    community = [e for e in game.events if isinstance(e, BoardDealt)]
    assert len(community) == 1 and community[0].street == "community card"
    shown = [e for e in game.events if isinstance(e, CardsShown)]
    assert len(shown) == 8 and all(len(e.cards) == 6 for e in shown)  # six own cards + the community card
    assert game.table.total_chips() == 8000


def test_unknown_seat_is_named() -> None:
    from variants import no_limit_holdem

    game = Game(no_limit_holdem(), seats=6, seed=1)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    game.start()
    with pytest.raises(IllegalActionError, match=r"Seat 5 is not in this hand; the seats in it are \[0, 1\]"):
        game.call(5)


def test_five_card_draw_scripted() -> None:
    from variants import five_card_draw

    game = Game(five_card_draw(2, 4), seats=2, first_button=1, seed=1, max_hands=1)
    game.sit_down("a", 50)
    game.sit_down("b", 50)
    # a: AsAd 7c 8h 2s; b (button, small blind): KsKd Qc Jh 3d; replacements: a gets Ah Ac, b gets 9s
    game.ctx.stack_deck(parse_cards("AsAd7c8h2s KsKdQcJh3d AhAc 9s"))
    game.start()
    game.call(1)  # heads-up: the button completes the small blind
    game.check(0)
    game.draw(0, parse_cards("7c 8h"))  # draws two aces: four of a kind
    game.draw(1, parse_cards("3d"))
    game.bet(0, 4)  # after the draw: big bets
    game.call(1)
    assert [p.stack for p in game.table.players()] == [56, 44]


def test_five_card_plo_uses_exactly_two_hole_cards() -> None:
    from variants import pot_limit_omaha_5

    game = Game(pot_limit_omaha_5(1, 2), seats=2, first_button=1, seed=1, max_hands=1)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    # a holds four hearts, and the board has one more: no flush with exactly two hole cards.
    game.ctx.stack_deck(parse_cards("AhKhQhJh2c 9s9d3c4d5s") + parse_cards("2d Th 8s 7c 2h 6d 3s 4s"))
    game.start()
    game.call(1)
    game.check(0)
    for _ in range(3):
        game.check(0)
        game.check(1)
    shown = {e.seat: e.hand for e in game.events if isinstance(e, CardsShown)}
    assert not shown[0].startswith("Flush")
    assert [p.stack for p in game.table.players()] == [98, 102]  # nines (and a straight draw) win


def test_ante_holdem_scripted() -> None:
    from variants import ante_holdem

    game = Game(ante_holdem(ante=1, min_bet=2), seats=3, first_button=2, seed=1, max_hands=1)
    for i in range(3):
        game.sit_down(f"p{i}", 50)
    game.ctx.stack_deck(parse_cards("AhAd KhKd 7c2s") + parse_cards("3s 2c5d9h 4s Jc 6s Qd"))
    game.start()
    assert game.to_act == 0  # no blinds: the first seat left of the button opens
    game.bet(0, 4)
    game.call(1)
    game.fold(2)
    for _ in range(3):
        game.check(0)
        game.check(1)
    assert [p.stack for p in game.table.players()] == [56, 45, 49]  # pot 3 antes + 4 + 4
