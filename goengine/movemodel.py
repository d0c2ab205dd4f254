"""The move model learned from strong games: every legal move's probability in a position.

Coulom's generalised Bradley-Terry model (Coulom 2007, "Computing Elo Ratings of Move Patterns in
the Game of Go", ICGA Journal 30(4)): a move's strength is the product of the gammas of its
feature values, and P(move) = strength / the sum of the strengths of all legal moves. Here a
gamma is kept as its logarithm, a weight: a move's score is the sum of its weights and the
probabilities are the softmax of the scores. The features are the tactical groups and the nested
shapes of ``goengine.kernels.features``; the weights and the shape dictionary are learned by
``goengine.training`` (``scripts/train_movemodel.py``) and shipped as ``goengine/data/movemodel.npz``
with their provenance inside.

Reading guide: ``MoveModel.load`` reads a model file and the lookup table of all eight
orientations of every shape (``shape_keys``, ``build_table``). Building that table takes seconds
and, at once, a few hundred megabytes, so the first load writes it to the kernel cache
(``table_folder``) and every later load maps it from there: ready in milliseconds, its pages
shared by every engine process on the machine. ``MoveModel.rate`` gives the probabilities of a
board's legal moves, ``MoveModel.explain`` one move's feature values. ``Geometry`` is the fixed
part (the spiral of shape points, the orientations, the Zobrist keys), the same for every model.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from goengine import coords
from goengine.board import PASS, ZOBRIST, Board, parse_color
from goengine.kernels import board as kb
from goengine.kernels import cache_dir
from goengine.kernels import features as kf

FORMAT = 1  # the model file's layout; a file of another format is refused
ZOBRIST_SEED = 0x5EED_5A9E  # the shape keys' seed: a model's dictionary is valid only with these keys
DEFAULT_PATH = Path(__file__).parent / "data" / "movemodel.npz"
TABLE_ARRAYS = ("table_keys", "table_ids")  # the files of a mapped table, in the order build_table returns them
SHAPES_A_CHUNK = 16_384  # dictionary_table's shapes at a time: its scratch is a few (rows, 72) words, 9 MB each

#: each feature group's name and the words for its values (index = value), as ``explain`` and
#: GoGui's display show them
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pass", ("-", "after a pass", "pass")),
    ("capture", ("-", "ko", "saves a chain in atari", "of the last move's chain", "1-2 stones", "3+ stones")),
    ("escape", ("-", "new atari, works", "new atari, fails", "old atari, works", "old atari, fails")),
    ("atari", ("-", "ladder or net", "with a ko on the board", "other")),
    ("self_atari", ("-", "throw-in in an eye space", "one stone", "two stones or more")),
    ("edge", ("-", "line 1", "line 2", "line 3", "line 4", "line 5+")),
    ("dist_last", ("-", *(f"d={d}" for d in range(2, 17)), "d>=17")),
    ("dist_last2", ("-", "d=0", *(f"d={d}" for d in range(2, 17)), "d>=17")),
)
assert tuple(len(values) for _, values in GROUPS) == kf.GROUP_SIZES


def gridcular(dx: int, dy: int) -> int:
    """Coulom's distance of an offset: ``|dx| + |dy| + max(|dx|, |dy|)``."""
    return abs(dx) + abs(dy) + max(abs(dx), abs(dy))


@dataclass(frozen=True)
class Geometry:
    """The fixed part of every shape: ``spiral[i]``, the (dx, dy) of point i (dx to the right, dy
    down), by distance, then row, then column, point 0 the move itself; ``ring_end[d]``, the
    points at distance <= d; ``orient[o, i]``, where point i goes under orientation o (o = 0 the
    identity; the eight rotations and reflections); ``zkeys[i, state]`` and ``size_keys[d]``, the
    Zobrist keys (``zkeys[i, 0]`` = 0: an empty point adds nothing, and neither does the centre)."""

    spiral: np.ndarray
    ring_end: np.ndarray
    orient: np.ndarray
    zkeys: np.ndarray
    size_keys: np.ndarray


ORIENTATIONS = (
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
)


@cache
def geometry() -> Geometry:
    """The shapes' geometry (built once)."""
    reach = kf.MAX_SHAPE // 2
    offsets = [
        (dx, dy)
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
        if gridcular(dx, dy) <= kf.MAX_SHAPE
    ]
    offsets.sort(key=lambda o: (gridcular(*o), o[1], o[0]))
    assert len(offsets) == kf.N_SPIRAL
    index = {o: i for i, o in enumerate(offsets)}
    spiral = np.array(offsets, dtype=np.int64)
    ring_end = np.array(
        [sum(1 for o in offsets if gridcular(*o) <= d) for d in range(kf.MAX_SHAPE + 1)], dtype=np.int64
    )
    orient = np.array([[index[t(*o)] for o in offsets] for t in ORIENTATIONS], dtype=np.int64)
    rng = np.random.default_rng(ZOBRIST_SEED)
    zkeys = rng.integers(1, 2**63, size=(kf.N_SPIRAL, 4), dtype=np.int64).astype(np.uint64)
    zkeys[:, 0] = 0
    zkeys[0, :] = 0
    size_keys = rng.integers(1, 2**63, size=kf.MAX_SHAPE + 1, dtype=np.int64).astype(np.uint64)
    return Geometry(spiral, ring_end, orient, zkeys, size_keys)


def unpack_contents(contents: np.ndarray) -> np.ndarray:
    """The 72 point states (spiral order, from point 1) of each row of ``contents`` (3 words, 2
    bits a point, as ``kernels.features.canonical_keys`` packs them): an int64 array (n, 72)."""
    words = np.asarray(contents, dtype=np.uint64).reshape(-1, 3)
    j = np.arange(kf.N_SPIRAL - 1)
    shifts = (2 * (j & 31)).astype(np.uint64)
    return ((words[:, j >> 5] >> shifts) & np.uint64(3)).astype(np.int64)


def shape_keys(states: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The eight orientations' hash keys (size key included) of each shape: row k has the point
    states (spiral order from point 1) of a shape of size ``sizes[k]``. What
    ``kernels.features.shape_id`` computes on a board showing that shape in some orientation.
    A (n, 8) uint64 array."""
    geo = geometry()
    states = np.atleast_2d(np.asarray(states, dtype=np.int64))
    sizes = np.atleast_1d(np.asarray(sizes, dtype=np.int64))
    inside = np.arange(1, kf.N_SPIRAL)[None, :] < geo.ring_end[sizes][:, None]  # the shape's own points
    keys = np.zeros((len(sizes), 8), dtype=np.uint64)
    for o in range(8):
        per_point = geo.zkeys[geo.orient[o, 1:][None, :], states]  # (n, 72)
        per_point = np.where(inside, per_point, np.uint64(0))
        keys[:, o] = np.bitwise_xor.reduce(per_point, axis=1) ^ geo.size_keys[sizes]
    return keys


def dictionary_table(contents: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``build_table`` of a whole shape dictionary (``contents`` and ``sizes`` of shapes 1..n):
    every orientation's key maps to its shape's id. The keys are computed ``SHAPES_A_CHUNK``
    shapes at a time: unpacked at once, a dictionary of 184,000 shapes took 436 MB."""
    keys = np.zeros((len(sizes), 8), dtype=np.uint64)
    for start in range(0, len(sizes), SHAPES_A_CHUNK):
        rows = slice(start, start + SHAPES_A_CHUNK)
        keys[rows] = shape_keys(unpack_contents(contents[rows]), sizes[rows])
    ids = np.repeat(np.arange(1, len(sizes) + 1, dtype=np.int32), 8)
    return build_table(keys.reshape(-1), ids)


def build_table(keys: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing table (linear probing, power-of-two size at least twice the keys, a zero
    key marking an empty slot) mapping ``keys`` to ``ids``; a key given twice must have one id
    (a symmetric shape's orientations repeat a key). ValueError on two ids for one key (a hash
    collision: two different shapes with the same 64-bit key)."""
    keys = np.asarray(keys, dtype=np.uint64)
    ids = np.asarray(ids, dtype=np.int32)
    if np.any(keys == 0):
        raise ValueError("a shape's key is 0, which marks an empty slot")
    n = max(16, 1 << int(np.ceil(np.log2(max(2 * len(keys), 2)))))
    table_keys = np.zeros(n, dtype=np.uint64)
    table_ids = np.full(n, -1, dtype=np.int32)
    clash = kf.fill_table(keys, ids, table_keys, table_ids)
    if clash >= 0:
        raise ValueError(f"two shapes share the key {int(keys[clash]):#x}")
    return table_keys, table_ids


def cumulative_scores(weights: np.ndarray, parents: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Each shape's score: its weight plus its cores' (its parent's cumulative score), computed
    one size at a time in increasing size, so a parent (always smaller) is done before its
    children. ``[0]`` is the no-shape weight."""
    scores = np.array(weights, dtype=np.float64)
    has_parent = parents > 0
    has_parent[kf.NO_SHAPE] = False
    for size in np.unique(sizes):
        rows = np.nonzero(has_parent & (sizes == size))[0]
        scores[rows] += scores[parents[rows]]
    return scores


def table_folder(model_file: bytes) -> Path:
    """Where the lookup table of the model file with these bytes is cached: in the kernel cache
    (``kernels.cache_dir``), which is keyed to the kernels' sources, so a change to the table's
    layout or probing can never meet a table built for the old one."""
    return cache_dir() / f"movemodel-{hashlib.sha256(model_file).hexdigest()[:16]}"


def mapped_table(folder: Path, n_shapes: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The lookup table saved in ``folder``, mapped from its files (copy-on-write: the kernels
    get writeable arrays, and the pages stay the page cache's, shared by every process that maps
    them, as long as nothing writes them); None when it is missing or not a table of a
    dictionary of ``n_shapes`` entries (shape 0 included)."""
    try:
        keys, ids = (np.load(folder / f"{name}.npy", mmap_mode="c").view(np.ndarray) for name in TABLE_ARRAYS)
    except (OSError, ValueError):
        return None
    size = len(keys)
    if keys.dtype != np.uint64 or ids.dtype != np.int32 or len(ids) != size or size & (size - 1):
        return None
    if size < max(16, 2 * 8 * (n_shapes - 1)):  # build_table's: at least twice the keys, 8 a shape
        return None
    return keys, ids


def save_table(folder: Path, table: tuple[np.ndarray, np.ndarray], n_shapes: int) -> None:
    """Write ``table`` (of a dictionary of ``n_shapes`` entries) to ``folder`` for
    ``mapped_table``: into a fresh folder beside it, renamed into place at once, so another
    process sees the whole table or none. A folder already there is kept when it holds a table
    (another process, loading the same model at the same time, saved it first), and replaced when
    ``mapped_table`` refuses it (damaged). A cache that cannot be written (read-only, full) costs
    only the next load's time."""
    if mapped_table(folder, n_shapes) is not None:
        return
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    except OSError:  # the cache is not writable
        return
    try:
        for name, array in zip(TABLE_ARRAYS, table, strict=True):
            np.save(scratch / f"{name}.npy", np.ascontiguousarray(array))
        shutil.rmtree(folder, ignore_errors=True)  # a process mapping it keeps its pages
        os.replace(scratch, folder)
    except OSError:  # the disk is full, or another process renamed its copy in first
        shutil.rmtree(scratch, ignore_errors=True)


@dataclass
class MoveModel:
    """A learned model: the shape dictionary (``sizes``, ``contents``, ``parents``: index 0 is
    "no shape", shapes 1..n), the weights (``shape_weights``, ``group_weights[g, v]``) and the
    ``provenance`` (a dict: games, split, command, commit, date, counts, validation figures).
    ``table``, the dictionary's lookup table (``dictionary_table``), is built unless given: ``load``
    gives the one it mapped from the cache."""

    sizes: np.ndarray
    contents: np.ndarray
    parents: np.ndarray
    shape_weights: np.ndarray
    group_weights: np.ndarray
    provenance: dict = field(default_factory=dict)
    counts: np.ndarray | None = None
    table: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.sizes = np.asarray(self.sizes, dtype=np.int64)
        self.parents = np.asarray(self.parents, dtype=np.int64)
        n = len(self.sizes)
        if not (len(self.contents) == len(self.parents) == len(self.shape_weights) == n):
            raise ValueError("a model's shape arrays must have one entry a shape")
        if self.group_weights.shape != (kf.N_GROUPS, kf.MAX_VALUES):
            raise ValueError(f"group weights must be {kf.N_GROUPS} x {kf.MAX_VALUES}")
        if self.table is None:
            self.table = dictionary_table(self.contents[1:], self.sizes[1:])
        self.table_keys, self.table_ids = self.table
        self.refresh()

    def refresh(self) -> None:
        """Recompute what the kernels read from the weights (after they change): the shapes'
        cumulative scores and ``arrays``."""
        geo = geometry()
        self.group_weights = np.ascontiguousarray(self.group_weights, dtype=np.float64)
        self.shape_scores = cumulative_scores(self.shape_weights, self.parents, self.sizes)
        self.arrays = (
            geo.spiral,
            geo.ring_end,
            geo.zkeys,
            geo.size_keys,
            self.table_keys,
            self.table_ids,
            self.group_weights,
            self.shape_scores,
        )

    @property
    def n_shapes(self) -> int:
        return len(self.sizes) - 1

    # ---- files

    def save(self, path: str | Path) -> None:
        """Write the model (compressed npz) with its provenance inside, to ``path`` exactly (numpy
        would add ``.npz`` to a name without it)."""
        with open(path, "wb") as handle:
            np.savez_compressed(
                handle,
                format=np.array(FORMAT),
                zobrist_seed=np.array(ZOBRIST_SEED, dtype=np.int64),
                sizes=self.sizes.astype(np.int8),
                contents=np.asarray(self.contents, dtype=np.uint64),
                parents=self.parents.astype(np.int32),
                shape_weights=np.asarray(self.shape_weights, dtype=np.float32),
                group_weights=np.asarray(self.group_weights, dtype=np.float64),
                counts=np.asarray(
                    self.counts if self.counts is not None else np.zeros(len(self.sizes)), dtype=np.int64
                ),
                provenance=np.array(json.dumps(self.provenance, sort_keys=True)),
            )

    @classmethod
    def load(cls, path: str | Path = DEFAULT_PATH, cache: bool = True) -> MoveModel:
        """Read a model file; ValueError naming the file when it is not one this code can use.
        With ``cache``, the lookup table is mapped from the kernel cache (``table_folder``), or
        built and written there for the next load when it is not yet; without, it is built."""
        try:
            raw = Path(path).read_bytes()
            archive = np.load(io.BytesIO(raw), allow_pickle=False)
            if not isinstance(archive, np.lib.npyio.NpzFile):
                raise ValueError("one array, not an archive of arrays")
            with archive as data:
                if int(data["format"]) != FORMAT:
                    raise ValueError(f"format {int(data['format'])}, this code reads format {FORMAT}")
                if int(data["zobrist_seed"]) != ZOBRIST_SEED:
                    raise ValueError("its shapes were hashed with other keys")
                arrays = {
                    "sizes": data["sizes"],
                    "contents": data["contents"],
                    "parents": data["parents"],
                    "shape_weights": data["shape_weights"].astype(np.float64),
                    "group_weights": data["group_weights"],
                    "provenance": json.loads(str(data["provenance"])),
                    "counts": data["counts"],
                }
        # an empty file is an EOFError to numpy, a cut one a BadZipFile, a damaged member zlib's
        except (KeyError, OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as err:
            raise ValueError(f"{path}: not a goengine move model: {err}") from None
        folder = table_folder(raw) if cache else None
        table = mapped_table(folder, len(arrays["sizes"])) if folder else None
        model = cls(**arrays, table=table)
        if folder and table is None:
            save_table(folder, model.table, len(arrays["sizes"]))
        return model

    # ---- use

    def rate(self, board: Board, color: int | None = None) -> list[tuple[int, float]]:
        """Every legal move of ``color`` (default: the side to move) in ``board`` with its
        probability, most likely first; PASS included. Positional superko is not checked (a
        move it forbids keeps a probability)."""
        return self.rate_position(board.pts, board.meta, color)

    def policy(self, board: Board, color: int | str | None = None) -> dict[int, float]:
        """``rate`` as a policy: every legal move of ``color`` (default: the side to move), PASS
        included, with its probability, those summing to 1 once the moves positional superko
        forbids are taken out."""
        c = board.to_move if color is None else parse_color(color)
        rated = [(m, p) for m, p in self.rate(board, c) if m == PASS or board.is_legal(c, m)]
        total = sum(p for _, p in rated)
        return {m: p / total for m, p in rated} if total > 0 else {}

    def rate_position(self, pts: np.ndarray, meta: np.ndarray, color: int | None = None) -> list[tuple[int, float]]:
        """``rate`` on a position given as the kernels' arrays."""
        moves, codes, shapes = self.position_features(pts, meta, color)
        scores = np.array([self.score(int(c), int(s)) for c, s in zip(codes, shapes, strict=True)])
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        order = sorted(range(len(moves)), key=lambda k: (-probs[k], moves[k]))
        return [(int(moves[k]), float(probs[k])) for k in order]

    def position_features(
        self, pts: np.ndarray, meta: np.ndarray, color: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(moves, codes, shapes)`` of every legal move of ``color`` (default: the side to
        move) in the position (``kernels.features.position_features``)."""
        pts, meta = pts.copy(), meta.copy()
        if color is not None:
            meta[kb.TO_MOVE] = color
        spts = np.zeros_like(pts)
        smeta = np.zeros_like(meta)
        moves = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
        codes = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
        shapes = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
        n = kf.position_features(pts, meta, ZOBRIST, self.arrays, spts, smeta, moves, codes, shapes)
        return moves[:n], codes[:n], shapes[:n]

    def score(self, code: int, shape: int) -> float:
        """A move's score (ln of its strength) from its packed code and its shape."""
        s = float(self.shape_scores[shape])
        for g in range(kf.N_GROUPS):
            s += float(self.group_weights[g, (code >> kf.GROUP_SHIFTS[g]) & kf.GROUP_MASKS[g]])
        return s

    def explain(self, board: Board, point: int | str, color: int | None = None) -> dict[str, str]:
        """The feature values of one legal move, in words, with its shape's size and its score:
        what GoGui's features display shows. ValueError for a move that is not legal."""
        p = coords.from_gtp(board.size, point) if isinstance(point, str) else point
        moves, codes, shapes = self.position_features(board.pts, board.meta, color)
        where = np.nonzero(moves == p)[0]
        if len(where) == 0:
            raise ValueError(f"{coords.to_gtp(board.size, p) if p != PASS else 'pass'} is not a legal move")
        k = int(where[0])
        code, shape = int(codes[k]), int(shapes[k])
        words = {}
        for g, (name, values) in enumerate(GROUPS):
            value = (code >> kf.GROUP_SHIFTS[g]) & kf.GROUP_MASKS[g]
            if value:
                words[name] = values[value]
        words["shape"] = f"size {int(self.sizes[shape])} (#{shape})" if shape != kf.NO_SHAPE else "none known"
        words["score"] = f"{self.score(code, shape):.3f}"
        return words


@cache
def empty_arrays() -> tuple:
    """The arrays of no model (no shape known, every weight 0), typed as ``MoveModel.arrays`` so
    that the kernels compile once whether a search uses a model or not."""
    geo = geometry()
    return (
        geo.spiral,
        geo.ring_end,
        geo.zkeys,
        geo.size_keys,
        np.zeros(16, dtype=np.uint64),
        np.full(16, -1, dtype=np.int32),
        np.zeros((kf.N_GROUPS, kf.MAX_VALUES)),
        np.zeros(1),
    )


@cache
def shipped() -> MoveModel:
    """The model that ships with the package (loaded once)."""
    return MoveModel.load(DEFAULT_PATH)
