"""Monte-Carlo tree search iterations: descend -> expand -> playout -> back up.

Reading guide: ``run_iterations`` is the loop; ``expand`` makes a node's children; ``backup``
credits the result along the path, and the AMAF statistics when the rule needs them.

One call runs a batch of iterations from the root position ``(pts0, meta0)`` on the tree
``(ti, tf, tmeta)`` (see ``kernels.tree`` for the layout and the reward perspective), so Python
crosses into numba once per batch. The kernel releases the GIL: one thread per tree (root
parallelism) runs concurrently.

Tree moves obey positional superko: a child is created only if the position it makes is neither
in the game's history (``seen``, sorted hashes) nor earlier on the path from the root. The
playouts below the tree use simple ko only. Children are the legal points that are not the
mover's own eyes (``kernels.board.is_eye``), in board order, then PASS.

AMAF ("all moves as first", Gelly and Silver 2011): after an iteration, a child ``m`` of a node
at depth ``d`` on the path gets an AMAF sample when the player to move at that node played ``m``
first, at depth ``d`` or later, anywhere in the rest of the iteration (tree part or playout).
The PASS child gets a sample from every iteration through its node: the playout ends with both
players passing.
"""

import numpy as np
from numba import njit

from .board import (
    BLACK,
    COLOR,
    EMPTY,
    HASH,
    MARK,
    MAX_POINTS,
    PASS,
    PASSES,
    SIZE,
    TO_MOVE,
    WHITE,
    W,
    hash_after,
    is_eye,
    is_legal,
    place,
    play_pass,
)
from .playout import STATE_ROWS, playout
from .select import select_best
from .tree import AVISITS, AWINS, FIRST, MOVE, NCHILD, VISITS, WINS, alloc_children

MAX_DEPTH = 3 * MAX_POINTS + 8
NOT_PLAYED = 1 << 30


@njit(cache=True)
def _in_sorted(sorted_hashes, h):
    i = np.searchsorted(sorted_hashes, h)
    return i < sorted_hashes.shape[0] and sorted_hashes[i] == h


@njit(cache=True)
def candidate_moves(pts, meta, zobrist, seen, path_hash, depth, moves):
    """Fill ``moves`` with the children a node gets: legal non-eye points for the side to move,
    superko-checked against ``seen`` and ``path_hash[:depth + 1]``, then PASS. Returns the count."""
    c = meta[TO_MOVE]
    w = meta[W]
    size = meta[SIZE]
    count = 0
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            if pts[COLOR, p] != EMPTY or is_eye(pts, meta, p, c) or not is_legal(pts, meta, p, c):
                continue
            h = hash_after(pts, meta, zobrist, p, c)
            repeat = _in_sorted(seen, h)
            for d in range(depth + 1):
                if path_hash[d] == h:
                    repeat = True
            if not repeat:
                moves[count] = p
                count += 1
    moves[count] = PASS
    return count + 1


@njit(cache=True)
def reward(score, player):
    """1 if ``player`` wins with this score (Black minus White minus komi), 1/2 for a draw, else 0."""
    if score == 0.0:
        return 0.5
    return 1.0 if (score > 0.0) == (player == BLACK) else 0.0


@njit(cache=True)
def backup(ti, tf, path, depth, root_color, score, amaf_color, amaf_depth, needs_amaf):
    """Credit one result to the nodes on ``path[:depth + 1]``, and the AMAF statistics of their
    children when ``needs_amaf``. The node at depth d was played by the root player's opponent
    when d is even (the root itself), by the root player when d is odd."""
    for d in range(depth + 1):
        node = path[d]
        mover = 3 - root_color if d % 2 == 0 else root_color
        ti[VISITS, node] += 1
        tf[WINS, node] += reward(score, mover)
        if needs_amaf and ti[NCHILD, node] > 0:
            to_move = 3 - mover  # who chooses among this node's children
            r = reward(score, to_move)
            first = ti[FIRST, node]
            for ch in range(first, first + ti[NCHILD, node]):
                m = ti[MOVE, ch]
                # every simulation ends with both players passing, so by AMAF's own definition
                # PASS was played later in every one: its AMAF mean is the node's mean. Without
                # it PASS had no AMAF sample and, under KL-UCB+RAVE, kept the whole KL bonus
                # while every other child's score was mostly its AMAF mean: it got picked early.
                if m == PASS or (amaf_color[m] == to_move and amaf_depth[m] >= d):
                    ti[AVISITS, ch] += 1
                    tf[AWINS, ch] += r


@njit(cache=True, nogil=True)
def run_iterations(
    ti, tf, tmeta, pts0, meta0, zobrist, seen, rng, n_iter, rule, params, needs_amaf, expand_at, komi, max_moves, grow
):
    """Run up to ``n_iter`` iterations from the root position; returns the number run.

    ``expand_at``: a leaf is expanded once it has been visited that many times (0: on its first
    visit); one expansion per iteration. With ``grow`` false the tree no longer expands (its node
    limit is reached) and iterations go on below the leaves. With ``grow`` true the batch stops
    early, ``tmeta[FULL]`` set, when an expansion does not fit, so the caller can enlarge the pool.
    ``komi`` is subtracted from the area score; ``max_moves`` caps a whole iteration's moves.
    """
    npts = pts0.shape[1]
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    amaf_color = np.zeros(npts, dtype=np.int8)
    amaf_depth = np.full(npts, NOT_PLAYED, dtype=np.int64)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    path_hash = np.empty(MAX_DEPTH, dtype=np.int64)
    moves = np.empty(npts + 1, dtype=np.int32)
    root_color = meta0[TO_MOVE]
    done = 0
    while done < n_iter:
        pts[:STATE_ROWS] = pts0[:STATE_ROWS]
        meta[:] = meta0
        if needs_amaf:
            amaf_color[:] = 0
            amaf_depth[:] = NOT_PLAYED
        node = 0
        depth = 0
        path[0] = 0
        path_hash[0] = meta[HASH]
        expanded = False
        stop = False
        while depth < MAX_DEPTH - 1:
            nc = ti[NCHILD, node]
            if nc == 0:
                if expanded or meta[PASSES] >= 2 or ti[VISITS, node] < expand_at:
                    break
                count = candidate_moves(pts, meta, zobrist, seen, path_hash, depth, moves)
                if not alloc_children(ti, tf, tmeta, node, moves, count):
                    if grow:
                        stop = True
                    break
                expanded = True
                nc = count
            first = ti[FIRST, node]
            child = select_best(
                rule,
                params,
                tf[WINS],
                ti[VISITS],
                np.float64(ti[VISITS, node]),
                tf[AWINS],
                ti[AVISITS],
                first,
                first + nc,
                rng,
            )
            m = ti[MOVE, child]
            c = meta[TO_MOVE]
            if m == PASS:
                play_pass(meta, c)
            else:
                if needs_amaf and amaf_color[m] == 0:
                    amaf_color[m] = c
                    amaf_depth[m] = depth
                place(pts, meta, zobrist, m, c)
            depth += 1
            path[depth] = child
            path_hash[depth] = meta[HASH]
            node = child
        if stop:
            break
        area, _ = playout(pts, meta, zobrist, rng, max_moves - depth, amaf_color, needs_amaf)
        backup(ti, tf, path, depth, root_color, area - komi, amaf_color, amaf_depth, needs_amaf)
        done += 1
    return done


@njit(cache=True)
def owner_counts(pts0, meta0, zobrist, rng, n_playouts, max_moves, counts):
    """Run ``n_playouts`` playouts and add into ``counts``, for every point, +1 when Black owns it
    at the end and -1 when White does (Tromp-Taylor area ownership: a stone, or an empty region
    touching one colour). For dead-stone judgement and ownership maps."""
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    dummy = np.zeros(1, dtype=np.int8)
    w = meta0[W]
    size = meta0[SIZE]
    for _ in range(n_playouts):
        pts[:STATE_ROWS] = pts0[:STATE_ROWS]
        meta[:] = meta0
        # judged as if play went on: at the end of a game (two passes, when final_score is asked)
        # a playout that starts with the pass count would stop at once and judge nothing dead
        meta[PASSES] = 0
        playout(pts, meta, zobrist, rng, max_moves, dummy, False)  # ends with area_score
        for r in range(1, size + 1):
            for col in range(1, size + 1):
                p = r * w + col
                cp = pts[COLOR, p]
                if cp == EMPTY:
                    cp = pts[MARK, p] & 3  # the region's owner, left by area_score
                if cp == BLACK:
                    counts[p] += 1
                elif cp == WHITE:
                    counts[p] -= 1
    return n_playouts
