"""Seating a multi-table tournament by the TDA rules: the seat draw (rule 7), balancing (rule 11), breaking
tables (rule 10), the final table (RP-9) and hand-for-hand play (RP-8), each pinned by a hand-built case;
then a property test over random rooms and a seeded 1,000-player event played down to its winner."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.model.errors import CardgameError
from cardgame.tournament import (
    Move,
    Plan,
    SeatingRules,
    Standings,
    Table,
    TournamentError,
    balance,
    bubble,
    draw_seats,
    next_big_blind,
)


def names(count: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def table(number: int, occupied: Sequence[int], button: int = 0, size: int = 9, prefix: str = "") -> Table:
    """Table ``number`` of ``size`` seats with a player on each seat in ``occupied`` (named t<number>s<seat>)."""
    seats = tuple(f"{prefix or f't{number}'}s{s}" if s in occupied else None for s in range(size))
    return Table(number, seats, button)


def apply(tables: Sequence[Table], plan: Plan) -> dict[int, list[str | None]]:
    """The seats ``plan``'s moves leave, made one by one on ``tables`` (the final table's draw at once), each
    move checked: the player is where it says, the seat it goes to is open."""
    seats = {t.number: list(t.seats) for t in tables}
    final = [m for m in plan.moves if m.reason == "final table"]
    for move in plan.moves:
        if move.reason == "final table":
            continue
        assert seats[move.from_table][move.from_seat] == move.player
        assert seats[move.to_table][move.to_seat] is None
        seats[move.from_table][move.from_seat] = None
        seats[move.to_table][move.to_seat] = move.player
    if final:
        number, size = final[0].to_table, len(next(t.seats for t in plan.tables if t.number == final[0].to_table))
        new: list[str | None] = [None] * size
        for move in final:
            assert seats[move.from_table][move.from_seat] == move.player and move.to_table == number
            assert new[move.to_seat] is None
            new[move.to_seat] = move.player
        seats = {number: new}
    for number in plan.broken:
        assert not any(seats.get(number, [])), f"table {number} broken with players left"
        seats.pop(number, None)
    return seats


def check_plan(tables: Sequence[Table], plan: Plan, rules: SeatingRules) -> None:
    """Everything every plan must keep: no player lost or duplicated, moves that lead from ``tables`` to
    ``plan.tables``, no table over its seats, the tables balanced by the rule, the final table when they
    fit, a table broken only when the others hold everyone, and each balancing move from a fullest table
    to a shortest one."""
    before = sorted(p for t in tables for p in t.players)
    after = sorted(p for t in plan.tables for p in t.players)
    assert after == before
    assert apply(tables, plan) == {t.number: list(t.seats) for t in plan.tables}
    counts = [t.count for t in plan.tables]
    assert all(t.count <= len(t.seats) for t in plan.tables)
    assert all(c > 0 for c in counts)
    if len(plan.tables) > 1:
        assert max(counts) - min(counts) < rules.balance_at
        assert sum(counts) > rules.final_size
        assert sum(counts) > rules.table_size * (len(plan.tables) - 1), "a table could have been broken"
    # each balancing move from a fullest table to a shortest one, counted as the moves are made
    live = {t.number: t.count for t in tables if t.count}
    for move in plan.moves:
        if move.reason == "balance":
            assert live[move.from_table] == max(live.values())
            assert live[move.to_table] == min(live.values())
        if move.reason != "final table":
            live[move.from_table] -= 1
            live[move.to_table] += 1
        if move.from_table in plan.broken and live.get(move.from_table) == 0:
            del live[move.from_table]


# --- the seat draw (TDA rule 7) ---------------------------------------------------------------------------


def test_the_draw_spreads_1000_entrants_evenly_over_as_few_tables_as_hold_them() -> None:
    tables = draw_seats(names(1000), SeatingRules(table_size=9), seed=7)
    assert len(tables) == 112 and {t.count for t in tables} == {8, 9}
    assert sorted(p for t in tables for p in t.players) == sorted(names(1000))
    assert [t.number for t in tables] == list(range(1, 113))
    assert all(t.seats[t.button] is not None for t in tables)


def test_the_draw_is_random_by_seed_and_replays() -> None:
    one, again, other = (draw_seats(names(60), SeatingRules(table_size=6), seed=s) for s in (1, 1, 2))
    assert one == again and one != other
    assert {t.count for t in one} == {6}
    # the seats are drawn: not every table seats its players from seat 0 in name order
    assert any(t.seats != tuple(sorted(t.players)) for t in one)


def test_entrants_who_fit_at_the_final_table_sit_at_one_table_of_its_size() -> None:
    (seven,) = draw_seats(names(7), SeatingRules(table_size=6), seed=3)  # RP-9: six-max finishes 7-handed
    assert len(seven.seats) == 7 and seven.count == 7
    assert [t.count for t in draw_seats(names(10), SeatingRules(table_size=9), seed=3)] == [5, 5]


# --- the big blind and the worst position (TDA rule 11-A) --------------------------------------------------


def test_the_next_big_blind_is_the_second_player_after_the_button() -> None:
    assert next_big_blind(table(1, [0, 2, 5, 7], button=0)) == 5
    assert next_big_blind(table(1, [0, 2, 5, 7], button=7)) == 2
    assert next_big_blind(table(1, [3, 6], button=3)) == 6  # heads-up: the button is the small blind
    assert next_big_blind(table(1, [2, 5, 7], button=1)) == 7  # an empty button seat passes it on
    assert next_big_blind(table(1, [4], button=4)) is None


def test_balancing_moves_the_next_big_blind_to_the_big_blind_at_the_shorter_table() -> None:
    full = table(1, range(9), button=0)  # next big blind: seat 2
    short = table(2, [0, 1, 3, 4, 5, 6, 7], button=0)  # small blind seat 1, open seat 2 before the big blind at 3
    plan = balance([full, short], SeatingRules(), seed=0)
    assert plan.moves == (Move("t1s2", 1, 2, 2, 2, "balance"),)
    after = {t.number: t for t in plan.tables}
    assert next_big_blind(after[2]) == 2 and after[1].count == after[2].count == 8


def test_the_worst_position_is_the_next_to_post_the_big_blind_never_the_small_blind() -> None:
    full = table(1, range(9), button=4)  # next big blind: seat 6
    # button 0, open seat 1 (would be the small blind), small blind 2, big blind 3, open 4 and 8
    short = table(2, [0, 2, 3, 5, 6, 7], button=0)
    plan = balance([full, short, table(3, range(8), prefix="c")], SeatingRules(), seed=0)
    assert plan.moves[0] == Move("t1s6", 1, 6, 2, 4, "balance")  # seat 4: the big blind the hand after
    assert plan.moves[0].to_seat != 1


def test_only_the_small_blind_seat_open_takes_it() -> None:
    full = table(1, range(9), button=0)
    short = table(2, [0, 3, 4, 5, 6, 7, 8], button=0)  # open 1 and 2: both would be the small blind
    plan = balance([full, short], SeatingRules(), seed=0)
    (move,) = plan.moves
    assert move.to_seat == 1  # the same position either way: the lower seat
    assert next_big_blind(plan.tables[1]) == 3  # the moved player is the small blind, seat 3 the big blind


def test_moves_come_from_the_fullest_table_the_highest_numbered_among_equals() -> None:
    tables = [table(1, range(9)), table(2, range(9)), table(3, range(7))]
    (move,) = balance(tables, SeatingRules(), seed=0).moves
    assert (move.from_table, move.to_table) == (2, 3)


def test_a_difference_short_of_the_setting_moves_nobody() -> None:
    tables = [table(1, range(9)), table(2, range(7))]
    assert balance(tables, SeatingRules(balance_at=3), seed=0).moves == ()
    assert len(balance(tables, SeatingRules(balance_at=2), seed=0).moves) == 1
    assert len(balance([table(1, range(9)), table(2, range(6))], SeatingRules(balance_at=3), seed=0).moves) == 1


def test_a_random_seat_for_the_moved_player_is_an_open_seat_drawn_by_seed() -> None:
    tables = [table(1, range(9)), table(2, [0, 1, 2, 3, 4, 5, 6])]
    rules = SeatingRules(moved_to="random")
    seats = {balance(tables, rules, seed=s).moves[0].to_seat for s in range(40)}
    assert seats == {7, 8}
    assert balance(tables, rules, seed=5) == balance(tables, rules, seed=5)


def test_several_moves_each_take_the_next_big_blind() -> None:
    full = table(1, range(9), button=0)
    plan = balance([full, table(2, range(5), prefix="b")], SeatingRules(), seed=0)
    assert [m.from_seat for m in plan.moves] == [2, 3]  # the big blind moves, then the next one in turn
    assert [t.count for t in plan.tables] == [7, 7]


# --- breaking tables (TDA rule 10) and the final table (RP-9) ---------------------------------------------


def test_a_table_breaks_when_the_others_can_seat_everyone() -> None:
    tables = [table(n, range(6)) for n in (1, 2, 3)]
    plan = balance(tables, SeatingRules(), seed=4)
    assert plan.broken == (3,) and {m.reason for m in plan.moves} == {"break"}
    assert [t.count for t in plan.tables] == [9, 9]
    check_plan(tables, plan, SeatingRules())


def test_a_broken_tables_players_go_to_the_shortest_tables_in_random_seats() -> None:
    tables = [table(1, range(7)), table(2, range(7)), table(3, range(6)), table(4, range(5))]
    plan = balance(tables, SeatingRules(), seed=9)
    assert plan.broken == (4,)
    counts = sorted(t.count for t in plan.tables)
    assert counts == [8, 8, 9]
    seatings = {tuple((m.to_table, m.to_seat) for m in balance(tables, SeatingRules(), seed=s).moves)
                for s in range(10)}
    assert len(seatings) > 1  # drawn, not fixed


def test_players_of_broken_tables_go_only_to_tables_that_stay() -> None:
    """Several tables break at once: nobody is drawn into a table that breaks next and moves twice."""
    tables = [table(n, [0]) for n in range(1, 21)]  # 20 players, one a table: three tables stay
    plan = balance(tables, SeatingRules(), seed=1)
    assert plan.broken == tuple(range(20, 3, -1)) and [t.number for t in plan.tables] == [1, 2, 3]
    assert len(plan.moves) == 17 and {m.to_table for m in plan.moves} == {1, 2, 3}
    check_plan(tables, plan, SeatingRules())


def test_a_room_of_11111_tables_is_balanced_with_every_player_kept() -> None:
    tables = [Table(n, tuple(f"p{n}_{s}" if s < (9 if n % 2 else 2) else None for s in range(9)), 0)
              for n in range(1, 11112)]
    plan = balance(tables, SeatingRules(), seed=1)
    assert {t.count for t in plan.tables} == {8, 9} and len(plan.tables) == 6791
    assert sorted(p for t in plan.tables for p in t.players) == sorted(p for t in tables for p in t.players)


def test_the_final_table_forms_as_soon_as_the_players_fit() -> None:
    tables = [table(1, range(5)), table(2, range(4))]
    plan = balance(tables, SeatingRules(), seed=2)
    (final,) = plan.tables
    assert final.number == 1 and final.count == 9 and plan.broken == (2,)
    assert {m.reason for m in plan.moves} == {"final table"} and len(plan.moves) == 9
    check_plan(tables, plan, SeatingRules())


def test_six_max_finishes_seven_handed_and_the_size_is_a_setting() -> None:
    tables = [table(1, range(4), size=6), table(2, range(3), size=6)]
    (final,) = balance(tables, SeatingRules(table_size=6), seed=1).tables
    assert len(final.seats) == 7 and final.count == 7
    assert len(balance(tables, SeatingRules(table_size=6, final_table_size=6), seed=1).tables) == 2


def test_a_table_with_nobody_left_is_gone() -> None:
    tables = [table(1, range(8)), table(2, range(8)), table(3, [])]
    plan = balance(tables, SeatingRules(), seed=0)
    assert plan.broken == (3,) and plan.moves == ()


# --- hand for hand (TDA RP-8) ------------------------------------------------------------------------------


def test_hand_for_hand_on_the_bubble_with_more_than_one_table() -> None:
    tables = [table(1, range(6)), table(2, range(5))]  # 11 players
    assert bubble(tables, 10).hand_for_hand
    assert not bubble(tables, 9).hand_for_hand
    assert bubble(tables, 9, SeatingRules(hand_for_hand_margin=2)).hand_for_hand
    assert not bubble(tables, 11).hand_for_hand and bubble(tables, 11).in_the_money
    assert not bubble([table(1, range(9))], 8).hand_for_hand  # one table: every hand starts together anyway


# --- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "says"), [
    (lambda: SeatingRules(table_size=True), "table size"),
    (lambda: SeatingRules(table_size=10**40), "table size"),
    (lambda: SeatingRules(balance_at=1), "balancing difference"),
    (lambda: SeatingRules(moved_to="x" * 100_000), "seat for a moved player"),
    (lambda: SeatingRules(moved_to="middle"), "seat for a moved player"),
    (lambda: SeatingRules(table_size=9, final_table_size=8), "final table size"),
    (lambda: Table(1, ("a", "a"), 0), "twice"),
    (lambda: Table(1, ("a", None), 2), "button"),
    (lambda: Table(1, [None] * 10**6, 0), "seats"),
    (lambda: Table(0, ("a", "b"), 0), "table number"),
    (lambda: Table(1, ("a", 5), 0), "name"),
    (lambda: draw_seats([*names(3), "p1"], SeatingRules(), 0), "name of their own"),
    (lambda: draw_seats(["x" * 10**6, "b"], SeatingRules(), 0), "name"),
    (lambda: draw_seats(names(10), SeatingRules(), -1), "seed"),
    (lambda: draw_seats(iter(names(10)), SeatingRules(), 0), "entrants"),
    (lambda: balance([table(1, range(5)), table(1, range(5), prefix="b")], SeatingRules(), 0), "number of its own"),
    (lambda: balance([table(1, range(5)), table(2, range(5), prefix="t1")], SeatingRules(), 0), "at two tables"),
    (lambda: balance([table(1, range(5)), table(2, range(5), size=6, prefix="b")], SeatingRules(), 0), "9 seats"),
    (lambda: balance({1: table(1, range(5))}, SeatingRules(), 0), "tables"),
    (lambda: balance([object()], SeatingRules(), 0), "Table"),
    (lambda: bubble([table(1, range(5))], 0), "places paid"),
    (lambda: bubble([table(1, range(5))], 10**100), "places paid"),
])
def test_hostile_values_are_refused_with_a_short_message(call: object, says: str) -> None:
    with pytest.raises(TournamentError) as caught:
        call()  # type: ignore[operator]
    assert says in str(caught.value) and len(str(caught.value)) <= 700
    assert isinstance(caught.value, CardgameError)


def test_the_application_walk_covers_the_seating_api() -> None:
    from tests.test_public_api_walk_apps import API

    found = {name.rsplit(".", 1)[-1] for name, _ in API if name.startswith("cardgame.tournament.")}
    assert {"draw_seats", "balance", "bubble", "next_big_blind", "Table", "SeatingRules", "Move", "Plan"} <= found


# --- any room, and a whole event ---------------------------------------------------------------------------


@st.composite
def rooms(draw: st.DrawFn) -> tuple[list[Table], SeatingRules, int]:
    size = draw(st.sampled_from([6, 9, 10]))
    rules = SeatingRules(table_size=size, balance_at=draw(st.sampled_from([2, 3])),
                         moved_to=draw(st.sampled_from(["big blind", "random"])))
    tables = []
    for number in range(1, draw(st.integers(1, 7)) + 1):
        occupied = draw(st.sets(st.integers(0, size - 1)))
        tables.append(table(number, sorted(occupied), button=draw(st.integers(0, size - 1)), size=size))
    return tables, rules, draw(st.integers(0, 2**64))


@settings(max_examples=150, deadline=None)
@given(rooms())
def test_any_room_comes_out_balanced_with_every_player_seated_once(room: tuple[list[Table], SeatingRules, int]) -> None:
    tables, rules, seed = room
    plan = balance(tables, rules, seed)
    check_plan(tables, plan, rules)
    assert balance(plan.tables, rules, seed).moves == ()  # a balanced room stays as it is
    assert plan == balance(tables, rules, seed)


@pytest.mark.parametrize(("size", "moved_to"), [(9, "big blind"), (6, "random")])
def test_a_1000_player_event_played_down_to_its_winner(size: int, moved_to: str) -> None:
    """Between hand rounds (a hand at every table: mostly nobody busts, sometimes one to three players do,
    the button moves on), the tables are balanced and every plan checked; the bubble plays hand for hand."""
    rules = SeatingRules(table_size=size, moved_to=moved_to)
    rng = random.Random(1)
    tables = list(draw_seats(names(1000), rules, seed=11))
    paid, rounds, hand_for_hand, reasons = 100, 0, 0, set()
    while sum(t.count for t in tables) > 1:
        rounds += 1
        played, remaining = [], sum(t.count for t in tables)
        for t in tables:
            last = remaining == t.count  # nobody elsewhere: one player here must stay
            busts = set(rng.sample(t.players, min(rng.choices([0, 1, 2, 3], [92, 6, 1.5, 0.5])[0], t.count - last)))
            remaining -= len(busts)
            seats = tuple(None if p in busts else p for p in t.seats)
            following = [(t.button + i) % len(seats) for i in range(1, len(seats) + 1)]
            button = next((s for s in following if seats[s] is not None), t.button)
            played.append(Table(t.number, seats, button))
        state = bubble(played, paid, rules)
        left = sum(t.count for t in played)
        assert state.hand_for_hand == (paid < left <= paid + 1 and sum(t.count > 0 for t in played) > 1)
        hand_for_hand += state.hand_for_hand
        plan = balance(played, rules, seed=rounds)
        check_plan(played, plan, rules)
        reasons |= {m.reason for m in plan.moves}
        tables = list(plan.tables)
        if left <= rules.final_size:
            assert len(tables) == 1 and len(tables[0].seats) == rules.final_size
    assert sum(t.count for t in tables) == 1 and rounds < 2000
    assert hand_for_hand and reasons == {"balance", "break", "final table"}


ROOM = (table(1, range(9)), table(2, range(6)))
#: Each public call with good arguments; the walk below puts a hostile value in each argument in turn.
CALLS: dict[str, tuple[object, tuple[object, ...]]] = {
    "draw_seats": (draw_seats, (names(20), SeatingRules(), 3)),
    "balance": (balance, (ROOM, SeatingRules(), 3)),
    "bubble": (bubble, (ROOM, 10, SeatingRules())),
    "next_big_blind": (next_big_blind, (ROOM[0],)),
    "SeatingRules": (SeatingRules, (9, 2, "big blind", 9, 1)),
    "Table": (Table, (1, ("a", None, "b"), 0)),
    "Move": (Move, ("a", 1, 0, 2, 3, "balance")),
    "Plan": (Plan, (ROOM, (Move("a", 1, 0, 2, 3, "balance"),), (3,))),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_hostile_value_in_each_argument_after_good_ones_is_refused(name: str) -> None:
    """The application walk puts a hostile value first; this one behind good arguments, so every check is met."""
    from tests.api_walk import HOSTILE_FIXED, call_hostile

    fn, good = CALLS[name]
    fn(*good)  # type: ignore[operator]
    for where in range(len(good)):
        for value in HOSTILE_FIXED:
            args = list(good)
            args[where] = value
            call_hostile(f"{name} (argument {where}: {type(value).__name__})", fn, args, {})  # type: ignore[arg-type]


def test_the_seating_example_in_the_tournaments_page_runs() -> None:
    """docs/tournaments.md's example under "Seating and balancing" runs as written (its asserts hold)."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "tournaments.md").read_text(encoding="utf-8")
    section = page[page.index("## Seating and balancing"):]
    code = section[section.index("```python\n") + len("```python\n"):section.index("\n```\n")]
    exec(compile(code, "docs/tournaments.md", "exec"), {"__name__": "__main__", "print": lambda *a: None})


def test_a_hand_for_hand_rounds_busts_rank_by_stacks_or_tie_as_the_rule_says() -> None:
    """Rooms differ on players out in the same hand-for-hand round: ranked by starting stacks (the
    default) or tied; refused for anything else."""
    busted = {"ann": 300, "bob": 100}
    assert SeatingRules().round_out(busted) == busted
    assert SeatingRules(hand_for_hand_busts="tie").round_out(busted) == {"ann": 1, "bob": 1}
    standings = Standings(("ann", "bob", "cat", "dan"), (50, 30, 20))
    tied = standings.eliminate(SeatingRules(hand_for_hand_busts="tie").round_out({"cat": 500, "dan": 20}))
    assert {(f.name, f.place, f.shared, f.prize) for f in tied.finishes} == {("cat", 3, 2, 10), ("dan", 3, 2, 10)}
    with pytest.raises(TournamentError, match="hand-for-hand round's busts must be one of 'stacks', 'tie'"):
        SeatingRules(hand_for_hand_busts="coin flip")
