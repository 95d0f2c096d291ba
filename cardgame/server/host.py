"""One table of the server: a :class:`~cardgame.play.game.Game`, its seats, its bots, its clock and
the clients watching it, with no networking in it.

:class:`TableHost` is synchronous and single-threaded: the application calls it from the event
loop (a client's message, the table's clock), and it hands each client the messages meant for
it through the client's ``deliver``. Everything a client sends is checked first; a refused
message raises :class:`~cardgame.server.errors.MessageError` and changes nothing, because each
game method it calls refuses before it changes anything.

Every event the game emits gets a sequence number, counted from the table's first event. A
client receives each event once, as its seat may see it (``event.seen_by(seat)``), in views that
continue exactly where the last one stopped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.cards import CARDS, parse_cards
from cardgame.model.deck import Deck, DeckSpec
from cardgame.model.errors import BotError
from cardgame.model.events import (
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PlayerLeft,
    PlayerSatOut,
)
from cardgame.model.inputs import check_instance, check_int, check_text, excerpt
from cardgame.model.legal import LegalActions
from cardgame.model.pots import settled_pots
from cardgame.play import bots as bot_names
from cardgame.play.bot import Bot, HandEvents, decide, seat_rng
from cardgame.play.game import Game
from cardgame.play.shape import game_shape
from cardgame.server.clock import Clock
from cardgame.server.config import TableConfig
from cardgame.server.errors import MessageError
from cardgame.server.fairness import Deal, new_deal
from cardgame.server.messages import (
    Act,
    AskToSee,
    Draw,
    Leave,
    Message,
    Muck,
    Resume,
    Runs,
    Show,
    Sit,
    SitIn,
    SitOut,
    TopUp,
)
from cardgame.stages.base import mark_sitting_out
from cardgame.stages.wait_for_players import WaitForPlayers
from cardgame.store.serialize import encoded_json

__all__ = ["Client", "TableHost", "hash_token"]

log = logging.getLogger("cardgame.server")

#: The longest player name.
_NAME_LIMIT = 24
#: The most events a full view re-sends (a hand's are far fewer).
_LOG_LIMIT = 2000
#: How long a notice is shown to connections made after it (seconds): a player reconnecting after a
#: restart is told what happened to the hand they were in.
_NOTICE_KEEP = 120.0
_NOTICE_LIMIT = 10
#: The finished hands whose reveals a table keeps (``reveals``).
_REVEALS = 50


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token (the only form the server keeps)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Client:
    """One connection to a table: ``deliver(message)`` hands it a message (a JSON-ready dict, or a
    :class:`Prepared` one, its JSON text made: :func:`message_text` gives either's text);
    ``seat`` is the seat it plays (``None``: a spectator); ``sent`` the newest event sequence
    number it has received."""

    __slots__ = ("deliver", "seat", "sent")

    def __init__(self, deliver: Callable[[dict[str, Any] | Prepared], None]) -> None:
        self.deliver = deliver
        self.seat: int | None = None
        self.sent = -1


class TableHost:
    """A table: ``TableHost("t1", config)`` builds and starts its game (or takes ``game``, a
    recovered one, with ``tokens``: seat -> token hash). ``on_token(seat, hash)`` is told when a
    seat's token changes (``None``: freed), for the store; ``before_send()`` is called before any
    message goes out (the store writes the events it shows first): when it returns ``False`` (a
    write is under way) the table is *held*: it sends nothing and plays nothing (no bot acts, no
    clock runs out, no hand is dealt) until its owner calls :meth:`release` once the events are
    recorded, and then sends what it kept, in order. :meth:`pause` and :meth:`resume` tell the
    players when recording fails and recovers (a ``notice``). ``now`` is the clock's time source."""

    def __init__(self, table_id: str, config: TableConfig, *, game: Game | None = None,
                 tokens: dict[int, str] | None = None, first_seq: int = 0,
                 on_token: Callable[[int, str | None], None] | None = None,
                 before_send: Callable[[], object] | None = None,
                 now: Callable[[], float] | None = None) -> None:
        check_text(table_id, "table id", ConfigError, max_length=1000)
        check_instance(config, TableConfig, "A TableConfig", ConfigError)
        if game is not None:
            check_instance(game, Game, "A Game (a recovered table's)", ConfigError)
        if tokens is not None and (not isinstance(tokens, dict) or not all(
                type(k) is int and isinstance(v, str) for k, v in tokens.items())):
            raise ConfigError(f"tokens map seats to token hashes, not {excerpt(tokens)}.")
        check_int(first_seq, "first_seq", ConfigError, minimum=0)
        for what, hook in (("on_token", on_token), ("before_send", before_send), ("now", now)):
            if hook is not None and not callable(hook):
                raise ConfigError(f"{what} must be a function or None, not {excerpt(hook)}.")
        self.table_id = table_id
        self.config = config
        variant = config.variant_object()
        if game is None:
            game = Game(variant, params=config.params, seats=config.seats, min_buy_in=config.min_buy_in,
                        max_buy_in=config.max_buy_in, seed=config.seed)
        self.game = game
        self.variant_name: str = variant.name
        self.shape = game_shape(game.dispatcher.stages, game.ctx.deck_spec, variant.name)
        # the views' table's fixed parts, as JSON text
        self._table_head = f'{{"id":{_string(table_id)},"name":{_json(config.name)},"variant":{_string(variant.name)},'
        self._stud = "true" if any(self.shape.up_cards) else "false"
        self.now = now or time.monotonic
        self.tokens: dict[int, str] = dict(tokens or {})  # seat -> token hash, people's seats
        self.on_token = on_token
        self.before_send = before_send
        self.clients: list[Client] = []
        self.bots: dict[int, tuple[Bot, random.Random]] = {}
        self.bot_events = HandEvents()
        self.clock = Clock(config.action_time, config.time_bank)
        self.misses: dict[int, int] = {}
        self.seq = first_seq - 1  # the newest event's number
        self.pending: list[tuple[int, Event]] = []  # events not yet sent
        self.hand_log: list[tuple[int, Event]] = []  # the current (or last) hand's events
        self._public_text: dict[int, str] = {}  # seq -> that item's JSON text
        self._batch: _Batch | None = None  # while refresh() sends: the views' shared parts
        self._quoted: dict[str, str] = {}  # a player's name -> its JSON text
        self.bot_due: float | None = None  # when the bot to act answers (bot_delay)
        self._rebuy = False
        self.rebuys = True  # a broke bot buys in again (a tournament's table sets it False)
        #: ``guard(client, message)`` is asked first about each message and may refuse it (a
        #: :class:`MessageError`): a tournament's table refuses seats, top-ups and leaving with chips.
        self.guard: Callable[[Client, Message], None] | None = None
        self.paused_until = 0.0  # no bot answers and no clock runs before then: the last hand is shown
        self.held = False  # events wait to be recorded: nothing is sent or played
        self.outbox: list[tuple[Client, dict[str, Any] | Prepared]] = []  # messages kept while held
        self.paused: str | None = None  # why the table is paused (its store fails), told to each newcomer
        self.timed_out: set[int] = set()  # this hand's events that a timeout made (their text says so)
        self.said: dict[int, str] = {}  # this hand's events told in other words than their own
        self.notices: list[tuple[float, dict[str, Any]]] = []  # (when, message): the recent notices
        self.deal: Deal | None = None  # the hand in progress's committed deck
        self._next_deal: tuple[Deal, Deck] | None = None  # the next hand's, stacked already
        self.commitments: dict[int, str] = {}  # the newest hands' commitments, by hand number
        self.reveals: dict[int, dict[str, Any]] = {}  # the newest finished hands' reveals, by hand number
        game.hook(self._on_event)  # inside the change: the next deck and the bots act before the next hand
        self._seat_bots()  # before the game starts: bots seated alone sit out before any hand is dealt
        self._prepare_deal()
        if game.dispatcher.status == "new":
            game.start()
        self.refresh()

    # --- events ---------------------------------------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        self.seq += 1
        item = (self.seq, event)
        self.pending.append(item)
        if type(event) is HandStarted:
            self.hand_log = [item]
            self._public_text = {}
            self.timed_out = set()
            self.said = {}
            self._start_deal(event.hand)
            return
        log = self.hand_log
        log.append(item)
        if len(log) > _LOG_LIMIT:  # between hands, seats come and go: keep the newest
            del log[:-_LOG_LIMIT]
        if type(event) not in _NOTED:  # most events: an action, a card dealt
            return
        if type(event) is PlayerLeft and event.seat in self.tokens:
            self._free_token(event.seat)
        elif type(event) is HandEnded:
            self._end_deal(event.hand)
            self._rebuy_bots()
            self.paused_until = self.now() + self.config.hand_pause
        if type(event) is not HandEnded and self.game.hand is not None:  # a player sat out or left
            self._bots_sit_out_alone()

    # --- the committed deck (cardgame.server.fairness) -----------------------------------------------
    def _prepare_deal(self) -> None:
        """Shuffle and stack the next hand's whole deck now, so its commitment exists before its first card."""
        ctx = self.game.ctx
        if ctx.next_deck is not None:  # stacked by someone else (a test, a replay): not ours to commit
            return
        spec = self._deck_spec()
        deal = new_deal(spec.cards, ctx.rng)
        deck = ctx.next_deck = Deck.stacked(deal.deck, spec)
        self._next_deal = (deal, deck)

    def _deck_spec(self) -> DeckSpec:
        """The deck this variant deals from (its wait stage may name its own, e.g. the short deck)."""
        for stage in self.game.dispatcher.stages:
            if isinstance(stage, WaitForPlayers) and stage.deck is not None:
                return stage.deck
        return self.game.ctx.deck_spec

    def _start_deal(self, number: int) -> None:
        hand = self.game.hand
        pending, self._next_deal = self._next_deal, None
        self.deal = pending[0] if pending is not None and hand is not None and hand.deck is pending[1] else None
        if self.deal is not None:
            self.commitments[number] = self.deal.commitment
            while len(self.commitments) > _REVEALS:
                del self.commitments[min(self.commitments)]

    def _end_deal(self, number: int) -> None:
        deal, self.deal = self.deal, None
        if deal is not None:
            made = self.commitments.get(number) or deal.commitment  # made at the hand's start: not hashed again
            self.reveals[number] = {"hand": number, "commitment": made, **deal.reveal()}
            while len(self.reveals) > _REVEALS:
                del self.reveals[min(self.reveals)]
        self._prepare_deal()

    def _deal_part(self, event: Event) -> tuple[str, Any] | None:
        """What a view's item of ``event`` carries besides its own fields, as (key, value): a hand's
        ``commitment`` on its ``hand started`` item (so before its first card), its ``reveal`` on its
        ``hand ended`` one; else ``None``. Both are public: every connection at the table is shown them."""
        if type(event) is HandStarted and event.hand in self.commitments:
            return "commitment", self.commitments[event.hand]
        if type(event) is HandEnded and event.hand in self.reveals:
            return "reveal", self.reveals[event.hand]
        return None

    # --- seats ------------------------------------------------------------------------------------------
    def _seat_bots(self) -> None:
        """Seat each configured bot that is not seated yet; attach every configured bot."""
        buy_in = self.config.bot_buy_in or self.config.max_buy_in
        table = self.game.table
        for seat, name in sorted(self.config.bots.items()):
            player = table.seats[seat]
            if player is None:
                if seat in self.tokens:
                    continue  # a person holds it
                self.game.sit_down(f"{name} ({seat})"[:_NAME_LIMIT], buy_in, seat)
            bot = bot_names.get(name)
            self.bots[seat] = (bot, seat_rng(self.game, seat))
        self._bots_follow_people()

    def _people_playing(self) -> bool:
        """Whether a person is seated and not sitting out."""
        return any((p.seat not in self.bots or p.seat in self.tokens) and not p.sitting_out
                   for p in self.game.table.players())

    def _bots_sit_out_alone(self) -> None:
        """In a hand, from inside the engine, when a player sits out or leaves (the last person went
        broke as the hand closed, say) and no person plays any more: the bots sit out at once, before
        the hand ends and the engine deals the next one, so they deal no hand among themselves, unless
        ``bots_alone``. (Their events follow the one that caused them, inside the hand, as the store,
        which listens first, records them.)"""
        if not self.bots or self.config.bots_alone or self._people_playing():
            return
        for seat in self.bots:
            player = self.game.table.seats[seat]
            if player is not None and seat not in self.tokens and not player.sitting_out:
                mark_sitting_out(self.game.ctx, seat)

    def _bots_follow_people(self) -> None:
        """Bots sit out while no person is seated (a table nobody plays at does not deal hands to
        bots alone, unless ``bots_alone``), and sit in when one is."""
        if not self.bots or self.config.bots_alone:
            return
        people = self._people_playing()
        for seat in self.bots:
            player = self.game.table.seats[seat]
            if player is None or seat in self.tokens or player.sitting_out != people or player.stack == 0:
                continue
            if people:
                self.game.sit_in(seat)
            else:
                self.game.sit_out(seat)

    def _rebuy_bots(self) -> None:
        """A bot that went broke buys in again once the hand is over (in :meth:`step`, not from inside
        the engine's event), so the table keeps its players."""
        self._rebuy = self.rebuys

    def _do_rebuys(self) -> None:
        if not self._rebuy:
            return
        self._rebuy = False
        buy_in = self.config.bot_buy_in or self.config.max_buy_in
        hand = self.game.hand
        for seat in self.bots:
            player = self.game.table.seats[seat]
            if player is not None and player.stack == 0 and (hand is None or seat not in hand.by_seat):
                self.game.top_up(seat, buy_in)  # between its hands: the next hand may have started already
                if self.config.bots_alone and seat not in self.tokens:
                    self.game.sit_in(seat)  # the engine sat it out when it went broke
        self._bots_follow_people()

    def _free_token(self, seat: int) -> None:
        self.tokens.pop(seat, None)
        self.misses.pop(seat, None)
        self.clock.forget(seat)
        for c in self.clients:
            if c.seat == seat:
                c.seat = None
        if self.on_token is not None:
            self.on_token(seat, None)

    def connect(self, client: Client) -> None:
        """A new connection: it watches as a spectator until it sits or resumes."""
        self.clients.append(client)
        self._arm()
        self._deliver(client, {"type": "welcome", "table": self.describe(), "seq": self.seq})
        self._send_view(client, full=True)
        since = self.now() - _NOTICE_KEEP
        recent = [message for when, message in self.notices if when >= since]
        if self.paused is not None and not any(m["kind"] == "paused" and m["text"] == self.paused for m in recent):
            recent.append({"type": "notice", "kind": "paused", "text": self.paused, "seq": self.seq})
        for message in recent:  # told at once, held or not (a paused table sends nothing else)
            client.deliver(message)

    def notice(self, kind: str, text: str) -> None:
        """Tell every connection ``text``, words for the players about the table (a ``notice``
        message: ``kind`` a short id such as ``voided``, ``paused`` or ``resumed``); connections made
        in the next couple of minutes are told too."""
        check_text(kind, "notice kind", ConfigError, max_length=40)
        check_text(text, "notice text", ConfigError, max_length=500)
        message = {"type": "notice", "kind": kind, "text": text, "seq": self.seq}
        self.notices = [*self.notices[-_NOTICE_LIMIT + 1:], (self.now(), message)]
        for client in list(self.clients):
            client.deliver(message)

    def disconnect(self, client: Client) -> None:
        """A connection closed: its seat stays (the clock keeps running for it)."""
        if client in self.clients:
            self.clients.remove(client)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.clients)

    # --- messages -------------------------------------------------------------------------------------
    def handle(self, client: Client, message: Message) -> None:
        """Carry out ``message`` from ``client``, or raise :class:`MessageError` with the table unchanged.
        The views it causes are delivered (:meth:`refresh`). While the table is paused only ``resume``
        is taken."""
        if self.paused is not None and not isinstance(message, Resume):
            raise MessageError("paused", f"{self.paused} Nothing can change until it resumes.")
        if self.guard is not None:
            self.guard(client, message)
        match message:
            case Sit():
                self._sit(client, message)
            case Resume():
                self._resume(client, message.token)
            case Act() | Draw() | Runs() | Muck() | Show() | AskToSee():
                self._decide(client, message)
            case SitOut():
                self._call(self.game.sit_out, self._seat_of(client))
            case SitIn():
                seat = self._seat_of(client)
                self._call(self.game.sit_in, seat)
                self.misses[seat] = 0
            case TopUp():
                self._call(self.game.top_up, self._seat_of(client), message.amount)
            case Leave():
                self._leave(client)
        self._bots_follow_people()
        self.refresh()

    def _seat_of(self, client: Client) -> int:
        if client.seat is None:
            raise MessageError("not_seated", "This connection has no seat: send 'sit' or 'resume' first.")
        return client.seat

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            return method(*args)
        except CardgameError as exc:
            raise MessageError("illegal", str(exc)) from None

    def _sit(self, client: Client, message: Sit) -> None:
        if client.seat is not None:
            raise MessageError("already_seated", f"This connection already plays seat {client.seat}.")
        name = message.name.strip()
        if not 1 <= len(name) <= _NAME_LIMIT or not name.isprintable():
            raise MessageError("malformed", f"A name is 1 to {_NAME_LIMIT} printable characters, not "
                                            f"{excerpt(message.name)}.")
        table = self.game.table
        if message.seat is not None and not 0 <= message.seat < table.seat_count:
            raise MessageError("seat_taken", f"There is no seat {message.seat}: the seats are 0 to "
                                             f"{table.seat_count - 1}.")
        if message.seat is not None and table.seats[message.seat] is not None:
            free = [s for s, p in enumerate(table.seats) if p is None]
            raise MessageError("seat_taken", f"Seat {message.seat} is taken; free seats: "
                                             f"{', '.join(map(str, free)) or 'none'}.")
        if any(p.name == name for p in table.players()):
            raise MessageError("seat_taken", f"{excerpt(name)} is already seated here; choose another name.")
        if not table.min_buy_in <= message.buy_in <= table.max_buy_in:
            raise MessageError("buy_in", f"The buy-in must be {table.min_buy_in} to {table.max_buy_in}, "
                                         f"not {message.buy_in}.")
        player = self._call(self.game.sit_down, name, message.buy_in, message.seat)
        token = secrets.token_urlsafe(24)
        self._bind(client, player.seat, token)
        log.info("table %s: seat %d taken", self.table_id, player.seat)

    def _bind(self, client: Client, seat: int, token: str) -> None:
        digest = hash_token(token)
        self.tokens[seat] = digest
        self.misses[seat] = 0
        if self.on_token is not None:
            self.on_token(seat, digest)
        for other in self.clients:  # a seat has one connection: a newer one takes it over
            if other.seat == seat and other is not client:
                other.seat = None
                self._deliver(other, {"type": "error", "code": "bad_token", "seq": self.seq,
                                      "message": "Another connection took over this seat."})
                self._send_view(other, full=True)
        client.seat = seat
        self._deliver(client, {"type": "seated", "seat": seat, "token": token, "seq": self.seq})
        self._send_view(client, full=True)

    def _resume(self, client: Client, token: str) -> None:
        digest = hash_token(token)
        seat = next((s for s, d in self.tokens.items() if secrets.compare_digest(d, digest)), None)
        if seat is None:
            raise MessageError("bad_token", "No seat at this table has that token (a seat's token ends when its "
                                            "player leaves).")
        if client.seat is not None and client.seat != seat:
            raise MessageError("already_seated", f"This connection already plays seat {client.seat}.")
        self._bind(client, seat, token)
        log.info("table %s: seat %d resumed", self.table_id, seat)

    def _decide(self, client: Client, message: Act | Draw | Runs | Muck | Show | AskToSee) -> None:
        seat = self._seat_of(client)
        if message.seq != self.seq:
            raise MessageError("stale", f"This decision answers the view of event {message.seq}, but the newest "
                                        f"event is {self.seq}: act on the newest view.")
        game = self.game
        if isinstance(message, Muck):
            self._call(game.muck, seat)
            return
        if isinstance(message, AskToSee):  # any player still holding cards, in turn or not (TDA rule 18)
            self._call(game.ask_to_see, seat)
            return
        if game.to_act != seat:
            whose = "nobody's" if game.to_act is None else f"seat {game.to_act}'s"
            raise MessageError("not_your_turn", f"It is {whose} turn, not seat {seat}'s.")
        if isinstance(message, Act) and message.action in ("bet", "raise") and message.amount is None:
            legal = game.legal_actions()
            allowed = (f"from {legal.min_raise_to} to {legal.max_raise_to}" if legal is not None and legal.can_raise
                       else "but no bet or raise is allowed now")
            raise MessageError("malformed", f"A {message.action} needs an amount, the total to {message.action} "
                                            f"{'' if message.action == 'bet' else 'to '}({allowed}).")
        match message:
            case Act():
                self._call(game.act, seat, message.action, message.amount)
            case Draw():
                try:
                    cards = parse_cards(" ".join(message.discards)) if message.discards else []
                except CardgameError as exc:
                    raise MessageError("illegal", str(exc)) from None
                self._call(game.draw, seat, cards)
            case Runs():
                self._call(game.choose_runs, seat, message.count)
            case Show():
                self._call(game.show, seat)
        self.clock.spend(seat, self.now())
        self.misses[seat] = 0

    def _leave(self, client: Client) -> None:
        seat = self._seat_of(client)
        player = self.game.table.player(seat)
        stack = self._call(self.game.leave, seat)
        self.tokens.pop(seat, None)
        if self.on_token is not None:
            self.on_token(seat, None)
        client.seat = None
        self._deliver(client, {"type": "left", "seat": seat, "stack": stack, "pending": stack is None,
                               "name": player.name, "seq": self.seq})
        self._send_view(client, full=True)

    # --- the clock and the bots -------------------------------------------------------------------------
    #: The most decisions one :meth:`step` takes, so a table of bots yields to the others between batches.
    BOT_BATCH = 64

    def step(self) -> None:
        """Let bots answer and time out silent players, as far as the clock allows now (at most
        :data:`BOT_BATCH` decisions); then deliver the views. The application calls it when
        :meth:`wake_at` comes, and after each message."""
        game = self.game
        if self.held:
            return
        self._bots_follow_people()
        for _ in range(self.BOT_BATCH):
            if game.dispatcher.status != "running":
                break
            self._do_rebuys()
            seat = game.to_act
            if seat is None:
                break
            now = self.now()
            if seat in self.bots and seat not in self.tokens:
                if self.bot_due is None:
                    self.bot_due = max(now, self.paused_until) + self.config.bot_delay
                if now < self.bot_due:
                    break
                self.bot_due = None
                self._bot_decides(seat)
                continue
            self._arm()
            if now < self.clock.deadline():
                break
            self._time_out(seat)
        self.refresh()

    def _bot_decides(self, seat: int) -> None:
        bot, rng = self.bots[seat]
        try:
            decide(self.game, seat, bot, rng, shape=self.shape, events=self.bot_events)
        except BotError as exc:  # a bot's bug must not stall the table: it is timed out instead
            log.warning("table %s: the bot in seat %d failed (%s); it is timed out", self.table_id, seat, exc)
            self._time_out(seat, count=False)

    def _time_out(self, seat: int, *, count: bool = True) -> None:
        """``seat`` ran out of time: check if free, else fold; a draw stands pat (or throws what it
        must), a run-out choice runs once, a due bring-in is posted (TDA: a player who does not act in
        time is folded; online rooms check when checking is free). At a showdown played with show or
        muck, a losing hand is mucked (TDA: a player not acting in time has a dead hand; Robert's Rules,
        showdown: a losing hand may be mucked unshown) and a winning one shown, since a hand must be
        shown to win (Robert's Rules, showdown 1; online rooms show it for the player); an uncontested
        winner's courtesy show is declined (``ShowOptions.default``). After ``max_misses`` timeouts in
        a row the player is sat out."""
        game = self.game
        self.clock.spend(seat, self.now())
        first = self.seq + 1
        if (show := game.show_options()) is not None:
            game.show(seat) if show.default == "show" else game.muck(seat)
        elif game.draw_options() is not None or game.run_options() is not None:
            decide(game, seat, bot_names.get("calling-station"), random.Random(0), shape=self.shape,
                   events=self.bot_events)
        else:
            legal = game.legal_actions()
            assert legal is not None
            action = "check" if legal.can_check else "bring_in" if legal.bring_in else "fold"
            game.act(seat, action, None)
        log.info("table %s: seat %d timed out", self.table_id, seat)
        decided = next((n for n, e in self.pending if n >= first and getattr(e, "seat", None) == seat), None)
        if count and decided is not None:
            self.timed_out.add(decided)
        if count:
            self.misses[seat] = misses = self.misses.get(seat, 0) + 1
            player = game.table.seats[seat]
            if misses >= self.config.max_misses and player is not None and not player.sitting_out:
                first = self.seq + 1
                game.sit_out(seat)
                for n, e in self.pending:
                    if n >= first and e.kind == "sat out" and getattr(e, "seat", None) == seat:
                        self.said[n] = f"{player.name} ran out of time {misses} times in a row and now sits out"
                self._bots_follow_people()

    def _arm(self) -> None:
        """Start the clock of a person who must now decide (a bot's answer is timed by ``bot_delay``)."""
        seat = self.game.to_act
        if seat is not None and not (seat in self.bots and seat not in self.tokens):
            self.clock.start(seat, self.seq, max(self.now(), self.paused_until))

    def wake_at(self) -> float | None:
        """When :meth:`step` has work next (a bot's answer, a clock running out, a broke bot's buy-in
        left by the batch of decisions that ended its hand), on ``now``'s scale."""
        if self.held or self.game.dispatcher.status != "running":
            return None
        seat = self.game.to_act
        if seat is None:
            return self.now() if self._rebuy else None
        if seat in self.bots and seat not in self.tokens:
            return self.bot_due if self.bot_due is not None else self.now()
        if self.clock.seat == seat and self.clock.key == self.seq:
            return self.clock.deadline()
        return self.now()

    # --- views ---------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Deliver the events since the last views to every client, in a view each."""
        if not self.pending or not self._before_send():
            return
        self._arm()
        pending = self.pending
        self._batch = _Batch(self.game.to_act, pending)  # the parts every client's view shares, made once
        try:
            for client in list(self.clients):  # sent at once: the table may send (asked above), and nothing
                sent = client.sent             # it sends makes an event
                items = pending if pending[0][0] > sent else [(n, e) for n, e in pending if n > sent]
                if items:
                    client.deliver(self.view(client.seat, items))
                    client.sent = self.seq
        finally:
            self._batch = None
        self.pending = []

    def _before_send(self) -> bool:
        """Whether messages may go out now (else the table is held: see the class)."""
        if self.held:
            return False
        if self.before_send is not None and self.before_send() is False:
            self.held = True
            return False
        return True

    def _deliver(self, client: Client, message: dict[str, Any] | Prepared) -> None:
        if self._before_send():
            client.deliver(message)
        else:
            self.outbox.append((client, message))

    def release(self) -> None:
        """The events are recorded: send what was kept, then play on."""
        self.held = False
        outbox, self.outbox = self.outbox, []
        for client, message in outbox:
            if client in self.clients:
                client.deliver(message)
        self.refresh()

    def pause(self, text: str) -> None:
        """The table's events cannot be recorded: it stays held, takes no message but ``resume``, and
        tells its players why."""
        if self.paused is None:
            self.paused = text
            self.notice("paused", text)

    def resume(self, text: str) -> None:
        """Recording works again: tell the players (then :meth:`release` the table). The clock of the
        player to act starts again: the pause is not their time."""
        if self.paused is not None:
            self.paused = None
            self.notice("resumed", text)
            if self.clock.seat is not None:
                self.clock.started = max(self.clock.started, self.now())
            if self.bot_due is not None:
                self.bot_due = max(self.bot_due, self.now())

    def _send_view(self, client: Client, *, full: bool = False) -> None:
        self._arm()  # a view sent before refresh() (a seat taken as its hand starts) shows the clock too
        if full:
            items: Iterable[tuple[int, Event]] = self.hand_log
        else:
            items = [(n, e) for n, e in self.pending if n > client.sent]
            if not items:
                return  # it has seen all of it already (a full view)
        self._deliver(client, self.view(client.seat, items, full=full))
        client.sent = self.seq

    def view(self, seat: int | None, items: Iterable[tuple[int, Event]] = (), *, full: bool = False) -> Prepared:
        """The ``view`` message for ``seat`` (``None``: a spectator) carrying ``items`` (numbered events),
        as the JSON text a connection sends (a :class:`Prepared` message), made from parts encoded once
        for every view that shows them (a public event's item; the table as a spectator sees it, a batch's
        events, clock and table)."""
        batch = self._batch if self._batch is not None else _Batch(self.game.to_act)
        shared = seat is None and not full and items is batch.items  # every spectator's view of the batch
        if shared and batch.spectator is not None:  # the same text: made once for all of them
            return batch.spectator
        if items is batch.items and batch.events is not None:  # the batch's events, public: joined once
            events = batch.events
        else:
            events = self._events_text(seat, items, batch)
        to_act = batch.to_act
        if to_act is None:
            question = clock = "null"
        else:
            question = self._question_text(to_act) if to_act == seat else "null"
            clock = self._clock_text(to_act, batch) if self.clock.seat == to_act else "null"
        view = Prepared(f'{{"type":"view","seq":{self.seq},"full":{"true" if full else "false"},'
                        f'"you":{"null" if seat is None else int(seat)},"events":[{events}],'
                        f'"table":{self._table_text(seat, batch)},"question":{question},"clock":{clock}}}')
        if shared:
            batch.spectator = view
        return view

    def _events_text(self, seat: int | None, items: Iterable[tuple[int, Event]], batch: _Batch) -> str:
        """The view's ``events`` as JSON text (without the brackets): each item as ``seat`` sees it. A
        public event's item is rendered once for every view; the batch's events, when all public, are
        joined once too."""
        names: dict[int, str] | None = None  # made when an item is rendered (a public one is, once)
        texts = []
        public_text = self._public_text
        public = True
        for n, e in items:
            item_text = public_text.get(n)
            if item_text is None:
                if names is None:
                    names = self.game.names()
                seen = e.seen_by(seat)
                text = self.said.get(n) or seen.describe(names)
                if n in self.timed_out:
                    text = _ran_out_of_time(text, names.get(getattr(e, "seat", -1), ""))
                extra = ""
                if type(e) in _DEAL_KINDS and (deal := self._deal_part(e)) is not None:
                    extra = f',"{deal[0]}":{_json(deal[1])}'
                # the event's text is the store's row's (encoded once for both)
                item_text = (f'{{"seq":{n},"kind":{_string(e.kind)},"text":{_string(text)},'
                             f'"event":{encoded_json(seen)}{extra}}}')
                if seen is e and (seat is None or e.seen_by(None) is e):  # the same for everyone: render it once
                    public_text[n] = item_text
                else:
                    public = False
            texts.append(item_text)
        events = ",".join(texts)
        if public and items is batch.items:
            batch.events = events
        return events

    def _clock_text(self, seat: int, batch: _Batch) -> str:
        """The JSON text of the view's ``clock`` (of ``seat``, to act): read once a batch, the same in
        every view of it."""
        text = batch.clock
        if text is None:
            now = self.now()
            clock = self.clock
            # (the seconds are floats the clock made: a float's repr is its JSON text)
            text = batch.clock = (f'{{"seat":{int(seat)},"remaining":{round(clock.action_left(now), 2)!r},'
                                  f'"starts_in":{round(clock.starts_in(now), 2)!r},'
                                  f'"bank":{round(clock.bank_left(now), 2)!r}}}')
        return text

    def _table_text(self, seat: int | None, batch: _Batch) -> str:
        """The JSON text of the view's ``table`` as ``seat`` sees it. The table as a spectator sees it is
        made once a batch; a seat's own differs only in that seat's row (its hidden cards)."""
        parts = batch.parts
        if parts is None:
            parts = batch.parts = self._public_table(batch.to_act)
        head, rows, tail, holes = parts
        own = holes.get(seat) if seat is not None else None
        if own is not None:  # the seat's own hidden cards: its row alone differs
            index, before, hole, after = own
            mine = [*rows]
            mine[index] = f'{before}{",".join([_CARD_JSON[c] for c in hole])}{after}'
            return f'{head}{",".join(mine)}{tail}'
        text = batch.table
        if text is None:
            text = batch.table = f'{head}{",".join(rows)}{tail}'
        return text

    def _public_table(self, to_act: int | None) -> tuple[str, list[str], str, dict[int, tuple[int, str, Any, str]]]:
        """The JSON text of the view's ``table`` as a spectator sees it, as (the text before its seats'
        rows, each row's text, the text after them, and for each seat holding cards: its row's index, the
        row's text before its hole cards, the cards and the text after them)."""
        game = self.game
        ctx = game.ctx
        hand = ctx.hand
        table = ctx.table
        by_seat = hand.by_seat if hand is not None else {}
        dealer = table.button
        connected = {c.seat for c in self.clients}
        bots, tokens = self.bots, self.tokens
        banks, time_bank = self.clock.banks, self.clock.time_bank  # seconds (a checked config's, or the clock's)
        quoted = self._quoted
        rows: list[str] = []
        holes: dict[int, tuple[int, str, Any, str]] = {}
        for p in table.seats:
            if p is None:
                continue
            s = p.seat
            name = quoted.get(p.name)
            if name is None:
                if len(quoted) >= 64:
                    quoted.clear()
                name = quoted[p.name] = _string(p.name)
            end = (f'"sitting_out":{_BOOL[p.sitting_out]},"button":{_BOOL[dealer == s]},'
                   f'"bot":{_BOOL[s in bots and s not in tokens]},"connected":{_BOOL[s in connected]},'
                   f'"bank":{round(banks.get(s, time_bank), 2)!r}}}')
            hp = by_seat.get(s)
            if hp is None:
                rows.append(f'{{"seat":{s},"name":{name},"stack":{p.stack},"bet":0,"in_pot":0,"hole":[],"up":[],'
                            f'"in_hand":false,"folded":false,"all_in":false,{end}')
                continue
            hole, face_up = hp.hole, hp.face_up
            up = _FLAGS.get(tuple(face_up))
            if up is None:
                up = _FLAGS[tuple(face_up)] = ",".join([_BOOL[u] for u in face_up])
            if True in face_up:  # stud's up cards
                hidden = ",".join([_CARD_JSON[c] if u else "null" for c, u in zip(hole, face_up, strict=True)])
            else:
                hidden = _NULLS[len(hole)]
            before = f'{{"seat":{s},"name":{name},"stack":{p.stack},"bet":{hp.bet},"in_pot":{hp.contributed},"hole":['
            after = f'],"up":[{up}],"in_hand":true,"folded":{_BOOL[hp.folded]},"all_in":{_BOOL[hp.all_in]},{end}'
            if hole:
                holes[s] = (len(rows), before, hole, after)
            rows.append(f"{before}{hidden}{after}")
        if hand is None:
            middle = '"hand":null,"street":"","pot":0,"pots":[],"board":[]'
        else:  # in the pots: this street's bets are still in front of the players
            pots = ",".join([f'{{"amount":{int(p.amount)},"seats":[{",".join(map(str, p.eligible))}]}}'
                             for p in settled_pots(hand.players, hand.dead)])
            middle = (f'"hand":{int(hand.number)},"street":{_string(hand.street)},"pot":{int(hand.pot_total())},'
                      f'"pots":[{pots}],"board":[{",".join([_CARD_JSON[c] for c in hand.board])}]')
        commitment = self.commitments.get(hand.number) if hand is not None else None
        head = (f'{self._table_head}{middle},"button":{"null" if dealer is None else int(dealer)},'
                f'"to_act":{"null" if to_act is None else int(to_act)},"stud":{self._stud},'
                f'"status":{_string(game.status_name)},"seats":[')
        return head, rows, f'],"commitment":{"null" if commitment is None else _string(commitment)}}}', holes

    def _question_text(self, seat: int) -> str:
        """The JSON text of the view's ``question`` for ``seat``, to act: a betting decision's (the most
        common; the game's legal actions are asked first), else :meth:`_question`'s."""
        legal = self.game.legal_actions()
        if legal is None:
            return _json(self._question(seat))
        raise_ = "null"
        if legal.can_raise:
            low, high, amounts = legal.min_raise_to, legal.max_raise_to, legal.amounts
            raise_ = (f'{{"min":{int(low)},"max":{int(high)},"is_bet":{_BOOL[legal.is_bet]},'
                      f'"pot":{int(max(low, min(self._pot_to(legal), high)))},'
                      f'"amounts":[{",".join(map(str, map(int, amounts)))}],'
                      f'"complete":{_BOOL[bool(legal.bring_in) or self._bring_in_stands()]}}}')
        return (f'{{"kind":"act","seat":{int(seat)},"fold":{_BOOL[legal.can_fold]},"check":{_BOOL[legal.can_check]},'
                f'"call":{int(legal.call_amount)},"raise":{raise_},"bring_in":{int(legal.bring_in)}}}')

    def _pot_to(self, legal: LegalActions) -> int:
        """The street total a pot-sized raise makes the bet: call, then raise the pot."""
        hand = self.game.hand
        pot: int = hand.pot_total() if hand is not None else 0
        return legal.bet_to + pot + legal.call_amount

    def _question(self, seat: int) -> dict[str, Any]:
        """What ``seat``, to act, is asked when no betting decision waits: a draw, a run-out choice, or
        show or muck (only the waiting stage's question is asked of the game)."""
        game = self.game
        if (draw := game.draw_options()) is not None:
            return {"kind": "draw", "seat": seat, "hole": [str(c) for c in draw.hole], "min": draw.min_discards,
                    "max": draw.max_discards, "replace": draw.replace}
        if (runs := game.run_options()) is not None:
            return {"kind": "runs", "seat": seat, "max": runs.max_runs}
        show = game.show_options()  # show or muck (the time-out answer is ``default``)
        assert show is not None, "a player is to act, so one of the four questions waits"
        return {"kind": "show", "seat": seat, "wins": show.wins, "awarded": show.awarded,
                "default": show.default, "ask": game.can_ask_to_see(seat)}

    def _bring_in_stands(self) -> bool:
        """Whether the street's bet is a stud bring-in (a raise now completes it to the small bet)."""
        if not any(self.shape.up_cards):
            return False
        for _, e in reversed(self.hand_log):
            if type(e) is ActionTaken:
                if e.action == "bring-in":
                    return True
                if e.action not in ("call", "check", "fold"):
                    return False
            elif type(e) in (HoleCardsDealt, BoardDealt, HandStarted):
                return False
        return False

    def describe(self) -> dict[str, Any]:
        """The table for the lobby: its id, config, players and hands played."""
        players = [{"seat": p.seat, "name": p.name, "stack": p.stack, "bot": p.seat in self.bots
                    and p.seat not in self.tokens} for p in self.game.table.players()]
        return {"id": self.table_id, "variant": self.variant_name, "config": self.config.public_data(),
                "players": players, "hands": self.game.ctx.hands_played, "status": self.game.status_name}

    def chips(self) -> int:
        """Every chip at the table now: stacks and the hand's pot."""
        hand = self.game.hand
        return sum(p.stack for p in self.game.table.players()) + (hand.pot_total() if hand is not None else 0)


class Prepared(Mapping[str, Any]):
    """A message as its JSON text (``text``, as ``json.dumps`` with compact separators would write
    it): the connection sends it as it is. It also reads as the message's JSON data (``view["seq"]``,
    for a :class:`Client` of one's own, tests and tools), decoded when first read; :meth:`decoded`
    gives a new dict of it."""

    __slots__ = ("_data", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._data: dict[str, Any] | None = None

    def decoded(self) -> dict[str, Any]:
        """The message as JSON data (a new dict)."""
        data: dict[str, Any] = json.loads(self.text)
        return data

    def _read(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self.decoded()
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return f"Prepared({excerpt(self.text, 200)})"


#: Each card's text by its index, as ``str(card)`` gives it (a view shows every card in sight, each a batch).
_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)


#: A value's compact JSON text, as the connections send it.
_json = json.JSONEncoder(separators=(",", ":")).encode
#: A string's JSON text, as :data:`_json` writes it.
_string: Callable[[str], str] = json.encoder.encode_basestring_ascii
#: Each card's JSON text (``"Ah"``, quoted) by its index.
_CARD_JSON: tuple[str, ...] = tuple(_json(t) for t in _CARD_TEXT)


#: The events :meth:`TableHost._on_event` does more for than number and keep (besides ``HandStarted``).
_NOTED = frozenset({HandEnded, PlayerLeft, PlayerSatOut})


class _Batch:
    """The parts of the views :meth:`TableHost.refresh` sends at once that every view shares, each made
    when a view first needs it: the seat to act, the events (``items``) as JSON text when every one is
    public, the clock's and the table's text (as a spectator sees it), the table's parts, and the whole
    view every spectator is sent."""

    __slots__ = ("clock", "events", "items", "parts", "spectator", "table", "to_act")

    def __init__(self, to_act: int | None, items: object = None) -> None:
        self.to_act = to_act
        self.items = items
        self.events: str | None = None
        self.clock: str | None = None
        self.table: str | None = None
        self.parts: tuple[str, list[str], str, dict[int, tuple[int, str, Any, str]]] | None = None
        self.spectator: Prepared | None = None


#: A boolean's JSON text, by the boolean.
_BOOL = ("false", "true")
#: ``_NULLS[n]``: the JSON text of n hidden cards (without the brackets).
_NULLS = tuple(",".join(["null"] * n) for n in range(53))
#: A hand's ``face_up`` flags -> their JSON text (without the brackets).
_FLAGS: dict[tuple[bool, ...], str] = {}

#: The events whose view item carries a part of the hand's committed deck (``_deal_part``).
_DEAL_KINDS = (HandStarted, HandEnded)


def message_text(message: dict[str, Any] | Prepared) -> str:
    """The JSON text a connection sends for ``message`` (a :class:`Prepared` one's made already)."""
    return message.text if type(message) is Prepared else _json(message)


def _ran_out_of_time(text: str, who: str) -> str:
    """``"Ann folds"`` told as a timeout: ``"Ann ran out of time and folds"``."""
    if who and text.startswith(who + " "):
        return f"{who} ran out of time and {text[len(who) + 1:]}"
    return f"{text} (out of time)"
