"""Compile-time benchmark: what the first game on a fresh install waits for, kernel by kernel.

    python bench/compile.py                  # 3 cold compiles, the 15 costliest kernels
    python bench/compile.py --runs 5 --top 30
    python bench/compile.py --json           # one JSON object: totals and every kernel
    python bench/compile.py --runs 1 --signatures   # and the argument types of kernels compiled twice
    python bench/compile.py --helper         # as goengine does it: a second process compiles the playouts

Each run is a fresh process with an empty numba cache of its own (a temporary folder as
``NUMBA_CACHE_DIR``) that does what ``goengine --compile`` does (``goengine.engine.warm_up``: a
short game that reaches every kernel a game uses) while numba's event API
(``numba.core.event``, the ``numba:compile`` events) records when each kernel's compilation
starts and ends. A kernel's compilation includes that of the kernels it calls which were not
compiled yet, so the table gives both: ``inclusive`` (the whole event) and ``own`` (minus the
nested events: the time spent on that kernel itself, typing, lowering and LLVM). The ``own``
times of all kernels add up to the compile total; the rest of ``warm_up`` (interpreter start,
imports, the game itself) is reported beside it. By default ``warm_up`` runs without its second
process, so that every kernel is compiled, and timed, here; with ``--helper`` it runs as the
engine runs it, with a second process compiling the playouts' kernels: the total is then what a
first game waits for on two cores, and the table lists only what this process compiled.

Medians over the runs. The speed reference (``bench/reference.py``) runs before and after, so
that a figure can be read against the machine's state in that sitting (compile time, like
playouts, scales with the machine); ``docs/performance.md`` holds the latest figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import reference

# The child: warm_up under a recorder of compile events, then the events as JSON on stdout.
_CHILD = """
import json, sys, time
from numba.core import event

start = time.perf_counter()
with event.install_recorder("numba:compile") as recorder:
    from goengine.engine import warm_up
    warm_up(lambda text: None, helper=sys.argv[1] == "helper")
total = time.perf_counter() - start
events = []
for stamp, ev in recorder.buffer:
    dispatcher = ev.data["dispatcher"]
    fn = dispatcher.py_func
    events.append({
        "kernel": fn.__module__ + "." + fn.__qualname__,
        "args": str(ev.data["args"]),
        "start": ev.is_start,
        "t": stamp,
    })
print(json.dumps({"total": total, "events": events}))
"""


def compile_times(events: list[dict]) -> tuple[dict[str, dict], float]:
    """Per kernel (module.qualname, signatures merged): inclusive and own seconds, and the
    argument types of each signature compiled; and the sum of the outermost events (the compile total). Events
    nest as a stack: a kernel's compilation compiles its callees first, inside its own event."""
    kernels: dict[str, dict] = {}
    stack: list[list] = []  # [kernel, start, nested seconds]
    outer = 0.0
    for ev in events:
        if ev["start"]:
            stack.append([ev["kernel"], ev["t"], 0.0])
            continue
        kernel, began, nested = stack.pop()
        if kernel != ev["kernel"]:
            raise ValueError(f"compile events do not nest: {kernel} ended as {ev['kernel']}")
        spent = ev["t"] - began
        row = kernels.setdefault(kernel, {"inclusive": 0.0, "own": 0.0, "signatures": []})
        row["inclusive"] += spent
        row["own"] += spent - nested
        row["signatures"].append(ev["args"])
        if stack:
            stack[-1][2] += spent
        else:
            outer += spent
    if stack:
        raise ValueError(f"compile events left open: {[s[0] for s in stack]}")
    return kernels, outer


def cold_run(helper: bool = False) -> dict:
    """One cold compile in a fresh process with an empty cache (``helper``: with ``warm_up``'s
    second process)."""
    with tempfile.TemporaryDirectory(prefix="goengine-compile-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        argv = [sys.executable, "-c", _CHILD, "helper" if helper else "alone"]
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the cold compile failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    kernels, compiled = compile_times(data["events"])
    return {"total": data["total"], "compile": compiled, "kernels": kernels}


def summarize(runs: list[dict]) -> dict:
    """Medians over the runs, per kernel and in total."""
    names = sorted({k for run in runs for k in run["kernels"]})
    kernels = {}
    for name in names:
        rows = [run["kernels"].get(name, {"inclusive": 0.0, "own": 0.0, "signatures": []}) for run in runs]
        kernels[name] = {
            "own": statistics.median(r["own"] for r in rows),
            "inclusive": statistics.median(r["inclusive"] for r in rows),
            "signatures": max((r["signatures"] for r in rows), key=len),
        }
    return {
        "runs": len(runs),
        "total": statistics.median(r["total"] for r in runs),
        "compile": statistics.median(r["compile"] for r in runs),
        "kernels": kernels,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold compiles (default 3)")
    parser.add_argument("--top", type=int, default=15, help="kernels shown, costliest own time first")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument(
        "--signatures", action="store_true", help="list the argument types of kernels compiled more than once"
    )
    parser.add_argument(
        "--helper", action="store_true", help="with warm_up's second process, as the engine compiles (the total)"
    )
    args = parser.parse_args(argv)

    ref = reference.Reference()
    ref.run()
    runs = []
    for k in range(max(1, args.runs)):
        runs.append(cold_run(args.helper))
        print(f"run {k + 1}: {runs[-1]['total']:.1f} s", file=sys.stderr, flush=True)
    ref.run()
    summary = summarize(runs)
    summary["helper"] = args.helper
    summary["load_average"] = os.getloadavg()
    summary["reference_9x9"] = ref.rate(9) if ref.available else None
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"cold start, median of {summary['runs']}: {summary['total']:.1f} s, of which compiling "
        f"{summary['compile']:.1f} s; load average {summary['load_average'][0]:.2f}; "
        f"reference 9x9 {summary['reference_9x9'] or 'n/a'} playouts/s"
    )
    ranked = sorted(summary["kernels"].items(), key=lambda kv: -kv[1]["own"])
    print(f"{'kernel':64} {'own s':>7} {'incl. s':>8} {'sigs':>4}")
    for name, row in ranked[: args.top]:
        print(f"{name:64} {row['own']:7.2f} {row['inclusive']:8.2f} {len(row['signatures']):4d}")
    rest = sum(row["own"] for _, row in ranked[args.top :])
    print(f"{f'the other {max(0, len(ranked) - args.top)} kernels':64} {rest:7.2f}")
    if args.signatures:
        for name, row in ranked:
            if len(row["signatures"]) > 1:
                print(f"\n{name}:")
                for signature in row["signatures"]:
                    print(f"    {signature}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
