"""JSON encoding of the library's values, shared by snapshots and the event store.

Conventions:

* Cards are text, ``"Ah"`` (never integers), so a saved game or log reads like a hand history.
* An attrs record (an event, a stage result such as ``HandOpened`` or ``BettingResult``) is a
  JSON object of its fields plus a ``"type"`` tag: the class name for the library's own records
  (``{"type": "HandStarted", "hand": 3, ...}``), ``"module:QualName"`` for any other attrs class.
  Decoding looks a tag up among registered classes and modules *already imported*; it never
  imports a module named by the data.
* Other values (a stage's runtime field, ``Done.result``) use :func:`encode_value`: JSON scalars
  and lists as they are, tuples as ``{"type": "tuple", "items": [...]}``, dicts as
  ``{"type": "dict", "items": [[key, value], ...]}``, a card as ``{"type": "card", "value": "Ah"}``.

Every malformed input raises :class:`SnapshotError` naming where it is (``log[12].cards[0]``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import attrs
import cattrs

from cardgame import events as events_module
from cardgame.cards import Card, parse_card
from cardgame.errors import CardError, CardgameError
from cardgame.events import Event
from cardgame.stages import (
    BettingResult,
    BringInResult,
    DrawOptions,
    ForcedBetsResult,
    HandOpened,
    RunOptions,
    ShowdownResult,
)

__all__ = [
    "SnapshotError",
    "decode_event",
    "decode_record",
    "decode_value",
    "encode_event",
    "encode_record",
    "encode_value",
    "register_type",
    "to_plain",
    "type_tag",
]

T = TypeVar("T")


class SnapshotError(CardgameError, ValueError):
    """A snapshot (or a stored event) that cannot be written or read; the message says where."""


_converter = cattrs.Converter()


def _strict(kind: type[T], name: str) -> Callable[[Any, Any], T]:
    def structure(value: Any, _type: Any) -> T:
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise TypeError(f"expected {name}, got {type(value).__name__} {value!r}")
        return cast(T, value)

    return structure


def _structure_card(value: Any, _type: Any) -> Card:
    if not isinstance(value, str):
        raise TypeError(f"expected a card as text like 'Ah', got {type(value).__name__} {value!r}")
    return parse_card(value)


_converter.register_unstructure_hook(Card, str)
_converter.register_structure_hook(Card, _structure_card)
_converter.register_structure_hook(int, _strict(int, "a whole number"))
_converter.register_structure_hook(bool, _strict(bool, "true or false"))
_converter.register_structure_hook(str, _strict(str, "text"))
_converter.register_structure_hook(float, _strict(float, "a number"))

# --- the type registry ----------------------------------------------------------------------------

_BY_TAG: dict[str, type] = {}
_TAG_OF: dict[type, str] = {}
_GENERIC_TAGS = frozenset({"card", "tuple", "dict"})


def register_type(cls: type, tag: str | None = None) -> type:
    """Let records of the attrs class ``cls`` be saved under ``tag`` (default: the class name)."""
    if not attrs.has(cls):
        raise SnapshotError(f"{cls.__qualname__} is not an attrs class; only attrs records can be registered.")
    tag = tag or cls.__name__
    if "type" in attrs.fields_dict(cls):
        raise SnapshotError(f"{cls.__qualname__} has a field named 'type', which clashes with the type tag.")
    known = _BY_TAG.get(tag)
    if tag in _GENERIC_TAGS or (known is not None and known is not cls):
        raise SnapshotError(f"The type tag {tag!r} is already used; pass another tag for {cls.__qualname__}.")
    _BY_TAG[tag] = cls
    _TAG_OF[cls] = tag
    return cls


def _register_events() -> None:
    """Register every event class defined in :mod:`cardgame.events` under its class name.

    Reads the module's namespace, not ``Event.__subclasses__()``: attrs slotted classes leave
    their pre-slots twin among the subclasses until it is garbage-collected.
    """
    for value in list(vars(events_module).values()):
        if (isinstance(value, type) and issubclass(value, Event) and value is not Event
                and value.__module__ == events_module.__name__ and value not in _TAG_OF):
            register_type(value)


_register_events()
for _cls in (HandOpened, BettingResult, ForcedBetsResult, BringInResult, ShowdownResult, DrawOptions, RunOptions):
    register_type(_cls)


def type_tag(cls: type) -> str:
    """The tag records of ``cls`` are saved under."""
    tag = _TAG_OF.get(cls)
    if tag is None:
        _register_events()
        tag = _TAG_OF.get(cls)
    return tag if tag is not None else f"{cls.__module__}:{cls.__qualname__}"


def _class_of(tag: Any, where: str) -> type:
    if not isinstance(tag, str):
        raise SnapshotError(f"{where}: the type tag must be text, not {tag!r}.")
    cls = _BY_TAG.get(tag)
    if cls is None:
        _register_events()
        cls = _BY_TAG.get(tag)
    if cls is None and ":" in tag:
        module_name, _, qualname = tag.partition(":")
        found: Any = sys.modules.get(module_name)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if isinstance(found, type) and attrs.has(found):
            cls = found
    if cls is None:
        raise SnapshotError(
            f"{where}: unknown record type {tag!r}; it is neither a library record nor an attrs class "
            "of an imported module (import the module that defines it, or register_type it)."
        )
    return cls


# --- encoding ---------------------------------------------------------------------------------


def to_plain(value: Any) -> Any:
    """``value`` with every tuple turned into a list, recursively (what ``json.loads`` returns)."""
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


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


def _describe_error(exc: Exception) -> str:
    if isinstance(exc, (cattrs.BaseValidationError)):
        return "; ".join(cattrs.transform_error(exc, path="$"))
    return f"{type(exc).__name__}: {exc}"


def decode_record(data: Any, where: str = "record", base: type[T] | None = None) -> T:
    """The attrs record encoded by :func:`encode_record`; ``base`` checks its class."""
    if not isinstance(data, Mapping):
        raise SnapshotError(f"{where} must be an object with a 'type' tag, not {type(data).__name__}.")
    cls = _class_of(data.get("type"), where)
    if base is not None and not issubclass(cls, base):
        raise SnapshotError(f"{where}: {data.get('type')!r} is not a {base.__name__}.")
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
                out[key] = decode_value(pair[1], f"{where}[{key!r}]")
            except TypeError:
                raise SnapshotError(f"{where}.items[{i}]: the key {key!r} cannot be a dict key.") from None
        return out
    return decode_record(data, where)
