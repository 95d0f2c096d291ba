"""The dead-button rule: where the button and the blinds go each hand, who is dealt in, who missed a blind.

Robert's Rules of Poker, buttons and blinds, rule 2 ("each round every player must get an opportunity
for the button, and meet the total amount of the blind obligations"), offers two methods:

* *moving button*: the button moves to the next player every hand and the blinds follow it
  (:meth:`cardgame.model.table.Table.move_button`, the library's default);
* *dead button* (here): the big blind is posted by the player due for it, and the small blind and
  the button are placed accordingly, even in front of an empty seat, so the same player may act
  last on two hands running (TDA, dead button: tournament play uses a dead button). Each hand the
  big blind moves to the next player in play after last hand's big blind; the small blind goes to
  last hand's big blind's seat (dead, nobody posts it, when that player is gone or sits out); the
  button to last hand's small blind's seat.

Players coming in (Robert's Rules, buttons and blinds: a new player "may either post an amount
equal to the big blind or wait for the big blind"; a player who missed blinds posts them to come
back, "the big blind live, the small blind dead", or waits for the big blind):

* a player who sits out as a blind passes them misses it: the big blind passing them (they owe
  both blinds), or the small blind falling on their seat (they owe the small blind);
* a player who owes blinds (``Player.owes``) is dealt in at the big blind without further posts;
  elsewhere, with ``new_player="post"``, after posting what they owe, and with ``"wait"`` not until
  the big blind reaches them; never between the button and the big blind (Robert's Rules: a new
  player cannot be dealt in between the small blind and the button).

Heads-up the button posts the small blind and the other player the big blind, which keeps moving
to the next player, so going from three players to two nobody has the big blind twice in a row
(TDA, button in heads-up: "the button may need to be adjusted to ensure no player has the big blind
twice in a row"); a player heads-up posts no missed blinds.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardgame.model.errors import ConfigError, TableError
from cardgame.model.inputs import check_instance, check_int, excerpt
from cardgame.model.player import Player
from cardgame.model.table import MAX_SEATS

__all__ = ["NEW_PLAYER", "OWES", "Placement", "place_blinds"]

#: What a player coming in does under the dead-button rule: post what they owe, or wait for the big blind.
NEW_PLAYER = ("post", "wait")

#: The values of ``Player.owes``: nothing, a new player's big blind, a missed small blind, both blinds.
OWES = ("", "new", "small", "both")


@attrs.frozen
class Placement:
    """One hand under the dead-button rule: ``button`` (a seat, perhaps empty or of a player not dealt
    in: a dead button), ``small_blind`` (the seat that posts it, ``None`` when it is dead),
    ``big_blind``, ``seats`` dealt in (seat order), ``position`` (the seats of the button, the small
    blind's place, dead or not, and the big blind: what the next hand is placed from), ``missed``
    ((seat, ``"small"`` or ``"both"``) for each player sitting out whom a blind passed) and
    ``posts`` (whether players dealt in post what they owe: not heads-up)."""

    button: int
    small_blind: int | None
    big_blind: int
    seats: tuple[int, ...]
    position: tuple[int, int, int]
    missed: tuple[tuple[int, str], ...] = ()
    posts: bool = True


def place_blinds(seats: Sequence[Player | None], in_play: Sequence[int], last: tuple[int, int, int],
                 new_player: str = "post", min_players: int = 2) -> Placement:
    """Place this hand's button and blinds from ``last`` hand's (button, small blind, big blind)
    seats, for the table's ``seats`` and the seats ``in_play`` (at least two, in seat order).

    When the rule leaves fewer than ``min_players`` (at least two) to deal in (players who owe blinds
    and must wait), every player in play is dealt in owing nothing, the big blind still moving on.
    """
    _check(seats, in_play, last, new_player, min_players)
    n = len(seats)
    _, last_small, last_big = last

    def dist(a: int, b: int) -> int:  # seats clockwise from a to b
        return (b - a) % n

    big = next((s for s in in_play if s > last_big), in_play[0])
    small = last_big
    button = last_small if 0 < dist(big, last_small) < dist(big, small) else (small - 1) % n
    zone = dist(button, big)  # the button, the small blind and the seats between: no one comes in there
    dealt = []
    for s in in_play:
        p = seats[s]
        assert p is not None
        owes = p.owes
        if s == big:
            dealt.append(s)
        elif dist(button, s) < zone:
            if s in (button, small) and not owes:
                dealt.append(s)
        elif not owes or new_player == "post":
            dealt.append(s)
    missed = []
    passed = dist(last_big, big)
    for p in seats:
        if p is None or p.seat in in_play or p.leaving:
            continue
        if 0 < dist(last_big, p.seat) < passed and p.owes in ("", "small"):
            missed.append((p.seat, "both"))
        elif p.seat == small and p.owes == "":
            missed.append((p.seat, "small"))
    if len(dealt) < max(2, min_players):
        dealt = list(in_play)
        posts = False
    else:
        posts = True
    if len(dealt) == 2:  # heads-up: the button posts the small blind
        other = dealt[0] if dealt[1] == big else dealt[1]
        return Placement(other, other, big, tuple(dealt), (other, other, big), tuple(missed), posts=False)
    if not posts:  # everyone in: the two players in play before the big blind take the button and small blind
        i = dealt.index(big)
        small, button = dealt[i - 1], dealt[i - 2]
    return Placement(button, small if small in dealt else None, big, tuple(dealt), (button, small, big),
                     tuple(missed), posts)


def _check(seats: object, in_play: object, last: object, new_player: object, min_players: object) -> None:
    """Refuse what :func:`place_blinds` cannot place, naming it, before anything is read."""
    if not isinstance(seats, Sequence) or isinstance(seats, str | bytes) or not 2 <= len(seats) <= MAX_SEATS:
        raise TableError(f"seats are the table's seats (a list of 2 to {MAX_SEATS:,} players or None), "
                         f"not {excerpt(seats)}.")
    for p in seats:
        if p is not None:
            check_instance(p, Player, "each seat's Player (or None)", TableError)
    if not isinstance(in_play, Sequence) or isinstance(in_play, str | bytes) or not 2 <= len(in_play) <= len(seats):
        raise TableError(f"in_play lists at least two seats in play, not {excerpt(in_play)}.")
    previous = -1
    for s in in_play:
        seat = check_int(s, "a seat in play", TableError, minimum=previous + 1, maximum=len(seats) - 1)
        if seats[seat] is None:
            raise TableError(f"Seat {seat} is in play but empty.")
        previous = seat
    if not isinstance(last, tuple) or len(last) != 3:
        raise TableError(f"last is the last hand's (button, small blind, big blind) seats, not {excerpt(last)}.")
    for s in last:
        check_int(s, "a seat of the last hand", TableError, minimum=0, maximum=len(seats) - 1)
    if new_player not in NEW_PLAYER:
        raise ConfigError(f"new_player must be one of {', '.join(NEW_PLAYER)}, not {excerpt(new_player)}.")
    check_int(min_players, "min_players", ConfigError, minimum=2)
