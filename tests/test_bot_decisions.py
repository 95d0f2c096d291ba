"""Every built-in bot answers seeded games exactly as recorded in ``tests/data/bot_decisions.json``
(regenerate with ``python -c "from tests.test_bot_decisions import record; record()"``, only when a bot is
meant to change)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import variants
from cardgame import Game
from cardgame.model.cards import Card
from cardgame.play.bot import Answer, Bot, BotView
from cardgame.play.bots import available, get, random_bot

DATA = Path(__file__).resolve().parent / "data" / "bot_decisions.json"
#: variant, its options, players, hands
TABLES = {
    "NT": ({}, 3, 8),
    "NT run twice, show or muck": ({"run_it_twice": True, "show_or_muck": True}, 3, 8),
    "F2L3D": ({}, 3, 5),
    "F7S": ({}, 3, 5),
    "leduc hold'em": ({}, 2, 12),
}


def _said(answer: Answer) -> str:
    if isinstance(answer, tuple) and len(answer) == 2 and isinstance(answer[0], str):
        return f"{answer[0]} {answer[1]}"
    if isinstance(answer, list | tuple):
        return "discard " + " ".join(str(Card(c)) for c in answer)
    return str(answer)


def _recorder(bot: Bot, said: list[str]) -> Callable[[BotView], Answer]:
    def asked(view: BotView) -> Answer:
        answer = bot(view)
        said.append(f"{view.seat}:{_said(answer)}")
        return answer

    return asked


def decisions(name: str, table: str) -> list[str]:
    """The answers of every seat (``name`` at seat 0, random bots at the others) in a seeded game."""
    options, players, hands = TABLES[table]
    code = table.split(" run")[0]
    variant = variants.get(code)
    game = Game(variant.build(**options), seats=players, seed=7, max_hands=hands, deck=variant.deck)
    for i in range(players):
        game.sit_down(f"p{i}", 300)
    game.start()
    said: list[str] = []
    game.play({0: _recorder(get(name), said), **{s: _recorder(random_bot, said) for s in range(1, players)}})
    return said


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("name", available())
def test_every_bot_answers_seeded_games_as_recorded(name: str, table: str) -> None:
    expected = json.loads(DATA.read_text())[f"{name} / {table}"]
    assert decisions(name, table) == expected


def record() -> None:
    """Write the answers of every bot at every table to ``DATA``."""
    DATA.write_text(json.dumps({f"{n} / {t}": decisions(n, t) for n in available() for t in TABLES}, indent=0) + "\n")
