"""``scripts/review_blunders.py``: the blunder it plants and the way it counts one found."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.review.evaluate import Evaluation
from goengine.review.gamefile import read
from goengine.review.losses import review_moves

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "review_blunders.py"
spec = importlib.util.spec_from_file_location("review_blunders", SCRIPT)
script = importlib.util.module_from_spec(spec)
sys.modules["review_blunders"] = script
spec.loader.exec_module(script)


def at(vertex: str) -> int:
    return coords.from_gtp(9, vertex)


def test_the_planted_blunder_is_a_first_line_point_two_lines_from_every_stone(tmp_path):
    path = tmp_path / "g.sgf"
    path.write_text("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gg];W[cg];B[gc])")
    game = read(path)
    point = script.planted_blunder(game, 4)  # Black's fifth move replaced
    r, c = coords.row_col(9, point)
    assert r in (0, 8) or c in (0, 8)
    board = script.board_after(game, game.moves[:4])
    stones = [p for p in coords.all_points(9) if board.color_at(p)]
    assert all(max(abs(r - rr), abs(c - cc)) > 2 for rr, cc in (coords.row_col(9, p) for p in stones))


def evaluation(to_move, winrate, best):
    return Evaluation(to_move, winrate, 0.0, at(best), (at(best),), 100)


def test_a_blunder_is_found_when_it_is_among_its_players_three_biggest_mistakes():
    # Black's moves lose 0.02, 0.30 (the blunder, move 3) and 0.05; White's nothing
    moves = [(BLACK, at("C3")), (WHITE, at("G7")), (BLACK, at("A1")), (WHITE, at("C7")), (BLACK, at("G3"))]
    rates = [0.50, 0.52, 0.48, 0.82, 0.33, 0.72]  # for the side to move in each position
    movers = [BLACK, WHITE, BLACK, WHITE, BLACK, WHITE]
    bests = ["E5", "G7", "E5", "C7", "E5", "E5"]
    reviews = review_moves(moves, [evaluation(m, r, b) for m, r, b in zip(movers, rates, bests, strict=True)])
    assert script.found(reviews, 3) == (True, 0)
    assert script.found(reviews, 2) == (False, 0)  # White's G7 was its search's best: no mistake
