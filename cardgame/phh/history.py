"""The :class:`HandHistory` record: every PHH field, with conversion from and to TOML values.

Field values are kept as read: per-player arrays become tuples, numbers stay ``int`` or ``float``
(integral floats such as ``9950.0`` become ``int``), absent optional fields are ``None``, and
``actions`` is a tuple of parsed actions (see :mod:`cardgame.phh.actions`). Fields outside the spec
(user-defined ``_name`` fields, and unknown names, which also warn) are kept in ``extra``.
"""

from __future__ import annotations

import datetime as _dt
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from cardgame.model.cards import Card
from cardgame.model.errors import HandHistoryError
from cardgame.model.inputs import MAX_DIGITS, excerpt, label

from .actions import (
    Action,
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    NoOpAction,
    Number,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
    _Invalid,
    _parse_action,
    normalize_number,
)
from .codes import VARIANTS, VariantInfo

__all__ = ["FIELD_NAMES", "PER_PLAYER_FIELDS", "HandHistory", "UnknownFieldWarning"]

ACTION_TYPES = (
    DealHoleAction,
    DealBoardAction,
    PostBringInAction,
    CompleteBetRaiseAction,
    CheckCallAction,
    FoldAction,
    StandPatDiscardAction,
    ShowMuckAction,
    NoOpAction,
)

#: Array fields with one entry per player (their length must equal the player count).
PER_PLAYER_FIELDS: tuple[str, ...] = (
    "antes",
    "blinds_or_straddles",
    "starting_stacks",
    "seats",
    "players",
    "finishing_stacks",
    "winnings",
    "time_banks",
)

_POSITIVE = frozenset({"bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks"})
# A negative blind is a dead post (a player posting to sit in): allowed.
_NON_NEGATIVE = frozenset({"antes", "finishing_stacks", "winnings", "time_limit", "time_banks"})
_KIND_HELP = {
    "str": "a string",
    "bool": "a boolean (true or false)",
    "int": "an integer",
    "number": "a number",
    "numbers": "an array of numbers",
    "ints": "an array of integers",
    "strs": "an array of strings",
    "int_or_str": "an integer or a string",
    "time": "a TOML local time, date or date-time",
    "actions": "an array of action strings",
}


class UnknownFieldWarning(UserWarning):
    """A field that is neither in the spec nor user-defined (``_name``); it is kept in ``extra``."""


def _array(value: object) -> tuple[Any, ...] | None:
    """An array field's value as a tuple (``None`` stays ``None``); a string or a non-iterable is a
    :class:`HandHistoryError`."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise HandHistoryError(f"expected an array (list or tuple), got {excerpt(value)}")
    return tuple(value)


def _ints(value: Iterable[int] | None) -> tuple[int, ...] | None:
    return _array(value)


def _strs(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return _array(value)


def _numbers(value: Iterable[Number] | None) -> tuple[Number, ...] | None:
    items = _array(value)
    return None if items is None else tuple(normalize_number(v) for v in items)


def _number(value: Number | None) -> Number | None:
    return None if value is None else normalize_number(value)


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    return _array(value) or ()


def _extra(value: Mapping[str, Any]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise HandHistoryError(f"extra holds fields by name (a mapping), not {excerpt(value)}")
    return MappingProxyType(dict(value))


def _phh(kind: str) -> dict[str, str]:
    """Field metadata: a PHH field of ``kind`` (see ``_KIND_HELP``). The spec's fields and their kinds
    are declared once, on :class:`HandHistory`; ``FIELD_NAMES`` and the readers take them from there."""
    return {"phh": kind}


@attrs.frozen(kw_only=True)
class HandHistory:
    """One hand in PHH form. Construct with keywords; :meth:`validate` checks it against the spec.

    ``actions`` hold players as 0-based indices (``p1`` is 0) and unknown cards as ``None``. The
    field order is the spec's and is the order :func:`~cardgame.phh.dumps` writes.
    """

    variant: str = attrs.field(metadata=_phh("str"))
    ante_trimming_status: bool | None = attrs.field(metadata=_phh("bool"), default=None)
    antes: tuple[Number, ...] | None = attrs.field(metadata=_phh("numbers"), default=None, converter=_numbers)
    blinds_or_straddles: tuple[Number, ...] | None = attrs.field(metadata=_phh("numbers"), default=None,
                                                                 converter=_numbers)
    bring_in: Number | None = attrs.field(metadata=_phh("number"), default=None, converter=_number)
    small_bet: Number | None = attrs.field(metadata=_phh("number"), default=None, converter=_number)
    big_bet: Number | None = attrs.field(metadata=_phh("number"), default=None, converter=_number)
    min_bet: Number | None = attrs.field(metadata=_phh("number"), default=None, converter=_number)
    starting_stacks: tuple[Number, ...] = attrs.field(metadata=_phh("numbers"), converter=_numbers)
    actions: tuple[Action, ...] = attrs.field(metadata=_phh("actions"), default=(), converter=_actions)
    author: str | None = attrs.field(metadata=_phh("str"), default=None)
    event: str | None = attrs.field(metadata=_phh("str"), default=None)
    url: str | None = attrs.field(metadata=_phh("str"), default=None)
    venue: str | None = attrs.field(metadata=_phh("str"), default=None)
    address: str | None = attrs.field(metadata=_phh("str"), default=None)
    city: str | None = attrs.field(metadata=_phh("str"), default=None)
    region: str | None = attrs.field(metadata=_phh("str"), default=None)
    postal_code: str | None = attrs.field(metadata=_phh("str"), default=None)
    country: str | None = attrs.field(metadata=_phh("str"), default=None)
    time: _dt.time | _dt.date | None = attrs.field(metadata=_phh("time"), default=None)
    time_zone: str | None = attrs.field(metadata=_phh("str"), default=None)
    time_zone_abbreviation: str | None = attrs.field(metadata=_phh("str"), default=None)
    day: int | None = attrs.field(metadata=_phh("int"), default=None)
    month: int | None = attrs.field(metadata=_phh("int"), default=None)
    year: int | None = attrs.field(metadata=_phh("int"), default=None)
    hand: int | str | None = attrs.field(metadata=_phh("int_or_str"), default=None)
    level: int | None = attrs.field(metadata=_phh("int"), default=None)
    seats: tuple[int, ...] | None = attrs.field(metadata=_phh("ints"), default=None, converter=_ints)
    seat_count: int | None = attrs.field(metadata=_phh("int"), default=None)
    table: int | str | None = attrs.field(metadata=_phh("int_or_str"), default=None)
    players: tuple[str, ...] | None = attrs.field(metadata=_phh("strs"), default=None, converter=_strs)
    finishing_stacks: tuple[Number, ...] | None = attrs.field(metadata=_phh("numbers"), default=None,
                                                              converter=_numbers)
    winnings: tuple[Number, ...] | None = attrs.field(metadata=_phh("numbers"), default=None, converter=_numbers)
    currency: str | None = attrs.field(metadata=_phh("str"), default=None)
    currency_symbol: str | None = attrs.field(metadata=_phh("str"), default=None)
    time_limit: Number | None = attrs.field(metadata=_phh("number"), default=None, converter=_number)
    time_banks: tuple[Number, ...] | None = attrs.field(metadata=_phh("numbers"), default=None, converter=_numbers)
    #: Fields outside the spec, by name (user-defined ``_name`` fields first of all); read-only.
    extra: Mapping[str, Any] = attrs.field(factory=dict, converter=_extra, hash=False)

    @property
    def player_count(self) -> int:
        """The number of players: the length of ``starting_stacks``."""
        return len(self.starting_stacks)

    @property
    def variant_info(self) -> VariantInfo:
        """The :class:`~cardgame.phh.codes.VariantInfo` row for ``variant`` (``KeyError`` if unknown)."""
        return VARIANTS[self.variant]

    def to_dict(self) -> dict[str, Any]:
        """TOML-ready values: present fields in canonical order, actions as text, arrays as lists."""
        out: dict[str, Any] = {}
        for name in FIELD_NAMES:
            value = getattr(self, name)
            if value is None:
                continue
            if name == "actions":
                out[name] = [_action_text(a) for a in value]
            elif isinstance(value, tuple):
                out[name] = list(value)
            else:
                out[name] = value
        for key, value in self.extra.items():
            out[key] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<dict>") -> HandHistory:
        """Build and validate a hand from TOML values (as ``tomllib`` returns them).

        Raises :class:`HandHistoryError` prefixed with ``source``, naming the field or action line.
        """
        if not isinstance(data, Mapping):
            raise HandHistoryError(f"{label(source)}: a hand is a mapping of field names to values, not "
                                   f"{excerpt(data)}")
        try:
            return _from_mapping(data)
        except _Invalid as e:
            raise HandHistoryError(f"{label(source)}: {e}") from None

    def validate(self) -> None:
        """Raise :class:`HandHistoryError` if this hand breaks the spec (the checks :func:`load` makes)."""
        try:
            for key in self.extra:
                if key in _KINDS:
                    raise _Invalid(f"extra field {excerpt(key)} is a standard field; set the attribute instead")
            _from_mapping(self.to_dict(), warn=False)
        except (_Invalid, TypeError) as e:
            raise HandHistoryError(str(e)) from None



#: Fields outside the spec that writers use, kept in ``extra`` without a warning: ``rake`` (the house's
#: cut, as PokerKit and the HandHQ logs write it; :mod:`cardgame.phh.replay` takes it back).
KNOWN_EXTRA = frozenset({"rake"})

#: Field name -> kind, in the canonical (dump) order: required fields, then the optional ones.
_KINDS: dict[str, str] = {f.name: f.metadata["phh"] for f in attrs.fields(HandHistory) if "phh" in f.metadata}

#: Every field the spec defines, in the order :func:`~cardgame.phh.dumps` writes them.
FIELD_NAMES: tuple[str, ...] = tuple(_KINDS)

def _action_text(action: object) -> str:
    if not isinstance(action, ACTION_TYPES):
        raise TypeError(f"actions: {excerpt(action)} is not a PHH action object")
    return action.to_text()


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


_SCALAR_CHECKS: dict[str, Callable[[object], bool]] = {
    "str": _is_str,
    "bool": lambda v: isinstance(v, bool),
    "int": _is_int,
    "number": _is_number,
    "int_or_str": lambda v: _is_str(v) or _is_int(v),
    "time": lambda v: isinstance(v, _dt.date) or (isinstance(v, _dt.time) and v.tzinfo is None),
}
_ITEM_CHECKS: dict[str, Callable[[object], bool]] = {
    "numbers": _is_number,
    "ints": _is_int,
    "strs": _is_str,
    "actions": _is_str,
}


_LIMIT = 10**MAX_DIGITS


def _convert(name: str, kind: str, value: Any) -> Any:
    """Type-check one TOML value (tuples for arrays, integral floats as int); raise :class:`_Invalid`."""
    if kind in _ITEM_CHECKS:
        check = _ITEM_CHECKS[kind]
        ok = isinstance(value, list | tuple) and all(check(v) for v in value)
    else:
        ok = _SCALAR_CHECKS[kind](value)
    if not ok:
        raise _Invalid(f"field {excerpt(name)} must be {_KIND_HELP[kind]}, got {excerpt(value)}")
    items = value if kind in _ITEM_CHECKS else (value,)
    for v in items:  # chip counts and the like: 18 digits at most (the engine's bound; inputs.MAX_DIGITS)
        if (_is_int(v) or (isinstance(v, float) and math.isfinite(v))) and abs(v) >= _LIMIT:
            raise _Invalid(f"field {excerpt(name)} holds {excerpt(v)}, more than {MAX_DIGITS} digits; "
                           "a hand's numbers are smaller")
    if kind == "numbers":
        return tuple(normalize_number(v) for v in value)
    if kind == "number":
        return normalize_number(value)
    return tuple(value) if kind in _ITEM_CHECKS else value


def _check_range(name: str, value: Any) -> None:
    values: Sequence[Number] = value if isinstance(value, tuple) else (value,)
    for i, v in enumerate(values):
        where = f"field {excerpt(name)}" + (f" entry {i + 1}" if isinstance(value, tuple) else "")
        if math.isnan(v):
            raise _Invalid(f"{where} is nan; expected a number")
        if name in _POSITIVE and not v > 0:
            raise _Invalid(f"{where} is {excerpt(v)}; it must be positive")
        if name in _NON_NEGATIVE and v < 0:
            raise _Invalid(f"{where} is {excerpt(v)}; it must not be negative")
        if name not in ("starting_stacks", "time_limit") and math.isinf(v):
            raise _Invalid(f"{where} is {excerpt(v)}; it must be finite")


def _from_mapping(data: Mapping[str, Any], *, warn: bool = True) -> HandHistory:
    """Check and convert one hand's TOML table; raise :class:`_Invalid` on the first problem."""
    if "variant" not in data:
        raise _Invalid("missing required field 'variant'")
    variant = data["variant"]
    if not isinstance(variant, str):
        raise _Invalid(f"field 'variant' must be a string, got {excerpt(variant)}")
    info = VARIANTS.get(variant)
    if info is None:
        raise _Invalid(f"unknown variant {excerpt(variant)}; known codes are {', '.join(VARIANTS)}")
    missing = [name for name in info.required if name not in data]
    if missing:
        names = ", ".join(repr(name) for name in missing)
        plural = "s" if len(missing) > 1 else ""
        raise _Invalid(f"missing field{plural} {names}, required for variant {excerpt(variant)} ({info.name})")
    for name in info.forbidden:
        if name in data:
            raise _Invalid(f"field {excerpt(name)} must not be given for variant {excerpt(variant)} ({info.name})")

    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            raise _Invalid(f"field names are strings, not {excerpt(key)}")
        kind = _KINDS.get(key)
        if kind is None:
            if warn and not key.startswith("_") and key not in KNOWN_EXTRA:
                warnings.warn(
                    f"unknown field {excerpt(key)} kept in HandHistory.extra (user-defined fields start with '_')",
                    UnknownFieldWarning,
                    stacklevel=4,
                )
            extra[key] = value
        elif kind != "actions":
            values[key] = _convert(key, kind, value)

    players = len(values["starting_stacks"])
    if players < 2:
        raise _Invalid(f"field 'starting_stacks' has {players} entries; a hand needs at least 2 players")
    for name in PER_PLAYER_FIELDS:
        if name in values and len(values[name]) != players:
            raise _Invalid(
                f"field {excerpt(name)} has {len(values[name])} entries but there are {players} players "
                "(the length of 'starting_stacks')"
            )
    for name, value in values.items():
        if _KINDS[name] in ("number", "numbers"):
            _check_range(name, value)
    if "month" in values and not 1 <= values["month"] <= 12:
        raise _Invalid(f"field 'month' is {values['month']}; it must be 1 to 12")
    if "day" in values and not 1 <= values["day"] <= 31:
        raise _Invalid(f"field 'day' is {values['day']}; it must be 1 to 31")

    texts = _convert("actions", "actions", data["actions"])
    actions = []
    for i, text in enumerate(texts):
        try:
            actions.append(_parse_action(text, players))
        except _Invalid as e:
            raise _Invalid(f"actions[{i}] {excerpt(text)}: {e}") from None
    _check_actions(info, actions, texts)
    return HandHistory(**values, actions=actions, extra=extra)


def _check_actions(info: VariantInfo, actions: Sequence[Action], texts: Sequence[str]) -> None:
    """Variant-level checks: action kinds the variant uses, the deck, and no card dealt twice."""
    # Known card -> (holder, index of the action that placed it); holder is a player index or None (board).
    placed: dict[Card, tuple[int | None, int]] = {}

    def who(holder: int | None) -> str:
        return "the board" if holder is None else f"p{holder + 1}"

    for i, action in enumerate(actions):
        where = f"actions[{i}] {excerpt(texts[i])}"
        earlier = ""
        if isinstance(action, DealBoardAction) and info.dealing == "draw":
            raise _Invalid(f"{where}: {info.code} ({info.name}) has no board cards")
        if isinstance(action, DealBoardAction) and info.dealing == "stud" and len(action.cards) != 1:
            raise _Invalid(f"{where}: {info.code} ({info.name}) deals the board one community card at a time, "
                           "when the deck runs short")
        if isinstance(action, PostBringInAction) and info.dealing != "stud":
            raise _Invalid(f"{where}: {info.code} ({info.name}) has no bring-in")
        if isinstance(action, StandPatDiscardAction) and info.dealing != "draw":
            raise _Invalid(f"{where}: {info.code} ({info.name}) is not a draw game; 'sd' is not allowed")
        if isinstance(action, FoldAction) and info.dealing == "draw":  # a folded hand goes to the muck,
            for card in [c for c, (h, _) in placed.items() if h == action.player]:  # which may be redealt
                del placed[card]
        cards = getattr(action, "cards", None) or ()
        for card in cards:
            if card is not None and info.deck == "short" and card.rank < 4:
                raise _Invalid(f"{where}: card {card} is not in the short deck (6 to A) used by {info.code}")
        holder = None if isinstance(action, DealBoardAction) else getattr(action, "player", None)
        for card in cards:
            if card is None:
                continue
            prior = placed.get(card)
            if prior is not None:
                earlier = f"{who(prior[0])} in actions[{prior[1]}]"
            if isinstance(action, DealHoleAction | DealBoardAction):
                if prior is not None:
                    raise _Invalid(f"{where}: card {card} was already dealt to {earlier}")
                placed[card] = (holder, i)
            elif prior is not None and prior[0] != holder:
                verb = "discards" if isinstance(action, StandPatDiscardAction) else "shows"
                raise _Invalid(f"{where}: {who(holder)} {verb} {card}, which was dealt to {earlier}")
            elif isinstance(action, StandPatDiscardAction):
                placed.pop(card, None)  # a discard may be reshuffled and dealt again
            elif prior is None:
                placed[card] = (holder, i)  # a card shown from an unknown deal
