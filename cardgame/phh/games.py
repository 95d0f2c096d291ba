"""Stage lists for PHH hands: every variant code, built from a hand's forced-bet and bet fields.

PHH arrays are per player from the button's left (``p1``); the engine's forced-bet positions
are the same order (heads-up both put the button first for the blinds), so ``antes`` and
``blinds_or_straddles`` pass through as positional tuples. ``chips`` converts the file's
amounts to whole chips (see :mod:`cardgame.phh.replay`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from cardgame.engine import Stages
from cardgame.evaluation import (
    ACE_TO_FIVE_LOW,
    BADUGI,
    DEUCE_TO_SEVEN_LOW,
    EIGHT_OR_BETTER_LOW,
    HIGH,
    OMAHA_EIGHT_LOW,
    OMAHA_HIGH,
    SHORT_DECK_HIGH,
)
from cardgame.model.betting import BettingStructure, FixedLimit, NoLimit, PotLimit
from cardgame.model.deck import SHORT_DECK
from cardgame.model.errors import ConfigError, HandHistoryError
from cardgame.model.inputs import check_int, excerpt
from cardgame.phh.history import HandHistory
from cardgame.stages import BettingRound
from cardgame.stages.base import PokerStage
from variants.draw import draw_game
from variants.registry import get
from variants.streets import community_card_game
from variants.stud import stud_game

__all__ = ["CONVENTIONS", "POKERKIT", "SUPPORTED_CODES", "runout_count", "stages_for"]

SUPPORTED_CODES = ("FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")

#: The betting conventions ``stages_for(..., conventions=...)`` sets: the keyword options of the
#: structures (:mod:`cardgame.model.betting`), each applied to the structures that have it.
CONVENTIONS = frozenset(
    a.name for cls in (NoLimit, PotLimit, FixedLimit) for a in attrs.fields(cls) if a.type in (bool, "bool")
)

#: The conventions that make a hand follow PokerKit 0.7.7's betting rules, by the id of the
#: deviation docs/rules.md lists (``"heads-up-cap"``: PokerKit caps fixed limit heads-up too).
POKERKIT: dict[str, dict[str, bool]] = {
    "limit-short-all-in": {"full_bet_rule": True},
    "limit-cap": {"cap_counts_blind": False},
    "short-all-in-over-the-blind": {"first_raise_reopens": True},
    "straddle-min-raise": {"straddle_sets_min_raise": False},
    "raise-to-match": {"raise_to_match": False},
    "heads-up-cap": {"heads_up_uncapped": False},
}


def runout_count(hh: HandHistory) -> int:
    """How many times the board was run: the user-defined field ``_runout_count`` (default 1)."""
    value = hh.extra.get("_runout_count", 1)
    return check_int(value, "_runout_count", HandHistoryError, minimum=1)


def stages_for(
    hh: HandHistory, chips: Callable[[float | None], int], hole_cards: int, *,
    conventions: Mapping[str, bool] | None = None,
) -> Stages:
    """The stage list that plays ``hh``, as the registered variant of its code; ``hole_cards`` is
    the first deal's card count. ``conventions`` sets betting options by name (:data:`CONVENTIONS`,
    e.g. ``{"heads_up_uncapped": False}``; :data:`POKERKIT` has PokerKit's), each on the variant's
    structures that have it; an unknown name raises :class:`~cardgame.model.errors.ConfigError`."""
    if hh.variant not in SUPPORTED_CODES:
        supported = ", ".join(SUPPORTED_CODES)
        raise HandHistoryError(f"variant {excerpt(hh.variant)} cannot be replayed; supported are {supported}.")
    stages = _stages(hh, chips, hole_cards)
    if conventions:
        _set_conventions(stages, conventions)
    return Stages(stages, get(hh.variant))


def _set_conventions(stages: list[PokerStage], conventions: Mapping[str, bool]) -> None:
    unknown = sorted(set(conventions) - CONVENTIONS)
    if unknown:
        raise ConfigError(f"unknown betting conventions {excerpt(unknown)}; known are {sorted(CONVENTIONS)}.")
    changed: dict[int, BettingStructure] = {}
    for stage in stages:
        if isinstance(stage, BettingRound):
            old: Any = stage.structure  # one of the attrs structures above
            if id(old) not in changed:
                names = {a.name for a in attrs.fields(type(old))}
                changed[id(old)] = attrs.evolve(old, **{k: v for k, v in conventions.items() if k in names})
            stage.structure = changed[id(old)]


def _posts(posted: tuple[int, ...], blinds: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The live and dead parts of each negative entry (a player posting to come in), by position.

    Robert's Rules, buttons and blinds: a new player may post the big blind to be dealt in at once,
    live; a player who missed the blinds posts them all, "an amount up to the size of the minimum
    opening bet is live" and the remainder dead. So a post of the big blind's size is live, one of
    the small blind's size (a missed small blind alone) is dead, and a larger one (both blinds) is
    the big blind live plus the rest dead: ``-6`` at 2/4 is 4 live and 2 dead.
    """
    small, big = (blinds[0], blinds[1]) if len(blinds) > 1 and blinds[1] else (0, max(blinds, default=0))
    live = tuple(0 if -p == small and small != big else min(-p, big) if p < 0 else 0 for p in posted)
    dead = tuple(-p - up if p < 0 else 0 for p, up in zip(posted, live, strict=True))
    return live, dead


def _stages(hh: HandHistory, chips: Callable[[float | None], int], hole_cards: int) -> list[PokerStage]:
    code = hh.variant
    antes = tuple(chips(a) for a in hh.antes or ())
    ante: int | tuple[int, ...] = antes if any(antes) else 0
    posted = tuple(chips(b) for b in hh.blinds_or_straddles or ())
    blinds = tuple(b if b > 0 else 0 for b in posted)
    live, dead = _posts(posted, blinds)
    while blinds and blinds[-1] == 0:
        blinds = blinds[:-1]
    # PHH: "a big-blind ante is a non-zero entry at the big blind's index only" (index 1 in blind
    # order, heads-up too): dead money in the main pot, posted after the blind (TDA 2024).
    bba = len(blinds) >= 2 and len(antes) >= 2 and antes[1] > 0 and not any(antes[:1] + antes[2:])
    if bba:
        ante = antes[1]
    trim = hh.ante_trimming_status is True  # PHH's default (absent) is false: antes are dead money
    forced: dict[str, Any] = {"big_blind_ante": bba, "ante_trimming": trim, "dead": dead, "live": live}
    community: dict[str, Any] = {**forced, "run_it_twice": runout_count(hh) > 1}
    if code in ("FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"):
        small, big = chips(hh.small_bet), chips(hh.big_bet)
    if code == "FT":
        return community_card_game(FixedLimit(small, big), hole_cards=2, blinds=blinds, ante=ante, high=HIGH,
                                   **community)
    if code == "NT":
        return community_card_game(NoLimit(chips(hh.min_bet)), hole_cards=2, blinds=blinds, ante=ante, high=HIGH,
                                   **community)
    if code == "NS":
        return community_card_game(NoLimit(chips(hh.min_bet)), hole_cards=2, blinds=blinds, ante=ante,
                                   high=SHORT_DECK_HIGH, deck=SHORT_DECK, **community)
    if code == "PO":
        return community_card_game(PotLimit(chips(hh.min_bet)), hole_cards=hole_cards, blinds=blinds, ante=ante,
                                   high=OMAHA_HIGH, **community)
    if code == "FO/8":
        return community_card_game(FixedLimit(small, big), hole_cards=hole_cards, blinds=blinds, ante=ante,
                                   high=OMAHA_HIGH, low=OMAHA_EIGHT_LOW, **community)
    if code in ("F7S", "F7S/8", "FR"):
        low = EIGHT_OR_BETTER_LOW if code == "F7S/8" else None
        high = ACE_TO_FIVE_LOW if code == "FR" else HIGH
        return stud_game(ante=ante, bring_in=chips(hh.bring_in), small_bet=small, big_bet=big, high=high, low=low,
                         razz_order=code == "FR", open_pair_doubles=code == "F7S", ante_trimming=trim)
    if code == "N2L1D":
        return draw_game(NoLimit(chips(hh.min_bet)), cards=5, draws=1, blinds=blinds, ante=ante,
                         evaluator=DEUCE_TO_SEVEN_LOW, max_players=10, **forced)
    if code == "F2L3D":
        return draw_game(FixedLimit(small, big), cards=5, draws=3, blinds=blinds, ante=ante,
                         evaluator=DEUCE_TO_SEVEN_LOW, max_players=10, **forced)
    if code == "FB":
        return draw_game(FixedLimit(small, big), cards=4, draws=3, blinds=blinds, ante=ante, evaluator=BADUGI,
                         max_players=10, **forced)
    raise HandHistoryError(f"variant {excerpt(code)} cannot be replayed; supported are {', '.join(SUPPORTED_CODES)}.")
