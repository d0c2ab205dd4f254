"""Reading a search's answer out of its trees (``goengine.result``): the prior's virtual visits
taken back out of the root's statistics and recomputed by the expansion's own kernel, once a
root; the visits along each principal variation; and the snapshot: while a report reads the
trees, no other thread of the search changes them.
"""

from __future__ import annotations

import threading

import pytest
from helpers import make_search, run

from goengine.board import BLACK, WHITE, Board
from goengine.config import Budget, SearchConfig, SearchRequest
from goengine.kernels import board as kb
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt
from goengine.result import TreeReader
from goengine.search import Search

# ---- the prior seam


def test_root_statistics_leave_out_the_priors_virtual_visits_and_wins():
    """A prior writes virtual visits and wins into VISITS / WINS when a node is expanded
    (kernels.prior); the search recomputes what it gave the root's children (``root_prior``) and
    reports what it searched apart from it. With the prior ``none`` there is nothing to take out."""
    board = Board(9)
    search = make_search("ucb1", playouts=400, threads=2, parallel="root")
    searched = {s.move: (s.visits, s.wins) for s in run(search, board, 7.5).stats}
    assert search.reader.root_prior() == {}
    # a prior that gave one root move 10 visits and 7 wins, in each of the two trees
    move = next(iter(searched))
    for tree in search.trees:
        child = tree.child(0, move)
        tree.ti[kt.VISITS, child] += 10
        tree.tf[kt.WINS, child] += 7.0
    search.reader.root_prior = lambda: {move: (10, 7.0)}
    stats = {s.move: s for s in search.reader.root_stats()}
    assert (stats[move].visits, stats[move].wins) == searched[move]
    assert (stats[move].prior_visits, stats[move].prior_wins) == (20, 14.0)
    assert all(s.prior_visits == 0 for m, s in stats.items() if m != move)
    search.close()


def test_the_root_prior_is_what_the_prior_kernel_gives_the_root_position(monkeypatch):
    """``root_prior`` calls the expansion's own kernel on the root position and the root's moves."""
    from goengine.kernels import prior as kprior

    calls = []

    def fake_prior(prior, params, knowledge, pts, meta, zobrist, ti, tf, first, count, scratch):
        calls.append((int(prior), int(meta[kb.TO_MOVE]), int(first), int(count)))
        for k in range(first, first + count):
            ti[kt.VISITS, k] += 3
            tf[kt.WINS, k] += 1.5

    board = Board(9)
    board.play(BLACK, "E5")
    search = make_search("ucb1", playouts=200)
    run(search, board, 7.5)
    search.kernel.settings[ksearch.PRIOR] = 7  # any prior but none
    monkeypatch.setattr(kprior, "init_children", fake_prior)
    got = search.reader.root_prior()
    moves = [int(search.trees[0].ti[kt.MOVE, ch]) for ch in search.trees[0].children(0)]
    assert calls == [(7, WHITE, 1, len(moves))]
    assert got == {m: (3, 1.5) for m in moves}


def test_the_root_prior_is_read_once_a_root_and_the_leaders_come_from_the_roots_moves(monkeypatch):
    """``root_prior`` calls the prior kernel once for a root and its children, however often a
    search asks (its results, a clock's stop test), and again for the next root; ``root_leaders``
    gives the two most visited moves of the result, searched visits only, and the playouts of
    the search."""
    from goengine.kernels import prior as kprior

    calls = []
    real = kprior.init_children

    def counting_prior(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(kprior, "init_children", counting_prior)
    board = Board(9)
    search = Search(SearchConfig(prior="heuristic", playouts=600, seed=3))
    result = run(search, board, 7.5)
    first = search.reader.root_prior()
    assert len(calls) == 1 and search.reader.root_prior() == first and len(calls) == 1
    best, second, playouts = search.root_leaders()
    assert len(calls) == 1
    assert best == (result.stats[0].visits, result.stats[0].winrate)
    assert second == (result.stats[1].visits, result.stats[1].winrate)
    assert playouts == result.playouts == 600
    board.play(BLACK, "E5")
    run(search, board, 7.5)
    search.reader.root_prior()
    assert len(calls) == 2  # the new root's result read it once, and this call found it read
    search.close()


@pytest.mark.parametrize("prior", ["none", "heuristic", "movemodel"])
def test_the_visits_along_a_principal_variation_are_its_nodes_searched_visits(prior):
    """``pv_visits``: the first is the move's searched visits; each later one the node's visits
    less what the prior gave it (with no prior, the node's visits as they stand). A node's visits
    all pass through its parent, so they never grow along the line."""
    board = Board(9)
    board.play(BLACK, "E5")
    search = make_search("rave", prior=prior, playout="heavy", expand_at=2, playouts=3000)
    result = search.run(board, 7.5, SearchRequest(Budget(playouts=3000), pv_visits=True))
    tree = search.trees[0]
    checked = 0
    for s in result.stats[:3]:
        assert len(s.pv_visits) == len(s.pv) and s.pv_visits[0] == s.visits
        assert all(a >= b >= 0 for a, b in zip(s.pv_visits, s.pv_visits[1:], strict=False))
        node = tree.child(0, s.move)
        for move, counted in zip(s.pv[1:], s.pv_visits[1:], strict=True):
            node = tree.child(node, move)
            raw = int(tree.ti[kt.VISITS, node])
            assert counted == raw if prior == "none" else counted <= raw
            checked += 1
    assert checked >= 3
    assert all(s.pv_visits == () for s in search.run(board, 7.5, SearchRequest(Budget(playouts=200))).stats)
    search.close()


# ---- one snapshot


@pytest.mark.parametrize("parallel", ["tree", "root"])
def test_while_a_report_reads_the_trees_no_other_thread_changes_them(parallel, monkeypatch):
    """Two threads search; every reading of the trees (``TreeReader.result``) notes every tree's
    root visits, waits 20 ms (some batches' worth) and notes them again: the same, since the other
    thread is held at the end of its batch while a report is read (``Search._snapshot``). The
    reports came, and the search went on between them (the last may come when it is done)."""
    search = make_search("rave", playout="heavy", prior="movemodel", threads=2, parallel=parallel, expand_at=8)
    changed = []
    real = TreeReader.result

    def reading(reader, *args):
        first = [int(t.ti[kt.VISITS, 0]) for t in reader.trees]
        threading.Event().wait(0.02)
        changed.append(first != [int(t.ti[kt.VISITS, 0]) for t in reader.trees])
        return real(reader, *args)

    monkeypatch.setattr(TreeReader, "result", reading)
    reports = []
    request = SearchRequest(Budget(seconds=0.6), callback=lambda result: reports.append(result.playouts), interval=0.05)
    try:
        result = search.run(Board(9), 7.5, request)
    finally:
        search.close()
    assert len(reports) >= 3 and len(changed) == len(reports) + 1 and not any(changed)
    assert result.playouts >= reports[-1] > reports[0] > 0
