"""The betting round alone, on hand-built contexts."""

from __future__ import annotations

import pytest

from cardgame.model.betting import FixedLimit, NoLimit, PotLimit
from cardgame.model.errors import IllegalActionError
from cardgame.model.events import ActionTaken, BetReturned
from cardgame.stages import BettingResult, BettingRound, ForcedBetsResult
from tests.helpers import make_context


def preflop(stacks: list[int], structure=None, blinds=(1, 2), **kw):  # type: ignore[no-untyped-def]
    """A betting round started alone: the blinds are put in and its input result built by hand."""
    ctx = make_context(stacks, **kw)
    hand = ctx.hand
    assert hand is not None
    order = hand.blind_order()
    pairs = zip(order, blinds, strict=False)
    posted = tuple((hp.seat, hp.put_in(min(amount, hp.player.stack))) for hp, amount in pairs)
    opener = order[len(blinds) % len(order)].seat  # left of the last blind (heads-up: the button)
    stage = BettingRound(structure or NoLimit(2), 0)
    top = max(blinds)  # the bet to call is the full blind, however short its poster; it counts as the bet
    stage.start(ctx, ForcedBetsResult(hand.button, posted, (), opener, top, top, 1))
    return ctx, stage


def act(stage: BettingRound, seat: int, action: str, amount: int | None = None) -> None:
    stage.handle("act", seat, action, amount)


def test_preflop_order_starts_left_of_the_big_blind_and_ends_with_the_option() -> None:
    ctx, stage = preflop([100, 100, 100, 100])  # button 3, SB 0, BB 1
    assert ctx.hand is not None and stage.to_act == 2
    act(stage, 2, "call")
    act(stage, 3, "call")
    act(stage, 0, "call")
    assert stage.to_act == 1  # big blind has the option
    la = stage.legal_actions()
    assert la is not None and la.can_check and not la.can_fold and la.min_raise_to == 4
    act(stage, 1, "check")
    assert stage.state == "round_closed"
    assert isinstance(stage.outcome.result, BettingResult)  # type: ignore[union-attr]
    assert ctx.hand.pot_total() == 8 and all(hp.bet == 0 for hp in ctx.hand.players)


def test_heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() -> None:
    ctx, stage = preflop([100, 100], button=1)
    hand = ctx.hand
    assert hand is not None
    assert hand.by_seat[1].contributed == 1 and hand.by_seat[0].contributed == 2
    assert stage.to_act == 1
    act(stage, 1, "call")
    act(stage, 0, "check")
    flop = BettingRound(NoLimit(2), 1)
    flop.start(ctx, None)
    assert flop.to_act == 0


def test_minimum_raise_is_the_last_full_raise() -> None:
    _ctx, stage = preflop([1000, 1000, 1000])
    act(stage, 2, "raise", 10)  # raise by 8
    la = stage.legal_actions()
    assert la is not None and la.min_raise_to == 18 and la.max_raise_to == 1000
    with pytest.raises(IllegalActionError, match="The amount 15 is below the minimum allowed 18"):
        act(stage, 0, "raise", 15)
    act(stage, 0, "raise", 30)
    la = stage.legal_actions()
    assert la is not None and la.min_raise_to == 50


def test_short_all_in_does_not_reopen_betting_to_a_player_who_acted() -> None:
    # seat 2 opens to 10, seat 0 (SB) calls, seat 1 (BB) is all-in for 14 (raise of 4 < 8).
    _ctx, stage = preflop([1000, 14, 1000])
    act(stage, 2, "raise", 10)
    act(stage, 0, "call")
    act(stage, 1, "all_in")
    la = stage.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 4
    assert not la.can_raise
    with pytest.raises(IllegalActionError, match="not reopened"):
        act(stage, 2, "raise", 30)
    act(stage, 2, "call")
    la = stage.legal_actions()
    assert la is not None and la.seat == 0 and not la.can_raise
    act(stage, 0, "call")
    assert stage.state == "round_closed"


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    # A bets 100; B all-in 150 (short); C all-in 220: A faces 120 more than he bet, a full raise.
    ctx = make_context([1000, 150, 220, 1000], button=3)
    hand = ctx.hand
    assert hand is not None
    stage = BettingRound(NoLimit(10), 1)
    stage.start(ctx, None)
    act(stage, 0, "bet", 100)
    act(stage, 1, "all_in")
    act(stage, 2, "all_in")
    act(stage, 3, "call")
    la = stage.legal_actions()
    assert la is not None and la.seat == 0 and la.can_raise and la.min_raise_to == 320


def test_uncalled_bet_is_returned() -> None:
    ctx, stage = preflop([100, 100, 100])
    act(stage, 2, "raise", 40)
    act(stage, 0, "fold")
    act(stage, 1, "fold")
    assert ctx.hand is not None
    returned = [e for e in ctx.log if isinstance(e, BetReturned)]
    assert returned == [BetReturned(2, 38)]
    assert ctx.hand.pot_total() == 5 and ctx.table.seats[2].stack == 98  # type: ignore[union-attr]
    assert stage.outcome.result.won_uncontested  # type: ignore[union-attr]


def test_fixed_limit_round_is_capped_at_four_bets() -> None:
    ctx, stage = preflop([100, 100, 100], FixedLimit(2, 4))
    act(stage, 2, "raise", 4)
    act(stage, 0, "raise", 6)
    act(stage, 1, "raise", 8)  # big blind + 3 raises = 4 bets: capped
    la = stage.legal_actions()
    assert la is not None and not la.can_raise and la.call_amount == 4
    with pytest.raises(IllegalActionError, match="raise cap is reached"):
        act(stage, 2, "raise", 10)
    act(stage, 2, "call")
    act(stage, 0, "call")
    assert stage.state == "round_closed" and ctx.hand is not None and ctx.hand.pot_total() == 24


def test_a_structure_subclass_with_its_own_cap_is_asked() -> None:
    """The base structure skips ``cap_reached`` (never capped); a subclass overriding it is called."""

    class CappedNoLimit(NoLimit):
        def cap_reached(self, st):  # type: ignore[no-untyped-def]
            return st.raises >= 2

    _ctx, stage = preflop([100, 100, 100], CappedNoLimit(2))
    act(stage, 2, "raise", 4)  # the big blind and one raise: capped at two
    la = stage.legal_actions()  # the small blind's
    assert la is not None and not la.can_raise and la.call_amount == 3
    with pytest.raises(IllegalActionError, match="raise cap is reached"):
        act(stage, 0, "raise", 8)


def test_fixed_limit_raise_size_is_fixed() -> None:
    _ctx, stage = preflop([100, 100, 100], FixedLimit(2, 4))
    la = stage.legal_actions()
    assert la is not None and (la.min_raise_to, la.max_raise_to) == (4, 4)
    with pytest.raises(IllegalActionError, match="above the maximum 4"):
        act(stage, 2, "raise", 6)


def test_pot_limit_maximum_is_the_pot_after_calling() -> None:
    _ctx, stage = preflop([1000, 1000, 1000], PotLimit(2))
    la = stage.legal_actions()
    assert la is not None and la.max_raise_to == 7  # 2 + (3 in pot + 2 to call)
    act(stage, 2, "raise", 7)
    la = stage.legal_actions()
    assert la is not None and la.seat == 0 and la.max_raise_to == 23  # 7 + (10 + 6)


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    ctx, stage = preflop([100, 100, 100])
    hand = ctx.hand
    assert hand is not None
    before = [(hp.seat, hp.bet, hp.contributed, hp.player.stack, hp.folded) for hp in hand.players]
    log_len = len(ctx.log)
    with pytest.raises(IllegalActionError, match=r"not seat 0's turn: seat 2 \(p2\) acts next") as info:
        act(stage, 0, "call")
    assert info.value.rule == "acting out of turn"
    with pytest.raises(IllegalActionError, match="Cannot check facing a bet of 2; allowed: fold, call 2"):
        act(stage, 2, "check")
    with pytest.raises(IllegalActionError, match="above the maximum 100 your stack allows"):
        act(stage, 2, "raise", 101)
    with pytest.raises(IllegalActionError, match="Unknown action 'jump'"):
        act(stage, 2, "jump")
    with pytest.raises(IllegalActionError, match="needs a whole-number amount"):
        act(stage, 2, "raise")
    with pytest.raises(IllegalActionError, match="would be a raise"):
        act(stage, 2, "bet", 10)
    after = [(hp.seat, hp.bet, hp.contributed, hp.player.stack, hp.folded) for hp in hand.players]
    assert after == before and len(ctx.log) == log_len and stage.to_act == 2


def test_nobody_may_raise_when_every_opponent_is_all_in() -> None:
    _ctx, stage = preflop([100, 100, 50])
    act(stage, 2, "all_in")
    act(stage, 0, "fold")
    la = stage.legal_actions()
    assert la is not None and la.seat == 1 and not la.can_raise and la.call_amount == 48


def test_round_with_fewer_than_two_able_to_act_ends_at_once() -> None:
    ctx = make_context([100, 100, 100])
    hand = ctx.hand
    assert hand is not None
    for hp in hand.players[1:]:
        hp.put_in(hp.player.stack)
        hp.bet = 0
    stage = BettingRound(NoLimit(2), 1)
    stage.start(ctx, None)
    assert stage.state == "round_closed" and not [e for e in ctx.log if isinstance(e, ActionTaken)]


def test_all_in_on_a_call_is_marked() -> None:
    ctx, stage = preflop([100, 100, 30])
    act(stage, 2, "all_in")
    act(stage, 0, "all_in")
    act(stage, 1, "call")
    events = [e for e in ctx.log if isinstance(e, ActionTaken)]
    assert events[-1] == ActionTaken(1, "call", 98, 100, True)


def _all_in_games(shortcut: bool, taken: list[bool]) -> list[object]:
    """Hold'em, stud and draw games with random all-ins, as played with or without the round that closes as it
    opens (``nobody_can_bet``; ``taken`` gets each answer of its test): each event with the hand's street, rounds,
    first to act and last aggressor as it was emitted, and what each step left (events, stacks, the stage's state)."""
    import random

    import variants
    from cardgame import Game
    from cardgame.stages import betting_round

    seen: list[object] = []
    original = betting_round._nobody_to_act
    def asked(hand: object) -> bool:
        taken.append(original(hand))  # type: ignore[arg-type]
        return taken[-1] and shortcut

    betting_round._nobody_to_act = asked  # the fused condition reads the module's name
    try:
        for code in ("NT", "F7S", "F2L3D", "PO"):
            rng = random.Random(code)
            game = Game(variants.get(code), seats=4, seed=5, max_hands=30)
            for i in range(4):
                game.sit_down(f"p{i}", rng.choice([20, 60, 200]), i)
            ctx = game.ctx
            ctx.hook(lambda event, ctx=ctx: seen.append((event, None if ctx.hand is None else (  # type: ignore[misc]
                ctx.hand.street, ctx.hand.rounds, ctx.hand.first_to_act, ctx.hand.last_aggressor))))
            game.start()
            while game.status_name == "running":
                hand = game.ctx.hand
                seen.append((code, len(game.events), game.events[-1:], game.table.total_chips(), game.dispatcher.state,
                             None if hand is None else (hand.street, hand.rounds, hand.first_to_act,
                                                        hand.last_aggressor)))
                if game.legal_actions() is None:
                    if game.draw_options() is not None:
                        game.draw(game.to_act, ())
                        continue
                    break
                legal = game.legal_actions()
                assert legal is not None
                choice = rng.random()
                if legal.can_raise and choice < 0.4:
                    game.act(legal.seat, "bet_raise", max(legal.amounts or (legal.max_raise_to,)))
                elif legal.bring_in:
                    game.act(legal.seat, "bring_in")
                elif legal.call_amount and choice < 0.55:
                    game.act(legal.seat, "fold")
                else:
                    game.act(legal.seat, "check_call")
            seen.append((code, game.status_name, [(p.seat, p.stack) for p in game.table.players()]))
    finally:
        betting_round._nobody_to_act = original
    return seen


def test_a_round_nobody_can_bet_in_closes_as_one_opened_and_settled_would() -> None:
    """After an all-in, the later rounds close at once (``nobody_can_bet``, ``close_at_once``) and leave the hand,
    the events and the result exactly as opening and settling them did; and the shortcut is taken."""
    taken: list[bool] = []
    fast = _all_in_games(True, taken)
    assert fast == _all_in_games(False, [])
    assert len(fast) > 200 and taken.count(True) > 10


@pytest.mark.parametrize("action", ["fold", "check", "call", "raise", "all_in", "check_call", "nonsense", None])
def test_an_action_once_the_round_closed_is_refused_as_nobody_to_act(action: object) -> None:
    """Once the round has closed, any action (a plain kind, an alias, anything else) gets the rule "no action
    pending", and nothing changes."""
    ctx, stage = preflop([100, 100], button=1)
    act(stage, 1, "call")
    act(stage, 0, "check")
    assert stage.state == "round_closed" and ctx.hand is not None
    before = [(hp.seat, hp.player.stack, hp.contributed, hp.folded) for hp in ctx.hand.players]
    with pytest.raises(IllegalActionError, match="Nobody is to act in this betting round") as caught:
        stage.on_act(0, action, 10 if action == "raise" else None)
    assert caught.value.rule == "no action pending" and stage.state == "round_closed"
    assert [(hp.seat, hp.player.stack, hp.contributed, hp.folded) for hp in ctx.hand.players] == before


def test_a_street_restored_from_its_record_gives_the_legal_actions_of_the_record() -> None:
    """The round keeps the player to act's legal actions for the decision; a street set from a record (a
    snapshot restored) forgets them, even for the same player to act, so the answer is the record's."""
    import attrs

    _ctx, stage = preflop([100, 100, 100])  # button 2, SB 0, BB 1: seat 2 acts first, facing 2
    before = stage.legal_actions()
    assert before is not None and before.seat == 2 and before.min_raise_to == 4
    record = stage.street_record
    assert record is not None and record.to_act == 2
    stage.street_record = attrs.evolve(record, min_raise=10)  # the same seat to act, a larger last raise
    after = stage.legal_actions()
    assert after is not None and after.seat == 2 and after.min_raise_to == 12
    act(stage, 2, "raise", 12)  # the actions are judged by the record's street too
    assert stage.to_act == 0
