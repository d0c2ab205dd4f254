"""The referee: one game between two GTP engines, checked move by move, returned as a record.

Reading guide: ``play_game`` is the whole game; ``GameSpec`` says what to play; the record it
returns is a plain dict (it crosses process and cluster boundaries) that ``lab.records`` keeps
on disk and ``lab.stats`` summarises; the game's SGF file is made from that record alone
(``lab.gamefiles``, which ``goengine-match --report --sgf`` uses too). Which games a match
still has to play and where they run (one at a time, a process pool, Dask) is ``lab.schedule``'s
business, and a whole match ``lab.match``'s.

An engine that knows ``kata-genmove_analyze`` (goengine, KataGo) is asked for its moves through it,
one report at the end of each search: the record keeps, for every move, the root's win rate,
score lead and visits from the mover's side (``Side.evaluations``), and the SGF has them as comments
and as Sabaki's ``SBKV`` (Black's win rate), so that every game is evidence of how far the
reported figures are from the results. The move is the one ``genmove`` would have played.

The referee trusts neither engine: every move is checked on our own ``Board`` (an illegal move
loses the game for the engine that made it), every command has a timeout, a crash or hang or
garbage answer voids the game, and the final position is scored by our own area count and
compared with both engines' ``final_score`` (a disagreement is recorded). An engine that knows
``goengine-params`` is asked for its settings (selection rule, playout policy, prior and their
parameters), which go into the record and the SGF comment; every engine's GTP ``version`` goes
there too (goengine's names its commit: ``goengine.version``).

A handicap game (``GameSpec.handicap``) sends ``fixed_handicap N`` to both engines, checks that
they placed the same stones (GTP 2 fixes the layout), starts the referee's board from them, and
lets White move first; the record keeps the number and the points (``handicap``,
``handicap_stones``) and the SGF has them as HA and AB. What White receives for the stones
(``white_handicap_bonus``: KataGo's 0, N-1 or N, ``goengine.ruleset``) is counted as komi by the
referee and told to an engine that takes ``kata-set-rules``; GNU Go's Chinese rules give N.

Every command has a timeout: ``GameSpec.timeout`` once an engine has started, and the longer
``startup_timeout`` for each command of its start-up, from its launch to its first move answered
(that ``genmove`` included): an engine may load or compile what it needs on the way, as goengine
compiles its kernels into a cold cache in its first ``genmove``.

Under a time control (``GameSpec.time_control``, ``lab.referee_clock``) both engines are told it before
the game, each ``genmove`` is preceded by ``time_left`` (unless ``time_left`` is off, as
gogui-twogtp plays), the referee's own clock is charged the command's round trip, and a fallen
flag loses the game (``reason`` "time", result ``B+T`` / ``W+T``). Every move's time is in the
record. The referee's clocks are its own code, not the engine's (``goengine.time_control``): a judge
that shared the engine's model of the rules could not catch a mistake in it.
"""

from __future__ import annotations

import contextlib
import json
import math
import shlex
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime

from goengine import coords
from goengine.board import BLACK, WHITE, Board, IllegalMove
from goengine.lab import gamefiles
from goengine.lab.client import GtpClient, GtpClientError, GtpError
from goengine.lab.referee_clock import SideClock, TimeControl
from goengine.ruleset import goengine_rules

GNUGO = "/usr/games/gnugo --mode gtp --chinese-rules --positional-superko --capture-all-dead --level 10"


@dataclass(frozen=True)
class GameSpec:
    """One game to play: which configuration, which game of it, and both command lines."""

    config: str
    index: int
    engine: str  # the command line of the engine under test
    opponent: str
    engine_black: bool
    size: int = 9
    komi: float = 7.5
    handicap: int = 0  # GTP's fixed handicap stones for Black (White then moves first)
    white_handicap_bonus: str = "0"  # KataGo's 0, N-1 or N: White's points for the stones (ruleset)
    timeout: float = 120.0  # seconds for one GTP command (a genmove included), once the engine has started
    startup_timeout: float = 600.0  # seconds for each command of an engine's start-up: up to its first move
    max_moves: int = 0  # 0: 3 x points
    sgf_dir: str = ""
    attempt: int = 0
    time_control: TimeControl | None = None  # a clock for both sides, or none
    time_left: bool = True  # send time_left before every genmove (gogui-twogtp does not)
    evaluations: bool = True  # ask an engine that knows kata-genmove_analyze for its figures of each move
    meta: tuple[tuple[str, object], ...] = ()  # extra fields copied into the record (the SPRT's)

    @property
    def key(self) -> str:
        return f"{self.config}#{self.index}"


@dataclass
class Side:
    """One side of a game: who it is (GTP ``name``, ``version`` and, for goengine, its settings
    from ``goengine-params``), what it spent (seconds in all and move by move), and, from an engine
    that reports them, what its search thought of each of its moves: ``evaluations``, one
    ``[win rate, score lead, visits]`` a move (the resignation's too), from its own side
    (``read_genmove_analysis``)."""

    name: str = ""
    version: str = ""
    moves: int = 0
    seconds: float = 0.0
    settings: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    evaluations: list[list[float] | None] = field(default_factory=list)


# kata-genmove_analyze's arguments for one report, at the end of the search: an interval no search
# reaches (centiseconds), the best move only, and the root's own figures
GENMOVE_ANALYSIS = "interval 100000000 maxmoves 1 rootInfo true"


def read_genmove_analysis(text: str) -> tuple[str, list[float] | None]:
    """``kata-genmove_analyze``'s response: its move (the ``play`` line) and the root's ``[win
    rate, score lead, visits]`` from the last ``rootInfo`` reported (KataGo's GTP extensions;
    goengine writes the same), or None when it reported none or could not be read. GtpError when
    there is no ``play`` line, as for a genmove without an answer."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or not lines[-1].lower().startswith("play "):
        raise GtpError(f"no play line in {text[-200:]!r}", "kata-genmove_analyze")
    move = lines[-1].split(None, 1)[1]
    reports = [line for line in lines[:-1] if " rootInfo " in f" {line} "]
    if not reports:
        return move, None
    words = reports[-1].split("rootInfo", 1)[1].split()
    fields = dict(zip(words[::2], words[1::2], strict=False))  # an odd word: a section after it
    try:
        values = [float(fields["winrate"]), float(fields["scoreLead"]), float(fields["visits"])]
    except (KeyError, ValueError):
        return move, None
    return move, values if all(math.isfinite(v) for v in values) else None


def _start(command: str, timeout: float) -> GtpClient:
    return GtpClient(shlex.split(command), timeout=timeout)


def _knows(client: GtpClient, command: str) -> bool:
    """Whether the engine says it knows ``command`` (an engine without known_command does not)."""
    try:
        return client.send(f"known_command {command}").strip() == "true"
    except GtpError:
        return False


def _engine_settings(client: GtpClient) -> dict[str, str]:
    """``{key: value}`` from ``goengine-params`` (GoGui's ``[type] key value`` lines), for an
    engine that knows the command; empty for any other engine."""
    if not _knows(client, "goengine-params"):
        return {}
    settings = {}
    for line in client.send("goengine-params").splitlines():
        words = line.split(None, 2)
        if len(words) == 3 and words[0].startswith("["):
            settings[words[1]] = words[2]
    return settings


def _parse_score(text: str) -> float | None:
    """``B+3.5`` -> 3.5, ``W+2`` -> -2, ``0`` -> 0; None for anything else."""
    t = text.strip().upper()
    if t in ("0", "DRAW", "JIGO"):
        return 0.0
    if len(t) >= 3 and t[0] in "BW" and t[1] == "+":
        try:
            value = float(t[2:])
        except ValueError:
            return None
        return value if t[0] == "B" else -value
    return None


class HandicapMismatch(GtpClientError):
    """The engines placed different fixed handicap stones (GTP 2 fixes the layout)."""


def _place_handicap(engines: dict[int, GtpClient], spec: GameSpec) -> list[int]:
    """``fixed_handicap N`` sent to both engines (each places the stones on its own board, as
    gogui-twogtp does); the points, which both must have chosen alike."""
    placed = {}
    for color, client in engines.items():
        answer = client.send(f"fixed_handicap {spec.handicap}")
        placed[color] = sorted(coords.from_gtp(spec.size, v) for v in answer.split())
    if placed[BLACK] != placed[WHITE] or len(placed[BLACK]) != spec.handicap:
        raise HandicapMismatch(
            f"fixed_handicap {spec.handicap}: black placed {placed[BLACK]}, white placed {placed[WHITE]}"
        )
    return placed[BLACK]


def replay_record(client: GtpClient, record: dict) -> None:
    """Sets a recorded game's last position up in an engine (GNU Go judging it, for
    ``scripts/resignations.py`` and ``scripts/lost_games.py``): the board size, the komi, the
    handicap stones and the moves, in order. The engine's ``? message`` to a move it refuses
    is raised (``GtpError``) rather than skipped, so a judge never judges a position it was not given."""
    client.send(f"boardsize {record['size']}")
    client.send("clear_board")
    client.send(f"komi {record['komi']:g}")
    for vertex in record.get("handicap_stones") or ():
        client.send(f"play B {vertex}")
    for move in record["moves"]:
        client.send(f"play {move}")


def play_game(spec: GameSpec) -> dict:
    """Referee one game; the record says who won and how, or that the game is void."""
    started = datetime.now(UTC).isoformat(timespec="seconds")
    board = Board(spec.size)
    max_moves = spec.max_moves or 3 * spec.size * spec.size
    engines: dict[int, GtpClient] = {}
    sides = {BLACK: Side(), WHITE: Side()}
    reports = {BLACK: False, WHITE: False}  # each move through kata-genmove_analyze, its figures kept
    record: dict = {**spec_fields(spec), "started": started, **dict(spec.meta)}
    commands = {BLACK: record["black_command"], WHITE: record["white_command"]}
    clocks = {c: SideClock(spec.time_control) for c in (BLACK, WHITE)} if spec.time_control else {}
    winner = None
    reason = ""
    void = None
    try:
        for color in (BLACK, WHITE):
            client = _start(commands[color], max(spec.startup_timeout, spec.timeout))  # until its first move
            engines[color] = client
            sides[color].name = client.send("name")
            sides[color].version = client.send("version")
            sides[color].settings = _engine_settings(client)
            reports[color] = spec.evaluations and _knows(client, "kata-genmove_analyze")
            client.send(f"boardsize {spec.size}")
            client.send("clear_board")
            client.send(f"komi {spec.komi:g}")
            if spec.white_handicap_bonus != "0" and _knows(client, "kata-set-rules"):
                # an engine that takes rules is told the bonus it is counted with (GNU Go's Chinese
                # rules already give N and take no such command)
                rules = json.dumps(goengine_rules(spec.white_handicap_bonus).to_json(), separators=(",", ":"))
                with contextlib.suppress(GtpError):
                    client.send(f"kata-set-rules {rules}")
            if spec.time_control:
                for command in spec.time_control.setup_commands(_knows(client, "kgs-time_settings")):
                    with contextlib.suppress(GtpError):  # an engine without clocks plays on; ours still runs
                        client.send(command)
        color = BLACK
        if spec.handicap:
            stones = _place_handicap(engines, spec)
            record["handicap_stones"] = [coords.to_gtp(spec.size, p) for p in stones]
            board = Board.from_stones(spec.size, [(BLACK, p) for p in stones], WHITE)
            color = WHITE
        while not board.is_over and len(board.moves) < max_moves:
            letter = "b" if color == BLACK else "w"
            if spec.time_control and spec.time_left:
                seconds, count = clocks[color].time_left()
                with contextlib.suppress(GtpError):
                    engines[color].send(f"time_left {letter} {math.floor(seconds)} {count}")
            t0 = time.perf_counter()
            if reports[color]:
                answer, evaluation = read_genmove_analysis(
                    engines[color].send(f"kata-genmove_analyze {letter} {GENMOVE_ANALYSIS}")
                )
                sides[color].evaluations.append(evaluation)
            else:
                answer = engines[color].send(f"genmove {letter}")
            answer = answer.strip().lower()
            spent = time.perf_counter() - t0
            engines[color].timeout = spec.timeout  # its start-up is over
            sides[color].seconds += spent
            sides[color].times.append(round(spent, 4))
            sides[color].moves += 1
            if spec.time_control and not clocks[color].spend(spent):
                winner, reason = 3 - color, f"time: {'black' if color == BLACK else 'white'}'s flag fell"
                break
            if answer == "resign":
                winner, reason = 3 - color, "resignation"
                break
            try:
                point = coords.from_gtp(spec.size, answer)
                board.play(color, point)
            except (ValueError, IllegalMove) as err:
                winner, reason = (
                    3 - color,
                    f"illegal move {answer!r} by {'black' if color == BLACK else 'white'}: {err}",
                )
                break
            try:
                engines[3 - color].send(f"play {'b' if color == BLACK else 'w'} {answer}")
            except GtpError as err:
                void = f"{'white' if color == BLACK else 'black'} rejected the legal move {answer}: {err}"
                break
            color = 3 - color
        if void is None and winner is None:
            reason = "two passes" if board.is_over else f"move cap {max_moves}"
            area = board.score(spec.komi + goengine_rules(spec.white_handicap_bonus).komi_bonus(spec.handicap))
            record["area_score"] = area
            scores = {}
            for c, label in ((BLACK, "black"), (WHITE, "white")):
                try:
                    scores[label] = engines[c].send("final_score")
                except GtpError as err:
                    scores[label] = f"? {err}"
            record["final_score"] = scores
            parsed = {k: _parse_score(v) for k, v in scores.items()}
            record["score_disagreement"] = any(v is None or v != area for v in parsed.values())
            winner = BLACK if area > 0 else WHITE if area < 0 else None
            if winner is None:
                reason += ", draw"
    except GtpClientError as err:
        void = f"{type(err).__name__}: {err}"
    except OSError as err:  # the command cannot be started (no such file, not executable)
        void = f"cannot start an engine: {err}"
    finally:
        for client in engines.values():
            with contextlib.suppress(Exception):  # closing must never lose the record
                client.close()
    record.update(
        {
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "moves": [f"{'B' if c == BLACK else 'W'} {coords.to_gtp(spec.size, p)}" for c, p in board.moves],
            "n_moves": len(board.moves),
            "black": asdict(sides[BLACK]),
            "white": asdict(sides[WHITE]),
            "void": void,
            "reason": void or reason,
            "winner": None if winner is None else "B" if winner == BLACK else "W",
        }
    )
    engine_color = "B" if spec.engine_black else "W"
    record["engine_won"] = None if void or winner is None else record["winner"] == engine_color
    record["result"] = _result_text(record)
    if spec.sgf_dir and not void:
        record["sgf"] = str(gamefiles.write_sgf(record, spec.sgf_dir))  # from the record alone, as --report --sgf
    return record


def spec_fields(spec: GameSpec) -> dict:
    """What a game's record says of its spec, played or void: which game, both command lines
    (Black's first), the board, komi, handicap and clock."""
    return {
        "config": spec.config,
        "index": spec.index,
        "attempt": spec.attempt,
        "engine_black": spec.engine_black,
        "black_command": spec.engine if spec.engine_black else spec.opponent,
        "white_command": spec.opponent if spec.engine_black else spec.engine,
        "size": spec.size,
        "komi": spec.komi,
        "handicap": spec.handicap,
        "white_handicap_bonus": spec.white_handicap_bonus,
        "time": spec.time_control.describe() if spec.time_control else None,
        "time_left": spec.time_left if spec.time_control else None,
    }


def void_record(spec: GameSpec, reason: str) -> dict:
    """The record of a game of ``spec`` that could not be played at all: void, for ``reason``."""
    return {
        **spec_fields(spec),
        **dict(spec.meta),
        "moves": [],
        "n_moves": 0,
        "black": asdict(Side()),
        "white": asdict(Side()),
        "void": reason,
        "reason": reason,
        "winner": None,
        "engine_won": None,
        "result": "Void",
    }


def _result_text(record: dict) -> str:
    if record["void"]:
        return "Void"
    if record["winner"] is None:
        return "0"
    if record["reason"] == "resignation":
        return f"{record['winner']}+R"
    if record["reason"].startswith("time"):
        return f"{record['winner']}+T"
    if record["reason"].startswith("illegal move"):
        return f"{record['winner']}+F"
    area = record.get("area_score", 0.0)
    return f"{record['winner']}+{abs(area):g}"
