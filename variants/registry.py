"""Variants as values: each one a :class:`Variant`, registered under its name and PHH code.

``variants.get("FR")`` returns the variant; ``variant.build(**params)`` its stage list, a
:class:`~cardgame.engine.Stages` that knows the variant (PHH export and replay use its code). A
builder function becomes a registered variant with the :func:`variant` decorator, which is how the
library's own variants are declared and how a user's own variant registers the same way::

    @variant("bomb-pot hold'em", code=None, description="Everyone antes; no pre-flop betting")
    def bomb_pot_holdem(amount: int = 5, big_blind: int = 2) -> list[PokerStage]: ...
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, ParamSpec

import attrs

from cardgame.engine import Stage, Stages
from cardgame.model.deck import STANDARD_DECK, DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import EXCERPT_LIMIT, excerpt

__all__ = ["Variant", "available", "form_of", "get", "register", "variant"]

P = ParamSpec("P")


@attrs.frozen
class Variant:
    """A named variant: ``builder(**params)`` returns its stages; ``code`` is its PHH code (``None``
    if PHH has none), ``deck`` the deck it is dealt from."""

    name: str
    code: str | None
    builder: Callable[..., Any] = attrs.field(repr=False)
    description: str = ""
    max_players: int = 10
    deck: DeckSpec = STANDARD_DECK

    def build(self, **params: Any) -> Stages:
        """The variant's stage list for ``params`` (keyword arguments of the builder); a parameter
        the builder does not take is a :class:`ConfigError` naming the ones it does."""
        try:
            signature = inspect.signature(self.builder)
        except (TypeError, ValueError):  # a builder without a signature: call it and see
            signature = None
        if signature is not None:
            try:
                signature.bind(**params)
            except TypeError as exc:
                takes = ", ".join(signature.parameters) or "no parameters"
                raise ConfigError(f"Bad parameters for {self.name}: {str(exc)[:EXCERPT_LIMIT * 2]}; its parameters are "
                                  f"{takes}.") from None
        stages = self.builder(**params)
        return Stages(stages, getattr(stages, "variant", None) or self)


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add ``variant`` under its name and its code; names and codes must be new."""
    if not isinstance(variant, Variant):
        raise ConfigError(f"register takes a Variant (see the variant decorator), not {excerpt(variant)}.")
    for key in (variant.name, variant.code):
        if key is not None and key.lower() in _REGISTRY:
            raise ConfigError(f"A variant is already registered as {excerpt(key)}.")
    for key in (variant.name, variant.code):
        if key is not None:
            _REGISTRY[key.lower()] = variant
    return variant


def variant(
    name: str, code: str | None = None, description: str = "", *, max_players: int = 10,
    deck: DeckSpec = STANDARD_DECK,
) -> Callable[[Callable[P, Sequence[Stage[Any]]]], Callable[P, Stages]]:
    """Register the decorated builder as a variant; calling it returns :class:`Stages` that know it."""

    def wrap(builder: Callable[P, Sequence[Stage[Any]]]) -> Callable[P, Stages]:
        @wraps(builder)
        def build(*args: P.args, **kwargs: P.kwargs) -> Stages:
            stages = builder(*args, **kwargs)
            form = getattr(stages, "variant", None)
            if isinstance(form, Variant) and form.name.lower() not in _REGISTRY:  # a form of the game (bomb pot)
                return Stages(stages, form_of(value, form, functools.partial(build, *args, **kwargs)))
            return Stages(stages, value)

        value = register(Variant(name, code, build, description, max_players, deck))
        return build

    return wrap


def form_of(base: Variant, form: Variant, builder: Callable[..., Any]) -> Variant:
    """``base`` played in the form ``form`` (a bomb pot): named after both, with ``form``'s PHH code
    (``None``: PHH cannot record it), built by ``builder``; not registered."""
    return attrs.evolve(base, name=f"{base.name}, {form.name}", code=form.code, builder=builder,
                        description=f"{base.description}; {form.description}")


def get(name_or_code: str) -> Variant:
    """The variant called ``name_or_code`` (case-insensitive), e.g. ``"NT"`` or ``"no-limit hold'em"``."""
    try:
        return _REGISTRY[name_or_code.lower()]
    except (KeyError, AttributeError):  # AttributeError: not text
        known = ", ".join(f"{v.code} or {v.name}" if v.code else v.name for v in available())
        raise ConfigError(f"Unknown variant {excerpt(name_or_code)}; give a PHH code or a name: {known}.") from None


def available() -> list[Variant]:
    """Every registered variant once, in registration order."""
    seen: dict[int, Variant] = {}
    for v in _REGISTRY.values():
        seen.setdefault(id(v), v)
    return list(seen.values())
