"""The reported win rate (``goengine.calibration``): the recalibration by hand, its symmetry and
order, and every front end showing it in place of the search's own rate."""

from __future__ import annotations

import json
import math

import pytest

from goengine import calibration, coords
from goengine.board import BLACK
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine, MoveStats, SearchResult


def by_hand(p, slope):
    z = slope * math.log(p / (1 - p))
    return 1 / (1 + math.exp(-z))


def test_a_rate_is_recalibrated_with_the_slope_of_its_stage():
    slopes = calibration.SLOPES[9]
    # 9x9: stages of 10 moves (81 // 8)
    for moves, k in ((0, 0), (9, 0), (10, 1), (25, 2), (30, 3), (70, 3)):
        assert calibration.reported(0.6, 9, moves) == pytest.approx(by_hand(0.6, slopes[k]))
    # underconfident playouts: the reported rate lies further from one half than the search's
    assert calibration.reported(0.6, 9, 15) > 0.6 and calibration.reported(0.4, 9, 15) < 0.4


@pytest.mark.parametrize("p", [0.0, 0.03, 0.3, 0.5, 0.77, 0.999, 1.0])
def test_a_rate_and_its_complement_stay_complements_and_the_order_is_kept(p):
    assert calibration.reported(1 - p, 9, 22) == pytest.approx(1 - calibration.reported(p, 9, 22), abs=1e-12)
    assert calibration.reported(0.5, 9, 22) == 0.5
    higher = min(1.0, p + 0.01)
    assert calibration.reported(higher, 9, 22) >= calibration.reported(p, 9, 22)


def test_a_size_without_a_fit_and_a_hand_made_result_are_shown_as_searched():
    assert calibration.reported(0.62, 13, 40) == 0.62
    assert calibration.reported(0.62, 0, 0) == 0.62  # SearchResult's defaults: no position given


def result_at(moves_played):
    stats = (MoveStats(40, visits=80, wins=48.0, pv=(40,)), MoveStats(41, visits=20, wins=8.0, pv=(41,)))
    return SearchResult(color=BLACK, komi=7.5, stats=stats, size=9, moves_played=moves_played)


def test_every_front_end_shows_the_calibrated_rate():
    from goengine.analysis.response import response
    from goengine.gtp.streaming import AnalysisRequest, cgos_json, kata_line
    from goengine.review.evaluate import Evaluation

    result = result_at(14)
    shown = calibration.reported(0.6, 9, 14)
    request = AnalysisRequest(BLACK, 1.0, root_info=True)
    line = kata_line(result, request, str, 9)
    assert f"winrate {shown:.6f}" in line
    assert f"rootInfo visits 100 winrate {calibration.reported(0.56, 9, 14):.6f}" in line
    assert json.loads(cgos_json(result, str, 9))["moves"][0]["winrate"] == pytest.approx(shown, abs=1e-6)
    assert Evaluation.of(result).winrate == pytest.approx(shown)
    answer = response("q", 14, result, 9, "SIDETOMOVE", 10, during_search=False)
    assert answer["moveInfos"][0]["winrate"] == pytest.approx(shown, abs=1e-6)


def mirror_images(size, p):
    r, c = coords.row_col(size, p)
    n = size - 1
    images = {(r, c), (c, r), (n - r, c), (r, n - c), (n - r, n - c), (c, n - r), (n - c, r), (n - c, n - r)}
    return {coords.point(size, a, b) for a, b in images}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mirror_image_moves_of_a_symmetric_position_get_figures_within_their_stated_error(seed):
    # after Black's tengen every move has up to seven mirror images; two that were each searched
    # 100 times or more differ by less than 3.5 standard errors: the win rates' binomial one, and
    # the score leads' from the spread each move reports (scoreStdev over the square root of the
    # visits; the example, +4.7 and -1.1 points after 145 visits each, at a spread of about
    # 40 points, was 1.2 of those)
    engine = Engine(EngineConfig(size=9, search=SearchConfig(seed=seed)))
    engine.game.play(BLACK, coords.from_gtp(9, "E5"))
    stats = {s.move: s for s in engine.analyze(request=SearchRequest(Budget(playouts=4000))).stats if s.visits >= 100}
    pairs = [(stats[a], stats[b]) for a in stats for b in mirror_images(9, a) if b in stats and b > a]
    assert len(pairs) >= 3
    for x, y in pairs:
        p = (x.wins + y.wins) / (x.visits + y.visits)
        error = math.sqrt(p * (1 - p) * (1 / x.visits + 1 / y.visits))
        assert abs(x.winrate - y.winrate) < 3.5 * error, (x, y)
        spread = math.sqrt(x.score_stdev**2 / x.visits + y.score_stdev**2 / y.visits)
        assert abs(x.score_lead - y.score_lead) < 3.5 * spread, (x, y)
