"""Snapshots of a game as one seat may see it, and the status table (the Perl seed's ``status``)."""

from __future__ import annotations

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.cards import Card, format_cards
from cardgame.model.context import Context
from cardgame.model.pots import Pot, settled_pots

__all__ = ["SeatRow", "SeatView", "TableView", "seat_rows", "status_legend", "status_table", "table_view"]


@fast_init
@attrs.frozen
class SeatView:
    """One seat as the viewer sees it; ``hole`` has ``None`` for cards the viewer may not see."""

    seat: int
    name: str
    stack: int
    bet: int
    in_pot: int
    hole: tuple[Card | None, ...]
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool
    button: bool


@fast_init
@attrs.frozen
class TableView:
    """The table as ``viewer`` sees it (``None``: a spectator sees no hidden card). ``pots`` are the
    main pot and the side pots in the middle, from the chips put in before this street (its bets are
    still in front of the players: ``SeatView.bet``; empty: no hand); ``face_up[i]`` says
    which of ``seats[i].hole`` were dealt face up (stud's up cards; empty: none, or not given)."""

    viewer: int | None
    hand: int | None
    street: str
    pot: int
    board: tuple[Card, ...]
    to_act: int | None
    seats: tuple[SeatView, ...]
    pots: tuple[Pot, ...] = ()
    face_up: tuple[tuple[bool, ...], ...] = ()

    def seat(self, seat: int) -> SeatView:
        return next(s for s in self.seats if s.seat == seat)


#: One seat's row as plain values read at one moment, in :class:`SeatView`'s field order.
SeatRow = tuple[int, str, int, int, int, tuple[Card | None, ...], bool, bool, bool, bool, bool]


def seat_rows(ctx: Context, viewer: int | None = None, *, reveal: bool = False) -> tuple[SeatRow, ...]:
    """Every seated player's row as ``viewer`` sees it (``SeatView(*row)``), read now: the values are
    copied, so the rows stay as they were when the game moves on."""
    hand = ctx.hand
    by_seat = hand.by_seat if hand is not None else {}
    button = ctx.table.button
    rows: list[SeatRow] = []
    append = rows.append
    for p in ctx.table.seats:
        if p is None:
            continue
        seat = p.seat
        hp = by_seat.get(seat)
        if hp is None:
            append((seat, p.name, p.stack, 0, 0, (), False, False, False, p.sitting_out, button == seat))
            continue
        if reveal or viewer == seat:
            hole: tuple[Card | None, ...] = tuple(hp.hole)
        elif True in hp.face_up:
            hole = tuple([c if up else None for c, up in zip(hp.hole, hp.face_up, strict=True)])
        else:
            hole = _HIDDEN[len(hp.hole)]
        append((seat, p.name, p.stack, hp.bet, hp.contributed, hole, True, hp.folded, hp.all_in, p.sitting_out,
                button == seat))
    return tuple(rows)


#: ``_HIDDEN[n]``: n cards face down.
_HIDDEN = tuple((None,) * n for n in range(53))


def table_view(
    ctx: Context, viewer: int | None = None, *, reveal: bool = False, to_act: int | None = None
) -> TableView:
    """Snapshot the table for ``viewer``; ``reveal=True`` shows every card (for a dealer or log).
    ``to_act`` is the seat the game waits on (the current stage knows it: ``Game.to_act``)."""
    hand = ctx.hand
    rows = seat_rows(ctx, viewer, reveal=reveal)
    return TableView(
        viewer=viewer,
        hand=hand.number if hand else None,
        street=hand.street if hand else "",
        pot=hand.pot_total() if hand else 0,
        board=tuple(hand.board) if hand else (),
        to_act=to_act if hand else None,
        seats=tuple([SeatView(*row) for row in rows]),
        pots=tuple(settled_pots(hand.players, hand.dead)) if hand else (),
        face_up=tuple([_face_up(ctx, row[0]) for row in rows]),
    )


def _face_up(ctx: Context, seat: int) -> tuple[bool, ...]:
    hp = ctx.hand.by_seat.get(seat) if ctx.hand is not None else None
    return tuple(hp.face_up) if hp is not None else ()


def status_table(view: TableView, *, button: bool = True) -> str:
    """A plain-text status table: pot, street, board, then one row a seat.

    The ``State`` column: ``>`` acts next, ``F`` folded, ``A`` all-in, ``-`` sitting out;
    ``(B)`` after a name marks the button (``button=False``: not marked, as in stud).
    """
    if view.hand is None:
        head = "Between hands"
    else:
        head = f"Hand #{view.hand}  Street: {view.street or '-'}  Pot: {view.pot}"
    if view.board:
        head += f"  Board: {format_cards(view.board)}"
    lines = [head, f"{'State':<6}{'Seat':>4}  {'Name':<14}{'Stack':>9}{'Bet':>7}{'InPot':>8}  Cards"]
    for s in view.seats:
        mark = ">" if view.to_act == s.seat else "F" if s.folded else "A" if s.all_in else "-" if s.sitting_out else ""
        name = s.name + (" (B)" if s.button and button else "")
        cards = " ".join("??" if c is None else str(c) for c in s.hole)
        lines.append(f"{mark:<6}{s.seat:>4}  {name:<14}{s.stack:>9}{s.bet:>7}{s.in_pot:>8}  {cards}")
    return "\n".join(lines)


def status_legend(*, button: bool = True) -> str:
    """What the status table's marks mean, in one line."""
    tail = "; (B) after a name: the button" if button else ""
    return (f"State: > acts next, F folded, A all-in, - sitting out{tail}. "
            "Bet: chips put in on this street; InPot: in the pot this hand.")
