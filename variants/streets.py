"""Building a community-card variant from its streets: the public builder the library's own
hold'em, Omaha, Pineapple and Courchevel variants are made with.

:func:`community_streets` returns the part of a hand between the hole cards and the showdown:
board cards, betting rounds, and where a game has them, discards, a board card exposed before the
first betting round, and run-it-twice offers. :func:`community_card_game` wraps it in a whole
variant (waiting for players, forced bets, hole cards, showdown). A new variant is a function
calling it, registered with :func:`variants.variant`::

    @variant("pot-limit pineapple", None, "Hold'em with three hole cards, pot limit")
    def pot_limit_pineapple(small_blind: int = 1, big_blind: int = 2) -> list[PokerStage]:
        return community_card_game(PotLimit(big_blind), hole_cards=3, blinds=(small_blind, big_blind),
                                   high=HIGH, discard_before="flop")
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import HandEvaluator
from cardgame.model.betting import BettingStructure
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.rake import Rake
from cardgame.stages import (
    BettingRound,
    DeadButtonBlinds,
    DeadButtonWait,
    DealBoard,
    DealHole,
    Draw,
    EndHand,
    ForcedBets,
    RunItTwice,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import PokerStage
from variants.registry import Variant

__all__ = ["BOMB_POT", "HOLDEM_BOARD", "BombPotStages", "blind_levels", "community_card_game", "community_streets",
           "opening"]

#: The button rules :func:`community_card_game` takes (Robert's Rules of Poker, buttons and blinds, rule 2).
BUTTONS = ("moving", "dead")

#: Hold'em's board: three cards on the flop, one on the turn, one on the river.
HOLDEM_BOARD: tuple[tuple[int, str], ...] = ((3, "flop"), (1, "turn"), (1, "river"))


def blind_levels(small_blind: int, big_blind: int, *straddles: int) -> tuple[int, ...]:
    """The blinds, then the straddles, checked to rise: the small blind is at most the big blind
    (Robert's Rules of Poker, blinds: the small blind is a fraction of the big blind), and each
    straddle at least the blind or straddle before it. A :class:`ConfigError` names the two."""
    levels = (small_blind, big_blind, *straddles)
    names = ("the small blind", "the big blind", *(f"straddle {i + 1}" for i in range(len(straddles))))
    for i in range(1, len(levels)):
        low, high = levels[i - 1], levels[i]
        if type(low) is int and type(high) is int and low > high:
            raise ConfigError(f"{names[i - 1].capitalize()} ({excerpt(low)}) must not be above {names[i]} "
                              f"({excerpt(high)}): blinds and "
                              "straddles rise from the small blind on.")
    return levels


def posts_chips(*amounts: object) -> bool:
    """Whether any of ``amounts`` (each a number of chips or a list of them: blinds, antes, dead and
    live posts) posts chips; :class:`ConfigError` for what is not a whole number of chips."""
    for value in amounts:
        items = (value,) if isinstance(value, int | str | bytes) or not isinstance(value, Sequence) else value
        if any(check_int(v, "forced bet (in chips)", ConfigError, minimum=0) for v in items):
            return True  # ForcedBets checks the rest
    return False


def _whole(value: object, what: str, least: int) -> int:
    return check_int(value, what, ConfigError, minimum=least)


def community_streets(
    structure: BettingStructure,
    board: Sequence[tuple[int, str]] = HOLDEM_BOARD,
    *,
    exposed: int = 0,
    discard_before: str | None = None,
    discards: int = 1,
    first_betting: bool = True,
    run_it_twice: bool = False,
) -> list[PokerStage]:
    """The stages from the first betting round to the last: street 0 (pre-flop) betting, then for
    each ``(count, name)`` of ``board`` a burn, ``count`` board cards and a betting round.

    * ``exposed`` board cards of the first street are dealt face up before the first betting
      round, the rest of that street after it (Courchevel: ``exposed=1``, the first flop card).
    * ``discard_before="flop"`` (or another street's name): before that street is dealt, each
      player still in the hand throws exactly ``discards`` hole cards, not replaced (Pineapple:
      the flop; Crazy Pineapple: the turn).
    * ``first_betting=False`` leaves out the pre-flop betting round (a bomb pot): the first
      betting round is the first street's.
    * ``run_it_twice``: a :class:`~cardgame.stages.RunItTwice` offer before every street dealt
      after a betting round, so players all in before the river may run the rest twice.
    """
    given: object = board  # checked here: a caller may pass anything
    if isinstance(given, str | bytes) or not isinstance(given, Sequence):
        raise ConfigError(f"The board is a list of (card count, name) streets such as ((3, 'flop'), (1, 'turn')), "
                          f"not {excerpt(given)}.")
    streets = tuple(board)
    if not streets:
        raise ConfigError("A community-card game needs at least one street of board cards.")
    for item in streets:
        if (not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[1], str)
                or not isinstance(item[0], int) or isinstance(item[0], bool) or item[0] < 1):
            raise ConfigError(f"Each street is (cards, name) with at least one card, such as (3, 'flop'); "
                              f"not {excerpt(item)}.")
    names = [name for _, name in streets]
    exposed = _whole(exposed, "exposed", 0)
    if exposed >= streets[0][0]:
        raise ConfigError(f"exposed must be fewer than the {streets[0][0]} cards of the {names[0]} "
                          f"(0 to {streets[0][0] - 1}), not {exposed}.")
    discards = _whole(discards, "discards", 1)
    if discard_before is not None and discard_before not in names:
        raise ConfigError(f"discard_before must name a street ({', '.join(names)}) or be None, "
                          f"not {excerpt(discard_before)}.")
    stages: list[PokerStage] = []
    if exposed:
        stages.append(DealBoard(exposed, f"first {names[0]} card" if exposed == 1 else
                                f"first {exposed} {names[0]} cards"))
    if first_betting:
        stages.append(BettingRound(structure, 0))
    rest = [(streets[0][0] - exposed, names[0]), *streets[1:]]
    for street, (count, name) in enumerate(rest, start=1):
        if name == discard_before:
            stages.append(Draw(discards, min_discards=discards, replace=False))
        if run_it_twice and (street > 1 or first_betting):
            stages.append(RunItTwice(tuple(rest[street - 1:])))
        stages += [DealBoard(count, name), BettingRound(structure, street)]
    return stages


def opening(
    *,
    min_players: int = 2,
    max_players: int | None = None,
    deck: DeckSpec | None = None,
    blinds: Sequence[int] = (),
    ante: int | Sequence[int] = 0,
    big_blind_ante: bool = False,
    ante_trimming: bool = True,
    dead: Sequence[int] = (),
    live: Sequence[int] = (),
    button_blind: int = 0,
    button: str = "moving",
    new_player: str = "post",
    entry_ante: bool = False,
) -> list[PokerStage]:
    """The stages that open a hand of a blind (or ante) game, flop or draw: waiting for players and the
    forced bets, under the button rule ``button`` (Robert's Rules of Poker, buttons and blinds, rule 2):
    ``"moving"`` (:class:`~cardgame.stages.WaitForPlayers`, :class:`~cardgame.stages.ForcedBets`) or
    ``"dead"`` (:class:`~cardgame.stages.DeadButtonWait`, :class:`~cardgame.stages.DeadButtonBlinds`:
    two blinds and one ante, or the big-blind ante posted by the player in the big blind), where
    ``new_player`` ("post" or "wait") says how a new or returning player comes in and ``entry_ante``
    whether one posting a big blind to come in posts the big-blind ante with it. A :class:`ConfigError`
    names what does not fit."""
    if button not in BUTTONS:
        raise ConfigError(f"button must be one of {', '.join(BUTTONS)}, not {excerpt(button)}.")
    if button == "moving":
        if new_player != "post" or entry_ante is not False:
            raise ConfigError("new_player and entry_ante apply to the dead button: give button='dead' with them.")
        stages: list[PokerStage] = [WaitForPlayers(min_players, max_players=max_players, deck=deck)]
        if posts_chips(blinds, dead, live, button_blind, ante):
            stages.append(ForcedBets(blinds, ante=ante, big_blind_ante=big_blind_ante, ante_trimming=ante_trimming,
                                     dead=dead, live=live, button_blind=button_blind))
        return stages
    if button_blind or posts_chips(dead, live):
        raise ConfigError("The dead button places a small and a big blind: it takes no button blind or dead or live "
                          "posts (players coming in post what they owe by the rule).")
    return [DeadButtonWait(min_players, max_players=max_players, deck=deck, new_player=new_player),
            DeadButtonBlinds(blinds, ante=ante, ante_trimming=ante_trimming, big_blind_ante=big_blind_ante,
                             entry_ante=entry_ante)]


class BombPotStages(list[PokerStage]):
    """A bomb pot's stage list: a list that knows its ``variant``, a form of the game without a PHH
    code (the registry names it after the game it came from)."""

    variant: Variant


#: The variant a bomb-pot stage list is tagged with when it comes from no registered variant
#: (:func:`community_card_game` called directly); PHH has no code for a bomb pot.
BOMB_POT = Variant("bomb pot", None, lambda **params: community_card_game(**params),
                   "Every player antes the same amount; no pre-flop betting")


def community_card_game(
    structure: BettingStructure,
    *,
    hole_cards: int,
    blinds: Sequence[int],
    ante: int | Sequence[int] = 0,
    big_blind_ante: bool = False,
    ante_trimming: bool = True,
    dead: Sequence[int] = (),
    live: Sequence[int] = (),
    button_blind: int = 0,
    high: HandEvaluator | None,
    low: HandEvaluator | None = None,
    deck: DeckSpec | None = None,
    min_players: int = 2,
    max_players: int | None = None,
    run_it_twice: bool = False,
    board: Sequence[tuple[int, str]] = HOLDEM_BOARD,
    exposed: int = 0,
    discard_before: str | None = None,
    discards: int = 1,
    bomb_pot: int = 0,
    rake: Rake | None = None,
    show_or_muck: bool = False,
    ask_to_see: bool = False,
    button: str = "moving",
    new_player: str = "post",
    entry_ante: bool = False,
) -> list[PokerStage]:
    """A whole community-card variant: wait for ``min_players`` (deal in at most ``max_players``),
    forced bets, ``hole_cards`` down cards,
    :func:`community_streets` (``board``, ``exposed``, ``discard_before``, ``discards``,
    ``run_it_twice``), showdown, end of hand.

    ``bomb_pot`` (chips, 0: none) makes every hand a bomb pot: each player antes that amount
    instead of the blinds and antes, there is no pre-flop betting and play starts on the flop,
    left of the button. The stage list is then tagged as a game PHH has no code for.

    ``rake`` (a :class:`~cardgame.model.rake.Rake`) is the house's cut, taken by the showdown;
    ``show_or_muck`` and ``ask_to_see`` are the showdown's table rules (:class:`~cardgame.stages.Showdown`).

    ``button`` is the button rule (Robert's Rules of Poker, buttons and blinds, rule 2): ``"moving"``
    (the default: the button moves to the next player every hand) or ``"dead"`` (the big blind moves
    to the next player, the small blind and button follow, even onto empty seats; blinds missed while
    sitting out are owed; :mod:`cardgame.model.button`), where ``new_player`` says whether a new or
    returning player posts what they owe (``"post"``) or waits for the big blind (``"wait"``), and
    ``entry_ante`` whether a big blind posted to come in carries the big-blind ante (:func:`opening`).
    """
    bomb_pot = _whole(bomb_pot, "bomb_pot", 0)
    if discard_before is not None and isinstance(hole_cards, int) and isinstance(discards, int) \
            and discards >= hole_cards:
        raise ConfigError(f"Players must keep a hole card: discards ({discards}) must be fewer than hole_cards "
                          f"({hole_cards}).")
    if bomb_pot:
        if button != "moving" or posts_chips(blinds, dead, live, button_blind, ante):
            raise ConfigError("A bomb pot replaces the blinds and antes: give blinds=() and no ante, dead, live, "
                              "button blind or dead button with bomb_pot.")
        stages: list[PokerStage] = [WaitForPlayers(min_players, max_players=max_players, deck=deck),
                                    ForcedBets((), ante=bomb_pot, ante_trimming=ante_trimming)]
    else:
        stages = opening(min_players=min_players, max_players=max_players, deck=deck, blinds=blinds, ante=ante,
                         big_blind_ante=big_blind_ante, ante_trimming=ante_trimming, dead=dead, live=live,
                         button_blind=button_blind, button=button, new_player=new_player, entry_ante=entry_ante)
    stages.append(DealHole(hole_cards))
    stages += community_streets(structure, board, exposed=exposed, discard_before=discard_before,
                                discards=discards, first_betting=not bomb_pot, run_it_twice=run_it_twice)
    stages += [Showdown(high, low, rake=rake, show_or_muck=show_or_muck, ask_to_see=ask_to_see), EndHand()]
    if bomb_pot:
        tagged = BOMB_POT if deck is None else Variant(BOMB_POT.name, None, BOMB_POT.builder,
                                                      BOMB_POT.description, deck=deck)
        tagged_stages = BombPotStages(stages)
        tagged_stages.variant = tagged
        return tagged_stages
    return stages

