"""``cardgame demo`` reads as a hand history; ``--table``, ``--quiet``, ``--json``, ``--version`` and
errors behave as the README says."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from cardgame.cli import main, parser
from cardgame.model.cards import parse_cards
from cardgame.model.events import ActionTaken, CardsDiscarded, ForcedBetPosted, HandStarted, HoleCardsDealt
from cardgame.play.bots import calling_station
from cardgame.play.game import Game
from cardgame.play.narration import Narration, plain_hand, stakes_of
from cardgame.stages import ForcedBets
from variants import get, no_limit_holdem, seven_card_stud

OLD_BOTS = ("--bots", "random,pair-raiser")  # the demo's first table: random bots, and bots raising pairs


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo fits its lines to the console; off a terminal that is 80 columns unless COLUMNS says."""
    monkeypatch.setenv("COLUMNS", "80")


def demo(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["demo", *args]) == 0
    return capsys.readouterr().out


def unwrap(out: str) -> list[str]:
    """The demo's lines as written before they were fitted to 80 columns (a continuation line is
    indented four columns past its first)."""
    lines: list[str] = []
    for line in out.splitlines():
        if lines and line.startswith("    ") and line.strip():
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardgame", *args], capture_output=True, text=True, check=False)


def results(out: str) -> dict[str, tuple[int, int, int]]:
    """The results table's rows: name -> (hands, net, stack)."""
    rows = re.findall(r"^│ (\w+) +│ +(\d+) │ +([+-]?\d+) │ +(\d+) │$", out, flags=re.M)
    return {name: (int(hands), int(net), int(stack)) for name, hands, net, stack in rows}


# --- the hand history ----------------------------------------------------------------------------
def test_holdem_demo_reads_as_a_hand_history(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--hands", "5", "--seed", "1")
    lines = unwrap(out)
    assert "Hand #5, button Eve, blinds 1/2" in out
    for line in ("  Eve raises to 5", "  Dan raises to 27", "  Ann raises to 173 and is all-in",
                 "*** FLOP *** [Js Th Ad]", "*** TURN *** [Js Th Ad] [5d]", "*** RIVER *** [Js Th Ad 5d] [Ah]",
                 "*** SHOWDOWN ***", "  Dan shows Ac 2c: Three of a Kind, Aces (J T)",
                 "  Ann shows Jd 3h: Two Pair, Aces and Jacks (T)",
                 "  Main pot of 401: Dan 401 with Three of a Kind, Aces (J T)",
                 "Stacks: Ann 0 (-200), Cat 205 (-1), Dan 401 (+201)",
                 "*** HOLE CARDS *** Cat 8s Jh, Dan Ac 2c, Eve Kc 9c, Fay 6d 5h, Ann Jd 3h, Bob 7c 2d"):
        assert line in lines
    assert "State" not in out and "InPot" not in out  # no status table without --table


def test_the_default_table_plays_like_poker_and_says_who_plays_how(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--hands", "20", "--seed", "3")
    lines = unwrap(out)
    assert ("Bots: Ann and Dan weigh their hand's strength against the pot odds (the poker-AI seed's bot); Bob and "
            "Eve open a fifth of their hands with a raise, by position, and bet their good hands; Cat and Fay are the "
            "seed's bot made tight: they fold more and bet smaller.") in lines
    hands = out.split("Hand #")[1:]
    preflop = [hand.split("*** FLOP")[0] for hand in hands]
    # random bots shoved in 4 hands of 5; here only a re-raising war ends all in before the flop, now and then
    assert len(hands) == 20 and sum("all-in" in p for p in preflop) <= 3
    assert sum("*** FLOP ***" in h for h in hands) >= 10 and sum("*** SHOWDOWN ***" in h for h in hands) >= 4


def test_every_line_fits_in_80_columns(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for args in (["--seats", "10", "--hands", "3"], ["--variant", "F7S", "--seats", "8", "--table"],
                 ["--variant", "F2L3D", "--table", "--hands", "2"]):
        out = demo(capsys, *args, "--seed", str(2**128 - 1))
        assert max(map(len, out.splitlines())) <= 80
        assert len(unwrap(out)) < len(out.splitlines())  # something was too wide, and was fitted
    screen = io.StringIO()
    console = Console(file=screen, width=80, soft_wrap=True, force_terminal=True)  # as the command makes it
    args = parser().parse_args(["demo", "--seats", "10", "--seed", "1", "--table"])
    assert args.run(args, console) == 0
    assert max(map(len, Text.from_ansi(screen.getvalue()).plain.splitlines())) <= 80


def test_each_hand_is_named_once_and_takes_few_lines(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--hands", "5", "--seed", "1")
    numbers = re.findall(r"Hand #(\d+)\b", out)
    assert numbers == ["1", "2", "3", "4", "5"]
    headers = [i for i, line in enumerate(out.splitlines()) if "Hand #" in line]
    ends = [*headers[1:], out.splitlines().index("Results after 5 hands")]
    sizes = [end - start for start, end in zip(headers, ends, strict=True)]
    assert max(sizes) <= 25, sizes  # hand #4 (a raise, a re-raise, an all-in on the flop, a showdown) is the longest
    assert len(unwrap(out)) < 120  # the whole run (it was 419 lines with a table per action)


def test_results_table_closes_the_run_and_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--hands", "5", "--seed", "1")
    assert "Results after 5 hands" in out
    rows = results(out)
    assert rows == {"Dan": (5, 200, 400), "Fay": (5, 6, 206), "Cat": (5, 5, 205), "Bob": (5, 0, 200),
                    "Eve": (5, -11, 189), "Ann": (2, -200, 0)}
    assert list(rows) == ["Dan", "Fay", "Cat", "Bob", "Eve", "Ann"]  # biggest winner first
    assert "Stopped after" not in out


def test_a_run_cut_short_by_busted_players_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--seats", "3", "--stack", "10", "--hands", "30", "--seed", "1", *OLD_BOTS)
    assert "Ann is out of chips" in out and "Bob is out of chips" in out
    assert ("Stopped after 7 of 30 hands: Ann and Bob are out of chips, so only Cat can play and a hand needs "
            "two players.") in out
    assert "Results after 7 hands" in out
    assert results(out) == {"Cat": (7, 20, 30), "Ann": (5, -10, 0), "Bob": (7, -10, 0)}


@pytest.mark.parametrize("code", ["F7S", "F7S/8", "FR"])
@pytest.mark.parametrize("table", [False, True])
def test_stud_never_names_a_button(code: str, table: bool, capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--variant", code, "--hands", "4", "--seed", "1", *(["--table"] if table else []))
    assert "button" not in out.lower() and "(B)" not in out
    assert "Hand #1, ante 1, bring-in 2" in out
    assert re.search(r"^  \w+ (brings in 2|completes to 5)$", out, flags=re.M)


def test_stud_brings_in_and_completes(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--variant", "F7S", "--hands", "2", "--seed", "119", *OLD_BOTS)
    lines = out.splitlines()
    hand1, hand2 = out.split("Hand #2")
    assert "  Ann completes to 5" in hand1.splitlines()  # the bring-in completes at once
    assert "  Dan brings in 2" in hand2.splitlines() and "  Ann completes to 5" in hand2.splitlines()
    assert hand2.index("Dan brings in 2") < hand2.index("Ann completes to 5")
    assert "  Bob, Cat, Dan, Eve, Fay and Ann post antes of 1" in lines
    assert ("*** 3RD STREET *** Bob 6h 4s [Ks], Cat Th Qh [Ts], Dan 8s 3h [3d], Eve Kd Qc [5s], Fay Ah 6c [6d], "
            "Ann 5d 9h [2d]") in unwrap(out)
    assert "*** 7TH STREET *** Eve Td Kd [9s 4s Kh 7s] Ts, Ann 5s Ad [9h 3c 3d 2s] 6s" in lines
    assert "  Eve shows Td Kd 9s 4s Kh 7s Ts: Two Pair, Kings and Tens (9)" in lines
    third_streets = re.findall(r"\*\*\* 3RD STREET \*\*\*.*?\*\*\* 4TH STREET", out, flags=re.S)
    assert len(third_streets) == 2
    assert not any(re.search(r"(raises to|bets) 5$", street, flags=re.M) for street in third_streets)


def test_draw_rounds_show_discards_and_the_new_hand(capsys: pytest.CaptureFixture[str]) -> None:
    lines = demo(capsys, "--variant", "F2L3D", "--hands", "1", "--seed", "17", *OLD_BOTS).splitlines()
    assert lines.index("*** FIRST DRAW ***") < lines.index("*** SECOND DRAW ***") < lines.index("*** THIRD DRAW ***")
    assert "  Cat discards 3: 2h 9s Ac; draws Kc Jc Ad, holds 8s 4h Kc Jc Ad" in lines
    assert "  Ann stands pat" in lines


# --- the status table ----------------------------------------------------------------------------
def test_table_flag_prints_the_status_table_and_its_legend_once(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--seats", "3", "--hands", "1", "--seed", "2", "--table")
    legend = "State: > acts next, F folded, A all-in, - sitting out; (B) after a name: the button."
    assert unwrap(out).count(legend) == 1
    assert "?" not in out
    lines = out.splitlines()
    first = lines.index("State Seat  Name              Stack    Bet   InPot  Cards")
    assert lines[first - 1] == "Hand #1  Street: preflop  Pot: 3"
    assert lines[first - 2] == "*** HOLE CARDS *** Bob 2s 3d, Cat Ah 7s, Ann 4h Qh"  # the deal comes first
    assert lines[first + 1].startswith(">") and "Ann (B)" in lines[first + 1]
    assert out.count("State Seat") == len(re.findall(r"^  \w+ (folds|checks|calls|bets|raises)", out, flags=re.M))


# --- output for scripts --------------------------------------------------------------------------
def test_quiet_prints_only_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    out = demo(capsys, "--hands", "5", "--seed", "1", "--quiet")
    assert out.startswith("Results after 5 hands\n")
    assert "Hand #" not in out and "***" not in out and "Bots:" not in out
    assert results(out)["Dan"] == (5, 200, 400)


def test_json_is_the_only_output_and_parses(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(demo(capsys, "--seats", "3", "--stack", "10", "--hands", "30", "--seed", "1", "--json",
                           *OLD_BOTS))
    assert data["variant"] == "no-limit hold'em" and data["code"] == "NT" and data["seed"] == 1
    assert data["hands_requested"] == 30 and data["hands_played"] == 7 and data["stopped_early"] is True
    assert data["stop_reason"].startswith("Stopped after 7 of 30 hands: Ann and Bob are out of chips")
    assert data["players"] == [
        {"seat": 0, "name": "Ann", "hands": 5, "net": -10, "stack": 0},
        {"seat": 1, "name": "Bob", "hands": 7, "net": -10, "stack": 0},
        {"seat": 2, "name": "Cat", "hands": 7, "net": 20, "stack": 30},
    ]
    full = json.loads(demo(capsys, "--variant", "FR", "--hands", "3", "--seed", "4", "--json"))
    assert full["hands_played"] == 3 and full["stopped_early"] is False and full["stop_reason"] is None
    assert sum(p["net"] for p in full["players"]) == 0 and sum(p["stack"] for p in full["players"]) == 6 * 200


def test_version_is_the_installed_package_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout == f"cardgame {version('cardgame')}\n"


# --- errors --------------------------------------------------------------------------------------
def test_unknown_variant_lists_the_choices_on_stderr() -> None:
    proc = run("demo", "--variant", "holdem")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("cardgame: error: Unknown variant 'holdem'; give a PHH code or a name: ")
    for choice in ("NT or no-limit hold'em", "F7S or seven-card stud", "FR or razz", "kuhn poker", "ante hold'em"):
        assert choice in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--variant", "FR", "--seats", "9"], "cardgame: error: --seats must be 2 to 8 for razz, not 9"),
        (["demo", "--seats", "1"],
         "cardgame demo: error: argument --seats: The number of seats 1 is out of range; allowed is at least 2"),
        (["demo", "--quiet", "--json"], "argument --json: not allowed with argument --quiet"),
        (["demo", "--hands", "many"],
         "argument --hands: The number of hands must be a whole number from 1 to 100000, written in ASCII "
         "digits 0-9 (at most 18 of them), not 'many'"),
        (["deal"], "cardgame: error: argument command: invalid choice: 'deal'"),
    ],
)
def test_errors_are_one_line_on_stderr(args: list[str], message: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


# --- the history alone ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("High Card (A K Q 8 4)", "Ace high (K Q 8 4)"),
        ("Pair (8 K Q 7)", "Pair of Eights (K Q 7)"),
        ("Pair (6 A 9 2)", "Pair of Sixes (A 9 2)"),
        ("Two Pair (A 7 J)", "Two Pair, Aces and Sevens (J)"),
        ("Three of a Kind (Q 9 5)", "Three of a Kind, Queens (9 5)"),
        ("Straight (5)", "Straight, Five high"),
        ("Flush (A Q 9 7 3)", "Flush, Ace high (Q 9 7 3)"),
        ("Full House (K over 7)", "Full House, Kings full of Sevens"),
        ("Four of a Kind (9 K)", "Four of a Kind, Nines (K)"),
        ("Straight Flush (A)", "Royal Flush"),
        ("Straight Flush (9)", "Straight Flush, Nine high"),
        ("Pair (9 A Q 6) / Low (7 6 3 2 A)", "Pair of Nines (A Q 6) / Low (7 6 3 2 A)"),
        ("Low (K T 7 6 5)", "Low (K T 7 6 5)"),
        ("King high", "King high"),
        ("run 1: Pair (2 8 7 6); run 2: Two Pair (4 2 7)",
         "Run 1: Pair of Twos (8 7 6); Run 2: Two Pair, Fours and Twos (7)"),
    ],
)
def test_plain_hand_puts_high_hands_in_words(text: str, words: str) -> None:
    assert plain_hand(text) == words


def test_each_run_out_of_a_hand_run_twice_is_labelled() -> None:
    stages = no_limit_holdem(1, 2, run_it_twice=True)
    game = Game(stages, seed=3, max_hands=2, keep_hands=None)
    history = Narration.for_stages(stages)
    lines: list[str] = []
    game.subscribe(lambda e: lines.extend(line.text for line in history.feed(e)))
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.ctx.stack_deck("AhAd KsKd 7c2h  3c 2s3s4s 5d 6c 9h 8c 7s 6s5h4h 4c 3h 2d")  # the hole cards first
    game.start()
    game.all_in(game.to_act)  # type: ignore[arg-type]
    game.all_in(game.to_act)  # type: ignore[arg-type]
    game.fold(game.to_act)  # type: ignore[arg-type]
    game.choose_runs(game.to_act, 2)  # type: ignore[arg-type]
    game.choose_runs(game.to_act, 2)  # type: ignore[arg-type]
    first = lines[:lines.index("Stacks: Ann 101 (+1), Bob 101 (+1), Cat 98 (-2)")]
    streets = [line for line in first if line.startswith("*** RUN")]
    assert [line.split(" *** ")[0] for line in streets] == [
        "*** RUN 1: FLOP", "*** RUN 1: TURN", "*** RUN 1: RIVER", "*** RUN 2: FLOP", "*** RUN 2: TURN",
        "*** RUN 2: RIVER"]
    assert streets[3] == "*** RUN 2: FLOP *** [6s 5h 4h]"  # the second run-out starts from the cards before it
    assert "Ann shows 7c 2h: Run 1: Pair of Twos (8 7 6); Run 2: Straight, Eight high" in first
    assert [line for line in first if "main pot" in line] == [
        "Run 1, main pot of 101: Bob 101 with Pair of Aces (8 6 4)",
        "Run 2, main pot of 101: Ann 101 with Straight, Eight high"]
    assert not any("RUN" in line or "Run" in line for line in lines[len(first):])  # the next hand is run once


def test_stakes_come_from_the_stage_list() -> None:
    assert stakes_of(no_limit_holdem(1, 2)) == "blinds 1/2"
    assert stakes_of(seven_card_stud()) == "ante 1, bring-in 2"
    assert stakes_of(get("ante hold'em").build()) == "ante 1"
    assert stakes_of([ForcedBets((1, 2), ante=2, big_blind_ante=True)]) == "blinds 1/2, big-blind ante 2"
    assert stakes_of([ForcedBets((), ante=(0, 1, 2))]) == "antes 0/1/2"


def test_a_completion_is_the_first_full_bet_of_third_street() -> None:
    history = Narration.for_stages(seven_card_stud(ante=1, bring_in=2, small_bet=5, big_bet=10),
                                     {0: "Ann", 1: "Bob", 2: "Cat"})
    assert history.complete_to == 5
    feed = [HandStarted(1, 0, (1, 2, 0), (100, 100, 100)), ForcedBetPosted(1, "ante", 1),
            ForcedBetPosted(2, "ante", 1), ForcedBetPosted(0, "ante", 1),
            *(HoleCardsDealt(s, tuple(parse_cards(c)), (False, False, True)) for s, c in
              ((1, "2c 3c 4c"), (2, "5c 6c 7c"), (0, "8c 9c Tc"))),
            ActionTaken(1, "bring-in", 2, 2), ActionTaken(2, "raise", 3, 5), ActionTaken(0, "raise", 10, 10),
            *(HoleCardsDealt(s, tuple(parse_cards(c)), (True,)) for s, c in ((1, "2d"), (2, "5d"), (0, "8d"))),
            ActionTaken(1, "bet", 5, 5)]
    text = [line.text for event in feed for line in history.feed(event)]
    assert text == [
        "Hand #1, ante 1, bring-in 2", "Bob, Cat and Ann post antes of 1",
        "*** 3RD STREET *** Bob 2c 3c [4c], Cat 5c 6c [7c], Ann 8c 9c [Tc]",
        "Bob brings in 2", "Cat completes to 5", "Ann raises to 10",
        "*** 4TH STREET *** Bob 2c 3c [4c 2d], Cat 5c 6c [7c 5d], Ann 8c 9c [Tc 8d]", "Bob bets 5",
    ]


def test_a_short_all_in_raise_of_the_bring_in_is_not_a_completion() -> None:
    history = Narration({0: "Ann", 1: "Bob"}, complete_to=5)
    history.feed(HandStarted(1, None, (0, 1), (3, 100)))
    assert [line.text for line in history.feed(ActionTaken(1, "bring-in", 2, 2))] == ["Bob brings in 2"]
    short = history.feed(ActionTaken(0, "raise", 3, 3, all_in=True))
    assert [line.text for line in short] == ["Ann raises to 3 and is all-in"]


def test_a_discard_is_written_even_when_no_card_follows() -> None:
    history = Narration({0: "Ann"})
    history.feed(HandStarted(1, 0, (0,), (100,)))
    history.feed(HoleCardsDealt(0, tuple(parse_cards("2c 3c 4c 5c 7d"))))
    lines = history.feed(CardsDiscarded(0, tuple(parse_cards("7d"))))
    assert [line.text for line in lines] == ["*** HOLE CARDS *** Ann 2c 3c 4c 5c 7d", "*** FIRST DRAW ***"]
    assert [line.text for line in history.flush()] == ["Ann discards 1: 7d"]


def test_results_keep_a_player_who_left_and_the_one_who_took_the_seat() -> None:
    game = Game(no_limit_holdem(1, 2), seed=3, max_hands=3)
    history = Narration.for_stages(no_limit_holdem(1, 2))
    game.subscribe(history.feed)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.start()
    while game.hand.number == 1:
        game.play(calling_station, max_actions=1)
    game.leave(0)  # in hand #2: Ann folds, and leaves when it ends; nobody is left to play with Bob
    game.play(calling_station)
    assert history.hands_played == 2 and game.hand is None
    ann = history.results()[0]
    assert ann.name == "Ann" and ann.hands == 2 and ann.stack == 100 + ann.net != 100
    game.sit_down("Cat", 50, seat=0)
    game.play(calling_station)
    rows = history.results()
    assert [(r.seat, r.name, r.hands) for r in rows] == [(0, "Ann", 2), (0, "Cat", 1), (1, "Bob", 3)]
    assert rows[0] == ann and sum(r.net for r in rows) == 0
    assert [r.stack for r in rows[1:]] == [p.stack for p in game.table.players()]


def test_readme_sample_is_what_the_demo_prints(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    sample = readme.split("```text\n$ cardgame demo --hands 5 --seed 1\n", 1)[1].split("```", 1)[0]
    out = demo(capsys, "--hands", "5", "--seed", "1")
    parts = [part for part in sample.split("...\n") if part]
    assert len(parts) == 3 and all(part in out for part in parts)


def test_simulate_help_describes_the_columns_and_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "VPIP and PFR" in text and "95% confidence interval" in text
    assert "(default: 10000)" in text and "(default: NT)" in text and "(default: seed-ai,random,all-in)" in text


def test_simulate_help_writes_its_defaults_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "None" not in text and "(default: False)" not in text
    assert "(default: 100 big blinds)" in text and "(default: serial for one worker, else process)" in text


def test_a_plot_without_an_extension_is_refused_before_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """matplotlib would write myplot.png, another file than the one named (and maybe one that exists)."""
    pytest.importorskip("matplotlib")
    import cardgame.simulate

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the match started before the plot was checked")

    monkeypatch.setattr(cardgame.simulate, "simulate", refuse)
    assert main(["simulate", "--hands", "1000000", "--plot", str(tmp_path / "myplot")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the file's extension names the image format; give one of " in err
    assert ".png" in err and ".svg" in err and not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--variant", "leduc hold'em", "--seats", "3"], "--seats must be exactly 2 for leduc hold'em, not 3"),
        (["play", "--variant", "leduc hold'em", "--seats", "3"], "leduc hold'em seats exactly 2 players, not 3"),
        (["play", "--variant", "F7S", "--run-it-twice"],
         "seven-card stud has no run-it-twice option; the variants with it: NT (no-limit hold'em)."),
        (["play", "--name", "\x1b]0;pwned\x07"], "a name is 1 to 20 printable characters (no control characters"),
        (["play", "--name", "\x1b[2J"], "Cannot use the name '\\x1b[2J'"),
        (["play", "--name", "A" * 21], "a name is 1 to 20 printable characters"),
    ],
)
def test_play_and_demo_refuse_before_anything_starts(args: list[str], message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    out = capsys.readouterr()
    assert out.out == "" and message in out.err and out.err.count("\n") == 1 and "\x1b" not in out.err


def test_the_readme_says_what_the_seed_and_the_save_file_are_for() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = " ".join(readme.split("## Play in the terminal", 1)[1].split("\n## ", 1)[0].split())
    assert "The seed is printed so that a game can be replayed" in section
    assert "the save file holds the whole game, the deck's cards to come included, so it is for resuming, not for " \
           "sharing with an opponent" in section


LONG = "x" * 100_000


@pytest.mark.parametrize("argv", [
    ["phh", "check", "/tmp/" + LONG],
    ["phh", "check", "/tmp/" + LONG, "/tmp/x"],
    ["play", "--resume", "/tmp/" + LONG],
    ["acpc", "replay", "kuhn.limit.3p", "/tmp/" + LONG],
    ["simulate", "--hands", "2", "--backend", "serial", "--json", "/tmp/" + LONG],
    ["diagram", "NT", "--output", "/tmp/" + LONG],
    ["play", "--save", "/tmp/" + LONG],
    ["play", "--phh", "/tmp/" + LONG + ".phhs"],
    ["play", "--bots", LONG],
    ["play", "--seats", "3", "--bots", "random," + LONG],
    ["replay", "/tmp/" + LONG],
], ids=lambda argv: " ".join(a[:12] for a in argv))
def test_a_path_or_name_of_100000_characters_is_quoted_in_an_excerpt(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The OSError for a 100,000-character path (``File name too long``; ``simulate --json`` after the
    whole match) and an unknown bot's name were printed whole: now one line, an excerpt, the reason."""
    monkeypatch.chdir(tmp_path)
    try:
        status: object = main(argv)
    except SystemExit as exc:  # argparse's own check
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and len(err) < 300, err[:500]
    assert re.search(r"\(100,0\d\d characters\)", err)  # the excerpt says how long the whole was


def test_an_os_error_is_one_line_naming_the_path_and_the_reason(tmp_path: Path) -> None:
    (tmp_path / "folder.json").mkdir()
    done = run("play", "--resume", str(tmp_path / "folder.json"))
    assert done.returncode == 2 and done.stderr == f"cardgame: error: '{tmp_path}/folder.json': Is a directory\n"
