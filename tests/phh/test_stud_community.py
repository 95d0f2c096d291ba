"""Seven-card stud out of cards: with eight players to seventh street the deck cannot give everyone
a card, so one community card is dealt (Robert's Rules of Poker, seven-card stud). PHH writes it as
PokerKit does, ``d db CARD``; it is read, replayed, exported and checked like any board card."""

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
