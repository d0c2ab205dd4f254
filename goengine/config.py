"""Configuration as data: one frozen dataclass passed down from the command line to the search.

Standard library only, so every layer can import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

DEFAULT_RULE = "rave"
DEFAULT_PLAYOUTS = 10000


@dataclass(frozen=True)
class SearchConfig:
    """How the engine searches.

    ``playouts`` and ``seconds``: the budget per move; when both are given the search stops at
    whichever comes first; with neither, DEFAULT_PLAYOUTS. A game clock (GTP time settings)
    replaces ``seconds`` with the time it allows for the move. ``threads``: one tree per
    thread (root parallelism), merged at the root. ``expand_at``: a leaf is expanded once it has
    been visited this many times (0: on the first visit). ``max_memory_mb``: the trees of all
    threads together stay under this; at the limit the trees stop growing and the search goes on.
    ``resign_threshold``: resign when the best move's win rate is below it after
    ``resign_min_visits`` root visits, or half the playout budget when that is less (0 never
    resigns).
    """

    rule: str = DEFAULT_RULE
    params: tuple[tuple[str, float | str], ...] = ()
    playouts: int | None = None
    seconds: float | None = None
    threads: int = 1
    seed: int = 1
    expand_at: int = 1
    max_memory_mb: float = 1024.0
    resign_threshold: float = 0.1
    resign_min_visits: int = 1000
    reuse_tree: bool = True
    batch: int = 128

    def with_params(self, **params: float | str) -> SearchConfig:
        merged = dict(self.params)
        merged.update(params)
        return replace(self, params=tuple(sorted(merged.items())))


@dataclass(frozen=True)
class EngineConfig:
    """The game-level settings and the search settings."""

    size: int = 9
    komi: float = 7.5
    search: SearchConfig = field(default_factory=SearchConfig)
