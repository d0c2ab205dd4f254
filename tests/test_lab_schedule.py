"""Which games a match still has to play, and how they run (``goengine.lab.schedule``). In process:
``pending`` interleaves the configurations by game index, alternates colours, gives each game its
seed, skips finished games and games void twice and numbers the attempt; a ``Player`` finds a
program that cannot run; ``play_games`` on the job runner asks ``wanted`` just before each game and
starts none after ``stop``, and makes a referee's own failure a void game. Through
the match command between the fake engines of ``tests/match_harness.py``: a void game is
replayed once and no more, and a run stopped with games still running keeps every game played
through.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from match_harness import (
    check_record,
    check_sgf,
    load_sgf,
    records_of,
    run_match,
    table_rows,
)

from goengine.jobs import Runner
from goengine.lab import schedule
from goengine.lab.schedule import Pairing, Player, pending, play_games

ENGINE = Player("engine", "goengine --quiet", seeded=True)
OPPONENT = Player("opp", "gnugo --mode gtp")
PAIRINGS = [
    Pairing("a", ENGINE, OPPONENT, "sgf"),
    Pairing("b", Player("b", "goengine --rule ucb1", True), OPPONENT, "sgf"),
]


def test_pending_interleaves_configurations_by_game_index_alternating_colours_and_seeding_each_game():
    specs = pending(PAIRINGS, [], 3, 40, size=7, komi=5.5)
    assert [s.key for s in specs] == ["a#0", "b#0", "a#1", "b#1", "a#2", "b#2"]
    assert [s.engine_black for s in specs] == [True, True, False, False, True, True]
    assert specs[2].engine == "goengine --quiet --seed 41" and specs[2].opponent == "gnugo --mode gtp"
    assert specs[5].engine == "goengine --rule ucb1 --seed 42"
    assert all((s.size, s.komi, s.attempt, s.sgf_dir) == (7, 5.5, 0, "sgf") for s in specs)


def test_pending_skips_finished_games_and_games_void_twice_in_this_run_and_numbers_the_attempt():
    records = [
        {"config": "a", "index": 0, "void": None},
        {"config": "a", "index": 1, "void": "GtpTimeout"},
        {"config": "a", "index": 2, "void": "GtpTimeout"},
        {"config": "a", "index": 2, "void": "GtpTimeout"},
        {"config": "b", "index": 0, "void": "GtpEngineDied"},
        {"config": "b", "index": 0, "void": None},  # void once, then played
        {"config": "other", "index": 1, "void": None},  # another configuration's game: not ours
    ]
    specs = pending(PAIRINGS, records, 3, 1)
    assert [(s.key, s.attempt) for s in specs] == [("a#1", 1), ("b#1", 0), ("a#2", 2), ("b#2", 0)]
    # within one run a game is tried twice: void twice in this run, it waits for the next run
    specs = pending(PAIRINGS, records, 3, 1, this_run=records[2:4])
    assert [(s.key, s.attempt) for s in specs] == [("a#1", 1), ("b#1", 0), ("b#2", 0)]


def test_a_player_names_the_program_it_cannot_run(tmp_path):
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\n")
    assert Player("x", f"{script} --gtp").missing_program() == str(script)  # not executable
    os.chmod(script, 0o755)
    assert Player("x", f"{script} --gtp").missing_program() is None
    assert Player("x", f"{tmp_path / 'none'} --gtp").missing_program() == str(tmp_path / "none")
    assert Player("x", "no-such-program-anywhere --gtp").missing_program() == "no-such-program-anywhere"
    assert Player("x", f"{sys.executable} -m goengine").missing_program() is None
    assert Player("x", "sh -c true").missing_program() is None  # found on PATH
    assert Player("x", "  ").missing_program() == "(empty command)"


@pytest.fixture
def played(monkeypatch):
    """``Runner`` without engines: each game is "played" at once, and listed here."""
    games = []

    def play_game(spec):
        games.append(spec.key)
        return {"config": spec.config, "index": spec.index, "void": None}

    monkeypatch.setattr(schedule, "play_game", play_game)
    return games


def test_runner_asks_wanted_before_each_game_and_starts_none_after_stop(played):
    specs = pending(PAIRINGS, [], 3, 1)
    runner = Runner(1)
    asked = []

    def wanted(spec):
        asked.append(spec.key)
        return spec.config == "a"  # b has decided

    got = []
    for spec, record in play_games(runner, specs, wanted):
        got.append(record["index"])
        if spec.index == 1:
            runner.stop()
    assert played == ["a#0", "a#1"] and got == [0, 1]
    assert asked == ["a#0", "b#0", "a#1"]  # asked just before each start, none after the stop


def test_a_referee_that_fails_gives_a_void_record_and_the_others_play(monkeypatch):
    """``play_game`` records an engine's failures itself; should the referee itself raise, the
    match keeps going: that game is a void record naming the error (before, the run ended)."""

    def play_game(spec):
        if spec.index == 1:
            raise RuntimeError("a bug in the referee")
        return {"config": spec.config, "index": spec.index, "void": None}

    monkeypatch.setattr(schedule, "play_game", play_game)
    specs = pending(PAIRINGS, [], 2, 1)
    records = [record for _, record in play_games(Runner(1), specs)]
    voids = [r for r in records if r["void"]]
    assert len(records) == len(specs) and len(voids) == 2  # game 1 of each configuration
    assert voids[0]["void"] == "the referee failed: RuntimeError: a bug in the referee"
    assert voids[0]["result"] == "Void" and voids[0]["engine_won"] is None and voids[0]["moves"] == []


def test_engine_crash_mid_game_is_void_then_replayed_once_and_tried_again_by_the_next_run(tmp_path, fake):
    out = tmp_path / "out"
    args = (
        *("--games", "1", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "crash")),
    )
    result = run_match(out, *args)
    assert result.returncode == 1, result.stderr  # no game was valid
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

    # the next run tries the game again, twice (before: a game void twice was counted as done,
    # and the rerun said "playing 0" and ended with status 0 and no valid game)
    again = run_match(out, *args)
    assert again.returncode == 1 and "0 of 1 games already" in again.stderr and "playing 1" in again.stderr
    assert [(r["index"], r["attempt"]) for r in records_of(out)] == [(0, 0), (0, 1), (0, 2), (0, 3)]


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


@pytest.mark.slow
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
