"""The build-time check of what each stage needs (``Stage.fit`` on a ``TableFit``): stage lists
that cannot play are refused when the game is built, naming the stage and what is missing; every
list the library, its examples and the ACPC games build is accepted."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

import variants
from cardgame import Game
from cardgame.acpc.gamedef import STANDARD_GAMES, parse_gamedef
from cardgame.acpc.stages import acpc_stages
from cardgame.engine import check_fit
from cardgame.evaluation import BADUGI, HIGH, OMAHA_HIGH
from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.betting import FixedLimit, NoLimit, PotLimit
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.events import BoardDealt
from cardgame.play.bots import calling_station
from cardgame.stages import (
    BettingRound,
    BringIn,
    DealBoard,
    DealHole,
    Draw,
    EndHand,
    ForcedBets,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import PokerStage
from variants import no_limit_holdem, pot_limit_omaha, seven_card_stud
from variants.draw import draw_game
from variants.streets import community_card_game
from variants.stud import stud_game

SHORT_DECK = DeckSpec("AKQJT9876")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def holdem_with(at: int, *stages: PokerStage) -> list[PokerStage]:
    """No-limit hold'em with ``stages`` put in before its stage ``at``."""
    listed = list(no_limit_holdem(1, 2))
    return [*listed[:at], *stages, *listed[at:]]


# --- the audit's lists -------------------------------------------------------------------------------
def test_a_bring_in_in_a_blinds_game_is_refused() -> None:
    # this list used to play, and its betting round logged "B calls -2"
    with pytest.raises(ConfigError, match=r"Stage 3 \(bring-in\) cannot play where it stands: .*no up card is dealt"):
        Game(holdem_with(3, BringIn(2)))
    stud_with_blinds = stud_game(ante=0, bring_in=2, small_bet=5, big_bet=10, high=HIGH)
    stud_with_blinds.insert(1, ForcedBets((1, 2)))
    with pytest.raises(ConfigError, match=r"Stage 3 \(bring-in\) .*blinds are posted before it; post antes only"):
        Game(stud_with_blinds)


def test_a_bring_in_before_any_up_card_is_refused() -> None:
    stud = list(seven_card_stud())
    stud[2], stud[3] = stud[3], stud[2]  # the bring-in before the first deal
    with pytest.raises(ConfigError, match=r"Stage 2 \(bring-in\) .*no up card is dealt before it"):
        Game(stud)


def test_a_list_without_end_hand_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"ends after stage 10 \(showdown\), but no stage closes the hand: .*EndHand"):
        Game(list(no_limit_holdem(1, 2))[:-1])


def test_a_high_showdown_of_two_hole_cards_and_no_board_is_refused() -> None:
    stages = [WaitForPlayers(), ForcedBets(), DealHole(2), BettingRound(NoLimit(2)), Showdown(HIGH), EndHand()]
    with pytest.raises(ConfigError, match=r"Stage 4 \(showdown\) .*the high evaluator ranks hands of 5 to 7 cards "
                                          r"together, but players here can use 2 \(2 hole and up, 0 board\)"):
        Game(stages)


# --- the cards a showdown ranks ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stages", "message"),
    [
        # three hole cards kept with five on the board: eight cards, one too many for a high hand
        (community_card_game(NoLimit(2), hole_cards=3, blinds=(1, 2), high=HIGH), r"5 to 7 cards together.* 8 \("),
        # Omaha needs three board cards: a draw game has none
        (draw_game(NoLimit(2), cards=5, draws=1, blinds=(1, 2), evaluator=OMAHA_HIGH), r"3 to 5 cards on the board"),
        # Omaha needs two hole cards
        (community_card_game(PotLimit(2), hole_cards=1, blinds=(1, 2), high=OMAHA_HIGH), r"2 to 6 cards in the hole"),
        # badugi ranks four hole cards and no board
        (community_card_game(NoLimit(2), hole_cards=4, blinds=(1, 2), high=BADUGI),
         r"badugi evaluator ranks hands of 4 cards together.* 9 \(4 hole and up, 5 board\)"),
        (draw_game(NoLimit(2), cards=5, draws=1, blinds=(1, 2), evaluator=BADUGI), r"4 cards together"),
        # Leduc: one hole card
        (community_card_game(NoLimit(2), hole_cards=2, blinds=(1, 2), high=LEDUC, board=((1, "board"),)),
         r"the leduc evaluator ranks hands of 1 to 2 cards together"),
    ],
    ids=["holdem-3-hole", "omaha-draw", "omaha-1-hole", "badugi-board", "badugi-5", "leduc-2-hole"],
)
def test_a_showdown_its_evaluator_cannot_rank_is_refused(stages: list[PokerStage], message: str) -> None:
    with pytest.raises(ConfigError, match=r"\(showdown\) cannot play where it stands: .*" + message):
        Game(stages)


def test_a_discard_round_leaves_the_hands_its_showdown_ranks() -> None:
    # Pineapple: three hole cards, one thrown before the flop: two with five on the board
    Game(community_card_game(NoLimit(2), hole_cards=3, blinds=(1, 2), high=HIGH, discard_before="flop"))
    Game(variants.get("crazy pineapple"), params={"hi_lo": True})


def test_a_hand_won_before_the_board_is_dealt_needs_no_cards() -> None:
    # every betting round may go to the showdown with one player left: no hand is shown there, so
    # those paths are not held to the evaluator's card counts (nor is run-it-twice's, with its board)
    Game(no_limit_holdem(1, 2, run_it_twice=True))
    Game(list(no_limit_holdem(1, 2)), seats=2)


def test_a_draw_before_any_deal_is_refused() -> None:
    stages = [WaitForPlayers(), ForcedBets(), Draw(), DealHole(5), BettingRound(NoLimit(2)), Showdown(HIGH), EndHand()]
    with pytest.raises(ConfigError, match=r"Stage 2 \(draw\) .*no cards are dealt before it; deal hole cards first"):
        Game(stages)


# --- the deck ------------------------------------------------------------------------------------------------
def test_deals_past_the_deck_at_the_most_seats_are_refused() -> None:
    Game(pot_limit_omaha(hole_cards=5), seats=8)  # 40 hole cards, 5 board and 3 burns: 48 of 52
    with pytest.raises(ConfigError, match=r"Stage 8 \(deal board\) .*it deals 1 card to the board after a burn, "
                                          r"and with 9 players dealt in the hand would then need 53 cards; the deck "
                                          r"has 52"):
        Game(pot_limit_omaha(hole_cards=5), seats=9)
    Game(community_card_game(PotLimit(2), hole_cards=6, blinds=(1, 2), high=OMAHA_HIGH, max_players=6), seats=9)
    with pytest.raises(ConfigError, match=r"Stage 2 \(deal hole cards\) .*it deals 6 cards to each player.* the deck "
                                          r"has 36"):
        Game([WaitForPlayers(deck=SHORT_DECK), ForcedBets(), DealHole(6), BettingRound(NoLimit(2)), DealBoard(5),
              BettingRound(NoLimit(2), 1), Showdown(OMAHA_HIGH), EndHand()], seats=7)


def test_seven_card_stud_eight_handed_deals_a_community_card_and_is_accepted() -> None:
    # eight players would need 56 cards: the last card is one community card (Robert's Rules)
    game = Game(seven_card_stud(), seats=8, seed=3, max_hands=1)
    for seat in range(8):
        game.sit_down(f"p{seat}", 1000)
    game.start()
    game.play(dict.fromkeys(range(8), calling_station))
    assert game.status_name == "exited"
    assert any(isinstance(e, BoardDealt) and e.street == "community card" for e in game.events)
    # without the community card the seventh street deal is refused
    stud = list(seven_card_stud())
    stud[-4] = DealHole(face_up=(False,))
    with pytest.raises(ConfigError, match=r"\(deal hole cards\) .*1 card to each player, and with 8 players"):
        Game(stud, seats=8)


def test_run_it_twice_needs_the_deck_to_hold_every_run_out() -> None:
    def game(run_it_twice: bool) -> list[PokerStage]:
        return community_card_game(NoLimit(2), hole_cards=2, blinds=(1, 2), high=HIGH, deck=DeckSpec("AKQJT98"),
                                   run_it_twice=run_it_twice)

    Game(game(False), seats=7)  # 14 hole cards, 5 board cards and 3 burns of 28
    Game(game(True), seats=6)  # 12 hole cards and twice the 5 board cards and 3 burns: 28 of 28
    with pytest.raises(ConfigError, match=r"\(run it twice\) .*it deals the rest of the board \(5 cards after 3 "
                                          r"burns\) up to 2 times, and with 7 players .* 30 cards; the deck has 28"):
        Game(game(True), seats=7)


def test_a_draw_needs_a_stub_that_replaces_the_first_players_whole_draw() -> None:
    def six_card_draw() -> list[PokerStage]:
        return draw_game(FixedLimit(2, 4), cards=6, draws=1, blinds=(1, 2), evaluator=HIGH, max_players=8)

    Game(six_card_draw(), seats=7)  # 42 dealt, and 6 left to replace a whole hand
    with pytest.raises(ConfigError, match=r"Stage 4 \(draw\) .*it deals a draw of up to 6 cards to the first player "
                                          r"\(with no muck yet\), and with 8 players .* 54 cards; the deck has 52"):
        Game(six_card_draw(), seats=8)


def test_a_community_card_for_a_short_deck_needs_a_card_left() -> None:
    kuhn_deck = DeckSpec("JQKA", "s")

    def stages() -> list[PokerStage]:
        return [WaitForPlayers(deck=kuhn_deck), ForcedBets((), ante=1), DealHole(1),
                DealHole(face_up=(False,), community_if_short=True), BettingRound(NoLimit(2)), Showdown(HIGH_CARD),
                EndHand()]

    Game(stages(), seats=3)  # three cards dealt, then one community card
    with pytest.raises(ConfigError, match=r"Stage 3 \(deal hole cards\) .*it deals a community card when the deck is "
                                          r"short, and with 4 players .* 5 cards; the deck has 4"):
        Game(stages(), seats=4)


# --- who opens, forced bets --------------------------------------------------------------------------------------
def test_a_betting_round_without_forced_bets_is_accepted() -> None:
    no_blinds = draw_game(FixedLimit(2, 4), cards=5, draws=1, blinds=(), evaluator=HIGH)
    assert not any(isinstance(s, ForcedBets) for s in no_blinds)
    Game(no_blinds)
    runpy.run_path(str(EXAMPLES / "blindless_variant.py"))  # the blind-less ante variant plays its three hands


# --- everything the library builds fits -------------------------------------------------------------------------
def test_every_variant_example_and_acpc_game_is_accepted() -> None:
    for variant in variants.available():
        for key in {variant.name, variant.code} - {None}:
            assert key is not None
            found = variants.get(key)
            for seats in sorted({2, 6, found.max_players, 10}):  # 10: the server's most seats
                Game(found, seats=seats)
    for name, gamedef in STANDARD_GAMES.items():
        assert Game(acpc_stages(gamedef), seats=gamedef.num_players, deck=gamedef.deck), name
    big = parse_gamedef("GAMEDEF\nnolimit\nnumPlayers = 10\nnumRounds = 4\nblind = 1 2 0 0 0 0 0 0 0 0\n"
                        "firstPlayer = 3 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
                        "numBoardCards = 0 3 1 1\nEND GAMEDEF\n")
    Game(acpc_stages(big), seats=10, deck=big.deck)
    bomb = runpy.run_path(str(EXAMPLES / "bomb_pot.py"))
    Game(bomb["bomb_pot_holdem"](10, 2), seats=10)
    blackjack = runpy.run_path(str(EXAMPLES / "blackjack.py"))
    check_fit(blackjack["stages"]())
    blackjack["Blackjack"]([("Ann", 100)], seed=1).start()  # its Dispatcher checks the list against its context


# --- the cache -------------------------------------------------------------------------------------------------
def test_a_list_known_to_fit_does_not_vouch_for_one_of_the_same_stages_set_up_otherwise() -> None:
    Game(no_limit_holdem(1, 2))  # known to fit now
    badugi_holdem = list(no_limit_holdem(1, 2))
    badugi_holdem[-2] = Showdown(BADUGI)  # the same classes and names
    with pytest.raises(ConfigError, match=r"the badugi evaluator"):
        Game(badugi_holdem)
    Game(pot_limit_omaha(hole_cards=5), seats=8)
    with pytest.raises(ConfigError, match=r"the deck has 52"):  # the same stages, more seats
        Game(pot_limit_omaha(hole_cards=5), seats=9)
    one_list = pot_limit_omaha(hole_cards=5)  # a Stages list remembers the table it fits at, and only that one
    Game(one_list, seats=8)
    Game(one_list, seats=8)
    with pytest.raises(ConfigError, match=r"the deck has 52"):
        Game(one_list, seats=9)
