"""A bomb pot, built from the library's parts: no new stage needed.

In a bomb pot everyone puts the same amount into the pot before the cards are dealt, and the
first betting round is on the flop: there is no pre-flop betting. That is an antes-only
``ForcedBets`` (no blinds, every player antes ``amount``) and hold'em's streets without the
pre-flop betting round (``community_streets(..., first_betting=False)``). Betting then starts
left of the button, as after antes without blinds.

The library's hold'em and Omaha variants take the same option, ``no_limit_holdem(bomb_pot=10)``;
this example puts the stage list together by hand to show how.

``bomb_pot_every(5)`` plays hold'em with the blinds but makes every fifth hand a bomb pot (no blinds,
everyone antes): a stage of its own, ``BombPotEvery``, which keeps its settings under names other
than its parameters' and so declares them (``setting_names``); a snapshot of the game restores.

Run: python examples/bomb_pot.py
"""

from __future__ import annotations

from typing import Any, ClassVar

from cardgame import Game, NoLimit
from cardgame.evaluation import HIGH
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int
from cardgame.play.bots import random_bot
from cardgame.stages import DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants import community_streets, no_limit_holdem, registry

__all__ = ["BombPotEvery", "bomb_pot_every", "bomb_pot_holdem", "register_bomb_pot"]

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


class BombPotEvery(ForcedBets):
    """The blinds, but every ``every``-th hand a bomb pot: no blinds, everyone antes ``bomb``.

    It keeps its settings under other names than its parameters' (``period`` for ``every``) and sets
    ``blinds`` and ``ante`` afresh as each hand starts, so it names its settings in
    ``setting_names``: a snapshot compares those, and restores onto the same ``bomb_pot_every``."""

    transitions: ClassVar[list[dict[str, Any]]] = [
        {**ForcedBets.transitions[0], "prepare": "next_hand"}, *ForcedBets.transitions[1:]]
    snapshot_fields: ClassVar[tuple[str, ...]] = ("hands_seen",)
    setting_names: ClassVar[tuple[str, ...] | None] = ("normal_blinds", "bomb_ante", "period")
    __slots__ = ("bomb_ante", "hands_seen", "normal_blinds", "period")

    def __init__(self, blinds: tuple[int, ...] = (1, 2), *, bomb: int = 10, every: int = 5) -> None:
        super().__init__(blinds)
        self.normal_blinds = self.blinds
        self.bomb_ante = check_int(bomb, "bomb pot (in chips)", ConfigError, minimum=1)
        self.period = check_int(every, "hands from one bomb pot to the next", ConfigError, minimum=1)
        self.hands_seen = 0

    def next_hand(self) -> None:
        """Count the hand; every ``period``-th is a bomb pot."""
        self.hands_seen += 1
        bomb = self.hands_seen % self.period == 0
        self.blinds = () if bomb else self.normal_blinds
        self.ante = (self.bomb_ante if bomb else 0,)


def bomb_pot_every(every: int = 5, bomb: int = 10, blinds: tuple[int, int] = (1, 2)) -> list[PokerStage]:
    """No-limit hold'em with ``blinds`` where every ``every``-th hand is a bomb pot of ``bomb``."""
    stages: list[PokerStage] = list(no_limit_holdem(*blinds))
    stages[1] = BombPotEvery(blinds, bomb=bomb, every=every)  # in place of the blinds
    return stages


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
