"""The training command (``scripts/train_movemodel.py``) on a tiny collection, run as a subprocess
with this Python: the model it writes and the provenance inside (the command, the games, the
split), the games each part of the split holds, the games it skips (named on stderr, counted,
listed in the provenance; refused with ``--strict``), and how it refuses bad input (exit 2, one
line, no traceback). A process costs about a second, so the bad input is tried on ``main`` in this
process in the quick tier, and again as a process in the slow one.

The collection is ``tests/data/tom9d_six_games.sgf``: four games of 2008-01-01, one of
2011-12-23 and one of 2011-12-28, split here with ``--tune-from 2011-06-01 --validate-from
2011-12-25`` into four training games, one tuning game and one validation game.
"""

from __future__ import annotations

import hashlib
import importlib.util
import lzma
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from goengine import training
from goengine.movemodel import MoveModel

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "scripts" / "train_movemodel.py"
GAMES = Path(__file__).parent / "data" / "tom9d_six_games.sgf"
BROKEN = Path(__file__).parent / "data" / "tom9d_broken_games.sgf"  # lines 2, 3, 4 broken: test_training.py
QUICK = ["--min-count", "2", "--every", "10", "--iterations", "5", "--no-progress"]
SPLIT = ["--tune-from", "2011-06-01", "--validate-from", "2011-12-25"]


def train(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def refused(result: subprocess.CompletedProcess) -> str:
    """The one line a refusal writes (exit status 2, no traceback, nothing on stdout)."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("train_movemodel.py: ")
    return lines[-1]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("train") / "model.npz"
    args = [str(GAMES), "--out", str(out), *QUICK, *SPLIT]
    result = train(*args)
    assert result.returncode == 0, result.stderr
    return out, args, result


def test_the_model_records_the_command_the_games_and_the_split(trained):
    out, args, result = trained
    model = MoveModel.load(out)
    p = model.provenance
    assert p["command"] == "python scripts/train_movemodel.py " + shlex.join(args)
    assert p["games"] == {
        "file": GAMES.name,
        "sha256": hashlib.sha256(GAMES.read_bytes()).hexdigest(),
        "read": 6,
        "skipped": [],
    }
    assert p["split"] == {
        "validate_from": "2011-12-25",
        "tune_from": "2011-06-01",
        "training_games": 4,
        "tuning_games": 1,
        "validation_games": 1,
    }
    assert p["commit"].startswith("0.")
    assert p["dictionary"]["min_count"] == 2 and p["dictionary"]["shapes"] == model.n_shapes
    assert sum(p["dictionary"]["by_size_3_to_10"]) == model.n_shapes
    assert p["fit"]["every"] == 10 and p["fit"]["sigma"] == 1.74 and p["fit"]["iterations"] <= 5
    assert p["training_measure"]["moves"] > 0 and p["tuning_measure"]["moves"] > 0
    assert "wrote" in result.stderr and "tuning games (1)" in result.stderr


def test_the_dictionary_comes_from_the_training_games_alone(trained):
    out, _, _ = trained
    model = MoveModel.load(out)
    games = training.read_games(GAMES)
    training_games = [g for g in games if g.date < "2011-06-01"]
    assert len(training_games) == 4
    d = training.dictionary(*training.harvest(training_games), 2)
    assert model.n_shapes == len(d)
    np.testing.assert_array_equal(model.sizes, d.sizes)
    np.testing.assert_array_equal(model.counts, d.counts)
    # the positions fitted: every tenth of each training game, from a start that depends on the game
    expected = sum(len(range(g % 10, len(game.moves), 10)) for g, game in enumerate(training_games))
    assert model.provenance["fit"]["positions"] == expected


def script():
    spec = importlib.util.spec_from_file_location("train_movemodel_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_main_called_with_arguments_records_those_arguments_and_writes_the_name_given(tmp_path):
    out = tmp_path / "patterns.model"  # numpy would write patterns.model.npz
    args = [str(GAMES), "--out", str(out), *QUICK, *SPLIT, "--limit", "3"]
    assert script().main(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["patterns.model"]
    model = MoveModel.load(out)
    assert model.provenance["command"] == "python scripts/train_movemodel.py " + shlex.join(args)
    assert model.provenance["games"]["read"] == 3 and model.provenance["split"]["training_games"] == 3


def test_by_default_it_reads_the_shipped_games_which_the_shipped_model_names():
    """With no games given, the training reads ``data/games/tom9d_2008-2011.sgf.xz``, and that file
    is the one the shipped model's provenance names: the same name and SHA-256."""
    shipped = (ROOT / "data" / "games" / "tom9d_2008-2011.sgf.xz").resolve()
    assert Path(script().parse_args([]).games) == shipped
    games = MoveModel.load().provenance["games"]
    assert games["file"] == shipped.name
    assert games["sha256"] == hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert shipped.read_bytes()[:6] == b"\xfd7zXZ\x00"  # the xz data, not a pointer to it (Git LFS)


# ---- bad input


@pytest.fixture(params=["main", pytest.param("process", marks=pytest.mark.slow)])
def run(request, capsys):
    """The command on some arguments: its ``main`` in this process (quick: an exception would
    fail the test as a traceback would), or a process of its own (slow: a second each)."""
    if request.param == "process":
        return train
    module = script()

    def in_process(*args):
        capsys.readouterr()
        code = module.main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out.out, out.err)

    return in_process


def test_a_missing_file_is_refused_by_the_process(tmp_path):
    line = refused(train(str(tmp_path / "none.sgf"), "--out", str(tmp_path / "m.npz")))
    assert line == f"train_movemodel.py: no such file: {tmp_path / 'none.sgf'}"
    assert not (tmp_path / "m.npz").exists()


def test_an_out_folder_that_does_not_exist_is_refused_before_training(run, tmp_path):
    out = tmp_path / "no" / "m.npz"
    line = refused(run(str(GAMES), "--out", str(out), *QUICK))
    assert line == f"train_movemodel.py: no such folder for --out: {out.parent}"


def test_games_that_cannot_be_read_or_replayed_are_skipped_named_and_listed_in_the_provenance(tmp_path, capsys):
    out = tmp_path / "m.npz"
    assert script().main([str(BROKEN), "--out", str(out), *QUICK, *SPLIT]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[:4] == [
        f"skipped {BROKEN}:2: bad SGF: property with no values",
        f"skipped {BROKEN}:3: move 3 (B D16) is not legal: the point is occupied",
        f"skipped {BROKEN}:4: move 348 (W T2) is not legal: it repeats an earlier position (positional superko)",
        f"2 games in {BROKEN} (3 skipped): 2 training, 0 tuning (from 2011-06-01), 0 validation "
        "(from 2011-12-25, not read again)",
    ]
    games = MoveModel.load(out).provenance["games"]
    assert games["read"] == 2
    assert games["skipped"] == [
        {"source": BROKEN.name, "line": 2, "move": None, "reason": "bad SGF: property with no values"},
        {"source": BROKEN.name, "line": 3, "move": 3, "reason": "(B D16) is not legal: the point is occupied"},
        {
            "source": BROKEN.name,
            "line": 4,
            "move": 348,
            "reason": "(W T2) is not legal: it repeats an earlier position (positional superko)",
        },
    ]
    strict = tmp_path / "strict.npz"
    assert script().main([str(BROKEN), "--out", str(strict), *QUICK, *SPLIT, "--strict"]) == 2
    assert capsys.readouterr().err.splitlines() == [f"train_movemodel.py: {BROKEN}:2: bad SGF: property with no values"]
    assert not strict.exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;GM[1]SZ[19];B[zz])\n", ":2: bad SGF: a move or set-up stone is off the 19x19 board"),
        ("(;GM[1]SZ[19];B[pd];W)\n", ":2: bad SGF: property with no values"),
        ("(;GM[2]SZ[19];B[pd])\n", ":2: bad SGF: GM[2] is not a game of Go (GM[1])"),
        ("(;GM[1]SZ[19];B[pd]\n", ":2: a game that never ends"),
    ],
)
def test_a_broken_game_is_refused_with_its_file_and_line_when_strict(run, tmp_path, text, words):
    path = tmp_path / "broken.sgf"
    path.write_text(GAMES.read_text().splitlines()[0] + "\n" + text)
    line = refused(run(str(path), "--out", str(tmp_path / "m.npz"), *QUICK, "--strict"))
    assert line == f"train_movemodel.py: {path}{words}"
    assert not (tmp_path / "m.npz").exists()


def test_an_illegal_move_is_refused_with_its_game_and_number_when_strict(run, tmp_path):
    path = tmp_path / "illegal.sgf"
    path.write_text("(;GM[1]SZ[19]DT[2008-01-01];B[pd];W[dd];B[pd])\n")
    line = refused(run(str(path), "--out", str(tmp_path / "m.npz"), *QUICK, "--strict"))
    assert line == f"train_movemodel.py: {path}:1: move 3 (B Q16) is not legal: the point is occupied"
    line = refused(run(str(path), "--out", str(tmp_path / "m.npz"), *QUICK))  # skipped: nothing to train on
    assert line == "train_movemodel.py: no training games"


def test_a_file_that_is_not_xz_is_refused(run, tmp_path):
    path = tmp_path / "games.sgf.xz"
    path.write_bytes(lzma.compress(GAMES.read_bytes())[:500])
    line = refused(run(str(path), "--out", str(tmp_path / "m.npz"), *QUICK))
    assert line.startswith(f"train_movemodel.py: {path}: ")


@pytest.mark.parametrize(
    "options",
    [["--min-count", "0"], ["--every", "0"], ["--sigma", "0"], ["--iterations", "0"]],
)
def test_settings_out_of_range_are_refused(run, tmp_path, options):
    line = refused(run(str(GAMES), "--out", str(tmp_path / "m.npz"), *options))
    assert "must be at least 1" in line


def test_a_collection_with_no_training_games_is_refused(run, tmp_path):
    line = refused(run(str(GAMES), "--out", str(tmp_path / "m.npz"), "--validate-from", "2000-01-01", *QUICK))
    assert line == "train_movemodel.py: no training games"
