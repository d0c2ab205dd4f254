"""One Elo scale for many players: a Bradley-Terry fit to the results of a round robin, anchored on
a named player, with intervals from a bootstrap over games.

Reading guide: ``fit`` is the maximum-likelihood fit; ``rate`` adds the seeded bootstrap and returns
a table of ``Rating`` rows; ``Result`` is what a pair of players scored against each other.

Model (Bradley and Terry 1952, in Elo's units): player i beats player j with probability
1 / (1 + 10^((R_j - R_i) / 400)). A game counts 1 for its winner and 0 for its loser, a draw 1/2
for each, so the log-likelihood is the sum over pairs of s_ij ln P(i beats j) + s_ji ln P(j beats
i), with s_ij the score of i against j. The anchor's rating is fixed (default 0) and the others
are found by scipy's L-BFGS (scipy comes with the ``match`` extra: ``minimizer`` says when it is
missing, and the match command asks before a tournament's first game). A player who won or lost
every game would have an infinite rating: ``prior_draws`` virtual draws between the two players
of every pair played (BayesElo adds such a prior too) keep every rating finite; 0 gives the pure
maximum-likelihood fit.

Intervals: ``samples`` bootstrap resamples (seeded) draw each pair's games again, as many as were
played, from the pair's proportions of wins, draws and losses with the prior's virtual draws
counted in (half a win and half a loss each); the fit is repeated, and the 2.5th and 97.5th
percentiles of each rating are reported. Counting the prior in keeps a perfect score from giving
a bootstrap of identical resamples and an interval of zero width; with ``prior_draws`` 0 it is
the plain bootstrap over games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from goengine.lab import needs

SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds


@dataclass(frozen=True)
class Result:
    """The games between ``a`` and ``b``: ``wins`` by a, ``draws``, ``losses`` (wins by b)."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Rating:
    """One player's rating on the fitted scale, its 95 % bootstrap interval, games and score."""

    player: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # points (a win 1, a draw 1/2) over games


def minimizer():
    """scipy's ``optimize.minimize``, or MissingExtra naming the ``match`` extra."""
    return needs("scipy.optimize", "rating a tournament").minimize


def fit(players: Sequence[str], results: Sequence[Result], anchor: str, prior_draws: float = 1.0) -> dict[str, float]:
    """Maximum-likelihood ratings of ``players`` from ``results``, ``anchor`` at 0."""
    minimize = minimizer()
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} is not one of the players: {', '.join(players)}")
    index = {p: k for k, p in enumerate(players)}
    i = np.array([index[r.a] for r in results], dtype=np.int64)
    j = np.array([index[r.b] for r in results], dtype=np.int64)
    s_ij = np.array([r.wins + r.draws / 2 + prior_draws / 2 for r in results], dtype=np.float64)
    s_ji = np.array([r.losses + r.draws / 2 + prior_draws / 2 for r in results], dtype=np.float64)
    free = [k for k in range(len(players)) if players[k] != anchor]

    def negative_log_likelihood(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta = np.zeros(len(players))
        theta[free] = x
        d = theta[i] - theta[j]  # ln odds of i beating j
        # -[s_ij ln sigma(d) + s_ji ln sigma(-d)], written with logaddexp for large |d|
        value = float(np.sum(s_ij * np.logaddexp(0.0, -d) + s_ji * np.logaddexp(0.0, d)))
        p = 1.0 / (1.0 + np.exp(-d))
        g_d = -(s_ij * (1.0 - p)) + s_ji * p
        grad = np.zeros(len(players))
        np.add.at(grad, i, g_d)
        np.add.at(grad, j, -g_d)
        return value, grad[free]

    solution = minimize(negative_log_likelihood, np.zeros(len(free)), jac=True, method="L-BFGS-B")
    theta = np.zeros(len(players))
    theta[free] = solution.x
    return {p: float(theta[index[p]] * SCALE) for p in players}


def rate(
    players: Sequence[str],
    results: Sequence[Result],
    anchor: str,
    samples: int = 1000,
    seed: int = 1,
    prior_draws: float = 1.0,
) -> list[Rating]:
    """The ratings of ``players`` with 95 % bootstrap intervals, best first."""
    if len(players) < 2:
        raise ValueError("a rating needs at least two players")
    point = fit(players, results, anchor, prior_draws)
    rng = np.random.default_rng(seed)
    draws = {p: [] for p in players}
    for _ in range(samples):
        resampled = []
        for r in results:
            if r.games == 0:
                continue
            total = r.games + prior_draws
            p = [(r.wins + prior_draws / 2) / total, r.draws / total, (r.losses + prior_draws / 2) / total]
            counts = rng.multinomial(r.games, p)
            resampled.append(Result(r.a, r.b, int(counts[0]), int(counts[1]), int(counts[2])))
        for p, elo in fit(players, resampled, anchor, prior_draws).items():
            draws[p].append(elo)
    rows = []
    for p in players:
        games = sum(r.games for r in results if p in (r.a, r.b))
        points = sum(
            (r.wins if p == r.a else r.losses) + r.draws / 2 for r in results if p in (r.a, r.b)
        )  # fmt: skip
        low, high = np.percentile(draws[p], [2.5, 97.5]) if samples else (point[p], point[p])
        rows.append(Rating(p, point[p], float(low), float(high), games, points / games if games else 0.0))
    return sorted(rows, key=lambda r: -r.elo)
