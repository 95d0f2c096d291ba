"""Write the MCCFR tables of docs/rl.md: our external- and outcome-sampling MCCFR beside OpenSpiel's on
Leduc (two and three players), and a heads-up limit hold'em policy against the library's bots.

    python scripts/mccfr_table.py          # rewrite the tables in docs/rl.md (about ten minutes)
    python scripts/mccfr_table.py --check  # exit 1 if they are out of date

Leduc: :class:`cardgame.rl.mccfr.MCCFR` through the environment beside OpenSpiel's Python solvers
(``external_sampling_mccfr``, ``outcome_sampling_mccfr``) seeded alike (``numpy.random.seed``), at the
same iteration counts, each average policy scored by OpenSpiel's own C++ ``nash_conv`` (exploitability
is NashConv over the number of players, in chips a hand); ours through a table from their information
set names to ours, found by replaying one history of each. Three-player Leduc (1.8 million states) is
beyond :class:`~cardgame.rl.cfr.GameTree`'s enumeration; MCCFR only samples it. Hold'em: fixed-limit,
blinds 1 and 2, bets 2 and 4, 20 chips each, its tree too large for any enumeration: MCCFR on an
abstraction (:func:`holdem_key`) played against each bot over the same deals from both seats, in
chips per 100 hands with the standard error; the untrained (uniform) policy beside it. pyspiel, a test
extra, is needed.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from architecture import ROOT, fill, write_or_check  # the generated documents' one command line

sys.path.insert(0, str(ROOT))
from cardgame.evaluation.high import category, evaluate_high
from cardgame.play.game import Game
from cardgame.rl.mccfr import MCCFR, SAMPLING
from cardgame.rl.spiel import SpielGame, information_state, load_game

DOC = ROOT / "docs" / "rl.md"
#: Leduc's number of players and its checkpoints.
LEDUC_RUNS: dict[int, tuple[int, ...]] = {2: (1000, 10000), 3: (1000, 3000)}
SEED = 1
HOLDEM = {"variant": "FT", "stack": 20}
HOLDEM_ITERATIONS = 2000
HOLDEM_DEALS = 1000  # each played from both seats
BOTS = ("random", "calling-station", "pair-raiser", "tight-aggressive", "seed-ai")


# --- Leduc against OpenSpiel --------------------------------------------------------------------------

def _their_solver(game: Any, sampling: str) -> Any:
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    if sampling == "external":
        return external_sampling_mccfr.ExternalSamplingSolver(game)
    return outcome_sampling_mccfr.OutcomeSamplingSolver(game)


def _their_sets(game: Any) -> dict[str, tuple[list[int], list[int]]]:
    """Each of pyspiel's information sets: its legal actions and one history reaching it."""
    found: dict[str, tuple[list[int], list[int]]] = {}

    def walk(state: Any) -> None:
        if state.is_terminal():
            return
        if not state.is_chance_node():
            key = state.information_state_string()
            if key not in found:
                found[key] = (state.legal_actions(), state.history())
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    return found


def _our_names(ours: SpielGame, sets: dict[str, tuple[list[int], list[int]]]) -> dict[str, str]:
    """pyspiel's information-set names with ours, by replaying one history of each on our game."""
    names: dict[str, str] = {}
    for key, (_, history) in sets.items():
        state = ours.new_initial_state()
        for action in history:
            state.apply_action(action)
        names[key] = state.information_state_string()
    if len(set(names.values())) != len(names):
        raise SystemExit("two of pyspiel's information sets are one of ours")
    return names


def _nash_conv(game: Any, sets: dict[str, tuple[list[int], list[int]]], policy: dict[str, list[float]]) -> float:
    """pyspiel's NashConv of ``policy`` (pyspiel's set name to probabilities; uniform where it has none)."""
    import pyspiel

    table = {}
    for key, (legal, _) in sets.items():
        probs = policy.get(key) or [1.0 / len(legal)] * len(legal)
        table[key] = list(zip(legal, probs, strict=True))
    return float(pyspiel.nash_conv(game, table))


def _normalised(sums: Any) -> list[float]:
    total = float(sum(sums))
    return [float(s) / total for s in sums]


def leduc_rows() -> list[str]:
    """A row per number of players, sampling and checkpoint: ours, OpenSpiel's, the difference, the time."""
    import numpy as np
    import pyspiel

    out = []
    for players, checkpoints in LEDUC_RUNS.items():
        game = pyspiel.load_game("leduc_poker", {"players": players})
        ours_game = load_game("leduc_poker", players=players)
        sets = _their_sets(game)
        names = _our_names(ours_game, sets)
        for sampling in SAMPLING:
            ours, theirs = MCCFR(ours_game, sampling, seed=SEED), _their_solver(game, sampling)
            np.random.seed(SEED)
            done, our_time, their_time = 0, 0.0, 0.0
            for n in checkpoints:
                start = time.perf_counter()
                ours.iterate(n - done)
                our_time += time.perf_counter() - start
                start = time.perf_counter()
                for _ in range(n - done):
                    theirs.iteration()
                their_time += time.perf_counter() - start
                done = n
                average = ours.average_policy()
                a = _nash_conv(game, sets, {k: average[names[k]] for k in sets if names[k] in average}) / players
                b = _nash_conv(game, sets, {k: _normalised(v[1]) for k, v in theirs._infostates.items()}) / players
                out.append(f"| {players} | {sampling} | {n:,} | {a:.4g} | {b:.4g} | {abs(a - b):.1e} | "
                           f"{1000 * our_time / n:.1f} | {1000 * their_time / n:.2f} |")
    return out


def leduc_table() -> str:
    return "\n".join(["| players | sampling | iterations | ours | OpenSpiel | difference | ours ms/iteration | "
                      "OpenSpiel ms/iteration |", "|---|---|---|---|---|---|---|---|", *leduc_rows()])


# --- heads-up limit hold'em against the bots ----------------------------------------------------------

def _board_category(board: list[int]) -> int:
    """What the board alone makes of pairs: 0 none, 1 a pair, 2 two pair, 3 trips or more."""
    counts = sorted((sum(1 for c in board if c >> 2 == r) for r in {c >> 2 for c in board}), reverse=True)
    if not counts or counts[0] == 1:
        return 0
    if counts[0] >= 3:
        return 3
    return 2 if len(counts) > 1 and counts[1] == 2 else 1


def holdem_key(game: Game, seat: int) -> str:
    """An abstraction of hold'em: the hole cards' class before the flop (``AKs``, ``T9o``, ``77``: 169),
    after it the best hand's category and whether the hole cards improve on the board's pairs; and
    every public action of the hand with the streets (the board's cards left out)."""
    hand = game.hand
    assert hand is not None
    hole = sorted(hand.by_seat[seat].hole, reverse=True)
    board = list(hand.board)
    if not board:
        a, b = hole
        ranks = "".join("23456789TJQKA"[c >> 2] for c in (a, b))
        bucket = ranks if a >> 2 == b >> 2 else ranks + ("s" if a & 3 == b & 3 else "o")
    else:
        made = category(evaluate_high([*hole, *board]))
        bucket = f"{made}{'+' if made > _board_category(board) else ''}"
    public = [line.split(":")[0] if ":" in line else line for line in information_state(game, seat).splitlines()[2:]
              if " is dealt " not in line]
    return f"{seat}|{bucket}|{'/'.join(public)}"


def head_to_head(choose: Callable[[Game, int, random.Random], int], bot: str, deals: int) -> tuple[float, float]:
    """Chips per 100 hands (and the standard error) ``choose`` wins against ``bot`` in heads-up limit
    hold'em, each deal played from both seats (the button on seat 1, as MCCFR learned it)."""
    from cardgame.rl.gym import SingleAgentEnv

    envs = [SingleAgentEnv(HOLDEM["variant"], seat=seat, opponents=bot, stack=HOLDEM["stack"], button=1)
            for seat in (0, 1)]
    rng = random.Random(SEED)
    results = []
    for deal in range(deals):
        both = 0.0
        for env in envs:
            _, info = env.reset(seed=deal)
            won, done = float(info["skipped_reward"]), False
            while not done:
                game = env.aec.game
                assert game is not None
                _, reward, done, _, _ = env.step(choose(game, env.seat, rng))
                won += reward
            both += won
        results.append(both / 2)
    mean = sum(results) / deals
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(deals - 1, 1) / deals)
    return 100 * mean, 100 * spread


def holdem_table() -> str:
    game = SpielGame(HOLDEM["variant"], 2, stack=HOLDEM["stack"])
    solver = MCCFR(game, "external", seed=SEED, key=holdem_key)
    untrained = MCCFR(game, "external", seed=SEED, key=holdem_key)
    start = time.perf_counter()
    solver.iterate(HOLDEM_ITERATIONS)
    spent = time.perf_counter() - start
    rows = ["| opponent | untrained (uniform) | MCCFR |", "|---|---|---|"]
    for bot in BOTS:
        cells = [f"{m:+.1f} ± {e:.1f}" for m, e in (head_to_head(p.choose, bot, HOLDEM_DEALS)
                                                    for p in (untrained, solver))]
        rows.append(f"| {bot} | {cells[0]} | {cells[1]} |")
    rows.append("")
    rows.append(f"External-sampling MCCFR, {HOLDEM_ITERATIONS:,} iterations in {spent:.0f} s "
                f"({len(solver.tables):,} abstract information sets), seed {SEED}; chips per 100 hands over "
                f"{HOLDEM_DEALS:,} deals played from both seats ({2 * HOLDEM_DEALS:,} hands), with the standard error.")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    sections = {"mccfr-leduc": leduc_table, "mccfr-holdem": holdem_table}
    return write_or_check(DOC, lambda text: fill(DOC, text, sections), argv, (__doc__ or "").split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
