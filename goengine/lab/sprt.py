"""Wald's sequential probability ratio test on match results: stop as soon as the games so far
decide between two Elo differences, as chess engine testing does (fishtest, cutechess-cli
``-sprt``).

Reading guide: ``Sprt.status`` is the test on a record of wins, draws and losses; ``llr`` the
statistic; ``bounds`` Wald's thresholds; ``fixed_sample_size`` the number of games a test of fixed
length needs for the same errors, to compare the sequential test's average with.

The model is binomial: each game is a Bernoulli trial won with probability p, and an Elo
difference d means p = 1 / (1 + 10^(-d / 400)). H0 is d = ELO0 (the change is no better than
ELO0), H1 is d = ELO1. A draw (jigo: equal area with an integer komi) counts as half a win and
half a loss, so W = wins + draws / 2 and L = losses + draws / 2, and

    LLR = W ln(p1 / p0) + L ln((1 - p1) / (1 - p0)).

Wald's approximate bounds: accept H1 once LLR >= ln((1 - beta) / alpha), accept H0 once
LLR <= ln(beta / (1 - alpha)); alpha is the chance of accepting H1 when H0 holds, beta that of
accepting H0 when H1 holds (Wald 1945, "Sequential tests of statistical hypotheses"). A resumed
match recomputes the LLR from its records, so a killed run continues the same test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

H0 = "H0"  # accepted: no better than ELO0
H1 = "H1"  # accepted: at least ELO1
CONTINUE = "continue"


def elo_to_p(elo: float) -> float:
    """The win probability of an Elo difference ``elo``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def llr(wins: float, draws: float, losses: float, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for a record, a draw counting
    half a win and half a loss."""
    p0, p1 = elo_to_p(elo0), elo_to_p(elo1)
    w = wins + draws / 2.0
    ell = losses + draws / 2.0
    return w * math.log(p1 / p0) + ell * math.log((1.0 - p1) / (1.0 - p0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's ``(lower, upper)`` bounds on the LLR: H0 is accepted at or below the lower one, H1 at
    or above the upper one."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def fixed_sample_size(elo0: float, elo1: float, alpha: float, beta: float) -> int:
    """Games a one-sided test of fixed length needs to tell p0 from p1 with errors alpha and beta
    (normal approximation): ((z_a sqrt(p0 q0) + z_b sqrt(p1 q1)) / (p1 - p0))^2."""
    p0, p1 = elo_to_p(elo0), elo_to_p(elo1)
    za, zb = NormalDist().inv_cdf(1.0 - alpha), NormalDist().inv_cdf(1.0 - beta)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2
    return math.ceil(n)


@dataclass(frozen=True)
class Sprt:
    """A test of H0: Elo difference ``elo0`` against H1: ``elo1`` (``elo0 < elo1``) with error rates
    ``alpha`` (accepting H1 under H0) and ``beta`` (accepting H0 under H1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs ELO0 < ELO1, got {self.elo0:g},{self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"--{name} must be between 0 and 0.5, got {value:g}")

    @classmethod
    def parse(cls, text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
        """``ELO0,ELO1`` as the command line gives it; ValueError saying what is wrong."""
        parts = text.split(",")
        try:
            elo0, elo1 = (float(p) for p in parts)
        except ValueError:
            raise ValueError(f"--sprt wants ELO0,ELO1 (two numbers), got {text!r}") from None
        if not (math.isfinite(elo0) and math.isfinite(elo1)):
            raise ValueError(f"--sprt wants finite Elo differences, got {text!r}")
        return cls(elo0, elo1, alpha, beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def llr(self, wins: float, draws: float, losses: float) -> float:
        return llr(wins, draws, losses, self.elo0, self.elo1)

    def status(self, wins: float, draws: float, losses: float) -> str:
        """H1, H0, or CONTINUE for this record."""
        lower, upper = self.bounds
        value = self.llr(wins, draws, losses)
        if value >= upper:
            return H1
        if value <= lower:
            return H0
        return CONTINUE

    def describe(self) -> str:
        return f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"
