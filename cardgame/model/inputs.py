"""Reading untrusted text safely: files with a size bound, whole numbers in ASCII digits with a
length bound, and short excerpts of bad input for error messages.

Every parser a user or a remote peer reaches (cards, PHH, ACPC lines and logs, snapshots, the
store, the command line) reads numbers with :func:`read_int` and quotes bad input with
:func:`excerpt`, so a hostile input can neither crash a parser with Python's own errors (the
4,300-digit limit of ``int()``, Unicode digits such as ``²`` or ``٥`` that ``str.isdigit`` accepts)
nor make an error message as large as itself.
"""

from __future__ import annotations

import operator
import os
import re
import tomllib
from pathlib import Path
from typing import Any, SupportsIndex, TypeVar, cast

from cardgame.engine.errors import EXCERPT_LIMIT, excerpt
from cardgame.model.errors import CardgameError

__all__ = ["EXCERPT_LIMIT", "MAX_DIGITS", "MAX_NUMBER", "check_bool", "check_instance", "check_int", "check_path",
           "check_text", "excerpt", "is_ascii_int", "label", "os_error", "read_file", "read_int", "read_text",
           "read_toml", "whole_number", "writable_file"]

T = TypeVar("T")

MAX_DIGITS = 18
"""Digits a number may have: 18 covers every chip count the engine can hold (about 10**18)."""

MAX_NUMBER = 10**MAX_DIGITS - 1
"""The largest magnitude any whole number handed to the library may have (chips, seeds, seats, counts)."""

_INT = re.compile(r"[+-]?[0-9]+")


def os_error(exc: OSError) -> str:
    """An ``OSError`` in one short line: an excerpt of each path it names and the operating system's
    reason (``str(exc)`` quotes a path whole, however long)."""
    names = [excerpt(os.fsdecode(f) if isinstance(f, str | bytes | os.PathLike) else f, 2 * EXCERPT_LIMIT)
             for f in (exc.filename, exc.filename2) if f is not None]
    text = " ".join((str(exc) or type(exc).__name__).split())
    reason = exc.strerror or (text if len(text) <= 200 else f"{text[:200]}... ({len(text):,} characters)")
    return f"{' -> '.join(names)}: {reason}" if names else reason


def _allowed(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum:,} to {maximum:,}"
    if minimum is not None:
        return f" of at least {minimum:,}"
    return "" if maximum is None else f" of at most {maximum:,}"


def whole_number(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or anything with ``__index__``, such
    as numpy's integers; never a ``bool``), else ``None``."""
    if isinstance(value, bool) or type(value).__name__ == "bool_" or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:  # numpy's arrays of more than one value have __index__, and refuse it
        return None


def check_bool(value: object, what: str, error: type[CardgameError]) -> bool:
    """``value`` if it is ``True`` or ``False`` (not 1, "yes" or a list), else ``error`` naming ``what``."""
    if value is not True and value is not False:
        raise error(f"{what} must be True or False, not {excerpt(value)}.")
    return value


def check_int(value: object, what: str, error: type[CardgameError], *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or anything with ``__index__``, such as
    numpy's integers; never a ``bool``) within ``minimum`` and ``maximum``, else ``error`` naming
    ``what``, an excerpt of the value and what is allowed.

    Whatever the bounds, a number of more than :data:`MAX_DIGITS` digits is refused, so no caller
    meets Python's 4,300-digit limit or builds a list of that length.
    """
    number = whole_number(value)
    if number is None:
        raise error(f"The {what} must be a whole number{_allowed(minimum, maximum)}, not {excerpt(value)}.")
    low = -MAX_NUMBER if minimum is None else max(minimum, -MAX_NUMBER)
    high = MAX_NUMBER if maximum is None else min(maximum, MAX_NUMBER)
    if not low <= number <= high:
        digits = "" if -MAX_NUMBER <= number <= MAX_NUMBER else f" (and at most {MAX_DIGITS} digits)"
        raise error(f"The {what} must be a whole number{_allowed(minimum, maximum)}{digits}, not {excerpt(number)}.")
    return number


def check_instance(value: object, kind: type[T], what: str, error: type[CardgameError]) -> T:
    """``value`` if it is a ``kind`` (an object of the library's own that a caller hands on), else
    ``error`` saying ``what`` is needed, with an excerpt of the value."""
    if not isinstance(value, kind):
        raise error(f"{what} is needed, not {excerpt(value)}.")
    return value


def check_text(value: object, what: str, error: type[CardgameError], *, max_length: int = 1_000,
               empty: bool = False) -> str:
    """``value`` if it is a ``str`` of at most ``max_length`` characters (and not blank unless
    ``empty``), else ``error`` naming ``what``, an excerpt of the value and what is allowed."""
    if not isinstance(value, str):
        raise error(f"The {what} must be a string, not {excerpt(value)}.")
    if len(value) > max_length or (not empty and not value.strip()):
        raise error(f"The {what} must be a {'' if empty else 'non-blank '}string of at most {max_length:,} "
                    f"characters, not {excerpt(value)}.")
    return value


def check_path(value: object, what: str, error: type[CardgameError]) -> Path:
    """``value`` as a :class:`~pathlib.Path` if it is a ``str`` or ``os.PathLike`` naming a path without a
    NUL character, else ``error`` naming ``what`` and an excerpt of the value."""
    if isinstance(value, str | os.PathLike):
        try:
            path = Path(value)
        except TypeError:  # an os.PathLike of bytes
            path = None
        if path is not None and "\0" not in str(path):
            return path
    raise error(f"The {what} must be a file path (a string without NUL), not {excerpt(value)}.")


def label(source: object, limit: int = 4 * EXCERPT_LIMIT) -> str:
    """``source`` (a file name or ``"<string>"``) as it prefixes an error message: itself if a short
    one-line string, else an excerpt."""
    if isinstance(source, str) and len(source) <= limit and source.isprintable():
        return source
    return excerpt(source)


def is_ascii_int(text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (a sign only when ``signed``) of at most
    ``max_digits`` digits."""
    if not isinstance(text, str) or _INT.fullmatch(text) is None:
        return False
    digits = text.lstrip("+-")
    return (signed or digits == text) and len(digits) <= max_digits


def read_int(text: str, what: str, error: type[CardgameError], *, signed: bool = False,
             minimum: int | None = None, maximum: int | None = None, max_digits: int = MAX_DIGITS) -> int:
    """``text`` as an int, or ``error`` naming ``what``, the bad text (an excerpt) and what is allowed.

    Only ASCII digits count (``"²"`` and ``"٥"`` are refused), with a sign only when ``signed``, and at
    most ``max_digits`` of them; ``minimum`` and ``maximum`` bound the value.
    """
    if not is_ascii_int(text, signed=signed, max_digits=max_digits):
        bounds = ("" if minimum is None and maximum is None else f" from {minimum} to {maximum}"
                  if minimum is not None and maximum is not None else
                  f" of at least {minimum}" if minimum is not None else f" of at most {maximum}")
        sign = " with an optional sign" if signed and (minimum is None or minimum < 0) else ""
        raise error(f"The {what} must be a whole number{bounds}, written in ASCII digits 0-9{sign} (at most "
                    f"{max_digits} of them), not {excerpt(text)}.")
    value = int(text)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f"at least {minimum}"
        high = "" if maximum is None else f"at most {maximum}"
        raise error(f"The {what} {value} is out of range; allowed is {' and '.join(p for p in (low, high) if p)}.")
    return value


def read_text(path: str | os.PathLike[str], limit: int, error: type[CardgameError], what: str) -> str:
    """The UTF-8 text of the file at ``path``, reading at most ``limit`` bytes (so ``/dev/zero`` or a
    huge file is refused at once), else ``error`` naming the file. A
    file that cannot be opened raises ``OSError``. ``what`` is a noun: ``"a game definition"``."""
    p = Path(path)
    with p.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise error(f"{excerpt(str(p))} is longer than {limit:,} bytes, the most {what} may hold.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{excerpt(str(p))} is not UTF-8 text (byte {exc.start}); {what} is UTF-8 text.") from None


def read_file(path: object, limit: int, error: type[CardgameError], what: str) -> tuple[Path, str]:
    """The path and the text of the file at ``path`` (:func:`read_text`), with every problem ``error``: a
    path that is no path (:func:`check_path`), and a file that cannot be read (missing, a folder, a name
    too long: :func:`os_error`)."""
    p = check_path(path, f"path of {what}", error)
    try:
        return p, read_text(p, limit, error, what)
    except OSError as exc:
        raise error(f"Cannot read {what}: {os_error(exc)}.") from None


def writable_file(path: str) -> bool:
    """Whether ``path`` names a file that may be written, checked before the work that writes it:
    not a folder, in a folder that exists and may be written (and no NUL character), its name and
    path no longer than the system allows."""
    if not path or "\0" in path or os.path.isdir(path):
        return False
    folder = os.path.dirname(os.path.abspath(path))
    if not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
        return False
    try:
        name_max, path_max = os.pathconf(folder, "PC_NAME_MAX"), os.pathconf(folder, "PC_PATH_MAX")
        name, whole = len(os.fsencode(os.path.basename(path))), len(os.fsencode(os.path.abspath(path)))
    except (OSError, ValueError, AttributeError):  # not POSIX, or no limit known: the write will say
        return True
    return name <= name_max and whole < path_max


#: The deepest nesting of arrays and tables :func:`read_toml` reads; deeper text is refused before the
#: TOML reader recurses into it (how deep that reader can go depends on the stack left).
MAX_TOML_DEPTH = 32

# TOML strings and comments: brackets inside them do not nest.
_TOML_NOT_BRACKETS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
_TOML_BRACKET = re.compile(r"[\[\]{}]")


def nests_deeper(text: str, limit: int, quoted: re.Pattern[str]) -> bool:
    """Whether the brackets (``[]`` and ``{}``) of ``text`` nest more than ``limit`` deep, outside what
    ``quoted`` matches (strings and comments, whose brackets do not nest): counted before a parser
    recurses into the text, so the answer never depends on the stack the caller has left."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for m in _TOML_BRACKET.finditer(quoted.sub("", text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > limit:
            return True
    return False


def read_toml(text: str, source: str, error: type[CardgameError], max_depth: int = MAX_TOML_DEPTH) -> dict[str, Any]:
    """TOML ``text`` as a dict (a leading byte-order mark ignored), else ``error`` naming ``source``:
    ``"{source}: arrays or tables nested more than N deep"``, ``"{source}: invalid TOML: ..."`` (the
    reader's message, or an integer too long to read). Nesting is counted before parsing, so the answer
    never depends on the stack the caller has left."""
    if nests_deeper(text, max_depth, _TOML_NOT_BRACKETS):
        raise error(f"{source}: arrays or tables nested more than {max_depth} deep")
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as e:
        raise error(f"{source}: invalid TOML: {e}") from None
    except ValueError:  # an integer past int()'s 4,300-digit limit
        raise error(f"{source}: invalid TOML: a number too long to read") from None
    except RecursionError:  # (a backstop: nesting is bounded above)
        raise error(f"{source}: arrays or tables nested too deep") from None
