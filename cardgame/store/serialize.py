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

* The game's own values have fixed encodings here too, used by snapshots and the event store
  alike: card lists (:func:`encode_cards`), players and tables, deck specifications, random generator
  states, stage outcomes, and JSON text itself (:func:`to_json`, :func:`to_compact_json`,
  :func:`from_json`). :class:`JsonObject` reads saved objects field by field with type checks.

Every malformed input raises :class:`SnapshotError` naming where it is (``log[12].cards[0]``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

import attrs
import cattrs

from cardgame.engine import Done, Exit, Failed, Goto, Outcome, Restart
from cardgame.model import events as events_module
from cardgame.model.cards import Card, parse_card
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import CardError, CardgameError
from cardgame.model.events import Event
from cardgame.model.inputs import MAX_DIGITS, excerpt
from cardgame.model.player import Player
from cardgame.model.rng import RandomSource
from cardgame.model.street import StreetRecord
from cardgame.model.table import Table
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
    "MAX_DEPTH",
    "MAX_INT",
    "JsonObject",
    "SnapshotError",
    "check_depth",
    "decode_cards",
    "decode_deck_spec",
    "decode_event",
    "decode_failed",
    "decode_outcome",
    "decode_player",
    "decode_record",
    "decode_rng",
    "decode_table",
    "decode_value",
    "encode_cards",
    "encode_deck_spec",
    "encode_event",
    "encode_failed",
    "encode_outcome",
    "encode_player",
    "encode_record",
    "encode_rng",
    "encode_table",
    "encode_value",
    "encoded",
    "from_json",
    "json_kind",
    "register_type",
    "structure",
    "to_compact_json",
    "to_json",
    "to_plain",
    "to_tuples",
    "type_tag",
    "unstructure",
]

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


_EVENT_MODULES = (events_module.__name__, Event.__module__)


def _register_events() -> None:
    """Register every event class :mod:`cardgame.model.events` offers (its own and the kernel's) under its
    class name.

    Reads the module's namespace, not ``Event.__subclasses__()``: attrs slotted classes leave
    their pre-slots twin among the subclasses until it is garbage-collected.
    """
    for value in list(vars(events_module).values()):
        if (isinstance(value, type) and issubclass(value, Event) and value is not Event
                and value.__module__ in _EVENT_MODULES and value not in _TAG_OF):
            register_type(value)


_register_events()
for _cls in (HandOpened, BettingResult, ForcedBetsResult, BringInResult, ShowdownResult, DrawOptions, RunOptions,
             StreetRecord):
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
        raise SnapshotError(f"{where}: the type tag must be text, not {excerpt(tag)}.")
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
            f"{where}: unknown record type {excerpt(tag)}; it is neither a library record nor an attrs class "
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


#: The newest events :func:`encoded` encoded, by identity (each kept alive, so no id is reused while here).
_ENCODED: dict[int, tuple[Event, dict[str, Any]]] = {}
_ENCODED_LIMIT = 1024


def encoded(event: Event) -> dict[str, Any]:
    """:func:`encode_event` of ``event``, made once for the recorder and every view that shows the same
    event object (the newest :data:`_ENCODED_LIMIT` are kept). The result is shared: do not change it."""
    found = _ENCODED.get(id(event))
    if found is not None and found[0] is event:
        return found[1]
    data = encode_record(event)
    if len(_ENCODED) >= _ENCODED_LIMIT:
        del _ENCODED[next(iter(_ENCODED))]
    _ENCODED[id(event)] = (event, data)
    return data


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


def _describe_error(exc: Exception, path: str = "$") -> str:
    """What ``exc`` says, short: at most the first three of cattrs' errors, and how many more there are."""
    if isinstance(exc, cattrs.BaseValidationError):
        errors = cattrs.transform_error(exc, path=path)
        more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
        return "; ".join(excerpt(e, 120).strip("'\"") if len(e) > 120 else e for e in errors[:3]) + more
    return f"{type(exc).__name__}: {excerpt(str(exc), 120)}"


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


# --- JSON text and plain data ----------------------------------------------------------------------


def to_json(data: Any, *, indent: int | None = None) -> str:
    """``data`` as JSON text (a snapshot's: ASCII, the standard separators, ``indent`` if given)."""
    return json.dumps(data, indent=indent)


def to_compact_json(data: Any) -> str:
    """``data`` as compact JSON text (the event store's columns and lines: no spaces, text as it is)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def from_json(text: str | bytes | bytearray) -> Any:
    """The data of the JSON ``text``; :class:`SnapshotError` with the parser's message if it is not JSON
    (``NaN`` and ``Infinity`` are not), or if it nests more than :data:`MAX_DEPTH` levels deep."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise SnapshotError(f"the JSON nests more than {MAX_DEPTH} levels deep") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise SnapshotError(str(exc)) from None
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


# --- the game's values ----------------------------------------------------------------------------


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


def encode_player(player: Player) -> dict[str, Any]:
    """A seated player: ``{"name", "seat", "stack", "sitting_out", "leaving"}``."""
    return {"name": player.name, "seat": player.seat, "stack": player.stack, "sitting_out": player.sitting_out,
            "leaving": player.leaving}


def decode_player(data: Any, where: str) -> Player:
    """The player of :func:`encode_player`."""
    o = JsonObject(data, where)
    return Player(o.get_str("name"), o.get_int("seat", minimum=0), o.get_int("stack", minimum=0),
                  o.get_bool("sitting_out"), o.get_bool("leaving"))


def encode_table(table: Table) -> dict[str, Any]:
    """A table: its configuration, the button, and every seat (null or :func:`encode_player`)."""
    return {
        "seat_count": table.seat_count,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "first_button": table.first_button,
        "button": table.button,
        "seats": [None if p is None else encode_player(p) for p in table.seats],
    }


def decode_table(data: Any, where: str) -> Table:
    """The table of :func:`encode_table`: one entry per seat, each player in its own seat, no name twice."""
    o = JsonObject(data, where)
    seats = o.get_list("seats")
    seat_count = o.get_int("seat_count", minimum=2)
    if len(seats) != seat_count:  # checked first: the list bounds the seats a table is made with
        raise SnapshotError(f"{o.path('seats')} lists {len(seats)} seats but seat_count is {seat_count}.")
    min_buy_in, max_buy_in = o.get_int("min_buy_in", minimum=1), o.get_int("max_buy_in", minimum=1)
    first_button = o.opt_int("first_button", minimum=0, maximum=seat_count - 1)
    try:
        table = Table(seat_count, min_buy_in, max_buy_in, first_button)
    except CardgameError as exc:
        raise SnapshotError(f"{where}: {exc}") from None
    table.button = o.opt_int("button", minimum=0, maximum=seat_count - 1)
    names: set[str] = set()
    for i, raw in enumerate(seats):
        if raw is None:
            continue
        p = decode_player(raw, f"{o.path('seats')}[{i}]")
        if p.seat != i:
            raise SnapshotError(f"{o.path('seats')}[{i}] holds a player whose seat is {p.seat}.")
        if p.name in names:
            raise SnapshotError(f"{o.path('seats')}[{i}]: the name {excerpt(p.name)} is seated twice.")
        names.add(p.name)
        table.seats[i] = p
    return table


def encode_deck_spec(spec: DeckSpec) -> dict[str, Any]:
    """A deck specification: ``{"ranks": "23456789TJQKA", "suits": "cdhs"}``."""
    data: dict[str, Any] = _converter.unstructure(spec)
    return data


def decode_deck_spec(data: Any, where: str) -> DeckSpec:
    """The deck specification of :func:`encode_deck_spec` (both fields required)."""
    o = JsonObject(data, where)
    ranks, suits = o.get_str("ranks"), o.get_str("suits")
    try:
        return DeckSpec(ranks, suits)
    except CardgameError as exc:
        raise SnapshotError(f"{where}: {exc}") from None


def encode_rng(rng: RandomSource) -> dict[str, Any]:
    """A random source: its seed, the deck generator's full state (tuples as lists) and each bot
    stream's, by label. An unseeded source (the operating system's) has none: ``{"seed": null,
    "state": null}``, and restoring it deals from the operating system again."""
    if rng.seed is None:
        return {"seed": None, "state": None}
    data: dict[str, Any] = {"seed": rng.seed, "state": to_plain(rng.getstate())}
    streams = rng.streams
    if streams:
        data["streams"] = {label: to_plain(gen.getstate()) for label, gen in sorted(streams.items())}
    return data


#: Digits a random source's seed may have (``RandomSource()`` draws 64 bits: 20 digits).
_SEED_DIGITS = 40
#: ``random.Random.getstate()``: version 3, 624 words of 32 bits and the position in them, the
#: cached Gaussian (``None`` or a number).
_MT_WORDS = 624


def decode_rng(data: Any, where: str) -> RandomSource:
    """The random source of :func:`encode_rng`, in the same state (its bot streams too); a null
    seed gives a new unseeded source (the operating system's).

    Each state must have the shape ``random.Random.getstate()`` gives: ``[3, [624 words of 32 bits,
    a position 0 to 624], null or a number]``.
    """
    o = JsonObject(data, where)
    if o.raw("seed") is None:
        if o.raw("state") is not None:
            raise SnapshotError(f"{o.path('state')} must be null when the seed is null (an unseeded game has no "
                                "generator state).")
        return RandomSource()
    seed = o.get_int("seed", maximum=10**_SEED_DIGITS - 1, minimum=1 - 10**_SEED_DIGITS)
    rng = RandomSource(seed)
    rng.setstate(_mt_state(o.get_list("state"), o.path("state")))
    raw_streams = o.raw("streams") if "streams" in o.data else {}
    if not isinstance(raw_streams, dict) or not all(isinstance(k, str) for k in raw_streams):
        raise SnapshotError(f"{o.path('streams')} must be an object of generator states by label.")
    for label, value in raw_streams.items():
        path = f"{o.path('streams')}.{label}"
        if not isinstance(value, list):
            raise SnapshotError(f"{path} must be a generator state (a list), not {json_kind(value)}.")
        rng.stream(label).setstate(_mt_state(value, path))
    return rng


def _mt_state(state: list[Any], path: str) -> tuple[Any, ...]:
    """The ``random.Random`` state saved at ``path``, checked."""
    words = state[1] if len(state) == 3 else None
    if (state[:1] != [3] or type(state[0]) is not int or type(words) is not list or len(words) != _MT_WORDS + 1
            or any(type(w) is not int for w in words)):
        raise SnapshotError(f"{path} is not a valid random generator state: it must be [3, [{_MT_WORDS} words and a "
                            "position], null or a number].")
    if not all(0 <= w < 2**32 for w in words[:-1]) or not 0 <= words[-1] <= _MT_WORDS:
        raise SnapshotError(f"{path} is not a valid random generator state: each word must be 0 to 2**32 - 1 and "
                            f"the position 0 to {_MT_WORDS}.")
    gauss = state[2]
    if gauss is not None and (type(gauss) not in (int, float) or not math.isfinite(gauss)):
        raise SnapshotError(f"{path}[2] (the cached Gaussian) must be null or a number, not {json_kind(gauss)}.")
    return (3, tuple(words), None if gauss is None else float(gauss))


def encode_failed(failed: Failed) -> dict[str, Any]:
    """A failure: ``{"reason", "stage", "state"}``."""
    data: dict[str, Any] = _converter.unstructure(failed)
    return data


def decode_failed(data: Any, where: str) -> Failed:
    """The failure of :func:`encode_failed` (other fields, such as an outcome's type, are ignored)."""
    o = JsonObject(data, where)
    return Failed(o.get_str("reason"), o.get_str("stage"), o.get_str("state"))


def encode_outcome(outcome: Outcome | None, where: str = "outcome") -> dict[str, Any] | None:
    """A stage outcome: ``{"type": "done", "result": ...}`` (the result by :func:`encode_value`),
    ``{"type": "goto", "stage": ..., "result": ...}``, ``{"type": "restart"}``, ``{"type": "exit"}``
    or ``{"type": "failed", "reason", "stage", "state"}``."""
    if outcome is None:
        return None
    kind = type(outcome)
    if kind is Done:
        return {"type": "done", "result": encode_value(cast(Done, outcome).result, f"{where}.result")}
    if kind is Goto:
        goto = cast(Goto, outcome)
        return {"type": "goto", "stage": goto.stage, "result": encode_value(goto.result, f"{where}.result")}
    if kind is Restart:
        return {"type": "restart"}
    if kind is Exit:
        return {"type": "exit"}
    if kind is Failed:
        return {"type": "failed", **encode_failed(cast(Failed, outcome))}
    raise SnapshotError(f"{where}: unknown outcome {outcome!r}.")


def decode_outcome(data: Any, where: str = "outcome") -> Outcome | None:
    """The outcome of :func:`encode_outcome`."""
    if data is None:
        return None
    o = JsonObject(data, where)
    kind = o.raw("type")
    if kind == "done":
        return Done(decode_value(o.raw("result"), o.path("result")))
    if kind == "goto":
        return Goto(o.get_str("stage"), decode_value(o.raw("result"), o.path("result")))
    if kind == "restart":
        return Restart()
    if kind == "exit":
        return Exit()
    if kind == "failed":
        return decode_failed(data, where)
    raise SnapshotError(f"{o.path('type')} must be done, goto, restart, exit or failed, not {json_kind(kind)}.")
