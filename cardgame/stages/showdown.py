"""Showdown: show the live hands, split every pot among its best hands, end the hand."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, NamedTuple, Self

from cardgame.engine import Done, Outcome
from cardgame.evaluation import HIGH, HandEvaluator, winners
from cardgame.evaluation.protocol import card_counts
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.errors import CardError, CardgameError, ConfigError, IllegalActionError
from cardgame.model.events import CardsShown, HandMucked, PotAwarded, RakeTaken
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import check_bool, excerpt
from cardgame.model.pots import Pot, side_pots, split
from cardgame.model.rake import FixedRake, Rake, rake_pots
from cardgame.stages.base import PokerStage, TableAction, hand_of
from cardgame.stages.fitting import TableFit, table_fit
from cardgame.stages.results import ShowdownResult, ShowOptions

__all__ = ["ShowChoice", "ShowOptions", "Showdown", "ShowdownResult"]

#: How odd chips of a split pot are given out (see :class:`Showdown`).
ODD_CHIPS = ("position", "high card", "low card")

#: What becomes of a pot's low half when none of its hands qualifies for low (see :class:`Showdown`).
NO_LOW = ("scoop", "split")

#: The values and descriptions of an evaluator a showdown does not have (read, never written).
_NO_VALUES: tuple[dict[int, int | None], dict[int, str]] = ({}, {})

#: Hand descriptions by evaluator name and value: a hand's text depends only on its value.
_DESCRIPTIONS: dict[str, dict[int, str]] = {}


def _card_order(cards: Sequence[int], low: bool) -> int:
    """Sort key putting first the player with the highest card by suit (``low``: the lowest, aces low)."""
    if low:
        return min([((c >> 2) + 1) % 13 * 4 + (c & 3) for c in cards])
    return -max(cards)


def _describe(
    evaluator: HandEvaluator, memo: dict[int, str], value: int, hole: Sequence[int], board: Sequence[int]
) -> str:
    """Describe the hand worth ``value`` (from the value alone when the evaluator
    :class:`~cardgame.evaluation.protocol.DescribesValues`) and remember the text in ``memo``."""
    text_of = getattr(evaluator, "text", None)  # DescribesValues (a runtime protocol check costs ~10 us)
    if callable(text_of):
        text: str = text_of(value)
        memo[value] = text
        return text
    hv = evaluator.describe(hole, board)
    text = memo[value] = "" if hv is None else hv.description
    return text


class Showdown(PokerStage):
    """Awards the pots and hands on a :class:`ShowdownResult` (the hand's end is the next stage).

    * The last player standing wins every pot without showing. A hand in ``hand.mucked`` or
      ``hand.killed`` is not shown and wins no pot another hand contests; a pot only it can win (its
      own excess) comes back to it. If every hand mucks, the full hands are shown after all; if
      all but one muck, that one wins what it contests without showing (however short the board).
    * Otherwise the live hands are shown, starting with the last player to bet or raise on the
      final round, else the first live player from where that round's action started: left of
      the button, or stud's best board (TDA rule 16; Robert's Rules, showdown).
    * Each pot (main, then side pots) goes to its best eligible ``high`` hand; with a ``low``
      evaluator a pot splits into a high half and a low half (the odd chip to the high half), and
      the high hand scoops when no eligible hand qualifies for low.
    * Odd chips (Robert's Rules, ties): no winner gets more than one. ``odd_chips="position"``
      (flop and draw games) gives them one at a time to the winners in order clockwise from the
      button; stud gives them to the highest card by suit (``"high card"``; razz and the low half
      of hi/lo: the lowest card by suit, aces low, ``"low card"``), all of a player's cards counted.

    Options that follow PokerKit (0.7.7) instead of the rulebook, for comparing with it:

    * ``one_odd_chip_each=False``: every odd chip of a split goes to the first winner in the
      odd-chip order.
    * ``merge_pots=True``: after the hands that can win nothing are set aside, consecutive pots
      contested by the same remaining hands are merged and split as one (Robert's Rules split
      side pots and the main pot separately).
    * ``no_low="split"``: when a hand qualifies for low in some pot but none of a pot's hands
      does, that pot's low half is split among its hands that can win something, not scooped.

    ``rake`` (a :class:`~cardgame.model.rake.Rake`, or a :class:`~cardgame.model.rake.FixedRake` of a
    recorded amount) takes the house's cut from the pots before they are awarded, the main pot
    first, and says how much with a :class:`~cardgame.model.events.RakeTaken` event.

    ``show_or_muck=True`` (a table rule; off, every live hand is shown at once, as PokerKit and the
    hand-history sites do): the showdown waits for the players, each in turn in the order of TDA
    rule 16 (the last aggressor on the final round first, else the first live player from where that
    round started; Robert's Rules, showdown 7), to show (``show``) or muck (``muck``) a hand
    (:class:`ShowOptions` says whose turn, and whether the hand wins against those tabled so far).
    A hand must be shown to win: a muck forfeits it, even a winner (Robert's Rules, showdown 1: a
    player must show all cards to win any part of the pot), and a tabled hand cannot be mucked (TDA
    rule 13: cards speak). When a live player is all in, every hand is tabled at once, as without
    the option (TDA rule 16, face up for all-ins). The last hand left unmucked wins without showing
    (TDA rule 14, uncontested showdown); after the pots are awarded, that winner, and a winner
    uncontested because every other player folded, may show or muck (``show``/``muck``).
    ``ask_to_see=True`` also lets a player still holding cards ask to see the called hand (the
    last aggressor's) once it was mucked unshown (TDA rule 18; Robert's Rules, showdown 5); it is
    shown and stays dead.
    """

    name: ClassVar[str] = "showdown"
    states: ClassVar[list[str]] = ["ready", "showing", "winner_may_show", "pots_awarded"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "prepare": "gather_hands",
         "conditions": "one_hand_left", "unless": "players_choose", "after": ["award_to_last_hand", "hand_on"]},
        {"trigger": "begin", "source": "ready", "dest": "winner_may_show", "conditions": ["players_choose",
         "one_hand_left"], "after": ["award_to_last_hand", "clear_pot"]},
        {"trigger": "begin", "source": "ready", "dest": "showing", "conditions": "players_choose",
         "unless": "someone_all_in", "after": "count_decisions"},
        {"trigger": "begin", "source": "ready", "dest": "pots_awarded", "after": ["show_and_award", "hand_on"]},
        # show_or_muck: each decision a trigger judged by its rules (mucks are the table's muck trigger)
        {"trigger": "show", "source": "showing", "dest": None, "conditions": "shows_in_turn", "before": "table_hand",
         "after": "count_decisions"},
        {"trigger": "show", "source": "winner_may_show", "dest": "pots_awarded", "conditions": "shows_in_turn",
         "before": "table_hand", "after": "hand_shown"},
        {"trigger": "decided", "source": "showing", "dest": "winner_may_show", "conditions": "one_unshown_hand_left",
         "before": "reopen_mucked", "after": ["show_and_award", "clear_pot"]},
        {"trigger": "decided", "source": "showing", "dest": "pots_awarded", "conditions": "everyone_decided",
         "before": "reopen_mucked", "after": ["show_and_award", "hand_on"]},
        {"trigger": "decided", "source": "showing", "dest": None},
        {"trigger": "declined", "source": "winner_may_show", "dest": "pots_awarded", "after": "hand_on"},
        {"trigger": "ask", "source": ["showing", "winner_may_show"], "dest": None,
         "conditions": ["asking_allowed", "holds_cards", "called_hand_mucked"], "before": "show_called_hand"},
    ]
    ends: ClassVar[dict[str, str]] = {"pots_awarded": "awards"}
    events: ClassVar[tuple[str, ...]] = ("show", "ask_to_see")
    gives: ClassVar[tuple[type, ...]] = (ShowdownResult,)
    #: States a snapshot refuses (:mod:`cardgame.store.snapshot`): the hands shown and mucked so far are not saved.
    unsaved_states: ClassVar[tuple[str, ...]] = ("showing", "winner_may_show")
    __slots__ = ("_awarded", "_live", "_mucked", "_seen", "_shown", "_tabled", "_won", "ask_to_see", "high", "low",
                 "merge_pots", "no_low", "odd_chips", "one_odd_chip_each", "rake", "show_or_muck")

    def __init__(
        self,
        high: HandEvaluator | None = HIGH,
        low: HandEvaluator | None = None,
        *,
        odd_chips: str = "position",
        one_odd_chip_each: bool = True,
        merge_pots: bool = False,
        no_low: str = "scoop",
        rake: Rake | FixedRake | None = None,
        show_or_muck: bool = False,
        ask_to_see: bool = False,
    ) -> None:
        super().__init__()
        if high is None and low is None:
            raise ConfigError("A showdown needs a high evaluator, a low evaluator, or both.")
        if odd_chips not in ODD_CHIPS:
            raise ConfigError(f"odd_chips must be one of {', '.join(ODD_CHIPS)}, not {excerpt(odd_chips)}.")
        if no_low not in NO_LOW:
            raise ConfigError(f"no_low must be one of {', '.join(NO_LOW)}, not {excerpt(no_low)}.")
        if rake is not None and not isinstance(rake, Rake | FixedRake):
            raise ConfigError(f"rake is a Rake (percent, cap), a FixedRake or None, not {excerpt(rake)}.")
        for what, flag in (("show_or_muck", show_or_muck), ("ask_to_see", ask_to_see)):
            check_bool(flag, what, ConfigError)
        if ask_to_see and not show_or_muck:
            raise ConfigError("ask_to_see needs show_or_muck=True: without it every hand is shown anyway.")
        self.show_or_muck = show_or_muck
        self.ask_to_see = ask_to_see
        self.rake = rake
        self.high = high
        self.low = low
        self.odd_chips = odd_chips
        self.one_odd_chip_each = one_odd_chip_each
        self.merge_pots = merge_pots
        self.no_low = no_low
        self._live: list[HandPlayer] = []
        self._mucked: frozenset[int] = frozenset()
        self._won: dict[int, int] = {}
        self._shown: list[int] = []
        self._awarded: ShowdownResult | None = None  # what the last hand_on handed on
        self._tabled: list[int] = []  # hands shown by choice (show_or_muck), in order
        self._seen: frozenset[int] = frozenset()  # mucked hands shown on request (ask_to_see)

    def copy(self, ctx: Context) -> Self:
        """This showdown in a copy of the game: its hands those of ``ctx``'s hand, its tallies its own."""
        new = super().copy(ctx)
        hand = ctx.hand
        new._live = [] if hand is None else [hand.by_seat[hp.seat] for hp in self._live]
        new._won = dict(self._won)
        new._shown = self._shown[:]
        new._tabled = self._tabled[:]
        return new

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """Needs the cards its evaluators rank (:class:`~cardgame.evaluation.CardCounts`), hole, up
        and board cards, on every path where hands are shown."""
        table = table_fit(before)
        if table is None:
            return before
        if table.contested:
            for evaluator in (self.high, self.low):
                counts = card_counts(evaluator)
                problem = None if counts is None else counts.misfit(table.hole, table.board, table.together)
                if problem:
                    name = getattr(evaluator, "name", None)
                    name = name if isinstance(name, str) and len(name) <= 60 else excerpt(name)
                    raise ConfigError(f"the {name} evaluator ranks hands of {problem}, but players here can use "
                                      f"{table.cards_text()}")
        return TableFit(table.seats, table.deck, blinds=table.blinds)  # the paths meet: the pots are awarded

    def fit_key(self) -> Hashable:
        return card_counts(self.high), card_counts(self.low)

    # --- conditions and callbacks ---------------------------------------------------------------
    def gather_hands(self) -> None:
        """The hands still in: a mucked hand is not shown but stays eligible for a pot nobody else
        can win (its own excess); if every hand mucks, the full hands are shown after all."""
        hand = self.ctx.hand
        assert hand is not None, "showdown runs inside a hand"
        self._won, self._shown = {}, []
        mucked = hand.mucked | hand.killed if hand.mucked or hand.killed else hand.mucked
        if mucked:
            mucked = _unmucked(hand, mucked)
        self._live = hand.live()
        self._mucked = mucked

    def one_hand_left(self) -> bool:
        return len(self._live) == 1

    def award_to_last_hand(self) -> None:
        """The last player standing wins every pot without showing."""
        hand = self.ctx.hand
        assert hand is not None
        last = self._live[0]
        total = hand.pot_total()
        if self.rake is not None:
            total -= self._take_rake(hand, total)
        last.player.stack += total
        self._won[last.seat] = total
        self.ctx.emit(PotAwarded(0, total, (last.seat,), (total,)))

    def show_and_award(self) -> None:
        hand = self.ctx.hand
        assert hand is not None
        live, mucked = self._live, self._mucked
        if mucked and sum(hp.seat not in mucked for hp in live) == 1:
            self._award_unshown(hand, mucked)
        elif live:
            self._shown = self._award(hand, [hp for hp in live if hp.seat not in mucked] if mucked else live,
                                      self._won, mucked)

    def _award_unshown(self, hand: Hand, mucked: frozenset[int]) -> None:
        """Every other live hand was mucked (perhaps before the run-out, so the board may be short):
        the one hand left wins every pot it contests without showing, as the last player standing
        does. A pot only mucked hands contest (their excess over it) goes back to them, split
        evenly, odd chips in position order, since none of them is shown."""
        emit, won = self.ctx.emit, self._won
        for index, pot in enumerate(self._pots(hand)):
            winners = [seat for seat in pot.eligible if seat not in mucked] or list(pot.eligible)
            shares = split(pot.amount, winners)
            for seat, chips in zip(winners, shares, strict=True):
                hand.by_seat[seat].player.stack += chips
                won[seat] = won.get(seat, 0) + chips
            emit(PotAwarded(index, pot.amount, tuple(winners), tuple(shares)))

    def _pots(self, hand: Hand) -> list[Pot]:
        """The pots to award: :func:`~cardgame.model.pots.side_pots`, less the rake (main pot first)."""
        pots = side_pots(hand.players, hand.dead)
        if self.rake is None:
            return pots
        chips = self._take_rake(hand, sum([pot.amount for pot in pots]))
        return rake_pots(pots, chips) if chips else pots

    def _take_rake(self, hand: Hand, pot: int) -> int:
        """The rake on a ``pot`` of that many chips (announced with :class:`RakeTaken` when there is one)."""
        assert self.rake is not None
        chips = self.rake.amount(pot, flop=bool(hand.board or hand.runouts), players=len(hand.players),
                                 second_round=hand.rounds > 1)
        if chips:
            self.ctx.emit(RakeTaken(chips))
        return chips

    def clear_pot(self) -> None:
        """The pots are awarded: no chip is committed to the hand any more (so the table's chips add up
        while the winner decides whether to show)."""
        hand = self.ctx.hand
        assert hand is not None
        for hp in hand.players:
            hp.contributed = 0
            hp.bet = 0
        hand.dead = 0

    def hand_on(self) -> None:
        self.clear_pot()
        hand = self.ctx.hand
        assert hand is not None
        self._awarded = ShowdownResult(hand.number, tuple(sorted(self._won.items())), tuple(self._shown))
        self._live, self._won, self._shown = [], {}, []
        if self._tabled or self._seen:
            self._tabled, self._seen = [], frozenset()

    def awards(self) -> Done:
        """The ending of ``pots_awarded``: who won what and whose hands were shown."""
        return Done(self._awarded)

    # --- show or muck (show_or_muck=True): the players' decisions -------------------------------------
    def players_choose(self) -> bool:
        return self.show_or_muck

    def someone_all_in(self) -> bool:
        """TDA rule 16 (face up for all-ins): once a player is all in and betting is over, every hand is
        tabled at once (Robert's Rules, tournaments 34)."""
        return any([hp.all_in for hp in self._live])

    def _deciding(self) -> list[HandPlayer]:
        """The hands not mucked (live, not folded), in the showdown's order."""
        mucked = self._mucked
        return [hp for hp in self._live if not hp.folded and hp.seat not in mucked]

    @property
    def to_act(self) -> int | None:
        """The seat to show or muck: the first undecided hand in TDA rule 16's order; after the award, the
        hand that won unshown (it may show)."""
        state = self.state
        if state == "showing":
            hand = self.ctx.hand
            assert hand is not None
            left = self._deciding()
            tabled = self._tabled
            return next((hp.seat for hp in self._show_order(hand, left) if hp.seat not in tabled), None)
        if state == "winner_may_show":
            return next((hp.seat for hp in self._live if hp.seat not in self._mucked), None)
        return None

    def show_options(self) -> ShowOptions | None:
        """The show-or-muck decision waiting (see :class:`ShowOptions`), or ``None``."""
        seat = self.to_act
        if seat is None:
            return None
        if self.state == "winner_may_show":
            return ShowOptions(seat, True, True)
        return ShowOptions(seat, self._wins(seat))

    def _wins(self, seat: int) -> bool:
        """Whether ``seat``'s hand takes a share (high or low, on some board) of a pot it is eligible
        for against the hands tabled so far."""
        hand = self.ctx.hand
        assert hand is not None
        tabled = self._tabled
        players = [hand.by_seat[s] for s in (*tabled, seat)]
        runs = [[self._values(ev, players, board)[0] for ev in (self.high, self.low) if ev is not None]
                for board in (hand.runouts or (hand.board,))]
        for pot in side_pots(hand.players, hand.dead):
            if seat in pot.eligible:
                eligible = [s for s in pot.eligible if s == seat or s in tabled]
                if any(seat in self._best(eligible, values) for run in runs for values in run):
                    return True
        return False

    def hand_shown(self, action: ShowChoice) -> None:
        """The winner showed after the award: the hand goes on."""
        self.hand_on()

    def count_decisions(self, *args: object) -> None:
        self.trigger("decided")

    def one_unshown_hand_left(self) -> bool:
        """Every other hand mucked: the last one wins without showing (TDA rule 14), and may show."""
        left = self._deciding()
        return len(left) == 1 and left[0].seat not in self._tabled

    def everyone_decided(self) -> bool:
        return self.to_act is None

    def reopen_mucked(self) -> None:
        """The hands mucked at this showdown are dead but, as ``gather_hands`` keeps them, eligible for a
        pot nobody else can win (their own excess)."""
        mucked = set(self._mucked)
        for hp in self._live:
            if hp.folded:
                mucked.add(hp.seat)
                hp.folded = False
        self._mucked = frozenset(mucked)

    def on_show(self, seat: object) -> None:
        """``seat`` shows its hand (trigger ``show``), refused with the rule's error if it is not its turn."""
        action = ShowChoice(seat)
        if not self.trigger("show", action):
            raise self.refusal("show", action)

    def shows_in_turn(self, action: ShowChoice) -> bool:
        """Hands are shown in turn: the last aggressor on the final round first, else the first live
        player from where that round started (TDA rule 16; Robert's Rules, showdown 7)."""
        seat = action.seat
        return isinstance(seat, int) and not isinstance(seat, bool) and seat == self.to_act

    def refuse_shows_in_turn(self, action: ShowChoice) -> IllegalActionError:
        return IllegalActionError(f"It is not seat {excerpt(action.seat)}'s turn to show: seat {self.to_act} shows "
                                  "or mucks next (TDA rule 16).", rule="showing out of turn",
                                  allowed=f"seat {self.to_act}")

    def table_hand(self, action: ShowChoice) -> None:
        seat: int = action.seat  # type: ignore[assignment]  # shows_in_turn held: a seat number
        self._tabled.append(seat)
        self._show(seat)

    def _show(self, seat: int) -> None:
        """Show ``seat``'s hand with its description (on each run-out)."""
        hand = self.ctx.hand
        assert hand is not None
        hp = hand.by_seat[seat]
        try:
            text = _shown_text(seat, [(self._values(self.high, [hp], board), self._values(self.low, [hp], board))
                                      for board in (hand.runouts or (hand.board,))])
        except CardError:  # an uncontested winner shows before the board is out: its cards rank nothing yet
            text = ""
        self.ctx.emit(CardsShown(seat, tuple(hp.hole), text))

    # the table's muck, at a showdown where players choose
    def has_a_live_hand(self, action: TableAction) -> bool:
        """As every stage's rule, and: a tabled hand is not mucked (TDA rule 13: cards speak); after the
        award only the winner may muck, declining to show."""
        state = self.state
        if state == "winner_may_show":
            return action.seat == self.to_act
        if state == "showing" and action.seat in self._tabled:
            return False
        return super().has_a_live_hand(action)

    def refuse_has_a_live_hand(self, action: TableAction) -> CardgameError:
        if self.state == "showing" and action.seat in self._tabled:
            return IllegalActionError(f"Seat {excerpt(action.seat)}'s hand is tabled: cards speak, a tabled hand "
                                      "is not mucked (TDA rule 13).", rule="muck a tabled hand")
        if self.state == "winner_may_show":
            return IllegalActionError(f"The pot is awarded; only seat {self.to_act} may still show or muck.",
                                      rule="muck after the award", allowed=f"seat {self.to_act}")
        return super().refuse_has_a_live_hand(action)

    def not_the_last_hand(self, action: TableAction) -> bool:
        """As every stage's rule, counting the hands not mucked at this showdown; after the award, the
        winner mucks to decline showing."""
        state = self.state
        if state == "showing":
            return len(self._deciding()) >= 2
        return state == "winner_may_show" or super().not_the_last_hand(action)

    def muck_the_hand(self, action: TableAction) -> None:
        """A muck at the showdown is logged (:class:`HandMucked`) and forfeits the hand; after the award
        the winner declines to show."""
        state = self.state
        if state == "winner_may_show":
            self.trigger("declined")
            return
        if state == "showing":
            self.ctx.emit(HandMucked(action.seat))  # type: ignore[arg-type]  # the rules held: a seat
        super().muck_the_hand(action)

    def leave_the_table(self, action: TableAction) -> None:
        """A player leaving while hands are shown mucks an untabled hand (a player away when it is their
        turn has a dead hand: Robert's Rules, general rules); a tabled hand stays, and after the award the
        winner declines to show. The seat is freed when the hand ends."""
        state, hand = self.state, self.ctx.hand
        hp = None if hand is None else hand_of(self.ctx, self.ctx.table.player(action.seat))  # type: ignore[arg-type]
        if hp is None or state not in ("showing", "winner_may_show"):
            super().leave_the_table(action)
            return
        hp.player.leaving = True
        if state == "winner_may_show" and hp.seat == self.to_act:
            self.trigger("declined")
        elif state == "showing" and not hp.folded and hp.seat not in self._tabled and hp.seat not in self._mucked:
            self.muck_the_hand(action)

    def on_table_change(self) -> Outcome | None:
        """A hand was mucked or its player left while hands are shown: re-check who decides next."""
        if self.state == "showing":
            self.trigger("decided")
        return self.outcome

    # asking to see a called hand (ask_to_see=True)
    def on_ask_to_see(self, seat: object) -> None:
        """``seat`` asks to see the called hand (trigger ``ask``), refused with the rule's error."""
        action = ShowChoice(seat)
        if not self.trigger("ask", action):
            raise self.refusal("ask", action)

    def asking_allowed(self, action: ShowChoice) -> bool:
        """A house option (``ask_to_see``; TDA rule 18)."""
        return self.ask_to_see

    def refuse_asking_allowed(self, action: ShowChoice) -> IllegalActionError:
        return IllegalActionError("This table does not let players ask to see a hand (ask_to_see is off).",
                                  rule="asking to see a hand")

    def holds_cards(self, action: ShowChoice) -> bool:
        """Only a player still holding a live hand may ask; one who mucked has lost the right (TDA rule 18)."""
        hand, seat = self.ctx.hand, action.seat
        if hand is None or not isinstance(seat, int) or isinstance(seat, bool) or seat not in hand.by_seat:
            return False
        return not hand.by_seat[seat].folded and seat not in self._mucked

    def refuse_holds_cards(self, action: ShowChoice) -> IllegalActionError:
        return IllegalActionError(f"Seat {excerpt(action.seat)} holds no live hand: only a player still holding "
                                  "cards may ask to see a hand (TDA rule 18).", rule="asking without a hand")

    def called_hand_mucked(self, action: ShowChoice) -> bool:
        """The hand asked for is the called one (the last aggressor's on the final round), mucked unshown
        at this showdown (TDA rule 18; Robert's Rules, showdown 5)."""
        hand = self.ctx.hand
        assert hand is not None
        aggressor = hand.last_aggressor
        if aggressor is None or aggressor == action.seat or aggressor in self._seen:
            return False
        return any([hp.seat == aggressor and (hp.folded or hp.seat in self._mucked) for hp in self._live])

    def refuse_called_hand_mucked(self, action: ShowChoice) -> IllegalActionError:
        return IllegalActionError("There is no called hand mucked unshown to see: a player may ask to see only the "
                                  "last aggressor's hand (TDA rule 18).", rule="no called hand to see")

    def show_called_hand(self, action: ShowChoice) -> None:
        """The called hand is shown to the table; it stays dead (Robert's Rules, showdown 5)."""
        hand = self.ctx.hand
        assert hand is not None and hand.last_aggressor is not None
        self._seen = self._seen | {hand.last_aggressor}
        self._show(hand.last_aggressor)

    def _show_order(self, hand: Hand, live: list[HandPlayer]) -> list[HandPlayer]:
        """TDA rule 16 (Robert's Rules, showdown): the last player to bet or raise on the final round
        shows first; with no bet, the first live player from where that round's action started (left
        of the button in flop and draw games, the best board showing in stud, the worst in razz)."""
        if hand.last_aggressor is not None and hand.last_aggressor in hand.by_seat:
            agg = hand.by_seat[hand.last_aggressor]
            if agg in live:
                i = live.index(agg)
                return live[i:] + live[:i]
        if hand.first_to_act is not None and hand.first_to_act in hand.by_seat:
            start = hand.players.index(hand.by_seat[hand.first_to_act])
            order = hand.ring[start : start + len(hand.players)]
            return [hp for hp in order if hp in live]
        return live

    def _award(
        self, hand: Hand, live: list[HandPlayer], won: dict[int, int], mucked: frozenset[int]
    ) -> list[int]:
        """Show the hands in order and award every pot; a hand run more than once splits each pot
        equally between its run-outs (an odd chip to the first) and awards each part on its board."""
        emit = self.ctx.emit
        boards = hand.runouts or (hand.board,)
        high, low = self.high, self.low
        runs = [(self._values(high, live, board), self._values(low, live, board) if low is not None else _NO_VALUES)
                for board in boards]
        tabled = self._tabled
        # one board and no low hand described: a shown hand's text is its high hand's (what _shown_text gives)
        plain = runs[0][0][1] if len(runs) == 1 and not runs[0][1][1] else None
        for hp in self._show_order(hand, live):
            seat = hp.seat
            if not tabled or seat not in tabled:  # (a hand shown by choice is shown once)
                emit(CardsShown(seat, tuple(hp.hole), plain.get(seat, "") if plain is not None
                                else _shown_text(seat, runs)))
        several = len(boards) > 1
        pots = [(index, pot.amount, ([seat for seat in pot.eligible if seat not in mucked] if mucked else None)
                 or list(pot.eligible)) for index, pot in enumerate(self._pots(hand))]
        contenders = self._contenders(pots, runs) if self.merge_pots or self.no_low == "split" else None
        if self.merge_pots and contenders is not None:
            pots = _merged(pots, contenders)
        for index, pot_amount, eligible in pots:
            for run, amount in enumerate(split(pot_amount, range(len(boards))) if several else (pot_amount,)):
                (highs, hi_texts), (lows, lo_texts) = runs[run]
                texts = (hi_texts, lo_texts)
                label = run if several else None
                low_winners = self._best(eligible, lows) if low is not None else []
                high_winners = self._best(eligible, highs) if high is not None else []
                if (not low_winners and high_winners and contenders is not None and self.no_low == "split"
                        and any(v is not None for v in lows.values())):  # PokerKit: the low half still split
                    low_winners = [seat for seat in eligible if seat in contenders]
                if low_winners and high_winners:
                    low_half = amount // 2
                    self._pay(index, amount - low_half, high_winners, won, texts, 0, "high", label)
                    self._pay(index, low_half, low_winners, won, texts, 1, "low", label)
                elif high_winners or low_winners:
                    winners, which = (high_winners, 0) if high_winners else (low_winners, 1)
                    self._pay(index, amount, winners, won, texts, which, "", label)
                else:  # nobody qualifies (e.g. a low-only game with no qualifying hand): split evenly
                    self._pay(index, amount, eligible, won, texts, 0, "", label)
        return [hp.seat for hp in live]

    def _contenders(
        self, pots: list[tuple[int, int, list[int]]],
        runs: list[tuple[tuple[dict[int, int | None], dict[int, str]], tuple[dict[int, int | None], dict[int, str]]]],
    ) -> frozenset[int]:
        """The seats that win a share (high or low, on some board) of some pot they are eligible for."""
        out: set[int] = set()
        for _, _, eligible in pots:
            for (highs, _), (lows, _) in runs:
                if self.high is not None:
                    out.update(self._best(eligible, highs))
                if self.low is not None:
                    out.update(self._best(eligible, lows))
        return frozenset(out)

    @staticmethod
    def _values(
        evaluator: HandEvaluator | None, live: list[HandPlayer], board: Sequence[Card]
    ) -> tuple[dict[int, int | None], dict[int, str]]:
        """Each live hand's value with ``board`` (``None``: does not qualify) and its description."""
        values: dict[int, int | None] = {}
        texts: dict[int, str] = {}
        if evaluator is None:
            return values, texts
        memo = _DESCRIPTIONS.setdefault(evaluator.name, {})
        for hp in live:
            v = values[hp.seat] = evaluator.rank(hp.hole, board)
            if v is not None:
                texts[hp.seat] = memo.get(v) or _describe(evaluator, memo, v, hp.hole, board)
        return values, texts

    @staticmethod
    def _best(seats: list[int], values: dict[int, int | None]) -> list[int]:
        """The seats holding the best qualifying value (all of them on a tie)."""
        return [seats[i] for i in winners(seats, key=values.get)]

    def _pay(
        self,
        index: int,
        amount: int,
        winners: list[int],
        won: dict[int, int],
        texts: tuple[dict[int, str], dict[int, str]],
        which: int,
        share: str,
        run: int | None = None,
    ) -> None:
        hand = self.ctx.hand
        assert hand is not None
        if self.odd_chips != "position" and len(winners) > 1 and amount % len(winners):
            low = which == 1 or self.odd_chips == "low card"
            winners = sorted(winners, key=lambda seat: _card_order(hand.by_seat[seat].hole, low))
        shares = [amount] if len(winners) == 1 else split(amount, winners)
        if not self.one_odd_chip_each and len(shares) > 1:  # every odd chip to the first winner
            shares = [amount - shares[-1] * (len(shares) - 1)] + [shares[-1]] * (len(shares) - 1)
        for i, seat in enumerate(winners):  # one share per winner
            chips = shares[i]
            hand.by_seat[seat].player.stack += chips
            won[seat] = won.get(seat, 0) + chips
        text = texts[which].get(winners[0], "")  # "" for a mucked hand taking back its own excess
        self.ctx.emit(PotAwarded(index, amount, tuple(winners), tuple(shares), text, share, run))


def _unmucked(hand: Hand, mucked: frozenset[int]) -> frozenset[int]:
    """The mucked hands back in (eligible for what only they can win); the seats that stay mucked: all of
    them, unless every live hand mucks, when the full hands are shown after all (a hand killed before the
    run-out is not full)."""
    for hp in hand.players:
        if hp.seat in mucked:
            hp.folded = False
    live = hand.live()
    if all(hp.seat in mucked for hp in live):
        most = max(len(hp.hole) for hp in live)
        mucked = frozenset([hp.seat for hp in live if len(hp.hole) < most])
    return mucked


def _shown_text(
    seat: int,
    runs: Sequence[tuple[tuple[dict[int, int | None], dict[int, str]], tuple[dict[int, int | None], dict[int, str]]]],
) -> str:
    """How ``seat``'s shown hand reads: high / low, on each run-out in turn."""
    texts = []
    for (_, hi_text), (_, lo_text) in runs:
        high, low = hi_text.get(seat, ""), lo_text.get(seat, "")
        texts.append(f"{high} / {low}" if high and low else high or low)
    return texts[0] if len(texts) == 1 else "; ".join(f"run {i + 1}: {text}" for i, text in enumerate(texts))


class ShowChoice(NamedTuple):
    """A show (or a request to see a hand) as its trigger carries it to the rules: ``seat`` as given."""

    seat: object


def _merged(pots: list[tuple[int, int, list[int]]], contenders: frozenset[int]) -> list[tuple[int, int, list[int]]]:
    """Consecutive pots contested by the same ``contenders`` merged into one (PokerKit's pots)."""
    out: list[tuple[int, int, list[int]]] = []
    for index, amount, eligible in pots:
        live = [seat for seat in eligible if seat in contenders] or eligible
        if out and out[-1][2] == live:
            out[-1] = (out[-1][0], out[-1][1] + amount, live)
        else:
            out.append((index, amount, live))
    return out
