"""Uniformly random playouts, and the batch runner the benchmark and the search use.

Reading guide: ``random_move`` is the policy, ``playout`` the loop, ``run_playouts`` the batch.

The policy is the "light" playout of libego and Pachi: every legal move that does not fill the
mover's own eye (``board.is_eye``) is equally likely; with none left the player passes. The game
ends at two consecutive passes or after ``max_moves`` moves, and is scored by area
(``board.area_score``, Black minus White, no komi). Playouts obey simple ko only, as Fuego's
playout board does; positional superko is checked for the game and the tree's moves.
"""

import numpy as np
from numba import njit

from .board import (
    COLOR,
    EMPTIES,
    EMPTY,
    EMPTY_POS,
    N_EMPTY,
    PASS,
    PASSES,
    TO_MOVE,
    W,
    area_score,
    is_eye,
    is_legal,
    place,
    play_pass,
)
from .rng import rand_below

# pts rows a playout must copy to start from a position (the scratch rows need not be copied)
STATE_ROWS = EMPTY_POS + 1


@njit(cache=True, inline="always")
def is_playable(pts, meta, p, c):
    """Whether the random policy may play ``c`` on the empty point ``p``: legal, and not an eye.

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
    """A move for ``c`` drawn uniformly from the legal points that are not ``c``'s eyes, or PASS.

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


@njit(cache=True)
def playout(pts, meta, zobrist, rng, max_moves, amaf, record_amaf):
    """Play random moves from the position (``meta[TO_MOVE]`` to move) to the end.

    Stops at two consecutive passes (counting passes already in ``meta``) or after ``max_moves``
    moves. With ``record_amaf``, ``amaf[p]`` receives the colour that played first on ``p``
    where it is still 0 (for RAVE: "all moves as first"). Returns ``(area score, moves played)``.
    """
    moves = 0
    while meta[PASSES] < 2 and moves < max_moves:
        c = meta[TO_MOVE]
        p = random_move(pts, meta, c, rng)
        if p == PASS:
            play_pass(meta, c)
        else:
            if record_amaf and amaf[p] == 0:
                amaf[p] = c
            place(pts, meta, zobrist, p, c)
        moves += 1
    return area_score(pts, meta), moves


@njit(cache=True)
def run_playouts(pts0, meta0, zobrist, rng, n_playouts, max_moves, scores):
    """Run ``n_playouts`` playouts from ``(pts0, meta0)``, leaving it unchanged.

    ``scores[i]`` receives playout i's area score. Allocates two work arrays once, never inside
    the loop. Returns the total number of moves played.
    """
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    amaf = np.zeros(pts0.shape[1], dtype=np.int8)
    total_moves = 0
    for k in range(n_playouts):
        pts[:STATE_ROWS] = pts0[:STATE_ROWS]
        meta[:] = meta0
        score, moves = playout(pts, meta, zobrist, rng, max_moves, amaf, False)
        scores[k] = score
        total_moves += moves
    return total_moves
