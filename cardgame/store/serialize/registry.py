"""The record types saved data may name: each attrs record is saved under a ``"type"`` tag (the class
name for the library's own, ``"module:QualName"`` for another attrs class of an imported module)."""

from __future__ import annotations

import sys
from typing import Any

import attrs

from cardgame.model import events as events_module
from cardgame.model.events import Event
from cardgame.model.inputs import excerpt
from cardgame.model.rake import Rake
from cardgame.model.street import StreetRecord
from cardgame.stages import (
    BettingResult,
    BringInResult,
    DrawOptions,
    ForcedBetsResult,
    HandOpened,
    RunOptions,
    ShowdownResult,
)
from cardgame.stages.dead_button import BlindsOpened
from cardgame.store.serialize.converter import SnapshotError

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
for _cls in (HandOpened, BlindsOpened, BettingResult, ForcedBetsResult, BringInResult, ShowdownResult, DrawOptions,
             RunOptions, StreetRecord, Rake):
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
