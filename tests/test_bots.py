"""The bot interface: private views, the answer vocabulary, hooks, the simple bots."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import variants
from cardgame import Game
from cardgame.model.betting import LegalActions
from cardgame.model.cards import parse_cards
from cardgame.model.context import Context
from cardgame.model.errors import BotError, ConfigError
from cardgame.model.events import CardsShown, HoleCardsDealt
from cardgame.model.hand import Hand
from cardgame.play.bot import Answer, BotBase, BotView, HandEnd, HandStart, _hand_events, play, to_action, to_discards
from cardgame.play.bots import always_all_in, calling_station, get, pair_raiser, random_bot, random_draw
from cardgame.stages.results import DrawOptions


def _game(code: str, players: int = 3, seed: int = 5, hands: int = 20, stack: int = 200) -> Game:
    variant = variants.get(code)
    game = Game(variant.build(), seats=players, seed=seed, max_hands=hands, deck=variant.deck)
    for i in range(players):
        game.sit_down(f"p{i}", stack)
    game.start()
    return game


def _legal(**kw: Any) -> LegalActions:
    base = dict(seat=1, can_fold=True, can_check=False, call_amount=2, can_raise=True, min_raise_to=4,
                max_raise_to=100, bet_to=2, stack=100)
    base.update(kw)
    return LegalActions(**base)  # type: ignore[arg-type]


def _reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable from a view through attrs fields, tuples and slots."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    children: list[object] = []
    if attrs.has(type(obj)):
        children = [getattr(obj, f.name) for f in attrs.fields(type(obj))]
    elif isinstance(obj, tuple | list):
        children = list(obj)
    elif hasattr(type(obj), "__slots__") and not isinstance(obj, int | str | float):
        children = [getattr(obj, s) for s in type(obj).__slots__ if hasattr(obj, s)]
    for child in children:
        out += _reachable(child, seen)
    return out


@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D"])
def test_a_bot_never_sees_an_opponents_hidden_cards(code: str) -> None:
    game = _game(code, hands=15)
    views: list[tuple[BotView, dict[int, tuple[Any, ...]]]] = []

    def spy(view: BotView) -> Answer:
        hand = game.hand  # the test reads the truth; the bot only gets ``view``
        truth = {hp.seat: tuple(zip(hp.hole, hp.face_up, strict=True)) for hp in hand.players}
        views.append((view, truth))
        return random_bot(view)

    game.play(spy)
    assert len(views) > 30
    for view, truth in views:
        assert view.hole == tuple(c for c, _ in truth[view.seat])
        hidden = {c for seat, cards in truth.items() if seat != view.seat for c, up in cards if not up}
        assert hidden
        # everything the view holds but the public rules (whose deck lists every card)
        reachable = _reachable(attrs.evolve(view, shape=None))
        assert not any(isinstance(o, Game | Hand | Context) for o in reachable)
        shown = {c for e in view.history if isinstance(e, CardsShown) for c in e.cards}
        leaked = {o for o in reachable if type(o).__name__ == "Card"} & (hidden - shown)
        assert not leaked, f"seat {view.seat} sees {leaked}"
        for seat in view.seats:
            if seat.seat != view.seat:
                assert [c is None for c in seat.hole] == [not up for _, up in truth.get(seat.seat, ())]
        dealt = [e for e in view.history if isinstance(e, HoleCardsDealt) and e.seat != view.seat]
        assert dealt and all(c is None or u for e in dealt for c, u in zip(e.cards, e.face_up, strict=True))


@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D", "FR", "FO/8"])
def test_views_are_made_lazily_from_shared_events_as_the_readable_form_would(code: str) -> None:
    """``play`` renders the hand's events once for every seat and copies the seats' rows; each
    view's ``seats`` and ``history``, read after the game moved on, are what ``game.view(seat)`` and
    ``event.seen_by(seat)`` gave when the question was asked."""
    game = _game(code, players=4, hands=12)
    asked: list[tuple[BotView, tuple[Any, ...], tuple[Any, ...], int]] = []

    def spy(view: BotView) -> Answer:
        truth = (game.view(view.seat).seats, tuple(e.seen_by(view.seat) for e in _hand_events(game)))
        asked.append((view, *truth, game.hand.pot_total()))
        return random_draw(view) if view.draw is not None else random_bot(view)

    play(game, spy)
    assert len(asked) > 40 and len({v.hand for v, *_ in asked}) > 5
    for view, seats, history, pot in asked:  # read only now: the game has moved on since
        assert view.seats == seats and view.history == history and view.pot == pot
        assert view.me == view.player(view.seat) == next(s for s in seats if s.seat == view.seat)
        assert all(view.player(s.seat) == s for s in seats)
        assert view.history is view.history  # made once


def test_the_showdown_is_seen_in_hand_ended() -> None:
    class Watcher(BotBase):
        def __init__(self) -> None:
            self.starts: list[HandStart] = []
            self.ends: list[HandEnd] = []
            self.asked: list[int] = []

        def act(self, view: BotView) -> Answer:
            assert self.starts and self.starts[-1].hand == view.hand  # told before its first decision
            self.asked.append(view.hand)
            return "call"

        def hand_started(self, start: HandStart) -> None:
            self.starts.append(start)

        def hand_ended(self, end: HandEnd) -> None:
            self.ends.append(end)

    watchers = {0: Watcher(), 1: Watcher()}
    game = _game("NT", players=2, hands=4)
    game.play(watchers)
    for seat, w in watchers.items():
        assert [s.hand for s in w.starts] == [e.hand for e in w.ends] == [1, 2, 3, 4]
        assert all(e.seat == seat and len(e.stacks) == 2 for e in w.ends)
        end = w.ends[0]
        assert set(end.shown()) == {0, 1}  # calling down: both hands shown, so both visible
        start = w.starts[0]
        paid = {s: before - dict(end.stacks)[s] + dict(end.won).get(s, 0) for s, before in zip(
            start.seats, start.stacks, strict=True)}  # what each seat put in the pot
        assert sum(paid.values()) == sum(a for _, a in end.won) > 0
    assert sum(st for _, st in watchers[0].ends[-1].stacks) == 400


def test_raise_means_bet_on_an_unopened_street_and_check_call_are_one_word() -> None:
    opened = _legal()
    unopened = _legal(can_fold=False, can_check=True, call_amount=0, bet_to=0, min_raise_to=2)
    assert to_action("raise", unopened) == ("bet", 2)
    assert to_action(("bet", 10), opened) == ("raise", 10)
    assert to_action("raise", opened) == ("raise", 4)
    assert to_action("check", opened) == ("call", None)
    assert to_action("call", unopened) == ("check", None)
    assert to_action("all_in", opened) == ("raise", 100)
    assert to_action("All-In", unopened) == ("bet", 100)
    capped = _legal(can_raise=False, min_raise_to=0, max_raise_to=0)
    assert to_action("raise", capped) == ("call", None)
    assert to_action("all_in", capped) == ("call", None)
    fixed = _legal(min_raise_to=4, max_raise_to=4, amounts=(4,))
    assert to_action("all_in", fixed) == ("raise", 4)


def test_stud_bring_in_words() -> None:
    due = _legal(can_fold=False, can_check=False, call_amount=0, bet_to=0, min_raise_to=5, max_raise_to=5,
                 bring_in=2)
    assert to_action("call", due) == ("bring_in", None)
    assert to_action("fold", due) == ("bring_in", None)
    assert to_action("raise", due) == ("bet", 5)
    with pytest.raises(BotError, match="no bring-in is due"):
        to_action("bring_in", _legal())


@pytest.mark.parametrize(
    ("answer", "match"),
    [
        ("dance", "no action"),
        (("raise", 3), "must be 4 to 100"),
        (("raise", 101), "must be 4 to 100"),
        (("raise", 2.5), "whole number"),
        (("call", 2), "takes no amount"),
        (None, "no action"),
        (("all_in", 100), "takes no amount"),
    ],
)
def test_bad_answers_name_what_is_allowed(answer: object, match: str) -> None:
    with pytest.raises(BotError, match=match) as info:
        to_action(answer, _legal())
    assert info.value.allowed == "fold, call 2, raise to 4 to 100"
    assert "Allowed: fold, call 2, raise to 4 to 100." in str(info.value)


def test_a_fixed_raise_amount_must_be_one_allowed() -> None:
    with pytest.raises(BotError, match="one of 4, 8"):
        to_action(("raise", 6), _legal(min_raise_to=4, max_raise_to=8, amounts=(4, 8)))
    with pytest.raises(BotError, match="no bet or raise is allowed"):
        to_action(("raise", 6), _legal(can_raise=False))


def test_discard_answers() -> None:
    opts = DrawOptions(2, parse_cards("2c 3d 4h 9s Ks"), 3)
    assert to_discards("call", opts) == ()
    assert to_discards(["Ks", "9s"], opts) == parse_cards("Ks 9s")
    for bad, match in ((["Ah"], "is not 0 to 3"), (["2c", "3d", "4h", "9s"], "is not 0 to 3"),
                       (["Ks", "Ks"], "is not"), ("raise", "answer the cards"), (["Zz"], "Malformed")):
        with pytest.raises(BotError, match=match):
            to_discards(bad, opts)


def test_an_illegal_answer_stops_the_game_unchanged() -> None:
    game = _game("NT", players=2)
    before = game.status()
    with pytest.raises(BotError, match=r"Seat \d \(<lambda>\): .*must be .* Allowed: fold, call 1, raise to 4 to 200"):
        game.play(lambda view: ("raise", 1))
    assert game.status() == before
    with pytest.raises(BotError, match="No bot plays seat"):
        play(game, {5: calling_station})


def test_bots_replay_exactly_from_the_seed() -> None:
    logs = []
    for _ in range(2):
        game = _game("F2L3D", players=4, seed=98, hands=30)  # a seed whose 30 hands all play out
        game.play({0: random_bot, 1: pair_raiser, 2: always_all_in, 3: calling_station})
        assert game.status_name == "exited"
        logs.append([e.describe() for e in game.events])
    assert logs[0] == logs[1]


@pytest.mark.parametrize("code", ["NT", "FT", "PO", "F7S", "FR", "F2L3D", "FB", "NS", "kuhn poker"])
def test_the_simple_bots_play_every_variant(code: str) -> None:
    players = 3 if code != "kuhn poker" else 2
    game = _game(code, players=players, hands=25)
    game.play({0: random_bot, 1: pair_raiser, 2: always_all_in})
    assert game.status_name in ("exited", "running")
    assert game.hand is None or game.to_act is None
    assert game.ctx.total_chips() == 200 * players


def test_unknown_bot_names_are_refused() -> None:
    assert get("calling-station") is calling_station
    with pytest.raises(ConfigError, match="Unknown bot 'genius'; the bots are random, calling-station"):
        get("genius")


def test_the_views_generated_init_takes_what_attrs_would() -> None:
    """``BotView`` is built on every decision with ``records.fast_init``: the same parameters (a
    private field's without its underscore, as attrs names them) and values as attrs' own."""
    import inspect

    fields = attrs.fields(BotView)
    params = list(inspect.signature(BotView.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.alias for f in fields]
    assert "rows" in [p.name for p in params]
    values = {f.alias: object() for f in fields}
    view = BotView(**values)
    assert all(getattr(view, f.name) is values[f.alias] for f in fields)
    again = attrs.evolve(view, hole=())
    assert again.hole == () and all(getattr(again, f.name) is getattr(view, f.name) for f in fields if f.name != "hole")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("code", ["NT", "F7S", "F2L3D"])
def test_the_simple_bots_get_views_copying_no_seats_or_history_and_reaching_nothing_private(code: str) -> None:
    """A built-in bot that reads only the question (``random_bot``, ``calling_station``, ...) is handed a
    view that copies neither the seats nor the hand's events: reading them is refused, the rest is what
    a full view holds, and nothing private is reachable from it."""
    from cardgame.play.bot import _question_only
    from cardgame.play.view import seat_rows

    game = _game(code, hands=6)
    asked: list[tuple[BotView, dict[int, tuple[Any, ...]], int]] = []

    @_question_only
    def light(view: BotView) -> Answer:
        hand = game.hand
        truth = {hp.seat: tuple(zip(hp.hole, hp.face_up, strict=True)) for hp in hand.players}
        asked.append((view, truth, hand.pot_total()))
        assert view.to_call == (view.legal.call_amount if view.legal is not None else 0)
        return random_bot(view)

    game.play({0: light, 1: random_bot, 2: random_bot})
    assert len(asked) > 10
    for view, truth, pot in asked:
        assert view.hole == tuple(c for c, _ in truth[0]) and view.up == tuple(u for _, u in truth[0])
        assert view.pot == pot and view.seat == 0
        for name in ("seats", "history", "me", "opponents"):
            with pytest.raises(BotError, match=r"reads only the question asked.*holds no (seats|history)"):
                getattr(view, name)
        reachable = _reachable(attrs.evolve(view, shape=None))
        assert not any(isinstance(o, Game | Hand | Context | type(game.ctx.rng)) for o in reachable)
        hidden = {c for seat, cards in truth.items() if seat != 0 for c, up in cards if not up}
        assert not {o for o in reachable if type(o).__name__ == "Card"} & hidden
    assert seat_rows(game.ctx, 0)  # (the full view's rows: the test's light bot saw none of them)


def test_build_view_for_a_bot_reading_only_the_question_copies_no_seats() -> None:
    from cardgame.play.bot import build_view, seat_rng
    from cardgame.play.shape import game_shape

    game = _game("NT")
    seat, legal, shape = game.to_act, game.legal_actions(), game_shape(game.dispatcher.stages)
    rng = seat_rng(game, seat)
    full = build_view(game, seat, shape, rng, legal=legal, for_bot=lambda view: "call")
    light = build_view(game, seat, shape, rng, legal=legal, for_bot=random_bot)
    assert full.me.seat == seat and len(full.seats) == 3 and full.history
    assert (light.hole, light.board, light.pot, light.legal) == (full.hole, full.board, full.pot, full.legal)
    with pytest.raises(BotError, match="holds no seats"):
        _ = light.stack


def test_a_hostile_bot_cannot_change_the_game_or_other_views_through_its_view() -> None:
    """A bot that tries to write to its view (its fields, its seats, its events, the question) is refused
    and the game plays on exactly as a game whose bot did not try."""
    from cardgame.model.events import Event

    def quiet(view: BotView) -> Answer:
        return random_bot(view)

    def hostile(view: BotView) -> Answer:
        for attempt in (lambda: setattr(view, "pot", 10**6), lambda: setattr(view, "_rows", ()),
                        lambda: setattr(view.seats[0], "stack", 0), lambda: setattr(view.legal, "call_amount", 0),
                        lambda: view.history.__setitem__(0, None), lambda: view.hole.__setitem__(0, None)):  # type: ignore
            with pytest.raises((AttributeError, TypeError, attrs.exceptions.FrozenInstanceError)):
                attempt()
        assert all(isinstance(e, Event) for e in view.history)
        return random_bot(view)

    logs = []
    for first in (quiet, hostile):
        game = _game("F7S", hands=6)
        game.play({0: first, 1: random_bot, 2: quiet})
        logs.append([e.describe() for e in game.events])
    assert logs[0] == logs[1]


@pytest.mark.parametrize("code", ["NT", "FT", "F7S", "F2L3D", "leduc hold'em"])
def test_the_built_in_bots_betting_without_a_view_play_the_games_their_views_play(code: str) -> None:
    """``random``, ``calling-station`` and ``all-in`` answer a betting question from the question and their
    stream alone (no view built): every game they play is the one the same bots play when handed views
    (the same functions behind a wrapper the library does not know), draw for draw."""
    from cardgame.play.bot import _betting_answer

    bots = (random_bot, calling_station, always_all_in)
    assert all(_betting_answer(bot) is not None for bot in bots) and _betting_answer(pair_raiser) is None

    def viewed(bot: Any) -> Any:
        return lambda view: bot(view)  # (not the built-in itself: asked through a view)

    answers = 0
    for seed in range(4):
        for seats in ((random_bot, random_bot, random_bot), (random_bot, calling_station, always_all_in)):
            quick, slow = _game(code, seed=seed, hands=8), _game(code, seed=seed, hands=8)
            taken = quick.play(dict(enumerate(seats)))
            assert slow.play({s: viewed(b) for s, b in enumerate(seats)}) == taken
            answers += taken
            assert [repr(e) for e in quick.events] == [repr(e) for e in slow.events]
            assert [p.stack for p in quick.table.players()] == [p.stack for p in slow.table.players()]
    assert answers > 100


def test_a_built_in_bot_marked_question_only_is_held_so_no_other_bot_takes_its_id() -> None:
    """The marks of the built-in bots that read only the question are kept by id. A module of bots imported
    again freed its old functions while their ids stayed marked, so a user's bot made later at one of those
    ids was handed a view without seats (a full run saw the hostile-bot test above fail so). The marks hold
    their bots: a marked bot outlives its module, and an id marked names that bot alone."""
    import gc
    import importlib.util
    import weakref

    from cardgame.play import bot as bot_module
    from cardgame.play import bots as bots_module

    spec = importlib.util.spec_from_file_location("cardgame_bots_imported_again", bots_module.__file__)
    assert spec is not None and spec.loader is not None
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)
    marked = weakref.ref(again.random_bot)
    del again
    gc.collect()
    assert marked() is not None  # held by its mark: its id cannot be another object's
    assert all(bot_module._QUESTION_ONLY[key] is not None and id(bot_module._QUESTION_ONLY[key]) == key
               for key in bot_module._QUESTION_ONLY)
