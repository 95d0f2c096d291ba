"""The legal actions of the player to act: fold, check or call, and the raise-to range.

:class:`LegalActions` is what :meth:`~cardgame.play.game.Game.legal_actions` returns; the rules that
compute it (minimum raises, reopening after a short all-in, the cap, nobody left to call) are
described in :mod:`cardgame.model.betting`, whose structures :func:`compute` reads.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple, Protocol

from cardgame.model.hand import HandPlayer
from cardgame.model.street import Street

__all__ = ["LegalActions", "Sizing", "compute", "matchable"]


class Sizing(Protocol):
    """What :func:`compute` asks of a betting structure (a
    :class:`~cardgame.model.betting.BettingStructure`): how big a raise may be, and when it reopens."""

    _uncapped: ClassVar[bool]
    exact_sizes: ClassVar[bool]

    @property
    def raise_to_match(self) -> bool: ...

    def cap_reached(self, st: Street) -> bool: ...

    def is_full_raise(self, st: Street, increment: int, street: int) -> bool: ...

    def reopens(self, st: Street, acted_at: int, street: int) -> bool: ...

    def raise_bounds(self, st: Street, hp: HandPlayer, street: int) -> tuple[int, int]: ...


class LegalActions(NamedTuple):
    """What the player to act may do now. Raise-to amounts are the player's street total.

    Immutable (a named tuple: it is built on every decision, and a tuple builds about three
    times faster than a frozen attrs class); ``_replace`` gives a changed copy.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int  # chips a call puts in (0 when checking); capped at the stack
    can_raise: bool  # a bet when ``bet_to`` is 0, else a raise
    min_raise_to: int
    max_raise_to: int
    bet_to: int
    stack: int
    bring_in: int = 0  # stud: the bring-in this player may post instead of completing (0: none)
    amounts: tuple[int, ...] = ()  # when set, the only raise-to amounts allowed (stud open pair)

    @property
    def can_call(self) -> bool:
        return self.call_amount > 0

    @property
    def all_in_to(self) -> int:
        """The street total the player's whole stack makes the bet (while they can raise: their bet is
        ``bet_to`` less the call, which their stack covers)."""
        return self.bet_to - self.call_amount + self.stack

    def allows_raise_to(self, amount: object) -> bool:
        """Whether a bet or raise to ``amount`` (a whole number; anything else is not) is among these: the
        betting round's size rules (``at_least_the_minimum``, ``a_fixed_size``, ``at_most_the_maximum``)
        in one question, for menus and masks that list the sizes without asking the round for each."""
        if type(amount) is not int and (not isinstance(amount, int) or isinstance(amount, bool)):
            return False  # not a whole number of chips: no size
        if not self.can_raise or not self.min_raise_to <= amount <= self.max_raise_to:
            return False
        return not self.amounts or amount in self.amounts or amount == self.all_in_to

    @property
    def is_bet(self) -> bool:
        """The raise option is an opening bet."""
        return self.bet_to == 0

    def describe(self) -> str:
        """``"fold, call 4, raise to 8..100"``: the allowed actions, for error messages."""
        parts = []
        if self.bring_in:
            parts.append(f"bring in {self.bring_in}")
        if self.can_fold:
            parts.append("fold")
        if self.can_check:
            parts.append("check")
        if self.call_amount:
            parts.append(f"call {self.call_amount}")
        if self.can_raise:
            word = "bet" if self.is_bet else "raise to"
            if self.amounts:
                parts.append(f"{word} {' or '.join(map(str, self.amounts))}")
            elif self.min_raise_to == self.max_raise_to:
                parts.append(f"{word} {self.min_raise_to}")
            else:
                parts.append(f"{word} {self.min_raise_to} to {self.max_raise_to}")
        return ", ".join(parts)


#: Builds a ``LegalActions`` from all its fields at once, without the named tuple's generated
#: ``__new__`` (a Python function: a frame per decision).
_new = tuple.__new__


def compute(structure: Sizing, st: Street, hp: HandPlayer, street: int) -> LegalActions:
    """The legal actions of ``hp`` (who must be the player to act) under ``structure``.

    A raise needs chips beyond the bet, the cap not reached, the betting reopened to a player who
    already acted (only short all-ins since: closed), and an opponent who could call more than the
    bet. Each question is asked only when the ones before it allow a raise."""
    bet_to = st.bet_to
    bet = hp.bet
    stack = hp.player.stack
    owed = bet_to - bet
    most = bet + stack
    acted_at = hp.acted_at
    if most > bet_to and (structure._uncapped or not structure.cap_reached(st)) and (
            acted_at is None or structure.reopens(st, acted_at, street)):
        match = 0
        for other in st.players:  # what the largest opponent could match (``matchable``), stopping at ``most``
            if other is not hp and not other.folded and not other.all_in:
                total = other.bet + other.player.stack
                if total >= most:
                    match = most
                    break
                if total > match:
                    match = total
        if match > bet_to:  # else no opponent could call a raise: nobody left to call it
            lo, hi = structure.raise_bounds(st, hp, street)
            amounts: tuple[int, ...] = ()
            if structure.exact_sizes and lo != hi:  # fixed limit: exactly one of the two sizes
                amounts = tuple(sorted({min(lo, most), min(hi, most)}))
            if hi > most:
                hi = most
            if lo > most:
                lo = most
            if match < lo and structure.raise_to_match:  # nobody can call a full raise: raising to what they can match
                if structure.exact_sizes:
                    amounts = tuple(sorted({match, *(amounts or (lo, hi))}))
                lo = match
            # the stack covers more than the bet: a call is what is owed
            return _new(LegalActions, (hp.seat, owed > 0, owed <= 0, owed, True, lo, hi, bet_to, stack, 0, amounts))
    return _new(LegalActions, (hp.seat, owed > 0, owed <= 0, owed if owed < stack else stack, False, 0, 0, bet_to,
                               stack, 0, ()))


def matchable(st: Street, hp: HandPlayer) -> int:
    """The largest street total an opponent of ``hp`` still able to bet could match (0: none can)."""
    best = 0
    for other in st.players:
        if other is not hp and not other.folded and not other.all_in:
            total = other.bet + other.player.stack
            if total > best:
                best = total
    return best
