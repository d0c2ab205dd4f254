"""Prior knowledge (``goengine.kernels.prior``, ``goengine.priors``) and PASS in the tree.

Each heuristic of the ``heuristic`` prior is checked alone on a hand position: every other
weight is 0, so a move gets exactly the visits (and wins) of the one feature it has. Then the
rule that keeps PASS out of the tree is checked on an opening, a finished endgame, an endgame
with open boundaries, and after the opponent's pass; and the search reports a prior's virtual
visits apart from the searched ones.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import run

from goengine import coords, movemodel, playout_model
from goengine.board import BLACK, PASS, WHITE, ZOBRIST, Board
from goengine.config import SearchConfig
from goengine.kernels import prior as kprior
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt
from goengine.priors import PRIORS
from goengine.search import MOGO3X3, Search

FEATURES = ("capture", "escape", "pattern", "self_atari", "first_line", "near_last")


def only(feature: str, visits: float = 7.0) -> np.ndarray:
    """The heuristic prior's parameters with every weight 0 but ``feature``."""
    overrides = {name: 0.0 for name in ("even", *FEATURES)}
    overrides[feature] = visits
    return PRIORS.array("heuristic", overrides)


def prior_of(board: Board, params: np.ndarray, prior: int = kprior.HEURISTIC) -> dict[str, tuple[int, float]]:
    """``vertex -> (virtual visits, virtual wins)`` the prior gives every empty point and PASS,
    for the side to move."""
    moves = [p for p in board.points() if board.color_at(p) == 0] + [PASS]
    ti, tf, _ = kt.new_tree(len(moves) + 1)
    ti[kt.MOVE, 1:] = moves
    model = movemodel.shipped().arrays if prior == kprior.MOVE_MODEL else movemodel.empty_arrays()
    knowledge = (MOGO3X3, model, playout_model.no_model_arrays())
    scratch = ksearch.prior_scratch(board.pts.shape[1])
    kprior.init_children(
        np.int64(prior),
        params,
        knowledge,
        board.pts,
        board.meta,
        ZOBRIST,
        ti,
        tf,
        np.int64(1),
        np.int64(len(moves)),
        scratch,
    )
    return {
        coords.to_gtp(board.size, m): (int(ti[kt.VISITS, k + 1]), float(tf[kt.WINS, k + 1]))
        for k, m in enumerate(moves)
    }


def given(got: dict[str, tuple[int, float]]) -> dict[str, tuple[int, float]]:
    return {v: s for v, s in got.items() if s != (0, 0.0)}


def test_the_registry_knows_none_even_and_heuristic():
    assert list(PRIORS) == ["none", "even", "heuristic", "movemodel"]
    assert PRIORS.get_choice("heuristic").id == kprior.HEURISTIC
    assert PRIORS.array("even")[kprior.PRIOR_EVEN] == 10.0


def test_none_gives_nothing_and_even_gives_every_move_half_won_visits():
    board = Board(9)
    board.play(BLACK, "E5")
    assert given(prior_of(board, PRIORS.array("none"), kprior.NONE)) == {}
    even = prior_of(board, PRIORS.array("even", {"even": 12}), kprior.EVEN)
    assert set(even.values()) == {(12, 6.0)}
    assert len(even) == 80 + 1  # every empty point and PASS


CAPTURE = """
. . . . .
. X O X .
. . X . .
. . . . .
. . . . .
"""


def test_the_capture_gets_its_won_visits():
    board = Board.from_ascii(CAPTURE, BLACK)  # the white stone at C4 has one liberty, C5
    assert given(prior_of(board, only("capture"))) == {"C5": (7, 7.0)}
    board.to_move = WHITE  # White's own stone: no capture for White there
    assert given(prior_of(board, only("capture"))) == {}


ESCAPE = """
. . . . . . .
. . . . . . .
. . . O . . .
. . O X O . .
. . . . . . .
. . . . . . .
. . . . . . .
"""

LADDER = """
. . . . . . .
. . . . . . .
. . . O O . .
. . O X . . .
. . . O . . .
. . . . . . .
. . . . . . .
"""


def test_an_escape_that_works_gets_its_won_visits_and_one_into_a_ladder_does_not():
    board = Board.from_ascii(ESCAPE, BLACK)  # D4's liberty D3: extending gives three liberties
    assert given(prior_of(board, only("escape"))) == {"D3": (7, 7.0)}
    board = Board.from_ascii(LADDER, BLACK)  # D4's liberty E4: extending gives two, a ladder
    assert given(prior_of(board, only("escape"))) == {}


SELF_ATARI = """
. . . . . . .
. . . . . . .
O O O O O . .
. X X X . O .
O O O O O . .
. . . . . . .
. . . . . . .
"""


def test_a_self_atari_of_several_stones_gets_its_lost_visits():
    # B4-D4 have two liberties, A4 and E4: filling either leaves four stones in atari
    board = Board.from_ascii(SELF_ATARI, BLACK)
    assert given(prior_of(board, only("self_atari"))) == {"A4": (7, 0.0), "E4": (7, 0.0)}
    board.to_move = WHITE  # for White, A4 and E4 capture nothing and endanger nothing
    assert given(prior_of(board, only("self_atari"))) == {}


def test_first_line_moves_in_an_empty_area_get_lost_visits():
    board = Board(9)
    board.play(BLACK, "E5")
    got = given(prior_of(board, only("first_line")))
    first_line = {
        coords.to_gtp(9, p) for p in board.points() if min(coords.row_col(9, p)) == 0 or max(coords.row_col(9, p)) == 8
    }
    assert set(got) == first_line
    assert set(got.values()) == {(7, 0.0)}
    board.play(WHITE, "A2")  # a stone on the edge: its neighbourhood is no longer empty
    got = given(prior_of(board, only("first_line")))
    assert {"A1", "A2", "A3", "A4", "B1"}.isdisjoint(got)
    assert "A5" in got and "J9" in got


def test_moves_near_the_last_move_get_won_visits():
    board = Board(9)
    board.play(BLACK, "E5")
    got = given(prior_of(board, only("near_last")))
    near = {"E7", "D6", "E6", "F6", "C5", "D5", "F5", "G5", "D4", "E4", "F4", "E3"}
    assert set(got) == near
    assert set(got.values()) == {(7, 7.0)}


HANE = """
. . . . .
. . . . .
. X O . .
. . . . .
. . . . .
"""


def test_a_pattern_move_gets_its_won_visits():
    # X at B3, O at C3 (just played): the hane points next to O match MoGo's hane shapes
    board = Board.from_ascii(HANE, BLACK)
    got = given(prior_of(board, only("pattern")))
    assert got, "no pattern move found around a contact move"
    assert set(got.values()) == {(7, 7.0)}
    # each pattern move is a neighbour (of eight) of a stone
    stones = {p for p in board.points() if board.color_at(p) != 0}
    w = board.size + 2
    for vertex in got:
        p = coords.from_gtp(5, vertex)
        assert any(p + d in stones for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1))


# ---- PASS in the tree


def root_moves(board: Board, prior: str, **config) -> list[str]:
    config.setdefault("resign_threshold", 0.0)
    search = Search(SearchConfig(rule="ucb1", prior=prior, playouts=3, expand_at=1, **config))
    run(search, board, 7.5)
    tree = search.trees[0]
    moves = [coords.to_gtp(board.size, int(tree.ti[kt.MOVE, ch])) for ch in tree.children(0)]
    search.close()
    return moves


def test_no_pass_in_the_opening_except_with_the_prior_none():
    board = Board(9)
    for i, v in enumerate(["E5", "C3", "G7", "C7"]):
        board.play(BLACK if i % 2 == 0 else WHITE, v)
    assert "pass" not in root_moves(board, "heuristic")
    assert "pass" not in root_moves(board, "even")
    assert "pass" in root_moves(board, "none")


def test_pass_after_the_opponent_passes():
    board = Board(9)
    board.play(BLACK, "E5")
    board.play(WHITE, "pass")
    assert "pass" in root_moves(board, "heuristic")


FINISHED = """
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
"""

OPEN = """
. . . X . O . . .
. . . . . . . . .
. X . . X . O . .
. . . X . O . . .
. . X . . . O . .
. . X . . . O . .
. . . X . O . . .
. . . . . . . . .
. X . . X . . O .
"""


def test_pass_in_a_finished_endgame_but_not_while_boundaries_are_open():
    board = Board.from_ascii(FINISHED, BLACK)  # 18 stones set up, every point settled: it is over
    assert kprior.unsettled_points(board.pts, board.meta) == 0
    assert "pass" in root_moves(board, "heuristic")
    board = Board.from_ascii(OPEN, BLACK)  # 16 stones (past the earliest pass), open boundaries
    assert kprior.unsettled_points(board.pts, board.meta) == 81 - 16
    assert "pass" not in root_moves(board, "heuristic")


def test_the_earliest_pass_is_pachis():
    assert kprior.earliest_pass(9) == pytest.approx(81 / 5.2)
    assert kprior.earliest_pass(19) == pytest.approx(361 / 3.2)


def test_pass_is_the_only_child_when_nothing_else_is_playable():
    board = Board.from_ascii(
        """
        . X
        X .
        """,
        WHITE,
    )  # both empty points are suicide for White
    moves = np.zeros(8, dtype=np.int32)
    seen = np.array(board.history, dtype=np.int64)
    path = np.array([board.hash], dtype=np.int64)
    for with_pass in (False, True):
        count = ksearch.candidate_moves(board.pts, board.meta, ZOBRIST, seen, path, 0, moves, with_pass)
        assert moves[:count].tolist() == [PASS]
    board.to_move = BLACK  # Black's points are its own eyes: no move either
    count = ksearch.candidate_moves(board.pts, board.meta, ZOBRIST, seen, path, 0, moves, False)
    assert moves[:count].tolist() == [PASS]
    board = Board(2)
    count = ksearch.candidate_moves(board.pts, board.meta, ZOBRIST, seen, path, 0, moves, False)
    assert count == 4 and PASS not in moves[:count].tolist()


# ---- what the search reports


def test_the_root_reports_the_prior_apart_from_the_search():
    board = Board(9)
    board.play(BLACK, "E5")
    search = Search(
        SearchConfig(rule="rave", playout="heavy", prior="heuristic", playouts=600, expand_at=8, resign_threshold=0)
    )
    run(search, board, 7.5)
    stats = search.reader.root_stats()
    prior = search.reader.root_prior()
    tree = search.trees[0]
    assert {s.move for s in stats} == set(prior)
    for s in stats:
        assert (s.prior_visits, s.prior_wins) == prior[s.move]
        assert s.visits >= 0 and 0 <= s.wins <= s.visits
    # searched visits of the children: every iteration but the one that ended at the root leaf
    # (the root waits for one iteration, whatever expand_at says)
    assert sum(s.visits for s in stats) == int(tree.ti[kt.VISITS, 0]) - 1
    assert any(s.prior_visits > 10 for s in stats)  # the heuristics gave something beyond even
    assert search.kernel.settings[ksearch.PRIOR] == kprior.HEURISTIC
    search.close()


# ---- the patterns prior: the learned move model's probabilities


@pytest.mark.parametrize(("even", "weight", "min_p"), [(10.0, 100.0, 0.001), (0.0, 300.0, 0.02), (20.0, 50.0, 0.0)])
def test_the_patterns_prior_gives_even_visits_and_sqrt_p_won_visits_from_the_move_model(even, weight, min_p):
    """Every child gets ``even`` visits at one half and, when the model gives it p >= ``min_p``
    (over the children, here every legal move and PASS), round(sqrt(p) x ``weight``) won visits."""
    board = Board(9)
    for color, vertex in ((BLACK, "E5"), (WHITE, "C3"), (BLACK, "C4"), (WHITE, "D3")):
        board.play(color, vertex)
    params = PRIORS.array("movemodel", {"even": even, "weight": weight, "min_p": min_p})
    got = prior_of(board, params, kprior.MOVE_MODEL)
    rated = dict(movemodel.shipped().rate(board))
    assert set(rated) == {coords.from_gtp(9, v) if v != "pass" else PASS for v in got}
    assert sum(rated.values()) == pytest.approx(1.0)
    strong = 0
    for vertex, (visits, wins) in got.items():
        p = rated[coords.from_gtp(9, vertex) if vertex != "pass" else PASS]
        bonus = int(np.sqrt(p) * weight + 0.5) if p >= min_p else 0
        assert (visits, wins) == (int(even) + bonus, pytest.approx(even / 2 + bonus)), vertex
        strong += bonus > 0
    assert strong > 0  # the model's favourites got won visits


def test_a_search_with_the_patterns_prior_reports_the_models_share_for_each_root_move():
    board = Board(9)
    board.play(BLACK, "E5")
    search = Search(SearchConfig(prior="movemodel", playouts=300))
    run(search, board, 7.5)
    shares = search.reader.root_policy()
    children = {int(search.trees[0].ti[kt.MOVE, ch]) for ch in search.trees[0].children(0)}
    assert set(shares) == children and sum(shares.values()) == pytest.approx(1.0)
    rated = dict(movemodel.shipped().rate(board))
    best = max(shares, key=shares.get)
    assert best == max(children, key=lambda m: rated[m])  # the same favourite, renormalised
    given = search.reader.root_prior()
    assert given[best][0] > given[min(shares, key=shares.get)][0]  # more virtual visits for it


# ---- the move model's prior with a quick reading beside it (``tactics``)

# Black to move. White's B7 C7 D7 have one liberty, E7: capturing there takes three stones.
# Black's F3 G3 are in atari at H3 and extending there gives them three liberties: a working
# escape of two stones. Black's B2 is in atari at B1, where White's A1 or C1 then catches it
# against the edge: a run that fails. J9 would leave Black's H8 J8 J9 with one liberty, H9: a bad
# self-atari of three stones.
READING = """
    . . . . . . . . .
    . X X X . . O X X
    X O O O . . . O O
    . X X X . . . . .
    . . . . . . . . .
    . . . . . O O . .
    . O . . O X X . .
    O X O . . O O . .
    . . . . . . . . .
"""


def test_the_quick_reading_adds_won_visits_by_the_stones_at_stake_and_lost_ones_for_caught_runs():
    """With the model's weight at 0 and no even visits, only the reading shows, in units of
    ``tactics`` (here 10): capturing n stones or saving n stones in atari by a working escape
    wins 10 x (2 + (n - 1) / 2); running a caught ladder, or a bad self-atari, loses 10."""
    board = Board.from_ascii(READING, to_move=BLACK)
    params = PRIORS.array("movemodel", {"even": 0.0, "weight": 0.0, "tactics": 10.0})
    got = given(prior_of(board, params, kprior.MOVE_MODEL))
    assert got == {"E7": (30, 30.0), "H3": (25, 25.0), "B1": (10, 0.0), "J9": (10, 0.0)}
    assert PRIORS.array("movemodel")[kprior.MODEL_TACTICS] == 0.0  # off unless asked for
    assert given(prior_of(board, PRIORS.array("movemodel", {"even": 0.0, "weight": 0.0}), kprior.MOVE_MODEL)) == {}
