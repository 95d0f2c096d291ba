"""A ``transitions`` machine compiled to a table, executed in the order ``transitions`` executes it.

A stage class declares its machine (states, and transitions with ``prepare``, ``conditions``,
``unless``, ``before`` and ``after`` callbacks named as methods of the stage). ``transitions``
builds and validates that machine once per class; :func:`compile_machine` then turns it into a
table ``(state, trigger) -> steps``, each step holding the callbacks as plain functions of the
class. :func:`fire` executes a trigger from that table exactly as ``Event.trigger`` and
``Transition.execute`` do (transitions ``core.py``): for each candidate transition in order, run
its ``prepare`` callbacks, check its conditions (each result compared with ``==`` to the wanted
value, stopping at the first that fails), and on success run ``before``, change the state (the
source state's ``on_exit``, then the destination's ``on_enter``; an internal transition, ``dest``
``None``, changes nothing), then ``after``; the first candidate that passes wins and the trigger
returns ``True``, else ``False``. A trigger the state does not allow raises ``MachineError`` with
the library's message. ``tests/test_machine.py`` runs every stage class both ways on random
inputs and checks the same states, calls and results.

The table costs a dictionary lookup and direct calls where ``transitions`` builds an event object
and resolves each callback by name (about 12 microseconds a trigger). The hot path goes one step
further, as attrs does with its methods: :func:`generate` writes one small Python function per
``(state, trigger)`` from the steps, the same calls in the same order with the loops unrolled (a
trigger with no callbacks is just the state assignment; the steps are written out for no
argument, one and any number, so that the common cases call each callback without building an
argument tuple), and the same test checks it too.
A trigger's arguments travel with it, as ``transitions`` hands them on with ``send_event=False``:
every callback and condition of the transition is called as ``fn(model, *args)``, so a condition
can judge the action the trigger carries (a betting round's ``raise`` trigger carries the
:class:`~cardgame.stages.betting_round.Action`, and its conditions are the raise rules).
Machine-wide callbacks (``before_state_change``, ``on_final`` and the like) and
``ignore_invalid_triggers`` are refused: declare callbacks on the transitions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs
from transitions import Machine, MachineError

__all__ = ["Step", "compile_machine", "fire", "generate", "generate_start", "may", "passes"]

#: A transition's callback or condition: a method of the stage class, called as ``fn(model, *args)`` with
#: the trigger's arguments (a condition taking an action is called with it, no ``cast`` needed).
Callback = Callable[..., Any]


@attrs.frozen
class Step:
    """One compiled transition: its destination (``None``: internal) and its callbacks in order."""

    dest: str | None
    prepare: tuple[Callback, ...]
    conditions: tuple[tuple[Callback, bool], ...]
    before: tuple[Callback, ...]
    exit: tuple[Callback, ...]
    enter: tuple[Callback, ...]
    after: tuple[Callback, ...]


def _functions(owner: type, names: list[Any], where: str) -> tuple[Callback, ...]:
    found: list[Callback] = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{owner.__name__}: {where} callbacks must be method names, not {name!r}.")
        fn = getattr(owner, name, None)
        if not callable(fn):
            raise TypeError(f"{owner.__name__}: {where} callback {name!r} is not a method of the class.")
        found.append(fn)
    return tuple(found)


def compile_machine(owner: type, machine: Machine) -> dict[tuple[str, str], tuple[Step, ...]]:
    """``(state, trigger) -> steps`` for ``machine``, whose callbacks are methods of ``owner``."""
    hooks = (machine.before_state_change, machine.after_state_change, machine.prepare_event,
             machine.finalize_event, machine.on_exception, machine.on_final)
    if any(hooks):
        raise TypeError(f"{owner.__name__}: machine-wide callbacks are not supported; put them on transitions.")
    lenient = [name for name, state in machine.states.items() if state.ignore_invalid_triggers]
    if lenient or machine.ignore_invalid_triggers:
        raise TypeError(f"{owner.__name__}: ignore_invalid_triggers is not supported (states {lenient}); a trigger "
                        "a state does not allow raises MachineError.")
    table: dict[tuple[str, str], tuple[Step, ...]] = {}
    for trigger, event in machine.events.items():
        for source, candidates in event.transitions.items():
            steps = []
            for t in candidates:
                src = machine.states[source]
                dst = machine.states[t.dest] if t.dest is not None else None
                steps.append(Step(
                    dest=t.dest,
                    prepare=_functions(owner, t.prepare, "prepare"),
                    conditions=tuple(
                        (_functions(owner, [c.func], "condition")[0], bool(c.target)) for c in t.conditions
                    ),
                    before=_functions(owner, t.before, "before"),
                    exit=_functions(owner, src.on_exit, "on_exit") if dst is not None else (),
                    enter=_functions(owner, dst.on_enter, "on_enter") if dst is not None else (),
                    after=_functions(owner, t.after, "after"),
                ))
            table[(source, trigger)] = tuple(steps)
    return table


def fire(table: dict[tuple[str, str], tuple[Step, ...]], model: Any, trigger: str, *args: Any) -> bool:
    """Fire ``trigger`` on ``model`` (its ``state`` attribute) from a table of :func:`compile_machine`;
    every callback is called with ``model`` and ``args``."""
    steps = table.get((model.state, trigger))
    if steps is None:
        raise MachineError(f"Can't trigger event {trigger} from state {model.state}!")
    for step in steps:
        if passes(step, model, *args):
            for fn in step.before:
                fn(model, *args)
            if step.dest is not None:
                for fn in step.exit:
                    fn(model, *args)
                model.state = step.dest
                for fn in step.enter:
                    fn(model, *args)
            for fn in step.after:
                fn(model, *args)
            return True
    return False


def passes(step: Step, model: Any, *args: Any) -> bool:
    """Run ``step``'s ``prepare`` callbacks and ask its conditions in order (each result compared with
    ``==`` to the wanted value), stopping at the first that fails: whether the step would be taken."""
    for fn in step.prepare:
        fn(model, *args)
    return all(fn(model, *args) == wanted for fn, wanted in step.conditions)  # as transitions' Condition.check


def may(table: dict[tuple[str, str], tuple[Step, ...]], model: Any, trigger: str, *args: Any) -> bool:
    """What ``transitions`` offers as ``may_<trigger>``: whether firing ``trigger`` would take a transition
    (each candidate's ``prepare`` and conditions, nothing else; ``False`` for a trigger the state lacks)."""
    steps = table.get((model.state, trigger))
    return steps is not None and any(passes(step, model, *args) for step in steps)


#: A generated trigger: a function of the model and the trigger's arguments, or for a plain
#: transition (one unconditional step with no callbacks) just its destination state, which the
#: caller assigns.
Fast = Callable[..., bool] | str


def _source(
    steps: tuple[Step, ...], names: dict[str, Any], head: tuple[str, ...] = ("def fire(m, *a):",),
    args: str = "(m, *a)", passed: str = "return True", failed: str = "return False",
) -> str:
    """Python source of ``fire(m, *a)`` for ``steps``; the callbacks it calls are put in ``names``.
    ``head`` replaces the ``def`` line (and may add statements run first), ``args`` is how each
    callback is called, and ``passed`` and ``failed`` end the function when a step passed or none did."""

    def ref(fn: Callback) -> str:
        name = f"f{len(names)}"
        names[name] = fn
        return name + args

    lines = list(head)
    for step in steps:
        lines += [f"    {ref(fn)}" for fn in step.prepare]
        body = [ref(fn) for fn in step.before]
        if step.dest is not None:
            body += [ref(fn) for fn in step.exit]
            body.append(f"m.state = {step.dest!r}")
            body += [ref(fn) for fn in step.enter]
        body += [ref(fn) for fn in step.after]
        body.append(passed)
        tests = " and ".join(f"{ref(fn)} == {wanted}" for fn, wanted in step.conditions)
        if not tests:  # an unconditional step always passes: later candidates are never tried
            return "\n".join(lines + ["    " + line for line in body])
        lines.append(f"    if {tests}:")
        lines += ["        " + line for line in body]
    return "\n".join([*lines, "    " + failed])


def _arities(steps: tuple[Step, ...], names: dict[str, Any]) -> str:
    """:func:`_source` with the steps written out three times: for a trigger with no argument,
    with one (the action it carries) and with any number. ``f(m, *a)`` builds a list and a tuple
    per call; the first two call each callback with its arguments spelt out."""

    def body(args: str) -> list[str]:
        return ["    " + line for line in _source(steps, names, (), args).splitlines()]

    return "\n".join(["def fire(m, *a):", "    if not a:", *body("(m)"), "    if len(a) == 1:", "        a0 = a[0]",
                      *body("(m, a0)"), *_source(steps, names, (), "(m, *a)").splitlines()])


def generate_start(
    table: dict[tuple[str, str], tuple[Step, ...]], initial: str, endings: Mapping[str, Callable[[Any], Any]] = {},
) -> Callable[[Any, Any, Any], Any]:
    """``start(m, ctx, previous)``: what :meth:`cardgame.engine.Stage.start` does -- keep the context
    and the previous result, enter ``initial``, fire ``begin`` and return the outcome of the final
    state it reached (``endings[state](m)``; ``None``: the stage waits for input) -- as one generated
    function, the ``begin`` steps written in line (see :func:`generate`)."""
    head = ("def start(m, ctx, previous):", "    m.ctx = ctx", "    m.previous = previous",
            f"    m.state = {initial!r}")
    names: dict[str, Any] = {"fire": fire, "table": table, "ends": dict(endings)}
    done = "e = ends.get(m.state); return None if e is None else e(m)" if endings else "return None"
    steps = table.get((initial, "begin"))
    if steps is None:  # no begin from the initial state: fire raises MachineError, as the machine would
        source = "\n".join([*head, "    fire(table, m, 'begin')"])
    else:
        source = _source(steps, names, head, "(m)", done, done)
    exec(source, names)  # the source is built from the machine's own steps
    start: Callable[[Any, Any, Any], Any] = names["start"]
    return start


def generate(table: dict[tuple[str, str], tuple[Step, ...]]) -> dict[tuple[str, str], Fast]:
    """One function per ``(state, trigger)`` of ``table`` doing what :func:`fire` does with its steps
    (for a plain transition, its destination: see :data:`Fast`)."""
    fast: dict[tuple[str, str], Fast] = {}
    made: dict[tuple[Step, ...], Fast] = {}  # one function for the same steps (a trigger taken in every state)
    for key, steps in table.items():
        if steps in made:
            fast[key] = made[steps]
            continue
        first = steps[0] if steps else None
        if first is not None and first.dest is not None and not (
            first.prepare or first.conditions or first.before or first.exit or first.enter or first.after
        ):
            fast[key] = first.dest  # a plain transition: the state assignment is all it does
            continue
        names: dict[str, Any] = {}
        exec(_arities(steps, names), names)  # the source is built from the machine's own steps
        fast[key] = made[steps] = names["fire"]
    return fast
