"""A game's random source: the deck's generator, and the separate streams derived for its bots.

A game built with a seed shuffles with a Mersenne Twister seeded with it, so the same seed (and
the same actions) deals the same cards again. A game built without one shuffles with the
operating system's cryptographic source (:class:`secrets.SystemRandom`): it has no seed and no
state, so it cannot be replayed and no snapshot can predict its cards.

Bots never draw from the deck's generator: a Mersenne Twister's state is rebuilt from 624 of its
outputs, and a bot that could read them would know the cards to come. Each bot seat draws from
a stream of its own (:meth:`RandomSource.stream`), a ``random.Random`` seeded with a BLAKE2b hash
of the game's seed and the stream's label: the same seed replays the bots' decisions too, and
what one stream reveals (even its whole state) tells nothing of the seed, the deck or another
stream. An unseeded game's streams are seeded from :mod:`secrets`.

A seed is for replay, not for secrecy: the derivation is public, so a bot that knows a run's seed
is one of few (a small chosen seed, say below a million) can try them all against its own stream
and then knows the cards. Runs given no seed (matches, the command line, the server's tables)
draw one of :data:`SEED_BITS` bits from the operating system (:func:`new_seed`), too many to try,
and report it, so the run can be replayed and still keeps its cards secret.
"""

from __future__ import annotations

import _random
import hashlib
import random
import secrets
from collections.abc import MutableSequence
from typing import Any, TypeVar

from cardgame.engine.copies import shallow_copy
from cardgame.model.errors import CardgameError, ConfigError, ReplayError
from cardgame.model.inputs import excerpt, whole_number

__all__ = ["MAX_SEED", "SEED_BITS", "RandomSource", "check_seed", "new_seed"]

T = TypeVar("T")

#: BLAKE2b personalisation of the streams' seeds (so they match no other use of the same hash).
_PERSON = b"cardgame-stream"

#: Bits of the seed a run given none draws (:func:`new_seed`); seeds are 0 to :data:`MAX_SEED`.
SEED_BITS = 128
MAX_SEED = 2**SEED_BITS - 1


def new_seed() -> int:
    """A seed of :data:`SEED_BITS` bits from the operating system's cryptographic source, for a run
    given none: reported, it replays the run; nobody can find it by trying seeds."""
    return secrets.randbits(SEED_BITS)


def check_seed(value: object, error: type[CardgameError] = ConfigError, what: str = "seed", *, minimum: int = 0) -> int:
    """``value`` as a seed: a whole number (never a bool) from ``minimum`` to :data:`MAX_SEED`, else
    ``error`` quoting an excerpt. Seeds run past :func:`~cardgame.model.inputs.check_int`'s 18 digits."""
    seed = whole_number(value)
    if seed is None or not minimum <= seed <= MAX_SEED:
        low = f"of at least {minimum:,} and" if minimum >= 0 else "of magnitude"
        raise error(f"The {what} must be a whole number {low} below 2**{SEED_BITS}, not {excerpt(value)}.")
    return seed


class RandomSource:
    """The deck's generator: ``RandomSource(seed)`` a Mersenne Twister (replayable),
    ``RandomSource()`` the operating system's cryptographic source (``seed`` is ``None``).

    Replaying a seeded game with the same seed (and the same actions) reproduces every card dealt
    and, through :meth:`stream`, every bot's draw.
    """

    __slots__ = ("_random", "_streams", "seed")

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and not (type(seed) is int and -MAX_SEED <= seed <= MAX_SEED):  # (the common case at once)
            seed = check_seed(seed, minimum=-MAX_SEED)
        self.seed: int | None = seed
        self._random: random.Random = _twister(seed) if seed is not None else secrets.SystemRandom()
        self._streams: dict[str, random.Random] = {}

    @property
    def seeded(self) -> bool:
        """Whether the game can be replayed (built with a seed)."""
        return self.seed is not None

    @property
    def generator(self) -> random.Random:
        """The deck's generator (for hot loops that bind its methods); never hand it to a bot."""
        return self._random

    def derive(self, label: str) -> random.Random:
        """A new generator of its own for ``label``: seeded with BLAKE2b(seed, label) (the same
        seed and label give the same numbers), or from :mod:`secrets` for an unseeded source."""
        if self.seed is None:
            return random.Random(secrets.randbits(256))
        key = f"{self.seed}\x00{label}".encode()
        return _twister(int.from_bytes(hashlib.blake2b(key, digest_size=32, person=_PERSON).digest(), "big"))

    def stream(self, label: str) -> random.Random:
        """The stream called ``label`` (e.g. a bot seat's): :meth:`derive` the first time, then the
        same generator, so it goes on across hands and calls (snapshots save it)."""
        gen = self._streams.get(label)
        if gen is None:
            gen = self._streams[label] = self.derive(label)
        return gen

    @property
    def streams(self) -> dict[str, random.Random]:
        """The streams handed out so far, by label (a copy)."""
        return dict(self._streams)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates through the deck's generator)."""
        self._random.shuffle(items)

    def randrange(self, stop: int) -> int:
        return self._random.randrange(stop)

    def random(self) -> float:
        return self._random.random()

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self._random.randrange(len(items))]

    def copy(self) -> RandomSource:
        """A source in the same state, that goes on independently: the deck's generator and every
        stream handed out so far copied (a Mersenne Twister's 2.5 KB of state, about 8 µs each); an
        unseeded source shares the operating system's, which has no state."""
        new = shallow_copy(self)
        if self.seed is not None:
            new._random = _twin(self._random)
        new._streams = {label: _twin(gen) for label, gen in self._streams.items()}
        return new

    def getstate(self) -> tuple[Any, ...]:
        """The deck generator's state, for snapshots; :class:`ReplayError` for an unseeded source,
        which has none."""
        self._require_seed()
        return self._random.getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Put the deck's generator in ``state`` (of :meth:`getstate`); :class:`ReplayError` for an
        unseeded source."""
        self._require_seed()
        self._random.setstate(state)

    def _require_seed(self) -> None:
        if self.seed is None:
            raise ReplayError("This game was built without a seed: it shuffles with the operating system's "
                              "cryptographic source, which has no state to save or replay. Build it with seed=... "
                              "to replay it.")

    def __repr__(self) -> str:
        return f"RandomSource(seed={self.seed})" if self.seed is not None else "RandomSource(unseeded)"


def _twister(seed: int) -> random.Random:
    """``random.Random(seed)`` for a whole-number ``seed``: the same generator, made without the Python
    layers of ``Random.__init__`` and ``Random.seed`` (which hand an int on to the C seeding as it is),
    about half a microsecond less. A learning environment makes one or two for every episode."""
    gen = random.Random.__new__(random.Random)
    _random.Random.seed(gen, seed)
    gen.gauss_next = None  # type: ignore[attr-defined]  # (what Random.seed sets besides; typeshed omits it)
    return gen


def _twin(gen: random.Random) -> random.Random:
    """A generator of ``gen``'s class in ``gen``'s state (without seeding one from the system first)."""
    new = type(gen).__new__(type(gen))
    new.setstate(gen.getstate())
    return new
