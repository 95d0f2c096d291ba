"""JSON encoding of the library's values, shared by snapshots and the event store.

Conventions:

* Cards are text, ``"Ah"`` (never integers), so a saved game or log reads like a hand history.
* An attrs record (an event, a stage result such as ``HandOpened`` or ``BettingResult``) is a
  JSON object of its fields plus a ``"type"`` tag: the class name for the library's own records
  (``{"type": "HandStarted", "hand": 3, ...}``), ``"module:QualName"`` for any other attrs class.
  Decoding looks a tag up among registered classes and modules *already imported*; it never
  imports a module named by the data.
* Other values (a stage's runtime field, ``Done.result``) use :func:`encode_value`: JSON scalars
  and lists as they are, tuples as ``{"type": "tuple", "items": [...]}``, dicts as
  ``{"type": "dict", "items": [[key, value], ...]}``, a card as ``{"type": "card", "value": "Ah"}``.

* The game's own values have fixed encodings here too, used by snapshots and the event store
  alike: card lists (:func:`encode_cards`), players and tables, deck specifications, random generator
  states, stage outcomes, and JSON text itself (:func:`to_json`, :func:`to_compact_json`,
  :func:`from_json`). :class:`JsonObject` reads saved objects field by field with type checks.

One idea per module: :mod:`.converter` (the strict cattrs converter, plain data, cards),
:mod:`.registry` (record type tags), :mod:`.records` (tagged records and values), :mod:`.jsontext`
(JSON text and :class:`JsonObject`), :mod:`.values` (players, tables, decks, generators, outcomes).

Every malformed input raises :class:`SnapshotError` naming where it is (``log[12].cards[0]``).
"""

from cardgame.store.serialize.converter import (
    MAX_DEPTH,
    MAX_INT,
    SnapshotError,
    decode_cards,
    encode_cards,
    json_kind,
    structure,
    to_plain,
    to_tuples,
    unstructure,
)
from cardgame.store.serialize.jsontext import JsonObject, check_depth, from_json, to_compact_json, to_json
from cardgame.store.serialize.records import (
    decode_event,
    decode_record,
    decode_value,
    encode_event,
    encode_record,
    encode_value,
    encoded,
    encoded_json,
)
from cardgame.store.serialize.registry import register_type, type_tag
from cardgame.store.serialize.values import (
    decode_deck_spec,
    decode_failed,
    decode_outcome,
    decode_player,
    decode_rng,
    decode_table,
    encode_deck_spec,
    encode_failed,
    encode_outcome,
    encode_player,
    encode_rng,
    encode_table,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_INT",
    "JsonObject",
    "SnapshotError",
    "check_depth",
    "decode_cards",
    "decode_deck_spec",
    "decode_event",
    "decode_failed",
    "decode_outcome",
    "decode_player",
    "decode_record",
    "decode_rng",
    "decode_table",
    "decode_value",
    "encode_cards",
    "encode_deck_spec",
    "encode_event",
    "encode_failed",
    "encode_outcome",
    "encode_player",
    "encode_record",
    "encode_rng",
    "encode_table",
    "encode_value",
    "encoded",
    "encoded_json",
    "from_json",
    "json_kind",
    "register_type",
    "structure",
    "to_compact_json",
    "to_json",
    "to_plain",
    "to_tuples",
    "type_tag",
    "unstructure",
]
