"""The tactical benchmark's command (``goengine-tactics``, ``goengine.lab.tactics_benchmark``) on a suite of
three tests: it records, resumes, reports and refuses to mix engines, in this process or on a
pool of two workers (the one job runner), each keeping its engine from test to test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import write_suite

from goengine.lab import tactics_benchmark
from goengine.lab.client import GtpClient
from goengine.lab.regression import load_suite, run_test


def command(tmp_path, *args: str) -> subprocess.CompletedProcess:
    base = [sys.executable, "-m", "goengine.lab.tactics_benchmark", "--suite", str(tmp_path / "suite"), "--out"]
    return subprocess.run([*base, str(tmp_path / "out"), *args], capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_records_resumes_reports_and_refuses_another_engine(tmp_path, jobs):
    write_suite(tmp_path / "suite")
    first = command(tmp_path, "--playouts", "300", "--jobs", jobs)
    assert first.returncode == 0, first.stderr
    records = [json.loads(line) for line in (tmp_path / "out" / "tests.jsonl").read_text().splitlines()]
    assert {r["test"] for r in records} == {"tactics.tst:1", "tactics.tst:2", "tactics.tst:3"}
    assert all("--playouts 300 --resign-threshold 0" in r["engine"] and r["version"].startswith("0.") for r in records)
    again = command(tmp_path, "--playouts", "300", "--jobs", jobs)
    assert "3 tests already" in again.stdout and "playing 0" in again.stdout
    assert len((tmp_path / "out" / "tests.jsonl").read_text().splitlines()) == 3
    assert "1/2 (50.0 %)" in again.stdout and "not run (the position could not be built): loadsgf 1" in again.stdout
    other = command(tmp_path, "--playouts", "400", "--jobs", jobs)
    assert other.returncode == 2 and "another engine command" in other.stderr


def test_a_worker_keeps_its_engine_from_test_to_test_and_closes_it_at_the_end(tmp_path):
    write_suite(tmp_path)
    tests, _ = load_suite(tmp_path)
    argv = (sys.executable, "-m", "goengine", "--quiet", "--threads", "1", "--playouts", "100")
    try:
        first = tactics_benchmark.run_one((tests[0], argv, tmp_path, 120.0))
        client = tactics_benchmark._ENGINES[argv][0]
        second = tactics_benchmark.run_one((tests[1], argv, tmp_path, 120.0))
        assert tactics_benchmark._ENGINES[argv][0] is client  # the same engine process answered both
        assert first["passed"] is True
    finally:
        tactics_benchmark.close_engines()
    assert tactics_benchmark._ENGINES == {}
    # each test has its own seed, so the kept engine answers the second test as a fresh one does
    fresh = GtpClient(list(argv), timeout=120.0)
    try:
        assert run_test(fresh, tests[1], tmp_path, timeout=120.0, seeded=True)["answer"] == second["answer"]
    finally:
        fresh.close()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_the_benchmark_with_one_line_and_leaves_nothing_running(tmp_path, jobs):
    """Ctrl-C (SIGINT to the whole foreground group, as a terminal sends it) while engines
    search: one line saying where the finished tests are, status 130, no traceback, and no
    process of the group left. (Before: a traceback.)"""
    import os
    import signal
    import time

    from match_harness import end_group, group_members

    write_suite(tmp_path / "suite")
    base = [sys.executable, "-u", "-m", "goengine.lab.tactics_benchmark", "--suite", str(tmp_path / "suite")]
    proc = subprocess.Popen(
        [*base, "--out", str(tmp_path / "out"), "--playouts", "100000000", "--jobs", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # as a terminal's foreground job has it: a suite started in the background (``make test
        # &``) hands its children SIGINT ignored, and Python then installs no handler for it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert "playing" in proc.stdout.readline()
        deadline = time.monotonic() + 120
        while len(group_members(proc.pid)) < {"1": 2, "2": 5}[jobs] and time.monotonic() < deadline:
            time.sleep(0.05)  # the engines are searching (and with a pool, its workers are up)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 130, stderr
        assert "Traceback" not in stderr
        assert stderr.strip().splitlines()[-1].startswith("goengine-tactics: interrupted; the tests finished are in")
        deadline = time.monotonic() + 30
        while group_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group_members(proc.pid) == []
    finally:
        end_group(proc.pid, grace=0)
