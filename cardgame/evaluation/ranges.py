"""Hand ranges as poker tools write them: ``"AKs, QQ+, A5s-A2s, KQo, AhKh, 0.4(JJ)"``.

:func:`parse_range` reads a range string into a :class:`Range`, an immutable set of weighted
combinations (hole-card tuples, highest card first), and ``str(range)`` writes it back in a short
canonical form that reads back to the same range.

Two-card games (``"holdem"``, ``"short-deck"``) take the PokerStove/eval7 tokens: a pair ``QQ``,
a suited ``AKs`` or offsuit ``AKo`` class, both ``AK``; runs ``QQ+`` (queens and up), ``88-JJ``,
``A5s-A2s`` and ``ATs+`` (the kicker rises to one below the top card, so ``T9s+`` is ``T9s`` alone
and ``KTs+`` is ``KTs, KJs, KQs``); explicit hands ``AhKh``. Every game takes patterns: one item
per card, a card ``Ah``, a rank ``A`` (any suit) or a wildcard ``*`` (also ``?`` or ``x``), so
``AA**`` is any Omaha hand with at least two aces, ``Ah*`` any hold'em hand holding the ace of
hearts; a pattern shorter than the hand is filled with wildcards; a suffix ``ds`` (double-suited:
two suits with two cards each), ``ss`` (single-suited: one suit with two cards, no other repeat)
or ``r`` (rainbow: no suit twice) restricts the suits (``AAKKds``). ``random`` (or ``??``, ``*``)
is every hand. Stud and razz hands have no fixed size: the first token's cards fix it (``**Qc``:
two unknown down cards and the queen of clubs up).

A weight in 0..1 applies to one token as ``JJ:0.4`` (or ``JJ:40%``) or to a group as
``0.4(JJ, AKs)``; a hand named twice keeps the weight of its last mention, so ``QQ+, 0.5(AA)``
plays aces half the time. Tokens are separated by commas or spaces. A malformed token, a token no
hand matches, a weight out of range and an over-long string raise :class:`RangeError` naming the
token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache, lru_cache
from math import comb
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from cardgame.model.cards import CARDS, RANKS, SUITS, Card, parse_cards
from cardgame.model.errors import CardError
from cardgame.model.inputs import excerpt

__all__ = ["GAMES", "MAX_RANGE_TEXT", "Range", "RangeError", "hand_class", "parse_range"]

MAX_RANGE_TEXT = 20_000
"""Characters a range string may have (every hold'em hand listed one by one takes about 8,000)."""

GAMES: Mapping[str, int | None] = MappingProxyType({
    "holdem": 2, "short-deck": 2, "omaha": 4, "omaha5": 5, "2-7": 5, "a-5": 5, "badugi": 4, "stud": None, "razz": None,
})
"""Games a range is written for, and the cards of a hand (``None``: stud and razz, where the first
token's length fixes it, from 1 to 7 cards)."""

_PATTERN_BUDGET = 400_000_000  # pattern tokens times hands scanned: bounds the work of one parse
_MAX_SIZE = 7
Int8Array = npt.NDArray[np.int8]
Float64Array = npt.NDArray[np.float64]
Combo = tuple[Card, ...]


class RangeError(CardError):
    """A malformed range string, a token that no hand matches, or a weight outside 0 to 1."""


_ALLOWED = ("tokens such as QQ, QQ+, 88-JJ, AKs, ATs+, A5s-A2s, KQo, AK, AhKh, patterns AA**, Ah*, AAKKds, "
            "random; a weight JJ:0.4 or 0.4(JJ, AKs)")
_WEIGHT = r"(?:\d{1,6}(?:\.\d{0,12})?|\.\d{1,12})%?"
_WEIGHT_RE = re.compile(_WEIGHT)
_CLASS_RE = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)", re.IGNORECASE)
_RUN_RE = re.compile(r"([2-9TJQKA]{2}[so]?)(?:(\+)|-([2-9TJQKA]{2}[so]?))", re.IGNORECASE)
_CARDS_RE = re.compile(r"(?:[2-9TJQKA][cdhs])+", re.IGNORECASE)
_PATTERN_RE = re.compile(r"(?:[2-9TJQKA][cdhs]?|[*?xX])+", re.IGNORECASE)
_ITEM_RE = re.compile(r"[*?xX]|[2-9TJQKA][cdhs]?", re.IGNORECASE)
_SPLIT_RE = re.compile(r"\s*([(),]|[^\s(),]+)\s*")
_RANK = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_RANDOM = {"random", "any", "??", "*", "?", "x"}


def _deck(game: str) -> tuple[int, ...]:
    """The cards of the game's deck: 36 (sixes and up) in short deck, else 52."""
    return tuple(range(16, 52)) if game == "short-deck" else tuple(range(52))


@cache
def combination_rows(n: int, k: int) -> Int8Array:
    """All k-subsets of range(n) as rows of an int8 array, in lexicographic order (cached, read-only).

    Built block by block: the subsets starting with ``a`` are ``a`` followed by the (k-1)-subsets
    of the ``n - a - 1`` larger numbers, shifted up by ``a + 1``.
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    blocks = []
    for a in range(n - k + 1):
        tail = combination_rows(n - a - 1, k - 1)
        block = np.empty((len(tail), k), dtype=np.int8)
        block[:, 0] = a
        np.add(tail, a + 1, out=block[:, 1:], casting="unsafe")
        blocks.append(block)
    out = np.concatenate(blocks) if blocks else np.zeros((0, k), dtype=np.int8)
    out.setflags(write=False)
    return out


@cache
def _all_hands(game: str, size: int) -> Int8Array:
    """Every ``size``-card hand of the game's deck, each row highest card first, rows in order."""
    deck = np.array(_deck(game)[::-1], dtype=np.int8)
    out = deck[combination_rows(len(deck), size)]
    out.setflags(write=False)
    return out


@cache
def _hand_counts(game: str, size: int) -> tuple[Int8Array, Int8Array]:
    """Per hand of :func:`_all_hands`: how many cards of each rank (13 columns) and each suit (4)."""
    return _counts(_all_hands(game, size))


@cache
def _index_of(game: str, size: int) -> dict[tuple[int, ...], int]:
    """Row of each hand (a tuple highest card first) in :func:`_all_hands` (used for two cards)."""
    return {tuple(row): i for i, row in enumerate(_all_hands(game, size).tolist())}


def hand_class(hand: str | Iterable[str | int]) -> str:
    """The class of a two-card hand: ``"AKs"``, ``"AKo"`` or a pair ``"QQ"`` (``hand_class("AhKh")``)."""
    cards = parse_cards(hand)
    if len(cards) != 2:
        raise RangeError(f"A hand class is of two cards, not {len(cards)} ({excerpt(hand)}).")
    high, low = sorted(cards, reverse=True)
    if high.rank == low.rank:
        return high.rank_char * 2
    return high.rank_char + low.rank_char + ("s" if high.suit == low.suit else "o")


class Range:
    """An immutable weighted set of hands for one game: ``Range("AKs, QQ+")`` or :func:`parse_range`.

    ``combos`` maps each hand (a tuple of :class:`~cardgame.model.cards.Card`, highest first) to its
    weight in (0, 1]; ``len`` counts the hands, ``hand in r`` takes a tuple of cards or a string
    (``"KhAh" in r``), :meth:`weight` is 0 for a hand outside; ``str`` is a short canonical form that
    :func:`parse_range` reads back to an equal range. ``frequency`` is the share of all hands of the
    game the range holds (weights counted). Ranges of the same game compare equal when they hold the
    same hands with the same weights.
    """

    __slots__ = ("_combos", "_hands", "_shown", "_text", "_weights", "game", "size")
    game: str
    size: int
    _hands: Int8Array
    _weights: Float64Array
    _text: str | None
    _combos: Mapping[Combo, float] | None
    _shown: str | None  # str(self), formatted once

    def __init__(self, text: str = "", game: str = "holdem") -> None:
        parsed = parse_range(text, game)
        for name in self.__slots__:
            object.__setattr__(self, name, getattr(parsed, name))

    @classmethod
    def _make(cls, game: str, size: int, hands: Int8Array, weights: Float64Array, text: str | None,
              ordered: bool = False) -> Range:
        """A range from its rows (each highest card first, no repeats; ``ordered``: already highest
        row first) and weights in (0, 1]."""
        out = object.__new__(cls)
        if not ordered and len(hands):
            order = np.lexsort(hands.T[::-1])[::-1]
            hands, weights = hands[order], weights[order]
        hands = np.ascontiguousarray(hands, dtype=np.int8)
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        hands.setflags(write=False)
        weights.setflags(write=False)
        for name, value in (("game", game), ("size", size), ("_hands", hands), ("_weights", weights),
                            ("_text", text), ("_combos", None), ("_shown", None)):
            object.__setattr__(out, name, value)
        return out

    @classmethod
    def from_combos(cls, combos: Mapping[Any, float] | Iterable[Any], game: str = "holdem") -> Range:
        """A range of the given hands (card strings or tuples of cards), each of weight 1 or, from a
        mapping, of its weight in 0..1 (weight 0 leaves the hand out)."""
        game = _check_game(game)
        items: Iterable[tuple[Any, object]]
        if isinstance(combos, Mapping):
            items = combos.items()
        elif isinstance(combos, str | bytes) or not isinstance(combos, Iterable):
            raise RangeError(f"A range is made from a list or mapping of hands, not {excerpt(combos)}.")
        else:
            items = ((hand, 1.0) for hand in combos)
        chosen: dict[tuple[int, ...], float] = {}
        size = GAMES[game]
        deck = set(_deck(game))
        for count, (hand, weight) in enumerate(items):
            if count >= comb(52, 5):
                raise RangeError(f"A range holds at most {comb(52, 5):,} hands.")
            cards = parse_cards(hand)
            if size is None:
                size = len(cards)
            if len(cards) != size or not 1 <= size <= _MAX_SIZE or not set(cards) <= deck:
                raise RangeError(f"{excerpt(hand)} is not a hand of {game} ({size} cards of its deck).")
            w = _check_weight(weight, excerpt(hand))
            key = tuple(sorted((int(c) for c in cards), reverse=True))
            if w > 0:
                chosen[key] = w
            else:
                chosen.pop(key, None)
        if size is None:
            raise RangeError(f"An empty {game} range has no hand size; give at least one hand.")
        hands = np.array(list(chosen), dtype=np.int8).reshape(-1, size)
        return cls._make(game, size, hands, np.array(list(chosen.values()), dtype=np.float64), None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("A Range cannot be changed; build a new one.")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("A Range cannot be changed; build a new one.")

    @property
    def combos(self) -> Mapping[Combo, float]:
        """Each hand (cards highest first) and its weight, in the range's order (read-only)."""
        if self._combos is None:
            table = {tuple(CARDS[c] for c in row): w
                     for row, w in zip(self._hands.tolist(), self._weights.tolist(), strict=True)}
            object.__setattr__(self, "_combos", MappingProxyType(table))
        assert self._combos is not None
        return self._combos

    @property
    def hands(self) -> Int8Array:
        """The hands as a read-only ``(len, size)`` int8 array of card indices, highest first."""
        return self._hands

    @property
    def weights(self) -> Float64Array:
        """The weights, a read-only float array in the order of :attr:`hands`."""
        return self._weights

    @property
    def frequency(self) -> float:
        """Share of all the game's hands in the range, weights counted (``Range("AA").frequency`` is 6/1326)."""
        return float(self._weights.sum()) / comb(len(_deck(self.game)), self.size)

    def weight(self, hand: str | Iterable[str | int]) -> float:
        """The weight of ``hand`` (a card string or cards in any order), 0.0 if it is not in the range."""
        try:
            key = tuple(sorted(parse_cards(hand), reverse=True))
        except CardError:
            return 0.0
        return self.combos.get(key, 0.0)

    def __contains__(self, hand: object) -> bool:
        if not isinstance(hand, str) and not isinstance(hand, Iterable):
            return False
        return self.weight(hand) > 0

    def __len__(self) -> int:
        return len(self._hands)

    def __iter__(self) -> Iterator[Combo]:
        return iter(self.combos)

    def __bool__(self) -> bool:
        return len(self._hands) > 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return (self.game == other.game and self.size == other.size and np.array_equal(self._hands, other._hands)
                and np.array_equal(self._weights, other._weights))

    def __hash__(self) -> int:
        return hash((self.game, self.size, self._hands.tobytes(), self._weights.tobytes()))

    def __str__(self) -> str:
        if self._shown is None:
            object.__setattr__(self, "_shown", _format(self))
        assert self._shown is not None
        return self._shown

    def __repr__(self) -> str:
        text = str(self)
        shown = text if len(text) <= 200 else f"{text[:200]}... ({len(self):,} hands)"
        return f"Range({shown!r})" if self.game == "holdem" else f"Range({shown!r}, game={self.game!r})"

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (parse_range, (str(self), self.game))


def _check_game(game: object) -> str:
    if not isinstance(game, str) or game not in GAMES:
        raise RangeError(f"game must be one of {', '.join(GAMES)}, not {excerpt(game)}.")
    return game


def _check_weight(weight: object, token: str) -> float:
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 1:
        raise RangeError(f"The weight of {token} must be a number from 0 to 1, not {excerpt(weight)}.")
    return float(weight)


def parse_range(text: str, game: str = "holdem") -> Range:
    """The :class:`Range` a range string names (see the module's docstring for the syntax).

    >>> len(parse_range("AKs, QQ+"))
    22
    >>> str(parse_range("KK, QQ, AA, AhKh, AKs"))
    'QQ+, AKs'
    """
    game = _check_game(game)
    if not isinstance(text, str):
        raise RangeError(f"A range is a string such as 'AKs, QQ+', not {excerpt(text)}.")
    if len(text) > MAX_RANGE_TEXT:
        raise RangeError(f"A range string may have at most {MAX_RANGE_TEXT:,} characters; {excerpt(text)} is longer.")
    return _parse(text, game)


@lru_cache(maxsize=256)
def _parse(text: str, game: str) -> Range:
    size = GAMES[game]
    chosen: Float64Array | None = None  # weight of each row of _all_hands; the last mention wins
    hands: Int8Array | None = None
    canonical: list[tuple[str, float]] = []
    budget = _PATTERN_BUDGET
    for token, weight in _tokens(text):
        if size is None:
            size = _token_size(token, text)
        if hands is None:
            hands = _all_hands(game, size)
            chosen = np.zeros(len(hands))
        rows, name, cost = _match(token, game, size, text)
        budget -= cost
        if budget < 0:
            raise RangeError(f"Range {excerpt(text)} has too many patterns for {game}; write fewer tokens.")
        if len(rows) == 0:
            raise RangeError(f"No {game} hand matches {excerpt(token)} in range {excerpt(text)}.")
        assert chosen is not None
        chosen[rows] = weight
        canonical.append((name, weight))
    if size is None or hands is None or chosen is None:
        size = size or 1
        return Range._make(game, size, np.zeros((0, size), dtype=np.int8), np.zeros(0), "")
    rows = np.flatnonzero(chosen)
    return Range._make(game, size, hands[rows], chosen[rows], _join_tokens(canonical) if size > 2 else None,
                       ordered=True)


def _tokens(text: str) -> Iterator[tuple[str, float]]:
    """Each token of a range string with its weight (``0.4(JJ, AK)`` gives two)."""
    group: float | None = None  # the weight of the open parenthesis
    pending: str | None = None  # a token that may be the weight of a group that follows
    for m in _SPLIT_RE.finditer(text):
        piece = m.group(1)
        if piece == "(":
            if group is not None or pending is None or _WEIGHT_RE.fullmatch(pending) is None:
                raise RangeError(f"Range {excerpt(text)}: a '(' must follow a weight such as 0.4 and groups do not "
                                 f"nest (at {excerpt(pending or '(')}); allowed: {_ALLOWED}.")
            group = _weight(pending, text)
            pending = None
        elif piece in (",", ")"):
            if pending is not None:
                yield _token_weight(pending, group, text)
                pending = None
            if piece == ")":
                if group is None:
                    raise RangeError(f"Range {excerpt(text)} has a ')' without its '('.")
                group = None
        else:
            if pending is not None:
                yield _token_weight(pending, group, text)
            pending = piece
    if pending is not None:
        yield _token_weight(pending, group, text)
    if group is not None:
        raise RangeError(f"Range {excerpt(text)} has a '(' without its ')'.")


def _weight(word: str, text: str) -> float:
    if _WEIGHT_RE.fullmatch(word) is None:
        raise RangeError(f"Range {excerpt(text)}: {excerpt(word)} is not a weight (0 to 1, e.g. 0.4 or 40%).")
    value = float(word.rstrip("%")) / (100 if word.endswith("%") else 1)
    if not 0 <= value <= 1:
        raise RangeError(f"Range {excerpt(text)}: weight {excerpt(word)} is outside 0 to 1 (0% to 100%).")
    return value


def _token_weight(piece: str, group: float | None, text: str) -> tuple[str, float]:
    token, colon, weight = piece.partition(":")
    if colon and group is not None:
        raise RangeError(f"Range {excerpt(text)}: {excerpt(piece)} has a weight inside a weighted group.")
    w = _weight(weight, text) if colon else (1.0 if group is None else group)
    return token, w


def _split_suits(token: str) -> tuple[str, str]:
    """A pattern and its suit condition (``"ds"``, ``"ss"``, ``"r"`` or ``""``)."""
    if _PATTERN_RE.fullmatch(token):
        return token, ""
    for suffix in ("ds", "ss", "r"):
        if token.lower().endswith(suffix) and _PATTERN_RE.fullmatch(token[: -len(suffix)]):
            return token[: -len(suffix)], suffix
    return token, "?"


def _token_size(token: str, text: str) -> int:
    """Cards in a stud or razz token (its items; ``random`` has no size)."""
    if token.lower() in ("random", "any"):
        raise RangeError(f"Range {excerpt(text)}: a stud hand's size is unknown in {excerpt(token)}; write one "
                         "item per card, e.g. ***.")
    pattern, suits = _split_suits(token)
    if suits == "?":
        _bad(token, text)
    size = len(_ITEM_RE.findall(pattern))
    if not 1 <= size <= _MAX_SIZE:
        raise RangeError(f"Range {excerpt(text)}: {excerpt(token)} has {size} cards; a stud hand has 1 to 7.")
    return size


def _bad(token: str, text: str) -> None:
    raise RangeError(f"Range {excerpt(text)}: cannot read {excerpt(token)}; allowed: {_ALLOWED}.")


def _match(token: str, game: str, size: int, text: str) -> tuple[npt.NDArray[np.intp], str, int]:
    """Rows of ``_all_hands(game, size)`` a token names, its canonical text and its cost in rows scanned."""
    hands = _all_hands(game, size)
    if token.lower() in _RANDOM:
        return np.arange(len(hands)), "random", 0
    if size == 2:
        classes = _class_tokens(token, text)
        if classes is not None:
            index = _class_index(game)
            rows = np.flatnonzero(np.isin(index, [_class_id(c) for c in classes]))
            return rows, token, 0
    if _CARDS_RE.fullmatch(token) and len(token) == 2 * size:
        try:
            cards = parse_cards(token)
        except CardError:
            raise RangeError(f"Range {excerpt(text)}: {excerpt(token)} repeats a card.") from None
        key = tuple(sorted((int(c) for c in cards), reverse=True))
        row = _index_of(game, size).get(key) if size <= 2 else _find_row(hands, key)
        if row is None:
            raise RangeError(f"Range {excerpt(text)}: {excerpt(token)} is not a hand of {game}'s deck.")
        return np.array([row], dtype=np.intp), "".join(str(CARDS[c]) for c in key), 0
    pattern, suits = _split_suits(token)
    if suits == "?":
        _bad(token, text)
    items = _ITEM_RE.findall(pattern)
    if len(items) > size:
        raise RangeError(f"Range {excerpt(text)}: {excerpt(token)} has {len(items)} cards; a {game} hand has {size}.")
    rows = _pattern_rows(items, suits, game, size, token, text)
    name = "".join(_norm_item(i) for i in items) + suits
    return rows, name, len(hands)


def _norm_item(item: str) -> str:
    if item in "*?xX":
        return "*"
    return item[0].upper() + item[1:].lower()


def _find_row(hands: Int8Array, key: tuple[int, ...]) -> int | None:
    """Row of ``key`` in the ordered rows of ``hands`` (binary search on the first card, then a scan)."""
    first = hands[:, 0]
    lo = int(np.searchsorted(-first.astype(np.int16), -key[0], side="left"))
    hi = int(np.searchsorted(-first.astype(np.int16), -key[0], side="right"))
    block = hands[lo:hi]
    hit = np.flatnonzero((block == np.array(key, dtype=np.int8)).all(axis=1))
    return lo + int(hit[0]) if hit.size else None


def _pattern_rows(items: list[str], suits: str, game: str, size: int, token: str, text: str) -> npt.NDArray[np.intp]:
    """Rows of ``_all_hands(game, size)`` holding the pattern's cards and ranks (wildcards take the
    rest) and meeting its suit rule. With a card named and more than two cards a hand, the hands
    holding the named cards are listed directly (``7h5d3c2s*``: 48), else every hand is scanned."""
    cards: list[int] = []
    ranks = [0] * 13  # the ranks named without a suit, each as often as named
    for item in items:
        if len(item) == 2:
            cards.append(int(CARDS[_RANK[item[0]] * 4 + SUITS.index(item[1].lower())]))
        elif item not in "*?xX":
            ranks[_RANK[item]] += 1
    if len(set(cards)) != len(cards):
        raise RangeError(f"Range {excerpt(text)}: {excerpt(token)} repeats a card.")
    deck = _deck(game)
    if not set(cards) <= set(deck):
        return np.zeros(0, dtype=np.intp)
    if cards and size > 2:
        rest = np.array([c for c in deck[::-1] if c not in cards], dtype=np.int8)
        others = rest[combination_rows(len(rest), size - len(cards))]
        hands = -np.sort(-np.concatenate([np.broadcast_to(np.array(cards, dtype=np.int8),
                                                          (len(others), len(cards))), others], axis=1), axis=1)
        rank_counts, suit_counts = _counts(hands)
        keep = _meets(rank_counts, suit_counts, ranks, cards, suits)
        position = np.empty(52, dtype=np.int64)
        position[list(deck[::-1])] = np.arange(len(deck))
        return _lex_rank(position[hands[keep].astype(np.intp)], len(deck))
    hands = _all_hands(game, size)
    if not any(ranks) and not suits:  # wildcards and named cards only: no counts needed
        mask = np.ones(len(hands), dtype=bool)
    else:
        rank_counts, suit_counts = _hand_counts(game, size)
        mask = _meets(rank_counts, suit_counts, ranks, cards, suits)
    for card in cards:
        mask &= (hands == card).any(axis=1)
    return np.flatnonzero(mask)


def _counts(hands: npt.NDArray[Any]) -> tuple[Int8Array, Int8Array]:
    """How many cards of each rank (13 columns) and each suit (4) each row of ``hands`` holds."""
    index = hands.astype(np.intp)
    ranks = np.zeros((len(hands), 13), dtype=np.int8)
    suits = np.zeros((len(hands), 4), dtype=np.int8)
    rows = np.arange(len(hands))
    for j in range(hands.shape[1]):  # each row once per column: fancy += counts right
        ranks[rows, index[:, j] >> 2] += 1
        suits[rows, index[:, j] & 3] += 1
    return ranks, suits


def _meets(rank_counts: Int8Array, suit_counts: Int8Array, ranks: list[int], cards: list[int],
           suits: str) -> npt.NDArray[np.bool_]:
    """Rows with, of each rank named bare, that many more cards than the named cards of that rank,
    and the suit rule (``ds``, ``ss``, ``r`` or none). The named cards themselves are checked apart."""
    mask = np.ones(len(rank_counts), dtype=bool)
    for rank, bare in enumerate(ranks):
        if bare:
            mask &= rank_counts[:, rank] >= bare + sum(1 for c in cards if c >> 2 == rank)
    if suits:
        profile = -np.sort(-suit_counts, axis=1)
        if suits == "ds":
            mask &= (profile[:, 0] == 2) & (profile[:, 1] == 2)
        elif suits == "ss":
            mask &= (profile[:, 0] == 2) & (profile[:, 1] <= 1)
        else:
            mask &= profile[:, 0] <= 1
    return mask


@cache
def _binomials(n: int, k: int) -> npt.NDArray[np.int64]:
    return np.array([[comb(a, b) for b in range(k + 2)] for a in range(n + 1)], dtype=np.int64)


def _lex_rank(positions: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.intp]:
    """The row of each k-subset (increasing positions) in :func:`combination_rows` ``(n, k)``."""
    k = positions.shape[1]
    table = _binomials(n, k)
    out = np.full(len(positions), comb(n, k) - 1, dtype=np.int64)
    for i in range(k):
        out -= table[n - 1 - positions[:, i], k - i]
    return out.astype(np.intp)


# Two-card classes: (high rank, low rank, "s" / "o" / "" for a pair)

def _class_id(cls: tuple[int, int, str]) -> int:
    high, low, kind = cls
    return high * 13 + low if kind != "o" else low * 13 + high  # suited and pairs above the diagonal


@cache
def _class_index(game: str) -> npt.NDArray[np.intp]:
    """The class id of each two-card hand of :func:`_all_hands` (suited ``hi*13+lo``, offsuit ``lo*13+hi``)."""
    hands = _all_hands(game, 2).astype(np.intp)
    high, low = hands[:, 0] >> 2, hands[:, 1] >> 2
    suited = (hands[:, 0] & 3) == (hands[:, 1] & 3)
    out: npt.NDArray[np.intp] = np.where(suited | (high == low), high * 13 + low, low * 13 + high)
    return out


def _class_tokens(token: str, text: str) -> list[tuple[int, int, str]] | None:
    """The classes a two-card class token or run names, or ``None`` if it is not one."""
    m = _CLASS_RE.fullmatch(token)
    if m:
        return _expand_class(m.group(0), token, text)
    m = _RUN_RE.fullmatch(token)
    if m is None:
        return None
    bottom = _one_class(m.group(1), token, text)
    if m.group(2):  # "+"
        high, low, kind = bottom
        if kind == "p":
            return _kinds([(r, r, "p") for r in range(low, 13)])
        return _kinds([(high, r, kind) for r in range(low, high)])
    top = _one_class(m.group(3), token, text)
    if top[2] != bottom[2]:
        raise RangeError(f"Range {excerpt(text)}: the ends of {excerpt(token)} differ in suitedness.")
    if top[2] == "p":
        lo, hi = sorted((top[0], bottom[0]))
        return _kinds([(r, r, "p") for r in range(lo, hi + 1)])
    if top[0] != bottom[0]:
        raise RangeError(f"Range {excerpt(text)}: the ends of {excerpt(token)} must share their top card "
                         "(A5s-A2s, not A5s-K2s).")
    lo, hi = sorted((top[1], bottom[1]))
    return _kinds([(top[0], r, top[2]) for r in range(lo, hi + 1)])


def _one_class(word: str, token: str, text: str) -> tuple[int, int, str]:
    """(high, low, kind) of a class word; kind ``p`` pair, ``s``, ``o`` or ``n`` (both)."""
    a, b = _RANK[word[0]], _RANK[word[1]]
    suffix = word[2:].lower()
    if a == b:
        if suffix:
            raise RangeError(f"Range {excerpt(text)}: a pair has no suitedness ({excerpt(token)}).")
        return a, a, "p"
    return max(a, b), min(a, b), suffix or "n"


def _expand_class(word: str, token: str, text: str) -> list[tuple[int, int, str]]:
    return _kinds([_one_class(word, token, text)])


def _kinds(classes: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for high, low, kind in classes:
        if kind == "p":
            out.append((high, low, ""))
        elif kind == "n":
            out += [(high, low, "s"), (high, low, "o")]
        else:
            out.append((high, low, kind))
    return out


# Writing a range back

def _weight_text(w: float) -> str:
    return repr(w)


def _join_tokens(tokens: list[tuple[str, float]]) -> str:
    return ", ".join(t if w == 1 else f"{t}:{_weight_text(w)}" for t, w in tokens if w > 0)


def _format(r: Range) -> str:
    if not len(r):
        return ""
    if r._text is not None and len(r) * 2 * r.size >= len(r._text):  # listing the hands would be longer
        return r._text
    all_hands = _all_hands(r.game, r.size)
    parts: list[str] = []
    for w in sorted(set(np.unique(r._weights).tolist()), key=lambda x: (x != 1.0, -x)):
        rows = r._hands[r._weights == w]
        if len(rows) == len(all_hands):
            body = ["random"]
        elif r.size == 2:
            body = _format_two(rows, r.game)
        else:
            body = ["".join(str(CARDS[c]) for c in row) for row in rows.tolist()]
        if w == 1.0:
            parts += body
        elif len(body) == 1:
            parts.append(f"{body[0]}:{_weight_text(w)}")
        else:
            parts.append(f"{_weight_text(w)}({', '.join(body)})")
    explicit = ", ".join(parts)
    if r._text is not None and len(r._text) < len(explicit):
        return r._text
    return explicit


def _format_two(rows: Int8Array, game: str) -> list[str]:
    """Class tokens and runs for the full classes among ``rows``, then the other hands one by one."""
    index = _class_index(game)
    held = np.zeros(len(index), dtype=bool)
    lookup = _index_of(game, 2)
    for row in rows.tolist():
        held[lookup[tuple(row)]] = True
    total = np.bincount(index, minlength=169)
    full = set(np.flatnonzero((total > 0) & (np.bincount(index[held], minlength=169) == total)).tolist())
    ranks = sorted({c >> 2 for c in _deck(game)})
    pairs = [r for r in ranks if r * 13 + r in full]
    out = _runs(pairs, ranks, 12, lambda a: RANKS[a] * 2, pair=True)
    for high in reversed(ranks):
        kickers = [r for r in ranks if r < high]
        suited = [r for r in kickers if high * 13 + r in full]
        offsuit = [r for r in kickers if r * 13 + high in full]
        both = [r for r in suited if r in offsuit]
        top = kickers[-1] if kickers else -1

        def name(kind: str, high: int = high) -> Any:
            return lambda a: RANKS[high] + RANKS[a] + kind

        split = _runs(suited, kickers, top, name("s")) + _runs(offsuit, kickers, top, name("o"))
        merged = (_runs(both, kickers, top, name("")) + _runs([r for r in suited if r not in both], kickers, top,
                  name("s")) + _runs([r for r in offsuit if r not in both], kickers, top, name("o")))
        # tokens may overlap (one weight): an offsuit run whose suited hands are all held drops its "o"
        overlap = _runs(suited, kickers, top, name("s"))
        for run in _run_groups(offsuit, kickers):
            overlap += _runs(run, kickers, top, name("" if all(r in suited for r in run) else "o"))
        out += min((split, merged, overlap), key=lambda tokens: len(", ".join(tokens)))
    rest = [c for c, keep in zip(_all_hands(game, 2).tolist(), held.tolist(), strict=True)
            if keep and int(index[lookup[tuple(c)]]) not in full]
    out += ["".join(str(CARDS[c]) for c in row) for row in rest]
    return out


def _run_groups(members: list[int], order: list[int]) -> list[list[int]]:
    """``members`` split into runs of consecutive ranks (in ``order``), lowest first."""
    position = {r: i for i, r in enumerate(order)}
    runs: list[list[int]] = []
    for r in sorted(members):
        if runs and position[r] == position[runs[-1][-1]] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def _runs(members: list[int], order: list[int], top: int, name: Any, pair: bool = False) -> list[str]:
    """Runs of consecutive ranks (in ``order``) among ``members``, highest first, as ``X+``, ``X-Y`` or ``X``."""
    out = []
    for run in reversed(_run_groups(members, order)):
        low, high = run[0], run[-1]
        if high == top and len(run) > 1:
            out.append(f"{name(low)}+")
        elif len(run) == 1:
            out.append(name(low))
        else:
            out.append(f"{name(high)}-{name(low)}")
    return out
