"""The loss of a move (``goengine.review.losses``), on evaluations made by hand: the mover's win rate
and score with the best move before it, less the move played's in the same search when it had
enough visits there, else the mover's after it, whichever colour moved and whoever is to move
after; the search's best move loses nothing; the curve the plot draws; and the ranking of each
colour's mistakes and their table."""

from __future__ import annotations

import pytest

from goengine import coords
from goengine.board import BLACK, PASS, WHITE
from goengine.review.evaluate import Evaluation
from goengine.review.losses import MoveReview, curve, lead_text, mistakes, review_moves, table

SIZE = 9


def at(vertex: str) -> int:
    return coords.from_gtp(SIZE, vertex)


def evaluation(to_move: int, winrate: float, lead: float, best: str = "E5", moves=(), visits=100) -> Evaluation:
    """A position's evaluation: ``winrate`` and ``lead`` for ``to_move``, and its root moves'
    ``(vertex, win rate, lead, visits)``."""
    kept = tuple((at(m), w, s, n) for m, w, s, n in moves)
    return Evaluation(to_move, winrate, lead, at(best), (at(best),), visits, 0.1, kept)


def test_a_black_move_loses_its_win_rate_and_score_before_less_those_after_seen_from_black():
    before = evaluation(BLACK, 0.60, 3.0)  # Black to move: 60 %, Black leads by 3
    after = evaluation(WHITE, 0.70, 5.0)  # White to move: White 70 %, White leads by 5
    review = MoveReview(10, BLACK, at("A1"), before, after)
    assert review.winrate_loss == pytest.approx(0.60 - 0.30)
    assert review.score_loss == pytest.approx(3.0 - (-5.0))


def test_a_white_move_is_judged_from_whites_side():
    before = evaluation(WHITE, 0.55, 1.0)  # White to move: White 55 %, White leads by 1
    after = evaluation(BLACK, 0.80, 12.0)  # Black to move: Black 80 %, Black leads by 12
    review = MoveReview(11, WHITE, at("J9"), before, after)
    assert review.winrate_loss == pytest.approx(0.55 - 0.20)
    assert review.score_loss == pytest.approx(1.0 - (-12.0))


def test_a_move_after_which_the_same_colour_moves_again_is_judged_alike():
    # Black moves, and Black is to move after it too (the opponent then passed, say): the search
    # after is Black's own, so its figures count as they are
    before = evaluation(BLACK, 0.50, 0.0)
    after = evaluation(BLACK, 0.45, -2.0)
    review = MoveReview(3, BLACK, at("C3"), before, after)
    assert review.winrate_loss == pytest.approx(0.05)
    assert review.score_loss == pytest.approx(2.0)


def test_a_move_the_search_had_underrated_loses_less_than_nothing():
    review = MoveReview(5, BLACK, at("D4"), evaluation(BLACK, 0.50, 0.0), evaluation(WHITE, 0.40, -1.5))
    assert review.winrate_loss == pytest.approx(-0.10)
    assert review.score_loss == pytest.approx(-1.5)


def test_the_best_move_is_the_searchs_before_the_move():
    review = MoveReview(1, BLACK, at("E5"), evaluation(BLACK, 0.5, 0.0, best="E5"), evaluation(WHITE, 0.5, 0.0))
    assert review.best == at("E5") and review.was_best
    other = MoveReview(1, BLACK, at("A1"), evaluation(BLACK, 0.5, 0.0, best="E5"), evaluation(WHITE, 0.5, 0.0))
    assert not other.was_best


def test_review_moves_pairs_each_move_with_the_positions_around_it_and_numbers_it():
    moves = [(BLACK, at("E5")), (WHITE, at("C3")), (BLACK, PASS)]
    evaluations = [
        evaluation(BLACK, 0.5, 0),
        evaluation(WHITE, 0.4, 0),
        evaluation(BLACK, 0.7, 0),
        evaluation(WHITE, 0.2, 0),
    ]
    reviews = review_moves(moves, evaluations, first_number=7)
    assert [r.number for r in reviews] == [7, 8, 9]
    assert [(r.color, r.point) for r in reviews] == moves
    assert all(r.before is evaluations[i] and r.after is evaluations[i + 1] for i, r in enumerate(reviews))
    with pytest.raises(ValueError, match="3 moves need 4 evaluations"):
        review_moves(moves, evaluations[:3])


def reviews_with_losses(losses: list[tuple[int, float, float]]) -> list[MoveReview]:
    """A move a ``(color, win-rate loss, score loss)``, numbered from 1."""
    result = []
    for number, (color, rate, score) in enumerate(losses, start=1):
        other = WHITE if color == BLACK else BLACK
        before = evaluation(color, 0.5 + rate, score)
        after = evaluation(other, 0.5, 0.0)
        result.append(MoveReview(number, color, at("A1"), before, after))
    return result


def test_mistakes_lists_a_colours_biggest_win_rate_losses_first_ties_by_score_then_move():
    reviews = reviews_with_losses(
        [(BLACK, 0.10, 2.0), (WHITE, 0.30, 9.0), (BLACK, 0.25, 1.0), (BLACK, 0.10, 5.0), (BLACK, -0.02, -1.0)]
    )
    assert [r.number for r in mistakes(reviews, BLACK)] == [3, 4, 1]
    assert [r.number for r in mistakes(reviews, WHITE)] == [2]
    assert [r.number for r in mistakes(reviews, BLACK, count=2)] == [3, 4]


def test_a_move_that_lost_nothing_is_no_mistake():
    assert mistakes(reviews_with_losses([(BLACK, 0.0, 0.0), (BLACK, -0.1, -3.0)]), BLACK) == []


def test_the_table_lists_each_colours_mistakes_with_the_move_the_best_and_both_losses():
    reviews = reviews_with_losses([(BLACK, 0.25, 7.5), (WHITE, 0.125, 3.25)])
    text = table(reviews, SIZE)
    lines = text.splitlines()
    assert lines[0] == "Black's biggest mistakes:"
    assert lines[2].split() == ["1", "A1", "E5", "25.0", "%", "7.5"]
    assert lines[3] == "White's biggest mistakes:"
    assert lines[5].split() == ["2", "A1", "E5", "12.5", "%", "3.2"]
    only_white = table(reviews_with_losses([(WHITE, 0.2, 1.0)]), SIZE)
    assert only_white.splitlines()[:2] == ["Black's biggest mistakes:", "  none"]


@pytest.mark.parametrize("lead, text", [(3.5, "B+3.5"), (-0.5, "W+0.5"), (0.01, "0"), (-12.3, "W+12.3")])
def test_a_lead_is_written_for_the_side_ahead(lead, text):
    assert lead_text(lead) == text


def test_a_move_the_search_before_it_looked_at_enough_is_judged_there():
    # Black's best E5 at 60 %, 3 ahead; D4, played, had 200 of the 1,000 visits: 52 %, 1 ahead.
    # The search after D4 (White's, flattering White) would have charged it 60 - 35 = 25 %.
    moves = [("E5", 0.60, 3.0, 600), ("D4", 0.52, 1.0, 200), ("A1", 0.10, -20.0, 25)]
    before = evaluation(BLACK, 0.60, 3.0, moves=moves, visits=1000)
    review = MoveReview(7, BLACK, at("D4"), before, evaluation(WHITE, 0.65, 2.0))
    assert review.judged_before
    assert review.winrate_loss == pytest.approx(0.08) and review.score_loss == pytest.approx(2.0)
    assert (review.black_winrate_after, review.black_lead_after) == (0.52, 1.0)
    # A1, 25 visits (fewer than 30): the search after judges it
    review = MoveReview(7, BLACK, at("A1"), before, evaluation(WHITE, 0.95, 18.0))
    assert not review.judged_before
    assert review.winrate_loss == pytest.approx(0.55) and review.black_lead_after == pytest.approx(-18.0)


def test_a_white_move_is_judged_in_its_own_search_from_whites_side():
    before = evaluation(WHITE, 0.70, 4.0, best="C3", moves=[("C3", 0.70, 4.0, 80), ("G7", 0.66, 2.5, 40)])
    review = MoveReview(8, WHITE, at("G7"), before, evaluation(BLACK, 0.50, 0.0))
    assert review.winrate_loss == pytest.approx(0.04) and review.score_loss == pytest.approx(1.5)
    assert review.black_winrate_after == pytest.approx(0.34) and review.black_lead_after == pytest.approx(-2.5)


def test_the_searchs_best_move_loses_nothing_whatever_the_search_after_says():
    # the D3: charged 11.8 % by the search after it while it was the search's best
    before = evaluation(WHITE, 0.40, -2.0, best="D3")
    review = MoveReview(38, WHITE, at("D3"), before, evaluation(BLACK, 0.718, 6.0))
    assert review.was_best and review.winrate_loss == 0.0 and review.score_loss == 0.0
    assert review.black_winrate_after == pytest.approx(0.60)


def test_the_curve_starts_with_the_first_search_and_follows_each_move():
    evaluations = [
        evaluation(BLACK, 0.55, 1.0, best="E5"),
        evaluation(WHITE, 0.60, 2.0, best="C3", moves=[("C3", 0.60, 2.0, 70), ("C7", 0.50, -1.0, 30)]),
        evaluation(BLACK, 0.52, 0.5, best="G3"),
    ]
    reviews = review_moves([(BLACK, at("E5")), (WHITE, at("C7"))], evaluations)
    assert curve(evaluations, reviews) == [(0.55, 1.0), (0.55, 1.0), (0.50, 1.0)]
