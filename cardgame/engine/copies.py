"""Shallow copies of slotted objects, the first step of every ``copy`` method of a running game.

``shallow_copy(obj)`` makes a new object of ``obj``'s class, without running ``__init__``, whose
every slot (and ``__dict__`` entry) holds the same value as ``obj``'s. A class's own ``copy`` then
gives the copy its own mutable parts (lists, the objects it links to) and shares the rest.

The copy is a function generated once per class, ``new.a = obj.a`` for each slot, as attrs
writes its methods (:func:`~cardgame.engine.records.fast_init`): a betting round's fifteen slots
took 0.19 µs, against 0.8 µs with a loop of ``getattr``/``setattr`` and 2.4 µs with ``copy.copy``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["shallow_copy", "slot_names"]

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any], Any]] = {}
_PARTS: dict[tuple[type, frozenset[str]], Callable[[Any], Any]] = {}  # shallow_copy_but's, by class and slots left


def slot_names(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases, bases first (``__dict__`` and ``__weakref__`` left out)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = vars(klass).get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name.startswith("__") and not name.endswith("__"):  # a private name, as Python mangles it
                name = f"_{klass.__name__.lstrip('_')}{name}"
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return tuple(names)


def _copier(cls: type, but: frozenset[str] = frozenset()) -> Callable[[Any], Any]:
    """Generate ``cls``'s shallow copy (see the module docstring), leaving the slots ``but`` unset."""
    has_dict = any("__dict__" in vars(klass) for klass in cls.__mro__[:-1])
    body = [f"    new.{name} = obj.{name}" for name in slot_names(cls) if name not in but]
    if has_dict:
        body.append("    new.__dict__.update(obj.__dict__)")
    source = "\n".join(["def copy(obj):", "    new = new_object(cls)", *body, "    return new"])
    names: dict[str, Any] = {"cls": cls, "new_object": object.__new__}
    exec(source, names)  # the source is built above from the class's own slot names
    copier: Callable[[Any], Any] = names["copy"]
    copier.__qualname__ = f"{cls.__qualname__}.<shallow copy>"
    return copier


def shallow_copy_but(obj: T, but: frozenset[str]) -> T:
    """:func:`shallow_copy` leaving the slots named in ``but`` unset, for a ``copy`` method that gives each of
    them a value of its own at once (a context copied for every episode of a learning environment)."""
    key = (type(obj), but)
    try:
        copier = _PARTS[key]
    except KeyError:
        copier = _PARTS[key] = _copier(type(obj), but)
    result: T = copier(obj)
    return result


def shallow_copy(obj: T) -> T:
    """A new object of ``obj``'s class whose every slot holds the same value (no ``__init__`` runs)."""
    try:
        copier = _COPIERS[type(obj)]  # (a class met before: one lookup, the common case)
    except KeyError:
        copier = _COPIERS[type(obj)] = _copier(type(obj))
    result: T = copier(obj)
    return result
