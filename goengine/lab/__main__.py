"""``python -m goengine.lab``: the match command, ``goengine-match`` (``goengine.lab.cli``), as the
Python that runs it has goengine: from a worktree's virtualenv, that worktree's engine."""

import sys

from goengine.lab.cli import main

sys.exit(main())
