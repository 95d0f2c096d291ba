"""What the bot interface costs per bot decision, counted rather than timed.

Counts the Python bytecode instructions executed inside :func:`cardgame.play.bot.decide` per bot
decision: ``interface`` is the view, the events, the bot and the answer's translation; ``game`` is the
game's own work it asks for (the question: ``legal_actions``, ``draw_options``, ...; playing the
answer: ``act``, ``draw``, ...), which the engine's counts cover. Workloads: ``single``, a
``SingleAgentEnv`` of heads-up Leduc against the ``random`` bot (the learner plays random legal
actions); ``play``, :meth:`Game.play` of random bots in limit hold'em (2 and 6 players) and triple draw,
and of a bot of the user's own that reads the seats and the events (``random_bot`` inside).
Compare two checkouts by running it in each; the counts are the same from run to run.

    python benchmarks/bot_counts.py [--decisions 3000]
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import variants  # noqa: E402
from cardgame import Game  # noqa: E402
from cardgame.play import bot as bot_module  # noqa: E402
from cardgame.play.bots import random_bot  # noqa: E402

_GAME_METHODS = ("act", "draw", "choose_runs", "show", "muck", "legal_actions", "draw_options", "run_options",
                 "show_options")


def counted(run: Callable[[], Any]) -> tuple[Counter[str], int]:
    """Instructions executed inside ``decide`` by kind (``interface``, ``game``), and the decisions. A
    ``SingleAgentEnv`` asks its built-in bots a betting question without ``decide``: their answer
    (``bots._random_bet``...) and ``bot._play_answer`` count as the interface there, each
    ``_play_answer`` a decision."""
    decide = bot_module.decide.__code__
    entries = {decide, bot_module._play_answer.__code__}  # a decision begins (at the top: not inside decide)
    answers = {fn.__code__ for fn in set(bot_module._BETTING.values())}  # built-in answers asked without a view
    game_codes = {getattr(Game, name).__code__ for name in _GAME_METHODS}
    ops: Counter[str] = Counter()
    modes: dict[FrameType, str] = {}
    decisions = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal decisions
        code = frame.f_code
        parent = modes.get(frame.f_back) if frame.f_back is not None else None
        if code in entries and parent is None:
            mode = "interface"
            decisions += 1
        elif code in answers and parent is None:
            mode = "interface"
        elif parent == "interface" and code in game_codes:
            mode = "game"
        elif parent is None:
            return None
        else:
            mode = parent
        modes[frame] = mode
        frame.f_trace_opcodes = True
        where = f"  {code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"

        def step(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                ops[mode] += 1
                if mode == "interface":
                    ops[where] += 1
            elif event == "return":
                modes.pop(frame, None)
            return step

        return step

    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(None)
    return ops, decisions


def single(decisions: int) -> Callable[[], Any]:
    from cardgame.rl.gym import SingleAgentEnv

    env = SingleAgentEnv("leduc hold'em", opponents="random")
    rng = random.Random(1)
    env.reset(seed=1)

    def run() -> None:
        obs, _ = env.reset(seed=1)
        for _ in range(decisions):
            mask = obs["action_mask"]
            obs, _, done, _, _ = env.step(rng.choice([i for i, m in enumerate(mask) if m]))
            if done:
                obs, _ = env.reset()

    return run


def user_bot(view: Any) -> Any:
    """``random_bot`` as a bot of the user's own, reading its seat's row and the hand's events: a view
    copying both."""
    assert view.me.seat == view.seat and view.history
    return random_bot(view)


def play(code: str, players: int, decisions: int, bot: Callable[[Any], Any] = random_bot) -> Callable[[], Any]:
    def run() -> None:
        v = variants.get(code)
        game = Game(v.build(), seats=players, seed=1, deck=v.deck)
        for i in range(players):
            game.sit_down(f"p{i}", 10**9)
        game.start()
        game.play(bot, max_actions=decisions)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=3_000, help="decisions counted per workload")
    parser.add_argument("--top", type=int, default=0, help="list the N functions of the interface executing the most")
    args = parser.parse_args(argv)
    workloads = {
        "single leduc (random bot)": single(args.decisions),
        "play FT, 2 random bots": play("FT", 2, args.decisions),
        "play FT, 6 random bots": play("FT", 6, args.decisions),
        "play F2L3D, 6 random bots": play("F2L3D", 6, args.decisions),
        "play FT, 6 user bots": play("FT", 6, args.decisions, user_bot),
        "play F2L3D, 6 user bots": play("F2L3D", 6, args.decisions, user_bot),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, run in workloads.items():
            ops, n = counted(run)
            print(f"{name:<26} {ops['interface'] / n:7.0f} interface {ops['game'] / n:7.0f} game instructions "
                  f"per bot decision ({n} decisions)")
            top = [(where, done) for where, done in ops.most_common() if where.startswith("  ")][: args.top]
            for where, done in top:
                print(f"{done / n:8.1f} {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
