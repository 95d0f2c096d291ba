"""``cardgame replay --equity``: each live player's equity at each step, as the viewpoint sees the cards."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cardgame.evaluation.equity import equity
from cardgame.phh.io import load_each
from cardgame.phh.steps import hand_steps, view_equity

ROOT = Path(__file__).resolve().parents[2]
PHH = ROOT / "tests" / "data" / "phh"


def replay(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "cardgame", "replay", *args, "--print", "--equity"],
                          capture_output=True, text=True, check=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "120"}).stdout


def test_replay_shows_each_streets_equity_as_the_seat_sees_it() -> None:
    out = replay(str(PHH / "dwan-ivey-2009.phh"))
    flop = equity(["Ac2d", "7h6h"], "Jc 3d 5c")  # Ivey and Dwan on the flop, every card shown
    line = f"equity (exact): Phil Ivey {float(flop.equity[0]):.1%}, Tom Dwan {float(flop.equity[1]):.1%}"
    assert line in out and "equity (exact): Phil Ivey 0.0%, Tom Dwan 100.0%" in out  # the turn's 4h
    as_ivey = replay(str(PHH / "dwan-ivey-2009.phh"), "--seat", "1")
    assert "equity (Monte Carlo, 20,000 deals" in as_ivey  # Dwan's cards unknown to Ivey until shown
    assert as_ivey.count("equity (") == out.count("equity (") == 18


def test_stud_draw_and_omaha_steps_have_equities_and_eight_stud_players_none() -> None:
    for name, variant_game in (("antonius-blom-2009.phh", "omaha"), ("arieh-yockey-2019.phh", "2-7"),
                               ("alice-carol-wikipedia.phh", "badugi")):
        hh = load_each(PHH / name)[0]
        views = [s.views[None] for s in hand_steps(hh).steps]
        firsts = [v for i, v in enumerate(views) if i == 0 or v.street != views[i - 1].street]  # each street's first
        results = [view_equity(v, hh.variant, samples=2000) for v in firsts]
        assert any(r is not None and r.game == variant_game for r in results), name
    razz = load_each(PHH / "pokerkit-razz-8-handed.phh")[0]
    steps = hand_steps(razz).steps  # eight players cannot all be dealt seven cards: no equity, no error
    assert view_equity(steps[0].views[None], razz.variant) is None
