"""The application over HTTP and websockets (Starlette's test client): the lobby, a table played
through sockets, origins, sizes and rates, and a restart that recovers the tables from the store."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import variants
from cardgame import Game
from cardgame.model.cards import parse_cards
from cardgame.model.deck import Deck
from cardgame.play.bots import calling_station
from cardgame.server.app import MAX_BODY
from cardgame.server.app import create_app as server_app
from cardgame.server.messages import MAX_MESSAGE
from cardgame.store import EventStore

TABLE = {"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 3, "min_buy_in": 40,
         "max_buy_in": 200, "bot_delay": 0, "bots": {"2": "calling-station"}}


def create_app(*args: Any, **kwargs: Any) -> Any:
    """The app, answering the test client's host name (``testserver``) too."""
    kwargs.setdefault("allowed_hosts", ["localhost", "127.0.0.1", "testserver"])
    return server_app(*args, **kwargs)


def create(client: TestClient, **changes: Any) -> str:
    response = client.post("/api/tables", json={**TABLE, **changes})
    assert response.status_code == 201, response.text
    table_id: str = response.json()["id"]
    return table_id


def until(ws: Any, test: Any, limit: int = 500) -> dict[str, Any]:
    """Receive messages until one passes ``test``; that one."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if test(message):
            return message
    raise AssertionError("no such message")


def asked(message: dict[str, Any]) -> bool:
    return message["type"] == "view" and message["question"] is not None


def test_the_lobby_lists_variants_and_creates_tables() -> None:
    with TestClient(create_app()) as client:
        found = client.get("/api/variants").json()
        nt = next(v for v in found if v["code"] == "NT")
        assert nt["params"]["big_blind"] == 2 and nt["max_players"] >= 6
        table_id = create(client)
        listed = client.get("/api/tables").json()
        assert [t["id"] for t in listed] == [table_id]
        assert client.get(f"/api/tables/{table_id}").json()["config"]["seats"] == 3
        assert client.get("/api/tables/nope").status_code == 404
        assert client.get(f"/table/{table_id}").status_code in (200, 404)  # the page, once its file is there
        assert client.get("/table/nope").status_code == 404


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"variant": "NT", "seats": 11}, 400, "seats must be 2 to 10"),
    ({"variant": "Go Fish"}, 400, "Unknown variant"),
    ({"variant": "NT", "params": {"big_blind": "two"}}, 400, "big_blind"),
    ({"variant": "NT", "bots": {"1": "skynet"}}, 400, "unknown bot"),
    ({"variant": "NT", "min_buy_in": 500, "max_buy_in": 100}, 400, "min_buy_in"),
    ({"variant": "NT", "hack": 1}, 400, "Unknown field"),
    ([1, 2], 400, "JSON object"),
    ({"variant": "NT", "params": 5}, 400, "params must be an object, not a number"),  # was a 500: AttributeError
    ({"variant": "NT", "bots": ["seed-ai"]}, 400, "bots must be an object, not a list"),
])
def test_a_bad_table_is_refused_with_what_was_wrong(body: Any, status: int, says: str) -> None:
    with TestClient(create_app()) as client:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status and says in response.json()["error"], response.text
        assert client.get("/api/tables").json() == []


def test_the_lobby_refuses_big_bodies_other_content_and_foreign_origins() -> None:
    with TestClient(create_app()) as client:
        big = client.post("/api/tables", content=b"{" + b" " * MAX_BODY + b"}",
                          headers={"content-type": "application/json"})
        assert big.status_code == 413
        form = client.post("/api/tables", data={"variant": "NT"})
        assert form.status_code == 415
        foreign = client.post("/api/tables", json=TABLE, headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403
        own = client.post("/api/tables", json=TABLE, headers={"origin": "http://testserver"})
        assert own.status_code == 201
        assert client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"}
                           ).status_code == 400


def play_sockets(sockets: dict[int, Any], hands: int) -> list[dict[str, Any]]:
    """The people at ``sockets`` (seat -> websocket) check or call until ``hands`` hands ended; the
    events the first socket received, each once."""
    latest: dict[int, dict[str, Any]] = {seat: until(ws, lambda m: m["type"] == "view") for seat, ws in sockets.items()}
    events: dict[int, dict[str, Any]] = {}
    first = min(sockets)
    for _ in range(5_000):
        for e in latest[first]["events"]:
            events.setdefault(e["seq"], e)
        if sum(e["kind"] == "hand ended" for e in events.values()) >= hands:
            return [events[k] for k in sorted(events)]
        newest = max(v["seq"] for v in latest.values())
        ready = [s for s, v in latest.items() if v["question"] and v["seq"] == newest]
        if ready:
            seat = ready[0]
            view, q = latest[seat], latest[seat]["question"]
            sockets[seat].send_json({"type": "act", "action": "check" if q["check"] else "call", "seq": view["seq"]})
            latest[seat] = {**view, "question": None}
            behind = seat
        else:  # a socket behind the newest view reads on; else all wait for the bot's (or the next hand's) view
            behind = min(latest, key=lambda s: (latest[s]["seq"], s))
        message = sockets[behind].receive_json()
        assert message["type"] == "view", message  # a hand's commitment and reveal come in its views
        latest[behind] = message
        if behind == first:
            for e in message["events"]:
                events.setdefault(e["seq"], e)
    raise AssertionError("too many messages")


def test_two_people_and_a_bot_play_over_websockets_to_the_stacks_the_revealed_decks_give_a_local_game() -> None:
    with TestClient(create_app()) as client:
        table_id = create(client)
        with client.websocket_connect(f"/ws/{table_id}") as ann, client.websocket_connect(f"/ws/{table_id}") as bob:
            assert ann.receive_json()["type"] == "welcome" and bob.receive_json()["type"] == "welcome"
            ann.receive_json(), bob.receive_json()  # the first views
            ann.send_json({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
            assert until(ann, lambda m: m["type"] == "seated")["seat"] == 0
            bob.send_json({"type": "sit", "name": "bob", "buy_in": 120, "seat": 1})
            assert until(bob, lambda m: m["type"] == "seated")["seat"] == 1
            events = play_sockets({0: ann, 1: bob}, 5)
        reveals = client.get(f"/api/tables/{table_id}/deals").json()
    ended = [e["event"] for e in events if e["kind"] == "hand ended"]
    decks = {r["hand"]: parse_cards(r["deck"]) for r in reveals}
    local = Game(variants.get("NT"), params={"small_blind": 1, "big_blind": 2}, seats=3, min_buy_in=40,
                 max_buy_in=200, max_hands=ended[-1]["hand"], keep_hands=None)

    def stack(event: Any) -> None:  # each hand dealt from the deck the table revealed
        if event.kind in ("hand ended", "seated") and local.ctx.hands_played + 1 in decks:
            local.ctx.next_deck = Deck.stacked(decks[local.ctx.hands_played + 1])

    local.hook(stack)  # inside the change: before the next hand is dealt
    local.sit_down("calling-station (2)", 200, 2)
    local.start()
    local.sit_down("ann", 100, 0)
    local.sit_down("bob", 120, 1)
    local.play(calling_station)
    expected = [e for e in local.events if e.kind == "hand ended"]
    assert [tuple(map(tuple, e["stacks"])) for e in ended] == [e.stacks for e in expected]
    assert sum(s for _, s in ended[-1]["stacks"]) == 420


def test_an_illegal_message_over_the_socket_gets_an_error_and_the_game_goes_on() -> None:
    with TestClient(create_app()) as client:
        table_id = create(client, seats=2, bots={"1": "calling-station"})
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            view = until(ws, asked)
            for bad, code in ((b"\xff\xfe", "malformed"), ("x" * (MAX_MESSAGE + 1), "too_large"),
                              (f'{{"type": "act", "action": "check", "seq": {view["seq"]}}}', "illegal")):
                if isinstance(bad, bytes):
                    ws.send_bytes(bad)
                else:
                    ws.send_text(bad)
                error = ws.receive_json()
                assert error["type"] == "error" and error["code"] == code, error
            ws.send_json({"type": "act", "action": "call", "seq": view["seq"]})
            assert until(ws, lambda m: m["type"] in ("view", "error"))["type"] == "view"


def test_a_flood_of_messages_is_rate_limited_then_cut_off() -> None:
    with TestClient(create_app(rate=5, burst=5)) as client:
        table_id = create(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            for _ in range(8):
                ws.send_json({"type": "sit_out"})
            codes = [until(ws, lambda m: m["type"] == "error")["code"] for _ in range(8)]
            assert codes.count("rate_limited") >= 2 and set(codes) <= {"rate_limited", "not_seated"}
            with pytest.raises(WebSocketDisconnect):
                for _ in range(100):
                    ws.send_json({"type": "sit_out"})
                    ws.receive_json()


def test_a_websocket_from_another_origin_is_refused() -> None:
    with TestClient(create_app(allowed_origins=["https://friend.example"])) as client:
        table_id = create(client)
        with pytest.raises(WebSocketDisconnect), \
                client.websocket_connect(f"/ws/{table_id}", headers={"origin": "https://evil.example"}) as ws:
            ws.receive_json()
        for origin in ("http://testserver", "https://friend.example"):
            with client.websocket_connect(f"/ws/{table_id}", headers={"origin": origin}) as ws:
                assert ws.receive_json()["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/nope") as ws:
            ws.receive_json()


def test_a_restarted_server_recovers_its_tables_voids_the_hand_and_the_seat_resumes(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    crashed = tmp_path / "crashed.db"
    with TestClient(create_app(str(db))) as client:
        table_id = create(client, seats=2, bots={"1": "calling-station"})
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            token = until(ws, lambda m: m["type"] == "seated")["token"]
            view = until(ws, asked)
            ws.send_json({"type": "act", "action": "raise", "amount": 10, "seq": view["seq"]})
            view = until(ws, lambda m: m["type"] == "view" and m["table"]["pot"] >= 20)
            assert view["table"]["hand"] == 1 and view["question"]
            # the server is killed here, mid-hand, waiting on ann: its files now are what a killed process leaves
            for suffix in ("", "-wal"):
                if Path(f"{db}{suffix}").exists():
                    shutil.copyfile(f"{db}{suffix}", f"{crashed}{suffix}")
    assert token.encode() not in crashed.read_bytes() + Path(f"{crashed}-wal").read_bytes()
    with TestClient(create_app(str(crashed))) as client:
        listed = client.get("/api/tables").json()
        assert [t["id"] for t in listed] == [table_id]
        # the hand is void: every chip returned (hand 2 may be under way)
        assert client.app.state.server.tables[table_id].chips() == 300
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "resume", "token": token})
            before_seated: list[dict[str, Any]] = []
            assert until(ws, lambda m: before_seated.append(m) or m["type"] == "seated")["seat"] == 0
            # every connection is told, in words, what became of the hand the restart interrupted
            notices = [m for m in before_seated if m["type"] == "notice"]
            assert [(m["kind"], m["text"]) for m in notices] == [
                ("voided", "Hand #1 was voided when the server restarted; every bet was returned.")]
            view = until(ws, lambda m: m["type"] == "view" and m["table"]["hand"] is not None)
            assert view["table"]["hand"] == 2 and view["full"]
            assert sum(s["stack"] for s in view["table"]["seats"]) + view["table"]["pot"] == 300
        recovered = EventStore(str(crashed))
        voided = [e.event for e in recovered.events(table_id) if e.event.kind == "hand voided"]
        assert [(v.hand, sorted(v.stacks)) for v in voided] == [(1, [(0, 100), (1, 200)])]
        recovered.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database for several server processes: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    dsn: str = request.getfixturevalue("postgres_dsn")
    return dsn


def test_servers_sharing_a_database_each_drive_their_own_tables_and_list_the_others(shared_db: str) -> None:
    a, b = create_app(shared_db, name="http://127.0.0.1:8001"), create_app(shared_db, name="http://127.0.0.1:8002")
    with TestClient(a) as one, TestClient(b) as two:
        first, second = create(one), create(two, variant="PO")
        for client, own, other, port in ((one, first, second, 8002), (two, second, first, 8001)):
            listed = {t["id"]: t for t in client.get("/api/tables").json()}
            assert set(listed) == {own, other}
            assert listed[own]["url"] == f"/table/{own}" and listed[own]["players"]
            assert listed[other]["url"] == f"http://127.0.0.1:{port}/table/{other}"
        with one.websocket_connect(f"/ws/{first}") as ws:
            ws.send_json({"type": "sit", "name": "ann", "buy_in": 100})
            until(ws, asked)
        with pytest.raises(WebSocketDisconnect), one.websocket_connect(f"/ws/{second}") as ws:
            ws.receive_json()  # the other process's table is played on its own server
    with TestClient(create_app(shared_db, name="http://127.0.0.1:8001")) as again:
        assert set(again.app.state.server.tables) == {first}  # a restart recovers its own tables only
        assert again.app.state.server.tables[first].chips() == 300


def test_a_decision_at_a_table_of_people_steps_its_task_only_when_a_clock_comes_sooner(tmp_path: Path) -> None:
    """Each message woke the table's task to step and set its timer again (a task and a timer a
    decision); now a table of people whose next clock runs out later than the timer set is left alone,
    while a clock that runs out still folds its player (the timer steps the table, then re-arms)."""
    with TestClient(create_app(str(tmp_path / "t.db"))) as client:
        table_id = create(client, seats=2, bots={}, action_time=5, time_bank=0, hand_pause=0)
        host = client.app.state.server.tables[table_id]
        steps = []
        step = host.step
        host.step = lambda: (steps.append(1), step())[1]
        with client.websocket_connect(f"/ws/{table_id}") as ann, client.websocket_connect(f"/ws/{table_id}") as bob:
            ann.send_json({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
            assert until(ann, lambda m: m["type"] == "seated")["seat"] == 0
            bob.send_json({"type": "sit", "name": "bob", "buy_in": 100, "seat": 1})
            assert until(bob, lambda m: m["type"] == "seated")["seat"] == 1
            before = len(steps)
            events = play_sockets({0: ann, 1: bob}, 3)
            decisions = sum(e["kind"] == "action" for e in events)
            assert decisions >= 6 and len(steps) - before < decisions / 2, (len(steps) - before, decisions)
            timed_out = until(ann, lambda m: m["type"] == "view" and any(
                "ran out of time" in e["text"] for e in m["events"]), limit=50)  # nobody answers now: 5 s
        assert timed_out["events"]
