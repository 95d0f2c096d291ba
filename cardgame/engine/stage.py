"""The stage: one small state machine of a game (in poker: wait for players, blinds, deal, bet...).

A stage class declares its machine as class attributes: ``states``, and ``transitions`` whose
``conditions`` and callbacks (``prepare``, ``before``, ``after``) name the stage's own methods, so
the machine says what the stage does. ``transitions`` builds the machine once per class
(``model=None``, ``auto_transitions=False``); :mod:`cardgame.engine.machine` compiles it to a table
that fires triggers in the same order, and :meth:`Stage.trigger` runs it. A trigger's arguments
(the action it carries) are handed to every callback and condition.

Lifecycle (OpenPoker's contract): the dispatcher calls :meth:`Stage.start` with the context and the
previous stage's result, kept as ``previous``; the stage fires ``begin``. It then handles events
(:meth:`handle` calls ``on_<event>``, which fires a trigger). A stage ends by the state it reaches:
``ends`` maps each *final state* to the name of a method that builds the outcome that state gives,
and ``start``, ``handle`` and the dispatcher return that outcome as soon as the machine is in a
final state (``None`` while it waits for input):

* ``Done(result)`` -- the dispatcher starts the next stage with ``result``;
* ``PassOn()`` -- the same with the result the stage was given (``passed_on``, the base's ending);
* ``Goto(name, result)`` -- the stages before the later stage called ``name`` have nothing to do
  (a betting round's ``hand_won`` gives ``Goto("showdown", result)``);
* ``Restart()`` -- the dispatcher resets the stack to the full list (the next hand);
* ``Exit()`` -- the game stops cleanly;
* ``Failed(reason)`` -- the game stops with an error.

An ending is a question, as a condition is: it builds the outcome from what the stage holds and
changes nothing (the work is done by the callbacks of the transition into the final state), so
:attr:`outcome` can ask it again. A final state has no transition leaving it. A sub-stage is not an
ending, since the stage goes on afterwards: ``pushes`` maps a state in which the stage runs one on
top of itself to the method returning ``Push(sub, previous)`` (its result comes back to
:meth:`on_substage_result`, which fires a trigger), or a handler or :meth:`on_substage_result`
*returns* the ``Push``. A handler may return another outcome the same way; ``None`` leaves it to
the state.

Conditions are questions: each returns ``True`` or ``False`` and changes nothing, so
:meth:`Stage.may` answers "would this trigger be taken?" (``transitions``' ``may_<trigger>``), and a
refused trigger's error comes from the first condition that failed (:meth:`Stage.refusal`, which
calls the stage's ``refuse_<condition>``).

``takes`` and ``gives`` declare the result types a stage starts with and ends with (``gives =
PASSES_ON``: it hands on what it was given); :func:`check_fit` refuses a stage list whose
neighbours do not fit, naming the pair. A game's stages may also declare what they need of the
table and what they leave for the stages after them (:meth:`Stage.fit`, on a summary of the game's
own); :func:`check_fit` walks every path of the list with it.

The kernel knows nothing of any game: a stage's context is any object with ``emit(event)``
(:class:`Emitter`); a game's stages narrow it (poker's stages take :class:`cardgame.model.context.Context`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, final

from transitions import Machine

from cardgame.engine.copies import shallow_copy
from cardgame.engine.errors import CardgameError, ConfigError, IllegalActionError, StageError, excerpt
from cardgame.engine.events import Event
from cardgame.engine.machine import Fast, Step, compile_machine, fire, generate, generate_start, may
from cardgame.engine.outcomes import Exit, Outcome, PassOn, Restart

__all__ = ["PASSES_ON", "Emitter", "Settings", "Stage", "Stages", "check_fit"]


class Emitter(Protocol):
    """What the kernel needs of a game's context: somewhere to record events. A context class may
    derive from it to say so."""

    __slots__ = ()

    @property
    def emit(self) -> Callable[[Event], None]:
        """Record ``event`` (a method, or an attribute holding a function)."""


C = TypeVar("C", bound=Emitter)

_RESTART, _EXIT, _PASS_ON = Restart(), Exit(), PassOn()  # no fields: one instance each serves every stage
_UNCHECKED = object()  # Stages.fits_from of a list not checked yet
F = TypeVar("F", bound=Callable[..., Any])


def _always(outcome: Outcome) -> Callable[[F], F]:
    """Marks an ending that always gives ``outcome`` (its ``always``): a generated ``start`` writes
    that value where it would call the ending."""

    def mark(fn: F) -> F:
        fn.always = outcome  # type: ignore[attr-defined]
        return fn

    return mark


class _PassesOn:
    """Marker type: the stage hands on the result it was given."""


#: ``gives`` of a stage that hands on the result it was given (dealing cards, for one).
PASSES_ON: tuple[type, ...] = (_PassesOn,)


#: How deep a setting's value may nest (lists in lists...).
MAX_SETTING_DEPTH = 100


def _frozen(value: object, name: str, depth: int = 0) -> Hashable:
    """``value`` as a hashable value: lists as tuples, sets as frozensets, dicts as :class:`Settings`."""
    if depth > MAX_SETTING_DEPTH:
        raise ConfigError(f"The setting {excerpt(name)} nests deeper than {MAX_SETTING_DEPTH} levels.")
    if isinstance(value, list | tuple) and type(value) in (list, tuple):  # not a named tuple or record
        return tuple(_frozen(v, name, depth + 1) for v in value)
    if isinstance(value, set):
        return frozenset(_frozen(v, name, depth + 1) for v in value)
    if isinstance(value, dict):
        return Settings({str(k): _frozen(v, name, depth + 1) for k, v in value.items()})
    try:
        hash(value)
    except (TypeError, ValueError, RecursionError):
        raise ConfigError(f"The setting {excerpt(name)} is a {type(value).__name__}, which cannot be frozen; "
                          "a setting is a hashable value (a number, text, tuple, frozen record...).") from None
    return value  # hashable: hash() took it


@final
class Settings(Mapping[str, Hashable]):
    """A stage's settings (what :attr:`Stage.settings` gives): names and values, frozen and
    hashable, equal to other settings with the same names and equal values (``==``, not text).
    ``Settings({"blinds": (1, 2)}, every=5)``; lists become tuples, sets frozensets, dicts
    settings."""

    __slots__ = ("_items",)
    _items: tuple[tuple[str, Hashable], ...]

    def __init__(self, values: Mapping[str, object] | Iterable[tuple[str, object]] = (), /, **more: object) -> None:
        if isinstance(values, str | bytes):
            raise ConfigError(f"Settings are names and values, not {excerpt(values)}.")
        try:
            given = dict(values)
        except (TypeError, ValueError):
            raise ConfigError(f"Settings are names and values, not {excerpt(values)}.") from None
        given.update(more)
        for key in given:
            if type(key) is not str:
                raise ConfigError(f"A setting's name is text, not {excerpt(key)}.")
        object.__setattr__(self, "_items", tuple((k, _frozen(v, k)) for k, v in given.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Settings are frozen.")

    def __getitem__(self, name: str) -> Hashable:
        for key, value in self._items:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return dict(self._items) == dict(other._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))

    def __repr__(self) -> str:
        return f"Settings({', '.join(f'{k}={v!r}' for k, v in self._items)})"


#: The constructor parameters each stage class keeps as settings by default (see Stage.settings).
_SETTING_NAMES: dict[type, tuple[str, ...]] = {}


def _constructor_settings(cls: type) -> tuple[str, ...]:
    """The named parameters of ``cls``'s constructor, but the runtime ones (``snapshot_fields``)."""
    names = _SETTING_NAMES.get(cls)
    if names is None:
        try:
            parameters = list(inspect.signature(cls).parameters.values())
        except (TypeError, ValueError):
            parameters = []
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        skip = set(getattr(cls, "snapshot_fields", ()))
        names = _SETTING_NAMES[cls] = tuple(p.name for p in parameters if p.kind in kinds and p.name not in skip)
    return names


class Stage(Generic[C]):
    """Base class of every stage. Subclasses set ``name`` and their machine.

    Extension points (class attributes): ``name``, ``states``, ``transitions``, ``initial``,
    ``events`` (the event names the stage accepts while running), ``takes`` and ``gives`` (result
    types; ``gives = PASSES_ON`` hands on what was given), ``goes_to`` (names of later stages a
    :class:`Goto` may name), ``ends`` (each final state and the method giving its outcome: see the
    module's docstring), ``pushes`` (each state running a sub-stage and the method giving its
    ``Push``), ``snapshot_fields``. The base machine is ``ready --begin--> done`` (after
    ``on_start``), and ``done`` hands on what the stage was given (``ends = {"done": "passed_on"}``):
    a stage that does its work at once overrides ``on_start`` (and names another ending for ``done``
    to hand on something else). The build-time check's hooks (:meth:`fit_start`, :meth:`fit`,
    :meth:`fit_goto`, :meth:`fit_key`) let a game's stages declare what they need of the table.
    Stage objects compare by identity and keep a writable ``state``, as ``transitions`` needs.
    """

    name: ClassVar[str] = "stage"
    states: ClassVar[list[str]] = ["ready", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "done", "after": "on_start"},
    ]
    initial: ClassVar[str] = "ready"
    #: The final states and the name of the method that builds the outcome each gives
    #: (``{"dealt": "passed_on", "hand_won": "to_showdown"}``); a final state has no transition leaving it.
    #: The base's ``ends`` goes with the base's ``states``: a class declaring states of its own declares its ends.
    ends: ClassVar[Mapping[str, str]] = {"done": "passed_on"}
    #: States in which the stage runs a sub-stage on top of itself, and the name of the method that returns
    #: the ``Push`` (``{"dealing_runs": "next_street"}``): the dispatcher pushes it each time the stage is
    #: left in that state, and the sub-stage's result comes back to :meth:`on_substage_result`.
    pushes: ClassVar[Mapping[str, str]] = {}
    events: ClassVar[tuple[str, ...]] = ()
    takes: ClassVar[tuple[type, ...]] = (object,)
    gives: ClassVar[tuple[type, ...]] = PASSES_ON
    goes_to: ClassVar[tuple[str, ...]] = ()
    #: Triggers the stage takes in every state (internal transitions judged by their conditions, as a
    #: poker stage's seating changes): diagrams list them once instead of drawing a loop on every state.
    everywhere: ClassVar[tuple[str, ...]] = ()
    #: Instance attributes a snapshot keeps besides ``state`` and ``previous``
    #: (runtime state that the constructor does not set up again); see :mod:`cardgame.store.snapshot`.
    snapshot_fields: ClassVar[tuple[str, ...]] = ()
    #: The attributes that hold the stage's settings (see :attr:`settings`); ``None``: the
    #: constructor's named parameters that the stage keeps under the same name.
    setting_names: ClassVar[tuple[str, ...] | None] = None
    machine: ClassVar[Machine]
    table: ClassVar[dict[tuple[str, str], tuple[Step, ...]]]
    fast: ClassVar[dict[tuple[str, str], Fast]]
    _handlers: ClassVar[dict[str, Any]]
    #: ``ends`` and ``pushes`` compiled: state -> the function giving its outcome (or its ``Push``).
    _endings: ClassVar[dict[str, Callable[[Any], Outcome]]]
    #: The final states (``ends``).
    _final: ClassVar[frozenset[str]]

    __slots__ = ("ctx", "parent", "previous", "state")

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
        cls._endings = _endings(cls)
        cls._final = frozenset(state for state in cls.ends if state in cls._endings)  # base ends: with base states
        cls.fast = generate(cls.table, nest=cls.trigger is Stage.trigger)  # a trigger of its own: nested ones called
        cls._handlers = {event: getattr(cls, "on_" + event, None) for event in cls.events}
        missing = [event for event, method in cls._handlers.items() if method is None]
        if missing:
            raise TypeError(f"{cls.__name__}: events {missing} have no on_<event> method.")
        inherited = cls.start
        if inherited is Stage.start or getattr(inherited, "generated", False):  # not a start of the class's own
            start: Any = generate_start(cls.table, cls.initial, cls._endings)
            start.generated, start.__doc__ = True, Stage.start.__doc__
            setattr(cls, "start", start)  # noqa: B010  # Stage.start, with the begin steps written in line
        cls.derive_tables()

    @classmethod
    def derive_tables(cls) -> None:
        """Build the class's tables derived from its trigger functions (``fast``): called once ``fast`` is set, and
        again whenever it is replaced (:func:`cardgame.engine.verify.by_transitions`). None by default; a stage
        whose handler looks a trigger up by the name an event gives keeps that table here."""

    @property
    def label(self) -> str:
        """What this stage is called where it stands in its list, as the players would say it (the
        diagrams' name for it); a stage that knows more than its class's ``name`` says more."""
        return self.name

    @property
    def settings(self) -> Settings:
        """The stage's settings, what it was built with (blinds, a betting structure...), as one
        frozen value compared by value: a snapshot is restored only onto stages with equal
        settings. By default the attributes :attr:`setting_names` lists, or else each named
        parameter of the constructor that the stage keeps as an attribute of the same name (not
        those in ``snapshot_fields``, which change as it runs). A stage that keeps a setting under
        another name, or computes it, lists its attributes in ``setting_names`` or overrides this."""
        names = self.setting_names
        if names is None:
            names = _constructor_settings(type(self))
            return Settings({n: getattr(self, n) for n in names if hasattr(self, n)})
        missing = [n for n in names if not hasattr(self, n)]
        if missing:
            raise ConfigError(f"The {self.name} stage ({type(self).__name__}) lists the setting {excerpt(missing[0])} "
                              "in setting_names but has no attribute of that name.")
        return Settings({n: getattr(self, n) for n in names})

    def __init__(self) -> None:
        self.state: str = self.initial
        self.parent: Stage[Any] | None = None
        self.previous: Any = None
        self.ctx: C = None  # type: ignore[assignment]  # set by start()

    # --- driven by the dispatcher -----------------------------------------------------------------
    def start(self, ctx: C, previous: Any) -> Outcome | None:
        """Begin with the context and the previous stage's result (``None`` after a restart); return
        what the state reached gives (:meth:`reached`): a final state's outcome, a pushing state's
        ``Push``, or ``None`` if the stage waits for input."""
        self.ctx = ctx
        self.previous = previous
        self.state = self.initial
        self.trigger("begin")
        return self.reached()

    def handle(self, event: str, *args: Any) -> Outcome | None:
        """Dispatch ``event`` to ``on_<event>``; return what the handler returned, else what the state
        reached gives (:meth:`reached`; ``None``: it still waits). Unknown events raise
        :class:`IllegalActionError`; a stage in a final state takes none (:class:`StageError`)."""
        if self.state in self._final:
            raise StageError(f"Stage {self.name} has already ended; it cannot take {excerpt(event)}.")
        method = self._handlers.get(event)
        if method is None:
            allowed = ", ".join(self.events) or "no events"
            raise IllegalActionError(
                f"The {self.name} stage does not take {excerpt(event)}; it takes {allowed}.",
                rule="event not accepted by the current stage",
                allowed=allowed,
            )
        out: Outcome | None = method(self, *args)
        return self.reached() if out is None else out

    def reached(self) -> Outcome | None:
        """What the state the stage is in gives: a final state's outcome (``ends``), a pushing state's
        ``Push`` (``pushes``), else ``None`` (it waits for input). The dispatcher asks it after each call
        into the stage that returned ``None``."""
        end = self._endings.get(self.state)
        return None if end is None else end(self)

    @property
    def outcome(self) -> Outcome | None:
        """How the stage ended: the outcome its final state gives (``None`` while it runs or waits)."""
        return self._endings[self.state](self) if self.state in self._final else None

    @property
    def ended(self) -> bool:
        """Whether the stage is in a final state."""
        return self.state in self._final

    def trigger(self, event: str, *args: Any) -> bool:
        """Fire ``event`` with ``args`` on this stage's machine; ``False`` when no transition's
        conditions held."""
        fn = self.fast.get((self.state, event))
        if type(fn) is str:  # a plain transition
            self.state = fn
            return True
        if fn is None:
            return fire(self.table, self, event, *args)  # raises MachineError: no such trigger here
        return fn(self, *args)  # type: ignore[operator]

    def may(self, trigger: str, *args: Any) -> bool:
        """Whether firing ``trigger`` with ``args`` now would take a transition: what ``transitions``
        offers as ``may_<trigger>``. Each candidate's ``prepare`` callbacks run and its conditions are
        asked, in order; no other callback runs and the state does not change. ``False`` for a
        trigger the current state does not have. Conditions are questions (they answer ``True`` or
        ``False``), so a stage can be asked "would this be legal?" without trying it."""
        return may(self.table, self, trigger, *args)

    def refusal(self, trigger: str, *args: Any) -> CardgameError:
        """The error a refused ``trigger`` with ``args`` gives: that of the first condition of its
        first candidate transition that does not hold (``refuse_<condition>(*args)``, which names the
        rule broken and what is allowed; by default an :class:`IllegalActionError` naming the
        condition). Asked after the trigger returned ``False``; nothing is run but the conditions."""
        steps = self.table.get((self.state, trigger))
        if steps is None:
            return IllegalActionError(f"The {self.name} stage cannot take {excerpt(trigger)} now (it is "
                                      f"{self.state}).", rule="trigger not allowed in this state")
        for fn, wanted in steps[0].conditions:
            if fn(self, *args) != wanted:
                name = fn.__name__
                refuse = getattr(self, "refuse_" + name, None)
                if refuse is not None:
                    error: CardgameError = refuse(*args)
                    return error
                what = name.replace("_", " ")
                return IllegalActionError(f"The {self.name} stage refused {excerpt(trigger)}: "
                                          f"{'not ' if wanted else ''}{what}.", rule=what)
        return IllegalActionError(f"The {self.name} stage refused {excerpt(trigger)}.", rule="refused")

    def copy(self, ctx: C) -> Self:
        """This stage for a copy of its game whose context is ``ctx`` (see ``Game.copy``): every
        attribute shared (the configuration, results and outcomes, which are immutable), linked to
        ``ctx`` if it has started, no parent (``Dispatcher.copy`` links sub-stages). A stage whose
        runtime state is mutable (a list it appends to, players of the hand) overrides this to
        give the copy its own: ``new = super().copy(ctx)``, then replace those attributes."""
        new = shallow_copy(self)
        if self.ctx is not None:
            new.ctx = ctx
        new.parent = None
        return new

    # --- hooks for subclasses -----------------------------------------------------------------------
    def on_start(self) -> None:
        """The base machine's ``begin`` callback: do the work, reading ``self.previous``."""

    def on_substage_result(self, result: Any) -> Outcome | None:
        """A sub-stage pushed on top of this one finished with ``result``: fire a trigger (a final
        state ends the stage) or return another ``Push``; ``None`` leaves it to the state (a stage not
        in a final state waits for input)."""
        raise StageError(f"Stage {self.name} pushed a sub-stage but does not take its result.")

    # --- the build-time check (see check_fit): nothing is declared by default --------------------------
    def fit_start(self, ctx: Any) -> Hashable:
        """The summary the check starts from when this stage is a list's first (``ctx``: the game's
        context, ``None`` when the list is checked alone): a hashable record of the game's own."""
        return None

    def fit(self, before: Hashable) -> Hashable:
        """What this stage leaves for the next one, given the summary ``before`` it (what the
        stages so far leave on a path to it). Raise :class:`ConfigError` saying what is missing
        and what would do when the stage cannot play there. By default ``None``: a stage that
        declares nothing leaves the stages after it nothing to be checked against."""
        return None

    def fit_goto(self, before: Hashable) -> Hashable:
        """What this stage's :class:`Goto` hands the stage it names, given ``before``; by default
        what :meth:`fit` leaves."""
        return self.fit(before)

    def fit_key(self) -> Hashable:
        """The settings :meth:`fit` and :meth:`fit_goto` read (hashable): with the class and name,
        what decides whether a list fits, so a list known to fit is not checked again."""
        return None

    # --- endings a stage may name in ``ends`` (each always gives the same outcome: ``always``) ----------
    @_always(_PASS_ON)
    def passed_on(self) -> PassOn:
        """``PassOn()``: the next stage starts with the result this stage was given (a stage that had
        nothing to do, or deals)."""
        return _PASS_ON

    @_always(_RESTART)
    def restarted(self) -> Restart:
        """``Restart()``: the next hand."""
        return _RESTART

    @_always(_EXIT)
    def exited(self) -> Exit:
        """``Exit()``: the game stops cleanly."""
        return _EXIT

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.state}>"


def _methods(cls: type[Stage[Any]], attribute: str, what: str) -> dict[str, Callable[[Any], Outcome]]:
    """``cls.<attribute>`` (state -> method name) as functions, each state one of the machine's."""
    given = getattr(cls, attribute)
    if not isinstance(given, Mapping):
        raise ConfigError(f"{cls.__name__}.{attribute} maps states to method names, not {excerpt(given)}.")
    states = cls.machine.states
    found: dict[str, Callable[[Any], Outcome]] = {}
    for state, name in given.items():
        if state not in states:
            raise ConfigError(f"{cls.__name__}.{attribute} names {excerpt(state)}, which is not one of its states "
                              f"({', '.join(states)}).")
        fn = getattr(cls, name, None) if isinstance(name, str) else None
        if not callable(fn):
            raise ConfigError(f"{cls.__name__}.{attribute} gives the state {state!r} {what} {excerpt(name)}, which "
                              "is not a method of the class; name a method returning it.")
        found[state] = fn
    return found


def _endings(cls: type[Stage[Any]]) -> dict[str, Callable[[Any], Outcome]]:
    """What each state of ``ends`` and ``pushes`` gives, as functions, checked against the machine: a final
    state has no transition leaving it, a state ``transitions`` marks ``final`` is in ``ends``, and a state
    that pushes a sub-stage has a way out (else it would push for ever). The base's ``ends`` goes with its
    ``states``."""
    ends = _methods(cls, "ends", "the outcome of") if cls.ends is not Stage.ends or cls.states is Stage.states else {}
    pushes = _methods(cls, "pushes", "the sub-stage of")
    both = ends.keys() & pushes.keys()
    if both:
        raise ConfigError(f"{cls.__name__}: the state {min(both)!r} is both final (ends) and pushes a sub-stage.")
    leaving = {source for (source, _), steps in cls.table.items() if any(step.dest is not None for step in steps)}
    for state in ends:
        if state in leaving:
            trigger = next(t for (source, t), steps in cls.table.items()
                           if source == state and any(step.dest is not None for step in steps))
            raise ConfigError(f"{cls.__name__}: the final state {state!r} has a transition leaving it ({trigger!r}); "
                              "a stage ends in its final state (internal transitions, dest None, may stay).")
    for state in pushes:
        if state not in leaving:
            raise ConfigError(f"{cls.__name__}: the state {state!r} pushes a sub-stage but no transition leaves it; "
                              "the stage would run it again and again.")
    unended = [name for name, state in cls.machine.states.items()
               if getattr(state, "final", False) and name not in ends]
    if unended:
        raise ConfigError(f"{cls.__name__}: the final state {unended[0]!r} gives no outcome; add it to ends with "
                          "the method that builds it (ends = {" + repr(unended[0]) + ': "result"}).')
    return {**ends, **pushes}


class Stages(tuple[Stage[Any], ...]):
    """A stage list that knows the variant it plays (``variant``; ``None`` for a list put together
    by hand). Registered variants return one (see ``variants.registry``); exports and replays use
    ``variant`` rather than guessing the game from the stages."""

    variant: Any
    #: The summary :func:`check_fit` last found this list to fit from (a game's table): a list is
    #: immutable, so building another game from it at the same table is not checked again.
    fits_from: Any

    def __new__(cls, stages: Sequence[Stage[Any]] = (), variant: Any = None) -> Stages:
        self = super().__new__(cls, stages if type(stages) is Stages else stage_list(stages))
        self.variant = variant if variant is not None else getattr(stages, "variant", None)
        self.fits_from = _UNCHECKED
        return self


def stage_list(given: object, error: type[CardgameError] = ConfigError) -> Sequence[Stage[Any]]:
    """``given`` if it is a list or tuple of :class:`Stage` objects, else ``error`` quoting an excerpt."""
    if isinstance(given, str | bytes) or not isinstance(given, Sequence):
        raise error(f"A game is a list of Stage objects, not {excerpt(given)}.")
    for s in given:
        if not isinstance(s, Stage):
            raise error(f"{excerpt(s)} is not a Stage; a game is a list of Stage objects.")
    return given


def _names(types: Sequence[type]) -> str:
    return ", ".join(t.__name__ for t in types) or "nothing"


#: Stage lists known to fit, by their stages' (class, name, fit key) and the summary they start from:
#: the check depends on nothing else, and a game is often built again and again from the same list
#: (a learning environment's every episode).
_FITTING: set[tuple[Hashable, ...]] = set()


def check_fit(stages: Sequence[Stage[Any]], ctx: Any = None) -> None:
    """Raise :class:`ConfigError` if a stage may be handed a result it does not take, names a later
    stage with ``goto`` that the list does not have, or cannot play where it stands.

    The list restarts with ``None`` for the first stage. A stage that passes results on hands on
    whatever it was given; ``object`` in ``takes`` takes anything. Along every path (the list in
    order, and each ``goto`` jump), each stage's :meth:`Stage.fit` is handed the summary the stages
    before it leave, starting from the first stage's :meth:`Stage.fit_start` of ``ctx``; a summary
    left after the last stage that has an ``unfinished()`` method saying what is missing (a hand
    that never ends) is refused too.
    """
    if type(stages) is not Stages:  # a Stages was checked when it was made
        stage_list(stages)
    start = stages[0].fit_start(ctx) if stages else None
    if type(stages) is Stages and stages.fits_from is start:  # this very list was checked from here
        return
    key = (start, *[(type(s), s.name, s.fit_key()) for s in stages])
    if key in _FITTING:
        if type(stages) is Stages:
            stages.fits_from = start
        return
    incoming: tuple[type, ...] = (type(None),)
    here: set[Hashable] = {start}  # the summaries the paths to the next stage bring
    jumps: dict[str, list[tuple[int, tuple[type, ...], set[Hashable]]]] = {}  # target -> (from, types, summaries)
    for i, stage in enumerate(stages):
        cls = type(stage)
        for j, types, carried in jumps.pop(stage.name, ()):
            for t in types:
                if not any(issubclass(t, want) for want in cls.takes):
                    raise ConfigError(
                        f"Stage {i} ({stage.name}) does not fit: stage {j} ({stages[j].name}) may go to it with "
                        f"{t.__name__}, but {stage.name} takes {_names(cls.takes)}."
                    )
            here |= carried
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
        try:
            carried = {stage.fit_goto(summary) for summary in here} if cls.goes_to else set()
            here = {stage.fit(summary) for summary in here}
        except ConfigError as exc:
            raise ConfigError(f"Stage {i} ({stage.name}) cannot play where it stands: {exc}") from None
        for target in cls.goes_to:
            jumps.setdefault(target, []).append((i, incoming, carried))
    for summary in here:
        unfinished = getattr(summary, "unfinished", None)
        problem = unfinished() if unfinished is not None else None
        if problem:
            raise ConfigError(f"The stage list ends after stage {len(stages) - 1} ({stages[-1].name}), but {problem}.")
    _FITTING.add(key)
    if type(stages) is Stages:
        stages.fits_from = start
