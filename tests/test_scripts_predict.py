"""The measuring command (``scripts/predict.py``) on a tiny collection, run as a subprocess with
this Python: the table and the final JSON line, ``--held-out`` reading the model's own split,
``--games``, the games it skips (named on stderr, counted, listed in the JSON line; refused with
``--strict``), and how it refuses bad input (exit 2, one line, no traceback); with ``--gtp``, a GTP
engine's first choices counted on the same positions. A process costs about
a second, so the bad input is tried on ``main`` in this process in the quick tier, and again as a
process in the slow one.

The model is made here with ``goengine.training`` from the four 2008 games of
``tests/data/tom9d_six_games.sgf`` (a few fitting steps), its provenance recording the split the
training command writes: validation games from 2011-12-25, which holds one game of the six.
"""

from __future__ import annotations

import importlib.util
import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from goengine import coords, movemodel, training
from goengine.board import PASS, Board
from goengine.movemodel import MoveModel
from goengine.training import Split

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "scripts" / "predict.py"
GAMES = Path(__file__).parent / "data" / "tom9d_six_games.sgf"
BROKEN = Path(__file__).parent / "data" / "tom9d_broken_games.sgf"  # lines 2, 3, 4 broken: test_training.py


def predict(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def refused(result: subprocess.CompletedProcess) -> str:
    """The one line a refusal writes (exit status 2, no traceback, nothing on stdout)."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("predict.py: ")
    return lines[0]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    games = training.read_games(GAMES)
    split = Split(validate_from="2011-12-25", tune_from="2011-06-01")
    train = [g for g in games if split.part(g) == "training"]
    model = training.new_model(training.dictionary(*training.harvest(train), 2))
    training.fit(model, training.extract(train, model, every=5), sigma=1.74, iterations=5)
    model.provenance = {"split": {"validate_from": split.validate_from, "tune_from": split.tune_from}}
    path = tmp_path_factory.mktemp("predict") / "model.npz"
    model.save(path)
    return path


def measured(result):
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    return lines, json.loads(lines[-1])


def test_predict_prints_the_table_and_a_json_line(model_file):
    lines, summary = measured(predict(str(GAMES), "--model", str(model_file), "--json"))
    games = training.read_games(GAMES)
    moves = sum(int((g.moves != -1).sum()) for g in games)
    assert summary["games"] == 6 and summary["moves"] == moves
    assert 0 < summary["top1"] <= summary["top5"] <= 1 and summary["loglik"] < 0
    assert set(summary["buckets"]) == {"0-29", "30-79", "80+"}
    assert sum(b["moves"] for b in summary["buckets"].values()) == moves
    assert lines[0] == f"6 games, 0 skipped, {moves} moves (passes not counted); model {model_file}"
    assert summary["skipped"] == []
    assert lines[1].split() == ["moves", "count", "top-1", "top-5", "loglik"]
    rows = {line.split()[0]: line.split() for line in lines[2:6]}
    assert set(rows) == {"all", "0-29", "30-79", "80+"}
    assert rows["all"][1] == str(moves) and rows["all"][2] == f"{summary['top1']:.1%}"


@pytest.mark.slow
def test_without_json_predict_prints_the_table_alone(model_file):
    lines, _ = measured(predict(str(GAMES), "--model", str(model_file), "--json"))
    plain = predict(str(GAMES), "--model", str(model_file))
    out = plain.stdout.strip().splitlines()
    assert plain.returncode == 0 and out[:6] == lines[:6]  # the next line is the speed, then the JSON
    assert len(out) == len(lines) - 1 and "positions a second" in out[-1]


def test_held_out_measures_the_games_from_the_models_validation_date(model_file):
    _, summary = measured(predict(str(GAMES), "--model", str(model_file), "--held-out", "--json"))
    held_out = [g for g in training.read_games(GAMES) if g.date >= "2011-12-25"]
    assert len(held_out) == 1
    assert summary["games"] == 1 and summary["moves"] == int((held_out[0].moves != -1).sum())


@pytest.mark.slow
def test_games_limits_the_games_measured(model_file):
    _, summary = measured(predict(str(GAMES), "--model", str(model_file), "--games", "2", "--json"))
    games = training.read_games(GAMES, limit=2)
    assert summary["games"] == 2 and summary["moves"] == sum(int((g.moves != -1).sum()) for g in games)


def test_by_default_it_measures_the_shipped_games():
    shipped = ROOT / "data" / "games" / "tom9d_2008-2011.sgf.xz"
    assert Path(script().parse_args(["--held-out"]).games) == shipped.resolve()


# ---- bad input


def script():
    spec = importlib.util.spec_from_file_location("predict_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["main", pytest.param("process", marks=pytest.mark.slow)])
def run(request, capsys):
    """The command on some arguments: its ``main`` in this process (quick: an exception would
    fail the test as a traceback would), or a process of its own (slow: a second each)."""
    if request.param == "process":
        return predict
    module = script()

    def in_process(*args):
        capsys.readouterr()
        code = module.main([*args, "--no-progress"])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out.out, out.err)

    return in_process


def test_a_missing_file_is_refused_by_the_process(model_file, tmp_path):
    line = refused(predict(str(tmp_path / "none.sgf"), "--model", str(model_file)))
    assert "none.sgf" in line and "No such file" in line


def test_a_game_that_cannot_be_read_or_replayed_is_skipped_named_and_counted(run, model_file):
    result = run(str(BROKEN), "--model", str(model_file), "--json")
    lines, summary = measured(result)
    assert result.stderr.splitlines() == [
        f"skipped {BROKEN}:2: bad SGF: property with no values",
        f"skipped {BROKEN}:3: move 3 (B D16) is not legal: the point is occupied",
        f"skipped {BROKEN}:4: move 348 (W T2) is not legal: it repeats an earlier position (positional superko)",
    ]
    assert lines[0].startswith("2 games, 3 skipped, ")
    assert summary["games"] == 2 and [(s["line"], s["move"]) for s in summary["skipped"]] == [
        (2, None),
        (3, 3),
        (4, 348),
    ]
    assert summary["skipped"][2]["reason"].endswith("it repeats an earlier position (positional superko)")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;GM[1]SZ[19];B[pd];W)\n", ":2: bad SGF: property with no values"),
        ("(;GM[1]SZ[19];B[pd];W[dd];B[dd])\n", ":2: move 3 (B D16) is not legal: the point is occupied"),
        ("(;GM[1]SZ[19];B[zz])\n", ":2: bad SGF: a move or set-up stone is off the 19x19 board"),
        ("(;GM[1]SZ[19];B[pd]\n", ":2: a game that never ends"),
    ],
)
def test_a_broken_game_is_refused_with_its_file_and_line_when_strict(run, model_file, tmp_path, text, words):
    path = tmp_path / "broken.sgf"
    path.write_text(GAMES.read_text().splitlines()[0] + "\n" + text)
    line = refused(run(str(path), "--model", str(model_file), "--strict"))
    assert line == f"predict.py: {path}{words}"


def test_a_file_that_is_not_xz_is_refused(run, model_file, tmp_path):
    path = tmp_path / "games.sgf.xz"
    path.write_bytes(b"(;GM[1]SZ[19];B[pd])")
    assert refused(run(str(path), "--model", str(model_file))).startswith(f"predict.py: {path}: ")
    path.write_bytes(lzma.compress(GAMES.read_bytes())[:300])
    assert refused(run(str(path), "--model", str(model_file))).startswith(f"predict.py: {path}: ")


def test_a_bad_model_is_refused_with_its_name(run, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not a model")
    for model in (bad, tmp_path / "missing.npz"):
        line = refused(run(str(GAMES), "--model", str(model)))
        assert line.startswith(f"predict.py: {model}: not a goengine move model")


def test_held_out_needs_a_model_that_records_its_split(run, model_file, tmp_path):
    model = MoveModel.load(model_file)
    model.provenance = {}
    path = tmp_path / "nosplit.npz"
    model.save(path)
    assert refused(run(str(GAMES), "--model", str(path), "--held-out")) == (
        f"predict.py: {path} records no held-out games"
    )


def test_a_collection_with_no_held_out_games_is_refused(run, model_file, tmp_path):
    path = tmp_path / "old.sgf"
    path.write_text("\n".join(GAMES.read_text().splitlines()[:4]) + "\n")  # the games of 2008
    line = refused(run(str(path), "--model", str(model_file), "--held-out"))
    assert line == f"predict.py: no games to measure in {path}"
    path.write_text("\n".join(BROKEN.read_text().splitlines()[1:4]) + "\n")  # every game skipped
    result = run(str(path), "--model", str(model_file))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == f"predict.py: no games to measure in {path} (3 skipped)"
    assert refused(run(str(GAMES), "--model", str(model_file), "--games", "0")) == (
        f"predict.py: no games to measure in {GAMES}"
    )


# ---- --gtp: a GTP engine's first choice on the same positions

FIXED_ENGINE = r"""
import sys

answer, refuse = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("= \n", flush=True)
        break
    if words[0] == "genmove":
        print(f"= {answer}\n", flush=True)
    elif words[0] == "play" and words[2].upper() == refuse:
        print("? illegal move\n", flush=True)
    else:
        print("= \n", flush=True)
"""


def fixed_engine(tmp_path, answer: str, refuse: str = "") -> str:
    """A GTP engine whose every genmove answers ``answer`` and which refuses to play ``refuse``."""
    path = tmp_path / "fixed_gtp.py"
    path.write_text(FIXED_ENGINE)
    return f"{sys.executable} {path} {answer} {refuse}".strip()


def test_an_engines_first_choice_is_counted_where_it_is_the_move_played(model_file, tmp_path):
    games = training.read_games(GAMES)
    q16 = coords.from_gtp(19, "Q16")
    hits = sum(int((g.moves == q16).sum()) for g in games)  # every time Q16 was played, by either colour
    moves = sum(int((g.moves != -1).sum()) for g in games)
    assert hits > 0
    lines, summary = measured(
        predict(str(GAMES), "--model", str(model_file), "--gtp", fixed_engine(tmp_path, "Q16"), "--json")
    )
    assert summary["moves"] == moves and summary["top1"] == round(hits / moves, 4)
    assert summary["refused"] == [] and summary["games"] == 6
    assert lines[1].split() == ["moves", "count", "top-1"]


def test_a_game_the_engine_refuses_is_named_with_its_move_and_left_out(model_file, tmp_path):
    games = training.read_games(GAMES)
    # a point some games play and others never do: the engine refuses to play it
    points = {p for g in games for p in g.moves.tolist() if p != PASS}
    point = next(p for p in sorted(points) if 0 < sum(p in g.moves for g in games) < len(games))
    refused_games = [g for g in games if point in g.moves]
    first = [int(g.moves.tolist().index(point)) + 1 for g in refused_games]  # the move refused, from 1
    engine = fixed_engine(tmp_path, "A1", coords.to_gtp(19, point))
    result = predict(str(GAMES), "--model", str(model_file), "--gtp", engine, "--json")
    assert result.returncode == 1  # the figures are printed, but games were left out
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["games"] == len(games) - len(refused_games)
    assert summary["moves"] == sum(int((g.moves != -1).sum()) for g in games if point not in g.moves)
    expected = [(g.line, m) for g, m in zip(refused_games, first, strict=True)]
    assert [(r["line"], r["move"]) for r in summary["refused"]] == expected
    assert result.stderr.count("refused ") == len(refused_games) and "the engine: illegal move" in result.stderr


@pytest.mark.slow
def test_goengines_model_player_over_gtp_chooses_what_the_shipped_model_ranks_first():
    """The GTP loop (set-up, genmove, undo, play) checked against the model itself: goengine's
    ``--player model`` over GTP agrees with the move played exactly where the shipped model's most
    probable move, ties broken as the player breaks them, is the move played."""
    game = training.read_games(GAMES, limit=1)[0]
    model = movemodel.shipped()
    board = Board(game.size)
    expected = []
    for point, color in zip(game.moves.tolist(), game.colors.tolist(), strict=True):
        if point != PASS:
            policy = model.policy(board, color)
            expected.append(1.0 if min(policy, key=lambda m: (-policy[m], m)) == point else 0.0)
        board.play(color, point)
    goengine = f"{sys.executable} -m goengine --player model --threads 1"
    _, summary = measured(predict(str(GAMES), "--games", "1", "--gtp", goengine, "--json"))
    assert summary["moves"] == len(expected) and summary["top1"] == round(sum(expected) / len(expected), 4)


def test_an_engine_that_cannot_start_is_refused_in_one_line(model_file, tmp_path):
    line = refused(predict(str(GAMES), "--model", str(model_file), "--gtp", str(tmp_path / "no-such-engine")))
    assert "no-such-engine" in line and "No such file" in line


@pytest.mark.parametrize("policy", ["heavy", "learned"])
def test_a_playout_policy_is_measured_by_its_draws_on_every_move(policy):
    """``--policy NAME``: the policy's sampled first choice on every move of the games (before:
    its draws' kernel did not compile, an index of a point or 0 typed as a float)."""
    games = training.read_games(GAMES)
    moves = sum(int((g.moves != -1).sum()) for g in games)
    _, summary = measured(predict(str(GAMES), "--policy", policy, "--draws", "20", "--games", "2", "--json"))
    two = sum(int((g.moves != -1).sum()) for g in games[:2])
    assert summary["moves"] == two < moves and 0 <= summary["top1"] <= summary["top5"] <= 1
    assert summary["loglik"] < 0


def test_the_draws_of_the_uniform_policy_cover_the_empty_board_alike():
    """``kernels.playout.draw_counts``: 2,500 draws of the uniform policy on an empty 5x5 board,
    every point about 100 times and no pass."""
    import numpy as np
    from scipy.stats import chisquare

    from goengine.board import ZOBRIST, Board
    from goengine.config import SearchConfig
    from goengine.kernels import playout as kp
    from goengine.kernels import search as ksearch
    from goengine.kernels.rng import new_state
    from goengine.search import MOGO3X3, KernelSettings, learned_playouts

    board = Board(5)
    kernel = KernelSettings.of(SearchConfig(playout="uniform"))
    counts = np.zeros(board.pts.shape[1], dtype=np.int64)
    policy, params = kernel.settings[ksearch.POLICY], kernel.params[ksearch.POLICY_PARAMS]
    tables = (MOGO3X3, learned_playouts(kernel))
    kp.draw_counts(board.pts, board.meta, ZOBRIST, new_state(5), policy, params, tables, np.int64(2500), counts)
    points = board.points()
    assert counts[0] == 0 and counts.sum() == 2500 and all(counts[p] > 0 for p in points)
    assert chisquare([counts[p] for p in points]).pvalue > 1e-4
