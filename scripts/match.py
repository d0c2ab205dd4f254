"""Play goengine (in one or more configurations) against GNU Go or any GTP engine.

    python scripts/match.py --games 4                                  # make match
    python scripts/match.py --games 100 --playouts 8000 \\
        --config "ucb1-tuned=--rule ucb1-tuned --param gamma=0.5" \\
        --config "beta-ucb=--rule beta-ucb --param gamma=1" --out results/seed000
    python scripts/match.py ... --cluster tcp://127.0.0.1:8786         # on a Dask cluster
    python scripts/match.py --report --markdown --out results/seed000  # the table of a folder, no play

Every configuration plays ``--games`` games against the same opponent, colours alternating
(even games: goengine Black). Each finished game is appended to ``OUT/games.jsonl`` at once and
written as ``OUT/sgf/CONFIG-NNNN.sgf``; running the same command again plays only the games that
are missing. A void game (an engine crashed, hung or answered garbage) is replayed once; after
``--max-voids`` void games in a row the run stops with a message. The table gives, per
configuration, the win rate with its Wilson 95 % interval and the Elo difference interval, per
colour, average moves per game and seconds per move for both sides; ``OUT/winrate.png`` plots it.

The engine's seed for game i is ``--seed + i`` (it is part of the command line in the record).
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goengine.lab.records import append_record, finished_keys, load_records, void_counts  # noqa: E402
from goengine.lab.referee import GNUGO, GameSpec, play_game  # noqa: E402
from goengine.lab.stats import summarize  # noqa: E402

DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -m goengine --quiet"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument(
        "--engine", default=DEFAULT_ENGINE, help="the goengine command line (default: this Python's goengine)"
    )
    p.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="NAME=ARGS",
        help="a configuration: a name and the arguments added to --engine (repeatable; default one, 'default')",
    )
    p.add_argument("--opponent", default=GNUGO, help=f"the opponent's command line (default: {GNUGO})")
    p.add_argument("--games", type=int, default=4, help="games per configuration (default 4)")
    p.add_argument("--size", type=int, default=9, help="board size (default 9)")
    p.add_argument("--komi", type=float, default=7.5, help="komi (default 7.5)")
    p.add_argument("--playouts", type=int, default=None, help="playouts per move for goengine")
    p.add_argument("--seconds", type=float, default=None, help="seconds per move for goengine")
    p.add_argument("--seed", type=int, default=1, help="goengine's seed for game 0; game i uses seed + i (default 1)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds allowed for one GTP command (default 120)")
    p.add_argument("--max-voids", type=int, default=3, help="stop after this many void games in a row (default 3)")
    p.add_argument("--jobs", type=int, default=None, help="games played at once (default: the number of cores)")
    p.add_argument("--cluster", default=None, metavar="tcp://HOST:PORT", help="run the games on this Dask scheduler")
    p.add_argument("--out", default="results/match", help="folder for games.jsonl, sgf/ and winrate.png")
    p.add_argument("--no-plot", action="store_true", help="do not draw winrate.png")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (plain lines instead)")
    p.add_argument("--markdown", action="store_true", help="print the result table as Markdown")
    p.add_argument(
        "--report",
        action="store_true",
        help="play nothing: print the table (and draw the plot) of the games already in --out",
    )
    return p.parse_args(argv)


def configurations(args: argparse.Namespace) -> list[tuple[str, str]]:
    """``(name, engine command line)`` for each configuration, budget options appended."""
    budget = []
    if args.playouts is not None:
        budget += ["--playouts", str(args.playouts)]
    if args.seconds is not None:
        budget += ["--seconds", str(args.seconds)]
    configs = []
    for text in args.config or ["default="]:
        name, sep, extra = text.partition("=")
        if not sep or not name.strip() or any(ch in name for ch in "/# "):
            raise SystemExit(f"--config wants NAME=ARGS with a plain name, got {text!r}")
        configs.append((name.strip(), " ".join([args.engine, extra.strip(), *budget]).strip()))
    if len({n for n, _ in configs}) != len(configs):
        raise SystemExit("configuration names must differ")
    return configs


def _settings(command: str) -> list[str]:
    """A goengine command line without its program (the Python path differs from machine to
    machine, the settings must not) and without its per-game ``--seed``."""
    words = shlex.split(command)[1:]
    if len(words) >= 2 and words[-2] == "--seed":
        words = words[:-2]
    return words


def mismatches(args: argparse.Namespace, records: list[dict]) -> list[str]:
    """How the games already in the folder differ from this command: a configuration played with
    other settings, another opponent, board size or komi. Resuming would mix them in one row of the
    table, so the run refuses instead."""
    wanted = {name: _settings(command) for name, command in configurations(args)}
    opponent_words = shlex.split(args.opponent)
    problems = set()
    for r in records:
        name = r.get("config")
        if name not in wanted:
            continue  # another configuration of the same folder: not in this table, not touched
        engine = r["black_command"] if r["engine_black"] else r["white_command"]
        opponent = r["white_command"] if r["engine_black"] else r["black_command"]
        if _settings(engine) != wanted[name]:
            problems.add(f"{name}: played as {shlex.join(_settings(engine))!r}, now {shlex.join(wanted[name])!r}")
        if shlex.split(opponent) != opponent_words:
            problems.add(f"{name}: opponent was {opponent!r}, now {args.opponent!r}")
        if r["size"] != args.size or r["komi"] != args.komi:
            problems.add(
                f"{name}: played on {r['size']}x{r['size']} komi {r['komi']:g}, "
                f"now {args.size}x{args.size} komi {args.komi:g}"
            )
    return sorted(problems)


def pending(args: argparse.Namespace, records: list[dict]) -> list[GameSpec]:
    """The games still to play, each with its attempt number (a game void once is retried),
    interleaved by game index so that a run cut short leaves every configuration with as many
    games as the others."""
    done = finished_keys(records)
    voids = void_counts(records)
    specs = []
    for name, command in configurations(args):
        for i in range(args.games):
            key = f"{name}#{i}"
            if key in done or voids.get(key, 0) >= 2:
                continue
            specs.append(
                GameSpec(
                    config=name,
                    index=i,
                    engine=f"{command} --seed {args.seed + i}",
                    opponent=args.opponent,
                    engine_black=i % 2 == 0,
                    size=args.size,
                    komi=args.komi,
                    timeout=args.timeout,
                    sgf_dir=str((Path(args.out) / "sgf").resolve()),  # absolute: cluster workers run elsewhere
                    attempt=voids.get(key, 0),
                )
            )
    return sorted(specs, key=lambda spec: spec.index)  # stable: configurations in order within an index


class Runner:
    """Runs specs locally (a process pool) or on a Dask cluster and yields records as they end.

    ``stop()`` starts no further game; the games already running are still played to the end and
    yielded, so none is lost."""

    def __init__(self, jobs: int, cluster: str | None):
        self.jobs = jobs
        self.cluster = cluster
        self.stopping = False

    def stop(self) -> None:
        self.stopping = True

    def run(self, specs):
        if self.cluster:
            yield from self._dask(specs)
        elif self.jobs <= 1:
            for spec in specs:
                if self.stopping:
                    return
                yield spec, play_game(spec)
        else:
            yield from self._local(specs)

    def _local(self, specs):
        queue = list(specs)
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            running = {}
            while (queue and not self.stopping) or running:
                while queue and len(running) < self.jobs and not self.stopping:
                    spec = queue.pop(0)
                    running[pool.submit(play_game, spec)] = spec
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    spec = running.pop(future)
                    yield spec, future.result()

    def _dask(self, specs):
        from dask.distributed import Client, as_completed

        with Client(self.cluster) as client:
            futures = {
                client.submit(play_game, spec, pure=False, key=f"game-{spec.key}-{spec.attempt}-{time.time_ns()}"): spec
                for spec in specs
            }
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                yield futures[future], future.result()
                if self.stopping:
                    client.cancel([f for f in futures if not f.done()])


TABLE_HEADER = (
    "configuration",
    "games",
    "win %",
    "95% interval",
    "Elo interval",
    "as B",
    "as W",
    "moves",
    "s/move",
    "opp s/mv",
    "voids",
    "score?",
)
TABLE_WIDTHS = (-16, 5, 6, 15, 17, 9, 9, 6, 7, 8, 5, 6)  # negative: left-aligned
TABLE_NOTE = (
    "win % counts a draw as half; interval: Wilson 95 %; Elo from its ends; as B / as W: win % / games "
    "with that colour; s/move: goengine's seconds per move, opp s/mv the opponent's; score?: games whose "
    "final_score (either engine) disagreed with our area count"
)


def table_cells(records: list[dict]) -> list[tuple[str, ...]]:
    """One row of cells per configuration, in TABLE_HEADER's order."""

    def pct(w, n):
        return f"{100 * w / n:.0f}%/{n}" if n else "-"

    def num(x):
        return "-inf" if x == -math.inf else "+inf" if x == math.inf else f"{x:+.0f}"

    rows = []
    for s in summarize(records):
        lo, hi = s.interval
        elo_lo, elo_hi = s.elo_interval
        rows.append(
            (
                s.config,
                str(s.games),
                f"{100 * s.rate:.1f}%",
                f"[{100 * lo:.1f}, {100 * hi:.1f}]",
                f"[{num(elo_lo)}, {num(elo_hi)}]",
                pct(s.black_wins, s.black_games),
                pct(s.white_wins, s.white_games),
                f"{s.moves / max(1, s.games):.1f}",
                f"{s.engine_seconds / max(1, s.engine_moves):.2f}",
                f"{s.opponent_seconds / max(1, s.opponent_moves):.2f}",
                str(s.voids),
                str(s.disagreements),
            )
        )
    return rows


def format_table(records: list[dict], markdown: bool = False) -> str:
    """The result table: aligned text for a terminal, or Markdown (for docs/results.md)."""
    cells = table_cells(records)
    if markdown:
        lines = ["| " + " | ".join(TABLE_HEADER) + " |", "|" + "|".join(" --- " for _ in TABLE_HEADER) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines + ["", TABLE_NOTE])
    lines = [
        " ".join(f"{cell:<{-w}}" if w < 0 else f"{cell:>{w}}" for cell, w in zip(row, TABLE_WIDTHS, strict=True))
        for row in [TABLE_HEADER, *cells]
    ]
    return "\n".join(lines + [TABLE_NOTE])


def plot(records: list[dict], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    summaries = [s for s in summarize(records) if s.games]
    if not summaries:
        return False
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(summaries) + 2), 3.5))
    xs = range(len(summaries))
    rates = [100 * s.rate for s in summaries]
    lows = [100 * (s.rate - s.interval[0]) for s in summaries]
    highs = [100 * (s.interval[1] - s.rate) for s in summaries]
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", capsize=5)
    ax.set_xticks(list(xs), [f"{s.config}\n({s.games} games)" for s in summaries], fontsize=8)
    ax.set_ylabel("win rate against the opponent (%)")
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", lw=0.5)
    ax.set_title("goengine match results, Wilson 95 % intervals", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def show(records: list[dict], out: Path, args: argparse.Namespace) -> None:
    """The table on stdout and, unless --no-plot, the plot in OUT/winrate.png."""
    print(format_table(records, markdown=args.markdown))
    if not args.no_plot and plot(records, out / "winrate.png"):
        print(f"plot: {out / 'winrate.png'}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = Path(args.out)
    jsonl = out / "games.jsonl"
    if args.report:  # like GoGui's twogtp -analyze: the folder's games, every configuration in it
        records = load_records(jsonl)
        if not records:
            print(f"no games in {jsonl}", file=sys.stderr)
            return 2
        show(records, out, args)
        return 0
    out.mkdir(parents=True, exist_ok=True)
    records = load_records(jsonl)
    problems = mismatches(args, records)
    if problems:
        print(
            f"{jsonl} holds games played with other settings; use another --out or another "
            "configuration name:\n  " + "\n  ".join(problems),
            file=sys.stderr,
        )
        return 2
    specs = pending(args, records)
    total = len(configurations(args)) * args.games
    jobs = args.jobs or __import__("os").cpu_count() or 1
    print(
        f"{total - len(specs)} of {total} games already in {jsonl}; playing {len(specs)} "
        f"({'cluster ' + args.cluster if args.cluster else f'{jobs} at once'})",
        file=sys.stderr,
    )

    runner = Runner(jobs, args.cluster)
    in_a_row = 0
    stop = None
    progress = None
    if not args.no_progress and specs:
        try:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                transient=False,
            )
        except ImportError:
            progress = None
    task = None
    if progress is not None:
        progress.start()
        task = progress.add_task("games", total=len(specs))
    try:
        while specs and stop is None:
            retry = []
            for spec, record in runner.run(specs):
                try:
                    append_record(jsonl, record)
                except OSError as err:  # a full disk: say so, keep the record in the log
                    print(f"could not save game {spec.key}: {err}; record: {record}", file=sys.stderr)
                    stop = f"cannot write {jsonl}: {err}"
                    runner.stop()  # no new game that could not be saved; those running still end
                records.append(record)
                if record["void"]:
                    in_a_row += 1
                    print(f"void game {spec.key} (attempt {spec.attempt}): {record['void']}", file=sys.stderr)
                    if spec.attempt == 0:
                        retry.append(spec)
                    if in_a_row >= args.max_voids and stop is None:
                        stop = f"{in_a_row} void games in a row; last: {record['void']}"
                        runner.stop()  # no new game; those running still finish and are kept
                else:
                    in_a_row = 0
                line = " ".join(
                    f"{s.config} {s.wins:g}/{s.games} [{100 * s.interval[0]:.0f}-{100 * s.interval[1]:.0f}%]"
                    for s in summarize(records)
                )
                if progress is not None:
                    progress.update(task, advance=1, description=line)
                else:
                    print(f"{spec.key}: {record['result']} ({record['reason']}); {line}", file=sys.stderr)
            specs = [] if stop else pending(args, records) if retry else []
            if progress is not None and specs:
                progress.update(task, total=progress.tasks[0].total + len(specs))
    except KeyboardInterrupt:
        stop = "interrupted; run the same command again to play the missing games"
    finally:
        if progress is not None:
            progress.stop()
    show(records, out, args)
    print(f"games: {jsonl}; SGF: {out / 'sgf'}", file=sys.stderr)
    if stop:
        print(f"stopped: {stop}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
