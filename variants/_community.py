"""Kept for imports written before the street builder was public: see :mod:`variants.streets`."""

from variants.streets import community_card_game

__all__ = ["community_card_game"]
