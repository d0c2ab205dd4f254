"""The version of the code that is running: the release, and the git commit it was built from.

``full()`` is what GTP ``version`` answers and what match records and SGF files name:
``0.1.0+g<commit>`` in a git checkout (the editable install ``make`` makes), with ``-dirty`` when
the engine's own files (the ``goengine`` package and ``pyproject.toml``) differ from that commit;
``0.1.0`` alone where there is no git checkout (an installed wheel). Files outside the engine (game
records under ``results/``, the docs) do not make it dirty: they do not change how it plays.
Standard library only; git is asked once per process.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from goengine import __version__

_PACKAGE = Path(__file__).resolve().parent
_ENGINE_FILES = ("goengine", "pyproject.toml")


def _git(where: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.cache
def commit() -> str | None:
    """The full hash of the commit this checkout is at, or None outside our git checkout (an
    installed copy, or a repository around it)."""
    top = _git(_PACKAGE, "rev-parse", "--show-toplevel")
    if not top or _PACKAGE.parent != Path(top).resolve():
        return None
    return _git(_PACKAGE.parent, "rev-parse", "HEAD") or None


@functools.cache
def full() -> str:
    """``0.1.0+g<commit>[-dirty]``, or ``0.1.0`` outside a git checkout."""
    if commit() is None:
        return __version__
    short = commit()[:10]
    changes = _git(_PACKAGE.parent, "status", "--porcelain", "--", *_ENGINE_FILES)
    return f"{__version__}+g{short}{'-dirty' if changes else ''}"
