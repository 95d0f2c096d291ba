"""The ACPC dealer: hosts a match between remote bots on the engine (asyncio, one port per seat).

:class:`Dealer` listens on one port per seat (127.0.0.1 unless told otherwise; port 0 lets the
system choose), takes the first connection on each port that opens with ``VERSION:2.x.x``, then
plays ``hands`` hands of the game on :class:`~cardgame.acpc.hand.AcpcHand`, as the reference
dealer does:

* positions rotate one seat every hand (seat ``s`` is position ``(s - hand) mod n``), and the
  cards are the reference dealer's for the same seed (:class:`~cardgame.acpc.deal.ReferenceDeals`);
* every player is sent the match state after every action, and the final state of the hand;
* the player to act answers with the state it was sent, ``:`` and an action, read as the
  reference reads them (:func:`~cardgame.acpc.matchstate.read_echo`,
  :func:`~cardgame.acpc.matchstate.read_action`): comment lines (``#``, ``;``) and lines whose
  state is not the one sent are skipped; a state followed by anything but ``:`` and an action, or
  an action that is not legal, becomes a call (no-limit sizes are moved into range, see
  :meth:`AcpcHand.fix`);
* each answer must come within ``timeout_ms``: otherwise the player checks, or folds, and the
  match goes on. As the reference, every line but a comment read while an answer is due adds the
  time since the state was sent to the seat's time in the hand and in the match; past ``hand_ms``
  in a hand or ``per_hand_ms`` times the hands in the match (the reference's ``--t_hand`` and
  ``--t_per_hand``, where it ends the match) the seat is dropped: a player flooding the dealer
  with lines is stopped soon, since its time grows with every line. A player who disconnects,
  runs out of time, or reads nothing while a megabyte waits for it, checks or folds from then on;
  chips stay conserved because every hand is played out on the engine; the dealer counts its
  warnings and keeps the last :data:`WARNINGS_KEPT`;
* each hand is logged as a ``STATE`` line and the match ends with the ``SCORE`` line
  (:mod:`cardgame.acpc.log`); then every connection is closed.
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from collections.abc import Callable, Sequence
from typing import TextIO

import attrs

from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import HandRecord, Score, check_names
from cardgame.acpc.matchstate import CALL, Action, EchoKey, read_action, read_echo
from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt

__all__ = ["DEFAULT_HAND_MS", "DEFAULT_PER_HAND_MS", "DEFAULT_TIMEOUT_MS", "WARNINGS_KEPT", "Dealer", "MatchResult"]

#: The reference dealer's default time for one answer (10 minutes).
DEFAULT_TIMEOUT_MS = 600_000
#: The reference dealer's default time a player may use in one hand (``--t_hand``: 10 minutes).
DEFAULT_HAND_MS = 600_000
#: The reference dealer's default average time a player may use a hand over the match (``--t_per_hand``: 7 s).
DEFAULT_PER_HAND_MS = 7_000
#: The warnings a dealer keeps (the last ones; :attr:`Dealer.warning_count` counts them all).
WARNINGS_KEPT = 100
#: Bytes queued for a player that reads nothing before the dealer gives up on it.
WRITE_LIMIT = 1 << 20
#: The longest line a player may send (as asyncio's streams); a longer one is skipped with a warning.
LINE_LIMIT = 1 << 16
_QUEUED_LINES = 64  # lines a player sent that the dealer has not read before it stops reading more
_VERSION = re.compile(r"VERSION:2\.[0-9]+\.[0-9]+")  # ASCII digits only

Deals = Callable[[], tuple[Sequence[Sequence[Card]], Sequence[Card]]]


@attrs.frozen
class MatchResult:
    """Each player's (seat order) total payoff as the reference counts it (``values``) and the
    chips won on the engine (``chips``, integers summing to zero), after ``hands`` hands."""

    names: tuple[str, ...]
    values: tuple[float, ...]
    chips: tuple[int, ...]
    hands: int

    @property
    def score(self) -> Score:
        return Score(self.values, self.names)


_TIMED_OUT = False


class _NoAnswer:
    """No line answers the state yet."""


_NO_ANSWER = _NoAnswer()


def _expire(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(_TIMED_OUT)


class _Connection(asyncio.Protocol):
    """A player's connection: what arrives is split into lines, kept until the dealer reads them
    (a protocol, not a stream: a line costs the dealer no task switch when it has already come)."""

    def __init__(self, dealer: Dealer, seat: _Seat) -> None:
        self.dealer = dealer
        self.seat = seat
        self.transport: asyncio.Transport | None = None
        self.lines: deque[bytes | None] = deque()  # complete lines; None for one longer than LINE_LIMIT
        self.ended = False  # the player closed the connection, or it was lost
        self.lost = False  # ... by an error
        self._partial = b""
        self._skipping = False  # inside an overlong line: dropped up to its end
        self._paused = False  # reading paused: too many lines unread
        self._waiter: asyncio.Future[bool] | None = None  # True: something came; _TIMED_OUT: the deadline
        self._closed: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._closed = asyncio.get_running_loop().create_future()
        self.dealer._connected(self)

    def data_received(self, data: bytes) -> None:
        if self._partial:
            data = self._partial + data
        lines = self.lines
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            if self._skipping:
                self._skipping = False
            else:
                lines.append(data[start : end + 1] if end - start < LINE_LIMIT else None)
            start = end + 1
        rest = data[start:]
        if self._skipping or len(rest) >= LINE_LIMIT:
            if not self._skipping:
                lines.append(None)
                self._skipping = True
            rest = b""
        self._partial = rest
        if len(lines) > _QUEUED_LINES and self.transport is not None:  # unread: stop reading, as a stream would
            self.transport.pause_reading()
            self._paused = True
        self._wake()

    def eof_received(self) -> bool:
        self.ended = True
        self._wake()
        return True  # keep the transport: the dealer drops the seat (and aborts) when it reads the end

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.lost = exc is not None
        self._wake()
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)

    def _wake(self) -> None:
        """Something came: to the dealer if it waits for this seat's answer, else to :meth:`readline`."""
        if self.dealer._waiting is self.seat:
            self.dealer._on_answer()
            return
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)

    def pop(self) -> bytes | None:
        """The first line waiting (see :attr:`lines`), reading again once few are left."""
        if self._paused and len(self.lines) <= _QUEUED_LINES // 2 and self.transport is not None:
            self.transport.resume_reading()
            self._paused = False
        return self.lines.popleft()

    async def readline(self, deadline: float | None) -> bytes | None:
        """The next line with its ending (``None``: an overlong line, skipped), or ``b""`` once the
        connection ended; :class:`TimeoutError` at ``deadline`` (the loop's time)."""
        while not self.lines:
            if self.ended:
                return b""
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = None if deadline is None else loop.call_at(deadline, _expire, waiter)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
            if waiter.result() is _TIMED_OUT:
                raise TimeoutError
        return self.pop()

    async def wait_closed(self) -> None:
        if self._closed is not None:
            await self._closed


class _Seat:
    """One seat: its listening server and, once a player has connected, the player's connection."""

    __slots__ = ("conn", "gone", "index", "name", "pending", "port", "server", "used_hand", "used_match")

    def __init__(self, index: int, name: str, port: int) -> None:
        self.index = index
        self.name = name
        self.port = port
        self.server: asyncio.Server | None = None
        self.conn: _Connection | None = None
        self.gone = False
        self.pending = b""  # lines to go out with the next one written
        self.used_hand = 0.0  # seconds of answering time used in the hand and in the match (as the reference counts)
        self.used_match = 0.0


def _positive(value: object, what: str) -> int:
    return check_int(value, what, ConfigError, minimum=1)


class Dealer:
    """A match of ``hands`` hands of ``game`` for remote ACPC players (see the module).

    ``ports`` gives each seat's port (default: chosen by the system); ``names`` the players'
    names in the log (default ``P1``, ``P2``...); ``log`` a text stream for the match log;
    ``timeout_ms``, ``hand_ms`` and ``per_hand_ms`` bound a player's time for one answer, in one
    hand and on average a hand over the match (``None``: no bound); ``warn`` receives each warning
    (a time-out, an invalid action...), which are also counted in ``warning_count`` and the last
    :data:`WARNINGS_KEPT` kept in ``warnings``; ``seated`` is told each seat (1 is the first) as its
    player connects; ``deals`` replaces the seeded cards (each call gives the next hand's hole
    cards by position and board cards in order).
    """

    def __init__(
        self, game: GameDef, *, hands: int, seed: int = 0, ports: Sequence[int] | None = None,
        host: str = "127.0.0.1", timeout_ms: int | None = DEFAULT_TIMEOUT_MS, names: Sequence[str] | None = None,
        log: TextIO | None = None, warn: Callable[[str], None] | None = None, deals: Deals | None = None,
        match_name: str = "match", game_name: str = "game", seated: Callable[[int], None] | None = None,
        hand_ms: int | None = DEFAULT_HAND_MS, per_hand_ms: int | None = DEFAULT_PER_HAND_MS,
    ) -> None:
        n = game.num_players
        self.game = game
        self.hands = _positive(hands, "number of hands")
        self.seed = check_int(seed, "seed", ConfigError, minimum=0, maximum=2**32 - 1)
        for limit, what in ((timeout_ms, "time limit (ms)"), (hand_ms, "time a hand (ms)"),
                            (per_hand_ms, "average time a hand (ms)")):
            if limit is not None:
                _positive(limit, what)
        self.timeout_ms = timeout_ms
        self.hand_ms = hand_ms
        self.per_hand_ms = per_hand_ms
        self._hand_limit = float("inf") if hand_ms is None else hand_ms / 1000
        self._match_limit = float("inf") if per_hand_ms is None else per_hand_ms / 1000 * self.hands
        if ports is not None and (not isinstance(ports, Sequence) or isinstance(ports, str | bytes)):
            raise ConfigError(f"Give {n} ports, one per seat, as a list, not a {type(ports).__name__}.")
        ports = tuple(ports) if ports is not None else (0,) * n
        if len(ports) != n:
            raise ConfigError(f"Give {n} ports, one per seat, not {len(ports)}.")
        ports = tuple(check_int(p, "port", ConfigError, minimum=0, maximum=65535) for p in ports)
        names = check_names(names if names is not None else [f"P{i + 1}" for i in range(n)])
        if len(names) != n or len(set(names)) != n:
            raise ConfigError(f"Give {n} different player names, one per seat, not {excerpt(', '.join(names))}.")
        self.host = host
        self.names = names
        self._seats = [_Seat(i, names[i], ports[i]) for i in range(n)]
        self._log = log
        self._warn = warn
        self._on_seated = seated
        self._deals: Deals = deals if deals is not None else ReferenceDeals(game, seed)
        self.match_name = match_name
        self.game_name = game_name
        self.warnings: deque[str] = deque(maxlen=WARNINGS_KEPT)
        self.warning_count = 0
        self._hand: AcpcHand | None = None  # every hand of the match is played on this one
        self._waiting: _Seat | None = None  # the seat whose answer is due, and the line it was sent
        self._sent = ""
        self._sent_at = 0.0  # the loop's time when the state was sent to the player to act
        self._echo: tuple[str, EchoKey | None] = ("", None)  # a state sent and its key (read_echo)
        self._timer: asyncio.TimerHandle | None = None  # set for the deadline of an answer (_on_timer)
        self._deadline = 0.0  # the loop's time the answer waited for is due
        self._match: asyncio.Future[None] | None = None  # play()'s: done when the match is
        self._number = 0  # the hand in progress
        self._values: list[float] = []
        self._chips: list[int] = []
        self._seat_of: tuple[int, ...] = ()
        self._by_position: list[_Seat] = []
        self._seated = asyncio.Event()
        self._pending: set[_Connection] = set()  # connections that have not yet said their version
        self._greetings: set[asyncio.Future[None]] = set()

    # --- connections -----------------------------------------------------------------------------
    @property
    def ports(self) -> tuple[int, ...]:
        """Each seat's port (known once listening)."""
        return tuple(s.port for s in self._seats)

    async def listen(self) -> tuple[int, ...]:
        """Open each seat's port; returns the ports (the system's choice where 0 was given). The
        game's hand evaluator ranks a hand first, so that it has built its tables before any player
        connects (the first showdown of the match does not wait for them)."""
        game = self.game
        cards = game.deck.cards
        hole = game.num_hole_cards
        game.evaluator.rank(cards[:hole], cards[hole : hole + sum(game.num_board_cards)])
        loop = asyncio.get_running_loop()
        for seat in self._seats:
            seat.server = await loop.create_server(lambda seat=seat: _Connection(self, seat),  # type: ignore[misc]
                                                   self.host, seat.port)
            seat.port = seat.server.sockets[0].getsockname()[1]
        self._write_log(f"# name/game/hands/seed {self.match_name} {self.game_name} {self.hands} {self.seed}")
        if self.timeout_ms is not None:
            self._write_log(f"#--t_response {self.timeout_ms}")
        return self.ports

    def _connected(self, conn: _Connection) -> None:
        """A connection to a seat's port: it takes the seat if the seat is free and it opens with a version."""
        assert conn.transport is not None
        if conn.seat.conn is not None:
            conn.transport.close()
            return
        self._pending.add(conn)
        task = asyncio.ensure_future(self._greet(conn))
        self._greetings.add(task)
        task.add_done_callback(self._greetings.discard)

    async def _greet(self, conn: _Connection) -> None:
        seat = conn.seat
        assert conn.transport is not None
        try:
            deadline = None if self.timeout_ms is None else asyncio.get_running_loop().time() + self.timeout_ms / 1000
            raw = await conn.readline(deadline) or b""
        except TimeoutError:
            raw = b""
        finally:
            self._pending.discard(conn)
        version = raw.decode("utf-8", "replace").strip()
        if seat.conn is not None or not _VERSION.fullmatch(version):
            if seat.conn is None:
                self._warning(f"seat {seat.index + 1}: a connection did not open with VERSION:2.0.0 "
                              f"({version[:60]!r}); closed")
            conn.transport.close()
            return
        seat.conn = conn
        if self._on_seated is not None:
            self._on_seated(seat.index + 1)
        if all(s.conn is not None for s in self._seats):
            self._seated.set()

    def _warning(self, text: str) -> None:
        self.warning_count += 1
        self.warnings.append(text)
        if self._warn is not None:
            self._warn(text)

    def _write_log(self, line: str) -> None:
        if self._log is not None:
            self._log.write(line + "\n")
            self._log.flush()

    def _drop(self, seat: _Seat, why: str) -> None:
        if not seat.gone:
            seat.gone = True
            self._warning(f"seat {seat.index + 1} ({seat.name}) {why}; it checks or folds from now on")
            if seat.conn is not None and seat.conn.transport is not None:
                seat.conn.transport.abort()

    def _flush(self) -> None:
        """Write the lines kept back to go out with the next line (the last hand's final states)."""
        for seat in self._seats:
            if seat.pending:
                pending, seat.pending = seat.pending, b""
                transport = seat.conn.transport if seat.conn is not None else None
                if not seat.gone and transport is not None and not transport.is_closing():
                    transport.write(pending)

    def _send(self, seat: _Seat, text: str) -> None:
        conn = seat.conn
        if seat.gone or conn is None or conn.transport is None:
            return
        transport = conn.transport
        if transport.is_closing():
            self._drop(seat, "is disconnected")
            return
        data = text.encode() + b"\r\n"
        if seat.pending:
            data, seat.pending = seat.pending + data, b""
        transport.write(data)
        if transport.get_write_buffer_size() > WRITE_LIMIT:
            self._drop(seat, "reads nothing")

    def _take_answer(self, seat: _Seat, sent: str) -> Action | _NoAnswer | None:
        """The action ``seat`` answers to the state ``sent`` from the lines it has sent so far
        (``None``: it is gone), or ``_NO_ANSWER`` while none answers it yet; every line but a
        comment costs the seat the time since ``sent`` went out (the reference's ``checkErrorTimes``)."""
        conn = seat.conn
        if seat.gone or conn is None:
            return None
        lines = conn.lines
        elapsed = asyncio.get_running_loop().time() - self._sent_at if lines else 0.0  # they came together
        while lines:
            raw = conn.pop()
            if raw is None:  # a line longer than LINE_LIMIT
                line = ""
            else:
                line = raw.decode("utf-8", "replace").partition("\0")[0].rstrip("\r\n")  # C stops at a NUL
                if line[:1] in ("#", ";"):
                    continue
            seat.used_hand += elapsed
            seat.used_match += elapsed
            if seat.used_hand > self._hand_limit or seat.used_match > self._match_limit:
                spent = "in the hand" if seat.used_hand > self._hand_limit else "in the match"
                self._drop(seat, f"used more time than allowed {spent}")
                return None
            if raw is None:
                self._warning(f"seat {seat.index + 1} ({seat.name}) sent an overlong line; ignored")
                continue
            end = self._echo_end(line, sent)
            if end is None:
                self._warning(f"seat {seat.index + 1} ({seat.name}) sent a line that answers no current state; "
                              f"ignored: {excerpt(line, 80)}")
                continue
            colon = line[end : end + 1] == ":"
            text = line[end + 1 :] if colon else line[end:]
            action = read_action(text, self.game) if colon else None
            if action is None:
                self._warning(f"seat {seat.index + 1} ({seat.name}) answered {excerpt(text, 40)}, which is "
                              "no action; changed to a call")
                return CALL
            return action
        if conn.ended:
            self._drop(seat, "lost its connection" if conn.lost else "disconnected")
            return None
        return _NO_ANSWER

    def _echo_end(self, line: str, sent: str) -> int | None:
        """Where the state ``sent`` ends in ``line`` if ``line`` starts with it as the reference
        reads states (:func:`~cardgame.acpc.matchstate.read_echo`), else ``None``."""
        at = len(sent)
        if line.startswith(sent) and line[at : at + 1] == ":":  # as sent: the reference reads it so
            return at
        rounds = sent.split(":")[3].count("/") + 1
        if self._echo[0] != sent:
            echo = read_echo(sent, self.game, rounds)
            self._echo = (sent, None if echo is None else echo[0])
        read = read_echo(line, self.game, rounds)
        return None if read is None or read[0] != self._echo[1] else read[1]

    # --- the match ------------------------------------------------------------------------------
    async def play(self, start_timeout: float | None = None) -> MatchResult:
        """Wait (at most ``start_timeout`` seconds) for every seat's player, then play the match."""
        if any(s.server is None for s in self._seats):
            await self.listen()
        try:
            async with asyncio.timeout(start_timeout):
                await self._seated.wait()
        except TimeoutError:
            missing = [s.index + 1 for s in self._seats if s.conn is None]
            await self.close()
            raise ConfigError(f"No player connected to seat{'s' if len(missing) > 1 else ''} "
                              f"{', '.join(map(str, missing))} within {start_timeout} s.") from None
        self._stop_listening()
        n = self.game.num_players
        self._values, self._chips = [0.0] * n, [0] * n
        self._number = 0
        self._match = match = asyncio.get_running_loop().create_future()
        try:
            self._begin_hand()
            self._advance()
            await match
        finally:
            self._stop_waiting()
            await self.close()
        result = MatchResult(self.names, tuple(self._values), tuple(self._chips), self.hands)
        self._write_log(str(result.score))
        return result

    async def run(self, start_timeout: float | None = None) -> MatchResult:
        """Listen, then play the match."""
        await self.listen()
        return await self.play(start_timeout)

    # The match runs in callbacks, not in a task: an answer is played, and the next states sent, from
    # the connection's data_received (no task switch and no extra turn of the event loop an action).
    def _begin_hand(self) -> None:
        number, game = self._number, self.game
        n = game.num_players
        hole, board = self._deals()
        hand = self._hand
        if hand is None:
            self._hand = AcpcHand(game, number, hole, board)
        else:
            hand.next_hand(number, hole, board)  # the same engine game: its stages are built once a match
        self._seat_of = tuple((p + number) % n for p in range(n))
        for seat in self._seats:
            seat.used_hand = 0.0
        self._by_position = [self._seats[s] for s in self._seat_of]

    def _end_hand(self, hand: AcpcHand) -> None:
        n = self.game.num_players
        values, chips = hand.values(), hand.chips()
        for position, index in enumerate(self._seat_of):
            self._values[index] += values[position]
            self._chips[index] += chips[position]
        if self._log is not None:
            all_hole, boards = hand.cards()
            self._write_log(str(HandRecord(self._number, hand.betting, all_hole, boards, values,
                                           tuple(self.names[self._seat_of[p]] for p in range(n)))))
        for position, seat in enumerate(self._by_position):
            # sent with the next hand's first line (one write, not two): nothing is awaited between them
            seat.pending += hand.line(position).encode() + b"\r\n"

    def _advance(self) -> None:
        """Play on until an answer is due that has not come (then wait for it), or the match is over."""
        while True:
            hand = self._hand
            assert hand is not None
            if hand.finished:
                self._end_hand(hand)
                self._number += 1
                if self._number >= self.hands:
                    if self._match is not None and not self._match.done():
                        self._match.set_result(None)
                    return
                self._begin_hand()
                continue
            to_act = hand.to_act
            assert to_act is not None
            seat = self._by_position[to_act]
            sent = hand.line(to_act)
            self._send(seat, sent)  # the player to act first, then the others
            loop = asyncio.get_running_loop()
            self._sent_at = loop.time()
            for position, other in enumerate(self._by_position):
                if position != to_act:
                    self._send(other, hand.line(position))
            answer = self._take_answer(seat, sent)
            if isinstance(answer, _NoAnswer):
                self._waiting, self._sent = seat, sent
                if self.timeout_ms is not None:
                    self._deadline = self._sent_at + self.timeout_ms / 1000
                    if self._timer is None:
                        self._timer = loop.call_at(self._deadline, self._on_timer)
                return
            self._play(seat, answer)

    def _play(self, seat: _Seat, answer: Action | None) -> None:
        hand = self._hand
        assert hand is not None
        action = hand.fix(answer)
        if answer is not None and action != answer:
            self._warning(f"seat {seat.index + 1} ({seat.name}) answered {answer}, which is not allowed "
                          f"({', '.join(hand.allowed())}); changed to {action}")
        hand.apply(action)

    def _on_answer(self) -> None:
        """The seat waited for sent something, or its connection ended."""
        self._resume(late=False)

    def _on_timer(self) -> None:
        """The answer waited for is late if its deadline has passed; else the timer is set again for
        it (one timer serves the answers one after another, not one timer an answer)."""
        self._timer = None
        if self._waiting is None:
            return
        loop = asyncio.get_running_loop()
        if loop.time() < self._deadline:
            self._timer = loop.call_at(self._deadline, self._on_timer)
        else:
            self._resume(late=True)

    def _resume(self, *, late: bool) -> None:
        """Play the answer of the seat waited for (``late``: it checks or folds; no answer yet: wait
        on) and play on; an error stops the match (:meth:`play` raises it)."""
        seat = self._waiting
        if seat is None:
            return
        try:
            answer: Action | None = None
            if late:
                self._warning(f"seat {seat.index + 1} ({seat.name}) did not answer within {self.timeout_ms} ms; "
                              "it checks or folds")
            else:
                taken = self._take_answer(seat, self._sent)
                if isinstance(taken, _NoAnswer):
                    return
                answer = taken
            self._waiting = None  # the timer is kept for the next answer
            self._play(seat, answer)
            self._advance()
        except BaseException as exc:  # stops the match: play() raises it
            self._stop(exc)

    def _stop_waiting(self) -> None:
        self._waiting = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _stop(self, exc: BaseException) -> None:
        self._stop_waiting()
        if self._match is not None and not self._match.done():
            self._match.set_exception(exc)

    def _stop_listening(self) -> None:
        for seat in self._seats:
            if seat.server is not None:
                seat.server.close()
        for conn in list(self._pending):
            if conn.transport is not None:
                conn.transport.close()

    async def close(self) -> None:
        """Stop listening and close every connection (players see the end of the stream)."""
        self._flush()
        self._stop_listening()
        conns = [s.conn for s in self._seats if s.conn is not None]
        for conn in conns:
            if conn.transport is not None and not conn.transport.is_closing():
                conn.transport.close()
        for conn in conns:
            try:
                async with asyncio.timeout(1.0):
                    await conn.wait_closed()
            except TimeoutError:
                if conn.transport is not None:
                    conn.transport.abort()
        for seat in self._seats:
            if seat.server is not None:
                await seat.server.wait_closed()
