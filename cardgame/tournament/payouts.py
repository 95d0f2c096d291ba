"""Payout tables: what each finishing place pays, as a fixed list of amounts or as percentages of the
prize pool by number of entrants, rounded to whole money units.

Percentages are exact (``Fraction``; given as ints, finite floats read as written, ``Fraction`` or
decimal strings such as ``"27.5"``). A table is valid when it pays at least one place, every
percentage is above 0, they add up to exactly 100, no place pays more than the place above it, and
it pays no more places than there are entrants.

Rounding (:func:`payouts`): each place gets its percentage of the pool rounded **down** to a whole
``unit`` (1 for cents or chips; 100 to pay whole dollars of a pool in cents); what is left over, less
than one unit per place, goes by ``remainder``: ``"first"`` (the default, as rooms that round down
and pay the winner the rest), or ``"largest"`` (one unit each to the places whose amounts lost the
most by rounding, the higher place first on a tie: Hamilton's largest remainder). Either way the
amounts add up to the prize pool and never rise from one place to the next.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction

from cardgame.model.inputs import MAX_NUMBER, check_int, excerpt
from cardgame.tournament._checks import MAX_ENTRIES, check_choice, check_ints, check_list
from cardgame.tournament.errors import TournamentError

__all__ = ["MTT_SHARE_PAID", "REMAINDER_RULES", "SIT_AND_GO", "check_payouts", "check_percentages",
           "default_percentages", "payouts", "payouts_for"]

#: The sit-and-go tables by entrants: up to 3 the winner takes all; 4 to 6 pay 65/35; 7 to 10 pay 50/30/20.
SIT_AND_GO: tuple[tuple[int, tuple[int, ...]], ...] = ((3, (100,)), (6, (65, 35)), (10, (50, 30, 20)))

#: The share of a field above 10 entrants that :func:`default_percentages` pays (about 15 %, rounded up).
MTT_SHARE_PAID = Fraction(15, 100)

REMAINDER_RULES = ("first", "largest")

_DECIMAL = re.compile(r"[0-9]{1,3}(\.[0-9]{1,6})?")


def _percent(value: object, place: int) -> Fraction:
    what = f"percentage of place {place}"
    if isinstance(value, Fraction):
        number = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise TournamentError(f"The {what} must be a finite number, not {excerpt(value)}.")
        number = Fraction(repr(value))  # as written: 27.3 is 273/10
    elif isinstance(value, str):
        if _DECIMAL.fullmatch(value) is None:
            raise TournamentError(f"The {what} must be a decimal number such as 27.5 (ASCII digits, at most 6 "
                                  f"decimals), not {excerpt(value)}.")
        number = Fraction(value)
    else:
        number = Fraction(check_int(value, what, TournamentError, minimum=0, maximum=100))
    if not 0 < number <= 100:
        raise TournamentError(f"The {what} must be above 0 and at most 100, not {excerpt(value)}.")
    if number.denominator > 10**6:
        raise TournamentError(f"The {what} may have at most 6 decimals, not {excerpt(value)}.")
    return number


def check_percentages(percentages: object, entrants: int | None = None) -> tuple[Fraction, ...]:
    """``percentages`` (place 1 first) as exact fractions, if they make a valid table: each above 0, adding
    up to exactly 100, none above the one before, and (given ``entrants``) no more places than entrants."""
    items = check_list(percentages, "payout percentages", max_length=MAX_ENTRIES)
    table = tuple(_percent(v, i + 1) for i, v in enumerate(items))
    for place in range(1, len(table)):
        if table[place] > table[place - 1]:
            raise TournamentError(f"Place {place + 1} pays {float(table[place]):g} %, more than place {place}'s "
                                  f"{float(table[place - 1]):g} %; a payout table never rises.")
    total = sum(table)
    if total != 100:
        raise TournamentError(f"The payout percentages add up to {float(total):g} %, not 100 %.")
    if entrants is not None:
        field = check_int(entrants, "number of entrants", TournamentError, minimum=1, maximum=MAX_ENTRIES)
        if len(table) > field:
            raise TournamentError(f"The table pays {len(table):,} places but there are {field:,} entrants.")
    return table


def check_payouts(amounts: object, entrants: int | None = None) -> tuple[int, ...]:
    """``amounts`` (a fixed payout list, place 1 first, whole money units) if valid: at least one, each
    at least 0 and none above the one before, the first above 0, and (given ``entrants``) no more
    places than entrants."""
    table = check_ints(amounts, "payouts")
    for place in range(1, len(table)):
        if table[place] > table[place - 1]:
            raise TournamentError(f"Place {place + 1} pays {table[place]:,}, more than place {place}'s "
                                  f"{table[place - 1]:,}; a payout table never rises.")
    if table[0] == 0:
        raise TournamentError("The payouts must pay something: first place pays 0.")
    if entrants is not None:
        field = check_int(entrants, "number of entrants", TournamentError, minimum=1, maximum=MAX_ENTRIES)
        if len(table) > field:
            raise TournamentError(f"The table pays {len(table):,} places but there are {field:,} entrants.")
    return table


def default_percentages(entrants: int) -> tuple[Fraction, ...]:
    """The default table for ``entrants``: the sit-and-go tables of :data:`SIT_AND_GO` up to 10; above, a
    tournament table paying :data:`MTT_SHARE_PAID` of the field (rounded up), place ``k`` in proportion
    to ``1/k`` (the winner about 30 % of a 100-player pool, the last paid about 2 buy-ins), in millionths
    of a percent by the largest remainder (a sensible default, not any room's published table)."""
    field = check_int(entrants, "number of entrants", TournamentError, minimum=1, maximum=MAX_ENTRIES)
    for most, table in SIT_AND_GO:
        if field <= most:
            return tuple(Fraction(p) for p in table)
    paid = math.ceil(field * MTT_SHARE_PAID)
    millionths = _split(100 * 10**6, [Fraction(10**12 // k) for k in range(1, paid + 1)], 1, "largest")
    return tuple(Fraction(h, 10**6) for h in millionths)


def _split(pool: int, weights: Sequence[Fraction], unit: int, remainder: str) -> tuple[int, ...]:
    """``pool`` split in proportion to ``weights`` in whole ``unit`` s, rounded down, the rest by ``remainder``."""
    total = sum(weights)
    exact = [pool * w / total for w in weights]
    amounts = [math.floor(e / unit) * unit for e in exact]
    left = pool - sum(amounts)
    if remainder == "first":
        amounts[0] += left
    else:
        order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - amounts[i]), i))
        for i in order[: left // unit]:
            amounts[i] += unit
        amounts[0] += left % unit  # a pool that is no whole number of units: the part of a unit to the winner
    return tuple(amounts)


def payouts(prize_pool: int, percentages: object, *, unit: int = 1, remainder: str = "first") -> tuple[int, ...]:
    """``prize_pool`` (whole money units) split by ``percentages`` (place 1 first, see
    :func:`check_percentages`), each place rounded down to a whole ``unit``, the rest by ``remainder``
    (``"first"``: to the winner; ``"largest"``: a unit each to the largest rounding losses)."""
    pool = check_int(prize_pool, "prize pool", TournamentError, minimum=0, maximum=MAX_NUMBER)
    table = check_percentages(percentages)
    step = check_int(unit, "rounding unit", TournamentError, minimum=1, maximum=MAX_NUMBER)
    rule = check_choice(remainder, "remainder rule", REMAINDER_RULES)
    return _split(pool, table, step, rule)


def payouts_for(entrants: int, prize_pool: int, *, percentages: object = None, unit: int = 1,
                remainder: str = "first") -> tuple[int, ...]:
    """The amounts each place pays when ``entrants`` play for ``prize_pool``: by ``percentages`` (default
    :func:`default_percentages`), which may pay no more places than there are entrants."""
    field = check_int(entrants, "number of entrants", TournamentError, minimum=1, maximum=MAX_ENTRIES)
    table = default_percentages(field) if percentages is None else check_percentages(percentages, field)
    return payouts(prize_pool, list(table), unit=unit, remainder=remainder)
