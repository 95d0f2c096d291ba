"""Show or muck at a server table (``params={"show_or_muck": true}``): the question a player is asked, the
``show``, ``muck`` and ``ask_to_see`` messages, and a time-out at the showdown (a losing hand mucked, a
winning one shown), which used to crash the table (``_time_out`` and the view expected a betting question)."""

from __future__ import annotations

from typing import Any

import pytest

from cardgame.model.errors import ConfigError
from cardgame.server.config import read_config
from cardgame.server.errors import MessageError
from cardgame.server.messages import AskToSee, Show, read_message
from tests.server.helpers import Recorder, conserved, host

SHOWN = {"variant": "NT", "params": {"small_blind": 1, "big_blind": 2, "show_or_muck": True, "ask_to_see": True},
         "seats": 2, "min_buy_in": 40, "max_buy_in": 400, "bots": {"1": "calling-station"}}


def call_down(ann: Recorder, table: Any) -> dict[str, Any] | None:
    """Step the table, checking or calling for ann, until ann is asked to show or muck (that question's view)
    or 60 steps pass."""
    for _ in range(60):
        table.step()
        q = ann.last["question"]
        if q is None:
            continue
        if q["kind"] == "show":
            return ann.last
        ann.answer()
    return None


def test_a_player_is_asked_to_show_or_muck_and_the_table_takes_each_answer() -> None:
    table = host(**SHOWN)
    ann, watcher = Recorder(table), Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 400, "seat": 0})
    answered: set[str] = set()
    for _ in range(40):
        view = call_down(ann, table)
        assert view is not None, "no showdown question came"
        q = view["question"]
        assert q["seat"] == 0 and set(q) == {"kind", "seat", "wins", "awarded", "default", "ask"}
        assert q["default"] == ("show" if q["wins"] and not q["awarded"] else "muck")
        answer = "muck" if "show" in answered and not q["awarded"] else "show"
        hand = view["table"]["hand"]
        ann.send({"type": answer, "seq": view["seq"]})
        if not q["awarded"]:
            kind = "shown" if answer == "show" else "mucked"
            assert [e for e in ann.events() if e["kind"] == kind and e["event"]["seat"] == 0
                    and e["seq"] > view["seq"]], (answer, hand)
            answered.add(answer)
        if answered == {"show", "muck"}:
            break
    assert answered == {"show", "muck"}
    assert conserved(watcher) > 5


def test_a_time_out_at_the_showdown_mucks_a_losing_hand_and_shows_a_winning_one() -> None:
    """TDA: a player who does not act in time has a dead hand (a loser is mucked); Robert's Rules, showdown 1:
    a hand must be shown to win, so a winning hand is shown for the player (ShowOptions.default)."""
    now = [0.0]
    table = host(now, **{**SHOWN, "params": {"small_blind": 1, "big_blind": 2, "show_or_muck": True}},
                 action_time=5, time_bank=0, max_misses=100)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 400, "seat": 0})
    seen: dict[str, int] = {}
    for _ in range(60):
        view = call_down(ann, table)
        assert view is not None
        q = view["question"]
        now[0] += 5.01
        table.step()  # ann runs out of time
        after = [e for e in ann.events() if e["seq"] > view["seq"] and e["event"].get("seat") == 0]
        if q["awarded"]:  # the courtesy show is declined: nothing said of the hand
            assert not [e for e in after if e["kind"] in ("shown", "mucked")]
            continue
        kind = "shown" if q["default"] == "show" else "mucked"
        assert after and after[0]["kind"] == kind, (q, after[:2])
        seen[kind] = seen.get(kind, 0) + 1
        if len(seen) == 2:
            break
    assert set(seen) == {"shown", "mucked"}
    assert table.game.status_name == "running"


def test_asking_to_see_goes_through_the_rules() -> None:
    table = host(**SHOWN)
    ann = Recorder(table)
    ann.send({"type": "sit", "name": "ann", "buy_in": 400, "seat": 0})
    view = call_down(ann, table)
    assert view is not None
    if not view["question"]["ask"]:  # nothing mucked to see yet: refused, the table unchanged
        before = table.seq
        with pytest.raises(MessageError) as refused:
            ann.send({"type": "ask_to_see", "seq": view["seq"]})
        assert refused.value.code == "illegal" and table.seq == before


@pytest.mark.parametrize("text", ['{"type": "show"}', '{"type": "show", "seq": "1"}', '{"type": "ask_to_see"}',
                                  '{"type": "show", "seq": 1, "seat": 1}'])
def test_bad_show_messages_are_refused(text: str) -> None:
    with pytest.raises(MessageError) as refused:
        read_message(text)
    assert refused.value.code == "malformed" and len(str(refused.value)) <= 700
    assert read_message('{"type": "show", "seq": 3}') == Show(3)
    assert read_message('{"type": "ask_to_see", "seq": 3}') == AskToSee(3)


def test_a_table_takes_the_option_as_true_or_false_only() -> None:
    assert read_config(SHOWN).params["show_or_muck"] is True
    for bad in ("yes", 1, None):
        with pytest.raises(ConfigError):
            read_config({**SHOWN, "params": {"show_or_muck": bad}})
    with pytest.raises(ConfigError, match="ask_to_see needs show_or_muck"):
        read_config({**SHOWN, "params": {"ask_to_see": True}})
    for code in ("F7S", "FB", "NS"):  # every family's tables take it
        assert read_config({"variant": code, "params": {"show_or_muck": True}}).params == {"show_or_muck": True}
