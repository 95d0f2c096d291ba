"""The hot path's hand-written shortcuts do what the readable path does, checked by playing.

Four places copy a readable call in line because every action takes them: ``Dispatcher.send`` runs
``Stage.handle``'s body in line, ``Game.act`` runs ``Game.to_act`` and ``Game._send`` in line,
``Game.legal_actions`` runs ``Game._ask("legal_actions")`` in line, and ``BettingRound.on_act`` calls the
class's generated trigger functions (``BettingRound.acts``; and every stage starts through its generated
``start``) instead of ``Stage.trigger`` and ``Stage.start``; those generated functions have the bodies of the
callbacks and conditions they can fuse written in line (``cardgame.engine.machine.Fusion``), the triggers
those callbacks fire too (``pass_turn``'s ``acted``), which
``cardgame.engine.verify``'s recording classes do not reach. Here the same random games (every action kind,
aliases, illegal actions, wrong seats, table events mid-hand, draws and run-it-twice choices) are played
twice: once as the library runs them, once on the readable path, where those four methods are the plain
calls they copy and every trigger and every start is fired by ``transitions`` itself
(``cls.machine.events[trigger].trigger``: ``verify.by_transitions`` and ``verify.check_play``). After each
step the answer (the event returned, or the error's type and message), the legal actions, the log, the stacks
and the stage must agree.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

import pytest

import variants
from cardgame import Game
from cardgame.engine import Dispatcher, Stage
from cardgame.engine.errors import CardgameError
from cardgame.engine.outcomes import Done
from cardgame.engine.verify import by_transitions, check_play, readable_dispatcher
from cardgame.model.errors import IllegalActionError
from cardgame.stages.betting_round import ACTIONS, KINDS, BettingRound

GAMES = 12  # random games per variant
STEPS = 160  # calls into each game


def _readable_act(self: Game, seat: int, action: str, amount: int | None = None) -> Any:
    """``Game.act`` as the calls it copies: ``self.to_act``, then ``self._send``."""
    d = self.dispatcher
    if d.status == "running" and self.to_act is None:
        where = f" (the game is in the {d.current.name} stage)" if d.current is not None else ""
        raise IllegalActionError(f"No player is to act now{where}.", rule="no action pending")
    return self._send("act", seat, action, amount)


def _readable_legal_actions(self: Game) -> Any:
    return self._ask("legal_actions")


@contextmanager
def _readable() -> Iterator[None]:
    """The readable path: the in-line copies replaced by the calls they copy (and, with
    ``verify.by_transitions``, every stage class's generated triggers and start by ``transitions``)."""
    saved = Game.act, Game.legal_actions
    Game.act, Game.legal_actions = _readable_act, _readable_legal_actions  # type: ignore[method-assign]
    try:
        with readable_dispatcher():
            yield
    finally:
        Game.act, Game.legal_actions = saved  # type: ignore[method-assign]


@pytest.fixture
def readable() -> Iterator[None]:
    with _readable(), by_transitions():
        yield


def _state(game: Game) -> tuple[Any, ...]:
    hand = game.hand
    players = () if hand is None else tuple(
        (hp.seat, hp.bet, hp.contributed, hp.folded, hp.all_in, hp.acted_at, tuple(hp.hole)) for hp in hand.players)
    stage = game.stage
    return (game.status_name, None if stage is None else (type(stage).__name__, stage.state), game.to_act,
            tuple((p.seat, p.stack, p.sitting_out) for p in game.table.players()), players,
            None if hand is None else tuple(hand.board), game.ctx.hands_played)


def _answer(call: Callable[[], Any]) -> tuple[Any, ...]:
    try:
        return ("returned", call())
    except CardgameError as exc:
        return ("raised", type(exc), str(exc))
    except ZeroDivisionError:  # the failing hook's: the game failed
        return ("failed",)


def _step(game: Game, rng: random.Random) -> tuple[Any, ...]:
    """One random call into ``game``: mostly a legal decision, sometimes an illegal or odd one."""
    seats = [p.seat for p in game.table.players()]
    roll = rng.random()
    if roll < 0.03 and seats:  # table events mid-hand go through send as well
        seat = rng.choice(seats)
        what = rng.choice(["sit_out", "sit_in", "top_up"])
        if what == "top_up":
            return _answer(lambda: game.top_up(seat, rng.choice([1, 50, 10**30])))
        return _answer(lambda: getattr(game, what)(seat))
    draw, runs, legal = game.draw_options(), game.run_options(), game.legal_actions()
    if draw is not None:
        n = rng.randint(0, min(draw.max_discards, len(draw.hole)))
        return _answer(lambda: game.draw(draw.seat, rng.sample(range(len(draw.hole)), n)))
    if runs is not None:
        return _answer(lambda: game.choose_runs(runs.seat, rng.randint(0, runs.max_runs + 1)))
    if legal is None:
        return _answer(lambda: game.act(rng.choice(seats) if seats else 0, "check"))
    seat = legal.seat
    if roll < 0.12:  # illegal or odd: another seat, a bool, a huge amount, an unknown action
        seat = rng.choice([*seats, True, "1", -1, 99])
    action = rng.choice(ACTIONS if roll < 0.3 else ("fold", "check", "call", "bet", "raise", "all_in"))
    if roll < 0.2:
        action = rng.choice([action, "shove", 3, None])
    amount = None
    if action in ("bet", "raise", "bet_raise") or rng.random() < 0.05:
        lo, hi = legal.min_raise_to, legal.max_raise_to
        amount = rng.choice([lo, hi, rng.randint(lo, max(lo, hi)), lo - 1, hi + 1, 10**40, 2.5, True])
    if action == "check" and legal.call_amount:
        action = rng.choice(["call", "check", "fold"])
    return _answer(lambda: game.act(seat, action, amount))  # type: ignore[arg-type]


def _play(name: str, players: int, seed: int, params: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    game = Game(variants.get(name), params=params or None, seats=players, seed=seed, keep_hands=None,
                max_hands=3 if seed % 4 == 1 else None)
    for i in range(players):
        game.sit_down(f"p{i}", 60 + 37 * i, i)
    if seed % 4 == 2:  # a hook that fails the game in the middle of a hand: later calls are refused alike
        events = iter(range(40 + seed))
        game.hook(lambda event: next(events, None) is not None or 1 / 0)
    game.start()
    rng = random.Random(f"{name}/{seed}")
    for _ in range(STEPS):
        answer = _step(game, rng)
        yield answer, game.legal_actions(), _state(game), len(game.events)
    yield ("log",), game.events


VARIANTS = [
    ("NT", 2, {}), ("NT", 6, {}), ("NT", 3, {"run_it_twice": True}), ("FT", 4, {}), ("PO", 3, {}),
    ("F7S", 4, {}), ("F2L3D", 3, {}), ("short-deck hold'em", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "params"), VARIANTS, ids=[f"{v[0]}-{v[1]}" for v in VARIANTS])
def test_fast_paths_play_as_the_readable_path(name: str, players: int, params: dict[str, Any]) -> None:
    answers: set[str] = set()

    def play(seed: int) -> Iterator[tuple[Any, ...]]:
        for seen in _play(name, players, seed, params):
            answers.add(seen[0][0])
            yield seen

    for seed in range(GAMES):
        with _readable():  # the readable kernel and Game calls, the generated functions
            assert check_play(lambda: play(seed)) > 1  # noqa: B023  (called at once)
    assert {"returned", "raised"} <= answers  # both legal and refused calls were compared


def test_the_readable_game_calls_are_compared_too() -> None:
    """``check_play`` compares generated against transitions; the in-line ``Dispatcher.send``, ``Game.act``
    and ``Game.legal_actions`` against the calls they copy, on the same games."""
    for name, players, params in VARIANTS[:3]:
        for seed in range(4):
            fast = list(_play(name, players, seed, params))
            with _readable(), by_transitions():
                assert list(_play(name, players, seed, params)) == fast


def test_the_readable_path_is_really_taken(readable: None) -> None:
    """The fixture replaces the shortcuts: a generated function is no longer what a stage runs."""
    game = Game(variants.get("NT"), seats=2, seed=1)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    game.start()
    stage = game.stage
    assert stage is not None and type(stage).start is Stage.start
    assert not getattr(type(stage).start, "generated", False)
    assert Game.legal_actions is _readable_legal_actions
    assert Dispatcher.send.__name__ == "_readable_send"  # verify.readable_dispatcher
    # the betting round's table of action triggers (on_act's one lookup) is derived from the readable triggers
    assert set(BettingRound.acts) == {("waiting_for_action", kind) for kind in KINDS}
    assert all(fn is BettingRound.fast[key] and fn.__name__ == "<lambda>" for key, fn in BettingRound.acts.items())


def test_the_action_table_is_the_generated_triggers() -> None:
    """``BettingRound.acts`` holds the generated trigger functions, the readable ones inside ``by_transitions``,
    and the generated ones again after it."""
    generated = dict(BettingRound.acts)
    assert set(generated) == {("waiting_for_action", kind) for kind in KINDS}
    assert all(fn is BettingRound.fast[key] and fn.__name__ == "fire" for key, fn in generated.items())
    with by_transitions([BettingRound]):
        assert all(BettingRound.acts[key] is BettingRound.fast[key] is not fn for key, fn in generated.items())
    assert BettingRound.acts == generated


class _Counter(Stage[Any]):
    """A kernel stage whose callbacks are of every kind :class:`~cardgame.engine.machine.Fusion` meets."""

    name = "counter"
    states: ClassVar[list[str]] = ["ready", "counting", "done"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "counting", "after": "reset"},
        {"trigger": "add", "source": "counting", "dest": None, "conditions": ["small", "one_over_three", "positive"],
         "before": ["add_up", "rebind", "early", "listed"]},
        {"trigger": "stop", "source": "counting", "dest": "done"},
        # fired by add_up (a nested trigger, written in line in add's generated function): the first step whose
        # condition holds is taken, the next candidates are tried in turn
        {"trigger": "tally", "source": "counting", "dest": None, "conditions": "even", "after": "note_even"},
        {"trigger": "tally", "source": "counting", "dest": None, "unless": "big", "after": "note_odd"},
        {"trigger": "tally", "source": "counting", "dest": None},
    ]
    ends: ClassVar[dict[str, str]] = {"done": "counted"}
    events: ClassVar[tuple[str, ...]] = ("add", "stop")
    __slots__ = ("seen", "total")

    def reset(self) -> None:
        self.total = 0
        self.seen: list[int] = []

    def small(self, n: int) -> bool:  # one return: fused as an expression
        return n < 100

    def one_over_three(self, n: int) -> int:  # fused, compared with True (2 is true but is not True: refused)
        return n % 3

    def positive(self, n: int) -> bool:  # two statements: called
        ok = n > 0
        return ok

    def add_up(self, n: int) -> None:  # fused, and the trigger it fires too
        self.total += n
        if n != 4:
            self.trigger("tally")

    def even(self) -> bool:
        return self.total % 2 == 0

    def big(self) -> bool:
        return self.total > 150

    def note_even(self) -> None:
        self.seen.append(0)

    def note_odd(self) -> None:
        self.seen.append(1)

    def rebind(self, n: int) -> None:  # reassigns its parameter: called, so the next callback sees the argument
        n = n * 2
        self.seen.append(n)

    def early(self, n: int) -> None:  # a return before the end: called
        if n % 2:
            return
        self.seen.append(-n)

    def listed(self, n: int) -> None:  # a comprehension, another scope: called
        self.seen.extend([n for _ in range(2)])

    def counted(self) -> Done:
        return Done(self.total)

    def on_add(self, n: Any) -> None:
        if not self.trigger("add", n):
            raise self.refusal("add", n)

    def on_stop(self) -> None:
        self.trigger("stop")


class _Last(Stage[Any]):
    name = "last"
    ends: ClassVar[dict[str, str]] = {"done": "exited"}
    __slots__ = ()


class _Log:
    def __init__(self) -> None:
        self.log: list[Any] = []

    def emit(self, event: Any) -> None:
        self.log.append(event)


def test_what_is_fused_and_what_is_called() -> None:
    """Only what reads the same in line is written in line; the generated source says which."""
    import linecache

    source = "".join(linecache.getlines(_Counter.fast[("counting", "add")].__code__.co_filename))  # type: ignore[union-attr]
    names = ("positive", "add_up", "rebind", "early", "listed")
    fused = {name for name in names if f"_Counter.{name}, in line" in source}
    assert fused == {"add_up"}, source
    # small, as an expression (a comparison: a bool, used as it is); one_over_three compared; positive, called
    assert "if (a0 < 100) and (a0 % 3) == True and f" in source
    # add_up's nested trigger, in line in the state that has it (its candidates tried in turn), called elsewhere
    one = source.split("\n        if not a:\n")[1].split("\n        f")[0]
    nested = one.split("# m.trigger('tally'), in line")[1]
    assert re.search(r"if m.state == 'counting':\s+if \(m.total % 2 == 0\):\s+# _Counter.note_even, in line\s+"
                     r"m.seen.append\(0\)\s+else:\s+if not \(m.total > 150\):\s+# _Counter.note_odd, in line", nested)
    assert "else:\n                        m.trigger('tally')" in nested, nested
    for name in ("reset",):  # the start's after callback
        assert f"_Counter.{name}, in line" in "".join(linecache.getlines(_Counter.start.__code__.co_filename))
    for cls in (BettingRound,):  # every action of the betting round runs in one frame: nothing called
        for kind in KINDS:
            text = "".join(linecache.getlines(cls.fast[("waiting_for_action", kind)].__code__.co_filename))  # type: ignore[union-attr]
            assert "\n        if not a:\n" in text
            one = text.split("\n        if not a:\n")[1].split("\n        f")[0]
            assert re.search(r"\bf\d+\(m, a0\)", one) is None, (kind, one)
            if kind in ("fold", "call"):  # acts_in_turn's isinstance tests give a bool: used as they are
                assert "== True" not in one and "isinstance(a0.seat, int)" in one, (kind, one)


def test_a_kernel_stage_fused_plays_as_transitions_does() -> None:
    def play() -> Iterator[Any]:
        rng = random.Random(3)
        d = Dispatcher([_Counter(), _Last()], _Log())
        d.start()
        for _ in range(60):
            n = rng.choice([1, 2, 4, 5, 97, 99, 100, -3, 0])
            try:
                d.send("add", n)
                yield "added", n
            except CardgameError as exc:
                yield type(exc), str(exc)
            stage = d.current
            yield stage.state, getattr(stage, "total", None), list(getattr(stage, "seen", []))
        d.send("stop")
        yield d.status

    assert check_play(play, [_Counter, _Last]) == 121


def test_fused_bodies_leave_out_their_assertions() -> None:
    """A callback's ``assert`` statements (the type checker's narrowing) are not written in line, as ``python -O``
    leaves them out: the betting round's callbacks hold several, its generated triggers none (a block left with
    nothing else holds ``pass``), and the game still plays as the readable path (the tests above)."""
    import inspect
    import linecache

    assert "assert st is not None" in inspect.getsource(BettingRound.find_next_actor)
    assert "assert hand is not None" in inspect.getsource(BettingRound.settle_street)
    for key in (("waiting_for_action", kind) for kind in KINDS):
        text = "".join(linecache.getlines(BettingRound.fast[key].__code__.co_filename))  # type: ignore[union-attr]
        assert "# BettingRound.find_next_actor, in line" in text and "assert " not in text, text
    start = "".join(linecache.getlines(BettingRound.start.__code__.co_filename))
    assert "# BettingRound.settle_street, in line" in start and "assert " not in start, start
