"""VectorEnv(workers=k): the tables on worker processes play exactly as in-process, refuse a batch before any
table moves, surface the workers' errors, and leave no process or shared memory behind."""

from __future__ import annotations

import gc
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from cardgame.model.errors import CardgameError, ConfigError, IllegalActionError
from cardgame.play.bot import BotView
from cardgame.rl.actions import PotFractions
from cardgame.rl.vector import VectorEnv
from cardgame.rl.workers import WorkerError, cpus

pytestmark = pytest.mark.skipif(cpus() < 2, reason="workers=2 needs two CPUs")

# the workers fork from a server that has the library imported (a fraction of a second each, not one)
multiprocessing.get_context("forkserver").set_forkserver_preload(["cardgame.rl.vector"])

SHM = Path("/dev/shm")


def shared() -> set[str]:
    return {p.name for p in SHM.iterdir() if p.name.startswith("psm_")} if SHM.is_dir() else set()


def choose(masks: np.ndarray, rng: np.random.Generator) -> list[int]:
    return [int(rng.choice(np.flatnonzero(row))) for row in masks]


def angry(view: BotView) -> str:
    """A bot that raises (module level: it pickles)."""
    raise ValueError("angry bot")


class Fractions(PotFractions):
    """An abstraction of one's own: its masks are not trusted, so the workers check a batch first."""


@pytest.fixture(scope="module")
def vec() -> Iterator[VectorEnv]:
    env = VectorEnv("NT", 5, workers=2, opponents="random")
    yield env
    env.close()


@pytest.mark.parametrize(("variant", "observation", "options"), [
    ("NT", "planes", {}),
    ("NT", "rlcard", {"opponents": ["random"], "hands": 2}),
    ("leduc hold'em", "planes", {"players": 3, "opponents": "random"}),
    ("leduc hold'em", "rlcard", {"actions": Fractions()}),
])
def test_workers_give_the_arrays_of_one_process(variant: str, observation: str, options: dict[str, Any]) -> None:
    runs = []
    for workers in (1, 2):
        env = VectorEnv(variant, 7, workers=workers, observation=observation, **options)
        obs, infos = env.reset(seed=90)
        rng = np.random.default_rng(3)
        run: list[Any] = [obs, infos, env.seeds_used]
        for _ in range(60):
            obs, rewards, terminations, truncations, infos = env.step(choose(obs["action_mask"], rng))
            run += [obs, rewards, terminations, truncations, infos, env.action_masks()]
        run += [env.seeds_used, env.render()]
        env.close()
        runs.append(run)
    one, two = runs
    assert any(np.any(r) for r in one[4::6])  # (episodes ended and were paid)
    for a, b in zip(one, two, strict=True):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            for k in a:
                assert np.array_equal(a[k], b[k]) and np.asarray(a[k]).dtype == np.asarray(b[k]).dtype, k
        elif isinstance(a, np.ndarray):
            assert np.array_equal(a, b) and a.dtype == b.dtype
        else:
            assert a == b


def test_a_refused_batch_names_the_global_table_and_moves_none(vec: VectorEnv) -> None:
    twin = VectorEnv("NT", 5, opponents="random")
    obs, _ = vec.reset(seed=7)
    twin.reset(seed=7)
    rng = np.random.default_rng(0)
    for bad in (7, "x", np.int64(-1), 10**5000):
        actions: list[Any] = choose(obs["action_mask"], rng)
        before = vec.action_masks().tolist(), vec.seeds_used, vec.render()
        actions[3] = bad  # (table 3: the second worker's)
        with pytest.raises(IllegalActionError, match="Table 3") as e:
            vec.step(actions)
        assert len(str(e.value)) < 700
        assert (vec.action_masks().tolist(), vec.seeds_used, vec.render()) == before
        actions[3] = int(np.flatnonzero(obs["action_mask"][3])[0])
        # an array (as Python ints: the masks kept here check it), or numpy numbers (the workers check them)
        mine = vec.step(np.array(actions) if bad == "x" else [np.int64(a) for a in actions])
        theirs = twin.step(actions)
        assert np.array_equal(mine[0]["observation"], theirs[0]["observation"])
        assert np.array_equal(mine[1], theirs[1])
        obs = mine[0]
    twin.close()


def test_a_step_needs_one_action_a_table_and_envs_are_not_shared(vec: VectorEnv) -> None:
    vec.reset(seed=1)
    with pytest.raises(ConfigError, match="one action index per table"):
        vec.step([1, 1])
    with pytest.raises(ConfigError, match="worker processes"):
        vec.envs  # noqa: B018
    masks = vec.action_masks()
    masks[:] = 1  # (a copy: legalises nothing)
    assert not np.array_equal(vec.action_masks(), masks)


def test_untrusted_masks_are_checked_by_the_workers_before_any_table_moves() -> None:
    env = VectorEnv("leduc hold'em", 4, workers=2, actions=Fractions())
    obs, _ = env.reset(seed=2)
    masks = obs["action_mask"].copy()
    actions = [int(np.flatnonzero(m)[0]) for m in masks]
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0]) if not masks[2].all() else 99
    before = env.render()
    with pytest.raises(IllegalActionError, match="Table 2"):
        env.step(actions)
    assert np.array_equal(env.action_masks(), masks) and env.render() == before
    env.close()


def test_a_bots_error_in_a_worker_is_raised_in_the_parent_and_pickling_is_checked() -> None:
    env = VectorEnv("NT", 2, workers=2, opponents=angry)
    with pytest.raises(ValueError, match="angry bot"):
        env.reset(seed=1)
        for _ in range(5):
            env.step([1, 1])
    env.close()
    with pytest.raises(ConfigError, match="must pickle"):
        VectorEnv("NT", 2, workers=2, opponents=lambda view: "call")


@pytest.mark.parametrize("workers", [0, -1, True, 2.0, "2", None, 10**5000, 10**6], ids=range(8))
def test_hostile_workers_are_refused(workers: object) -> None:
    with pytest.raises(ConfigError, match="workers"):
        VectorEnv("NT", 4, workers=workers)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="workers"):
        VectorEnv("NT", 1, workers=2)  # (more workers than tables)


def test_a_dead_worker_makes_the_next_call_raise() -> None:
    env = VectorEnv("NT", 2, workers=2)
    obs, _ = env.reset(seed=1)
    assert env._pool is not None
    env._pool.processes[1].kill()
    env._pool.processes[1].join(5)
    for _ in range(2):
        with pytest.raises(WorkerError, match=r"Worker 1 .* stopped") as e:
            env.step(choose(obs["action_mask"], np.random.default_rng(0)))
        assert isinstance(e.value, CardgameError)
    env.close()


def test_ctrl_c_is_the_parents_and_a_call_it_interrupts_stops_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from cardgame.rl import workers

    env = VectorEnv("NT", 2, workers=2)
    obs, _ = env.reset(seed=1)
    assert env._pool is not None
    for p in env._pool.processes:
        assert p.pid is not None
        os.kill(p.pid, signal.SIGINT)  # (the terminal's Ctrl-C reaches the workers too: they leave it to the parent)
    obs, *_ = env.step(choose(obs["action_mask"], np.random.default_rng(0)))

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(workers, "wait", interrupted)
    with pytest.raises(KeyboardInterrupt):
        env.step(choose(obs["action_mask"], np.random.default_rng(0)))
    monkeypatch.undo()
    with pytest.raises(WorkerError, match="interrupted"):  # (its answers would come out of turn)
        env.step(choose(obs["action_mask"], np.random.default_rng(0)))
    env.close()


def test_close_and_garbage_collection_stop_the_workers_and_free_the_shared_memory() -> None:
    for ending in ("close", "collect"):
        env = VectorEnv("NT", 3, workers=2, copy=False)
        obs, _ = env.reset(seed=3)
        assert env._pool is not None
        processes, name = list(env._pool.processes), env._pool.shm.name
        assert name in shared()
        if ending == "close":
            env.close()
            assert np.isfinite(obs["observation"]).all()  # (the arrays held still read)
            with pytest.raises(WorkerError, match="closed"):
                env.step([1, 1, 1])
            env.close()
        else:
            del env
            gc.collect()
        assert not any(p.is_alive() for p in processes)
        assert name not in shared()  # (/dev/shm: other programs' blocks come and go meanwhile)


def test_the_parent_exiting_stops_the_workers_and_frees_the_shared_memory(tmp_path: Path) -> None:
    script = ("import sys; from cardgame.rl.vector import VectorEnv; env = VectorEnv('NT', 2, workers=2); "
              "env.reset(seed=1); print(env._pool.shm.name, *[p.pid for p in env._pool.processes])")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}, check=True)
    name, *pids = run.stdout.split()
    assert name.startswith("psm_") and name not in shared()
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
    assert "leaked" not in run.stderr, run.stderr
