"""render_table draws a hand-built TableView: cards with suit symbols and colour, backs, the pot and
side pots, whose turn, stud's up cards in brackets and no button, in 80 columns."""

from __future__ import annotations

import io

from rich.console import Console

from cardgame.model.cards import Card
from cardgame.model.pots import Pot
from cardgame.play.view import SeatView, TableView
from cardgame.terminal.render import BACK, card_text, render_table


def _seat(seat: int, name: str, stack: int, bet: int, hole: tuple[Card | None, ...], **flags: bool) -> SeatView:
    return SeatView(seat, name, stack, bet, bet, hole, True, flags.get("folded", False), flags.get("all_in", False),
                    False, flags.get("button", False))


def _view(**changes: object) -> TableView:
    c = Card
    seats = (_seat(0, "Ann", 150, 0, (c("Ah"), c("Kd")), button=True),
             _seat(1, "Bob", 0, 0, (None, None), all_in=True),
             _seat(2, "Cat", 200, 0, (None, None), folded=True))
    base = dict(viewer=0, hand=7, street="flop", pot=83, board=(c("2c"), c("Th"), c("Qs")), to_act=0, seats=seats,
                pots=(Pot(63, (0, 1)), Pot(20, (0,))))
    base.update(changes)
    return TableView(**base)  # type: ignore[arg-type]


def _draw(view: TableView, **kw: object) -> tuple[str, str]:
    console = Console(record=True, width=80, color_system="truecolor", force_terminal=True, file=io.StringIO())
    console.print(render_table(view, **kw))  # type: ignore[arg-type]
    return console.export_text(clear=False), console.export_text(styles=True)


def test_a_hold_em_table() -> None:
    text, styled = _draw(_view(), last_actions=["Bob raises to 30 and is all in", "Cat folds"], clock=14.2)
    lines = text.splitlines()
    assert lines[0] == "Hand #7  flop  Pot 83: main 63, side 20 (Ann)  you to act  ⏱ 15s"
    assert lines[1] == "Board: 2♣ T♥ Q♠"
    row = next(line for line in lines if "Ann (you)" in line)
    assert row.startswith(">") and "A♥ K♦" in row and "150" in row and "button" in row
    bob = next(line for line in lines if "Bob" in line)
    assert f"{BACK} {BACK}" in bob and "all in" in bob
    cat = next(line for line in lines if "Cat" in line)
    assert "folded" in cat and BACK not in cat  # a folded hand shows no cards
    assert lines[-2:] == ["Bob raises to 30 and is all in", "Cat folds"]
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b[1;31mA♥" in styled or "\x1b[31;1mA♥" in styled  # hearts in red


def test_bets_in_front_are_no_side_pot_and_between_hands() -> None:
    view = _view(pots=(Pot(53, (0, 1)),), pot=83,  # this street's 30: in front of the players, not a pot
                 seats=tuple(s if s.seat != 1 else _seat(1, "Bob", 0, 30, (None, None), all_in=True)
                             for s in _view().seats))
    assert _draw(view)[0].splitlines()[0] == "Hand #7  flop  Pot 83  you to act"
    view = _view(pot=93, seats=tuple(s if s.seat != 0 else _seat(0, "Ann", 140, 10, (Card("Ah"), Card("Kd")))
                                     for s in _view().seats))
    assert _draw(view)[0].splitlines()[0] == "Hand #7  flop  Pot 93: main 63, side 20 (Ann), 10 in bets  you to act"
    assert _draw(_view(hand=None, to_act=None, board=(), pots=()))[0].startswith("Between hands")


def test_stud_shows_up_cards_in_brackets_and_no_button() -> None:
    c = Card
    seats = (_seat(0, "Ann", 150, 0, (c("Ah"), c("Kd"), c("5s"), c("5h")), button=True),
             _seat(1, "Bob", 90, 0, (None, None, c("Jc"), c("2d"))))
    view = _view(board=(), pots=(), to_act=1, street="fourth street", seats=seats,
                 face_up=((False, False, True, True), (False, False, True, True)))
    text = _draw(view, stud=True, title="Seven-card stud")[0]
    assert text.splitlines()[0] == "Seven-card stud"
    assert "Bob to act" in text.splitlines()[1]
    assert "A♥ K♦ [5♠ 5♥]" in text and f"{BACK} {BACK} [J♣ 2♦]" in text
    assert "button" not in text


def test_card_text() -> None:
    assert [card_text(Card(t)).plain for t in ("Tc", "2d", "Qh", "As")] == ["T♣", "2♦", "Q♥", "A♠"]
    assert card_text(None).plain == BACK
