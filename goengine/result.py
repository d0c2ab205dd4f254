"""The search's answer, and the reading of it out of the trees (as KataGo keeps
``searchresults.cpp`` apart from its search).

Reading guide: ``SearchResult`` is what a search found, one immutable object that every client
formats (the engine's decision, GTP's analysis lines, GoGui's commands, the JSON analysis, the
review) and nothing else; ``MoveStats`` is one root move in it. ``TreeReader`` reads the trees of
one root position into a ``SearchResult``: the root's children summed over the trees
(``root_stats``), the prior's virtual visits taken back out of them (``root_prior``, recomputed
from the position, since the tree does not store them), each move's principal variation and,
when asked, the searched visits along it (``pv_visits``), the prior's share of each move
(``root_policy``).

**One snapshot.** ``goengine.search.Search`` calls ``TreeReader.result`` only while no thread
changes the trees: after the search, once every thread has stopped, and for a report during it,
with the other threads held at the end of their batch (``Search._snapshot``). Every figure of a
result, the principal variations and their visits included, is therefore of one moment. What
is read while threads search is ``root_stats`` alone, for a clock's stop test
(``Search.root_leaders``): each tree's root children are copied in one step, so a move's figures
hang together, but two moves may be a batch apart; that test needs no more.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from goengine import movemodel
from goengine.board import BLACK, ZOBRIST
from goengine.kernels import board as kb
from goengine.kernels import prior as kprior
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt

PV_LENGTH = 20  # moves of each principal variation a result holds


@dataclass(frozen=True)
class MoveStats:
    """One root move after a search: the ``visits`` and ``wins`` searched (the prior's virtual
    ones not included), the sum of the area scores its iterations ended with (``area_sum``:
    Black's area minus White's, no komi), the AMAF figures, the prior's virtual visits and wins,
    its share of the prior knowledge (``prior``: ``TreeReader.root_policy``), the score lead after
    it for the side to move (``score_lead``: the mean area less the game's komi, signed for that
    side), its principal variation (``pv``: the move, then the most visited line under it) and,
    when the search was asked for them, the searched visits of each position along it
    (``pv_visits``: ``TreeReader.pv_visits``; empty otherwise); and the sum of the squares of the
    area scores (``area_sq_sum``), for the score's spread (``score_stdev``)."""

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
    area_sq_sum: float = 0.0

    @property
    def winrate(self) -> float:
        """The win rate searched, for the side to move (0 unsearched)."""
        return self.wins / self.visits if self.visits else 0.0

    @property
    def mean_area(self) -> float:
        """The mean area score after the move (Black's area minus White's, no komi), 0 unsearched."""
        return self.area_sum / self.visits if self.visits else 0.0

    @property
    def score_stdev(self) -> float:
        """The standard deviation of the area scores the move's iterations ended with (KataGo's
        ``scoreStdev``: how far the final score may fall from the lead), 0 unsearched."""
        if not self.visits:
            return 0.0
        mean = self.area_sum / self.visits
        return math.sqrt(max(0.0, self.area_sq_sum / self.visits - mean * mean))

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
    """What one search found, read from one snapshot of its trees (module docstring): every
    client of an analysis formats this and reads nothing else.

    ``color`` searched (every figure is from its side) against the game's ``komi``, with the
    playouts judged against ``komi + extra_komi`` (the dynamic komi); ``stats``, the root's
    moves most visited first (``MoveStats``: visits, win rate, score lead, prior share, lower
    confidence bound, principal variation); ``pv``, the most visited line from the root; what was
    spent (``playouts``, ``seconds``, tree ``nodes``); and when the search was asked for it, the
    ``ownership`` map (for every padded point, the mean owner at the iterations' ends, +1 Black,
    -1 White) with its standard deviation ``ownership_stdev`` (read-only arrays).
    ``parent_visits`` is the first tree's root count, the parent's visits the selection rules
    saw at the root (a research script's figure: ``scripts/root_choices.py``). ``size`` and
    ``moves_played`` say where the position stands (the board's size, the moves played to reach
    it), which the reported win rates are calibrated by (``goengine.calibration``); 0 in a result
    made by hand."""

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
    size: int = 0
    moves_played: int = 0

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
    def score_stdev(self) -> float:
        """The standard deviation of the area scores over every searched visit of the root's
        moves (KataGo's ``scoreStdev`` of ``rootInfo``); 0 when nothing was searched."""
        visits = self.visits
        if not visits:
            return 0.0
        mean = self.mean_area
        return math.sqrt(max(0.0, sum(s.area_sq_sum for s in self.stats) / visits - mean * mean))

    @property
    def score_lead(self) -> float:
        """The root's score lead for the side to move: ``mean_area`` less the game's komi, signed
        for that side (KataGo's ``scoreLead`` of ``rootInfo``)."""
        return (1.0 if self.color == BLACK else -1.0) * (self.mean_area - self.komi)


class TreeReader:
    """Reads the ``trees`` of one root position, ``root`` (its ``(pts, meta)``), into results:
    ``kernel`` and ``knowledge`` are the search's (``search.KernelSettings``, the tables the prior
    reads), so the prior's virtual visits can be recomputed; ``shared``: the trees are one tree
    several threads search; ``move_model``: the prior is the move model's (its shares are the
    model's probabilities)."""

    def __init__(
        self, trees: list, root: tuple[np.ndarray, np.ndarray], kernel, knowledge, shared: bool, move_model: bool
    ):
        self.trees = trees
        self.root = root
        self.kernel = kernel
        self.knowledge = knowledge
        self.shared = shared
        self.move_model = move_model
        self._prior_read: tuple | None = None  # (children, root_prior's answer): once a set of children

    def root_visits(self) -> int:
        return sum(int(t.ti[kt.VISITS, 0]) for t in self.trees)

    def result(
        self, color: int, komi: float, extra_komi: float, playouts: int, seconds: float, pv_visits: bool, ownership
    ) -> SearchResult:
        """The trees as one ``SearchResult`` for ``color`` (the side searched) against ``komi``
        and ``extra_komi``, having spent ``playouts`` in ``seconds``: the root's children are read
        once (``root_stats``), and every figure comes from that reading, the prior's shares and
        each move's principal variation added (with ``pv_visits``, its visits). ``ownership`` is
        the map and its deviation, or None. Called only while no thread changes the trees."""
        sign = 1.0 if color == BLACK else -1.0
        given = self.root_prior()  # read once: the stats take it out, the shares are made of it
        stats = self.root_stats(given)
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
            score = sign * (s.area_sum / s.visits - komi) if s.visits else 0.0
            counted = self.pv_visits(s.visits, node, line) if pv_visits and node >= 0 and s.visits > 0 else ()
            moves.append(
                dataclasses.replace(s, prior=shares.get(s.move, 0.0), score_lead=score, pv=line, pv_visits=counted)
            )
        n = kt.principal_variation(tree.ti, np.int64(0), pv_moves, np.bool_(self.shared))
        mean, stdev = ownership if ownership is not None else (None, None)
        return SearchResult(
            color=color,
            komi=komi,
            stats=tuple(moves),
            pv=tuple(int(m) for m in pv_moves[:n]),
            playouts=playouts,
            seconds=seconds,
            nodes=sum(t.nodes for t in self.trees),
            extra_komi=extra_komi,
            ownership=mean,
            ownership_stdev=stdev,
            parent_visits=int(tree.ti[kt.VISITS, 0]),
        )

    def root_stats(self, given: dict[int, tuple[int, float]] | None = None) -> list[MoveStats]:
        """The root's moves, summed over the trees, most visited first: what was searched, the
        prior's virtual visits and wins (``root_prior``, or ``given`` when the caller read it)
        counted apart. Each tree's root children are copied at once, so the figures of a move hang
        together even while other threads search."""
        merged: dict[int, list] = {}
        for tree in self.trees:
            first, count = int(tree.ti[kt.FIRST, 0]), int(tree.ti[kt.NCHILD, 0])
            if first < 0 or count <= 0:
                continue
            ti = tree.ti[:, first : first + count].tolist()
            tf = tree.tf[:, first : first + count].tolist()
            rows = zip(
                ti[kt.MOVE], ti[kt.VISITS], tf[kt.WINS], tf[kt.SCORE], ti[kt.AVISITS], tf[kt.AWINS], tf[kt.SCORE_SQ],
                strict=True,
            )  # fmt: skip
            for m, *figures in rows:
                s = merged.setdefault(m, [0, 0.0, 0.0, 0, 0.0, 0.0])
                for i, x in enumerate(figures):
                    s[i] += x
        expanded = sum(1 for tree in self.trees if tree.ti[kt.NCHILD, 0] > 0)
        prior = self.root_prior() if given is None else given
        stats = []
        for m, (visits, wins, area, avisits, awins, area_sq) in merged.items():
            pv, pw = prior.get(m, (0, 0.0))
            pv, pw = pv * expanded, pw * expanded
            stats.append(MoveStats(m, visits - pv, wins - pw, area, avisits, awins, pv, pw, area_sq_sum=area_sq))
        return sorted(stats, key=lambda s: (-s.visits, -s.winrate, s.move))

    def root_prior(self) -> dict[int, tuple[int, float]]:
        """``move -> (virtual visits, virtual wins)`` that the prior gives each of the root's
        children in one tree; empty with the prior ``none``. The tree does not store them: a prior
        is a function of the position (``kernels.prior``), so they are recomputed here from the
        root position (``prior_given``); once a set of children, since a search reads them again
        and again (results, its stop rule)."""
        tree = self.trees[0]
        count = int(tree.ti[kt.NCHILD, 0])
        if self.kernel.settings[ksearch.PRIOR] == kprior.NONE or count == 0:
            return {}
        read = self._prior_read
        if read is not None and read[0] == count:
            return dict(read[1])
        given = self.prior_given(*self.root, tree.ti[kt.MOVE, int(tree.ti[kt.FIRST, 0]) :][:count])
        self._prior_read = (count, given)
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
        pts, meta = (a.copy() for a in self.root)
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
        """What the prior makes of each root move, as a share summing to 1: with the move model,
        the model's probability of each root child (over the root's children, as the prior sees
        it); with another prior, each child's share of the virtual visits it gave (``root_prior``,
        or ``given`` when the caller read it); empty without a prior or a search."""
        if self.move_model:
            tree = self.trees[0]
            children = {int(tree.ti[kt.MOVE, ch]) for ch in tree.children(0)}
            rated = [(m, p) for m, p in movemodel.shipped().rate_position(*self.root) if m in children]
            total = sum(p for _, p in rated)
            return {m: p / total for m, p in rated} if total > 0 else {}
        given = self.root_prior() if given is None else given
        total = sum(visits for visits, _ in given.values())
        return {m: visits / total for m, (visits, _) in given.items()} if total > 0 else {}
