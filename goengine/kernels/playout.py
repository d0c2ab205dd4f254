"""Playouts: a game played to its end by a playout policy, and the batch runner of the benchmark.

Reading guide: ``apply_move`` plays one move and keeps the AMAF record (the search's tree part
and the playout both play through it); ``playout`` is the loop; ``run_playouts`` the batch
``bench/playouts.py`` times. The moves themselves come from ``kernels.policy.choose_move``.

A playout ends at two consecutive passes or after ``max_moves`` moves, and is scored by area
(``board.area_score``, Black minus White, no komi). Playouts obey simple ko only, as Fuego's
playout board does; positional superko is checked for the game and the tree's moves.

AMAF ("all moves as first", Gelly and Silver 2011): ``amaf_color[p]`` is the colour that played
first on ``p`` in the current iteration (0: nobody yet) and ``amaf_depth[p]`` the depth of that
move counted from the search's root, meaningful only where ``amaf_color[p]`` is set (so only
``amaf_color`` is cleared between iterations); ``kernels.search.backup`` credits a node's children
with them.

What makes a playout fast:

- no reference counting in any kernel that allocates nothing (``goengine.kernels`` says why);
- unsigned indices (``goengine.kernels.at``), which numba uses without a wrap-around check;
- the common case first in ``policy.is_playable``: a point with an empty neighbour is playable
  without the eye and legality tests;
- position copies written as loops (``board.copy_state``), not as numba's 2-D slice assignment.

Tried and left out, for too little or no gain: not updating the Zobrist hash in playouts, which
need no superko (it would leave a stale hash); summing a new stone's liberties in registers
before one store; a fast path for one-point regions in the area count.

``docs/performance.md`` gives what each of these measured, and how to measure it again.
"""

import numpy as np
from numba import njit

from . import at, learned
from .board import PASS, PASSES, TO_MOVE, W, area_score, copy_state, place, play_pass
from .learned import new_state as learned_state
from .policy import LEARNED, choose_move
from .replies import no_replies


@njit(cache=True, _nrt=False, inline="always")
def apply_move(pts, meta, zobrist, p, c, amaf_color, amaf_depth, depth, record_amaf):
    """Play ``p`` (a legal point, or PASS) for ``c``; with ``record_amaf``, a point nobody has
    played yet in this iteration records ``c`` and ``depth``."""
    if p == PASS:
        play_pass(meta, c)
        return
    if record_amaf and amaf_color[at(p)] == 0:
        amaf_color[at(p)] = c
        amaf_depth[at(p)] = depth
    place(pts, meta, zobrist, p, c)


@njit(cache=True, _nrt=False)
def playout(
    pts, meta, zobrist, rng, policy, params, tables, max_moves, amaf_color, amaf_depth, depth, record_amaf, memory
):
    """Play the moves of policy ``policy`` (parameters ``params``) from the position
    (``meta[TO_MOVE]`` to move) to the end.

    Stops at two consecutive passes (counting passes already in ``meta``) or after ``max_moves``
    moves. ``tables``: ``(patterns, learned model)``, the 3x3 pattern table the heavy policy
    reads (``kernels.mogo3x3``) and the learned policy's model (``goengine.playout_model``).
    ``depth`` is the depth of the first move from the search's root, for the AMAF record
    (``apply_move``). ``memory``: ``(replies, seq, start, learned state)``, the last good
    replies the heavy policy may read (``kernels.replies``), where the moves are written,
    ``seq[start:]``, as far as ``seq`` goes (an empty ``seq``: nowhere), and the learned policy's
    scratch (``kernels.learned.new_state``). The learned policy plays by its own loop
    (``kernels.learned.playout``), which writes no moves. Returns ``(area score, moves played)``.
    """
    replies, seq, start, state = memory
    if policy == LEARNED:
        return learned.playout(
            pts, meta, zobrist, rng, tables[1], state, max_moves, amaf_color, amaf_depth, depth, record_amaf
        )
    patterns = tables[0]
    moves = 0
    while meta[PASSES] < 2 and moves < max_moves:
        c = meta[TO_MOVE]
        p = choose_move(policy, params, patterns, replies, pts, meta, zobrist, c, rng)
        apply_move(pts, meta, zobrist, p, c, amaf_color, amaf_depth, depth + moves, record_amaf)
        if start + moves < seq.shape[0]:
            seq[at(start + moves)] = p
        moves += 1
    return area_score(pts, meta), moves


@njit(cache=True)
def outside_search(npts, width):
    """What a playout outside a search passes for the search's records (``playout``'s last five
    arguments), on a board of ``npts`` padded points and ``width`` columns: an AMAF record of
    one unused point, depth 0, no recording, and a memory with the stand-in table of
    ``kernels.replies.no_replies``, nowhere to write the moves, and the learned policy's scratch.
    Made once by the caller, before its loop."""
    no_memory = (no_replies(), np.zeros(0, dtype=np.int64), np.int64(0), learned_state(npts, width))
    # typed: see goengine.kernels
    return np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int64), np.int64(0), np.bool_(False), no_memory


@njit(cache=True, _nrt=False)
def playout_outside_search(pts, meta, zobrist, rng, policy, params, tables, max_moves, stand_ins):
    """``playout`` for a caller outside a search: ``stand_ins`` (``outside_search``) in place of
    the search's records."""
    no_amaf, no_depth, at_root, no_amaf_record, no_memory = stand_ins
    return playout(
        pts,
        meta,
        zobrist,
        rng,
        policy,
        params,
        tables,
        max_moves,
        no_amaf,
        no_depth,
        at_root,
        no_amaf_record,
        no_memory,
    )


@njit(cache=True)
def run_playouts(pts0, meta0, zobrist, rng, policy, params, tables, n_playouts, max_moves, scores):
    """Run ``n_playouts`` playouts of policy ``policy`` (``playout``'s arguments) from
    ``(pts0, meta0)``, leaving it unchanged.

    ``scores[i]`` receives playout i's area score. Allocates its work arrays once, never inside
    the loop. Returns the total number of moves played.
    """
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    stand_ins = outside_search(pts0.shape[1], meta0[W])
    total_moves = 0
    for k in range(n_playouts):
        copy_state(pts0, meta0, pts, meta)
        score, moves = playout_outside_search(pts, meta, zobrist, rng, policy, params, tables, max_moves, stand_ins)
        scores[k] = score
        total_moves += moves
    return total_moves


@njit(cache=True)
def draw_counts(pts0, meta0, zobrist, rng, policy, params, tables, n, counts):
    """How often each point is the move of policy ``policy`` in ``n`` draws from the position
    (``counts[p]`` for a point, ``counts[0]`` for PASS): the policy's move distribution,
    sampled, for measuring how it predicts strong moves (``scripts/predict.py``). The position is
    left unchanged."""
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    copy_state(pts0, meta0, pts, meta)
    c = meta[TO_MOVE]
    if policy == LEARNED:
        state = learned_state(pts0.shape[1], meta0[W])
        learned.start(pts, meta, tables[1], state)
        for _ in range(n):
            p = learned.draw(pts, meta, zobrist, tables[1], state, c, rng)
            counts[at(p if p != PASS else 0)] += 1  # one unsigned index (uint64 beside 0 types as float)
        return
    no_memory = outside_search(pts0.shape[1], meta0[W])[4]
    for _ in range(n):
        copy_state(pts0, meta0, pts, meta)
        p = choose_move(policy, params, tables[0], no_memory[0], pts, meta, zobrist, c, rng)
        counts[at(p if p != PASS else 0)] += 1  # one unsigned index (uint64 beside 0 types as float)
