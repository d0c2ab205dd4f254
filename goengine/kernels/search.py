"""Monte-Carlo tree search iterations: descend -> expand -> playout -> back up.

Reading guide: ``run_iterations`` is the loop; ``expand`` makes a node's children (the legal
moves, then the prior's initial statistics); ``backup`` credits the result along the path, and
the AMAF statistics when the rule needs them.

One call runs a batch of iterations, so Python crosses into numba once per batch. Its arguments
come in groups, so a new capability adds a field, not a parameter to every call:

- ``tree``: ``(ti, tf, tmeta)``, the node pool (``kernels.tree``: layout, reward perspective);
- ``root``: ``(pts0, meta0, zobrist, seen, knowledge, owners)``, the root position, the Zobrist
  keys, the sorted hashes of the game's earlier positions, ``knowledge``: ``(patterns, model,
  playout model)``, the 3x3 pattern table (``kernels.mogo3x3``) the heavy playouts and the
  priors read, the learned move model's arrays (``goengine.movemodel``) the ``patterns`` prior
  reads, and the learned playout policy's (``goengine.playout_model``); and
  ``owners``, float64[2, npts], into which each iteration adds who owns each point at its end
  when ``settings[OWNERSHIP]`` is 1 (``add_owners``: the root's ownership map, as KataGo's
  ``kata-analyze`` reports it from its search);
- ``work``: ``new_workspace``'s scratch arrays, made once per search by the caller, so that
  the kernel allocates nothing and runs without numba's reference counting (``_nrt=False``:
  ``goengine.kernels`` says what that buys), and the last good replies (``kernels.replies``),
  one table all threads share, with each thread's record of its iteration's moves;
- ``settings``: int64[N_SETTINGS], the integer settings at the slot constants below (the rule,
  policy and prior ids, expansion threshold, move cap...);
- ``params``: float64[N_PARAM_ROWS, MAX_PARAMS], one row each for the rule's, the playout
  policy's and the prior's parameters, and a row of scalars (komi, the widening schedule).

The kernel releases the GIL, so threads run it at once: each on a tree of its own (root
parallelism), or all on one tree (tree parallelism, ``settings[SHARED]``: ``run_iterations``
says how they share it).

Tree moves obey positional superko: a child is created only if the position it makes is neither
in the game's history (``seen``, sorted hashes) nor earlier on the path from the root. The
playouts below the tree use simple ko only. Children are the legal points that are not the
mover's own eyes (``kernels.board.is_eye``), in board order, then PASS when the prior lets it
in (``kernels.prior.pass_is_child``) or there is no other move.

Progressive widening (Coulom 2007, "Computing Elo Ratings of Move Patterns in the Game of Go",
section 4; Chaslot et al. 2008, "Progressive strategies for Monte-Carlo tree search"), when
``params[SCALARS, WIDEN]`` is above 0: a new node's children are put in the order of the prior's
virtual wins, best first (``kernels.tree.order_by_wins``), and a node with v visits searches only
its first ``widened(v, a, r)`` children: the second once v reaches a = ``WIDEN``, each further
one after r = ``WIDEN_FACTOR`` times the step before (the k-th more at a (r^k - 1) / (r - 1);
Crazy Stone's a = 40, r = 1.4 give 2 moves at 40 visits, 5 at 284, 10 at 1,966). The visits are
the node's ``VISITS``, so they include the virtual visits its own prior gave it. With 0, every
child is searched from the start and the children stay in board order.

A wide root, when ``params[SCALARS, ROOT_EXPLORE]`` is above 0 (an analysis; ``genmove`` keeps
0): the root's child is chosen by ``select.select_wide``, the rule's score plus
``ROOT_EXPLORE * sqrt(ln t / n)``, so that visits spread over the plausible moves and each gets
enough for its figures to mean something, as KataGo's ``wideRootNoise`` does for its analysis.
Below the root the rule is unchanged.

AMAF ("all moves as first", Gelly and Silver 2011): after an iteration, a child ``m`` of a node
at depth ``d`` on the path gets an AMAF sample when the player to move at that node played ``m``
first, at depth ``d`` or later, anywhere in the rest of the iteration (tree part or playout).
The PASS child gets a sample from every iteration through its node: the playout ends with both
players passing. Moves are played and recorded by ``kernels.playout.apply_move``, in the tree
part and the playout alike.
"""

import numpy as np
from numba import njit

from . import at
from .atomic import atomic_add, atomic_cas
from .board import (
    BLACK,
    COLOR,
    EMPTY,
    HASH,
    LAST_MOVE,
    LAST_MOVE2,
    MARK,
    MAX_POINTS,
    META_LEN,
    NFIELDS,
    PASS,
    PASSES,
    SIZE,
    TO_MOVE,
    WHITE,
    W,
    copy_state,
    hash_after,
    is_eye,
    is_legal,
)
from .learned import new_state as learned_state
from .playout import apply_move, outside_search, playout, playout_outside_search
from .prior import init_children, pass_is_child
from .replies import learn_replies, no_replies
from .select import KL_UCB_RAVE, RAVE, RAVE_DISTANCE, select_best, select_wide
from .tree import (
    AVISITS,
    AWINS,
    FIRST,
    MAX_VISITS,
    MOVE,
    NCHILD,
    SCORE,
    SCORE_SQ,
    VISITS,
    WINS,
    alloc_children,
    children_of,
    count_leaf_iteration,
    order_by_wins,
    publish_children,
)

MAX_DEPTH = 3 * MAX_POINTS + 8
MAX_AMAF = (1 << 31) - (1 << 12)  # an AMAF count this large takes no weighted sample more (int32)
NOT_PLAYED = 1 << 30

# slots of ``settings``
RULE = 0  # selection rule id (kernels.select)
POLICY = 1  # playout policy id (kernels.policy)
PRIOR = 2  # prior id (kernels.prior)
NEEDS_AMAF = 3  # 1 when the rule reads AMAF statistics
EXPAND_AT = 4  # a leaf is expanded once visited this many times (0: on its first visit)
MAX_MOVES = 5  # moves allowed in one iteration, tree part and playout together
GROW = 6  # 1: stop the batch when an expansion does not fit (the caller enlarges the pool)
OWNERSHIP = 7  # 1: add every iteration's final owners into ``root``'s ``owners``
SHARED = 8  # 1: other threads search the same tree at once (tree parallelism; see the docstring)
LEARN_REPLIES = 9  # 1: every iteration teaches the last good replies (``kernels.replies``)
N_SETTINGS = 10

# rows of ``params``
RULE_PARAMS = 0
POLICY_PARAMS = 1
PRIOR_PARAMS = 2
SCALARS = 3  # row of float settings:
KOMI = 0  # ... komi, subtracted from the area score
WIDEN = 1  # ... progressive widening: the visits at which a node's second child is searched (0: off)
WIDEN_FACTOR = 2  # ... and the growth of each further step (> 1)
ROOT_EXPLORE = 3  # ... an analysis: c of the exploration term added at the root only (0: off)
N_PARAM_ROWS = 4
MAX_PARAMS = 18  # columns: the most parameters a rule, policy or prior may have


@njit(cache=True, _nrt=False)
def _in_sorted(sorted_hashes, h):
    i = np.searchsorted(sorted_hashes, h)
    return i < sorted_hashes.shape[0] and sorted_hashes[i] == h


@njit(cache=True, _nrt=False)
def candidate_moves(pts, meta, zobrist, seen, path_hash, depth, moves, with_pass):
    """Fill ``moves`` with the children a node gets: legal non-eye points for the side to move,
    superko-checked against ``seen`` and ``path_hash[:depth + 1]``, then PASS if ``with_pass`` or
    there is no other. Returns the count."""
    c = meta[TO_MOVE]
    w = meta[W]
    size = meta[SIZE]
    count = 0
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            if pts[COLOR, at(p)] != EMPTY or is_eye(pts, meta, p, c) or not is_legal(pts, meta, p, c):
                continue
            h = hash_after(pts, meta, zobrist, p, c)
            repeat = _in_sorted(seen, h)
            for d in range(depth + 1):
                if path_hash[d] == h:
                    repeat = True
            if not repeat:
                moves[count] = p
                count += 1
    if with_pass or count == 0:
        moves[count] = PASS
        count += 1
    return count


@njit(cache=True, _nrt=False)
def reward(score, player):
    """1 if ``player`` wins with this score (Black minus White minus komi), 1/2 for a draw, else 0."""
    if score == 0.0:
        return 0.5
    return 1.0 if (score > 0.0) == (player == BLACK) else 0.0


@njit(cache=True, _nrt=False)
def backup(ti, tf, path, depth, root_color, area, komi, amaf_color, amaf_depth, needs_amaf, shared, distance, length):
    """Credit one result, the area score ``area`` (Black's area minus White's) judged with
    ``komi``, to the nodes on ``path[:depth + 1]``, and the AMAF statistics of their children
    when ``needs_amaf``. The node at depth d was played by the root player's opponent when d is
    even (the root itself), by the root player when d is odd. In a shared tree the visits were
    counted on the way down (the virtual loss) and every sum is added atomically.

    With ``distance`` above 0 an AMAF sample of a child move first played at depth t, below a node
    at depth d in an iteration of ``length`` moves, counts ``amaf_weight`` times (Pachi's
    ``distance_rave``, ``uct/policy/ucb1amaf.c``: a move soon after the node tells more about the
    node's choice than one at the end of the playout); PASS counts 1. With 0 every sample counts
    1, as before."""
    score = area - komi
    for d in range(depth + 1):
        node = path[d]
        mover = 3 - root_color if d % 2 == 0 else root_color
        if shared:
            atomic_add(tf, WINS, node, reward(score, mover))
            atomic_add(tf, SCORE, node, area)
            atomic_add(tf, SCORE_SQ, node, area * area)
        else:
            ti[VISITS, at(node)] += 1
            tf[WINS, at(node)] += reward(score, mover)
            tf[SCORE, at(node)] += area
            tf[SCORE_SQ, at(node)] += area * area
        first, nc = children_of(ti, node, shared)
        if needs_amaf and nc > 0:
            to_move = 3 - mover  # who chooses among this node's children
            r = reward(score, to_move)
            for ch in range(first, first + nc):
                m = ti[MOVE, at(ch)]
                # every simulation ends with both players passing, so by AMAF's own definition
                # PASS was played later in every one: its AMAF mean is the node's mean. Without
                # it PASS had no AMAF sample and, under KL-UCB+RAVE, kept the whole KL bonus
                # while every other child's score was mostly its AMAF mean: it got picked early.
                if m == PASS or (amaf_color[at(m)] == to_move and amaf_depth[at(m)] >= d):
                    k = 1
                    if distance > 0.0 and m != PASS:
                        k = amaf_weight(distance, length, d, amaf_depth[at(m)])
                        if ti[AVISITS, at(ch)] > MAX_AMAF:
                            continue  # saturated: weighted counts must not wrap an int32
                    if shared:
                        atomic_add(ti, AVISITS, ch, np.int32(k))
                        atomic_add(tf, AWINS, ch, r * k)
                    else:
                        ti[AVISITS, at(ch)] += k
                        tf[AWINS, at(ch)] += r * k


@njit(cache=True, _nrt=False, inline="always")
def amaf_weight(distance, length, node_depth, first):
    """How many times an AMAF sample counts: 1 + ``distance`` (L - t) / (L - d + 1), rounded,
    for a move first played at depth t = ``first`` below a node at depth d = ``node_depth`` in an
    iteration of L = ``length`` moves: 1 + distance just after the node, 1 at the end (Pachi's
    ``distance_rave``, whose weight is the same but unrounded)."""
    span = length - node_depth + 1
    return np.int64(1.0 + distance * (length - first) / max(span, 1) + 0.5)


@njit(cache=True, _nrt=False)
def expand(tree, pts, meta, zobrist, seen, knowledge, path_hash, depth, node, moves, scratch, settings, params):
    """Give ``node`` (at ``depth``, in the position ``(pts, meta)``) its children: the candidate
    moves as one block, then the prior's initial statistics. False when the pool is full. In a
    shared tree the caller holds the node (``run_iterations``), and the block becomes its
    children only when complete (``tree.publish_children``)."""
    ti, tf, tmeta = tree
    prior = settings[PRIOR]
    shared = settings[SHARED] != 0
    count = candidate_moves(pts, meta, zobrist, seen, path_hash, depth, moves, pass_is_child(prior, pts, meta))
    first = alloc_children(ti, tf, tmeta, node, moves, count, shared)
    if first < 0:
        return False
    init_children(prior, params[PRIOR_PARAMS], knowledge, pts, meta, zobrist, ti, tf, first, count, scratch)
    if params[SCALARS, WIDEN] > 0.0:
        order_by_wins(ti, tf, first, count)
    if shared:
        publish_children(ti, node, first, count)
    return True


@njit(cache=True, _nrt=False)
def widened(visits, base, factor):
    """How many children (best first) a node with ``visits`` visits searches under progressive
    widening: 1, plus one for every k >= 1 with base (factor^k - 1) / (factor - 1) <= visits."""
    if visits < base:
        return 1
    return 1 + int(np.log(1.0 + visits * (factor - 1.0) / base) / np.log(factor) + 1e-9)


def new_workspace(npts: int, replies: np.ndarray | None = None) -> tuple:
    """The scratch arrays of one thread's ``run_iterations`` on a board of ``npts`` padded points:
    the iteration's position, the AMAF record (colour and depth), the path and its hashes, the
    move list of an expansion, the prior's scratch (a board for reading tactics, and a score a
    child: ``kernels.prior.init_children``), the last good replies (``replies``, shared by the
    threads; a stand-in that holds none when not given) and the record of an iteration's moves
    they learn from (the two before the root, the tree's, the playout's: at most 3 x npts, the
    iteration's move cap, beyond MAX_DEPTH; empty with the stand-in, so that a playout that
    teaches nothing records nothing)."""
    learns = replies is not None and replies.shape[1] > 1
    width = int(round(npts**0.5))
    return (
        np.zeros((NFIELDS, npts), dtype=np.int32),
        np.zeros(META_LEN, dtype=np.int64),
        np.zeros(npts, dtype=np.int8),
        np.full(npts, NOT_PLAYED, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(MAX_DEPTH, dtype=np.int64),
        np.zeros(npts + 1, dtype=np.int32),
        prior_scratch(npts),
        no_replies() if replies is None else replies,
        np.zeros(2 + MAX_DEPTH + 3 * npts if learns else 0, dtype=np.int64),
        learned_state(npts, width),
    )


def prior_scratch(npts: int) -> tuple:
    """The prior's scratch for a board of ``npts`` padded points (``kernels.prior.init_children``)."""
    return (np.zeros((NFIELDS, npts), dtype=np.int32), np.zeros(META_LEN, dtype=np.int64), np.zeros(npts + 1))


@njit(cache=True, _nrt=False, nogil=True)
def run_iterations(tree, root, work, settings, params, rng, n_iter):
    """Run up to ``n_iter`` iterations from the root position; returns the number run.

    Expansion: a leaf is expanded once ``settings[EXPAND_AT]`` iterations have ended at it (its
    real visits: ``tree.leaf_iterations``; a prior's virtual visits do not count), the root once
    one has (or none, with EXPAND_AT 0); one expansion per iteration. With ``settings[GROW]`` 0
    the tree no longer expands (its node limit is reached) and iterations go on below the
    leaves; with 1 the batch stops early,
    ``tmeta[FULL]`` set, when an expansion does not fit, so the caller can enlarge the pool.
    The batch also stops when the root has MAX_VISITS visits (int32 counts never wrap).
    Komi (``params[SCALARS, KOMI]``) is subtracted from the area score; ``settings[MAX_MOVES]``
    caps a whole iteration's moves.

    With ``settings[SHARED]`` 1, other threads run this kernel on the same tree at the same time
    (tree parallelism; Enzenberger and Müller 2009, "A Lock-free Multithreaded Monte-Carlo Tree
    Search Algorithm"; Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo Tree
    Search"). Nothing is locked:

    - virtual loss: a node's visit is counted as the iteration passes it on the way down, its
      reward only at the back-up, so until then it counts as a loss and other threads spread
      over other moves instead of all following the same line;
    - counts and sums are added atomically (``kernels.atomic``), so none is lost;
    - a leaf due for expansion is claimed by compare-and-swap on its ``NCHILD`` (0 to -1): a
      thread that finds it claimed ends its iteration there; the claimer takes a block of nodes
      with an atomic add on ``N_NODES``, gives the children their prior, then publishes them
      (``tree.publish_children``), and readers trust ``FIRST`` before ``NCHILD``
      (``tree.children_of``);
    - the leaf's count of iterations is lowered by compare-and-swap
      (``tree.count_leaf_iteration``) so that it can never overwrite the children's index.

    With 0 (one thread) none of this runs: the search, its speed and every seed's game are those
    of the single-threaded kernel.
    """
    ti, tf, tmeta = tree
    pts0, meta0, zobrist, seen, knowledge, owners = root
    patterns = knowledge[0]
    tables = (patterns, knowledge[2])
    with_owners = settings[OWNERSHIP] != 0
    rule = settings[RULE]
    policy = settings[POLICY]
    needs_amaf = settings[NEEDS_AMAF] != 0
    expand_at = settings[EXPAND_AT]
    max_moves = settings[MAX_MOVES]
    grow = settings[GROW] != 0
    shared = settings[SHARED] != 0
    rule_params = params[RULE_PARAMS]
    policy_params = params[POLICY_PARAMS]
    komi = params[SCALARS, KOMI]
    # the AMAF samples' weighting by distance: a parameter of the rules that read AMAF
    distance = rule_params[RAVE_DISTANCE] if (rule == RAVE or rule == KL_UCB_RAVE) else 0.0
    widen = params[SCALARS, WIDEN]
    widen_factor = params[SCALARS, WIDEN_FACTOR]
    root_explore = params[SCALARS, ROOT_EXPLORE]
    pts, meta, amaf_color, amaf_depth, path, path_hash, moves, scratch, replies, seq, learned = work
    learn = settings[LEARN_REPLIES] != 0 and replies.shape[1] > 1  # never into a stand-in table
    npts = pts0.shape[1]
    root_color = meta0[TO_MOVE]
    done = 0
    while done < n_iter and ti[VISITS, 0] < MAX_VISITS:
        copy_state(pts0, meta0, pts, meta)
        if needs_amaf:
            # amaf_depth is read only where amaf_color is set, which sets it too: no reset needed
            for p in range(npts):
                amaf_color[at(p)] = 0
        node = np.int64(0)
        depth = np.int64(0)
        path[0] = 0
        path_hash[0] = meta[HASH]
        if shared:
            atomic_add(ti, VISITS, 0, np.int32(1))  # the virtual loss: visits count on the way down
        expanded = False
        stop = False
        while depth < MAX_DEPTH - 1:
            first, nc = children_of(ti, node, shared)
            if nc == 0:
                reached = count_leaf_iteration(ti, node, shared)  # before this one
                if reached < 0:
                    continue  # another thread has just given it children: descend into them
                # the root waits for one iteration at most: its children are what a search is for,
                # and a budget below expand_at would otherwise end with none (a pass on an empty board)
                if expanded or meta[PASSES] >= 2 or reached < (expand_at if node != 0 else min(expand_at, 1)):
                    break
                if shared and atomic_cas(ti, NCHILD, node, np.int32(0), np.int32(-1)) != 0:
                    break  # another thread is expanding it: this iteration ends at the leaf
                if not expand(
                    tree, pts, meta, zobrist, seen, knowledge, path_hash, depth, node, moves, scratch, settings, params
                ):
                    if shared:
                        ti[NCHILD, at(node)] = 0  # let go of the node
                    if grow:  # this iteration is abandoned (the pool grows), not ended here
                        if shared:
                            atomic_add(ti, FIRST, node, np.int32(1))
                        else:
                            ti[FIRST, at(node)] += 1
                    stop = grow
                    break
                expanded = True
                first, nc = children_of(ti, node, shared)
            if widen > 0.0:
                nc = min(nc, widened(np.float64(ti[VISITS, at(node)]), widen, widen_factor))
            t = np.float64(ti[VISITS, at(node)])
            if node == 0 and root_explore > 0.0:
                child = select_wide(
                    rule, rule_params, tf[WINS], ti[VISITS], t, tf[AWINS], ti[AVISITS], first, first + nc, rng,
                    root_explore,
                )  # fmt: skip
            else:
                child = select_best(
                    rule, rule_params, tf[WINS], ti[VISITS], t, tf[AWINS], ti[AVISITS], first, first + nc, rng
                )
            if shared:
                atomic_add(ti, VISITS, child, np.int32(1))
            apply_move(
                pts, meta, zobrist, ti[MOVE, at(child)], meta[TO_MOVE], amaf_color, amaf_depth, depth, needs_amaf
            )
            depth += 1
            path[depth] = child
            path_hash[depth] = meta[HASH]
            node = child
        if stop:
            if shared:  # the iteration is abandoned: take back its visits
                for d in range(depth + 1):
                    atomic_add(ti, VISITS, path[d], np.int32(-1))
            break
        area, played = playout(
            pts,
            meta,
            zobrist,
            rng,
            policy,
            policy_params,
            tables,
            max_moves - depth,
            amaf_color,
            amaf_depth,
            depth,
            needs_amaf,
            (replies, seq, depth + 2, learned),
        )
        backup(
            ti, tf, path, depth, root_color, area, komi, amaf_color, amaf_depth, needs_amaf, shared, distance,
            depth + played,
        )  # fmt: skip
        if learn and area != komi:
            # the two moves before the root, then the tree's (the playout wrote its own after them)
            seq[0] = meta0[LAST_MOVE2]
            seq[1] = meta0[LAST_MOVE]
            for d in range(1, depth + 1):
                seq[at(d + 1)] = ti[MOVE, at(path[d])]
            n = min(depth + 2 + played, seq.shape[0])
            learn_replies(replies, seq, n, root_color, area > komi)
        if with_owners:
            add_owners(pts, meta, owners)
        done += 1
    return done


@njit(cache=True, _nrt=False)
def add_owners(pts, meta, owners):
    """Add the owners of a finished playout's points into ``owners``: row 0 gets +1 where Black
    owns the point and -1 where White does, row 1 gets 1 where either does (Tromp-Taylor area
    ownership: a stone, or an empty region touching one colour only; ``board.area_score``, which
    ends every playout, leaves each empty point's owner in ``MARK``). Row 1 gives the spread:
    over n playouts the variance of a point's owner is row1/n - (row0/n)^2."""
    w = meta[W]
    size = meta[SIZE]
    for r in range(1, size + 1):
        for col in range(1, size + 1):
            p = r * w + col
            cp = pts[COLOR, at(p)]
            if cp == EMPTY:
                cp = pts[MARK, at(p)] & 3
            if cp == BLACK:
                owners[0, at(p)] += 1.0
                owners[1, at(p)] += 1.0
            elif cp == WHITE:
                owners[0, at(p)] -= 1.0
                owners[1, at(p)] += 1.0


@njit(cache=True)
def owner_counts(pts0, meta0, zobrist, rng, policy, params, tables, n_playouts, max_moves, owners):
    """Run ``n_playouts`` playouts of policy ``policy`` (``playout.playout``'s arguments) from the
    position and add their final owners into ``owners`` (``add_owners``): for dead-stone
    judgement, and the ownership map of a position that was not searched."""
    pts = np.empty_like(pts0)
    meta = np.empty_like(meta0)
    stand_ins = outside_search(pts0.shape[1], meta0[W])
    for _ in range(n_playouts):
        copy_state(pts0, meta0, pts, meta)
        # judged as if play went on: at the end of a game (two passes, when final_score is asked)
        # a playout that starts with the pass count would stop at once and judge nothing dead
        meta[PASSES] = 0
        playout_outside_search(pts, meta, zobrist, rng, policy, params, tables, max_moves, stand_ins)
        add_owners(pts, meta, owners)
    return n_playouts
