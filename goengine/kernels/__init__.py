"""numba kernels: pure functions over numpy arrays. No classes, strings or configuration objects here.

numba's on-disk cache does not notice an edit in a callee that lives in another file, so a stale
compiled kernel could run after a change. We therefore key the cache folder to a hash of these
sources: an edited kernel always compiles afresh. This must run before any kernel module is
imported, which is why it lives in the package's ``__init__``.
"""

import hashlib
import os
from pathlib import Path

import numba


def _source_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The folder numba's cache uses for the kernels of this source tree."""
    base = os.environ.get("GOENGINE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "goengine"
    )
    return Path(base) / f"numba-{_source_digest()}"


# NUMBA_CACHE_DIR set by the user wins; otherwise point numba at our keyed folder.
if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
