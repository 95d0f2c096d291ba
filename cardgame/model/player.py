"""A seated player: name, seat, stack, whether they sit out or are leaving, and the blinds they owe."""

from __future__ import annotations

from cardgame.engine.copies import shallow_copy

__all__ = ["Player"]


class Player:
    """A seated player. ``stack`` is the chips in front of them, not counting bets in a pot.

    ``owes`` is what the player must post to be dealt in under the dead-button rule
    (:mod:`cardgame.model.button`): ``"new"`` (never dealt in at this table: the big blind, live),
    ``"small"`` (a missed small blind, dead), ``"both"`` (a missed big blind: the big blind live and
    the small blind dead) or ``""`` (nothing).

    Mutable hot-path state (read on every decision): a plain slotted class, native in the
    compiled build. Compares by identity.
    """

    __slots__ = ("leaving", "name", "owes", "seat", "sitting_out", "stack")

    def __init__(self, name: str, seat: int, stack: int, sitting_out: bool = False, leaving: bool = False,
                 owes: str = "new") -> None:
        self.name = name
        self.seat = seat
        self.stack = stack
        self.sitting_out = sitting_out
        self.leaving = leaving
        self.owes = owes

    @property
    def in_play(self) -> bool:
        """Dealt into the next hand: has chips, not sitting out, not leaving."""
        return self.stack > 0 and not self.sitting_out and not self.leaving

    def copy(self) -> Player:
        """A player with the same name, seat, stack and flags (every field is immutable)."""
        return shallow_copy(self)

    def __repr__(self) -> str:
        return (f"Player(name={self.name!r}, seat={self.seat!r}, stack={self.stack!r}, "
                f"sitting_out={self.sitting_out!r}, leaving={self.leaving!r})")
