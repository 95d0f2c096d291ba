"""Action abstractions: masks mark exactly what the rules allow, indices decode to the engine's moves,
and a masked index is refused with the library's error, naming it and the legal ones."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import variants
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.play.game import Game
from cardgame.rl.actions import FixedLimit, Move, PotFractions, RaiseTo, draw_cards, for_game, max_runs, send


def started(code: str, stacks: tuple[int, ...] = (100, 100), seed: int = 1, **params: object) -> Game:
    game = Game(variants.get(code), params=params or None, seats=len(stacks), seed=seed, first_button=0)
    for seat, stack in enumerate(stacks):
        game.sit_down(f"p{seat}", stack, seat)
    game.start()
    return game


def test_fixed_limit_masks_and_moves() -> None:
    game = started("FT")
    acts = for_game("default", game, chips=200)
    assert isinstance(acts, FixedLimit) and acts.n == 3
    assert acts.mask(game).tolist() == [1, 1, 1]  # the button (small blind) faces the big blind
    assert acts.decode(2, game) == Move("act", "raise", 4)
    send(game, 0, acts.decode(1, game))  # calls
    assert acts.mask(game).tolist() == [0, 1, 1]  # the big blind may check: no fold offered
    assert acts.decode(1, game) == Move("act", "check")


def test_stud_bring_in_or_complete() -> None:
    game = started("F7S")
    acts = for_game("default", game, chips=200)
    seat = game.to_act
    assert seat is not None and game.legal_actions().bring_in  # type: ignore[union-attr]
    assert acts.mask(game).tolist() == [0, 1, 1]  # no fold: post the bring-in (1) or complete (2)
    assert acts.decode(1, game) == Move("act", "bring_in")
    assert acts.decode(2, game) == Move("act", "bet", 5)
    send(game, seat, acts.decode(2, game))
    assert game.hand.by_seat[seat].bet == 5  # type: ignore[union-attr]


def test_pot_fractions_in_no_limit() -> None:
    game = started("NT")  # button 0 posts 1, seat 1 posts 2; the button acts: pot 3, call 1
    acts = for_game("default", game, chips=200)
    assert isinstance(acts, PotFractions) and acts.n == 5
    assert acts.mask(game).tolist() == [1, 1, 1, 1, 1]
    assert acts.decode(2, game) == Move("act", "raise", 4)  # 2 + 0.5 * (3 + 1)
    assert acts.decode(3, game) == Move("act", "raise", 6)  # a pot-sized raise
    assert acts.decode(4, game) == Move("act", "raise", 100)  # all-in


def test_a_fraction_below_the_minimum_raises_the_minimum_and_above_the_pot_limit_the_pot() -> None:
    game = started("PO")
    acts = for_game(PotFractions((0.1, 1.0, 3.0)), game, chips=200)
    la = game.legal_actions()
    assert la is not None
    assert acts.decode(2, game) == Move("act", "raise", la.min_raise_to)
    assert acts.decode(3, game) == Move("act", "raise", la.max_raise_to) == acts.decode(4, game)  # the pot caps
    assert acts.decode(5, game) == Move("act", "raise", la.max_raise_to)  # all-in is the largest raise allowed
    assert la.max_raise_to == 6 < 100


def test_raise_to_masks_the_legal_range() -> None:
    game = started("NT", (10, 10))
    acts = for_game("raise-to", game, chips=20)
    assert isinstance(acts, RaiseTo) and acts.n == 23
    mask = acts.mask(game)
    assert np.flatnonzero(mask).tolist() == [0, 1, *range(2 + 4, 2 + 10 + 1)]
    assert acts.decode(2 + 7, game) == Move("act", "raise", 7)


def test_a_masked_index_is_refused_and_changes_nothing() -> None:
    game = started("NT", (10, 10))
    acts = for_game("raise-to", game, chips=20)
    before = len(game.events), game.to_act, game.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        acts.decode(2 + 3, game)
    assert "Action 5 (raise to 3)" in str(err.value) and "raise to 4 to 10" in str(err.value)
    assert "0 (fold)" in err.value.allowed
    with pytest.raises(IllegalActionError, match="index 0 to 22"):
        acts.decode("call", game)
    with pytest.raises(IllegalActionError):
        acts.decode(99, game)
    assert (len(game.events), game.to_act, game.legal_actions()) == before


def play_to_draw(game: Game) -> None:
    while game.draw_options() is None:
        la = game.legal_actions()
        assert la is not None and game.to_act is not None
        game.act(game.to_act, "call" if la.call_amount else "check")


def test_draw_rounds_are_bit_masks_over_the_hole_cards() -> None:
    game = started("N2L1D")
    acts = for_game("default", game, chips=200)
    assert draw_cards(game) == 5 and acts.n == 32  # 2 ** 5 discard masks outnumber the 5 betting indices
    play_to_draw(game)
    opts = game.draw_options()
    assert opts is not None
    assert acts.mask(game).tolist() == [1] * 32  # 0 (stand pat) to 31 (all five)
    move = acts.decode(0b10010, game)
    assert move == Move("draw", discards=(opts.hole[1], opts.hole[4]))
    send(game, opts.seat, move)
    assert game.draw_options() is not None and game.draw_options().seat != opts.seat  # type: ignore[union-attr]


def test_a_compulsory_discard_marks_exactly_one_bit() -> None:
    game = started("pineapple")
    acts = for_game("default", game, chips=200)
    assert draw_cards(game) == 3 and acts.n == 8
    play_to_draw(game)
    assert np.flatnonzero(acts.mask(game)).tolist() == [1, 2, 4]
    assert acts.passive(game) == 1
    with pytest.raises(IllegalActionError, match="exactly 1 bits"):
        acts.decode(0, game)  # standing pat is not allowed
    with pytest.raises(IllegalActionError):
        acts.decode(3, game)


def test_betting_indices_in_a_draw_game_leave_the_rest_masked() -> None:
    game = started("F2L3D")
    acts = for_game("default", game, chips=200)
    assert acts.n == 32 and acts.mask(game).tolist() == [1, 1, 1] + [0] * 29
    with pytest.raises(IllegalActionError, match="nothing"):
        acts.decode(7, game)


def test_run_out_choices_when_the_agent_is_asked() -> None:
    game = started("NT", run_it_twice=True)
    assert max_runs(game) == 2
    asked = for_game("default", game, chips=200, choose_runs=True)
    quiet = for_game("default", game, chips=200)
    game.all_in(0)
    game.call(1)
    runs = game.run_options()
    assert runs is not None
    assert asked.mask(game).tolist() == [1, 1, 0, 0, 0] and asked.decode(1, game) == Move("runs", runs=2)
    assert quiet.mask(game).tolist() == [0] * 5
    with pytest.raises(IllegalActionError, match="answers run-out choices itself"):
        quiet.decode(0, game)


@pytest.mark.parametrize(("spec", "words"), [
    ("pot", "default, fixed-limit, pot-fractions, raise-to"),
    (3, "ActionAbstraction"),
    (FixedLimit, "ActionAbstraction"),  # the class, not an instance
])
def test_bad_abstractions_are_config_errors(spec: object, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        for_game(spec, started("NT"), chips=200)


def test_bad_abstraction_options() -> None:
    with pytest.raises(ConfigError, match="positive finite"):
        PotFractions((float("nan"),))
    with pytest.raises(ConfigError, match="needs a raise"):
        PotFractions((), all_in=False)
    with pytest.raises(ConfigError, match="max_chips"):
        RaiseTo(0)
    with pytest.raises(ConfigError, match="one index per chip"):
        for_game("raise-to", started("NT"), chips=10**6)
    with pytest.raises(ConfigError, match="draw_cards"):
        FixedLimit(draw_cards=40)
