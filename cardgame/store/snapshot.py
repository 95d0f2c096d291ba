"""Save a running game to JSON at any point and restore it to continue exactly.

``snapshot(game)`` returns JSON-ready data (``dumps`` the text); ``restore(data, stages)`` (or
``loads``) rebuilds the game from a **fresh** stage list of the same variant, e.g.
``loads(text, no_limit_holdem(1, 2))``: a stage's configuration (blinds, evaluators...) comes from
code, its runtime state from the snapshot. The fresh list must have as many stages, of the same
classes in the same order and with the same settings, as the saved one.

What is saved (format version :data:`VERSION`):

* each stage by its index in the list: ``state`` (a final state gives the stage's outcome:
  :attr:`Stage.ends <cardgame.engine.Stage.ends>`; ``outcome`` is written as null for older
  readers, and a saved one is checked, not kept), ``previous`` (the result it started with), its
  parent if it runs as a sub-stage, and the attributes its class names in
  ``Stage[Context].snapshot_fields`` (a stage with runtime attributes of its own must declare them);
  and its settings (``setting_values``: :attr:`Stage.settings <cardgame.engine.Stage.settings>` as
  JSON data, :func:`stage_settings`),
  which restoring compares by value with the fresh list's, so a game is not continued under other
  rules (fixed-limit for no-limit, razz for stud, other blinds); a snapshot without them (an older
  file, whose ``settings`` were text) is restored without that check;
* the dispatcher: status, failure, current stage and remaining stack as indices;
* the context: the table and every seat, the hand in progress (players, cards, bets, deck and
  whether it deals lazily from the random source), the next deck, the random source's seed and
  full generator state (and its bot streams'), deck spec, hand counters, ``stop_requested`` and
  the event log. A game built without a seed deals from the operating system's source, which has
  no state: its snapshot saves none, and the restored game deals from the operating system too.

Cards are text (``"Ah"``); records carry a ``"type"`` tag (see :mod:`cardgame.store.serialize`).
A deck's undealt cards are listed bottom first: the deck deals from the end of the list.

Restoring checks the whole document before it changes anything, and refuses with
:class:`SnapshotError` (the stage list untouched): its structure, types and ranges (whole numbers of
at most 18 digits, no deeper than :data:`~cardgame.store.serialize.MAX_DEPTH` levels, text of at most
:data:`MAX_SIZE` characters), the cards (each once, all from the deck), the random generator's
state, the dispatcher's stack (what running the list leaves), and the chips: the stacks and the pot
must hold the total the snapshot states, the hand's players what its ``HandStarted`` event says
they started with, and the seats what the log's ledger gives (the last ``HandEnded``, then every
seat, top-up and leave).

Not saved: listeners and hooks (``game.subscribe`` and ``game.hook`` callbacks), which are code;
subscribe again after restoring. A sub-stage pushed by a ``Push`` outcome that is not in the variant's list cannot be
rebuilt from code, so snapshotting while one runs raises :class:`SnapshotError`. So does a
snapshot taken from inside a hook, where a stage is half-way through its work: take
snapshots between calls into the game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from types import BuiltinFunctionType, FunctionType
from typing import Any, cast

from cardgame.engine import Outcome, Settings, Stage
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.deck import Deck, DeckSpec
from cardgame.model.errors import CardgameError
from cardgame.model.events import ChipsAdded, Event, HandEnded, HandStarted, PlayerLeft, PlayerSeated
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import MAX_DIGITS, check_int, excerpt
from cardgame.model.rng import RandomSource
from cardgame.model.street import StreetRecord
from cardgame.model.table import Table
from cardgame.play.game import Game, VariantLike
from cardgame.store.serialize import (
    JsonObject,
    SnapshotError,
    check_depth,
    decode_cards,
    decode_deck_spec,
    decode_event,
    decode_failed,
    decode_outcome,
    decode_player,
    decode_rng,
    decode_table,
    decode_value,
    encode_cards,
    encode_deck_spec,
    encode_event,
    encode_failed,
    encode_player,
    encode_rng,
    encode_table,
    encode_value,
    from_json,
    json_kind,
    to_json,
)

__all__ = ["FORMAT", "MAX_SIZE", "VERSION", "SnapshotError", "dumps", "loads", "restore", "snapshot",
           "stage_settings"]

#: The ``format`` marker of a snapshot.
FORMAT = "cardgame-snapshot"
#: The snapshot format version this module writes and reads.
VERSION = 4  # 2: the hand's dead money, full bet level, cap and mucks; the chip total. 3: stage results.
#             4: the street's betting is the betting round's (its street_record), who draws the draw's

_STATUSES = ("new", "running", "exited", "failed")

# ============================================================================================
# saving
# ============================================================================================


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _setting_data(value: object, where: str) -> Any:
    """A setting's value as JSON data, equal for equal values: what :func:`encode_value` saves
    (numbers, text, tuples, records...); settings and frozensets as tagged lists; a function or class
    by its module and name; any other object by its class and its ``repr`` (a memory address left out,
    so the data is the same in every process)."""
    if isinstance(value, Settings):
        return {"type": "settings", "items": {k: _setting_data(v, f"{where}.{k}") for k, v in value.items()}}
    if type(value) is tuple:
        return {"type": "tuple", "items": [_setting_data(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if isinstance(value, frozenset):
        items = [_setting_data(v, f"{where} item") for v in value]
        return {"type": "frozenset", "items": sorted(items, key=_canonical)}
    try:
        data = encode_value(value, where)
        _canonical(data)  # a record holding a value JSON has not is saved by its repr
        return data
    except (SnapshotError, TypeError, ValueError):
        pass
    if isinstance(value, type | FunctionType | BuiltinFunctionType):
        return {"type": "code", "name": f"{value.__module__}.{value.__qualname__}"}
    cls = type(value)
    return {"type": "object", "class": f"{cls.__module__}.{cls.__qualname__}", "repr": _ADDRESS.sub("", repr(value))}


def _canonical(data: Any) -> str:
    """JSON data as one text, equal for equal data (keys sorted; ``true`` is not ``1``)."""
    return json.dumps(data, sort_keys=True)


def stage_settings(stage: Stage[Any]) -> dict[str, Any]:
    """``stage``'s settings (:attr:`Stage.settings <cardgame.engine.Stage.settings>`) as JSON data, one
    entry a setting: ``{"blinds": {"type": "tuple", "items": [1, 2]}, "street": 1...}``. Equal
    settings give equal data in every process; a snapshot saves it and restoring compares it."""
    if not isinstance(stage, Stage):
        raise SnapshotError(f"A stage's settings are those of a Stage, not {excerpt(stage)}.")
    try:
        settings = stage.settings
    except CardgameError as exc:
        raise SnapshotError(str(exc)) from None
    return {name: _setting_data(value, f"{type(stage).__name__}.{name}") for name, value in settings.items()}


def snapshot(game: Game) -> dict[str, Any]:
    """The whole game as JSON-ready data (dicts, lists, str, int, bool, None)."""
    if not isinstance(game, Game):
        raise SnapshotError(f"A snapshot is taken of a Game, not {excerpt(game)}.")
    d = game.dispatcher
    stages = d.stages
    index = {id(s): i for i, s in enumerate(stages)}

    def position(stage: Stage[Context], what: str) -> int:
        i = index.get(id(stage))
        if i is None:
            raise SnapshotError(
                f"The {what} {stage.name!r} ({type(stage).__name__}) was pushed by a Push outcome and is not in "
                "the variant's stage list, so it cannot be rebuilt on restore; snapshot after it finishes."
            )
        return i

    current = None if d.current is None else position(d.current, "running sub-stage")
    _check_between_calls(game)
    if d.current is not None and d.current.state in getattr(type(d.current), "unsaved_states", ()):
        raise SnapshotError(f"The {d.current.name} stage is waiting in state {d.current.state!r}, which a snapshot "
                            "does not save; snapshot once its decisions are made (the next hand).")
    saved_stages = []
    for i, s in enumerate(stages):
        fields: dict[str, Any] = {}
        for name in type(s).snapshot_fields:
            try:
                value = getattr(s, name)
            except AttributeError:
                raise SnapshotError(f"Stage {i} ({type(s).__name__}) has no attribute {name!r} "
                                    "listed in its snapshot_fields.") from None
            fields[name] = encode_value(value, f"stages[{i}].{name}")
        saved_stages.append({
            "class": type(s).__name__,
            "state": s.state,
            "started": s.ctx is not None,
            "outcome": None,  # read by older versions; a stage's state gives its outcome (Stage.ends)
            "previous": encode_value(s.previous, f"stages[{i}].previous"),
            "parent": None if s.parent is None else position(s.parent, "parent stage"),
            "fields": fields,
            "setting_values": stage_settings(s),
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "stages": saved_stages,
        "dispatcher": {
            "status": d.status,
            "current": current,
            "stack": [position(s, "stacked stage") for s in d.stack],
            "failure": None if d.failure is None else encode_failed(d.failure),
        },
        "context": _save_context(game.ctx),
        "chips": game.ctx.total_chips(),
    }


def dumps(game: Game, *, indent: int | None = None) -> str:
    """:func:`snapshot` as JSON text (``indent``: ``None`` for one line, else 0 to 16 spaces)."""
    if indent is not None:
        indent = check_int(indent, "indent of a snapshot", SnapshotError, minimum=0, maximum=16)
    return to_json(snapshot(game), indent=indent)


def _check_between_calls(game: Game) -> None:
    """Refuse a snapshot taken from inside the game (a hook), where a stage is half-way."""
    d = game.dispatcher
    cur = d.current
    if d.busy or (d.status == "running" and cur is not None and cur.ended):
        raise SnapshotError("snapshot() was called from inside the game (a hook), where a stage is half-way "
                            "through its work; take snapshots between calls into the game.")


def _save_deck(deck: Deck, ctx: Context) -> dict[str, Any]:
    rng = deck.rng
    return {
        "spec": encode_deck_spec(deck.spec),
        "cards_bottom_first": encode_cards(reversed(deck.remaining)),
        "dealt": deck.dealt,
        "rng": None if rng is None else "context" if rng is ctx.rng else encode_rng(rng),
    }


def _save_hand(hand: Hand, ctx: Context) -> dict[str, Any]:
    seats = ctx.table.seats
    players = []
    for hp in hand.players:
        seated = 0 <= hp.seat < len(seats) and seats[hp.seat] is hp.player
        players.append({
            "seat": hp.seat,
            "detached_player": None if seated else encode_player(hp.player),
            "hole": encode_cards(hp.hole),
            "face_up": list(hp.face_up),
            "bet": hp.bet,
            "contributed": hp.contributed,
            "folded": hp.folded,
            "all_in": hp.all_in,
            "acted_at": hp.acted_at,
        })
    return {
        "number": hand.number,
        "button": hand.button,
        "players": players,
        "deck": _save_deck(hand.deck, ctx),
        "board": encode_cards(hand.board),
        "runouts": [encode_cards(board) for board in hand.runouts],
        "discards": encode_cards(hand.discards),
        "street": hand.street,
        "rounds": hand.rounds,
        "dead": hand.dead,
        "mucked": sorted(hand.mucked),
        "killed": sorted(hand.killed),
        "last_aggressor": hand.last_aggressor,
        "first_to_act": hand.first_to_act,
        "bring_in": hand.bring_in,
    }


def _save_context(ctx: Context) -> dict[str, Any]:
    return {
        "table": encode_table(ctx.table),
        "hand": None if ctx.hand is None else _save_hand(ctx.hand, ctx),
        "next_deck": None if ctx.next_deck is None else _save_deck(ctx.next_deck, ctx),
        "rng": encode_rng(ctx.rng),
        "deck_spec": encode_deck_spec(ctx.deck_spec),
        "hands_played": ctx.hands_played,
        "max_hands": ctx.max_hands,
        "keep_hands": ctx.keep_hands,
        "stop_requested": ctx.stop_requested,
        "hand_starts": list(ctx.hand_starts),
        "log": [encode_event(e) for e in ctx.log],
        # where the button was before the hand in progress (a void puts it back: Context.void_hand)
        "button_before_hand": None if ctx.voidable is None or ctx.hand is None else ctx.voidable[0],
    }


# ============================================================================================
# restoring
# ============================================================================================


#: The most cards a saved hand may have dealt (a bound for hostile files; reshuffles deal cards twice).
_MAX_DEALT = 10_000


def _load_deck(o: JsonObject, ctx_rng: RandomSource) -> Deck:
    spec = decode_deck_spec(o.raw("spec"), o.path("spec"))
    cards = o.get_cards("cards_bottom_first")
    _check_cards(cards, spec, o.path("cards_bottom_first"))
    deck = Deck(spec, cards)
    # a draw game deals the reshuffled muck again, so a hand may deal more cards than the deck has
    deck.dealt = o.get_int("dealt", minimum=0, maximum=_MAX_DEALT)
    rng = o.raw("rng")
    if rng == "context":
        deck.rng = ctx_rng
    elif rng is not None:
        deck.rng = decode_rng(rng, o.path("rng"))
    return deck


def _check_cards(cards: Sequence[Card], spec: DeckSpec, where: str) -> None:
    """Every card of ``cards`` in the deck ``spec``, none twice."""
    outside = [c for c in cards if c not in spec.cards]
    if outside:
        raise SnapshotError(f"{where}: {outside[0]} is not in the deck ({spec.ranks} x {spec.suits}).")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise SnapshotError(f"{where}: the card {dup} appears twice.")


def _load_hand(o: JsonObject, table: Table, rng: RandomSource) -> Hand:
    players: list[HandPlayer] = []
    seated = {p.name: p for p in table.players()}
    for i, raw in enumerate(o.get_list("players")):
        po = JsonObject(raw, f"{o.path('players')}[{i}]")
        seat = po.get_int("seat", minimum=0, maximum=table.seat_count - 1)
        detached = po.opt_obj("detached_player")
        if detached is not None:
            player = decode_player(detached.data, detached.where)
            if player.seat != seat:
                raise SnapshotError(f"{po.path('detached_player')} sits in seat {player.seat}, not {seat}.")
            if player.name in seated:  # a copy of a seated player would hold their chips twice
                raise SnapshotError(f"{po.path('detached_player')}: {excerpt(player.name)} is seated at the table "
                                    f"(seat {seated[player.name].seat}); a detached player is one who has left.")
        else:
            found = table.seats[seat]
            if found is None:
                raise SnapshotError(f"{po.path('seat')}: seat {seat} is in the hand but empty at the table.")
            player = found
        hp = HandPlayer(player)
        hp.hole = po.get_cards("hole")
        face_up = po.get_list("face_up")
        if len(face_up) != len(hp.hole) or any(type(u) is not bool for u in face_up):
            raise SnapshotError(f"{po.path('face_up')} must be one true/false per hole card ({len(hp.hole)}).")
        hp.face_up = face_up
        hp.bet = po.get_int("bet", minimum=0)
        hp.contributed = po.get_int("contributed", minimum=0)
        hp.folded = po.get_bool("folded")
        hp.all_in = po.get_bool("all_in")
        hp.acted_at = po.opt_int("acted_at")
        players.append(hp)
    seats = [hp.seat for hp in players]
    if len(set(seats)) != len(seats):
        raise SnapshotError(f"{o.path('players')} lists a seat twice: {seats}.")
    if len(seats) < 2:
        raise SnapshotError(f"{o.path('players')}: a hand has at least two players, not {len(seats)}.")

    def seat_or_none(key: str) -> int | None:
        value = o.opt_int(key)
        if value is not None and value not in seats:
            raise SnapshotError(f"{o.path(key)}: seat {value} is not in the hand (seats {seats}).")
        return value

    hand = Hand(o.get_int("number", minimum=1), seat_or_none("button"), players, _load_deck(o.obj("deck"), rng))
    hand.board = o.get_cards("board")
    hand.runouts = tuple(tuple(decode_cards(raw, o.path(f"runouts[{i}]")))
                         for i, raw in enumerate(o.get_list("runouts")))
    hand.discards = o.get_cards("discards")
    hand.street = o.get_str("street")
    hand.rounds = o.get_int("rounds", minimum=0, maximum=10_000) if "rounds" in o.data else 0  # (older snapshots)
    hand.dead = o.get_int("dead", minimum=0)
    for key in ("mucked", "killed"):
        listed = o.get_int_list(key)
        if not set(listed) <= set(seats):
            raise SnapshotError(f"{o.path(key)} {listed} names a seat that is not in the hand (seats {seats}).")
    hand.mucked = frozenset(o.get_int_list("mucked"))
    hand.killed = frozenset(o.get_int_list("killed"))
    hand.last_aggressor = seat_or_none("last_aggressor")
    hand.first_to_act = seat_or_none("first_to_act") if "first_to_act" in o.data else None  # (older snapshots)
    hand.bring_in = seat_or_none("bring_in")
    for i, hp in enumerate(players):
        where = f"{o.path('players')}[{i}]"
        if hp.bet > hp.contributed:
            raise SnapshotError(f"{where}: bet {hp.bet} is more than the {hp.contributed} chips contributed this hand.")
        if hp.all_in and hp.player.stack:
            raise SnapshotError(f"{where}: all-in with {hp.player.stack} chips behind.")
    if not any(not hp.folded for hp in players):
        raise SnapshotError(f"{o.path('players')}: every player has folded; someone is always in a hand.")
    every = [c for hp in players for c in hp.hole] + hand.board + hand.discards + list(hand.deck.remaining)
    _check_cards(every, hand.deck.spec, f"{o.where} (the hole cards, board, discards and deck)")
    for i, board in enumerate(hand.runouts):
        _check_cards([c for hp in players for c in hp.hole] + list(board), hand.deck.spec, o.path(f"runouts[{i}]"))
    return hand


def _stage_list(given: object) -> Sequence[Stage[Context]]:
    """The stage list to restore onto: a list or tuple of stages as given, a variant built with its
    defaults (as ``Game`` takes it)."""
    if isinstance(given, list | tuple):
        return given
    if isinstance(given, VariantLike):
        return given.build()
    raise SnapshotError(f"A snapshot is restored onto a fresh stage list of its variant, or the variant itself "
                        f"(variants.get(...)), not {excerpt(given)}.")


def _check_fresh(stages: Sequence[Stage[Context]], saved: list[Any]) -> None:
    for i, s in enumerate(stages):
        if not isinstance(s, Stage):
            raise SnapshotError(f"stages[{i}] is {excerpt(s)}, not a Stage; pass a fresh stage list of the variant.")
        if s.ctx is not None or s.state != s.initial or s.parent is not None:
            raise SnapshotError(f"stages[{i}] ({type(s).__name__}) has already run; restore needs a fresh stage "
                                "list (call the variant function again).")
    if len(stages) != len(saved):
        raise SnapshotError(f"The snapshot has {len(saved)} stages but the stage list given has {len(stages)}; "
                            "restore with a fresh list from the same variant.")
    for i, (s, raw) in enumerate(zip(stages, saved, strict=True)):
        name = JsonObject(raw, f"stages[{i}]").get_str("class")
        if type(s).__name__ != name:
            got = [type(x).__name__ for x in stages]
            want = [_text(JsonObject(r, f"stages[{j}]").raw("class")) for j, r in enumerate(saved)]
            raise SnapshotError(f"Stage {i} is a {type(s).__name__} but the snapshot has a {_text(name)}; the "
                                f"snapshot's stages are {excerpt(want, 100)}, the list given has {excerpt(got, 100)}.")
    for i, (s, raw) in enumerate(zip(stages, saved, strict=True)):
        _check_settings(i, s, JsonObject(raw, f"stages[{i}]"))


def _check_settings(i: int, stage: Stage[Context], so: JsonObject) -> None:
    """The stage was saved with settings equal to the fresh one's (:func:`stage_settings`, compared as
    JSON data); a setting only one side has (code of another version) is not compared, nor a snapshot
    without settings (an older one)."""
    if "setting_values" not in so.data:
        return
    saved = so.obj("setting_values")
    fresh = stage_settings(stage)
    for key, value in saved.data.items():
        if key not in fresh:
            continue
        try:
            text = _canonical(value)
        except (TypeError, ValueError, RecursionError):
            raise SnapshotError(f"{saved.path(key)} must be JSON data (objects with text keys, whole numbers of at "
                                f"most {MAX_DIGITS} digits), not {excerpt(value)}.") from None
        if _canonical(fresh[key]) != text:
            raise SnapshotError(f"Stage {i} ({type(stage).__name__}) was saved with {_shown(key)} {_shown_data(value)} "
                                f"but the stage list given has {key} {_shown_data(fresh[key])}: restore with a stage "
                                "list of the same variant and parameters.")


def _shown_data(data: Any) -> str:
    """A saved setting for a message: the value it stands for (a function or class by its name, an
    object by its saved ``repr``), shortened."""
    if isinstance(data, Mapping) and data.get("type") == "code":
        return _shown(str(data.get("name")))
    if isinstance(data, Mapping) and data.get("type") == "object":
        return _shown(str(data.get("repr")))
    if isinstance(data, Mapping) and data.get("type") in ("settings", "frozenset"):
        return excerpt(data)
    try:
        return _shown(repr(decode_value(data, "setting")))
    except SnapshotError:
        return excerpt(data)


def _shown(setting: str) -> str:
    """A setting's text for a message: as it is when short and printable, else an excerpt."""
    return setting if len(setting) <= 80 and setting.isprintable() else excerpt(setting)


def _text(value: Any) -> Any:
    """Short text as it is, anything else as an excerpt (for messages)."""
    return value if isinstance(value, str) and len(value) <= 40 else excerpt(value, 40)


def _check_chips(ctx: Context, log: list[Event], chips: int) -> None:
    """The chips at the table add up to ``chips`` and to what the log says each player has.

    The log's ledger: the last ``HandEnded`` gives every seated player's stack; a later seat, top-up
    or leave changes it; a hand in progress started with the stacks its ``HandStarted`` gives, and
    its chips are either still in those players' stacks or in the pot (dead money included).
    """
    total = ctx.total_chips()
    if total != chips:
        raise SnapshotError(f"The chips do not add up: the stacks and the pot hold {total}, the snapshot says "
                            f"{chips}; a snapshot cannot create or lose chips.")
    hand = ctx.hand
    ledger: dict[int, int] | None = None
    started: HandStarted | None = None
    for e in log:
        kind = type(e)
        if kind is HandEnded:
            ledger = dict(cast(HandEnded, e).stacks)
        elif kind is HandStarted:
            started = cast(HandStarted, e)
        elif ledger is not None and kind in (PlayerSeated, ChipsAdded):
            ledger[cast(PlayerSeated, e).seat] = cast(PlayerSeated, e).stack
        elif ledger is not None and kind is PlayerLeft:
            ledger.pop(cast(PlayerLeft, e).seat, None)
    start: dict[int, int] = {}
    if hand is not None and started is not None and started.hand == hand.number and started.stacks:
        start = dict(zip(started.seats, started.stacks, strict=False))
        if set(start) != set(hand.by_seat):
            raise SnapshotError(f"Hand #{hand.number} started with seats {sorted(start)} (the log) but the hand has "
                                f"seats {sorted(hand.by_seat)}.")
        held = sum(hp.player.stack + hp.contributed for hp in hand.players) + hand.dead
        if held != sum(start.values()):
            raise SnapshotError(f"The chips of hand #{hand.number} do not add up: its players started with "
                                f"{sum(start.values())} (the log) but hold {held} in their stacks and the pot.")
    if ledger is not None:
        now = {p.seat: p.stack for p in ctx.table.players()}
        in_hand = set() if hand is None else set(hand.by_seat)
        for seat in sorted(set(now) | set(ledger)):
            want = ledger.get(seat)
            have = start.get(seat) if seat in in_hand else now.get(seat)
            if seat in in_hand and not start:
                continue  # the hand's start is not in the log: its stacks cannot be checked
            if want != have:
                raise SnapshotError(f"Seat {seat} has {_chips(have)} but the log's ledger (the last hand's end and "
                                    f"the seats, top-ups and leaves after it) gives {_chips(want)}.")


def _chips(stack: int | None) -> str:
    return "nobody" if stack is None else f"{stack} chips"


def _stage_index(value: Any, where: str, n: int) -> int:
    if type(value) is not int or not 0 <= value < n:
        raise SnapshotError(f"{where} must be a stage index from 0 to {n - 1}, not {excerpt(value)}.")
    return value


def _read_stage(stage: Stage[Context], so: JsonObject, n: int) -> tuple[str, Outcome | None, Any, bool, int | None,
                                                                 dict[str, Any]]:
    """The saved runtime state of ``stage``: state, outcome, previous, started, parent, fields."""
    cls = type(stage)
    state = so.get_str("state")
    if state == "running" and cls.states is Stage.states:  # older snapshots: the base machine ended in running
        state = "done"
    if state not in cls.states:
        raise SnapshotError(f"{so.path('state')}: {cls.__name__} has no state {excerpt(state)}; its states are "
                            f"{cls.states}.")
    outcome = decode_outcome(so.raw("outcome"), so.path("outcome"))
    previous = decode_value(so.raw("previous"), so.path("previous"))
    if previous is not None and not isinstance(previous, cls.takes):
        raise SnapshotError(f"{so.path('previous')}: {cls.__name__} takes {[t.__name__ for t in cls.takes]}, not "
                            f"a {type(previous).__name__}.")
    started = so.get_bool("started")
    raw_parent = so.raw("parent")
    parent = None if raw_parent is None else _stage_index(raw_parent, so.path("parent"), n)
    fields = so.obj("fields")
    want = set(cls.snapshot_fields)
    if set(fields.data) != want:
        raise SnapshotError(f"{fields.where} has {excerpt(sorted(fields.data))} but {cls.__name__} saves "
                            f"{sorted(want)}.")
    values = {}
    for name in cls.snapshot_fields:
        value = decode_value(fields.raw(name), fields.path(name))
        kind = _FIELD_TYPES.get(name)
        fresh = getattr(stage, name, None)
        if kind is not None:
            if value is not None and (type(value) is not kind[0] or not kind[1](value)):
                raise SnapshotError(f"{fields.path(name)} must be {kind[2]}, not {excerpt(value)}.")
        elif fresh is not None and value is not None and type(value) is not type(fresh):
            raise SnapshotError(f"{fields.path(name)} must be a {type(fresh).__name__}, not a "
                                f"{type(value).__name__}.")
        values[name] = value
    return state, outcome, previous, started, parent, values


def _check_waiting(stages: Sequence[Stage[Context]], saved: list[tuple[str, Outcome | None, Any, bool, int | None,
                                                                     dict[str, Any]]]) -> None:
    """A field naming whom a stage waits on (:data:`_WAITING_FIELDS`) is set exactly while the stage
    waits in its state: a betting round waiting with no street could never move on."""
    for i, (stage, (state, *_, values)) in enumerate(zip(stages, saved, strict=True)):
        for name, value in values.items():
            waits = _WAITING_FIELDS.get(name)
            if waits is not None and (value is None) == (state == waits):
                raise SnapshotError(f"stages[{i}].fields.{name} is {'null' if value is None else excerpt(value)} but "
                                    f"{type(stage).__name__} is in state {state!r}: it names whom the stage waits "
                                    f"on, so it is set exactly while the stage is in {waits!r}.")


def _pairs(value: tuple[Any, ...]) -> bool:
    return all(type(p) is tuple and len(p) == 2 and all(type(x) is int for x in p) for p in value)


#: The runtime fields of the library's stages: (type, a check of the value, what is allowed).
_FIELD_TYPES: dict[str, tuple[type, Callable[[Any], bool], str]] = {
    "street_record": (StreetRecord, lambda v: True, "a StreetRecord or null"),
    "drawer": (int, lambda v: True, "a seat or null"),
    "choices": (tuple, _pairs, "a list of [seat, run-outs] pairs"),
    "position": (tuple, lambda v: len(v) == 3 and all(type(s) is int and 0 <= s < 10**6 for s in v),
                 "three seats (the button, small blind and big blind of the last hand) or null"),
}

#: The fields that name whom a stage waits on, and the state it waits in: set exactly in that state
#: (a betting round waiting with no street, or a draw with no drawer, could never move on).
_WAITING_FIELDS = {"street_record": "waiting_for_action", "drawer": "waiting_for_draw"}


def _check_dispatcher(stages: Sequence[Stage[Context]], status: str, current: int | None, stack: list[int],
                      saved: list[tuple[str, Outcome | None, Any, bool, int | None, dict[str, Any]]]) -> None:
    """The dispatcher's stack is what running the list leaves: the stages after the current one's
    root (the stage that is not a sub-stage), in order; only the current chain has parents."""
    n = len(stages)
    if status == "new":
        if current is not None or stack or any(s[3] for s in saved):
            raise SnapshotError("dispatcher.status is new, yet a stage is current, stacked or started.")
        return
    if current is None:
        raise SnapshotError(f"dispatcher.current is null but the game is {status}.")
    chain = [current]
    while (parent := saved[chain[-1]][4]) is not None:
        if parent in chain:
            raise SnapshotError(f"stages[{chain[-1]}].parent makes a loop of sub-stages: {[*chain, parent]}.")
        if type(stages[parent]).on_substage_result is Stage[Context].on_substage_result:
            raise SnapshotError(f"stages[{chain[-1]}].parent: {type(stages[parent]).__name__} (stage {parent}) "
                                "pushes no sub-stage.")
        chain.append(parent)
    with_parent = [i for i, s in enumerate(saved) if s[4] is not None]
    if sorted(with_parent) != sorted(chain[:-1]):
        raise SnapshotError(f"Stages {with_parent} have a parent but only the current stage's chain {chain[:-1]} "
                            "may: a sub-stage that finished has none.")
    not_started = [i for i in chain if not saved[i][3]]
    if not_started:
        raise SnapshotError(f"stages[{not_started[0]}] is current (or below the current sub-stage) but was not "
                            "started.")
    root = chain[-1]
    low = n - len(stack)
    if stack != list(range(n - 1, low - 1, -1)) or root > low - 1 or (status != "failed" and root != low - 1):
        raise SnapshotError(f"dispatcher.stack {stack} is not what running the stages leaves with stage {root} "
                            f"current: the stages after it, last first ({list(range(n - 1, root, -1))}).")
    cls, state = type(stages[current]), saved[current][0]
    if status == "running" and state in cls._endings:
        what = "its final state" if state in cls._final else "a state that runs a sub-stage on top of it"
        raise SnapshotError(f"stages[{current}] ({cls.__name__}) is current in a running game, so it waits for an "
                            f"event, but it is in {what} {state!r}.")
    if status == "running" and saved[current][1] is not None:
        raise SnapshotError(f"stages[{current}] has ended ({type(saved[current][1]).__name__}) but is current in a "
                            "running game: a snapshot is taken between calls, never half-way.")


def restore(data: Mapping[str, Any], stages: Sequence[Stage[Context]] | VariantLike) -> Game:
    """Rebuild the game saved by :func:`snapshot` on ``stages``, a fresh list of the same variant (or
    the variant, built with its defaults).

    The whole document is checked before anything is changed (structure, types, ranges, cards,
    the chips against the total it states and against its log's ledger, the dispatcher's stack):
    a refused snapshot raises :class:`SnapshotError` and leaves ``stages`` as they were.
    """
    check_depth(data, "The snapshot")
    top = JsonObject(data, "")
    fmt = top.raw("format")
    if fmt != FORMAT:
        raise SnapshotError(f"This is not a cardgame snapshot: format is {json_kind(fmt)}, expected {FORMAT!r}.")
    version = top.raw("version")
    if version != VERSION:
        raise SnapshotError(f"Snapshot format version {excerpt(version)} is not supported; this library reads "
                            f"{VERSION}.")
    saved_stages = top.get_list("stages")
    stages = _stage_list(stages)
    _check_fresh(stages, saved_stages)
    c = top.obj("context")
    table = decode_table(c.raw("table"), c.path("table"))
    keep_hands = c.opt_int("keep_hands", minimum=0)
    max_hands = c.opt_int("max_hands", minimum=0)
    deck_spec = decode_deck_spec(c.raw("deck_spec"), c.path("deck_spec"))
    rng = decode_rng(c.raw("rng"), c.path("rng"))
    hand_data = c.opt_obj("hand")
    hand = None if hand_data is None else _load_hand(hand_data, table, rng)
    next_data = c.opt_obj("next_deck")
    next_deck = None if next_data is None else _load_deck(next_data, rng)
    hands_played = c.get_int("hands_played", minimum=0)
    if hand is not None and hand.number != hands_played + 1:
        raise SnapshotError(f"context.hand.number is {hand.number} but {hands_played} hands were played: the hand in "
                            f"progress is #{hands_played + 1}.")
    stop_requested = c.get_bool("stop_requested")
    log: list[Event] = [_read_event(e, f"context.log[{i}]") for i, e in enumerate(c.get_list("log"))]
    hand_starts = c.get_int_list("hand_starts", minimum=0, maximum=len(log))
    if hand_starts != sorted(hand_starts):
        raise SnapshotError(f"context.hand_starts {excerpt(hand_starts)} must run in order.")
    voidable = None  # (the button before the hand in progress, its start), for Context.void_hand
    if hand is not None and "button_before_hand" in c.data:  # (absent from older snapshots)
        before = c.opt_int("button_before_hand", minimum=0, maximum=table.seat_count - 1)
        starts = [e for e in log if type(e) is HandStarted and e.hand == hand.number]
        voidable = (before, starts[-1]) if starts else None

    n = len(stages)
    saved = [_read_stage(stage, JsonObject(raw, f"stages[{i}]"), n)
             for i, (stage, raw) in enumerate(zip(stages, saved_stages, strict=True))]
    for i, (stage, (*_, values)) in enumerate(zip(stages, saved, strict=True)):
        _check_turn(stage, values, hand, f"stages[{i}].fields")
    do = top.obj("dispatcher")
    status = do.get_str("status")
    if status not in _STATUSES:
        raise SnapshotError(f"dispatcher.status must be one of {', '.join(_STATUSES)}, not {excerpt(status)}.")
    raw_current = do.raw("current")
    current = None if raw_current is None else _stage_index(raw_current, "dispatcher.current", n)
    stack = [_stage_index(v, f"dispatcher.stack[{k}]", n) for k, v in enumerate(do.get_list("stack"))]
    failure = do.opt_obj("failure")
    failed = None if failure is None else decode_failed(failure.data, failure.where)
    _check_dispatcher(stages, status, current, stack, saved)
    _check_waiting(stages, saved)

    try:
        game = Game(stages, table=table, deck=deck_spec, max_hands=max_hands, keep_hands=keep_hands)
    except CardgameError as exc:
        raise SnapshotError(f"The stage list cannot run: {exc}") from None
    ctx = game.ctx
    ctx.rng, ctx.hand, ctx.next_deck = rng, hand, next_deck
    _check_chips(ctx, log, top.get_int("chips", minimum=0))

    # --- every check passed: only now are the stages and the game changed ---
    ctx.hands_played = hands_played
    ctx.stop_requested = stop_requested
    ctx.hand_starts = hand_starts
    ctx.log = log
    ctx.voidable = voidable
    for stage, (state, _saved_outcome, previous, started, parent, values) in zip(stages, saved, strict=True):
        stage.state = state  # which gives the stage's outcome: a saved one (older snapshots) is checked, not kept
        stage.previous = previous
        if started:
            stage.ctx = ctx
        stage.parent = None if parent is None else stages[parent]
        for name, value in values.items():
            setattr(stage, name, value)
    d = game.dispatcher
    d.status = status
    d.current = None if current is None else stages[current]
    d.stack = [stages[i] for i in stack]
    d.failure = failed
    return game


def _check_turn(stage: Stage[Context], values: dict[str, Any], hand: Hand | None, where: str) -> None:
    """A stage's saved betting street (``street_record``), drawer or run-out choices fit the hand:
    the seat to act is in it and live, against another live hand; no bet is above the bet to call;
    each choice is a seat of the hand, once, asking for 1 to the stage's ``max_runs`` run-outs."""
    record = values.get("street_record")
    drawer = values.get("drawer")
    choices = values.get("choices") or ()
    if (record is not None or drawer is not None or choices) and hand is None:
        raise SnapshotError(f"{where}: a stage waits on a player, but no hand is in progress.")
    if hand is None:
        return
    most = getattr(stage, "max_runs", 1)
    chosen = [seat for seat, _ in choices]
    if len(set(chosen)) != len(chosen) or any(s not in hand.by_seat or not 1 <= r <= most for s, r in choices):
        raise SnapshotError(f"{where}.choices {excerpt(choices)}: each seat of the hand chooses once, from 1 to "
                            f"{most} run-outs.")
    live = [hp.seat for hp in hand.players if not hp.folded]
    if drawer is not None and drawer not in live:
        raise SnapshotError(f"{where}.drawer: seat {drawer} is not a live player of the hand (live: {live}).")
    if record is None:
        return
    if not isinstance(record, StreetRecord):
        raise SnapshotError(f"{where}.street_record must be a StreetRecord, not a {type(record).__name__}.")
    for hp in hand.players:
        if hp.bet > record.bet_to:
            raise SnapshotError(f"{where}.street_record: seat {hp.seat}'s bet {hp.bet} is above the bet to call, "
                                f"{record.bet_to}.")
    if record.full_to > record.bet_to:
        raise SnapshotError(f"{where}.street_record: full_to {record.full_to} is above the bet to call, "
                            f"{record.bet_to}.")
    if record.to_act is None:
        raise SnapshotError(f"{where}.street_record names nobody to act; a betting round waits on a player.")
    if record.to_act not in live or len(live) < 2:
        raise SnapshotError(f"{where}.street_record: seat {record.to_act} is asked to act but is not a live player "
                            f"facing another (live: {live}); a hand waits for a decision only while two or more "
                            "are in it.")


def _read_event(data: Any, where: str) -> Event:
    """A logged event, refused if it cannot be shown (:meth:`Event.describe`) or seen by a seat."""
    event = decode_event(data, where)
    try:
        event.describe()
        event.seen_by(None)
        event.seen_by(-1)
    except Exception as exc:
        raise SnapshotError(f"{where}: the {type(event).__name__} does not hold together ({type(exc).__name__}: "
                            f"{excerpt(str(exc))}).") from None
    return event


#: Characters (or bytes) of snapshot text :func:`loads` reads at most by default: 64 MiB, a game of
#: about 40,000 hands with every event kept.
MAX_SIZE = 64 * 2**20


def loads(text: str | bytes, stages: Sequence[Stage[Context]] | VariantLike, *, max_size: int = MAX_SIZE) -> Game:
    """Restore a game from :func:`dumps` text onto a fresh stage list.

    Text longer than ``max_size`` characters, or nesting more than :data:`~cardgame.store.serialize.MAX_DEPTH`
    levels deep, is refused before it is read.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise SnapshotError(f"A snapshot is JSON text (str or bytes), not {excerpt(text)}.")
    max_size = check_int(max_size, "max_size of a snapshot", SnapshotError, minimum=0)
    if len(text) > max_size:
        raise SnapshotError(f"The snapshot text has {len(text):,} characters; at most {max_size:,} are read "
                            "(pass max_size to read more).")
    try:
        data = from_json(text)
    except SnapshotError as exc:
        raise SnapshotError(f"The snapshot is not valid JSON: {exc}.") from None
    return restore(data, stages)
