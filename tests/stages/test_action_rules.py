"""The betting round's rules (the conditions of its action triggers) agree with its menu (``legal_actions``).

For random games, stacks and play, at every decision each probe action is judged by the conditions of the
trigger its kind names (``stage.may``), without applying it: every action the menu allows passes them all, every one it
leaves out is refused with :class:`IllegalActionError`, and judging changes nothing. The menu's ``can_fold``
names a fold that gives up a call; a fold with a free check is accepted too (a fold in turn is binding), so a
fold passes exactly when no bring-in is forced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variants
from cardgame import Game
from cardgame.model.errors import IllegalActionError
from cardgame.model.legal import LegalActions
from cardgame.stages import BettingRound
from cardgame.stages.betting_round import Action

BUILDERS: dict[str, Callable[[], Any]] = {
    "no-limit": lambda: variants.no_limit_holdem(1, 2),
    "no-limit straddle": lambda: variants.no_limit_holdem(1, 2, straddles=(4,)),
    "pot-limit": lambda: variants.pot_limit_omaha(1, 2),
    "fixed-limit": lambda: variants.fixed_limit_holdem(2, 4),
    "fixed-limit capped heads-up": lambda: variants.fixed_limit_holdem(2, 4, heads_up_uncapped=False),
    "stud": lambda: variants.seven_card_stud(1, 2, 5, 10),
    "razz": lambda: variants.razz(1, 2, 5, 10),
}


def allowed(la: LegalActions, kind: str, amount: int | None, most: int) -> bool:
    """What the menu says of ``kind`` (to ``amount``)."""
    if amount is not None and kind in ("fold", "check", "call", "bring_in"):
        return False  # these put in what the rules set
    if kind == "fold":
        return not la.bring_in
    if kind == "check":
        return la.can_check
    if kind == "call":
        return la.call_amount > 0
    if kind == "bring_in":
        return la.bring_in > 0
    if not la.can_raise or (kind == "bet") != la.is_bet or amount is None:
        return False
    in_range = la.min_raise_to <= amount <= la.max_raise_to
    return in_range and (not la.amounts or amount in la.amounts or amount == most)


def judged(stage: BettingRound, action: Action) -> bool:
    """Whether the conditions of ``action``'s trigger hold (``stage.may``); when they do not, the refusal
    is the first failing rule's :class:`IllegalActionError`."""
    ok = stage.may(action.kind, action)
    if not ok:
        assert isinstance(stage.refusal(action.kind, action), IllegalActionError)
    return ok


def probes(la: LegalActions, most: int) -> list[tuple[str, int | None]]:
    out: list[tuple[str, int | None]] = [(k, None) for k in ("fold", "check", "call", "bring_in", "bet", "raise")]
    out += [("call", la.call_amount or 1), ("fold", 0)]
    sizes = {la.bet_to + 1, la.bet_to + 2, most, most + 1, *la.amounts}
    if la.can_raise:
        sizes |= {la.min_raise_to - 1, la.min_raise_to, (la.min_raise_to + la.max_raise_to) // 2, la.max_raise_to,
                  la.max_raise_to + 1}
    out += [(kind, size) for kind in ("bet", "raise") for size in sorted(sizes) if size > 0]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_name=st.sampled_from(sorted(BUILDERS)), stacks=st.lists(st.integers(1, 120), min_size=2, max_size=5),
       data=st.data())
def test_the_conditions_accept_exactly_what_the_menu_allows(game_name: str, stacks: list[int], data: Any) -> None:
    game = Game(BUILDERS[game_name](), seats=len(stacks), seed=data.draw(st.integers(0, 2**16)), max_hands=2)
    for seat, stack in enumerate(stacks):
        game.sit_down(f"p{seat}", stack, seat)
    game.start()
    for _ in range(80):
        la = game.legal_actions()
        stage = game.stage
        if la is None or not isinstance(stage, BettingRound):
            if game.draw_options() is not None or game.run_options() is not None or game.to_act is None:
                break
            continue
        hp = game.hand.by_seat[la.seat]
        most = hp.bet + hp.player.stack
        before = (stage.street_state.record(), [(p.bet, p.player.stack, p.folded) for p in game.hand.players],
                  len(game.events))  # type: ignore[union-attr]
        for kind, amount in probes(la, most):
            want = allowed(la, kind, amount, most)
            got = judged(stage, Action(la.seat, kind, amount, kind))
            assert got == want, (game_name, la, kind, amount)
        others = [s for s in game.hand.by_seat if s != la.seat]
        assert not judged(stage, Action(others[0], "fold", None, "fold"))  # out of turn
        after = (stage.street_state.record(), [(p.bet, p.player.stack, p.folded) for p in game.hand.players],
                 len(game.events))  # type: ignore[union-attr]
        assert after == before  # judging changed nothing
        legal = [(k, a) for k, a in probes(la, most) if allowed(la, k, a, most)]
        assert legal, la
        kind, amount = data.draw(st.sampled_from(legal))
        game.act(la.seat, kind, amount)
