"""The dispatcher: runs a stack of stages, passing each one's result to the next.

Guarantees:

* exactly one stage is current while the game runs; events go to it;
* *done* pops the next stage and starts it with the result; an empty stack is an error (a
  variant's last stage must restart or exit);
* *goto* pops stages until the one with the given name and starts it with the result (an error
  if no later stage has that name): a stage says when the rest has nothing to do;
* *restart* resets the stack to the full list (the next hand); *exit* stops cleanly;
* *error* (a stage's :meth:`~cardgame.stage.Stage.fail` or an unexpected exception) stops the game,
  keeps every stage and the context as they were for inspection, and raises :class:`StageError`;
* an illegal input (a :class:`~cardgame.errors.CardgameError` raised while handling an event)
  propagates to the caller and changes nothing: stages validate before they change state;
* a stage may push a sub-stage on top of itself (``ctx.push``, which calls :meth:`push`); its
  *done* result goes back to the stage below through ``on_substage_result``.

The dispatcher knows nothing of poker: it follows the outcomes, one clause each (``_advance``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from cardgame.context import Context
from cardgame.errors import CardgameError, StageError
from cardgame.events import StageFailed
from cardgame.stage import Done, Exit, Failed, Goto, Restart, Stage, Stages, check_fit

__all__ = ["Dispatcher"]


class Dispatcher:
    """Holds the stage stack and the context. ``status`` is new, running, exited or failed."""

    __slots__ = ("_full", "busy", "ctx", "current", "failure", "stack", "stages", "status")

    def __init__(self, stages: Sequence[Stage], ctx: Context) -> None:
        if not stages:
            raise StageError("A dispatcher needs at least one stage.")
        given: Sequence[object] = stages  # checked one by one: a caller may pass anything
        for s in given:
            if not isinstance(s, Stage):
                raise StageError(f"{s!r} is not a Stage; a variant is a list of Stage objects.")
        if len({id(s) for s in stages}) != len(stages):
            raise StageError("The same stage object appears twice in the list; create one per position.")
        check_fit(stages)
        self.stages = Stages(stages)
        self._full = list(reversed(self.stages))  # a new hand's stack, copied on each restart
        self.ctx = ctx
        self.stack: list[Stage] = []
        self.current: Stage | None = None
        self.status = "new"
        self.failure: Failed | None = None
        self.busy = False  # True while a call into the game runs (listeners see it set)
        ctx.pusher = self.push

    # --- queries --------------------------------------------------------------------------------
    @property
    def state(self) -> str | None:
        """The current stage's machine state."""
        return None if self.current is None else self.current.state

    @property
    def remaining(self) -> tuple[Stage, ...]:
        """Stages still to run after the current one, next first."""
        return tuple(reversed(self.stack))

    @property
    def log(self) -> list[Any]:
        return self.ctx.log

    # --- driving ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the first stage (and any stages that end at once after it)."""
        if self.status == "running":
            raise StageError("The game is already running.")
        self.status = "running"
        self.stack = self._full[:]
        self.busy = True
        try:
            self._run(self.stack.pop(), None)
        finally:
            self.busy = False

    def send(self, event: str, *args: Any) -> Any:
        """Forward ``event`` (with its arguments, by position) to the current stage and advance past
        every stage that ends."""
        if self.status != "running" or self.current is None:
            reason = f": {self.failure.reason}" if self.failure else ""
            raise StageError(f"The game is {self.status}{reason}; it takes no more events.")
        stage = self.current
        handler = stage._handlers.get(event) if stage.ending is None else None
        self.busy = True
        try:
            try:  # as stage.handle, without the call on the path every action takes
                value = handler(stage, *args) if handler is not None else stage.handle(event, *args)
            except CardgameError:
                if stage.ending is not None:  # the stage ended while failing: treat as error
                    self._stop_failed(stage, Failed(f"{event} left the stage half-ended", stage.name, stage.state))
                raise
            except Exception as exc:
                self._stop_failed(stage, Failed(f"{type(exc).__name__}: {exc}", stage.name, stage.state), exc)
            current = self.current
            if current is not None and current.ending is not None:  # else the stage still waits
                self._advance()
        finally:
            self.busy = False
        return value

    def push(self, sub: Stage, previous: Any = None) -> None:
        """Run ``sub`` on top of the current stage; its result returns to the current stage."""
        below = self.current
        if below is None:
            raise StageError("push needs a running stage below the sub-stage.")
        sub.parent = below
        self._run(sub, previous)  # called from inside a stage: ``busy`` is already set

    # --- internals ----------------------------------------------------------------------------------
    def _run(self, stage: Stage, previous: Any) -> None:
        self._start(stage, previous)
        self._advance()

    def _advance(self) -> None:
        """Follow stage endings until a stage is waiting for input or the game stops."""
        ctx = self.ctx
        while self.status == "running":
            stage = self.current
            if stage is None:
                return
            ending = stage.ending  # how the stage ended: Done (its result in stage.result), or the Outcome
            if ending is None:
                return
            if ending is Done:
                if stage.parent is not None:  # a sub-stage's result goes back to its parent
                    self._back_to_parent(stage)
                    continue
                stack = self.stack
                if not stack:
                    reason = "the last stage finished but no stage follows; end with restart or exit"
                    self._stop_failed(stage, Failed(reason, stage.name, stage.state))
                nxt = self.current = stack.pop()
                try:  # as _start, inline: the path every stage takes
                    nxt.start(ctx, stage.result)
                except Exception as exc:
                    self._stop_failed(nxt, Failed(f"{type(exc).__name__}: {exc}", nxt.name, nxt.state), exc)
                continue
            kind = type(ending)
            if kind is Goto:
                target: str = ending.stage  # type: ignore[union-attr]
                while self.stack and self.stack[-1].name != target:
                    self.stack.pop()
                if not self.stack:
                    self._stop_failed(stage, Failed(f"no later stage is called {target!r}", stage.name, stage.state))
                self._start(self.stack.pop(), ending.result)  # type: ignore[union-attr]
            elif kind is Restart:
                self.stack = self._full[:]
                self._start(self.stack.pop(), None)
            elif kind is Exit:
                self.status = "exited"
            else:
                failed = ending if isinstance(ending, Failed) else Failed(f"unknown ending {ending!r}", stage.name)
                self._stop_failed(stage, failed)

    def _back_to_parent(self, sub: Stage) -> None:
        """Hand a finished sub-stage's result to the stage that pushed it, which is current again."""
        parent = sub.parent
        assert parent is not None
        sub.parent = None
        self.current = parent
        try:
            parent.on_substage_result(sub.result)
        except Exception as exc:
            self._stop_failed(parent, Failed(f"{type(exc).__name__}: {exc}", parent.name, parent.state), exc)

    def _start(self, stage: Stage, previous: Any) -> None:
        self.current = stage
        try:
            stage.start(self.ctx, previous)
        except Exception as exc:
            self._stop_failed(stage, Failed(f"{type(exc).__name__}: {exc}", stage.name, stage.state), exc)

    def _stop_failed(self, stage: Stage, failed: Failed, exc: BaseException | None = None) -> NoReturn:
        self.status = "failed"
        self.current = stage
        self.failure = failed
        self.ctx.emit(StageFailed(failed.stage or stage.name, failed.reason))
        name = failed.stage or stage.name
        raise StageError(f"Stage {name} failed in state {failed.state!r}: {failed.reason}") from exc
