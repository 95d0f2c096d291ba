"""PHH action notation: one frozen class per action kind, parsing and canonical text.

Conventions used by every class here:

* Each class is named for its action with an ``Action`` suffix (``d dh`` is :class:`DealHoleAction`),
  so none shares a name with an engine stage such as :class:`cardgame.stages.DealHole`.

* ``player`` is the **0-based** player index: ``p1`` in the text is ``player=0``, so it indexes
  ``HandHistory.starting_stacks`` and the other per-player arrays directly.
* Cards are a tuple whose items are :class:`~cardgame.model.cards.Card` for a known card and ``None`` for
  an unknown one (``??``): ``"Ac??"`` is ``(Card('Ac'), None)``. Partially known cards such as
  ``?h`` are rejected: the spec writes every unknown card as ``??``.
* ``commentary`` is the text after ``#`` on the action line, stripped, or ``None`` when there is no
  ``#``. ``to_text()`` writes it back as ``" # commentary"``.

>>> parse_action("p3 cbr 7000 # Dwan opens")
CompleteBetRaiseAction(player=2, amount=7000, commentary='Dwan opens')
>>> parse_action("d dh p2 ????").to_text()
'd dh p2 ????'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TypeAlias

import attrs

from cardgame.model.cards import Card, parse_card
from cardgame.model.errors import CardError, HandHistoryError
from cardgame.model.inputs import MAX_DIGITS, check_int, excerpt, is_ascii_int

__all__ = [
    "Action",
    "CheckCallAction",
    "CompleteBetRaiseAction",
    "DealBoardAction",
    "DealHoleAction",
    "FoldAction",
    "MaybeCard",
    "NoOpAction",
    "Number",
    "PostBringInAction",
    "ShowMuckAction",
    "StandPatDiscardAction",
    "format_phh_cards",
    "normalize_number",
    "parse_action",
    "parse_phh_cards",
]

#: A chip amount, stack or time: kept as read, except integral floats become ``int``.
Number: TypeAlias = int | float
#: A known card, or ``None`` for an unknown one (``??``).
MaybeCard: TypeAlias = Card | None

_PLAYER = re.compile(r"p([1-9][0-9]*)")
_AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_AMOUNT_CHARACTERS = 64  # longer is no amount (and float() of a long text costs time)
_CARD_HELP = "each card is a rank (23456789TJQKA, or ? if unknown) then a suit (cdhs, or ?), e.g. 'Ac2d' or '????'"


class _Invalid(Exception):
    """Internal: a problem found while parsing; callers add file/hand/line context."""


def normalize_number(value: Number) -> Number:
    """Return integral floats as ``int`` (``9950.0`` -> ``9950``); anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _format_number(value: Number) -> str:
    return str(value) if isinstance(value, int) else repr(value)


def _card_tuple(value: object) -> tuple[MaybeCard, ...]:
    """``value`` (a list or tuple of cards and ``None``) as a tuple, else :class:`HandHistoryError`."""
    if isinstance(value, list | tuple) and all(c is None or isinstance(c, Card) for c in value):
        return tuple(value)
    raise HandHistoryError(f"Cards are PHH text such as 'Ac??' or a list or tuple of Card and None (unknown), "
                           f"not {excerpt(value)}.")


def _cards(value: str | Iterable[MaybeCard]) -> tuple[MaybeCard, ...]:
    if isinstance(value, str):
        return parse_phh_cards(value)
    return _card_tuple(value)


def _cards_or_dash(value: str | Iterable[MaybeCard] | None) -> tuple[MaybeCard, ...] | None:
    if value is None or value == "-":
        return None
    return _cards(value)


def _parse_cards(text: str) -> tuple[MaybeCard, ...]:
    """Parse PHH card notation (``"Jc3d5c"``, ``"????"``); raises :class:`_Invalid`."""
    if len(text) % 2:
        raise _Invalid(f"malformed cards {excerpt(text)}: odd length; {_CARD_HELP}")
    out: list[MaybeCard] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk == "??":
            out.append(None)
            continue
        if "?" in chunk:
            raise _Invalid(
                f"malformed cards {excerpt(text)}: partially known card {excerpt(chunk)} is not supported; "
                "write an unknown card as '??'"
            )
        try:
            out.append(parse_card(chunk))
        except CardError:
            raise _Invalid(f"malformed card {excerpt(chunk)} in {excerpt(text)}; {_CARD_HELP}") from None
    known = [c for c in out if c is not None]
    if len(set(known)) != len(known):
        dup = next(c for c in known if known.count(c) > 1)
        raise _Invalid(f"card {dup} appears twice in {excerpt(text)}")
    return tuple(out)


def parse_phh_cards(text: str) -> tuple[MaybeCard, ...]:
    """Parse PHH card notation: ``"Ac??"`` -> ``(Card('Ac'), None)``; ``""`` -> ``()``.

    Raises :class:`HandHistoryError` for a malformed card, an odd length or a repeated known card.
    """
    if not isinstance(text, str):
        raise HandHistoryError(f"PHH cards are text such as 'Ac??', not {excerpt(text)}.")
    try:
        return _parse_cards(text)
    except _Invalid as e:
        raise HandHistoryError(str(e)) from None


def format_phh_cards(cards: tuple[MaybeCard, ...]) -> str:
    """Concatenate cards in PHH notation, ``??`` for ``None``: the inverse of :func:`parse_phh_cards`."""
    return "".join("??" if c is None else str(c) for c in _card_tuple(cards))


def _with_commentary(body: str, commentary: str | None) -> str:
    if commentary is None:
        return body
    return f"{body} # {commentary}" if body else f"# {commentary}"


def _strip(commentary: str | None) -> str | None:
    if commentary is None:
        return None
    if not isinstance(commentary, str):
        raise HandHistoryError(f"An action's commentary is text or None, not {excerpt(commentary)}.")
    return commentary.strip()


@attrs.frozen
class DealHoleAction:
    """``d dh pN CARDS``: deal hole (down or up) cards to a player."""

    player: int
    cards: tuple[MaybeCard, ...] = attrs.field(converter=_cards)
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'d dh p1 Ac2d'``."""
        return _with_commentary(f"d dh p{self.player + 1} {format_phh_cards(self.cards)}", self.commentary)


@attrs.frozen
class DealBoardAction:
    """``d db CARDS``: deal community cards."""

    cards: tuple[MaybeCard, ...] = attrs.field(converter=_cards)
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'d db Jc3d5c'``."""
        return _with_commentary(f"d db {format_phh_cards(self.cards)}", self.commentary)


@attrs.frozen
class PostBringInAction:
    """``pN pb``: post the bring-in (stud games)."""

    player: int
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 pb'``."""
        return _with_commentary(f"p{self.player + 1} pb", self.commentary)


@attrs.frozen
class CompleteBetRaiseAction:
    """``pN cbr AMOUNT``: complete, bet or raise **to** ``amount`` (the street total)."""

    player: int
    amount: Number = attrs.field(converter=normalize_number)
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 cbr 7000'``."""
        return _with_commentary(f"p{self.player + 1} cbr {_format_number(self.amount)}", self.commentary)


@attrs.frozen
class CheckCallAction:
    """``pN cc``: check or call."""

    player: int
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 cc'``."""
        return _with_commentary(f"p{self.player + 1} cc", self.commentary)


@attrs.frozen
class FoldAction:
    """``pN f``: fold."""

    player: int
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 f'``."""
        return _with_commentary(f"p{self.player + 1} f", self.commentary)


@attrs.frozen
class StandPatDiscardAction:
    """``pN sd [CARDS]``: discard ``cards``; ``cards == ()`` means standing pat (draw games)."""

    player: int
    cards: tuple[MaybeCard, ...] = attrs.field(default=(), converter=_cards)
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    @property
    def stands_pat(self) -> bool:
        """True when no card is discarded."""
        return not self.cards

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 sd'`` or ``'p4 sd AsQs'``."""
        body = f"p{self.player + 1} sd"
        if self.cards:
            body += " " + format_phh_cards(self.cards)
        return _with_commentary(body, self.commentary)


@attrs.frozen
class ShowMuckAction:
    """``pN sm [CARDS]``: show ``cards`` at showdown, or muck.

    ``cards == ()`` mucks; ``cards is None`` is the text ``-`` (show the hole cards already dealt);
    items may be ``None`` for cards kept hidden (``??Ad``).
    """

    player: int
    cards: tuple[MaybeCard, ...] | None = attrs.field(default=(), converter=_cards_or_dash)
    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    @property
    def mucks(self) -> bool:
        """True when the player mucks (no cards)."""
        return self.cards == ()

    def to_text(self) -> str:
        """The canonical PHH line, e.g. ``'p1 sm Ac2d'``, ``'p1 sm -'`` or ``'p1 sm'``."""
        body = f"p{self.player + 1} sm"
        if self.cards is None:
            body += " -"
        elif self.cards:
            body += " " + format_phh_cards(self.cards)
        return _with_commentary(body, self.commentary)


@attrs.frozen
class NoOpAction:
    """An empty action line or a standalone ``# commentary``."""

    commentary: str | None = attrs.field(default=None, kw_only=True, converter=_strip)

    def to_text(self) -> str:
        """``''``, or ``'# commentary'``."""
        return _with_commentary("", self.commentary)


#: Any parsed action line.
Action: TypeAlias = (
    DealHoleAction
    | DealBoardAction
    | PostBringInAction
    | CompleteBetRaiseAction
    | CheckCallAction
    | FoldAction
    | StandPatDiscardAction
    | ShowMuckAction
    | NoOpAction
)

_PLAYER_CODES = "pb, cbr, cc, f, sd, sm"
_ARG_COUNTS = {"pb": (0, 0), "cbr": (1, 1), "cc": (0, 0), "f": (0, 0), "sd": (0, 1), "sm": (0, 1)}


def _player(token: str, player_count: int | None) -> int:
    m = _PLAYER.fullmatch(token)
    if m is None:
        raise _Invalid(f"bad player {excerpt(token)}; players are written p1, p2, ... (numbered from 1)")
    if len(m.group(1)) > MAX_DIGITS:
        raise _Invalid(f"player {excerpt(token)} is out of range; players are numbered with at most {MAX_DIGITS} "
                       "digits")
    number = int(m.group(1))
    if player_count is not None and number > player_count:
        raise _Invalid(f"player {token} is out of range; the hand has {player_count} players (p1-p{player_count})")
    return number - 1


def _amount(token: str) -> Number:
    if len(token) > _AMOUNT_CHARACTERS or _AMOUNT.fullmatch(token) is None:
        raise _Invalid(f"bad amount {excerpt(token)}; expected a positive number such as 7000 or 10112.5")
    value: Number = int(token) if is_ascii_int(token) else float(token)  # (more than 18 digits: a float)
    if not math.isfinite(value) or value <= 0:
        raise _Invalid(f"bad amount {excerpt(token)}; expected a positive finite number")
    if value >= 10**MAX_DIGITS:
        raise _Invalid(f"bad amount {excerpt(token)}; amounts have at most {MAX_DIGITS} digits")
    return normalize_number(value)


def _parse_action(text: str, player_count: int | None) -> Action:
    body, sep, comment = text.partition("#")
    commentary = comment.strip() if sep else None
    tokens = body.split()
    if not tokens:
        return NoOpAction(commentary=commentary)
    actor, rest = tokens[0], tokens[1:]
    if actor == "d":
        code = rest[0] if rest else ""
        if code == "dh":
            if len(rest) != 3:
                raise _Invalid("hole dealing takes a player and cards: 'd dh pN CARDS'")
            player = _player(rest[1], player_count)
            cards = _parse_cards(rest[2])
            return DealHoleAction(player, cards, commentary=commentary)
        if code == "db":
            if len(rest) != 2:
                raise _Invalid("board dealing takes cards: 'd db CARDS'")
            return DealBoardAction(_parse_cards(rest[1]), commentary=commentary)
        raise _Invalid(f"unknown dealer action {excerpt(code)}; expected 'dh' (deal hole) or 'db' (deal board)")
    if not actor.startswith("p"):
        raise _Invalid(f"unknown actor {excerpt(actor)}; expected 'd' (dealer) or 'pN' (player N)")
    player = _player(actor, player_count)
    if not rest:
        raise _Invalid(f"missing action code after {excerpt(actor)}; expected one of {_PLAYER_CODES}")
    code, args = rest[0], rest[1:]
    if code not in _ARG_COUNTS:
        raise _Invalid(f"unknown action code {excerpt(code)}; a player action is one of {_PLAYER_CODES}")
    low, high = _ARG_COUNTS[code]
    if not low <= len(args) <= high:
        want = {(0, 0): "no argument", (1, 1): "one argument", (0, 1): "at most one argument"}[(low, high)]
        raise _Invalid(f"{excerpt(code)} takes {want}, got {len(args)}")
    if code == "pb":
        return PostBringInAction(player, commentary=commentary)
    if code == "cbr":
        return CompleteBetRaiseAction(player, _amount(args[0]), commentary=commentary)
    if code == "cc":
        return CheckCallAction(player, commentary=commentary)
    if code == "f":
        return FoldAction(player, commentary=commentary)
    if code == "sd":
        return StandPatDiscardAction(player, _parse_cards(args[0]) if args else (), commentary=commentary)
    if args and args[0] == "-":
        return ShowMuckAction(player, None, commentary=commentary)
    return ShowMuckAction(player, _parse_cards(args[0]) if args else (), commentary=commentary)


def parse_action(text: str, *, player_count: int | None = None) -> Action:
    """Parse one PHH action line; with ``player_count``, players beyond it are rejected.

    Raises :class:`HandHistoryError` naming the line and the problem (unknown action code, bad
    player, malformed or repeated card, bad amount, wrong number of arguments).
    """
    if not isinstance(text, str):
        raise HandHistoryError(f"A PHH action line is text such as 'p1 cc', not {excerpt(text)}.")
    if player_count is not None:
        check_int(player_count, "player count", HandHistoryError, minimum=1)
    try:
        return _parse_action(text, player_count)
    except _Invalid as e:
        raise HandHistoryError(f"action {excerpt(text)}: {e}") from None
