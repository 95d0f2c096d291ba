"""JSON text (:func:`to_json`, :func:`to_compact_json`, :func:`from_json` with its depth limit) and
:class:`JsonObject`, which reads a saved object field by field with type checks."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from cardgame.model.cards import Card
from cardgame.model.inputs import excerpt, nests_deeper
from cardgame.store.serialize.converter import MAX_DEPTH, MAX_INT, SnapshotError, T, decode_cards, json_kind


def to_json(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text (a snapshot's: ASCII, the standard separators, ``indent`` if given)."""
    return json.dumps(data, indent=indent)


def to_compact_json(data: Any) -> str:
    """``data`` as compact JSON text (the event store's columns and lines: no spaces, text as it is)."""
    return _COMPACT(data)


#: The encoder of :func:`to_compact_json`, made once (``json.dumps`` makes one a call when told how to write).
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


#: A JSON string: brackets inside it do not nest.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


#: The decoder :func:`from_json` reads text with.
_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def from_json(text: str | bytes | bytearray) -> Any:
    """The data of the JSON ``text``; :class:`SnapshotError` with the parser's message if it is not JSON
    (``NaN`` and ``Infinity`` are not), or if it nests more than :data:`MAX_DEPTH` levels deep."""
    chars = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
    if nests_deeper(chars, MAX_DEPTH, _JSON_STRING):
        raise SnapshotError(f"the JSON nests more than {MAX_DEPTH} levels deep")
    try:
        if type(text) is str and not text.startswith("\ufeff"):
            data = _DECODER.decode(text)  # (json.loads would make a decoder a call)
        else:
            data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # (a backstop: nesting is bounded above)
        raise SnapshotError(f"the JSON nests more than {MAX_DEPTH} levels deep") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise SnapshotError(str(exc)) from None
    if chars.count("[") + chars.count("{") > MAX_DEPTH:  # (fewer brackets cannot nest deeper)
        check_depth(data, "the JSON")
    return data


def check_depth(data: Any, where: str, limit: int = MAX_DEPTH) -> None:
    """:class:`SnapshotError` if ``data`` (lists and dicts) nests more than ``limit`` levels deep;
    a loop (a list that holds itself) nests without end. Iterative: it never overflows the stack."""
    todo: list[tuple[Any, int]] = [(data, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, (list, tuple, Mapping)):
            if depth > limit:
                raise SnapshotError(f"{where} nests more than {limit} levels deep.")
            items = value.values() if isinstance(value, Mapping) else value
            todo.extend((v, depth + 1) for v in items if isinstance(v, (list, tuple, Mapping)))


class JsonObject:
    """A saved JSON object read with type checks; errors name the path (``context.hand.players[1].bet``)."""

    __slots__ = ("data", "where")

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise SnapshotError(f"{where} must be an object, not {json_kind(data)}.")
        self.data = data
        self.where = where

    def path(self, key: str) -> str:
        """The path of the field ``key``."""
        return f"{self.where}.{key}" if self.where else key

    def raw(self, key: str) -> Any:
        """The field ``key`` as it is (it must be present)."""
        if key not in self.data:
            raise SnapshotError(f"{self.path(key)} is missing.")
        return self.data[key]

    def _typed(self, key: str, kind: type[T], name: str, optional: bool) -> T | None:
        value = self.raw(key)
        if value is None and optional:
            return None
        if type(value) is not kind:
            raise SnapshotError(
                f"{self.path(key)} must be {name}{' or null' if optional else ''}, not {json_kind(value)}."
            )
        result: T = value
        return result

    def get_int(self, key: str, *, minimum: int | None = None, maximum: int = MAX_INT) -> int:
        """A whole number from ``minimum`` (default ``-MAX_INT``) to ``maximum`` (default :data:`MAX_INT`)."""
        value = self._typed(key, int, "a whole number", False)
        assert value is not None
        return self._bounded(self.path(key), value, minimum, maximum)

    def opt_int(self, key: str, *, minimum: int | None = None, maximum: int = MAX_INT) -> int | None:
        """A whole number (bounded as :meth:`get_int`) or null."""
        value = self._typed(key, int, "a whole number", True)
        return None if value is None else self._bounded(self.path(key), value, minimum, maximum)

    @staticmethod
    def _bounded(where: str, value: int, minimum: int | None, maximum: int) -> int:
        low = -MAX_INT if minimum is None else minimum
        if value < low:
            raise SnapshotError(f"{where} must be at least {low}, not {excerpt(value)}.")
        if value > maximum:
            raise SnapshotError(f"{where} must be at most {maximum}, not {excerpt(value)}.")
        return value

    def get_str(self, key: str) -> str:
        """Text."""
        value = self._typed(key, str, "text", False)
        assert value is not None
        return value

    def get_bool(self, key: str) -> bool:
        """True or false."""
        value = self._typed(key, bool, "true or false", False)
        assert value is not None
        return value

    def get_list(self, key: str) -> list[Any]:
        """A list."""
        value = self._typed(key, list, "a list", False)
        assert value is not None
        return value

    def get_int_list(self, key: str, *, minimum: int | None = None, maximum: int = MAX_INT) -> list[int]:
        """A list of whole numbers (each bounded as :meth:`get_int`)."""
        values = self.get_list(key)
        for i, v in enumerate(values):
            if type(v) is not int:
                raise SnapshotError(f"{self.path(key)}[{i}] must be a whole number, not {json_kind(v)}.")
            self._bounded(f"{self.path(key)}[{i}]", v, minimum, maximum)
        return values

    def get_cards(self, key: str) -> list[Card]:
        """A list of cards as text (:func:`decode_cards`)."""
        return decode_cards(self.raw(key), self.path(key))

    def obj(self, key: str) -> JsonObject:
        """The object in field ``key``."""
        return JsonObject(self.raw(key), self.path(key))

    def opt_obj(self, key: str) -> JsonObject | None:
        """The object in field ``key``, or ``None`` for null."""
        value = self.raw(key)
        return None if value is None else JsonObject(value, self.path(key))
