"""The Go board as two arrays, and the kernels that read and change it.

Reading guide: start at ``place`` (a stone goes down, chains merge, neighbours are captured), then
``is_legal`` and ``is_eye``, then ``area_score``. ``new_board`` shows every field being set up.

Layout (Pachi's padded 1-D board, one border ring): for a board of ``size`` the width is
``w = size + 2`` and the point at row ``r`` (0 = top) and column ``c`` (0 = left) is
``p = (r + 1) * w + (c + 1)``. Neighbours are ``p - w, p - 1, p + 1, p + w``; every interior point's
neighbours and diagonals are inside the array, so no kernel tests bounds. The geometry is read
from ``meta[W]``: one compiled kernel serves every size.

State is ``(pts, meta)``:

- ``pts``: int32[NFIELDS, w * w], one row per per-point field (the row constants below).
  Chain fields (``LIBS``, ``LIBSUM``, ``LIBSUM2``, ``CSIZE``) are valid only at a chain's root,
  the point whose index is the chain id stored in ``CHAIN``.
- ``meta``: int64[META_LEN]; its first NMETA slots are the scalars (empty count, ko, hash,
  passes, side to move, the last two moves, geometry).

Rows after STATE_ROWS (and meta after NMETA) are scratch that kernels borrow, so that nothing
called during a playout allocates: flood-fill marks and queue, and the two positions the ladder
reader plays on. A kernel that allocates nothing is compiled without numba's reference counting
(``_nrt=False``, see ``goengine.kernels``), which is what makes the playouts fast.

Liberties are kept as *pseudo-liberties* (libego, GNU Go's "liberty edges"): a chain counts one for
every (stone, empty neighbour) pair, so a liberty shared by two of its stones counts twice.
Placing or removing a stone changes the counts by a constant amount, with no search. A chain is
in atari exactly when all its pseudo-liberties are the same point, which we test with the sums of
the points and of their squares: by Cauchy-Schwarz, ``n * sum(p^2) == sum(p)^2`` iff all equal.
That single liberty is then ``sum(p) / n``.

Colours: ``EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3``; the opponent of ``c`` is ``3 - c``.
Moves are point indices; ``PASS = -1``. Scores are from Black's side (Black minus White).
"""

import numpy as np
from numba import njit

from . import at

EMPTY = 0
BLACK = 1
WHITE = 2
BORDER = 3
PASS = -1
NO_POINT = -1  # "no ko point"

MIN_SIZE = 2
MAX_SIZE = 19
MAX_WIDTH = MAX_SIZE + 2
MAX_POINTS = MAX_WIDTH * MAX_WIDTH

# rows of pts
COLOR = 0  # EMPTY / BLACK / WHITE / BORDER
CHAIN = 1  # chain id (the root stone's index), for stones
NEXT = 2  # next stone of the chain, a circular list through all its stones
LIBS = 3  # at a root: number of pseudo-liberties
LIBSUM = 4  # at a root: sum of the pseudo-liberties' indices
LIBSUM2 = 5  # at a root: sum of their squares
CSIZE = 6  # at a root: number of stones
EMPTIES = 7  # EMPTIES[0 : meta[N_EMPTY]] lists the empty points, in no order
EMPTY_POS = 8  # for an empty point, its index in EMPTIES
# the rows that hold the position; the rows after them are scratch, never copied with it
STATE_ROWS = EMPTY_POS + 1
MARK = 9  # scratch for flood fills
STACK = 10  # scratch for flood fills
LADDER = 11  # two scratch positions of STATE_ROWS rows each, for ``tactics.ladder_captures``
NFIELDS = LADDER + 2 * STATE_ROWS

# slots of meta
N_EMPTY = 0
KO = 1  # the point the player KO_COLOR may not play next (simple ko), or NO_POINT
KO_COLOR = 2  # kept when the ban lapses: the colour that lost the last ko (LAST_KO)
HASH = 3  # Zobrist hash of the stones (positional: not the side to move)
PASSES = 4  # consecutive passes just played
TO_MOVE = 5
MOVES = 6  # moves played (passes included)
SIZE = 7
W = 8
LAST_MOVE = 9  # the point of the last move; PASS after a pass and before the first move
LAST_MOVE2 = 10  # the move before it, the same way
LAST_KO = 11  # the point of the last ko capture's ban, kept when the ban lapses, or NO_POINT
LAST_KO_MOVE = 12  # MOVES when that ko was taken
NMETA = 13  # the slots of a position
META_LEN = 3 * NMETA  # meta also holds the scalars of the two LADDER scratch positions


@njit(cache=True)
def new_board(size):
    """An empty ``size`` x ``size`` board with Black to move, as ``(pts, meta)``."""
    w = size + 2
    pts = np.zeros((NFIELDS, w * w), dtype=np.int32)
    meta = np.zeros(META_LEN, dtype=np.int64)
    meta[SIZE] = size
    meta[W] = w
    meta[KO] = NO_POINT
    meta[LAST_KO] = NO_POINT
    meta[TO_MOVE] = BLACK
    meta[LAST_MOVE] = PASS
    meta[LAST_MOVE2] = PASS
    n = 0
    for p in range(w * w):
        r = p // w
        c = p % w
        if r == 0 or c == 0 or r == w - 1 or c == w - 1:
            pts[COLOR, at(p)] = BORDER
        else:
            pts[EMPTIES, at(n)] = p
            pts[EMPTY_POS, at(p)] = n
            n += 1
    meta[N_EMPTY] = n
    return pts, meta


@njit(cache=True, _nrt=False, inline="always")
def copy_state(pts0, meta0, pts, meta):
    """Copy the position ``(pts0, meta0)`` (its STATE_ROWS rows and NMETA slots) into
    ``(pts, meta)``, which have at least as many.

    Written as loops because numba compiles ``pts[:STATE_ROWS] = pts0[:STATE_ROWS]`` for 2-D
    arrays into an element-by-element broadcast, several times slower than these loops
    (``docs/performance.md``). The search copies the root position once an iteration; the ladder
    reader copies the position once a read and once an atari it tries.
    """
    npts = pts0.shape[1]
    for r in range(STATE_ROWS):
        for p in range(npts):
            pts[r, at(p)] = pts0[r, at(p)]
    for k in range(NMETA):
        meta[k] = meta0[k]


@njit(cache=True, _nrt=False, inline="always")
def in_atari(pts, root):
    """True when the chain with this root has exactly one liberty (at least one stone assumed)."""
    n = np.int64(pts[LIBS, at(root)])
    s = np.int64(pts[LIBSUM, at(root)])
    return n > 0 and n * np.int64(pts[LIBSUM2, at(root)]) == s * s


@njit(cache=True, _nrt=False, inline="always")
def _add_lib(pts, root, p):
    pts[LIBS, at(root)] += 1
    pts[LIBSUM, at(root)] += p
    pts[LIBSUM2, at(root)] += p * p


@njit(cache=True, _nrt=False, inline="always")
def _remove_lib(pts, root, p):
    pts[LIBS, at(root)] -= 1
    pts[LIBSUM, at(root)] -= p
    pts[LIBSUM2, at(root)] -= p * p


@njit(cache=True, _nrt=False, inline="always")
def _remove_empty(pts, meta, p):
    i = pts[EMPTY_POS, at(p)]
    n = meta[N_EMPTY] - 1
    last = pts[EMPTIES, at(n)]
    pts[EMPTIES, at(i)] = last
    pts[EMPTY_POS, at(last)] = i
    meta[N_EMPTY] = n


@njit(cache=True, _nrt=False, inline="always")
def _add_empty(pts, meta, p):
    n = meta[N_EMPTY]
    pts[EMPTIES, at(n)] = p
    pts[EMPTY_POS, at(p)] = n
    meta[N_EMPTY] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def _merge(pts, a, b):
    """Merge the chains with roots ``a`` and ``b``; the smaller is relabelled. Returns the root."""
    if pts[CSIZE, at(a)] < pts[CSIZE, at(b)]:
        a, b = b, a
    s = b
    while True:
        pts[CHAIN, at(s)] = a
        s = pts[NEXT, at(s)]
        if s == b:
            break
    # splice the two circular lists
    na = pts[NEXT, at(a)]
    pts[NEXT, at(a)] = pts[NEXT, at(b)]
    pts[NEXT, at(b)] = na
    pts[LIBS, at(a)] += pts[LIBS, at(b)]
    pts[LIBSUM, at(a)] += pts[LIBSUM, at(b)]
    pts[LIBSUM2, at(a)] += pts[LIBSUM2, at(b)]
    pts[CSIZE, at(a)] += pts[CSIZE, at(b)]
    return a


@njit(cache=True, _nrt=False)
def _remove_chain(pts, meta, zobrist, root):
    """Take the chain off the board; its neighbours gain the freed pseudo-liberties.
    Returns the number of stones removed."""
    w = meta[W]
    color = pts[COLOR, at(root)]
    h = meta[HASH]
    s = root
    while True:  # first empty every stone, so the second pass sees only the surrounding chains
        pts[COLOR, at(s)] = EMPTY
        h ^= zobrist[at(color), at(s)]
        _add_empty(pts, meta, s)
        s = pts[NEXT, at(s)]
        if s == root:
            break
    meta[HASH] = h
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            cq = pts[COLOR, at(q)]
            if cq == BLACK or cq == WHITE:
                _add_lib(pts, pts[CHAIN, at(q)], s)
        s = pts[NEXT, at(s)]
        if s == root:
            break
    return pts[CSIZE, at(root)]


@njit(cache=True, _nrt=False, inline="always")
def place(pts, meta, zobrist, p, c):
    """Put a stone of colour ``c`` on the empty point ``p`` and capture what it captures.

    The move must be legal (``is_legal``); nothing is checked here. Sets the simple-ko point,
    the side to move, and resets the pass count. Returns the number of stones captured.
    """
    w = meta[W]
    o = 3 - c
    _remove_empty(pts, meta, p)
    pts[COLOR, at(p)] = c
    pts[CHAIN, at(p)] = p
    pts[NEXT, at(p)] = p
    pts[CSIZE, at(p)] = 1
    pts[LIBS, at(p)] = 0
    pts[LIBSUM, at(p)] = 0
    pts[LIBSUM2, at(p)] = 0
    meta[HASH] ^= zobrist[at(c), at(p)]
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == EMPTY:
            _add_lib(pts, p, q)
    captured = 0
    captured_at = NO_POINT
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        if cq == c:
            r = pts[CHAIN, at(q)]
            _remove_lib(pts, r, p)  # one pseudo-liberty per adjacency (q, p)
            rp = pts[CHAIN, at(p)]
            if r != rp:
                _merge(pts, rp, r)
        elif cq == o:
            r = pts[CHAIN, at(q)]
            _remove_lib(pts, r, p)
            if pts[LIBS, at(r)] == 0:
                captured += _remove_chain(pts, meta, zobrist, r)
                captured_at = q
    # Simple ko: one stone captured by a lone stone left with that one liberty.
    root = pts[CHAIN, at(p)]
    if captured == 1 and pts[CSIZE, at(root)] == 1 and pts[LIBS, at(root)] == 1:
        meta[KO] = captured_at
        meta[KO_COLOR] = o
        meta[LAST_KO] = captured_at
        meta[LAST_KO_MOVE] = meta[MOVES]
    else:
        meta[KO] = NO_POINT
    meta[PASSES] = 0
    meta[TO_MOVE] = o
    meta[MOVES] += 1
    meta[LAST_MOVE2] = meta[LAST_MOVE]
    meta[LAST_MOVE] = p
    return captured


@njit(cache=True, _nrt=False, inline="always")
def play_pass(meta, c):
    """Colour ``c`` passes: the ko ban lapses and the pass count grows."""
    meta[KO] = NO_POINT
    meta[PASSES] += 1
    meta[TO_MOVE] = 3 - c
    meta[MOVES] += 1
    meta[LAST_MOVE2] = meta[LAST_MOVE]
    meta[LAST_MOVE] = PASS


@njit(cache=True, _nrt=False)
def play(pts, meta, zobrist, p, c):
    """Play a legal move (a point or ``PASS``) for colour ``c``. Returns the stones captured."""
    if p == PASS:
        play_pass(meta, c)
        return 0
    return place(pts, meta, zobrist, p, c)


@njit(cache=True, _nrt=False, inline="always")
def is_legal(pts, meta, p, c):
    """Whether ``c`` may play on ``p`` under simple ko: ``p`` empty, not the ko point banned to
    ``c``, and not suicide (the stone has an empty neighbour, joins a chain with another liberty,
    or captures). Positional superko is the game's business (``goengine.board``), not this one."""
    if pts[COLOR, at(p)] != EMPTY:
        return False
    if p == meta[KO] and c == meta[KO_COLOR]:
        return False
    w = meta[W]
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        if cq == EMPTY:
            return True
        if cq == BORDER:
            continue
        atari = in_atari(pts, pts[CHAIN, at(q)])
        # a neighbour chain's liberties include p; in atari, p is its only one
        if cq == c:
            if not atari:
                return True
        elif atari:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def is_eye(pts, meta, p, c):
    """Whether the empty point ``p`` is an eye of colour ``c``, which random playouts never fill.

    An eye: all four neighbours are ``c`` stones or off the board, and the diagonals hold few
    enough opponent stones for the eye to be real: fewer than two in the centre of the board, none
    on the edge or in the corner (there an off-board diagonal counts as one opponent stone).
    Empty diagonals do not count. This is the usual "eyeish" test of light playouts (libego,
    michi, Pachi's ``board_is_one_point_eye``): cheap, and it never stops a playout from
    finishing, though it does keep a few false eyes of the two-false-eyes-make-life kind.
    """
    w = meta[W]
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        if cq != c and cq != BORDER:
            return False
    o = 3 - c
    bad = 0
    edge = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        cq = pts[COLOR, at(q)]
        if cq == o:
            bad += 1
        elif cq == BORDER:
            edge = 1
    return bad + edge < 2


@njit(cache=True, _nrt=False)
def hash_after(pts, meta, zobrist, p, c):
    """The Zobrist hash of the position after ``c`` plays the legal move ``p``, without playing it:
    the new stone, minus every adjacent opponent chain whose last liberty is ``p``."""
    h = meta[HASH]
    if p == PASS:
        return h
    h ^= zobrist[at(c), at(p)]
    w = meta[W]
    o = 3 - c
    r0 = NO_POINT
    r1 = NO_POINT
    r2 = NO_POINT
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] != o:
            continue
        r = pts[CHAIN, at(q)]
        if r == r0 or r == r1 or r == r2 or not in_atari(pts, r):
            continue
        if r0 == NO_POINT:
            r0 = r
        elif r1 == NO_POINT:
            r1 = r
        else:
            r2 = r
        s = r
        while True:
            h ^= zobrist[at(o), at(s)]
            s = pts[NEXT, at(s)]
            if s == r:
                break
    return h


@njit(cache=True, _nrt=False)
def area_score(pts, meta):
    """Tromp-Taylor area count, Black minus White: stones, plus every empty region that borders
    stones of one colour only. No komi.

    Uses the STACK row as a queue and leaves in ``MARK[p]``, for every empty point, ``4 | reach``
    where ``reach`` has bit BLACK / bit WHITE set for each colour its region touches: the owner
    of an empty point is ``MARK[p] & 3`` when that is BLACK or WHITE, nobody otherwise."""
    w = meta[W]
    n_empty = meta[N_EMPTY]
    score = 0
    for p in range(w + 1, w * w - w - 1):
        cp = pts[COLOR, at(p)]
        if cp == BLACK:
            score += 1
        elif cp == WHITE:
            score -= 1
    for i in range(n_empty):
        pts[MARK, at(pts[EMPTIES, at(i)])] = 0
    for i in range(n_empty):
        start = pts[EMPTIES, at(i)]
        if pts[MARK, at(start)]:
            continue
        pts[MARK, at(start)] = 1
        pts[STACK, 0] = start
        head = 0
        tail = 1
        reach = 0  # bit BLACK, bit WHITE
        while head < tail:
            s = pts[STACK, at(head)]
            head += 1
            for q in (s - w, s - 1, s + 1, s + w):
                cq = pts[COLOR, at(q)]
                if cq == EMPTY:
                    if not pts[MARK, at(q)]:
                        pts[MARK, at(q)] = 1
                        pts[STACK, at(tail)] = q
                        tail += 1
                elif cq != BORDER:
                    reach |= cq
        for j in range(tail):
            pts[MARK, at(pts[STACK, at(j)])] = 4 | reach
        if reach == BLACK:
            score += tail
        elif reach == WHITE:
            score -= tail
    return score
