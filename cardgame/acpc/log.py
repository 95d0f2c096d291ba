"""The reference dealer's match log: a ``STATE`` line per hand and the final ``SCORE`` line.

``STATE:<hand>:<betting>:<all hole cards>/<board>:<payoffs>:<names>`` gives each position's
payoff and name in position order; ``SCORE:<totals>:<names>`` each player's total in seat order.
Payoffs print as the reference prints them (``%.6f`` without trailing zeros: ``-80``, ``12.5``,
``0``) and are held exactly (:class:`~fractions.Fraction`, to those 6 decimals), so a log's values
compare as numbers. Lines starting ``#`` are comments. :func:`read_log` reads a log file as a
stream, line by line, with bounds on a line and on the file; :func:`replay` plays a logged hand
again on the engine.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import BinaryIO

import attrs

from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.matchstate import Action, check_game, format_betting, format_cards, parse_betting, parse_cards
from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError, IllegalActionError, ProtocolError
from cardgame.model.inputs import MAX_DIGITS, MAX_NUMBER, check_path, excerpt, is_ascii_int, label, os_error, read_int

__all__ = ["MAX_LINE_BYTES", "MAX_LOG_BYTES", "DealerLog", "HandRecord", "Score", "format_value", "log_entries",
           "parse_log", "parse_score", "parse_state", "payoff", "read_lines", "read_log", "replay"]

#: The longest log line read, in bytes (the reference's lines are a few hundred).
MAX_LINE_BYTES = 1 << 16
#: The most bytes of a log file read (a million-hand log is about 100 MB).
MAX_LOG_BYTES = 1 << 30
_DECIMALS = 10**6  # the reference prints payoffs with %.6f
_PAYOFF = re.compile(r"(-?[0-9]+)(?:\.([0-9]{1,6}))?")


def _check_payoff(value: object) -> None:
    """Refuse (:class:`ProtocolError`) what is no payoff: a payoff is a whole number, a float or a
    :class:`~fractions.Fraction`, finite, of at most 18 digits before the point."""
    if (isinstance(value, bool) or not isinstance(value, int | float | Fraction)
            or (isinstance(value, float) and not math.isfinite(value)) or abs(value) > MAX_NUMBER):
        raise ProtocolError(f"A payoff is a finite number (int, float or Fraction) of at most {MAX_DIGITS} digits, "
                            f"not {excerpt(value)}.")


def payoff(value: float | Fraction) -> Fraction:
    """``value`` exactly as the reference dealer's log holds it: rounded to the 6 decimals it prints
    (half to even, as ``printf`` rounds)."""
    _check_payoff(value)
    if isinstance(value, float):
        if value.is_integer():
            return Fraction(int(value))
        numerator, denominator = value.as_integer_ratio()
    elif value.denominator == 1:
        return value if type(value) is Fraction else Fraction(value)
    else:
        numerator, denominator = value.numerator, value.denominator
    scaled, rest = divmod(numerator * _DECIMALS, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and scaled % 2):
        scaled += 1
    return Fraction(scaled, _DECIMALS)


def _payoffs(values: Iterable[float | Fraction]) -> tuple[Fraction, ...]:
    return tuple(payoff(v) for v in values)


def format_value(value: float | Fraction) -> str:
    """A payoff as the reference dealer prints it (``%.6f`` without trailing zeros): ``-80``, ``12.5``,
    ``33.333333``, and ``0`` for nothing won or lost (the reference never writes ``-0``)."""
    _check_payoff(value)
    if isinstance(value, float):  # Python rounds a float to 6 decimals as printf does
        text = f"{value:.6f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    exact = payoff(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    scaled = exact.numerator * _DECIMALS // exact.denominator
    whole, part = divmod(abs(scaled), _DECIMALS)
    return f"{'-' if scaled < 0 else ''}{whole}.{part:06d}".rstrip("0")


def _values(text: str, count: int, line: str) -> tuple[Fraction, ...]:
    parts = text.split("|")
    if len(parts) != count:
        raise ProtocolError(f"{excerpt(line)}: {len(parts)} payoffs for {count} players.")
    out = []
    for part in parts:
        m = _PAYOFF.fullmatch(part)
        if m is None or not is_ascii_int(m.group(1), signed=True):
            raise ProtocolError(f"{excerpt(line)}: the payoff {excerpt(part)} is no number as the reference writes "
                                "one (-80, 12.5, 33.333333: ASCII digits, at most 18 before the point and 6 after); "
                                "payoffs are separated by |.")
        out.append(Fraction(part))
    return tuple(out)


def _names(text: str, count: int, line: str) -> tuple[str, ...]:
    names = tuple(text.split("|"))
    if len(names) != count or not all(names):
        raise ProtocolError(f"{excerpt(line)}: expected {count} player names separated by |, not {excerpt(text)}.")
    return names


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Player names fit for a log line: non-empty, without ``|``, ``:`` or line breaks."""
    for name in names:
        if not isinstance(name, str) or not name or any(ch in name for ch in "|:\r\n"):
            raise ConfigError(f"A player name must be non-empty text without |, : or line breaks, not {excerpt(name)}.")
    return tuple(names)


@attrs.frozen
class HandRecord:
    """One ``STATE`` line: the hand's betting, every position's hole cards, the board by round,
    each position's payoff (exact, as the log holds it: :func:`payoff`) and the name of the player
    in each position."""

    hand: int
    betting: tuple[tuple[Action, ...], ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]
    values: tuple[Fraction, ...] = attrs.field(converter=_payoffs)
    names: tuple[str, ...]

    def __str__(self) -> str:
        return (f"STATE:{self.hand}:{format_betting(self.betting)}:{format_cards(self.hole, self.board)}:"
                f"{'|'.join(map(format_value, self.values))}:{'|'.join(self.names)}")


@attrs.frozen
class Score:
    """The ``SCORE`` line: each player's total payoff (exact, as the log holds it), in seat order."""

    values: tuple[Fraction, ...] = attrs.field(converter=_payoffs)
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"SCORE:{'|'.join(map(format_value, self.values))}:{'|'.join(self.names)}"


@attrs.frozen
class DealerLog:
    """A parsed log: the hands in order, the ``SCORE`` line if the match finished, the comments."""

    hands: tuple[HandRecord, ...]
    score: Score | None
    comments: tuple[str, ...] = ()


def _line(line: object, game: object) -> str:
    """``line`` without its line ending, once it is text and ``game`` a :class:`GameDef`."""
    check_game(game)
    if not isinstance(line, str):
        raise ProtocolError(f"An ACPC log is text, not {excerpt(line)}.")
    return line.rstrip("\r\n")


def parse_state(line: str, game: GameDef) -> HandRecord:
    """Decode a ``STATE`` line of ``game``; :class:`~cardgame.model.errors.ProtocolError` says what is malformed."""
    text = _line(line, game)
    fields = text.split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise ProtocolError(f"{excerpt(text)} is not a log state; expected "
                            "STATE:<hand>:<betting>:<cards>:<payoffs>:<names>.")
    try:
        number = read_int(fields[1], "hand number", ProtocolError)
        betting = parse_betting(fields[2], game)
    except ProtocolError as exc:
        raise ProtocolError(f"{excerpt(text)}: {exc}") from None
    hole, board = parse_cards(fields[3], game, len(betting), text)
    if any(not h for h in hole):
        raise ProtocolError(f"{excerpt(text)}: a log line shows every position's hole cards.")
    n = game.num_players
    return HandRecord(number, betting, hole, board, _values(fields[4], n, text), _names(fields[5], n, text))


def parse_score(line: str, game: GameDef) -> Score:
    """Decode ``SCORE:<totals>:<names>``."""
    text = _line(line, game)
    fields = text.split(":")
    if len(fields) != 3 or fields[0] != "SCORE":
        raise ProtocolError(f"{excerpt(text)} is not a score line; expected SCORE:<totals>:<names>.")
    n = game.num_players
    return Score(_values(fields[1], n, text), _names(fields[2], n, text))


def log_entries(lines: Iterable[tuple[int, str]], game: GameDef, source: str = "the log"
                ) -> Iterator[HandRecord | Score | str]:
    """Each numbered line of a log decoded in order: a ``STATE`` line as a :class:`HandRecord`, the
    ``SCORE`` line (which must be the last) as a :class:`Score`, a ``#`` comment as its text; blank
    lines are skipped. :class:`~cardgame.model.errors.ProtocolError` names the line that is malformed."""
    check_game(game)
    source = label(source)
    if isinstance(lines, str | bytes) or not isinstance(lines, Iterable):
        raise ProtocolError(f"A log's lines are (number, text) pairs, not {excerpt(lines)}.")
    score = False
    for entry in lines:
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], str)):
            raise ProtocolError(f"A log's lines are (number, text) pairs, not {excerpt(entry)}.")
        number, line = entry
        if not line.strip():
            continue
        if line.startswith("#"):
            yield line
            continue
        if score:
            raise ProtocolError(f"{source}, line {number} follows the SCORE line, which ends a log: {excerpt(line)}.")
        try:
            if line.startswith("SCORE:"):
                score = True
                yield parse_score(line, game)
            else:
                yield parse_state(line, game)
        except ProtocolError as exc:
            raise ProtocolError(f"{source}, line {number}: {exc}") from None


def parse_log(text: str, game: GameDef) -> DealerLog:
    """Read a whole log: ``STATE`` lines, at most one ``SCORE`` line (the last), ``#`` comments."""
    hands: list[HandRecord] = []
    comments: list[str] = []
    score: Score | None = None
    text = _line(text, game)
    for entry in log_entries(enumerate((line.rstrip("\r") for line in text.split("\n")), start=1), game):
        if isinstance(entry, HandRecord):
            hands.append(entry)
        elif isinstance(entry, Score):
            score = entry
        else:
            comments.append(entry)
    return DealerLog(tuple(hands), score, tuple(comments))


def read_lines(stream: BinaryIO, source: str = "the log") -> Iterator[tuple[int, str]]:
    """Each line of ``stream`` (bytes) with its number, without its line ending, read one at a time:
    UTF-8 text of at most :data:`MAX_LINE_BYTES` a line and :data:`MAX_LOG_BYTES` in all, else
    :class:`~cardgame.model.errors.ProtocolError` naming the line."""
    source = label(source)
    readline = getattr(stream, "readline", None)
    if not callable(readline):
        raise ProtocolError(f"A log is read from a binary stream (an open file), not {excerpt(stream)}.")
    total = 0
    for number in itertools.count(1):
        raw = readline(MAX_LINE_BYTES + 1)
        if not isinstance(raw, bytes):
            raise ProtocolError(f"A log is read from a binary stream (opened with 'rb'), which gave {excerpt(raw)}.")
        if not raw:
            return
        total += len(raw)
        if total > MAX_LOG_BYTES:
            raise ProtocolError(f"{source} goes on past {MAX_LOG_BYTES:,} bytes (line {number}); a log is read up to "
                                "that size.")
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise ProtocolError(f"{source}, line {number} is longer than {MAX_LINE_BYTES:,} bytes; a log line is a "
                                "hand's STATE line or the SCORE line.")
        try:
            line = raw.decode()
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"{source}, line {number} is not UTF-8 text (byte {exc.start + 1}: "
                                f"{excerpt(raw[exc.start : exc.start + 4])}).") from None
        yield number, line.rstrip("\r\n")


def read_log(path: str | Path, game: GameDef) -> Iterator[HandRecord | Score | str]:
    """The entries of the log file at ``path`` (see :func:`log_entries`), read as a stream
    (:func:`read_lines`); the file is closed when the iteration ends."""
    p = check_path(path, "path of an ACPC log", ProtocolError)
    check_game(game)
    try:
        stream = p.open("rb")
    except OSError as exc:
        raise ProtocolError(f"Cannot read an ACPC log: {os_error(exc)}.") from None
    with stream:
        yield from log_entries(read_lines(stream, excerpt(str(path))), game, excerpt(str(path)))


def replay(record: HandRecord, game: GameDef) -> AcpcHand:
    """Play the logged hand again on the engine with its cards and actions; the returned hand's
    ``values()`` are the payoffs the engine gives. :class:`~cardgame.model.errors.ProtocolError` if an
    action is not legal there."""
    if not isinstance(record, HandRecord):
        raise ProtocolError(f"A logged hand is a HandRecord (parse_state, read_log), not {excerpt(record)}.")
    hand = AcpcHand(game, record.hand, record.hole, [c for r in record.board for c in r])
    for action in (a for r in record.betting for a in r):
        try:
            hand.apply(action)
        except IllegalActionError as exc:
            raise ProtocolError(f"Hand {record.hand}: {action} after {format_betting(hand.betting)!r} is not legal "
                                f"({exc}).") from None
    if not hand.finished or hand.betting != record.betting:
        raise ProtocolError(f"Hand {record.hand}: the betting {format_betting(record.betting)!r} does not end the hand "
                            f"as logged (the engine is at {format_betting(hand.betting)!r}).")
    return hand
