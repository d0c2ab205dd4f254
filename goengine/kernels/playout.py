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

from . import at
from .board import PASS, PASSES, TO_MOVE, area_score, copy_state, place, play_pass
from .policy import choose_move
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
    pts, meta, zobrist, rng, policy, params, patterns, max_moves, amaf_color, amaf_depth, depth, record_amaf, memory
):
    """Play the moves of policy ``policy`` (parameters ``params``, 3x3 pattern table ``patterns``)
    from the position (``meta[TO_MOVE]`` to move) to the end.

    Stops at two consecutive passes (counting passes already in ``meta``) or after ``max_moves``
    moves. ``depth`` is the depth of the first move from the search's root, for the AMAF record
    (``apply_move``). ``memory``: ``(replies, seq, start)``, the last good replies the policy may
    read (``kernels.replies``), and where the moves are written, ``seq[start:]``, as far as
    ``seq`` goes (an empty ``seq``: nowhere). Returns ``(area score, moves played)``.
    """
    replies, seq, start = memory
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
def outside_search():
    """What a playout outside a search passes for the search's records (``playout``'s last five
    arguments): an AMAF record of one unused point, depth 0, no recording, and a reply memory with
    the stand-in table of ``kernels.replies.no_replies`` and nowhere to write the moves. Made once
    by the caller, before its loop."""
    no_memory = (no_replies(), np.zeros(0, dtype=np.int64), np.int64(0))
    # typed: see goengine.kernels
    return np.zeros(1, dtype=np.int8), np.zeros(1, dtype=np.int64), np.int64(0), np.bool_(False), no_memory


@njit(cache=True, _nrt=False)
def playout_outside_search(pts, meta, zobrist, rng, policy, params, patterns, max_moves, stand_ins):
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
        patterns,
        max_moves,
        no_amaf,
        no_depth,
        at_root,
        no_amaf_record,
        no_memory,
    )


@njit(cache=True)
def run_playouts(pts0, meta0, zobrist, rng, policy, params, patterns, n_playouts, max_moves, scores):
    """Run ``n_playouts`` playouts of policy ``policy`` (``playout``'s arguments) from
    ``(pts0, meta0)``, leaving it unchanged.

    ``scores[i]`` receives playout i's area score. Allocates its work arrays once, never inside
    the loop. Returns the total number of moves played.
    """
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    stand_ins = outside_search()
    total_moves = 0
    for k in range(n_playouts):
        copy_state(pts0, meta0, pts, meta)
        score, moves = playout_outside_search(pts, meta, zobrist, rng, policy, params, patterns, max_moves, stand_ins)
        scores[k] = score
        total_moves += moves
    return total_moves
