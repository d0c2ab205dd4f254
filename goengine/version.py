"""The version of the code that is running: the release, and the git commit it was built from.

``full()`` is what GTP ``version`` answers and what match records and SGF files name:
``0.1.0+g<commit>`` in a git checkout (the editable install ``make`` makes), with ``-dirty`` when
the engine's own files (the ``goengine`` package and ``pyproject.toml``) differ from that commit.
An installed wheel or sdist answers the same for the commit it was built from, which the build
wrote into the package (``BUILD_COMMIT``, ``build_support/backend.py``); ``0.1.0`` alone when
neither says (a build from a copy without git). In a git checkout whose git gives no answer (git
missing, a checkout owned by another user) the commit is unknown: a ``BUILD_COMMIT`` left there
by an earlier build names another commit, and is not read. Files outside the engine (game
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


def _checkout() -> bool:
    """Whether the package is the ``goengine`` folder of our own git checkout."""
    top = _git(_PACKAGE, "rev-parse", "--show-toplevel")
    return bool(top) and _PACKAGE.parent == Path(top).resolve()


def _built() -> tuple[str, bool] | None:
    """The commit an installed package was built from and whether its files differed from it
    (``BUILD_COMMIT``), or None."""
    try:
        text = (_PACKAGE / "BUILD_COMMIT").read_text().strip()
    except OSError:
        return None
    commit, _, dirty = text.partition("-")
    return (commit, dirty == "dirty") if len(commit) == 40 else None


@functools.cache
def _source() -> tuple[str, bool] | None:
    if _checkout():
        commit = _git(_PACKAGE.parent, "rev-parse", "HEAD")
        if commit:
            return commit, bool(_git(_PACKAGE.parent, "status", "--porcelain", "--", *_ENGINE_FILES))
        return None
    if (_PACKAGE.parent / ".git").exists():  # a checkout that git does not answer for: unknown
        return None
    return _built()


def commit() -> str | None:
    """The full hash of the commit this code is (a checkout) or was built from (an installed
    package), or None when nothing says."""
    source = _source()
    return source[0] if source else None


@functools.cache
def full() -> str:
    """``0.1.0+g<commit>[-dirty]``, or ``0.1.0`` when no commit is known."""
    source = _source()
    if source is None:
        return __version__
    commit, dirty = source
    return f"{__version__}+g{commit[:10]}{'-dirty' if dirty else ''}"
