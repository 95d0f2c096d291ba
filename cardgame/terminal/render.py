"""The table drawn with rich for a terminal 80 columns wide: one :class:`~cardgame.play.view.TableView`
becomes a header (hand, street, pot and side pots, whose turn, the clock), the board, one row a seat
(cards with suit symbols, red hearts and diamonds, face-down cards as a back; stack, bet, state) and
the last actions.

Plain text carries all of it, colour only repeats it: a card is ``A♠``, a face-down card ``▒▒``;
in stud the up cards are in [brackets] (as in :mod:`cardgame.play.narration`'s history) and no
button is shown; ``>`` marks the seat to act, ``(you)`` the viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardgame.model.cards import Card
from cardgame.play.view import SeatView, TableView

__all__ = ["BACK", "SUIT_SYMBOLS", "card_text", "cards_text", "pots_text", "render_table"]

#: The suit symbols in suit order (clubs, diamonds, hearts, spades: :attr:`Card.suit`).
SUIT_SYMBOLS = "♣♦♥♠"
#: A face-down card.
BACK = "▒▒"
_SUIT_STYLES = ("bold", "bold red", "bold red", "bold")


def card_text(card: Card | None) -> Text:
    """One card: ``A♠`` (red for hearts and diamonds), or the back ``▒▒`` for a card not seen."""
    if card is None:
        return Text(BACK, style="blue")
    return Text(card.rank_char + SUIT_SYMBOLS[card.suit], style=_SUIT_STYLES[card.suit])


def cards_text(cards: Sequence[Card | None], face_up: Sequence[bool] = (), *, stud: bool = False) -> Text:
    """Cards separated by spaces; with ``stud``, each run of face-up cards in [brackets]."""
    out = Text()
    up = list(face_up) + [False] * (len(cards) - len(face_up))
    opened = False
    for i, card in enumerate(cards):
        shown = stud and up[i]
        if i:
            out.append("]" if opened and not shown else "")
            out.append(" ")
            if opened and not shown:
                opened = False
        if shown and not opened:
            out.append("[")
            opened = True
        out.append_text(card_text(card))
    if opened:
        out.append("]")
    return out


def pots_text(view: TableView) -> str:
    """``Pot 120``, or once there are side pots in the middle ``Pot 300: main 200, side 60 (Ann, Bob)``,
    numbered when several, and ``40 in bets`` for this street's bets, still in front of the players
    (Robert's Rules: each all-in player caps the pot they may win; bets are gathered into the pot
    when the round ends)."""
    head = f"Pot {view.pot}"
    if len(view.pots) < 2:
        return head
    names = {s.seat: s.name for s in view.seats}
    parts = [f"main {view.pots[0].amount}"]
    several = len(view.pots) > 2
    for i, pot in enumerate(view.pots[1:], 1):
        who = ", ".join(names.get(seat, f"seat {seat}") for seat in pot.eligible)
        parts.append(f"side{f' {i}' if several else ''} {pot.amount} ({who})")
    bets = view.pot - sum(p.amount for p in view.pots)
    if bets:
        parts.append(f"{bets} in bets")
    return f"{head}: {', '.join(parts)}"


def _state(seat: SeatView, stud: bool) -> str:
    words = []
    if seat.button and not stud:
        words.append("button")
    if seat.sitting_out:
        words.append("sitting out")
    elif seat.folded:
        words.append("folded")
    elif seat.all_in:
        words.append("all in")
    return ", ".join(words)


def render_table(
    view: TableView,
    *,
    stud: bool = False,
    last_actions: Sequence[str] = (),
    clock: float | None = None,
    title: str | None = None,
    seat_label: Callable[[int], str] = str,
) -> RenderableType:
    """The table as ``view``'s viewer sees it, to print on a rich console (80 columns fit).

    ``stud``: up cards in brackets, no button; ``last_actions``: history lines shown under the
    table (e.g. :class:`~cardgame.play.narration.Narration`'s); ``clock``: seconds the player to act
    has left; ``title``: a first line (the game and its stakes); ``seat_label``: a seat's number as
    shown (default the engine's, from 0; a hand history's ``p1``... in a replay).
    """
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="bold"))
    if view.hand is None:
        head = Text("Between hands")
    else:
        head = Text(f"Hand #{view.hand}", style="bold")
        if view.street:
            head.append(f"  {view.street}")
        head.append("  ")
        head.append(pots_text(view), style="bold yellow")
    by_seat = {s.seat: s for s in view.seats}
    if view.to_act is not None and view.to_act in by_seat:
        whom = "you" if view.to_act == view.viewer else by_seat[view.to_act].name
        head.append(f"  {whom} to act", style="bold green" if view.to_act == view.viewer else "")
    if clock is not None:
        head.append(f"  ⏱ {max(0, int(clock + 0.999))}s", style="bold magenta" if clock > 10 else "bold red")
    parts.append(head)
    if view.board:
        board = Text("Board: ")
        board.append_text(cards_text(view.board))
        parts.append(board)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("", width=1, no_wrap=True)
    table.add_column("Seat", justify="right", no_wrap=True)
    table.add_column("Name", max_width=16, overflow="ellipsis", no_wrap=True)
    table.add_column("Cards", no_wrap=True)
    table.add_column("Stack", justify="right", no_wrap=True)
    table.add_column("Bet", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for i, s in enumerate(view.seats):
        up = view.face_up[i] if i < len(view.face_up) else ()
        turn = view.to_act == s.seat
        name = s.name + (" (you)" if s.seat == view.viewer and s.name.lower() != "you" else "")
        style = "dim" if s.folded or s.sitting_out else "bold green" if turn else ""
        table.add_row(
            Text(">" if turn else "", style="bold green"),
            seat_label(s.seat),
            Text(name, style=style),
            cards_text(s.hole, up, stud=stud) if s.in_hand and not s.folded else Text(""),
            str(s.stack),
            str(s.bet) if s.bet else "",
            _state(s, stud),
        )
    parts.append(table)
    if last_actions:
        parts.append(Text("\n".join(last_actions), style="italic"))
    return Group(*parts)
