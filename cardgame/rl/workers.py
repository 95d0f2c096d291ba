"""A :class:`~cardgame.rl.vector.VectorEnv`'s tables on worker processes (``VectorEnv(workers=k)``).

The tables are cut into ``k`` contiguous shards; each is an in-process ``VectorEnv`` of its tables in
a worker process (the ``forkserver`` start method, or ``spawn`` where there is none), writing its
rows of the observations, masks, rewards and terminations into one block of shared memory whose
arrays the parent's are views of. A call is one small message to each worker and one answer back
(``None``, the infos, the seeds or the texts), or the exception the worker's tables raised.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import signal
import weakref
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
import numpy.typing as npt

from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.inputs import excerpt

__all__ = ["WorkerError", "cpus"]

Array = npt.NDArray[Any]

#: The arrays in the shared block, in order: (dtype, columns: 0 for one value a table).
_Layout = list[tuple[str, int]]


class WorkerError(CardgameError):
    """A worker process of a vector environment died (or was stopped by ``close``); the environment
    is unusable (close it and make another)."""


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on this system)
        return os.cpu_count() or 1


def views(buf: Any, num_envs: int, layout: _Layout) -> list[Array]:
    """The arrays of ``layout`` (one row a table) laid one after another in ``buf`` (each 8-byte aligned)."""
    arrays, offset = [], 0
    for dtype, columns in layout:
        shape = (num_envs, columns) if columns else (num_envs,)
        # (frombuffer holds the block's buffer: it cannot be unmapped under an array still held)
        array = np.frombuffer(buf, dtype, num_envs * max(columns, 1), offset).reshape(shape)
        arrays.append(array)
        offset += -(-array.nbytes // 8) * 8
    return arrays


def _size(num_envs: int, layout: _Layout) -> int:
    return sum(-(-num_envs * max(columns, 1) * np.dtype(dtype).itemsize // 8) * 8 for dtype, columns in layout)


def _reply(conn: Connection, value: object) -> None:
    """Send ``("ok", value)``, or the exception as ``("error", exc)`` (a :class:`WorkerError` naming it when
    it cannot cross to the parent)."""
    if isinstance(value, BaseException):
        try:
            pickle.loads(pickle.dumps(value))
            message: tuple[str, object] = ("error", value)
        except Exception:
            message = ("error", WorkerError(f"{type(value).__name__}: {excerpt(str(value), 300)}"))
    else:
        message = ("ok", value)
    conn.send(message)


def _serve(conn: Connection, name: str, num_envs: int, layout: _Layout, first: int, stop: int,
           make: Callable[..., Any], variant: Any, options: dict[str, Any]) -> None:
    """A worker: an in-process vector (``make``: the VectorEnv class) of tables ``first`` to ``stop - 1``
    writing into their rows of the shared block ``name``, answering the parent's calls until it says
    ``close`` or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl-C is the parent's to handle: it stops the workers)
    shm = SharedMemory(name)
    try:
        _answer(conn, shm, num_envs, layout, first, stop, make, variant, options)
    finally:
        gc.collect()  # (the vector's arrays are views of the block)
        _release(shm)


def _answer(conn: Connection, shm: SharedMemory, num_envs: int, layout: _Layout, first: int, stop: int,
            make: Callable[..., Any], variant: Any, options: dict[str, Any]) -> None:
    vec = make(variant, stop - first, dict_obs=False, copy=False, **options)
    vec._bind(*(array[first:stop] for array in views(shm.buf, num_envs, layout)))
    vec._first = first
    calls: dict[str, Callable[[Any], object]] = {
        "reset": lambda seeds: vec.reset(seed=seeds)[1],
        "check": lambda actions: vec._check(vec._actions(actions)) and None,
        "step": lambda actions: vec.step(actions)[4],
        "seeds": lambda _: vec.seeds_used,
        "render": lambda _: vec.render(),
    }
    while True:
        try:
            op, payload = conn.recv()
        except (EOFError, OSError):  # the parent went away
            return
        if op == "close":
            return
        try:
            result = calls[op](payload)
        except BaseException as exc:  # (the parent raises it: a refused action, a bot's error...)
            _reply(conn, exc)
        else:
            _reply(conn, result)


def _release(shm: SharedMemory) -> None:
    """Unmap the block, or if arrays still hold it, leave it to the last of them."""
    try:
        shm.close()
    except BufferError:
        shm._mmap = None  # type: ignore[attr-defined]  # (so the block's own close, when collected, leaves it)


def _shut(conn: list[Connection], processes: list[BaseProcess], shm: SharedMemory) -> None:
    """Stop the workers (asked, then terminated) and free the shared block."""
    try:
        for c in conn:
            with contextlib.suppress(OSError):  # (a dead worker)
                c.send(("close", None))
        for p in processes:
            p.join(2)
            if p.is_alive():
                p.terminate()
                p.join(2)
        for c in conn:
            c.close()
    finally:
        _release(shm)
        with contextlib.suppress(FileNotFoundError):
            shm.unlink()


class Pool:
    """``workers`` processes each stepping a contiguous shard of ``num_envs`` tables (``make(variant, tables,
    dict_obs=False, copy=False, **options)``: an in-process VectorEnv), and the shared block of the arrays
    (:meth:`arrays`). Stopped by :meth:`close`, by garbage collection or when the parent exits."""

    def __init__(self, workers: int, num_envs: int, layout: _Layout, make: Callable[..., Any], variant: Any,
                 options: dict[str, Any]) -> None:
        try:
            pickle.dumps((variant, options))
        except Exception as e:
            raise ConfigError(f"With workers, the opponents and options go to other processes and must pickle "
                              f"(bots: module-level functions or picklable objects): {excerpt(str(e), 200)}") from None
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context: Any = multiprocessing.get_context(method)
        self.num_envs, self.layout = num_envs, layout
        self.shm = SharedMemory(create=True, size=_size(num_envs, layout))
        self.starts = [num_envs * w // workers for w in range(workers)]
        self.stops = [*self.starts[1:], num_envs]
        self.conns: list[Connection] = []
        self.processes: list[BaseProcess] = []
        self._close = weakref.finalize(self, _shut, self.conns, self.processes, self.shm)
        self.broken = ""
        self.clean = False  # (every table playing: after a reset or step that raised nothing)
        for first, stop in zip(self.starts, self.stops, strict=True):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, self.shm.name, num_envs, layout, first, stop,
                                                           make, variant, options), daemon=True, name="cardgame-vector")
            try:
                process.start()
            except BaseException:
                self._close()  # (the workers started so far, and the block)
                raise
            finally:
                theirs.close()  # (so a dead worker's pipe reads as closed)
            self.conns.append(mine)
            self.processes.append(process)

    def arrays(self) -> list[Array]:
        """The shared arrays of every table, in ``layout``'s order."""
        return views(self.shm.buf, self.num_envs, self.layout)

    def split(self, values: Sequence[Any]) -> list[Sequence[Any]]:
        """``values`` (one a table) cut into the workers' shards."""
        return [values[a:b] for a, b in zip(self.starts, self.stops, strict=True)]

    def call(self, op: str, payloads: Sequence[object] | None = None) -> list[Any]:
        """Every worker's answer to ``op`` (with its payload), in table order; the first worker's exception
        raised once every worker answered."""
        if self.broken:
            raise WorkerError(self.broken)
        try:
            messages = [pickle.dumps((op, p)) for p in (payloads or [None] * len(self.conns))]
        except Exception:
            raise ConfigError(f"The {op} call's arguments must pickle to reach the workers: "
                              f"{excerpt(payloads)}.") from None
        try:
            answers = self._exchange(messages)
        except WorkerError:
            raise
        except BaseException:  # (Ctrl-C between a question and its answer: the answers would come out of turn)
            self.broken = "A call to the workers was interrupted; close the environment and make another."
            raise
        for w, (status, value) in enumerate(answers):
            if status == "error":
                value.add_note(f"(raised in worker {w}, tables from {self.starts[w]})")
                raise value
        return [value for _, value in answers]

    def _exchange(self, messages: list[bytes]) -> list[tuple[str, Any]]:
        """Each worker's message sent, then each one's answer."""
        for conn, message in zip(self.conns, messages, strict=True):
            with contextlib.suppress(OSError):  # (a dead worker: found below)
                conn.send_bytes(message)
        answers = []
        for w, (conn, process) in enumerate(zip(self.conns, self.processes, strict=True)):
            wait([conn, process.sentinel])
            try:
                answers.append(conn.recv())
            except (EOFError, OSError):
                process.join(1)
                self.broken = (f"Worker {w} (tables {self.starts[w]}...) of the vector environment stopped (exit "
                               f"code {process.exitcode}); close the environment and make another.")
                raise WorkerError(self.broken) from None
        return answers

    def close(self) -> None:
        """Stop the workers and free the shared memory (again: nothing); any later call raises
        :class:`WorkerError`."""
        self._close()
        self.broken = self.broken or "The vector environment was closed: its workers are stopped; make another."
