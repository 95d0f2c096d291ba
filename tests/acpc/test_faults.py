"""Faults: slow and silent players time out without stopping the match; garbage lines, half-open
connections and a player that disconnects mid-hand neither crash the dealer nor lose chips; invalid
actions become calls as the reference dealer makes them; the client's clear errors."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable

import pytest

from cardgame.acpc.client import ClientResult, Player, play, run_client
from cardgame.acpc.dealer import Dealer, MatchResult
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import parse_log, replay
from cardgame.acpc.matchstate import Action
from cardgame.model.errors import ConfigError, ProtocolError
from cardgame.play.bots import calling_station, random_bot
from tests.acpc.conftest import LogBuffer, run, with_dealer

LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
HOST = "127.0.0.1"

Client = Callable[[int], Awaitable[object]]


def good(game: GameDef, seed: int = 1) -> Client:
    return lambda port: play(game, HOST, port, random_bot, seed=seed)


async def lines_of(port: int, answer: Callable[[Player, str], Awaitable[str | None]], game: GameDef,
                   stop_after: int | None = None) -> int:
    """A hand-made client: ``answer(player, line)`` says what to send (``None``: nothing); it stops
    reading (and closes) after ``stop_after`` lines. Returns the lines read."""
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"VERSION:2.0.0\r\n")
    player = Player(game, calling_station)
    count = 0
    with contextlib.suppress(ConnectionError):  # the dealer may close the match while this one still talks
        while (raw := await reader.readline()) and (stop_after is None or count < stop_after):
            count += 1
            reply = await answer(player, raw.decode())
            if reply is not None:
                writer.write(reply.encode() + b"\r\n")
    writer.close()
    return count


def checked_match(game: GameDef, clients: list[Client], hands: int, timeout_ms: int = 5_000
                  ) -> tuple[MatchResult, Dealer, LogBuffer, list[object]]:
    log = LogBuffer()
    dealer = Dealer(game, hands=hands, seed=2, log=log, timeout_ms=timeout_ms)
    result, results = run(with_dealer(dealer, clients))
    assert result.hands == hands and sum(result.chips) == 0 and sum(result.values) == pytest.approx(0)
    parsed = parse_log(log.getvalue(), game)
    assert len(parsed.hands) == hands  # every hand played out and logged
    for record in parsed.hands:
        assert sum(replay(record, game).chips()) == 0
    return result, dealer, log, results


def test_a_silent_player_times_out_and_the_match_goes_on() -> None:
    async def silent(player: Player, line: str) -> str | None:
        return None

    _, dealer, log, _ = checked_match(LIMIT, [lambda port: lines_of(port, silent, LIMIT), good(LIMIT)], 4,
                                      timeout_ms=40)
    timeouts = [w for w in dealer.warnings if "did not answer within 40 ms" in w]
    assert timeouts and all(w.startswith("seat 1 (P1)") for w in timeouts)
    for record in parse_log(log.getvalue(), LIMIT).hands:  # the silent seat only ever checked or folded
        silent_position = -record.hand % 2
        hand = AcpcHand(LIMIT, record.hand, record.hole, [c for r in record.board for c in r])
        for action in (a for r in record.betting for a in r):
            if hand.to_act == silent_position:
                la = hand.legal()
                assert la is not None
                assert action == (Action("c") if la.can_check else Action("f"))
            hand.apply(action)


def test_a_slow_player_s_late_answers_are_ignored() -> None:
    async def slow(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        if reply is not None:
            await asyncio.sleep(0.08)
        return reply

    caller: Client = lambda port: play(LIMIT, HOST, port, calling_station)  # noqa: E731 -- never folds
    _, dealer, _, _ = checked_match(LIMIT, [caller, lambda port: lines_of(port, slow, LIMIT)], 4, timeout_ms=30)
    assert any("seat 2 (P2) did not answer within 30 ms" in w for w in dealer.warnings)
    assert any("answers no current state" in w for w in dealer.warnings)  # a late answer to an old state


def test_garbage_lines_are_skipped() -> None:
    overlong = ["x" * 70_000]

    async def noisy(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        if reply is None:
            long = overlong.pop() if overlong else "y"
            return "; a comment\n# another\n\x00\xff garbage\nMATCHSTATE:9:9:zz:??:c\n" + long + "\n:c"
        return "#thinking\n" + reply

    _, dealer, _, _ = checked_match(NL, [lambda port: lines_of(port, noisy, NL), good(NL)], 5)
    assert not any("did not answer" in w for w in dealer.warnings)
    assert any("overlong line" in w for w in dealer.warnings)
    assert any("answers no current state" in w for w in dealer.warnings)


def test_invalid_actions_become_what_the_reference_dealer_plays() -> None:
    async def wild(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        if reply is None:
            return None
        state = reply.rpartition(":")[0]
        assert player.hand is not None
        la = player.hand.legal()
        assert la is not None
        if la.can_check:
            return f"{state}:f"  # a fold with nothing to call: a check
        return f"{state}:r{1 if player.hand.round % 2 else 10**9}"  # below the minimum, above the stack

    _, dealer, _, _ = checked_match(NL, [lambda port: lines_of(port, wild, NL), good(NL, 3)], 6)
    fixed = [w for w in dealer.warnings if "changed to" in w]
    assert any("answered f," in w and "changed to c" in w for w in fixed)
    assert any("answered r1," in w for w in fixed) or any("answered r1000000000" in w for w in fixed)

    async def nonsense(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        return None if reply is None else reply.rpartition(":")[0] + ":xyz"

    _, dealer, _, _ = checked_match(LIMIT, [lambda port: lines_of(port, nonsense, LIMIT), good(LIMIT)], 2)
    assert any("answered 'xyz', which is no action; changed to a call" in w for w in dealer.warnings)


def test_raises_past_the_cap_become_calls() -> None:
    class Raiser(Player):
        def decide(self, hand: AcpcHand) -> Action:
            return Action("r")  # even when the cap is reached

    async def always_raise(port: int) -> ClientResult:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(b"VERSION:2.0.0\n")
        player = Raiser(LIMIT, calling_station)
        while raw := await reader.readline():
            reply = player.receive(raw.decode())
            if reply is not None:
                writer.write(reply.encode() + b"\n")
        writer.close()
        return player.result

    _, dealer, log, _ = checked_match(LIMIT, [always_raise, always_raise], 3)
    assert any("answered r, which is not allowed (f, c); changed to c" in w for w in dealer.warnings)
    hands = parse_log(log.getvalue(), LIMIT).hands
    assert [a.kind for a in hands[0].betting[0]] == ["r", "r", "r", "c"]  # three raises, then the cap


def test_half_open_connections_and_bad_versions_do_not_take_the_seat() -> None:
    async def crowd(port: int) -> object:
        idle_reader, idle = await asyncio.open_connection(HOST, port)  # connects and never says anything
        _, half = await asyncio.open_connection(HOST, port)
        half.write(b"VERSION:2.0")  # half a line, never finished
        bad_reader, bad = await asyncio.open_connection(HOST, port)
        bad.write(b"HELLO\r\n")
        assert await bad_reader.read() == b""  # refused: closed by the dealer
        result = await play(LIMIT, HOST, port, random_bot, seed=5)
        assert await idle_reader.read() == b""  # closed once every seat was taken
        for w in (idle, half, bad):
            w.close()
        return result

    _, dealer, _, results = checked_match(LIMIT, [crowd, good(LIMIT)], 3)
    assert isinstance(results[0], ClientResult) and results[0].hands == 3
    assert any("did not open with VERSION:2.0.0 ('HELLO')" in w for w in dealer.warnings)


def test_a_player_who_disconnects_mid_hand_checks_or_folds_from_then_on() -> None:
    async def quitter(player: Player, line: str) -> str | None:
        return player.receive(line)

    # the quitter reads 10 lines (into the second hand) and closes the connection
    _, dealer, _, results = checked_match(
        NL, [lambda port: lines_of(port, quitter, NL, stop_after=10), good(NL)], 6)
    gone = r"seat 1 \(P1\) (is )?disconnected; it checks or folds from now on"
    assert any(re.match(gone, w) for w in dealer.warnings)
    assert results[0] == 10


def test_no_player_in_time() -> None:
    async def nobody() -> None:
        dealer = Dealer(LIMIT, hands=1)
        await dealer.listen()
        await dealer.play(start_timeout=0.05)

    with pytest.raises(ConfigError, match=r"No player connected to seats 1, 2 within 0\.05 s"):
        run(nobody())


def test_dealer_options_are_checked() -> None:
    for kwargs, message in [({"hands": 0}, "number of hands must be"), ({"hands": 1, "ports": (1,)}, "Give 2 ports"),
                            ({"hands": 1, "names": ("A", "A")}, "2 different player names"),
                            ({"hands": 1, "names": ("A|B", "C")}, "without |"),
                            ({"hands": 1, "seed": -1}, "seed must be"), ({"hands": 1, "timeout_ms": 0}, "time limit")]:
        with pytest.raises(ConfigError, match=message):
            Dealer(LIMIT, **kwargs)  # type: ignore[arg-type]


def _closed_port() -> int:
    async def grab() -> int:
        server = await asyncio.start_server(lambda r, w: None, HOST, 0)
        port: int = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        return port

    return asyncio.run(grab())


def test_the_client_reports_a_refused_connection() -> None:
    with pytest.raises(ProtocolError, match=r"Cannot connect to the dealer at 127\.0\.0\.1:\d+"):
        run_client(LIMIT, HOST, _closed_port(), random_bot)


def fake_dealer(lines: list[bytes], game: GameDef = LIMIT) -> Callable[[], Awaitable[ClientResult]]:
    async def serve() -> ClientResult:
        async def talk(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            assert (await reader.readline()).startswith(b"VERSION:2.0.0")
            for line in lines:
                writer.write(line)
            writer.close()

        server = await asyncio.start_server(talk, HOST, 0)
        try:
            return await play(game, HOST, server.sockets[0].getsockname()[1], random_bot)
        finally:
            server.close()

    return serve


def test_the_client_skips_comments_and_ends_when_the_dealer_closes() -> None:
    result = run(fake_dealer([b"# hello\r\n", b";x\n", b"\r\n", b"MATCHSTATE:1:0::|Qc9h\r\n",
                              b"MATCHSTATE:1:0:r:|Qc9h\r\n"])())
    assert result == ClientResult(0, 0.0, 0)  # no hand finished


@pytest.mark.parametrize(("line", "message"), [
    (b"GARBAGE\r\n", "is not a match state"),
    (b"MATCHSTATE:0:0:rrrr:3c4d|\r\n", "the dealer's action r is not legal here"),
    (b"MATCHSTATE:0:0::3c4d|9d6c\r\n", "another position's cards are shown before the hand is over"),
    (b"MATCHSTATE:0:0:c/:3c4d|/6d7hAs\r\n", "the betting reaches round 2, but the rules say round 1"),
])
def test_the_client_refuses_a_malformed_line(line: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        run(fake_dealer([line])())
