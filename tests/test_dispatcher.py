"""The dispatcher on toy stages: result passing, restart, exit, error, sub-stages, bad input."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from cardgame.context import Context
from cardgame.dispatcher import Dispatcher
from cardgame.errors import IllegalActionError, StageError
from cardgame.stage import Stage


class Record(Stage):
    """Finishes with ``previous + [tag]`` when poked, or at once with ``instant``."""

    name: ClassVar[str] = "record"
    states: ClassVar[list[str]] = ["ready", "running", "waiting", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        *Stage.transitions,
        {"trigger": "wait", "source": "running", "dest": "waiting"},
    ]
    events: ClassVar[tuple[str, ...]] = ("poke", "boom", "end_game", "again", "illegal", "sub")
    __slots__ = ("got", "instant", "tag")

    def __init__(self, tag: str, instant: bool = False) -> None:
        super().__init__()
        self.tag = tag
        self.instant = instant
        self.got: Any = "unset"

    def on_start(self, previous: Any) -> None:
        self.got = previous
        if self.instant:
            self.finish([*(previous or []), self.tag])
        else:
            self.trigger("wait")

    def on_poke(self) -> str:
        self.finish([*(self.got or []), self.tag])
        return self.tag

    def on_boom(self) -> None:
        raise RuntimeError("kaboom")

    def on_end_game(self) -> None:
        self.exit()

    def on_again(self) -> None:
        self.restart()

    def on_illegal(self) -> None:
        raise IllegalActionError("not now", rule="test")

    def on_sub(self, dispatcher: Dispatcher) -> None:
        dispatcher.push(Record(self.tag + "-sub"), ["from-parent"])

    def on_substage_result(self, result: Any) -> None:
        self.got = result


def test_results_flow_to_the_next_stage_and_instant_stages_chain() -> None:
    a, b, c, d = Record("a"), Record("b", instant=True), Record("c"), Record("d")
    disp = Dispatcher([a, b, c, d], Context())
    disp.start()
    assert disp.current is a and disp.state == "waiting"
    assert disp.remaining == (b, c, d)
    assert disp.send("poke") == "a"
    assert disp.current is c and c.got == ["a", "b"]
    assert b.state == "done"
    disp.send("poke")
    assert d.got == ["a", "b", "c"]


def test_restart_resets_the_stack_with_no_result() -> None:
    a, b = Record("a"), Record("b")
    disp = Dispatcher([a, b], Context())
    disp.start()
    disp.send("poke")
    disp.send("again")
    assert disp.current is a and a.got is None and disp.remaining == (b,)
    assert disp.status == "running"


def test_exit_stops_cleanly_and_refuses_more_events() -> None:
    disp = Dispatcher([Record("a"), Record("b")], Context())
    disp.start()
    disp.send("end_game")
    assert disp.status == "exited"
    with pytest.raises(StageError, match="exited"):
        disp.send("poke")


def test_unexpected_exception_is_an_error_end_that_keeps_state() -> None:
    a, b = Record("a"), Record("b")
    disp = Dispatcher([a, b], Context())
    disp.start()
    with pytest.raises(StageError, match="record failed in state 'waiting': RuntimeError: kaboom"):
        disp.send("boom")
    assert disp.status == "failed"
    assert disp.current is a and a.state == "waiting"
    assert disp.failure is not None and disp.failure.stage == "record"
    with pytest.raises(StageError, match="kaboom"):
        disp.send("poke")


def test_finishing_the_last_stage_without_restart_is_an_error() -> None:
    disp = Dispatcher([Record("a")], Context())
    disp.start()
    with pytest.raises(StageError, match="no stage follows"):
        disp.send("poke")


def test_illegal_input_propagates_and_changes_nothing() -> None:
    a = Record("a")
    disp = Dispatcher([a, Record("b")], Context())
    disp.start()
    with pytest.raises(IllegalActionError):
        disp.send("illegal")
    with pytest.raises(IllegalActionError, match="does not take 'fly'; it takes poke"):
        disp.send("fly")
    assert disp.status == "running" and disp.current is a and a.state == "waiting"


def test_sub_stage_result_returns_to_the_stage_below() -> None:
    a, b = Record("a"), Record("b")
    disp = Dispatcher([a, b], Context())
    disp.start()
    disp.send("sub", disp)
    sub = disp.current
    assert sub is not a and sub is not None and sub.got == ["from-parent"]
    disp.send("poke")
    assert disp.current is a and a.got == ["from-parent", "a-sub"]
    assert a.state == "waiting"
    disp.send("poke")
    assert disp.current is b


def test_machine_is_built_once_per_class_not_per_instance() -> None:
    x, y = Record("x"), Record("y")
    assert type(x).machine is type(y).machine
    assert Record.machine.models == []  # stages are never added to the machine as models


def test_stage_objects_compare_by_identity() -> None:
    assert Record("a") != Record("a")


def test_bad_stage_lists_are_rejected() -> None:
    with pytest.raises(StageError):
        Dispatcher([], Context())
    s = Record("a")
    with pytest.raises(StageError, match="twice"):
        Dispatcher([s, s], Context())
    with pytest.raises(StageError, match="not a Stage"):
        Dispatcher(["wait"], Context())  # type: ignore[list-item]


def test_fast_trigger_table_agrees_with_the_machine_for_every_stage_class() -> None:
    from transitions import Machine, MachineError

    from cardgame.stages import BettingRound, DealBoard, DealHole, ForcedBets, Showdown, WaitForPlayers

    for cls in (Record, BettingRound, DealBoard, DealHole, ForcedBets, Showdown, WaitForPlayers):
        machine: Machine = cls.machine
        for state in machine.states:
            for event in machine.events:
                class Model:
                    pass

                slow = Model()
                slow.state = state  # type: ignore[attr-defined]
                try:
                    machine.events[event].trigger(slow)
                    expected: str | None = slow.state  # type: ignore[attr-defined]
                except MachineError:
                    expected = None
                assert cls._direct.get((state, event)) == expected, (cls.__name__, state, event)


def test_transitions_with_callbacks_go_through_the_machine() -> None:
    class Counted(Stage):
        name: ClassVar[str] = "counted"
        states: ClassVar[list[Any]] = ["ready", {"name": "running", "on_enter": "entered"}, "done"]
        __slots__ = ("count",)

        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def entered(self) -> None:
            self.count += 1

    s = Counted()
    assert ("ready", "begin") not in Counted._direct
    s.start(Context(), None)
    assert s.count == 1 and s.state == "running"



class Dealing(Record):
    """A stage with nothing to do once the hand is won (as dealing and betting have)."""

    skip_when_won: ClassVar[bool] = True


@pytest.mark.parametrize("folded", [1, 2])
def test_a_won_hand_passes_over_the_stages_marked_skip_when_won(folded: int) -> None:
    from tests.helpers import make_context

    ctx = make_context([100, 100, 100])
    assert ctx.hand is not None
    for hp in ctx.hand.players[:folded]:
        hp.folded = True
    first, deal, bet, last = Record("a", True), Dealing("d", True), Dealing("b", True), Record("z")
    Dispatcher([first, deal, bet, last], ctx).start()
    if folded == 1:  # two players live: every stage runs
        assert (deal.got, bet.got, last.got) == (["a"], ["a", "d"], ["a", "d", "b"])
    else:  # won: the marked stages never start; the next one gets the result they would have passed on
        assert (deal.got, bet.got, last.got) == ("unset", "unset", ["a"])
        assert deal.state == bet.state == "ready"


def test_a_skippable_last_stage_still_runs() -> None:
    from tests.helpers import make_context

    ctx = make_context([100, 100])
    assert ctx.hand is not None
    ctx.hand.players[0].folded = True
    last = Dealing("d")
    Dispatcher([Record("a", True), last], ctx).start()
    assert last.got == ["a"] and last.state == "waiting"
