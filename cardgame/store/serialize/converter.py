"""The strict cattrs converter the store's JSON goes through, and plain JSON data: whole numbers of at
most 18 digits, finite numbers, cards as text (``"Ah"``); tuples and lists; what a JSON value is, for messages."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, TypeVar, cast

import cattrs

from cardgame.model.cards import Card, parse_card
from cardgame.model.errors import CardgameError
from cardgame.model.inputs import MAX_DIGITS, excerpt

T = TypeVar("T")


class SnapshotError(CardgameError, ValueError):
    """A snapshot (or a stored event) that cannot be written or read; the message says where."""


_converter = cattrs.Converter()


MAX_INT = 10**MAX_DIGITS - 1
"""The largest whole number saved data may hold (as :func:`cardgame.model.inputs.read_int` reads: 18 digits)."""

MAX_DEPTH = 100
"""How deeply saved data may nest (a snapshot nests about 8 levels deep)."""


def _strict(kind: type[T], name: str) -> Callable[[Any, Any], T]:
    def structure(value: Any, _type: Any) -> T:
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise TypeError(f"expected {name}, got {type(value).__name__} {excerpt(value)}")
        if kind is int and not -MAX_INT <= value <= MAX_INT:
            raise TypeError(f"expected {name} of at most {MAX_DIGITS} digits, got {excerpt(value)}")
        if kind is float and not math.isfinite(cast(float, value)):
            raise TypeError(f"expected a finite number, got {value!r}")
        return cast(T, value)

    return structure


def _structure_card(value: Any, _type: Any) -> Card:
    if not isinstance(value, str):
        raise TypeError(f"expected a card as text like 'Ah', got {type(value).__name__} {excerpt(value)}")
    return parse_card(value)


_FRACTION = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}(/[1-9][0-9]{{0,{MAX_DIGITS - 1}}})?")


def _structure_fraction(value: Any, _type: Any) -> Fraction:
    if not isinstance(value, str) or not _FRACTION.fullmatch(value):
        raise TypeError(f"expected an exact fraction as text like '5/2', got {type(value).__name__} {excerpt(value)}")
    return Fraction(value)


_converter.register_unstructure_hook(Card, str)
_converter.register_unstructure_hook(Fraction, str)  # exact, as text: "10/3", "5"
_converter.register_structure_hook(Fraction, _structure_fraction)
_converter.register_structure_hook(Card, _structure_card)
_converter.register_structure_hook(int, _strict(int, "a whole number"))
_converter.register_structure_hook(bool, _strict(bool, "true or false"))
_converter.register_structure_hook(str, _strict(str, "text"))
_converter.register_structure_hook(float, _strict(float, "a number"))


def to_plain(value: Any) -> Any:
    """``value`` with every tuple turned into a list, recursively (what ``json.loads`` returns)."""
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def _describe_error(exc: Exception, path: str = "$") -> str:
    """What ``exc`` says, short: at most the first three of cattrs' errors, and how many more there are."""
    if isinstance(exc, cattrs.BaseValidationError):
        errors = cattrs.transform_error(exc, path=path)
        more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
        return "; ".join(excerpt(e, 120).strip("'\"") if len(e) > 120 else e for e in errors[:3]) + more
    return f"{type(exc).__name__}: {excerpt(str(exc), 120)}"


def to_tuples(data: Any) -> Any:
    """``data`` with every list turned into a tuple, recursively (undoes :func:`to_plain`)."""
    return tuple(to_tuples(v) for v in data) if isinstance(data, list) else data


def unstructure(record: Any) -> Any:
    """An attrs record (or a tuple of them, cards...) as plain JSON data, without a type tag."""
    return to_plain(_converter.unstructure(record))


def structure(data: Any, kind: Any, where: str) -> Any:
    """``data`` (plain JSON data) as a ``kind`` (e.g. ``tuple[tuple[int, int], ...]``), strictly typed.

    :class:`SnapshotError` names the first bad item by its path under ``where``.
    """
    try:
        return _converter.structure(data, kind)
    except cattrs.BaseValidationError as exc:
        raise SnapshotError(_describe_error(exc, where)) from None
    except (CardgameError, TypeError, ValueError, KeyError) as exc:
        raise SnapshotError(f"{where}: {type(exc).__name__}: {exc}") from None


def json_kind(value: Any) -> str:
    """What a JSON value is, for messages: ``null``, ``a number``, ``the text 'x'``, ``a list``..."""
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: f"the text {excerpt(value)}",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def encode_cards(cards: Iterable[int]) -> list[str]:
    """Cards (or card indices) as text: ``["Ah", "Kd"]``."""
    return [_converter.unstructure(Card(c), Card) for c in cards]


def decode_cards(data: Any, where: str) -> list[Card]:
    """The cards of :func:`encode_cards`."""
    if type(data) is not list:
        raise SnapshotError(f"{where} must be a list, not {json_kind(data)}.")
    out: list[Card] = []
    for i, text in enumerate(data):
        if not isinstance(text, str):
            raise SnapshotError(f"{where}[{i}] must be a card as text like 'Ah', not {json_kind(text)}.")
        try:
            out.append(_converter.structure(text, Card))
        except CardgameError as exc:
            raise SnapshotError(f"{where}[{i}]: {exc}") from None
    return out
