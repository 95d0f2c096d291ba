"""Property tests: random legal play in every variant finishes hands, never deadlocks, conserves chips."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.engine import Stage
from cardgame.evaluation import HIGH
from cardgame.model.betting import FixedLimit, NoLimit
from cardgame.model.events import HandEnded
from cardgame.play.game import Game
from variants import (
    available,
    badugi,
    courchevel,
    crazy_pineapple,
    deuce_to_seven_triple_draw,
    fixed_limit_holdem,
    fixed_limit_omaha_hi_lo,
    no_limit_holdem,
    pineapple,
    pot_limit_omaha,
    razz,
    seven_card_stud,
    short_deck_holdem,
)
from variants.streets import community_card_game

VARIANTS: list[tuple[str, int, Callable[[], list[Stage]]]] = [
    (v.code or v.name, v.max_players, v.build) for v in available()
]

#: The forced-bet and cap options each rule of docs/rules.md depends on.
CONFIGURED: list[tuple[str, int, Callable[[], list[Stage]]]] = [
    ("NT ante", 10, lambda: no_limit_holdem(1, 2, ante=1)),
    ("NT big-blind ante", 10, lambda: no_limit_holdem(1, 2, ante=3, big_blind_ante=True)),
    ("NT straddle", 10, lambda: no_limit_holdem(1, 2, straddles=(4,))),
    ("PO ante", 10, lambda: pot_limit_omaha(1, 2, ante=1)),
    ("FT ante capped heads-up", 10, lambda: fixed_limit_holdem(4, 8, ante=1, heads_up_uncapped=False)),
    ("FO/8 cap 3", 10, lambda: fixed_limit_omaha_hi_lo(4, 8, cap=3)),
    ("F7S big ante", 8, lambda: seven_card_stud(5, 3, 10, 20)),
    ("FR capped heads-up", 8, lambda: razz(2, 1, 4, 8, heads_up_uncapped=False)),
    ("F2L3D ante", 6, lambda: deuce_to_seven_triple_draw(4, 8, ante=1)),
    ("FB capped heads-up", 8, lambda: badugi(4, 8, heads_up_uncapped=False)),
    # bomb pots (every player antes, no pre-flop betting) and the new games' options
    ("NT bomb pot", 10, lambda: no_limit_holdem(1, 2, bomb_pot=5)),
    ("FT bomb pot", 10, lambda: fixed_limit_holdem(4, 8, bomb_pot=3)),
    ("PO bomb pot", 10, lambda: pot_limit_omaha(1, 2, bomb_pot=4)),
    ("pineapple bomb pot", 10, lambda: pineapple(1, 2, bomb_pot=5)),
    ("crazy pineapple hi/lo", 10, lambda: crazy_pineapple(4, 8, hi_lo=True)),
    ("courchevel hi/lo bomb pot", 8, lambda: courchevel(1, 2, hi_lo=True, bomb_pot=3)),
    # PokerKit's betting conventions (docs/rules.md), every option on
    ("FT PokerKit conventions", 10, lambda: community_card_game(
        FixedLimit(4, 8, heads_up_uncapped=False, full_bet_rule=True, cap_counts_blind=False, first_raise_reopens=True,
                   raise_to_match=False), hole_cards=2, blinds=(2, 4), ante=1, high=HIGH)),
    ("NT PokerKit conventions", 10, lambda: community_card_game(
        NoLimit(2, first_raise_reopens=True, straddle_sets_min_raise=False, raise_to_match=False), hole_cards=2,
        blinds=(1, 2, 4), high=HIGH)),
    # the table rules (issue 35): show or muck and asking to see on every family, the dead button
    ("NT show or muck, dead button", 10, lambda: no_limit_holdem(1, 2, show_or_muck=True, ask_to_see=True,
                                                                 button="dead")),
    ("FB show or muck, dead button", 8, lambda: badugi(4, 8, show_or_muck=True, ask_to_see=True, button="dead")),
    ("FR show or muck", 8, lambda: razz(2, 1, 4, 8, show_or_muck=True, ask_to_see=True)),
    ("NS blinds, dead button, show or muck", 9, lambda: short_deck_holdem(1, 0, blinds=(1, 2), button="dead",
                                                                          show_or_muck=True)),
    ("pineapple dead button, show or muck", 10, lambda: pineapple(1, 2, button="dead", show_or_muck=True)),
]


@pytest.mark.parametrize("variant", VARIANTS + CONFIGURED, ids=[v[0] for v in VARIANTS + CONFIGURED])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stacks=st.lists(st.integers(1, 400), min_size=2, max_size=10), seed=st.integers(0, 2**32), data=st.data())
def test_random_legal_play_conserves_chips_and_finishes(
    variant: tuple[str, int, Callable[[], list[Stage]]], stacks: list[int], seed: int, data: st.DataObject
) -> None:
    _, most, build = variant
    stacks = stacks[:most]
    if len(stacks) < 2:
        stacks = [*stacks, 50]
    game = Game(build(), seats=10, seed=seed, max_hands=6, keep_hands=None)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    total = sum(stacks)

    unbalanced: list[object] = []

    def conserve(event: object) -> None:  # a listener sees the state after the change: awards included
        if game.ctx.total_chips() != total:
            unbalanced.append(event)

    game.subscribe(conserve)
    game.start()
    actions = 0
    while game.to_act is not None:
        show = game.show_options()
        if show is not None:  # show or muck (TDA 16's order); anyone holding cards may ask to see a mucked hand
            asker = data.draw(st.integers(0, len(stacks) - 1))
            if game.can_ask_to_see(asker) and data.draw(st.booleans()):
                game.ask_to_see(asker)
            elif game.can_muck(show.seat) and data.draw(st.booleans()):
                game.muck(show.seat)
            else:
                game.show(show.seat)
            actions += 1
            continue
        draw = game.draw_options()
        if draw is not None:
            count = data.draw(st.integers(draw.min_discards, draw.max_discards))
            game.draw(draw.seat, data.draw(st.permutations(draw.hole))[:count])
            actions += 1
            continue
        legal = game.legal_actions()
        assert legal is not None and legal.seat == game.to_act
        options: list[tuple[str, int | None]] = []
        if legal.bring_in:
            options.append(("bring_in", None))
        if legal.can_fold or not legal.bring_in:  # a fold with a free check is legal too
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
    assert unbalanced == [] and game.listener_errors == []
    assert all(p.stack >= 0 for p in game.table.players())
