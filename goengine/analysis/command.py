"""``goengine analysis``'s command line: KataGo's JSON analysis protocol on stdin/stdout, with the
engine's options (``goengine.options``) and the command line KataGo's analysis engine takes
(``-model``, ``-config``, ``-override-config``, ...), so a client that starts KataGo can start
goengine the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

from goengine import numerals, output, version
from goengine.options import add_engine_options, config_from_args, stderr_log

if TYPE_CHECKING:
    from goengine.config import EngineConfig

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
        "-analysis-threads",
        type=numerals.option(int, 1),
        metavar="N",
        help="positions searched at once, each by its own engine (1)",
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
    try:  # ASCII digits, as KataGo reads them (goengine.numerals)
        visits = numerals.integer(settings["maxVisits"]) if "maxVisits" in settings else budget_visits
        seconds = numerals.decimal(settings["maxTime"]) if "maxTime" in settings else budget_seconds
        pv_length = numerals.integer(settings.get("analysisPVLen", "15"))
        workers = numerals.integer(settings.get("numAnalysisThreads", "1"))
    except ValueError as error:
        raise ValueError(f"a config value is not a number: {error}") from None
    bad_seconds = seconds is not None and not (math.isfinite(seconds) and seconds > 0)
    if (visits is not None and visits < 1) or bad_seconds or pv_length < 1 or workers < 1:
        raise ValueError("maxVisits, maxTime, analysisPVLen and numAnalysisThreads must be positive (and finite)")
    return Defaults(max_visits=visits, max_time=seconds, perspective=perspective, pv_length=pv_length), workers


def main(argv: list[str]) -> int:
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
    gone = threading.Lock()

    def write(line: str) -> None:
        """One response line; when standard output cannot take it (a client that quit, a full
        disk) the session ends, said in one line, whichever thread met it first."""
        try:
            output.write(line, out)
        except output.OutputGone as error:
            with gone:
                os._exit(error.report("goengine analysis"))

    server = AnalysisServer(config, write, log=log, defaults=defaults, workers=workers)
    log(f"goengine {version.full()} analysis: {workers} position(s) at a time; ready")
    # one query a line, ended by LF alone (a lone CR is JSON's white space), at most MAX_LINE_BYTES
    code = serve(server, input_lines(sys.stdin.buffer), wait=not args.quit_without_waiting)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):  # closed or gone: said already
            stream.flush()
    os._exit(code)
