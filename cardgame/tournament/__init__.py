"""Multi-table tournaments: seating, balancing and breaking tables, the final table, hand-for-hand play.

* :mod:`~cardgame.tournament.seating`: the seat draw, which player moves where when tables are
  balanced or broken (TDA rules 7, 10 and 11, RP-9), and when tables play hand for hand (TDA RP-8);
* :mod:`~cardgame.tournament.errors`: :class:`TournamentError`.
"""

from __future__ import annotations

from cardgame.tournament.errors import TournamentError
from cardgame.tournament.seating import (
    MAX_ENTRANTS,
    MAX_TABLE_SIZE,
    Bubble,
    Move,
    Plan,
    SeatingRules,
    Table,
    balance,
    bubble,
    draw_seats,
    next_big_blind,
)

__all__ = ["MAX_ENTRANTS", "MAX_TABLE_SIZE", "Bubble", "Move", "Plan", "SeatingRules", "Table", "TournamentError",
           "balance", "bubble", "draw_seats", "next_big_blind"]
