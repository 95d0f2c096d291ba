"""A bomb pot, built from the library's parts: no new stage needed.

In a bomb pot everyone puts the same amount into the pot before the cards are dealt, and the
first betting round is on the flop: there is no pre-flop betting. That is an antes-only
``ForcedBets`` (no blinds, every player antes ``amount``) and hold'em's streets without the
pre-flop betting round (``community_streets(..., first_betting=False)``). Betting then starts
left of the button, as after antes without blinds.

The library's hold'em and Omaha variants take the same option, ``no_limit_holdem(bomb_pot=10)``;
this example puts the stage list together by hand to show how.

Run: python examples/bomb_pot.py
"""

from __future__ import annotations

from cardgame import Game, NoLimit
from cardgame.evaluation import HIGH
from cardgame.model.errors import ConfigError
from cardgame.play.bots import random_bot
from cardgame.stages import DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants import community_streets, registry

__all__ = ["bomb_pot_holdem", "register_bomb_pot"]

VARIANT_NAME = "bomb pot hold'em"


def bomb_pot_holdem(amount: int = 10, big_blind: int = 2) -> list[PokerStage]:
    """No-limit hold'em where every hand is a bomb pot of ``amount``: no blinds and no pre-flop
    betting; betting starts on the flop with a minimum bet of ``big_blind``.

    A player short of the bomb pot antes what they have and is all-in; they compete only for the
    antes they matched (``ForcedBets``' ante trimming, Robert's Rules)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ConfigError(f"A bomb pot must be a positive whole number of chips, not {amount!r}.")
    return [
        WaitForPlayers(2),
        ForcedBets((), ante=amount),  # antes only: every player dealt in posts the bomb pot
        DealHole(2),
        *community_streets(NoLimit(big_blind), first_betting=False),  # flop, turn, river, each with betting
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
    game = Game(variant, params={"amount": 10, "big_blind": 2}, seed=7, max_hands=3)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        game.sit_down(name, 100 if name != "Dan" else 6)  # Dan is short: all-in on the bomb pot
    names = game.names()
    game.subscribe(lambda event: print(event.describe(names)))
    game.start()
    game.play(random_bot)
    print(game.status())


if __name__ == "__main__":
    main()
