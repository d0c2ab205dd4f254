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
import signal
import sys
import threading
from typing import TYPE_CHECKING

from goengine import version
from goengine.ruleset import HANDICAP_BONUSES

if TYPE_CHECKING:
    from goengine.config import EngineConfig

# ``goengine.config`` (its registries name the compiled kernels' ids) is imported inside the
# functions that read options, never with this module: the GTP command answers its first
# commands before that import is done (``gtp_main``).


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def _choices_help() -> str:
    """Every rule, policy and prior with its parameters' defaults, formatted as everywhere."""
    from goengine.config import CHOSEN

    parts = []
    for chosen in CHOSEN:
        names = "; ".join(chosen.registry.describe(name) for name in chosen.registry)
        parts.append(f"{chosen.registry.plural.capitalize()}, with their parameters' defaults: {names}.")
    return " ".join(parts)


def add_engine_options(parser: argparse.ArgumentParser, board: bool = True, threads_default: str | None = None) -> None:
    """The engine's options, shared by the GTP engine, ``goengine analysis`` and ``goengine
    review`` (which takes the board's size and komi from each game file: ``board`` False leaves
    out ``--size`` and ``--komi``; ``threads_default`` says what its ``--threads`` defaults to, when
    not one per core). The search settings are read as text and checked by
    ``config.with_setting``, as ``goengine-set`` checks them, so both give the same answer to the
    same input; every default shown is read from ``EngineConfig`` and ``SearchConfig``, never
    restated."""
    from goengine.config import BOARD_SIZES, CHOSEN, SETTINGS, EngineConfig, available_cores

    defaults = EngineConfig()
    search = defaults.search
    parser.add_argument("--version", action="version", version=f"goengine {version.full()}")
    sizes = f"{BOARD_SIZES[0]}..{BOARD_SIZES[-1]}"
    if board:
        parser.add_argument(
            "--size", type=int, default=defaults.size, help=f"initial board size, {sizes} (default %(default)s)"
        )
        parser.add_argument("--komi", type=float, default=defaults.komi, help="initial komi (default %(default)s)")
    parser.add_argument(
        "--white-handicap-bonus",
        choices=HANDICAP_BONUSES,
        default=defaults.white_handicap_bonus,
        help="points White receives for Black's N handicap stones, counted as komi: 0 (goengine's rules), "
        "N-1 (AGA) or N (Chinese, GNU Go) (default %(default)s)",
    )
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
            shown = f" (default {threads_default or f'one per core: {available_cores()} here'})"
        parser.add_argument(
            setting.option, dest=setting.key, metavar=setting.kind.__name__.upper(), help=setting.help + shown
        )
    parser.add_argument("--verbose", "-v", action="count", default=1, help="more on stderr")
    parser.add_argument("--quiet", "-q", action="store_true", help="nothing on stderr but errors")


def to_stderr(text: str) -> None:
    """One line to stderr, at once."""
    print(text, file=sys.stderr, flush=True)


def stderr_log(args: argparse.Namespace):
    """The log of a command: each line to stderr (``to_stderr``), unless ``--quiet``."""
    return (lambda text: None) if args.quiet or args.verbose < 1 else to_stderr


def build_parser() -> argparse.ArgumentParser:
    """The GTP engine's command line: the engine's options (``add_engine_options``) and its own."""
    from goengine.config import COMPILE_TIME

    parser = argparse.ArgumentParser(
        prog="goengine",
        description="A Monte-Carlo tree search Go engine speaking GTP on stdin/stdout. "
        "'goengine analysis --help': KataGo's JSON analysis protocol instead; "
        "'goengine review --help': a review of game files; 'goengine docs': the documents.",
        epilog=_choices_help(),
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


def config_from_args(args: argparse.Namespace) -> EngineConfig:
    """The engine's configuration from the parsed options; ValueError with the message
    ``goengine-set`` would give for the same setting. Without ``--threads`` the command searches
    with one thread per core (``available_cores``), as Pachi and Fuego do; ``SearchConfig``'s own
    default, for Python users and the tests, stays one."""
    from goengine.config import (
        CHOSEN,
        SETTINGS,
        EngineConfig,
        SearchConfig,
        available_cores,
        check_board_size,
        with_param,
        with_setting,
    )

    search = SearchConfig(threads=available_cores())
    for chosen in CHOSEN:
        if getattr(args, chosen.field) is not None:
            search = with_setting(search, chosen.field, getattr(args, chosen.field))
        for key, value in getattr(args, chosen.params_field, ()):
            search = with_param(search, chosen.field, key, value)
    for setting in SETTINGS:
        if getattr(args, setting.key) is not None:
            search = with_setting(search, setting.key, getattr(args, setting.key))
    defaults = EngineConfig()
    return EngineConfig(
        size=check_board_size(getattr(args, "size", defaults.size)),
        komi=getattr(args, "komi", defaults.komi),
        search=search,
        white_handicap_bonus=args.white_handicap_bonus,
    )


def random_game(config: EngineConfig) -> int:
    """Print one game of uniformly random moves (``board.random_game``) and its result."""
    from goengine.board import random_game as play_random_game

    seed = config.search.seed
    board = play_random_game(config.size, seed)
    score = board.score(config.komi)
    print(board.render())
    print(f"{len(board.moves)} moves, seed {seed}, result {'B' if score > 0 else 'W'}+{abs(score):g}")
    return 0


# ---- goengine analysis: KataGo's JSON analysis protocol

# KataGo's configuration keys goengine acts on, from -config and -override-config
ANALYSIS_KEYS = ("reportAnalysisWinratesAs", "maxVisits", "maxTime", "analysisPVLen", "numAnalysisThreads")


def build_analysis_parser() -> argparse.ArgumentParser:
    """``goengine analysis``: the engine's options, and the command line KataGo's analysis engine
    takes (``-model``, ``-config``, ``-override-config``, ...), so a client that starts KataGo
    can start goengine the same way."""
    parser = argparse.ArgumentParser(
        prog="goengine analysis",
        description="KataGo's JSON analysis protocol on stdin/stdout: one query a line in, one response a "
        "line out for each evaluated turn ('goengine docs gtp').",
    )
    add_engine_options(parser)
    kata = parser.add_argument_group("KataGo's options")
    kata.add_argument("-model", metavar="FILE", help="noted on stderr and ignored (goengine has no network)")
    kata.add_argument("-human-model", metavar="FILE", help="noted on stderr and ignored")
    kata.add_argument(
        "-config",
        metavar="FILE",
        help=f"a KataGo analysis config: its {', '.join(ANALYSIS_KEYS)} are read, the rest noted and ignored",
    )
    kata.add_argument(
        "-override-config",
        metavar="K=V,...",
        action="append",
        default=[],
        help="config keys as in -config, comma-separated (repeatable)",
    )
    kata.add_argument(
        "-analysis-threads", type=int, metavar="N", help="positions searched at once, each by its own engine (1)"
    )
    kata.add_argument(
        "-quit-without-waiting",
        action="store_true",
        help="at the end of input, stop the searches rather than answer every queued query",
    )
    return parser


def read_kata_config(text: str) -> dict[str, str]:
    """``key = value`` lines of a KataGo config file (``#`` starts a comment)."""
    values = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            values[key] = value
    return values


def analysis_defaults(settings: dict[str, str], config: EngineConfig, log) -> tuple[object, int]:
    """The queries' defaults (``analysis.Defaults``) and the number of workers from KataGo's
    config keys; ValueError for a value that is wrong. Keys goengine has no use for are logged."""
    from goengine.analysis import Defaults

    ignored = sorted(key for key in settings if key not in ANALYSIS_KEYS)
    if ignored:
        log(f"goengine analysis: config keys ignored: {', '.join(ignored)}")
    budget_visits = config.search.playouts
    budget_seconds = config.search.seconds
    perspective = settings.get("reportAnalysisWinratesAs", "SIDETOMOVE").upper()
    if perspective not in ("BLACK", "WHITE", "SIDETOMOVE"):
        raise ValueError(f"reportAnalysisWinratesAs must be BLACK, WHITE or SIDETOMOVE, not {perspective}")
    try:
        visits = int(settings["maxVisits"]) if "maxVisits" in settings else budget_visits
        seconds = float(settings["maxTime"]) if "maxTime" in settings else budget_seconds
        pv_length = int(settings.get("analysisPVLen", 15))
        workers = int(settings.get("numAnalysisThreads", 1))
    except ValueError as error:
        raise ValueError(f"a config value is not a number: {error}") from None
    if (visits is not None and visits < 1) or (seconds is not None and seconds <= 0) or pv_length < 1 or workers < 1:
        raise ValueError("maxVisits, maxTime, analysisPVLen and numAnalysisThreads must be positive")
    return Defaults(max_visits=visits, max_time=seconds, perspective=perspective, pv_length=pv_length), workers


def analysis_main(argv: list[str]) -> int:
    """``goengine analysis``: serve KataGo's JSON analysis protocol until the end of input."""
    parser = build_analysis_parser()
    args = parser.parse_args(argv)
    log = stderr_log(args)

    try:
        config = config_from_args(args)
        settings = {}
        if args.config:
            with open(args.config, encoding="utf-8", errors="replace") as handle:
                settings.update(read_kata_config(handle.read()))
        for text in args.override_config:
            for item in text.split(","):
                if item.strip():
                    key, sep, value = item.partition("=")
                    if not sep:
                        raise ValueError(f"-override-config wants KEY=VALUE pairs, got {item!r}")
                    settings[key.strip()] = value.strip()
        defaults, workers = analysis_defaults(settings, config, log)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    if args.analysis_threads is not None:
        if args.analysis_threads < 1:
            parser.error("-analysis-threads must be at least 1")
        workers = args.analysis_threads
    for flag, value in (("-model", args.model), ("-human-model", args.human_model), ("-config", args.config)):
        if value:
            log(f"goengine analysis: {flag} {value} noted; goengine searches with its own playouts and move model")

    from goengine.analysis import AnalysisServer, serve
    from goengine.analysis.server import input_lines, watch_parent
    from goengine.engine import warm_up

    threading.Thread(target=warm_up, args=(log,), name="warm-up", daemon=True).start()
    watch_parent(log)
    # a client ends the engine with SIGTERM (KaTrain does): leave at once, with status 0
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    out = sys.stdout

    def write(line: str) -> None:
        out.write(line)
        out.flush()

    server = AnalysisServer(config, write, log=log, defaults=defaults, workers=workers)
    log(f"goengine {version.full()} analysis: {workers} position(s) at a time; ready")
    # one query a line, ended by LF alone (a lone CR is JSON's white space), at most MAX_LINE_BYTES
    code = serve(server, input_lines(sys.stdin.buffer), wait=not args.quit_without_waiting)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


# ---- goengine review: game files reviewed move by move


def build_review_parser() -> argparse.ArgumentParser:
    """``goengine review``: the game files, the engine's options (without the board's size and
    komi, which each file gives) and the review's own."""
    from goengine.config import available_cores
    from goengine.review import DEFAULT_VISITS

    parser = argparse.ArgumentParser(
        prog="goengine review",
        description="Review games: every position of each game's main line searched, written beside it as "
        "GAME-review.sgf (win rates for Sabaki's graph, each move's loss and the best line) and GAME-review.png, "
        "and each colour's biggest mistakes on stdout.",
    )
    parser.add_argument("games", nargs="+", metavar="GAME", help="SGF files, or folders of them (their *.sgf)")
    add_engine_options(parser, board=False, threads_default="1: one engine a core, each on its own positions")
    review = parser.add_argument_group("the review")
    review.add_argument(
        "--visits",
        type=int,
        metavar="N",
        help=f"playouts a position, as --playouts (default {DEFAULT_VISITS} when neither this, --playouts "
        "nor --seconds is given; --seconds is then the time a position)",
    )
    review.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="positions evaluated at once on this machine, each by its own engine process "
        f"(default: the cores, {available_cores()} here, over the threads an engine searches with, 1 by default)",
    )
    review.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="send the positions to the Dask scheduler at ADDRESS (tcp://host:8786) rather than to local processes",
    )
    review.add_argument("--mistakes", type=int, default=5, metavar="N", help="mistakes listed a colour (default 5)")
    review.add_argument("--no-plot", action="store_true", help="no GAME-review.png (no matplotlib needed)")
    review.add_argument("--no-progress", action="store_true", help="a line a game on stderr, no progress bar")
    return parser


def review_settings(args: argparse.Namespace):
    """The review's settings (``goengine.review.ReviewSettings``) from its parsed options;
    ValueError with what is wrong. An engine searches with one thread unless ``--threads`` says
    otherwise (the positions, not the threads, share the cores); the budget is ``--visits`` or
    ``--playouts`` playouts, ``--seconds``, or DEFAULT_VISITS playouts."""
    from dataclasses import replace

    from goengine.config import Budget, available_cores, with_setting
    from goengine.review import DEFAULT_VISITS, ReviewSettings

    if args.visits is not None and args.playouts is not None:
        raise ValueError("--visits and --playouts say the same thing: give one")
    if args.visits is not None:
        args.playouts = str(args.visits)
    config = config_from_args(args)
    if args.threads is None:
        config = replace(config, search=with_setting(config.search, "threads", "1"))
    search = config.search
    playouts = search.playouts
    if playouts is None and search.seconds is None:
        playouts = DEFAULT_VISITS
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


def review_main(argv: list[str]) -> int:
    """``goengine review GAME.sgf ...``: review the games (``goengine.review.review``)."""
    parser = build_review_parser()
    args = parser.parse_args(argv)
    try:
        settings = review_settings(args)
    except ValueError as err:
        parser.error(str(err))
    from goengine.review import review

    return review(args.games, settings)


#: options after which the command does something else than serve GTP (or prints and exits)
NOT_SERVING = frozenset({"-h", "--help", "--version", "--compile", "--random-game"})


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "analysis":
        return analysis_main(argv[1:])
    if argv and argv[0] == "review":
        return review_main(argv[1:])
    if argv and argv[0] == "docs":
        from goengine.docs_command import main as docs_main

        return docs_main(argv[1:])
    if NOT_SERVING.isdisjoint(argv) and not any(_short_flags_ask_help(a) for a in argv):
        return gtp_main(argv)
    args, config = options(argv)
    if args.random_game:
        return random_game(config)
    if args.compile:
        from goengine.engine import warm_up

        warm_up(to_stderr)
        return 0
    return gtp_main(argv)  # a word like -h that was a value (--help and --version exit in ``options``)


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


def gtp_main(argv: list[str]) -> int:
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
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
