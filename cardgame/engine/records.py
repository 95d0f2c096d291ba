"""A faster ``__init__`` for the frozen attrs records built on every hand (events, stage results).

attrs writes a frozen class's ``__init__`` as ``_setattr = _cached_setattr_get(self)`` and one
``_setattr(name, value)`` per field. :func:`fast_init`, applied on top of ``@attrs.frozen``,
generates the same ``__init__`` from the class's attrs fields (same parameters, order and
defaults) that stores each value through the slot's own descriptor, about a third quicker; the
class stays frozen, compares, hashes and serialises as attrs made it. Classes with converters,
validators, factories or ``__attrs_post_init__`` are refused, so nothing attrs would run is
skipped. ``tests/test_records.py`` checks every decorated class against its attrs fields.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

__all__ = ["fast_init"]

T = TypeVar("T", bound=type)


def _slot(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    raise TypeError(f"{cls.__name__}.{name} is not a slot: fast_init needs a slotted attrs class.")


def fast_init(cls: T) -> T:
    """Replace the attrs ``__init__`` of the frozen slotted class ``cls`` by a generated one."""
    if hasattr(cls, "__attrs_post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init does not run __attrs_post_init__.")
    names: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for i, field in enumerate(attrs.fields(cls)):
        if field.converter is not None or field.validator is not None or not field.init or field.kw_only:
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init handles plain fields only.")
        if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init does not run factories.")
        param = field.alias or field.name  # a private field's parameter drops the underscore, as in attrs
        if field.default is attrs.NOTHING:
            params.append(param)
        else:
            names[f"d{i}"] = field.default
            params.append(f"{param}=d{i}")
        names[f"s{i}"] = _slot(cls, field.name).__set__
        body.append(f"    s{i}(self, {param})")
    source = "\n".join([f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):",
                        *(body or ["    pass"])])
    exec(source, names)  # the source is built above from the class's own attrs fields
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
