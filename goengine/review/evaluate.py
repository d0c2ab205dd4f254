"""Evaluating positions: one search a position, here, on a process pool, or on a Dask cluster.

``evaluate(position, config, budget)`` searches one ``gamefile.Position`` from fresh trees (as KataGo
searches each query afresh) and returns an ``Evaluation``: plain figures, small to send back from
another process or machine. Each process keeps one ``Engine`` a configuration and reuses it from
position to position (``_engine_at``): a position of the game it holds, a few moves on, is
reached by playing those moves, so a game is replayed once a worker rather than once a position;
before each search the engine gets fresh trees and random streams seeded as a new engine's
(``Engine.fresh_search``). With one search thread a position's figures are therefore the same
wherever and after whatever it ran, here, in a pool or on a cluster.

``evaluated`` takes ``(key, position)`` pairs and yields ``(key, Evaluation or the exception that
stopped it)`` as searches end, in any order, on the one job runner (``goengine.jobs``):
positions, not games, are the unit of work, so one long game spreads over every core. The
runner keeps a few positions a worker in flight, not the whole queue, so a folder of a
thousand games is not held in the pool's queue at once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from goengine.board import BLACK, PASS
from goengine.calibration import reported_in
from goengine.config import Budget, EngineConfig
from goengine.engine import Engine, SearchRequest, SearchResult
from goengine.game import Setup
from goengine.jobs import Runner
from goengine.review.gamefile import Position

IN_FLIGHT = 3  # positions sent to each worker ahead of its results (``jobs.Runner``): enough to keep it busy
CANDIDATE_SHARE = 0.01  # a root move with this share of the visits is kept among an evaluation's moves
ENOUGH_VISITS = 30  # ... and its figures stand for the move's value from this many visits
ENOUGH_SHARE = 0.05  # ... and this share of the root's visits


@dataclass(frozen=True)
class Evaluation:
    """What one search found at a position, for the side to move there (``to_move``): the most
    visited move (``best``, a point or PASS), its win rate (``winrate``, 0..1) and score lead
    (``score_lead``, points; positive when ``to_move`` leads), its principal variation (``pv``,
    ``best`` first), and what was spent (``visits`` at the root, ``seconds``). The position's
    value is the best move's figures: what the side to move can expect with its best play.
    ``moves`` keeps the figures of every root move with at least CANDIDATE_SHARE of the visits:
    ``(move, win rate, score lead, visits)``, for ``to_move``, most visited first; the review
    reads a move played there from them (``value_of``)."""

    to_move: int
    winrate: float
    score_lead: float
    best: int
    pv: tuple[int, ...]
    visits: int
    seconds: float = field(default=0.0, compare=False)  # the clock's, not the search's: not compared
    moves: tuple[tuple[int, float, float, int], ...] = ()

    @classmethod
    def of(cls, result: SearchResult) -> Evaluation:
        best = result.best
        if best is None:  # nothing searched: an even guess, a pass
            return cls(result.color, 0.5, 0.0, PASS, (), 0, result.seconds)

        moves = tuple(  # the rates as every analysis shows them
            (s.move, reported_in(result, s.winrate), s.score_lead, s.visits)
            for s in result.stats
            if s.visits > 0 and s.visits >= CANDIDATE_SHARE * result.visits
        )
        winrate = reported_in(result, best.winrate)
        return cls(result.color, winrate, best.score_lead, best.move, best.pv, result.visits, result.seconds, moves)

    def value_of(self, move: int) -> tuple[float, float] | None:
        """``move``'s win rate and score lead for ``to_move`` when the search gave it enough visits
        to stand for its value (ENOUGH_VISITS, and ENOUGH_SHARE of the root's), else None."""
        for m, winrate, lead, visits in self.moves:
            if m == move:
                enough = visits >= ENOUGH_VISITS and visits >= ENOUGH_SHARE * self.visits
                return (winrate, lead) if enough else None
        return None

    @property
    def black_winrate(self) -> float:
        """The win rate for Black, 0..1."""
        return self.winrate if self.to_move == BLACK else 1.0 - self.winrate

    @property
    def black_lead(self) -> float:
        """The score lead for Black, in points (negative: White leads)."""
        return self.score_lead if self.to_move == BLACK else -self.score_lead


# this process's engines, one a configuration, and the game each holds: (its start, the line of
# moves its position was cut from, and how many of them it has played)
_ENGINES: dict[EngineConfig, tuple[Engine, tuple, tuple[tuple[int, int], ...], int]] = {}


def _engine_at(position: Position, config: EngineConfig) -> Engine:
    """This process's engine for ``config``, holding ``position``: the moves it lacks played on
    when it holds an earlier position of the same game, else the position loaded afresh. A
    record's moves are replayed as ``gamefile.read`` replayed them: one may repeat an earlier
    position (no superko). The positions of one game share its ``line``: when the engine's game
    was cut from the same line object, its moves are a prefix without a comparison (comparing
    took time in the record's length at every position, in its square for a whole review)."""
    start = (position.size, position.komi, tuple(position.setup), position.first)
    line = position.line
    turn = len(line) if position.turn is None else position.turn
    held = _ENGINES.get(config)
    same_game = held is not None and held[1] == start and held[3] <= turn
    if same_game and held[2] is not line:  # another copy of the line (a task sent to a pool): compared once
        same_game = line[: held[3]] == held[2][: held[3]]
    if same_game:
        engine = held[0]
        for color, point in line[held[3] : turn]:
            engine.game.play(color, point, superko=False)
    else:
        engine = held[0] if held is not None else Engine(config)
        setup = Setup(position.size, position.komi, tuple(position.setup), tuple(line[:turn]), position.first)
        engine.load_position(setup, False)
    _ENGINES[config] = (engine, start, line, turn)
    return engine


def evaluate(position: Position, config: EngineConfig, budget: Budget) -> Evaluation:
    """Search ``position`` for its side to move on ``budget`` from fresh trees and random
    streams seeded by ``config`` (``_engine_at``, ``Engine.fresh_search``), so that with one
    thread the figures depend on the position, the configuration and the budget alone, not on
    where or after what it ran."""
    engine = _engine_at(position, config)
    try:
        engine.fresh_search()
        return Evaluation.of(engine.analyze(position.to_move, SearchRequest(budget)))
    except BaseException:
        _ENGINES.pop(config, None)  # a search that failed leaves no engine in doubt behind
        engine.close()
        raise


def evaluated(
    runner: Runner, tasks: Iterable[tuple[object, Position]], config: EngineConfig, budget: Budget
) -> Iterator[tuple[object, Evaluation | BaseException]]:
    """``(key, Evaluation)`` for each ``(key, position)`` as its search ends (``(key, exception)``
    when it failed), each position searched by ``evaluate`` on the one job runner
    (``goengine.jobs``: here, a process pool or a Dask cluster)."""
    return runner.run(functools.partial(evaluate, config=config, budget=budget), tasks)
