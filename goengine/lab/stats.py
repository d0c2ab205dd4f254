"""The statistics of a match: intervals for a win rate, Elo differences, and the per-configuration
summary of a folder's records.

Draws count half a win everywhere. ``summarize`` reads the records the referee writes
(``lab.referee.play_game``); void games are counted apart and never enter a rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (draws count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # the ends are exactly 0 and 1 with no wins or no losses (rounding would leave 1e-17)
    lo = 0.0 if wins <= 0 else max(0.0, center - half)
    hi = 1.0 if wins >= n else min(1.0, center + half)
    return lo, hi


def elo(p: float) -> float:
    """The Elo difference that gives win probability p (+-inf at 1 and 0)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400 * math.log10(p / (1 - p))


@dataclass
class Summary:
    config: str
    games: int = 0
    wins: float = 0.0
    black_games: int = 0
    black_wins: float = 0.0
    white_games: int = 0
    white_wins: float = 0.0
    voids: int = 0
    disagreements: int = 0
    moves: int = 0
    engine_seconds: float = 0.0
    engine_moves: int = 0
    opponent_seconds: float = 0.0
    opponent_moves: int = 0
    reasons: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def elo_interval(self) -> tuple[float, float]:
        lo, hi = self.interval
        return elo(lo), elo(hi)


def summarize(records: list[dict]) -> list[Summary]:
    """One summary per configuration from the finished (non-void) records, in first-seen order."""
    out: dict[str, Summary] = {}
    for r in records:
        s = out.setdefault(r["config"], Summary(r["config"]))
        if r.get("void"):
            s.voids += 1
            continue
        won = 0.5 if r["engine_won"] is None else float(r["engine_won"])
        s.games += 1
        s.wins += won
        if r["engine_black"]:
            s.black_games += 1
            s.black_wins += won
        else:
            s.white_games += 1
            s.white_wins += won
        s.disagreements += int(bool(r.get("score_disagreement")))
        s.moves += r["n_moves"]
        mine, theirs = ("black", "white") if r["engine_black"] else ("white", "black")
        s.engine_seconds += r[mine]["seconds"]
        s.engine_moves += r[mine]["moves"]
        s.opponent_seconds += r[theirs]["seconds"]
        s.opponent_moves += r[theirs]["moves"]
        key = r["reason"].split(":")[0].split(",")[0]
        s.reasons[key] = s.reasons.get(key, 0) + 1
    return list(out.values())
