"""Search: owns the trees and their RNGs, spends the budget it is given, and reports what it found.

Reading guide: ``Search.run`` re-roots the trees on the position (``_reroot``), runs batches of
iterations on every thread (``_run_thread``, which calls ``kernels.search.run_iterations``) until
the ``Budget`` is spent, and reads the trees once into an immutable ``SearchResult``
(``_result``): each root move's visits, win rate, score lead, prior share, lower confidence
bound and principal variation, the root's figures, and the ownership map when asked for. That
result is all a client ever sees: the engine, the GTP analysis formats and the scripts read it,
never the trees. The search decides nothing: which move to play (the most visited, a pass, a
resignation) is the engine's decision (``Engine.decide``), and the budget is the engine's too
(the settings and the clock). ``configure`` takes new settings, keeping the trees when only the
budget or the resignation rule changed.

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

import dataclasses
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from goengine import mogo3x3, movemodel, policies, priors, rules
from goengine.board import BLACK, PASS, ZOBRIST, Board
from goengine.config import CHOSEN, Budget, SearchConfig
from goengine.kernels import board as kb
from goengine.kernels import policy as kpolicy
from goengine.kernels import prior as kprior
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt
from goengine.kernels.replies import new_replies, no_replies
from goengine.kernels.rng import new_state

INITIAL_NODES = 1 << 15
OWNERSHIP_PLAYOUTS = 1000  # playouts of an ownership map that no search counted
MOGO3X3 = mogo3x3.table()  # MoGo's 3x3 pattern table, the heavy policy and the priors read


PV_LENGTH = 20  # moves of each principal variation a result holds


@dataclass(frozen=True)
class MoveStats:
    """One root move after a search: the ``visits`` and ``wins`` searched (the prior's virtual
    ones not included), the sum of the area scores its iterations ended with (``area_sum``:
    Black's area minus White's, no komi), the AMAF figures, the prior's virtual visits and wins,
    its share of the prior knowledge (``prior``: ``Search.root_policy``), the score lead after it
    for the side to move (``score_lead``: the mean area less the game's komi, signed for that
    side), its principal variation (``pv``: the move, then the most visited line under it) and,
    when the search was asked for them, the searched visits of each position along it
    (``pv_visits``: ``Search.pv_visits``; empty otherwise)."""

    move: int
    visits: int
    wins: float
    area_sum: float = 0.0
    amaf_visits: int = 0
    amaf_wins: float = 0.0
    prior_visits: int = 0
    prior_wins: float = 0.0
    prior: float = 0.0
    score_lead: float = 0.0
    pv: tuple[int, ...] = ()
    pv_visits: tuple[int, ...] = ()

    @property
    def winrate(self) -> float:
        """The win rate searched, for the side to move (0 unsearched)."""
        return self.wins / self.visits if self.visits else 0.0

    @property
    def mean_area(self) -> float:
        """The mean area score after the move (Black's area minus White's, no komi), 0 unsearched."""
        return self.area_sum / self.visits if self.visits else 0.0

    @property
    def lcb(self) -> float:
        """The lower bound of the win rate's 95 % normal interval, ``w - 1.96 sqrt(w (1 - w) / n)``
        (at least 0; the variance at least 1e-9, so a move that always won or lost still gets a
        bound below its rate): Leela Zero's ``lcb`` field."""
        if not self.visits:
            return 0.0
        wr = self.winrate
        return max(0.0, wr - 1.96 * math.sqrt(max(wr * (1 - wr), 1e-9) / self.visits))


@dataclass(frozen=True)
class SearchResult:
    """What one search found, read once from one snapshot of its trees (``Search.run``): every
    client of an analysis formats this and reads nothing else.

    ``color`` searched (every figure is from its side) against the game's ``komi``, with the
    playouts judged against ``komi + extra_komi`` (the dynamic komi); ``stats``, the root's
    moves most visited first (``MoveStats``: visits, win rate, score lead, prior share, lower
    confidence bound, principal variation); ``pv``, the most visited line from the root; what was
    spent (``playouts``, ``seconds``, tree ``nodes``); and when the search was asked for it, the
    ``ownership`` map (for every padded point, the mean owner at the iterations' ends, +1 Black,
    -1 White) with its standard deviation ``ownership_stdev`` (read-only arrays).
    ``parent_visits`` is the first tree's root count, the parent's visits the selection rules
    saw at the root (a research script's figure: ``scripts/root_choices.py``)."""

    color: int = 1
    komi: float = 0.0
    stats: tuple[MoveStats, ...] = ()
    pv: tuple[int, ...] = ()
    playouts: int = 0
    seconds: float = 0.0
    nodes: int = 0
    extra_komi: float = 0.0
    ownership: np.ndarray | None = None
    ownership_stdev: np.ndarray | None = None
    parent_visits: int = 0

    @property
    def best(self) -> MoveStats | None:
        """The most visited move, or None when no move was searched."""
        return self.stats[0] if self.stats and self.stats[0].visits > 0 else None

    @property
    def visits(self) -> int:
        """The root's searched visits, summed over its moves."""
        return sum(s.visits for s in self.stats)

    @property
    def winrate(self) -> float:
        """The most visited move's win rate for the side to move (0.5 when nothing was searched)."""
        return self.best.winrate if self.best is not None else 0.5

    @property
    def root_winrate(self) -> float:
        """The win rate for the side to move over every searched visit of the root's moves (what
        KataGo's ``rootInfo`` reports; 0.5 when nothing was searched)."""
        visits = self.visits
        return sum(s.wins for s in self.stats) / visits if visits else 0.5

    @property
    def mean_area(self) -> float:
        """The mean area score (Black's area minus White's, no komi) over every searched visit of
        the root's moves; 0 when nothing was searched."""
        visits = self.visits
        return sum(s.area_sum for s in self.stats) / visits if visits else 0.0

    @property
    def score_lead(self) -> float:
        """The root's score lead for the side to move: ``mean_area`` less the game's komi, signed
        for that side (KataGo's ``scoreLead`` of ``rootInfo``)."""
        return (1.0 if self.color == BLACK else -1.0) * (self.mean_area - self.komi)


@dataclass(frozen=True)
class _SearchJob:
    """What every thread of one search shares: the root position (its board, its metadata with
    at most one pass counting, the positions seen before it for superko), the game's komi and
    the komi the playouts are judged with, the most moves a playout may make, when to stop, the
    analysis callback and its interval, the stop test, whether the iterations count who owns
    each point, and whether a result counts the visits along each principal variation."""

    board: Board
    root_meta: np.ndarray
    komi: float
    extra_komi: float
    seen: np.ndarray
    max_moves: np.int64
    deadline: float
    callback: object
    interval: float
    should_stop: object
    ownership: bool
    pv_visits: bool = False


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
            params[rows[chosen.field]] = chosen.registry.array(name, getattr(config, chosen.params_field))
        settings[ksearch.NEEDS_AMAF] = int(rules.get(config.rule).needs_amaf)
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
    of a single thread or of tree parallelism (1024 MB is 22 million nodes at 48 bytes a node);
    with root parallelism the trees share it evenly (1024 MB with 4 threads is 5.6 million nodes
    a tree).
    The arrays start at INITIAL_NODES and double when an expansion does not fit, up to
    ``max_nodes``; while they grow, and while re-rooting copies the kept subtree, the old arrays
    and the new ones exist together for a moment.

    ``owners`` (``kernels.search.add_owners``) adds up who owned each point at the end of the
    ``owner_iterations`` iterations run from the root position with ownership asked for; both
    start again at zero when the root position changes (the nodes keep no ownership, so a kept
    subtree brings none)."""

    def __init__(self, max_nodes: int, seed: int, root_move: int = PASS):
        self.max_nodes = max_nodes
        self.rng = new_state(seed)
        self.ti, self.tf, self.tmeta = kt.new_tree(min(INITIAL_NODES, max_nodes), root_move)
        self.owners = np.zeros((2, 0), dtype=np.float64)
        self.owner_iterations = 0

    def reset_owners(self, npts: int) -> None:
        self.owners = np.zeros((2, npts), dtype=np.float64)
        self.owner_iterations = 0

    @property
    def nodes(self) -> int:
        return int(self.tmeta[kt.N_NODES])

    def reset(self, root_move: int) -> None:
        self.ti, self.tf, self.tmeta = kt.new_tree(min(INITIAL_NODES, self.max_nodes), root_move)

    def can_grow(self) -> bool:
        return self.ti.shape[1] < self.max_nodes

    def grow(self) -> None:
        """Double the pool (at most to ``max_nodes``), keeping every node where it is."""
        cap = min(self.max_nodes, 2 * self.ti.shape[1])
        ti = np.zeros((kt.NI, cap), dtype=np.int32)
        tf = np.zeros((kt.NF, cap), dtype=np.float64)
        n = self.nodes
        ti[:, :n] = self.ti[:, :n]
        tf[:, :n] = self.tf[:, :n]
        self.ti, self.tf = ti, tf
        self.tmeta[kt.FULL] = 0

    def child(self, node: int, move: int) -> int:
        """The child of ``node`` reached by ``move``, or -1."""
        first, count = int(self.ti[kt.FIRST, node]), int(self.ti[kt.NCHILD, node])
        for ch in range(first, first + count):
            if self.ti[kt.MOVE, ch] == move:
                return ch
        return -1

    def keep_subtree(self, node: int) -> None:
        """Make ``node`` the root, dropping everything else (a compact copy)."""
        if node == 0:
            return
        cap = self.ti.shape[1]
        ti = np.zeros((kt.NI, cap), dtype=np.int32)
        tf = np.zeros((kt.NF, cap), dtype=np.float64)
        tmeta = np.zeros(kt.NTMETA, dtype=np.int64)
        kt.copy_subtree(self.ti, self.tf, np.int64(node), ti, tf, tmeta)
        self.ti, self.tf, self.tmeta = ti, tf, tmeta

    def children(self, node: int = 0) -> range:
        first = int(self.ti[kt.FIRST, node])
        return range(first, first + int(self.ti[kt.NCHILD, node])) if first >= 0 else range(0)


class Search:
    """A UCT search with the selection rule, playout policy and prior of ``config``."""

    def __init__(self, config: SearchConfig | None = None):
        self.config = config or SearchConfig()
        self._position: tuple | None = None  # (size, komi, moves, first hash, to move) of the roots
        self._root: tuple[np.ndarray, np.ndarray] | None = None  # the root position's (pts, meta)
        self._prior_read: tuple | None = None  # (root, children, root_prior's answer): one reading a root
        self._run_visits = 0  # the root's visits when the running (or last) search began
        self._interrupt = False
        self._pool: ThreadPoolExecutor | None = None
        self._build()

    def _build(self) -> None:
        """Fresh trees, thread pool and kernel settings for ``self.config``."""
        self.close()
        config = self.config
        self.kernel = KernelSettings.of(config)
        # the learned move model's arrays, loaded only for the prior that reads them
        needs_model = priors.PRIORS[config.prior].needs_move_model
        model = movemodel.shipped().arrays if needs_model else movemodel.empty_arrays()
        self.knowledge = (MOGO3X3, model)
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
        self._root = None

    def clear(self) -> None:
        """Forget what earlier searches found: the next one starts from fresh trees (and, with
        last good replies on, an empty reply table), as after a new game."""
        self._position = None
        self._root = None
        self._replies_width = 0

    def configure(self, config: SearchConfig) -> None:
        """Search with ``config`` from now on. The trees are kept when only the budget or the
        resignation rule changed (``SearchConfig.keeps_trees_of``); otherwise they start afresh."""
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

    def interrupt(self) -> None:
        """Ask a running search to stop after its current batch (thread-safe)."""
        self._interrupt = True

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    # ---- the search

    def run(
        self,
        board: Board,
        komi: float,
        budget: Budget,
        callback: Callable[[SearchResult], None] | None = None,
        callback_interval: float = 1.0,
        ownership: bool = False,
        extra_komi: float = 0.0,
        should_stop: Callable[[], bool] | None = None,
        pv_visits: bool = False,
    ) -> SearchResult:
        """Search the position for the side to move until ``budget`` is spent (its playouts or its
        seconds, whichever runs out first; at least one batch of iterations when it allows any),
        and return what it found (``SearchResult``). The playouts are judged with ``komi +
        extra_komi`` (the dynamic komi, ``goengine.dynkomi``); the trees are kept from search to
        search when only ``extra_komi`` changed, as Pachi keeps them, and the scores they sum
        count no komi at all (``kernels.tree``'s SCORE).

        ``callback(result)`` is called about every ``callback_interval`` seconds with a result of
        the search so far (streamed analysis); ``should_stop()``, asked after every batch of
        iterations, ends the search when it says so (a controller's next command, a ponder
        stopped). With ``ownership`` the iterations also count who owns each point at their end
        and the result holds the ownership map; that costs a pass over the board an iteration, so
        only analysis asks for it. With ``pv_visits`` each move's figures hold the visits along
        its principal variation (``MoveStats.pv_visits``: a prior's recomputation a move of it).
        """
        playouts, seconds = budget.playouts, budget.seconds
        self._interrupt = False
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else math.inf
        self._reroot(board, komi)
        seen = np.unique(np.array(board.history, dtype=np.int64))
        # a controller may ask for a move after two passes (GTP leaves ending the game to it):
        # play on, with only the last pass counting, or the root would be a finished game
        root_meta = board.meta.copy()
        root_meta[kb.PASSES] = min(root_meta[kb.PASSES], 1)
        self._root = (board.pts.copy(), root_meta)
        if self._replies_width != board.size + 2:
            self._replies.fill(PASS)
            self._replies_width = board.size + 2
        max_moves = np.int64(3 * board.size * board.size)
        threads = len(self._rngs)
        shares = [None] * threads
        if playouts is not None:
            shares = [playouts // threads + (1 if k < playouts % threads else 0) for k in range(threads)]
        before = self._run_visits = self._root_visits()
        trees = [self.trees[0 if self.shared else k] for k in range(threads)]
        # who owns each point at the iterations' ends: into each tree's own array, and in a
        # shared tree the other threads' into arrays of their own, added in afterwards
        owners = [t.owners for t in self.trees]
        if self.shared:
            owners += [np.zeros_like(owners[0]) for _ in range(threads - 1)]
        done = [0] * threads
        job = _SearchJob(
            board,
            root_meta,
            komi,
            extra_komi,
            seen,
            max_moves,
            deadline,
            callback,
            callback_interval,
            should_stop,
            ownership,
            pv_visits,
        )

        def work(k: int) -> None:
            share = None if shares[k] is None else shares[k] - done[k]
            done[k] += self._run_thread(job, trees[k], self._rngs[k], owners[k], share, k == 0, start, before)

        while True:
            if self._pool is None:
                work(0)
            else:
                for future in [self._pool.submit(work, k) for k in range(threads)]:
                    future.result()
            tree = self.trees[0]
            # a shared tree grows between batches, when every thread has stopped
            if not (self.shared and tree.tmeta[kt.FULL] and tree.can_grow()) or self._interrupt:
                break
            spent = all(s is not None and d >= s for s, d in zip(shares, done, strict=True))
            if spent or time.perf_counter() >= deadline:
                break
            tree.grow()
        if ownership:
            if self.shared:
                self.trees[0].owner_iterations += sum(done)
                for extra in owners[1:]:
                    self.trees[0].owners += extra
            else:
                for tree, n in zip(self.trees, done, strict=True):
                    tree.owner_iterations += n
        return self._result(job, start, before, final=True)

    def _run_thread(self, job: _SearchJob, tree, rng, owners, share, reports: bool, start: float, before: int) -> int:
        """Batches of iterations of ``job`` on ``tree`` with this thread's ``rng``, counting who
        owns each point into ``owners``, until ``share`` iterations are run (``None``: until the
        deadline), the search is interrupted or told to stop, or (in a shared tree) the pool must
        grow; the thread that ``reports`` asks the job's stop test and calls its callback (with a
        result of the search since ``start``, whose root had ``before`` visits). Returns the
        iterations run."""
        done = 0
        next_report = time.perf_counter() + job.interval
        batch = max(1, int(self.config.batch))
        board = job.board
        if board.size > 13:
            batch = max(1, batch // 4)  # keep a batch to a few milliseconds for time control
        settings, params = self.kernel.for_position(job.komi + job.extra_komi, job.max_moves, True)
        settings[ksearch.OWNERSHIP] = int(job.ownership)
        settings[ksearch.SHARED] = int(self.shared)
        work = ksearch.new_workspace(board.pts.shape[1], self._replies)
        while not self._interrupt:
            n = batch if share is None else min(batch, share - done)
            if n <= 0 or (done > 0 and time.perf_counter() >= job.deadline):  # one batch at least
                break
            settings[ksearch.GROW] = tree.can_grow()
            ran = ksearch.run_iterations(
                (tree.ti, tree.tf, tree.tmeta),
                (board.pts, job.root_meta, ZOBRIST, job.seen, self.knowledge, owners),
                work,
                settings,
                params,
                rng,
                np.int64(n),
            )
            done += ran
            if tree.tmeta[kt.FULL] and tree.can_grow():
                if self.shared:
                    break  # Search.run grows the pool once every thread has stopped
                tree.grow()
            elif ran == 0:
                break  # the root has MAX_VISITS visits: its counts must not wrap
            if reports and job.should_stop is not None and job.should_stop():
                self.interrupt()
            if reports and job.callback is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + job.interval
                job.callback(self._result(job, start, before, final=False))
        return done

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
            node = 0
            if not fresh:
                color = 3 - old[4]  # the first new move must be by the side that was to move
                for c, m in moves[len(old[2]) :]:
                    # the tree alternates colours; a same-colour sequence (setup stones) breaks it
                    if c == color:
                        node = -1
                        break
                    color = c
                    node = tree.child(node, m)
                    if node < 0:
                        break
                # The kept node's children are moves of the side after the last move played there
                # (the tree alternates colours). A root whose side to move is the other one (two
                # genmoves of one colour in a row) would play them for the wrong side.
                if node >= 0 and 3 - color != board.to_move:
                    node = -1
            if fresh or node < 0:
                tree.reset(last)
            else:
                tree.keep_subtree(node)

    def direct_move(self, board: Board) -> int:
        """The move of a research player (``goengine.players``) for the side to move in
        ``board``, no search: ``model``, the move model's most probable legal move; ``playout``,
        a move of the playout policy, drawn from the first tree's random stream (PASS when it
        draws none, or a move positional superko forbids)."""
        c = board.to_move
        if self.config.player == "model":
            policy = movemodel.shipped().policy(board, c)
            return min(policy, key=lambda m: (-policy[m], m)) if policy else PASS
        pts, meta = board.pts.copy(), board.meta.copy()
        settings, params = self.kernel.settings, self.kernel.params
        move = int(
            kpolicy.choose_move(
                settings[ksearch.POLICY],
                params[ksearch.POLICY_PARAMS],
                MOGO3X3,
                no_replies(),
                pts,
                meta,
                ZOBRIST,
                np.int64(c),
                self.trees[0].rng,
            )
        )
        return move if move == PASS or board.is_legal(c, move) else PASS

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
            MOGO3X3,
            np.int64(playouts),
            np.int64(3 * board.size * board.size),
            counts,
        )
        return counts if spread else counts[0]

    def _root_ownership(self) -> tuple[np.ndarray, np.ndarray] | None:
        """For every padded point, the mean owner at the end of the iterations searched from the
        root position with ``ownership`` asked for (+1 Black, -1 White, 0 neither; summed over the
        trees), and its standard deviation; None when there were none."""
        n = sum(tree.owner_iterations for tree in self.trees)
        if n == 0:
            return None
        total = sum(tree.owners for tree in self.trees)
        mean = total[0] / n
        return mean, np.sqrt(np.maximum(total[1] / n - mean * mean, 0.0))

    # ---- the result: one snapshot of the trees

    def _root_visits(self) -> int:
        return sum(int(t.ti[kt.VISITS, 0]) for t in self.trees)

    def _result(self, job: _SearchJob, start: float, before: int, final: bool) -> SearchResult:
        """What the trees hold now, as one ``SearchResult``: the root's children are read once
        (``_root_stats``), and every figure of the result comes from that reading, the prior's
        shares and each move's principal variation added. The ownership map (when the job asked
        for it) is the owners counted by the searches from this position; in a search's final
        result, when none were counted (nothing was searched, e.g. a finished game), it comes
        from OWNERSHIP_PLAYOUTS playouts of the search's policy instead."""
        color = job.board.to_move
        sign = 1.0 if color == BLACK else -1.0
        given = self.root_prior()  # read once: the stats take it out, the shares are made of it
        stats = self._root_stats(given)
        shares = self.root_policy(given)
        pv_moves = np.zeros(PV_LENGTH, dtype=np.int32)
        tree = self.trees[0]
        first, count = int(tree.ti[kt.FIRST, 0]), int(tree.ti[kt.NCHILD, 0])
        node_of = {}
        if first >= 0 and count > 0:
            node_of = {m: first + k for k, m in enumerate(tree.ti[kt.MOVE, first : first + count].tolist())}
        moves = []
        for s in stats:
            node = node_of.get(s.move, -1)
            line = (s.move,)
            if node >= 0 and s.visits > 0:
                n = kt.principal_variation(tree.ti, np.int64(node), pv_moves[: PV_LENGTH - 1], np.bool_(self.shared))
                line += tuple(int(m) for m in pv_moves[:n])
            score = sign * (s.area_sum / s.visits - job.komi) if s.visits else 0.0
            counted = self.pv_visits(s.visits, node, line) if job.pv_visits and node >= 0 and s.visits > 0 else ()
            moves.append(
                dataclasses.replace(s, prior=shares.get(s.move, 0.0), score_lead=score, pv=line, pv_visits=counted)
            )
        n = kt.principal_variation(tree.ti, np.int64(0), pv_moves, np.bool_(self.shared))
        mean = stdev = None
        if job.ownership:
            found = self._root_ownership()
            if found is None and final:
                counts = self.owner_counts(job.board, OWNERSHIP_PLAYOUTS, self.config.seed, spread=True)
                mean = counts[0] / OWNERSHIP_PLAYOUTS
                found = mean, np.sqrt(np.maximum(counts[1] / OWNERSHIP_PLAYOUTS - mean * mean, 0.0))
            if found is not None:
                mean, stdev = (a.copy() for a in found)
                mean.flags.writeable = stdev.flags.writeable = False
        return SearchResult(
            color=color,
            komi=job.komi,
            stats=tuple(moves),
            pv=tuple(int(m) for m in pv_moves[:n]),
            playouts=self._root_visits() - before,
            seconds=time.perf_counter() - start,
            nodes=sum(t.nodes for t in self.trees),
            extra_komi=job.extra_komi,
            ownership=mean,
            ownership_stdev=stdev,
            parent_visits=int(tree.ti[kt.VISITS, 0]),
        )

    def _root_stats(self, given: dict[int, tuple[int, float]] | None = None) -> list[MoveStats]:
        """The root's moves, summed over the trees, most visited first: what was searched, the
        prior's virtual visits and wins (``root_prior``, or ``given`` when the caller read it)
        counted apart. Each tree's root children are copied at once, so the figures of a move hang
        together while other threads search."""
        merged: dict[int, list] = {}
        for tree in self.trees:
            first, count = int(tree.ti[kt.FIRST, 0]), int(tree.ti[kt.NCHILD, 0])
            if first < 0 or count <= 0:
                continue
            ti = tree.ti[:, first : first + count].tolist()
            tf = tree.tf[:, first : first + count].tolist()
            rows = zip(ti[kt.MOVE], ti[kt.VISITS], tf[kt.WINS], tf[kt.SCORE], ti[kt.AVISITS], tf[kt.AWINS], strict=True)
            for m, *figures in rows:
                s = merged.setdefault(m, [0, 0.0, 0.0, 0, 0.0])
                for i, x in enumerate(figures):
                    s[i] += x
        expanded = sum(1 for tree in self.trees if tree.ti[kt.NCHILD, 0] > 0)
        prior = self.root_prior() if given is None else given
        stats = []
        for m, (visits, wins, area, avisits, awins) in merged.items():
            pv, pw = prior.get(m, (0, 0.0))
            pv, pw = pv * expanded, pw * expanded
            stats.append(MoveStats(m, visits - pv, wins - pw, area, avisits, awins, pv, pw))
        return sorted(stats, key=lambda s: (-s.visits, -s.winrate, s.move))

    def root_leaders(self) -> tuple[tuple[int, float], tuple[int, float], int]:
        """The searched visits and win rate of the root's most visited move and of the runner-up
        ((0, 0.0) when there is none), and the playouts of the running (or last) search: what a
        clock's stop rule reads (``time_control.StopRule``), asked while the search runs."""
        stats = self._root_stats()
        leaders = [(s.visits, s.winrate) for s in stats[:2]] + [(0, 0.0)] * 2
        return leaders[0], leaders[1], self._root_visits() - self._run_visits

    def root_prior(self) -> dict[int, tuple[int, float]]:
        """``move -> (virtual visits, virtual wins)`` that the prior gives each of the root's
        children in one tree; empty with the prior ``none``. The tree does not store them: a prior
        is a function of the position (``kernels.prior``), so they are recomputed here from the
        root position (``prior_given``); once a root and its children, since a search reads them
        again and again (results, its stop rule)."""
        tree = self.trees[0]
        count = int(tree.ti[kt.NCHILD, 0])
        if self.kernel.settings[ksearch.PRIOR] == kprior.NONE or self._root is None or count == 0:
            return {}
        read = self._prior_read
        if read is not None and read[0] is self._root and read[1] == count:
            return dict(read[2])
        given = self.prior_given(*self._root, tree.ti[kt.MOVE, int(tree.ti[kt.FIRST, 0]) :][:count])
        self._prior_read = (self._root, count, given)
        return dict(given)

    def prior_given(self, pts: np.ndarray, meta: np.ndarray, moves: np.ndarray) -> dict[int, tuple[int, float]]:
        """``move -> (virtual visits, virtual wins)`` that the prior gives the children ``moves``
        of a node whose position is ``(pts, meta)``, by the kernel the expansion called, on fresh
        counts; empty with the prior ``none``."""
        settings, params = self.kernel.settings, self.kernel.params
        count = len(moves)
        if settings[ksearch.PRIOR] == kprior.NONE or count == 0:
            return {}
        ti, tf, _ = kt.new_tree(count + 1)
        ti[kt.MOVE, 1:] = moves
        kprior.init_children(
            settings[ksearch.PRIOR],
            params[ksearch.PRIOR_PARAMS],
            self.knowledge,
            pts,
            meta,
            ZOBRIST,
            ti,
            tf,
            np.int64(1),
            np.int64(count),
            ksearch.prior_scratch(pts.shape[1]),
        )
        return {int(ti[kt.MOVE, k]): (int(ti[kt.VISITS, k]), float(tf[kt.WINS, k])) for k in range(1, count + 1)}

    def pv_visits(self, first_visits: int, node: int, line: tuple[int, ...]) -> tuple[int, ...]:
        """The searched visits of each position along ``line``, a principal variation from the
        root whose first move is the root child ``node`` of the first tree, searched
        ``first_visits`` times (over every tree, the prior's virtual visits taken out): each later
        node's visits less the virtual visits the prior gave it, recomputed from its parent's
        position (``prior_given``), as ``root_prior`` does for the root's children."""
        tree = self.trees[0]
        pts, meta = (a.copy() for a in self._root)
        visits = [first_visits]
        parent, child = 0, node
        for k in range(1, len(line)):
            kb.play(pts, meta, ZOBRIST, np.int64(line[k - 1]), np.int64(meta[kb.TO_MOVE]))
            parent, child = child, tree.child(child, line[k])
            if child < 0:
                break
            first, count = int(tree.ti[kt.FIRST, parent]), int(tree.ti[kt.NCHILD, parent])
            given = self.prior_given(pts, meta, tree.ti[kt.MOVE, first : first + count])
            visits.append(max(0, int(tree.ti[kt.VISITS, child]) - given.get(line[k], (0, 0.0))[0]))
        return tuple(visits)

    def root_policy(self, given: dict[int, tuple[int, float]] | None = None) -> dict[int, float]:
        """What the prior makes of each root move, as a share summing to 1: with ``movemodel``,
        the move model's probability of each root child (over the root's children, as the prior
        sees it); with another prior, each child's share of the virtual visits it gave
        (``root_prior``, or ``given`` when the caller read it); empty without a prior or a
        search."""
        if priors.PRIORS[self.config.prior].needs_move_model and self._root is not None:
            tree = self.trees[0]
            children = {int(tree.ti[kt.MOVE, ch]) for ch in tree.children(0)}
            rated = [(m, p) for m, p in movemodel.shipped().rate_position(*self._root) if m in children]
            total = sum(p for _, p in rated)
            return {m: p / total for m, p in rated} if total > 0 else {}
        given = self.root_prior() if given is None else given
        total = sum(visits for visits, _ in given.values())
        return {m: visits / total for m, (visits, _) in given.items()} if total > 0 else {}
