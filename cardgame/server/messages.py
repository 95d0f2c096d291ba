"""The messages a client sends, as typed records, and reading them from the wire.

:func:`read_message` checks a message in order, before the table is touched: its size
(:data:`MAX_MESSAGE` bytes), that it is JSON, an object with a known ``type``, no field it does
not know, and every field's type (structured with ``cattrs``, strictly: ``true`` is not a number,
``"5"`` is not a number). Anything else is a :class:`~cardgame.server.errors.MessageError`
``malformed`` or ``too_large`` naming what was wrong and what is allowed.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardgame.model.inputs import excerpt
from cardgame.server.errors import MessageError
from cardgame.store.serialize import MAX_INT, SnapshotError, from_json, structure

__all__ = [
    "ACTIONS",
    "MAX_MESSAGE",
    "Act",
    "AskToSee",
    "Draw",
    "Leave",
    "Message",
    "Muck",
    "Resume",
    "Runs",
    "Show",
    "Sit",
    "SitIn",
    "SitOut",
    "TopUp",
    "read_message",
]

#: The most bytes one client message may hold.
MAX_MESSAGE = 2048

#: The betting words an ``act`` message may carry.
ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in", "bring_in")


@attrs.frozen
class Sit:
    """Take a seat: ``name``, ``buy_in`` chips, in ``seat`` (``None``: the first free one)."""

    name: str
    buy_in: int
    seat: int | None = None


@attrs.frozen
class Resume:
    """Take back the seat ``token`` belongs to."""

    token: str


@attrs.frozen
class Act:
    """A betting decision, made on the view whose newest event is ``seq``."""

    action: str
    seq: int
    amount: int | None = None


@attrs.frozen
class Draw:
    """Discard ``discards`` (card strings; empty: stand pat)."""

    seq: int
    discards: tuple[str, ...] = ()


@attrs.frozen
class Runs:
    """Run the rest of the board ``count`` times."""

    count: int
    seq: int


@attrs.frozen
class Muck:
    """Muck the hand once betting is over."""

    seq: int


@attrs.frozen
class Show:
    """Show the hand at a showdown played with show or muck, in turn (TDA rule 16)."""

    seq: int


@attrs.frozen
class AskToSee:
    """Ask to see the called hand mucked unshown at the showdown (TDA rule 18; tables with ``ask_to_see``)."""

    seq: int


@attrs.frozen
class SitOut:
    """Skip hands from the next one on."""


@attrs.frozen
class SitIn:
    """Be dealt in again from the next hand."""


@attrs.frozen
class Leave:
    """Cash out and free the seat."""


@attrs.frozen
class TopUp:
    """Add ``amount`` chips between hands."""

    amount: int


Message = Sit | Resume | Act | Draw | Runs | Muck | Show | AskToSee | SitOut | SitIn | Leave | TopUp

_TYPES: dict[str, type] = {
    "sit": Sit, "resume": Resume, "act": Act, "draw": Draw, "runs": Runs, "muck": Muck, "sit_out": SitOut,
    "sit_in": SitIn, "leave": Leave, "top_up": TopUp, "show": Show, "ask_to_see": AskToSee,
}
#: The keys a well-formed ``act`` message may hold.
_ACT_KEYS = frozenset({"type", "action", "seq", "amount"})
#: Each message type's field names.
_NAMES: dict[type, frozenset[str]] = {cls: frozenset(a.name for a in attrs.fields(cls)) for cls in _TYPES.values()}


def _fields(cls: type) -> str:
    names = [a.name for a in attrs.fields(cls)]
    return ", ".join(names) if names else "no fields"


def read_message(data: str | bytes) -> Message:
    """The client message ``data`` holds, checked (see the module's docstring)."""
    if not isinstance(data, str | bytes):
        raise MessageError("malformed", f"A message is JSON text, not {excerpt(data)}.")
    size = len(data.encode() if isinstance(data, str) else data)
    if size > MAX_MESSAGE:
        raise MessageError("too_large", f"A message may hold at most {MAX_MESSAGE} bytes; this one holds {size:,}.")
    try:
        raw = from_json(data)
    except SnapshotError as exc:
        raise MessageError("malformed", f"A message must be a JSON object: {exc}.") from None
    if not isinstance(raw, dict):
        raise MessageError("malformed", f"A message must be a JSON object with a 'type', not {excerpt(raw)}.")
    kind = raw.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MessageError("malformed", f"Unknown message type {excerpt(kind)}; the types are {', '.join(_TYPES)}.")
    if cls is Act and raw.keys() <= _ACT_KEYS:  # the most common message, well formed: built at once
        action, seq, amount = raw.get("action"), raw.get("seq"), raw.get("amount")
        if (type(action) is str and action in ACTIONS and type(seq) is int and -MAX_INT <= seq <= MAX_INT
                and (amount is None or (type(amount) is int and -MAX_INT <= amount <= MAX_INT))):
            return Act(action, seq, amount)
    fields: dict[str, Any] = {k: v for k, v in raw.items() if k != "type"}
    extra = sorted(set(fields) - _NAMES[cls])
    if extra:
        raise MessageError("malformed", f"A {kind} message has no field {', '.join(map(excerpt, extra))}; "
                                        f"its fields are {_fields(cls)}.")
    try:
        message: Message = structure(fields, cls, str(kind))
    except SnapshotError as exc:
        raise MessageError("malformed", f"Not a valid {kind} message ({_fields(cls)}): {exc}") from None
    if isinstance(message, Act) and message.action not in ACTIONS:
        raise MessageError("malformed", f"Unknown action {excerpt(message.action)}; the actions are "
                                        f"{', '.join(ACTIONS)}.")
    return message
