"""Every sample hand in ``tests/data/phh`` parses, validates and survives a dump/parse round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgame.model.cards import parse_cards
from cardgame.phh import (
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    HandHistory,
    ShowMuckAction,
    StandPatDiscardAction,
    dumps,
    iter_paths,
    load,
    loads,
    save,
)

from .conftest import PHH_DATA

SAMPLES = list(iter_paths(PHH_DATA)) if PHH_DATA.is_dir() else []


def _id(path: Path) -> str:
    return path.relative_to(PHH_DATA).as_posix()


def _one(path: Path) -> HandHistory:
    [hand] = load(path)
    return hand


def test_sample_set_is_complete(phh_data: Path) -> None:
    assert len(SAMPLES) == 422
    assert len([p for p in SAMPLES if "pluribus" in p.parts]) == 416


@pytest.mark.parametrize("path", SAMPLES, ids=_id)
def test_sample_parses_and_round_trips(path: Path) -> None:
    hands = load(path)
    assert len(hands) == 1
    hand = hands[0]
    hand.validate()
    text = dumps(hand)
    assert loads(text, source="dumped") == hands
    assert dumps(loads(text)) == text  # the writer is a fixed point


def test_dwan_ivey_fields(phh_data: Path) -> None:
    hand = _one(phh_data / "dwan-ivey-2009.phh")
    assert hand.variant == "NT"
    assert hand.ante_trimming_status is True
    assert hand.antes == (500, 500, 500)
    assert hand.blinds_or_straddles == (1000, 2000, 0)
    assert hand.min_bet == 2000
    assert hand.small_bet is None and hand.bring_in is None
    assert hand.starting_stacks == (1125600, 2000000, 553500)
    assert hand.player_count == 3
    assert hand.players == ("Phil Ivey", "Patrik Antonius", "Tom Dwan")
    assert (hand.author, hand.year, hand.currency) == ("Juho Kim", 2009, "USD")
    assert hand.finishing_stacks is None and hand.extra == {}
    assert hand.actions[0] == DealHoleAction(0, parse_cards("Ac 2d"))
    assert hand.actions[1] == DealHoleAction(1, (None, None))
    assert hand.actions[3] == CompleteBetRaiseAction(2, 7000)
    assert hand.actions[5] == FoldAction(1)
    assert hand.actions[6] == CheckCallAction(2)
    assert hand.actions[7] == DealBoardAction(parse_cards("Jc 3d 5c"))
    assert hand.actions[-3] == ShowMuckAction(0, parse_cards("Ac 2d"))
    assert [a.to_text() for a in hand.actions[:4]] == ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h6h", "p3 cbr 7000"]


def test_fractional_stacks_are_kept(phh_data: Path) -> None:
    hand = _one(phh_data / "antonius-blom-2009.phh")
    assert hand.starting_stacks == (1259450.25, 678473.5)
    assert hand.variant == "PO" and hand.month == 11


def test_half_chip_finishing_stacks(phh_data: Path) -> None:
    hand = _one(phh_data / "pluribus" / "32" / "23.phh")
    assert hand.finishing_stacks == (9950, 9275, 10387.5, 10000, 10000, 10387.5)
    # Written 9950.0 in the file; integral floats are read as int, the half chips stay float.
    assert [type(x) for x in hand.finishing_stacks] == [int, int, float, int, int, float]
    assert hand.hand == 23


def test_badugi_draws(phh_data: Path) -> None:
    hand = _one(phh_data / "alice-carol-wikipedia.phh")
    assert hand.variant == "FB" and hand.small_bet == 2 and hand.big_bet == 4
    assert hand.actions[0] == DealHoleAction(0, (None,) * 4)
    discards = [a for a in hand.actions if isinstance(a, StandPatDiscardAction)]
    assert discards[0] == StandPatDiscardAction(0, (None, None))
    assert StandPatDiscardAction(1) in discards and StandPatDiscardAction(1).stands_pat
    assert hand.actions[-1] == ShowMuckAction(1, parse_cards("3s 5d 7c 8h"))


def test_triple_draw_known_discards(phh_data: Path) -> None:
    hand = _one(phh_data / "arieh-yockey-2019.phh")
    assert StandPatDiscardAction(3, parse_cards("As Qs")) in hand.actions
    assert DealHoleAction(3, parse_cards("2h Qh")) in hand.actions
    assert hand.region == "Nevada" and (hand.day, hand.month, hand.year) == (28, 6, 2019)


def test_short_deck_sample(phh_data: Path) -> None:
    hand = _one(phh_data / "phua-xuan-2019.phh")
    assert hand.variant == "NS" and hand.postal_code == "W1J 7ED"
    assert hand.blinds_or_straddles == (0, 0, 0, 0, 0, 3000)


def test_all_samples_as_one_phhs(phh_data: Path, tmp_path: Path) -> None:
    hands = [h for p in SAMPLES for h in load(p)]
    target = tmp_path / "all.phhs"
    save(target, hands)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("[1]\nvariant = ")
    assert f"\n[{len(hands)}]\n" in text
    assert load(target) == hands
