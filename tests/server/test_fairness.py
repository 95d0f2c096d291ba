"""Provably fair dealing: every table people sit at shuffles from the operating system's source;
each hand's deck is committed to before its first card and revealed when it ends; ``cardgame
verify`` checks a reveal and a saved hand; a client's seed is refused, so knowing one tells nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.model.cards import format_cards, parse_cards
from cardgame.model.rng import RandomSource
from cardgame.server import fairness
from cardgame.server.fairness import DealError, _shuffle_from_seed, commitment, new_deal, verify
from tests.server.helpers import Recorder, host

NT = {"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 3, "min_buy_in": 40, "max_buy_in": 200}


def played(hands: int, **config: Any) -> tuple[Any, Recorder, Recorder]:
    """An unseeded table, Ann seated (answering as a calling station) and a spectator, after ``hands`` hands."""
    table = host(**{**NT, "bots": {"2": "calling-station"}, "seed": None, **config})
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    for _ in range(2000):
        table.step()
        if len(watcher.reveals()) >= hands:
            return table, ann, watcher
        ann.answer()
    raise AssertionError("the hands did not end")


def hand_events(recorder: Recorder, hand: int) -> list[dict[str, Any]]:
    """The events of ``hand`` as ``recorder`` received them."""
    events = recorder.events()
    start = next(i for i, e in enumerate(events) if e["kind"] == "hand started" and e["event"]["hand"] == hand)
    end = next(i for i, e in enumerate(events[start:], start) if e["kind"] == "hand ended")
    return events[start:end + 1]


def test_each_hand_is_committed_before_its_first_card_and_revealed_after_it_ends() -> None:
    """The commitment comes on the hand's ``hand started`` item, the reveal on its ``hand ended`` one:
    in the views every connection receives anyway (no message of their own), the same for everyone."""
    table, ann, watcher = played(4)
    assert table.game.seed is None  # a table people sit at shuffles from the operating system's source
    assert {m["type"] for m in ann.messages + watcher.messages} <= {"welcome", "seated", "view"}
    for recorder in (ann, watcher):
        events = recorder.events()
        commitments = recorder.commitments()
        for reveal in recorder.reveals():
            hand = reveal["hand"]
            started = next(i for i, e in enumerate(events)
                           if e["kind"] == "hand started" and e["event"]["hand"] == hand)
            first_card = next(i for i, e in enumerate(events[started:], started) if e["kind"] == "hole cards")
            ended = next(i for i, e in enumerate(events[started:], started) if e["kind"] == "hand ended")
            assert started < first_card < ended and events[ended]["reveal"] is reveal
            assert not any("reveal" in e or "commitment" in e for e in events[started + 1:ended])
            assert commitments[hand] == reveal["commitment"]
            checked = verify(commitments[hand], reveal, hand_events(recorder, hand))
            assert checked.hand == hand and checked.cards >= 5  # own or shown hole cards, and the board
        views_in_hand = [m for m in recorder.views if m["table"]["hand"] is not None]
        assert all(m["table"]["commitment"] for m in views_in_hand)
    assert ann.reveals() == watcher.reveals() and len(ann.reveals()) >= 4
    shown = [verify(r["commitment"], r, hand_events(watcher, r["hand"])).shown for r in watcher.reveals()]
    assert sum(shown) >= 2  # showdowns checked against the deals (a calling station goes to showdown)


def test_a_full_view_after_connecting_mid_hand_carries_the_commitment_first() -> None:
    table, _, _ = played(1)
    late = Recorder(table)
    if table.game.hand is None:
        table.step()
    kinds = [m["type"] for m in late.messages]
    assert kinds[:2] == ["welcome", "view"], kinds
    view = late.views[0] if late.views[0]["table"]["hand"] is not None else late.views[1]
    first = view["events"][0]
    assert first["kind"] == "hand started" and first["commitment"] == view["table"]["commitment"]


def test_verify_refuses_a_tampered_reveal_a_wrong_commitment_and_events_not_dealt_from_the_deck() -> None:
    _, ann, _ = played(2)
    reveal = ann.reveals()[0]
    events = hand_events(ann, reveal["hand"])
    cards = parse_cards(reveal["deck"])
    swapped = format_cards([cards[1], cards[0], *cards[2:]])
    with pytest.raises(DealError, match="does not match the commitment"):
        verify(reveal["commitment"], {**reveal, "deck": swapped})
    with pytest.raises(DealError, match="does not match the commitment"):
        verify("0" * 64, reveal)
    with pytest.raises(DealError, match="does not match"):
        verify(reveal["commitment"], {**reveal, "salt": "f" * 32})
    # a table that lies consistently (commits to one deck, deals another) is caught by the events
    seen = next(c for e in events if e["kind"] == "hole cards" for c in e["event"]["cards"] if c is not None)
    at = cards.index(parse_cards(seen)[0])
    other = list(cards)
    other[at], other[-1] = other[-1], other[at]  # the card Ann was dealt moved to the bottom
    lie = {"salt": "a" * 32, "deck": format_cards(other)}
    with pytest.raises(DealError, match="do not follow the revealed deck"):
        verify(commitment("a" * 32, other), lie, events)
    for bad in (None, 5, "x" * 10**6, {"salt": 5, "deck": "Ah"}, {"salt": "a" * 32, "deck": "Ah Ah"},
                {"salt": "a" * 32, "deck": ["Ah"]}):
        with pytest.raises(DealError) as info:
            verify(reveal["commitment"], bad)
        assert len(str(info.value)) < 300
    with pytest.raises(DealError, match="not an event"):
        verify(reveal["commitment"], reveal, [{"type": "NoSuchEvent"}])


def run_verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardgame", "verify", *args], capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).parents[2])


def test_cardgame_verify_accepts_the_true_reveal_and_refuses_a_tampered_one(tmp_path: Path) -> None:
    _, ann, _ = played(1)
    reveal = ann.reveals()[0]
    deal = {"commitment": ann.commitments()[reveal["hand"]]}
    saved = tmp_path / "hand.json"
    saved.write_text(json.dumps({"commitment": deal["commitment"], "reveal": reveal,
                                 "events": hand_events(ann, reveal["hand"])}))
    good = run_verify(str(saved))
    assert good.returncode == 0, good.stderr
    assert f"hand #{reveal['hand']}" in good.stdout and "fixed before the first card" in good.stdout
    plain = run_verify(deal["commitment"], json.dumps({"salt": reveal["salt"], "deck": reveal["deck"]}))
    assert plain.returncode == 0 and "matches commitment" in plain.stdout, plain.stderr
    cards = parse_cards(reveal["deck"])
    tampered = json.dumps({"salt": reveal["salt"], "deck": format_cards([*cards[:-2], cards[-1], cards[-2]])})
    bad = run_verify(deal["commitment"], tampered)
    assert bad.returncode == 2 and "does not match the commitment" in bad.stderr and not bad.stdout
    saved.write_text(json.dumps({"commitment": deal["commitment"], "reveal": json.loads(tampered)}))
    assert run_verify(str(saved)).returncode == 2
    assert run_verify(str(tmp_path / "missing.json")).returncode == 2


def test_the_documented_snippet_accepts_a_true_reveal_and_refuses_a_tampered_one() -> None:
    """docs/server.md's few lines of Python, run as they are written there."""
    text = Path(__file__).parents[2].joinpath("docs", "server.md").read_text()
    block = next(b for b in text.split("```python")[1:] if "def deal_is_fair" in b).split("```")[0]
    scope: dict[str, Any] = {}
    exec(block, scope)
    deal = new_deal(parse_cards("Ah Kd 7c 2s 9h"), RandomSource(3))
    assert scope["deal_is_fair"](deal.commitment, deal.reveal())
    assert not scope["deal_is_fair"](deal.commitment, {**deal.reveal(), "deck": "Kd Ah 7c 2s 9h"})


def test_the_old_attack_a_spectator_who_knows_the_seed_can_no_longer_predict_the_cards() -> None:
    """The audit's attack: a client opened a table with a seed of its choosing, or read it from the lobby,
    and replaying ``Game(seed=...)`` predicted every board. A client can no longer give a seed, and a
    table's deals follow from no seed a client knows."""
    starlette = pytest.importorskip("starlette.testclient")
    from cardgame.server.app import create_app

    with starlette.TestClient(create_app(allowed_hosts=["testserver"])) as client:
        refused = client.post("/api/tables", json={**NT, "seed": 7, "bots": {"2": "calling-station"}})
        assert refused.status_code == 400 and "seed" in refused.json()["error"]
        assert client.get("/api/tables").json() == []
        made = client.post("/api/tables", json={**NT, "bots": {"2": "calling-station"}})
        assert made.status_code == 201 and "seed" not in made.json()["config"]
        table = client.app.state.server.tables[made.json()["id"]]
    assert table.game.seed is None
    # what the attack did: shuffle as the table would from the seed the client chose; the table's next deck
    # is another (it comes from the operating system's source, which has no seed to know)
    assert table._next_deal is not None or table.deal is not None
    dealt = table._next_deal[0].deck if table._next_deal is not None else table.deal.deck  # type: ignore[union-attr]
    assert new_deal(table._deck_spec().cards, RandomSource(7)).deck != dealt


def test_a_restarted_table_shuffles_from_the_operating_system_not_from_its_configured_seed(tmp_path: Path) -> None:
    starlette = pytest.importorskip("starlette.testclient")
    from cardgame.server.app import create_app
    from cardgame.server.config import read_config

    db = str(tmp_path / "t.db")
    with starlette.TestClient(create_app(db, allowed_hosts=["testserver"])) as client:
        config = read_config({**NT, "seed": 11, "bots": {"2": "calling-station"}})
        practice = client.portal.call(client.app.state.server.create, config)  # in the app's thread
        assert practice.game.seed == 11  # the operator's practice table replays
        table_id = practice.table_id
    with starlette.TestClient(create_app(db, allowed_hosts=["testserver"])) as client:
        again = client.app.state.server.tables[table_id]
        assert again.game.seed is None  # not 11 + 1_000_003 * hands, which its creator could work out


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.sampled_from(["salt", "deck", "type", "seat", "cards", "event", "hand", "street", "board",
                                          "face_up", "x"]), inner, max_size=5), max_leaves=15)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_JSON, st.just("a" * 64)), _JSON, st.one_of(st.none(), _JSON))
def test_verify_answers_any_input_with_a_result_or_a_deal_error(commitment_hex: Any, reveal: Any, events: Any) -> None:
    try:
        verify(commitment_hex, reveal, events)
    except DealError as exc:
        assert len(str(exc)) <= 700


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_JSON, max_size=8))
def test_verify_answers_any_events_of_a_true_reveal(events: list[Any]) -> None:
    deal = new_deal(parse_cards("Ah Kd 7c 2s 9h Th Jc Qd"), RandomSource(1))
    try:
        verify(deal.commitment, deal.reveal(), events)
    except DealError as exc:
        assert len(str(exc)) <= 700


def test_an_unseeded_deal_takes_one_draw_from_the_operating_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """It drew card by card (51 system calls a deck through ``SystemRandom``, about 3 % of the server's
    CPU), then the salt apart: now one ``os.urandom`` of 48 bytes gives the shuffle's seed and the salt,
    and the deal still verifies."""
    draws: list[int] = []
    real = fairness.os.urandom

    def counted(n: int) -> bytes:
        draws.append(n)
        return real(n)

    monkeypatch.setattr(fairness.os, "urandom", counted)
    monkeypatch.setattr(fairness.secrets, "token_hex", lambda *a: pytest.fail("a second draw for the salt"))
    cards = parse_cards("Ah Kd 7c 2s 9h Th Jc Qd")
    deal = new_deal(cards, RandomSource())
    assert draws == [48]
    assert sorted(deal.deck) == sorted(cards) and len(deal.salt) == 32
    assert verify(deal.commitment, deal.reveal()).deck == deal.deck


def test_the_seeded_shuffle_is_a_uniform_permutation_that_the_seed_alone_decides() -> None:
    seed = bytes(range(32))
    items = list(range(52))
    again = list(range(52))
    _shuffle_from_seed(items, seed)
    _shuffle_from_seed(again, seed)
    assert items == again and sorted(items) == list(range(52)) and items != list(range(52))
    other = list(range(52))
    _shuffle_from_seed(other, bytes(31) + b"\x01")
    assert other != items
    counts: dict[tuple[int, ...], int] = {}
    for i in range(6000):  # each of the 6 orders of 3 about 1,000 times
        three = [0, 1, 2]
        _shuffle_from_seed(three, i.to_bytes(16, "big"))
        counts[tuple(three)] = counts.get(tuple(three), 0) + 1
    assert len(counts) == 6 and all(850 < n < 1150 for n in counts.values()), counts
    many = list(range(600_000))  # words drawn again past the stream's first margin: it reads on
    _shuffle_from_seed(many, seed)
    assert sorted(many) == list(range(600_000))
    for bad in (b"short", "a text seed", None, bytes(2000)):
        with pytest.raises(DealError):
            _shuffle_from_seed([1, 2], bad)  # type: ignore[arg-type]
