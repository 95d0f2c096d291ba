"""Sit-and-go tournaments hosted by the server (``docs/server.md``, Tournaments).

The operator defines an event (:class:`EventConfig`: ``cardgame serve --event JSON``, or
:meth:`Events.define`); people register from the lobby (``POST /api/events/{id}/register``, a name:
the answer holds the seat token their table page resumes with). The event starts when its seats
are filled, or at ``start_at`` (a Unix time) with the empty seats given to ``bots`` if the operator
named any (else it waits for the seats to fill), or once ``people`` have registered, the other seats
given to bots. It then plays at one table of the server (:meth:`Server.create`), recorded as every
table is:

* Blinds and antes rise by the structure's clock (:mod:`cardgame.tournament.structure`): a new level
  applies from the next hand (TDA rule 23). A minutes clock runs while the server does; a break stops
  play: the hand after it is dealt when the break starts, at the coming level, and nobody acts in it
  until the break is over.
* A player who goes broke is out: their finishing place (:class:`~cardgame.tournament.places.Standings`:
  players out in one hand are ranked by the stacks they started it with, TDA) and prize are written
  with the hand's events. Their seat stays, empty of chips: nobody may sit there, top up or rebuy, and
  nobody may leave with chips (a tournament's chips never leave its table). A player away is dealt in
  and folded by the clock (TDA: chips of an absent player stay in play); one sat out is sat in again.
* Every hand ends with exactly the chips the entrants started with (checked; a difference is logged
  as the bug it would be). The event ends when one player holds them all: the winner.
* At several tables (``table_size``): players move to balance and break tables (TDA rules 10 and 11);
  on the bubble (the next player out finishes in the money: :func:`~cardgame.tournament.seating.bubble`)
  the tables play hand for hand (TDA RP-8): a table that ends its hand deals no other until every
  table has ended theirs, and the players out in one such round are ranked together by the stacks they
  started their hands with. Once the players left fit at one table, every table finishes its hand and
  each player draws a new seat at the final table (TDA RP-9), keeping their token (their page follows
  them).

The event's state (entrants, places, hands played, the clock) is kept in the store's
``server_events`` table, written in the same transaction as the hand that changed it, so a server
killed mid-event and restarted resumes it with every stack (the table's own recovery: the hand in
play is void), place and level as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from cardgame.engine.errors import CardgameError, ConfigError
from cardgame.model.events import Event, HandEnded, HandStarted
from cardgame.model.inputs import check_instance, check_int, check_text, excerpt
from cardgame.play import bots as bot_names
from cardgame.play.bot import seat_rng
from cardgame.play.game import Game
from cardgame.server.config import MAX_SEATS, TableConfig, read_config
from cardgame.server.errors import LimitError, MessageError
from cardgame.server.host import Client, TableHost, hash_token
from cardgame.server.http import STATIC, refusal
from cardgame.server.http import client_address as _address
from cardgame.server.http import error_response as _error
from cardgame.server.http import read_body as _read_body
from cardgame.server.messages import Leave, Message, Sit, SitOut, TopUp
from cardgame.stages.betting_round import BettingRound
from cardgame.stages.forced_bets import ForcedBets
from cardgame.stages.wait_for_players import WaitForPlayers
from cardgame.store.recorder import Row
from cardgame.store.serialize import SnapshotError, from_json
from cardgame.tournament.errors import TournamentError
from cardgame.tournament.icm import icm
from cardgame.tournament.payouts import check_payouts
from cardgame.tournament.places import Finish, Standings
from cardgame.tournament.seating import ROUND_BUSTS, SeatingRules, balance, bubble, draw_seats
from cardgame.tournament.seating import Table as SeatingTable
from cardgame.tournament.structure import PRESETS, Clock, Structure, preset

__all__ = ["EventConfig", "Events", "HostedEvent", "read_event", "routes"]

log = logging.getLogger("cardgame.server")

#: The most events one server holds.
MAX_EVENTS = 100
#: The most players one event seats.
MAX_ENTRANTS = 100
#: The longest player name (as at a table).
_NAME_LIMIT = 24
_MAX_CHIPS = 10**12

_SCHEMA = ("CREATE TABLE IF NOT EXISTS server_events (event_id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, "
           "config TEXT NOT NULL, state TEXT NOT NULL, owner TEXT NOT NULL)")


def _structure(value: object) -> str | dict[str, Any]:
    """A preset's name, or a structure in the TOML form's keys (``unit``, ``ante_format``, ``levels``)."""
    if isinstance(value, str):
        _build_structure(value)
        return value
    if not isinstance(value, Mapping):
        raise ConfigError(f"structure is a preset's name ({', '.join(sorted(PRESETS))}) or an object with unit, "
                          f"ante_format and levels, not {excerpt(value)}.")
    unknown = sorted(str(k) for k in set(value) - {"unit", "ante_format", "levels", "name"})
    if unknown:
        raise ConfigError(f"structure: unknown keys {excerpt(unknown)}; allowed are unit, ante_format, levels, name.")
    _build_structure(dict(value))
    return dict(value)


def _build_structure(value: str | dict[str, Any]) -> Structure:
    try:
        if isinstance(value, str):
            return preset(value)
        return Structure.from_rows(value.get("levels"), unit=value.get("unit", "minutes"),
                                   ante_format=value.get("ante_format", "big blind"), name=value.get("name", ""))
    except TournamentError as exc:
        raise ConfigError(f"structure: {exc}") from None


def _whole(low: int, high: int) -> Callable[[object, Any, object], None]:
    def check(inst: object, attribute: Any, value: object) -> None:
        check_int(value, attribute.name, ConfigError, minimum=low, maximum=high)
    return check


def _seconds(low: float, high: float) -> Callable[[object, Any, object], None]:
    def check(inst: object, attribute: Any, value: object) -> None:
        if type(value) not in (int, float) or not low <= value <= high:  # type: ignore[operator]
            raise ConfigError(f"{attribute.name} must be {low:g} to {high:g} seconds, not {excerpt(value)}.")
    return check


def _payouts(value: object) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise ConfigError(f"payouts is a list of prizes by place (place 1 first), not {excerpt(value)}.")
    try:
        return check_payouts(list(value))
    except TournamentError as exc:
        raise ConfigError(f"payouts: {exc}") from None


def _bots(value: object) -> tuple[str, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple) or len(value) > MAX_SEATS:
        raise ConfigError(f"bots is a list of at most {MAX_SEATS} bot names, not {excerpt(value)}.")
    for name in value:
        if not isinstance(name, str) or name.strip().lower() not in bot_names.available():
            raise ConfigError(f"bots: unknown bot {excerpt(name)}; the bots are {', '.join(bot_names.available())}.")
    return tuple(value)


@attrs.frozen
class EventConfig:
    """A sit-and-go the operator defines: ``name``; ``variant`` (a name or PHH code whose builder takes
    the blinds and antes: no-limit hold'em by default); ``seats``; each entrant's starting ``stack``;
    ``structure`` (a preset's name of :data:`cardgame.tournament.structure.PRESETS`, or an object with
    ``unit``, ``ante_format`` and ``levels`` rows); ``payouts`` (the prize of each place, place 1 first);
    ``start_at`` (a Unix time: start then, filling empty seats with ``bots`` if any are named, else
    waiting for the seats to fill); ``people`` (start once this many have registered, the other seats
    given to ``bots``); the table's ``action_time``, ``time_bank``, ``bot_delay`` and ``hand_pause``;
    ``table_size`` (several tables of that many seats) and ``hand_for_hand_busts`` (how players out in one
    hand-for-hand round finish: :attr:`~cardgame.tournament.seating.SeatingRules.hand_for_hand_busts`)."""

    name: str = attrs.field(validator=lambda i, a, v: _check_name(v))
    variant: str = "NT"
    seats: int = attrs.field(default=6, validator=_whole(2, MAX_ENTRANTS))
    stack: int = attrs.field(default=1500, validator=_whole(1, _MAX_CHIPS))
    structure: str | dict[str, Any] = attrs.field(default="turbo sng", converter=_structure)
    payouts: tuple[int, ...] = attrs.field(default=(100,), converter=_payouts)
    start_at: float | None = None
    people: int | None = None
    bots: tuple[str, ...] = attrs.field(default=(), converter=_bots)
    action_time: float = attrs.field(default=30.0, validator=_seconds(0.05, 3600))
    time_bank: float = attrs.field(default=60.0, validator=_seconds(0, 3600))
    bot_delay: float = attrs.field(default=0.6, validator=_seconds(0, 60))
    hand_pause: float = attrs.field(default=2.0, validator=_seconds(0, 30))
    table_size: int | None = None
    hand_for_hand_busts: str = "stacks"

    def __attrs_post_init__(self) -> None:
        if self.hand_for_hand_busts not in ROUND_BUSTS:
            raise ConfigError(f"hand_for_hand_busts must be one of {', '.join(ROUND_BUSTS)}, not "
                              f"{excerpt(self.hand_for_hand_busts)}.")
        if self.table_size is not None:
            check_int(self.table_size, "table_size", ConfigError, minimum=2, maximum=MAX_SEATS)
        elif self.seats > MAX_SEATS:
            raise ConfigError(f"seats: more than {MAX_SEATS} players play at several tables: give table_size, the "
                              "seats of each table.")
        if self.start_at is not None and (type(self.start_at) not in (int, float) or not 0 <= self.start_at < 1e11):
            raise ConfigError(f"start_at is a Unix time (seconds), not {excerpt(self.start_at)}.")
        if self.people is not None:
            check_int(self.people, "people", ConfigError, minimum=1, maximum=self.seats)
        if (self.people is not None and self.people < self.seats) and not self.bots:
            raise ConfigError("people: the seats left to bots need bots; name them (bots: [\"calling-station\"]).")
        if self.stack * self.seats > _MAX_CHIPS:
            raise ConfigError(f"stack x seats must be at most {_MAX_CHIPS:,} chips, not {self.stack * self.seats:,}.")
        if len(self.payouts) > self.seats:
            raise ConfigError(f"payouts: {len(self.payouts)} places are paid but the event has {self.seats} seats.")
        table = self.table_config()
        if table.seats > table.variant_object().max_players:
            raise ConfigError(f"A table seats 2 to {table.variant_object().max_players} for {excerpt(self.variant)}.")

    def built_structure(self) -> Structure:
        return _build_structure(self.structure)

    def table_config(self, level: int = 1) -> TableConfig:
        """A table the event plays at, with the blinds of ``level`` (its bots are the event's, attached by
        name: a table's own would buy in again when it is recovered)."""
        structure = self.built_structure()
        options = structure.game_options(structure.blind_levels[level - 1])
        import variants

        try:
            found = variants.get(self.variant)
        except CardgameError as exc:
            raise ConfigError(str(exc)) from None
        params = _params(found, options)
        seats = self.table_size or self.seats
        return read_config({"variant": self.variant, "params": params, "seats": seats, "min_buy_in": 1,
                            "max_buy_in": self.stack * self.seats, "action_time": self.action_time,
                            "time_bank": self.time_bank, "max_misses": 100,
                            "bot_delay": self.bot_delay, "bots_alone": True, "hand_pause": self.hand_pause,
                            "name": self.name[:60]})

    def to_data(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["payouts"] = list(self.payouts)
        data["bots"] = list(self.bots)
        return data


def _params(variant: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (a level's blinds) as ``variant``'s builder takes them (TournamentError-free: checked)."""
    from cardgame.server.config import variant_params

    takes = variant_params(variant)
    if not {"small_blind", "big_blind", "ante"} <= set(takes):
        raise ConfigError(f"{variant.name} has no blinds and antes to raise by level; an event plays a variant "
                          "built with small_blind, big_blind and ante (NT...).")
    if "big_blind_ante" not in takes:
        if options["big_blind_ante"]:
            raise ConfigError(f"{variant.name} has no big-blind ante; give the structure ante_format \"everyone\".")
        options = {k: v for k, v in options.items() if k != "big_blind_ante"}
    return options


def _check_name(value: object) -> str:
    text = check_text(value, "name", ConfigError, max_length=_NAME_LIMIT * 3)
    if not text.strip() or not text.isprintable():
        raise ConfigError(f"name must be printable text, not {excerpt(value)}.")
    return text


_FIELDS = {a.name for a in attrs.fields(EventConfig)}


def read_event(data: object) -> EventConfig:
    """The :class:`EventConfig` JSON ``data`` (an object of its fields) describes, checked."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            raise ConfigError(f"An event is a JSON object of its fields, not {excerpt(data)}.") from None
    if not isinstance(data, Mapping):
        raise ConfigError(f"An event is a JSON object of its fields, not {excerpt(data)}.")
    extra = sorted(str(k) for k in set(data) - _FIELDS)
    if extra:
        raise ConfigError(f"Unknown event field {excerpt(extra)}; the fields are {', '.join(sorted(_FIELDS))}.")
    fields = dict(data)
    for key in ("action_time", "time_bank", "bot_delay", "hand_pause"):
        if type(fields.get(key)) is int and abs(fields[key]) < 10**9:  # (a larger one is refused as it is)
            fields[key] = float(fields[key])
    if "name" not in fields:
        raise ConfigError("An event needs a name.")
    try:
        return EventConfig(**fields)
    except TypeError as exc:
        raise ConfigError(f"Bad event: {excerpt(str(exc))}") from None


class HostedEvent:
    """One event: its ``config``, ``status`` (``registering``, ``running``, ``finished``), its
    ``entrants`` (name -> token hash, ``None`` for a bot), the ``tables`` it plays at (number -> table
    id), the :class:`~cardgame.tournament.places.Standings`, the ``hands`` played (at all tables; a
    structure counted in hands counts those of the table that played most) and the clock's ``elapsed``
    seconds (minute structures)."""

    def __init__(self, event_id: str, config: EventConfig) -> None:
        self.event_id = event_id
        self.config = config
        self.structure = config.built_structure()
        self.status = "registering"
        self.entrants: dict[str, str | None] = {}
        self.bots: dict[str, str] = {}  # a bot entrant's name -> its bot
        self.addresses: dict[str, str] = {}  # a person entrant's name -> the address that registered them
        self.tables: dict[int, str] = {}
        self.table_hands: dict[int, int] = {}  # hands played at each table
        self.broken: list[str] = []  # the tables broken (closed), whose pages follow their players
        self.transit: dict[str, int] = {}  # a player moving between tables -> their chips (for a restart)
        self.moves = 0
        self.standings: Standings | None = None
        self.hands = 0
        self.elapsed = 0.0  # the clock's seconds before ``since``
        self.since: float | None = None  # when the clock last (re)started, on the server's clock
        self.hosts: dict[int, TableHost] = {}
        self.started_stacks: dict[int, dict[int, int]] = {}  # each table's hand: seats -> stacks before any forced bet
        self.moving: list[tuple[str, int, int, int]] = []  # moves to make: (player, from table, to table, to seat)
        self.chip_errors = 0
        self.hand_for_hand = False  # the tables play hand for hand (TDA RP-8)
        self.round_out: dict[str, int] = {}  # players out in this hand-for-hand round -> stacks they started it with
        self.held: dict[int, int] = {}  # tables kept from dealing (number -> their own min_players)

    @property
    def table_id(self) -> str | None:
        """The first table's id (the only one's at a sit-and-go)."""
        return self.tables[min(self.tables)] if self.tables else None

    def total(self) -> int:
        """Every chip of the event: at its tables, and moving between them."""
        return sum(h.chips() for h in self.hosts.values()) + sum(self.transit.values())

    # --- the state kept in the store -------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        finishes = [] if self.standings is None else [
            [f.name, f.place, f.shared, f.prize, f.hand] for f in self.standings.finishes]
        return {"status": self.status, "entrants": self.entrants, "bots": self.bots, "addresses": self.addresses,
                "tables": {str(n): t for n, t in self.tables.items()}, "hands": self.hands,
                "table_hands": {str(n): h for n, h in self.table_hands.items()}, "transit": self.transit,
                "broken": self.broken, "moves": self.moves, "elapsed": self.elapsed, "finishes": finishes,
                "hand_for_hand": self.hand_for_hand, "round_out": self.round_out}

    def load(self, state: Mapping[str, Any]) -> None:
        self.status = str(state["status"])
        self.entrants = dict(state["entrants"])
        self.bots = dict(state["bots"])
        self.addresses = dict(state.get("addresses", {}))
        self.tables = {int(n): str(t) for n, t in state["tables"].items()}
        self.table_hands = {int(n): int(h) for n, h in state["table_hands"].items()}
        self.transit = {str(n): int(c) for n, c in state["transit"].items()}
        self.moves = int(state["moves"])
        self.broken = [str(t) for t in state.get("broken", [])]
        self.hands = int(state["hands"])
        self.elapsed = float(state["elapsed"])
        self.hand_for_hand = bool(state.get("hand_for_hand", False))
        self.round_out = {str(n): int(c) for n, c in state.get("round_out", {}).items()}
        if self.status != "registering":
            finishes = tuple(Finish(n, p, s, z, h) for n, p, s, z, h in state["finishes"])
            self.standings = Standings(tuple(self.entrants), self.config.payouts, finishes)

    def rows(self, owner: str, *, new: bool = False) -> list[Row]:
        """The statements that keep the event's state (a ``new`` event's config with it)."""
        state = json.dumps(self.state(), separators=(",", ":"))
        if new:
            return [("INSERT INTO server_events (event_id, created, config, state, owner) VALUES (?, ?, ?, ?, ?)",
                     (self.event_id, time.time(), json.dumps(self.config.to_data()), state, owner))]
        return [("UPDATE server_events SET state = ? WHERE event_id = ?", (state, self.event_id))]

    # --- the clock -------------------------------------------------------------------------------
    def seconds(self, now: float) -> float:
        return self.elapsed + (now - self.since if self.since is not None else 0.0)

    def clock(self, now: float, *, next_hand: bool = False) -> Clock:
        """The structure's clock now (``next_hand``: for the hand dealt next)."""
        if self.structure.unit == "hands":
            rounds = max(self.table_hands.values(), default=0)
            return self.structure.at_hand(rounds + 1 if next_hand else max(1, rounds))
        return self.structure.at_time(int(self.seconds(now)))

    def clock_data(self, now: float) -> dict[str, Any]:
        """The level clock as the pages show it."""
        unit = self.structure.unit
        if self.status == "registering":
            c = self.structure.at_hand(1) if unit == "hands" else self.structure.at_time(0)
        else:
            c = self.clock(now, next_hand=True)
        b = c.blinds
        nxt = c.next_level
        return {"unit": unit, "level": c.level, "small_blind": b.small_blind, "big_blind": b.big_blind, "ante": b.ante,
                "on_break": c.on_break, "remaining": c.remaining, "until_break": c.until_break,
                "next": None if nxt is None else {"small_blind": nxt.small_blind, "big_blind": nxt.big_blind,
                                                  "ante": nxt.ante}}

    # --- the views -------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The event for the lobby."""
        c = self.config
        return {"id": self.event_id, "name": c.name, "variant": c.variant, "seats": c.seats, "stack": c.stack,
                "structure": self.structure.name or "custom", "payouts": list(c.payouts), "status": self.status,
                "registered": len(self.entrants), "start_at": c.start_at, "people": c.people,
                "bots": bool(c.bots), "table": self.table_id, "tables": [self.tables[n] for n in sorted(self.tables)],
                "hand_for_hand": self.hand_for_hand,
                "winner": next((f.name for f in self.standings.finishes if f.place == 1), None)
                if self.standings is not None else None}

    def standings_data(self, now: float) -> dict[str, Any]:
        """The standings: each entrant's seat, stack, place and prize, and the ICM equity of each stack
        over the prizes still to be played for."""
        rows: dict[str, dict[str, Any]] = {n: {"name": n, "bot": n in self.bots, "table": None, "seat": None,
                                               "stack": self.transit.get(n, 0), "place": None, "places": None,
                                               "prize": None, "equity": None} for n in self.entrants}
        for number, host in self.hosts.items():
            hand = host.game.hand  # chips put in this hand are counted as the player's
            for p in host.game.table.players():
                if p.name in rows:
                    hp = hand.by_seat.get(p.seat) if hand is not None else None
                    rows[p.name].update(table=number, seat=p.seat,
                                        stack=p.stack + (hp.contributed if hp is not None else 0))
        if self.standings is not None:
            for f in self.standings.finishes:
                rows[f.name].update(place=f.place, places=f.places, prize=f.prize)
                if f.place > 1:
                    rows[f.name]["stack"] = 0
            left = [n for n in self.standings.remaining if n not in self.round_out]
            prizes = list(self.config.payouts[: len(left)])
            stacks = [rows[n]["stack"] for n in left]
            if len(left) > 1 and any(prizes) and any(stacks):
                result = icm(stacks, prizes)
                for n, e in zip(left, result.equity, strict=True):
                    rows[n]["equity"] = round(e, 2)
            for f in self.standings.finishes:
                rows[f.name]["equity"] = float(f.prize)
        order = sorted(rows.values(), key=lambda r: (r["place"] or 0, -r["stack"], r["name"]))
        return {**self.summary(), "clock": self.clock_data(now), "hands": self.hands, "moves": self.moves,
                "players": order}

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table id and seat of the holder of ``token`` (an entrant's), if seated."""
        digest = hash_token(token)
        for host in self.hosts.values():
            for seat, held in host.tokens.items():
                if secrets.compare_digest(held, digest):
                    return host.table_id, seat
        return None


class Events:
    """The events of one :class:`~cardgame.server.app.Server`: defined by the operator, registered for
    by clients (each address at most ``limits.tables_per_client`` registrations open), started, played
    and recovered. ``clock`` is the wall clock ``start_at`` is read on."""

    def __init__(self, server: Any, clock: Callable[[], float] = time.time) -> None:
        self.server = server
        self.clock = clock
        self.events: dict[str, HostedEvent] = {}
        self.opening: list[EventConfig] = []  # the operator's events to define at start when the store holds none
        self._ticking: asyncio.Task[None] | None = None
        self._rows: list[tuple[str, EventConfig, dict[str, Any]]] | None = None  # as the store held them
        self._recovered_held: dict[str, int] = {}  # a table recovered hand for hand -> its wait stage's own minimum
        server.preparing = self._recovered

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Take this process's events from the store (read as the server recovered their tables), then
        define :attr:`opening` if none was there; start the tick."""
        server = self.server
        if server.store is not None and server.writer is not None and self._rows is None:
            await server.writer.run(self._load)
        for event_id, config, state in self._rows or []:
            try:
                event = HostedEvent(event_id, config)
                event.load(state)
            except (CardgameError, KeyError, TypeError, ValueError) as exc:
                log.error("event %s is set aside: %s", excerpt(event_id), exc)
                continue
            self.events[event_id] = event
            if event.status == "registering":
                continue
            for number, table_id in sorted(event.tables.items()):
                host = server.tables.get(table_id)
                if host is not None:
                    self._attach(event, number, host)
                    if table_id in self._recovered_held:  # it waits for the round's other tables (RP-8)
                        event.held[number] = self._recovered_held.pop(table_id)
                    if event.status == "running":
                        level = event.clock_data(server.now())["level"]
                        host.notice("resumed", f"{event.config.name} resumes at level {level}.")
            if event.status == "running":
                self._land(event)
        if not self.events:
            for config in self.opening:
                await self.define(config)
        self._ticking = asyncio.get_running_loop().create_task(self._tick_forever())

    def _load(self) -> None:
        """On the store's thread: this process's events' rows."""
        store = self.server.store
        with store.transaction() as db:
            db.execute(_SCHEMA)
        found = []
        for event_id, config, state, owner in store.query(
                "SELECT event_id, config, state, owner FROM server_events ORDER BY created, event_id"):
            if owner != self.server.name:
                continue
            try:
                found.append((str(event_id), read_event(json.loads(config)), json.loads(state)))
            except (CardgameError, ValueError) as exc:
                log.error("event %s is set aside: its row is corrupt: %s", excerpt(event_id), exc)
        self._rows = found

    def _recovered(self, table_id: str, game: Game) -> None:
        """On the store's thread, as the server recovers a table: an event's table gets its level's
        blinds before it deals, and during hand for hand (TDA RP-8) deals nothing until the event has
        every table back and settles the round (else each would deal a hand alone first)."""
        if self._rows is None:
            self._load()
        for event_id, config, state in self._rows or []:
            if table_id in state.get("tables", {}).values() and state.get("status") == "running":
                event = HostedEvent(event_id, config)
                with contextlib.suppress(CardgameError, KeyError, TypeError, ValueError):
                    event.load(state)
                    _set_level(event, game, event.clock(0.0, next_hand=True))
                    wait = _waiting_stage(game)
                    if event.hand_for_hand and len(event.tables) > 1 and wait is not None and game.hand is None:
                        self._recovered_held[table_id] = wait.min_players
                        wait.min_players = MAX_SEATS + 1

    async def stop(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticking

    async def define(self, config: EventConfig) -> HostedEvent:
        """A new event (the operator's): recorded in the store first, if there is one."""
        check_instance(config, EventConfig, "An EventConfig", ConfigError)
        if len(self.events) >= MAX_EVENTS:
            raise LimitError(f"This server holds its most events ({MAX_EVENTS}).")
        event_id = "e" + secrets.token_hex(4)
        event = HostedEvent(event_id, config)
        await self._write(event.rows(self.server.name, new=True))
        self.events[event_id] = event
        log.info("event %s defined: %s, %d seats", event_id, excerpt(config.name), config.seats)
        self.tick()
        return event

    async def _write(self, rows: list[Row]) -> None:
        server = self.server
        if server.store is None or server.writer is None:
            return
        store = server.store

        def write() -> None:
            with store.transaction() as db:
                db.execute(_SCHEMA)
                for sql, params in rows:
                    db.execute(sql, params)

        await server.writer.run(write)

    # --- registration ----------------------------------------------------------------------------
    async def register(self, event_id: str, name: object, address: str) -> str:
        """Register ``name`` for ``event_id`` from ``address``; the seat token (the table page resumes
        with it). :class:`LimitError` or :class:`ConfigError` saying why not."""
        event = self.events.get(event_id) if isinstance(event_id, str) else None
        if event is None:
            raise LimitError(f"No event {excerpt(event_id)}.", 404)
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= _NAME_LIMIT or not name.isprintable():
            raise ConfigError(f"A name is 1 to {_NAME_LIMIT} printable characters, not {excerpt(name)}.")
        name = name.strip()
        if event.status != "registering":
            raise LimitError(f"{event.config.name} has {event.status if event.status == 'finished' else 'started'}: "
                             "registration is closed.", 409)
        if len(event.entrants) >= event.config.seats:
            raise LimitError(f"{event.config.name} is full ({event.config.seats} seats).", 409)
        if name in event.entrants:
            raise LimitError(f"{excerpt(name)} is registered already; choose another name.", 409)
        mine = sum(1 for e in self.events.values() if e.status == "registering"
                   for who in e.addresses.values() if who == address)
        most = self.server.limits.tables_per_client
        if mine >= most:
            raise LimitError(f"You have {mine} registrations open, the most one client may have.")
        token = secrets.token_urlsafe(24)
        event.entrants[name] = hash_token(token)
        event.addresses[name] = address
        try:
            await self._write(event.rows(self.server.name))
        except BaseException:
            event.entrants.pop(name, None)
            event.addresses.pop(name, None)
            raise
        log.info("event %s: %d registered", event_id, len(event.entrants))
        self.tick()
        return token

    # --- starting --------------------------------------------------------------------------------
    def tick(self) -> None:
        """Start each event that is due; sit in again the players of running events who sat out."""
        now = self.clock()
        for event in list(self.events.values()):
            if event.status == "registering":
                c = event.config
                full = len(event.entrants) >= c.seats
                enough = c.people is not None and len(event.entrants) >= c.people
                due = c.start_at is not None and now >= c.start_at and (c.bots or full)
                if full or enough or due:
                    try:
                        self._start(event)
                    except CardgameError as exc:
                        log.error("event %s cannot start: %s", event.event_id, exc)
            elif event.status == "running":
                for host in event.hosts.values():
                    self._sit_in(event, host)
                for number, host in sorted(event.hosts.items()):  # a table waiting for players (one left)
                    if len(event.hosts) > 1 and not event.moving and host.game.hand is None and not host.held:
                        self._plan(event, number, host, idle=True)
                if event.held and not event.moving and all(h.game.hand is None for h in event.hosts.values()):
                    self._settle(event)  # (a round whose last hand was void, at a restart)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            try:
                self.tick()
            except Exception:  # a bug must not stop the other events
                log.exception("events: the tick failed")

    def _start(self, event: HostedEvent) -> None:
        """Seat the entrants (drawn at random: TDA rule 7), bots in the empty seats, and deal. Nothing
        changes if a table cannot be opened (the server is shutting down, say)."""
        c = event.config
        names = list(event.entrants)
        bots: dict[str, str] = {}  # a bot entrant's name -> its bot
        n = 0
        while len(names) < c.seats and c.bots:
            bot = c.bots[n % len(c.bots)]
            name = f"{bot} {n + 1}"[:_NAME_LIMIT]
            n += 1
            if name not in event.entrants:
                names.append(name)
                bots[name] = bot
        drawn = draw_seats(names, _rules(event.config), seed=secrets.randbits(64))
        config = c.table_config()
        hosts: dict[int, TableHost] = {}
        try:
            for t in drawn:
                def prepare(game: Game, t: SeatingTable = t) -> None:
                    for seat, nm in enumerate(t.seats):
                        if nm is not None:
                            game.sit_down(nm, c.stack, seat)

                hosts[t.number] = self.server.create(config, prepare=prepare)
        except CardgameError:
            for host in hosts.values():
                self.server.close(host.table_id, "the event could not start")
            raise
        event.bots = bots
        for nm in names:
            event.entrants.setdefault(nm, None)
        event.status = "running"
        event.standings = Standings(tuple(event.entrants), c.payouts)
        event.since = self.server.now()
        event.tables = {number: host.table_id for number, host in hosts.items()}
        event.table_hands = dict.fromkeys(hosts, 0)
        for number, host in hosts.items():
            for p in host.game.table.players():
                digest = event.entrants.get(p.name)
                if digest is not None:
                    host.tokens[p.seat] = digest
                    if host.on_token is not None:
                        host.on_token(p.seat, digest)
            self._attach(event, number, host)
            self.server._add_rows(host.table_id, event.rows(self.server.name))
            self.server.wake(host.table_id)
        log.info("event %s started at %d tables", event.event_id, len(hosts))

    def _attach(self, event: HostedEvent, number: int, host: TableHost) -> None:
        """Make ``host`` table ``number`` of the event: its bots the event's (by name), no rebuys, no
        seats taken or chips taken away; the level in play on its stages; the event told of each hand."""
        event.hosts[number] = host
        host.rebuys = False
        host.guard = _guard
        host.bots = {}
        for p in host.game.table.players():
            if p.name in event.bots:
                host.bots[p.seat] = (bot_names.get(event.bots[p.name]), seat_rng(host.game, p.seat))
        if event.since is None:
            event.since = self.server.now()
        self._apply_level(event, host)
        started = next((e for _, e in host.hand_log if type(e) is HandStarted), None)
        if started is not None and host.game.hand is not None:  # dealt as the table started
            event.started_stacks[number] = dict(zip(started.seats, started.stacks, strict=False))
        host.game.hook(lambda e: self._on_event(event, number, host, e))

    def _apply_level(self, event: HostedEvent, host: TableHost) -> None:
        """Set the blinds and antes of the hand dealt next (TDA rule 23: a new level from the next
        hand); during a break, hold play until it is over."""
        now = self.server.now()
        c = event.clock(now, next_hand=True)
        _set_level(event, host.game, c)
        if c.on_break and c.remaining is not None:
            left = c.remaining - (event.seconds(now) - int(event.seconds(now)))
            host.paused_until = max(host.paused_until, now + left)

    def _sit_in(self, event: HostedEvent, host: TableHost) -> None:
        """A player sat out with chips is sat in again: dealt in, and folded by the clock when away."""
        changed = False
        moving = {m[0] for m in event.moving}
        for p in host.game.table.players():
            if p.sitting_out and p.stack > 0 and p.name not in moving:
                with contextlib.suppress(CardgameError):
                    host.game.sit_in(p.seat)
                    host.misses[p.seat] = 0
                    changed = True
        if changed:
            host.refresh()
        self.server.wake(host.table_id)  # a break may be over

    # --- each hand (inside the engine: the store records the rows with the hand's events) ---------
    def _on_event(self, event: HostedEvent, number: int, host: TableHost, e: Event) -> None:
        if type(e) is HandStarted:
            event.started_stacks[number] = dict(zip(e.seats, e.stacks, strict=False))
            if event.hand_for_hand and len(event.hosts) > 1:
                self._hold(event, number)  # its next hand waits for the round's end
        elif type(e) is HandEnded and event.status == "running":
            self._hand_ended(event, number, host)

    def _hand_ended(self, event: HostedEvent, number: int, host: TableHost) -> None:
        now = self.server.now()
        event.hands += 1
        event.table_hands[number] = event.table_hands.get(number, 0) + 1
        event.elapsed = event.seconds(now)
        event.since = now
        table = host.game.table
        total = event.config.stack * len(event.entrants)
        if event.total() != total:
            event.chip_errors += 1
            log.error("event %s: %d chips at its tables after hand %d, not %d", event.event_id, event.total(),
                      event.hands, total)
        assert event.standings is not None
        button = table.button or 0
        started = event.started_stacks.get(number, {})
        out = sorted((p for p in table.players() if p.stack == 0 and p.seat in started
                      and p.name in event.standings.remaining and p.name not in event.round_out),
                     key=lambda p: (p.seat - button - 1) % table.seat_count)
        idle = all(h.game.hand is None for n, h in event.hosts.items() if n != number)  # the others between hands
        if out:
            busted = {p.name: started[p.seat] for p in out}
            if event.hand_for_hand:  # ranked with the round's other players out (TDA RP-8)
                event.round_out.update(busted)
            else:
                self._eliminate(event, busted)
        if event.hand_for_hand and idle and event.round_out:  # the round's last hand: its players out go
            busted, event.round_out = event.round_out, {}
            self._eliminate(event, _rules(event.config).round_out(busted))
        if event.status == "running":
            self._apply_level(event, host)
            if len(event.hosts) > 1:
                self._between_hands(event, number, host, idle)
        recorder = self.server.recorders.get(host.table_id)
        if recorder is not None:
            recorder.add_rows(event.rows(self.server.name))

    def _eliminate(self, event: HostedEvent, busted: dict[str, int]) -> None:
        """``busted`` (name -> the stack they started their hand with) are out together: their places
        (:meth:`~cardgame.tournament.places.Standings.eliminate`) told at their tables; the winner once
        one player is left."""
        assert event.standings is not None
        event.standings = event.standings.eliminate(busted, hand=event.hands)
        finishes = {f.name: f for f in event.standings.finishes if f.name in busted}
        for h in event.hosts.values():
            for p in h.game.table.players():
                if (f := finishes.get(p.name)) is not None:
                    h.notice("out", f"{p.name} finishes {_ordinal(f.place)}"
                                    f"{f' and wins {f.prize:,}' if f.prize else ''}.")
        if event.standings.over:
            event.status = "finished"
            winner = next(f for f in event.standings.finishes if f.place == 1)
            for h in event.hosts.values():
                h.notice("winner", f"{winner.name} wins {event.config.name}"
                                   f"{f' and {winner.prize:,}' if winner.prize else ''}!")
            log.info("event %s finished: %s wins", event.event_id, excerpt(winner.name))

    # --- several tables: balancing and breaking (TDA rules 10 and 11), hand for hand (RP-8), the final
    # table (RP-9) -----------------------------------------------------------------------------------
    def _seating(self, event: HostedEvent, ended: int | None = None) -> list[SeatingTable]:
        """The tables as the seating rules see them: the players still in (all in at a table still in
        its hand counts; table ``ended``'s hand is over), each table's next button."""
        assert event.standings is not None
        left = set(event.standings.remaining) - set(event.round_out)
        out = []
        for number, host in sorted(event.hosts.items()):
            t = host.game.table
            hand = None if number == ended else host.game.hand
            button = 0 if t.button is None else (t.button + 1) % t.seat_count
            seated = (p.name if p is not None and p.name in left
                      and (p.stack > 0 or (hand is not None and p.seat in hand.by_seat)) else None for p in t.seats)
            out.append(SeatingTable(number, tuple(seated), button))
        return out

    def _fits(self, event: HostedEvent, seating: list[SeatingTable]) -> bool:
        """Whether the players left fit at one table while they sit at several (the final table is due)."""
        size = event.config.table_size or event.config.seats
        return sum(t.count for t in seating) <= size and sum(t.count > 0 for t in seating) > 1

    def _between_hands(self, event: HostedEvent, number: int, host: TableHost, idle: bool) -> None:
        """After a hand at table ``number`` of several (``idle``: every other table is between hands too).
        The final table due: the table waits for the others, and the last one draws it. Else hand for
        hand starts or stops by :func:`~cardgame.tournament.seating.bubble` (a table waits for the round's
        end; while a round is played, its players out still count, so it is played out), and players move
        out of the table by :meth:`_plan`."""
        seating = self._seating(event, number)
        fits = self._fits(event, seating)
        if not fits and (idle or not event.hand_for_hand):  # a round is judged once it is over (TDA RP-8)
            self._bubble(event, seating)
        if fits or event.hand_for_hand:
            self._hold(event, number)
        if not fits and not event.moving:
            self._plan(event, number, host)
        if idle and event.held:
            asyncio.get_running_loop().call_soon(self._settle, event)

    def _bubble(self, event: HostedEvent, seating: list[SeatingTable]) -> None:
        """Start or stop hand for hand as the bubble wants (told at every table); starting, every table
        is held after its hand in progress."""
        paid = max(1, sum(1 for p in event.config.payouts if p > 0))
        now = bubble(seating, paid, _rules(event.config)).hand_for_hand
        if now == event.hand_for_hand:
            return
        event.hand_for_hand = now
        for n, h in event.hosts.items():
            if now:
                self._hold(event, n)
                h.notice("hand for hand", "Hand for hand: each hand waits until every table has finished the one "
                                          "before (the bubble, TDA RP-8).")
            else:
                h.notice("hand for hand", "Hand for hand is over.")
        log.info("event %s: hand for hand %s", event.event_id, "starts" if now else "ends")

    def _hold(self, event: HostedEvent, number: int) -> None:
        """Table ``number`` deals no hand until :meth:`_release` (its wait stage wants more players than
        it seats)."""
        stage = _waiting_stage(event.hosts[number].game)
        if stage is not None and number not in event.held:
            event.held[number] = stage.min_players
            stage.min_players = MAX_SEATS + 1

    def _release(self, event: HostedEvent) -> None:
        """Every held table deals again (each at once if it can; hand for hand, one that cannot stays held
        so that it deals no hand alone)."""
        for number, least in sorted(event.held.items()):
            host = event.hosts.get(number)
            del event.held[number]
            stage = None if host is None else _waiting_stage(host.game)
            if host is None or stage is None:
                continue
            stage.min_players = least
            game = host.game
            if game.dispatcher.status == "running" and game.dispatcher.current is stage:
                with contextlib.suppress(CardgameError):
                    game.dispatcher.send("table_change")
            if event.hand_for_hand and game.hand is None:
                self._hold(event, number)
            host.refresh()
            self.server.wake(host.table_id)

    def _settle(self, event: HostedEvent) -> None:
        """Once every table is between hands (the round's end): the round's players out go, then the final
        table is drawn if it is due, else the tables deal again."""
        if event.status != "running" or event.moving or any(h.game.hand is not None for h in event.hosts.values()):
            return
        if event.round_out:
            busted, event.round_out = event.round_out, {}
            self._eliminate(event, _rules(event.config).round_out(busted))
            self._record(event, event.hosts[min(event.hosts)])
            if event.status != "running":
                return
        seating = self._seating(event)
        if self._fits(event, seating):
            self._final_table(event, seating)
            return
        self._bubble(event, seating)
        self._release(event)

    def _final_table(self, event: HostedEvent, seating: list[SeatingTable]) -> None:
        """TDA RP-9: every player left draws a seat at the final table (the lowest-numbered; the draw's
        seed from the operating system) and its button is drawn; each leaves with their chips and sits
        down there, keeping their token; the other tables close."""
        plan = balance(seating, _rules(event.config), seed=secrets.randbits(64))
        final = plan.tables[0]
        self._hold(event, final.number)  # no hand before every player has their seat
        for m in plan.moves:
            old = event.hosts[m.from_table]
            player = old.game.table.seats[m.from_seat]
            assert player is not None and player.name == m.player
            chips = old.game.leave(m.from_seat)
            assert chips is not None  # between hands
            old.bots.pop(m.from_seat, None)
            event.transit[m.player] = chips
        for number in {m.from_table for m in plan.moves}:
            self._record(event, event.hosts[number])
        target = event.hosts[final.number]
        for m in plan.moves:
            self._seat(event, m.player, target, m.to_seat)
        target.game.table.button, target.game.table.first_button = None, final.button
        event.moves += len(plan.moves)
        if event.hand_for_hand:
            event.hand_for_hand = False
            target.notice("hand for hand", "Hand for hand is over.")
        target.notice("final table", "The final table: every player drew a new seat (TDA RP-9).")
        for number in [n for n in event.hosts if n != final.number]:
            event.held.pop(number, None)
            self._close(event, number)
        log.info("event %s: the final table, %d players", event.event_id, len(plan.moves))
        self._release(event)

    def _plan(self, event: HostedEvent, number: int, host: TableHost, *, idle: bool = False) -> None:
        """Between this table's hands: the moves out of it that the seating rules want now: tables break
        and balance by :func:`~cardgame.tournament.seating.balance` (the final table is
        :meth:`_final_table`'s). A player to move sits out at once (they are not dealt the next hand here)
        and moves as soon as the hand's change is over (at once from an ``idle`` table, dealing no hand);
        moves out of a table in a hand wait for its end."""
        assert event.standings is not None
        seating = self._seating(event, number)
        if self._fits(event, seating):
            return
        plan = balance(seating, _rules(event.config), seed=secrets.randbits(64))
        moves = [(m.player, m.from_table, m.to_table, m.to_seat) for m in plan.moves if m.from_table == number]
        if not moves:
            return
        event.moving = moves
        if idle:
            self._move(event)
            return
        for name, *_ in moves:  # not dealt the next hand here; no event (one after the hand's end, inside
            # its change, would be logged as the ended hand's), and a restart deals them in again: they move then
            next(p for p in host.game.table.players() if p.name == name).sitting_out = True
        asyncio.get_running_loop().call_soon(self._move, event)

    def _move(self, event: HostedEvent) -> None:
        """Make the moves planned: each player leaves with their chips and takes their new seat, keeping
        their token (their page follows them: ``POST /api/events/{id}/seat``); a table left empty closes."""
        moves, event.moving = event.moving, []
        touched: set[int] = set()
        for name, source, target, seat in moves:
            old, new = event.hosts.get(source), event.hosts.get(target)
            player = next((p for p in old.game.table.players() if p.name == name), None) if old else None
            if old is None or new is None or player is None:
                continue
            hand = old.game.hand
            if not _free_seats(new) or (hand is not None and player.seat in hand.by_seat):
                player.sitting_out = False  # no seat for them now (another move took it): they play on here
                continue
            chips = old.game.leave(player.seat)
            if chips is None:  # (cannot be: they are in no hand)
                continue
            old.bots.pop(player.seat, None)
            event.transit[name] = chips
            self._record(event, old)
            self._seat(event, name, new, seat)
            touched |= {source, target}
        for number in touched:
            host = event.hosts[number]
            host.refresh()
            self.server.wake(host.table_id)
            if all(p.stack == 0 for p in host.game.table.players()):
                self._close(event, number)
        event.moves += sum(1 for _ in moves)

    def _seat(self, event: HostedEvent, name: str, host: TableHost, seat: int) -> None:
        """Seat ``name``, moving with the chips :attr:`HostedEvent.transit` holds, at ``host`` (in ``seat``
        if it is free, else the first free one)."""
        seats = host.game.table.seats
        free = _free_seats(host)
        if seat not in free:
            seat = free[0]
        if seats[seat] is not None:  # a player out: they leave the seat
            host.game.leave(seat)
        host.game.sit_down(name, event.transit[name], seat)
        del event.transit[name]
        digest = event.entrants.get(name)
        if digest is not None:
            host.tokens[seat] = digest
            if host.on_token is not None:
                host.on_token(seat, digest)
        if name in event.bots:
            host.bots[seat] = (bot_names.get(event.bots[name]), seat_rng(host.game, seat))
        self._record(event, host)

    def _record(self, event: HostedEvent, host: TableHost) -> None:
        """The event's state written with ``host``'s next events."""
        self.server._add_rows(host.table_id, event.rows(self.server.name))

    def _close(self, event: HostedEvent, number: int) -> None:
        """A table whose players all moved (or went out) is broken: its players out leave, and it closes."""
        host = event.hosts.pop(number)
        for p in host.game.table.players():
            with contextlib.suppress(CardgameError):
                host.game.leave(p.seat)
        del event.tables[number]
        event.broken.append(host.table_id)
        self._record(event, host)
        self.server.close(host.table_id, "the tournament broke this table; its players moved")
        log.info("event %s: table %d broken", event.event_id, number)

    def _land(self, event: HostedEvent) -> None:
        """After a restart: a player who was moving between tables (left one, not yet seated at the other)
        takes a seat with their chips."""
        seated = {p.name for h in event.hosts.values() for p in h.game.table.players()}
        for name in list(event.transit):
            if name in seated:
                del event.transit[name]
                continue
            host = min(event.hosts.values(), key=lambda h: len(list(h.game.table.players())), default=None)
            if host is not None and any(p is None for p in host.game.table.seats):
                self._seat(event, name, host, 0)
                host.refresh()

    # --- reading ---------------------------------------------------------------------------------
    def of_table(self, table_id: str) -> HostedEvent | None:
        return next((e for e in self.events.values() if table_id in e.tables.values() or table_id in e.broken), None)

    def listing(self) -> list[dict[str, Any]]:
        return [e.summary() for e in self.events.values()]

    def standings(self, event_id: str) -> dict[str, Any]:
        event = self.events.get(event_id) if isinstance(event_id, str) else None
        if event is None:
            raise LimitError(f"No event {excerpt(event_id)}.", 404)
        return event.standings_data(self.server.now())


def _free_seats(host: TableHost) -> list[int]:
    """The seats a moved player may take: empty, or held by a player out (0 chips, not in the hand)."""
    hand = host.game.hand
    return [s for s, p in enumerate(host.game.table.seats)
            if p is None or (p.stack == 0 and (hand is None or s not in hand.by_seat))]


def _waiting_stage(game: Game) -> WaitForPlayers | None:
    return next((s for s in game.dispatcher.stages if isinstance(s, WaitForPlayers)), None)


def _rules(config: EventConfig) -> SeatingRules:
    """The seating rules of an event's tables (its final table as large as they are)."""
    size = config.table_size or config.seats
    return SeatingRules(table_size=size, final_table_size=size, hand_for_hand_busts=config.hand_for_hand_busts)


def _set_level(event: HostedEvent, game: Game, clock: Clock) -> None:
    """``clock``'s blinds and antes on ``game``'s stages, for the hand dealt next."""
    import variants

    found = variants.get(event.config.variant)
    options = _params(found, event.structure.game_options(clock.blinds))
    fresh = found.build(**options)
    for old, new in zip(game.dispatcher.stages, fresh, strict=True):
        if isinstance(old, ForcedBets) and isinstance(new, ForcedBets):
            old.blinds, old.ante, old.big_blind_ante = new.blinds, new.ante, new.big_blind_ante
        elif isinstance(old, BettingRound) and isinstance(new, BettingRound):
            old.structure = new.structure


def _guard(client: Client, message: Message) -> None:
    """A tournament's table: no seat taken (a player out cannot sit again), no chips added or taken
    away, nobody sits out (they are dealt in and folded when away)."""
    if isinstance(message, Sit):
        raise MessageError("illegal", "This is a tournament's table: its players registered in the lobby; a player "
                                      "out cannot sit again.")
    if isinstance(message, TopUp):
        raise MessageError("illegal", "This is a tournament's table: nobody adds chips (no rebuys).")
    if isinstance(message, SitOut):
        raise MessageError("illegal", "This is a tournament's table: a player away is dealt in and folded when their "
                                      "time runs out.")
    if isinstance(message, Leave):
        raise MessageError("illegal", "This is a tournament's table: its chips stay in play until the end; close "
                                      "the page to go away (your hands are folded when your time runs out).")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def routes(events: Events) -> list[Route]:
    """The event routes: the list and standings (JSON), registration, the standings page, and the
    event a table plays for (its level clock, for the table page)."""

    server = events.server

    async def listing(request: Request) -> Response:
        return JSONResponse(events.listing())

    async def standings(request: Request) -> Response:
        try:
            return JSONResponse(events.standings(request.path_params["event_id"]))
        except LimitError as exc:
            return _error(exc.status, str(exc))

    async def page(request: Request) -> Response:
        if request.path_params["event_id"] not in events.events:
            return Response("No such event.", status_code=404, media_type="text/plain")
        return FileResponse(STATIC / "event.html")

    async def table_event(request: Request) -> Response:
        event = events.of_table(request.path_params["table_id"])
        if event is None:
            return _error(404, "This table plays for no event.")
        return JSONResponse({**event.summary(), "clock": event.clock_data(server.now()), "hands": event.hands})

    async def seat(request: Request) -> Response:
        """Where the holder of a seat token plays now (a moved player's page follows them)."""
        if not server.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "Ask from this server's own pages.")
        if not server.take(_address(request)):
            return _error(429, f"Too many requests from your address: at most {server.limits.client_rate:g} a second.")
        event = events.events.get(request.path_params["event_id"])
        if event is None:
            return _error(404, "No such event.")
        body = await _read_body(request)
        try:
            data = from_json(body) if body is not None else None
        except SnapshotError:
            data = None
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not 1 <= len(token) <= 200:
            return _error(400, 'Send {"token": "..."}, the seat token registration gave.')
        found = event.seat_of(token)
        if found is None:
            return _error(404, "That token holds no seat in this event now (out, or not started).")
        return JSONResponse({"table": found[0], "seat": found[1]})

    async def register(request: Request) -> Response:
        if not server.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return _error(403, "Registration is made from this server's own lobby page.")
        address = _address(request)
        if not server.take(address):
            return _error(429, f"Too many requests from your address: at most {server.limits.client_rate:g} a second.")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "Send the registration as JSON (Content-Type: application/json).")
        body = await _read_body(request)
        if body is None:
            return _error(413, "A registration is a small JSON object: {\"name\": \"...\"}.")
        try:
            data = from_json(body)
            if not isinstance(data, dict) or set(data) != {"name"}:
                raise ConfigError(f"A registration is {{\"name\": \"...\"}}, not {excerpt(data)}.")
            token = await events.register(request.path_params["event_id"], data["name"], address)
        except CardgameError as exc:
            return refusal(exc)
        event = events.events[request.path_params["event_id"]]
        return JSONResponse({"token": token, "event": event.summary()}, status_code=201)

    return [Route("/event/{event_id}", page), Route("/api/events", listing, methods=["GET"]),
            Route("/api/events/{event_id}", standings, methods=["GET"]),
            Route("/api/events/{event_id}/register", register, methods=["POST"]),
            Route("/api/events/{event_id}/seat", seat, methods=["POST"]),
            Route("/api/tables/{table_id}/event", table_event, methods=["GET"])]
