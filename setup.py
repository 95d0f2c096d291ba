"""Build script: a pure-Python package by default; ``CARDGAME_COMPILE=1`` compiles the hot path.

The compiled build runs the same typed source through mypyc (as black and mypy ship themselves):
the modules in ``COMPILED`` become C extensions, everything else stays Python, and the behaviour is
the same (CI runs the whole test suite against both builds). ``cardgame.compiled()`` tells which
one is imported. An editable compiled install puts the extensions next to the sources, where they
shadow the ``.py`` files: rebuild after editing one, or delete ``cardgame/**/*.so`` to go back.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules a hand runs through: the dispatcher and stages, the hand state, pots and evaluation.
COMPILED = [
    "cardgame/deck.py",
    "cardgame/stage.py",
    "cardgame/dispatcher.py",
    "cardgame/context.py",
    "cardgame/hand.py",
    "cardgame/legal.py",
    "cardgame/player.py",
    "cardgame/pots.py",
    "cardgame/stages/betting_round.py",
    "cardgame/stages/bring_in.py",
    "cardgame/stages/deal_board.py",
    "cardgame/stages/deal_hole.py",
    "cardgame/stages/draw.py",
    "cardgame/stages/forced_bets.py",
    "cardgame/stages/showdown.py",
    "cardgame/stages/wait_for_players.py",
]

ext_modules = []
if os.environ.get("CARDGAME_COMPILE", "") not in ("", "0"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
