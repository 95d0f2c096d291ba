"""A stand-in for the reference's example player, to time the dealer rather than the players.

    python benchmarks/acpc_player.py GAME HOST PORT [SEED]

The ACPC reference's example players are small C programs: they read each match state, and when
they are to act answer with a random valid action. They are not available here, so this does
the same in a few lines of Python (a blocking socket, no engine): it walks each line's betting
with the game's rules (blinds, ``firstPlayer``, raise sizes and caps, stacks) to find the player
to act and the valid actions, and picks fold, call or raise uniformly among them (a no-limit raise
to a uniform size in range). ``cardgame acpc client`` instead replays every hand on the engine
and asks a bot, which costs as much as the dealer's own work.
"""

from __future__ import annotations

import random
import socket
import sys

from cardgame.acpc.gamedef import GameDef, load_gamedef
from cardgame.model.errors import ProtocolError
from cardgame.model.inputs import read_int


def answer(line: str, game: GameDef, rng: random.Random) -> str | None:
    """The action to send for ``line`` when its position is to act, else ``None``."""
    _, position_text, _, betting, cards = line.split(":")
    position = read_int(position_text, "position", ProtocolError)
    n = game.num_players
    stacks = game.stack_sizes
    spent = list(game.blinds)
    folded = [False] * n
    rounds = betting.split("/")
    big = max(game.blinds)
    raises = acting = 0
    max_spent = min_to = 0
    for r, text in enumerate(rounds):
        max_spent = max(spent)
        min_to = max_spent + big
        raises = 0
        acting = _next(game.first_player[r] - 1, folded, spent, stacks)
        i = 0
        while i < len(text):
            kind = text[i]
            i += 1
            if kind == "f":
                folded[acting] = True
            elif kind == "c":
                spent[acting] = min(max_spent, stacks[acting])
            else:
                raises += 1
                if game.raise_sizes is not None:
                    to = min(max_spent + game.raise_sizes[r], stacks[acting])
                else:
                    j = i
                    while i < len(text) and text[i].isdigit():
                        i += 1
                    to = read_int(text[j:i], "raise size", ProtocolError)
                    min_to = max(min_to, 2 * to - max_spent)
                spent[acting] = to
                max_spent = max(max_spent, to)
            acting = _next(acting + 1, folded, spent, stacks)
    if folded.count(False) < 2 or acting != position:
        return None
    groups = cards.split("/")[0].split("|")
    groups[-1] = groups[-1][: len(groups[-1]) - 2 * game.num_board_cards[0]]  # the first round's board follows
    if any(groups[p] for p in range(n) if p != position):  # another player's cards: the showdown
        return None
    options = ["c"]
    if spent[position] < max_spent:
        options.append("f")
    free = sum(1 for p in range(n) if not folded[p] and spent[p] < stacks[p])
    cap = game.raise_caps[len(rounds) - 1]
    if free >= 2 and stacks[position] > max_spent and (cap is None or raises < cap):
        if game.raise_sizes is not None:
            options.append("r")
        else:
            low = min(min_to, stacks[position])
            options.append(f"r{rng.randint(low, stacks[position])}")
    return rng.choice(options)


def _next(start: int, folded: list[bool], spent: list[int], stacks: tuple[int, ...]) -> int:
    """The first position from ``start`` on (around the table) who is neither folded nor all-in."""
    n = len(folded)
    for k in range(n):
        p = (start + k) % n
        if not folded[p] and spent[p] < stacks[p]:
            return p
    return start % n


def main() -> None:
    game = load_gamedef(sys.argv[1])
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    sock = socket.create_connection((sys.argv[2], int(sys.argv[3])))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(b"VERSION:2.0.0\r\n")
    with sock.makefile("rb") as lines:
        for raw in lines:
            line = raw.decode().rstrip("\r\n")
            action = answer(line, game, rng)
            if action is not None:
                sock.sendall(f"{line}:{action}\r\n".encode())
    sock.close()


if __name__ == "__main__":
    main()
