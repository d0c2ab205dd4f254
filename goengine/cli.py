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

from goengine import config as cfg
from goengine import version
from goengine.config import CHOSEN, SETTINGS, EngineConfig, SearchConfig


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def _choices_help() -> str:
    """Every rule, policy and prior with its parameters' defaults, formatted as everywhere."""
    parts = []
    for chosen in CHOSEN:
        names = "; ".join(chosen.registry.describe(name) for name in chosen.registry)
        parts.append(f"{chosen.registry.plural.capitalize()}, with their parameters' defaults: {names}.")
    return " ".join(parts)


def build_parser() -> argparse.ArgumentParser:
    """The options. The search settings are read as text and checked by ``config.with_setting``,
    as ``goengine-set`` checks them, so both give the same answer to the same input."""
    defaults = SearchConfig()
    parser = argparse.ArgumentParser(
        prog="goengine",
        description="A Monte-Carlo tree search Go engine speaking GTP on stdin/stdout.",
        epilog=_choices_help(),
    )
    parser.add_argument("--version", action="version", version=f"goengine {version.full()}")
    parser.add_argument("--size", type=int, default=9, help="initial board size, 5..19 (default 9)")
    parser.add_argument("--komi", type=float, default=7.5, help="initial komi (default 7.5)")
    for chosen in CHOSEN:
        kind = chosen.registry.kind
        parser.add_argument(
            chosen.option,
            dest=chosen.field,
            metavar="NAME",
            help=f"{kind}: {', '.join(chosen.registry)} (default {getattr(defaults, chosen.field)})",
        )
        parser.add_argument(
            chosen.param_option,
            dest=chosen.params_field,
            type=_key_value,
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help=f"a parameter of the {kind} (repeatable)",
        )
    for setting in SETTINGS:
        parser.add_argument(setting.option, dest=setting.key, metavar=setting.kind.__name__.upper(), help=setting.help)
    parser.add_argument("--verbose", "-v", action="count", default=1, help="more on stderr")
    parser.add_argument("--quiet", "-q", action="store_true", help="nothing on stderr but errors")
    parser.add_argument(
        "--random-game",
        action="store_true",
        help="print one uniformly random game and exit (a look at the board and the playouts)",
    )
    return parser


def config_from_args(args: argparse.Namespace) -> EngineConfig:
    """The engine's configuration from the parsed options; ValueError with the message
    ``goengine-set`` would give for the same setting."""
    search = SearchConfig()
    for chosen in CHOSEN:
        if getattr(args, chosen.field) is not None:
            search = cfg.with_setting(search, chosen.field, getattr(args, chosen.field))
        for key, value in getattr(args, chosen.params_field):
            search = cfg.with_param(search, chosen.field, key, value)
    for setting in SETTINGS:
        if getattr(args, setting.key) is not None:
            search = cfg.with_setting(search, setting.key, getattr(args, setting.key))
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


def random_game(config: EngineConfig) -> int:
    """Print one game of uniformly random moves (``Board.random_move``) and its result."""
    from goengine.board import Board
    from goengine.kernels.rng import new_state

    seed = config.search.seed
    size = config.size
    board = Board(size)
    rng = new_state(seed)
    while not board.is_over and len(board.moves) < 3 * size * size:
        board.play(board.to_move, board.random_move(rng))
    score = board.score(config.komi)
    print(board.render())
    print(f"{len(board.moves)} moves, seed {seed}, result {'B' if score > 0 else 'W'}+{abs(score):g}")
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
        return random_game(config)
    verbosity = 0 if args.quiet else args.verbose

    def log(text: str) -> None:
        if verbosity >= 1:
            print(text, file=sys.stderr, flush=True)

    from goengine.engine import Engine
    from goengine.gtp import serve

    warm = threading.Thread(target=_warm_up, args=(log,), name="warm-up", daemon=True)
    warm.start()
    engine = Engine(config)
    search = config.search
    nodes = engine.search.trees[0].max_nodes
    trees = f"{search.threads} tree{'s' if search.threads > 1 else ''} of up to {nodes:,} nodes"
    log(f"goengine {version.full()}: {search.describe()}, seed {search.seed}; {trees} ({search.max_memory_mb:g} MB)")
    code = serve(engine, log=log)
    # The input thread may still be blocked reading stdin, holding its lock; a normal interpreter
    # shutdown would then abort. Everything is answered and flushed, so leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
