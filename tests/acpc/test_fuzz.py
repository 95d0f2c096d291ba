"""A seeded, bounded fuzz of every reader of the ACPC protocol a remote peer or a file reaches: game
definitions, MATCHSTATE lines (and the client that plays them), a player's answers, and the dealer's
log. Inputs are the reference transcripts' lines mutated (characters of other scripts, digits past
int()'s limit, separators, control bytes) and random text. Only the library's own errors may escape;
an accepted input round-trips; a line the client refuses changes nothing. ``CORPUS`` keeps every
crash found so far as a literal regression test."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.acpc.client import Player
from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.gamedef import MAX_STACK, STANDARD_GAMES, GameDef, parse_gamedef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import HandRecord, Score, log_entries, parse_state, read_lines, replay
from cardgame.acpc.matchstate import CALL, parse_matchstate, read_action
from cardgame.model.errors import CardgameError, ConfigError, ProtocolError
from cardgame.play.bots import calling_station
from tests.acpc.conftest import Transcript, load_transcripts

FUZZ = settings(max_examples=120, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
HUGE = "9" * 4400  # one digit past int()'s 4,300 limit is enough; more is slower to shrink
# what a mutation inserts: the protocol's separators and actions, other scripts' digits and spaces,
# control bytes, a number past int()'s limit, a long run
PIECES = [":", "|", "/", "r", "c", "f", "R", "k", "-", "+", "0", "1", "9", "2147483648", "²", "٥", "١٢", "₅", "⁵",
          "\u2003", " ", "\t", "\r", "\n", "\x00", "\ufeff", "#", "=", "Ah", "As", "Xx", "ah", HUGE, "x" * 300,
          "GAMEDEF", "END GAMEDEF", "MATCHSTATE", "STATE", "SCORE", "nan", "1e5", "-0", "0.5", "33.3333333"]

TRANSCRIPTS = load_transcripts()
GAMES = [*STANDARD_GAMES.values(), *(t.game for t in TRANSCRIPTS)]
GAME_TEXTS = [g.to_text() for g in STANDARD_GAMES.values()] + [t.game_text for t in TRANSCRIPTS]


# a number as a hostile peer writes one: past int()'s limit, past 32 or 64 bits, in other scripts' digits
NUMBERS = [HUGE, "-" + HUGE, "2147483648", "9223372036854775808", "00", "-1", "+7", "²", "٥٠٠", "١٣", "₅", "1_0", ""]
_DIGITS = re.compile(r"[0-9]+")


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """One of ``seeds`` with a few edits: a number written as a hostile peer writes one, a piece
    inserted or written over, a span deleted or doubled."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["number", "number", "insert", "replace", "delete", "double"]))
        span = draw(st.integers(1, 6))
        numbers = list(_DIGITS.finditer(text))
        if op == "number" and numbers:
            m = draw(st.sampled_from(numbers))
            text = text[: m.start()] + draw(st.sampled_from(NUMBERS)) + text[m.end() :]
        elif op in ("number", "insert", "replace"):
            piece = draw(st.sampled_from(PIECES) | st.text(max_size=4))
            text = text[:at] + piece + text[at + (span if op == "replace" else 0) :]
        elif op == "delete":
            text = text[:at] + text[at + span :]
        else:
            text = text[:at] + text[at : at + span] * 2 + text[at + span :]
    return text


def only_library_errors(call: Callable[[], object]) -> object | None:
    """``call()``, or ``None`` if it raised one of the library's errors (anything else fails the test)."""
    try:
        return call()
    except CardgameError:
        return None


# --- game definitions ---------------------------------------------------------------------------------
def check_gamedef(text: str) -> None:
    try:
        game = parse_gamedef(text)
    except ConfigError:
        return
    assert parse_gamedef(game.to_text()) == game  # an accepted definition round-trips
    hole, board = ReferenceDeals(game, 1)()
    hand = AcpcHand(game, 0, hole, board)  # and is played: calls to the end of a hand
    while not hand.finished:
        hand.apply(hand.fix(CALL))
    assert sum(hand.chips()) == 0


@FUZZ
@given(st.one_of(mutated(GAME_TEXTS), st.text(max_size=200)))
def test_fuzz_game_definitions(text: str) -> None:
    check_gamedef(text)


# --- match states, and the client that reads them -----------------------------------------------------
def _states(t: Transcript) -> list[str]:
    return [line for way, line in t.exchange if way == "S->"]


def check_matchstate(line: str, game: GameDef) -> None:
    try:
        state = parse_matchstate(line, game)
    except ProtocolError:
        return
    assert parse_matchstate(str(state), game) == state  # an accepted line round-trips
    assert str(parse_matchstate(str(state), game)) == str(state)


@FUZZ
@given(st.data())
def test_fuzz_match_states(data: st.DataObject) -> None:
    t = data.draw(st.sampled_from(TRANSCRIPTS))
    check_matchstate(data.draw(st.one_of(mutated(_states(t)), st.text(max_size=100))), t.game)


def view(player: Player) -> object:
    hand = player.hand
    return None if hand is None else (hand.number, hand.betting, hand.cards(), hand.to_act, hand.legal(),
                                      hand.finished, player.position, player.result)


@settings(FUZZ, max_examples=60)
@given(st.data())
def test_fuzz_the_client(data: st.DataObject) -> None:
    """A transcript's lines with some mutated: every refused line leaves the player as it was, and the
    player goes on answering the lines that follow."""
    t = data.draw(st.sampled_from(TRANSCRIPTS))
    lines = _states(t)
    bad = data.draw(st.sets(st.integers(0, len(lines) - 1), max_size=3))
    player = Player(t.game, calling_station)
    for i, line in enumerate(lines):
        if i in bad:
            before = view(player)
            try:
                player.receive(data.draw(mutated([line])))
            except CardgameError:
                assert view(player) == before
        try:
            player.receive(line)
        except ProtocolError:  # after an accepted mutation the true line may no longer follow
            return


# --- a player's answers -------------------------------------------------------------------------------
ANSWERS = ["r300", "r20000", "c", "f", "r", "k", "R 500", "call", "r-5", "r 0300"]


@settings(FUZZ, max_examples=400)
@given(st.one_of(mutated(ANSWERS), st.text(max_size=50)), st.sampled_from(GAMES))
def test_fuzz_answers(text: str, game: GameDef) -> None:
    action = read_action(text, game)  # never raises: anything unreadable is no action
    assert action is None or action.size is None or 0 <= action.size <= MAX_STACK
    if action is not None and action.size is not None:  # a size is read from ASCII digits only, as sscanf reads
        assert re.match(r"[ \t\n\v\f\r]*[+-]?[0-9]", text[1:])


# --- the dealer's log ----------------------------------------------------------------------------------
def check_log(content: bytes, game: GameDef) -> None:
    def read() -> list[HandRecord | Score | str]:
        return list(log_entries(read_lines(io.BytesIO(content)), game))

    entries = only_library_errors(read)
    for entry in entries if isinstance(entries, list) else ():
        if isinstance(entry, HandRecord):
            assert parse_state(str(entry), game) == entry  # an accepted line round-trips
            only_library_errors(lambda entry=entry: replay(entry, game).values())


@FUZZ
@given(st.data())
def test_fuzz_logs(data: st.DataObject) -> None:
    t = data.draw(st.sampled_from(TRANSCRIPTS))
    text = data.draw(st.one_of(mutated(["\n".join(t.log) + "\n", *t.log]), st.text(max_size=200)))
    noise = data.draw(st.binary(max_size=8))
    check_log(text.encode() + noise, t.game)


# --- the corpus: every crash found so far, as literal inputs ---------------------------------------------
NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
NL_LINE = "STATE:0:r12251r20000c///:6s8d|Jd4c/3cKsJc/2d/Ac:-20000|20000:P1|P2"
CORPUS_GAMEDEFS = [
    # stack = blind for the small blind, the big blind's all in too: no one ever acts (AssertionError in play)
    "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 2\nstack = 28 1\nblind = 2 1\nfirstPlayer = 1 2\nnumSuits = 2\n"
    "numRanks = 12\nnumHoleCards = 3\nnumBoardCards = 3 0\nEND GAMEDEF\n",
    NL.to_text().replace("numRanks = 13", "numRanks = " + HUGE),  # refused, quoting all 4,400 digits
    NL.to_text().replace("numRanks = 13", "numRanks = ١٣"),  # taken as 13
]
CORPUS_STATES = [
    "MATCHSTATE:0:0:r" + HUGE + ":6s8d|",  # ValueError from int()
    "MATCHSTATE:0:²::6s8d|",  # ValueError from int()
    "MATCHSTATE:0:0:r٣٠٠:6s8d|",  # taken as r300
    "MATCHSTATE:" + HUGE + ":0::6s8d|",
]
CORPUS_ANSWERS = ["r" + HUGE, "r-" + HUGE, "r٥٠٠", "r²"]  # ValueError from int(); taken as r500
CORPUS_LOGS = [
    NL_LINE.replace("STATE:0:", "STATE:²:").encode(),  # ValueError from int()
    NL_LINE.replace("r12251", "r" + HUGE).encode(),  # ValueError from int()
    NL_LINE.replace("|20000:", "|" + "2" * 5000 + ":").encode(),  # taken as inf
    NL_LINE.replace("|20000:", "|nan:").encode(),  # taken as nan
    NL_LINE.encode().replace(b"P2", b"\xff"),  # UnicodeDecodeError
    b"\x00" * 100_000,  # /dev/zero: read whole, a MemoryError
]


@pytest.mark.parametrize("text", CORPUS_GAMEDEFS)
def test_corpus_game_definitions(text: str) -> None:
    check_gamedef(text)
    with pytest.raises(ConfigError) as caught:
        parse_gamedef(text)
    assert len(str(caught.value)) < 600


@pytest.mark.parametrize("line", CORPUS_STATES)
def test_corpus_match_states(line: str) -> None:
    check_matchstate(line, NL)
    player = Player(NL, calling_station)
    with pytest.raises(ProtocolError):
        player.receive(line)
    assert view(player) is None


@pytest.mark.parametrize("answer", CORPUS_ANSWERS)
def test_corpus_answers(answer: str) -> None:
    action = read_action(answer, NL)
    assert action is None or action.size == 0  # sscanf saturates, then keeps 32 bits: -1 or 0, the minimum raise


@pytest.mark.parametrize("content", CORPUS_LOGS)
def test_corpus_logs(content: bytes) -> None:
    check_log(content, NL)
    with pytest.raises(ProtocolError):
        list(log_entries(read_lines(io.BytesIO(content)), NL))
