"""The ``goengine`` command's own command line: a GTP engine on stdin/stdout (``python -m goengine``
too), or ``--compile``, ``--random-game``, ``--help``, ``--version``.

Everything a user tunes is an option (``goengine.options``); ``goengine --help`` lists them. Logs
go to stderr; stdout carries GTP responses only. The kernels are loaded (or, the first time,
compiled) on a thread at start-up, so ``name``, ``protocol_version`` and ``list_commands`` answer
at once and the first ``genmove`` is not spent compiling; ``goengine --compile`` does that ahead,
and exits (``make install`` runs it).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
from typing import TYPE_CHECKING

from goengine import version
from goengine.options import add_engine_options, choices_help, config_from_args, stderr_log, to_stderr

if TYPE_CHECKING:
    from goengine.config import EngineConfig


def build_parser() -> argparse.ArgumentParser:
    """The GTP engine's command line: the engine's options (``add_engine_options``) and its own."""
    from goengine.config import COMPILE_TIME

    parser = argparse.ArgumentParser(
        prog="goengine",
        description="A Monte-Carlo tree search Go engine speaking GTP on stdin/stdout. "
        "'goengine analysis --help': KataGo's JSON analysis protocol instead; "
        "'goengine review --help': a review of game files; 'goengine docs': the documents.",
        epilog=choices_help(),
    )
    add_engine_options(parser)
    parser.add_argument(
        "--compile",
        action="store_true",
        help=f"compile every kernel a game uses into the disk cache, then exit (the first time: {COMPILE_TIME})",
    )
    parser.add_argument(
        "--random-game",
        action="store_true",
        help="print one uniformly random game and exit (a look at the board and the playouts)",
    )
    return parser


def random_game(config: EngineConfig) -> int:
    """Print one game of uniformly random moves (``board.random_game``) and its result."""
    from goengine.board import random_game as play_random_game

    seed = config.search.seed
    board = play_random_game(config.size, seed)
    score = board.score(config.komi)
    print(board.render())
    print(f"{len(board.moves)} moves, seed {seed}, result {'B' if score > 0 else 'W'}+{abs(score):g}")
    return 0


#: options after which the command does something else than serve GTP (or prints and exits)
NOT_SERVING = frozenset({"-h", "--help", "--version", "--compile", "--random-game"})


def main(argv: list[str]) -> int:
    """The ``goengine`` command (its subcommands aside: ``goengine.cli``): serve GTP, or do what
    one of NOT_SERVING's options asks and exit."""
    if NOT_SERVING.isdisjoint(argv) and not any(_short_flags_ask_help(a) for a in argv):
        return serve(argv)
    args, config = options(argv)
    if args.random_game:
        return random_game(config)
    if args.compile:
        from goengine.engine import warm_up

        warm_up(to_stderr)
        return 0
    return serve(argv)  # a word like -h that was a value (--help and --version exit in ``options``)


def options(argv: list[str]) -> tuple[argparse.Namespace, EngineConfig]:
    """The GTP command's options and the engine's configuration they give; a bad one exits as
    argparse does (its message on stderr, exit code 2)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args, config_from_args(args)
    except ValueError as err:
        parser.error(str(err))


def _short_flags_ask_help(arg: str) -> bool:
    """Whether a cluster of short flags (``-qh``) holds ``-h``."""
    return arg.startswith("-") and not arg.startswith("--") and "h" in arg[1:]


def serve(argv: list[str]) -> int:
    """The GTP engine: ``name``, ``version`` and ``protocol_version`` are answered at once,
    while the options are read and the engine is built in the background (``protocol.serve``'s
    ``early``: the compiled kernels take a second or more to load, longer to compile the first
    time: ``kernels.COMPILE_TIME``); a bad option ends the session with argparse's message and exit code 2."""
    from goengine.gtp import protocol

    built = []

    def make(log, write, input_pending):
        from goengine.engine import Engine, warm_up
        from goengine.gtp.front import GtpEngine

        args, config = options(argv)
        engine_log = stderr_log(args)
        # the engine first: on a cold cache its few kernels compile in seconds, so the set-up
        # commands are answered while the warm-up compiles the search's (numba compiles one
        # kernel at a time: started first, the warm-up would hold them all back for a minute)
        engine = Engine(config)
        threading.Thread(target=warm_up, args=(engine_log,), name="warm-up", daemon=True).start()
        built.append(engine)
        engine_log(f"goengine {version.full()}: {engine.describe()}")
        return GtpEngine(engine, log=engine_log, write=write, input_pending=input_pending)

    # before the options are read, only failures are logged, and always
    code = protocol.serve(make, log=to_stderr, early=protocol.Protocol(protocol.NAME, version.full()))
    for engine in built:
        engine.close()
    # The input thread may still be blocked reading stdin, holding its lock; a normal interpreter
    # shutdown would then abort. Everything is answered and flushed, so leave at once.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed or gone: said already
            stream.flush()
    os._exit(code)
