"""A bomb pot: a new stage and a new variant, built from the library's parts.

In a bomb pot everyone puts the same amount into the pot before the cards are dealt, and the
first betting round is on the flop: there is no pre-flop betting. The new stage, ``BombPot``,
posts those antes; the variant ``bomb_pot_holdem`` is hold'em with ``BombPot`` in place of the
blinds and without the pre-flop betting round.

Run: python examples/bomb_pot.py
"""

from __future__ import annotations

from typing import Any, ClassVar

from cardgame import Game, NoLimit
from cardgame.bots import random_bot
from cardgame.errors import ConfigError
from cardgame.evaluation import HIGH
from cardgame.events import ForcedBetPosted
from cardgame.stages import (
    BettingRound,
    DealBoard,
    DealHole,
    EndHand,
    ForcedBetsResult,
    HandOpened,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import PokerStage
from variants import registry

__all__ = ["BombPot", "bomb_pot_holdem", "register_bomb_pot"]

VARIANT_NAME = "bomb pot hold'em"


class BombPot(PokerStage):
    """Every player in the hand antes ``amount`` as dead money; a player short of it posts what
    they have and is all-in. Logs one :class:`~cardgame.events.ForcedBetPosted` (bet
    ``"bomb pot"``) per post.

    Hands on a :class:`ForcedBetsResult` with no blinds, the posts as its ``antes`` and no opener:
    the betting round that follows starts left of the button, as after antes without blinds.
    """

    name: ClassVar[str] = "bomb pot"
    states: ClassVar[list[str]] = ["ready", "pot_built", "no_bomb_pot"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "pot_built", "conditions": "two_players_dealt_in",
         "before": "everyone_antes", "after": "hand_on"},
        {"trigger": "begin", "source": "ready", "dest": "no_bomb_pot", "after": "no_bomb_pot"},
    ]
    takes: ClassVar[tuple[type, ...]] = (HandOpened,)
    gives: ClassVar[tuple[type, ...]] = (ForcedBetsResult,)
    __slots__ = ("_posts", "amount")

    def __init__(self, amount: object) -> None:  # object: checked here
        super().__init__()
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise ConfigError(f"A bomb pot must be a positive whole number of chips, not {amount!r}.")
        self.amount = amount
        self._posts: list[tuple[int, int]] = []

    # --- conditions and callbacks ---------------------------------------------------------------
    def two_players_dealt_in(self) -> bool:
        """A pot needs at least two players."""
        hand = self.ctx.hand
        assert hand is not None, "a bomb pot is posted inside a hand"
        return len(hand.players) >= 2

    def everyone_antes(self) -> None:
        """Each player with chips posts ``amount``, or all they have, as dead money (an ante)."""
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None
        self._posts = posts = []
        for hp in hand.blind_order():  # antes are posted in blind order, as ForcedBets posts them
            if hp.folded or hp.all_in:
                continue
            paid = hp.put_dead(min(self.amount, hp.player.stack))  # counts as the player's contribution
            ctx.emit(ForcedBetPosted(hp.seat, "bomb pot", paid, hp.all_in))
            posts.append((hp.seat, paid))

    def hand_on(self) -> None:
        """No live blind: nothing to call, and the first betting round starts left of the button."""
        hand = self.ctx.hand
        assert hand is not None
        posts, self._posts = tuple(self._posts), []
        self.finish(ForcedBetsResult(hand.button, blinds=(), antes=posts, opener=None))

    def no_bomb_pot(self) -> None:
        self.fail("a bomb pot needs at least two players in the hand")


def bomb_pot_holdem(amount: int = 10, big_blind: int = 2) -> list[PokerStage]:
    """No-limit hold'em where every hand is a bomb pot of ``amount``: no blinds and no pre-flop
    betting; betting starts on the flop with a minimum bet of ``big_blind``."""
    betting = NoLimit(big_blind)
    return [
        WaitForPlayers(2),
        BombPot(amount),
        DealHole(2),
        DealBoard(3, "flop"),  # passes on the bomb pot's result to the first betting round
        BettingRound(betting, 1),  # street 1: the flop (street 0 would be pre-flop)
        DealBoard(1, "turn"),
        BettingRound(betting, 2),
        DealBoard(1, "river"),
        BettingRound(betting, 3),
        Showdown(HIGH),
        EndHand(),
    ]


def register_bomb_pot() -> registry.Variant:
    """Register the variant under ``"bomb pot hold'em"`` once (a second call returns it)."""
    if any(v.name == VARIANT_NAME for v in registry.available()):
        return registry.get(VARIANT_NAME)
    return registry.register(
        registry.Variant(VARIANT_NAME, None, bomb_pot_holdem, "No-limit hold'em, every hand a bomb pot", 10)
    )


def main() -> None:
    variant = register_bomb_pot()
    game = Game(variant.build(amount=10, big_blind=2), seed=7, max_hands=3)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        game.sit_down(name, 100 if name != "Dan" else 6)  # Dan is short: all-in on the bomb pot
    names = game.names()
    game.subscribe(lambda event: print(event.describe(names)))
    game.start()
    game.play(random_bot)
    print(game.status())


if __name__ == "__main__":
    main()
