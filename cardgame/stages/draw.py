"""A draw round: each live player in turn discards some cards and is dealt as many new ones."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, NamedTuple, Self

import attrs

from cardgame.engine import Goto
from cardgame.model.cards import CARDS, Card, format_cards
from cardgame.model.context import Context
from cardgame.model.errors import CardError, ConfigError, IllegalActionError
from cardgame.model.events import CardsDiscarded, DiscardsReshuffled, HoleCardsDealt
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import count, hand_won, table_fit
from cardgame.stages.results import DrawOptions

__all__ = ["Discard", "Draw", "DrawOptions"]


def _cards(cards: object, opts: DrawOptions) -> tuple[Card, ...]:
    """The discards as cards: a sequence of card strings (``"Ah"``) or indices (0 to 51)."""
    allowed = f"a list of cards from {format_cards(opts.hole)} (strings such as 'Ah' or indices 0 to 51)"
    if isinstance(cards, str) or not isinstance(cards, (list, tuple)):
        raise IllegalActionError(f"Discards must be {allowed}, not {excerpt(cards)}.", rule="discards not a list",
                                 allowed=allowed)
    try:
        return tuple([Card(c) for c in cards])
    except CardError as exc:
        raise IllegalActionError(f"{exc} Discards must be {allowed}.", rule="not a card", allowed=allowed) from None


def _read(cards: object) -> tuple[Card, ...] | None:
    """The discards as cards, or ``None`` if they are not a list of cards (the rules refuse them)."""
    if isinstance(cards, str) or not isinstance(cards, (list, tuple)):
        return None
    try:
        return tuple([Card(c) for c in cards])
    except CardError:
        return None


class Discard(NamedTuple):
    """A draw as its trigger carries it to the rules: ``seat`` and the discards as ``given``, read as
    ``cards`` (``None``: not a list of cards)."""

    seat: object
    given: object
    cards: tuple[Card, ...] | None

    @classmethod
    def of(cls, seat: object, given: object) -> Discard:
        """The draw ``seat`` makes discarding ``given`` (read as cards when it is a list of them)."""
        return cls(seat, given, _read(given))


def _n(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _allowed(opts: DrawOptions) -> str:
    """The discards allowed, in words: ``exactly 1 card`` or ``0 to 3 cards``."""
    if opts.min_discards == opts.max_discards:
        return f"exactly {_n(opts.max_discards)} of {format_cards(opts.hole)}"
    return f"{opts.min_discards} to {opts.max_discards} cards of {format_cards(opts.hole)}"


class Draw(PokerStage):
    """Players draw in turn from the first live seat left of the button (all-in players too).

    ``draw(seat, cards)`` discards ``cards`` (empty: stand pat) and deals as many replacements.
    When the deck cannot cover a draw, the muck (earlier discards and folded hands, never the
    drawing player's own cards of this draw) is shuffled and put under the stub, as Robert's Rules
    of Poker (draw games) direct.
    Ends at once when fewer than two players are live.

    Options: each player discards ``min_discards`` to ``max_discards`` cards (``None``: up to the
    whole hand; a player holding fewer cards than ``min_discards`` discards them all); with
    ``replace=False`` discards are not replaced, a discard-only round: Pineapple's
    ``Draw(1, min_discards=1, replace=False)``, where every player must throw exactly one card.
    """

    name: ClassVar[str] = "draw"
    states: ClassVar[list[str]] = ["ready", "waiting_for_draw", "draws_done", "hand_won"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "hand_won", "conditions": "one_player_left"},
        {"trigger": "begin", "source": "ready", "dest": "waiting_for_draw", "after": "first_to_draw"},
        # the draw: its conditions are the rules (questions; refuse_<rule> gives the first failing one's error)
        {"trigger": "draw", "source": "waiting_for_draw", "dest": None, "prepare": "size_up",
         "conditions": ["draws_in_turn", "discards_are_cards", "discards_held", "not_too_many", "not_too_few",
                        "cards_to_deal"], "before": "discard_and_replace", "after": "pass_the_draw"},
        {"trigger": "drew", "source": "waiting_for_draw", "dest": "draws_done", "prepare": "next_to_draw",
         "conditions": "everyone_drew"},
        {"trigger": "drew", "source": "waiting_for_draw", "dest": None},
        {"trigger": "table_changed", "source": "waiting_for_draw", "dest": "hand_won", "conditions": "one_player_left"},
        {"trigger": "table_changed", "source": "waiting_for_draw", "dest": "draws_done", "prepare": "skip_folded",
         "conditions": "everyone_drew"},
        {"trigger": "table_changed", "source": "waiting_for_draw", "dest": None},
    ]
    ends: ClassVar[dict[str, str]] = {"draws_done": "passed_on", "hand_won": "to_showdown"}
    events: ClassVar[tuple[str, ...]] = ("draw",)
    goes_to: ClassVar[tuple[str, ...]] = ("showdown",)
    #: The seat to draw next, saved as a seat.
    snapshot_fields: ClassVar[tuple[str, ...]] = ("drawer",)
    __slots__ = ("_drawer", "_opts", "max_discards", "min_discards", "replace", "street")

    def __init__(self, max_discards: object = None, *, min_discards: object = 0,
                 replace: object = True, street: str = "") -> None:  # object: checked here
        super().__init__()
        #: Which draw this is, as a dealer names it (``first draw``); "" for a game's only draw.
        self.street = check_text(street, "street name", ConfigError, max_length=60, empty=True)
        self._drawer: HandPlayer | None = None  # the player to draw
        self._opts: DrawOptions | None = None  # their options, while a draw is judged
        if max_discards is not None:
            max_discards = check_int(max_discards, "max_discards", ConfigError, minimum=0, maximum=len(CARDS))
        min_discards = check_int(min_discards, "min_discards", ConfigError, minimum=0, maximum=len(CARDS))
        if max_discards is not None and min_discards > max_discards:
            raise ConfigError(f"min_discards ({min_discards}) must not exceed max_discards ({max_discards}).")
        if not isinstance(replace, bool):
            raise ConfigError(f"replace must be True (discards are replaced) or False (discard only), "
                              f"not {excerpt(replace)}.")
        if not replace and max_discards == 0:
            raise ConfigError("A discard-only round (replace=False) with max_discards=0 does nothing; "
                              "allow at least one discard.")
        self.max_discards: int | None = max_discards
        self.min_discards: int = min_discards
        self.replace = replace

    @property
    def label(self) -> str:
        """``first draw``, or ``draw`` for a game's only draw."""
        return self.street or self.name

    def copy(self, ctx: Context) -> Self:
        """This round in a copy of the game: the player to draw is the one in ``ctx``'s hand. A player
        of another hand than the game's (a round cut short by a failure, the game then started again)
        draws no more: the copy has none, and the round finds its first player when it next starts."""
        new = super().copy(ctx)
        hp = self._live_drawer()
        new._drawer = None if hp is None or ctx.hand is None else ctx.hand.by_seat[hp.seat]
        return new

    def _live_drawer(self) -> HandPlayer | None:
        """The player to draw if they are in the game's hand in progress, else ``None``."""
        hp, hand = self._drawer, self.ctx.hand if self.ctx is not None else None
        return hp if hp is not None and hand is not None and hand.by_seat.get(hp.seat) is hp else None

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Needs hole cards to draw from, and a stub that can replace the first player's whole draw
        (later draws may use the muck); a discard-only round (``replace=False``) leaves each player
        ``min_discards`` to ``max_discards`` cards fewer."""
        table = table_fit(before)
        if table is None:
            return before
        if table.hole[1] < 1:
            raise ConfigError("players draw from the cards in their hands, but no cards are dealt before it; "
                              "deal hole cards first (DealHole)")
        lo, hi = table.hole
        most = hi if self.max_discards is None else min(hi, self.max_discards)
        if self.replace:
            table.take(0, most, f"a draw of up to {count(most)} to the first player (with no muck yet)", muck=True)
            return attrs.evolve(table, drawn=table.drawn + most)
        least = min(self.min_discards, lo)  # a player holding fewer than min_discards throws them all
        hole = (max(lo - most, 0), hi - least)
        shed = (lo - hole[0], hi - hole[1])
        return attrs.evolve(table, hole=hole, together=(table.together[0] - shed[0], table.together[1] - shed[1]))

    def fit_key(self) -> Hashable:
        return self.min_discards, self.max_discards, self.replace

    def fit_goto(self, before: Hashable) -> Hashable:
        """Its jump to the showdown is a hand won by the last player left: no hands are shown."""
        return hand_won(before)

    # --- conditions and callbacks ---------------------------------------------------------------
    def one_player_left(self) -> bool:
        hand = self.ctx.hand
        assert hand is not None, "draws run inside a hand"
        return hand.live_count() < 2

    def to_showdown(self) -> Goto:
        """The ending of ``hand_won``: everyone else folded, straight to the showdown."""
        return Goto("showdown", self.previous)

    def first_to_draw(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        self._drawer = self._next(hand, 0)

    def next_to_draw(self) -> None:
        hand = self.ctx.hand
        assert hand is not None and self._drawer is not None
        self._drawer = self._next(hand, hand.players.index(self._drawer) + 1)

    def skip_folded(self) -> None:
        """A player who left folded: if it was their turn, the next player draws."""
        hand = self.ctx.hand
        assert hand is not None
        if self._drawer is not None and self._drawer.folded:
            self.next_to_draw()

    def on_table_change(self) -> None:
        if self.state == "waiting_for_draw":
            self.trigger("table_changed")

    def everyone_drew(self) -> bool:
        hand = self.ctx.hand
        assert hand is not None
        return self._drawer is None

    @property
    def to_act(self) -> int | None:
        """The seat to draw, or ``None``."""
        hp = self._drawer
        return None if hp is None or self.state != "waiting_for_draw" else hp.seat

    @property
    def drawer(self) -> int | None:
        """The seat to draw (``None``: nobody, or the stage has ended), for snapshots; setting it names
        the hand's player."""
        return self.to_act if self._live_drawer() is not None else None

    @drawer.setter
    def drawer(self, seat: int | None) -> None:
        hand = self.ctx.hand if self.ctx is not None else None
        self._drawer = None if seat is None or hand is None else hand.by_seat[seat]

    @staticmethod
    def _next(hand: Hand, start: int) -> HandPlayer | None:
        for hp in hand.players[start:]:
            if not hp.folded:
                return hp
        return None

    def draw_options(self) -> DrawOptions | None:
        """The options of the player to draw, or ``None``."""
        hand = self.ctx.hand
        hp = self._drawer
        if hand is None or hp is None or self.state != "waiting_for_draw":
            return None
        most = len(hp.hole) if self.max_discards is None else min(self.max_discards, len(hp.hole))
        return DrawOptions(hp.seat, tuple(hp.hole), most, min(self.min_discards, most), self.replace)

    def on_draw(self, seat: object, cards: object = ()) -> None:
        """Fire the ``draw`` trigger with the :class:`Discard`: its conditions are the rules, and when one
        fails the draw is refused with that rule's :class:`IllegalActionError` before anything changes.

        ``seat`` and ``cards`` are judged whatever their type (see :meth:`BettingRound.on_act`)."""
        action = Discard.of(seat, cards)
        if not self.trigger("draw", action):
            raise self.refusal("draw", action)

    # --- the rules of a draw (conditions of the draw trigger) ------------------------------------------
    def size_up(self, action: Discard) -> None:
        """The prepare step of a draw: the drawer's options, which the rules read."""
        self._opts = self.draw_options()

    def _options(self) -> DrawOptions:
        opts = self._opts
        assert opts is not None, "size_up ran: a draw is judged while a player is to draw"
        return opts

    def draws_in_turn(self, action: Discard) -> bool:
        """Players draw in turn, from the first live seat left of the button (Robert's Rules, draw
        games)."""
        seat = action.seat
        return isinstance(seat, int) and not isinstance(seat, bool) and seat == self._options().seat

    def refuse_draws_in_turn(self, action: Discard) -> IllegalActionError:
        seat, opts = action.seat, self._options()
        if not isinstance(seat, int) or isinstance(seat, bool):
            return IllegalActionError(f"Seat {excerpt(seat)} is not a seat number: seat {opts.seat} draws next.",
                                      rule="drawing out of turn")
        return IllegalActionError(f"It is not seat {excerpt(seat)}'s turn to draw: seat {opts.seat} draws next.",
                                  rule="drawing out of turn")

    def discards_are_cards(self, action: Discard) -> bool:
        """The discards are named: a list of cards (strings such as ``"Ah"`` or indices 0 to 51; TDA: a
        declaration must be clear)."""
        return action.cards is not None

    def refuse_discards_are_cards(self, action: Discard) -> IllegalActionError:
        try:
            _cards(action.given, self._options())
        except IllegalActionError as exc:
            return exc
        return IllegalActionError("The discards are not cards.", rule="not a card")

    def discards_held(self, action: Discard) -> bool:
        """A player discards only cards they hold, each once (Robert's Rules, draw games)."""
        discards = action.cards
        assert discards is not None
        return len(set(discards)) == len(discards) and set(self._options().hole).issuperset(discards)

    def refuse_discards_held(self, action: Discard) -> IllegalActionError:
        opts, discards = self._options(), action.cards
        assert discards is not None
        return IllegalActionError(
            f"Seat {action.seat} can only discard cards from their hand ({format_cards(opts.hole)}), each once; "
            f"got {format_cards(discards)}.", rule="discarding cards not held",
            allowed=f"any of {format_cards(opts.hole)}")

    def not_too_many(self, action: Discard) -> bool:
        """At most ``max_discards`` cards: the game's draw limit (Robert's Rules, draw games)."""
        assert action.cards is not None
        return len(action.cards) <= self._options().max_discards

    def refuse_not_too_many(self, action: Discard) -> IllegalActionError:
        opts = self._options()
        assert action.cards is not None
        return IllegalActionError(f"Seat {action.seat} may discard at most {_n(opts.max_discards)}, not "
                                  f"{len(action.cards)}.", rule="too many discards", allowed=_allowed(opts))

    def not_too_few(self, action: Discard) -> bool:
        """At least ``min_discards`` cards where a discard is compulsory (Pineapple's one card: the game's
        own rule, docs/rules.md)."""
        assert action.cards is not None
        return len(action.cards) >= self._options().min_discards

    def refuse_not_too_few(self, action: Discard) -> IllegalActionError:
        opts = self._options()
        assert action.cards is not None
        return IllegalActionError(f"Seat {action.seat} must discard at least {_n(opts.min_discards)} of "
                                  f"{format_cards(opts.hole)}, not {len(action.cards)}.", rule="too few discards",
                                  allowed=_allowed(opts))

    def cards_to_deal(self, action: Discard) -> bool:
        """The stub and the muck (reshuffled when the stub runs out: Robert's Rules, draw games) cover the
        replacements."""
        assert action.cards is not None
        return not self._options().replace or len(action.cards) <= self._dealable()

    def refuse_cards_to_deal(self, action: Discard) -> IllegalActionError:
        most = self._dealable()
        return IllegalActionError(f"Only {most} cards can be dealt; discard fewer.", rule="not enough cards",
                                  allowed=f"0 to {most} cards")

    def _dealable(self) -> int:
        """The cards the stub and the muck (earlier discards and folded hands) hold."""
        hand = self.ctx.hand
        assert hand is not None
        return len(hand.deck) + len(hand.discards) + sum([len(p.hole) for p in hand.players if p.folded])

    # --- the draw's callbacks, once every rule held -----------------------------------------------------
    def discard_and_replace(self, action: Discard) -> None:
        """Discard the cards and deal as many (shuffling the muck under the stub when it runs short)."""
        hand = self.ctx.hand
        opts = self._options()
        discards = action.cards
        assert hand is not None and discards is not None
        seat = opts.seat
        deck = hand.deck
        if opts.replace and len(deck) < len(discards):
            folded = [p for p in hand.players if p.folded and p.hole]
            muck = len(hand.discards) + sum([len(p.hole) for p in folded])
            for p in folded:  # folded hands go to the muck
                hand.discards.extend(p.hole)
                p.hole = []
                p.face_up = []
            deck.put_back(hand.discards, self.ctx.rng)
            hand.discards.clear()
            self.ctx.emit(DiscardsReshuffled(muck))
        hp = self._drawer
        assert hp is not None
        self.ctx.emit(CardsDiscarded(seat, discards))
        if discards and not opts.replace:  # discard only: the cards go to the muck
            keep = [(c, u) for c, u in zip(hp.hole, hp.face_up, strict=True) if c not in discards]
            hp.hole = [c for c, _ in keep]
            hp.face_up = [u for _, u in keep]
            hand.discards.extend(discards)
        elif discards:
            keep = [(c, u) for c, u in zip(hp.hole, hp.face_up, strict=True) if c not in discards]
            new = deck.deal(len(discards))
            hp.hole = [c for c, _ in keep] + new
            hp.face_up = [u for _, u in keep] + [False] * len(new)
            hand.discards.extend(discards)
            self.ctx.emit(HoleCardsDealt(seat, tuple(new), (False,) * len(new)))

    def pass_the_draw(self, action: Discard) -> None:
        """The draw is made: the next player draws, or the round ends (``drew``)."""
        self._opts = None
        self.trigger("drew")
