"""Tournaments played between bots: a sit-and-go to its winner, levels from the next hand, players out in
one hand ranked by their starting stacks, hand for hand, a 1,000-player event with its per-round checks,
and ``cardgame simulate --tournament`` through a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from cardgame.model.events import ForcedBetPosted, HandEnded, HandStarted
from cardgame.tournament import (
    EventSpec,
    Finish,
    HandPlayed,
    Level,
    SeatingRules,
    Series,
    Structure,
    TournamentError,
    payouts_for,
    run_event,
    run_series,
)
from cardgame.tournament.event import _Event

ROOT = Path(__file__).resolve().parents[2]

#: A fast structure for bots: three hands a level, the big-blind ante from level 2.
FAST = Structure.from_rows([[10, 20, 0, 3], [20, 40, 40, 3], [50, 100, 100, 3], [100, 200, 200, 3],
                            [200, 400, 400, 3], [400, 800, 800, 3], [800, 1600, 1600, 3], [1500, 3000, 3000, 3]],
                           unit="hands")


def _hands(spec: EventSpec, seed: int) -> tuple[list[HandPlayed], object]:
    seen: list[HandPlayed] = []
    return seen, run_event(spec, seed, listener=seen.append)


def test_a_sit_and_go_plays_to_its_winner_with_places_and_prizes_adding_up() -> None:
    spec = EventSpec(9, ("random", "pair-raiser", "calling-station"))
    hands, result = _hands(spec, 1)
    assert result.standings.over and len(result.places) == 9
    _places_add_up(result.places, 9, payouts_for(9, 900))
    assert sum(result.prizes.values()) == spec.prize_pool == 900
    assert result.hands == len(hands) == result.rounds and result.final_table == 1 and result.moves == 0
    for hand in hands:  # every hand keeps the chips, and the winner ends with them all
        start = next(e for e in hand.events if isinstance(e, HandStarted))
        end = next(e for e in hand.events if isinstance(e, HandEnded))
        assert sum(c for _, c in end.stacks) == 9 * 1_500 and sum(start.stacks) <= 9 * 1_500
    last = next(e for e in hands[-1].events if isinstance(e, HandEnded))
    assert [hands[-1].names[s] for s, c in last.stacks if c] == [result.winner]
    again = run_event(spec, 1)
    assert again.places == result.places and again.hands == result.hands
    assert run_event(spec, 2).places != result.places


def _places_add_up(places: tuple[Finish, ...], entrants: int, table: tuple[int, ...]) -> None:
    """Every place from 1 to ``entrants`` is held once (a tie of k players holds k places), the winner
    alone; each group of tied players shares its places' prizes."""
    groups: dict[int, list[Finish]] = defaultdict(list)
    for f in places:
        groups[f.place].append(f)
    held = [p for place, group in groups.items() for p in range(place, place + len(group))]
    assert sorted(held) == list(range(1, entrants + 1))
    assert len(groups[1]) == 1
    for place, group in groups.items():
        assert all(f.shared == len(group) for f in group)
        assert sum(f.prize for f in group) == sum(table[place - 1: place - 1 + len(group)])


def _posts(hands: list[HandPlayed]) -> dict[int, set[tuple[str, int]]]:
    """Each round's forced bets posted in full (a short stack's all-in post left out)."""
    out: dict[int, set[tuple[str, int]]] = defaultdict(set)
    for hand in hands:
        for e in hand.events:
            if isinstance(e, ForcedBetPosted) and not e.all_in:
                out[hand.round].add((e.bet, e.amount))
    return out


def test_a_new_level_by_hands_applies_from_the_next_hand() -> None:
    structure = Structure.from_rows([[10, 20, 0, 2], [25, 50, 50, 2], [50, 100, 100, 1], [5_000, 10_000, 10_000, 1]],
                                    unit="hands")  # the last level ends the event soon
    hands, result = _hands(EventSpec(6, ("calling-station",), structure, stack=20_000), 3)
    posts = _posts(hands)
    assert posts[1] == posts[2] == {("small blind", 10), ("big blind", 20)}
    assert posts[3] == posts[4] == {("small blind", 25), ("big blind", 50), ("big blind ante", 50)}
    assert posts[5] == {("small blind", 50), ("big blind", 100), ("big blind ante", 100)}
    assert [(lv.level, lv.first_round, lv.rounds) for lv in result.levels[:2]] == [(1, 1, 2), (2, 3, 2)]
    assert [h.level for h in hands[:5]] == [1, 1, 2, 2, 3]


def test_a_clock_in_minutes_stops_for_a_break_and_antes_for_everyone() -> None:
    """Two one-minute hands a level; the 5-minute break after level 1 deals no hand."""
    structure = Structure.from_rows([[10, 20, 0, 2], ["break", 5], [25, 50, 5, 2], [50, 100, 10, 2], [5_000, 10_000]],
                                    unit="minutes", ante_format="everyone")
    hands, result = _hands(EventSpec(4, ("calling-station",), structure, stack=20_000, seconds_per_hand=60), 4)
    posts = _posts(hands)
    assert posts[2] == {("small blind", 10), ("big blind", 20)}
    assert posts[3] == {("small blind", 25), ("big blind", 50), ("ante", 5)}
    assert sum(1 for e in hands[2].events if isinstance(e, ForcedBetPosted) and e.bet == "ante") == 4
    assert posts[5] == {("small blind", 50), ("big blind", 100), ("ante", 10)}
    assert result.breaks == 5 and result.levels[1].blinds == Level(25, 50, 5, 2)


def _busts(hands: list[HandPlayed]) -> dict[int, dict[str, int]]:
    """Per round, the players out with the stacks they started the hand with."""
    out: dict[int, dict[str, int]] = defaultdict(dict)
    for hand in hands:
        start = next(e for e in hand.events if isinstance(e, HandStarted))
        end = next(e for e in hand.events if isinstance(e, HandEnded))
        stacks = dict(zip(start.seats, start.stacks, strict=True))
        for seat, chips in end.stacks:
            if chips == 0 and stacks.get(seat, 0) > 0:
                out[hand.round][hand.names[seat]] = stacks[seat]
    return out


def test_players_out_in_one_hand_are_ranked_by_their_starting_stacks() -> None:
    ranked = tied = 0
    for seed in range(1, 9):
        hands, result = _hands(EventSpec(6, ("random",), FAST), seed)
        finish = {f.name: f for f in result.standings.finishes}
        for out in _busts(hands).values():
            for a in out:
                for b in out:
                    if out[a] > out[b]:
                        assert finish[a].place < finish[b].place, (seed, out)
                        ranked += 1
                    elif a != b and out[a] == out[b]:
                        assert finish[a].place == finish[b].place and finish[a].shared >= 2, (seed, out)
                        tied += 1
    assert ranked and tied  # both cases came up


def test_hand_for_hand_busts_at_different_tables_count_as_one_hand() -> None:
    """On the bubble the tables play hand for hand: players out in that round at different tables are
    ranked together by their starting stacks; outside it, by table in an order drawn at random."""
    spec = EventSpec(60, ("random", "all-in", "pair-raiser"), FAST, rules=SeatingRules(table_size=6))
    paid = sum(1 for p in spec.payouts if p)
    together = 0
    for seed in range(1, 7):
        hands, result = _hands(spec, seed)
        finish = {f.name: f for f in result.standings.finishes}
        tables: dict[int, set[int]] = defaultdict(set)
        for hand in hands:
            tables[hand.round].add(hand.table)
        for rnd, out in _busts(hands).items():
            left = max(finish[n].place + finish[n].shared - 1 for n in out)  # the players left at the start
            if len(tables[rnd]) > 1 and paid < left <= paid + 1:  # hand for hand
                for a in out:
                    for b in out:
                        if out[a] > out[b]:
                            assert finish[a].place < finish[b].place
                        elif out[a] == out[b]:
                            assert finish[a].place == finish[b].place
                busted_at = {h.table for h in hands if h.round == rnd and set(h.names.values()) & set(out)}
                together += len(busted_at) > 1
    assert together  # busts at two tables in one hand-for-hand round came up


def test_a_1000_player_event_runs_to_a_winner_with_chips_and_balance_checked_every_round() -> None:
    """Every round ``run_event`` checks that the chips at all tables add up to 1,000 x 1,500 and that
    balancing the tables again moves nobody (``_Event.check``, which the next test breaks on purpose)."""
    hands, result = _hands(EventSpec(1_000, ("random", "all-in", "pair-raiser"), FAST), 2)
    assert result.standings.over
    _places_add_up(result.places, 1_000, payouts_for(1_000, 100_000))
    assert sum(result.prizes.values()) == 1_000 * 100 and sum(1 for p in result.prizes.values() if p) == 150
    assert result.moves > 100 and result.final_table > 1 and len(result.levels) > 3
    assert len({h.table for h in hands if h.round == 1}) == 112  # 1,000 players at 112 tables of 8 or 9
    for hand in hands:
        start = next(e for e in hand.events if isinstance(e, HandStarted))
        end = next(e for e in hand.events if isinstance(e, HandEnded))
        assert sum(start.stacks) == sum(c for _, c in end.stacks)
    assert {h.table for h in hands if h.round == result.rounds} == {1}


def test_the_per_round_checks_catch_lost_chips_and_unbalanced_tables() -> None:
    event = _Event(EventSpec(30, ("random",)), 1, None)
    event.check()
    player = next(event.tables[1].players())
    player.stack -= 1
    with pytest.raises(AssertionError, match="chips at the tables"):
        event.check()
    player.stack += 1
    moved = event.tables[1].remove(player.seat)  # table 1 two players short of table 2: one must move
    other = event.tables[2]
    other.sit_down(moved.name, moved.stack, next(s for s in range(other.seat_count) if other.seats[s] is None))
    with pytest.raises(AssertionError, match="not balanced"):
        event.check()


@pytest.mark.parametrize("bad", [
    {"entrants": 1}, {"entrants": True}, {"entrants": 10**30}, {"entrants": 9, "bots": "random"},
    {"entrants": 9, "bots": ("no such bot",)}, {"entrants": 9, "bots": ()}, {"entrants": 9, "stack": 0},
    {"entrants": 9, "structure": "turbo"}, {"entrants": 9, "variant": "FT"}, {"entrants": 9, "variant": 7},
    {"entrants": 9, "percentages": (60, 30)}, {"entrants": 2, "percentages": (50, 30, 20)},
    {"entrants": 9, "buy_in": -1}, {"entrants": 9, "variant": "PO"},  # (no big-blind ante in pot-limit Omaha)
    {"entrants": 9, "rules": SeatingRules(table_size=10), "variant": "5-card draw"},
])
def test_a_bad_event_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(TournamentError) as info:
        EventSpec(**bad)  # type: ignore[arg-type]
    assert len(str(info.value)) <= 700


def test_pot_limit_omaha_plays_a_structure_whose_antes_everyone_posts() -> None:
    structure = Structure.from_rows([[10, 20, 5, 3], [50, 100, 25, 3], [500, 1_000, 100]], unit="hands",
                                    ante_format="everyone")
    hands, result = _hands(EventSpec(6, ("random", "pair-raiser"), structure, variant="PO"), 1)
    assert result.standings.over and ("ante", 25) in _posts(hands)[4]


def test_an_event_that_does_not_end_is_stopped() -> None:
    with pytest.raises(TournamentError, match="still going after 3 rounds"):
        run_event(EventSpec(9, ("calling-station",), max_rounds=3), 1)


def test_a_series_is_the_same_whatever_the_workers() -> None:
    series = Series(EventSpec(6, ("random", "pair-raiser")), 4, seed=5, shard_events=1)
    one = run_series(series)
    assert run_series(series, workers=2).to_json() == one.to_json()
    assert [b.entries for b in one.bots] == [12, 12] and sum(b.prizes for b in one.bots) == 4 * 600
    assert run_event(series.spec, one.event_seeds[0]).hands <= one.hands


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardgame", "simulate", *args], capture_output=True, text=True,
                          cwd=cwd, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"},
                          timeout=300)


def test_simulate_plays_sit_and_gos_and_reports_each_bots_itm_place_and_roi(tmp_path: Path) -> None:
    run = _cli("--tournament", "sng", "--entrants", "6", "--events", "6", "--bots", "random,pair-raiser,all-in",
               "--seed", "3", "--json", str(tmp_path / "out.json"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "6 sit-and-gos of 6 entrants" in run.stdout and "--seed 3 replays it" in run.stdout
    assert "ITM %" in run.stdout and "ROI %" in run.stdout and "avg place" in run.stdout
    data = json.loads((tmp_path / "out.json").read_text())
    bots = {b["name"]: b for b in data["bots"]}
    assert set(bots) == {"random", "pair-raiser", "all-in"} and all(b["entries"] == 12 for b in bots.values())
    assert sum(b["prizes"] for b in bots.values()) == sum(b["buy_ins"] for b in bots.values()) == 3_600
    assert sum(b["average_place"] * b["entries"] for b in bots.values()) == pytest.approx(6 * 21)
    for b in bots.values():
        assert b["roi"] == pytest.approx(100 * (b["prizes"] - b["buy_ins"]) / b["buy_ins"])
        assert b["itm"] == pytest.approx(100 * b["itm"] / 100)
    assert sum(b["itm"] * b["entries"] / 100 for b in bots.values()) == pytest.approx(6 * 2)  # 65/35: two paid
    mtt = _cli("--tournament", "mtt", "--entrants", "40", "--events", "2", "--bots", "random,all-in", "--seed", "3",
               "--workers", "2", cwd=tmp_path)
    assert mtt.returncode == 0, mtt.stderr
    assert "2 multi-table events of 40 entrants" in mtt.stdout
    refused = _cli("--tournament", "sng", "--entrants", "11", cwd=tmp_path)
    assert refused.returncode == 2 and "2 to 10 entrants" in refused.stderr + refused.stdout
    plot = _cli("--tournament", "sng", "--plot", str(tmp_path / "x.png"), cwd=tmp_path)
    assert plot.returncode == 2 and "--plot and --duplicate are for matches" in plot.stderr
    freezeout = _cli("--tournament", "--hands", "20", "--bots", "random,all-in", "--seed", "1", cwd=tmp_path)
    assert freezeout.returncode == 0 and "NT: 20 hands" in freezeout.stdout and "place" in freezeout.stdout


def test_the_benchmark_plays_an_event_and_reports_it(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "tournament.py"), "--entrants", "30"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "30 entrants" in run.stdout and "chips and balance checked every round" in run.stdout
    assert run.stdout.splitlines()[2].split()[0] == "1"  # the winner's row
