"""ACPC game definitions: the transcripts' files, writing them back, the standard games, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgame.acpc.gamedef import MAX_STACK, STANDARD_GAMES, GameDef, load_gamedef, parse_gamedef, read_gamedef
from cardgame.evaluation import HIGH
from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.errors import ConfigError
from tests.acpc.conftest import Transcript

HU_LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]


def test_the_transcripts_game_files_are_the_standard_games(transcripts: list[Transcript]) -> None:
    for t in transcripts:
        game = t.game
        assert STANDARD_GAMES[t.game_name.removesuffix(".game")] == game
        assert parse_gamedef(game.to_text()) == game


def test_the_reference_writes_hold_em_files_back_byte_for_byte(transcripts: list[Transcript]) -> None:
    # the hold'em files list their fields in the reference's order; Kuhn's lists stack last and a
    # firstPlayer of 1, which the reference leaves out when it writes a definition
    written = {t.game_name: t.game.to_text() == t.game_text for t in transcripts}
    assert written == {"holdem.limit.2p.reverse_blinds.game": True, "holdem.nolimit.2p.reverse_blinds.game": True,
                       "holdem.limit.3p.game": True, "kuhn.limit.3p.game": False}


def test_fields_map_onto_the_engine() -> None:
    kuhn = STANDARD_GAMES["kuhn.limit.3p"]
    assert (kuhn.deck.ranks, kuhn.deck.suits, kuhn.evaluator) == ("JQKA", "s", HIGH_CARD)
    leduc = STANDARD_GAMES["leduc.limit.2p"]
    assert (leduc.deck.ranks, leduc.deck.suits, leduc.evaluator) == ("QKA", "hs", LEDUC)
    assert HU_LIMIT.evaluator is HIGH and len(HU_LIMIT.deck) == 52
    assert HU_LIMIT.stack_sizes == (MAX_STACK, MAX_STACK) and HU_LIMIT.raise_caps == (3, 4, 4, 4)
    assert STANDARD_GAMES["holdem.nolimit.3p"].big_blind == 100
    assert STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"].raise_caps == (None,) * 4


def test_parsing_is_case_insensitive_with_comments_and_optional_equals() -> None:
    text = ("# a comment\ngamedef\nLIMIT\nnumplayers 2\nNUMROUNDS = 4\nblind = 10 = 5\nraisesize = 10 10 20 20\n"
            "firstplayer = 2 1 1 1\nmaxraises = 3 4 4 4\nnumsuits = 4\nnumranks = 13\nnumholecards = 2\n"
            "numboardcards = 0 3 1 1\nend gamedef\nanything after the end is not read\n")
    assert parse_gamedef(text) == HU_LIMIT


def test_load_by_name_or_path(tmp_path: Path) -> None:
    assert load_gamedef("leduc.limit.2p") == STANDARD_GAMES["leduc.limit.2p"]
    assert load_gamedef("kuhn.limit.3p.game") == STANDARD_GAMES["kuhn.limit.3p"]
    path = tmp_path / "mine.game"
    path.write_text(HU_LIMIT.to_text())
    assert load_gamedef(path) == read_gamedef(path) == HU_LIMIT
    with pytest.raises(ConfigError, match="no standard game of that name; the standard games are holdem"):
        load_gamedef(tmp_path / "missing.game")


def _file(**changes: str | None) -> str:
    fields = {"betting": "limit", "numPlayers": "2", "numRounds": "4", "blind": "10 5", "raiseSize": "10 10 20 20",
              "firstPlayer": "2 1 1 1", "maxRaises": "3 4 4 4", "numSuits": "4", "numRanks": "13",
              "numHoleCards": "2", "numBoardCards": "0 3 1 1"}
    fields.update(changes)
    lines = ["GAMEDEF"]
    for key, value in fields.items():
        if value is not None:
            lines.append(value if key == "betting" else f"{key} = {value}")
    return "\n".join([*lines, "END GAMEDEF"])


@pytest.mark.parametrize(("changes", "message"), [
    ({"numPlayers": None}, "numPlayers is missing"),
    ({"numPlayers": "11"}, "numPlayers values must be whole numbers from 2 to 10, not 11"),
    ({"numRounds": "5"}, "numRounds values must be whole numbers from 1 to 4"),
    ({"blind": "10"}, "blind needs 2 values, one per position; it has 1"),
    ({"blind": "10 x"}, r"line 5: blind values must be whole numbers, not '10 x'"),
    ({"raiseSize": None}, "raiseSize is missing; a limit game needs one raise size per round"),
    ({"firstPlayer": "3 1 1 1"}, "firstPlayer values must be whole numbers from 1 to 2, not 3"),
    ({"maxRaises": "3 4"}, "maxRaises needs 4 values, one per round; it has 2"),
    ({"numSuits": "5"}, "numSuits values must be whole numbers from 1 to 4"),
    ({"numHoleCards": "4"}, "numHoleCards values must be whole numbers from 1 to 3"),
    ({"numHoleCards": "3", "numBoardCards": "0 3 1 1"}, "8-card hands, which the engine cannot rank"),
    ({"numHoleCards": "2", "numBoardCards": "0 1 1 0"}, "numHoleCards = 2 with numBoardCards = 0 1 1 0 makes 4-card"),
    ({"numRanks": "3", "numSuits": "2"}, "deal 9 cards but numSuits x numRanks make a deck of 6"),
    ({"stack": "5 5"}, "blind 10 of position 0 is above its stack 5"),
    ({"numBoardCards": None}, "numBoardCards is missing"),
    ({"colour": "red"}, "unknown field 'colour'; the fields are limit, nolimit, stack, blind"),
])
def test_bad_files_name_the_field(changes: dict[str, str | None], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_gamedef(_file(**changes))


def test_bad_structure() -> None:
    with pytest.raises(ConfigError, match="no END GAMEDEF line"):
        parse_gamedef(_file().replace("END GAMEDEF", ""))
    with pytest.raises(ConfigError, match="comes before GAMEDEF"):
        parse_gamedef("limit\n" + _file())
    with pytest.raises(ConfigError, match="numPlayers is given twice"):
        parse_gamedef(_file().replace("numRounds", "numPlayers = 2\nnumRounds"))
    with pytest.raises(ConfigError, match="nolimit game has none"):
        GameDef("nolimit", 2, 1, (1, 1), (1,), 4, 13, 2, (3,), raise_sizes=(2,))
    with pytest.raises(ConfigError, match="is text"):
        parse_gamedef(b"GAMEDEF")  # type: ignore[arg-type]


def test_no_limit_ignores_raise_sizes_and_writes_stacks() -> None:
    game = parse_gamedef(_file(betting="nolimit", stack="200 200"))
    assert game.raise_sizes is None and game.stacks == (200, 200)
    assert "raiseSize" not in game.to_text() and "stack = 200 200" in game.to_text()
