"""A small, deterministic TOML writer for PHH documents (the stdlib only reads TOML)."""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Mapping

from cardgame.model.inputs import excerpt

__all__ = ["format_key", "format_table", "format_value"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_key(key: str) -> str:
    """A bare key when possible (``min_bet``), else a quoted one."""
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def format_value(value: object) -> str:
    """One TOML value on one line; arrays and tables are written inline.

    Raises ``TypeError`` for a value TOML cannot hold (``None``, arbitrary objects).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, _dt.datetime | _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = ", ".join(f"{format_key(str(k))} = {format_value(v)}" for k, v in value.items())
        return "{" + items + "}" if items else "{}"
    raise TypeError(f"cannot write {type(value).__name__} value {excerpt(value)} as TOML")


def format_table(table: Mapping[str, object], *, multiline: tuple[str, ...] = ()) -> str:
    """``key = value`` lines; arrays under a key in ``multiline`` get one item per line."""
    lines = []
    for key, value in table.items():
        if key in multiline and isinstance(value, list | tuple) and value:
            lines.append(f"{format_key(key)} = [")
            lines.extend(f"  {format_value(v)}," for v in value)
            lines.append("]")
        else:
            lines.append(f"{format_key(key)} = {format_value(value)}")
    return "\n".join(lines) + "\n"
