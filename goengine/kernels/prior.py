"""Prior knowledge: the initial statistics a node's new children get when it is expanded, one
kernel per prior, dispatched by an integer prior id; and whether PASS is among the children.

Reading guide: ``init_children`` is called by the search (``kernels.search.expand``) right after
a node's children are allocated, with the position they are moves of; it may add to each child
virtual visits and wins ("equivalent experience", Gelly and Silver 2007, "Combining online and
offline knowledge in UCT", section 4) in ``VISITS`` / ``WINS``, so every selection rule sees them.
Wins are from the point of view of the child's mover, as everywhere in the tree. Before that,
``pass_is_child`` decides whether the node gets a PASS child at all. The Python registry
``goengine.priors`` holds the names, parameters with their defaults, and sources.

A prior must be a function of the position and its parameters only (no random draw): the tree
does not store what a prior gave, and the search recomputes it for the root's children, by
calling ``init_children`` again on fresh counts, to report what it searched apart from what it
assumed (``Search._root_stats``).

- ``none`` gives nothing: every child starts at zero and PASS is always a child; the research
  setting.
- ``even``: every child starts with ``even`` visits at one half (Pachi's even prior, ``uct/prior.c``:
  without it, Pachi's log shows RAVE collapsing once the other priors were on).
- ``heuristic``: the even prior, plus won visits for a capture, an atari escape that works
  (``tactics.escape_works``), a MoGo 3x3 pattern and a move near the last one, and lost visits
  for a bad self-atari and for the first line in an empty area: the kinds of Gelly and Silver
  2007 (section 4), Pachi's ``uct/prior.c`` and michi's ``expand``, each weight a parameter.
- ``movemodel``: the move model learned from strong games (``goengine.movemodel``, Coulom 2007)
  rates the children; each gets the even visits at one half and, when its probability p (over
  the node's children) is at least ``min_p``, ``sqrt(p) * weight`` won visits: Pachi's pattern
  prior (``uct/prior.c``: sqrt(p) x 300 on 19x19 beside an even prior of 20), a form of Coulom's
  progressive bias that fades as real visits come. The square root damps the model's
  overconfidence at the top (Pachi's calibration: its 90-100 % bucket hits 85 %). With
  ``tactics`` above 0, what a quick reading says is added beside it (``_tactics``: captures and
  working escapes by the stones at stake, caught ladders and bad self-ataris lost), as Pachi 11
  adds its policy's assessment beside its patterns.

PASS, under every prior but ``none``, is a child only when the game nears its end: the
opponent has just passed, or at least ``size^2 / (7 - size / 5)`` moves have been played
(Pachi's ``board_earliest_pass``: 15.6 on 9x9, 112.8 on 19x19; stones on the board count
instead when there are more, for a position set up without moves) and fewer than MAX_UNSETTLED
empty points are unsettled (in Tromp-Taylor regions that touch both colours or none: open
boundaries, dame, dead stones not yet taken; Pachi waits likewise while 10 dame are left); or
when there is no other move. Earlier, PASS wins visits
by noise alone (an early pass in 39 of 200 KL-UCB games at 500 simulations).
"""

import numpy as np
from numba import njit

from . import at
from .board import (
    BLACK,
    CHAIN,
    COLOR,
    CSIZE,
    EMPTIES,
    EMPTY,
    LAST_MOVE,
    MARK,
    MOVES,
    N_EMPTY,
    PASS,
    PASSES,
    SIZE,
    TO_MOVE,
    WHITE,
    W,
    area_score,
    in_atari,
)
from .features import NO_SHAPE, move_score, shape_id, tactical_code
from .mogo3x3 import matches
from .tactics import captures_something, escape_works, is_bad_self_atari, saves_chain_in_atari
from .tree import MOVE, VISITS, WINS

NONE = 0
EVEN = 1
HEURISTIC = 2
MOVE_MODEL = 3
N_PRIORS = 4

# parameter slots (``even`` has only the first)
PRIOR_EVEN = 0  # visits at one half, every child
PRIOR_CAPTURE = 1  # won visits for a move that captures
PRIOR_ESCAPE = 2  # won visits for an extension that saves a chain in atari
PRIOR_PATTERN = 3  # won visits for a MoGo 3x3 pattern move
PRIOR_SELF_ATARI = 4  # lost visits for a bad self-atari
PRIOR_FIRST_LINE = 5  # lost visits for the first line with no stone within distance 2
PRIOR_NEAR_LAST = 6  # won visits for a move within (Manhattan) distance 2 of the last move
# ``movemodel``'s slots after the even visits
MODEL_WEIGHT = 1  # won visits for a move of probability 1 (sqrt(p) x this)
MODEL_MIN_P = 2  # the probability below which a move gets the even visits only
MODEL_TACTICS = 3  # the unit of the tactical visits (Pachi's eqex); 0: none
TACTICS_MAX_STONES = 15  # a chain's size counts up to this many stones (Pachi's cap)

MAX_UNSETTLED = 10  # PASS waits while this many empty points belong to nobody (Pachi's dame limit)
SELF_ATARI_STONES = 1  # the prior's bad self-atari leaves more than one stone in atari


@njit(cache=True, _nrt=False)
def earliest_pass(size):
    """The first move number at which PASS may be a child (Pachi's ``board_earliest_pass``)."""
    return size * size / (7.0 - size / 5.0)


@njit(cache=True, _nrt=False)
def unsettled_points(pts, meta):
    """The empty points the area count gives nobody: those in regions that touch stones of both
    colours, or of none. Uses ``board.area_score``'s flood fill (its MARK row)."""
    area_score(pts, meta)
    n = 0
    for i in range(meta[N_EMPTY]):
        reach = pts[MARK, at(pts[EMPTIES, at(i)])] & 3
        if reach != BLACK and reach != WHITE:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def pass_is_child(prior, pts, meta):
    """Whether a node in ``(pts, meta)`` gets a PASS child (besides when it has no other)."""
    if prior == NONE:
        return True
    if meta[PASSES] > 0:
        return True
    size = meta[SIZE]
    played = max(meta[MOVES], size * size - meta[N_EMPTY])  # set-up stones count as moves
    if played < earliest_pass(size):
        return False
    return unsettled_points(pts, meta) < MAX_UNSETTLED


@njit(cache=True, _nrt=False, inline="always")
def _add(ti, tf, child, visits, value):
    n = int(visits)
    ti[VISITS, at(child)] += n
    tf[WINS, at(child)] += value * n


@njit(cache=True, _nrt=False)
def _empty_around(pts, meta, p):
    """Whether every point within Manhattan distance 2 of ``p`` is empty or off the board."""
    w = meta[W]
    size = meta[SIZE]
    r0 = p // w
    c0 = p % w
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if abs(dr) + abs(dc) > 2:
                continue
            r = r0 + dr
            c = c0 + dc
            if r < 1 or c < 1 or r > size or c > size:
                continue
            if pts[COLOR, at(r * w + c)] != EMPTY:
                return False
    return True


@njit(cache=True, _nrt=False)
def _heuristic(params, patterns, pts, meta, zobrist, ti, tf, child):
    p = np.int64(ti[MOVE, at(child)])
    _add(ti, tf, child, params[PRIOR_EVEN], 0.5)
    if p == PASS:
        return
    w = meta[W]
    size = meta[SIZE]
    c = meta[TO_MOVE]
    if captures_something(pts, meta, p, c) > 0:
        _add(ti, tf, child, params[PRIOR_CAPTURE], 1.0)
    elif saves_chain_in_atari(pts, meta, zobrist, p, c, np.bool_(True)):
        _add(ti, tf, child, params[PRIOR_ESCAPE], 1.0)
    if is_bad_self_atari(pts, meta, p, c, np.float64(SELF_ATARI_STONES)):
        _add(ti, tf, child, params[PRIOR_SELF_ATARI], 0.0)
    elif matches(patterns, pts, p, w):
        _add(ti, tf, child, params[PRIOR_PATTERN], 1.0)
    r = p // w
    col = p % w
    if (r == 1 or col == 1 or r == size or col == size) and _empty_around(pts, meta, p):
        _add(ti, tf, child, params[PRIOR_FIRST_LINE], 0.0)
    last = meta[LAST_MOVE]
    if last != PASS and abs(last // w - r) + abs(last % w - col) <= 2:
        _add(ti, tf, child, params[PRIOR_NEAR_LAST], 1.0)


@njit(cache=True, _nrt=False)
def _atari_stones(pts, meta, p, c):
    """The stones of ``c``'s chains in atari next to ``p`` (``p`` their liberty), each chain once."""
    w = meta[W]
    total = 0
    seen0 = np.int64(-1)
    seen1 = np.int64(-1)
    seen2 = np.int64(-1)
    for q in (p - w, p - 1, p + 1, p + w):
        if pts[COLOR, at(q)] != c:
            continue
        r = np.int64(pts[CHAIN, at(q)])
        if r == seen0 or r == seen1 or r == seen2 or not in_atari(pts, r):
            continue
        total += pts[CSIZE, at(r)]
        if seen0 < 0:
            seen0 = r
        elif seen1 < 0:
            seen1 = r
        else:
            seen2 = r
    return total


@njit(cache=True, _nrt=False)
def _tactics(unit, pts, meta, zobrist, ti, tf, child, p, c):
    """What a quick reading says of the move ``p``, as Pachi 11's policy prior
    (``uct/prior.c``, its ``playout_moggy_assess`` terms) adds it beside its pattern knowledge, in
    virtual games of ``unit`` (Pachi's eqex): a capture of n stones, or an extension that saves a
    chain of n stones in atari (``escape_works``, ladders read), wins ``unit x (2 + (n - 1) / 2)``
    (n counted up to TACTICS_MAX_STONES); an extension that does not save its chain (running a
    ladder that is caught) and a bad self-atari (``is_bad_self_atari``: more than one stone) lose
    ``unit``. The move model knows these moves' shapes and their tactical kind, but not the size
    of what is at stake."""
    captured = captures_something(pts, meta, p, c)
    at_stake = _atari_stones(pts, meta, p, c)
    if captured > 0 or (at_stake > 0 and escape_works(pts, meta, zobrist, p, c, np.bool_(True))):
        n = min(max(captured, at_stake), TACTICS_MAX_STONES)
        _add(ti, tf, child, unit * (2.0 + (n - 1) / 2.0) + 0.5, 1.0)  # rounded to whole visits
    elif at_stake > 0:
        _add(ti, tf, child, unit + 0.5, 0.0)
    if is_bad_self_atari(pts, meta, p, c, np.float64(SELF_ATARI_STONES)):
        _add(ti, tf, child, unit + 0.5, 0.0)


@njit(cache=True, _nrt=False)
def _patterns(params, model, pts, meta, zobrist, ti, tf, first, count, scratch):
    spiral, ring_end, zkeys, size_keys, table_keys, table_ids, weights, shape_scores = model
    spts, smeta, scores = scratch
    c = meta[TO_MOVE]
    top = -np.inf
    for k in range(count):
        p = np.int64(ti[MOVE, at(first + k)])
        code = tactical_code(pts, meta, zobrist, p, c, spts, smeta)
        shape = NO_SHAPE
        if p != PASS:
            shape = shape_id(pts, meta, p, c, spiral, ring_end, zkeys, size_keys, table_keys, table_ids)
        s = move_score(code, shape, weights, shape_scores)
        scores[at(k)] = s
        if s > top:
            top = s
    total = 0.0
    for k in range(count):
        scores[at(k)] = np.exp(scores[at(k)] - top)
        total += scores[at(k)]
    even = params[PRIOR_EVEN]
    weight = params[MODEL_WEIGHT]
    min_p = params[MODEL_MIN_P]
    unit = params[MODEL_TACTICS]
    for k in range(count):
        child = first + k
        _add(ti, tf, child, even, 0.5)
        prob = scores[at(k)] / total
        if prob >= min_p:
            _add(ti, tf, child, np.sqrt(prob) * weight + 0.5, 1.0)  # rounded to whole visits
        p = np.int64(ti[MOVE, at(child)])
        if unit > 0 and p != PASS:
            _tactics(unit, pts, meta, zobrist, ti, tf, child, p, c)


@njit(cache=True, _nrt=False)
def init_children(prior, params, knowledge, pts, meta, zobrist, ti, tf, first, count, scratch):
    """Give the children ``first .. first + count - 1`` (the moves of the side to move in
    ``(pts, meta)``) the initial statistics of prior ``prior`` (an id above): virtual visits and
    wins added to ``VISITS`` / ``WINS``. ``none`` and an unknown id give nothing.
    ``knowledge`` is the search's ``(patterns, model, playout model)``, of which the priors read
    the 3x3 pattern table (``kernels.mogo3x3``) and the move model's arrays
    (``goengine.movemodel.MoveModel.arrays``); ``scratch`` is ``(spts, smeta, scores)``: a board
    with NFIELDS rows the tactics read on, and room for a score a child."""
    patterns, model = knowledge[0], knowledge[1]
    if prior == EVEN:
        for child in range(first, first + count):
            _add(ti, tf, child, params[PRIOR_EVEN], 0.5)
    elif prior == HEURISTIC:
        for child in range(first, first + count):
            _heuristic(params, patterns, pts, meta, zobrist, ti, tf, child)
    elif prior == MOVE_MODEL:
        _patterns(params, model, pts, meta, zobrist, ti, tf, first, count, scratch)
