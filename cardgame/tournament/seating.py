"""Who sits where in a multi-table tournament: the seat draw, balancing and breaking tables, the final
table, and hand-for-hand play on the bubble, by the Poker TDA rules (2024 edition).

Everything here is a pure function of values: tables in (each a :class:`Table`: its seats and button),
moves out (a :class:`Plan` of :class:`Move` values and the tables they leave), so a tournament driver or
the server applies them between hands. Every random choice draws from a generator seeded with the
``seed`` given, so the same tables and seed give the same moves.

* :func:`draw_seats`: the entrants spread over as few tables as hold them, as evenly as can be, each
  in a seat drawn at random (TDA rule 7, "Random Correct Seating"), each table's button drawn too.
* :func:`balance`, after eliminations: the final table as soon as the players fit at it (RP-9);
  else a table broken whenever the others can hold everyone, its players drawn into open seats
  (TDA rule 10-B); then players moved from the fullest table to the shortest while they differ by
  :attr:`SeatingRules.balance_at` or more (TDA rule 11): the player to be big blind next moves, to
  the worst position at the shorter table (rule 11-A).
* :func:`bubble`: whether the tables play hand for hand (TDA RP-8): the bubble is near and there is
  more than one table.

The button: a table's :attr:`Table.button` is the seat of the button for the **next** hand (the driver
moves it after each hand to the next occupied seat, the engine's moving button); an empty button seat
passes the button to the first occupied seat after it. The small blind is the first occupied seat
after the button, the big blind the next (heads-up, the button is the small blind).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from typing import Any

import attrs

from cardgame.model.inputs import check_bool, check_instance, check_int, check_text, excerpt
from cardgame.model.rng import check_seed
from cardgame.tournament.errors import TournamentError

__all__ = ["MAX_ENTRANTS", "MAX_NAME", "MAX_TABLE_SIZE", "PLACEMENTS", "REASONS", "Bubble", "Move", "Plan",
           "SeatingRules", "Table", "balance", "bubble", "draw_seats", "next_big_blind"]

#: The most seats a tournament table has.
MAX_TABLE_SIZE = 10
#: The most entrants (and the highest table number) an event may have.
MAX_ENTRANTS = 100_000
#: The longest player name, in characters.
MAX_NAME = 100
#: Where a player moved to balance the tables sits (:attr:`SeatingRules.moved_to`).
PLACEMENTS = ("big blind", "random")
#: How players out in the same hand-for-hand round are ranked (:attr:`SeatingRules.hand_for_hand_busts`).
ROUND_BUSTS = ("stacks", "tie")
#: Why a player moves (:attr:`Move.reason`).
REASONS = ("balance", "break", "final table")


# attrs converters: each value as an int within its bounds (check_int), else TournamentError


def _table_size(value: object) -> int:
    return check_int(value, "table size", TournamentError, minimum=2, maximum=MAX_TABLE_SIZE)


def _balance_at(value: object) -> int:
    return check_int(value, "balancing difference", TournamentError, minimum=2, maximum=MAX_TABLE_SIZE)


def _margin(value: object) -> int:
    return check_int(value, "hand-for-hand margin", TournamentError, minimum=1, maximum=MAX_ENTRANTS)


def _table_number(value: object) -> int:
    return check_int(value, "table number", TournamentError, minimum=1, maximum=MAX_ENTRANTS)


def _button_seat(value: object) -> int:
    return check_int(value, "button seat", TournamentError, minimum=0, maximum=MAX_TABLE_SIZE - 1)


def _seat(value: object) -> int:
    return check_int(value, "seat", TournamentError, minimum=0, maximum=MAX_TABLE_SIZE - 1)


def _players_left(value: object) -> int:
    return check_int(value, "number of players left", TournamentError, minimum=0, maximum=MAX_ENTRANTS)


def _paid(value: object) -> int:
    return check_int(value, "number of places paid", TournamentError, minimum=1, maximum=MAX_ENTRANTS)


def _final_size(value: object) -> int | None:
    return None if value is None else check_int(value, "final table size", TournamentError, minimum=2,
                                                maximum=MAX_TABLE_SIZE)


def _one_of(what: str, allowed: tuple[str, ...]) -> Any:
    def check(inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if check_text(value, what, TournamentError, max_length=40) not in allowed:
            raise TournamentError(f"The {what} must be one of {', '.join(map(repr, allowed))}, not {excerpt(value)}.")

    return check


def _name(value: object) -> str:
    return check_text(value, "player's name", TournamentError, max_length=MAX_NAME)


def _tuple_of(kind: type, what: str, longest: int) -> Any:
    """An attrs validator: a tuple of at most ``longest`` values of ``kind``."""

    def check(inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, tuple) or len(value) > longest:
            raise TournamentError(f"The {what} must be a tuple of at most {longest:,} values, not {excerpt(value)}.")
        for item in value:
            check_instance(item, kind, f"A {kind.__name__} in the {what}", TournamentError)

    return check


def _as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen
class SeatingRules:
    """An event's seating settings, where cardrooms differ (``docs/rules.md``, ``docs/tournaments.md``).

    ``table_size``: seats a table (2 to :data:`MAX_TABLE_SIZE`; 9 full ring, 6 six-max).
    ``balance_at``: the difference in players between the fullest and the shortest table that moves a
    player (TDA rule 11 leaves it to the director and asks for tighter balance as the event goes on;
    2 keeps every table within one player of the others; rule 11-D halts a full-ring table 3 short).
    ``moved_to``: the seat a moved player takes, ``"big blind"`` (rule 11-A: the worst position, the one
    to pay the big blind soonest, never the small blind) or ``"random"`` (an open seat drawn at random,
    as some online rooms do). ``final_table_size``: seats at the final table, formed as soon as the
    players fit; ``None`` follows TDA RP-9 (9- and 8-handed events finish 9-handed, 7- and 6-handed
    events 7-handed, others at ``table_size``). ``hand_for_hand_margin``: hand-for-hand play starts when
    at most this many players are left over the places paid (1: at the bubble itself; TDA RP-8).
    ``hand_for_hand_busts``: how players out in the same hand-for-hand round, at any table, finish:
    ``"stacks"``, ranked by the stacks they started their hands with, as players out in one hand are
    (the rule online rooms such as PokerStars post), or ``"tie"``, sharing the places they cover and
    splitting those prizes (rooms that treat the round as one moment). Rooms differ: ``docs/rules.md``.
    """

    table_size: int = attrs.field(default=9, converter=_table_size)
    balance_at: int = attrs.field(default=2, converter=_balance_at)
    moved_to: str = attrs.field(default="big blind", validator=_one_of("seat for a moved player", PLACEMENTS))
    final_table_size: int | None = attrs.field(default=None, converter=_final_size)
    hand_for_hand_margin: int = attrs.field(default=1, converter=_margin)
    hand_for_hand_busts: str = attrs.field(default="stacks",
                                           validator=_one_of("ranking of a hand-for-hand round's busts", ROUND_BUSTS))

    def round_out(self, busted: dict[str, int]) -> dict[str, int]:
        """The players out in one hand-for-hand round (name -> the stack they started their hand with)
        as :meth:`~cardgame.tournament.places.Standings.eliminate` takes them under this rule: their
        stacks, or one chip each (equal stacks: a tie)."""
        return dict(busted) if self.hand_for_hand_busts == "stacks" else dict.fromkeys(busted, 1)

    @final_table_size.validator
    def _final(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is not None:
            check_int(value, "final table size", TournamentError, minimum=self.table_size, maximum=MAX_TABLE_SIZE)

    @property
    def final_size(self) -> int:
        """Seats at the final table: :attr:`final_table_size`, or TDA RP-9's number."""
        if self.final_table_size is not None:
            return self.final_table_size
        return {8: 9, 9: 9, 6: 7, 7: 7}.get(self.table_size, self.table_size)


@attrs.frozen
class Table:
    """One table between hands: its ``number`` (1 up), ``seats`` (a player's name or ``None`` for an
    open seat, one entry a seat) and ``button``, the seat of the next hand's button."""

    number: int = attrs.field(converter=_table_number)
    seats: tuple[str | None, ...] = attrs.field(converter=_as_tuple)
    button: int = attrs.field(default=0, converter=_button_seat)

    @seats.validator
    def _seats(self, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, tuple) or not 2 <= len(value) <= MAX_TABLE_SIZE:
            raise TournamentError(f"A table's seats must be a tuple of 2 to {MAX_TABLE_SIZE} entries (a player's "
                                  f"name or None), not {excerpt(value)}.")
        names = [_name(v) for v in value if v is not None]
        if len(set(names)) != len(names):
            raise TournamentError(f"Table {self.number} seats a player twice: {excerpt(names)}.")

    @button.validator
    def _button(self, attribute: attrs.Attribute[Any], value: object) -> None:
        check_int(value, "button seat", TournamentError, minimum=0, maximum=len(self.seats) - 1)

    @property
    def players(self) -> tuple[str, ...]:
        """The players seated, in seat order."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def count(self) -> int:
        """How many players are seated."""
        return sum(p is not None for p in self.seats)


@attrs.frozen
class Move:
    """``player`` goes from seat ``from_seat`` of table ``from_table`` to seat ``to_seat`` of table
    ``to_table``, for ``reason`` (one of :data:`REASONS`)."""

    player: str = attrs.field(validator=lambda i, a, v: _name(v))
    from_table: int = attrs.field(converter=_table_number)
    from_seat: int = attrs.field(converter=_seat)
    to_table: int = attrs.field(converter=_table_number)
    to_seat: int = attrs.field(converter=_seat)
    reason: str = attrs.field(validator=_one_of("reason for a move", REASONS))


@attrs.frozen
class Plan:
    """What :func:`balance` decided: the ``moves`` in the order they are made, the ``tables`` they leave
    (by number; a broken table is gone) and the numbers of the tables ``broken``."""

    tables: tuple[Table, ...] = attrs.field(validator=_tuple_of(Table, "tables", MAX_ENTRANTS))
    moves: tuple[Move, ...] = attrs.field(validator=_tuple_of(Move, "moves", 2 * MAX_ENTRANTS))
    broken: tuple[int, ...] = attrs.field(validator=_tuple_of(int, "broken tables", MAX_ENTRANTS))


@attrs.frozen
class Bubble:
    """Where the event stands against the money: ``players_left``, places ``paid``, and whether the
    tables play ``hand_for_hand`` (each hand starts at every table together, after the last table
    finished the one before: TDA RP-8)."""

    players_left: int = attrs.field(converter=_players_left)
    paid: int = attrs.field(converter=_paid)
    hand_for_hand: bool = attrs.field()

    @hand_for_hand.validator
    def _flag(self, attribute: attrs.Attribute[Any], value: object) -> None:
        check_bool(value, "hand_for_hand", TournamentError)

    @property
    def in_the_money(self) -> bool:
        """Whether every player left is paid (the bubble has burst)."""
        return self.players_left <= self.paid


def _check_rules(rules: object) -> SeatingRules:
    return check_instance(rules, SeatingRules, "A SeatingRules", TournamentError)


def _check_players(players: object) -> list[str]:
    if not isinstance(players, list | tuple) or not 2 <= len(players) <= MAX_ENTRANTS:
        raise TournamentError(f"The entrants must be a list or tuple of 2 to {MAX_ENTRANTS:,} player names, "
                              f"not {excerpt(players)}.")
    names = [_name(p) for p in players]
    if len(set(names)) != len(names):
        raise TournamentError("Each entrant must have a name of their own; two share one.")
    return names


def _check_tables(tables: object, rules: SeatingRules) -> list[Table]:
    """``tables`` as a list: Tables with numbers and players of their own, all ``table_size`` seats when
    there are several."""
    if not isinstance(tables, list | tuple) or len(tables) > MAX_ENTRANTS:
        raise TournamentError(f"The tables must be a list or tuple of at most {MAX_ENTRANTS:,} Tables, "
                              f"not {excerpt(tables)}.")
    found = [check_instance(t, Table, "A Table", TournamentError) for t in tables]
    if len({t.number for t in found}) != len(found):
        raise TournamentError("Each table must have a number of its own; two share one.")
    players = [p for t in found for p in t.players]
    if len(players) > MAX_ENTRANTS:
        raise TournamentError(f"The tables seat {len(players):,} players; an event has at most {MAX_ENTRANTS:,}.")
    if len(set(players)) != len(players):
        raise TournamentError("A player is seated at two tables.")
    if len(found) > 1 and any(len(t.seats) != rules.table_size for t in found):
        raise TournamentError(f"While there are several tables, each has the event's {rules.table_size} seats "
                              f"(SeatingRules.table_size).")
    return found


def _rng(seed: object) -> random.Random:
    return random.Random(check_seed(seed, TournamentError))


def _order(seats: Sequence[str | None], button: int) -> list[int]:
    """The occupied seats clockwise from the next hand's button (the first occupied seat from ``button``)."""
    n = len(seats)
    return [(button + i) % n for i in range(n) if seats[(button + i) % n] is not None]


def _big_blind(seats: Sequence[str | None], button: int) -> int | None:
    order = _order(seats, button)
    return order[2] if len(order) >= 3 else order[1] if len(order) == 2 else None


def next_big_blind(table: Table) -> int | None:
    """The seat that posts the big blind in ``table``'s next hand (``None`` with fewer than two players):
    the second occupied seat after the button, or heads-up the one that is not the button."""
    table = check_instance(table, Table, "A Table", TournamentError)
    return _big_blind(table.seats, table.button)


def _worst_seat(seats: Sequence[str | None], button: int) -> int:
    """The open seat a player moved in takes by TDA rule 11-A: the worst position, the one to post the big
    blind soonest (the big blind itself if an open seat is there), never the small blind (unless every
    open seat is)."""
    best: tuple[bool, int, int] | None = None
    for seat in (s for s, p in enumerate(seats) if p is None):
        trial = list(seats)
        trial[seat] = "\0"
        order = _order(trial, button)
        bb = order.index(_big_blind(trial, button))  # type: ignore[arg-type]  # two players at least
        around = order[bb:] + order[:bb]
        key = (around[-1] == seat, around.index(seat), seat)  # the small blind is the last to post the big blind
        best = key if best is None or key < best else best
    if best is None:
        raise AssertionError("no open seat at the shorter table")
    return best[2]


def draw_seats(players: Sequence[str], rules: SeatingRules = SeatingRules(), seed: int = 0) -> tuple[Table, ...]:
    """The seat draw (TDA rule 7): ``players`` (their names) spread over as few tables of
    ``rules.table_size`` seats as hold them, numbered from 1, their counts differing by one at most; every
    player in a seat drawn at random, and each table's button drawn. Players who fit at the final table
    (:attr:`SeatingRules.final_size`) sit at one table of that size. The same ``seed`` draws the same seats."""
    rules = _check_rules(rules)
    names = _check_players(players)
    rng = _rng(seed)
    size = rules.final_size if len(names) <= rules.final_size else rules.table_size
    count = -(-len(names) // size)
    rng.shuffle(names)
    tables = []
    start = 0
    for number in range(1, count + 1):
        seated = len(names) // count + (number <= len(names) % count)
        seats: list[str | None] = [None] * size
        chosen = rng.sample(range(size), seated)
        for seat, name in zip(chosen, names[start:start + seated], strict=True):
            seats[seat] = name
        start += seated
        tables.append(Table(number, tuple(seats), rng.choice(sorted(chosen))))
    return tuple(tables)


class _Room:
    """The tables as :func:`balance` changes them: seats and players seated by table number, buttons, the
    moves made, and two heaps of the tables by players seated (entries are checked against the counts
    when read, so each move pushes new ones and never searches: a large room balances in n log n)."""

    def __init__(self, tables: list[Table], rng: random.Random) -> None:
        self.seats = {t.number: list(t.seats) for t in tables}
        self.buttons = {t.number: t.button for t in tables}
        self.counts = {t.number: t.count for t in tables}
        self.rng = rng
        self.moves: list[Move] = []
        self.broken: list[int] = []
        self.fullest: list[tuple[int, int]] = []  # (-count, -number): the fullest, highest-numbered first
        self.shortest: list[tuple[int, int]] = []  # (count, number): the shortest, lowest-numbered first
        for number in self.counts:
            self._push(number)

    def _push(self, number: int) -> None:
        if self.counts[number] < 0:  # a table breaking
            return
        heapq.heappush(self.fullest, (-self.counts[number], -number))
        heapq.heappush(self.shortest, (self.counts[number], number))

    def _top(self, heap: list[tuple[int, int]], sign: int) -> int:
        """The number of the table first in ``heap``, dropping entries a move or a break made stale."""
        while True:
            count, number = heap[0][0] * sign, heap[0][1] * sign
            if self.counts.get(number) == count:
                return number
            heapq.heappop(heap)

    def move(self, source: int, seat: int, target: int, to_seat: int, reason: str) -> None:
        player = self.seats[source][seat]
        assert player is not None and self.seats[target][to_seat] is None
        self.seats[source][seat] = None
        self.seats[target][to_seat] = player
        self.counts[source] -= 1
        self.counts[target] += 1
        self._push(source)
        self._push(target)
        self.moves.append(Move(player, source, seat, target, to_seat, reason))

    def drop(self, number: int) -> None:
        del self.seats[number], self.buttons[number], self.counts[number]
        self.broken.append(number)

    def final_table(self, size: int) -> None:
        """Every player drawn into a seat of one table of ``size`` seats, numbered as the lowest table."""
        number = min(self.seats)
        where = [(n, s) for n in sorted(self.seats) for s, p in enumerate(self.seats[n]) if p is not None]
        self.rng.shuffle(where)
        chosen = self.rng.sample(range(size), len(where))
        old = self.seats
        self.seats = {number: [None] * size}
        for (n, s), seat in zip(where, chosen, strict=True):
            player = old[n][s]
            assert player is not None
            self.seats[number][seat] = player
            self.moves.append(Move(player, n, s, number, seat, "final table"))
        self.broken.extend(n for n in sorted(old) if n != number)
        self.buttons = {number: self.rng.choice(sorted(chosen))}
        self.counts = {number: len(where)}

    def break_tables(self, numbers: list[int]) -> None:
        """The players of the tables ``numbers``, table by table, drawn one by one in an order drawn at
        random, each into an open seat drawn at random at the table left with the fewest players then (the
        lowest-numbered among equals): TDA rule 10. Nobody goes to a table that breaks too."""
        for number in numbers:
            self.counts[number] = -1  # out of the heaps: their entries no longer match, none is pushed
        for number in numbers:
            leaving = [s for s, p in enumerate(self.seats[number]) if p is not None]
            self.rng.shuffle(leaving)
            for seat in leaving:
                target = self._top(self.shortest, 1)
                open_seats = [s for s, p in enumerate(self.seats[target]) if p is None]
                self.move(number, seat, target, self.rng.choice(open_seats), "break")
            self.drop(number)

    def balance(self, rules: SeatingRules) -> None:
        """Players moved from the fullest table to the shortest while they differ by ``rules.balance_at``."""
        while self.seats:
            source, target = self._top(self.fullest, -1), self._top(self.shortest, 1)
            if self.counts[source] - self.counts[target] < rules.balance_at:
                return
            seat = _big_blind(self.seats[source], self.buttons[source])
            assert seat is not None  # the fullest table has two players at least
            if rules.moved_to == "random":
                to_seat = self.rng.choice([s for s, p in enumerate(self.seats[target]) if p is None])
            else:
                to_seat = _worst_seat(self.seats[target], self.buttons[target])
            self.move(source, seat, target, to_seat, "balance")

    def plan(self) -> Plan:
        tables = tuple(Table(n, tuple(self.seats[n]), self.buttons[n]) for n in sorted(self.seats))
        return Plan(tables, tuple(self.moves), tuple(self.broken))


def balance(tables: Sequence[Table], rules: SeatingRules = SeatingRules(), seed: int = 0) -> Plan:
    """The moves that leave ``tables`` (between hands, after eliminations) as the TDA rules want them:

    1. A table with nobody left is gone.
    2. The final table: once the players fit at one table of :attr:`SeatingRules.final_size` seats
       (TDA RP-9) and sit at more than one, every player draws a seat at random at one table (numbered
       as the lowest) and its button is drawn.
    3. Breaking: while the other tables' seats can hold every player, the highest-numbered table breaks
       (a break order set in advance, rule 11-C) and its players are drawn into open seats of the tables
       that stay, each at the table then shortest (any seat, button and blinds included: rule 10).
    4. Balancing (rule 11-A): while the fullest table has :attr:`SeatingRules.balance_at` or more players
       than the shortest, the player to be big blind next at the fullest table (the highest-numbered
       among equals, rule 11-C) moves to the shortest (the lowest-numbered among equals), to the worst
       position there, or to a random open seat (:attr:`SeatingRules.moved_to`).

    Random draws come from ``seed``; the same tables and seed give the same :class:`Plan`.
    """
    rules = _check_rules(rules)
    room = _Room(_check_tables(tables, rules), _rng(seed))
    for number in [n for n in sorted(room.seats) if room.counts[n] == 0]:
        room.drop(number)
    total = sum(room.counts.values())
    if len(room.seats) > 1 and total <= rules.final_size:
        room.final_table(rules.final_size)
        return room.plan()
    order, breaking = sorted(room.seats), []
    room_seats = sum(len(room.seats[n]) for n in order)
    while len(order) > 1 and total <= room_seats - len(room.seats[order[-1]]):
        room_seats -= len(room.seats[order[-1]])
        breaking.append(order.pop())
    room.break_tables(breaking)
    room.balance(rules)
    return room.plan()


def bubble(tables: Sequence[Table], paid: int, rules: SeatingRules = SeatingRules()) -> Bubble:
    """Where ``tables`` stand against the ``paid`` places: hand for hand (TDA RP-8: every table finishes
    its hand and waits, then all deal the next together, so nobody gains by stalling for busts elsewhere)
    while more than one table plays and the players left are more than ``paid`` by at most
    :attr:`SeatingRules.hand_for_hand_margin`. How players busting in the same hand-for-hand round finish
    is :attr:`SeatingRules.hand_for_hand_busts`."""
    rules = _check_rules(rules)
    found = _check_tables(tables, rules)
    paid = check_int(paid, "number of places paid", TournamentError, minimum=1, maximum=MAX_ENTRANTS)
    left = sum(t.count for t in found)
    playing = sum(t.count > 0 for t in found)
    return Bubble(left, paid, playing > 1 and paid < left <= paid + rules.hand_for_hand_margin)
