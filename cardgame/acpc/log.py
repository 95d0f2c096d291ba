"""The reference dealer's match log: a ``STATE`` line per hand and the final ``SCORE`` line.

``STATE:<hand>:<betting>:<all hole cards>/<board>:<payoffs>:<names>`` gives each position's
payoff and name in position order; ``SCORE:<totals>:<names>`` each player's total in seat order.
Payoffs print as the reference prints them (``%.6f`` without trailing zeros: ``-80``, ``12.5``;
a folded player who put nothing in lost ``-0``). Lines starting ``#`` are comments.
:func:`replay` plays a logged hand again on the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.matchstate import Action, format_betting, format_cards, parse_betting, parse_cards
from cardgame.cards import Card
from cardgame.errors import ConfigError, IllegalActionError, ProtocolError

__all__ = ["DealerLog", "HandRecord", "Score", "format_value", "parse_log", "parse_score", "parse_state", "replay"]


def format_value(value: float) -> str:
    """A payoff as the reference dealer prints it: ``-80``, ``12.5``, ``33.333333``, ``-0``."""
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


def _values(text: str, count: int, line: str) -> tuple[float, ...]:
    parts = text.split("|")
    if len(parts) != count:
        raise ProtocolError(f"{line!r}: {len(parts)} payoffs for {count} players.")
    try:
        return tuple(float(p) for p in parts)
    except ValueError:
        raise ProtocolError(f"{line!r}: the payoffs {text!r} must be numbers separated by |.") from None


def _names(text: str, count: int, line: str) -> tuple[str, ...]:
    names = tuple(text.split("|"))
    if len(names) != count or not all(names):
        raise ProtocolError(f"{line!r}: expected {count} player names separated by |, not {text!r}.")
    return names


def check_names(names: Sequence[str]) -> tuple[str, ...]:
    """Player names fit for a log line: non-empty, without ``|``, ``:`` or line breaks."""
    for name in names:
        if not isinstance(name, str) or not name or any(ch in name for ch in "|:\r\n"):
            raise ConfigError(f"A player name must be non-empty text without |, : or line breaks, not {name!r}.")
    return tuple(names)


@attrs.frozen
class HandRecord:
    """One ``STATE`` line: the hand's betting, every position's hole cards, the board by round,
    each position's payoff and the name of the player in each position."""

    hand: int
    betting: tuple[tuple[Action, ...], ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]
    values: tuple[float, ...]
    names: tuple[str, ...]

    def __str__(self) -> str:
        return (f"STATE:{self.hand}:{format_betting(self.betting)}:{format_cards(self.hole, self.board)}:"
                f"{'|'.join(map(format_value, self.values))}:{'|'.join(self.names)}")


@attrs.frozen
class Score:
    """The ``SCORE`` line: each player's total payoff, in seat order."""

    values: tuple[float, ...]
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"SCORE:{'|'.join(map(format_value, self.values))}:{'|'.join(self.names)}"


@attrs.frozen
class DealerLog:
    """A parsed log: the hands in order, the ``SCORE`` line if the match finished, the comments."""

    hands: tuple[HandRecord, ...]
    score: Score | None
    comments: tuple[str, ...] = ()


def parse_state(line: str, game: GameDef) -> HandRecord:
    """Decode a ``STATE`` line of ``game``; :class:`~cardgame.errors.ProtocolError` says what is malformed."""
    text = line.rstrip("\r\n")
    fields = text.split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise ProtocolError(f"{text!r} is not a log state; expected STATE:<hand>:<betting>:<cards>:<payoffs>:<names>.")
    if not fields[1].isdigit():
        raise ProtocolError(f"{text!r}: the hand number must be a whole number, not {fields[1]!r}.")
    try:
        betting = parse_betting(fields[2], game)
    except ProtocolError as exc:
        raise ProtocolError(f"{text!r}: {exc}") from None
    hole, board = parse_cards(fields[3], game, len(betting), text)
    if any(not h for h in hole):
        raise ProtocolError(f"{text!r}: a log line shows every position's hole cards.")
    n = game.num_players
    return HandRecord(int(fields[1]), betting, hole, board, _values(fields[4], n, text), _names(fields[5], n, text))


def parse_score(line: str, game: GameDef) -> Score:
    """Decode ``SCORE:<totals>:<names>``."""
    text = line.rstrip("\r\n")
    fields = text.split(":")
    if len(fields) != 3 or fields[0] != "SCORE":
        raise ProtocolError(f"{text!r} is not a score line; expected SCORE:<totals>:<names>.")
    n = game.num_players
    return Score(_values(fields[1], n, text), _names(fields[2], n, text))


def parse_log(text: str, game: GameDef) -> DealerLog:
    """Read a whole log: ``STATE`` lines, at most one ``SCORE`` line (the last), ``#`` comments."""
    hands: list[HandRecord] = []
    comments: list[str] = []
    score: Score | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.startswith("#"):
            comments.append(line)
        elif score is not None:
            raise ProtocolError(f"Line {number} follows the SCORE line, which ends a log: {line!r}.")
        elif line.startswith("SCORE:"):
            score = parse_score(line, game)
        else:
            hands.append(parse_state(line, game))
    return DealerLog(tuple(hands), score, tuple(comments))


def replay(record: HandRecord, game: GameDef) -> AcpcHand:
    """Play the logged hand again on the engine with its cards and actions; the returned hand's
    ``values()`` are the payoffs the engine gives. :class:`~cardgame.errors.ProtocolError` if an
    action is not legal there."""
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
