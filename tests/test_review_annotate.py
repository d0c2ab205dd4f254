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


def evaluation(to_move: int, winrate: float, lead: float, pv: tuple[str, ...], moves=()) -> Evaluation:
    points = tuple(at(v) for v in pv)
    return Evaluation(to_move, winrate, lead, points[0], points, 500, 0.0, tuple((at(m), *f) for m, *f in moves))


# the four positions of GAME's main line: before E5, after E5, after C7, after G3
ANALYSES = [
    evaluation(BLACK, 0.52, 1.0, ("E5", "C3", "G7")),  # E5 is the best: no variation
    # C7 is not the best: a variation C3 G7; the search gave C7 100 of its 500 visits, enough to
    # judge it there: White's 44 %, 2 points behind
    evaluation(WHITE, 0.47, -0.5, ("C3", "G7"), moves=[("C3", 0.47, -0.5, 300), ("C7", 0.44, -2.0, 100)]),
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
    assert sbkv(Evaluation(BLACK, rate, 0.0, PASS, (), 1).black_winrate) == text
    assert sbkv(Evaluation(WHITE, 1.0 - rate, 0.0, PASS, (), 1).black_winrate) == text


def test_every_node_of_the_main_line_carries_blacks_win_rate_after_its_move(review):
    # each move's value from the search of the position it was played in: E5 and G3 were the
    # best (Black's 52 % and 60 % stand), C7 had White's 44 % there (Black's 56 %)
    nodes = review.get_main_sequence()
    assert [node.get_raw("SBKV") for node in nodes] == [b"52", b"52", b"56", b"60"]


def test_each_moves_comment_gives_the_position_its_loss_and_the_best_move(review):
    nodes = review.get_main_sequence()
    c7 = nodes[2].get("C")
    assert c7.startswith("White's own note\n\n")  # the file's comment first
    assert "goengine: Black 56.0 %, B+2.0 (the move in the search before it)" in c7
    # in the search before C7, White's 47 % with C3 and 44 % with C7: a loss of 3 %; 0.5 and 2
    # points behind: 1.5 points (the search after C7 would have said 7 % and 3.5)
    assert "Move 2 (W C7): loss 3.0 % of White's win rate, 1.5 points." in c7
    assert "Best: C3 (White 47.0 %, B+0.5): C3 G7" in c7
    e5 = nodes[1].get("C")
    assert "Move 1 (B E5): loss 0.0 % of Black's win rate, 0.0 points." in e5  # the best loses nothing
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
