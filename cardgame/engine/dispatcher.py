"""The dispatcher: runs a stack of stages, passing each one's result to the next.

Guarantees:

* exactly one stage is current while the game runs; events go to it;
* each stage ends by the state it reaches: ``start`` returns the outcome its final state gives, and
  after a handler or ``on_substage_result`` the dispatcher asks the stage's final states (one
  dictionary lookup) unless it returned an outcome itself (a ``Push``); ``None``: it waits.
  :meth:`Dispatcher.advance` has one clause per outcome:

  - ``Done(result)`` pops the next stage and starts it with the result (a sub-stage's result goes
    back to the stage that pushed it); an empty stack is an error (a list's last stage must
    restart or exit); ``PassOn()`` does the same with the result the stage was given;
  - ``Goto(name, result)`` pops stages until the one called ``name`` and starts it with the result
    (an error if no later stage has that name);
  - ``Push(sub, previous)`` runs ``sub`` on top of the current stage;
  - ``Restart()`` resets the stack to the full list (the next hand); ``Exit()`` stops cleanly;
  - ``Failed(reason)`` (or an unexpected exception) stops the game, keeps every stage and the
    context as they were for inspection, and raises :class:`StageError`;

* an illegal input (a :class:`~cardgame.engine.errors.CardgameError` raised while handling an
  event) propagates to the caller and changes nothing: stages validate before they change state;
* a context with ``hold()`` and ``release()`` methods is told when each call (``start``, ``send``)
  begins and ends, so it can hand its events to observers once the change is complete; not while
  its ``quiet`` is true as the call begins (nobody observes it: nothing to hold back).

The dispatcher knows nothing of any game; its context is anything that can ``emit`` an event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, NoReturn

from cardgame.engine.copies import shallow_copy
from cardgame.engine.errors import CardgameError, StageError
from cardgame.engine.events import StageFailed
from cardgame.engine.outcomes import Done, Exit, Failed, Goto, Outcome, PassOn, Push, Restart
from cardgame.engine.stage import C, Stage, Stages, check_fit, stage_list

__all__ = ["Dispatcher"]


class Dispatcher(Generic[C]):
    """Holds the stage stack and the context. ``status`` is new, running, exited or failed."""

    __slots__ = ("_full", "_holds", "busy", "ctx", "current", "failure", "stack", "stages", "status")

    def __init__(self, stages: Sequence[Stage[C]], ctx: C) -> None:
        if not stage_list(stages, StageError):  # a caller may pass anything
            raise StageError("A dispatcher needs at least one stage.")
        if len({id(s) for s in stages}) != len(stages):
            raise StageError("The same stage object appears twice in the list; create one per position.")
        check_fit(stages, ctx)
        _check_unshared(stages, ctx)
        self.stages = Stages(stages)
        self._full: list[Stage[C]] = list(reversed(self.stages))  # a new hand's stack, copied on each restart
        self.ctx = ctx
        self.stack: list[Stage[C]] = []
        self.current: Stage[C] | None = None
        self.status = "new"
        self.failure: Failed | None = None
        self.busy = False  # True while a call into the game runs (hooks see it set)
        self._holds = hasattr(ctx, "hold") and hasattr(ctx, "release")  # told when each call begins and ends

    # --- queries --------------------------------------------------------------------------------
    @property
    def state(self) -> str | None:
        """The current stage's machine state."""
        return None if self.current is None else self.current.state

    @property
    def remaining(self) -> tuple[Stage[C], ...]:
        """Stages still to run after the current one, next first."""
        return tuple(reversed(self.stack))

    # --- driving ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the first stage (and any stages that end at once after it). After a failure, the stages
        it cut short are set back to their initial state first."""
        if self.status == "running":
            raise StageError("The game is already running.")
        if self.status == "failed":  # the stages the failure cut short wait no more
            for s in self.stages:
                if s.state not in s._final:
                    s.state = s.initial
        self.status = "running"
        self.stack = self._full[:]
        first = self.current = self.stack.pop()
        self.busy = True
        ctx: Any = self.ctx
        held = self._holds and not getattr(ctx, "quiet", False)
        if held:
            ctx.hold()
        try:
            self.advance(first, self._call(first, first.start, self.ctx, None))
        finally:
            self.busy = False
            if held:
                ctx.release()

    def send(self, event: str, *args: Any) -> None:
        """Hand ``event`` (with its arguments) to the current stage and follow how it ends."""
        stage = self.current
        if self.status != "running" or stage is None:
            reason = f": {self.failure.reason}" if self.failure else ""
            raise StageError(f"The game is {self.status}{reason}; it takes no more events.")
        self.busy = True
        ctx: Any = self.ctx
        held = self._holds and not getattr(ctx, "quiet", False)  # nobody observes it: nothing to hold back
        if held:
            ctx.hold()
        try:
            try:
                handler = stage._handlers.get(event)
                if handler is None:
                    outcome = stage.handle(event, *args)  # refuses the event, naming why
                else:  # as handle, in line: the path every action takes
                    outcome = handler(stage, *args)
                    if outcome is None:  # what the state reached gives (stage.reached(), in line)
                        end = stage._endings.get(stage.state)
                        if end is not None:
                            outcome = end(stage)
            except CardgameError:
                if stage.state in stage._final:  # the stage ended while failing: treat as error
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

    def advance(self, stage: Stage[C], outcome: Outcome | None) -> None:
        """Follow ``outcome``, which ``stage`` returned, and what each next stage returns, until a
        stage waits for input (``None``) or the game stops: one clause per outcome (the commonest
        first). An exception from a stage stops the game with that stage failed."""
        ctx = self.ctx
        while outcome is not None:
            try:
                if isinstance(outcome, Done):
                    result = outcome.result
                elif isinstance(outcome, PassOn):
                    result = stage.previous  # as the stage was given it
                elif isinstance(outcome, Goto):
                    target = outcome.stage
                    stack = self.stack
                    while stack and stack[-1].name != target:
                        stack.pop()
                    if not stack:
                        self._stop(stage, Failed(f"no later stage is called {target!r}", stage.name, stage.state))
                    stage = self.current = stack.pop()
                    outcome = stage.start(ctx, outcome.result)
                    continue
                elif isinstance(outcome, Restart):
                    self.stack = self._full[:]
                    stage = self.current = self.stack.pop()
                    outcome = stage.start(ctx, None)
                    continue
                elif isinstance(outcome, Push):
                    sub = outcome.sub
                    if not isinstance(sub, Stage):
                        self._stop(stage, Failed(f"pushed {sub!r}, which is not a Stage", stage.name, stage.state))
                    sub.parent = stage  # the stage runs on below the sub-stage
                    stage = self.current = sub
                    outcome = sub.start(ctx, outcome.previous)
                    continue
                elif isinstance(outcome, Exit):
                    self.status = "exited"
                    return
                elif isinstance(outcome, Failed):
                    self._stop(stage, outcome)
                else:
                    self._stop(stage, Failed(f"unknown outcome {outcome!r}", stage.name, stage.state))
                # Done and PassOn: the next stage starts with the result (a sub-stage's goes back to its stage)
                parent = stage.parent
                if parent is not None:  # a sub-stage's result goes back to the stage that pushed it
                    stage.parent = None
                    stage = self.current = parent
                    outcome = parent.on_substage_result(result) or parent.reached()
                    continue
                stack = self.stack
                if not stack:
                    reason = "the last stage finished but no stage follows; end with restart or exit"
                    self._stop(stage, Failed(reason, stage.name, stage.state))
                stage = self.current = stack.pop()
                outcome = stage.start(ctx, result)
            except Exception as exc:
                if self.status == "failed":  # _stop raised: the game is already stopped
                    raise
                self._stop(stage, Failed(f"{type(exc).__name__}: {exc}", stage.name, stage.state), exc)

    def copy(self, ctx: C) -> Dispatcher[C]:
        """A dispatcher for a copy of the game whose context is ``ctx`` (a copy of this one's): each
        stage copied once (:meth:`Stage.copy`), in the same places (the list, the stack, the
        current stage and the sub-stages it runs on). Refused from inside a call into the game
        (a hook), where a stage is half-way through its work."""
        current = self.current
        if self.busy or (self.status == "running" and current is not None and current.ended):
            raise StageError("A game is copied between calls into it, not from inside one (a hook): a stage "
                             "is half-way through its work.")
        twins = {s: s.copy(ctx) for s in self.stages}  # stages hash by identity

        def twin(stage: Stage[C]) -> Stage[C]:  # a sub-stage pushed on the list's stages: copied once too
            new = twins.get(stage)
            if new is None:
                new = twins[stage] = stage.copy(ctx)
            if stage.parent is not None and new.parent is None:
                new.parent = twin(stage.parent)
            return new

        new = shallow_copy(self)  # status and failure (immutable) as they are
        new.stages = Stages([twins[s] for s in self.stages], self.stages.variant)
        new._full = [twins[s] for s in self._full]
        new.stack = [twins[s] for s in self.stack]
        new.current = None if current is None else twin(current)
        new.ctx = ctx
        return new

    # --- internals ----------------------------------------------------------------------------------
    def _call(self, stage: Stage[C], fn: Callable[..., Outcome | None], *args: Any) -> Outcome | None:
        """``fn(*args)``, a call into ``stage``; an exception stops the game with the stage failed."""
        try:
            return fn(*args)
        except Exception as exc:
            self._stop(stage, Failed(f"{type(exc).__name__}: {exc}", stage.name, stage.state), exc)

    def _stop(self, stage: Stage[C], failed: Failed, exc: BaseException | None = None) -> NoReturn:
        self.status = "failed"
        self.current = stage
        self.failure = failed
        name = failed.stage or stage.name
        self.ctx.emit(StageFailed(name, failed.reason))
        raise StageError(f"Stage {name} failed in state {failed.state!r}: {failed.reason}") from exc


def _check_unshared(stages: Sequence[Stage[Any]], ctx: Any) -> None:
    """Refuse stages that another game is in the middle of: a stage keeps its game's state (its
    context, the player to act), so two games driving one stage object would corrupt each other. A
    list whose stages all ended (a game over) may be given to another. (Checked when a dispatcher is
    made; a learning environment that drops a game for the next one hands its stages on.)"""
    for s in stages:
        if s.ctx is not None and s.ctx is not ctx and s.state != s.initial and s.state not in s._final:
            raise StageError(f"The {s.name} stage is in the middle of another game (in state {s.state!r}); build a "
                             "new stage list for each game (variant.build(...)), or copy a game with Game.copy().")
