"""Learning the move model from games, and measuring it: the engine's knowledge from strong play.

Reading guide: ``read_games`` reads an SGF collection (``.sgf`` or ``.sgf.xz``) and replays each
game on goengine's ``Board`` (the engine's rules: positional superko too); a game it cannot read or
replay is passed over and named (``Skipped``: the file, the line the game starts on, the move,
the reason), or, strict, refused; ``Split`` keeps validation games out by date;
``harvest`` and ``dictionary`` make the shape dictionary from the moves played in the training
games; ``extract`` turns positions into candidate features (``kernels.learn.extract_game``);
``fit`` finds the weights; ``measure`` gives top-1, top-5 and the mean log-likelihood.
``scripts/train_movemodel.py`` and ``scripts/predict.py`` are the commands.

The shape dictionary is made from played moves only, as Pachi's ``spatial_gen`` does: counting
the shapes around every legal move instead fills the dictionary with frequent shapes nobody
plays, which predicted 30 % against 37 % in Pachi (its commit c86f1929). A shape enters when it
was played at least ``min_count`` times; since every occurrence of a shape is one of its core's,
the cores of a kept shape are kept too, so a move's shapes form a chain (``movemodel``).

The weights maximise the log-likelihood of the moves played under the model (Coulom 2007's
generalised Bradley-Terry model, ``movemodel``), with a Gaussian prior of standard deviation
``sigma`` on every weight: Coulom's MM algorithm plays one virtual win and one virtual loss
against a gamma-1 opponent for the same purpose, about 302 Elo of spread (Coulom on the
computer-go list, 2007-12-05; Pachi's ``pattern/training/mm/mm.cpp``), sigma 1.74 in ln gamma
(patterns_notes.md section 4). The objective is convex; L-BFGS (scipy) finds its
minimum from the gradient of ``kernels.learn.loss_and_gradient``.
"""

from __future__ import annotations

import lzma
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from goengine import coords, sgf
from goengine.board import BLACK, PASS, ZOBRIST, Board, IllegalMove
from goengine.kernels import features as kf
from goengine.kernels import learn as kl
from goengine.movemodel import MoveModel, geometry, shape_keys, unpack_contents


@dataclass
class Game:
    """One game of a collection: where it is (``source``, ``line``), its date (``DT``, "" if
    none), its size, set-up stones and moves as points and colours (PASS = -1)."""

    source: str
    line: int
    date: str
    size: int
    setup_points: np.ndarray
    setup_colors: np.ndarray
    moves: np.ndarray
    colors: np.ndarray

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


@dataclass(frozen=True)
class Skipped:
    """A game of a collection that cannot be read or replayed: its file (``source``), the line it
    starts on, the number of the move that cannot be played (from 1; None when the game cannot
    be read at all) and why. ``str`` gives ``source:line: [move N: ]reason``."""

    source: str
    line: int
    move: int | None
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {'' if self.move is None else f'move {self.move} '}{self.reason}"

    def as_dict(self) -> dict:
        """The fields a model's provenance and ``scripts/predict.py --json`` record."""
        return {"source": Path(self.source).name, "line": self.line, "move": self.move, "reason": self.reason}


#: what ``Board``'s reasons for an illegal move mean, in a replay's words
_ILLEGAL = {
    "occupied": "the point is occupied",
    "suicide": "suicide",
    "ko": "it retakes a ko at once",
    "superko": "it repeats an earlier position (positional superko)",
    "off board": "off the board",
}


def _open(path: Path):
    return lzma.open(path, "rb") if path.suffix == ".xz" else open(path, "rb")


def _game_texts(data: bytes) -> Iterator[tuple[int, bytes | str]]:
    """The games of an SGF collection, each with the line it starts on: the text is cut at the
    top-level parentheses, skipping property values (``[...]``, with ``\\]`` escapes). Where the
    text cannot be cut, the line and what is wrong instead of a game's text: a parenthesis that
    closes nothing (the cut goes on after it), a game that never ends (at the end of the file)."""
    depth = 0
    start = -1
    line = 1
    start_line = 1
    in_value = False
    escaped = False
    for i, byte in enumerate(data):
        if byte == 10:
            line += 1
        if in_value:
            if escaped:
                escaped = False
            elif byte == 92:  # backslash
                escaped = True
            elif byte == 93:  # ]
                in_value = False
            continue
        if byte == 91:  # [
            in_value = True
        elif byte == 40:  # (
            if depth == 0:
                start, start_line = i, line
            depth += 1
        elif byte == 41:  # )
            depth -= 1
            if depth == 0:
                yield start_line, data[start : i + 1]
            elif depth < 0:
                yield line, "a ')' closes nothing"
                depth = 0
    if depth > 0:
        yield start_line, "a game that never ends"


def parse_game(text: bytes, source: str, line: int) -> Game:
    """One game's SGF text as a ``Game`` (``goengine.sgf.parse``); ValueError naming
    ``source:line`` for anything that is not a Go game goengine can replay (the moves' legality is
    checked when they are replayed)."""
    try:
        position = sgf.parse(text)
    except ValueError as err:
        raise ValueError(f"{source}:{line}: {err}") from None
    return Game(
        source,
        line,
        position.date,
        position.size,
        np.array([p for _, p in position.setup], dtype=np.int64),
        np.array([c for c, _ in position.setup], dtype=np.int64),
        np.array([p for _, p in position.moves], dtype=np.int64),
        np.array([c for c, _ in position.moves], dtype=np.int64),
    )


def replay(game: Game) -> Skipped | None:
    """Replay ``game`` on goengine's ``Board`` (the engine's rules: no move on an occupied point,
    no suicide, no ko retaken at once, no position repeated: positional superko); None when every
    move is legal, else the first move that is not, and why. The kernels that learn from a game
    replay it with simple ko only, so a game must pass here first."""
    board = Board.from_stones(game.size, list(zip(game.setup_colors.tolist(), game.setup_points.tolist(), strict=True)))
    for k, (point, color) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
        try:
            board.play(color, point)
        except IllegalMove as err:
            move = f"{'B' if color == BLACK else 'W'} {coords.to_gtp(game.size, point)}"
            return Skipped(
                game.source, game.line, k + 1, f"({move}) is not legal: {_ILLEGAL.get(err.reason, err.reason)}"
            )
    return None


def read_games(
    path: str | Path,
    limit: int | None = None,
    keep: Callable[[Game], bool] | None = None,
    skipped: list[Skipped] | None = None,
) -> list[Game]:
    """The games of an SGF file or collection (``.sgf``, ``.sgf.xz``) that can be read and
    replayed (``replay``), in file order: at most ``limit`` of those ``keep`` accepts (only those
    are replayed). A game that cannot be read or replayed is appended to ``skipped`` and passed
    over; without a ``skipped`` list, the first one raises ValueError naming the file, the game's
    line, the move and why. Nothing is passed over silently. ValueError too for a file that
    cannot be read at all (not xz, or cut short)."""
    path = Path(path)
    try:
        with _open(path) as handle:
            data = handle.read()
    except (lzma.LZMAError, EOFError) as err:  # not xz, or cut short
        raise ValueError(f"{path}: {err}") from None
    games = []
    for line, text in list(_game_texts(data)):
        if limit is not None and len(games) >= limit:
            break
        problem = None
        if isinstance(text, str):
            problem = Skipped(str(path), line, None, text)
        else:
            try:
                game = parse_game(text, str(path), line)
            except ValueError as err:
                problem = Skipped(str(path), line, None, str(err).removeprefix(f"{path}:{line}: "))
            else:
                if keep is not None and not keep(game):
                    continue
                problem = replay(game)
        if problem is None:
            games.append(game)
        elif skipped is None:
            raise ValueError(str(problem))
        else:
            skipped.append(problem)
    return games


@dataclass(frozen=True)
class Split:
    """Which games train and which validate: by date (``DT``), so that no game of the validation
    months is seen in training (Pachi's test set is another month of games). ``tune_from`` ..
    ``validate_from``: games held out of the fit to choose its settings; from ``validate_from``:
    the validation games, used for nothing but the final measure."""

    validate_from: str = "2011-05-01"
    tune_from: str = "2011-03-01"

    def part(self, game: Game) -> str:
        if game.date >= self.validate_from:
            return "validation"
        if game.date >= self.tune_from:
            return "tuning"
        return "training"


def _replay_error(game: Game, k: int) -> ValueError:
    color = "B" if game.colors[k] == BLACK else "W"
    return ValueError(
        f"{game.where}: move {k + 1} ({color} {coords.to_gtp(game.size, int(game.moves[k]))}) is not legal"
    )


def harvest(games: list[Game], progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The canonical shape keys (an (n, MAX_SHAPE + 1) uint64 array, columns MIN_SHAPE..MAX_SHAPE
    used) and the packed surroundings ((n, 3) uint64) of every move played on a point in
    ``games``, from the mover's side."""
    geo = geometry()
    arrays = (geo.spiral, geo.ring_end, geo.zkeys, geo.size_keys, geo.orient)
    total = sum(len(g.moves) for g in games)
    keys = np.zeros((total, kf.MAX_SHAPE + 1), dtype=np.uint64)
    contents = np.zeros((total, 3), dtype=np.uint64)
    bad = np.zeros(1, dtype=np.int64)
    n = 0
    for game in games:
        got = kl.harvest_game(
            game.size,
            game.setup_points,
            game.setup_colors,
            game.moves,
            game.colors,
            ZOBRIST,
            arrays,
            keys[n:],
            contents[n:],
            bad,
        )
        if got == kl.ILLEGAL:
            raise _replay_error(game, int(bad[0]))
        n += got
        if progress:
            progress(1)
    return keys[:n], contents[:n]


@dataclass
class Dictionary:
    """The kept shapes: ``sizes``, ``contents`` (the surroundings of one occurrence), ``parents``,
    ``counts`` (times played) and ``keys`` (the canonical key the harvest counted them by), index 0
    standing for "no shape"."""

    sizes: np.ndarray
    contents: np.ndarray
    parents: np.ndarray
    counts: np.ndarray
    keys: np.ndarray

    def __len__(self) -> int:
        return len(self.sizes) - 1


def dictionary(keys: np.ndarray, contents: np.ndarray, min_count: int) -> Dictionary:
    """The shapes played at least ``min_count`` times, ordered by size, then by how often played;
    each with its parent (the next smaller size's shape at the same occurrences)."""
    sizes, kept_contents, parents, counts, kept_keys = [0], [np.zeros(3, dtype=np.uint64)], [-1], [0], [0]
    key_to_id: dict[tuple[int, int], int] = {}
    for d in range(kf.MIN_SHAPE, kf.MAX_SHAPE + 1):
        column = keys[:, d]
        order = np.argsort(column, kind="stable")
        ordered = column[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        runs = np.diff(np.r_[starts, len(ordered)])
        keep = np.flatnonzero(runs >= min_count)
        keep = keep[np.argsort(-runs[keep], kind="stable")]
        for run in keep:
            first = order[starts[run]]  # one occurrence: its surroundings rebuild the shape
            key = int(ordered[starts[run]])
            parent = key_to_id.get((d - 1, int(keys[first, d - 1]))) if d > kf.MIN_SHAPE else -1
            if parent is None:
                raise AssertionError("a kept shape's core was not kept")  # impossible by the counting
            key_to_id[(d, key)] = len(sizes)
            sizes.append(d)
            kept_contents.append(contents[first])
            parents.append(parent)
            counts.append(int(runs[run]))
            kept_keys.append(key)
    return Dictionary(
        np.array(sizes, dtype=np.int64),
        np.array(kept_contents, dtype=np.uint64),
        np.array(parents, dtype=np.int64),
        np.array(counts, dtype=np.int64),
        np.array(kept_keys, dtype=np.uint64),
    )


def check_dictionary(d: Dictionary) -> None:
    """The dictionary's shapes rebuilt from their contents must give back the canonical keys the
    harvest counted them by (the least orientation hash, then the size key: ``canonical_keys``),
    and no two shapes may share a key (``movemodel.build_table`` refuses a collision too)."""
    size_keys = geometry().size_keys[d.sizes[1:]]
    rebuilt = (shape_keys(unpack_contents(d.contents[1:]), d.sizes[1:]) ^ size_keys[:, None]).min(axis=1) ^ size_keys
    if not np.array_equal(rebuilt, d.keys[1:]):
        raise ValueError("a shape rebuilt from its contents does not give its canonical key back")
    if len(np.unique(rebuilt)) != len(d):
        raise ValueError("two shapes of the dictionary have the same canonical key")


@dataclass
class Positions:
    """Positions as the learner sees them: ``offsets[k]`` .. ``offsets[k + 1]`` are position k's
    candidates (``codes``, ``shapes``), ``played[k]`` the index of the move played among them,
    ``move_numbers[k]`` its number in its game (from 0), ``is_pass[k]`` whether it was a pass."""

    offsets: np.ndarray
    played: np.ndarray
    codes: np.ndarray
    shapes: np.ndarray
    move_numbers: np.ndarray
    is_pass: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return len(self.played)

    @property
    def candidates(self) -> int:
        return int(self.offsets[-1])


def extract(
    games: list[Game], model: MoveModel, every: int = 1, progress: Callable[[int], None] | None = None
) -> Positions:
    """The candidate features of the positions of ``games``; with ``every`` > 1 only every
    ``every``-th position of each game (from a game-dependent start) is kept, which cuts the data
    without cutting any position's candidates (a probability needs all of them)."""
    chunks_codes, chunks_shapes, counts_all, played_all, numbers_all, passes_all = [], [], [], [], [], []
    bad = np.zeros(1, dtype=np.int64)
    for g, game in enumerate(games):
        n_moves = len(game.moves)
        keep = np.arange(g % every, n_moves, every) if every > 1 else np.arange(n_moves)
        wanted = np.zeros(n_moves, dtype=np.bool_)
        wanted[keep] = True
        codes = np.zeros(len(keep) * kf.MAX_CANDIDATES, dtype=np.int32)
        shapes = np.zeros(len(keep) * kf.MAX_CANDIDATES, dtype=np.int32)
        counts = np.zeros(n_moves, dtype=np.int64)
        played = np.zeros(n_moves, dtype=np.int64)
        total = kl.extract_game(
            game.size,
            game.setup_points,
            game.setup_colors,
            game.moves,
            game.colors,
            wanted,
            ZOBRIST,
            model.arrays,
            codes,
            shapes,
            counts,
            played,
            bad,
        )
        if total == kl.ILLEGAL:
            raise _replay_error(game, int(bad[0]))
        chunks_codes.append(codes[:total])
        chunks_shapes.append(shapes[:total])
        counts_all.append(counts[keep])
        played_all.append(played[keep])
        numbers_all.append(keep)
        passes_all.append(game.moves[keep] == PASS)
        if progress:
            progress(1)
    counts = np.concatenate(counts_all) if counts_all else np.zeros(0, dtype=np.int64)
    return Positions(
        np.r_[0, np.cumsum(counts)].astype(np.int64),
        np.concatenate(played_all).astype(np.int64) if played_all else np.zeros(0, dtype=np.int64),
        np.concatenate(chunks_codes) if chunks_codes else np.zeros(0, dtype=np.int32),
        np.concatenate(chunks_shapes) if chunks_shapes else np.zeros(0, dtype=np.int32),
        np.concatenate(numbers_all).astype(np.int64) if numbers_all else np.zeros(0, dtype=np.int64),
        np.concatenate(passes_all) if passes_all else np.zeros(0, dtype=bool),
    )


def threads() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0))


def _scores(model: MoveModel) -> tuple[np.ndarray, np.ndarray]:
    return np.ascontiguousarray(model.group_weights), model.shape_scores


def fit(
    model: MoveModel,
    data: Positions,
    sigma: float,
    iterations: int,
    progress: Callable[[int, float], None] | None = None,
) -> dict:
    """Set ``model``'s weights to the maximum of the log-likelihood of ``data`` under a Gaussian
    prior of standard deviation ``sigma`` (L-BFGS, at most ``iterations`` steps); returns what
    scipy reports. ``progress(step, mean negative log-likelihood)`` after each evaluation."""
    from scipy.optimize import minimize

    n_groups = kf.N_GROUPS * kf.MAX_VALUES
    n_shapes = len(model.sizes)
    order = np.argsort(-model.sizes, kind="stable")  # the largest first: children before parents
    parents = model.parents
    evaluations = [0]

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        model.group_weights = x[:n_groups].reshape(kf.N_GROUPS, kf.MAX_VALUES).copy()
        model.shape_weights = x[n_groups:].copy()
        model.refresh()
        grad_groups = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
        grad_direct = np.zeros(n_shapes)
        loss = kl.loss_and_gradient(
            model.group_weights,
            model.shape_scores,
            data.offsets,
            data.played,
            data.codes,
            data.shapes,
            threads(),
            grad_groups,
            grad_direct,
        )
        grad_shapes = kl.chain_sums(grad_direct, order, parents)
        loss += 0.5 * float(x @ x) / sigma**2
        grad = np.r_[grad_groups.reshape(-1), grad_shapes] + x / sigma**2
        evaluations[0] += 1
        if progress:
            progress(evaluations[0], loss / max(1, len(data)))
        return loss, grad

    x0 = np.r_[model.group_weights.reshape(-1), model.shape_weights]
    result = minimize(objective, x0, jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    objective(result.x)
    return {"iterations": int(result.nit), "evaluations": int(result.nfev), "message": str(result.message)}


@dataclass
class Measure:
    """How well a model predicts positions: ``moves`` (non-pass moves measured), ``top1``,
    ``top5`` (the share of them whose move is the model's first / among its first five, ties
    broken at random), ``loglik`` (the mean log-probability of the move played), each overall and
    by move number (``buckets``: name -> (moves, top1, top5, loglik))."""

    moves: int
    top1: float
    top5: float
    loglik: float
    buckets: dict[str, tuple[int, float, float, float]]

    def as_dict(self) -> dict:
        return {
            "moves": self.moves,
            "top1": round(self.top1, 4),
            "top5": round(self.top5, 4),
            "loglik": round(self.loglik, 4),
            "buckets": {k: {"moves": m, "top1": round(a, 4), "top5": round(b, 4), "loglik": round(c, 4)}
                        for k, (m, a, b, c) in self.buckets.items()},
        }  # fmt: skip


BUCKETS = (("0-29", 0, 30), ("30-79", 30, 80), ("80+", 80, 10**9))


@dataclass
class Ranks:
    """Per position: ``hit1``, ``hit5`` (the chance the move played is the model's first / among
    its first five, ties broken at random), ``log_p`` (its log-probability), ``move_numbers`` and
    ``is_pass``. ``extend`` joins the ranks of several batches of positions."""

    hit1: np.ndarray
    hit5: np.ndarray
    log_p: np.ndarray
    move_numbers: np.ndarray
    is_pass: np.ndarray

    @classmethod
    def none(cls) -> Ranks:
        return cls(np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool))

    def extend(self, other: Ranks) -> Ranks:
        return Ranks(*(np.r_[getattr(self, f), getattr(other, f)] for f in self.__dataclass_fields__))


def rank(model: MoveModel, data: Positions) -> Ranks:
    """Where the model ranks each position's move played (``kernels.learn.evaluate``)."""
    n = len(data)
    log_p = np.zeros(n)
    greater = np.zeros(n, dtype=np.int64)
    equal = np.ones(n, dtype=np.int64)
    weights, scores = _scores(model)
    kl.evaluate(weights, scores, data.offsets, data.played, data.codes, data.shapes, threads(), log_p, greater, equal)
    hit1 = np.clip((1 - greater) / equal, 0, 1)
    hit5 = np.clip((5 - greater) / equal, 0, 1)
    is_pass = data.is_pass if len(data.is_pass) == n else np.zeros(n, dtype=bool)
    return Ranks(hit1, hit5, log_p, data.move_numbers, is_pass)


def summarize(ranks: Ranks) -> Measure:
    """Top-1, top-5 and the mean log-likelihood of the moves played (passes left out, as Pachi's
    predictor counts), overall and by move number."""
    counted = ~ranks.is_pass

    def summary(mask: np.ndarray) -> tuple[int, float, float, float]:
        m = int(mask.sum())
        if m == 0:
            return 0, 0.0, 0.0, 0.0
        return m, float(ranks.hit1[mask].mean()), float(ranks.hit5[mask].mean()), float(ranks.log_p[mask].mean())

    moves, top1, top5, loglik = summary(counted)
    buckets = {
        name: summary(counted & (ranks.move_numbers >= lo) & (ranks.move_numbers < hi)) for name, lo, hi in BUCKETS
    }
    return Measure(moves, top1, top5, loglik, buckets)


def measure(model: MoveModel, data: Positions) -> Measure:
    """``summarize(rank(model, data))``."""
    return summarize(rank(model, data))


def new_model(d: Dictionary, provenance: dict | None = None) -> MoveModel:
    """A model over dictionary ``d`` with every weight 0 (all moves equally likely)."""
    return MoveModel(
        sizes=d.sizes,
        contents=d.contents,
        parents=d.parents,
        shape_weights=np.zeros(len(d.sizes)),
        group_weights=np.zeros((kf.N_GROUPS, kf.MAX_VALUES)),
        provenance=provenance or {},
        counts=d.counts,
    )
