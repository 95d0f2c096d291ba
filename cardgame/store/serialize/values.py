"""The game's own values as JSON data, for snapshots and the event store alike: players and tables,
deck specifications, random generator states, stage outcomes."""

from __future__ import annotations

import math
from typing import Any, cast

from cardgame.engine import Done, Exit, Failed, Goto, Outcome, PassOn, Restart
from cardgame.model.button import OWES
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import CardgameError
from cardgame.model.inputs import excerpt
from cardgame.model.player import Player
from cardgame.model.rng import RandomSource
from cardgame.model.table import Table
from cardgame.store.serialize.converter import SnapshotError, _converter, json_kind, to_plain
from cardgame.store.serialize.jsontext import JsonObject
from cardgame.store.serialize.records import decode_value, encode_value


def encode_player(player: Player) -> dict[str, Any]:
    """A seated player: ``{"name", "seat", "stack", "sitting_out", "leaving", "owes"}``."""
    return {"name": player.name, "seat": player.seat, "stack": player.stack, "sitting_out": player.sitting_out,
            "leaving": player.leaving, "owes": player.owes}


def decode_player(data: Any, where: str) -> Player:
    """The player of :func:`encode_player` (one saved before players owed blinds owes ``"new"``)."""
    o = JsonObject(data, where)
    owes = o.get_str("owes") if "owes" in o.data else "new"
    if owes not in OWES:
        raise SnapshotError(f"{o.path('owes')} must be one of {', '.join(map(repr, OWES))}, not {excerpt(owes)}.")
    return Player(o.get_str("name"), o.get_int("seat", minimum=0), o.get_int("stack", minimum=0),
                  o.get_bool("sitting_out"), o.get_bool("leaving"), owes)


def encode_table(table: Table) -> dict[str, Any]:
    """A table: its configuration, the button, and every seat (null or :func:`encode_player`)."""
    return {
        "seat_count": table.seat_count,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "first_button": table.first_button,
        "button": table.button,
        "seats": [None if p is None else encode_player(p) for p in table.seats],
    }


def decode_table(data: Any, where: str) -> Table:
    """The table of :func:`encode_table`: one entry per seat, each player in its own seat, no name twice."""
    o = JsonObject(data, where)
    seats = o.get_list("seats")
    seat_count = o.get_int("seat_count", minimum=2)
    if len(seats) != seat_count:  # checked first: the list bounds the seats a table is made with
        raise SnapshotError(f"{o.path('seats')} lists {len(seats)} seats but seat_count is {seat_count}.")
    min_buy_in, max_buy_in = o.get_int("min_buy_in", minimum=1), o.get_int("max_buy_in", minimum=1)
    first_button = o.opt_int("first_button", minimum=0, maximum=seat_count - 1)
    try:
        table = Table(seat_count, min_buy_in, max_buy_in, first_button)
    except CardgameError as exc:
        raise SnapshotError(f"{where}: {exc}") from None
    table.button = o.opt_int("button", minimum=0, maximum=seat_count - 1)
    names: set[str] = set()
    for i, raw in enumerate(seats):
        if raw is None:
            continue
        p = decode_player(raw, f"{o.path('seats')}[{i}]")
        if p.seat != i:
            raise SnapshotError(f"{o.path('seats')}[{i}] holds a player whose seat is {p.seat}.")
        if p.name in names:
            raise SnapshotError(f"{o.path('seats')}[{i}]: the name {excerpt(p.name)} is seated twice.")
        names.add(p.name)
        table.seats[i] = p
    return table


def encode_deck_spec(spec: DeckSpec) -> dict[str, Any]:
    """A deck specification: ``{"ranks": "23456789TJQKA", "suits": "cdhs"}``."""
    data: dict[str, Any] = _converter.unstructure(spec)
    return data


def decode_deck_spec(data: Any, where: str) -> DeckSpec:
    """The deck specification of :func:`encode_deck_spec` (both fields required)."""
    o = JsonObject(data, where)
    ranks, suits = o.get_str("ranks"), o.get_str("suits")
    try:
        return DeckSpec(ranks, suits)
    except CardgameError as exc:
        raise SnapshotError(f"{where}: {exc}") from None


def encode_rng(rng: RandomSource) -> dict[str, Any]:
    """A random source: its seed, the deck generator's full state (tuples as lists) and each bot
    stream's, by label. An unseeded source (the operating system's) has none: ``{"seed": null,
    "state": null}``, and restoring it deals from the operating system again."""
    if rng.seed is None:
        return {"seed": None, "state": None}
    data: dict[str, Any] = {"seed": rng.seed, "state": to_plain(rng.getstate())}
    streams = rng.streams
    if streams:
        data["streams"] = {label: to_plain(gen.getstate()) for label, gen in sorted(streams.items())}
    return data


#: Digits a random source's seed may have (``RandomSource()`` draws 64 bits: 20 digits).
_SEED_DIGITS = 40
#: ``random.Random.getstate()``: version 3, 624 words of 32 bits and the position in them, the
#: cached Gaussian (``None`` or a number).
_MT_WORDS = 624


def decode_rng(data: Any, where: str) -> RandomSource:
    """The random source of :func:`encode_rng`, in the same state (its bot streams too); a null
    seed gives a new unseeded source (the operating system's).

    Each state must have the shape ``random.Random.getstate()`` gives: ``[3, [624 words of 32 bits,
    a position 0 to 624], null or a number]``.
    """
    o = JsonObject(data, where)
    if o.raw("seed") is None:
        if o.raw("state") is not None:
            raise SnapshotError(f"{o.path('state')} must be null when the seed is null (an unseeded game has no "
                                "generator state).")
        return RandomSource()
    seed = o.get_int("seed", maximum=10**_SEED_DIGITS - 1, minimum=1 - 10**_SEED_DIGITS)
    rng = RandomSource(seed)
    rng.setstate(_mt_state(o.get_list("state"), o.path("state")))
    raw_streams = o.raw("streams") if "streams" in o.data else {}
    if not isinstance(raw_streams, dict) or not all(isinstance(k, str) for k in raw_streams):
        raise SnapshotError(f"{o.path('streams')} must be an object of generator states by label.")
    for label, value in raw_streams.items():
        path = f"{o.path('streams')}.{label}"
        if not isinstance(value, list):
            raise SnapshotError(f"{path} must be a generator state (a list), not {json_kind(value)}.")
        rng.stream(label).setstate(_mt_state(value, path))
    return rng


def _mt_state(state: list[Any], path: str) -> tuple[Any, ...]:
    """The ``random.Random`` state saved at ``path``, checked."""
    words = state[1] if len(state) == 3 else None
    if (state[:1] != [3] or type(state[0]) is not int or type(words) is not list or len(words) != _MT_WORDS + 1
            or any(type(w) is not int for w in words)):
        raise SnapshotError(f"{path} is not a valid random generator state: it must be [3, [{_MT_WORDS} words and a "
                            "position], null or a number].")
    if not all(0 <= w < 2**32 for w in words[:-1]) or not 0 <= words[-1] <= _MT_WORDS:
        raise SnapshotError(f"{path} is not a valid random generator state: each word must be 0 to 2**32 - 1 and "
                            f"the position 0 to {_MT_WORDS}.")
    gauss = state[2]
    if gauss is not None and (type(gauss) not in (int, float) or not math.isfinite(gauss)):
        raise SnapshotError(f"{path}[2] (the cached Gaussian) must be null or a number, not {json_kind(gauss)}.")
    return (3, tuple(words), None if gauss is None else float(gauss))


def encode_failed(failed: Failed) -> dict[str, Any]:
    """A failure: ``{"reason", "stage", "state"}``."""
    data: dict[str, Any] = _converter.unstructure(failed)
    return data


def decode_failed(data: Any, where: str) -> Failed:
    """The failure of :func:`encode_failed` (other fields, such as an outcome's type, are ignored)."""
    o = JsonObject(data, where)
    return Failed(o.get_str("reason"), o.get_str("stage"), o.get_str("state"))


def encode_outcome(outcome: Outcome | None, where: str = "outcome") -> dict[str, Any] | None:
    """A stage outcome: ``{"type": "done", "result": ...}`` (the result by :func:`encode_value`),
    ``{"type": "goto", "stage": ..., "result": ...}``, ``{"type": "pass_on"}``, ``{"type": "restart"}``,
    ``{"type": "exit"}`` or ``{"type": "failed", "reason", "stage", "state"}``."""
    if outcome is None:
        return None
    kind = type(outcome)
    if kind is Done:
        return {"type": "done", "result": encode_value(cast(Done, outcome).result, f"{where}.result")}
    if kind is Goto:
        goto = cast(Goto, outcome)
        return {"type": "goto", "stage": goto.stage, "result": encode_value(goto.result, f"{where}.result")}
    if kind is PassOn:
        return {"type": "pass_on"}
    if kind is Restart:
        return {"type": "restart"}
    if kind is Exit:
        return {"type": "exit"}
    if kind is Failed:
        return {"type": "failed", **encode_failed(cast(Failed, outcome))}
    raise SnapshotError(f"{where}: unknown outcome {outcome!r}.")


def decode_outcome(data: Any, where: str = "outcome") -> Outcome | None:
    """The outcome of :func:`encode_outcome`."""
    if data is None:
        return None
    o = JsonObject(data, where)
    kind = o.raw("type")
    if kind == "done":
        return Done(decode_value(o.raw("result"), o.path("result")))
    if kind == "goto":
        return Goto(o.get_str("stage"), decode_value(o.raw("result"), o.path("result")))
    if kind == "pass_on":
        return PassOn()
    if kind == "restart":
        return Restart()
    if kind == "exit":
        return Exit()
    if kind == "failed":
        return decode_failed(data, where)
    raise SnapshotError(f"{o.path('type')} must be done, goto, pass_on, restart, exit or failed, "
                        f"not {json_kind(kind)}.")
