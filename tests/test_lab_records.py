"""Game records on disk (``goengine.lab.records``): one JSON object a line, in the order appended; a
torn last line (a crash mid-write) is skipped when read, and ended before the next record is
appended, so the replayed game's record is kept (in process, and through ``scripts/match.py``);
which games are finished and how often each was void."""

from __future__ import annotations

import json

import pytest
from match_harness import (
    run_match,
    table_rows,
)

from goengine.lab.records import append_record, finished_keys, load_records, void_counts


def test_load_records_skips_a_torn_last_line(tmp_path):
    path = tmp_path / "games.jsonl"
    for i in range(3):
        append_record(path, {"config": "c", "index": i, "void": None})
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 12], encoding="utf-8")  # a crash in the middle of the last write
    assert [r["index"] for r in load_records(path)] == [0, 1]
    assert load_records(tmp_path / "missing.jsonl") == []


def test_records_are_read_back_in_the_order_appended_one_line_each(tmp_path):
    path = tmp_path / "deeper" / "games.jsonl"  # the folder is made
    records = [
        {"config": "c", "index": i, "void": None, "moves": ["B C3"], "note": "\u00e9t\u00e9\n"} for i in range(4)
    ]
    for record in records:
        append_record(path, record)
    assert load_records(path) == records
    assert len(path.read_text(encoding="utf-8").splitlines()) == 4
    path.write_text(path.read_text(encoding="utf-8") + "\n\n", encoding="utf-8")  # blank lines are skipped
    assert load_records(path) == records


def test_append_ends_a_torn_last_line_before_its_own_record(tmp_path):
    path = tmp_path / "games.jsonl"
    for i in range(2):
        append_record(path, {"config": "c", "index": i, "void": None})
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 5], encoding="utf-8")  # record 1 torn
    append_record(path, {"config": "c", "index": 1, "void": None, "attempt": 1})
    assert [(r["index"], r.get("attempt")) for r in load_records(path)] == [(0, None), (1, 1)]


def test_a_game_is_finished_once_a_record_is_not_void_and_voids_are_counted_per_game():
    records = [
        {"config": "a", "index": 0, "void": None},
        {"config": "a", "index": 1, "void": "GtpTimeout"},
        {"config": "a", "index": 1, "void": "GtpTimeout"},
        {"config": "a", "index": 2, "void": "GtpEngineDied"},
        {"config": "a", "index": 2},  # no void field: a finished game
        {"config": "b", "index": 0, "void": "GtpProtocolError"},
    ]
    assert finished_keys(records) == {"a#0", "a#2"}
    assert void_counts(records) == {"a#1": 2, "a#2": 1, "b#0": 1}
    assert finished_keys([]) == set() and void_counts([]) == {}


@pytest.mark.slow
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
