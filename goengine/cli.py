"""The ``goengine`` command: a GTP engine on stdin/stdout (``python -m goengine`` too).

Everything a user tunes is an option; ``goengine --help`` lists them. Logs go to stderr; stdout
carries GTP responses only. The kernels are loaded (or, the first time, compiled) on a thread
at start-up, so ``name``, ``protocol_version`` and ``list_commands`` answer at once and the first
``genmove`` is not spent compiling; ``goengine --compile`` does that ahead, and exits (``make
install`` runs it).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading

from goengine import version
from goengine.config import (
    BOARD_SIZES,
    CHOSEN,
    SETTINGS,
    EngineConfig,
    SearchConfig,
    available_cores,
    check_board_size,
    with_param,
    with_setting,
)


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
    as ``goengine-set`` checks them, so both give the same answer to the same input; every default
    shown is read from ``EngineConfig`` and ``SearchConfig``, never restated."""
    defaults = EngineConfig()
    search = defaults.search
    parser = argparse.ArgumentParser(
        prog="goengine",
        description="A Monte-Carlo tree search Go engine speaking GTP on stdin/stdout.",
        epilog=_choices_help(),
    )
    parser.add_argument("--version", action="version", version=f"goengine {version.full()}")
    sizes = f"{BOARD_SIZES[0]}..{BOARD_SIZES[-1]}"
    parser.add_argument(
        "--size", type=int, default=defaults.size, help=f"initial board size, {sizes} (default %(default)s)"
    )
    parser.add_argument("--komi", type=float, default=defaults.komi, help="initial komi (default %(default)s)")
    for chosen in CHOSEN:
        kind = chosen.registry.kind
        parser.add_argument(
            chosen.option,
            dest=chosen.field,
            metavar="NAME",
            help=f"{kind}: {chosen.registry.names_help()} (default {getattr(search, chosen.field)})",
        )
        if not chosen.param_option:
            continue
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
        value = getattr(search, setting.key)
        if setting.kind is bool:  # --ponder alone turns it on; --ponder off too
            shown = f" (default {'on' if value else 'off'})"
            parser.add_argument(
                setting.option, dest=setting.key, nargs="?", const="on", metavar="on|off", help=setting.help + shown
            )
            continue
        shown = "" if value is None else f" (default {setting.format(value)})"
        if setting.key == "threads":  # the command's own default, not the library's
            shown = f" (default one per core: {available_cores()} here)"
        parser.add_argument(
            setting.option, dest=setting.key, metavar=setting.kind.__name__.upper(), help=setting.help + shown
        )
    parser.add_argument("--verbose", "-v", action="count", default=1, help="more on stderr")
    parser.add_argument("--quiet", "-q", action="store_true", help="nothing on stderr but errors")
    parser.add_argument(
        "--compile",
        action="store_true",
        help="compile every kernel a game uses into the disk cache (under a minute the first time), then exit",
    )
    parser.add_argument(
        "--random-game",
        action="store_true",
        help="print one uniformly random game and exit (a look at the board and the playouts)",
    )
    return parser


def config_from_args(args: argparse.Namespace) -> EngineConfig:
    """The engine's configuration from the parsed options; ValueError with the message
    ``goengine-set`` would give for the same setting. Without ``--threads`` the command searches
    with one thread per core (``available_cores``), as Pachi and Fuego do; ``SearchConfig``'s own
    default, for Python users and the tests, stays one."""
    search = SearchConfig(threads=available_cores())
    for chosen in CHOSEN:
        if getattr(args, chosen.field) is not None:
            search = with_setting(search, chosen.field, getattr(args, chosen.field))
        for key, value in getattr(args, chosen.params_field, ()):
            search = with_param(search, chosen.field, key, value)
    for setting in SETTINGS:
        if getattr(args, setting.key) is not None:
            search = with_setting(search, setting.key, getattr(args, setting.key))
    return EngineConfig(size=check_board_size(args.size), komi=args.komi, search=search)


def random_game(config: EngineConfig) -> int:
    """Print one game of uniformly random moves (``board.random_game``) and its result."""
    from goengine.board import random_game as play_random_game

    seed = config.search.seed
    board = play_random_game(config.size, seed)
    score = board.score(config.komi)
    print(board.render())
    print(f"{len(board.moves)} moves, seed {seed}, result {'B' if score > 0 else 'W'}+{abs(score):g}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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

    from goengine.engine import Engine, warm_up
    from goengine.gtp import serve

    if args.compile:
        warm_up(lambda text: print(text, file=sys.stderr, flush=True))
        return 0

    warm = threading.Thread(target=warm_up, args=(log,), name="warm-up", daemon=True)
    warm.start()
    engine = Engine(config)
    log(f"goengine {version.full()}: {engine.describe()}")
    code = serve(engine, log=log)
    # The input thread may still be blocked reading stdin, holding its lock; a normal interpreter
    # shutdown would then abort. Everything is answered and flushed, so leave at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
