"""The dealer's connections read lines as they come, however the bytes are cut: a flood of lines the
dealer has not asked for yet, an overlong line sent in pieces, and answers split mid-line all leave
the match going, the comment lines skipped (ACPC protocol 2.0.0: ``#`` and ``;`` lines are comments)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from cardgame.acpc.client import Player
from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.dealer import LINE_LIMIT, Dealer
from cardgame.acpc.gamedef import STANDARD_GAMES
from cardgame.acpc.log import parse_log
from cardgame.model.cards import Card
from cardgame.model.errors import CardError
from cardgame.play.bots import calling_station, random_bot
from tests.acpc.conftest import LogBuffer, run, with_dealer

LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]


async def _awkward(port: int) -> int:
    """Floods 300 comment lines at once, then an overlong line in three pieces, then answers every
    state a byte at a time; returns the hands played."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"VERSION:2.0.0\r\n" + b"# waiting\r\n" * 300)
    piece = b"z" * (LINE_LIMIT // 2 + 1)
    for _ in range(3):
        writer.write(piece)
        await writer.drain()
        await asyncio.sleep(0.01)
    writer.write(b"\r\n")
    player = Player(LIMIT, calling_station)
    while raw := await reader.readline():
        reply = player.receive(raw.decode())
        if reply is not None:
            for byte in (reply + "\r\n").encode():
                writer.write(bytes([byte]))
                await writer.drain()
    writer.close()
    return player.result.hands


def _plays(player: Player) -> Callable[[int], Awaitable[int]]:
    """A client on ``port`` that answers every line as ``player`` does; returns the hands played."""

    async def client(port: int) -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"VERSION:2.0.0\r\n")
        while raw := await reader.readline():
            reply = player.receive(raw.decode())
            if reply is not None:
                writer.write(reply.encode() + b"\r\n")
        writer.close()
        return player.result.hands

    return client


def test_flooded_split_and_overlong_lines() -> None:
    log = LogBuffer()
    dealer = Dealer(LIMIT, hands=5, seed=3, log=log, timeout_ms=5_000)
    result, hands = run(with_dealer(dealer, [_awkward, _plays(Player(LIMIT, random_bot, seed=1))]))
    assert hands == [5, 5] and sum(result.chips) == 0
    assert [w for w in dealer.warnings if "overlong" in w] == ["seat 1 (P1) sent an overlong line; ignored"]
    assert not any("did not answer" in w or "no current state" in w for w in dealer.warnings)
    assert len(parse_log(log.getvalue(), LIMIT).hands) == 5


def test_an_error_in_the_middle_of_the_match_stops_it_and_closes_every_connection() -> None:
    """The match is played from the connections' callbacks: an error there (here hand 2's cards, given
    twice) still reaches ``play``, which closes the connections, so the players see the end."""
    cards = ReferenceDeals(LIMIT, 5)
    dealt = [0]

    def deals() -> tuple[Sequence[Sequence[Card]], Sequence[Card]]:
        dealt[0] += 1
        hole, board = cards()
        return ((hole[0], hole[0]), board) if dealt[0] == 3 else (hole, board)

    dealer = Dealer(LIMIT, hands=6, seed=3, timeout_ms=5_000, deals=deals)
    players = [_plays(Player(LIMIT, calling_station)), _plays(Player(LIMIT, random_bot, seed=2))]

    async def match() -> list[int]:
        ports = await dealer.listen()
        tasks = [asyncio.create_task(client(port)) for client, port in zip(players, ports, strict=True)]
        try:
            await dealer.play(start_timeout=10)
        except CardError as exc:
            assert "given twice" in str(exc)
        else:
            raise AssertionError("the match went on")
        return list(await asyncio.gather(*tasks))

    assert run(match()) == [2, 2]  # two hands played, then the connections closed
