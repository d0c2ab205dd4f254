"""A/B of two versions of the whole engine over GTP: do they play the same games for the same
seeds, and how much CPU time does a move take in each?

    python bench/games.py 7b9ba3b                       # that commit's engine against this tree's
    python bench/games.py 7b9ba3b HEAD --sizes 9 19 --seeds 3 --moves 40 --playouts 2000
    python bench/games.py /path/to/a/checkout --json -- --rule kl-ucb-rave --prior none

``bench/ab.py`` compares the kernels alone; this compares everything a user drives: the command
line, the GTP front-end, ``Engine``, the search around its kernels, the reading of its result,
the decision. It is the check of a change that must not alter what the engine does (a
refactoring): "same games" says that every game agreed move for move.

BEFORE and AFTER (default: this source tree) are each a git revision of this repository or a
directory holding a goengine source tree. A revision is unpacked (``git archive``) into a cache
folder of its own and kept there, so its kernels compile once (``goengine --compile``, untimed)
and later runs start at once. Each version's engine runs as ``python -m goengine`` from its tree,
with one thread, a fixed budget of playouts and the seed of the game (``--threads 1 --playouts N
--seed S``; options after ``--`` are passed to both), and plays both colours of a game by
``genmove``, ``--moves`` moves or until the game ends. Games alternate before-after,
after-before, ...; a move's cost is the engine's CPU seconds by GTP's ``cputime``, read before and
after each ``genmove``, so the controller's own time and the machine's other work count less than
wall time would. For each size it prints whether every game agreed (else the first move where one
did not), the median CPU seconds a move of each version, and the median of the per-game ratios
after/before with its quartiles. The speed reference (``bench/reference.py``) runs before and
after, so that the figures can be read against the machine's state.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
from pathlib import Path

import reference  # bench/reference.py: the speed reference

from goengine.lab.client import GtpClient

ROOT = Path(__file__).resolve().parent.parent  # the source tree: git archive and the default AFTER
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "goengine-bench-games"


def source_tree(version: str) -> Path:
    """The goengine source tree of ``version``: the directory itself, or the revision unpacked
    into the cache folder (once; later runs reuse it and its compiled kernels)."""
    if (Path(version) / "goengine" / "__init__.py").is_file():
        return Path(version).resolve()
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{version}^{{commit}}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except subprocess.CalledProcessError as err:
        reason = err.stderr.strip()
        raise SystemExit(f"games.py: {version!r} is neither a goengine tree nor a git revision: {reason}") from None
    tree = CACHE / commit
    if not (tree / "goengine" / "__init__.py").is_file():
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True, capture_output=True
        ).stdout
        partial = CACHE / f"{commit}.partial"
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(partial, filter="data")
        partial.rename(tree)
    return tree


def engine_command(tree: Path, seed: int, playouts: int, extra: list[str]) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that run ``tree``'s engine, not the installed one."""
    command = [sys.executable, "-m", "goengine", "--threads", "1", "--playouts", str(playouts), "--seed", str(seed)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return command + extra, env


def compile_kernels(tree: Path, extra: list[str]) -> None:
    """Compile ``tree``'s kernels before anything is timed (``goengine --compile`` exits after)."""
    command, env = engine_command(tree, 1, 1, extra)
    subprocess.run([*command, "--compile"], check=True, cwd=tree, env=env, stdout=subprocess.DEVNULL)


def play_game(tree: Path, size: int, seed: int, moves: int, playouts: int, extra: list[str]) -> dict:
    """One game of ``tree``'s engine against itself: its moves and the CPU seconds of each."""
    command, env = engine_command(tree, seed, playouts, extra)
    played, seconds = [], []
    with GtpClient(command, timeout=600, cwd=str(tree), env=env) as engine:
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        engine.send("komi 7.5")
        color = "b"
        while len(played) < moves:
            before = float(engine.send("cputime"))
            move = engine.send(f"genmove {color}", timeout=None).lower()
            seconds.append(float(engine.send("cputime")) - before)
            played.append(move)
            if move == "resign" or played[-2:] == ["pass", "pass"]:
                break
            color = "w" if color == "b" else "b"
    return {"moves": played, "seconds": seconds}


def first_difference(a: list[str], b: list[str]) -> int | None:
    """The index of the first move where two games differ (a game that stops early differs where
    it stopped); None when they are the same."""
    for k, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return k
    return None if len(a) == len(b) else min(len(a), len(b))


def quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (values[0],) * 3
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def compare(trees: list[Path], sizes: list[int], seeds: int, moves: int, playouts: int, extra: list[str]) -> dict:
    """Play each (size, seed) game with both versions, alternating which goes first."""
    rows = {}
    for size in sizes:
        games = []
        for seed in range(1, seeds + 1):
            order = [0, 1] if seed % 2 else [1, 0]
            pair = [None, None]
            for k in order:
                pair[k] = play_game(trees[k], size, seed, moves, playouts, extra)
            games.append({"seed": seed, "before": pair[0], "after": pair[1]})
        differences = {g["seed"]: first_difference(g["before"]["moves"], g["after"]["moves"]) for g in games}
        per_move = [statistics.median(g[v]["seconds"]) for g in games for v in ("before", "after")]
        ratios = [statistics.median(g["after"]["seconds"]) / statistics.median(g["before"]["seconds"]) for g in games]
        rows[size] = {
            "same_games": all(d is None for d in differences.values()),
            "first_difference": {seed: d for seed, d in differences.items() if d is not None},
            "before_s_per_move": statistics.median(per_move[0::2]),
            "after_s_per_move": statistics.median(per_move[1::2]),
            "ratio_quartiles": quartiles(ratios),
            "games": games,
        }
    return rows


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line; ``engine_args`` are the words after ``--`` (argparse alone cannot take
    them after the options: its positionals are filled before it reaches them)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("before", help="a git revision or a goengine source tree")
    parser.add_argument("after", nargs="?", default=str(ROOT), help="the same (default: this tree)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19], choices=range(5, 20), metavar="N")
    parser.add_argument("--seeds", type=int, default=3, help="games a size, seeds 1.. (default 3)")
    parser.add_argument("--moves", type=int, default=40, help="moves a game at most (default 40)")
    parser.add_argument("--playouts", type=int, default=2000, help="playouts a move (default 2000)")
    parser.add_argument("--json", action="store_true", help="print the figures, every game's moves included, as JSON")
    parser.epilog = "after --: options for both engines (goengine's command line)"
    args = parser.parse_args(argv[:cut])
    if args.seeds < 1 or args.moves < 1 or args.playouts < 1:
        parser.error("--seeds, --moves and --playouts must be at least 1")
    args.engine_args = argv[cut + 1 :]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    trees = [source_tree(args.before), source_tree(args.after)]
    for tree in trees:
        compile_kernels(tree, args.engine_args)
    speed = reference.Reference()
    speed.run()
    rows = compare(trees, args.sizes, args.seeds, args.moves, args.playouts, args.engine_args)
    speed.run()
    if args.json:
        print(json.dumps({"versions": [str(t) for t in trees], "sizes": rows, "reference": speed.runs}, indent=1))
        return 0
    print(f"before {trees[0]}\nafter  {trees[1]}")
    print(f"{args.seeds} games a size, {args.playouts} playouts a move, at most {args.moves} moves, one thread")
    for size, row in rows.items():
        q1, q2, q3 = row["ratio_quartiles"]
        same = (
            "same games" if row["same_games"] else f"DIFFERENT games (seed: first move apart) {row['first_difference']}"
        )
        print(
            f"{size}x{size}: {same}; CPU s/move before {row['before_s_per_move']:.3f} after "
            f"{row['after_s_per_move']:.3f}; after/before {q2:.3f} (quartiles {q1:.3f}-{q3:.3f})"
        )
    print(speed.describe())
    return 0


if __name__ == "__main__":
    sys.exit(main())
