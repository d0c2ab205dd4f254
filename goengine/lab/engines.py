"""The engines a match plays: goengine in its configurations and its opponents, as command lines.

A ``Player`` is a name and a command line; goengine's are ``seeded`` (game i adds ``--seed S + i``).
``configurations`` builds goengine's from the engine's command line, each configuration's
arguments and the match's budget; ``opponents`` names the other engines. The rest reads what a
command line says of its engine: whether it runs goengine, its threads and the cores a game of
two engines keeps busy (``game_cores``), the settings two records compare (``settings``), the
longest a move may take (``longest_move``), the version it answers (``engine_version_of``); and
``warm_up`` has each goengine compile its kernels before the first game.
"""

from __future__ import annotations

import contextlib
import math
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from goengine.lab import Usage
from goengine.lab.client import GtpClient, GtpClientError
from goengine.lab.referee import GNUGO
from goengine.lab.referee_clock import TimeControl

TIMEOUT = 120.0  # seconds for a command, when no move may take longer (goengine-match --timeout)
STARTUP_TIMEOUT = 600.0  # seconds for each command of an engine's start-up (--startup-timeout)
DEFAULT_ENGINE = f"{shlex.quote(sys.executable)} -m goengine --quiet"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


@dataclass(frozen=True)
class Player:
    """An engine: ``name`` and ``command`` line; ``seeded`` engines (goengine) get ``--seed S`` for
    game i, S = ``seed + i``, so a game can be replayed."""

    name: str
    command: str
    seeded: bool = False

    def command_for(self, seed: int) -> str:
        return f"{self.command} --seed {seed}" if self.seeded else self.command

    def missing_program(self) -> str | None:
        """The program of the command line when it cannot be found or run, else None."""
        words = shlex.split(self.command)
        if not words:
            return "(empty command)"
        program = words[0]
        if "/" in program:
            path = Path(program)
            return None if path.is_file() and path.stat().st_mode & 0o111 else program
        return None if shutil.which(program) else program


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


def configurations(
    engine: str, configs: list[str], playouts: int | None = None, seconds: float | None = None
) -> list[Player]:
    """goengine in each configuration (``NAME=ARGS``; one, ``default``, when none is given): the
    ``engine`` command line, the configuration's arguments and the budget."""
    budget = []
    if playouts is not None:
        budget += ["--playouts", str(playouts)]
    if seconds is not None:
        budget += ["--seconds", str(seconds)]
    players = []
    for text in configs or ["default="]:
        name, sep, extra = text.partition("=")
        if not sep or not _NAME.fullmatch(name.strip()):
            raise Usage(f"--config wants NAME=ARGS with a plain name, got {text!r}")
        # what the match sets itself would be overridden without a word: refused instead
        given = {word.partition("=")[0] for word in shlex.split(extra) if word.startswith("--")}
        if "--seed" in given:
            raise Usage(f"--config {name.strip()}: the match gives each game its seed (--seed S: game i plays S + i)")
        for option in sorted(given & set(budget)):
            raise Usage(f"--config {name.strip()} sets {option} and so does the match: give it once")
        command = " ".join(word for word in (engine, extra.strip(), *budget) if word)
        players.append(Player(name.strip(), pinned(command), seeded=True))
    return players


def opponents(commands: list[str]) -> list[Player]:
    """The opponents' command lines, named ``NAME=COMMAND`` or after their program; GNU Go level
    10 (named gnugo) when none is given."""
    players = []
    for text in commands or [f"gnugo={GNUGO}"]:
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


def settings(command: str) -> list[str]:
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


def timeouts(
    players: list[Player], clock: TimeControl | None, requested: float | None = None, startup: float = STARTUP_TIMEOUT
) -> tuple[float, float]:
    """``(timeout, startup_timeout)`` for the games. A command must be allowed more than a move
    may take (``longest_move``), with 10 % and 5 s over it for the round trip and an engine's
    overrun; else every slow move would void its game (under a clock, a game the clock should
    decide). So the timeout defaults to TIMEOUT or that, whichever is longer, and a shorter
    ``requested`` one (``--timeout``) is refused, not raised: the command line contradicts itself,
    and the run says so before it plays rather than run with a setting other than the one typed.
    The start-up allowance is never less than the timeout."""
    longest = longest_move(players, clock)
    needed = math.ceil(longest[0] + longest[0] / 10 + 5) if longest else 0
    if requested is None:
        timeout = max(TIMEOUT, needed)
    elif requested < needed:
        raise Usage(
            f"--timeout {requested:g} s is shorter than a move may take: {longest[1]} allows {longest[0]:g} s; "
            f"give --timeout {needed} or more (10 % and 5 s over it), or leave it out "
            f"(it then is {max(TIMEOUT, needed):g})"
        )
    else:
        timeout = requested
    return timeout, max(startup, timeout)
