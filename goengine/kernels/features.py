"""Features of candidate moves for the learned move model: tactics and nested shapes.

Coulom's generalised Bradley-Terry model (Coulom 2007, "Computing Elo Ratings of Move Patterns in
the Game of Go", ICGA Journal 30(4)) rates a move by the features it has: each feature value has a
strength (a "gamma"), a move's strength is the product of its values' gammas, and the move played
is drawn with probability strength / total strength over the legal moves. This module computes a
move's feature values; ``goengine.movemodel`` holds the learned gammas (as weights ln gamma) and the
shape dictionary; ``goengine.training`` learns them from games.

Reading guide: ``move_features`` rates one candidate (a packed ``code`` of the tactical values
and the id of the largest dictionary shape around it); ``position_features`` does every legal move
of the side to move; ``shape_id`` and ``canonical_keys`` are the shapes' two sides (lookup on the
board, harvest in training).

Feature groups, one value each per move (value 0 means "not applicable" or "none"):

- ``PASS``: 1 a pass after the opponent's pass, 2 any other pass; 0 for a point.
- ``CAPTURE``: 1 a ko capture (one stone taken, the capturing stone left alone in atari), 2 a
  capture that saves an own chain in atari next to the captured one, 3 the captured chain holds
  or touches the opponent's last move, 4 another capture of 1-2 stones, 5 of 3 stones or more.
- ``ESCAPE``: extending an own chain in atari (its liberty is the move): 1 the chain touches the
  last move ("a new atari") and the escape works, 2 new and it fails, 3 an older atari that
  works, 4 older and fails. "Works" is ``tactics.escape_works``: three liberties, or two and no
  ladder.
- ``ATARI``: the move leaves an opponent chain with one liberty: 1 and extending there does not
  save it (a ladder or a net: ``escape_works`` from the opponent's side, read on a scratch
  board; in a double atari, one such chain is enough), 2 while a ko is on the board (a ko
  threat), 3 any other atari.
- ``SELF_ATARI``: the move leaves its own chain with one liberty and captures nothing: 1 a chain
  of at most three stones filling the opponent's eye space (a throw-in or nakade,
  ``tactics.fills_opponent_eye_space``), 2 one stone, 3 two stones or more.
- ``EDGE``: 1-4 the first to fourth line, 5 further in.
- ``DIST_LAST``: the distance to the opponent's last move, 1..15 for d = 2..16, 16 for 17 or more
  (0: no last move, or a pass). ``d(dx, dy) = |dx| + |dy| + max(|dx|, |dy|)`` (Coulom's and
  Pachi's "gridcular" distance: 2 next to it, 3 diagonal, 4 two away in a line).
- ``DIST_LAST2``: the same to the mover's own previous move, 1 for d = 0 (playing again where its
  stone was captured), 2..16 for d = 2..16, 17 for 17 or more.

Shapes (Pachi's spatial patterns, ``pattern/spatial.c``; Stern, Herbrich and Graepel 2006): the
points within gridcular distance ``d`` of the move, for d = 3 (the 3x3 square) to 10 (73 points),
each point empty, the mover's, the opponent's or off the board. A shape is hashed as the XOR of a
Zobrist key per (point, state), empty points adding nothing, and a key per size; read in the
mover's colours, so colour is normalised by who moves. The dictionary (``goengine.movemodel``)
holds all eight rotations and reflections of every shape it knows, so a lookup hashes the board
as it stands. The sizes are nested: a move's shapes are looked up from d = 3 outwards until one
is not known; the last one found is the move's shape, and its smaller cores (each the parent of
the next) are known too by construction of the dictionary.

Geometry (``goengine.movemodel`` builds it): ``spiral[i]`` the (dx, dy) offset of point ``i``,
ordered by distance; ``ring_end[d]`` the number of points at distance <= d; ``zkeys[i, state]``;
``size_keys[d]``; ``orient[o, i]`` the index of point ``i`` under orientation ``o`` (for the harvest's
canonical keys). Every array is passed in: numba would freeze module-level arrays into the code.
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    CHAIN,
    COLOR,
    CSIZE,
    EMPTY,
    KO,
    LAST_MOVE,
    LAST_MOVE2,
    MOVES,
    NEXT,
    NO_POINT,
    PASS,
    SIZE,
    TO_MOVE,
    W,
    copy_state,
    in_atari,
    is_legal,
    place,
)
from .tactics import (
    chain_liberties,
    escape_works,
    fills_opponent_eye_space,
    liberties_after,
    touches_chain_in_atari,
)

# feature groups, in this order in a packed code (each value in its own bits)
PASS_GROUP = 0
CAPTURE = 1
ESCAPE = 2
ATARI = 3
SELF_ATARI = 4
EDGE = 5
DIST_LAST = 6
DIST_LAST2 = 7
N_GROUPS = 8
GROUP_SIZES = (3, 6, 5, 4, 4, 6, 17, 18)  # values of each group, 0 included
GROUP_SHIFTS = (0, 2, 5, 8, 10, 12, 15, 20)  # bit offset of each group in a code
GROUP_MASKS = (3, 7, 7, 3, 3, 7, 31, 31)
MAX_VALUES = 18

MIN_SHAPE = 3  # the smallest shape size looked up (the 3x3 square)
MAX_SHAPE = 10  # the largest (73 points)
N_SPIRAL = 73  # points within distance MAX_SHAPE, the centre included
OFF_BOARD = 3  # a shape point's states: 0 empty, 1 the mover's, 2 the opponent's, 3 off the board
NO_SHAPE = 0  # the shape id of a move none of whose shapes is known

MAX_CANDIDATES = 19 * 19 + 1  # the legal moves of a position, pass included


@njit(cache=True, _nrt=False, inline="always")
def gridcular(w, p, q):
    """Coulom's distance between points ``p`` and ``q`` of a board of width ``w``:
    ``|dx| + |dy| + max(|dx|, |dy|)``."""
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    return dx + dy + max(dx, dy)


@njit(cache=True, _nrt=False, inline="always")
def value_of(code, group):
    """The value of ``group`` in a packed ``code``."""
    return (code >> GROUP_SHIFTS[group]) & GROUP_MASKS[group]


@njit(cache=True, _nrt=False)
def _chain_touches(pts, w, root, p):
    """Whether the chain ``root`` holds ``p`` or has a stone next to it."""
    s = root
    while True:
        if s == p or s - w == p or s - 1 == p or s + 1 == p or s + w == p:
            return True
        s = pts[NEXT, at(s)]
        if s == root:
            return False


@njit(cache=True, _nrt=False)
def _capture_value(pts, meta, p, c, last):
    """The CAPTURE value of ``c`` playing ``p``."""
    w = meta[W]
    o = 3 - c
    captured = 0
    saves = False
    touches = False
    seen0, seen1, seen2 = NO_POINT, NO_POINT, NO_POINT
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] != o:
            continue
        r = pts[CHAIN, at(q)]
        if r == seen0 or r == seen1 or r == seen2 or not in_atari(pts, r):
            continue
        if seen0 == NO_POINT:
            seen0 = r
        elif seen1 == NO_POINT:
            seen1 = r
        else:
            seen2 = r
        captured += pts[CSIZE, at(r)]
        if not saves and touches_chain_in_atari(pts, w, r, c):  # taking r gives c's chain liberties
            saves = True
        if not touches and last != PASS and _chain_touches(pts, w, r, last):
            touches = True
    if captured == 0:
        return 0
    if captured == 1:
        n, size, _ = liberties_after(pts, meta, p, c, np.int64(2))
        if n == 1 and size == 1:
            return 1
    if saves:
        return 2
    if touches:
        return 3
    return 4 if captured <= 2 else 5


@njit(cache=True, _nrt=False)
def _escape_value(pts, meta, zobrist, p, c, last):
    """The ESCAPE value of ``c`` playing ``p``."""
    w = meta[W]
    new = False
    found = False
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == c:
            r = pts[CHAIN, at(q)]
            if in_atari(pts, r):
                found = True
                if last != PASS and _chain_touches(pts, w, r, last):
                    new = True
    if not found:
        return 0
    works = escape_works(pts, meta, zobrist, p, c, np.bool_(True))
    if new:
        return 1 if works else 2
    return 3 if works else 4


@njit(cache=True, _nrt=False)
def _atari_value(pts, meta, zobrist, p, c, spts, smeta):
    """The ATARI value of ``c`` playing ``p``; ``(spts, smeta)`` is a scratch board (NFIELDS rows)
    on which the opponent's escape is read after the move. Every chain the move puts in atari is
    read (a double atari too), so the value does not depend on which neighbour comes first."""
    w = meta[W]
    o = 3 - c
    found = False
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] != o:
            continue
        r = pts[CHAIN, at(q)]
        if in_atari(pts, r):
            continue  # captured, not put in atari
        n, l0, l1, _l2 = chain_liberties(pts, meta, r, 3)
        if n != 2:
            continue
        escape = l1 if l0 == p else l0
        if not found:
            copy_state(pts, meta, spts, smeta)
            place(spts, smeta, zobrist, p, c)
            found = True
        if not is_legal(spts, smeta, escape, o):
            return 1  # the chain cannot even extend
        if not escape_works(spts, smeta, zobrist, np.int64(escape), o, np.bool_(True)):
            return 1
    if not found:
        return 0
    if meta[KO] != NO_POINT:
        return 2
    return 3


@njit(cache=True, _nrt=False)
def _self_atari_value(pts, meta, p, c):
    """The SELF_ATARI value of ``c`` playing ``p``."""
    w = meta[W]
    free = 0
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] == EMPTY:
            free += 1
    if free >= 2:
        return 0
    n, size, captured = liberties_after(pts, meta, p, c, np.int64(2))
    if n >= 2 or captured > 0:
        return 0
    if size <= 3 and fills_opponent_eye_space(pts, meta, p, c):
        return 1
    return 2 if size == 1 else 3


@njit(cache=True, _nrt=False)
def tactical_code(pts, meta, zobrist, p, c, spts, smeta):
    """The packed code of every group but the shape for ``c`` playing the point or PASS ``p``."""
    last = meta[LAST_MOVE]
    if p == PASS:
        passed = 1 if (last == PASS and meta[MOVES] > 0) else 2
        return passed << GROUP_SHIFTS[PASS_GROUP]
    w = meta[W]
    size = meta[SIZE]
    code = _capture_value(pts, meta, p, c, last) << GROUP_SHIFTS[CAPTURE]
    code |= _escape_value(pts, meta, zobrist, p, c, last) << GROUP_SHIFTS[ESCAPE]
    code |= _atari_value(pts, meta, zobrist, p, c, spts, smeta) << GROUP_SHIFTS[ATARI]
    code |= _self_atari_value(pts, meta, p, c) << GROUP_SHIFTS[SELF_ATARI]
    r = p // w - 1
    col = p % w - 1
    line = min(min(r, col), min(size - 1 - r, size - 1 - col)) + 1
    code |= min(line, 5) << GROUP_SHIFTS[EDGE]
    if last != PASS:
        d = gridcular(w, p, last)
        code |= (min(d, 17) - 1) << GROUP_SHIFTS[DIST_LAST]
    last2 = meta[LAST_MOVE2]
    if last2 != PASS:
        d = gridcular(w, p, last2)
        code |= (1 if d == 0 else min(d, 17)) << GROUP_SHIFTS[DIST_LAST2]
    return code


@njit(cache=True, _nrt=False, inline="always")
def _state(pts, w, size, r, col, c):
    """A shape point's state for mover ``c``: 0 empty, 1 ``c``'s, 2 the opponent's, 3 off board."""
    if r < 0 or col < 0 or r >= size or col >= size:
        return OFF_BOARD
    x = pts[COLOR, at((r + 1) * w + col + 1)]
    if x == EMPTY:
        return 0
    return 1 if x == c else 2


@njit(cache=True, _nrt=False)
def probe(table_keys, table_ids, key):
    """The id stored for ``key`` in the open-addressing table (linear probing; a zero key marks
    an empty slot), or -1."""
    mask = np.uint64(table_keys.shape[0] - 1)
    i = key & mask
    while True:
        k = table_keys[at(i)]
        if k == key:
            return table_ids[at(i)]
        if k == np.uint64(0):
            return -1
        i = (i + np.uint64(1)) & mask


@njit(cache=True, _nrt=False)
def fill_table(keys, ids, table_keys, table_ids):
    """Insert ``keys[k] -> ids[k]`` into the empty open-addressing table (``probe``'s); a key met
    again must bring the same id. Returns -1, or the index of a key that came with another id."""
    mask = np.uint64(table_keys.shape[0] - 1)
    for k in range(keys.shape[0]):
        key = keys[k]
        i = key & mask
        while table_keys[at(i)] != np.uint64(0) and table_keys[at(i)] != key:
            i = (i + np.uint64(1)) & mask
        if table_keys[at(i)] == np.uint64(0):
            table_keys[at(i)] = key
            table_ids[at(i)] = ids[k]
        elif table_ids[at(i)] != ids[k]:
            return k
    return -1


@njit(cache=True, _nrt=False)
def shape_id(pts, meta, p, c, spiral, ring_end, zkeys, size_keys, table_keys, table_ids):
    """The id of the largest dictionary shape around ``p`` read for mover ``c`` (NO_SHAPE when the
    3x3 shape is not known): the rings are hashed outwards and looked up at each size from
    MIN_SHAPE, stopping at the first size the dictionary does not know."""
    w = meta[W]
    size = meta[SIZE]
    r0 = p // w - 1
    c0 = p % w - 1
    h = np.uint64(0)
    found = NO_SHAPE
    i = 1
    for d in range(1, MAX_SHAPE + 1):
        end = ring_end[d]
        while i < end:
            s = _state(pts, w, size, r0 + spiral[i, 1], c0 + spiral[i, 0], c)
            h ^= zkeys[i, s]
            i += 1
        if d >= MIN_SHAPE:
            k = probe(table_keys, table_ids, h ^ size_keys[d])
            if k < 0:
                break
            found = k
    return found


@njit(cache=True, _nrt=False)
def canonical_keys(pts, meta, p, c, spiral, ring_end, zkeys, size_keys, orient, keys, content):
    """The harvest's view of the shapes around ``p`` for mover ``c``: ``keys[d]`` for d = MIN_SHAPE
    .. MAX_SHAPE, the least of the eight orientations' hashes of the size-d shape (the same for
    every rotation and reflection), and ``content[0:3]``, the states of the 72 points around ``p``
    as the board has them (2 bits each, 32 points a word, spiral order), from which
    ``goengine.movemodel`` rebuilds any of the shapes."""
    w = meta[W]
    size = meta[SIZE]
    r0 = p // w - 1
    c0 = p % w - 1
    h0 = np.uint64(0)
    h1 = np.uint64(0)
    h2 = np.uint64(0)
    h3 = np.uint64(0)
    h4 = np.uint64(0)
    h5 = np.uint64(0)
    h6 = np.uint64(0)
    h7 = np.uint64(0)
    content[0] = np.uint64(0)
    content[1] = np.uint64(0)
    content[2] = np.uint64(0)
    i = 1
    for d in range(1, MAX_SHAPE + 1):
        end = ring_end[d]
        while i < end:
            s = _state(pts, w, size, r0 + spiral[i, 1], c0 + spiral[i, 0], c)
            j = i - 1
            content[j >> 5] |= np.uint64(s) << np.uint64(2 * (j & 31))
            h0 ^= zkeys[orient[0, i], s]
            h1 ^= zkeys[orient[1, i], s]
            h2 ^= zkeys[orient[2, i], s]
            h3 ^= zkeys[orient[3, i], s]
            h4 ^= zkeys[orient[4, i], s]
            h5 ^= zkeys[orient[5, i], s]
            h6 ^= zkeys[orient[6, i], s]
            h7 ^= zkeys[orient[7, i], s]
            i += 1
        if d >= MIN_SHAPE:
            least = min(min(min(h0, h1), min(h2, h3)), min(min(h4, h5), min(h6, h7)))
            keys[d] = least ^ size_keys[d]


@njit(cache=True, _nrt=False)
def position_features(pts, meta, zobrist, model, spts, smeta, moves, codes, shapes):
    """Rate every legal move of the side to move (simple ko and suicide; positional superko is
    the game's business): ``moves[k]``, ``codes[k]`` and ``shapes[k]`` for k < the count returned,
    the points in board order, then PASS. ``model`` is ``goengine.movemodel.MoveModel.arrays``:
    (spiral, ring_end, zkeys, size_keys, table_keys, table_ids, ...); ``(spts, smeta)`` a
    scratch board with NFIELDS rows."""
    spiral = model[0]
    ring_end = model[1]
    zkeys = model[2]
    size_keys = model[3]
    table_keys = model[4]
    table_ids = model[5]
    c = meta[TO_MOVE]
    w = meta[W]
    n = 0
    for p in range(w + 1, w * w - w - 1):
        if pts[COLOR, at(p)] != EMPTY or not is_legal(pts, meta, p, c):
            continue
        moves[n] = p
        codes[n] = tactical_code(pts, meta, zobrist, p, c, spts, smeta)
        shapes[n] = shape_id(pts, meta, p, c, spiral, ring_end, zkeys, size_keys, table_keys, table_ids)
        n += 1
    moves[n] = PASS
    codes[n] = tactical_code(pts, meta, zobrist, np.int64(PASS), c, spts, smeta)  # typed: one compilation
    shapes[n] = NO_SHAPE
    return n + 1


@njit(cache=True, _nrt=False, inline="always")
def move_score(code, shape, weights, shape_scores):
    """A move's score, ln of its strength: the weights of its group values (``weights[g, v]``)
    plus its shape's cumulative weight (``shape_scores[id]``: the shape's and all its cores')."""
    s = shape_scores[shape]
    for g in range(N_GROUPS):
        s += weights[g, (code >> GROUP_SHIFTS[g]) & GROUP_MASKS[g]]
    return s
