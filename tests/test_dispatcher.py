"""The kernel's dispatcher on toy stages that know no poker: result passing, goto, push, restart, exit,
error, bad input, fit. The stages return their outcomes (OpenPoker's contract) or record them from a
machine callback; the context is a plain event list."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from cardgame.engine import (
    ConfigError,
    Dispatcher,
    Done,
    Event,
    Exit,
    Goto,
    IllegalActionError,
    Outcome,
    PassOn,
    Push,
    Restart,
    Stage,
    StageError,
    StageFailed,
)


class Context:
    """The least a kernel context is: somewhere to emit events."""

    def __init__(self) -> None:
        self.log: list[Event] = []

    def emit(self, event: Event) -> None:
        self.log.append(event)


class Record(Stage[Context]):
    """Finishes with ``previous + [tag]`` when poked, or at once with ``instant``."""

    name: ClassVar[str] = "record"
    states: ClassVar[list[str]] = ["ready", "waiting", "recorded", "poked"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "recorded", "prepare": "remember", "conditions": "is_instant"},
        {"trigger": "begin", "source": "ready", "dest": "waiting"},
        {"trigger": "poke", "source": "waiting", "dest": "poked"},
    ]
    ends: ClassVar[dict[str, str]] = {"recorded": "hand_on", "poked": "poked"}
    events: ClassVar[tuple[str, ...]] = ("poke", "boom", "end_game", "again", "illegal", "sub", "jump")
    __slots__ = ("got", "instant", "tag")

    def __init__(self, tag: str, instant: bool = False) -> None:
        super().__init__()
        self.tag = tag
        self.instant = instant
        self.got: Any = "unset"

    def remember(self) -> None:
        self.got = self.previous

    def is_instant(self) -> bool:
        return self.instant

    def hand_on(self) -> Outcome:
        return Done([*(self.previous or []), self.tag])

    def poked(self) -> Outcome:
        return Done([*(self.got or []), self.tag])

    def on_poke(self) -> None:
        self.trigger("poke")

    def on_boom(self) -> None:
        raise RuntimeError("kaboom")

    def on_end_game(self) -> Outcome:
        return Exit()

    def on_again(self) -> Outcome:
        return Restart()

    def on_illegal(self) -> None:
        raise IllegalActionError("not now", rule="test")

    def on_sub(self) -> Outcome:
        return Push(Record(self.tag + "-sub"), ["from-parent"])

    def on_jump(self, target: str) -> Outcome:
        return Goto(target, [*(self.got or []), self.tag])

    def on_substage_result(self, result: Any) -> None:
        self.got = result


def test_results_flow_to_the_next_stage_and_instant_stages_chain() -> None:
    a, b, c, d = Record("a"), Record("b", instant=True), Record("c"), Record("d")
    disp = Dispatcher([a, b, c, d], Context())
    disp.start()
    assert disp.current is a and disp.state == "waiting"
    assert disp.remaining == (b, c, d)
    disp.send("poke")
    assert a.outcome == Done(["a"])
    assert disp.current is c and c.got == ["a", "b"]
    assert b.state == "recorded" and b.outcome == Done(["a", "b"])
    disp.send("poke")
    assert d.got == ["a", "b", "c"]


class Deal(Stage[Context]):
    """The base machine: ends at once handing on what it was given (``PassOn``)."""

    name: ClassVar[str] = "deal"
    __slots__ = ()


class PushDeal(Record):
    """Pushes a :class:`Deal`, which gives back what it was given."""

    __slots__ = ()

    def on_sub(self) -> Outcome:
        return Push(Deal(), ["from-parent"])


def test_a_stage_that_passes_on_hands_the_next_the_very_result_it_was_given() -> None:
    a, deal, b = Record("a"), Deal(), PushDeal("b")
    disp = Dispatcher([a, deal, b], Context())
    disp.start()
    disp.send("poke")
    assert deal.outcome == PassOn() and b.previous is deal.previous and deal.previous == ["a"] and disp.current is b
    disp.send("sub")  # as a sub-stage, it gives the stage that pushed it what that stage gave it
    assert disp.current is b and b.got == ["from-parent"]


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
    disp.send("sub")
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


class Target(Record):
    name: ClassVar[str] = "target"


def test_goto_passes_over_the_stages_before_the_named_one() -> None:
    a, b, c = Record("a"), Record("b"), Target("c")
    disp = Dispatcher([a, b, c, Record("d")], Context())
    disp.start()
    disp.send("jump", "target")
    assert disp.current is c and c.got == ["a"] and b.state == "ready"


def test_goto_a_stage_that_does_not_follow_is_an_error() -> None:
    disp = Dispatcher([Record("a"), Record("b")], Context())
    disp.start()
    with pytest.raises(StageError, match="no later stage is called 'nowhere'"):
        disp.send("jump", "nowhere")
    assert disp.status == "failed"


class Opens(Record):
    gives: ClassVar[tuple[type, ...]] = (int,)


class TakesText(Record):
    takes: ClassVar[tuple[type, ...]] = (str,)


class GoesToShowdown(Record):
    goes_to: ClassVar[tuple[str, ...]] = ("showdown",)


def test_stages_that_do_not_fit_are_refused_naming_the_pair() -> None:
    from cardgame.engine import ConfigError

    with pytest.raises(ConfigError, match=r"Stage 2 \(record\) does not fit .* stage 1 \(record\) gives int, but "
                                          r"record takes str"):
        Dispatcher([Record("a"), Opens("b"), TakesText("c")], Context())
    with pytest.raises(ConfigError, match="may go to a later stage 'showdown', but none follows it"):
        Dispatcher([GoesToShowdown("a"), Record("b")], Context())
    Dispatcher([Opens("a"), Record("passes it on"), Record("b")], Context())  # object takes anything


def test_a_variant_whose_stages_do_not_fit_is_refused_at_build_time() -> None:
    from cardgame.model.betting import NoLimit
    from cardgame.model.errors import ConfigError
    from cardgame.play.game import Game
    from cardgame.stages import BettingRound, EndHand, Showdown, WaitForPlayers

    with pytest.raises(ConfigError, match=r"end of hand\) does not fit .* gives BettingResult, but end of hand "
                                          "takes ShowdownResult"):
        Game([WaitForPlayers(), BettingRound(NoLimit(2)), EndHand(), Showdown()])


class Water:
    """A toy game's summary for the build-time check: litres in the tank, and whether it was drained."""

    def __init__(self, litres: int, drained: bool = False) -> None:
        self.litres, self.drained = litres, drained

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Water) and (self.litres, self.drained) == (other.litres, other.drained)

    def __hash__(self) -> int:
        return hash((self.litres, self.drained))

    def unfinished(self) -> str | None:
        return None if self.drained else f"{self.litres} litres are never drained"


class Fill(Record):
    """Declares what it needs and leaves: the tank holds ``tank`` litres (the context's), each fill adds ``litres``."""

    name: ClassVar[str] = "fill"
    goes_to: ClassVar[tuple[str, ...]] = ()
    checked: ClassVar[list[int]] = []

    def __init__(self, litres: int, *, skip_to: str | None = None) -> None:
        super().__init__("fill")
        self.litres = litres
        self.skip_to = skip_to

    def fit_start(self, ctx: Any) -> Any:
        return Water(0)

    def fit(self, before: Any) -> Any:
        Fill.checked.append(self.litres)
        if before.litres + self.litres > 10:
            raise ConfigError(f"it adds {self.litres} litres to {before.litres}; the tank holds 10")
        return Water(before.litres + self.litres)

    def fit_key(self) -> Any:
        return self.litres


class SkipToDrain(Fill):
    """May skip to the drain, bringing nothing: its goto leaves the tank empty."""

    goes_to: ClassVar[tuple[str, ...]] = ("drain",)

    def fit_goto(self, before: Any) -> Any:
        return Water(0)


class Drain(Record):
    name: ClassVar[str] = "drain"

    def fit(self, before: Any) -> Any:
        if before.litres == 0:
            raise ConfigError("nothing to drain: fill the tank before it")
        return Water(0, drained=True)


def test_stages_declare_what_they_need_and_a_list_that_cannot_play_is_refused() -> None:
    Dispatcher([Fill(4), Fill(6), Drain("d")], Context())
    with pytest.raises(ConfigError, match=r"Stage 1 \(fill\) cannot play where it stands: it adds 7 litres to 4; the "
                                          r"tank holds 10"):
        Dispatcher([Fill(4), Fill(7), Drain("d")], Context())
    with pytest.raises(ConfigError, match=r"ends after stage 1 \(fill\), but 7 litres are never drained"):
        Dispatcher([Fill(3), Fill(4)], Context())
    # every path is checked: the goto brings an empty tank to the drain
    with pytest.raises(ConfigError, match=r"Stage 2 \(drain\) cannot play where it stands: nothing to drain"):
        Dispatcher([Fill(3), SkipToDrain(2), Drain("d")], Context())
    # a stage that declares nothing leaves nothing to check against
    Dispatcher([Fill(3), Record("declares nothing")], Context())


def test_a_list_known_to_fit_is_not_checked_again_unless_its_declarations_differ() -> None:
    Fill.checked.clear()
    Dispatcher([Fill(1), Fill(2), Drain("d")], Context())
    Dispatcher([Fill(1), Fill(2), Drain("d")], Context())
    assert Fill.checked == [1, 2]  # checked once
    with pytest.raises(ConfigError, match="it adds 10 litres to 1"):  # the same classes and names, other settings
        Dispatcher([Fill(1), Fill(10), Drain("d")], Context())


def test_a_failure_is_emitted_as_an_event_and_stops_the_game() -> None:
    ctx = Context()
    disp = Dispatcher([Record("a"), Record("b")], ctx)
    disp.start()
    with pytest.raises(StageError):
        disp.send("boom")
    assert ctx.log == [StageFailed("record", "RuntimeError: kaboom")]


class Ticks(Record):
    """Returns something that is not an outcome."""

    def on_poke(self) -> Any:
        return 1


def test_a_value_that_is_not_an_outcome_stops_the_game() -> None:
    disp = Dispatcher([Ticks("a"), Record("b")], Context())
    disp.start()
    with pytest.raises(StageError, match="unknown outcome 1"):
        disp.send("poke")


def test_a_stage_ends_by_the_final_state_it_reaches() -> None:
    s = Record("a")
    assert s.start(Context(), None) is None and s.state == "waiting" and s.outcome is None and not s.ended
    assert s.handle("poke") == Done(["a"]) and s.state == "poked" and s.ended and s.outcome == Done(["a"])
    with pytest.raises(StageError, match="already ended"):
        s.handle("poke")


class ReturnsAnOutcome(Record):
    """A handler that returns an outcome itself, not reaching a final state: what it returned is followed."""

    def on_poke(self) -> Outcome | None:
        return Done(["returned"])


def test_a_handler_may_return_an_outcome_itself() -> None:
    s = ReturnsAnOutcome("a")
    s.start(Context(), None)
    assert s.handle("poke") == Done(["returned"]) and s.state == "waiting" and s.outcome is None
    b = Record("b")
    disp = Dispatcher([ReturnsAnOutcome("a"), b], Context())
    disp.start()
    disp.send("poke")
    assert disp.current is b and b.got == ["returned"] and b.previous == ["returned"]
