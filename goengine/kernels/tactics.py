"""Local tactics the heavy playouts and the priors share: real liberties, self-atari, ladders,
captures and escapes around a point, and the vital point of a small eye space.

Reading guide: ``liberties_after`` is the workhorse (the distinct liberties a chain would have
after a move, counted up to three, without playing it); ``is_bad_self_atari`` and
``escape_works`` are built on it (``liberty_points_after`` also names the liberties);
``ladder_captures`` reads a ladder on the board's scratch positions; ``nakade_point`` finds the
vital point of a small eye space (three to six points).

The board keeps pseudo-liberties (``kernels.board``), which answer "in atari?" and "which
liberty?" at once but cannot tell two liberties from three. Here liberties are counted for real
by walking a chain's stones (its ``NEXT`` ring) and stopping as soon as the count asked for is
reached, so a question about a big chain with many liberties costs a few reads. Liberties are
kept in three scalars rather than an array: these functions run at every playout move and must
not allocate.
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    BORDER,
    CHAIN,
    COLOR,
    CSIZE,
    EMPTY,
    LADDER,
    LIBS,
    LIBSUM,
    NEXT,
    NMETA,
    NO_POINT,
    STACK,
    STATE_ROWS,
    W,
    copy_state,
    in_atari,
    is_legal,
    place,
)

MAX_LADDER_STEPS = 64  # attacker moves read before a ladder counts as broken (9x9: ~10 needed)


@njit(cache=True, _nrt=False, inline="always")
def _add_lib(n, l0, l1, l2, q):
    """``(n, l0, l1, l2)`` with ``q`` added if new; never holds more than three."""
    if n == 0:
        return 1, q, l1, l2
    if q == l0:
        return n, l0, l1, l2
    if n == 1:
        return 2, l0, q, l2
    if q == l1:
        return n, l0, l1, l2
    if n == 2:
        return 3, l0, l1, q
    return n, l0, l1, l2


@njit(cache=True, _nrt=False, inline="always")
def add_root(r, r0, r1, r2, r3):
    """``(r0, r1, r2, r3, new)``: the chain root ``r`` put in the first free slot (NO_POINT)
    unless one of them holds it already; ``new`` says whether it was added. A point has four
    neighbours, so four slots suffice for the chains next to one point; a caller that meets
    more (``policy._counter_ataris``) finds a fifth put in the last slot, and may meet it again."""
    if r == r0 or r == r1 or r == r2 or r == r3:
        return r0, r1, r2, r3, False
    if r0 == NO_POINT:
        return r, r1, r2, r3, True
    if r1 == NO_POINT:
        return r0, r, r2, r3, True
    if r2 == NO_POINT:
        return r0, r1, r, r3, True
    return r0, r1, r2, r, True


@njit(cache=True, _nrt=False, inline="always")
def atari_liberty(pts, root):
    """The one liberty of a chain in atari (``board.in_atari``)."""
    return pts[LIBSUM, at(root)] // pts[LIBS, at(root)]


@njit(cache=True, _nrt=False)
def chain_liberties(pts, meta, root, limit):
    """The chain's distinct liberties, counted up to ``limit`` (at most 3): ``(n, l0, l1, l2)``,
    the first ``n`` of ``l0, l1, l2`` being liberties."""
    w = meta[W]
    n, l0, l1, l2 = 0, NO_POINT, NO_POINT, NO_POINT
    if in_atari(pts, root):
        return 1, atari_liberty(pts, root), l1, l2
    s = root
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if pts[COLOR, at(q)] == EMPTY:
                n, l0, l1, l2 = _add_lib(n, l0, l1, l2, q)
                if n >= limit:
                    return n, l0, l1, l2
        s = pts[NEXT, at(s)]
        if s == root:
            return n, l0, l1, l2


@njit(cache=True, _nrt=False, inline="always")
def _touches_new_chain(pts, w, p, c, r0, r1, r2, r3, s):
    """Whether the point ``s`` is next to the chain ``c`` would make on ``p``: next to ``p`` or to
    a stone of one of the chains ``r0 .. r3`` it joins."""
    for t in (s - w, s - 1, s + 1, s + w):
        if t == p:
            return True
        if pts[COLOR, at(t)] == c:
            r = pts[CHAIN, at(t)]
            if r == r0 or r == r1 or r == r2 or r == r3:
                return True
    return False


@njit(cache=True, _nrt=False)
def liberties_after(pts, meta, p, c, limit):
    """What ``c`` playing on the empty point ``p`` would make, without playing it:
    ``(liberties counted up to limit (at most 3), stones in the chain, stones captured)``
    (``liberty_points_after`` without the points)."""
    n, _l0, _l1, _l2, size, captured = liberty_points_after(pts, meta, p, c, limit)
    return n, size, captured


@njit(cache=True, _nrt=False)
def liberty_points_after(pts, meta, p, c, limit):
    """What ``c`` playing on the empty point ``p`` would make, without playing it:
    ``(liberties counted up to limit (at most 3), the first three of them (NO_POINT past the
    count), stones in the chain, stones captured)``.

    The chain is the new stone with every ``c`` chain next to it; its liberties are its empty
    neighbours other than ``p``, plus the points of captured stones next to it (a captured
    stone next to ``p``, or next to a stone of a joined chain).
    """
    w = meta[W]
    o = 3 - c
    n, l0, l1, l2 = 0, NO_POINT, NO_POINT, NO_POINT
    size = 1
    captured = 0
    r0, r1, r2, r3 = NO_POINT, NO_POINT, NO_POINT, NO_POINT  # own chains met so far
    k0, k1, k2, k3 = NO_POINT, NO_POINT, NO_POINT, NO_POINT  # captured chains met so far
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        if cq == EMPTY:
            n, l0, l1, l2 = _add_lib(n, l0, l1, l2, q)
        elif cq == o:
            r = pts[CHAIN, at(q)]
            if in_atari(pts, r):  # its last liberty is p: captured
                n, l0, l1, l2 = _add_lib(n, l0, l1, l2, q)
                k0, k1, k2, k3, new = add_root(r, k0, k1, k2, k3)
                if new:
                    captured += pts[CSIZE, at(r)]
        elif cq == c:
            r0, r1, r2, r3, new = add_root(pts[CHAIN, at(q)], r0, r1, r2, r3)
            if new:
                size += pts[CSIZE, at(pts[CHAIN, at(q)])]
    for r in (r0, r1, r2, r3):
        if r == NO_POINT or n >= limit:
            continue
        if in_atari(pts, r):
            continue  # its one liberty is p itself
        s = r
        while n < limit:
            for q in (s - w, s - 1, s + 1, s + w):
                if q != p and pts[COLOR, at(q)] == EMPTY:
                    n, l0, l1, l2 = _add_lib(n, l0, l1, l2, q)
            s = pts[NEXT, at(s)]
            if s == r:
                break
    # the stones of captured chains that touch the new chain become its liberties too
    for k in (k0, k1, k2, k3):
        if k == NO_POINT or n >= limit:
            continue
        s = k
        while n < limit:
            if _touches_new_chain(pts, w, p, c, r0, r1, r2, r3, s):
                n, l0, l1, l2 = _add_lib(n, l0, l1, l2, s)
            s = pts[NEXT, at(s)]
            if s == k:
                break
    if n > limit:
        n = limit
    return n, l0, l1, l2, size, captured


@njit(cache=True, _nrt=False, inline="always")
def _free_neighbours(pts, w, q, x, y):
    """The empty neighbours of ``q`` other than ``x`` and ``y``."""
    k = 0
    for t in (q - w, q - 1, q + 1, q + w):
        if t != x and t != y and pts[COLOR, at(t)] == EMPTY:
            k += 1
    return k


@njit(cache=True, _nrt=False)
def fills_opponent_eye_space(pts, meta, p, c):
    """Whether the chain ``c`` would make by playing ``p``, in self-atari, fills the opponent's
    eye space: its stones and its last liberty make a region enclosed by the opponent's stones
    and the edge, i.e. the liberty touches nothing but the opponent, the edge and the chain.
    (The chain's stones themselves touch only those and the liberty: it is in atari and captures
    nothing.)"""
    w = meta[W]
    o = 3 - c
    # the own chains p joins
    r0, r1, r2, r3 = NO_POINT, NO_POINT, NO_POINT, NO_POINT
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == c:
            r0, r1, r2, r3, _ = add_root(pts[CHAIN, at(q)], r0, r1, r2, r3)
    # every empty neighbour of the chain (other than p) is its liberty; each must be enclosed
    for k in range(5):
        r = p if k == 0 else (r0 if k == 1 else (r1 if k == 2 else (r2 if k == 3 else r3)))
        if r == NO_POINT:
            continue
        s = r
        while True:
            for lib in (s - w, s - 1, s + 1, s + w):
                if lib == p or pts[COLOR, at(lib)] != EMPTY:
                    continue
                for t in (lib - w, lib - 1, lib + 1, lib + w):
                    ct = pts[COLOR, at(t)]
                    if t == p or ct == o or ct == BORDER:
                        continue
                    if ct == c:
                        rt = pts[CHAIN, at(t)]
                        if rt == r0 or rt == r1 or rt == r2 or rt == r3:
                            continue
                    return False
            if k == 0:
                break
            s = pts[NEXT, at(s)]
            if s == r:
                break
    return True


NAKADE_MAX_STONES = 3  # a self-atari this small inside the opponent's eye space may be a nakade


@njit(cache=True, _nrt=False)
def sets_up_snapback(pts, meta, p, c, lib):
    """Whether a lone stone of ``c`` on ``p``, left in atari on ``lib``, sets up a snapback: the
    opponent's stone that takes it on ``lib`` is itself in atari, and ``c`` retakes more.

    ``lib`` must be cramped (its one empty neighbour is ``p``) and touch the opponent, and every
    chain next to it such that the capture takes only the lone stone and gains the capturer
    nothing: no own chain there in atari (it would be taken too), no opponent chain with more
    than two liberties, or with two whose other one is not ``p``. And some opponent chain next to
    ``p`` must have two liberties (the one the throw-in puts in atari). Pachi's
    ``check_snapback`` (``tactics/selfatari.c``) asks the same questions.
    """
    w = meta[W]
    o = 3 - c
    if _free_neighbours(pts, w, lib, p, NO_POINT) > 0:
        return False
    touches_opponent = False
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        cq = pts[COLOR, at(q)]
        if cq == c:
            if in_atari(pts, pts[CHAIN, at(q)]):
                return False
        elif cq == o:
            touches_opponent = True
            n, l0, l1, _l2 = chain_liberties(pts, meta, pts[CHAIN, at(q)], 3)
            if n > 2 or (n == 2 and (l1 if l0 == lib else l0) != p):
                return False
    if not touches_opponent:
        return False
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == o and chain_liberties(pts, meta, pts[CHAIN, at(q)], 3)[0] == 2:
            return True
    return False


THROW_IN_NOT = -1  # no throw-in into a false eye: the other tests decide
THROW_IN_BAD = 0  # the opponent answers by connecting through the liberty: the stone is wasted
THROW_IN_GOOD = 1  # the liberty is closed in: the stone spoils the eye


@njit(cache=True, _nrt=False)
def false_eye_throw_in(pts, meta, p, c, lib):
    """Whether a lone stone of ``c`` on ``p``, left in atari on ``lib``, is thrown into an
    opponent's false eye: THROW_IN_GOOD, THROW_IN_BAD, or THROW_IN_NOT when it is no such move.

    ``p`` is such an eye when its other three sides are the opponent's stones or the edge and two
    of its diagonals are ``c``'s (one, if a diagonal is off the board); never a corner point. The
    throw-in is good only if ``lib`` is closed in: two of its sides at least are the opponent's
    or the edge (one of them the opponent's), and both sides of ``lib`` across the line from
    ``p`` are the opponent's or the edge. Pachi's ``check_throwin`` (``tactics/selfatari.c``)
    for a lone stone.
    """
    w = meta[W]
    o = 3 - c
    closed = 0
    edge = 0
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        closed += cq == o or cq == BORDER
        edge += cq == BORDER
    if edge >= 2 or closed != 3:
        return THROW_IN_NOT
    own_diagonals = 0
    diagonal_edge = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        cq = pts[COLOR, at(q)]
        own_diagonals += cq == c
        diagonal_edge = max(diagonal_edge, int(cq == BORDER))
    if own_diagonals + diagonal_edge < 2:
        return THROW_IN_NOT
    opponent = 0
    closing = 0
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        cq = pts[COLOR, at(q)]
        opponent += cq == o
        closing += cq == o or cq == BORDER
    if opponent == 0 or closing < 2:
        return THROW_IN_BAD
    across = 1 if abs(lib - p) == w else w  # the two sides of lib off the line from p
    for q in (lib - across, lib + across):
        cq = pts[COLOR, at(q)]
        if cq != o and cq != BORDER:
            return THROW_IN_BAD
    return THROW_IN_GOOD


@njit(cache=True, _nrt=False)
def is_bad_self_atari(pts, meta, p, c, max_stones):
    """Whether ``c`` playing ``p`` leaves a chain of more than ``max_stones`` stones in atari
    (one liberty) or with none, capturing nothing.

    Excepted, as throw-ins that kill: a chain of at most NAKADE_MAX_STONES stones whose last
    liberty touches only the opponent's stones, the edge and the chain (the chain and its liberty
    fill an eye space of the opponent; captured, it leaves a nakade shape). A lone stone (judged
    only when ``max_stones`` is 0) is also excepted when it sets up a snapback
    (``sets_up_snapback``) or is a good throw-in into a false eye, and a bad throw-in there is bad
    whatever the eye space (``false_eye_throw_in``). Pachi (``tactics/selfatari.h``), Fuego
    (``DoSelfAtariCorrection``) and michi reject such moves in their playouts.
    """
    w = meta[W]
    if _free_neighbours(pts, w, p, NO_POINT, NO_POINT) >= 2:
        return False  # two liberties at least, whatever it joins: the common case, decided cheaply
    n, lib, _l1, _l2, size, captured = liberty_points_after(pts, meta, p, c, np.int64(2))
    if n >= 2 or captured > 0 or size <= max_stones:
        return False
    if size == 1 and n == 1:
        if sets_up_snapback(pts, meta, p, c, lib):
            return False
        throw_in = false_eye_throw_in(pts, meta, p, c, lib)
        if throw_in != THROW_IN_NOT:
            return throw_in == THROW_IN_BAD
    return not (size <= NAKADE_MAX_STONES and fills_opponent_eye_space(pts, meta, p, c))


@njit(cache=True, _nrt=False)
def touches_chain_in_atari(pts, w, root, c):
    """Whether the chain ``root`` touches a chain of colour ``c`` in atari. The ladder reader
    asks it with ``c`` the opponent of ``root``'s owner (a capture next to the chain breaks the
    ladder); the capture feature with ``c`` the mover and ``root`` the chain it takes (taking it
    gives ``c``'s chain its liberties back)."""
    s = root
    while True:
        for q in (s - w, s - 1, s + 1, s + w):
            if pts[COLOR, at(q)] == c and in_atari(pts, pts[CHAIN, at(q)]):
                return True
        s = pts[NEXT, at(s)]
        if s == root:
            return False


@njit(cache=True, _nrt=False)
def ladder_captures(pts, meta, zobrist, p, c):
    """Whether the chain ``c`` makes by playing ``p`` (a move that leaves it exactly two
    liberties, the opponent to move) is caught in a ladder: the opponent ataris it again and
    again, ``c`` extends each time, and it never gets a third liberty.

    Read on the two scratch positions ``pts`` and ``meta`` carry (``board.LADDER``); the position
    itself is not changed. At each step the attacker
    tries both liberties; an atari whose stone could be captured at once, or after which the
    defender can capture a neighbouring chain in atari, fails. The first atari that leaves the
    defender two liberties again is followed (a ladder has one line); one that leaves it one
    liberty captures. MAX_LADDER_STEPS ataris without a verdict count as an escape. Simple ko
    only; ko-dependent ladders are misjudged, as in every cheap reader.
    """
    # Two scratch boards used in turn: a followed atari's board becomes the next step's, so a
    # step costs one board copy per atari tried, none to carry the line on. They are views of
    # the scratch rows (slicing the first axis keeps them C-contiguous): no allocation.
    work = pts[LADDER : LADDER + STATE_ROWS]
    trial = pts[LADDER + STATE_ROWS : LADDER + 2 * STATE_ROWS]
    wmeta = meta[NMETA : 2 * NMETA]
    tmeta = meta[2 * NMETA : 3 * NMETA]
    copy_state(pts, meta, work, wmeta)
    o = 3 - c
    w = meta[W]
    place(work, wmeta, zobrist, p, c)
    for _ in range(MAX_LADDER_STEPS):
        root = work[CHAIN, at(p)]
        n, a, b, _x = chain_liberties(work, wmeta, root, 3)
        if n >= 3:
            return False
        if n <= 1:
            return True
        followed = False
        for k in range(2):
            attack = a if k == 0 else b
            extend = b if k == 0 else a
            if _free_neighbours(work, w, extend, attack, NO_POINT) >= 3:
                continue  # extending there gives three liberties: no atari of this side works
            if not is_legal(work, wmeta, attack, o):
                continue
            if liberties_after(work, wmeta, attack, o, np.int64(2))[0] <= 1:
                continue  # the defender would capture the attacking stone (no copy needed to see it)
            copy_state(work, wmeta, trial, tmeta)
            place(trial, tmeta, zobrist, attack, o)
            root = trial[CHAIN, at(p)]
            if touches_chain_in_atari(trial, tmeta[W], root, 3 - trial[COLOR, at(root)]):
                continue
            if not is_legal(trial, tmeta, extend, c):
                return True
            place(trial, tmeta, zobrist, extend, c)
            m, _a, _b, _c = chain_liberties(trial, tmeta, trial[CHAIN, at(p)], 3)
            if m <= 1:
                return True
            if m == 2:
                work, trial = trial, work
                wmeta, tmeta = tmeta, wmeta
                followed = True
                break
        if not followed:
            return False
    return False


@njit(cache=True, _nrt=False)
def escape_works(pts, meta, zobrist, p, c, read_ladders):
    """Whether ``c`` extending on ``p`` (the liberty of its chain in atari) saves it: the chain
    then has three liberties or more, or two and (with ``read_ladders``) no ladder catches it.

    The ladder is read only when it could be one: when at least one of the two liberties, taken
    by the attacker, leaves the other with fewer than three empty neighbours (besides ``p`` and
    the taken one); otherwise the defender extends to three liberties whichever the attacker
    takes, which ends any ladder at its first step. In the open board that settles most escapes
    without copying a board."""
    n, a, b, _l2, _size, captured = liberty_points_after(pts, meta, p, c, np.int64(3))
    if n >= 3:
        return True
    if n <= 1:
        return False
    if captured > 0 or not read_ladders:
        return True
    w = meta[W]
    if _free_neighbours(pts, w, a, b, p) >= 3 and _free_neighbours(pts, w, b, a, p) >= 3:
        return True
    return not ladder_captures(pts, meta, zobrist, p, c)


@njit(cache=True, _nrt=False)
def captures_something(pts, meta, p, c):
    """Whether ``c`` playing ``p`` captures (an adjacent opponent chain has ``p`` as its last
    liberty). Returns the stones captured (a chain met twice counts twice)."""
    w = meta[W]
    o = 3 - c
    total = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == o:
            r = pts[CHAIN, at(q)]
            if in_atari(pts, r):
                total += pts[CSIZE, at(r)]
    return total


@njit(cache=True, _nrt=False)
def saves_chain_in_atari(pts, meta, zobrist, p, c, read_ladders):
    """Whether ``p`` is the liberty of a ``c`` chain in atari and extending there saves it
    (``escape_works``)."""
    w = meta[W]
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == c and in_atari(pts, pts[CHAIN, at(q)]):
            return escape_works(pts, meta, zobrist, p, c, read_ladders)
    return False


@njit(cache=True, _nrt=False)
def nakade_point(pts, meta, q, max_size):
    """The vital point of the empty region containing ``q`` when it is an eye space of at most
    ``max_size`` points (3 to 6) surrounded by stones of one colour and one of the shapes a single
    move decides: where the defender makes two eyes and the attacker leaves one. NO_POINT
    otherwise. The shapes (Fuego's playout rule has the threes; Pachi's ``tactics/nakade.c`` all):

    - straight or bent three: the middle point;
    - pyramid four: the point next to the other three;
    - crossed five: the centre; bulky five (a square and one more): the square's point next to it;
    - rabbity six (a square and two more at one of its points): that point.

    The vital point is the region's point with the most neighbours in the region, alone with
    that many; the square that a bulky five or a rabbity six holds is told by the region's
    adjacent pairs (one more than a tree's). The region is listed in the ``STACK`` row."""
    if pts[COLOR, at(q)] != EMPTY:
        return NO_POINT
    w = meta[W]
    region = pts[STACK]
    region[0] = q
    n = 1
    colours = 0
    i = 0
    while i < n:
        s = region[at(i)]
        for t in (s - w, s - 1, s + 1, s + w):
            ct = pts[COLOR, at(t)]
            if ct == EMPTY:
                listed = False
                for j in range(n):
                    if region[at(j)] == t:
                        listed = True
                        break
                if listed:
                    continue
                if n == max_size:
                    return NO_POINT  # larger than the shapes asked for
                region[at(n)] = t
                n += 1
            elif ct != BORDER:
                colours |= ct
        i += 1
    if n < 3 or colours == 3 or colours == 0:
        return NO_POINT
    # each point's neighbours in the region; the most connected point, and whether it is alone
    best = NO_POINT
    best_degree = 0
    alone = False
    pairs = 0
    for j in range(n):
        m = region[at(j)]
        degree = 0
        for k in range(n):
            d = abs(m - region[at(k)])
            if d == 1 or d == w:
                degree += 1
        pairs += degree
        if degree > best_degree:
            best, best_degree, alone = m, degree, True
        elif degree == best_degree:
            alone = False
    pairs //= 2
    if not alone:
        return NO_POINT
    if n == 3 and best_degree == 2:  # straight or bent three
        return best
    if n == 4 and best_degree == 3:  # pyramid four
        return best
    if n == 5 and (best_degree == 4 or (best_degree == 3 and pairs == 5)):  # crossed or bulky five
        return best
    if n == 6 and best_degree == 4 and pairs == 6:  # rabbity six
        return best
    return NO_POINT
