"""The referee (``goengine.lab.referee``): one game between two GTP engines, as its record tells it.

Each game is played by ``scripts/match.py`` between the fake engines of ``tests/match_harness.py``:
a hanging engine is timed out and its games voided, a garbage answer voids the game, an illegal
move loses it, an engine flooding its stderr still plays its game to the end, and under a clock a
fallen flag loses on time.
"""

from __future__ import annotations

import time

from match_harness import (
    check_record,
    check_sgf,
    records_of,
    run_match,
    table_rows,
)


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
