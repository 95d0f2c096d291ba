"""Tournaments (``docs/tournaments.md``):

* :mod:`~cardgame.tournament.icm`: ICM payout equity;
* :mod:`~cardgame.tournament.payouts`: payout tables;
* :mod:`~cardgame.tournament.structure`: blind and ante structures with their clock;
* :mod:`~cardgame.tournament.places`: finishing places with their prizes;
* :mod:`~cardgame.tournament.seating`: the seat draw, which player moves where when tables are
  balanced or broken (TDA rules 7, 10 and 11, RP-9), and when tables play hand for hand (TDA RP-8);
* :mod:`~cardgame.tournament.event`: one event played to its end between bots (:func:`run_event`);
* :mod:`~cardgame.tournament.series`: many events in parallel, with each bot's ITM %, average place and
  ROI (:func:`run_series`);
* :mod:`~cardgame.tournament.errors`: :class:`TournamentError`.
"""

from __future__ import annotations

from cardgame.tournament.errors import TournamentError
from cardgame.tournament.event import EventSpec, HandPlayed, LevelPlayed, Tournament, run_event
from cardgame.tournament.icm import Icm, exact_steps, icm, icm_table
from cardgame.tournament.payouts import (
    check_payouts,
    check_percentages,
    default_percentages,
    payouts,
    payouts_for,
)
from cardgame.tournament.places import Finish, Standings, split_prizes
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
from cardgame.tournament.series import BotStats, Series, SeriesResult, run_series
from cardgame.tournament.structure import Break, Clock, Level, Structure, preset

__all__ = ["MAX_ENTRANTS", "MAX_TABLE_SIZE", "BotStats", "Break", "Bubble", "Clock", "EventSpec", "Finish",
           "HandPlayed", "Icm", "Level", "LevelPlayed", "Move", "Plan", "SeatingRules", "Series", "SeriesResult",
           "Standings", "Structure", "Table", "Tournament", "TournamentError", "balance", "bubble", "check_payouts",
           "check_percentages", "default_percentages", "draw_seats", "exact_steps", "icm", "icm_table",
           "next_big_blind", "payouts", "payouts_for", "preset", "run_event", "run_series", "split_prizes"]
