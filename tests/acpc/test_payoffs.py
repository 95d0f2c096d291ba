"""Payoffs in the dealer's log are numbers, compared as numbers: the reference dealer writes a folded
player who put nothing in as ``0`` (its ``valueOfState`` returns ``(double)-spent``, which is +0.0),
never ``-0``; a split pot's share is printed with ``%.6f`` (``33.333333``), and replay compares it
exactly (:class:`~fractions.Fraction`) with the engine's share rounded as the reference rounds it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.acpc.gamedef import STANDARD_GAMES, GameDef
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.log import HandRecord, Score, format_value, parse_state, payoff
from cardgame.acpc.matchstate import parse_betting
from cardgame.cli import main

LIMIT_3P = STANDARD_GAMES["holdem.limit.3p"]
# the button (blind 0) folds first; the blinds check it down: written by the reference as it writes it
REFERENCE_ZERO = "STATE:4:fcc/cc/cc/cc:Kc9h|Qd7s|2c3d/AhKs4d/8c/2s:10|-10|0:P2|P3|P1"
# four players, the small blind folds, three tie on a royal flush board and split 35: 35/3 - 10 each
LIMIT_4P = GameDef("limit", 4, 4, (5, 10, 0, 0), (3, 1, 1, 1), 4, 13, 2, (0, 3, 1, 1),
                   raise_sizes=(10, 10, 20, 20), max_raises=(3, 4, 4, 4))
THIRDS = "STATE:0:ccfc/ccc/ccc/ccc:2c3d|2d3c|2s3s|4c4d/AhKhQh/Jh/Th:-5|1.666667|1.666667|1.666667:A|B|C|D"


def play(line: str, game: GameDef) -> AcpcHand:
    record = parse_state(line, game)
    hand = AcpcHand(game, record.hand, record.hole, [c for r in record.board for c in r])
    for action in (a for r in parse_betting(line.split(":")[2], game) for a in r):
        hand.apply(action)
    return hand


def test_a_folded_player_who_put_nothing_in_is_written_0_as_the_reference_writes_it() -> None:
    hand = play(REFERENCE_ZERO, LIMIT_3P)
    assert hand.values() == (10.0, -10.0, 0.0)
    record = HandRecord(4, hand.betting, *hand.cards(), hand.values(), ("P2", "P3", "P1"))
    assert str(record) == REFERENCE_ZERO  # what our dealer logs: byte for byte the reference's line
    assert format_value(-0.0) == "0" and format_value(Fraction(0)) == "0"


def test_a_reference_3_player_log_with_a_zero_payoff_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    game = tmp_path / "holdem.limit.3p.game"
    game.write_text(LIMIT_3P.to_text())
    log = tmp_path / "match.log"
    log.write_text(f"{REFERENCE_ZERO}\nSCORE:0|10|-10:P1|P2|P3\n")
    assert main(["acpc", "replay", str(game), str(log)]) == 0
    assert capsys.readouterr().out == "1 hands replayed: every payoff agrees\n"


def test_a_split_pot_s_share_is_compared_exactly_at_the_reference_s_6_decimals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = play(THIRDS, LIMIT_4P)
    assert [Fraction(v).limit_denominator(100) for v in hand.values()] == [-5, Fraction(5, 3), Fraction(5, 3),
                                                                           Fraction(5, 3)]
    record = parse_state(THIRDS, LIMIT_4P)
    assert record.values == (-5, Fraction("1.666667"), Fraction("1.666667"), Fraction("1.666667"))
    assert tuple(map(payoff, hand.values())) == record.values and str(record) == THIRDS
    game = tmp_path / "four.game"
    game.write_text(LIMIT_4P.to_text())
    log = tmp_path / "match.log"
    for share, agrees in [("1.666667", True), ("1.666666", False), ("1.6666667", None), ("1.67", False)]:
        log.write_text(THIRDS.replace("1.666667", share) + "\n")
        code = main(["acpc", "replay", str(game), str(log)])
        out, err = capsys.readouterr()
        if agrees is None:  # more decimals than the reference writes: not a log line of the reference's
            assert code == 2 and "is no number as the reference writes one" in err
        else:
            assert code == (0 if agrees else 1), out


def test_the_score_is_compared_as_a_number_within_the_reference_s_rounding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "four.game"
    game.write_text(LIMIT_4P.to_text())
    log = tmp_path / "match.log"
    # ten hands of thirds: 50/3 each, which the reference's sum of doubles prints as 16.666667
    lines = [THIRDS.replace("STATE:0:", f"STATE:{n}:") for n in range(10)]
    for score, code in [("-50|16.666667|16.666667|16.666667", 0), ("-50|16.666666|16.666667|16.666667", 1),
                        ("-50|16.67|16.666667|16.666667", 1), ("-50|16.666667|16.666667|16.666667:A|B|C|E", 1)]:
        log.write_text("\n".join([*lines, f"SCORE:{score}" + ("" if score.count(":") else ":A|B|C|D")]) + "\n")
        assert main(["acpc", "replay", str(game), str(log)]) == code, score
        out = capsys.readouterr().out
        assert ("SCORE: the log says" in out) == (code == 1)
    assert Score((-0.0, 5.0), ("A", "B")).values == (0, 5)


@settings(max_examples=300, derandomize=True, database=None)
@given(st.integers(-10**12, 10**12), st.sampled_from([1, 2, 3, 4, 6, 7, 8, 9, 10, 2520, 2**20]))
def test_a_payoff_is_rounded_and_printed_as_printf_rounds_it(numerator: int, denominator: int) -> None:
    exact = Fraction(numerator, denominator)
    share = float(exact)  # what the engine gives
    printed = f"{share:.6f}".rstrip("0").rstrip(".")  # Python rounds a float's binary value as printf does
    assert format_value(share) == ("0" if printed == "-0" else printed)
    assert payoff(share) == round(Fraction(share), 6) == Fraction(format_value(share))
    assert payoff(exact) == round(exact, 6) and format_value(payoff(exact)) == format_value(exact)


def test_a_tie_at_the_seventh_decimal_rounds_to_even() -> None:
    assert [payoff(Fraction(k, 2 * 10**6)) for k in (1, 3, 5, -1, -3)] == [
        0, Fraction(2, 10**6), Fraction(2, 10**6), 0, Fraction(-2, 10**6)]
