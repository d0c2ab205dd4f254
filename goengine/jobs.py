"""The one job runner: calls of one function on many tasks, here, on a process pool, or on a Dask
cluster, results yielded as they end.

The match laboratory's games (``lab.schedule``), the review's positions (``review.evaluate``) and
the tactical benchmark's tests (``lab.tactics``) all run through ``Runner.run``. It keeps a few
tasks in flight for each slot (a worker process, or a thread of a Dask worker), not the whole
queue, so a thousand tasks are not submitted at once; it asks ``wanted(key)`` just before it
starts each one, so a caller that has its answer (an SPRT that decided) starts nothing more,
and ``stop()`` starts nothing more at all. The tasks already running are always finished and
yielded, so none is lost. A task whose call raised is yielded with the exception in place of
its result: one task's failure is its own, not the run's.

The function and its arguments must be picklable for a pool or a cluster (a module-level
function and plain data). A worker process lives as long as the run, so a function may keep a
costly resource (an engine, a GTP client) in a module-level cache and use it for every task the
process gets. Dask is the ``match`` extra's; the callers check that it is installed before they
start (``lab.needs``, ``review.command.missing_extras``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

IN_FLIGHT = 2  # tasks submitted ahead for each slot: enough to keep it busy, few enough to stop at once


class Runner:
    """Runs tasks in this process (``jobs`` 1), on a process pool of ``jobs`` workers, or on the
    Dask scheduler at ``cluster`` (as many slots as ``jobs``, or else the cluster's threads)."""

    def __init__(self, jobs: int = 1, cluster: str | None = None, in_flight: int = IN_FLIGHT):
        self.jobs = max(1, jobs) if not cluster else jobs
        self.cluster = cluster
        self.in_flight = max(1, in_flight)
        self.stopping = False

    def stop(self) -> None:
        """Start no further task; those running still finish and are yielded."""
        self.stopping = True

    def run(
        self,
        function: Callable[[Any], Any],
        tasks: Iterable[tuple[Hashable, Any]],
        wanted: Callable[[Hashable], bool] = lambda key: True,
    ) -> Iterator[tuple[Hashable, Any]]:
        """``(key, function(argument))`` for each ``(key, argument)`` of ``tasks`` as it ends, in
        any order (in this process: in order); ``(key, exception)`` when the call raised."""
        tasks = iter(tasks)

        def next_task() -> tuple[Hashable, Any] | None:
            while not self.stopping:
                task = next(tasks, None)
                if task is None:
                    return None
                if wanted(task[0]):
                    return task
            return None

        if self.cluster:
            yield from self._dask(function, next_task)
        elif self.jobs == 1:
            while (task := next_task()) is not None:
                key, argument = task
                try:
                    yield key, function(argument)
                except Exception as error:  # noqa: BLE001 - the task's failure is its own
                    yield key, error
        else:
            yield from self._pool(function, next_task)

    def _pool(self, function, next_task) -> Iterator:
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            running = {}
            try:
                while True:
                    while len(running) < self.in_flight * self.jobs and (task := next_task()) is not None:
                        running[pool.submit(function, task[1])] = task[0]
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

    def _dask(self, function, next_task) -> Iterator:
        from distributed import Client, as_completed

        with Client(self.cluster) as client:
            slots = self.jobs or max(1, sum(client.nthreads().values()))
            running = {}
            completed = as_completed()
            stamp = time.time_ns()
            sent = 0
            try:
                while True:
                    while len(running) < self.in_flight * slots and (task := next_task()) is not None:
                        name = getattr(function, "__name__", "task")
                        future = client.submit(function, task[1], pure=False, key=f"{name}-{stamp}-{sent}")
                        sent += 1
                        running[future] = task[0]
                        completed.add(future)
                    if not running:
                        return
                    future = next(completed)
                    key = running.pop(future)
                    yield key, (future.exception() if future.status == "error" else future.result())
            finally:
                for future in running:
                    future.cancel()
