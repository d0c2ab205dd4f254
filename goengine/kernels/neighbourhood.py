"""A point's 3x3 neighbourhood with the liberties of the chains beside it, as one 20-bit code:
what the learned playout policy (``kernels.learned``) and its training (``goengine.playout_training``)
know of a point's surroundings.

The code of a point ``p`` holds, for each orthogonal neighbour (N, W, E, S: ``p - w``, ``p - 1``,
``p + 1``, ``p + w``), three bits of ORTH state: 0 empty, 1 off the board, 2 to 4 a black chain
of one, two, three or more liberties, 5 to 7 a white one; and for each diagonal neighbour (NW,
NE, SW, SE) two bits of its colour as the board stores it (0 empty, 1 black, 2 white, 3 off the
board). The orthogonal fields come first (bits 0-11, N, W, E, S), then the diagonal ones (bits
12-19, NW, NE, SW, SE). It is the 3x3 pattern with the liberty counts (1, 2, 3+) of the
neighbouring chains that AlphaGo's rollout policy weighs (Silver et al. 2016, "Mastering the game
of Go with deep neural networks and tree search", its "non-response pattern") and Pachi's moggy
reads as atari bits (``pattern3.h``). From the code alone follow the capture of a chain in atari
(an opponent neighbour of one liberty: ``p`` is that liberty), an escape from atari (an own
neighbour of one), an atari (an opponent neighbour of two), whether the move is a suicide
(``is_suicide``) and whether ``p`` is the mover's eye as the playouts judge it (``is_eye``,
``board.is_eye``'s rule).

A code is in absolute colours; the classes a policy weighs are read for the mover (the policy's
table is built so: ``goengine.playout_model``), by way of ``swap_colours`` for White.

Liberties are distinct liberties counted up to three (``liberty_class``): the board's counts are
pseudo-liberties, which tell one from several (atari) but not two from three. ``chain_classes``
gives every chain its class at once; ``code_of`` reads one point's code given them.
"""

import numpy as np
from numba import njit

from . import at
from .board import BLACK, BORDER, CHAIN, COLOR, EMPTY, NEXT, SIZE, WHITE, W
from .tactics import chain_liberties

N_CODES = 1 << 20
ORTH_EMPTY = 0
ORTH_BORDER = 1
ORTH_BLACK = 2  # a black chain of one liberty; +1 two, +2 three or more; white 3 higher
ORTH_WHITE = 5
ORTH_BITS = 3
DIAG_SHIFT = 12  # the first diagonal field's bit
NEIGHBOURS = ("N", "W", "E", "S", "NW", "NE", "SW", "SE")  # the fields, in the code's order


@njit(cache=True, _nrt=False, inline="always")
def orth_state(color, lib_class):
    """The ORTH state of a neighbour of ``color`` (EMPTY, BORDER, BLACK or WHITE) whose chain has
    ``lib_class`` liberties (1, 2 or 3 for three or more; read only for a stone)."""
    if color == EMPTY:
        return ORTH_EMPTY
    if color == BORDER:
        return ORTH_BORDER
    return (ORTH_BLACK if color == BLACK else ORTH_WHITE) + lib_class - 1


@njit(cache=True, _nrt=False)
def liberty_class(pts, meta, root):
    """The chain's distinct liberties counted up to three: 1, 2 or 3 (three or more)."""
    # the root as the board stores it and a literal limit, as every other caller passes them:
    # one compiled overload
    return np.int64(chain_liberties(pts, meta, pts[CHAIN, at(root)], 3)[0])


@njit(cache=True, _nrt=False)
def chain_classes(pts, meta, classes):
    """Write every chain's ``liberty_class`` at its root: ``classes[root]``."""
    w = meta[W]
    size = meta[SIZE]
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            cp = pts[COLOR, at(p)]
            if (cp == BLACK or cp == WHITE) and pts[CHAIN, at(p)] == p:
                classes[at(p)] = liberty_class(pts, meta, p)


@njit(cache=True, _nrt=False, inline="always")
def _orth_field(pts, classes, q):
    cq = pts[COLOR, at(q)]
    if cq == BLACK or cq == WHITE:
        return orth_state(cq, classes[at(pts[CHAIN, at(q)])])
    return orth_state(cq, 1)


@njit(cache=True, _nrt=False)
def code_of(pts, w, p, classes):
    """The code of the point ``p`` (module docstring), the neighbours' chains' classes read from
    ``classes`` (``chain_classes``)."""
    col = pts[COLOR]
    return (
        _orth_field(pts, classes, p - w)
        | (_orth_field(pts, classes, p - 1) << 3)
        | (_orth_field(pts, classes, p + 1) << 6)
        | (_orth_field(pts, classes, p + w) << 9)
        | (col[at(p - w - 1)] << 12)
        | (col[at(p - w + 1)] << 14)
        | (col[at(p + w - 1)] << 16)
        | (col[at(p + w + 1)] << 18)
    )


@njit(cache=True, _nrt=False, inline="always")
def orth_field(code, k):
    """The ORTH state of orthogonal neighbour ``k`` (0 N, 1 W, 2 E, 3 S) in ``code``."""
    return (code >> (3 * k)) & 7


@njit(cache=True, _nrt=False, inline="always")
def diag_field(code, k):
    """The colour of diagonal neighbour ``k`` (0 NW, 1 NE, 2 SW, 3 SE) in ``code``."""
    return (code >> (DIAG_SHIFT + 2 * k)) & 3


@njit(cache=True, _nrt=False)
def is_eye(code, c):
    """Whether the point is ``c``'s eye by the playouts' rule (``board.is_eye``): every
    orthogonal neighbour ``c``'s or off the board, and fewer than two opponent diagonals, an
    off-board diagonal counting as one."""
    own = ORTH_BLACK if c == BLACK else ORTH_WHITE
    for k in range(4):
        f = orth_field(code, k)
        if f != ORTH_BORDER and not own <= f < own + 3:
            return False
    o = 3 - c
    bad = 0
    edge = 0
    for k in range(4):
        d = diag_field(code, k)
        if d == o:
            bad += 1
        elif d == BORDER:
            edge = 1
    return bad + edge < 2


@njit(cache=True, _nrt=False)
def is_suicide(code, c):
    """Whether ``c`` playing the point would be suicide: no empty neighbour, no own chain of two
    liberties or more beside it, and no opponent chain in atari to take."""
    own = ORTH_BLACK if c == BLACK else ORTH_WHITE
    opp = ORTH_WHITE if c == BLACK else ORTH_BLACK
    for k in range(4):
        f = orth_field(code, k)
        if f == ORTH_EMPTY or (own < f < own + 3) or f == opp:
            return False
    return True


@njit(cache=True, _nrt=False)
def is_escape(code, c):
    """Whether the point is the liberty of an own chain in atari beside it (extending there is an
    escape)."""
    own = ORTH_BLACK if c == BLACK else ORTH_WHITE
    return (
        orth_field(code, 0) == own
        or orth_field(code, 1) == own
        or orth_field(code, 2) == own
        or orth_field(code, 3) == own
    )


@njit(cache=True, _nrt=False)
def swap_colours(code):
    """The code with Black and White exchanged: White's neighbourhood read as Black's."""
    out = 0
    for k in range(4):
        f = orth_field(code, k)
        if f >= ORTH_WHITE:
            f -= 3
        elif f >= ORTH_BLACK:
            f += 3
        out |= f << (3 * k)
    for k in range(4):
        d = diag_field(code, k)
        if d == BLACK or d == WHITE:
            d = 3 - d
        out |= d << (DIAG_SHIFT + 2 * k)
    return out


@njit(cache=True, _nrt=False)
def chain_touches_liberty(pts, w, root, p):
    """Whether ``p`` is a liberty of the chain ``root`` (empty, beside one of its stones)."""
    if pts[COLOR, at(p)] != EMPTY:
        return False
    s = root
    while True:
        if s - w == p or s - 1 == p or s + 1 == p or s + w == p:
            return True
        s = pts[NEXT, at(s)]
        if s == root:
            return False


@njit(cache=True, _nrt=False)
def forbidden_table(out):
    """``out[code]``: whether the code is Black's eye or a suicide for Black (the playouts'
    never-played points), for every code."""
    for code in range(N_CODES):
        out[at(code)] = is_eye(code, BLACK) or is_suicide(code, BLACK)


@njit(cache=True, _nrt=False)
def swap_table(out):
    """``out[code]``: ``swap_colours(code)``, for every code."""
    for code in range(N_CODES):
        out[at(code)] = swap_colours(code)
