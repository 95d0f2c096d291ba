"""Stepping through a hand history in the terminal (``cardgame replay FILE``): each step is one
action of the file, shown in words with the table as a seat sees it, or with every card shown.

The steps come from :func:`cardgame.phh.steps.hand_steps` (each view kept, so going back is
instant); the table is drawn by :func:`cardgame.terminal.render.render_table`. :class:`Replayer`
holds the session and reads the commands (``n`` next, ``p`` previous...; :data:`HELP`);
:func:`print_steps` prints every step in order, for a pipe or a test.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.text import Text

from cardgame.model.errors import CardgameError, ConfigError, HandHistoryError
from cardgame.model.inputs import check_bool, check_instance, check_int, check_text, excerpt, os_error, read_int
from cardgame.phh.history import HandHistory
from cardgame.phh.io import StrPath, load_each
from cardgame.phh.steps import HandSteps, hand_steps, pick_hand, printable, seat_of, view_equity
from cardgame.play.view import TableView
from cardgame.terminal.lines import fit, fit_line
from cardgame.terminal.render import render_table

__all__ = ["HELP", "Replayer", "interact", "print_steps"]

HELP = """Commands (then Enter):
  n or Enter  next step              p       previous step
  g N         go to step N           a       show every card
  s SEAT      see the hand as SEAT (its number as p2 or 2, or its name)
  h           list the file's hands  h N     go to hand N
  q           quit                   help    this text"""


def _table(view: TableView, steps: HandSteps, lines: tuple[str, ...]) -> RenderableType:
    """The table of one step, the lines of play under it."""
    return render_table(view, stud=not steps.button, last_actions=lines, seat_label=_player)


def _player(seat: int) -> str:
    """A seat as the hand history numbers its players: ``p1`` is the engine's seat 0."""
    return f"p{seat + 1}"


class Replayer:
    """A replay session over the hands of one file: the hand shown, its step and the viewpoint
    (a seat, ``0`` being the file's ``p1``, or ``None`` for every card)."""

    def __init__(self, path: StrPath, hand: int = 1, seat: str = "all", *, equity: bool = False) -> None:
        """Open ``path`` at hand ``hand`` (1-based) as ``seat`` sees it (``all``, a player's number
        or name); with ``equity``, each step also shows every live player's equity as that seat sees
        the cards (:func:`cardgame.phh.steps.view_equity`). A bad file, hand number or seat, or a
        hand the engine cannot replay, raises a :class:`~cardgame.model.errors.HandHistoryError`
        naming what was wrong, as does a file that cannot be opened (its path, an excerpt, and the
        system's reason)."""
        check_bool(equity, "equity", HandHistoryError)
        self.equity = equity
        if not isinstance(path, str | os.PathLike) or not isinstance(os.fspath(path), str) or "\0" in os.fspath(path):
            raise HandHistoryError(f"A hand history is a file's path, not {excerpt(path)}.")
        hand = check_int(hand, "hand number", HandHistoryError)
        check_text(seat, "seat", HandHistoryError, max_length=10**6, empty=True)
        self.path = Path(path)
        try:
            with self.path.open("rb"):
                pass
        except OSError as exc:
            raise HandHistoryError(os_error(exc)) from None
        self.hands: list[HandHistory | HandHistoryError] = load_each(path)
        self._cache: dict[int, HandSteps] = {}
        self.number = hand
        self.steps = self._steps(hand)
        self.viewer: int | None = seat_of(seat, self.steps.names)
        self.position = 0  # the step shown, 0-based

    def _steps(self, number: int) -> HandSteps:
        if number not in self._cache:
            hh = pick_hand(self.hands, number, str(self.path))
            if not hh.actions:
                raise HandHistoryError(f"{self.path}: hand {number} has no actions to step through")
            self._cache[number] = hand_steps(hh, source=f"{self.path}: hand {number}")
        return self._cache[number]

    # --- the screen --------------------------------------------------------------------------------
    def screen(self, width: int = 80) -> RenderableType:
        """The step shown: where it is, the file's action, the lines it added and the table, each
        line fitted to ``width`` columns (print it with ``soft_wrap=False``: rich wraps the table's)."""
        steps, v = self.steps, self.viewer
        step = steps.steps[self.position]
        who = "every card shown" if v is None else "as " + steps.names[v] + (
            "" if steps.names[v] == f"p{v + 1}" else f" (p{v + 1})") + " sees it"
        scale = f", amounts x{steps.scale}" if steps.scale != 1 else ""
        title = (f"{printable(self.path.name)}  hand {self.number} of {len(self.hands)}  "
                 f"{printable(steps.history.variant)}  step {self.position + 1} of {len(steps)}  {who}{scale}")
        lines = tuple(text for line in step.lines[v] for text in fit_line(line, width))
        action = Text("\n".join(fit(f"actions[{step.index}]: {step.actions[v]}", width)))
        head = Text("\n".join(fit(title, width, items=True, sep="  ")), style="bold")
        parts: list[RenderableType] = [head, action, _table(step.views[v], steps, lines)]
        if self.equity:
            parts.append(Text("\n".join(fit(self._equity_line(step.views[v]), width, items=True, sep=", "))))
        return Group(*parts)

    def _equity_line(self, view: TableView) -> str:
        """Each live player's equity at this step, as the viewpoint sees the cards."""
        result = view_equity(view, self.steps.history.variant)
        if result is None:
            return "equity: -"
        live = [s for s in view.seats if s.in_hand and not s.folded and s.hole]
        margin = "" if result.exact else f" ±{1.96 * max(result.std_error):.1%}"
        how = "exact" if result.exact else f"Monte Carlo, {result.boards:,} deals"
        shares = ", ".join(f"{self.steps.names[s.seat]} {float(e):.1%}" for s, e in zip(live, result.equity,
                                                                                       strict=True))
        return f"equity ({how}{margin}): {shares}"

    def hand_list(self, around: int = 10) -> str:
        """The file's hands, one a line, the one shown marked ``>`` (at most ``around`` each side of it)."""
        first, last = max(1, self.number - around), min(len(self.hands), self.number + around)
        out = [f"  ... {first - 1} hands before"] if first > 1 else []
        for i, hh in enumerate(self.hands[first - 1:last], first):
            mark = ">" if i == self.number else " "
            if isinstance(hh, HandHistoryError):
                out.append(f"{mark} {i}. cannot be read: {printable(str(hh), 200)}")
                continue
            players = ", ".join(printable(p) for p in hh.players or [f"p{k + 1}" for k in range(hh.player_count)])
            label = f" (hand {printable(str(hh.hand))})" if hh.hand is not None else ""
            text = f"{mark} {i}. {printable(hh.variant)}{label}, {len(hh.actions)} actions: {players}"
            out.append(printable(text, 200))
        if last < len(self.hands):
            out.append(f"  ... {len(self.hands) - last} hands after")
        return "\n".join(out)

    # --- the commands ------------------------------------------------------------------------------
    def command(self, text: str) -> str | None:
        """Apply one typed command; return a message to show (``None``: none), or raise
        :class:`EOFError` for ``q``. Bad input changes nothing and says what is allowed."""
        word, _, arg = text.strip().partition(" ")
        word, arg = word.lower(), arg.strip()
        last = len(self.steps) - 1
        if word in ("", "n"):
            if self.position == last:
                return "the last step: p goes back, h lists the hands, q quits"
            self.position += 1
        elif word == "p":
            if self.position == 0:
                return "the first step: n goes on"
            self.position -= 1
        elif word == "g":
            try:
                self.position = read_int(arg, "step", CardgameError, minimum=1, maximum=last + 1) - 1
            except CardgameError:
                return f"g N: N is a step from 1 to {last + 1}, not {excerpt(arg)}"
        elif word == "s":
            try:
                self.viewer = seat_of(arg, self.steps.names)
            except CardgameError as exc:
                return str(exc)
        elif word == "a":
            self.viewer = None
        elif word == "h":
            return self._hand(arg) if arg else self.hand_list()
        elif word in ("q", "quit"):
            raise EOFError
        elif word in ("help", "?"):
            return HELP
        else:
            return f"unknown command {excerpt(text.strip(), 20)}: type help"
        return None

    def _hand(self, arg: str) -> str | None:
        try:
            number = read_int(arg, "hand", CardgameError, max_digits=9)  # the range: said by the file's hands
        except CardgameError:
            return f"h N: N is a hand from 1 to {len(self.hands)}, not {excerpt(arg)}"
        try:
            steps = self._steps(number)
        except CardgameError as exc:
            return str(exc)
        self.number, self.steps, self.position = number, steps, 0
        if self.viewer is not None and self.viewer >= len(steps.names):
            self.viewer = None
        return None


def _check_shown(replayer: object, console: object) -> None:
    check_instance(replayer, Replayer, "A Replayer", ConfigError)
    check_instance(console, Console, "A rich Console", ConfigError)


def print_steps(replayer: Replayer, console: Console) -> None:
    """Every step of the hand shown, in order, one after another."""
    _check_shown(replayer, console)
    for position in range(len(replayer.steps)):
        replayer.position = position
        console.print(replayer.screen(console.width), highlight=False, soft_wrap=False)
        console.print()


def interact(replayer: Replayer, console: Console, read: Callable[[str], str] | None = None) -> None:
    """Show a step, read a command, until ``q`` or the end of input. ``read`` reads one line
    after a prompt (default: the console's)."""
    _check_shown(replayer, console)
    if read is not None and not callable(read):
        raise ConfigError(f"read must be a function reading a line after a prompt, not {excerpt(read)}.")
    ask = read or (lambda prompt: console.input(prompt))
    message: str | None = "type help for the commands"
    while True:
        if console.is_terminal:
            console.clear()
        console.print(replayer.screen(console.width), highlight=False, soft_wrap=False)
        for line in message.split("\n") if message else ():
            indent = line[: len(line) - len(line.lstrip())]
            for text in fit(line.strip(), console.width, first=indent):
                console.print(text, highlight=False, markup=False)
        try:
            message = replayer.command(ask("replay> "))
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
