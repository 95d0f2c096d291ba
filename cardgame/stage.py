"""The stage: one small state machine of a game (wait for players, blinds, deal, bet, showdown).

A stage class declares its machine as class attributes: ``states``, and ``transitions`` whose
``conditions`` and callbacks (``prepare``, ``before``, ``after``) name the stage's own methods, so
the machine says what the stage does (the betting round's ``acted`` goes to ``round_closed`` when
``round_complete``). ``transitions`` builds the machine once per class (``model=None``,
``auto_transitions=False``); :mod:`cardgame.machine` compiles it to a table that fires triggers in
the same order, and :meth:`Stage.trigger` runs it. Callbacks take no arguments.

Lifecycle: the dispatcher calls :meth:`Stage.start` with the context and the previous stage's
result, kept as ``previous``; the stage fires ``begin``. It then handles events (:meth:`handle`
calls ``on_<event>``, which validates and fires a trigger) until it ends in exactly one way:

* :meth:`finish` ``(result)`` -- done; the dispatcher starts the next stage with ``result``;
* :meth:`goto` ``(name, result)`` -- done, and the stages before the later stage called ``name``
  have nothing to do (a hand won before the showdown says ``goto("showdown")``);
* :meth:`restart` -- the dispatcher resets the stack to the variant's full list (next hand);
* :meth:`exit` -- the game stops cleanly;
* :meth:`fail` ``(reason)`` -- the game stops with an error.

Each of these fires the ``end`` trigger (any state to ``done``). A stage runs a sub-stage on top of
itself with ``self.ctx.push(sub, previous)``; the sub-stage's result comes back to
:meth:`Stage.on_substage_result`.

``takes`` and ``gives`` declare the result types a stage starts with and ends with (``gives =
PASSES_ON``: it hands on what it was given); :func:`check_fit` refuses a stage list whose
neighbours do not fit, naming the pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
from transitions import Machine

from cardgame.context import Context
from cardgame.errors import ConfigError, IllegalActionError, StageError
from cardgame.machine import Fast, Step, compile_machine, fire, generate, generate_start
from cardgame.records import fast_init

__all__ = ["PASSES_ON", "Done", "Exit", "Failed", "Goto", "Outcome", "Restart", "Stage", "Stages", "check_fit"]


class Outcome:
    """How a stage ended: :class:`Done`, :class:`Goto`, :class:`Restart`, :class:`Exit` or :class:`Failed`."""

    __slots__ = ()


@fast_init
@attrs.frozen
class Done(Outcome):
    """Finished with ``result``, which the next stage starts with."""

    result: Any = None


@fast_init
@attrs.frozen
class Goto(Outcome):
    """Finished with ``result``, which the later stage called ``stage`` starts with; the stages
    between have nothing to do."""

    stage: str
    result: Any = None


@attrs.frozen
class Restart(Outcome):
    """Start the variant's stage list again: the next hand."""


@attrs.frozen
class Exit(Outcome):
    """Stop the game cleanly."""


@fast_init
@attrs.frozen
class Failed(Outcome):
    """Stop the game with an error: ``reason``, in stage ``stage`` and machine state ``state``."""

    reason: str
    stage: str = ""
    state: str = ""


_RESTART, _EXIT = Restart(), Exit()  # no fields: one instance each serves every stage

class _PassesOn:
    """Marker type: the stage hands on the result it was given."""


#: ``gives`` of a stage that hands on the result it was given (dealing cards, for one).
PASSES_ON: tuple[type, ...] = (_PassesOn,)


class Stage:
    """Base class of every stage. Subclasses set ``name`` and their machine.

    Extension points (class attributes): ``name``, ``states``, ``transitions``, ``initial``,
    ``events`` (the event names the stage accepts while running), ``takes`` and ``gives`` (result
    types; ``gives = PASSES_ON`` hands on what was given), ``goes_to`` (names of later stages
    :meth:`goto` may name), ``snapshot_fields``. The base machine is ``ready --begin--> running``
    (after ``on_start``) and ``end`` from any state to ``done``.
    Stage objects compare by identity and keep a writable ``state``, as ``transitions`` needs.

    How the stage ended is :attr:`outcome` (``None`` while it runs). The dispatcher reads it in two
    parts, with nothing built on the path every stage takes: ``ending`` is the class :class:`Done`
    for a finish, its result in ``result``, else the :class:`Outcome` itself.
    """

    name: ClassVar[str] = "stage"
    states: ClassVar[list[str]] = ["ready", "running", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "running", "after": "on_start"},
        {"trigger": "end", "source": "*", "dest": "done"},
    ]
    initial: ClassVar[str] = "ready"
    events: ClassVar[tuple[str, ...]] = ()
    takes: ClassVar[tuple[type, ...]] = (object,)
    gives: ClassVar[tuple[type, ...]] = PASSES_ON
    goes_to: ClassVar[tuple[str, ...]] = ()
    #: Instance attributes a snapshot keeps besides ``state``, ``outcome`` and ``previous``
    #: (runtime state that the constructor does not set up again); see :mod:`cardgame.snapshot`.
    snapshot_fields: ClassVar[tuple[str, ...]] = ()
    machine: ClassVar[Machine]
    table: ClassVar[dict[tuple[str, str], tuple[Step, ...]]]
    fast: ClassVar[dict[tuple[str, str], Fast]]
    _handlers: ClassVar[dict[str, Any]]
    #: ``fast[(initial, "begin")]``, looked up once per class (``None``: no such transition).
    _begin: ClassVar[Fast | None]
    #: The state ``end`` goes to when it is a plain transition from every state, else ``None``.
    _end_to: ClassVar[str | None]

    __slots__ = ("ctx", "ending", "parent", "previous", "result", "state")

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
        cls.table = compile_machine(cls, cls.machine)
        cls.fast = fast = generate(cls.table)
        cls._handlers = {event: getattr(cls, "on_" + event, None) for event in cls.events}
        begin = fast.get((cls.initial, "begin"))
        # a function is kept as a staticmethod, so that ``self._begin`` is the plain function
        setattr(cls, "_begin", staticmethod(begin) if callable(begin) else begin)  # noqa: B010
        inherited = cls.start
        if inherited is Stage.start or getattr(inherited, "generated", False):  # not a start of the class's own
            start: Any = generate_start(cls.table, cls.initial)
            start.generated, start.__doc__ = True, Stage.start.__doc__
            setattr(cls, "start", start)  # noqa: B010  # Stage.start, with the begin steps written in line
        ends = {fast.get((state, "end")) for state in cls.machine.states}
        only = ends.pop() if len(ends) == 1 else None
        cls._end_to = only if type(only) is str else None

    def __init__(self) -> None:
        self.state: str = self.initial
        self.ending: type[Done] | Outcome | None = None
        self.result: Any = None
        self.parent: Stage | None = None
        self.previous: Any = None
        self.ctx: Context = None  # type: ignore[assignment]  # set by start()

    # --- driven by the dispatcher -----------------------------------------------------------------
    def start(self, ctx: Context, previous: Any) -> None:
        """Begin with the context and the previous stage's result (``None`` after a restart)."""
        self.ctx = ctx
        self.ending = self.result = None
        self.previous = previous
        self.state = self.initial
        fn = self._begin
        if type(fn) is str:
            self.state = fn
        elif fn is None:
            fire(self.table, self, "begin")  # raises MachineError: the machine has no begin here
        else:
            fn(self)  # type: ignore[operator]

    @property
    def outcome(self) -> Outcome | None:
        """How the stage ended (``Done(result)``, a :class:`Goto`...), ``None`` while it runs."""
        ending = self.ending
        return Done(self.result) if ending is Done else ending  # type: ignore[return-value]

    @outcome.setter
    def outcome(self, outcome: Outcome | None) -> None:
        if type(outcome) is Done:
            self.ending, self.result = Done, outcome.result
        else:
            self.ending, self.result = outcome, None

    def trigger(self, event: str) -> bool:
        """Fire ``event`` on this stage's machine; ``False`` when no transition's conditions held."""
        fn = self.fast.get((self.state, event))
        if type(fn) is str:  # a plain transition
            self.state = fn
            return True
        return fire(self.table, self, event) if fn is None else fn(self)  # type: ignore[operator]  # fire raises

    def handle(self, event: str, *args: Any, **kwargs: Any) -> Any:
        """Dispatch ``event`` to ``on_<event>``; unknown events raise :class:`IllegalActionError`."""
        if self.ending is not None:
            raise StageError(f"Stage {self.name} has already ended; it cannot take {event!r}.")
        method = self._handlers.get(event)
        if method is None:
            allowed = ", ".join(self.events) or "no events"
            raise IllegalActionError(
                f"The {self.name} stage does not take {event!r}; it takes {allowed}.",
                rule="event not accepted by the current stage",
                allowed=allowed,
            )
        return method(self, *args, **kwargs)

    # --- hooks for subclasses -----------------------------------------------------------------------
    def on_start(self) -> None:
        """The base machine's ``begin`` callback: do the work, reading ``self.previous``."""

    def on_substage_result(self, result: Any) -> None:
        """A sub-stage pushed on top of this one finished with ``result``."""
        raise StageError(f"Stage {self.name} pushed a sub-stage but does not take its result.")

    def on_table_change(self) -> None:
        """Seats or stacks changed (sit down, leave...) while this stage runs."""

    # --- ending ---------------------------------------------------------------------------------
    def _end(self, outcome: Outcome) -> None:
        if self.ending is not None:
            raise StageError(f"Stage {self.name} ended twice ({self.outcome} then {outcome}).")
        self.outcome = outcome
        to = self._end_to
        if to is not None:
            self.state = to
        else:
            self.trigger("end")

    def finish(self, result: Any = None) -> None:
        if self.ending is not None:
            raise StageError(f"Stage {self.name} ended twice ({self.outcome} then {Done(result)}).")
        self.ending = Done
        self.result = result
        to = self._end_to
        if to is not None:  # as trigger("end"), without the call
            self.state = to
        else:
            self.trigger("end")

    def goto(self, stage: str, result: Any = None) -> None:
        self._end(Goto(stage, result))

    def pass_on(self) -> None:
        """Finish with the result this stage was given (a callback for stages with nothing to do)."""
        self.finish(self.previous)

    def restart(self) -> None:
        self._end(_RESTART)

    def exit(self) -> None:
        self._end(_EXIT)

    def fail(self, reason: str) -> None:
        self._end(Failed(reason, self.name, self.state))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.state}>"


class Stages(tuple[Stage, ...]):
    """A stage list that knows the variant it plays (``variant``; ``None`` for a list put together
    by hand). Registered variants return one (see ``variants.registry``); exports and replays use
    ``variant`` rather than guessing the game from the stages."""

    variant: Any

    def __new__(cls, stages: Sequence[Stage] = (), variant: Any = None) -> Stages:
        self = super().__new__(cls, stages)
        self.variant = variant if variant is not None else getattr(stages, "variant", None)
        return self


def _names(types: Sequence[type]) -> str:
    return ", ".join(t.__name__ for t in types) or "nothing"


def check_fit(stages: Sequence[Stage]) -> None:
    """Raise :class:`ConfigError` if a stage may be handed a result it does not take, or names a
    later stage with ``goto`` that the list does not have.

    The list restarts with ``None`` for the first stage. A stage that passes results on hands on
    whatever it was given; ``object`` in ``takes`` takes anything.
    """
    incoming: tuple[type, ...] = (type(None),)
    jumps: dict[str, list[tuple[int, tuple[type, ...]]]] = {}  # goto target -> (from index, types)
    for i, stage in enumerate(stages):
        cls = type(stage)
        for j, types in jumps.pop(stage.name, ()):
            for t in types:
                if not any(issubclass(t, want) for want in cls.takes):
                    raise ConfigError(
                        f"Stage {i} ({stage.name}) does not fit: stage {j} ({stages[j].name}) may go to it with "
                        f"{t.__name__}, but {stage.name} takes {_names(cls.takes)}."
                    )
        refused = [t for t in incoming if not any(issubclass(t, want) for want in cls.takes)]
        if refused:
            before = f"stage {i - 1} ({stages[i - 1].name}) gives" if i else "a new hand starts with"
            raise ConfigError(
                f"Stage {i} ({stage.name}) does not fit after what comes before it: {before} "
                f"{_names(refused)}, but {stage.name} takes {_names(cls.takes)}."
            )
        if cls.gives is not PASSES_ON:
            incoming = cls.gives
        for target in cls.goes_to:
            if not any(later.name == target for later in stages[i + 1 :]):
                raise ConfigError(f"Stage {i} ({stage.name}) may go to a later stage {target!r}, but none follows it.")
            jumps.setdefault(target, []).append((i, incoming))
