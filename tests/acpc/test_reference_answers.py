"""The dealer reads answers as the reference dealer (``project_acpc_server``, protocol 2.0.0) does,
and a flooding player costs it bounded memory and time.

The reference reads an answer's state with ``readMatchState`` and compares it with the state sent
(``matchStatesEqual``), numbers by ``sscanf`` (zero-padded, cut to the field's bits); the action
after the state's ``:`` with ``readAction`` (``b``/``B`` raise; a size is an ``int32_t``, so
``r4294967596`` is 300) and ignores what follows it; a state followed by anything but ``:`` and
an action is a call. Every line but a comment costs the player the time since the state was
sent (``checkErrorTimes``), counted per hand and per match."""

from __future__ import annotations

import asyncio
import contextlib
import re
import tracemalloc
from collections.abc import Callable

import pytest

from cardgame.acpc.client import Player
from cardgame.acpc.dealer import WARNINGS_KEPT, Dealer
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.matchstate import read_echo
from tests.acpc.conftest import LogBuffer, run, with_dealer
from tests.acpc.test_faults import HOST, checked_match, good, lines_of

LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]


def answering(game: GameDef, say: Callable[[str, str], str]) -> Callable[[int], object]:
    """A client that calls, writing each answer as ``say(state, action)``."""
    async def answer(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        if reply is None:
            return None
        state, _, action = reply.rpartition(":")
        return say(state, action)

    return lambda port: lines_of(port, answer, game)


def caller(game: GameDef) -> Callable[[int], object]:
    return answering(game, lambda state, action: f"{state}:{action}")


def seat_1_actions(log: LogBuffer) -> list[str]:
    """The actions seat 1 (``P1``) played, from the log's ``STATE`` lines (P2 only calls)."""
    out = []
    for line in log.lines():
        if line.startswith("STATE:"):
            betting = line.split(":")[2]
            out += re.findall(r"r\d*", betting)  # the other seat never raises: every raise is seat 1's
    return out


def no_waiting(dealer: Dealer) -> None:
    assert not any("did not answer" in w or "answers no current state" in w for w in dealer.warnings)


def test_b_and_B_raise_as_in_the_reference() -> None:
    _, _, log, _ = checked_match(NL, [answering(NL, lambda s, a: f"{s}:b400"), caller(NL)], 4)
    assert "r400" in seat_1_actions(log)  # a call before: b was no action
    _, dealer, log, _ = checked_match(LIMIT, [answering(LIMIT, lambda s, a: f"{s}:B"), caller(LIMIT)], 4)
    assert "r" in seat_1_actions(log)
    assert not any("no action" in w for w in dealer.warnings)


def test_a_size_past_int32_is_cut_to_32_bits_as_the_reference_reads_it() -> None:
    _, _, log, _ = checked_match(NL, [answering(NL, lambda s, a: f"{s}:r{2**32 + 300}"), caller(NL)], 4)
    raises = seat_1_actions(log)
    assert "r300" in raises and "r20000" not in raises  # clamped to all in before


def test_an_action_followed_by_a_colon_is_played() -> None:
    _, dealer, log, _ = checked_match(NL, [answering(NL, lambda s, a: f"{s}:r300:"), caller(NL)], 4, timeout_ms=300)
    no_waiting(dealer)  # ignored before, then a time-out
    assert "r300" in seat_1_actions(log)


def test_a_state_without_an_action_is_a_call() -> None:
    _, dealer, _, _ = checked_match(NL, [answering(NL, lambda s, a: s), caller(NL)], 3, timeout_ms=300)
    no_waiting(dealer)
    assert any(w.startswith("seat 1 (P1) answered '', which is no action; changed to a call") for w in dealer.warnings)


def padded(state: str) -> str:
    """The state with its numbers zero-padded and C white space before them, as sscanf reads them."""
    _, position, hand, betting, cards = state.split(":")
    betting = re.sub(r"r(\d+)", lambda m: f"r 00{m[1]}", betting)
    return f"MATCHSTATE:00{position}:+0{hand}:{betting}:{cards.lower()}"


def test_zero_padded_numbers_in_the_echoed_state_answer_it() -> None:
    raiser = answering(NL, lambda s, a: f"{padded(s)}:r600")
    _, dealer, log, _ = checked_match(NL, [raiser, caller(NL)], 4, timeout_ms=300)
    no_waiting(dealer)  # every answer ignored before, then a time-out
    assert "r600" in seat_1_actions(log)


SENT = "MATCHSTATE:1:7:r300c/r900:|Qc9h/2d3s4h"


@pytest.mark.parametrize(("echo", "same"), [
    (SENT, True),
    ("MATCHSTATE:01:007:r0300c/r900:|Qc9h/2d3s4h", True),  # zero-padded
    ("MATCHSTATE: 1:\t7:r+300cr 900:|qC9H2D3S4H", True),  # C white space, a sign, either case; / optional
    (f"MATCHSTATE:257:{2**32 + 7}:r{2**32 + 300}c/r900:|Qc9h/2d3s4h", True),  # cut to 8 and 32 bits as sscanf does
    ("MATCHSTATE:1:7:b300k/B900:|Qc9h/2d3s4h", True),  # b raises, k calls
    ("MATCHSTATE:1:7:r300c/r900:AsAd|Qc9h/2d3s4h", True),  # another position's cards are not compared
    ("MATCHSTATE:1:8:r300c/r900:|Qc9h/2d3s4h", False),  # another hand
    ("MATCHSTATE:0:7:r300c/r900:|Qc9h/2d3s4h", False),  # another position
    ("MATCHSTATE:1:7:r300c/r800:|Qc9h/2d3s4h", False),  # another action
    ("MATCHSTATE:1:7:r300c/r900:|Qc9d/2d3s4h", False),  # other cards
    ("MATCHSTATE:1:7:r300c/r900:|Qc9h/2d3s", False),  # a card missing
    ("MATCHSTATE:2:7:r300c/r900:|Qc9h/2d3s4h", False),  # no such position
    ("MATCHSTATE:1:7:r300c/r٩٠٠:|Qc9h/2d3s4h", False),  # other scripts' digits
    ("MATCHSTATE:1::r300c/r900:|Qc9h/2d3s4h", False),
])
def test_an_echoed_state_is_read_as_the_reference_reads_it(echo: str, same: bool) -> None:
    sent = read_echo(SENT, NL, 2)
    assert sent is not None and sent[1] == len(SENT)
    read = read_echo(echo + ":c", NL, 2)
    assert (read is not None and read[0] == sent[0]) is same
    if same:
        assert read is not None and (echo + ":c")[read[1]] == ":"


@pytest.mark.parametrize("flood", [b"x\n", b"MATCHSTATE:0:99::2c2d|:c\r\n"])
def test_a_flooding_player_is_stopped_and_its_warnings_stay_bounded(flood: bytes) -> None:
    async def flooder(port: int) -> None:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(b"VERSION:2.0.0\r\n")
        loop = asyncio.get_running_loop()
        end = loop.time() + 4.0  # at most: the dealer drops it long before
        with contextlib.suppress(ConnectionError):
            while loop.time() < end and not reader.at_eof():
                writer.write(flood * 2048)
                await writer.drain()
        writer.close()

    dealer = Dealer(NL, hands=20, seed=2, timeout_ms=5_000)
    tracemalloc.start()
    try:
        result, _ = run(with_dealer(dealer, [flooder, good(NL)]), limit=60)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.hands == 20 and sum(result.chips) == 0
    assert dealer.warning_count > WARNINGS_KEPT and len(dealer.warnings) == WARNINGS_KEPT
    assert any("used more time than allowed in the" in w for w in dealer.warnings)  # dropped: its time is up
    assert peak < 30 * 2**20, f"{peak:,} bytes at the peak"
