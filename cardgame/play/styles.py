"""The named range bots: tight-aggressive, loose-aggressive, tight-passive and nit.

Each is a :class:`~cardgame.play.rangebot.Style` written as plain data (TOML-able dicts below), so
a new style starts as a copy of one. The target figures are the usual readings of a 6-max
heads-up display for each kind of player (VPIP: hands it puts chips in voluntarily before the flop;
PFR: hands it raises before the flop; AF: bets and raises per call on every street):

============== ========= ========= =========
style          VPIP      PFR       AF
============== ========= ========= =========
nit            6-12 %    5-10 %    above 1.5
tight-passive  12-22 %   2-8 %     below 1
tight-aggr.    15-25 %   12-20 %   above 2
loose-aggr.    26-36 %   20-30 %   above 2.5
============== ========= ========= =========

Each function's docstring gives the figures measured in a 6-max cash match against the other bots::

    cardgame simulate --bots tight-aggressive,loose-aggressive,tight-passive,nit,seed-ai,seed-ai-loose \\
        --hands 20000 --seed 1

and where the seed AI stands against it heads-up (``--bots seed-ai,STYLE --hands 2000 --duplicate
--seed 1``: the seed AI's big blinds per 100 hands, ± its standard error).
"""

from __future__ import annotations

import math
from typing import Any

from cardgame.play.rangebot import RangeBot, style

__all__ = ["LOOSE_AGGRESSIVE", "NIT", "STYLES", "TARGETS", "TIGHT_AGGRESSIVE", "TIGHT_PASSIVE", "loose_aggressive",
           "nit", "tight_aggressive", "tight_passive"]

TIGHT_AGGRESSIVE: dict[str, Any] = {
    "name": "tight-aggressive",
    "preflop": [
        {"max_bb": 20, "open_size": "all-in",
         "open": {"UTG": "55+, A8s+, KTs+, QJs, ATo+, KQo", "CO": "22+, A2s+, K9s+, QTs+, JTs, A8o+, KJo+",
                  "BTN": "22+, A2s+, K7s+, Q9s+, J9s+, T9s, A2o+, KTo+, QJo", "SB": "22+, A2s+, K8s+, Q9s+, J9s+, "
                  "A5o+, KTo+", "HU_SB": "22+, A2+, K2s+, K7o+, Q8s+, QTo+, J9s+, JTo"},
         "call": {"UTG": "TT+, AQs+, AKo", "BB": "77+, ATs+, KQs, AJo+", "HU_BB": "22+, A5s+, K9s+, A7o+, KJo+"},
         "3bet": "QQ+, AKs, AKo", "4bet": "KK+", "call_3bet": "QQ, AKs"},
        {"open_size": 2.5, "raise_size": 3,
         "open": {"UTG": "66+, A9s+, A5s, KTs+, QTs+, JTs, ATo+, KQo",
                  "HJ": "44+, A7s+, A5s-A4s, K9s+, Q9s+, J9s+, T9s, 98s, ATo+, KJo+",
                  "CO": "22+, A2s+, K7s+, Q8s+, J8s+, T8s+, 97s+, 87s, 76s, A8o+, KTo+, QTo+, JTo",
                  "BTN": "22+, A2s+, K4s+, Q6s+, J7s+, T7s+, 96s+, 85s+, 75s+, 64s+, 54s, A4o+, K9o+, Q9o+, J9o+, "
                         "T9o",
                  "SB": "22+, A2s+, K6s+, Q8s+, J8s+, T8s+, 97s+, 87s, 76s, A7o+, K9o+, QTo+, JTo",
                  "HU_SB": "22+, A2+, K2s+, K8o+, Q5s+, Q9o+, J7s+, J9o+, T7s+, T9o, 97s+, 86s+, 75s+, 64s+, 54s"},
         "call": {"UTG": "77-JJ, ATs-AQs, KJs+, QJs, JTs, AQo", "CO": "55-JJ, A9s-AQs, KTs+, QTs+, JTs, T9s, "
                  "98s, AJo-AQo, KQo",
                  "BTN": "22-JJ, A8s-AQs, KTs+, QTs+, JTs, T9s, 98s, 87s, AJo-AQo, KQo",
                  "BB": "22-JJ, A2s-AQs, K5s+, Q7s+, J8s+, T7s+, 97s+, 86s+, 75s+, 65s, 54s, A8o-AQo, KTo+, QTo+, "
                        "JTo",
                  "SB": "77-JJ, ATs-AQs, KJs+, QJs, JTs, AQo",
                  "HU_BB": "22-99, A2s-AJs, K5s+, Q8s+, J8s+, T8s+, 97s+, 87s, 76s, A2o-AJo, K9o+, QTo+, JTo"},
         "3bet": {"UTG": "QQ+, AKs, AKo", "CO": "JJ+, AQs+, AKo, A5s-A4s", "BTN": "TT+, AJs+, KQs, AQo+, A5s-A4s",
                  "BB": "TT+, AQs+, AKo, A5s-A4s", "HU_BB": "TT+, AQs+, AQo+, A5s-A2s, K9s"},
         "4bet": "KK+, AKs", "call_3bet": "JJ-QQ, AKo, AQs"},
    ],
    "postflop": {"strong": 0.8, "medium": 0.62, "bet": [0.3, 0.7, 0.9], "raise": [0.05, 0.15, 0.6],
                 "call": [0.0, 0.35, 1.0], "cbet": 0.75, "bet_size": 0.66, "raise_size": 1.0},
}

LOOSE_AGGRESSIVE: dict[str, Any] = {
    "name": "loose-aggressive",
    "preflop": [
        {"max_bb": 20, "open_size": "all-in",
         "open": {"UTG": "22+, A2s+, K9s+, QTs+, JTs, A9o+, KJo+", "CO": "22+, A2s+, K5s+, Q8s+, J8s+, T8s+, 98s, "
                  "A2o+, K9o+, QTo+", "BTN": "22+, A2+, K2s+, K8o+, Q6s+, Q9o+, J8s+, T8s+, 97s+, 87s",
                  "HU_SB": "22+, A2+, K2+, Q2s+, Q8o+, J7s+, J9o+, T7s+, 97s+, 87s"},
         "call": {"UTG": "99+, AJs+, AQo+", "BB": "55+, A8s+, KJs+, ATo+", "HU_BB": "22+, A2+, K8s+, KTo+"},
         "3bet": "TT+, AQs+, AKo", "4bet": "QQ+, AKs", "call_3bet": "TT-JJ, AQs+, AKo"},
        {"open_size": 2.5, "raise_size": 3,
         "open": {"UTG": "22+, A2s+, K5s+, Q8s+, J8s+, T7s+, 97s+, 86s+, 76s, 65s, 54s, A8o+, KTo+, QTo+, JTo",
                  "HJ": "22+, A2s+, K4s+, Q6s+, J7s+, T7s+, 96s+, 86s+, 75s+, 64s+, 54s, A5o+, K9o+, QTo+, JTo",
                  "CO": "22+, A2s+, K2s+, Q5s+, J6s+, T6s+, 96s+, 85s+, 74s+, 64s+, 53s+, 43s, A2o+, K8o+, Q9o+, "
                        "J9o+, T9o",
                  "BTN": "22+, A2+, K2s+, K5o+, Q2s+, Q8o+, J4s+, J8o+, T6s+, T8o+, 95s+, 97o+, 85s+, 87o, 74s+, "
                         "63s+, 53s+, 43s",
                  "SB": "22+, A2s+, K2s+, Q5s+, J7s+, T7s+, 96s+, 85s+, 75s+, 64s+, 54s, A2o+, K9o+, QTo+, JTo",
                  "HU_SB": "22+, A2+, K2+, Q2s+, Q6o+, J4s+, J8o+, T6s+, T8o+, 95s+, 97o+, 85s+, 87o, 74s+, 64s+, "
                           "53s+, 43s"},
         "call": {"UTG": "22-JJ, A2s-AQs, K8s+, Q9s+, J9s+, T8s+, 98s, 87s, 76s, A9o-AQo, KJo+",
                  "CO": "22-JJ, A2s-AQs, K7s+, Q8s+, J8s+, T8s+, 97s+, 87s, 76s, 65s, A9o-AQo, KTo+, QJo",
                  "BTN": "22-JJ, A2s-AQs, K6s+, Q8s+, J8s+, T7s+, 97s+, 86s+, 75s+, 65s, 54s, A8o-AQo, KTo+, QTo+, "
                         "JTo",
                  "SB": "22-JJ, A2s-AQs, K7s+, Q8s+, J8s+, T7s+, 97s+, 87s, 76s, 65s, A9o-AQo, KTo+, QJo",
                  "BB": "22-TT, A2s-AJs, K5s+, Q7s+, J7s+, T7s+, 96s+, 85s+, 75s+, 64s+, 54s, A5o-AQo, K9o+, QTo+, "
                        "JTo",
                  "HU_BB": "22-99, A2s-AJs, K2s+, Q4s+, J6s+, T6s+, 96s+, 85s+, 75s+, 64s+, 54s, A2o-ATo, K7o+, "
                           "Q8o+, J8o+, T8o+, 98o"},
         "3bet": {"UTG": "TT+, AJs+, KQs, AQo+, A5s-A4s", "CO": "99+, ATs+, KJs+, AJo+, KQo, A5s-A2s, 76s",
                  "BTN": "88+, ATs+, KTs+, QJs, AJo+, KQo, A5s-A2s, 87s, 76s, 65s",
                  "BB": "99+, ATs+, KJs+, AJo+, KQo, A5s-A2s, 87s, 76s, 65s",
                  "HU_BB": "88+, A8s+, KTs+, QJs, ATo+, KQo, A5s-A2s, 76s, 65s, 54s"},
         "4bet": "QQ+, AKs, AKo, A5s", "call_3bet": "88-JJ, AQs-AJs, KQs, AQo, JTs"},
    ],
    "postflop": {"strong": 0.78, "medium": 0.6, "bet": [0.5, 0.8, 0.95], "raise": [0.12, 0.25, 0.7],
                 "call": [0.0, 0.4, 1.0], "cbet": 0.85, "bet_size": 0.75, "raise_size": 1.0},
}

TIGHT_PASSIVE: dict[str, Any] = {
    "name": "tight-passive",
    "preflop": [
        {"max_bb": 20, "open_size": 2,
         "open": "TT+, AKs, AKo", "limp": "22-99, A8s-AQs, KTs+, QJs, AJo-AQo, KQo",
         "call": "55+, ATs+, KQs, AJo+", "3bet": "KK+", "call_3bet": "QQ+, AK"},
        {"open_size": 3, "raise_size": 3,
         "open": "99+, ATs+, KQs, AJo+",
         "limp": {"UTG": "22-88, A7s-ATs, K9s+, QTs+, JTs, T9s, 98s, ATo-AJo, KJo+",
                  "CO": "22-88, A2s-ATs, K9s+, Q9s+, J9s+, T9s, 98s, A9o-AJo, KTo+, QJo",
                  "SB": "22-TT, A2s-AQs, K8s+, Q9s+, J9s+, T9s, 98s, 87s, A8o-AQo, KTo+, QJo",
                  "HU_SB": "22-TT, A2s-AQs, K2s+, Q6s+, J8s+, T8s+, 98s, A2o-AQo, K8o+, QTo+, JTo"},
         "call": {"UTG": "55-QQ, ATs-AQs, KJs+, QJs, AJo-AQo, KQo",
                  "CO": "22-QQ, A9s-AQs, KTs+, QTs+, JTs, T9s, ATo-AQo, KJo+",
                  "BB": "22-QQ, A2s-AQs, K9s+, Q9s+, J9s+, T9s, 98s, 87s, ATo-AQo, KJo+, QJo",
                  "HU_BB": "22-QQ, A2s-AQs, K5s+, Q8s+, J8s+, T8s+, 98s, 87s, A2o-AQo, K9o+, QTo+, JTo"},
         "3bet": "QQ+, AKs", "4bet": "AA", "call_3bet": "JJ-QQ, AKs, AKo"},
    ],
    "postflop": {"strong": 0.82, "medium": 0.6, "bet": [0.0, 0.15, 0.45], "raise": [0.0, 0.0, 0.12],
                 "call": [0.15, 0.8, 1.0], "cbet": 0.2, "bet_size": 0.5, "raise_size": 0.75},
}

NIT: dict[str, Any] = {
    "name": "nit",
    "preflop": [
        {"max_bb": 20, "open_size": "all-in",
         "open": {"UTG": "88+, AJs+, AQo+", "BTN": "55+, A9s+, KQs, ATo+", "HU_SB": "22+, A7s+, KTs+, A9o+, KQo"},
         "call": "TT+, AK", "3bet": "QQ+, AK", "4bet": "KK+", "call_3bet": "AA"},
        {"open_size": 3, "raise_size": 3,
         "open": {"UTG": "66+, ATs+, KQs, AQo+", "HJ": "55+, ATs+, KJs+, AJo+, KQo",
                  "CO": "44+, A9s+, KTs+, QJs, AJo+, KQo",
                  "BTN": "22+, A7s+, K9s+, QTs+, JTs, ATo+, KJo+", "SB": "55+, ATs+, KQs, AJo+",
                  "HU_SB": "22+, A7s+, K9s+, QTs+, JTs, A9o+, KJo+"},
         "call": {"UTG": "99-JJ, AQs", "CO": "77-JJ, AQs", "BTN": "66-JJ, AJs-AQs, KQs",
                  "BB": "44-JJ, ATs-AQs, KQs, AQo", "HU_BB": "22-JJ, A8s-AQs, KJs+, ATo-AQo, KQo"},
         "3bet": "QQ+, AKs, AKo", "4bet": "KK+", "call_3bet": "QQ, AKs"},
    ],
    "postflop": {"strong": 0.82, "medium": 0.65, "bet": [0.0, 0.5, 0.9], "raise": [0.0, 0.08, 0.55],
                 "call": [0.0, 0.4, 1.0], "cbet": 0.55, "bet_size": 0.6, "raise_size": 1.0},
}

TARGETS: dict[str, dict[str, tuple[float, float]]] = {
    "nit": {"vpip": (0.06, 0.12), "pfr": (0.05, 0.10), "af": (1.5, math.inf)},
    "tight-passive": {"vpip": (0.12, 0.22), "pfr": (0.02, 0.08), "af": (0.0, 1.0)},
    "tight-aggressive": {"vpip": (0.15, 0.25), "pfr": (0.12, 0.20), "af": (2.0, math.inf)},
    "loose-aggressive": {"vpip": (0.26, 0.36), "pfr": (0.20, 0.30), "af": (2.5, math.inf)},
}
"""Each style's target VPIP, PFR (shares of hands) and aggression factor, as (low, high) (the
table above)."""

STYLES: dict[str, dict[str, Any]] = {s["name"]: s for s in (TIGHT_AGGRESSIVE, LOOSE_AGGRESSIVE, TIGHT_PASSIVE, NIT)}
"""The named styles' data by name."""


def tight_aggressive() -> RangeBot:
    """Raises first in most hands it plays (about a fifth of them at 6-max), 3-bets the best,
    bets and raises its made hands and c-bets three flops in four.

    Measured (see the module): VPIP 20.7 %, PFR 16.7 %, AF 3.0 (+60.8 ± 24.6 bb/100 at 95 %);
    heads-up the seed AI stands at -12.2 ± 27.3 bb/100 (one standard error) against it."""
    return RangeBot(style(TIGHT_AGGRESSIVE))


def loose_aggressive() -> RangeBot:
    """Opens about a third of its hands, 3-bets light, bets often with weak hands too.

    Measured (see the module): VPIP 32.5 %, PFR 27.0 %, AF 3.7 (+86.8 ± 33.2 bb/100 at 95 %);
    heads-up the seed AI stands at -70.8 ± 34.6 bb/100 (one standard error) against it."""
    return RangeBot(style(LOOSE_AGGRESSIVE))


def tight_passive() -> RangeBot:
    """Plays few hands and limps or calls with most of them; raises only the very best, and after
    the flop mostly checks and calls.

    Measured (see the module): VPIP 15.3 %, PFR 4.2 %, AF 0.33 (+39.4 ± 20.2 bb/100 at 95 %);
    heads-up the seed AI stands at -46.7 ± 20.7 bb/100 (one standard error) against it."""
    return RangeBot(style(TIGHT_PASSIVE))


def nit() -> RangeBot:
    """Plays only premium hands (about one in twelve), raising with them; folds the rest.

    Measured (see the module): VPIP 8.5 %, PFR 7.1 %, AF 3.1 (+30.0 ± 16.3 bb/100 at 95 %);
    heads-up the seed AI stands at -21.1 ± 19.3 bb/100 (one standard error) against it."""
    return RangeBot(style(NIT))
