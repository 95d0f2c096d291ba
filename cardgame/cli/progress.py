"""A progress bar for long commands: drawn with rich on stderr, and only when stderr is a terminal,
so piped output and logs stay clean. The library reports progress through a callback
``progress(done, total)``; :func:`progress_bar` gives one that draws it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(what: str, console: Console | None = None) -> Iterator[Callable[[int, int], None] | None]:
    """A callback ``progress(done, total)`` drawing a bar labelled ``what`` on ``console`` (default:
    stderr) while the block runs, the bar gone after it; ``None`` when the console is not a
    terminal (nothing is drawn)."""
    console = console or Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(what, total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report
