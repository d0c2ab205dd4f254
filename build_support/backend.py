"""The build backend: setuptools' own, with the git commit and the user's docs put into the
package first.

A wheel or an sdist built from a git checkout carries ``goengine/BUILD_COMMIT``: the full hash of
the commit it was built from, with ``-dirty`` when the engine's own files differed from it, so
that an installed engine answers GTP ``version`` with ``0.1.0+g<commit>`` as a checkout does
(``goengine.version``), and every match record and SGF file it writes names the code that played.
A wheel built from an sdist keeps the sdist's file (there is no git there to ask: an sdist is the
folder with ``PKG-INFO`` and no ``.git``). Anywhere else git must answer: when it does not (git
missing, a checkout owned by another user) a file left by an earlier build is removed, and the
build names no commit rather than a wrong one. Files under ``goengine/`` that git does not track
(nor ignore) would go into the wheel unrecorded: the build refuses, naming them.

The documents a user of the installed package needs (``DOCS``: the README and the guides of
``docs/``) are copied into ``goengine/docs/``, which ``goengine docs`` reads where no checkout's
``docs/`` is beside the package. Everything else
is ``setuptools.build_meta``'s (PEP 517: ``backend-path`` in ``pyproject.toml`` puts this folder
on the path of the build, and nothing of it is installed).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - the hooks this module does not wrap

ROOT = Path(__file__).resolve().parent.parent
STAMP = ROOT / "goengine" / "BUILD_COMMIT"
# the user's documents, copied into the package as ``goengine docs`` names them (goengine.docs)
DOCS = ("README.md", "docs/gtp.md", "docs/engine.md", "docs/matches.md", "docs/performance.md", "docs/peers.md")
ENGINE_FILES = ("goengine", "pyproject.toml")  # as goengine.version counts a checkout dirty


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def stamp() -> None:
    """Write BUILD_COMMIT from git, when this is the project's own git checkout; keep an sdist's;
    otherwise remove any (the commit is unknown). SystemExit naming the untracked files under
    ``goengine/`` that the wheel would carry."""
    top = _git("rev-parse", "--show-toplevel")
    commit = _git("rev-parse", "HEAD") if top and Path(top).resolve() == ROOT else None
    if not commit:
        if not is_sdist():
            STAMP.unlink(missing_ok=True)
        return
    untracked = _git("ls-files", "--others", "--exclude-standard", "--", "goengine")
    if untracked:
        raise SystemExit(
            "goengine/ holds files git does not track, which the build would put in the package: "
            + ", ".join(untracked.splitlines())
            + " (add them to git, or remove them)"
        )
    changes = _git("status", "--porcelain", "--", *ENGINE_FILES)
    dirty = any(not line.endswith("BUILD_COMMIT") for line in (changes or "").splitlines())
    STAMP.write_text(f"{commit}{'-dirty' if dirty else ''}\n")


def is_sdist() -> bool:
    """Whether ROOT is an unpacked sdist (its ``PKG-INFO``, and no ``.git``)."""
    return (ROOT / "PKG-INFO").is_file() and not (ROOT / ".git").exists()


def copy_docs() -> None:
    """Copy DOCS into ``goengine/docs/`` (a build's copy, which git ignores), when they are here."""
    folder = ROOT / "goengine" / "docs"
    folder.mkdir(exist_ok=True)
    for name in DOCS:
        source = ROOT / name
        if source.is_file():
            shutil.copyfile(source, folder / Path(name).name)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    stamp()
    copy_docs()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    stamp()
    copy_docs()
    return build_meta.build_sdist(sdist_directory, config_settings)
