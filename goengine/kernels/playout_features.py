"""The learned playout policy's features of every candidate of a position, computed from
scratch, and the kernels that learn its weights from them: what ``goengine.playout_training``
runs over recorded games.

The features are those ``kernels.learned`` draws by (its docstring defines the model): a
candidate is a legal point that is not the mover's eye (``neighbourhood.is_eye``, a suicide and
the simple-ko point excluded), with the canonical form of its neighbourhood code read for the
mover and a packed word of the rest (``FLAG_*`` bits and the two distances). ``candidates`` is
the one reference of what the playouts weigh: the tests hold the incremental rates of
``kernels.learned`` and its draws to it.

Reading guide: ``candidates`` rates one position; ``extract_game`` replays a game and records
every chosen position's candidates and which one was played; ``loss_and_gradient`` and
``evaluate`` run over such records, as ``kernels.learn`` does for the move model.
"""

import numpy as np
from numba import njit, prange

from . import at
from .board import (
    COLOR,
    EMPTY,
    KO,
    KO_COLOR,
    LAST_MOVE,
    LAST_MOVE2,
    MOVES,
    PASS,
    SIZE,
    TO_MOVE,
    W,
    is_legal,
    new_board,
    play,
)
from .learned import MAX_DISTANCE, RESPONSE_DISTANCE, SELF_ATARI_STONES, gridcular
from .neighbourhood import chain_classes, code_of, is_escape, is_eye, is_suicide, swap_colours
from .policy import nakade_move
from .tactics import escape_works, is_bad_self_atari

# the packed word of a candidate's features
DIST_LAST_SHIFT = 0  # 3 bits: the gridcular distance to the opponent's last move, 2..6, or 0 (farther, none)
DIST_OWN_SHIFT = 3  # 3 bits: the same to the mover's own last move
FLAG_RESPONSE = 1 << 6  # right beside the last move (distance 2 or 3): the response pattern's weight
FLAG_NAKADE = 1 << 7  # the vital point of an eye space next to the last move
FLAG_SELF_ATARI = 1 << 8  # a bad self-atari (chains of two stones or more)
FLAG_FAILED_ESCAPE = 1 << 9  # an escape from atari that a ladder or a net defeats
MAX_CANDIDATES = 19 * 19
ILLEGAL = -1  # a game whose move is not legal: its index is written out
SKIPPED = -2  # a position whose move is no candidate (a pass, an eye filled): not recorded


@njit(cache=True, _nrt=False, inline="always")
def _distance(w, p, q):
    """The gridcular distance from ``p`` to ``q`` when it is at most MAX_DISTANCE, else 0."""
    if q == PASS:
        return 0
    d = gridcular(p % w - q % w, p // w - q // w)
    return d if d <= MAX_DISTANCE else 0


@njit(cache=True, _nrt=False)
def candidates(pts, meta, zobrist, canonical, classes, points, keys, words):
    """The side to move's candidates in the position: ``points[i]``, the canonical form of its
    code read for the mover ``keys[i]`` (``canonical`` is ``playout_model.canonical_codes``) and
    its packed features ``words[i]``; their number. ``classes`` is scratch (a chain's class a
    point)."""
    w = meta[W]
    size = meta[SIZE]
    c = meta[TO_MOVE]
    chain_classes(pts, meta, classes)
    last = meta[LAST_MOVE]
    own = meta[LAST_MOVE2]
    vital = nakade_move(pts, meta, c, last, np.int64(3)) if last != PASS else np.int64(PASS)
    n = 0
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            if pts[COLOR, at(p)] != EMPTY:
                continue
            code = code_of(pts, w, p, classes)
            if is_eye(code, c) or is_suicide(code, c) or (p == meta[KO] and c == meta[KO_COLOR]):
                continue
            d_last = _distance(w, p, last)
            word = d_last << DIST_LAST_SHIFT
            word |= _distance(w, p, own) << DIST_OWN_SHIFT
            if 0 < d_last <= RESPONSE_DISTANCE:
                word |= FLAG_RESPONSE
            if p == vital:
                word |= FLAG_NAKADE
            if is_bad_self_atari(pts, meta, p, c, np.float64(SELF_ATARI_STONES)):
                word |= FLAG_SELF_ATARI
            if is_escape(code, c) and not escape_works(pts, meta, zobrist, p, c, np.bool_(True)):
                word |= FLAG_FAILED_ESCAPE
            points[at(n)] = p
            keys[at(n)] = canonical[at(code if c == 1 else swap_colours(code))]
            words[at(n)] = word
            n += 1
    return n


@njit(cache=True)
def extract_game(
    size, setup_points, setup_colors, moves, colors, wanted, zobrist, canonical, keys, words, counts, played
):
    """Replay a game (its set-up stones placed, then each move checked and played) and, for each
    position k with ``wanted[k]`` whose move is a point, record its candidates' keys and words
    (appended to ``keys``, ``words``), their number ``counts[k]`` and the played move's index
    among them ``played[k]``; a position whose move is no candidate (a pass, an own eye filled)
    gets ``counts[k]`` 0 and ``played[k]`` SKIPPED. Returns the candidates recorded, or ILLEGAL
    with ``played[0]`` the index of a move that is not legal."""
    pts, meta = new_board(size)
    for k in range(setup_points.shape[0]):
        play(pts, meta, zobrist, setup_points[k], setup_colors[k])
    meta[MOVES] = 0  # the set-up is no move
    meta[LAST_MOVE] = PASS
    meta[LAST_MOVE2] = PASS
    classes = np.zeros(pts.shape[1], dtype=np.int64)
    points = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    k_keys = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    k_words = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    total = 0
    for k in range(moves.shape[0]):
        m = moves[k]
        meta[TO_MOVE] = colors[k]
        counts[k] = 0
        played[k] = SKIPPED
        if wanted[k] and m != PASS:
            n = candidates(pts, meta, zobrist, canonical, classes, points, k_keys, k_words)
            where = -1
            for i in range(n):
                if points[i] == m:
                    where = i
            if where >= 0:
                for i in range(n):
                    keys[total + i] = k_keys[i]
                    words[total + i] = k_words[i]
                total += n
                counts[k] = n
                played[k] = where
        if m != PASS and (pts[COLOR, at(m)] != EMPTY or not is_legal(pts, meta, m, colors[k])):
            played[0] = k
            return ILLEGAL
        play(pts, meta, zobrist, m, colors[k])
    return total


@njit(cache=True, _nrt=False, inline="always")
def score(cls, word, class_w, response_w, distance_w, flag_w):
    """A candidate's score under the weights (``kernels.learned``'s model)."""
    s = class_w[cls]
    if word & FLAG_RESPONSE:
        s += response_w[cls]
    d = (word >> DIST_LAST_SHIFT) & 7
    if d:
        s += distance_w[0, d]
    d = (word >> DIST_OWN_SHIFT) & 7
    if d:
        s += distance_w[1, d]
    if word & FLAG_NAKADE:
        s += flag_w[0]
    if word & FLAG_SELF_ATARI:
        s += flag_w[1]
    if word & FLAG_FAILED_ESCAPE:
        s += flag_w[2]
    return s


@njit(cache=True, parallel=True)
def loss_and_gradient(weights, n_classes, offsets, played, classes, words, n_threads, grad):
    """The negative log-likelihood of the played moves, summed over the positions (``offsets[k]``
    .. ``offsets[k + 1]`` are position k's candidates, ``played[k]`` the index of the move played
    among them), and its gradient into ``grad`` (the layout of ``weights``: the class weights,
    the response weights, the distances (2 x 7), the flags (3)). Each candidate adds its
    probability to the gradient of each weight it has, the move played one less."""
    class_w = weights[:n_classes]
    response_w = weights[n_classes : 2 * n_classes]
    distance_w = weights[2 * n_classes : 2 * n_classes + 14].reshape(2, 7)
    flag_w = weights[2 * n_classes + 14 :]
    n_pos = played.shape[0]
    losses = np.zeros(n_threads)
    grads = np.zeros((n_threads, weights.shape[0]))
    chunk = (n_pos + n_threads - 1) // n_threads
    for t in prange(n_threads):
        scores = np.zeros(MAX_CANDIDATES)
        g = grads[t]
        for k in range(t * chunk, min(n_pos, (t + 1) * chunk)):
            a = offsets[k]
            b = offsets[k + 1]
            top = -np.inf
            for j in range(a, b):
                s = score(classes[j], words[j], class_w, response_w, distance_w, flag_w)
                scores[j - a] = s
                top = max(top, s)
            total = 0.0
            for j in range(b - a):
                total += np.exp(scores[j] - top)
            chosen = played[k]
            losses[t] -= scores[chosen] - top - np.log(total)
            for j in range(a, b):
                q = np.exp(scores[j - a] - top) / total
                if j - a == chosen:
                    q -= 1.0
                word = words[j]
                cls = classes[j]
                g[cls] += q
                if word & FLAG_RESPONSE:
                    g[n_classes + cls] += q
                d = (word >> DIST_LAST_SHIFT) & 7
                if d:
                    g[2 * n_classes + d] += q
                d = (word >> DIST_OWN_SHIFT) & 7
                if d:
                    g[2 * n_classes + 7 + d] += q
                if word & FLAG_NAKADE:
                    g[2 * n_classes + 14] += q
                if word & FLAG_SELF_ATARI:
                    g[2 * n_classes + 15] += q
                if word & FLAG_FAILED_ESCAPE:
                    g[2 * n_classes + 16] += q
    for t in range(n_threads):
        for i in range(grad.shape[0]):
            grad[i] += grads[t, i]
    return losses.sum()


@njit(cache=True, parallel=True)
def evaluate(weights, n_classes, offsets, played, classes, words, n_threads, log_p, greater, equal):
    """For each position k: ``log_p[k]``, the log-probability of the move played; ``greater[k]``
    and ``equal[k]``, how many candidates score above it and how many the same (itself
    included), from which top-n hits are read with ties broken at random."""
    class_w = weights[:n_classes]
    response_w = weights[n_classes : 2 * n_classes]
    distance_w = weights[2 * n_classes : 2 * n_classes + 14].reshape(2, 7)
    flag_w = weights[2 * n_classes + 14 :]
    n_pos = played.shape[0]
    chunk = (n_pos + n_threads - 1) // n_threads
    for t in prange(n_threads):
        scores = np.zeros(MAX_CANDIDATES)
        for k in range(t * chunk, min(n_pos, (t + 1) * chunk)):
            a = offsets[k]
            b = offsets[k + 1]
            top = -np.inf
            for j in range(a, b):
                s = score(classes[j], words[j], class_w, response_w, distance_w, flag_w)
                scores[j - a] = s
                top = max(top, s)
            total = 0.0
            for j in range(b - a):
                total += np.exp(scores[j] - top)
            mine = scores[played[k]]
            log_p[k] = mine - top - np.log(total)
            g = 0
            e = 0
            for j in range(b - a):
                if scores[j] > mine:
                    g += 1
                elif scores[j] == mine:
                    e += 1
            greater[k] = g
            equal[k] = e
