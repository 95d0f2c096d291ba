"""Reading and writing ``.phh`` (one hand) and ``.phhs`` (several hands under ``[1]``, ``[2]``...)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from cardgame.model.errors import HandHistoryError
from cardgame.model.inputs import check_path, excerpt, label, os_error, read_file, read_toml

from ._toml import format_table
from .actions import _Invalid
from .history import HandHistory, _from_mapping

__all__ = ["SUFFIXES", "dump", "dumps", "iter_paths", "load", "loads", "save"]

#: File name suffixes of hand-history files: one hand, several hands.
SUFFIXES = (".phh", ".phhs")

StrPath = str | os.PathLike[str]


#: The most a hand-history file (or text) may hold: 64 MiB, about 100,000 hands. More is a corrupt
#: file (``/dev/zero``), refused before it is read into memory.
MAX_BYTES = 64 * 2**20

#: The deepest nesting of arrays and tables read (PHH needs two: ``[1]`` and an array). Deeper input
#: is refused before the TOML reader recurses into it.
MAX_DEPTH = 32



def _read(path: StrPath) -> tuple[Path, str]:
    """``path`` and its text: at most :data:`MAX_BYTES`, UTF-8; a path that is none or a file that cannot
    be read (missing, a folder) is a :class:`HandHistoryError`."""
    return read_file(path, MAX_BYTES, HandHistoryError, "a hand-history file")


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML ``text`` as a dict; any problem (size, nesting, syntax, numbers too long) is a
    :class:`HandHistoryError` naming ``source``."""
    if not isinstance(text, str):
        raise HandHistoryError(f"{source}: PHH text must be a str, not {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise HandHistoryError(f"{source}: {len(text):,} characters; too large for hand histories "
                               f"(at most {MAX_BYTES:,})")
    return read_toml(text, source, HandHistoryError, MAX_DEPTH)


def _parse_hand(data: dict[str, Any], where: str) -> HandHistory:
    try:
        return _from_mapping(data)
    except _Invalid as e:
        raise HandHistoryError(f"{where}: {e}") from None


def loads(text: str, *, source: str = "<string>", multi: bool = False) -> list[HandHistory]:
    """Parse PHH text: one hand, or with ``multi=True`` a ``.phhs`` document of ``[N]`` tables.

    Errors raise :class:`HandHistoryError` naming ``source``, the hand (``hand [2]``) and the
    field or action line, e.g. ``"x.phhs: hand [2]: actions[4] 'p9 cc': player p9 is out of range..."``.
    """
    source = label(source)
    data = _parse_toml(text, source)
    if not multi:
        if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
            raise HandHistoryError(
                f"{source}: no 'variant' field; this looks like a .phhs file of several hands "
                f"(tables {', '.join(f'[{str(k)[:20]}]' for k in list(data)[:3])}...); load it with multi=True"
            )
        return [_parse_hand(data, source)]
    hands = []
    for key, table in data.items():
        if not isinstance(table, dict):
            raise HandHistoryError(
                f"{source}: top-level key {excerpt(key)} is not a hand table; a .phhs file holds hands as [1], [2], ..."
            )
        hands.append(_parse_hand(table, f"{source}: hand [{key}]"))
    return hands


def load_each(path: StrPath) -> list[HandHistory | HandHistoryError]:
    """Like :func:`load`, but a bad hand in a ``.phhs`` file is returned as its error and the
    file's other hands still load; a file that is not TOML at all is one error."""
    try:
        p, text = _read(path)
        data = _parse_toml(text, label(str(p)))
    except HandHistoryError as e:
        return [e]
    if p.suffix.lower() != ".phhs":
        try:
            return [_parse_hand(data, label(str(p)))]
        except HandHistoryError as e:
            return [e]
    out: list[HandHistory | HandHistoryError] = []
    for key, table in data.items():
        try:
            if not isinstance(table, dict):
                raise HandHistoryError(f"{label(str(p))}: top-level key {excerpt(key)} is not a hand table")
            out.append(_parse_hand(table, f"{label(str(p))}: hand [{key}]"))
        except HandHistoryError as e:
            out.append(e)
    return out


def load(path: StrPath) -> list[HandHistory]:
    """Read a ``.phh`` file (a list of one hand) or a ``.phhs`` file (all its hands, in file order).

    Malformed content, and a file that cannot be read (missing, a folder), raise :class:`HandHistoryError`
    naming the file.
    """
    p, text = _read(path)
    return loads(text, source=str(p), multi=p.suffix.lower() == ".phhs")


def dumps(hands: HandHistory | Iterable[HandHistory], *, multi: bool | None = None) -> str:
    """PHH text for one hand, or ``.phhs`` text with ``[1]``, ``[2]``... tables for several.

    ``multi=None`` writes a plain ``.phh`` document when given exactly one hand; ``multi=True``
    always writes tables. Each hand is validated first (:class:`HandHistoryError` if invalid).
    The output is deterministic: spec field order, double-quoted strings, one action per line.
    """
    if not isinstance(hands, HandHistory | Iterable) or isinstance(hands, str | bytes):
        raise HandHistoryError(f"PHH text is written from a HandHistory or an iterable of them, not {excerpt(hands)}")
    items = [hands] if isinstance(hands, HandHistory) else list(hands)
    if multi is None:
        multi = len(items) != 1
    if not multi and len(items) != 1:
        raise HandHistoryError(
            f"a single-hand document holds exactly one hand, got {len(items)}; use multi=True or a .phhs file"
        )
    texts = []
    for i, hand in enumerate(items, 1):
        if not isinstance(hand, HandHistory):
            raise HandHistoryError(f"hand {i}: expected a HandHistory, got {type(hand).__name__}")
        try:
            hand.validate()
            body = format_table(hand.to_dict(), multiline=("actions",))
        except (HandHistoryError, TypeError, ValueError, RecursionError) as e:  # (values TOML cannot hold)
            raise HandHistoryError(f"hand {i}: cannot write: {e}") from None
        texts.append(f"[{i}]\n{body}" if multi else body)
    return "\n".join(texts)


#: Alias of :func:`dumps` (returns the text; use :func:`save` to write a file).
dump = dumps


def save(path: StrPath, hands: HandHistory | Iterable[HandHistory]) -> None:
    """Write hands to ``path``: a ``.phhs`` file gets ``[N]`` tables, any other exactly one hand."""
    p = check_path(path, "path of a hand-history file", HandHistoryError)
    text = dumps(hands, multi=p.suffix.lower() == ".phhs")
    try:
        p.write_text(text, encoding="utf-8", newline="\n")
    except OSError as exc:
        raise HandHistoryError(f"Cannot write a hand-history file: {os_error(exc)}.") from None


def _natural_key(path: Path) -> list[Any]:
    parts = re.split(r"([0-9]+)", path.as_posix())
    return [int(s) if i % 2 else s for i, s in enumerate(parts)]


def iter_paths(paths: StrPath | Iterable[StrPath]) -> Iterator[Path]:
    """Expand files and folders (recursively) into hand-history files, sorted, without repeats.

    Files named directly are kept whatever their suffix; folders contribute their ``.phh`` and
    ``.phhs`` files. Sorting is natural (``9.phh`` before ``10.phh``). A missing path, or one that is
    no path or cannot be read, raises :class:`HandHistoryError`.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    if not isinstance(paths, Iterable) or isinstance(paths, bytes):
        raise HandHistoryError(f"Hand-history paths are a path or an iterable of paths, not {excerpt(paths)}.")
    found: set[Path] = set()
    for item in paths:
        p = check_path(item, "path of a hand-history file or folder", HandHistoryError)
        try:
            if p.is_dir():
                found.update(f for f in p.rglob("*") if f.suffix.lower() in SUFFIXES and f.is_file())
            elif p.is_file() or p.exists():  # named directly: read (within bounds) whatever it is
                found.add(p)
            else:
                raise HandHistoryError(f"{label(str(p))}: no such file or folder")
        except OSError as exc:
            raise HandHistoryError(f"Cannot list hand-history files: {os_error(exc)}.") from None
    yield from sorted(found, key=_natural_key)
