"""Write hands played by the engine as PHH: the variant's fields from its stage list, the actions
from the event log. Reading the result back with :func:`cardgame.phh.replay.replay` reproduces
the hand (the same actions and final stacks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from cardgame.engine import Stage
from cardgame.model.betting import FixedLimit
from cardgame.model.context import Context
from cardgame.model.errors import CardgameError, HandHistoryError
from cardgame.model.events import (
    ActionTaken,
    BlindsPlaced,
    BoardDealt,
    CardsDiscarded,
    CardsShown,
    Event,
    ForcedBetPosted,
    HandEnded,
    HandMucked,
    HandStarted,
    HoleCardsDealt,
    PlayerLeft,
    PlayerSeated,
    RakeTaken,
    RunsChosen,
)
from cardgame.phh.actions import (
    Action,
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
)
from cardgame.phh.codes import VARIANTS
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.stages import BettingRound, BringIn, DealBoard, DealHole, Draw, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.dead_button import ENTRY_ANTE, ENTRY_POSTS

__all__ = ["game_to_phh", "hand_to_phh", "variant_fields"]

_LOWS = {"eight-or-better low", "omaha eight-or-better low"}


def _code_of(stages: Sequence[Stage[Context]]) -> str:
    """The PHH code a stage list put together by hand describes (structure, deal, evaluators)."""
    bring = any(isinstance(s, BringIn) for s in stages)
    structure = next(s for s in stages if isinstance(s, BettingRound)).structure
    show = next(s for s in stages if isinstance(s, Showdown))
    wait = next((s for s in stages if isinstance(s, WaitForPlayers)), None)
    high = show.high.name if show.high is not None else ""
    low = show.low.name if show.low is not None else ""
    draws = sum(isinstance(s, Draw) for s in stages)
    holes = next((len(s.face_up) for s in stages if isinstance(s, DealHole)), 0)
    if bring:
        suffix = "R" if high == "ace-to-five low" else "7S/8" if low in _LOWS else "7S"
    elif draws:
        suffix = "B" if high == "badugi" else f"2L{draws}D" if high == "deuce-to-seven low" else ""
    elif any(isinstance(s, DealBoard) for s in stages):
        first_board = next(i for i, s in enumerate(stages) if isinstance(s, DealBoard))
        first_bet = next(i for i, s in enumerate(stages) if isinstance(s, BettingRound))
        if first_board < first_bet:  # a board card before the first betting round (Courchevel): no code
            suffix = ""
        elif high == "omaha high":
            suffix = ("O/8" if low in _LOWS else "O") if holes == 4 else ""
        elif high == "short-deck high" and wait is not None and wait.deck is not None:
            suffix = "S"
        else:
            suffix = "T" if holes == 2 and high == "high" else ""
    else:
        suffix = ""
    code = structure.code + suffix
    if not suffix or code not in VARIANTS:
        raise HandHistoryError(f"PHH has no variant code for this game; its codes are {', '.join(VARIANTS)}.")
    return code


def variant_fields(stages: Sequence[Stage[Context]], players: int) -> dict[str, Any]:
    """The PHH ``variant`` code and forced-bet and bet-size fields of a stage list.

    The code is the variant's own when ``stages`` come from a registered variant
    (:class:`~cardgame.engine.Stages`); a list put together by hand gets the code its stages
    describe. Raises :class:`HandHistoryError` for a game PHH has no code for (Kuhn, Leduc,
    five-card draw).
    """
    forced = next((s for s in stages if isinstance(s, ForcedBets)), None)
    bring = next((s for s in stages if isinstance(s, BringIn)), None)
    rounds = [s for s in stages if isinstance(s, BettingRound)]
    if not rounds or not any(isinstance(s, Showdown) for s in stages):
        raise HandHistoryError("PHH needs a game with betting rounds and a showdown.")
    structure = rounds[0].structure
    known = getattr(stages, "variant", None)
    if known is not None:
        if known.code is None:
            raise HandHistoryError(f"PHH has no variant code for {known.name}; its codes are {', '.join(VARIANTS)}.")
        code: str = known.code
    else:
        code = _code_of(stages)
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
    # what the engine played: a big-blind ante is dead money in the main pot (untrimmed), whatever
    # ``ante_trimming`` says of uniform antes
    fields["ante_trimming_status"] = forced is None or (forced.ante_trimming and not forced.big_blind_ante)
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
    events: Sequence[Event], stages: Sequence[Stage[Context]], names: Mapping[int, str] | None = None, **extra: Any
) -> HandHistory:
    """One hand (its events from ``HandStarted`` to ``HandEnded``) as a :class:`HandHistory`.

    Players are numbered from the button's left (``p1``); ``names`` adds ``players``; ``extra``
    sets other PHH fields (``event``, ``table``...). A raked hand writes the chips taken in ``rake``
    (the field PokerKit and the HandHQ logs use), which :func:`~cardgame.phh.replay.replay` takes back.
    A player who left during the hand finishes with the chips they left with, their fold written at
    their turn where the hand allows it (:func:`_folds_in_turn`).
    """
    start = next((e for e in events if isinstance(e, HandStarted)), None)
    if start is None:
        raise HandHistoryError("The events hold no HandStarted: nothing to export.")
    seats = list(start.seats)
    p = {seat: i for i, seat in enumerate(seats)}
    actions: list[Action] = []
    final: tuple[tuple[int, int], ...] | None = None
    runs: list[int] = []
    rake = 0
    left: dict[int, PlayerLeft] = {}  # the players who left during the hand: their names, the chips they took
    for e in events:
        if isinstance(e, HoleCardsDealt):
            actions.append(DealHoleAction(p[e.seat], e.cards))
        elif isinstance(e, BoardDealt):
            actions.append(DealBoardAction(e.cards))
        elif isinstance(e, ActionTaken):
            if e.action == "fold":
                actions.append(FoldAction(p[e.seat]))
            elif e.action in ("check", "call"):
                actions.append(CheckCallAction(p[e.seat]))
            elif e.action == "bring-in":
                actions.append(PostBringInAction(p[e.seat]))
            else:
                actions.append(CompleteBetRaiseAction(p[e.seat], e.to))
        elif isinstance(e, CardsDiscarded):
            actions.append(StandPatDiscardAction(p[e.seat], e.cards))
        elif isinstance(e, CardsShown):
            actions.append(ShowMuckAction(p[e.seat], e.cards))
        elif isinstance(e, HandMucked):  # mucked unshown at the showdown (show_or_muck): ``pN sm``
            actions.append(ShowMuckAction(p[e.seat], ()))
        elif isinstance(e, RunsChosen):
            runs.append(e.runs)
        elif isinstance(e, RakeTaken):
            rake += e.amount
        elif isinstance(e, PlayerLeft) and e.seat in p:
            left[e.seat] = e
        elif isinstance(e, HandEnded):
            final = e.stacks
            break
    actions = _shows_before_run_out(_discards_before_draws(actions), len(seats))
    fields = variant_fields(stages, len(seats))
    placed = next((e for e in events if isinstance(e, BlindsPlaced)), None)
    if placed is not None and len(seats) > 2:
        fields["blinds_or_straddles"] = _placed_blinds(events, placed, stages, p)
        forced = next((s for s in stages if isinstance(s, ForcedBets)), None)
        if forced is not None and forced.big_blind_ante and placed.big_blind in p:  # at the big blind's place
            fields["antes"] = [forced.ante[0] if i == p[placed.big_blind] else 0 for i in range(len(seats))]
    if min(runs, default=1) > 1:  # run it twice: the board's d db lines come once per run-out
        extra = {"extra": {**extra.pop("extra", {}), "_runout_count": min(runs)}, **extra}
    if rake:
        extra = {"extra": {**extra.pop("extra", {}), "rake": rake}, **extra}
    finishing = None
    if final is not None:  # a player who left mid-hand is freed at its end: they leave with their chips
        by_seat = {**dict(final), **{s: e.cashed_out for s, e in left.items()}}
        finishing = tuple(by_seat.get(s, 0) for s in seats)
    hh = HandHistory(
        **fields,
        starting_stacks=start.stacks,
        actions=tuple(actions),
        hand=start.hand,
        players=tuple(names.get(s) or (left[s].name if s in left else f"seat {s}") for s in seats) if names else None,
        finishing_stacks=finishing,
        **extra,
    )
    hh.validate()
    return _folds_in_turn(hh) if left else hh  # folds out of turn come from players leaving mid-hand


def _folds_in_turn(hh: HandHistory) -> HandHistory:
    """``hh`` with each fold taken out of turn (a player who left mid-hand) moved to that player's turn,
    where PHH puts every action (the spec: the actions each actor took in their turn, in order) and
    PokerKit takes it; the hand replays to the same stacks, the other players' actions in the same
    order. A fold whose turn never comes (it ended the hand, or came during a draw) stays where the
    live game took it: :func:`~cardgame.phh.replay.replay` folds it out of turn, as the engine did."""
    turns: dict[int, int | None] = {}

    def watch(game: Game, index: int) -> None:  # who is asked to bet before each action
        legal = game.legal_actions()
        turns[index + 1] = None if legal is None else legal.seat

    try:
        live = replay(hh, after=watch)
    except CardgameError:
        return hh
    moved = {k for k, a in enumerate(hh.actions) if isinstance(a, FoldAction) and turns.get(k) != a.player}
    if not moved:
        return hh
    folds = {a.player: a for k, a in enumerate(hh.actions) if k in moved and isinstance(a, FoldAction)}
    movers = set(folds)
    rest = tuple(a for k, a in enumerate(hh.actions) if k not in moved)
    placed: dict[int, list[Action]] = {}  # after which of the other actions each fold comes

    def fold_in_turn(game: Game, index: int) -> None:
        while (legal := game.legal_actions()) is not None and legal.seat in folds:
            placed.setdefault(index, []).append(folds.pop(legal.seat))
            game.act(legal.seat, "fold")

    try:
        replay(attrs.evolve(hh, actions=rest), after=fold_in_turn)
        if folds:  # a turn that never came
            return hh
        actions = tuple(b for k, a in enumerate(rest) for b in (a, *placed.get(k, ())))
        moved_hh = attrs.evolve(hh, actions=actions)
        again = replay(moved_hh)
    except CardgameError:
        return hh
    if again.stacks != live.stacks or _others(again.game, movers) != _others(live.game, movers):
        return hh
    return moved_hh


def _others(game: Game, movers: set[int]) -> list[tuple[int, str, int]]:
    """The betting actions in ``game``'s log, but the folds of ``movers``."""
    return [(e.seat, e.action, e.to) for e in game.events
            if isinstance(e, ActionTaken) and not (e.action == "fold" and e.seat in movers)]


def _placed_blinds(events: Sequence[Event], placed: BlindsPlaced, stages: Sequence[Stage[Context]],
                   position: Mapping[int, int]) -> list[int]:
    """A dead-button hand's ``blinds_or_straddles``: each blind at its poster's position (a dead small
    blind leaves the big blind first), each post to come in as a negative entry (PHH; Robert's Rules:
    the big blind's size live, the small blind's dead, both together the big blind live and the rest
    dead). A missed small blind with the small blind dead is refused: PHH reads the small blind's
    size from the blinds, and would take that post as live."""
    forced = next(s for s in stages if isinstance(s, ForcedBets))
    small, big = forced.blinds[0], forced.blinds[1]
    blinds = [0] * len(position)
    for e in events:
        if not isinstance(e, ForcedBetPosted) or e.seat not in position:
            continue
        i = position[e.seat]
        if e.bet == "small blind":
            blinds[i] += small
        elif e.bet == "big blind":
            blinds[i] += big
        elif e.bet in ENTRY_POSTS:
            if e.bet == ENTRY_POSTS[2] and placed.small_blind is None:
                raise HandHistoryError("PHH cannot record a missed small blind posted in a hand whose small blind "
                                       "is dead: it reads the small blind's size from the blinds.")
            blinds[i] -= small if e.bet == ENTRY_POSTS[2] else big
        elif e.bet == ENTRY_ANTE:  # with the big blind to come in: dead, as the rest beyond the big blind
            blinds[i] -= forced.ante[0]
    return blinds


def _discards_before_draws(actions: list[Action]) -> list[Action]:
    """Within each draw round, every player's discards first, then the cards drawn (PHH's order:
    the dealer deals the draw once everyone has discarded)."""
    out: list[Action] = []
    discards: list[Action] = []
    draws: list[Action] = []
    drawn: set[int] = set()  # players who discarded in the round being collected
    for a in actions:
        if isinstance(a, StandPatDiscardAction) and a.player in drawn:  # a player draws again: a new round
            out += discards + draws
            discards, draws, drawn = [], [], set()
        if isinstance(a, StandPatDiscardAction):
            discards.append(a)
            drawn.add(a.player)
        elif isinstance(a, DealHoleAction) and drawn:
            draws.append(a)
        else:
            out += discards + draws
            discards, draws, drawn = [], [], set()
            out.append(a)
    return out + discards + draws


def _shows_before_run_out(actions: list[Action], players: int) -> list[Action]:
    """Move the showdown before the cards dealt after the last player action: players all-in
    show their hands before the run-out (TDA rule 16), the order PHH readers expect."""
    shows = [i for i, a in enumerate(actions) if isinstance(a, ShowMuckAction)]
    if not shows or any(isinstance(a, StandPatDiscardAction) for a in actions):
        return actions  # draw games: players all-in still draw, and show after the last one
    first_show = shows[0]
    acted = [i for i, a in enumerate(actions[:first_show]) if not isinstance(a, (DealHoleAction, DealBoardAction))]
    if acted:
        start = acted[-1] + 1
    else:  # nobody acted (everyone all-in on the forced bets): after the first deal to each player
        deals = [i for i, a in enumerate(actions[:first_show]) if isinstance(a, DealHoleAction)]
        start = deals[players - 1] + 1 if len(deals) >= players else first_show
    if start >= first_show:
        return actions
    actions = _shown_cards_dealt(actions, shows)
    held: dict[int, list[object]] = {}  # each player's cards at that point: the ones they show
    for a in actions[:start]:
        if isinstance(a, DealHoleAction):
            held.setdefault(a.player, []).extend(a.cards)
        elif isinstance(a, StandPatDiscardAction):
            held[a.player] = [c for c in held.get(a.player, []) if c not in a.cards]
    early: list[Action] = []
    for i in shows:
        show = actions[i]
        assert isinstance(show, ShowMuckAction)
        cards = held.get(show.player, [])
        # the cards held then; a history as one seat saw it does not know them: the shown cards stand
        if show.cards and cards and None not in cards:
            show = ShowMuckAction(show.player, tuple(cards))  # type: ignore[arg-type]
        early.append(show)
    tail = [a for a in actions[first_show:] if not isinstance(a, ShowMuckAction)]
    return [*actions[:start], *early, *actions[start:first_show], *tail]


def _shown_cards_dealt(actions: list[Action], shows: list[int]) -> list[Action]:
    """The deals with each shown hand's cards written in (a hand is shown in the order dealt): in a
    history as one seat saw it, a stud hand shown before the run-out shows the cards held then, and
    its cards still to come, unknown when dealt, are known from the showdown."""
    shown = {a.player: a.cards for a in (actions[i] for i in shows) if isinstance(a, ShowMuckAction) and a.cards}
    total: dict[int, int] = {}
    for a in actions:
        if isinstance(a, DealHoleAction):
            total[a.player] = total.get(a.player, 0) + len(a.cards)
    dealt: dict[int, int] = {}
    out: list[Action] = []
    for a in actions:
        cards = shown.get(getattr(a, "player", -1))
        if isinstance(a, DealHoleAction) and cards is not None and len(cards) == total[a.player]:
            k = dealt.get(a.player, 0)
            dealt[a.player] = k + len(a.cards)
            a = DealHoleAction(a.player, tuple(c if c is not None else cards[k + j] for j, c in enumerate(a.cards)))
        out.append(a)
    return out


def game_to_phh(events: Sequence[Event], stages: Sequence[Stage[Context]], names: Mapping[int, str] | None = None
                ) -> list[HandHistory]:
    """Every complete hand in ``events`` (e.g. ``game.events``) as PHH. With ``names``, each hand's
    ``players`` are those the log seated at its start (a player who left since is still named), the
    seats it does not name from ``names``."""
    out: list[HandHistory] = []
    current: list[Event] | None = None
    sitting: dict[int, str] = {}  # who the log has in each seat
    hand_names: dict[int, str] | None = None
    for e in events:
        if isinstance(e, PlayerSeated):
            sitting[e.seat] = e.name
        elif isinstance(e, PlayerLeft):
            sitting.pop(e.seat, None)
        if isinstance(e, HandStarted):
            current = [e]
            hand_names = {**names, **sitting} if names else None
        elif current is not None:
            current.append(e)
            if isinstance(e, HandEnded):
                out.append(hand_to_phh(current, stages, hand_names))
                current = None
    return out
