"""The public API of the file and protocol applications walked with hostile values: every public
callable of :mod:`cardgame.phh`, :mod:`cardgame.acpc` and :mod:`cardgame.store`, found by introspection
(the walker of :mod:`tests.api_walk`).

A hostile value (a huge or negative number, a bool, NaN, a 100,000-character string, bytes, deep
nesting, ``None``, a wrong type, an object whose ``repr`` raises) is taken or refused with the
library's own error (:class:`~cardgame.model.errors.HandHistoryError`, ``ProtocolError``,
:class:`~cardgame.store.StoreError`...) whose message is short; never a bare ``TypeError``,
``AttributeError``, ``ValueError`` (4,300 digits) or ``OSError`` (a file name too long, a folder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.api_walk import FUZZ, HOSTILE, call_hostile, check_fixed, hostile_arguments, public_callables, walked

FILES = ("cardgame.phh", "cardgame.acpc", "cardgame.store")

#: Public names left out as code, not input (each with why).
ALLOWED: dict[str, str] = {
}

#: Names (prefixes) whose arguments are the library's own runtime objects, never parsed from input.
RUNTIME: tuple[str, ...] = (
)

#: Escapes not yet mended (``name: what escapes``), each a strict xfail: empty.
KNOWN_ESCAPES: dict[str, str] = {}

API = public_callables(FILES, ALLOWED, RUNTIME)


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call given a file name (a string among the hostile values) writes it here, not in the checkout."""
    monkeypatch.chdir(tmp_path)


def test_the_walk_finds_the_file_applications() -> None:
    """The walk sees the functions and classes a user calls (a new public name is walked at once)."""
    names = {name for name, _ in API}
    assert {"cardgame.phh.loads", "cardgame.phh.HandHistory", "cardgame.phh.HandHistory.from_dict",
            "cardgame.acpc.parse_gamedef", "cardgame.acpc.load_gamedef", "cardgame.store.EventStore",
            "cardgame.store.Recorder"} <= names


@pytest.mark.parametrize(("label", "fn"), walked(API, KNOWN_ESCAPES))
def test_file_callables_refuse_each_fixed_hostile_value(label: str, fn: Callable[..., Any]) -> None:
    """Each of :data:`~tests.api_walk.HOSTILE_FIXED` in each parameter (a known escape: strict xfail)."""
    check_fixed(label, fn)


@pytest.mark.parametrize(("label", "fn"), [(name, fn) for name, fn in API if name not in KNOWN_ESCAPES],
                         ids=[name for name, _ in API if name not in KNOWN_ESCAPES])
@FUZZ
@given(value=HOSTILE, where=st.integers(min_value=0, max_value=20))
def test_file_callables_refuse_hostile_values_with_their_own_errors(
        label: str, fn: Callable[..., Any], value: Any, where: int) -> None:
    arguments = hostile_arguments(fn, where, value)
    if arguments is not None:
        call_hostile(label, fn, *arguments)
