"""Simulation balancing's kernels: the learned playout policy's playouts from a position, with the
gradient of their mean outcome in the policy's weights.

Silver and Tesauro (2009, "Monte-Carlo Simulation Balancing", ICML; its policy-gradient form)
balance a softmax playout policy pi_theta so that the mean outcome of its playouts from a
position matches the position's true value, not so that its moves match strong players': with
``V(s) = E[z]`` the playouts' mean outcome from ``s`` (``z`` 1 when Black wins, 0 otherwise),

    grad V(s) = E[ z * sum_t psi(s_t, a_t) ],   psi(s, a) = phi(s, a) - sum_b pi(b | s) phi(s, b),

the sum over every move of the playout (both players draw from the same policy), ``phi`` the
move's features; and the update is ``theta += alpha * (V*(s) - V(s)) * grad V(s)``, ``V*`` the
position's value found by a deep search. Huang, Coulom and Lin (2010, "Monte-Carlo Simulation
Balancing in Practice", Computers and Games) applied it to Erica's playouts on 9x9; as they do,
``V`` and the gradient come from separate playouts, and ``z - V`` replaces ``z`` in the gradient
(the same expectation, since ``E[psi] = 0``, with less variance).

The policy's distribution at each move is the one ``kernels.learned.draw`` draws from: the rates
after the last moves' features, each kept with its acceptance (the self-atari and failed-escape
flags, ``learned.draw``'s rejections). Reading that exactly asks the two tactical tests of every
candidate at every move: costly, and done only here, offline.

The weights' layout (``grad``) is ``kernels.playout_features``': the class weights, the response
weights, the distances (2 x 7), the flags (nakade, self-atari, failed escape).
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    KO,
    KO_COLOR,
    LAST_MOVE,
    LAST_MOVE2,
    PASS,
    PASSES,
    SIZE,
    TO_MOVE,
    W,
    area_score,
    copy_state,
    play_pass,
)
from .learned import (
    RESPONSE_DISTANCE,
    SELF_ATARI_STONES,
    _class,
    _restore,
    draw,
    gridcular,
    play,
    start,
    weigh_near,
)
from .neighbourhood import is_escape
from .policy import nakade_move
from .tactics import escape_works, is_bad_self_atari


@njit(cache=True, _nrt=False, inline="always")
def _distance(w, p, q):
    if q == PASS:
        return 0
    d = gridcular(p % w - q % w, p // w - q // w)
    return d if d <= 6 else 0


@njit(cache=True, _nrt=False)
def _add_features(psi, n_classes, cls, d_last, d_own, nakade, self_atari, failed_escape, weight):
    """Add ``weight`` times the features of one candidate to ``psi``."""
    psi[at(cls)] += weight
    if 0 < d_last <= RESPONSE_DISTANCE:
        psi[at(n_classes + cls)] += weight
    if d_last:
        psi[at(2 * n_classes + d_last)] += weight
    if d_own:
        psi[at(2 * n_classes + 7 + d_own)] += weight
    if nakade:
        psi[at(2 * n_classes + 14)] += weight
    if self_atari:
        psi[at(2 * n_classes + 15)] += weight
    if failed_escape:
        psi[at(2 * n_classes + 16)] += weight


@njit(cache=True, _nrt=False)
def _step_psi(pts, meta, zobrist, model, state, c, chosen, n_classes, psi, scratch):
    """Add psi(s, a) of the move ``chosen`` to ``psi``: its features less the policy's expected
    features, the distribution read as ``learned.draw`` draws (its rates are applied now).
    ``scratch``: ``(mass, flags)``, a float and an int a point."""
    w = meta[W]
    size = meta[SIZE]
    k = c - 1
    rates, codes = state[2], state[0]
    scalars = model[4]
    mass, flags = scratch
    last = meta[LAST_MOVE]
    own = meta[LAST_MOVE2]
    vital = nakade_move(pts, meta, c, last, np.int64(3)) if last != PASS else np.int64(PASS)
    total = 0.0
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            rate = rates[k, at(p)]
            mass[at(p)] = 0.0
            if rate == 0 or (p == meta[KO] and c == meta[KO_COLOR]):
                continue
            self_atari = is_bad_self_atari(pts, meta, p, c, np.float64(SELF_ATARI_STONES))
            failed = is_escape(codes[at(p)], c) and not escape_works(pts, meta, zobrist, p, c, np.bool_(True))
            keep = 1.0
            if self_atari:
                keep *= scalars[1]
            if failed:
                keep *= scalars[2]
            mass[at(p)] = np.float64(rate) * keep
            flags[at(p)] = (1 if self_atari else 0) | (2 if failed else 0)
            total += mass[at(p)]
    if total <= 0.0:
        return
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            if mass[at(p)] == 0.0 and p != chosen:
                continue
            d_last = _distance(w, p, last)
            d_own = _distance(w, p, own)
            cls = _class(model, codes[at(p)], c)
            f = flags[at(p)]
            weight = -mass[at(p)] / total + (1.0 if p == chosen else 0.0)
            _add_features(psi, n_classes, cls, d_last, d_own, p == vital, f & 1, f & 2, weight)


@njit(cache=True, _nrt=False)
def _draw_with_psi(pts, meta, zobrist, model, state, c, rng, n_classes, psi, scratch):
    """``learned.draw``, with psi(s, a) of the move drawn added to ``psi``."""
    w = meta[W]
    chosen = draw(pts, meta, zobrist, model, state, c, rng)
    if chosen == PASS:
        return chosen
    weigh_near(pts, meta, model, state, c)  # the rates as the draw weighed them, again
    _step_psi(pts, meta, zobrist, model, state, c, chosen, n_classes, psi, scratch)
    _restore(state, w, c)
    return chosen


@njit(cache=True, _nrt=False)
def _playout(pts, meta, zobrist, model, state, rng, max_moves, n_classes, psi, scratch, with_psi):
    """One playout of the learned policy to its end (two passes or ``max_moves``); its area
    score. With ``with_psi``, the psi of every move is added to ``psi``."""
    start(pts, meta, model, state)
    moves = 0
    while meta[PASSES] < 2 and moves < max_moves:
        c = meta[TO_MOVE]
        if with_psi:
            p = _draw_with_psi(pts, meta, zobrist, model, state, c, rng, n_classes, psi, scratch)
        else:
            p = draw(pts, meta, zobrist, model, state, c, rng)
        if p == PASS:
            play_pass(meta, c)
        else:
            play(pts, meta, zobrist, model, state, p, c)
        moves += 1
    return area_score(pts, meta)


@njit(cache=True)
def value_and_gradient(pts0, meta0, zobrist, model, state, rng, komi, n_value, n_grad, max_moves, n_classes, grad):
    """From the position ``(pts0, meta0)``: the mean outcome for Black of ``n_value`` playouts of
    the learned policy (``model``), and, added into ``grad``, the mean over ``n_grad`` more
    playouts of ``(z - V) * sum_t psi_t`` (module docstring). Returns V."""
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    scratch = (np.zeros(pts0.shape[1]), np.zeros(pts0.shape[1], dtype=np.int64))
    value = values(pts0, meta0, zobrist, model, state, rng, komi, n_value, max_moves)
    psi = np.zeros(grad.shape[0])
    for _ in range(n_grad):
        copy_state(pts0, meta0, pts, meta)
        psi[:] = 0.0
        score = _playout(pts, meta, zobrist, model, state, rng, max_moves, n_classes, psi, scratch, True)
        z = 1.0 if score > komi else (0.5 if score == komi else 0.0)
        grad += (z - value) * psi / n_grad
    return value


@njit(cache=True)
def values(pts0, meta0, zobrist, model, state, rng, komi, n, max_moves):
    """The mean outcome for Black of ``n`` playouts of the learned policy from the position."""
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    psi = np.zeros(1)
    scratch = (np.zeros(1), np.zeros(1, dtype=np.int64))
    wins = 0.0
    for _ in range(n):
        copy_state(pts0, meta0, pts, meta)
        score = _playout(pts, meta, zobrist, model, state, rng, max_moves, np.int64(0), psi, scratch, False)
        wins += 1.0 if score > komi else (0.5 if score == komi else 0.0)
    return wins / max(1, n)
