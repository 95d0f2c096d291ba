"""The compiled machine against ``transitions``: every stage class, random inputs, the same states, calls and results.

For each stage class ``C`` a recording subclass replaces every callback and condition its machine names with
methods that only log their name and arguments (and each ending of ``ends`` and ``pushes`` with one naming itself);
conditions return values drawn from a seeded ``random.Random`` (not only ``True`` and ``False``: the rule is ``==``).
Triggers carry random arguments, which every callback and condition must be handed. Callbacks now and then raise,
or fire a nested trigger (as a betting round's ``act`` fires ``acted``). Two models with the same seed then
take the same random trigger sequences from every state: one through ``transitions`` itself
(``C.machine.events[trigger].trigger``), one through :func:`cardgame.engine.machine.fire` on the recording
class's table;
after each trigger the result (or exception), the state, the call log and what the state gives must agree.

Two things ``transitions`` does that the table does not, the machine-wide ``on_final`` callback and a
state's ``ignore_invalid_triggers`` (``transitions`` returns ``False`` where :func:`fire` raises
``MachineError``), are refused by :func:`compile_machine` when a class is defined.

The diagram tests draw each stage's machine with ``transitions``' mermaid engine (no graphviz needed).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from transitions import Machine

import cardgame
import cardgame.stages
from cardgame.engine import ConfigError, Done, Stage
from cardgame.engine.machine import compile_machine, fire
from cardgame.engine.verify import SEQUENCES, check_fire, check_machine, check_may, check_recording_table, check_start

# --- which classes -----------------------------------------------------------------------------------------------


def _walk(cls: type[Stage]) -> Iterator[type[Stage]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _walk(sub)


def stage_classes() -> list[type[Stage]]:
    """Every subclass of :class:`Stage` defined in ``cardgame`` (``cardgame.stages`` and any other module)."""
    for info in pkgutil.walk_packages(cardgame.__path__, "cardgame."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found = {cls for cls in _walk(Stage) if cls.__module__.split(".")[0] == "cardgame"}
    return sorted(found, key=lambda cls: (cls.__module__, cls.__qualname__))


class _Base(Stage):
    """The base machine as it is (``begin`` after ``on_start``, ``end`` from anywhere)."""

    name: ClassVar[str] = "base"
    __slots__ = ()


class _Synthetic(Stage):
    """What the stages do not use yet: ``on_enter``/``on_exit``, reflexive (``=``) and internal transitions, several
    sources, a wildcard source before a specific one, several conditions and ``unless`` together."""

    name: ClassVar[str] = "synthetic"
    states: ClassVar[list[Any]] = [
        {"name": "ready", "on_exit": "leave_ready"},
        {"name": "a", "on_enter": ["enter_a", "enter_a_again"], "on_exit": "leave_a"},
        {"name": "b", "on_enter": "enter_b"},
        {"name": "done", "on_enter": "enter_done", "on_exit": ["leave_done"]},
    ]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "a", "prepare": ["p1", "p2"], "conditions": ["c1", "c2"],
         "unless": "u1", "before": "b1", "after": ["a1", "a2"]},
        {"trigger": "begin", "source": "ready", "dest": "b", "unless": ["c1", "u1"], "before": ["b1", "b2"]},
        {"trigger": "go", "source": ["a", "b"], "dest": "=", "conditions": "c2", "before": "b1", "after": "a2"},
        {"trigger": "go", "source": "a", "dest": None, "prepare": "p2", "after": "a1"},
        {"trigger": "hop", "source": "*", "dest": "b", "prepare": "p1", "conditions": "c3"},
        {"trigger": "hop", "source": "b", "dest": "a", "unless": "c3"},
        {"trigger": "end", "source": "*", "dest": "done", "before": "b2"},
    ]
    __slots__ = ()

    def _nothing(self) -> None:
        pass

    def _no(self) -> bool:
        return False

    leave_ready = enter_a = enter_a_again = leave_a = enter_b = enter_done = leave_done = _nothing
    p1 = p2 = b1 = b2 = a1 = a2 = _nothing
    c1 = c2 = c3 = u1 = _no


CLASSES = [*stage_classes(), _Base, _Synthetic]
EXPECTED = {"WaitForPlayers", "ForcedBets", "DealHole", "DealBoard", "BringIn", "BettingRound", "Draw", "Showdown",
            "EndHand"}


def test_every_stage_class_is_found() -> None:
    assert {cls.__name__ for cls in CLASSES} >= EXPECTED


# --- the recording subclass --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_recording_table_calls_the_recording_methods(cls: type[Stage]) -> None:
    """The recording class's table has the class's shape and calls the recording methods."""
    check_recording_table(cls)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_fire_agrees_with_transitions(cls: type[Stage]) -> None:
    check_fire(cls, SEQUENCES)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_generated_start_agrees_with_transitions(cls: type[Stage]) -> None:
    check_start(cls, SEQUENCES)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_may_agrees_with_transitions(cls: type[Stage]) -> None:
    """``Stage.may`` answers as ``transitions``' ``may_<trigger>``; ``refusal`` stops at the first failing rule."""
    check_may(cls, SEQUENCES)


def test_a_may_that_skips_prepare_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a ``may`` that asks the conditions without the ``prepare`` callbacks disagrees."""

    def hasty(self: Any, trigger: str, *args: Any) -> bool:
        steps = self.table.get((self.state, trigger))
        return bool(steps) and any(all(fn(self, *args) == w for fn, w in step.conditions) for step in steps)

    monkeypatch.setattr(Stage, "may", hasty)
    with pytest.raises(AssertionError):
        check_may(cardgame.stages.BettingRound, 100)


def test_a_broken_generated_trigger_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a generated function that skips the callbacks disagrees with ``transitions``."""
    import cardgame.engine.verify as verify

    real = verify.generate

    def skipping(table: Any) -> Any:
        return {key: (fn if isinstance(fn, str) else (lambda m, *a: True)) for key, fn in real(table).items()}

    monkeypatch.setattr(verify, "generate", skipping)
    with pytest.raises(AssertionError):
        check_fire(cardgame.stages.BettingRound, 50)


# --- final states: what each gives, checked when the class is made -----------------------------------------------


def _stage_class(states: list[Any], transitions: list[dict[str, Any]], **attributes: Any) -> type[Stage]:
    namespace: dict[str, Any] = {"name": "made", "states": states, "transitions": transitions, "__slots__": (),
                                 "result": lambda self: Done("result"), **attributes}
    return type("Made", (Stage,), namespace)


BEGIN = {"trigger": "begin", "source": "ready", "dest": "done"}


@pytest.mark.parametrize(("states", "transitions", "attributes", "match"), [
    (["ready", {"name": "done", "final": True}], [BEGIN], {}, "the final state 'done' gives no outcome; add it"),
    (["ready", "done"], [BEGIN, {"trigger": "again", "source": "done", "dest": "ready"}], {"ends": {"done": "result"}},
     "the final state 'done' has a transition leaving it \\('again'\\)"),
    (["ready", "done"], [BEGIN], {"ends": {"done": "nowhere"}}, "'nowhere', which is not a method"),
    (["ready", "done"], [BEGIN], {"ends": {"over": "result"}}, "names 'over', which is not one of its states"),
    (["ready", "done"], [BEGIN], {"ends": ["done"]}, "maps states to method names"),
    (["ready", "done"], [BEGIN], {"ends": {}, "pushes": {"done": "result"}},
     "the state 'done' pushes a sub-stage but no transition leaves it"),
    (["ready", "done"], [BEGIN], {"ends": {"done": "result"}, "pushes": {"done": "result"}},
     "'done' is both final \\(ends\\) and pushes"),
])
def test_a_final_state_without_its_outcome_is_refused_when_the_class_is_made(
        states: list[Any], transitions: list[dict[str, Any]], attributes: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        _stage_class(states, transitions, **attributes)


HOSTILE_ENDINGS: list[Any] = [None, 1, 10**5000, "done", b"done", ["done"], {"done": None}, {"done": 10**5000},
                               {"x" * 10**6: "result"}, {10**5000: "result"}, {"done": "x" * 10**6},
                               {"done": "states"}, {None: "result"}, {("done",): "result"}]


@pytest.mark.parametrize("attribute", ["ends", "pushes"])
@pytest.mark.parametrize("value", HOSTILE_ENDINGS, ids=lambda v: type(v).__name__)
def test_hostile_ends_and_pushes_are_refused_with_a_short_message(attribute: str, value: Any) -> None:
    with pytest.raises(ConfigError) as info:
        _stage_class(["ready", "done"], [BEGIN], **{attribute: value})
    assert len(str(info.value)) <= 700


def test_a_final_state_gives_its_outcome_through_start_handle_and_the_dispatcher() -> None:
    made = _stage_class(["ready", "waiting", {"name": "done", "final": True}],
                        [{"trigger": "begin", "source": "ready", "dest": "waiting"},
                         {"trigger": "go", "source": "waiting", "dest": "done"},
                         {"trigger": "stay", "source": "done", "dest": None}],  # an internal transition may stay
                        ends={"done": "result"}, events=("go",), on_go=lambda self: self.trigger("go") and None)
    check_machine(made, 30)
    stage = made()
    assert stage.start(None, None) is None and not stage.ended and stage.reached() is None
    assert stage.handle("go") == Done("result") and stage.ended and stage.outcome == Done("result")


def test_check_start_finds_a_start_that_does_not_return_the_final_state_s_outcome(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgame.engine.verify as verify

    made = _stage_class(["ready", "done"], [BEGIN], ends={"done": "result"})
    check_start(made, 10)
    rec = verify.recording(made)
    monkeypatch.setattr(rec, "start", _forgets(rec.start))
    with pytest.raises(AssertionError):
        check_start(made, 10)


def _forgets(start: Callable[..., Any]) -> Callable[..., Any]:
    def forgetful(m: Any, ctx: Any, previous: Any) -> None:
        start(m, ctx, previous)  # reaches the final state, but returns nothing

    forgetful.generated = True  # type: ignore[attr-defined]
    return forgetful


def test_a_start_of_the_class_s_own_is_kept() -> None:
    class Own(Stage):
        name: ClassVar[str] = "own"
        __slots__ = ()

        def start(self, ctx: Any, previous: Any) -> None:
            super().start(ctx, previous)

    class Below(Own):
        name: ClassVar[str] = "below"
        __slots__ = ()

    assert Own.__dict__["start"] is not None and not getattr(Own.start, "generated", False)
    assert Below.start is Own.start


def test_conditions_are_compared_with_equals() -> None:
    class Seen(Stage):
        name: ClassVar[str] = "seen"
        states: ClassVar[list[str]] = ["ready", "one", "zero", "done"]
        transitions: ClassVar[list[dict[str, Any]]] = [
            {"trigger": "begin", "source": "ready", "dest": "one", "conditions": "says"},
            {"trigger": "begin", "source": "ready", "dest": "zero", "unless": "says"},
            {"trigger": "end", "source": "*", "dest": "done"},
        ]
        __slots__ = ("value",)
        value: Any

        def says(self) -> Any:
            return self.value

    for value, state in ((1, "one"), (True, "one"), (0, "zero"), (False, "zero"), (None, "ready"), ("yes", "ready")):
        runs: list[Callable[[Seen], Any]] = [lambda s: Seen.machine.events["begin"].trigger(s),
                                             lambda s: fire(Seen.table, s, "begin")]
        for run in runs:
            stage = Seen()
            stage.value = value
            assert run(stage) is (state != "ready")
            assert stage.state == state, value


# --- what compile_machine refuses ---------------------------------------------------------------------------------


class _Owner:
    """Methods for hand-built machines."""

    not_a_method = 5

    def go(self) -> None:
        pass

    def ok(self) -> bool:
        return True

    @property
    def prop(self) -> bool:
        return True


def _machine(**kwargs: Any) -> Machine:
    transition = {"trigger": "t", "source": "a", "dest": "b", **kwargs.pop("transition", {})}
    return Machine(model=None, states=["a", "b"], transitions=[transition], initial="a", auto_transitions=False,
                   **kwargs)


def test_a_good_machine_compiles() -> None:
    table = compile_machine(_Owner, _machine(transition={"conditions": "ok", "after": "go"}))
    (step,) = table[("a", "t")]
    assert step.dest == "b" and step.conditions == ((_Owner.ok, True),) and step.after == (_Owner.go,)


@pytest.mark.parametrize("hook", ["before_state_change", "after_state_change", "prepare_event", "finalize_event",
                                  "on_exception"])
def test_compile_refuses_machine_wide_callbacks(hook: str) -> None:
    with pytest.raises(TypeError, match="machine-wide callbacks are not supported"):
        compile_machine(_Owner, _machine(**{hook: "go"}))


@pytest.mark.parametrize(
    ("where", "name", "message"),
    [
        ("after", "not_a_method", "is not a method"),
        ("before", "missing", "is not a method"),
        ("prepare", "prop", "is not a method"),
        ("conditions", "not_a_method", "is not a method"),
        ("unless", "missing", "is not a method"),
        ("after", lambda: None, "must be method names"),
        ("conditions", lambda: True, "must be method names"),
    ],
)
def test_compile_refuses_callbacks_that_are_not_methods(where: str, name: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        compile_machine(_Owner, _machine(transition={where: name}))


def test_compile_refuses_state_callbacks_that_are_not_methods() -> None:
    machine = Machine(model=None, states=[{"name": "a"}, {"name": "b", "on_enter": "missing"}],
                      transitions=[{"trigger": "t", "source": "a", "dest": "b"}], initial="a", auto_transitions=False)
    with pytest.raises(TypeError, match="on_enter callback 'missing'"):
        compile_machine(_Owner, machine)


def test_a_stage_naming_a_missing_method_fails_when_defined() -> None:
    with pytest.raises(TypeError, match="'nowhere' is not a method"):

        class Broken(Stage):
            transitions: ClassVar[list[dict[str, Any]]] = [
                {"trigger": "begin", "source": "ready", "dest": "done", "after": "nowhere"},
            ]


# What transitions does that the table does not (none of the stages uses them). Strict: fixing one fails here.


def test_compile_refuses_on_final() -> None:
    machine = Machine(model=None, states=["a", {"name": "b", "final": True}],
                      transitions=[{"trigger": "t", "source": "a", "dest": "b"}], initial="a",
                      auto_transitions=False, on_final="go")
    with pytest.raises(TypeError):
        compile_machine(_Owner, machine)


def test_a_state_that_ignores_invalid_triggers_is_refused() -> None:
    with pytest.raises(TypeError, match="ignore_invalid_triggers is not supported"):
        class Lenient(Stage):
            name: ClassVar[str] = "lenient"
            states: ClassVar[list[Any]] = [{"name": "ready", "ignore_invalid_triggers": True}, "running", "done"]
            __slots__ = ()


# --- diagrams ----------------------------------------------------------------------------------------------------


def diagram(cls: type[Stage]) -> str:
    """Mermaid source of ``cls``'s machine, conditions on the edges, drawn by ``transitions`` (no graphviz)."""
    pytest.importorskip("transitions.extensions.diagrams_mermaid")  # transitions >= 0.9.1
    from transitions.extensions.diagrams import GraphMachine

    class Drawing:
        """A throwaway model: ``GraphMachine`` binds ``get_graph`` to it."""

    drawing: Any = Drawing()
    GraphMachine(model=drawing, states=cls.states, transitions=cls.transitions, initial=cls.initial,
                 auto_transitions=False, title=cls.__name__, show_conditions=True, show_state_attributes=True,
                 graph_engine="mermaid")
    source = drawing.get_graph().draw(None)
    assert isinstance(source, str)
    return source


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_diagram_shows_every_state_and_condition(cls: type[Stage]) -> None:
    source = diagram(cls)
    assert source.startswith(f"---\n{cls.__name__}\n---\nstateDiagram-v2")
    for state in cls.machine.states:
        assert re.search(rf'^ *state "{state}(\\n[^"]*)?" as {state}$', source, re.MULTILINE), state
    edges: dict[tuple[str, str], list[str]] = {}  # "src --> dst: label | label"
    for line in source.splitlines():
        if " --> " in line and ": " in line:
            src, rest = line.strip().split(" --> ")
            dst, labels = rest.split(": ", 1)
            edges[(src, dst)] = labels.split(" | ")
    for trigger, event in cls.machine.events.items():
        for source_state, candidates in event.transitions.items():
            for t in candidates:
                label = trigger if t.dest is not None else f"{trigger} [internal]"
                conditions = [str(c.func) if c.target else f"!{c.func}" for c in t.conditions]
                if conditions:
                    label += f" [{' & '.join(conditions)}]"
                assert label in edges.get((source_state, t.dest or source_state), []), (source_state, label, source)


def test_betting_round_and_draw_diagrams() -> None:
    betting = diagram(cardgame.stages.BettingRound)
    for name in ("waiting_for_action", "round_closed", "hand_won"):
        assert f'state "{name}" as {name}' in betting
    assert "waiting_for_action --> round_closed: acted [round_complete]" in betting
    assert "waiting_for_action --> waiting_for_action: acted [internal]" in betting
    draw = diagram(cardgame.stages.Draw)
    assert 'state "waiting_for_draw" as waiting_for_draw' in draw
    assert "waiting_for_draw --> draws_done: drew [everyone_drew]" in draw


def test_a_condition_is_typed_to_take_the_trigger_s_arguments(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's callbacks are typed as a stage's methods called with the trigger's arguments, so code
    that asks a condition about an action (``fn(model, action)``) passes ``mypy --strict`` with no ``cast``."""
    api = pytest.importorskip("mypy.api")
    from pathlib import Path

    asks = tmp_path / "asks.py"
    asks.write_text("from cardgame.engine.machine import Step\n\n\n"
                    "def ask(step: Step, model: object, action: object) -> bool:\n"
                    "    fn, wanted = step.conditions[0]\n"
                    "    return bool(fn(model, action) == wanted)\n")
    monkeypatch.setenv("MYPYPATH", str(Path(__file__).resolve().parent.parent))
    out, err, status = api.run(["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
                                str(asks)])
    assert status == 0, out + err
