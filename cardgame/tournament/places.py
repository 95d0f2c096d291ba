"""Finishing places and their prizes, as players are eliminated.

The players eliminated in one hand finish below everyone still in and are ranked among themselves by
their stacks at the **start of that hand**: the larger stack finishes higher. Players who started it
with equal stacks tie: they share the places they cover and split those places' prizes equally (the
TDA rule for players busting at the same time; PokerStars and GGPoker publish the same rule). A split
that does not come out even in whole money units gives the units left over one each to the tied
players in the order the elimination lists them (pass them in seat order from the button for the
dealer's usual order). When one player is left, they finish first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass

from cardgame.model.inputs import MAX_NUMBER, check_int, check_text, excerpt
from cardgame.tournament._checks import MAX_ENTRIES, check_list
from cardgame.tournament.errors import TournamentError
from cardgame.tournament.icm import icm, icm_table
from cardgame.tournament.payouts import check_payouts

__all__ = ["Finish", "Standings", "split_prizes"]


@dataclass(frozen=True)
class Finish:
    """A player's finish: their ``place`` (the best of the places a tie covers), how many players
    ``shared`` it (1 alone), their ``prize`` (whole money units) and the ``hand`` they went out in (if
    given)."""

    name: str
    place: int
    shared: int
    prize: int
    hand: int | None = None

    def __post_init__(self) -> None:
        _check_name(self.name, "player's name")
        check_int(self.place, "place", TournamentError, minimum=1, maximum=MAX_ENTRIES)
        check_int(self.shared, "number of players sharing the place", TournamentError, minimum=1,
                  maximum=MAX_ENTRIES)
        check_int(self.prize, "prize", TournamentError, minimum=0, maximum=MAX_NUMBER)
        if self.hand is not None:
            check_int(self.hand, "hand number", TournamentError, minimum=1)

    @property
    def places(self) -> str:
        """The place as written in standings: ``"3"``, or ``"3-4"`` for two tied."""
        return str(self.place) if self.shared == 1 else f"{self.place}-{self.place + self.shared - 1}"


def split_prizes(payouts: object, place: int, count: int) -> tuple[int, ...]:
    """What each of ``count`` players tied for the places from ``place`` on gets: those places' prizes
    (``payouts``, place 1 first; places past it pay 0) added and split equally, the units left over
    one each to the first players."""
    table = check_payouts(payouts)
    first = check_int(place, "place", TournamentError, minimum=1, maximum=MAX_ENTRIES)
    tied = check_int(count, "number of players tied", TournamentError, minimum=1, maximum=MAX_ENTRIES)
    return _split(table, first, tied)


def _split(table: tuple[int, ...], first: int, tied: int) -> tuple[int, ...]:
    """:func:`split_prizes` of a checked payout table."""
    pool = sum(table[first - 1: first - 1 + tied])
    share, left = divmod(pool, tied)
    return tuple(share + (1 if i < left else 0) for i in range(tied))


def _check_name(value: object, what: str) -> str:
    return check_text(value, what, TournamentError, max_length=100)


class Standings:
    """A tournament's standings: the ``players`` (unique names), the ``payouts`` by place (whole money
    units, place 1 first; none for a tournament without prizes) and the ``finishes`` so far (in the order
    they went out). :meth:`eliminate` returns the standings after a hand's eliminations. Immutable; equal
    when their players, payouts and finishes are.

    Standings made by :meth:`eliminate` share their players' checks and the finishes before them with
    the standings they came from, so an elimination costs the same at 100,000 entrants as at nine
    (``finishes`` and ``remaining`` are built when asked)."""

    __slots__ = ("_count", "_finishes", "_known", "_log", "_out", "payouts", "players")
    __match_args__ = ("players", "payouts", "finishes")
    players: tuple[str, ...]
    payouts: tuple[int, ...]
    _log: list[Finish]  # the finishes, shared along a line of eliminations: this one's are the first _count
    _count: int
    _out: dict[str, int]  # each finisher's index in _log (shared with _log)
    _known: frozenset[str]  # the players' names (shared by every standings of the tournament)
    _finishes: tuple[Finish, ...] | None  # finishes, once asked

    def __init__(self, players: Sequence[str], payouts: Sequence[int] = (), finishes: Sequence[Finish] = ()) -> None:
        names = tuple(_check_name(n, f"player {i + 1}'s name")
                      for i, n in enumerate(check_list(players, "players", min_length=2)))
        if len(set(names)) != len(names):
            twice = next(n for n, k in Counter(names).items() if k > 1)
            raise TournamentError(f"Each player's name must be different: {excerpt(twice)} is there twice.")
        none = isinstance(payouts, tuple | list) and not payouts
        prizes = () if none else check_payouts(payouts, len(names))
        done = check_list(finishes, "finishes", min_length=0)
        log: list[Finish] = []
        out: dict[str, int] = {}
        known = frozenset(names)  # a set: a tuple's lookup made a 1,000-player event's standings cubic
        for f in done:
            if not isinstance(f, Finish) or f.name not in known or f.name in out:
                raise TournamentError(f"Each finish must be a Finish of a player listed once, not {excerpt(f)}.")
            out[f.name] = len(log)
            log.append(f)
        self._set(names, prizes, known, log, out)

    def _set(self, players: tuple[str, ...], payouts: tuple[int, ...], known: frozenset[str], log: list[Finish],
             out: dict[str, int]) -> None:
        for name, value in (("players", players), ("payouts", payouts), ("_known", known), ("_log", log),
                            ("_out", out), ("_count", len(log)), ("_finishes", None)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not Standings:
            return NotImplemented
        return (self.players, self.payouts, self.finishes) == (other.players, other.payouts, other.finishes)

    def __hash__(self) -> int:
        return hash((self.players, self.payouts, self.finishes))

    def __repr__(self) -> str:
        return f"Standings(players={self.players!r}, payouts={self.payouts!r}, finishes={self.finishes!r})"

    @property
    def finishes(self) -> tuple[Finish, ...]:
        """Every finish so far, the first out first."""
        done = self._finishes
        if done is None:
            done = tuple(self._log[: self._count])
            object.__setattr__(self, "_finishes", done)
        return done

    def _is_out(self, name: str) -> bool:
        index = self._out.get(name)
        return index is not None and index < self._count

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in, in the order listed."""
        return tuple(n for n in self.players if not self._is_out(n))

    @property
    def over(self) -> bool:
        """Whether every place is decided."""
        return self._count == len(self.players)

    def prize(self, place: int) -> int:
        """What ``place`` pays (0 past the paid places)."""
        number = check_int(place, "place", TournamentError, minimum=1, maximum=len(self.players))
        return self.payouts[number - 1] if number <= len(self.payouts) else 0

    def eliminate(self, busted: object, hand: int | None = None) -> Standings:
        """The standings after the players in ``busted`` (a mapping ``name -> stack at the start of the
        hand``, at least 1 chip each) went out in one hand (``hand``, its number, for the record), ranked
        by those stacks as the module says; the last player left finishes first. Its cost grows with
        the players out, not with the field."""
        if not isinstance(busted, Mapping):
            raise TournamentError(f"The players out must be a mapping of name to stack at the start of the hand, "
                                  f"not {excerpt(busted)}.")
        number = None if hand is None else check_int(hand, "hand number", TournamentError, minimum=1)
        left = len(self.players) - self._count
        if left < 2:
            raise TournamentError("The tournament is over: nobody is left to eliminate.")
        if not 1 <= len(busted) < left:
            raise TournamentError(f"Between 1 and {left - 1:,} of the {left:,} players left may go out in a "
                                  f"hand, not {len(busted):,}: one must be left.")
        stacks: dict[str, int] = {}
        for name, stack in busted.items():
            if not isinstance(name, str) or name not in self._known or self._is_out(name):
                raise TournamentError(f"{excerpt(name)} is not a player still in; those left are "
                                      f"{excerpt(self.remaining)}.")
            stacks[name] = check_int(stack, f"starting stack of {excerpt(name)}", TournamentError, minimum=1,
                                     maximum=MAX_NUMBER)
        order = sorted(stacks, key=lambda n: -stacks[n])  # stable: ties keep the order given
        place = left - len(order) + 1
        new: list[Finish] = []
        i = 0
        while i < len(order):
            group = [n for n in order[i:] if stacks[n] == stacks[order[i]]]
            prizes = _split(self.payouts, place, len(group)) if self.payouts else (0,) * len(group)
            new += [Finish(n, place, len(group), prize, number) for n, prize in zip(group, prizes, strict=True)]
            place += len(group)
            i += len(group)
        if left - len(order) == 1:  # once a tournament: the last player left
            last = next(n for n in self.players if not self._is_out(n) and n not in stacks)
            new.append(Finish(last, 1, 1, self.payouts[0] if self.payouts else 0, number))
        log, out = self._log, self._out
        if len(log) != self._count:  # standings eliminated from before: this line of them gets its own log
            log, out = log[: self._count], {n: k for n, k in out.items() if k < self._count}
        for f in new:
            out[f.name] = len(log)
            log.append(f)
        after = object.__new__(Standings)
        after._set(self.players, self.payouts, self._known, log, out)
        return after

    def table(self) -> str:
        """The standings as text: the players left, then each finish from first place down."""
        rows = [("place", "player", "prize")]
        rows += [("-", n, "") for n in self.remaining]
        rows += [(f.places, f.name, f"{f.prize:,}") for f in sorted(self.finishes, key=lambda f: (f.place, f.name))]
        widths = [max(len(r[c]) for r in rows) for c in range(3)]
        return "\n".join(f"{r[0].rjust(widths[0])}  {r[1].ljust(widths[1])}  {r[2].rjust(widths[2])}".rstrip()
                         for r in rows)

    def icm_table(self, stacks: object) -> str:
        """The ICM table (:func:`~cardgame.tournament.icm.icm_table`) of the players left, given their
        ``stacks`` (a mapping ``name -> chips``), over the prizes of the places still to be decided."""
        if not isinstance(stacks, Mapping):
            raise TournamentError(f"The stacks must be a mapping of name to chips, not {excerpt(stacks)}.")
        left = self.remaining
        if set(stacks) != set(left):
            raise TournamentError(f"Give a stack for each player left ({excerpt(left)}), not for "
                                  f"{excerpt(list(stacks))}.")
        if not self.payouts or len(left) < 2:
            raise TournamentError("No prizes are left to play for.")
        result = icm([stacks[n] for n in left], list(self.payouts[: len(left)]))
        return icm_table(result, list(left))
