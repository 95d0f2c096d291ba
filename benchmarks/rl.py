"""Learning-environment benchmark: environment steps per second, ours against PettingZoo and OpenSpiel.

    python benchmarks/rl.py [--steps 20000] [--repeat 3] [--quick] [--json rl.json]

Two games, heads-up, each played for ``--steps`` decisions by every environment in the same run,
uniformly random legal actions (from the action mask, or OpenSpiel's legal actions) drawn from one
seeded ``numpy`` generator, a new episode (one hand) when one ends:

* no-limit hold'em, blinds 1/2 and 100 chips each (RLCard's game): PettingZoo's
  ``texas_holdem_no_limit_v6``; OpenSpiel's ``universal_poker`` with the same game and its
  fold / call / pot / all-in actions; ours (``cardgame.rl.env("NT", stack=100)``, fold, check/call,
  half pot, pot, all-in) with the ``"rlcard"`` observation (PettingZoo's 54 values) and the default
  ``"planes"``;
* Leduc hold'em: PettingZoo's ``leduc_holdem_v4``, OpenSpiel's ``leduc_poker``, ours likewise.

A step is one decision, observation included: PettingZoo's and ours read ``env.last()`` (the
observation and mask) before each step; OpenSpiel's ask the state for the player's observation
tensor and legal actions. Ours run with each observation (``rlcard``, the default ``planes`` and the
perfect-recall ``infostate``). ``VectorEnv`` is :class:`cardgame.rl.vector.VectorEnv` (16 tables,
arrays, a random bot at the other seat) and ``SingleAgentEnv`` one such table
(:class:`cardgame.rl.gym.SingleAgentEnv`), and the vector's 16 tables as lone ``SingleAgentEnv`` stepped in turn
(the same memory held, so the same caches missed): their steps are the learner's decisions (each carries the
bot's answers, which are played but not counted; two lines a game give the vector's speed over the single
environment's and over its tables stepped in turn). Time is the benchmark process's CPU time
(``time.process_time``; ``--clock wall`` for wall time): on a shared machine other processes' load
moves wall time by a factor of two or more between runs, CPU time much less. Each environment runs
``--repeat`` times, taking turns, and its median run is reported; ``x PZ`` is its speed over
PettingZoo's on the same game. Peers not installed are skipped.

Then the cost of a state copy (``Game.copy``) against ``copy.deepcopy`` and replaying the hand, from
``benchmarks/copy_cost.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import copy_cost  # noqa: E402

#: The clock the runners read (``--clock``): the process's CPU time, or wall time.
CLOCK: list[Callable[[], float]] = [time.process_time]

#: The games, each with its label for the table.
GAMES = {"nlh": "no-limit hold'em (2 players, 1/2, 100 chips)", "leduc": "Leduc hold'em (2 players)"}
VECTOR_TABLES = 16
#: The rows a VectorEnv is compared with: one lone SingleAgentEnv, and the vector's tables stepped in turn.
LONE, IN_TURN = "ours: SingleAgentEnv (vs random bot)", f"ours: SingleAgentEnv x{VECTOR_TABLES} in turn"


@dataclass(frozen=True)
class Run:
    """One environment's median run: ``steps`` decisions in ``seconds``."""

    game: str
    env: str
    observation: str
    steps: int
    seconds: float
    steps_per_s: float
    vs_pettingzoo: float | None = None


Runner = Callable[[int, int], tuple[float, int]]  # (steps, seed) -> (seconds, steps taken)


def aec_steps(env: Any, rng: np.random.Generator, steps: int) -> int:
    """Play ``steps`` decisions of a PettingZoo AEC environment (theirs or ours, reset): ``env.last()``,
    then a random legal index; a new episode when one ends. Returns the decisions played."""
    done = 0
    while done < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            if all(env.terminations[a] or env.truncations[a] for a in env.agents):
                env.reset()
            else:
                env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        done += 1
    return done


def aec_runner(make: Callable[[], Any]) -> Runner:
    """Steps of a PettingZoo AEC environment (theirs or ours): ``env.last()``, then a random legal index."""

    def run(steps: int, seed: int) -> tuple[float, int]:
        env = make()
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        start = CLOCK[0]()
        done = aec_steps(env, rng, steps)
        return CLOCK[0]() - start, done

    return run


def spiel_runner(load: Callable[[], Any]) -> Runner:
    """Steps of an OpenSpiel game: chance sampled, the player's observation tensor and legal actions
    read, a random legal action applied."""

    def run(steps: int, seed: int) -> tuple[float, int]:
        game = load()
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        done = 0
        start = CLOCK[0]()
        while done < steps:
            if state.is_terminal():
                state = game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                done += 1
        return CLOCK[0]() - start, done

    return run


def vector_runner(variant: str, observation: str, **options: Any) -> Runner:
    """Learner decisions of :class:`~cardgame.rl.vector.VectorEnv` (arrays, no dicts)."""

    def run(steps: int, seed: int) -> tuple[float, int]:
        from cardgame.rl.vector import VectorEnv

        env = VectorEnv(variant, VECTOR_TABLES, opponents="random", dict_obs=False, copy=False,
                        observation=observation, **options)
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        done = 0
        start = CLOCK[0]()
        while done < steps:
            masks = env.action_masks()
            env.step([int(row[rng.integers(row.size)]) for row in map(np.flatnonzero, masks)])
            done += VECTOR_TABLES
        return CLOCK[0]() - start, done

    return run


def gym_runner(variant: str, observation: str, **options: Any) -> Runner:
    """Learner decisions of one :class:`~cardgame.rl.gym.SingleAgentEnv` (the same game as a
    ``VectorEnv`` table: a random bot at the other seat, whose decisions are not counted)."""

    def run(steps: int, seed: int) -> tuple[float, int]:
        from cardgame.rl.gym import SingleAgentEnv

        env = SingleAgentEnv(variant, opponents="random", observation=observation, **options)
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        done = 0
        start = CLOCK[0]()
        while done < steps:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
            if terminated:
                obs, _ = env.reset()
            done += 1
        return CLOCK[0]() - start, done

    return run


def tables_runner(variant: str, observation: str, **options: Any) -> Runner:
    """Learner decisions of ``VECTOR_TABLES`` lone :class:`~cardgame.rl.gym.SingleAgentEnv` tables stepped
    in turn (the vector's tables, one call each): the same memory held as a ``VectorEnv``'s, so the two
    compare work for work, where one lone table keeps its game in the processor's caches."""

    def run(steps: int, seed: int) -> tuple[float, int]:
        from cardgame.rl.gym import SingleAgentEnv

        tables = [SingleAgentEnv(variant, opponents="random", observation=observation, **options)
                  for _ in range(VECTOR_TABLES)]
        rng = np.random.default_rng(seed)
        last = [env.reset(seed=seed + i)[0] for i, env in enumerate(tables)]
        start = CLOCK[0]()
        done = tables_in_turn(tables, last, rng, steps)
        return CLOCK[0]() - start, done

    return run


def tables_in_turn(tables: list[Any], last: list[Any], rng: np.random.Generator, steps: int) -> int:
    """Step each of ``tables`` (``SingleAgentEnv``, reset; ``last``: each one's last observation) once in
    turn, a random legal index each, resetting a table whose episode ended, until about ``steps`` learner
    decisions are played; the decisions played."""
    done = 0
    while done < steps:
        for i, env in enumerate(tables):
            legal = np.flatnonzero(last[i]["action_mask"])
            obs, _, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
            last[i] = env.reset()[0] if terminated else obs
        done += len(tables)
    return done


def _universal_poker() -> Any:
    import pyspiel

    return pyspiel.load_game("universal_poker", {
        "betting": "nolimit", "numPlayers": 2, "numRounds": 4, "blind": "2 1", "firstPlayer": "2 1 1 1",
        "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1", "stack": "100 100",
        "bettingAbstraction": "fcpa"})


def _leduc_poker() -> Any:
    import pyspiel

    return pyspiel.load_game("leduc_poker")


def _ours(variant: str, observation: str, **options: Any) -> Callable[[], Any]:
    def make() -> Any:
        import cardgame.rl

        return cardgame.rl.env(variant, 2, observation=observation, **options)

    return make


def _pettingzoo(module: str) -> Callable[[], Any]:
    def make() -> Any:
        import importlib

        return importlib.import_module(f"pettingzoo.classic.{module}").env()

    return make


def _version(dist: str) -> str:
    try:
        return f"{dist} {metadata.version(dist)}"
    except metadata.PackageNotFoundError:
        return dist


def environments() -> tuple[list[tuple[str, str, str, Runner]], list[str]]:
    """``(game, env, observation, runner)`` for every environment installed, and the ones skipped."""
    found: list[tuple[str, str, str, Runner]] = []
    skipped: list[str] = []
    try:
        import pettingzoo.classic  # noqa: F401
        import pygame  # noqa: F401  # (PettingZoo's poker environments import it)
        import rlcard  # noqa: F401
    except ImportError:
        skipped.append("PettingZoo (pettingzoo[classic]: rlcard, pygame)")
    else:
        found.append(("nlh", f"PettingZoo texas_holdem_no_limit_v6 ({_version('pettingzoo')})", "rlcard",
                      aec_runner(_pettingzoo("texas_holdem_no_limit_v6"))))
        found.append(("leduc", f"PettingZoo leduc_holdem_v4 ({_version('pettingzoo')})", "rlcard",
                      aec_runner(_pettingzoo("leduc_holdem_v4"))))
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        skipped.append("OpenSpiel (open_spiel)")
    else:
        found.append(("nlh", f"OpenSpiel universal_poker ({_version('open_spiel')})", "observation_tensor",
                      spiel_runner(_universal_poker)))
        found.append(("leduc", f"OpenSpiel leduc_poker ({_version('open_spiel')})", "observation_tensor",
                      spiel_runner(_leduc_poker)))
    for observation in ("rlcard", "planes", "infostate"):
        found.append(("nlh", "ours: cardgame.rl.env", observation, aec_runner(_ours("NT", observation, stack=100))))
        found.append(("leduc", "ours: cardgame.rl.env", observation, aec_runner(_ours("leduc hold'em", observation))))
    for observation in ("rlcard", "planes"):
        found.append(("nlh", LONE, observation,
                      gym_runner("NT", observation, stack=100)))
        found.append(("leduc", LONE, observation,
                      gym_runner("leduc hold'em", observation)))
        found.append(("nlh", IN_TURN, observation,
                      tables_runner("NT", observation, stack=100)))
        found.append(("leduc", IN_TURN, observation,
                      tables_runner("leduc hold'em", observation)))
        found.append(("nlh", f"ours: VectorEnv x{VECTOR_TABLES}", observation,
                      vector_runner("NT", observation, stack=100)))
        found.append(("leduc", f"ours: VectorEnv x{VECTOR_TABLES}", observation,
                      vector_runner("leduc hold'em", observation)))
    return found, skipped


def measure(steps: int, repeat: int, seed: int = 1) -> tuple[list[Run], list[str]]:
    """Every environment's median run of ``steps`` decisions (``repeat`` runs, taking turns)."""
    envs, skipped = environments()
    times: dict[int, list[tuple[float, int]]] = {i: [] for i in range(len(envs))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's and Gymnasium's notes on float64 bounds
        for _ in range(repeat):
            for i, (_, _, _, runner) in enumerate(envs):
                times[i].append(runner(steps, seed))
    runs = []
    for i, (game, name, observation, _) in enumerate(envs):
        seconds, taken = sorted(times[i], key=lambda t: t[0] / t[1])[len(times[i]) // 2]  # the median speed
        runs.append(Run(game, name, observation, taken, seconds, taken / seconds))
    base = {r.game: r.steps_per_s for r in runs if r.env.startswith("PettingZoo")}
    runs = [Run(**{**asdict(r), "vs_pettingzoo": r.steps_per_s / base[r.game] if r.game in base else None})
            for r in runs]
    return runs, skipped


def vector_vs_single(runs: list[Run], game: str, lone: str = LONE) -> dict[str, float]:
    """For each observation timed both ways in ``game``: a ``VectorEnv`` table's learner decisions per
    second over ``lone``'s (default: one ``SingleAgentEnv``; or its tables stepped in turn)."""
    speed = {(r.env, r.observation): r.steps_per_s for r in runs if r.game == game}
    vector = f"ours: VectorEnv x{VECTOR_TABLES}"
    return {obs: speed[(vector, obs)] / speed[(lone, obs)]
            for env, obs in speed if env == vector and (lone, obs) in speed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=20_000, help="decisions per environment and run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each environment; the median is reported")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--copies", type=int, default=2000, help="copies per run of Game.copy (others: 1/20)")
    parser.add_argument("--quick", action="store_true",
                        help="one run of 2,000 steps (or --steps), 200 copies (or --copies), 3 runs of copies")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="the process's CPU time (default) or wall time")
    args = parser.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    given = argv if argv is not None else sys.argv[1:]
    steps = args.steps if not args.quick or "--steps" in given else 2_000
    copies = args.copies if not args.quick or "--copies" in given else 200
    repeat = 1 if args.quick else max(args.repeat, 1)
    runs, skipped = measure(steps, repeat, args.seed)
    print(f"Environment steps per second (about {steps:,} random legal decisions, median of {repeat}, "
          f"{args.clock} time); Python {sys.version.split()[0]}")
    for game, label in GAMES.items():
        print(label)
        for r in runs:
            if r.game == game:
                ratio = f"{r.vs_pettingzoo:5.2f}x PZ" if r.vs_pettingzoo is not None else ""
                print(f"  {r.env:<45} {r.observation:<19} {r.steps_per_s:10,.0f} /s  {ratio}")
        vs = vector_vs_single(runs, game)
        if vs:
            print(f"  VectorEnv x{VECTOR_TABLES} / SingleAgentEnv, per learner decision: "
                  + ", ".join(f"{obs} {x:.2f}x" for obs, x in vs.items()))
        vs = vector_vs_single(runs, game, IN_TURN)
        if vs:
            print(f"  VectorEnv x{VECTOR_TABLES} / {VECTOR_TABLES} SingleAgentEnv in turn, per learner decision: "
                  + ", ".join(f"{obs} {x:.2f}x" for obs, x in vs.items()))
    for name in skipped:
        print(f"skipped (not installed): {name}")
    rows = copy_cost.measure(copies, 3 if args.quick else 7)
    print("State copies: µs per copy, and against Game.copy")
    for position in dict.fromkeys(r.position for r in rows):
        print(f"  {position}")
        for c in rows:
            if c.position == position:
                print(f"    {c.way:<24} {c.us:10.1f} µs  {c.ratio:7.1f}x")
    if args.json is not None:
        args.json.write_text(json.dumps({
            "steps": steps, "repeat": repeat, "python": sys.version.split()[0],
            "runs": [asdict(r) for r in runs], "skipped": skipped, "copies": [asdict(c) for c in rows],
            "vector_vs_single": {game: vector_vs_single(runs, game) for game in GAMES},
            "vector_vs_tables_in_turn": {game: vector_vs_single(runs, game, IN_TURN) for game in GAMES},
        }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
