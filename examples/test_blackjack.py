"""Tests of examples/blackjack.py: each stage alone (a hand-built context with a stacked shoe and a
hand-built previous result), whole rounds with exact chips, illegal actions refused with nothing
changed, chips conserved on random play, the machines against ``transitions``, and the proof that
the game needs nothing of poker.

Run: pytest examples/test_blackjack.py
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from blackjack import (
    Action,
    BetPlaced,
    Bets,
    Blackjack,
    CardDealt,
    Context,
    Deal,
    DealerPlayed,
    DealerPlays,
    Dealt,
    HandPlayed,
    HandSettled,
    HandsPlayed,
    HoleCardShown,
    Insurance,
    Insured,
    PlaceBets,
    Player,
    PlayerActed,
    PlayerHand,
    PlayerTurns,
    PlayHand,
    Rules,
    SatOut,
    Settle,
    Shoe,
    basic_strategy,
    by_round,
    cards,
    main,
    play_bot_rounds,
    score,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.engine import ConfigError, Done, Exit, Goto, IllegalActionError, Push, Restart, Stage, StageError
from cardgame.engine.verify import check_machine

HERE = Path(__file__).resolve().parent
STAGES: list[type[Stage[Any]]] = [PlaceBets, Deal, Insurance, PlayerTurns, PlayHand, DealerPlays, Settle]


def table(shoe: str = "", chips: tuple[int, ...] = (100,), rules: Rules | None = None, bank: int = 10_000) -> Context:
    """A context: players on seats 0, 1, ... with ``chips``, the house ``bank``, a shoe dealing ``shoe`` in order."""
    players = [Player(seat, f"p{seat}", n) for seat, n in enumerate(chips)]
    return Context(rules or Rules(), players, bank, Shoe.stacked(shoe))


def dealt(ctx: Context, hands: list[tuple[int, int, str]], dealer: str) -> Context:
    """``ctx`` with a round dealt: ``(seat, bet, cards)`` per hand (the bets already off the players' chips)."""
    ctx.round.hands = [PlayerHand(seat, bet, cards(text)) for seat, bet, text in hands]
    ctx.round.bets = {seat: bet for seat, bet, _ in hands}
    ctx.round.dealer = cards(dealer)
    return ctx


def state_of(ctx: Context, stage: Stage[Any]) -> tuple[Any, ...]:
    """Everything an action could change."""
    return (stage.state, stage.outcome, attrs.asdict(ctx.round), {s: p.chips for s, p in ctx.players.items()},
            ctx.bank, ctx.shoe.dealt, len(ctx.events))


# --- cards --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "total", "soft"), [
    ("Ah 6d", 17, True), ("Ah Ad 9c", 21, True), ("Ah 6d Tc", 17, False), ("Kh Qd 2c", 22, False),
    ("As Kd", 21, True), ("5h 6d", 11, False), ("Ac Ad Ah As", 14, True),
])
def test_score_counts_one_ace_as_eleven_when_it_does_not_bust(text: str, total: int, soft: bool) -> None:
    assert score(cards(text)) == (total, soft)


@pytest.mark.parametrize("text", ["1s", "Ax", "10h", "As,Kd"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(ConfigError, match="is not a card"):
        cards(text)


@pytest.mark.parametrize("bad", [{"min_bet": 0}, {"max_bet": 5}, {"decks": 0}, {"penetration": 1.5},
                                 {"blackjack_pays": (5, 2)}, {"max_hands": 0}, {"max_rounds": 0}, {"min_bet": 2.5}])
def test_bad_rules_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        Rules(**bad)


@pytest.mark.parametrize(("players", "bank"), [([("a", -1)], 100), ([("a", 2.5)], 100), ([(1, 10)], 100),
                                              ([("a", 10)], -5), ([("a", 10)], True)])
def test_bad_players_or_bank_are_refused(players: Any, bank: Any) -> None:
    with pytest.raises(ConfigError):
        Blackjack(players, bank=bank, seed=1)


def test_a_shuffled_shoe_holds_every_card_of_its_decks_and_places_the_cut_card() -> None:
    import random

    shoe = Shoe.shuffled(Rules(decks=2, penetration=0.5), random.Random(1))
    assert len(shoe.cards) == 104 and len(set(shoe.cards)) == 52 and shoe.cut == 52
    for _ in range(52):
        assert not shoe.past_cut
        shoe.draw()
    assert shoe.past_cut


# --- place bets ---------------------------------------------------------------------------------------


def test_bets_are_taken_in_seat_order_and_handed_on() -> None:
    ctx = table(chips=(100, 5, 200, 50))  # seat 1 cannot cover the minimum: it is not asked
    stage = PlaceBets()
    assert stage.start(ctx, None) is None
    assert stage.to_act == 0 and stage.allowed_actions() == ("bet", "sit_out")
    assert stage.handle("bet", 0, 25) is None
    assert stage.to_act == 2
    assert stage.handle("sit_out", 2) is None
    out = stage.handle("bet", 3, 50)
    assert out == Done(Bets(((0, 25), (3, 50)))) and stage.state == "bets_placed"
    assert [p.chips for p in ctx.players.values()] == [75, 5, 200, 0]
    assert ctx.events == [BetPlaced(0, 25), SatOut(2), BetPlaced(3, 50)]
    assert ctx.total_chips() == 10_355


def test_the_table_closes_when_nobody_can_bet_or_everyone_sits_out() -> None:
    stage = PlaceBets()
    assert stage.start(table(chips=(9, 0)), None) == Exit() and stage.state == "table_closed"
    assert stage.start(table(chips=(100,)), None) is None
    assert stage.handle("sit_out", 0) == Exit() and stage.state == "table_closed"


@pytest.mark.parametrize(("seat", "amount", "rule", "message"), [
    (1, 10, "on_turn", "It is not seat 1's turn to bet: seat 0 bets next"),
    (True, 10, "on_turn", "It is not seat True's turn"),
    (0, 2.5, "whole_chips", "A bet is a whole number of chips, not 2.5"),
    (0, "20", "whole_chips", "not '20'"),
    (0, True, "whole_chips", "not True"),
    (0, 5, "within_limits", "The bet 5 is outside the table limits, 10 to 500"),
    (0, 501, "within_limits", "outside the table limits"),
    (0, 61, "affordable", "Seat 0 has 60 chips, less than the bet 61"),
])
def test_a_bad_bet_is_refused_naming_the_rule_and_what_is_allowed(seat: object, amount: object, rule: str,
                                                                    message: str) -> None:
    ctx = table(chips=(60, 100))
    stage = PlaceBets()
    stage.start(ctx, None)
    before = state_of(ctx, stage)
    with pytest.raises(IllegalActionError, match=message) as info:
        stage.handle("bet", seat, amount)
    assert info.value.rule == rule and info.value.allowed == "seat 0 may bet 10 to 60 or sit out"
    assert str(info.value).endswith("; seat 0 may bet 10 to 60 or sit out.")
    assert state_of(ctx, stage) == before


def test_the_kernel_asks_and_explains_blackjack_s_rules() -> None:
    """The game writes no rule-finder of its own: the kernel's ``may`` answers "would this be legal?"
    and its ``refusal`` gives the game's own message, rule and allowed actions, as ``act`` raises them."""
    ctx = table(chips=(60, 100))
    stage = PlaceBets()
    stage.start(ctx, None)
    before = state_of(ctx, stage)
    assert stage.may("bet", Action("bet", 0, 10)) and stage.may("sit_out", Action("sit_out", 0))
    for action in (Action("bet", 1, 10), Action("bet", 0, 2.5), Action("bet", 0, 5), Action("bet", 0, 61)):
        assert not stage.may("bet", action)
        refusal = stage.refusal("bet", action)
        with pytest.raises(IllegalActionError) as info:
            stage.act(action)
        assert (str(refusal), refusal.rule, refusal.allowed) == (str(info.value), info.value.rule, info.value.allowed)
        assert str(refusal).endswith("; seat 0 may bet 10 to 60 or sit out.")
    assert state_of(ctx, stage) == before
    assert not hasattr(stage, "broken_rule") and not hasattr(stage, "permits")


def test_the_house_refuses_a_bet_it_could_not_cover() -> None:
    ctx = table(chips=(500, 500), bank=800)  # 8x the bets (four hands, each doubled) must be in the bank
    stage = PlaceBets()
    stage.start(ctx, None)
    stage.handle("bet", 0, 60)
    before = state_of(ctx, stage)
    with pytest.raises(IllegalActionError, match="house bank cannot cover a bet of 50") as info:
        stage.handle("bet", 1, 50)
    assert info.value.rule == "house_covers" and info.value.allowed == "seat 1 may bet 10 to 40 or sit out"
    assert state_of(ctx, stage) == before


# --- deal ------------------------------------------------------------------------------------------------


def test_the_deal_goes_round_twice_and_the_hole_card_is_hidden() -> None:
    ctx = table("Th 8s 7c 9h 8d Td", chips=(90, 80))
    out = Deal().start(ctx, Bets(((0, 10), (1, 20))))
    up = cards("7c")[0]
    assert out == Done(Dealt(up, False))
    assert [(h.seat, h.bet, str(h)) for h in ctx.round.hands] == [(0, 10, "Th 9h (19)"), (1, 20, "8s 8d (16)")]
    assert ctx.round.dealer == cards("7c Td")
    hole = ctx.events[-1]
    assert hole == CardDealt(None, 0, cards("Td")[0], face_up=False)
    assert hole.seen_by(0) == CardDealt(None, 0, None, face_up=False) and ctx.events[2].seen_by(0) == ctx.events[2]


@pytest.mark.parametrize(("dealer", "peek", "ending"), [
    ("Ah Kd", True, "dealer_blackjack"), ("Kh As", True, "dealer_blackjack"), ("Th 5d", True, "dealt"),
    ("Ah Kd", False, "dealt"), ("9h Td", True, "dealt"),
])
def test_the_dealer_peeks_under_an_ace_or_ten(dealer: str, peek: bool, ending: str) -> None:
    up, hole = dealer.split()
    ctx = table(f"9c {up} 9d {hole}", rules=Rules(peek=peek))
    stage = Deal()
    out = stage.start(ctx, Bets(((0, 10),)))
    assert stage.state == ending
    if ending == "dealer_blackjack":
        assert out == Goto("settle", Dealt(cards(up)[0], True))
        assert ctx.events[-1] == HoleCardShown(cards(hole)[0])
    else:
        assert out == Done(Dealt(cards(up)[0], False)) and not ctx.round.hole_shown


def test_with_an_ace_up_insurance_is_taken_before_the_peek() -> None:
    ctx = table("9c Tc Ah 9d 6h Kd", chips=(90, 80), rules=Rules(insurance=True))
    ctx.round.bets = {0: 10, 1: 20}
    deal = Deal()
    out = deal.start(ctx, Bets(((0, 10), (1, 20))))
    assert isinstance(out, Push) and isinstance(out.sub, Insurance) and deal.state == "offering_insurance"
    insurance = out.sub
    assert insurance.start(ctx, out.previous) is None and insurance.to_act == 0
    assert insurance.allowed_actions() == ("insure", "decline")
    assert insurance.handle("decline", 0) is None and insurance.to_act == 1
    done = insurance.handle("insure", 1, 10)
    assert done == Done(None) and ctx.round.insurance == {1: 10} and ctx.players[1].chips == 70
    assert deal.on_substage_result(None) is None  # it fires insured: the state it reaches gives the outcome
    assert deal.reached() == Goto("settle", Dealt(cards("Ah")[0], True))
    assert ctx.events[-3:] == [Insured(0, 0), Insured(1, 10), HoleCardShown(cards("Kd")[0])]
    Settle().start(ctx, Dealt(cards("Ah")[0], True))
    # 9c 9d loses its 10; Tc 6h loses its 20, and the 10 insured comes back with 20: seat 1 breaks even
    assert [p.chips for p in ctx.players.values()] == [90, 100]


@pytest.mark.parametrize(("seat", "amount", "rule", "message"), [
    (1, 5, "on_turn", "It is not seat 1's turn to insure: seat 0 answers next"),
    (0, 0, "whole_chips", "Insurance is a whole number of chips, at least 1, not 0"),
    (0, 2.5, "whole_chips", "not 2.5"),
    (0, 11, "at_most_half", "Insurance of 11 is more than half the bet of 21"),
    (0, 10, "affordable", "Seat 0 has 4 chips, less than 10"),
])
def test_bad_insurance_is_refused(seat: object, amount: object, rule: str, message: str) -> None:
    ctx = dealt(table(chips=(4, 50), rules=Rules(insurance=True)), [(0, 21, "9c 9d"), (1, 10, "Tc 6h")], "Ah Kd")
    stage = Insurance()
    stage.start(ctx, None)
    before = state_of(ctx, stage)
    with pytest.raises(IllegalActionError, match=message) as info:
        stage.handle("insure", seat, amount)
    assert info.value.rule == rule and info.value.allowed == "seat 0 may insure for 1 to 4 or decline"
    assert state_of(ctx, stage) == before


def test_insurance_is_lost_when_the_dealer_has_no_blackjack() -> None:
    ctx = dealt(table(chips=(90,), rules=Rules(insurance=True)), [(0, 10, "Tc 9d")], "Ah 7d")
    ctx.players[0].chips -= 5
    ctx.round.insurance = {0: 5}
    total = ctx.total_chips()
    Settle().start(ctx, DealerPlayed(18, False, False))
    assert ctx.events == [HandSettled(0, -1, "insurance", -5), HandSettled(0, 0, "win", 10)]
    assert ctx.players[0].chips == 105 and ctx.total_chips() == total


# --- play a hand ------------------------------------------------------------------------------------------


def hand_stage(hand: str, shoe: str = "", chips: int = 90, rules: Rules | None = None,
               dealer: str = "7c Td") -> tuple[Context, PlayHand]:
    ctx = dealt(table(shoe, chips=(chips, 100), rules=rules), [(0, 10, hand)], dealer)
    stage = PlayHand(0)
    assert stage.start(ctx, None) is None and stage.state == "playing"
    return ctx, stage


def test_hit_until_bust() -> None:
    ctx, stage = hand_stage("Th 2d", "3c 9s")
    assert stage.handle("hit", 0) is None and stage.hand.total == 15
    assert stage.handle("hit", 0) == Done(HandPlayed(0, "busted"))
    assert ctx.events == [PlayerActed(0, 0, "hit"), CardDealt(0, 0, cards("3c")[0]),
                          PlayerActed(0, 0, "hit"), CardDealt(0, 0, cards("9s")[0])]


def test_stand_and_twenty_one_end_the_hand() -> None:
    _, stage = hand_stage("Th 7d")
    assert stage.handle("stand", 0) == Done(HandPlayed(0, "stood"))
    _, stage = hand_stage("Th 7d", "4c")
    assert stage.handle("hit", 0) == Done(HandPlayed(0, "twenty_one"))


def test_a_blackjack_or_a_split_hand_s_second_card_is_dealt_at_once() -> None:
    ctx = dealt(table(), [(0, 10, "As Kd")], "7c Td")
    stage = PlayHand(0)
    assert stage.start(ctx, None) == Done(HandPlayed(0, "twenty_one"))
    ctx = dealt(table("3h"), [(0, 10, "8s")], "7c Td")
    ctx.round.hands[0].from_split = True
    assert stage.start(ctx, None) is None and str(stage.hand) == "8s 3h (11)"


def test_double_takes_one_card_and_doubles_the_stake() -> None:
    ctx, stage = hand_stage("5h 6c", "2d")
    assert stage.allowed_actions() == ("hit", "stand", "double")
    assert stage.handle("double", 0) == Done(HandPlayed(0, "doubled"))
    hand = stage.hand
    assert (hand.bet, hand.doubled, hand.total, ctx.players[0].chips) == (20, True, 13, 80)


def test_split_makes_two_hands_with_equal_bets() -> None:
    ctx, stage = hand_stage("8s 8c", "3h")
    assert stage.allowed_actions() == ("hit", "stand", "double", "split")
    assert stage.handle("split", 0) is None
    assert [(h.bet, str(h), h.from_split) for h in ctx.round.hands] == [(10, "8s 3h (11)", True),
                                                                         (10, "8c (8)", True)]
    assert ctx.players[0].chips == 80 and stage.state == "playing"


def test_two_ten_valued_cards_split_and_split_aces_take_one_card() -> None:
    ctx, stage = hand_stage("Ks Qc", "4h")
    stage.handle("split", 0)
    assert str(ctx.round.hands[0]) == "Ks 4h (14)"
    ctx, stage = hand_stage("As Ac", "5h")
    assert stage.handle("split", 0) == Done(HandPlayed(0, "split_aces"))
    assert not ctx.round.hands[0].blackjack


def test_an_ace_and_ten_after_a_split_is_twenty_one_not_blackjack() -> None:
    ctx, stage = hand_stage("As Ac", "Kh")
    assert stage.handle("split", 0) == Done(HandPlayed(0, "twenty_one"))
    assert ctx.round.hands[0].total == 21 and not ctx.round.hands[0].blackjack


def test_surrender_where_offered() -> None:
    _, stage = hand_stage("Th 6c", rules=Rules(surrender=True))
    assert stage.allowed_actions() == ("hit", "stand", "double", "surrender")
    assert stage.handle("surrender", 0) == Done(HandPlayed(0, "surrendered")) and stage.hand.surrendered


@pytest.mark.parametrize(("hand", "first", "action", "rule", "message", "allowed", "options"), [
    ("Th 2d", ("hit", "3c"), "double", "first_two_cards",
     "Seat 0 may double only on a hand's first two cards, and this hand has 3", "seat 0 may hit, stand", {}),
    ("Th 2d", ("hit", "3c"), "split", "first_two_cards", "may split only on a hand's first two cards", "", {}),
    ("Th 9d", None, "split", "is_pair", r"Only two cards of the same value can be split, not Th 9d \(19\)",
     "seat 0 may hit, stand, double", {}),
    ("Th 9d", None, "surrender", "surrender_offered", "This table does not offer surrender", "", {}),
    ("5h 6c", None, "double", "can_match_bet", "Seat 0 has 5 chips, less than the 10 it takes to double",
     "seat 0 may hit, stand", {"chips": 5}),
    ("8h 8c", ("split", "3d"), "split", "is_pair", r"Only two cards of the same value can be split, not 8h 3d",
     "seat 0 may hit, stand, double", {}),
])
def test_illegal_plays_are_refused_and_change_nothing(hand: str, first: tuple[str, str] | None, action: str,
                                                      rule: str, message: str, allowed: str,
                                                      options: dict[str, Any]) -> None:
    shoe = first[1] if first else ""
    ctx, stage = hand_stage(hand, shoe, **options)
    if first:
        stage.handle(first[0], 0)
    before = state_of(ctx, stage)
    with pytest.raises(IllegalActionError, match=message) as info:
        stage.handle(action, 0)
    assert info.value.rule == rule
    assert not allowed or info.value.allowed == allowed
    assert state_of(ctx, stage) == before


def test_the_wrong_player_is_refused() -> None:
    ctx, stage = hand_stage("Th 9d")
    before = state_of(ctx, stage)
    for seat in (1, "0", None, False):
        with pytest.raises(IllegalActionError, match=f"It is not seat {seat!r}'s turn: seat 0 plays hand 0") as info:
            stage.handle("stand", seat)
        assert info.value.rule == "on_turn" and info.value.allowed == "seat 0 may hit, stand, double"
    assert state_of(ctx, stage) == before


def test_split_limits_double_after_split_and_surrender_of_a_split_hand() -> None:
    rules = Rules(max_hands=2, double_after_split=False, surrender=True)
    ctx, stage = hand_stage("8s 8c", "8d", rules=rules)
    stage.handle("split", 0)  # 8s 8d now, and 8c waiting: two hands, the most allowed
    before = state_of(ctx, stage)
    assert stage.allowed_actions() == ("hit", "stand")
    for action, rule in (("split", "hands_left"), ("double", "double_allowed"), ("surrender", "not_split")):
        with pytest.raises(IllegalActionError) as info:
            stage.handle(action, 0)
        assert info.value.rule == rule
    assert state_of(ctx, stage) == before


def test_an_ended_hand_takes_no_more_actions() -> None:
    _, stage = hand_stage("Th 9d")
    stage.handle("stand", 0)
    with pytest.raises(StageError, match="already ended"):
        stage.handle("hit", 0)


# --- player turns: one sub-stage per hand -------------------------------------------------------------


def test_player_turns_pushes_a_sub_stage_per_hand_split_hands_next() -> None:
    ctx = dealt(table("3h 9c", chips=(90, 90)), [(0, 10, "8s 8c"), (1, 10, "Th 9d")], "7c Td")
    moves = {0: ["split", "stand", "stand"], 1: ["stand"]}
    turns = PlayerTurns()
    out = turns.start(ctx, Dealt(cards("7c")[0], False))
    played = []
    while isinstance(out, Push):  # what the dispatcher does: run the sub-stage, hand its result back
        sub = out.sub
        assert isinstance(sub, PlayHand) and turns.state == "playing_hands"
        result = sub.start(ctx, out.previous)
        played.append((sub.index, sub.hand.seat))
        while result is None:
            result = sub.handle(moves[sub.hand.seat].pop(0), sub.hand.seat)
        assert isinstance(result, Done)
        out = turns.on_substage_result(result.result) or turns.reached()  # as the dispatcher asks
    assert played == [(0, 0), (1, 0), (2, 1)]  # the split hand is played before the next seat's
    assert [str(h) for h in ctx.round.hands] == ["8s 3h (11)", "8c 9c (17)", "Th 9d (19)"]
    assert out == Done(HandsPlayed(3)) and turns.state == "all_played"


# --- dealer plays -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "shoe", "h17", "ending", "total"), [
    ("Ah 6d", "Tc", True, "stood", 17),  # soft 17: hits under H17 ...
    ("Ah 6d", "Tc", False, "stood", 17),  # ... stands under S17
    ("Th 6d", "9c", True, "busted", 25),
    ("Th 6d", "Ac", True, "stood", 17),
    ("2h 3d", "4c 5s 2c Ah", False, "stood", 17),
    ("Th 7d", "", True, "stood", 17),
    ("Ah Kd", "", True, "blackjack", 21),
])
def test_the_dealer_draws_to_seventeen(dealer: str, shoe: str, h17: bool, ending: str, total: int) -> None:
    ctx = dealt(table(shoe, rules=Rules(hits_soft_17=h17)), [(0, 10, "Th 8d")], dealer)
    stage = DealerPlays()
    out = stage.start(ctx, HandsPlayed(1))
    assert stage.state == ending and out == Done(DealerPlayed(total, total > 21, ending == "blackjack"))
    assert ctx.round.hole_shown and ctx.events[0] == HoleCardShown(cards(dealer)[1])
    assert len(ctx.round.dealer) == 2 + (h17 if dealer == "Ah 6d" else len(shoe.split()))


def test_the_dealer_draws_nothing_with_no_hand_to_beat() -> None:
    ctx = dealt(table(), [(0, 10, "Th 8d 9c")], "Th 5d")
    stage = DealerPlays()
    assert stage.start(ctx, HandsPlayed(0)) == Done(DealerPlayed(15, False, False))
    assert stage.state == "not_needed" and ctx.round.hole_shown


# --- settle ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "bet", "dealer", "outcome", "net", "options"), [
    ("As Kd", 10, "9h 8c", "blackjack", 15, {}),
    ("As Kd", 10, "9h 8c", "blackjack", 12, {"blackjack_pays": (6, 5)}),
    ("As Kd", 15, "9h 8c", "blackjack", 22, {}),  # 22.5 rounded down
    ("As Kd", 10, "Ah Kc", "push", 0, {}),
    ("Th 9d", 10, "Ah Kc", "lose", -10, {}),
    ("Th 6d 5c", 10, "Ah Kc", "lose", -10, {}),  # a dealer blackjack beats a three-card 21
    ("Th 9d", 10, "Th 8d", "win", 10, {}),
    ("Th 8d", 10, "Th 8d", "push", 0, {}),
    ("Th 7d", 10, "Th 8d", "lose", -10, {}),
    ("Th 6d 9c", 10, "Th 6d 9h", "lose", -10, {}),  # the player busts first
    ("Th 6d", 10, "Th 6d 9h", "win", 10, {}),
    ("Th 9d 2c", 20, "Th 9h", "win", 20, {}),  # a doubled stake
])
def test_settlement(hand: str, bet: int, dealer: str, outcome: str, net: int, options: dict[str, Any]) -> None:
    ctx = dealt(table(chips=(100,), rules=Rules(**options)), [(0, bet, hand)], dealer)
    total = ctx.total_chips()
    Settle().start(ctx, DealerPlayed(score(cards(dealer))[0], False, False))
    assert ctx.events == [HandSettled(0, 0, outcome, net)]
    assert ctx.players[0].chips == 100 + bet + net and ctx.bank == 10_000 - net
    assert ctx.total_chips() == total and ctx.round.settled


def test_settling_a_surrender_and_a_split_ace_and_ten() -> None:
    ctx = dealt(table(chips=(0,)), [(0, 15, "Th 6d"), (0, 10, "As Kd")], "9h 8c")
    ctx.round.hands[0].surrendered = True
    ctx.round.hands[1].from_split = True
    Settle().start(ctx, DealerPlayed(17, False, False))
    assert ctx.events == [HandSettled(0, 0, "surrender", -8), HandSettled(0, 1, "win", 10)]
    assert ctx.players[0].chips == 7 + 20


@pytest.mark.parametrize(("max_rounds", "cut", "ending"), [(None, 10, Restart()), (1, 10, Exit()), (None, 0, Exit()),
                                                           (2, 10, Restart())])
def test_settle_restarts_or_exits(max_rounds: int | None, cut: int, ending: Any) -> None:
    ctx = dealt(table(rules=Rules(max_rounds=max_rounds)), [(0, 10, "Th 9d")], "9h 8c")
    ctx.shoe.cut = cut
    stage = Settle()
    assert stage.start(ctx, DealerPlayed(17, False, False)) == ending
    assert stage.state == ("session_over" if ending == Exit() else "next_round") and ctx.rounds_played == 1


# --- whole rounds ---------------------------------------------------------------------------------------

#: Round 1: p0 Th 9h stands on 19; p1 splits 8s 8d, doubles 8s 3c to Kh (21), stands on 8d 9s; the dealer
#: stands on 7c Td. Round 2: p0's As Kd is a blackjack; p1 hits Tc 6h to 21 with 5s; the dealer (Ah, 9d under:
#: no blackjack) stands on soft 20. Round 3: the dealer peeks a blackjack under Kh: p0's 9c 9d loses, p1's
#: Ac Kc pushes, before anyone plays.
SHOE = "Th 8s 7c 9h 8d Td 3c Kh 9s  As Tc Ah Kd 6h 9d 5s  9c Ac Kh 9d Kc As"


def three_rounds() -> Blackjack:
    game = Blackjack([("ann", 100), ("bob", 200)], bank=1000, shoe=Shoe.stacked(SHOE), rules=Rules(max_rounds=3))
    game.start()
    return game


def test_three_scripted_rounds_end_with_exact_chips() -> None:
    game = three_rounds()
    script: list[tuple[Any, ...]] = [
        ("bet", 0, 10), ("bet", 1, 20), ("stand", 0), ("split", 1), ("double", 1), ("stand", 1),
        ("bet", 0, 10), ("bet", 1, 10), ("hit", 1),
        ("bet", 0, 10), ("bet", 1, 10),
    ]
    chips_after = {5: {0: 110, 1: 240}, 8: {0: 125, 1: 250}}
    for i, (kind, *args) in enumerate(script):
        game.act(kind, *args)
        if i in chips_after:
            assert game.chips() == chips_after[i], i
    assert game.chips() == {0: 115, 1: 250} and game.ctx.bank == 935 and game.ctx.total_chips() == 1300
    assert not game.running and game.dispatcher.status == "exited" and game.ctx.rounds_played == 3
    settled = [(e.seat, e.hand, e.outcome, e.net) for e in game.ctx.events if isinstance(e, HandSettled)]
    assert settled == [(0, 0, "win", 10), (1, 1, "win", 40), (1, 2, "push", 0),
                       (0, 0, "blackjack", 15), (1, 1, "win", 10),
                       (0, 0, "lose", -10), (1, 1, "push", 0)]


def test_illegal_actions_through_the_game_change_nothing() -> None:
    game = three_rounds()
    game.bet(0, 10)
    game.bet(1, 20)

    def unchanged(kind: str, *args: object, match: str) -> None:
        before = (game.stage, state_of(game.ctx, game.stage))
        with pytest.raises(IllegalActionError, match=match):
            game.act(kind, *args)
        assert (game.stage, state_of(game.ctx, game.stage)) == before

    unchanged("hit", 1, match="It is not seat 1's turn: seat 0 plays hand 0")
    unchanged("split", 0, match="Only two cards of the same value can be split")
    unchanged("bet", 0, 10, match="The play hand stage does not take 'bet'; it takes hit, stand, double, split")
    game.stand(0)
    unchanged("hit", 0, match="It is not seat 0's turn: seat 1 plays hand 1")  # hit after stand
    game.split(1)
    unchanged("split", 1, match=r"Only two cards of the same value can be split, not 8s 3c \(11\)")
    unchanged("surrender", 1, match="This table does not offer surrender")
    game.double(1)  # 8s 3c Kh: 21; then 8d 9s
    unchanged("double", 0, match="It is not seat 0's turn: seat 1 plays hand 2")
    game.stand(1)
    assert isinstance(game.stage, PlaceBets)  # the round is settled: 19 vs 17 wins, 21 wins, 8d 9s pushes
    unchanged("hit", 1, match="place bets stage does not take 'hit'; it takes bet, sit_out")  # hit after stand
    unchanged("bet", 0, 1000, match="outside the table limits")


def test_a_seeded_session_replays_exactly() -> None:
    def session() -> tuple[dict[int, int], int, int, list[Any]]:
        game = Blackjack([("a", 300), ("b", 300)], rules=Rules(max_rounds=12, surrender=True), seed=11, bank=5000)
        play_bot_rounds(game, 10)
        return game.chips(), game.ctx.bank, game.ctx.rounds_played, game.ctx.events

    first = session()
    assert first == session()
    chips, bank, rounds, events = first
    assert rounds == 12 and sum(chips.values()) + bank == 5600
    assert (chips, bank) == ({0: 315, 1: 280}, 5005)
    assert sum(isinstance(e, HandSettled) for e in events) >= 24


def test_the_basic_strategy_bot() -> None:
    def play(hand: str, up: str, allowed: tuple[str, ...] = ("hit", "stand", "double", "split")) -> str:
        return basic_strategy(cards(hand), cards(up)[0], allowed)

    assert play("8s 8c", "Th") == "split" and play("Ts Tc", "6h") == "stand" and play("5s 5c", "6h") == "double"
    assert play("9s 9c", "7h") == "stand" and play("As Ac", "Ah") == "split"
    assert play("6s 5c", "Ah") == "double" and play("6s 4c", "Th") == "hit"
    assert play("Ts 6c", "Th") == "hit" and play("Ts 6c", "6h") == "stand" and play("Ts 2c", "3h") == "hit"
    assert play("Ts 6c", "Th", ("hit", "stand", "surrender")) == "surrender"
    assert play("As 7c", "4h") == "double" and play("As 7c", "4h", ("hit", "stand")) == "stand"
    assert play("As 7c", "9h") == "hit" and play("As 7c", "8h") == "stand" and play("As 8c", "6h") == "stand"
    assert play("As 2c 3d", "5h", ("hit", "stand")) == "hit"


def test_the_demo_narrates_and_prints_results(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rounds", "60", "--seed", "3", "--players", "2", "--show", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Round 1: bot0 bets 10; bot1 bets 10; bot0 gets ")
    assert "the dealer gets a card face down" in lines[0] and "the dealer shows " in lines[0]
    assert lines[1].startswith("Round 2: ") and lines[2].startswith("60 rounds from ")
    assert lines[3].startswith("  bot0: ") and lines[4].startswith("  bot1: ") and lines[5].startswith("  house bank: ")


def test_events_describe_themselves_and_rounds_are_cut_at_the_settlement() -> None:
    game = three_rounds()
    game.bet(0, 10)
    game.sit_out(1)
    game.stand(0)  # 17 against the dealer's 8s 9h
    names = {0: "ann"}
    rounds = by_round(game.ctx.events)
    assert len(rounds) == 1 and [e.describe(names) for e in rounds[0]] == [
        "ann bets 10", "seat 1 sits out", "ann gets Th", "the dealer gets 8s", "ann gets 7c",
        "the dealer gets a card face down", "ann stands", "the dealer shows 9h", "ann: push +0",
    ]


# --- chips are conserved -------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), data=st.data(),
       rules=st.builds(Rules, hits_soft_17=st.booleans(), blackjack_pays=st.sampled_from([(3, 2), (6, 5)]),
                       peek=st.booleans(), max_hands=st.integers(1, 4), double_after_split=st.booleans(),
                       surrender=st.booleans(), insurance=st.booleans(), decks=st.integers(1, 2),
                       max_rounds=st.just(8)))
def test_chips_are_conserved_whatever_is_played(seed: int, players: int, data: st.DataObject, rules: Rules) -> None:
    game = Blackjack([(f"p{i}", 60) for i in range(players)], rules=rules, bank=3000, seed=seed)
    total = game.ctx.total_chips()
    game.start()
    while game.running:
        seat, allowed = game.to_act, game.allowed()
        assert seat is not None and allowed
        if data.draw(st.integers(0, 9)) == 0:  # now and then something illegal, refused with nothing changed
            before = state_of(game.ctx, game.stage)
            kind = data.draw(st.sampled_from(["hit", "stand", "double", "split", "surrender", "bet", "sit_out",
                                              "insure", "decline"]))
            who = data.draw(st.sampled_from([seat, seat + 1, -1]))
            args = (data.draw(st.sampled_from([0, 5, 10, 61, 10**6])),) if kind in ("bet", "insure") else ()
            stage = game.stage
            low, high = stage.bet_range() if isinstance(stage, PlaceBets) else (1, 0)  # (what a bet may be)
            if kind not in allowed or who != seat or kind == "insure" or (args and not low <= args[0] <= high):
                with pytest.raises(IllegalActionError):
                    game.act(kind, who, *args)
                assert state_of(game.ctx, game.stage) == before
                continue
        kind = data.draw(st.sampled_from(allowed))
        stage = game.stage
        if kind == "bet":
            assert isinstance(stage, PlaceBets)
            low, high = stage.bet_range()
            game.act(kind, seat, data.draw(st.integers(low, high)))
        elif kind == "insure":
            assert isinstance(stage, Insurance)
            game.act(kind, seat, data.draw(st.integers(1, min(stage.bet // 2, stage.chips))))
        else:
            game.act(kind, seat)
        assert game.ctx.total_chips() == total
        assert min(game.chips().values()) >= 0 and game.ctx.bank >= 0
    assert game.dispatcher.status == "exited" and game.ctx.round.on_table() == 0


# --- the machines against transitions -------------------------------------------------------------------


@pytest.mark.parametrize("cls", STAGES, ids=lambda cls: cls.__name__)
def test_the_machines_agree_with_transitions(cls: type[Stage[Any]]) -> None:
    """The checks the library runs on poker's stages (``cardgame.engine.verify``), run on these: the compiled
    table, the generated functions and the generated ``start`` against ``transitions`` on random inputs (more
    of them: an action passes four or five random conditions before its callbacks run)."""
    check_machine(cls, sequences=3000)


@pytest.mark.parametrize("cls", STAGES, ids=lambda cls: cls.__name__)
def test_every_refusal_names_a_condition_of_the_machine(cls: type[Stage[Any]]) -> None:
    conditions = {c.func for e in cls.machine.events.values() for ts in e.transitions.values() for t in ts
                  for c in t.conditions}
    refusals = getattr(cls, "refusals", {})
    assert set(refusals) <= conditions
    action_triggers = set(cls.events) & set(cls.machine.events)
    judged = {c.func for t in action_triggers for ts in cls.machine.events[t].transitions.values() for tr in ts
              for c in tr.conditions}
    assert judged <= set(refusals), judged - set(refusals)


# --- no poker -------------------------------------------------------------------------------------------


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import"
            found.add(node.module or "")
    return found


def test_the_game_imports_only_the_kernel_attrs_and_the_standard_library() -> None:
    modules = imported_modules(HERE / "blackjack.py")
    assert "cardgame.engine" in modules
    for name in modules:
        top = name.split(".")[0]
        assert name == "cardgame.engine" or top == "attrs" or top in sys.stdlib_module_names, name


def test_the_kernel_imports_nothing_outside_itself() -> None:
    import cardgame.engine

    for path in Path(cardgame.engine.__file__).parent.glob("*.py"):
        for name in imported_modules(path):
            top = name.split(".")[0]
            assert name.startswith("cardgame.engine") or top in {"attrs", "transitions"} \
                or top in sys.stdlib_module_names, (path.name, name)


def test_a_round_plays_with_no_poker_module_loaded() -> None:
    """In a fresh interpreter, ``cardgame`` is an empty package (its ``__init__``, which loads poker,
    does not run): the kernel and the game play a shoe, and no other ``cardgame`` module is loaded."""
    code = (
        "import sys, types, importlib.util\n"
        "spec = importlib.util.find_spec('cardgame')\n"
        "package = types.ModuleType('cardgame'); package.__path__ = list(spec.submodule_search_locations)\n"
        "sys.modules['cardgame'] = package\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "import blackjack\n"
        "game = blackjack.Blackjack([('a', 100)], seed=1, rules=blackjack.Rules(max_rounds=5))\n"
        "blackjack.play_bot_rounds(game, 10)\n"
        "assert game.ctx.rounds_played == 5\n"
        "print(sorted(m for m in sys.modules if m.startswith('cardgame')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=HERE.parent, check=False)
    assert done.returncode == 0, done.stderr
    loaded = ast.literal_eval(done.stdout)
    assert loaded and all(name == "cardgame" or name.startswith("cardgame.engine") for name in loaded), loaded
