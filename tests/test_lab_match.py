"""Matches (``goengine.lab.match``) as the match command plays them (``goengine-match``,
``goengine.lab.cli``; run here as ``python -m goengine.lab``, or its ``main`` in process) end to
end: a real match against GNU Go, configurations and the table, the settings that reach the games,
resuming (after a kill, refused for other settings or another engine version), ``--max-voids``,
a full disk, bad input, sequential tests (SPRT) that stop a run and a resumed run that neither
plays nor warms up once the test has decided, tournaments, and games on a Dask cluster (a local
one, and a scheduler with two worker processes one of which is killed).

The engines are the fake GTP engines of ``tests/match_harness.py`` (the ``fake`` fixture), but for
the GNU Go match. Every match runs in its own process group; when it has ended, the group must be
empty (no engine left behind), and whatever is left is killed.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from match_harness import (
    GNUGO,
    GNUGO_LEVEL0,
    check_record,
    check_sgf,
    end_group,
    group_members,
    gtp_identity,
    load_sgf,
    match_script,
    ratings_rows,
    records_of,
    run_match,
    start_match,
    table_rows,
)

from goengine import coords
from goengine.board import BLACK, WHITE, Board
from goengine.lab.records import append_record, load_records


@pytest.mark.slow
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
        assert (settings["playout_policy"], settings["prior_knowledge"]) == ("heavy", "movemodel")
        assert settings["read_ladders"] == "1" and (settings["even_visits"], settings["pattern_weight"]) == (
            "20",
            "300",
        )
        assert settings["playouts_per_move"] == "100"
        assert r[gnugo_side]["settings"] == {}  # GNU Go does not know goengine-params
        comment = load_sgf(r["sgf"]).get_root().get("C")
        # every setting, in key order: the file is made from the record as games.jsonl keeps it (lab.gamefiles)
        assert f"{engine_side} settings: " + " ".join(f"{k}={settings[k]}" for k in sorted(settings)) in comment
        assert r["reason"] == "resignation" or r["reason"].startswith(("two passes", "move cap"))
        check_sgf(r, seed=1 + r["index"])
        assert Path(r["sgf"]) == out / "sgf" / f"default-{r['index']:04d}.sgf"
        # goengine's own figures of each of its moves (kata-genmove_analyze), GNU Go's none
        figures = r[engine_side]["evaluations"]
        assert len(figures) in (r[engine_side]["moves"], r[engine_side]["moves"] + 1)  # + its resignation
        assert all(0.0 <= w <= 1.0 and v >= 99 for w, _lead, v in figures), figures
        assert r[gnugo_side]["evaluations"] == []
        nodes = [n for n in load_sgf(r["sgf"]).get_main_sequence() if n.get_move()[0] is not None]
        letter = "b" if engine_side == "black" else "w"
        assert all(n.has_property("SBKV") == (n.get_move()[0] == letter) for n in nodes)

    rows = table_rows(result.stdout)
    assert len(rows) == 1 and rows[0].split()[:2] == ["default", "2"]
    assert (out / "winrate.png").is_file()


@pytest.mark.slow
@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_a_handicap_match_against_gnugo(tmp_path):
    """Two stones for goengine (Black in every game) against GNU Go: both engines place GTP's
    fixed stones, White moves first, the referee's board and the SGF (HA, AB) start from them;
    the referee counts GNU Go's handicap bonus (N: two points for White), as GNU Go does."""
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--playouts", "100", "--opponent", GNUGO_LEVEL0, "--jobs", "2", "--no-plot"),
        *("--handicap", "2", "--komi", "0.5", "--engine-color", "black"),
        timeout=170,
    )
    assert result.returncode == 0, result.stderr
    records = sorted(records_of(out), key=lambda r: r["index"])
    assert [r["engine_black"] for r in records] == [True, True]
    for r in records:
        assert r["void"] is None, r["void"]
        assert (r["handicap"], sorted(r["handicap_stones"]), r["komi"]) == (2, ["C3", "G7"], 0.5)
        assert r["moves"][0].startswith("W ")  # White moves first
        # the moves are a legal game from the stones (the referee checked each on such a board)
        board = Board.from_stones(9, [(BLACK, coords.from_gtp(9, v)) for v in r["handicap_stones"]], WHITE)
        for move in r["moves"]:
            letter, vertex = move.split()
            board.play(BLACK if letter == "B" else WHITE, vertex)
        assert r["white_handicap_bonus"] == "N"
        if r["reason"] == "two passes":
            assert r["area_score"] == board.area_score() - 0.5 - 2
        game = load_sgf(r["sgf"])
        root = game.get_root()
        assert root.get("HA") == 2 and sorted(root.get("AB")) == [(2, 2), (6, 6)]
        settings = r["black"]["settings"]
        assert settings["dynamic_komi"] == "linear"
    # resuming as another colour or with another handicap would mix games: refused
    base = ("--games", "2", "--playouts", "100", "--opponent", GNUGO_LEVEL0, "--no-plot", "--komi", "0.5")
    for changed in (
        ("--handicap", "2", "--engine-color", "alternate"),
        ("--handicap", "3", "--engine-color", "black"),
        ("--handicap", "2", "--engine-color", "black", "--white-handicap-bonus", "0"),
    ):
        again = run_match(out, *base, *changed, timeout=60)
        assert again.returncode == 2 and "played" in again.stderr, again.stderr


@pytest.mark.slow
def test_engines_that_cannot_place_a_handicap_void_the_game(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--max-voids", "1", "--handicap", "2"),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
    )
    records = records_of(out)
    assert records and all(r["void"] for r in records)
    assert "fixed_handicap" in records[0]["void"] or "unknown command" in records[0]["void"], records[0]["void"]
    assert result.returncode != 0 or "void" in result.stderr


@pytest.mark.slow
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


@pytest.mark.slow
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
        end_group(proc.pid, grace=0)  # its pool workers and engines, orphaned
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_match_whose_every_game_is_void_exits_1_saying_why(tmp_path, fake):
    """Every game crashes: the run ends with exit status 1 and says that no game was valid, with
    the voids' reasons and how many games each voided; one valid game among voids is a match."""
    out = tmp_path / "out"
    args = ("--games", "2", "--jobs", "1", "--no-plot", "--max-voids", "10", "--opponent", fake("--name", "opp"))
    result = run_match(out, *args, "--engine", fake("--mode", "crash"))
    assert result.returncode == 1, result.stderr
    assert len(records_of(out)) == 4 and all(r["void"] for r in records_of(out))
    said = result.stderr[result.stderr.index("goengine-match: no game was valid") :]
    assert said.startswith("goengine-match: no game was valid: the 4 games played were all void:\n  GtpEngineDied: ")
    assert "exited with code 3" in said and "crashing on purpose" in said and "(4 games)" in said

    report = run_match(out, "--report", "--no-plot")  # the folder's table: voids alone, said so
    assert report.returncode == 1, report.stderr
    assert "goengine-match: no game was valid: the 4 games recorded were all void" in report.stderr

    some = run_match(tmp_path / "some", *args, "--engine", fake("--mode", "crash", "--only-seeds", "1"))
    assert some.returncode == 0, some.stderr  # game 0 void twice, game 1 valid
    assert run_match(tmp_path / "some", "--report", "--no-plot").returncode == 0
    assert "no game was valid" not in some.stderr
    assert sorted((r["index"], bool(r["void"])) for r in records_of(tmp_path / "some")) == [
        (0, True),
        (0, True),
        (1, False),
    ]


def test_no_valid_game_names_each_reason_with_its_count_most_frequent_first():
    from goengine.lab.match import no_valid_game

    assert no_valid_game([]) is None  # nothing played: nothing to say
    assert no_valid_game([{"void": "A"}, {"void": None}]) is None
    assert no_valid_game([{"void": "A"}]) == "no game was valid: the one game played was void:\n  A (1 game)"
    played = [{"void": reason} for reason in "ABBCDEFGG"]
    assert no_valid_game(played, shown=3) == (
        "no game was valid: the 9 games played were all void:\n  B (2 games)\n  G (2 games)\n  A (1 game)\n"
        "  and 4 other reasons"
    )


def test_a_full_disk_stops_the_run_and_keeps_the_record(tmp_path, fake, monkeypatch, capsys):
    """The second game cannot be written (ENOSPC): its record goes to stderr, no new game starts,
    the run ends with status 2, and the game saved before it is intact."""
    script = match_script()
    saved = []

    def append(path, record):
        if saved:
            raise OSError(errno.ENOSPC, "No space left on device")
        saved.append(record)
        append_record(path, record)

    monkeypatch.setattr(importlib.import_module("goengine.lab.match"), "append_record", append)
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--sprt", "50,0"), "ELO0 < ELO1"),
        (("--sprt", "0,50", "--alpha", "0.8"), "argument --alpha: a probability above 0 and at most 0.5, not 0.8"),
        (("--opponent", "/no/such/engine --gtp"), "cannot run '/no/such/engine'"),
        (("--opponent", "no-such-program-anywhere"), "cannot run 'no-such-program-anywhere'"),
        (("--tournament", "--config", "a="), "a tournament needs at least two players"),
        (("--sprt", "0,50", "--tournament", "--config", "a=", "--opponent", "x=true"), "does not go with"),
        (("--time", "5+x"), "--time wants MAIN"),
        (("--opponent", "a=true", "--opponent", "b=true"), "several --opponent engines need --tournament"),
        (("--seconds", "30", "--timeout", "20"), "--timeout 20 s is shorter than a move may take"),
        (("--time", "300", "--timeout", "120"), "--time 300 allows 300 s; give --timeout 335 or more"),
    ],
)
def test_bad_input_gets_a_clear_message_and_touches_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    result = run_match(out, *args, "--no-plot")
    assert result.returncode == 2
    assert message in result.stderr
    assert not out.exists()


@pytest.mark.slow
def test_sprt_stops_when_the_test_decides_and_a_resumed_run_continues_the_same_test(tmp_path, fake):
    """The engine wins every game (the opponent passes at once, so the engine's stones own the
    board): LLR grows by 0.1336 a game for --sprt 0,50 and passes ln 19 = 2.944 at the 23rd win.
    The run stops there (with two games at once, one more may have started), far below --games.
    Resumed, the decided configuration is neither counted as to play nor warmed up: no engine
    starts with a seed (the engine logs each start's command line; the version check starts it
    without one)."""
    out = tmp_path / "out"
    starts = tmp_path / "engine-starts.log"
    args = (
        *("--games", "200", "--jobs", "2", "--no-plot", "--sprt", "0,50"),
        *("--engine", fake("--moves", "3", "--log", str(starts))),
        *("--opponent", fake("--name", "opp", "--moves", "0")),
    )
    result = run_match(out, *args)
    assert result.returncode == 0, result.stderr
    first_run = starts.read_text().splitlines()
    assert sum(line.endswith("--seed 0") for line in first_run) == 1  # the warm-up: seed 0, which no game uses
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
    assert f"{len(records)} of 200 games already in" in again.stderr  # the games played, not the decided ones
    assert "; playing up to 0 (2 at once)" in again.stderr and table_rows(again.stdout)[0].split()[-1] == "H1"
    resumed = starts.read_text().splitlines()[len(first_run) :]
    assert not [line for line in resumed if "--seed" in line], resumed  # no warm-up, no game
    report = run_match(out, "--report")
    assert table_rows(report.stdout)[0].split()[-1] == "H1"


@pytest.mark.slow
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


@pytest.mark.slow
def test_dask_cluster_run(tmp_path, fake, dask_cluster):
    cluster, _ = dask_cluster
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "2", "--no-plot", "--cluster", cluster.scheduler_address),
        *("--engine", fake(), "--opponent", fake("--name", "opp")),
    )
    _check_cluster_run(out, result)


@pytest.mark.slow
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


@pytest.mark.slow
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
        while len(group_members(workers[0].pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)  # until a game runs on the worker: its two engines are in its group
        assert len(group_members(workers[0].pid)) >= 3, "no game ran on the worker to kill"
        os.killpg(workers[0].pid, signal.SIGKILL)  # the worker and the engines of its game
        stdout, stderr = proc.communicate(timeout=170)
    finally:
        end_group(proc.pid, grace=0)
    assert proc.returncode == 0, stderr
    records = load_records(out / "games.jsonl")
    assert sorted(r["index"] for r in records) == list(range(8)), [r["index"] for r in records]
    for r in records:
        check_record(r)
        assert r["void"] is None
        check_sgf(r, seed=1 + r["index"])
    assert sorted(p.name for p in (out / "sgf").iterdir()) == [f"default-{i:04d}.sgf" for i in range(8)]
    assert table_rows(stdout)[0].split()[:2] == ["default", "8"]


def test_a_pool_loses_no_game_and_voids_none_when_a_worker_is_killed(tmp_path, fake):
    """``--games 6 --jobs 2``; goengine's engine in game 1 kills its pool worker with SIGKILL (once):
    the game on the other worker goes on, the killed game is played again, and the run finishes
    every game once, none void, with no traceback. (Before: the other worker's game was void too,
    goengine-match died with a BrokenProcessPool traceback and games 2-5 were never played.)"""
    out = tmp_path / "out"
    marker = tmp_path / "killed"
    engine = fake("--mode", "kill-parent", "--only-seeds", "2", "--marker", str(marker), "--delay", "0.2")
    result = run_match(out, *("--games", "6", "--jobs", "2", "--no-plot"), *("--engine", engine, "--opponent", fake()))
    assert result.returncode == 0, result.stderr
    assert marker.exists() and "Traceback" not in result.stderr
    records = load_records(out / "games.jsonl")
    assert sorted(r["index"] for r in records) == list(range(6))
    assert all(r["void"] is None for r in records)
    assert table_rows(result.stdout)[0].split()[:2] == ["default", "6"]


def test_a_match_killed_with_sigkill_leaves_no_worker_or_engine_behind(tmp_path, fake):
    """``kill -9`` of ``goengine-match --jobs 2`` while two games run: its two pool workers and
    the four engines of their games end too, at once, not after their games. (Before: the
    workers were left, and their engines played on for half a minute.)"""
    out = tmp_path / "out"
    slow = fake("--delay", "5", "--moves", "4")
    proc = start_match(out, *("--games", "4", "--jobs", "2", "--no-plot"), *("--engine", slow, "--opponent", fake()))
    try:
        deadline = time.monotonic() + 120
        while len(group_members(proc.pid)) < 7 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the match, its two workers, and two engines a game
        assert len(group_members(proc.pid)) >= 7, "the games never started"
        proc.kill()
        proc.communicate(timeout=60)
        deadline = time.monotonic() + 4  # well within a move of 5 s: nothing waits for its game to end
        while group_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert group_members(proc.pid) == []
    finally:
        end_group(proc.pid, grace=0)


# ---- threads: a match pins goengine to one thread unless told (tests/test_lab_engines.py)


@pytest.mark.slow
@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_a_match_records_the_thread_count_and_keeps_games_within_the_cores(tmp_path):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--playouts", "50", "--opponent", GNUGO_LEVEL0, "--no-plot", "--jobs", "64"),
        *("--config", "two=--threads 2 --max-memory 64"),
        timeout=170,
    )
    assert result.returncode == 0, result.stderr
    cores = os.cpu_count() or 1
    assert f"2 threads a game on {cores} cores: {max(1, cores // 2)} game(s) at once" in result.stderr
    (record,) = records_of(out)
    assert "--threads 2" in record["black_command"]
    assert record["black"]["settings"]["search_threads"] == "2"
