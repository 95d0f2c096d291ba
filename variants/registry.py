"""Look variants up by name or PHH code."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from cardgame.errors import ConfigError
from cardgame.stage import Stage

__all__ = ["Variant", "available", "get", "register"]


@attrs.frozen
class Variant:
    """A named variant: ``build(**params)`` returns its stage list."""

    name: str
    code: str | None
    build: Callable[..., list[Stage]]
    description: str = ""
    max_players: int = 10


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add ``variant`` under its name and its code; names and codes must be new."""
    for key in (variant.name, variant.code):
        if key is not None and key.lower() in _REGISTRY:
            raise ConfigError(f"A variant is already registered as {key!r}.")
    for key in (variant.name, variant.code):
        if key is not None:
            _REGISTRY[key.lower()] = variant
    return variant


def get(name_or_code: str) -> Variant:
    """The variant called ``name_or_code`` (case-insensitive), e.g. ``"NT"`` or ``"no-limit hold'em"``."""
    try:
        return _REGISTRY[name_or_code.lower()]
    except KeyError:
        raise ConfigError(
            f"Unknown variant {name_or_code!r}; known are {', '.join(v.code or v.name for v in available())}."
        ) from None


def available() -> list[Variant]:
    """Every registered variant once, in registration order."""
    seen: dict[int, Variant] = {}
    for v in _REGISTRY.values():
        seen.setdefault(id(v), v)
    return list(seen.values())
