"""Where the heavy playouts' time goes: playouts per second with each rule switched off in turn.

    python bench/heavy_profile.py                 # 9x9 and 19x19, a table
    python bench/heavy_profile.py --sizes 9 --runs 7 --json

numba code does not show in Python's profilers, so the profile is an ablation: the same batch
of playouts from the empty board with the heavy policy as it ships, with one rule's probability
set to 0 (or ladder reading off), with only the self-atari check, and with ``uniform``. A rule
whose removal speeds the playouts up by x % costs about x % of a heavy playout (its checks run
at every move; the moves it would have chosen are then drawn at random instead, so playouts also
change length a little: moves per playout are shown). The variants run in rounds, so a change in
the machine's load falls on all alike; the median of ``--runs`` rounds is reported.

Times are the process's CPU time (``time.process_time``; the kernels run on one thread), and a
variant's speed-up is the median over rounds of its rate over the heavy rate of the same round:
on a shared machine wall-clock ratios taken across rounds moved by 30 % from one run to the next.
(With other work on the machine's two cores, even these move by 10-20 %: profile on a quiet one.)
``docs/performance.md`` records the latest profile.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from goengine.board import ZOBRIST
from goengine.kernels import board as kb
from goengine.kernels import playout as kp
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.playout_model import no_model_arrays
from goengine.policies import POLICIES

VARIANTS = {
    "heavy": ("heavy", {}),
    "heavy, no capture": ("heavy", {"capture": 0}),
    "heavy, no escape": ("heavy", {"escape": 0}),
    "heavy, escapes without ladders": ("heavy", {"ladders": 0}),
    "heavy, no patterns": ("heavy", {"pattern": 0}),
    "heavy, no nakade": ("heavy", {"nakade": 0}),
    "heavy, no self-atari check": ("heavy", {"self_atari": 0}),
    "self-atari check only": ("heavy", {"capture": 0, "escape": 0, "pattern": 0, "nakade": 0}),
    "uniform": ("uniform", {}),
}


def profile(size: int, runs: int, seconds: float) -> list[dict]:
    patterns = (table(), no_model_arrays())
    pts, meta = kb.new_board(np.int64(size))
    cap = np.int64(3 * size * size)
    setups = {name: (np.int64(POLICIES[p].id), POLICIES.array(p, over)) for name, (p, over) in VARIANTS.items()}
    batch = {}
    for name, (pid, params) in setups.items():  # compile, then size each batch to about `seconds`
        scores = np.zeros(200, dtype=np.int64)
        kp.run_playouts(pts, meta, ZOBRIST, new_state(0), pid, params, patterns, np.int64(20), cap, scores)
        start = time.process_time()
        kp.run_playouts(pts, meta, ZOBRIST, new_state(0), pid, params, patterns, np.int64(200), cap, scores)
        batch[name] = max(50, int(200 * seconds / max(time.process_time() - start, 1e-6)))
    rates = {name: [] for name in setups}
    moves = {name: [] for name in setups}
    for k in range(runs):
        for name, (pid, params) in setups.items():
            n = batch[name]
            scores = np.zeros(n, dtype=np.int64)
            start = time.process_time()
            rng = new_state(k + 1)
            total = kp.run_playouts(pts, meta, ZOBRIST, rng, pid, params, patterns, np.int64(n), cap, scores)
            rates[name].append(n / (time.process_time() - start))
            moves[name].append(total / n)
    rows = []
    for name in setups:
        rate = statistics.median(rates[name])
        vs_heavy = statistics.median(r / h for r, h in zip(rates[name], rates["heavy"], strict=True))
        rows.append(
            {
                "size": size,
                "variant": name,
                "playouts_per_s": round(rate),
                "vs_heavy": round(vs_heavy, 3),
                "us_per_playout": round(1e6 / rate, 1),
                "moves_per_playout": round(statistics.mean(moves[name]), 1),
                "runs": runs,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes (default 9 19)")
    parser.add_argument("--runs", type=int, default=5, help="rounds; the median is reported (default 5)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one batch in seconds (default 0.5)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args(argv)
    for size in args.sizes:
        for row in profile(size, args.runs, args.seconds):
            if args.json:
                print(json.dumps(row))
            else:
                print(
                    f"{row['size']}x{row['size']} {row['variant']:<32} {row['playouts_per_s']:>8} playouts/s "
                    f"{row['vs_heavy']:>6.2f}x  {row['us_per_playout']:>7.1f} us "
                    f"{row['moves_per_playout']:>6.1f} moves"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
