"""ACPC game definitions: the transcripts' files, writing them back, the standard games, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

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


# --- writing a definition and reading it back -------------------------------------------------------------


def test_a_definition_with_the_references_defaults_given_reads_back_unchanged() -> None:
    # maxRaises = 255 (the reference's UINT8_MAX) and stack = INT32_MAX were left out when written, so
    # they read back as None (not given): the definition changed on the way through its own text
    capped = GameDef("limit", 3, 1, (1, 1, 1), (1,), 1, 4, 1, (0,), raise_sizes=(1,), max_raises=(255,))
    assert parse_gamedef(capped.to_text()) == capped
    assert "maxRaises = 255" in capped.to_text()
    deep = GameDef("nolimit", 3, 4, (50, 100, 0), (3, 1, 1, 1), 4, 13, 2, (0, 3, 1, 1), stacks=(MAX_STACK,) * 3,
                   max_raises=(255, 3, 255, 255))
    assert parse_gamedef(deep.to_text()) == deep


def test_a_definition_refuses_values_of_the_wrong_type_with_a_short_message() -> None:
    with pytest.raises(ConfigError, match=r"numPlayers values must be whole numbers from 2 to 10, not True"):
        GameDef("limit", True, 1, (1, 1), (1,), 1, 4, 1, (0,), raise_sizes=(1,))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"blind values .* not a whole number of about 3,010 digits") as info:
        GameDef("nolimit", 2, 1, (10**3010, 1), (1,), 1, 4, 1, (0,))
    assert len(str(info.value)) < 200
    with pytest.raises(ConfigError, match=r"betting type .* not 'xxxxx.*\(100,000 characters\)"):
        GameDef("x" * 100_000, 2, 1, (1, 1), (1,), 1, 4, 1, (0,))


@st.composite
def _definitions(draw: st.DrawFn) -> GameDef:
    """A valid definition: any betting, 2 to 10 players, 1 to 4 rounds, a Kuhn, Leduc or hold'em shape,
    given or default stacks and raise caps (the reference's defaults INT32_MAX and 255 included)."""
    players = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    shape = draw(st.sampled_from(["kuhn", "leduc", "holdem"]))
    hole = 1 if shape != "holdem" else draw(st.integers(1, 3))
    total = {"kuhn": 0, "leduc": 1}.get(shape) or draw(st.integers(max(0, 5 - hole), 7 - hole))
    board = [0] * rounds
    for _ in range(total):
        board[draw(st.integers(0, rounds - 1))] += 1
    suits = draw(st.integers(1, 4))
    ranks = draw(st.integers(1, 13))
    assume(suits * ranks >= hole * players + total)
    chips = st.one_of(st.integers(1, 1000), st.just(MAX_STACK), st.integers(1, MAX_STACK))
    stacks = draw(st.none() | st.lists(chips, min_size=players, max_size=players).map(tuple))
    blinds = tuple(draw(st.lists(st.integers(0, 100) | st.integers(0, MAX_STACK), min_size=players,
                                 max_size=players)))
    betting = draw(st.sampled_from(["limit", "nolimit"]))
    per_round = st.lists(st.integers(1, players), min_size=rounds, max_size=rounds).map(tuple)
    caps = st.lists(st.integers(0, 255) | st.just(255), min_size=rounds, max_size=rounds).map(tuple)
    sizes = st.lists(chips, min_size=rounds, max_size=rounds).map(tuple)
    try:
        return GameDef(betting, players, rounds, blinds, draw(per_round), suits, ranks, hole, tuple(board),
                       raise_sizes=draw(sizes) if betting == "limit" else None, max_raises=draw(st.none() | caps),
                       stacks=stacks)
    except ConfigError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_definitions())
def test_every_valid_definition_reads_back_from_its_text_unchanged(game: GameDef) -> None:
    text = game.to_text()
    assert parse_gamedef(text) == game
    assert parse_gamedef(text).to_text() == text
