"""What the table server's views cost a decision, counted rather than timed.

On a shared machine a timed run moves by half or more with the load; a count does not. This plays
``benchmarks/server.py``'s tables (heads-up NT, blinds 1/2, every seat a person's connection with a
200 buy-in, topped up when broke) on a :class:`~cardgame.server.host.TableHost` as ``cardgame serve``
drives one: each decision is a client's ``act`` message answered like the load generator's bot (check
or call, a minimum raise one time in ten, a fold to a bet one time in ten), and each message a
connection is handed is turned into the text it sends (:func:`~cardgame.server.host.message_text`).
It counts, per decision, the Python bytecode instructions and calls run by the table's
:meth:`~cardgame.server.host.TableHost.refresh` (building and encoding every connection's view) and by
the rest of handling the message (checking it, the engine). ``--top N`` lists the functions of the
views, and of the rest, running the most instructions.

    python benchmarks/view_counts.py                   # 2000 decisions after 200
    python benchmarks/view_counts.py --watchers 1 --top 20
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from server import answer  # noqa: E402

from cardgame.server.config import read_config  # noqa: E402
from cardgame.server.host import Client, TableHost, message_text  # noqa: E402
from cardgame.server.messages import read_message  # noqa: E402
from cardgame.store.serialize import encoded_json  # noqa: E402

BUY_IN = 200


def run(decisions: int, warm: int, seed: int, watchers: int) -> tuple[Counter[str], Counter[str], Counter[str], int]:
    """Instructions and calls of the views by function, instructions of the rest by function, and the
    decisions counted."""
    rng = random.Random(seed)
    config = read_config({"variant": "NT", "seats": 2, "min_buy_in": BUY_IN, "max_buy_in": BUY_IN,
                          "action_time": 300, "time_bank": 0, "name": "load", "seed": seed})
    host = TableHost("t", config)
    texts: dict[Client, list[str]] = {}

    def connect() -> Client:
        client = Client(lambda message: texts[client].append(message_text(message)))
        texts[client] = []
        host.connect(client)
        return client

    players = [connect() for _ in range(2)]
    for _ in range(watchers):
        connect()
    for seat, client in enumerate(players):
        host.handle(client, read_message(json.dumps({"type": "sit", "name": f"p{seat}", "buy_in": BUY_IN,
                                                     "seat": seat})))
    counts: dict[str, Counter[str]] = {"views": Counter(), "calls": Counter(), "rest": Counter(), "store": Counter()}
    phase = ["rest"]

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"
        if phase[0] == "views":
            counts["calls"][where] += 1
        frame.f_trace_opcodes = True

        def step(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                counts[phase[0]][where] += 1
            return step

        return step

    def record(event: Any) -> None:  # the store's recorder encodes each event first, as in the server
        was, phase[0] = phase[0], "store"
        encoded_json(event)
        phase[0] = was

    host.game.subscribe(record)
    refresh = TableHost.refresh

    def counted(self: TableHost) -> None:
        was, phase[0] = phase[0], "views"
        try:
            refresh(self)
        finally:
            phase[0] = was

    TableHost.refresh = counted  # type: ignore[method-assign]
    done = 0
    try:
        for n in range(warm + decisions):
            for seat, client in enumerate(players):  # a broke seat buys in again, as the generator's do
                player = host.game.table.seats[seat]
                if player is not None and player.stack == 0 and (host.game.hand is None
                                                                 or seat not in host.game.hand.by_seat):
                    host.handle(client, read_message(json.dumps({"type": "top_up", "amount": BUY_IN})))
                    host.handle(client, read_message('{"type": "sit_in"}'))
            seat = host.game.to_act
            assert seat is not None
            view = json.loads(texts[players[seat]][-1])
            message = read_message(json.dumps(answer(view["question"], view["seq"], rng, 0.1, 0.1)))
            if n < warm:
                host.handle(players[seat], message)
                continue
            sys.settrace(trace)
            try:
                host.handle(players[seat], message)
            finally:
                sys.settrace(None)
            done += 1
    finally:
        TableHost.refresh = refresh  # type: ignore[method-assign]
    views, calls, rest = counts["views"], counts["calls"], counts["rest"]
    return views, calls, rest, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=2000, help="decisions counted (default 2000)")
    parser.add_argument("--warm", type=int, default=200, help="decisions played first, not counted (default 200)")
    parser.add_argument("--watchers", type=int, default=0, help="spectators' connections besides the two players'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=0, help="list the N functions of the views, and of the "
                                                          "rest, running the most instructions")
    opts = parser.parse_args(argv)
    views, calls, rest, n = run(opts.decisions, opts.warm, opts.seed, opts.watchers)
    print(f"{n} decisions, {2 + opts.watchers} connections: per decision")
    print(f"  views (refresh): {sum(views.values()) / n:10,.0f} instructions {sum(calls.values()) / n:8.1f} calls")
    print(f"  the rest:        {sum(rest.values()) / n:10,.0f} instructions")
    for where, done in views.most_common(opts.top):
        print(f"  {done / n:8.1f} instructions {calls[where] / n:6.2f} calls  {where}")
    if opts.top:
        print("  the rest's functions running the most instructions:")
    for where, done in rest.most_common(opts.top):
        print(f"  {done / n:8.1f} instructions  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
