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
from typing import Any, ClassVar

from cardgame.engine import Outcome, Stage
from cardgame.model.context import Context
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import IllegalActionError, TableError
from cardgame.model.events import ActionTaken, ChipsAdded, PlayerLeft, PlayerSatIn, PlayerSatOut, PlayerSeated
from cardgame.model.hand import HandPlayer
from cardgame.model.inputs import excerpt
from cardgame.model.table import Player
from cardgame.stages.fitting import TableFit

__all__ = [
    "TABLE_EVENTS",
    "PokerStage",
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
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("events")
        if own is not None:  # the subclass's own events come after the table events
            cls.events = TABLE_EVENTS + tuple(e for e in own if e not in TABLE_EVENTS)
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

    # --- seating -----------------------------------------------------------------------------------
    def on_sit_down(self, name: object, buy_in: object, seat: object = None) -> Outcome | None:
        """Seat a player (the table's buy-in limits apply); they play from the next hand."""
        seat_player(self.ctx, name, buy_in, seat)
        return self.on_table_change()

    def on_top_up(self, seat: object, amount: object) -> Outcome | None:
        """Add chips to ``seat``'s stack; refused for a player in the hand in progress."""
        add_chips(self.ctx, seat, amount)
        return self.on_table_change()

    def on_sit_out(self, seat: object) -> Outcome | None:
        """Sit ``seat`` out from the next hand on; a hand they are in is played out."""
        mark_sitting_out(self.ctx, seat)
        return None

    def on_sit_in(self, seat: object) -> Outcome | None:
        """Deal ``seat`` in again from the next hand; refused with no chips."""
        if mark_sitting_in(self.ctx, seat):
            return self.on_table_change()
        return None

    def on_leave(self, seat: object) -> Outcome | None:
        """``seat`` cashes out. Not in the hand in progress: the seat is freed and the stack paid
        at once. In it: the player's hand is folded now -- through the action of the stage when it
        is their turn facing a bet, which a betting stage takes as a fold (``act`` with ``"fold"``)
        -- an all-in hand stays live, and the seat is freed when the hand ends (Robert's Rules of
        Poker: a player away from the table when it is their turn has a dead hand; chips committed
        to the pot stay in it)."""
        ctx = self.ctx
        p = ctx.table.player(seat)  # type: ignore[arg-type]  # TableError names an empty or unknown seat
        hp = hand_of(ctx, p)
        if hp is None:
            free_seat(ctx, p)
            return self.on_table_change()
        if hp.folded or hp.all_in:
            p.leaving = True
            return None
        la = self._pending_action()
        if la is not None and la.seat == p.seat and la.call_amount > 0 and "act" in self.events:
            self.handle("act", p.seat, "fold")  # their turn, facing a bet: the fold is their action
            p.leaving = True
            return None  # how the stage ended, if it did, was recorded by the fold
        p.leaving = True
        fold_leaver(ctx, hp)
        return self.on_table_change()

    def on_muck(self, seat: object) -> Outcome | None:
        """Muck ``seat``'s hand once betting is over (the run-out or the showdown): the hand is dead,
        its chips stay in the pot and it wins nothing (Robert's Rules, showdown). Refused while a
        player is to bet or draw, and for the last live hand."""
        hp = check_muck(self.ctx, seat, self._pending_decision())
        hand = self.ctx.hand
        assert hand is not None
        hp.folded = True
        hand.mucked = hand.mucked | {hp.seat}
        return self.on_table_change()  # a stage waiting on that hand (a run-out choice) re-checks

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
    """Top ``seat`` up by ``amount``: only between hands for a player in the hand in progress
    (Robert's Rules of Poker: chips may be added only between deals)."""
    p = ctx.table.player(seat)  # type: ignore[arg-type]
    hand = ctx.hand
    if hand is not None and hand_of(ctx, p) is not None:
        raise TableError(
            f"Seat {p.seat} is in hand #{hand.number}; chips can be added only between hands "
            "(Robert's Rules of Poker)."
        )
    ctx.table.top_up(p.seat, amount)  # type: ignore[arg-type]
    ctx.emit(ChipsAdded(p.seat, amount, p.stack))  # type: ignore[arg-type]  # top_up checked it
    return p


def mark_sitting_out(ctx: Context, seat: object) -> None:
    """Mark ``seat`` sitting out (from the next hand on) and log it, unless it already is."""
    p = ctx.table.player(seat)  # type: ignore[arg-type]
    if not p.sitting_out:
        p.sitting_out = True
        ctx.emit(PlayerSatOut(p.seat))


def mark_sitting_in(ctx: Context, seat: object) -> bool:
    """Deal ``seat`` in again from the next hand; ``True`` if that changed anything. A player with
    no chips must top up first."""
    p = ctx.table.player(seat)  # type: ignore[arg-type]
    if p.stack == 0:
        raise TableError(f"Seat {p.seat} has no chips; top up before sitting in.")
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
    """Fold the hand of a player who left mid-hand (out of turn, or with no bet to face)."""
    hp.folded = True
    ctx.emit(ActionTaken(hp.seat, "fold", 0, hp.bet))


def check_muck(ctx: Context, seat: object, deciding: bool) -> HandPlayer:
    """``seat``'s live hand if it may be mucked now, else :class:`IllegalActionError`: it must be a
    live hand, betting must be over (``deciding``: a player is to bet or draw), and it must not be
    the last live hand (that hand wins the pot)."""
    hand = ctx.hand
    hp = hand.by_seat.get(seat) if hand is not None and isinstance(seat, int) else None
    if hand is None or hp is None or hp.folded:
        raise IllegalActionError(f"Seat {excerpt(seat)} has no live hand to muck.", rule="muck without a hand")
    if deciding:
        raise IllegalActionError("A hand can be mucked only once betting is over.", rule="muck before showdown")
    if hand.live_count() < 2:
        raise IllegalActionError("The last live hand cannot be mucked.", rule="muck the last hand")
    return hp
