"""PHH export of hands in which a player leaves: the history says the chips they left with, and
``cardgame phh check`` replays it to the same stacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cardgame.model.events import PlayerLeft
from cardgame.phh import HandHistory, save
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from variants import no_limit_holdem

ROOT = Path(__file__).resolve().parents[2]


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cardgame", "phh", "check", str(path)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def _table(players: int, seed: int) -> Game:
    game = Game(no_limit_holdem(1, 2), seats=players, seed=seed, max_hands=1)
    for i in range(players):
        game.sit_down(f"p{i}", 200, i)
    game.start()
    return game


def _check_down(game: Game) -> None:
    while (legal := game.legal_actions()) is not None:
        game.act(legal.seat, "check_call")


def _exported(game: Game) -> HandHistory:
    [hh] = game_to_phh(game.events, game.dispatcher.stages, game.names())
    return hh


def _left_with(game: Game) -> dict[str, int]:
    return {e.name: e.cashed_out for e in game.events if isinstance(e, PlayerLeft)}


def test_a_player_who_leaves_in_turn_is_written_with_the_chips_they_left_with(tmp_path: Path) -> None:
    """The player first to act pre-flop leaves facing the big blind (their fold): they take their
    200 away, which ``finishing_stacks`` says, and the file replays to those stacks."""
    game = _table(3, seed=1)
    first = game.legal_actions().seat  # type: ignore[union-attr]
    game.leave(first)
    _check_down(game)
    hh = _exported(game)
    assert _left_with(game) == {f"p{first}": 200}
    assert hh.players is not None and hh.finishing_stacks is not None
    assert hh.finishing_stacks[hh.players.index(f"p{first}")] == 200
    assert list(replay(hh).stacks) == list(hh.finishing_stacks)
    save(tmp_path / "left.phh", hh)
    run = _check(tmp_path / "left.phh")
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_player_all_in_who_leaves_takes_the_pot_they_win() -> None:
    """Three-handed, the first to act goes all-in and leaves: the hand stays live, the others call
    it down, and the history's finishing stack is what the leaver cashed out (the pot when they won)."""
    winners = 0
    for seed in range(12):
        game = _table(3, seed)
        first = game.legal_actions().seat  # type: ignore[union-attr]
        game.act(first, "all_in")
        game.leave(first)  # all-in: the hand stays live, the seat is freed when it ends
        _check_down(game)
        hh = _exported(game)
        took = _left_with(game)[f"p{first}"]
        winners += took > 0
        assert hh.players is not None and hh.finishing_stacks is not None
        assert hh.finishing_stacks[hh.players.index(f"p{first}")] == took
        assert sum(hh.finishing_stacks) == 600
        assert list(replay(hh).stacks) == list(hh.finishing_stacks)
    assert winners  # some seed has the leaver win
