"""ACPC match states: ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` as frozen values.

``betting`` lists each round's actions, rounds separated by ``/``: ``f`` fold, ``c`` check or call,
``r`` a limit raise, ``r<N>`` a no-limit raise **to** ``N`` chips in the pot for the whole hand.
``cards`` are the hole cards by position separated by ``|`` (blank where the viewer cannot see
them), then the board: the first round's cards (if any) right after, each later round's after a
``/``. A line is decoded with the game's definition, which says how many cards each group holds,
and :func:`encode` writes it back byte for byte.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import attrs

from cardgame.acpc.gamedef import MAX_STACK, GameDef
from cardgame.model.cards import CARDS, RANKS, SUITS, Card
from cardgame.model.errors import ProtocolError
from cardgame.model.inputs import excerpt, read_int

__all__ = ["Action", "MatchState", "format_betting", "format_cards", "parse_betting", "parse_cards",
           "parse_matchstate", "read_action"]

_RANK = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_SUIT = {s: i for i, s in enumerate(SUITS)} | {s.upper(): i for i, s in enumerate(SUITS)}


@attrs.frozen
class Action:
    """One ACPC action: ``kind`` is ``"f"``, ``"c"`` or ``"r"``; ``size`` is a no-limit raise-to
    total for the hand (``None`` in limit games and for folds and calls)."""

    kind: str
    size: int | None = None

    def __attrs_post_init__(self) -> None:
        if self.kind not in ("f", "c", "r"):
            raise ProtocolError(f"An ACPC action is f, c or r, not {self.kind!r}.")
        if self.size is not None and (self.kind != "r" or not isinstance(self.size, int) or self.size < 0):
            raise ProtocolError(f"Only a no-limit raise has a size (a whole number of chips), not {self}.")

    def __str__(self) -> str:
        return self.kind if self.size is None else f"r{self.size}"


FOLD = Action("f")
CALL = Action("c")
RAISE = Action("r")


@attrs.frozen
class MatchState:
    """What one position sees of a hand: ``betting`` and ``board`` have one entry per round reached
    (``board[0]`` is usually empty), ``hole`` one per position (``()`` where the cards are hidden)."""

    position: int
    hand: int
    betting: tuple[tuple[Action, ...], ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]

    @property
    def round(self) -> int:
        """The round the hand is in (0 is the first)."""
        return len(self.betting) - 1

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action of the hand, in order."""
        return tuple(a for r in self.betting for a in r)

    @property
    def board_cards(self) -> tuple[Card, ...]:
        return tuple(c for r in self.board for c in r)

    def __str__(self) -> str:
        return (f"MATCHSTATE:{self.position}:{self.hand}:{format_betting(self.betting)}:"
                f"{format_cards(self.hole, self.board)}")


def encode(state: MatchState) -> str:
    """The state's line (without the line ending)."""
    return str(state)


def format_betting(betting: Sequence[Sequence[Action]]) -> str:
    """``rrrc/rrc/cc/crc``."""
    return "/".join("".join(map(str, r)) for r in betting)


def format_cards(hole: Sequence[Sequence[Card]], board: Sequence[Sequence[Card]]) -> str:
    """``3c4d|/6d7hAs/Ks``: hole cards by position, the first round's board, then ``/`` and each
    later round's."""
    text = "|".join("".join(map(str, h)) for h in hole)
    for i, cards in enumerate(board):
        text += ("/" if i else "") + "".join(map(str, cards))
    return text


def parse_betting(text: str, game: GameDef) -> tuple[tuple[Action, ...], ...]:
    """The rounds of a betting string (``r`` takes a size in no-limit games and none in limit: a
    raise-to total in ASCII digits, at most :data:`~cardgame.acpc.gamedef.MAX_STACK`)."""
    rounds: list[tuple[Action, ...]] = []
    for chunk in text.split("/"):
        actions: list[Action] = []
        i = 0
        while i < len(chunk):
            ch = chunk[i]
            if ch in "fc":
                actions.append(FOLD if ch == "f" else CALL)
                i += 1
            elif ch == "r":
                j = i + 1
                while j < len(chunk) and "0" <= chunk[j] <= "9":
                    j += 1
                digits = chunk[i + 1 : j]
                if game.is_limit and digits:
                    raise ProtocolError(f"Betting {excerpt(text)}: a limit raise takes no size, but "
                                        f"{excerpt(chunk[i:j])} has one.")
                if not game.is_limit and not digits:
                    raise ProtocolError(f"Betting {excerpt(text)}: a no-limit raise needs the total it raises to, "
                                        "as r300.")
                actions.append(Action("r", read_int(digits, "raise size", ProtocolError, maximum=MAX_STACK))
                               if digits else RAISE)
                i = j
            else:
                raise ProtocolError(f"Betting {excerpt(text)}: {ch!r} is no action; actions are f, c and r "
                                    "(no-limit: r<N>), rounds separated by /.")
        rounds.append(tuple(actions))
    if len(rounds) > game.num_rounds:
        raise ProtocolError(f"Betting {excerpt(text)} has {len(rounds)} rounds; the game has {game.num_rounds}.")
    return tuple(rounds)


_BY_TEXT = {r + s: CARDS[i * 4 + j] for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}


def _read_cards(text: str, count: int, what: str, line: str) -> tuple[Card, ...]:
    if len(text) != 2 * count:
        raise ProtocolError(f"{excerpt(line)}: {what} must be {count} card{'s' if count != 1 else ''}, "
                            f"not {excerpt(text)}.")
    cards = []
    for k in range(0, len(text), 2):
        card = _BY_TEXT.get(text[k : k + 2])
        if card is None:
            rank, suit = _RANK.get(text[k]), _SUIT.get(text[k + 1])
            if rank is None or suit is None:
                raise ProtocolError(f"{excerpt(line)}: {text[k:k + 2]!r} in {what} is no card; a card is a rank "
                                    f"of {RANKS} and a suit of {SUITS}.")
            card = CARDS[rank * 4 + suit]
        cards.append(card)
    return tuple(cards)


@functools.cache
def _deck_set(game: GameDef) -> frozenset[Card]:
    return frozenset(game.deck.cards)


def parse_cards(text: str, game: GameDef, rounds: int, line: str = "") -> tuple[tuple[tuple[Card, ...], ...],
                                                                                 tuple[tuple[Card, ...], ...]]:
    """Hole cards by position (``()`` when blank) and board cards by round, for a hand in round
    ``rounds - 1``; checks every group's size and that no card appears twice or is not in the deck."""
    line = line or text
    parts = text.split("/")
    if len(parts) != rounds:
        raise ProtocolError(f"{excerpt(line)}: the cards show {len(parts) - 1} round separators (/), the betting "
                            f"{rounds - 1}.")
    groups = parts[0].split("|")
    if len(groups) != game.num_players:
        raise ProtocolError(f"{excerpt(line)}: the cards have {len(groups)} hole-card groups; the game has "
                            f"{game.num_players} positions (groups separated by |).")
    first_board = 2 * game.num_board_cards[0]
    last = groups[-1]
    if first_board:
        if len(last) < first_board:
            raise ProtocolError(f"{excerpt(line)}: the first round's {game.num_board_cards[0]} board cards are "
                                "missing.")
        groups[-1], round0 = last[: len(last) - first_board], last[len(last) - first_board :]
    else:
        round0 = ""
    hole = tuple(() if not g else _read_cards(g, game.num_hole_cards, f"position {p}'s hole cards", line)
                 for p, g in enumerate(groups))
    board = [_read_cards(round0, game.num_board_cards[0], "the first round's board", line)]
    for r, chunk in enumerate(parts[1:], start=1):
        board.append(_read_cards(chunk, game.num_board_cards[r], f"round {r}'s board", line))
    seen = [c for h in hole for c in h]
    for b in board:
        seen.extend(b)
    if len(set(seen)) != len(seen):
        twice = sorted({str(c) for c in seen if seen.count(c) > 1})
        raise ProtocolError(f"{excerpt(line)}: {' '.join(twice)} appear{'s' if len(twice) == 1 else ''} twice.")
    deck = _deck_set(game)
    outside = [str(c) for c in seen if c not in deck]
    if outside:
        raise ProtocolError(f"{excerpt(line)}: {' '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in the "
                            f"game's deck ({game.deck.ranks} of {game.deck.suits}).")
    return hole, tuple(board)


def parse_matchstate(line: str, game: GameDef) -> MatchState:
    """Decode ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (a trailing line ending is ignored);
    :class:`~cardgame.model.errors.ProtocolError` says what is malformed."""
    if not isinstance(line, str):
        raise ProtocolError(f"A match state is a line of text, not {type(line).__name__}.")
    text = line.rstrip("\r\n")
    fields = text.split(":")
    if len(fields) != 5 or fields[0] != "MATCHSTATE":
        raise ProtocolError(f"{excerpt(text)} is not a match state; expected "
                            "MATCHSTATE:<position>:<hand>:<betting>:<cards>.")
    try:
        position = read_int(fields[1], "position", ProtocolError)
        hand = read_int(fields[2], "hand number", ProtocolError)
    except ProtocolError as exc:
        raise ProtocolError(f"{excerpt(text)}: {exc}") from None
    if position >= game.num_players:
        raise ProtocolError(f"{excerpt(text)}: position {position} is not one of 0 to {game.num_players - 1}.")
    try:
        betting = parse_betting(fields[3], game)
    except ProtocolError as exc:
        raise ProtocolError(f"{excerpt(text)}: {exc}") from None
    hole, board = parse_cards(fields[4], game, len(betting), text)
    return MatchState(position, hand, betting, hole, board)


_KINDS = {"f": "f", "F": "f", "c": "c", "C": "c", "k": "c", "K": "c", "r": "r", "R": "r"}
# What C's ``sscanf("%d")`` reads: C white space, a sign, ASCII digits (never other scripts' digits).
_SIZE = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)")
_LONG_MAX = 2**63 - 1  # where the reference's strtol stops reading a size (past it: an unreadable size)


def read_action(text: str, game: GameDef) -> Action | None:
    """The action a player's answer starts with, read as leniently as the reference dealer reads
    it (``f``/``F`` fold, ``c``/``C``/``k``/``K`` call, ``r``/``R`` raise with its size in no-limit;
    whatever follows is ignored), or ``None`` if it starts with none (a size in other than ASCII
    digits is none). Sizes are not checked here: a negative one reads as 0, one above the largest
    stack as :data:`~cardgame.acpc.gamedef.MAX_STACK`, and one past what the reference can read
    (more than a 64-bit number) as a raise of no size, which the dealer plays as the minimum raise
    (:meth:`~cardgame.acpc.hand.AcpcHand.fix`), as the reference does."""
    kind = _KINDS.get(text[:1])
    if kind is None:
        return None
    if kind == "r" and not game.is_limit:
        m = _SIZE.match(text, 1)
        if m is None:
            return None
        sign, digits = m.groups()
        digits = digits.lstrip("0") or "0"
        if len(digits) > 19 or (size := int(digits)) > _LONG_MAX:
            return RAISE
        return Action("r", 0 if sign == "-" else min(size, MAX_STACK))
    return CALL if kind == "c" else FOLD if kind == "f" else RAISE
