"""Recovery from a store whose rows were edited (deleted, duplicated, moved, altered): it refuses with a
:class:`StoreError` naming the row, or rebuilds the table with exactly the chips the log recorded. It
never creates or destroys a chip.

The store is a bot game on disk: hands with seating, top-ups and a leave between and during them, a
crash mid-hand, the recovery that voids it, the recovered table recorded on, and a hand in progress.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardgame.model.events import ChipsAdded, HandEnded, HandStarted, PlayerLeft, PlayerSeated
from cardgame.play.bots import random_bot
from cardgame.play.game import Game
from cardgame.store import EventStore, HandVoided, StoreError, TableState, recover
from variants import no_limit_holdem

TABLE = "table-1"
#: Where a refusal names the row it stopped at.
ROW = re.compile(r"(events|hands|hand_players|tables) (table has no )?rows? \(table 'table-1'|rows of table 'table-1'|"
                 r"log of table 'table-1' has no seq")


def _play_until(game: Game, hands: int, actions_after: int = 0) -> None:
    """Play random bots until ``hands`` hands have ended, then ``actions_after`` actions of the next."""
    while game.ctx.hands_played < hands:
        game.play(random_bot, max_actions=1)
        for p in list(game.table.players()):  # the broke top up as soon as they are out of the hand
            if p.stack == 0 and (game.hand is None or p.seat not in game.hand.by_seat):
                game.top_up(p.seat, 100)
                game.sit_in(p.seat)
    if actions_after:
        game.play(random_bot, max_actions=actions_after)


def _seats(game: Game) -> dict[int, tuple[str, int]]:
    return {p.seat: (p.name, p.stack) for p in game.table.players()}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, tuple[str, int]]]:
    """The store's file and the seats recovery must rebuild from it."""
    path = tmp_path_factory.mktemp("recorded") / "tables.db"
    store = EventStore(path)
    game = Game(no_limit_holdem(1, 2), seats=6, seed=11, min_buy_in=20, max_buy_in=400, keep_hands=None)
    store.record(game, TABLE)
    for name, chips in (("ann", 200), ("bob", 150), ("cat", 120)):
        game.sit_down(name, chips)
    game.start()
    _play_until(game, 1, actions_after=2)
    dan = game.sit_down("dan", 90)  # mid-hand: dealt in from the next hand
    game.top_up(dan.seat, 60)  # not in the hand: at once
    fay = game.sit_down("fay", 50)
    game.leave(fay.seat)  # not in the hand: leaves at once with her chips
    _play_until(game, 3, actions_after=3)
    game.leave(next(p.seat for p in game.table.players() if p.name == "bob"))  # leaves when the hand ends
    _play_until(game, 4, actions_after=4)  # ... and the process dies in hand #5
    game = recover(store, TABLE, no_limit_holdem(1, 2), seed=3)  # voids hand #5
    store.record(game, TABLE)
    game.sit_down("eve", 100)
    game.start()
    _play_until(game, 7, actions_after=3)  # hand #8 is in progress
    store.close()

    with EventStore(path) as s:
        events = [e.event for e in s.events(TABLE)]
    kinds = {type(e) for e in events}
    assert {TableState, HandVoided, HandEnded}.issubset(kinds)
    last_end = next(e for e in reversed(events) if isinstance(e, HandEnded))
    pending = next(e for e in reversed(events) if isinstance(e, HandStarted))
    assert pending.hand == last_end.hand + 1 == 8
    expected: dict[int, int] = {}  # the chips recorded: the last hand's end, then seating, then the void
    for e in events:
        if isinstance(e, (PlayerSeated, ChipsAdded)):
            expected[e.seat] = e.stack
        elif isinstance(e, PlayerLeft):
            expected.pop(e.seat)
        elif isinstance(e, (HandEnded, TableState)):
            expected = dict(e.stacks) if isinstance(e, HandEnded) else {s: c for s, _, c, _ in e.seats}
    expected.update(zip(pending.seats, pending.stacks, strict=True))  # the pending hand's bets returned
    copy = path.parent / "check.db"
    shutil.copy(path, copy)
    with EventStore(copy) as s:
        seats = _seats(recover(s, TABLE, no_limit_holdem(1, 2)))
    assert {seat: stack for seat, (_, stack) in seats.items()} == expected
    return path, seats


# --- the edits ------------------------------------------------------------------------------------------


def _renumber(db: sqlite3.Connection, order: list[int]) -> None:
    """Rewrite the events rows in ``order`` (a list of old seqs, repeats allowed) as seq 0, 1, 2..."""
    rows = {r[1]: r for r in db.execute("SELECT * FROM events WHERE table_id = ?", (TABLE,))}
    db.execute("DELETE FROM events WHERE table_id = ?", (TABLE,))
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(TABLE, i, *rows[old][2:]) for i, old in enumerate(order)])


def _leaf(data: Any, rng: random.Random) -> list[Any]:
    """A path to a random leaf of JSON ``data`` (a key or index at each level)."""
    path: list[Any] = []
    while isinstance(data, (dict, list)) and data:
        key = rng.choice([k for k in data if k != "type"] or ["type"]) if isinstance(data, dict) \
            else rng.randrange(len(data))
        path.append(key)
        data = data[key]
    return path


def _altered(value: Any, rng: random.Random) -> Any:
    if type(value) is int:
        return rng.choice([value + 1, value - 1, value + 6, value - 2, 0, -value, value * 2])
    if type(value) is str:
        return rng.choice(["", value + "x", "ann", "bob"])
    if type(value) is bool:
        return not value
    if type(value) is float:
        return rng.choice([value + 1, -value, "x"])
    return rng.choice([0, "x", None, [], 10**20])


def _edit_json(text: str, rng: random.Random) -> tuple[str, str]:
    """``text`` (JSON) with one leaf altered, removed or repeated; what was done."""
    data = json.loads(text)
    path = _leaf(data, rng)
    if not path:
        return json.dumps(_altered(data, rng)), "replaced"
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = rng.choice(["alter", "alter", "alter", "remove", "repeat"])
    if how == "remove":
        del parent[key]
    elif how == "repeat" and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = _altered(parent[key], rng)
    return json.dumps(data), f"{how} {'/'.join(map(str, path))}"


_CHIPS = ("seated", "chips added", "left", "hand started", "hand ended", "hand voided", "table state")


def _edit(db: sqlite3.Connection, rng: random.Random) -> str:
    """One random edit of the store; what it was."""
    seqs = [s for (s,) in db.execute("SELECT seq FROM events WHERE table_id = ? ORDER BY seq", (TABLE,))]
    chips = [s for (s,) in db.execute(f"SELECT seq FROM events WHERE kind IN ({','.join('?' * len(_CHIPS))})",
                                      _CHIPS)]
    seq = rng.choice(chips if rng.random() < 0.7 else seqs)
    kind = db.execute("SELECT kind FROM events WHERE seq = ?", (seq,)).fetchone()[0]
    table = rng.choices(["events", "hands", "hand_players", "tables"], [12, 4, 1, 1])[0]
    if table == "events":
        op = rng.choice(["delete", "duplicate", "move", "column", "payload", "payload"])
        if op == "delete":
            db.execute("DELETE FROM events WHERE seq = ?", (seq,))
        elif op in ("duplicate", "move"):
            order = [s for s in seqs if op == "duplicate" or s != seq]
            at = rng.randrange(len(order) + 1)
            order.insert(at, seq)
            _renumber(db, order)
            return f"{op} {kind} row {seq} to position {at}"
        elif op == "column":
            column = rng.choice(["hand", "seat", "kind", "time", "seq"])
            old = db.execute(f"SELECT {column} FROM events WHERE seq = ?", (seq,)).fetchone()[0]
            new = rng.choice(["hand ended", "seated", "action"]) if column == "kind" else \
                rng.choice([None, 1, 5000]) if old is None else _altered(old, rng)
            if column == "seq" and new in seqs:
                new = seqs[-1] + 3
            db.execute(f"UPDATE events SET {column} = ? WHERE seq = ?", (new, seq))
            return f"{kind} row {seq}: {column} {old!r} -> {new!r}"
        else:
            payload = db.execute("SELECT payload FROM events WHERE seq = ?", (seq,)).fetchone()[0]
            new, how = _edit_json(payload, rng)
            db.execute("UPDATE events SET payload = ? WHERE seq = ?", (new, seq))
            return f"{kind} row {seq} payload: {how}"
        return f"{op} {kind} row {seq}"
    if table == "hands":
        hands = [h for (h,) in db.execute("SELECT hand FROM hands")]
        hand = rng.choice(hands)
        op = rng.choice(["delete", "duplicate", "status", "ended", "players", "final_stacks"])
        if op == "delete":
            db.execute("DELETE FROM hand_players WHERE hand = ?", (hand,))
            db.execute("DELETE FROM hands WHERE hand = ?", (hand,))
        elif op == "duplicate":
            db.execute("INSERT INTO hands SELECT table_id, ?, started, ended, status, players, final_stacks, phh "
                       "FROM hands WHERE hand = ?", (max(hands) + 1, hand))
        elif op == "status":
            db.execute("UPDATE hands SET status = ? WHERE hand = ?", (rng.choice(["playing", "complete", "voided"]),
                                                                      hand))
        elif op == "ended":
            db.execute("UPDATE hands SET ended = NULL WHERE hand = ?", (hand,))
        else:
            text = db.execute(f"SELECT {op} FROM hands WHERE hand = ?", (hand,)).fetchone()[0]
            if text is None:
                return f"hands row {hand}: no {op}"
            new, how = _edit_json(text, rng)
            db.execute(f"UPDATE hands SET {op} = ? WHERE hand = ?", (new, hand))
            return f"hands row {hand} {op}: {how}"
        return f"hands row {hand}: {op}"
    if table == "hand_players":
        hand, seat = rng.choice(db.execute("SELECT hand, seat FROM hand_players").fetchall())
        op = rng.choice(["delete", "name", "seat"])
        if op == "delete":
            db.execute("DELETE FROM hand_players WHERE hand = ? AND seat = ?", (hand, seat))
        else:
            db.execute(f"UPDATE OR IGNORE hand_players SET {op} = ? WHERE hand = ? AND seat = ?",
                       ("zed" if op == "name" else 5, hand, seat))
        return f"hand_players row {hand}/{seat}: {op}"
    column = rng.choice(["seat_count", "min_buy_in", "max_buy_in", "first_button"])
    db.execute(f"UPDATE tables SET {column} = ?", (rng.choice([2, 3, 1, 0, 10**6]),))
    return f"tables row: {column}"


def _recover_edited(src: Path, tmp: Path, edit: Callable[[sqlite3.Connection], str]) -> tuple[str, Any]:
    path = tmp / "edited.db"
    shutil.copy(src, path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = OFF")
    try:
        with db:
            what = edit(db)
    except (sqlite3.Error, OverflowError) as exc:  # the schema (or SQLite) refused the edit itself
        what = f"refused by SQLite: {exc}"
    finally:
        db.close()
    with EventStore(path) as store:
        try:
            return what, _seats(recover(store, TABLE, no_limit_holdem(1, 2)))
        except StoreError as exc:
            return what, exc


def test_recovery_of_edited_rows_refuses_naming_the_row_or_keeps_every_chip(
        recorded: tuple[Path, dict[int, tuple[str, int]]], tmp_path: Path) -> None:
    src, seats = recorded
    total = sum(stack for _, stack in seats.values())
    outcomes: dict[str, int] = {"refused": 0, "rebuilt": 0}
    for n in range(240):
        rng = random.Random(n)
        what, result = _recover_edited(src, tmp_path, lambda db, rng=rng: _edit(db, rng))  # type: ignore[misc]
        if isinstance(result, StoreError):
            message = str(result)
            assert len(message) < 400 and ROW.search(message), (what, message)
            outcomes["refused"] += 1
            continue
        outcomes["rebuilt"] += 1
        assert sum(stack for _, stack in result.values()) == total, (n, what, result)
        assert {s: stack for s, (_, stack) in result.items()} == {s: stack for s, (_, stack) in seats.items()}, \
            (n, what, result)
    assert outcomes["refused"] > 100 and outcomes["rebuilt"] > 10, outcomes


def test_a_duplicated_hand_ended_row_is_refused_naming_it(store: EventStore) -> None:
    """The audit's case: a copy of hand #1's end replayed after a later hand reset the stacks to hand
    #1's (the replay checked chips only for the hand in progress, and dropped that hand unvoided)."""
    game = Game(no_limit_holdem(1, 2), seed=7, keep_hands=None)
    store.record(game, TABLE)
    for name in ("ann", "bob", "cat"):
        game.sit_down(name, 200)
    game.start()
    _play_until(game, 3, actions_after=3)
    first = next(r for r in store.events(TABLE) if isinstance(r.event, HandEnded))
    copy_at = next(r.seq for r in store.events(TABLE) if isinstance(r.event, HandStarted) and r.event.hand == 4)
    with store.transaction() as db:  # the same SQL on SQLite and PostgreSQL
        db.execute("UPDATE events SET seq = seq + 1000000 WHERE table_id = ? AND seq >= ?", (TABLE, copy_at))
        db.execute("UPDATE events SET seq = seq - 999999 WHERE table_id = ? AND seq >= 1000000", (TABLE,))
        db.execute("INSERT INTO events SELECT table_id, ?, hand, time, kind, seat, payload FROM events "
                   "WHERE table_id = ? AND seq = ?", (copy_at, TABLE, first.seq))
    with pytest.raises(StoreError, match=rf"events row \(table 'table-1', seq {copy_at}\): hand #1 ends but no hand "
                                         "is in progress"):
        recover(store, TABLE, no_limit_holdem(1, 2))
    assert store.hands(TABLE, status="voided") == []  # refused: nothing written


def test_a_table_recovered_without_voiding_and_recorded_on_recovers_again(store: EventStore) -> None:
    """The checks accept every log the library writes: here a crashed hand left ``playing`` (recovered
    with ``mark_void=False``), then the table's state recorded and more hands played."""
    game = Game(no_limit_holdem(1, 2), seed=5, keep_hands=None)
    store.record(game, TABLE)
    for name in ("ann", "bob", "cat"):
        game.sit_down(name, 200)
    game.start()
    _play_until(game, 2, actions_after=1)  # hand #3 is cut off
    again = recover(store, TABLE, no_limit_holdem(1, 2), seed=2, mark_void=False)
    store.record(again, TABLE)
    again.start()
    _play_until(again, 5, actions_after=2)
    seats = _seats(again)
    final = recover(store, TABLE, no_limit_holdem(1, 2))
    topped_up = sum(r.event.amount for r in store.events(TABLE) if isinstance(r.event, ChipsAdded))
    assert sum(stack for _, stack in _seats(final).values()) == 600 + topped_up
    assert [h.status for h in store.hands(TABLE)] == ["complete", "complete", "playing", "complete", "complete",
                                                       "voided"]
    assert set(_seats(final)) == set(seats)
