"""Diagrams drawn from the machines themselves, as mermaid or graphviz ``dot`` text.

A stage class's machine comes from its compiled table (:func:`~cardgame.engine.machine.compile_machine`):
one edge per step (in ``dot``, one per pair of states, listing its steps), labelled ``trigger
(prepare p) [conditions] / callbacks`` with the callbacks in the order they run (``before``, the
states' ``on_exit`` and ``on_enter``, ``after``). What a state gives is drawn too: ``ends: <its
ending>`` for a final state (in mermaid an arrow to the end, in ``dot`` under the state's name, with a
double border), ``pushes: <method>`` for a state that runs a sub-stage (a loop; under the name).

A stage list is drawn as the dispatcher runs it (:class:`~cardgame.engine.Dispatcher`): each stage
hands its result to the next (the edge names the result's type, from ``gives``, following a stage
that passes on what it was given, as :func:`~cardgame.engine.check_fit` does); a ``goes_to`` stage may
jump to the next later stage of that name (``Goto``). What else a stage may do is read from its
``ends`` (a final state whose ending is the kernel's ``restarted`` or ``exited``) and its code: in the
methods of the class (its source), calls of ``Restart()``, ``Exit()`` and ``Push(Sub(...))`` where
``Sub`` names a stage class: ``restart`` goes
back to the first stage, ``exit`` stops the game, and a pushed sub-stage runs on top and hands its
result back. Several stages of one class share one machine: :func:`machine_classes` lists each once.
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from cardgame.engine.outcomes import Exit, Push, Restart
from cardgame.engine.stage import PASSES_ON, Stage

__all__ = [
    "Edge",
    "Endings",
    "Flow",
    "endings",
    "flow",
    "machine_classes",
    "machine_dot",
    "machine_mermaid",
    "machines_dot",
    "machines_markdown",
    "stage_list_dot",
    "stage_list_mermaid",
    "variant_dot",
    "variant_markdown",
]

StageClass = type[Stage[Any]]


# --- one machine ------------------------------------------------------------------------------------
def _label(trigger: str, step: Any) -> str:
    """``trigger (prepare p, q) [c and not d] / before, exit, enter, after`` for one compiled step."""
    label = trigger
    if step.prepare:
        label += f" (prepare {', '.join(fn.__name__ for fn in step.prepare)})"
    conds = [("" if wanted else "not ") + fn.__name__ for fn, wanted in step.conditions]
    if conds:
        label += f" [{' and '.join(conds)}]"
    calls = [fn.__name__ for fn in (*step.before, *step.exit, *step.enter, *step.after)]
    if calls:
        label += " / " + ", ".join(calls)
    return label


def _steps(cls: StageClass) -> Iterator[tuple[str, str, str]]:
    """``(source, dest, label)`` per compiled step, in the table's order (an internal step stays put)."""
    for (source, trigger), steps in cls.table.items():
        if trigger in cls.everywhere:  # taken in every state: listed once, not drawn on each
            continue
        for step in steps:
            yield source, step.dest or source, _label(trigger, step)


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;")


END = "[end]"  # where a final state's arrow goes (mermaid's [*])


def _gives(cls: StageClass) -> dict[str, str]:
    """``state -> "ends: <method>"`` for each final state, ``"pushes: <method>"`` for each state running a sub-stage."""
    return {state: f"{'ends' if state in cls._final else 'pushes'}: {name}"
            for state, name in {**cls.ends, **cls.pushes}.items() if state in cls._endings}


def _parallel(cls: StageClass, gives: bool = False) -> dict[tuple[str, str], list[str]]:
    """``(source, dest) -> the labels of its steps`` in the table's order: one arrow per pair of states; with
    ``gives``, then each final state's arrow to :data:`END` and each pushing state's loop, labelled as
    :func:`_gives` says."""
    found: dict[tuple[str, str], list[str]] = {}
    for source, dest, label in _steps(cls):
        found.setdefault((source, dest), []).append(label)
    if gives:
        for state, label in _gives(cls).items():
            found.setdefault((state, END if state in cls._final else state), []).append(label)
    return found


def machine_mermaid(cls: StageClass) -> str:
    """A mermaid ``stateDiagram-v2`` of ``cls``'s compiled machine (no fence); the steps between two states
    share one arrow with every step's label on a line of its own (mermaid draws one label per pair)."""
    names: dict[str, str] = {}
    lines = ["stateDiagram-v2"]
    for i, state in enumerate(cls.machine.states):
        if _PLAIN.match(state):
            names[state] = state
        else:  # a state name mermaid cannot take as an id: declared under one it can
            names[state] = f"state{i}"
            lines.append(f'    state "{_mermaid_text(state)}" as state{i}')
    lines.append(f"    [*] --> {names[cls.initial]}")
    names[END] = "[*]"
    for (source, dest), labels in _parallel(cls, gives=True).items():
        lines.append(f"    {names[source]} --> {names[dest]}: {'<br/>'.join(_mermaid_text(x) for x in labels)}")
    return "\n".join(lines)


def _dot_text(text: str, left: bool = False) -> str:
    """``text`` as a quoted dot string, its lines centred (``left``: left-justified)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + (text.replace("\n", "\\l") + "\\l" if left else text.replace("\n", "\\n")) + '"'


_DOT_STYLE = ('    node [shape=box, style=rounded, fontname="Helvetica"];',
              '    edge [fontname="Helvetica", fontsize=10];')


_DOT_WIDTH = 40  # characters a line of an edge's label in dot (mermaid lays its labels out itself)


def _machine_dot_body(cls: StageClass, prefix: str = "") -> list[str]:
    start = _dot_text(prefix + "[*]")
    lines = [f'    {start} [shape=point, label=""];']
    gives = _gives(cls)  # a final state drawn with a double border, what it gives under its name
    for state in cls.machine.states:
        label = state + ("\n" + gives[state] if state in gives else "")
        lines.append(f"    {_dot_text(prefix + state)} [label={_dot_text(label)}"
                     f"{', peripheries=2' if state in cls._final else ''}];")
    lines.append(f"    {start} -> {_dot_text(prefix + cls.initial)};")
    for (source, dest), steps in _parallel(cls).items():
        labels = [textwrap.fill(label, _DOT_WIDTH, subsequent_indent="    ", break_on_hyphens=False,
                                break_long_words=False) for label in steps]
        lines.append(f"    {_dot_text(prefix + source)} -> {_dot_text(prefix + dest)} "
                     f"[label={_dot_text(chr(10).join(labels), left=True)}];")
    return lines


def _title(cls: StageClass) -> str:
    return f"{cls.name} ({cls.__name__})"


def machine_dot(cls: StageClass) -> str:
    """A graphviz ``digraph`` of ``cls``'s compiled machine; the steps between two states share one arrow,
    their labels one after another in the table's order (wrapped, so that the image stays readable)."""
    head = [f"digraph {_dot_text(cls.__name__)} {{", f"    label={_dot_text(_title(cls))};", "    labelloc=t;",
            *_DOT_STYLE]
    return "\n".join([*head, *_machine_dot_body(cls), "}"])


# --- what a stage may do besides finishing ----------------------------------------------------------
@attrs.frozen
class Endings:
    """How a stage class may end besides ``Done`` and its ``goes_to``: ``restart``, ``exit``, and the
    stage classes it may push."""

    restart: bool = False
    exit: bool = False
    pushes: tuple[StageClass, ...] = ()


def _methods(cls: StageClass) -> Iterator[Callable[..., Any]]:
    """The functions defined by ``cls`` and its bases below :class:`Stage` (not the kernel's own)."""
    for klass in cls.__mro__:
        if klass is Stage or not (isinstance(klass, type) and issubclass(klass, Stage)):
            continue
        for value in vars(klass).values():
            fn = value.fget if isinstance(value, property) else value
            if inspect.isfunction(fn):
                yield fn


def _called(node: ast.expr, fn: Callable[..., Any]) -> Any:
    """The object a call's function names, looked up in ``fn``'s module (``None`` if not a plain name)."""
    if isinstance(node, ast.Name):
        return fn.__globals__.get(node.id)
    return None


def _calls(fn: Callable[..., Any]) -> Iterator[ast.Call]:
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):  # no source (built in a REPL or by exec): nothing to read
        return
    yield from (node for node in ast.walk(tree) if isinstance(node, ast.Call))


def _stage_class(value: Any) -> StageClass | None:
    return value if isinstance(value, type) and issubclass(value, Stage) else None


_ENDINGS: weakref.WeakKeyDictionary[type, Endings] = weakref.WeakKeyDictionary()  # class -> what it may do


def endings(cls: StageClass) -> Endings:
    """How ``cls`` may end besides ``Done`` and ``goes_to``, read from its machine and its methods' source."""
    found = _ENDINGS.get(cls)
    if found is None:
        found = _ENDINGS[cls] = _read_endings(cls)
    return found


def _read_endings(cls: StageClass) -> Endings:
    restart = exit_ = False
    pushes: list[StageClass] = []
    for end in cls._endings.values():
        restart = restart or end is Stage.restarted
        exit_ = exit_ or end is Stage.exited
    for fn in _methods(cls):
        for call in _calls(fn):
            named = _called(call.func, fn)
            restart = restart or named is Restart
            exit_ = exit_ or named is Exit
            if named is Push and call.args and isinstance(call.args[0], ast.Call):
                sub = _stage_class(_called(call.args[0].func, fn))
                if sub is not None and sub not in pushes:
                    pushes.append(sub)
    return Endings(restart, exit_, tuple(pushes))


# --- the stage list ---------------------------------------------------------------------------------
@attrs.frozen
class Edge:
    """An edge of a stage list's flow: ``kind`` is done, goto, push, result (a sub-stage's back to
    the stage that pushed it), restart or exit."""

    source: str
    dest: str
    kind: str
    label: str


@attrs.frozen
class Flow:
    """A stage list as the dispatcher runs it: ``nodes`` (id, label) and ``edges``."""

    nodes: tuple[tuple[str, str], ...]
    edges: tuple[Edge, ...]


STOP = "stop"  # the node an exit goes to


def _type_names(types: Sequence[type]) -> str:
    return " or ".join("None" if t is type(None) else t.__name__ for t in types)


def flow(stages: Sequence[Stage[Any]]) -> Flow:
    """The nodes and edges of ``stages`` as the dispatcher runs them (see the module's docstring)."""
    nodes: list[tuple[str, str]] = [(f"s{i}", stage.label) for i, stage in enumerate(stages)]
    edges: list[Edge] = []
    incoming: tuple[type, ...] = (type(None),)
    stops = False
    for i, stage in enumerate(stages):
        cls = type(stage)
        if cls.gives is not PASSES_ON:
            incoming = cls.gives
        if incoming and i + 1 < len(stages):
            edges.append(Edge(f"s{i}", f"s{i + 1}", "done", _type_names(incoming)))
        for target in cls.goes_to:
            j = next((j for j in range(i + 1, len(stages)) if stages[j].name == target), None)
            if j is not None:
                edges.append(Edge(f"s{i}", f"s{j}", "goto", "goto"))
        ends = endings(cls)
        for k, sub in enumerate(ends.pushes):
            node = f"s{i}p{k}"
            nodes.append((node, sub.name))
            back = "result" if sub.gives is PASSES_ON else _type_names(sub.gives)  # passes on: what it was pushed with
            edges += [Edge(f"s{i}", node, "push", "push"), Edge(node, f"s{i}", "result", back)]
        if ends.restart:
            edges.append(Edge(f"s{i}", "s0", "restart", "restart"))
        if ends.exit:
            edges.append(Edge(f"s{i}", STOP, "exit", "exit"))
            stops = True
    if stops:
        nodes.append((STOP, "game over"))
    return Flow(tuple(nodes), tuple(edges))


_MERMAID_ARROWS = {"done": "-->", "goto": "-.->", "push": "-.->", "result": "-.->", "restart": "==>", "exit": "-->"}


def stage_list_mermaid(stages: Sequence[Stage[Any]]) -> str:
    """A mermaid ``flowchart`` of ``stages`` (no fence): see :func:`flow`."""
    drawn = flow(stages)
    lines = ["flowchart TD"]
    for node, label in drawn.nodes:
        shape = '(["{}"])' if node == STOP else '["{}"]'
        lines.append(f"    {node}{shape.format(_mermaid_text(label))}")
    for e in drawn.edges:
        lines.append(f'    {e.source} {_MERMAID_ARROWS[e.kind]}|"{_mermaid_text(e.label)}"| {e.dest}')
    return "\n".join(lines)


_DOT_EDGES = {"done": "", "goto": ", style=dashed", "push": ", style=dashed", "result": ", style=dashed",
              "restart": ", style=bold", "exit": ""}


def _stage_list_dot_body(stages: Sequence[Stage[Any]], prefix: str = "") -> list[str]:
    drawn = flow(stages)
    lines = []
    for node, label in drawn.nodes:
        shape = ", shape=ellipse, style=solid" if node == STOP else ""
        lines.append(f"    {_dot_text(prefix + node)} [label={_dot_text(label)}{shape}];")
    for e in drawn.edges:
        lines.append(f"    {_dot_text(prefix + e.source)} -> {_dot_text(prefix + e.dest)} "
                     f"[label={_dot_text(e.label)}{_DOT_EDGES[e.kind]}];")
    return lines


def stage_list_dot(stages: Sequence[Stage[Any]]) -> str:
    """A graphviz ``digraph`` of ``stages``: see :func:`flow`."""
    return "\n".join(["digraph stages {", *_DOT_STYLE, *_stage_list_dot_body(stages), "}"])


# --- a whole variant --------------------------------------------------------------------------------
def machine_classes(stages: Sequence[Stage[Any]]) -> list[StageClass]:
    """Each stage class of ``stages`` once, in order, with the classes they may push after each."""
    found: list[StageClass] = []
    for stage in stages:
        for cls in (type(stage), *endings(type(stage)).pushes):
            if cls not in found:
                found.append(cls)
    return found


def variant_markdown(stages: Sequence[Stage[Any]], level: int = 2) -> str:
    """Markdown: the stage list, then each class's machine, as ``mermaid`` blocks under headings of ``level``."""
    hashes = "#" * level
    return (f"{hashes} Stages\n\n```mermaid\n{stage_list_mermaid(stages)}\n```\n\n"
            + machines_markdown(machine_classes(stages), level) + "\n")


def variant_dot(stages: Sequence[Stage[Any]], title: str = "") -> str:
    """One graphviz ``digraph``: the stage list and each class's machine, a cluster each, stacked one
    under another (side by side they make an image too wide to read)."""
    return machines_dot(machine_classes(stages), title, stages)


def machines_dot(classes: Sequence[StageClass], title: str = "", stages: Sequence[Stage[Any]] = ()) -> str:
    """One graphviz ``digraph`` of ``classes``' machines (after the stage list ``stages``, if any), a
    cluster each, stacked by invisible edges from one cluster's last state to the next one's start."""
    lines = ["digraph variant {", "    compound=true;", *_DOT_STYLE]
    if title:
        lines += [f"    label={_dot_text(title)};", "    labelloc=t;"]
    below: str | None = None  # the node the next cluster goes under
    if stages:
        lines += ['    subgraph "cluster_stages" {', '    label="Stages";',
                  *_stage_list_dot_body(stages, "stages."), "    }"]
        below = f"stages.s{len(stages) - 1}"
    for cls in classes:
        prefix = cls.__name__ + "."
        lines += [f"    subgraph {_dot_text('cluster_' + cls.__name__)} {{", f"    label={_dot_text(_title(cls))};",
                  *_machine_dot_body(cls, prefix), "    }"]
        if below is not None:
            lines.append(f"    {_dot_text(below)} -> {_dot_text(prefix + '[*]')} [style=invis];")
        below = prefix + list(cls.machine.states)[-1]
    lines.append("}")
    return "\n".join(lines)


def machines_markdown(classes: Sequence[StageClass], level: int = 2) -> str:
    """Markdown: each of ``classes``' machines as a ``mermaid`` block under a heading of ``level``."""
    hashes = "#" * level
    return "\n\n".join(f"{hashes} {_title(cls)}\n\n```mermaid\n{machine_mermaid(cls)}\n```" for cls in classes)
