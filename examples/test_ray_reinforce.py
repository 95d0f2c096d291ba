"""Tests of examples/ray_reinforce.py: a small run on Ray workers (skipped without Ray), the same data
serially, and the learner's step moving probability towards what paid.

Run: pytest examples/test_ray_reinforce.py
"""

from __future__ import annotations

import numpy as np
import pytest
from ray_reinforce import LinearPolicy, main, reinforce_step, train

from cardgame.rl.vector import Trajectories


def test_a_small_run_on_ray_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """Two iterations of 60 episodes on a local Ray cluster of two CPUs: a line per iteration, and the
    returns are one serial worker's (the shards are seeded, whoever plays them)."""
    ray = pytest.importorskip("ray")
    try:
        assert main(["--iterations", "2", "--episodes", "60", "--workers", "2", "--backend", "ray"]) == 0
    finally:
        ray.shutdown()
    out = capsys.readouterr().out
    assert "2 workers (ray)" in out
    rows = [line.split() for line in out.splitlines() if "chips/episode" in line and "decisions" in line]
    assert [row[0] for row in rows] == ["1", "2"]
    returns = [float(row[1]) for row in rows]
    assert returns == pytest.approx(train("leduc hold'em", "random", 2, 60, 1, "serial", 0, 0.5, report=lambda _: None),
                                    abs=5e-4)


def test_training_serially_beats_the_random_bot() -> None:
    """Eight iterations of 300 episodes: the learner ends winning from the random bot."""
    means = train("leduc hold'em", "random", 8, 300, 1, "serial", 0, 0.5, report=lambda _: None)
    assert means[0] == pytest.approx(0.0, abs=0.6)  # the uniform policy's, about even
    assert np.mean(means[-3:]) > 0.8


def test_the_step_favours_the_action_that_paid() -> None:
    """Two decisions on one observation: calling won 2 chips, raising lost 2; after a step the
    policy calls more often."""
    obs = np.ones((2, 3), np.float32)
    masks = np.ones((2, 3), np.int8)
    data = Trajectories(obs, masks, np.array([1, 2]), np.zeros(2, np.float32), np.array([2.0, -2.0], np.float32),
                        np.array([True, True]), np.zeros(2, np.int8), np.arange(2))
    before = LinearPolicy(np.zeros((3, 4)))
    after = reinforce_step(before, data, 0, 0.5)
    p = after.probabilities(obs[:1], masks[:1])[0]
    assert p[1] > 1 / 3 > p[2]
    assert np.isclose(p.sum(), 1.0)
    masked = after.probabilities(obs[:1], np.array([[1, 0, 1]], np.int8))[0]
    assert masked[1] == 0.0


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--workers", "0"])
    assert "must be at least 1" in capsys.readouterr().err
