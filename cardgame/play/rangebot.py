"""Bots defined by ranges: what they open, limp, call and re-raise before the flop, by position and
stack depth, and how often they bet, raise and call after it, by hand strength.

A style is plain data (a dict, or a TOML file: :func:`load_style`)::

    {"name": "my-bot",
     "preflop": [                                  # bands of stack depth, shallowest first
         {"max_bb": 20, "open_size": "all-in",     # up to 20 big blinds: push or fold
          "open": {"UTG": "22+, A2s+, KTs+, ATo+", "BTN": "..."}, "call": "QQ+, AK"},
         {"open_size": 2.5, "raise_size": 3,       # deeper (the last band has no max_bb)
          "open": {"UTG": "77+, ATs+, KQs, AJo+", "CO": "...", "BTN": "...", "SB": "..."},
          "call": {"BB": "...", "BTN": "..."}, "3bet": "QQ+, AK", "4bet": "KK+", "call_3bet": "QQ-TT, AQs"}],
     "postflop": {"strong": 0.8, "medium": 0.6, "bet": [0.2, 0.6, 0.9], "raise": [0, 0.1, 0.5],
                  "call": [0, 0.6, 1], "cbet": 0.7, "bet_size": 0.66, "raise_size": 1.0}}

Before the flop, by the raises made so far: unopened, the bot raises (to ``open_size`` big blinds,
one more per limper) with its ``open`` range, limps with its ``limp`` range, else checks or folds;
facing one raise it re-raises to ``raise_size`` times it (one more time per caller) with ``3bet``
and calls with ``call``; facing a re-raise it raises again with ``4bet`` and calls with
``call_3bet`` (a third raise goes all in). A raise that would put in more than ``commit`` (default
40 %) of the stack goes all in. An action is one range for every position or a table of positions:
``UTG``, ``UTG1``, ``UTG2``, ``LJ``, ``HJ``, ``CO``, ``BTN``, ``SB``, ``BB`` and heads-up ``HU_SB``,
``HU_BB`` (see :func:`position`); a position the table leaves out plays the nearest earlier one's
range (the tighter; with none earlier, the nearest later), heads-up ``BTN``'s and ``BB``'s. A
weighted combination (``JJ:0.5``) takes the action that share of the time. The band is the first
whose ``max_bb`` covers the effective stack (the smaller of the bot's and the deepest opponent's at
the start of the hand, in big blinds); deeper stacks play the last. ``preflop`` may be one band
(a table) instead of a list.

After the flop (and on every street in games without two hole cards and a five-card board, where
ranges of hold'em hands mean nothing) the bot judges its Monte-Carlo hand strength ``hs`` against
the ``n`` opponents left (:func:`cardgame.play.ai.strength`) as ``hs ** (1/n)``, its equity per
opponent: ``strong`` at or above ``strong``, ``medium`` at or above ``medium``, else weak. Checked
to, it bets ``bet_size`` of the pot with the chance ``bet[class]`` (weak, medium, strong), or
``cbet`` on the flop when it made the last raise before it; facing a bet it raises by
``raise_size`` of the pot with the chance ``raise[class]`` (while the street has fewer than
``max_raises`` raises), else calls with the chance ``call[class]``, else folds.

Randomness comes from ``view.rng``, the seat's own stream (never the deck's generator), so a match
replays exactly. A bad style raises :class:`~cardgame.model.errors.ConfigError` naming the key or
the range token at fault.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from cardgame.evaluation.ranges import Range, parse_range
from cardgame.model.cards import Card
from cardgame.model.errors import CardgameError, ConfigError
from cardgame.model.events import ActionTaken, BoardDealt, HandStarted
from cardgame.model.inputs import check_text, excerpt, read_file, read_toml
from cardgame.play.ai import discards, strength
from cardgame.play.bot import Answer, BotBase, BotView

__all__ = ["ACTIONS", "POSITIONS", "RangeBot", "Style", "load_style", "position", "style"]

POSITIONS = ("UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB", "HU_SB", "HU_BB")
"""The positions a range table may name, earliest first; ``HU_`` are heads-up's small blind (the
button) and big blind."""
ACTIONS = ("open", "limp", "call", "3bet", "4bet", "call_3bet")
"""The actions a band gives ranges for (see the module)."""
_BAND_KEYS = ("max_bb", "open_size", "raise_size", "commit", *ACTIONS)
_POSTFLOP_KEYS = ("strong", "medium", "bet", "raise", "call", "cbet", "bet_size", "raise_size", "max_raises",
                  "samples")
_STYLE_KEYS = ("name", "preflop", "postflop")
_BACK_FROM_BUTTON = ("BTN", "CO", "HJ", "LJ", "UTG2", "UTG1")
_RING = POSITIONS[:9]
MAX_STYLE_TEXT = 1 << 20
"""The largest style file :func:`load_style` reads (1 MiB)."""

Weights = Mapping[tuple[Card, Card], float]


def position(seats: Sequence[int], seat: int) -> str:
    """The position of ``seat`` among the ``seats`` dealt in (clockwise from the button's left, as
    :class:`~cardgame.model.events.HandStarted` lists them): ``SB`` and ``BB`` first, the button
    ``BTN``, and counting back from it ``CO``, ``HJ``, ``LJ``, ``UTG2``, ``UTG1``; the first to act
    before the flop is ``UTG`` from six players up (the extra early seats of a ten-handed table are
    ``UTG`` too). Heads-up the button is ``HU_SB`` and the other ``HU_BB``."""
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or not 2 <= len(seats) <= 23 \
            or seat not in seats:
        raise ConfigError(f"position() takes the seats dealt in (2 to 23) and one of them, not {excerpt(seats)} and "
                          f"{excerpt(seat)}.")
    n, at = len(seats), list(seats).index(seat)
    if n == 2:
        return "HU_BB" if at == 0 else "HU_SB"
    if at < 2:
        return ("SB", "BB")[at]
    back = n - 1 - at
    if back == 0:
        return "BTN"
    if (at == 2 and back >= 3) or back >= len(_BACK_FROM_BUTTON):
        return "UTG"
    return _BACK_FROM_BUTTON[back]


def _fallbacks(pos: str) -> tuple[str, ...]:
    """The positions whose range ``pos`` plays, in order of preference (see the module)."""
    if pos == "HU_SB":
        return ("HU_SB", *_fallbacks("BTN"))
    if pos == "HU_BB":
        return ("HU_BB", "BB", *_fallbacks("SB")[1:])
    i = _RING.index(pos)
    return (*_RING[i::-1], *_RING[i + 1:])


# --- validation ------------------------------------------------------------------------------------
def _number(value: object, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or (
            isinstance(value, float) and math.isnan(value)) or not low <= value <= high:
        raise ConfigError(f"{where} must be a number from {low:g} to {high:g}, not {excerpt(value)}.")
    return float(value)


def _mapping(value: object, where: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a table (a dict) with keys from {', '.join(keys)}, not {excerpt(value)}.")
    for key in value:
        if key not in keys:
            raise ConfigError(f"Unknown key {excerpt(key)} in {where}; the keys are {', '.join(keys)}.")
    return value


def _chances(value: object, where: str) -> tuple[float, float, float]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != 3:
        raise ConfigError(f"{where} must be three chances (weak, medium, strong hands), not {excerpt(value)}.")
    a, b, c = (_number(x, f"{where}[{i}]", 0, 1) for i, x in enumerate(value))
    return a, b, c


def _size(value: object, where: str, high: float) -> float | None:
    """A size, or ``None`` for ``"all-in"``."""
    if isinstance(value, str) and value.strip().lower() in ("all-in", "all_in", "allin"):
        return None
    if isinstance(value, str):
        raise ConfigError(f"{where} must be a number or 'all-in', not {excerpt(value)}.")
    return _number(value, where, 0, high)


def _weights(text: object, where: str) -> Weights:
    """The combinations of a range text and their weights."""
    check_text(text, f"range at {where}", ConfigError, max_length=10_000, empty=True)
    assert isinstance(text, str)
    if not text.strip():
        return {}
    try:
        parsed = parse_range(text, game="holdem")
    except CardgameError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return _combo_weights(parsed)


def _combo_weights(parsed: Range) -> Weights:
    """``{(high card, low card): weight}`` of a parsed range."""
    return {(hand[0], hand[1]): weight for hand, weight in parsed.combos.items()}


@attrs.frozen
class Band:
    """The ranges of one stack-depth band: ``tables[action][position]`` (positions as given)."""

    max_bb: float | None
    open_size: float | None  # big blinds; None: all in
    raise_size: float | None  # times the raise faced; None: all in
    commit: float
    tables: Mapping[str, Mapping[str, Weights]]

    def weight(self, action: str, pos: str, hole: tuple[Card, Card]) -> float:
        """How often this band takes ``action`` with ``hole`` at ``pos`` (0 to 1)."""
        table = self.tables.get(action)
        if not table:
            return 0.0
        for p in _fallbacks(pos):
            weights = table.get(p)
            if weights is not None:
                return weights.get(hole, 0.0)
        return 0.0


@attrs.frozen
class Postflop:
    """The after-the-flop parameters (see the module)."""

    strong: float = 0.8
    medium: float = 0.6
    bet: tuple[float, float, float] = (0.1, 0.5, 0.9)
    raise_: tuple[float, float, float] = (0.0, 0.05, 0.5)
    call: tuple[float, float, float] = (0.0, 0.6, 1.0)
    cbet: float = 0.0
    bet_size: float = 0.66
    raise_size: float = 1.0
    max_raises: int = 2
    samples: int = 200


@attrs.frozen
class Style:
    """A range bot's style: its ``name``, preflop ``bands`` (shallowest first) and ``postflop``
    parameters. Build one from plain data with :func:`style`."""

    name: str
    bands: tuple[Band, ...]
    postflop: Postflop

    def band(self, depth: float) -> Band:
        """The band for an effective stack of ``depth`` big blinds."""
        depth = _number(depth, "The stack depth", 0, math.inf)
        for band in self.bands:
            if band.max_bb is None or depth <= band.max_bb:
                return band
        return self.bands[-1]


def _band(data: object, where: str) -> Band:
    band = _mapping(data, where, _BAND_KEYS)
    tables: dict[str, dict[str, Weights]] = {}
    for action in ACTIONS:
        value = band.get(action)
        if value is None:
            continue
        if isinstance(value, Mapping):
            _mapping(value, f"{where}.{action}", POSITIONS)
            tables[action] = {p: _weights(text, f"{where}.{action}.{p}") for p, text in value.items()}
        else:
            tables[action] = {"UTG": _weights(value, f"{where}.{action}")}  # every position falls back to UTG
    max_bb = band.get("max_bb")
    return Band(
        None if max_bb is None else _number(max_bb, f"{where}.max_bb", 0, 1e9),
        _size(band.get("open_size", 2.5), f"{where}.open_size", 1e6),
        _size(band.get("raise_size", 3), f"{where}.raise_size", 1e6),
        _number(band.get("commit", 0.4), f"{where}.commit", 0, 1),
        tables,
    )


def _postflop(data: object, where: str) -> Postflop:
    p = _mapping(data, where, _POSTFLOP_KEYS)
    d = Postflop()
    samples = p.get("samples", d.samples)
    max_raises = p.get("max_raises", d.max_raises)
    for key, value, high in (("samples", samples, 100_000), ("max_raises", max_raises, 100)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            raise ConfigError(f"{where}.{key} must be a whole number from 1 to {high:,}, not {excerpt(value)}.")
    out = Postflop(
        strong=_number(p.get("strong", d.strong), f"{where}.strong", 0, 1),
        medium=_number(p.get("medium", d.medium), f"{where}.medium", 0, 1),
        bet=_chances(p.get("bet", d.bet), f"{where}.bet"),
        raise_=_chances(p.get("raise", d.raise_), f"{where}.raise"),
        call=_chances(p.get("call", d.call), f"{where}.call"),
        cbet=_number(p.get("cbet", d.cbet), f"{where}.cbet", 0, 1),
        bet_size=_number(p.get("bet_size", d.bet_size), f"{where}.bet_size", 0, 100),
        raise_size=_number(p.get("raise_size", d.raise_size), f"{where}.raise_size", 0, 100),
        max_raises=max_raises, samples=samples,
    )
    if out.medium > out.strong:
        raise ConfigError(f"{where}: medium ({out.medium:g}) must not be above strong ({out.strong:g}).")
    return out


def style(data: object) -> Style:
    """A :class:`Style` from plain data (see the module), checked whole: a bad key, value or range
    raises :class:`ConfigError` naming where it is (``preflop[1].open.UTG``) and what is allowed."""
    top = _mapping(data, "the style", _STYLE_KEYS)
    name = check_text(top.get("name", "range-bot"), "style's name", ConfigError, max_length=100)
    bands = top.get("preflop")
    if isinstance(bands, Mapping):
        bands = [bands]
    if isinstance(bands, str | bytes) or not isinstance(bands, Sequence) or not 1 <= len(bands) <= 100:
        raise ConfigError(f"preflop must be a list of 1 to 100 bands (tables of ranges), not {excerpt(bands)}.")
    built = tuple(_band(b, f"preflop[{i}]") for i, b in enumerate(bands))
    depths = [b.max_bb for b in built[:-1]]
    if None in depths or depths != sorted(depths):  # type: ignore[type-var]
        raise ConfigError("Every preflop band but the last needs a max_bb, in increasing order.")
    return Style(name, built, _postflop(top.get("postflop", {}), "postflop"))


def load_style(path: str | Path) -> Style:
    """The :class:`Style` in a TOML file (the keys of :func:`style` at its top level)."""
    where, text = read_file(path, MAX_STYLE_TEXT, ConfigError, "style file")
    return style(read_toml(text, f"The style file {excerpt(str(where))}", ConfigError))


# --- playing -------------------------------------------------------------------------------------------
def _aggression(view: BotView) -> tuple[int, int, int | None, int]:
    """Preflop raises, the calls since the last one (limps when none), the last preflop raiser,
    and raises on the current street."""
    raises = calls = street_raises = 0
    raiser: int | None = None
    preflop = True
    for e in view.history:
        kind = type(e)
        if kind is BoardDealt:
            preflop, street_raises = False, 0
        elif kind is ActionTaken:
            assert isinstance(e, ActionTaken)
            if e.action in ("bet", "raise"):
                street_raises += 1
                if preflop:
                    raises, calls, raiser = raises + 1, 0, e.seat
            elif e.action == "call" and preflop:
                calls += 1
    return raises, calls, raiser, street_raises


def _start(view: BotView) -> HandStarted | None:
    for e in view.history:
        if type(e) is HandStarted:
            assert isinstance(e, HandStarted)
            return e
    return None


class RangeBot(BotBase):
    """A bot that plays a :class:`Style` (see the module); ``RangeBot(style(data))``."""

    def __init__(self, plays: Style) -> None:
        if not isinstance(plays, Style):
            raise ConfigError(f"A RangeBot plays a Style (cardgame.play.rangebot.style(data)), not {excerpt(plays)}.")
        self.style = plays
        self.__name__ = plays.name

    def __repr__(self) -> str:
        return f"RangeBot({self.style.name!r})"

    def act(self, view: BotView) -> Answer:
        legal = view.legal
        assert legal is not None
        if legal.bring_in:
            return "call"
        shape = view.shape
        start = _start(view)
        holdem = shape.board_cards == 5 and shape.hole_cards == 2 and len(view.hole) == 2
        if holdem and not view.board and start is not None and view.seat in start.seats:
            return self._preflop(view, start)
        return self._postflop(view)

    def discard(self, view: BotView) -> Answer:
        return discards(view)

    def _preflop(self, view: BotView, start: HandStarted) -> Answer:
        legal = view.legal
        assert legal is not None
        bb = view.shape.big_blind
        stacks = dict(zip(start.seats, start.stacks, strict=True)) if start.stacks else {}
        mine = stacks.get(view.seat, view.me.stack + view.me.in_pot)
        others = [v for s, v in stacks.items() if s != view.seat] or [mine]
        band = self.style.band(min(mine, max(others)) / bb)
        pos = position(start.seats, view.seat)
        high, low = sorted(view.hole, reverse=True)
        hole = (high, low)
        raises, calls, _, _ = _aggression(view)
        roll = view.rng.random()
        if raises == 0:
            raise_w, call_w = band.weight("open", pos, hole), band.weight("limp", pos, hole)
            to = None if band.open_size is None else round((band.open_size + calls) * bb)
        else:
            raise_w = band.weight("3bet" if raises == 1 else "4bet", pos, hole)
            call_w = band.weight("call" if raises == 1 else "call_3bet", pos, hole)
            to = None if band.raise_size is None else round(band.raise_size * legal.bet_to + calls * legal.bet_to)
        if roll < raise_w and legal.can_raise:
            if to is None or to - view.me.bet > band.commit * (view.me.stack + view.me.bet) \
                    or raises >= 3:
                return "all_in"
            return ("raise", _clamp(to, legal.min_raise_to, legal.max_raise_to, legal.amounts))
        if legal.can_check:
            return "check"
        if roll < raise_w + call_w:
            return "call"
        return "fold"

    def _postflop(self, view: BotView) -> Answer:
        legal = view.legal
        assert legal is not None
        p = self.style.postflop
        n = max(len(view.opponents), 1)
        hs = strength(view, p.samples, max(p.samples // 8, 20), drop_weak=False)
        equity = hs ** (1 / n)
        grade = 2 if equity >= p.strong else 1 if equity >= p.medium else 0
        roll = view.rng.random()
        _, _, raiser, street_raises = _aggression(view)
        if legal.call_amount == 0:
            chance = p.bet[grade]
            if raiser == view.seat and len(view.board) == 3 and street_raises == 0:
                chance = max(chance, p.cbet)
            if roll < chance and legal.can_raise:
                return ("raise", self._sized(view, p.bet_size))
            return "check"
        raise_chance = p.raise_[grade] if street_raises < p.max_raises else 0.0
        if roll < raise_chance and legal.can_raise:
            return ("raise", self._sized(view, p.raise_size))
        if roll < raise_chance + (1 - raise_chance) * p.call[grade]:
            return "call"
        return "fold"

    @staticmethod
    def _sized(view: BotView, fraction: float) -> int:
        """The raise-to amount that adds ``fraction`` of the pot (after calling) to the bet faced."""
        legal = view.legal
        assert legal is not None
        to = legal.bet_to + round(fraction * (view.pot + legal.call_amount))
        return _clamp(to, legal.min_raise_to, legal.max_raise_to, legal.amounts)


def _clamp(to: int, low: int, high: int, amounts: tuple[int, ...]) -> int:
    to = min(max(to, low), high)
    return min(amounts, key=lambda a: abs(a - to)) if amounts else to
