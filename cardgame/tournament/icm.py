"""ICM payout equity: what a tournament stack is worth in money (the Malmuth-Harville model).

The Independent Chip Model (Harville 1973 for horse races, Malmuth 1987 for poker) takes each player's
chance of finishing first to be their share of the chips; given who finished above, a player's chance
of the next place is their share of the chips left among those not yet placed. A player's equity is
the sum over places of the chance of that place times its payout.

Stacks are whole chips; payouts are whole money units (cents, or chips of a prize pool), place 1
first. Equity comes back as ``float`` money units (and as a share of the prize pool): exact to
within float rounding (about 1e-12 relative) by the exact method, within its standard error by the
Monte Carlo one. A player with no chips is out already: players without chips take the last places
and share those places' payouts equally (as players busted in one hand with equal stacks do, see
:mod:`cardgame.tournament.places`).

Cost. The exact method walks every set of players that can hold the top places: with ``m`` players
holding chips and ``P`` places paid, ``sum(C(m, k) * (m - k) for k < P)`` steps, about ``m * 2**(m-1)``
when every place is paid (5,120 for 10 players, 524,288 for 16), far fewer when few places are
(20 players paying 3: 3,820). It runs when that is at most :data:`EXACT_STEPS` (one million); above
it, :func:`icm` samples finishing orders (Monte Carlo, seeded), each order drawn at once as an
exponential race: player ``i`` finishes at time ``E_i / x_i`` (``E_i`` exponential), the first to
finish taking first place, which is exactly the Malmuth-Harville order.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from math import comb

import numpy as np

from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.model.rng import check_seed
from cardgame.tournament._checks import check_choice, check_ints, check_list
from cardgame.tournament.errors import TournamentError

__all__ = ["DEFAULT_SAMPLES", "EXACT_STEPS", "MAX_PLAYERS", "MAX_SAMPLE_WORK", "Icm", "exact_steps", "icm", "icm_table"]

#: The most steps the exact method takes (see the module's note on cost); above it, Monte Carlo.
EXACT_STEPS = 1_000_000

#: The most players an ICM call takes.
MAX_PLAYERS = 10_000

#: The most samples times players with chips a Monte Carlo run may draw (a few seconds of numpy).
MAX_SAMPLE_WORK = 20_000_000

#: The Monte Carlo samples drawn when none are asked for (fewer when players are many).
DEFAULT_SAMPLES = 200_000

#: Rows of exponential draws made at once (times the players): bounds the memory a run holds.
_CHUNK = 2_000_000

METHODS = ("auto", "exact", "monte carlo")


@dataclass(frozen=True)
class Icm:
    """The ICM equity of each player, in the order the stacks were given.

    ``equity`` is in the payouts' money units (floats), ``share`` the fraction of the prize pool (the
    payouts' sum), ``standard_error`` each equity's Monte Carlo standard error (0.0 when exact, and
    when every sample paid the player the same: a place of chance below about 1/samples may never be
    drawn); ``method`` is ``"exact"`` or ``"monte carlo"``, with its ``samples`` and ``seed`` (0 and ``None``
    when exact).
    """

    stacks: tuple[int, ...]
    payouts: tuple[int, ...]
    equity: tuple[float, ...]
    share: tuple[float, ...]
    standard_error: tuple[float, ...]
    method: str
    samples: int = 0
    seed: int | None = None

    def __post_init__(self) -> None:
        chips = check_ints(self.stacks, "Icm stacks", max_length=MAX_PLAYERS)
        check_ints(self.payouts, "Icm payouts", max_length=MAX_PLAYERS)
        for what in ("equity", "share", "standard_error"):
            values = check_list(getattr(self, what), f"Icm {what}", max_length=MAX_PLAYERS)
            if len(values) != len(chips) or not all(type(v) is float and math.isfinite(v) for v in values):
                raise TournamentError(f"The Icm {what} must be one finite float per stack, not {excerpt(values)}.")
        check_choice(self.method, "ICM method", METHODS[1:])
        check_int(self.samples, "number of samples", TournamentError, minimum=0, maximum=MAX_SAMPLE_WORK)
        if self.seed is not None:
            check_seed(self.seed, TournamentError, "ICM seed")

    @property
    def prize_pool(self) -> int:
        """The money the places pay in all."""
        return sum(self.payouts)


def exact_steps(players_with_chips: int, places_paid: int) -> int:
    """The steps the exact method takes for ``players_with_chips`` players and ``places_paid`` places
    (at most the players): ``sum(C(m, k) * (m - k) for k < P)``, counted up to just past
    :data:`EXACT_STEPS`."""
    m = check_int(players_with_chips, "number of players with chips", TournamentError, minimum=1,
                  maximum=MAX_PLAYERS)
    p = check_int(places_paid, "number of places paid", TournamentError, minimum=1, maximum=m)
    steps = 0
    for k in range(p):
        steps += comb(m, k) * (m - k)
        if steps > EXACT_STEPS:
            break
    return steps


def _exact(stacks: list[int], payouts: tuple[int, ...]) -> list[float]:
    """Each player's equity by the Malmuth-Harville model, every player with chips: the chance of
    each set of players taking the top places, level by level (``placed`` -> its chance)."""
    m, total = len(stacks), sum(stacks)
    equity = [0.0] * m
    level: dict[int, float] = {0: 1.0}
    chips_placed: dict[int, int] = {0: 0}
    for place, prize in enumerate(payouts):
        following: dict[int, float] = {}
        following_chips: dict[int, int] = {}
        for placed, chance in level.items():
            left = total - chips_placed[placed]
            for j in range(m):
                if placed >> j & 1:
                    continue
                p = chance * stacks[j] / left
                equity[j] += p * prize
                if place + 1 < len(payouts):
                    key = placed | 1 << j
                    following[key] = following.get(key, 0.0) + p
                    following_chips[key] = chips_placed[placed] + stacks[j]
        level, chips_placed = following, following_chips
    return equity


def _sampled(stacks: list[int], payouts: tuple[int, ...], samples: int, seed: int) -> tuple[list[float], list[float]]:
    """Each player's equity and its standard error from ``samples`` finishing orders drawn as
    exponential races (numpy's PCG64 seeded with ``seed``)."""
    m, paid = len(stacks), len(payouts)
    rng = np.random.Generator(np.random.PCG64(seed))
    weights = np.asarray(stacks, dtype=np.float64)
    prizes = np.asarray(payouts, dtype=np.float64)
    sums = np.zeros(m)
    squares = np.zeros(m)
    rows = max(1, _CHUNK // m)
    done = 0
    while done < samples:
        n = min(rows, samples - done)
        times = rng.standard_exponential((n, m)) / weights
        if paid < m:
            first = np.argpartition(times, paid - 1, axis=1)[:, :paid]
            order = np.take_along_axis(first, np.argsort(np.take_along_axis(times, first, axis=1), axis=1), axis=1)
        else:
            order = np.argsort(times, axis=1)
        won = np.broadcast_to(prizes, order.shape).ravel()  # what each place of each order pays
        sums += np.bincount(order.ravel(), weights=won, minlength=m)
        squares += np.bincount(order.ravel(), weights=won * won, minlength=m)
        done += n
    mean = sums / samples
    variance = np.maximum(squares / samples - mean**2, 0.0)
    error = np.sqrt(variance / (samples - 1))
    return [float(v) for v in mean], [float(v) for v in error]


def icm(stacks: object, payouts: object, *, method: str = "auto", samples: int | None = None,
        seed: int | None = None) -> Icm:
    """The ICM equity of each stack (whole chips, one per player, 0 for a player already out) under
    ``payouts`` (whole money units, place 1 first, at most one per player, not all 0).

    ``method``: ``"exact"`` (refused past :data:`EXACT_STEPS` steps), ``"monte carlo"`` (``samples``
    finishing orders, by default 200,000 or as many as :data:`MAX_SAMPLE_WORK` allows, drawn from
    ``seed``; without one, a 128-bit seed from the operating system, reported in the result), or
    ``"auto"``: exact when it can be, else Monte Carlo.
    """
    chips = check_ints(stacks, "stacks", max_length=MAX_PLAYERS)
    prizes = check_ints(payouts, "payouts", max_length=MAX_PLAYERS)
    how = check_choice(method, "ICM method", METHODS)
    count = None if samples is None else check_int(samples, "number of samples", TournamentError, minimum=100,
                                                   maximum=MAX_SAMPLE_WORK)
    if seed is not None:
        seed = check_seed(seed, TournamentError, "ICM seed")
    if len(prizes) > len(chips):
        raise TournamentError(f"The payouts pay {len(prizes):,} places but there are {len(chips):,} players: pass "
                              "the payouts of the places still to be played for.")
    if not any(prizes):
        raise TournamentError("The payouts must pay something: every place pays 0.")
    holders = [i for i, c in enumerate(chips) if c > 0]
    if not holders:
        raise TournamentError("At least one player must have chips: every stack is 0.")
    m = len(holders)
    paid = prizes[:m]
    while len(paid) > 1 and paid[-1] == 0:
        paid = paid[:-1]
    steps = exact_steps(m, len(paid))
    exact = how == "exact" or (how == "auto" and steps <= EXACT_STEPS)
    if how == "exact" and steps > EXACT_STEPS:
        raise TournamentError(f"Exact ICM for {m:,} players with chips paying {len(paid):,} places takes more than "
                              f"{EXACT_STEPS:,} steps; use method='monte carlo' (or 'auto').")
    if count is None:
        count = max(100, min(DEFAULT_SAMPLES, MAX_SAMPLE_WORK // m))
    if not exact and count * m > MAX_SAMPLE_WORK:
        raise TournamentError(f"{count:,} samples of {m:,} players is more than {MAX_SAMPLE_WORK:,} draws; ask for "
                              f"at most {MAX_SAMPLE_WORK // m:,} samples.")
    own = [chips[i] for i in holders]
    if exact:
        found, errors = _exact(own, paid), [0.0] * m
    else:
        if seed is None:
            seed = secrets.randbits(128)
        found, errors = _sampled(own, paid, count, seed)
    equity = [0.0] * len(chips)
    error = [0.0] * len(chips)
    for i, value, err in zip(holders, found, errors, strict=True):
        equity[i], error[i] = value, err
    out = [i for i, c in enumerate(chips) if c == 0]
    if out:  # the players out share the last places' payouts equally
        rest = sum(prizes[m:]) / len(out)
        for i in out:
            equity[i] = rest
    pool = sum(prizes)
    return Icm(chips, prizes, tuple(equity), tuple(e / pool for e in equity), tuple(error),
               "exact" if exact else "monte carlo", 0 if exact else count, None if exact else seed)


def _money(value: float) -> str:
    return f"{value:,.2f}" if math.isfinite(value) else str(value)


def icm_table(result: Icm, names: object = None) -> str:
    """``result`` as a text table for standings: each player's name (``names``, one per stack, default
    ``Player 1``...), chips, share of the chips, ICM equity and share of the prize pool (with the
    standard error when sampled), largest stack first."""
    if not isinstance(result, Icm):
        raise TournamentError(f"An Icm result (from icm()) is needed, not {excerpt(result)}.")
    n = len(result.stacks)
    if names is None:
        labels = [f"Player {i + 1}" for i in range(n)]
    else:
        given = check_list(names, "names", max_length=MAX_PLAYERS)
        if len(given) != n:
            raise TournamentError(f"Give one name per stack: {len(given):,} names for {n:,} stacks.")
        labels = [check_text(v, f"name {i + 1}", TournamentError, max_length=100) for i, v in enumerate(given)]
    total = sum(result.stacks) or 1
    sampled = result.method != "exact"
    header = ["player", "chips", "chips %", "equity", "equity %"] + (["± s.e."] if sampled else [])
    rows = [header]
    for i in sorted(range(n), key=lambda i: (-result.stacks[i], i)):
        row = [labels[i], f"{result.stacks[i]:,}", f"{100 * result.stacks[i] / total:.2f}", _money(result.equity[i]),
               f"{100 * result.share[i]:.2f}"]
        rows.append(row + ([_money(result.standard_error[i])] if sampled else []))
    widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if c == 0 else cell.rjust(w) for c, (cell, w) in enumerate(zip(r, widths,
                                                                                                    strict=True)))
             for r in rows]
    how = "exact" if not sampled else f"Monte Carlo, {result.samples:,} samples, seed {result.seed}"
    lines.append(f"prize pool {result.prize_pool:,} ({how})")
    return "\n".join(line.rstrip() for line in lines)

