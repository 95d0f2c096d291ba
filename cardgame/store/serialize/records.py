"""Records and values as tagged JSON data: :func:`encode_record` (an attrs record and its tag),
:func:`encode_value` (JSON scalars, lists, tuples, dicts, cards and records), and their decoders."""

from __future__ import annotations

import itertools
import json
import keyword
import math
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs

from cardgame.model.cards import CARDS, Card
from cardgame.model.errors import CardError, CardgameError
from cardgame.model.events import Event
from cardgame.model.inputs import MAX_DIGITS, excerpt
from cardgame.store.serialize.converter import (
    MAX_INT,
    SnapshotError,
    T,
    _converter,
    _describe_error,
    _structure_card,
    to_plain,
)
from cardgame.store.serialize.jsontext import to_compact_json
from cardgame.store.serialize.registry import _class_of, type_tag

# --- encoding ---------------------------------------------------------------------------------


def encode_record(record: Any) -> dict[str, Any]:
    """An attrs record as a JSON object with a ``"type"`` tag (cards as text)."""
    cls = type(record)
    if not attrs.has(cls):
        raise SnapshotError(f"{cls.__qualname__} is not an attrs record and cannot be saved.")
    fields = to_plain(_converter.unstructure(record))
    if "type" in fields:
        raise SnapshotError(f"{cls.__qualname__} has a field named 'type', which clashes with the type tag.")
    return {"type": type_tag(cls), **fields}


def encode_event(event: Event) -> dict[str, Any]:
    """An event as a tagged JSON object: ``{"type": "ActionTaken", "seat": 2, ...}``."""
    return encode_record(event)


#: The newest events :func:`encoded` encoded, by identity (each kept alive, so no id is reused while here):
#: ``[event, its data, its compact JSON text or None until asked for]``.
_ENCODED: dict[int, list[Any]] = {}
_ENCODED_LIMIT = 1024
#: The ids of :data:`_ENCODED`'s entries in a ring of its size: the slot the next entry takes holds the
#: oldest's id, dropped first. (Dropping a dict's first key instead walks past every slot that earlier
#: deletions emptied: 0.7 µs an entry, against 0.2.)
_ORDER: list[int] = [0] * _ENCODED_LIMIT
_SLOTS = itertools.cycle(range(_ENCODED_LIMIT))


#: How each field of a record of plain fields is encoded (:func:`_plain_fields`), by class; ``None``:
#: a class with another field, encoded by :func:`encode_record`.
_PLAIN: dict[type, tuple[str, tuple[tuple[str, int], ...]] | None] = {}
_SCALAR, _CARDS, _LIST, _PAIRS = range(4)
_SCALARS = frozenset({int, str, bool, float, int | None, str | None, bool | None, float | None})
_FIELD_KINDS = {tuple[Card, ...]: _CARDS, tuple[Card | None, ...]: _CARDS, tuple[int, ...]: _LIST,
                tuple[bool, ...]: _LIST, tuple[str, ...]: _LIST, tuple[tuple[int, int], ...]: _PAIRS}


def _plain_fields(cls: type) -> tuple[str, tuple[tuple[str, int], ...]] | None:
    """The type tag and the fields' encodings of an attrs record whose every field is a scalar, a tuple
    of cards (or hidden cards), of scalars, or of pairs of whole numbers (every event of the model), as
    :func:`encode_record` would encode them; ``None`` for any other."""
    if cls in _PLAIN:
        return _PLAIN[cls]
    plan: tuple[str, tuple[tuple[str, int], ...]] | None = None
    try:
        hints = typing.get_type_hints(cls)
        fields = attrs.fields(cls)
        kinds = tuple((f.name, _SCALAR if hints[f.name] in _SCALARS else _FIELD_KINDS[hints[f.name]]) for f in fields)
        if "type" not in {f.name for f in fields}:
            plan = type_tag(cls), kinds
    except (KeyError, TypeError, NameError, CardgameError):
        plan = None
    _PLAIN[cls] = plan
    return plan


def _encode_plain(record: Any, plan: tuple[str, tuple[tuple[str, int], ...]]) -> dict[str, Any] | None:
    """``record`` encoded by its ``plan``; ``None`` if a value is not of its field's declared kind."""
    tag, kinds = plan
    data: dict[str, Any] = {"type": tag}
    for name, kind in kinds:
        value = getattr(record, name)
        if kind == _SCALAR:
            if type(value) not in _SCALAR_TYPES:
                return None
        elif type(value) is not tuple:
            return None
        elif kind == _CARDS:
            if not all(type(c) is Card or c is None for c in value):
                return None
            value = [None if c is None else _CARD_TEXT[c] for c in value]
        elif kind == _LIST:
            if not all(type(v) in _SCALAR_TYPES for v in value):
                return None
            value = list(value)
        else:
            if not all(type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is int for v in value):
                return None
            value = [list(v) for v in value]
        data[name] = value
    return data


_SCALAR_TYPES = frozenset({int, str, bool, float, type(None)})
_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)


def _entry(event: Event) -> list[Any]:
    """The cache entry of ``event``: ``[event, its data or None, its compact JSON text or None]``."""
    found = _ENCODED.get(id(event))
    if found is not None and found[0] is event:
        return found
    return _new_entry(event)


def _new_entry(event: Event) -> list[Any]:
    """A new cache entry of ``event`` (none is kept for it)."""
    entry = [event, None, None]
    slot = next(_SLOTS)
    _ENCODED.pop(_ORDER[slot], None)
    _ORDER[slot] = key = id(event)
    _ENCODED[key] = entry
    return entry


def _data(event: Event) -> dict[str, Any]:
    plan = _plain_fields(type(event))
    data = _encode_plain(event, plan) if plan is not None else None
    return encode_record(event) if data is None else data


def encoded(event: Event) -> dict[str, Any]:
    """:func:`encode_event` of ``event``, made once for the recorder and every view that shows the same
    event object (the newest :data:`_ENCODED_LIMIT` are kept). The result is shared: do not change it."""
    entry = _entry(event)
    if entry[1] is None:
        entry[1] = _data(event)
    data: dict[str, Any] = entry[1]
    return data


def encoded_json(event: Event) -> str:
    """:func:`encoded` as compact JSON text (:func:`to_compact_json`), made once for the store's row and
    every view that shows the same event object. An event of plain fields (every event of the model) is
    written as text directly, by a function made for its class (:func:`_text_writer`), without the data."""
    entry = _ENCODED.get(id(event))
    if entry is None or entry[0] is not event:
        entry = _new_entry(event)
    text: str | None = entry[2]
    if text is None:
        writer = _WRITERS.get(type(event), _UNKNOWN)
        if writer is _UNKNOWN:
            writer = _text_writer(type(event))
        if writer is not None:
            try:
                text = writer(event)
            except _NotPlain:
                text = None
        if text is None:
            if entry[1] is None:
                entry[1] = _data(event)
            text = to_compact_json(entry[1])
        entry[2] = text
    return text


class _NotPlain(Exception):
    """A value that is not of its field's declared kind: the event is encoded the general way."""


def _scalar_text(value: Any) -> str:
    """A scalar field's JSON text, as :func:`to_compact_json` writes it."""
    write = _SCALAR_TEXT.get(type(value))
    if write is None:
        raise _NotPlain
    return write(value)


def _float_text(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _list_text(value: Any) -> str:
    if type(value) is not tuple:
        raise _NotPlain
    return "[" + ",".join([_scalar_text(v) for v in value]) + "]"


def _card_text(card: Any) -> str:
    if type(card) is Card:
        return _CARD_JSON[card]
    if card is None:
        return "null"
    raise _NotPlain


def _cards_text(value: Any) -> str:
    if type(value) is not tuple:
        raise _NotPlain
    return "[" + ",".join([_card_text(c) for c in value]) + "]"


def _pair_text(pair: Any) -> str:
    if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not int or type(pair[1]) is not int:
        raise _NotPlain
    return f"[{int.__repr__(pair[0])},{int.__repr__(pair[1])}]"


def _pairs_text(value: Any) -> str:
    if type(value) is not tuple:
        raise _NotPlain
    return "[" + ",".join([_pair_text(p) for p in value]) + "]"


_SCALAR_TEXT: dict[type, Callable[[Any], str]] = {
    int: int.__repr__, str: json.encoder.encode_basestring, bool: lambda b: "true" if b else "false",
    float: _float_text, type(None): lambda _: "null"}
_KIND_TEXT = {_SCALAR: _scalar_text, _CARDS: _cards_text, _LIST: _list_text, _PAIRS: _pairs_text}
_CARD_JSON: tuple[str, ...] = tuple(f'"{c}"' for c in _CARD_TEXT)
#: Each class's text writer (:func:`_text_writer`); ``None``: a class that is not of plain fields.
_WRITERS: dict[type, Callable[[Any], str] | None] = {}
_UNKNOWN: Any = object()


def _text_writer(cls: type) -> Callable[[Any], str] | None:
    """A function writing a record of class ``cls`` (of plain fields: :func:`_plain_fields`) as the JSON
    text :func:`to_compact_json` makes of :func:`_encode_plain`'s data, in one expression; it raises
    :class:`_NotPlain` for a value not of its field's kind. ``None`` for a class of other fields."""
    plan = _plain_fields(cls)
    writer: Callable[[Any], str] | None = None
    if plan is not None and all(name.isidentifier() and not keyword.iskeyword(name) for name, _ in plan[1]):
        tag, kinds = plan
        hints = typing.get_type_hints(cls)
        head = '{"type":' + json.encoder.encode_basestring(tag)
        parts = [repr(head)]
        scope: dict[str, Any] = {"int_text": int.__repr__, "str_text": json.encoder.encode_basestring}
        for i, (name, kind) in enumerate(kinds):
            scope[f"w{i}"] = _KIND_TEXT[kind]
            value = f"w{i}(r.{name})"
            if kind == _SCALAR and hints[name] in (int, int | None):  # the common case inline, the others by w
                value = f"(int_text(r.{name}) if type(r.{name}) is int else {value})"
            elif kind == _SCALAR and hints[name] in (str, str | None):
                value = f"(str_text(r.{name}) if type(r.{name}) is str else {value})"
            parts += [repr("," + json.encoder.encode_basestring(name) + ":"), value]
        parts.append(repr("}"))
        exec(f"def write(r):\n    return {' + '.join(parts)}\n", scope)  # the names are identifiers (checked)
        writer = scope["write"]
    _WRITERS[cls] = writer
    return writer


def encode_value(value: Any, where: str = "value") -> Any:
    """Any saveable value (JSON scalars, lists, tuples, dicts, cards, attrs records) as JSON data."""
    if value is None or isinstance(value, (bool, str, float)):
        return value
    if isinstance(value, Card):
        return {"type": "card", "value": str(value)}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, list):
        return [encode_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, tuple):
        return {"type": "tuple", "items": [encode_value(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, dict):
        return {"type": "dict", "items": [[encode_value(k, f"{where} key"), encode_value(v, f"{where}[{k!r}]")]
                                          for k, v in value.items()]}
    if attrs.has(type(value)):
        return encode_record(value)
    raise SnapshotError(
        f"{where}: a {type(value).__qualname__} cannot be saved; saveable are None, bool, int, float, str, "
        "list, tuple, dict, cards and attrs records."
    )


# --- decoding ---------------------------------------------------------------------------------


def decode_record(data: Any, where: str = "record", base: type[T] | None = None) -> T:
    """The attrs record encoded by :func:`encode_record`; ``base`` checks its class."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"{where} must be an object with a 'type' tag, not {type(data).__name__}.")
    cls = _class_of(data.get("type"), where)
    if base is not None and not issubclass(cls, base):
        raise SnapshotError(f"{where}: {excerpt(data.get('type'))} is not a {base.__name__}.")
    fields = {k: v for k, v in data.items() if k != "type"}
    names = {a.name for a in attrs.fields(cls) if a.init}
    extra = sorted(set(fields) - names)
    if extra:
        raise SnapshotError(f"{where}: {cls.__name__} has no field {', '.join(map(repr, extra))}.")
    try:
        record: T = _converter.structure(fields, cls)
    except (cattrs.BaseValidationError, CardError, CardgameError, TypeError, ValueError, KeyError) as exc:
        raise SnapshotError(f"{where}: not a valid {cls.__name__}: {_describe_error(exc)}") from None
    return record


def decode_event(data: Any, where: str = "event") -> Event:
    """The event encoded by :func:`encode_event`."""
    return decode_record(data, where, Event)


def decode_value(data: Any, where: str = "value") -> Any:
    """The value encoded by :func:`encode_value`."""
    if type(data) is float and not math.isfinite(data):
        raise SnapshotError(f"{where}: {data} is not a finite number.")
    if type(data) is int and not -MAX_INT <= data <= MAX_INT:
        raise SnapshotError(f"{where}: {excerpt(data)} has more than {MAX_DIGITS} digits.")
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if isinstance(data, list):
        return [decode_value(v, f"{where}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, Mapping):
        raise SnapshotError(f"{where}: {type(data).__name__} is not valid saved data.")
    tag = data.get("type")
    if tag == "card":
        try:
            return _structure_card(data.get("value"), Card)
        except (TypeError, CardError) as exc:
            raise SnapshotError(f"{where}: {exc}") from None
    if tag in ("tuple", "dict"):
        items = data.get("items")
        if not isinstance(items, list):
            raise SnapshotError(f"{where}: a saved {tag} needs a list of 'items'.")
        if tag == "tuple":
            return tuple(decode_value(v, f"{where}[{i}]") for i, v in enumerate(items))
        out: dict[Any, Any] = {}
        for i, pair in enumerate(items):
            if not isinstance(pair, list) or len(pair) != 2:
                raise SnapshotError(f"{where}.items[{i}] must be a [key, value] pair.")
            key = decode_value(pair[0], f"{where}.items[{i}] key")
            try:
                out[key] = decode_value(pair[1], f"{where}[{excerpt(key)}]")
            except TypeError:
                raise SnapshotError(f"{where}.items[{i}]: the key {excerpt(key)} cannot be a dict key.") from None
        return out
    return decode_record(data, where)
