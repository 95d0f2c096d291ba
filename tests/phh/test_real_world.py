"""Real online hand histories (the 2009 HandHQ logs in the PHH dataset's style): unknown stacks, posts
to sit in (more in test_posts.py), free folds, unknown shown cards, rake, dollar amounts, and one bad
hand among good ones."""

from __future__ import annotations

import math
from pathlib import Path

from cardgame.phh import loads
from cardgame.phh.replay import check_paths, replay

HEADER = """variant = 'NT'
ante_trimming_status = false
min_bet = 1
time = 00:00:09
currency_symbol = '$'
"""

#: p1 raises to $3, both fold: p1 takes the $2 pot (the file's ``winnings``).
RAISE_TAKES_BLINDS = HEADER + """antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
starting_stacks = [200.30, 81.60, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cbr 3.00', 'p2 f']
winnings = [2, 0, 0]
"""

#: Three see a showdown on a paired board; $3 pot, the site keeps a $0.15 rake.
RAKED_SHOWDOWN = HEADER + """antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, 0]
starting_stacks = [50, 60, 70]
actions = ['d dh p1 AhAs', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 cc', 'p2 cc',
           'd db 9s7h2c', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 9d', 'p1 cc', 'p2 cc', 'p3 cc',
           'd db 9c', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm AhAs', 'p2 sm ????', 'p3 sm ????']
winnings = [2.85, 0, 0]
"""


def test_dollar_amounts_and_winnings_reproduce(tmp_path: Path) -> None:
    path = tmp_path / "a.phhs"
    path.write_text(f"[1]\n{RAISE_TAKES_BLINDS}\n[2]\n{RAKED_SHOWDOWN}")
    report = check_paths([path])
    assert [(h.status, h.detail) for h in report.hands] == [
        ("ok", ""), ("ok", "convention: rake inferred 0.15, in cents")]


def test_an_unknown_stack_plays_as_deep_enough() -> None:
    [hh] = loads(RAISE_TAKES_BLINDS.replace("[200.30, 81.60, 197]", "[inf, 81.60, 197]"))
    result = replay(hh)
    assert result.complete and math.isinf(result.stacks[0]) and result.stacks[1:] == (80.60, 197)


def test_a_negative_blind_of_the_big_blinds_size_is_a_live_post() -> None:
    # p3 posts $1 (the big blind) to sit in: live (Robert's Rules, buttons and blinds), so p3 checks
    # pre-flop; p2 bets the river, p3 folds: p2 wins p1's 0.50 and p3's dollar.
    [hh] = loads(HEADER + """antes = [0, 0, 0]
blinds_or_straddles = [0.50, 1, -1]
starting_stacks = [50, 81.60, 197]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cc', 'p1 f', 'p2 cc', 'd db 9s7h2c',
           'p2 cc', 'p3 cc', 'd db 9d', 'p2 cc', 'p3 cc', 'd db 9c', 'p2 cbr 2', 'p3 f']
""")
    result = replay(hh)
    assert result.complete and result.stacks == (49.5, 83.1, 196)


def test_a_fold_when_a_check_was_free_is_followed() -> None:
    [hh] = loads(HEADER + """antes = [0, 0]
blinds_or_straddles = [0.50, 1]
starting_stacks = [50, 50]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 f']
""")
    assert replay(hh).stacks == (49, 51)


def test_a_bad_hand_is_that_hands_error_and_the_others_go_on(tmp_path: Path) -> None:
    huge = RAISE_TAKES_BLINDS.replace("[200.30, 81.60, 197]", "[1e300, 81.60, 197]")
    broken = RAISE_TAKES_BLINDS.replace("'p2 f'", "'p2 xx'")
    path = tmp_path / "mixed.phhs"
    path.write_text(f"[1]\n{RAISE_TAKES_BLINDS}\n[2]\n{huge}\n[3]\n{broken}\n[4]\n{RAKED_SHOWDOWN}")
    other = tmp_path / "other.phh"
    other.write_text(RAISE_TAKES_BLINDS)
    statuses = [h.status for h in check_paths([path, other]).hands]
    assert statuses == ["ok", "error", "error", "ok", "ok"]


def test_errors_speak_in_the_files_amounts() -> None:
    import pytest

    from cardgame.model.errors import HandHistoryError

    [hh] = loads(RAISE_TAKES_BLINDS.replace("'p1 cbr 3.00'", "'p1 cbr 1.50'"))
    with pytest.raises(HandHistoryError, match=r"The amount 1.5 is below the minimum allowed 2; allowed: fold, "
                                               r"call 0.5, raise to 2 to 200.3"):
        replay(hh)
