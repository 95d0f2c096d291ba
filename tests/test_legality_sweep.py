"""Every source of legality agrees: at random decision points of every variant, each amount from 0 to
a few chips past the stack (and hostile ones) is asked of ``Game.can_*``, of the bots' menu
(``LegalActions``), of the RL masks, and played with ``act`` on a copy; the answers must agree, and
a refused action must leave the game exactly as it was.

``python -m tests.test_legality_sweep --points 200`` runs a larger sweep and prints its count.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from typing import Any

import pytest

import variants
from cardgame import CardgameError
from cardgame.model.betting import LegalActions
from cardgame.play.game import Game
from cardgame.rl.actions import FixedLimit, PotFractions, RaiseTo, send

HOSTILE: tuple[Any, ...] = (-1, -(10**18), 10**18, 10**19, 10**400, True, False, 2.0, "4", b"4", [4], object())
NAMES = [v.name for v in variants.available()]
RUN_IT_TWICE = "no-limit hold'em, run it twice"
#: Each registered variant with its defaults, and one that asks for run-out choices.
CASES: dict[str, tuple[str, dict[str, Any]]] = {name: (name, {}) for name in NAMES}
CASES[RUN_IT_TWICE] = ("no-limit hold'em", {"run_it_twice": True})


def fingerprint(game: Game) -> tuple[Any, ...]:
    """What a refused action must leave as it was: the stage and its state, every stack and hand, the log."""
    hand = game.hand
    players = () if hand is None else tuple(
        (hp.seat, hp.bet, hp.contributed, hp.folded, hp.all_in, hp.acted_at, tuple(hp.hole)) for hp in hand.players)
    stage = game.stage
    record = getattr(stage, "street_record", None)
    return (id(stage), getattr(stage, "state", None), game.to_act, len(game.events), players, record,
            tuple((p.seat, p.stack) for p in game.table.players()), game.status_name)


def takes(game: Game, method: Any, *args: Any) -> bool:
    """Whether ``game.<method>(*args)`` (or ``method(game, *args)``) is taken (``game`` then changed); a refusal
    must be the library's own error, short, changing nothing."""
    before = fingerprint(game)
    try:
        getattr(game, method)(*args) if isinstance(method, str) else method(game, *args)
    except CardgameError as exc:
        assert len(str(exc)) <= 700, str(exc)[:200]
        assert fingerprint(game) == before, (method, args)
        return False
    return True


def accepted(game: Game, seat: int, kind: str, amount: object) -> bool:
    """Whether ``act`` takes the action (see :func:`takes`)."""
    return takes(game, "act", seat, kind, amount)


def menu_allows(la: LegalActions, kind: str, amount: object) -> bool:
    """The bots' menu: what ``LegalActions`` says a bet or raise to ``amount`` is."""
    if type(amount) is not int or (kind == "bet") != la.is_bet:
        return False
    return la.allows_raise_to(amount)


def decision_points(name: str, points: int, seed: int) -> Iterator[Game]:
    """Games of ``name`` at random betting decisions (random stacks, so short and all-in players come up)."""
    rng = random.Random(f"{name}/{seed}")
    variant_name, params = CASES[name]
    variant = variants.get(variant_name)
    found = 0
    game_seed = seed
    while found < points:
        game_seed += 1
        players = min(variant.max_players, rng.choice((2, 2, 3, 4, 6)))
        game = Game(variant, params=params, seats=players, seed=game_seed, max_hands=3)
        for i in range(players):
            game.sit_down(f"p{i}", rng.choice((1, 2, 3, 5, 8, 13, 20, 40, 60)))
        game.start()
        for _ in range(200):
            seat = game.to_act
            if seat is None:
                break
            la = game.legal_actions()
            if rng.random() < 0.3:
                found += 1
                yield game
                if found >= points:
                    return
            play_something(game, seat, la, rng)


def play_something(game: Game, seat: int, la: LegalActions | None, rng: random.Random) -> None:
    """A random legal move: a draw, a run-out choice, or a betting action."""
    opts = game.draw_options()
    if opts is not None:
        hole = list(opts.hole)
        rng.shuffle(hole)
        game.draw(seat, hole[: opts.min_discards + rng.randrange(opts.max_discards - opts.min_discards + 1)])
        return
    runs = game.run_options()
    if runs is not None:
        game.choose_runs(seat, 1 + rng.randrange(runs.max_runs))
        return
    assert la is not None
    choices: list[tuple[str, int | None]] = [("call", None), ("all_in", None)]
    if la.bring_in:
        choices.append(("bring_in", None))
    if la.can_fold and not la.bring_in:
        choices.append(("fold", None))
    if la.can_raise:
        choices += [("bet_raise", la.min_raise_to), ("bet_raise", la.max_raise_to)]
    for kind, amount in rng.sample(choices, len(choices)):
        try:
            game.act(seat, kind, amount)
            return
        except CardgameError:
            continue
    raise AssertionError(f"no legal move found: {la}")


def sweep(name: str, points: int, seed: int = 0) -> tuple[int, list[str]]:
    """``(amounts asked, disagreements)`` at ``points`` decision points of ``name``."""
    asked = 0
    found: list[str] = []
    for game in decision_points(name, points, seed):
        asked += sweep_table(game, found, name)
        la = game.legal_actions()
        if la is None:
            asked += sweep_draw_or_runs(game, found, name)
            continue
        seat = la.seat
        most = la.stack + (game.hand.by_seat[seat].bet if game.hand is not None else 0)
        amounts: list[object] = [*range(most + 4), *HOSTILE]
        chips = sum(p.stack for p in game.table.players()) + game.hand.pot_total()
        masks = [(a, a.mask(game)) for a in (FixedLimit(), PotFractions(), RaiseTo(chips))]
        probe = game.copy()
        # the amount-less actions
        for kind, can in (("fold", game.can_fold), ("check", game.can_check), ("call", game.can_call)):
            asked += 1
            ok = accepted(probe, seat, kind, None)
            if ok:
                probe = game.copy()
            if can(seat) != ok:
                found.append(f"{name}: {kind} can={can(seat)} act={ok} {la}")
        # every amount, as a bet and as a raise
        for kind, can in (("bet", game.can_bet), ("raise", game.can_raise_to)):
            some = False
            for amount in amounts:
                asked += 1
                ok = accepted(probe, seat, kind, amount)
                some = some or ok
                if ok:
                    probe = game.copy()
                try:
                    said = can(seat, amount)  # type: ignore[arg-type]
                except CardgameError:
                    said = False
                menu = menu_allows(la, kind, amount)
                if not said == menu == ok:
                    found.append(f"{name}: {kind} {str(amount)[:20]} can={said} menu={menu} act={ok} {la}")
            asked += 1
            if can(seat) != some:  # no amount: whether some amount is accepted
                found.append(f"{name}: {kind} (any amount) can={can(seat)} act={some} {la}")
        # the bots' menu: the random bot's smallest and largest raise are legal
        if la.can_raise:
            for to in (la.min_raise_to, max(la.amounts) if la.amounts else la.max_raise_to):
                asked += 1
                if not game.may(seat, "bet" if la.is_bet else "raise", to):
                    found.append(f"{name}: the menu's raise to {to} is refused {la}")
        # every index of each RL abstraction: marked exactly when playing it is accepted
        for abstraction, mask in masks:
            for index in range(abstraction.n):
                asked += 1
                try:
                    move = abstraction.decode(index, game)
                except CardgameError:
                    move = None
                ok = move is not None and takes(probe, send, seat, move)
                if ok:
                    probe = game.copy()
                if bool(mask[index]) != ok:
                    found.append(f"{name}: {type(abstraction).__name__} index {index} mask={mask[index]} act={ok} {la}")
    return asked, found


def sweep_table(game: Game, found: list[str], name: str) -> int:
    """A muck by every seat (and hostile ones): ``can_muck`` agrees with ``muck``, a refusal changes nothing."""
    asked = 0
    probe = game.copy()
    for seat in [*range(len(game.table.seats) + 1), -1, True, None, "0", 10**30]:
        asked += 1
        ok = takes(probe, "muck", seat)
        if ok:
            probe = game.copy()
        if game.can_muck(seat) != ok:  # type: ignore[arg-type]
            found.append(f"{name}: muck {seat!r} can={game.can_muck(seat)} act={ok}")  # type: ignore[arg-type]
    return asked


def sweep_draw_or_runs(game: Game, found: list[str], name: str) -> int:
    """Every discard (each subset of the hand, and hostile ones) or every run-out count: ``can_draw`` /
    ``can_choose_runs``, the RL mask and playing it agree."""
    asked = 0
    seat = game.to_act
    assert seat is not None
    opts = game.draw_options()
    abstraction = PotFractions(draw_cards=8, max_runs=4)
    mask = abstraction.mask(game)
    probe = game.copy()
    if opts is not None:
        hole = list(opts.hole)
        choices: list[Any] = [[c for i, c in enumerate(hole) if bits >> i & 1] for bits in range(2 ** len(hole))]
        hostile: list[Any] = ["Ah", [hole[0], hole[0]], [99], ["Zz"], None, [None], [str(hole[0])], 5]
        for index, discards in enumerate(choices + hostile):
            asked += 1
            ok = takes(probe, "draw", seat, discards)
            if ok:
                probe = game.copy()
            can = game.can_draw(seat, discards)
            marked = bool(mask[index]) if index < len(choices) else ok
            if not can == ok == marked:
                found.append(f"{name}: draw {str(discards)[:40]} can={can} mask={marked} act={ok} {opts}")
        return asked
    runs = game.run_options()
    assert runs is not None
    for count in [*range(-1, runs.max_runs + 3), True, None, "1", 1.0, 10**30]:
        asked += 1
        ok = takes(probe, "choose_runs", seat, count)
        if ok:
            probe = game.copy()
        can = game.can_choose_runs(seat, count)  # type: ignore[arg-type]
        marked = bool(mask[count - 1]) if type(count) is int and 1 <= count <= abstraction.n else ok
        if not can == ok == marked:
            found.append(f"{name}: runs {str(count)[:20]} can={can} mask={marked} act={ok} {runs}")
    return asked


@pytest.mark.parametrize("name", list(CASES))
def test_every_source_of_legality_agrees(name: str) -> None:
    asked, found = sweep(name, 12)
    assert asked > 0
    assert not found, f"{len(found)} of {asked} disagree:\n" + "\n".join(found[:20])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=100, help="decision points per variant")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    total = disagreements = 0
    for name in CASES:
        asked, found = sweep(name, args.points, args.seed)
        total += asked
        disagreements += len(found)
        print(f"{name}: {asked} asked, {len(found)} disagreements")
        for line in found[:5]:
            print("   ", line)
    print(f"total: {total} asked, {disagreements} disagreements")


if __name__ == "__main__":
    main()


# --- the disagreements the sweep found, pinned ------------------------------------------------------------------


def test_can_raise_to_refuses_a_size_between_the_fixed_sizes() -> None:
    """Razz and stud: where the rules give two sizes (the completion and an all-in, an open pair's small and big
    bet), ``can_raise_to`` said yes to the amounts between them, which ``act`` refuses."""
    for name in ("razz", "seven-card stud"):
        for game in decision_points(name, 400, 1):
            la = game.legal_actions()
            if la is None or len(la.amounts) < 2 or la.amounts[1] - la.amounts[0] < 2:
                continue
            between = la.amounts[0] + 1
            kind, can = ("bet", game.can_bet) if la.is_bet else ("raise", game.can_raise_to)
            assert not can(la.seat, between), (name, la)
            assert can(la.seat, la.amounts[0]) and can(la.seat, la.amounts[1])
            assert not accepted(game.copy(), la.seat, kind, between)
            break
        else:
            raise AssertionError(f"no decision with two fixed sizes in {name}")


def test_can_fold_says_yes_to_a_fold_with_a_free_check() -> None:
    """A fold when checking is free is legal and binding (docs/rules.md): ``can_fold`` said no."""
    for game in decision_points("no-limit hold'em", 200, 2):
        la = game.legal_actions()
        if la is not None and la.can_check:
            assert game.can_fold(la.seat) and not la.can_fold  # LegalActions.can_fold: a bet is owed
            assert accepted(game.copy(), la.seat, "fold", None)
            return
    raise AssertionError("no free check found")


def test_a_refusal_names_the_first_rule_that_fails() -> None:
    """Out of turn and a bad amount: the turn is judged first, as the trigger's conditions are declared."""
    for game in decision_points("no-limit hold'em", 50, 3):
        la = game.legal_actions()
        if la is None or not la.can_raise:
            continue
        other = next(s for s in game.hand.by_seat if s != la.seat)
        kind = "bet" if la.is_bet else "raise"
        with pytest.raises(CardgameError) as info:
            game.act(other, kind, 2.5)
        assert getattr(info.value, "rule", None) == "acting out of turn"
        with pytest.raises(CardgameError) as info:
            game.act(la.seat, kind, 2.5)
        assert getattr(info.value, "rule", None) == "amount missing"
        assert not game.may(la.seat, kind, 2.5) and not game.may(other, kind, la.min_raise_to)
        return
    raise AssertionError("no raise found")
