"""The one job runner: calls of one function on many tasks, here, on a pool of worker processes,
or on a Dask cluster, results yielded as they end.

The match laboratory's games (``lab.schedule``), the review's positions (``review.evaluate``) and
the tactical benchmark's tests (``lab.tactics_benchmark``) all run through ``Runner.run``. It asks
``wanted(key)`` just before it starts each task, so a caller that has its answer (an SPRT that
decided) starts nothing more, and ``stop()`` starts nothing more at all. The tasks already running
are always finished and yielded, so none is lost. A task whose call raised (``SystemExit``
included) is yielded with the exception in place of its result: one task's failure is its own,
not the run's, wherever it ran.

A long run must outlive the machine killing a worker (the kernel's OOM killer, an operator). The
pool is the runner's own (``_Pool``), one task a worker at a time, so a worker that dies costs
exactly the task it was running: that task runs again on a new worker, and a task whose worker
died ``RETRIES + 1`` times is yielded as ``WorkerDied``; the tasks beside it never notice (with
``concurrent.futures``' pool one death broke the pool: every task in flight failed with it and
the run ended). On Dask a task the scheduler gives up on (``KilledWorker``, after its own
``allowed-failures``) is submitted again, up to RETRIES times. Workers end when the process that
started them dies, even by SIGKILL (``end_with_parent``; Linux's parent-death signal), and so do
the programs they start with ``child_ending_with_parent`` (the match's engines): nothing is left
behind.

The function and its arguments must be picklable for a pool or a cluster (a module-level
function and plain data). A worker process lives as long as the run, so a function may keep a
costly resource (an engine, a GTP client) in a module-level cache and use it for every task the
process gets. Dask is the ``match`` extra's; the callers check that it is installed before they
start (``lab.needs``, ``review.command.missing_extras``).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

IN_FLIGHT = 2  # Dask: tasks submitted ahead for each slot, enough to keep it busy, few enough to stop at once
RETRIES = 2  # runs again of a task whose worker died under it (not of a task that raised)
_STOP_GRACE = 5.0  # seconds a worker has to end after the run; then it is killed


class WorkerDied(RuntimeError):
    """A task whose worker process died under it RETRIES + 1 times."""


class Runner:
    """Runs tasks in this process (``jobs`` 1), on a pool of ``jobs`` worker processes, or on the
    Dask scheduler at ``cluster`` (as many slots as ``jobs``, or else the cluster's threads).
    ``in_flight``: on Dask, the tasks submitted ahead for each slot (a pool's worker is given
    its next task when it is free, so ``wanted`` is asked at the last moment)."""

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
                yield key, _call(function, argument)[1]
        else:
            yield from _Pool(self.jobs).run(function, next_task)

    def _dask(self, function, next_task) -> Iterator:
        from distributed import Client, KilledWorker, as_completed

        with Client(self.cluster) as client:
            slots = self.jobs or max(1, sum(client.nthreads().values()))
            running: dict[Any, _Task] = {}
            completed = as_completed()
            stamp = time.time_ns()
            sent = 0
            again: deque[_Task] = deque()

            def submit(task: _Task) -> None:
                nonlocal sent
                name = getattr(function, "__name__", "task")
                future = client.submit(_call, function, task.argument, pure=False, key=f"{name}-{stamp}-{sent}")
                sent += 1
                running[future] = task
                completed.add(future)

            try:
                while True:
                    while len(running) < self.in_flight * slots:
                        task = again.popleft() if again else _Task.of(next_task())
                        if task is None:
                            break
                        submit(task)
                    if not running:
                        return
                    future = next(completed)
                    task = running.pop(future)
                    if future.status != "error":
                        yield task.key, future.result()[1]
                        continue
                    error = future.exception()
                    if isinstance(error, KilledWorker) and task.deaths < RETRIES:
                        again.append(task.died())  # the scheduler gave up on its workers: once more
                        continue
                    yield task.key, error
            finally:
                for future in running:
                    future.cancel()


def _call(function: Callable[[Any], Any], argument: Any) -> tuple[bool, Any]:
    """``(True, result)`` or ``(False, the exception)``: a task's failure, ``SystemExit``
    included, is its own. An interrupt (``KeyboardInterrupt``) is the run's, and passes."""
    try:
        return True, function(argument)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - the task's failure is its own
        return False, error


@dataclass(frozen=True)
class _Task:
    key: Hashable
    argument: Any
    deaths: int = 0  # how many times a worker died running it

    @classmethod
    def of(cls, task: tuple[Hashable, Any] | None) -> _Task | None:
        return None if task is None else cls(task[0], task[1])

    def died(self) -> _Task:
        return _Task(self.key, self.argument, self.deaths + 1)


class _Worker:
    """One worker process of a ``_Pool`` and the task it runs (None: idle)."""

    def __init__(self, context):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, os.getpid()), daemon=True, name="goengine-worker")
        self.process.start()
        child.close()
        self.task: _Task | None = None

    def why_dead(self) -> str:
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with status {code}"

    def close(self, wait_for: float) -> None:
        """End the process: asked to when idle, else terminated; killed if it lingers."""
        if self.task is None:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        else:
            self.process.terminate()
        self.process.join(wait_for)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class _Pool:
    """``jobs`` worker processes, each given one task at a time; a worker that dies is replaced,
    and its task (only its) runs again, at most RETRIES times."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.context = multiprocessing.get_context()

    def run(self, function, next_task) -> Iterator[tuple[Hashable, Any]]:
        workers = [_Worker(self.context) for _ in range(self.jobs)]
        again: deque[_Task] = deque()  # tasks whose worker died, first in line
        try:
            while True:
                for worker in workers:
                    if worker.task is None:
                        task = again.popleft() if again else _Task.of(next_task())
                        if task is None:
                            break
                        worker.task = task
                        worker.conn.send((function, task.argument))
                busy = [w for w in workers if w.task is not None]
                if not busy:
                    return
                ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
                for k, worker in enumerate(workers):
                    if worker.task is None or not (worker.conn in ready or worker.process.sentinel in ready):
                        continue
                    task, answer = worker.task, _answer(worker.conn)
                    if answer is not None:
                        worker.task = None
                        yield task.key, answer[1]
                        continue
                    worker.process.join()
                    why = worker.why_dead()
                    worker.task = None
                    worker.close(0)
                    workers[k] = _Worker(self.context)
                    if task.deaths < RETRIES:
                        again.append(task.died())
                    else:
                        yield task.key, WorkerDied(f"its worker process died under it {task.deaths + 1} times ({why})")
        finally:
            for worker in workers:
                worker.close(_STOP_GRACE if worker.task is None else 1.0)


def _answer(conn) -> tuple[bool, Any] | None:
    """A worker's answer when it has sent one, else None (the worker died before it could)."""
    try:
        return conn.recv() if conn.poll() else None
    except (EOFError, OSError):
        return None


def _serve(conn, parent: int) -> None:
    """A worker process: run each ``(function, argument)`` received, send ``_call``'s answer
    back, until told to stop (None) or the parent has gone."""
    end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is the parent's to act on
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        function, argument = message
        answer = _call(function, argument)
        try:
            conn.send(answer)
        except Exception as error:  # noqa: BLE001 - an answer that cannot be pickled is still an answer
            conn.send(
                (
                    False,
                    RuntimeError(f"the task's {'result' if answer[0] else 'error'} could not be sent back: {error!r}"),
                )
            )


# ---- processes that end with their parent

_PR_SET_PDEATHSIG = 1


@functools.cache
def _prctl():
    """libc's prctl, looked up once (before any fork: a child must not look it up)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def end_with_parent(parent: int | None = None, sig: int = signal.SIGKILL) -> None:
    """In a child process: have the kernel send ``sig`` when the thread that started it ends
    (Linux's parent-death signal; nothing elsewhere), and exit at once if ``parent`` (its pid)
    has gone already, before the signal was set."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def child_ending_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` for ``subprocess.Popen`` whose program ends when this process does, even
    by SIGKILL: given only in the main thread, since the signal follows the thread that started
    the child (a child of a thread that ends would be killed with it), and only where the
    parent-death signal exists. None otherwise."""
    if threading.current_thread() is not threading.main_thread() or _prctl() is None:
        return None
    return functools.partial(end_with_parent, os.getpid())
