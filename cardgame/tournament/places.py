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
from collections.abc import Mapping
from dataclasses import dataclass

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
    pool = sum(table[first - 1: first - 1 + tied])
    share, left = divmod(pool, tied)
    return tuple(share + (1 if i < left else 0) for i in range(tied))


def _check_name(value: object, what: str) -> str:
    return check_text(value, what, TournamentError, max_length=100)


@dataclass(frozen=True)
class Standings:
    """A tournament's standings: the ``players`` (unique names), the ``payouts`` by place (whole money
    units, place 1 first; none for a tournament without prizes) and the ``finishes`` so far (the last
    out first). :meth:`eliminate` returns the standings after a hand's eliminations."""

    players: tuple[str, ...]
    payouts: tuple[int, ...] = ()
    finishes: tuple[Finish, ...] = ()

    def __post_init__(self) -> None:
        names = tuple(_check_name(n, f"player {i + 1}'s name")
                      for i, n in enumerate(check_list(self.players, "players", min_length=2)))
        if len(set(names)) != len(names):
            twice = next(n for n, k in Counter(names).items() if k > 1)
            raise TournamentError(f"Each player's name must be different: {excerpt(twice)} is there twice.")
        none = isinstance(self.payouts, tuple | list) and not self.payouts
        prizes = () if none else check_payouts(self.payouts, len(names))
        finishes = check_list(self.finishes, "finishes", min_length=0)
        seen, known = set(), set(names)  # a set: a tuple's lookup made a 1,000-player event's standings cubic
        for f in finishes:
            if not isinstance(f, Finish) or f.name not in known or f.name in seen:
                raise TournamentError(f"Each finish must be a Finish of a player listed once, not {excerpt(f)}.")
            seen.add(f.name)
        object.__setattr__(self, "players", names)
        object.__setattr__(self, "payouts", prizes)
        object.__setattr__(self, "finishes", tuple(finishes))

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in, in the order listed."""
        out = {f.name for f in self.finishes}
        return tuple(n for n in self.players if n not in out)

    @property
    def over(self) -> bool:
        """Whether every place is decided."""
        return len(self.finishes) == len(self.players)

    def prize(self, place: int) -> int:
        """What ``place`` pays (0 past the paid places)."""
        number = check_int(place, "place", TournamentError, minimum=1, maximum=len(self.players))
        return self.payouts[number - 1] if number <= len(self.payouts) else 0

    def eliminate(self, busted: object, hand: int | None = None) -> Standings:
        """The standings after the players in ``busted`` (a mapping ``name -> stack at the start of the
        hand``, at least 1 chip each) went out in one hand (``hand``, its number, for the record), ranked
        by those stacks as the module says; the last player left finishes first."""
        if not isinstance(busted, Mapping):
            raise TournamentError(f"The players out must be a mapping of name to stack at the start of the hand, "
                                  f"not {excerpt(busted)}.")
        number = None if hand is None else check_int(hand, "hand number", TournamentError, minimum=1)
        left = self.remaining
        if len(left) < 2:
            raise TournamentError("The tournament is over: nobody is left to eliminate.")
        if not 1 <= len(busted) < len(left):
            raise TournamentError(f"Between 1 and {len(left) - 1:,} of the {len(left):,} players left may go out in a "
                                  f"hand, not {len(busted):,}: one must be left.")
        stacks: dict[str, int] = {}
        for name, stack in busted.items():
            if not isinstance(name, str) or name not in left:
                raise TournamentError(f"{excerpt(name)} is not a player still in; those left are {excerpt(left)}.")
            stacks[name] = check_int(stack, f"starting stack of {excerpt(name)}", TournamentError, minimum=1,
                                     maximum=MAX_NUMBER)
        order = sorted(stacks, key=lambda n: -stacks[n])  # stable: ties keep the order given
        place = len(left) - len(order) + 1
        finishes = list(self.finishes)
        i = 0
        while i < len(order):
            group = [n for n in order[i:] if stacks[n] == stacks[order[i]]]
            prizes = split_prizes(self.payouts, place, len(group)) if self.payouts else (0,) * len(group)
            finishes += [Finish(n, place, len(group), prize, number) for n, prize in zip(group, prizes, strict=True)]
            place += len(group)
            i += len(group)
        still = [n for n in left if n not in stacks]
        if len(still) == 1:
            finishes.append(Finish(still[0], 1, 1, self.payouts[0] if self.payouts else 0, number))
        return Standings(self.players, self.payouts, tuple(finishes))

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
