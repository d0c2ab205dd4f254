"""The ``goengine`` command: a GTP engine on stdin/stdout (``python -m goengine`` too).

Everything a user tunes is an option; ``goengine --help`` lists them. Logs go to stderr; stdout
carries GTP responses only. The kernels are loaded (or, the first time, compiled) on a thread
at start-up, so ``name``, ``protocol_version`` and ``list_commands`` answer at once and the first
``genmove`` is not spent compiling.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

from goengine import __version__, rules
from goengine.config import DEFAULT_RULE, EngineConfig, SearchConfig


def _param(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="goengine",
        description="A Monte-Carlo tree search Go engine speaking GTP on stdin/stdout.",
        epilog="Selection rules and their parameters (defaults): "
        + "; ".join(
            f"{name}: " + (", ".join(f"{k}={v:g}" for k, v in r.params.items()) or "none")
            for name, r in rules.RULES.items()
        ),
    )
    parser.add_argument("--version", action="version", version=f"goengine {__version__}")
    parser.add_argument("--size", type=int, default=9, help="initial board size, 5..19 (default 9)")
    parser.add_argument("--komi", type=float, default=7.5, help="initial komi (default 7.5)")
    parser.add_argument(
        "--rule", default=DEFAULT_RULE, choices=list(rules.RULES), help=f"selection rule (default {DEFAULT_RULE})"
    )
    parser.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the rule, e.g. --param c=0.5 (repeatable)",
    )
    parser.add_argument(
        "--playouts", type=int, default=None, help="playouts per move (default 10000 when no --seconds and no clock)"
    )
    parser.add_argument("--seconds", type=float, default=None, help="seconds per move (the clock may allow less)")
    parser.add_argument("--threads", type=int, default=1, help="search threads, one tree each (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed; with one thread a seed reproduces a game")
    parser.add_argument(
        "--resign-threshold", type=float, default=0.1, help="resign below this win rate (default 0.1; 0 never resigns)"
    )
    parser.add_argument(
        "--resign-min-visits",
        type=int,
        default=1000,
        help="resign only after this many root visits, or half the playout budget if less (default 1000)",
    )
    parser.add_argument(
        "--max-memory",
        type=float,
        default=1024.0,
        metavar="MB",
        help="memory for the search trees in MB (default 1024)",
    )
    parser.add_argument(
        "--expand-at",
        type=int,
        default=1,
        help="expand a leaf after this many visits (default 1; 0 expands on the first)",
    )
    parser.add_argument("--verbose", "-v", action="count", default=1, help="more on stderr")
    parser.add_argument("--quiet", "-q", action="store_true", help="nothing on stderr but errors")
    parser.add_argument(
        "--random-game",
        action="store_true",
        help="print one uniformly random game and exit (a look at the board and the playouts)",
    )
    return parser


def config_from_args(args: argparse.Namespace) -> EngineConfig:
    params = dict(args.param)
    rule = rules.get(args.rule)
    for key, value in params.items():
        rules.param_value(rule, key, value)  # raises ValueError with the parameter names
    search = SearchConfig(
        rule=rule.name,
        params=tuple(sorted((k, v if k == "schedule" else float(v)) for k, v in params.items())),
        playouts=args.playouts,
        seconds=args.seconds,
        threads=args.threads,
        seed=args.seed,
        expand_at=args.expand_at,
        max_memory_mb=args.max_memory,
        resign_threshold=args.resign_threshold,
        resign_min_visits=args.resign_min_visits,
    )
    return EngineConfig(size=args.size, komi=args.komi, search=search)


def _warm_up(log) -> None:
    """Load every kernel the engine uses (compiling them the first time)."""

    from goengine.board import Board
    from goengine.engine import Engine
    from goengine.kernels import cache_dir

    where = os.environ.get("NUMBA_CACHE_DIR") or cache_dir()
    cold = not any(Path(where).rglob("*search*.nbi"))  # numba nests its index files one folder down
    if cold:
        log(f"goengine: compiling the kernels once (about a minute); they are cached in {where}")
    start = time.perf_counter()
    engine = Engine(EngineConfig(size=5, search=SearchConfig(playouts=64)))
    engine.play("b", "C3")
    engine.genmove("w")
    engine.ownership(8)
    Board(5).legal_moves()
    log(f"goengine: kernels ready in {time.perf_counter() - start:.1f} s")


def random_game(args: argparse.Namespace) -> int:
    from goengine.board import Board
    from goengine.kernels.rng import new_state

    board = Board(args.size)
    rng = new_state(args.seed)
    while not board.is_over and len(board.moves) < 3 * args.size * args.size:
        board.play(board.to_move, board.random_move(rng))
    score = board.score(args.komi)
    print(board.render())
    print(f"{len(board.moves)} moves, seed {args.seed}, result {'B' if score > 0 else 'W'}+{abs(score):g}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not 5 <= args.size <= 19:
        parser.error("--size must be from 5 to 19")
    try:
        config = config_from_args(args)
    except ValueError as err:
        parser.error(str(err))
    if args.random_game:
        return random_game(args)
    verbosity = 0 if args.quiet else args.verbose

    def log(text: str) -> None:
        if verbosity >= 1:
            print(text, file=sys.stderr, flush=True)

    from goengine.engine import Engine
    from goengine.gtp import serve

    warm = threading.Thread(target=_warm_up, args=(log,), name="warm-up", daemon=True)
    warm.start()
    try:
        engine = Engine(config)
    except ValueError as err:
        parser.error(str(err))
    log(f"goengine {__version__}: {engine.search.describe()}, seed {config.search.seed}")
    code = serve(engine, log=log)
    # The input thread may still be blocked reading stdin, holding its lock; a normal interpreter
    # shutdown would then abort. Everything is answered and flushed, so leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
