"""One betting round: players act in turn until every live player has matched the bet or folded."""

from __future__ import annotations

from typing import Any, ClassVar

from cardgame.model import legal
from cardgame.model.action_order import Order
from cardgame.model.betting import BettingStructure, LegalActions
from cardgame.model.errors import IllegalActionError
from cardgame.model.events import ActionTaken, BetReturned
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.legal import matchable
from cardgame.stages.base import PokerStage
from cardgame.stages.results import BettingResult, BringInResult, ForcedBetsResult, HandOpened

__all__ = ["ACTIONS", "BettingResult", "BettingRound"]

#: Action names ``act`` accepts. ``check_call``, ``bet_raise`` and ``bring_in`` are PHH's ``cc``,
#: ``cbr`` and ``pb``.
ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in", "check_call", "bet_raise", "bring_in")
_ACTIONS = frozenset(ACTIONS)
_ALIASES = frozenset(("check_call", "bet_raise", "all_in"))  # names for one of the plain actions
_NO_AMOUNT = frozenset(("fold", "check", "call", "check_call", "bring_in"))  # actions that take no amount


class BettingRound(PokerStage):
    """A betting round under ``structure`` for street number ``street`` (0 is the first).

    Action order: the first round of a hand with live blinds starts left of the last blind
    (heads-up: the button), a stud third street with the bring-in; any other round starts
    where ``order`` says (default: the first live player left of the button; stud games pass
    :func:`~cardgame.model.action_order.best_showing_high`). Players act until everyone live has
    acted and matched the bet, or is all-in; then an uncalled bet is returned and bets go into
    the pot. A player alone with chips behind who has matched every bet does not act.
    Event: ``act(seat, action, amount=None)``.
    """

    name: ClassVar[str] = "betting round"
    states: ClassVar[list[str]] = ["ready", "waiting_for_action", "round_closed", "hand_won"]
    # ``find_next_actor`` (prepare) names the player to act; the conditions then read the hand.
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "hand_won", "prepare": ["open_round", "find_next_actor"],
         "conditions": "one_player_left", "after": "award_to_last_player"},
        {"trigger": "begin", "source": "ready", "dest": "round_closed", "conditions": "round_complete",
         "after": "close_round"},
        {"trigger": "begin", "source": "ready", "dest": "waiting_for_action"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": "hand_won", "prepare": "find_next_actor",
         "conditions": "one_player_left", "after": "award_to_last_player"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": "round_closed", "conditions": "round_complete",
         "after": "close_round"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": None},
    ]
    events: ClassVar[tuple[str, ...]] = ("act",)
    takes: ClassVar[tuple[type, ...]] = (HandOpened, ForcedBetsResult, BringInResult, BettingResult)
    gives: ClassVar[tuple[type, ...]] = (BettingResult,)
    goes_to: ClassVar[tuple[str, ...]] = ("showdown",)
    __slots__ = ("_from", "_legal", "_live", "open_pair_doubles", "order", "street", "street_name", "structure")

    def __init__(
        self,
        structure: BettingStructure,
        street: int = 0,
        street_name: str = "",
        *,
        order: Order | None = None,
        open_pair_doubles: bool = False,
    ) -> None:
        super().__init__()
        self.order = order
        self.open_pair_doubles = open_pair_doubles
        self._legal: LegalActions | None = None
        self._from = 0  # index in hand.players where the search for the next player to act starts
        self._live = 2  # live players, as the last search for the next player to act counted them
        self.structure = structure
        self.street = street
        default = ("preflop", "flop", "turn", "river")[street] if 0 <= street < 4 else f"street {street + 1}"
        self.street_name = street_name or default

    # --- conditions and callbacks ---------------------------------------------------------------
    def open_round(self) -> None:
        """Set the street up; the first player to consider is the opener the previous stage named
        (left of the last blind, the bring-in), else the one ``order`` gives, else left of the button."""
        hand = self.ctx.hand
        assert hand is not None, "betting runs inside a hand"
        hand.street = self.street_name
        hand.last_aggressor = None
        self._legal = None
        if self.open_pair_doubles and _open_pair(hand):
            hand.big_bet_option = True
        opening = self.structure.opening_bet(self.street)
        if hand.min_raise < opening:
            hand.min_raise = opening
        previous = self.previous
        seat = previous.opener if type(previous) is ForcedBetsResult else (
            previous.seat if type(previous) is BringInResult else None)
        if seat is not None:
            self._from = hand.players.index(hand.by_seat[seat])
        else:
            self._from = 0 if self.order is None else self.order(hand)

    def find_next_actor(self) -> None:
        """Name the first player from ``_from`` on (wrapping) who still has to act, or nobody.

        That is the first player neither folded nor all-in who is short of the bet or has not
        acted this street -- the latter only while someone else can still act, and nobody acts
        once fewer than two players are live. One pass, stopping as soon as the answer is known.
        """
        hand = self.ctx.hand
        assert hand is not None
        start = self._from
        bet_to = hand.bet_to
        live = actors = 0
        first: HandPlayer | None = None
        for hp in hand.ring[start : start + len(hand.players)]:
            if hp.folded:
                continue
            live += 1
            if hp.all_in:
                continue
            if first is not None:  # a second player who can act: the first one found acts now
                hand.to_act = first
                return
            actors += 1
            if hp.bet < bet_to or hp.acted_at is None:
                first = hp
                if actors > 1:  # and another before them could act
                    hand.to_act = first
                    return
        # at most one player can act: they act only if short of the bet, and only against another live hand
        hand.to_act = first if first is not None and live >= 2 and first.bet < bet_to else None
        self._live = live  # the whole table was counted: nobody is to act, or only one player can

    def one_player_left(self) -> bool:
        """Everyone else folded (read after ``find_next_actor``, which counted the live players)."""
        hand = self.ctx.hand
        assert hand is not None
        return hand.to_act is None and self._live < 2

    def round_complete(self) -> bool:
        """Everyone live has acted and matched the bet, or is all-in (nobody is left to act)."""
        hand = self.ctx.hand
        assert hand is not None
        return hand.to_act is None

    def close_round(self) -> None:
        """Return an uncalled bet, move bets into the pot and hand on who is still in."""
        self.finish(self._settle_street())

    def award_to_last_player(self) -> None:
        """Every player but one folded: the rest of the hand has nothing to do but the showdown."""
        self.goto("showdown", self._settle_street())

    def _settle_street(self) -> BettingResult:
        """Return the part of the top bet nobody called, clear the street's bets and hand on who is
        still in and whether two of them can still bet."""
        hand = self.ctx.hand
        assert hand is not None
        top: HandPlayer | None = None
        top_bet = second = 0  # the highest bet and the highest below it (equal on a tie)
        live: list[int] = []
        can_bet = 0
        for hp in hand.players:  # one pass: the two highest bets, who is still in, who can still bet
            bet = hp.bet
            if bet > top_bet:
                top, top_bet, second = hp, bet, top_bet
            elif bet > second:
                second = bet
            hp.bet = 0
            hp.acted_at = None
            if not hp.folded:
                live.append(hp.seat)
                if not hp.all_in:
                    can_bet += 1
        if top is not None and top_bet > second:  # nobody called the excess: it goes back
            excess = top_bet - second
            top.contributed -= excess
            top.player.stack += excess
            if top.all_in:  # chips behind again
                top.all_in = False
                if not top.folded:
                    can_bet += 1
            self.ctx.emit(BetReturned(top.seat, excess))
        hand.bet_to = 0
        hand.min_raise = 0
        hand.full_to = 0
        hand.raises = 0
        hand.round_raises = 0
        hand.largest_raise = 0
        hand.short_all_ins = 0
        hand.capped = False
        hand.to_act = None
        hand.big_bet_option = False
        hand.bet_size = 0
        return BettingResult(self.street_name, tuple(live), len(live) == 1, can_bet < 2)

    # --- queries ------------------------------------------------------------------------------
    def legal_actions(self) -> LegalActions | None:
        """The legal actions of the player to act, or ``None`` if nobody is to act."""
        hand = self.ctx.hand
        if hand is None or hand.to_act is None or self.outcome is not None:
            return None
        la = self._legal
        if la is None or la.seat != hand.to_act.seat:
            hp = hand.to_act
            la = legal.compute(self.structure, hand, hp, self.street)
            previous = self.previous
            if hand.bet_to == 0 and type(previous) is BringInResult and previous.seat == hp.seat:
                la = la._replace(can_fold=False, can_check=False, bring_in=min(previous.amount, hp.player.stack))
            self._legal = la
        return la

    # --- the action -------------------------------------------------------------------------------
    def on_act(self, seat: object, action: object, amount: object = None) -> None:
        """Validate and apply one action; raises :class:`IllegalActionError` and changes nothing.

        The arguments come from the caller as they are (``object``): each is checked here, so a
        wrong type is an illegal action like any other (the compiled build would otherwise stop
        it with a ``TypeError`` at the call).
        """
        hand = self.ctx.hand
        assert hand is not None
        hp = hand.to_act
        if hp is None:
            raise IllegalActionError("Nobody is to act in this betting round.", rule="no action pending")
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):  # fast path first
            raise IllegalActionError(
                f"Seat {seat!r} is not a seat number: seat {hp.seat} ({hp.player.name}) acts next.",
                rule="not a seat number", allowed=f"seat {hp.seat}",
            )
        if seat != hp.seat:
            if seat not in hand.by_seat:
                raise IllegalActionError(
                    f"Seat {seat!r} is not in this hand; the seats in it are {sorted(hand.by_seat)}.",
                    rule="unknown seat",
                    allowed=f"seat {hp.seat}",
                )
            raise IllegalActionError(
                f"It is not seat {seat}'s turn: seat {hp.seat} ({hp.player.name}) acts next.",
                rule="acting out of turn",
                allowed=f"seat {hp.seat}",
            )
        la = self._legal
        if la is None or la.seat != seat:
            la = self.legal_actions()
            assert la is not None
        kind, to = self._resolve(la, hp, action, amount)
        self._legal = None
        event = self._apply(hand, hp, la, kind, to)
        self.ctx.emit(event)
        self._from = hand.players.index(hp) + 1
        self.trigger("acted")


    def _resolve(self, la: LegalActions, hp: HandPlayer, action: object, amount: object) -> tuple[str, int]:
        """Normalise ``action`` to fold/check/call/raise with its raise-to amount, or raise."""
        if (type(action) is not str and not isinstance(action, str)) or action not in _ACTIONS:
            raise _illegal(la, f"Unknown action {action!r} (actions are {', '.join(ACTIONS)})", "unknown action")
        if amount is not None and action in _NO_AMOUNT:
            what = "posts the bring-in" if action == "bring_in" else f"{action.replace('_', ' or ')}s"
            raise _illegal(
                la, f"An amount ({amount!r}) was given to {action}, which takes none: a {action.replace('_', '/')} "
                f"{what} the amount the rules set", "amount given to an action without one",
            )
        most = hp.bet + la.stack
        if action in _ALIASES:  # a name for one of the plain actions, decided by the situation
            if action == "check_call":
                action = "call" if la.call_amount else "check"
            elif action == "bet_raise":
                action = "bet" if la.is_bet else "raise"
            else:  # all_in
                if most <= la.bet_to:
                    action = "call"
                elif la.can_raise and la.max_raise_to == most:
                    action, amount = ("bet" if la.is_bet else "raise"), most
                elif not la.can_raise and matchable(self.ctx.hand, hp) <= la.bet_to:  # type: ignore[arg-type]
                    action = "call"  # no opponent could call more: all-in puts in what can be matched
                else:
                    raise _illegal(
                        la, f"Going all-in for {most} is not allowed here",
                        "all-in above the limit" if la.can_raise else "betting not reopened",
                    )
        if action == "bring_in":
            if not la.bring_in:
                raise _illegal(la, "There is no bring-in to post now", "bring-in not due")
            return "bring_in", hp.bet + la.bring_in
        if la.bring_in and action in ("check", "fold"):
            raise _illegal(la, f"Seat {hp.seat} must bring in {la.bring_in} or complete", "the bring-in is forced")
        if action == "fold":  # also with a free check: legal, and binding (TDA: a fold in turn is binding)
            return "fold", hp.bet
        if action == "check":
            if not la.can_check:
                raise _illegal(la, f"Cannot check facing a bet of {la.bet_to}", "check facing a bet")
            return "check", hp.bet
        if action == "call":
            if not la.call_amount:
                raise _illegal(la, "There is no bet to call", "call with nothing to call")
            return "call", hp.bet + la.call_amount
        # bet or raise
        word = "bet" if la.is_bet else "raise"
        if action != word:
            raise _illegal(la, f"Cannot {action} now (it would be a {word})", f"{action} when it is a {word}")
        if not la.can_raise:
            reason = "the raise cap is reached" if self.structure.cap_reached(self.ctx.hand) else (  # type: ignore[arg-type]
                "betting was not reopened to you" if most > la.bet_to else "your stack cannot cover a raise"
            )
            raise _illegal(la, f"Cannot {word}: {reason}", f"{word} not allowed")
        if type(amount) is not int and (amount is None or isinstance(amount, bool) or not isinstance(amount, int)):
            raise _illegal(la, f"A {word} needs a whole-number amount to {word} to, not {amount!r}", "amount missing")
        if amount < la.min_raise_to:
            raise _illegal(
                la, f"The amount {amount} is below the minimum allowed {la.min_raise_to}",
                f"{word} below the minimum",
            )
        if la.amounts and amount not in la.amounts and amount != most:
            raise _illegal(
                la, f"The amount {amount} is not a fixed-limit bet here",
                f"{word} not one of the fixed sizes",
            )
        if amount > la.max_raise_to:
            what = "your stack allows" if la.max_raise_to == most else "the limit allows"
            raise _illegal(
                la, f"The amount {amount} is above the maximum {la.max_raise_to} {what}",
                f"{word} above the maximum",
            )
        return word, amount

    def _apply(self, hand: Hand, hp: HandPlayer, la: LegalActions, kind: str, to: int) -> ActionTaken:
        if kind == "fold":
            hp.folded = True
            hp.acted_at = hand.bet_to
            return ActionTaken(hp.seat, "fold", 0, hp.bet)
        if kind == "check":
            hp.acted_at = hand.bet_to
            return ActionTaken(hp.seat, "check", 0, hp.bet)
        paid = hp.put_in(to - hp.bet)
        if kind == "bring_in":
            hand.bet_to = max(hand.bet_to, to)
            hp.acted_at = hand.full_to  # the bring-in is no bet: a completion is the first one they face
            return ActionTaken(hp.seat, "bring-in", paid, to, hp.all_in)
        if kind == "call":
            # calling before the round's first bet or raise (a stud bring-in) is acting at the last full level
            hp.acted_at = hand.bet_to if hand.round_raises else hand.full_to
            return ActionTaken(hp.seat, "call", paid, hp.bet, hp.all_in)
        increment = to - hand.bet_to
        structure = self.structure
        if structure.is_full_raise(hand, increment, self.street):
            hand.raises += 1
            if increment > hand.min_raise:
                hand.min_raise = increment
            hand.full_to = to
        hand.round_raises += 1
        if increment > hand.largest_raise:
            hand.largest_raise = increment
        if not structure._plain_raises:
            structure.on_raise(hand, to, self.street)
        hand.bet_to = to
        hand.last_aggressor = hp.seat
        hp.acted_at = to
        return ActionTaken(hp.seat, kind, paid, to, hp.all_in)

    def on_table_change(self) -> None:
        """A player left mid-hand (their hand was folded): re-check whose turn it is."""
        hand = self.ctx.hand
        if hand is None or self.state != "waiting_for_action":
            return
        current = hand.to_act
        start = hand.players.index(current) if current is not None and not current.folded else 0
        if current is not None and current.folded:
            start = hand.players.index(current) + 1
        self._legal = None
        self._from = start
        self.trigger("acted")


def _open_pair(hand: Hand) -> bool:
    """Whether any live player shows a pair among their up cards."""
    for hp in hand.players:
        if hp.folded:
            continue
        ranks = [c.rank for c, up in zip(hp.hole, hp.face_up, strict=True) if up]
        if len(set(ranks)) < len(ranks):
            return True
    return False


def _illegal(la: LegalActions, message: str, rule: str) -> IllegalActionError:
    """``message; allowed: <the legal actions>.``, naming the rule broken."""
    allowed = la.describe()
    return IllegalActionError(f"{message}; allowed: {allowed}.", rule=rule, allowed=allowed)
