"""The stage list of an ACPC game: standard stages, with the ACPC betting rules where they differ.

An ACPC game is played with the library's own ``WaitForPlayers``, ``DealHole``, ``DealBoard``
(no burn cards), ``Showdown`` and ``EndHand``, plus three pieces of this module:

* :class:`AcpcBlinds` posts each position's ``blind`` as a live bet (any amounts, so the
  heads-up "reverse blinds" ``10 5`` and Kuhn's ``1 1 1`` alike) and names ``firstPlayer``'s
  position as the first to act.
* :class:`AcpcLimit` and :class:`AcpcNoLimit` are one round's betting: ``raiseSize`` (limit) or
  the largest blind as the minimum (no-limit), and ``maxRaises``, which counts every raise and bet
  of the round (the blinds are no raise). A no-limit raise must raise by at least the largest raise
  of the round so far; after an all-in short of that the minimum stays where the reference dealer
  keeps it, and any raise reopens the betting (the ACPC rules have no short all-in rule).
* :class:`AcpcBettingRound` is a :class:`~cardgame.stages.BettingRound` whose legal actions are
  the reference dealer's: raising needs two players who are neither folded nor all-in and chips
  above the bet, and a raise is never capped at what an opponent can match.

Positions are the hand's players in order from the button's left (``hand.players``), so
position ``n - 1`` is the button, as in the ACPC definitions.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.matchstate import check_game
from cardgame.engine import Done
from cardgame.model.betting import BettingStructure, RaiseChanges
from cardgame.model.events import ForcedBetPosted
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.legal import LegalActions
from cardgame.model.street import Street
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from cardgame.stages.results import ForcedBetsResult, HandOpened

__all__ = ["AcpcBettingRound", "AcpcBlinds", "AcpcLimit", "AcpcNoLimit", "FirstPosition", "acpc_stages"]


@attrs.frozen
class FirstPosition:
    """An action order (:data:`~cardgame.model.action_order.Order`): the round starts at ``position``
    (0-based; ``firstPlayer - 1``), skipping players who folded or are all-in."""

    position: int

    def __call__(self, hand: Hand) -> int:
        return self.position % len(hand.players)


@attrs.frozen
class AcpcLimit(BettingStructure):
    """One limit round: each raise is ``raise_size`` over the bet (all-in if the stack is short);
    at most ``max_raises`` raises (``None``: no cap)."""

    name: ClassVar[str] = "fixed-limit"
    code: ClassVar[str] = "F"
    raise_size: int
    max_raises: int | None = None

    @property
    def min_bet(self) -> int:  # type: ignore[override]
        return self.raise_size

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        to = st.bet_to + self.raise_size
        return to, to

    def is_full_raise(self, st: Street, increment: int, street: int) -> bool:
        return True  # every raise counts towards maxRaises

    def reopens(self, st: Street, acted_at: int, street: int) -> bool:
        return True

    def cap_reached(self, st: Street) -> bool:
        return self.max_raises is not None and st.raises >= self.max_raises


@attrs.frozen
class AcpcNoLimit(BettingStructure):
    """One no-limit round: bet at least ``big_blind``, raise by at least the round's largest raise
    (as the reference dealer tracks it), up to all-in; at most ``max_raises`` raises."""

    name: ClassVar[str] = "no-limit"
    code: ClassVar[str] = "N"
    min_bet: int
    max_raises: int | None = None

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]:
        return st.bet_to + max(st.min_raise, 1), hp.bet + hp.player.stack

    def is_full_raise(self, st: Street, increment: int, street: int) -> bool:
        return True

    def reopens(self, st: Street, acted_at: int, street: int) -> bool:
        return True

    def raise_changes(self, st: Street, raiser: HandPlayer, to: int, street: int) -> RaiseChanges:
        # The reference's next minimum raise-to is max(the last minimum, to + increment): kept as the
        # raise over the new bet, ``min_raise`` (already the larger of its old value and this increment).
        increment = to - st.bet_to
        return RaiseChanges(max(st.min_raise - increment, increment), st.bet_size, st.capped, st.short_all_ins)

    def cap_reached(self, st: Street) -> bool:
        return self.max_raises is not None and st.raises >= self.max_raises


Structure = AcpcLimit | AcpcNoLimit


def acpc_legal(structure: Structure, st: Street, hp: HandPlayer, street: int) -> LegalActions:
    """The reference dealer's legal actions for ``hp``, the player to act (raise-to amounts are street totals)."""
    bet_to = st.bet_to
    stack = hp.player.stack
    owed = bet_to - hp.bet
    most = hp.bet + stack
    acting = 0
    for other in st.players:
        if not other.folded and not other.all_in:
            acting += 1
    can_raise = acting >= 2 and most > bet_to and not structure.cap_reached(st)
    lo = hi = 0
    if can_raise:
        lo, hi = structure.raise_bounds(st, hp, street)
        lo, hi = min(lo, most), min(hi, most)
    return LegalActions(hp.seat, owed > 0, owed <= 0, min(owed, stack), can_raise, lo, hi, bet_to, stack)


class AcpcBettingRound(BettingRound):
    """A betting round with the reference dealer's legal actions (see :func:`acpc_legal`)."""

    name: ClassVar[str] = "betting round"
    __slots__ = ()

    def legal_actions(self) -> LegalActions | None:
        st = self.street_state
        if st is None or st.to_act is None or self.state != "waiting_for_action":
            return None
        la = self._legal  # kept until the next action, as the base class keeps its own
        if la is None or la.seat != st.to_act.seat:
            structure = self.structure
            assert isinstance(structure, AcpcLimit | AcpcNoLimit)
            la = self._legal = acpc_legal(structure, st, st.to_act, self.street)
        return la


class AcpcBlinds(PokerStage):
    """Posts ``blinds[p]`` for position ``p`` as a live bet (a short stack posts what it has and is
    all-in) and names ``first`` (0-based position) to act first; the bet to call is the largest blind."""

    name: ClassVar[str] = "forced bets"
    takes: ClassVar[tuple[type, ...]] = (HandOpened,)
    gives: ClassVar[tuple[type, ...]] = (ForcedBetsResult,)
    ends: ClassVar[dict[str, str]] = {"done": "posts"}
    __slots__ = ("_posted", "blinds", "first")

    def __init__(self, blinds: tuple[int, ...], first: int) -> None:
        super().__init__()
        self.blinds = blinds
        self.first = first
        self._posted: ForcedBetsResult | None = None  # what the last on_start posted

    def on_start(self) -> None:
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None, "blinds are posted inside a hand"
        posted: list[tuple[int, int]] = []
        top = 0
        for hp, amount in zip(hand.players, self.blinds, strict=False):
            if amount:
                paid = hp.put_in(min(amount, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, "blind", paid, hp.all_in))
                posted.append((hp.seat, paid))
                top = max(top, amount)
        opener = hand.players[self.first % len(hand.players)].seat
        self._posted = ForcedBetsResult(hand.button, tuple(posted), (), opener, top, top, 0)  # the blinds are no raise

    def posts(self) -> Done:
        """The ending of ``done``: the blinds posted and who opens."""
        return Done(self._posted)


def _street_names(game: GameDef) -> tuple[str, ...]:
    if game.num_rounds == 4 and game.num_board_cards == (0, 3, 1, 1):
        return ("preflop", "flop", "turn", "river")
    return tuple(f"round {r + 1}" for r in range(game.num_rounds))


def acpc_stages(game: GameDef) -> list[PokerStage]:
    """The stage list that plays ``game`` (one hand per pass; positions are seats from the button's left)."""
    game = check_game(game)
    names = _street_names(game)
    caps = game.raise_caps
    stages: list[PokerStage] = [
        WaitForPlayers(game.num_players, max_players=game.num_players, deck=game.deck),
        AcpcBlinds(game.blinds, game.first_player[0] - 1),
        DealHole(game.num_hole_cards),
    ]
    for r in range(game.num_rounds):
        if game.num_board_cards[r]:
            stages.append(DealBoard(game.num_board_cards[r], names[r] if r else "board", burn=False))
        structure: Structure
        if game.raise_sizes is not None:
            structure = AcpcLimit(game.raise_sizes[r], caps[r])
        else:
            structure = AcpcNoLimit(game.big_blind, caps[r])
        stages.append(AcpcBettingRound(structure, r, names[r], order=FirstPosition(game.first_player[r] - 1)))
    stages += [Showdown(game.evaluator), EndHand()]
    return stages
