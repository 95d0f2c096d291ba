"""A seed is for replay; secrecy comes from entropy. Runs given no seed (matches, ``cardgame
simulate``, ``cardgame demo``) draw 128 bits from the operating system and report them, so each
run deals new cards that no bot can find by trying seeds, and the reported seed replays it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardgame.model.errors import ConfigError
from cardgame.model.rng import MAX_SEED, RandomSource
from cardgame.play.bots import random_bot
from cardgame.play.game import Game
from cardgame.simulate import Match, simulate, split
from tests.conftest import REPO
from variants import no_limit_holdem

BOTS = ("random", "pair-raiser")


def test_an_unseeded_match_deals_new_cards_each_run_and_its_reported_seed_replays_it() -> None:
    runs = [simulate(Match("NT", BOTS, hands=30, shard_hands=10)) for _ in range(2)]
    assert runs[0].seed != runs[1].seed and runs[0].curves != runs[1].curves
    for run in runs:
        assert 64 < run.seed.bit_length() <= 128
        assert json.loads(run.to_json())["seed"] == run.seed
        again = simulate(Match("NT", BOTS, hands=30, shard_hands=10, seed=run.seed), workers=2)
        assert again.to_json() == run.to_json()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardgame", *args], capture_output=True, text=True, check=False,
                          cwd=REPO)


def test_cardgame_simulate_without_a_seed_prints_the_drawn_seed_which_replays_the_match(tmp_path: Path) -> None:
    args = ("simulate", "--variant", "NT", "--bots", ",".join(BOTS), "--hands", "20")
    first, second = (_cli(*args, "--json", str(tmp_path / f"{i}.json")) for i in range(2))
    seeds = []
    for i, done in enumerate((first, second)):
        assert done.returncode == 0, done.stderr
        data = json.loads((tmp_path / f"{i}.json").read_text())
        assert f"NT: 20 hands, seed {data['seed']} (--seed {data['seed']} replays it)" in done.stdout
        assert data["seed"].bit_length() > 64
        seeds.append(data["seed"])
    assert seeds[0] != seeds[1]
    replayed = _cli(*args, "--seed", str(seeds[0]), "--json", str(tmp_path / "again.json"))
    assert replayed.returncode == 0, replayed.stderr
    assert (tmp_path / "again.json").read_text() == (tmp_path / "0.json").read_text()


def test_cardgame_demo_without_a_seed_draws_128_bits() -> None:
    seeds = []
    for _ in range(2):
        done = _cli("demo", "--hands", "1", "--seats", "2", "--json")
        assert done.returncode == 0, done.stderr
        seeds.append(json.loads(done.stdout)["seed"])
    assert seeds[0] != seeds[1] and all(64 < s.bit_length() <= 128 for s in seeds)


# --- a small chosen seed is found by trying them ------------------------------------------------------------
FOUND: list[int | None] = []
SEARCH = 3_000


def _first_draws(match_seed: int, seat: int) -> list[float]:
    """What a bot in ``seat`` first draws from ``view.rng`` in the first shard of a match seeded
    ``match_seed``: the derivation is public (the shard's seed, then the seat's stream)."""
    stream = RandomSource(split(1, 1, match_seed)[0].seed).derive(f"bot seat {seat}")
    return [stream.random() for _ in range(4)]


def _seed_finder(view: Any) -> Any:
    """A bot that draws four numbers at its first decision and tries every seed below ``SEARCH``."""
    if not FOUND:
        draws = [view.rng.random() for _ in range(4)]
        FOUND.append(next((s for s in range(SEARCH) if _first_draws(s, view.seat) == draws), None))
    return random_bot(view)


@pytest.mark.parametrize("seed", [1234, None])
def test_a_bot_finds_a_small_chosen_seed_by_trying_them_but_not_a_drawn_one(seed: int | None) -> None:
    FOUND.clear()
    result = simulate(Match("NT", (_seed_finder, "random"), hands=5, seed=seed))
    assert [result.seed if seed is not None else None] == FOUND


# --- 128-bit seeds are accepted and replay ---------------------------------------------------------------------
def _events(seed: int) -> list[str]:
    game = Game(no_limit_holdem(1, 2), seats=3, seed=seed, max_hands=4)
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 200)
    game.start()
    game.play(random_bot)
    return [repr(e) for e in game.events]


def test_a_128_bit_seed_replays_a_game_its_bots_and_a_match() -> None:
    assert _events(MAX_SEED) == _events(MAX_SEED) != _events(MAX_SEED - 2**64)
    assert RandomSource(MAX_SEED).derive("x").random() != RandomSource(MAX_SEED - 2**64).derive("x").random()
    shards = split(40, 10, MAX_SEED)
    assert len({s.seed for s in shards}) == 4 and shards == split(40, 10, MAX_SEED)
    match = Match("NT", BOTS, hands=12, shard_hands=5, seed=MAX_SEED)
    assert simulate(match).to_json() == simulate(match).to_json()


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, True, 1.0, "7", np.array([1, 2])])
def test_a_seed_outside_0_to_2_128_is_refused(seed: object) -> None:
    with pytest.raises(ConfigError, match=r"The seed must be a whole number of at least 0 and below 2\*\*128"):
        Match("NT", BOTS, hands=1, seed=seed)  # type: ignore[arg-type]


def test_cardgame_play_without_a_seed_draws_128_bits_and_says_them() -> None:
    import io

    from rich.console import Console

    from cardgame.terminal.play import new_session

    seeds = []
    for _ in range(2):
        out = io.StringIO()
        session = new_session("NT", 2, Console(file=out, width=200, color_system=None), lambda prompt, left: "quit",
                              bots=["calling-station"])
        seed = session.game.seed
        assert seed is not None and 64 < seed.bit_length() <= 128
        session.run()
        assert f"Seed {seed}." in out.getvalue()
        seeds.append(seed)
    assert seeds[0] != seeds[1]
