"""The compiled machine against ``transitions``: every stage class, random inputs, the same states, calls and results.

For each stage class ``C`` a recording subclass replaces every callback and condition its machine names (and the
ways a stage records its outcome, ``finish``, ``exit``...) with methods that only log their name and arguments;
conditions return values drawn from a seeded ``random.Random`` (not only ``True`` and ``False``: the rule is ``==``).
Triggers carry random arguments, which every callback and condition must be handed. Callbacks now and then raise,
or fire a nested trigger (as a betting round's ``act`` fires ``acted``). Two models with the same seed then
take the same random trigger sequences from every state: one through ``transitions`` itself
(``C.machine.events[trigger].trigger``), one through :func:`cardgame.engine.machine.fire` on the recording
class's table;
after each trigger the result (or exception), the state and the call log must agree.

Two things ``transitions`` does that the table does not, the machine-wide ``on_final`` callback and a
state's ``ignore_invalid_triggers`` (``transitions`` returns ``False`` where :func:`fire` raises
``MachineError``), are refused by :func:`compile_machine` when a class is defined.

The diagram tests draw each stage's machine with ``transitions``' mermaid engine (no graphviz needed).
"""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from transitions import Machine, MachineError

import cardgame
import cardgame.stages
from cardgame.engine import Stage
from cardgame.engine.machine import Step, compile_machine, fire, generate

SEQUENCES = 300  # random trigger sequences per stage class
MAX_LENGTH = 12  # triggers per sequence
RAISE = 0.04  # chance that a callback raises
NESTED = 0.1  # chance that a callback fires a nested trigger
PASS = 0.7  # chance that a condition returns True outright (else a random outcome): a betting action
#             checks seven rules in a row, and each must hold for its callbacks to run
#: What conditions return: ``transitions`` compares each result with ``==`` to the wanted value (1 passes for
#: ``True``, 0 and ``None`` are not ``False`` unless equal to it, "yes" is neither).
OUTCOMES: tuple[Any, ...] = (True, False, True, False, True, False, 1, 0, None, "yes", "")
#: The ways a stage records its outcome from a callback; the recording classes only log them.
ENDINGS = ("finish", "goto", "push", "pass_on", "restart", "exit", "fail")
#: What a trigger carries: nothing, or data its conditions and callbacks are handed (an action, say).
ARGUMENTS: tuple[tuple[Any, ...], ...] = ((), (), (1,), ("raise", 7), (None,))


class Boom(Exception):
    """Raised by a recording callback now and then."""


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


def machine_names(machine: Machine) -> tuple[set[str], set[str]]:
    """``(conditions, callbacks)``: the names ``machine`` calls (transitions' callbacks, states' enter and exit)."""
    conditions: set[Any] = set()
    callbacks: set[Any] = set()
    for event in machine.events.values():
        for candidates in event.transitions.values():
            for t in candidates:
                callbacks.update(t.prepare, t.before, t.after)
                conditions.update(c.func for c in t.conditions)
    for state in machine.states.values():
        callbacks.update(state.on_enter, state.on_exit)
    return conditions, callbacks - conditions


def _condition(name: str) -> Callable[..., Any]:
    def condition(self: Any, *args: Any) -> Any:  # a trigger's arguments travel to its conditions
        value = True if self.rng.random() < PASS else self.rng.choice(OUTCOMES)
        self.log.append((name, value, args))
        return value

    condition.__name__ = name
    return condition


def _callback(name: str) -> Callable[..., None]:
    def callback(self: Any, *args: Any) -> None:  # the trigger's arguments, as the machine passes them
        self.log.append((name, *args))
        if self.rng.random() < RAISE:
            self.log.append(("raise", name))
            raise Boom(name)
        if self.depth < 2 and self.rng.random() < NESTED:
            trigger = self.rng.choice(self.triggers)
            self.depth += 1
            try:
                self.log.append(("nested", trigger, outcome(lambda: self.nested(trigger))))
            finally:
                self.depth -= 1

    callback.__name__ = name
    return callback


_RECORDING: dict[type[Stage], type[Stage]] = {}


def recording(cls: type[Stage]) -> type[Stage]:
    """``cls`` with every name its machine calls (and the endings) replaced by a logging method."""
    if cls not in _RECORDING:
        conditions, callbacks = machine_names(cls.machine)
        namespace: dict[str, Any] = {"__module__": __name__}
        namespace.update({name: _callback(name) for name in {*callbacks, *ENDINGS}})
        namespace.update({name: _condition(name) for name in conditions})
        _RECORDING[cls] = type(f"Recording{cls.__name__}", (cls,), namespace)
    return _RECORDING[cls]


def model(rec: type[Stage], state: str, seed: int, nested: Callable[[Any, str], Any]) -> Any:
    """An instance of ``rec`` in ``state``, made without its constructor: the machine needs ``state`` and methods."""
    m: Any = rec.__new__(rec)
    m.state = state
    m.log = []
    m.rng = random.Random(seed)
    m.depth = 0
    m.triggers = sorted(rec.machine.events)
    m.nested = lambda trigger: nested(m, trigger)
    return m


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    try:
        result = call()
    except Exception as exc:  # compared, never hidden
        return ("raised", type(exc), str(exc))
    return ("returned", type(result), result)


def _functions(step: Step) -> list[Callable[[Any], Any]]:
    return [*step.prepare, *(fn for fn, _ in step.conditions), *step.before, *step.exit, *step.enter, *step.after]


def _shape(step: Step) -> tuple[Any, ...]:
    return (step.dest, *(len(fns) for fns in (step.prepare, step.before, step.exit, step.enter, step.after)),
            tuple(wanted for _, wanted in step.conditions))


# --- the tests ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_recording_table_calls_the_recording_methods(cls: type[Stage]) -> None:
    """The recording class's table has the class's shape, and where the class's table calls ``cls.<name>`` the
    recording table calls the recording method of that name."""
    rec = recording(cls)
    assert rec.table is not cls.table
    assert rec.table.keys() == cls.table.keys()
    for key, steps in rec.table.items():
        assert [_shape(s) for s in steps] == [_shape(s) for s in cls.table[key]], key
        for step, original in zip(steps, cls.table[key], strict=True):
            for fn, fn_original in zip(_functions(step), _functions(original), strict=True):
                assert fn is rec.__dict__[fn.__name__], (key, fn)
                assert fn_original is getattr(cls, fn.__name__), (key, fn_original)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_fire_agrees_with_transitions(cls: type[Stage]) -> None:
    rec = recording(cls)
    machine, table, fast = cls.machine, rec.table, generate(rec.table)

    def fast_fire(m: Any, t: str, *args: Any) -> Any:  # as Stage.trigger: the generated function, else fire raises
        fn = fast.get((m.state, t))
        if isinstance(fn, str):
            m.state = fn
            return True
        return fire(table, m, t, *args) if fn is None else fn(m, *args)
    states = list(machine.states)
    triggers = sorted(machine.events)
    fired: set[tuple[str, str]] = set()
    results: set[Any] = set()
    called: set[str] = set()
    for seed in range(SEQUENCES):
        draw = random.Random(f"{cls.__qualname__}/{seed}")
        start = cls.initial if seed % 2 else states[seed // 2 % len(states)]  # most of the work is in the initial
        sequence = [draw.choice(triggers) for _ in range(draw.randint(1, MAX_LENGTH))]
        arguments = [draw.choice(ARGUMENTS) for _ in sequence]
        a = model(rec, start, seed, lambda m, t: machine.events[t].trigger(m))
        b = model(rec, start, seed, lambda m, t: fire(table, m, t))
        c = model(rec, start, seed, fast_fire)
        for i, (trigger, args) in enumerate(zip(sequence, arguments, strict=True)):
            before = a.state
            got_a = outcome(lambda: machine.events[trigger].trigger(a, *args))  # noqa: B023  (called at once)
            got_b = outcome(lambda: fire(table, b, trigger, *args))  # noqa: B023
            got_c = outcome(lambda: fast_fire(c, trigger, *args))  # noqa: B023  (the generated fast path)
            where = f"{cls.__name__} seed {seed} from {start}, trigger {i} {trigger!r} in {before}: {sequence}"
            assert got_b == got_a, where
            assert b.state == a.state, where
            assert b.log == a.log, where
            assert got_c == got_a, where
            assert c.state == a.state, where
            assert c.log == a.log, where
            fired.add((before, trigger))
            results.add(got_a[2] if got_a[0] == "returned" else got_a[1])
        called.update(entry[0] for entry in a.log)
    assert set(table) <= fired, f"never fired: {set(table) - fired}"
    assert {True, MachineError} <= results
    assert set().union(*machine_names(machine)) <= called


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_generated_start_agrees_with_transitions(cls: type[Stage]) -> None:
    """The class's generated ``start`` (its begin steps written in line) does what ``Stage.start`` says: keep the
    context and the previous result, clear the outcome, enter the initial state, then fire ``begin`` as
    ``transitions`` fires it; the same result, state and calls on random inputs."""
    rec = recording(cls)
    assert getattr(rec.start, "generated", False) and rec.start is not cls.start
    assert getattr(cls.start, "generated", False) or cls.start is Stage.start
    machine = cls.machine
    for seed in range(SEQUENCES):
        ctx, previous = object(), object()
        a = model(rec, "done", seed, lambda m, t: machine.events[t].trigger(m))
        b = model(rec, "done", seed, lambda m, t: machine.events[t].trigger(m))
        for m in (a, b):
            m.outcome = "old"

        def reference(m: Any = a, ctx: Any = ctx, previous: Any = previous) -> Any:
            m.ctx, m.outcome, m.previous, m.state = ctx, None, previous, cls.initial
            return machine.events["begin"].trigger(m)

        got_a = outcome(reference)
        got_b = outcome(lambda: rec.start(b, ctx, previous))  # noqa: B023  (called at once)
        where = f"{cls.__name__} seed {seed}"
        if got_a[0] == "returned":
            assert got_b[0] == "returned", where
        else:
            assert got_b == got_a, where
        assert (b.state, b.log, b.ctx, b.previous) == (a.state, a.log, a.ctx, a.previous), where
        assert b.outcome is None is a.outcome, where


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
                {"trigger": "begin", "source": "ready", "dest": "running", "after": "nowhere"},
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
