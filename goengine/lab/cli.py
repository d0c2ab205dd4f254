"""Play goengine (in one or more configurations) against GNU Go or any GTP engine.

    goengine-match --games 4                                           # make match
    goengine-match --games 100 --playouts 8000 \\
        --config "ucb1-tuned=--rule ucb1-tuned --param gamma=0.5" \\
        --config "beta-ucb=--rule beta-ucb --param gamma=1" --out results/seed000
    goengine-match --sprt 0,50 --games 400 --out results/sprt          # stop when the test decides
    goengine-match --tournament --config a=... --config b=... --opponent gnugo=... --out results/rr
    goengine-match ... --time 60+5x3                                   # under a clock
    goengine-match ... --handicap 4 --komi 0.5 --engine-color black    # goengine takes 4 stones
    goengine-match ... --cluster tcp://127.0.0.1:8786                  # on a Dask cluster
    goengine-match --report --markdown --out results/seed000           # the table of a folder, no play
    goengine-match --report --sgf --out results/seed000                # and each game's SGF, from its record

``python -m goengine.lab`` is the same command (a worktree's engine, from its virtualenv).
Tournaments' ratings need scipy, clusters dask, the progress bar rich: ``pip install rich
'dask[distributed]' scipy``, the ``match`` extra (without rich, plain lines).

Every configuration plays ``--games`` games against the opponent, colours alternating (even games:
goengine Black). Each finished game is appended to ``OUT/games.jsonl`` at once and written as
``OUT/sgf/CONFIG-NNNN.sgf``; running the same command again plays only the games that are missing.
The SGF is made from the record alone (``goengine.lab.gamefiles``), so ``--report --sgf`` writes
every game's file again from ``games.jsonl`` (git keeps the records, not the files).
A run killed while it wrote a record leaves a torn last line in ``games.jsonl``: the next run says
so (file and line), cuts it off before it plays and plays that game again; any other line that is
not a record stops the run with the file and the line (``goengine.lab.records``).
A void game (an engine crashed, hung or answered garbage) is replayed once; after ``--max-voids``
void games in a row the run stops with a message. Exit status: 0 when the games were played (or
had been), 1 when every game the run played (with ``--report``: every game recorded) was void
(the voids' reasons on stderr), 2 for a
command line refused, or a run stopped early (``--max-voids``, a full disk, an interrupt). The
table gives, per configuration, the win rate with its Wilson 95 % interval and the Elo difference
interval, per colour, average moves per game and seconds per move for both sides;
``OUT/winrate.png`` plots it.

``--sprt ELO0,ELO1`` (with ``--alpha``, ``--beta``) stops each configuration as soon as Wald's test
accepts H0 or H1 (``goengine.lab.sprt``); ``--games`` is then the cap. ``--tournament`` plays every
pair among the configurations and the ``--opponent`` engines (``NAME=COMMAND``, repeatable), each
pair in ``OUT/pairs/A-vs-B/``, and fits one Elo scale to all of it, anchored on ``--anchor``
(``goengine.lab.ratings``). ``--time`` plays under a clock (``goengine.lab.referee_clock``).
``--handicap N`` gives Black GTP's fixed handicap of N stones (both engines place them; White
moves first); ``--engine-color black`` or ``white`` keeps goengine on one side in every game,
since a handicap game's sides are not alike. ``--white-handicap-bonus`` is what White receives
for the stones, counted by the referee and told to goengine: N against GNU Go by default, whose
Chinese rules count it (the referee and GNU Go's ``final_score`` then agree), else 0.

``--timeout`` is how long an engine may take to answer once it has started: 120 s by default, or
the longest a move may take (``--seconds``, or what ``--time`` allows one move) with 10 % and 5 s
over it when that is longer; a shorter one is refused. ``--startup-timeout`` is each command's
allowance from an engine's launch to its first move answered (goengine compiles its kernels on a
cold cache in its first ``genmove``), and the warm-up game's.

The engine's seed for game i is ``--seed + i`` (it is part of the command line in the record).
A folder never mixes games of another engine version (commit) into a configuration unless
``--allow-mixed-commits`` is given; ``--report`` then shows one row per version.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from goengine import coords, numerals, version
from goengine.coords import BOARD_SIZES
from goengine.lab import MissingExtra, Usage, needs
from goengine.lab.engines import DEFAULT_ENGINE, STARTUP_TIMEOUT, configurations, opponents, timeouts
from goengine.lab.gamefiles import write_folder_sgf_files
from goengine.lab.match import PROG, Match, no_valid_game, pairings_against, play_match, tournament_pairings
from goengine.lab.ratings import minimizer
from goengine.lab.records import CorruptRecords, all_records
from goengine.lab.referee import GNUGO
from goengine.lab.referee_clock import TimeControl
from goengine.lab.report import View, show
from goengine.lab.schedule import ENGINE_COLORS
from goengine.lab.sprt import Sprt
from goengine.ruleset import HANDICAP_BONUSES


def _number(text: str, low: float, high: float, what: str, integer: bool = False) -> float | int:
    """``text`` read as a number from ``low`` to ``high`` (an integer with ``integer``), in ASCII
    digits (``goengine.numerals``); argparse's error, which names the option and exits with status
    2, for anything else: NaN and the infinities too, which would void every game."""
    return numerals.option(int if integer else float, low, high, what)(text)


def _seconds(text: str) -> float:
    return _number(text, 1e-3, 1e7, "a number of seconds above 0")


def _at_least_one(text: str) -> int:
    return _number(text, 1, 10**12, "a whole number, at least 1", integer=True)


def _size(text: str) -> int:
    return _number(text, BOARD_SIZES[0], BOARD_SIZES[-1], f"a board size {coords.sizes_words()}", integer=True)


def _komi(text: str) -> float:
    return _number(text, -150, 150, "a komi from -150 to 150")


def _handicap(text: str) -> int:
    value = _number(text, 0, 9, "0, or GTP's fixed handicap of 2 to 9 stones", integer=True)
    if value == 1:
        raise argparse.ArgumentTypeError("0, or GTP's fixed handicap of 2 to 9 stones, not 1")
    return value


def _seed(text: str) -> int:
    # goengine's seeds are 0 to 2**63 - 1 (config.SETTINGS); game i takes seed + i
    return _number(text, 0, 2**62, "a seed from 0 to 2**62", integer=True)


def _share(text: str) -> float:
    return _number(text, 1e-9, 0.5, "a probability above 0 and at most 0.5")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog=PROG,
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument("--version", action="version", version=f"{PROG} {version.full()}")
    _player_options(p)
    _game_options(p)
    _budget_options(p)
    _test_options(p)
    _run_options(p)
    args = p.parse_args(argv)
    if args.white_handicap_bonus is None:
        # GNU Go's Chinese rules give White a point a handicap stone: counted alike, the referee
        # and GNU Go's final_score agree
        gnugo = any("gnugo" in text for text in args.opponent or [GNUGO])
        args.white_handicap_bonus = "N" if gnugo else "0"
    return args


def _player_options(p: argparse.ArgumentParser) -> None:
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
    p.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="[NAME=]COMMAND",
        help=f"an opponent's command line, optionally named (default: gnugo={GNUGO}); several with --tournament",
    )


def _game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--games", type=_at_least_one, default=4, help="games per configuration or pair; the cap with --sprt"
    )
    p.add_argument("--size", type=_size, default=9, help=f"board size, {coords.sizes_words()} (default 9)")
    p.add_argument("--komi", type=_komi, default=7.5, help="komi (default 7.5)")
    p.add_argument(
        "--handicap",
        type=_handicap,
        default=0,
        metavar="N",
        help="GTP's fixed handicap of N stones for Black, White moving first (default 0; give --komi 0.5 as usual)",
    )
    p.add_argument(
        "--white-handicap-bonus",
        choices=HANDICAP_BONUSES,
        default=None,
        help="White's points for the handicap stones, counted by the referee and told to goengine: "
        "0, N-1 or N (default: N against GNU Go, whose Chinese rules count them; else 0)",
    )
    p.add_argument(
        "--engine-color",
        choices=ENGINE_COLORS,
        default="alternate",
        help="goengine's colour: alternate (Black in even-numbered games; the default), black or white in every game",
    )


def _budget_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--playouts", type=_at_least_one, default=None, help="playouts per move for goengine")
    p.add_argument("--seconds", type=_seconds, default=None, help="seconds per move for goengine")
    p.add_argument("--time", default=None, metavar="MAIN[+BYOxPERIODS|+BYO/MOVES]", help="a clock for both sides")
    p.add_argument("--no-time-left", action="store_true", help="with --time: never send time_left (as gogui-twogtp)")
    p.add_argument("--seed", type=_seed, default=1, help="goengine's seed for game 0; game i uses seed + i (default 1)")
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds an engine may take to answer a command once it has started (default: 120, or the longest "
        "a move may take under --seconds or --time, plus 10 %% and 5 s, when that is longer; a shorter value "
        "is refused)",
    )
    p.add_argument(
        "--startup-timeout",
        type=_seconds,
        default=STARTUP_TIMEOUT,
        metavar="SECONDS",
        help="seconds an engine may take to answer each command of its start-up, from its launch to its first "
        f"move, that genmove included (goengine compiles its kernels there on a cold cache); and each command "
        f"of the warm-up game; never less than --timeout (default {STARTUP_TIMEOUT:g})",
    )
    p.add_argument(
        "--max-voids", type=_at_least_one, default=3, help="stop after this many void games in a row (default 3)"
    )


def _test_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sprt", default=None, metavar="ELO0,ELO1", help="stop each configuration by Wald's SPRT")
    p.add_argument("--alpha", type=_share, default=0.05, help="SPRT: chance of accepting H1 when H0 holds (0.05)")
    p.add_argument("--beta", type=_share, default=0.05, help="SPRT: chance of accepting H0 when H1 holds (0.05)")
    p.add_argument("--tournament", action="store_true", help="every pair of players; one Elo scale")
    p.add_argument(
        "--anchor", default=None, help="the player rated 0 (default: gnugo when it plays, else the last player)"
    )
    p.add_argument(
        "--bootstrap", type=_at_least_one, default=1000, help="bootstrap resamples for rating intervals (1000)"
    )


def _run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--allow-mixed-commits", action="store_true", help="resume a folder played by another commit")
    p.add_argument("--jobs", type=_at_least_one, default=None, help="games played at once (default: the cores)")
    p.add_argument("--cluster", default=None, metavar="tcp://HOST:PORT", help="run the games on this Dask scheduler")
    p.add_argument("--out", default="results/match", help="folder for games.jsonl, sgf/ and the plots")
    p.add_argument("--no-plot", action="store_true", help="draw no plot")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (plain lines instead)")
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    p.add_argument(
        "--report",
        action="store_true",
        help="play nothing: print the tables (and draw the plots) of the games already in --out",
    )
    p.add_argument(
        "--sgf",
        action="store_true",
        help="with --report: (re)write OUT/sgf/CONFIG-NNNN.sgf (a tournament's in each pair's sgf/) from the records",
    )


def match_of(args: argparse.Namespace) -> Match:
    """The match the command line describes, every option read and checked once (``Usage`` for
    one that contradicts another)."""
    out = Path(args.out)
    test = None
    if args.sprt:
        if args.tournament:
            raise Usage("--sprt stops one configuration against its opponent; it does not go with --tournament")
        try:
            test = Sprt.parse(args.sprt, args.alpha, args.beta)
        except ValueError as err:
            raise Usage(str(err)) from None
    try:
        clock = TimeControl.parse(args.time) if args.time else None
    except ValueError as err:
        raise Usage(str(err)) from None
    if args.cluster:  # the match extra's packages, asked for before any game rather than after
        needs("dask.distributed", "--cluster")
    configs = configurations(args.engine, args.config, args.playouts, args.seconds)
    if args.tournament:
        minimizer()  # the ratings at the end
        pairings = tournament_pairings(configs + (opponents(args.opponent) if args.opponent else []), out)
    else:
        pairings = pairings_against(configs, opponents(args.opponent), out, test)
    players = [p for pairing in pairings for p in (pairing.engine, pairing.opponent)]
    timeout, startup_timeout = timeouts(players, clock, args.timeout, args.startup_timeout)
    return Match(
        tuple(pairings),
        out,
        games=args.games,
        seed=args.seed,
        size=args.size,
        komi=args.komi,
        handicap=args.handicap,
        white_handicap_bonus=args.white_handicap_bonus,
        engine_color=args.engine_color,
        clock=clock,
        time_left=not args.no_time_left,
        timeout=timeout,
        startup_timeout=startup_timeout,
        test=test,
        tournament=args.tournament,
        allow_mixed_commits=args.allow_mixed_commits,
        jobs=args.jobs,
        cluster=args.cluster,
        max_voids=args.max_voids,
        progress=not args.no_progress,
        view=view_of(args),
    )


def view_of(args: argparse.Namespace) -> View:
    return View(markdown=args.markdown, plot=not args.no_plot, anchor=args.anchor, bootstrap=args.bootstrap,
                seed=args.seed)  # fmt: skip


def report_folder(args: argparse.Namespace) -> int:
    """``--report``: the tables (and plots) of the games already in ``--out``, like GoGui's twogtp
    -analyze, every configuration in it; with ``--sgf``, each game's SGF written again first."""
    out = Path(args.out)
    records = all_records(out)
    if not records:
        print(f"no games in {out / 'games.jsonl'} or {out / 'pairs'}", file=sys.stderr)
        return 2
    if args.sgf:  # first: a record it cannot read stops it before the plots are drawn
        try:
            write_folder_sgf_files(out)
        except OSError as err:  # a full disk, a read-only folder: the files written so far are whole
            print(f"{PROG}: cannot write the SGF files: {err}", file=sys.stderr)
            return 2
    show(records, out, view_of(args))
    nothing = no_valid_game(records)
    if nothing:  # a table of voids alone counts nothing: said, and not a success
        print(f"{PROG}: {nothing.replace('played', 'recorded')}", file=sys.stderr)
    return 1 if nothing else 0


def main(argv: list[str] | None = None) -> int:
    """The ``goengine-match`` command (and ``python -m goengine.lab``): its exit status."""
    args = parse_args(argv)
    try:
        if args.sgf and not args.report:
            raise Usage("--sgf goes with --report (a match writes each game's SGF as the game ends)")
        return report_folder(args) if args.report else play_match(match_of(args))
    except (Usage, MissingExtra, CorruptRecords) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
