"""One tournament played to its end between bots: sit-and-go or multi-table, the blinds rising by the
structure's clock, players moved and tables broken by the TDA rules, places and prizes.

::

    from cardgame.tournament import EventSpec, preset, run_event

    result = run_event(EventSpec(180, ("random", "pair-raiser"), preset("turbo sng hands")), seed=7)
    print(result.table())                # places, players, bots, prizes

How an event runs (:func:`run_event`):

* The entrants (``p1``, ``p2``... each playing ``spec.bots[i % len(spec.bots)]``) draw their seats
  (:func:`~cardgame.tournament.seating.draw_seats`, TDA rule 7), each with ``spec.stack`` chips.
* The tables deal in **rounds**: in round ``n`` every table with two players or more plays one hand, a
  :class:`~cardgame.play.game.Game` of the variant built for the level in play (the table, its stacks and
  its button go on from hand to hand; each hand's deck is seeded from the event's seed, the table and the
  round; each bot draws from its seat's stream of that hand, never the deck's). A structure counted in
  hands plays level ``at_hand(n)`` in round ``n``; one counted in minutes advances its clock
  ``seconds_per_hand`` a round, stops it for breaks, and deals each hand at the level the clock shows
  when it is dealt: a new level applies from the next hand (TDA rule 23).
* After each round the players out are eliminated (:class:`~cardgame.tournament.places.Standings`), ranked
  by the stacks they started the hand with. Outside hand for hand, hands at different tables end at
  different moments: each table's players out are a separate elimination, the tables taken in an order
  drawn at random. Hand for hand (TDA RP-8, :func:`~cardgame.tournament.seating.bubble`) every table
  finishes its hand before the next deal, and the players out in that round count as out in one hand.
* Then the tables are balanced (:func:`~cardgame.tournament.seating.balance`: breaking, balancing, the
  final table); a moved player's chips go with them.
* Checked at every round: the chips at all tables add up to entrants x starting stack (and each table's
  hand kept the chips it started with), and the tables are as the balancing rule wants them (balancing
  them again moves nobody). A broken check raises ``AssertionError``: a bug, never a player's doing.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import attrs

from cardgame.model.events import Event
from cardgame.model.inputs import MAX_NUMBER, check_instance, check_int, excerpt
from cardgame.model.rng import RandomSource, check_seed, new_seed
from cardgame.model.table import Table as SeatedTable
from cardgame.play.bot import Bot
from cardgame.tournament._checks import check_list
from cardgame.tournament.errors import TournamentError
from cardgame.tournament.payouts import check_percentages, default_percentages, payouts
from cardgame.tournament.places import Finish, Standings
from cardgame.tournament.seating import MAX_ENTRANTS, Plan, SeatingRules, Table, balance, bubble, draw_seats
from cardgame.tournament.structure import Level, Structure, preset

__all__ = ["EventSpec", "HandPlayed", "LevelPlayed", "Listener", "Tournament", "run_event"]

#: The most bot names an event's entrants cycle through.
MAX_BOTS = 100



@dataclass(frozen=True)
class HandPlayed:
    """One hand of an event, for a listener: its ``table`` number, the ``round`` it was dealt in, the
    ``level`` number played, the players by seat (``names``) and the hand's ``events`` (the engine's: its
    ``HandStarted``, every forced bet and action, ``HandEnded``)."""

    table: int
    round: int
    level: int
    names: dict[int, str]
    events: tuple[Event, ...]


#: ``listener(hand)``: called with each :class:`HandPlayed` as the event goes on.
Listener = Callable[[HandPlayed], None]


def _entrants(value: object) -> int:
    return check_int(value, "number of entrants", TournamentError, minimum=2, maximum=MAX_ENTRANTS)


def _bots(value: object) -> tuple[str, ...]:
    from cardgame.model.errors import CardgameError
    from cardgame.play.bots import get

    names = check_list(value, "bots", max_length=MAX_BOTS)
    for name in names:
        if not isinstance(name, str):
            raise TournamentError(f"A bot is named by a string (cardgame.play.bots.available()), not {excerpt(name)}.")
        try:
            get(name)
        except CardgameError as exc:
            raise TournamentError(str(exc)) from None
    return tuple(str(n).strip() for n in names)


def _structure(value: object) -> Structure:
    return check_instance(value, Structure, "A Structure", TournamentError)


def _rules(value: object) -> SeatingRules:
    return check_instance(value, SeatingRules, "A SeatingRules", TournamentError)


def _stack(value: object) -> int:
    return check_int(value, "starting stack", TournamentError, minimum=1, maximum=10**12)


def _buy_in(value: object) -> int:
    return check_int(value, "buy-in", TournamentError, minimum=0, maximum=10**12)


def _seconds(value: object) -> int:
    return check_int(value, "seconds per hand", TournamentError, minimum=1, maximum=86_400)


def _max_rounds(value: object) -> int:
    return check_int(value, "most rounds", TournamentError, minimum=1, maximum=10**7)


def _percentages(value: object) -> tuple[Any, ...] | None:
    return None if value is None else tuple(check_percentages(value))


def _variant(value: object) -> str:
    import variants
    from cardgame.model.errors import CardgameError

    if not isinstance(value, str):
        raise TournamentError(f"A variant is named by its name or PHH code, not {excerpt(value)}.")
    try:
        found = variants.get(value)
    except CardgameError as exc:
        raise TournamentError(str(exc)) from None
    if not {"small_blind", "big_blind", "ante"} <= _takes(found.builder):
        raise TournamentError(f"{found.name} has no blinds and antes to raise by level; a tournament plays a "
                              f"variant built with small_blind, big_blind and ante (NT, PO...).")
    return value


def _takes(builder: Callable[..., Any]) -> set[str]:
    """The keyword arguments a variant's builder takes."""
    return set(inspect.signature(builder).parameters)


@attrs.frozen
class EventSpec:
    """A tournament: ``entrants`` players (2 to :data:`~cardgame.tournament.seating.MAX_ENTRANTS`), entrant
    ``i`` played by the bot ``bots[i % len(bots)]`` (names for :func:`cardgame.play.bots.get`), each
    starting with ``stack`` chips, blinds by ``structure`` (default the ``"turbo sng hands"`` preset),
    ``variant`` (a registered name or PHH code whose builder takes the blinds and the ante, and the
    big-blind ante if the structure has one; no-limit hold'em by default), seats by ``rules``. Each entrant
    pays ``buy_in`` (money units) into the prize pool, paid out by ``percentages`` (place 1 first; default
    :func:`~cardgame.tournament.payouts.default_percentages`).
    A structure counted in minutes advances ``seconds_per_hand`` a round. An event still going after
    ``max_rounds`` rounds is stopped with :class:`TournamentError`."""

    entrants: int = attrs.field(converter=_entrants)
    bots: tuple[str, ...] = attrs.field(default=("random",), converter=_bots)
    structure: Structure = attrs.field(default=preset("turbo sng hands"), converter=_structure)
    stack: int = attrs.field(default=1_500, converter=_stack)
    buy_in: int = attrs.field(default=100, converter=_buy_in)
    percentages: tuple[Any, ...] | None = attrs.field(default=None, converter=_percentages)
    rules: SeatingRules = attrs.field(default=SeatingRules(), converter=_rules)
    variant: str = attrs.field(default="NT", converter=_variant)
    seconds_per_hand: int = attrs.field(default=60, converter=_seconds)
    max_rounds: int = attrs.field(default=100_000, converter=_max_rounds)

    def __attrs_post_init__(self) -> None:
        import variants

        if self.entrants * self.stack > MAX_NUMBER:
            raise TournamentError(f"{self.entrants:,} entrants of {self.stack:,} chips make too many chips; at most "
                                  f"{MAX_NUMBER:,} in all.")
        if self.percentages is not None:
            check_percentages(list(self.percentages), self.entrants)
        seats = max(self.rules.table_size, self.rules.final_size)
        found = variants.get(self.variant)
        most = found.max_players
        antes = any(level.ante for level in self.structure.blind_levels)
        if antes and self.structure.ante_format == "big blind" and "big_blind_ante" not in _takes(found.builder):
            raise TournamentError(f"{found.name} has no big-blind ante; give it a structure whose antes are posted "
                                  f"by everyone (ante_format=\"everyone\") or without antes.")
        if seats > most:
            raise TournamentError(f"{excerpt(self.variant)} seats at most {most} players; the tables have {seats}.")

    @property
    def names(self) -> tuple[str, ...]:
        """The entrants' names: ``p1``, ``p2``..."""
        return tuple(f"p{i + 1}" for i in range(self.entrants))

    def bot_of(self, index: int) -> str:
        """The bot playing entrant ``index`` (from 0)."""
        i = check_int(index, "entrant index", TournamentError, minimum=0, maximum=self.entrants - 1)
        return self.bots[i % len(self.bots)]

    @property
    def prize_pool(self) -> int:
        """The buy-ins added up."""
        return self.entrants * self.buy_in

    @property
    def payouts(self) -> tuple[int, ...]:
        """What each place pays (place 1 first), rounded down with the rest to the winner; empty when the
        prize pool is 0."""
        if not self.prize_pool:
            return ()
        table = default_percentages(self.entrants) if self.percentages is None else self.percentages
        return payouts(self.prize_pool, list(table))


@dataclass(frozen=True)
class LevelPlayed:
    """One level as it was played: its ``level`` number and ``blinds``, the ``first_round`` dealt at it,
    the ``rounds`` and ``hands`` (at all tables) played, and the ``players`` left when it began."""

    level: int
    blinds: Level
    first_round: int
    rounds: int
    hands: int
    players: int


@dataclass(frozen=True)
class Tournament:
    """A tournament played to its end (:func:`run_event`): the ``seed`` that replays it, the ``spec``,
    the final ``standings`` (every :class:`~cardgame.tournament.places.Finish`), the ``rounds`` dealt and
    ``hands`` played at all tables, each level as played (``levels``), the minutes of ``breaks`` taken,
    the round the ``final_table`` formed (all players at one table), and the ``moves`` of players between
    tables."""

    seed: int
    spec: EventSpec
    standings: Standings
    rounds: int
    hands: int
    levels: tuple[LevelPlayed, ...]
    breaks: int
    final_table: int
    moves: int

    @property
    def places(self) -> tuple[Finish, ...]:
        """Every finish, first place first (tied players in the order they were listed)."""
        return tuple(sorted(self.standings.finishes, key=lambda f: f.place))

    @property
    def winner(self) -> str:
        return self.places[0].name

    @property
    def prizes(self) -> dict[str, int]:
        """Each entrant's prize (0 out of the money)."""
        return {f.name: f.prize for f in self.standings.finishes}

    def bot(self, name: str) -> str:
        """The bot that played entrant ``name``."""
        if not isinstance(name, str) or name not in self.spec.names:
            raise TournamentError(f"{excerpt(name)} is not an entrant; they are p1 to p{self.spec.entrants}.")
        return self.spec.bot_of(int(name[1:]) - 1)

    def table(self, top: int = 20) -> str:
        """The first ``top`` places as text: place, player, bot, prize."""
        most = check_int(top, "number of places shown", TournamentError, minimum=1, maximum=MAX_ENTRANTS)
        rows = [("place", "player", "bot", "prize")]
        rows += [(f.places, f.name, self.bot(f.name), f"{f.prize:,}") for f in self.places[:most]]
        return columns(rows, left=(1, 2))


def columns(rows: Sequence[Sequence[str]], left: tuple[int, ...]) -> str:
    """``rows`` (the header first) as aligned text: the columns ``left`` to the left, the others right."""
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if c in left else cell.rjust(w)
                               for c, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows)


class _Event:
    """The event in play: the tables (the engine's :class:`~cardgame.model.table.Table`, kept from hand to
    hand), the standings, the clock and the log of levels."""

    def __init__(self, spec: EventSpec, seed: int, listener: Listener | None) -> None:
        import variants
        from cardgame.play.bots import get

        self.spec = spec
        self.seed = seed
        self.listener = listener
        self.source = RandomSource(seed)
        self.rng = self.source.derive("event")  # the seat draw, balancing, the order busts are taken in
        self.variant = variants.get(spec.variant)
        self.total = spec.entrants * spec.stack
        names = spec.names
        self.bots: dict[str, Bot] = {}
        made: dict[str, Bot] = {}
        for i, name in enumerate(names):  # a bot object each entrant, a shallow copy of one made per kind (a
            kind = spec.bot_of(i)         # range bot's style takes milliseconds to build); functions are shared
            made[kind] = bot = made.get(kind) or get(kind)
            self.bots[name] = bot if inspect.isfunction(bot) else copy.copy(bot)
        self.standings = Standings(names, spec.payouts)
        self.paid = max(1, sum(1 for p in spec.payouts if p > 0))
        self.tables: dict[int, SeatedTable] = {}
        for t in draw_seats(names, spec.rules, seed=self.rng.getrandbits(64)):
            table = self.tables[t.number] = self._new_table(len(t.seats), t.button)
            for seat, player in enumerate(t.seats):
                if player is not None:
                    table.sit_down(player, spec.stack, seat)
        self.rounds = self.hands = self.breaks = self.moves = 0  # breaks: seconds of the clock stopped
        self.seconds = 0
        self.levels: list[LevelPlayed] = []
        self.final_table = 1 if len(self.tables) == 1 else 0

    def _new_table(self, seats: int, button: int) -> SeatedTable:
        return SeatedTable(seats, 1, self.total, first_button=button)

    # --- the clock ---------------------------------------------------------------------------------
    def level(self) -> tuple[int, Level]:
        """The level this round is dealt at (a minutes clock runs through breaks first)."""
        structure = self.spec.structure
        if structure.unit == "hands":
            clock = structure.at_hand(self.rounds)
        else:
            clock = structure.at_time(self.seconds)
            while clock.on_break:
                assert clock.remaining is not None  # a break is never the last entry
                self.breaks += clock.remaining
                self.seconds += clock.remaining
                clock = structure.at_time(self.seconds)
        return clock.level, clock.blinds

    # --- the tables as the seating rules see them ----------------------------------------------------
    def seating(self) -> list[Table]:
        """The tables between hands: the next hand's button is the first seat in play after the last
        hand's (the engine's moving button), or the drawn first button before a table's first hand."""
        out = []
        for number, t in sorted(self.tables.items()):
            button = t.first_button or 0 if t.button is None else (t.button + 1) % t.seat_count
            out.append(Table(number, tuple(None if p is None else p.name for p in t.seats), button))
        return out

    def apply(self, plan: Plan, given: list[Table]) -> None:
        """Make ``plan``'s moves: each player leaves their seat with their chips, then takes the new one;
        a broken table goes; a table whose button the plan drew (the final table) deals from it."""
        chips: dict[str, int] = {}
        for move in plan.moves:
            chips[move.player] = self.tables[move.from_table].remove(move.from_seat).stack
        for number in plan.broken:
            del self.tables[number]
        buttons = {t.number: t.button for t in given}
        for t in plan.tables:
            table = self.tables[t.number]
            if table.seat_count != len(t.seats) or t.button != buttons[t.number]:
                assert table.total_chips() == 0 or table.seat_count == len(t.seats)
                if table.seat_count != len(t.seats):
                    table = self.tables[t.number] = self._new_table(len(t.seats), t.button)
                table.button, table.first_button = None, t.button
        for move in plan.moves:
            self.tables[move.to_table].sit_down(move.player, chips[move.player], move.to_seat)
        self.moves += len(plan.moves)

    # --- a round -----------------------------------------------------------------------------------
    def hand(self, number: int, level: int, options: dict[str, Any]) -> dict[str, int]:
        """Table ``number`` plays a hand; the players out with the stacks they started it with, in seat
        order from the button."""
        from cardgame.play.game import Game

        table = self.tables[number]
        if len(table.in_play()) < 2:
            return {}
        start = {p.name: p.stack for p in table.players()}
        seed = self.source.derive(f"table {number} round {self.rounds}").getrandbits(64)
        game = Game(self.variant.build(**options), table=table, seed=seed, deck=self.variant.deck, max_hands=1)
        game.start()
        game.play({p.seat: self.bots[p.name] for p in table.players()})
        if game.status_name != "exited" or game.ctx.hands_played != 1:
            raise AssertionError(f"table {number}, round {self.rounds}: the hand did not end ({game.status_name})")
        if table.total_chips() != sum(start.values()):
            raise AssertionError(f"table {number}, round {self.rounds}: the hand did not keep its chips")
        if self.listener is not None:
            names = {p.seat: p.name for p in table.players()}
            self.listener(HandPlayed(number, self.rounds, level, names, tuple(game.events)))
        self.hands += 1
        button = table.button or 0
        out = sorted((p for p in table.players() if p.stack == 0),
                     key=lambda p: (p.seat - button - 1) % table.seat_count)
        for p in out:
            table.remove(p.seat)
        return {p.name: start[p.name] for p in out}

    def round(self) -> None:
        self.rounds += 1
        if self.rounds > self.spec.max_rounds:
            raise TournamentError(f"The event was still going after {self.spec.max_rounds:,} rounds "
                                  f"({len(self.standings.remaining):,} players left); raise max_rounds.")
        number, blinds = self.level()
        left = len(self.standings.remaining)
        if not self.levels or self.levels[-1].level != number:
            self.levels.append(LevelPlayed(number, blinds, self.rounds, 0, 0, left))
        hands = self.hands
        hand_for_hand = bubble(self.seating(), self.paid, self.spec.rules).hand_for_hand
        options = self.spec.structure.game_options(blinds)
        if "big_blind_ante" not in _takes(self.variant.builder):  # a variant without one: none asked (checked)
            del options["big_blind_ante"]
        out = [self.hand(n, number, options) for n in sorted(self.tables)]
        last = self.levels[-1]
        self.levels[-1] = replace(last, rounds=last.rounds + 1, hands=last.hands + self.hands - hands)
        if hand_for_hand:
            out = [self.spec.rules.round_out({name: stack for group in out for name, stack in group.items()})]
        else:
            self.rng.shuffle(out)
        for group in out:
            if group:
                self.standings = self.standings.eliminate(group, hand=self.rounds)
        if not self.standings.over:
            given = self.seating()
            self.apply(balance(given, self.spec.rules, seed=self.rng.getrandbits(64)), given)
            if len(self.tables) == 1 and not self.final_table:
                self.final_table = self.rounds + 1
        self.seconds += self.spec.seconds_per_hand
        self.check()

    def check(self) -> None:
        """Chips neither made nor lost across the tables; nobody left to move by the balancing rule."""
        chips = sum(t.total_chips() for t in self.tables.values())
        if chips != self.total:
            raise AssertionError(f"round {self.rounds}: {chips:,} chips at the tables, not {self.total:,}")
        seated = sorted(p.name for t in self.tables.values() for p in t.players())
        over = self.standings.over
        left = [f.name for f in self.standings.finishes if f.place == 1] if over else sorted(self.standings.remaining)
        if seated != left:
            raise AssertionError(f"round {self.rounds}: the players seated are not the players left")
        if len(seated) > 1:
            again = balance(self.seating(), self.spec.rules, seed=0)
            if again.moves or again.broken:
                raise AssertionError(f"round {self.rounds}: the tables are not balanced: {again.moves[:3]}")

    def result(self) -> Tournament:
        return Tournament(self.seed, self.spec, self.standings, self.rounds, self.hands, tuple(self.levels),
                          self.breaks // 60, self.final_table, self.moves)


def run_event(spec: EventSpec, seed: int | None = None, *, listener: Listener | None = None) -> Tournament:
    """Play the tournament ``spec`` to its winner (as the module says) and return it. ``seed`` replays it
    (default: 128 bits from the operating system, kept in the result). ``listener`` is handed each hand
    played (a :class:`HandPlayed`) as the event goes on."""
    spec = check_instance(spec, EventSpec, "An EventSpec", TournamentError)
    chosen = new_seed() if seed is None else check_seed(seed, TournamentError)
    if listener is not None and not callable(listener):
        raise TournamentError(f"A listener is a callable listener(hand), not {excerpt(listener)}.")
    event = _Event(spec, chosen, listener)
    event.check()
    while not event.standings.over:
        event.round()
    return event.result()
