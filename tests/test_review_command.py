"""The review command's run (``goengine.review.command.review``): bad files named with their
reasons and the others reviewed, a non-zero status; outputs beside each game; folders; a
missing extra refused before any search; a review that cannot be written or a search that fails
named; and, marked slow, the positions sent to a local Dask cluster."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from goengine import coords
from goengine.board import BLACK
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.review import analyse as analyse_module
from goengine.review import command
from goengine.review.command import ReviewSettings, budget_words, game_files, review

DATA = Path(__file__).parent / "data"
SETTINGS = ReviewSettings(EngineConfig(search=SearchConfig(threads=1, seed=5)), Budget(playouts=100), progress=False)
GAME = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg];W[gg];B[cc];W[fe])"


def run(paths, settings: ReviewSettings = SETTINGS) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = review(paths, settings, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_bad_files_are_named_with_their_reasons_and_the_others_reviewed(tmp_path):
    good = tmp_path / "good.sgf"
    good.write_text(GAME)
    (tmp_path / "text.sgf").write_text("a shopping list")
    (tmp_path / "illegal.sgf").write_text("(;GM[1]SZ[9];B[ee];W[ee])")
    status, out, err = run([tmp_path / "text.sgf", good, tmp_path / "illegal.sgf", tmp_path / "missing.sgf"])
    assert status == 1
    assert f"{tmp_path / 'text.sgf'}: bad SGF" in err
    assert f"{tmp_path / 'illegal.sgf'}: move 2 (W E5) cannot be played" in err
    assert f"{tmp_path / 'missing.sgf'}: cannot read it" in err
    assert "Traceback" not in err and "3 file(s) not reviewed" in err
    assert (tmp_path / "good-review.sgf").exists() and (tmp_path / "good-review.png").exists()
    assert out.startswith(f"{good}: 6 moves reviewed at 100 playouts a position, komi 7 (the file's KM)")
    assert "Black's biggest mistakes:" in out and "White's biggest mistakes:" in out
    assert not (tmp_path / "text-review.sgf").exists()


def test_every_game_reviewed_gives_status_zero_and_a_line_a_game_on_stderr(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgf").write_text(GAME)
    status, out, err = run(
        [tmp_path / "a.sgf", tmp_path / "b.sgf"], ReviewSettings(**{**vars(SETTINGS), "plot": False})
    )
    assert status == 0
    assert f"[1/2] {tmp_path / 'a.sgf'}: reviewed, 6 moves: {tmp_path / 'a-review.sgf'}" in err
    assert f"[2/2] {tmp_path / 'b.sgf'}: reviewed" in err
    assert "2 game(s), 14 positions" in err
    assert not (tmp_path / "a-review.png").exists()
    assert out.count("moves reviewed at") == 2


def test_a_folder_is_its_sgf_files_and_a_review_is_never_reviewed_again(tmp_path):
    (tmp_path / "one.sgf").write_text(GAME)
    (tmp_path / "one-review.sgf").write_text(GAME)
    (tmp_path / "notes.txt").write_text("not a game")
    err = io.StringIO()
    assert game_files([tmp_path], err) == [tmp_path / "one.sgf"]
    assert game_files([tmp_path / "one-review.sgf"], err) == []
    assert "one-review.sgf: skipped, a review itself" in err.getvalue()


def test_a_missing_extra_is_refused_before_any_search(tmp_path, monkeypatch):
    (tmp_path / "g.sgf").write_text(GAME)
    monkeypatch.setattr(
        command.plot, "needs_matplotlib", lambda: "the plot needs matplotlib: pip install 'goengine[plot]'"
    )
    status, out, err = run([tmp_path / "g.sgf"])
    assert status == 2 and "pip install 'goengine[plot]'" in err and out == ""
    assert not (tmp_path / "g-review.sgf").exists()


def test_without_a_readable_game_nothing_is_searched(tmp_path):
    (tmp_path / "x.sgf").write_text("nothing")
    status, _, err = run([tmp_path / "x.sgf"])
    assert status == 1 and "no game to review" in err


def test_a_review_that_cannot_be_written_is_named_and_the_others_still_written(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgf").write_text(GAME)
    (tmp_path / "a-review.sgf").mkdir()  # where the review would go
    status, _, err = run([tmp_path / "a.sgf", tmp_path / "b.sgf"])
    assert status == 1 and f"{tmp_path / 'a.sgf'}: cannot write its review" in err
    assert (tmp_path / "b-review.sgf").is_file()


def test_a_search_that_fails_is_named_with_its_game_and_the_others_reviewed(tmp_path, monkeypatch):
    (tmp_path / "a.sgf").write_text(GAME)
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[9];B[cc];W[gg])")
    real = analyse_module.analyse

    def failing(position, config, budget):  # the position after a's third move fails
        if len(position.moves) == 3 and position.moves[0] == (BLACK, coords.from_gtp(9, "E5")):
            raise RuntimeError("the engine fell over")
        return real(position, config, budget)

    monkeypatch.setattr(analyse_module, "analyse", failing)
    status, out, err = run([tmp_path / "a.sgf", tmp_path / "b.sgf"])
    assert status == 1
    assert f"{tmp_path / 'a.sgf'}: not reviewed: a search failed (RuntimeError: the engine fell over)" in err
    assert not (tmp_path / "a-review.sgf").exists() and (tmp_path / "b-review.sgf").exists()
    assert f"{tmp_path / 'b.sgf'}: 2 moves reviewed" in out


@pytest.mark.parametrize(
    "budget, words",
    [
        (Budget(playouts=2000), "2000 playouts"),
        (Budget(seconds=1.5), "1.5 s"),
        (Budget(500, 2.0), "500 playouts or 2 s"),
    ],
)
def test_the_budget_in_words(budget, words):
    assert budget_words(budget) == words


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A local Dask cluster of two single-threaded worker processes (as the match laboratory's
    tests start one), its workers in a scratch folder."""
    distributed = pytest.importorskip("distributed")
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("dask-worker-cwd"))
    try:
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
    finally:
        os.chdir(here)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.mark.slow
def test_a_cluster_reviews_the_positions_of_two_games_as_this_machine_does(tmp_path, dask_cluster):
    here, there = tmp_path / "here", tmp_path / "there"
    for folder in (here, there):
        folder.mkdir()
        (folder / "a.sgf").write_text(GAME)
        shutil.copy(DATA / "game9.sgf", folder / "b.sgf")
    settings = ReviewSettings(**{**vars(SETTINGS), "plot": False})
    assert run([here / "a.sgf", here / "b.sgf"], settings)[0] == 0
    status, out, err = run(
        [there / "a.sgf", there / "b.sgf"],
        ReviewSettings(**{**vars(settings), "cluster": dask_cluster.scheduler_address}),
    )
    assert status == 0, err
    assert "2 game(s), 18 positions" in err and out.count("moves reviewed at") == 2
    for name in ("a", "b"):  # one thread an engine, a fresh engine a position: the same figures
        assert (there / f"{name}-review.sgf").read_bytes() == (here / f"{name}-review.sgf").read_bytes()
