"""The rake as a table rule: the house's cut of each pot (a percentage rounded down, a cap, caps by
players dealt in, no flop no drop), taken by the showdown from the main pot first, announced with a
``RakeTaken`` event; chips are conserved counting it, in every variant that takes the option, in the
store's ledger and through PHH (the ``rake`` field written and taken back)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.engine import Stage
from cardgame.evaluation import HIGH
from cardgame.model.betting import FixedLimit
from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.events import HandEnded, HandStarted, PotAwarded, RakeTaken
from cardgame.model.pots import Pot
from cardgame.model.rake import FixedRake, Rake, rake_pots
from cardgame.phh import UnknownFieldWarning, dumps, loads
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import check_hand, replay
from cardgame.play.bots import random_bot
from cardgame.play.game import Game
from cardgame.stages import Showdown
from cardgame.store import EventStore, recover
from variants import (
    fixed_limit_holdem,
    fixed_limit_omaha_hi_lo,
    no_limit_holdem,
    pot_limit_omaha,
    razz,
    seven_card_stud,
    seven_card_stud_hi_lo,
    short_deck_holdem,
)
from variants.streets import community_card_game


def test_the_percentage_is_rounded_down_to_whole_chips_and_the_unit_then_capped() -> None:
    rake = Rake(5, 3)
    assert rake.percent == 5 and rake.cap == 3
    assert [rake.amount(pot, flop=True, players=6) for pot in (19, 20, 39, 40, 59, 60, 1000)] == [0, 1, 1, 2, 2, 3, 3]
    assert Rake(Fraction(5, 2), None).amount(1000, flop=True, players=2) == 25  # 2.5 %, no cap
    assert Rake(2.5).amount(999, flop=True, players=2) == 24  # 24.975 rounded down
    assert Rake(Decimal("2.5")) == Rake(2.5) == Rake(Fraction(5, 2))
    assert Rake(5, unit=5).amount(290, flop=True, players=2) == 10  # 14.5 -> 14 -> 10 (5-chip steps)
    caps = Rake(10, 2, cap_by_players=((3, 4), (6, 6)))
    assert [caps.amount(100, flop=True, players=n) for n in (2, 3, 5, 6, 9)] == [2, 4, 4, 6, 6]


def test_no_flop_no_drop() -> None:
    assert Rake(10, 5).amount(100, flop=False, players=2) == 0
    assert Rake(10, 5, no_flop_no_drop=False).amount(100, flop=False, players=2) == 5
    assert FixedRake(7).amount(100, flop=False, players=2) == 7 and FixedRake(7).amount(5, flop=True, players=2) == 5


@pytest.mark.parametrize("make", [
    lambda: Rake(-1), lambda: Rake(101), lambda: Rake(True), lambda: Rake("5"), lambda: Rake(float("nan")),
    lambda: Rake(float("inf")), lambda: Rake(10**400),
    lambda: Rake(Decimal("sNaN")), lambda: Rake(Decimal("1e-999999")), lambda: Rake(5, -1), lambda: Rake(5, 10**30),
    lambda: Rake(5, 2.5), lambda: Rake(5, unit=0), lambda: Rake(5, no_flop_no_drop="yes"),
    lambda: Rake(5, cap_by_players="x" * 10**6), lambda: Rake(5, cap_by_players=((1, 5),)),
    lambda: Rake(5, cap_by_players=((3, 5, 7),)), lambda: Rake(Fraction(1, 10**9)), lambda: FixedRake(-3),
    lambda: Showdown(rake=5), lambda: no_limit_holdem(1, 2, rake="5%"),
])
def test_a_bad_rake_is_refused_with_a_short_message(make: Callable[[], object]) -> None:
    with pytest.raises(ConfigError) as info:
        make()
    assert len(str(info.value)) <= 700


def test_the_main_pot_is_raked_first() -> None:
    pots = [Pot(3, (1, 2, 3)), Pot(10, (1, 2))]
    assert rake_pots(pots, 2) == [Pot(1, (1, 2, 3)), Pot(10, (1, 2))]
    assert rake_pots(pots, 5) == [Pot(0, (1, 2, 3)), Pot(8, (1, 2))]
    with pytest.raises(ConfigError):
        rake_pots(pots, 14)


def _scripted(rake: Rake) -> Game:
    """Three players at 1/2: everyone puts in 20 before the flop, then checks it down (pot 60)."""
    game = Game(no_limit_holdem(1, 2, rake=rake), seats=3, seed=5, max_hands=1)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    game.act(game.to_act, "raise", 20)
    game.act(game.to_act, "call")
    game.act(game.to_act, "call")
    while game.to_act is not None:
        game.act(game.to_act, "check")
    return game


def test_the_showdown_takes_the_rake_before_awarding_and_says_how_much() -> None:
    game = _scripted(Rake(5, 2))  # 5 % of 60 is 3, capped at 2
    raked = [e.amount for e in game.events if isinstance(e, RakeTaken)]
    awarded = sum(sum(e.amounts) for e in game.events if isinstance(e, PotAwarded))
    assert raked == [2] and awarded == 58
    assert game.table.total_chips() + 2 == 300
    uncapped = _scripted(Rake(5))
    assert [e.amount for e in uncapped.events if isinstance(e, RakeTaken)] == [3]


def test_with_a_side_pot_the_main_pot_pays_the_rake() -> None:
    # p0 is all in for 10 before the flop, p1 and p2 put in 40 each and check down: a main pot of 30
    # and a side pot of 60; a 10 % rake of the 90 (9 chips) comes out of the main pot alone.
    game = Game(no_limit_holdem(1, 2, rake=Rake(10)), seats=3, seed=8, max_hands=1)
    for seat, stack in enumerate((100, 100, 10)):
        game.sit_down(f"p{seat}", stack, seat)
    game.start()
    assert game.to_act == 0  # first to act before the flop: the button's left, past the blinds
    game.act(0, "raise", 40)
    game.act(game.to_act, "call")  # the other two call, p2 all in for 10
    game.act(game.to_act, "call")
    while game.to_act is not None:
        game.act(game.to_act, "check")
    awards = [e for e in game.events if isinstance(e, PotAwarded)]
    raked = [e.amount for e in game.events if isinstance(e, RakeTaken)]
    assert raked == [9]
    assert sorted((e.pot, e.amount) for e in awards) == [(0, 21), (1, 60)]
    assert game.table.total_chips() + 9 == 210


def test_a_hand_won_before_the_flop_pays_no_rake() -> None:
    game = Game(no_limit_holdem(1, 2, rake=Rake(10, 5)), seats=3, seed=5, max_hands=1)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    game.act(game.to_act, "raise", 20)
    game.act(game.to_act, "fold")
    game.act(game.to_act, "fold")
    assert not [e for e in game.events if isinstance(e, RakeTaken)] and game.table.total_chips() == 300


#: Every variant that takes the ``rake`` option (stud has no flop: raked with no_flop_no_drop=False).
RAKED: list[tuple[str, int, Callable[[], list[Stage]]]] = [
    ("NT", 10, lambda: no_limit_holdem(1, 2, rake=Rake(10, 7))),
    ("NT run it twice", 10, lambda: no_limit_holdem(1, 2, run_it_twice=True, rake=Rake(5, 4))),
    ("FT", 10, lambda: fixed_limit_holdem(2, 4, rake=Rake(10, 3, cap_by_players=((4, 6),)))),
    ("PO", 10, lambda: pot_limit_omaha(1, 2, rake=Rake(5, 9, unit=2))),
    ("FO/8", 10, lambda: fixed_limit_omaha_hi_lo(2, 4, rake=Rake(10, 5))),
    ("NS", 9, lambda: short_deck_holdem(1, 2, rake=Rake(10, 8))),
    ("F7S", 8, lambda: seven_card_stud(1, 2, 5, 10, rake=Rake(10, 6, no_flop_no_drop=False))),
    ("F7S/8", 8, lambda: seven_card_stud_hi_lo(1, 2, 5, 10, rake=Rake(10, 6, no_flop_no_drop=False))),
    ("FR", 8, lambda: razz(1, 2, 5, 10, rake=Rake(10, 6, no_flop_no_drop=False))),
    ("F7S, no drop until the second round", 8, lambda: seven_card_stud(
        1, 2, 5, 10, rake=Rake(10, 6, no_drop_until="second round"))),
    ("community game, half the pot", 10, lambda: community_card_game(
        FixedLimit(2, 4), hole_cards=2, blinds=(1, 2), high=HIGH, rake=Rake(50, 20, cap_by_players=((5, 40),)))),
]


@pytest.mark.parametrize("variant", RAKED, ids=[v[0] for v in RAKED])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stacks=st.lists(st.integers(1, 300), min_size=2, max_size=10), seed=st.integers(0, 2**32))
def test_random_play_with_a_rake_conserves_chips_counting_the_rake(
    variant: tuple[str, int, Callable[[], list[Stage]]], stacks: list[int], seed: int
) -> None:
    _, most, build = variant
    stacks = stacks[:most]
    game = Game(build(), seats=10, seed=seed, max_hands=5, keep_hands=None)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    total = sum(stacks)
    unbalanced: list[object] = []

    def conserve(event: object) -> None:  # after every change, awards and rake included
        raked = sum(e.amount for e in game.events if isinstance(e, RakeTaken))
        if game.ctx.total_chips() + raked != total:
            unbalanced.append(event)

    game.subscribe(conserve)
    game.start()
    game.play(random_bot)
    raked = [e.amount for e in game.events if isinstance(e, RakeTaken)]
    assert game.table.total_chips() + sum(raked) == total
    assert unbalanced == [] and all(p.stack >= 0 for p in game.table.players())
    assert all(r > 0 for r in raked)


def _raked_game(seed: int) -> Game:
    game = Game(no_limit_holdem(1, 2, rake=Rake(10, 6)), seats=4, seed=seed, max_hands=12, keep_hands=None)
    for i, s in enumerate((150, 80, 200, 60)):
        game.sit_down(f"p{i}", s, i)
    game.start()
    game.play(random_bot)
    return game


def test_the_rake_is_written_to_phh_and_taken_back_on_replay() -> None:
    game = _raked_game(7)
    hands = game_to_phh(game.events, game.dispatcher.stages)
    raked = [h for h in hands if "rake" in h.extra]
    assert raked, "the seed raked no hand"
    per_hand: list[int] = []
    for e in game.events:
        if isinstance(e, HandStarted):
            per_hand.append(0)
        elif isinstance(e, RakeTaken):
            per_hand[-1] += e.amount
    assert [h.extra.get("rake", 0) for h in hands] == per_hand
    with warnings.catch_warnings():  # through the text: the field is read without a warning
        warnings.simplefilter("error", UnknownFieldWarning)
        read = loads(dumps(hands), multi=True)
    for i, hh in enumerate(read):
        result = replay(hh)
        assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())
        check = check_hand(hh, "<game>", i)
        assert check.status == "ok", check.detail
        if "rake" in hh.extra:
            assert check.detail == f"rake {hh.extra['rake']} (the file's)"


def test_a_raked_game_recorded_in_the_store_recovers_with_every_chip(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "tables.db")
    game = Game(no_limit_holdem(1, 2, rake=Rake(10, 6)), seats=4, seed=3, max_hands=10, keep_hands=None)
    store.record(game, "t")
    for i, s in enumerate((150, 80, 200, 60)):
        game.sit_down(f"p{i}", s, i)
    game.start()
    game.play(random_bot)
    assert any(isinstance(e, RakeTaken) for e in game.events)
    seats = {p.seat: p.stack for p in game.table.players()}
    again = recover(store, "t", no_limit_holdem(1, 2, rake=Rake(10, 6)))
    assert {p.seat: p.stack for p in again.table.players()} == seats
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert len(ended) == 10
    store.close()


def test_a_cap_by_players_given_as_text_is_refused() -> None:
    with pytest.raises(CardgameError):
        Rake(5, cap_by_players=[("2", 5)])


def test_no_drop_until_the_second_round_rakes_stud_past_third_street_only() -> None:
    """``no_drop_until="second round"``: a hand won in its first betting round pays nothing, one that
    reaches a second is raked; the default ("board") never rakes a game without a board."""
    later = Rake(10, 5, no_drop_until="second round")
    assert later.amount(100, flop=False, players=2) == 0
    assert later.amount(100, flop=False, players=2, second_round=True) == 5
    assert Rake(10, 5).amount(100, flop=False, players=2, second_round=True) == 0
    for bad in ("river", "", None, 2, ["board"]):
        with pytest.raises(ConfigError, match="no_drop_until is one of 'board', 'second round', not "):
            Rake(10, no_drop_until=bad)  # type: ignore[arg-type]
    for rounds_played, raked in ((1, False), (2, True)):
        half = Rake(50, 50, no_drop_until="second round")  # (a pot of 6 here: 10 % of it rounds down to 0)
        game = Game(seven_card_stud(1, 2, 5, 10, rake=half), seats=2, seed=3, max_hands=1, keep_hands=None)
        game.sit_down("a", 100, 0)
        game.sit_down("b", 100, 1)
        game.start()
        game.act(game.to_act, "bring_in")  # type: ignore[arg-type]
        while game.hand is not None and game.hand.rounds < rounds_played:
            game.act(game.to_act, "call")  # type: ignore[arg-type]
        assert game.to_act is not None
        game.fold(game.to_act)
        took = [e.amount for e in game.events if isinstance(e, RakeTaken)]
        assert bool(took) is raked, (rounds_played, took)
        assert game.table.total_chips() + sum(took) == 200

