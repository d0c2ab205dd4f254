"""The one job runner (``goengine.jobs``): in this process, on a process pool and (slow) on a
Dask cluster, every task's result once; a task that raises gives its exception and the others
go on; ``wanted`` is asked just before each start; ``stop`` starts nothing more; a pool keeps at
most ``in_flight`` tasks a worker submitted."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

from goengine.jobs import RETRIES, Runner, WorkerDied


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


# ---- a worker the machine kills (issue 57): only its task runs again; nothing is left behind


def kill_own_worker_once(argument: tuple[str, int]) -> int:
    """Log this start; the task of value 5 kills its own process (SIGKILL, as the OOM killer
    does) the first time it runs, and any task of value 9 every time."""
    folder, x = argument
    with open(os.path.join(folder, "starts.log"), "a") as log:
        log.write(f"{x}\n")
    marker = os.path.join(folder, f"killed-{x}")
    if x == 9 or (x == 5 and not os.path.exists(marker)):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.05)  # long enough that tasks beside the killed one are running when it dies
    return x * x


def starts(folder) -> list[int]:
    return sorted(int(line) for line in (folder / "starts.log").read_text().split())


def test_a_killed_worker_costs_only_its_task_which_runs_again(tmp_path):
    """30 tasks on 2 workers, one of which kills its worker once: every task yields its result
    once, the killed one ran twice, every other once. (Before: concurrent.futures' pool broke,
    3 innocent tasks failed with it and 20 were never run.)"""
    results = dict(Runner(2).run(kill_own_worker_once, ((x, (str(tmp_path), x)) for x in range(30) if x != 9)))
    assert results == {x: x * x for x in range(30) if x != 9}
    assert starts(tmp_path) == sorted([x for x in range(30) if x != 9] + [5])


def test_a_task_whose_worker_always_dies_is_given_up_after_its_retries_and_the_rest_go_on(tmp_path):
    results = dict(Runner(2).run(kill_own_worker_once, ((x, (str(tmp_path), x)) for x in (8, 9, 10, 11))))
    given_up = results.pop(9)
    assert isinstance(given_up, WorkerDied) and "died under it 3 times (killed by SIGKILL)" in str(given_up)
    assert results == {8: 64, 10: 100, 11: 121}
    assert starts(tmp_path).count(9) == RETRIES + 1


def exits(x: int) -> int:
    if x == 1:
        raise SystemExit(4)
    return x


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_task_raising_system_exit_fails_alone_wherever_it_runs(jobs):
    """(Before: with one job a task's SystemExit ended the whole run; on a pool it was the task's.)"""
    results = dict(Runner(jobs).run(exits, ((x, x) for x in range(4))))
    assert isinstance(results.pop(1), SystemExit) and results == {0: 0, 2: 2, 3: 3}


RUNNER_SCRIPT = """
import subprocess, sys, time
from goengine.jobs import Runner, child_ending_with_parent

def work(folder):
    child = subprocess.Popen(["sleep", "600"], preexec_fn=child_ending_with_parent())
    with open(f"{folder}/pids", "a") as log:
        log.write(f"{__import__('os').getpid()} {child.pid}\\n")
    time.sleep(600)

for _ in Runner(2).run(work, ((k, sys.argv[1]) for k in range(2))):
    pass
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_and_the_programs_they_start_end_when_the_runner_is_killed(tmp_path):
    """``kill -9`` of the process running the pool: its two workers and the program each started
    end too. (Before: the review's workers ran on for good, 164 MB each.)"""
    script = tmp_path / "runner.py"
    script.write_text(RUNNER_SCRIPT)
    parent = subprocess.Popen([sys.executable, str(script), str(tmp_path)])
    try:
        deadline = time.monotonic() + 120
        while (
            time.monotonic() < deadline
            and len((tmp_path / "pids").read_text().split() if (tmp_path / "pids").exists() else []) < 4
        ):
            time.sleep(0.05)
        pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
        assert len(pids) == 4 and all(alive(p) for p in pids)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and any(alive(p) for p in pids):
            time.sleep(0.05)
        assert not [p for p in pids if alive(p)], "left behind"
    finally:
        parent.kill()
        for p in [int(p) for p in (tmp_path / "pids").read_text().split()] if (tmp_path / "pids").exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p, signal.SIGKILL)


@pytest.mark.slow
def test_on_a_dask_cluster_a_task_the_scheduler_gives_up_on_is_run_again(tmp_path):
    """A real local cluster of two worker processes whose scheduler allows no failure: the task
    that kills its worker comes back as KilledWorker, and the runner submits it again; every
    task's result comes once."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        with cluster:
            tasks = ((x, (str(tmp_path), x)) for x in range(8))
            results = dict(Runner(0, cluster.scheduler_address).run(kill_own_worker_once, tasks))
    assert results == {x: x * x for x in range(8)}
    assert starts(tmp_path).count(5) == 2
