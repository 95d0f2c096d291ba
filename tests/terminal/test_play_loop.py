"""The terminal loop driven by a scripted reader (no terminal, no subprocess): every variant plays
hands to the end, the clock answers for a silent person, save and resume continue the same game."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

import variants
from cardgame.phh.actions import DealHoleAction, ShowMuckAction
from cardgame.phh.io import load as load_phh
from cardgame.phh.replay import check_paths
from cardgame.store.snapshot import snapshot
from cardgame.terminal.play import Reader, Session, load, new_session


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, color_system=None), out


def _player(limit: int) -> tuple[Reader, list[str]]:
    """A person who stays in as cheaply as possible, runs twice, stands pat (or throws the first card
    where a discard is compulsory), and quits after ``limit`` prompts."""
    prompts: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        prompts.append(prompt)
        if len(prompts) > limit:
            return "quit"
        if prompt.startswith("Discard"):
            return "pat" if prompt.startswith("Discard (0") else "1"
        if prompt.startswith("Run"):
            return "2"
        return "bi" if "bi (" in prompt else "c"

    return read, prompts


@pytest.mark.parametrize("name", [v.name for v in variants.available()])
def test_every_variant_plays(name: str) -> None:
    console, out = _console()
    read, prompts = _player(25)
    seats = min(3, variants.get(name).max_players)
    session = new_session(name, seats, console, read, seed=3, bots=["calling-station"])
    assert session.run() == 0
    text = out.getvalue()
    assert len(prompts) == 26 and "Hand #3" in text and "You leave the table." in text
    assert "is not an action" not in text  # every scripted answer was taken
    game = session.game
    chips = sum(p.stack for p in game.table.players()) + (game.hand.pot_total() if game.hand else 0)
    assert chips == 200 * seats


def _script(lines: list[str]) -> Callable[[str, float | None], str | None]:
    it: Iterator[str] = iter(lines)

    def read(prompt: str, timeout: float | None) -> str | None:
        return next(it, "quit")

    return read


def test_a_silent_person_checks_or_folds_when_time_runs_out() -> None:
    console, out = _console()
    asked: list[float | None] = []

    def silent(prompt: str, timeout: float | None) -> str | None:
        asked.append(timeout)
        return None if len(asked) < 4 else "quit"

    session = new_session("NT", 2, console, silent, seed=1, bots=["calling-station"], time_limit=5)
    session.run()
    text = out.getvalue()
    assert "Time is up: you fold." in text and "⏱ 5s" in text and all(t is not None and t <= 5 for t in asked)


def test_save_and_resume_continue_the_same_game(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    console, _ = _console()
    first = new_session("NT", 3, console, _script(["c", "x", "save", "quit"]), seed=9, save=str(save))
    first.run()
    before = snapshot(first.game)
    console2, out2 = _console()
    again = load(str(save), console2, _script(["quit"]))
    assert snapshot(again.game) == before and again.setup == first.setup
    again.run()
    assert "Hand #1" in out2.getvalue()  # the table of the hand in progress, drawn again


def test_phh_is_written_as_hands_end_and_replays(tmp_path: Path) -> None:
    phh = tmp_path / "hands.phhs"
    console, _ = _console()
    read, _ = _player(20)
    session = new_session("NT", 3, console, read, seed=4, phh=str(phh), bots=["seed-ai"], stack=2000)
    session.run()
    report = check_paths([phh])
    assert len(report.hands) >= 2 and all(h.status == "ok" for h in report.hands), report.lines()
    # the file holds what the person saw: in each hand only the person's cards are known, besides
    # the cards players showed; a bot's mucked hand stays unknown
    hidden = 0
    for hand in load_phh(phh):
        known = {a.player for a in hand.actions if isinstance(a, DealHoleAction) and None not in a.cards}
        showed = {a.player for a in hand.actions if isinstance(a, ShowMuckAction) and a.cards}
        assert hand.players is not None
        me = hand.players.index(session.game.names()[session.setup.seat])
        assert known <= showed | {me}, hand.actions
        hidden += sum(isinstance(a, DealHoleAction) and None in a.cards for a in hand.actions)
    assert hidden



def test_bad_arguments_are_refused_before_anything_starts(tmp_path: Path) -> None:
    console, out = _console()
    read = _script([])
    for kwargs, said in (({"bots": ["nobody"]}, "Unknown bot"), ({"bots": ["random", "random"]}, "one for all"),
                         ({"phh": str(tmp_path / "x.phhs"), "variant": "ante hold'em"}, "PHH has no code"),
                         ({"phh": str(tmp_path / "x.phh")}, ".phhs")):
        variant = str(kwargs.pop("variant", "NT"))
        with pytest.raises(Exception, match=said):
            new_session(variant, 4, console, read, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(Exception, match="seats exactly 2 players, not 3"):
        new_session("leduc hold'em", 3, console, read)
    with pytest.raises(Exception, match="Unknown variant"):
        new_session("snap", 3, console, read)
    assert out.getvalue() == ""
    assert isinstance(Session, type)


@pytest.mark.parametrize("name", [v.name for v in variants.available()])
def test_every_line_fits_80_columns(name: str) -> None:
    """The console does not wrap (the command line's is ``soft_wrap``): every line play prints,
    the intro, a deal to every seat, help, a refusal, the table and the stacks, is fitted to it."""
    out = io.StringIO()
    console = Console(file=out, width=80, soft_wrap=True, color_system=None, record=True)
    inner, _ = _player(30)
    script = iter(["help", "zz" * 60, "table"])

    def read(prompt: str, timeout: float | None) -> str | None:
        return next(script, None) or inner(prompt, timeout)

    seats = variants.get(name).max_players
    session = new_session(name, seats, console, read, seed=3, bots=["calling-station"], time_limit=300,
                          name="Twenty Characters Ok")
    session.run()
    lines = console.export_text().splitlines()
    assert "*** HOLE CARDS ***" in out.getvalue() or "*** 3RD STREET ***" in out.getvalue()
    assert max(cell_len(line) for line in lines) <= 80, [line for line in lines if cell_len(line) > 80]
