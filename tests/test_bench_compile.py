"""The compile-time benchmark's accounting (``bench/compile.py``): numba's nested compile events
turned into each kernel's inclusive and own seconds, checked on hand-made event streams, and the
medians over runs. The cold compile itself is ``tests/test_compile.py``'s."""

import compile as bench_compile  # bench/compile.py: pytest's pythonpath (pyproject.toml) holds bench/
import pytest


def ev(kernel, start, t, args="(int64,)"):
    return {"kernel": kernel, "args": args, "start": start, "t": t}


def test_a_callee_compiled_inside_its_caller_is_taken_out_of_the_callers_own_time():
    # run compiles from 0 to 10; inside it, play 1-4 (which compiles liberties 2-3) and area 5-6
    events = [
        ev("run", True, 0.0),
        ev("play", True, 1.0),
        ev("liberties", True, 2.0),
        ev("liberties", False, 3.0),
        ev("play", False, 4.0),
        ev("area", True, 5.0),
        ev("area", False, 6.0),
        ev("run", False, 10.0),
    ]
    kernels, total = bench_compile.compile_times(events)
    assert total == pytest.approx(10.0)
    assert kernels["run"]["inclusive"] == pytest.approx(10.0)
    assert kernels["run"]["own"] == pytest.approx(10.0 - 3.0 - 1.0)
    assert kernels["play"]["own"] == pytest.approx(2.0) and kernels["play"]["inclusive"] == pytest.approx(3.0)
    assert kernels["liberties"]["own"] == pytest.approx(1.0)
    assert sum(k["own"] for k in kernels.values()) == pytest.approx(total)


def test_a_kernel_compiled_for_two_signatures_is_one_row_with_both():
    events = [
        ev("play", True, 0.0, "(int32,)"),
        ev("play", False, 2.0, "(int32,)"),
        ev("search", True, 3.0),
        ev("play", True, 3.5, "(int64,)"),
        ev("play", False, 4.5, "(int64,)"),
        ev("search", False, 6.0),
    ]
    kernels, total = bench_compile.compile_times(events)
    assert total == pytest.approx(5.0)  # two outermost events: 2 + 3
    assert kernels["play"]["own"] == pytest.approx(3.0)
    assert kernels["play"]["signatures"] == ["(int32,)", "(int64,)"]
    assert kernels["search"]["own"] == pytest.approx(2.0)


def test_events_that_do_not_nest_are_refused():
    with pytest.raises(ValueError, match="do not nest"):
        bench_compile.compile_times([ev("a", True, 0.0), ev("b", True, 1.0), ev("a", False, 2.0)])
    with pytest.raises(ValueError, match="left open"):
        bench_compile.compile_times([ev("a", True, 0.0)])


def test_the_summary_takes_medians_and_counts_a_kernel_missing_from_a_run_as_zero():
    def run(total, own_a, own_b=None):
        kernels = {"a": {"inclusive": own_a, "own": own_a, "signatures": ["x"]}}
        if own_b is not None:
            kernels["b"] = {"inclusive": own_b, "own": own_b, "signatures": ["y", "z"]}
        return {"total": total, "compile": total - 1.0, "kernels": kernels}

    summary = bench_compile.summarize([run(50.0, 3.0, 1.0), run(70.0, 5.0), run(60.0, 4.0, 2.0)])
    assert summary["runs"] == 3 and summary["total"] == 60.0 and summary["compile"] == 59.0
    assert summary["kernels"]["a"]["own"] == 4.0
    assert summary["kernels"]["b"]["own"] == 1.0  # median of 1, 0, 2
    assert summary["kernels"]["b"]["signatures"] == ["y", "z"]
