"""``Game``: a dispatcher, its context and a table behind one small API for players and bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from cardgame.engine import Dispatcher, Stage
from cardgame.model.betting import LegalActions
from cardgame.model.context import Context
from cardgame.model.deck import STANDARD_DECK, DeckSpec
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import Event
from cardgame.model.inputs import check_bool, check_int, excerpt
from cardgame.model.rng import RandomSource
from cardgame.model.table import Player, Table
from cardgame.play.bot import Bot
from cardgame.play.bot import play as play_bots
from cardgame.play.view import TableView, status_table, table_view
from cardgame.stages.base import (
    TableAction,
    add_chips,
    check_muck,
    fold_leaver,
    free_seat,
    hand_of,
    mark_sitting_in,
    mark_sitting_out,
    seat_player,
)
from cardgame.stages.betting_round import KINDS, Action
from cardgame.stages.draw import Discard, Draw, DrawOptions
from cardgame.stages.results import RunOptions, ShowOptions
from cardgame.stages.run_it_twice import RunChoice, RunItTwice
from cardgame.stages.showdown import ShowChoice, Showdown

__all__ = ["Game", "VariantLike"]


@runtime_checkable
class VariantLike(Protocol):
    """What :class:`Game` takes as a variant (``variants.Variant``): a name, a deck and ``build``."""

    @property
    def name(self) -> str: ...

    @property
    def deck(self) -> DeckSpec: ...

    def build(self, **params: Any) -> Sequence[Stage[Any]]: ...


class Game:
    """A poker game: ``Game(no_limit_holdem(1, 2), seed=7)`` or ``Game(variants.get("PO"))``, seat
    players, ``start()``, act.

    ``stages`` is the variant's stage list, or the variant itself. Table options: ``seats``, ``min_buy_in``,
    ``max_buy_in``, ``first_button``; or pass a ready ``table``. ``seed`` makes the game
    replayable; ``max_hands`` stops it cleanly after that many hands. ``events`` holds at
    least the last ``keep_hands`` hands (default 1; ``None``: all; see :class:`~cardgame.model.context.Context`);
    ``subscribe`` sees every event.
    """

    def __init__(
        self,
        stages: Sequence[Stage[Context]] | VariantLike,
        *,
        params: Mapping[str, Any] | None = None,
        table: Table | None = None,
        seats: int = 6,
        min_buy_in: int = 1,
        max_buy_in: int = 10**12,
        first_button: int | None = None,
        seed: int | None = None,
        deck: DeckSpec | None = None,
        max_hands: int | None = None,
        keep_hands: int | None = 1,
    ) -> None:
        """``stages``: a stage list, or a variant (``variants.get("PO")``), built with ``params``
        (its builder's keyword arguments; default: its defaults). ``deck``: by default the
        variant's deck (a stage list from a registered variant knows it), else the standard deck."""
        given: object = stages  # checked here: a caller may pass anything
        if params is not None and not isinstance(params, Mapping):
            raise ConfigError(f"params must be a mapping of the builder's keyword arguments, not {excerpt(params)}.")
        # a stage list (a tuple or list; a variant's builder returns a tuple, ``Stages``) is checked first,
        # as the protocol's isinstance costs tens of microseconds (a learning environment builds a game a hand)
        if params is None and isinstance(given, tuple | list) and all(isinstance(s, Stage) for s in given):
            built: Sequence[Stage[Any]] = given
        elif isinstance(given, VariantLike):
            built = given.build(**(params or {}))
        elif params is not None:
            raise ConfigError("params are the builder's arguments of a variant; pass a Variant with them, or "
                              "build the stage list yourself (variant.build(**params)).")
        elif (isinstance(given, str | bytes) or not isinstance(given, Sequence)
              or not all(isinstance(s, Stage) for s in given)):
            hint = (" (a variant's name or code: look it up with variants.get)" if isinstance(given, str)
                    else " (a builder: call it)" if callable(given) else "")
            raise ConfigError(f"A game is played from a variant (variants.get('NT')) or a list of Stage objects "
                              f"(variant.build(...)), not {excerpt(given)}{hint}.")
        else:
            built = given
        if deck is None:
            deck = getattr(getattr(built, "variant", None), "deck", None)
            deck = deck if isinstance(deck, DeckSpec) else STANDARD_DECK
        for what, number, least in (("max_hands", max_hands, 1), ("keep_hands", keep_hands, 1)):
            if number is not None:
                check_int(number, what, ConfigError, minimum=least)
        if table is None:
            table = Table(seats, min_buy_in, max_buy_in, first_button)
        self.ctx = Context(table, rng=RandomSource(seed), deck_spec=deck, max_hands=max_hands,
                           keep_hands=keep_hands)
        self.dispatcher = Dispatcher(built, self.ctx)

    # --- properties ------------------------------------------------------------------------------
    @property
    def table(self) -> Table:
        return self.ctx.table

    @property
    def seed(self) -> int | None:
        """The seed that replays this game; ``None``: built without one, it cannot be replayed."""
        return self.ctx.rng.seed

    @property
    def events(self) -> list[Event]:
        return self.ctx.log

    @property
    def status_name(self) -> str:
        """new, running, exited or failed."""
        return self.dispatcher.status

    @property
    def stage(self) -> Stage[Context] | None:
        return self.dispatcher.current

    @property
    def hand(self) -> Any:
        """The hand in progress (:class:`~cardgame.model.hand.Hand`) or ``None`` between hands."""
        return self.ctx.hand

    @property
    def to_act(self) -> int | None:
        """The seat whose decision the game waits for, if any: the current stage's ``to_act`` (a
        stage that waits on a player says which; see :class:`~cardgame.stages.results.AwaitsPlayer`)."""
        d = self.dispatcher
        if d.status != "running":
            return None
        seat: int | None = getattr(d.current, "to_act", None)
        return seat

    def names(self) -> dict[int, str]:
        return {p.seat: p.name for p in self.table.players()}

    def subscribe(self, listener: Callable[[Event], None]) -> None:
        """Call ``listener(event)`` for every event from now on, once the change that made it is
        complete: when the call into the game (``act``, ``start``...) returns, in order, so it sees
        a state that exists. A listener's exception is logged (the ``cardgame`` logger) and kept in
        :attr:`listener_errors`; the game plays on."""
        if not callable(listener):
            raise ConfigError(f"A listener is a callable listener(event), not {excerpt(listener)}.")
        self.ctx.subscribe(listener)

    def hook(self, hook: Callable[[Event], None]) -> None:
        """Call ``hook(event)`` as each event is emitted, inside the change (see
        :meth:`~cardgame.model.context.Context.hook`: for code that must act before the game goes
        on; it sees half-made states and its exception fails the game). To watch, :meth:`subscribe`."""
        if not callable(hook):
            raise ConfigError(f"A hook is a callable hook(event), not {excerpt(hook)}.")
        self.ctx.hook(hook)

    @property
    def listener_errors(self) -> list[tuple[Event, Exception]]:
        """The latest exceptions listeners raised (up to 20), with the event each was handed, oldest first."""
        return list(self.ctx.listener_errors)

    # --- copies, for search ------------------------------------------------------------------------
    def copy(self, *, listeners: bool = False) -> Game:
        """An independent copy of the game as it is now, for search (CFR, MCTS): acting on one never
        changes the other, and the copy goes on exactly as the original would (the same cards from
        the same random state, the same legal actions and events; the bots' streams copied too).

        Copied: the table and its players, the hand (each player's part, board, discards), the
        decks, the random source (the deck's generator and each bot stream handed out: a Mersenne
        Twister's state each), every stage's runtime state (the betting street, the player to
        draw...) and the log's list. Shared, being immutable or configuration: the events, cards,
        stage results and outcomes, the variant, its stages' settings (blinds, betting structures,
        evaluators), the deck spec and each stage class's compiled machine. No listeners unless
        ``listeners=True`` (then the same callables see both games' events). This is the state
        :mod:`cardgame.store.snapshot` saves. A game built without a seed deals from the operating
        system, which has no state: its copy deals other cards.

        Cost: each object is a shallow copy generated per class
        (:func:`~cardgame.engine.copies.shallow_copy`) whose mutable parts are then replaced: about
        35 µs for six-max hold'em on the flop and 25 µs for Leduc or Kuhn (a third of it copying the
        Mersenne Twister), against 0.4 to 0.7 ms for ``copy.deepcopy`` (which also copies the stages'
        settings, and leaves the copy's log bound to the original's: the copy's next action fails),
        0.3 to 0.4 ms for it with a memo of the shared objects, 3 to 5 times as long as a copy to
        replay the hand with the same seed, and 25 to 30 times for a snapshot and restore
        (``python benchmarks/copy_cost.py``). Refused (:class:`~cardgame.engine.StageError`) from
        inside a call into the game, as in a hook (a listener, called once the call is over, may copy).

        >>> from variants import leduc_holdem
        >>> game = Game(leduc_holdem(), seats=2, seed=5)
        >>> _ = game.sit_down("Ann", 100), game.sit_down("Bob", 100)
        >>> game.start()
        >>> twin = game.copy()
        >>> _ = twin.fold(twin.to_act)
        >>> game.hand is not None and twin.hand is not game.hand
        True
        """
        check_bool(listeners, "listeners", ConfigError)
        ctx = self.ctx.copy(listeners=listeners)
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.ctx = ctx
        new.dispatcher = self.dispatcher.copy(ctx)
        return new

    def stack_deck(self, top_first: Sequence[object] | str) -> None:
        """Choose the cards to come, in dealing order (burn cards included): card strings
        (``"AhKd 7c"``), cards or indices. In a hand, the rest of it is dealt from its undealt cards,
        ``top_first`` first; before the game starts or between hands, the next hand is dealt from
        a deck with ``top_first`` on top. The other cards follow in random order. With
        :meth:`copy`, search enumerates chance outcomes: copy, stack, play on.

        Raises :class:`~cardgame.model.errors.CardError` for a card given twice, dealt already or
        not in the game's deck, and changes nothing."""
        if self.ctx.hand is None:
            self.ctx.stack_deck(top_first)
        else:
            self.ctx.stack_hand_deck(top_first)

    # --- seating -------------------------------------------------------------------------------------
    # Each change is an event the current stage handles (the rules: cardgame.stages.base.PokerStage);
    # with no stage running (before start, after the game ended) the table changes at once.
    def sit_down(self, name: str, buy_in: int, seat: int | None = None) -> Player:
        """Seat a player with ``buy_in`` chips (within the table's buy-in limits); they are dealt in
        from the next hand."""
        if not self._running():
            return seat_player(self.ctx, name, buy_in, seat)
        self.dispatcher.send("sit_down", name, buy_in, seat)
        return next(p for p in self.table.players() if p.name == name)

    def top_up(self, seat: int, amount: int) -> None:
        """Add chips between hands (a player in the hand in progress must wait for it to end)."""
        if self._running():
            self.dispatcher.send("top_up", seat, amount)
        else:
            add_chips(self.ctx, seat, amount)

    def sit_out(self, seat: int) -> None:
        """Skip hands from the next one on (a hand in progress is played out)."""
        if self._running():
            self.dispatcher.send("sit_out", seat)
        else:
            mark_sitting_out(self.ctx, seat)

    def sit_in(self, seat: int) -> None:
        """Be dealt in again from the next hand (a player with no chips must top up first)."""
        if self._running():
            self.dispatcher.send("sit_in", seat)
        else:
            mark_sitting_in(self.ctx, seat)

    def leave(self, seat: int) -> int | None:
        """Cash out and leave. Between hands the seat is freed at once and the chips returned.

        In a hand the player's cards are folded now (an all-in hand stays live) and the seat is
        freed when the hand ends; ``None`` is returned while the seat is still held, and a
        ``PlayerLeft`` event follows when it is freed.
        """
        p = self.table.player(seat)
        if self._running():
            self.dispatcher.send("leave", seat)
        elif (hp := hand_of(self.ctx, p)) is None:
            free_seat(self.ctx, p)
        else:  # a game stopped mid-hand (failed): the hand is folded, the seat held with it
            p.leaving = True
            if not hp.folded and not hp.all_in:
                fold_leaver(self.ctx, hp)
        return p.stack if self.table.seats[p.seat] is not p else None

    def cash_out(self, seat: int) -> int | None:
        """Another name for :meth:`leave`."""
        return self.leave(seat)

    def _running(self) -> bool:
        return self.dispatcher.status == "running"

    def _send(self, event: str, *args: Any) -> Event:
        """Send ``event`` to the current stage; the first event it emitted (the action's own)."""
        ctx = self.ctx
        mark = ctx.mark()
        self.dispatcher.send(event, *args)
        return ctx.first_since(mark)

    # --- the game ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the stage stack (the first hand begins as soon as enough players are in play). After a
        failure the hand it stopped is void first (:meth:`~cardgame.model.context.Context.void_hand`:
        every bet returned, a ``HandVoided`` event), so starting again loses no chip."""
        if self.dispatcher.status == "failed":
            self.ctx.void_hand()
        self.dispatcher.start()

    def stop(self) -> None:
        """Stop cleanly before the next hand starts."""
        self.ctx.stop_requested = True
        if self._running():
            self.dispatcher.send("table_change")

    def legal_actions(self) -> LegalActions | None:
        """The legal actions of the player to act, with call amount and raise-to bounds."""
        d = self.dispatcher
        method = getattr(d.current, "legal_actions", None)  # as _ask, inline: asked before every decision
        return None if method is None or d.status != "running" else method()

    def act(self, seat: int, action: str, amount: int | None = None) -> Event:
        """Take ``action`` for ``seat``: fold, check, call, bet, raise (to ``amount``), all_in."""
        d = self.dispatcher
        if getattr(d.current, "to_act", None) is None and d.status == "running":  # self.to_act, inline (seat first)
            where = f" (the game is in the {d.current.name} stage)" if d.current is not None else ""
            raise IllegalActionError(f"No player is to act now{where}.", rule="no action pending")
        ctx = self.ctx  # as _send, in line (with ctx.mark() and ctx.first_since(mark)): the path every action takes
        mark = ctx._pin = ctx._trimmed + len(ctx._log)
        d.send("act", seat, action, amount)
        ctx._pin = None
        return ctx._log[mark - ctx._trimmed]

    def draw(self, seat: int, discards: Sequence[int] = ()) -> Event:
        """Discard ``discards`` in a draw round and be dealt as many (empty: stand pat)."""
        current = self.dispatcher.current
        if self.dispatcher.status == "running" and self.to_act is None:
            where = f" (the game is in the {current.name} stage)" if current is not None else ""
            raise IllegalActionError(f"No player is to draw now{where}.", rule="no draw pending")
        return self._send("draw", seat, discards)

    def draw_options(self) -> DrawOptions | None:
        """In a draw round: the seat to draw, its cards and how many it may discard."""
        result: DrawOptions | None = self._ask("draw_options")
        return result

    def run_options(self) -> RunOptions | None:
        """The run-it-twice choice waiting, or ``None``: once betting is over with cards to come
        and two or more players live (all in), a variant built with ``run_it_twice=True`` asks
        each live player in turn how many times to deal the rest of the board. The answer is a
        :class:`~cardgame.stages.RunOptions` (the seat to choose, and ``max_runs``); reply with
        :meth:`choose_runs`. ``None`` when no choice is waiting (betting, a draw, between hands),
        as :meth:`legal_actions` is ``None`` while a choice waits.

        >>> from variants import no_limit_holdem
        >>> game = Game(no_limit_holdem(1, 2, run_it_twice=True), seed=3)
        >>> players = [game.sit_down(name, 100) for name in ("Ann", "Bob")]
        >>> game.start()
        >>> _ = game.all_in(game.to_act), game.call(game.to_act)
        >>> game.run_options()
        RunOptions(seat=1, max_runs=2)
        """
        result: RunOptions | None = self._ask("run_options")
        return result

    def _ask(self, query: str) -> Any:
        """What the current stage's ``query`` method answers (``None``: the stage has none, or the
        game is not running)."""
        method = getattr(self.dispatcher.current, query, None)
        return None if method is None or self.dispatcher.status != "running" else method()

    def choose_runs(self, seat: int, runs: int) -> Event:
        """``seat`` asks to run the rest of the board ``runs`` times (1: once)."""
        if self.dispatcher.status == "running" and self.run_options() is None:
            raise IllegalActionError("Nobody is choosing run-outs now.", rule="no run-out choice pending")
        return self._send("choose_runs", seat, runs)

    def muck(self, seat: int) -> None:
        """Muck ``seat``'s hand once betting is over (the run-out or the showdown): the hand is dead,
        its chips stay in the pot and it wins nothing (Robert's Rules, showdown). The current stage
        decides (:meth:`~cardgame.stages.base.PokerStage.on_muck`)."""
        if self._running():
            self.dispatcher.send("muck", seat)
        else:
            check_muck(self.ctx, seat, False)  # a game not running has no hand to muck: refused
            raise IllegalActionError(f"The game is {self.dispatcher.status}; no hand can be mucked.",
                                     rule="muck without a hand")

    def show_options(self) -> ShowOptions | None:
        """The show-or-muck decision waiting at a showdown played with ``show_or_muck=True`` (TDA rule
        16's order), or ``None``: a :class:`~cardgame.stages.ShowOptions` naming the seat, whether its
        hand wins against those tabled so far, and ``default``, what a player who does not answer
        does. Answer with :meth:`show` or :meth:`muck` (a muck forfeits the hand).

        >>> from variants import no_limit_holdem
        >>> game = Game(no_limit_holdem(1, 2, show_or_muck=True), seed=3)
        >>> players = [game.sit_down(name, 100) for name in ("Ann", "Bob")]
        >>> game.start()
        >>> while game.legal_actions() is not None:
        ...     _ = game.call(game.to_act) if game.can_call(game.to_act) else game.check(game.to_act)
        >>> game.show_options().seat == game.to_act
        True
        """
        result: ShowOptions | None = self._ask("show_options")
        return result

    def show(self, seat: int) -> Event:
        """``seat`` shows its hand at the showdown, in turn (see :meth:`show_options`)."""
        if self.dispatcher.status == "running" and self.show_options() is None:
            raise IllegalActionError("Nobody is to show a hand now.", rule="no showdown decision pending")
        return self._send("show", seat)

    def can_show(self, seat: int) -> bool:
        """Whether :meth:`show` would show ``seat``'s hand now."""
        return isinstance(self.dispatcher.current, Showdown) and self._ask_stage("show", ShowChoice(seat))

    def ask_to_see(self, seat: int) -> Event:
        """``seat``, still holding a live hand at the showdown, asks to see the called hand (the last
        aggressor's) mucked unshown: a showdown built with ``ask_to_see=True`` shows it, and it stays
        dead (TDA rule 18; Robert's Rules, showdown 5)."""
        if not isinstance(self.dispatcher.current, Showdown) or self.show_options() is None:
            raise IllegalActionError("A hand can be asked to see only while hands are shown at a showdown.",
                                     rule="no showdown decision pending")
        return self._send("ask_to_see", seat)

    def can_ask_to_see(self, seat: int) -> bool:
        """Whether :meth:`ask_to_see` would show the called hand to ``seat`` now."""
        return isinstance(self.dispatcher.current, Showdown) and self._ask_stage("ask", ShowChoice(seat))

    def fold(self, seat: int, amount: None = None) -> Event:
        """Fold (an ``amount`` is refused: a fold takes none)."""
        return self.act(seat, "fold", amount)

    def check(self, seat: int, amount: None = None) -> Event:
        """Check (an ``amount`` is refused: a check takes none)."""
        return self.act(seat, "check", amount)

    def call(self, seat: int, amount: None = None) -> Event:
        """Call the amount the rules set (an ``amount`` is refused rather than silently ignored)."""
        return self.act(seat, "call", amount)

    def bet(self, seat: int, amount: int) -> Event:
        return self.act(seat, "bet", amount)

    def raise_to(self, seat: int, amount: int) -> Event:
        return self.act(seat, "raise", amount)

    def all_in(self, seat: int) -> Event:
        return self.act(seat, "all_in")

    # --- can_* queries (PokerKit style): the betting round's own rules, asked without acting ----------
    def may(self, seat: int, action: str, amount: int | None = None) -> bool:
        """Whether :meth:`act` would take ``action`` for ``seat`` now: the current stage's rules are
        asked (:meth:`~cardgame.engine.Stage.may`, the conditions of the action's trigger) and nothing
        changes. ``False`` when nobody is to act, for an alias (``all_in``, ``check_call``...) and for
        anything :meth:`act` would refuse."""
        d = self.dispatcher
        stage = d.current
        if d.status != "running" or stage is None or type(action) is not str or action not in KINDS:
            return False
        if getattr(stage, "legal_actions", None) is None or stage.legal_actions() is None:  # type: ignore[attr-defined]
            return False
        return stage.may(action, Action(seat, action, amount, action))

    def _ask_stage(self, trigger: str, action: Any) -> bool:
        """Whether the current stage would take ``trigger`` with ``action`` now (its rules asked, nothing changed)."""
        d = self.dispatcher
        stage = d.current
        return d.status == "running" and stage is not None and stage.may(trigger, action)

    def can_draw(self, seat: int, discards: Sequence[int] | Sequence[str] | str = ()) -> bool:
        """Whether :meth:`draw` would take ``discards`` for ``seat`` now (the draw round's rules)."""
        return isinstance(self.dispatcher.current, Draw) and self._ask_stage("draw", Discard.of(seat, discards))

    def can_choose_runs(self, seat: int, runs: int) -> bool:
        """Whether :meth:`choose_runs` would take ``runs`` for ``seat`` now."""
        return isinstance(self.dispatcher.current, RunItTwice) and self._ask_stage("choose", RunChoice(seat, runs))

    def can_muck(self, seat: int) -> bool:
        """Whether :meth:`muck` would muck ``seat``'s hand now (a live hand, betting over, not the last)."""
        return self._ask_stage("muck", TableAction(seat))

    def _legal_for(self, seat: int) -> LegalActions | None:
        la = self.legal_actions()
        return la if la is not None and la.seat == seat else None

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now (a fold with a free check is legal and binding;
        ``LegalActions.can_fold`` says whether a bet is owed)."""
        return self.may(seat, "fold")

    def can_check(self, seat: int) -> bool:
        return self.may(seat, "check")

    def can_call(self, seat: int) -> bool:
        return self.may(seat, "call")

    def _sized(self, seat: int, kind: str, amount: int | None) -> bool:
        """Whether a bet or raise (``kind``) to ``amount`` is legal for ``seat``; with no amount, whether
        one of some size is (the smallest allowed is asked)."""
        if amount is not None:
            check_int(amount, "amount", IllegalActionError)
            return self.may(seat, kind, amount)
        la = self._legal_for(seat)
        return la is not None and self.may(seat, kind, la.min_raise_to)

    def can_bet(self, seat: int, amount: int | None = None) -> bool:
        """Whether ``seat`` may bet ``amount`` now (``None``: some amount)."""
        return self._sized(seat, "bet", amount)

    def can_raise_to(self, seat: int, amount: int | None = None) -> bool:
        """Whether ``seat`` may raise to ``amount`` now (``None``: to some amount)."""
        return self._sized(seat, "raise", amount)

    # --- views -----------------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> TableView:
        """The table as ``seat`` sees it: other players' hidden cards are ``None``."""
        return table_view(self.ctx, seat, to_act=self.to_act)

    def events_for(self, seat: int | None) -> list[Event]:
        """The event log as ``seat`` may see it."""
        return [e.seen_by(seat) for e in self.ctx.log]

    def status(self, seat: int | None = None, *, reveal: bool = False) -> str:
        """The status table: pot, street, board and one row per seat."""
        check_bool(reveal, "reveal", ConfigError)
        return status_table(table_view(self.ctx, seat, reveal=reveal, to_act=self.to_act))

    # --- driving bots ------------------------------------------------------------------------------------
    def play(
        self, bots: Mapping[int, Bot] | Bot, *, drawer: Bot | None = None, chooser: Bot | None = None,
        max_actions: int = 10**9,
    ) -> int:
        """Let ``bots`` (one for all seats, or one per seat; see :mod:`cardgame.play.bot`) answer every
        decision until nobody is to act: the game exits, fails, or waits for players.

        Each bot sees only its seat's :class:`~cardgame.play.bot.BotView`, never the game. Draws ask
        ``drawer`` and run-it-twice choices ``chooser`` when given, else the seat's bot. Returns
        the number of decisions; it never deadlocks because every decision moves the game forward.
        """
        return play_bots(self, bots, drawer=drawer, chooser=chooser, max_actions=max_actions)

