"""Hostile input to the ACPC protocol's readers: numbers past Python's 4,300-digit limit, digits of
other scripts (``²``, ``٥``), overlong lines. Each is refused with the library's own error quoting a
short excerpt, or read as the reference dealer reads it; none crashes the dealer, the client or replay.

The reference dealer reads an answer's raise size with C's ``sscanf("%d")``: ASCII digits only
(``r٥٠٠`` is no action, played as a call), and a size past a 64-bit number is unreadable, played as
the minimum raise (its ``isValidAction`` moves a size below the minimum up to it)."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from cardgame.acpc.client import ClientResult, Player, play
from cardgame.acpc.gamedef import MAX_GAMEDEF_BYTES, MAX_STACK, STANDARD_GAMES, parse_gamedef, read_gamedef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import read_lines
from cardgame.acpc.matchstate import Action, parse_matchstate, read_action
from cardgame.cli import main
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, ProtocolError
from cardgame.play.bots import calling_station
from tests.acpc.conftest import Transcript, run
from tests.acpc.test_faults import checked_match, fake_dealer, good, lines_of

LIMIT = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
HUGE = "9" * 5000  # past int()'s 4,300-digit limit


def nl_hand() -> AcpcHand:
    return AcpcHand(NL, 0, [parse_cards("AhKh"), parse_cards("2c2d")])


@pytest.mark.parametrize(("answer", "read"), [
    ("r500", Action("r", 500)),
    ("r 500", Action("r", 500)),  # sscanf skips C white space before a number
    ("r" + "0" * 5000 + "500", Action("r", 500)),  # leading zeros, as strtol reads them
    ("r2147483647", Action("r", MAX_STACK)),  # the largest int32_t: above every stack, the all-in
    ("r2147483648", Action("r", 0)),  # sscanf("%d") keeps 32 bits: -2^31, below the minimum
    ("r4294967596", Action("r", 300)),  # 2^32 + 300: 300, as the reference reads it
    ("r99999999999", Action("r", 1215752191)),  # 99,999,999,999 mod 2^32
    ("r9223372036854775807", Action("r", 0)),  # the largest long strtol reads: -1 in 32 bits
    ("r-300", Action("r", 0)),  # below the minimum
    ("r-4294967096", Action("r", 200)),  # -2^32 + 200: 200 in 32 bits
    ("r9223372036854775808", Action("r", 0)),  # strtol saturates at the largest long: -1
    ("r" + HUGE, Action("r", 0)),
    ("r-" + HUGE, Action("r", 0)),  # the smallest long: 0 in 32 bits
    ("b500", Action("r", 500)),  # b and B raise, as in the reference's charToAction
    ("B500", Action("r", 500)),
    ("r٥٠٠", None),  # Arabic-Indic digits are no size: no action
    ("r²", None),
    ("r\u2003500", None),  # an em space is not C white space
    ("r", None),
])
def test_an_answer_s_raise_size_is_read_as_the_reference_reads_it(answer: str, read: Action | None) -> None:
    assert read_action(answer, NL) == read


def test_an_unreadable_raise_size_is_played_as_the_minimum_raise() -> None:
    hand = nl_hand()
    assert hand.fix(read_action("r" + HUGE, NL)) == Action("r", 200)  # the big blind 100, raised by 100
    assert hand.fix(read_action("r-" + HUGE, NL)) == Action("r", 200)
    assert hand.fix(read_action("r99999999999", NL)) == Action("r", 20000)  # a size above the stack: all-in
    assert read_action("r٥٠٠", NL) is None  # the dealer plays no action as a call


@pytest.mark.parametrize(("line", "message"), [
    ("MATCHSTATE:0:0:r" + HUGE + ":3c4d|", "raise size must be a whole number of at most 2147483647"),
    ("MATCHSTATE:0:0:r2147483648:3c4d|", "raise size 2147483648 is out of range; allowed is at most 2147483647"),
    ("MATCHSTATE:0:0:r٥٠٠:3c4d|", "a no-limit raise needs the total it raises to"),
    ("MATCHSTATE:0:0:r3²:3c4d|", "'²' is no action"),
    ("MATCHSTATE:²:0::3c4d|", "position must be a whole number"),
    ("MATCHSTATE:0:" + HUGE + "::3c4d|", "hand number must be a whole number"),
    ("MATCHSTATE:0:٣::3c4d|", "hand number must be a whole number"),
])
def test_a_match_state_with_a_bad_number_is_refused_quoting_an_excerpt(line: str, message: str) -> None:
    with pytest.raises(ProtocolError, match=message) as caught:
        parse_matchstate(line, NL)
    assert len(str(caught.value)) < 400


def test_every_message_of_a_long_bad_line_is_short() -> None:
    for line in ["MATCHSTATE:0:0:" + "c" * 20_000 + "x:3c4d|", "MATCHSTATE:0:0::3c4d|" + "x" * 20_000,
                 "X" * 20_000, "MATCHSTATE:0:0:" + "/" * 20_000 + ":3c4d|"]:
        with pytest.raises(ProtocolError) as caught:
            parse_matchstate(line, NL)
        assert len(str(caught.value)) < 400


# --- game definitions ------------------------------------------------------------------------------
def gamedef_text(**fields: str) -> str:
    """The heads-up no-limit definition with ``fields`` replaced (a field's value as written)."""
    lines = NL.to_text().splitlines()
    for name, value in fields.items():
        lines = [f"{name} = {value}" if line.split(" = ")[0] == name else line for line in lines]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("fields", "message"), [
    ({"numPlayers": "٢"}, "numPlayers values must be whole numbers, not '٢'; a value is ASCII digits"),
    ({"blind": "100 ⁵⁰"}, "blind values must be whole numbers"),
    ({"stack": "20000 " + HUGE}, r"stack values must be whole numbers, not '20000 999.*\(5,006 characters\)"),
    ({"numRanks": "1_3"}, "numRanks values must be whole numbers"),
    ({"firstPlayer": "3 1 1 1"}, "firstPlayer values must be whole numbers from 1 to 2, not 3"),
    ({"firstPlayer": "2 0 1 1"}, "firstPlayer values must be whole numbers from 1 to 2, not 0"),
    ({"stack": "20000 50"}, "blind 100 50 with stack 20000 50 puts every position but at most one all in"),
    ({"stack": "100 50"}, "puts every position but at most one all in"),
])
def test_a_game_definition_with_a_bad_value_is_refused_naming_the_field(fields: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        parse_gamedef(gamedef_text(**fields))
    assert len(str(caught.value)) < 600


def test_a_player_all_in_with_the_blind_still_decides_against_a_larger_blind() -> None:
    game = parse_gamedef(gamedef_text(stack="100 20000"))  # the big blind is all in; the small blind faces it
    hand = AcpcHand(game, 0, [parse_cards("AhKh"), parse_cards("2c2d")])
    assert hand.to_act == 1 and hand.allowed() == ("f", "c")


def test_a_game_file_that_is_not_text_or_too_long_is_refused(tmp_path: Path) -> None:
    binary = tmp_path / "binary.game"
    binary.write_bytes(b"GAMEDEF\n\xff\xfe\x00nolimit\n")
    with pytest.raises(ConfigError, match="is not UTF-8 text"):
        read_gamedef(binary)
    long = tmp_path / "long.game"
    long.write_text("# " + "x" * MAX_GAMEDEF_BYTES + "\n" + NL.to_text())
    with pytest.raises(ConfigError, match="is longer than 65,536 bytes"):
        read_gamedef(long)
    good = tmp_path / "good.game"
    good.write_text(NL.to_text())
    assert read_gamedef(good) == NL


# --- logs given to replay ----------------------------------------------------------------------------
GOOD_NL = "STATE:0:r12251r20000c///:6s8d|Jd4c/3cKsJc/2d/Ac:-20000|20000:P1|P2"  # the reference's, seed 12


@pytest.mark.parametrize(("content", "message"), [
    (GOOD_NL.replace("STATE:0:", "STATE:²:").encode(), "line 1: .* hand number must be a whole number"),
    (GOOD_NL.replace("STATE:0:", "STATE:" + HUGE + ":").encode(), "hand number must be a whole number"),
    (GOOD_NL.replace("r12251", "r" + HUGE).encode(), "raise size must be a whole number"),
    (GOOD_NL.replace("r12251", "r١٢٢٥١").encode(), "a no-limit raise needs the total it raises to"),
    (GOOD_NL.replace("-20000|20000", "-20000|2" + "0" * 5000).encode(), "the payoff .* is no number"),
    (GOOD_NL.replace("-20000|20000", "-20000|²").encode(), "the payoff '²' is no number"),
    (GOOD_NL.replace("-20000|20000", "-20000|nan").encode(), "the payoff 'nan' is no number"),
    (GOOD_NL.replace("-20000|20000", "-20000|1e5").encode(), "the payoff '1e5' is no number"),
    (GOOD_NL.encode().replace(b"P2", b"P\xff\xfe"), r"line 1 is not UTF-8 text \(byte 66"),
    (b"\x00" * 200_000, "line 1 is longer than 65,536 bytes"),
    (GOOD_NL.encode() + b"\n" + b"x" * 70_000, "line 2 is longer than 65,536 bytes"),
    (b"SCORE:0|0:P1|P2\n" + GOOD_NL.encode(), "line 2 follows the SCORE line"),
])
def test_a_crafted_log_is_a_one_line_error(content: bytes, message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "crafted.log"
    log.write_bytes(content + b"\n")
    assert main(["acpc", "replay", "holdem.nolimit.2p.reverse_blinds", str(log)]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err) and err.count("\n") == 1 and len(err) < 600, err


def test_dev_zero_as_a_log_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["acpc", "replay", "holdem.nolimit.2p.reverse_blinds", "/dev/zero"]) == 2  # no MemoryError
    assert "line 1 is longer than 65,536 bytes" in capsys.readouterr().err


def test_a_log_is_read_as_a_stream_with_a_bound_on_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardgame.acpc.log as log_module

    monkeypatch.setattr(log_module, "MAX_LOG_BYTES", 1000)
    endless = io.BytesIO((GOOD_NL + "\n").encode() * 100)
    lines = read_lines(endless)
    assert next(lines) == (1, GOOD_NL) and endless.tell() == len(GOOD_NL) + 1  # one line read so far
    with pytest.raises(ProtocolError, match="goes on past 1,000 bytes"):
        list(lines)


def test_a_hand_the_engine_cannot_play_as_logged_is_a_disagreement(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "illegal.log"
    log.write_text("\n".join([GOOD_NL, "STATE:1:r20000r5/:6s8d|Jd4c/3cKsJc:-20000|20000:P2|P1",
                              "STATE:2:ff:6s8d|Jd4c:0|0:P1|P2", "STATE:3:r300:6s8d|Jd4c:0|0:P2|P1",
                              "SCORE:0|0:P1|P2"]) + "\n")
    assert main(["acpc", "replay", "holdem.nolimit.2p.reverse_blinds", str(log)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("hand 1: the engine cannot play it as logged: Hand 1: r5 after 'r20000' is not legal")
    assert out[1].startswith("hand 2: the engine cannot play it as logged: Hand 2: f after 'f' is not legal")
    assert out[2].startswith("hand 3: the engine cannot play it as logged: Hand 3: the betting 'r300' does not end")
    assert out[3:] == ["4 hands replayed: 3 disagree"]  # the SCORE adds up with the log's own payoffs


# --- the dealer, over loopback -----------------------------------------------------------------------
def test_a_raise_past_int_s_limit_is_played_as_the_minimum_raise_and_the_match_goes_on() -> None:
    async def huge(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        return None if reply is None else reply.rpartition(":")[0] + ":r" + HUGE  # 5,000 digits: unreadable

    result, dealer, log, _ = checked_match(NL, [lambda port: lines_of(port, huge, NL), good(NL)], 4)
    assert log.lines()[-1] == str(result.score)  # the match ended with its SCORE
    fixed = [w for w in dealer.warnings if w.startswith("seat 1 (P1) answered r0,")]
    assert any(re.search(r"changed to r\d+$", w) for w in fixed)  # raised, by the minimum
    for warning in fixed:  # the minimum raise where a raise is allowed, else a call
        allowed = re.search(r", r(\d+)(-\d+)?\); changed to (\S+)$", warning)
        assert warning.endswith("changed to c") if allowed is None else allowed[3] == f"r{allowed[1]}", warning


def test_a_raise_in_other_digits_is_no_action_and_played_as_a_call() -> None:
    async def arabic(player: Player, line: str) -> str | None:
        reply = player.receive(line)
        return None if reply is None else reply.rpartition(":")[0] + ":r٥٠٠"

    _, dealer, _, _ = checked_match(NL, [lambda port: lines_of(port, arabic, NL), good(NL)], 3)
    calls = [w for w in dealer.warnings if w.startswith("seat 1 (P1) answered 'r٥٠٠', which is no action")]
    assert calls and all(w.endswith("changed to a call") for w in calls)
    assert not any("answered r500" in w for w in dealer.warnings)


# --- the client: from a fake dealer, and a refused line changes nothing ------------------------------
@pytest.mark.parametrize(("line", "message"), [
    (b"MATCHSTATE:0:0:r" + HUGE.encode() + b":3c4d|\r\n", "raise size must be a whole number"),
    ("MATCHSTATE:0:0:r٥٠٠:3c4d|\r\n".encode(), "a no-limit raise needs the total it raises to"),
    ("MATCHSTATE:0:²::3c4d|\r\n".encode(), "hand number must be a whole number"),
    (b"MATCHSTATE:0:0::3c4d|" + b"x" * 70_000 + b"\r\n", "overlong line"),
])
def test_the_client_refuses_a_dealer_s_bad_number(line: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message) as caught:
        run(fake_dealer([b"MATCHSTATE:1:0::|Qc9h\r\n", line], NL)())
    assert len(str(caught.value)) < 400


def view(player: Player) -> object:
    hand = player.hand
    assert hand is not None
    return (hand.number, hand.betting, hand.cards(), hand.to_act, hand.legal(), hand.finished, player.position,
            player.result)


def test_a_refused_match_state_changes_nothing(transcripts: list[Transcript]) -> None:
    lines = [text for way, text in transcripts[0].exchange if way == "S->"]  # heads-up limit, seed 11
    flop = lines.index("MATCHSTATE:0:0:rrrc/:3c4d|/6d7hAs")
    end = lines.index("MATCHSTATE:0:0:rrrc/rrc/cc/crc:3c4d|9d6c/6d7hAs/Ks/Td")  # hand 0's last line
    clean = Player(LIMIT, calling_station)
    answers = [clean.receive(line) for line in lines]
    for at, bad, message in [
        (flop, "MATCHSTATE:0:0:rrrc/rrrrr:3c4d|/6d7hAs", "the dealer's action r is not legal here"),  # past the cap
        (flop, "MATCHSTATE:0:0:rrrc/rr/:3c4d|/6d7hAs/Ks", "the betting reaches round 3, but the rules say round 2"),
        (flop, "MATCHSTATE:0:0:rrcc/r:3c4d|/6d7hAs", "does not continue the actions already played"),
        (flop, "MATCHSTATE:0:0:rrr:3c4d|", "does not continue the actions already played"),
        (flop, "MATCHSTATE:0:0:rrrc/r:3c4d|/6d7hAc", "does not continue the board dealt"),
        (flop, "MATCHSTATE:1:0:rrrc/r:|3c4d/6d7hAs", "position 1 in the middle of hand 0"),
        (flop, "MATCHSTATE:0:1::3c4d|", "hand 1 starts before hand 0 ended"),
        (end, "MATCHSTATE:1:1:rrrr:|Qc9h", "the dealer's action r is not legal here"),  # a new hand, refused
        (end, "MATCHSTATE:1:1::Qc9h|Qc9h", "9h Qc appear twice"),
    ]:
        player = Player(LIMIT, calling_station)
        got = [player.receive(line) for line in lines[: at + 1]]
        before = view(player)
        with pytest.raises(ProtocolError, match=message):
            player.receive(bad)
        assert view(player) == before, bad
        got += [player.receive(line) for line in lines[at + 1 :]]  # and it plays on as if the line never came
        assert got == answers and player.result == clean.result, bad


def test_a_version_or_a_port_in_other_digits_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    async def version(port: int) -> ClientResult:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write("VERSION:2.٠.٠\r\n".encode())
        assert await reader.read() == b""  # refused: closed by the dealer
        writer.close()
        return await play(NL, "127.0.0.1", port, calling_station)

    _, dealer, _, _ = checked_match(NL, [version, good(NL)], 1)
    assert any("did not open with VERSION:2.0.0 ('VERSION:2.٠.٠')" in w for w in dealer.warnings)
    for port in ("٥", "1" + HUGE):
        with pytest.raises(SystemExit):
            main(["acpc", "client", "holdem.limit.3p", "127.0.0.1", port])
        err = capsys.readouterr().err
        assert "The port must be a whole number from 0 to 65535" in err and len(err) < 400
