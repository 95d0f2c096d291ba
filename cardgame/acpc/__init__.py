"""The ACPC poker protocol (version 2.0.0): game definitions, match states, a client and a dealer.

* :mod:`cardgame.acpc.gamedef` reads and writes ``.game`` files (:class:`GameDef`);
* :mod:`cardgame.acpc.matchstate` encodes and decodes ``MATCHSTATE`` lines (:class:`MatchState`);
* :mod:`cardgame.acpc.stages` plays a definition on the engine's stages (:func:`acpc_stages`);
* :mod:`cardgame.acpc.hand` runs one hand on the engine with ACPC actions (:class:`AcpcHand`).
"""

from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef, load_gamedef, parse_gamedef, read_gamedef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.matchstate import Action, MatchState, parse_matchstate
from cardgame.acpc.stages import acpc_stages

__all__ = [
    "STANDARD_GAMES",
    "AcpcHand",
    "Action",
    "GameDef",
    "MatchState",
    "acpc_stages",
    "load_gamedef",
    "parse_gamedef",
    "parse_matchstate",
    "read_gamedef",
]
