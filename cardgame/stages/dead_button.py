"""The dead-button rule's stages: opening a hand with the button and blinds placed by the rule, and
posting the blinds and what players coming in owe (:mod:`cardgame.model.button`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.button import NEW_PLAYER, Placement, place_blinds
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.events import BlindMissed, BlindsPlaced, ForcedBetPosted
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import check_bool, excerpt
from cardgame.stages.forced_bets import ForcedBets
from cardgame.stages.results import HandOpened
from cardgame.stages.wait_for_players import WaitForPlayers

__all__ = ["BlindsOpened", "DeadButtonBlinds", "DeadButtonWait"]


@fast_init
@attrs.frozen
class BlindsOpened(HandOpened):
    """Result: a hand opened under the dead-button rule, with the seats that post the small blind
    (``None``: dead) and the big blind, and whether players coming in post what they owe."""

    small_blind: int | None = None
    big_blind: int = 0
    posts: bool = True


class DeadButtonWait(WaitForPlayers):
    """Waits for players, then opens a hand under the dead-button rule (Robert's Rules of Poker,
    buttons and blinds, rule 2(b); TDA, dead button; heads-up, TDA's button in heads-up): the big
    blind moves to the next player in play, the small blind and the button follow it, even onto an
    empty seat (:func:`~cardgame.model.button.place_blinds`). The first hand is placed as the moving
    button places it. Players sitting out whom a blind passes owe it (``BlindMissed``);
    ``new_player`` says whether a new or returning player posts what they owe to be dealt in at once
    (``"post"``) or waits for the big blind (``"wait"``). ``position`` (last hand's button, small
    blind and big blind seats) is kept in snapshots. Pair it with :class:`DeadButtonBlinds`."""

    name: ClassVar[str] = "wait for players"
    snapshot_fields: ClassVar[tuple[str, ...]] = ("position",)
    __slots__ = ("_placement", "new_player", "position")

    def __init__(self, min_players: int = 2, *, max_players: int | None = None, deck: DeckSpec | None = None,
                 new_player: str = "post") -> None:
        super().__init__(min_players, max_players=max_players, deck=deck)
        if new_player not in NEW_PLAYER:
            raise ConfigError(f"new_player must be one of {', '.join(NEW_PLAYER)}, not {excerpt(new_player)}.")
        self.new_player = new_player
        self.position: tuple[int, int, int] | None = None
        self._placement: Placement | None = None

    def find_seats(self) -> None:
        """The seats the rule deals in (prepare: the condition and the hand read them)."""
        table = self.ctx.table
        seats = table.in_play()
        if self.max_players is not None:
            seats = seats[: self.max_players]
        last = self.position
        self._placement = None
        if last is not None and len(seats) >= 2 and all(0 <= s < table.seat_count for s in last):
            self._placement = place_blinds(table.seats, seats, last, self.new_player, self.min_players)
            seats = list(self._placement.seats)
        self._seats = seats

    def open_hand(self) -> None:
        """Open the hand the rule placed: record the missed blinds, forgive what the rule does not make
        players post, put the button on the last player dealt in before the big blind's turn comes."""
        ctx = self.ctx
        table = ctx.table
        placed = self._placement
        seats = self._seats
        if self.deck is not None and ctx.deck_spec is not self.deck:  # (an equal spec is replaced: no comparison)
            ctx.deck_spec = self.deck
        if placed is None:  # the first hand: placed as the moving button places it
            hand = ctx.open_hand(seats)
            order = hand.blind_order()
            small, big, button = order[0].seat, order[1].seat, hand.players[-1].seat
            placed = Placement(button, small, big, tuple(seats), (button, small, big), posts=False)
        else:
            i = max(range(len(seats)), key=lambda k: (seats[k] - placed.button - 1) % table.seat_count)
            table.button = seats[i - 1]  # the hand's button moves to seats[i], the last to act after the flop
            hand = ctx.open_hand(seats)
        for seat, owes in placed.missed:
            player = table.seats[seat]
            assert player is not None
            player.owes = owes
            ctx.emit(BlindMissed(seat, owes))
        for hp in hand.players:
            if not placed.posts or hp.seat == placed.big_blind:
                hp.player.owes = ""
        ctx.emit(BlindsPlaced(placed.button, placed.small_blind, placed.big_blind))
        self.position = placed.position
        self._opened = BlindsOpened(hand.number, hand.button, tuple(hand.by_seat), placed.small_blind,
                                    placed.big_blind, placed.posts)


#: The forced-bet names of the posts to come in: a new player's big blind, missed blinds.
ENTRY_POSTS = ("new player's big blind", "missed big blind", "missed small blind")

#: The forced-bet name of the big-blind ante a player coming in posts with the big blind (``entry_ante``).
ENTRY_ANTE = "big blind ante to come in"


class DeadButtonBlinds(ForcedBets):
    """Posts the blinds where :class:`DeadButtonWait` placed them (none for a dead small blind), then
    what each player coming in owes (Robert's Rules of Poker, buttons and blinds): a new player the
    big blind, live; a player who missed the big blind the big blind live and the small blind dead
    (in the main pot); one who missed the small blind only, the small blind dead. Antes as
    :class:`~cardgame.stages.ForcedBets`. Two blinds; no straddles or button blind.

    ``big_blind_ante``: the player in the big blind posts the ante for the table (TDA 2024 recommended
    procedure RP-11: "the big blind posts the ante for the table"; blind first when short, or the ante
    first with ``big_blind_ante_first``, TDA 2019), whoever that is: a new or returning player dealt in
    at the big blind posts it as any big blind does, and a dead button or dead small blind changes
    nothing, since the big blind is never dead under the rule. One ante a hand: a player posting a big
    blind to come in elsewhere posts no ante, unless ``entry_ante`` (a house rule: with the big blind
    owed, the ante that goes with it, dead in the main pot; Robert's Rules, buttons and blinds, rule 2:
    each round every player meets the total blind obligations)."""

    __slots__ = ("entry_ante",)

    def __init__(self, blinds: Sequence[int] = (1, 2), *, ante: int | Sequence[int] = 0, ante_trimming: bool = True,
                 short_blind: str = "full", big_blind_ante: bool = False, big_blind_ante_first: bool = False,
                 entry_ante: bool = False) -> None:
        super().__init__(blinds, ante=ante, ante_trimming=ante_trimming, short_blind=short_blind,
                         big_blind_ante=big_blind_ante, big_blind_ante_first=big_blind_ante_first)
        check_bool(entry_ante, "entry_ante", ConfigError)  # the others: ForcedBets
        if entry_ante and not big_blind_ante:
            raise ConfigError("entry_ante is the big-blind ante of a player coming in: give big_blind_ante=True with "
                              "it.")
        self.entry_ante = entry_ante
        if len(self.blinds) != 2:
            raise ConfigError("The dead-button rule places a small and a big blind: give exactly two blinds.")
        if len(self.ante) != 1:
            raise ConfigError("Under the dead-button rule the ante is one amount for everyone.")

    def post_blinds(self) -> None:
        """The small blind (unless dead) and the big blind; action starts left of the big blind."""
        placed = self.previous
        if not isinstance(placed, BlindsOpened):
            raise ConfigError("DeadButtonBlinds follows DeadButtonWait, which places the blinds.")
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None
        self._blinds = blinds = []
        for seat, amount, name in ((placed.small_blind, self.blinds[0], "small blind"),
                                   (placed.big_blind, self.blinds[1], "big blind")):
            hp = None if seat is None else hand.by_seat.get(seat)
            if hp is None or amount == 0 or hp.all_in:
                continue
            paid = hp.put_in(min(amount, hp.player.stack))
            ctx.emit(ForcedBetPosted(hp.seat, name, paid, hp.all_in))
            blinds.append((hp.seat, paid))
        players = hand.players
        i = next(k for k, hp in enumerate(players) if hp.seat == placed.big_blind)
        self._opener = players[(i + 1) % len(players)].seat
        self._full = self._top = self.blinds[1]
        if self.short_blind == "posted":
            self._top = max([paid for _, paid in blinds], default=0)

    def big_blind_player(self, hand: Hand) -> HandPlayer | None:
        """The player in the big blind where :class:`DeadButtonWait` placed it (posts the big-blind ante)."""
        placed = self.previous
        return hand.by_seat.get(placed.big_blind) if isinstance(placed, BlindsOpened) else None

    def post_dead(self) -> None:
        """What players coming in owe: the big blind live (it counts toward calling), the small blind dead;
        with ``entry_ante``, the big-blind ante with a big blind, dead."""
        ctx = self.ctx
        hand = ctx.hand
        assert hand is not None
        small, big = self.blinds
        for hp in hand.players:
            owes = hp.player.owes
            if not owes:
                continue
            if owes in ("new", "both") and not hp.all_in:
                paid = hp.put_in(min(big, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, ENTRY_POSTS[0] if owes == "new" else ENTRY_POSTS[1], paid,
                                         hp.all_in))
                self._blinds.append((hp.seat, paid))
                self._top = max(self._top, paid)
                if self.entry_ante and self.ante[0] and not hp.all_in:
                    paid = hp.put_main_pot(hand, min(self.ante[0], hp.player.stack))
                    ctx.emit(ForcedBetPosted(hp.seat, ENTRY_ANTE, paid, hp.all_in))
                    self._antes.append((hp.seat, paid))
            if owes in ("small", "both") and not hp.all_in:
                paid = hp.put_main_pot(hand, min(small, hp.player.stack))
                ctx.emit(ForcedBetPosted(hp.seat, ENTRY_POSTS[2], paid, hp.all_in))
                self._antes.append((hp.seat, paid))
            hp.player.owes = ""
