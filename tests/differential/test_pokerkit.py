"""Our engine against PokerKit, hand by hand in both directions (see harness.py); skipped without PokerKit.

A disagreement counts as explained only when our engine, replaying the same hand under the named
convention (an engine option playing PokerKit 0.7.7's rule, docs/rules.md), reproduces PokerKit's
result; any other disagreement is open and fails with its repro: the variant, direction, seed
and the PHH text. ``python scripts/differential.py --hands 2000`` runs the same comparison at scale.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pokerkit")

from cardgame.phh import loads
from tests.differential.harness import (
    CODES,
    DEVIATIONS,
    Outcome,
    _explain,
    _our_replay,
    _refuses,
    run_hand,
)

HANDS = 60  # per variant and direction: 1,320 hands, about 12 s


@pytest.mark.parametrize("direction", ["A", "B"])
@pytest.mark.parametrize("code", CODES)
def test_every_hand_agrees_or_is_explained_by_a_checked_convention(code: str, direction: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about the hands it plays (free folds)
        outcomes = [run_hand(code, direction, seed) for seed in range(HANDS)]
    bad = [o for o in outcomes if o.status == "open"]
    assert not bad, "\n\n".join(o.repro() for o in bad[:3])
    assert sum(o.status == "agree" for o in outcomes) >= HANDS // 2  # the comparison really ran
    for o in outcomes:
        assert (o.status == "explained") == bool(o.explained_by)


# Robert's Rules, ties: p2, p3 and p4 play the board for a 14-chip pot (p1 folded 2 chips in). The
# rulebook gives one odd chip each from the button's left (5, 5, 4); PokerKit every odd chip to the
# first winner (6, 4, 4).
TIE = """variant = "NT"
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = [
  "d dh p1 2c3d", "d dh p2 2d3h", "d dh p3 2h3c", "d dh p4 4c5d",
  "p3 cc", "p4 cc", "p1 cc", "p2 cc",
  "d db AsKsQs", "p1 cc", "p2 cbr 2", "p3 cc", "p4 cc", "p1 f",
  "d db Js", "p2 cc", "p3 cc", "p4 cc", "d db Ts", "p2 cc", "p3 cc", "p4 cc",
  "p2 sm 2d3h", "p3 sm 2h3c", "p4 sm 4c5d",
]
"""


@pytest.mark.parametrize(
    ("pokerkit", "status", "by"),
    [([98, 102, 100, 100], "explained", ("odd-chips-one-each",)),  # PokerKit's own split
     ([98, 100, 102, 100], "open", ())],  # a hand with several odd chips, but no convention gives this
)
def test_an_explanation_holds_only_when_the_replay_under_it_gives_pokerkits_result(
    pokerkit: list[int], status: str, by: tuple[str, ...]
) -> None:
    [hh] = loads(TIE)
    assert _our_replay(hh, ())[0] == [98, 101, 101, 100]  # the rulebook: one odd chip each
    out = _explain(Outcome("NT", "A", 0), lambda conventions: _our_replay(hh, conventions)[0] == pokerkit, hh)
    assert (out.status, out.explained_by) == (status, by)


# TDA: the others call the full blind. Heads-up, p1 (big blind) has 2 chips: the ante leaves 1 for
# the blind; p2 (small blind, 1) must call 1 more in our engine. PokerKit's players call what was
# posted, so p2 owes nothing, and PokerKit refuses "p2 cc" (its random hands, direction B).
SHORT_BLIND = """variant = "F2L3D"
ante_trimming_status = true
antes = [1, 1]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [2, 117]
actions = ["d dh p1 2s4c3sJh3d", "d dh p2 4hAs2c9h6d", "p2 cc"]
"""


def test_a_refusal_is_explained_only_by_a_convention_under_which_our_engine_refuses_too() -> None:
    [hh] = loads(SHORT_BLIND)
    by_id = {d.id: d for d in DEVIATIONS}
    assert not _refuses(hh, (), 2)  # the rulebook: p2 calls the full blind
    assert _refuses(hh, (by_id["short-blind"],), 2)  # PokerKit's rule: nothing to call, not asked
    assert not _refuses(hh, (by_id["odd-chips-one-each"],), 2)
    out = _explain(Outcome("F2L3D", "B", 0), lambda conventions: _refuses(hh, conventions, 2), hh)
    assert (out.status, out.explained_by) == ("explained", ("short-blind",))


def test_every_deviation_is_in_the_rules_page() -> None:
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    missing = [d.id for d in DEVIATIONS if f"`{d.id}`" not in rules]
    assert not missing, f"docs/rules.md does not list {missing}"


@pytest.mark.parametrize(("code", "direction", "seed"),
                         [("F7S", "A", 63), ("F7S", "B", 32), ("F7S/8", "A", 15), ("F7S/8", "B", 63),
                          ("FR", "A", 3), ("FR", "B", 27)])
def test_8_handed_stud_out_of_cards_deals_one_community_card_in_both_engines(code: str, direction: str,
                                                                            seed: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = run_hand(code, direction, seed)
    assert out.phh.count("d db ") == 1
    assert (out.status, out.detail) == ("agree", "")


STUD8 = """variant = 'F7S'
antes = [0] * 8
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [100] * 8
actions = [{actions}]
"""


@pytest.mark.parametrize(("folds", "differs"), [("", False), ("'p1 f', ", True)])
def test_a_short_deck_is_compared_only_where_both_engines_run_short_alike(folds: str, differs: bool) -> None:
    """Eight live players: both deal one community card on seventh street. One folded on sixth
    street: 4 cards are left in the deck, we deal a community card; PokerKit counts the folded
    hand's cards as dealable and deals seventh street to the seven players."""
    from tests.differential.harness import deck_runs_short_differently

    deck = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    third = [f"'d dh p{i + 1} {''.join(deck[3 * i:3 * i + 3])}'" for i in range(8)]
    later = [f"'d dh p{i + 1} {deck[24 + 8 * k + i]}'" for k in range(3) for i in range(8)]
    actions = ", ".join(third + later) + ", " + folds + "'d db " + deck[48] + "'"
    assert deck_runs_short_differently("F7S", STUD8.format(actions=actions), 8) is differs


def test_an_all_in_run_out_on_a_short_deck_is_not_compared() -> None:
    """Everyone all-in on third street after p1 folds: the streets are dealt one after another with
    no action between them, and on seventh street PokerKit, its deck burned empty, deals from the
    muck, which holds p1's cards."""
    from tests.differential.harness import deck_runs_short_differently

    deck = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    third = [f"'d dh p{i + 1} {''.join(deck[3 * i:3 * i + 3])}'" for i in range(8)]
    later = [f"'d dh p{i + 1} {deck[24 + 7 * k + i - 1]}'" for k in range(4) for i in range(1, 8)]
    text = STUD8.format(actions=", ".join([*third, "'p1 f'", *later]))
    assert deck_runs_short_differently("F7S", text, 8)
    assert not deck_runs_short_differently("F7S", text, 8, muck=False)
