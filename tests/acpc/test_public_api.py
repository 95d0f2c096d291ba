"""Every public callable of :mod:`cardgame.acpc` (and the dealer's), fed hostile values -- numbers
past Python's 4,300-digit limit, a megabyte string, wrong types -- raises the library's own error
with a short message, and a hand refused an input is unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardgame.acpc import STANDARD_GAMES, AcpcHand, Action, MatchState, acpc_stages, parse_matchstate
from cardgame.acpc.dealer import Dealer
from cardgame.model.errors import CardgameError

NL = STANDARD_GAMES["holdem.nolimit.2p.reverse_blinds"]
HOSTILE: list[object] = [10**5000, -(10**5000), 2**70, -1, True, 1.5, None, "x" * 1_000_000, b"Ah", ["Ah"],
                         object()]


def hand() -> AcpcHand:
    return AcpcHand(NL, 0, [(), ()])


CALLS: dict[str, Callable[[object], object]] = {
    "Action kind": lambda v: Action(v),  # type: ignore[arg-type]
    "Action size": lambda v: Action("r", v) if v is not None else Action("x"),  # type: ignore[arg-type]
    "MatchState position": lambda v: MatchState(v, 0, (), ((), ()), ((),)),  # type: ignore[arg-type]
    "MatchState hand": lambda v: MatchState(0, v, (), ((), ()), ((),)),  # type: ignore[arg-type]
    "MatchState betting": lambda v: MatchState(0, 0, v, ((), ()), ((),)),  # type: ignore[arg-type]
    "MatchState board": lambda v: MatchState(0, 0, (), ((), ()), v),  # type: ignore[arg-type]
    "acpc_stages": lambda v: acpc_stages(v),  # type: ignore[arg-type]
    "parse_matchstate line": lambda v: parse_matchstate(v, NL),  # type: ignore[arg-type]
    "parse_matchstate game": lambda v: parse_matchstate("MATCHSTATE:0:0::Ah2c|", v),  # type: ignore[arg-type]
    "AcpcHand game": lambda v: AcpcHand(v, 0, [(), ()]),  # type: ignore[arg-type]
    "AcpcHand number": lambda v: AcpcHand(NL, v, [(), ()]),  # type: ignore[arg-type]
    "AcpcHand hole": lambda v: AcpcHand(NL, 0, v),  # type: ignore[arg-type]
    "AcpcHand board": lambda v: AcpcHand(NL, 0, [(), ()], v),  # type: ignore[arg-type]
    "AcpcHand seed": lambda v: AcpcHand(NL, 0, [(), ()], seed=v),  # type: ignore[arg-type]
    "apply": lambda v: hand().apply(v),  # type: ignore[arg-type]
    "fix": lambda v: hand().fix(v) if v is not None else hand().fix(Action("x")),  # type: ignore[arg-type]
    "reveal hole": lambda v: hand().reveal(v),  # type: ignore[arg-type]
    "reveal board": lambda v: hand().reveal((), v),  # type: ignore[arg-type]
    "state": lambda v: hand().state(v),  # type: ignore[arg-type]
    "line": lambda v: hand().line(v),  # type: ignore[arg-type]
    "hole": lambda v: hand().hole(v),  # type: ignore[arg-type]
    "next_hand": lambda v: hand().next_hand(v, [(), ()]),  # type: ignore[arg-type]
    "Dealer hands": lambda v: Dealer(NL, hands=v),  # type: ignore[arg-type]
    "Dealer seed": lambda v: Dealer(NL, hands=1, seed=v),  # type: ignore[arg-type]
    "Dealer ports": lambda v: Dealer(NL, hands=1, ports=v),  # type: ignore[arg-type]
    "Dealer a port": lambda v: Dealer(NL, hands=1, ports=(0, v)),  # type: ignore[arg-type]
    "Dealer timeout_ms": lambda v: Dealer(NL, hands=1, timeout_ms=v if v is not None else 0),  # type: ignore[arg-type]
    "Dealer hand_ms": lambda v: Dealer(NL, hands=1, hand_ms=v if v is not None else 0),  # type: ignore[arg-type]
    "Dealer per_hand_ms": lambda v: Dealer(NL, hands=1, per_hand_ms=v if v is not None else 0),  # type: ignore[arg-type]
}


VALID: dict[str, tuple[object, ...]] = {  # hostile-looking values that are allowed there
    "AcpcHand board": (["Ah"],), "reveal board": (["Ah"],), "AcpcHand seed": (-1, 2**70), "Dealer ports": (None,)}


@pytest.mark.parametrize("name", CALLS)
def test_a_hostile_value_is_the_library_s_error_with_a_short_message(name: str) -> None:
    for value in HOSTILE:
        if any(value is v or (type(value) is type(v) and value == v) for v in VALID.get(name, ())):
            continue
        with pytest.raises(CardgameError) as caught:
            CALLS[name](value)
        assert len(str(caught.value)) < 400, (name, type(value).__name__)


def test_a_refused_reveal_changes_nothing() -> None:
    h = AcpcHand(NL, 0, [(), ()], ["Ah", "Kh", "Qh"])
    before = (h.line(0), h.line(1), h.cards())
    for hole, board in [(((), ("2c", "2d")), ["x" * 10_000]), ((("Ah", "2c"),), ["Ah", "Kh", "Qh"]),
                        (((), (), ()), ["Ah", "Kh", "Qh"])]:
        with pytest.raises(CardgameError):
            h.reveal(hole, board)
    assert (h.line(0), h.line(1), h.cards()) == before
