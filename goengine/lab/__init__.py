"""The match laboratory: goengine against GNU Go or any GTP engine, beside the engine, not in it.

It drives engines only through GTP (``client``), referees their games on its own board and clocks
(``referee``, ``referee_clock``), schedules them on the one job runner, here or on a Dask cluster
(``schedule``), keeps every finished game on disk (``records``) with its SGF made from the record
(``gamefiles``), and turns them into win rates with intervals (``stats``), sequential tests
(``sprt``), one rating scale (``ratings``), tables and plots (``report``). ``tune`` tunes
numeric settings by SPSA on games against an opponent; ``tactics_benchmark``
is the tactical benchmark (``goengine-tactics``) on GNU Go's regression positions, which
``regression`` reads and judges. A match is a ``match.Match``, frozen, played by
``match.play_match``, between ``engines`` (goengine's configurations and its opponents as command
lines); ``cli`` is the command that reads one (``goengine-match``; ``python -m goengine.lab`` in a
checkout). Nothing in the engine imports this package, and it imports
nothing of the engine but the board, coordinates, the rules, SGF, the version and the job runner
(``goengine.jobs``; import-linter contracts in ``pyproject.toml`` check both).

What goengine itself installs is enough to import every module here and to play matches. The
``match`` extra adds scipy (the tournament's ratings) and dask (clusters), each imported where it
is used, through ``needs``: without them only a tournament or a cluster fails, before any game,
with a message that names the extra. It also adds rich, the progress bar; without it the command
prints a line a game.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# the match extra's packages by name: a line that works with a wheel, a clone or neither (goengine
# is not on the package index, so ``pip install 'goengine[match]'`` would find nothing)
INSTALL_EXTRA = "pip install rich 'dask[distributed]' scipy (the match extra)"


class Usage(Exception):
    """A mistake on a command line, or a match that contradicts itself or its folder: the message,
    and exit status 2, before anything is touched."""


class MissingExtra(ImportError):
    """An optional package of the ``match`` extra is not installed; the message says which, what
    for, and how to install it."""


def needs(module: str, purpose: str) -> ModuleType:
    """``module`` imported, or MissingExtra naming its package, ``purpose`` and the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        package = module.partition(".")[0]
        raise MissingExtra(f"{purpose} needs {package}, which is not installed: {INSTALL_EXTRA}") from err
