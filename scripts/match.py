"""The match laboratory's command, ``goengine-match`` (``goengine.lab.cli``), run from a checkout:
``python scripts/match.py --help`` says everything."""

import sys

from goengine.lab.cli import main

if __name__ == "__main__":
    sys.exit(main())
