"""Observation encoders: a game as one seat sees it, as a flat ``float32`` vector for a learner.

``encoder(name, game, **options)`` builds an :class:`Encoder` once per environment (the game gives
the variant's stages, deck, table size and stakes); ``encoder.encode(game, seat)`` then runs every
step. Two encodings (their layouts, index by index: ``docs/rl.md``):

* ``"planes"`` (:class:`Planes`, the default): every variant, any table size. Card planes (the
  seat's hole cards, the board, other seats' face-up cards, the seat's discards), the street, the
  pot, each seat's chips and flags rotated so the observer comes first, the position, and the
  hand's betting history by street and seat.
* ``"rlcard"`` (:class:`RLCardEncoding`): RLCard's (and PettingZoo classic's) vectors, so published
  results compare: no-limit hold'em 54 values, fixed-limit hold'em 72, Leduc hold'em 36.
* ``"infostate"`` (:class:`InfoState`): a perfect-recall information-state tensor in the layout of
  OpenSpiel's ``information_state_tensor`` (the player, the cards by the deal that brought them,
  every action in order, a slot each); for Leduc hold'em it is OpenSpiel's own 30 values.

An encoder reads only what the seat may see: each seat's row as
:func:`~cardgame.play.view.seat_rows` gives it to that viewer (its own cards, others' face-up ones),
the hand's public state (board, pot, bets, button) and the hand's events through
``event.seen_by(seat)``, as :meth:`~cardgame.play.game.Game.events_for` gives them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from gymnasium.spaces import Box

from cardgame.engine import Stage
from cardgame.model.betting import FixedLimit, NoLimit
from cardgame.model.cards import RANKS, SUITS
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError
from cardgame.model.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    CardsDiscarded,
    Event,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
)
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.game import Game
from cardgame.play.shape import GameShape, game_shape
from cardgame.stages import BettingRound, BringIn, DealBoard, DealHole, Draw

__all__ = ["ENCODERS", "Block", "Encoder", "InfoState", "Planes", "RLCardEncoding", "encoder"]

Vector = npt.NDArray[np.float32]


@runtime_checkable
class Encoder(Protocol):
    """An observation encoder: ``space`` holds every vector ``encode`` returns (1-D, ``float32``).

    ``encode(game, seat)`` returns a new vector; ``encode(game, seat, out=buffer)`` fills ``buffer``
    (shape ``space.shape``, ``float32``) and returns it."""

    @property
    def name(self) -> str:
        """The encoding's name (``"planes"``, ``"rlcard"``)."""

    @property
    def space(self) -> Box[np.float32]:
        """The observation space: 1-D, ``float32``; its bounds hold every vector ``encode`` gives."""

    def encode(self, game: Game, seat: int, out: Vector | None = None) -> Vector: ...


class Block(NamedTuple):
    """One part of an encoding: ``vector[start:stop]`` holds ``meaning``."""

    name: str
    start: int
    stop: int
    meaning: str


#: Events that deal or draw cards: an action after one of them belongs to the next betting round.
_DEALS = (HoleCardsDealt, BoardDealt, CardsDiscarded)


def _hand_start(ctx: Context) -> int:
    """Where the hand in progress starts in ``ctx.log``."""
    starts = ctx.hand_starts
    if starts:
        return starts[-1]
    log = ctx.log  # the log keeps every hand (keep_hands=None): find the last start
    start = len(log) - 1
    while start > 0 and type(log[start]) is not HandStarted:
        start -= 1
    return start


def _hand_events(ctx: Context) -> list[Event]:
    """The events of the hand in progress, from its start. Only the discards among them hide
    anything the encoders read (which cards another player threw): they are read through
    ``event.seen_by(seat)``; a dealing event counts only as a boundary between rounds."""
    return ctx.log[_hand_start(ctx):]


def _by_round(events: Sequence[Event], rounds: int) -> Iterator[tuple[int, Event]]:
    """``(betting round, event)`` for the events of a hand, the rounds counted 0 to ``rounds - 1``.

    Events carry no street, and a round may see no action; the first action after cards are dealt
    or drawn starts the next round. That is exact: a round passes without action only when at most
    one player can still bet, and then no later round has any either (a fold by a player leaving
    during a draw is counted in the round after the draw)."""
    r = 0
    acted = pending = False
    last = rounds - 1
    for e in events:
        if isinstance(e, ActionTaken):
            if pending and acted and r < last:
                r += 1
            pending = False
            acted = True
        elif isinstance(e, _DEALS):
            pending = True
        yield r, e


def _stage_tables(stages: Sequence[Stage[Any]], draws: int) -> tuple[list[int], list[int]]:
    """For each stage position: the betting round it belongs to (a betting round's own ordinal, else
    the next round's; after the last, the last) and the draws left (a draw stage counts itself)."""
    rounds = [i for i, s in enumerate(stages) if isinstance(s, BettingRound)]
    last = max(len(rounds) - 1, 0)
    round_at = [min(sum(1 for r in rounds if r < i), last) for i in range(len(stages))]
    draws_at = [min(sum(1 for s in stages[i:] if isinstance(s, Draw) and s.replace), draws)
                for i in range(len(stages))]
    return round_at, draws_at


def _stage_position(game: Game) -> int:
    """Where the game is in its stage list (the stack holds the stages still to run)."""
    d = game.dispatcher
    if d.status != "running":
        return 0
    return len(d.stages) - 1 - len(d.stack)


def _check_game(game: object) -> Game:
    if not isinstance(game, Game):
        raise ConfigError(f"An encoder encodes a Game (the variant, deck and table it was built for), not "
                          f"{excerpt(game)}.")
    return game


def _check_seat(game: Game, seat: object, seats: int) -> int:
    if not isinstance(game, Game) or game.ctx.table.seat_count != seats:
        raise ConfigError(f"This encoder was built for a table of {seats} seats; the game has "
                          f"{_check_game(game).table.seat_count}. Build one per table size.")
    if type(seat) is int and 0 <= seat < seats:  # the common case, checked at once
        return seat
    return check_int(seat, "seat to encode for", ConfigError, minimum=0, maximum=seats - 1)


def _buffer(out: Vector | None, size: int) -> Vector:
    if out is None:
        return np.zeros(size, np.float32)
    if (not isinstance(out, np.ndarray) or out.shape != (size,) or out.dtype != np.float32
            or not out.flags.writeable):
        raise ConfigError(f"out must be a writeable float32 array of shape ({size},), not {excerpt(out)}.")
    out.fill(0.0)
    return out


def _writer(v: Vector) -> Any:
    """``v``'s items as a memoryview: ``w[i] = x`` stores ``x`` as numpy's ``v[i] = x`` would (a
    float32), at a third of the cost of numpy's indexing (an encoder writes a few dozen values a step)."""
    return memoryview(v)  # type: ignore[arg-type]  # (typeshed: a memoryview's items are ints)


def _card_table(deck: Sequence[int]) -> npt.NDArray[np.intp]:
    """Card (0..51) -> its place in ``deck`` (-1: not in it)."""
    table = np.full(52, -1, np.intp)
    table[list(deck)] = np.arange(len(deck))
    return table


class _WritesThrough:
    """An encoder that writes through a memoryview (``_write(game, seat, w)``, ``w`` a vector of zeros as
    :func:`_writer` gives it; a vector environment keeps one a row): ``_fill`` fills a numpy vector."""

    _write: Callable[[Game, int, Any], None]

    def _fill(self, game: Game, seat: int, v: Vector) -> Vector:
        """:meth:`encode` on checked arguments, into ``v`` (zeros)."""
        self._write(game, seat, _writer(v))
        return v


class Planes(_WritesThrough):
    """The default encoding, for every variant and table size: ``space.shape == (size,)``.

    Blocks (``blocks`` lists them with their index ranges; ``docs/rl.md`` describes each): the
    seat's hole cards, its face-up ones (games with up cards), the board (games with one), the face-up cards of each
    other seat (games with up cards), the seat's discards (games with a draw or discard round), the
    betting round, the draws left (draw games), pot and chips to call, the seat's place in the
    hand's order, nine values a seat for every seat rotated so the observer is first (seated, dealt
    in, stack, bet, chips in the pot, folded, all-in, button, to act), the betting history (each
    round and seat: bets and raises, calls, a check, chips put in, a fold) and each draw's
    discard counts. Cards are one plane of ``len(deck)`` values, one per card of the game's deck.

    Chips are divided by ``stack`` (default: the largest stack seated when the encoder is built,
    else 100 big blinds; build it before the first hand, or pass the starting stack) and capped at
    the table size (a stack reaches it only by winning every chip of a full table); counts of bets
    and calls are divided by ``max_raises`` (default 4) and capped at 1.

    The encoder keeps its reading of the history of the hand it last encoded, every seat's at once, so
    the next observation of that hand, whichever seat's, reads only the events logged since (another
    hand or game, a copy for search included, is read from its start); the values are a full
    reading's (``tests/rl/test_observe.py`` compares them).
    """

    name: str = "planes"

    def __init__(self, game: Game, *, stack: int | None = None, max_raises: int = 4) -> None:
        stages = _check_game(game).dispatcher.stages
        shape = game_shape(stages, game.ctx.deck_spec)
        self.shape: GameShape = shape
        n = self.seats = game.table.seat_count
        if stack is None:
            seated = [p.stack for p in game.table.players()]
            stack = max(seated) if seated and max(seated) > 0 else 100 * shape.big_blind
        self.stack = check_int(stack, "stack (the chips that encode as 1.0)", ConfigError, minimum=1)
        self.max_raises = check_int(max_raises, "max_raises", ConfigError, minimum=1)
        self._cards = _card_table(shape.deck)
        d = len(shape.deck)
        up = any(shape.up_cards)
        discards = any(isinstance(s, Draw) for s in stages)
        self._draw_rounds = sum(1 for s in stages if isinstance(s, Draw))
        self._dealt = max(sum(len(s.face_up) for s in stages if isinstance(s, DealHole)), 1)
        rounds = self._rounds = max(shape.rounds, 1)
        self._round_at, self._draws_at = _stage_tables(stages, shape.draws)
        cap = float(n)
        parts: list[tuple[str, int, float, str]] = [
            ("hole", d, 1.0, "the seat's hole cards, one value a card of the deck"),
        ]
        if up:
            parts.append(("hole_up", d, 1.0, "the seat's hole cards dealt face up"))
        if shape.board_cards or any(isinstance(s, DealHole) and s.community_if_short for s in stages):
            parts.append(("board", d, 1.0, "the board cards (stud: the common card of a short deck)"))
        if up:
            parts.append(("up_cards", (n - 1) * d, 1.0,
                          "for each other seat, 1 to n - 1 places to the left: its face-up cards"))
        if discards:
            parts.append(("discarded", d, 1.0, "the cards the seat threw away this hand"))
        parts.append(("street", rounds, 1.0, "the betting round, one-hot (draws: the round after them)"))
        if shape.draws:
            parts.append(("draws_left", shape.draws + 1, 1.0, "the draws still to come, one-hot 0 .. draws"))
        parts += [
            ("pot", 1, cap, "the pot (every chip committed this hand) / stack"),
            ("to_call", 1, cap, "chips the seat must add to call / stack"),
            ("position", n, 1.0, "the seat's place in the hand's order, one-hot (0: first left of the "
                                 "button; the button is the last dealt in)"),
            ("seats", 9 * n, cap, "per seat, the observer first then clockwise: seated, dealt in, "
                                  "stack / stack, bet / stack, in pot / stack, folded, all-in, button, to act"),
            ("history", 5 * rounds * n, cap, "per round, per seat (observer first): bets and raises / "
                                             "max_raises, calls / max_raises, checked, chips put in / stack, "
                                             "folded"),
        ]
        if self._draw_rounds:
            parts.append(("draw_history", self._draw_rounds * n, 1.0,
                          "per draw, per seat (observer first): cards discarded / cards dealt"))
        blocks: list[Block] = []
        highs: list[npt.NDArray[np.float32]] = []
        start = 0
        for name, size, high, meaning in parts:
            blocks.append(Block(name, start, start + size, meaning))
            block_high = np.full(size, high, np.float32)
            if name == "seats":  # flags are 0/1; the chip columns 2, 3, 4 go to the cap
                block_high[:] = 1.0
                for column in (2, 3, 4):
                    block_high[column::9] = cap
            elif name == "history":  # counts and flags to 1, chips (column 3) to the cap
                block_high[:] = 1.0
                block_high[3::5] = cap
            highs.append(block_high)
            start += size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.size = start
        self.space = Box(0.0, np.concatenate(highs), (start,), np.float32)
        at = {b.name: b.start for b in blocks}
        self._hole, self._board = at["hole"], at.get("board", -1)
        self._hole_up, self._up_cards = at.get("hole_up", -1), at.get("up_cards", -1)
        self._discarded, self._draws_left = at.get("discarded", -1), at.get("draws_left", -1)
        self._street, self._pot, self._to_call = at["street"], at["pot"], at["to_call"]
        self._position, self._seat_rows, self._history = at["position"], at["seats"], at["history"]
        self._draw_history = at.get("draw_history", -1)
        self._cap = cap
        self._d = d
        self._place: list[int] = self._cards.tolist()  # card -> its place in the deck, as a list
        self._hist = _History(self.size - self._history, n)  # the history of the hand last encoded, every seat's
        self._inv, self._step = 1.0 / self.stack, 1.0 / self.max_raises
        self._street_at = [self._street + r for r in self._round_at]  # stage position -> the street's index
        # viewer -> seat -> where the seat's row starts in the viewer's observation
        self._rows = [[self._seat_rows + 9 * ((s - k) % n) for s in range(n)] for k in range(n)]

    def block(self, name: str) -> slice:
        """The index range of the block called ``name``."""
        return _block(self.blocks, name)

    def encode(self, game: Game, seat: int, out: Vector | None = None) -> Vector:
        """``seat``'s observation of ``game`` (into ``out`` when given)."""
        return self._fill(game, _check_seat(game, seat, self.seats), _buffer(out, self.size))

    def _write(self, game: Game, seat: int, w: Any) -> None:
        """:meth:`encode` on checked arguments, into ``w`` (a vector of zeros, as :func:`_writer` gives it)."""
        inv, cap = self._inv, self._cap
        d = game.dispatcher  # (_stage_position and Game.to_act, inline: this runs every step)
        running = d.status == "running"
        pos = len(d.stages) - 1 - len(d.stack) if running else 0
        w[self._street_at[pos]] = 1.0
        if self._draws_left >= 0:
            w[self._draws_left + self._draws_at[pos]] = 1.0
        place = self._place
        ctx = game.ctx
        hand = ctx.hand
        to_act = getattr(d.current, "to_act", None) if hand is not None and running else None
        up_cards = self._up_cards
        by_seat = hand.by_seat if hand is not None else {}
        button = ctx.table.button
        rows = self._rows[seat]
        dealt = pot = top = 0  # the hand's players seen, their chips in the pot, the largest bet
        for p in ctx.table.seats:  # each seat's row as seat_rows gives it to the viewer, read in place
            if p is None:
                continue
            s = p.seat
            i = rows[s]
            w[i] = 1.0
            if p.stack:
                x = p.stack * inv
                w[i + 2] = x if x < cap else cap
            if button == s:
                w[i + 7] = 1.0
            hp = by_seat.get(s)
            if hp is None:
                continue
            w[i + 1] = 1.0
            dealt += 1
            if hp.bet:
                if hp.bet > top:
                    top = hp.bet
                x = hp.bet * inv
                w[i + 3] = x if x < cap else cap
            if hp.contributed:
                pot += hp.contributed
                x = hp.contributed * inv
                w[i + 4] = x if x < cap else cap
            if hp.folded:
                w[i + 5] = 1.0
            if hp.all_in:
                w[i + 6] = 1.0
            if s == to_act:
                w[i + 8] = 1.0
            if s == seat:  # the viewer sees all its own cards
                start = self._hole
                for c in hp.hole:
                    w[start + place[c]] = 1.0
            elif up_cards >= 0 and True in hp.face_up:  # others' face-up cards
                start = up_cards + ((s - seat) % self.seats - 1) * self._d
                for c, up in zip(hp.hole, hp.face_up, strict=True):
                    if up:
                        w[start + place[c]] = 1.0
        if hand is not None:
            if hand.board and self._board >= 0:
                start = self._board
                for c in hand.board:
                    w[start + place[c]] = 1.0
            if dealt != len(hand.players):  # (a player of the hand no longer seated)
                pot, top = hand.pot_total() - hand.dead, max([hp.bet for hp in hand.players])
            x = (hand.dead + pot) * inv
            w[self._pot] = x if x < cap else cap
            me = by_seat.get(seat)
            if me is not None:
                if self._hole_up >= 0 and True in me.face_up:
                    start = self._hole_up
                    for c, up in zip(me.hole, me.face_up, strict=True):
                        if up:
                            w[start + place[c]] = 1.0
                most = me.bet + me.player.stack
                x = ((top if top < most else most) - me.bet) * inv
                w[self._to_call] = x if x < cap else cap
                w[self._position + hand.players.index(me)] = 1.0
            h = self._hist  # (it holds its hand and log: no other has their identity while it is kept)
            log = ctx._log  # (ctx.log, without the property's call)
            end = len(log)
            if h.hand is not hand or h.log is not log or h.read > end:
                h.start_hand(hand, log, _hand_start(ctx))
            if h.read < end:
                self._read(h, end)
            w[self._history:] = h.views[seat]
            for i in h.discards[seat]:
                w[i] = 1.0

    def _read(self, h: _History, end: int) -> None:
        """Read the events ``h`` has not read, ``h.log[h.read:end]``, into every seat's history (values clamped
        as they change)."""
        inv, step, cap = self._inv, self._step, self._cap
        acc, targets = h.acc, h.targets  # targets: each seat's (view, offset)s
        last = self._rounds - 1
        r, at, acted, pending = h.rounds  # at: where the round's columns start
        for e in h.log[h.read:end]:  # the rounds as _by_round counts them, inline: this runs every step
            kind = type(e)
            if kind is ActionTaken:
                if pending and acted and r < last:
                    r += 1
                    at += 5 * self.seats
                pending = False
                acted = True
                s = e.seat  # type: ignore[attr-defined]
                i = at + 5 * s  # the seat's own columns; each seat's view has them at its offset
                column = _COLUMNS.get(e.action)  # type: ignore[attr-defined]
                if column is not None:
                    if column < 2:  # bets and raises, calls: counted, to 1
                        x = acc[i + column] = acc[i + column] + step
                        if x > 1.0:
                            x = 1.0
                    else:  # a check, a fold: flags
                        x = 1.0
                    j = at + column
                    for mv, offset in targets[s]:
                        mv[j + offset] = x
                amount = e.amount  # type: ignore[attr-defined]
                if amount:
                    x = acc[i + 3] = acc[i + 3] + amount * inv
                    x = 0.0 if x < 0.0 else cap if x > cap else x
                    j = at + 3
                    for mv, offset in targets[s]:
                        mv[j + offset] = x
            elif kind is ForcedBetPosted or kind is BetReturned:
                s = e.seat  # type: ignore[attr-defined]
                i = at + 5 * s + 3
                amount = e.amount * inv  # type: ignore[attr-defined]
                x = acc[i] = acc[i] + (amount if kind is ForcedBetPosted else -amount)
                x = 0.0 if x < 0.0 else cap if x > cap else x
                j = at + 3
                for mv, offset in targets[s]:
                    mv[j + offset] = x
            elif kind is HoleCardsDealt or kind is BoardDealt:
                pending = True
            elif kind is CardsDiscarded:
                pending = True
                self._discarded_by(h, e)  # type: ignore[arg-type]
        h.rounds = r, at, acted, pending
        h.read = end

    def _discarded_by(self, h: _History, e: CardsDiscarded) -> None:
        """A draw: how many cards the seat threw, for every seat's history; which, for the seat's own."""
        n, s = self.seats, e.seat
        j = h.drawn[s]
        h.drawn[s] = j + 1
        if j < self._draw_rounds:
            x = len(e.cards) / self._dealt  # (the count every seat sees)
            at = self._draw_history - self._history + j * n
            for k, mv in enumerate(h.views):
                mv[at + (s - k) % n] = x
        start, place = self._discarded, self._place
        own = e.seen_by(s)  # (the seat's own discards: the cards, none hidden)
        assert isinstance(own, CardsDiscarded)
        h.discards[s].extend(start + place[c] for c in own.cards if c is not None)


class _History:
    """The betting history of one hand, as far as :class:`Planes` has read the log, for every seat at
    once: each seat's values of the history blocks (``history`` and ``draw_history``, the encoding's
    last ones, laid out from that seat: ``views[seat]``), the indices of each seat's own discarded
    cards, and where the reading of the rounds stands (``rounds``: the round, where its columns start, whether
    an action was read, whether cards were dealt since). Held for the hand (``hand``, ``log``: their
    identity) so the next observation, whichever seat's, reads only the new events; started again in
    place (:meth:`start_hand`) for another hand or game."""

    __slots__ = ("acc", "block", "discards", "drawn", "hand", "log", "read", "rounds", "targets", "views")

    def __init__(self, size: int, seats: int) -> None:
        self.block = np.zeros((seats, size), np.float32)  # a row a seat: zeroed at once for each hand
        self.views = [_writer(a) for a in self.block]
        # seat s's own columns sit in seat k's view 5 * ((s - k) % seats) after the round's start
        self.targets = [[(self.views[k], 5 * ((s - k) % seats)) for k in range(seats)] for s in range(seats)]
        self.acc = [0.0] * size  # (round, seat, column) -> the sum, at 5 * (round * seats + seat) + column
        self.discards: list[list[int]] = [[] for _ in range(seats)]
        self.drawn = [0] * seats
        self.hand: object = None
        self.log: list[Event] = []
        self.read = 0
        self.rounds: tuple[int, int, bool, bool] = (0, 0, False, False)

    def start_hand(self, hand: object, log: list[Event], start: int) -> None:
        """Forget what was read: the hand ``hand`` starts at ``log[start]``, nothing of it read yet."""
        self.hand, self.log, self.read = hand, log, start
        self.block.fill(0.0)
        self.acc = [0.0] * len(self.acc)
        for d in self.discards:
            d.clear()
        self.drawn = [0] * len(self.drawn)
        self.rounds = (0, 0, False, False)


#: The history's column of each action: bets and raises, calls, a check, (chips put in,) a fold.
_COLUMNS = {"bet": 0, "raise": 0, "complete": 0, "call": 1, "check": 2, "fold": 4}


def _layout(parts: Sequence[tuple[str, int, str]]) -> tuple[tuple[Block, ...], int]:
    """The blocks of ``parts`` (name, size, meaning) laid end to end, and the total size."""
    blocks: list[Block] = []
    start = 0
    for name, size, meaning in parts:
        blocks.append(Block(name, start, start + size, meaning))
        start += size
    return tuple(blocks), start


def _block(blocks: Sequence[Block], name: object) -> slice:
    for b in blocks:
        if isinstance(name, str) and b.name == name:
            return slice(b.start, b.stop)
    raise ConfigError(f"No block {excerpt(name)} in this encoding; its blocks are "
                      f"{', '.join(b.name for b in blocks)}.")


class InfoState(_WritesThrough):
    """A perfect-recall information-state tensor, laid out as OpenSpiel's
    ``information_state_tensor`` (its ``leduc_poker``: for Leduc hold'em heads-up the 30 values are
    OpenSpiel's, given the same history; ``tests/rl/test_observe_infostate.py`` checks it):

    * ``player``: the seat's place in the hand's order, one-hot (0 acts first after the button:
      OpenSpiel's player number in the ante games);
    * ``hole``: the seat's own cards, one plane of ``len(deck)`` values per deal that gives it cards
      (each hole-card deal, then each draw's replacements), so it is known which card came when;
    * ``board``: one plane per board deal (flop, turn, river);
    * ``up_cards`` (games with up cards): each seat's face-up cards (the observer's first), per
      hole-card deal;
    * ``discarded`` (draw games): the seat's discards, one plane per draw, and ``draws`` how many
      cards each seat threw in each draw (observer first) / the cards dealt;
    * ``actions``: for each betting round, ``slots`` action slots in the order played: call (a
      check, call or bring-in) ``1 0``, bet or raise ``0 1``, fold ``0 0`` (OpenSpiel's Leduc
      code); with more than two players a third value marks a fold (a fold and an empty slot differ);
      in games that are not fixed-limit a last value gives the chips the action put in / ``stack``;
    * ``stacks`` (games that are not fixed-limit): each seat's chips at the hand's start / ``stack``,
      observer first.

    A round has ``players + max_raises * (players - 1)`` slots: the most actions a round with that
    many bets and raises takes. ``max_raises`` defaults to the cap of a capped fixed-limit game (one
    more with a bring-in), else 8; actions past the slots are not encoded (raise ``max_raises`` for
    long no-limit wars). Chips are divided by ``stack`` (default: the largest stack seated when the
    encoder is built, else 100 big blinds) and capped at the table size. An encoding reads only what
    the seat may see (its own cards, face-up cards, every action, how many cards others drew).
    """

    name: str = "infostate"

    def __init__(self, game: Game, *, stack: int | None = None, max_raises: int | None = None) -> None:
        stages = _check_game(game).dispatcher.stages
        shape = game_shape(stages, game.ctx.deck_spec)
        self.shape: GameShape = shape
        n = self.seats = game.table.seat_count
        if stack is None:
            seated = [p.stack for p in game.table.players()]
            stack = max(seated) if seated and max(seated) > 0 else 100 * shape.big_blind
        self.stack = check_int(stack, "stack (the chips that encode as 1.0)", ConfigError, minimum=1)
        structures = [s.structure for s in stages if isinstance(s, BettingRound)]
        self.fixed = bool(structures) and all(isinstance(st, FixedLimit) for st in structures)
        if max_raises is None:
            capped = self.fixed and all(not st.heads_up_uncapped or n > 2 for st in structures
                                        if isinstance(st, FixedLimit))
            max_raises = max(st.cap for st in structures if isinstance(st, FixedLimit)) if capped else 8
            max_raises += any(isinstance(s, BringIn) for s in stages)
        self.max_raises = check_int(max_raises, "max_raises", ConfigError, minimum=1, maximum=1_000)
        self.slots = n + self.max_raises * (n - 1)
        self.width = 2 + (n > 2) + (not self.fixed)  # values an action slot
        deals = sum(1 for s in stages if isinstance(s, DealHole))
        draws = [s for s in stages if isinstance(s, Draw)]
        self._hole_deals = max(deals + sum(1 for s in draws if s.replace), 1)
        self._board_deals = sum(1 for s in stages if isinstance(s, DealBoard))
        self._up_deals = deals if any(shape.up_cards) else 0
        self._draws = len(draws)
        self._dealt = max(sum(len(s.face_up) for s in stages if isinstance(s, DealHole)), 1)
        self._rounds = max(shape.rounds, 1)
        self._place: list[int] = _card_table(shape.deck).tolist()
        d = self._d = len(shape.deck)
        parts: list[tuple[str, int, str]] = [
            ("player", n, "the seat's place in the hand's order, one-hot"),
            ("hole", self._hole_deals * d, "the seat's cards, one plane per deal that gives it cards"),
        ]
        if self._board_deals:
            parts.append(("board", self._board_deals * d, "the board, one plane per board deal"))
        if self._up_deals:
            parts.append(("up_cards", n * self._up_deals * d,
                          "for each seat, the observer first then clockwise, per deal: its face-up cards"))
        if self._draws:
            parts.append(("discarded", self._draws * d, "the seat's discards, one plane per draw"))
            parts.append(("draws", self._draws * n, "per draw, per seat (observer first): cards thrown / cards dealt"))
        parts.append(("actions", self._rounds * self.slots * self.width,
                      "per round, per action in order: call, bet or raise[, fold][, chips put in / stack]"))
        if not self.fixed:
            parts.append(("stacks", n, "each seat's chips at the hand's start / stack, observer first"))
        self.blocks, self.size = _layout(parts)
        high = np.ones(self.size, np.float32)
        cap = self._cap = float(n)
        at = {b.name: b for b in self.blocks}
        if not self.fixed:
            actions = at["actions"]
            high[actions.start + self.width - 1 : actions.stop : self.width] = cap
            high[at["stacks"].start : at["stacks"].stop] = cap
        self.space = Box(0.0, high, (self.size,), np.float32)
        self._at = {name: b.start for name, b in at.items()}

    def block(self, name: str) -> slice:
        """The index range of the block called ``name``."""
        return _block(self.blocks, name)

    def encode(self, game: Game, seat: int, out: Vector | None = None) -> Vector:
        """``seat``'s information state in ``game`` (into ``out`` when given)."""
        return self._fill(game, _check_seat(game, seat, self.seats), _buffer(out, self.size))

    def _write(self, game: Game, seat: int, w: Any) -> None:
        """:meth:`encode` on checked arguments, into ``w`` (a vector of zeros, as :func:`_writer` gives it)."""
        n = self.seats
        hand = game.ctx.hand
        if hand is None:
            return
        at, d, place, inv, cap = self._at, self._d, self._place, 1.0 / self.stack, self._cap
        me = hand.by_seat.get(seat)
        if me is not None:
            w[at["player"] + hand.players.index(me)] = 1.0
        if not self.fixed:
            for hp in hand.players:
                start = hp.player.stack + hp.contributed  # chips now plus in the pot: the hand's start
                w[at["stacks"] + (hp.seat - seat) % n] = min(start * inv, cap)
        hole_deal = board_deal = 0
        up_deal = [0] * n
        drawn = [0] * n
        refill = False
        slots, width, rounds, fold_bit = self.slots, self.width, self._rounds, n > 2
        r = used = 0
        acted = pending = False
        for e in _hand_events(game.ctx):
            kind = type(e)
            if kind is ActionTaken:
                assert isinstance(e, ActionTaken)
                if pending and acted and r < rounds - 1:
                    r += 1
                    used = 0
                pending = False
                acted = True
                if used < slots:
                    i = at["actions"] + (r * slots + used) * width
                    a = e.action
                    if a in ("bet", "raise", "complete"):
                        w[i + 1] = 1.0
                    elif a != "fold":
                        w[i] = 1.0
                    elif fold_bit:
                        w[i + 2] = 1.0
                    if not self.fixed and e.amount:
                        w[i + width - 1] = min(e.amount * inv, cap)
                used += 1
            elif kind is HoleCardsDealt:
                assert isinstance(e, HoleCardsDealt)
                pending = True
                if e.seat == seat:
                    if not refill:
                        hole_deal += 1
                    refill = False
                    start = at["hole"] + min(hole_deal - 1, self._hole_deals - 1) * d
                    for c in e.cards:
                        if c is not None:  # (the seat's own: none hidden)
                            w[start + place[c]] = 1.0
                if self._up_deals:
                    rel = (e.seat - seat) % n
                    k = min(up_deal[rel], self._up_deals - 1)
                    up_deal[rel] += 1
                    if True in e.face_up:
                        shown = e.seen_by(seat)
                        assert isinstance(shown, HoleCardsDealt)
                        start = at["up_cards"] + (rel * self._up_deals + k) * d
                        for c, up in zip(shown.cards, e.face_up, strict=True):
                            if up and c is not None:
                                w[start + place[c]] = 1.0
            elif kind is BoardDealt:
                assert isinstance(e, BoardDealt)
                pending = True
                if self._board_deals:
                    start = at["board"] + min(board_deal, self._board_deals - 1) * d
                    for c in e.cards:
                        w[start + place[c]] = 1.0
                board_deal += 1
            elif kind is CardsDiscarded:
                assert isinstance(e, CardsDiscarded)
                pending = True
                rel = (e.seat - seat) % n
                k = drawn[rel]
                drawn[rel] = k + 1
                if k < self._draws:
                    w[at["draws"] + k * n + rel] = len(e.cards) / self._dealt
                    if rel == 0:
                        start = at["discarded"] + k * d
                        for c in e.cards:
                            if c is not None:  # (the seat's own discards: none hidden)
                                w[start + place[c]] = 1.0
                if rel == 0:
                    hole_deal += 1  # the replacements (if the draw deals any) are this deal's
                    refill = True


#: RLCard's card order (``card2index.json``): suits spades, hearts, diamonds, clubs; ranks ace, 2 .. king.
_RLCARD_SUITS = "shdc"
_RLCARD_RANKS = "A23456789TJQK"


def _rlcard_index(card: int) -> int:
    rank, suit = RANKS[card // 4], SUITS[card % 4]
    return _RLCARD_SUITS.index(suit) * 13 + _RLCARD_RANKS.index(rank)


_RLCARD_CARDS = [_rlcard_index(c) for c in range(52)]


class RLCardEncoding(_WritesThrough):
    """RLCard's observation vectors (PettingZoo classic uses the same), chosen by the game:

    * no-limit hold'em (``texas_holdem_no_limit``): 54 values, the 52 cards of hole and board in
      RLCard's card order, then the seat's chips in the pot this hand and the most any player has
      in (raw chips, capped at ``max_chips``);
    * fixed-limit hold'em (``texas_holdem``): 72 values, the 52 cards, then for each of the 4
      rounds a one-hot of the bets and raises made in it, 0 to 4 (more are counted as 4);
    * Leduc hold'em (``leduc_holdem``): 36 values, the hole card's rank (J, Q, K), the board card's
      rank, then one-hots of the seat's chips in and the other player's, 0 to 14 (more: 14).

    A hold'em game is two face-down hole cards, a five-card board on a 52-card deck and four
    betting rounds, no-limit or fixed-limit; Leduc is one hole card and one board card from a deck of
    three ranks in two suits, two rounds (``kind`` names the one found). Any other game is refused
    with a :class:`ConfigError`. ``max_chips`` (no-limit only; default: the largest stack seated,
    else 100 big blinds, times the table size) bounds the two chip values.
    """

    name: str = "rlcard"
    SIZES: ClassVar[dict[str, int]] = {"no-limit hold'em": 54, "fixed-limit hold'em": 72, "leduc hold'em": 36}

    def __init__(self, game: Game, *, max_chips: int | None = None) -> None:
        stages = _check_game(game).dispatcher.stages
        shape = game_shape(stages, game.ctx.deck_spec)
        self.shape = shape
        self.seats = game.table.seat_count
        self.kind = kind = _rlcard_kind(shape, stages)
        self.size = size = self.SIZES[kind]
        high = np.ones(size, np.float32)
        if kind == "no-limit hold'em":
            if max_chips is None:
                seated = [p.stack for p in game.table.players()]
                stack = max(seated) if seated and max(seated) > 0 else 100 * shape.big_blind
                max_chips = stack * self.seats
            max_chips = check_int(max_chips, "max_chips", ConfigError, minimum=1)
            high[52:] = max_chips
        elif max_chips is not None:
            raise ConfigError(f"max_chips bounds the chips of the no-limit hold'em encoding; {kind}'s are "
                              "one-hot or absent.")
        self.max_chips = max_chips
        self.space = Box(0.0, high, (size,), np.float32)
        ranks = sorted({c // 4 for c in shape.deck})
        self._rank_of = [ranks.index(c // 4) if c // 4 in ranks else -1 for c in range(52)]

    def encode(self, game: Game, seat: int, out: Vector | None = None) -> Vector:
        """``seat``'s observation of ``game``, as RLCard's environment would give it."""
        return self._fill(game, _check_seat(game, seat, self.seats), _buffer(out, self.size))

    def _write(self, game: Game, seat: int, w: Any) -> None:
        """:meth:`encode` on checked arguments, into ``w`` (a vector of zeros, as :func:`_writer` gives it)."""
        ctx = game.ctx
        hand = ctx.hand
        if hand is None:
            if self.kind == "fixed-limit hold'em":
                for r in range(4):
                    w[52 + 5 * r] = 1.0
            return
        me = hand.by_seat.get(seat)
        hole = me.hole if me is not None else ()  # the seat's own cards
        board = hand.board
        kind = self.kind
        if kind == "leduc hold'em":
            if hole:
                w[self._rank_of[hole[0]]] = 1.0
            if board:
                w[3 + self._rank_of[board[0]]] = 1.0
            mine = me.contributed if me is not None else 0
            others = -mine
            for hp in hand.players:
                others += hp.contributed
            w[6 + (mine if mine < 14 else 14)] = 1.0
            w[21 + (others if others < 14 else 14)] = 1.0
            return
        index = _RLCARD_CARDS
        for c in hole:
            w[index[c]] = 1.0
        for c in board:
            w[index[c]] = 1.0
        if kind == "no-limit hold'em":
            cap = self.max_chips or 0
            w[52] = min(me.contributed if me is not None else 0, cap)
            w[53] = min(max([hp.contributed for hp in hand.players]), cap)
            return
        raises = [0, 0, 0, 0]
        for r, e in _by_round(_hand_events(ctx), 4):
            if isinstance(e, ActionTaken) and e.action in ("bet", "raise"):
                raises[r] += 1
        for r, count in enumerate(raises):
            w[52 + 5 * r + min(count, 4)] = 1.0


def _rlcard_kind(shape: GameShape, stages: Sequence[Stage[Any]]) -> str:
    """Which of RLCard's games ``stages`` play, or a :class:`ConfigError` naming the ones covered."""
    rounds = [s for s in stages if isinstance(s, BettingRound)]
    no_draw = not any(isinstance(s, Draw) for s in stages)
    ranks = {c // 4 for c in shape.deck}
    suits = {c % 4 for c in shape.deck}
    if (no_draw and len(shape.deck) == 52 and shape.up_cards == (False, False) and shape.board_cards == 5
            and len(rounds) == 4):
        if all(type(s.structure) is NoLimit for s in rounds):
            return "no-limit hold'em"
        if all(type(s.structure) is FixedLimit for s in rounds):
            return "fixed-limit hold'em"
    if (no_draw and len(ranks) == 3 and len(suits) == 2 and len(shape.deck) == 6 and shape.up_cards == (False,)
            and shape.board_cards == 1 and len(rounds) == 2):
        return "leduc hold'em"
    raise ConfigError(f"The rlcard encoding covers RLCard's games: no-limit hold'em (NT, 54 values), fixed-limit "
                      f"hold'em (FT, 72) and Leduc hold'em (36); {shape.name or 'this game'} is none of them. "
                      "Use the 'planes' encoding.")


#: The encodings :func:`encoder` builds, by name.
ENCODERS: dict[str, type[Planes] | type[RLCardEncoding] | type[InfoState]] = {
    "planes": Planes, "rlcard": RLCardEncoding, "infostate": InfoState}
_OPTIONS = {"planes": ("stack", "max_raises"), "rlcard": ("max_chips",), "infostate": ("stack", "max_raises")}


def encoder(name: str, game: Game, **options: Any) -> Encoder:
    """The encoding called ``name`` (``"planes"``, ``"rlcard"`` or ``"infostate"``) for games like ``game`` (its
    variant, deck and table size); ``options`` are the encoding's own (see :class:`Planes`,
    :class:`RLCardEncoding`). Unknown names and options raise :class:`ConfigError`."""
    cls = ENCODERS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ConfigError(f"Unknown observation encoding {excerpt(name)}; the encodings are {', '.join(ENCODERS)}.")
    _check_game(game)
    unknown = sorted(set(options) - set(_OPTIONS[name]))
    if unknown:
        raise ConfigError(f"The {name} encoding takes no option {excerpt(', '.join(unknown))}; its options are "
                          f"{', '.join(_OPTIONS[name])}.")
    built: Encoder = cls(game, **options)
    return built
