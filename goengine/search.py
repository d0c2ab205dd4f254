"""Search: owns the trees and their RNGs, spends the budget it is given, and hands back what it
found as one ``SearchResult`` (``goengine.result``, which reads the trees).

Reading guide: ``Search.run`` takes a ``config.SearchRequest`` (the budget, the streamed reports'
callback and interval, the stop test, the extra komi, what the result holds), re-roots the
trees on the position (``_reroot``), runs batches of iterations on every thread (``_run_thread``,
which calls ``kernels.search.run_iterations``) until the budget is spent, and has
``result.TreeReader`` read the trees into an immutable ``SearchResult``, at the end and for each
report, with the other threads held meanwhile (``_Gate``), so every figure of a result is of
one moment. That result is all a client ever sees: the engine, the front-ends and the scripts
read it, never the trees. The search decides nothing: which move to play (the most visited, a
pass, a resignation) is the engine's decision (``Engine.decide``), and the budget is the engine's
too (the settings and the clock). ``configure`` takes new settings, keeping the trees when the
change allows it (``SearchConfig.keeps_trees_of``). The research players, which play without a search,
are ``goengine.research_players``.

The kernels get the configuration as two arrays built once (``KernelSettings``): the integer
settings (rule, playout policy and prior ids, expansion threshold, ...) and the parameter rows
of the rule, the policy and the prior (``kernels.search`` names the slots).

Threads (``goengine.parallel``): with ``threads = T`` and ``parallel = tree``, T threads search
one tree at once (the kernel releases the GIL; ``kernels.search.run_iterations`` says how they
share it), each with its own random stream (seed ``seed + k``); the tree has the whole memory
budget, and when it must grow every thread stops after its batch, the pool doubles, and they go
on. With ``parallel = root`` there are T independent trees, each with its own stream, searched
at once and merged at the root by summing each move's visits and wins. Either way the playout
budget is split evenly between the threads. With one thread, the same seed, position and
budget give the same move and statistics.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from goengine import mogo3x3, movemodel, playout_model, policies, priors, selection
from goengine.board import PASS, ZOBRIST, Board
from goengine.config import CHOSEN, SearchConfig, SearchRequest
from goengine.kernels import board as kb
from goengine.kernels import policy as kpolicy
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt
from goengine.kernels.replies import new_replies, no_replies
from goengine.kernels.rng import new_state
from goengine.result import SearchResult, TreeReader

INITIAL_NODES = 1 << 15
OWNERSHIP_PLAYOUTS = 1000  # playouts of an ownership map that no search counted
MOGO3X3 = mogo3x3.table()  # MoGo's 3x3 pattern table, the heavy policy and the priors read


@dataclass(frozen=True)
class _SearchJob:
    """What every thread of one search shares: the root position (its board, its metadata with
    at most one pass counting, the positions seen before it for superko), the game's komi, the
    most moves a playout may make, when to stop, and the request (``config.SearchRequest``: the
    callback and its interval, the stop test, the extra komi, what the result holds)."""

    board: Board
    root_meta: np.ndarray
    komi: float
    seen: np.ndarray
    max_moves: np.int64
    deadline: float
    request: SearchRequest
    # each thread's iterations so far, and the arrays its owners go into (a tree's own, or in a
    # shared tree one of the others' own): read by a report while the threads are held
    done: list
    owners: list


def learned_playouts(kernel: KernelSettings) -> tuple:
    """The learned playout policy's model arrays at the policy's temperature, loaded only when
    ``kernel`` plays that policy (``playout_model.no_model_arrays`` otherwise)."""
    if kernel.settings[ksearch.POLICY] != kpolicy.LEARNED:
        return playout_model.no_model_arrays()
    temperature = float(kernel.params[ksearch.POLICY_PARAMS, kpolicy.LEARNED_TEMPERATURE])
    return playout_model.shipped().tempered(temperature)


@dataclass(frozen=True)
class KernelSettings:
    """A ``SearchConfig`` as the kernels take it: ``settings`` (int64, ``kernels.search``'s slots
    RULE, POLICY, PRIOR, NEEDS_AMAF, EXPAND_AT, MAX_MOVES, GROW) and ``params`` (float64 rows
    RULE_PARAMS, POLICY_PARAMS, PRIOR_PARAMS and SCALARS: komi, the widening schedule). The
    per-position fields (MAX_MOVES, GROW, KOMI) are filled in by ``for_position``."""

    settings: np.ndarray
    params: np.ndarray

    @classmethod
    def of(cls, config: SearchConfig) -> KernelSettings:
        settings = np.zeros(ksearch.N_SETTINGS, dtype=np.int64)
        params = np.zeros((ksearch.N_PARAM_ROWS, ksearch.MAX_PARAMS), dtype=np.float64)
        rows = {"rule": ksearch.RULE_PARAMS, "playout": ksearch.POLICY_PARAMS, "prior": ksearch.PRIOR_PARAMS}
        slots = {"rule": ksearch.RULE, "playout": ksearch.POLICY, "prior": ksearch.PRIOR}
        for chosen in CHOSEN:
            if chosen.field not in slots:
                continue  # chosen in Python (the dynamic komi), not in the kernels
            name = getattr(config, chosen.field)
            settings[slots[chosen.field]] = chosen.registry[name].id
            params[rows[chosen.field]] = chosen.registry.array(name, config.params_of(chosen.field))
        settings[ksearch.NEEDS_AMAF] = int(selection.get(config.rule).needs_amaf)
        settings[ksearch.LEARN_REPLIES] = int(policies.learns_replies(config.playout, config.playout_params))
        settings[ksearch.EXPAND_AT] = config.expand_at
        params[ksearch.SCALARS, ksearch.WIDEN] = config.widen
        params[ksearch.SCALARS, ksearch.WIDEN_FACTOR] = config.widen_factor
        return cls(settings, params)

    def for_position(self, komi: float, max_moves: int, grow: bool) -> tuple[np.ndarray, np.ndarray]:
        """Copies of both arrays with the fields of one position and tree filled in."""
        settings, params = self.settings.copy(), self.params.copy()
        settings[ksearch.MAX_MOVES] = max_moves
        settings[ksearch.GROW] = int(grow)
        params[ksearch.SCALARS, ksearch.KOMI] = komi
        return settings, params


class Tree:
    """One tree with its RNG: the kernel arrays, grown on demand up to ``max_nodes``.

    Memory: ``max_nodes`` is this tree's share of ``max_memory_mb``: all of it for the one tree
    of a single thread or of tree parallelism, an even share a tree with root parallelism. The
    arrays are reserved for ``max_nodes`` at once, as fresh zero pages of which only the columns
    written take memory; the pool may hold INITIAL_NODES at first and doubles its capacity
    (``kt.CAPACITY``) when an expansion does not fit, up to ``max_nodes``, without copying
    anything (it once copied into arrays twice the size: at the last doubling half the budget
    more was held for a moment). Re-rooting copies the kept subtree into fresh arrays, at most
    as many nodes as fit beside the old tree within ``max_nodes`` (``keep_subtree``): the node
    arrays never hold more than ``max_memory_mb``.

    ``owners`` (``kernels.search.add_owners``) adds up who owned each point at the end of the
    ``owner_iterations`` iterations run from the root position with ownership asked for; both
    start again at zero when the root position changes (the nodes keep no ownership, so a kept
    subtree brings none)."""

    def __init__(self, max_nodes: int, seed: int, root_move: int = PASS):
        self.max_nodes = max_nodes
        self.rng = new_state(seed)
        self.reset(root_move)
        self.owners = np.zeros((2, 0), dtype=np.float64)
        self.owner_iterations = 0

    def reset_owners(self, npts: int) -> None:
        self.owners = np.zeros((2, npts), dtype=np.float64)
        self.owner_iterations = 0

    @property
    def nodes(self) -> int:
        return int(self.tmeta[kt.N_NODES])

    def reset(self, root_move: int) -> None:
        self.ti = self.tf = None  # the old arrays go before the new are reserved
        try:
            self.ti, self.tf, self.tmeta = kt.new_tree(min(INITIAL_NODES, self.max_nodes), root_move, self.max_nodes)
        except MemoryError:
            megabytes = self.max_nodes * kt.BYTES_PER_NODE / 2**20
            raise ValueError(
                f"cannot reserve {megabytes:.0f} MB for a search tree (max_memory_mb): not on this machine"
            ) from None

    def can_grow(self) -> bool:
        return int(self.tmeta[kt.CAPACITY]) < self.max_nodes

    def grow(self) -> None:
        """Double the pool's capacity (at most to ``max_nodes``): every node stays where it is,
        and the arrays are those reserved already."""
        self.tmeta[kt.CAPACITY] = min(self.max_nodes, 2 * int(self.tmeta[kt.CAPACITY]))
        self.tmeta[kt.FULL] = 0

    def child(self, node: int, move: int) -> int:
        """The child of ``node`` reached by ``move``, or -1."""
        first, count = int(self.ti[kt.FIRST, node]), int(self.ti[kt.NCHILD, node])
        for ch in range(first, first + count):
            if self.ti[kt.MOVE, ch] == move:
                return ch
        return -1

    def keep_subtree(self, node: int) -> None:
        """Make ``node`` the root, dropping everything else (a compact copy, of the pool's
        capacity). While it is made, the old nodes and the copy are held together, so the copy
        takes at most the nodes that fit beside the old ones within ``max_nodes``, its queue (8
        bytes a node) counted: a tree that filled its budget keeps less of its subtree, or none."""
        if node == 0:
            return
        capacity = int(self.tmeta[kt.CAPACITY])
        room = (self.max_nodes - self.nodes) * kt.BYTES_PER_NODE // (kt.BYTES_PER_NODE + 8)
        ti, tf, tmeta = kt.new_tree(capacity, PASS, self.max_nodes)
        kt.copy_subtree(self.ti, self.tf, np.int64(node), ti, tf, tmeta, np.int64(max(1, room)))
        self.ti, self.tf, self.tmeta = ti, tf, tmeta

    def children(self, node: int = 0) -> range:
        first = int(self.ti[kt.FIRST, node])
        return range(first, first + int(self.ti[kt.NCHILD, node])) if first >= 0 else range(0)


class _Gate:
    """Where a report holds a search's other threads (``snapshot``): a thread that does not report
    calls ``hold`` after each batch, and waits there while a report reads the trees; a thread that
    stops searching ``leave``s, so no report waits for it. ``open(threads)`` before each round of
    batches."""

    def __init__(self):
        self._lock = threading.Condition()
        self._holding = False  # a report wants the other threads held
        self._held = 0  # threads held now
        self._active = 0  # threads still searching

    def open(self, threads: int) -> None:
        self._active = threads

    def leave(self) -> None:
        with self._lock:
            self._active -= 1
            self._lock.notify_all()

    def hold(self) -> None:
        if not self._holding:
            return
        with self._lock:
            self._held += 1
            self._lock.notify_all()
            while self._holding:
                self._lock.wait()
            self._held -= 1

    def snapshot(self, read: Callable[[], SearchResult]) -> SearchResult:
        """``read()`` while every other active thread is held at the end of its batch (a few
        milliseconds at most), then let them go."""
        with self._lock:
            self._holding = True
            while self._held < self._active - 1:
                self._lock.wait()
        try:
            return read()
        finally:
            with self._lock:
                self._holding = False
                self._lock.notify_all()


def kept_node(tree: Tree, old_moves: tuple, old_to_move: int, moves: tuple, to_move: int) -> int:
    """The node of ``tree`` to keep as the root after the moves played since its root (``moves``
    beyond ``old_moves``, the root's, where ``old_to_move`` was to move), or -1 when none can be:
    the tree alternates colours, so the new moves must alternate from the side that was to move (a
    same-colour sequence, set-up stones, breaks it), each must be a child, and the side to move at
    the node must be ``to_move`` (two genmoves of one colour in a row would otherwise play the
    other side's moves for it)."""
    node = 0
    color = 3 - old_to_move
    for c, m in moves[len(old_moves) :]:
        if c == color:
            return -1
        color = c
        node = tree.child(node, m)
        if node < 0:
            return -1
    return node if 3 - color == to_move else -1


def keep_owners(trees: list[Tree], job: _SearchJob, shared: bool) -> None:
    """A finished search's owners become the trees' own: each thread's counts and iterations added
    to its tree's (in a shared tree, all of them to the one tree)."""
    if shared:
        trees[0].owner_iterations += sum(job.done)
        for extra in job.owners[1:]:
            trees[0].owners += extra
    else:
        for tree, n in zip(trees, job.done, strict=True):
            tree.owner_iterations += n


def root_ownership(trees: list[Tree], running: _SearchJob | None, shared: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """For every padded point, the mean owner at the end of the iterations searched from the root
    position with ``ownership`` asked for (+1 Black, -1 White, 0 neither; summed over the trees),
    and its standard deviation; None when there were none. ``running``: a search under way, whose
    owners are not yet the trees' (its threads held: ``_Gate.snapshot``)."""
    n = sum(tree.owner_iterations for tree in trees)
    total = sum(tree.owners for tree in trees)
    if running is not None and running.request.ownership:
        n += sum(running.done)
        if shared:
            total = total + sum(running.owners[1:])
    if n == 0:
        return None
    mean = total[0] / n
    return mean, np.sqrt(np.maximum(total[1] / n - mean * mean, 0.0))


class Search:
    """A UCT search with the selection rule, playout policy and prior of ``config``."""

    def __init__(self, config: SearchConfig | None = None):
        self.config = config or SearchConfig()
        self._position: tuple | None = None  # (size, komi, moves, first hash, to move) of the roots
        self.reader: TreeReader | None = None  # the trees of the running (or last) search's root
        self._run_visits = 0  # the root's visits when the running (or last) search began
        self._stopping = False  # set once the request's stop test says so: every thread ends its batch
        self._pool: ThreadPoolExecutor | None = None
        self._gate = _Gate()  # a report's snapshot: the reporting thread holds the others
        self._build()

    def _build(self) -> None:
        """Fresh trees, thread pool and kernel settings for ``self.config``."""
        self.close()
        config = self.config
        self.kernel = KernelSettings.of(config)
        # the learned move model's arrays, loaded only for the prior that reads them
        needs_model = priors.PRIORS[config.prior].needs_move_model
        model = movemodel.shipped().arrays if needs_model else movemodel.empty_arrays()
        self.knowledge = (MOGO3X3, model, learned_playouts(self.kernel))
        self.shared = config.threads > 1 and config.trees == 1
        max_nodes = int(config.max_memory_mb * 2**20 / (kt.BYTES_PER_NODE * config.trees))
        self.trees = [Tree(max_nodes, config.seed + k) for k in range(config.trees)]
        # each thread's random stream: its tree's own, or in a shared tree, thread k's seed + k
        self._rngs = [t.rng for t in self.trees]
        if self.shared:
            self._rngs += [new_state(config.seed + k) for k in range(1, config.threads)]
        self._pool = ThreadPoolExecutor(max_workers=config.threads) if config.threads > 1 else None
        # the playouts' last good replies, one table for all threads (kernels.replies), of the
        # board width ``_replies_width`` (its points' indices depend on it)
        self._replies = new_replies() if self.kernel.settings[ksearch.LEARN_REPLIES] else no_replies()
        self._replies_width = 0
        self._position = None
        self.reader = None

    def reset(self) -> None:
        """Fresh trees and random streams, seeded as a new search's: the next search depends on
        its position and the settings alone, not on the searches before it (``clear`` keeps the
        random streams where they are)."""
        self._build()

    def clear(self) -> None:
        """Forget what earlier searches found: the next one starts from fresh trees (and, with
        last good replies on, an empty reply table), as after a new game."""
        self._position = None
        self.reader = None
        self._replies_width = 0

    def configure(self, config: SearchConfig) -> None:
        """Search with ``config`` from now on. The trees are kept when the change leaves them valid
        (``SearchConfig.keeps_trees_of``); otherwise they start afresh."""
        keep = config.keeps_trees_of(self.config)
        self.config = config
        if not keep:
            self._build()

    def describe(self) -> str:
        """The rule, policy and prior with their parameters, the seed, and the trees' size."""
        config = self.config
        nodes = self.trees[0].max_nodes
        if self.shared:
            trees = f"{config.threads} threads on one tree of up to {nodes:,} nodes"
        else:
            trees = f"{config.threads} tree{'s' if config.threads > 1 else ''} of up to {nodes:,} nodes"
        return f"{config.describe()}, seed {config.seed}; {trees} ({config.max_memory_mb:g} MB)"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    # ---- the search

    def run(self, board: Board, komi: float, request: SearchRequest) -> SearchResult:
        """Search the position for the side to move until ``request.budget`` is spent (its playouts
        or its seconds, whichever runs out first; at least one batch of iterations when it allows
        any), and return what it found (``SearchResult``, read by ``result.TreeReader`` from one
        snapshot of the trees). The playouts are judged with ``komi + request.extra_komi`` (the
        dynamic komi, ``goengine.dynkomi``); the trees are kept from search to search when only
        the extra komi changed, as Pachi keeps them, and the scores they sum count no komi at all
        (``kernels.tree``'s SCORE).

        ``request.callback(result)`` is called about every ``request.interval`` seconds with a
        result of the search so far (streamed analysis), the other threads held meanwhile
        (``_Gate.snapshot``); ``request.should_stop()``, asked after every batch of iterations, ends
        the search when it says so. With ``request.ownership`` the iterations also count who owns
        each point at their end and the result holds the ownership map; that costs a pass over
        the board an iteration, so only analysis asks for it. With ``request.pv_visits`` each
        move's figures hold the visits along its principal variation (``result.MoveStats.pv_visits``: a
        prior's recomputation a move of it)."""
        budget = request.budget
        playouts, seconds = budget.playouts, budget.seconds
        self._stopping = False
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else math.inf
        self._reroot(board, komi)
        seen = board.seen_hashes()
        # a controller may ask for a move after two passes (GTP leaves ending the game to it):
        # play on, with only the last pass counting, or the root would be a finished game
        root_meta = board.meta.copy()
        root_meta[kb.PASSES] = min(root_meta[kb.PASSES], 1)
        needs_model = priors.PRIORS[self.config.prior].needs_move_model
        root = (board.pts.copy(), root_meta)
        self.reader = TreeReader(self.trees, root, self.kernel, self.knowledge, self.shared, needs_model)
        if self._replies_width != board.size + 2:
            self._replies.fill(PASS)
            self._replies_width = board.size + 2
        max_moves = np.int64(3 * board.size * board.size)
        threads = len(self._rngs)
        shares = [None] * threads
        if playouts is not None:
            shares = [playouts // threads + (1 if k < playouts % threads else 0) for k in range(threads)]
        before = self._run_visits = self.reader.root_visits()
        trees = [self.trees[0 if self.shared else k] for k in range(threads)]
        # who owns each point at the iterations' ends: into each tree's own array, and in a
        # shared tree the other threads' into arrays of their own, added in afterwards
        owners = [t.owners for t in self.trees]
        if self.shared:
            owners += [np.zeros_like(owners[0]) for _ in range(threads - 1)]
        done = [0] * threads
        job = _SearchJob(board, root_meta, komi, seen, max_moves, deadline, request, done, owners)

        def work(k: int) -> None:
            share = None if shares[k] is None else shares[k] - done[k]
            try:
                self._run_thread(job, k, trees[k], share, start, before)
            finally:
                self._gate.leave()  # no longer searching: a report's snapshot does not wait for it

        while True:
            self._gate.open(threads)
            if self._pool is None:
                work(0)
            else:
                for future in [self._pool.submit(work, k) for k in range(threads)]:
                    future.result()
            tree = self.trees[0]
            # a shared tree grows between batches, when every thread has stopped
            if not (self.shared and tree.tmeta[kt.FULL] and tree.can_grow()) or self._stopping:
                break
            if request.should_stop is not None and request.should_stop():
                break  # a stop that came while the threads ended their batches for the pool to grow
            spent = all(s is not None and d >= s for s, d in zip(shares, done, strict=True))
            if spent or time.perf_counter() >= deadline:
                break
            tree.grow()
        if request.ownership:
            keep_owners(self.trees, job, self.shared)
        return self._result(None, job, start, before)

    def _result(self, running: _SearchJob | None, job: _SearchJob, start: float, before: int) -> SearchResult:
        """The trees now as one ``SearchResult`` (``TreeReader.result``), called only while no
        thread changes them: for a report, ``running`` is the job, whose owners are not yet the
        trees'; None once the search is over. The ownership map (when the request asked for it) is
        the owners counted by the searches from this position; in a search's final result, when
        none were counted (nothing was searched, e.g. a finished game), it comes from
        OWNERSHIP_PLAYOUTS playouts of the search's policy instead."""
        ownership = None
        if job.request.ownership:
            found = root_ownership(self.trees, running, self.shared)
            if found is None and running is None:
                counts = self.owner_counts(job.board, OWNERSHIP_PLAYOUTS, self.config.seed, spread=True)
                mean = counts[0] / OWNERSHIP_PLAYOUTS
                found = mean, np.sqrt(np.maximum(counts[1] / OWNERSHIP_PLAYOUTS - mean * mean, 0.0))
            if found is not None:
                ownership = tuple(a.copy() for a in found)
                for a in ownership:
                    a.flags.writeable = False
        result = self.reader.result(
            job.board.to_move,
            job.komi,
            job.request.extra_komi,
            self.reader.root_visits() - before,
            time.perf_counter() - start,
            job.request.pv_visits,
            ownership,
        )
        return replace(result, size=job.board.size, moves_played=len(job.board.moves))

    def _run_thread(self, job: _SearchJob, k: int, tree, share, start: float, before: int) -> None:
        """Thread ``k``'s batches of iterations of ``job`` on ``tree`` with its own random stream,
        counting who owns each point into its array of ``job.owners`` and its iterations into
        ``job.done[k]``, until ``share`` more iterations are run (``None``: until the deadline),
        the request's stop test says so, or (in a shared tree) the pool must grow.
        Thread 0 asks the request's stop test and calls its callback (with a result of the search
        since ``start``, whose root had ``before`` visits); the others wait for it at the end of
        a batch while it reads the trees (``_Gate.hold``)."""
        request = job.request
        reports = k == 0
        rng = self._rngs[k]
        ran_here = 0
        next_report = time.perf_counter() + request.interval
        batch = max(1, int(self.config.batch))
        board = job.board
        if board.size > 13:
            batch = max(1, batch // 4)  # keep a batch to a few milliseconds for time control
        settings, params = self.kernel.for_position(job.komi + request.extra_komi, job.max_moves, True)
        params[ksearch.SCALARS, ksearch.ROOT_EXPLORE] = request.root_explore or 0.0
        settings[ksearch.OWNERSHIP] = int(request.ownership)
        settings[ksearch.SHARED] = int(self.shared)
        work = ksearch.new_workspace(board.pts.shape[1], self._replies)
        while not self._stopping:
            n = batch if share is None else min(batch, share - ran_here)
            if n <= 0 or (ran_here > 0 and time.perf_counter() >= job.deadline):  # one batch at least
                break
            settings[ksearch.GROW] = tree.can_grow()
            ran = ksearch.run_iterations(
                (tree.ti, tree.tf, tree.tmeta),
                (board.pts, job.root_meta, ZOBRIST, job.seen, self.knowledge, job.owners[k]),
                work,
                settings,
                params,
                rng,
                np.int64(n),
            )
            ran_here += ran
            job.done[k] += ran
            # asked before the pool grows: a search told to stop grows nothing and runs no more
            if reports and request.should_stop is not None and request.should_stop():
                self._stopping = True
            if tree.tmeta[kt.FULL] and tree.can_grow() and not self._stopping:
                if self.shared:
                    break  # Search.run grows the pool once every thread has stopped
                tree.grow()
            elif ran == 0:
                break  # the root has MAX_VISITS visits: its counts must not wrap
            if not reports:
                self._gate.hold()
                continue
            if request.callback is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + request.interval
                request.callback(self._gate.snapshot(lambda: self._result(job, job, start, before)))

    def _reroot(self, board: Board, komi: float) -> None:
        """Keep, in every tree, the subtree under the moves played since the last search; start
        afresh when the game is another one (size, komi, or an earlier move differs)."""
        moves = tuple(board.moves)
        last = moves[-1][1] if moves else PASS
        old = self._position
        self._position = (board.size, komi, moves, board.history[0], board.to_move)
        for tree in self.trees:
            if self._position != old or tree.owners.shape[1] != board.pts.shape[1]:  # or fresh trees
                tree.reset_owners(board.pts.shape[1])
        fresh = (
            not self.config.reuse_tree
            or old is None
            or old[:2] != (board.size, komi)
            or old[3] != board.history[0]  # another starting position (handicap, set-up)
            or moves[: len(old[2])] != old[2]
            or (moves == old[2] and old[4] != board.to_move)  # the same position, the other side
        )
        for tree in self.trees:
            node = -1 if fresh else kept_node(tree, old[2], old[4], moves, board.to_move)
            if node < 0:
                tree.reset(last)
            else:
                tree.keep_subtree(node)

    def owner_counts(self, board: Board, playouts: int, seed: int, spread: bool = False) -> np.ndarray:
        """For every padded point, how many of ``playouts`` playouts (of this search's policy)
        from the position ended with Black owning it, minus those with White owning it; with
        ``spread``, a second row of how many ended with either owning it."""
        counts = np.zeros((2, board.pts.shape[1]), dtype=np.float64)
        ksearch.owner_counts(
            board.pts,
            board.meta,
            ZOBRIST,
            new_state(seed),
            self.kernel.settings[ksearch.POLICY],
            self.kernel.params[ksearch.POLICY_PARAMS],
            (MOGO3X3, self.knowledge[2]),
            np.int64(playouts),
            np.int64(3 * board.size * board.size),
            counts,
        )
        return counts if spread else counts[0]

    # ---- read while the search runs

    def root_leaders(self) -> tuple[tuple[int, float], tuple[int, float], int]:
        """The searched visits and win rate of the root's most visited move and of the runner-up
        ((0, 0.0) when there is none), and the playouts of the running (or last) search: what a
        clock's stop rule reads (``time_control.StopRule``), asked while the search runs."""
        if self.reader is None:
            return (0, 0.0), (0, 0.0), 0
        stats = self.reader.root_stats()
        leaders = [(s.visits, s.winrate) for s in stats[:2]] + [(0, 0.0)] * 2
        return leaders[0], leaders[1], self.reader.root_visits() - self._run_visits
