"""Matches between bots: results, statistics, modes, backends, the acceptance run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cardgame.model.errors import ConfigError
from cardgame.simulate import BlindSchedule, Match, shards, simulate

SMALL = Match("NT", ("seed-ai", "random", "pair-raiser"), hands=240, seed=3, shard_hands=60)


@pytest.mark.parametrize(("code", "opponent"), [(c, o) for c in ("NT", "F7S", "F2L3D") for o in ("random", "all-in")])
def test_the_seed_ai_beats_random_and_all_in_bots_significantly(code: str, opponent: str) -> None:
    # Heads-up fixed limit is uncapped (Robert's Rules), so the all-in bot plays every stud hand for
    # the stacks: the interval needs 3,000 hands there (at 1,000: +137 +- 300 bb/100).
    hands = 3000 if (code, opponent) == ("F7S", "all-in") else 1000
    result = simulate(Match(code, ("seed-ai", opponent), hands=hands, seed=1))
    ai, other = result.bots
    assert ai.significant and ai.bb_per_100 > 0, result.table()
    assert ai.chips == -other.chips  # heads-up cash: what one wins the other loses


def test_the_same_seed_gives_the_same_results_on_one_or_two_processes() -> None:
    one = simulate(SMALL).to_json()
    assert simulate(SMALL, workers=2).to_json() == one
    assert simulate(SMALL, workers=1, backend="process").to_json() == one
    assert simulate(Match("NT", SMALL.bots, hands=240, seed=4, shard_hands=60)).to_json() != one


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed (pip install cardgame[ray])")
def test_the_ray_backend_gives_the_same_results() -> None:
    import ray

    ray.shutdown()  # another test may have left a cluster running (ray.init refuses a second)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        assert simulate(SMALL, workers=2, backend="ray").to_json() == simulate(SMALL).to_json()
    finally:
        ray.shutdown()


def test_results_and_statistics() -> None:
    result = simulate(SMALL)
    data = json.loads(result.to_json())
    assert list(data["bots"]) == ["seed-ai", "random", "pair-raiser"]
    assert sum(b["chips"] for b in data["bots"].values()) == 0  # chips are conserved
    for bot in result.bots:
        assert bot.hands == 240
        assert 0 <= bot.pfr <= bot.vpip <= 1
        assert bot.showdown_win_rate is None or 0 <= bot.showdown_win_rate <= 1
        assert bot.ci95 > 0
    assert result.curve_hands[-1] == 240
    assert [c[-1] for c in result.curves] == [b.chips for b in result.bots]
    assert "bb/100" in result.table() and "seed-ai" in result.table()
    assert [s.hands for s in shards(Match("NT", ("random", "random"), hands=130, shard_hands=50))] == [50, 50, 30]


def test_duplicate_deals_the_same_cards_to_every_rotation() -> None:
    # identical deterministic bots: each rotation plays the same hands, so every bot breaks even
    same = ("calling-station", "calling-station", "calling-station")
    dup = simulate(Match("F7S", same, hands=60, seed=2, duplicate=True, shard_hands=30))
    assert all(b.chips == 0 and b.hands == 180 for b in dup.bots)
    plain = simulate(Match("F7S", same, hands=60, seed=2, shard_hands=30))
    assert any(b.chips != 0 for b in plain.bots)


def test_tournaments_rank_every_bot() -> None:
    match = Match("NT", ("seed-ai", "all-in", "random"), hands=400, seed=5, mode="tournament", stack=60,
                  schedule=BlindSchedule(hands_per_level=10, factor=2), shard_hands=200)
    result = simulate(match)
    places = list(zip(*(b.places for b in result.bots), strict=True))
    assert len(places) >= 5
    assert all(sorted(p) == [1, 2, 3] for p in places)
    assert sum(b.wins for b in result.bots) == len(places)
    assert "tournaments_won" in result.to_dict()["bots"]["seed-ai"]


def test_tournament_curves_span_the_whole_match_and_end_at_each_bots_total() -> None:
    # the all-in bot busts early in most tournaments: its curve stays flat while the others play on
    match = Match("NT", ("seed-ai", "all-in", "random"), hands=300, seed=5, mode="tournament", stack=60,
                  schedule=BlindSchedule(hands_per_level=10, factor=2), shard_hands=150)
    result = simulate(match)
    busted = next(b for b in result.bots if b.name == "all-in")
    assert busted.hands < 300  # it sat out hands of the match: the old curves were cut at its count
    assert result.curve_hands[-1] == 300 and len(set(map(len, result.curves))) == 1
    assert [c[-1] for c in result.curves] == [b.chips for b in result.bots]
    assert sum(c[-1] for c in result.curves) == 0  # chips are conserved
    assert simulate(match, workers=2).to_json() == result.to_json()


def test_hands_are_recorded_to_the_store_and_to_phh(tmp_path: Path) -> None:
    from cardgame.phh.replay import check_paths
    from cardgame.store import EventStore

    match = Match("NT", ("random", "pair-raiser"), hands=20, seed=1, record=str(tmp_path / "m.db"),
                  phh=str(tmp_path / "m.phhs"), shard_hands=10)
    simulate(match)
    with EventStore(tmp_path / "m.db") as store:
        assert len(store.hands()) == 20
    report = check_paths([str(tmp_path / "m.phhs")])
    assert report.ok and len(report.hands) == 20


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed")
def test_the_plot_is_a_png(tmp_path: Path) -> None:
    simulate(SMALL).plot(str(tmp_path / "out.png"))
    assert (tmp_path / "out.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"bots": ("seed-ai", "genius")}, "Unknown bot 'genius'"),
        ({"bots": ("random",)}, "played by 2 to 10 bots"),
        ({"variant": "nope"}, "Unknown variant 'nope'"),
        ({"mode": "sit-and-go"}, "mode must be one of cash, tournament"),
        ({"duplicate": True, "mode": "tournament"}, "Duplicate matches are cash games"),
        ({"hands": 0}, "hands must be a whole number from 1 to 1,000,000,000"),
        ({"params": {"big_bind": 2}}, "Bad parameters for no-limit"),
    ],
)
def test_bad_matches_are_refused(kwargs: dict[str, object], match: str) -> None:
    args: dict[str, object] = {"variant": "NT", "bots": ("random", "random"), "hands": 10} | kwargs
    with pytest.raises(ConfigError, match=match):
        Match(**args)  # type: ignore[arg-type]


def test_bad_workers_and_backends_are_refused() -> None:
    with pytest.raises(ConfigError, match="Unknown backend 'mpi'; the backends are serial, process, ray"):
        simulate(SMALL, workers=2, backend="mpi")
    with pytest.raises(ConfigError, match="workers must be a whole number from 1 to 1,024"):
        simulate(SMALL, workers=0)
    with pytest.raises(ConfigError, match="cannot be pickled"):
        simulate(Match("NT", (lambda view: "call", "random"), hands=10), workers=2)
    with pytest.raises(ConfigError, match="serial backend"):
        simulate(Match("NT", ("random", "random"), hands=10, record="x.db"), workers=2)


def test_the_simulate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardgame.cli import main

    out = tmp_path / "out.json"
    assert main(["simulate", "--variant", "F2L3D", "--bots", "seed-ai,random", "--hands", "60", "--seed", "2",
                 "--duplicate", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "60 deals, each played once per seat rotation" in printed and "seed-ai" in printed
    data = json.loads(out.read_text())
    assert data["duplicate"] is True and data["bots"]["seed-ai"]["hands"] == 120
    assert main(["simulate", "--bots", "seed-ai,genius", "--hands", "5"]) == 2
    assert "Unknown bot 'genius'" in capsys.readouterr().err


# --- the plot, checked before the run ------------------------------------------------------------
def _no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgame.simulate

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the match started before the plot was checked")

    monkeypatch.setattr(cardgame.simulate, "simulate", refuse)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed")
def test_a_plot_format_matplotlib_cannot_write_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cardgame.cli import main

    _no_run(monkeypatch)
    assert main(["simulate", "--hands", "1000000", "--plot", str(tmp_path / "out.xyz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "matplotlib writes no '.xyz' images; use one of " in err and ".png" in err


def test_a_plot_path_that_cannot_be_written_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cardgame.cli import main

    _no_run(monkeypatch)
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "--hands", "1000000", "--plot", str(tmp_path / "no" / "such" / "out.png")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--plot: cannot write the file" in err


def test_plotting_without_matplotlib_is_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from cardgame.cli import main

    _no_run(monkeypatch)
    for name in ("matplotlib", "matplotlib.backends", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it raises ImportError
    assert main(["simulate", "--hands", "1000000", "--plot", str(tmp_path / "out.png")]) == 2
    assert capsys.readouterr().err == "cardgame: error: Plotting needs matplotlib: pip install 'cardgame[plot]'.\n"
    with pytest.raises(ConfigError, match="Plotting needs matplotlib"):
        simulate(Match("NT", ("random", "random"), hands=2)).plot(str(tmp_path / "out.png"))


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed")
def test_the_plot_takes_its_format_from_the_extension(tmp_path: Path) -> None:
    result = simulate(Match("NT", ("random", "random"), hands=20, seed=1))
    result.plot(str(tmp_path / "out.svg"))
    assert b"<svg" in (tmp_path / "out.svg").read_bytes()[:500]


# --- counting ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D"])
def test_a_tally_fed_in_batches_counts_what_a_listener_counts(code: str) -> None:
    """``Tally.feed`` on batches cut anywhere (mid-hand too), and ``CountHands`` flushing before
    each hand, count exactly what the tally counts when called with every event."""
    import random

    import variants
    from cardgame.play.bots import random_bot, random_draw
    from cardgame.play.game import Game
    from cardgame.simulate.stages import CountHands
    from cardgame.simulate.tally import Counts, Tally

    variant = variants.get(code)
    seats = {0: 2, 1: 0, 2: 1}  # seat -> the bot's index in the match
    listened, batched, staged = ([Counts() for _ in range(3)] for _ in range(3))
    counter = CountHands(Tally(seats, staged).feed)
    game = Game([counter, *variant.build()], seats=3, seed=8, max_hands=40, deck=variant.deck, keep_hands=None)
    for seat in range(3):
        game.sit_down(f"p{seat}", 500, seat)
    game.subscribe(Tally(seats, listened))
    game.subscribe(counter.buffer.append)
    game.start()
    game.play(random_bot, drawer=random_draw)
    counter.flush()
    tally, log, cut = Tally(seats, batched), list(game.events), random.Random(1)
    while log:
        n = cut.randrange(1, 30)
        tally.feed(log[:n])
        del log[:n]
    assert sum(c.hands for c in listened) == 3 * game.ctx.hands_played > 0
    assert listened == batched == staged
    assert any(c.vpip and c.aggressive and c.calls and c.showdowns for c in listened)
