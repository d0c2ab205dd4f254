"""The match laboratory: ``goengine.lab`` (referee, records, statistics) and ``scripts/match.py``.

Most tests run ``scripts/match.py`` as a subprocess between fake GTP engines: a small Python
script written into ``tmp_path`` (``FAKE_ENGINE``) that plays a few fixed, far-apart moves and
then passes, and can be told to crash, hang, answer garbage, play an illegal move, flood its
stderr or be slow, for every game or only for some seeds (the seed on the engine's command line
is ``--seed + game index``, so a seed picks a game). One test plays real games against GNU Go
(level 0, 100 playouts) and one runs the games on a local Dask cluster.

Every match runs in its own process group; when it has ended, the group must be empty (no engine
left behind), and whatever is left is killed.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import json
import math
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goengine.lab import report
from goengine.lab.client import GtpClient
from goengine.lab.records import append_record, load_records
from goengine.lab.stats import elo, summarize, wilson

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "match.py"
GNUGO = "/usr/games/gnugo"
GNUGO_LEVEL0 = f"{GNUGO} --mode gtp --chinese-rules --positional-superko --capture-all-dead --level 0"
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRST"
RECORD_FIELDS = {
    "config",
    "index",
    "attempt",
    "engine_black",
    "black_command",
    "white_command",
    "size",
    "komi",
    "started",
    "finished",
    "moves",
    "n_moves",
    "black",
    "white",
    "void",
    "reason",
    "winner",
    "engine_won",
    "result",
}

FAKE_ENGINE = r'''
"""A fake GTP engine for tests/test_match.py."""

import argparse
import os
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--mode", default="normal")  # normal crash hang garbage illegal
p.add_argument("--only-seeds", default="")  # the mode applies to these seeds only
p.add_argument("--marker", default="")  # the mode applies once: while this file does not exist
p.add_argument("--delay", type=float, default=0.0)  # seconds before each genmove answer
p.add_argument("--seed-delay", action="append", default=[])  # SEED=SECONDS, overrides --delay
p.add_argument("--moves", type=int, default=3)  # moves before passing
p.add_argument("--stderr-mb", type=float, default=0.0)  # megabytes written to stderr per genmove
p.add_argument("--name", default="fake")
p.add_argument("--version-file", default="")  # answer GTP version with this file's text
p.add_argument("--seed", type=int, default=0)
args, _ = p.parse_known_args()

mode = args.mode
if args.only_seeds and args.seed not in {int(s) for s in args.only_seeds.split(",")}:
    mode = "normal"
if mode != "normal" and args.marker:
    if os.path.exists(args.marker):
        mode = "normal"
    else:
        open(args.marker, "w").close()
delay = args.delay
for item in args.seed_delay:
    seed, _, seconds = item.partition("=")
    if int(seed) == args.seed:
        delay = float(seconds)

SPREAD = ["C3", "G7", "C7", "G3", "E5", "E3", "E7", "C5", "G5"]  # no two adjacent: no captures
occupied = []
played = 0


def answer(text=""):
    sys.stdout.write(f"= {text}\n\n")
    sys.stdout.flush()


def fail(text):
    sys.stdout.write(f"? {text}\n\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0].lower()
    if cmd == "quit":
        answer()
        break
    if cmd == "name":
        answer(args.name)
    elif cmd == "version":
        answer(open(args.version_file).read().strip() if args.version_file else f"1.0-{mode}")
    elif cmd == "protocol_version":
        answer("2")
    elif cmd in ("boardsize", "komi"):
        answer()
    elif cmd == "clear_board":
        occupied.clear()
        answer()
    elif cmd == "play":
        if words[2].lower() != "pass":
            occupied.append(words[2].upper())
        answer()
    elif cmd == "genmove":
        time.sleep(delay)
        if args.stderr_mb:
            chunk = b"x" * 65535 + b"\n"
            for _ in range(int(args.stderr_mb * 16)):
                sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
        if mode == "crash":
            sys.stderr.write("fake: crashing on purpose\n")
            sys.exit(3)
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            sys.stdout.write("Segmentation fault (core dumped)\nsome noise\n\n")
            sys.stdout.flush()
            continue
        if mode == "illegal" and occupied:
            answer(occupied[0])
            continue
        free = [v for v in SPREAD if v not in occupied]
        if played >= args.moves or not free:
            answer("pass")
        else:
            played += 1
            occupied.append(free[0])
            answer(free[0])
    elif cmd == "final_score":
        fail("cannot score")
    else:
        fail("unknown command")
'''


# ---- helpers


@pytest.fixture
def fake(tmp_path):
    """``fake(*options)``: the command line of the fake engine with these options."""
    path = tmp_path / "fake_gtp.py"
    path.write_text(FAKE_ENGINE, encoding="utf-8")

    def command(*options: str) -> str:
        return shlex.join([sys.executable, str(path), *options])

    return command


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _end_group(pgid: int, grace: float = 5.0) -> bool:
    """Wait up to ``grace`` seconds for the process group to be empty; kill what is left.
    True when something had to be killed."""
    deadline = time.monotonic() + grace
    while _group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if not _group_alive(pgid):
        return False
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def start_match(out, *args: str, cwd=None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(SCRIPT), "--out", str(out), "--no-progress", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
        start_new_session=True,  # its own process group: the engines of a killed run can be found
    )


def run_match(out, *args: str, timeout: float = 120.0, cwd=None) -> subprocess.CompletedProcess:
    """Run scripts/match.py to the end; fail if it takes longer than ``timeout`` or leaves a
    process behind."""
    proc = start_match(out, *args, cwd=cwd)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end_group(proc.pid, grace=0)
        stdout, stderr = proc.communicate()
        pytest.fail(f"scripts/match.py {' '.join(args)} took more than {timeout} s\n{stdout}\n{stderr}")
    leftovers = _end_group(proc.pid)
    assert not leftovers, f"processes left behind by scripts/match.py {' '.join(args)}"
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def records_of(out: Path) -> list[dict]:
    return load_records(out / "games.jsonl")


def table_rows(stdout: str) -> list[str]:
    """The rows of the printed table, header and footnote left off."""
    lines = stdout.strip().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("configuration"))
    foot = next(i for i, line in enumerate(lines) if line.startswith("win % counts"))
    return lines[head + 1 : foot]


def check_record(record: dict) -> None:
    """The invariants of a record: fields, winner and engine_won agree with the colour."""
    assert set(record) >= RECORD_FIELDS, RECORD_FIELDS - set(record)
    engine_color = "B" if record["engine_black"] else "W"
    assert record["engine_black"] == (record["index"] % 2 == 0)  # colours alternate
    if record["void"]:
        assert record["result"] == "Void" and record["engine_won"] is None and "sgf" not in record
        return
    assert "sgf" in record and record["winner"] in ("B", "W", None)
    assert record["engine_won"] == (None if record["winner"] is None else record["winner"] == engine_color)
    assert record["n_moves"] == len(record["moves"])
    assert record["black"]["moves"] + record["white"]["moves"] >= record["n_moves"]
    if record["winner"]:
        assert record["result"].startswith(record["winner"] + "+")


def sgf_moves(game) -> list[str]:
    """The main line of an sgfmill game as ``"B C3"`` / ``"W pass"`` strings."""
    moves = []
    for node in game.get_main_sequence()[1:]:
        colour, point = node.get_move()
        if colour is None:
            continue
        vertex = "pass" if point is None else f"{GTP_COLUMNS[point[1]]}{point[0] + 1}"
        moves.append(f"{colour.upper()} {vertex}")
    return moves


def load_sgf(path):
    from sgfmill import sgf

    return sgf.Sgf_game.from_bytes(Path(path).read_bytes())


def check_sgf(record: dict, seed: int) -> None:
    """The SGF of a finished record says what the record says."""
    path = Path(record["sgf"])
    assert path.is_file()
    game = load_sgf(path)
    root = game.get_root()
    assert game.get_size() == record["size"]
    assert game.get_komi() == record["komi"]
    assert root.get("RU") == "Chinese"
    assert root.get("RE") == record["result"]
    assert root.get("GN") == f"{record['config']}#{record['index']}"
    assert root.get("DT") == record["started"][:10]
    for side, prop in (("black", "PB"), ("white", "PW")):
        assert root.get(prop) == f"{record[side]['name']} {record[side]['version']}"
    comment = root.get("C")
    assert f"black: {record['black_command']}" in comment
    assert f"white: {record['white_command']}" in comment
    assert f"--seed {seed}" in comment
    assert f"termination: {record['reason']}" in comment
    assert sgf_moves(game) == record["moves"]


def gtp_identity(command: str) -> str:
    with GtpClient(shlex.split(command), timeout=60) as client:
        return f"{client.send('name')} {client.send('version')}"


# ---- a real match against GNU Go


@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_short_match_against_gnugo(tmp_path):
    out = tmp_path / "out"
    result = run_match(out, "--games", "2", "--playouts", "100", "--opponent", GNUGO_LEVEL0, "--jobs", "2", timeout=170)
    assert result.returncode == 0, result.stderr
    assert "0 of 2 games already in" in result.stderr

    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    records = sorted(records_of(out), key=lambda r: r["index"])
    assert [r["index"] for r in records] == [0, 1]
    assert [r["engine_black"] for r in records] == [True, False]
    gnugo = gtp_identity(GNUGO_LEVEL0)
    assert gnugo.startswith("GNU Go 3.")
    ours = gtp_identity(f"{sys.executable} -m goengine --quiet")
    for r in records:
        check_record(r)
        assert r["void"] is None and r["attempt"] == 0 and r["config"] == "default"
        assert (r["size"], r["komi"]) == (9, 7.5)
        engine_side, gnugo_side = ("black", "white") if r["engine_black"] else ("white", "black")
        assert r[f"{gnugo_side}_command"] == GNUGO_LEVEL0
        assert "--playouts 100" in r[f"{engine_side}_command"]
        assert r[f"{engine_side}_command"].endswith(f"--seed {1 + r['index']}")
        assert f"{r[gnugo_side]['name']} {r[gnugo_side]['version']}" == gnugo
        assert f"{r[engine_side]['name']} {r[engine_side]['version']}" == ours
        # goengine's settings, from goengine-params: the rule, playout policy, prior and parameters
        settings = r[engine_side]["settings"]
        assert settings["selection_rule"] == "rave" and settings["AMAF_weight_schedule"] == "minimum-MSE"
        assert (settings["playout_policy"], settings["prior_knowledge"]) == ("heavy", "heuristic")
        assert settings["read_ladders"] == "1" and settings["near_last_move_visits"] == "20"
        assert settings["playouts_per_move"] == "100"
        assert r[gnugo_side]["settings"] == {}  # GNU Go does not know goengine-params
        comment = load_sgf(r["sgf"]).get_root().get("C")
        # every setting, in key order: the file is made from the record as games.jsonl keeps it (lab.gamefiles)
        assert f"{engine_side} settings: " + " ".join(f"{k}={settings[k]}" for k in sorted(settings)) in comment
        assert r["reason"] == "resignation" or r["reason"].startswith(("two passes", "move cap"))
        check_sgf(r, seed=1 + r["index"])
        assert Path(r["sgf"]) == out / "sgf" / f"default-{r['index']:04d}.sgf"

    rows = table_rows(result.stdout)
    assert len(rows) == 1 and rows[0].split()[:2] == ["default", "2"]
    assert (out / "winrate.png").is_file()


# ---- configurations and the table


def test_one_table_row_per_configuration(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
        *("--config", "alpha=--name alpha", "--config", "beta=--name beta"),
    )
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    # interleaved by game index: a run cut short leaves both configurations with as many games
    assert [(r["config"], r["index"]) for r in records] == [("alpha", 0), ("beta", 0), ("alpha", 1), ("beta", 1)]
    for r in records:
        check_record(r)
        check_sgf(r, seed=1 + r["index"])
        engine_side = "black" if r["engine_black"] else "white"
        assert r[engine_side]["name"] == r["config"]
        assert load_sgf(r["sgf"]).get_root().get("PB" if r["engine_black"] else "PW") == f"{r['config']} 1.0-normal"
        assert Path(r["sgf"]).name == f"{r['config']}-{r['index']:04d}.sgf"
    rows = table_rows(result.stdout)
    assert [row.split()[:2] for row in rows] == [["alpha", "2"], ["beta", "2"]]

    # --report: the same table from the folder alone, nothing played
    before = (out / "games.jsonl").read_bytes()
    report = run_match(out, "--report", "--no-plot")
    assert report.returncode == 0, report.stderr
    assert table_rows(report.stdout) == rows
    assert (out / "games.jsonl").read_bytes() == before
    empty = run_match(tmp_path / "none", "--report")
    assert empty.returncode == 2 and "no games in" in empty.stderr
    assert not (tmp_path / "none").exists()


def test_size_komi_seconds_and_seed_reach_the_games(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--jobs", "1", "--no-plot", "--size", "7", "--komi", "5.5"),
        *("--playouts", "50", "--seconds", "0.25", "--seed", "40"),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
    )
    assert result.returncode == 0, result.stderr
    records = sorted(records_of(out), key=lambda r: r["index"])
    for r in records:
        check_record(r)
        check_sgf(r, seed=40 + r["index"])
        assert (r["size"], r["komi"]) == (7, 5.5)
        engine_command = r["black_command"] if r["engine_black"] else r["white_command"]
        assert engine_command.endswith(f"--playouts 50 --seconds 0.25 --seed {40 + r['index']}")
        assert all(m.split()[1] == "pass" or int(m.split()[1][1:]) <= 7 for m in r["moves"])


# ---- resume


def test_resume_after_kill(tmp_path, fake):
    out = tmp_path / "out"
    jsonl = out / "games.jsonl"
    args = (
        *("--games", "6", "--jobs", "2", "--no-plot"),
        *("--engine", fake("--delay", "0.3"), "--opponent", fake("--name", "opp", "--delay", "0.3")),
    )
    proc = start_match(out, *args)
    try:
        deadline = time.monotonic() + 120
        while len(load_records(jsonl)) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the first run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)  # the runner dies at once, with games being played
        proc.wait()
    finally:
        _end_group(proc.pid, grace=0)  # its pool workers and engines, orphaned
        proc.communicate()
    before = load_records(jsonl)
    assert 2 <= len(before) < 6
    assert all(not r["void"] for r in before)

    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    assert f"{len(before)} of 6 games already in {jsonl}; playing {6 - len(before)}" in result.stderr
    records = records_of(out)
    assert len(records) == 6  # no game lost, none played twice
    assert all(not r["void"] for r in records)
    assert sorted(r["index"] for r in records) == list(range(6))
    for r in records:
        check_record(r)
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "6"]

    again = run_match(out, *args)  # nothing left to play
    assert "6 of 6 games already in" in again.stderr and "playing 0" in again.stderr
    assert len(records_of(out)) == 6


def test_resume_refuses_games_played_with_other_settings(tmp_path, fake):
    """A folder's games are resumed only by the command that played them: the same
    configuration name with another budget, opponent or komi would mix two experiments in one
    row of the table."""
    out = tmp_path / "out"
    engine, opponent = fake(), fake("--name", "opp")
    base = ("--games", "2", "--jobs", "1", "--no-plot", "--engine", engine, "--opponent", opponent)
    first = run_match(out, *base, "--config", "a=--delay 0")
    assert first.returncode == 0, first.stderr
    assert len(records_of(out)) == 2

    for changed in (
        ("--config", "a=--delay 0.01"),
        ("--config", "a=--delay 0", "--playouts", "100"),
        ("--config", "a=--delay 0", "--komi", "6.5"),
    ):
        refused = run_match(out, *base, *changed)
        assert refused.returncode == 2
        assert "holds games played with other settings" in refused.stderr
        assert "a:" in refused.stderr
        assert len(records_of(out)) == 2  # nothing played, nothing lost
    other_opponent = run_match(
        out,
        *("--games", "2", "--jobs", "1", "--no-plot", "--engine", engine),
        *("--opponent", fake("--name", "other"), "--config", "a=--delay 0"),
    )
    assert other_opponent.returncode == 2 and "opponent was" in other_opponent.stderr

    # the same command, more games: resumes; a new configuration name in the same folder is fine
    more = run_match(out, *base[:1], "3", *base[2:], "--config", "a=--delay 0", "--config", "b=--delay 0")
    assert more.returncode == 0, more.stderr
    assert sorted((r["config"], r["index"]) for r in records_of(out)) == [
        ("a", 0),
        ("a", 1),
        ("a", 2),
        ("b", 0),
        ("b", 1),
        ("b", 2),
    ]


def test_load_records_skips_a_torn_last_line(tmp_path):
    path = tmp_path / "games.jsonl"
    for i in range(3):
        append_record(path, {"config": "c", "index": i, "void": None})
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 12], encoding="utf-8")  # a crash in the middle of the last write
    assert [r["index"] for r in load_records(path)] == [0, 1]
    assert load_records(tmp_path / "missing.jsonl") == []


def test_torn_last_line_game_is_replayed_and_kept(tmp_path, fake):
    """A crash in the middle of writing a record leaves a last line without its newline. The
    next run must replay that game and keep its record (readable by the run after)."""
    out = tmp_path / "out"
    jsonl = out / "games.jsonl"
    args = ("--games", "3", "--jobs", "1", "--no-plot", "--engine", fake(), "--opponent", fake("--name", "opp"))
    assert run_match(out, *args).returncode == 0
    text = jsonl.read_text(encoding="utf-8")
    torn = text.rstrip("\n").rsplit("\n", 1)[-1]
    jsonl.write_text(text[: len(text) - len(torn) // 2 - 1], encoding="utf-8")
    survivors = load_records(jsonl)
    assert len(survivors) == 2
    (lost,) = {0, 1, 2} - {r["index"] for r in survivors}

    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    assert "2 of 3 games already in" in result.stderr
    assert f"default#{lost}:" in result.stderr  # the torn game was replayed
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "3"]
    # The replayed game's record must survive in the file, not only in this run's memory.
    records = load_records(jsonl)
    unreadable = []
    for line in jsonl.read_text(encoding="utf-8").splitlines():
        try:
            json.loads(line)
        except json.JSONDecodeError:
            unreadable.append(f"{line[:60]} ... {line[len(line) // 2 - 60 : len(line) // 2 + 60]} ...")
    assert sorted(r["index"] for r in records) == [0, 1, 2], (
        f"the replayed game's record was appended to the torn line, and is lost with it: {unreadable}"
    )


# ---- faults


def test_engine_crash_mid_game_is_void_then_replayed_once(tmp_path, fake):
    out = tmp_path / "out"
    args = (
        *("--games", "1", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "crash")),
    )
    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert [(r["index"], r["attempt"]) for r in records] == [(0, 0), (0, 1)]  # replayed once, no more
    for r in records:
        check_record(r)
        assert r["void"] and "GtpEngineDied" in r["void"] and "exited with code 3" in r["void"]
        assert "crashing on purpose" in r["void"]  # the engine's stderr tail is in the reason
        assert r["moves"] == ["B C3"]  # it crashed mid-game, after the engine's first move
    assert "void game default#0 (attempt 0)" in result.stderr
    assert "void game default#0 (attempt 1)" in result.stderr
    assert not (out / "sgf").exists() or not list((out / "sgf").iterdir())
    row = table_rows(result.stdout)[0].split()
    assert row[:2] == ["default", "0"] and row[-2] == "2"  # 0 games, 2 voids

    again = run_match(out, *args)  # a game void twice is not played a third time
    assert again.returncode == 0 and "playing 0" in again.stderr
    assert len(records_of(out)) == 2


def test_engine_crash_once_is_replayed(tmp_path, fake):
    out = tmp_path / "out"
    marker = tmp_path / "crashed-once"
    opponent = fake("--name", "opp", "--mode", "crash", "--marker", str(marker))
    result = run_match(out, "--games", "1", "--jobs", "1", "--no-plot", "--engine", fake(), "--opponent", opponent)
    assert result.returncode == 0, result.stderr
    first, second = records_of(out)
    assert first["void"] and first["attempt"] == 0
    assert not second["void"] and second["attempt"] == 1 and second["index"] == 0
    check_record(second)
    check_sgf(second, seed=1)
    assert "attempt 1" in load_sgf(second["sgf"]).get_root().get("C")
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "1"]


def test_hanging_engine_times_out(tmp_path, fake):
    out = tmp_path / "out"
    started = time.monotonic()
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "2"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "hang")),
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert len(records) == 2
    for r in records:
        check_record(r)
        assert r["void"] and "GtpTimeout" in r["void"] and "genmove" in r["void"]
    assert elapsed < 45  # two attempts of ~2 s (+ closing), not the fake's 60 s sleep
    # run_match also checked that the hanging engines were killed, not left behind


def test_illegal_move_loses_the_game(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "illegal")),
    )
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert len(records) == 2
    for r in records:
        check_record(r)
        assert r["void"] is None
        assert r["engine_won"] is True
        opponent = "white" if r["engine_black"] else "black"
        assert r["reason"].startswith(f"illegal move 'c3' by {opponent}")
        assert "occupied" in r["reason"]
        assert r["result"] == ("B+F" if r["engine_black"] else "W+F")
        check_sgf(r, seed=1 + r["index"])
    row = table_rows(result.stdout)[0].split()
    assert row[:3] == ["default", "2", "100.0%"] and row[-2] == "0"


def test_garbage_answer_is_void(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "garbage")),
    )
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert len(records) == 2
    for r in records:
        check_record(r)
        assert r["void"] and "GtpProtocolError" in r["void"] and "Segmentation fault" in r["void"]


def test_engine_stderr_is_drained(tmp_path, fake):
    out = tmp_path / "out"
    started = time.monotonic()
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "20"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--stderr-mb", "4")),
    )
    assert result.returncode == 0, result.stderr
    (record,) = records_of(out)
    check_record(record)
    assert record["void"] is None and record["reason"] == "two passes"
    assert time.monotonic() - started < 60


def test_max_voids_stops_the_run(tmp_path, fake):
    out = tmp_path / "out"
    # games 2 and 3 (seeds 3 and 4) crash: two void games in a row
    engine = fake("--mode", "crash", "--only-seeds", "3,4")
    result = run_match(
        out,
        *("--games", "5", "--jobs", "1", "--no-plot", "--max-voids", "2"),
        *("--engine", engine, "--opponent", fake("--name", "opp")),
    )
    assert result.returncode == 2, result.stderr
    assert "stopped: 2 void games in a row" in result.stderr
    records = records_of(out)
    assert [(r["index"], bool(r["void"])) for r in records] == [(0, False), (1, False), (2, True), (3, True)]
    sgfs = sorted(p.name for p in (out / "sgf").iterdir())
    assert sgfs == ["default-0000.sgf", "default-0001.sgf"]
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "2"]


def test_max_voids_stop_keeps_games_already_running(tmp_path, fake):
    """With a process pool, the games still running when the run stops must not be played to
    their end and then thrown away: every game that was played through (its SGF written) must
    be in the JSONL."""
    out = tmp_path / "out"
    # game 2 (seed 3) crashes at once, game 3 (seed 4) after 2 s; meanwhile game 4 (seed 5,
    # 1.5 s a move) has started in the freed worker and is still running at the stop.
    engine = fake("--mode", "crash", "--only-seeds", "3,4", "--seed-delay", "4=2", "--seed-delay", "5=1.5")
    result = run_match(
        out,
        *("--games", "6", "--jobs", "2", "--no-plot", "--max-voids", "2"),
        *("--engine", engine, "--opponent", fake("--name", "opp")),
    )
    assert result.returncode == 2, result.stderr
    assert "stopped: 2 void games in a row" in result.stderr
    records = records_of(out)
    finished = sorted(Path(r["sgf"]).name for r in records if not r["void"])
    assert {0, 1} <= {r["index"] for r in records if not r["void"]}
    sgfs = sorted(p.name for p in (out / "sgf").iterdir())
    assert sgfs == finished, (
        "games were played to the end after the stop and their records thrown away "
        f"(SGF on disk: {sgfs}, records: {finished})"
    )


# ---- statistics

Z95 = statistics.NormalDist().inv_cdf(0.975)


def textbook_wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """(2k + z^2 -+ z sqrt(z^2 + 4k(n-k)/n)) / (2(n + z^2)), Wilson (1927) in counts."""
    root = z * math.sqrt(z * z + 4 * k * (n - k) / n)
    return (2 * k + z * z - root) / (2 * (n + z * z)), (2 * k + z * z + root) / (2 * (n + z * z))


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (5, 10), (10, 10), (32, 100), (1, 3), (7.5, 20), (81, 263)])
def test_wilson_matches_the_textbook_formula(wins, n):
    lo, hi = wilson(wins, n)
    want_lo, want_hi = textbook_wilson(wins, n)
    assert lo == pytest.approx(max(0.0, want_lo), abs=1e-12)
    assert hi == pytest.approx(min(1.0, want_hi), abs=1e-12)
    assert 0.0 <= lo <= wins / n + 1e-12 and wins / n - 1e-12 <= hi <= 1.0


def test_wilson_ends_are_exact():
    """No win: the interval starts at exactly 0; all wins: it ends at exactly 1, so the Elo
    interval of a perfect score ends at +inf (as ``elo`` promises at 1), not at about +6400."""
    starts = {n: wilson(0, n)[0] for n in range(1, 101)}
    ends = {n: wilson(n, n)[1] for n in range(1, 101)}
    assert {n: x for n, x in starts.items() if x != 0.0} == {}
    assert {n: x for n, x in ends.items() if x != 1.0} == {}
    (perfect,) = summarize([_record("p", i, True) for i in range(10)])
    assert perfect.elo_interval[1] == math.inf


def test_wilson_known_values():
    # the example of the Wikipedia article "Binomial proportion confidence interval"
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-3) and hi == pytest.approx(0.3662, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(Z95**2 / (10 + Z95**2))
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(10, 10)[0] == pytest.approx(10 / (10 + Z95**2))
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(50, 100), wilson(50, 100, z=2.576)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]


def test_elo_known_values():
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(10 / 11) == pytest.approx(400.0)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def _record(config, index, engine_won, *, void=None, disagree=False, reason="two passes", n_moves=10):
    engine_black = index % 2 == 0
    moves = n_moves // 2
    engine_side = {"moves": moves, "seconds": 1.0, "times": [0.4] + [0.6 / (moves - 1)] * (moves - 1)}
    opponent_side = {"moves": n_moves // 2, "seconds": 0.5}
    return {
        "config": config,
        "index": index,
        "engine_black": engine_black,
        "engine_won": None if void else engine_won,
        "void": void,
        "reason": void or reason,
        "score_disagreement": disagree,
        "n_moves": n_moves,
        "black": engine_side if engine_black else opponent_side,
        "white": opponent_side if engine_black else engine_side,
    }


def test_summarize_hand_made_records():
    records = [
        _record("a", 0, True),  # as black: win
        _record("a", 1, False, reason="resignation"),  # as white: loss
        _record("a", 2, None, reason="two passes, draw"),  # as black: draw, half a win
        _record("a", 3, True, disagree=True, reason="illegal move 'c3' by black: occupied"),  # as white: win
        _record("a", 4, None, void="GtpTimeout: no response"),  # void: left out
        _record("b", 0, False, n_moves=20),
        _record("a", 4, True),  # the replay of the void game
        _record("b", 1, None, void="GtpEngineDied: gone"),
        _record("b", 1, None, void="GtpEngineDied: gone"),
    ]
    a, b = summarize(records)
    assert (a.config, b.config) == ("a", "b")
    assert (a.games, a.wins, a.voids, a.disagreements) == (5, 3.5, 1, 1)
    assert (a.black_games, a.black_wins, a.white_games, a.white_wins) == (3, 2.5, 2, 1.0)
    assert a.rate == pytest.approx(0.7)
    assert a.interval == wilson(3.5, 5)
    assert a.elo_interval == (elo(a.interval[0]), elo(a.interval[1]))
    assert a.moves == 50 and a.engine_moves == 25 and a.opponent_moves == 25
    assert a.engine_seconds == pytest.approx(5.0) and a.opponent_seconds == pytest.approx(2.5)
    assert a.reasons == {"two passes": 3, "resignation": 1, "illegal move 'c3' by black": 1}
    assert (b.games, b.wins, b.voids, b.black_games, b.white_games) == (1, 0.0, 2, 1, 0)
    assert b.rate == 0.0 and b.interval == wilson(0, 1)
    assert summarize([]) == []
    (only_voids,) = summarize([_record("c", 0, None, void="x")])
    assert (only_voids.games, only_voids.voids, only_voids.rate, only_voids.interval) == (0, 1, 0.0, (0.0, 1.0))


def _match_script():
    spec = importlib.util.spec_from_file_location("match_script", ROOT / "scripts" / "match.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_full_disk_stops_the_run_and_keeps_the_record(tmp_path, fake, monkeypatch, capsys):
    """The second game cannot be written (ENOSPC): its record goes to stderr, no new game starts,
    the run ends with status 2, and the game saved before it is intact."""
    script = _match_script()
    saved = []

    def append(path, record):
        if saved:
            raise OSError(errno.ENOSPC, "No space left on device")
        saved.append(record)
        append_record(path, record)

    monkeypatch.setattr(script, "append_record", append)
    out = tmp_path / "out"
    code = script.main(
        [
            *("--out", str(out), "--games", "4", "--jobs", "1", "--no-plot", "--no-progress"),
            *("--engine", fake(), "--opponent", fake("--name", "opp")),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "could not save game default#1" in err and "No space left on device" in err
    assert "'index': 1" in err  # the unsaved record, in full, in the log
    assert "stopped: cannot write" in err
    assert "default#2" not in err  # no game after the failure
    (record,) = load_records(out / "games.jsonl")
    assert record["index"] == 0 and record["void"] is None


def test_table_text_and_markdown_hold_the_same_cells():
    records = [
        _record("a", 0, True),
        _record("a", 1, False, reason="resignation"),
        _record("a", 2, None, reason="two passes, draw"),
        _record("a", 3, True, disagree=True),
        _record("a", 4, None, void="GtpTimeout: no response"),
        _record("a", 4, True),
    ]
    lo, hi = wilson(3.5, 5)
    expected = [
        "a",
        "5",
        "70.0%",
        f"[{100 * lo:.1f}, {100 * hi:.1f}]",
        f"[{elo(lo):+.0f}, {elo(hi):+.0f}]",
        "83%/3",
        "50%/2",
        "10.0",
        "0.20",
        "0.40",  # the longest move
        "0.10",
        "1",
        "1",
    ]
    markdown = report.format_table(records, markdown=True).splitlines()
    assert markdown[0].startswith("| configuration | games | win % |")
    assert set(markdown[1].replace(" ", "")) == {"|", "-"}
    assert [cell.strip() for cell in markdown[2].strip("|").split("|")] == expected
    text = report.format_table(records).splitlines()
    assert text[0].split()[:3] == ["configuration", "games", "win"]
    row = text[1]
    for cell in expected:
        assert cell in row
    assert row.split()[:3] == ["a", "5", "70.0%"]


# ---- on a Dask cluster


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A one-worker local Dask cluster whose worker runs in a folder of its own (as a worker
    started on another machine, or from another shell, would)."""
    distributed = pytest.importorskip("distributed")
    worker_dir = tmp_path_factory.mktemp("dask-worker-cwd")
    here = os.getcwd()
    os.chdir(worker_dir)
    try:
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
    finally:
        os.chdir(here)
    try:
        yield cluster, worker_dir
    finally:
        cluster.close()


def _check_cluster_run(out: Path, result) -> list[dict]:
    assert result.returncode == 0, result.stderr
    assert "0 of 2 games already in" in result.stderr and "cluster tcp://127.0.0.1" in result.stderr
    records = sorted(load_records(out / "games.jsonl"), key=lambda r: r["index"])
    assert [r["index"] for r in records] == [0, 1]
    for r in records:
        check_record(r)
        assert r["void"] is None
        assert Path(r["sgf"]).resolve() == (out / "sgf" / f"default-{r['index']:04d}.sgf").resolve()
        check_sgf(r, seed=1 + r["index"])
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "2"]
    return records


def test_dask_cluster_run(tmp_path, fake, dask_cluster):
    cluster, _ = dask_cluster
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--no-plot", "--cluster", cluster.scheduler_address),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
    )
    _check_cluster_run(out, result)


def test_dask_cluster_run_with_relative_out(tmp_path, fake, dask_cluster):
    """``--out`` relative to where the command runs: the SGFs must land there too, not in the
    worker's working folder."""
    cluster, worker_dir = dask_cluster
    (tmp_path / "here").mkdir()
    result = run_match(
        "out",
        *("--games", "2", "--no-plot", "--cluster", cluster.scheduler_address),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
        cwd=tmp_path / "here",
    )
    assert result.returncode == 0, result.stderr
    assert len(load_records(tmp_path / "here" / "out" / "games.jsonl")) == 2
    misplaced = sorted(str(p.relative_to(worker_dir)) for p in worker_dir.rglob("*.sgf"))
    assert not misplaced, f"SGFs written relative to the Dask worker's folder: {misplaced}"
    _check_cluster_run(tmp_path / "here" / "out", result)


def _group_members(pgid: int) -> list[int]:
    """The processes of a process group (from /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # after the command name: state, ppid, pgrp
                members.append(int(stat.parent.name))
    return members


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, deadline: float) -> None:
    import socket

    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"nothing listens on port {port}")


@pytest.fixture
def real_cluster(tmp_path):
    """A Dask scheduler and two workers as separate processes on 127.0.0.1, as on real machines
    (``dask scheduler`` on one, ``dask worker tcp://...`` on each other), each worker in a folder
    of its own, without a nanny (a killed worker stays dead, as a machine that went down)."""
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        pytest.skip("the dask command is not installed")
    port = _free_port()
    scheduler = subprocess.Popen(
        [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    processes = [scheduler]
    try:
        _wait_for_port(port, time.monotonic() + 60)
        workers = []
        for k in range(2):
            folder = tmp_path / f"worker-{k}"
            folder.mkdir()
            command = [str(dask), "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1", "--no-nanny"]
            command += ["--no-dashboard", "--name", f"w{k}"]
            workers.append(
                subprocess.Popen(
                    command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
                )
            )
        processes += workers
        from distributed import Client

        with Client(f"tcp://127.0.0.1:{port}", timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield f"tcp://127.0.0.1:{port}", workers
    finally:
        for proc in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_real_cluster_loses_no_game_when_a_worker_is_killed(tmp_path, fake, real_cluster):
    """A match on a scheduler and two worker processes; one worker is killed with SIGKILL while
    games run on it. Every game is played exactly once: none lost, none doubled, every record
    and SGF complete."""
    address, workers = real_cluster
    out = tmp_path / "out"
    args = (
        *("--games", "8", "--no-plot", "--cluster", address),
        *("--engine", fake("--delay", "0.3", "--moves", "4"), "--opponent", fake("--name", "opp", "--delay", "0.1")),
    )
    proc = start_match(out, *args)
    try:
        deadline = time.monotonic() + 120
        while len(load_records(out / "games.jsonl")) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the match ended before a worker could be killed"
        while len(_group_members(workers[0].pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)  # until a game runs on the worker: its two engines are in its group
        assert len(_group_members(workers[0].pid)) >= 3, "no game ran on the worker to kill"
        os.killpg(workers[0].pid, signal.SIGKILL)  # the worker and the engines of its game
        stdout, stderr = proc.communicate(timeout=170)
    finally:
        _end_group(proc.pid, grace=0)
    assert proc.returncode == 0, stderr
    records = load_records(out / "games.jsonl")
    assert sorted(r["index"] for r in records) == list(range(8)), [r["index"] for r in records]
    for r in records:
        check_record(r)
        assert r["void"] is None
        check_sgf(r, seed=1 + r["index"])
    assert sorted(p.name for p in (out / "sgf").iterdir()) == [f"default-{i:04d}.sgf" for i in range(8)]
    assert table_rows(stdout)[0].split()[:2] == ["default", "8"]


# ---- sequential tests, tournaments, clocks, versions (goengine.lab: sprt, ratings, clock)


def test_sprt_stops_when_the_test_decides_and_a_resumed_run_continues_the_same_test(tmp_path, fake):
    """The engine wins every game (the opponent passes at once, so the engine's stones own the
    board): LLR grows by 0.1336 a game for --sprt 0,50 and passes ln 19 = 2.944 at the 23rd win.
    The run stops there (with two games at once, one more may have started), far below --games."""
    out = tmp_path / "out"
    args = (
        *("--games", "200", "--jobs", "2", "--no-plot", "--sprt", "0,50"),
        *("--engine", fake("--moves", "3"), "--opponent", fake("--name", "opp", "--moves", "0")),
    )
    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert 23 <= len(records) <= 25
    assert all(r["engine_won"] is True for r in records)
    assert all(r["sprt"] == {"elo0": 0.0, "elo1": 50.0, "alpha": 0.05, "beta": 0.05} for r in records)
    (row,) = table_rows(result.stdout)
    cells = row.split()
    assert cells[-1] == "H1" and cells[-4] == f"{len(records) * 0.1335918463:+.2f}"
    assert "[-2.94, +2.94]" in row
    assert "default: H1" in result.stderr
    again = run_match(out, *args)  # resumed: the records already decide, nothing more is played
    assert again.returncode == 0 and len(records_of(out)) == len(records)
    assert "playing up to" in again.stderr and table_rows(again.stdout)[0].split()[-1] == "H1"
    report = run_match(out, "--report")
    assert table_rows(report.stdout)[0].split()[-1] == "H1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--sprt", "50,0"), "ELO0 < ELO1"),
        (("--sprt", "0,50", "--alpha", "0.8"), "--alpha must be between 0 and 0.5"),
        (("--opponent", "/no/such/engine --gtp"), "cannot run '/no/such/engine'"),
        (("--opponent", "no-such-program-anywhere"), "cannot run 'no-such-program-anywhere'"),
        (("--tournament", "--config", "a="), "a tournament needs at least two players"),
        (("--sprt", "0,50", "--tournament", "--config", "a=", "--opponent", "x=true"), "does not go with"),
        (("--time", "5+x"), "--time wants MAIN"),
        (("--opponent", "a=true", "--opponent", "b=true"), "several --opponent engines need --tournament"),
    ],
)
def test_bad_input_gets_a_clear_message_and_touches_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    result = run_match(out, *args, "--no-plot")
    assert result.returncode == 2
    assert message in result.stderr
    assert not out.exists()


def test_a_folder_of_another_engine_version_is_refused_unless_allowed(tmp_path, fake):
    out = tmp_path / "out"
    version = tmp_path / "version.txt"
    version.write_text("0.1.0+gaaaaaaaaaa")
    args = ("--games", "2", "--jobs", "1", "--no-plot", "--engine", fake("--version-file", str(version)))
    args += ("--opponent", fake("--name", "opp"))
    assert run_match(out, *args).returncode == 0
    version.write_text("0.1.0+gbbbbbbbbbb-dirty")  # the engine changed; its command line did not
    refused = run_match(out, *(a if a != "2" else "4" for a in args))
    assert refused.returncode == 2
    assert "played by 0.1.0+gaaaaaaaaaa, the engine is now 0.1.0+gbbbbbbbbbb-dirty" in refused.stderr
    assert len(records_of(out)) == 2  # touched nothing
    allowed = run_match(out, *(a if a != "2" else "4" for a in args), "--allow-mixed-commits")
    assert allowed.returncode == 0 and len(records_of(out)) == 4
    rows = table_rows(allowed.stdout)  # one row per version
    assert [row.split()[:4] for row in rows] == [
        ["default", "@", "0.1.0+gaaaaaaaaaa", "2"],
        ["default", "@", "0.1.0+gbbbbbbbbbb-dirty", "2"],
    ]


def test_a_tournament_plays_every_pair_and_rates_everyone_on_one_scale(tmp_path, fake):
    """Three players: a lays 3 stones, b 1, the opponent passes at once; with komi 0 whoever lays
    more stones wins (the stones count, the empty region touching both colours does not), so
    a > b > opp in every game."""
    out = tmp_path / "out"
    args = (
        *("--tournament", "--games", "4", "--jobs", "2", "--bootstrap", "200", "--komi", "0"),
        *("--engine", fake(), "--config", "a=--moves 3", "--config", "b=--moves 1"),
        *("--opponent", f"opp={fake('--name', 'opp', '--moves', '0')}"),
    )
    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    for pair in ("a-vs-b", "a-vs-opp", "b-vs-opp"):
        records = load_records(out / "pairs" / pair / "games.jsonl")
        assert len(records) == 4 and all(r["engine_won"] is True for r in records), pair
        assert all(r["pair"] == pair.split("-vs-") for r in records)
        assert sorted(p.name for p in (out / "pairs" / pair / "sgf").iterdir()) == [
            f"{pair}-{i:04d}.sgf" for i in range(4)
        ]
    ratings = ratings_rows(result.stdout)
    assert [row[0] for row in ratings] == ["a", "b", "opp"]
    assert ratings[2][1] == "+0"  # the anchor: the opponent
    elo_a, elo_b = int(ratings[0][1]), int(ratings[1][1])
    assert elo_a > elo_b > 0 and all(row[4] == "8" for row in ratings)  # 4 games with each of two others
    assert (out / "ratings.png").is_file()
    assert len(table_rows(result.stdout)) == 3  # and a row a pair
    report = run_match(out, "--report", "--anchor", "b")
    assert [row[:2] for row in ratings_rows(report.stdout)][1] == ["b", "+0"]


def ratings_rows(stdout: str) -> list[list[str]]:
    """The rows of the printed ratings table, split into cells."""
    lines = stdout.strip().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("player"))
    foot = next(i for i, line in enumerate(lines) if line.startswith("Bradley-Terry"))
    return [line.replace("[", " ").replace("]", " ").replace(",", " ").split() for line in lines[head + 1 : foot]]


def test_a_flag_fall_loses_on_time(tmp_path, fake):
    """Sudden death of 1 s; the engine takes 0.4 s a move and plays 5 moves: its third move
    crosses the second."""
    out = tmp_path / "out"
    args = ("--games", "1", "--time", "1", "--no-plot", "--engine", fake("--moves", "5", "--delay", "0.4"))
    result = run_match(out, *args, "--opponent", fake("--name", "opp"))
    assert result.returncode == 0, result.stderr
    (record,) = records_of(out)
    assert record["engine_black"] and record["winner"] == "W" and record["result"] == "W+T"
    assert record["reason"].startswith("time") and record["time"] == "1"
    assert len(record["black"]["times"]) == 3 and sum(record["black"]["times"]) > 1.0


GNUGO_LEVEL1 = GNUGO_LEVEL0.replace("--level 0", "--level 1")


@pytest.mark.gnugo
@pytest.mark.parametrize(
    ("clock", "time_left", "limit"),
    [
        ("30", False, 30.0),  # sudden death, time_settings only: gogui-twogtp's way
        ("30", True, 30.0),  # the same with time_left before every move
        ("5+5/5", True, None),  # Canadian byo-yomi: time_settings 5 5 5
        ("5+1x3", True, None),  # Japanese byo-yomi, KGS style: kgs-time_settings byoyomi 5 1 3
    ],
    ids=["sudden-death-no-time-left", "sudden-death-time-left", "canadian", "kgs-japanese"],
)
def test_goengine_never_loses_on_time_in_a_whole_game(tmp_path, clock, time_left, limit):
    """A whole 9x9 game on each colour against GNU Go level 1, goengine with no budget of its own
    (the clock decides) and resignation off, so the games run long (an overspend grows with the
    game's length). The referee's clock, charged each genmove's round trip, never falls for
    goengine; under sudden death its thinking time, measured from outside, stays under the main
    time, and it spends more on a middle-game move than on a late one."""
    out = tmp_path / "out"
    args = ("--games", "2", "--jobs", "2", "--time", clock, "--opponent", GNUGO_LEVEL1)
    args += ("--config", "default=--resign-threshold 0") + (() if time_left else ("--no-time-left",))
    result = run_match(out, *args, timeout=170)
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert len(records) == 2 and {r["engine_black"] for r in records} == {True, False}
    for r in records:
        side = r["black" if r["engine_black"] else "white"]
        assert not r["reason"].startswith("time"), (r["reason"], sum(side["times"]))
        assert r["time_left"] is time_left
        times = side["times"]
        if limit is not None:
            assert sum(times) < limit
            third = len(times) // 3
            middle, end = times[third : 2 * third], times[2 * third :]
            assert sum(middle) / len(middle) > sum(end) / len(end)
    assert (out / "time.png").is_file()


def test_a_resumed_run_reports_each_configuration_once(tmp_path, fake):
    """Two configurations share a folder; resumed, each progress line names each of them once,
    with the games of both runs (each folder's file is read once, not once per configuration)."""
    out = tmp_path / "out"
    args = ["--jobs", "1", "--no-plot", "--engine", fake(), "--opponent", fake("--name", "opp")]
    args += ["--config", "a=--moves 2", "--config", "b=--moves 3"]
    assert run_match(out, "--games", "2", *args).returncode == 0
    result = run_match(out, "--games", "3", *args)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith(("a#", "b#"))]
    assert len(lines) == 2
    for line in lines:
        progress = line.split("; ", 1)[1]
        assert progress.count("a ") == 1 and progress.count("b ") == 1, progress
    assert lines[-1].split("; ", 1)[1].startswith("a ") and "/3 " in lines[-1]
