"""Check a stage class's compiled machine against ``transitions`` itself, as the library's own tests do for
every stage it ships: use it in a test of your own stage (``check_machine(MyStage)``).

A recording subclass replaces every callback and condition the machine names with methods that only log their
name and arguments (and each ending ``ends`` names with one giving ``Done(("ending", name, state))``); conditions return
values drawn from a seeded ``random.Random`` (not only ``True`` and ``False``: the rule is ``==``). Triggers
carry random arguments, which every callback and condition must be handed. Callbacks now and then raise, or
fire a nested trigger. Models with the same seed then take the same random trigger sequences from every
state through ``transitions`` (``C.machine.events[trigger].trigger``), through :func:`~cardgame.engine.machine.fire`
on the recording class's table and through the generated functions; after each trigger the result (or
exception), the state, the call log and the outcome the state gives (an ending looked up by name for
``transitions``, the compiled ``_endings`` for the others) must agree; the generated ``start`` must return
the outcome of the final state ``begin`` reaches. A disagreement raises ``AssertionError`` naming the seed,
the state and the trigger sequence.

The recording methods are not the class's own, so the bodies :class:`~cardgame.engine.machine.Fusion` writes in
line are checked by playing instead: :func:`check_play` runs a game twice, as generated and with every trigger
and every start fired by ``transitions`` itself (:func:`by_transitions`) and ``Dispatcher.send`` as the calls it
copies in line (:func:`readable_dispatcher`), and compares what it saw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from transitions import Machine, MachineError

from cardgame.engine.dispatcher import Dispatcher
from cardgame.engine.errors import CardgameError, StageError
from cardgame.engine.machine import Step, fire, generate
from cardgame.engine.outcomes import Done, Failed
from cardgame.engine.stage import Stage

__all__ = ["by_transitions", "check_fire", "check_machine", "check_may", "check_play", "check_recording_table",
           "check_start", "machine_names", "readable_dispatcher", "recording"]

SEQUENCES = 300  # random trigger sequences per stage class
MAX_LENGTH = 12  # triggers per sequence
RAISE = 0.04  # chance that a callback raises
NESTED = 0.1  # chance that a callback fires a nested trigger
PASS = 0.7  # chance that a condition returns True outright (else a random outcome): a betting action
#             checks seven rules in a row, and each must hold for its callbacks to run
#: What conditions return: ``transitions`` compares each result with ``==`` to the wanted value (1 passes for
#: ``True``, 0 and ``None`` are not ``False`` unless equal to it, "yes" is neither).
OUTCOMES: tuple[Any, ...] = (True, False, True, False, True, False, 1, 0, None, "yes", "")
#: What a trigger carries: nothing, or data its conditions and callbacks are handed (an action, say).
ARGUMENTS: tuple[tuple[Any, ...], ...] = ((), (), (1,), ("raise", 7), (None,))


class Boom(Exception):
    """Raised by a recording callback now and then."""


def _expect(condition: object, where: object) -> None:
    """An assertion that ``python -O`` keeps."""
    if not condition:
        raise AssertionError(where)


def check_machine(cls: type[Stage[Any]], sequences: int = SEQUENCES) -> None:
    """All four checks on ``cls``: the recording table's shape, triggers, the generated ``start``, and ``may``."""
    check_recording_table(cls)
    check_fire(cls, sequences)
    check_start(cls, sequences)
    check_may(cls, sequences)


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


def _ending(name: str) -> Callable[..., Done]:
    def ending(self: Any) -> Done:  # a question: it changes nothing, not even the random stream
        return Done(("ending", name, self.state))

    ending.__name__ = name
    return ending


def _ending_names(cls: type[Stage[Any]]) -> dict[str, str]:
    """State -> the name of the method giving its outcome or ``Push``, as the class declares them (``ends``,
    ``pushes``; the base's ``ends`` only with its states)."""
    return {state: name for state, name in {**cls.ends, **cls.pushes}.items() if state in cls._endings}


def _ended_by_name(cls: type[Stage[Any]], m: Any) -> Any:
    """What ``m``'s state gives, looked up by name as the class declares it (see :func:`_ending_names`)."""
    name = _ending_names(cls).get(m.state)
    return None if name is None else getattr(m, name)()


def _ended(m: Any) -> Any:
    """The outcome ``m``'s state gives, through the compiled ``_endings`` (as the dispatcher asks)."""
    end = m._endings.get(m.state)
    return None if end is None else end(m)


_RECORDING: dict[type[Stage[Any]], type[Stage[Any]]] = {}


def recording(cls: type[Stage[Any]]) -> type[Stage[Any]]:
    """``cls`` with every name its machine calls replaced by a logging method, and each ending by one
    giving ``Done(("ending", name, state))`` (a sub-stage's ``Push`` too)."""
    if cls not in _RECORDING:
        conditions, callbacks = machine_names(cls.machine)
        namespace: dict[str, Any] = {"__module__": cls.__module__}
        namespace.update({name: _ending(name) for name in _ending_names(cls).values()})
        namespace.update({name: _callback(name) for name in callbacks})
        namespace.update({name: _condition(name) for name in conditions})
        _RECORDING[cls] = type(f"Recording{cls.__name__}", (cls,), namespace)
    return _RECORDING[cls]


def model(rec: type[Stage[Any]], state: str, seed: int, nested: Callable[[Any, str], Any]) -> Any:
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


# --- the checks --------------------------------------------------------------------------------------------------


def check_recording_table(cls: type[Stage[Any]]) -> None:
    """The recording class's table has the class's shape, and where the class's table calls ``cls.<name>`` the
    recording table calls the recording method of that name."""
    rec = recording(cls)
    _expect(rec.table is not cls.table, 'rec.table is not cls.table')
    _expect(rec.table.keys() == cls.table.keys(), 'rec.table.keys() == cls.table.keys()')
    for key, steps in rec.table.items():
        _expect([_shape(s) for s in steps] == [_shape(s) for s in cls.table[key]], key)
        for step, original in zip(steps, cls.table[key], strict=True):
            for fn, fn_original in zip(_functions(step), _functions(original), strict=True):
                _expect(fn is rec.__dict__[fn.__name__], (key, fn))
                _expect(fn_original is getattr(cls, fn.__name__), (key, fn_original))


def check_fire(cls: type[Stage[Any]], sequences: int = SEQUENCES) -> None:
    """Random trigger sequences with random arguments, from every state, through ``transitions``, the compiled
    table and the generated functions: the same results, states and calls; every ``(state, trigger)`` fired."""
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
    for seed in range(sequences):
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
            _expect(got_b == got_a, where)
            _expect(b.state == a.state, where)
            _expect(b.log == a.log, where)
            _expect(got_c == got_a, where)
            _expect(c.state == a.state, where)
            _expect(c.log == a.log, where)
            ending = _ended_by_name(cls, a)
            _expect(_ended(b) == ending == _ended(c), where)
            fired.add((before, trigger))
            results.add(got_a[2] if got_a[0] == "returned" else got_a[1])
        called.update(entry[0] for entry in a.log)
    _expect(set(table) <= fired, f"never fired: {set(table) - fired}")
    _expect({True, MachineError} <= results, '{True, MachineError} <= results')
    _expect(set().union(*machine_names(machine)) <= called, 'set().union(*machine_names(machine)) <= called')


def check_start(cls: type[Stage[Any]], sequences: int = SEQUENCES) -> None:
    """The class's generated ``start`` (its begin steps written in line) does what ``Stage.start`` says: keep the
    context and the previous result, enter the initial state, fire ``begin`` as ``transitions`` fires it and
    return the outcome of the final state reached; the same outcome (or exception), state and calls on random
    inputs."""
    rec = recording(cls)
    _expect(getattr(rec.start, "generated", False) and rec.start is not cls.start, "the recording start is generated")
    _expect(getattr(cls.start, "generated", False) or cls.start is Stage.start, "the class's start is generated")
    machine = cls.machine
    for seed in range(sequences):
        ctx, previous = object(), object()
        a = model(rec, "done", seed, lambda m, t: machine.events[t].trigger(m))
        b = model(rec, "done", seed, lambda m, t: machine.events[t].trigger(m))

        def reference(m: Any = a, ctx: Any = ctx, previous: Any = previous) -> Any:
            m.ctx, m.previous, m.state = ctx, previous, cls.initial
            machine.events["begin"].trigger(m)
            return _ended_by_name(cls, m)  # the outcome of the final state begin reached

        got_a = outcome(reference)
        got_b = outcome(lambda: rec.start(b, ctx, previous))  # noqa: B023  (called at once)
        where = f"{cls.__name__} seed {seed}"
        _expect(got_b == got_a, where)
        _expect((b.state, b.log, b.ctx, b.previous) == (a.state, a.log, a.ctx, a.previous), where)


def check_may(cls: type[Stage[Any]], sequences: int = SEQUENCES) -> None:
    """:meth:`Stage.may` answers as ``transitions``' ``may_<trigger>`` does (the same result, or exception, and
    the same calls: each candidate's ``prepare`` and conditions, nothing else, the state unchanged), for every
    trigger from every state with random arguments; and :meth:`Stage.refusal` asks the first candidate's
    conditions in order, stopping at the first that fails."""
    rec = recording(cls)
    machine = cls.machine
    states = list(machine.states)
    triggers = sorted(machine.events)
    for seed in range(sequences):
        draw = random.Random(f"{cls.__qualname__}/may/{seed}")
        state, trigger, args = draw.choice(states), draw.choice(triggers), draw.choice(ARGUMENTS)
        a = model(rec, state, seed, lambda m, t: machine.events[t].trigger(m))
        b = model(rec, state, seed, lambda m, t: machine.events[t].trigger(m))
        got_a = outcome(lambda: machine._can_trigger(a, trigger, *args))  # noqa: B023  # may_<trigger>
        got_b = outcome(lambda: Stage.may(b, trigger, *args))  # noqa: B023  (called at once)
        where = f"{cls.__name__} seed {seed}: may {trigger!r} in {state}"
        _expect(got_b == got_a, where)
        _expect(b.log == a.log and b.state == a.state, where)
        steps = rec.table.get((state, trigger))
        if not steps or got_a[0] != "returned" or b.depth:
            continue
        c = model(rec, state, seed + sequences, lambda m, t: machine.events[t].trigger(m))
        outcome(lambda: Stage.refusal(c, trigger, *args))  # noqa: B023  (the refuse_ method may need a real stage)
        asked = [entry for entry in c.log if entry[0] not in ("nested", "raise")]
        wanted = steps[0].conditions
        _expect([entry[0] for entry in asked] == [fn.__name__ for fn, _ in wanted][: len(asked)], where)
        held = [entry[1] == w for entry, (_, w) in zip(asked, wanted, strict=False)]
        _expect(all(held[:-1]), where)  # it went on past a condition only while they held
        _expect(len(asked) == len(wanted) or (held and not held[-1]), where)  # it stopped at the first failing


# --- the generated (fused) functions against transitions, by playing ---------------------------------------------


def stage_classes(root: type[Stage[Any]] = Stage) -> list[type[Stage[Any]]]:
    """``root`` and every subclass of it defined so far."""
    found = [root]
    for cls in found:
        found += [sub for sub in cls.__subclasses__() if sub not in found]
    return found


@contextmanager
def by_transitions(classes: Iterable[type[Stage[Any]]] | None = None) -> Iterator[None]:
    """While it lasts, each class in ``classes`` (default: every stage class) fires every trigger through
    ``transitions`` itself (``cls.machine.events[trigger].trigger``) where it ran its generated function, and
    starts with the plain :meth:`Stage.start`: the readable form, with nothing generated or fused."""
    saved: list[tuple[type[Stage[Any]], dict[str, Any]]] = []

    def caller(cls: type[Stage[Any]], trigger: str) -> Callable[..., Any]:
        event = cls.machine.events[trigger]
        return lambda model, *args: event.trigger(model, *args)

    try:
        for cls in stage_classes() if classes is None else list(classes):
            if "table" not in cls.__dict__:  # Stage itself: no machine of its own
                continue
            saved.append((cls, {name: cls.__dict__[name] for name in ("fast", "start") if name in cls.__dict__}))
            cls.fast = {key: caller(cls, key[1]) for key in cls.table}
            if getattr(cls.__dict__.get("start"), "generated", False):  # a start of the class's own stays
                cls.start = Stage.start  # type: ignore[method-assign]
            cls.derive_tables()  # the tables looking triggers up by name: the readable ones now
        yield
    finally:
        for cls, attributes in reversed(saved):
            for name in ("fast", "start"):
                if name in attributes:
                    setattr(cls, name, attributes[name])
                elif name in cls.__dict__:
                    delattr(cls, name)
            cls.derive_tables()


def _readable_send(self: Dispatcher[Any], event: str, *args: Any) -> None:
    """``Dispatcher.send`` as its docstring says it: ``stage.handle(event, *args)``, then follow the outcome; a
    context with ``hold`` and ``release`` told at every call (quiet or not)."""
    stage = self.current
    if self.status != "running" or stage is None:
        reason = f": {self.failure.reason}" if self.failure else ""
        raise StageError(f"The game is {self.status}{reason}; it takes no more events.")
    self.busy = True
    ctx: Any = self.ctx
    held = hasattr(ctx, "hold") and hasattr(ctx, "release")
    if held:
        ctx.hold()
    try:
        try:
            outcome = stage.handle(event, *args)
        except CardgameError:
            if stage.state in stage._final:  # the stage ended while failing
                self._stop(stage, Failed(f"{event} left the stage half-ended", stage.name, stage.state))
            raise
        except Exception as exc:
            self._stop(stage, Failed(f"{type(exc).__name__}: {exc}", stage.name, stage.state), exc)
        if outcome is not None:
            self.advance(stage, outcome)
    finally:
        self.busy = False
        if held:
            ctx.release()


@contextmanager
def readable_dispatcher() -> Iterator[None]:
    """While it lasts, ``Dispatcher.send`` is the calls its body copies in line (``Stage.handle``, then
    ``Dispatcher.advance``)."""
    saved = Dispatcher.send
    Dispatcher.send = _readable_send  # type: ignore[method-assign]
    try:
        yield
    finally:
        Dispatcher.send = saved  # type: ignore[method-assign]


def check_play(play: Callable[[], Iterable[Any]], classes: Iterable[type[Stage[Any]]] | None = None) -> int:
    """Run ``play()`` (which builds a game, plays it and yields what it sees after each step: answers, errors,
    states, events) as generated, then inside :func:`by_transitions` with :func:`readable_dispatcher`; every step
    must agree. Returns the number of steps compared."""
    fast = list(play())
    with by_transitions(classes), readable_dispatcher():
        slow = list(play())
    _expect(len(slow) == len(fast), f"the readable game took {len(slow)} steps, the generated one {len(fast)}")
    for i, (got, want) in enumerate(zip(slow, fast, strict=True)):
        _expect(got == want, f"step {i}: transitions saw {got!r}, the generated functions {want!r}")
    return len(fast)
