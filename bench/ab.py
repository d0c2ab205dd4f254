"""A/B of two versions of the kernels in one process: how much faster one runs than the other, and
whether both play the same moves for the same seeds.

    python bench/ab.py 95f7b10                          # that commit's kernels against this tree's
    python bench/ab.py 95f7b10 --policy heavy           # heavy playouts
    python bench/ab.py 95f7b10 --search --rule kl-ucb-rave
    python bench/ab.py /path/to/a/checkout HEAD --sizes 19 --pairs 30 --json
    python bench/ab.py HEAD --search --rule rave --after-param rule.distance=3   # a setting's cost

BEFORE and AFTER (default: this source tree) are each a git revision of this repository or a
directory holding a goengine source tree. Each version's ``goengine/kernels`` is copied into a
package of its own in a temporary directory and imported beside the other, so both are compiled
and run in the same process. Batches of playouts (or, with ``--search``, of search iterations from
the empty board) then alternate, before-after, after-before, ..., each timed on CPU time: both
versions share the machine's ups and downs, which two invocations of ``bench/playouts.py`` a
minute apart do not. For each size it prints the median rate of each version and the median of
the per-pair ratios after/before with its quartiles: the measure of a change in
``docs/performance.md``.

The two batches of a pair use the same seed. A playout batch's scores and move count, or a
search's whole tree (every node's move, visits and reward sums), are compared: "same moves" says
whether the two versions agreed on every pair, which an optimisation must keep (or else show
that the distributions did not move: issue 13, item 5).

With ``--search``, ``--after-param KIND.NAME=VALUE`` (``rule.distance=3``, ``playout.capture=0.5``,
``prior.even=14``) sets a parameter of the after side alone: with the same version on both sides it
measures what a setting costs in speed, and "same moves" then says NO unless the setting changes
nothing.

Everything but the kernels comes from this tree (the Zobrist table, the 3x3 pattern table, the
search's settings arrays), so the two versions must take the same arguments: kernels from commit
45418e3 (the packed pattern table) on.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from goengine import movemodel, playout_model
from goengine.board import ZOBRIST
from goengine.config import SearchConfig, with_param
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import table
from goengine.playout_model import no_model_arrays
from goengine.policies import POLICIES
from goengine.priors import PRIORS
from goengine.search import KernelSettings

ROOT = Path(__file__).resolve().parent.parent  # the source tree: git archive and the default AFTER

KERNELS = "goengine/kernels"
KOMI = 7.5
TREE_CAPACITY = 400_000
# a batch: about 0.05-0.1 s of work on this project's machine, so that a pair sees the same load
PLAYOUTS = {("uniform", 9): 800, ("uniform", 19): 160, ("heavy", 9): 150, ("heavy", 19): 30}
ITERATIONS = {("uniform", 9): 3000, ("uniform", 19): 600, ("heavy", 9): 800, ("heavy", 19): 150}


def fetch_kernels(version: str, dest: Path) -> None:
    """Copy the kernels of ``version`` (a directory with a goengine tree, or a git revision of this
    repository) into the package directory ``dest``."""
    source = Path(version)
    if (source / KERNELS).is_dir():
        shutil.copytree(source / KERNELS, dest, ignore=shutil.ignore_patterns("__pycache__"))
        return
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", version, KERNELS],
            check=True,
            capture_output=True,
        ).stdout
    except subprocess.CalledProcessError as err:
        reason = err.stderr.decode().strip()
        raise SystemExit(f"ab.py: {version!r} is neither a goengine tree nor a git revision: {reason}") from None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest.parent / "extract", filter="data")
    shutil.move(str(dest.parent / "extract" / KERNELS), dest)
    shutil.rmtree(dest.parent / "extract")


def load_versions(versions: list[str], workdir: Path) -> list[dict]:
    """Import each version's kernels as a package of its own: ``{"board", "playout", "search",
    "tree"}`` modules for each."""
    sys.path.insert(0, str(workdir))
    loaded = []
    for k, version in enumerate(versions):
        name = f"ab_kernels_{k}"
        fetch_kernels(version, workdir / name)
        loaded.append({m: importlib.import_module(f"{name}.{m}") for m in ("board", "playout", "search", "tree")})
    return loaded


def playout_batch(kernels: dict, size: int, policy: str) -> tuple[Callable[[int], tuple[float, tuple]], int]:
    """A function of a seed running one batch of playouts with ``kernels`` (it returns ``(CPU
    seconds, what the batch played)``), and the batch's number of playouts."""
    n = PLAYOUTS[(policy, size)]
    pid = np.int64(POLICIES[policy].id)
    params = POLICIES.array(policy)
    patterns = table()
    pts, meta = kernels["board"].new_board(np.int64(size))
    scores = np.zeros(n, np.int64)

    # kernels before the learned playout policy take the 3x3 table alone; later ones take it with
    # the learned policy's model
    tables = (patterns, no_model_arrays()) if hasattr(kernels["playout"], "learned") else patterns
    if policy == "learned":
        tables = (patterns, playout_model.shipped().arrays)

    def run(seed: int) -> tuple[float, tuple]:
        rng = new_state(seed)
        start = time.process_time()
        moves = kernels["playout"].run_playouts(
            pts, meta, ZOBRIST, rng, pid, params, tables, np.int64(n), np.int64(3 * size * size), scores
        )
        return time.process_time() - start, (int(moves), scores.tobytes())

    return run, n


def search_batch(kernels: dict, size: int, config: SearchConfig) -> tuple[Callable[[int], tuple[float, tuple]], int]:
    """A function of a seed running a batch of search iterations from the empty board with
    ``kernels`` (it returns ``(CPU seconds, the tree it grew)``), and the batch's iterations."""
    n = ITERATIONS[(config.playout, size)]
    settings, params = KernelSettings.of(config).for_position(KOMI, 3 * size * size, False)
    patterns = table()
    model = movemodel.shipped().arrays if PRIORS[config.prior].needs_move_model else movemodel.empty_arrays()
    kb, ks, kt = kernels["board"], kernels["search"], kernels["tree"]

    def run(seed: int) -> tuple[float, tuple]:
        pts, meta = kb.new_board(np.int64(size))
        tree = kt.new_tree(TREE_CAPACITY)
        seen = np.array([meta[kb.HASH]], np.int64)
        work = ks.new_workspace(pts.shape[1])
        rng = new_state(seed)
        # kernels before the move model take the 3x3 table alone; later ones (whose workspace has
        # the prior's scratch) take it with the model's arrays, and later still (whose workspace
        # has the learned playout policy's scratch) with the learned policy's model too
        knowledge = patterns if len(work) == 7 else (patterns, model)
        if len(work) >= 11:
            learned = playout_model.shipped().arrays if config.playout == "learned" else no_model_arrays()
            knowledge = (patterns, model, learned)
        root = (pts, meta, ZOBRIST, seen, knowledge)
        if hasattr(ks, "OWNERSHIP"):  # later kernels count the root's owners into an array of the root's
            root += (np.zeros((2, pts.shape[1]), np.float64),)
        start = time.process_time()
        ks.run_iterations(tree, root, work, settings, params, rng, np.int64(n))
        seconds = time.process_time() - start
        ti, tf, tmeta = tree
        nodes = int(tmeta[kt.N_NODES])
        # the rows both versions keep (later kernels add a row of score sums: kernels.tree.SCORE)
        return seconds, (ti[:, :nodes].tobytes(), tf[: kt.AWINS + 1, :nodes].tobytes())

    return run, n


def with_params(config: SearchConfig, texts: list[str]) -> SearchConfig:
    """``config`` with each ``KIND.NAME=VALUE`` of ``texts`` set (KIND: rule, playout, prior);
    ValueError naming the text that is not one, or the parameters its choice has."""
    for text in texts:
        kind, _, rest = text.partition(".")
        key, eq, value = rest.partition("=")
        if kind not in ("rule", "playout", "prior") or not key or not eq:
            raise ValueError(f"{text!r} is not KIND.NAME=VALUE with KIND rule, playout or prior")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{text!r}: {value!r} is not a number") from None
        config = with_param(config, kind, key, number)
    return config


def compare(runs: list[Callable[[int], tuple[float, tuple]]], pairs: int, work: int) -> dict:
    """Alternate the two versions' batches for ``pairs`` pairs; ``work`` is a batch's playouts or
    iterations. Returns the medians and the per-pair ratios."""
    for run in runs:  # compile and warm up
        run(0)
    rates: list[list[float]] = [[], []]
    ratios = []
    same = True
    for k in range(pairs):
        pair = {}
        for i in (0, 1) if k % 2 == 0 else (1, 0):
            pair[i] = runs[i](k + 1)
        rate = [work / pair[i][0] for i in (0, 1)]
        rates[0].append(rate[0])
        rates[1].append(rate[1])
        ratios.append(rate[1] / rate[0])
        same = same and pair[0][1] == pair[1][1]
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    return {
        "before_per_s": round(statistics.median(rates[0])),
        "after_per_s": round(statistics.median(rates[1])),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_q1": round(quartiles[0], 3),
        "ratio_q3": round(quartiles[2], 3),
        "pairs": pairs,
        "same_moves": same,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="git revision or goengine source tree")
    parser.add_argument(
        "after", nargs="?", default=str(ROOT), help="git revision or goengine source tree (default: this tree)"
    )
    parser.add_argument("--policy", default="uniform", choices=sorted({policy for policy, _ in PLAYOUTS}))
    parser.add_argument("--search", action="store_true", help="time search iterations instead of playouts")
    parser.add_argument("--rule", default="ucb1", help="the selection rule, with --search")
    parser.add_argument("--prior", default="none", help="the prior, with --search")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], choices=[9, 19])
    parser.add_argument(
        "--after-param",
        action="append",
        default=[],
        metavar="KIND.NAME=VALUE",
        help="with --search, a parameter of the after side alone (KIND: rule, playout, prior); may repeat",
    )
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="one JSON object per size")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.after_param and not args.search:
        parser.error("--after-param needs --search")
    config = SearchConfig(rule=args.rule, playout=args.policy, prior=args.prior) if args.search else None
    try:
        after_config = with_params(config, args.after_param) if args.after_param else config
    except ValueError as error:
        parser.error(f"--after-param: {error}")
    what = f"search {args.rule}/{args.policy}/{args.prior}" if args.search else f"{args.policy} playouts"
    if args.after_param:
        what += " (after: " + ", ".join(args.after_param) + ")"
    with tempfile.TemporaryDirectory(prefix="goengine-ab-") as tmp:
        versions = load_versions([args.before, args.after], Path(tmp))
        for size in args.sizes:
            if args.search:
                batches = [search_batch(v, size, c) for v, c in zip(versions, (config, after_config), strict=True)]
            else:
                batches = [playout_batch(v, size, args.policy) for v in versions]
            runs = [run for run, _ in batches]
            work = batches[0][1]
            row = {"size": size, "what": what, "before": args.before, "after": args.after}
            row.update(compare(runs, args.pairs, work))
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{size}x{size} {what}: before {row['before_per_s']:,}/s, after {row['after_per_s']:,}/s, "
                    f"after/before {row['ratio']:.3f} (quartiles {row['ratio_q1']:.3f}-{row['ratio_q3']:.3f}, "
                    f"{args.pairs} pairs), same moves: {'yes' if row['same_moves'] else 'NO'}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
