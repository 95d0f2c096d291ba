"""``python -m cardgame`` runs the command-line interface."""

import sys

from cardgame.cli import main

sys.exit(main())
