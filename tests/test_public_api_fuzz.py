"""The public Python API walked with hostile values: every public callable of the core packages, found
by introspection, and every method of a running :class:`~cardgame.play.game.Game`.

A hostile value (a huge or negative number, a bool, NaN, a float, a 100,000-character string, deep
nesting, ``None``, a wrong type) either works or is refused with the library's own error
(:class:`~cardgame.model.errors.CardgameError`) whose message is short; never a bare ``ValueError``,
``TypeError``, ``OverflowError`` or ``RecursionError`` from deep inside. A refused call to a running game
leaves it exactly as it was and playable to the end of the hand, chips conserved.

:func:`public_callables` takes any list of modules (a package without ``__all__`` is walked module by
module), :func:`hostile_arguments` builds a call with one hostile argument and :func:`call_hostile` judges
it, so the walk extends to the applications (``cardgame.rl``, ``cardgame.store``...) by adding them to
:data:`CORE` (with their runtime-object names in :data:`RUNTIME` and any escape not yet mended in
:data:`KNOWN_ESCAPES`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import variants
from cardgame.model.cards import Card, parse_card
from cardgame.model.errors import CardError, CardgameError, ConfigError, IllegalActionError, StageError, TableError
from cardgame.play import bots
from cardgame.play.bots import calling_station, random_bot, random_draw
from cardgame.play.game import Game
from cardgame.simulate import Match
from cardgame.store.snapshot import dumps
from tests.api_walk import (
    CALL_SECONDS,
    FUZZ,
    HOSTILE,
    HOSTILE_FIXED,
    MESSAGE_LIMIT,
    call_hostile,
    public_callables,
    time_limit,
    walk_tests,
)

CORE = ("cardgame", "cardgame.model", "cardgame.engine", "cardgame.evaluation", "cardgame.stages", "cardgame.play",
        "cardgame.simulate", "variants")

#: Public names whose arguments are not values a user hands in but the library's own runtime objects or
#: code, used by stage and engine authors; each entry says why a hostile value cannot reach it from input.
ALLOWED: dict[str, str] = {
    # the kernel's machine compiler and its generated code: called with a stage class's own tables
    "cardgame.engine.compile_machine": "compiles a stage class's declared machine (code, not input)",
    "cardgame.engine.generate": "generates functions from compile_machine's table",
    "cardgame.engine.generate_start": "generates functions from compile_machine's table",
    "cardgame.engine.fire": "fires a trigger on compile_machine's table",
    "cardgame.engine.fast_init": "a class decorator (code, not input)",
    "cardgame.engine.Step": "a compiled transition, built by compile_machine",
    "variants.variant": "a decorator of a builder function (code, not input)",
    # a generic helper over the caller's own keys and key function: their comparison errors are the caller's
    "cardgame.evaluation.winners": "compares the caller's keys with > (any ordered values)",
}

#: Names (prefixes) whose arguments are objects of the library's own runtime that a game, a stage or a
#: bot driver hands on (a hand in progress, a street, a context, a deck, a table view, a bot's view, a
#: shard), and the input checks themselves (whose ``what`` and ``error`` are code): typed, made by the
#: library, never parsed from input.
RUNTIME = (
    # the input checks
    "cardgame.model.inputs.", "cardgame.model.rng.check_seed",
    # a hand, its players, its deck and pots, the context: made by Game
    "cardgame.Hand", "cardgame.model.hand.", "cardgame.Deck", "cardgame.model.deck.Deck", "cardgame.Context",
    "cardgame.model.context.", "cardgame.side_pots", "cardgame.model.pots.side_pots",
    "cardgame.model.pots.settled_pots", "cardgame.model.action_order.", "cardgame.model.legal.",
    "cardgame.model.street.Street",
    # what the bot driver hands a bot, and a bot's answers converted against the legal actions
    "cardgame.play.bot.to_", "cardgame.play.bot.decide", "cardgame.play.bot.build_view", "cardgame.play.bot.seat_rng",
    "cardgame.play.strength.", "cardgame.play.ai.discards", "cardgame.play.ai.strength",
    *(f"cardgame.play.bots.{bot}" for bot in ("always_all_in", "calling_station", "pair_raiser", "random_bot",
                                               "random_draw")),
    # views and narration of a running game
    "cardgame.play.view.status_table", "cardgame.play.view.seat_rows", "cardgame.play.view.table_view",
    "cardgame.play.shape.game_shape", "cardgame.play.narration.",
    # the shard runner simulate drives
    "cardgame.simulate.run_jobs", "cardgame.simulate.play_shard",
)


#: Public callables known to let a hostile value escape as a bare Python error, not yet mended (``name:
#: what escapes``): each is a strict xfail, so mending one fails its test until it leaves this list. Empty
#: for the core packages; a package added to the walk may list its escapes here until they are mended.
KNOWN_ESCAPES: dict[str, str] = {}

API = public_callables(CORE, ALLOWED, RUNTIME)


#: Every test in a folder of its own: a hostile string may be taken for a file name and written.
pytestmark = pytest.mark.usefixtures("own_folder")
def test_the_walk_finds_the_public_api() -> None:
    """The walk sees the functions and classes a user calls (a new public name is walked at once)."""
    names = {name for name, _ in API}
    assert {"cardgame.Game", "cardgame.Card", "cardgame.parse_card", "cardgame.Table", "variants.get",
            "cardgame.simulate.Match", "cardgame.simulate.simulate", "cardgame.evaluation.evaluate_high",
            "cardgame.stages.BettingRound", "cardgame.play.bots.get"} <= names
    assert len(API) > 100


#: Each fixed hostile value in each parameter, and hypothesis's (:func:`tests.api_walk.walk_tests`).
test_public_callables_refuse_each_fixed_hostile_value, test_public_callables_refuse_hostile_values = (
    walk_tests(API, KNOWN_ESCAPES))


def _variant_builders() -> list[tuple[str, Callable[..., Any]]]:
    return [(f"variants.get({v.name!r}).build", v.build) for v in variants.available()
            if f"variants.{getattr(v.builder, '__name__', '')}" not in KNOWN_ESCAPES]


@pytest.mark.parametrize(("label", "build"), _variant_builders(), ids=lambda v: v if isinstance(v, str) else "")
@FUZZ
@given(value=HOSTILE, data=st.data())
def test_each_registered_variant_builder_refuses_hostile_parameters(
        label: str, build: Callable[..., Any], value: Any, data: st.DataObject) -> None:
    params = list(inspect.signature(build.__self__.builder).parameters)
    if params:
        name = data.draw(st.sampled_from(params))
        call_hostile(f"{label}({name}=...)", build, (), {name: value})


# --- a running game fed hostile values ---------------------------------------------------------------


def _running(code: str) -> Game:
    """A game of ``code`` with three players, in its first hand, a decision or two in (a draw game: at its
    first draw; ``"NT runs"``: hold'em all in pre-flop, a run-it-twice choice waiting)."""
    stages = variants.get("NT").build(run_it_twice=True) if code == "NT runs" else variants.get(code)
    game = Game(stages, seats=4, seed=11, max_hands=1)
    for who in ("Ann", "Bob", "Cat"):
        game.sit_down(who, BUY_IN)
    game.start()
    if code == "NT runs":
        game.all_in(game.to_act)  # type: ignore[arg-type]
        game.play(calling_station, max_actions=2)
        assert game.run_options() is not None
        return game
    for i in range(20):
        if game.draw_options() is not None or (i >= 2 and not code.endswith("D")):
            break
        game.play(calling_station, max_actions=1)
    return game


BUY_IN = 200


#: Arguments a parameter of a Game method takes when another one is made hostile: legal, or refused
#: for a reason of their own (``call`` with an amount), never acted on.
GAME_BASELINE: dict[str, Callable[[Game], Any]] = {
    "seat": lambda g: g.to_act if g.to_act is not None else 0, "name": lambda g: "Zed", "buy_in": lambda g: 100,
    "action": lambda g: "call", "amount": lambda g: 10**5000, "runs": lambda g: 10**5000,
    "discards": lambda g: [10**5000], "top_first": lambda g: [10**5000], "bots": lambda g: {},
}

#: Game methods left out: ``start`` and ``stop`` take nothing and change the game on purpose.
GAME_SKIP = ("start", "stop")

GAME_METHODS = sorted(name for name, member in inspect.getmembers(Game, callable)
                      if not name.startswith("_") and name not in GAME_SKIP)


def _finish_hand(game: Game) -> None:
    """Play the hand in progress to its end with random bots (the game plays one hand)."""
    game.play(random_bot, drawer=random_draw, max_actions=500)


def _state(game: Game, method: str) -> str:
    """The game's snapshot; for ``play``, which hands each seat's bot its own random stream once asked,
    the table, the hand and the log (a bot that answered nonsense has had its stream made)."""
    if method == "play":
        return f"{game.status(reveal=True)} {[p.stack for p in game.table.players()]} {len(game.events)}"
    return dumps(game)


def _hostile_game_calls(game: Game, method: str, value: Any) -> Iterator[tuple[str, list[Any]]]:
    params = [p for p in inspect.signature(getattr(Game, method)).parameters.values() if p.name != "self"
              and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    for target in params:
        args = [value if p is target else GAME_BASELINE[p.name](game) if p.name in GAME_BASELINE else p.default
                for p in params if p is target or p.default is p.empty or p.name in GAME_BASELINE]
        names = [p.name for p in params if p is target or p.default is p.empty or p.name in GAME_BASELINE]
        yield target.name, dict(zip(names, args, strict=True))  # type: ignore[misc]


@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D", "NT runs"])
@pytest.mark.parametrize("method", GAME_METHODS)
def test_a_running_game_refuses_hostile_values_and_plays_on(code: str, method: str) -> None:
    """Each Game method fed each hostile value: refused with a short CardgameError (never StageError)
    and the game unchanged, or done; afterwards the hand plays to its end with every chip kept."""
    game = _running(code)
    assert game.hand is not None and (code != "F2L3D" or game.draw_options() is not None)
    for value in HOSTILE_FIXED:
        for name, kwargs in _hostile_game_calls(game, method, value):
            before = _state(game, method)
            label = f"Game.{method}({name}={type(value).__name__})"
            try:
                with time_limit(CALL_SECONDS):
                    getattr(game, method)(**kwargs)
            except CardgameError as exc:
                assert len(str(exc)) <= MESSAGE_LIMIT, f"{label}: a message of {len(str(exc)):,} characters"
                assert not isinstance(exc, StageError), f"{label}: {exc}"  # the refusal names the input
                assert game.status_name == "running", f"{label} stopped the game: {exc}"
                assert _state(game, method) == before, f"{label} was refused ({exc}) but changed the game"
            except BaseException as exc:  # every other exception is an escape
                pytest.fail(f"{label} raised {type(exc).__name__}: {str(exc)[:300]}")
            assert game.status_name == "running", label
    _finish_hand(game)
    assert game.status_name == "exited"  # the one hand played to its end
    joined = len(list(game.table.players())) - 3  # a hostile name that is a string may sit down, with 100
    assert game.table.total_chips() == 3 * BUY_IN + 100 * joined


# --- the audit's cases, one by one ---------------------------------------------------------------------

HUGE = 10**5000


def _seated() -> Game:
    game = Game(variants.get("NT"), seats=6, seed=1)
    for who in ("Ann", "Bob", "Cat"):
        game.sit_down(who, 200)
    return game


def _in_hand() -> Game:
    game = Game(variants.get("NT"), seats=6, seed=1, max_hands=1)
    for who in ("Ann", "Bob", "Cat"):
        game.sit_down(who, 200)
    game.start()
    return game


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: Card(HUGE), CardError, "Card index a whole number of about 5,000 digits is out of range"),
        (lambda: parse_card([HUGE]), CardError, r"not \[a whole number of about 5,000 digits\]"),
        (lambda: _in_hand().stack_deck([HUGE]), CardError, "about 5,000 digits"),
        (lambda: _seated().stack_deck([HUGE]), CardError, "about 5,000 digits"),
        (lambda: Game(variants.get("NT"), seats=HUGE), ConfigError, "seat_count must be a whole number"),
        (lambda: _seated().sit_down("Dan", HUGE), TableError, "buy-in .* at most 18 digits"),
        (lambda: _seated().sit_down("Dan", 100, HUGE), TableError, "Seat a whole number of about 5,000 digits"),
        (lambda: _seated().leave(HUGE), TableError, "does not exist"),
        (lambda: Match("NT", ("random", "random"), 10, stack=-HUGE), ConfigError, "stack"),
        (lambda: Match("NT", ("random", "random"), 10, stack=HUGE), ConfigError, "stack"),
        (lambda: variants.get("NT").build(small_blind=HUGE), ConfigError, "about 5,000 digits"),
        (lambda: bots.get(HUGE), ConfigError, "Unknown bot a whole number of about 5,000 digits"),
        (lambda: Match("NT", ("random", "random"), 10, mode="x" * 10**6), ConfigError, r"1,000,000 characters"),
        (lambda: Game(variants.get("NT"), seed=HUGE), ConfigError,
         r"seed must be a whole number of magnitude below 2\*\*128"),
    ],
)
def test_huge_numbers_and_strings_are_refused_with_a_short_message(call: Callable[[], Any], error: type[Exception],
                                                                  match: str) -> None:
    """Each reached ``int()``, ``range()`` or an f-string: Python's bare ValueError (4,300 digits) or a
    message of megabytes."""
    with pytest.raises(error, match=match) as info:
        call()
    assert len(str(info.value)) <= MESSAGE_LIMIT


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda g: g.act(g.to_act, "raise", HUGE), IllegalActionError),
        (lambda g: g.raise_to(g.to_act, -HUGE), IllegalActionError),
        (lambda g: g.act(g.to_act, "x" * 10**6), IllegalActionError),
        (lambda g: g.sit_down("Dan", HUGE), TableError),
        (lambda g: g.sit_down("Dan", 100, HUGE), TableError),
        (lambda g: g.sit_down("x" * 10**6, 100), TableError),
        (lambda g: g.top_up(HUGE, 10), TableError),
        (lambda g: g.leave(HUGE), TableError),
        (lambda g: g.sit_out(HUGE), TableError),
        (lambda g: g.stack_deck(HUGE), CardError),
        (lambda g: g.subscribe(HUGE), ConfigError),
    ],
)
def test_a_refused_value_in_a_hand_never_ends_the_game(call: Callable[[Game], Any], error: type[Exception]) -> None:
    """A raise of a 5,000-digit amount, or a huge buy-in or seat given to sit_down in a hand, raised
    StageError and failed the game for good; now the game's own error, the game unchanged and playing."""
    game = _in_hand()
    before = dumps(game)
    with pytest.raises(error) as info:
        call(game)
    assert len(str(info.value)) <= MESSAGE_LIMIT
    assert dumps(game) == before and game.status_name == "running"
    game.play(random_bot, max_actions=200)
    assert game.status_name == "exited" and game.table.total_chips() == 600
