"""Differential harness: our engine against PokerKit, hand by hand, in both directions.

* Direction ``A``: PokerKit plays a random hand (random legal actions, random discards, random
  mucks), writes it as PHH, and :func:`cardgame.phh.replay.replay` plays it through our engine;
  the final stacks must be PokerKit's.
* Direction ``B``: our engine plays a random hand, :mod:`cardgame.phh.export` writes it as PHH,
  and PokerKit replays it action by action (strictly: no repairs); every action must be legal
  there and the final stacks the same.

Tables are random per hand: 2 to 9 players, very short and deep stacks, antes, big-blind antes
and straddles in no-limit hold'em, bring-ins in stud. Every hand is named by
``(variant, direction, seed)`` and replays alone with :func:`run_hand`.

A disagreement is *explained* when the hand shows a feature listed in :data:`DEVIATIONS`: a rule
where PokerKit and the rulebooks (Robert's Rules of Poker, the TDA rules) part, documented in
``docs/rules.md``. Anything else is *unexplained* and fails the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from cardgame.errors import CardgameError
from cardgame.events import ActionTaken, ForcedBetPosted, HoleCardsDealt, PotAwarded
from cardgame.game import Game
from cardgame.legal import matchable
from cardgame.phh import dumps, loads
from cardgame.phh.actions import DealHoleAction, ShowMuckAction
from cardgame.phh.export import hand_to_phh
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from variants.from_phh import stages_for

__all__ = ["CODES", "DEVIATIONS", "Deviation", "Outcome", "run_hand", "run_many"]

CODES = ("NT", "FT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
FIXED = frozenset({"FT", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "FB"})
STUD = frozenset({"F7S", "F7S/8", "FR"})
DRAW = frozenset({"N2L1D", "F2L3D", "FB"})
MAX_PLAYERS = {"NT": 9, "FT": 9, "NS": 6, "PO": 9, "FO/8": 9, "F7S": 7, "F7S/8": 7, "FR": 7,
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
    return Table(**{**table.__dict__, "trim": not bba})


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


# --- outcomes and deviations -------------------------------------------------------------------------


@dataclass
class Outcome:
    """One compared hand: ``status`` is ``agree``, ``explained`` (a documented deviation), ``open``
    (one of our known open bugs, :data:`OPEN`), ``disagree`` (unexplained) or ``error`` (PokerKit
    could not play its own hand)."""

    code: str
    direction: str
    seed: int
    status: str = "agree"
    detail: str = ""
    phh: str = ""
    features: set[str] = field(default_factory=set)
    deviation: str = ""

    def repro(self) -> str:
        return (f"[{self.code} {self.direction} seed={self.seed}] {self.status}: {self.detail}\n"
                f"features: {sorted(self.features)}\n{self.phh}")


@dataclass(frozen=True)
class Deviation:
    """A rule where PokerKit differs from the rulebook we follow; ``feature`` marks the hands it touches."""

    id: str
    feature: str
    variants: frozenset[str]
    ours: str
    pokerkit: str
    source: str


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        "short-blind", "short blind", frozenset(CODES),
        "a blind short by its stack or all-in on the ante: the others call the full blind",
        "the others call the amount posted",
        "TDA (others call the full blind); docs/rules.md, short blind",
    ),
    Deviation(
        "big-blind-ante", "big-blind ante with a side pot", frozenset({"NT", "NS", "PO", "FT", "FO/8"}),
        "posted after the blind, dead money in the main pot, never returned",
        "posted first, as the big blind's own contribution (a side pot of its own, returned when uncalled)",
        "TDA 2024 big-blind ante (big blind first)",
    ),
    Deviation(
        "limit-short-all-in", "limit all-in short of a full bet", FIXED,
        "an all-in of half a bet or more is a full bet and reopens the betting; under half may be called or"
        " completed to a full bet",
        "a short all-in never reopens the betting; the next raise is the largest increment over the all-in",
        "Robert's Rules, betting and raising, rule 6",
    ),
    Deviation(
        "short-all-in-over-the-blind", "short all-in raise over the blind", frozenset(CODES) - STUD,
        "an all-in raise of less than the big blind over it does not reopen the betting to players who called",
        "the blind is not a raise: the first raise of the round always reopens, whatever its size",
        "TDA (short all-ins do not reopen); Robert's Rules, no-limit rule 3",
    ),
    Deviation(
        "muck-uncontested-pot", "PokerKit burned chips", frozenset(CODES),
        "a hand mucked at showdown gives up only the pots another hand contests; a pot it alone can win"
        " (the others folded) stays its own",
        "the mucked hand is killed and a pot with no live hand left is burned (chips disappear, with a warning)",
        "Robert's Rules, showdown; chips are conserved",
    ),
    Deviation(
        "stud-open-pair", "stud open pair big bet", frozenset({"F7S"}),
        "an open pair on fourth street allows the big bet (or an all-in up to it)",
        "small bets only on fourth street",
        "Robert's Rules, seven-card stud, rule 7",
    ),
    Deviation(
        "stud-bring-in-all-in", "stud bring-in all-in on the ante", STUD,
        "the next lowest card (razz: highest) brings in",
        "the player after the all-in one acts first",
        "Robert's Rules, seven-card stud; docs/rules.md, stud bring-in",
    ),
    Deviation(
        "hi-lo-no-low-side-pot", "hi/lo side pot without a low", frozenset({"F7S/8", "FO/8"}),
        "a pot no eligible hand qualifies for low goes whole to its best high hand",
        "when a low qualifies in another pot, the low half of such a pot is split among its players",
        "Robert's Rules, high-low split games",
    ),
    Deviation(
        "limit-cap", "limit cap with a blind", frozenset(FIXED - STUD),
        "a bet and three raises, the big blind being the bet pre-flop",
        "four raises after the blind pre-flop",
        "Robert's Rules, betting and raising, rule 3",
    ),
    Deviation(
        "fo8-pot-limit", "PokerKit FO/8 bets pot-limit", frozenset({"FO/8"}),
        "fixed-limit Omaha hi/lo bets fixed sizes",
        "0.7.7's FixedLimitOmahaHoldemHighLowSplitEightOrBetter mixes in PotLimitPokerMixin (a bug); the harness"
        " has PokerKit raise only by fixed-limit sizes there",
        "PHH variant table (FO/8 is fixed-limit)",
    ),
    Deviation(
        "straddle-min-raise", "straddle", frozenset({"NT"}),
        "a straddle sets the minimum raise: raise by at least the straddle",
        "raise by at least the minimum bet over the straddle",
        "Robert's Rules, no-limit rule 2 (a straddle sets a new minimum bring-in)",
    ),
    Deviation(
        "raise-to-match", "raise to what an opponent can match", frozenset(CODES),
        "a raise to all the largest opponent can match is legal below the full raise",
        "refused below the minimum raise",
        "real hand histories; docs/rules.md, a raise nobody can call",
    ),
    Deviation(
        "stud-deck-exhaustion", "stud deck runs out", STUD,
        "too few cards for seventh street: one community card for everyone",
        "each player is dealt a card as long as there are cards, then from the muck",
        "Robert's Rules, seven-card stud (running out of cards)",
    ),
    Deviation(
        "odd-chips-one-each", "several odd chips", frozenset(CODES),
        "odd chips one at a time to the winners in order from the button's left; nobody gets more than one",
        "every odd chip to the first winner",
        "Robert's Rules, ties (no player may receive more than one odd chip)",
    ),
    Deviation(
        "pots-split-separately", "odd chips of pots with the same winners", frozenset(CODES),
        "each pot is split on its own, its odd chip given by the odd-chip rule",
        "after the losing hands are killed, pots with the same remaining players are merged, then split",
        "Robert's Rules, ties (side pots and the main pot are split separately, not mixed together)",
    ),
    Deviation(
        "stud-odd-chip", "odd chip in stud", STUD,
        "to the highest card by suit (razz, low half: lowest)",
        "every odd chip to the first winner in seat order from the button's left",
        "Robert's Rules, ties",
    ),
)


# --- PokerKit side -----------------------------------------------------------------------------------


def _pokerkit() -> Any:
    import pokerkit

    return pokerkit


def _pk_history(text: str) -> Any:
    return _pokerkit().HandHistory.loads(text)


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
            failure = f"PokerKit refuses actions[{i}] {action!r}: {exc}"
            if "below the minimum" in str(exc) and _raise_to_match(state, action):
                failure += " [raise to what an opponent can match]"
            return None, failure, state
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


def _pk_features(table: Table, text: str) -> set[str]:
    """Features of a PokerKit-written hand, read while PokerKit replays it (direction A)."""
    pk = _pokerkit()
    out: set[str] = set()
    hh = _pk_history(text)
    state = hh.create_state()
    for action in hh.actions:
        while state.can_burn_card():
            state.burn_card("??")
        words = action.split()
        if len(words) == 3 and words[1] == "cbr" and state.actor_index is not None:
            actor, to = state.actor_index, int(words[2])
            prev = max(state.bets)
            size = state.street.min_completion_betting_or_raising_amount
            if table.code in FIXED and to == state.stacks[actor] + state.bets[actor] and to - prev < size:
                out.add("limit all-in short of a full bet")
            raises = state.completion_betting_or_raising_count
            if (state.street_index == 0 and not raises and table.blinds and to - prev < max(table.blinds)
                    and to == state.stacks[actor] + state.bets[actor]):
                out.add("short all-in raise over the blind")
            if table.code in FIXED - STUD and state.street_index == 0 and raises >= 3:
                out.add("limit cap with a blind")
            if _raise_to_match(state, action):
                out.add("raise to what an opponent can match")
        try:
            pk.notation.parse_action(state, action, hh.parse_value)
        except (ValueError, UserWarning):
            break
    if table.code in STUD:
        [ours] = loads(text)
        mucked = [i for i, a in enumerate(ours.actions) if isinstance(a, ShowMuckAction) and a.mucks]
        if mucked and any(isinstance(a, DealHoleAction) for a in ours.actions[mucked[0]:]):
            out.add("muck before a stud run-out")
        dealt = sum(len(a.cards) for a in ours.actions if isinstance(a, DealHoleAction))
        if dealt + 5 > 52:  # PokerKit burns a card before every street
            out.add("stud deck runs out")
        seat = _lowest_up_card([(a.player, a.cards) for a in ours.actions if isinstance(a, DealHoleAction)],
                               table.code == "FR")
        if seat is not None and table.stacks[seat] <= table.antes[seat]:
            out.add("stud bring-in all-in on the ante")
    return out


def _raise_to_match(state: Any, action: str) -> bool:
    """Whether ``action`` raises to at least all the largest opponent still in can match (below
    PokerKit's minimum raise: our engine lets such a raise stand, the excess coming back uncalled)."""
    actor = state.actor_index
    amount = int(action.split()[-1])
    totals = [state.stacks[i] + state.bets[i] for i in range(len(state.stacks))
              if i != actor and state.statuses[i] and state.stacks[i]]
    return bool(totals) and amount >= max(totals)


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
    cls = pk.HandHistory.game_types[table.code]
    fields = table.fields()  # the same PHH fields our side reads, in PokerKit's argument names
    del fields["variant"], fields["starting_stacks"]
    kwargs = {("raw_" + k if k in ("antes", "blinds_or_straddles") else k): v for k, v in fields.items()}
    game = cls(automations=automations, mode=pk.Mode.CASH_GAME, **kwargs)
    random.seed(rng.random())  # PokerKit shuffles with the random module
    state = game(list(table.stacks), len(table.stacks))
    shown = False  # muck only after someone showed: PokerKit burns the pot when every hand mucks
    for _ in range(2000):
        if not state.status:
            break
        if state.can_stand_pat_or_discard():
            hole = list(state.hole_cards[state.stand_patter_or_discarder_index])
            rng.shuffle(hole)
            state.stand_pat_or_discard(hole[: rng.randint(0, len(hole))])
        elif state.can_show_or_muck_hole_cards():
            show = not shown or rng.random() > 0.1
            state.show_or_muck_hole_cards(show)
            shown = shown or show
        elif state.actor_index is not None:
            _pk_act(state, rng, table.code == "FO/8", table.code in FIXED - STUD)
        elif state.can_select_runout_count():
            state.select_runout_count(1)
        else:
            break
    hh = pk.HandHistory.from_game_state(game, state)
    hh.ante_trimming_status = table.trim  # from_game_state leaves it at its default (false)
    return hh.dumps(), list(state.stacks)


def _street_raises(state: Any) -> int:
    """Completions, bets and raises so far on PokerKit's current street."""
    return int(state.completion_betting_or_raising_count)


def _pk_act(state: Any, rng: random.Random, fixed_pot_limit: bool = False, limit_blinds: bool = False) -> None:
    """One random legal action; ``fixed_pot_limit``: raise only by fixed-limit sizes, at most a bet
    and two raises (PokerKit 0.7.7's FO/8 class bets pot-limit: see :data:`DEVIATIONS`)."""
    options: list[Callable[[], Any]] = []
    if state.can_post_bring_in():
        options.append(state.post_bring_in)
    if state.checking_or_calling_amount and state.can_fold():  # no free folds (PokerKit warns; we accept)
        options.append(state.fold)
    if state.can_check_or_call():
        options.append(state.check_or_call)
    # Stay inside the rules both engines share where they part (see DEVIATIONS), so that the hand
    # is compared rather than explained: no fourth raise pre-flop in limit blind games.
    capped = limit_blinds and state.street_index == 0 and _street_raises(state) >= 3
    if state.can_complete_bet_or_raise_to() and not capped and not (fixed_pot_limit and _street_raises(state) >= 3):
        lo = state.min_completion_betting_or_raising_to_amount
        hi = lo if fixed_pot_limit else state.max_completion_betting_or_raising_to_amount
        options.append(lambda: state.complete_bet_or_raise_to(lo))
        options.append(lambda: state.complete_bet_or_raise_to(hi))
        if hi > lo + 1:
            mid = rng.randint(lo, hi)
            options.append(lambda: state.complete_bet_or_raise_to(mid))
    rng.choice(options)()


# --- our side ----------------------------------------------------------------------------------------


def _our_history(table: Table) -> HandHistory:
    return HandHistory(**table.fields(), actions=())


def _our_play(table: Table, seed: int, rng: random.Random) -> Game:
    """Our engine plays one random hand at ``table`` (the button is the last seat)."""
    hole = 2
    if table.code in ("PO", "FO/8"):
        hole = 4
    # PokerKit caps fixed limit heads-up too (Robert's Rules lift the cap): our side plays capped here
    stages = stages_for(_our_history(table), lambda v: int(v or 0), hole, conventions={"heads_up_uncapped": False})
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
        if la.can_fold:
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


# --- features: which documented deviations a hand touches -------------------------------------------------


def _features(table: Table, game: Game | None) -> set[str]:
    """The :data:`DEVIATIONS` features of a hand, from the table and our engine's events."""
    out: set[str] = set()
    n = len(table.stacks)
    order = list(range(n)) if n > 2 else [1, 0]  # blind order: heads-up the button first
    for pos, blind in enumerate(table.blinds):
        seat = order[pos] if pos < 2 and n == 2 else pos
        if blind and table.stacks[seat] - table.antes[seat] < blind:
            out.add("short blind")
    bba = table.code not in STUD and len(table.antes) > 1 and table.antes[1] and not any(
        a for i, a in enumerate(table.antes) if i != 1)
    if bba and (game is None or any(getattr(e, "all_in", False) for e in game.events)):
        out.add("big-blind ante with a side pot")
    if len(table.blinds) > 2 and table.blinds[2]:
        out.add("straddle")
    if game is None:
        return out
    bet_to = raises = street = 0
    betting = False
    for e in game.events:
        if isinstance(e, ForcedBetPosted):
            if e.bet in ("small blind", "big blind", "straddle", "button blind"):
                bet_to, raises = max(bet_to, e.amount), 1
            continue
        if not isinstance(e, ActionTaken):
            if betting:  # cards dealt or drawn after a betting round: the next round
                street, bet_to, raises, betting = street + 1, 0, 0, False
            continue
        betting = True
        if e.action in ("bet", "raise"):
            size = table.small_bet if street < 2 else table.big_bet
            if table.code in FIXED and e.all_in and e.to - bet_to < size:
                out.add("limit all-in short of a full bet")
            if street == 0 and raises == 1 and e.all_in and table.blinds and e.to - bet_to < max(table.blinds):
                out.add("short all-in raise over the blind")
            if table.code == "F7S" and street == 1 and bet_to == 0 and e.to > table.small_bet:
                out.add("stud open pair big bet")
            bet_to = e.to
            raises += 1
            if table.code in FIXED - STUD and street == 0 and raises >= 4:
                out.add("limit cap with a blind")
        elif e.action == "bring-in":
            bet_to = e.to
    awards = [e for e in game.events if isinstance(e, PotAwarded)]
    for e in awards:
        if table.code in STUD and len(e.winners) > 1 and e.amount % len(e.winners):
            out.add("odd chip in stud")
        if len(e.winners) > 2 and e.amount % len(e.winners) >= 2:
            out.add("several odd chips")
    by_pot: dict[int, list[PotAwarded]] = {}
    for e in awards:
        by_pot.setdefault(e.pot, []).append(e)
    shapes = [tuple(sorted((e.share, e.winners) for e in pot)) for pot in by_pot.values()]
    odd = [sum(e.amount for e in pot) % 2 if len(pot) > 1 else pot[0].amount % len(pot[0].winners)
           for pot in by_pot.values()]
    if len(shapes) != len(set(shapes)) and any(odd):
        out.add("odd chips of pots with the same winners")
    if any(e.share == "low" for e in awards) and any(e.share == "" and e.pot > 0 for e in awards):
        out.add("hi/lo side pot without a low")
    if table.code in STUD:
        deals = [(e.seat, e.cards) for e in game.events if isinstance(e, HoleCardsDealt)]
        lowest = _lowest_up_card(deals, table.code == "FR")
        if lowest is not None and table.stacks[lowest] <= table.antes[lowest]:
            out.add("stud bring-in all-in on the ante")
    return out


def _lowest_up_card(deals: list[tuple[int, tuple[Any, ...]]], razz: bool) -> int | None:
    """The seat whose third-street up card would bring in if nobody were all-in (Robert's Rules)."""
    best: tuple[int, int] | None = None
    seat = None
    for who, cards in deals:
        if len(cards) != 3 or cards[2] is None:
            continue
        card = cards[2]
        key = ((card.rank + 1) % 13, card.suit) if razz else (-card.rank, -card.suit)
        if best is None or key > best:
            best, seat = key, who
    return seat


# --- one hand --------------------------------------------------------------------------------------------


def run_hand(code: str, direction: str, seed: int) -> Outcome:
    """Play and compare one hand."""
    rng = random.Random(f"{code}/{direction}/{seed}")
    table = random_table(code, rng)
    out = Outcome(code, direction, seed)
    if direction == "A":
        try:
            text, pk_stacks = _pk_play(table, rng)
        except Exception as exc:  # PokerKit itself failed to play: not a comparison
            out.status, out.detail = "error", f"PokerKit could not play: {type(exc).__name__}: {exc}"
            return out
        out.phh = text
        try:
            [hh] = loads(text)
            result = replay(hh)
        except CardgameError as exc:
            out.status, out.detail = "disagree", f"our replay refuses: {exc}"
            out.features = _features(table, None) | _pk_features(table, text)
            return _explain(out)
        ours = [int(s) for s in result.stacks]
        out.features = _features(table, result.game) | _pk_features(table, text)
        if sum(pk_stacks) != sum(table.stacks):
            out.features.add("PokerKit burned chips")
        if ours != pk_stacks:
            out.status, out.detail = "disagree", f"stacks: ours {ours}, PokerKit {pk_stacks}"
            return _explain(out)
        return out
    game = _our_play(table, seed, rng)
    hh = hand_to_phh(game.events, game.dispatcher.stages)
    text = dumps(hh)
    out.phh = text
    out.features = _features(table, game)
    ours = [int(s) for s in hh.finishing_stacks or ()]
    pk_stacks, failure, _ = _pk_replay(text)
    if failure.endswith("[raise to what an opponent can match]"):
        out.features.add("raise to what an opponent can match")
    if failure.startswith("PokerKit crashed"):
        out.status, out.detail = "error", failure
        return out
    if pk_stacks is None:
        out.status, out.detail = "disagree", failure
        return _explain(out)
    if pk_stacks != ours:
        out.status, out.detail = "disagree", f"stacks: ours {ours}, PokerKit {pk_stacks}"
        return _explain(out)
    return out


#: Disagreements that are our own known bugs, still open: counted apart ("open"), never ignored.
OPEN: tuple[tuple[str, str, frozenset[str]], ...] = ()


def _explain(out: Outcome) -> Outcome:
    for feature, _why, codes in OPEN:
        if out.code in codes and feature in out.features:
            out.status, out.deviation = "open", feature
            return out
    for d in DEVIATIONS:
        if out.code in d.variants and d.feature in out.features:
            out.status, out.deviation = "explained", d.id
            return out
    return out


def run_many(codes: Iterable[str], directions: Iterable[str], hands: int, seed: int = 1
             ) -> dict[tuple[str, str], list[Outcome]]:
    """``hands`` hands per variant and direction, seeds ``seed * 1_000_000 + i``."""
    results: dict[tuple[str, str], list[Outcome]] = {}
    for code in codes:
        for direction in directions:
            results[(code, direction)] = [run_hand(code, direction, seed * 1_000_000 + i) for i in range(hands)]
    return results
