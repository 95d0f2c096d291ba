"""Blackjack against a dealer, built on the kernel alone (``cardgame.engine``): no poker inside.

The point of this example is that the kernel knows no poker. It imports nothing from ``cardgame``
but ``cardgame.engine`` (a test checks that); the cards, the shoe, the table and the rules are its
own small classes below. A round is five stages, each a small ``transitions`` machine declared as
class attributes:

    PlaceBets -> Deal (pushes Insurance) -> PlayerTurns (pushes one PlayHand per hand) -> DealerPlays -> Settle

and ``Settle`` ends with ``Restart`` (the next round) or ``Exit`` (the cut card came out, or the
table's last round). A player's action travels with the trigger (``self.trigger("double",
action)``), and the transition's conditions are the rules, judging that action: when one fails the
trigger does nothing, and :meth:`BlackjackStage.act` raises the kernel's ``refusal``: an
:class:`~cardgame.engine.IllegalActionError` naming the broken rule and what the player may do (each
stage's ``refusals`` become its ``refuse_<rule>`` methods). The menu asks the kernel's ``may``.

The rules are the common casino ones (Paiute Palace casino, "Learn blackjack",
http://www.paiutepalace.com/learnblackjack.html; Elexus casino, "Blackjack",
https://www.elexuscasino.com.tr/blackjack; casinoanswers.co.uk, "How do you play blackjack?" for
the peek): two cards to each player and the dealer, one of the dealer's face down; aces count 1 or
11, tens and faces 10; an ace and a ten-valued card on the first two cards is a blackjack and beats
any other 21; a player may hit, stand, double (one more card, first two cards only), split a pair
(any two ten-valued cards too) into separate hands with an equal bet, split aces take one card each
and an ace and ten after a split counts 21, not blackjack; the dealer draws to 16 and stands on 17,
hitting a soft 17 where the table says so; ties push. What differs between casinos is in
:class:`Rules`. Insurance (with ``insurance=True``): with an ace up, before the dealer peeks, each
player may bet up to half the bet on a dealer blackjack, paid 2:1 (Paiute Palace; Elexus); even
money is not offered as such (it is insurance taken in full on a blackjack).

Run: ``python examples/blackjack.py --rounds 20 --seed 7`` (a basic-strategy bot at every seat).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import attrs

from cardgame.engine import ConfigError, Dispatcher, Done, Event, Goto, IllegalActionError, Outcome, Push, Stage

__all__ = [
    "ACTIONS",
    "Action",
    "BetPlaced",
    "Bets",
    "Blackjack",
    "BlackjackStage",
    "Card",
    "CardDealt",
    "Context",
    "Deal",
    "DealerPlayed",
    "DealerPlays",
    "Dealt",
    "HandPlayed",
    "HandSettled",
    "HandsPlayed",
    "HoleCardShown",
    "Insurance",
    "Insured",
    "PlaceBets",
    "PlayHand",
    "Player",
    "PlayerActed",
    "PlayerHand",
    "PlayerTurns",
    "Round",
    "Rules",
    "SatOut",
    "Settle",
    "Shoe",
    "basic_strategy",
    "by_round",
    "cards",
    "main",
    "score",
    "stages",
]

# --- cards and the shoe ----------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"


@attrs.frozen
class Card:
    """A card: ``rank`` one of ``23456789TJQKA``, ``suit`` one of ``cdhs``."""

    rank: str
    suit: str

    @property
    def value(self) -> int:
        """Its points: an ace 1 (:func:`score` counts one ace as 11 when that does not bust), a ten or face 10."""
        if self.rank == "A":
            return 1
        return 10 if self.rank in "TJQK" else int(self.rank)

    def __str__(self) -> str:
        return self.rank + self.suit


def cards(text: str) -> list[Card]:
    """Cards from text such as ``"As Td 9h"``; raises :class:`ConfigError` on anything else."""
    found = []
    for word in text.split():
        if len(word) != 2 or word[0] not in RANKS or word[1] not in SUITS:
            raise ConfigError(f"{word!r} is not a card; write a rank of {RANKS} and a suit of {SUITS}, e.g. 'As'.")
        found.append(Card(word[0], word[1]))
    return found


def score(hand: Sequence[Card]) -> tuple[int, bool]:
    """``(total, soft)``: the points of ``hand``, one ace counted as 11 when that makes 21 or less (soft)."""
    total = sum(card.value for card in hand)
    if total <= 11 and any(card.rank == "A" for card in hand):
        return total + 10, True
    return total, False


class Shoe:
    """The cards still to deal, in order, and the cut card: the round during which it comes out is
    the shoe's last (:attr:`past_cut`). Running out of cards mid-round is a fault of the setup
    (a stacked shoe too short): it stops the game as a failed stage."""

    __slots__ = ("cards", "cut", "dealt")

    def __init__(self, cards: Sequence[Card], cut: int | None = None) -> None:
        self.cards = list(cards)
        self.cut = len(self.cards) if cut is None else cut
        self.dealt = 0

    @classmethod
    def shuffled(cls, rules: Rules, rng: random.Random) -> Shoe:
        """``rules.decks`` decks shuffled with ``rng``, the cut card after ``rules.penetration`` of them."""
        deck = [Card(rank, suit) for _ in range(rules.decks) for suit in SUITS for rank in RANKS]
        rng.shuffle(deck)
        return cls(deck, int(len(deck) * rules.penetration))

    @classmethod
    def stacked(cls, text: str, cut: int | None = None) -> Shoe:
        """A shoe that deals the cards of ``text`` in that order (for tests and demonstrations)."""
        return cls(cards(text), cut)

    def draw(self) -> Card:
        if self.dealt >= len(self.cards):
            raise RuntimeError(f"The shoe is out of cards after {self.dealt}.")
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

    @property
    def past_cut(self) -> bool:
        """The cut card has come out: the round being played is the shoe's last."""
        return self.dealt >= self.cut


# --- the table's rules ---------------------------------------------------------------------------


def _whole(value: object, least: int) -> bool:
    return type(value) is int and value >= least


@attrs.frozen
class Rules:
    """What differs between casinos. Defaults: a six-deck shoe cut at three quarters, bets 10 to
    500, the dealer hits soft 17 (H17; ``hits_soft_17=False`` is S17), blackjack pays 3:2
    (``blackjack_pays=(6, 5)`` the short payout; fractions of a chip are rounded down, the house's
    way), the dealer peeks under an ace or ten for blackjack (``peek=False``: the dealer's blackjack
    is found when the dealer plays and takes every bet on the table, doubles and splits included,
    the European no-hole-card rule), splits up to four hands (``max_hands=2``: split once), double
    after split allowed, late surrender not offered, no insurance (``insurance=True`` offers it
    when an ace is up, if the dealer peeks). ``max_rounds`` ends the session after that many
    rounds (``None``: at the cut card only). Bad values raise :class:`ConfigError`."""

    min_bet: int = 10
    max_bet: int = 500
    decks: int = 6
    penetration: float = 0.75
    hits_soft_17: bool = True
    blackjack_pays: tuple[int, int] = (3, 2)
    peek: bool = True
    max_hands: int = 4
    double_after_split: bool = True
    surrender: bool = False
    insurance: bool = False
    max_rounds: int | None = None

    def __attrs_post_init__(self) -> None:
        if not _whole(self.min_bet, 1) or not _whole(self.max_bet, self.min_bet):
            raise ConfigError(f"Bets need 1 <= min_bet <= max_bet in whole chips, not {self.min_bet!r} to "
                              f"{self.max_bet!r}.")
        if not _whole(self.decks, 1):
            raise ConfigError(f"decks must be a whole number of at least 1, not {self.decks!r}.")
        if not isinstance(self.penetration, float | int) or not 0 < self.penetration <= 1:
            raise ConfigError(f"penetration is the part of the shoe dealt before the cut card, in (0, 1], not "
                              f"{self.penetration!r}.")
        num, den = self.blackjack_pays
        if not _whole(num, 1) or not _whole(den, 1) or num > 2 * den:
            raise ConfigError(f"blackjack_pays is (win, per) such as (3, 2) or (6, 5), at most 2:1, not "
                              f"{self.blackjack_pays!r}.")
        if not _whole(self.max_hands, 1):
            raise ConfigError(f"max_hands (hands a player may split to) must be at least 1, not {self.max_hands!r}.")
        if self.max_rounds is not None and not _whole(self.max_rounds, 1):
            raise ConfigError(f"max_rounds must be a whole number of at least 1 or None, not {self.max_rounds!r}.")

    @property
    def exposure(self) -> int:
        """The most the house can lose per chip of an initial bet: every hand split and doubled."""
        return 2 * self.max_hands


# --- the table: players, hands, the context ---------------------------------------------------------


@attrs.define
class Player:
    seat: int
    name: str
    chips: int


@attrs.define
class PlayerHand:
    """One hand a player plays: its stake (``bet``, doubled in place) and cards."""

    seat: int
    bet: int
    cards: list[Card] = attrs.Factory(list)
    from_split: bool = False
    doubled: bool = False
    surrendered: bool = False

    @property
    def total(self) -> int:
        return score(self.cards)[0]

    @property
    def busted(self) -> bool:
        return self.total > 21

    @property
    def blackjack(self) -> bool:
        """Ace and ten on the first two cards of a hand that was not split."""
        return len(self.cards) == 2 and self.total == 21 and not self.from_split

    def __str__(self) -> str:
        return " ".join(map(str, self.cards)) + f" ({self.total})"


@attrs.define
class Round:
    """The round being played: the bets in seat order, who is to answer, the hands (a split hand
    follows the hand it came from), the dealer's cards (the second is the hole card) and the
    insurance bets."""

    bets: dict[int, int] = attrs.Factory(dict)
    answered: list[int] = attrs.Factory(list)
    to_act: int | None = None
    hands: list[PlayerHand] = attrs.Factory(list)
    dealer: list[Card] = attrs.Factory(list)
    insurance: dict[int, int] = attrs.Factory(dict)
    hole_shown: bool = False
    settled: bool = False

    def on_table(self) -> int:
        """Chips staked and not yet settled."""
        if self.settled:
            return 0
        bets = sum(h.bet for h in self.hands) if self.hands else sum(self.bets.values())
        return bets + sum(self.insurance.values())


class Context:
    """What the stages share: the rules, the players, the house bank, the shoe, the round, and the
    event log (``emit``: all the kernel asks of a context). Chips only move between the players,
    the table and the bank, so :meth:`total_chips` never changes."""

    __slots__ = ("bank", "events", "players", "round", "rounds_played", "rules", "shoe")

    def __init__(self, rules: Rules, players: Sequence[Player], bank: int, shoe: Shoe) -> None:
        self.rules = rules
        self.players = {p.seat: p for p in sorted(players, key=lambda p: p.seat)}
        self.bank = bank
        self.shoe = shoe
        self.round = Round()
        self.rounds_played = 0
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def total_chips(self) -> int:
        return sum(p.chips for p in self.players.values()) + self.round.on_table() + self.bank


# --- events -----------------------------------------------------------------------------------------


def _who(seat: int, names: dict[int, str] | None) -> str:
    return (names or {}).get(seat) or f"seat {seat}"


@attrs.frozen
class BetPlaced(Event):
    kind: ClassVar[str] = "bet placed"
    seat: int
    amount: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_who(self.seat, names)} bets {self.amount}"


@attrs.frozen
class SatOut(Event):
    kind: ClassVar[str] = "sat out"
    seat: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_who(self.seat, names)} sits out"


@attrs.frozen
class CardDealt(Event):
    """A card to hand number ``hand`` of seat ``seat``, or to the dealer (``seat`` ``None``); the hole
    card is dealt face down and hidden from everyone until it is shown."""

    kind: ClassVar[str] = "card dealt"
    seat: int | None
    hand: int
    card: Card | None
    face_up: bool = True

    def seen_by(self, seat: int | None) -> Event:
        return self if self.face_up else attrs.evolve(self, card=None)

    def describe(self, names: dict[int, str] | None = None) -> str:
        card = "a card face down" if self.card is None or not self.face_up else str(self.card)
        return f"{_who(self.seat, names)} gets {card}" if self.seat is not None else f"the dealer gets {card}"


@attrs.frozen
class HoleCardShown(Event):
    kind: ClassVar[str] = "hole card shown"
    card: Card

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"the dealer shows {self.card}"


@attrs.frozen
class PlayerActed(Event):
    kind: ClassVar[str] = "player acted"
    seat: int
    hand: int
    action: str

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_who(self.seat, names)} {self.action}s"


@attrs.frozen
class Insured(Event):
    """``seat`` bets ``amount`` on a dealer blackjack (0: declines insurance)."""

    kind: ClassVar[str] = "insured"
    seat: int
    amount: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        who = _who(self.seat, names)
        return f"{who} takes insurance for {self.amount}" if self.amount else f"{who} declines insurance"


@attrs.frozen
class HandSettled(Event):
    """Hand number ``hand`` of ``seat`` settled: ``outcome`` (blackjack, win, push, lose, surrender;
    ``insurance`` for an insurance bet, ``hand`` -1) and the player's ``net`` win (negative: a loss)."""

    kind: ClassVar[str] = "hand settled"
    seat: int
    hand: int
    outcome: str
    net: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_who(self.seat, names)}: {self.outcome} {self.net:+d}"


# --- results handed from stage to stage -------------------------------------------------------------


@attrs.frozen
class Bets:
    """The bets placed: ``(seat, amount)`` in seat order."""

    bets: tuple[tuple[int, int], ...]


@attrs.frozen
class Dealt:
    """The deal: the dealer's up card, and whether the peek found a dealer blackjack."""

    upcard: Card
    dealer_blackjack: bool


@attrs.frozen
class HandPlayed:
    """A :class:`PlayHand` sub-stage's result: the hand and the state it ended in."""

    index: int
    ending: str


@attrs.frozen
class HandsPlayed:
    """Every hand is played; ``standing`` of them (not busted, surrendered or a blackjack) wait for the dealer."""

    standing: int


@attrs.frozen
class DealerPlayed:
    total: int
    busted: bool
    blackjack: bool


@attrs.frozen
class Action:
    """What a player asks for, carried by the trigger to every condition. ``seat`` and ``amount``
    are as the caller gave them (``object``): the conditions check them."""

    kind: str
    seat: object
    amount: object = None


#: The actions on a hand, in the order :meth:`PlayHand.allowed_actions` lists them.
ACTIONS = ("hit", "stand", "double", "split", "surrender")


# --- stages -----------------------------------------------------------------------------------------


def _refuser(rule: str) -> Callable[[BlackjackStage, Action], IllegalActionError]:
    """The refusal of an action that breaks ``rule``: the stage's message for it and what is allowed."""

    def refuse(self: BlackjackStage, action: Action) -> IllegalActionError:
        allowed = self.allowed_text()
        return IllegalActionError(f"{self.refusals[rule].format(a=action, s=self)}; {allowed}.",
                                  rule=rule, allowed=allowed)

    return refuse


class BlackjackStage(Stage[Context]):
    """A stage of this game. ``refusals`` says, for each condition that judges an action, what a
    refusal tells the player (a format string given the action ``a`` and the stage ``s``)."""

    name: ClassVar[str] = "blackjack stage"
    refusals: ClassVar[dict[str, str]] = {}
    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each rule in ``refusals`` becomes the ``refuse_<rule>`` the kernel's :meth:`Stage.refusal` asks."""
        super().__init_subclass__(**kwargs)
        for rule in cls.__dict__.get("refusals", {}):
            setattr(cls, f"refuse_{rule}", _refuser(rule))

    def act(self, action: Action) -> None:
        """Fire the trigger named by ``action.kind`` with the action; when a condition refuses it
        nothing has changed, and :class:`IllegalActionError` names that rule and what is allowed."""
        if not self.trigger(action.kind, action):
            raise self.refusal(action.kind, action)

    def allowed_actions(self) -> tuple[str, ...]:
        """The actions the player to act may take (none in a stage that takes no input)."""
        return ()

    def allowed_text(self) -> str:
        return "nothing is allowed now"

    @property
    def to_act(self) -> int | None:
        """The seat whose action the stage waits for."""
        return None

    # shared by the stages
    def dealer_has_blackjack(self) -> bool:
        dealer = self.ctx.round.dealer
        return len(dealer) == 2 and score(dealer)[0] == 21

    def show_hole_card(self) -> None:
        rnd = self.ctx.round
        if not rnd.hole_shown:
            rnd.hole_shown = True
            self.ctx.emit(HoleCardShown(rnd.dealer[1]))

    @property
    def rules(self) -> Rules:
        return self.ctx.rules


class PlaceBets(BlackjackStage):
    """Each player who has at least the minimum bet bets or sits out, in seat order (events
    ``bet(seat, amount)`` and ``sit_out(seat)``). A bet is whole chips within the table limits and
    the player's chips, and the house bank must cover it at worst (every hand split and doubled).
    Nobody able to bet, or everyone sitting out, closes the table (``Exit``)."""

    name: ClassVar[str] = "place bets"
    states: ClassVar[list[str]] = ["ready", "taking_bets", "bets_placed", "table_closed"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "table_closed", "prepare": "open_round",
         "unless": "someone_can_bet"},
        {"trigger": "begin", "source": "ready", "dest": "taking_bets", "after": "ask_next"},
        {"trigger": "bet", "source": "taking_bets", "dest": None,
         "conditions": ["on_turn", "whole_chips", "within_limits", "affordable", "house_covers"], "after": "take_bet"},
        {"trigger": "sit_out", "source": "taking_bets", "dest": None, "conditions": "on_turn",
         "after": "record_sit_out"},
        {"trigger": "answered", "source": "taking_bets", "dest": "bets_placed", "prepare": "ask_next",
         "conditions": ["everyone_answered", "any_bets"]},
        {"trigger": "answered", "source": "taking_bets", "dest": "table_closed", "conditions": "everyone_answered"},
        {"trigger": "answered", "source": "taking_bets", "dest": None},
    ]
    refusals: ClassVar[dict[str, str]] = {
        "on_turn": "It is not seat {a.seat!r}'s turn to bet: seat {s.to_act} bets next",
        "whole_chips": "A bet is a whole number of chips, not {a.amount!r}",
        "within_limits": "The bet {a.amount} is outside the table limits, {s.rules.min_bet} to {s.rules.max_bet}",
        "affordable": "Seat {a.seat} has {s.chips} chips, less than the bet {a.amount}",
        "house_covers": "The house bank cannot cover a bet of {a.amount}",
    }
    ends: ClassVar[dict[str, str]] = {"bets_placed": "bets", "table_closed": "exited"}
    events: ClassVar[tuple[str, ...]] = ("bet", "sit_out")
    takes: ClassVar[tuple[type, ...]] = (type(None),)
    gives: ClassVar[tuple[type, ...]] = (Bets,)
    __slots__ = ()

    def on_bet(self, seat: object, amount: object) -> None:
        self.act(Action("bet", seat, amount))
        self.trigger("answered")

    def on_sit_out(self, seat: object) -> None:
        self.act(Action("sit_out", seat))
        self.trigger("answered")

    # --- conditions: the rules, each judging the action ---------------------------------------------
    def on_turn(self, action: Action) -> bool:
        return type(action.seat) is int and action.seat == self.ctx.round.to_act

    def whole_chips(self, action: Action) -> bool:
        return type(action.amount) is int

    def within_limits(self, action: Action) -> bool:
        return isinstance(action.amount, int) and self.rules.min_bet <= action.amount <= self.rules.max_bet

    def affordable(self, action: Action) -> bool:
        return isinstance(action.amount, int) and action.amount <= self.chips

    def house_covers(self, action: Action) -> bool:
        staked = sum(self.ctx.round.bets.values())
        return isinstance(action.amount, int) and (staked + action.amount) * self.rules.exposure <= self.ctx.bank

    # --- conditions on the table, and callbacks --------------------------------------------------------
    def open_round(self) -> None:
        self.ctx.round = Round()

    def _bettors(self) -> list[int]:
        return [seat for seat, p in self.ctx.players.items() if p.chips >= self.rules.min_bet]

    def someone_can_bet(self) -> bool:
        return bool(self._bettors())

    def everyone_answered(self) -> bool:
        return self.ctx.round.to_act is None

    def any_bets(self) -> bool:
        return bool(self.ctx.round.bets)

    def ask_next(self) -> None:
        """Name the next player to answer in seat order (``None``: everyone has)."""
        rnd = self.ctx.round
        rnd.to_act = next((seat for seat in self._bettors() if seat not in rnd.answered), None)

    def take_bet(self, action: Action) -> None:
        seat, amount = self.ctx.round.to_act, action.amount
        assert seat is not None and isinstance(amount, int)
        self.ctx.players[seat].chips -= amount
        self.ctx.round.bets[seat] = amount
        self.ctx.round.answered.append(seat)
        self.ctx.emit(BetPlaced(seat, amount))

    def record_sit_out(self, action: Action) -> None:
        seat = self.ctx.round.to_act
        assert seat is not None
        self.ctx.round.answered.append(seat)
        self.ctx.emit(SatOut(seat))

    def bets(self) -> Done:
        """What ``bets_placed`` gives: each seat's bet."""
        return Done(Bets(tuple(self.ctx.round.bets.items())))

    # --- queries --------------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.ctx.round.to_act if self.state == "taking_bets" else None

    @property
    def chips(self) -> int:
        seat = self.ctx.round.to_act
        return 0 if seat is None else self.ctx.players[seat].chips

    def bet_range(self) -> tuple[int, int]:
        """The smallest and largest bet the player to act may make (the largest below the smallest: none)."""
        staked = sum(self.ctx.round.bets.values())
        house = self.ctx.bank // self.rules.exposure - staked
        return self.rules.min_bet, min(self.rules.max_bet, self.chips, house)

    def allowed_actions(self) -> tuple[str, ...]:
        if self.to_act is None:
            return ()
        low, high = self.bet_range()
        return ("bet", "sit_out") if low <= high else ("sit_out",)

    def allowed_text(self) -> str:
        low, high = self.bet_range()
        bet = f"bet {low} to {high} or " if low <= high else ""
        return f"seat {self.to_act} may {bet}sit out"


class Deal(BlackjackStage):
    """One card face up to each bet in seat order, one face up to the dealer, a second to each bet
    and the hole card face down to the dealer. With an ace or a ten-valued card up, and ``peek``,
    the dealer checks the hole card: a blackjack is shown at once and the round goes straight to
    the settlement, before anyone plays (the US hole-card game). With ``insurance`` and an ace up,
    an :class:`Insurance` sub-stage takes the insurance bets before the peek."""

    name: ClassVar[str] = "deal"
    states: ClassVar[list[str]] = ["ready", "offering_insurance", "dealt", "dealer_blackjack"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "offering_insurance", "prepare": "deal_cards",
         "conditions": ["peeks", "insurance_offered"]},
        {"trigger": "begin", "source": "ready", "dest": "dealer_blackjack",
         "conditions": ["peeks", "dealer_has_blackjack"], "after": "show_hole_card"},
        {"trigger": "begin", "source": "ready", "dest": "dealt"},
        {"trigger": "insured", "source": "offering_insurance", "dest": "dealer_blackjack",
         "conditions": "dealer_has_blackjack", "after": "show_hole_card"},
        {"trigger": "insured", "source": "offering_insurance", "dest": "dealt"},
    ]
    ends: ClassVar[dict[str, str]] = {"dealt": "cards_dealt", "dealer_blackjack": "to_settle"}
    pushes: ClassVar[dict[str, str]] = {"offering_insurance": "insurance"}
    takes: ClassVar[tuple[type, ...]] = (Bets,)
    gives: ClassVar[tuple[type, ...]] = (Dealt,)
    goes_to: ClassVar[tuple[str, ...]] = ("settle",)
    __slots__ = ()

    def deal_cards(self) -> None:
        ctx, rnd = self.ctx, self.ctx.round
        rnd.hands = [PlayerHand(seat, amount) for seat, amount in self.previous.bets]
        for face_up in (True, False):
            for i, hand in enumerate(rnd.hands):
                card = ctx.shoe.draw()
                hand.cards.append(card)
                ctx.emit(CardDealt(hand.seat, i, card))
            card = ctx.shoe.draw()
            rnd.dealer.append(card)
            ctx.emit(CardDealt(None, 0, card, face_up))

    def peeks(self) -> bool:
        return self.rules.peek and self.ctx.round.dealer[0].value in (1, 10)

    def insurance_offered(self) -> bool:
        return self.rules.insurance and self.ctx.round.dealer[0].rank == "A"

    def insurance(self) -> Push:
        """What ``offering_insurance`` runs on top of the deal: the insurance bets."""
        return Push(Insurance())

    def on_substage_result(self, result: Any) -> Outcome | None:
        self.trigger("insured")  # then the dealer peeks
        return None

    def to_settle(self) -> Goto:
        """What ``dealer_blackjack`` gives: straight to the settlement, nobody plays."""
        return Goto("settle", Dealt(self.ctx.round.dealer[0], True))

    def cards_dealt(self) -> Done:
        """What ``dealt`` gives: the dealer's up card, no blackjack."""
        return Done(Dealt(self.ctx.round.dealer[0], False))


class Insurance(BlackjackStage):
    """Pushed by :class:`Deal` with an ace up: each player with a bet, in seat order, takes
    insurance for up to half the bet (``insure(seat, amount)``) or declines (``decline(seat)``).
    It pays 2:1 if the dealer has blackjack and is lost otherwise (:class:`Settle`)."""

    name: ClassVar[str] = "insurance"
    states: ClassVar[list[str]] = ["ready", "asking", "all_answered"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "asking", "before": "clear_answers", "after": "ask_next"},
        {"trigger": "insure", "source": "asking", "dest": None,
         "conditions": ["on_turn", "whole_chips", "at_most_half", "affordable"], "after": "take_insurance"},
        {"trigger": "decline", "source": "asking", "dest": None, "conditions": "on_turn", "after": "take_insurance"},
        {"trigger": "answered", "source": "asking", "dest": "all_answered", "prepare": "ask_next",
         "conditions": "everyone_answered"},
        {"trigger": "answered", "source": "asking", "dest": None},
    ]
    ends: ClassVar[dict[str, str]] = {"all_answered": "insurance_taken"}
    refusals: ClassVar[dict[str, str]] = {
        "on_turn": "It is not seat {a.seat!r}'s turn to insure: seat {s.to_act} answers next",
        "whole_chips": "Insurance is a whole number of chips, at least 1, not {a.amount!r}",
        "at_most_half": "Insurance of {a.amount} is more than half the bet of {s.bet}",
        "affordable": "Seat {a.seat} has {s.chips} chips, less than {a.amount}",
    }
    events: ClassVar[tuple[str, ...]] = ("insure", "decline")
    __slots__ = ()

    def on_insure(self, seat: object, amount: object) -> None:
        self.act(Action("insure", seat, amount))
        self.trigger("answered")

    def on_decline(self, seat: object) -> None:
        self.act(Action("decline", seat, 0))
        self.trigger("answered")

    # --- conditions: the rules, each judging the action ---------------------------------------------
    def on_turn(self, action: Action) -> bool:
        return type(action.seat) is int and action.seat == self.ctx.round.to_act

    def whole_chips(self, action: Action) -> bool:
        return type(action.amount) is int and action.amount >= 1

    def at_most_half(self, action: Action) -> bool:
        return isinstance(action.amount, int) and action.amount <= self.bet // 2

    def affordable(self, action: Action) -> bool:
        return isinstance(action.amount, int) and action.amount <= self.chips

    # --- callbacks ------------------------------------------------------------------------------------
    def clear_answers(self) -> None:
        self.ctx.round.answered = []

    def ask_next(self) -> None:
        rnd = self.ctx.round
        rnd.to_act = next((seat for seat in rnd.bets if seat not in rnd.answered), None)

    def everyone_answered(self) -> bool:
        return self.ctx.round.to_act is None

    def take_insurance(self, action: Action) -> None:
        seat, amount = self.ctx.round.to_act, action.amount
        assert seat is not None and isinstance(amount, int)
        if amount:
            self.ctx.players[seat].chips -= amount
            self.ctx.round.insurance[seat] = amount
        self.ctx.round.answered.append(seat)
        self.ctx.emit(Insured(seat, amount))

    def insurance_taken(self) -> Done:
        """What ``all_answered`` gives: nothing (the insurance bets are on the round)."""
        return Done(None)

    # --- queries --------------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return self.ctx.round.to_act if self.state == "asking" else None

    @property
    def bet(self) -> int:
        seat = self.ctx.round.to_act
        return 0 if seat is None else self.ctx.round.bets[seat]

    @property
    def chips(self) -> int:
        seat = self.ctx.round.to_act
        return 0 if seat is None else self.ctx.players[seat].chips

    def allowed_actions(self) -> tuple[str, ...]:
        if self.to_act is None:
            return ()
        return ("insure", "decline") if min(self.bet // 2, self.chips) >= 1 else ("decline",)

    def allowed_text(self) -> str:
        most = min(self.bet // 2, self.chips)
        return f"seat {self.to_act} may insure for 1 to {most} or decline" if most >= 1 else \
            f"seat {self.to_act} may decline"


class PlayerTurns(BlackjackStage):
    """Plays the hands in order, each as a :class:`PlayHand` sub-stage pushed on top of this one; a
    split puts the new hand right after the one it came from, so it is played next."""

    name: ClassVar[str] = "player turns"
    states: ClassVar[list[str]] = ["ready", "playing_hands", "all_played"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "playing_hands", "before": "first_hand"},
        {"trigger": "hand_played", "source": "playing_hands", "dest": "all_played", "conditions": "all_hands_played"},
        {"trigger": "hand_played", "source": "playing_hands", "dest": None},
    ]
    ends: ClassVar[dict[str, str]] = {"all_played": "hands_played"}
    pushes: ClassVar[dict[str, str]] = {"playing_hands": "play_next_hand"}
    takes: ClassVar[tuple[type, ...]] = (Dealt,)
    gives: ClassVar[tuple[type, ...]] = (HandsPlayed,)
    __slots__ = ("next_hand",)

    def __init__(self) -> None:
        super().__init__()
        self.next_hand = 0

    def first_hand(self) -> None:
        self.next_hand = 0

    def play_next_hand(self) -> Push:
        """What ``playing_hands`` runs on top of this stage: the next hand, played by its seat."""
        return Push(PlayHand(self.next_hand))

    def on_substage_result(self, result: Any) -> Outcome | None:
        self.next_hand += 1
        self.trigger("hand_played")
        return None

    def all_hands_played(self) -> bool:
        return self.next_hand == len(self.ctx.round.hands)

    def hands_played(self) -> Done:
        """What ``all_played`` gives: how many hands still stand against the dealer."""
        standing = sum(not (h.busted or h.surrendered or h.blackjack) for h in self.ctx.round.hands)
        return Done(HandsPlayed(standing))


class PlayHand(BlackjackStage):
    """One hand, played by its seat: ``hit``, ``stand``, ``double``, ``split`` or ``surrender``
    (each event takes the seat). A bust, a 21, a double (one card) or a split ace (one card) ends
    the hand by itself; a split hand is dealt its second card when its turn comes."""

    name: ClassVar[str] = "play hand"
    states: ClassVar[list[str]] = ["ready", "playing", "stood", "busted", "twenty_one", "doubled", "split_aces",
                                   "surrendered"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "playing", "after": "complete_split_hand"},
        {"trigger": "hit", "source": "playing", "dest": None, "conditions": "on_turn",
         "after": ["announce", "take_card"]},
        {"trigger": "stand", "source": "playing", "dest": "stood", "conditions": "on_turn",
         "after": "announce"},
        {"trigger": "double", "source": "playing", "dest": "doubled",
         "conditions": ["on_turn", "first_two_cards", "double_allowed", "can_match_bet"],
         "after": ["announce", "double_bet", "take_card"]},
        {"trigger": "split", "source": "playing", "dest": None,
         "conditions": ["on_turn", "first_two_cards", "is_pair", "hands_left", "can_match_bet"],
         "after": ["announce", "split_pair", "take_card"]},
        {"trigger": "surrender", "source": "playing", "dest": "surrendered",
         "conditions": ["on_turn", "surrender_offered", "first_two_cards", "not_split"],
         "after": ["announce", "give_up"]},
        {"trigger": "drew", "source": "playing", "dest": "busted", "conditions": "is_bust"},
        {"trigger": "drew", "source": "playing", "dest": "twenty_one", "conditions": "is_21"},
        {"trigger": "drew", "source": "playing", "dest": "split_aces", "conditions": "is_split_ace"},
        {"trigger": "drew", "source": "playing", "dest": None},
    ]
    refusals: ClassVar[dict[str, str]] = {
        "on_turn": "It is not seat {a.seat!r}'s turn: seat {s.hand.seat} plays hand {s.index} ({s.hand})",
        "first_two_cards": "Seat {a.seat} may {a.kind} only on a hand's first two cards, and this hand has "
                           "{s.card_count}",
        "double_allowed": "This table does not allow doubling after a split",
        "can_match_bet": "Seat {a.seat} has {s.chips} chips, less than the {s.hand.bet} it takes to {a.kind}",
        "is_pair": "Only two cards of the same value can be split, not {s.hand}",
        "hands_left": "Seat {a.seat} already plays {s.seat_hands} hands, the most this table allows",
        "surrender_offered": "This table does not offer surrender",
        "not_split": "A hand from a split cannot be surrendered",
    }
    ends: ClassVar[dict[str, str]] = dict.fromkeys(("stood", "busted", "twenty_one", "doubled", "split_aces",
                                                    "surrendered"), "hand_over")
    events: ClassVar[tuple[str, ...]] = ACTIONS
    gives: ClassVar[tuple[type, ...]] = (HandPlayed,)
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def _play(self, kind: str, seat: object) -> None:
        self.act(Action(kind, seat))
        if self.state == "playing":  # a card came (hit, split): bust, 21 and split aces end the hand
            self.trigger("drew")

    def on_hit(self, seat: object) -> None:
        self._play("hit", seat)

    def on_stand(self, seat: object) -> None:
        self._play("stand", seat)

    def on_double(self, seat: object) -> None:
        self._play("double", seat)

    def on_split(self, seat: object) -> None:
        self._play("split", seat)

    def on_surrender(self, seat: object) -> None:
        self._play("surrender", seat)

    # --- conditions: the rules, each judging the action ---------------------------------------------
    def on_turn(self, action: Action) -> bool:
        return type(action.seat) is int and action.seat == self.hand.seat

    def first_two_cards(self, action: Action) -> bool:
        return len(self.hand.cards) == 2

    def double_allowed(self, action: Action) -> bool:
        return self.rules.double_after_split or not self.hand.from_split

    def can_match_bet(self, action: Action) -> bool:
        return self.chips >= self.hand.bet

    def is_pair(self, action: Action) -> bool:
        first, second = self.hand.cards[:2]
        return first.value == second.value

    def hands_left(self, action: Action) -> bool:
        return self.seat_hands < self.rules.max_hands

    def surrender_offered(self, action: Action) -> bool:
        return self.rules.surrender

    def not_split(self, action: Action) -> bool:
        return not self.hand.from_split

    # --- conditions on the cards, and callbacks -------------------------------------------------------
    def is_bust(self) -> bool:
        return self.hand.busted

    def is_21(self) -> bool:
        return self.hand.total == 21

    def is_split_ace(self) -> bool:
        return self.hand.from_split and self.hand.cards[0].rank == "A"

    def complete_split_hand(self) -> None:
        """A hand from a split has one card: deal its second now. Then see whether the hand is over."""
        if len(self.hand.cards) == 1:
            self.take_card()
        self.trigger("drew")

    def announce(self, action: Action) -> None:
        self.ctx.emit(PlayerActed(self.hand.seat, self.index, action.kind))

    def take_card(self, action: Action | None = None) -> None:
        card = self.ctx.shoe.draw()
        self.hand.cards.append(card)
        self.ctx.emit(CardDealt(self.hand.seat, self.index, card))

    def double_bet(self, action: Action) -> None:
        hand = self.hand
        self.ctx.players[hand.seat].chips -= hand.bet
        hand.bet *= 2
        hand.doubled = True

    def split_pair(self, action: Action) -> None:
        hand = self.hand
        self.ctx.players[hand.seat].chips -= hand.bet
        hand.from_split = True
        self.ctx.round.hands.insert(self.index + 1, PlayerHand(hand.seat, hand.bet, [hand.cards.pop()], True))

    def give_up(self, action: Action) -> None:
        self.hand.surrendered = True

    def hand_over(self) -> Done:
        """What each final state gives: the hand and how it ended (the state's name)."""
        return Done(HandPlayed(self.index, self.state))

    # --- queries --------------------------------------------------------------------------------------------
    @property
    def hand(self) -> PlayerHand:
        return self.ctx.round.hands[self.index]

    @property
    def to_act(self) -> int | None:
        return self.hand.seat if self.state == "playing" else None

    @property
    def chips(self) -> int:
        return self.ctx.players[self.hand.seat].chips

    @property
    def card_count(self) -> int:
        return len(self.hand.cards)

    @property
    def seat_hands(self) -> int:
        return sum(h.seat == self.hand.seat for h in self.ctx.round.hands)

    def allowed_actions(self) -> tuple[str, ...]:
        if self.to_act is None:
            return ()
        return tuple(kind for kind in ACTIONS if self.may(kind, Action(kind, self.hand.seat)))

    def allowed_text(self) -> str:
        return f"seat {self.hand.seat} may {', '.join(self.allowed_actions())}"


class DealerPlays(BlackjackStage):
    """The dealer shows the hole card and draws to 16, standing on 17 (hitting a soft 17 with
    ``hits_soft_17``). The dealer draws nothing when no hand is left to beat (all busted,
    surrendered or blackjacks), nor with a blackjack (found here when the dealer does not peek)."""

    name: ClassVar[str] = "dealer plays"
    states: ClassVar[list[str]] = ["ready", "blackjack", "not_needed", "drawing", "stood", "busted"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "blackjack", "prepare": "show_hole_card",
         "conditions": "dealer_has_blackjack"},
        {"trigger": "begin", "source": "ready", "dest": "not_needed", "unless": "hands_standing"},
        {"trigger": "begin", "source": "ready", "dest": "drawing", "after": "play_out"},
        {"trigger": "draw", "source": "drawing", "dest": None, "conditions": "must_draw", "after": "dealer_draws"},
        {"trigger": "stop", "source": "drawing", "dest": "busted", "conditions": "is_bust"},
        {"trigger": "stop", "source": "drawing", "dest": "stood"},
    ]
    ends: ClassVar[dict[str, str]] = dict.fromkeys(("blackjack", "not_needed", "busted", "stood"), "hand_on_dealer")
    takes: ClassVar[tuple[type, ...]] = (HandsPlayed,)
    gives: ClassVar[tuple[type, ...]] = (DealerPlayed,)
    __slots__ = ()

    def hands_standing(self) -> bool:
        return bool(self.previous.standing)

    def must_draw(self) -> bool:
        total, soft = score(self.ctx.round.dealer)
        return total < 17 or (total == 17 and soft and self.rules.hits_soft_17)

    def is_bust(self) -> bool:
        return score(self.ctx.round.dealer)[0] > 21

    def play_out(self) -> None:
        while self.trigger("draw"):
            pass
        self.trigger("stop")

    def dealer_draws(self) -> None:
        card = self.ctx.shoe.draw()
        self.ctx.round.dealer.append(card)
        self.ctx.emit(CardDealt(None, 0, card))

    def hand_on_dealer(self) -> Done:
        """What each final state gives: the dealer's total, whether it busted, whether it is a blackjack."""
        total = score(self.ctx.round.dealer)[0]
        return Done(DealerPlayed(total, total > 21, self.dealer_has_blackjack()))


class Settle(BlackjackStage):
    """Pays every bet from the house bank or takes its stake: insurance wins 2:1 against a dealer
    blackjack and is lost otherwise; on the hands, a blackjack wins ``blackjack_pays``
    (against a dealer blackjack it pushes), a surrender gets half its stake back, a bust loses
    (even if the dealer busts too), a dealer blackjack beats every other hand, then the higher total
    wins even money and equal totals push. Then the next round (``Restart``), or ``Exit`` when the
    cut card has come out or the table's last round is played."""

    name: ClassVar[str] = "settle"
    states: ClassVar[list[str]] = ["ready", "next_round", "session_over"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "session_over", "prepare": "settle_bets",
         "conditions": "last_round"},
        {"trigger": "begin", "source": "ready", "dest": "next_round"},
    ]
    ends: ClassVar[dict[str, str]] = {"next_round": "restarted", "session_over": "exited"}
    takes: ClassVar[tuple[type, ...]] = (Dealt, DealerPlayed)
    __slots__ = ()

    def outcome_of(self, hand: PlayerHand) -> tuple[str, int]:
        """``(outcome, net)`` of ``hand`` against the dealer's cards."""
        bet, dealer = hand.bet, self.ctx.round.dealer
        dealer_total = score(dealer)[0]
        if hand.surrendered:
            return "surrender", bet // 2 - bet
        if hand.busted:
            return "lose", -bet
        if self.dealer_has_blackjack():
            return ("push", 0) if hand.blackjack else ("lose", -bet)
        if hand.blackjack:
            num, den = self.rules.blackjack_pays
            return "blackjack", bet * num // den
        if dealer_total > 21 or hand.total > dealer_total:
            return "win", bet
        return ("push", 0) if hand.total == dealer_total else ("lose", -bet)

    def settle_bets(self) -> None:
        ctx = self.ctx
        ctx.rounds_played += 1
        for seat, amount in ctx.round.insurance.items():
            net = 2 * amount if self.dealer_has_blackjack() else -amount
            ctx.players[seat].chips += amount + net
            ctx.bank -= net
            ctx.emit(HandSettled(seat, -1, "insurance", net))
        for i, hand in enumerate(ctx.round.hands):
            outcome, net = self.outcome_of(hand)
            ctx.players[hand.seat].chips += hand.bet + net
            ctx.bank -= net
            ctx.emit(HandSettled(hand.seat, i, outcome, net))
        ctx.round.settled = True

    def last_round(self) -> bool:
        limit = self.rules.max_rounds
        return self.ctx.shoe.past_cut or (limit is not None and self.ctx.rounds_played >= limit)


def stages() -> list[BlackjackStage]:
    """A round of blackjack, in order (:class:`PlayHand` is pushed by :class:`PlayerTurns`)."""
    return [PlaceBets(), Deal(), PlayerTurns(), DealerPlays(), Settle()]


# --- the driver ---------------------------------------------------------------------------------------


class Blackjack:
    """A blackjack table: ``players`` (name, chips) take seats 0, 1, ... against the house's
    ``bank`` (bad values raise :class:`ConfigError`). The shoe is shuffled with
    ``random.Random(seed)``, unless ``shoe`` is given.
    :meth:`start` runs to the first decision; then each call is one player's action."""

    def __init__(self, players: Sequence[tuple[str, int]], *, rules: Rules | None = None, bank: int = 1_000_000,
                 seed: int | None = None, shoe: Shoe | None = None) -> None:
        self.rules = rules or Rules()
        for name, chips in players:
            if not isinstance(name, str) or not _whole(chips, 0):
                raise ConfigError(f"A player is (name, chips) with whole chips of at least 0, not {(name, chips)!r}.")
        if not _whole(bank, 0):
            raise ConfigError(f"The house bank must be a whole number of chips of at least 0, not {bank!r}.")
        seated = [Player(seat, name, chips) for seat, (name, chips) in enumerate(players)]
        if shoe is None:
            shoe = Shoe.shuffled(self.rules, random.Random(seed))
        self.ctx = Context(self.rules, seated, bank, shoe)
        self.dispatcher: Dispatcher[Context] = Dispatcher(stages(), self.ctx)

    def start(self) -> None:
        self.dispatcher.start()

    def act(self, kind: str, seat: object, *args: object) -> None:
        """``kind`` (bet, sit_out, hit, stand, double, split, surrender) for ``seat``; an illegal
        action raises :class:`IllegalActionError` and changes nothing."""
        self.dispatcher.send(kind, seat, *args)

    def bet(self, seat: object, amount: object) -> None:
        self.act("bet", seat, amount)

    def hit(self, seat: object) -> None:
        self.act("hit", seat)

    def stand(self, seat: object) -> None:
        self.act("stand", seat)

    def double(self, seat: object) -> None:
        self.act("double", seat)

    def split(self, seat: object) -> None:
        self.act("split", seat)

    def surrender(self, seat: object) -> None:
        self.act("surrender", seat)

    def sit_out(self, seat: object) -> None:
        self.act("sit_out", seat)

    @property
    def stage(self) -> BlackjackStage:
        current = self.dispatcher.current
        assert isinstance(current, BlackjackStage)
        return current

    @property
    def running(self) -> bool:
        return self.dispatcher.status == "running"

    @property
    def to_act(self) -> int | None:
        return self.stage.to_act if self.running else None

    def allowed(self) -> tuple[str, ...]:
        """What the player to act may do now."""
        return self.stage.allowed_actions() if self.running else ()

    def chips(self) -> dict[int, int]:
        """Each seat's chips (off the table)."""
        return {seat: p.chips for seat, p in self.ctx.players.items()}


# --- a basic-strategy bot -------------------------------------------------------------------------

_UP = {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10}


def basic_strategy(hand: Sequence[Card], upcard: Card, allowed: Sequence[str]) -> str:
    """What to do with ``hand`` against the dealer's ``upcard``: a compact form of the standard
    multi-deck chart (dealer hits soft 17, double after split; a few marginal plays such as soft 19
    doubling against a 6 are left out), falling back to what is ``allowed``: a double not allowed
    is a hit (a stand on soft 18), a split not allowed plays the total."""
    up = _UP.get(upcard.rank) or int(upcard.rank)
    total, soft = score(hand)
    if "split" in allowed and hand[0].value == hand[1].value:
        pair = 11 if hand[0].rank == "A" else hand[0].value
        splits = {11: range(2, 12), 8: range(2, 12), 9: (2, 3, 4, 5, 6, 8, 9), 7: range(2, 8), 6: range(2, 7),
                  4: (5, 6), 3: range(2, 8), 2: range(2, 8)}
        if up in splits.get(pair, ()):
            return "split"
    if "surrender" in allowed and not soft and ((total == 16 and up >= 9) or (total == 15 and up == 10)):
        return "surrender"
    if soft:
        double = {13: (5, 6), 14: (5, 6), 15: (4, 5, 6), 16: (4, 5, 6), 17: (3, 4, 5, 6), 18: (2, 3, 4, 5, 6)}
        if up in double.get(total, ()):
            return "double" if "double" in allowed else ("stand" if total == 18 else "hit")
        return "stand" if total >= 19 or (total == 18 and up <= 8) else "hit"
    doubles = {9: range(3, 7), 10: range(2, 10), 11: range(2, 12)}
    if "double" in allowed and up in doubles.get(total, ()):
        return "double"
    if total >= 17 or (13 <= total <= 16 and up <= 6) or (total == 12 and 4 <= up <= 6):
        return "stand"
    return "hit"


def play_bot_rounds(game: Blackjack, bet: int) -> None:
    """Every seat bets ``bet`` (sits out when it cannot) and plays basic strategy until the table closes."""
    game.start()
    while game.running:
        seat, allowed = game.to_act, game.allowed()
        assert seat is not None
        if isinstance(game.stage, Insurance):
            game.act("decline", seat)  # basic strategy never insures
        elif isinstance(game.stage, PlaceBets):
            low, high = game.stage.bet_range()
            if "bet" in allowed:
                game.act("bet", seat, max(low, min(bet, high)))
            else:
                game.act("sit_out", seat)
        else:
            stage = game.stage
            assert isinstance(stage, PlayHand)
            game.act(basic_strategy(stage.hand.cards, game.ctx.round.dealer[0], allowed), seat)


def by_round(events: Sequence[Event]) -> list[list[Event]]:
    """``events`` cut into rounds (a round ends with the settlement of its hands)."""
    rounds: list[list[Event]] = [[]]
    for e in events:
        if rounds[-1] and isinstance(rounds[-1][-1], HandSettled) and not isinstance(e, HandSettled):
            rounds.append([])
        rounds[-1].append(e)
    return [r for r in rounds if r]


def main(argv: Sequence[str] | None = None) -> int:
    """Basic-strategy bots play ``--rounds`` rounds, shoe after shoe (each shoe's table exits at its
    cut card; the next is shuffled from the seed and the shoe's number), and the results are printed."""
    parser = argparse.ArgumentParser(description="Basic-strategy bots play seeded rounds of blackjack.")
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--chips", type=int, default=1000)
    parser.add_argument("--bet", type=int, default=10)
    parser.add_argument("--show", type=int, default=1, help="rounds to narrate, event by event")
    args = parser.parse_args(argv)
    players = [(f"bot{i}", args.chips) for i in range(args.players)]
    bank, rounds, shoes = 1_000_000, 0, 0
    tally: dict[tuple[int, str], int] = {}
    while rounds < args.rounds:
        rules = Rules(max_rounds=args.rounds - rounds)
        game = Blackjack(players, rules=rules, bank=bank, seed=args.seed * 1000 + shoes)
        before = game.ctx.total_chips()
        play_bot_rounds(game, args.bet)
        assert game.ctx.total_chips() == before, "chips are conserved"
        if shoes == 0:
            names = {seat: p.name for seat, p in game.ctx.players.items()}
            for number, events in enumerate(by_round(game.ctx.events)[: args.show], 1):
                print(f"Round {number}: " + "; ".join(e.describe(names) for e in events))
        for e in game.ctx.events:
            if isinstance(e, HandSettled):
                tally[e.seat, e.outcome] = tally.get((e.seat, e.outcome), 0) + 1
        players = [(p.name, p.chips) for p in game.ctx.players.values()]
        bank, rounds, shoes = game.ctx.bank, rounds + game.ctx.rounds_played, shoes + 1
        if game.ctx.rounds_played == 0:  # nobody could bet
            break
    print(f"{rounds} rounds from {shoes} shoes, seed {args.seed}, bets of {args.bet}")
    for seat, (name, chips) in enumerate(players):
        counts = ", ".join(f"{tally[seat, o]} {o}" for o in ("blackjack", "win", "push", "lose", "surrender")
                           if (seat, o) in tally)
        print(f"  {name}: {chips - args.chips:+d} chips (now {chips}): {counts}")
    print(f"  house bank: {bank - 1_000_000:+d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
