"""ACPC game definitions (``.game`` files): read, check, write, and the engine's deck and evaluator.

A definition sits between ``GAMEDEF`` and ``END GAMEDEF``, one field a line, names
case-insensitive, ``#`` comments; values may follow an ``=``::

    GAMEDEF
    limit
    numPlayers = 2
    numRounds = 4
    blind = 10 5
    raiseSize = 10 10 20 20
    firstPlayer = 2 1 1 1
    maxRaises = 3 4 4 4
    numSuits = 4
    numRanks = 13
    numHoleCards = 2
    numBoardCards = 0 3 1 1
    END GAMEDEF

``blind`` and ``stack`` are per position (position 0 is first after the button), ``raiseSize``,
``firstPlayer`` (1-based), ``maxRaises`` and ``numBoardCards`` per round. Without ``stack`` a
player's stack is unlimited (the reference dealer's ``INT32_MAX``); without ``firstPlayer`` the
first position acts first every round; without ``maxRaises`` raises are unlimited. The deck is the
top ``numRanks`` ranks of the last ``numSuits`` suits of ``cdhs`` (Kuhn: ``JQKA`` of spades).
:func:`parse_gamedef` raises :class:`~cardgame.model.errors.ConfigError` naming the field for anything the
reference dealer refuses and for what the engine cannot play (a showdown it cannot rank).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from cardgame.evaluation import HIGH, HandEvaluator
from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.cards import RANKS, SUITS
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, check_path, excerpt, is_ascii_int, label, read_file

__all__ = ["MAX_STACK", "STANDARD_GAMES", "GameDef", "load_gamedef", "parse_gamedef", "read_gamedef"]

#: A player's stack when the definition gives none (the reference dealer's ``INT32_MAX``).
MAX_STACK = 2**31 - 1
MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_HOLE_CARDS = 3
MAX_BOARD_CARDS = 7
#: The most bytes :func:`read_gamedef` reads of a ``.game`` file (the reference's are a few hundred).
MAX_GAMEDEF_BYTES = 1 << 16
#: The most raises ``maxRaises`` may cap a round at (the reference's ``UINT8_MAX``, its default).
MAX_RAISES = 255

# Field names as the reference dealer spells them when it writes a definition, keyed by the
# lowercase prefix it matches (in the order it tries them).
_FIELDS = {
    "stack": "stack", "blind": "blind", "raisesize": "raiseSize", "numplayers": "numPlayers",
    "numrounds": "numRounds", "firstplayer": "firstPlayer", "maxraises": "maxRaises", "numsuits": "numSuits",
    "numranks": "numRanks", "numholecards": "numHoleCards", "numboardcards": "numBoardCards",
}


def _ints(values: Sequence[int], field: str, low: int, high: int) -> tuple[int, ...]:
    """``values`` if each is a whole number from ``low`` to ``high`` (:func:`check_int`), else a
    :class:`ConfigError` naming ``field`` and an excerpt of the bad value."""
    out = []
    for v in values:
        try:
            out.append(check_int(v, f"{field} value", ConfigError, minimum=low, maximum=high))
        except ConfigError:
            raise ConfigError(f"{field} values must be whole numbers from {low} to {high}, not {excerpt(v)}.") from None
    return tuple(out)


@attrs.frozen
class GameDef:
    """One ACPC game. ``betting`` is ``"limit"`` or ``"nolimit"``; tuples are per position
    (``blinds``, ``stacks``) or per round (the rest); ``first_player`` is 1-based as in the file.
    ``stacks=None`` is unlimited, ``max_raises=None`` uncapped, ``raise_sizes`` is ``None`` in no-limit.
    Every value is checked when the definition is made (:class:`~cardgame.model.errors.ConfigError`).
    """

    betting: str
    num_players: int
    num_rounds: int
    blinds: tuple[int, ...]
    first_player: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]
    raise_sizes: tuple[int, ...] | None = None
    max_raises: tuple[int, ...] | None = None
    stacks: tuple[int, ...] | None = None

    def __attrs_post_init__(self) -> None:
        if self.betting not in ("limit", "nolimit"):
            raise ConfigError(f"The betting type must be 'limit' or 'nolimit', not {excerpt(self.betting)}.")
        (players,) = _ints((self.num_players,), "numPlayers", 2, MAX_PLAYERS)
        (rounds,) = _ints((self.num_rounds,), "numRounds", 1, MAX_ROUNDS)
        self._per("blind", self.blinds, players, "position")
        _ints(self.blinds, "blind", 0, MAX_STACK)
        if self.stacks is not None:
            self._per("stack", self.stacks, players, "position")
            _ints(self.stacks, "stack", 1, MAX_STACK)
        for position, (blind, stack) in enumerate(zip(self.blinds, self.stack_sizes, strict=True)):
            if blind > stack:
                raise ConfigError(f"blind {blind} of position {position} is above its stack {stack}; a blind "
                                  "must be at most the stack.")
        behind = [p for p in range(players) if self.blinds[p] < self.stack_sizes[p]]
        if len(behind) < 2 and not (behind and self.blinds[behind[0]] < max(self.blinds)):
            raise ConfigError(f"blind {_join(self.blinds)} with stack {_join(self.stack_sizes)} puts every position "
                              "but at most one all in before anyone acts, so no one ever decides anything; at least "
                              "two positions must keep chips behind their blind (or the one who does must face a "
                              "larger blind).")
        if self.betting == "limit":
            if self.raise_sizes is None:
                raise ConfigError("raiseSize is missing: a limit game needs one raise size per round.")
            self._per("raiseSize", self.raise_sizes, rounds, "round")
            _ints(self.raise_sizes, "raiseSize", 1, MAX_STACK)
        elif self.raise_sizes is not None:
            raise ConfigError("raiseSize applies to limit games only; a nolimit game has none.")
        self._per("firstPlayer", self.first_player, rounds, "round")
        _ints(self.first_player, "firstPlayer", 1, players)
        if self.max_raises is not None:
            self._per("maxRaises", self.max_raises, rounds, "round")
            _ints(self.max_raises, "maxRaises", 0, MAX_RAISES)
        _ints((self.num_suits,), "numSuits", 1, len(SUITS))
        _ints((self.num_ranks,), "numRanks", 1, len(RANKS))
        _ints((self.num_hole_cards,), "numHoleCards", 1, MAX_HOLE_CARDS)
        self._per("numBoardCards", self.num_board_cards, rounds, "round")
        _ints(self.num_board_cards, "numBoardCards", 0, MAX_BOARD_CARDS)
        if sum(self.num_board_cards) > MAX_BOARD_CARDS:
            raise ConfigError(f"numBoardCards adds up to {sum(self.num_board_cards)}; at most {MAX_BOARD_CARDS} "
                              "board cards are allowed.")
        dealt = self.num_hole_cards * players + sum(self.num_board_cards)
        deck = self.num_suits * self.num_ranks
        if dealt > deck:
            raise ConfigError(f"numHoleCards and numBoardCards deal {dealt} cards but numSuits x numRanks make a "
                              f"deck of {deck}; the deck must hold every card dealt.")
        self.evaluator  # noqa: B018 -- refuses a showdown the engine cannot rank

    @staticmethod
    def _per(field: str, values: tuple[int, ...], count: int, what: str) -> None:
        if not isinstance(values, tuple) or len(values) != count:
            raise ConfigError(f"{field} needs {count} values, one per {what}, not {excerpt(values)}.")

    # --- what the engine plays -----------------------------------------------------------------------
    @property
    def is_limit(self) -> bool:
        return self.betting == "limit"

    @property
    def stack_sizes(self) -> tuple[int, ...]:
        """Each position's stack (:data:`MAX_STACK` where the definition gives none)."""
        return self.stacks if self.stacks is not None else (MAX_STACK,) * self.num_players

    @property
    def raise_caps(self) -> tuple[int | None, ...]:
        """Each round's raise cap (``None``: unlimited)."""
        return self.max_raises if self.max_raises is not None else (None,) * self.num_rounds

    @property
    def big_blind(self) -> int:
        """The largest blind, at least 1: the no-limit minimum bet and raise."""
        return max(1, *self.blinds)

    @property
    def deck(self) -> DeckSpec:
        """The top ``num_ranks`` ranks of the last ``num_suits`` suits (as the reference dealer deals)."""
        return _deck(self.num_ranks, self.num_suits)

    @property
    def evaluator(self) -> HandEvaluator:
        """How the showdown ranks hands: one card (Kuhn), one card and one board card (Leduc), or the
        best high hand of five to seven cards (hold'em)."""
        hole, board = self.num_hole_cards, sum(self.num_board_cards)
        if hole == 1 and board == 0:
            return HIGH_CARD
        if hole == 1 and board == 1:
            return LEDUC
        if 5 <= hole + board <= 7:
            return HIGH
        raise ConfigError(
            f"numHoleCards = {hole} with numBoardCards = {' '.join(map(str, self.num_board_cards))} makes "
            f"{hole + board}-card hands, which the engine cannot rank; it plays 1 card (Kuhn), 1 hole card and 1 "
            "board card (Leduc), or 5 to 7 cards (hold'em)."
        )

    # --- writing -------------------------------------------------------------------------------------------
    def to_text(self) -> str:
        """The definition as the reference dealer writes it (fields in its order, ``None`` fields and a
        ``firstPlayer`` of all 1 left out), so :func:`parse_gamedef` reads back this very definition.

        Unlike the reference, it writes ``stack`` and ``maxRaises`` whenever they are given, even
        when they equal its defaults (``INT32_MAX``, ``255``): read back, they stay given.
        """
        lines = ["GAMEDEF", self.betting, f"numPlayers = {self.num_players}", f"numRounds = {self.num_rounds}"]
        if self.stacks is not None:
            lines.append("stack = " + _join(self.stacks))
        lines.append("blind = " + _join(self.blinds))
        if self.raise_sizes is not None:
            lines.append("raiseSize = " + _join(self.raise_sizes))
        if any(f != 1 for f in self.first_player):
            lines.append("firstPlayer = " + _join(self.first_player))
        if self.max_raises is not None:
            lines.append("maxRaises = " + _join(self.max_raises))
        lines += [f"numSuits = {self.num_suits}", f"numRanks = {self.num_ranks}",
                  f"numHoleCards = {self.num_hole_cards}", "numBoardCards = " + _join(self.num_board_cards),
                  "END GAMEDEF"]
        return "\n".join(lines) + "\n"


@functools.cache
def _deck(num_ranks: int, num_suits: int) -> DeckSpec:
    return DeckSpec(RANKS[len(RANKS) - num_ranks :], SUITS[len(SUITS) - num_suits :])


def _join(values: Sequence[int]) -> str:
    return " ".join(map(str, values))


def parse_gamedef(text: str, source: str = "the game definition") -> GameDef:
    """Read a ``.game`` definition; :class:`~cardgame.model.errors.ConfigError` names the line and field
    that is wrong (an unknown field, a value that is not a number, a missing or out-of-range one)."""
    if not isinstance(text, str):
        raise ConfigError(f"A game definition is text, not {type(text).__name__}.")
    source = label(source)
    betting = "limit"
    values: dict[str, tuple[int, ...]] = {}
    started = ended = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        low = line.lower()
        if low.startswith("end gamedef"):
            ended = True
            break
        if low.startswith("gamedef"):
            started = True
            continue
        if not started:
            raise ConfigError(f"{source}, line {number}: {excerpt(line)} comes before GAMEDEF; a definition starts "
                              "with a line GAMEDEF.")
        key = next((k for k in _FIELDS if low.startswith(k)), None)
        if key is None:
            if low in ("limit", "nolimit"):
                betting = low
                continue
            known = ", ".join(["limit", "nolimit", *_FIELDS.values()])
            raise ConfigError(f"{source}, line {number}: unknown field {excerpt(line.split()[0])}; the fields are "
                              f"{known}.")
        field = _FIELDS[key]
        if field in values:
            raise ConfigError(f"{source}, line {number}: {field} is given twice.")
        items = line[len(key):].replace("=", " ").split()
        if not items:
            raise ConfigError(f"{source}, line {number}: {field} has no value.")
        if not all(is_ascii_int(item) for item in items):
            raise ConfigError(f"{source}, line {number}: {field} values must be whole numbers, not "
                              f"{excerpt(' '.join(items))}; a value is ASCII digits 0-9, at most 18 of them.")
        values[field] = tuple(int(item) for item in items)
    if not started:
        raise ConfigError(f"{source} has no GAMEDEF line; a definition sits between GAMEDEF and END GAMEDEF.")
    if not ended:
        raise ConfigError(f"{source} has no END GAMEDEF line; a definition sits between GAMEDEF and END GAMEDEF.")

    def one(field: str) -> int:
        if field not in values:
            raise ConfigError(f"{source}: {field} is missing.")
        if len(values[field]) != 1:
            raise ConfigError(f"{source}: {field} takes one value, not {len(values[field])}.")
        return values[field][0]

    (players,) = _ints((one("numPlayers"),), "numPlayers", 2, MAX_PLAYERS)
    (rounds,) = _ints((one("numRounds"),), "numRounds", 1, MAX_ROUNDS)

    def per(field: str, count: int, what: str, default: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
        if field not in values:
            return default
        got = values[field]
        if len(got) < count:
            raise ConfigError(f"{source}: {field} needs {count} values, one per {what}; it has {len(got)}.")
        if len(got) > count:  # the reference reads only as many as it needs
            got = got[:count]
        return got

    if "blind" not in values:
        raise ConfigError(f"{source}: blind is missing (one per position; 0 for none).")
    if "numBoardCards" not in values:
        raise ConfigError(f"{source}: numBoardCards is missing (one per round).")
    blinds = per("blind", players, "position")
    board = per("numBoardCards", rounds, "round")
    first = per("firstPlayer", rounds, "round", (1,) * rounds)
    assert blinds is not None and board is not None and first is not None
    raise_sizes = per("raiseSize", rounds, "round")
    if betting == "limit" and raise_sizes is None:
        raise ConfigError(f"{source}: raiseSize is missing; a limit game needs one raise size per round.")
    return GameDef(
        betting=betting, num_players=players, num_rounds=rounds, blinds=blinds, first_player=first,
        num_suits=one("numSuits"), num_ranks=one("numRanks"), num_hole_cards=one("numHoleCards"),
        num_board_cards=board, raise_sizes=raise_sizes if betting == "limit" else None,
        max_raises=per("maxRaises", rounds, "round"), stacks=per("stack", players, "position"),
    )


def read_gamedef(path: str | Path) -> GameDef:
    """Read the ``.game`` file at ``path`` (UTF-8 text of at most :data:`MAX_GAMEDEF_BYTES`)."""
    p, text = read_file(path, MAX_GAMEDEF_BYTES, ConfigError, "a game definition")
    return parse_gamedef(text, source=str(p))


def _holdem(betting: str, blinds: tuple[int, ...], first: tuple[int, ...], *,
            raise_sizes: tuple[int, ...] | None = None, max_raises: tuple[int, ...] | None = None,
            stacks: tuple[int, ...] | None = None) -> GameDef:
    return GameDef(betting, len(blinds), 4, blinds, first, 4, 13, 2, (0, 3, 1, 1), raise_sizes=raise_sizes,
                   max_raises=max_raises, stacks=stacks)


def _standard() -> dict[str, GameDef]:
    limit = {"raise_sizes": (10, 10, 20, 20), "max_raises": (3, 4, 4, 4)}
    return {
        "holdem.limit.2p.reverse_blinds": _holdem("limit", (10, 5), (2, 1, 1, 1), **limit),
        "holdem.nolimit.2p.reverse_blinds": _holdem("nolimit", (100, 50), (2, 1, 1, 1), stacks=(20000, 20000)),
        "holdem.limit.3p": _holdem("limit", (5, 10, 0), (3, 1, 1, 1), **limit),
        "holdem.nolimit.3p": _holdem("nolimit", (50, 100, 0), (3, 1, 1, 1), stacks=(20000,) * 3),
        "kuhn.limit.3p": GameDef("limit", 3, 1, (1, 1, 1), (1,), 1, 4, 1, (0,), raise_sizes=(1,), max_raises=(1,),
                                 stacks=(2, 2, 2)),
        "leduc.limit.2p": GameDef("limit", 2, 2, (1, 1), (1, 1), 2, 3, 1, (0, 1), raise_sizes=(2, 4),
                                  max_raises=(2, 2)),
    }


#: The competition's games by the reference dealer's file names (without ``.game``).
STANDARD_GAMES: dict[str, GameDef] = _standard()


def load_gamedef(name_or_path: str | Path) -> GameDef:
    """A game of :data:`STANDARD_GAMES` by name (``"holdem.limit.2p.reverse_blinds"``), else the
    ``.game`` file at that path."""
    path = check_path(name_or_path, "game (a standard game's name or a .game file's path)", ConfigError)
    key = os.fspath(name_or_path)
    key = key[: -len(".game")] if key.endswith(".game") else key
    try:
        is_file = path.is_file()
    except OSError:  # a name too long for a file: read_gamedef says why
        is_file = True
    if key in STANDARD_GAMES and not is_file:
        return STANDARD_GAMES[key]
    if not is_file:
        raise ConfigError(f"No game file {excerpt(str(name_or_path))}, and no standard game of that name; the "
                          f"standard games are {', '.join(STANDARD_GAMES)}.")
    return read_gamedef(path)
