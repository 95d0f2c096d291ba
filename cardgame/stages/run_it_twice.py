"""Run it twice: once betting is over with cards to come, the players choose one or two run-outs."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from cardgame.engine import Goto, Outcome, Push
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import RunsChosen
from cardgame.model.inputs import check_int, excerpt
from cardgame.stages.base import PokerStage
from cardgame.stages.deal_board import DealBoard
from cardgame.stages.fitting import count, table_fit
from cardgame.stages.results import BettingResult, RunOptions

__all__ = ["RunChoice", "RunItTwice", "RunOptions"]


class RunItTwice(PokerStage):
    """Placed after a betting round with ``streets`` still to deal (``(count, name)`` each, e.g.
    ``((1, "turn"), (1, "river"))``). When that round leaves betting over for the hand (fewer than
    two live players can bet) with two or more players live, each live player in turn chooses
    ``1`` to ``max_runs`` run-outs (event ``choose_runs(seat, runs)``); the fewest chosen wins, so
    running it more than once needs everyone's agreement (the common house rule). The rest of the
    board is then dealt once per run-out, each street as a :class:`DealBoard` sub-stage pushed
    through the context, from the cards already on the board; the hand goes to the showdown, which
    splits every pot equally between the run-outs (an odd chip to the first) and awards each part
    on its own board. Otherwise (betting goes on) the stage hands the betting result on untouched.

    This is a house option, not a rule of Robert's Rules or the TDA; see ``docs/rules.md``.
    """

    name: ClassVar[str] = "run it twice"
    states: ClassVar[list[str]] = ["ready", "choosing_runs", "dealing_runs", "runs_dealt", "not_needed"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "not_needed", "unless": "betting_over"},
        {"trigger": "begin", "source": "ready", "dest": "choosing_runs", "before": "clear_choices"},
        # the choice: its conditions are the rules (questions; refuse_<rule> gives the first failing one's error)
        {"trigger": "choose", "source": "choosing_runs", "dest": None,
         "conditions": ["chooses_in_turn", "runs_in_range"], "before": "record_choice", "after": "count_choices"},
        {"trigger": "chose", "source": "choosing_runs", "dest": "dealing_runs", "conditions": "everyone_chose",
         "after": "keep_common_cards"},
        {"trigger": "chose", "source": "choosing_runs", "dest": None},
        {"trigger": "street_dealt", "source": "dealing_runs", "dest": "runs_dealt", "conditions": "all_runs_dealt",
         "after": "hand_on_runs"},
        {"trigger": "street_dealt", "source": "dealing_runs", "dest": None},
    ]
    ends: ClassVar[dict[str, str]] = {"not_needed": "passed_on", "runs_dealt": "to_showdown"}
    pushes: ClassVar[dict[str, str]] = {"dealing_runs": "next_street"}
    events: ClassVar[tuple[str, ...]] = ("choose_runs",)
    takes: ClassVar[tuple[type, ...]] = (BettingResult,)
    goes_to: ClassVar[tuple[str, ...]] = ("showdown",)
    snapshot_fields: ClassVar[tuple[str, ...]] = ("choices",)
    __slots__ = ("_common", "_dealt", "_runs", "choices", "max_runs", "streets")

    def __init__(self, streets: Sequence[tuple[int, str]], *, max_runs: int = 2) -> None:
        super().__init__()
        given: object = streets  # checked here: a caller may pass anything
        if isinstance(given, str | bytes) or not isinstance(given, Sequence) or not given:
            raise ConfigError(f"Run it twice needs the streets still to deal, e.g. ((1, 'turn'), (1, 'river')), "
                              f"not {excerpt(given)}.")
        check_int(max_runs, "max_runs", ConfigError, minimum=2)
        pairs: list[tuple[int, str]] = []
        for item in given:
            if not isinstance(item, tuple | list) or len(item) != 2 or not isinstance(item[1], str):
                raise ConfigError(f"Each street is a (card count, name) pair such as (1, 'turn'), not {excerpt(item)}.")
            pairs.append((check_int(item[0], "street's card count", ConfigError, minimum=1, maximum=52), item[1]))
        self.streets = tuple(pairs)
        self.max_runs = max_runs
        self.choices: tuple[tuple[int, int], ...] = ()  # (seat, run-outs) in the order chosen
        self._common: tuple[Card, ...] = ()
        self._runs: list[tuple[Card, ...]] = []
        self._dealt = 0  # streets dealt in the current run

    def copy(self, ctx: Context) -> Self:
        """This stage in a copy of the game, with a list of run-outs of its own."""
        new = super().copy(ctx)
        new._runs = self._runs[:]
        return new

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit_goto(self, before: Hashable) -> Hashable:
        """Its jump to the showdown comes with the rest of the board dealt once per run-out: the deck
        must hold ``max_runs`` of them, each street after a burn."""
        table = table_fit(before)
        if table is None:
            return before
        cards, burns = sum(n for n, _ in self.streets), len(self.streets)
        table.take(0, self.max_runs * (cards + burns), f"the rest of the board ({count(cards)} after "
                   f"{count(burns).replace('card', 'burn')}) up to {self.max_runs} times")
        return table.deal(0, 0, cards, burns)

    def fit_key(self) -> Hashable:
        return self.streets, self.max_runs

    # --- conditions and callbacks ---------------------------------------------------------------
    def betting_over(self) -> bool:
        previous = self.previous
        return isinstance(previous, BettingResult) and previous.betting_over and len(previous.live) >= 2

    def clear_choices(self) -> None:
        self.choices = ()

    def _chosen(self) -> set[int]:
        return {seat for seat, _ in self.choices}

    def on_table_change(self) -> Outcome | None:
        """A player mucked or left while run-outs are chosen: the folded hand chooses nothing, so
        re-check whether everyone still live has chosen (``chose`` deals once they have)."""
        if self.state == "choosing_runs":
            self.trigger("chose")
        return None  # the last choice leaves the stage dealing_runs: the dispatcher pushes the first street

    def everyone_chose(self) -> bool:
        hand = self.ctx.hand
        assert hand is not None
        chosen = self._chosen()
        return all(hp.seat in chosen for hp in hand.players if not hp.folded)

    def keep_common_cards(self) -> None:
        """Everyone chose: the board so far is common to every run-out."""
        hand = self.ctx.hand
        assert hand is not None
        self._common = tuple(hand.board)

    def next_street(self) -> Push:
        """What ``dealing_runs`` gives: the next street's deal, run on top of this stage."""
        count, street = self.streets[self._dealt]
        return Push(DealBoard(count, street), self.previous)

    def on_substage_result(self, result: Any) -> Outcome | None:
        hand = self.ctx.hand
        assert hand is not None
        self._dealt += 1
        if self._dealt == len(self.streets):  # a run-out is complete
            self._runs.append(tuple(hand.board))
            self._dealt = 0
            if len(self._runs) < self.runs:
                hand.board = list(self._common)
        self.trigger("street_dealt")  # dealing_runs deals the next street; runs_dealt ends the stage
        return None

    def all_runs_dealt(self) -> bool:
        return len(self._runs) == self.runs

    def hand_on_runs(self) -> None:
        """Every run-out is dealt: the hand keeps them for the showdown (one run-out: the board as it is)."""
        hand = self.ctx.hand
        assert hand is not None
        runs = tuple(self._runs)
        if len(runs) > 1:
            hand.runouts = runs
        self._runs = []

    def to_showdown(self) -> Goto:
        """The ending of ``runs_dealt``: every run-out is on the hand, to the showdown."""
        return Goto("showdown", self.previous)

    # --- queries and the event ------------------------------------------------------------------
    @property
    def runs(self) -> int:
        """The run-outs agreed: the fewest any player chose."""
        return min((runs for _, runs in self.choices), default=1)

    @property
    def to_act(self) -> int | None:
        """The seat to choose: the first live player, from the button's left, who has not chosen."""
        hand = self.ctx.hand if self.ctx is not None else None
        if self.state != "choosing_runs" or hand is None:
            return None
        chosen = self._chosen()
        return next((hp.seat for hp in hand.players if not hp.folded and hp.seat not in chosen), None)

    def run_options(self) -> RunOptions | None:
        """The player to choose and the largest number of run-outs, or ``None``."""
        seat = self.to_act
        return None if seat is None else RunOptions(seat, self.max_runs)

    def on_choose_runs(self, seat: object, runs: object) -> None:
        """``seat`` asks for ``runs`` run-outs: the ``choose`` trigger, judged by its rules; refused with
        the first failing rule's :class:`IllegalActionError`, changing nothing. The last choice starts
        the deal (``dealing_runs``: each street's :class:`DealBoard` runs on top of this stage)."""
        action = RunChoice(seat, runs)
        if not self.trigger("choose", action):
            raise self.refusal("choose", action)

    def chooses_in_turn(self, action: RunChoice) -> bool:
        """Live players choose in turn from the button's left (a house rule, docs/rules.md)."""
        seat = action.seat
        return isinstance(seat, int) and not isinstance(seat, bool) and seat == self.to_act

    def refuse_chooses_in_turn(self, action: RunChoice) -> IllegalActionError:
        return IllegalActionError(f"It is not seat {excerpt(action.seat)}'s turn to choose: seat {self.to_act} "
                                  "chooses next.", rule="choosing out of turn", allowed=f"seat {self.to_act}")

    def runs_in_range(self, action: RunChoice) -> bool:
        """From one run-out to ``max_runs``, the house's limit (docs/rules.md)."""
        runs = action.runs
        return isinstance(runs, int) and not isinstance(runs, bool) and 1 <= runs <= self.max_runs

    def refuse_runs_in_range(self, action: RunChoice) -> IllegalActionError:
        return IllegalActionError(f"Run-outs must be a whole number from 1 to {self.max_runs}, not "
                                  f"{excerpt(action.runs)}.", rule="run-outs out of range",
                                  allowed=f"1 to {self.max_runs}")

    def record_choice(self, action: RunChoice) -> None:
        seat, runs = action.seat, action.runs
        self.choices = (*self.choices, (seat, runs))  # type: ignore[arg-type]  # the rules held: ints
        self.ctx.emit(RunsChosen(seat, runs))  # type: ignore[arg-type]

    def count_choices(self, action: RunChoice) -> None:
        """The choice is made: deal once everyone live has chosen (``chose``)."""
        self.trigger("chose")


class RunChoice(NamedTuple):
    """A run-out choice as its trigger carries it to the rules: ``seat`` and ``runs`` as given."""

    seat: object
    runs: object
