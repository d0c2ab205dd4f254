"""The match laboratory's test harness: ``python -m goengine.lab`` (the ``goengine-match`` command
from a checkout) run as a subprocess between fake GTP engines, and what its tests check in the
records, the SGF files and the printed tables.

``FAKE_ENGINE`` is a small Python script (written into ``tmp_path`` by ``fake_engine``; the
``fake`` fixture of ``conftest.py``) that plays a few fixed, far-apart moves and then passes, and
can be told to crash, hang, answer garbage, play an illegal move, flood its stderr or be slow
(to start, to make its first move, or every move), for every game or only for some seeds (the
seed on the engine's command line is ``--seed + game index``, so a seed picks a game), and to
log each start's command line (``--log FILE``).

Every match runs in its own process group (``start_match``); when it has ended, the group must be
empty (no engine left behind), and whatever is left is killed (``run_match``, ``end_group``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goengine.lab.client import GtpClient
from goengine.lab.records import load_records

ROOT = Path(__file__).resolve().parent.parent
MATCH = [sys.executable, "-m", "goengine.lab"]  # goengine-match, from this checkout
GNUGO = "/usr/games/gnugo"
GNUGO_LEVEL0 = f"{GNUGO} --mode gtp --chinese-rules --positional-superko --capture-all-dead --level 0"
GNUGO_LEVEL1 = GNUGO_LEVEL0.replace("--level 0", "--level 1")
HAVE_GNUGO = os.access(GNUGO, os.X_OK)
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
"""A fake GTP engine for the match laboratory's tests (tests/match_harness.py)."""

import argparse
import os
import shlex
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--mode", default="normal")  # normal crash hang garbage illegal kill-parent
p.add_argument("--only-seeds", default="")  # the mode applies to these seeds only
p.add_argument("--marker", default="")  # the mode applies once: while this file does not exist
p.add_argument("--delay", type=float, default=0.0)  # seconds before each genmove answer
p.add_argument("--seed-delay", action="append", default=[])  # SEED=SECONDS, overrides --delay
p.add_argument("--startup-delay", type=float, default=0.0)  # seconds before its first answer (a slow launch)
p.add_argument("--first-delay", type=float, default=0.0)  # seconds more before its first genmove answer
p.add_argument("--moves", type=int, default=3)  # moves before passing
p.add_argument("--stderr-mb", type=float, default=0.0)  # megabytes written to stderr per genmove
p.add_argument("--name", default="fake")
p.add_argument("--version-file", default="")  # answer GTP version with this file's text
p.add_argument("--seed", type=int, default=0)
p.add_argument("--log", default="")  # append this start's command line to this file
args, _ = p.parse_known_args()

if args.log:
    with open(args.log, "a") as log:
        log.write(shlex.join(sys.argv[1:]) + "\n")

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
time.sleep(args.startup_delay)
first_genmove = True


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
        time.sleep(delay + (args.first_delay if first_genmove else 0.0))
        first_genmove = False
        if args.stderr_mb:
            chunk = b"x" * 65535 + b"\n"
            for _ in range(int(args.stderr_mb * 16)):
                sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
        if mode == "crash":
            sys.stderr.write("fake: crashing on purpose\n")
            sys.exit(3)
        if mode == "kill-parent":  # the process that started it (a pool's worker), as the OOM killer would
            import signal

            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(3600)  # its parent's death ends it (or the end of its input)
        if mode == "hang":
            time.sleep(3600)  # longer than any test: only a timeout ends it
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


def fake_engine(tmp_path: Path):
    """``command(*options)``: the command line of the fake engine (written into ``tmp_path``) with
    these options."""
    path = tmp_path / "fake_gtp.py"
    path.write_text(FAKE_ENGINE, encoding="utf-8")

    def command(*options: str) -> str:
        return shlex.join([sys.executable, str(path), *options])

    return command


# ---- running the match command


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def end_group(pgid: int, grace: float = 5.0) -> bool:
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
        [*MATCH, "--out", str(out), "--no-progress", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
        start_new_session=True,  # its own process group: the engines of a killed run can be found
    )


def run_match(out, *args: str, timeout: float = 120.0, cwd=None) -> subprocess.CompletedProcess:
    """Run the match command to the end; fail if it takes longer than ``timeout`` or leaves a
    process behind."""
    proc = start_match(out, *args, cwd=cwd)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_group(proc.pid, grace=0)
        stdout, stderr = proc.communicate()
        pytest.fail(f"goengine-match {' '.join(args)} took more than {timeout} s\n{stdout}\n{stderr}")
    leftovers = end_group(proc.pid)
    assert not leftovers, f"processes left behind by goengine-match {' '.join(args)}"
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
    """``name version`` as the engine of ``command`` answers them."""
    with GtpClient(shlex.split(command), timeout=60) as client:
        return f"{client.send('name')} {client.send('version')}"


def ratings_rows(stdout: str) -> list[list[str]]:
    """The rows of the printed ratings table, split into cells."""
    lines = stdout.strip().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("player"))
    foot = next(i for i, line in enumerate(lines) if line.startswith("Bradley-Terry"))
    return [line.replace("[", " ").replace("]", " ").replace(",", " ").split() for line in lines[head + 1 : foot]]


def group_members(pgid: int) -> list[int]:
    """The processes of a process group (from /proc)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:  # after the command name: state, ppid, pgrp
                members.append(int(stat.parent.name))
    return members


# ---- hand-made records


def hand_record(config, index, engine_won, *, void=None, disagree=False, reason="two passes", n_moves=10):
    """A record as ``lab.referee.play_game`` writes one, with only what ``lab.stats`` and
    ``lab.report`` read: game ``index`` of ``config`` (the engine Black in even games), won by the
    engine (True), lost (False) or drawn (None), or ``void``."""
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


def match_script():
    """The match command's module (``goengine.lab.cli``, which ``python -m goengine.lab`` runs), so a
    test can call its ``main`` in process."""
    return importlib.import_module("goengine.lab.cli")
