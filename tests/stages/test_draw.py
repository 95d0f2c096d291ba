"""The draw round alone: order, discards, standing pat, errors, and a deck that runs out."""

from __future__ import annotations

import pytest

from cardgame.engine import PassOn
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import CardsDiscarded, DiscardsReshuffled, HoleCardsDealt
from cardgame.stages import DealHole, Draw
from tests.helpers import make_context


def test_players_draw_in_order_and_get_replacements() -> None:
    ctx = make_context([100, 100, 100], deck="2c3c4c5c6c 2d3d4d5d6d 2h3h4h5h6h 7s8s9s")
    DealHole(5).start(ctx, None)
    draw = Draw()
    draw.start(ctx, "prev")
    opts = draw.draw_options()
    assert opts is not None and opts.seat == 0 and opts.max_discards == 5
    draw.handle("draw", 0, parse_cards("2c 3c"))
    draw.handle("draw", 1, ())
    with pytest.raises(IllegalActionError, match="not seat 0's turn to draw"):
        draw.handle("draw", 0, ())
    draw.handle("draw", 2, parse_cards("6h"))
    assert draw.state == "draws_done" and draw.outcome == PassOn() and draw.previous == "prev"
    hand = ctx.hand
    assert hand is not None
    assert hand.by_seat[0].hole == list(parse_cards("4c5c6c 7s8s"))
    assert hand.by_seat[2].hole == list(parse_cards("2h3h4h5h 9s"))
    discards = [e for e in ctx.log if isinstance(e, CardsDiscarded)]
    assert [len(e.cards) for e in discards] == [2, 0, 1]
    assert discards[0].seen_by(1).cards == (None, None)


def test_bad_discards_change_nothing() -> None:
    ctx = make_context([100, 100])
    DealHole(5).start(ctx, None)
    draw = Draw(max_discards=3)
    draw.start(ctx, None)
    hand = ctx.hand
    assert hand is not None
    before = list(hand.by_seat[0].hole)
    other = hand.by_seat[1].hole[0]
    with pytest.raises(IllegalActionError, match="can only discard cards from their hand"):
        draw.handle("draw", 0, [other])
    with pytest.raises(IllegalActionError, match="at most 3 cards"):
        draw.handle("draw", 0, before[:4])
    with pytest.raises(IllegalActionError, match="each once"):
        draw.handle("draw", 0, [before[0], before[0]])
    with pytest.raises(IllegalActionError, match="Seat '0' is not a seat number: seat 0 draws next"):
        draw.handle("draw", "0", [])
    assert hand.by_seat[0].hole == before and draw.to_act == 0


def test_exhausted_deck_reshuffles_earlier_discards_never_the_drawers_own() -> None:
    # Six players, five cards each = 30 dealt, 22 left. Everyone draws five; the fifth drawer
    # finds 2 cards in the stub and the earlier discards (not their own) are shuffled in.
    ctx = make_context([100] * 6)
    assert ctx.hand is not None
    DealHole(5).start(ctx, None)
    draw = Draw()
    draw.start(ctx, None)
    for hp in list(ctx.hand.players):
        own = list(hp.hole)
        draw.handle("draw", hp.seat, own)
        assert not set(own) & set(hp.hole)  # a player never gets their own discards back
    assert [e.count for e in ctx.log if isinstance(e, DiscardsReshuffled)] == [20]
    dealt = [c for e in ctx.log if isinstance(e, HoleCardsDealt) for c in e.cards]
    assert len(dealt) == 60
    in_hands = [c for hp in ctx.hand.players for c in hp.hole]
    assert len(set(in_hands)) == 30


def test_one_live_player_draws_nothing() -> None:
    ctx = make_context([100, 100], deck="2c3c4c5c6c 2d3d4d5d6d")
    assert ctx.hand is not None
    DealHole(5).start(ctx, None)
    ctx.hand.players[1].folded = True
    draw = Draw()
    draw.start(ctx, None)
    assert draw.state == "hand_won"


# --- options: minimum and maximum discards, discard only --------------------------------------------


def test_discard_only_throws_exactly_one_card_without_replacement() -> None:
    # Pineapple's discard: three cards each, exactly one thrown, nothing dealt.
    ctx = make_context([100, 100, 100], deck="AcKcQc AdKdQd AhKhQh 2s")
    assert ctx.hand is not None
    DealHole(3).start(ctx, None)
    draw = Draw(1, min_discards=1, replace=False)
    draw.start(ctx, "prev")
    opts = draw.draw_options()
    assert opts is not None and (opts.seat, opts.min_discards, opts.max_discards, opts.replace) == (0, 1, 1, False)
    left = len(ctx.hand.deck)
    for seat, card in ((0, "Qc"), (1, "Ad"), (2, "Kh")):
        draw.handle("draw", seat, [card])
    assert draw.state == "draws_done" and draw.outcome == PassOn() and draw.previous == "prev"
    assert [hp.hole for hp in ctx.hand.players] == [list(parse_cards(h)) for h in ("AcKc", "KdQd", "AhQh")]
    assert all(hp.face_up == [False, False] for hp in ctx.hand.players)
    assert len(ctx.hand.deck) == left  # nothing dealt
    assert not [e for e in ctx.log if isinstance(e, HoleCardsDealt) and len(e.cards) < 3]
    assert [e.cards for e in ctx.log if isinstance(e, CardsDiscarded)] == [(c,) for c in parse_cards("Qc Ad Kh")]
    assert ctx.hand.discards == list(parse_cards("Qc Ad Kh"))


def test_too_few_and_too_many_discards_are_refused_with_what_is_allowed() -> None:
    ctx = make_context([100, 100], deck="AcKcQc AdKdQd")
    assert ctx.hand is not None
    DealHole(3).start(ctx, None)
    draw = Draw(1, min_discards=1, replace=False)
    draw.start(ctx, None)
    before = list(ctx.hand.by_seat[0].hole)
    with pytest.raises(IllegalActionError, match="Seat 0 must discard at least 1 card of Ac Kc Qc, not 0") as exc:
        draw.handle("draw", 0, [])
    assert exc.value.rule == "too few discards" and exc.value.allowed == "exactly 1 card of Ac Kc Qc"
    with pytest.raises(IllegalActionError, match="Seat 0 may discard at most 1 card, not 2") as exc:
        draw.handle("draw", 0, before[:2])
    assert exc.value.rule == "too many discards"
    assert ctx.hand.by_seat[0].hole == before and draw.to_act == 0 and not ctx.hand.discards
    assert not [e for e in ctx.log if isinstance(e, CardsDiscarded)]


def test_a_range_of_discards_with_replacement() -> None:
    ctx = make_context([100, 100])
    assert ctx.hand is not None
    DealHole(5).start(ctx, None)
    draw = Draw(3, min_discards=2)
    draw.start(ctx, None)
    hole = list(ctx.hand.by_seat[0].hole)
    with pytest.raises(IllegalActionError, match="at least 2 cards") as exc:
        draw.handle("draw", 0, hole[:1])
    assert exc.value.allowed == f"2 to 3 cards of {' '.join(map(str, hole))}"
    draw.handle("draw", 0, hole[:3])
    assert len(ctx.hand.by_seat[0].hole) == 5 and not set(hole[:3]) & set(ctx.hand.by_seat[0].hole)


def test_a_player_holding_fewer_cards_than_the_minimum_discards_them_all() -> None:
    ctx = make_context([100, 100])
    assert ctx.hand is not None
    DealHole(2).start(ctx, None)
    draw = Draw(min_discards=3)
    draw.start(ctx, None)
    opts = draw.draw_options()
    assert opts is not None and (opts.min_discards, opts.max_discards) == (2, 2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_discards": -1}, "max_discards must be a whole number from 0 to 52, not -1"),
        ({"max_discards": True}, "max_discards must be"),
        ({"min_discards": 1.5}, "min_discards must be a whole number from 0 to 52, not 1.5"),
        ({"min_discards": None}, "min_discards must be"),
        ({"max_discards": 1, "min_discards": 2}, r"min_discards \(2\) must not exceed max_discards \(1\)"),
        ({"replace": "no"}, "replace must be True .* or False .*, not 'no'"),
        ({"max_discards": 0, "replace": False}, "discard-only round .* does nothing"),
    ],
)
def test_bad_draw_options_are_config_errors(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        Draw(**kwargs)  # type: ignore[arg-type]
