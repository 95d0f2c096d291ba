"""Differential harness: our engine against PokerKit, hand by hand, in both directions.

* Direction ``A``: PokerKit plays a random hand (random legal actions, random discards, random
  mucks), writes it as PHH, and :func:`cardgame.phh.replay.replay` plays it through our engine;
  the final stacks must be PokerKit's.
* Direction ``B``: our engine plays a random hand, :mod:`cardgame.phh.export` writes it as PHH,
  and PokerKit replays it action by action (strictly: no repairs); every action must be legal
  there and the final stacks the same.

Tables are random per hand: 2 to 9 players (stud: 6, so the deck never runs out), very short
and deep stacks, antes, big-blind antes and straddles in no-limit hold'em, bring-ins in stud.
Every hand is named by ``(variant, direction, seed)`` and replays alone with :func:`run_hand`.

A disagreement is *explained* only when it is checked: :data:`DEVIATIONS` lists the rules where
PokerKit 0.7.7 and the rulebooks (Robert's Rules of Poker, the TDA rules) part, each with the
engine option that plays PokerKit's rule; the same hand replayed on our engine with that option
set (alone, or with at most two others) must reproduce PokerKit's result: its final stacks, or
its refusal of the same action. Anything else is *open* and fails the test.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import attrs

from cardgame.engine import Stage
from cardgame.model.errors import CardgameError, HandHistoryError
from cardgame.model.legal import matchable
from cardgame.phh import dumps, loads
from cardgame.phh.actions import (
    CheckCallAction,
    CompleteBetRaiseAction,
    FoldAction,
    PostBringInAction,
    StandPatDiscardAction,
)
from cardgame.phh.export import hand_to_phh
from cardgame.phh.games import POKERKIT, stages_for
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.stages import BettingRound, BringIn, ForcedBets, Showdown

__all__ = ["CODES", "DEVIATIONS", "Deviation", "Outcome", "run_hand", "run_many"]

CODES = ("NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
FIXED = frozenset({"FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"})
STUD = frozenset({"F7S", "F7S/8", "FR"})
DRAW = frozenset({"N2L1D", "F2L3D", "FB"})
# Stud is dealt up to 8-handed: with 8 live on seventh street both engines deal one community card
# (Robert's Rules); hands where PokerKit's burns make its deck run short differently are not compared
# (see :func:`deck_runs_short_differently`).
MAX_PLAYERS = {"NT": 9, "FT": 9, "NS": 6, "PO": 9, "FO/8": 9, "F7S": 8, "F7S/8": 8, "FR": 8,
               "N2L1D": 6, "F2L3D": 6, "FB": 6}


# --- tables ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One hand's PHH fields (per player from the button's left)."""

    code: str
    stacks: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0
    trim: bool = True  # PHH's ante_trimming_status
    stay: bool = False  # players seldom fold: a stud table of 7 or 8 runs the deck short on seventh street

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"variant": self.code, "antes": list(self.antes), "ante_trimming_status": self.trim,
                               "starting_stacks": list(self.stacks)}
        if self.code in STUD:
            out["bring_in"] = self.bring_in
        else:
            out["blinds_or_straddles"] = list(self.blinds)
        if self.code in FIXED:
            out["small_bet"], out["big_bet"] = self.small_bet, self.big_bet
        else:
            out["min_bet"] = self.min_bet
        return out


def random_table(code: str, rng: random.Random) -> Table:
    """A random table for ``code``: size, stacks (some very short) and forced bets."""
    table = _random_table(code, rng)
    if table.blinds and rng.random() < 0.9:  # mostly blinds that are not short: those hands get compared
        order = [1, 0] if len(table.stacks) == 2 else list(range(len(table.stacks)))
        stacks = list(table.stacks)
        for pos, blind in enumerate(table.blinds):
            seat = order[pos] if pos < 2 else pos
            stacks[seat] = max(stacks[seat], blind + table.antes[seat] + 1)
        table = Table(**{**table.__dict__, "stacks": tuple(stacks)})
    bba = len(table.antes) > 1 and table.antes[1] and not any(a for i, a in enumerate(table.antes) if i != 1)
    # Uniform antes are trimmed (every real file in tests/data/phh says so); PokerKit needs a big-blind
    # ante untrimmed. PokerKit's untrimmed uniform antes are not compared (see DEVIATIONS' note).
    stay = table.code in STUD and len(table.stacks) >= 7 and rng.random() < 0.5
    return Table(**{**table.__dict__, "trim": not bba, "stay": stay})


def _random_table(code: str, rng: random.Random) -> Table:
    n = rng.randint(2, MAX_PLAYERS[code])
    big = 2 if code not in STUD else 4
    stacks = tuple(rng.randint(1, 4 * big) if rng.random() < 0.3 else rng.randint(10 * big, 150 * big)
                   for _ in range(n))
    antes = [0] * n
    blinds: list[int] = []
    style = rng.random()
    if code in STUD:
        ante = rng.choice((0, 1, 1, 2))
        antes = [ante] * n
        return Table(code, stacks, tuple(antes), (), bring_in=rng.choice((1, 2)), small_bet=4, big_bet=8)
    if code == "NS":
        ante = rng.choice((1, 2))
        antes = [ante] * n
        blinds = [0] * n
        blinds[-1 if n > 2 else 0] = 2  # the button blind (heads-up the button is p2, blind order first)
        return Table(code, stacks, tuple(antes), tuple(blinds), min_bet=2)
    blinds = [1, 2] + [0] * (n - 2)
    if code == "NT" and n >= 3 and style < 0.15:
        blinds[2] = 4  # a straddle
    if style > 0.8:
        antes = [rng.choice((1, 2))] * n
    elif code == "NT" and 0.6 < style <= 0.8:
        antes[1] = rng.choice((2, 3))  # a big-blind ante
    if code in FIXED:
        return Table(code, stacks, tuple(antes), tuple(blinds), small_bet=2, big_bet=4)
    return Table(code, stacks, tuple(antes), tuple(blinds), min_bet=2)


# --- outcomes and conventions ------------------------------------------------------------------------


@dataclass
class Outcome:
    """One compared hand: ``status`` is ``agree``, ``explained`` (replayed under ``explained_by``,
    our engine reproduces PokerKit's result), ``open`` (a disagreement no convention reproduces:
    a bug, or a convention still missing), ``error`` (PokerKit could not play its own hand) or
    ``uncompared`` (a stud deck that runs short differently: :func:`deck_runs_short_differently`)."""

    code: str
    direction: str
    seed: int
    status: str = "agree"
    detail: str = ""
    phh: str = ""
    explained_by: tuple[str, ...] = ()
    alternatives: tuple[tuple[str, ...], ...] = ()

    @property
    def deviation(self) -> str:
        """The conventions that explain the hand, joined by ``+``, and ``|`` before each other set
        that explains it as well ("" unless explained)."""
        return " | ".join("+".join(ids) for ids in (self.explained_by, *self.alternatives) if ids)

    def repro(self) -> str:
        return (f"[{self.code} {self.direction} seed={self.seed}] {self.status}: {self.detail}\n"
                f"replay: run_hand({self.code!r}, {self.direction!r}, {self.seed})\n{self.phh}")


@dataclass(frozen=True)
class Deviation:
    """A rule where PokerKit 0.7.7 differs from the rulebook we follow, and the engine option that
    plays PokerKit's rule: a betting option (``betting``, by name, given to ``stages_for``; the
    ids' options are :data:`cardgame.phh.games.POKERKIT`), or ``apply``, which sets a stage option
    on a stage list and says whether anything changed."""

    id: str
    variants: frozenset[str]
    ours: str
    pokerkit: str
    source: str
    option: str
    apply: Callable[[Sequence[Stage]], bool] | None = None

    @property
    def betting(self) -> Mapping[str, bool]:
        return POKERKIT.get(self.id, {})


def _set(kind: type[Stage], name: str, value: Any, when: Callable[[Any], bool] = lambda _: True
         ) -> Callable[[Sequence[Stage]], bool]:
    """A convention that sets ``name`` to ``value`` on every ``kind`` stage (for which ``when`` holds)."""

    def apply(stages: Sequence[Stage]) -> bool:
        changed = False
        for stage in stages:
            if isinstance(stage, kind) and when(stage) and getattr(stage, name) != value:
                setattr(stage, name, value)
                changed = True
        return changed

    return apply


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "short-blind", frozenset(CODES) - STUD,
        "a blind short by its stack or all-in on the ante: the others call the full blind",
        "the others call the amount posted",
        "TDA (others call the full blind); docs/rules.md, short blind",
        'ForcedBets(short_blind="posted")', _set(ForcedBets, "short_blind", "posted"),
    ),
    Deviation(
        "big-blind-ante", frozenset({"NT", "NS", "PO", "FT", "FO/8"}),
        "posted after the blind, dead money in the main pot (TDA 2024)",
        "posted first, before the blinds (TDA 2019's order)",
        "TDA 2024 big-blind ante",
        "ForcedBets(big_blind_ante_first=True)",
        _set(ForcedBets, "big_blind_ante_first", True, lambda s: s.big_blind_ante),
    ),
    Deviation(
        "limit-short-all-in", FIXED,
        "an all-in wager of half a bet or more over the last full bet (several all-ins adding up) is a full"
        " bet and reopens the betting; under half may be called or completed to a full bet",
        "a short all-in never reopens the betting; the next raise is the largest increment over the all-in",
        "Robert's Rules, betting and raising, rule 6 (limit all-ins)",
        "FixedLimit(full_bet_rule=True)",
    ),
    Deviation(
        "short-all-in-over-the-blind", frozenset(CODES),
        "an all-in raise short of a full raise over the blind (stud: over the bring-in, or short of the"
        " completion) does not reopen the betting to players who already acted",
        "the blind or bring-in is not a raise: the round's first bet or raise is full whatever its size and"
        " reopens the betting",
        "TDA (short all-ins do not reopen); Robert's Rules, no-limit rule 3 and betting and raising, rule 6",
        "NoLimit/PotLimit/FixedLimit(first_raise_reopens=True)",
    ),
    Deviation(
        "stud-open-pair", frozenset({"F7S"}),
        "an open pair on fourth street allows the big bet (or an all-in up to it)",
        "small bets only on fourth street",
        "Robert's Rules, seven-card stud, rule 7",
        "BettingRound(open_pair_doubles=False)", _set(BettingRound, "open_pair_doubles", False),
    ),
    Deviation(
        "stud-bring-in-all-in", STUD,
        "the next lowest card (razz: highest) brings in",
        "the player after the all-in one acts first",
        "Robert's Rules, seven-card stud; docs/rules.md, stud bring-in",
        'BringIn(all_in_passes="seat")', _set(BringIn, "all_in_passes", "seat"),
    ),
    Deviation(
        "hi-lo-no-low-side-pot", frozenset({"F7S/8", "FO/8"}),
        "a pot no eligible hand qualifies for low goes whole to its best high hand",
        "when a low qualifies in another pot, the low half of such a pot is split among its players",
        "Robert's Rules, high-low split games",
        'Showdown(no_low="split")', _set(Showdown, "no_low", "split", lambda s: s.low is not None),
    ),
    Deviation(
        "limit-cap", frozenset(FIXED),
        "a bet and three raises, the big blind being the bet pre-flop; short all-ins under half a bet are no raise",
        "four raises after the blind pre-flop; the cap counts bets, raises, completions and short all-ins (stud:"
        " a completion and three raises or all-ins of any size)",
        "Robert's Rules, betting and raising, rules 3-4",
        "FixedLimit(cap_counts_blind=False)",
    ),
    Deviation(
        "heads-up-cap", frozenset(FIXED),
        "raising is unlimited once only two players who are not all-in contest the pot, unless capped before",
        "the cap holds heads-up too",
        "Robert's Rules, betting and raising, rule 4",
        "FixedLimit(heads_up_uncapped=False)",
    ),
    Deviation(
        "straddle-min-raise", frozenset({"NT"}),
        "a straddle sets the minimum raise: raise by at least the straddle",
        "raise by at least the minimum bet over the straddle",
        "Robert's Rules, no-limit rule 2 (a straddle sets a new minimum bring-in)",
        "NoLimit/PotLimit(straddle_sets_min_raise=False)",
    ),
    Deviation(
        "raise-to-match", frozenset(CODES),
        "a raise to all the largest opponent can match is legal below the full raise",
        "refused below the minimum raise",
        "real hand histories; docs/rules.md, a raise nobody can call",
        "NoLimit/PotLimit/FixedLimit(raise_to_match=False)",
    ),
    Deviation(
        "odd-chips-one-each", frozenset(CODES),
        "odd chips one at a time to the winners in order from the button's left; nobody gets more than one",
        "every odd chip to the first winner",
        "Robert's Rules, ties (no player may receive more than one odd chip)",
        "Showdown(one_odd_chip_each=False)", _set(Showdown, "one_odd_chip_each", False),
    ),
    Deviation(
        "pots-split-separately", frozenset(CODES),
        "each pot is split on its own, its odd chip given by the odd-chip rule",
        "after the hands that win nothing are set aside, pots with the same remaining players are merged,"
        " then split",
        "Robert's Rules, ties (side pots and the main pot are split separately, not mixed together)",
        "Showdown(merge_pots=True)", _set(Showdown, "merge_pots", True),
    ),
    Deviation(
        "stud-odd-chip", STUD,
        "to the highest card by suit (razz, low half: lowest)",
        "to the first winner in seat order from the button's left",
        "Robert's Rules, ties",
        'Showdown(odd_chips="position")', _set(Showdown, "odd_chips", "position"),
    ),
)

#: The most conventions tried together on one hand.
MAX_TOGETHER = 3


def _options(deviations: Sequence[Deviation]) -> dict[str, Any]:
    """Our replay's keyword arguments that set ``deviations``: betting options by name
    (``conventions``) and a ``configure`` call for the other stages' options."""
    betting: dict[str, bool] = {}
    for d in deviations:
        betting.update(d.betting)

    def configure(stages: Sequence[Stage]) -> object:
        return [d.apply(stages) for d in deviations if d.apply is not None]

    return {"conventions": betting, "configure": configure}


def _changes(d: Deviation, hh: HandHistory) -> bool:
    """Whether ``d`` changes any stage of the list that plays ``hh`` (else it cannot explain it)."""
    if d.apply is not None:
        return d.apply(_stages_of(hh))
    before = [s.structure for s in _stages_of(hh) if isinstance(s, BettingRound)]
    after = [s.structure for s in _stages_of(hh, d.betting) if isinstance(s, BettingRound)]
    return before != after


def _explain(out: Outcome, reproduces: Callable[[Sequence[Deviation]], bool], hh: HandHistory) -> Outcome:
    """Mark ``out`` explained by the fewest conventions under which ``reproduces`` holds (our
    engine set to them gives PokerKit's result), else open. A convention that changes none of
    the stages playing ``hh`` is not tried."""
    candidates = [d for d in DEVIATIONS if out.code in d.variants and _changes(d, hh)]
    for size in range(1, MAX_TOGETHER + 1):
        found = [tuple(d.id for d in combo) for combo in combinations(candidates, size) if reproduces(combo)]
        if found:
            out.status, out.explained_by, out.alternatives = "explained", found[0], tuple(found[1:])
            return out
    out.status = "open"
    return out


# --- PokerKit side -----------------------------------------------------------------------------------


def _pokerkit() -> Any:
    import pokerkit

    return pokerkit


@functools.cache
def _pk_notation() -> Any:
    """PokerKit's ``HandHistory`` with FO/8 played fixed-limit: 0.7.7's
    ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` mixes in ``PotLimitPokerMixin`` (a bug; the
    PHH variant table has FO/8 fixed-limit), so the harness puts ``FixedLimitPokerMixin`` first."""
    pk = _pokerkit()
    broken = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter
    fixed = type(broken.__name__, (pk.games.FixedLimitPokerMixin, broken), {"__doc__": broken.__doc__})
    game_types = {**pk.HandHistory.game_types, "FO/8": fixed}
    variants = {cls: code for code, cls in game_types.items()}
    return type("HandHistory", (pk.HandHistory,), {"game_types": game_types, "variants": variants})


def _pk_history(text: str) -> Any:
    return _pk_notation().loads(text)


def _pk_replay(text: str) -> tuple[list[int] | None, str, Any]:
    """Replay PHH ``text`` in PokerKit strictly: (final stacks or None, the failure, the last state)."""
    pk = _pokerkit()
    hh = _pk_history(text)
    state = hh.create_state()
    for i, action in enumerate(hh.actions):
        while state.can_burn_card():
            state.burn_card("??")
        if _lone_check_due(state, action):
            state.check_or_call()  # PHH convention: a check that is the only action may be omitted
        try:
            pk.notation.parse_action(state, action, hh.parse_value)
        except AssertionError as exc:  # PokerKit's own invariant broke: its bug, not a verdict on the hand
            return None, f"PokerKit crashed at actions[{i}] {action!r}: AssertionError {exc}", state
        except (ValueError, UserWarning) as exc:
            return None, f"PokerKit refuses actions[{i}] {action!r}: {exc}", state
    for _ in range(200):
        if not state.status:
            break
        if _lone_check_due(state, ""):
            state.check_or_call()
        elif state.can_burn_card():
            state.burn_card("??")
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
        else:
            return None, "PokerKit: the hand is not over after the last action", state
    return list(state.stacks), "", state


def _lone_check_due(state: Any, action: str) -> bool:
    """PokerKit asks a player to act who can only check (everyone else is all-in or folded), and
    the next action is not theirs: our engine does not ask for that check (a convention, not a rule)."""
    actor = state.actor_index
    if actor is None or state.checking_or_calling_amount or state.can_complete_bet_or_raise_to():
        return False
    words = action.split()
    return not (len(words) >= 2 and words[0] == f"p{actor + 1}" and words[1] in ("cc", "cbr", "f", "pb"))


def _pk_play(table: Table, rng: random.Random) -> tuple[str, list[int]]:
    """PokerKit plays one random hand; returns its PHH text and final stacks."""
    pk = _pokerkit()
    A = pk.Automation
    automations = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING, A.HOLE_DEALING,
                   A.BOARD_DEALING, A.RUNOUT_COUNT_SELECTION, A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING)
    cls = _pk_notation().game_types[table.code]
    fields = table.fields()  # the same PHH fields our side reads, in PokerKit's argument names
    del fields["variant"], fields["starting_stacks"]
    kwargs = {("raw_" + k if k in ("antes", "blinds_or_straddles") else k): v for k, v in fields.items()}
    game = cls(automations=automations, mode=pk.Mode.CASH_GAME, **kwargs)
    random.seed(rng.random())  # PokerKit shuffles with the random module
    state = game(list(table.stacks), len(table.stacks))
    shown: set[int] = set()
    for _ in range(2000):
        if not state.status:
            break
        if state.can_stand_pat_or_discard():
            hole = list(state.hole_cards[state.stand_patter_or_discarder_index])
            rng.shuffle(hole)
            state.stand_pat_or_discard(hole[: rng.randint(0, len(hole))])
        elif state.can_show_or_muck_hole_cards():
            seat = state.showdown_index
            show = rng.random() > 0.1 or not _may_muck(state, seat, shown)
            state.show_or_muck_hole_cards(show)
            if show:
                shown.add(seat)
        elif state.actor_index is not None:
            _pk_act(state, rng, table.code in FIXED - STUD, table.stay)
        elif state.can_select_runout_count():
            state.select_runout_count(1)
        else:
            break
    hh = _pk_notation().from_game_state(game, state)
    hh.ante_trimming_status = table.trim  # from_game_state leaves it at its default (false)
    return hh.dumps(), list(state.stacks)


def _may_muck(state: Any, seat: int, shown: set[int]) -> bool:
    """Whether ``seat`` may muck: every pot it contests has a hand already shown. PokerKit burns a
    pot that only mucked hands contest (its chips disappear); we keep chips, so such a muck is
    never made (docs/rules.md, PokerKit deviations). Nor is the muck that would leave one hand:
    PokerKit 0.7.7 then fails its own assertions (``get_effective_stack``, ``push_chips``)."""
    return sum(state.statuses) > 2 and all(any(i in shown for i in pot.player_indices if i != seat)
               for pot in state.pots if seat in pot.player_indices)


def _street_raises(state: Any) -> int:
    """Completions, bets and raises so far on PokerKit's current street."""
    return int(state.completion_betting_or_raising_count)


def _pk_act(state: Any, rng: random.Random, limit_blinds: bool = False, stay: bool = False) -> None:
    """One random legal action (with ``stay``, seldom a fold)."""
    options: list[Callable[[], Any]] = []
    if state.can_post_bring_in():
        options.append(state.post_bring_in)
    # no free folds (PokerKit warns; we accept)
    if state.checking_or_calling_amount and state.can_fold() and _may_fold(rng, stay):
        options.append(state.fold)
    if state.can_check_or_call():
        options.append(state.check_or_call)
    # Mostly stay inside our pre-flop cap in limit blind games (a bet and three raises; PokerKit
    # allows four raises after the blind), so that most hands are compared rather than explained.
    capped = limit_blinds and state.street_index == 0 and _street_raises(state) >= 3 and rng.random() < 0.9
    if state.can_complete_bet_or_raise_to() and not capped:
        lo = state.min_completion_betting_or_raising_to_amount
        hi = state.max_completion_betting_or_raising_to_amount
        options.append(lambda: state.complete_bet_or_raise_to(lo))
        options.append(lambda: state.complete_bet_or_raise_to(hi))
        if hi > lo + 1:
            mid = rng.randint(lo, hi)
            options.append(lambda: state.complete_bet_or_raise_to(mid))
    rng.choice(options)()


def _may_fold(rng: random.Random, stay: bool) -> bool:
    """Whether a fold is among the random choices: always, or one time in thirty at a ``stay`` table."""
    return not stay or rng.random() < 1 / 30


# --- our side ----------------------------------------------------------------------------------------


def _our_history(table: Table) -> HandHistory:
    return HandHistory(**table.fields(), actions=())


def _our_play(table: Table, seed: int, rng: random.Random) -> Game:
    """Our engine plays one random hand at ``table`` (the button is the last seat)."""
    stages = stages_for(_our_history(table), lambda v: int(v or 0), _hole_cards(table.code))
    n = len(table.stacks)
    game = Game(stages, seats=n, first_button=n - 1, seed=seed, max_hands=1)
    for seat, stack in enumerate(table.stacks):
        game.sit_down(f"p{seat + 1}", stack, seat)
    game.start()
    for _ in range(2000):
        if game.status_name != "running" or game.to_act is None:
            break
        options = game.draw_options()
        if options is not None:
            cards = list(options.hole)
            rng.shuffle(cards)
            game.draw(options.seat, cards[: rng.randint(0, options.max_discards)])
            continue
        la = game.legal_actions()
        assert la is not None
        choices: list[tuple[str, int | None]] = []
        if la.bring_in:
            choices.append(("bring_in", None))
        if la.can_fold and _may_fold(rng, table.stay):
            choices.append(("fold", None))
        if not la.bring_in:
            choices.append(("call", None) if la.call_amount else ("check", None))
        if la.can_raise:
            word = "bet" if la.is_bet else "raise"
            sizes = list(la.amounts) or sorted({la.min_raise_to, la.max_raise_to,
                                                rng.randint(la.min_raise_to, la.max_raise_to)})
            hand = game.hand
            assert hand is not None
            hp = hand.by_seat[la.seat]
            match = matchable(hand, hp)
            if la.min_raise_to == match < la.max_raise_to and rng.random() < 0.9:  # mostly not a raise to
                sizes = [s for s in sizes if s != match] or sizes  # what can be matched (PokerKit refuses it)
                if not la.amounts:
                    sizes = [la.max_raise_to]
            choices.extend((word, s) for s in sizes)
        action, amount = rng.choice(choices)
        game.act(la.seat, action, amount)
    return game


SHORT_DECK = ("a stud deck that runs short: PokerKit counts the muck as dealable and burns before each later"
              " street, so it deals a community card on another street than we do, or redeals a folded card:"
              " not compared")
_ACTION = re.compile(r"[\"']((?:d d[hb]|p\d+) [^\"']*)[\"']")
_DEAL = re.compile(r"d d([hb]) (?:p(\d+) )?(\S+)")
_FOLD = re.compile(r"p(\d+) (?:f|sm)$")  # a fold, or a muck at an all-in showdown: no more cards


def deck_runs_short_differently(code: str, text: str, players: int, muck: bool = True) -> bool:
    """Whether stud hand ``text`` (PHH) runs its deck short differently in PokerKit 0.7.7 and ours.

    Both deal one community card instead of a street's cards when too few are left for every live
    player (Robert's Rules, seven-card stud). We count the deck's cards; PokerKit counts the deck
    and the muck (burned and folded cards), so with folds it may deal the street from the muck
    where we deal a community card. With ``muck``, also a hand where PokerKit draws on a muck
    holding folded cards (or a hand mucked at an all-in showdown), which may repeat them in its PHH.
    """
    if code not in STUD:
        return False
    dealt = burns = board = 0
    held: dict[str, int] = {}
    folded: set[str] = set()
    street: set[str] | None = None  # who was dealt on the street being dealt (None: between streets)
    for action in _ACTION.findall(text.split("actions", 1)[-1]):
        deal = _DEAL.match(action)
        # a later street begins: after other actions, or (an all-in run-out) a second card to a player
        if deal and dealt and (street is None or deal.group(1) == "b" or deal.group(2) in street):
            street = set()
            live = players - len(folded)
            ours = 52 - dealt < live
            theirs = 52 - sum(n for p, n in held.items() if p not in folded) - board < live
            if ours != theirs or (muck and folded and 52 - dealt - burns - 1 < (1 if theirs else live)):
                return True
            burns += 1
        if deal:
            cards = len(deal.group(3)) // 2
            dealt += cards
            if deal.group(1) == "b":
                board += cards
            else:
                held[deal.group(2)] = held.get(deal.group(2), 0) + cards
                street = (street or set()) | {deal.group(2)}
        else:
            street = None
        fold = _FOLD.match(action)
        if fold:
            folded.add(fold.group(1))
    return False


# --- one hand --------------------------------------------------------------------------------------------


def run_hand(code: str, direction: str, seed: int) -> Outcome:
    """Play and compare one hand; explain a disagreement only by a convention that reproduces it."""
    rng = random.Random(f"{code}/{direction}/{seed}")
    table = random_table(code, rng)
    out = Outcome(code, direction, seed)
    if direction == "A":
        return _run_a(out, table, rng)
    return _run_b(out, table, seed, rng)


def _run_a(out: Outcome, table: Table, rng: random.Random) -> Outcome:
    """PokerKit plays; our replay of its PHH must end with its stacks (under a convention, if any)."""
    try:
        text, pk_stacks = _pk_play(table, rng)
    except Exception as exc:  # PokerKit itself failed to play: not a comparison
        out.status, out.detail = "error", f"PokerKit could not play: {type(exc).__name__}: {exc}"
        return out
    out.phh = text
    if deck_runs_short_differently(table.code, text, len(table.stacks)):
        out.status, out.detail = "uncompared", SHORT_DECK
        return out
    try:
        [hh] = loads(text)
    except HandHistoryError as exc:
        out.status, out.detail = "open", f"our reader refuses PokerKit's PHH: {exc}"
        return out
    if sum(pk_stacks) != sum(table.stacks):  # the harness never makes a muck that burns a pot
        out.status, out.detail = "open", f"PokerKit burned {sum(table.stacks) - sum(pk_stacks)} chips"
        return out
    ours, failure = _our_replay(hh, ())
    if ours == pk_stacks:
        return out
    out.detail = f"our replay refuses: {failure}" if ours is None else f"stacks: ours {ours}, PokerKit {pk_stacks}"
    return _explain(out, lambda conventions: _our_replay(hh, conventions)[0] == pk_stacks, hh)


def _run_b(out: Outcome, table: Table, seed: int, rng: random.Random) -> Outcome:
    """We play; PokerKit's strict replay of our PHH must accept every action and end with our stacks.
    A disagreement is explained when our replay of the same PHH under a convention refuses the
    action PokerKit refuses, or ends with PokerKit's stacks."""
    game = _our_play(table, seed, rng)
    hh = hand_to_phh(game.events, game.dispatcher.stages)
    out.phh = text = dumps(hh)
    if deck_runs_short_differently(table.code, text, len(table.stacks), muck=False):
        out.status, out.detail = "uncompared", SHORT_DECK
        return out
    ours = [int(s) for s in hh.finishing_stacks or ()]
    [again] = loads(text)
    replayed, failure = _our_replay(again, ())
    if replayed != ours:  # our own export and replay must agree before PokerKit is asked
        out.status, out.detail = "open", f"our replay of our own hand: {failure or replayed}, played {ours}"
        return out
    pk_stacks, failure, _ = _pk_replay(text)
    if failure.startswith("PokerKit crashed"):
        out.status, out.detail = "error", failure
        return out
    if pk_stacks == ours:
        return out
    if pk_stacks is None:
        out.detail = failure
        refused = _index(failure)
        if refused is None:  # PokerKit wants more actions: the convention must leave the hand unfinished too
            return _explain(out, lambda conventions: _our_replay(again, conventions, complete=False)[0] == [], again)
        return _explain(out, lambda conventions: _refuses(again, conventions, refused), again)
    out.detail = f"stacks: ours {ours}, PokerKit {pk_stacks}"
    return _explain(out, lambda conventions: _our_replay(again, conventions)[0] == pk_stacks, again)


def _our_replay(hh: HandHistory, conventions: Sequence[Deviation], complete: bool = True
                ) -> tuple[list[int] | None, str]:
    """Our replay of ``hh`` with ``conventions`` set: (final stacks, "") or (None, the refusal).
    With ``complete=False``: ([], "") when the replay ends with the hand unfinished."""
    try:
        result = replay(hh, **_options(conventions))
    except CardgameError as exc:
        return None, str(exc)
    if not complete:
        return ([] if not result.complete else [int(s) for s in result.stacks]), ""
    return [int(s) for s in result.stacks], ""


def _refuses(hh: HandHistory, conventions: Sequence[Deviation], index: int) -> bool:
    """Whether our engine, set to ``conventions``, plays ``hh.actions[:index]`` and then refuses
    ``hh.actions[index]``: a player action out of turn or illegal, a draw nobody is due, a deal
    or show while a player is still to act."""
    try:
        result = replay(attrs.evolve(hh, actions=hh.actions[:index]), **_options(conventions))
    except CardgameError:
        return False  # refused before: not the same action
    game, a = result.game, hh.actions[index]
    if isinstance(a, StandPatDiscardAction):
        options = game.draw_options()
        return options is None or options.seat != a.player
    if not isinstance(a, (FoldAction, CheckCallAction, CompleteBetRaiseAction, PostBringInAction)):
        return game.to_act is not None
    if game.to_act != a.player or game.draw_options() is not None:
        return True
    word = {FoldAction: "fold", CheckCallAction: "check_call", CompleteBetRaiseAction: "bet_raise",
            PostBringInAction: "bring_in"}[type(a)]
    try:
        game.act(a.player, word, int(a.amount) if isinstance(a, CompleteBetRaiseAction) else None)
    except CardgameError:
        return True
    return False


def _stages_of(hh: HandHistory, betting: Mapping[str, bool] | None = None) -> Sequence[Stage]:
    """The stage list our replay of ``hh`` plays (built fresh), with ``betting`` options."""
    return stages_for(hh, lambda v: int(v or 0), _hole_cards(hh.variant), conventions=betting)


def _hole_cards(code: str) -> int:
    return 4 if code in ("PO", "FO/8") else 2


_ACTION_INDEX = re.compile(r"^PokerKit refuses actions\[(\d+)\]")


def _index(message: str) -> int | None:
    """The action index a refusal names (``actions[7]``), if any."""
    found = _ACTION_INDEX.search(message)
    return int(found.group(1)) if found else None


def run_many(codes: Iterable[str], directions: Iterable[str], hands: int, seed: int = 1
             ) -> dict[tuple[str, str], list[Outcome]]:
    """``hands`` hands per variant and direction, seeds ``seed * 1_000_000 + i``."""
    results: dict[tuple[str, str], list[Outcome]] = {}
    for code in codes:
        for direction in directions:
            results[(code, direction)] = [run_hand(code, direction, seed * 1_000_000 + i) for i in range(hands)]
    return results
