"""What a person types, read into an answer the game takes: a betting action, discards, run-outs.

Betting (from the game's :class:`~cardgame.model.legal.LegalActions`): ``f``/``fold``,
``x``/``check``, ``c``/``call`` (a check when nothing is bet), ``b N``/``bet N`` and ``r N``/``raise N`` (to ``N``: the
street total, as the game counts), a bare number (bet or raise to it), and the shortcuts ``min``
(the smallest raise), ``half`` (half the pot), ``pot`` and ``allin``. Pot-sized amounts follow the
pot-limit rule (Robert's Rules of Poker, pot limit: a raise may be as large as the pot after
calling); a shortcut outside the legal range is brought into it and the answer says so. In stud
``bi``/``bring-in`` posts the bring-in, and a bet or raise to the full bet completes it.

Show or muck (a showdown played with ``show_or_muck``): ``s``/``show`` or ``m``/``muck``, and
``a``/``ask`` to ask to see the called hand where the table allows it (TDA rules 16 and 18).

Draws: the cards to discard (``Ah 7c``) or their positions in the hand (``1 4``), ``pat`` (or
nothing) to stand pat. Run-outs: a number from 1 to the most allowed.

``help``, ``quit``, ``save`` (``save FILE``: to that file) and ``table`` (draw it again) are always
answers. Anything else raises :class:`InputError` saying what was wrong and what is allowed, with the
amounts; nothing is sent to the game, so it is unchanged.
"""

from __future__ import annotations

from typing import Literal

import attrs

from cardgame.model.cards import Card, format_cards, parse_cards
from cardgame.model.errors import CardError, CardgameError, ConfigError
from cardgame.model.inputs import check_instance, check_int, excerpt, read_int
from cardgame.model.legal import LegalActions
from cardgame.stages.results import DrawOptions, RunOptions, ShowOptions

__all__ = [
    "COMMANDS",
    "Choice",
    "InputError",
    "Sizes",
    "action_help",
    "allowed_actions",
    "draw_help",
    "parse_action",
    "parse_command",
    "parse_discards",
    "parse_runs",
    "parse_show",
    "runs_help",
    "show_help",
    "show_question",
    "sizes",
]

#: Commands every prompt takes, and what they do.
COMMANDS = {
    "help": "explain what you may type now",
    "table": "draw the table again",
    "save": "save the game, to go on later with --resume FILE (save FILE: to that file)",
    "quit": "leave; save first to keep the game",
}

ChoiceKind = Literal["act", "draw", "runs", "show", "muck", "ask", "help", "quit", "save", "table"]


class InputError(CardgameError):
    """What the person typed is no answer now: the message says what was wrong and what is allowed."""


@attrs.frozen
class Choice:
    """One answer: ``act`` (``action``, ``amount`` for :meth:`Game.act <cardgame.play.game.Game.act>`),
    ``draw`` (``cards`` to discard), ``runs`` (``runs`` run-outs), ``show``, ``muck`` or ``ask`` (to see
    the called hand) at a showdown, or a command (help, quit, save
    (to ``path`` if one was typed), table). ``note`` says what was adjusted (a shortcut brought into
    the legal range)."""

    kind: ChoiceKind
    action: str = ""
    amount: int | None = None
    cards: tuple[Card, ...] = ()
    runs: int = 0
    note: str = ""
    path: str = ""


@attrs.frozen
class Sizes:
    """The raise-to amounts the shortcuts name, before they are brought into the legal range:
    ``half`` and ``pot`` (Robert's Rules, pot limit: the pot after calling), ``min`` and ``allin``."""

    min: int
    half: int
    pot: int
    allin: int


def sizes(legal: LegalActions, pot: int) -> Sizes:
    """The shortcuts' raise-to amounts for ``legal`` when ``pot`` chips are in the pot (every bet
    of the hand so far included). A pot-sized raise is the call plus the pot after calling."""
    _betting(legal, pot)
    after_call = pot + legal.call_amount
    most = max(legal.amounts) if legal.amounts else legal.max_raise_to
    least = min(legal.amounts) if legal.amounts else legal.min_raise_to
    return Sizes(least, legal.bet_to + after_call // 2, legal.bet_to + after_call, most)


def _typed(text: object, given: object = None, kind: type | None = None) -> None:
    """:class:`InputError` unless ``text`` is text; :class:`ConfigError` unless ``given`` is a ``kind``
    (the game's own object, which the caller hands on)."""
    if not isinstance(text, str):
        raise InputError(f"An answer is text, not {excerpt(text)}.")
    if kind is not None:
        _needs(given, kind)


def _needs(given: object, kind: type) -> None:
    check_instance(given, kind, f"The game's {kind.__name__}", ConfigError)


def _betting(legal: object, pot: object) -> None:
    """:class:`ConfigError` unless ``legal`` is the game's LegalActions and ``pot`` a number of chips."""
    _needs(legal, LegalActions)
    check_int(pot, "pot", ConfigError, minimum=0)


def parse_command(text: str) -> Choice | None:
    """``help``, ``quit``, ``save`` or ``table`` (also ``?``, ``h``, ``q``, ``exit``), ``save FILE``,
    else ``None``."""
    _typed(text)
    word = text.strip().lower()
    head, _, rest = text.strip().partition(" ")
    if head.lower() == "save" and rest.strip():
        return Choice("save", path=rest.strip())
    found = {"?": "help", "h": "help", "help": "help", "q": "quit", "quit": "quit", "exit": "quit",
             "save": "save", "table": "table", "t": "table"}.get(word)
    return Choice(found) if found is not None else None  # type: ignore[arg-type]


def allowed_actions(legal: LegalActions, *, completing: bool = False) -> str:
    """The betting answers allowed now, with their amounts and words to type (``completing``: a raise
    completes a stud bring-in to the full bet)."""
    _needs(legal, LegalActions)
    parts = []
    if legal.bring_in:
        parts.append(f"bi (bring in {legal.bring_in})")
    if legal.can_fold and not legal.bring_in:
        parts.append("f (fold)")
    if legal.can_check:
        parts.append("x (check)")
    if legal.call_amount:
        parts.append(f"c (call {legal.call_amount})")
    if legal.can_raise:
        word, letter = ("bet", "b") if legal.is_bet else ("raise to", "r")
        if legal.bring_in or completing:
            word = "complete to"
        if legal.amounts:
            parts.append(f"{letter} N ({word} {' or '.join(map(str, legal.amounts))})")
        elif legal.min_raise_to == legal.max_raise_to:
            parts.append(f"{letter} {legal.min_raise_to} ({word} {legal.min_raise_to})")
        else:
            parts.append(f"{letter} N ({word} N, {legal.min_raise_to} to {legal.max_raise_to})")
    return ", ".join(parts)


def action_help(legal: LegalActions, pot: int, *, completing: bool = False) -> str:
    """The help text for a betting decision: the answers allowed, the shortcuts' amounts (not in fixed
    limit, where each bet has one size), the commands."""
    _betting(legal, pot)
    lines = [f"You may: {allowed_actions(legal, completing=completing)}."]
    if legal.can_raise and not legal.amounts and legal.min_raise_to < legal.max_raise_to:
        s = sizes(legal, pot)
        word = "bet" if legal.is_bet else "raise to"
        lines.append(f"Shortcuts ({word}): min {_clamp(s.min, legal)}, half {_clamp(s.half, legal)}, "
                     f"pot {_clamp(s.pot, legal)}, allin {_clamp(s.allin, legal)}; a bare number "
                     f"{'bets' if legal.is_bet else 'raises to'} it (the street total).")
    lines.append(_commands())
    return "\n".join(lines)


def _commands() -> str:
    return "Always: " + "; ".join(f"{k}: {v}" for k, v in COMMANDS.items()) + "."


def _clamp(amount: int, legal: LegalActions) -> int:
    """``amount`` brought to the nearest legal raise-to amount."""
    if legal.amounts:
        return min(legal.amounts, key=lambda a: (abs(a - amount), a))
    return min(max(amount, legal.min_raise_to), legal.max_raise_to)


_ACTIONS = {"f": "fold", "fold": "fold", "x": "check", "k": "check", "check": "check", "c": "call", "call": "call",
            "b": "bet", "bet": "bet", "r": "raise", "raise": "raise", "bi": "bring_in", "bring-in": "bring_in",
            "bring_in": "bring_in", "bringin": "bring_in", "complete": "raise"}
_SHORTCUTS = ("min", "half", "pot", "allin", "all-in", "all_in", "shove")


def parse_action(text: str, legal: LegalActions, pot: int, *, completing: bool = False) -> Choice:
    """Read a betting answer (see the module); raises :class:`InputError` if it is none, saying why and
    what is allowed. ``completing``: a raise completes a stud bring-in (said so)."""
    _typed(text)
    _betting(legal, pot)
    try:
        return _parse_action(text, legal, pot)
    except _Refusal as why:
        raise InputError(f"{why}. Allowed: {allowed_actions(legal, completing=completing)}; or help, quit.") from None


def _parse_action(text: str, legal: LegalActions, pot: int) -> Choice:
    command = parse_command(text)
    if command is not None:
        return command
    words = text.strip().lower().split()
    if not words:
        raise _refuse("Nothing was typed", legal)
    if len(words) > 2:
        raise _refuse(f"{excerpt(text.strip())} is more than an action and an amount", legal)
    head = words[0]
    tail = words[1] if len(words) == 2 else None
    if tail is None and _number(head, legal) is not None:
        return _sized(_number(head, legal) or 0, legal, head)
    if head in _SHORTCUTS and tail is None:
        return _shortcut(head, legal, pot)
    action = _ACTIONS.get(head)
    if action is None:
        raise _refuse(f"{excerpt(head)} is not an action", legal)
    if action in ("fold", "check", "call", "bring_in"):
        if tail is not None:
            raise _refuse(f"{action.replace('_', '-')} takes no amount", legal)
        return _passive(action, legal)
    if tail is None:  # a stray letter must not cost chips: the amount is asked for
        if not legal.can_raise:
            raise _refuse(f"No bet or raise is allowed now, so {head} is not", legal)
        raise _refuse(f"{head} needs an amount ({head} N, or {head} min)", legal)
    if tail in _SHORTCUTS:
        return _shortcut(tail, legal, pot)
    amount = _number(tail, legal)
    if amount is None:
        raise _refuse(f"{excerpt(tail)} is not an amount (a whole number of chips)", legal)
    return _sized(amount, legal, f"{head} {tail}")


def _number(word: str, legal: LegalActions) -> int | None:
    """An amount typed as ASCII digits; a negative one, or one of more digits than any stack has, is
    refused; ``None``: not a number."""
    if word.startswith("-") and word[1:].isascii() and word[1:].isdigit():
        raise _refuse(f"{excerpt(word)}: an amount is a whole number of chips, not below 0", legal)
    if not (word.isascii() and word.isdigit()):
        return None
    if len(word) > 15:  # past every stack: refused as too much (or as no raise at all) without reading it
        if not legal.can_raise:
            raise _refuse(f"{excerpt(word)}: no bet or raise is allowed now", legal)
        raise _refuse(f"{excerpt(word)} is more than the most, {legal.max_raise_to}", legal)
    return read_int(word, "amount", InputError, max_digits=15)


def _passive(action: str, legal: LegalActions) -> Choice:
    if legal.bring_in:
        if action == "fold":
            raise _refuse("The bring-in is forced: you cannot fold it", legal)
        if action in ("check", "call", "bring_in"):
            return Choice("act", "bring_in")
    if action == "bring_in":
        raise _refuse("No bring-in is due", legal)
    if action == "fold":
        if not legal.can_fold:
            raise _refuse("Nothing is bet to you, so there is nothing to fold; check instead", legal)
        return Choice("act", "fold")
    if action == "check":
        if not legal.can_check:
            raise _refuse(f"You cannot check: {legal.call_amount} to call", legal)
        return Choice("act", "check")
    if not legal.call_amount:
        return Choice("act", "check", note="Nothing to call: you check.")
    return Choice("act", "call")


def _raise(legal: LegalActions, to: int, note: str = "") -> Choice:
    return Choice("act", "bet" if legal.is_bet else "raise", to, note=note)


def _shortcut(word: str, legal: LegalActions, pot: int) -> Choice:
    if not legal.can_raise:
        if word in ("allin", "all-in", "all_in", "shove") and (legal.call_amount or legal.bring_in):
            return _passive("call", legal) if not legal.bring_in else Choice("act", "bring_in")
        raise _refuse(f"No bet or raise is allowed now, so {word} is not", legal)
    s = sizes(legal, pot)
    wanted = {"min": s.min, "half": s.half, "pot": s.pot}.get(word, s.allin)
    to = _clamp(wanted, legal)
    note = ""
    if to != wanted:
        note = (f"{word} would be {wanted}, which is not allowed: {'betting' if legal.is_bet else 'raising to'} "
                f"{to}, the {'least' if to > wanted else 'most'} you may.")
    return _raise(legal, to, note)


def _sized(to: int, legal: LegalActions, typed: str) -> Choice:
    if not legal.can_raise:
        raise _refuse(f"{excerpt(typed)}: no bet or raise is allowed now", legal)
    word = "bet" if legal.is_bet else "raise to"
    if legal.amounts and to not in legal.amounts:
        raise _refuse(f"You cannot {word} {to}: the limit allows {' or '.join(map(str, legal.amounts))}", legal)
    if to < legal.min_raise_to:
        raise _refuse(f"You cannot {word} {to}: the least is {legal.min_raise_to}"
                      f"{' (a raise is to the street total)' if not legal.is_bet else ''}", legal)
    if to > legal.max_raise_to:
        raise _refuse(f"You cannot {word} {to}: the most is {legal.max_raise_to}", legal)
    return _raise(legal, to)


class _Refusal(Exception):
    """Why an answer is refused; :func:`parse_action` adds what is allowed."""


def _refuse(what: str, legal: LegalActions) -> _Refusal:
    return _Refusal(what)


def draw_help(options: DrawOptions) -> str:
    """The help text for a draw: the hand with each card's position, how many may be discarded."""
    _needs(options, DrawOptions)
    hand = ", ".join(f"{i} {c}" for i, c in enumerate(options.hole, 1))
    lines = [f"Your cards by position: {hand}.",
             f"Type the cards to discard ({_draw_range(options)}) as cards (e.g. {options.hole[0]}) or "
             f"positions (e.g. 1 3){'' if options.min_discards else ', or pat (or nothing) to stand pat'}.",
             _commands()]
    return "\n".join(lines)


def _draw_range(options: DrawOptions) -> str:
    least, most = options.min_discards, options.max_discards
    return f"exactly {least}" if least == most else f"{least} to {most}"


def parse_discards(text: str, options: DrawOptions) -> Choice:
    """Read the cards to discard (see the module); raises :class:`InputError` if they are not allowed."""
    _typed(text, options, DrawOptions)
    command = parse_command(text)
    if command is not None:
        return command
    allowed = (f"Discard {_draw_range(options)} of your cards {format_cards(options.hole)}, as cards or "
               f"positions 1 to {len(options.hole)}; or help, quit.")
    words = text.replace(",", " ").split()
    if not words or [w.lower() for w in words] in (["pat"], ["stand"], ["none"], ["0"]):
        cards: tuple[Card, ...] = ()
    elif all(w.isascii() and w.isdigit() for w in words):
        positions = []
        for w in words:
            try:
                positions.append(read_int(w, "position", InputError, minimum=1, maximum=len(options.hole),
                                          max_digits=3))
            except InputError:
                raise InputError(f"There is no card at position {excerpt(w)}. {allowed}") from None
        cards = tuple(options.hole[p - 1] for p in positions)
    else:
        try:
            cards = parse_cards(" ".join(words))
        except CardError as exc:
            raise InputError(f"{exc} {allowed}") from None
        missing = [c for c in cards if c not in options.hole]
        if missing:
            raise InputError(f"{missing[0]} is not in your hand. {allowed}")
    if len(set(cards)) != len(cards):
        raise InputError(f"A card was named twice. {allowed}")
    if not options.min_discards <= len(cards) <= options.max_discards:
        raise InputError(f"You named {len(cards)} card{'s' if len(cards) != 1 else ''}. {allowed}")
    return Choice("draw", cards=cards)


def runs_help(options: RunOptions) -> str:
    """The help text for a run-out choice."""
    _needs(options, RunOptions)
    return (f"Everyone is all in: type how many times to run the rest of the board, 1 to {options.max_runs} "
            f"(the fewest any player chooses is run: more than once needs everyone's agreement).\n{_commands()}")


def parse_runs(text: str, options: RunOptions) -> Choice:
    """Read a number of run-outs from 1 to ``options.max_runs`` (``once``/``twice`` too)."""
    _typed(text, options, RunOptions)
    command = parse_command(text)
    if command is not None:
        return command
    word = text.strip().lower()
    word = {"once": "1", "twice": "2", "thrice": "3", "": "1"}.get(word, word)
    try:
        runs = read_int(word, "number of run-outs", InputError, minimum=1, maximum=options.max_runs, max_digits=3)
    except InputError:
        raise InputError(f"{excerpt(text.strip())} is not a number of run-outs. Type 1 to {options.max_runs}; "
                         "or help, quit.") from None
    return Choice("runs", runs=runs)


def _show_answers(options: ShowOptions, ask: str) -> str:
    """The show-or-muck answers allowed, the asking one where ``ask`` (whose hand) is not empty."""
    muck = "m (muck: your hand forfeits the pot)" if options.wins and not options.awarded else "m (muck)"
    return f"s (show), {muck}" + (f", a (ask to see {ask}'s hand)" if ask else "")


def show_question(options: ShowOptions, ask: str = "") -> str:
    """The prompt of a show-or-muck decision: what the hand does against those shown, the answers
    (``ask``: the name of the player whose mucked hand may be asked for; empty: none may)."""
    _needs(options, ShowOptions)
    if not isinstance(ask, str) or len(ask) > 40 or not ask.isprintable():
        raise ConfigError(f"ask is the name of the player whose hand may be asked for (at most 40 printable "
                          f"characters), or empty, not {excerpt(ask)}.")
    if options.awarded:
        state = "You win the pot uncontested"
    elif options.wins:
        state = "Your hand wins against those shown"
    else:
        state = "Your hand does not win"
    return f"{state}: {_show_answers(options, ask)}"


def show_help(options: ShowOptions, ask: str = "") -> str:
    """The help text of a show-or-muck decision (TDA rules 16 and 18; Robert's Rules, showdown)."""
    question = show_question(options, ask)
    lines = ["Players show or muck in turn at this showdown: the last to bet or raise first (TDA rule 16).",
             "A mucked hand is dead and not shown; a hand must be shown to win (Robert's Rules, showdown 1)."]
    if options.awarded:
        lines.append("You have won: showing is a courtesy; muck keeps your cards hidden.")
    if ask:
        lines.append(f"{ask} mucked the called hand: a player still holding cards may ask to see it (TDA rule 18).")
    lines += [f"You may: {question.partition(': ')[2]}.", _commands()]
    return "\n".join(lines)


_SHOW = {"s": "show", "show": "show", "m": "muck", "muck": "muck", "f": "muck", "fold": "muck", "a": "ask",
         "ask": "ask", "see": "ask"}


def parse_show(text: str, options: ShowOptions, ask: str = "") -> Choice:
    """Read a show-or-muck answer (``ask`` not empty: asking to see that player's hand is allowed too);
    raises :class:`InputError` if it is none, saying what is allowed."""
    _typed(text, options, ShowOptions)
    question = show_question(options, ask)
    command = parse_command(text)
    if command is not None:
        return command
    word = _SHOW.get(text.strip().lower())
    if word is None or (word == "ask" and not ask):
        what = "Nothing was typed" if not text.strip() else f"{excerpt(text.strip())} is not an answer here"
        raise InputError(f"{what}. Allowed: {question.partition(': ')[2]}; or help, quit.")
    return Choice(word)  # type: ignore[arg-type]
