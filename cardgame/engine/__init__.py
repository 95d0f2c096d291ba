"""The kernel: state machines compiled from ``transitions``, stages that return how they end, and
the dispatcher that runs a stack of them. It knows nothing of poker (or any game): a game's context
is anything with ``emit(event)``, and its stages subclass :class:`Stage`.

See ``examples/blackjack.py`` for a game other than poker on the same kernel.
"""

from cardgame.engine.dispatcher import Dispatcher
from cardgame.engine.errors import CardgameError, ConfigError, IllegalActionError, StageError
from cardgame.engine.events import Event, StageFailed
from cardgame.engine.machine import Step, compile_machine, fire, generate, generate_start
from cardgame.engine.outcomes import Done, Exit, Failed, Goto, Outcome, PassOn, Push, Restart
from cardgame.engine.records import fast_init
from cardgame.engine.stage import PASSES_ON, Emitter, Settings, Stage, Stages, check_fit

__all__ = [
    "PASSES_ON",
    "CardgameError",
    "ConfigError",
    "Dispatcher",
    "Done",
    "Emitter",
    "Event",
    "Exit",
    "Failed",
    "Goto",
    "IllegalActionError",
    "Outcome",
    "PassOn",
    "Push",
    "Restart",
    "Settings",
    "Stage",
    "StageError",
    "StageFailed",
    "Stages",
    "Step",
    "check_fit",
    "compile_machine",
    "fast_init",
    "fire",
    "generate",
    "generate_start",
]
