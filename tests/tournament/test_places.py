"""Finishing places: players out in one hand ranked by their stacks at its start, equal stacks tied and
their places' prizes split equally (the TDA rule for players busting at the same time), the last
player left first, the standings' text and ICM tables; bad eliminations refused."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.tournament import Finish, Standings, TournamentError, split_prizes

NINE = [f"P{i}" for i in range(1, 10)]


def test_a_sit_and_go_to_its_end() -> None:
    s = Standings(NINE, [450, 270, 180])
    s = s.eliminate({"P9": 300}, hand=4)
    s = s.eliminate({"P8": 900, "P7": 200, "P6": 900}, hand=11)  # P8 and P6 tie for 6th-7th, P7 is 8th
    s = s.eliminate({"P5": 10}, hand=12)
    s = s.eliminate({"P4": 4000, "P3": 1500}, hand=20)  # the bubble: P4 3rd and in the money, P3 4th
    assert [f.places for f in s.finishes] == ["9", "6-7", "6-7", "8", "5", "3", "4"]
    assert s.remaining == ("P1", "P2") and not s.over
    assert s.finishes[-2] == Finish("P4", 3, 1, 180, 20)
    s = s.eliminate({"P2": 5000}, hand=31)
    assert s.over and s.finishes[-1] == Finish("P1", 1, 1, 450, 31) and s.finishes[-2].prize == 270
    assert sum(f.prize for f in s.finishes) == 900
    assert s.table().splitlines()[:5] == ["place  player  prize", "    1  P1        450", "    2  P2        270",
                                          "    3  P4        180", "    4  P3          0"]


def test_tied_players_split_their_places_prizes() -> None:
    """Two out with equal stacks on the bubble of 50/30/20 with 4 left: they share 3rd-4th, 20 + 0 split
    as 10 each; three tied for 2nd-4th of 101/50/30/20 share 100: 34, 33, 33, the unit over to the first listed."""
    s = Standings(["A", "B", "C", "D"], [50, 30, 20]).eliminate({"C": 700, "D": 700})
    assert [(f.name, f.places, f.prize) for f in s.finishes] == [("C", "3-4", 10), ("D", "3-4", 10)]
    s = Standings(["A", "B", "C", "D"], [101, 50, 30, 20]).eliminate({"D": 5, "B": 5, "C": 5})
    assert [(f.name, f.places, f.prize) for f in s.finishes] == [("D", "2-4", 34), ("B", "2-4", 33),
                                                                ("C", "2-4", 33), ("A", "1", 101)]
    assert split_prizes([50, 30, 20], 3, 3) == (7, 7, 6)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.data())
def test_every_place_is_given_once_and_the_prizes_add_up(data: st.DataObject) -> None:
    players = [f"P{i}" for i in range(data.draw(st.integers(min_value=2, max_value=12)))]
    prizes = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=1000), min_size=1,
                                       max_size=len(players))), reverse=True)
    prizes[0] += 1
    s = Standings(players, prizes)
    while not s.over:
        left = list(s.remaining)
        out = data.draw(st.lists(st.sampled_from(left), min_size=1, max_size=len(left) - 1, unique=True))
        stacks = {n: data.draw(st.integers(min_value=1, max_value=3)) for n in out}
        before = s
        s = s.eliminate(stacks)
        new = s.finishes[len(before.finishes):]
        for a in new:
            for b in new:
                if a.name in stacks and b.name in stacks and stacks[a.name] > stacks[b.name]:
                    assert a.place < b.place  # the larger starting stack finishes higher
    groups = Counter((f.place, f.shared) for f in s.finishes)
    assert all(count == shared for (_, shared), count in groups.items())  # a tie of k covers k places
    covered = sorted(p for (place, shared) in groups for p in range(place, place + shared))
    assert covered == list(range(1, len(players) + 1))
    assert sum(f.prize for f in s.finishes) == sum(prizes)


def test_the_icm_table_of_the_players_left() -> None:
    s = Standings(["A", "B", "C", "D"], [50, 30, 20]).eliminate({"D": 100})
    lines = s.icm_table({"A": 5000, "B": 3000, "C": 2000}).splitlines()
    assert lines[1].split() == ["A", "5,000", "50.00", "38.39", "38.39"]
    assert lines[-1] == "prize pool 100 (exact)"


HUGE = 10**5000


@pytest.mark.parametrize(("call", "match"), [
    (lambda: Standings(["A"]), "players must hold from 2"),
    (lambda: Standings(["A", "A"]), "'A' is there twice"),
    (lambda: Standings(["A", "x" * 10**6]), "player 2's name"),
    (lambda: Standings(["A", "B"], [1, 2]), "a payout table never rises"),
    (lambda: Standings(["A", "B"], [3, 2, 1]), "pays 3 places but there are 2 entrants"),
    (lambda: Standings(["A", "B"], finishes=("A",)), "Each finish must be a Finish"),
    (lambda: Standings(["A", "B", "C"]).eliminate({"A": 1, "B": 1, "C": 1}), "one must be left"),
    (lambda: Standings(["A", "B", "C"]).eliminate({}), "not 0"),
    (lambda: Standings(["A", "B", "C"]).eliminate({"Z": 1}), "'Z' is not a player still in"),
    (lambda: Standings(["A", "B", "C"]).eliminate({"A": 0}), "starting stack of 'A'"),
    (lambda: Standings(["A", "B", "C"]).eliminate({"A": HUGE}), "at most 18 digits"),
    (lambda: Standings(["A", "B", "C"]).eliminate([("A", 1)]), "must be a mapping"),
    (lambda: Standings(["A", "B", "C"]).eliminate({"A": 1}, hand=0), "hand number"),
    (lambda: Standings(["A", "B"]).eliminate({"A": 1}).eliminate({"B": 1}), "The tournament is over"),
    (lambda: Standings(["A", "B"], [1]).icm_table({"A": 1}), "Give a stack for each player left"),
    (lambda: Standings(["A", "B"]).icm_table({"A": 1, "B": 1}), "No prizes are left"),
    (lambda: Finish("A", 0, 1, 0), "place must be a whole number from 1"),
    (lambda: split_prizes([10], 1, HUGE), "number of players tied"),
])
def test_bad_eliminations_are_refused_with_a_short_message(call: Any, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as info:
        call()
    assert len(str(info.value)) <= 700


def test_a_refused_elimination_leaves_the_standings_as_they_were() -> None:
    s = Standings(["A", "B", "C"], [2, 1])
    with pytest.raises(TournamentError):
        s.eliminate({"A": 5, "Z": 5})
    assert s.finishes == () and s.remaining == ("A", "B", "C")


def test_the_icm_table_takes_every_name_the_standings_take() -> None:
    """A name of 100 characters (the most a player's name may have) was refused by icm_table (40 at most)."""
    long = "N" * 100
    table = Standings([long, "B"], [3, 1]).icm_table({long: 10, "B": 10})
    assert table.splitlines()[1].startswith(long) and "2.00" in table


def _reference(players: list[str], payouts: list[int], hands: list[dict[str, int]]) -> list[tuple[str, int, int, int]]:
    """The rule as the module states it, written plainly: each hand's players out ranked by stack,
    equal stacks sharing their places' prizes, the last player left first."""
    left = list(players)
    out: list[tuple[str, int, int, int]] = []
    for busted in hands:
        place = len(left) - len(busted) + 1
        for stack in sorted(set(busted.values()), reverse=True):
            group = [n for n in busted if busted[n] == stack]
            pool = sum(payouts[place - 1: place - 1 + len(group)])
            out += [(n, place, len(group), pool // len(group) + (i < pool % len(group))) for i, n in enumerate(group)]
            place += len(group)
        left = [n for n in left if n not in busted]
        if len(left) == 1:
            out.append((left[0], 1, 1, payouts[0] if payouts else 0))
    return out


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.data())
def test_eliminations_give_the_places_of_the_plain_rule(data: st.DataObject) -> None:
    """Standings on small fields against the plain reference, branching too (two futures eliminated
    from the same standings each keep their own finishes)."""
    players = [f"P{i}" for i in range(data.draw(st.integers(min_value=2, max_value=9)))]
    prizes = sorted(data.draw(st.lists(st.integers(0, 100), max_size=len(players))), reverse=True)
    if prizes:
        prizes[0] += 1
    s, hands, fork = Standings(players, prizes), [], None
    while not s.over:
        left = list(s.remaining)
        out = data.draw(st.lists(st.sampled_from(left), min_size=1, max_size=len(left) - 1, unique=True))
        busted = {n: data.draw(st.integers(1, 3)) for n in out}
        if fork is None and data.draw(st.booleans()):
            fork = (s, list(hands))  # a later elimination from these standings branches off
        s = s.eliminate(busted)
        hands.append(busted)
        assert [(f.name, f.place, f.shared, f.prize) for f in s.finishes] == _reference(players, prizes, hands)
        assert s.remaining == tuple(n for n in players if all(n not in h for h in hands)) or s.over
    if fork is not None:
        before, then = fork
        finishes = before.finishes
        other = before.eliminate({before.remaining[-1]: 1})
        assert before.finishes == finishes and before == Standings(players, prizes, finishes)
        expected = _reference(players, prizes, [*then, {before.remaining[-1]: 1}])
        assert [(f.name, f.place, f.shared, f.prize) for f in other.finishes] == expected
        assert [(f.name, f.place, f.shared, f.prize) for f in s.finishes] == _reference(players, prizes, hands)


def test_a_hundred_thousand_entrants_eliminated_one_by_one() -> None:
    """Each elimination costs the same at any field size (it once re-checked every name and copied every
    finish: quadratic, hours at 100,000): the field goes out one by one, places and prizes as the rule says."""
    players = [f"p{i}" for i in range(100_000)]
    payouts = [1000 - i for i in range(900)]
    s = Standings(players, payouts)
    for i in range(len(players) - 1, 0, -1):
        s = s.eliminate({players[i]: 10}, hand=i)
    assert s.over and s.remaining == ()
    finishes = s.finishes
    assert [f.place for f in finishes] == list(range(100_000, 0, -1))
    assert finishes[-1] == Finish("p0", 1, 1, 1000, 1) and finishes[-2] == Finish("p1", 2, 1, 999, 1)
    assert sum(f.prize for f in finishes) == sum(payouts)
