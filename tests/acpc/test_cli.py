"""``cardgame acpc dealer`` and ``cardgame acpc client`` as commands: a whole match between processes
over loopback, and one-line errors."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgame.acpc.gamedef import STANDARD_GAMES
from cardgame.acpc.log import parse_log
from cardgame.cli import main
from tests.acpc.conftest import Transcript
from tests.acpc.test_faults import _closed_port


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cardgame", "acpc", *args]


def test_a_match_between_processes(tmp_path: Path) -> None:
    log = tmp_path / "match.log"
    game = tmp_path / "kuhn.game"
    game.write_text(STANDARD_GAMES["kuhn.limit.3p"].to_text())
    dealer = subprocess.Popen(_command("dealer", str(game), "--hands", "30", "--seed", "14", "--log", str(log),
                                       "--names", "Ann,Bob,Cat", "--timeout-ms", "5000", "--start-timeout-ms", "20000"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients: list[subprocess.Popen[str]] = []
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()  # printed once listening, as the reference prints them
        assert len(ports) == 3 and all(p.isdigit() for p in ports)
        clients = [subprocess.Popen(_command("client", "kuhn.limit.3p", "127.0.0.1", port, "--bot", bot, "--seed", "1"),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for port, bot in zip(ports, ["random", "pair-raiser", "calling-station"], strict=True)]
        outputs = [c.communicate(timeout=60) for c in clients]
        out, err = dealer.communicate(timeout=60)
    finally:
        for p in (dealer, *clients):
            p.kill()
    # as soon as the ports listen, stderr says so, one line a seat, then what it waits for and each
    # bot as it connects (nothing else: no warning); stdout is the ports, then the score
    lines = err.splitlines()
    assert dealer.returncode == 0 and lines[:3] == [f"listening on 127.0.0.1:{port} (seat {seat})"
                                                    for seat, port in enumerate(ports, start=1)]
    assert lines[3] == ("cardgame: waiting for 3 bots to connect, one per port (at most 20 s); the match starts "
                        "when all have")
    assert len(lines) == 7 and sorted(line.split(";")[0] for line in lines[4:]) == [
        f"cardgame: seat {seat} connected" for seat in (1, 2, 3)]
    assert [line.split("; ")[1] for line in lines[4:]] == ["waiting for 2 more", "waiting for 1 more",
                                                          "every seat is taken: playing 30 hands"]
    assert len(out.splitlines()) == 1  # the score (the ports line was read above)
    assert [c.returncode for c in clients] == [0, 0, 0] and all(e == "" for _, e in outputs)
    assert all(o.startswith("30 hands played: ") for o, _ in outputs)
    parsed = parse_log(log.read_text(), STANDARD_GAMES["kuhn.limit.3p"])
    assert parsed.score is not None and out.strip() == str(parsed.score) and parsed.score.names == ("Ann", "Bob", "Cat")
    assert sum(parsed.score.values) == 0 and len(parsed.hands) == 30
    # each client reports its own total: the dealer's SCORE, seat by seat
    assert [o.split(": ")[1].split(" ")[0] for o, _ in outputs] == out.strip().split(":")[1].split("|")
    assert [h.names[0] for h in parsed.hands[:4]] == ["Ann", "Bob", "Cat", "Ann"]  # positions rotate


def test_a_quiet_dealer_writes_nothing_on_stderr() -> None:
    dealer = subprocess.Popen(_command("dealer", "leduc.limit.2p", "--hands", "3", "--seed", "1", "--quiet",
                                       "--start-timeout-ms", "20000"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients: list[subprocess.Popen[str]] = []
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        clients = [subprocess.Popen(_command("client", "leduc.limit.2p", "127.0.0.1", port), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True) for port in ports]
        for c in clients:
            c.communicate(timeout=60)
        out, err = dealer.communicate(timeout=60)
    finally:
        for p in (dealer, *clients):
            p.kill()
    assert dealer.returncode == 0 and err == "" and out.startswith("SCORE:") and len(ports) == 2


@pytest.mark.parametrize(("args", "message"), [
    (["client", "nope.game", "127.0.0.1", "1"], "No game file 'nope.game', and no standard game of that name"),
    (["client", "leduc.limit.2p", "127.0.0.1", "{closed}"], "Cannot connect to the dealer at 127.0.0.1:"),
    (["client", "leduc.limit.2p", "127.0.0.1", "1", "--bot", "genius"], "Unknown bot 'genius'; the bots are random"),
    (["dealer", "leduc.limit.2p", "--hands", "2", "--seed", "1", "--ports", "1,2,3"], "Give 2 ports, one per seat"),
    (["dealer", "leduc.limit.2p", "--hands", "2", "--seed", "1", "--names", "A"], "Give 2 different player names"),
])
def test_errors_are_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.replace("{closed}", str(_closed_port())) for a in args]
    assert main(["acpc", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["dealer", "leduc.limit.2p", "--hands", "0", "--seed", "1"],
                 ["dealer", "leduc.limit.2p", "--hands", "1"],
                 ["client", "leduc.limit.2p", "127.0.0.1", "70000"],
                 ["dealer", "leduc.limit.2p", "--hands", "1", "--seed", "1", "--ports", "1,x"]):
        with pytest.raises(SystemExit) as stop:
            main(["acpc", *args])
        assert stop.value.code == 2
    assert "error" in capsys.readouterr().err


def test_replay_a_log(tmp_path: Path, transcripts: list[Transcript], capsys: pytest.CaptureFixture[str]) -> None:
    for t in transcripts:
        game, log = tmp_path / t.game_name, tmp_path / "match.log"
        game.write_text(t.game_text)
        log.write_text("# a comment\n" + "\n".join(t.log) + "\n")
        assert main(["acpc", "replay", str(game), str(log)]) == 0
        assert capsys.readouterr().out == f"{len(t.log) - 1} hands replayed: every payoff agrees\n"
    first = transcripts[0]  # its first hand's payoffs swapped
    log.write_text("\n".join([first.log[0].replace("-80|80", "80|-80"), *first.log[1:]]) + "\n")
    assert main(["acpc", "replay", str(tmp_path / first.game_name), str(log)]) == 1
    assert capsys.readouterr().out.splitlines() == ["hand 0: the log says 80|-80, the engine -80|80",
                                                    "3 hands replayed: 1 disagree"]


def test_the_dealer_says_where_it_listens_before_anyone_connects() -> None:
    dealer = subprocess.Popen(_command("dealer", "leduc.limit.2p", "--hands", "1", "--seed", "1",
                                       "--start-timeout-ms", "20000"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert dealer.stderr is not None and dealer.stdout is not None
        seen = [dealer.stderr.readline() for _ in range(3)]  # flushed while it waits for players
        ports = dealer.stdout.readline().split()
    finally:
        dealer.kill()
        dealer.communicate(timeout=60)
    assert seen == [*(f"listening on 127.0.0.1:{port} (seat {seat})\n" for seat, port in enumerate(ports, start=1)),
                    "cardgame: waiting for 2 bots to connect, one per port (at most 20 s); the match starts when all "
                    "have\n"]


def test_a_flooding_player_is_dropped_by_the_time_limit_flags() -> None:
    """``--hand-ms``: a player that answers every state with garbage uses its time a hand; the
    dealer drops it (it checks or folds from then on) and the match ends with the other player."""
    dealer = subprocess.Popen(_command("dealer", "leduc.limit.2p", "--hands", "20", "--seed", "3", "--hand-ms", "50",
                                       "--per-hand-ms", "100000", "--timeout-ms", "60000",
                                       "--start-timeout-ms", "20000"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    client = None
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        flooder = socket.create_connection(("127.0.0.1", int(ports[0])), timeout=60)
        client = subprocess.Popen(_command("client", "leduc.limit.2p", "127.0.0.1", ports[1], "--bot", "random"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        flooder.sendall(b"VERSION:2.0.0\n")
        with contextlib.suppress(OSError):
            while dealer.poll() is None:
                flooder.sendall(b"x\n" * 100)
                time.sleep(0.01)
        out, err = dealer.communicate(timeout=60)
        client.communicate(timeout=60)
    finally:
        for p in (dealer, client):
            if p is not None:
                p.kill()
    assert dealer.returncode == 0 and out.startswith("SCORE:")
    assert "seat 1 (P1)" in err and "used more time than allowed in the hand" in err
