"""The betting state of one street, which the betting round owns (``BettingRound.street_state``).

:class:`Street` is what the betting structures (:mod:`cardgame.model.betting`) and the legal-action rules
(:mod:`cardgame.model.legal`) read: the bet to match, the minimum raise and the counts behind the cap and
the short all-in rules. The betting round seeds it from what the stage before it offers (the blinds,
a bring-in: :class:`~cardgame.stages.results.Opening`), changes it as players act and clears it
when the street ends; the structures compute and never write it. :class:`StreetRecord` is its
saved form (snapshots).
"""

from __future__ import annotations

import attrs

from cardgame.engine.copies import shallow_copy
from cardgame.engine.records import fast_init
from cardgame.model.hand import Hand, HandPlayer

__all__ = ["Street", "StreetRecord"]


class Street:
    """One street's betting. ``bet_to`` is the bet to match; ``min_raise`` the smallest raise
    increment; ``full_to`` the bet level of the street's last full bet or raise (a fixed-limit raise
    is to ``full_to`` plus one bet); ``raises`` the full bets and raises the cap counts (a blind
    counts as the bet); ``round_raises`` every bet, raise and completion made in the round and
    ``largest_raise`` the largest increment of one (forced bets are neither); ``short_all_ins`` the
    consecutive short all-in raises a fixed-limit structure under the full-bet rule has not yet seen
    add up to a raise; ``capped`` whether the raises reached the cap while three or more players
    could still bet; ``big_bet_option`` whether a stud open pair lets the first bet be a big bet and
    ``bet_size`` the fixed-limit bet size once a big bet was made on it (0: the street's own);
    ``to_act`` the player to act (``None``: nobody). ``hand`` is the hand it belongs to, and
    ``players`` its players (what the structures count)."""

    __slots__ = ("bet_size", "bet_to", "big_bet_option", "capped", "full_to", "hand", "largest_raise", "min_raise",
                 "players", "raises", "round_raises", "short_all_ins", "to_act")

    def __init__(self, hand: Hand, bet_to: int = 0, min_raise: int = 0, raises: int = 0) -> None:
        self.hand = hand
        self.players = hand.players
        self.bet_to = bet_to
        self.min_raise = min_raise
        self.full_to = bet_to
        self.raises = raises
        self.round_raises = 0
        self.largest_raise = 0
        self.short_all_ins = 0
        self.capped = False
        self.big_bet_option = False
        self.bet_size = 0
        self.to_act: HandPlayer | None = None

    def copy(self, hand: Hand) -> Street:
        """This street's betting in ``hand``, a copy of its hand (whose players hold the one to act)."""
        new = shallow_copy(self)
        new.hand = hand
        new.players = hand.players
        new.to_act = None if self.to_act is None else hand.by_seat[self.to_act.seat]
        return new

    def pot_total(self) -> int:
        """All chips committed to the hand (pot-limit sizes its raises by it)."""
        return self.hand.pot_total()

    def record(self) -> StreetRecord:
        """The saved form: every field, the player to act as a seat."""
        return StreetRecord(self.bet_to, self.min_raise, self.full_to, self.raises, self.round_raises,
                            self.largest_raise, self.short_all_ins, self.capped, self.big_bet_option, self.bet_size,
                            None if self.to_act is None else self.to_act.seat)

    @classmethod
    def from_record(cls, hand: Hand, rec: StreetRecord) -> Street:
        """The street ``rec`` saved, in ``hand`` (whose players hold the seat to act)."""
        st = cls(hand, rec.bet_to, rec.min_raise, rec.raises)
        st.full_to, st.round_raises, st.largest_raise = rec.full_to, rec.round_raises, rec.largest_raise
        st.short_all_ins, st.capped, st.big_bet_option, st.bet_size = (rec.short_all_ins, rec.capped,
                                                                        rec.big_bet_option, rec.bet_size)
        st.to_act = None if rec.to_act is None else hand.by_seat[rec.to_act]
        return st

    def __eq__(self, other: object) -> bool:
        """Streets are equal when their betting is (as their records are), whatever hand holds them."""
        return isinstance(other, Street) and self.record() == other.record()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        seat = None if self.to_act is None else self.to_act.seat
        return f"Street(bet_to={self.bet_to}, min_raise={self.min_raise}, raises={self.raises}, to_act={seat})"


@fast_init
@attrs.frozen
class StreetRecord:
    """A :class:`Street` saved: its fields, with the player to act as a seat (``None``: nobody)."""

    bet_to: int
    min_raise: int
    full_to: int
    raises: int
    round_raises: int
    largest_raise: int
    short_all_ins: int
    capped: bool
    big_bet_option: bool
    bet_size: int
    to_act: int | None
