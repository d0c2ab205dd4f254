"""goengine.playout_training: the learned playout policy's training data, fit and measure, on six
games of the project's training file (``tests/data/tom9d_six_games.sgf``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from goengine import coords, playout_training, training
from goengine.board import PASS, ZOBRIST, Board
from goengine.kernels import playout_features as kpf
from goengine.playout_model import FIRST_CLASS
from goengine.training import Game

REAL = Path(__file__).parent / "data" / "tom9d_six_games.sgf"


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return training.read_games(REAL)


@pytest.fixture(scope="module")
def data(games) -> playout_training.Candidates:
    return playout_training.extract(games[:3], every=3)


def test_every_position_records_the_move_played_among_its_candidates(games):
    game = games[0]
    data = playout_training.extract([game])
    board = Board(game.size)
    k = 0
    for number, (point, color) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
        if k < len(data) and data.move_numbers[k] == number:
            a, b = data.offsets[k], data.offsets[k + 1]
            assert 0 <= data.played[k] < b - a
            assert b - a == sum(1 for p in board.points() if board.is_legal(color, p)) - eyes(board, color)
            k += 1
        board.play(color, point)
    assert k == len(data) == sum(1 for p in game.moves if p != PASS) - data.skipped


def eyes(board: Board, color: int) -> int:
    from goengine.kernels import board as kb

    return sum(
        1
        for p in board.points()
        if board.is_legal(color, p) and kb.is_eye(board.pts, board.meta, np.int64(p), np.int64(color))
    )


def test_a_pass_is_no_position_and_an_illegal_game_is_named():
    game = training.parse_game(b"(;GM[1]SZ[9];B[ee];W[];B[cc];W[cc])", "x.sgf", 1)
    with pytest.raises(ValueError, match="x.sgf:1: move 4 is not legal"):
        playout_training.extract([game])
    game = training.parse_game(b"(;GM[1]SZ[9];B[ee];W[];B[cc])", "y.sgf", 1)
    data = playout_training.extract([game])
    assert data.move_numbers.tolist() == [0, 2] and data.skipped == 0


def test_the_gradient_is_the_losss_by_finite_differences(data):
    codes = playout_training.harvest(data, 3)
    model = playout_training.new_model(codes)
    rng = np.random.default_rng(5)
    x = rng.normal(0, 0.3, len(playout_training.weights_of(model)))
    classes = playout_training.class_indices(model, data.keys)
    words = data.words.astype(np.int64)
    n = np.int64(model.n_classes)

    def loss(v):
        return kpf.loss_and_gradient(v, n, data.offsets, data.played, classes, words, 2, np.zeros(len(v)))

    grad = np.zeros(len(x))
    kpf.loss_and_gradient(x, n, data.offsets, data.played, classes, words, 2, grad)
    used = np.nonzero(grad)[0]
    for i in rng.choice(used, 12, replace=False):
        e = np.zeros(len(x))
        e[i] = 1e-5
        assert grad[i] == pytest.approx((loss(x + e) - loss(x - e)) / 2e-5, rel=1e-4, abs=1e-6)


def test_a_fit_predicts_the_moves_better_than_no_knowledge(data, games):
    codes = playout_training.harvest(data, 3)
    assert len(codes) > 100 and np.all(np.diff(codes) > 0)
    model = playout_training.new_model(codes)
    before = playout_training.measure(model, data)
    info = playout_training.fit(model, data, 1.74, 40)
    after = playout_training.measure(model, data)
    assert info["iterations"] > 0 and after.loglik > before.loglik + 1.0 and after.top1 > before.top1 + 0.1
    held_out = playout_training.measure(model, playout_training.extract(games[3:4]))
    assert held_out.top1 > 0.15  # far above chance (about 1 in 250)
    assert model.distance_weights[0, 2] > 0.5  # right next to the last move is where strong players answer
    assert model.class_weights[FIRST_CLASS:].std() > 0.1


def test_the_training_records_what_it_was_trained_on(tmp_path):
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "train_playouts.py"
    out = tmp_path / "p.npz"
    done = subprocess.run(
        [sys.executable, str(script), str(REAL), "--out", str(out), "--games", "4", "--every", "5", "--iterations", "5",
         "--min-count", "3", "--tune-from", "2099-01-01", "--validate-from", "2099-06-01"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    from goengine.playout_model import PlayoutModel

    provenance = PlayoutModel.load(out).provenance
    assert provenance["games"]["file"] == REAL.name and provenance["trained_on"]["games"] == 4
    assert provenance["command"].startswith("python scripts/train_playouts.py") and "commit" in provenance
    assert provenance["classes"]["known"] > 0 and provenance["tuning_measure"] is None


# ---- simulation balancing


def test_psi_averages_to_zero_under_the_policys_own_distribution():
    """E_pi[psi] = E_pi[phi] - E_pi[phi] = 0: psi of every candidate weighted by its probability
    (``kernels.balance``'s own masses) sums to nothing, for every weight."""
    from goengine.kernels import balance as kbal
    from goengine.kernels import learned as kl
    from goengine.playout_model import shipped

    board = Board(9)
    for vertex in ("E5", "E4", "D4", "F4", "F5", "D5", "C4"):
        board.play(board.to_move, vertex)
    model = shipped()
    arrays = model.arrays
    n = len(playout_training.weights_of(model))
    pts, meta = board.pts.copy(), board.meta.copy()
    state = kl.new_state(pts.shape[1], 11)
    kl.start(pts, meta, arrays, state)
    c = int(meta[kb_to_move()])
    kl._next_stamp(state)
    state[11][1] = 0
    kl._near(pts, meta, arrays, state, c, int(meta[kb_last()]), 0)
    kl._apply(state, 11, c)
    scratch = (np.zeros(pts.shape[1]), np.zeros(pts.shape[1], dtype=np.int64))
    total = np.zeros(n)
    probabilities = {}
    kbal._step_psi(pts, meta, ZOBRIST, arrays, state, c, np.int64(-1), np.int64(model.n_classes), np.zeros(n), scratch)
    mass = scratch[0].copy()
    for p in np.nonzero(mass)[0]:
        probabilities[int(p)] = mass[p] / mass.sum()
    for p, prob in probabilities.items():
        psi = np.zeros(n)
        kbal._step_psi(pts, meta, ZOBRIST, arrays, state, c, np.int64(p), np.int64(model.n_classes), psi, scratch)
        total += prob * psi
    assert len(probabilities) > 30 and np.abs(total).max() < 1e-9


def kb_to_move() -> int:
    from goengine.kernels import board as kb

    return kb.TO_MOVE


def kb_last() -> int:
    from goengine.kernels import board as kb

    return kb.LAST_MOVE


def moves_of(line: list[str]) -> tuple[tuple[int, int], ...]:
    """``(colour, point)`` of a 9x9 game's moves given as vertices, colours alternating from Black."""
    board = Board(9)
    moves = []
    for vertex in line:
        moves.append((board.to_move, coords.from_gtp(9, vertex)))
        board.play(board.to_move, vertex)
    return tuple(moves)


def test_balancing_moves_the_playouts_value_towards_the_target():
    """One position valued 0.9 for Black whose playouts give about 0.57: a few rounds of
    balancing on it alone raise the playouts' value (seeded, measured on 800 playouts)."""
    from goengine.jobs import Runner
    from goengine.playout_model import PlayoutModel, shipped

    base = shipped()
    model = PlayoutModel(
        base.codes, base.class_weights, base.response_weights, base.distance_weights, base.flag_weights
    )
    line = ["D4", "F4", "F5", "G5", "E5", "G6", "F7", "G7", "F8", "G8", "G4", "H4"]
    position = playout_training.Balanced(9, 7.5, moves_of(line), 0.95)
    before = playout_training.playout_error(model, [position], 800)
    errors = playout_training.balance(model, [position], Runner(1), 4, 3.0, batch=1, n_value=64, n_grad=128)
    after = playout_training.playout_error(model, [position], 800)
    assert len(errors) == 4 and after < before


def balance_script():
    """``scripts/balance_playouts.py`` as a module (scripts are no package)."""
    import importlib.util

    script = Path(__file__).resolve().parent.parent / "scripts" / "balance_playouts.py"
    spec = importlib.util.spec_from_file_location("balance_playouts", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_balancing_positions_reader_names_every_line_it_leaves_out(tmp_path):
    """A line that is not JSON, one with a move on an occupied point, one whose target is not a
    probability and one without a target: each named with its line and reason, the good ones kept."""
    import json

    module = balance_script()
    good = {"key": "a/x#1", "size": 9, "komi": 7.5, "moves": ["B E5", "W C3"], "turn": 2, "target": 0.4}
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "moves": ["B E5", "W E5"]}),
        json.dumps({**good, "target": 1.5}),
        json.dumps({k: v for k, v in good.items() if k != "target"}),
        json.dumps({**good, "moves": ["B E5", "W pass", "B D4"]}),
    ]
    path = tmp_path / "positions.jsonl"
    path.write_text("\n".join(lines) + "\n")
    positions, problems = module.read_positions(path)
    assert [len(p.moves) for p in positions] == [2, 3]
    assert positions[0].moves == ((1, coords.from_gtp(9, "E5")), (2, coords.from_gtp(9, "C3")))
    assert [problem.split(": ")[0] for problem in problems] == [f"{path}:{n}" for n in (2, 3, 4, 5)]
    assert "occupied" in problems[1] and "1.5" in problems[2] and "target" in problems[3]


@pytest.mark.slow
def test_a_model_balanced_twice_names_both_runs(tmp_path):
    import json
    import subprocess
    import sys

    from goengine.playout_model import PlayoutModel, shipped

    root = Path(__file__).resolve().parent.parent
    line = {"key": "a/x#1", "size": 9, "komi": 7.5, "moves": ["B E5", "W C3", "B G7"], "turn": 3, "target": 0.7}
    positions = tmp_path / "positions.jsonl"
    positions.write_text("".join(json.dumps({**line, "key": f"a/x#{i}"}) + "\n" for i in range(4)))
    small = ["--rounds", "1", "--batch", "2", "--held-out", "2", "--value-playouts", "4", "--gradient-playouts", "4",
             "--measure-playouts", "4", "--jobs", "1"]  # fmt: skip
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    for base, out in ((None, first), (first, second)):
        argv = [sys.executable, str(root / "scripts" / "balance_playouts.py"), "balance", "--positions", str(positions)]
        argv += ["--model", str(base)] if base else []
        done = subprocess.run([*argv, *small, "--out", str(out)], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    shipped_runs = shipped().provenance.get("balanced", [])  # the first run starts from the shipped model
    runs = PlayoutModel.load(second).provenance["balanced"]
    assert runs[: len(shipped_runs)] == shipped_runs and len(runs) == len(shipped_runs) + 2
    assert "--model" not in runs[-2]["command"] and str(first) in runs[-1]["command"]
    assert all(len(run["rounds"]) == 1 and run["positions"]["trained"] == 2 for run in runs[-2:])


@pytest.mark.slow
def test_balancing_on_a_dask_cluster_moves_the_weights_as_on_one_process():
    """The balancing's tasks on a real local Dask scheduler with two worker processes give the
    weights one process gives (each task seeded by its round and batch, not by where it runs; the
    steps are summed in the order they come, so equal to rounding)."""
    distributed = pytest.importorskip("distributed")
    from goengine.jobs import Runner
    from goengine.playout_model import PlayoutModel, shipped

    def fresh() -> PlayoutModel:
        base = shipped()
        return PlayoutModel(
            base.codes, base.class_weights, base.response_weights, base.distance_weights, base.flag_weights
        )

    board = Board(9)
    moves = []
    for vertex in ["D4", "F4", "F5", "G5", "E5", "G6"]:
        moves.append((board.to_move, coords.from_gtp(9, vertex)))
        board.play(board.to_move, vertex)
    positions = [playout_training.Balanced(9, 7.5, tuple(moves[:n]), target) for n, target in
                 ((2, 0.6), (3, 0.3), (5, 0.7), (6, 0.4))]  # fmt: skip
    alone, spread = fresh(), fresh()
    settings = dict(rounds=2, rate=3.0, batch=1, n_value=16, n_grad=16)
    errors = playout_training.balance(alone, positions, Runner(1), **settings)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster:
        on_cluster = playout_training.balance(spread, positions, Runner(0, cluster.scheduler_address), **settings)
    assert np.allclose(on_cluster, errors)
    assert np.allclose(playout_training.weights_of(spread), playout_training.weights_of(alone))
    assert not np.allclose(playout_training.weights_of(alone), playout_training.weights_of(fresh()))


def decided_5x5() -> tuple[tuple[int, int], ...]:
    """Black fills the 5x5 board but for two one-point eyes (A1, E5) while White passes: every
    playout of every policy ends with Black's 25 points of area."""
    from goengine.board import BLACK, WHITE

    moves = []
    for row in range(1, 6):
        for col in "ABCDE":
            vertex = f"{col}{row}"
            if vertex not in ("A1", "E5"):
                moves += [(BLACK, coords.from_gtp(5, vertex)), (WHITE, PASS)]
    return tuple(moves)


@pytest.mark.parametrize("policy", ["uniform", "heavy", "learned"])
def test_outcome_errors_on_a_decided_position_are_the_hand_computed_ones(policy):
    """Black wins every playout (komi 7.5), or draws every one (komi 25, a draw counted 1/2):
    against targets 1, 0.25 and 0.5 the squared errors are 0, 0.5625 and 0, the signed ones 0,
    -0.75 and 0."""
    moves = decided_5x5()
    positions = [
        playout_training.Balanced(5, 7.5, moves, 1.0),
        playout_training.Balanced(5, 7.5, moves, 0.25),
        playout_training.Balanced(5, 25.0, moves, 0.5),
    ]
    squared, signed = playout_training.outcome_errors(positions, 50, policy)
    assert squared == pytest.approx(0.5625 / 3) and signed == pytest.approx(-0.75 / 3)


def test_outcome_errors_of_the_learned_policy_agree_with_the_balancings_own_playouts():
    """Two kernels play the learned policy's playouts (the search's ``kernels.playout`` and the
    balancing's ``kernels.balance``): from an open 9x9 position, against a target of 0, both
    give the same value within four standard errors of 3,000 playouts each."""
    from goengine.playout_model import shipped

    position = playout_training.Balanced(9, 7.5, moves_of(["E5", "C3", "G3", "G7", "C7", "D5"]), 0.0)
    squared, signed = playout_training.outcome_errors([position], 3000, "learned", shipped(), seed=5)
    value = -signed
    assert squared == pytest.approx(value**2)
    balancing_value = np.sqrt(playout_training.playout_error(shipped(), [position], 3000, seed=6))
    assert 0.05 < value < 0.95 and abs(value - balancing_value) < 4 * np.sqrt(2 * 0.25 / 3000)


def test_the_measure_command_reports_a_policys_errors_and_refuses_an_unknown_policy(tmp_path, capsys):
    import json

    module = balance_script()
    moves = [f"{'B' if c == 1 else 'W'} {coords.to_gtp(5, p)}" for c, p in decided_5x5()]
    path = tmp_path / "positions.jsonl"
    line = {"key": "k#1", "size": 5, "komi": 7.5, "moves": moves, "turn": 46, "target": 0.5}
    path.write_text(json.dumps(line) + "\n")
    assert module.main(["measure", "--positions", str(path), "--policy", "Heavy", "--playouts", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("heavy: 1 positions, 20 playouts each") and "error 0.2500" in out and "-0.5000" in out
    assert module.main(["measure", "--positions", str(path), "--policy", "moggy"]) == 2
    err = capsys.readouterr().err
    assert "unknown playout policy 'moggy'" in err and "heavy" in err
