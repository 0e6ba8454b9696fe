"""``python -m game``: the command line lives in :mod:`game.play.cli`.

Its import takes about half a second (numpy, esper, tcod): a Ctrl+C then ended on a bare
``KeyboardInterrupt`` traceback, where every command once started says "interrupted" and exits 130.
"""

import sys

try:
    from game.play.cli import main
except KeyboardInterrupt:
    print("game: interrupted while starting (nothing was run)", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
