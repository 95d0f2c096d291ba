"""Pineapple, Crazy Pineapple, Courchevel and bomb pots end to end, with scripted decks and exact
stacks; ``Game`` built from a variant; the public street builder; PHH export refusing them."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import variants
from cardgame.engine import Stage
from cardgame.evaluation import HIGH, OMAHA_HIGH
from cardgame.model.betting import NoLimit, PotLimit
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, HandHistoryError, IllegalActionError, StageError
from cardgame.model.events import ActionTaken, BoardDealt, CardsDiscarded, ForcedBetPosted
from cardgame.phh.export import game_to_phh, hand_to_phh
from cardgame.play.game import Game
from cardgame.stages import BettingRound, DealBoard, Draw, ForcedBets, Showdown
from variants import (
    community_card_game,
    community_streets,
    courchevel,
    crazy_pineapple,
    no_limit_holdem,
    pineapple,
    pot_limit_omaha,
)


def scripted(stages: Sequence[Stage], stacks: Sequence[int], button: int, holes: str, board: Sequence[str]) -> Game:
    """One hand: ``holes`` in dealing order (left of the button first, each player's cards together);
    ``board`` one group of cards per dealing round, each after a burn card."""
    game = Game(stages, seats=len(stacks), first_button=button, seed=0, max_hands=1, keep_hands=None)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    rounds = [parse_cards(b) for b in board]
    used = set(parse_cards(holes)) | {c for r in rounds for c in r}
    burns = [c for c in game.ctx.deck_spec.cards if c not in used]
    deck = list(parse_cards(holes))
    for i, r in enumerate(rounds):
        deck += [burns[i], *r]
    game.ctx.stack_deck(deck)
    game.start()
    return game


def stacks(game: Game) -> list[int]:
    return [p.stack for p in game.table.players()]


# --- Pineapple: the discard comes after the pre-flop betting, before the flop ----------------------------


PINEAPPLE_HOLES = "AsAh7c 7d2dKd QsQhQd"  # p1 throws the king that would have made trips
PINEAPPLE_BOARD = ("KsKh9c", "5d", "3s")


def test_pineapple_discards_one_card_after_the_pre_flop_betting() -> None:
    game = scripted(pineapple(1, 2), [100, 100, 100], 2, PINEAPPLE_HOLES, PINEAPPLE_BOARD)
    assert game.draw_options() is None and len(game.hand.by_seat[0].hole) == 3
    game.call(2)
    game.call(0)
    game.check(1)
    opts = game.draw_options()  # the pre-flop round is over; no flop yet
    assert opts is not None and opts.seat == 0 and (opts.min_discards, opts.max_discards, opts.replace) == (1, 1, False)
    assert game.hand.board == []
    with pytest.raises(IllegalActionError, match="must discard at least 1 card"):
        game.draw(0, [])
    with pytest.raises(IllegalActionError, match="may discard at most 1 card, not 2"):
        game.draw(0, parse_cards("7c As"))
    for seat, card in ((0, "7c"), (1, "Kd"), (2, "Qd")):
        game.draw(seat, parse_cards(card))
    assert [len(hp.hole) for hp in game.hand.players] == [2, 2, 2]
    assert [e.street for e in game.events if isinstance(e, BoardDealt)] == ["flop"]
    for _ in range(3):
        for seat in (0, 1, 2):
            game.check(seat)
    assert game.status_name == "exited"
    assert stacks(game) == [104, 98, 98]  # aces and kings; p1's kings alone (the Kd was thrown)


def test_crazy_pineapple_discards_after_the_flop_betting() -> None:
    game = scripted(crazy_pineapple(2, 4), [100, 100, 100], 2, PINEAPPLE_HOLES, PINEAPPLE_BOARD)
    game.call(2)
    game.call(0)
    game.check(1)
    assert game.draw_options() is None and len(game.hand.board) == 3  # the flop betting first
    game.bet(0, 2)
    game.call(1)
    game.call(2)
    opts = game.draw_options()
    assert opts is not None and opts.seat == 0 and len(game.hand.board) == 3
    for seat, card in ((0, "7c"), (1, "Kd"), (2, "Qd")):
        game.draw(seat, parse_cards(card))
    assert len(game.hand.board) == 4  # the turn comes after the discards
    for _ in range(2):
        for seat in (0, 1, 2):
            game.check(seat)
    assert stacks(game) == [108, 96, 96]
    discarded = [(e.seat, e.cards) for e in game.events if isinstance(e, CardsDiscarded)]
    assert discarded == [(0, parse_cards("7c")), (1, parse_cards("Kd")), (2, parse_cards("Qd"))]


def test_crazy_pineapple_hi_lo_splits_with_an_eight_low() -> None:
    # p0 keeps A2 for the nut low; p1 keeps KK for the high. The board is low and unpaired.
    game = scripted(crazy_pineapple(2, 4, hi_lo=True), [100, 100], 1, "Ah2hQc KsKdJd", ("3c4d8s", "9h", "Kc"))
    game.call(1)
    game.check(0)
    game.check(0)
    game.check(1)
    game.draw(0, parse_cards("Qc"))
    game.draw(1, parse_cards("Jd"))
    for _ in range(2):
        game.check(0)
        game.check(1)
    assert stacks(game) == [100, 100]  # each half of the 4-chip pot


def test_a_player_who_folds_before_the_discard_does_not_discard() -> None:
    game = scripted(pineapple(1, 2), [100, 100, 100], 2, PINEAPPLE_HOLES, PINEAPPLE_BOARD)
    game.fold(2)
    game.call(0)
    game.check(1)
    assert game.draw_options().seat == 0  # type: ignore[union-attr]
    game.draw(0, parse_cards("7c"))
    assert game.draw_options().seat == 1  # type: ignore[union-attr]
    game.draw(1, parse_cards("Kd"))
    assert game.draw_options() is None and len(game.hand.board) == 3


def test_pineapple_ends_without_a_discard_when_everyone_folds_pre_flop() -> None:
    game = scripted(pineapple(1, 2), [100, 100, 100], 2, PINEAPPLE_HOLES, PINEAPPLE_BOARD)
    game.fold(2)
    game.fold(0)
    assert game.status_name == "exited" and stacks(game) == [99, 101, 100]
    assert not [e for e in game.events if isinstance(e, CardsDiscarded)]


# --- Courchevel: the first flop card shows before the pre-flop betting ------------------------------------


def test_courchevel_shows_the_first_flop_card_before_the_pre_flop_betting() -> None:
    # Heads-up: p1 has the button and the small blind and acts first pre-flop.
    game = scripted(courchevel(1, 2), [100, 100], 1, "JhTh9c8c3s 5s4s9d9h8d", ("As", "KsQs", "2s", "7d"))
    assert [str(c) for c in game.hand.board] == ["As"] and game.hand.street == "preflop"
    assert [e.street for e in game.events if isinstance(e, BoardDealt)] == ["first flop card"]
    assert all(len(hp.hole) == 5 for hp in game.hand.players)
    game.call(1)
    game.check(0)
    assert [str(c) for c in game.hand.board] == ["As", "Ks", "Qs"] and game.hand.street == "flop"
    for _ in range(3):
        game.check(0)
        game.check(1)
    # p1's 5s4s with three board spades is a flush; p0's one spade plays no flush (exactly two
    # hole cards in Omaha) and its Jh Th make the broadway straight, which loses
    assert stacks(game) == [98, 102]


def test_courchevel_is_pot_limit_and_seats_eight() -> None:
    stages = courchevel(1, 2)
    assert all(s.structure.code == "P" for s in stages if isinstance(s, BettingRound))
    assert variants.get("courchevel").max_players == 8
    game = Game(variants.get("courchevel"), seats=9, seed=1, max_hands=1)
    for seat in range(9):
        game.sit_down(f"p{seat}", 50, seat)
    game.start()
    assert len(game.hand.players) == 8  # nine would need 53 cards


# --- bomb pots -----------------------------------------------------------------------------------------------


def test_a_bomb_pot_antes_everyone_and_starts_betting_on_the_flop() -> None:
    game = scripted(no_limit_holdem(1, 2, bomb_pot=5), [100, 100, 3], 2, "AsAh KdKc 7c2d", ("Ks9c5d", "3s", "2h"))
    assert [(e.seat, e.bet, e.amount, e.all_in) for e in game.events if isinstance(e, ForcedBetPosted)] == [
        (0, "ante", 5, False), (1, "ante", 5, False), (2, "ante", 3, True)]
    assert len(game.hand.board) == 3 and not [e for e in game.events if isinstance(e, ActionTaken)]
    legal = game.legal_actions()
    assert legal is not None and legal.seat == 0 and legal.call_amount == 0 and legal.is_bet
    game.bet(0, 10)
    game.call(1)
    for _ in range(2):
        game.check(0)
        game.check(1)
    # main pot 9 (3 each) and p1 and p0's side pot of 4 + 20: p1's set of kings takes both
    assert stacks(game) == [85, 118, 0]


def test_bomb_pot_variants_carry_a_variant_without_a_phh_code() -> None:
    built: list[tuple[Sequence[Stage], str]] = [
        (no_limit_holdem(bomb_pot=5), "no-limit hold'em, bomb pot"),
        (pot_limit_omaha(bomb_pot=5), "pot-limit omaha, bomb pot"),
        (variants.get("FO/8").build(bomb_pot=2), "omaha hi/lo, bomb pot"),
        (community_card_game(NoLimit(2), hole_cards=2, blinds=(), high=HIGH, bomb_pot=5), "bomb pot"),
    ]
    for stages, name in built:
        tag = getattr(stages, "variant", None)
        assert tag is not None and tag.name == name and tag.code is None
        assert not [s for s in stages if isinstance(s, BettingRound) and s.street == 0]
    again = no_limit_holdem(bomb_pot=5).variant
    assert [s.name for s in again.build()] == [s.name for s in no_limit_holdem(bomb_pot=5)]


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: no_limit_holdem(bomb_pot=-1), "bomb_pot must be a whole number of at least 0, not -1"),
        (lambda: no_limit_holdem(bomb_pot=True), "bomb_pot must be a whole number"),
        (lambda: no_limit_holdem(ante=1, bomb_pot=5), "A bomb pot replaces the blinds and antes"),
        (lambda: community_card_game(NoLimit(2), hole_cards=2, blinds=(1, 2), high=HIGH, bomb_pot=5),
         "A bomb pot replaces the blinds and antes"),
    ],
)
def test_bad_bomb_pots_are_config_errors(build: object, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        build()  # type: ignore[operator]


# --- PHH export: no code for these games ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params"),
    [("pineapple", {}), ("crazy pineapple", {}), ("courchevel", {}), ("NT", {"bomb_pot": 4}),
     ("PO", {"bomb_pot": 4})],
)
def test_export_of_a_game_phh_has_no_code_for_is_refused(name: str, params: dict[str, int]) -> None:
    variant = variants.get(name)
    game = Game(variant, params=params, seats=3, seed=2, max_hands=1)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    while game.status_name == "running":
        opts = game.draw_options()
        if opts is not None:
            game.draw(opts.seat, opts.hole[: opts.min_discards])
        else:
            legal = game.legal_actions()
            assert legal is not None
            game.act(legal.seat, "call" if legal.call_amount else "check")
    label = variant.name + (", bomb pot" if params else "")
    with pytest.raises(HandHistoryError, match=f"PHH has no variant code for {label}; its codes are FT, NT, NS, PO, "):
        hand_to_phh(game.events, game.dispatcher.stages)
    with pytest.raises(HandHistoryError, match="PHH has no variant code"):
        game_to_phh(game.events, game.dispatcher.stages)


def test_a_hand_built_courchevel_or_five_card_omaha_gets_no_phh_code() -> None:
    from cardgame.phh.export import variant_fields

    built = community_card_game(PotLimit(2), hole_cards=4, blinds=(1, 2), high=OMAHA_HIGH, exposed=1)
    with pytest.raises(HandHistoryError, match="PHH has no variant code for this game; its codes are"):
        variant_fields(built, 3)
    with pytest.raises(HandHistoryError, match="PHH has no variant code"):
        variant_fields(community_card_game(PotLimit(2), hole_cards=5, blinds=(1, 2), high=OMAHA_HIGH), 3)
    plain = community_card_game(PotLimit(2), hole_cards=4, blinds=(1, 2), high=OMAHA_HIGH)
    assert variant_fields(plain, 3)["variant"] == "PO"  # four cards, pot limit, the flop after the betting


# --- Game takes a variant ----------------------------------------------------------------------------------


def test_game_accepts_a_variant_and_plays_it_with_its_defaults() -> None:
    game = Game(variants.get("PO"), seed=3, max_hands=3)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    assert game.dispatcher.stages.variant is variants.get("PO")
    assert len(game.hand.by_seat[0].hole) == 4
    assert [e.amount for e in game.events if isinstance(e, ForcedBetPosted)] == [1, 2]


def test_game_takes_the_variants_params_and_deck() -> None:
    game = Game(variants.get("NS"), params={"ante": 3, "button_blind": 6}, seed=1)
    assert len(game.ctx.deck_spec.cards) == 36  # the short deck from the start, not from the first hand
    forced = next(s for s in game.dispatcher.stages if isinstance(s, ForcedBets))
    assert forced.ante == (3,) and forced.button_blind == 6
    assert len(Game(variants.get("NS").build(), seed=1).ctx.deck_spec.cards) == 36  # a built list knows it too
    assert len(Game(variants.get("NT"), seed=1).ctx.deck_spec.cards) == 52


@pytest.mark.parametrize(
    ("stages", "kwargs", "match"),
    [
        ("NT", {}, r"a variant \(variants.get\('NT'\)\) or a list of Stage objects .*not 'NT' \(a variant's name"),
        (no_limit_holdem, {}, r"not <function no_limit_holdem.*\(a builder: call it\)"),
        (5, {}, "or a list of Stage objects .*not 5"),
        ([1, 2], {}, r"not \[1, 2\]"),
        (None, {}, "not None"),
        (no_limit_holdem(), {"params": {"ante": 1}}, r"params are the builder's arguments of a variant"),
        (variants.get("NT"), {"params": [1]}, r"params must be a mapping .*not \[1\]"),
        (variants.get("NT"), {"params": {"big": 2}},
         r"Bad parameters for no-limit hold'em: .*'big'; its parameters are small_blind, big_blind"),
    ],
)
def test_game_refuses_anything_but_a_variant_or_a_stage_list(stages: object, kwargs: dict[str, object],
                                                               match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        Game(stages, **kwargs)  # type: ignore[arg-type]


def test_an_empty_stage_list_is_still_the_dispatchers_error() -> None:
    with pytest.raises(StageError, match="at least one stage"):
        Game([])


# --- the public street builder --------------------------------------------------------------------------


def test_the_street_builder_assembles_a_new_variant() -> None:
    # Hold'em with a two-card flop and two turns, discarding before the second turn
    streets = community_streets(NoLimit(2), ((2, "flop"), (1, "turn"), (1, "second turn"), (1, "river")),
                                discard_before="second turn")
    assert [type(s).__name__ for s in streets] == [
        "BettingRound", "DealBoard", "BettingRound", "DealBoard", "BettingRound", "Draw", "DealBoard",
        "BettingRound", "DealBoard", "BettingRound"]
    draw = next(s for s in streets if isinstance(s, Draw))
    assert (draw.min_discards, draw.max_discards, draw.replace) == (1, 1, False)
    assert [s.count for s in streets if isinstance(s, DealBoard)] == [2, 1, 1, 1]
    stages = community_card_game(NoLimit(2), hole_cards=3, blinds=(1, 2), high=HIGH,
                                 board=((2, "flop"), (1, "turn"), (1, "second turn"), (1, "river")),
                                 discard_before="second turn")
    game = Game(stages, seats=3, seed=4, max_hands=2)
    for seat in range(3):
        game.sit_down(f"p{seat}", 100, seat)
    game.start()
    while game.status_name == "running":
        opts = game.draw_options()
        if opts is not None:
            game.draw(opts.seat, opts.hole[:1])
        else:
            legal = game.legal_actions()
            assert legal is not None
            game.act(legal.seat, "call" if legal.call_amount else "check")
    assert sum(stacks(game)) == 300
    assert any(isinstance(s, Showdown) for s in stages)


def test_the_library_variants_are_built_with_the_street_builder() -> None:
    plain = [type(s).__name__ for s in community_streets(NoLimit(2))]
    for stages in (no_limit_holdem(), pot_limit_omaha()):
        names = [type(s).__name__ for s in stages]
        assert names[3:-2] == plain  # between the hole cards and the showdown


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"board": ()}, "at least one street"),
        ({"board": ((0, "flop"),)}, r"Each street is \(cards, name\) with at least one card.*not \(0, 'flop'\)"),
        ({"board": ("flop",)}, "Each street is"),
        ({"exposed": 3}, r"exposed must be fewer than the 3 cards of the flop \(0 to 2\), not 3"),
        ({"exposed": -1}, "exposed must be a whole number of at least 0"),
        ({"discard_before": "preflop"}, r"discard_before must name a street \(flop, turn, river\) or be None"),
        ({"discards": 0, "discard_before": "flop"}, "discards must be a whole number of at least 1, not 0"),
    ],
)
def test_bad_streets_are_config_errors(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        community_streets(NoLimit(2), **kwargs)  # type: ignore[arg-type]


def test_a_player_must_keep_a_hole_card() -> None:
    with pytest.raises(ConfigError, match=r"discards \(2\) must be fewer than hole_cards \(2\)"):
        community_card_game(NoLimit(2), hole_cards=2, blinds=(1, 2), high=HIGH, discard_before="flop", discards=2)


def test_all_in_players_discard_too() -> None:
    game = scripted(pineapple(1, 2), [50, 50], 1, "AsAh7c KdKc2d", PINEAPPLE_BOARD)
    game.all_in(1)
    game.call(0)
    assert game.draw_options().seat == 0  # type: ignore[union-attr]
    game.draw(0, parse_cards("7c"))
    game.draw(1, parse_cards("2d"))
    assert game.status_name == "exited"
    assert [e.seat for e in game.events if isinstance(e, CardsDiscarded)] == [0, 1]
    assert stacks(game) == [0, 100]  # four kings: the Kd and Kc with the board's Ks Kh


# --- bots play the new games: compulsory discards -----------------------------------------------------------


@pytest.mark.parametrize("name", ["pineapple", "crazy pineapple", "courchevel"])
def test_the_librarys_bots_play_the_new_games(name: str) -> None:
    from cardgame.play import bots

    players = ["seed-ai", "random", "calling-station", "pair-raiser", "tight-aggressive"]
    game = Game(variants.get(name), seats=len(players), seed=5, max_hands=12)
    for seat in range(len(players)):
        game.sit_down(f"p{seat}", 200, seat)
    game.start()
    game.play({seat: bots.get(b) for seat, b in enumerate(players)})
    funded = [p for p in game.table.players() if p.stack > 0]
    assert game.status_name == "exited" or len(funded) < 2  # played out, or waiting for a second player
    assert sum(stacks(game)) == 1000
    if name != "courchevel":
        thrown = [e for e in game.events if isinstance(e, CardsDiscarded)]
        assert thrown and all(len(e.cards) == 1 for e in thrown)


def test_a_passive_answer_to_a_compulsory_discard_throws_the_lowest_card() -> None:
    from cardgame.model.errors import BotError
    from cardgame.play.bot import to_discards
    from cardgame.stages import DrawOptions

    hole = parse_cards("Ah 4c Kd")
    assert to_discards("call", DrawOptions(0, hole, 1, 1, False)) == parse_cards("4c")
    assert to_discards("check", DrawOptions(0, hole, 3)) == ()
    with pytest.raises(BotError, match=r"not 1 to 1 of Ah 4c Kd"):
        to_discards([], DrawOptions(0, hole, 1, 1, False))
    with pytest.raises(BotError, match="not 1 to 1 of"):
        to_discards(["Ah", "Kd"], DrawOptions(0, hole, 1, 1, False))
