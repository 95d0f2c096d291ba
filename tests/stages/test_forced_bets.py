"""Forced bets alone: blinds, heads-up, antes, big-blind ante, straddle, short stacks."""

from __future__ import annotations

import pytest

from cardgame.model.errors import ConfigError
from cardgame.model.events import ForcedBetPosted
from cardgame.stages import ForcedBets, ForcedBetsResult
from tests.helpers import make_context, opened


def posted(ctx) -> list[tuple[int, str, int, bool]]:  # type: ignore[no-untyped-def]
    return [(e.seat, e.bet, e.amount, e.all_in) for e in ctx.log if isinstance(e, ForcedBetPosted)]


def test_blinds_left_of_the_button() -> None:
    ctx = make_context([100, 100, 100, 100], button=1)
    stage = ForcedBets((5, 10))
    stage.start(ctx, opened(ctx))
    assert posted(ctx) == [(2, "small blind", 5, False), (3, "big blind", 10, False)]
    assert stage.outcome is not None
    result = stage.outcome.result  # type: ignore[attr-defined]
    assert result == ForcedBetsResult(1, ((2, 5), (3, 10)), (), opener=0, bet_to=10, min_raise=10, raises=1)


def test_heads_up_the_button_posts_the_small_blind() -> None:
    ctx = make_context([100, 100], button=0)
    ForcedBets((1, 2)).start(ctx, opened(ctx))
    assert posted(ctx) == [(0, "small blind", 1, False), (1, "big blind", 2, False)]


def test_antes_are_dead_money_then_blinds_are_live() -> None:
    ctx = make_context([100, 100, 100])
    ForcedBets((1, 2), ante=3).start(ctx, opened(ctx))
    assert posted(ctx)[:3] == [(0, "ante", 3, False), (1, "ante", 3, False), (2, "ante", 3, False)]
    hand = ctx.hand
    assert hand is not None
    assert [hp.bet for hp in hand.players] == [1, 2, 0]
    assert [hp.contributed for hp in hand.players] == [4, 5, 3]


def test_big_blind_ante_is_posted_by_the_big_blind_alone() -> None:
    ctx = make_context([100, 100, 100])
    ForcedBets((1, 2), ante=2, big_blind_ante=True).start(ctx, opened(ctx))
    assert posted(ctx) == [(0, "small blind", 1, False), (1, "big blind", 2, False), (1, "big blind ante", 2, False)]


def test_straddle_is_a_live_blind_and_action_starts_after_it() -> None:
    ctx = make_context([100, 100, 100, 100])
    stage = ForcedBets((1, 2, 4))
    stage.start(ctx, opened(ctx))
    assert posted(ctx)[-1] == (2, "straddle", 4, False)
    assert stage.outcome is not None and stage.outcome.result.opener == 3  # type: ignore[attr-defined]
    assert stage.outcome.result.bet_to == 4  # type: ignore[attr-defined]


def test_short_stack_posts_what_it_has_and_is_all_in() -> None:
    ctx = make_context([100, 1, 100])
    out = ForcedBets((1, 2)).start(ctx, opened(ctx))
    assert posted(ctx) == [(0, "small blind", 1, False), (1, "big blind", 1, True)]
    assert out is not None and out.result.bet_to == 2  # type: ignore[attr-defined]  # the call stays the full blind


def test_bad_config_is_rejected() -> None:
    with pytest.raises(ConfigError, match=r"blinds \(in chips\) must be a whole number of at least 0, not -2"):
        ForcedBets((1, -2))
    with pytest.raises(ConfigError, match="big-blind ante"):
        ForcedBets((1,), ante=1, big_blind_ante=True)


@pytest.mark.parametrize("flag", ["big_blind_ante", "big_blind_ante_first", "ante_trimming"])
@pytest.mark.parametrize("value", [[1], 1, "yes", None])
def test_a_flag_that_is_not_true_or_false_is_refused(flag: str, value: object) -> None:
    """A hostile truthy value (``[1]``) was taken as True on a moving-button table."""
    with pytest.raises(ConfigError, match=f"^{flag} must be True or False, not "):
        ForcedBets((1, 2), ante=1, **{flag: value})  # type: ignore[arg-type]
