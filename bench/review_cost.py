"""What a review costs beyond its searches: the wall time of a whole game's positions on the job runner
against the sum of the searches' own time (``Evaluation.seconds``).

    python bench/review_cost.py --jobs 2 --visits 1000            # 250 moves of a 9-dan 19x19 game
    python bench/review_cost.py GAME.sgf --jobs 2 --visits 1000

Without a file, the game is the first of ``data/games`` with at least ``--moves`` (250) moves, cut
there. The kernels are loaded first (``engine.warm_up``, as ``goengine review`` does before its
workers start); the positions go to ``jobs.Runner(jobs)`` through ``review.evaluate``, as
``goengine review --jobs N`` sends them. ``--fresh`` gives each position an engine of its own with
the game replayed (the review before it kept one engine a worker), to compare. Run it on idle
cores: the ratio is of wall time.
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
import time
from pathlib import Path

from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine, warm_up
from goengine.game import Setup
from goengine.jobs import Runner
from goengine.review.evaluate import Evaluation, evaluate
from goengine.review.gamefile import Position, read
from goengine.sgf import dumps
from goengine.training import read_games


def fresh(position: Position, config: EngineConfig, budget: Budget) -> Evaluation:
    """A position searched by an engine of its own, the game replayed: the review's way before."""
    engine = Engine(config)
    try:
        moves, setup = list(position.moves), list(position.setup)
        engine.load_position(Setup(position.size, position.komi, tuple(setup), tuple(moves), position.first), False)
        return Evaluation.of(engine.analyze(position.to_move, SearchRequest(budget)))
    finally:
        engine.close()


def shipped_game(moves: int) -> str:
    """The first game of the shipped 9-dan collection with at least ``moves`` moves, cut there, as
    an SGF file in a temporary folder; its path."""
    games = read_games(Path(__file__).resolve().parent.parent / "data" / "games" / "tom9d_2008-2011.sgf.xz", limit=200)
    game = next(g for g in games if len(g.moves) >= moves and len(g.setup_points) == 0)
    played = [(int(c), int(p)) for c, p in zip(game.colors[:moves], game.moves[:moves], strict=True)]
    path = Path(tempfile.mkdtemp()) / f"tom9d-line{game.line}-{moves}.sgf"
    path.write_text(dumps(game.size, 7.5, played), encoding="utf-8")
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", help="an SGF file (default: a game of data/games, cut at --moves)")
    parser.add_argument("--moves", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--playouts", "--visits", type=int, default=1000, help="a position (1000; --visits: its old name)"
    )
    parser.add_argument("--fresh", action="store_true", help="an engine a position, the game replayed for each")
    args = parser.parse_args()
    game = read(args.game or shipped_game(args.moves))
    warm_up(lambda text: print(text, file=sys.stderr))
    config = EngineConfig(size=game.size, komi=game.komi, search=SearchConfig(threads=1, seed=1))
    tasks = list(enumerate(game.positions()))
    function = functools.partial(
        fresh if args.fresh else evaluate, config=config, budget=Budget(playouts=args.playouts)
    )
    start = time.perf_counter()
    answers = dict(Runner(args.jobs).run(function, tasks))
    wall = time.perf_counter() - start
    searches = sum(a.seconds for a in answers.values())
    print(
        f"{len(game.moves)} moves, {len(tasks)} positions, {args.playouts} playouts, {args.jobs} workers"
        f"{' (an engine a position)' if args.fresh else ''}: wall {wall:.1f} s, searches {searches:.1f} s, "
        f"wall x workers / searches {wall * args.jobs / searches:.2f}"
    )


if __name__ == "__main__":
    main()
