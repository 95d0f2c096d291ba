"""Replay PHH hands through the engine and compare ``finishing_stacks``.

A hand is rebuilt as a variant's stage list from its fields (:mod:`cardgame.phh.games`, every
PHH code), dealt from a deck stacked in the engine's dealing order (the file's deal actions in
order, a burn card before each board deal), and driven action by action through
:class:`~cardgame.play.game.Game`. Unknown cards (``??``) become the known cards later discarded or
shown from the same hand, else unused cards. Amounts that
are not whole numbers (``1259450.25``) are scaled by a power of ten so chips stay integers.
"""

from __future__ import annotations

import functools
import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import attrs

from cardgame.engine import Stages
from cardgame.model.cards import Card
from cardgame.model.deck import SHORT_DECK, STANDARD_DECK, Deck, DeckSpec
from cardgame.model.errors import CardgameError, HandHistoryError
from cardgame.model.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    Event,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    RakeTaken,
)
from cardgame.model.inputs import check_int, excerpt, label
from cardgame.model.rake import FixedRake
from cardgame.model.rng import MAX_SEED, check_seed
from cardgame.phh.actions import (
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
)
from cardgame.phh.games import SUPPORTED_CODES, runout_count, stages_for
from cardgame.phh.history import HandHistory
from cardgame.phh.io import iter_paths, load_each
from cardgame.play.game import Game
from cardgame.stages import Showdown
from cardgame.stages.base import fold_leaver

__all__ = ["CONVENTIONS", "CheckReport", "HandCheck", "ReplayResult", "check_paths", "replay"]

_BOARD_GAMES = ("FT", "NT", "NS", "PO", "FO/8")
_STUD_GAMES = ("F7S", "F7S/8", "FR")


@attrs.frozen
class ReplayResult:
    """The engine's final stacks (in the file's units) and whether the hand ran to its end."""

    stacks: tuple[float, ...]
    complete: bool
    game: Game
    scale: int = 1  # chips per unit of the file's amounts


#: The largest amount a replayed hand may hold: more is a corrupt file, not a stack.
MAX_AMOUNT = 10**15


def stated_rake(hh: HandHistory) -> float | None:
    """The file's ``rake`` (the house's cut, a field outside the spec that PokerKit and the HandHQ logs
    write), or ``None`` when it is absent or not a finite number of at least 0 (it then says nothing)."""
    value = hh.extra.get("rake")
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
        return None
    return value


def _scale(hh: HandHistory) -> int:
    """The smallest power of ten that makes every amount in the hand a whole number."""
    values: list[float] = [*hh.starting_stacks, *(hh.antes or ()), *(hh.blinds_or_straddles or ())]
    values += [v for v in (stated_rake(hh),) if v is not None]
    values += [v for v in (hh.min_bet, hh.small_bet, hh.big_bet, hh.bring_in) if v is not None]
    values += [a.amount for a in hh.actions if isinstance(a, CompleteBetRaiseAction)]
    scale = 1
    for v in values:
        if math.isinf(v):  # an unknown stack (``inf``): not an amount that is played
            continue
        if abs(v) > MAX_AMOUNT:
            raise HandHistoryError(f"amount {v:g} is too large to replay (at most {MAX_AMOUNT:.0e})")
        frac = Fraction(str(v))
        while (frac * scale).denominator != 1:
            scale *= 10
            if scale > 10**6:
                raise HandHistoryError(f"amount {v} has too many decimal places to replay in whole chips")
    return scale


Slot = tuple[int, int]  # (action index, position in that action's cards): an unknown card


@attrs.define
class _DealPlan:
    """Every dealt card resolved, the deck order that deals them, and each discard's cards."""

    deck: list[Card]
    discards: dict[int, tuple[Card, ...]]
    hole_cards: int
    hidden: frozenset[int]  # players whose final hand holds a card the file never makes known


def _plan(hh: HandHistory, spec: DeckSpec, seed: int) -> _DealPlan:
    """Resolve unknown cards (``??``) and list the deck top first in the engine's dealing order.

    An unknown card later discarded or shown as a known card becomes that card; any other
    unknown card is an unused card of the deck. The engine deals in file order (each player's
    cards as one block), burning one card before each board deal.
    """
    known = {c for a in hh.actions for c in getattr(a, "cards", None) or () if c is not None}
    spare = [c for c in spec.cards if c not in known]
    random.Random(seed).shuffle(spare)
    fills: dict[Slot, Card] = {}
    held: dict[int, list[Card | Slot]] = {}
    discards_raw: dict[int, list[Card | Slot]] = {}

    def claim(player: int, card: Card) -> Card | Slot:
        """Find ``card`` among ``player``'s held cards, filling an open unknown slot if needed."""
        hand = held.setdefault(player, [])
        if card in hand:
            return card
        for item in hand:
            if isinstance(item, tuple) and item not in fills:
                fills[item] = card
                return item
        return card

    shows: list[ShowMuckAction] = []
    for i, a in enumerate(hh.actions):
        if isinstance(a, DealHoleAction):
            hand = held.setdefault(a.player, [])
            hand += [c if c is not None else (i, j) for j, c in enumerate(a.cards)]
        elif isinstance(a, StandPatDiscardAction) and a.cards:
            hand = held.setdefault(a.player, [])
            out: list[Card | Slot] = []
            for c in a.cards:
                item: Card | Slot | None = claim(a.player, c) if c is not None else next(
                    (h for h in hand if isinstance(h, tuple)), None)
                if item is None or item not in hand:
                    raise HandHistoryError(
                        f"actions[{i}] {excerpt(a.to_text())}: p{a.player + 1} does not hold that card")
                hand.remove(item)
                out.append(item)
            discards_raw[i] = out
        elif isinstance(a, ShowMuckAction) and a.cards:
            shows.append(a)
    for a in shows:  # once every card is dealt: a stud hand shown before an all-in run-out lists cards to come
        for c in a.cards or ():
            if c is not None:
                claim(a.player, c)

    hidden = frozenset(p for p, hand in held.items() if any(isinstance(x, tuple) and x not in fills for x in hand))
    if hh.variant in _STUD_GAMES:
        _fill_doors(hh, held, fills, spare)

    def draw() -> Card:
        if not spare:
            raise HandHistoryError(f"the hand deals more cards than the deck's {len(spec.cards)}")
        return spare.pop()

    def resolve(item: Card | Slot) -> Card:
        if isinstance(item, tuple):
            if item not in fills:
                fills[item] = draw()
            return fills[item]
        return item

    deck: list[Card] = []
    burns = hh.variant in _BOARD_GAMES
    hole_cards = 0
    for i, a in enumerate(hh.actions):
        if isinstance(a, DealHoleAction):
            hole_cards = hole_cards or len(a.cards)
            deck += [resolve(c if c is not None else (i, j)) for j, c in enumerate(a.cards)]
        elif isinstance(a, DealBoardAction):
            if burns:
                deck.append(draw())
            deck += [resolve(c if c is not None else (i, j)) for j, c in enumerate(a.cards)]
    discards = {i: tuple(resolve(x) for x in items) for i, items in discards_raw.items()}
    return _DealPlan(deck + spare, discards, hole_cards or 2, hidden)


def _fill_doors(hh: HandHistory, held: dict[int, list[Card | Slot]], fills: dict[Slot, Card],
                spare: list[Card]) -> None:
    """Unknown door cards (``??`` as a stud hand's first up card) follow the recorded bring-in.

    Robert's Rules (seven-card stud): the lowest up card brings in (razz: the highest), ties broken
    by suit. When a door card is unknown, the file's first ``pb`` or completion names the player who
    brought in: that player's unknown door becomes the spare card most certain to bring in, and the
    other unknown doors the spare cards just above it (razz: below), so the engine names the same
    player by its own rule. Known door cards are never changed: one that contradicts the recorded
    bring-in is still the replay's error.
    """
    bets = (FoldAction, CheckCallAction, CompleteBetRaiseAction, PostBringInAction)
    first = next((a for a in hh.actions if isinstance(a, bets)), None)
    if not isinstance(first, PostBringInAction | CompleteBetRaiseAction):
        return
    razz = hh.variant == "FR"

    def brings_in(card: Card) -> tuple[int, int]:  # larger brings in (as cardgame.stages.BringIn orders)
        return ((card.rank + 1) % 13, card.suit) if razz else (-card.rank, -card.suit)

    antes = hh.antes or (0,) * hh.player_count
    doors = {p: cards[2] for p, cards in held.items()  # a player all-in on the ante cannot bring in
             if len(cards) >= 3 and p < len(antes) and hh.starting_stacks[p] > antes[p]}
    open_slots = {p: d for p, d in doors.items() if isinstance(d, tuple) and d not in fills}
    if not open_slots or first.player not in doors:
        return
    if first.player in open_slots and spare:
        fills[open_slots.pop(first.player)] = card = max(spare, key=brings_in)
        spare.remove(card)
    door = doors[first.player]
    mine = brings_in(fills[door] if isinstance(door, tuple) else door)
    for slot in open_slots.values():
        below = [c for c in spare if brings_in(c) < mine]
        if below:
            fills[slot] = card = max(below, key=brings_in)
            spare.remove(card)


def replay(
    hh: HandHistory, *, source: str = "<hand>", seed: int = 0, conventions: Mapping[str, bool] | None = None,
    configure: Callable[[Stages], object] | None = None, after: Callable[[Game, int], object] | None = None,
    scale: int | None = None,
) -> ReplayResult:
    """Play ``hh`` through the engine. Raises :class:`HandHistoryError` naming the action at fault.
    ``conventions`` sets betting options by name (see :func:`cardgame.phh.games.stages_for`);
    ``configure`` is called with the stage list before play (to set other stages' options);
    ``after(game, index)`` is called once the players are seated (``index`` -1) and after each of the
    file's actions is applied (to watch the hand: :mod:`cardgame.phh.steps`). The file's ``rake``
    (:func:`stated_rake`) is taken from the pots before they are awarded, as the site took it.
    ``scale`` plays the hand in finer chips than the file's amounts need (a power of ten: ``100``
    plays a dollar hand in cents, as a site splits its pots)."""
    source = label(source)
    if not isinstance(hh, HandHistory):
        raise HandHistoryError(f"{source}: a hand to replay is a HandHistory (phh.load, phh.loads), not {excerpt(hh)}.")
    seed = check_seed(seed, HandHistoryError, minimum=-MAX_SEED)
    if conventions is not None and not isinstance(conventions, Mapping):
        raise HandHistoryError(f"{source}: conventions are betting options by name (a mapping), not "
                               f"{excerpt(conventions)}.")
    for name, hook in (("configure", configure), ("after", after)):
        if hook is not None and not callable(hook):
            raise HandHistoryError(f"{source}: {name} is a function or None, not {excerpt(hook)}.")
    if hh.variant not in SUPPORTED_CODES:
        raise HandHistoryError(
            f"{source}: variant {excerpt(hh.variant)} cannot be replayed; supported are {', '.join(SUPPORTED_CODES)}."
        )
    n = hh.player_count
    spec = SHORT_DECK if hh.variant == "NS" else STANDARD_DECK
    if scale is not None and (check_int(scale, "scale", HandHistoryError, minimum=1, maximum=10**6) not in
                              [10**k for k in range(7)]):
        raise HandHistoryError(f"{source}: scale is a power of ten from 1 to 1000000, not {excerpt(scale)}.")
    try:
        own = _scale(hh)
        scale = own if scale is None else max(scale, own)
        plan = _plan(hh, spec, seed)
    except HandHistoryError as exc:
        raise HandHistoryError(f"{source}: {exc}") from None

    def chips(v: float | None) -> int:
        return round(Fraction(str(v or 0)) * scale)

    # An ``inf`` stack (the file does not know it) is played as more than the hand can take from it.
    cover = 1 + sum(chips(v) for v in [*hh.starting_stacks, *(hh.antes or ()), *(hh.blinds_or_straddles or ()),
                                       *(a.amount for a in hh.actions if isinstance(a, CompleteBetRaiseAction))]
                    if not math.isinf(v))
    unknown = {i for i, v in enumerate(hh.starting_stacks) if math.isinf(v)}
    stages = stages_for(hh, chips, plan.hole_cards, conventions=conventions)
    rake = stated_rake(hh)
    if rake:
        for stage in stages:
            if isinstance(stage, Showdown):
                stage.rake = FixedRake(chips(rake))
    if configure is not None:
        configure(stages)
    try:  # (a table the engine cannot seat: more players than a table has seats)
        game = Game(stages, seats=n, first_button=n - 1, seed=seed, max_hands=1, deck=spec,
                    max_buy_in=max(10**12, cover))
        for i, s in enumerate(hh.starting_stacks):
            game.sit_down(f"p{i + 1}", cover if i in unknown else chips(s), i)
    except CardgameError as exc:
        raise HandHistoryError(f"{source}: the table cannot be set: {_in_file_units(str(exc), scale)}") from exc
    game.ctx.next_deck = Deck.stacked(plan.deck, spec)
    # A hand mucked at showdown (``sm`` with no cards) never wins a pot another hand contests, nor
    # does one the file never shows with known cards (``sm ????``, or unknown cards never shown): it
    # cannot be proven to beat a hand that is shown (Robert's Rules, showdown: cards speak, a hand
    # must be shown to win).
    muck_at = [(k, a.player) for k, a in enumerate(hh.actions) if isinstance(a, ShowMuckAction) and a.mucks]
    folds = {a.player for a in hh.actions if isinstance(a, FoldAction)}  # (a muck marks a hand live at showdown)
    mucks = {player for _, player in muck_at} | (plan.hidden - folds)

    # A hand mucked before the run-out (the file deals cards after the muck) is dead from the end of
    # the betting on: it is dealt nothing more. Kill it right after the last betting action before it.
    # A hand shown as unknown cards (``sm ????``) before the run-out is not mucked: it is face up,
    # only not recorded (PartyPoker and Ongame logs write all-in hands so before every street).
    kills: dict[int, set[int]] = {}
    dealt_kills: dict[int, set[int]] = {}  # by the number of hole-card deals after which to kill
    bets = (FoldAction, CheckCallAction, CompleteBetRaiseAction, PostBringInAction)
    betting = [i for i, a in enumerate(hh.actions) if isinstance(a, bets)]
    for k, player in muck_at:
        if any(isinstance(b, (DealHoleAction, DealBoardAction)) for b in hh.actions[k + 1:]):
            before = [i for i in betting if i < k]
            if before:
                kills.setdefault(before[-1], set()).add(player)
            else:  # no betting before it (the others all-in on the antes): after the deals before it
                dealt_kills.setdefault(sum(isinstance(b, DealHoleAction) for b in hh.actions[:k]), set()).add(player)
    current = [-1]  # the index of the action being applied
    dealt = [0]  # hole-card deals so far

    def mark_mucks(event: Event) -> None:
        hand = game.ctx.hand
        if hand is None:
            return
        if isinstance(event, HandStarted):
            hand.mucked = frozenset(mucks)  # before any stage runs: a hand can end inside start()
        elif isinstance(event, ActionTaken) and current[0] in kills:
            hand.killed = hand.killed | kills.pop(current[0])
        elif isinstance(event, HoleCardsDealt) and dealt_kills:
            dealt[0] += 1
            if dealt[0] in dealt_kills:
                hand.killed = hand.killed | dealt_kills.pop(dealt[0])

    game.hook(mark_mucks)  # inside the change: the marks must be set before the stages go on
    if after is not None:
        after(game, -1)
    try:
        game.start()
    except CardgameError as exc:
        raise HandHistoryError(f"{source}: the hand cannot start: {_in_file_units(str(exc), scale)}") from exc
    runs = runout_count(hh)
    for index, a in enumerate(hh.actions):
        where = f"{source}: actions[{index}] {excerpt(a.to_text())}"
        current[0] = index
        try:
            while game.run_options() is not None:  # run it twice: every player asks for the file's count
                game.choose_runs(game.run_options().seat, runs)  # type: ignore[union-attr]
            if isinstance(a, CheckCallAction) and _idle_check(game, a.player):
                pass  # a check the engine does not ask for: everyone else is all-in or folded
            elif isinstance(a, FoldAction) and _out_of_turn(game, a.player):
                _fold_out_of_turn(game, a.player)
            elif isinstance(a, FoldAction):
                game.act(a.player, "fold")
            elif isinstance(a, CheckCallAction):
                game.act(a.player, "check_call")
            elif isinstance(a, CompleteBetRaiseAction):
                game.act(a.player, "bet_raise", chips(a.amount))
            elif isinstance(a, PostBringInAction):
                game.act(a.player, "bring_in")
            elif isinstance(a, StandPatDiscardAction):
                game.draw(a.player, plan.discards.get(index, ()))
            elif isinstance(a, DealBoardAction):
                _check_board(game, a, where)
            elif isinstance(a, ShowMuckAction) and a.mucks and _live(game, a.player):
                game.muck(a.player)  # before the run-out: no more cards for this hand
        except HandHistoryError:
            raise
        except CardgameError as exc:
            raise HandHistoryError(f"{where}: {_in_file_units(str(exc), scale)}") from exc
        if after is not None:
            after(game, index)
    try:
        while game.run_options() is not None:
            game.choose_runs(game.run_options().seat, runs)  # type: ignore[union-attr]
    except CardgameError as exc:
        raise HandHistoryError(f"{source}: after the last action: {_in_file_units(str(exc), scale)}") from exc
    complete = game.status_name == "exited"
    stacks = tuple(math.inf if p.seat in unknown else float(Fraction(p.stack, scale)) if scale != 1 else p.stack
                   for p in sorted(game.table.players(), key=lambda p: p.seat))
    return ReplayResult(stacks, complete, game, scale)


#: Chip amounts in the engine's messages: "amount 300", "minimum allowed 400", "call 2", "raise to 4 to 100".
_AMOUNT = re.compile(r"\b(amount|allowed|maximum|minimum|call|bet|to|in|of) (\d+)\b(?!\])")


def _in_file_units(message: str, scale: int) -> str:
    """The engine's chip amounts in ``message`` as the file's own amounts (``300`` -> ``3`` dollars)."""
    if scale == 1:
        return message
    return _AMOUNT.sub(lambda m: f"{m.group(1)} {_units(int(m.group(2)), scale)}", message)


def _units(chips: int, scale: int) -> str:
    value = Fraction(chips, scale)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.{len(str(scale)) - 1}f}"


def _live(game: Game, player: int) -> bool:
    hand = game.hand
    return hand is not None and player in hand.by_seat and not hand.by_seat[player].folded


def _out_of_turn(game: Game, player: int) -> bool:
    """Whether ``player`` holds a live hand but is not the player the engine asks to bet, or is and
    may not fold (a forced bring-in: the player left at their turn)."""
    legal = game.legal_actions()
    return _live(game, player) and (legal is None or legal.seat != player or not game.may(player, "fold"))


def _fold_out_of_turn(game: Game, player: int) -> None:
    """Fold ``player``'s hand as the engine folds a player who leaves mid-hand: before their turn (a
    fold out of turn is binding, TDA 2024 rule 53), or at it when they owe a bring-in (Robert's Rules:
    a player away at their turn has a dead hand); the hand goes on without them. PHH export writes a
    fold out of turn where the live game took it only when it cannot come at the player's turn."""
    hand = game.hand
    assert hand is not None
    fold_leaver(game.ctx, hand.by_seat[player])
    game.dispatcher.send("table_change")


def _idle_check(game: Game, player: int) -> bool:
    """Whether ``player``'s recorded check is one the engine skips: it is not their turn, and no
    other player could answer a bet (PHH writers such as PokerKit record that check)."""
    legal = game.legal_actions()
    if legal is not None and legal.seat == player:
        return False
    hand = game.hand
    if hand is None:
        return game.status_name == "exited"
    hp = hand.by_seat.get(player)
    street = getattr(game.stage, "street_state", None)  # a betting round's: the bet to match
    if hp is None or hp.folded or hp.all_in or (street is not None and hp.bet < street.bet_to):
        return False
    return not any(o is not hp and not o.folded and not o.all_in for o in hand.players)


def _check_board(game: Game, a: DealBoardAction, where: str) -> None:
    hand = game.hand
    board: Sequence[Card] = hand.board if hand is not None else []
    known = [c for c in a.cards if c is not None]
    if hand is not None and not all(c in board for c in known):
        raise HandHistoryError(f"{where}: the engine has not dealt these board cards yet (board is {board})")


@attrs.frozen
class HandCheck:
    """One hand's outcome: ``ok``, ``mismatch``, ``unchecked`` (no finishing stacks), ``unsupported``
    (a variant the replay does not cover yet) or ``error``."""

    path: str
    index: int
    variant: str
    status: str
    detail: str = ""


@attrs.frozen
class CheckReport:
    """Per-hand results of :func:`check_paths`, with per-file and per-variant totals."""

    hands: tuple[HandCheck, ...]

    @property
    def ok(self) -> bool:
        return all(h.status in ("ok", "unchecked", "unsupported") for h in self.hands)

    def lines(self) -> list[str]:
        out: list[str] = []
        by_file: dict[str, list[HandCheck]] = {}
        for h in self.hands:
            by_file.setdefault(h.path, []).append(h)
        for path, hands in by_file.items():
            good = sum(h.status == "ok" for h in hands)
            unchecked = sum(h.status == "unchecked" for h in hands)
            unsupported = sum(h.status == "unsupported" for h in hands)
            tail = f", {unchecked} replayed without finishing stacks" if unchecked else ""
            tail += f", {unsupported} not replayed (variant not supported yet)" if unsupported else ""
            out.append(f"{path}: {good}/{len(hands) - unchecked - unsupported} reproduced{tail}")
            out += [f"  hand {h.index}: {h.status}: {h.detail}" if h.status != "ok" else
                    f"  hand {h.index}: ok ({h.detail})" for h in hands
                    if h.status in ("mismatch", "error") or h.detail.startswith("convention: ")]
        variants = sorted({h.variant for h in self.hands})
        for v in variants:
            hs = [h for h in self.hands if h.variant == v]
            out.append(f"{v}: {sum(h.status == 'ok' for h in hs)} reproduced, "
                       f"{sum(h.status == 'unchecked' for h in hs)} unchecked, "
                       f"{sum(h.status == 'unsupported' for h in hs)} unsupported, "
                       f"{sum(h.status == 'mismatch' for h in hs)} mismatched, "
                       f"{sum(h.status == 'error' for h in hs)} errors")
        explained: dict[str, int] = {}
        for h in self.hands:
            if h.status == "ok" and h.detail.startswith("convention: "):
                name = re.sub(r"rake inferred [0-9.e+-]+", "rake inferred", h.detail.removeprefix("convention: "))
                explained[name] = explained.get(name, 0) + 1
        if explained:
            out.append("reproduced under a convention: " + ", ".join(f"{name} {count}" for name, count in
                                                                  sorted(explained.items())))
        total = len(self.hands)
        good = sum(h.status == "ok" for h in self.hands)
        bad = sum(h.status in ("mismatch", "error") for h in self.hands)
        skipped = sum(h.status == "unsupported" for h in self.hands)
        out.append(f"total: {total} hands: {good} reproduced, {total - good - bad - skipped} replayed without "
                   f"finishing stacks, {skipped} unsupported variant, {bad} failed")
        return out


#: How sites record a hand differently from the engine's plain result, each checked by replaying the
#: hand under it (:func:`check_hand`), in the order tried (fewest changes first).
CONVENTIONS: dict[str, str] = {
    "rake inferred": "the site took a rake the file does not state: the difference between the engine's "
                     "total and the file's, taken from the pots (main pot first) before they are awarded; at most "
                     "a fifth of the pot (rooms post at most a tenth, some add a fixed bad-beat jackpot drop), "
                     "and none in a flop game that saw no flop (no flop, no drop)",
    "uncalled bet counted as won": "the file's winnings count the uncalled bet returned to its owner as won "
                                   "(only for ``winnings``; stacks are the same either way)",
    "in cents": "the site counts the file's currency in cents, finer than the file's amounts need: a rake "
                "or a split pot's share is a number of cents (the hand replayed with 100 chips to the unit)",
}


def _winnings(result: ReplayResult, uncalled: bool) -> list[int]:
    """Chips each player took from the pots (with ``uncalled``, also the bets returned to them)."""
    awarded = [0] * len(result.stacks)
    for e in result.game.events:
        if isinstance(e, PotAwarded):
            for seat, chips in zip(e.winners, e.amounts, strict=True):
                awarded[seat] += chips
        elif uncalled and isinstance(e, BetReturned):
            awarded[e.seat] += e.amount
    return awarded


def _raked(result: ReplayResult) -> int:
    return sum([e.amount for e in result.game.events if isinstance(e, RakeTaken)])


def _saw_a_flop(result: ReplayResult) -> bool:
    """Whether a board card was dealt in the replayed hand."""
    return any(isinstance(e, BoardDealt) for e in result.game.events)


def _engine_chips(result: ReplayResult, what: str, uncalled: bool) -> list[int | None]:
    """The engine's stacks (``None``: unknown, ``inf``) or winnings, in chips."""
    if what == "winnings":
        return list(_winnings(result, uncalled))
    chips = {p.seat: p.stack for p in result.game.table.players()}
    return [None if math.isinf(s) else chips[i] for i, s in enumerate(result.stacks)]


def _units_text(chips: int, scale: int) -> str:
    return f"{float(Fraction(chips, scale)):g}"


def check_hand(hh: HandHistory, path: str, index: int) -> HandCheck:
    """Replay one hand and compare its stacks with ``finishing_stacks`` (or its ``winnings``), one chip
    of tolerance (a split pot's odd chip). When the file differs from the engine's plain result (with
    the file's ``rake`` taken), each convention of :data:`CONVENTIONS` and each combination of them is
    tried by replaying the hand under it; the hand is ``ok`` naming the one that reproduces the file
    (``convention: rake inferred 1.35``), else a ``mismatch`` listing what was tried."""
    if hh.variant not in SUPPORTED_CODES:
        return HandCheck(path, index, hh.variant, "unsupported", f"variant {hh.variant} is not replayed yet")
    source = f"{path}: hand {index}"
    try:
        result = replay(hh, source=source)
    except (CardgameError, ArithmeticError, ValueError) as exc:  # this hand's error; the others go on
        return HandCheck(path, index, hh.variant, "error", str(exc))
    if hh.finishing_stacks is None and hh.winnings is None:
        return HandCheck(path, index, hh.variant, "unchecked", "no finishing_stacks")
    if not result.complete:
        return HandCheck(path, index, hh.variant, "mismatch", "the actions end before the hand does")
    what, expected = ("stacks", list(hh.finishing_stacks)) if hh.finishing_stacks is not None else (
        "winnings", list(hh.winnings or ()))
    if len(expected) != len(result.stacks):
        return HandCheck(path, index, hh.variant, "mismatch",
                         f"{len(expected)} {what} for {len(result.stacks)} players")

    def engine(r: ReplayResult, uncalled: bool) -> list[float]:
        if what == "stacks":
            return list(r.stacks)
        return [float(Fraction(w, r.scale)) for w in _winnings(r, uncalled)]

    def matches(r: ReplayResult, uncalled: bool) -> bool:
        tolerance = 1 / r.scale + 1e-9  # one chip of the file's smallest unit (split pots' odd chips)
        return all(math.isinf(float(g)) or abs(float(g) - float(e)) <= tolerance
                   for e, g in zip(expected, engine(r, uncalled), strict=True))

    if what == "winnings" and not any(expected):
        return HandCheck(path, index, hh.variant, "unchecked", "winnings are all 0: the file records no winner")
    stated = stated_rake(hh)
    plain = engine(result, False)
    if matches(result, False):
        return HandCheck(path, index, hh.variant, "ok", f"rake {stated:g} (the file's)" if stated else "")
    tried = ["as recorded" + (f" (rake {stated:g})" if stated else "")]
    uncalled_options = (False, True) if what == "winnings" else (False,)
    for cents in (False, True) if result.scale < 100 else (False,):
        base = result
        if cents:
            try:
                base = replay(hh, source=source, scale=100)
            except (CardgameError, ArithmeticError, ValueError):
                continue
        for uncalled in uncalled_options:
            names = [*(["uncalled bet counted as won"] if uncalled else []), *(["in cents"] if cents else [])]
            if names and matches(base, uncalled):
                return HandCheck(path, index, hh.variant, "ok", f"convention: {', '.join(names)}")
            if names:
                tried.append(", ".join(names))
            # the rake the site took: what the engine awards beyond the file's amounts, in chips
            chips = _raked(base) + sum(g - Fraction(str(e)) * base.scale for e, g in
                                       zip(expected, _engine_chips(base, what, uncalled), strict=True)
                                       if g is not None and not math.isinf(float(e)))
            pot = sum(_winnings(base, False)) + _raked(base)
            if chips.denominator != 1 or not 0 < 5 * chips <= pot or (hh.variant in _BOARD_GAMES
                                                                         and not _saw_a_flop(base)):
                continue
            rake = int(chips)
            label_ = ", ".join(["rake inferred " + _units_text(rake, base.scale), *names])
            tried.append(label_)
            try:
                raked = replay(hh, source=source, scale=base.scale if cents else None,
                               configure=functools.partial(_set_rake, chips=rake))
            except (CardgameError, ArithmeticError, ValueError):
                continue
            if raked.complete and matches(raked, uncalled):
                return HandCheck(path, index, hh.variant, "ok", f"convention: {label_}")
    return HandCheck(path, index, hh.variant, "mismatch",
                     f"{what}: expected {expected}, engine {plain}; tried: {'; '.join(tried)}")


def _set_rake(stages: Stages, chips: int) -> None:
    for stage in stages:
        if isinstance(stage, Showdown):
            stage.rake = FixedRake(chips)


def check_paths(paths: Iterable[str | Path]) -> CheckReport:
    """Replay every hand in ``paths`` (files or folders) and report what reproduced. A bad hand is
    that hand's error, and an unreadable file that file's: the others go on. A missing path raises
    :class:`~cardgame.model.errors.HandHistoryError` (a bad command line)."""
    results: list[HandCheck] = []
    for path in iter_paths(paths):
        for i, hh in enumerate(load_each(path)):
            if isinstance(hh, HandHistoryError):
                results.append(HandCheck(str(path), i, "?", "error", str(hh)))
            else:
                results.append(check_hand(hh, str(path), i))
    return CheckReport(tuple(results))
