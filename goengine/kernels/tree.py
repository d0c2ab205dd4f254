"""The search tree as a pool of flat arrays; a node's children form one contiguous block.

A tree is ``(ti, tf, tmeta)``:

- ``ti``: int32[NI, capacity]: ``PARENT`` (-1 at the root), ``MOVE`` (the point played to reach
  the node, or PASS), ``FIRST`` (index of the first child; before expansion, ``-1 - k`` where
  ``k`` is the number of iterations that have ended at the leaf: ``leaf_iterations``), ``NCHILD``,
  ``VISITS`` (iterations through the node, plus its prior's virtual visits), ``AVISITS`` (AMAF
  count);
- ``tf``: float64[NF, capacity]: ``WINS``, ``AWINS`` (reward sums; ``WINS`` includes the prior's
  virtual wins), ``SCORE`` (the sum of the area scores, Black's area minus White's with no komi,
  that the iterations through the node ended with: a prior adds none, so divided by the node's
  searched visits it is the score expected after its move, ``kata-analyze``'s ``scoreLead``),
  ``SCORE_SQ`` (the sum of their squares, for the score's spread: ``scoreStdev``);
- ``tmeta``: int64[NTMETA]: ``N_NODES`` (nodes in use; the pool is ``[0, N_NODES)``), ``FULL``
  (set when an expansion did not fit) and ``CAPACITY`` (the nodes the pool may hold now, at most
  the arrays' columns: the arrays are reserved whole and only the columns in use take memory, so
  the pool grows by raising ``CAPACITY`` alone, with no copy, ``search.Tree.grow``).

Reward perspective, used everywhere: ``WINS[i]`` and ``AWINS[i]`` are reward sums **for the player
who played ``MOVE[i]``** (win 1, draw 1/2, loss 0), so a parent chooses among its children by
their own win rates. At the root, ``MOVE`` is the last move of the game (or PASS) and ``WINS``
is from that move's player's side.

Prior knowledge (``kernels.prior``) is "equivalent experience" (Gelly and Silver 2007): a new
child starts with the prior's virtual visits and wins already in ``VISITS`` and ``WINS``, so the
selection rules see them without knowing priors exist. They are not stored apart: a prior is a
function of the position, so what it gave the root's children is recomputed when the search
reports what it searched (``Search._root_stats``), and every node stays 56 bytes.

A leaf counts its own iterations in ``FIRST`` (``-1 - k``, so a fresh leaf holds NO_NODE) because
``VISITS`` also holds the prior's virtual visits, and the expansion threshold is about real ones
(Pachi's ``expand_p`` counts playouts, not its prior); the field is otherwise unused until the
leaf has children, so nodes stay 56 bytes. Test children with ``NCHILD`` (or ``FIRST >= 0``).

Exactness: sums are float64, exact for every count of halves below 2^53; visit counts are int32,
and a search stops adding iterations to a tree whose root reaches MAX_VISITS (about 2^31, 12 hours
at 50,000 iterations a second), so no count ever wraps.

56 bytes a node (six int32 and four float64). Node 0 is the root after ``new_tree`` and after
``copy_subtree``; re-rooting copies the kept subtree into fresh arrays, so the pool never holds
garbage and stays compact.
"""

import numpy as np
from numba import njit

from . import at
from .atomic import atomic_add_1d, atomic_cas, atomic_load

PARENT = 0
MOVE = 1
FIRST = 2
NCHILD = 3
VISITS = 4
AVISITS = 5
NI = 6

WINS = 0
AWINS = 1
SCORE = 2
SCORE_SQ = 3
NF = 4

N_NODES = 0
FULL = 1
CAPACITY = 2
NTMETA = 3

BYTES_PER_NODE = NI * 4 + NF * 8
NO_NODE = -1
MAX_VISITS = (1 << 31) - (1 << 20)  # a root this visited takes no more iterations (int32 counts)


def new_tree(
    capacity: int, root_move: int = -1, reserve: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty pool of ``capacity`` nodes holding only the root (node 0), in arrays of
    ``reserve`` columns (``capacity`` by default) that it may grow into. The arrays are zeros
    from the system's fresh pages: a column takes memory only once it is written."""
    reserve = capacity if reserve is None else reserve
    ti = np.zeros((NI, reserve), dtype=np.int32)
    tf = np.zeros((NF, reserve), dtype=np.float64)
    tmeta = np.zeros(NTMETA, dtype=np.int64)
    ti[PARENT, 0] = NO_NODE
    ti[MOVE, 0] = root_move
    ti[FIRST, 0] = NO_NODE
    tmeta[N_NODES] = 1
    tmeta[CAPACITY] = min(capacity, reserve)
    return ti, tf, tmeta


@njit(cache=True, _nrt=False, inline="always")
def leaf_iterations(ti, node):
    """Iterations that have ended at the unexpanded ``node`` (kept in its ``FIRST`` field)."""
    return -1 - ti[FIRST, at(node)]


@njit(cache=True, _nrt=False)
def alloc_children(ti, tf, tmeta, parent, moves, count, shared):
    """Give ``parent`` the children ``moves[:count]`` as one block; returns the block's first
    index, or -1 (``FULL`` set) when the pool has no room.

    In a tree of one thread the block is ``parent``'s at once. In a shared tree (``shared``:
    several threads search it, ``kernels.search``) the block is taken with an atomic add on
    ``N_NODES``, so two threads never get the same nodes, and stays the caller's until it
    publishes it (``publish_children``) once the children have their prior: a thread that
    reads ``parent`` before sees a leaf."""
    if shared:
        start = atomic_add_1d(tmeta, N_NODES, np.int64(count))
        if start + count > tmeta[CAPACITY]:
            atomic_add_1d(tmeta, N_NODES, np.int64(-count))
            tmeta[FULL] = 1
            return np.int64(-1)
    else:
        start = tmeta[N_NODES]
        if start + count > tmeta[CAPACITY]:
            tmeta[FULL] = 1
            return np.int64(-1)
    for k in range(count):
        i = start + k
        ti[PARENT, at(i)] = parent
        ti[MOVE, at(i)] = moves[k]
        ti[FIRST, at(i)] = NO_NODE
        ti[NCHILD, at(i)] = 0
        ti[VISITS, at(i)] = 0
        ti[AVISITS, at(i)] = 0
        tf[WINS, at(i)] = 0.0
        tf[AWINS, at(i)] = 0.0
        tf[SCORE, at(i)] = 0.0
        tf[SCORE_SQ, at(i)] = 0.0
    if not shared:
        ti[FIRST, at(parent)] = start
        ti[NCHILD, at(parent)] = count
        tmeta[N_NODES] = start + count
    return np.int64(start)


@njit(cache=True, _nrt=False)
def publish_children(ti, parent, first, count):
    """Make the block ``first .. first + count - 1`` the children of ``parent`` in a shared tree.
    ``NCHILD`` is written first and ``FIRST`` last, by compare-and-swap (a barrier: every store
    before it, the children's prior included, is visible with it), replacing the leaf's count of
    iterations, which other threads may still be lowering; a thread that sees ``FIRST >= 0``
    (``children_of``) sees the children whole."""
    ti[NCHILD, at(parent)] = count
    while True:
        old = atomic_load(ti, FIRST, parent)
        if atomic_cas(ti, FIRST, parent, old, np.int32(first)) == old:
            return


@njit(cache=True, _nrt=False, inline="always")
def children_of(ti, node, shared):
    """``(first, count)`` of ``node``'s children, ``(-1, 0)`` for a leaf. In a shared tree the
    children count only once published (``publish_children``): ``FIRST`` is read first, with
    acquire ordering, so ``NCHILD`` is read after it."""
    if shared:
        first = atomic_load(ti, FIRST, node)
        if first < 0:
            return np.int64(-1), np.int64(0)
        return np.int64(first), np.int64(ti[NCHILD, at(node)])
    count = ti[NCHILD, at(node)]
    if count <= 0:
        return np.int64(-1), np.int64(0)
    return np.int64(ti[FIRST, at(node)]), np.int64(count)


@njit(cache=True, _nrt=False)
def count_leaf_iteration(ti, node, shared):
    """Count one more iteration ended at the leaf ``node`` (its ``FIRST`` field, ``-1 - k``);
    returns the count before it, or -1 when, in a shared tree, another thread published the
    node's children meanwhile (the count is gone: the caller descends instead)."""
    if not shared:
        k = leaf_iterations(ti, node)
        ti[FIRST, at(node)] -= 1
        return np.int64(k)
    while True:
        old = atomic_load(ti, FIRST, node)
        if old >= 0:
            return np.int64(-1)
        if atomic_cas(ti, FIRST, node, old, np.int32(old - 1)) == old:
            return np.int64(-1 - old)


@njit(cache=True, _nrt=False)
def order_by_wins(ti, tf, first, count):
    """Sort the fresh children ``first .. first + count - 1`` by ``WINS`` (their prior's virtual
    wins), most first; children with equal wins keep their order (a stable insertion sort, so a
    seed still gives the same tree). Only ``MOVE``, ``VISITS`` and ``WINS`` move: the other fields
    of a fresh child are the same for all."""
    for k in range(first + 1, first + count):
        move = ti[MOVE, at(k)]
        visits = ti[VISITS, at(k)]
        wins = tf[WINS, at(k)]
        j = k
        while j > first and tf[WINS, at(j - 1)] < wins:
            ti[MOVE, at(j)] = ti[MOVE, at(j - 1)]
            ti[VISITS, at(j)] = ti[VISITS, at(j - 1)]
            tf[WINS, at(j)] = tf[WINS, at(j - 1)]
            j -= 1
        ti[MOVE, at(j)] = move
        ti[VISITS, at(j)] = visits
        tf[WINS, at(j)] = wins


@njit(cache=True)
def copy_subtree(src_i, src_f, root, dst_i, dst_f, dst_meta, limit):
    """Copy the subtree under ``root`` into the empty pool ``dst`` (its node 0 becomes the root),
    breadth first, so children blocks stay contiguous, at most ``limit`` nodes (and no more than
    ``dst_meta[CAPACITY]``). Nodes that do not fit are dropped with their subtrees (the parent
    is left unexpanded). Returns the number of nodes copied."""
    cap = min(limit, dst_meta[CAPACITY])
    queue = np.empty(cap, dtype=np.int64)  # source index of each destination node
    for r in range(NI):
        dst_i[r, 0] = src_i[r, root]
    for r in range(NF):
        dst_f[r, 0] = src_f[r, root]
    dst_i[PARENT, 0] = NO_NODE
    queue[0] = root
    n = 1
    head = 0
    while head < n:
        s = queue[head]
        nc = src_i[NCHILD, at(s)]
        if nc > 0 and n + nc <= cap:
            first = src_i[FIRST, at(s)]
            dst_i[FIRST, at(head)] = n
            dst_i[NCHILD, at(head)] = nc
            for k in range(nc):
                for r in range(NI):
                    dst_i[r, n + k] = src_i[r, first + k]
                for r in range(NF):
                    dst_f[r, n + k] = src_f[r, first + k]
                dst_i[PARENT, at(n + k)] = head
                queue[n + k] = first + k
            n += nc
        else:
            if nc > 0:  # its children do not fit: a leaf again, due for expansion at once
                dst_i[FIRST, at(head)] = -1 - dst_i[VISITS, at(head)]
            dst_i[NCHILD, at(head)] = 0
        head += 1
    dst_meta[N_NODES] = n
    dst_meta[FULL] = 0
    return n


@njit(cache=True, _nrt=False)
def principal_variation(ti, node, out, shared):
    """The most visited line below ``node`` into ``out`` (at most ``len(out)`` moves): at each node
    its most visited child (the first of equals), stopping at a leaf or an unvisited child.
    Returns the number of moves written. Safe while other threads search a shared tree
    (``children_of``): the line is then one of the moments it was read at."""
    n = np.int64(0)
    while n < out.shape[0]:
        first, count = children_of(ti, node, shared)
        if count <= 0:
            break
        best = np.int64(-1)
        most = np.int64(-1)
        for ch in range(first, first + count):
            visits = np.int64(ti[VISITS, at(ch)])
            if visits > most:
                most = visits
                best = ch
        if most <= 0:
            break
        out[at(n)] = ti[MOVE, at(best)]
        n += 1
        node = best
    return n
