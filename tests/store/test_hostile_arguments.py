"""Every public function of :mod:`cardgame.store` refuses hostile arguments (huge numbers, long text, wrong
types, deep nesting) with a short :class:`StoreError` (a CardgameError), and the store stays usable."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardgame.model.errors import CardgameError
from cardgame.play.game import Game
from cardgame.store import EventStore, Recorder, default_phh_writer, recover, replay_log
from cardgame.store.lease import Lease
from variants import no_limit_holdem

HOSTILE: list[Any] = [10**5000, -1, 2**63, "x" * 1_000_000, "", True, None, 1.5, float("nan"), float("inf"), [],
                      {}, b"x", object(), [[[[[[[[[[]]]]]]]]]], "\x00", "a\ud800"]


def _calls(store: EventStore, tmp: Path) -> dict[str, Callable[[Any], object]]:
    fresh = lambda: Game(no_limit_holdem(1, 2))  # noqa: E731
    return {
        "EventStore(path)": lambda v: EventStore(v),
        "EventStore(synchronous)": lambda v: EventStore(tmp / "s.db", synchronous=v),
        "EventStore(timeout)": lambda v: EventStore(tmp / "t.db", timeout=v),
        "record(game)": lambda v: store.record(v, "new"),
        "record(table_id)": lambda v: store.record(fresh(), v),
        "record(phh_writer)": lambda v: store.record(fresh(), "w", phh_writer=v),
        "record(clock)": lambda v: store.record(fresh(), "c", clock=v),
        "table": lambda v: store.table(v),
        "hands(table_id)": lambda v: store.hands(v),
        "hands(player)": lambda v: store.hands(player=v),
        "hands(start)": lambda v: store.hands(start=v),
        "hands(status)": lambda v: store.hands(status=v),
        "events(table_id)": lambda v: store.events(v),
        "events(hand)": lambda v: store.events("t", hand=v),
        "hand_events": lambda v: store.hand_events("t", v),
        "export_jsonl(path)": lambda v: store.export_jsonl(v),
        "export_jsonl(table_id)": lambda v: store.export_jsonl(io.StringIO(), v),
        "query(sql)": lambda v: store.query(v),
        "query(params)": lambda v: store.query("SELECT ?", (v,)),
        "recover(store)": lambda v: recover(v, "t", no_limit_holdem(1, 2)),
        "recover(table_id)": lambda v: recover(store, v, no_limit_holdem(1, 2)),
        "recover(stages)": lambda v: recover(store, "t", v),
        "recover(seed)": lambda v: recover(store, "t", no_limit_holdem(1, 2), seed=v, mark_void=False),
        "recover(max_hands)": lambda v: recover(store, "t", no_limit_holdem(1, 2), max_hands=v, mark_void=False),
        "recover(keep_hands)": lambda v: recover(store, "t", no_limit_holdem(1, 2), keep_hands=v, mark_void=False),
        "replay_log(events)": lambda v: replay_log(v),
        "replay_log([event])": lambda v: replay_log([v]),
        "default_phh_writer": lambda v: default_phh_writer(v),
        "hand_phh(table_id)": lambda v: store.hand_phh(v, 1, no_limit_holdem(1, 2)),
        "hand_phh(hand)": lambda v: store.hand_phh("t", v, no_limit_holdem(1, 2)),
        "hand_phh(stages)": lambda v: store.hand_phh("t", 1, v),
        "Lease(store)": lambda v: Lease(v, "n"),
        "Lease(name)": lambda v: Lease(store, v).acquire(),
        "Lease(ttl)": lambda v: Lease(store, "n", ttl=v),
        "Lease(clock)": lambda v: Lease(store, "n", clock=v),
        "Recorder(next_seq)": lambda v: Recorder(store, fresh(), "r", None, time.time, next_seq=v),
    }


def test_hostile_arguments_raise_short_store_errors_and_the_store_stays_usable(tmp_path: Path) -> None:
    """Found: huge whole numbers raised OverflowError from SQLite, wrong types AttributeError or TypeError
    (a path, a game, a file, SQL), a bad seed ValueError, and a 1 MB table id made a 1 MB message."""
    store = EventStore(tmp_path / "store.db")
    game = Game(no_limit_holdem(1, 2), seed=1)
    store.record(game, "t")
    game.sit_down("ann", 100)
    game.sit_down("bob", 100)
    before = store.events("t")
    escaped = []
    for name, call in _calls(store, tmp_path).items():
        for value in HOSTILE:
            try:
                call(value)
            except CardgameError as exc:
                assert len(str(exc)) < 400, (name, str(exc)[:200])
            except Exception as exc:  # none may escape
                escaped.append(f"{name} <- {type(value).__name__}: {type(exc).__name__}")
    assert escaped == []
    assert store.events("t") == before
    store.close()


def test_a_lease_is_held_by_one_process_and_taken_over_when_it_runs_out(tmp_path: Path) -> None:
    now = [1000.0]
    with EventStore(tmp_path / "s.db") as store:
        first, second = Lease(store, "n", clock=lambda: now[0]), Lease(store, "n", clock=lambda: now[0])
        second.holder = "elsewhere pid 1 abc"  # another machine's process: its liveness cannot be checked
        first.holder = "elsewhere pid 2 def"
        first.acquire()
        with pytest.raises(CardgameError, match="held by another process"):
            second.acquire()
        now[0] += 16  # the first stopped renewing
        second.acquire()
        with pytest.raises(CardgameError, match="no longer holds"), store.transaction() as db:
            first.renew(db)


def test_a_table_id_of_a_million_characters_is_quoted_as_an_excerpt(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store, pytest.raises(CardgameError, match=r"\(1,000,000 characters\)"):
        store.table("x" * 1_000_000)
