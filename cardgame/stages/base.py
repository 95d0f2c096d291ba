"""The base of poker's stages: a kernel :class:`~cardgame.engine.Stage` whose context is poker's
:class:`~cardgame.model.context.Context` (the table, the hand in progress, the deck's random source).

Seating changes are events the current stage handles (:data:`TABLE_EVENTS`): every poker stage
accepts them, :class:`PokerStage` holds the rules that apply in a hand and between hands, and a
stage that must treat one specially overrides its handler. The table-side half of each change
(seat the player, add the chips, free the seat) is a function of the context here, which
:class:`~cardgame.play.game.Game` also calls when no stage runs (before ``start``, after the end).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, NamedTuple

from cardgame.engine import Outcome, Stage
from cardgame.model.context import Context
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import CardgameError, IllegalActionError, TableError
from cardgame.model.events import ActionTaken, ChipsAdded, PlayerLeft, PlayerSatIn, PlayerSatOut, PlayerSeated
from cardgame.model.hand import HandPlayer
from cardgame.model.inputs import MAX_NUMBER, check_int, excerpt
from cardgame.model.table import Player
from cardgame.stages.fitting import TableFit

__all__ = [
    "TABLE_EVENTS",
    "TABLE_TRIGGERS",
    "PokerStage",
    "TableAction",
    "add_chips",
    "check_muck",
    "fold_leaver",
    "free_seat",
    "hand_of",
    "mark_sitting_in",
    "mark_sitting_out",
    "seat_player",
]

#: The events every poker stage takes, whatever it does: seating changes, a muck, and
#: ``table_change`` (seats or stacks changed, or the game was asked to stop: re-check).
TABLE_EVENTS: tuple[str, ...] = ("sit_down", "top_up", "sit_out", "sit_in", "leave", "muck", "table_change")


class TableAction(NamedTuple):
    """A seating change as its trigger carries it to the rules: ``seat`` and a top-up's ``amount``, as
    given (the rules judge them)."""

    seat: object
    amount: object = None


#: The table events that are triggers of every poker stage, from every state (internal transitions):
#: each carries a :class:`TableAction` and is judged by its conditions before anything changes.
TABLE_TRIGGERS: tuple[str, ...] = ("top_up", "sit_out", "sit_in", "leave", "muck")
TABLE_TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "top_up", "source": "*", "dest": None, "conditions": ["seated", "not_in_the_hand", "within_the_buy_in"],
     "before": "add_the_chips"},
    {"trigger": "sit_out", "source": "*", "dest": None, "conditions": "seated", "before": "sit_them_out"},
    {"trigger": "sit_in", "source": "*", "dest": None, "conditions": ["seated", "has_chips"], "before": "sit_them_in"},
    {"trigger": "leave", "source": "*", "dest": None, "conditions": "seated", "before": "leave_the_table"},
    {"trigger": "muck", "source": "*", "dest": None,
     "conditions": ["has_a_live_hand", "betting_is_over", "not_the_last_hand"], "before": "muck_the_hand"},
]


class PokerStage(Stage[Context]):
    """A stage of a poker game.

    It takes :data:`TABLE_EVENTS` besides its own ``events`` (a subclass lists only its own; they
    are added after these). The default handlers apply Robert's Rules of Poker and then call
    :meth:`on_table_change` where seats or stacks changed; a stage whose machine depends on the
    table overrides that hook (it is also the ``table_change`` event's handler). Each handler
    returns the stage's outcome, or ``None`` to leave it to what the machine recorded.
    """

    name: ClassVar[str] = "poker stage"
    events: ClassVar[tuple[str, ...]] = TABLE_EVENTS
    everywhere: ClassVar[tuple[str, ...]] = TABLE_TRIGGERS
    transitions: ClassVar[list[dict[str, Any]]] = [*Stage.transitions, *TABLE_TRANSITIONS]
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("events")
        if own is not None:  # the subclass's own events come after the table events
            cls.events = TABLE_EVENTS + tuple(e for e in own if e not in TABLE_EVENTS)
        if not any(t["trigger"] in TABLE_TRIGGERS for t in cls.transitions):  # from every state, judged by rules
            cls.transitions = [*cls.transitions, *TABLE_TRANSITIONS]
        super().__init_subclass__(**kwargs)

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit_start(self, ctx: Any) -> Hashable:
        """The table a list starting with this stage is checked at: the context's seats and deck."""
        seats = getattr(getattr(ctx, "table", None), "seat_count", None)
        spec = getattr(ctx, "deck_spec", None)
        return TableFit.at(seats if type(seats) is int else None, len(spec) if isinstance(spec, DeckSpec) else None)

    def fit(self, before: Hashable) -> Hashable:
        """A poker stage declares what it needs of the :class:`~cardgame.stages.fitting.TableFit` and
        what it changes; by default it needs nothing and changes nothing."""
        return before

    # --- the hook ---------------------------------------------------------------------------------
    def on_table_change(self) -> Outcome | None:
        """Seats or stacks changed (sit down, leave...) while this stage runs, or the game was asked
        to stop: a stage whose machine depends on the table fires a trigger. Nothing by default."""
        return None

    # --- seating: each change a trigger carrying a TableAction, judged by the rules below -------------
    def _table_event(self, trigger: str, action: TableAction) -> Outcome | None:
        """Fire ``trigger`` with ``action``; refused with the first failing rule's error, changing nothing."""
        if not self.trigger(trigger, action):
            raise self.refusal(trigger, action)
        return None  # how the stage ended, if it did, was recorded by the callbacks

    def on_sit_down(self, name: object, buy_in: object, seat: object = None) -> Outcome | None:
        """Seat a player (the table's buy-in limits apply); they play from the next hand."""
        seat_player(self.ctx, name, buy_in, seat)
        return self.on_table_change()

    def on_top_up(self, seat: object, amount: object) -> Outcome | None:
        """Add chips to ``seat``'s stack (trigger ``top_up``); refused for a player in the hand in progress."""
        return self._table_event("top_up", TableAction(seat, amount))

    def on_sit_out(self, seat: object) -> Outcome | None:
        """Sit ``seat`` out from the next hand on (trigger ``sit_out``); a hand they are in is played out."""
        return self._table_event("sit_out", TableAction(seat))

    def on_sit_in(self, seat: object) -> Outcome | None:
        """Deal ``seat`` in again from the next hand (trigger ``sit_in``); refused with no chips."""
        return self._table_event("sit_in", TableAction(seat))

    def on_leave(self, seat: object) -> Outcome | None:
        """``seat`` cashes out (trigger ``leave``): see :meth:`leave_the_table`."""
        return self._table_event("leave", TableAction(seat))

    def on_muck(self, seat: object) -> Outcome | None:
        """Muck ``seat``'s hand once betting is over (trigger ``muck``): see :meth:`muck_the_hand`."""
        return self._table_event("muck", TableAction(seat))

    # the rules (conditions of the table triggers: questions, each with its refusal)
    def seated(self, action: TableAction) -> bool:
        """The seat exists and a player sits in it: a player acts only for their own seat (Robert's Rules,
        general rules)."""
        seat = action.seat
        seats = self.ctx.table.seats
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
            return False
        return seats[seat] is not None

    def refuse_seated(self, action: TableAction) -> CardgameError:
        try:
            self.ctx.table.player(action.seat)  # type: ignore[arg-type]  # names a seat that does not exist or is empty
        except CardgameError as exc:
            return exc
        return TableError(f"Seat {excerpt(action.seat)} is not a seat number.")

    def _player(self, action: TableAction) -> Player:
        p: Player | None = self.ctx.table.seats[action.seat]  # type: ignore[call-overload]  # seated held
        assert p is not None
        return p

    def not_in_the_hand(self, action: TableAction) -> bool:
        """Chips are added only between deals: not by a player in the hand in progress (Robert's Rules
        of Poker, general rules: table stakes)."""
        return hand_of(self.ctx, self._player(action)) is None

    def refuse_not_in_the_hand(self, action: TableAction) -> CardgameError:
        number = self.ctx.hand.number if self.ctx.hand is not None else 0
        return TableError(f"Seat {action.seat} is in hand #{number}; chips can be added only between hands "
                          "(Robert's Rules of Poker).")

    def within_the_buy_in(self, action: TableAction) -> bool:
        """A top-up is a whole number of chips, at least one, leaving the stack within the table's
        maximum buy-in (Robert's Rules, general rules: buy-ins and adding chips follow the game's limits)."""
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MAX_NUMBER:
            return False
        return self._player(action).stack + amount <= self.ctx.table.max_buy_in

    def refuse_within_the_buy_in(self, action: TableAction) -> CardgameError:
        try:
            amount = check_int(action.amount, "top-up (in chips)", TableError, minimum=1)
        except TableError as exc:
            return exc
        stack, most = self._player(action).stack, self.ctx.table.max_buy_in
        return TableError(f"Adding {amount} would make the stack {stack + amount}, above the maximum buy-in {most}; "
                          f"allowed is at most {most - stack}.")

    def has_chips(self, action: TableAction) -> bool:
        """A player sits in only with chips: table stakes, nothing plays but the chips on the table
        (Robert's Rules, general rules)."""
        return self._player(action).stack > 0

    def refuse_has_chips(self, action: TableAction) -> CardgameError:
        return TableError(f"Seat {action.seat} has no chips; top up before sitting in.")

    def has_a_live_hand(self, action: TableAction) -> bool:
        """Only a live hand can be mucked: a folded hand is dead already (Robert's Rules, showdown)."""
        hand, seat = self.ctx.hand, action.seat
        if hand is None or not isinstance(seat, int) or isinstance(seat, bool):
            return False
        hp = hand.by_seat.get(seat)
        return hp is not None and not hp.folded

    def refuse_has_a_live_hand(self, action: TableAction) -> CardgameError:
        return IllegalActionError(f"Seat {excerpt(action.seat)} has no live hand to muck.", rule="muck without a hand")

    def betting_is_over(self, action: TableAction) -> bool:
        """A hand is mucked once betting is over: not while a player is to bet or draw (Robert's
        Rules, showdown: a hand is mucked at the showdown)."""
        return not self._pending_decision()

    def refuse_betting_is_over(self, action: TableAction) -> CardgameError:
        return IllegalActionError("A hand can be mucked only once betting is over.", rule="muck before showdown")

    def not_the_last_hand(self, action: TableAction) -> bool:
        """The last live hand wins the pot: it cannot be mucked (Robert's Rules, showdown: the last live
        hand takes the pot without showing)."""
        hand = self.ctx.hand
        return hand is not None and hand.live_count() >= 2

    def refuse_not_the_last_hand(self, action: TableAction) -> CardgameError:
        return IllegalActionError("The last live hand cannot be mucked.", rule="muck the last hand")

    # the callbacks: what a change does once its rules held
    def add_the_chips(self, action: TableAction) -> None:
        add_chips(self.ctx, action.seat, action.amount)
        self.on_table_change()

    def sit_them_out(self, action: TableAction) -> None:
        mark_sitting_out(self.ctx, action.seat)

    def sit_them_in(self, action: TableAction) -> None:
        if mark_sitting_in(self.ctx, action.seat):
            self.on_table_change()

    def leave_the_table(self, action: TableAction) -> None:
        """Not in the hand in progress: the seat is freed and the stack paid at once. In it: the
        player's hand is folded now -- through the action of the stage when it is their turn facing a
        bet, which a betting stage takes as a fold (``act`` with ``"fold"``) -- an all-in hand stays
        live, and the seat is freed when the hand ends (Robert's Rules of Poker: a player away from
        the table when it is their turn has a dead hand; chips committed to the pot stay in it)."""
        ctx = self.ctx
        p = ctx.table.player(action.seat)  # type: ignore[arg-type]  # the seated rule held
        hp = hand_of(ctx, p)
        if hp is None:
            free_seat(ctx, p)
            self.on_table_change()
            return
        p.leaving = True
        if hp.folded or hp.all_in:
            return
        la = self._pending_action()
        if la is not None and la.seat == p.seat and la.call_amount > 0 and "act" in self.events:
            self.handle("act", p.seat, "fold")  # their turn, facing a bet: the fold is their action
            return
        fold_leaver(ctx, hp)
        self.on_table_change()

    def muck_the_hand(self, action: TableAction) -> None:
        """The hand is dead, its chips stay in the pot and it wins nothing (Robert's Rules, showdown); a
        stage waiting on that hand (a run-out choice) re-checks."""
        hand = self.ctx.hand
        assert hand is not None
        hp = hand.by_seat[action.seat]  # type: ignore[index]  # has_a_live_hand held
        hp.folded = True
        hand.mucked = hand.mucked | {hp.seat}
        self.on_table_change()
    # --- what a betting or drawing stage offers -----------------------------------------------------
    def _pending_action(self) -> Any:
        """The stage's ``legal_actions()`` when it has one (a betting stage), else ``None``."""
        method = getattr(self, "legal_actions", None)
        return None if method is None else method()

    def _pending_decision(self) -> bool:
        """Whether a player is to bet or draw in this stage (a muck waits until they are done)."""
        if self._pending_action() is not None:
            return True
        method = getattr(self, "draw_options", None)
        return method is not None and method() is not None


# --- the table side of each change, for stages and for a game with no stage running --------------
def hand_of(ctx: Context, player: Player) -> HandPlayer | None:
    """``player``'s part in the hand in progress, or ``None`` if they are not in it."""
    hand = ctx.hand
    hp = hand.by_seat.get(player.seat) if hand is not None else None
    return hp if hp is not None and hp.player is player else None


def seat_player(ctx: Context, name: object, buy_in: object, seat: object = None) -> Player:
    """Seat ``name`` with ``buy_in`` chips (in ``seat``, or the first empty one) and log it."""
    p = ctx.table.sit_down(name, buy_in, seat)  # type: ignore[arg-type]  # TableError names what is wrong
    ctx.emit(PlayerSeated(p.seat, p.name, p.stack))
    return p


def add_chips(ctx: Context, seat: object, amount: object) -> Player:
    """Top ``seat`` up by ``amount``, judged by the rules of the ``top_up`` trigger: only between hands
    for a player in the hand in progress (Robert's Rules of Poker: chips may be added only between deals)."""
    _judge(ctx, "top_up", TableAction(seat, amount))
    p = ctx.table.top_up(seat, amount)  # type: ignore[arg-type]  # the rules held
    ctx.emit(ChipsAdded(p.seat, amount, p.stack))  # type: ignore[arg-type]
    return p


def mark_sitting_out(ctx: Context, seat: object) -> None:
    """Mark ``seat`` sitting out (from the next hand on) and log it, unless it already is."""
    _judge(ctx, "sit_out", TableAction(seat))
    p = ctx.table.player(seat)  # type: ignore[arg-type]
    if not p.sitting_out:
        p.sitting_out = True
        ctx.emit(PlayerSatOut(p.seat))


def mark_sitting_in(ctx: Context, seat: object) -> bool:
    """Deal ``seat`` in again from the next hand; ``True`` if that changed anything. A player with
    no chips must top up first."""
    _judge(ctx, "sit_in", TableAction(seat))
    p = ctx.table.player(seat)  # type: ignore[arg-type]
    if not p.sitting_out:
        return False
    p.sitting_out = False
    ctx.emit(PlayerSatIn(p.seat))
    return True


def free_seat(ctx: Context, player: Player) -> int:
    """Free ``player``'s seat at once (they are in no hand in progress) and log the stack they
    take away, which is returned."""
    ctx.table.remove(player.seat)
    ctx.emit(PlayerLeft(player.seat, player.name, player.stack))
    return player.stack


def fold_leaver(ctx: Context, hp: HandPlayer) -> None:
    """Fold the hand of a player who left mid-hand (out of turn, or with no bet to face); a PHH replay
    folds a fold written out of turn so too."""
    hp.folded = True
    ctx.emit(ActionTaken(hp.seat, "fold", 0, hp.bet))


def check_muck(ctx: Context, seat: object, deciding: bool) -> HandPlayer:
    """``seat``'s live hand if it may be mucked now, else :class:`IllegalActionError`: the rules of the
    ``muck`` trigger (a live hand; betting over, which ``deciding`` denies: a player is to bet or draw;
    not the last live hand, which wins the pot)."""
    _judge(ctx, "muck", TableAction(seat))  # no stage: nobody is to bet or draw
    if deciding:
        raise IllegalActionError("A hand can be mucked only once betting is over.", rule="muck before showdown")
    hand = ctx.hand
    assert hand is not None
    return hand.by_seat[seat]  # type: ignore[index]


def _judge(ctx: Context, trigger: str, action: TableAction) -> None:
    """Raise the refusal of the first of ``trigger``'s rules that ``action`` breaks, asked of a poker stage
    on ``ctx`` (a game with no stage running is judged by the same rules as a running one)."""
    judge = PokerStage()
    judge.ctx = ctx
    if not judge.may(trigger, action):
        raise judge.refusal(trigger, action)
