"""Helpers for tests: hand-built contexts for stage tests."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from cardgame.model.cards import parse_cards
from cardgame.model.context import Context
from cardgame.model.deck import Deck
from cardgame.model.table import Table
from cardgame.stages.results import HandOpened


def make_context(
    stacks: Sequence[int], *, button: int | None = None, deck: str | None = None, seed: int = 1
) -> Context:
    """A table with one player per stack (seats 0..n-1, names p0..), and a hand opened on it.

    ``button`` is the button seat (default the last seat, so seat 0 is left of it);
    ``deck`` lists the top cards in dealing order, e.g. ``"AhKh QsQd"``.
    """
    n = len(stacks)
    table = Table(max(n, 2), first_button=n - 1 if button is None else button)
    for i, s in enumerate(stacks):
        table.sit_down(f"p{i}", s, i)
    ctx = Context(table, seed=seed)
    cards = Deck.stacked(parse_cards(deck)) if deck else None
    if cards is not None:
        rest = [c for c in ctx.deck_spec.cards if c not in set(cards.remaining)]
        cards = Deck.stacked([*cards.remaining, *rest])
    ctx.open_hand(table.in_play(), cards)
    return ctx


def opened(ctx: Context) -> HandOpened:
    """The result a wait-for-players stage would hand on for the hand open in ``ctx``, built by hand."""
    hand = ctx.hand
    assert hand is not None
    return HandOpened(hand.number, hand.button, tuple(hp.seat for hp in hand.players))


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (a benchmark, say) imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def failing_hook(game: Any) -> list[bool]:
    """Hook ``game`` (a :class:`~cardgame.play.game.Game`) with a hook that raises once while
    ``armed[0]`` is set (the game fails inside the change, a stage cut short); returns ``armed``."""
    armed = [False]

    def boom(event: object) -> None:
        if armed[0]:
            armed[0] = False
            raise RuntimeError("a hook failed")

    game.hook(boom)
    return armed
