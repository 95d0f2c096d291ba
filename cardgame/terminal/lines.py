"""Lines fitted to the console's width: the command line's console does not wrap (``soft_wrap``, so
a piped hand history keeps its lines whole), so what ``demo``, ``play`` and ``replay`` print is cut
into lines of at most the width here, each continuation indented past its first line."""

from __future__ import annotations

import textwrap

from cardgame.engine.errors import ConfigError
from cardgame.model.inputs import check_instance, check_int, check_text
from cardgame.play.narration import Line

__all__ = ["fit", "fit_line"]

_GLUE = "\xa0"  # textwrap breaks at spaces, never at a no-break space

#: The widest line :func:`fit` makes (a wider ``width`` is taken as this: no console is wider).
MAX_WIDTH = 10_000


def fit(text: str, width: int, *, first: str = "", items: bool = False, sep: str = ", ",
        whole: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` columns: the first after ``first``, the others indented
    four columns more. With ``items``, a line is broken between the items of a list (separated by
    ``sep``), a player's cards kept together, rather than between words. A word longer than a line
    is broken, unless ``whole`` (a file's path, to copy whole: its line is longer). ``width`` is taken
    as 20 to :data:`MAX_WIDTH`."""
    check_text(text, "text to fit", ConfigError, max_length=10**7, empty=True)
    check_text(first, "first line's prefix", ConfigError, max_length=MAX_WIDTH, empty=True)
    if not check_text(sep, "separator", ConfigError, max_length=MAX_WIDTH, empty=True):
        raise ConfigError("The separator must not be empty.")
    width = min(max(check_int(width, "width", ConfigError), 20), MAX_WIDTH)
    body = sep.join(part.replace(" ", _GLUE) for part in text.split(sep)) if items else text
    lines = textwrap.wrap(body, width=width, initial_indent=first, subsequent_indent=first + "    ",
                          break_long_words=not whole, break_on_hyphens=False)
    return [line.replace(_GLUE, " ") for line in lines] or [first]


def fit_line(line: Line, width: int) -> list[str]:
    """A hand-history line fitted to ``width``: a deal or street broken between players, an action
    indented two columns, the others as they are."""
    check_instance(line, Line, "A hand history's Line", ConfigError)
    if line.kind == "street":
        return fit(line.text, width, items=True)
    return fit(line.text, width, first="  " if line.kind == "action" else "")
