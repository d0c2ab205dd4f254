"""SPSA tuning of goengine's parameters on games against an opponent (``goengine.lab.tune``), run
from a checkout: ``python scripts/tune.py --help`` says everything."""

import sys

from goengine.lab.tune import main

if __name__ == "__main__":
    sys.exit(main())
