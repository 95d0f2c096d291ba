"""Every public callable of ``cardgame.tournament`` (and the methods of its objects) fed each hostile value
in each parameter, the others valid: it works or refuses with a short ``CardgameError`` within a few
seconds. (The applications' walk, ``tests/test_public_api_walk_apps.py``, makes every parameter it has no
baseline for hostile at once, so it stops at the first; here each call gets past the ones before.)"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from cardgame.tournament import (
    BotStats,
    Break,
    EventSpec,
    Finish,
    HandPlayed,
    Icm,
    Level,
    LevelPlayed,
    SeatingRules,
    Series,
    SeriesResult,
    Standings,
    Structure,
    Tournament,
    check_payouts,
    check_percentages,
    default_percentages,
    exact_steps,
    icm,
    icm_table,
    payouts,
    payouts_for,
    preset,
    run_event,
    run_series,
    split_prizes,
)
from tests.api_walk import HOSTILE_FIXED, call_hostile

pytestmark = pytest.mark.usefixtures("own_folder")

RESULT = icm([5000, 3000, 2000], [50, 30, 20])
STANDINGS = Standings(["A", "B", "C"], [2, 1])
MTT = preset("regular mtt")
#: A two-player event that ends in a hand or two (everyone all in).
DUEL = EventSpec(2, ("all-in",))
PLAYED = run_event(DUEL, 1)
SERIES = run_series(Series(DUEL, 2, seed=1))

#: Each callable with valid arguments by name; each in turn is replaced by a hostile value.
CALLS: list[tuple[str, Callable[..., Any], dict[str, Any]]] = [
    ("icm", icm, {"stacks": [5, 3, 2], "payouts": [3, 2], "method": "auto", "samples": 1000, "seed": 1}),
    ("icm monte carlo", icm, {"stacks": [5, 3, 2], "payouts": [3, 2], "method": "monte carlo", "samples": 1000,
                              "seed": 1}),
    ("icm_table", icm_table, {"result": RESULT, "names": ["a", "b", "c"]}),
    ("exact_steps", exact_steps, {"players_with_chips": 5, "places_paid": 3}),
    ("Icm", Icm, {"stacks": (1,), "payouts": (1,), "equity": (1.0,), "share": (1.0,), "standard_error": (0.0,),
                  "method": "exact", "samples": 0, "seed": None}),
    ("check_percentages", check_percentages, {"percentages": [50, 30, 20], "entrants": 9}),
    ("check_payouts", check_payouts, {"amounts": [5, 3, 2], "entrants": 9}),
    ("default_percentages", default_percentages, {"entrants": 100}),
    ("payouts", payouts, {"prize_pool": 1000, "percentages": [50, 30, 20], "unit": 10, "remainder": "largest"}),
    ("payouts_for", payouts_for, {"entrants": 9, "prize_pool": 1000, "percentages": [50, 30, 20], "unit": 10,
                                  "remainder": "first"}),
    ("Level", Level, {"small_blind": 1, "big_blind": 2, "ante": 2, "length": 10}),
    ("Break", Break, {"length": 10}),
    ("Structure", Structure, {"levels": (Level(1, 2), Break(5), Level(2, 4)), "unit": "minutes",
                              "ante_format": "everyone", "name": "x"}),
    ("Structure.from_rows", Structure.from_rows, {"rows": [[1, 2], ["break", 5], [2, 4, 4, 10]], "unit": "minutes",
                                                  "ante_format": "big blind", "name": "x"}),
    ("Structure.from_toml", Structure.from_toml, {"text": "levels = [[1, 2]]", "source": "x.toml"}),
    ("Structure.read", Structure.read, {"path": "missing.toml"}),
    ("Structure.at_time", MTT.at_time, {"seconds": 100}),
    ("Structure.at_hand", preset("turbo sng hands").at_hand, {"hand": 5}),
    ("Structure.game_options", MTT.game_options, {"level": Level(1, 2)}),
    ("preset", preset, {"name": "turbo sng"}),
    ("Finish", Finish, {"name": "A", "place": 1, "shared": 1, "prize": 5, "hand": 3}),
    ("Standings", Standings, {"players": ["A", "B", "C"], "payouts": [2, 1], "finishes": ()}),
    ("Standings.eliminate", STANDINGS.eliminate, {"busted": {"A": 5, "B": 7}, "hand": 3}),
    ("Standings.prize", STANDINGS.prize, {"place": 2}),
    ("Standings.icm_table", STANDINGS.icm_table, {"stacks": {"A": 5, "B": 3, "C": 2}}),
    ("split_prizes", split_prizes, {"payouts": [5, 3, 2], "place": 2, "count": 2}),
    ("EventSpec", EventSpec, {"entrants": 3, "bots": ("all-in", "random"), "structure": preset("turbo sng hands"),
                              "stack": 100, "buy_in": 10, "percentages": (100,), "rules": SeatingRules(),
                              "variant": "NT", "seconds_per_hand": 30, "max_rounds": 1000}),
    ("EventSpec.bot_of", DUEL.bot_of, {"index": 1}),
    ("run_event", run_event, {"spec": DUEL, "seed": 3, "listener": id}),
    ("Tournament", Tournament, {"seed": 1, "spec": DUEL, "standings": PLAYED.standings, "rounds": 1, "hands": 1,
                                "levels": (), "breaks": 0, "final_table": 1, "moves": 0}),
    ("Tournament.bot", PLAYED.bot, {"name": "p1"}),
    ("Tournament.table", PLAYED.table, {"top": 5}),
    ("LevelPlayed", LevelPlayed, {"level": 1, "blinds": Level(1, 2), "first_round": 1, "rounds": 1, "hands": 1,
                                  "players": 2}),
    ("HandPlayed", HandPlayed, {"table": 1, "round": 1, "level": 1, "names": {}, "events": ()}),
    ("Series", Series, {"spec": DUEL, "events": 2, "seed": 1, "shard_events": 1}),
    ("run_series", run_series, {"series": Series(DUEL, 2, seed=1), "workers": 1, "backend": "serial",
                                "progress": max}),
    ("SeriesResult", SeriesResult, {"seed": 1, "events": 1, "entrants": 2, "hands": 1, "rounds": 1,
                                    "event_seeds": (1,), "bots": SERIES.bots}),
    ("BotStats", BotStats, {"name": "x", "entries": 1, "itm": 1.0, "average_place": 1.0, "wins": 0, "prizes": 0,
                            "buy_ins": 0, "roi": None}),
]


def test_every_public_name_has_a_call_here() -> None:
    import cardgame.tournament as package
    from cardgame.tournament import seating  # fed hostile values in test_seating.py

    named = {label.split(" ")[0].split(".")[0] for label, _, _ in CALLS}
    assert {n for n in package.__all__ if n not in ("TournamentError", "Clock", *seating.__all__)} <= named


@pytest.mark.parametrize(("label", "fn", "valid"), CALLS, ids=[c[0] for c in CALLS])
def test_each_parameter_refuses_each_hostile_value(label: str, fn: Callable[..., Any], valid: dict[str, Any]) -> None:
    assert set(inspect.signature(fn).parameters) == set(valid), label
    call_hostile(f"{label} (valid)", fn, (), dict(valid))
    for name in valid:
        for value in HOSTILE_FIXED:
            call_hostile(f"{label}({name}={type(value).__name__})", fn, (), {**valid, name: value})

