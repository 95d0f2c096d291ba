"""Reading and writing ``.phh`` (one hand) and ``.phhs`` (several hands under ``[1]``, ``[2]``...)."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from cardgame.errors import HandHistoryError

from ._toml import format_table
from .actions import _Invalid
from .history import HandHistory, _from_mapping

__all__ = ["SUFFIXES", "dump", "dumps", "iter_paths", "load", "loads", "save"]

#: File name suffixes of hand-history files: one hand, several hands.
SUFFIXES = (".phh", ".phhs")

StrPath = str | os.PathLike[str]


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
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as e:
        raise HandHistoryError(f"{source}: invalid TOML: {e}") from None
    if not multi:
        if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
            raise HandHistoryError(
                f"{source}: no 'variant' field; this looks like a .phhs file of several hands "
                f"(tables {', '.join(f'[{k}]' for k in list(data)[:3])}...); load it with multi=True"
            )
        return [_parse_hand(data, source)]
    hands = []
    for key, table in data.items():
        if not isinstance(table, dict):
            raise HandHistoryError(
                f"{source}: top-level key {key!r} is not a hand table; a .phhs file holds hands as [1], [2], ..."
            )
        hands.append(_parse_hand(table, f"{source}: hand [{key}]"))
    return hands


def load_each(path: StrPath) -> list[HandHistory | HandHistoryError]:
    """Like :func:`load`, but a bad hand in a ``.phhs`` file is returned as its error and the
    file's other hands still load; a file that is not TOML at all is one error."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except UnicodeDecodeError as e:
        return [HandHistoryError(f"{p}: not UTF-8 text: {e}")]
    except tomllib.TOMLDecodeError as e:
        return [HandHistoryError(f"{p}: invalid TOML: {e}")]
    if p.suffix.lower() != ".phhs":
        try:
            return [_parse_hand(data, str(p))]
        except HandHistoryError as e:
            return [e]
    out: list[HandHistory | HandHistoryError] = []
    for key, table in data.items():
        try:
            if not isinstance(table, dict):
                raise HandHistoryError(f"{p}: top-level key {key!r} is not a hand table")
            out.append(_parse_hand(table, f"{p}: hand [{key}]"))
        except HandHistoryError as e:
            out.append(e)
    return out


def load(path: StrPath) -> list[HandHistory]:
    """Read a ``.phh`` file (a list of one hand) or a ``.phhs`` file (all its hands, in file order).

    Malformed content raises :class:`HandHistoryError` naming the file; a missing file raises ``OSError``.
    """
    p = Path(path)
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise HandHistoryError(f"{p}: not UTF-8 text: {e}") from None
    return loads(text, source=str(p), multi=p.suffix.lower() == ".phhs")


def dumps(hands: HandHistory | Iterable[HandHistory], *, multi: bool | None = None) -> str:
    """PHH text for one hand, or ``.phhs`` text with ``[1]``, ``[2]``... tables for several.

    ``multi=None`` writes a plain ``.phh`` document when given exactly one hand; ``multi=True``
    always writes tables. Each hand is validated first (:class:`HandHistoryError` if invalid).
    The output is deterministic: spec field order, double-quoted strings, one action per line.
    """
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
        except (HandHistoryError, TypeError) as e:
            raise HandHistoryError(f"hand {i}: cannot write: {e}") from None
        texts.append(f"[{i}]\n{body}" if multi else body)
    return "\n".join(texts)


#: Alias of :func:`dumps` (returns the text; use :func:`save` to write a file).
dump = dumps


def save(path: StrPath, hands: HandHistory | Iterable[HandHistory]) -> None:
    """Write hands to ``path``: a ``.phhs`` file gets ``[N]`` tables, any other exactly one hand."""
    p = Path(path)
    text = dumps(hands, multi=p.suffix.lower() == ".phhs")
    p.write_text(text, encoding="utf-8", newline="\n")


def _natural_key(path: Path) -> list[Any]:
    parts = re.split(r"(\d+)", path.as_posix())
    return [int(s) if i % 2 else s for i, s in enumerate(parts)]


def iter_paths(paths: StrPath | Iterable[StrPath]) -> Iterator[Path]:
    """Expand files and folders (recursively) into hand-history files, sorted, without repeats.

    Files named directly are kept whatever their suffix; folders contribute their ``.phh`` and
    ``.phhs`` files. Sorting is natural (``9.phh`` before ``10.phh``). A missing path raises
    ``FileNotFoundError``.
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    found: set[Path] = set()
    for item in paths:
        p = Path(item)
        if p.is_dir():
            found.update(f for f in p.rglob("*") if f.suffix.lower() in SUFFIXES and f.is_file())
        elif p.is_file():
            found.add(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    yield from sorted(found, key=_natural_key)
