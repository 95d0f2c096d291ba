"""Our client against our dealer over loopback, for every supported game: payoffs sum to zero, each
client counts what the dealer counts, positions rotate, and the log replays on the engine."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cardgame.acpc.client import play
from cardgame.acpc.dealer import Dealer, MatchResult
from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef, parse_gamedef
from cardgame.acpc.log import format_value, parse_log, replay
from cardgame.play.bots import get
from tests.acpc.conftest import LogBuffer, run, with_dealer

#: Four players, no-limit, blinds on two positions and none on two, stacks all different (side pots).
UNEVEN = parse_gamedef("GAMEDEF\nnolimit\nnumPlayers = 4\nnumRounds = 4\nstack = 300 500 1000 2000\n"
                       "blind = 5 10 0 0\nfirstPlayer = 3 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
                       "numBoardCards = 0 3 1 1\nEND GAMEDEF\n")
#: Antes as equal blinds, the first round's board dealt with the hole cards, three rounds, a 36-card deck.
ODD = parse_gamedef("GAMEDEF\nlimit\nnumPlayers = 3\nnumRounds = 3\nblind = 2 2 2\nraiseSize = 2 4 4\n"
                    "firstPlayer = 2 2 2\nmaxRaises = 2 3 3\nnumSuits = 4\nnumRanks = 9\nnumHoleCards = 2\n"
                    "numBoardCards = 1 2 2\nEND GAMEDEF\n")

GAMES = {**STANDARD_GAMES, "uneven stacks": UNEVEN, "odd shape": ODD}
BOTS = ("random", "calling-station", "all-in", "pair-raiser")


def match(game: GameDef, bots: Sequence[str], hands: int, seed: int = 3) -> tuple[MatchResult, list, LogBuffer]:  # type: ignore[type-arg]
    log = LogBuffer()
    dealer = Dealer(game, hands=hands, seed=seed, log=log, timeout_ms=10_000)
    clients = [lambda port, i=i: play(game, "127.0.0.1", port, get(bots[i]), seed=i) for i in range(len(bots))]
    result, results = run(with_dealer(dealer, clients))
    assert list(dealer.warnings) == [], "our clients answer legal actions only, in time"
    return result, results, log


@pytest.mark.parametrize("name", GAMES)
def test_client_against_dealer(name: str) -> None:
    game = GAMES[name]
    n = game.num_players
    bots = [BOTS[(i + len(name)) % len(BOTS)] for i in range(n)]
    bots[0] = "random"
    hands = 60
    result, clients, log = match(game, bots, hands)
    assert sum(result.chips) == 0 and sum(result.values) == pytest.approx(0)
    assert result.hands == hands
    for seat, client in enumerate(clients):
        assert (client.hands, client.chips) == (hands, result.chips[seat])
        assert client.value == pytest.approx(result.values[seat])
    parsed = parse_log(log.getvalue(), game)
    assert parsed.score is not None and str(parsed.score) == str(result.score)
    assert [h.hand for h in parsed.hands] == list(range(hands))
    for record in parsed.hands:
        # positions rotate one seat a hand: position p is seat (p + hand) mod n
        assert record.names == tuple(result.names[(p + record.hand) % n] for p in range(n))
        hand = replay(record, game)
        assert tuple(map(format_value, hand.values())) == tuple(map(format_value, record.values))
        assert sum(hand.chips()) == 0
    if game.num_rounds > 1:
        assert any(len(h.betting) > 1 for h in parsed.hands), "some hands go past the first round"


def test_the_seed_ai_plays_through_the_client() -> None:
    game = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
    result, clients, _ = match(game, ["seed-ai", "tight-aggressive"], 8)
    assert sum(result.chips) == 0 and [c.chips for c in clients] == list(result.chips)


def test_the_same_seeds_replay_the_same_match() -> None:
    game = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
    first = match(game, ["random", "random"], 10, seed=9)[2].getvalue()
    assert match(game, ["random", "random"], 10, seed=9)[2].getvalue() == first
