"""One table of the server (:class:`TableHost`) without networking: seeded play to exact stacks,
private views, refused messages leaving the table unchanged, the clock, reconnection, every variant."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import variants
from cardgame import CardgameError, Game
from cardgame.model.cards import parse_cards
from cardgame.model.deck import Deck
from cardgame.play.bots import calling_station, random_bot
from cardgame.play.view import table_view
from cardgame.server.errors import MessageError
from cardgame.server.messages import MAX_MESSAGE
from cardgame.store.serialize import encode_event
from cardgame.store.snapshot import dumps
from tests.server.helpers import Recorder, canonical, conserved, host

NT = {"variant": "NT", "params": {"small_blind": 1, "big_blind": 2}, "seats": 3, "min_buy_in": 40, "max_buy_in": 200}


def two_people(table: Any, bob_buy_in: int = 100) -> tuple[Recorder, Recorder, Recorder]:
    """Ann in seat 0 and Bob in seat 1 of ``table``, and a spectator."""
    ann, bob, watcher = Recorder(table), Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    bob.send({"type": "sit", "name": "bob", "buy_in": bob_buy_in, "seat": 1})
    return ann, bob, watcher


def play(recorders: list[Recorder], table: Any, hands: int) -> None:
    """Step the table and let the people answer (as calling stations) until ``hands`` hands ended."""
    for _ in range(10_000):
        table.step()
        if sum(e["kind"] == "hand ended" for e in recorders[0].events()) >= hands:
            return
        if not any(r.answer() for r in recorders if r.client.seat is not None):
            for r in recorders:  # a person who went broke buys in again
                me = next((s for s in r.last["table"]["seats"] if s["seat"] == r.client.seat), None)
                if me is not None and me["stack"] == 0 and r.last["table"]["hand"] is None:
                    r.send({"type": "top_up", "amount": 100})
                    r.send({"type": "sit_in"})
            table.step()
            if not any(r.answer() for r in recorders if r.client.seat is not None):
                raise AssertionError("nobody has a question and no hand is running")
    raise AssertionError("too many steps")


def test_two_people_and_a_bot_play_hands_whose_revealed_decks_replay_to_the_same_stacks() -> None:
    table = host(**NT, bots={"2": "random"}, seed=6)
    ann, bob, watcher = two_people(table, 150)
    play([ann, bob], table, 8)
    ended = [e["event"] for e in watcher.events() if e["kind"] == "hand ended"]
    assert not [e for e in watcher.events() if e["kind"] == "chips added"], "a bot rebought: pick another seed"

    # the same game played by the library directly, the people as calling stations, each hand dealt
    # from the deck the table revealed after it
    decks = [parse_cards(m["deck"]) for m in watcher.reveals()]
    local = Game(variants.get("NT"), params={"small_blind": 1, "big_blind": 2}, seats=3, min_buy_in=40,
                 max_buy_in=200, seed=6, max_hands=8)

    def stack(event: Any) -> None:
        if event.kind in ("hand ended", "seated") and len(decks) > local.ctx.hands_played:
            local.ctx.next_deck = Deck.stacked(decks[local.ctx.hands_played])

    local.hook(stack)  # inside the change: the next hand is dealt in the same call
    local.sit_down("random (2)", 200, 2)
    local.start()
    local.sit_down("ann", 100, 0)
    local.sit_down("bob", 150, 1)
    local.play({0: calling_station, 1: calling_station, 2: random_bot})
    expected = [e.stacks for e in local.events if e.kind == "hand ended"]
    assert [tuple(map(tuple, e["stacks"])) for e in ended[:8]][-1] == expected[-1]
    assert len({e["event"]["hand"] for e in watcher.events() if e["kind"] == "hand started"}) >= 8
    assert conserved(watcher) > 20


def test_event_numbers_run_without_a_gap_in_every_connection() -> None:
    table = host(**NT, bots={"2": "random"})
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100})
    play([ann], table, 3)
    for r in (ann, watcher):
        numbers = [e["seq"] for v in r.views if not v["full"] for e in v["events"]]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        assert all(v["seq"] == (v["events"][-1]["seq"] if v["events"] else v["seq"]) for v in r.views if not v["full"])


def test_a_seat_sees_its_own_cards_only_and_a_spectator_none_before_the_showdown() -> None:
    table = host(**NT, bots={"2": "calling-station"})
    ann, bob, watcher = two_people(table)
    play([ann, bob], table, 4)
    for r, me in ((ann, 0), (bob, 1), (watcher, None)):
        dealt = [e for e in r.events() if e["kind"] == "hole cards"]
        assert dealt
        for e in dealt:
            seen = [c is not None for c in e["event"]["cards"]]
            assert all(seen) if e["event"]["seat"] == me else not any(seen), (me, e)
            if e["event"]["seat"] != me:
                assert "??" in e["text"]
        for v in r.views:
            for s in v["table"]["seats"]:
                assert all(c is None for c in s["hole"]) or s["seat"] == me
    assert any(e["kind"] == "shown" for e in watcher.events())  # the showdown's cards are public


def test_the_spectators_of_a_batch_are_sent_one_view_made_once() -> None:
    """Every spectator is sent the same view of a batch: it is made once and handed to each (three
    spectators cost little more than one), and reads as the one spectator's view it was before."""
    from cardgame.server.host import Client, message_text

    table = host(**NT, bots={"2": "calling-station"})
    ann, bob, watcher = two_people(table)
    got: list[list[Any]] = [[], [], []]
    for sink in got:
        table.connect(Client(sink.append))
    play([ann, bob], table, 2)
    views = [[m for m in sink if m["type"] == "view"] for sink in got]
    assert len(views[0]) > 10 and len(views[0]) == len(views[1]) == len(views[2])
    shared = [v for v in zip(*views, strict=True) if v[0]["seq"] == v[1]["seq"] == v[2]["seq"] and not v[0]["full"]]
    assert len(shared) > 10
    for a, b, c in shared:
        assert a is b is c  # (before: a view made for each spectator, the same text)
    watched = [t for t in watcher.texts if t.startswith('{"type":"view"')]  # the first spectator's, as sent
    assert [message_text(m) for m in views[0][-5:]] == watched[-5:]


def test_views_sent_in_one_batch_share_the_public_parts_and_differ_in_each_seats_own_cards() -> None:
    table = host(**NT, bots={"2": "calling-station"})
    ann, bob, watcher = two_people(table)
    play([ann, bob], table, 3)
    for r in (ann, bob, watcher):  # the text each connection is sent, made from shared parts, is compact JSON
        assert canonical(r) and len(r.views) > 10
    batch = [(a, b, w) for a, b, w in zip(ann.views[-8:], bob.views[-8:], watcher.views[-8:], strict=True)]
    for a, b, w in batch:
        assert a["seq"] == b["seq"] == w["seq"]
        rows = {r: {s["seat"]: s for s in v["table"]["seats"]} for r, v in (("a", a), ("b", b), ("w", w))}
        for seat in rows["w"]:  # the rows are the spectator's but for each seat's own hole cards
            for who, me in (("a", 0), ("b", 1)):
                mine, public = rows[who][seat], rows["w"][seat]
                if seat == me:
                    assert {k: v for k, v in mine.items() if k != "hole"} == {
                        k: v for k, v in public.items() if k != "hole"}
                    assert all(c is not None for c in mine["hole"])
                else:
                    assert mine == public
        assert {k: v for k, v in a["table"].items() if k != "seats"} == {
            k: v for k, v in w["table"].items() if k != "seats"}


def _question_for(recorder: Recorder) -> dict[str, Any]:
    assert recorder.last["question"] is not None
    return recorder.last


BAD: list[tuple[str, str]] = [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"type": "shove"}', "malformed"),
    ('{"type": "act", "action": "call"}', "malformed"),
    ('{"type": "act", "action": "call", "seq": "SEQ"}', "malformed"),
    ('{"type": "act", "action": "call", "seq": true}', "malformed"),
    ('{"type": "act", "action": "call", "seq": SEQ, "seat": 1}', "malformed"),  # acting for another seat
    ('{"type": "act", "action": "teleport", "seq": SEQ}', "malformed"),
    ('{"type": "act", "action": "raise", "amount": 1.5, "seq": SEQ}', "malformed"),
    ('{"type": "act", "action": "raise", "amount": 3, "seq": SEQ}', "illegal"),
    ('{"type": "act", "action": "raise", "amount": 100000, "seq": SEQ}', "illegal"),
    ('{"type": "act", "action": "check", "seq": SEQ}', "illegal"),
    ('{"type": "act", "action": "call", "amount": 7, "seq": SEQ}', "illegal"),
    ('{"type": "draw", "discards": ["Ah"], "seq": SEQ}', "illegal"),
    ('{"type": "runs", "count": 2, "seq": SEQ}', "illegal"),
    ('{"type": "act", "action": "call", "seq": OLD}', "stale"),
    ('{"type": "sit", "name": "eve", "buy_in": 100}', "already_seated"),
    ('{"type": "resume", "token": "guess"}', "bad_token"),
    ('{"type": "top_up", "amount": 10}', "illegal"),
    ('{"type": "top_up", "amount": -10}', "illegal"),
    ("x" * (MAX_MESSAGE + 1), "too_large"),
    ('{"type": "act", "action": "call", "seq": SEQ, "pad": "' + "é" * 1100 + '"}', "too_large"),
]


@pytest.mark.parametrize(("text", "code"), BAD, ids=[f"{c}-{i}" for i, (_, c) in enumerate(BAD)])
def test_a_refused_message_gets_its_error_and_leaves_the_table_exactly_as_it_was(text: str, code: str) -> None:
    table = host(**NT, bots={"2": "calling-station"})
    ann, bob, watcher = two_people(table)
    table.step()
    actor = ann if ann.last["question"] else bob
    view = _question_for(actor)
    before, seq, received = dumps(table.game), table.seq, [len(r.messages) for r in (ann, bob, watcher)]
    from cardgame.server.messages import read_message

    with pytest.raises(MessageError) as refused:
        table.handle(actor.client, read_message(text.replace("OLD", str(view["seq"] - 1))
                                                .replace("SEQ", str(view["seq"]))))
    assert refused.value.code == code, refused.value
    assert dumps(table.game) == before and table.seq == seq
    assert [len(r.messages) for r in (ann, bob, watcher)] == received
    assert actor.answer()  # the game goes on as if nothing had happened


def test_out_of_turn_forged_and_replayed_messages_are_refused() -> None:
    table = host(**NT, bots={"2": "calling-station"})
    ann, bob, eve = two_people(table)
    table.step()
    actor, other = (ann, bob) if ann.last["question"] else (bob, ann)
    seq = actor.last["seq"]
    before = dumps(table.game)
    cases = [
        (other, {"type": "act", "action": "fold", "seq": seq}, "not_your_turn"),
        (eve, {"type": "act", "action": "fold", "seq": seq}, "not_seated"),  # a spectator acting
        (eve, {"type": "leave"}, "not_seated"),
        (eve, {"type": "sit", "name": "eve", "buy_in": 100, "seat": actor.client.seat}, "seat_taken"),
        (eve, {"type": "sit", "name": "ann", "buy_in": 100}, "seat_taken"),
        (eve, {"type": "sit", "name": "eve", "buy_in": 39}, "buy_in"),
        (eve, {"type": "sit", "name": "eve", "buy_in": 100, "seat": 7}, "seat_taken"),
        (eve, {"type": "sit", "name": "\u202eeve\n", "buy_in": 100}, "malformed"),
    ]
    for sender, message, code in cases:
        with pytest.raises(MessageError) as refused:
            sender.send(message)
        assert refused.value.code == code, (message, refused.value)
        assert dumps(table.game) == before
    call = {"type": "act", "action": "call", "seq": seq}
    actor.send(call)
    after = dumps(table.game)
    with pytest.raises(MessageError) as replayed:
        actor.send(call)  # the same message again: its view is gone
    assert replayed.value.code == "stale" and dumps(table.game) == after
    assert not any(e["event"].get("cards") for e in eve.events() if e["kind"] == "hole cards"
                   for c in e["event"]["cards"] if c)


def test_a_silent_player_is_checked_or_folded_and_sat_out_after_repeated_timeouts() -> None:
    now = [0.0]
    table = host(now, **NT, bots={"1": "calling-station"}, action_time=10, time_bank=5, max_misses=2)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    table.step()
    view = _question_for(ann)
    assert view["clock"] == {"seat": 0, "remaining": 10.0, "starts_in": 0.0, "bank": 5.0}
    assert table.wake_at() == 15.0
    now[0] = 14.9
    table.step()
    assert table.game.to_act == 0  # the bank is still running
    now[0] = 15.0
    table.step()
    timed_out = [e for e in ann.events() if e["event"].get("seat") == 0 and e["kind"] == "action"]
    assert timed_out[-1]["event"]["action"] in ("fold", "check"), timed_out[-1]
    assert table.clock.bank(0) == 0.0
    for _ in range(20):  # the next decision has no bank left: 10 seconds
        if table.game.to_act == 0:
            break
        table.step()
    assert table.game.to_act == 0 and table.wake_at() == pytest.approx(now[0] + 10)
    now[0] += 10
    table.step()
    assert any(e["kind"] == "sat out" for e in ann.events())
    assert next(s for s in ann.last["table"]["seats"] if s["seat"] == 0)["sitting_out"]
    ann.send({"type": "sit_in"})
    assert table.misses[0] == 0


def test_a_timeout_is_told_as_one() -> None:
    """Every seat and spectators read "ann ran out of time and folds", not a bare "ann folds", and why
    ann sits out; the event itself is the one a fold by hand makes."""
    now = [0.0]
    table = host(now, **NT, bots={"1": "calling-station"}, action_time=1, time_bank=0, max_misses=2)
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    for _ in range(2):
        for _ in range(20):
            table.step()
            if table.game.to_act == 0:
                break
        now[0] += 1
        table.step()
    for recorder in (ann, watcher):
        mine = [e for e in recorder.events() if e["event"].get("seat") == 0 and e["kind"] in ("action", "sat out")]
        timed = [e for e in mine if e["kind"] == "action"]
        assert len(timed) == 2 and all(re.fullmatch(r"ann ran out of time and (folds|checks)", e["text"])
                                       for e in timed), mine
        assert timed[0]["event"]["action"] in ("fold", "check")
        assert mine[-1]["text"] == "ann ran out of time 2 times in a row and now sits out", mine
    # a full view (a reload) tells the hand's timeouts the same way
    full = Recorder(table).last["events"]
    assert all("ran out of time" in e["text"] for e in full if e["event"].get("seat") == 0 and e["kind"] == "action")


def test_the_clock_shows_the_action_time_while_the_hand_pause_runs() -> None:
    """After a hand the clock waits ``hand_pause`` seconds; meanwhile it shows the full action time
    (15), not 16.5, and says when it starts."""
    now = [0.0]
    table = host(now, **{**NT, "seats": 2}, bots={"1": "calling-station"}, action_time=15, time_bank=0,
                 hand_pause=1.5)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    paused = []
    for _ in range(200):
        table.step()
        view = ann.last
        if view["question"] is not None:
            clock = view["clock"]
            assert clock["remaining"] <= 15.0 and clock["seat"] == 0, clock
            if clock["starts_in"] > 0:
                paused.append(clock)
                assert clock == {"seat": 0, "remaining": 15.0, "starts_in": 1.5, "bank": 0.0}, clock
                now[0] += 1.0
                assert table.view(0).decoded()["clock"] == {"seat": 0, "remaining": 15.0, "starts_in": 0.5, "bank": 0.0}
                now[0] += 3.5
                assert table.view(0).decoded()["clock"] == {"seat": 0, "remaining": 12.0, "starts_in": 0.0, "bank": 0.0}
                break
            ann.send({"type": "act", "action": "check" if view["question"]["check"] else "fold", "seq": view["seq"]})
        now[0] += 0.25
    assert paused, "ann was never asked during the pause after a hand"


def test_a_bet_or_raise_without_an_amount_is_refused_in_words() -> None:
    table = host(**NT, bots={"1": "calling-station"})
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    table.step()
    view = _question_for(ann)
    for action in ("raise", "bet"):
        with pytest.raises(MessageError) as refused:
            ann.send({"type": "act", "action": action, "amount": None, "seq": view["seq"]})
        assert refused.value.code == "malformed"
        assert "None" not in refused.value.message and "null" not in refused.value.message
        raise_ = view["question"]["raise"]
        assert f"A {action} needs an amount" in refused.value.message
        assert f"from {raise_['min']} to {raise_['max']}" in refused.value.message, refused.value.message


def test_a_notice_reaches_every_connection_and_those_that_come_soon_after() -> None:
    now = [0.0]
    table = host(now, **NT, bots={"1": "calling-station"})
    ann, watcher = Recorder(table), Recorder(table)
    table.notice("paused", "The table is paused: its records cannot be written.")
    told = {"type": "notice", "kind": "paused", "text": "The table is paused: its records cannot be written.",
            "seq": table.seq}
    assert ann.of("notice") == watcher.of("notice") == [told]
    now[0] = 60.0
    assert Recorder(table).of("notice") == [told]  # a reconnecting player is told too
    now[0] = 200.0
    assert Recorder(table).of("notice") == []  # not for ever
    with pytest.raises(CardgameError):
        table.notice("x" * 100, "words")


def test_a_paused_table_refuses_all_but_resume_and_tells_newcomers_for_as_long_as_it_is_paused() -> None:
    """A paused table's refusal raised AssertionError (its code ``paused`` was not one of CODES), and a
    player connecting more than two minutes into a pause was not told why nothing moved."""
    now = [0.0]
    table = host(now, **NT, bots={"1": "calling-station"})
    ann = Recorder(table)
    table.pause("The table is paused: the server cannot record hands just now.")
    before = (table.seq, dumps(table.game))
    with pytest.raises(MessageError) as refused:
        ann.send({"type": "sit", "name": "ann", "buy_in": 100})
    assert refused.value.code == "paused" and "cannot record" in refused.value.message
    assert (table.seq, dumps(table.game)) == before and ann.client.seat is None
    now[0] = 600.0
    late = Recorder(table)
    assert [m["kind"] for m in late.of("notice")] == ["paused"]
    table.resume("The table is recorded again.")
    ann.send({"type": "sit", "name": "ann", "buy_in": 100})
    assert ann.client.seat is not None
    assert [m["kind"] for m in Recorder(table).of("notice")] == ["resumed"]


def test_answering_in_time_spends_only_the_bank_used() -> None:
    now = [0.0]
    table = host(now, **NT, bots={"1": "calling-station"}, action_time=10, time_bank=5)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    table.step()
    now[0] = 12.0
    assert ann.answer()
    assert table.clock.bank(0) == pytest.approx(3.0)


def test_a_dropped_connection_resumes_its_seat_with_its_token() -> None:
    table = host(**NT, bots={"2": "calling-station"})
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    token = ann.of("seated")[0]["token"]
    table.step()
    mine = next(s for s in ann.last["table"]["seats"] if s["seat"] == 0)["hole"]
    table.disconnect(ann.client)
    again = Recorder(table)
    assert again.last["you"] is None
    again.send({"type": "resume", "token": token})
    assert again.of("seated")[0] == {"type": "seated", "seat": 0, "token": token, "seq": table.seq}
    full = again.last
    assert full["full"] and full["you"] == 0
    assert next(s for s in full["table"]["seats"] if s["seat"] == 0)["hole"] == mine
    assert any(e["kind"] == "hand started" for e in full["events"])
    assert again.answer() or table.game.to_act != 0
    assert token not in json.dumps(table.describe()) and token not in json.dumps(again.views)


def test_a_second_connection_with_the_token_takes_the_seat_over() -> None:
    table = host(**NT)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100})
    token = ann.of("seated")[0]["token"]
    other = Recorder(table)
    other.send({"type": "resume", "token": token})
    assert ann.client.seat is None and ann.of("error")[-1]["code"] == "bad_token"
    assert other.client.seat == 0


def test_leaving_cashes_out_and_ends_the_token() -> None:
    table = host(**NT)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100})
    token = ann.of("seated")[0]["token"]
    ann.send({"type": "top_up", "amount": 50})
    ann.send({"type": "leave"})
    assert ann.of("left")[-1] == {"type": "left", "seat": 0, "stack": 150, "pending": False, "name": "ann",
                                  "seq": table.seq}
    with pytest.raises(MessageError) as refused:
        Recorder(table).send({"type": "resume", "token": token})
    assert refused.value.code == "bad_token"


def test_a_broke_bot_buys_in_again_after_the_hand() -> None:
    table = host(**{**NT, "seats": 2}, bots={"1": "all-in"}, bot_buy_in=40)
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 200, "seat": 0})
    play([ann], table, 12)
    rebuys = [e for e in watcher.events() if e["kind"] == "chips added"]
    assert rebuys and all(e["event"] == {"type": "ChipsAdded", "seat": 1, "amount": 40, "stack": 40} for e in rebuys)
    assert conserved(watcher) > 10


def _variant_ids() -> list[str]:
    return [v.code or v.name for v in variants.available()]


@pytest.mark.parametrize("code", _variant_ids())
def test_every_variant_plays_at_a_table_with_a_person_and_bots(code: str) -> None:
    variant = variants.get(code)
    seats = min(3, variant.max_players)
    bots = {str(s): "random" for s in range(1, seats)}
    table = host(variant=code, seats=seats, bots=bots, min_buy_in=40, max_buy_in=200)
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    play([ann], table, 3)
    kinds = {v["question"]["kind"] for v in ann.views if v["question"]}
    assert "act" in kinds or "draw" in kinds
    if "draw" in variant.name or code in ("N2L1D", "F2L3D", "FB"):
        assert "draw" in kinds
    assert conserved(watcher) > 5
    if any(ann.last["table"]["stud"] for _ in [0]):
        ups = [c for v in watcher.views for s in v["table"]["seats"] for c, up in zip(s["hole"], s["up"], strict=False)
               if up]
        assert ups and all(c is not None for c in ups)  # a spectator sees the up cards
    for recorder in (ann, watcher):  # the text sent, made from shared parts, is compact JSON
        assert canonical(recorder)
    for recorder in (ann, watcher):  # every line the page shows is words: no Python None, no JSON null
        texts = [e["text"] for v in recorder.views for e in v["events"]]
        assert texts and not [t for t in texts if re.search(r"\b(None|null|undefined|NaN)\b", t)]


def test_run_it_twice_asks_the_players_at_the_table() -> None:
    table = host(variant="NT", params={"small_blind": 1, "big_blind": 2, "run_it_twice": True}, seats=2,
                 bots={"1": "all-in"}, min_buy_in=40, max_buy_in=200)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    play([ann], table, 4)
    assert any(v["question"]["kind"] == "runs" for v in ann.views if v["question"])


def test_logs_hold_no_token_and_no_card(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    caplog.set_level(logging.DEBUG, logger="cardgame.server")
    table = host(**NT, bots={"2": "calling-station"}, action_time=1, time_bank=0)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    token = ann.of("seated")[0]["token"]
    again = Recorder(table)
    again.send({"type": "resume", "token": token})
    play([again], table, 2)
    with pytest.raises(MessageError):
        ann.send({"type": "resume", "token": token + "x"})
    text = caplog.text
    assert "seat 0" in text and token not in text and token[:8] not in text
    cards = {c for e in again.events() if e["kind"] == "hole cards" for c in e["event"]["cards"] if c}
    assert cards and not any(c in text for c in cards)


def test_a_table_given_no_seed_shuffles_from_the_operating_system_and_shows_no_seed_to_the_lobby() -> None:
    """A seed is an operator's, for replay: a table given none shuffles every deck from the operating
    system's source (it has no seed anyone could know), and no client is shown a table's seed."""
    from cardgame.server.config import read_config
    from cardgame.server.host import TableHost

    tables = [TableHost("t", read_config({"variant": "NT"})) for _ in range(2)]
    assert [t.game.seed for t in tables] == [None, None]
    assert tables[0]._next_deal is not None and tables[1]._next_deal is not None
    assert tables[0]._next_deal[0].deck != tables[1]._next_deal[0].deck
    chosen = TableHost("t", read_config({"variant": "NT", "seed": 5}))
    for table in (*tables, chosen):
        assert "seed" not in table.describe()["config"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300),
                 st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                              lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                                  st.sampled_from(["type", "action", "seq", "amount", "name", "buy_in", "seat",
                                                   "token", "discards", "count", "x"]), inner, max_size=5),
                              max_leaves=12).map(json.dumps)))
def test_any_bytes_are_a_message_or_a_message_error(data: str | bytes) -> None:
    from cardgame.server.messages import read_message

    try:
        read_message(data)
    except MessageError as exc:
        assert exc.code in ("malformed", "too_large") and exc.message


def test_a_refused_seat_says_which_are_free_in_words() -> None:
    table = host(**NT, bots={"1": "calling-station"})
    ann, eve = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    with pytest.raises(MessageError) as taken:
        eve.send({"type": "sit", "name": "eve", "buy_in": 100, "seat": 1})
    assert taken.value.message == "Seat 1 is taken; free seats: 2."
    eve.send({"type": "sit", "name": "eve", "buy_in": 100, "seat": 2})
    with pytest.raises(MessageError) as full:
        Recorder(table).send({"type": "sit", "name": "zed", "buy_in": 100, "seat": 0})
    assert full.value.message == "Seat 0 is taken; free seats: none."


VIEWS_DATA = Path(__file__).resolve().parents[1] / "data" / "server" / "views.txt"


def protocol_texts() -> list[str]:
    """Every message three connections receive at a hold'em table (two people, a bot, a hand) and two
    at a seven-card stud one (a person, two bots, a hand), one text a line, the random parts (seat
    tokens, commitments and their salts) replaced by ``T`` and ``H``."""
    texts = []
    table = host(**NT, bots={"2": "calling-station"})
    recorders = list(two_people(table))
    play(recorders[:2], table, 1)
    stud = host(variant="F7S", seats=3, bots={"1": "random", "2": "random"}, min_buy_in=40, max_buy_in=200)
    ann, watcher = Recorder(stud), Recorder(stud)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    play([ann], stud, 1)
    for r in [*recorders, ann, watcher]:
        texts += [re.sub(r"[0-9a-f]{32,}", "H", re.sub(r'"token":"[^"]*"', '"token":"T"', t)) for t in r.texts]
    return texts


def test_views_carry_exactly_the_text_recorded_for_them() -> None:
    """Byte for byte what the clients were sent when the views were built as data and encoded (the
    recorded text was made then): the protocol does not move when the way the text is made does."""
    texts = protocol_texts()
    recorded = VIEWS_DATA.read_text(encoding="utf-8").splitlines()
    assert len(texts) == len(recorded) > 50
    for i, (text, old) in enumerate(zip(texts, recorded, strict=True)):
        assert text == old, (i, text, old)


def fresh_table(table: Any, seat: int | None) -> dict[str, Any]:
    """The view's ``table`` for ``seat`` made afresh from the game as it is now, with the library's own
    snapshot of it (:func:`~cardgame.play.view.table_view`), none of the server's shared parts."""
    game = table.game
    snap = table_view(game.ctx, seat, to_act=game.to_act)
    hand = game.hand
    connected = {c.seat for c in table.clients}
    return {
        "id": table.table_id, "name": table.config.name, "variant": table.variant_name, "hand": snap.hand,
        "street": snap.street, "pot": snap.pot,
        "pots": [{"amount": p.amount, "seats": list(p.eligible)} for p in snap.pots],
        "board": [str(c) for c in snap.board], "button": game.table.button, "to_act": game.to_act,
        "stud": any(table.shape.up_cards), "status": game.status_name,
        "seats": [{"seat": s.seat, "name": s.name, "stack": s.stack, "bet": s.bet, "in_pot": s.in_pot,
                   "hole": [None if c is None else str(c) for c in s.hole], "up": list(up), "in_hand": s.in_hand,
                   "folded": s.folded, "all_in": s.all_in, "sitting_out": s.sitting_out, "button": s.button,
                   "bot": s.seat in table.bots and s.seat not in table.tokens, "connected": s.seat in connected,
                   "bank": round(table.clock.bank(s.seat), 2)} for s, up in zip(snap.seats, snap.face_up, strict=True)],
        "commitment": table.commitments.get(hand.number) if hand is not None else None,
    }


class Checked(Recorder):
    """A connection that checks each view as it is delivered against one made afresh: the table from the
    game's own snapshot for this connection's seat, each event as this seat sees it (encoded anew), the
    question only for the seat to act."""

    checked = 0

    def _receive(self, message: dict[str, Any]) -> None:
        super()._receive(message)
        view = self.messages[-1]
        if view["type"] != "view":
            return
        seat, host = self.client.seat, self.host
        assert view["you"] == seat
        assert view["table"] == fresh_table(host, seat), (seat, view["table"])
        numbered = dict([*host.hand_log, *host.pending])
        for item in view["events"]:
            assert item["event"] == encode_event(numbered[item["seq"]].seen_by(seat)), (seat, item)
        assert (view["question"] is not None) == (seat is not None and seat == host.game.to_act)
        Checked.checked += 1


@pytest.mark.parametrize("variant", ["NT", "F7S"])
def test_every_view_each_connection_gets_is_the_one_made_afresh_for_its_seat(variant: str) -> None:
    """The views of a batch share their parts (the events, the table as a spectator sees it) and only a
    seat's own row is its own: two seats and a spectator (and a spectator who comes mid-hand), each view
    checked against the view made afresh, in hold'em and in stud (up cards)."""
    config = NT if variant == "NT" else {"variant": variant, "seats": 3, "min_buy_in": 40, "max_buy_in": 200}
    table = host(**config, bots={"2": "calling-station"})
    Checked.checked = 0
    ann, bob, watcher = Checked(table), Checked(table), Checked(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 100, "seat": 0})
    bob.send({"type": "sit", "name": "bob", "buy_in": 100, "seat": 1})
    play([ann, bob], table, 2)
    late = Checked(table)
    play([ann, bob], table, 4)
    assert late.views and Checked.checked > 100
    dealt = [e for e in watcher.events() if e["kind"] == "hole cards"]
    assert dealt and all(c is None or up for e in dealt for c, up in zip(e["event"]["cards"], e["event"]["face_up"]
                                                                          or [False] * 9, strict=False))


ACT_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-10**20, max_value=10**20),
                       st.floats(allow_nan=False), st.sampled_from(["call", "raise", "shove", "", "5"]),
                       st.lists(st.integers(), max_size=2))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["action", "seq", "amount", "x"]), ACT_VALUES, max_size=4))
@example({"action": "call", "seq": True})
@example({"action": "raise", "seq": 3, "amount": False})
@example({"action": "raise", "seq": 3, "amount": 10**18})
@example({"action": "raise", "seq": 3, "amount": 10**18 - 1})
@example({"action": "raise", "seq": -10**18, "amount": 4})
@example({"action": "raise", "seq": 3, "amount": 4.0})
@example({"action": "call", "seq": 3, "x": 1})
@example({"action": "fold", "seq": 3, "amount": None})
@example({"action": "teleport", "seq": 3})
@example({"seq": 3})
def test_an_act_message_is_read_as_the_checked_structure_reads_it(fields: dict[str, Any]) -> None:
    """``act`` messages (the most common) are built at once when well formed: every one is the message, or
    the refusal, that checking it field by field (as every other message is) gives."""
    from cardgame.server.messages import ACTIONS, Act, read_message
    from cardgame.store.serialize import SnapshotError, structure

    try:
        expected: Any = structure(fields, Act, "act") if set(fields) <= {"action", "seq", "amount"} else None
        if expected is not None and expected.action not in ACTIONS:
            expected = None
    except SnapshotError:
        expected = None
    text = json.dumps({"type": "act", **fields})
    if expected is None:
        with pytest.raises(MessageError):
            read_message(text)
    else:
        got = read_message(text)
        assert type(got) is Act and got == expected
        assert [type(v) for v in attrs.astuple(got)] == [type(v) for v in attrs.astuple(expected)]
