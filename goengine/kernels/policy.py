"""Playout policies: how a playout chooses each move, one kernel per policy, dispatched by an
integer policy id.

Reading guide: ``choose_move`` is the dispatch every playout calls; ``random_move`` is the
``uniform`` policy; ``is_playable`` is the test every policy's moves must pass. The Python
registry ``goengine.policies`` holds the names, parameters with their defaults, and sources;
a policy's parameters arrive here as a float64 array in the order of the index constants its
registry entry is built from (the selection rules' shape: ``kernels.select``).

``uniform`` is the "light" playout of libego and Pachi: every legal move that does not fill the
mover's own eye (``board.is_eye``) is equally likely; with none left the player passes. It is
the research setting: a seed gives the same playout it always gave.
"""

from numba import njit

from .board import COLOR, EMPTIES, EMPTY, EMPTY_POS, N_EMPTY, PASS, W, is_eye, is_legal
from .rng import rand_below

UNIFORM = 0
N_POLICIES = 1


@njit(cache=True, inline="always")
def is_playable(pts, meta, p, c):
    """Whether a playout may play ``c`` on the empty point ``p``: legal, and not ``c``'s eye.

    The common case comes first: a point with an empty neighbour is legal (the stone has a
    liberty) and no eye (an eye's neighbours are all stones or edge), and it is never the ko
    point (the captured stone's neighbours were all the capturer's). Only the rest pays for the
    full tests.
    """
    w = meta[W]
    if (
        pts[COLOR, p - w] == EMPTY
        or pts[COLOR, p - 1] == EMPTY
        or pts[COLOR, p + 1] == EMPTY
        or pts[COLOR, p + w] == EMPTY
    ):
        return True
    return not is_eye(pts, meta, p, c) and is_legal(pts, meta, p, c)


@njit(cache=True, inline="always")
def random_move(pts, meta, c, rng):
    """The ``uniform`` policy: a move for ``c`` drawn uniformly from the legal points that are
    not ``c``'s eyes, or PASS.

    Rejection without repetition: draw a candidate among the first ``n`` entries of the empty
    list; a rejected one is swapped to position ``n - 1`` and ``n`` shrinks, so every acceptable
    point stays equally likely and no point is tested twice. Only the order of the list changes.
    """
    n = meta[N_EMPTY]
    while n > 0:
        i = rand_below(rng, n)
        p = pts[EMPTIES, i]
        if is_playable(pts, meta, p, c):
            return p
        n -= 1
        q = pts[EMPTIES, n]
        pts[EMPTIES, i] = q
        pts[EMPTY_POS, q] = i
        pts[EMPTIES, n] = p
        pts[EMPTY_POS, p] = n
    return PASS


@njit(cache=True, inline="always")
def choose_move(policy, params, pts, meta, c, rng):
    """The move policy ``policy`` (an id above) plays for ``c`` in the position, or PASS.
    ``params``: the policy's parameters (float64, its registry's order). An unknown id plays
    uniformly."""
    return random_move(pts, meta, c, rng)
