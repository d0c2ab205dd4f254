"""One Elo scale from a round robin (``goengine.lab.ratings``): strengths recovered from synthetic
results, the two-player case against today's Wilson-based Elo, and the edges."""

from __future__ import annotations

import math

import numpy as np
import pytest

from goengine.lab.ratings import Result, fit, rate
from goengine.lab.stats import elo, wilson


def synthetic(strengths: dict[str, float], games: int, seed: int) -> list[Result]:
    rng = np.random.default_rng(seed)
    names = list(strengths)
    results = []
    for x in range(len(names)):
        for y in range(x + 1, len(names)):
            a, b = names[x], names[y]
            p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
            wins = int(rng.binomial(games, p))
            results.append(Result(a, b, wins, 0, games - wins))
    return results


def test_ratings_recovered_from_synthetic_results_with_known_strengths():
    truth = {"gnugo": 0.0, "rave": 120.0, "ucb1": -150.0, "kl-ucb": 40.0, "thompson": -60.0}
    results = synthetic(truth, games=3000, seed=5)
    got = fit(list(truth), results, anchor="gnugo", prior_draws=0)
    assert got["gnugo"] == 0.0
    for player, strength in truth.items():
        assert got[player] == pytest.approx(strength, abs=15), (player, got)
    table = rate(list(truth), results, anchor="gnugo", samples=200, seed=3)
    assert [r.player for r in table] == ["rave", "kl-ucb", "gnugo", "thompson", "ucb1"]
    for r in table:
        assert r.low <= r.elo <= r.high and r.games == 4 * 3000
        assert r.low - 5 <= truth[r.player] <= r.high + 5  # the truth inside (a little slack)


def test_two_players_give_the_elo_of_the_win_rate_and_about_the_wilson_interval():
    """30 wins in 100: the maximum-likelihood difference is 400 log10(0.3 / 0.7) = -147.2, the
    Elo of today's table; the bootstrap interval is close to the Elo of Wilson's ends."""
    results = [Result("goengine", "gnugo", 30, 0, 70)]
    assert fit(["goengine", "gnugo"], results, "gnugo", prior_draws=0)["goengine"] == pytest.approx(elo(0.3))
    assert elo(0.3) == pytest.approx(-147.19, abs=0.01)
    row = next(
        r for r in rate(["goengine", "gnugo"], results, "gnugo", samples=2000, prior_draws=0) if r.player == "goengine"
    )
    lo, hi = wilson(30, 100)
    assert row.low == pytest.approx(elo(lo), abs=25) and row.high == pytest.approx(elo(hi), abs=25)
    assert (row.games, row.score) == (100, 0.3)


def test_draws_count_half_and_a_perfect_score_stays_finite_with_the_prior():
    results = [Result("a", "b", 1, 2, 1)]
    assert fit(["a", "b"], results, "b", prior_draws=0)["a"] == pytest.approx(0.0, abs=1e-6)
    perfect = [Result("a", "b", 10, 0, 0)]
    got = fit(["a", "b"], perfect, "b", prior_draws=1)["a"]
    assert math.isfinite(got) and got == pytest.approx(elo(10.5 / 11), abs=0.01)  # one virtual draw


def test_a_rating_needs_two_players_and_a_known_anchor():
    with pytest.raises(ValueError, match="at least two players"):
        rate(["a"], [], "a")
    with pytest.raises(ValueError, match="anchor 'gnugo' is not one of the players"):
        fit(["a", "b"], [Result("a", "b", 1, 0, 1)], "gnugo")


def test_a_perfect_score_still_gets_an_interval_of_some_width():
    """20-0, 20-0 and 0-20: every resample of the games alone would be the same record, so the
    bootstrap counts the virtual draw in and the interval has width."""
    results = [Result("a", "b", 20, 0, 0), Result("a", "c", 20, 0, 0), Result("c", "b", 0, 0, 20)]
    table = {r.player: r for r in rate(["a", "b", "c"], results, "c", samples=300, seed=2)}
    assert table["a"].high - table["a"].low > 50
    assert table["a"].low <= table["a"].elo <= table["a"].high
