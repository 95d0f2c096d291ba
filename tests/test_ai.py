"""The seed AI and the Monte-Carlo hand strength it stands on."""

from __future__ import annotations

import numpy as np
import pytest

import variants
from cardgame import Game
from cardgame.evaluation import ace_to_five_low, deuce_to_seven_low, evaluate_high
from cardgame.evaluation.strength import _ace_to_five, _column_sums, _deuce_to_seven, _high
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError
from cardgame.play.ai import PERSONALITIES, Personality, SeedAI, discards
from cardgame.play.bot import BotView, build_view, seat_rng
from cardgame.play.bots import random_bot
from cardgame.play.shape import GameShape, game_shape
from cardgame.play.strength import Situation, hand_strength
from cardgame.play.styles import tight_aggressive


def _shape(code: str) -> GameShape:
    v = variants.get(code)
    return game_shape(v.build(), v.deck)


def test_the_batch_rankings_agree_with_the_evaluators() -> None:
    gen = np.random.default_rng(3)
    rows = np.array([gen.permutation(52)[:7] for _ in range(2000)], dtype=np.intp)
    rows = np.concatenate([rows, np.array([parse_cards("Ah 2c 3d 4s 5h 9c 9d"), parse_cards("Ah 2h 3h 4h 5h Kc Kd")])])
    for n in (5, 7):
        keys, masks = _column_sums(rows[:, :n])
        assert _high(keys, masks, n).tolist() == [evaluate_high(r) for r in rows[:, :n].tolist()]
        assert _ace_to_five(keys, masks, n).tolist() == [ace_to_five_low(r) for r in rows[:, :n].tolist()]
    keys, masks = _column_sums(rows[:, :5])
    assert _deuce_to_seven(keys, masks, 5).tolist() == [deuce_to_seven_low(r) for r in rows[:, :5].tolist()]


def test_hand_strength_matches_known_equities() -> None:
    nt, gen = _shape("NT"), np.random.default_rng(1)
    aces = Situation(parse_cards("AhAs"), 2, (), 5, ((),), 2)
    assert hand_strength(nt, aces, gen, samples=8000, drop_weak=False) == pytest.approx(0.852, abs=0.015)
    nuts = Situation(parse_cards("AhKh"), 2, parse_cards("QhJhTh 2c 3d"), 5, ((), ()), 2)
    assert hand_strength(nt, nuts, gen, samples=500) == 1.0
    # the seed's drop-out: weak opponents with nothing in the pot fold, so 7-2 wins far more often
    junk = Situation(parse_cards("7h2s"), 2, (), 5, ((), ()), 2, (True, True))
    stays = hand_strength(nt, junk, gen, samples=4000, drop_weak=False)
    drops = hand_strength(nt, junk, gen, samples=4000)
    assert stays < 0.25 < 0.8 < drops
    # razz: A-2-3 showing low against a king and a nine
    razz = Situation(parse_cards("Ah 2d 3c"), 7, (), 0, (parse_cards("Kc"), parse_cards("9d")), 7)
    assert hand_strength(_shape("FR"), razz, gen, samples=2000) > 0.6


def test_hand_strength_is_seeded() -> None:
    shape = _shape("F7S")
    where = Situation(parse_cards("Ah Kh Qs"), 7, (), 0, (parse_cards("2c"), parse_cards("9d")), 7)
    a = hand_strength(shape, where, np.random.default_rng(7), samples=300)
    assert a == hand_strength(shape, where, np.random.default_rng(7), samples=300)


def _view(code: str, seed: int = 2) -> tuple[Game, BotView]:
    v = variants.get(code)
    game = Game(v.build(), seats=3, seed=seed, deck=v.deck, keep_hands=None)
    for i in range(3):
        game.sit_down(f"p{i}", 200)
    game.start()
    legal = game.legal_actions()
    assert legal is not None and game.to_act is not None
    return game, build_view(game, game.to_act, game_shape(game.dispatcher.stages, v.deck), seat_rng(game, game.to_act),
                            legal=legal)


def test_the_fold_call_raise_table_and_stack_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    _, view = _view("NT")
    assert view.legal is not None and view.to_call == 2  # under the gun, facing the big blind: pot 3
    strengths = iter([0.05, 0.9])
    monkeypatch.setattr("cardgame.play.ai.strength", lambda *a, **k: next(strengths))
    always = Personality(table=((1.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))
    bot = SeedAI(always)
    assert bot.act(view) == "fold"  # RR = 0.05 / (2 / 5) < 0.8
    answer = bot.act(view)  # RR = 0.9 / 0.4 >= 1.3: raise by 0.75 of the pot after calling
    assert answer == ("raise", 2 + 2 + round(0.75 * 5))
    # stack protection: a raise that leaves under four big blinds needs HS >= 0.5
    short = Personality(table=always.table, protect_blinds=200)
    monkeypatch.setattr("cardgame.play.ai.strength", lambda *a, **k: 0.45)
    assert SeedAI(short).act(view) == "fold"


def test_personalities_are_checked() -> None:
    assert set(PERSONALITIES) >= {"balanced", "tight", "loose", "maniac"}
    with pytest.raises(ConfigError, match="adding up to 1"):
        Personality(table=((0.5, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)))
    with pytest.raises(ConfigError, match="increasing thresholds"):
        Personality(thresholds=(1.0, 0.5, 2.0))
    with pytest.raises(ConfigError, match="Unknown personality 'shy'"):
        SeedAI.personality_named("shy")


def test_discards_by_rule_of_thumb() -> None:
    _, view = _view("F2L3D")
    import attrs

    low = attrs.evolve(view, hole=parse_cards("2c 3d 7h Ks Kd"))
    assert set(discards(low)) == set(parse_cards("Ks Kd"))
    straight = attrs.evolve(view, hole=parse_cards("4c 5d 6h 7s 8d"))
    assert discards(straight) == parse_cards("8d")
    _, view = _view("five-card draw")
    pair = attrs.evolve(view, hole=parse_cards("9c 9d 2h 5s Kd"))
    assert set(discards(pair)) == set(parse_cards("2h 5s Kd"))


@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D", "PO", "F7S/8"])
def test_the_seed_ai_plays_and_replays_exactly(code: str) -> None:
    logs = []
    for _ in range(2):
        v = variants.get(code)
        game = Game(v.build(), seats=3, seed=11, max_hands=12, deck=v.deck, keep_hands=None)
        for i in range(3):
            game.sit_down(f"p{i}", 200)
        game.start()
        game.play({0: SeedAI(), 1: random_bot, 2: tight_aggressive()})
        logs.append([e.describe() for e in game.events])
    assert logs[0] == logs[1] and len(logs[0]) > 50


def test_hand_strength_refuses_more_deals_than_it_may_draw() -> None:
    """Deals are drawn block by block, so a huge ``samples`` would run for ever: it is refused at once."""
    where = Situation(parse_cards("AhAs"), 2, (), 5, ((),), 2)
    for samples in (10**30, 100_000_001, 0, True):
        with pytest.raises(ConfigError, match="samples"):
            hand_strength(_shape("NT"), where, np.random.default_rng(1), samples=samples)


def test_hand_strength_refuses_a_drop_share_outside_zero_to_one() -> None:
    """The shared hand strength checks its own options (numpy raised ValueError for 1.5 before)."""
    import numpy as np

    from cardgame.evaluation.strength import HOLDEM, Situation, hand_strength
    from cardgame.model.cards import parse_cards

    where = Situation(tuple(parse_cards("AsAd")), 2, (), 5, ((),), 2)
    for bad in (1.5, -0.1, float("nan"), True, "half"):
        with pytest.raises(ConfigError, match="drop_share"):
            hand_strength(HOLDEM, where, np.random.default_rng(1), drop_share=bad)  # type: ignore[arg-type]
