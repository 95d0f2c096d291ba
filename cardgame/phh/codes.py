"""PHH variant codes and the fields each one requires (phh-std, "Required Fields").

Every variant needs ``variant``, ``antes``, ``starting_stacks`` and ``actions``; the rest of the
forced-bet and bet-size fields depend on the code. A forced-bet or bet-size field a variant does not
list must be absent: the spec forbids ``min_bet`` in fixed-limit games, ``small_bet``/``big_bet`` in
pot- and no-limit games, and ``bring_in`` together with ``blinds_or_straddles``.

>>> VARIANTS["NT"].required
('variant', 'antes', 'blinds_or_straddles', 'min_bet', 'starting_stacks', 'actions')
>>> required_fields("F7S")
('variant', 'antes', 'bring_in', 'small_bet', 'big_bet', 'starting_stacks', 'actions')
"""

from __future__ import annotations

from typing import Literal

import attrs

from cardgame.model.errors import HandHistoryError
from cardgame.model.inputs import excerpt

__all__ = [
    "BETTING_FIELDS",
    "VARIANTS",
    "VariantInfo",
    "forbidden_fields",
    "required_fields",
]

#: The forced-bet and bet-size fields whose presence depends on the variant.
BETTING_FIELDS: tuple[str, ...] = (
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
)


@attrs.frozen
class VariantInfo:
    """One row of the variant table.

    ``betting`` is the betting limit, ``dealing`` how cards reach the players (``"board"``: hole cards
    plus community cards; ``"stud"``: up/down cards, no board; ``"draw"``: hole cards and discards,
    no board), ``deck`` is ``"short"`` for short-deck (6 to A) games.
    """

    code: str
    name: str
    betting: Literal["fixed", "pot", "no"]
    dealing: Literal["board", "stud", "draw"]
    required: tuple[str, ...]
    deck: Literal["standard", "short"] = "standard"

    @property
    def forbidden(self) -> tuple[str, ...]:
        """Betting fields that must not appear for this variant."""
        return tuple(f for f in BETTING_FIELDS if f not in self.required)


def _req(*betting: str) -> tuple[str, ...]:
    return ("variant", *betting, "starting_stacks", "actions")


_BUTTON_FIXED = _req("antes", "blinds_or_straddles", "small_bet", "big_bet")
_BUTTON_UNFIXED = _req("antes", "blinds_or_straddles", "min_bet")
_STUD = _req("antes", "bring_in", "small_bet", "big_bet")

#: Variant code -> :class:`VariantInfo`, in the order of the spec's table.
VARIANTS: dict[str, VariantInfo] = {
    v.code: v
    for v in (
        VariantInfo("FT", "fixed-limit Texas hold'em", "fixed", "board", _BUTTON_FIXED),
        VariantInfo("NT", "no-limit Texas hold'em", "no", "board", _BUTTON_UNFIXED),
        VariantInfo("NS", "no-limit short-deck hold'em", "no", "board", _BUTTON_UNFIXED, "short"),
        VariantInfo("PO", "pot-limit Omaha hold'em", "pot", "board", _BUTTON_UNFIXED),
        VariantInfo("FO/8", "fixed-limit Omaha hold'em hi/lo eight or better", "fixed", "board", _BUTTON_FIXED),
        VariantInfo("F7S", "fixed-limit seven card stud", "fixed", "stud", _STUD),
        VariantInfo("F7S/8", "fixed-limit seven card stud hi/lo eight or better", "fixed", "stud", _STUD),
        VariantInfo("FR", "fixed-limit razz", "fixed", "stud", _STUD),
        VariantInfo("N2L1D", "no-limit deuce-to-seven lowball single draw", "no", "draw", _BUTTON_UNFIXED),
        VariantInfo("F2L3D", "fixed-limit deuce-to-seven lowball triple draw", "fixed", "draw", _BUTTON_FIXED),
        VariantInfo("FB", "fixed-limit badugi", "fixed", "draw", _BUTTON_FIXED),
    )
}


def _info(code: str) -> VariantInfo:
    info = VARIANTS.get(code) if isinstance(code, str) else None
    if info is None:
        raise HandHistoryError(f"Unknown PHH variant code {excerpt(code)}; the codes are {', '.join(VARIANTS)}.")
    return info


def required_fields(code: str) -> tuple[str, ...]:
    """The fields a hand of variant ``code`` must define; :class:`HandHistoryError` for an unknown code."""
    return _info(code).required


def forbidden_fields(code: str) -> tuple[str, ...]:
    """The betting fields a hand of variant ``code`` must not define; :class:`HandHistoryError` for an
    unknown code."""
    return _info(code).forbidden
