"""PHH export of hands in which a player leaves: the history says the chips they left with, and
``cardgame phh check`` replays it to the same stacks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.model.events import ActionTaken, HandStarted, PlayerLeft
from cardgame.phh import HandHistory, dumps, save
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from variants import available, no_limit_holdem

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


# --- a fold out of turn: a player who leaves before their turn comes ---------------------------------


def _position(game: Game, seat: int) -> int:
    """``seat``'s PHH player number in the game's last hand (p1 left of the button)."""
    start = next(e for e in reversed(game.events) if isinstance(e, HandStarted))
    return start.seats.index(seat) + 1


def _live_stacks(game: Game, hh: HandHistory) -> list[int]:
    """What each player of ``hh`` had at the end of the live hand, or left with."""
    left = _left_with(game)
    have = {p.name: p.stack for p in game.table.players()}
    return [left[n] if n in left else have[n] for n in hh.players or ()]


def _bets(game: Game, without: int | None = None) -> list[tuple[int, str, int]]:
    """The betting actions of ``game``'s last hand (PHH player number, action, to), but the fold of
    player ``without``."""
    start = max(i for i, e in enumerate(game.events) if isinstance(e, HandStarted))
    seats = game.events[start].seats  # type: ignore[attr-defined]
    return [(seats.index(e.seat) + 1, e.action, e.to) for e in game.events[start:]
            if isinstance(e, ActionTaken) and not (e.action == "fold" and seats.index(e.seat) + 1 == without)]


def test_a_fold_out_of_turn_is_written_at_the_player_s_turn_and_pokerkit_agrees(tmp_path: Path) -> None:
    """Three-handed, the button to act pre-flop, the small blind leaves: its hand is folded at once,
    out of turn. PHH writes each action in its actor's turn, so the fold comes after the button's
    call, where the small blind's turn was; the file replays to the live stacks with the others'
    actions in the live order, and PokerKit plays it to the same stacks (was: written before the
    button's call, which the replay refused: "It is not seat 1's turn")."""
    game = _table(3, seed=1)
    button = game.legal_actions().seat  # type: ignore[union-attr]
    small = game.hand.players[0].seat  # type: ignore[union-attr]
    assert button != small
    game.leave(small)
    _check_down(game)
    hh = _exported(game)
    text = [a.to_text() for a in hh.actions]
    p_button, p_small = f"p{_position(game, button)}", f"p{_position(game, small)}"
    assert text.index(f"{p_small} f") == text.index(f"{p_button} cc") + 1
    result = replay(hh)
    assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ()) == _live_stacks(game, hh)
    assert _bets(result.game, _position(game, small)) == _bets(game, _position(game, small))
    save(tmp_path / "out-of-turn.phh", hh)
    run = _check(tmp_path / "out-of-turn.phh")
    assert run.returncode == 0, run.stdout + run.stderr
    pytest.importorskip("pokerkit")
    from tests.differential.harness import _pk_replay

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PokerKit warns of the hands it plays)
        stacks, failure, _ = _pk_replay(dumps(hh))
    assert failure == "" and stacks == list(hh.finishing_stacks or ())


def test_a_fold_out_of_turn_that_ends_the_hand_stays_where_it_was_taken() -> None:
    """Heads-up, the player not to act leaves: the hand ends at once, the other never acting. That
    fold has no turn to go to: the file keeps it where the live game took it, and the replay folds
    it out of turn as the engine did (docs/rules.md), to the same stacks."""
    game = _table(2, seed=3)
    waiting = 1 - game.legal_actions().seat  # type: ignore[union-attr]
    game.leave(waiting)
    assert game.status_name == "exited"
    hh = _exported(game)
    assert [a.to_text() for a in hh.actions][-1] == f"p{_position(game, waiting)} f"
    result = replay(hh)
    assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ()) == _live_stacks(game, hh)
    assert _bets(result.game) == _bets(game)


CODED = [v for v in available() if v.code]


@pytest.mark.parametrize("variant", CODED, ids=[v.code or "" for v in CODED])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_hands_with_players_leaving_replay_to_the_live_stacks(variant, players: int,  # type: ignore[no-untyped-def]
                                                              seed: int) -> None:
    """Random play in every PHH variant, now and then a player in the hand leaving (in turn or out of
    it, all-in or not): every hand exported replays to its finishing stacks, which are the chips each
    player had at its end or left with, with the live game's actions (a fold moved to its turn aside)."""
    rng = random.Random(seed)
    game = Game(variant.build(), seats=players, seed=seed, max_hands=3, keep_hands=None)
    for i in range(players):
        game.sit_down(f"p{i}", 200, i)
    game.start()
    while game.to_act is not None:
        hand = game.hand
        if hand is not None and rng.randrange(8) == 0:
            game.leave(rng.choice(hand.players).seat)
            continue
        draw, legal = game.draw_options(), game.legal_actions()
        if draw is not None:
            game.draw(draw.seat, tuple(rng.sample(list(draw.hole), rng.randint(draw.min_discards, draw.max_discards))))
        elif game.run_options() is not None:
            game.choose_runs(game.run_options().seat, 1)  # type: ignore[union-attr]
        elif legal is not None:
            moves = ["bring_in"] if legal.bring_in else ["check_call"]
            moves += ["fold"] if legal.can_fold and legal.call_amount else []
            moves += ["bet_raise"] if legal.can_raise else []
            move = rng.choice(moves)
            game.act(legal.seat, move, legal.min_raise_to if move == "bet_raise" else None)
    hands = game_to_phh(game.events, game.dispatcher.stages, game.names())
    assert hands
    left = {e.name: e.cashed_out for e in game.events if isinstance(e, PlayerLeft)}
    for hh in hands:
        result = replay(hh)
        assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())
        assert hh.players is not None and all(name in left or name in game.names().values() for name in hh.players)
    last = hands[-1]
    assert last.players is not None and last.finishing_stacks is not None
    for name, chips in zip(last.players, last.finishing_stacks, strict=True):
        if name in left:
            assert chips == left[name]
