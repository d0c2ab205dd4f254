"""The sequential probability ratio test (``goengine.lab.sprt``): hand-computed values, and a
simulated coin whose error rates and average length are what Wald's test promises."""

from __future__ import annotations

import math

import numpy as np
import pytest

from goengine.lab import sprt
from goengine.lab.sprt import H0, H1, Sprt

# elo 50: p1 = 1 / (1 + 10^(-50/400)) = 0.5714631174; a win adds ln(p1 / 0.5) = 0.1335918463,
# a loss ln((1 - p1) / 0.5) = -0.1542312904
WIN, LOSS = 0.1335918463, -0.1542312904


@pytest.mark.parametrize(
    ("wins", "draws", "losses", "expected"),
    [
        (1, 0, 0, WIN),
        (0, 0, 1, LOSS),
        (0, 1, 0, (WIN + LOSS) / 2),  # a jigo: half a win and half a loss
        (3, 1, 2, 3.5 * WIN + 2.5 * LOSS),  # = 0.0819932360
        (10, 0, 10, 10 * (WIN + LOSS)),
    ],
)
def test_llr_matches_hand_computation(wins, draws, losses, expected):
    assert sprt.llr(wins, draws, losses, 0.0, 50.0) == pytest.approx(expected, abs=1e-9)


def test_elo_and_bounds_match_hand_computation():
    assert sprt.elo_to_p(0) == 0.5
    assert sprt.elo_to_p(50) == pytest.approx(0.5714631174)
    assert sprt.elo_to_p(-400) == pytest.approx(1 / 11)
    lower, upper = sprt.bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-math.log(19), math.log(19)))  # -+2.944439
    assert sprt.bounds(0.05, 0.10) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_status_follows_the_bounds():
    test = Sprt(0, 50)
    assert test.status(0, 0, 0) == "continue"
    # 23 straight wins: 23 * 0.1336 = 3.07 >= 2.944 (22 wins: 2.94 < 2.944)
    assert test.status(22, 0, 0) == "continue" and test.status(23, 0, 0) == H1
    # 20 straight losses: -3.08 <= -2.944 (19: -2.93)
    assert test.status(0, 0, 19) == "continue" and test.status(0, 0, 20) == H0


@pytest.mark.parametrize("text", ["50,0", "10,10", "x", "1,2,3", "nan,5", ""])
def test_bad_hypotheses_are_refused(text):
    with pytest.raises(ValueError, match="--sprt|ELO0 < ELO1"):
        Sprt.parse(text)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0, 50, alpha=0.7)


def simulate(p: float, test: Sprt, runs: int, cap: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` sequential tests on a coin that wins with probability ``p``: the verdict of each
    (+1 H1, -1 H0, 0 none within ``cap`` games) and the games it took."""
    rng = np.random.default_rng(seed)
    p0, p1 = sprt.elo_to_p(test.elo0), sprt.elo_to_p(test.elo1)
    step = np.where(rng.random((runs, cap)) < p, math.log(p1 / p0), math.log((1 - p1) / (1 - p0)))
    path = np.cumsum(step, axis=1)
    lower, upper = test.bounds
    crossed = (path >= upper) | (path <= lower)
    stopped = crossed.any(axis=1)
    first = np.where(stopped, crossed.argmax(axis=1), cap - 1)
    final = path[np.arange(runs), first]
    verdict = np.where(~stopped, 0, np.where(final >= upper, 1, -1))
    return verdict, first + 1


@pytest.mark.parametrize(("elo0", "elo1", "alpha", "beta"), [(0, 50, 0.05, 0.05), (-20, 20, 0.05, 0.1)])
def test_a_simulated_coin_keeps_the_error_rates_and_stops_early(elo0, elo1, alpha, beta):
    """4,000 seeded tests at the H0 rate and 4,000 at the H1 rate. Tolerance: an observed error rate
    may exceed its nominal value by three standard errors of a 4,000-run estimate (about 0.01);
    Wald's bounds are conservative, so it usually comes out below. The average number of games is
    below what a test of fixed length needs for the same errors."""
    test = Sprt(elo0, elo1, alpha, beta)
    runs, cap = 4000, 6000
    fixed = sprt.fixed_sample_size(elo0, elo1, alpha, beta)
    for p, wrong, nominal, seed in ((sprt.elo_to_p(elo0), 1, alpha, 1), (sprt.elo_to_p(elo1), -1, beta, 2)):
        verdict, games = simulate(p, test, runs, cap, seed)
        assert (verdict != 0).mean() > 0.999  # practically every test ends
        error = (verdict == wrong).mean()
        assert error <= nominal + 3 * math.sqrt(nominal * (1 - nominal) / runs), (p, error)
        assert games.mean() < fixed, (p, games.mean(), fixed)


def test_fixed_sample_size_matches_the_textbook_formula():
    # p0 = 0.5, p1 = 0.5714631174, z = 1.644853627 for 5 %:
    # (1.644853627 * (0.5 + 0.4948671)) / 0.0714631174 = 22.898, squared 524.3 -> 525
    assert sprt.fixed_sample_size(0, 50, 0.05, 0.05) == 525
