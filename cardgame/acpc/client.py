"""The ACPC client: plays any bot of the bot interface against an ACPC dealer.

The client connects, sends ``VERSION:2.0.0``, and reads match states. It replays each hand on the
engine (:class:`~cardgame.acpc.hand.AcpcHand`) from what its position sees, so the dealer's
betting is checked against the rules and the bot is asked with an ordinary
:class:`~cardgame.play.bot.BotView` (its own cards, the board, stacks, the legal actions). When it is
the client's turn it answers the state with the bot's action, always a legal one (a fold with
nothing to call is sent as a check). Comment lines (``#``, ``;``) are skipped. The client ends
cleanly when the dealer closes the connection; a refused connection or a line that is not a
match state of the game raises :class:`~cardgame.model.errors.ProtocolError`.
"""

from __future__ import annotations

import asyncio
import contextlib

import attrs

from cardgame.acpc.gamedef import GameDef
from cardgame.acpc.hand import AcpcHand, shape_of
from cardgame.acpc.matchstate import CALL, FOLD, RAISE, Action, MatchState, format_betting, parse_matchstate
from cardgame.model.cards import Card
from cardgame.model.errors import CardgameError, IllegalActionError, ProtocolError
from cardgame.model.events import PotAwarded
from cardgame.model.inputs import excerpt
from cardgame.model.rng import RandomSource
from cardgame.play.bot import Bot, BotBase, HandEnd, HandStart, build_view, to_action

__all__ = ["VERSION", "ClientResult", "Player", "play", "play_as", "run_client"]

VERSION = "VERSION:2.0.0"


@attrs.frozen
class ClientResult:
    """What the client's player won: ``hands`` finished, the total payoff as the reference counts
    it (``value``) and the chips won on the engine (``chips``)."""

    hands: int
    value: float
    chips: int


class Player:
    """Plays ``bot`` from match state lines: :meth:`receive` takes each line and returns the answer
    to send, if any. Holds the hand in progress; ``seed`` seeds the bot's random stream (``view.rng``,
    derived from it as a game derives its bots'; without a seed, from the operating system)."""

    def __init__(self, game: GameDef, bot: Bot, seed: int | None = None) -> None:
        self.game = game
        self.bot = bot
        self.rng = RandomSource(seed)
        self._bot_rng = self.rng.stream("acpc client")
        self.hand: AcpcHand | None = None
        self.position = 0
        self._applied = 0
        self._accepted: MatchState | None = None  # the last line accepted
        self._done = True
        self.hands = 0
        self.value = 0.0
        self.chips = 0

    def receive(self, line: str) -> str | None:
        """The answer to ``line`` (the line, ``:`` and an action) when the client is to act, else ``None``.

        A line that is not a match state continuing the hand (or starting the next one) under the
        rules raises :class:`~cardgame.model.errors.ProtocolError` and changes nothing: the player goes
        on from the last line it accepted."""
        text = line.rstrip("\r\n")
        if not text or text[0] in "#;":
            return None
        state = parse_matchstate(text, self.game)
        current = self.hand
        new = current is None or current.number != state.hand
        hand = self._new_hand(state) if new else self._same_hand(state)
        try:
            self._advance(hand, state, 0 if new else self._applied, text)
        except CardgameError:
            if not new or hand is current:  # the hand (or the last, now dealt again) took part of the line:
                # play the hand again up to the last line accepted
                self.hand = self._replayed()
            raise
        self._accepted = state
        self._applied = len(state.actions)
        if new:
            self.hand, self.position, self._done = hand, state.position, False
            if isinstance(self.bot, BotBase):
                n = self.game.num_players
                self.bot.hand_started(HandStart(state.position, state.hand, n - 1, tuple(range(n)),
                                                self.game.stack_sizes))
        if hand.finished:
            self._finish(hand)
            return None
        if hand.to_act != state.position:
            return None
        return f"{text}:{self.decide(hand)}"

    def _advance(self, hand: AcpcHand, state: MatchState, applied: int, text: str) -> None:
        """Play the cards shown and the actions of ``state`` after the first ``applied`` on ``hand``."""
        actions = state.actions
        if len(actions) < applied or (applied and actions[:applied] != tuple(a for r in hand.betting for a in r)):
            raise ProtocolError(f"{excerpt(text)}: the betting does not continue the actions already played "
                                f"({format_betting(hand.betting)!r}).")
        hand.reveal(state.hole, state.board_cards)
        for action in actions[applied:]:
            try:
                hand.apply(action)
            except IllegalActionError as exc:
                raise ProtocolError(f"{excerpt(text)}: the dealer's action {action} is not legal here "
                                    f"({exc}).") from None
        if hand.round != state.round:
            raise ProtocolError(f"{excerpt(text)}: the betting reaches round {state.round + 1}, but the rules say "
                                f"round {hand.round + 1}.")

    def _same_hand(self, state: MatchState) -> AcpcHand:
        """The hand in progress, if ``state`` is seen from the same position."""
        assert self.hand is not None
        if state.position != self.position:
            raise ProtocolError(f"{excerpt(str(state))}: position {state.position} in the middle of hand "
                                f"{state.hand}, which this player plays in position {self.position}.")
        return self.hand

    def _new_hand(self, state: MatchState) -> AcpcHand:
        """A hand for ``state``, which starts one: the last hand's engine game dealt again, else a new one
        (:meth:`receive` takes it if the line is accepted, and plays the last hand again if not)."""
        hand = self.hand
        if hand is not None and not self._done:
            raise ProtocolError(f"{excerpt(str(state))}: hand {state.hand} starts before hand {hand.number} ended.")
        if any(cards for p, cards in enumerate(state.hole) if p != state.position):
            raise ProtocolError(f"{excerpt(str(state))}: another position's cards are shown before the hand is over.")
        if not state.hole[state.position]:
            raise ProtocolError(f"{excerpt(str(state))}: the player's own hole cards are missing.")
        if hand is not None:  # over: the next hand on the same engine game (its stages are built once a match)
            hand.next_hand(state.hand, self._hole(state), state.board_cards)
            return hand
        return self._start(state)

    def _start(self, state: MatchState) -> AcpcHand:
        """Hand ``state.hand`` from where ``state`` sees it: its own cards and the board so far."""
        return AcpcHand(self.game, state.hand, self._hole(state), state.board_cards)

    def _hole(self, state: MatchState) -> list[tuple[Card, ...]]:
        return [state.hole[p] if p == state.position else () for p in range(self.game.num_players)]

    def _replayed(self) -> AcpcHand:
        """The hand in progress as the last accepted line left it, played again from its start."""
        state = self._accepted
        assert state is not None
        hand = self._start(state)
        self._advance(hand, state, 0, str(state))
        return hand

    def decide(self, hand: AcpcHand) -> Action:
        """The action to answer with when the client is to act in ``hand``: the bot's, as an ACPC
        action (override to answer without a bot, e.g. from a script)."""
        legal = hand.legal()
        assert legal is not None
        view = build_view(hand.game, self.position, shape_of(self.game), self._bot_rng, legal=legal)
        action, amount = to_action(self.bot(view), legal)
        if action == "fold":
            return FOLD if legal.can_fold else CALL
        if action in ("bet", "raise"):
            assert amount is not None
            return RAISE if self.game.is_limit else Action("r", hand.base() + amount)
        return CALL

    def _finish(self, hand: AcpcHand) -> None:
        if self._done:
            return
        self._done = True
        self.hands += 1
        self.value += hand.values()[self.position]
        self.chips += hand.chips()[self.position]
        if isinstance(self.bot, BotBase):
            events = hand.game.events
            won: dict[int, int] = {}
            for e in events:
                if type(e) is PotAwarded:
                    for s, a in zip(e.winners, e.amounts, strict=True):
                        won[s] = won.get(s, 0) + a
            stacks = tuple((p.seat, p.stack) for p in hand.game.table.players())
            self.bot.hand_ended(HandEnd(self.position, hand.number, tuple(e.seen_by(self.position) for e in events),
                                        tuple(sorted(won.items())), stacks))

    @property
    def result(self) -> ClientResult:
        return ClientResult(self.hands, self.value, self.chips)


async def play(game: GameDef, host: str, port: int, bot: Bot, *, seed: int | None = None) -> ClientResult:
    """Connect to the dealer at ``host``:``port`` and play ``bot`` until the dealer closes the match."""
    return await play_as(Player(game, bot, seed), host, port)


async def play_as(player: Player, host: str, port: int) -> ClientResult:
    """Connect to the dealer and let ``player`` answer until the dealer closes the match."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        reason = "connection refused" if isinstance(exc, ConnectionRefusedError) else exc.strerror or str(exc)
        raise ProtocolError(f"Cannot connect to the dealer at {host}:{port}: {reason}.") from None
    try:
        writer.write(VERSION.encode() + b"\r\n")
        while True:
            try:
                raw = await reader.readline()
            except ValueError:
                raise ProtocolError("The dealer sent an overlong line.") from None
            except ConnectionError:
                break
            if not raw:
                break
            answer = player.receive(raw.decode("utf-8", "replace"))
            if answer is not None:
                writer.write(answer.encode() + b"\r\n")
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    return player.result


def run_client(game: GameDef, host: str, port: int, bot: Bot, *, seed: int | None = None) -> ClientResult:
    """:func:`play` in its own event loop."""
    return asyncio.run(play(game, host, port, bot, seed=seed))
