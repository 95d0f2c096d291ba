"""MATCHSTATE and log lines: the reference transcripts decode and encode back byte for byte."""

from __future__ import annotations

import pytest

from cardgame.acpc.gamedef import STANDARD_GAMES, parse_gamedef
from cardgame.acpc.log import format_value, parse_log, parse_score, parse_state
from cardgame.acpc.matchstate import Action, MatchState, parse_betting, parse_matchstate, read_action
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ProtocolError
from tests.acpc.conftest import Transcript

HU_LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
HU_NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
KUHN = STANDARD_GAMES["kuhn.limit.3p"]


def test_every_transcript_line_decodes_and_encodes_back(transcripts: list[Transcript]) -> None:
    count = 0
    for t in transcripts:
        game = t.game
        for direction, line in t.exchange:
            state_part, _, action = line.rpartition(":") if direction == "<-C" else (line, "", "")
            state = parse_matchstate(state_part, game)
            assert str(state) == state_part
            if direction == "<-C":
                assert read_action(action, game) is not None
            count += 1
        log = parse_log("\n".join(t.log), game)
        assert [str(h) for h in log.hands] + [str(log.score)] == list(t.log)
        count += len(t.log)
    assert count == 176


def test_decoded_fields() -> None:
    state = parse_matchstate("MATCHSTATE:0:0:rrrc/rrc/cc/crc:3c4d|9d6c/6d7hAs/Ks/Td\r\n", HU_LIMIT)
    assert (state.position, state.hand, state.round) == (0, 0, 3)
    assert [len(r) for r in state.betting] == [4, 3, 2, 3]
    assert state.hole == (parse_cards("3c4d"), parse_cards("9d6c"))
    assert state.board == ((), parse_cards("6d7hAs"), parse_cards("Ks"), parse_cards("Td"))
    nl = parse_matchstate("MATCHSTATE:1:1:cr3499r6898r13574c/r14116:|6s4d/7c3h9s", HU_NL)
    assert nl.actions == (Action("c"), Action("r", 3499), Action("r", 6898), Action("r", 13574), Action("c"),
                          Action("r", 14116))
    assert nl.hole == ((), parse_cards("6s4d"))
    kuhn = parse_matchstate("MATCHSTATE:2:1:crcc:Ks|Js|Qs", KUHN)
    assert kuhn.hole == (parse_cards("Ks"), parse_cards("Js"), parse_cards("Qs")) and kuhn.board == ((),)


def test_a_first_round_board_follows_the_last_hole_cards() -> None:
    game = parse_gamedef("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 2\nblind = 2 1\nnumSuits = 4\nnumRanks = 13\n"
                         "numHoleCards = 2\nnumBoardCards = 3 2\nEND GAMEDEF\n")
    line = "MATCHSTATE:1:3:cc/:|AhKh2c3c4c/5c6c"
    state = parse_matchstate(line, game)
    assert state.hole == ((), parse_cards("AhKh")) and state.board == (parse_cards("2c3c4c"), parse_cards("5c6c"))
    assert str(state) == line
    assert str(MatchState(0, 3, ((),), ((parse_cards("AhKh")), ()), (parse_cards("2c3c4c"),))) == \
        "MATCHSTATE:0:3::AhKh|2c3c4c"


@pytest.mark.parametrize(("line", "message"), [
    ("MATCHSTATE:0:0::3c4d", "2 positions"),
    ("MATCHSTATE:0:0::3c4d|||", "have 4 hole-card groups; the game has 2 positions"),
    ("MATCH:0:0::3c4d|", "is not a match state; expected MATCHSTATE:<position>"),
    ("MATCHSTATE:2:0::3c4d|", "position 2 is not one of 0 to 1"),
    ("MATCHSTATE:x:0::3c4d|", "The position must be a whole number"),
    ("MATCHSTATE:0:-1::3c4d|", "The hand number must be a whole number"),
    ("MATCHSTATE:0:0:r300:3c4d|", "a limit raise takes no size"),
    ("MATCHSTATE:0:0:x:3c4d|", "'x' is no action"),
    ("MATCHSTATE:0:0::3c4|", "position 0's hole cards must be 2 cards"),
    ("MATCHSTATE:0:0::3c1d|", "'1d' in position 0's hole cards is no card"),
    ("MATCHSTATE:0:0::3c3c|", "3c appears twice"),
    ("MATCHSTATE:0:0:cc/:3c4d|", "the cards show 0 round separators"),
    ("MATCHSTATE:0:0:cc/:3c4d|/6d7h", "round 1's board must be 3 cards"),
    ("MATCHSTATE:0:0:c/c/c/c/c:3c4d|////", "has 5 rounds; the game has 4"),
])
def test_malformed_lines_say_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        parse_matchstate(line, HU_LIMIT)


def test_no_limit_and_deck_checks() -> None:
    with pytest.raises(ProtocolError, match="a no-limit raise needs the total it raises to"):
        parse_matchstate("MATCHSTATE:0:0:r:6s8d|", HU_NL)
    with pytest.raises(ProtocolError, match="2s is not in the game's deck"):
        parse_matchstate("MATCHSTATE:0:0::2s||", KUHN)
    with pytest.raises(ProtocolError, match="is a line of text, not NoneType"):
        parse_matchstate(None, HU_NL)  # type: ignore[arg-type]
    with pytest.raises(ProtocolError, match="Only a no-limit raise has a size"):
        Action("c", 5)
    with pytest.raises(ProtocolError, match="is f, c or r"):
        Action("x")


def test_answers_are_read_as_leniently_as_the_reference_reads_them() -> None:
    assert [read_action(t, HU_LIMIT) for t in ("c", "call", "k", "K", "C", "f", "F", "r", "R", "r300", "x", "")] == [
        Action("c"), Action("c"), Action("c"), Action("c"), Action("c"), Action("f"), Action("f"), Action("r"),
        Action("r"), Action("r"), None, None]
    assert [read_action(t, HU_NL) for t in ("r300", "R 300", "r+5", "r-5", "r", "raise")] == [
        Action("r", 300), Action("r", 300), Action("r", 5), Action("r", 0), None, None]
    assert parse_betting("r300c//", HU_NL) == ((Action("r", 300), Action("c")), (), ())


def test_log_values_print_as_the_reference_prints_them() -> None:
    assert [format_value(v) for v in (-80.0, 80, 12.5, 100 / 3, -0.0, 0.0, 40681.0)] == [
        "-80", "80", "12.5", "33.333333", "0", "0", "40681"]  # the reference never writes -0
    record = parse_state("STATE:8:ff:Ah8h|7s9c|7h9d:-5|5|-0:P3|P1|P2", STANDARD_GAMES["holdem.limit.3p"])
    assert str(record) == "STATE:8:ff:Ah8h|7s9c|7h9d:-5|5|0:P3|P1|P2"  # an old log's -0 is read as 0
    for bad, message in [("STATE:0:cc:As|Ks|:0|0|0:P1|P2|P3", "shows every position's hole cards"),
                         ("STATE:0:cc:As|Ks|Qs:0|0:P1|P2|P3", "2 payoffs for 3 players"),
                         ("STATE:0:cc:As|Ks|Qs:0|x|0:P1|P2|P3", "is no number as the reference writes one"),
                         ("STATE:0:cc:As|Ks|Qs:0|0|0:P1|P2", "expected 3 player names"),
                         ("STATE:a:cc:As|Ks|Qs:0|0|0:P1|P2|P3", "hand number must be a whole number"),
                         ("HAND:0", "is not a log state")]:
        with pytest.raises(ProtocolError, match=message):
            parse_state(bad, KUHN)
    with pytest.raises(ProtocolError, match="is not a score line"):
        parse_score("SCORE:1|2", KUHN)
    with pytest.raises(ProtocolError, match="follows the SCORE line"):
        parse_log("SCORE:0|0|0:A|B|C\nSTATE:0:cc:As|Ks|Qs:0|0|0:P1|P2|P3", KUHN)
