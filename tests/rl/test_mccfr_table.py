"""scripts/mccfr_table.py run small: our MCCFR beside OpenSpiel's on Leduc (equal for the same seed,
scored by pyspiel's nash_conv), and the hold'em abstraction's policy against a bot."""

from __future__ import annotations

import pytest

from cardgame.model.cards import parse_cards
from cardgame.play.game import Game
from scripts import mccfr_table


def test_the_leduc_rows_are_openspiels(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspiel")
    monkeypatch.setattr(mccfr_table, "LEDUC_RUNS", {2: (3, 8)})
    rows = mccfr_table.leduc_rows()
    assert len(rows) == 2 * 2  # a row a sampling and checkpoint
    for row in rows:
        cells = row.strip("|").split("|")
        assert cells[0].strip() == "2" and float(cells[3]) == float(cells[4]) > 0, row  # ours, OpenSpiel's


def test_the_holdem_table_and_its_abstraction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mccfr_table, "HOLDEM_ITERATIONS", 2)
    monkeypatch.setattr(mccfr_table, "HOLDEM_DEALS", 3)
    monkeypatch.setattr(mccfr_table, "BOTS", ("calling-station",))
    table = mccfr_table.holdem_table()
    lines = table.splitlines()
    assert lines[0] == "| opponent | untrained (uniform) | MCCFR |" and lines[2].startswith("| calling-station | ")
    assert "2 iterations" in lines[-1] and "3 deals" in lines[-1]
    text = mccfr_table.fill(mccfr_table.DOC, mccfr_table.DOC.read_text(encoding="utf-8"),
                            {"mccfr-holdem": lambda: table})
    assert table in text  # docs/rl.md has the section the script fills

    game = Game(mccfr_table.SpielGame("FT", 2, stack=20).env.variant.build(), seats=2, seed=1, first_button=1)
    for seat in range(2):
        game.sit_down(f"player_{seat}", 20, seat)
    game.stack_deck(parse_cards("Ah Kh 7c 7d 3h 7s 2c 9d"))  # each player's cards together; the burn; the flop
    game.start()
    seat = game.to_act
    assert seat == 1
    key = mccfr_table.holdem_key(game, 1)
    assert key.startswith("1|77|") and " is dealt " not in key and "7c" not in key
    assert mccfr_table.holdem_key(game, 0).startswith("0|AKs|")
    game.act(1, "call")
    game.act(0, "check")  # the flop: 7s 2c 9d
    assert mccfr_table.holdem_key(game, 0) == ("0|0|player_1 posts small blind 1/player_0 posts big blind 2/"
                                               "player_1 calls 1/player_0 checks/Flop")
    assert mccfr_table.holdem_key(game, 1).startswith("1|3+|")  # trips the board does not make
