"""Each rule of docs/rules.md's "ACPC games" table pinned by a scripted hand on AcpcHand."""

from __future__ import annotations

import pytest

from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef, parse_gamedef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import format_value
from cardgame.acpc.matchstate import Action, format_betting, parse_betting
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError, IllegalActionError

HU_LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
LIMIT_3P = STANDARD_GAMES["holdem.limit.3p"]
KUHN = STANDARD_GAMES["kuhn.limit.3p"]
F, C, R = Action("f"), Action("c"), Action("r")


def nolimit(players: int, blinds: str, stacks: str, first: str = "1 1 1 1") -> GameDef:
    return parse_gamedef(f"GAMEDEF\nnolimit\nnumPlayers = {players}\nnumRounds = 4\nstack = {stacks}\n"
                         f"blind = {blinds}\nfirstPlayer = {first}\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
                         "numBoardCards = 0 3 1 1\nEND GAMEDEF\n")


def deal(game: GameDef, text: str) -> AcpcHand:
    """A hand whose hole cards are the first groups of ``text`` (by position) and the board the rest."""
    cards = parse_cards(text)
    n, k = game.num_players, game.num_hole_cards
    return AcpcHand(game, 0, [cards[p * k:(p + 1) * k] for p in range(n)], cards[n * k:])


def play(hand: AcpcHand, betting: str) -> None:
    for rnd in parse_betting(betting, hand.definition):
        for action in rnd:
            hand.apply(action)


def test_blinds_by_position_and_reverse_blinds() -> None:
    hand = deal(HU_LIMIT, "3c4d 9d6c 6d7hAs Ks Td")
    assert hand.to_act == 1  # firstPlayer 2: the button, who posted the small blind
    la = hand.legal()
    assert la is not None and la.call_amount == 5 and la.bet_to == 10


def test_first_player_per_round_skips_folded_players() -> None:
    hand = deal(LIMIT_3P, "5sAd 6cKd 8c3d 9d7sAc Qc 9c")
    assert hand.to_act == 2  # firstPlayer 3 pre-flop
    play(hand, "cfc")  # position 0 folds
    assert hand.round == 1 and hand.to_act == 1  # firstPlayer 1 on the flop, but position 0 folded


def test_max_raises_counts_every_raise_and_the_blinds_are_none() -> None:
    hand = deal(HU_LIMIT, "3c4d 9d6c 6d7hAs Ks Td")
    play(hand, "rrr")  # maxRaises 3 pre-flop: the blinds are no raise
    assert hand.allowed() == ("f", "c")
    play(hand, "c/rrrr")  # 4 on the flop, the bet included
    assert hand.allowed() == ("f", "c")


def test_a_limit_raise_short_of_the_stack_is_all_in() -> None:
    hand = deal(KUHN, "As Ks Qs")
    play(hand, "r")  # stack 2, blind 1, raise size 1: all in
    assert hand.allowed() == ("f", "c")
    play(hand, "cf")
    assert hand.values() == (3.0, -2.0, -1.0)


def test_no_limit_minimum_raise_after_a_short_all_in_and_reopening() -> None:
    game = nolimit(3, "10 20 0", "1000 140 1000", "3 1 1 1")
    hand = deal(game, "2c3c 4d5d 6h7h AsKsQs Js Ts")
    play(hand, "r120c")  # the button raises by 100; the small blind calls
    play(hand, "r140")  # the big blind is all-in 20 over: short of a full raise
    la = hand.legal()
    assert hand.to_act == 2 and la is not None and la.can_raise  # reopened, though the button already acted
    assert hand.allowed() == ("f", "c", "r220-1000")  # max(120 + 100, 140 + 20): the reference's minimum


def test_a_raise_is_never_capped_at_what_an_opponent_can_match() -> None:
    game = nolimit(2, "10 5", "100 1000", "2 1 1 1")
    hand = deal(game, "2c3c 4d5d 6h7h8s Jd Ts")
    assert hand.allowed() == ("f", "c", "r20-1000")
    play(hand, "r1000c")  # the big blind can match 100: the rest comes back
    assert hand.finished and hand.chips() in ((100, -100), (-100, 100))


def test_nobody_raises_when_every_other_player_is_all_in() -> None:
    game = nolimit(2, "10 5", "100 1000", "2 1 1 1")
    hand = deal(game, "2c3c 4d5d 6h7h8s Jd Ts")
    play(hand, "cr100")  # the big blind moves all in
    assert hand.allowed() == ("f", "c")


def test_a_fold_with_a_free_check_is_no_action_and_is_played_as_a_check() -> None:
    hand = deal(HU_LIMIT, "3c4d 9d6c 6d7hAs Ks Td")
    play(hand, "c")
    with pytest.raises(IllegalActionError, match="A fold with nothing to call is not an ACPC action"):
        hand.apply(F)
    assert hand.fix(F) == C and hand.fix(None) == C


def test_invalid_answers_are_fixed_as_the_reference_dealer_fixes_them() -> None:
    hand = deal(HU_LIMIT, "3c4d 9d6c 6d7hAs Ks Td")
    play(hand, "rrr")
    assert hand.fix(R) == C and hand.fix(None) == F  # past the cap: a call; no answer facing a bet: a fold
    with pytest.raises(IllegalActionError, match="No raise is allowed now"):
        hand.apply(R)
    nl = deal(STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"], "6s8d Jd4c 3cKsJc 2d Ac")
    assert nl.fix(Action("r", 150)) == Action("r", 200) and nl.fix(Action("r", 10**6)) == Action("r", 20000)
    with pytest.raises(IllegalActionError, match="The raise r150 is not to 200 to 20000"):
        nl.apply(Action("r", 150))


def test_a_split_pot_is_divided_exactly_in_the_log_and_by_odd_chips_on_the_engine() -> None:
    hand = deal(LIMIT_3P, "2c3d 2d3c 2h3h AsKsQs Js Ts")  # the board is a royal flush: everyone ties
    play(hand, "cfc/cc/cc/cc")  # the small blind folds: 25 split between two
    assert hand.showdown and format_betting(hand.betting) == "cfc/cc/cc/cc"
    assert hand.values() == (-5.0, 2.5, 2.5)
    assert hand.chips() == (-5, 3, 2)  # the odd chip to the first winner left of the button
    assert [format_value(v) for v in hand.values()] == ["-5", "2.5", "2.5"]


def test_a_folded_player_who_put_nothing_in_lost_nothing_written_0() -> None:
    # the reference's valueOfState gives a folded player (double)-spent: +0.0, printed "0" (never "-0")
    hand = deal(LIMIT_3P, "2c3d 2d3c 2h3h AsKsQs Js Ts")
    play(hand, "frf")  # the button folds; the small blind raises; the big blind folds
    assert hand.finished and [format_value(v) for v in hand.values()] == ["10", "-10", "0"]
    assert str(hand.values()[2]) == "0.0"


def test_stacks_are_reset_every_hand() -> None:
    game = nolimit(2, "10 5", "100 1000", "2 1 1 1")
    for number in range(2):
        hand = AcpcHand(game, number, [parse_cards("2c3c"), parse_cards("4d5d")], parse_cards("6h7h8s Jd Ts"))
        engine_hand = hand.game.hand
        assert [hp.player.stack + hp.contributed for hp in engine_hand.players] == [100, 1000]
        play(hand, "r1000c")
        assert sum(hand.chips()) == 0


def test_a_hand_refuses_cards_that_cannot_be_dealt() -> None:
    for hole, board, message in [(["2c", "3c4c"], "", "Position 0 is given 1 hole cards; the game deals 2"),
                                 (["2c3c", "3c4c"], "", "A card is given twice"),
                                 (["2c3c", "4c5c"], "6c7c8c 9c Tc Jc", "6 board cards given; the game deals 5")]:
        with pytest.raises(CardError, match=message):
            AcpcHand(HU_LIMIT, 0, [parse_cards(h) for h in hole], parse_cards(board))
    with pytest.raises(CardError, match="2c not in the game's deck"):
        AcpcHand(KUHN, 0, [parse_cards("2c"), (), ()])
