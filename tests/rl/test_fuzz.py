"""Hostile input at every public callable of :mod:`cardgame.rl` and at the environments' methods:
huge and negative numbers, bools, NaN, very long strings, deep nesting and wrong types give the
library's own error with a short message, and an environment handed a refused input is unchanged and
plays on to the end of its episode with every chip kept."""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variants
from cardgame.model.errors import CardgameError
from cardgame.play.bot import HandEvents
from cardgame.play.bots import get as get_bot
from cardgame.play.game import Game
from cardgame.rl import env as aec_env
from cardgame.rl import raw_env
from cardgame.rl.actions import FixedLimit, Move, PotFractions, RaiseTo, draw_cards, for_game, max_runs, send
from cardgame.rl.cfr import (
    CFR,
    GameTree,
    best_response_value,
    check_policy,
    expected_values,
    exploitability,
    nash_conv,
    uniform_policy,
)
from cardgame.rl.env import check_seed, make_game
from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.mccfr import MCCFR
from cardgame.rl.observe import Planes, RLCardEncoding, encoder
from cardgame.rl.spiel import SpielGame, information_state, load_game
from cardgame.rl.vector import Policy, VectorEnv, bot_index, collect, uniform
from tests.api_walk import Explodes, deep
from variants.research import leduc_deck, leduc_holdem

SHORT = 500  # characters an error message may have


SPECIAL: list[object] = [
    10**5000, -10**5000, 10**18, 10**19, -10**19, 2**63, 2**64, 2**128, -1, 0, True, False, np.True_, np.int64(-1),
    np.uint64(2**64 - 1), np.int8(1), float("nan"), float("inf"), -float("inf"), 1e308, -0.0, 0.5, np.float64(1.0),
    None, "", " ", "\x00", "x" * 100_000, "player_0" * 1000, b"abc", bytearray(3), [], [1] * 10**5, (), {}, {"a": 1},
    {1: 2}, set(), deep(100_000), object(), Explodes(), np.array([1, 2]), np.array(1), np.zeros((2, 2)),
    complex(1, 1), Fraction(1, 2), Decimal("NaN"), lambda: 0, type, ...,
]

HOSTILE = st.one_of(
    st.sampled_from(SPECIAL),
    st.integers(min_value=-5, max_value=5),
    st.floats(),
    st.text(max_size=30),
    st.binary(max_size=8),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                 max_leaves=8),
)

FUZZ = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def refused_or_done(call: Callable[[], object]) -> CardgameError | None:
    """Run ``call``: it succeeds (``None``) or raises the library's error with a short message (returned)."""
    try:
        call()
    except CardgameError as e:
        assert len(str(e)) < SHORT, str(e)[:1000]
        return e
    return None


# --- every public callable, one argument hostile at a time ----------------------------------------------

@cache
def started() -> Game:
    game = Game(variants.get("NT"), seats=2, seed=1)
    for seat in range(2):
        game.sit_down(f"p{seat}", 200, seat)
    game.start()
    return game


@cache
def kuhn() -> tuple[SpielGame, GameTree]:
    game = load_game("kuhn_poker")
    return game, GameTree.build(game)


def _policy() -> list[list[float]]:
    return uniform_policy(kuhn()[1])


def _state() -> Any:
    return kuhn()[0].new_initial_state().child(0).child(1)


def keyword(make: Callable[..., object], *args: object, name: str, **others: object) -> Callable[[Any], object]:
    """A case calling ``make(*args, **others)`` with the hostile value as its keyword argument ``name``."""
    return lambda x: make(*args, **{**others, name: x})


def _aec() -> raw_env:
    e = raw_env("NT")
    e.reset(seed=1)
    return e


CASES: dict[str, Callable[[Any], object]] = {
    "raw_env(variant)": lambda x: raw_env(x),
    "env(variant)": lambda x: aec_env(x),
    **{f"raw_env({k})": keyword(raw_env, "NT", name=k) for k in (
        "players", "stack", "actions", "observation", "observation_options", "reward", "hands", "seed",
        "render_mode", "params", "runs", "button")},
    "raw_env(stack=[x, 100])": lambda x: raw_env("NT", stack=[x, 100]),
    **{f"SingleAgentEnv({k})": keyword(SingleAgentEnv, "kuhn poker", name=k) for k in (
        "seat", "opponents", "players", "illegal", "stack")},
    "SingleAgentEnv(opponents=[x, x])": lambda x: SingleAgentEnv("kuhn poker", players=3, opponents=[x, x]),
    "VectorEnv(num_envs)": lambda x: VectorEnv("kuhn poker", x),
    **{f"VectorEnv({k})": keyword(VectorEnv, "kuhn poker", 2, name=k) for k in (
        "seat", "opponents", "players", "illegal", "dict_obs", "copy", "hands")},
    "collect(variant)": lambda x: collect(x, ["random", "random"], 2),
    "collect(players)": lambda x: collect("kuhn poker", x, 2),
    "collect(episodes)": lambda x: collect("kuhn poker", ["random", "random"], x),
    **{f"collect({k})": keyword(collect, "kuhn poker", ["random", "random"], 2, name=k) for k in (
        "seed", "shard_episodes", "stack")},
    "collect(workers)": lambda x: collect("kuhn poker", ["random", "random"], 2, workers=x, backend="serial"),
    "collect(backend)": lambda x: collect("kuhn poker", ["random", "random"], 2, backend=x),
    "Policy(fn)": lambda x: Policy(x),
    "uniform(mask)": lambda x: uniform(np.zeros(3, np.float32), x, np.random.default_rng(1)),
    "uniform(rng)": lambda x: uniform(np.zeros(3, np.float32), np.ones(3, np.int8), x),
    "bot_index(env)": lambda x: bot_index(x, get_bot("random"), random.Random(1), HandEvents()),
    # (a callable is a bot: what it raises is its own, as when a game asks it)
    "bot_index(bot)": lambda x: None if callable(x) else bot_index(_aec(), x, random.Random(1), HandEvents()),
    "bot_index(rng)": lambda x: bot_index(_aec(), get_bot("random"), x, HandEvents()),
    "bot_index(events)": lambda x: bot_index(_aec(), get_bot("random"), random.Random(1), x),
    "check_seed": lambda x: check_seed(x),
    "make_game(stages)": lambda x: make_game(x, (100, 100), seed=1, button=None, max_hands=1),
    "make_game(stacks)": lambda x: make_game(variants.get("NT").build(), x, seed=1, button=None, max_hands=1),
    **{f"make_game({k})": keyword(make_game, variants.get("NT").build(), (100, 100), name=k, **{
        "seed": 1, "button": None, "max_hands": 1}) for k in ("seed", "button", "max_hands", "cards")},
    "encoder(name)": lambda x: encoder(x, started()),
    "encoder(game)": lambda x: encoder("planes", x),
    "encoder(stack)": lambda x: encoder("planes", started(), stack=x),
    "encoder(max_raises)": lambda x: encoder("planes", started(), max_raises=x),
    "encoder(rlcard max_chips)": lambda x: encoder("rlcard", started(), max_chips=x),
    "Planes(game)": lambda x: Planes(x),
    "RLCardEncoding(game)": lambda x: RLCardEncoding(x),
    "encode(game)": lambda x: encoder("planes", started()).encode(x, 0),
    "encode(seat)": lambda x: encoder("planes", started()).encode(started(), x),
    "encode(out)": lambda x: encoder("rlcard", started()).encode(started(), 0, out=x),
    "Planes.block(name)": lambda x: Planes(started()).block(x),
    "FixedLimit(draw_cards)": lambda x: FixedLimit(draw_cards=x),
    "FixedLimit(max_runs)": lambda x: FixedLimit(max_runs=x),
    "PotFractions(fractions)": lambda x: PotFractions(x),
    "PotFractions([0.5, x])": lambda x: PotFractions([0.5, x]),
    "PotFractions(all_in)": lambda x: PotFractions(all_in=x),
    "RaiseTo(max_chips)": lambda x: RaiseTo(x),
    "RaiseTo.with_chips": lambda x: RaiseTo().with_chips(x),
    "fit(draw_cards)": lambda x: FixedLimit().fit(draw_cards=x, max_runs=0),
    "for_game(spec)": lambda x: for_game(x, started(), chips=400),
    "for_game(game)": lambda x: for_game("default", x, chips=400),
    "for_game(chips)": lambda x: for_game("raise-to", started(), chips=x),
    "draw_cards(game)": lambda x: draw_cards(x),
    "max_runs(game)": lambda x: max_runs(x),
    "send(game)": lambda x: send(x, 0, Move("act", "call")),
    "send(seat)": lambda x: send(started().copy(), x, Move("act", "call")),
    "send(move)": lambda x: send(started().copy(), started().to_act or 0, x),
    "mask(game)": lambda x: PotFractions().mask(x),
    "decode(index)": lambda x: PotFractions().decode(x, started()),
    "decode(game)": lambda x: PotFractions().decode(1, x),
    "passive(game)": lambda x: PotFractions().passive(x),
    "describe(game)": lambda x: PotFractions().describe(x),
    "GameTree.build(game)": lambda x: GameTree.build(x),
    "GameTree.build(max_nodes)": lambda x: GameTree.build(kuhn()[0], max_nodes=x),
    "CFR(tree)": lambda x: CFR(x),
    "CFR(method)": lambda x: CFR(kuhn()[1], x),
    "CFR.iterate": lambda x: CFR(kuhn()[1]).iterate(x),
    "uniform_policy(tree)": lambda x: uniform_policy(x),
    "expected_values(tree)": lambda x: expected_values(x, _policy()),
    "expected_values(policy)": lambda x: expected_values(kuhn()[1], x),
    "expected_values(policy row)": lambda x: expected_values(kuhn()[1], [[x, 0.5], *_policy()[1:]]),
    "best_response_value(player)": lambda x: best_response_value(kuhn()[1], _policy(), x),
    "best_response_value(policy)": lambda x: best_response_value(kuhn()[1], x, 0),
    "nash_conv(policy)": lambda x: nash_conv(kuhn()[1], x),
    "exploitability(policy)": lambda x: exploitability(kuhn()[1], x),
    "check_policy": lambda x: check_policy(kuhn()[1], x),
    "GameTree.policy_of(key)": lambda x: kuhn()[1].policy_of(_policy(), x),
    "GameTree.choose(game)": lambda x: kuhn()[1].choose(_policy(), x, 0, random.Random(1)),
    "GameTree.choose(seat)": lambda x: kuhn()[1].choose(_policy(), _state()._env.game, x, random.Random(1)),
    "GameTree.choose(rng)": lambda x: kuhn()[1].choose(_policy(), _state()._env.game, 0, x),
    "SpielGame(variant)": lambda x: SpielGame(x),
    **{f"SpielGame({k})": keyword(SpielGame, "kuhn poker", name=k) for k in (
        "players", "stack", "params", "actions")},
    "load_game(name)": lambda x: load_game(x),
    "load_game(players)": lambda x: load_game("kuhn_poker", players=x),
    "SpielState.apply_action": lambda x: _state().apply_action(x),
    "SpielState.child": lambda x: _state().child(x),
    "SpielState.legal_actions": lambda x: _state().legal_actions(x),
    "SpielState.information_state_string": lambda x: _state().information_state_string(x),
    "SpielState.action_to_string(player)": lambda x: _state().action_to_string(x, 0),
    "SpielState.action_to_string(action)": lambda x: _state().action_to_string(0, x),
    "information_state(game)": lambda x: information_state(x, 0),
    "information_state(seat)": lambda x: information_state(started(), x),
    "SpielGame(cache)": keyword(SpielGame, "kuhn poker", name="cache"),
    "SpielState.undo_action(player)": lambda x: _state().undo_action(x, 1),
    "SpielState.undo_action(action)": lambda x: _state().undo_action(0, x),
    "load_game(leduc players)": lambda x: load_game("leduc_poker", players=x),
    "leduc_holdem(players)": lambda x: leduc_holdem(players=x),
    "leduc_deck(players)": lambda x: leduc_deck(x),
    "MCCFR(game)": lambda x: MCCFR(x),
    **{f"MCCFR({k})": keyword(MCCFR, kuhn()[0], name=k) for k in ("sampling", "seed", "exploration", "key")},
    "MCCFR.iterate": lambda x: MCCFR(kuhn()[0]).iterate(x),
    "MCCFR.tree_policy(tree)": lambda x: MCCFR(kuhn()[0]).tree_policy(x),
    "MCCFR.tree_policy(policy)": lambda x: MCCFR(kuhn()[0]).tree_policy(kuhn()[1], x),
    "MCCFR.choose(game)": lambda x: MCCFR(kuhn()[0]).choose(x, 0, random.Random(1)),
    "MCCFR.choose(seat)": lambda x: MCCFR(kuhn()[0]).choose(_state().hand, x, random.Random(1)),
    "MCCFR.choose(rng)": lambda x: MCCFR(kuhn()[0]).choose(_state().hand, 0, x),
}


@pytest.mark.parametrize("case", CASES)
@FUZZ
@given(value=HOSTILE)
def test_every_public_callable_refuses_hostile_arguments_with_the_librarys_error(case: str, value: object) -> None:
    refused_or_done(lambda: CASES[case](value))


# --- the environments' methods: refused, unchanged, still playable ----------------------------------------

def snapshot(e: raw_env) -> tuple[object, ...]:
    game = e.game
    return (None if game is None else len(game.events), e.seed_used, e._seeds.getstate() if e._seeds else None,
            list(e.agents), getattr(e, "agent_selection", None), dict(getattr(e, "terminations", {})),
            dict(getattr(e, "rewards", {})), None if game is None else e.table_stacks())


def play_out(e: raw_env, rng: random.Random) -> None:
    """Step every agent to the end of the episode (random legal indices); every chip is kept."""
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]).tolist()))
    assert sum(e.table_stacks().values()) == e.chips


AEC_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "step": lambda e, x: e.step(x),
    "observe": lambda e, x: e.observe(x),
    "last": lambda e, x: e.last(x),
    "reset(seed)": lambda e, x: e.reset(seed=x),
    "reset(options)": lambda e, x: e.reset(options=x),
    "reset(cards)": lambda e, x: e.reset(options={"cards": x}),
    "undo": lambda e, x: e.undo(),
    "observation_space": lambda e, x: e.observation_space(x),
    "action_space": lambda e, x: e.action_space(x),
}


@pytest.mark.parametrize("call", AEC_CALLS)
@pytest.mark.parametrize("variant", ["NT", "F2L3D"])
@FUZZ
@given(value=HOSTILE, wrapped=st.booleans(), begun=st.booleans(), seed=st.integers(0, 2**128 - 1))
def test_an_aec_environment_refuses_hostile_input_and_plays_on(call: str, variant: str, value: object,
                                                               wrapped: bool, begun: bool, seed: int) -> None:
    e = aec_env(variant, 3) if wrapped else raw_env(variant, 3)
    inner: raw_env = e.unwrapped
    if begun:
        e.reset(seed=seed)
    before = snapshot(inner)
    if refused_or_done(lambda: AEC_CALLS[call](e, value)) is not None:
        assert snapshot(inner) == before
    if inner.game is None:
        e.reset(seed=seed)
    play_out(inner, random.Random(seed))


GYM_CALLS: dict[str, Callable[[Any, Any], object]] = {
    "step": lambda e, x: e.step(x),
    "reset(seed)": lambda e, x: e.reset(seed=x),
    "reset(options)": lambda e, x: e.reset(options=x),
}


@pytest.mark.parametrize("call", GYM_CALLS)
@FUZZ
@given(value=HOSTILE, illegal=st.sampled_from(["raise", "passive"]), seed=st.integers(0, 2**128 - 1))
def test_a_gym_environment_refuses_hostile_input_and_plays_on(call: str, value: object, illegal: str,
                                                              seed: int) -> None:
    e = SingleAgentEnv("F2L3D", opponents="random", illegal=illegal)
    e.reset(seed=seed)
    before = snapshot(e.aec), e.action_masks().tolist()
    if refused_or_done(lambda: GYM_CALLS[call](e, value)) is not None:
        assert (snapshot(e.aec), e.action_masks().tolist()) == before
    rng = np.random.default_rng(1)
    done = e._done
    while not done:
        done = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))[2]
    assert sum(e.aec.table_stacks().values()) == e.aec.chips


@pytest.mark.parametrize("where", [0, 1, "all"])
@FUZZ
@given(value=HOSTILE, seed=st.integers(0, 2**128 - 3))
def test_a_vector_environment_refuses_a_hostile_batch_and_moves_no_table(where: object, value: object,
                                                                         seed: int) -> None:
    vec = VectorEnv("kuhn poker", 2, opponents="random", dict_obs=False)
    vec.reset(seed=seed)
    before = [snapshot(t.aec) for t in vec.envs], vec.action_masks().tolist()
    rng = np.random.default_rng(1)
    legal = [int(rng.choice(np.flatnonzero(row))) for row in vec.action_masks()]
    batch = value if where == "all" else [value if i == where else a for i, a in enumerate(legal)]
    if refused_or_done(lambda: vec.step(batch)) is not None:
        assert ([snapshot(t.aec) for t in vec.envs], vec.action_masks().tolist()) == before
    for _ in range(5):
        vec.step([int(rng.choice(np.flatnonzero(row))) for row in vec.action_masks()])
    for t in vec.envs:
        assert sum(t.aec.table_stacks().values()) == t.aec.chips
    refused_or_done(lambda: vec.reset(seed=value))
    refused_or_done(lambda: vec.reset(options=value))
