"""Stage options that play PokerKit 0.7.7's rules where they part from the rulebooks (the
differential harness replays a disagreeing hand under them; docs/rules.md, PokerKit deviations).
Each test pins the default (the rulebook) and the option (PokerKit, with the line of its source)."""

from __future__ import annotations

import pytest

from cardgame.model.errors import ConfigError
from cardgame.stages import BringIn, BringInResult, ForcedBets, Showdown
from tests.helpers import make_context, opened
from tests.stages.test_bring_in_and_order import stud_ctx
from tests.stages.test_forced_bets import posted
from tests.stages.test_showdown import ByFirstCard, awards, showdown_ctx


def test_short_blind_others_call_the_full_blind_or_what_was_posted() -> None:
    # TDA: the others call the full blind. PokerKit: the amount to call is max(bets), what was
    # posted; its minimum raise stays the bet plus the minimum bet (state.py, min_completion...).
    ctx = make_context([100, 1, 100])
    out = ForcedBets((1, 2)).start(ctx, opened(ctx))
    assert out is not None and (out.result.bet_to, out.result.min_raise) == (2, 2)  # type: ignore[attr-defined]
    ctx = make_context([100, 1, 100])
    out = ForcedBets((1, 2), short_blind="posted").start(ctx, opened(ctx))
    assert posted(ctx) == [(0, "small blind", 1, False), (1, "big blind", 1, True)]
    assert out is not None and (out.result.bet_to, out.result.min_raise) == (1, 2)  # type: ignore[attr-defined]


def test_big_blind_ante_after_the_blind_or_first() -> None:
    # TDA 2024: the big blind is posted before the big-blind ante; TDA 2019 and PokerKit (antes are
    # posted before blinds) the ante first: a short big blind then posts less blind.
    ctx = make_context([100, 3, 100])
    ForcedBets((1, 2), ante=2, big_blind_ante=True, ante_trimming=False).start(ctx, opened(ctx))
    assert posted(ctx) == [(0, "small blind", 1, False), (1, "big blind", 2, False),
                           (1, "big blind ante", 1, True)]
    ctx = make_context([100, 3, 100])
    out = ForcedBets((1, 2), ante=2, big_blind_ante=True, ante_trimming=False, big_blind_ante_first=True).start(
        ctx, opened(ctx))
    assert posted(ctx) == [(1, "big blind ante", 2, False), (0, "small blind", 1, False),
                           (1, "big blind", 1, True)]
    assert ctx.hand is not None and ctx.hand.dead == 2
    assert out is not None and out.result.bet_to == 2  # type: ignore[attr-defined]


def test_odd_chips_one_each_or_all_to_the_first_winner() -> None:
    # Robert's Rules, ties: no player gets more than one odd chip. PokerKit (push_chips): the
    # remainder goes to player_indices[0].
    holes = "AhKh AdKd AcKc 2s2d"
    ctx = showdown_ctx([100] * 4, [5, 5, 5, 2], holes, folded=frozenset({3}))
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 17, (0, 1, 2), (6, 6, 5), "")]
    ctx = showdown_ctx([100] * 4, [5, 5, 5, 2], holes, folded=frozenset({3}))
    Showdown(ByFirstCard(), one_odd_chip_each=False).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 17, (0, 1, 2), (7, 5, 5), "")]


def test_pots_split_separately_or_merged_by_their_remaining_players() -> None:
    # Robert's Rules, ties: the main pot and side pots are split separately. PokerKit kills the
    # hands that can win nothing, then merges pots with the same players (State.pots).
    holes = "AhKh 2s2d AdKd 3c3d 4c4d"
    args = ([100] * 5, [10, 5, 10, 8, 1], holes)
    folded = frozenset({3, 4})
    ctx = showdown_ctx(*args, folded=folded)
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 21, (0, 2), (11, 10), ""), (1, 13, (0, 2), (7, 6), "")]
    ctx = showdown_ctx(*args, folded=folded)
    Showdown(ByFirstCard(), merge_pots=True).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 34, (0, 2), (17, 17), "")]


def test_a_side_pot_without_a_low_is_scooped_or_its_low_half_split() -> None:
    # Robert's Rules, high-low split: with no qualifying low the best high hand wins the whole pot.
    # PokerKit splits a pot in halves whenever any hand has a low, and a low half no hand of the pot
    # qualifies for goes to all of its (unkilled) hands.
    holes = "AhKh 3s2d AdKd"
    ctx = showdown_ctx([100, 100, 100], [10, 5, 10], holes)
    Showdown(ByFirstCard(), ByFirstCard(low=True)).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx)[-1] == (1, 10, (0, 2), (5, 5), "")
    ctx = showdown_ctx([100, 100, 100], [10, 5, 10], holes)
    Showdown(ByFirstCard(), ByFirstCard(low=True), no_low="split").start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx)[-2:] == [(1, 5, (0, 2), (3, 2), "high"), (1, 5, (0, 2), (3, 2), "low")]


def test_bring_in_passes_by_card_or_by_seat() -> None:
    # Robert's Rules, stud: a player all-in on the ante cannot bring in: the next lowest card does.
    # PokerKit opens with the lowest card and drops all-in players from the actors: the next seat.
    for option, seat in (("card", 2), ("seat", 1)):
        ctx = stud_ctx("2d Kh 5c")
        assert ctx.hand is not None
        ctx.hand.players[0].all_in = True
        stage = BringIn(3, all_in_passes=option)
        stage.start(ctx, None)
        assert stage.outcome is not None and stage.outcome.result == BringInResult(seat, 3)  # type: ignore[attr-defined]


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigError, match="short_blind"):
        ForcedBets((1, 2), short_blind="half")
    with pytest.raises(ConfigError, match="no_low"):
        Showdown(no_low="keep")
    with pytest.raises(ConfigError, match="all_in_passes"):
        BringIn(2, all_in_passes="button")
