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
import contextlib
import math
import os
import re
import shlex
import sys
from pathlib import Path

from goengine import coords, numerals, version
from goengine.coords import BOARD_SIZES
from goengine.jobs import Runner
from goengine.lab import MissingExtra, gamefiles, needs, report
from goengine.lab.client import GtpClient, GtpClientError
from goengine.lab.ratings import Result, minimizer, rate
from goengine.lab.records import CorruptRecords, append_record, load_records, read_records, remove_torn_line
from goengine.lab.referee import GNUGO
from goengine.lab.referee_clock import TimeControl
from goengine.lab.schedule import ENGINE_COLORS, Pairing, Player, pending, play_games
from goengine.lab.sprt import CONTINUE, Sprt
from goengine.lab.stats import engine_version, score, summarize
from goengine.ruleset import HANDICAP_BONUSES

PROG = "goengine-match"
TIMEOUT = 120.0  # seconds for a command, when no move may take longer (--timeout)
STARTUP_TIMEOUT = 600.0  # seconds for each command of an engine's start-up (--startup-timeout)
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -m goengine --quiet"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


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
    p.add_argument("--sprt", default=None, metavar="ELO0,ELO1", help="stop each configuration by Wald's SPRT")
    p.add_argument("--alpha", type=_share, default=0.05, help="SPRT: chance of accepting H1 when H0 holds (0.05)")
    p.add_argument("--beta", type=_share, default=0.05, help="SPRT: chance of accepting H0 when H1 holds (0.05)")
    p.add_argument("--tournament", action="store_true", help="every pair of players; one Elo scale")
    p.add_argument("--anchor", default=None, help="the player rated 0 (default: the first opponent)")
    p.add_argument(
        "--bootstrap", type=_at_least_one, default=1000, help="bootstrap resamples for rating intervals (1000)"
    )
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
    args = p.parse_args(argv)
    if args.white_handicap_bonus is None:
        # GNU Go's Chinese rules give White a point a handicap stone: counted alike, the referee
        # and GNU Go's final_score agree
        gnugo = any("gnugo" in text for text in args.opponent or [GNUGO])
        args.white_handicap_bonus = "N" if gnugo else "0"
    return args


class Usage(Exception):
    """A mistake on the command line: the message, and exit code 2, before anything is touched."""


# ---- the players


def is_goengine(command: str) -> bool:
    """Whether a command line runs goengine (its console script, or ``python -m goengine``)."""
    words = shlex.split(command)
    module = any(a == "-m" and b == "goengine" for a, b in zip(words, words[1:], strict=False))
    return bool(words) and (Path(words[0]).name == "goengine" or module)


def thread_count(command: str) -> int:
    """The ``--threads`` of a goengine command line (1 when it gives none: ``pinned``)."""
    words = shlex.split(command)
    for i, word in enumerate(words):
        if word == "--threads" and i + 1 < len(words) and words[i + 1].isdigit():
            return int(words[i + 1])
        if word.startswith("--threads="):
            return int(word.partition("=")[2])
    return 1


def game_cores(engine: str, opponent: str) -> int:
    """The cores a game keeps busy: the larger thread count of its two engines, which take turns,
    or both counts together when a goengine of the two ponders (``--ponder``: it searches on while
    the other thinks)."""
    counts = thread_count(engine), thread_count(opponent)
    ponders = any(is_goengine(c) and "--ponder" in shlex.split(c) for c in (engine, opponent))
    return sum(counts) if ponders else max(counts)


def pinned(command: str) -> str:
    """A goengine command line with ``--threads 1`` added when it gives no thread count. The
    ``goengine`` command searches with one thread per core by default; in a match the games at
    once share the cores (``--jobs``), every recorded game keeps the thread count it ran with,
    and a command written before that default (every folder's older records) means one thread."""
    if not is_goengine(command) or re.search(r"(^|\s)--threads(\s|=)", command):
        return command
    return f"{command} --threads 1"


def configurations(args: argparse.Namespace) -> list[Player]:
    """goengine in each configuration: ``--engine`` plus the configuration's arguments and the budget."""
    budget = []
    if args.playouts is not None:
        budget += ["--playouts", str(args.playouts)]
    if args.seconds is not None:
        budget += ["--seconds", str(args.seconds)]
    players = []
    for text in args.config or ["default="]:
        name, sep, extra = text.partition("=")
        if not sep or not _NAME.fullmatch(name.strip()):
            raise Usage(f"--config wants NAME=ARGS with a plain name, got {text!r}")
        # what the match sets itself would be overridden without a word: refused instead
        given = {word.partition("=")[0] for word in shlex.split(extra) if word.startswith("--")}
        if "--seed" in given:
            raise Usage(f"--config {name.strip()}: the match gives each game its seed (--seed S: game i plays S + i)")
        for option in sorted(given & set(budget)):
            raise Usage(f"--config {name.strip()} sets {option} and so does the match: give it once")
        command = " ".join([args.engine, extra.strip(), *budget]).strip()
        players.append(Player(name.strip(), pinned(command), seeded=True))
    return players


def opponents(args: argparse.Namespace) -> list[Player]:
    """The ``--opponent`` engines, named ``NAME=COMMAND`` or after their program; GNU Go level 10
    (named gnugo) when none is given."""
    players = []
    for text in args.opponent or [f"gnugo={GNUGO}"]:
        name, sep, command = text.partition("=")
        if sep and _NAME.fullmatch(name) and " " not in name:
            players.append(Player(name, pinned(command.strip())))
        else:
            words = shlex.split(text)
            base = Path(words[0]).name if words else "opponent"
            players.append(Player(base, pinned(text)))
    names = [p.name for p in players]
    for i, player in enumerate(players):  # two unnamed opponents with the same program
        if names.count(player.name) > 1:
            players[i] = Player(f"{player.name}-{i + 1}", player.command)
    return players


def _settings(command: str) -> list[str]:
    """A goengine command line without its program (the Python path differs from machine to
    machine, the settings must not), without its per-game ``--seed``, and with the thread count
    ``pinned`` adds when the command gives none (older records have none, and meant one)."""
    words = shlex.split(command)
    if len(words) >= 2 and words[-2] == "--seed":
        words = words[:-2]
    return shlex.split(pinned(shlex.join(words)))[1:]


def engine_version_of(player: Player, timeout: float = STARTUP_TIMEOUT) -> str:
    """What the engine answers to GTP ``version`` (goengine names its commit), its first answer:
    ``timeout`` is a start-up's."""
    try:
        client = GtpClient(shlex.split(player.command), timeout=timeout)
    except OSError as err:
        return f"unknown (cannot start it: {err})"
    try:
        return client.send("version")
    except GtpClientError as err:
        return f"unknown ({err})"
    finally:
        client.close()


# ---- checks before anything is touched


def mismatches(pairings: list[Pairing], records: list[dict], args: argparse.Namespace) -> list[str]:
    """How the games already in the folder differ from this command: a configuration played with
    other settings, another opponent, board size, komi or clock, or (unless
    ``--allow-mixed-commits``) by another version of the engine. Resuming would mix them in one
    row of the table, so the run refuses instead."""
    wanted = {p.config: p for p in pairings}
    problems = set()
    played_by: dict[str, set[str]] = {}
    for r in records:
        pairing = wanted.get(r.get("config"))
        if pairing is None:
            continue  # another configuration of the same folder: not in this table, not touched
        engine = r["black_command"] if r["engine_black"] else r["white_command"]
        opponent = r["white_command"] if r["engine_black"] else r["black_command"]
        name = pairing.config
        if _settings(engine) != _settings(pairing.engine.command_for(0)):
            problems.add(f"{name}: played as {shlex.join(_settings(engine))!r}, now {pairing.engine.command!r}")
        if _settings(opponent) != _settings(pairing.opponent.command_for(0)):
            problems.add(f"{name}: opponent was {opponent!r}, now {pairing.opponent.command!r}")
        # the bonus counts only with handicap stones (records before it had none: "0")
        if args.handicap and r.get("white_handicap_bonus", "0") != args.white_handicap_bonus:
            problems.add(
                f"{name}: played with white handicap bonus {r.get('white_handicap_bonus', '0')}, "
                f"now {args.white_handicap_bonus}"
            )
        if r["size"] != args.size or r["komi"] != args.komi or r.get("handicap", 0) != args.handicap:
            problems.add(
                f"{name}: played on {r['size']}x{r['size']} komi {r['komi']:g} handicap {r.get('handicap', 0)}, "
                f"now {args.size}x{args.size} komi {args.komi:g} handicap {args.handicap}"
            )
        black = r["index"] % 2 == 0 if args.engine_color == "alternate" else args.engine_color == "black"
        if r["engine_black"] != black:
            problems.add(f"{name}: goengine played {'black' if r['engine_black'] else 'white'} in game {r['index']}")
        if r.get("time") != (TimeControl.parse(args.time).describe() if args.time else None):
            problems.add(f"{name}: played with clock {r.get('time')}, now {args.time}")
        if not r.get("void"):
            played_by.setdefault(name, set()).add(engine_version(r))
    if not args.allow_mixed_commits:
        for pairing in pairings:
            versions = played_by.get(pairing.config)
            if versions:
                now = engine_version_of(pairing.engine, args.startup_timeout)
                if versions != {now}:
                    problems.add(
                        f"{pairing.config}: played by {', '.join(sorted(versions))}, the engine is now {now} "
                        "(--allow-mixed-commits to add its games; --report then shows one row per version)"
                    )
    return sorted(problems)


def move_seconds(command: str) -> float | None:
    """The ``--seconds`` a command line gives (the last, as goengine reads it), or None."""
    words = shlex.split(command)
    found = None
    for i, word in enumerate(words):
        if word == "--seconds" and i + 1 < len(words):
            text = words[i + 1]
        elif word.startswith("--seconds="):
            text = word.partition("=")[2]
        else:
            continue
        with contextlib.suppress(ValueError):  # goengine refuses it itself: its games are void, saying why
            found = float(text)
    return found


def longest_move(players: list[Player], clock: TimeControl | None) -> tuple[float, str] | None:
    """The longest a move may take as the command line says, and what says so: the clock's
    longest move (``TimeControl.longest_move``), and the ``--seconds`` of every goengine command
    line (a configuration's; an opponent's when it runs goengine); None when nothing bounds a
    move's time (a playout budget, another engine's own settings)."""
    bounds = [(clock.longest_move(), f"--time {clock.describe()}")] if clock else []
    for player in players:
        seconds = move_seconds(player.command) if player.seeded or is_goengine(player.command) else None
        if seconds is not None:
            bounds.append((seconds, f"--seconds {seconds:g} ({player.name})"))
    return max(bounds) if bounds else None


def timeouts(args: argparse.Namespace, players: list[Player], clock: TimeControl | None) -> tuple[float, float]:
    """``(timeout, startup_timeout)`` for the games. A command must be allowed more than a move
    may take (``longest_move``), with 10 % and 5 s over it for the round trip and an engine's
    overrun; else every slow move would void its game (under a clock, a game the clock should
    decide). So ``--timeout`` defaults to TIMEOUT or that, whichever is longer, and a shorter
    ``--timeout`` is refused, not raised: the command line contradicts itself, and the run says so
    before it plays rather than run with a setting other than the one typed. The start-up
    allowance is never less than ``timeout``."""
    longest = longest_move(players, clock)
    needed = math.ceil(longest[0] + longest[0] / 10 + 5) if longest else 0
    if args.timeout is None:
        timeout = max(TIMEOUT, needed)
    elif args.timeout < needed:
        raise Usage(
            f"--timeout {args.timeout:g} s is shorter than a move may take: {longest[1]} allows {longest[0]:g} s; "
            f"give --timeout {needed} or more (10 % and 5 s over it), or leave it out "
            f"(it then is {max(TIMEOUT, needed):g})"
        )
    else:
        timeout = args.timeout
    return timeout, max(args.startup_timeout, timeout)  # both finite and above 0 (``parse_args``)


def check_programs(players: list[Player]) -> None:
    for player in players:
        missing = player.missing_program()
        if missing:
            raise Usage(f"{player.name}: cannot run {missing!r} (no such program, or not executable)")


def warm_up(players: list[Player], timeout: float) -> None:
    """Start each goengine configuration once and play a short game on a 5x5 board with it, one
    after another, before any game (seed 0, which no game uses), each command allowed
    ``timeout`` (the start-up's, ``--startup-timeout``): goengine compiles its kernels into its
    on-disk cache when it first calls them (about 35 s on an idle two-core machine, more when
    several compile at once), which would otherwise fall on the first game's first moves: the first
    ``genmove`` would spend the game's clock on it, and the second, which keeps the subtree of the
    first (``Tree.keep_subtree``), took 15 s of a 2 s budget in a 19x19 game. So: a move for each
    colour, then ``final_score`` (the judging playouts). Any failure here is only reported: the
    games themselves judge a faulty engine."""
    for player in players:
        try:
            client = GtpClient(shlex.split(player.command_for(0)), timeout=timeout)
        except OSError as err:
            print(f"warm-up: {player.name} did not start ({err})", file=sys.stderr)
            continue
        try:
            for line in ("boardsize 5", "clear_board", "genmove b", "genmove w", "final_score"):
                client.send(line)
        except GtpClientError as err:
            print(f"warm-up: {player.name}: {err}", file=sys.stderr)
        finally:
            client.close()


# ---- the two kinds of match


def plain_pairings(args: argparse.Namespace, out: Path, test: Sprt | None) -> list[Pairing]:
    """Each configuration against the one opponent, in OUT; the SPRT's parameters in every record."""
    configs, opps = configurations(args), opponents(args)
    if len(opps) > 1:
        raise Usage("several --opponent engines need --tournament (or one match each)")
    if len({p.name for p in configs}) != len(configs):
        raise Usage("configuration names must differ")
    sgf_dir = str((out / "sgf").resolve())  # absolute: cluster workers run elsewhere
    meta = (("sprt", {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta}),) if test else ()
    return [Pairing(p.name, p, opps[0], sgf_dir, meta) for p in configs]


def tournament_players(args: argparse.Namespace) -> list[Player]:
    """The configurations and the ``--opponent`` engines given (a tournament has no default opponent)."""
    players = configurations(args) + (opponents(args) if args.opponent else [])
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise Usage(f"player names must differ, got {', '.join(names)}")
    if len(players) < 2:
        raise Usage("a tournament needs at least two players")
    return players


def tournament_pairings(players: list[Player], out: Path) -> list[Pairing]:
    pairings = []
    for x, a in enumerate(players):
        for b in players[x + 1 :]:
            name = f"{a.name}-vs-{b.name}"
            sgf_dir = str((out / "pairs" / name / "sgf").resolve())
            pairings.append(Pairing(name, a, b, sgf_dir, meta=(("pair", (a.name, b.name)),)))
    return pairings


def tournament_ratings(records: list[dict], args: argparse.Namespace) -> tuple[list, str] | None:
    """The ratings table of a tournament's records (those that name their ``pair``), or None
    when there are none."""
    results, players = [], []
    for config in dict.fromkeys(r["config"] for r in records if r.get("pair") and not r.get("void")):
        a, b = next(r["pair"] for r in records if r["config"] == config)
        won, draws, lost = score(records, config)
        results.append(Result(a, b, won, draws, lost))
        players += [p for p in (a, b) if p not in players]
    if len(players) < 2:
        return None
    anchor = args.anchor or ("gnugo" if "gnugo" in players else players[-1])
    if anchor not in players:
        raise Usage(f"--anchor {anchor!r} is not a player of this tournament: {', '.join(players)}")
    return rate(players, results, anchor, samples=args.bootstrap, seed=args.seed), anchor


# ---- output


def show(records: list[dict], out: Path, args: argparse.Namespace) -> None:
    """The table on stdout, how the games ended, and for games under a clock the time profile after it; unless
    --no-plot, the plots in OUT (winrate.png; time.png for games under a clock); for a tournament
    folder, the ratings table and ratings.png too."""
    if records:
        print(report.format_table(records, markdown=args.markdown))
        if not args.no_plot and report.plot_rates(records, out / "winrate.png"):
            print(f"plot: {out / 'winrate.png'}", file=sys.stderr)
        if not args.no_plot and report.plot_times(records, out / "time.png"):
            print(f"plot: {out / 'time.png'}", file=sys.stderr)
        for table in (
            report.format_endings(records, args.markdown),
            report.format_time_profile(records, args.markdown),
        ):
            if table:
                print()
                print(table)
    table = tournament_ratings(records, args)
    if table:
        ratings, anchor = table
        print()
        print(report.format_ratings(ratings, anchor, markdown=args.markdown))
        if not args.no_plot and report.plot_ratings(ratings, anchor, out / "ratings.png"):
            print(f"plot: {out / 'ratings.png'}", file=sys.stderr)


def record_folders(out: Path) -> list[Path]:
    """The folder and its pairs' folders (a tournament's), each with the games.jsonl it holds."""
    folders = [out, *sorted((out / "pairs").glob("*-vs-*"))]
    return [folder for folder in folders if (folder / "games.jsonl").is_file()]


def all_records(out: Path) -> list[dict]:
    """The folder's records, and its pairs' (a tournament's), every game once."""
    return [r for folder in record_folders(out) for r in load_records(folder / "games.jsonl")]


def write_sgf_files(out: Path) -> int:
    """``--report --sgf``: each folder's non-void games as ``FOLDER/sgf/CONFIG-NNNN.sgf``, made from
    their records (``lab.gamefiles``, the referee's own code), each file written whole or not at
    all; says on stderr how many files it wrote in which folder, and returns how many in all.
    Every record is read before any file is written, so a record this code cannot read (edited
    by hand) stops the run before it touches anything."""
    # a torn last line is skipped again, without a word: the report has just said so (all_records)
    folders = {folder: read_records(folder / "games.jsonl")[0] for folder in record_folders(out)}
    for folder, records in folders.items():
        for r in records:
            try:
                if not r.get("void"):
                    gamefiles.sgf_text(r)
            except (KeyError, TypeError, ValueError) as err:
                raise Usage(
                    f"{folder / 'games.jsonl'}: cannot make the SGF of {r.get('config')}#{r.get('index')}: "
                    f"{type(err).__name__}: {err}"
                ) from None
    total = 0
    for folder, records in folders.items():
        paths = set(gamefiles.write_sgf_files(records, folder / "sgf"))
        voids = sum(1 for r in records if r.get("void"))
        print(
            f"SGF: wrote {len(paths)} files in {folder / 'sgf'} ({len(records)} records, {voids} void)", file=sys.stderr
        )
        total += len(paths)
    return total


def main(argv: list[str] | None = None) -> int:
    """The ``goengine-match`` command (and ``python -m goengine.lab``): its exit status."""
    args = parse_args(argv)
    out = Path(args.out)
    try:
        return run(args, out)
    except (Usage, MissingExtra, CorruptRecords) as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace, out: Path) -> int:
    if args.sgf and not args.report:
        raise Usage("--sgf goes with --report (a match writes each game's SGF as the game ends)")
    if args.report:  # like GoGui's twogtp -analyze: the folder's games, every configuration in it
        records = all_records(out)
        if not records:
            print(f"no games in {out / 'games.jsonl'} or {out / 'pairs'}", file=sys.stderr)
            return 2
        if args.sgf:  # first: a record it cannot read stops it before the plots are drawn
            try:
                write_sgf_files(out)
            except OSError as err:  # a full disk, a read-only folder: the files written so far are whole
                print(f"{PROG}: cannot write the SGF files: {err}", file=sys.stderr)
                return 2
        show(records, out, args)
        nothing = no_valid_game(records)
        if nothing:  # a table of voids alone counts nothing: said, and not a success
            print(f"{PROG}: {nothing.replace('played', 'recorded')}", file=sys.stderr)
        return 1 if nothing else 0
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
    if args.tournament:
        minimizer()  # the ratings at the end
        pairings = tournament_pairings(tournament_players(args), out)
        folders = {p.config: out / "pairs" / p.config for p in pairings}
    else:
        pairings = plain_pairings(args, out, test)
        folders = {p.config: out for p in pairings}
    players = [p for pairing in pairings for p in (pairing.engine, pairing.opponent)]
    timeout, startup_timeout = timeouts(args, players, clock)
    check_programs(players)
    # every folder's file read once; a record names its configuration (pair names differ too)
    records, torn = [], []
    for folder in sorted(set(folders.values())):
        kept, tear = read_records(folder / "games.jsonl")
        records += kept
        if tear is not None:
            print(f"{tear.describe()}: skipped; its game is played again", file=sys.stderr)
            torn.append(tear)
    problems = mismatches(pairings, records, args)
    if problems:
        print(
            f"{out} holds games played with other settings; use another --out or another "
            "configuration name:\n  " + "\n  ".join(problems),
            file=sys.stderr,
        )
        return 2
    for tear in torn:  # before any record is appended: the file ends with its last complete record
        try:
            remove_torn_line(tear)
        except (OSError, ValueError) as err:
            print(f"{PROG}: cannot remove the torn record of {tear.path}: {err}", file=sys.stderr)
            return 2
        print(f"{tear.path}, line {tear.line}: the torn record's {tear.size} bytes removed", file=sys.stderr)
    for folder in set(folders.values()):
        folder.mkdir(parents=True, exist_ok=True)

    def specs_to_play() -> list:
        return pending(
            pairings,
            records,
            args.games,
            args.seed,
            engine_color=args.engine_color,
            this_run=records[kept:],
            size=args.size,
            komi=args.komi,
            handicap=args.handicap,
            white_handicap_bonus=args.white_handicap_bonus,
            timeout=timeout,
            startup_timeout=startup_timeout,
            time_control=clock,
            time_left=not args.no_time_left,
        )

    def verdict(config: str) -> str:
        """The configuration's SPRT status from its records so far (CONTINUE without a test)."""
        return CONTINUE if test is None else test.status(*score(records, config))

    kept = len(records)  # the records this run adds come after these
    missing = specs_to_play()
    # a configuration whose test has already decided plays nothing more (nor warms up for it)
    specs = [spec for spec in missing if verdict(spec.config) == CONTINUE]
    total = len(pairings) * args.games
    jobs = args.jobs or (0 if args.cluster else os.cpu_count() or 1)
    # games at once x a game's cores stay within the machine's (``game_cores``)
    threads = max(game_cores(pairing.engine.command, pairing.opponent.command) for pairing in pairings)
    cores = os.cpu_count() or 1
    if not args.cluster and jobs * threads > cores:
        jobs = max(1, cores // threads)
        print(f"{threads} threads a game on {cores} cores: {jobs} game(s) at once", file=sys.stderr)
    where = out / "pairs" if args.tournament else out / "games.jsonl"
    print(
        f"{total - len(missing)} of {total} games already in {where}; playing {'up to ' if test else ''}{len(specs)} "
        f"({'cluster ' + args.cluster if args.cluster else f'{jobs} at once'})"
        + (f"; {test.describe()}" if test else ""),
        file=sys.stderr,
    )
    if specs and not args.cluster:  # goengine's configurations (the opponents are other programs)
        configs = {p.name: p for pairing in pairings for p in (pairing.engine, pairing.opponent) if p.seeded}
        warm_up(list(configs.values()), startup_timeout)
    runner = Runner(jobs, args.cluster, in_flight=1)  # a game a slot: the SPRT's verdict stops the next
    stop = play(runner, specs, records, folders, args, verdict, specs_to_play)
    show(all_records(out), out, args)
    if test:
        for pairing in pairings:
            print(f"{pairing.config}: {verdict(pairing.config)}", file=sys.stderr)
    print(f"games: {where}; SGF: {out / 'pairs' / '*' / 'sgf' if args.tournament else out / 'sgf'}", file=sys.stderr)
    nothing = no_valid_game(records[kept:])
    if nothing:
        print(f"{PROG}: {nothing}", file=sys.stderr)
    if stop:
        print(f"stopped: {stop}", file=sys.stderr)
        return 2
    return 1 if nothing else 0


def no_valid_game(played: list[dict], shown: int = 5) -> str | None:
    """When the games a run played were all void, what says so and why: the voids' reasons, each
    with how many games it voided, the most frequent first (``shown`` of them); else None. A
    match that gave nothing to count must not end as one that did (exit status 1)."""
    if not played or any(not r.get("void") for r in played):
        return None
    reasons: dict[str, int] = {}
    for r in played:
        reasons[r["void"]] = reasons.get(r["void"], 0) + 1
    ranked = sorted(reasons.items(), key=lambda item: -item[1])
    lines = [f"{reason} ({count} game{'s' if count > 1 else ''})" for reason, count in ranked[:shown]]
    if len(ranked) > shown:
        lines.append(f"and {len(ranked) - shown} other reasons")
    games = f"the {len(played)} games played were all void" if len(played) > 1 else "the one game played was void"
    return f"no game was valid: {games}:\n  " + "\n  ".join(lines)


def play(runner: Runner, specs, records: list[dict], folders, args, verdict, specs_to_play) -> str | None:
    """Play the specs, keep each record as it comes (in its configuration's folder, and in
    ``records``), retry void games once; the reason the run stopped early, or None."""
    in_a_row = 0
    stop = None
    progress = _progress(len(specs)) if not args.no_progress and specs else None
    try:
        while specs and stop is None:
            retry = False
            for spec, record in play_games(runner, specs, wanted=lambda s: verdict(s.config) == CONTINUE):
                try:
                    append_record(folders[spec.config] / "games.jsonl", record)
                except OSError as err:  # a full disk: say so, keep the record in the log
                    print(f"could not save game {spec.key}: {err}; record: {record}", file=sys.stderr)
                    stop = f"cannot write {folders[spec.config] / 'games.jsonl'}: {err}"
                    runner.stop()  # no new game that could not be saved; those running still end
                records.append(record)
                if record["void"]:
                    in_a_row += 1
                    print(f"void game {spec.key} (attempt {spec.attempt}): {record['void']}", file=sys.stderr)
                    retry = True  # pending() gives it once more, unless it was void twice in this run
                    if in_a_row >= args.max_voids and stop is None:
                        stop = f"{in_a_row} void games in a row; last: {record['void']}"
                        runner.stop()  # no new game; those running still finish and are kept
                else:
                    in_a_row = 0
                line = " ".join(
                    f"{s.config} {s.wins:g}/{s.games} [{100 * s.interval[0]:.0f}-{100 * s.interval[1]:.0f}%]"
                    for s in summarize(records)
                )
                if progress is not None:
                    progress[0].update(progress[1], advance=1, description=line[:150])
                else:
                    print(f"{spec.key}: {record['result']} ({record['reason']}); {line}", file=sys.stderr)
            specs = [] if stop or not retry else specs_to_play()
            if progress is not None and specs:
                progress[0].update(progress[1], total=progress[0].tasks[0].total + len(specs))
    except KeyboardInterrupt:
        stop = "interrupted; run the same command again to play the missing games"
    finally:
        if progress is not None:
            progress[0].stop()
    return stop


def _progress(total: int):
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    except ImportError:
        return None
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    progress = Progress(*columns, console=Console(stderr=True))  # stdout carries the tables alone
    progress.start()
    return progress, progress.add_task("games", total=total)
