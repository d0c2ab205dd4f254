"""KataGo's response format from one search result (``goengine.analysis.response``), on
hand-made results whose every figure is known: perspectives, the layouts of ownership and
policy, the principal variation's length."""

from __future__ import annotations

import numpy as np
import pytest

from goengine import coords
from goengine.analysis import response
from goengine.board import BLACK, PASS, WHITE
from goengine.engine import MoveStats, SearchResult

SIZE = 9


def p(vertex: str) -> int:
    return coords.from_gtp(SIZE, vertex)


def result(color: int) -> SearchResult:
    """Two searched moves and one unsearched: E5 won 30 of 40 (score lead +4 for the mover), D4
    5 of 10, C3 never tried; Black owns A9 fully, White J1."""
    owner = np.zeros((SIZE + 2) ** 2)
    owner[p("A9")] = 1.0
    owner[p("J1")] = -1.0
    spread = np.full((SIZE + 2) ** 2, 0.25)
    stats = (
        MoveStats(
            p("E5"), 40, 30.0, prior=0.5, score_lead=4.0, pv=(p("E5"), p("D4"), p("C3"), PASS), pv_visits=(40, 9, 2, 1)
        ),
        MoveStats(p("D4"), 10, 5.0, prior=0.25, score_lead=-1.0, pv=(p("D4"),), pv_visits=(10,)),
        MoveStats(p("C3"), 0, 0.0, prior=0.25),
    )
    return SearchResult(color=color, komi=7.5, stats=stats, ownership=owner, ownership_stdev=spread)


@pytest.mark.parametrize(
    ("perspective", "color", "flipped"),
    [
        ("SIDETOMOVE", BLACK, False),
        ("SIDETOMOVE", WHITE, False),
        ("BLACK", BLACK, False),
        ("BLACK", WHITE, True),
        ("WHITE", BLACK, True),
        ("WHITE", WHITE, False),
    ],
)
def test_figures_are_flipped_exactly_when_the_perspective_is_the_other_side(perspective, color, flipped):
    assert response.flips(perspective, color) is flipped


def test_a_move_seen_from_its_own_side():
    answer = response.response("q", 3, result(BLACK), SIZE, "SIDETOMOVE", 15, False)
    assert (answer["id"], answer["turnNumber"], answer["isDuringSearch"]) == ("q", 3, False)
    e5, d4 = answer["moveInfos"]  # C3, unsearched, is not listed
    assert e5["move"] == "E5" and e5["order"] == 0 and d4["order"] == 1
    assert (e5["visits"], e5["winrate"], e5["scoreLead"], e5["prior"]) == (40, 0.75, 4.0, 0.5)
    assert e5["scoreMean"] == e5["scoreSelfplay"] == 4.0
    assert e5["utility"] == pytest.approx(0.5)  # 2 w - 1
    assert e5["lcb"] == pytest.approx(0.75 - 1.96 * (0.75 * 0.25 / 40) ** 0.5, abs=1e-7)
    assert e5["pv"] == ["E5", "D4", "C3", "pass"]
    assert "pvVisits" not in e5
    root = answer["rootInfo"]
    assert (root["visits"], root["winrate"], root["currentPlayer"]) == (50, 0.7, "B")
    assert "ownership" not in answer and "policy" not in answer


def test_the_other_side_sees_complements_and_negations_but_the_same_visits_and_priors():
    mine = response.response("q", 0, result(WHITE), SIZE, "WHITE", 15, False, include_ownership=True)
    theirs = response.response("q", 0, result(WHITE), SIZE, "BLACK", 15, False, include_ownership=True)
    for a, b in zip(mine["moveInfos"], theirs["moveInfos"], strict=True):
        assert (a["visits"], a["prior"], a["pv"]) == (b["visits"], b["prior"], b["pv"])
        assert a["winrate"] == pytest.approx(1 - b["winrate"])
        assert a["lcb"] == pytest.approx(1 - b["lcb"])
        assert (a["scoreLead"], a["utility"]) == (pytest.approx(-b["scoreLead"]), pytest.approx(-b["utility"]))
    assert mine["rootInfo"]["currentPlayer"] == theirs["rootInfo"]["currentPlayer"] == "W"
    assert mine["ownership"] == [-x + 0.0 for x in theirs["ownership"]]


def test_ownership_runs_from_the_top_left_for_the_perspectives_player():
    answer = response.response(
        "q", 0, result(WHITE), SIZE, "BLACK", 15, False, include_ownership=True, include_ownership_stdev=True
    )
    owned = answer["ownership"]
    assert len(owned) == 81 and owned[0] == 1.0 and owned[80] == -1.0  # A9 Black's, J1 White's
    assert sum(abs(x) for x in owned) == 2.0
    assert answer["ownershipStdev"] == [0.25] * 81
    # under SIDETOMOVE with White to move, +1 is White's
    side = response.response("q", 0, result(WHITE), SIZE, "SIDETOMOVE", 15, False, include_ownership=True)
    assert side["ownership"][0] == -1.0 and "ownershipStdev" not in side


def test_the_policy_runs_from_the_top_left_with_the_pass_last_and_illegal_points_at_minus_one():
    probabilities = {p("A9"): 0.5, p("J1"): 0.25, PASS: 0.25}
    answer = response.response("q", 0, result(BLACK), SIZE, "BLACK", 15, False, probabilities=probabilities)
    policy = answer["policy"]
    assert len(policy) == 82
    assert (policy[0], policy[80], policy[81]) == (0.5, 0.25, 0.25)
    assert policy.count(-1.0) == 79


def test_the_principal_variation_is_cut_to_the_move_and_pv_length_more_with_its_visits():
    answer = response.response("q", 0, result(BLACK), SIZE, "BLACK", 2, True, pv_visits=True)
    e5 = answer["moveInfos"][0]
    assert e5["pv"] == ["E5", "D4", "C3"] and e5["pvVisits"] == [40, 9, 2]
    assert answer["isDuringSearch"] is True


def test_no_results_is_katagos_line():
    assert response.no_results("q", 4) == {"id": "q", "isDuringSearch": False, "noResults": True, "turnNumber": 4}
