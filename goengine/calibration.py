"""The win rate goengine reports: the search's own, calibrated on the results of real games.

A search's win rate is the share of its playouts won, and a playout is a noisy game: a position
that is won in play is often lost by the random moves of a playout, and the other way round. So
the search's rates crowd towards one half. Measured on positions of finished games against GNU Go
and Pachi (``scripts/calibration.py``, ``docs/results/calibration.md``), the side to move won
positions the search rated 55 % or 45 % about two times in three or one in three.

What every front end reports (GTP's analysis lines, GoGui's labels, the JSON analysis, the
review) is therefore ``reported(p, size, moves)``: a logistic recalibration,
``sigmoid(a * logit(p))``, with a slope ``a`` for each stage of the game (the moves played, in
eighths of the board's points, as ``scripts/calibration.py`` counts them), fitted by maximum
likelihood on half of the games and checked on the other half. It has no intercept, so a rate
and its complement stay complements (Black's 70 % is White's 30 %), and it keeps the order of the
moves. A board size without a fit is reported as searched: 13x13 (no games), and 19x19, whose
rates measured about right from move 45 on and uninformative before (its games are mostly
handicap games, decided by who plays them more than by the position). The engine's own decisions
(resignation, the clock's stop test, the dynamic komi) read the search's rates, unchanged.
"""

from __future__ import annotations

import math

# slopes by stage (moves 0 to size^2/8 - 1, ... , 3 size^2/8 on), from `python scripts/calibration.py
# report samples-9x9.jsonl --fit` (docs/results/calibration.md: the samples, the check half's Brier
# scores before and after)
SLOPES: dict[int, tuple[float, float, float, float]] = {
    9: (2.508, 2.797, 2.471, 1.884),
}
_EDGE = 1e-6  # a rate of 0 or 1 (no playout won, or every one) stays at the edge


def stage(size: int, moves: int) -> int:
    """0 to 3: the stage of a game of this size after ``moves`` moves."""
    return min(3, moves // max(1, size * size // 8))


def reported_in(result, p: float) -> float:
    """``reported`` for a rate ``p`` of ``result`` (a ``SearchResult``: its ``size`` and
    ``moves_played`` say where the position stands)."""
    return reported(p, result.size, result.moves_played)


def reported(p: float, size: int, moves: int) -> float:
    """The win rate to report for a search's rate ``p`` in a position of ``size`` after ``moves``
    moves."""
    slopes = SLOPES.get(size)
    if slopes is None or not 0.0 < p < 1.0:
        return p
    q = min(max(p, _EDGE), 1.0 - _EDGE)
    return 1.0 / (1.0 + math.exp(-slopes[stage(size, moves)] * math.log(q / (1.0 - q))))
