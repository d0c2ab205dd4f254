"""The ``learned`` playout policy: each move drawn from a softmax over cheap local features whose
weights were learned from strong games, the weights kept up to date as stones come and go.

The model (``goengine.playout_model`` holds its weights, ``goengine.playout_training`` learns
them): a legal point ``x`` that is not the mover's eye has the score

    s(x) = class[k] + near(x) + nakade[x] + self_atari[x] + failed_escape[x]

where ``k`` is the class of ``x``'s neighbourhood code read for the mover (``kernels.neighbourhood``:
the 3x3 pattern with its neighbour chains' liberties, the same under rotation and reflection),
``near(x)`` adds, within gridcular distance 6 of the opponent's last move, a weight of the
distance (2 to 6) and, right beside it (2 or 3), a second weight of the class (the "response"
pattern); within distance 6 of the mover's own last move, a weight of that distance; a flag
weight for the vital point of an eye space next to the last move (``policy.nakade_move``), one
for a bad self-atari (``tactics.is_bad_self_atari``, chains of two stones or more) and one for an
escape from atari that a ladder or a net defeats (``tactics.escape_works``). The move is drawn
with probability exp(s(x)) / sum over the candidates (Coulom 2007, "Computing Elo Ratings of Move
Patterns in the Game of Go"; the same form as AlphaGo's rollout policy, Silver et al. 2016).

How a draw costs far less than a pass over the board (Ray's rating playouts, Kobayashi; Crazy
Stone and Erica drew theirs so too):

- every empty point keeps its code and, for each colour, its rate exp(class weight) scaled to an
  integer (``rates``), with a sum a row (``rows``) and in all (``totals``); integers, so that
  sums kept by adding and subtracting never drift;
- after a move only the points whose code changed are rated again (``_after_move``): the eight
  neighbours of every point that changed colour (the stone played, the stones captured) and the
  liberties of every chain whose liberty count (1, 2, 3+) may have changed;
- the features of the last moves change every move and touch few points: their rates are
  multiplied for the one draw and put back after it (``_draw``);
- the draw walks the rows' sums, then one row (about 2 x size steps); an illegal point (the ko)
  is set aside, and the two flags whose weights are negative and which need reading (self-atari,
  failed escape) are applied by rejection: the drawn point is kept with probability exp(weight)
  and otherwise the draw is made again, which draws from exactly the model's distribution.

Reading guide: ``playout`` is the loop; ``start`` rates a position from scratch; ``play``
places a stone and rates again what it changed; ``_draw`` is one move's draw.
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    CHAIN,
    COLOR,
    EMPTY,
    KO,
    KO_COLOR,
    LAST_MOVE,
    LAST_MOVE2,
    NEXT,
    PASS,
    PASSES,
    SIZE,
    TO_MOVE,
    W,
    area_score,
    in_atari,
    place,
    play_pass,
)
from .neighbourhood import chain_classes, code_of, is_escape, liberty_class
from .policy import nakade_move
from .rng import rand_float
from .tactics import atari_liberty, escape_works, is_bad_self_atari

# the model's scalars (``goengine.playout_model``): multipliers and acceptance probabilities
NAKADE = 0  # exp(the vital point's weight)
SELF_ATARI = 1  # exp(the bad self-atari's weight), at most 1: the chance a drawn one is kept
FAILED_ESCAPE = 2  # exp(the failed escape's weight), at most 1
N_SCALARS = 3
MAX_DISTANCE = 6  # the last moves' features reach this gridcular distance
RESPONSE_DISTANCE = 3  # ... and the response pattern's this one (the eight neighbours)
SELF_ATARI_STONES = 1  # a self-atari of chains larger than this is bad (the heavy policy's default)
MAX_RATE = 1 << 44  # a rate's cap once multiplied: 361 of them stay below 2**53, exact in a float draw
MAX_REJECTIONS = 16  # draws rejected in one move before a rejected point is set aside for good
NEAR_POINTS = 64  # points the last moves' features change in one draw: two neighbourhoods of 28, the vital point


@njit(cache=True)
def new_state(npts, width):
    """The policy's scratch for a board of ``npts`` padded points and ``width`` columns: codes,
    chain classes, rates (two colours), row sums, totals, marks, and the lists one move uses."""
    return (
        np.zeros(npts, dtype=np.int64),  # codes
        np.zeros(npts, dtype=np.int64),  # classes, at chain roots
        np.zeros((2, npts), dtype=np.int64),  # rates
        np.zeros((2, width), dtype=np.int64),  # row sums
        np.zeros(2, dtype=np.int64),  # totals
        np.zeros(npts, dtype=np.int64),  # marks (a stamp)
        np.zeros(npts, dtype=np.int64),  # a list: points to rate again
        np.zeros(npts, dtype=np.int64),  # a list: stones captured
        np.zeros(npts, dtype=np.int64),  # a list: chains whose class may change
        np.zeros(npts, dtype=np.int64),  # a point's entry among the draw's changed rates
        np.zeros((3, npts + NEAR_POINTS), dtype=np.int64),  # the draw's changed rates: point, old, new
        np.zeros(2, dtype=np.int64),  # the stamp's counter, the number of changed rates
        np.zeros(npts + NEAR_POINTS, dtype=np.float64),  # the draw's multipliers
        np.arange(npts, dtype=np.int64) // width,  # each point's row (a division saved at every change)
    )


@njit(cache=True, _nrt=False, inline="always")
def _class(model, code, c):
    """The class of ``code`` for the mover ``c`` (the model's table has a row a colour)."""
    return model[0][c - 1, at(code)]


@njit(cache=True, _nrt=False, inline="always")
def _set_rate(state, k, p, w, value):
    """Colour row ``k``'s rate of ``p`` becomes ``value``, its row sum and total following."""
    rates, rows, totals = state[2], state[3], state[4]
    old = rates[k, at(p)]
    if old != value:
        rates[k, at(p)] = value
        rows[k, at(state[13][at(p)])] += value - old
        totals[k] += value - old


@njit(cache=True, _nrt=False)
def _rate_point(pts, w, model, state, p):
    """Rate the point ``p`` again for both colours: its code and class rates when empty (read
    from the tables only when its code changed), nothing when a stone is there. A stone's code
    is -1, so that the point's first code once it is empty again is always read."""
    codes, classes = state[0], state[1]
    rate_of = model[1]
    if pts[COLOR, at(p)] != EMPTY:
        codes[at(p)] = -1
        _set_rate(state, 0, p, w, np.int64(0))
        _set_rate(state, 1, p, w, np.int64(0))
        return
    code = code_of(pts, w, p, classes)
    if code == codes[at(p)]:
        return
    codes[at(p)] = code
    _set_rate(state, 0, p, w, rate_of[at(_class(model, code, 1))])
    _set_rate(state, 1, p, w, rate_of[at(_class(model, code, 2))])


@njit(cache=True, _nrt=False)
def start(pts, meta, model, state):
    """Rate the position from scratch: every chain's class, every point's code and rates."""
    rates, rows, totals = state[2], state[3], state[4]
    w = meta[W]
    size = meta[SIZE]
    chain_classes(pts, meta, state[1])
    for k in range(2):
        totals[k] = 0
        for r in range(rows.shape[1]):
            rows[k, r] = 0
    codes = state[0]
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            rates[0, at(p)] = 0
            rates[1, at(p)] = 0
            codes[at(p)] = -2  # no code: read afresh
            _rate_point(pts, w, model, state, p)


@njit(cache=True, _nrt=False, inline="always")
def _next_stamp(state):
    counters = state[11]
    counters[0] += 1
    return counters[0]


@njit(cache=True, _nrt=False, inline="always")
def _add(listing, n, marks, stamp, p):
    """Append ``p`` to ``listing[:n]`` unless marked with ``stamp``; the new length."""
    if marks[at(p)] == stamp:
        return n
    marks[at(p)] = stamp
    listing[at(n)] = p
    return n + 1


@njit(cache=True, _nrt=False)
def play(pts, meta, zobrist, model, state, p, c):
    """Place ``c``'s stone on ``p`` (a legal point) and rate again every point whose code that
    changes. Returns the stones captured."""
    classes, marks = state[1], state[5]
    dirty, gone, roots = state[6], state[7], state[8]
    w = meta[W]
    o = 3 - c
    # before the stone goes down: the opponent chains it will capture (their one liberty is p),
    # and the chains beside p, whose liberties change
    stamp = _next_stamp(state)
    n_gone = 0
    n_roots = 0
    for q in (p - w, p - 1, p + 1, p + w):
        cq = pts[COLOR, at(q)]
        if cq == o and in_atari(pts, pts[CHAIN, at(q)]) and atari_liberty(pts, pts[CHAIN, at(q)]) == p:
            root = pts[CHAIN, at(q)]
            if marks[at(root)] != stamp:
                marks[at(root)] = stamp
                s = root
                while True:
                    gone[at(n_gone)] = s
                    n_gone += 1
                    s = pts[NEXT, at(s)]
                    if s == root:
                        break
        elif cq == o:
            n_roots = _add(roots, n_roots, marks, stamp, pts[CHAIN, at(q)])
    captured = place(pts, meta, zobrist, p, c)
    # the chains whose liberties changed: ours at p (merged), the opponent's beside p, ours
    # beside the captured stones (they gained them)
    stamp = _next_stamp(state)
    for i in range(n_roots):
        marks[at(roots[i])] = stamp  # (re-marked under the new stamp)
    n_roots = _add(roots, n_roots, marks, stamp, pts[CHAIN, at(p)])
    for i in range(n_gone):
        s = gone[i]
        for q in (s - w, s - 1, s + 1, s + w):
            if pts[COLOR, at(q)] == c:
                n_roots = _add(roots, n_roots, marks, stamp, pts[CHAIN, at(q)])
    # the points to rate again: around every point that changed colour, and every liberty of a
    # chain whose class is read again
    stamp = _next_stamp(state)
    n_dirty = 0
    for i in range(n_gone + 1):
        s = p if i == n_gone else gone[i]
        for q in (s, s - w - 1, s - w, s - w + 1, s - 1, s + 1, s + w - 1, s + w, s + w + 1):
            if pts[COLOR, at(q)] != 3:  # not off the board
                n_dirty = _add(dirty, n_dirty, marks, stamp, q)
    merged = pts[CHAIN, at(p)]
    for i in range(n_roots):
        root = roots[i]
        lib_class = liberty_class(pts, meta, root)
        if lib_class == classes[at(root)] and root != merged:
            continue  # its liberties read the same class as before (the merged chain's may not)
        classes[at(root)] = lib_class
        s = root
        while True:
            for q in (s - w, s - 1, s + 1, s + w):
                if pts[COLOR, at(q)] == EMPTY:
                    n_dirty = _add(dirty, n_dirty, marks, stamp, q)
            s = pts[NEXT, at(s)]
            if s == root:
                break
    for i in range(n_dirty):
        _rate_point(pts, w, model, state, dirty[i])
    return captured


@njit(cache=True, _nrt=False)
def gridcular(dx, dy):
    """Coulom's distance of an offset: ``|dx| + |dy| + max(|dx|, |dy|)``."""
    ax = abs(dx)
    ay = abs(dy)
    return ax + ay + max(ax, ay)


@njit(cache=True, _nrt=False)
def _scale(state, pts, w, model, c, p, factor):
    """Multiply ``c``'s rate of the empty point ``p`` by ``factor`` for this draw (the changes are
    gathered once a point, then applied by ``_apply``)."""
    rates, marks, slot, temp, counters, mults = state[2], state[5], state[9], state[10], state[11], state[12]
    k = c - 1
    if rates[k, at(p)] == 0:
        return
    stamp = counters[0]
    if marks[at(p)] != stamp:
        n = counters[1]
        marks[at(p)] = stamp
        slot[at(p)] = n
        temp[0, n] = p
        temp[1, n] = rates[k, at(p)]
        mults[n] = 1.0
        counters[1] = n + 1
    mults[at(slot[at(p)])] *= factor


@njit(cache=True, _nrt=False)
def _near(pts, meta, model, state, c, centre, table):
    """The distance weights of ``table`` (0: the last move's, with the response pattern; 1: the
    mover's own last move's) around ``centre``."""
    w = meta[W]
    size = meta[SIZE]
    distances, response = model[3], model[2]
    codes = state[0]
    r0 = state[13][at(centre)]
    c0 = centre - r0 * w
    for dy in range(-3, 4):
        r = r0 + dy
        if r < 1 or r > size:
            continue
        reach = 3 if dy == 0 else (0 if abs(dy) == 3 else 2)  # the offsets of gridcular distance 6 or less
        for dx in range(-reach, reach + 1):
            col = c0 + dx
            if col < 1 or col > size or (dx == 0 and dy == 0):
                continue
            d = gridcular(dx, dy)
            p = r * w + col
            if pts[COLOR, at(p)] != EMPTY:
                continue
            factor = distances[table, d]
            if table == 0 and d <= RESPONSE_DISTANCE:
                factor *= response[at(_class(model, codes[at(p)], c))]
            _scale(state, pts, w, model, c, p, factor)


@njit(cache=True, _nrt=False)
def _apply(state, w, c):
    """Set the draw's multiplied rates."""
    temp, counters, mults = state[10], state[11], state[12]
    for i in range(counters[1]):
        value = np.int64(min(max(1.0, np.round(np.float64(temp[1, i]) * mults[i])), np.float64(MAX_RATE)))
        if mults[i] == 0.0:
            value = np.int64(0)
        temp[2, i] = value
        _set_rate(state, c - 1, temp[0, i], w, value)


@njit(cache=True, _nrt=False)
def _restore(state, w, c):
    """Put back the rates the draw changed."""
    temp, counters = state[10], state[11]
    for i in range(counters[1]):
        _set_rate(state, c - 1, temp[0, i], w, temp[1, i])
    counters[1] = 0


@njit(cache=True, _nrt=False)
def _pick(state, w, k, rng):
    """A point drawn with probability rate / total from colour row ``k`` (the total above 0)."""
    rates, rows, totals = state[2], state[3], state[4]
    u = np.int64(rand_float(rng) * np.float64(totals[k]))
    if u >= totals[k]:
        u = totals[k] - 1
    r = 0
    while u >= rows[k, r]:
        u -= rows[k, r]
        r += 1
    p = r * w
    while u >= rates[k, at(p)]:
        u -= rates[k, at(p)]
        p += 1
    return np.int64(p)


@njit(cache=True, _nrt=False)
def _set_aside(state, w, c, p):
    """Take ``p`` out of this draw: its rate 0 until ``_restore``."""
    rates, marks, slot, temp, counters, mults = state[2], state[5], state[9], state[10], state[11], state[12]
    k = c - 1
    if marks[at(p)] == counters[0]:
        i = slot[at(p)]
        mults[i] = 0.0
        temp[2, i] = 0
        _set_rate(state, k, p, w, np.int64(0))
        return
    n = counters[1]  # the list holds every point of the board and the last moves' neighbourhoods
    marks[at(p)] = counters[0]
    slot[at(p)] = n
    temp[0, n] = p
    temp[1, n] = rates[k, at(p)]
    temp[2, n] = 0
    mults[n] = 0.0
    counters[1] = n + 1
    _set_rate(state, k, p, w, np.int64(0))


@njit(cache=True, _nrt=False)
def weigh_near(pts, meta, model, state, c):
    """Set ``c``'s rates as this draw weighs them: the distance weights around the last two
    moves (the response pattern's beside the last one) and the vital point's, until
    ``_restore``."""
    w = meta[W]
    _next_stamp(state)
    state[11][1] = 0
    last = meta[LAST_MOVE]
    if last != PASS:
        _near(pts, meta, model, state, c, last, np.int64(0))
        vital = nakade_move(pts, meta, c, last, np.int64(3))
        if vital != PASS:
            _scale(state, pts, w, model, c, vital, model[4][NAKADE])
    own_last = meta[LAST_MOVE2]
    if own_last != PASS:
        _near(pts, meta, model, state, c, own_last, np.int64(1))
    _apply(state, w, c)


@njit(cache=True, _nrt=False)
def draw(pts, meta, zobrist, model, state, c, rng):
    """The policy's move for ``c``, the side to move, or PASS when no point is left."""
    w = meta[W]
    k = c - 1
    scalars = model[4]
    weigh_near(pts, meta, model, state, c)
    codes, totals = state[0], state[4]
    rejected = 0
    chosen = np.int64(PASS)
    while totals[k] > 0:
        p = _pick(state, w, k, rng)
        if p == meta[KO] and c == meta[KO_COLOR]:
            _set_aside(state, w, c, p)
            continue
        keep = 1.0
        if scalars[SELF_ATARI] < 1.0 and is_bad_self_atari(pts, meta, p, c, np.float64(SELF_ATARI_STONES)):
            keep = scalars[SELF_ATARI]
        escape = scalars[FAILED_ESCAPE] < 1.0 and is_escape(codes[at(p)], c)
        if escape and not escape_works(pts, meta, zobrist, p, c, np.bool_(True)):
            keep *= scalars[FAILED_ESCAPE]
        if keep >= 1.0 or rand_float(rng) < keep:
            chosen = p
            break
        rejected += 1
        if rejected >= MAX_REJECTIONS:
            _set_aside(state, w, c, p)
    _restore(state, w, c)
    return chosen


@njit(cache=True, _nrt=False)
def playout(pts, meta, zobrist, rng, model, state, max_moves, amaf_color, amaf_depth, depth, record_amaf):
    """``kernels.playout.playout`` for the learned policy: from the position (``meta[TO_MOVE]`` to
    move) to two passes or ``max_moves`` moves, the AMAF record kept as ``playout.apply_move``
    keeps it. Returns ``(area score, moves played)``."""
    start(pts, meta, model, state)
    moves = 0
    while meta[PASSES] < 2 and moves < max_moves:
        c = meta[TO_MOVE]
        p = draw(pts, meta, zobrist, model, state, c, rng)
        if p == PASS:
            play_pass(meta, c)
        else:
            if record_amaf and amaf_color[at(p)] == 0:
                amaf_color[at(p)] = c
                amaf_depth[at(p)] = depth + moves
            play(pts, meta, zobrist, model, state, p, c)
        moves += 1
    return area_score(pts, meta), moves


@njit(cache=True, _nrt=False)
def first_move(pts, meta, zobrist, model, state, c, rng):
    """One move of the policy for ``c`` from a position rated from scratch (a research player's
    move: ``research_players.PlayoutPlayer``)."""
    start(pts, meta, model, state)
    return draw(pts, meta, zobrist, model, state, c, rng)
