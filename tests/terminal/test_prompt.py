"""Typed answers read against the game's legal actions: words, shortcuts at pot-limit sizes brought
into the legal range, discards by card or position, run-outs; bad input explained."""

from __future__ import annotations

import pytest

from cardgame.model.cards import Card, parse_cards
from cardgame.model.legal import LegalActions
from cardgame.stages.results import DrawOptions, RunOptions
from cardgame.terminal.prompt import Choice, InputError, action_help, parse_action, parse_discards, parse_runs, sizes

# Facing a raise to 6 with 1 in (the small blind), 9 in the pot, 200 behind: call 5, raise to 10..201.
FACING = LegalActions(seat=0, can_fold=True, can_check=False, call_amount=5, can_raise=True, min_raise_to=10,
                      max_raise_to=201, bet_to=6, stack=200)
OPEN = LegalActions(0, False, True, 0, True, 2, 100, 0, 100)
LIMIT = LegalActions(0, True, False, 2, True, 4, 4, 2, 100, 0, (4,))


@pytest.mark.parametrize(("text", "choice"), [
    ("f", Choice("act", "fold")), ("FOLD", Choice("act", "fold")), ("c", Choice("act", "call")),
    ("r 12", Choice("act", "raise", 12)), ("raise 201", Choice("act", "raise", 201)),
    ("15", Choice("act", "raise", 15)),
    ("min", Choice("act", "raise", 10)), ("allin", Choice("act", "raise", 201)), ("r min", Choice("act", "raise", 10)),
    ("help", Choice("help")), (" q ", Choice("quit")), ("save", Choice("save")),
])
def test_betting_words(text: str, choice: Choice) -> None:
    assert parse_action(text, FACING, 9) == choice


def test_pot_sizes_follow_the_pot_limit_rule() -> None:
    # Robert's Rules: call 5 first (pot 14), then raise by the pot: to 6 + 14 = 20; half: 6 + 7 = 13.
    assert sizes(FACING, 9).pot == 20 and sizes(FACING, 9).half == 13
    assert parse_action("pot", FACING, 9) == Choice("act", "raise", 20)
    assert parse_action("half", OPEN, 9) == Choice("act", "bet", 4)


def test_shortcuts_are_clamped_and_say_so() -> None:
    choice = parse_action("half", OPEN, 3)  # half of 3 is 1, below the least bet 2
    assert (choice.action, choice.amount) == ("bet", 2) and "least" in choice.note
    assert parse_action("pot", OPEN, 500).amount == 100
    assert parse_action("pot", LIMIT, 50) == Choice("act", "raise", 4, note=parse_action("pot", LIMIT, 50).note)


@pytest.mark.parametrize(("text", "said"), [
    ("x", "You cannot check: 5 to call"), ("r 8", "the least is 10"), ("r 500", "the most is 201"),
    ("jump", "'jump' is not an action"), ("c 5", "call takes no amount"), ("r lots", "'lots' is not an amount"),
    ("", "Nothing was typed"), ("r 1 2", "more than an action and an amount"),
    ("r", "r needs an amount (r N, or r min)"), ("b", "b needs an amount"),  # a stray letter costs no chips
    ("9" * 30, "is more than the most, 201"), ("r " + "9" * 30, "is more than the most, 201"), ("-5", "not below 0"),
    ("r -5", "not below 0"),
])
def test_bad_input_is_explained_with_what_is_allowed(text: str, said: str) -> None:
    with pytest.raises(InputError) as info:
        parse_action(text, FACING, 9)
    assert said in str(info.value) and "f (fold), c (call 5), r N (raise to N, 10 to 201)" in str(info.value)


def test_limit_amounts_and_checks() -> None:
    with pytest.raises(InputError, match="the limit allows 4"):
        parse_action("6", LIMIT, 4)
    assert parse_action("c", OPEN, 4) == Choice("act", "check", note="Nothing to call: you check.")
    with pytest.raises(InputError, match="nothing to fold"):
        parse_action("f", OPEN, 4)
    assert "min 2, half 2, pot 4, allin 100" in action_help(OPEN, 4)
    assert "Shortcuts" not in action_help(LIMIT, 4)  # one size a bet: no shortcuts to list
    assert "quit: leave; save first" in action_help(OPEN, 4)


def test_completing_a_bring_in_is_called_so() -> None:
    facing = LegalActions(0, True, False, 1, True, 4, 4, 1, 100)  # stud: the bring-in of 1 posted, full bet 4
    assert "r 4 (complete to 4)" in action_help(facing, 3, completing=True)
    with pytest.raises(InputError, match=r"r 4 \(complete to 4\)"):
        parse_action("r 9", facing, 3, completing=True)


def test_bring_in() -> None:
    legal = LegalActions(0, True, False, 0, True, 5, 5, 0, 100, 2)
    assert parse_action("bi", legal, 3) == Choice("act", "bring_in")
    assert parse_action("5", legal, 3) == Choice("act", "bet", 5)
    with pytest.raises(InputError, match="forced"):
        parse_action("f", legal, 3)


def test_discards_by_card_or_position() -> None:
    hole = parse_cards("Ah 7c Td 2s 3s")
    options = DrawOptions(0, hole, 5)
    assert parse_discards("7c td", options).cards == (Card("7c"), Card("Td"))
    assert parse_discards("2 3", options).cards == (Card("7c"), Card("Td"))
    assert parse_discards("pat", options).cards == () and parse_discards("", options).cards == ()
    for bad, said in (("Kh", "not in your hand"), ("9", "no card at position '9'"), ("1 1", "named twice"),
                      ("zz", "Discard 0 to 5")):
        with pytest.raises(InputError, match=said):
            parse_discards(bad, options)
    pineapple = DrawOptions(0, hole[:3], 1, 1, replace=False)
    with pytest.raises(InputError, match="exactly 1"):
        parse_discards("pat", pineapple)


def test_run_outs() -> None:
    assert parse_runs("2", RunOptions(0, 2)) == Choice("runs", runs=2)
    assert parse_runs("once", RunOptions(0, 2)).runs == 1
    with pytest.raises(InputError, match="Type 1 to 2"):
        parse_runs("3", RunOptions(0, 2))
