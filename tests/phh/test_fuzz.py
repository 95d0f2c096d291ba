"""Seeded, bounded fuzzing of the PHH reader and replay: mutated valid hands and random text.

Properties: only the library's :class:`HandHistoryError` escapes ``loads``, ``dumps``, ``replay`` and
``check_paths``; an accepted text writes back and reads again to the same text (parse, dump, parse is
stable). The valid hands are played by the engine and written with :mod:`cardgame.phh.export` (and the
samples in ``tests/data/phh`` when present). Every crash this found is kept in ``test_hostile.py``.
Derandomized (the same examples every run) and sized to run in a few seconds.
"""

from __future__ import annotations

import contextlib
import re
import warnings
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.model.errors import HandHistoryError
from cardgame.phh import dumps, loads
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import check_paths, replay
from cardgame.play.bots import random_bot, random_draw
from cardgame.play.game import Game
from variants import available

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "phh"
FUZZ = settings(derandomize=True, database=None, deadline=None, max_examples=250,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@cache
def valid_texts() -> tuple[str, ...]:
    """One played hand per PHH variant (seeded), plus up to ten sample files."""
    texts = []
    for index, variant in enumerate(v for v in available() if v.code):
        stages = variant.build()
        game = Game(stages, seats=3, seed=index, max_hands=1, keep_hands=None)
        for seat in range(3):
            game.sit_down(f"p{seat}", 200)
        game.start()
        game.play(random_bot, drawer=random_draw)
        texts += [dumps(hand) for hand in game_to_phh(game.events, stages, game.names())]
    if SAMPLES.is_dir():
        texts += [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.rglob("*.phh"))[:10]]
    assert len(texts) >= 10
    return tuple(texts)


#: Pieces that broke parsers before: long and Unicode digits, deep nesting, many unknown cards, odd
#: TOML values and action codes.
NASTY = ["9" * 5000, "9" * 400, "1" + "0" * 18, "²", "₅", "٦", "p٢", "[" * 200, "{a=" * 50, "??" * 40, "nan", "inf",
         "-4", "-0", "1e999", "0.1", "\x00", "\ufeff", "'''", '"', "#", "\n", "[1]", "p0", "p99", " sm ????", " sm -",
         " sd ", " pb", " cbr ", "d dh p1 ", "d db ", "Ac", "Ac", "2c", "_runout_count = 3\n",
         "ante_trimming_status = 1\n"]
ALPHABET = st.sampled_from([*"0123456789.-+e[]{}'\"=,#?pdhbcsfmr AKQJT\n", "²", "٦", "é"])
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_LINE = re.compile(r'"([^"\n]*)",?\n')  # one quoted action (or string field) per line, as dumps writes them
WORDS = ["d", "dh", "db", "p1", "p2", "p3", "p4", "pb", "cbr", "cc", "f", "sd", "sm", "-", "????", "??", "AcAd",
         "Kh", "2c3d4h", "5s", "10", "100", "0", "2.5", "#", "# note"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid hand's text with one to three mutations, most of them inside an action line."""
    text = draw(st.sampled_from(valid_texts()))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 40)))
        kind = draw(st.sampled_from(["line"] * 3 + ["swap"] * 2 + ["drop"] * 2 + ["number"] * 3
                                    + ["nasty", "chars", "delete", "repeat"]))
        lines = list(_LINE.finditer(text))
        if kind == "drop" and lines:  # a whole line: an action left out
            m = draw(st.sampled_from(lines))
            text = text[: m.start()] + text[m.end():]
        elif kind in ("line", "swap") and lines:  # within a quoted line: the TOML stays valid
            m = draw(st.sampled_from(lines))
            words = m.group(1).split()
            if kind == "swap" and len(lines) > 1:
                other = draw(st.sampled_from(lines)).group(1)
                body = other
            else:
                i = draw(st.integers(0, len(words)))
                op = draw(st.sampled_from(["set", "insert", "drop"]))
                if op == "drop" and words:
                    del words[min(i, len(words) - 1)]
                elif op == "set" and words:
                    words[min(i, len(words) - 1)] = draw(st.sampled_from(WORDS + NASTY[:9]))
                else:
                    words.insert(i, draw(st.sampled_from(WORDS)))
                body = " ".join(words)
            text = text[: m.start(1)] + body + text[m.end(1):]
        elif kind == "nasty":
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[end:]
        elif kind == "chars":
            text = text[:at] + "".join(draw(st.lists(ALPHABET, max_size=12))) + text[end:]
        elif kind == "delete":
            text = text[:at] + text[end:]
        elif kind == "repeat":
            text = text[:end] + text[at:end] * draw(st.integers(1, 30)) + text[end:]
        else:
            numbers = list(_NUMBER.finditer(text))
            if numbers:
                m = draw(st.sampled_from(numbers))
                new = draw(st.sampled_from(["0", "1", "3", "-5", "2.5", "1e3", "999999999999999999", "9" * 30]))
                text = text[: m.start()] + new + text[m.end():]
    return text


def _check(text: str, multi: bool = False) -> None:
    """Only HandHistoryError escapes; what is accepted round-trips; replay ends or names its error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown fields warn (and are kept)
        try:
            hands = loads(text, multi=multi)
        except HandHistoryError:
            return
        for hand in hands:
            written = dumps(hand)  # an accepted hand is valid: writing it cannot fail
            [again] = loads(written)
            assert dumps(again) == written
            with contextlib.suppress(HandHistoryError):  # a hand the rules refuse: its error names the action
                replay(hand)


@FUZZ
@given(text=mutated())
def test_mutated_hands_raise_only_hand_history_errors_and_round_trip(text: str) -> None:
    _check(text)


@FUZZ
@given(text=mutated())
def test_mutated_hands_as_a_phhs_table(text: str) -> None:
    _check(f"[1]\n{text}\n[2]\n{valid_texts()[0]}", multi=True)


@settings(FUZZ, max_examples=150)
@given(text=st.text(max_size=300) | st.text(ALPHABET, max_size=300))
def test_random_text_raises_only_hand_history_errors(text: str) -> None:
    _check(text)
    _check(text, multi=True)


@settings(FUZZ, max_examples=40)
@given(data=mutated() | st.binary(max_size=200).map(lambda b: b.decode("latin-1")), raw=st.binary(max_size=8))
def test_phh_check_reports_bad_files_and_goes_on(tmp_path_factory, data: str, raw: bytes) -> None:  # type: ignore[no-untyped-def]
    """``check_paths`` (``cardgame phh check``) never raises: every problem is a hand's or file's line."""
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "a.phh").write_bytes(data.encode("utf-8", "surrogatepass") + raw)
    (folder / "b.phhs").write_text(f"[1]\n{data}\n", encoding="utf-8", errors="surrogatepass")
    (folder / "good.phh").write_text(valid_texts()[0], encoding="utf-8")
    report = check_paths([folder])
    assert [h.path for h in report.hands if h.status != "error"][-1].endswith("good.phh")
