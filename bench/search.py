"""Search benchmark: full MCTS iterations per second from the empty board, for every selection rule.

    python bench/search.py                       # table: every rule, 9x9 and 19x19, 1 and 2 threads
    python bench/search.py --json                # one JSON object per (rule, size, threads)
    python bench/search.py --rules ucb1 rave --sizes 9 --runs 3 --seconds 0.5
    python bench/search.py --playout uniform --prior none  # the playout policy and the prior

An iteration is what ``Search.run`` does once per playout: descend the tree with the rule,
expand a leaf (with the prior's initial statistics), play a playout of the chosen policy to the
end (``uniform`` by default: light, uniformly random), back the result up (and the AMAF
statistics for the RAVE rules). Each run is a fresh ``Search`` on the empty board (komi 7.5) with
a time budget of ``--seconds``; its rate is the iterations it ran divided by the time it took, tree
growth included. The median over ``--runs`` runs is reported, with the spread. The runs go in
rounds (one run of every row, then the next round), so a change in the load of a shared machine
falls on all rows alike; each row shows the 1-minute load average during its runs.

Two threads mean tree parallelism (one tree searched by both; ``goengine.parallel``) or, with
``--parallel root``, root parallelism (two trees searched at once and merged at the root). The
speed-up is the two-thread rate divided by the one-thread rate of the same rule and size; on a
machine with two cores it cannot exceed 2, and less when other work shares the cores, so the
load average is printed with every result.

Targets are ratios to the speed reference run in the same sitting (``bench/reference.py`` runs
``bench/yardstick.py`` before the first round and after each), so they hold on any machine and
under any load: one thread, Pachi's UCT with light playouts, the target of ``--playout uniform``,
ran ``reference.PACHI_LIGHT`` times the reference's rate, and with its heavy playouts, the target
of ``--playout heavy``, ``reference.PACHI_HEAVY`` times. (Measured against the project's first
reference: 0.45x on 9x9 and 0.56x on 19x19, 27,800 and 6,900 iterations/s when that reference ran
about 60,000 and 12,300; heavy, 0.15x and 0.20x, about 9,100 and 2,500.) "x Pachi" is a row's
rate over that equivalent; 1.00x meets the target. ``docs/performance.md`` holds the latest
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import reference

from goengine import parallel as parallel_search
from goengine import policies, priors, selection
from goengine.board import Board
from goengine.config import Budget, SearchConfig, SearchRequest
from goengine.search import Search

# one thread, by playout policy: Pachi's UCT as a multiple of the reference, light playouts and
# heavy (moggy) ones
ANCHORS = {"uniform": reference.PACHI_LIGHT, "heavy": reference.PACHI_HEAVY}
KOMI = 7.5


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def one_run(
    rule: str,
    size: int,
    threads: int,
    seconds: float,
    seed: int,
    max_memory_mb: float,
    playout: str,
    prior: str,
    parallel: str = parallel_search.DEFAULT_PARALLEL,
) -> float:
    """Iterations per second of one fresh search from the empty board."""
    config = SearchConfig(
        rule=rule,
        playout=playout,
        prior=prior,
        playouts=None,
        seconds=seconds,
        threads=threads,
        parallel=parallel,
        seed=seed,
        resign_threshold=0.0,
        max_memory_mb=max_memory_mb,
    )
    search = Search(config)
    try:
        start = time.perf_counter()
        result = search.run(Board(size), KOMI, SearchRequest(Budget(seconds=seconds)))
        elapsed = time.perf_counter() - start
    finally:
        search.close()
    return result.playouts / elapsed


def warm_up(rule_names: list[str], sizes: list[int], max_threads: int, playout: str, prior: str, parallel: str) -> None:
    """Compile (or load from the cache) every kernel a timed run calls, on every size, and start
    the thread pool machinery once, so no timed run pays for either."""
    for rule in rule_names:
        for size in sizes:
            for threads in sorted({1, max_threads}):
                config = SearchConfig(
                    rule=rule,
                    playout=playout,
                    prior=prior,
                    playouts=256,
                    threads=threads,
                    parallel=parallel,
                    resign_threshold=0.0,
                )
                search = Search(config)
                search.run(Board(size), KOMI, SearchRequest(Budget.of(config)))
                search.close()


def measure_all(configs: list[tuple[str, int, int]], args: argparse.Namespace, ref: reference.Reference) -> list[dict]:
    """Every configuration ``(rule, size, threads)`` ``args.runs`` times, in rounds (one run of each
    configuration per round, then one run of the reference), so a change in the machine's load
    while the benchmark runs falls on every row and on the reference alike rather than on the rows
    that happen to run late."""
    rates: dict[tuple, list[float]] = {c: [] for c in configs}
    loads: dict[tuple, list[float]] = {c: [] for c in configs}
    ref.run()
    for k in range(args.runs):
        for config in configs:
            rule, size, threads = config
            rates[config].append(
                one_run(
                    rule,
                    size,
                    threads,
                    args.seconds,
                    args.seed + k,
                    args.max_memory,
                    args.playout,
                    args.prior,
                    args.parallel,
                )
            )
            loads[config].append(os.getloadavg()[0])
        ref.run()
    rows = []
    for config in configs:
        rule, size, threads = config
        rate = statistics.median(rates[config])
        row = {
            "rule": rule,
            "playout": args.playout,
            "prior": args.prior,
            "size": size,
            "threads": threads,
            "iterations_per_s": round(rate),
            "iterations_per_s_min": round(min(rates[config])),
            "iterations_per_s_max": round(max(rates[config])),
            "runs": args.runs,
            "seconds_per_run": args.seconds,
            "seed": args.seed,
            "load_1min": round(statistics.mean(loads[config]), 2),
        }
        anchor = ANCHORS.get(args.playout, {})
        ratio = ref.ratio(rate, size, anchor)
        if threads == 1 and ratio is not None:
            row["reference_playouts_per_s"] = round(ref.rate(size))
            row["x_pachi"] = round(ratio, 3)
            row["meets_target"] = ratio >= 1.0
        rows.append(row)
    return rows


def add_speedups(rows: list[dict]) -> None:
    """``speedup``: the rate with T threads over the one-thread rate of the same rule and size."""
    single = {(r["rule"], r["size"]): r["iterations_per_s"] for r in rows if r["threads"] == 1}
    for r in rows:
        base = single.get((r["rule"], r["size"]))
        if base:
            r["speedup"] = round(r["iterations_per_s"] / base, 2)


def print_table(rows: list[dict], args: argparse.Namespace, load_before: list[float], ref: reference.Reference) -> None:
    print(
        f"{'rule':<14} {'size':>4} {'thr':>3} {'iter/s':>8} {'(min-max)':>17} {'speed-up':>8} "
        f"{'x Pachi':>11} {'load':>5}"
    )
    for r in rows:
        spread = f"({r['iterations_per_s_min']}-{r['iterations_per_s_max']})"
        speedup = f"{r['speedup']:.2f}" if "speedup" in r and r["threads"] > 1 else ""
        target = ""
        if "x_pachi" in r:
            target = reference.fmt_ratio(r["x_pachi"]) + (" ok" if r["meets_target"] else " LOW")
        print(
            f"{r['rule']:<14} {r['size']:>4} {r['threads']:>3} {r['iterations_per_s']:>8} {spread:>17} "
            f"{speedup:>8} {target:>11} {r['load_1min']:>5.2f}"
        )
    after = load_average()
    print(
        f"playout {args.playout}, prior {args.prior}; "
        f"median of {args.runs} runs of {args.seconds:g} s from the empty board, komi {KOMI}, run in rounds; "
        f"load: the 1-minute load average during the row's runs; {os.cpu_count()} CPUs; "
        f"load average before {' '.join(map(str, load_before))}, after {' '.join(map(str, after))}"
    )
    print(ref.describe())
    anchor = ANCHORS.get(args.playout, {})
    if anchor and ref.available:
        print(
            f"x Pachi: one thread's rate over Pachi's UCT with {'heavy' if args.playout == 'heavy' else 'light'} "
            "playouts ("
            + ", ".join(f"{size}x{size} {m:.2f}x" for size, m in anchor.items())
            + " the reference); target 1.00x"
        )


def prior_name(text: str) -> str:
    """The prior called ``text`` or by an older name of it (``patterns``): its name today."""
    try:
        return priors.PRIORS.get_choice(text).name
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rules",
        nargs="+",
        default=list(selection.RULES),
        choices=list(selection.RULES),
        metavar="RULE",
        help="selection rules (default: all: " + " ".join(selection.RULES) + ")",
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], help="board sizes (default 9 19)")
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[1, 2],
        help="thread counts; the speed-up is over 1 thread (default 1 2)",
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs per row; the median is reported (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget of one run in seconds (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first run; run k uses seed + k (default 1)")
    parser.add_argument(
        "--max-memory",
        type=float,
        default=1024.0,
        metavar="MB",
        help="memory for the trees of one run (default 1024, the engine's default)",
    )
    parser.add_argument("--playout", default="uniform", choices=list(policies.POLICIES), help="playout policy")
    parser.add_argument(
        "--prior",
        default="none",
        type=prior_name,
        metavar="NAME",
        help=f"prior knowledge: {priors.PRIORS.names_help()}",
    )
    parser.add_argument(
        "--parallel",
        default=parallel_search.DEFAULT_PARALLEL,
        choices=list(parallel_search.PARALLEL),
        help="how the threads share the work: one tree (tree) or one each (root)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per row instead of a table")
    args = parser.parse_args(argv)
    threads = sorted(set(args.threads))
    if 1 not in threads and len(threads) > 0:
        print("note: no 1-thread rows, so no speed-ups", file=sys.stderr)

    load_before = load_average()
    warm_up(args.rules, args.sizes, max(threads), args.playout, args.prior, args.parallel)
    ref = reference.Reference()
    rows = measure_all([(rule, size, t) for rule in args.rules for size in args.sizes for t in threads], args, ref)
    add_speedups(rows)
    if args.json:
        for row in rows:
            print(json.dumps(row))
    else:
        print_table(rows, args, load_before, ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
