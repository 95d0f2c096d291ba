"""Write hands played by the engine as PHH: the variant's fields from its stage list, the actions
from the event log. Reading the result back with :func:`cardgame.phh.replay.replay` reproduces
the hand (the same actions and final stacks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgame.betting import FixedLimit
from cardgame.errors import HandHistoryError
from cardgame.events import (
    ActionTaken,
    BoardDealt,
    CardsDiscarded,
    CardsShown,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
)
from cardgame.phh.actions import (
    Action,
    CheckCall,
    CompleteBetRaise,
    DealBoard,
    DealHole,
    Fold,
    PostBringIn,
    ShowMuck,
    StandPatDiscard,
)
from cardgame.phh.codes import VARIANTS
from cardgame.phh.history import HandHistory
from cardgame.stage import Stage
from cardgame.stages import BettingRound, BringIn, Draw, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages import DealBoard as DealBoardStage
from cardgame.stages import DealHole as DealHoleStage

__all__ = ["game_to_phh", "hand_to_phh", "variant_fields"]

_LOWS = {"eight-or-better low", "omaha eight-or-better low"}


def variant_fields(stages: Sequence[Stage], players: int) -> dict[str, Any]:
    """The PHH ``variant`` code and forced-bet and bet-size fields of a stage list.

    Raises :class:`HandHistoryError` for a game PHH has no code for (Kuhn, Leduc, five-card draw).
    """
    forced = next((s for s in stages if isinstance(s, ForcedBets)), None)
    bring = next((s for s in stages if isinstance(s, BringIn)), None)
    rounds = [s for s in stages if isinstance(s, BettingRound)]
    show = next((s for s in stages if isinstance(s, Showdown)), None)
    wait = next((s for s in stages if isinstance(s, WaitForPlayers)), None)
    if not rounds or show is None:
        raise HandHistoryError("PHH needs a game with betting rounds and a showdown.")
    structure = rounds[0].structure
    letter = structure.code
    high = show.high.name if show.high is not None else ""
    low = show.low.name if show.low is not None else ""
    draws = sum(isinstance(s, Draw) for s in stages)
    holes = next((len(s.face_up) for s in stages if isinstance(s, DealHoleStage)), 0)
    if bring is not None:
        suffix = "R" if high == "ace-to-five low" else "7S/8" if low in _LOWS else "7S"
    elif draws:
        suffix = "B" if high == "badugi" else f"2L{draws}D" if high == "deuce-to-seven low" else ""
    elif any(isinstance(s, DealBoardStage) for s in stages):
        if high == "omaha high":
            suffix = "O/8" if low in _LOWS else "O"
        elif high == "short-deck high" and wait is not None and wait.deck is not None:
            suffix = "S"
        else:
            suffix = "T" if holes == 2 and high == "high" else ""
    else:
        suffix = ""
    code = letter + suffix
    if not suffix or code not in VARIANTS:
        raise HandHistoryError(f"PHH has no variant code for this game (it would be {code!r}).")
    fields: dict[str, Any] = {"variant": code}
    antes = [0] * players
    blinds = [0] * players
    if forced is not None:
        if forced.big_blind_ante:
            antes[1] = forced.ante[0]
        elif len(forced.ante) == 1:
            antes = [forced.ante[0]] * players
        else:
            antes = [*forced.ante[:players], *[0] * (players - len(forced.ante))]
        for i, b in enumerate(forced.blinds[:players]):
            blinds[i] = b
        if forced.button_blind:  # blind order puts the button last, or first heads-up
            blinds[0 if players == 2 else players - 1] += forced.button_blind
    fields["antes"] = antes
    if bring is not None:
        fields["bring_in"] = bring.amount
    else:
        fields["blinds_or_straddles"] = blinds
    if isinstance(structure, FixedLimit):
        fields["small_bet"], fields["big_bet"] = structure.small_bet, structure.big_bet
    else:
        fields["min_bet"] = structure.min_bet
    return fields


def hand_to_phh(
    events: Sequence[Event], stages: Sequence[Stage], names: Mapping[int, str] | None = None, **extra: Any
) -> HandHistory:
    """One hand (its events from ``HandStarted`` to ``HandEnded``) as a :class:`HandHistory`.

    Players are numbered from the button's left (``p1``); ``names`` adds ``players``; ``extra``
    sets other PHH fields (``event``, ``table``...).
    """
    start = next((e for e in events if isinstance(e, HandStarted)), None)
    if start is None:
        raise HandHistoryError("The events hold no HandStarted: nothing to export.")
    seats = list(start.seats)
    p = {seat: i for i, seat in enumerate(seats)}
    actions: list[Action] = []
    final: tuple[tuple[int, int], ...] | None = None
    for e in events:
        if isinstance(e, HoleCardsDealt):
            actions.append(DealHole(p[e.seat], e.cards))
        elif isinstance(e, BoardDealt):
            actions.append(DealBoard(e.cards))
        elif isinstance(e, ActionTaken):
            if e.action == "fold":
                actions.append(Fold(p[e.seat]))
            elif e.action in ("check", "call"):
                actions.append(CheckCall(p[e.seat]))
            elif e.action == "bring-in":
                actions.append(PostBringIn(p[e.seat]))
            else:
                actions.append(CompleteBetRaise(p[e.seat], e.to))
        elif isinstance(e, CardsDiscarded):
            actions.append(StandPatDiscard(p[e.seat], e.cards))
        elif isinstance(e, CardsShown):
            actions.append(ShowMuck(p[e.seat], e.cards))
        elif isinstance(e, HandEnded):
            final = e.stacks
            break
    fields = variant_fields(stages, len(seats))
    finishing = None
    if final is not None:
        by_seat = dict(final)
        finishing = tuple(by_seat.get(s, 0) for s in seats)
    hh = HandHistory(
        **fields,
        starting_stacks=start.stacks,
        actions=tuple(actions),
        hand=start.hand,
        players=tuple(names.get(s, f"seat {s}") for s in seats) if names else None,
        finishing_stacks=finishing,
        **extra,
    )
    hh.validate()
    return hh


def game_to_phh(events: Sequence[Event], stages: Sequence[Stage], names: Mapping[int, str] | None = None
                ) -> list[HandHistory]:
    """Every complete hand in ``events`` (e.g. ``game.events``) as PHH."""
    out: list[HandHistory] = []
    current: list[Event] | None = None
    for e in events:
        if isinstance(e, HandStarted):
            current = [e]
        elif current is not None:
            current.append(e)
            if isinstance(e, HandEnded):
                out.append(hand_to_phh(current, stages, names))
                current = None
    return out
