"""The statistics of a match (``goengine.lab.stats``): Wilson's interval against the textbook formula
and known values, Elo, and the summary of hand-made records."""

from __future__ import annotations

import math
import statistics

import pytest
from match_harness import (
    hand_record,
)

from goengine.lab.stats import elo, summarize, wilson

Z95 = statistics.NormalDist().inv_cdf(0.975)


def textbook_wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """(2k + z^2 -+ z sqrt(z^2 + 4k(n-k)/n)) / (2(n + z^2)), Wilson (1927) in counts."""
    root = z * math.sqrt(z * z + 4 * k * (n - k) / n)
    return (2 * k + z * z - root) / (2 * (n + z * z)), (2 * k + z * z + root) / (2 * (n + z * z))


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (5, 10), (10, 10), (32, 100), (1, 3), (7.5, 20), (81, 263)])
def test_wilson_matches_the_textbook_formula(wins, n):
    lo, hi = wilson(wins, n)
    want_lo, want_hi = textbook_wilson(wins, n)
    assert lo == pytest.approx(max(0.0, want_lo), abs=1e-12)
    assert hi == pytest.approx(min(1.0, want_hi), abs=1e-12)
    assert 0.0 <= lo <= wins / n + 1e-12 and wins / n - 1e-12 <= hi <= 1.0


def test_wilson_ends_are_exact():
    """No win: the interval starts at exactly 0; all wins: it ends at exactly 1, so the Elo
    interval of a perfect score ends at +inf (as ``elo`` promises at 1), not at about +6400."""
    starts = {n: wilson(0, n)[0] for n in range(1, 101)}
    ends = {n: wilson(n, n)[1] for n in range(1, 101)}
    assert {n: x for n, x in starts.items() if x != 0.0} == {}
    assert {n: x for n, x in ends.items() if x != 1.0} == {}
    (perfect,) = summarize([hand_record("p", i, True) for i in range(10)])
    assert perfect.elo_interval[1] == math.inf


def test_wilson_known_values():
    # the example of the Wikipedia article "Binomial proportion confidence interval"
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-3) and hi == pytest.approx(0.3662, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(Z95**2 / (10 + Z95**2))
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(10, 10)[0] == pytest.approx(10 / (10 + Z95**2))
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(50, 100), wilson(50, 100, z=2.576)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_elo_known_values():
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(10 / 11) == pytest.approx(400.0)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def test_summarize_hand_made_records():
    records = [
        hand_record("a", 0, True),  # as black: win
        hand_record("a", 1, False, reason="resignation"),  # as white: loss
        hand_record("a", 2, None, reason="two passes, draw"),  # as black: draw, half a win
        hand_record("a", 3, True, disagree=True, reason="illegal move 'c3' by black: occupied"),  # as white: win
        hand_record("a", 4, None, void="GtpTimeout: no response"),  # void: left out
        hand_record("b", 0, False, n_moves=20),
        hand_record("a", 4, True),  # the replay of the void game
        hand_record("b", 1, None, void="GtpEngineDied: gone"),
        hand_record("b", 1, None, void="GtpEngineDied: gone"),
    ]
    a, b = summarize(records)
    assert (a.config, b.config) == ("a", "b")
    assert (a.games, a.wins, a.voids, a.disagreements) == (5, 3.5, 1, 1)
    assert (a.black_games, a.black_wins, a.white_games, a.white_wins) == (3, 2.5, 2, 1.0)
    assert a.rate == pytest.approx(0.7)
    assert a.interval == wilson(3.5, 5)
    assert a.elo_interval == (elo(a.interval[0]), elo(a.interval[1]))
    assert a.moves == 50 and a.engine_moves == 25 and a.opponent_moves == 25
    assert a.engine_seconds == pytest.approx(5.0) and a.opponent_seconds == pytest.approx(2.5)
    assert a.reasons == {"two passes": 3, "resignation": 1, "illegal move 'c3' by black": 1}
    assert (b.games, b.wins, b.voids, b.black_games, b.white_games) == (1, 0.0, 2, 1, 0)
    assert b.rate == 0.0 and b.interval == wilson(0, 1)
    assert summarize([]) == []
    (only_voids,) = summarize([hand_record("c", 0, None, void="x")])
    assert (only_voids.games, only_voids.voids, only_voids.rate, only_voids.interval) == (0, 1, 0.0, (0.0, 1.0))
