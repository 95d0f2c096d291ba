"""Our dealer against the reference dealer's transcripts: with the same seed it deals the same cards,
and given the same actions it sends the recording seat exactly the recorded lines and writes exactly
the recorded log; the logged hands replay on the engine to the logged payoffs."""

from __future__ import annotations

import asyncio

from cardgame.acpc.client import Player, play_as
from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.dealer import Dealer
from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import format_value, parse_log, replay
from cardgame.acpc.matchstate import Action
from cardgame.play.bots import calling_station
from tests.acpc.conftest import LogBuffer, Transcript, run, with_dealer


class Scripted(Player):
    """Answers each hand with the actions the log records for it."""

    def __init__(self, game: GameDef, script: dict[int, tuple[Action, ...]]) -> None:
        super().__init__(game, calling_station)
        self.script = script

    def decide(self, hand: AcpcHand) -> Action:
        return self.script[hand.number][sum(len(r) for r in hand.betting)]


async def recording_client(port: int, exchange: tuple[tuple[str, str], ...]) -> list[str]:
    """Sends the recorded replies, in turn with the lines received; returns what it received."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"VERSION:2.0.0\n")
    received: list[str] = []
    for direction, line in exchange:
        if direction == "<-C":
            writer.write(line.encode() + b"\r\n")
        else:
            raw = await reader.readline()
            assert raw.endswith(b"\r\n"), f"a dealer line ends with CR LF: {raw!r}"
            received.append(raw.decode()[:-2])
    assert await reader.read() == b"", "the dealer closes the match after the last hand"
    writer.close()
    return received


def test_our_dealer_sends_exactly_the_reference_lines(transcripts: list[Transcript]) -> None:
    for t in transcripts:
        game = t.game
        recorded = parse_log("\n".join(t.log), game)
        script = {h.hand: tuple(a for r in h.betting for a in r) for h in recorded.hands}
        log = LogBuffer()
        dealer = Dealer(game, hands=len(recorded.hands), seed=t.seed, log=log, timeout_ms=10_000)
        clients = [lambda port, t=t: recording_client(port, t.exchange)]
        clients += [lambda port, game=game, script=script: play_as(Scripted(game, script), "127.0.0.1", port)
                    for _ in range(game.num_players - 1)]
        result, (received, *_) = run(with_dealer(dealer, clients))
        assert received == [line for d, line in t.exchange if d == "S->"], t.title
        assert [line for line in log.lines() if not line.startswith("#")] == list(t.log), t.title
        assert str(result.score) == t.log[-1]
        fixed = [w for w in dealer.warnings if "changed to" in w]
        if "no-limit" in t.title:  # the client's r300 and r1200 are below the minimum raise
            assert fixed == ["seat 1 (P1) answered r300, which is not allowed (f, c, r20000); changed to r20000",
                             "seat 1 (P1) answered r1200, which is not allowed (f, c, r6898-20000); changed to r6898"]
        else:
            assert fixed == [], t.title


def test_the_seed_deals_the_reference_dealer_s_cards(transcripts: list[Transcript]) -> None:
    for t in transcripts:
        deals = ReferenceDeals(t.game, t.seed)
        for record in parse_log("\n".join(t.log), t.game).hands:
            hole, board = deals()
            assert hole == record.hole
            assert board[: sum(len(r) for r in record.board)] == tuple(c for r in record.board for c in r)


def test_logged_hands_replay_on_the_engine_to_the_logged_payoffs(transcripts: list[Transcript]) -> None:
    for t in transcripts:
        for record in parse_log("\n".join(t.log), t.game).hands:
            hand = replay(record, t.game)
            assert tuple(map(format_value, hand.values())) == tuple(map(format_value, record.values))
            assert sum(hand.chips()) == 0


def test_a_client_answers_exactly_the_transcript_states_that_ask_it(transcripts: list[Transcript]) -> None:
    # the recording client's lines fed to our client: it answers exactly the states that asked it
    t = transcripts[0]
    player = Player(t.game, calling_station)
    asked = [line for d, line in t.exchange if d == "<-C"]
    answered = []
    for d, line in t.exchange:
        if d == "S->":
            answer = player.receive(line + "\r\n")
            if answer is not None:
                answered.append(answer.rpartition(":")[0])
    assert answered == [line.rpartition(":")[0] for line in asked]
    assert player.result.hands == 3 and player.result.value == -70.0  # the log's SCORE for P1
