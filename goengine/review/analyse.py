"""Analysing positions: one search a position, here, on a process pool, or on a Dask cluster.

``analyse(position, config, budget)`` searches one ``game.Position`` from fresh trees (as KataGo
searches each query afresh) and returns an ``Analysis``: plain figures, small to send back from
another process or machine. Each position gets an ``Engine`` of its own, seeded alike: with one
search thread its figures are the same wherever and after whatever it ran, here, in a pool or on
a cluster.

``Runner.run`` takes ``(key, position)`` pairs and yields ``(key, Analysis or the exception
that stopped it)`` as searches end, in any order: positions, not games, are the unit of work,
so one long game spreads over every core. It keeps a few positions a worker in flight, not the
whole queue, so a folder of a thousand games is not held in the pool's queue at once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from goengine.board import BLACK, PASS
from goengine.config import Budget, EngineConfig
from goengine.engine import Engine, SearchResult
from goengine.review.game import Position
from goengine.sgf import SgfPosition

IN_FLIGHT = 3  # positions sent to each worker ahead of its results: enough to keep it busy


@dataclass(frozen=True)
class Analysis:
    """What one search found at a position, for the side to move there (``to_move``): the most
    visited move (``best``, a point or PASS), its win rate (``winrate``, 0..1) and score lead
    (``score_lead``, points; positive when ``to_move`` leads), its principal variation (``pv``,
    ``best`` first), and what was spent (``visits`` at the root, ``seconds``). The position's
    value is the best move's figures: what the side to move can expect with its best play."""

    to_move: int
    winrate: float
    score_lead: float
    best: int
    pv: tuple[int, ...]
    visits: int
    seconds: float = field(default=0.0, compare=False)  # the clock's, not the search's: not compared

    @classmethod
    def of(cls, result: SearchResult) -> Analysis:
        best = result.best
        if best is None:  # nothing searched: an even guess, a pass
            return cls(result.color, 0.5, 0.0, PASS, (), 0, result.seconds)
        return cls(result.color, best.winrate, best.score_lead, best.move, best.pv, result.visits, result.seconds)

    @property
    def black_winrate(self) -> float:
        """The win rate for Black, 0..1."""
        return self.winrate if self.to_move == BLACK else 1.0 - self.winrate

    @property
    def black_lead(self) -> float:
        """The score lead for Black, in points (negative: White leads)."""
        return self.score_lead if self.to_move == BLACK else -self.score_lead


def analyse(position: Position, config: EngineConfig, budget: Budget) -> Analysis:
    """Search ``position`` for its side to move on ``budget``, with an engine of its own: fresh
    trees and random streams seeded by ``config``, so that with one thread the figures depend on
    the position, the configuration and the budget alone, not on where or after what it ran.
    (An engine costs little once the process has loaded the move model and the kernels, which
    ``movemodel.shipped`` and numba keep for the process.)"""
    engine = Engine(config)
    try:
        setup, moves = list(position.setup), list(position.moves)
        # a record's moves, as ``game.read`` replayed them: one may repeat an earlier position
        engine.load_position(SgfPosition(position.size, position.komi, setup, moves, to_move=position.first), False)
        return Analysis.of(engine.analyze(position.to_move, budget))
    finally:
        engine.close()


class Runner:
    """Analyses positions with ``config`` on ``budget``: in this process when ``jobs`` is 1, on
    a pool of ``jobs`` processes, or on the Dask scheduler at ``cluster`` (as many at once as
    its workers have threads)."""

    def __init__(self, config: EngineConfig, budget: Budget, jobs: int = 1, cluster: str | None = None):
        self.config = config
        self.budget = budget
        self.jobs = max(1, jobs)
        self.cluster = cluster

    def run(self, tasks: Iterable[tuple[object, Position]]) -> Iterator[tuple[object, Analysis | BaseException]]:
        """``(key, Analysis)`` for each ``(key, position)`` as its search ends (``(key,
        exception)`` when it failed)."""
        tasks = iter(tasks)
        if self.cluster:
            yield from self._dask(tasks)
        elif self.jobs == 1:
            for key, position in tasks:
                try:
                    yield key, analyse(position, self.config, self.budget)
                except Exception as err:  # noqa: BLE001 - one position's failure is its game's, not the run's
                    yield key, err
        else:
            yield from self._local(tasks)

    def _local(self, tasks: Iterator) -> Iterator:
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            running = {}
            try:
                while True:
                    while len(running) < IN_FLIGHT * self.jobs and (task := next(tasks, None)) is not None:
                        key, position = task
                        running[pool.submit(analyse, position, self.config, self.budget)] = key
                    if not running:
                        return
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        key = running.pop(future)
                        error = future.exception()
                        yield key, error if error is not None else future.result()
            finally:
                for future in running:
                    future.cancel()

    def _dask(self, tasks: Iterator) -> Iterator:
        from distributed import Client, as_completed  # the command checks it is installed

        with Client(self.cluster) as client:
            slots = max(1, sum(client.nthreads().values()))
            running = {}
            completed = as_completed()
            stamp = time.time_ns()
            sent = 0
            try:
                while True:
                    while len(running) < IN_FLIGHT * slots and (task := next(tasks, None)) is not None:
                        key, position = task
                        future = client.submit(
                            analyse, position, self.config, self.budget, pure=False, key=f"review-{stamp}-{sent}"
                        )
                        sent += 1
                        running[future] = key
                        completed.add(future)
                    if not running:
                        return
                    future = next(completed)
                    key = running.pop(future)
                    if future.status == "error":
                        yield key, future.exception()
                    else:
                        yield key, future.result()
            finally:
                for future in running:
                    future.cancel()
