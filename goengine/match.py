"""Matches between GTP engines: the referee, the game records, and the statistics.

Reading guide: ``play_game`` referees one game between two GTP command lines and returns a
record (a dict, so it crosses process and cluster boundaries); ``Match`` schedules the missing
games of every configuration (``pending``), runs them locally or on a Dask cluster, and keeps
each finished record in the JSONL file as soon as it ends (``record``); ``summarize`` turns the
records into the result table with Wilson intervals and Elo intervals.

The referee trusts neither engine: every move is checked on our own ``Board`` (an illegal move
loses the game for the engine that made it), every command has a timeout, a crash or hang or
garbage answer voids the game (it is replayed once), and the final position is scored by our own
area count and compared with both engines' ``final_score`` (a disagreement is recorded).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shlex
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.gtpclient import GtpClient, GtpClientError, GtpError

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
    timeout: float = 120.0  # seconds for one GTP command (a genmove included)
    max_moves: int = 0  # 0: 3 x points
    sgf_dir: str = ""
    attempt: int = 0

    @property
    def key(self) -> str:
        return f"{self.config}#{self.index}"


@dataclass
class Side:
    name: str = ""
    version: str = ""
    moves: int = 0
    seconds: float = 0.0


def _start(command: str, timeout: float) -> GtpClient:
    return GtpClient(shlex.split(command), timeout=timeout)


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


def play_game(spec: GameSpec) -> dict:
    """Referee one game; the record says who won and how, or that the game is void."""
    started = datetime.now(UTC).isoformat(timespec="seconds")
    board = Board(spec.size)
    max_moves = spec.max_moves or 3 * spec.size * spec.size
    engines: dict[int, GtpClient] = {}
    sides = {BLACK: Side(), WHITE: Side()}
    commands = {
        BLACK: spec.engine if spec.engine_black else spec.opponent,
        WHITE: spec.opponent if spec.engine_black else spec.engine,
    }
    record: dict = {
        "config": spec.config,
        "index": spec.index,
        "attempt": spec.attempt,
        "engine_black": spec.engine_black,
        "black_command": commands[BLACK],
        "white_command": commands[WHITE],
        "size": spec.size,
        "komi": spec.komi,
        "started": started,
    }
    winner = None
    reason = ""
    void = None
    try:
        for color in (BLACK, WHITE):
            client = _start(commands[color], spec.timeout)
            engines[color] = client
            sides[color].name = client.send("name")
            sides[color].version = client.send("version")
            client.send(f"boardsize {spec.size}")
            client.send("clear_board")
            client.send(f"komi {spec.komi:g}")
        color = BLACK
        while not board.is_over and len(board.moves) < max_moves:
            t0 = time.perf_counter()
            answer = engines[color].send(f"genmove {'b' if color == BLACK else 'w'}").strip().lower()
            sides[color].seconds += time.perf_counter() - t0
            sides[color].moves += 1
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
            area = board.score(spec.komi)
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
        record["sgf"] = _write_sgf(spec, record, board)
    return record


def _result_text(record: dict) -> str:
    if record["void"]:
        return "Void"
    if record["winner"] is None:
        return "0"
    if record["reason"] == "resignation":
        return f"{record['winner']}+R"
    if record["reason"].startswith("illegal move"):
        return f"{record['winner']}+F"
    area = record.get("area_score", 0.0)
    return f"{record['winner']}+{abs(area):g}"


def _write_sgf(spec: GameSpec, record: dict, board: Board) -> str:
    from sgfmill import sgf

    game = sgf.Sgf_game(spec.size)
    root = game.get_root()
    root.set("KM", spec.komi)
    root.set("RU", "Chinese")
    root.set("DT", record["started"][:10])
    root.set("PB", f"{record['black']['name']} {record['black']['version']}".strip())
    root.set("PW", f"{record['white']['name']} {record['white']['version']}".strip())
    root.set("RE", record["result"])
    root.set("GN", spec.key)
    root.set(
        "C",
        f"black: {record['black_command']}\nwhite: {record['white_command']}\n"
        f"configuration {spec.config}, game {spec.index}, attempt {spec.attempt}\n"
        f"termination: {record['reason']}\nfinal_score: {record.get('final_score')}",
    )
    for color, point in board.moves:
        node = game.extend_main_sequence()
        node.set_move("b" if color == BLACK else "w", coords.to_sgf(spec.size, point) if point != PASS else None)
    path = Path(spec.sgf_dir) / f"{spec.config}-{spec.index:04d}.sgf"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".sgf.tmp")
    tmp.write_bytes(game.serialise())
    os.replace(tmp, path)
    return str(path)


# ---- statistics


def wilson(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (draws count half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # the ends are exactly 0 and 1 with no wins or no losses (rounding would leave 1e-17)
    lo = 0.0 if wins <= 0 else max(0.0, center - half)
    hi = 1.0 if wins >= n else min(1.0, center + half)
    return lo, hi


def elo(p: float) -> float:
    """The Elo difference that gives win probability p (+-inf at 1 and 0)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400 * math.log10(p / (1 - p))


@dataclass
class Summary:
    config: str
    games: int = 0
    wins: float = 0.0
    black_games: int = 0
    black_wins: float = 0.0
    white_games: int = 0
    white_wins: float = 0.0
    voids: int = 0
    disagreements: int = 0
    moves: int = 0
    engine_seconds: float = 0.0
    engine_moves: int = 0
    opponent_seconds: float = 0.0
    opponent_moves: int = 0
    reasons: dict = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def elo_interval(self) -> tuple[float, float]:
        lo, hi = self.interval
        return elo(lo), elo(hi)


def summarize(records: list[dict]) -> list[Summary]:
    """One summary per configuration from the finished (non-void) records, in first-seen order."""
    out: dict[str, Summary] = {}
    for r in records:
        s = out.setdefault(r["config"], Summary(r["config"]))
        if r.get("void"):
            s.voids += 1
            continue
        won = 0.5 if r["engine_won"] is None else float(r["engine_won"])
        s.games += 1
        s.wins += won
        if r["engine_black"]:
            s.black_games += 1
            s.black_wins += won
        else:
            s.white_games += 1
            s.white_wins += won
        s.disagreements += int(bool(r.get("score_disagreement")))
        s.moves += r["n_moves"]
        mine, theirs = ("black", "white") if r["engine_black"] else ("white", "black")
        s.engine_seconds += r[mine]["seconds"]
        s.engine_moves += r[mine]["moves"]
        s.opponent_seconds += r[theirs]["seconds"]
        s.opponent_moves += r[theirs]["moves"]
        key = r["reason"].split(":")[0].split(",")[0]
        s.reasons[key] = s.reasons.get(key, 0) + 1
    return list(out.values())


def load_records(path: Path) -> list[dict]:
    """Every record in the JSONL file; a torn last line (a crash mid-write) is skipped."""
    records = []
    if not path.exists():
        return records
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return records


def append_record(path: Path, record: dict) -> None:
    """Append one record and fsync, so a crash or kill right after loses nothing. A torn last
    line (a crash mid-write) is ended first, so it cannot swallow this record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(record, sort_keys=True) + "\n").encode("utf-8")
    with path.open("a+b") as handle:
        if handle.tell() > 0:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                line = b"\n" + line
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def finished_keys(records: list[dict]) -> set[str]:
    return {f"{r['config']}#{r['index']}" for r in records if not r.get("void")}


def void_counts(records: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in records:
        if r.get("void"):
            key = f"{r['config']}#{r['index']}"
            counts[key] = counts.get(key, 0) + 1
    return counts
