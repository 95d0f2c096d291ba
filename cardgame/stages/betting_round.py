"""One betting round: players act in turn until every live player has matched the bet or folded."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, NamedTuple, Self

from cardgame.engine import Done, Goto
from cardgame.model import legal
from cardgame.model.action_order import Order
from cardgame.model.betting import BettingStructure, LegalActions
from cardgame.model.cards import CARDS
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import ActionTaken, BetReturned
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import MAX_DIGITS, MAX_NUMBER, check_int, excerpt
from cardgame.model.legal import matchable
from cardgame.model.street import Street, StreetRecord
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import hand_won
from cardgame.stages.results import BettingResult, BringInResult, ForcedBetsResult, HandOpened, Opening

__all__ = ["ACTIONS", "KINDS", "Action", "BettingResult", "BettingRound"]

#: Action names ``act`` accepts. ``check_call``, ``bet_raise`` and ``bring_in`` are PHH's ``cc``,
#: ``cbr`` and ``pb``.
ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in", "check_call", "bet_raise", "bring_in")
#: The plain kinds of action: each is a trigger of the betting round's machine.
KINDS = ("fold", "check", "call", "bet", "raise", "bring_in")
_KINDS = {name: (name if name in KINDS else "") for name in ACTIONS}  # "": an alias, decided by the situation


class Action(NamedTuple):
    """One betting action, the data its trigger carries: ``seat``, ``kind`` (one of :data:`KINDS`;
    an alias is already mapped), ``amount`` as given (the total a bet or raise makes the bet; the
    rules check it: ``None`` for the other kinds) and ``said``, the name the player used
    (``check_call``, ``all_in``...), for messages.

    Immutable (a named tuple, as :class:`~cardgame.model.legal.LegalActions`: one is built per action,
    and a tuple builds several times faster than a frozen attrs class)."""

    seat: int
    kind: str
    amount: Any = None
    said: str = ""


_action = tuple.__new__  # builds an Action from all its fields at once (no generated __new__ frame)


_IN_TURN = "acts_in_turn"
_SIZE_UP = "size_up"
_SIZE = ["betting_open", "whole_amount", "at_least_the_minimum", "a_fixed_size", "at_most_the_maximum"]


class BettingRound(PokerStage):
    """A betting round under ``structure`` for street number ``street`` (0 is the first).

    Action order: the first round of a hand with live blinds starts left of the last blind
    (heads-up: the button), a stud third street with the bring-in; any other round starts
    where ``order`` says (default: the first live player left of the button; stud games pass
    :func:`~cardgame.model.action_order.best_showing_high`). Players act until everyone live has
    acted and matched the bet, or is all-in; then an uncalled bet is returned and bets go into
    the pot. A player alone with chips behind who has matched every bet does not act, and a round
    that opens with betting already over (``nobody_can_bet``: every live player but at most one is
    all-in) closes as it opens.
    Event: ``act(seat, action, amount=None)``, which fires the trigger of the action's kind with an
    :class:`Action`: the trigger's conditions are the rules, its callbacks apply the action and
    pass the turn (``acted``). The street's betting is ``street_state`` (a
    :class:`~cardgame.model.street.Street`, seeded from an :class:`~cardgame.stages.results.Opening`);
    ``to_act`` is the seat the round waits on.
    """

    name: ClassVar[str] = "betting round"
    states: ClassVar[list[str]] = ["ready", "waiting_for_action", "round_closed", "hand_won"]
    # ``find_next_actor`` (prepare) names the player to act; the conditions then read the hand.
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "round_closed", "conditions": "nobody_can_bet",
         "after": "close_at_once"},
        {"trigger": "begin", "source": "ready", "dest": "hand_won", "prepare": ["open_round", "find_next_actor"],
         "conditions": "one_player_left", "after": "settle_street"},
        {"trigger": "begin", "source": "ready", "dest": "round_closed", "conditions": "round_complete",
         "after": "settle_street"},
        {"trigger": "begin", "source": "ready", "dest": "waiting_for_action"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": "hand_won", "prepare": "find_next_actor",
         "conditions": "one_player_left", "after": "settle_street"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": "round_closed", "conditions": "round_complete",
         "after": "settle_street"},
        {"trigger": "acted", "source": "waiting_for_action", "dest": None},
        # the actions: the conditions are the rules (each a question: True or False; refuse_<rule> gives the
        # error of the first that fails), the callbacks apply it. ``size_up`` computes what the rules read.
        {"trigger": "fold", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "takes_no_amount", "not_a_forced_bring_in"], "before": "fold_hand",
         "after": "pass_turn"},
        {"trigger": "check", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "takes_no_amount", "not_a_forced_bring_in", "nothing_to_call"],
         "before": "check_in_turn", "after": "pass_turn"},
        {"trigger": "call", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "takes_no_amount", "something_to_call"], "before": "call_bet", "after": "pass_turn"},
        {"trigger": "bring_in", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "takes_no_amount", "bring_in_due"], "before": "post_bring_in", "after": "pass_turn"},
        {"trigger": "bet", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "nobody_has_bet", *_SIZE], "before": "bet_or_raise", "after": "pass_turn"},
        {"trigger": "raise", "source": "waiting_for_action", "dest": None, "prepare": _SIZE_UP,
         "conditions": [_IN_TURN, "somebody_has_bet", *_SIZE], "before": "bet_or_raise", "after": "pass_turn"},
    ]
    events: ClassVar[tuple[str, ...]] = ("act",)
    takes: ClassVar[tuple[type, ...]] = (HandOpened, ForcedBetsResult, BringInResult, BettingResult)
    gives: ClassVar[tuple[type, ...]] = (BettingResult,)
    goes_to: ClassVar[tuple[str, ...]] = ("showdown",)
    #: The street's betting state, saved as a record (the player to act as a seat).
    snapshot_fields: ClassVar[tuple[str, ...]] = ("street_record",)
    ends: ClassVar[dict[str, str]] = {"round_closed": "round_result", "hand_won": "to_showdown"}
    acts: ClassVar[dict[tuple[str, str], Any]]  # see derive_tables
    __slots__ = (
        "_from",
        "_legal",
        "_live",
        "_settled",
        "open_pair_doubles",
        "order",
        "street",
        "street_name",
        "street_state",
        "structure",
        "to_act",
    )

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
        self._legal: LegalActions | None = None  # the player to act's, once asked; None whenever that player changes
        self._from = 0  # index in hand.players where the search for the next player to act starts
        self._live = 2  # live players, as the last search for the next player to act counted them
        self._settled: BettingResult | None = None  # what the last close of the street handed on
        self.street_state: Street | None = None  # the street's betting, while the round runs
        #: The seat the round waits on (``street_state.to_act``'s), or ``None``: the stage's answer to
        #: "who acts" (:class:`~cardgame.stages.results.AwaitsPlayer`), kept as a plain attribute.
        self.to_act: int | None = None
        if not isinstance(structure, BettingStructure):
            raise ConfigError(f"A betting round needs a betting structure (NoLimit, PotLimit, FixedLimit), "
                              f"not {excerpt(structure)}.")
        self.structure = structure
        self.street = street = check_int(street, "street", ConfigError, minimum=0, maximum=len(CARDS))
        default = ("preflop", "flop", "turn", "river")[street] if 0 <= street < 4 else f"street {street + 1}"
        self.street_name = street_name or default

    @property
    def label(self) -> str:
        """``preflop betting``, ``third street betting``, ``betting after the first draw``."""
        name = self.street_name
        return f"betting {name}" if name.startswith(("after ", "before ")) else f"{name} betting"

    def copy(self, ctx: Context) -> Self:
        """This round in a copy of the game: the street's betting copied into ``ctx``'s hand. A street
        of another hand than the game's (a round cut short by a failure, the game then started again)
        is over: the copy has none, and the round opens a new street when it next starts."""
        new = super().copy(ctx)
        st = self._live_street()
        new.street_state = None if st is None or ctx.hand is None else st.copy(ctx.hand)
        return new

    def _live_street(self) -> Street | None:
        """``street_state`` if it is the betting of the game's hand in progress, else ``None``."""
        st = self.street_state
        return st if st is not None and self.ctx is not None and st.hand is self.ctx.hand else None

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit_goto(self, before: Hashable) -> Hashable:
        """Its jump to the showdown is a hand won by the last player left: no hands are shown."""
        return hand_won(before)

    # --- conditions and callbacks ---------------------------------------------------------------
    def open_round(self) -> None:
        """Set the street up from what the previous stage offers (:class:`Opening`: the blinds' bet
        to match, the bring-in); the first player to consider is its opener (left of the last blind,
        the bring-in), else the one ``order`` gives, else left of the button."""
        hand = self.ctx.hand
        assert hand is not None, "betting runs inside a hand"
        self._from = self._start_street(hand)
        previous = self.previous
        st = self.street_state = (Street(hand, previous.bet_to, previous.min_raise, previous.raises)
                                  if isinstance(previous, Opening) else Street(hand))
        if self.open_pair_doubles and _open_pair(hand):
            st.big_bet_option = True
        opening = self.structure.opening_bet(self.street)
        if st.min_raise < opening:
            st.min_raise = opening

    def _start_street(self, hand: Hand) -> int:
        """What every round does to the hand as it opens: name the street, count the round, forget the last
        aggressor, and name the first player to consider (``hand.first_to_act``, returned as an index in
        ``hand.players``): the opener the previous stage offers, else the one ``order`` gives, else left of
        the button."""
        hand.street = self.street_name
        hand.rounds += 1
        hand.last_aggressor = None
        self._legal = None
        previous = self.previous
        seat = previous.opener if isinstance(previous, Opening) else None
        first = (hand.players.index(hand.by_seat[seat]) if seat is not None
                 else 0 if self.order is None else self.order(hand))
        hand.first_to_act = hand.players[first].seat
        return first

    def nobody_can_bet(self) -> bool:
        """Betting was over after the last round and still is: nobody has a bet to match, two or more players are
        live and fewer than two of them can bet (the rest are all-in). Nobody acts: the round closes as it opens,
        as one opened and settled would (Robert's Rules, all-in: the rest of the board is dealt out)."""
        return (isinstance(self.previous, BettingResult) and self.previous.betting_over
                and _nobody_to_act(self.ctx.hand))

    def close_at_once(self) -> None:
        """The round of ``nobody_can_bet``: the street begins and ends with no bet (nothing is returned); hands on
        who is still in, betting over."""
        hand = self.ctx.hand
        assert hand is not None
        self._start_street(hand)
        live: list[int] = []
        for hp in hand.players:
            hp.acted_at = None
            if not hp.folded:
                live.append(hp.seat)
        self.street_state = None
        self.to_act = None
        self._settled = BettingResult(self.street_name, tuple(live), False, True)

    def find_next_actor(self) -> None:
        """Name the first player from ``_from`` on (wrapping) who still has to act, or nobody.

        That is the first player neither folded nor all-in who is short of the bet or has not
        acted this street -- the latter only while someone else can still act, and nobody acts
        once fewer than two players are live. One pass, stopping as soon as the answer is known.
        """
        st = self.street_state
        assert st is not None
        start = self._from
        bet_to = st.bet_to
        live = actors = 0
        first: HandPlayer | None = None
        for hp in st.hand.ring[start : start + len(st.players)]:
            if hp.folded:
                continue
            live += 1
            if hp.all_in:
                continue
            if first is not None:  # a second player who can act: the first one found acts now
                break
            actors += 1
            if hp.bet < bet_to or hp.acted_at is None:
                first = hp
                if actors > 1:  # and another before them could act
                    break
        else:  # the whole table was counted: nobody is to act, or only one player can, who acts only if
            self._live = live  # short of the bet and against another live hand
            if first is not None and (live < 2 or first.bet >= bet_to):
                first = None
        st.to_act = first
        self.to_act = None if first is None else first.seat

    def one_player_left(self) -> bool:
        """Everyone else folded (read after ``find_next_actor``, which counted the live players)."""
        return self.to_act is None and self._live < 2

    def round_complete(self) -> bool:
        """Everyone live has acted and matched the bet, or is all-in (nobody is left to act)."""
        return self.to_act is None

    def round_result(self) -> Done:
        """The ending of ``round_closed``: who is still in, for the next street."""
        return Done(self._settled)

    def to_showdown(self) -> Goto:
        """The ending of ``hand_won``: straight to the showdown with who is still in."""
        return Goto("showdown", self._settled)

    def settle_street(self) -> None:
        """The round is over, closed or won by the last player in (every other folded: the rest of the hand
        has nothing to do but the showdown, the ending of ``hand_won``): return the part of the top bet
        nobody called, clear the street's bets and keep who is still in and whether two of them can still
        bet, to hand on."""
        hand = self.ctx.hand
        assert hand is not None
        top: HandPlayer | None = None
        top_bet = second = 0  # the highest bet and the highest below it (equal on a tie)
        live: list[int] = []
        can_bet = 0
        for hp in hand.players:  # one pass: the two highest bets, who is still in, who can still bet
            bet = hp.bet
            if bet:  # (often none: folded before betting, all in before the street, checked)
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
        self.street_state = None  # the street is over
        self.to_act = None
        self._settled = BettingResult(self.street_name, tuple(live), len(live) == 1, can_bet < 2)

    # --- queries ------------------------------------------------------------------------------
    @property
    def street_record(self) -> StreetRecord | None:
        """The street's betting state as a record (``None`` outside the round), for snapshots;
        setting it rebuilds the street in the context's hand."""
        st = self._live_street()
        return None if st is None else st.record()

    @street_record.setter
    def street_record(self, record: StreetRecord | None) -> None:
        hand = self.ctx.hand if self.ctx is not None else None
        if record is not None and hand is None:
            raise ValueError("A betting round's street is restored inside a hand.")
        st = self.street_state = None if record is None or hand is None else Street.from_record(hand, record)
        self.to_act = None if st is None or st.to_act is None else st.to_act.seat
        self._legal = None  # the player to act is the record's: their legal actions are computed again

    def legal_actions(self) -> LegalActions | None:
        """The legal actions of the player to act, or ``None`` if nobody is to act."""
        if self.state != "waiting_for_action":
            return None
        la = self._legal
        if la is not None:  # computed once per decision: forgotten whenever the player to act changes
            return la
        st = self.street_state
        if st is None or st.to_act is None:
            return None
        hp = st.to_act
        la = legal.compute(self.structure, st, hp, self.street)
        if not st.bet_to:  # the stud bring-in: its player may post it, not check or fold
            previous = self.previous
            if isinstance(previous, Opening) and previous.bring_in and previous.opener == hp.seat:
                la = la._replace(can_fold=False, can_check=False, bring_in=min(previous.bring_in, hp.player.stack))
        self._legal = la
        return la

    # --- the action: an event with data -----------------------------------------------------------
    def on_act(self, seat: object, action: object, amount: object = None) -> None:
        """Fire the trigger named for ``action`` with the :class:`Action` (a plain kind's trigger found in ``acts`` at
        once; an alias mapped to its plain kind once the turn is judged); its conditions are the rules, and when
        one fails the trigger is refused with that rule's :class:`IllegalActionError`
        (:meth:`~cardgame.engine.Stage.refusal`) before anything changes.

        The arguments come from the caller as they are (``object``): the rules judge each, so a
        wrong type is an illegal action like any other.
        """
        fire = self.acts.get((self.state, action)) if type(action) is str else None  # a plain kind's trigger
        if fire is not None:
            act = _action(Action, (seat, action, amount, action))
            if not fire(self, act):
                self._player_to_act()  # (refused: first whether anybody acts)
                raise self.refusal(act.kind, act)
            return
        hp = self._player_to_act()
        kind = _KINDS.get(action) if type(action) is str or isinstance(action, str) else None
        if not kind:  # not an action, or an alias decided by the situation: the turn is judged first
            la = self.legal_actions()
            assert la is not None
            if not self.acts_in_turn(_action(Action, (seat, "", None, ""))):
                raise self._out_of_turn(seat)
            if kind is None:
                raise _illegal(la, f"Unknown action {excerpt(action)} (actions are {', '.join(ACTIONS)})",
                               "unknown action")
            kind, amount = self._alias(la, hp, action, amount)  # type: ignore[arg-type]  # a str: _KINDS knows it
        act = _action(Action, (seat, kind, amount, action))
        if not self.trigger(kind, act):
            raise self.refusal(kind, act)

    def _player_to_act(self) -> HandPlayer:
        """The player the round waits on; :class:`IllegalActionError` if nobody is to act."""
        st = self.street_state
        hp = None if st is None else st.to_act
        if hp is None:
            raise IllegalActionError("Nobody is to act in this betting round.", rule="no action pending")
        return hp

    @classmethod
    def derive_tables(cls) -> None:
        """``acts``: ``(state, kind) -> `` the trigger function of each plain kind of action (one lookup for
        ``on_act``, by the name the player used; an alias or any other name is not in it)."""
        cls.acts = {key: fn for key, fn in cls.fast.items() if key[1] in KINDS and callable(fn)}

    def _alias(self, la: LegalActions, hp: HandPlayer, said: str, amount: object) -> tuple[str, object]:
        """The plain action ``check_call``, ``bet_raise`` or ``all_in`` names for ``hp`` now (an
        all-in is a call, a bet or raise of the whole stack, or refused)."""
        if said == "check_call":
            return ("call" if la.call_amount else "check"), amount
        if said == "bet_raise":
            return ("bet" if la.is_bet else "raise"), amount
        most = hp.bet + la.stack  # all_in: any amount given is ignored
        if most <= la.bet_to:
            return "call", None
        if la.can_raise and la.max_raise_to == most:
            return ("bet" if la.is_bet else "raise"), most
        if not la.can_raise and matchable(self.street_state, hp) <= la.bet_to:  # type: ignore[arg-type]
            return "call", None  # no opponent could call more: all-in puts in what can be matched
        raise _illegal(la, f"Going all-in for {most} is not allowed here",
                       "all-in above the limit" if la.can_raise else "betting not reopened")

    # --- the rules: conditions of the action triggers --------------------------------------------------
    # Each condition is a question (True or False, changing nothing); ``refuse_<condition>`` is the error
    # the action gets when it is the first rule that fails (``Stage.refusal``), naming the rule and what
    # is allowed. ``may(kind, action)`` asks them all without acting.
    def size_up(self, action: Action) -> None:
        """The prepare step of every action: the legal actions of the player to act, computed once per
        decision (what the conditions read; ``None`` while nobody is to act)."""
        if self._legal is None:
            self.legal_actions()

    def _legal_now(self) -> LegalActions:
        la = self._legal
        assert la is not None, "size_up ran"
        return la

    def acts_in_turn(self, action: Action) -> bool:
        """Only the player to act acts (TDA rule 53, action out of turn; Robert's Rules, general
        rules: a player acts in turn); the seat is a seat number."""
        return (self._legal is not None and (type(action.seat) is int or (isinstance(action.seat, int) and not
                isinstance(action.seat, bool))) and action.seat == self._legal.seat)

    def refuse_acts_in_turn(self, action: Action) -> IllegalActionError:
        return self._out_of_turn(action.seat)

    def _out_of_turn(self, seat: object) -> IllegalActionError:
        """The error of ``seat`` acting when it is not its turn: not a seat number, not in the hand, or
        not the player to act."""
        hand = self.ctx.hand
        st = self.street_state
        assert hand is not None and st is not None
        hp = st.to_act
        assert hp is not None
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
            return IllegalActionError(
                f"Seat {excerpt(seat)} is not a seat number: seat {hp.seat} ({hp.player.name}) acts next.",
                rule="not a seat number", allowed=f"seat {hp.seat}",
            )
        if seat not in hand.by_seat:
            return IllegalActionError(
                f"Seat {excerpt(seat)} is not in this hand; the seats in it are {sorted(hand.by_seat)}.",
                rule="unknown seat", allowed=f"seat {hp.seat}",
            )
        return IllegalActionError(
            f"It is not seat {excerpt(seat)}'s turn: seat {hp.seat} ({hp.player.name}) acts next.",
            rule="acting out of turn", allowed=f"seat {hp.seat}",
        )

    def takes_no_amount(self, action: Action) -> bool:
        """A fold, check, call or bring-in puts in what the rules set: an amount given is refused,
        not ignored (TDA rule 40, methods of betting: the amount must be unambiguous)."""
        return action.amount is None

    def refuse_takes_no_amount(self, action: Action) -> IllegalActionError:
        said = action.said or action.kind
        what = "posts the bring-in" if said == "bring_in" else f"{said.replace('_', ' or ')}s"
        return _illegal(
            self._legal_now(),
            f"An amount ({excerpt(action.amount)}) was given to {said}, which takes none: a "
            f"{said.replace('_', '/')} {what} the amount the rules set", "amount given to an action without one",
        )

    def not_a_forced_bring_in(self, action: Action) -> bool:
        """The stud bring-in is forced: its player brings in or completes, and may not check or
        fold (Robert's Rules, seven-card stud, rule 4)."""
        return not self._legal.bring_in  # type: ignore[union-attr]  # size_up computed it

    def refuse_not_a_forced_bring_in(self, action: Action) -> IllegalActionError:
        la = self._legal_now()
        return _illegal(la, f"Seat {action.seat} must bring in {la.bring_in} or complete", "the bring-in is forced")

    def nothing_to_call(self, action: Action) -> bool:
        """A check only with nothing to call (Robert's Rules, betting and raising: checking is
        declining to bet when no bet was made)."""
        return self._legal.can_check  # type: ignore[union-attr]  # size_up computed it

    def refuse_nothing_to_call(self, action: Action) -> IllegalActionError:
        la = self._legal_now()
        return _illegal(la, f"Cannot check facing a bet of {la.bet_to}", "check facing a bet")

    def something_to_call(self, action: Action) -> bool:
        """A call only facing a bet (Robert's Rules, betting and raising: a call matches a bet)."""
        return self._legal.call_amount > 0  # type: ignore[union-attr]  # size_up computed it

    def refuse_something_to_call(self, action: Action) -> IllegalActionError:
        return _illegal(self._legal_now(), "There is no bet to call", "call with nothing to call")

    def bring_in_due(self, action: Action) -> bool:
        """The bring-in is posted once, by the player the bring-in stage named, before any bet
        (Robert's Rules, seven-card stud, rule 4)."""
        return self._legal.bring_in > 0  # type: ignore[union-attr]  # size_up computed it

    def refuse_bring_in_due(self, action: Action) -> IllegalActionError:
        return _illegal(self._legal_now(), "There is no bring-in to post now", "bring-in not due")

    def nobody_has_bet(self, action: Action) -> bool:
        """A bet opens the betting; once a bet is made, more is a raise (Robert's Rules, betting
        and raising)."""
        return self._legal.bet_to == 0  # type: ignore[union-attr]  # size_up computed it (is_bet, without its frame)

    def refuse_nobody_has_bet(self, action: Action) -> IllegalActionError:
        return _illegal(self._legal_now(), f"Cannot {action.kind} now (it would be a raise)",
                        f"{action.kind} when it is a raise")

    def somebody_has_bet(self, action: Action) -> bool:
        """A raise needs a bet to raise (Robert's Rules, betting and raising)."""
        return self._legal.bet_to != 0  # type: ignore[union-attr]  # size_up computed it (not is_bet)

    def refuse_somebody_has_bet(self, action: Action) -> IllegalActionError:
        return _illegal(self._legal_now(), f"Cannot {action.kind} now (it would be a bet)",
                        f"{action.kind} when it is a bet")

    def betting_open(self, action: Action) -> bool:
        """Betting is open to the player: the cap is not reached (Robert's Rules, betting and
        raising, rule 3), a short all-in did not leave it closed to one who acted (rule 6; TDA rule
        43), and the stack covers more than a call."""
        return self._legal.can_raise  # type: ignore[union-attr]  # size_up computed it

    def refuse_betting_open(self, action: Action) -> IllegalActionError:
        la = self._legal_now()
        st = self.street_state
        assert st is not None
        reason = "the raise cap is reached" if self.structure.cap_reached(st) else (
            "betting was not reopened to you" if la.all_in_to > la.bet_to else "your stack cannot cover a raise")
        return _illegal(la, f"Cannot {action.kind}: {reason}", f"{action.kind} not allowed")

    def whole_amount(self, action: Action) -> bool:
        """A bet or raise names the total it makes the bet, in whole chips (TDA rule 40: the amount
        must be clear)."""
        return (type(action.amount) is int or (isinstance(action.amount, int) and not isinstance(action.amount, bool))
                ) and -MAX_NUMBER <= action.amount <= MAX_NUMBER

    def refuse_whole_amount(self, action: Action) -> IllegalActionError:
        amount, word = action.amount, action.kind
        if not isinstance(amount, int) or isinstance(amount, bool):
            return _illegal(self._legal_now(), f"A {word} needs a whole-number amount to {word} to, "
                            f"not {excerpt(amount)}", "amount missing")
        return _illegal(self._legal_now(), f"A {word} amount has at most {MAX_DIGITS} digits, not {excerpt(amount)}",
                        "amount out of range")

    def at_least_the_minimum(self, action: Action) -> bool:
        """A bet at least the minimum bet, a raise at least the size of the previous bet or raise of
        the round, unless all-in (Robert's Rules, betting and raising, rule 5; TDA rule 41, raise
        amounts)."""
        return action.amount >= self._legal.min_raise_to  # type: ignore[no-any-return,union-attr]

    def refuse_at_least_the_minimum(self, action: Action) -> IllegalActionError:
        la = self._legal_now()
        return _illegal(la, f"The amount {action.amount} is below the minimum allowed {la.min_raise_to}",
                        f"{action.kind} below the minimum")

    def a_fixed_size(self, action: Action) -> bool:
        """Fixed limit: where the rules give the sizes (a stud open pair: the small or the big bet),
        one of them or all-in (Robert's Rules, seven-card stud, rule 7)."""
        return (not self._legal.amounts or action.amount in self._legal.amounts  # type: ignore[union-attr]
                or action.amount == self._legal.all_in_to)  # type: ignore[union-attr]  # size_up computed it

    def refuse_a_fixed_size(self, action: Action) -> IllegalActionError:
        return _illegal(self._legal_now(), f"The amount {action.amount} is not a fixed-limit bet here",
                        f"{action.kind} not one of the fixed sizes")

    def at_most_the_maximum(self, action: Action) -> bool:
        """No more than the structure allows (pot limit: the pot after a call; fixed limit: one bet)
        nor the stack, nor what the largest opponent could match (Robert's Rules, betting and raising)."""
        return action.amount <= self._legal.max_raise_to  # type: ignore[no-any-return,union-attr]

    def refuse_at_most_the_maximum(self, action: Action) -> IllegalActionError:
        la = self._legal_now()
        what = "your stack allows" if la.max_raise_to == la.all_in_to else "the limit allows"
        return _illegal(la, f"The amount {action.amount} is above the maximum {la.max_raise_to} {what}",
                        f"{action.kind} above the maximum")

    # --- applying the action: the triggers' callbacks, once every rule held ------------------------
    def fold_hand(self, action: Action) -> None:
        """Fold: binding, even with a free check (TDA, binding declarations: a fold in turn is binding)."""
        st = self.street_state
        assert st is not None
        hp = st.to_act
        assert hp is not None
        hp.folded = True
        hp.acted_at = st.bet_to
        self.ctx.emit(ActionTaken(hp.seat, "fold", 0, hp.bet))

    def check_in_turn(self, action: Action) -> None:
        st = self.street_state
        assert st is not None
        hp = st.to_act
        assert hp is not None
        hp.acted_at = st.bet_to
        self.ctx.emit(ActionTaken(hp.seat, "check", 0, hp.bet))

    def call_bet(self, action: Action) -> None:
        st = self.street_state
        la = self._legal
        assert st is not None and la is not None
        hp = st.to_act
        assert hp is not None
        paid = hp.put_in(la.call_amount)
        # calling before the round's first bet or raise (a stud bring-in) is acting at the last full level
        hp.acted_at = st.bet_to if st.round_raises else st.full_to
        self.ctx.emit(ActionTaken(hp.seat, "call", paid, hp.bet, hp.all_in))

    def post_bring_in(self, action: Action) -> None:
        st = self.street_state
        la = self._legal
        assert st is not None and la is not None
        hp = st.to_act
        assert hp is not None
        paid = hp.put_in(la.bring_in)
        to = hp.bet
        if to > st.bet_to:
            st.bet_to = to
        hp.acted_at = st.full_to  # the bring-in is no bet: a completion is the first one they face
        self.ctx.emit(ActionTaken(hp.seat, "bring-in", paid, to, hp.all_in))

    def bet_or_raise(self, action: Action) -> None:
        """Make the bet ``action.amount``: a full raise reopens the betting and counts for the cap
        (see :mod:`cardgame.model.betting`); the structure computes what else changes, the round writes it."""
        st = self.street_state
        assert st is not None
        hp = st.to_act
        assert hp is not None
        to: int = action.amount
        paid = hp.put_in(to - hp.bet)
        increment = to - st.bet_to
        structure = self.structure
        street = self.street
        if structure.is_full_raise(st, increment, street):
            st.raises += 1
            if increment > st.min_raise:
                st.min_raise = increment
            st.full_to = to
        st.round_raises += 1
        if increment > st.largest_raise:
            st.largest_raise = increment
        if not structure._plain_raises:
            changes = structure.raise_changes(st, hp, to, street)
            if changes is not None:
                st.min_raise, st.bet_size, st.capped, st.short_all_ins = changes
        st.bet_to = to
        hp.acted_at = to
        assert self.ctx.hand is not None
        self.ctx.hand.last_aggressor = hp.seat
        self.ctx.emit(ActionTaken(hp.seat, action.kind, paid, to, hp.all_in))

    def pass_turn(self, action: Action) -> None:
        """The action is taken: the search for the next player to act starts left of its player."""
        st = self.street_state
        assert st is not None and st.to_act is not None
        self._legal = None
        self._from = st.players.index(st.to_act) + 1
        self.trigger("acted")  # written in line where the action's trigger is generated (machine.generate)

    def on_table_change(self) -> None:
        """A player left mid-hand (their hand was folded): re-check whose turn it is."""
        st = self.street_state
        if self.ctx.hand is None or st is None or self.state != "waiting_for_action":
            return
        current = st.to_act
        start = st.players.index(current) if current is not None and not current.folded else 0
        if current is not None and current.folded:
            start = st.players.index(current) + 1
        self._legal = None
        self._from = start
        self.trigger("acted")


def _nobody_to_act(hand: Hand | None) -> bool:
    """No bet is out, two or more players are live and fewer than two of them can bet."""
    assert hand is not None, "betting runs inside a hand"
    live = can_bet = 0
    for hp in hand.players:
        if hp.bet:
            return False
        if not hp.folded:
            live += 1
            if not hp.all_in:
                can_bet += 1
    return live > 1 and can_bet < 2


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
