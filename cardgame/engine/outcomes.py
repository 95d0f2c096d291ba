"""How a stage ends: the values :meth:`~cardgame.engine.Stage.start` and ``handle`` return.

``None`` means the stage waits for input. Anything else is one of these, and the dispatcher has
one clause for each (:meth:`~cardgame.engine.Dispatcher.advance`), as OpenPoker's ``advance``
has one per ``{next, ...}``, ``{goto, ...}``, ``{push, ...}`` ... answer.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardgame.engine.records import fast_init

__all__ = ["Done", "Exit", "Failed", "Goto", "Outcome", "PassOn", "Push", "Restart"]


class Outcome:
    """Base class of the ways a stage ends."""

    __slots__ = ()


@fast_init
@attrs.frozen
class Done(Outcome):
    """Finished with ``result``, which the next stage starts with (or, for a sub-stage, which goes
    back to the stage that pushed it)."""

    result: Any = None


@attrs.frozen
class PassOn(Outcome):
    """Finished with the result the stage was given (its ``previous``), handed on as ``Done`` hands on
    its own: a stage with nothing to add (dealing cards) ends so without building a record."""


@fast_init
@attrs.frozen
class Goto(Outcome):
    """Finished with ``result``, which the later stage called ``stage`` starts with; the stages
    between have nothing to do (a hand won before the showdown: ``Goto("showdown", result)``)."""

    stage: str
    result: Any = None


@attrs.frozen(eq=False)
class Push(Outcome):
    """Run the stage ``sub`` on top of this one, starting with ``previous``; its :class:`Done`
    result comes back to this stage's ``on_substage_result``."""

    sub: Any
    previous: Any = None


@attrs.frozen
class Restart(Outcome):
    """Start the stage list again from the top (the next hand)."""


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
