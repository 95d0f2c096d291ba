"""Property: under the dead-button rule, random hands with players sitting out and in, joining and leaving
conserve chips, and every player posts the big blind exactly once per orbit in which they play (Robert's
Rules of Poker, buttons and blinds, rule 2: "each round every player must ... meet the total amount of the
blind obligations"; TDA, button in heads-up: nobody has the big blind twice in a row)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variants
from cardgame.model.errors import CardgameError
from cardgame.model.events import ChipsAdded, ForcedBetPosted, HandStarted, PlayerLeft, PlayerSeated
from cardgame.play.game import Game

#: The dead button on each family of blind games (with show or muck on some): hold'em, a draw game, short deck
#: with blinds, Pineapple (a discard), and the big-blind ante posted by the big blind wherever the rule puts it.
BUILDERS = {
    "NT": lambda new_player: variants.no_limit_holdem(1, 2, button="dead", new_player=new_player),
    "FB": lambda new_player: variants.badugi(2, 4, button="dead", new_player=new_player, show_or_muck=True),
    "NS": lambda new_player: variants.short_deck_holdem(0, 0, blinds=(1, 2), button="dead", new_player=new_player),
    "pineapple": lambda new_player: variants.pineapple(1, 2, button="dead", new_player=new_player,
                                                       show_or_muck=True),
    "NT big-blind ante": lambda new_player: variants.no_limit_holdem(1, 2, ante=2, big_blind_ante=True, button="dead",
                                                                     new_player=new_player, entry_ante=True),
}


def play(seed: int, new_player: str, steps: int, game_name: str = "NT") -> Game:
    rnd = random.Random(seed)
    game = Game(BUILDERS[game_name](new_player), seats=6, seed=seed, keep_hands=None)
    for s in range(rnd.randint(2, 6)):
        game.sit_down(f"p{s}", rnd.randint(3, 60), s)
    game.start()
    joined = 0
    for _ in range(steps):
        seat = game.to_act
        if seat is not None and (draw := game.draw_options()) is not None:
            game.draw(seat, draw.hole[:draw.min_discards])
        elif seat is not None and (show := game.show_options()) is not None:
            game.show(seat) if show.default == "show" or not game.can_muck(seat) else game.muck(seat)
        elif seat is not None:
            choices = [a for a in ("fold", "check", "call") if game.may(seat, a)]
            if game.may(seat, "all_in") and rnd.random() < 0.1:
                choices.append("all_in")
            game.act(seat, rnd.choice(choices))
        r = rnd.random()
        target = rnd.randrange(6)
        try:
            if r < 0.03:
                game.sit_out(target)
            elif r < 0.09:
                game.sit_in(target)
            elif r < 0.1:
                game.leave(target)
            elif r < 0.12:
                joined += 1
                game.sit_down(f"n{joined}", rnd.randint(3, 60))
            elif r < 0.14:
                game.top_up(target, rnd.randint(1, 40))
        except CardgameError:
            pass
        seated = sum(e.stack for e in game.events if isinstance(e, PlayerSeated))
        seated += sum(e.amount for e in game.events if isinstance(e, ChipsAdded))
        gone = sum(e.cashed_out for e in game.events if isinstance(e, PlayerLeft))
        assert game.ctx.total_chips() + gone == seated  # chips conserved, dead blinds included
        if game.status_name != "running":
            break
    return game


def big_blinds_by_orbit(game: Game) -> None:
    """Between two big blinds of one player, every player dealt in every hand from the one to the other
    (the first included) posted the big blind exactly once."""
    hands: list[tuple[tuple[str, ...], str | None]] = []  # (names dealt in, who posted the big blind)
    names: dict[int, str] = {}
    for e in game.events:
        if isinstance(e, PlayerSeated):
            names[e.seat] = e.name
        elif isinstance(e, HandStarted):
            hands.append((tuple(names[s] for s in e.seats), None))
        elif isinstance(e, ForcedBetPosted) and e.bet == "big blind":
            dealt, _ = hands[-1]
            hands[-1] = (dealt, names[e.seat])
    for i, (_, p) in enumerate(hands):
        j = next((k for k in range(i + 1, len(hands)) if hands[k][1] == p), None)
        if p is None or j is None:
            continue
        steady = set.intersection(*(set(d) for d, _ in hands[i:j + 1]))
        if p not in steady:
            continue
        for q in steady:
            count = sum(1 for _, b in hands[i:j] if b == q)
            assert count == 1, (p, q, i, j, hands[i:j + 1])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), new_player=st.sampled_from(["post", "wait"]),
       game_name=st.sampled_from(sorted(BUILDERS)))
def test_dead_button_conserves_chips_and_every_player_posts_the_big_blind_once_an_orbit(
    seed: int, new_player: str, game_name: str
) -> None:
    game = play(seed, new_player, 600, game_name)
    big_blinds_by_orbit(game)
