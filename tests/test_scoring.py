"""scoring: dead, alive and seki chains and the final score, judged from an ownership map made by
hand (no playouts), so every answer is known: a chain's share is the mean owner over its stones,
signed for its colour."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import DEAD_STONE

from goengine import coords, scoring
from goengine.board import Board


def owner_map(board: Board, rule) -> np.ndarray:
    """``rule(column, row)`` for every point (+1 Black's, -1 White's), 0 off the board."""
    owner = np.zeros(board.pts.shape[1])
    for r in range(board.size):
        for c in range(board.size):
            owner[coords.point(board.size, r, c)] = rule(c, r)
    return owner


def names(board: Board, points) -> set[str]:
    return {coords.to_gtp(board.size, p) for p in points}


def halves(c: int, r: int) -> float:
    return 1.0 if c <= 4 else -1.0  # A-E Black's, F-J White's


def test_a_stone_in_the_opponents_area_is_dead_and_its_walls_alive():
    board = Board.from_ascii(DEAD_STONE)
    owner = owner_map(board, halves)
    assert names(board, scoring.dead_stones(board, owner)) == {"B5"}
    assert scoring.dead_stones(board, owner, color=1) == []
    assert names(board, scoring.final_status(board, owner, "alive")) == {f"{c}{r}" for c in "EF" for r in range(1, 10)}
    assert scoring.final_status(board, owner, "seki") == []


def test_the_final_score_counts_after_removing_the_dead_stone():
    board = Board.from_ascii(DEAD_STONE)
    # B5 removed: Black 45 (A-E), White 36 (F-J), komi 7.5
    assert scoring.final_score(board, 7.5, owner_map(board, halves)) == 45 - 36 - 7.5
    assert board.area_score() == 9 - 37  # the board itself is untouched
    # the same stone judged alive (its point White's): counted as it stands
    alive = owner_map(board, lambda c, r: -1.0 if (c, r) == (1, 4) else halves(c, r))
    assert scoring.final_score(board, 7.5, alive) == 9 - 37 - 7.5


def test_a_chain_is_judged_by_the_mean_of_its_stones():
    """A two-stone chain with one stone's point Black's (+1) and the other's near even (+0.2):
    mean +0.6 (past DEAD_SHARE, so no seki either) for a black chain, alive; the same numbers
    make a white chain dead."""
    board = Board.from_ascii(
        """
        . . . . .
        . X X . .
        . . . . .
        . O O . .
        . . . . .
        """
    )
    shares = {(1, 1): 1.0, (2, 1): 0.2, (1, 3): 1.0, (2, 3): 0.2}
    owner = owner_map(board, lambda c, r: shares.get((c, r), 0.0))
    status = scoring.chain_status(board, owner)
    assert {coords.to_gtp(5, p): s for p, s in status.items()} == {
        "B4": "alive",
        "C4": "alive",
        "B2": "dead",
        "C2": "dead",
    }


SEKI = """
    . X X O . O .
    O . X O O O O
    O O O X X X X
    X X X X X X X
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


def test_chains_near_even_that_share_a_liberty_are_in_seki():
    """B7 C7 C6 (Black) and A6 A5 B5 C5 (White) share A7 and B6; playouts that fill a shared
    liberty leave either side dead about half the time: shares near 0 on both, seki. White's
    D-G stones are alive (their area), Black's wall too."""
    board = Board.from_ascii(SEKI)
    seki_points = {"B7", "C7", "C6", "A6", "A5", "B5", "C5", "A7", "B6"}
    owner = owner_map(
        board,
        lambda c, r: 0.0 if coords.to_gtp(7, coords.point(7, r, c)) in seki_points else (-1.0 if r < 2 else 1.0),
    )
    seki = {"B7", "C7", "C6", "A6", "A5", "B5", "C5"}
    assert names(board, scoring.final_status(board, owner, "seki")) == seki
    assert scoring.final_status(board, owner, "dead") == []
    # a shared liberty with a clearly dead rival is no seki: the near-even chain is alive
    dead_rival = owner_map(board, lambda c, r: 1.0 if (c, r) in {(0, 1), (0, 2), (1, 2), (2, 2)} else 0.0)
    status = {coords.to_gtp(7, p): s for p, s in scoring.chain_status(board, dead_rival).items()}
    assert status["A6"] == "dead" and status["B7"] == "alive"


def test_an_unknown_status_is_refused():
    board = Board(5)
    with pytest.raises(ValueError, match="unknown status"):
        scoring.final_status(board, np.zeros(board.pts.shape[1]), "undecided")
