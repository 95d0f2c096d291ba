"""Save a running game to JSON at any point and restore it to continue exactly.

``snapshot(game)`` returns JSON-ready data (``dumps`` the text); ``restore(data, stages)`` (or
``loads``) rebuilds the game from a **fresh** stage list of the same variant, e.g.
``loads(text, no_limit_holdem(1, 2))``: a stage's configuration (blinds, evaluators...) comes from
code, its runtime state from the snapshot. The fresh list must have as many stages, of the same
classes in the same order, as the saved one.

What is saved (format version :data:`VERSION`):

* each stage by its index in the list: ``state``, ``previous`` (the result it started with),
  ``outcome`` (done with its result, goto, restart, exit, failed), its parent if it runs as a
  sub-stage, and the attributes its class names in ``Stage.snapshot_fields`` (a stage with
  runtime attributes of its own must declare them);
* the dispatcher: status, failure, current stage and remaining stack as indices;
* the context: the table and every seat, the hand in progress (players, cards, bets, deck and
  whether it deals lazily from the random source), the next deck, the random source's seed and
  full generator state, deck spec, hand counters, ``stop_requested`` and the event log.

Cards are text (``"Ah"``); records carry a ``"type"`` tag (see :mod:`cardgame.serialize`).
A deck's undealt cards are listed bottom first: the deck deals from the end of the list.

Not saved: listeners (``game.subscribe`` callbacks), which are code; subscribe again after
restoring. A sub-stage pushed with ``Dispatcher.push`` that is not in the variant's list cannot be
rebuilt from code, so snapshotting while one runs raises :class:`SnapshotError`. So does a
snapshot taken from inside a listener, where a stage is half-way through its work: take
snapshots between calls into the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardgame.context import Context
from cardgame.deck import Deck
from cardgame.errors import CardgameError
from cardgame.events import Event
from cardgame.game import Game
from cardgame.hand import Hand, HandPlayer
from cardgame.rng import RandomSource
from cardgame.serialize import (
    JsonObject,
    SnapshotError,
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
    encode_outcome,
    encode_player,
    encode_rng,
    encode_table,
    encode_value,
    from_json,
    json_kind,
    to_json,
)
from cardgame.stage import Stage
from cardgame.table import Table

__all__ = ["FORMAT", "VERSION", "SnapshotError", "dumps", "loads", "restore", "snapshot"]

#: The ``format`` marker of a snapshot.
FORMAT = "cardgame-snapshot"
#: The snapshot format version this module writes and reads.
VERSION = 3  # 2: the hand's dead money, full bet level, cap and mucks; the chip total. 3: stage results

_STATUSES = ("new", "running", "exited", "failed")

# ============================================================================================
# saving
# ============================================================================================


def snapshot(game: Game) -> dict[str, Any]:
    """The whole game as JSON-ready data (dicts, lists, str, int, bool, None)."""
    d = game.dispatcher
    stages = d.stages
    index = {id(s): i for i, s in enumerate(stages)}

    def position(stage: Stage, what: str) -> int:
        i = index.get(id(stage))
        if i is None:
            raise SnapshotError(
                f"The {what} {stage.name!r} ({type(stage).__name__}) was pushed with Dispatcher.push and is not in "
                "the variant's stage list, so it cannot be rebuilt on restore; snapshot after it finishes."
            )
        return i

    current = None if d.current is None else position(d.current, "running sub-stage")
    _check_between_calls(game)
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
            "outcome": encode_outcome(s.outcome, f"stages[{i}].outcome"),
            "previous": encode_value(s.previous, f"stages[{i}].previous"),
            "parent": None if s.parent is None else position(s.parent, "parent stage"),
            "fields": fields,
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
    """:func:`snapshot` as JSON text."""
    return to_json(snapshot(game), indent=indent)


def _check_between_calls(game: Game) -> None:
    """Refuse a snapshot taken from inside the game (a listener), where a stage is half-way."""
    d = game.dispatcher
    cur = d.current
    if d.busy or (d.status == "running" and cur is not None and cur.outcome is not None):
        raise SnapshotError("snapshot() was called from inside the game (a listener), where a stage is half-way "
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
        "bet_to": hand.bet_to,
        "min_raise": hand.min_raise,
        "full_to": hand.full_to,
        "raises": hand.raises,
        "round_raises": hand.round_raises,
        "largest_raise": hand.largest_raise,
        "short_all_ins": hand.short_all_ins,
        "capped": hand.capped,
        "dead": hand.dead,
        "mucked": sorted(hand.mucked),
        "killed": sorted(hand.killed),
        "to_act": None if hand.to_act is None else hand.to_act.seat,
        "last_aggressor": hand.last_aggressor,
        "big_bet_option": hand.big_bet_option,
        "bet_size": hand.bet_size,
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
    }


# ============================================================================================
# restoring
# ============================================================================================


def _load_deck(o: JsonObject, ctx_rng: RandomSource) -> Deck:
    deck = Deck(decode_deck_spec(o.raw("spec"), o.path("spec")), o.get_cards("cards_bottom_first"))
    deck.dealt = o.get_int("dealt", minimum=0)
    rng = o.raw("rng")
    if rng == "context":
        deck.rng = ctx_rng
    elif rng is not None:
        deck.rng = decode_rng(rng, o.path("rng"))
    return deck


def _load_hand(o: JsonObject, table: Table, rng: RandomSource) -> Hand:
    players: list[HandPlayer] = []
    for i, raw in enumerate(o.get_list("players")):
        po = JsonObject(raw, f"{o.path('players')}[{i}]")
        seat = po.get_int("seat", minimum=0)
        detached = po.opt_obj("detached_player")
        if detached is not None:
            player = decode_player(detached.data, detached.where)
            if player.seat != seat:
                raise SnapshotError(f"{po.path('detached_player')} sits in seat {player.seat}, not {seat}.")
        else:
            found = table.seats[seat] if seat < table.seat_count else None
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
    hand = Hand(o.get_int("number", minimum=1), o.opt_int("button"), players, _load_deck(o.obj("deck"), rng))
    hand.board = o.get_cards("board")
    hand.runouts = tuple(tuple(decode_cards(raw, o.path(f"runouts[{i}]")))
                         for i, raw in enumerate(o.get_list("runouts")))
    hand.discards = o.get_cards("discards")
    hand.street = o.get_str("street")
    hand.bet_to = o.get_int("bet_to", minimum=0)
    hand.min_raise = o.get_int("min_raise", minimum=0)
    hand.full_to = o.get_int("full_to", minimum=0)
    hand.raises = o.get_int("raises", minimum=0)
    for key in ("round_raises", "largest_raise", "short_all_ins"):  # absent from older snapshots: 0
        setattr(hand, key, o.get_int(key, minimum=0) if key in o.data else 0)
    hand.capped = o.get_bool("capped")
    hand.dead = o.get_int("dead", minimum=0)
    hand.mucked = frozenset(o.get_int_list("mucked"))
    hand.killed = frozenset(o.get_int_list("killed"))
    to_act = o.opt_int("to_act")
    if to_act is not None and to_act not in hand.by_seat:
        raise SnapshotError(f"{o.path('to_act')}: seat {to_act} is not in the hand (seats {seats}).")
    hand.to_act = None if to_act is None else hand.by_seat[to_act]
    hand.last_aggressor = o.opt_int("last_aggressor")
    hand.big_bet_option = o.get_bool("big_bet_option")
    hand.bet_size = o.get_int("bet_size", minimum=0)
    hand.bring_in = o.opt_int("bring_in")
    for i, hp in enumerate(players):
        where = f"{o.path('players')}[{i}]"
        if hp.bet > hp.contributed:
            raise SnapshotError(f"{where}: bet {hp.bet} is more than the {hp.contributed} chips contributed this hand.")
        if hp.all_in and hp.player.stack:
            raise SnapshotError(f"{where}: all-in with {hp.player.stack} chips behind.")
        if hp.bet > hand.bet_to:
            raise SnapshotError(f"{where}: bet {hp.bet} is above the bet to call, {hand.bet_to}.")
    if hand.full_to > hand.bet_to:
        raise SnapshotError(f"{o.path('full_to')}: {hand.full_to} is above the bet to call, {hand.bet_to}.")
    if hand.to_act is not None and hand.to_act.folded:
        raise SnapshotError(f"{o.path('to_act')}: seat {hand.to_act.seat} has folded and cannot act.")
    every = [c for hp in players for c in hp.hole] + hand.board + hand.discards + list(hand.deck.remaining)
    if len(set(every)) != len(every):
        dup = next(c for c in every if every.count(c) > 1)
        raise SnapshotError(f"{o.where}: the card {dup} appears twice among the hole cards, board, discards and deck.")
    return hand


def _check_fresh(stages: Sequence[Stage], saved: list[Any]) -> None:
    for i, s in enumerate(stages):
        if not isinstance(s, Stage):
            raise SnapshotError(f"stages[{i}] is {s!r}, not a Stage; pass a fresh stage list of the variant.")
        if s.ctx is not None or s.outcome is not None or s.state != s.initial or s.parent is not None:
            raise SnapshotError(f"stages[{i}] ({type(s).__name__}) has already run; restore needs a fresh stage "
                                "list (call the variant function again).")
    if len(stages) != len(saved):
        raise SnapshotError(f"The snapshot has {len(saved)} stages but the stage list given has {len(stages)}; "
                            "restore with a fresh list from the same variant.")
    for i, (s, raw) in enumerate(zip(stages, saved, strict=True)):
        name = JsonObject(raw, f"stages[{i}]").get_str("class")
        if type(s).__name__ != name:
            got = [type(x).__name__ for x in stages]
            want = [JsonObject(r, f"stages[{j}]").raw("class") for j, r in enumerate(saved)]
            raise SnapshotError(f"Stage {i} is a {type(s).__name__} but the snapshot has a {name}; the snapshot's "
                                f"stages are {want}, the list given has {got}.")


def restore(data: Mapping[str, Any], stages: Sequence[Stage]) -> Game:
    """Rebuild the game saved by :func:`snapshot` on ``stages``, a fresh list of the same variant."""
    top = JsonObject(data, "")
    fmt = top.raw("format")
    if fmt != FORMAT:
        raise SnapshotError(f"This is not a cardgame snapshot: format is {json_kind(fmt)}, expected {FORMAT!r}.")
    version = top.raw("version")
    if version != VERSION:
        raise SnapshotError(f"Snapshot format version {version!r} is not supported; this library reads {VERSION}.")
    saved_stages = top.get_list("stages")
    _check_fresh(stages, saved_stages)
    c = top.obj("context")
    table = decode_table(c.raw("table"), c.path("table"))
    keep_hands = c.opt_int("keep_hands")
    max_hands = c.opt_int("max_hands")
    deck_spec = decode_deck_spec(c.raw("deck_spec"), c.path("deck_spec"))
    try:
        game = Game(stages, table=table, deck=deck_spec, max_hands=max_hands, keep_hands=keep_hands)
    except CardgameError as exc:
        raise SnapshotError(f"The stage list cannot run: {exc}") from None
    ctx = game.ctx
    ctx.rng = decode_rng(c.raw("rng"), c.path("rng"))
    hand = c.opt_obj("hand")
    ctx.hand = None if hand is None else _load_hand(hand, table, ctx.rng)
    next_deck = c.opt_obj("next_deck")
    ctx.next_deck = None if next_deck is None else _load_deck(next_deck, ctx.rng)
    ctx.hands_played = c.get_int("hands_played", minimum=0)
    ctx.stop_requested = c.get_bool("stop_requested")
    ctx.hand_starts = c.get_int_list("hand_starts")
    chips = top.get_int("chips", minimum=0)
    if ctx.total_chips() != chips:
        raise SnapshotError(
            f"The chips do not add up: the stacks and the pot hold {ctx.total_chips()}, the snapshot says {chips}; "
            "a snapshot cannot create or lose chips."
        )
    log: list[Event] = [decode_event(e, f"context.log[{i}]") for i, e in enumerate(c.get_list("log"))]
    if any(not 0 <= i <= len(log) for i in ctx.hand_starts):
        raise SnapshotError(f"context.hand_starts {ctx.hand_starts} points outside the log of {len(log)} events.")
    ctx.log = log

    n = len(stages)

    def index(value: Any, where: str) -> int:
        if type(value) is not int or not 0 <= value < n:
            raise SnapshotError(f"{where} must be a stage index from 0 to {n - 1}, not {json_kind(value)}.")
        return value

    for i, (stage, raw) in enumerate(zip(stages, saved_stages, strict=True)):
        so = JsonObject(raw, f"stages[{i}]")
        state = so.get_str("state")
        if state not in type(stage).states:
            raise SnapshotError(f"{so.path('state')}: {type(stage).__name__} has no state {state!r}; "
                                f"its states are {type(stage).states}.")
        stage.state = state
        stage.outcome = decode_outcome(so.raw("outcome"), so.path("outcome"))
        stage.previous = decode_value(so.raw("previous"), so.path("previous"))
        if so.get_bool("started"):
            stage.ctx = ctx
        parent = so.raw("parent")
        stage.parent = None if parent is None else stages[index(parent, so.path("parent"))]
        fields = so.obj("fields")
        want = set(type(stage).snapshot_fields)
        if set(fields.data) != want:
            raise SnapshotError(f"{fields.where} has {sorted(fields.data)} but {type(stage).__name__} saves "
                                f"{sorted(want)}.")
        for name in type(stage).snapshot_fields:
            setattr(stage, name, decode_value(fields.raw(name), fields.path(name)))

    do = top.obj("dispatcher")
    d = game.dispatcher
    status = do.get_str("status")
    if status not in _STATUSES:
        raise SnapshotError(f"dispatcher.status must be one of {', '.join(_STATUSES)}, not {status!r}.")
    d.status = status
    current = do.raw("current")
    d.current = None if current is None else stages[index(current, "dispatcher.current")]
    stack = [index(v, f"dispatcher.stack[{k}]") for k, v in enumerate(do.get_list("stack"))]
    if len(set(stack)) != len(stack):
        raise SnapshotError(f"dispatcher.stack {stack} lists a stage twice.")
    d.stack = [stages[i] for i in stack]
    failure = do.opt_obj("failure")
    d.failure = None if failure is None else decode_failed(failure.data, failure.where)
    if status == "running" and d.current is None:
        raise SnapshotError("dispatcher.current is null but the game is running.")
    return game


def loads(text: str | bytes, stages: Sequence[Stage]) -> Game:
    """Restore a game from :func:`dumps` text onto a fresh stage list."""
    try:
        data = from_json(text)
    except SnapshotError as exc:
        raise SnapshotError(f"The snapshot is not valid JSON: {exc}.") from None
    return restore(data, stages)
