"""The state of one hand: who is in it, their cards and chips committed, the board, the deck."""

from __future__ import annotations

from collections.abc import Mapping

from cardgame.engine.copies import shallow_copy
from cardgame.model.cards import Card
from cardgame.model.deck import Deck
from cardgame.model.table import Player

__all__ = ["Hand", "HandPlayer"]

_NONE: frozenset[int] = frozenset()


class HandPlayer:
    """One player's part in a hand. ``bet`` is this street's chips, ``contributed`` the hand's.

    ``acted_at`` is the street's bet level when the player last acted voluntarily (``None``:
    has not acted this street), the last full bet's level for a stud bring-in and a call of it (the
    bring-in is no bet); it decides whether a later raise reopens betting for them.
    """

    __slots__ = ("acted_at", "all_in", "bet", "contributed", "face_up", "folded", "hole", "player", "seat")

    def __init__(self, player: Player) -> None:
        self.player = player
        self.seat = player.seat
        self.hole: list[Card] = []
        self.face_up: list[bool] = []
        self.bet = 0
        self.contributed = 0
        self.folded = False
        self.all_in = False
        self.acted_at: int | None = None

    @property
    def stack(self) -> int:
        return self.player.stack

    @property
    def can_act(self) -> bool:
        """Still in the hand with chips behind."""
        return not self.folded and not self.all_in

    def put_in(self, amount: int) -> int:
        """Move ``amount`` chips from the stack to this street's bet; returns the amount."""
        p = self.player
        p.stack -= amount
        self.bet += amount
        self.contributed += amount
        if p.stack == 0:
            self.all_in = True
        return amount

    def put_dead(self, amount: int) -> int:
        """Move ``amount`` to the pot without counting as a bet this street (antes)."""
        p = self.player
        p.stack -= amount
        self.contributed += amount
        if p.stack == 0:
            self.all_in = True
        return amount

    def put_main_pot(self, hand: Hand, amount: int) -> int:
        """Move ``amount`` to the main pot as dead money that is not this player's contribution
        (a big-blind ante: every player can win it, it is never returned; TDA rules 2024)."""
        p = self.player
        p.stack -= amount
        hand.dead += amount
        if p.stack == 0:
            self.all_in = True
        return amount

    def copy(self, player: Player) -> HandPlayer:
        """This part in a copy of the hand, played by ``player`` (the copy of this one's player)."""
        new = shallow_copy(self)
        new.player = player
        new.hole = self.hole[:]
        new.face_up = self.face_up[:]
        return new

    def __repr__(self) -> str:
        flags = " folded" if self.folded else (" all-in" if self.all_in else "")
        return f"HandPlayer(seat={self.seat}, stack={self.stack}, bet={self.bet}{flags})"


class Hand:
    """Everything about the hand in progress.

    ``players`` runs clockwise from the first seat left of the button (the button last).
    ``street`` names the street being played; its betting (the bet to match, the minimum raise, who
    acts) belongs to the betting round (:class:`~cardgame.model.street.Street`). ``last_aggressor`` is the
    seat that made the last bet or raise of the latest betting round, ``first_to_act`` the seat that
    round's action started from (the showdown order: the last aggressor shows first, else the first
    live player from there: TDA rule 16), ``bring_in`` the seat that brought in.
    ``dead`` is dead money in the main pot that belongs to no player's contribution (a big-blind
    ante, a post to sit in); ``mucked`` the seats that will muck at showdown rather than show;
    ``killed`` the hands mucked once betting was over, before the last cards: they are dealt
    nothing more. ``runouts`` holds the boards of a hand run more than once (else empty).
    ``ring`` is ``players`` twice over: ``ring[i : i + len(players)]`` goes once round the table
    from ``players[i]`` (a search for the next player to act, with one slice).
    """

    __slots__ = (
        "board",
        "bring_in",
        "button",
        "by_seat",
        "dead",
        "deck",
        "discards",
        "first_to_act",
        "killed",
        "last_aggressor",
        "mucked",
        "number",
        "players",
        "ring",
        "rounds",
        "runouts",
        "street",
    )

    def __init__(self, number: int, button: int | None, players: list[HandPlayer], deck: Deck) -> None:
        self.number = number
        self.button = button
        self.players = players
        self.ring = players + players
        self.by_seat: dict[int, HandPlayer] = {}
        for hp in players:
            self.by_seat[hp.seat] = hp
        self.deck = deck
        self.board: list[Card] = []
        self.discards: list[Card] = []
        self.street = "preflop"
        self.rounds = 0  # betting rounds begun (a second: the hand went past its first street)
        self.dead = 0
        self.mucked: frozenset[int] = _NONE  # shared empty sets: most hands have no mucks (no allocation)
        self.killed: frozenset[int] = _NONE
        self.last_aggressor: int | None = None
        self.first_to_act: int | None = None
        self.runouts: tuple[tuple[Card, ...], ...] = ()
        self.bring_in: int | None = None

    def copy(self, players: Mapping[Player, Player], deck: Deck) -> Hand:
        """This hand in a copy of the game: each player's part played by its copy in ``players`` (a
        player who left the table, in no seat, is copied too), dealt from ``deck`` (a copy of this
        one's); the board and discards its own, the sets and run-outs (immutable) shared."""
        new = shallow_copy(self)
        ps = new.players = [hp.copy(players.get(hp.player) or hp.player.copy()) for hp in self.players]
        new.ring = ps + ps
        new.by_seat = {hp.seat: hp for hp in ps}
        new.deck = deck
        new.board = self.board[:]
        new.discards = self.discards[:]
        return new

    # --- queries ------------------------------------------------------------------------------
    def live(self) -> list[HandPlayer]:
        """Players who have not folded, in order."""
        return [hp for hp in self.players if not hp.folded]

    def live_count(self) -> int:
        n = 0
        for hp in self.players:
            if not hp.folded:
                n += 1
        return n

    def contested(self) -> bool:
        """Two or more players are live (the count stops at two)."""
        live = 0
        for hp in self.players:
            if not hp.folded:
                live += 1
                if live == 2:
                    return True
        return False

    def pot_total(self) -> int:
        """All chips committed this hand, current street's bets and dead money included."""
        total = self.dead
        for hp in self.players:
            total += hp.contributed
        return total

    def player(self, seat: int) -> HandPlayer:
        return self.by_seat[seat]

    def blind_order(self) -> list[HandPlayer]:
        """Players in the order blinds are posted: small blind first (heads-up: the button)."""
        ps = self.players
        if len(ps) == 2:
            return [ps[1], ps[0]]
        return ps

    def __repr__(self) -> str:
        return f"Hand(#{self.number}, street={self.street}, pot={self.pot_total()}, players={self.players})"
