"""The stage: one small state machine of a game (wait for players, blinds, deal, bet, showdown).

A stage class declares its ``states`` and ``transitions`` as class attributes; the
``transitions`` machine is built once per class (``model=None``), and events are fired on stage
objects, so no machine is built per hand or per instance.

Lifecycle: the dispatcher calls :meth:`Stage.start` with the context and the previous stage's
result; the stage fires ``begin`` and runs :meth:`on_start`. It then handles events
(:meth:`handle` calls ``on_<event>``) until it ends in exactly one way:

* :meth:`finish` ``(result)`` -- done; the dispatcher starts the next stage with ``result``;
* :meth:`restart` -- the dispatcher resets the stack to the variant's full list (next hand);
* :meth:`exit` -- the game stops cleanly;
* :meth:`fail` ``(reason)`` -- the game stops with an error.

Each of these fires the ``end`` trigger (any state to ``done``).

Triggers on the hot path: ``transitions`` builds and validates each class's graph once. A
transition with no callbacks or conditions (all of the library's) is applied from a table compiled
from that machine, ``(state, event) -> dest``: the same result as ``machine.events[e].trigger``
in a dictionary lookup instead of about 12 microseconds. Transitions with callbacks or
conditions, and triggers the graph does not allow (``MachineError``), go through the machine.
"""

from __future__ import annotations

from typing import Any, ClassVar

from transitions import Machine

from cardgame.context import Context
from cardgame.errors import IllegalActionError, StageError

__all__ = ["Done", "Exit", "Failed", "Outcome", "Restart", "Stage"]


class Outcome:
    """How a stage ended: an immutable value that compares equal to one of its type and fields.

    Plain slotted classes rather than attrs ones: a stage ends a dozen times a hand, and the
    compiled build makes these native (about five times quicker to create than a frozen attrs
    instance). The fields are read-only properties.
    """

    __slots__ = ()

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Outcome) and other._fields() == self._fields()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in self._fields())
        return f"{type(self).__name__}({inner})"


class Done(Outcome):
    """Finished with ``result``, which the next stage starts with."""

    __slots__ = ("_result",)

    def __init__(self, result: Any = None) -> None:
        self._result = result

    @property
    def result(self) -> Any:
        return self._result

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (("result", self._result),)


class Restart(Outcome):
    """Start the variant's stage list again: the next hand."""

    __slots__ = ()


class Exit(Outcome):
    """Stop the game cleanly."""

    __slots__ = ()


class Failed(Outcome):
    """Stop the game with an error: ``reason``, in stage ``stage`` and machine state ``state``."""

    __slots__ = ("_reason", "_stage", "_state")

    def __init__(self, reason: str, stage: str = "", state: str = "") -> None:
        self._reason = reason
        self._stage = stage
        self._state = state

    @property
    def reason(self) -> str:
        return self._reason

    @property
    def stage(self) -> str:
        return self._stage

    @property
    def state(self) -> str:
        return self._state

    def _fields(self) -> tuple[tuple[str, Any], ...]:
        return (("reason", self._reason), ("stage", self._stage), ("state", self._state))


_RESTART, _EXIT = Restart(), Exit()  # no fields: one frozen instance each serves every stage


def _direct_table(machine: Machine) -> dict[tuple[str, str], str]:
    """``(source, event) -> dest`` for every transition that runs no callback or condition."""
    hooks = (machine.before_state_change, machine.after_state_change, machine.prepare_event,
             machine.finalize_event, machine.on_exception)
    if any(hooks):
        return {}
    table: dict[tuple[str, str], str] = {}
    for name, event in machine.events.items():
        for source, candidates in event.transitions.items():
            if len(candidates) != 1:
                continue
            t = candidates[0]
            if t.conditions or t.before or t.after or t.prepare or t.dest is None:
                continue
            src, dst = machine.states[source], machine.states[t.dest]
            if src.on_exit or dst.on_enter:
                continue
            table[(source, name)] = t.dest
    return table


class Stage:
    """Base class of every stage. Subclasses set ``name`` and extend ``states``/``transitions``.

    Extension points (class attributes): ``name``, ``states``, ``transitions``, ``initial``,
    ``events`` (the event names the stage accepts while running, for error messages),
    ``skip_when_won``.
    Stage objects compare by identity and keep a writable ``state``, as ``transitions`` needs.
    """

    name: ClassVar[str] = "stage"
    states: ClassVar[list[str]] = ["ready", "running", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "running"},
        {"trigger": "end", "source": "*", "dest": "done"},
    ]
    initial: ClassVar[str] = "ready"
    events: ClassVar[tuple[str, ...]] = ()
    #: Instance attributes a snapshot keeps besides ``state`` and ``outcome`` (runtime state that
    #: the stage's constructor does not set up again); see :mod:`cardgame.snapshot`.
    snapshot_fields: ClassVar[tuple[str, ...]] = ()
    #: True for a stage with nothing to do once every player but one has folded (dealing,
    #: betting, drawing): the dispatcher then hands the previous result to the next stage
    #: without starting this one. A stage that must run in every hand leaves it False.
    skip_when_won: ClassVar[bool] = False
    machine: ClassVar[Machine]
    _direct: ClassVar[dict[tuple[str, str], str]]
    _begin: ClassVar[str | None]  # where ``begin`` leads from ``initial`` when it runs no callback
    _end_from: ClassVar[dict[str, str]]  # ``end``'s callback-free transitions, by source state
    _handlers: ClassVar[dict[str, str]]

    __slots__ = ("ctx", "outcome", "parent", "state")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.machine = Machine(
            model=None,
            states=cls.states,
            transitions=cls.transitions,
            initial=cls.initial,
            auto_transitions=False,
            send_event=False,
        )
        cls._direct = direct = _direct_table(cls.machine)
        cls._begin = direct.get((cls.initial, "begin"))
        cls._end_from = {src: dst for (src, event), dst in direct.items() if event == "end"}
        cls._handlers = {event: "on_" + event for event in cls.events}

    def __init__(self) -> None:
        self.state: str = self.initial
        self.outcome: Outcome | None = None
        self.parent: Stage | None = None
        self.ctx: Context = None  # type: ignore[assignment]  # set by start()

    # --- driven by the dispatcher -----------------------------------------------------------------
    def start(self, ctx: Context, previous: Any) -> None:
        """Begin with the context and the previous stage's result (``None`` after a restart)."""
        self.ctx = ctx
        self.outcome = None
        dest = self._begin
        if dest is None:
            self.state = self.initial
            type(self).machine.events["begin"].trigger(self)
        else:
            self.state = dest
        self.on_start(previous)

    def trigger(self, event: str) -> None:
        """Fire ``event`` on this stage's class machine (see the module notes on the fast path)."""
        dest = self._direct.get((self.state, event))
        if dest is not None:
            self.state = dest
        else:
            type(self).machine.events[event].trigger(self)

    def handle(self, event: str, *args: Any, **kwargs: Any) -> Any:
        """Dispatch ``event`` to ``on_<event>``; unknown events raise :class:`IllegalActionError`."""
        if self.outcome is not None:
            raise StageError(f"Stage {self.name} has already ended; it cannot take {event!r}.")
        name = self._handlers.get(event)
        method = getattr(self, name, None) if name is not None else None
        if method is None:
            allowed = ", ".join(self.events) or "no events"
            raise IllegalActionError(
                f"The {self.name} stage does not take {event!r}; it takes {allowed}.",
                rule="event not accepted by the current stage",
                allowed=allowed,
            )
        return method(*args, **kwargs)

    # --- hooks for subclasses -----------------------------------------------------------------------
    def on_start(self, previous: Any) -> None:
        """Do the stage's work; end at once with :meth:`finish` if there is nothing to wait for."""

    def on_substage_result(self, result: Any) -> None:
        """A sub-stage pushed on top of this one finished with ``result``."""
        raise StageError(f"Stage {self.name} pushed a sub-stage but does not take its result.")

    def on_table_change(self) -> None:
        """Seats or stacks changed (sit down, leave...) while this stage runs."""

    # --- ending ---------------------------------------------------------------------------------
    def _end(self, outcome: Outcome) -> None:
        if self.outcome is not None:
            raise StageError(f"Stage {self.name} ended twice ({self.outcome} then {outcome}).")
        self.outcome = outcome
        dest = self._end_from.get(self.state)
        if dest is None:
            type(self).machine.events["end"].trigger(self)
        else:
            self.state = dest

    def finish(self, result: Any = None) -> None:
        self._end(Done(result))

    def restart(self) -> None:
        self._end(_RESTART)

    def exit(self) -> None:
        self._end(_EXIT)

    def fail(self, reason: str) -> None:
        self._end(Failed(reason, self.name, self.state))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.state}>"
