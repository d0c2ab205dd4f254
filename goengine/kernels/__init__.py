"""numba kernels: pure functions over numpy arrays. No classes, strings or configuration objects here.

Every kernel that allocates nothing is compiled with ``_nrt=False``: without numba's reference
counting. With it, numba increments and decrements an array's reference count (two atomic
instructions, each a call) whenever an array is bound to a name, which includes every argument of
an ``inline="always"`` kernel; the refcount pruning pass removes only some, and in a playout,
where small kernels are called at every move, those calls were a large part of the CPU time
(``perf``). So the hot path allocates nothing: scratch lives in rows of the board arrays
(``board.LADDER``) or in arrays the caller makes once (``search.new_workspace``). Only the kernels
that allocate or return new arrays keep reference counting (``ALLOCATING``); a test holds every
other kernel to ``_nrt=False``, which must be explicit: a kernel without the option inherits its
caller's setting, and numba's cache does not tell the two compilations apart.

Every index into the board arrays (``pts``, the Zobrist and pattern tables), the AMAF record and
the tree's arrays is written ``a[at(i)]``: ``at`` makes it an unsigned integer. numba lets a
signed index count from the end (``a[-1]``) and pays for that on every access, a shift, a mask
and an add before the load (``perf``'s annotated hot loop showed them); an unsigned index it uses
as it is. ``at`` is a plain cast and these indices are never negative (``PASS`` and the other
negative markers are tested before anything is indexed with them), so no move and no seed's game
changes. ``tests/test_kernels.py`` finds a board or tree row indexed without it.

A kernel is compiled once for every distinct set of argument types it is called with, and a
constant argument (``f(p, 2)``, ``f(p, True)``, a module constant) is typed as a literal of its
value: a signature of its own, a whole compilation of the kernel and of every kernel it calls.
So kernels call kernels with typed values: a point read from an ``int32`` row is made an ``int64``
(``np.int64(ti[MOVE, at(i)])``), a constant is ``np.int64(2)`` or ``np.bool_(True)``, and a
variable that starts as a constant and changes in a loop starts typed (``node = np.int64(0)``),
since numba otherwise compiles the callee for the constant too while it infers the loop's types.
This cut the cold compile (``bench/compile.py``, which lists the kernels compiled more than once
with ``--signatures``) by a third; ``tests/test_kernels.py`` checks that no kernel a game uses is
compiled twice.

``docs/performance.md`` gives what each of these measured, and the commands that measure it
(``bench/ab.py`` times two versions of these kernels against each other).

numba's on-disk cache does not notice an edit in a callee that lives in another file, so a stale
compiled kernel could run after a change. We therefore key the cache folder to a hash of these
sources (and of where they are installed, and the Python and numba versions): an edited kernel
always compiles afresh. This must run before any kernel module is
imported, which is why it lives in the package's ``__init__``.
"""

import hashlib
import os
import sys
from pathlib import Path

import numba
import numpy as np


def _source_digest() -> str:
    """A digest of these kernels' sources, of where they are installed and of the Python and
    numba that compile them: one install's kernels, and nobody else's, in one folder."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    here = f"{Path(__file__).resolve().parent}|{sys.version_info[0]}.{sys.version_info[1]}|{numba.__version__}"
    digest.update(here.encode())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The folder numba's cache uses for the kernels of this source tree, as installed here: two
    installs of the same sources (two virtualenvs sharing ``~/.cache``) get a folder each, so that
    one never takes the other's compiled kernels for its own (numba keeps them apart inside one
    folder, by the sources' path, and would compile anew; the engine's warm-up, seeing the other's
    files, said nothing of it)."""
    base = os.environ.get("GOENGINE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "goengine"
    )
    return Path(base) / f"numba-{_source_digest()}"


#: what the first compile of every kernel a game uses costs, as measured (``docs/performance.md``:
#: the cold compile and the start-up); every message that speaks of it says this
COMPILE_TIME = "about 35 s on an idle two-core machine, up to 90 s on a busy one"

# NUMBA_CACHE_DIR set by the user wins; otherwise point numba at our keyed folder.
if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())

# an index numba need not wrap around (the module docstring says why): ``a[at(i)]``
at = np.uint64

# the kernels that allocate arrays (or return new ones), compiled with reference counting; every
# other kernel is compiled with ``_nrt=False`` (the module docstring says why)
ALLOCATING = frozenset(
    {
        "bandit.run_games",
        "balance.value_and_gradient",
        "balance.values",
        "board.new_board",
        # learning the move model: run over recorded games, outside any search
        "learn.chain_sums",
        "learn.evaluate",
        "learn.extract_game",
        "learn.harvest_game",
        "learn.loss_and_gradient",
        "learned.new_state",
        # learning the learned playout policy
        "playout_features.evaluate",
        "playout_features.extract_game",
        "playout_features.loss_and_gradient",
        "playout.draw_counts",
        "playout.outside_search",
        "playout.run_playouts",
        "replies.no_replies",
        "search.owner_counts",
        "tree.copy_subtree",
    }
)
