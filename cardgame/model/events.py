"""Events: one frozen record for every change to a table or a hand.

Every event can be rendered for one seat with ``event.seen_by(seat)``: other players' hidden
cards come back as ``None`` (the Elixir seed's private ``hand_state``).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from cardgame.engine.events import Event, StageFailed
from cardgame.engine.records import fast_init
from cardgame.model.cards import Card, format_cards

__all__ = [
    "ActionTaken",
    "BetReturned",
    "BlindMissed",
    "BlindsPlaced",
    "BoardDealt",
    "CardsDiscarded",
    "CardsShown",
    "ChipsAdded",
    "DiscardsReshuffled",
    "Event",
    "ForcedBetPosted",
    "HandEnded",
    "HandMucked",
    "HandStarted",
    "HandVoided",
    "HoleCardsDealt",
    "PlayerLeft",
    "PlayerSatIn",
    "PlayerSatOut",
    "PlayerSeated",
    "PotAwarded",
    "RakeTaken",
    "RunsChosen",
    "StageFailed",
]



def _name(names: dict[int, str] | None, seat: int) -> str:
    return names.get(seat, f"seat {seat}") if names else f"seat {seat}"


@fast_init
@attrs.frozen
class PlayerSeated(Event):
    kind: ClassVar[str] = "seated"
    seat: int
    name: str
    stack: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{self.name} sits in seat {self.seat} with {self.stack}"


@fast_init
@attrs.frozen
class ChipsAdded(Event):
    kind: ClassVar[str] = "chips added"
    seat: int
    amount: int
    stack: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_name(names, self.seat)} adds {self.amount} (stack {self.stack})"


@fast_init
@attrs.frozen
class PlayerSatOut(Event):
    kind: ClassVar[str] = "sat out"
    seat: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_name(names, self.seat)} sits out"


@fast_init
@attrs.frozen
class PlayerSatIn(Event):
    kind: ClassVar[str] = "sat in"
    seat: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_name(names, self.seat)} sits in"


@fast_init
@attrs.frozen
class PlayerLeft(Event):
    kind: ClassVar[str] = "left"
    seat: int
    name: str
    cashed_out: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{self.name} leaves seat {self.seat}, cashing out {self.cashed_out}"


@fast_init
@attrs.frozen
class HandStarted(Event):
    kind: ClassVar[str] = "hand started"
    hand: int
    button: int | None
    seats: tuple[int, ...]  # dealt in, clockwise from the button's left
    stacks: tuple[int, ...] = ()  # each dealt-in seat's stack before any forced bet, same order

    def describe(self, names: dict[int, str] | None = None) -> str:
        btn = "" if self.button is None else f", button {_name(names, self.button)}"
        return f"Hand #{self.hand}{btn}"


@fast_init
@attrs.frozen
class ForcedBetPosted(Event):
    kind: ClassVar[str] = "forced bet"
    seat: int
    bet: str  # "small blind", "big blind", "straddle", "ante", "big blind ante", "bring-in", "live post"...
    amount: int
    all_in: bool = False

    def describe(self, names: dict[int, str] | None = None) -> str:
        tail = " and is all-in" if self.all_in else ""
        return f"{_name(names, self.seat)} posts {self.bet} {self.amount}{tail}"


@fast_init
@attrs.frozen
class BlindsPlaced(Event):
    """Where the dead-button rule put this hand's button and blinds (:mod:`cardgame.model.button`):
    ``button`` may be an empty seat or one whose player is not dealt in (a dead button);
    ``small_blind`` is ``None`` when the small blind is dead (nobody posts it). The hand's
    ``HandStarted.button`` is the player dealt in who acts last after the first round."""

    kind: ClassVar[str] = "blinds placed"
    button: int
    small_blind: int | None
    big_blind: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        small = "the small blind is dead" if self.small_blind is None else \
            f"{_name(names, self.small_blind)} has the small blind"
        return f"the button is on seat {self.button}, {small}, {_name(names, self.big_blind)} has the big blind"


@fast_init
@attrs.frozen
class BlindMissed(Event):
    """A player sitting out missed a blind and owes it to come back: ``owes`` is ``"small"`` (the
    small blind, posted dead) or ``"both"`` (the big blind live and the small blind dead)."""

    kind: ClassVar[str] = "blind missed"
    seat: int
    owes: str

    def describe(self, names: dict[int, str] | None = None) -> str:
        blind = "the small blind" if self.owes == "small" else "the big blind"
        return f"{_name(names, self.seat)} misses {blind}"


@fast_init
@attrs.frozen
class HoleCardsDealt(Event):
    """Cards dealt to one seat; ``face_up`` marks the ones everyone sees (stud)."""

    kind: ClassVar[str] = "hole cards"
    seat: int
    cards: tuple[Card | None, ...]
    face_up: tuple[bool, ...] = ()

    def seen_by(self, seat: int | None) -> Event:
        if seat == self.seat:
            return self
        if True not in self.face_up:  # built directly (not attrs.evolve): rendered in every hand
            return HoleCardsDealt(self.seat, (None,) * len(self.cards), self.face_up)
        shown = tuple([c if up else None for c, up in zip(self.cards, self.face_up, strict=True)])
        return HoleCardsDealt(self.seat, shown, self.face_up)

    def describe(self, names: dict[int, str] | None = None) -> str:
        shown = " ".join("??" if c is None else str(c) for c in self.cards)
        return f"{_name(names, self.seat)} is dealt {shown}"


@fast_init
@attrs.frozen
class BoardDealt(Event):
    kind: ClassVar[str] = "board"
    street: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{self.street.capitalize()}: {format_cards(self.cards)}  (board {format_cards(self.board)})"


@fast_init
@attrs.frozen
class ActionTaken(Event):
    """A player's decision; ``amount`` is the chips put in, ``to`` the street total after it.

    The engine records a stud completion (the first full bet after the bring-in) as a bet or a
    raise; a hand history that knows it is one writes it with ``action="complete"``."""

    kind: ClassVar[str] = "action"
    seat: int
    action: str  # "fold", "check", "call", "bet", "raise", "bring-in" ("complete": see above)
    amount: int = 0
    to: int = 0
    all_in: bool = False

    def describe(self, names: dict[int, str] | None = None) -> str:
        who = _name(names, self.seat)
        tail = " and is all-in" if self.all_in else ""
        if self.action in ("fold", "check"):
            return f"{who} {self.action}s"
        if self.action == "call":
            return f"{who} calls {self.amount}{tail}"
        if self.action == "bet":
            return f"{who} bets {self.to}{tail}"
        if self.action == "bring-in":
            return f"{who} brings in {self.amount}{tail}"
        if self.action == "complete":
            return f"{who} completes to {self.to}{tail}"
        return f"{who} raises to {self.to}{tail}"


@fast_init
@attrs.frozen
class BetReturned(Event):
    kind: ClassVar[str] = "bet returned"
    seat: int
    amount: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Uncalled {self.amount} returned to {_name(names, self.seat)}"


@fast_init
@attrs.frozen
class CardsShown(Event):
    kind: ClassVar[str] = "shown"
    seat: int
    cards: tuple[Card, ...]
    hand: str = ""

    def describe(self, names: dict[int, str] | None = None) -> str:
        tail = f": {self.hand}" if self.hand else ""
        return f"{_name(names, self.seat)} shows {format_cards(self.cards)}{tail}"


@fast_init
@attrs.frozen
class HandMucked(Event):
    """``seat`` mucks its hand unshown at a showdown where players show or muck in turn (the
    showdown's ``show_or_muck`` option): the hand is dead and wins nothing another hand contests
    (Robert's Rules, showdown; TDA rule 16)."""

    kind: ClassVar[str] = "mucked"
    seat: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"{_name(names, self.seat)} mucks"


@fast_init
@attrs.frozen
class RakeTaken(Event):
    """The house's cut: ``amount`` chips taken from the pots before they are awarded
    (:class:`~cardgame.model.rake.Rake`); they leave the table."""

    kind: ClassVar[str] = "rake taken"
    amount: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Rake {self.amount}"


@fast_init
@attrs.frozen
class RunsChosen(Event):
    """A player all in asked for ``runs`` run-outs of the rest of the board."""

    kind: ClassVar[str] = "runs chosen"
    seat: int
    runs: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        times = {1: "once", 2: "twice"}.get(self.runs, f"{self.runs} times")
        return f"{_name(names, self.seat)} asks to run it {times}"


@fast_init
@attrs.frozen
class PotAwarded(Event):
    """One pot (0 is the main pot) or one half of it (``share`` is "high" or "low"); with several
    run-outs, the part of it played on run-out ``run`` (0 is the first)."""

    kind: ClassVar[str] = "pot awarded"
    pot: int
    amount: int
    winners: tuple[int, ...]
    amounts: tuple[int, ...]
    hand: str = ""
    share: str = ""
    run: int | None = None

    def describe(self, names: dict[int, str] | None = None) -> str:
        pot = "main pot" if self.pot == 0 else f"side pot {self.pot}"
        if self.share:
            pot = f"{self.share} half of the {pot}"
        if self.run is not None:
            pot = f"{pot} (run {self.run + 1})"
        who = ", ".join(f"{_name(names, s)} {a}" for s, a in zip(self.winners, self.amounts, strict=True))
        tail = f" with {self.hand}" if self.hand else ""
        return f"{pot.capitalize()} of {self.amount}: {who}{tail}"


@fast_init
@attrs.frozen
class HandEnded(Event):
    kind: ClassVar[str] = "hand ended"
    hand: int
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) for every seated player

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Hand #{self.hand} ends: " + ", ".join(f"{_name(names, s)} {c}" for s, c in self.stacks)



@fast_init
@attrs.frozen
class HandVoided(Event):
    """A hand that could not be finished is void: ``stacks`` are the (seat, stack) each of its players
    got back, the stack they started it with (every bet returned)."""

    kind: ClassVar[str] = "hand voided"
    hand: int
    stacks: tuple[tuple[int, int], ...]

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Hand #{self.hand} is void: every bet is returned"


@fast_init
@attrs.frozen
class CardsDiscarded(Event):
    """A draw: ``cards`` thrown away (``()`` stands pat); others see only how many."""

    kind: ClassVar[str] = "discarded"
    seat: int
    cards: tuple[Card | None, ...]

    def seen_by(self, seat: int | None) -> Event:
        return self if seat == self.seat else CardsDiscarded(self.seat, (None,) * len(self.cards))

    def describe(self, names: dict[int, str] | None = None) -> str:
        if not self.cards:
            return f"{_name(names, self.seat)} stands pat"
        shown = " ".join("??" if c is None else str(c) for c in self.cards)
        return f"{_name(names, self.seat)} discards {len(self.cards)}: {shown}"


@fast_init
@attrs.frozen
class DiscardsReshuffled(Event):
    """The stub ran short during a draw: ``count`` discards were shuffled into the deck."""

    kind: ClassVar[str] = "reshuffled"
    count: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"The deck is short: {self.count} discards are shuffled in"
