"""The referee (``goengine.lab.referee``): one game between two GTP engines, as its record tells it.

Each game is played by the match command (``python -m goengine.lab``) between the fake engines of
``tests/match_harness.py``: a hanging engine is timed out and its games voided, an engine slow to
start and to make its first move is given the start-up allowance (``--startup-timeout``) and no
more after its first move (``--timeout``), a garbage answer voids the game, an illegal move loses
it, an engine flooding its stderr still plays its game to the end, and under a clock a fallen flag
loses on time, on the move whose time crossed it.
"""

from __future__ import annotations

import shlex

import pytest
from gtp_harness import GtpHarness
from match_harness import (
    GNUGO_LEVEL0,
    HAVE_GNUGO,
    check_record,
    check_sgf,
    records_of,
    run_match,
    table_rows,
)

from goengine.board import BLACK, WHITE, Board
from goengine.config import EngineConfig, SearchConfig
from goengine.lab.client import GtpClient, GtpError
from goengine.lab.referee import GENMOVE_ANALYSIS, read_genmove_analysis, replay_record


@pytest.mark.slow
def test_hanging_engine_times_out(tmp_path, fake):
    """The opponent sleeps for an hour on its first genmove: the game is void on the referee's
    timeout (``--timeout 2``; the first move is part of the engine's start-up, so
    ``--startup-timeout 2`` too), twice (the replay hangs too), and the run ends; run_match checks
    that the hanging engines were killed, not left behind (its 120 s limit is the guard against
    a referee that waits for them)."""
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "2", "--startup-timeout", "2"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "hang")),
    )
    assert result.returncode == 1, result.stderr  # no game was valid
    records = records_of(out)
    assert [(r["index"], r["attempt"]) for r in records] == [(0, 0), (0, 1)]
    for r in records:
        check_record(r)
        assert r["void"] and "GtpTimeout" in r["void"] and "genmove" in r["void"]


@pytest.mark.slow
def test_an_engine_slow_to_start_and_to_make_its_first_move_is_given_the_startup_allowance(tmp_path, fake):
    """The opponent answers its first command after 3 s (a slow launch) and its first genmove 3 s
    later still (goengine compiling its kernels on a cold cache): with ``--timeout 2`` both are
    within ``--startup-timeout``, and the game is played to its end."""
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "2", "--startup-timeout", "30"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--startup-delay", "3", "--first-delay", "3")),
    )
    assert result.returncode == 0, result.stderr
    (record,) = records_of(out)
    check_record(record)
    assert record["void"] is None and record["reason"] == "two passes"
    assert record["white"]["times"][0] >= 3  # the opponent's first move, past --timeout


@pytest.mark.slow
def test_the_startup_allowance_ends_with_the_first_move(tmp_path, fake):
    """The opponent takes 2.5 s a move: its first is within the start-up allowance, its second is
    past ``--timeout 2`` and voids the game (twice: the replay too)."""
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "2", "--startup-timeout", "30"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--delay", "2.5")),
    )
    assert result.returncode == 1, result.stderr  # no game was valid
    records = records_of(out)
    assert [(r["index"], r["attempt"]) for r in records] == [(0, 0), (0, 1)]
    for r in records:
        assert "GtpTimeout" in r["void"] and "genmove w" in r["void"]
        assert r["white"]["moves"] == 1 and r["white"]["times"][0] >= 2.5


def test_garbage_answer_is_void(tmp_path, fake):
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--mode", "garbage")),
    )
    assert result.returncode == 1, result.stderr  # no game was valid
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
    """The opponent writes 4 MB to stderr with every move, far more than a pipe holds: were it not
    drained, the engine would block and the game end void on the timeout; it ends on two passes."""
    out = tmp_path / "out"
    result = run_match(
        out,
        *("--games", "1", "--jobs", "1", "--no-plot", "--timeout", "20"),
        *("--engine", fake(), "--opponent", fake("--name", "opp", "--stderr-mb", "4")),
    )
    assert result.returncode == 0, result.stderr
    (record,) = records_of(out)
    check_record(record)
    assert record["void"] is None and record["reason"] == "two passes"
    assert record["white"]["moves"] > 0  # the flooding engine played


def test_a_flag_fall_loses_on_time(tmp_path, fake):
    """Sudden death of 1 s; the engine takes at least 0.4 s a move (its round trip on top) and
    would play 5 moves: the game is lost on time on the move whose time crossed the second (the
    third at the latest), not before it."""
    out = tmp_path / "out"
    args = ("--games", "1", "--time", "1", "--no-plot", "--engine", fake("--moves", "5", "--delay", "0.4"))
    result = run_match(out, *args, "--opponent", fake("--name", "opp"))
    assert result.returncode == 0, result.stderr
    (record,) = records_of(out)
    assert record["engine_black"] and record["winner"] == "W" and record["result"] == "W+T"
    assert record["reason"].startswith("time") and record["time"] == "1"
    times = record["black"]["times"]  # each rounded to 0.1 ms
    assert all(t >= 0.4 for t in times) and len(times) <= 3
    assert sum(times[:-1]) <= 1.0 + 1e-3 and sum(times) > 1.0 - 1e-3
    # the time profile follows the table: the clock the engine used, its moves all in stage one
    profile = result.stdout[result.stdout.index("clock used") :].splitlines()
    assert profile[1].split() == [
        record["config"],
        "1",
        f"{sum(times):.1f}",
        "s",
        f"{sum(times) / len(times):.2f}",
        "-",
        "-",
        "-",
    ]


def test_a_genmove_analysis_is_read_into_the_move_and_the_roots_figures():
    text = (
        "info move D4 visits 122 winrate 0.475410 scoreLead 0.188525 order 0 pv D4 G4 "
        "rootInfo visits 499 winrate 0.482966 scoreMean 0.734469 scoreLead 0.734469\nplay D4\n"
    )
    assert read_genmove_analysis(text) == ("D4", [0.482966, 0.734469, 499.0])
    # the last report counts; an engine without rootInfo, or a figure not a number, gives no figures
    assert read_genmove_analysis(text.replace("play D4", "info rootInfo visits 9 winrate 1 scoreLead -2\nplay pass"))[
        1
    ] == [1.0, -2.0, 9.0]
    assert read_genmove_analysis("info move D4 visits 3 winrate 0.5 order 0 pv D4\nplay D4") == ("D4", None)
    assert read_genmove_analysis("rootInfo visits 3 winrate nan scoreLead 0\nplay resign") == ("resign", None)
    with pytest.raises(GtpError, match="no play line"):
        read_genmove_analysis("info move D4 visits 3 winrate 0.5")


def test_a_move_asked_through_genmove_analysis_is_the_move_genmove_plays():
    # the research setting, one seed: the same game either way, and figures a win rate can have
    research = SearchConfig(playout="uniform", prior="none", expand_at=1, playouts=300, seed=7)
    plain = GtpHarness(EngineConfig(size=9, search=research))
    reported = GtpHarness(EngineConfig(size=9, search=research))
    for k in range(8):
        letter = "bw"[k % 2]
        move = plain.ok(f"genmove {letter}")
        answer, figures = read_genmove_analysis(reported.ok(f"kata-genmove_analyze {letter} {GENMOVE_ANALYSIS}"))
        assert answer == move
        winrate, _lead, visits = figures
        assert 0.0 <= winrate <= 1.0 and visits >= 299


@pytest.mark.gnugo
@pytest.mark.skipif(not HAVE_GNUGO, reason="GNU Go not installed")
def test_a_record_replayed_into_gnugo_gives_the_position_our_board_gives():
    """A 9x9 record with two handicap stones and a capture (White's D3, taken by D2 between
    C3, E3 and D4): GNU Go, given it by ``replay_record``, lists the stones our own Board has
    after the same moves, D3 empty; a move GNU Go refuses (onto a stone) is raised, not skipped."""
    record = {
        "size": 9,
        "komi": 0.5,
        "handicap_stones": ["G7", "C3"],
        "moves": ["W D3", "B E3", "W F5", "B D4", "W F6", "B D2"],
    }
    board = Board(9)
    for vertex in record["handicap_stones"]:
        board.play(BLACK, vertex)
    for move in record["moves"]:
        color, vertex = move.split()
        board.play(BLACK if color == "B" else WHITE, vertex)
    assert board.color_at("D3") not in (BLACK, WHITE)
    ours = {c: sorted(v for v in _all_vertices(9) if board.color_at(v) == c) for c in (BLACK, WHITE)}
    with GtpClient(shlex.split(GNUGO_LEVEL0), timeout=60) as gnugo:
        replay_record(gnugo, record)
        for color, name in ((BLACK, "black"), (WHITE, "white")):
            assert sorted(gnugo.send(f"list_stones {name}").split()) == ours[color]
        with pytest.raises(GtpError):
            replay_record(gnugo, {**record, "moves": [*record["moves"], "W C3"]})


def _all_vertices(size: int) -> list[str]:
    return [f"{col}{row}" for col in "ABCDEFGHJKLMNOPQRST"[:size] for row in range(1, size + 1)]
