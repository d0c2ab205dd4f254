"""``goengine review``: every game given reviewed, its positions evaluated wherever the work goes.

``review(paths, settings)`` reads every file first (``game.read``; a file that cannot be read or
replayed is named on stderr with its reason, and the others are reviewed), queues the positions of
every game, game after game, on the one job runner (``evaluate.evaluated``, ``goengine.jobs``: here,
a process pool or a Dask cluster), and as the last position of a game comes back writes that game's
outputs beside it:

- ``GAME-review.sgf`` (``annotate``), the game with the review's figures and lines;
- ``GAME-review.png`` (``plot``), unless ``settings.plot`` is off;
- on stdout, a heading (the file, the budget, the komi and the count) and each colour's biggest
  mistakes (``losses.table``).

Progress goes to stderr: rich's bar when rich is installed and stderr is a terminal, else a line a
game. Before the first search the kernels are loaded here (``engine.warm_up``), and on a cold cache
compiled, which stderr says with what it costs, so that the workers find them cached. The exit
status is 0 when every game was reviewed, 1 when a file was named as bad (or its review could not
be written), 2 for what stops everything (a missing extra, an unreachable cluster), 130 when
interrupted.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from goengine import numerals, sgf
from goengine.board import BLACK, WHITE
from goengine.config import Budget, EngineConfig
from goengine.engine import warm_up
from goengine.jobs import Runner
from goengine.options import add_engine_options, config_from_args
from goengine.review import annotate, losses, plot
from goengine.review.evaluate import IN_FLIGHT, Evaluation, evaluated
from goengine.review.gamefile import BadGame, ReviewGame, read

DEFAULT_PLAYOUTS = 2000  # playouts a position when neither --playouts nor --seconds is given
SUFFIX = "-review"  # GAME.sgf -> GAME-review.sgf, GAME-review.png
PROG = "goengine review"


@dataclass(frozen=True)
class ReviewSettings:
    """How to review: the engine's ``config`` (one engine a worker), the ``budget`` of each
    position, ``jobs`` positions at once on this machine (1: in this process) or the Dask
    scheduler at ``cluster``, the picture (``plot``), how many mistakes a colour's table lists
    (``mistakes``), and whether to show a progress bar (``progress``)."""

    config: EngineConfig
    budget: Budget
    jobs: int = 1
    cluster: str | None = None
    plot: bool = True
    mistakes: int = 5
    progress: bool = True


def budget_words(budget: Budget) -> str:
    """``2000 playouts``, ``2 s``, or ``2000 playouts or 2 s``."""
    parts = []
    if budget.playouts is not None:
        parts.append(f"{budget.playouts} playouts")
    if budget.seconds is not None:
        parts.append(f"{budget.seconds:g} s")
    return " or ".join(parts)


def missing_extras(settings: ReviewSettings) -> list[str]:
    """What the settings need that is not installed, each with the line that installs it."""
    problems = []
    if settings.plot and (problem := plot.needs_matplotlib()):
        problems.append(problem)
    if settings.cluster and importlib.util.find_spec("distributed") is None:
        problems.append("--cluster needs dask's distributed, which is not installed: pip install 'dask[distributed]'")
    return problems


def game_files(paths: Sequence[str | Path], err: TextIO) -> list[Path]:
    """The files to review: each path given, and the ``.sgf`` files of a folder given (sorted);
    a review this command wrote (``*-review.sgf``) is left out, and said so when named."""
    files = []
    for path in map(Path, paths):
        if path.is_dir():
            files.extend(p for p in sorted(path.glob("*.sgf")) if not p.stem.endswith(SUFFIX))
        elif path.stem.endswith(SUFFIX) and path.suffix == ".sgf":
            print(f"{PROG}: {path}: skipped, a review itself (review the game it was made from)", file=err)
        else:
            files.append(path)
    return files


def output_paths(game: ReviewGame) -> tuple[Path, Path]:
    """Where the review SGF and the PNG of ``game`` go: beside it."""
    stem = game.path.with_name(game.path.stem + SUFFIX)
    return stem.with_suffix(".sgf"), stem.with_suffix(".png")


def write_outputs(
    game: ReviewGame, evaluations: list[Evaluation], settings: ReviewSettings, show
) -> tuple[list[Path], str | None]:
    """The review of one game: its SGF, its table (``show(text)``: to stdout) and its PNG;
    ``(the files written, why the PNG was not or None)``. Files are written whole, never through
    a symbolic link or into a FIFO (``sgf.replace_file``). OSError or ValueError (something other
    than a regular file in the way) when the SGF cannot be written: then nothing is."""
    reviews = losses.review_moves(game.moves, evaluations, game.first_number)
    budget = budget_words(settings.budget)
    sgf_path, png_path = output_paths(game)
    bonus = settings.config.white_handicap_bonus
    sgf.replace_file(sgf_path, annotate.review_sgf(game, evaluations, reviews, budget, bonus))
    heading = f"{game.path}: {len(game.moves)} moves reviewed at {budget} a position, {game.terms(bonus)}"
    show(f"{heading}\n{losses.table(reviews, game.size, settings.mistakes)}\n")
    if not settings.plot:
        return [sgf_path], None
    marked = [m for color in (BLACK, WHITE) for m in losses.mistakes(reviews, color, settings.mistakes)]
    title = f"{game.path.name}: {budget} a position, komi {game.komi:g}"
    points = losses.curve(evaluations, reviews)
    try:
        sgf.replace_file(png_path, plot.draw(title, game.size, points, game.first_number, marked))
    except (OSError, ValueError) as error:
        return [sgf_path], f"cannot write {png_path}: {error}"
    return [sgf_path, png_path], None


class _Progress:
    """A bar on stderr (rich, on a terminal) or a line a game; ``show`` writes a game's table on
    ``out``, above the bar when both are the same terminal (a line written past a live bar would
    break it)."""

    def __init__(self, total: int, games: int, out: TextIO, err: TextIO, wanted: bool):
        self.out = out
        self.err = err
        self.games = games
        self.done_games = 0
        self.bar = None
        if wanted and total and err.isatty() and importlib.util.find_spec("rich") is not None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=err),
                redirect_stdout=False,  # ``out`` is written as given (a file stays a file)
                redirect_stderr=False,
            )
            self.bar.start()
            self.task = self.bar.add_task(f"games 0/{games}, positions", total=total)

    def show(self, text: str) -> None:
        if self.bar is not None and self.out.isatty():
            self.bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            print(text, file=self.out, flush=True)

    def position(self) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1)

    def game(self, text: str) -> None:
        self.done_games += 1
        if self.bar is not None:
            self.bar.update(self.task, description=f"games {self.done_games}/{self.games}, positions")
            self.bar.console.print(text, markup=False, highlight=False)
        else:
            print(f"[{self.done_games}/{self.games}] {text}", file=self.err, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def review(
    paths: Sequence[str | Path], settings: ReviewSettings, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Review the games at ``paths`` (module docstring), writing the tables to ``out`` and the
    rest to ``err`` (stdout and stderr by default); the exit status."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    problems = missing_extras(settings)
    for problem in problems:
        print(f"{PROG}: {problem}", file=err)
    if problems:
        return 2
    start = time.perf_counter()
    games: list[ReviewGame] = []
    failed = reviewed = plots_failed = 0
    for path in game_files(paths, err):
        try:
            games.append(read(path))
        except BadGame as reason:
            print(f"{PROG}: {path}: {reason}", file=err, flush=True)
            failed += 1
    if not games:
        print(f"{PROG}: no game to review", file=err)
        return 1
    if not settings.cluster:  # here, before any worker starts: said on stderr when it compiles
        warm_up(lambda text: print(text, file=err, flush=True))
    left = [len(game.moves) + 1 for game in games]  # positions still to come back, a game
    count = sum(left)
    results: list[list[Evaluation | None]] = [[None] * n for n in left]
    broken: dict[int, str] = {}
    # a game's positions are made when the runner comes to them, not all at once
    tasks = (((g, k), position) for g, game in enumerate(games) for k, position in enumerate(game.positions()))
    runner = Runner(settings.jobs, settings.cluster, in_flight=IN_FLIGHT)
    progress = _Progress(count, len(games), out, err, settings.progress)
    try:
        for (g, k), evaluation in evaluated(runner, tasks, settings.config, settings.budget):
            progress.position()
            if isinstance(evaluation, BaseException):
                broken.setdefault(g, f"{type(evaluation).__name__}: {evaluation}")
            else:
                results[g][k] = evaluation
            left[g] -= 1
            if left[g]:
                continue
            game = games[g]
            if g in broken:
                progress.game(f"{game.path}: not reviewed: a search failed ({broken[g]})")
                failed += 1
                continue
            try:
                written, unwritten = write_outputs(game, results[g], settings, progress.show)
            except (OSError, ValueError) as error:
                progress.game(f"{game.path}: cannot write its review: {error}")
                failed += 1
                continue
            results[g] = []  # written: the figures are not needed any more
            reviewed += 1
            plots_failed += unwritten is not None
            missing = f"; {unwritten}" if unwritten else ""
            progress.game(f"{game.path}: reviewed, {len(game.moves)} moves: {', '.join(map(str, written))}{missing}")
    except KeyboardInterrupt:
        progress.close()
        print(f"{PROG}: interrupted; the games finished so far are written", file=err)
        return 130
    except OSError as error:  # the cluster cannot be reached, or went away
        progress.close()
        print(f"{PROG}: {'the cluster at ' + settings.cluster if settings.cluster else 'the pool'}: {error}", file=err)
        return 2
    progress.close()
    seconds = time.perf_counter() - start
    not_reviewed = f"; {failed} file(s) not reviewed" if failed else ""
    not_plotted = f"; {plots_failed} plot(s) not written" if plots_failed else ""
    print(f"{PROG}: {reviewed} game(s), {count} positions, in {seconds:.1f} s{not_reviewed}{not_plotted}", file=err)
    return 1 if failed or plots_failed else 0


# ---- the command line


def build_review_parser() -> argparse.ArgumentParser:
    """``goengine review``: the game files, the engine's options (without the board's size and
    komi, which each file gives) and the review's own."""
    from goengine.config import available_cores

    parser = argparse.ArgumentParser(
        prog="goengine review",
        description="Review games: every position of each game's main line searched, written beside it as "
        "GAME-review.sgf (win rates for Sabaki's graph, each move's loss and the best line) and GAME-review.png, "
        "and each colour's biggest mistakes on stdout.",
    )
    parser.add_argument("games", nargs="+", metavar="GAME", help="SGF files, or folders of them (their *.sgf)")
    add_engine_options(parser, board=False, threads_default="1: one engine a core, each on its own positions")
    review = parser.add_argument_group("the review")
    # the budget is --playouts (default DEFAULT_PLAYOUTS a position) or --seconds; --visits, the
    # review's name for it before the budget had one word, is still read (``review_settings``)
    review.add_argument("--visits", type=numerals.option(int), metavar="N", help=argparse.SUPPRESS)
    review.add_argument(
        "--jobs",
        type=numerals.option(int),
        metavar="N",
        help="positions evaluated at once on this machine, each by its own engine process "
        f"(default: the cores, {available_cores()} here, over the threads an engine searches with, 1 by default)",
    )
    review.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="send the positions to the Dask scheduler at ADDRESS (tcp://host:8786) rather than to local processes",
    )
    review.add_argument(
        "--mistakes", type=numerals.option(int), default=5, metavar="N", help="mistakes listed a colour (default 5)"
    )
    review.add_argument("--no-plot", action="store_true", help="no GAME-review.png (no matplotlib needed)")
    review.add_argument("--no-progress", action="store_true", help="a line a game on stderr, no progress bar")
    return parser


def review_settings(args: argparse.Namespace) -> ReviewSettings:
    """The review's settings (``goengine.review.ReviewSettings``) from its parsed options;
    ValueError with what is wrong. An engine searches with one thread unless ``--threads`` says
    otherwise (the positions, not the threads, share the cores); the budget is ``--playouts``
    playouts a position (``--visits``, its old name, still read with a note on stderr),
    ``--seconds``, or DEFAULT_PLAYOUTS playouts."""
    from dataclasses import replace

    from goengine.config import available_cores, with_setting

    if args.visits is not None and args.playouts is not None:
        raise ValueError("--visits and --playouts say the same thing: give one")
    if args.visits is not None:
        print(f"{PROG}: --visits is the old name of --playouts (playouts a position); it still works", file=sys.stderr)
        args.playouts = str(args.visits)
    config = config_from_args(args)
    if args.threads is None:
        config = replace(config, search=with_setting(config.search, "threads", "1"))
    search = config.search
    playouts = search.playouts
    if playouts is None and search.seconds is None:
        playouts = DEFAULT_PLAYOUTS
    if args.jobs is not None and args.jobs < 1:
        raise ValueError("--jobs must be at least 1")
    if args.mistakes < 1:
        raise ValueError("--mistakes must be at least 1")
    jobs = args.jobs if args.jobs is not None else max(1, available_cores() // search.threads)
    return ReviewSettings(
        config=config,
        budget=Budget(playouts, search.seconds),
        jobs=jobs,
        cluster=args.cluster,
        plot=not args.no_plot,
        mistakes=args.mistakes,
        progress=not args.no_progress,
    )


def main(argv: list[str]) -> int:
    """``goengine review GAME.sgf ...``: review the games (``goengine.review.review``)."""
    parser = build_review_parser()
    args = parser.parse_args(argv)
    try:
        settings = review_settings(args)
    except ValueError as err:
        parser.error(str(err))
    return review(args.games, settings)
