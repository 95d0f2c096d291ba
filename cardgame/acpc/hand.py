"""One hand of an ACPC game played on the engine: ACPC actions in, match states and payoffs out.

:class:`AcpcHand` runs a :class:`~cardgame.play.game.Game` of the game's stages (:func:`acpc_stages`)
for one hand, with seat ``p`` in position ``p`` (the button is the last position). The dealer
knows every card from the start; a client knows its own hole cards and the board as it is
shown, so cards it cannot see are dealt as stand-ins and the real ones put in when they are shown
(the board before the round it starts, the hands shown at the showdown before the last action).

Actions are ACPC actions (:class:`~cardgame.acpc.matchstate.Action`): ``apply`` plays one that is
legal under the reference dealer's rules and refuses any other; ``fix`` turns whatever a client
answered into the action the reference dealer plays (an invalid action is a call, a no-limit
raise out of range is moved into it, no answer is a check or a fold).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import Self

from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.matchstate import CALL, FOLD, RAISE, Action, MatchState, check_game, deck_set
from cardgame.acpc.stages import AcpcBettingRound, acpc_stages
from cardgame.model.betting import LegalActions
from cardgame.model.cards import Card, format_cards
from cardgame.model.deck import Deck, DeckSpec
from cardgame.model.errors import CardError, ConfigError, IllegalActionError, ProtocolError, StageError
from cardgame.model.events import ActionTaken, PotAwarded
from cardgame.model.hand import Hand
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.rng import RandomSource
from cardgame.play.game import Game
from cardgame.play.shape import GameShape, game_shape

__all__ = ["AcpcHand", "shape_of"]


@cache
def shape_of(game: GameDef) -> GameShape:
    """The public rules of ``game`` as bots read them (:class:`~cardgame.play.shape.GameShape`)."""
    return game_shape(acpc_stages(game), game.deck, "ACPC " + ("limit" if game.is_limit else "no-limit"))


class _GivenDeck(Deck):
    """Deals the given cards in order, then stand-ins; more given cards can be added later."""

    __slots__ = ("_given", "_spare")

    def __init__(self, spec: DeckSpec, given: Iterable[Card], spare: list[Card]) -> None:
        super().__init__(spec, ())
        self._given: deque[Card] = deque(given)
        self._spare = spare

    def copy(self, rng: RandomSource | None) -> Self:
        """The same cards to come, in lists of their own (``Game.copy``)."""
        new = super().copy(rng)
        new._given = deque(self._given)
        new._spare = self._spare[:]
        return new

    def give(self, cards: Iterable[Card]) -> None:
        self._given.extend(cards)

    def deal(self, count: int) -> list[Card]:
        out = [self._given.popleft() if self._given else self._spare.pop() for _ in range(count)]
        self.dealt += count
        return out

    def __len__(self) -> int:
        return len(self._given) + len(self._spare)


def _sequence(value: object, what: str) -> Sequence[object]:
    if type(value) is tuple or type(value) is list:
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise CardError(f"The {what} must be a list, not {excerpt(value)}.")
    return value


def _cards(value: object, what: str) -> tuple[Card, ...]:
    """``value`` as cards: a list of cards (``Card`` values, their text or their index)."""
    cards = _sequence(value, what)
    if len(cards) > 52:
        raise CardError(f"The {what} must be at most 52 cards, not {len(cards):,}.")
    if all(type(c) is Card for c in cards):  # as the dealer deals them
        return tuple(cards)  # type: ignore[arg-type]  # every one a Card
    return tuple(Card(check_int(c, "card index", CardError, minimum=0, maximum=51) if type(c) is int else c)
                 for c in cards)


def _check_cards(game: GameDef, hole: Sequence[tuple[Card, ...]], board: Sequence[Card]) -> None:
    """Each position's cards are none or ``num_hole_cards``; no card twice; every card in the deck."""
    for position, cards in enumerate(hole):
        if cards and len(cards) != game.num_hole_cards:
            raise CardError(f"Position {position} is given {len(cards)} hole cards; the game deals "
                            f"{game.num_hole_cards} (or give none: unknown).")
    if len(board) > sum(game.num_board_cards):
        raise CardError(f"{len(board)} board cards given; the game deals {sum(game.num_board_cards)}.")
    every = [c for h in hole for c in h] + list(board)
    if len(set(every)) != len(every):
        raise CardError(f"A card is given twice: {format_cards(every)}.")
    deck = deck_set(game)
    outside = [c for c in every if c not in deck]
    if outside:
        raise CardError(f"{format_cards(outside)} not in the game's deck ({game.deck.ranks} of {game.deck.suits}).")


class AcpcHand:
    """Hand ``number`` of ``game`` on the engine. ``hole`` gives each position's cards (``()``:
    unknown), ``board`` the board cards known so far in the order dealt (the dealer gives them
    all). ``seed`` seeds the engine game (whose randomness nothing here uses)."""

    def __init__(self, game: GameDef, number: int, hole: Sequence[Sequence[Card]], board: Sequence[Card] = (),
                 *, seed: int = 0) -> None:
        n = check_game(game).num_players
        seed = check_int(seed, "seed", ConfigError)
        self.definition = game
        self._start = game.stack_sizes
        dealt = self._deal_check(number, hole, board)
        # keep_hands=1: from the second hand on, the log (``game.events``) holds the hand in progress alone
        self.game = Game(acpc_stages(game), seats=n, first_button=n - 1, seed=seed, deck=game.deck, max_hands=1,
                         keep_hands=1)
        for position, stack in enumerate(self._start):
            self.game.sit_down(f"p{position}", stack, position)
        self._deal(number, *dealt)

    def next_hand(self, number: int, hole: Sequence[Sequence[Card]], board: Sequence[Card] = ()) -> None:
        """Start hand ``number`` (arguments as the constructor's) on the same engine game, once this
        hand is over: the stages and their machines are built once a match, not once a hand. Every
        stack is reset to the game's and seat ``p`` is in position ``p`` again. Refused input
        (:class:`~cardgame.model.errors.CardError`, :class:`~cardgame.model.errors.ProtocolError`) changes nothing."""
        if not self.finished:
            raise IllegalActionError(f"Hand {self.number} is not over; the next hand cannot start.",
                                     rule="hand in progress")
        dealt = self._deal_check(number, hole, board)
        ctx = self.game.ctx
        for p, stack in zip(ctx.table.seats, self._start, strict=True):
            assert p is not None
            p.stack, p.sitting_out = stack, False
        ctx.table.button = None  # the first button again: seat n - 1, so seat p is position p
        ctx.max_hands = ctx.hands_played + 1
        self._deal(number, *dealt)

    def _deal_check(self, number: object, hole: object, board: object
                    ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
        """Each position's hole cards and the board as cards, once checked (:func:`_check_cards`)."""
        n = self.definition.num_players
        check_int(number, "hand number", ProtocolError, minimum=0, maximum=2**32 - 1)
        holes = _sequence(hole, "hole cards (one list a position)")
        if len(holes) != n:
            raise ProtocolError(f"Hand {number}: {len(holes)} positions' hole cards given; the game has {n} positions.")
        known = [_cards(h, f"position {p}'s hole cards") for p, h in enumerate(holes)]
        cards = _cards(board, "board")
        _check_cards(self.definition, known, cards)
        return known, cards

    def _deal(self, number: int, known: list[tuple[Card, ...]], board: tuple[Card, ...]) -> None:
        """Deal hand ``number`` (checked by :meth:`_deal_check`) and start it on the engine game."""
        game = self.definition
        self.number = number
        self._known = known
        taken = {c for h in known for c in h} | set(board)
        spare = [c for c in reversed(game.deck.cards) if c not in taken]
        given: list[Card] = []
        for cards in self._known:
            given.extend(cards if cards else [spare.pop() for _ in range(game.num_hole_cards)])
        given.extend(board)
        self._board_given = len(board)
        self._deck = _GivenDeck(game.deck, given, spare)
        self._betting: list[list[Action]] = [[]]
        self._betting_text = ""  # the betting as sent, written as the actions come
        self._board_text: tuple[int, int, str] = (-1, -1, "")  # (round, cards dealt, the board as sent)
        self._prefix = [f"MATCHSTATE:{p}:{number}:" for p in range(game.num_players)]
        self._text: tuple[str, str] | None = None  # the betting and ":", and the board, as sent (None: to write)
        self._seen: list[str] | None = None  # the hole cards each position sees, as sent (None: to write)
        self._folded: set[int] = set()
        self._legal: LegalActions | None = None  # the legal actions until the next action
        self.game.ctx.next_deck = self._deck
        self.game.start()
        hand = self.game.hand
        assert isinstance(hand, Hand)
        self._hand: Hand = hand
        self._sync_round()

    # --- where the hand is -------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        status = self.game.dispatcher.status
        if status == "running":
            return False
        if status == "failed":
            raise StageError(f"The engine failed in hand {self.number}.")
        return True

    @property
    def to_act(self) -> int | None:
        """The position to act (``None`` once the hand is over)."""
        return None if self.finished else self.game.to_act

    @property
    def round(self) -> int:
        return len(self._betting) - 1

    @property
    def betting(self) -> tuple[tuple[Action, ...], ...]:
        return tuple(tuple(r) for r in self._betting)

    @property
    def folded(self) -> frozenset[int]:
        return frozenset(self._folded)

    @property
    def showdown(self) -> bool:
        """The hand is over with two or more players left (their cards are shown)."""
        return self.finished and self.definition.num_players - len(self._folded) >= 2

    def legal(self) -> LegalActions | None:
        """The engine's legal actions for the position to act (raise-to amounts are street totals)."""
        la = self._legal
        if la is None and not self.finished:
            la = self._legal = self.game.legal_actions()
        return la

    def base(self) -> int:
        """Chips the position to act put in before this round (a no-limit size is this plus the street total)."""
        seat = self.to_act
        if seat is None:
            return 0
        hp = self._hand.by_seat[seat]
        return hp.contributed - hp.bet

    def _sync_round(self) -> None:
        stage = self.game.stage
        if self.finished:
            self._seen = None  # the cards shown at a showdown
            if self.showdown:
                last = self.definition.num_rounds - 1
                while len(self._betting) <= last:
                    self._betting.append([])
                    self._betting_text += "/"
        elif isinstance(stage, AcpcBettingRound):
            while len(self._betting) <= stage.street:
                self._betting.append([])
                self._betting_text += "/"

    # --- actions ---------------------------------------------------------------------------------
    def apply(self, action: Action) -> Action:
        """Play ``action`` for the position to act; it must be legal under the reference dealer's
        rules (:class:`~cardgame.model.errors.IllegalActionError` otherwise). Returns the action as played."""
        if type(action) is not Action:
            raise IllegalActionError(f"An ACPC action is an Action, not {excerpt(action)}.", rule="not an action")
        la = self.legal()
        if la is None:
            raise IllegalActionError(f"Hand {self.number} is over; no action is due.", rule="no action pending")
        seat = la.seat
        base = self.base()
        if action.kind == "f":
            if not la.can_fold:
                raise IllegalActionError("A fold with nothing to call is not an ACPC action; check (c) instead.",
                                         rule="fold with nothing to call", allowed=self._describe(la, base))
            event = self.game.act(seat, "fold")
        elif action.kind == "c":
            event = self.game.act(seat, "check_call")
        else:
            if not la.can_raise:
                raise IllegalActionError("No raise is allowed now.", rule="raise not allowed",
                                         allowed=self._describe(la, base))
            if self.definition.is_limit:
                if action.size is not None:
                    raise IllegalActionError(f"A limit raise takes no size, not {action}.", rule="raise with a size",
                                             allowed=self._describe(la, base))
                to = la.min_raise_to
            else:
                if action.size is None or not la.min_raise_to + base <= action.size <= la.max_raise_to + base:
                    raise IllegalActionError(f"The raise {action} is not to {la.min_raise_to + base} to "
                                             f"{la.max_raise_to + base}.", rule="raise size out of range",
                                             allowed=self._describe(la, base))
                to = action.size - base
            event = self.game.act(seat, "bet_raise", to)
        assert isinstance(event, ActionTaken)
        self._legal = None
        played = self._token(event, base)
        self._betting[-1].append(played)  # the round the action was in: not yet moved on
        self._betting_text += str(played)
        self._text = None
        if played.kind == "f":
            self._folded.add(seat)
        self._sync_round()
        return played

    def _token(self, event: ActionTaken, base: int) -> Action:
        if event.action == "fold":
            return FOLD
        if event.action in ("check", "call"):
            return CALL
        return RAISE if self.definition.is_limit else Action("r", base + event.to)

    def fix(self, action: Action | None) -> Action:
        """The action the reference dealer plays for an answer: ``None`` (no answer in time, or the
        player is gone) checks or folds; a raise that is not allowed calls, a no-limit size is moved
        into the allowed range; a fold with nothing to call checks."""
        if action is not None and type(action) is not Action:
            raise IllegalActionError(f"An ACPC answer is an Action or None, not {excerpt(action)}.",
                                     rule="not an action")
        la = self.legal()
        if la is None:
            raise IllegalActionError(f"Hand {self.number} is over; no action is due.", rule="no action pending")
        if action is None:
            return CALL if la.can_check else FOLD
        if action.kind == "r":
            if not la.can_raise:
                return CALL
            if self.definition.is_limit:
                return RAISE
            base = self.base()
            size = la.min_raise_to + base if action.size is None else action.size
            return Action("r", min(max(size, la.min_raise_to + base), la.max_raise_to + base))
        if action.kind == "f" and not la.can_fold:
            return CALL
        return action

    def allowed(self) -> tuple[str, ...]:
        """The ACPC actions allowed now, as text: ``("c", "r")``, ``("f", "c", "r200-20000")``."""
        la = self.legal()
        return () if la is None else self._allowed(la, self.base())

    def _allowed(self, la: LegalActions, base: int) -> tuple[str, ...]:
        out = ["f"] if la.can_fold else []
        out.append("c")
        if la.can_raise:
            if self.definition.is_limit:
                out.append("r")
            elif la.min_raise_to == la.max_raise_to:
                out.append(f"r{la.min_raise_to + base}")
            else:
                out.append(f"r{la.min_raise_to + base}-{la.max_raise_to + base}")
        return tuple(out)

    def _describe(self, la: LegalActions, base: int) -> str:
        return ", ".join(self._allowed(la, base))

    # --- what players see ---------------------------------------------------------------------------
    def reveal(self, hole: Sequence[Sequence[Card]] = (), board: Sequence[Card] = ()) -> None:
        """Cards shown since the hand began: ``board`` is every board card known so far (the new
        ones are dealt when their round starts); ``hole`` each position's cards where shown."""
        holes = [_cards(h, f"position {p}'s hole cards") for p, h in enumerate(_sequence(hole, "hole cards"))]
        if len(holes) > self.definition.num_players:
            raise ProtocolError(f"Hand {self.number}: {len(holes)} positions' hole cards shown; the game has "
                                f"{self.definition.num_players} positions.")
        board = _cards(board, "board")
        dealt = self._hand.board
        if list(board[: len(dealt)]) != dealt[: len(board)]:
            raise ProtocolError(f"Hand {self.number}: the board {format_cards(board)} does not continue the "
                                f"board dealt, {format_cards(dealt)}.")
        for position, cards in enumerate(holes):  # checked before anything changes
            if cards and self._known[position] and cards != self._known[position]:
                raise ProtocolError(f"Hand {self.number}: position {position}'s cards are shown as "
                                    f"{format_cards(cards)}, not {format_cards(self._known[position])}.")
        shown = [holes[p] if p < len(holes) and holes[p] else known for p, known in enumerate(self._known)]
        _check_cards(self.definition, shown, board)  # no card twice, every card in the deck
        new = list(board[self._board_given :])
        if new:
            self._deck.give(new)
            self._board_given = len(board)
        for position, cards in enumerate(holes):
            if cards and cards != self._known[position]:
                self._known[position] = cards
                self._seen = None
                self._hand.players[position].hole[:] = list(cards)

    def hole(self, position: int) -> tuple[Card, ...]:
        """The position's hole cards if known."""
        return self._known[self._position(position)]

    def _position(self, position: object) -> int:
        if type(position) is not int or not 0 <= position < self.definition.num_players:
            raise ProtocolError(f"A position is 0 to {self.definition.num_players - 1}, not {excerpt(position)}.")
        return position

    def _board_rounds(self) -> tuple[tuple[Card, ...], ...]:
        board = self._hand.board
        out: list[tuple[Card, ...]] = []
        at = 0
        for r in range(self.round + 1):
            k = self.definition.num_board_cards[r]
            out.append(tuple(board[at : at + k]))
            at += k
        return tuple(out)

    def state(self, position: int) -> MatchState:
        """The match state ``position`` is sent: its own cards, and at a showdown those of every
        player who did not fold."""
        self._position(position)
        shown = self.showdown
        hole = tuple(self._known[p] if p == position or (shown and p not in self._folded) else ()
                     for p in range(self.definition.num_players))
        return MatchState(position, self.number, self.betting, hole, self._board_rounds())

    def line(self, position: int) -> str:
        """``str(self.state(position))``, the line ``position`` is sent, written from text kept
        between actions (the dealer sends one to every position after every action)."""
        if type(position) is not int or not 0 <= position < self.definition.num_players:
            self._position(position)  # raises
        text = self._text
        if text is None:
            at, dealt, board = self._board_text
            if at != len(self._betting) or dealt != len(self._hand.board):
                board = "/".join(["".join(map(str, r)) for r in self._board_rounds()])
                self._board_text = (len(self._betting), len(self._hand.board), board)
            text = self._text = (self._betting_text + ":", board)
        seen = self._seen
        if seen is None:
            seen = self._seen = self._seen_holes()
        return self._prefix[position] + text[0] + seen[position] + text[1]

    def _seen_holes(self) -> list[str]:
        """The hole cards each position is shown (``|``-separated): its own, and at a showdown
        those of every player who did not fold."""
        cards = ["".join(map(str, c)) for c in self._known]
        if self.showdown:
            shown = "|".join([c if p not in self._folded else "" for p, c in enumerate(cards)])
            return ["|".join([c if p == q or p not in self._folded else "" for p, c in enumerate(cards)])
                    if q in self._folded else shown for q in range(len(cards))]
        return ["|".join([c if p == q else "" for p, c in enumerate(cards)]) for q in range(len(cards))]

    def cards(self) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
        """Every position's hole cards (as known) and the board by round: what the dealer's log shows."""
        return tuple(self._known), self._board_rounds()

    # --- the result ---------------------------------------------------------------------------------
    def chips(self) -> tuple[int, ...]:
        """Chips each position won or lost in the engine (integers; split pots give odd chips by position)."""
        if not self.finished:
            raise IllegalActionError(f"Hand {self.number} is not over.", rule="hand in progress")
        seats = self.game.table.seats
        return tuple(seats[p].stack - start for p, start in enumerate(self._start))  # type: ignore[union-attr]

    def values(self) -> tuple[float, ...]:
        """Each position's payoff as the reference dealer counts it: a split pot is divided exactly
        (it may be a fraction of a chip); a folded player who put nothing in lost ``0.0`` (the
        reference's ``(double)-spent``, printed ``0``)."""
        chips = self.chips()
        won_chips = [0] * len(chips)
        won: list[int | Fraction] = [0] * len(chips)  # a Fraction only where a pot does not divide evenly
        for event in self.game.events:
            if type(event) is PotAwarded:
                share = (event.amount // len(event.winners) if event.amount % len(event.winners) == 0
                         else Fraction(event.amount, len(event.winners)))
                for seat, amount in zip(event.winners, event.amounts, strict=True):
                    won_chips[seat] += amount
                    won[seat] += share
        return tuple(float(won[p] - (won_chips[p] - net)) for p, net in enumerate(chips))

