"""Getting hands out of the store in other formats: PHH text for each finished hand, JSON lines."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import warnings
from collections.abc import Callable, Sequence
from typing import IO, Any

from cardgame.model.errors import CardgameError
from cardgame.model.events import Event, PlayerLeft
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.game import Game
from cardgame.store import queries
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.queries import event_row, table_id_arg
from cardgame.store.serialize import to_compact_json

__all__ = ["PhhWriter", "default_phh_writer", "export_jsonl", "hand_phh"]

#: Turns the events of one finished hand (``HandStarted`` .. ``HandEnded``) into PHH text
#: (``None``: leave the column null).
PhhWriter = Callable[[list[Event]], str | None]


def default_phh_writer(game: Game) -> PhhWriter | None:
    """A writer for ``game`` built on ``cardgame.phh.export.hand_to_phh``, or ``None``.

    ``None`` when that module does not exist, or when its ``variant_fields`` says PHH has no code
    for the game (Kuhn, Leduc, five-card draw). ``hand_to_phh(events, stages, names)`` (or
    ``hand_to_phh(events)``) may return PHH text or a :class:`~cardgame.phh.HandHistory`, which is
    written with :func:`cardgame.phh.dumps`. Names are those seated when the hand ends, plus
    those who left at its end.
    """
    if not isinstance(game, Game) and _hand_to_phh() is not None:
        raise StoreError(f"default_phh_writer takes a Game, not {excerpt(game)}.")
    made = _phh_maker(game.dispatcher.stages) if isinstance(game, Game) else None
    if made is None:
        return None

    def write(events: list[Event]) -> str:
        names = {p.seat: p.name for p in game.table.players()}
        names.update((e.seat, e.name) for e in events if isinstance(e, PlayerLeft))
        return made(events, names)

    return write


def _hand_to_phh() -> Callable[..., Any] | None:
    try:
        module = importlib.import_module("cardgame.phh.export")
    except ModuleNotFoundError as exc:
        if exc.name in ("cardgame.phh.export", "cardgame.phh"):
            return None
        warnings.warn(f"cardgame.phh.export cannot be imported ({exc}); PHH text is not stored.", stacklevel=4)
        return None
    except Exception as exc:
        warnings.warn(f"cardgame.phh.export cannot be imported ({exc}); PHH text is not stored.", stacklevel=4)
        return None
    fn = getattr(module, "hand_to_phh", None)
    return fn if callable(fn) else None


def _phh_maker(stages: Sequence[Any]) -> Callable[[list[Event], dict[int, str]], str] | None:
    """``make(events, names)``: one hand's PHH text on ``stages``, or ``None`` (no PHH for this game)."""
    fn = _hand_to_phh()
    if fn is None:
        return None
    module = importlib.import_module("cardgame.phh.export")
    signature = inspect.signature(fn)
    try:
        signature.bind([], stages, {})
        with_stages = True
    except TypeError:
        try:
            signature.bind([])
            with_stages = False
        except TypeError:
            warnings.warn("cardgame.phh.export.hand_to_phh takes neither (events) nor (events, stages, names); "
                          "pass phh_writer= to record PHH text.", stacklevel=4)
            return None
    check = getattr(module, "variant_fields", None)
    if with_stages and callable(check):
        try:
            check(stages, 2)
        except CardgameError:
            return None  # PHH has no code for this game
    from cardgame.phh import dumps as phh_dumps

    def make(events: list[Event], names: dict[int, str]) -> str:
        result = fn(events, stages, names) if with_stages else fn(events)
        return result if isinstance(result, str) else phh_dumps(result)

    return make


def hand_phh(store: StoreFile, table_id: str, hand: int, stages: Sequence[Any]) -> str | None:
    """The PHH text of finished hand ``hand`` of ``table_id`` (played on ``stages``): the ``phh`` column
    if the recorder filled it, else made now from the stored events. ``None`` if PHH has no code for
    the game; :class:`StoreError` if the hand is not in the store or not finished, or cannot be written
    as PHH."""
    table_id = table_id_arg(table_id)
    check_int(hand, "hand number", StoreError, minimum=1)
    rows = store.query("SELECT status, phh, players FROM hands WHERE table_id = ? AND hand = ?", (table_id, hand))
    if not rows:
        raise StoreError(f"Table {excerpt(table_id)} has no hand #{hand}.")
    status, phh, _ = rows[0]
    if status != "complete":
        raise StoreError(f"Hand #{hand} of table {excerpt(table_id)} is {excerpt(status)}, not complete: it has no "
                         "PHH.")
    if isinstance(phh, str):
        return phh
    make = _phh_maker(stages)
    if make is None:
        return None
    events = [e.event for e in queries.events(store, table_id, hand=hand)]
    names = dict(store.query("SELECT seat, name FROM hand_players WHERE table_id = ? AND hand = ?", (table_id, hand)))
    try:
        return make(events, {int(k): str(v) for k, v in names.items()})
    except CardgameError as exc:
        raise StoreError(f"Hand #{hand} of table {excerpt(table_id)} cannot be written as PHH: {exc}") from None


def export_jsonl(store: StoreFile, path_or_file: str | os.PathLike[str] | IO[str], table_id: str | None = None) -> int:
    """Write one JSON object per event (all tables, or ``table_id``); returns how many.

    Each line is ``{"table_id", "seq", "hand", "time", "kind", "seat", "event"}`` where
    ``event`` is the tagged payload (cards as text).
    """
    path = path_or_file if isinstance(path_or_file, (str, os.PathLike)) else None
    is_path = path is not None
    if not is_path and not callable(getattr(path_or_file, "write", None)):
        raise StoreError(f"export_jsonl writes to a file's path or an open text file, not {excerpt(path_or_file)}.")
    sql = "SELECT table_id, seq, hand, time, kind, seat, payload FROM events"
    params: list[Any] = []
    if table_id is not None:
        sql += " WHERE table_id = ?"
        params.append(table_id_arg(table_id))
    rows = store.query(sql + " ORDER BY table_id, seq", params)
    with contextlib.ExitStack() as stack:
        if path is not None:
            try:
                out: IO[str] = stack.enter_context(open(path, "w", encoding="utf-8"))
            except (OSError, ValueError, UnicodeError) as exc:  # ValueError: a NUL in the path
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
                raise StoreError(f"Cannot write the events to {excerpt(os.fspath(path))}: {reason}.") from None
        else:
            out = path_or_file  # type: ignore[assignment]
        keys = ("table_id", "seq", "hand", "time", "kind", "seat")
        for r in rows:
            columns, payload = event_row(r)
            out.write(to_compact_json({**dict(zip(keys, columns, strict=True)), "event": payload}) + "\n")
    return len(rows)
