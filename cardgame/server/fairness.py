"""Provably fair dealing: each hand's deck is fixed, and committed to, before its first card.

Before a hand the table shuffles a whole deck (from a 256-bit seed drawn for the hand from the
operating system's cryptographic source, or from an operator's seed at a practice table) and
stacks it; the hand deals from the top of it, burn cards included. Every client is sent the
**commitment** first, the SHA-256 of::

    cardgame-deal-1:<salt>:<the deck, top card first, as card strings separated by spaces>

(``salt``: 32 hex digits from the operating system's source, so nobody can test guesses of the deck against the
hash). When the hand ends the table sends the **reveal**: the salt and the deck. Anyone can then
check that the hash of the reveal is the commitment (the deck was fixed before play, so no card
was chosen after anyone acted) and that every card they saw was dealt from it in order
(:func:`verify`, ``cardgame verify``). In a draw game a stub that runs short is topped up with
the shuffled discards (a ``DiscardsReshuffled`` event); cards dealt after that are not in the
committed order, and :func:`verify` says how far it checked.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import os
import secrets
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

import attrs

from cardgame.engine.errors import CardgameError
from cardgame.model.cards import CARDS, Card, format_cards, parse_cards
from cardgame.model.events import (
    BoardDealt,
    CardsShown,
    DiscardsReshuffled,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
)
from cardgame.model.inputs import check_instance, excerpt
from cardgame.model.rng import RandomSource
from cardgame.store.serialize import SnapshotError, decode_event

__all__ = ["Deal", "DealError", "Verified", "commitment", "new_deal", "read_saved", "verify"]

T = TypeVar("T")

#: Names this scheme's hashes (a later scheme takes another).
SCHEME = "cardgame-deal-1"
#: The most events :func:`verify` reads (a hand has far fewer).
_MAX_EVENTS = 5000
_HEX = frozenset("0123456789abcdef")


class DealError(CardgameError):
    """A commitment, reveal or saved hand that is malformed, or that does not hold together."""


def commitment(salt: str, deck: Sequence[Card]) -> str:
    """The SHA-256 (64 hex digits) committing to ``deck`` (top card first) with ``salt``."""
    salt = _hex(salt, "salt", 32)
    deck = _cards(deck)
    return hashlib.sha256(f"{SCHEME}:{salt}:{_deck_text(deck)}".encode()).hexdigest()


@attrs.frozen
class Deal:
    """One hand's deck, top card first, and the salt of its commitment."""

    deck: tuple[Card, ...]
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.salt, self.deck)

    def reveal(self) -> dict[str, str]:
        """What the table sends when the hand is over: ``{"salt": ..., "deck": "Ah 7c ..."}``."""
        return {"salt": self.salt, "deck": _deck_text(_cards(self.deck))}


def new_deal(cards: Iterable[Card], rng: RandomSource) -> Deal:
    """``cards`` shuffled, with a fresh salt. A practice table's seeded ``rng`` shuffles them itself
    (its deals replay from the seed); otherwise one draw of 384 bits from the operating system's
    cryptographic source (:func:`os.urandom`) gives the hand its shuffle seed (256 bits, expanded by
    :func:`_shuffle_from_seed`) and its salt (128 bits), rather than a system call a card."""
    check_instance(rng, RandomSource, "A RandomSource (the game's)", DealError)
    deck = list(_cards(cards))
    if rng.seeded:
        rng.shuffle(deck)
        return Deal(tuple(deck), secrets.token_hex(16))
    drawn = os.urandom(48)
    _shuffle_from_seed(deck, drawn[:32])
    return Deal(tuple(deck), drawn[32:].hex())


#: Names the shuffle's SHAKE-256 stream (a later shuffle takes another).
SHUFFLE_SCHEME = b"cardgame-shuffle-1:"


def _shuffle_from_seed(items: list[T], seed: bytes) -> None:
    """Shuffle ``items`` in place, as the seed (at least 16 bytes) alone decides: Fisher-Yates from the
    last place down, each place's index drawn from the SHAKE-256 stream of ``SHUFFLE_SCHEME + seed``
    as 32-bit little-endian words, a word at or above the largest multiple of the range drawn again
    (so no index is likelier than another). :class:`DealError` for a seed that is not such bytes."""
    if type(seed) is not bytes or not 16 <= len(seed) <= 1024:
        raise DealError(f"A shuffle's seed is 16 to 1024 bytes, not {excerpt(seed)}.")
    if not isinstance(items, list):
        raise DealError(f"Shuffle a list, not {excerpt(items)}.")
    xof = hashlib.shake_256(SHUFFLE_SCHEME + seed)
    count = len(items) + 16
    words = struct.unpack(f"<{count}I", xof.digest(4 * count))
    k = 0
    for i in range(len(items) - 1, 0, -1):
        span = i + 1
        limit = _WORDS - _WORDS % span
        while True:
            if k == count:  # rejections used up the margin (about once in 2**26 shuffles): read on
                count *= 2
                words = struct.unpack(f"<{count}I", xof.digest(4 * count))
            word = words[k]
            k += 1
            if word < limit:
                break
        j = word % span
        items[i], items[j] = items[j], items[i]


_WORDS = 1 << 32


@attrs.frozen
class Verified:
    """What :func:`verify` checked: the ``hand`` (if the events named it), how many dealt cards were
    seen and matched the deck (``cards``), how many shown hands (``shown``), and whether the
    discards were reshuffled (cards dealt after that are not in the committed order)."""

    commitment: str
    deck: tuple[Card, ...]
    hand: int | None = None
    cards: int = 0
    shown: int = 0
    reshuffled: bool = False

    def describe(self) -> str:
        where = f"hand #{self.hand}" if self.hand is not None else "the hand"
        text = (f"The deck of {where} matches commitment {self.commitment[:16]}...: it was fixed before the "
                f"first card.")
        if self.cards or self.shown:
            text += f" {self.cards} dealt cards and {self.shown} shown hands agree with it."
        if self.reshuffled:
            text += " The discards were reshuffled; cards dealt after that are not in the committed order."
        return text


def _cards(cards: object) -> tuple[Card, ...]:
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise DealError(f"A deck is a list of cards, not {excerpt(cards)}.")
    found = tuple(itertools.islice(cards, 1000))
    if len(found) >= 1000 or not set(map(type, found)) <= _CARD_TYPE:  # each a Card (a hand's deck, thrice)
        raise DealError(f"A deck is a list of at most 999 cards, not {excerpt(found)}.")
    return found


_CARD_TYPE = frozenset({Card})
#: Each card's text by its index.
_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)


def _deck_text(deck: tuple[Card, ...]) -> str:
    """A checked deck (:func:`_cards`) as :func:`~cardgame.model.cards.format_cards` writes it, each
    card's text looked up (a deck's 52 each hand, twice)."""
    return " ".join(map(_CARD_TEXT.__getitem__, deck))


def _hex(value: object, what: str, digits: int) -> str:
    if not isinstance(value, str) or len(value) != digits or not set(value.lower()) <= _HEX:
        raise DealError(f"The {what} is {digits} hex digits, not {excerpt(value)}.")
    return value.lower()


def verify(commitment_hex: object, reveal: object, events: object = None) -> Verified:
    """Check ``reveal`` (``{"salt": ..., "deck": ...}``, as the table sends it) against
    ``commitment_hex``, and, given ``events`` (the hand's events as the table sent them: view items
    or encoded events), that every card seen was dealt from the revealed deck in order and every
    hand shown was the one dealt to that seat. :class:`DealError` names the first thing that does
    not hold."""
    expected = _hex(commitment_hex, "commitment", 64)
    if not isinstance(reveal, Mapping):
        raise DealError(f"A reveal is an object with 'salt' and 'deck', not {excerpt(reveal)}.")
    salt = _hex(reveal.get("salt"), "reveal's salt", 32)
    text = reveal.get("deck")
    if not isinstance(text, str) or len(text) > 400:
        raise DealError(f"The reveal's deck is the cards as text ('Ah 7c ...'), not {excerpt(text)}.")
    try:
        deck = parse_cards(text)
    except CardgameError as exc:
        raise DealError(f"The reveal's deck is not a deck: {exc}") from None
    if not hmac.compare_digest(commitment(salt, deck), expected):
        raise DealError("The reveal does not match the commitment: this is not the deck the table committed to "
                        "before the hand.")
    if events is None:
        return Verified(expected, deck)
    return _check_events(expected, deck, _decode(events))


def _decode(events: object) -> list[Event]:
    if not isinstance(events, Sequence) or isinstance(events, str | bytes) or len(events) > _MAX_EVENTS:
        raise DealError(f"The events are a list of at most {_MAX_EVENTS} events, not {excerpt(events)}.")
    found = []
    for i, item in enumerate(events):
        data = item.get("event", item) if isinstance(item, Mapping) else item
        try:
            found.append(decode_event(data, f"events[{i}]"))
        except (SnapshotError, CardgameError, TypeError, ValueError) as exc:
            raise DealError(f"events[{i}] is not an event: {excerpt(str(exc))}") from None
    return found


def _check_events(expected: str, deck: tuple[Card, ...], events: list[Event]) -> Verified:
    """Walk the hand's deals through ``deck``: each dealt card (seen or not) takes the next place;
    a board takes one more when a card was burnt first."""
    starts = [i for i, e in enumerate(events) if type(e) is HandStarted]
    if len(starts) > 1:
        raise DealError(f"The events hold {len(starts)} hands; give those of the revealed hand only.")
    hand = None
    if starts:
        start = events[starts[0]]
        assert isinstance(start, HandStarted)
        hand = start.hand
        events = events[starts[0]:]
    place = cards = shown = 0
    dealt: dict[int, set[Card]] = {}
    reshuffled = False

    def wrong(what: str) -> DealError:
        return DealError(f"The events do not follow the revealed deck: {what}.")

    for event in events:
        if type(event) is HandEnded:
            break
        if type(event) is DiscardsReshuffled:
            reshuffled = True
        elif type(event) is HoleCardsDealt and not reshuffled:
            own = deck[place:place + len(event.cards)]
            if len(own) < len(event.cards):
                raise wrong(f"seat {event.seat} is dealt past the end of the deck")
            for card, expected_card in zip(event.cards, own, strict=True):
                if card is not None:
                    if card != expected_card:
                        raise wrong(f"seat {event.seat} is dealt {card} where the deck has {expected_card}")
                    cards += 1
            dealt.setdefault(event.seat, set()).update(own)
            place += len(own)
        elif type(event) is BoardDealt and not reshuffled:
            n = len(event.cards)
            for skip in (0, 1):  # 1: a card was burnt first
                if deck[place + skip:place + skip + n] == tuple(event.cards):
                    place += skip + n
                    cards += n
                    break
            else:
                raise wrong(f"the board card(s) {format_cards(event.cards)} are not the next in the deck")
        elif type(event) is CardsShown:
            held = dealt.get(event.seat)
            if held is not None and not reshuffled and not set(event.cards) <= held:
                raise wrong(f"seat {event.seat} shows {format_cards(event.cards)}, not the cards it was dealt")
            shown += held is not None and not reshuffled
    return Verified(expected, deck, hand, cards, shown, reshuffled)


def read_saved(data: object) -> tuple[object, object, object]:
    """The commitment, reveal and events of a saved hand: ``{"commitment": ..., "reveal": {...},
    "events": [...]}`` (the reveal may be the one a ``hand ended`` event carries, which holds all three
    but the events)."""
    if not isinstance(data, Mapping):
        raise DealError(f"A saved hand is a JSON object, not {excerpt(data)}.")
    reveal = data.get("reveal", data)
    given = data.get("commitment")
    if given is None and isinstance(reveal, Mapping):
        given = reveal.get("commitment")
    return given, reveal, data.get("events")
