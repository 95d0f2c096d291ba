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
from cardgame.model.errors import ConfigError, ProtocolError
from cardgame.model.inputs import check_int, excerpt, read_int

__all__ = ["Action", "EchoKey", "MatchState", "check_game", "deck_set", "format_betting", "format_cards",
           "parse_betting", "parse_cards", "parse_matchstate", "read_action", "read_echo", "scan_int"]


def check_game(game: object) -> GameDef:
    """``game`` if it is a :class:`~cardgame.acpc.gamedef.GameDef`, else a short :class:`ConfigError`."""
    if not isinstance(game, GameDef):
        raise ConfigError(f"An ACPC game is a GameDef (parse_gamedef, load_gamedef), not {excerpt(game)}.")
    return game


_RANK = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_SUIT = {s: i for i, s in enumerate(SUITS)} | {s.upper(): i for i, s in enumerate(SUITS)}


@attrs.frozen
class Action:
    """One ACPC action: ``kind`` is ``"f"``, ``"c"`` or ``"r"``; ``size`` is a no-limit raise-to
    total for the hand (``None`` in limit games and for folds and calls)."""

    kind: str
    size: int | None = None

    def __attrs_post_init__(self) -> None:
        if type(self.kind) is not str or self.kind not in ("f", "c", "r"):
            raise ProtocolError(f"An ACPC action is f, c or r, not {excerpt(self.kind)}.")
        if self.size is not None:
            if self.kind != "r":
                raise ProtocolError(f"Only a no-limit raise has a size, not {self.kind}.")
            object.__setattr__(self, "size", check_int(self.size, "raise size", ProtocolError, minimum=0,
                                                       maximum=MAX_STACK))

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

    def __attrs_post_init__(self) -> None:
        position, hand = self.position, self.hand
        if type(position) is not int or type(hand) is not int or not 0 <= position <= 255 or not 0 <= hand < 2**32:
            check_int(position, "position", ProtocolError, minimum=0, maximum=255)
            check_int(hand, "hand number", ProtocolError, minimum=0, maximum=2**32 - 1)
        for what, groups, kind in (("betting", self.betting, Action), ("hole cards", self.hole, Card),
                                   ("board", self.board, Card)):
            if type(groups) is not tuple or not all([type(g) is tuple for g in groups]) or not all(
                    [type(x) is kind for g in groups for x in g]):
                raise ProtocolError(f"A match state's {what} is a tuple of tuples of {kind.__name__}, not "
                                    f"{excerpt(groups)}.")

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
def deck_set(game: GameDef) -> frozenset[Card]:
    """The cards of ``game``'s deck, as a set (kept for each game)."""
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
    deck = deck_set(game)
    outside = [str(c) for c in seen if c not in deck]
    if outside:
        raise ProtocolError(f"{excerpt(line)}: {' '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in the "
                            f"game's deck ({game.deck.ranks} of {game.deck.suits}).")
    return hole, tuple(board)


def parse_matchstate(line: str, game: GameDef) -> MatchState:
    """Decode ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (a trailing line ending is ignored);
    :class:`~cardgame.model.errors.ProtocolError` says what is malformed."""
    check_game(game)
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


_KINDS = {"f": "f", "F": "f", "c": "c", "C": "c", "k": "c", "K": "c", "r": "r", "R": "r", "b": "r", "B": "r"}
# What C's ``sscanf`` reads as a number: C white space, a sign, ASCII digits (never other scripts' digits).
_NUMBER = re.compile(r"[ \t\n\v\f\r]*([+-]?)([0-9]+)")
_LONG = 2**63  # C's long (64 bits here): strtol and strtoul saturate outside it


def scan_int(text: str, at: int, bits: int, signed: bool) -> tuple[int, int] | None:
    """The number C's ``sscanf`` reads at ``text[at:]`` into an integer of ``bits`` bits (``%d``,
    ``%u``, ``%hhu``) and where it stops, or ``None`` if there is no number: glibc reads the digits
    with ``strtol``/``strtoul``, which saturate at a 64-bit long's limits, then keeps the low
    ``bits`` bits (``r4294967596`` is 300 in an ``int32_t``; ``-1`` is 255 in a ``uint8_t``)."""
    m = _NUMBER.match(text, at)
    if m is None:
        return None
    sign, digits = m.groups()
    digits = digits.lstrip("0") or "0"
    big = len(digits) > 20  # past any 64-bit number: saturated below, without reading it
    value = 0 if big else int(digits)
    if signed:
        value = (_LONG - 1 if big or value >= _LONG else value) if sign != "-" else (
            -_LONG if big or value > _LONG else -value)
    elif big or value >= 2 * _LONG:
        value = 2 * _LONG - 1
    elif sign == "-":
        value = -value
    value &= (1 << bits) - 1
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value, m.end()


def read_action(text: str, game: GameDef) -> Action | None:
    """The action a player's answer starts with, read as the reference dealer reads it
    (``readAction`` in ``game.c``): ``f``/``F`` fold, ``c``/``C``/``k``/``K`` call, ``r``/``R``/``b``/``B``
    raise with its size in no-limit (read by ``sscanf("%d")``: see :func:`scan_int`); whatever
    follows is ignored. ``None`` if it starts with none (a size in other than ASCII digits is none).
    Sizes are not checked here: one below 0 reads as 0 and the dealer moves it into range
    (:meth:`~cardgame.acpc.hand.AcpcHand.fix`), as the reference does."""
    kind = _KINDS.get(text[:1])
    if kind is None:
        return None
    if kind == "r" and not game.is_limit:
        scanned = scan_int(text, 1, 32, True)
        if scanned is None:
            return None
        return Action("r", min(max(scanned[0], 0), MAX_STACK))
    return CALL if kind == "c" else FOLD if kind == "f" else RAISE


_ACTION_OF = {ch: "fcr".index(kind) for ch, kind in _KINDS.items()}

#: What the reference compares of an answer's echoed state with the state it sent
#: (``matchStatesEqual``): position, hand number, every action (kind and size), the board shown
#: and the position's own hole cards (cards as numbers, ``rank * 4 + suit``).
EchoKey = tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]


def _scan_cards(text: str, at: int, most: int) -> list[int]:
    """Up to ``most`` cards read at ``at`` as ``readCards`` reads them (rank and suit in either case)."""
    cards: list[int] = []
    while len(cards) < most:
        rank, suit = _RANK.get(text[at : at + 1]), _SUIT.get(text[at + 1 : at + 2])
        if rank is None or suit is None:
            break
        cards.append(rank * 4 + suit)
        at += 2
    return cards


def read_echo(line: str, game: GameDef, rounds: int) -> tuple[EchoKey, int] | None:
    """What the reference dealer reads of the state an answer starts with (``readMatchState`` in
    ``game.c``) and where it stops, or ``None`` where it reads none, compared with a state sent in
    its ``rounds``-th round (the board is read for that many rounds: the reference reads it for the
    round its actions reach, which is the same where the actions are the sent state's, the only
    case in which the keys can be equal). As the reference: numbers are
    read by ``sscanf`` (C white space, a sign and leading zeros allowed, cut to the field's bits:
    :func:`scan_int`), ``/`` in the betting is skipped (the rounds follow from the actions), an
    action is read by :func:`read_action`'s rules, cards in either case, ``|`` and ``/`` between
    groups optional. The actions are not checked against the rules here: the key equals the key of
    the state sent only if they are that state's, which are legal."""
    if not line.startswith("MATCHSTATE:"):
        return None
    scanned = scan_int(line, 11, 8, False)
    if scanned is None or scanned[0] >= game.num_players:
        return None
    viewer, at = scanned
    if line[at : at + 1] != ":" or (scanned := scan_int(line, at + 1, 32, False)) is None:
        return None
    hand, at = scanned
    if line[at : at + 1] != ":":
        return None
    at += 1
    actions: list[tuple[int, int]] = []
    limit = game.is_limit
    end = len(line)
    while at < end:
        ch = line[at]
        if ch == ":":
            at += 1
            break
        if ch == "/":
            at += 1
            continue
        kind = _ACTION_OF.get(ch)
        if kind is None:
            return None
        at += 1
        size = 0
        if kind == 2 and not limit:
            if (scanned := scan_int(line, at, 32, True)) is None:
                return None
            size, at = scanned
        actions.append((kind, size))
    holes: list[list[int]] = []
    for p in range(game.num_players):
        if p and line[at : at + 1] == "|":
            at += 1
        cards = _scan_cards(line, at, game.num_hole_cards)
        if cards and len(cards) != game.num_hole_cards:
            return None
        holes.append(cards)
        at += 2 * len(cards)
    board: list[int] = []
    for r in range(min(rounds, game.num_rounds)):
        if r and line[at : at + 1] == "/":
            at += 1
        cards = _scan_cards(line, at, game.num_board_cards[r])
        if len(cards) != game.num_board_cards[r]:
            return None
        board.extend(cards)
        at += 2 * len(cards)
    return (viewer, hand, tuple(actions), tuple(board), tuple(holes[viewer])), at
