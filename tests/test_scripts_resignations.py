"""``scripts/resignations.py``: GNU Go's estimate at each of goengine's resignations, read from a
match folder's records, handicap stones included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from match_harness import GNUGO

from goengine.lab.records import append_record

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "resignations.py"


def resigned(index: int, stones: list[str], moves: list[str], engine_black: bool) -> dict:
    return {
        "config": "c",
        "index": index,
        "size": 9,
        "komi": 0.5,
        "handicap": len(stones),
        "handicap_stones": stones,
        "moves": moves,
        "n_moves": len(moves),
        "engine_black": engine_black,
        "engine_won": False,
        "reason": "resignation",
    }


def test_a_damaged_records_file_is_named_in_one_line_without_a_traceback(tmp_path):
    path = tmp_path / "games.jsonl"
    append_record(path, resigned(0, [], ["D4"], True))
    with path.open("a") as handle:
        handle.write("not a record\n")
    append_record(path, resigned(1, [], ["D4"], True))
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("resignations.py: ") and "line 2" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_the_handicap_stones_are_on_the_board_gnugo_judges(tmp_path):
    """goengine White resigned after one move against 18 stones: far behind with the stones on
    the board, ahead (a lone stone against nothing) if they were left out. goengine Black resigned
    an even game after two moves: a stone each, komi 0.5 for White, so behind by half a point."""
    rows = [f"{c}{r}" for c in "ABCDEFGHJ" for r in (1, 2)]  # Black's first two rows: 18 stones
    append_record(tmp_path / "games.jsonl", resigned(0, rows, ["W E5"], engine_black=False))
    append_record(tmp_path / "games.jsonl", resigned(1, [], ["B E5", "W C5"], engine_black=True))
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    handicap = next(line for line in lines if line.startswith("c #0"))
    margin = float(handicap.rsplit("goengine ", 1)[1])
    assert margin < -10.0, handicap  # Black's stones count: White is well behind
    even = next(line for line in lines if line.startswith("c #1"))
    assert float(even.rsplit("goengine ", 1)[1]) < 0.0, even
    assert "GNU Go has goengine behind in 2 of 2 resignations" in done.stdout
