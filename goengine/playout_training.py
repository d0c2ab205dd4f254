"""Learning the learned playout policy's weights from strong games, and measuring them.

Reading guide: the games are read and split as the move model's are (``training.read_games``,
``training.Split``: by date, the validation months kept out of everything); ``extract`` turns
chosen positions into every candidate's features (``kernels.playout_features``); ``harvest`` keeps
the neighbourhood classes seen often enough; ``fit`` finds the weights; ``measure`` gives top-1,
top-5 and the mean log-likelihood of the moves played. ``scripts/train_playouts.py`` is the
command.

The model is a conditional logit (Coulom 2007, "Computing Elo Ratings of Move Patterns in the
Game of Go": a softmax of summed weights over the legal moves, ``kernels.learned``): its negative
log-likelihood is convex, and with a Gaussian prior of deviation ``sigma`` on every weight (the
part Coulom's virtual win and loss play in MM) L-BFGS finds its minimum, as for the move model
(``goengine.training``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from goengine.board import PASS, ZOBRIST
from goengine.kernels import playout_features as kpf
from goengine.playout_model import FIRST_CLASS, FLAGS, UNSEEN, PlayoutModel, canonical_codes, shipped
from goengine.training import Game, Measure, Ranks, summarize, threads

N_DISTANCE = 2 * 7  # the distance weights' slots (two tables of 7, distances 2..6 used)


@dataclass
class Candidates:
    """Positions as the learner sees them: ``offsets[k]`` .. ``offsets[k + 1]`` are position k's
    candidates (``keys``: the canonical code; ``words``: the packed features), ``played[k]`` the
    index of the move played among them, ``move_numbers[k]`` its number in its game (from 0);
    ``skipped`` the positions passed over because their move was no candidate (a pass, an own
    eye filled)."""

    offsets: np.ndarray
    played: np.ndarray
    keys: np.ndarray
    words: np.ndarray
    move_numbers: np.ndarray
    skipped: int = 0

    def __len__(self) -> int:
        return len(self.played)

    @property
    def candidates(self) -> int:
        return int(self.offsets[-1])


def extract(games: list[Game], every: int = 1, progress: Callable[[int], None] | None = None) -> Candidates:
    """The candidates of the positions of ``games``; with ``every`` > 1 only every ``every``-th
    position of each game (from a game-dependent start) is kept, which cuts the data without
    cutting any position's candidates. ValueError naming a game whose move is not legal."""
    canonical = canonical_codes()
    keys_all, words_all, counts_all, played_all, numbers_all = [], [], [], [], []
    skipped = 0
    for g, game in enumerate(games):
        n_moves = len(game.moves)
        keep = np.arange(g % every, n_moves, every) if every > 1 else np.arange(n_moves)
        wanted = np.zeros(n_moves, dtype=np.bool_)
        wanted[keep] = True
        keys = np.zeros(len(keep) * kpf.MAX_CANDIDATES, dtype=np.int64)
        words = np.zeros(len(keep) * kpf.MAX_CANDIDATES, dtype=np.int64)
        counts = np.zeros(n_moves, dtype=np.int64)
        played = np.zeros(n_moves, dtype=np.int64)
        total = kpf.extract_game(
            np.int64(game.size),
            game.setup_points,
            game.setup_colors,
            game.moves,
            game.colors,
            wanted,
            ZOBRIST,
            canonical,
            keys,
            words,
            counts,
            played,
        )
        if total == kpf.ILLEGAL:
            raise ValueError(f"{game.where}: move {int(played[0]) + 1} is not legal")
        recorded = keep[played[keep] != kpf.SKIPPED]
        skipped += int(np.sum((played[keep] == kpf.SKIPPED) & (game.moves[keep] != PASS)))
        keys_all.append(keys[:total].astype(np.int32))
        words_all.append(words[:total].astype(np.int16))
        counts_all.append(counts[recorded])
        played_all.append(played[recorded])
        numbers_all.append(recorded)
        if progress:
            progress(1)

    def joined(parts, dtype):
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype)

    counts = joined(counts_all, np.int64)
    return Candidates(
        np.r_[0, np.cumsum(counts)].astype(np.int64),
        joined(played_all, np.int64),
        joined(keys_all, np.int32),
        joined(words_all, np.int16),
        joined(numbers_all, np.int64),
        skipped,
    )


def harvest(data: Candidates, min_count: int) -> np.ndarray:
    """The canonical codes seen among ``data``'s candidates at least ``min_count`` times, sorted:
    the classes a model gets (the others share the class UNSEEN)."""
    codes, counts = np.unique(data.keys, return_counts=True)
    return codes[counts >= min_count].astype(np.int32)


def class_indices(model: PlayoutModel, keys: np.ndarray) -> np.ndarray:
    """Each candidate's class under ``model`` (its codes), from its canonical code."""
    if len(model.codes) == 0:
        return np.full(len(keys), UNSEEN, dtype=np.int32)
    where = np.minimum(np.searchsorted(model.codes, keys), len(model.codes) - 1)
    return np.where(model.codes[where] == keys, where + FIRST_CLASS, UNSEEN).astype(np.int32)


def new_model(codes: np.ndarray, provenance: dict | None = None) -> PlayoutModel:
    """A model of these codes, every weight 0."""
    n = FIRST_CLASS + len(codes)
    return PlayoutModel(codes, np.zeros(n), np.zeros(n), np.zeros((2, 7)), np.zeros(len(FLAGS)), provenance or {})


def weights_of(model: PlayoutModel) -> np.ndarray:
    """The model's weights as one vector (``kernels.playout_features``'s layout)."""
    return np.r_[model.class_weights, model.response_weights, model.distance_weights.reshape(-1), model.flag_weights]


def set_weights(model: PlayoutModel, x: np.ndarray) -> None:
    """Put the vector ``x`` (``weights_of``'s layout) into ``model``."""
    n = model.n_classes
    model.class_weights = x[:n].copy()
    model.response_weights = x[n : 2 * n].copy()
    model.distance_weights = x[2 * n : 2 * n + N_DISTANCE].reshape(2, 7).copy()
    model.flag_weights = x[2 * n + N_DISTANCE :].copy()


def _free(n_classes: int) -> np.ndarray:
    """Which weights are learned: not FORBIDDEN's (never a candidate), nor the distance slots 0
    and 1 (no distance is below 2)."""
    free = np.ones(2 * n_classes + N_DISTANCE + len(FLAGS), dtype=bool)
    for base in (0, n_classes):
        free[base + 1] = False  # FORBIDDEN
    for t in range(2):
        free[2 * n_classes + 7 * t : 2 * n_classes + 7 * t + 2] = False
    return free


def fit(
    model: PlayoutModel,
    data: Candidates,
    sigma: float,
    iterations: int,
    progress: Callable[[int, float], None] | None = None,
) -> dict:
    """Set ``model``'s weights to the maximum of the log-likelihood of ``data`` under a Gaussian
    prior of standard deviation ``sigma`` (L-BFGS, at most ``iterations`` steps); returns what
    scipy reports. ``progress(step, mean negative log-likelihood)`` after each evaluation."""
    from scipy.optimize import minimize

    n = model.n_classes
    classes = class_indices(model, data.keys)
    words = data.words.astype(np.int64)
    free = _free(n)
    evaluations = [0]

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        full = np.zeros(free.shape[0])
        full[free] = x
        grad = np.zeros(free.shape[0])
        loss = kpf.loss_and_gradient(full, np.int64(n), data.offsets, data.played, classes, words, threads(), grad)
        loss += 0.5 * float(x @ x) / sigma**2
        g = grad[free] + x / sigma**2
        evaluations[0] += 1
        if progress:
            progress(evaluations[0], loss / max(1, len(data)))
        return loss, g

    x0 = weights_of(model)[free]
    result = minimize(objective, x0, jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    full = np.zeros(free.shape[0])
    full[free] = result.x
    set_weights(model, full)
    model.refresh()
    return {"iterations": int(result.nit), "evaluations": int(result.nfev), "message": str(result.message)}


def rank(model: PlayoutModel, data: Candidates) -> Ranks:
    """Each position's log-probability of the move played and its rank among the candidates."""
    n = len(data)
    log_p = np.zeros(n)
    greater = np.zeros(n, dtype=np.int64)
    equal = np.zeros(n, dtype=np.int64)
    classes = class_indices(model, data.keys)
    kpf.evaluate(
        weights_of(model),
        np.int64(model.n_classes),
        data.offsets,
        data.played,
        classes,
        data.words.astype(np.int64),
        threads(),
        log_p,
        greater,
        equal,
    )
    hit1 = np.clip((1 - greater) / np.maximum(equal, 1), 0, 1)
    hit5 = np.clip((5 - greater) / np.maximum(equal, 1), 0, 1)
    return Ranks(hit1, hit5, log_p, data.move_numbers, np.zeros(n, dtype=bool))


def measure(model: PlayoutModel, data: Candidates) -> Measure:
    """Top-1, top-5 and the mean log-likelihood of ``data``'s moves under ``model``."""
    return summarize(rank(model, data))


# ---- simulation balancing (kernels.balance: Silver and Tesauro 2009; Huang, Coulom and Lin 2010)


@dataclass(frozen=True)
class Balanced:
    """A position to balance on: its board's ``size`` and ``komi``, the ``moves`` that reach it
    (``(colour, point)`` from the empty board), and ``target``, Black's chance of winning as a
    deep search finds it."""

    size: int
    komi: float
    moves: tuple[tuple[int, int], ...]
    target: float

    def board(self):
        from goengine.board import Board

        board = Board(self.size)
        for color, point in self.moves:
            board.play(color, point, superko=False)
        return board


_MODELS: dict[bytes, PlayoutModel] = {}  # a worker's models, by their codes: the class table is built once


def _model_with(codes: np.ndarray, weights: np.ndarray) -> PlayoutModel:
    key = codes.tobytes()
    model = _MODELS.get(key)
    if model is None:
        model = _MODELS[key] = new_model(codes)
    set_weights(model, weights)
    model.refresh()
    return model


def balance_batch(task: tuple) -> tuple[np.ndarray, float, int]:
    """One batch of balancing, a task of the job runner: ``(codes, weights, positions, seed,
    n_value, n_grad)``; returns the sum over its positions of ``(V* - V) * grad V``, the sum of
    ``(V* - V)^2`` and the number of positions (``kernels.balance``)."""
    from goengine.kernels import balance as kbal
    from goengine.kernels import learned as kl
    from goengine.kernels.rng import new_state

    codes, weights, positions, seed, n_value, n_grad = task
    model = _model_with(codes, weights)
    rng = new_state(seed)
    total = np.zeros(len(weights))
    squared = 0.0
    for position in positions:
        board = position.board()
        state = kl.new_state(board.pts.shape[1], board.size + 2)
        grad = np.zeros(len(weights))
        value = kbal.value_and_gradient(
            board.pts, board.meta, ZOBRIST, model.arrays, state, rng, float(position.komi), np.int64(n_value),
            np.int64(n_grad), np.int64(3 * board.size**2), np.int64(model.n_classes), grad,
        )  # fmt: skip
        error = position.target - value
        total += error * grad
        squared += error * error
    return total, squared, len(positions)


def outcome_errors(
    positions: list[Balanced], playouts: int, policy: str = "learned", model: PlayoutModel | None = None, seed: int = 1
) -> tuple[float, float]:
    """How far the playouts of the policy named ``policy`` (the learned one with ``model``'s
    weights, the shipped ones by default) are from the positions' targets: the mean over the
    positions of ``(target - V)^2`` and of ``target - V``, ``V`` the mean outcome for Black of
    ``playouts`` playouts from the position (a win 1, a draw 1/2). The first is what balancing
    lowers; the second says which side the playouts favour (above 0: they give White too much)."""
    from goengine.kernels import playout as kp
    from goengine.kernels.rng import new_state
    from goengine.mogo3x3 import table
    from goengine.policies import POLICIES

    policy_id, params = np.int64(POLICIES.get_choice(policy).id), POLICIES.array(policy)
    tables = (table(), (model or shipped()).arrays)
    rng = new_state(seed)
    scores = np.zeros(playouts, dtype=np.int64)
    squared = signed = 0.0
    for position in positions:
        board = position.board()
        kp.run_playouts(
            board.pts, board.meta, ZOBRIST, rng, policy_id, params, tables, np.int64(playouts),
            np.int64(3 * board.size**2), scores,
        )  # fmt: skip
        value = float(np.mean(np.where(scores > position.komi, 1.0, np.where(scores == position.komi, 0.5, 0.0))))
        squared += (position.target - value) ** 2
        signed += position.target - value
    n = max(1, len(positions))
    return squared / n, signed / n


def playout_error(model: PlayoutModel, positions: list[Balanced], playouts: int, seed: int = 1) -> float:
    """The mean squared difference between the positions' targets and the mean outcome of
    ``playouts`` playouts of the policy from each: what balancing lowers."""
    _, squared, n = balance_batch((model.codes, weights_of(model), positions, seed, playouts, 0))
    return squared / max(1, n)


def balance(
    model: PlayoutModel,
    positions: list[Balanced],
    runner,
    rounds: int,
    rate: float,
    batch: int = 8,
    n_value: int = 64,
    n_grad: int = 64,
    seed: int = 1,
    progress: Callable[[int, float], None] | None = None,
) -> list[float]:
    """Balance ``model`` on ``positions``: each round, the positions in batches of ``batch`` on
    ``runner`` (``goengine.jobs.Runner``), each batch's ``sum (V* - V) * grad V`` from ``n_value``
    and ``n_grad`` playouts a position, then the weights moved by ``rate`` times the mean
    (Silver and Tesauro's policy-gradient step; the free weights only: ``_free``). The weights
    that need no balancing are left alone. Returns each round's mean squared error (measured on
    the value playouts of that round). ``progress(round, error)`` after each."""
    free = _free(model.n_classes)
    rng = np.random.default_rng(seed)
    errors = []
    for k in range(rounds):
        order = rng.permutation(len(positions))
        batches = [[positions[i] for i in order[j : j + batch]] for j in range(0, len(order), batch)]
        weights = weights_of(model)
        tasks = (
            (j, (model.codes, weights, b, seed * 100_003 + k * 1_009 + j, n_value, n_grad))
            for j, b in enumerate(batches)
        )
        step = np.zeros(len(weights))
        squared = 0.0
        n = 0
        for _, outcome in runner.run(balance_batch, tasks):
            if isinstance(outcome, BaseException):
                raise outcome
            total, sq, count = outcome
            step += total
            squared += sq
            n += count
        set_weights(model, weights + rate * np.where(free, step / max(1, n), 0.0))
        model.refresh()
        errors.append(squared / max(1, n))
        if progress:
            progress(k + 1, errors[-1])
    return errors
