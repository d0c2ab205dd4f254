"""The K-armed bandit laboratory: Stogin et al. 2009, section 3.1 (figures 7-9; seed 000).

    python scripts/bandit.py --runs 2000 --out docs/bandit     # the full experiment
    python scripts/bandit.py --quick --out /tmp/bandit          # a smoke test: 20 runs of 500 pulls

Ten Bernoulli machines, 10,000 pulls; the total reward as a function of the exploration coefficient
gamma, for UCB1-Tuned (eq. 1.1-1.2 with gamma) and Beta-UCB (eq. 2.1-2.2 with gamma/2, as in section
3.1), in three ranges of machine means: [0.2, 0.4], [0.4, 0.6], [0.6, 0.8]. Every other rule of
``goengine.selection`` runs once at its default parameters, as a reference. The machines are played by
``goengine.kernels.bandit``, which chooses arms with the tree's own ``kernels.select.select_best``.

Reading guide: ``main`` parses the flags and calls ``experiment``; ``experiment`` builds the
configurations (``configurations``) and the machines (``arm_means``), runs ``simulate`` (the
validating wrapper around the kernel) once per range, and ``summarise`` turns rewards into rows;
then ``write_csv``, ``format_table`` and ``plot`` write the results.

Choices, stated once (the paper leaves them open):
- "evenly distributed" means (``--layout even``, the default): machine i of 10 has mean
  ``a + (b - a) i / 9``, i = 0..9, so both ends of [a, b] are machines. The paper also says the
  machines are "set up randomly"; ``--layout random`` draws each run's means uniformly from [a, b].
- gamma grid: the paper gives no axis, but names gamma = .5 and .6 as neighbouring coefficients,
  so its grid steps by 0.1; the default is 0.1, 0.2, ..., 1.2 (12 values, the default gamma 1 in it).
- no AMAF in a flat bandit: the RAVE rules get zero AMAF counts and reduce to their non-AMAF forms
  (``rave`` to UCB1 with C = 0, i.e. greedy after one pull each; ``kl-ucb-rave`` to KL-UCB).
- common random numbers (``kernels.bandit``): in run r every rule sees the same outcome sequence
  from each machine, so Beta-UCB minus UCB1-Tuned at the same gamma is a paired difference.
- regret: ``pulls * max(mean) - total reward`` per run; the pseudo-regret ``sum_i n_i (max - m_i)``
  (from the pull counts) is reported too, as it has a smaller variance.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from goengine import selection
from goengine.kernels import bandit as kb

RANGES = ((0.2, 0.4), (0.4, 0.6), (0.6, 0.8))
GAMMAS = tuple(round(0.1 * i, 1) for i in range(1, 13))
SWEPT = ("ucb1-tuned", "beta-ucb")
BASELINE = "ucb1-tuned"
DEFAULT_SEED = 20090105  # the paper's date


@dataclass(frozen=True)
class Config:
    """One rule with its parameters: ``gamma`` is set for the swept rules, None for a reference."""

    rule: str
    params: tuple[tuple[str, float], ...]
    gamma: float | None

    @property
    def label(self) -> str:
        return selection.describe(self.rule, **dict(self.params))


def configurations(gammas, references=True) -> list[Config]:
    """The swept rules at every gamma, the baseline at its default gamma (if not in the grid), then
    every other registered rule at its defaults."""
    configs = [Config(rule, (("gamma", float(g)),), float(g)) for rule in SWEPT for g in gammas]
    default_gamma = selection.get(BASELINE).defaults["gamma"]
    if references:
        if default_gamma not in [float(g) for g in gammas]:
            configs.append(Config(BASELINE, (("gamma", default_gamma),), default_gamma))
        configs += [Config(name, (), None) for name in selection.RULES if name not in SWEPT]
    return configs


def arm_means(lo: float, hi: float, arms: int, runs: int, layout: str, seed: int) -> np.ndarray:
    """float64[runs, arms]: the machines of every run. ``even``: ``lo + (hi - lo) i / (arms - 1)``
    in every run; ``random``: uniform on [lo, hi], drawn per run from ``(seed, lo, hi)``."""
    if layout == "even":
        row = lo + (hi - lo) * np.arange(arms) / max(arms - 1, 1)
        return np.ascontiguousarray(np.tile(row, (runs, 1)))
    if layout == "random":
        gen = np.random.default_rng([seed, round(lo * 1000), round(hi * 1000)])
        return gen.uniform(lo, hi, size=(runs, arms))
    raise ValueError(f"layout must be 'even' or 'random', got {layout!r}")


def simulate(
    configs: list[Config], means: np.ndarray, pulls: int, seed: int, first_run: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Play every configuration on every run (row of ``means``) with common random numbers.

    Returns ``rewards`` float64[C, R] and ``counts`` float64[C, R, K]. Run r uses the streams of
    run ``first_run + r`` of ``seed``, so a run can be replayed alone."""
    means = np.ascontiguousarray(means, dtype=np.float64)
    if means.ndim != 2 or means.shape[1] < 1:
        raise ValueError("means must be a 2-D array [runs, arms]")
    if np.any(means < 0.0) or np.any(means > 1.0):
        raise ValueError("machine means must lie in [0, 1]")
    if pulls < 0:
        raise ValueError("pulls must be non-negative")
    ids = np.zeros(len(configs), dtype=np.int64)
    params = np.zeros((len(configs), selection.RULES.max_params), dtype=np.float64)
    for c, config in enumerate(configs):
        rule_id, array = selection.resolve(config.rule, **dict(config.params))
        ids[c] = rule_id
        params[c, : array.shape[0]] = array
    rewards = np.zeros((len(configs), means.shape[0]), dtype=np.float64)
    counts = np.zeros((len(configs), means.shape[0], means.shape[1]), dtype=np.float64)
    kb.run_games(ids, params, means, np.int64(pulls), np.uint64(seed % (1 << 64)), np.int64(first_run), rewards, counts)
    return rewards, counts


def mean_se(x: np.ndarray) -> tuple[float, float]:
    """The mean of ``x`` and its standard error (sample standard deviation / sqrt(n))."""
    n = x.shape[0]
    if n < 2:
        return float(x.mean()), float("nan")
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(n))


def p_two_sided(z: float) -> float:
    """The two-sided p-value of a z statistic (normal approximation; fine for hundreds of runs)."""
    return math.erfc(abs(z) / math.sqrt(2.0)) if math.isfinite(z) else float("nan")


def summarise(configs, rewards, counts, means, pulls, lo, hi, layout, seed) -> list[dict]:
    """One row per configuration: reward, regrets, best-arm share, and the paired difference with
    UCB1-Tuned (at the same gamma for Beta-UCB, at UCB1-Tuned's default gamma for the references)."""
    best = means.max(axis=1)
    gaps = best[:, None] - means
    is_best = means == best[:, None]
    index = {(c.rule, c.gamma): i for i, c in enumerate(configs)}
    default_gamma = selection.get(BASELINE).defaults["gamma"]
    rows = []
    for c, config in enumerate(configs):
        reward, se = mean_se(rewards[c])
        regret, se_regret = mean_se(pulls * best - rewards[c])
        pseudo, se_pseudo = mean_se((counts[c] * gaps).sum(axis=1))
        share = float((counts[c] * is_best).sum(axis=1).mean() / max(pulls, 1))
        row = {
            "range": f"[{lo:g}, {hi:g}]",
            "lo": lo,
            "hi": hi,
            "layout": layout,
            "rule": config.rule,
            "params": config.label,
            "gamma": "" if config.gamma is None else config.gamma,
            "runs": rewards.shape[1],
            "pulls": pulls,
            "arms": means.shape[1],
            "mean_reward": reward,
            "se_reward": se,
            "regret": regret,
            "se_regret": se_regret,
            "pseudo_regret": pseudo,
            "se_pseudo_regret": se_pseudo,
            "best_arm_share": share,
            "baseline": "",
            "diff_vs_ucb1_tuned": "",
            "se_diff": "",
            "z": "",
            "p_two_sided": "",
            "seed": seed,
        }
        if config.rule != BASELINE:
            gamma = config.gamma if config.gamma is not None else default_gamma
            b = index[(BASELINE, gamma)]
            diff, se_diff = mean_se(rewards[c] - rewards[b])
            z = diff / se_diff if se_diff > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
            row.update(
                baseline=configs[b].label,
                diff_vs_ucb1_tuned=diff,
                se_diff=se_diff,
                z=z,
                p_two_sided=p_two_sided(z),
            )
        rows.append(row)
    return rows


def best_vs_best(configs, rewards, gammas, lo, hi) -> dict:
    """Each swept rule at its own best gamma of the grid, and the paired difference of the two.
    Picking the best of 12 means slightly favours both (winner's curse, of the order of one se)."""
    out = {"range": f"[{lo:g}, {hi:g}]"}
    best = {}
    for rule in SWEPT:
        idx = [i for i, c in enumerate(configs) if c.rule == rule and c.gamma in gammas]
        best[rule] = max(idx, key=lambda i: rewards[i].mean())
        reward, se = mean_se(rewards[best[rule]])
        key = rule.replace("-", "_")
        out.update({f"{key}_gamma": configs[best[rule]].gamma, f"{key}_reward": reward, f"{key}_se": se})
    diff, se_diff = mean_se(rewards[best["beta-ucb"]] - rewards[best[BASELINE]])
    out.update(diff=diff, se_diff=se_diff)
    return out


def experiment(args) -> tuple[list[dict], dict]:
    """Run every range; returns the rows and the run's metadata (timings, load, machine)."""
    configs = configurations(args.gammas, references=not args.no_references)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    simulate(configs[:1], arm_means(0.4, 0.6, 2, 1, "even", 0), 2, args.seed)  # compile or load the cache
    compile_s = time.perf_counter() - t0
    rows, per_range, bests = [], [], []
    t1 = time.perf_counter()
    cpu1 = time.process_time()  # all threads: cpu_s / run_s below 'threads' means the cores were shared
    for lo, hi in args.ranges:
        start = time.perf_counter()
        means = arm_means(lo, hi, args.arms, args.runs, args.layout, args.seed)
        rewards, counts = simulate(configs, means, args.pulls, args.seed)
        rows += summarise(configs, rewards, counts, means, args.pulls, lo, hi, args.layout, args.seed)
        bests.append(best_vs_best(configs, rewards, [float(g) for g in args.gammas], lo, hi))
        per_range.append(round(time.perf_counter() - start, 2))
        print(f"range [{lo:g}, {hi:g}]: {per_range[-1]:.1f} s", file=sys.stderr, flush=True)
    run_s = time.perf_counter() - t1
    cpu_s = time.process_time() - cpu1
    n_games = len(configs) * args.runs * len(args.ranges)
    meta = {
        "command": "python scripts/bandit.py " + " ".join(sys.argv[1:]),
        "seed": args.seed,
        "runs": args.runs,
        "pulls": args.pulls,
        "arms": args.arms,
        "layout": args.layout,
        "gammas": list(args.gammas),
        "ranges": [list(r) for r in args.ranges],
        "configurations": [c.label for c in configs],
        "best_vs_best": bests,
        "games": n_games,
        "pulls_total": n_games * args.pulls,
        "compile_or_cache_load_s": round(compile_s, 2),
        "run_s": round(run_s, 2),
        "run_s_per_range": per_range,
        "cpu_s": round(cpu_s, 2),
        "ns_per_pull_cpu": round(cpu_s / max(n_games * args.pulls, 1) * 1e9, 1),
        "threads": numba.get_num_threads(),
        "threading_layer": numba.threading_layer(),
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "numba": numba.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "machine": platform.platform(),
    }
    return rows, meta


FIELDS = [
    "range",
    "lo",
    "hi",
    "layout",
    "rule",
    "params",
    "gamma",
    "runs",
    "pulls",
    "arms",
    "mean_reward",
    "se_reward",
    "regret",
    "se_regret",
    "pseudo_regret",
    "se_pseudo_regret",
    "best_arm_share",
    "baseline",
    "diff_vs_ucb1_tuned",
    "se_diff",
    "z",
    "p_two_sided",
    "seed",
]


def write_csv(rows: list[dict], path: Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})


def _pm(value, se, digits=1) -> str:
    if value == "" or value is None:
        return "-"
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def format_table(rows: list[dict], meta: dict) -> str:
    """Plain-text tables: per range, the gamma sweep (both rules and the paired difference), then the
    references. ``±`` is one standard error; ``z`` is the paired difference over its error."""
    out = [
        f"K-armed bandit, seed 000 section 3.1: {meta['arms']} machines ({meta['layout']}), {meta['pulls']} pulls, "
        f"{meta['runs']} runs, seed {meta['seed']}; ± is one standard error; diff = Beta-UCB - UCB1-Tuned "
        "(paired, common random numbers)."
    ]
    for rng in dict.fromkeys(r["range"] for r in rows):
        sub = [r for r in rows if r["range"] == rng]
        tuned = {r["gamma"]: r for r in sub if r["rule"] == "ucb1-tuned" and r["gamma"] != ""}
        beta = {r["gamma"]: r for r in sub if r["rule"] == "beta-ucb"}
        out.append(f"\nmeans in {rng}")
        out.append(f"{'gamma':>6}  {'UCB1-Tuned':>17}  {'Beta-UCB':>17}  {'diff':>14}  {'z':>6}  {'p':>7}")
        for g in sorted(beta):
            t, b = tuned[g], beta[g]
            out.append(
                f"{g:>6.2f}  {_pm(t['mean_reward'], t['se_reward']):>17}  {_pm(b['mean_reward'], b['se_reward']):>17}"
                f"  {_pm(b['diff_vs_ucb1_tuned'], b['se_diff']):>14}  {b['z']:>6.1f}  {b['p_two_sided']:>7.2g}"
            )
        for best in meta.get("best_vs_best", []):
            if best["range"] == rng:
                out.append(
                    f"  each at its best gamma: UCB1-Tuned {best['ucb1_tuned_gamma']:g} "
                    f"{_pm(best['ucb1_tuned_reward'], best['ucb1_tuned_se'])}, Beta-UCB {best['beta_ucb_gamma']:g} "
                    f"{_pm(best['beta_ucb_reward'], best['beta_ucb_se'])}; paired diff "
                    f"{_pm(best['diff'], best['se_diff'])}"
                )
        refs = [r for r in sub if r["gamma"] == ""]
        if refs:
            out.append(f"  references (default parameters; diff vs {refs[0]['baseline']}):")
            for r in refs:
                out.append(
                    f"  {r['params']:<44} {_pm(r['mean_reward'], r['se_reward']):>17}  regret "
                    f"{r['regret']:7.1f}  diff {_pm(r['diff_vs_ucb1_tuned'], r['se_diff']):>14}"
                )
    if any(r["gamma"] == "" for r in rows):
        out.append(
            "\nNo AMAF in a flat bandit: rave and kl-ucb-rave get zero AMAF counts and reduce to UCB1 with their"
            " C (rave: C = 0, greedy after one pull each) and to KL-UCB."
        )
    out.append(
        f"\n{meta['games']} games, {meta['pulls_total']:.3g} pulls in {meta['run_s']:.1f} s on {meta['threads']} "
        f"threads, {meta['cpu_s']:.1f} s of CPU ({meta['ns_per_pull_cpu']:.0f} ns per pull); compile/cache load "
        f"{meta['compile_or_cache_load_s']:.1f} s; load average before {meta['load_average_before']}, after "
        f"{meta['load_average_after']}."
    )
    return "\n".join(out)


def print_table(text: str) -> None:
    """Print with rich if it is installed, else plain."""
    try:
        from rich.console import Console
    except ImportError:
        print(text)
        return
    Console(soft_wrap=True).print(text, highlight=False, markup=False)


def plot(rows: list[dict], meta: dict, path: Path) -> bool:
    """One PNG: per range, total reward vs gamma (top, 95% error bars, references as horizontal
    lines) and the paired difference Beta-UCB - UCB1-Tuned (bottom). False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    ranges = list(dict.fromkeys(r["range"] for r in rows))
    fig, axes = plt.subplots(
        2, len(ranges), figsize=(5.2 * len(ranges), 8.5), squeeze=False, gridspec_kw={"height_ratios": [3, 2]}
    )
    ref_names = [n for n in selection.RULES if n not in SWEPT]
    cmap = plt.get_cmap("tab10")
    styles = {n: (cmap(2 + i % 8), ("--", ":", "-.")[i % 3]) for i, n in enumerate(ref_names)}
    amaf_note = {"rave": "greedy", "kl-ucb-rave": "= kl-ucb"}
    gammas = np.array(meta["gammas"], dtype=float)
    log_x = gammas.min() > 0 and gammas.max() / gammas.min() > 20
    for j, rng in enumerate(ranges):
        sub = [r for r in rows if r["range"] == rng]
        top, bottom = axes[0, j], axes[1, j]
        if log_x:
            top.set_xscale("log")
            bottom.set_xscale("log")
        for rule, color, fig_label, side in (
            ("ucb1-tuned", cmap(0), "UCB1-Tuned", -1),
            ("beta-ucb", cmap(1), "Beta-UCB", 1),
        ):
            pts = sorted(
                (r["gamma"], r["mean_reward"], r["se_reward"])
                for r in sub
                if r["rule"] == rule and r["gamma"] != "" and r["gamma"] in meta["gammas"]
            )
            g, m, s = (np.array(v) for v in zip(*pts, strict=True))
            shift = (1.0 + side * 0.01) * g if log_x else g + side * 0.004 * (g.max() - g.min())  # bars side by side
            top.errorbar(shift, m, yerr=1.96 * s, color=color, marker="o", ms=4, capsize=3, label=fig_label)
        for r in sub:
            if r["gamma"] == "":
                color, ls = styles[r["rule"]]
                label = r["params"] + ("  (no AMAF: " + amaf_note[r["rule"]] + ")" if r["rule"] in amaf_note else "")
                top.axhline(r["mean_reward"], color=color, ls=ls, lw=1.3, label=label)
        top.set_title(f"means in {rng} ({meta['arms']} machines, {meta['pulls']} pulls)")
        top.set_xlabel("exploration coefficient gamma")
        top.set_ylabel("mean total reward")
        top.grid(alpha=0.3)
        pts = sorted((r["gamma"], r["diff_vs_ucb1_tuned"], r["se_diff"]) for r in sub if r["rule"] == "beta-ucb")
        g, d, s = (np.array(v) for v in zip(*pts, strict=True))
        bottom.axhline(0.0, color="black", lw=0.8)
        bottom.errorbar(g, d, yerr=1.96 * s, color=cmap(1), marker="o", ms=4, capsize=3)
        bottom.set_xlabel("exploration coefficient gamma")
        bottom.set_ylabel("Beta-UCB - UCB1-Tuned (paired)")
        bottom.grid(alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.suptitle(
        f"K-armed bandit (seed 000, section 3.1, figures 7-9): {meta['runs']} runs, seed {meta['seed']}, "
        f"layout {meta['layout']}; error bars 95% (1.96 se)"
        + ("; references at default parameters (no AMAF)" if any(r["gamma"] == "" for r in rows) else ""),
        fontsize=10,
    )
    fig.tight_layout(rect=(0, 0.07, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


NUMERIC = {"lo", "hi", "gamma", "runs", "pulls", "arms", "seed"} | {
    f for f in FIELDS if f.startswith(("mean_", "se_", "regret", "pseudo", "best_", "diff_", "z", "p_"))
}


def read_csv(path: Path) -> list[dict]:
    """The rows of a ``bandit.csv`` with the numbers as numbers (empty cells stay empty)."""
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in NUMERIC & row.keys():
            if row[key] != "":
                row[key] = int(row[key]) if key in ("runs", "pulls", "arms", "seed") else float(row[key])
    return rows


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split(",") if x.strip())


def _ranges(text: str) -> tuple[tuple[float, float], ...]:
    out = []
    for part in text.split(","):
        lo, hi = (float(x) for x in part.split(":"))
        if not 0.0 <= lo <= hi <= 1.0:
            raise argparse.ArgumentTypeError(f"range {part!r} must satisfy 0 <= lo <= hi <= 1")
        out.append((lo, hi))
    return tuple(out)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=None, help="runs per configuration (default 2000; --quick 20)")
    parser.add_argument("--pulls", type=int, default=None, help="pulls per game (default 10000; --quick 500)")
    parser.add_argument("--arms", type=int, default=10, help="machines (default 10)")
    parser.add_argument("--gammas", type=_floats, default=GAMMAS, help="comma-separated (default 0.1,...,1.2)")
    parser.add_argument("--ranges", type=_ranges, default=RANGES, help="lo:hi,... (default 0.2:0.4,0.4:0.6,0.6:0.8)")
    parser.add_argument("--layout", choices=("even", "random"), default="even", help="machine means (default even)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"experiment seed (default {DEFAULT_SEED})")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all cores)")
    parser.add_argument("--no-references", action="store_true", help="only the two swept rules")
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG")
    parser.add_argument("--quick", action="store_true", help="smoke test: 20 runs of 500 pulls")
    parser.add_argument("--replot", type=Path, default=None, help="redraw DIR/bandit.png from DIR's csv and meta.json")
    parser.add_argument(
        "--out", type=Path, default=None, help="folder for bandit.csv, bandit.png, table.txt, meta.json"
    )
    args = parser.parse_args(argv)
    if args.runs is None:
        args.runs = 20 if args.quick else 2000
    if args.pulls is None:
        args.pulls = 500 if args.quick else 10000
    if args.runs < 1 or args.pulls < 1 or args.arms < 1:
        parser.error("--runs, --pulls and --arms must be positive")
    if not args.gammas or min(args.gammas) < 0:
        parser.error("--gammas must be non-negative numbers")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.replot is not None:
        meta = json.loads((args.replot / "meta.json").read_text())
        if not plot(read_csv(args.replot / "bandit.csv"), meta, args.replot / "bandit.png"):
            print("matplotlib is not installed: no figure (pip install matplotlib, or the 'plot' extra)")
            return 1
        print(f"wrote bandit.png to {args.replot}")
        return 0
    if args.threads:
        numba.set_num_threads(args.threads)
    rows, meta = experiment(args)
    text = format_table(rows, meta)
    print_table(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        write_csv(rows, args.out / "bandit.csv")
        (args.out / "table.txt").write_text(text + "\n")
        (args.out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
        written = ["bandit.csv", "table.txt", "meta.json"]
        if args.no_plot:
            pass
        elif plot(rows, meta, args.out / "bandit.png"):
            written.append("bandit.png")
        else:
            print("matplotlib is not installed: no figure (pip install matplotlib, or the 'plot' extra)")
        print(f"wrote {', '.join(written)} to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
