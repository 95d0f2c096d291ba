"""``cardgame play`` with the table rules (issue 35): show or muck with ask to see, the dead button,
the rake; played through a pseudo-terminal as a person would, the options kept by save and resume,
hostile option values refused; the show-or-muck prompt and its clock driven by a scripted reader."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from cardgame.model.errors import CardgameError, ConfigError
from cardgame.phh.replay import check_paths
from cardgame.play.bot import BotBase, BotView
from cardgame.stages.results import ShowOptions
from cardgame.store.serialize import SnapshotError
from cardgame.terminal.play import load, new_session, rake_from_text
from cardgame.terminal.prompt import InputError, parse_show, show_help, show_question

ROOT = Path(__file__).resolve().parents[2]
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
HEADS_UP = ("--seats", "2", "--seed", "5", "--bots", "calling-station", "--stack", "100")


def _spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", "COLUMNS": "80", "LINES": "24"}
    return pexpect.spawn(sys.executable, ["-m", "cardgame", "play", *args], env=env, encoding="utf-8",
                         timeout=10, dimensions=(24, 80), cwd=str(cwd))


def _words(child: pexpect.spawn, text: str) -> None:
    """``text`` on the screen, its lines broken anywhere between words (fitted to 80 columns)."""
    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def _done(child: pexpect.spawn, status: int = 0) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status, child.before
    return str(child.before)


def _second_hand_to_the_river(child: pexpect.spawn) -> None:
    """Hand #2 of seed 5: the person checks, then bets 10, 20 and 40 on the flop, turn and river, each called."""
    child.expect_exact("Hand #2  preflop")
    for answer in ("x", "b 10", "b 20", "b 40"):
        child.expect_exact("> ")
        child.sendline(answer)


@POSIX
def test_show_or_muck_the_person_mucks_then_shows(tmp_path: Path) -> None:
    """Regression: at a showdown played with show or muck the terminal had no question for the person
    and stopped the game ('The game asks the person nothing it can answer')."""
    child = _spawn(*HEADS_UP, "--show-or-muck", "--phh", "hands.phhs", cwd=tmp_path)
    _words(child, "Table rules: show or muck in turn at the showdown (TDA rule 16), a called hand mucked may be "
                  "asked to see (TDA rule 18).")
    for answer in ("c", "x", "x", "x"):
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("Ann shows Js 6c: Pair of Twos (Q J T)")
    _words(child, "Your hand wins against those shown: s (show), m (muck: your hand forfeits the pot) >")
    child.sendline("zz")
    _words(child, "'zz' is not an answer here. Allowed: s (show), m (muck: your hand forfeits the pot); or help, "
                  "quit.")
    child.sendline("help")
    _words(child, "A mucked hand is dead and not shown; a hand must be shown to win")
    child.sendline("save")
    _words(child, "The game cannot be saved while hands are shown or mucked at the showdown; the game goes on")
    child.sendline("m")
    child.expect_exact("Hero mucks")
    child.expect_exact("Main pot of 4: Ann 4")
    child.expect_exact("Stacks: Hero 98 (-2), Ann 102 (+2)")
    _second_hand_to_the_river(child)
    _words(child, "Your hand wins against those shown: s (show), m (muck: your hand forfeits the pot) >")
    child.sendline("show")
    child.expect_exact("Hero shows 4h 3s: Pair of Threes (K T 8)")
    child.expect_exact("Ann mucks")  # the bot mucks its losing hand
    child.expect_exact("Main pot of 144: Hero 144")
    child.expect_exact("Hand #3")
    child.sendline("quit")
    child.expect_exact("The game is not saved: the last save failed.")  # asked again
    child.sendline("quit")
    _done(child)
    text = (tmp_path / "hands.phhs").read_text()
    first, second = text.split("[2]")
    assert '"p1 sm Js6c",\n  "p2 sm",\n]' in first  # Ann shows, Hero (p2 in hand 1) mucks unshown
    assert '"p1 sm 4h3s",\n  "p2 sm",\n]' in second  # Hero shows, Ann mucks unshown
    report = check_paths([tmp_path / "hands.phhs"])
    assert [h.status for h in report.hands] == ["ok", "ok"], report.lines()


@POSIX
def test_a_raked_dead_button_game_says_the_rake_and_writes_it(tmp_path: Path) -> None:
    child = _spawn(*HEADS_UP, "--dead-button", "--rake", "5:2", "--phh", "hands.phhs", cwd=tmp_path)
    _words(child, "Table rules: dead button (TDA); rake 5% of each pot, at most 2, no flop no drop.")
    child.expect_exact("the button is on seat 0, Hero has the small blind, Ann has the big blind")  # the rule's
    for answer in ("c", "x", "x", "x"):
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("Main pot of 4: Hero 4")  # 5% of 4 is under a chip: nothing raked
    _second_hand_to_the_river(child)
    child.expect_exact("Hero shows 4h 3s")
    child.expect_exact("The house takes 2 from the pot as rake")  # 5% of 144 is 7, the cap 2
    child.expect_exact("Main pot of 142: Hero 142")
    child.expect_exact("Stacks: Hero 172 (+70), Ann 26 (-72)")  # 2 chips left the table
    child.sendline("quit")
    _done(child)
    hands = (tmp_path / "hands.phhs").read_text().split("[2]")
    assert "rake" not in hands[0] and "\nrake = 2\n" in hands[1]
    report = check_paths([tmp_path / "hands.phhs"])
    assert [h.status for h in report.hands] == ["ok", "ok"], report.lines()


@POSIX
def test_the_table_rules_survive_save_and_resume(tmp_path: Path) -> None:
    child = _spawn(*HEADS_UP, "--show-or-muck", "--dead-button", "--rake", "2.5:3", "--save", "game.json",
                   cwd=tmp_path)
    child.expect_exact("> ")
    child.sendline("save")
    child.expect_exact("Saved to game.json.")
    child.sendline("quit")
    _done(child)
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["params"] == {"show_or_muck": True, "ask_to_see": True, "button": "dead", "rake": "2.5:3"}
    child = _spawn("--resume", "game.json", "--rake", "3", cwd=tmp_path)  # the saved rules cannot change
    assert "--resume continues the saved game as it was; --rake cannot change it." in _done(child, 2)
    child = _spawn("--resume", "game.json", cwd=tmp_path)
    _words(child, "show or muck in turn at the showdown (TDA rule 16), a called hand mucked may be asked to see "
                  "(TDA rule 18); dead button (TDA); rake 2.5% of each pot, at most 3, no flop no drop.")
    for answer in ("c", "x", "x", "x"):
        child.expect_exact("> ")
        child.sendline(answer)
    _words(child, "Your hand wins against those shown: s (show), m (muck: your hand forfeits the pot) >")
    child.sendline("s")
    child.expect_exact("Hero shows Ks 7h")
    child.sendline("quit")
    _done(child)


@POSIX
@pytest.mark.parametrize(("args", "said"), [
    (("--rake", "5:x"), "argument --rake: A rake is PERCENT[:CAP]: a percentage from 0 to 100"),
    (("--rake", "101"), "A rake's percentage is 0 to 100, not '101'"),
    (("--rake", "-5"), "not '-5'"),
    (("--rake", "5.1234567"), "at most 6 decimals"),
    (("--rake", "1e3"), "not '1e3'"),
    (("--rake", "٥"), "not '٥'"),  # a digit, but not an ASCII one
    (("--rake", "9" * 5000), "(5,000 characters)"),
    (("--rake", "5:" + "9" * 14), "A rake is PERCENT[:CAP]"),
    (("--variant", "kuhn poker", "--rake", "5"), "kuhn poker has no rake option; the variants with it: courchevel,"),
    (("--variant", "razz", "--dead-button"), "razz has no dead-button option; the variants with it:"),
    (("--variant", "NS", "--dead-button"), "short-deck hold'em has no dead-button option"),  # its button blind
    (("--variant", "razz", "--run-it-twice"), "razz has no run-it-twice option; the variants with it: NT"),
])
def test_hostile_option_values_are_refused(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    child = _spawn(*args, cwd=tmp_path)
    text = _done(child, 2)
    assert said in " ".join(text.split()), text
    assert len(text) < 1200 and "Traceback" not in text


def test_a_save_with_a_hostile_rake_is_refused(tmp_path: Path) -> None:
    console = Console(file=io.StringIO(), width=80)
    session = new_session("NT", 2, console, lambda prompt, timeout: "quit", seed=5, params={"rake": "5:2"},
                          save=str(tmp_path / "game.json"))
    session.save()
    data = json.loads((tmp_path / "game.json").read_text())
    for bad in ("lots", "5:-2", 10**400, ["5"]):
        data["params"]["rake"] = bad
        (tmp_path / "bad.json").write_text(json.dumps(data))
        with pytest.raises(SnapshotError, match=r"bad\.json") as caught:
            load(str(tmp_path / "bad.json"), console, lambda prompt, timeout: "quit")
        assert len(str(caught.value)) < 700


def test_rake_from_text() -> None:
    assert rake_from_text("5:6").cap == 6 and rake_from_text(" 2.5 ").cap is None
    assert rake_from_text("2.5").amount(200, flop=True, players=2) == 5
    for bad in ("", ":", "5::6", "5:6:7", "0x10", "nan", "inf", "5%", None, 5, b"5", "5" * 41):
        with pytest.raises(ConfigError, match=r"PERCENT\[:CAP\]"):
            rake_from_text(bad)  # type: ignore[arg-type]


# --- the show-or-muck question, driven by a scripted reader ---------------------------------------------------
def _answers(lines: list[str | None], prompts: list[str]) -> object:
    it: Iterator[str | None] = iter(lines)

    def read(prompt: str, timeout: float | None) -> str | None:
        prompts.append(prompt)
        return next(it, "quit")

    return read


class _Bettor(BotBase):
    """Bets the least it may on every street (the called hand at the showdown), then mucks it."""

    def act(self, view: BotView) -> object:
        legal = view.legal
        assert legal is not None
        return ("bet", legal.min_raise_to) if legal.is_bet and legal.can_raise else "call"

    def show_or_muck(self, view: BotView) -> object:
        return "muck"


def test_the_person_asks_to_see_a_called_hand_mucked() -> None:
    out = io.StringIO()
    prompts: list[str] = []
    read = _answers(["c", "c", "c", "c", "a", "a", "m"], prompts)
    session = new_session("NT", 2, Console(file=out, width=200), read, seed=5, stack=100,  # type: ignore[arg-type]
                          bots=["calling-station"], params={"show_or_muck": True, "ask_to_see": True})
    session.bots[1] = _Bettor()  # type: ignore[assignment]
    session.run()
    text = out.getvalue()
    assert "Ann mucks" in text
    assert prompts[4] == "You win the pot uncontested: s (show), m (muck), a (ask to see Ann's hand) > "
    assert "Ann shows Js 6c" in text  # shown on request, and dead
    assert prompts[5] == "You win the pot uncontested: s (show), m (muck) > "  # asked once: no more to see
    assert "'a' is not an answer here. Allowed: s (show), m (muck); or help, quit." in text
    assert "Hero mucks" not in text and "Hand #2" in text  # the winner declined to show
    assert session.game.table.player(0).stack > 100


@pytest.mark.parametrize(("answers", "said", "shown"), [
    (["c", "x", "x", "x", None], "Time is up: your hand is shown.", "Hero shows Ks 7h"),  # a winner is shown
    (["c", "x", "x", "x", "s", "x", "x", "b 10", "b 20", "b 40", None], "Time is up: your hand is shown.",
     "Hero shows 4h 3s"),
])
def test_time_out_at_show_or_muck_shows_a_winner(answers: list[str | None], said: str, shown: str) -> None:
    out = io.StringIO()
    session = new_session("NT", 2, Console(file=out, width=200), _answers(answers, []), seed=5,  # type: ignore[arg-type]
                          stack=100, bots=["calling-station"], params={"show_or_muck": True}, time_limit=30)
    session.run()
    assert said in out.getvalue() and shown in out.getvalue()


def test_time_out_mucks_a_losing_hand() -> None:
    """Seed 3, three-handed: the person's hand loses to one shown, and the clock mucks it (TDA)."""
    out = io.StringIO()
    prompts: list[str] = []
    session = new_session("NT", 3, Console(file=out, width=200), _answers([], prompts), seed=3,  # type: ignore[arg-type]
                          stack=100, bots=["calling-station"], params={"show_or_muck": True}, time_limit=30)

    def read(prompt: str, timeout: float | None) -> str | None:
        prompts.append(prompt)
        if prompt.startswith("Your hand does not win"):
            return None
        return "quit" if len(prompts) > 40 or "Time is up" in out.getvalue() else "c"

    session.read = read
    session.run()
    text = out.getvalue()
    assert "Time is up: your hand is mucked." in text and "Hero mucks" in text, text


def test_the_show_question_refuses_hostile_values() -> None:
    options = ShowOptions(0, False)
    assert show_question(options) == "Your hand does not win: s (show), m (muck)"
    assert parse_show(" M ", options).kind == "muck" and parse_show("save x", options).path == "x"
    for bad in ("", "a", "raise", "s" * 10_000):
        with pytest.raises(InputError, match="Allowed: s"):
            parse_show(bad, options)
    for value in (None, 3, "x" * 41, "\x1b[2J"):
        with pytest.raises(CardgameError):
            show_help(options, value)  # type: ignore[arg-type]
    with pytest.raises(CardgameError):
        parse_show("s", "options")  # type: ignore[arg-type]


def test_a_raked_game_snapshots_and_restores_only_with_its_rake() -> None:
    """Regression: a snapshot of a game with a rake held the rake's Fraction, so ``dumps`` raised
    TypeError and ``cardgame play``'s save failed."""
    from cardgame.model.rake import Rake
    from cardgame.play.game import Game
    from cardgame.store.snapshot import dumps, restore
    from variants.holdem import no_limit_holdem

    game = Game(no_limit_holdem(1, 2, rake=Rake(5, 2)), seats=2, seed=1)
    game.sit_down("A", 100, 0)
    game.sit_down("B", 100, 1)
    game.start()
    data = json.loads(dumps(game))
    assert dumps(restore(data, no_limit_holdem(1, 2, rake=Rake(5, 2)))) == dumps(game)
    with pytest.raises(SnapshotError, match="rake"):
        restore(data, no_limit_holdem(1, 2, rake=Rake(5, 3)))


@pytest.mark.parametrize("name", [v.name for v in __import__("variants").available()])
def test_every_variant_plays_with_every_table_rule_it_has(name: str) -> None:
    """Show or muck (the person alternately shows and mucks), the dead button and a rake, where the
    variant's builder has them: three hands end, every answer taken, the chips conserved with the rake."""
    import inspect

    import variants
    from cardgame.model.events import RakeTaken

    v = variants.get(name)
    offered = inspect.signature(v.builder).parameters
    params = {key: value for key, value in (("show_or_muck", True), ("ask_to_see", True), ("button", "dead"),
                                            ("rake", "50:5")) if key in offered}
    if v.code == "NS":  # short deck plays a button blind, which the dead button does not take
        del params["button"]
    prompts: list[str] = []
    shows: list[str] = []

    def read(prompt: str, timeout: float | None) -> str | None:
        prompts.append(prompt)
        if len(prompts) > 40 or "Hand #4" in out.getvalue():
            return "quit"
        if prompt.startswith(("Your hand", "You win")):
            shows.append(prompt)
            return "s" if len(shows) % 2 else "m"
        if prompt.startswith("Discard"):
            return "pat" if prompt.startswith("Discard (0") else "1"
        return "bi" if "bi (" in prompt else "c"

    out = io.StringIO()
    seats = min(3, v.max_players)
    session = new_session(name, seats, Console(file=out, width=80), read, seed=3, bots=["calling-station"],
                          params=params)
    rakes: list[int] = []
    session.game.subscribe(lambda event: rakes.append(event.amount) if isinstance(event, RakeTaken) else None)
    assert session.run() == 0
    text = out.getvalue()
    assert "is not an" not in text and "Hand #3" in text, text
    game = session.game
    raked = sum(rakes)
    assert text.count("The house takes") == len(rakes)
    chips = sum(p.stack for p in game.table.players()) + (game.hand.pot_total() if game.hand else 0)
    assert chips + raked == 200 * seats
    assert shows, prompts  # the person was asked to show or muck
