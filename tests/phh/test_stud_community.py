"""Seven-card stud out of cards: with eight players to seventh street the deck cannot give everyone
a card, so one community card is dealt (Robert's Rules of Poker, seven-card stud). PHH writes it as
PokerKit does, ``d db CARD``; it is read, replayed, exported and checked like any board card. And
stud all-ins before the last street: hands shown before the run-out, in full and as one seat saw them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cardgame.model.errors import HandHistoryError
from cardgame.phh import dumps, load, loads
from cardgame.phh.actions import DealBoardAction
from cardgame.phh.export import hand_to_phh
from cardgame.phh.replay import check_paths, replay
from cardgame.play.bots import calling_station
from cardgame.play.game import Game
from cardgame.simulate import Match, simulate
from tests.conftest import REPO

from .conftest import PHH_DATA

RAZZ8 = PHH_DATA / "pokerkit-razz-8-handed.phh"


def test_pokerkits_8_handed_razz_with_a_community_card_replays_to_its_stacks() -> None:
    [hh] = load(RAZZ8)
    assert [a.to_text() for a in hh.actions if isinstance(a, DealBoardAction)] == ["d db 5d"]
    result = replay(hh)
    assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())
    done = subprocess.run([sys.executable, "-m", "cardgame", "phh", "check", str(RAZZ8)], capture_output=True,
                          text=True, check=False, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1/1 reproduced" in done.stdout


def test_a_stud_board_deal_is_one_card() -> None:
    text = RAZZ8.read_text().replace("'d db 5d'", "'d db 5d6d'")
    with pytest.raises(HandHistoryError, match=r"actions\[64\].*one community card"):
        loads(text)


def _short_stud_hand(seed: int) -> Game:
    """One 8-handed seven-card stud hand where everyone calls to the end: seventh street is short."""
    import variants

    game = Game(variants.get("F7S").build(), seats=8, seed=seed, max_hands=1)
    for i in range(8):
        game.sit_down(f"p{i + 1}", 200)
    game.start()
    game.play(calling_station)
    return game


def test_an_8_handed_stud_hand_out_of_cards_exports_and_reads_back() -> None:
    game = _short_stud_hand(5)
    hh = hand_to_phh(game.events, game.dispatcher.stages)
    boards = [a for a in hh.actions if isinstance(a, DealBoardAction)]
    assert len(boards) == 1 and len(boards[0].cards) == 1
    text = dumps(hh)
    [again] = loads(text)
    assert again == hh
    result = replay(again)
    assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())


def test_simulate_8_handed_stud_writes_phh_that_checks(tmp_path: Path) -> None:
    path = tmp_path / "stud8.phhs"
    simulate(Match("F7S", ("calling-station",) * 8, hands=6, seed=3, phh=str(path)))
    assert "'d db " in path.read_text() or '"d db ' in path.read_text()
    report = check_paths([str(path)])
    assert report.ok and len(report.hands) == 6


# p2 bets all-in on sixth street and p1 calls: both hands are shown before seventh street (TDA rule
# 16), seven cards each, and their seventh cards, dealt face down, stay unknown in the deal lines.
# p1's shown 2h makes trips and wins; any other card loses to p2's kings and eights.
SHOWN_BEFORE_THE_RUN_OUT = """variant = "F7S"
antes = [0, 0]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [5, 5]
actions = [
  "d dh p1 ????3c", "d dh p2 ????Kd", "p1 pb", "p2 cc",
  "d dh p1 9h", "d dh p2 8c", "p2 cc", "p1 cc",
  "d dh p1 Ts", "d dh p2 7s", "p2 cc", "p1 cc",
  "d dh p1 Jd", "d dh p2 8s", "p2 cbr 4", "p1 cc",
  "p1 sm 2c2d3c9hTsJd2h", "p2 sm AsKhKd8c7s8sQc",
  "d dh p1 ??", "d dh p2 ??",
]
finishing_stacks = [10, 0]
"""


def test_a_stud_hand_shown_before_the_run_out_gets_its_shown_cards_on_the_streets_to_come() -> None:
    [hh] = loads(SHOWN_BEFORE_THE_RUN_OUT)
    result = replay(hh)
    assert result.complete and list(result.stacks) == [10, 0]


@pytest.mark.parametrize(("code", "seed"), [("FR", 12), ("FR", 42), ("F7S", 24)])
def test_a_7_handed_stud_game_as_one_seat_saw_it_exports_and_replays(code: str, seed: int) -> None:
    """All-ins before the last street: the early shows list the cards held then, and the cards
    still to come are written in the deals from the showdown (they were refused as dealt twice,
    or replayed with other cards)."""
    import variants
    from cardgame.phh.export import game_to_phh
    from cardgame.play.bots import random_bot

    stages = variants.get(code).build()
    game = Game(stages, seats=7, seed=seed, max_hands=3, keep_hands=None)
    for i in range(7):
        game.sit_down(f"p{i}", 60)
    game.start()
    game.play({i: calling_station if (i + seed) % 4 else random_bot for i in range(7)})
    hands = game_to_phh([e.seen_by(0) for e in game.events], stages, game.names())
    assert len(hands) == 3
    for hh in hands:
        [again] = loads(dumps(hh))
        result = replay(again)
        assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())
