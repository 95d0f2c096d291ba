"""A table's configuration: the variant and its parameters, seats, buy-ins, the clock, the bots.

:func:`read_config` turns the lobby's JSON (``POST /api/tables``) into a :class:`TableConfig`,
checking every field before anything is built; a bad one is a :class:`ConfigError` naming the
field and what is allowed. A config is plain data, saved with its table and read back when a
restarted server recovers the table.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Mapping
from typing import Any

import attrs

from cardgame.engine.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.model.rng import MAX_SEED, check_seed
from cardgame.play import bots as bot_names
from cardgame.store.serialize import SnapshotError, json_kind, structure, unstructure

__all__ = ["MAX_SEATS", "Limits", "TableConfig", "read_config", "variant_params"]

#: The most seats a table may have (the variants' largest ``max_players``).
MAX_SEATS = 10
_MAX_CHIPS = 10**12
_MAX_SECONDS = 3600.0


def _in_range(low: float, high: float, *, whole: bool = True) -> Any:
    """A validator: a number (``whole``: an ``int``; else an ``int`` or a ``float``) from ``low`` to ``high``."""
    kinds = (int,) if whole else (int, float)

    def check(inst: object, attribute: attrs.Attribute[Any], value: Any) -> None:
        if type(value) not in kinds or not low <= value <= high:
            raise ConfigError(f"{attribute.name} must be {low:g} to {high:g}, not {excerpt(value)}.")

    return check


@attrs.frozen
class TableConfig:
    """What a table is: ``variant`` (a name or PHH code, see ``variants.get``) built with ``params``;
    ``seats``; the buy-in range; ``action_time`` seconds a decision, then a ``time_bank`` of seconds
    each seat spends as it needs; after ``max_misses`` timeouts in a row the player is sat out;
    ``bots`` seats a bot by name (``cardgame.play.bots``) with ``bot_buy_in`` chips; ``bot_delay``
    seconds a bot waits before it acts (for people watching); bots sit out while no person is
    seated unless ``bots_alone``; after a hand, nobody's clock runs and no bot acts for ``hand_pause``
    seconds (the showdown stays in view); ``seed`` makes a practice table whose deals replay (the
    operator's only: ``None``, the default and the only value a client may give, shuffles every
    deck from the operating system's cryptographic source; no client is shown a table's seed, as
    whoever knows it knows the cards)."""

    variant: str
    params: dict[str, Any] = attrs.field(factory=dict)
    seats: int = attrs.field(default=6, validator=_in_range(2, MAX_SEATS))
    min_buy_in: int = attrs.field(default=40, validator=_in_range(1, _MAX_CHIPS))
    max_buy_in: int = attrs.field(default=200, validator=_in_range(1, _MAX_CHIPS))
    action_time: float = attrs.field(default=30.0, validator=_in_range(0.05, _MAX_SECONDS, whole=False))
    time_bank: float = attrs.field(default=60.0, validator=_in_range(0, _MAX_SECONDS, whole=False))
    max_misses: int = attrs.field(default=2, validator=_in_range(1, 100))
    bots: dict[int, str] = attrs.field(factory=dict)
    bot_buy_in: int | None = None
    bot_delay: float = attrs.field(default=0.0, validator=_in_range(0, 60, whole=False))
    bots_alone: bool = False
    hand_pause: float = attrs.field(default=0.0, validator=_in_range(0, 30, whole=False))
    seed: int | None = None
    name: str = ""

    def __attrs_post_init__(self) -> None:
        self._check_types()
        if self.min_buy_in > self.max_buy_in:
            raise ConfigError(f"min_buy_in ({self.min_buy_in}) must not be above max_buy_in ({self.max_buy_in}).")
        if len(self.name) > 60 or not self.name.isprintable():
            raise ConfigError(f"name must be at most 60 printable characters, not {excerpt(self.name)}.")
        for seat, bot in self.bots.items():
            if not 0 <= seat < self.seats:
                raise ConfigError(f"bots: seat {seat} is not a seat of this {self.seats}-seat table (0 to "
                                  f"{self.seats - 1}).")
            if bot.strip().lower() not in bot_names.available():
                raise ConfigError(f"bots: unknown bot {excerpt(bot)} in seat {seat}; the bots are "
                                  f"{', '.join(bot_names.available())}.")
        if self.bot_buy_in is not None and not self.min_buy_in <= self.bot_buy_in <= self.max_buy_in:
            raise ConfigError(f"bot_buy_in must be within the buy-in range {self.min_buy_in} to {self.max_buy_in}, "
                              f"not {excerpt(self.bot_buy_in)}.")
        for key, value in self.params.items():
            if type(value) not in (int, bool, str) or (type(value) is str and len(value) > 60):
                raise ConfigError(f"params: {excerpt(key)} must be a whole number, true/false or short text, "
                                  f"not {excerpt(value)}.")

    def _check_types(self) -> None:
        """:class:`ConfigError` naming the first field of a type it cannot have (a config built in Python)."""
        if not isinstance(self.variant, str):
            raise ConfigError(f"variant must be a variant's name or PHH code, not {excerpt(self.variant)}.")
        if not isinstance(self.params, dict) or not all(isinstance(k, str) for k in self.params):
            raise ConfigError(f"params must map parameter names to values, not {excerpt(self.params)}.")
        if not isinstance(self.bots, dict) or not all(type(k) is int and isinstance(v, str)
                                                      for k, v in self.bots.items()):
            raise ConfigError(f"bots must map seat numbers to bot names, not {excerpt(self.bots)}.")
        if self.bot_buy_in is not None and type(self.bot_buy_in) is not int:
            raise ConfigError(f"bot_buy_in must be a whole number of chips or null, not {excerpt(self.bot_buy_in)}.")
        if type(self.bots_alone) is not bool:
            raise ConfigError(f"bots_alone must be true or false, not {excerpt(self.bots_alone)}.")
        if self.seed is not None:
            check_seed(self.seed, minimum=-MAX_SEED)
        if not isinstance(self.name, str):
            raise ConfigError(f"name must be at most 60 printable characters, not {excerpt(self.name)}.")

    def variant_object(self) -> Any:
        """The registered variant this table plays (``variants.Variant``)."""
        import variants

        try:
            return variants.get(self.variant)
        except (ConfigError, KeyError, AttributeError):
            raise ConfigError(f"Unknown variant {excerpt(self.variant)}; the variants are "
                              f"{', '.join(v.code or v.name for v in variants.available())}.") from None

    def public_data(self) -> dict[str, Any]:
        """:meth:`to_data` without the seed, for the lobby."""
        data = self.to_data()
        del data["seed"]
        return data

    def to_data(self) -> dict[str, Any]:
        """The config as plain JSON data (seats of ``bots`` as text keys)."""
        data: dict[str, Any] = unstructure(self)
        data["bots"] = {str(k): v for k, v in self.bots.items()}
        return data


_TYPES: dict[str, Any] = typing.get_type_hints(TableConfig)
_FIELDS = set(_TYPES)


def read_config(data: Any) -> TableConfig:
    """The :class:`TableConfig` the lobby's JSON ``data`` describes, checked; the variant is built
    once with its parameters, so a bad parameter is refused here, not when the table starts."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"A table is described by a JSON object, not {excerpt(data)}.")
    extra = sorted(set(data) - _FIELDS)
    if extra:
        raise ConfigError(f"Unknown field {', '.join(map(excerpt, extra))}; the fields are "
                          f"{', '.join(sorted(_FIELDS))}.")
    fields = dict(data)
    bots = fields.get("bots", {})
    if isinstance(bots, Mapping):  # JSON's keys are text: "1" is seat 1
        fields["bots"] = {int(k) if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 3 else k: v
                          for k, v in bots.items()}
    for key in ("action_time", "time_bank", "bot_delay", "hand_pause"):
        if type(fields.get(key)) is int:
            fields[key] = float(fields[key])
    typed: dict[str, Any] = {}
    for key, value in fields.items():
        if key in ("params", "bots") and not isinstance(value, Mapping):
            raise ConfigError(f"Bad table description: {key} must be an object, not {json_kind(value)}.")
        try:
            typed[key] = structure(value, _TYPES[key], key)
        except SnapshotError as exc:
            raise ConfigError(f"Bad table description: {exc}") from None
    config = TableConfig(**typed)
    variant = config.variant_object()
    if config.seats > variant.max_players:
        raise ConfigError(f"seats must be 2 to {variant.max_players} for {variant.name}, not {config.seats}.")
    defaults = variant_params(variant)
    for key, value in config.params.items():
        default = defaults.get(key)
        if default is not None and type(default) in (int, bool) and type(value) is not type(default):
            kind = "true or false" if type(default) is bool else "a whole number"
            raise ConfigError(f"params: {key} of {variant.name} must be {kind}, not {excerpt(value)}.")
    try:
        variant.build(**config.params)
    except (TypeError, ValueError, ArithmeticError) as exc:  # a builder refusing a value in its own words
        raise ConfigError(f"Bad parameters for {variant.name}: {exc}") from None
    return config


def variant_params(variant: Any) -> dict[str, Any]:
    """The keyword arguments ``variant``'s builder takes, with their defaults (``None``: required)."""
    try:
        signature = inspect.signature(variant.builder)
    except (TypeError, ValueError):
        return {}
    return {name: (p.default if p.default is not inspect.Parameter.empty else None)
            for name, p in signature.parameters.items()}


def _positive(low: float, high: float) -> Any:
    """A validator: an ``int`` or ``float`` from ``low`` to ``high`` (seconds, messages a second)."""
    return _in_range(low, high, whole=False)


@attrs.frozen
class Limits:
    """What one server lets anonymous clients do; the defaults suit a public server. A table the
    operator opens (``cardgame serve --table``, :meth:`Server.create`) is bound by none of them.

    * ``max_tables`` tables in all, ``tables_per_client`` opened by one client address;
    * a client's table with nobody playing (seated and not sitting out) and nobody connected closes
      after ``idle_close`` seconds;
    * ``max_spectators`` connections watching one table (seated players always connect), and
      ``connections_per_client`` connections from one address to the whole server;
    * a connection whose unsent messages pass ``send_queue`` bytes, or that takes more than
      ``send_timeout`` seconds to take one, is dropped (it does not read);
    * ``rate`` messages a second (bursts of ``burst``) per connection, and ``client_rate``
      (``client_burst``) per client address over all its connections;
    * a client's table: ``action_time`` at least ``min_action_time`` and at most ``max_action_time``
      seconds, ``time_bank`` at most ``max_time_bank``, buy-ins at most ``max_buy_in`` chips, and at
      least one seat without a bot (bots-only tables are the operator's).
    """

    max_tables: int = attrs.field(default=200, validator=_in_range(1, 100_000))
    tables_per_client: int = attrs.field(default=3, validator=_in_range(1, 100_000))
    idle_close: float = attrs.field(default=1800.0, validator=_positive(1, 30 * 86400))
    max_spectators: int = attrs.field(default=50, validator=_in_range(0, 100_000))
    connections_per_client: int = attrs.field(default=32, validator=_in_range(1, 100_000))
    send_queue: int = attrs.field(default=1 << 20, validator=_in_range(4096, 1 << 30))
    send_timeout: float = attrs.field(default=10.0, validator=_positive(0.01, 3600))
    rate: float = attrs.field(default=20.0, validator=_positive(0.01, 100_000))
    burst: float = attrs.field(default=40.0, validator=_positive(1, 100_000))
    client_rate: float = attrs.field(default=40.0, validator=_positive(0.01, 100_000))
    client_burst: float = attrs.field(default=80.0, validator=_positive(1, 100_000))
    min_action_time: float = attrs.field(default=5.0, validator=_positive(0.05, _MAX_SECONDS))
    max_action_time: float = attrs.field(default=300.0, validator=_positive(0.05, _MAX_SECONDS))
    max_time_bank: float = attrs.field(default=600.0, validator=_positive(0, _MAX_SECONDS))
    max_buy_in: int = attrs.field(default=10**9, validator=_in_range(1, _MAX_CHIPS))

    def check(self, config: TableConfig) -> None:
        """:class:`ConfigError` if a client may not open ``config``: no seed (seeds are the operator's,
        as whoever knows a table's seed knows its cards), a seat for a person, settings in bounds."""
        if config.seed is not None:
            raise ConfigError("seed: a table opened from the lobby shuffles from the operating system's source; "
                              "seeds are for the operator's practice tables (cardgame serve --seed).")
        if config.bots_alone or len(config.bots) >= config.seats:
            raise ConfigError("bots: tables of bots alone are the operator's; leave a seat for a person and "
                              "bots_alone false.")
        if not self.min_action_time <= config.action_time <= self.max_action_time:
            raise ConfigError(f"action_time must be {self.min_action_time:g} to {self.max_action_time:g} seconds, "
                              f"not {config.action_time:g}.")
        if config.time_bank > self.max_time_bank:
            raise ConfigError(f"time_bank must be at most {self.max_time_bank:g} seconds, not {config.time_bank:g}.")
        if config.max_buy_in > self.max_buy_in:
            raise ConfigError(f"max_buy_in must be at most {self.max_buy_in:,} chips, not {config.max_buy_in:,}.")
        for key, value in config.params.items():
            if type(value) is int and not 0 <= value <= config.max_buy_in:
                raise ConfigError(f"params: {excerpt(key)} must be 0 to the largest buy-in ({config.max_buy_in:,}), "
                                  f"not {value:,}.")
