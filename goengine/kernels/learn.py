"""Kernels of learning the move model from games: replaying a game, harvesting the played moves'
shapes, extracting every position's candidate features, and the model's log-likelihood with its
gradient. ``goengine.training`` drives them; ``goengine.kernels.features`` computes the features.

Reading guide: ``set_up`` starts a game (its set-up stones placed, no move played); each game
is then walked move by move (each move checked, then played); ``harvest_game``
records the played moves' canonical shape keys; ``extract_game`` records, for every position, each
legal move's code and shape and which one was played; ``loss_and_gradient`` and ``evaluate`` run
over those records.

The model (``goengine.movemodel``): a move's score is ``weights[g, value_g]`` summed over the
groups plus ``shape_scores[shape]`` (the shape's weight and all its cores'); P(move) is the
softmax of the scores over the position's legal moves. The negative log-likelihood of the moves
played is convex in the weights (a conditional logit), so plain gradient methods find its
minimum; ``goengine.training`` adds a Gaussian prior (Coulom's virtual win and loss play the same
part in his MM algorithm).
"""

import numpy as np
from numba import njit, prange

from . import at
from .board import (
    COLOR,
    EMPTY,
    KO,
    LAST_KO,
    LAST_MOVE,
    LAST_MOVE2,
    MOVES,
    NFIELDS,
    NO_POINT,
    PASS,
    PASSES,
    TO_MOVE,
    is_legal,
    new_board,
    play,
)
from .features import (
    GROUP_MASKS,
    GROUP_SHIFTS,
    MAX_CANDIDATES,
    N_GROUPS,
    canonical_keys,
    move_score,
    position_features,
)

ILLEGAL = -1  # what a kernel returns for a game whose move is not legal (the move's index is written out)


@njit(cache=True, _nrt=False)
def set_up(pts, meta, zobrist, setup_points, setup_colors):
    """Put the set-up stones on the new board ``(pts, meta)``: placed, not played, so the first
    move has no last move (DIST_LAST and DIST_LAST2 are 0) and the game no moves yet (a pass
    then is not "after a pass")."""
    for k in range(setup_points.shape[0]):
        play(pts, meta, zobrist, setup_points[k], setup_colors[k])
    meta[MOVES] = 0
    meta[PASSES] = 0
    meta[KO] = NO_POINT
    meta[LAST_KO] = NO_POINT
    meta[LAST_MOVE] = PASS
    meta[LAST_MOVE2] = PASS


@njit(cache=True)
def harvest_game(size, setup_points, setup_colors, moves, colors, zobrist, geo, keys, contents, bad):
    """Replay one game (set-up stones, then ``moves``/``colors``; PASS = -1) and, before each move
    on a point, record its canonical shape keys (``keys[k, d]``, d = 3 .. MAX_SHAPE) and the states
    around it (``contents[k]``) for the mover. Returns the positions recorded, or ILLEGAL with the
    index of the first illegal move in ``bad[0]``."""
    spiral, ring_end, zkeys, size_keys, orient = geo
    pts, meta = new_board(size)
    set_up(pts, meta, zobrist, setup_points, setup_colors)
    n = 0
    for k in range(moves.shape[0]):
        p = moves[k]
        c = colors[k]
        if p != PASS:
            if pts[COLOR, at(p)] != EMPTY or not is_legal(pts, meta, p, c):
                bad[0] = k
                return ILLEGAL
            canonical_keys(pts, meta, p, c, spiral, ring_end, zkeys, size_keys, orient, keys[n], contents[n])
            n += 1
        meta[TO_MOVE] = c
        play(pts, meta, zobrist, p, c)
    return n


@njit(cache=True)
def extract_game(
    size, setup_points, setup_colors, moves, colors, wanted, zobrist, model, codes, shapes, counts, played, bad
):
    """Replay one game and, for each position before a move ``k`` with ``wanted[k]``, write every
    legal move's code and shape id (``kernels.features.position_features``: the points, then PASS)
    to ``codes`` and ``shapes``, back to back, the candidates' count to ``counts[k]`` and the played
    move's index among them to ``played[k]`` (``counts[k]`` 0 for a position not wanted). Every
    move is checked for legality, wanted or not. Returns the candidates written, or ILLEGAL
    (``bad[0]`` the move)."""
    pts, meta = new_board(size)
    set_up(pts, meta, zobrist, setup_points, setup_colors)
    spts = np.zeros((NFIELDS, pts.shape[1]), dtype=np.int32)
    smeta = np.zeros(meta.shape[0], dtype=np.int64)
    cand_moves = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    cand_codes = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    cand_shapes = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    total = 0
    for k in range(moves.shape[0]):
        p = moves[k]
        c = colors[k]
        meta[TO_MOVE] = c
        if not wanted[k]:
            if p != PASS and (pts[COLOR, at(p)] != EMPTY or not is_legal(pts, meta, p, c)):
                bad[0] = k
                return ILLEGAL
            play(pts, meta, zobrist, p, c)
            continue
        n = position_features(pts, meta, zobrist, model, spts, smeta, cand_moves, cand_codes, cand_shapes)
        index = -1
        for j in range(n):
            if cand_moves[j] == p:
                index = j
                break
        if index < 0:
            bad[0] = k
            return ILLEGAL
        for j in range(n):
            codes[total + j] = cand_codes[j]
            shapes[total + j] = cand_shapes[j]
        counts[k] = n
        played[k] = index
        total += n
        play(pts, meta, zobrist, p, c)
    return total


@njit(cache=True, _nrt=False, inline="always")
def _position_scores(a, b, codes, shapes, weights, shape_scores, out):
    """The scores of candidates ``a .. b - 1`` into ``out[0 : b - a]``; returns the highest and the
    sum of ``exp(score - highest)`` (the softmax's normaliser, kept from overflowing)."""
    top = -np.inf
    for j in range(a, b):
        s = move_score(codes[j], shapes[j], weights, shape_scores)
        out[j - a] = s
        if s > top:
            top = s
    total = 0.0
    for j in range(b - a):
        total += np.exp(out[j] - top)
    return top, total


@njit(cache=True, parallel=True)
def loss_and_gradient(weights, shape_scores, offsets, played, codes, shapes, n_threads, grad_groups, grad_shapes):
    """The negative log-likelihood of the played moves, summed over the positions (``offsets[k]``
    to ``offsets[k + 1]`` are position k's candidates, ``played[k]`` the index of the move played
    among them), and its gradient: ``grad_groups[g, v]`` and ``grad_shapes[s]`` get, for each
    candidate having that value (or that shape as its largest), its probability, less 1 for the
    move played. The gradient of a shape's own weight is the sum over the shapes it is a core of
    (``goengine.training`` adds them up along the parents)."""
    n_pos = played.shape[0]
    losses = np.zeros(n_threads)
    gg = np.zeros((n_threads, grad_groups.shape[0], grad_groups.shape[1]))
    gs = np.zeros((n_threads, grad_shapes.shape[0]))
    chunk = (n_pos + n_threads - 1) // n_threads
    for t in prange(n_threads):
        scores = np.zeros(MAX_CANDIDATES)
        for k in range(t * chunk, min(n_pos, (t + 1) * chunk)):
            a = offsets[k]
            b = offsets[k + 1]
            top, total = _position_scores(a, b, codes, shapes, weights, shape_scores, scores)
            chosen = played[k]
            losses[t] -= scores[chosen] - top - np.log(total)
            for j in range(a, b):
                q = np.exp(scores[j - a] - top) / total
                if j - a == chosen:
                    q -= 1.0
                code = codes[j]
                for g in range(N_GROUPS):
                    gg[t, g, (code >> GROUP_SHIFTS[g]) & GROUP_MASKS[g]] += q
                gs[t, shapes[j]] += q
    for t in range(n_threads):
        for g in range(grad_groups.shape[0]):
            for v in range(grad_groups.shape[1]):
                grad_groups[g, v] += gg[t, g, v]
        for s in range(grad_shapes.shape[0]):
            grad_shapes[s] += gs[t, s]
    return losses.sum()


@njit(cache=True, parallel=True)
def evaluate(weights, shape_scores, offsets, played, codes, shapes, n_threads, log_p, greater, equal):
    """For each position k: ``log_p[k]``, the log-probability of the move played; ``greater[k]``
    and ``equal[k]``, how many candidates score above it and how many score the same (itself
    included), from which ``goengine.training`` reads top-n hits with ties broken at random."""
    n_pos = played.shape[0]
    chunk = (n_pos + n_threads - 1) // n_threads
    for t in prange(n_threads):
        scores = np.zeros(MAX_CANDIDATES)
        for k in range(t * chunk, min(n_pos, (t + 1) * chunk)):
            a = offsets[k]
            b = offsets[k + 1]
            best, total = _position_scores(a, b, codes, shapes, weights, shape_scores, scores)
            mine = scores[played[k]]
            log_p[k] = mine - best - np.log(total)
            g = 0
            e = 0
            for j in range(b - a):
                if scores[j] > mine:
                    g += 1
                elif scores[j] == mine:
                    e += 1
            greater[k] = g
            equal[k] = e


@njit(cache=True)
def chain_sums(direct, order, parents):
    """Each shape's total over the shapes whose chain holds it: ``direct[s]`` plus the totals of
    the shapes whose parent it is. ``order`` lists the shapes largest first, so a shape's total is
    complete before it is added to its parent's."""
    total = direct.copy()
    for i in order:
        parent = parents[i]
        if parent > 0:
            total[parent] += total[i]
    return total
