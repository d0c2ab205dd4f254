"""Playout benchmark: playouts per second from the empty board, one thread, for a playout policy
(``--policy``, default ``uniform``: uniformly random moves).

    python bench/playouts.py                 # table, 9x9 and 19x19, 7 runs each
    python bench/playouts.py --json          # one JSON object per size
    python bench/playouts.py --sizes 9 --runs 15 --seconds 1
    python bench/playouts.py --policy uniform

For each size it reports the median over the runs of playouts per second (and the spread), moves
per playout and per second, the mean area score (Black minus White, no komi), and two start-up
figures measured in fresh processes: the first call with an empty numba cache (compile time) and
with a warm cache (what a user waits for before the first playout). The machine's load average is
printed with the results, since these machines are shared.

The speed reference (``bench/reference.py`` runs ``bench/yardstick.py``) runs before the
first size and after every timed run, so that its runs and ours share the machine's ups and
downs, and every rate is also printed as a multiple of it ("x ref") and, for
``uniform``, of libego's light playouts' equivalent in the same sitting ("x libego": libego's
rate is ``reference.LIBEGO`` times the reference's; the target is 1.0x). A ratio carries from
machine to machine and from a quiet hour to a busy one; an absolute rate does not.
``docs/performance.md`` holds the latest figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np
import reference

from goengine.board import ZOBRIST
from goengine.kernels import board as kb
from goengine.kernels import playout as kp
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.playout_model import no_model_arrays, shipped
from goengine.policies import POLICIES

PATTERNS = table()


def tables(policy: str) -> tuple:
    """What the playouts of ``policy`` read: the 3x3 patterns, and the learned model for its policy."""
    return PATTERNS, shipped().arrays if policy == "learned" else no_model_arrays()


# What a fresh process runs to time its first playout (interpreter start-up included).
_FIRST_PLAYOUT = """
import numpy as np
from goengine.board import ZOBRIST
from goengine.kernels import board as kb, playout as kp
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.playout_model import no_model_arrays, shipped
from goengine.policies import POLICIES

policy = np.int64(POLICIES[{policy!r}].id)
params = POLICIES.array({policy!r})
pts, meta = kb.new_board(np.int64({size}))
model = shipped().arrays if {policy!r} == "learned" else no_model_arrays()
kp.run_playouts(
    pts, meta, ZOBRIST, new_state(1), policy, params, (table(), model), np.int64(1), np.int64({cap}),
    np.zeros(1, np.int64),
)
"""


def time_first_playout(size: int, policy: str, cache_root: str) -> float:
    """Seconds from starting a Python process to the end of its first playout."""
    env = dict(os.environ, GOENGINE_CACHE_DIR=cache_root)
    env.pop("NUMBA_CACHE_DIR", None)
    code = _FIRST_PLAYOUT.format(size=size, cap=3 * size * size, policy=policy)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


def measure(
    size: int, runs: int, seconds: float, seed: int, policy: str = "uniform", between: Callable[[], None] | None = None
) -> dict:
    """Median playout speed of ``policy`` from the empty board, and the start-up times (the ratios
    to the reference are added by ``add_ratios``). ``between`` is called after every timed run:
    the reference runs there, so that its runs and ours share the machine's ups and downs."""
    with tempfile.TemporaryDirectory() as cache_root:
        compile_s = time_first_playout(size, policy, cache_root)
        warm_s = statistics.median(time_first_playout(size, policy, cache_root) for _ in range(3))
    policy_id, params = np.int64(POLICIES.get_choice(policy).id), POLICIES.array(policy)

    pts, meta = kb.new_board(np.int64(size))
    rng = new_state(seed)
    cap = np.int64(3 * size * size)
    # calibrate a batch to about `seconds`
    probe = 200
    scores = np.zeros(probe, dtype=np.int64)
    start = time.perf_counter()
    kp.run_playouts(pts, meta, ZOBRIST, rng, policy_id, params, tables(policy), np.int64(probe), cap, scores)
    n = max(100, int(probe * seconds / max(time.perf_counter() - start, 1e-6)))
    scores = np.zeros(n, dtype=np.int64)

    rates, moves_per, mean_scores = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        moves = kp.run_playouts(pts, meta, ZOBRIST, rng, policy_id, params, tables(policy), np.int64(n), cap, scores)
        elapsed = time.perf_counter() - start
        if between is not None:
            between()
        rates.append(n / elapsed)
        moves_per.append(moves / n)
        mean_scores.append(float(scores.mean()))
    rate = statistics.median(rates)
    per = statistics.mean(moves_per)
    return {
        "size": size,
        "policy": policy,
        "playouts_per_s": round(rate),
        "playouts_per_s_min": round(min(rates)),
        "playouts_per_s_max": round(max(rates)),
        "moves_per_playout": round(per, 2),
        "moves_per_s": round(rate * per),
        "mean_score": round(statistics.mean(mean_scores), 3),
        "runs": runs,
        "playouts_per_run": n,
        "compile_s": round(compile_s, 3),
        "warm_startup_s": round(warm_s, 3),
        "seed": seed,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


def add_ratios(row: dict, ref: reference.Reference) -> None:
    """``x_reference`` (every policy) and ``x_libego`` (``uniform``: libego's light playouts are its
    anchor) from the reference's median rate in this sitting."""
    rate = ref.rate(row["size"])
    if rate is None:
        return
    row["reference_playouts_per_s"] = round(rate)
    row["x_reference"] = round(row["playouts_per_s"] / rate, 3)
    if row["policy"] == "uniform":
        row["x_libego"] = round(ref.ratio(row["playouts_per_s"], row["size"], reference.LIBEGO), 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes (default 9 19)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per size; the median is reported (default 7)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one run in seconds (default 0.5)")
    parser.add_argument("--seed", type=int, default=1, help="RNG seed (default 1)")
    parser.add_argument("--policy", default="uniform", choices=list(POLICIES), help="playout policy (default uniform)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per size instead of a table")
    args = parser.parse_args(argv)

    ref = reference.Reference()
    ref.run()
    results = []
    for size in args.sizes:
        results.append(measure(size, args.runs, args.seconds, args.seed, args.policy, between=ref.run))
    for row in results:
        add_ratios(row, ref)
    if args.json:
        for row in results:
            print(json.dumps(row))
        return 0
    header = (
        f"{'size':>5} {'playouts/s':>11} {'(min-max)':>17} {'moves/playout':>14} {'moves/s':>11} "
        f"{'mean score':>10} {'compile s':>9} {'warm start s':>12} {'x ref':>6} {'x libego':>8}"
    )
    print(header)
    for r in results:
        spread = f"({r['playouts_per_s_min']}-{r['playouts_per_s_max']})"
        print(
            f"{r['size']:>5} {r['playouts_per_s']:>11} {spread:>17} {r['moves_per_playout']:>14} "
            f"{r['moves_per_s']:>11} {r['mean_score']:>10} {r['compile_s']:>9} {r['warm_startup_s']:>12} "
            f"{reference.fmt_ratio(r.get('x_reference')):>6} {reference.fmt_ratio(r.get('x_libego')):>8}"
        )
    load = results[-1]["load_avg"]
    print(
        f"policy {args.policy}, median of {args.runs} runs, one thread, seed {args.seed}; "
        f"load average {load[0]} {load[1]} {load[2]}"
    )
    print(ref.describe())
    if args.policy == "uniform" and ref.available:
        multiples = " / ".join(f"{reference.LIBEGO[s]:.2f}x" for s in sorted(reference.LIBEGO))
        print(f"x libego: the rate over libego's light playouts' equivalent ({multiples} the reference); target 1.0x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
