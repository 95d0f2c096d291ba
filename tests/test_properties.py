"""Property tests: random legal play in every variant finishes hands, never deadlocks, conserves chips."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.events import HandEnded, PotAwarded
from cardgame.game import Game
from cardgame.stage import Stage
from variants import available

VARIANTS: list[tuple[str, int, Callable[[], list[Stage]]]] = [
    (v.code or v.name, v.max_players, v.build) for v in available()
]


@pytest.mark.parametrize("variant", VARIANTS, ids=[v[0] for v in VARIANTS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stacks=st.lists(st.integers(1, 400), min_size=2, max_size=10), seed=st.integers(0, 2**32), data=st.data())
def test_random_legal_play_conserves_chips_and_finishes(
    variant: tuple[str, int, Callable[[], list[Stage]]], stacks: list[int], seed: int, data: st.DataObject
) -> None:
    _, most, build = variant
    stacks = stacks[:most]
    if len(stacks) < 2:
        stacks = [*stacks, 50]
    game = Game(build(), seats=10, seed=seed, max_hands=6)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    total = sum(stacks)

    def conserve(event: object) -> None:
        if not isinstance(event, PotAwarded):  # chips move from the pot to stacks during awards
            assert game.ctx.total_chips() == total

    game.subscribe(conserve)
    game.start()
    actions = 0
    while game.to_act is not None:
        draw = game.draw_options()
        if draw is not None:
            count = data.draw(st.integers(0, draw.max_discards))
            game.draw(draw.seat, data.draw(st.permutations(draw.hole))[:count])
            actions += 1
            continue
        legal = game.legal_actions()
        assert legal is not None and legal.seat == game.to_act
        options: list[tuple[str, int | None]] = []
        if legal.bring_in:
            options.append(("bring_in", None))
        if legal.can_fold:
            options.append(("fold", None))
        if not legal.bring_in:
            options.append(("call", None) if legal.call_amount else ("check", None))
        if legal.can_raise:
            word = "bet" if legal.is_bet else "raise"
            sizes = st.sampled_from(legal.amounts) if legal.amounts else st.integers(legal.min_raise_to,
                                                                                      legal.max_raise_to)
            options.append((word, data.draw(sizes)))
        action, amount = data.draw(st.sampled_from(options))
        game.act(legal.seat, action, amount)
        actions += 1
        assert actions < 2000, "a hand should never need this many actions"
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert game.status_name in ("exited", "running")
    if game.status_name == "running":  # waiting: fewer than two players have chips
        assert len(game.table.in_play()) < 2
    else:
        assert len(ended) == 6
    assert game.table.total_chips() == total
    assert all(p.stack >= 0 for p in game.table.players())
