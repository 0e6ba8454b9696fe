"""``python -m game``: the command line lives in :mod:`game.play.cli`."""

import sys

from game.play.cli import main

sys.exit(main())
