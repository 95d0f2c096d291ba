"""The walker of the public API with hostile values, shared by the test modules that walk each layer
(``tests/test_public_api_fuzz.py`` the core packages; the applications' own modules theirs).

:func:`public_callables` takes any list of modules (a package without ``__all__`` is walked module by
module) with the names left out (``allowed``: code, not input; ``runtime``: prefixes of names whose
arguments are the library's own runtime objects), :func:`hostile_arguments` builds a call with one
hostile argument and :func:`call_hostile` judges it: it returns, or raises the library's own error
(:class:`~cardgame.model.errors.CardgameError`) with a short message, within :data:`CALL_SECONDS`.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import variants
from cardgame.model.errors import CardgameError
from cardgame.model.inputs import excerpt
from cardgame.play.game import Game

#: and a short excerpt (variants.get lists every variant: about 620 characters with a long excerpt).
MESSAGE_LIMIT = 700

#: Seconds one call may take: a hostile count must be refused, not run (a number of hands, seats, samples).
CALL_SECONDS = 5


def deep(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


class Explodes:
    """An object whose ``repr`` raises: a message must still name it. (An object raising its own error
    from ``len`` or ``bool`` would propagate that error, which is the caller's own.)"""

    def __repr__(self) -> str:
        raise RuntimeError("repr of a hostile object")


HOSTILE_FIXED: tuple[Any, ...] = (
    10**5000, -10**5000, 10**19, -1, -(10**18), 10**18, 2**63, True, False, math.nan, math.inf, -math.inf, 1.5,
    -0.0, "x" * 100_000, "", " ", "\0", "٥", b"\xff" * 1000, None, [], [None], deep(10_000), {"a": deep(2000)},
    object(), Explodes(), (1, 2), [10**5000], ["x" * 100_000], {1, 2}, print, Ellipsis, 1j,
)

HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_FIXED),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.one_of(st.integers(), st.none(), st.text(max_size=3)), max_size=5),
)


def _modules(names: Sequence[str]) -> Iterator[ModuleType]:
    """Each module named, and for a package without ``__all__`` each of its public modules."""
    for name in names:
        module = importlib.import_module(name)
        if hasattr(module, "__all__") or not hasattr(module, "__path__"):
            yield module
        if (hasattr(module, "__path__") and not hasattr(module, "__all__")) or name == "cardgame.play":
            yield from _modules([f"{name}.{m.name}" for m in pkgutil.iter_modules(module.__path__)
                                 if not m.name.startswith("_")])


def public_callables(names: Sequence[str], allowed: Mapping[str, str], runtime: Sequence[str]
                     ) -> list[tuple[str, Callable[..., Any]]]:
    """Every public callable in the ``__all__`` of the modules named (and of a package's modules when it
    has no ``__all__``), once each under its first name, with the public class- and static methods of
    classes; exceptions and protocols (nothing to call), ``allowed`` names and ``runtime`` prefixes left out."""
    found: dict[int, tuple[str, Callable[..., Any]]] = {}
    for module in _modules(names):
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            name = f"{module.__name__}.{attr}"
            if not callable(obj) or name in allowed or any(name.startswith(r) for r in runtime):
                continue
            if inspect.isclass(obj) and (issubclass(obj, BaseException) or getattr(obj, "_is_protocol", False)):
                continue
            found.setdefault(id(obj), (name, obj))
            if inspect.isclass(obj):
                for member, raw in vars(obj).items():
                    if not member.startswith("_") and isinstance(raw, classmethod | staticmethod):
                        found.setdefault(id(raw), (f"{name}.{member}", getattr(obj, member)))
    return sorted(found.values(), key=lambda item: item[0])

def _game() -> Game:
    game = Game(variants.get("NT"), seats=3, seed=1)
    for who in ("Ann", "Bob"):
        game.sit_down(who, 100)
    return game


#: Values a parameter of this name takes when it is not the one made hostile, so a call gets past its
#: first argument to the ones after it.
BASELINE: dict[str, Callable[[], Any]] = {
    "name": lambda: "Ann", "seat": lambda: 0, "stack": lambda: 100, "amount": lambda: 10, "text": lambda: "Ah",
    "cards": lambda: [0, 1, 2, 3, 4], "hole": lambda: [0, 1, 2, 3], "board": lambda: [8, 9, 10],
    "value": lambda: 5, "variant": lambda: "NT", "bots": lambda: ("random", "random"), "hands": lambda: 2,
    "name_or_code": lambda: "NT", "structure": lambda: variants.no_limit_holdem()[3].structure,
    "stages": lambda: variants.no_limit_holdem(), "min_bet": lambda: 2, "small_bet": lambda: 2,
    "big_bet": lambda: 4, "count": lambda: 1, "game": _game, "seed": lambda: 1, "index": lambda: 0,
    "winners": lambda: [0, 1], "hole_cards": lambda: 2, "blinds": lambda: (1, 2), "streets": lambda: ((5, "river"),),
    "match": lambda: __import__("cardgame.simulate", fromlist=["Match"]).Match("NT", ("random", "random"), 2),
}


def hostile_arguments(fn: Callable[..., Any], hostile_at: int, value: Any) -> tuple[list[Any], dict[str, Any]] | None:
    """Arguments for ``fn``: ``value`` for its parameter number ``hostile_at`` (modulo their count), a
    baseline or the default for the others (the hostile value where there is neither)."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        return None
    if not params:
        return [], {}
    target = hostile_at % len(params)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for i, p in enumerate(params):
        if i == target:
            v = value
        elif p.default is not p.empty:
            continue
        elif p.name in BASELINE:
            v = BASELINE[p.name]()
        else:
            v = value
        if p.kind is p.POSITIONAL_ONLY:
            args.append(v)
        else:
            kwargs[p.name] = v
    return args, kwargs


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the call ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def call_hostile(label: str, fn: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> None:
    """Call ``fn`` (and draw up to 100 items of a generator it returns, whose body runs only then): it
    must return, or raise a :class:`CardgameError` with a message of at most :data:`MESSAGE_LIMIT`
    characters, within :data:`CALL_SECONDS`."""
    try:
        with time_limit(CALL_SECONDS):
            result = fn(*args, **kwargs)
            if inspect.isgenerator(result):
                for _ in zip(range(100), result, strict=False):
                    pass
    except CardgameError as exc:
        message = str(exc)
        assert len(message) <= MESSAGE_LIMIT, f"{label}: a message of {len(message):,} characters: {message[:200]}"
    except BaseException as exc:  # every other exception is an escape
        pytest.fail(f"{label} raised {type(exc).__name__}: {excerpt(exc.args, 300)}")


FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def walked(api: Sequence[tuple[str, Callable[..., Any]]], known: Mapping[str, str]) -> list[Any]:
    """``api`` as pytest parameters, a name in ``known`` (an escape not yet mended) a strict xfail."""
    return [pytest.param(name, fn, id=name, marks=[pytest.mark.xfail(reason=known[name], strict=True)]
                         if name in known else []) for name, fn in api]


def check_fixed(label: str, fn: Callable[..., Any], positions: int = 12) -> None:
    """Each of :data:`HOSTILE_FIXED` in each of the first ``positions`` parameters of ``fn``."""
    for value in HOSTILE_FIXED:
        for where in range(positions):
            arguments = hostile_arguments(fn, where, value)
            if arguments is not None:
                call_hostile(f"{label} (argument {where}: {type(value).__name__})", fn, *arguments)


def walk_tests(api: Sequence[tuple[str, Callable[..., Any]]], known: Mapping[str, str]
               ) -> tuple[Callable[..., None], Callable[..., None]]:
    """The two walk tests of ``api`` for a test module to take as its own (``test_a, test_b =
    walk_tests(...)``): each of :data:`HOSTILE_FIXED` in each parameter (a name in ``known``: strict
    xfail), and hypothesis's hostile values in a parameter it draws."""

    @pytest.mark.parametrize(("label", "fn"), walked(api, known))
    def fixed(label: str, fn: Callable[..., Any]) -> None:
        check_fixed(label, fn)

    @pytest.mark.parametrize(("label", "fn"), [(name, fn) for name, fn in api if name not in known],
                             ids=[name for name, _ in api if name not in known])
    @FUZZ
    @given(value=HOSTILE, where=st.integers(min_value=0, max_value=20))
    def drawn(label: str, fn: Callable[..., Any], value: Any, where: int) -> None:
        arguments = hostile_arguments(fn, where, value)
        if arguments is not None:
            call_hostile(label, fn, *arguments)

    return fixed, drawn
