"""The one job runner (``goengine.jobs``): in this process, on a process pool and (slow) on a
Dask cluster, every task's result once; a task that raises gives its exception and the others
go on; ``wanted`` is asked just before each start; ``stop`` starts nothing more; a pool keeps at
most ``in_flight`` tasks a worker submitted."""

from __future__ import annotations

import os

import pytest

from goengine.jobs import Runner


def square(x: int) -> int:
    if x == 3:
        raise ValueError("three is not welcome")
    return x * x


def pid(_: int) -> int:
    return os.getpid()


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_once_and_a_failure_is_its_own(jobs):
    results = dict(Runner(jobs).run(square, ((f"k{x}", x) for x in range(8))))
    assert set(results) == {f"k{x}" for x in range(8)}
    assert isinstance(results["k3"], ValueError) and str(results["k3"]) == "three is not welcome"
    assert all(results[f"k{x}"] == x * x for x in range(8) if x != 3)


def test_here_the_order_is_kept_and_wanted_is_asked_just_before_each_start():
    runner = Runner(1)
    asked, got = [], []
    tasks = ((x, x) for x in range(10))
    for key, _ in runner.run(square, tasks, wanted=lambda key: asked.append(key) or key != 2):
        got.append(key)
        if key == 5:
            runner.stop()
    assert got == [0, 1, 3, 4, 5] and asked == [0, 1, 2, 3, 4, 5]  # 3 raised: yielded all the same


def test_a_pool_takes_no_more_tasks_than_it_keeps_in_flight_and_uses_its_workers():
    """With 2 workers and 1 task each in flight, a generator of a million tasks is read only as
    far as the tasks run: stopped after 6 results, fewer than 6 + 2 + 1 were drawn."""
    drawn = []

    def tasks():
        for x in range(10**6):
            drawn.append(x)
            yield x, x

    runner = Runner(2, in_flight=1)
    seen = []
    for _, value in runner.run(pid, tasks()):
        seen.append(value)
        if len(seen) == 6:
            runner.stop()
    assert len(seen) <= 8 and len(drawn) <= 9
    assert os.getpid() not in seen


@pytest.mark.slow
def test_on_a_dask_cluster_every_task_once():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster:
        results = dict(Runner(0, cluster.scheduler_address).run(square, ((x, x) for x in range(6))))
    assert isinstance(results.pop(3), ValueError)
    assert results == {x: x * x for x in (0, 1, 2, 4, 5)}
