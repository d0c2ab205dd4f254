"""Game records on disk (``goengine.lab.records``): one JSON object a line, in the order appended; a
torn last line (a crash mid-write) is skipped when read with a word naming the file and the line,
and cut off the file (every complete record kept byte for byte) before the next record is
appended, or before a match plays, so the replayed game's record is kept and no fragment stays
(in process, and through the match command); any other line that is not a record is an error
naming the file and the line; which games are finished and how often each was void."""

from __future__ import annotations

import json

import pytest
from match_harness import (
    hand_record,
    run_match,
    table_rows,
)

from goengine.lab.records import (
    CorruptRecords,
    append_record,
    finished_keys,
    load_records,
    read_records,
    remove_torn_line,
    void_counts,
)


def three_records_the_last_torn(path):
    """A file of three records whose last write was cut 12 bytes short; its bytes."""
    for i in range(3):
        append_record(path, {"config": "c", "index": i, "void": None})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 12])  # a crash in the middle of the last write
    return data


def test_load_records_skips_a_torn_last_line_and_says_which_file_and_line(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    three_records_the_last_torn(path)
    before = path.read_bytes()
    assert [r["index"] for r in load_records(path)] == [0, 1]
    err = capsys.readouterr().err
    assert f"{path}, line 3: a torn record" in err and "skipped" in err
    assert path.read_bytes() == before  # reading changes nothing (a report, another process)
    assert load_records(tmp_path / "missing.jsonl") == []


def test_remove_torn_line_cuts_the_fragment_and_keeps_every_complete_record_byte_for_byte(tmp_path):
    path = tmp_path / "games.jsonl"
    whole = three_records_the_last_torn(path)
    records, torn = read_records(path)
    assert [r["index"] for r in records] == [0, 1] and torn.line == 3
    remove_torn_line(torn)
    complete = whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 1]  # the first two lines
    assert path.read_bytes() == complete
    assert read_records(path) == (records, None)


def test_remove_torn_line_leaves_a_file_that_grew_since_it_was_read(tmp_path):
    path = tmp_path / "games.jsonl"
    three_records_the_last_torn(path)
    _, torn = read_records(path)
    with path.open("ab") as handle:
        handle.write(b'"more"}\n')  # another process went on writing
    grown = path.read_bytes()
    with pytest.raises(ValueError, match="changed while it was read"):
        remove_torn_line(torn)
    assert path.read_bytes() == grown


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (lambda lines: [lines[0], b"{not json", *lines[1:]], 2),  # a bad line among good ones
        (lambda lines: [lines[0][:20], *lines[1:]], 1),  # a record torn, then others written after it
        (lambda lines: [*lines, b"[1, 2]"], 4),  # JSON, but not a record
        (lambda lines: [*lines[:-1], lines[-1][:-5] + b"\n"], 3),  # the last line is cut but ended
    ],
    ids=["a bad line among records", "a torn line with records after it", "not an object", "cut and ended"],
)
def test_a_bad_line_but_a_torn_last_one_is_an_error_naming_file_and_line(tmp_path, damage, line):
    path = tmp_path / "games.jsonl"
    for i in range(3):
        append_record(path, {"config": "c", "index": i, "void": None})
    path.write_bytes(b"\n".join(damage(path.read_bytes().split(b"\n")[:-1])) + b"\n")
    damaged = path.read_bytes()
    with pytest.raises(CorruptRecords, match=f"{path}, line {line}: not a game record"):
        load_records(path)
    assert path.read_bytes() == damaged  # nothing dropped, nothing cut


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


def test_append_removes_a_torn_last_line_before_its_own_record(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    for i in range(2):
        append_record(path, {"config": "c", "index": i, "void": None})
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 5], encoding="utf-8")  # record 1 torn
    append_record(path, {"config": "c", "index": 1, "void": None, "attempt": 1})
    assert f"{path}, line 2: a torn record" in capsys.readouterr().err
    assert [(r["index"], r.get("attempt")) for r in load_records(path)] == [(0, None), (1, 1)]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(line) for line in lines)  # no fragment left in the file


def test_append_ends_a_last_record_written_without_its_end_of_line(tmp_path):
    path = tmp_path / "games.jsonl"
    append_record(path, {"config": "c", "index": 0, "void": None})
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # a complete record, by hand: kept
    assert read_records(path) == ([{"config": "c", "index": 0, "void": None}], None)
    append_record(path, {"config": "c", "index": 1, "void": None})
    assert [r["index"] for r in load_records(path)] == [0, 1]


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
    next run says so (file and line), cuts the fragment off before it plays, replays that game
    and keeps its record: every line of the file is a record again."""
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
    assert f"{jsonl}, line 3: a torn record" in result.stderr and "skipped; its game is played again" in result.stderr
    assert f"{jsonl}, line 3: the torn record's" in result.stderr and "bytes removed" in result.stderr
    assert "2 of 3 games already in" in result.stderr
    assert f"default#{lost}:" in result.stderr  # the torn game was replayed
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "3"]
    # The replayed game's record must survive in the file, not only in this run's memory, and the
    # fragment must be gone from it.
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines[:2]] == survivors
    assert sorted(json.loads(line)["index"] for line in lines) == [0, 1, 2]


def test_a_match_refuses_a_damaged_records_file_naming_file_and_line_and_touches_nothing(tmp_path, fake):
    """A line that is not a record before the last one is no crash mid-write: the match stops
    before it plays, with the file and the line, and leaves the file as it is; so does --report."""
    out = tmp_path / "out"
    jsonl = out / "games.jsonl"
    for i in range(2):
        append_record(jsonl, hand_record("default", i, True))
    damaged = jsonl.read_bytes().replace(b"\n", b"\n{garbage\n", 1)
    jsonl.write_bytes(damaged)
    args = ("--games", "3", "--jobs", "1", "--no-plot", "--engine", fake(), "--opponent", fake("--name", "opp"))
    for run in (args, ("--report", "--no-plot")):
        result = run_match(out, *run)
        assert result.returncode == 2
        assert f"{jsonl}, line 2: not a game record" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
        assert jsonl.read_bytes() == damaged
    assert not (out / "sgf").exists()  # no game played
