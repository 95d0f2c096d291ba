"""Range bots: the declarative style format, positions and depth bands, and the named styles playing
to their figures (VPIP, PFR, aggression factor) in a 6-max cash match."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import variants
from cardgame import Game
from cardgame.evaluation.ranges import parse_range
from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.events import ActionTaken
from cardgame.play import bots
from cardgame.play.bot import Answer, BotView
from cardgame.play.rangebot import POSITIONS, RangeBot, _aggression, _start, load_style, position, style
from cardgame.play.styles import STYLES, TARGETS
from cardgame.simulate import Match, simulate
from tests.api_walk import FUZZ, HOSTILE

DATA = Path(__file__).parent / "data" / "styles"
LINEUP = ("tight-aggressive", "loose-aggressive", "tight-passive", "nit", "seed-ai", "seed-ai-loose")
"""The 6-max table the styles' docstrings measure them at."""


@pytest.fixture(scope="module")
def six_max() -> Any:
    return simulate(Match("NT", LINEUP, 800, seed=7, shard_hands=800))


@pytest.mark.parametrize("name", list(TARGETS))
def test_each_named_style_plays_to_its_figures_at_6max(six_max: Any, name: str) -> None:
    """Issue 34: ``tight-aggressive`` had VPIP 12 %, PFR 2 %, AF 0.8; each style now lands in its band."""
    result = next(b for b in six_max.bots if b.name == name)
    target = TARGETS[name]
    assert target["vpip"][0] <= result.vpip <= target["vpip"][1], result
    assert target["pfr"][0] <= result.pfr <= target["pfr"][1], result
    assert result.aggression is not None and target["af"][0] <= result.aggression <= target["af"][1], result


def test_the_styles_are_tomlable_data_and_every_name_is_a_bot() -> None:
    assert load_style(DATA / "tight_aggressive.toml") == style(STYLES["tight-aggressive"])  # the data as TOML
    for name, data in STYLES.items():
        assert data["name"] == name and style(data).name == name
        bot = bots.get(name)
        assert isinstance(bot, RangeBot) and bot.style == style(data) and name in bots.available()
    assert set(TARGETS) == set(STYLES)


def _game(n: int, stack: int, seed: int = 3, hands: int = 60, code: str = "NT") -> Game:
    v = variants.get(code)
    game = Game(v.build(), seats=n, seed=seed, max_hands=hands, deck=v.deck, keep_hands=None)
    for i in range(n):
        game.sit_down(f"p{i}", stack)
    game.start()
    return game


def _watch(bot: RangeBot, seen: list[tuple[BotView, Answer]]) -> Any:
    def spy(view: BotView) -> Answer:
        answer = bot(view)
        seen.append((view, answer))
        return answer

    return spy


def test_unopened_the_bot_raises_its_open_range_and_folds_the_rest_by_position() -> None:
    """A style opening only aces under the gun and any pair on the button: every first-in decision
    before the flop follows the range of the seat's position (a weight of 1 always, 0 never)."""
    bot = RangeBot(style({"preflop": [{"open": {"UTG": "AA", "BTN": "22+"}, "open_size": 3}]}))  # SB, BB: BTN's
    seen: list[tuple[BotView, Answer]] = []
    game = _game(6, 400, hands=150)
    game.play({s: _watch(bot, seen) if s in (0, 3) else bots.calling_station for s in range(6)})
    first_in = [(v, a) for v, a in seen if not v.board and _aggression(v)[0] == 0]
    assert len(first_in) > 100
    opened = set()
    for view, answer in first_in:
        start = _start(view)
        assert start is not None
        pos = position(start.seats, view.seat)
        high, low = sorted(view.hole, reverse=True)
        pair = high.rank == low.rank
        wanted = pair if pos in ("BTN", "SB", "BB") else pair and high.rank == 12  # UTG, HJ, CO: aces
        if wanted:
            assert answer == ("raise", 6 + 2 * _aggression(view)[1]), (pos, view.hole)  # 3 bb, one more per limper
            opened.add(pos)
        else:
            assert answer in ("fold", "check"), (pos, view.hole, answer)
    assert "BTN" in opened


def test_the_depth_band_follows_the_effective_stack() -> None:
    """Up to 15 big blinds the TOML style pushes its open range all in; deeper it opens to 2.5 bb."""
    pusher = load_style(DATA / "short_stack_pusher.toml")
    assert [b.max_bb for b in pusher.bands] == [15, None] and pusher.band(15).open_size is None
    for stack, expect_all_in in ((24, True), (400, False)):
        seen: list[tuple[BotView, Answer]] = []
        game = _game(2, stack, hands=80)
        game.play({0: _watch(RangeBot(pusher), seen), 1: bots.calling_station})
        opens = [(a, _aggression(v)[1]) for v, a in seen if not v.board and _aggression(v)[0] == 0
                 and a not in ("fold", "check")]
        assert opens
        for answer, limpers in opens:
            assert answer == ("all_in" if expect_all_in else ("raise", 5 + 2 * limpers))


def test_a_weighted_combination_takes_the_action_that_share_of_the_time() -> None:
    bot = RangeBot(style({"preflop": [{"open": "random:0.5"}], "postflop": {"bet": [0, 0, 0]}}))
    seen: list[tuple[BotView, Answer]] = []
    game = _game(2, 400, hands=400)
    game.play({0: _watch(bot, seen), 1: bots.calling_station})
    heads_up_sb = [a for v, a in seen if not v.board and v.legal is not None and v.legal.call_amount]
    raised = sum(a not in ("fold", "check", "call") for a in heads_up_sb)
    assert len(heads_up_sb) > 150 and abs(raised / len(heads_up_sb) - 0.5) < 0.12


def test_positions_from_two_to_ten_players() -> None:
    seats = list(range(10))
    assert [position(seats[:2], s) for s in seats[:2]] == ["HU_BB", "HU_SB"]
    assert [position(seats[:3], s) for s in seats[:3]] == ["SB", "BB", "BTN"]
    assert [position(seats[:6], s) for s in seats[:6]] == ["SB", "BB", "UTG", "HJ", "CO", "BTN"]
    assert [position(seats[:9], s) for s in seats[:9]] == ["SB", "BB", "UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN"]
    assert position(seats, 3) == "UTG" and set(position(seats[:n], s) for n in range(2, 11)
                                               for s in seats[:n]) <= set(POSITIONS)
    with pytest.raises(ConfigError, match="seats dealt in"):
        position([1, 2], 7)


def test_a_position_left_out_plays_the_nearest_earlier_range() -> None:
    band = style({"preflop": [{"open": {"UTG": "AA", "CO": "22+", "BB": "KK"}}]}).bands[0]
    from cardgame.model.cards import parse_cards

    aces, deuces, kings = (tuple(parse_cards(h)) for h in ("AsAh", "2s2h", "KsKh"))
    assert band.weight("open", "HJ", aces) == 1 and band.weight("open", "HJ", deuces) == 0  # HJ plays UTG's
    assert band.weight("open", "BTN", deuces) == 1  # BTN plays CO's
    assert band.weight("open", "HU_SB", deuces) == 1 and band.weight("open", "HU_BB", kings) == 1
    assert band.weight("call", "BTN", aces) == 0  # no call range: never


@pytest.mark.parametrize(("data", "message"), [
    ({"name": "x", "preflop": [{"opne": "QQ+"}]}, r"Unknown key 'opne' in preflop\[0\]; the keys are max_bb"),
    ({"preflop": [{"open": {"UTG": "QQ+, AKx"}}]}, r"preflop\[0\]\.open\.UTG: .*'AKx'"),
    ({"preflop": [{"open": {"MP": "QQ+"}}]}, r"Unknown key 'MP' in preflop\[0\]\.open; the keys are UTG, UTG1"),
    ({"preflop": [{"open": "QQ+", "open_size": "lots"}]}, r"preflop\[0\]\.open_size must be a number or 'all-in'"),
    ({"preflop": [{"open": "QQ+", "commit": 2}]}, r"preflop\[0\]\.commit must be a number from 0 to 1"),
    ({"preflop": [{"max_bb": 10**5000}, {}]}, r"preflop\[0\]\.max_bb must be a number from 0 to 1e\+09"),
    ({"preflop": [{"open": "QQ+"}, {"max_bb": 10}]}, "Every preflop band but the last needs a max_bb"),
    ({"preflop": [{"max_bb": 50}, {"max_bb": 10}, {}]}, "in increasing order"),
    ({"preflop": []}, "preflop must be a list of 1 to 100 bands"),
    ({"preflop": "QQ+"}, "preflop must be a list"),
    ({"preflop": [{}], "postflop": {"bet": [0.1, 0.2]}}, r"postflop\.bet must be three chances"),
    ({"preflop": [{}], "postflop": {"call": [0, 1.5, 1]}}, r"postflop\.call\[1\] must be a number from 0 to 1"),
    ({"preflop": [{}], "postflop": {"strong": 0.5, "medium": 0.7}}, "medium .* must not be above strong"),
    ({"preflop": [{}], "postflop": {"samples": 10**30}}, r"postflop\.samples must be a whole number from 1"),
    ({"preflop": [{}], "postflop": {"raise": [0, True, 1]}}, r"postflop\.raise\[1\] must be a number"),
    ({"preflop": [{}], "postflop": {"bet_size": float("nan")}}, r"postflop\.bet_size must be a number"),
    ({"preflop": [{}], "extra": 1}, r"Unknown key 'extra' in the style"),
    ({"name": "x" * 10**6, "preflop": [{}]}, "style's name must be a non-blank string of at most 100"),
    ("open = 'AA'", "the style must be a table"),
    ({"preflop": [{"open": "Q" * 10**6}]}, "range at preflop"),
])
def test_a_bad_style_is_refused_naming_the_key_or_token(data: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        style(data)
    assert len(str(caught.value)) < 700


@pytest.mark.parametrize(("name", "message"), [
    ("bad_token.toml", r"preflop\[0\]\.open: .*'AKx'"),
    ("bad_key.toml", "Unknown key 'opne'"),
    ("not_toml.toml", "invalid TOML"),
    ("deep.toml", "nested more than 32 deep"),
    ("long_number.toml", "a number too long to read"),
    ("missing.toml", "Cannot read style file"),
])
def test_a_bad_style_file_is_refused(name: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_style(DATA / name)
    with pytest.raises(ConfigError, match=message):
        bots.get(str(DATA / name))


def test_simulate_plays_a_style_file_from_the_command_line() -> None:
    """``cardgame simulate --bots FILE.toml,...`` plays the style the file defines, in every worker."""
    path = str(DATA / "short_stack_pusher.toml")
    out = subprocess.run([sys.executable, "-m", "cardgame", "simulate", "--bots", f"{path},tight-aggressive",
                          "--hands", "60", "--seed", "2"], capture_output=True, text=True, check=True).stdout
    assert "VPIP" in out and "short_stack_pusher.toml" in out
    bad = subprocess.run([sys.executable, "-m", "cardgame", "simulate", "--bots", f"{DATA / 'bad_key.toml'},nit"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "Unknown key 'opne'" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("code", ["NT", "FT", "NS", "PO", "F7S", "F2L3D", "pineapple"])
def test_the_range_bots_play_every_kind_of_game_and_replay(code: str) -> None:
    """Outside hold'em (no two-card ranges) they play by hand strength on every street; the same seed
    replays the same hands."""
    logs = []
    for _ in range(2):
        game = _game(4, 300, seed=5, hands=8, code=code)
        game.play({s: bots.get(name) for s, name in enumerate(TARGETS)})
        assert sum(p.stack for p in game.table.players()) == 1200
        logs.append([e.describe() for e in game.events])
    assert logs[0] == logs[1] and sum(isinstance(e, ActionTaken) for e in game.events) > 20


def test_a_range_bot_refuses_what_is_not_a_style() -> None:
    with pytest.raises(ConfigError, match="A RangeBot plays a Style"):
        RangeBot({"preflop": []})  # type: ignore[arg-type]
    with pytest.raises(CardgameError, match="stack depth"):
        style({"preflop": [{}]}).band(math.nan)


def _places(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path of a style's data, down to its leaves."""
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _places(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _places(v, (*path, i))
    return out


def _planted(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _planted(data[path[0]], path[1:], value)
    return copy


_STYLE_PLACES = _places(STYLES["tight-aggressive"])


@FUZZ
@given(where=st.sampled_from(_STYLE_PLACES), value=st.one_of(HOSTILE, st.dictionaries(st.text(max_size=8), HOSTILE,
                                                                                     max_size=3)),
       extra=st.booleans())
def test_hostile_values_anywhere_in_a_style_are_refused_with_config_error(where: tuple[Any, ...], value: Any,
                                                                         extra: bool) -> None:
    """A hostile value at any place of a good style (or added under a new key there) is refused with a
    ConfigError of a short message, or, where it happens to be allowed, makes a style that plays."""
    data = STYLES["tight-aggressive"]
    planted = _planted(data, where, value)
    if extra and where and isinstance(where[-1], str):  # beside a key: an unknown one
        parent = data
        for key in where[:-1]:
            parent = parent[key]
        planted = _planted(data, where[:-1], {**parent, "no such key": value})
    try:
        made = style(planted)
    except ConfigError as exc:
        assert len(str(exc)) <= 700
        return
    game = _game(2, 200, hands=3)
    game.play({0: RangeBot(made), 1: bots.calling_station})


def test_facing_a_raise_it_reraises_calls_or_folds_by_its_ranges_and_limps_its_limp_range() -> None:
    """Heads-up against a bot that always raises the minimum: first in, every hand limps; facing a
    raise it 3-bets, calls or folds by its ranges; facing the 4-bet that follows its 3-bet it goes all
    in with its 4-bet range, calls with its call_3bet range, folds the rest."""
    def min_raiser(view: BotView) -> Answer:
        return "raise"

    ranges = {"3bet": "TT+, AK", "call": "22-99, AQ, KQ", "4bet": "QQ+", "call_3bet": "JJ"}
    bot = RangeBot(style({"preflop": [{"limp": "random", **ranges}], "postflop": {"bet": [0, 0, 0]}}))
    parsed = {action: parse_range(text) for action, text in ranges.items()}
    seen: list[tuple[BotView, Answer]] = []
    for seed in range(4):  # a game ends when the min-raiser is all in and loses
        game = _game(2, 2000, seed=seed, hands=150)
        game.play({0: _watch(bot, seen), 1: min_raiser})
    kinds: set[tuple[int, str]] = set()
    for view, answer in seen:
        if view.board:
            continue
        raises = _aggression(view)[0]
        raise_range, call_range = (parsed["3bet"], parsed["call"]) if raises == 1 else (parsed["4bet"],
                                                                                        parsed["call_3bet"])
        word = answer if isinstance(answer, str) else answer[0]
        if raises == 0:
            expected = "call"  # the button limps every hand
        elif view.hole in raise_range:
            expected = "all_in" if raises >= 3 else "raise"
        else:
            expected = "call" if view.hole in call_range else "fold"
        assert word == expected, (view.hole, raises, answer)
        kinds.add((raises, word))
    assert {(0, "call"), (1, "raise"), (1, "call"), (1, "fold"), (3, "all_in"), (3, "fold")} <= kinds
