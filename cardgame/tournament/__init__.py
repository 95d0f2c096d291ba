"""Tournaments: ICM payout equity, payout tables, blind and ante structures with their clock, and
finishing places with their prizes (``docs/tournaments.md``)."""

from __future__ import annotations

from cardgame.tournament.errors import TournamentError
from cardgame.tournament.icm import Icm, exact_steps, icm, icm_table
from cardgame.tournament.payouts import (
    check_payouts,
    check_percentages,
    default_percentages,
    payouts,
    payouts_for,
)
from cardgame.tournament.places import Finish, Standings, split_prizes
from cardgame.tournament.structure import Break, Clock, Level, Structure, preset

__all__ = ["Break", "Clock", "Finish", "Icm", "Level", "Standings", "Structure", "TournamentError",
           "check_payouts", "check_percentages", "default_percentages", "exact_steps", "icm", "icm_table",
           "payouts", "payouts_for", "preset", "split_prizes"]
