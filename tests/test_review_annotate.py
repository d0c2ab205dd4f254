"""The review SGF (``goengine.review.annotate``), read back by sgfmill: Black's win rate as
Sabaki's ``SBKV`` on the root and on every move's node, each move's comment with its loss and the
best move, the best line as a variation beside a move that was not the best, the file's own
comments and variations kept. Sabaki's own parser reads it in ``tests/test_review.py``."""

from __future__ import annotations

import pytest
from sgfmill import sgf as sgfmill

from goengine import coords
from goengine.board import BLACK, PASS, WHITE
from goengine.review.annotate import line, review_sgf, sbkv
from goengine.review.evaluate import Evaluation
from goengine.review.gamefile import read
from goengine.review.losses import review_moves

GAME = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]C[a friendly game];B[ee];W[cc]C[White's own note](;B[gg])(;B[aa]))"


def at(vertex: str) -> int:
    return coords.from_gtp(9, vertex)


def evaluation(to_move: int, winrate: float, lead: float, pv: tuple[str, ...]) -> Evaluation:
    points = tuple(at(v) for v in pv)
    return Evaluation(to_move, winrate, lead, points[0], points, 500)


# the four positions of GAME's main line: before E5, after E5, after C7, after G3
ANALYSES = [
    evaluation(BLACK, 0.52, 1.0, ("E5", "C3", "G7")),  # E5 is the best: no variation
    evaluation(WHITE, 0.47, -0.5, ("C3", "G7")),  # C7 is not: a variation C3 G7
    evaluation(BLACK, 0.60, 4.0, ("G3",)),  # G3 is the best
    evaluation(WHITE, 0.3125, -6.0, ("F6",)),
]


@pytest.fixture
def review(tmp_path):
    path = tmp_path / "game.sgf"
    path.write_text(GAME)
    game = read(path)
    reviews = review_moves(game.moves, ANALYSES, game.first_number)
    text = review_sgf(game, ANALYSES, reviews, "500 playouts")
    return sgfmill.Sgf_game.from_bytes(text)


@pytest.mark.parametrize(
    "rate, text", [(0.5525, "55.25"), (1.0, "100"), (0.0, "0"), (0.505, "50.5"), (0.3333333, "33.33")]
)
def test_sbkv_is_blacks_win_rate_as_sabaki_writes_it(rate, text):
    assert sbkv(Evaluation(BLACK, rate, 0.0, PASS, (), 1)) == text
    assert sbkv(Evaluation(WHITE, 1.0 - rate, 0.0, PASS, (), 1)) == text


def test_every_node_of_the_main_line_carries_blacks_win_rate_after_its_move(review):
    nodes = review.get_main_sequence()
    assert [node.get_raw("SBKV") for node in nodes] == [b"52", b"53", b"60", b"68.75"]


def test_each_moves_comment_gives_the_position_its_loss_and_the_best_move(review):
    nodes = review.get_main_sequence()
    c7 = nodes[2].get("C")
    assert c7.startswith("White's own note\n\n")  # the file's comment first
    assert "goengine: Black 60.0 %, B+4.0" in c7
    # White's win rate 47 % before C7, 40 % after (Black's 60 %): a loss of 7 %; White trailed
    # by 0.5 points before, by 4 after: 3.5 points
    assert "Move 2 (W C7): loss 7.0 % of White's win rate, 3.5 points." in c7
    assert "Best: C3 (White 47.0 %, B+0.5): C3 G7" in c7
    e5 = nodes[1].get("C")
    assert "Move 1 (B E5): loss -1.0 % of Black's win rate, 0.5 points." in e5
    assert "It is the search's best move (Black 52.0 %): E5 C3 G7" in e5


def test_the_root_says_how_the_review_was_made_after_the_files_comment(review):
    root = review.get_root().get("C")
    assert root.startswith("a friendly game\n\nReviewed by goengine ")
    assert "500 playouts a position, komi 6.5 (the file's KM), counted by area" in root
    assert "before move 1: Black 52.0 %, B+1.0" in root


def test_a_move_that_was_not_the_best_gets_the_best_line_beside_it(review):
    nodes = review.get_main_sequence()
    after_e5 = nodes[1]
    assert len(after_e5) == 2
    main, variation = after_e5
    assert main.get_move() == ("w", (6, 2))  # C7, the game's move, stays the main line
    assert variation.get_move() == ("w", (2, 2))  # C3
    assert variation.get("C").startswith("goengine's best instead of move 2: C3 (White 47.0 %")
    assert variation[0].get_move() == ("b", (6, 6))  # G7, Black's answer


def test_a_move_that_was_the_best_gets_no_variation_and_the_files_variations_stay(review):
    root = review.get_root()
    assert len(root) == 1  # E5 was the best
    after_c7 = review.get_main_sequence()[2]
    assert [child.get_move() for child in after_c7] == [("b", (2, 6)), ("b", (8, 0))]  # G3, the file's A9


def test_a_line_alternates_colours_from_the_side_to_move_and_stops_at_its_length():
    a = evaluation(WHITE, 0.5, 0.0, ("C3", "G7", "E5"))
    assert line(a) == ((WHITE, at("C3")), (BLACK, at("G7")), (WHITE, at("E5")))
    assert line(a, moves=2) == ((WHITE, at("C3")), (BLACK, at("G7")))
