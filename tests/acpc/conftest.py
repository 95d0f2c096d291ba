"""The reference dealer's transcripts in ``tests/data/acpc-transcripts.md`` (copied from the
project's shared references), and helpers to run a dealer and clients over loopback in one event loop."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import attrs
import pytest

from cardgame.acpc.gamedef import GameDef, parse_gamedef
from tests.conftest import DATA

TRANSCRIPTS = DATA / "acpc-transcripts.md"


@attrs.frozen
class Transcript:
    """One section of the transcripts: the game, the seed, what the recording client (seat 1)
    received (``S->``) and sent (``<-C``), and the dealer's log lines."""

    title: str
    seed: int
    game_name: str
    game_text: str
    exchange: tuple[tuple[str, str], ...]
    log: tuple[str, ...]

    @property
    def game(self) -> GameDef:
        return parse_gamedef(self.game_text, self.game_name)


def load_transcripts() -> list[Transcript]:
    text = TRANSCRIPTS.read_text()
    out = []
    for section in text.split("\n## ")[1:]:
        title = section.splitlines()[0]
        seed = re.search(r"seed (\d+)", title)
        name = re.search(r"Game file `([^`]+)`", section)
        blocks = re.findall(r"```\n(.*?)```", section, re.DOTALL)
        assert seed and name and len(blocks) == 3, f"unexpected transcript section {title!r}"
        exchange = tuple((line[:3], line[4:]) for line in blocks[1].splitlines() if line.strip())
        assert all(d in ("S->", "<-C") for d, _ in exchange)
        out.append(Transcript(title, int(seed.group(1)), name.group(1), blocks[0],
                              exchange, tuple(line for line in blocks[2].splitlines() if line.strip())))
    return out


@pytest.fixture(scope="session")
def transcripts() -> list[Transcript]:
    assert TRANSCRIPTS.is_file(), f"reference transcripts missing: expected {TRANSCRIPTS}"
    found = load_transcripts()
    assert len(found) == 4
    return found


def run(coro: Awaitable[Any], limit: float = 20.0) -> Any:
    """Run ``coro`` in a fresh event loop, bounded in time."""

    async def bounded() -> Any:
        async with asyncio.timeout(limit):
            return await coro

    return asyncio.run(bounded())


class LogBuffer(io.StringIO):
    """A log stream whose lines can be read back."""

    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


async def with_dealer(dealer: Any, clients: Sequence[Callable[[int], Awaitable[Any]]]) -> tuple[Any, list[Any]]:
    """Listen, start one client per seat on its port, play the match; the dealer's result and the clients'."""
    ports = await dealer.listen()
    tasks = [asyncio.create_task(client(port)) for client, port in zip(clients, ports, strict=True)]
    result = await dealer.play(start_timeout=10)
    return result, list(await asyncio.gather(*tasks))
