"""The research settings reproduce what they gave before: a seed gives the same uniform playout,
move for move, and the same search, statistic for statistic.

The pinned values were recorded with the code of commit a8a192a (before the playout-policy and
prior seams, the grouped kernel arguments, the float64 reward sums and the last moves in the
board state); the uniform policy and the prior ``none`` must give them unchanged. If an
optimisation ever changes which moves a seed produces, the pins are updated in the same commit,
saying why, after checking that the distributions did not change.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import NO_REPLIES, TABLES, run

from goengine import coords
from goengine.board import ZOBRIST, Board
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.kernels import board as kb
from goengine.kernels import playout as kp
from goengine.kernels import policy as kpolicy
from goengine.kernels.rng import new_state
from goengine.search import MOGO3X3, Search

UNIFORM = np.int64(kpolicy.UNIFORM)
NO_PARAMS = np.zeros(8)

# uniform playouts from the empty board: (size, seed) -> the first 40 moves, the last 6, how many,
# and the area score (Black minus White)
PINNED_PLAYOUTS = {
    (9, 1): (
        "F7 E2 C6 A7 D2 A9 A8 H5 C2 F9 D8 D9 F4 G6 F6 E9 H9 H1 J9 F1 G4 F5 C4 J4 H8 J1 E8 B6 C8 C9 "
        "E1 H3 D5 G9 G3 A5 F8 C7 D1 D6",
        "D3 E3 pass A1 pass pass",
        99,
        11,
    ),
    (9, 2): (
        "H5 G9 J2 H9 B6 J1 D1 F8 D9 E9 E2 H1 C4 A8 G8 F7 C1 E4 A6 E5 B2 A7 G7 A4 E6 F3 G6 B4 A5 A1 "
        "B1 G1 H8 F4 D2 J5 D3 H4 H7 F1",
        "A4 A2 A1 H2 pass pass",
        88,
        1,
    ),
    (19, 3): (
        "N3 G14 F6 M11 J16 M13 M7 R11 B16 G10 K19 P9 F12 D15 A4 H4 N8 P10 F10 O1 D5 B4 G16 J19 G3 "
        "R9 F8 F7 J18 E5 R10 L8 G11 Q2 E6 H8 B12 N17 B1 Q15",
        "pass B12 pass F18 pass pass",
        478,
        -43,
    ),
}


def uniform_game(size: int, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The moves of a uniform playout from the empty board, one kernel call a move (the same
    ``choose_move`` and ``apply_move`` the playout loop calls), and the final state."""
    board = Board(size)
    pts, meta = board.pts.copy(), board.meta.copy()
    rng = new_state(seed)
    none_c, none_d = np.zeros(1, np.int8), np.zeros(1, np.int64)
    moves = []
    while meta[kb.PASSES] < 2 and len(moves) < 3 * size * size:
        c = meta[kb.TO_MOVE]
        p = kpolicy.choose_move(UNIFORM, NO_PARAMS, MOGO3X3, NO_REPLIES, pts, meta, ZOBRIST, c, rng)
        kp.apply_move(pts, meta, ZOBRIST, p, c, none_c, none_d, np.int64(0), False)
        moves.append(coords.to_gtp(size, int(p)))
    return moves, pts, meta


@pytest.mark.parametrize(("size", "seed"), list(PINNED_PLAYOUTS))
def test_a_seed_gives_the_same_uniform_playout_move_for_move(size, seed):
    first, last, count, score = PINNED_PLAYOUTS[(size, seed)]
    moves, pts, meta = uniform_game(size, seed)
    assert moves[:40] == first.split()
    assert moves[-6:] == last.split()
    assert len(moves) == count
    assert kb.area_score(pts, meta) == score
    # the playout kernel itself plays the same game
    board = Board(size)
    scores = np.zeros(1, dtype=np.int64)
    total = kp.run_playouts(
        board.pts,
        board.meta,
        ZOBRIST,
        new_state(seed),
        UNIFORM,
        NO_PARAMS,
        TABLES,
        np.int64(1),
        np.int64(3 * size**2),
        scores,
    )
    assert (int(total), int(scores[0])) == (count, score)


def test_the_last_two_moves_of_a_playout_are_in_the_board_state():
    moves, _, meta = uniform_game(9, 1)
    assert moves[-2:] == ["pass", "pass"]
    assert (meta[kb.LAST_MOVE], meta[kb.LAST_MOVE2]) == (kb.PASS, kb.PASS)
    moves, _, meta = uniform_game(9, 1)
    board = Board(9)
    for i, vertex in enumerate(moves[:12]):
        board.play("b" if i % 2 == 0 else "w", vertex)
    assert board.last_moves == (coords.from_gtp(9, moves[11]), coords.from_gtp(9, moves[10]))


@pytest.mark.parametrize(
    ("size", "seed", "scores", "moves"),
    [
        (9, 7, [-81, -17, 5, -45, -81, -21, -11, 81, -35, -5, 21, -3], 1335),
        (19, 7, [29, 169, -31, -5, 73, 77, 23, -5, -47, -23, -31, 29], 5444),
    ],
)
def test_a_seed_gives_the_same_batch_of_playouts(size, seed, scores, moves):
    board = Board(size)
    got = np.zeros(12, dtype=np.int64)
    total = kp.run_playouts(
        board.pts,
        board.meta,
        ZOBRIST,
        new_state(seed),
        UNIFORM,
        NO_PARAMS,
        TABLES,
        np.int64(12),
        np.int64(3 * size**2),
        got,
    )
    assert got.tolist() == scores and total == moves


# rule -> the move chosen, (move, visits, wins, AMAF visits, AMAF wins) of the three most visited
# moves, and the nodes of the tree, after 1500 playouts with seed 3 (9x9, E5 C3 played, komi 7.5)
PINNED_SEARCHES = {
    "ucb1": ("C4", [("C4", 32, 21.0, 0, 0.0), ("E7", 30, 19.0, 0, 0.0), ("D6", 28, 17.0, 0, 0.0)], 6402),
    "rave": (
        "C4",
        [("C4", 317, 153.0, 862, 414.0), ("F4", 299, 136.0, 907, 451.0), ("D2", 166, 83.0, 824, 397.0)],
        24237,
    ),
    "kl-ucb-rave": (
        "F7",
        [("F7", 670, 314.0, 1040, 507.0), ("G5", 204, 98.0, 827, 401.0), ("B5", 183, 82.0, 847, 402.0)],
        23159,
    ),
    "thompson": ("F2", [("F2", 48, 25.0, 0, 0.0), ("A4", 42, 21.0, 0, 0.0), ("B5", 41, 20.0, 0, 0.0)], 18262),
}  # fmt: skip


@pytest.mark.parametrize("rule", list(PINNED_SEARCHES))
def test_a_seed_gives_the_same_search_statistic_for_statistic(rule):
    move, top, nodes = PINNED_SEARCHES[rule]
    board = Board(9)
    board.play("b", "E5")
    board.play("w", "C3")
    search = Search(SearchConfig(rule=rule, playouts=1500, seed=3, playout="uniform", prior="none", expand_at=1))
    result = run(search, board, 7.5)
    got = [(coords.to_gtp(9, s.move), s.visits, s.wins, s.amaf_visits, s.amaf_wins) for s in result.stats[:3]]
    assert (coords.to_gtp(9, result.best.move), got, result.nodes) == (move, top, nodes)


def test_a_seed_gives_the_same_game():
    """Twelve genmoves with tree reuse, 800 playouts each, seed 11, the default rule (RAVE)."""
    research = SearchConfig(playouts=800, seed=11, playout="uniform", prior="none", expand_at=1)
    engine = Engine(EngineConfig(size=9, search=research))
    moves = [coords.to_gtp(9, engine.genmove("b" if i % 2 == 0 else "w").move) for i in range(12)]
    assert moves == ["D8", "E7", "D5", "F4", "G2", "E5", "D4", "D7", "F7", "E6", "E8", "C7"]
