"""Observation encoders (cardgame.rl.observe): shapes and bounds, no leak of hidden cards, every
variant through a hand, and RLCard's own vectors for the same hands."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import variants
from cardgame import Game
from cardgame.evaluation.small_games import LEDUC
from cardgame.model.betting import FixedLimit
from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import HoleCardsDealt
from cardgame.play.bots import random_bot
from cardgame.rl.env import raw_env
from cardgame.rl.observe import ENCODERS, Encoder, Planes, RLCardEncoding, encoder
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.research import LEDUC_DECK

VARIANTS = [v.name for v in variants.available()]


def seated(variant: str, players: int, *, seed: int = 1, stack: int = 200, **kwargs: object) -> Game:
    game = Game(variants.get(variant), seats=players, seed=seed, max_hands=1, **kwargs)  # type: ignore[arg-type]
    for i in range(players):
        game.sit_down(f"p{i}", stack)
    return game


def step(game: Game) -> None:
    """One decision by the random bot."""
    game.play(random_bot, max_actions=1)


def check_all(enc: Encoder, game: Game) -> None:
    for seat in range(game.table.seat_count):
        obs = enc.encode(game, seat)
        assert obs.dtype == np.float32 and obs.shape == enc.space.shape
        assert enc.space.contains(obs), (seat, np.flatnonzero((obs < enc.space.low) | (obs > enc.space.high)))


# --- shapes, bounds, every variant ---------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["planes", "infostate"])
@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_encodes_through_a_hand(name: str, encoding: str) -> None:
    v = variants.get(name)
    players = min(v.max_players, 4)
    game = seated(name, players, seed=5)
    enc = encoder(encoding, game)
    check_all(enc, game)  # before the first hand
    game.start()
    decisions = 0
    while game.to_act is not None:
        check_all(enc, game)
        step(game)
        decisions += 1
    check_all(enc, game)  # the hand over
    assert decisions > 0
    blocks = enc.blocks  # type: ignore[attr-defined]
    assert blocks[0].start == 0 and blocks[-1].stop == enc.space.shape[0]
    assert all(a.stop == b.start for a, b in itertools.pairwise(blocks))


@pytest.mark.parametrize("players", [2, 3, 6, 9, 10])
def test_planes_any_table_size(players: int) -> None:
    game = seated("NT", players, seed=players)
    enc = encoder("planes", game)
    game.start()
    for _ in range(6):
        if game.to_act is None:
            break
        check_all(enc, game)
        step(game)


def test_planes_layout_of_a_hand() -> None:
    """Ann (seat 0) raises to 6 over the blinds; Bob (seat 1, big blind) observes: the values are
    where docs/rl.md says, rotated so the observer comes first."""
    game = Game(variants.get("NT"), seats=3, seed=2, first_button=2)  # seat 0 small blind, 1 big blind, 2 button
    for name in ("Ann", "Bob", "Cat"):
        game.sit_down(name, 100)
    game.ctx.stack_deck("As Kd 2c 2d 7h 8h")  # Ann AsKd, Bob 2c2d, Cat 7h8h
    game.start()
    game.raise_to(2, 6)  # Cat (button, first to act three-handed) raises
    enc = encoder("planes", game, stack=100)
    assert isinstance(enc, Planes)
    obs = enc.encode(game, 1)  # Bob's view
    d = len(enc.shape.deck)
    hole = obs[enc.block("hole")]
    assert hole.shape == (d,) and {int(i) for i in np.flatnonzero(hole)} == {Card("2c"), Card("2d")}
    assert not obs[enc.block("board")].any()
    assert obs[enc.block("street")].tolist() == [1, 0, 0, 0]
    assert obs[enc.block("pot")][0] == pytest.approx(9 / 100)
    assert obs[enc.block("to_call")][0] == pytest.approx(4 / 100)
    assert obs[enc.block("position")].tolist() == [0, 1, 0]  # second left of the button
    seats = obs[enc.block("seats")].reshape(3, 9)  # Bob, Cat, Ann
    assert seats[0].tolist() == pytest.approx([1, 1, 98 / 100, 2 / 100, 2 / 100, 0, 0, 0, 0])
    assert seats[1].tolist() == pytest.approx([1, 1, 94 / 100, 6 / 100, 6 / 100, 0, 0, 1, 0])  # Cat: button
    assert seats[2].tolist() == pytest.approx([1, 1, 99 / 100, 1 / 100, 1 / 100, 0, 0, 0, 1])  # Ann acts next
    history = obs[enc.block("history")].reshape(4, 3, 5)
    assert history[0, 1].tolist() == pytest.approx([1 / 4, 0, 0, 6 / 100, 0])  # Cat's raise
    assert history[0, 0].tolist() == pytest.approx([0, 0, 0, 2 / 100, 0])  # Bob's blind
    assert not history[1:].any()


@pytest.mark.parametrize(("name", "players", "size"), [
    ("NT", 2, 170), ("NT", 6, 290), ("NT", 10, 410), ("F7S", 8, 807), ("F2L3D", 6, 312), ("pineapple", 6, 348),
    ("leduc hold'em", 2, 56), ("kuhn poker", 3, 52)])
def test_sizes_docs_rl_md_gives(name: str, players: int, size: int) -> None:
    assert encoder("planes", Game(variants.get(name), seats=players)).space.shape == (size,)


def test_no_limit_six_max_layout_docs_rl_md_gives() -> None:
    enc = encoder("planes", Game(variants.get("NT"), seats=6))
    assert isinstance(enc, Planes)
    assert [(b.name, b.start, b.stop - 1) for b in enc.blocks] == [
        ("hole", 0, 51), ("board", 52, 103), ("street", 104, 107), ("pot", 108, 108), ("to_call", 109, 109),
        ("position", 110, 115), ("seats", 116, 169), ("history", 170, 289)]


def test_draw_and_stud_blocks() -> None:
    game = seated("F2L3D", 3, seed=4)
    enc = encoder("planes", game)
    assert isinstance(enc, Planes)
    names = [b.name for b in enc.blocks]
    assert {"discarded", "draws_left", "draw_history"} <= set(names)
    assert "up_cards" not in names and "board" not in names  # no face-up cards, no board
    game.start()
    assert enc.encode(game, 0)[enc.block("draws_left")].tolist() == [0, 0, 0, 1]
    while game.draw_options() is None:
        assert game.to_act is not None
        game.act(game.to_act, "check_call")
    drawer = game.to_act
    assert drawer is not None
    thrown = list(game.draw_options().hole[:2])  # type: ignore[union-attr]
    game.draw(drawer, thrown)
    mine = enc.encode(game, drawer)
    assert {int(i) for i in np.flatnonzero(mine[enc.block("discarded")])} == {int(c) for c in thrown}
    assert mine[enc.block("draw_history")].reshape(3, 3)[0, 0] == pytest.approx(2 / 5)
    other = (drawer + 1) % 3
    theirs = enc.encode(game, other)
    assert not theirs[enc.block("discarded")].any()  # another's discards are not seen, their count is
    assert theirs[enc.block("draw_history")].reshape(3, 3)[0, (drawer - other) % 3] == pytest.approx(2 / 5)

    stud = seated("F7S", 3, seed=4)
    enc = encoder("planes", stud)
    assert isinstance(enc, Planes)
    stud.start()
    obs = enc.encode(stud, 0)
    d = len(enc.shape.deck)
    assert obs[enc.block("hole")].sum() == 3 and obs[enc.block("hole_up")].sum() == 1
    up = obs[enc.block("up_cards")].reshape(2, d)
    assert up.sum(axis=1).tolist() == [1, 1]  # each other seat's door card
    for rel in (1, 2):
        card = stud.hand.by_seat[rel].hole[2]
        assert up[rel - 1, card] == 1


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(2, 10), st.integers(0, 10**6), st.integers(0, 40),
       st.integers(1, 400))
def test_observations_stay_in_bounds(name: str, players: int, seed: int, actions: int, stack: int) -> None:
    v = variants.get(name)
    players = min(players, v.max_players)
    game = Game(v, seats=players, seed=seed, max_hands=3)
    rng = random.Random(seed)
    for i in range(players):
        game.sit_down(f"p{i}", rng.randint(1, 3) * stack)
    enc = encoder("planes", game, stack=stack)
    game.start()
    for _ in range(actions):
        if game.to_act is None:
            break
        step(game)
    check_all(enc, game)


def test_out_buffer_is_filled_and_returned() -> None:
    game = seated("NT", 6)
    enc = encoder("planes", game)
    game.start()
    buffer = np.full(enc.space.shape, 7.0, np.float32)
    assert enc.encode(game, 3, out=buffer) is buffer
    assert np.array_equal(buffer, enc.encode(game, 3))
    with pytest.raises(ConfigError, match="float32 array of shape"):
        enc.encode(game, 3, out=np.zeros(3, np.float32))
    for name in ENCODERS:
        other = encoder(name, game)
        frozen = np.zeros(other.space.shape, np.float32)
        frozen.flags.writeable = False
        with pytest.raises(ConfigError, match="writeable float32 array"):
            other.encode(game, 3, out=frozen)
        column = np.zeros((other.space.shape[0], 2), np.float32)[:, 1]  # a strided view is written in place
        assert np.array_equal(other.encode(game, 3, out=column), other.encode(game, 3))
    mask = np.zeros(5, np.int8)
    mask.flags.writeable = False
    actions = raw_env("NT", 6).actions
    with pytest.raises(ConfigError, match="writeable int8 array"):
        actions.mask(game, out=mask)
    row = np.full((2, actions.n), 7, np.int8)[1]
    assert actions.mask(game, out=row) is row and np.array_equal(row, actions.mask(game))


def test_bad_arguments_are_refused() -> None:
    game = seated("NT", 6)
    with pytest.raises(ConfigError, match="encodings are planes, rlcard, infostate"):
        encoder("pixels", game)
    with pytest.raises(ConfigError, match="options are stack, max_raises"):
        encoder("planes", game, depth=3)
    with pytest.raises(ConfigError, match=r"stack .* must be a whole number of at least 1"):
        encoder("planes", game, stack=0)
    with pytest.raises(ConfigError, match="a Game"):
        encoder("planes", "NT")  # type: ignore[arg-type]
    enc = encoder("planes", game)
    with pytest.raises(ConfigError, match="0 to 5"):
        enc.encode(game, 6)
    with pytest.raises(ConfigError, match="table of 6 seats"):
        enc.encode(seated("NT", 3), 0)
    for name in ("PO", "F7S", "NS", "kuhn poker", "pineapple", "F2L3D"):
        with pytest.raises(ConfigError, match=r"no-limit hold'em \(NT, 54 values\), fixed-limit hold'em"):
            encoder("rlcard", seated(name, 2))
    with pytest.raises(ConfigError, match="max_chips"):
        encoder("rlcard", seated("FT", 2), max_chips=10)
    assert set(ENCODERS) == {"planes", "rlcard", "infostate"}


# --- nothing hidden leaks --------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["planes", "infostate"])
@pytest.mark.parametrize("name", VARIANTS)
def test_an_opponents_hidden_cards_never_change_the_observation(name: str, encoding: str) -> None:
    """Two games dealt the same cards but for seat 1's face-down ones, played the same way:
    seat 0's observations are equal at every decision before the showdown (seat 1's are not)."""
    v = variants.get(name)
    cards = list(v.deck.cards)
    random.Random(name).shuffle(cards)
    first = Game(v, seats=2, seed=9, max_hands=1, first_button=1)
    for i in range(2):
        first.sit_down(f"p{i}", 100)
    first.ctx.stack_deck(cards)
    first.start()
    hidden = [c for e in first.events if isinstance(e, HoleCardsDealt) and e.seat == 1
              for c, up in zip(e.cards, e.face_up, strict=True) if not up and c is not None]
    spare = cards[-len(hidden):]  # the bottom of the deck: never dealt in a short hand
    assert hidden and not set(hidden) & set(spare)
    other = list(cards)
    for a, b in zip(hidden, spare, strict=True):
        i, j = other.index(a), other.index(b)
        other[i], other[j] = other[j], other[i]
    second = Game(v, seats=2, seed=9, max_hands=1, first_button=1)
    for i in range(2):
        second.sit_down(f"p{i}", 100)
    second.ctx.stack_deck(other)
    second.start()
    one, two = encoder(encoding, first), encoder(encoding, second)
    compared = 0
    while first.to_act is not None and first.hand is not None:
        assert second.to_act == first.to_act
        assert set(spare) <= set(first.hand.deck.remaining)
        assert np.array_equal(one.encode(first, 0), two.encode(second, 0))
        assert not np.array_equal(one.encode(first, 1), two.encode(second, 1))
        compared += 1
        step(first)
        step(second)
    assert compared


# --- RLCard's own vectors --------------------------------------------------------------------------

RLCARD_SUIT = {"S": "s", "H": "h", "D": "d", "C": "c"}


def ours(card: object) -> Card:
    """An RLCard card as ours."""
    return Card(card.rank + RLCARD_SUIT[card.suit])  # type: ignore[attr-defined]


def leduc_with_blinds() -> list[PokerStage]:
    """Leduc hold'em as RLCard deals it: blinds 1 and 2 (ours antes 1 each), two raises a round after them."""
    bet = FixedLimit(2, 4, cap=2, big_from=1, heads_up_uncapped=False, cap_counts_blind=False)
    return [WaitForPlayers(2, max_players=2, deck=LEDUC_DECK), ForcedBets((1, 2)), DealHole(1),
            BettingRound(bet, 0, "first round"), DealBoard(1, "board", burn=False),
            BettingRound(bet, 1, "second round"), Showdown(LEDUC), EndHand()]


def drive(env: object, game: Game, enc: Encoder, rng: random.Random,
          translate: Callable[[object, Game, int], None]) -> tuple[int, int]:
    """Play one hand in RLCard's game and ours with the same random actions, comparing every seat's
    vector at every decision while both are in the same state: the same seat to act, the same board.
    Returns (comparisons, board cards seen at the last).

    The games part where RLCard's rules differ from the rule books: heads-up no-limit, RLCard's
    small blind acts first after the flop; in fixed-limit, the player after the one who closed a
    round opens the next, and a round with a fold in it waits for one check too many."""
    g = env.game  # type: ignore[attr-defined]
    compared = board = 0
    while (not g.is_over() and game.to_act is not None and game.to_act == g.game_pointer
           and len(game.hand.board) == len(public(g))):
        for seat in range(g.num_players):
            theirs = env._extract_state(g.get_state(seat))["obs"].astype(np.float32)  # type: ignore[attr-defined]
            assert np.array_equal(enc.encode(game, seat), theirs), (seat, game.events_for(seat))
            compared += 1
        board = len(game.hand.board)
        actions = list(g.get_legal_actions())
        rng.shuffle(actions)
        for action in actions:
            pointer = g.game_pointer
            g.step(action)
            try:
                translate(action, game, pointer)
            except IllegalActionError:  # ours does not allow it (a raise below the minimum): another
                g.step_back()
                continue
            break
        else:
            pytest.fail("no action both games allow")
    return compared, board


def public(g: object) -> list[object]:
    """RLCard's board (Leduc's one card is ``public_card``)."""
    if hasattr(g, "public_cards"):
        return list(g.public_cards)
    card = g.public_card  # type: ignore[attr-defined]
    return [] if card is None else [card]


def nolimit_action(g: object) -> Callable[[object, Game, int], None]:
    """Ours of an action RLCard's game ``g`` just took."""

    def translate(action: object, game: Game, seat: int) -> None:
        name = action.name  # type: ignore[attr-defined]
        if name == "FOLD":
            game.fold(seat)
        elif name == "CHECK_CALL":
            game.act(seat, "check_call")
        elif name == "ALL_IN":
            game.all_in(seat)
        else:  # a pot or half-pot raise: to the street total RLCard made it (a raise never ends the round)
            game.act(seat, "bet_raise", int(g.round.raised[seat]))  # type: ignore[attr-defined]

    return translate


def limit_action(action: object, game: Game, seat: int) -> None:
    if action == "fold":
        game.fold(seat)
    elif action in ("check", "call"):
        game.act(seat, "check_call")
    else:
        legal = game.legal_actions()
        assert legal is not None
        game.act(seat, "bet_raise", legal.min_raise_to)


@pytest.mark.parametrize("players", [2, 3])
def test_rlcard_no_limit_holdem_54(players: int) -> None:
    rlcard = pytest.importorskip("rlcard")
    env = rlcard.make("no-limit-holdem", config={"game_num_players": players, "seed": players,
                                                  "allow_step_back": True})
    rng = random.Random(players)
    total = deepest = 0
    for hand in range(30):
        env.game.dealer_id = hand % players
        env.reset()
        g = env.game
        dealer = g.dealer_id
        button = (dealer + 1) % 2 if players == 2 else dealer  # RLCard's heads-up dealer posts the big blind
        game = _holdem_like(g, "NT", players, hand, button, 100)
        enc = encoder("rlcard", game)
        assert enc.space.shape == (54,)
        compared, board_seen = drive(env, game, enc, rng, nolimit_action(g))
        total += compared
        deepest = max(deepest, board_seen)
    assert total >= 100
    assert deepest >= (3 if players > 2 else 0)  # heads-up, RLCard's small blind acts first after the flop


def _holdem_like(g: Any, code: str, players: int, seed: int, button: int, stack: int) -> Game:
    """Our game of ``code`` started on RLCard's hand ``g``: the same button, hole cards and board
    (RLCard's deck, burn cards included, in our dealing order)."""
    game = Game(variants.get(code), seats=players, seed=seed, max_hands=1, first_button=button)
    for i in range(players):
        game.sit_down(f"p{i}", stack)
    order = [(button + 1 + i) % players for i in range(players)]
    board = [ours(c) for c in reversed(g.dealer.deck[-5:])]
    burn = [ours(c) for c in g.dealer.deck[:3]]
    game.ctx.stack_deck([c for s in order for c in map(ours, g.players[s].hand)]
                        + [burn[0], *board[:3], burn[1], board[3], burn[2], board[4]])
    game.start()
    return game


@pytest.mark.parametrize("players", [2, 3])
def test_rlcard_limit_holdem_72(players: int) -> None:
    rlcard = pytest.importorskip("rlcard")
    env = rlcard.make("limit-holdem", config={"game_num_players": players, "seed": players, "allow_step_back": True})
    rng = random.Random(players)
    total = deepest = 0
    for hand in range(30):
        env.reset()
        g = env.game
        small = next(i for i, p in enumerate(g.players) if p.in_chips == 1)
        button = small if players == 2 else (small - 1) % players
        game = _holdem_like(g, "FT", players, hand, button, 1000)
        enc = encoder("rlcard", game)
        assert enc.space.shape == (72,)
        compared, board_seen = drive(env, game, enc, rng, limit_action)
        total += compared
        deepest = max(deepest, board_seen)
    assert total >= 100
    assert deepest >= 3


def test_rlcard_leduc_36() -> None:
    rlcard = pytest.importorskip("rlcard")
    env = rlcard.make("leduc-holdem", config={"seed": 3, "allow_step_back": True})
    rng = random.Random(3)
    total = deepest = 0
    for hand in range(40):
        env.reset()
        g = env.game
        small = next(i for i, p in enumerate(g.players) if p.in_chips == 1)
        game = Game(leduc_with_blinds(), seats=2, seed=hand, max_hands=1, first_button=small, deck=LEDUC_DECK)
        for i in range(2):
            game.sit_down(f"p{i}", 100)
        order = [1 - small, small]
        game.ctx.stack_deck([ours(g.players[s].hand) for s in order] + [ours(g.dealer.deck[-1])])
        game.start()
        enc = encoder("rlcard", game)
        assert isinstance(enc, RLCardEncoding) and enc.kind == "leduc hold'em" and enc.space.shape == (36,)
        compared, board_seen = drive(env, game, enc, rng, limit_action)
        total += compared
        deepest = max(deepest, board_seen)
    assert total >= 100 and deepest == 1
    # the registered Leduc (antes) encodes the same way
    leduc = seated("leduc hold'em", 2)
    enc = encoder("rlcard", leduc)
    leduc.start()
    obs = enc.encode(leduc, 0)
    assert obs[:3].sum() == 1 and not obs[3:6].any() and obs[6 + 1] == 1 and obs[21 + 1] == 1


@pytest.mark.parametrize(("name", "keep_hands"), [("NT", 1), ("F2L3D", 1), ("F7S", None), ("leduc hold'em", None)])
def test_planes_reads_only_new_events_and_equals_a_full_reading(name: str, keep_hands: int | None) -> None:
    # Planes keeps each seat's reading of the hand's history and reads only the events logged since;
    # through copies of the game that go other ways, new hands and games (and games keeping
    # every hand's events), its vectors are a fresh encoder's (which reads the hand from its start).
    v = variants.get(name)
    players = min(v.max_players, 3)
    game = Game(v, seats=players, seed=3, max_hands=3, keep_hands=keep_hands)  # type: ignore[arg-type]
    for i in range(players):
        game.sit_down(f"p{i}", 60)
    warm = encoder("planes", game, stack=60)
    game.start()
    rng = random.Random(4)
    twins: list[Game] = []
    while game.to_act is not None:
        for g in (game, *twins[-2:]):
            for seat in range(players):
                cold = Planes(g, stack=60)
                assert (warm.encode(g, seat) == cold.encode(g, seat)).all(), (name, seat, len(g.ctx.log))
        if rng.random() < 0.3:
            twin = game.copy()
            if twin.to_act is not None:
                twin.play(random_bot, max_actions=1)  # the copy goes its own way
            twins.append(twin)
        step(game)
