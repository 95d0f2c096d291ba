"""The public API of the file and protocol applications walked with hostile values: every public
callable of :mod:`cardgame.phh`, :mod:`cardgame.acpc` and :mod:`cardgame.store`, found by introspection
(the walker of :mod:`tests.api_walk`).

A hostile value (a huge or negative number, a bool, NaN, a 100,000-character string, bytes, deep
nesting, ``None``, a wrong type, an object whose ``repr`` raises) is taken or refused with the
library's own error (:class:`~cardgame.model.errors.HandHistoryError`, ``ProtocolError``,
:class:`~cardgame.store.StoreError`...) whose message is short; never a bare ``TypeError``,
``AttributeError``, ``ValueError`` (4,300 digits) or ``OSError`` (a file name too long, a folder).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import variants
from cardgame import phh
from cardgame.acpc import STANDARD_GAMES, load_gamedef, parse_gamedef, read_gamedef
from cardgame.acpc import log as acpc_log
from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError, HandHistoryError, ProtocolError
from cardgame.phh.io import load_each
from cardgame.phh.replay import check_paths, replay
from cardgame.play.bots import calling_station
from cardgame.play.game import Game
from cardgame.store import EventStore, Recorder, StoreError
from cardgame.store.serialize import SnapshotError
from cardgame.store.snapshot import dumps as snapshot_dumps
from cardgame.store.snapshot import loads as snapshot_loads
from cardgame.store.snapshot import snapshot
from tests.api_walk import (
    MESSAGE_LIMIT,
    public_callables,
    walk_tests,
)

#: The packages, and the modules of theirs the command line reaches beyond their packages' ``__all__``
#: (``cardgame phh check``, ``cardgame acpc score``, ``cardgame play --resume``).
FILES = ("cardgame.phh", "cardgame.acpc", "cardgame.store", "cardgame.phh.replay", "cardgame.acpc.log",
         "cardgame.store.snapshot")

#: Public names left out as code, not input (each with why): none; every public callable of these
#: applications takes what a user hands in (a path, PHH or ACPC text, a store, a game) and is walked.
ALLOWED: dict[str, str] = {}

#: Names (prefixes) whose arguments are the library's own runtime objects, never parsed from input.
RUNTIME: tuple[str, ...] = (
    "cardgame.acpc.log.HandRecord",  # a logged hand's record: built by parse_state from a checked line
    "cardgame.acpc.log.Score",  # the SCORE line's record: built by parse_score from a checked line
)

#: Escapes not yet mended (``name: what escapes``), each a strict xfail: empty.
KNOWN_ESCAPES: dict[str, str] = {}

API = public_callables(FILES, ALLOWED, RUNTIME)


#: Every test in a folder of its own: a hostile string may be taken for a file name and written.
pytestmark = pytest.mark.usefixtures("own_folder")


def test_the_walk_finds_the_file_applications() -> None:
    """The walk sees the functions and classes a user calls (a new public name is walked at once)."""
    names = {name for name, _ in API}
    assert {"cardgame.phh.loads", "cardgame.phh.HandHistory", "cardgame.phh.HandHistory.from_dict",
            "cardgame.acpc.parse_gamedef", "cardgame.acpc.load_gamedef", "cardgame.store.EventStore",
            "cardgame.store.Recorder"} <= names


#: Each fixed hostile value in each parameter, and hypothesis's (:func:`tests.api_walk.walk_tests`).
test_file_callables_refuse_each_fixed_hostile_value, test_file_callables_refuse_hostile_values = (
    walk_tests(API, KNOWN_ESCAPES))


# --- the escapes the walk found, one by one ------------------------------------------------------------

HUGE = 10**5000
LONG = "x" * 100_000
GAME = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
HAND = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n'


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: load_gamedef(5), ConfigError, "must be a file path"),
        (lambda: load_gamedef(b"holdem"), ConfigError, "must be a file path"),
        (lambda: load_gamedef(LONG), ConfigError, "Cannot read a game definition: 'xxx.*File name too long"),
        (lambda: read_gamedef("."), ConfigError, "Cannot read a game definition: '.': Is a directory"),
        (lambda: read_gamedef("a\0b"), ConfigError, "must be a file path"),
        (lambda: parse_gamedef("nonsense", source=LONG), ConfigError, r"100,000 characters\), line 1"),
        (lambda: parse_gamedef("nonsense", source=HUGE), ConfigError, "about 5,000 digits"),
        (lambda: phh.FoldAction(0, commentary=5), HandHistoryError, "commentary is text or None, not 5"),
        (lambda: phh.DealBoardAction(None), HandHistoryError, "a list or tuple of Card and None"),
        (lambda: phh.DealHoleAction(0, [Card(0), "Ah"]), HandHistoryError, "a list or tuple of Card and None"),
        (lambda: phh.parse_action(7), HandHistoryError, "A PHH action line is text"),
        (lambda: phh.parse_action("p1 f", player_count=HUGE), HandHistoryError, "player count"),
        (lambda: phh.parse_phh_cards(None), HandHistoryError, "PHH cards are text"),
        (lambda: phh.format_phh_cards([HUGE]), HandHistoryError, "about 5,000 digits"),
        (lambda: phh.required_fields(["NT"]), HandHistoryError, "Unknown PHH variant code"),
        (lambda: phh.forbidden_fields("XX"), HandHistoryError, "Unknown PHH variant code 'XX'"),
        (lambda: phh.HandHistory(variant="NT", starting_stacks=5), HandHistoryError, "expected an array"),
        (lambda: phh.HandHistory.from_dict(5), HandHistoryError, "a hand is a mapping"),
        (lambda: phh.HandHistory.from_dict({}, source=[HUGE]), HandHistoryError, "missing required field"),
        (lambda: phh.loads("x = ", source=LONG), HandHistoryError, r"100,000 characters\): invalid TOML"),
        (lambda: phh.loads(HAND, source=HUGE), HandHistoryError, "about 5,000 digits"),
        (lambda: phh.load(True), HandHistoryError, "must be a file path"),
        (lambda: phh.load("."), HandHistoryError, "Cannot read a hand-history file: '.': Is a directory"),
        (lambda: phh.load(LONG), HandHistoryError, "File name too long"),
        (lambda: phh.dumps(5), HandHistoryError, "a HandHistory or an iterable of them"),
        (lambda: phh.save({1, 2}, phh.loads(HAND + "actions = []")), HandHistoryError, "must be a file path"),
        (lambda: phh.save(".", phh.loads(HAND + "actions = []")), HandHistoryError,
         "Cannot write a hand-history file: '.': Is a directory"),
        (lambda: Recorder("store.db", None, "t", None, print), StoreError, "writes to an EventStore"),
        # modules of the packages reached by the command line, beyond their packages' __all__
        (lambda: replay(5), HandHistoryError, "a hand to replay is a HandHistory"),
        (lambda: replay(phh.loads(HAND + "actions = []")[0], seed=[1]), HandHistoryError, "seed"),
        (lambda: replay(phh.loads(HAND + "actions = []")[0], conventions=5), HandHistoryError, "conventions"),
        (lambda: replay(phh.loads(HAND + "actions = []")[0], after=5), HandHistoryError, "after is a function"),
        (lambda: check_paths(5), HandHistoryError, "an iterable of paths"),
        (lambda: snapshot_loads("{}", "NT", max_size="x"), SnapshotError, "max_size"),
        (lambda: snapshot(None), SnapshotError, "A snapshot is taken of a Game"),
        (lambda: snapshot_dumps(Game(variants.get("NT"), seats=2, seed=1), indent=HUGE), SnapshotError, "indent"),
        (lambda: acpc_log.parse_log(5, GAME), ProtocolError, "An ACPC log is text"),
        (lambda: acpc_log.parse_state("STATE:0:cc/r250c/cc/cc:Ah2s|9c8d/Tc5d4h/8c/9h:-100|100:a|b", "game"),
         ConfigError, "An ACPC game is a GameDef"),
        (lambda: acpc_log.format_value(HUGE), ProtocolError, "about 5,000 digits"),
        (lambda: acpc_log.payoff(math.nan), ProtocolError, "A payoff is a finite number"),
        (lambda: acpc_log.replay(None, GAME), ProtocolError, "A logged hand is a HandRecord"),
        (lambda: list(acpc_log.read_log(".", GAME)), ProtocolError, "Cannot read an ACPC log: '.': Is a directory"),
        (lambda: list(acpc_log.read_log(b"log", GAME)), ProtocolError, "must be a file path"),
    ],
)
def test_each_escape_the_walk_found_is_the_library_s_error(call: Callable[[], Any], error: type[Exception],
                                                           match: str) -> None:
    """Each was a bare TypeError, AttributeError, KeyError, OSError or ValueError (4,300 digits), or a
    message quoting 100,000 characters."""
    with pytest.raises(error, match=match) as info:
        call()
    assert len(str(info.value)) <= MESSAGE_LIMIT


@pytest.mark.parametrize("paths", [5, None, b"ab", LONG, ["a\0b"], [5], "missing", [["x"] * 10_000]])
def test_iter_paths_refuses_what_is_no_path(paths: Any) -> None:
    """``iter_paths`` is a generator, which the walk calls without iterating: iterated, it raised a bare
    TypeError (not iterable, not a path) or an OSError quoting 100,000 characters (a name too long)."""
    with pytest.raises(HandHistoryError) as info:
        list(phh.iter_paths(paths))
    assert len(str(info.value)) <= MESSAGE_LIMIT


def test_load_each_quotes_a_long_path_by_an_excerpt(tmp_path: Path) -> None:
    """``load_each`` put the whole path in its message (``"{path}: cannot read: ..."``)."""
    [error] = load_each(tmp_path / ("y" * 5000 + ".phh"))
    assert isinstance(error, HandHistoryError) and "File name too long" in str(error)
    assert len(str(error)) <= MESSAGE_LIMIT


def test_a_recorder_still_records_a_game_of_its_store(tmp_path: Path) -> None:
    """The checks refuse only what is no store or game: recording a game works as before."""
    store = EventStore(str(tmp_path / "log.db"))
    game = Game(variants.get("NT"), seats=2, seed=1, max_hands=1)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    store.record(game, "t1")
    game.play(calling_station, max_actions=100)
    assert [t.table_id for t in store.tables()] == ["t1"]
    with pytest.raises(StoreError, match="records a Game"):
        Recorder(store, "game", "t2", None, print)
