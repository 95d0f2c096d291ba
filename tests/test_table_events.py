"""Seating changes and mucks through :class:`Game`: events of the current stage, refused without a
trace, and never a chip lost however they interleave with play."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame import Game
from cardgame.model.errors import CardgameError, IllegalActionError, StageError, TableError
from cardgame.model.events import ActionTaken, ChipsAdded, PlayerLeft, PlayerSeated, PotAwarded
from cardgame.store import snapshot
from variants import deuce_to_seven_triple_draw, no_limit_holdem, seven_card_stud


def three(**kw: Any) -> Game:
    g = Game(no_limit_holdem(1, 2, **kw), seats=4, seed=3)
    for name in ("Ann", "Bob", "Cat"):
        g.sit_down(name, 100)
    return g


def test_leaving_heads_up_ends_the_hand_and_frees_the_seat_in_the_same_call() -> None:
    g = Game(no_limit_holdem(1, 2), seats=2, seed=1, max_hands=5)
    g.sit_down("Ann", 100)
    g.sit_down("Bob", 100)
    g.start()
    bystander = 1 - g.to_act  # type: ignore[operator]
    assert g.leave(bystander) is not None  # out of turn: folded, the hand ends, the seat is free
    assert g.table.seats[bystander] is None and g.hand is None and g.stage.state == "waiting_for_players"
    assert g.table.total_chips() == 200 - next(e for e in g.events if isinstance(e, PlayerLeft)).cashed_out


def test_leaving_facing_a_bet_on_your_turn_is_your_fold() -> None:
    g = three()
    g.start()
    seat = g.to_act
    g.leave(seat)  # type: ignore[arg-type]
    folds = [e for e in g.events if isinstance(e, ActionTaken)]
    assert folds[-1] == ActionTaken(seat, "fold", 0, 0)  # type: ignore[arg-type]
    assert g.to_act != seat and g.table.player(seat).leaving  # type: ignore[arg-type]


def test_the_table_changes_at_once_before_start_and_after_the_game_ended() -> None:
    g = three()
    g.top_up(0, 5)
    g.sit_out(1)
    g.sit_in(1)
    assert g.leave(2) == 100 and g.table.seats[2] is None
    with pytest.raises(IllegalActionError, match="Seat 0 has no live hand to muck"):
        g.muck(0)
    g.sit_down("Dan", 50, 2)
    kinds = [type(e).__name__ for e in g.events[3:]]
    assert kinds == ["ChipsAdded", "PlayerSatOut", "PlayerSatIn", "PlayerLeft", "PlayerSeated"]
    g.stop()
    assert g.status_name == "new"
    g.start()
    assert g.status_name == "exited"  # stop was asked before the first hand
    assert g.leave(0) == 105 and isinstance(g.events[-1], PlayerLeft)


def test_a_game_that_failed_mid_hand_still_lets_players_leave_and_keeps_the_chips() -> None:
    g = three()

    def crash(event: object) -> None:
        if isinstance(event, ActionTaken):
            raise RuntimeError("listener broke")

    g.hook(crash)  # a hook runs inside the change: its exception fails the game (a listener's would not)
    g.start()
    with pytest.raises(StageError, match="listener broke"):
        g.call(g.to_act)  # type: ignore[arg-type]
    g.ctx.unhook(crash)
    assert g.status_name == "failed" and g.hand is not None
    in_hand = [hp.seat for hp in g.hand.players if not hp.folded and not hp.all_in]
    assert g.leave(in_hand[0]) is None  # the hand is folded, the seat held with it
    assert g.hand.by_seat[in_hand[0]].folded and g.table.player(in_hand[0]).leaving
    assert g.ctx.total_chips() == 300
    with pytest.raises(IllegalActionError, match="The game is failed; no hand can be mucked"):
        g.muck(in_hand[1])


def test_stop_while_waiting_for_players_ends_the_game() -> None:
    g = Game(no_limit_holdem(1, 2), seats=4, seed=3)
    g.sit_down("Ann", 100)
    g.start()
    g.stop()
    assert g.status_name == "exited"


def test_a_sit_down_between_hands_opens_the_next_one() -> None:
    g = Game(no_limit_holdem(1, 2), seats=4, seed=3)
    g.sit_down("Ann", 100)
    g.start()
    p = g.sit_down("Bob", 70)
    assert p.name == "Bob" and p.stack in (68, 69, 70) and g.hand is not None
    assert [e for e in g.events if isinstance(e, PlayerSeated)][-1] == PlayerSeated(p.seat, "Bob", 70)


def refused(game: Game, error: type[CardgameError], match: str, call: Any) -> None:
    before = snapshot.dumps(game)
    with pytest.raises(error, match=match):
        call(game)
    assert snapshot.dumps(game) == before and game.status_name == "running"


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda g: g.top_up(0, 10), TableError, "chips can be added only between hands"),
        (lambda g: g.top_up(0, -1), TableError, "chips can be added only between hands"),
        (lambda g: g.leave(3), TableError, "Seat 3 is empty"),
        (lambda g: g.leave("0"), TableError, "Seat '0' does not exist"),
        (lambda g: g.sit_down("Ann", 100), TableError, "already seated"),
        (lambda g: g.sit_in(9), TableError, "Seat 9 does not exist"),
        (lambda g: g.muck(0), IllegalActionError, "only once betting is over"),
        (lambda g: g.muck(3), IllegalActionError, "Seat 3 has no live hand to muck"),
        (lambda g: g.muck(None), IllegalActionError, "Seat None has no live hand to muck"),
    ],
    ids=["top-up in hand", "bad top-up in hand", "leave empty", "leave bad seat", "name taken", "sit in no seat",
         "muck while betting", "muck no hand", "muck no seat"],
)
def test_a_refused_change_leaves_the_game_as_it_was(call: Any, error: type[CardgameError], match: str) -> None:
    g = three()
    g.start()
    refused(g, error, match, call)


def test_a_muck_during_a_draw_is_refused() -> None:
    g = Game(deuce_to_seven_triple_draw(2, 4), seats=3, seed=5)
    for name in ("Ann", "Bob", "Cat"):
        g.sit_down(name, 100)
    g.start()
    while g.draw_options() is None:
        g.act(g.to_act, "check_call")  # type: ignore[arg-type]
    refused(g, IllegalActionError, "only once betting is over", lambda g: g.muck(g.draw_options().seat))


def test_a_mucked_hand_wins_nothing_and_chips_stay_put() -> None:
    g = three(run_it_twice=True)
    g.ctx.stack_deck("AhAd KsKd 7c2h  3c 2s3s4s 5d 6c 9h")  # button Ann: Bob AA, Cat KK, Ann 72
    g.start()
    g.all_in(g.to_act)  # type: ignore[arg-type]
    g.all_in(g.to_act)  # type: ignore[arg-type]
    g.all_in(g.to_act)  # type: ignore[arg-type]
    assert g.run_options() is not None
    g.muck(2)  # Cat mucks her kings before the run-out
    refused(g, IllegalActionError, "no live hand", lambda g: g.muck(2))
    g.muck(0)  # Ann mucks too: Bob's aces are the last live hand, and win with no board dealt
    refused(g, IllegalActionError, "The last live hand cannot be mucked", lambda g: g.muck(1))
    while g.run_options() is not None:
        g.choose_runs(g.run_options().seat, 1)  # type: ignore[union-attr]
    won = {seat for e in g.events if isinstance(e, PotAwarded) for seat in e.winners}
    assert won == {1} and g.table.total_chips() == 300


# --- the property: random seating changes and mucks interleaved with play ---------------------------
VARIANTS = {
    "holdem": lambda: no_limit_holdem(1, 2, run_it_twice=True),
    "stud": lambda: seven_card_stud(5, 1, 2, 4),
    "triple draw": lambda: deuce_to_seven_triple_draw(2, 4),
}


def _change(game: Game, data: st.DataObject) -> None:
    """One random seating change or muck; a refused one must change nothing."""
    seated = [p.seat for p in game.table.players()]
    empty = [i for i, p in enumerate(game.table.seats) if p is None]
    kinds = ["muck", "sit_out", "sit_in", "leave", "top_up"] if seated else []
    kinds += ["sit_down"] if empty else []
    kind = data.draw(st.sampled_from(kinds))
    if kind == "sit_down":
        args: tuple[Any, ...] = (f"n{data.draw(st.integers(0, 99))}", data.draw(st.integers(1, 300)),
                                 data.draw(st.sampled_from(empty)))
    elif kind == "top_up":
        args = (data.draw(st.sampled_from(seated)), data.draw(st.integers(1, 200)))
    else:
        args = (data.draw(st.sampled_from(seated)),)
    before = snapshot.dumps(game)
    try:
        getattr(game, kind)(*args)
    except (TableError, IllegalActionError):
        assert snapshot.dumps(game) == before, f"a refused {kind}{args} changed the game"


def _act(game: Game, data: st.DataObject) -> None:
    draw = game.draw_options()
    if draw is not None:
        count = data.draw(st.integers(draw.min_discards, draw.max_discards))
        game.draw(draw.seat, data.draw(st.permutations(draw.hole))[:count])
        return
    runs = game.run_options()
    if runs is not None:
        game.choose_runs(runs.seat, data.draw(st.integers(1, runs.max_runs)))
        return
    legal = game.legal_actions()
    assert legal is not None
    if legal.bring_in:
        game.act(legal.seat, "bring_in")
    else:
        game.act(legal.seat, data.draw(st.sampled_from(["fold", "check_call", "check_call"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), stacks=st.lists(st.integers(1, 300), min_size=2, max_size=6),
       seed=st.integers(0, 2**32), data=st.data())
def test_seating_changes_and_mucks_interleaved_with_play_never_lose_a_chip(
    variant: str, stacks: list[int], seed: int, data: st.DataObject
) -> None:
    game = Game(VARIANTS[variant](), seats=7, seed=seed, max_hands=8)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    flow = [sum(stacks)]  # chips brought to the table minus chips taken away, so far

    def conserve(event: object) -> None:
        if isinstance(event, PlayerSeated):
            flow[0] += event.stack
        elif isinstance(event, ChipsAdded):
            flow[0] += event.amount
        elif isinstance(event, PlayerLeft):
            flow[0] -= event.cashed_out
        if not isinstance(event, PotAwarded):  # chips move from the pot to stacks during awards
            assert game.ctx.total_chips() == flow[0], event

    game.subscribe(conserve)
    game.start()
    for _ in range(300):
        if game.status_name != "running":
            break
        if (game.to_act is None and game.run_options() is None) or data.draw(st.integers(0, 4)) == 0:
            if game.to_act is None and game.run_options() is None and not data.draw(st.booleans()):
                break
            _change(game, data)
        else:
            _act(game, data)
    assert game.ctx.total_chips() == flow[0]
    assert all(p.stack >= 0 for p in game.table.players())
