"""One person against bots at a terminal: the table is drawn before each of the person's decisions,
what the person types is read by :mod:`cardgame.terminal.prompt`, and the bots answer through
:meth:`Game.play <cardgame.play.game.Game.play>`, each seeing only its own seat's view.

Drawn with rich, not textual: a line-oriented prompt works in any terminal, over ssh, in a pexpect
test and with a screen reader, and the scrollback keeps the hand history (each history line is
printed once: under the table as the last actions, or after the hand).

With a clock (``time``), a person who types nothing in time checks if checking is free, else
folds (stands pat in a draw, runs once); the wait is a timeout on the terminal's input
(``select`` on POSIX terminals and pipes). ``save`` writes the game (a snapshot,
:mod:`cardgame.store.snapshot`, with the seats' bots) between actions, and :func:`load` resumes it;
every hand that ends is written as PHH (:mod:`cardgame.phh`).
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import re
import select
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import attrs
from rich.console import Console
from rich.text import Text

from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.events import Event, HandEnded, HandStarted, RakeTaken
from cardgame.model.inputs import check_instance, excerpt, os_error, read_int, read_text, whole_number, writable_file
from cardgame.model.rake import Rake
from cardgame.model.rng import new_seed
from cardgame.phh.export import game_to_phh
from cardgame.phh.history import HandHistory
from cardgame.phh.io import dumps as phh_text
from cardgame.phh.io import load as load_phh
from cardgame.phh.steps import printable
from cardgame.play import bots as bot_registry
from cardgame.play.bot import Bot
from cardgame.play.game import Game
from cardgame.play.narration import Line, Narration
from cardgame.store.serialize import SnapshotError, from_json
from cardgame.store.snapshot import MAX_SIZE, restore, snapshot
from cardgame.terminal.lines import fit, fit_line
from cardgame.terminal.prompt import (
    Choice,
    InputError,
    action_help,
    allowed_actions,
    draw_help,
    parse_action,
    parse_discards,
    parse_runs,
    parse_show,
    runs_help,
    show_help,
    show_question,
)
from cardgame.terminal.render import render_table

__all__ = ["MAX_NAME", "MAX_TIME", "NAMES", "RAKE_FORM", "Reader", "Session", "Setup", "load", "name_problem",
           "new_session", "rake_from_text", "terminal_reader"]

#: Reads one line after printing ``prompt``; ``timeout`` seconds at most (``None``: no limit). Returns
#: the line, ``None`` when the time ran out, or raises ``EOFError`` when input ended (taken as quit).
Reader = Callable[[str, float | None], str | None]

#: The bots' names, seat by seat after the person's.
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")
SAVE_FORMAT = "cardgame play"
#: The longest line kept from the input; a longer one is read as its start (and refused), the rest dropped.
MAX_LINE = 4096
SAVE_VERSION = 1
#: The most bytes a save file may hold: a snapshot's most (:data:`cardgame.store.snapshot.MAX_SIZE`) and its setup.
MAX_SAVE = MAX_SIZE + 2**16
#: The longest clock, in seconds a decision: an hour.
MAX_TIME = 3600
#: The longest name a player may have: it fits the table's name column and a line of history.
MAX_NAME = 20
#: How a rake is written on the command line and in a save's parameters.
RAKE_FORM = ("PERCENT[:CAP]: a percentage from 0 to 100 (at most 6 decimals, e.g. 5 or 2.5) and a cap in chips "
             "(e.g. 5:6)")
_RAKE = re.compile(r"([0-9]{1,3}(?:\.[0-9]{1,6})?)(?::([0-9]{1,13}))?")


def rake_from_text(text: str) -> Rake:
    """The :class:`~cardgame.model.rake.Rake` that ``text`` (:data:`RAKE_FORM`, ``"5:6"``) describes:
    that percentage of each pot, at most the cap (none without one), no flop no drop (a hand won in its
    first betting round pays none, so stud and draw games are raked too); raises :class:`ConfigError`
    naming the form."""
    match = _RAKE.fullmatch(text.strip()) if isinstance(text, str) and len(text) <= 40 else None
    if match is None:
        raise ConfigError(f"A rake is {RAKE_FORM}, not {excerpt(text)}.")
    if Decimal(match[1]) > 100:
        raise ConfigError(f"A rake's percentage is 0 to 100, not {excerpt(match[1])}; a rake is {RAKE_FORM}.")
    return Rake(Decimal(match[1]), None if match[2] is None else int(match[2]), no_drop_until="second round")


def _table_rules(params: Mapping[str, Any]) -> list[str]:
    """The table rules a variant's ``params`` set (show or muck, the dead button, the rake), in words."""
    rules = []
    if params.get("show_or_muck"):
        rules.append("show or muck in turn at the showdown (TDA rule 16)"
                     + (", a called hand mucked may be asked to see (TDA rule 18)" if params.get("ask_to_see") else ""))
    if params.get("button") == "dead":
        rules.append("dead button (TDA)")
    rake = params.get("rake")
    if isinstance(rake, str):
        rake = rake_from_text(rake)
    if isinstance(rake, Rake):
        cap = f", at most {rake.cap}" if rake.cap is not None else ""
        percent = f"{float(rake.percent):.6f}".rstrip("0").rstrip(".")  # as typed: at most 6 decimals
        rules.append(f"rake {percent}% of each pot{cap}" + (", no flop no drop" if rake.no_flop_no_drop else ""))
    return rules


def _built(v: Any, params: Mapping[str, Any]) -> Any:
    """``v``'s stages built with ``params`` as a save holds them (a rake as its text, :func:`rake_from_text`)."""
    given = dict(params)
    if isinstance(given.get("rake"), str):
        given["rake"] = rake_from_text(given["rake"])
    return v.build(**given)


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a player's name (``None``: nothing): it is shown on the
    terminal, so it is 1 to :data:`MAX_NAME` printable characters (no control characters, which
    a terminal would take as commands: a new title, a cleared screen), not only spaces."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or not name.isprintable():
        return (f"a name is 1 to {MAX_NAME} printable characters (no control characters or escape sequences), "
                "not only spaces")
    return None


@attrs.frozen
class Setup:
    """What a session is besides its game: the variant (name and builder parameters), the person's
    seat, each other seat's bot by name, the clock (seconds a decision; ``None``: none) and files."""

    variant: str
    params: Mapping[str, Any]
    seat: int
    bots: Mapping[int, str]
    time: int | None = None
    save: str | None = None
    phh: str | None = None


class Session:
    """A game in progress between one person (``setup.seat``) and bots, shown on ``console``, the
    person's answers read with ``read``. :meth:`run` plays until the person quits or cannot play."""

    def __init__(self, game: Game, setup: Setup, console: Console, read: Reader, *,
                 hands: Sequence[HandHistory] = ()) -> None:
        import variants

        check_instance(game, Game, "A Game", ConfigError)
        check_instance(setup, Setup, "A Setup", ConfigError)
        check_instance(console, Console, "A rich Console", ConfigError)
        if not callable(read):
            raise ConfigError(f"read must be a function reading a line after a prompt, not {excerpt(read)}.")
        self.game = game
        self.setup = setup
        self.console = console
        self.read = read
        self.variant = variants.get(setup.variant)
        self.stages = game.dispatcher.stages
        self.bots: dict[int, Bot] = {seat: bot_registry.get(name) for seat, name in setup.bots.items()}
        self.history = Narration.for_stages(self.stages, game.names())
        self.stud = self.history.complete_to is not None
        self.hands: list[HandHistory] = list(hands)  # written to setup.phh, this session's and earlier
        self.recent: list[str] = []  # history lines not yet printed
        self.hand_events: list[Event] = []
        self.ended: list[list[Event]] = []  # hands ended since the last look, for the PHH file
        self.phh_problem = ""  # the PHH file and why it could not be written, last time it was not
        self.save_failed = False  # the last save failed (a quit is asked again)
        if game.hand is not None:  # resumed in a hand: the history catches up on it, silently
            log = game.events
            start = max(i for i, e in enumerate(log) if isinstance(e, HandStarted))
            for event in log[start:]:
                self.history.feed(event.seen_by(setup.seat))
            self.history.flush()
            self.hand_events = list(log[start:])
        game.subscribe(self._listen)

    # --- events --------------------------------------------------------------------------------------
    def _listen(self, event: Event) -> None:
        for line in self.history.feed(event.seen_by(self.setup.seat)):
            if isinstance(event, RakeTaken):  # said in words: where the chips go
                line = Line(line.kind, f"The house takes {event.amount} from the pot as rake")
            self._line(line)
        if isinstance(event, HandStarted):
            self.hand_events = [event]
        else:
            self.hand_events.append(event)
        if isinstance(event, HandEnded):
            self.ended.append(self.hand_events)
            self.hand_events = []
            self._line_flush()

    def _line(self, line: Line) -> None:
        if line.kind == "hand":
            self._line_flush()
            self.console.print()
            self.console.rule(Text(line.text, style="bold"))
        else:
            self.recent += fit_line(line, self.console.width)

    def _line_flush(self) -> None:
        for text in self.recent:
            self.console.print(Text(text))
        self.recent = []

    def say(self, text: str, style: str = "", *, whole: bool = False) -> None:
        """Print ``text`` fitted to the console's width (each of its lines; a continuation indented;
        with ``whole``, a word longer than a line, a path, is not broken: by ``fit``, nor by the console
        folding the longer line it leaves)."""
        for paragraph in text.split("\n"):
            indent = paragraph[: len(paragraph) - len(paragraph.lstrip())]
            for line in fit(paragraph.strip(), self.console.width, first=indent, whole=whole):
                if whole:
                    self.console.print(Text(line, style=style), no_wrap=True, overflow="ignore", crop=False)
                else:
                    self.console.print(Text(line, style=style))

    def _hands_ended(self) -> None:
        """Write the hands that ended to the PHH file (all of them: a ``.phhs`` holds every hand), as the
        person saw them: a bot's cards that were never shown are unknown (``????``), as in a player's
        own hand history (Robert's Rules: a mucked hand is dead and not shown). A file that cannot be
        written is said in one line and the game goes on: the hands are kept, and written at the
        next hand's end."""
        ended, self.ended = self.ended, []
        if not ended or self.setup.phh is None:
            return
        me = self.setup.seat
        for events in ended:
            self.hands += game_to_phh([e.seen_by(me) for e in events], self.stages, self.game.names())
        try:
            write_file(self.setup.phh, phh_text(self.hands, multi=True))
        except OSError as exc:
            problem = os_error(exc)
            if problem != self.phh_problem:  # said once, not at every hand while it lasts
                self.say(f"Could not write the hands to {problem}; they are kept and written at the next hand's end "
                         "(type save FILE to keep the game).", style="red", whole=True)
            self.phh_problem = problem
        else:
            if self.phh_problem:
                self.say(f"The hands are written to {printable(self.setup.phh, 120)} again.", whole=True)
            self.phh_problem = ""

    # --- the loop --------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the person quits, has no chips, or no hand can be dealt; the exit status."""
        game, me = self.game, self.setup.seat
        self._introduce()
        if game.status_name == "new":
            game.start()
        while game.status_name == "running":
            seat = game.to_act
            self._hands_ended()
            if seat is None:
                break
            if game.hand is None or (game.table.player(me).stack == 0 and me not in game.hand.by_seat):
                break
            if seat != me:
                game.play(self.bots, max_actions=1)
                continue
            if not self._decide():
                self._line_flush()
                if self.phh_problem:
                    self.say(f"Could not write the last hands to {self.phh_problem}: they are not in the file.",
                             style="red", whole=True)
                self.say("You leave the table.")
                return self._results()
        self._hands_ended()
        self._line_flush()
        if game.status_name == "failed":
            raise CardgameError("The game failed: " + "; ".join(e.describe() for e in game.events[-1:]))
        me_player = next((p for p in game.table.players() if p.seat == me), None)
        if me_player is None or me_player.stack == 0:
            self.say("You are out of chips: the game is over.")
        else:
            self.say("No hand can be dealt: the other players are out of chips.")
        return self._results()

    def _introduce(self) -> None:
        say = self.say
        v = self.variant
        stakes = f", {self.history.stakes}" if self.history.stakes else ""
        names = self.game.names()
        others = ", ".join(f"{names.get(s, f'seat {s}')} ({bot})" for s, bot in sorted(self.setup.bots.items()))
        say(f"{v.name}{stakes}. Seed {self.game.seed}.")
        say(f"You are {self.game.names()[self.setup.seat]} at seat {self.setup.seat}; against {others}.")
        if self.stud:
            say("Cards in [brackets] are face up; ▒▒ is a card you cannot see.")
        rules = _table_rules(self.setup.params)
        if rules:
            say("Table rules: " + "; ".join(rules) + ".")
        clock = f" You have {self.setup.time} seconds a decision." if self.setup.time else ""
        say(f"Type help for what you may do, save to save, quit to leave.{clock}")

    def _results(self) -> int:
        parts = [f"{p.name} {p.stack}" for p in self.game.table.players()]
        hand = self.game.hand
        pot = hand.pot_total() if hand is not None else 0
        tail = f"; {pot} more in the pot of the unfinished hand" if pot else ""
        for line in fit("Stacks: " + ", ".join(parts) + tail, self.console.width, items=True):
            self.console.print(Text(line))
        return 0

    def show_table(self, clock: float | None = None) -> None:
        """Draw the table as the person sees it, with the history lines since the last drawing."""
        view = self.game.view(self.setup.seat)
        for line in self.history.flush():
            self.recent += fit_line(line, self.console.width)
        last, self.recent = self.recent, []
        # wrapped by rich at the console's width (a long header of side pots), the lines under it fitted
        self.console.print(render_table(view, stud=self.stud, last_actions=last, clock=clock), soft_wrap=False)

    def _decide(self) -> bool:
        """Ask the person until an answer is taken; ``False``: the person quits."""
        deadline = time.monotonic() + self.setup.time if self.setup.time else None
        self.show_table(self.setup.time)
        while True:
            question, parse, help_text = self._question()
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            clock = "" if left is None else f" [{int(left + 0.999)}s]"
            try:
                text = self.read(f"{question}{clock} > ", left)
            except EOFError:
                return False
            if text is None:
                self.say(self._time_out())
                return True
            try:
                choice = parse(text)
            except InputError as exc:
                self.say(str(exc), style="red")
                continue
            if choice.kind == "help":
                self.say(help_text)
            elif choice.kind == "table":
                self.show_table(left)
            elif choice.kind == "save":
                self.say(self.save(choice.path), whole=True)
            elif choice.kind == "quit":
                if self.save_failed:  # asked once: the person may not have read that the save failed
                    self.save_failed = False
                    self.say("The game is not saved: the last save failed. Type quit again to leave without saving, "
                             "or save FILE to save it elsewhere.", style="red")
                    continue
                return False
            else:
                if choice.note:
                    self.say(choice.note, style="yellow")
                try:
                    self._apply(choice)
                except CardgameError as exc:  # refused by the game: it is unchanged
                    self.say(str(exc), style="red")
                    continue
                return True

    def _question(self) -> tuple[str, Callable[[str], Choice], str]:
        """The prompt, the parser and the help text of the decision the person faces."""
        game = self.game
        show = game.show_options()
        if show is not None:  # a showdown played with show or muck
            ask = self._asked_for()
            return show_question(show, ask), lambda t: parse_show(t, show, ask), show_help(show, ask)
        draw = game.draw_options()
        if draw is not None:
            return (f"Discard ({draw.min_discards}-{draw.max_discards}, cards or positions; pat)",
                    lambda t: parse_discards(t, draw), draw_help(draw))
        runs = game.run_options()
        if runs is not None:
            return (f"Run the board how many times (1-{runs.max_runs})", lambda t: parse_runs(t, runs),
                    runs_help(runs))
        legal = game.legal_actions()
        if legal is None:
            raise CardgameError("The game asks the person nothing it can answer.")
        pot = game.hand.pot_total()
        full = self.history.complete_to or 0  # stud: a raise of the bring-in to the full bet completes it
        completing = 0 < legal.bet_to < full
        return (allowed_actions(legal, completing=completing),
                lambda t: parse_action(t, legal, pot, completing=completing),
                action_help(legal, pot, completing=completing))

    def _asked_for(self) -> str:
        """The name of the player whose called hand the person may ask to see now (TDA rule 18), or ``""``."""
        game, hand = self.game, self.game.hand
        if hand is None or hand.last_aggressor is None or not game.can_ask_to_see(self.setup.seat):
            return ""
        return game.names().get(hand.last_aggressor, f"seat {hand.last_aggressor}")

    def _apply(self, choice: Choice) -> None:
        game, me = self.game, self.setup.seat
        if choice.kind == "show":
            game.show(me)
        elif choice.kind == "muck":
            game.muck(me)
        elif choice.kind == "ask":
            game.ask_to_see(me)
        elif choice.kind == "draw":
            game.draw(me, choice.cards)
        elif choice.kind == "runs":
            game.choose_runs(me, choice.runs)
        else:
            game.act(me, choice.action, choice.amount)

    def _time_out(self) -> str:
        """Answer for a person whose time ran out: check if free, else fold (stand pat, run once); at a
        showdown played with show or muck, what the server does (``ShowOptions.default``): show a hand
        that wins (a hand must be shown to win), muck the others (TDA: a player not acting in time
        has a dead hand)."""
        game, me = self.game, self.setup.seat
        show = game.show_options()
        if show is not None:
            if show.default == "show":
                game.show(me)
                return "Time is up: your hand is shown."
            game.muck(me)
            return "Time is up: your hand is mucked."
        draw = game.draw_options()
        if draw is not None:
            throw = tuple(sorted(draw.hole, key=lambda c: c.rank)[: draw.min_discards])
            game.draw(me, throw)
            return "Time is up: you stand pat." if not throw else f"Time is up: you throw {len(throw)}."
        if game.run_options() is not None:
            game.choose_runs(me, 1)
            return "Time is up: the board runs once."
        legal = game.legal_actions()
        assert legal is not None
        if legal.bring_in:
            game.act(me, "bring_in")
            return "Time is up: you bring in."
        if legal.can_check:
            game.act(me, "check")
            return "Time is up: you check."
        game.act(me, "fold")
        return "Time is up: you fold."

    # --- saving ------------------------------------------------------------------------------------------
    def save(self, path: str = "") -> str:
        """Write the game to ``path`` (default ``setup.save``, which a path given becomes) between
        actions; what was done, in words (its lines). A file that cannot be written is said, and
        the game goes on: it may be saved elsewhere (``save FILE``), and a quit right after asks
        to be typed again."""
        path = path or self.setup.save or "cardgame-save.json"
        self.save_failed = True
        if self.game.show_options() is not None:  # a snapshot does not hold the hands shown and mucked so far
            return ("The game cannot be saved while hands are shown or mucked at the showdown; the game goes on: "
                    "save again once the showdown's decisions are made.")
        if not path.isprintable():  # a NUL, a terminal's escape sequence
            return (f"Could not save to {excerpt(path)}: a file name is printable characters; the game goes on: type "
                    "save FILE to save elsewhere.")
        try:
            data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "variant": self.setup.variant,
                    "params": dict(self.setup.params), "seat": self.setup.seat,
                    "bots": {str(s): n for s, n in self.setup.bots.items()}, "time": self.setup.time,
                    "phh": self.setup.phh, "game": snapshot(self.game)}
            write_file(path, json.dumps(data))
        except OSError as exc:
            return f"Could not save to {os_error(exc)}; the game goes on: type save FILE to save elsewhere."
        except CardgameError as exc:
            return f"Could not save the game now ({exc}); the game goes on: try again after the next action."
        except (TypeError, ValueError):  # a parameter given in Python that JSON cannot hold (a Rake object)
            return ("Could not save the game: the variant's parameters are not all plain values (give a rake as "
                    f"text, {RAKE_FORM.partition(': ')[0]}); the game goes on.")
        self.save_failed = False
        self.setup = attrs.evolve(self.setup, save=path)
        return f"Saved to {path}.\nContinue with: cardgame play --resume {path}"


def write_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a new file beside it, which then replaces
    it, so a write that fails (a full disk, a folder made read-only) leaves the old file as it was.
    Raises ``OSError`` (naming ``path``) if it cannot be written."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".cardgame-", suffix=".tmp")
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, path) from None
        raise


def new_session(variant: str, seats: int, console: Console, read: Reader, *, bots: Sequence[str] = ("seed-ai",),
                seed: int | None = None, stack: int = 200, name: str = "Hero", params: Mapping[str, Any] | None = None,
                time_limit: int | None = None, save: str | None = None, phh: str | None = None) -> Session:
    """A new game of ``variant`` with the person at seat 0 and bots at the others (one bot name for
    all, or one a seat); every argument is checked before the game is built (:class:`ConfigError`).
    The hands already in the ``phh`` file are kept: the game's are written after them."""
    import variants

    v = variants.get(variant)
    many = "exactly 2" if v.max_players == 2 else f"2 to {v.max_players}"
    if whole_number(seats) is None or not 2 <= seats <= v.max_players:
        raise ConfigError(f"{v.name} seats {many} players, not {excerpt(seats)}.")
    rule = name_problem(name)
    if rule is not None:
        raise ConfigError(f"Cannot use the name {excerpt(name)}: {rule}.")
    _check_options(time_limit, save, phh)
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise ConfigError(f"The bots are a list of bot names, not {excerpt(bots)}.")
    if params is not None and not isinstance(params, Mapping):
        raise ConfigError(f"The variant's parameters are a mapping of names to values, not {excerpt(params)}.")
    names = list(bots)
    if len(names) not in (1, seats - 1):
        raise ConfigError(f"Give one bot for every other seat or one for all: {seats - 1} bots, not {len(names)}.")
    for b in names:
        bot_registry.get(b)  # an unknown name is refused here
    if phh is not None:
        _check_phh(v, phh)
    hands = _kept_hands(phh)
    stages = _built(v, params or {})
    game = Game(stages, seats=seats, seed=new_seed() if seed is None else seed)  # seeded: saves replay
    game.sit_down(name, stack, 0)
    for seat in range(1, seats):
        game.sit_down(NAMES[seat - 1] if NAMES[seat - 1] != name else f"Bot{seat}", stack, seat)
    by_seat = {seat: names[0] if len(names) == 1 else names[seat - 1] for seat in range(1, seats)}
    setup = Setup(v.name, dict(params or {}), 0, by_seat, time_limit, save, phh)
    return Session(game, setup, console, read, hands=hands)


def _check_options(time_limit: int | None, save: str | None, phh: str | None) -> None:
    """:class:`ConfigError` unless the clock is ``None`` or 1 to :data:`MAX_TIME` seconds and each file
    name ``None`` or text."""
    if time_limit is not None and (whole_number(time_limit) is None or not 1 <= time_limit <= MAX_TIME):
        raise ConfigError(f"The clock is 1 to {MAX_TIME} seconds a decision, not {excerpt(time_limit)}.")
    for what, path in (("save", save), ("phh", phh)):
        if path is not None and not isinstance(path, str):
            raise ConfigError(f"The {what} file is a file name, not {excerpt(path)}.")


def _kept_hands(phh: str | None) -> list[HandHistory]:
    """The hands already in the PHH file, which the session's are written after (none if it does not
    exist yet); a file that is not hand histories is refused before anything starts."""
    return load_phh(phh) if phh is not None and os.path.exists(phh) else []


def _check_phh(v: Any, path: str) -> None:
    if v.code is None:
        raise ConfigError(f"PHH has no code for {v.name}, so its hands cannot be written as PHH.")
    if not path.lower().endswith(".phhs"):
        raise ConfigError(f"The PHH file holds every hand played: give a .phhs file, not {excerpt(path)}.")


def load(path: str, console: Console, read: Reader, *, save: str | None = None, phh: str | None = None,
         time_limit: int | None = None) -> Session:
    """The session saved in ``path`` (by :meth:`Session.save`); ``save``, ``phh`` and ``time_limit``
    replace the saved ones when given. Every field is checked before anything starts: a file that is
    no save, or a field out of its bounds, raises :class:`SnapshotError` in one line naming it (the
    game's own snapshot is checked against the saved variant and parameters: :func:`restore`)."""
    import variants

    if not isinstance(path, str) or not path or "\0" in path:
        raise SnapshotError(f"A saved game's file name is needed, not {excerpt(path)}.")
    _check_options(time_limit, save, phh)
    where = printable(path, 120)
    try:
        data = from_json(read_text(path, MAX_SAVE, SnapshotError, "a saved game"))
    except SnapshotError as exc:
        raise SnapshotError(f"{where} is not a saved game ({str(exc).rstrip('.')}).") from None
    except OSError as exc:  # the command line's message for a file it cannot read
        raise SnapshotError(os_error(exc)) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
        raise SnapshotError(f"{where} is not a game saved by cardgame play (format {SAVE_FORMAT!r}, "
                            f"version {SAVE_VERSION}).")

    def wrong(field: str, why: str) -> SnapshotError:
        return SnapshotError(f"{where}: the saved {field} is wrong: {why}.")

    missing = [key for key in ("variant", "params", "seat", "bots", "game") if key not in data]
    if missing:
        raise SnapshotError(f"{where}: a saved game's field is missing: {', '.join(missing)}.")
    params, seat, saved_bots = data["params"], data["seat"], data["bots"]
    for field, value in (("params", params), ("bots", saved_bots)):
        if not isinstance(value, dict):
            raise wrong(field, f"{excerpt(value)} is not an object")
    try:
        v = variants.get(data["variant"])
    except ConfigError:
        raise wrong("variant", f"{excerpt(data['variant'])} is not a variant's name or PHH code") from None
    try:  # the snapshot's and the builder's messages cut short: a line
        game = restore(data["game"], _built(v, params))
    except SnapshotError as exc:
        raise SnapshotError(f"{where}: {printable(str(exc), 200)}") from None
    except (CardgameError, TypeError, ValueError) as exc:
        raise SnapshotError(f"{where}: a saved game's field is wrong ({printable(str(exc), 200)}).") from None
    names = game.names()
    seated = sorted(names)
    if type(seat) is not int or seat not in names:
        raise wrong("seat", f"{excerpt(seat)} is not a seat at the table (seated: {_listed(seated)})")
    for name in names.values():
        rule = name_problem(name)
        if rule is not None:
            raise wrong("players", f"the name {excerpt(name)}: {rule}")
    others = [s for s in seated if s != seat]
    bots: dict[int, str] = {}
    for key, bot in saved_bots.items():
        try:
            number: int | None = read_int(key, "seat", SnapshotError, max_digits=3)
        except SnapshotError:
            number = None
        if number is None or number not in others:
            raise wrong("bots", f"{excerpt(key)} is not one of the other seats ({_listed(others)})")
        try:
            bot_registry.get(bot)
        except ConfigError:
            raise wrong("bots", f"seat {number}'s {excerpt(bot)} is not a bot; the bots: "
                                f"{', '.join(bot_registry.available())}") from None
        bots[number] = bot
    if sorted(bots) != others:
        raise wrong("bots", f"the seats {_listed(others)} each need a bot, not {_listed(sorted(bots))}")
    clock = data.get("time")
    if clock is not None and (type(clock) is not int or not 1 <= clock <= MAX_TIME):
        raise wrong("time", f"{excerpt(clock)} is not a number of seconds from 1 to {MAX_TIME}, or null")
    saved_phh = data.get("phh")
    if saved_phh is not None and not isinstance(saved_phh, str):
        raise wrong("phh", f"{excerpt(saved_phh)} is not a file name, or null")
    phh_path = phh if phh is not None else saved_phh
    if phh_path is not None:
        error = ConfigError if phh is not None else SnapshotError  # the command line's, or the file's
        try:
            _check_phh(v, phh_path)
        except ConfigError as exc:
            raise error(str(exc) if phh is not None else f"{where}: the saved phh is wrong: {exc}") from None
        if not writable_file(phh_path):
            said = "The --phh file" if phh is not None else f"{where}: the saved phh file"
            raise error(f"{said} {excerpt(phh_path)} cannot be written: give --phh FILE in a folder that exists and "
                        "may be written.")
    save_path = save or path
    if not writable_file(save_path):
        raise ConfigError(f"The game would be saved to {excerpt(save_path)}, which cannot be written: give --save "
                          "FILE in a folder that exists and may be written.")
    hands = _kept_hands(phh_path)
    if game.hand is not None and not any(isinstance(e, HandStarted) and e.hand == game.hand.number
                                         for e in game.events):
        raise SnapshotError(f"{where}: the saved log has no start of hand #{game.hand.number}, which is in progress.")
    setup = Setup(v.name, params, seat, bots, time_limit if time_limit is not None else clock, save_path, phh_path)
    return Session(game, setup, console, read, hands=hands)


def _listed(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats)) or "none"


def terminal_reader(console: Console, stream: Any = None) -> Reader:
    """A :data:`Reader` of the process's standard input: the prompt is printed on ``console``; with a
    timeout the input is waited for with ``select`` (a terminal or a pipe; where ``select`` cannot
    wait on it, the line is read and the time checked once it is typed)."""
    source = stream or sys.stdin  # its file descriptor is taken at the first read, once everything is checked
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = [""]

    def read(prompt: str, timeout: float | None) -> str | None:
        fd = source.fileno()
        *above, last = fit(prompt, console.width) if len(prompt) > console.width else [prompt]
        for line in above:  # a prompt wider than the terminal: its last line is where the answer is typed
            console.print(Text(line))
        console.print(Text(last + (" " if last != prompt else "")), end="")
        console.file.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        head = None  # the start of a line longer than any answer, whose rest is dropped as it comes
        while "\n" not in pending[0]:
            if len(pending[0]) > MAX_LINE:
                head = head if head is not None else pending[0][:MAX_LINE]
                pending[0] = ""
            if deadline is not None:
                left = deadline - time.monotonic()
                try:
                    ready, _, _ = select.select([fd], [], [], max(0.0, left))
                except (OSError, ValueError):  # select cannot wait on this input: enforced when typed
                    ready = [fd]
                if not ready:
                    console.print()
                    return None
            chunk = os.read(fd, 4096)
            if not chunk:
                if pending[0] or head is not None:
                    break
                raise EOFError
            pending[0] += decoder.decode(chunk)
        line, _, rest = pending[0].partition("\n")
        pending[0] = rest
        if head is not None:  # no answer is this long: it is refused as one answer, its start shown
            line = head
        if deadline is not None and time.monotonic() > deadline + 0.5:
            return None
        return line.rstrip("\r")

    return read
