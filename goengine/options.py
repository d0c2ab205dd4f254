"""The engine's options, shared by every front end's command line (``goengine``, ``goengine
analysis``, ``goengine review``): the settings of ``goengine.config`` as options, read into an
``EngineConfig`` as ``goengine-set`` reads them, and the log that writes to stderr.

``goengine.config`` (its registries name the compiled kernels' ids) is imported inside the
functions that read options, never with this module: the GTP command answers its first commands
before that import is done (``gtp.command.main``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from goengine import numerals, version
from goengine.ruleset import HANDICAP_BONUSES

if TYPE_CHECKING:
    from goengine.config import EngineConfig


def key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value.strip()


def choices_help() -> str:
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
            "--size",
            type=numerals.option(int),
            default=defaults.size,
            help=f"initial board size, {sizes} (default %(default)s)",
        )
        parser.add_argument(
            "--komi", type=numerals.option(float), default=defaults.komi, help="initial komi (default %(default)s)"
        )
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
            type=key_value,
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
