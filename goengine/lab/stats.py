"""The statistics of a match: intervals for a win rate, Elo differences, and the per-configuration
summary of a folder's records.

Draws count half a win everywhere. ``summarize`` reads the records the referee writes
(``lab.referee.play_game``); void games are counted apart and never enter a rate. A configuration
whose games were played by more than one version of the engine (``goengine.version``: the commit)
gets one row per version, named ``CONFIG @ VERSION``, so games of two commits never share a rate.
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
    """One row of the table: a configuration (and engine version, when a folder holds several)."""

    config: str
    games: int = 0
    wins: float = 0.0  # draws count half
    won: int = 0  # games won outright
    draws: int = 0
    lost: int = 0
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
    engine_longest: float = 0.0  # the most goengine's side took for one move
    reasons: dict = field(default_factory=dict)
    sprt: dict | None = None  # the test the records were played under (lab.sprt), if any

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


def score(records: list[dict], config: str) -> tuple[int, int, int]:
    """``(won, drawn, lost)`` by the engine under test in the finished games of ``config``."""
    games = [r for r in records if r["config"] == config and not r.get("void")]
    won = sum(1 for r in games if r["engine_won"] is True)
    lost = sum(1 for r in games if r["engine_won"] is False)
    return won, len(games) - won - lost, lost


def engine_version(record: dict) -> str:
    """The GTP ``version`` of the engine under test in a record."""
    return record["black" if record["engine_black"] else "white"].get("version", "")


def summarize(records: list[dict]) -> list[Summary]:
    """One summary per configuration from the finished (non-void) records, in first-seen order;
    one per configuration and engine version where a configuration was played by several."""
    versions: dict[str, set[str]] = {}
    for r in records:
        if not r.get("void"):
            versions.setdefault(r["config"], set()).add(engine_version(r))
    out: dict[str, Summary] = {}
    for r in records:
        name = r["config"]
        if len(versions.get(name, ())) > 1:
            name = f"{name} @ {engine_version(r)}"
        s = out.setdefault(name, Summary(name))
        if r.get("void"):
            s.voids += 1
            continue
        won = 0.5 if r["engine_won"] is None else float(r["engine_won"])
        s.games += 1
        s.wins += won
        s.won += int(won == 1.0)
        s.draws += int(won == 0.5)
        s.lost += int(won == 0.0)
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
        s.engine_longest = max(s.engine_longest, max(r[mine].get("times") or [0.0]))
        s.opponent_seconds += r[theirs]["seconds"]
        s.opponent_moves += r[theirs]["moves"]
        key = r["reason"].split(":")[0].split(",")[0]
        s.reasons[key] = s.reasons.get(key, 0) + 1
        if r.get("sprt"):
            s.sprt = r["sprt"]
    return list(out.values())
