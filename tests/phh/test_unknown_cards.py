"""Replaying hands with unknown cards: stud door cards recorded as ``??`` follow the recorded bring-in,
and a hand shown as ``sm ????`` before the run-out is face up but unrecorded, not mucked.

Expected stacks are worked out by hand in each docstring; where PokerKit 0.7.7 can read the hand it
is asked too (it refuses a bring-in whose door card is unknown, so there it reads the same hand with
the door card written in).
"""

from __future__ import annotations

import pytest

from cardgame.model.errors import HandHistoryError
from cardgame.phh import loads
from cardgame.phh.replay import check_hand, replay

SEEDS = range(12)  # the unknown cards are filled from a shuffled deck: the result must not depend on it

#: Seven-card stud hi/lo, a tournament hand as broadcast: p1's cards (door card too) were never on
#: screen. The door cards showing are p2 Ad, p3 8c, p4 Kh, and p1 brought in, so p1's door card was
#: the lowest. p2 completes, p3 calls, p4 and p1 fold; p2 bets every street and p3 calls to the end.
#: p2 shows A-A-2-3-4-7-9 (7-4-3-2-A low), p3 T-T-T (three tens): p3 takes the high half, p2 the low.
#: Antes 4 x 500 = 2,000; p1's bring-in 1,000; p2 and p3 put in 4,000 + 4,000 + 3 x 8,000 = 32,000
#: each after the ante. Pot 2,000 + 1,000 + 64,000 = 67,000: 33,500 each half.
#: p1 60,000 - 1,500 = 58,500; p2 85,000 - 32,500 + 33,500 = 86,000; p3 42,000 + 1,000 = 43,000;
#: p4 70,000 - 500 = 69,500.
STUD_HI_LO = """variant = 'F7S/8'
antes = [500, 500, 500, 500]
bring_in = 1000
small_bet = 4000
big_bet = 8000
starting_stacks = [60000, 85000, 42000, 70000]
actions = [
  'd dh p1 ??????', 'd dh p2 ????Ad', 'd dh p3 TdTs8c', 'd dh p4 ????Kh',
  'p1 pb', 'p2 cbr 4000', 'p3 cc', 'p4 f', 'p1 f',
  'd dh p2 4d', 'd dh p3 5c', 'p2 cbr 4000', 'p3 cc',
  'd dh p2 2s', 'd dh p3 Tc', 'p2 cbr 8000', 'p3 cc',
  'd dh p2 9s', 'd dh p3 Qh', 'p2 cbr 8000', 'p3 cc',
  'd dh p2 ??', 'd dh p3 7h', 'p2 cbr 8000', 'p3 cc',
  'p2 sm 3dAcAd4d2s9s7d', 'p3 sm TdTs8c5cTcQh7h',
]
finishing_stacks = [58500, 86000, 43000, 69500]
"""
STUD_FINAL = (58500, 86000, 43000, 69500)


def _stud(old: str, new: str) -> str:
    assert old in STUD_HI_LO
    return STUD_HI_LO.replace(old, new)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_unknown_door_card_follows_the_recorded_bring_in(seed: int) -> None:
    """Robert's Rules, seven-card stud: the lowest up card brings in. p1's door card is unknown and p1
    brought in: the replay follows the file (without this, p3's 8c brought in whenever p1's unknown
    card was filled with a higher one, and the hand failed at 'p1 pb')."""
    [hh] = loads(STUD_HI_LO)
    result = replay(hh, seed=seed)
    assert result.complete and result.stacks == STUD_FINAL


@pytest.mark.parametrize("seed", SEEDS)
def test_other_unknown_door_cards_do_not_take_the_bring_in(seed: int) -> None:
    """p1's door 3h is known and brings in; p4's door is unknown: it must be a card above 3h (four of
    the unseen cards, 2c, 2d, 2h and 3c, are below it)."""
    [hh] = loads(_stud("'d dh p1 ??????'", "'d dh p1 ????3h'").replace("'d dh p4 ????Kh'", "'d dh p4 ??????'"))
    assert replay(hh, seed=seed).stacks == STUD_FINAL


@pytest.mark.parametrize("seed", SEEDS)
def test_a_completion_names_the_bring_in_too(seed: int) -> None:
    """The player due to bring in may complete instead (Robert's Rules, seven-card stud): p1 completes
    with an unknown door card and everyone folds; p1 wins the three other antes."""
    text = _stud("'p1 pb', 'p2 cbr 4000', 'p3 cc', 'p4 f', 'p1 f',", "'p1 cbr 4000', 'p2 f', 'p3 f', 'p4 f',")
    text = text[: text.index("'d dh p2 4d'")] + "]\n"
    [hh] = loads(text)
    assert replay(hh, seed=seed).stacks == (61500, 84500, 41500, 69500)


def test_razz_unknown_door_brings_in_as_the_highest_card() -> None:
    """Razz (Robert's Rules): the highest up card brings in, aces low. p1's unknown door card brought
    in over 7c and 5h; p2 completes and both others fold: p2 wins the other two antes and the bring-in
    (5,000 + 200 + 200 = 5,400)."""
    [hh] = loads("""variant = 'FR'
antes = [100, 100, 100]
bring_in = 200
small_bet = 600
big_bet = 1200
starting_stacks = [5000, 5000, 5000]
actions = ['d dh p1 ??????', 'd dh p2 Ad2c7c', 'd dh p3 ????5h', 'p1 pb', 'p2 cbr 600', 'p3 f', 'p1 f']
""")
    for seed in SEEDS:
        assert replay(hh, seed=seed).stacks == (4700, 5400, 4900)


def test_a_known_door_card_is_still_checked() -> None:
    """Only unknown door cards follow the file: a recorded bring-in whose known door card is not the
    lowest showing is the replay's error, as is one that no unknown card could make the lowest."""
    [hh] = loads(_stud("'d dh p1 ??????'", "'d dh p1 ????Qs'"))
    with pytest.raises(HandHistoryError, match=r"actions\[4\] 'p1 pb': It is not seat 0's turn: seat 2"):
        replay(hh)
    [hh] = loads(_stud("'d dh p3 TdTs8c'", "'d dh p3 TdTs2c'").replace("TdTs8c5c", "TdTs2c5c"))
    with pytest.raises(HandHistoryError, match=r"actions\[4\] 'p1 pb': It is not seat 0's turn: seat 2"):
        replay(hh)


def test_the_stud_hand_agrees_with_pokerkit_where_pokerkit_can_read_it() -> None:
    """PokerKit refuses 'p1 pb' while p1's door card is unknown; with the door card written in (2c)
    it reads the hand and ends with the same stacks as the replay of the unknown-door file."""
    pytest.importorskip("pokerkit")
    from tests.differential.harness import _pk_replay

    stacks, failure, _ = _pk_replay(STUD_HI_LO)
    assert stacks is None and "actions[4] 'p1 pb'" in failure
    known = _stud("'d dh p1 ??????'", "'d dh p1 ????2c'")
    assert _pk_replay(known)[0] == list(STUD_FINAL)
    assert check_hand(loads(STUD_HI_LO)[0], "stud.phh", 0).status == "ok"


# --- ``sm ????`` before and after the run-out ----------------------------------------------------

#: PartyPoker/Ongame pattern, heads-up: p2 moves all in for 1,000, p1 calls all in for 600; both hands
#: are written ``sm ????`` before every street of the run-out, then one is shown. p1 covers 600: a pot
#: of 1,200 and 400 of p2's bet returned uncalled.
HEADS_UP = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [10, 20]
min_bet = 20
starting_stacks = [600, 1000]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 1000', 'p1 cc',
  'p1 sm ????', 'p2 sm ????', 'd db 2c7d9h', 'p1 sm ????', 'p2 sm ????', 'd db Ks',
  'p1 sm ????', 'p2 sm ????', 'd db 3h', SHOWDOWN]
"""
#: Three-handed: p3 moves all in for 1,000, p1 calls all in for 300, p2 calls all in for 1,000. Main
#: pot 3 x 300 = 900 (all three), side pot 2 x 700 = 1,400 (p2 and p3).
THREE_WAY = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [300, 1000, 1000]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 1000', 'p1 cc', 'p2 cc',
  'p1 sm ????', 'p2 sm ????', 'p3 sm ????', 'd db 2c7d9h',
  'p1 sm ????', 'p2 sm ????', 'p3 sm ????', 'd db Ks',
  'p1 sm ????', 'p2 sm ????', 'p3 sm ????', 'd db 3h', SHOWDOWN]
"""

UNSHOWN_CASES = [
    # The one hand shown wins, however weak: the other was never proven (p1 wins 1,200; p2 keeps 400).
    (HEADS_UP, "'p1 sm AhKh', 'p2 sm ????'", (1200, 400)),
    (HEADS_UP, "'p1 sm 4c5c', 'p2 sm ????'", (1200, 400)),
    (HEADS_UP, "'p1 sm ????', 'p2 sm 4c5c'", (0, 1600)),
    # p2 alone is shown: both pots.
    (THREE_WAY, "'p1 sm ????', 'p2 sm QdQc', 'p3 sm ????'", (0, 2300, 0)),
    (THREE_WAY, "'p1 sm ????', 'p2 sm ????', 'p3 sm 4c5c'", (0, 0, 2300)),
    # p1 alone is shown: the main pot; the side pot is contested only by two unproven hands, which
    # split it (700 each), neither being able to prove it wins.
    (THREE_WAY, "'p1 sm 4c5c', 'p2 sm ????', 'p3 sm ????'", (900, 700, 700)),
    # Two shown hands: aces win the pots they are in; the shown 5-4 beats the unshown p3 for the side pot.
    (THREE_WAY, "'p1 sm AcAd', 'p2 sm 4c5c', 'p3 sm ????'", (900, 1400, 0)),
    (THREE_WAY, "'p1 sm 4c5c', 'p2 sm AcAd', 'p3 sm ????'", (0, 2300, 0)),
]


@pytest.mark.parametrize(("text", "showdown", "stacks"), UNSHOWN_CASES)
def test_a_hand_shown_unknown_before_the_run_out_is_not_mucked(text: str, showdown: str,
                                                               stacks: tuple[int, ...]) -> None:
    """Robert's Rules, showdown: a hand must be shown to win. ``sm ????`` before the run-out is a hand
    face up but unrecorded (not a muck); at the end a hand never shown with known cards loses to one
    that is. Before, both hands were killed before the flop and the pot went by the deck's fill."""
    [hh] = loads(text.replace("SHOWDOWN", showdown))
    for seed in SEEDS:
        result = replay(hh, seed=seed)
        assert result.complete and result.stacks == stacks


@pytest.mark.parametrize(("text", "showdown", "stacks"), UNSHOWN_CASES)
def test_unshown_hands_agree_with_pokerkit(text: str, showdown: str, stacks: tuple[int, ...]) -> None:
    pytest.importorskip("pokerkit")
    from tests.differential.harness import _pk_replay

    assert _pk_replay(text.replace("SHOWDOWN", showdown))[0] == list(stacks)


def test_a_muck_before_the_run_out_still_kills_the_hand() -> None:
    """``sm`` with no cards is a muck (Robert's Rules, showdown): p2 mucks before the flop and p1 wins
    whatever p2 held."""
    text = HEADS_UP[: HEADS_UP.index("'p1 sm ????'")] + "'p2 sm', 'd db 2c7d9h', 'd db Ks', 'd db 3h', 'p1 sm 4c5c']\n"
    [hh] = loads(text)
    assert replay(hh).stacks == (1200, 400)
