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
argument tuple), and the same test checks it too. Going further still, a callback or condition whose source
is at hand is fused into the generated function (:class:`Fusion`): its body written in line, its parameters
renamed to the trigger's arguments and its locals to names of their own, so a betting action runs its rules
and callbacks in one frame. Only what reads the same in line is fused (a condition that is one ``return``, a
callback with no ``return`` before its end, no nested scopes, the parameters never reassigned, globals from
the stage's own module), and only when the source compiles to the very code the method runs; the rest is
called. A fused body leaves out its ``assert`` statements, as ``python -O`` does (they narrow types for the
checker; the rules are the conditions). ``cardgame.engine.verify.by_transitions`` lets a test play the same
game through ``transitions`` and compare (``tests/test_fast_paths.py``).
A trigger's arguments travel with it, as ``transitions`` hands them on with ``send_event=False``:
every callback and condition of the transition is called as ``fn(model, *args)``, so a condition
can judge the action the trigger carries (a betting round's ``raise`` trigger carries the
:class:`~cardgame.stages.betting_round.Action`, and its conditions are the raise rules).
Machine-wide callbacks (``before_state_change``, ``on_final`` and the like) and
``ignore_invalid_triggers`` are refused: declare callbacks on the transitions.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import linecache
import re
import textwrap
import types
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from transitions import Machine, MachineError

__all__ = ["Fusion", "Step", "compile_machine", "fire", "generate", "generate_start", "may", "passes"]

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


#: Names the generated functions use for themselves: a fused body's globals must not be one of them.
_OWN_NAMES = re.compile(r"(m|a|a0|e|ctx|previous|ends|fire|start|table|nothing|f\d+|_i\d+_\w*)\Z")
#: Nodes a fused body may not hold: another scope, a way out of the middle, or a look at the frame.
_NOT_FUSED = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)
_FRAME_NAMES = frozenset({"super", "__class__", "locals", "vars", "eval", "exec", "dir", "globals"})
_SERIAL = itertools.count(1)  # each generated function's source file name is its own


class Fusion:
    """Writes callbacks and conditions in line in the functions :func:`generate` makes for one class: the
    bodies of those whose globals are ``module`` (a module's ``__dict__``), when they can be (see the module
    docstring). ``count`` is how many were written in line."""

    def __init__(self, module: dict[str, Any], table: dict[tuple[str, str], tuple[Step, ...]] | None = None) -> None:
        self.module = module
        self.table = table  # the stage's whole table: a nested trigger is written in line from it (None: called)
        self.count = 0
        self._parsed: dict[Callback, tuple[list[ast.stmt], tuple[str, ...], frozenset[str]] | None] = {}

    def _parse(self, fn: Callback) -> tuple[list[ast.stmt], tuple[str, ...], frozenset[str]] | None:
        """``fn``'s body (no docstring), parameters and locals, if it may be fused; else ``None``."""
        if fn in self._parsed:
            return self._parsed[fn]
        self._parsed[fn] = None
        code = getattr(fn, "__code__", None)
        plain = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR | inspect.CO_COROUTINE
        if (type(fn) is not types.FunctionType or code is None or fn.__globals__ is not self.module
                or code.co_freevars or code.co_cellvars or code.co_flags & plain or code.co_kwonlyargcount
                or fn.__defaults__ or fn.__kwdefaults__):
            return None
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        except (OSError, TypeError, SyntaxError, IndentationError):
            return None
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) or tree.body[0].decorator_list:
            return None
        made = compile(tree, "<fusion>", "exec").co_consts
        twin = next((c for c in made if isinstance(c, types.CodeType)), None)
        skip = 1 if fn.__doc__ is not None else 0  # the docstring (indented otherwise in the source)
        if twin is None or (twin.co_code, twin.co_names, twin.co_varnames, twin.co_consts[skip:]) != (
                code.co_code, code.co_names, code.co_varnames, code.co_consts[skip:]):
            return None  # the source is not the code that runs (edited since it was imported)
        params = code.co_varnames[: code.co_argcount]
        local_names = frozenset(code.co_varnames)
        body = tree.body[0].body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        for node in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, _NOT_FUSED):
                return None
            if isinstance(node, ast.Name):
                if node.id in params and not isinstance(node.ctx, ast.Load):
                    return None  # a parameter reassigned: the next callback must see the argument
                if node.id not in local_names and (node.id in _FRAME_NAMES or _OWN_NAMES.match(node.id)):
                    return None
        self._parsed[fn] = found = (body, params, local_names)
        return found

    def _renamed(self, fn: Callback, args: tuple[str, ...]) -> list[ast.stmt] | None:
        parsed = self._parse(fn)
        if parsed is None or len(parsed[1]) != len(args):
            return None
        body, params, local_names = parsed
        self.count += 1
        prefix = f"_i{self.count}_"
        names = dict(zip(params, args, strict=True))

        class Rename(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.Name:
                if node.id in local_names:
                    return ast.copy_location(ast.Name(names.get(node.id, prefix + node.id), node.ctx), node)
                return node

            def visit_Assert(self, node: ast.Assert) -> None:
                return None  # left out, as ``python -O`` leaves it out (the type checker's narrowing)

            def generic_visit(self, node: ast.AST) -> ast.AST:
                node = super().generic_visit(node)
                if getattr(node, "body", None) == []:  # a block that held only assertions
                    node.body = [ast.Pass()]  # type: ignore[attr-defined]
                return node

        renamed = [Rename().visit(ast.parse(ast.unparse(stmt)).body[0]) for stmt in body]
        return [stmt for stmt in renamed if stmt is not None]

    def statements(self, fn: Callback, args: tuple[str, ...],
                   nested: Callable[[str], list[str] | None] | None = None) -> list[str] | None:
        """The lines of ``fn(*args)``'s body written in line (a last ``return x`` kept as ``x``), or ``None``.
        With ``nested``, a statement ``self.trigger("name")`` (a nested trigger with no argument, its answer
        unused) is replaced by the lines ``nested("name")`` gives, where it gives some."""
        parsed = self._parse(fn)
        if parsed is None or len(parsed[1]) != len(args):
            return None
        last = parsed[0][-1] if parsed[0] else None
        inner = [node for stmt in parsed[0] for node in ast.walk(stmt) if isinstance(node, ast.Return)]
        if inner and (len(inner) > 1 or inner[0] is not last):
            return None  # a return before the end: the callback's own frame is needed
        body = self._renamed(fn, args)
        assert body is not None
        if isinstance(body[-1:] and body[-1], ast.Return):
            value = body[-1].value  # type: ignore[attr-defined]
            body[-1:] = [ast.Expr(value)] if value is not None else []
        marks: dict[str, str] = {}
        if nested is not None:
            _mark_triggers(body, args[0], marks)
        lines = "\n".join(ast.unparse(ast.fix_missing_locations(stmt)) for stmt in body).splitlines() or ["pass"]
        if not marks:
            return lines
        written: list[str] = []
        for line in lines:
            trigger = marks.get(line.strip())
            expanded = None if trigger is None or nested is None else nested(trigger)
            if trigger is not None:
                indent = line[: len(line) - len(line.lstrip())]
                written += [indent + text for text in expanded or [f"{args[0]}.trigger({trigger!r})"]]
            else:
                written.append(line)
        return written

    def expression(self, fn: Callback, args: tuple[str, ...]) -> str | None:
        """``fn(*args)`` as one expression, for a condition that is a single ``return``; else ``None``."""
        parsed = self._parse(fn)
        if parsed is None or len(parsed[1]) != len(args):
            return None
        if len(parsed[0]) != 1 or not isinstance(parsed[0][0], ast.Return) or parsed[0][0].value is None:
            return None
        body = self._renamed(fn, args)
        assert body is not None
        return f"({ast.unparse(body[0].value)})"  # type: ignore[attr-defined]

    def boolean(self, fn: Callback) -> bool:
        """Whether the one ``return`` of ``fn`` (see :meth:`expression`) gives a ``bool``: a comparison, a ``not``,
        a call of the builtin ``isinstance`` (or ``issubclass``, ``callable``, ``hasattr``, ``bool``: not a name of
        the module's own), or ``and``/``or`` of such (so ``x == True`` is ``x``, and ``x == False`` is ``not x``).
        A comparison is taken to give one, as it does for numbers, text and the library's own values."""
        parsed = self._parse(fn)
        return parsed is not None and len(parsed[0]) == 1 and isinstance(parsed[0][0], ast.Return) and (
            _boolean(parsed[0][0].value, self.module))


def _mark_triggers(body: list[ast.stmt], model: str, marks: dict[str, str]) -> None:
    """Replace in ``body`` (and the blocks it holds) each statement ``<model>.trigger("name")`` by a placeholder
    name, kept in ``marks`` (placeholder -> trigger name)."""
    for i, stmt in enumerate(body):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "trigger"
                and isinstance(call.func.value, ast.Name) and call.func.value.id == model and not call.keywords
                and len(call.args) == 1 and isinstance(call.args[0], ast.Constant)
                and type(call.args[0].value) is str):
            mark = f"_nested_trigger_{len(marks)}"
            marks[mark] = call.args[0].value
            body[i] = ast.copy_location(ast.Expr(ast.Name(mark, ast.Load())), stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                _mark_triggers(block, model, marks)
        for handler in getattr(stmt, "handlers", ()):
            _mark_triggers(handler.body, model, marks)


#: Builtins that always give a ``bool``.
_BOOLEAN_BUILTINS = frozenset({"isinstance", "issubclass", "callable", "hasattr", "bool"})


def _boolean(node: ast.expr | None, module: Mapping[str, Any]) -> bool:
    """Whether the expression ``node``, read in ``module``'s globals, gives a ``bool`` (see :meth:`Fusion.boolean`)."""
    if isinstance(node, ast.Compare | ast.Constant):
        return not isinstance(node, ast.Constant) or type(node.value) is bool
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not)
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in _BOOLEAN_BUILTINS and node.func.id not in module
    return isinstance(node, ast.BoolOp) and all(_boolean(value, module) for value in node.values)


def _arguments(args: str) -> tuple[str, ...] | None:
    """The names a callback's parameters take in line for a call written ``args`` (``None``: any number)."""
    return None if "*" in args else tuple(name.strip() for name in args.strip("()").split(","))


def _writers(
    names: dict[str, Any], args: str, fusion: Fusion | None, depth: int = 0,
) -> tuple[Callable[[Callback], list[str]], Callable[[Callback, bool], str]]:
    """``(call, ask)``: the lines running a callback and the test that a condition gives the wanted answer,
    each called as ``args`` says (the callbacks called are put in ``names``), written in line where ``fusion``
    can (a nested trigger too, :func:`_nested`)."""
    arguments = _arguments(args)

    def ref(fn: Callback) -> str:
        name = f"f{len(names)}"
        names[name] = fn
        return name + args

    def nested(trigger: str) -> list[str] | None:
        return _nested(trigger, names, fusion, depth + 1) if fusion is not None else None

    def call(fn: Callback) -> list[str]:
        lines = None if fusion is None or arguments is None else fusion.statements(fn, arguments, nested)
        return [ref(fn)] if lines is None else [f"# {fn.__qualname__}, in line", *lines]

    def ask(fn: Callback, wanted: bool) -> str:
        """The test that ``fn``'s answer is ``wanted`` (compared with ``==``, as transitions does; a fused
        answer that is always a ``bool`` is used as it is)."""
        expression = None if fusion is None or arguments is None else fusion.expression(fn, arguments)
        if expression is None:
            return f"{ref(fn)} == {wanted}"
        if fusion is not None and fusion.boolean(fn):
            return expression if wanted else f"not {expression}"
        return f"{expression} == {wanted}"

    return call, ask


def _body(step: Step, call: Callable[[Callback], list[str]]) -> list[str]:
    """The lines of ``step`` once its conditions held: ``before``, the change of state, ``after``."""
    body = [line for fn in step.before for line in call(fn)]
    if step.dest is not None:
        body += [line for fn in step.exit for line in call(fn)]
        body.append(f"m.state = {step.dest!r}")
        body += [line for fn in step.enter for line in call(fn)]
    return body + [line for fn in step.after for line in call(fn)]


#: How deep nested triggers are written in line (a trigger whose callback fires a trigger whose callback...).
NESTING = 2


def _nested(trigger: str, names: dict[str, Any], fusion: Fusion, depth: int) -> list[str] | None:
    """The statement ``m.trigger(trigger)`` (no argument, its answer unused) written out, for the stage whose
    whole table ``fusion.table`` holds: for each state that has the trigger, its steps as :func:`fire` runs them
    (``prepare``, the conditions, the first that holds taken), nested rather than returning; in any other state
    ``m.trigger`` itself (which refuses it as the machine would). ``None``: not written out (no table, too deep)."""
    table = fusion.table
    if table is None or depth > NESTING:
        return None
    call, ask = _writers(names, "(m)", fusion, depth)
    lines: list[str] = []
    for state, name in table:
        if name != trigger:
            continue
        lines.append(f"{'elif' if lines else 'if'} m.state == {state!r}:")
        indent = "    "
        for step in table[(state, name)]:
            lines += [indent + line for fn in step.prepare for line in call(fn)]
            body = _body(step, call) or ["pass"]
            tests = " and ".join(ask(fn, wanted) for fn, wanted in step.conditions)
            if not tests:  # an unconditional step: later candidates are never tried
                lines += [indent + line for line in body]
                break
            lines += [f"{indent}if {tests}:", *(indent + "    " + line for line in body), f"{indent}else:"]
            indent += "    "
        else:
            lines.append(indent + "pass")  # no step taken: the trigger's answer (False) is unused
    if not lines:
        return None
    return [f"# m.trigger({trigger!r}), in line", *lines, "else:", f"    m.trigger({trigger!r})"]


def _source(
    steps: tuple[Step, ...], names: dict[str, Any], head: tuple[str, ...] = ("def fire(m, *a):",),
    args: str = "(m, *a)", passed: str | Callable[[Step], list[str]] = "return True", failed: str = "return False",
    fusion: Fusion | None = None,
) -> str:
    """Python source of ``fire(m, *a)`` for ``steps``; the callbacks it calls are put in ``names``.
    ``head`` replaces the ``def`` line (and may add statements run first), ``args`` is how each
    callback is called, and ``passed`` and ``failed`` end the function when a step passed (the line, or
    a function of the step giving its lines) or none did. With ``fusion``, what it can write in line is written
    in line rather than called."""
    call, ask = _writers(names, args, fusion)
    lines = list(head)
    for step in steps:
        lines += [f"    {line}" for fn in step.prepare for line in call(fn)]
        body = _body(step, call)
        body += [passed] if isinstance(passed, str) else passed(step)
        tests = " and ".join(ask(fn, wanted) for fn, wanted in step.conditions)
        if not tests:  # an unconditional step always passes: later candidates are never tried
            return "\n".join(lines + ["    " + line for line in body])
        lines.append(f"    if {tests}:")
        lines += ["        " + line for line in body]
    return "\n".join([*lines, "    " + failed])


#: The default of a generated trigger's first argument: none was given.
class _Nothing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING = _Nothing()


def _arities(steps: tuple[Step, ...], names: dict[str, Any], fusion: Fusion | None = None) -> str:
    """:func:`_source` with the steps written out three times: for a trigger with no argument,
    with one (the action it carries) and with any number. ``f(m, *a)`` builds a list and a tuple
    per call; the first two call each callback with its arguments spelt out (or fuse it), the one argument
    taken as a parameter of its own (``a0``, :data:`NOTHING` when none is given: no tuple to unpack)."""

    def body(args: str) -> list[str]:
        return ["    " + line for line in _source(steps, names, (), args, fusion=fusion).splitlines()]

    names["nothing"] = NOTHING
    return "\n".join(["def fire(m, a0=nothing, *a):", "    if a0 is nothing:", *body("(m)"), "    if not a:",
                      *body("(m, a0)"), *_source(steps, names, (), "(m, a0, *a)").splitlines()])


def _compiled(source: str, names: dict[str, Any], fusion: Fusion | None, made: str, steps: tuple[Step, ...]) -> Any:
    """The function ``made`` that ``source`` defines, calling what ``names`` holds. With fused bodies it
    runs in the stage module's globals (what they read), the callbacks it calls handed in as closure cells.
    The source is kept in ``linecache`` under a name of its own, so a traceback through it shows its lines."""
    if fusion is not None and fusion.count:
        refs = sorted(name for name in names if re.fullmatch(r"f\d+|fire|table|ends|nothing", name))
        source = "\n".join([f"def _make({', '.join(refs)}):", *("    " + line for line in source.splitlines()),
                            f"    return {made}"])
    owners = sorted({fn.__qualname__.rpartition(".")[0] for step in steps for fn in _step_functions(step)
                     if hasattr(fn, "__qualname__")})
    filename = f"<generated {made} {next(_SERIAL)}: {', '.join(owners)[:200]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec")  # built from the machine's own steps and the callbacks' own code
    if fusion is None or not fusion.count:
        exec(code, names)
        return names[made]
    scratch: dict[str, Any] = {}
    exec(code, scratch)
    make = types.FunctionType(scratch["_make"].__code__, fusion.module, "_make")
    return make(*(names[name] for name in refs))


def _step_functions(step: Step) -> tuple[Callback, ...]:
    return (*step.prepare, *(c for c, _ in step.conditions), *step.before, *step.exit, *step.enter, *step.after)


def _fusion(table: dict[tuple[str, str], tuple[Step, ...]],
            whole: dict[tuple[str, str], tuple[Step, ...]] | None = None) -> Fusion | None:
    """A :class:`Fusion` for the module most of the table's callbacks come from (``None``: no Python callbacks);
    ``whole``: the stage's whole table, whose triggers a callback fires are written in line."""
    counts: dict[int, tuple[int, dict[str, Any]]] = {}
    for steps in table.values():
        for step in steps:
            for fn in _step_functions(step):
                module = getattr(fn, "__globals__", None)
                if isinstance(module, dict):
                    counts[id(module)] = (counts.get(id(module), (0, module))[0] + 1, module)
    if not counts:
        return None
    return Fusion(max(counts.values(), key=lambda pair: pair[0])[1], whole)


def generate_start(
    table: dict[tuple[str, str], tuple[Step, ...]], initial: str, endings: Mapping[str, Callable[[Any], Any]] = {},
    fuse: bool = True,
) -> Callable[[Any, Any, Any], Any]:
    """``start(m, ctx, previous)``: what :meth:`cardgame.engine.Stage.start` does -- keep the context
    and the previous result, enter ``initial``, fire ``begin`` and return the outcome of the final
    state it reached (``endings[state](m)``; ``None``: the stage waits for input) -- as one generated
    function, the ``begin`` steps written in line (see :func:`generate`; ``fuse``: the callbacks'
    bodies too where they can be). Each step ends with its destination's ending written out (in line
    too where it can be: a question that is one ``return``, or the outcome an ending marked ``always``
    gives): at once when nothing runs after the state
    is set, else when the state is still the destination (a callback may have fired another trigger),
    and otherwise by looking the state up."""
    head = ("def start(m, ctx, previous):", "    m.ctx = ctx", "    m.previous = previous",
            f"    m.state = {initial!r}")
    names: dict[str, Any] = {"fire": fire, "table": table, "ends": dict(endings)}
    done = "e = ends.get(m.state); return None if e is None else e(m)" if endings else "return None"
    steps = table.get((initial, "begin"))
    fusion = _fusion({(initial, "begin"): steps}) if fuse and steps is not None else None

    def ended(step: Step) -> list[str]:
        """The lines returning the ending of ``step``'s destination."""
        if step.dest is None:
            return [done]
        end = endings.get(step.dest)
        always = getattr(end, "always", None)  # an ending that always gives the same outcome: that value
        fused = fusion.expression(end, ("m",)) if fusion is not None and end is not None and always is None else None
        if end is None:
            given = "None"
        elif fused is not None:
            given = fused
        else:
            given = f"f{len(names)}" if always is not None else f"f{len(names)}(m)"
            names[f"f{len(names)}"] = always if always is not None else end
        if not (step.enter or step.after):  # nothing runs between setting the state and this line
            return [f"return {given}"]
        return [f"if m.state != {step.dest!r}:", f"    {done}", f"return {given}"]

    if steps is None:  # no begin from the initial state: fire raises MachineError, as the machine would
        source = "\n".join([*head, "    fire(table, m, 'begin')"])
    else:
        source = _source(steps, names, head, "(m)", ended, done, fusion)
    start: Callable[[Any, Any, Any], Any] = _compiled(source, names, fusion, "start", steps or ())
    return start


def generate(
    table: dict[tuple[str, str], tuple[Step, ...]], fuse: bool = True, nest: bool = True,
) -> dict[tuple[str, str], Fast]:
    """One function per ``(state, trigger)`` of ``table`` doing what :func:`fire` does with its steps
    (for a plain transition, its destination: see :data:`Fast`); with ``fuse``, the callbacks and
    conditions that can be are written in line (:class:`Fusion`), and with ``nest`` too the triggers a fused
    callback fires (``self.trigger("name")``, as :meth:`cardgame.engine.Stage.trigger` fires them: the
    stage's state looked up, its steps from ``table``)."""
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
        fusion = _fusion({key: steps}, table if nest else None) if fuse else None
        fast[key] = made[steps] = _compiled(_arities(steps, names, fusion), names, fusion, "fire", steps)
    return fast
