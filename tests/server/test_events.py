"""Sit-and-go events hosted by the server (cardgame.server.events): defined by the operator, registered
for over HTTP, started when the seats fill or at a time with bots, blinds rising by the structure's
clock with breaks, eliminations with places and prizes, the standings with ICM, chips conserved at
every hand (checked from the store's log), and hostile registrations and messages refused."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx")

from starlette.testclient import TestClient

from cardgame.engine.errors import ConfigError
from cardgame.model.events import ForcedBetPosted, HandEnded, HandStarted
from cardgame.server.app import create_app
from cardgame.server.events import read_event
from cardgame.store import EventStore
from cardgame.tournament.structure import preset

BASE = "http://localhost"


def _event(**fields: Any) -> Any:
    data = {"name": "Test SNG", "seats": 4, "stack": 200, "structure": "turbo sng hands", "payouts": [60, 40],
            "bot_delay": 0, "hand_pause": 0, "action_time": 5}
    return read_event({**data, **fields})


def _wait(client: TestClient, test: Any, what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = test()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _hands(db: Path, table_id: str) -> list[list[Any]]:
    """The stored events of each hand, in order."""
    store = EventStore(str(db))
    try:
        hands: list[list[Any]] = []
        for row in store.events(table_id):
            if isinstance(row.event, HandStarted):
                hands.append([])
            if hands:
                hands[-1].append(row.event)
        return hands
    finally:
        store.close()


def test_a_bots_event_started_at_its_time_plays_to_a_winner_with_chips_and_levels_kept_at_every_hand(
        tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    app = create_app(str(db), events=[_event(start_at=0, bots=["calling-station", "random"])])
    with TestClient(app, base_url=BASE) as client:
        listed = client.get("/api/events").json()
        assert len(listed) == 1
        event_id = listed[0]["id"]
        done = _wait(client, lambda: (e := client.get(f"/api/events/{event_id}").json())["status"] == "finished"
                     and e, "the winner")
        hosted = app.state.events.events[event_id]
        assert hosted.chip_errors == 0
    places = sorted(p["place"] for p in done["players"])
    assert places[0] == 1 and len(places) == 4
    winner = next(p for p in done["players"] if p["place"] == 1)
    assert done["winner"] == winner["name"] and winner["prize"] == 60 and winner["stack"] == 800
    assert sum(p["prize"] for p in done["players"]) == 100
    structure = preset("turbo sng hands")
    hands = _hands(db, done["table"])
    assert len(hands) == done["hands"]
    for number, events in enumerate(hands, 1):
        ended = [e for e in events if isinstance(e, HandEnded)]
        assert ended and sum(stack for _, stack in ended[0].stacks) == 800  # no chip made or lost
        blind = structure.at_hand(number).blinds.big_blind
        posted = [e.amount for e in events if isinstance(e, ForcedBetPosted) and e.bet == "big blind"]
        assert posted and (posted[0] == blind or any(e.all_in for e in events if isinstance(e, ForcedBetPosted)))


def test_people_register_and_the_event_starts_when_the_seats_fill_at_a_table_they_resume_with_their_token(
        tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "e.db"), events=[_event(seats=2)], allowed_hosts=["localhost", "testserver"])
    with TestClient(app, base_url=BASE) as client:
        event_id = client.get("/api/events").json()[0]["id"]
        url = f"/api/events/{event_id}/register"
        ann = client.post(url, json={"name": "ann"})
        assert ann.status_code == 201 and ann.json()["event"]["registered"] == 1
        assert client.get("/api/events").json()[0]["status"] == "registering"
        assert client.post(url, json={"name": "ann"}).status_code == 409  # the name is taken
        bob = client.post(url, json={"name": "bob"})
        assert bob.status_code == 201
        listed = _wait(client, lambda: (e := client.get("/api/events").json()[0])["status"] == "running" and e,
                       "the start")
        late = client.post(url, json={"name": "cat"})
        assert late.status_code == 409 and "closed" in late.json()["error"]
        table = listed["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "sit", "name": "eve", "buy_in": 100}))
            refused = _receive(ws, "error")
            assert refused["code"] == "illegal" and "tournament" in refused["message"]
            ws.send_text(json.dumps({"type": "resume", "token": ann.json()["token"]}))
            seated = _receive(ws, "seated")
            for message in ({"type": "top_up", "amount": 10}, {"type": "leave"}, {"type": "sit_out"}):
                ws.send_text(json.dumps(message))
                assert _receive(ws, "error")["code"] == "illegal"
        standings = client.get(f"/api/events/{event_id}").json()
        seats = {p["name"]: p["seat"] for p in standings["players"]}
        assert seats["ann"] == seated["seat"] and set(seats) == {"ann", "bob"}
        assert sum(p["stack"] for p in standings["players"]) == 400
        clock = client.get(f"/api/tables/{table}/event").json()["clock"]
        assert (clock["level"], clock["small_blind"], clock["big_blind"]) == (1, 10, 20)
        assert client.get(f"/event/{event_id}").status_code == 200
        assert client.get("/event/nope").status_code == 404


def _receive(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def test_hostile_registrations_are_refused_with_a_clear_message_and_change_nothing(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "e.db"), events=[_event(seats=4), _event(name="Second", seats=4),
                                                     _event(name="Third", seats=4), _event(name="Fourth", seats=4)])
    with TestClient(app, base_url=BASE) as client:
        ids = [e["id"] for e in client.get("/api/events").json()]
        url = f"/api/events/{ids[0]}/register"
        for body, status in ((b"{", 400), (b"[]", 400), (b'{"name": 5}', 400), (b'{"name": ""}', 400),
                             (json.dumps({"name": "x" * 10_000}).encode(), 413), (b'{"name": "a\\u0000b"}', 400),
                             (b'{"name": "ann", "seat": 1}', 400), (b'{"name": "' + b"9" * 4000 + b'"}', 400)):
            answer = client.post(url, content=body, headers={"Content-Type": "application/json"})
            assert answer.status_code == status, (body[:40], answer.text)
            assert len(answer.json()["error"]) <= 700
        assert client.post(url, content=b'{"name": "ann"}', headers={"Content-Type": "text/plain"}).status_code == 415
        assert client.post("/api/events/nope/register", json={"name": "ann"}).status_code == 404
        assert client.post(url, json={"name": "ann"}, headers={"Origin": "http://evil.example"}).status_code == 403
        assert client.get("/api/events/" + "x" * 5000).status_code == 404
        assert client.get("/api/events").json()[0]["registered"] == 0
        for i, event_id in enumerate(ids[:3]):  # tables_per_client (3 by default) registrations open per address
            assert client.post(f"/api/events/{event_id}/register", json={"name": f"p{i}"}).status_code == 201
        over = client.post(f"/api/events/{ids[3]}/register", json={"name": "p9"})
        assert over.status_code == 429 and "registrations" in over.json()["error"]


def test_a_minutes_clock_raises_the_blinds_and_a_break_stops_play_until_it_is_over(tmp_path: Path) -> None:
    now = [1000.0]
    structure = {"unit": "minutes", "ante_format": "everyone",
                 "levels": [[10, 20, 0, 1], ["break", 1], [20, 40, 5, 1], [50, 100, 10, 1]]}
    app = create_app(None, now=lambda: now[0],
                     events=[_event(seats=2, stack=100_000, structure=structure, start_at=0, bots=["calling-station"])])
    with TestClient(app, base_url=BASE) as client:
        event_id = client.get("/api/events").json()[0]["id"]
        hosted = app.state.events.events[event_id]
        _wait(client, lambda: hosted.hands >= 3, "hands at level 1")
        host = hosted.hosts[1]
        assert next(s for s in host.game.dispatcher.stages if type(s).__name__ == "ForcedBets").blinds == (10, 20)
        now[0] += 61  # the break: the hand after it waits
        _wait(client, lambda: client.get(f"/api/events/{event_id}").json()["clock"]["on_break"], "the break")
        time.sleep(0.3)
        stopped = hosted.hands
        time.sleep(0.7)
        assert hosted.hands == stopped  # nobody acts during the break
        clock = client.get(f"/api/events/{event_id}").json()["clock"]
        assert clock["level"] == 2 and clock["remaining"] <= 60
        forced = next(s for s in host.game.dispatcher.stages if type(s).__name__ == "ForcedBets")
        assert forced.blinds == (20, 40) and forced.ante == (5,)  # the hand after the break is at level 2
        now[0] += 60
        _wait(client, lambda: hosted.hands > stopped + 2, "play after the break")
        assert hosted.chip_errors == 0
        assert client.get(f"/api/events/{event_id}").json()["clock"]["level"] == 2


def test_event_configs_are_checked() -> None:
    for bad in ({"name": "x", "seats": 1}, {"name": "x", "structure": "nope"}, {"name": "x", "payouts": [1, 2, 3],
                                                                                 "seats": 2},
                {"name": "x", "bots": ["nobody"]}, {"name": "x", "people": 2, "seats": 4}, {"name": "x", "stack": -1},
                {"name": "x", "variant": "FR"}, {"nome": "x"}, {"name": "x", "start_at": "soon"}, [], "{", {},
                {"name": "x", "structure": {"levels": [[1, 2]], "unit": "days"}}, {"name": 5},
                {"name": "x", "hand_for_hand_busts": "coin flip"}, {"name": "x", "hand_for_hand_busts": [1]}):
        with pytest.raises(ConfigError) as caught:
            read_event(bad)
        assert len(str(caught.value)) <= 700


def test_a_multi_table_event_balances_and_breaks_tables_and_plays_to_a_winner_with_every_chip(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "e.db"), events=[_event(seats=7, table_size=3, stack=300, start_at=0,
                                                            payouts=[50, 30, 20], bots=["random", "calling-station"])])
    with TestClient(app, base_url=BASE) as client:
        event_id = client.get("/api/events").json()[0]["id"]
        hosted = app.state.events.events[event_id]
        done = _wait(client, lambda: (e := client.get(f"/api/events/{event_id}").json())["status"] == "finished"
                     and e, "the winner", timeout=60)
        assert hosted.chip_errors == 0  # checked after every hand at every table, chips moving counted
        assert done["moves"] > 0 and len(done["tables"]) == 1
        assert sorted(p["place"] for p in done["players"])[0] == 1 and len(done["players"]) == 7
        assert sum(p["prize"] for p in done["players"]) == 100
        winner = next(p for p in done["players"] if p["place"] == 1)
        assert winner["stack"] == 7 * 300
        assert list(app.state.server.tables) == done["tables"]
    store = EventStore(str(tmp_path / "e.db"))
    tables = [t for (t,) in store.query("SELECT table_id FROM tables")]
    first = [next(r.event for r in store.events(t)) for t in tables]
    store.close()
    assert sorted(len(state.seats) for state in first) == [2, 2, 3]  # 7 at tables of 3: 3, 2 and 2 (TDA rule 7)
    assert set(done["tables"]) < set(tables)  # the others were broken and closed


def test_a_player_moved_to_another_table_keeps_their_token_and_is_told_where_they_sit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgame.server.events as hosting
    from cardgame.tournament.seating import SeatingRules, draw_seats

    names = ["ann", *(f"random {i}" for i in range(1, 6))]
    rules = SeatingRules(table_size=3, final_table_size=3)
    seed = next(s for s in range(1000) if "ann" in draw_seats(names, rules, seed=s)[1].seats)
    monkeypatch.setattr(hosting.secrets, "randbits", lambda bits: seed)  # ann draws a seat at table 2
    app = create_app(str(tmp_path / "e.db"), allowed_hosts=["localhost", "testserver"],
                     events=[_event(seats=6, table_size=3, stack=300, people=1, bots=["random"], action_time=0.05,
                                    time_bank=0)])
    with TestClient(app, base_url=BASE) as client:
        event_id = client.get("/api/events").json()[0]["id"]
        token = client.post(f"/api/events/{event_id}/register", json={"name": "ann"}).json()["token"]
        where = f"/api/events/{event_id}/seat"
        first = _wait(client, lambda: (r := client.post(where, json={"token": token})).status_code == 200 and r.json(),
                      "ann seated")
        tables = client.get(f"/api/events/{event_id}").json()["tables"]
        assert first["table"] == tables[1]
        assert client.post(where, json={"token": "nope"}).status_code == 404
        assert client.post(where, json={"token": 5}).status_code == 400
        assert client.post(where, content=b"x" * 10_000).status_code == 400

        def moved() -> Any:
            answer = client.post(where, json={"token": token})
            standings = client.get(f"/api/events/{event_id}").json()
            if answer.status_code == 200 and answer.json()["table"] != first["table"]:
                return answer.json()
            assert standings["status"] == "running" and answer.status_code == 200, "ann went out before moving"
            return None

        now = _wait(client, moved, "ann moved to table 1", timeout=40)
        assert now["table"] == tables[0]
        with client.websocket_connect(f"/ws/{now['table']}") as ws:
            ws.send_text(json.dumps({"type": "resume", "token": token}))
            assert _receive(ws, "seated")["seat"] == now["seat"]  # the same token, at the new table
        assert client.get(f"/api/tables/{first['table']}/event").json()["id"] == event_id  # the old page follows
        assert app.state.events.events[event_id].chip_errors == 0


def _timeline(db: Path) -> tuple[list[Any], dict[tuple[str, int], str]]:
    """Every table's stored events in the order they happened, and the names seated at the start."""
    store = EventStore(str(db))
    try:
        tables = [t for (t,) in store.query("SELECT table_id FROM tables")]
        rows = sorted((r for t in tables for r in store.events(t)), key=lambda r: (r.time, r.table_id, r.seq))
        names = {(t, seat): name for t in tables for seat, name, *_ in next(r.event for r in store.events(t)).seats}
        return rows, names
    finally:
        store.close()


def _hand_for_hand_rounds(db: Path, entrants: int, paid: int) -> tuple[int, list[list[tuple[str, int]]]]:
    """Read from the log: how many hands were dealt hand for hand (TDA RP-8: from paid + 1 players left
    to the end of the round the bubble burst in), checking that none of them started while another
    table was still in a hand begun before this table's last hand ended; and the groups of players out
    together (a hand's, or a hand-for-hand round's) as (name, stack they started the hand with)."""
    from cardgame.model.events import HandVoided, PlayerSeated

    rows, names = _timeline(db)
    in_hand: dict[str, float | None] = {}
    last_end: dict[str, float] = {}
    started: dict[str, dict[int, int]] = {}
    left, on, dealt = entrants, False, 0
    groups: list[list[tuple[str, int]]] = []
    pending: list[tuple[str, int]] = []
    for r in rows:
        e, table = r.event, r.table_id
        if isinstance(e, PlayerSeated):
            names[(table, e.seat)] = e.name
        elif isinstance(e, HandStarted):
            if on:
                dealt += 1
                for other, since in in_hand.items():
                    assert other == table or since is None or since >= last_end.get(table, 0.0), (
                        f"table {table} dealt a hand while {other} played one begun before {table}'s last ended")
            in_hand[table] = r.time
            started[table] = dict(zip(e.seats, e.stacks, strict=True))
        elif isinstance(e, HandEnded | HandVoided):  # (a restart voids a hand: nobody went out in it)
            in_hand[table], last_end[table] = None, r.time
            out = [] if isinstance(e, HandVoided) else [
                (names[(table, s)], started[table][s]) for s, c in e.stacks if c == 0 and started[table].get(s)]
            left -= len(out)
            pending += out
            if not on or all(since is None for since in in_hand.values()):  # a hand's end, or a round's
                if pending:
                    groups.append(pending)
                pending = []
                on = paid < left <= paid + 1
    return dealt, groups


def _places(groups: list[list[tuple[str, int]]], entrants: int) -> dict[str, str]:
    """The places the groups of players out make: each group below those left, ranked by the stacks
    they started with, equal stacks sharing."""
    places: dict[str, str] = {}
    left = entrants
    for group in groups:
        place = left - len(group) + 1
        for stack in sorted({s for _, s in group}, reverse=True):
            tied = [n for n, s in group if s == stack]
            for n in tied:
                places[n] = str(place) if len(tied) == 1 else f"{place}-{place + len(tied) - 1}"
            place += len(tied)
        left -= len(group)
    return places


def test_the_tables_play_hand_for_hand_on_the_bubble_and_players_out_in_a_round_are_ranked_by_their_stacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardgame.server.host import TableHost

    told: list[str] = []
    playing_when_over: list[int] = []  # tables in a hand each time a page says hand for hand is over
    notice = TableHost.notice

    def told_at(self: TableHost, kind: str, text: str) -> None:
        told.append(text)
        if text == "Hand for hand is over.":
            playing_when_over.append(sum(h.game.hand is not None for e in app.state.events.events.values()
                                         for h in e.hosts.values()))
        notice(self, kind, text)

    monkeypatch.setattr(TableHost, "notice", told_at)
    dealt = 0
    for i in range(12):  # events until one meets the bubble exactly (two out in one hand can jump over it)
        db = tmp_path / f"e{i}.db"
        app = create_app(str(db), events=[_event(seats=9, table_size=3, stack=1000, start_at=0,
                                                 payouts=[30, 25, 20, 15, 10],
                                                 bots=["tight-aggressive", "calling-station"])])
        with TestClient(app, base_url=BASE) as client:
            event_id = client.get("/api/events").json()[0]["id"]
            hosted = app.state.events.events[event_id]
            url = f"/api/events/{event_id}"
            done = _wait(client, lambda u=url: (e := client.get(u).json())["status"] == "finished" and e,
                         "the winner", timeout=60)
            assert hosted.chip_errors == 0 and not hosted.round_out and not hosted.hand_for_hand
        rounds, groups = _hand_for_hand_rounds(db, 9, 5)
        got = {p["name"]: p["places"] for p in done["players"]}
        winner = next(p["name"] for p in done["players"] if p["place"] == 1)
        assert got == {**_places(groups, 9), winner: "1"}  # the players out in a round ranked together
        # the bubble bursts only once its round is over: at most the table whose hand just ended is in one
        assert all(n <= 1 for n in playing_when_over), playing_when_over
        assert sum(p["prize"] for p in done["players"]) == 100
        dealt += rounds
        if dealt:
            break
        told.clear()
    assert dealt > 0  # hands were dealt hand for hand, each once every table had ended its hand
    assert any(t.startswith("Hand for hand:") for t in told) and "Hand for hand is over." in told  # the pages say so


def test_the_final_table_is_drawn_again_every_player_left_at_a_random_seat_keeping_their_token(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgame.server.events as hosting
    from cardgame.model.events import PlayerLeft, PlayerSeated

    plans: list[Any] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        plan = hosting.seating_balance(*args, **kwargs)
        if any(m.reason == "final table" for m in plan.moves):
            plans.append(plan)
        return plan

    monkeypatch.setattr(hosting, "seating_balance", hosting.balance, raising=False)
    monkeypatch.setattr(hosting, "balance", spy)
    db = tmp_path / "e.db"
    app = create_app(str(db), allowed_hosts=["localhost", "testserver"],
                     events=[_event(seats=6, table_size=3, stack=5000, people=1, bots=["random"], action_time=0.05,
                                    time_bank=0, payouts=[70, 30])])
    with TestClient(app, base_url=BASE) as client:
        event_id = client.get("/api/events").json()[0]["id"]
        token = client.post(f"/api/events/{event_id}/register", json={"name": "ann"}).json()["token"]
        hosted = app.state.events.events[event_id]
        _wait(client, lambda: (plans and len(hosted.hosts) == 1) or hosted.status == "finished", "the final table",
              timeout=30)  # (the draw made: the other tables closed)
        assert len(plans) == 1
        plan = plans[0]
        final = plan.tables[0]
        drawn = {m.player: m.to_seat for m in plan.moves}
        assert {m.reason for m in plan.moves} == {"final table"} and set(drawn) == set(final.players)
        assert list(hosted.hosts) == [final.number]
        host = hosted.hosts[final.number]
        assert {p.name: p.seat for p in host.game.table.players()} == drawn  # each in the seat drawn
        assert "ann" in drawn  # (folded every hand, she outlasts the random bots' all-ins)
        where = client.post(f"/api/events/{event_id}/seat", json={"token": token}).json()
        assert where == {"table": host.table_id, "seat": drawn["ann"]}  # her token holds her new seat
        with client.websocket_connect(f"/ws/{host.table_id}") as ws:  # her page resumes there
            ws.send_text(json.dumps({"type": "resume", "token": token}))
            assert _receive(ws, "seated")["seat"] == drawn["ann"]
        _wait(client, lambda: host.game.hand is not None or hosted.status == "finished", "the final table's hand")
        assert hosted.chip_errors == 0
    store = EventStore(str(db))
    events = [r.event for r in store.events(host.table_id)]
    store.close()
    at = max(i for i, e in enumerate(events) if isinstance(e, PlayerLeft) and e.name in drawn)
    before = events[:at + 1]
    after = events[at + 1:]
    already = {m.player for m in plan.moves if m.from_table == final.number}
    assert {e.name for e in before if isinstance(e, PlayerLeft)} >= already  # those seated there drew too
    assert {e.name: e.seat for e in after if isinstance(e, PlayerSeated)} == drawn
    started = next((e for e in after if isinstance(e, HandStarted)), None)
    assert started is None or (started.button, len(started.seats)) == (final.button, len(drawn))  # the button drawn
