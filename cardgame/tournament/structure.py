"""Blind structures: levels of blinds and antes that rise by hands played or by minutes on the clock,
with breaks, and the clock that says which level is in play.

Rules followed (the Poker TDA rules, 2024 edition):

* A new level starts when its time is up and applies from the **next hand**; a hand dealt at the old
  level plays to its end at it (TDA rule 23, new hand and new limits). So a hand started ``T`` seconds
  into the tournament plays the level :meth:`Structure.at_time` gives for ``T``.
* Antes are either posted by everyone dealt in (``ante_format="everyone"``) or once for the table by
  the big blind (``"big blind"``, the big-blind ante): TDA 2024 recommended procedure RP-11 recommends
  the big-blind ante with "big blind first" (a big blind short of both posts the blind before the
  ante) and antes never reduced as play goes on, the final table included. The engine posts it so
  (``ForcedBets(big_blind_ante=True)``, ``docs/rules.md``); :meth:`Structure.game_options` hands a level
  to a variant builder such as ``variants.no_limit_holdem``.

A structure counts either hands or minutes (``unit``); breaks (in minutes) only stop a clock, so only
minute structures have them. The last level lasts until the tournament ends. A structure is made from
:class:`Level` and :class:`Break` objects, from rows (:meth:`Structure.from_rows`), or from a small
TOML file (:meth:`Structure.from_toml`, :meth:`Structure.read`)::

    name = "home game"
    unit = "minutes"            # or "hands"
    ante_format = "big blind"   # or "everyone"

    [[levels]]
    small_blind = 25
    big_blind = 50
    length = 20                 # minutes (or hands) the level lasts

    [[levels]]
    break = 10                  # minutes

Named presets: :data:`PRESETS` (:func:`preset`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardgame.model.inputs import check_int, check_text, excerpt, label, read_file, read_toml
from cardgame.tournament._checks import check_choice, check_list
from cardgame.tournament.errors import TournamentError

__all__ = ["ANTE_FORMATS", "MAX_LENGTH", "MAX_LEVELS", "PRESETS", "UNITS", "Break", "Clock", "Level", "Structure",
           "preset"]

UNITS = ("minutes", "hands")
ANTE_FORMATS = ("everyone", "big blind")

#: The most levels and breaks a structure may have.
MAX_LEVELS = 1_000

#: The longest a level or break may last (minutes or hands).
MAX_LENGTH = 1_000_000

#: The most a blind or ante may be (chips).
MAX_CHIPS = 10**15

#: The largest structure file read (bytes).
MAX_FILE = 1 << 20


@dataclass(frozen=True)
class Level:
    """One level: the blinds, the ante (0 for none; with the big-blind ante, what the big blind posts for
    the table) and how long it lasts (``length``, in the structure's unit: minutes or hands)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    length: int = 20

    def __post_init__(self) -> None:
        small = check_int(self.small_blind, "small blind", TournamentError, minimum=0, maximum=MAX_CHIPS)
        big = check_int(self.big_blind, "big blind", TournamentError, minimum=1, maximum=MAX_CHIPS)
        ante = check_int(self.ante, "ante", TournamentError, minimum=0, maximum=MAX_CHIPS)
        length = check_int(self.length, "level length", TournamentError, minimum=1, maximum=MAX_LENGTH)
        if small > big:
            raise TournamentError(f"The small blind ({small:,}) must be at most the big blind ({big:,}).")
        for name, value in (("small_blind", small), ("big_blind", big), ("ante", ante), ("length", length)):
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class Break:
    """A break of ``length`` minutes between two levels."""

    length: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "length", check_int(self.length, "break length", TournamentError, minimum=1,
                                                     maximum=MAX_LENGTH))


@dataclass(frozen=True)
class Clock:
    """What the clock says at one moment (or hand): the ``level`` in play (numbered from 1, breaks not
    counted; during a break, the level that follows it) and its ``blinds``; whether it is ``on_break``;
    the hands (this one counted) or seconds ``remaining`` of the level or break (``None`` in the last level, which lasts
    until the end); the ``next_level`` (``None`` in the last); and the hands or seconds ``until_break``
    starts (0 during one, ``None`` when none is to come)."""

    level: int
    blinds: Level
    on_break: bool
    remaining: int | None
    next_level: Level | None
    until_break: int | None


@dataclass(frozen=True)
class Structure:
    """Levels (:class:`Level`) and breaks (:class:`Break`, minute structures only) in the order played,
    counted in ``unit`` (``"minutes"`` or ``"hands"``), antes posted by ``ante_format`` (``"big blind"``
    or ``"everyone"``). The first and last entries are levels."""

    levels: tuple[Level | Break, ...]
    unit: str = "minutes"
    ante_format: str = "big blind"
    name: str = ""

    def __post_init__(self) -> None:
        entries = check_list(self.levels, "structure's levels", max_length=MAX_LEVELS)
        for i, entry in enumerate(entries):
            if not isinstance(entry, Level | Break):
                raise TournamentError(f"Entry {i + 1} of the structure must be a Level or a Break, not "
                                      f"{excerpt(entry)}.")
        unit = check_choice(self.unit, "structure's unit", UNITS)
        check_choice(self.ante_format, "ante format", ANTE_FORMATS)
        check_text(self.name, "structure's name", TournamentError, max_length=100, empty=True)
        if not isinstance(entries[0], Level) or not isinstance(entries[-1], Level):
            raise TournamentError("A structure starts and ends with a level, not a break.")
        if unit == "hands" and any(isinstance(e, Break) for e in entries):
            raise TournamentError("Breaks stop a clock: only a structure counted in minutes has them, not one "
                                  "counted in hands.")
        object.__setattr__(self, "levels", tuple(entries))

    @property
    def blind_levels(self) -> tuple[Level, ...]:
        """The levels alone, breaks left out."""
        return tuple(e for e in self.levels if isinstance(e, Level))

    def _reading(self, position: int, per: int) -> Clock:
        """The clock ``position`` units in (hands from 0, or seconds), each entry lasting ``length * per``."""
        start, number = 0, 0
        entries = self.levels
        for i, entry in enumerate(entries):
            end = start + entry.length * per
            if isinstance(entry, Level):
                number += 1
            last = i == len(entries) - 1
            if position < end or last:
                upcoming = [e for e in entries[i + 1:] if isinstance(e, Level)]
                on_break = isinstance(entry, Break)
                blinds = upcoming.pop(0) if isinstance(entry, Break) else entry
                until: int | None = 0 if on_break else None
                later = end
                for e in entries[i + 1:] if not on_break else ():
                    if isinstance(e, Break):
                        until = later - position
                        break
                    later += e.length * per
                return Clock(number + on_break, blinds, on_break, None if last else end - position,
                             upcoming[0] if upcoming else None, until)
            start = end
        raise AssertionError("unreachable: the last entry is a level")

    def at_hand(self, hand: int) -> Clock:
        """The clock at hand number ``hand`` (the first hand is 1) of a structure counted in hands."""
        number = check_int(hand, "hand number", TournamentError, minimum=1, maximum=10**15)
        if self.unit != "hands":
            raise TournamentError("This structure is counted in minutes: ask at_time(seconds).")
        return self._reading(number - 1, 1)

    def at_time(self, seconds: int) -> Clock:
        """The clock ``seconds`` after the start (the clock stopped while the tournament was paused) of a
        structure counted in minutes; a hand dealt then plays this level to its end (TDA rule 23)."""
        elapsed = check_int(seconds, "elapsed seconds", TournamentError, minimum=0, maximum=10**15)
        if self.unit != "minutes":
            raise TournamentError("This structure is counted in hands: ask at_hand(hand).")
        return self._reading(elapsed, 60)

    def game_options(self, level: Level) -> dict[str, Any]:
        """``level`` as the keywords of a variant builder (``variants.no_limit_holdem(**options)``):
        ``small_blind``, ``big_blind``, ``ante`` and ``big_blind_ante``."""
        if not isinstance(level, Level):
            raise TournamentError(f"A Level is needed, not {excerpt(level)}.")
        return {"small_blind": level.small_blind, "big_blind": level.big_blind, "ante": level.ante,
                "big_blind_ante": self.ante_format == "big blind" and level.ante > 0}

    @classmethod
    def from_rows(cls, rows: object, *, unit: str = "minutes", ante_format: str = "big blind",
                  name: str = "") -> Structure:
        """A structure from rows: ``[small_blind, big_blind, ante, length]`` (the ante and length may be
        left off: 0 and 20) for a level, ``["break", minutes]`` for a break, or mappings with the keys of
        the TOML form."""
        entries = check_list(rows, "structure's rows", max_length=MAX_LEVELS)
        return cls(tuple(_entry(row, i + 1) for i, row in enumerate(entries)), unit, ante_format, name)

    @classmethod
    def from_toml(cls, text: str, source: str = "<string>") -> Structure:
        """A structure from TOML text (the form in this module's docstring); ``source`` names it in errors."""
        checked = check_text(text, "structure text", TournamentError, max_length=MAX_FILE, empty=True)
        where = label(check_text(source, "structure source", TournamentError, max_length=100_000))
        data = read_toml(checked, where, TournamentError)
        unknown = sorted(set(data) - {"name", "unit", "ante_format", "levels"})
        if unknown:
            raise TournamentError(f"{where}: unknown keys {excerpt(unknown)}; allowed are name, unit, "
                                  "ante_format and levels.")
        if "levels" not in data:
            raise TournamentError(f"{where}: no [[levels]] given.")
        try:
            return cls.from_rows(data["levels"], unit=data.get("unit", "minutes"),
                                 ante_format=data.get("ante_format", "big blind"), name=data.get("name", ""))
        except TournamentError as exc:
            raise TournamentError(f"{where}: {exc}") from None

    @classmethod
    def read(cls, path: object) -> Structure:
        """A structure from the TOML file at ``path`` (at most 1 MiB)."""
        p, text = read_file(path, MAX_FILE, TournamentError, "a blind structure")
        return cls.from_toml(text, str(p))


_LEVEL_KEYS = ("small_blind", "big_blind", "ante", "length")


def _entry(row: object, number: int) -> Level | Break:
    """A level or a break from one row (a list or a mapping)."""
    if isinstance(row, Mapping):
        keys = set(row)
        if keys == {"break"}:
            return Break(row["break"])
        unknown = sorted(str(k) for k in keys - set(_LEVEL_KEYS))
        if unknown or not {"small_blind", "big_blind"} <= keys:
            raise TournamentError(f"Level {number} must have small_blind and big_blind (and optionally ante and "
                                  f"length), or be {{break = minutes}}; not {excerpt(dict(row))}.")
        return Level(**{k: row[k] for k in _LEVEL_KEYS if k in row})
    items = check_list(row, f"row {number}", max_length=4)
    if isinstance(items[0], str) and items[0] == "break":
        if len(items) != 2:
            raise TournamentError(f"Row {number}: a break is [\"break\", minutes], not {excerpt(items)}.")
        return Break(items[1])  # type: ignore[arg-type]
    if len(items) < 2:
        raise TournamentError(f"Row {number}: a level is [small_blind, big_blind, ante, length], not {excerpt(items)}.")
    return Level(*items)  # type: ignore[arg-type]


def _levels(minutes: int, rows: list[tuple[int, int, int]], breaks: Mapping[int, int] | None = None
            ) -> tuple[Level | Break, ...]:
    """Levels of ``minutes`` each from ``(small, big, ante)`` rows, a break of ``breaks[i]`` minutes after
    level ``i``."""
    out: list[Level | Break] = []
    for i, (small, big, ante) in enumerate(rows, 1):
        out.append(Level(small, big, ante, minutes))
        if breaks and i in breaks:
            out.append(Break(breaks[i]))
    return tuple(out)


_TURBO = [(10, 20, 0), (15, 30, 0), (25, 50, 0), (50, 100, 100), (75, 150, 150), (100, 200, 200), (150, 300, 300),
          (200, 400, 400), (300, 600, 600), (400, 800, 800), (600, 1200, 1200), (800, 1600, 1600),
          (1000, 2000, 2000)]
_MTT = [(100, 200, 200), (200, 300, 300), (200, 400, 400), (300, 500, 500), (300, 600, 600), (400, 800, 800),
        (500, 1000, 1000), (600, 1200, 1200), (800, 1600, 1600), (1000, 2000, 2000), (1200, 2400, 2400),
        (1500, 3000, 3000), (2000, 4000, 4000), (2500, 5000, 5000), (3000, 6000, 6000), (4000, 8000, 8000),
        (5000, 10000, 10000), (6000, 12000, 12000), (8000, 16000, 16000), (10000, 20000, 20000),
        (15000, 30000, 30000), (20000, 40000, 40000), (25000, 50000, 50000), (30000, 60000, 60000)]

#: Named structures: a turbo sit-and-go (1,500 chips: 5-minute levels, or 10 hands a level for bots),
#: and a regular tournament (20,000 chips: 20-minute levels, a 15-minute break every 2 hours), all with
#: the big-blind ante.
PRESETS: dict[str, Structure] = {
    "turbo sng": Structure(_levels(5, _TURBO), "minutes", "big blind", "turbo sit-and-go"),
    "turbo sng hands": Structure(_levels(10, _TURBO), "hands", "big blind", "turbo sit-and-go, by hands"),
    "regular mtt": Structure(_levels(20, _MTT, {6: 15, 12: 15, 18: 15}), "minutes", "big blind",
                             "regular multi-table tournament"),
}


def preset(name: str) -> Structure:
    """The structure :data:`PRESETS` names ``name``."""
    if not isinstance(name, str) or name not in PRESETS:
        raise TournamentError(f"Unknown structure {excerpt(name)}; the presets are {', '.join(sorted(PRESETS))}.")
    return PRESETS[name]
