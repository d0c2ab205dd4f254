"""The learned playout policy's weights: what ``kernels.learned`` draws its moves by.

A model holds one weight for each class of neighbourhood code it knows (``kernels.neighbourhood``:
the 3x3 pattern with the neighbour chains' liberties, read for the mover, the same under the
eight rotations and reflections: ``canonical_codes``), a second for the same class right beside
the opponent's last move (the response pattern), a weight for each gridcular distance 2 to 6
from the opponent's last move and from the mover's own, and three flag weights (the vital point
of an eye space next to the last move, a bad self-atari, an escape a ladder defeats). Class 0 is
every code the model has not seen, class 1 every code that is the mover's eye or a suicide,
which the playouts never play (rate 0). The weights are learned by ``goengine.playout_training``
(``scripts/train_playouts.py``) and shipped as ``goengine/data/playouts.npz`` with their
provenance inside (the games, the command, the commit, the figures).

Reading guide: ``canonical_codes`` is the symmetry; ``PlayoutModel.arrays`` what the kernels
read (``kernels.learned``'s ``model`` tuple); ``PlayoutModel.load``/``save`` the file.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from goengine.kernels import learned as kl
from goengine.kernels import neighbourhood as kn

FORMAT = 1
DEFAULT_PATH = Path(__file__).parent / "data" / "playouts.npz"
UNSEEN = 0  # the class of a code the model does not know
FORBIDDEN = 1  # the class of a code that is the mover's eye or a suicide: never played
FIRST_CLASS = 2
RATE_SCALE = 1 << 16  # a rate is exp(weight) times this, an integer (``kernels.learned``)
MAX_WEIGHT = 11.0  # weights are clipped to +-this in the rates: 361 rates stay below 2**53
FLAGS = ("nakade", "self_atari", "failed_escape")  # the flag weights, in ``kernels.learned``'s order

# the eight neighbours' offsets, in the code's order (N W E S, then NW NE SW SE)
_OFFSETS = ((0, -1), (-1, 0), (1, 0), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
_TRANSFORMS = (
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
)


@cache
def canonical_codes() -> np.ndarray:
    """``canonical[code]``: the least of the eight codes the neighbourhood ``code`` takes under
    rotation and reflection (int32, every one of the N_CODES codes). Codes are read for Black to
    move; White's are read through ``neighbourhood.swap_colours``."""
    codes = np.arange(kn.N_CODES, dtype=np.int64)
    fields = [(codes >> (3 * k)) & 7 for k in range(4)] + [(codes >> (kn.DIAG_SHIFT + 2 * k)) & 3 for k in range(4)]
    best = None
    for transform in _TRANSFORMS:
        moved = np.zeros_like(codes)
        for k, (dx, dy) in enumerate(_OFFSETS):
            target = _OFFSETS.index(transform(dx, dy))
            shift = 3 * target if target < 4 else kn.DIAG_SHIFT + 2 * (target - 4)
            moved |= fields[k] << shift
        best = moved if best is None else np.minimum(best, moved)
    return best.astype(np.int32)


@cache
def swapped_codes() -> np.ndarray:
    """``swapped[code]``: the code with Black and White exchanged (``neighbourhood.swap_colours``)."""
    out = np.zeros(kn.N_CODES, dtype=np.int64)
    kn.swap_table(out)
    return out


@cache
def forbidden_codes() -> np.ndarray:
    """Whether each code is Black's eye or a suicide for Black (bool, N_CODES)."""
    return _forbidden(np.zeros(kn.N_CODES, dtype=np.bool_))


def _forbidden(out: np.ndarray) -> np.ndarray:
    kn.forbidden_table(out)
    return out


@dataclass
class PlayoutModel:
    """A model: the canonical codes it knows (``codes``, sorted: class ``FIRST_CLASS + i`` is
    ``codes[i]``), ``class_weights`` and ``response_weights`` (one a class, the first two for
    UNSEEN and FORBIDDEN), ``distance_weights[t, d]`` (t 0: the opponent's last move, 1: the
    mover's own; d the gridcular distance, 2 to 6 used), ``flag_weights`` (``FLAGS``) and its
    ``provenance``."""

    codes: np.ndarray
    class_weights: np.ndarray
    response_weights: np.ndarray
    distance_weights: np.ndarray
    flag_weights: np.ndarray
    provenance: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.codes = np.asarray(self.codes, dtype=np.int32)
        n = FIRST_CLASS + len(self.codes)
        self.class_weights = np.asarray(self.class_weights, dtype=np.float64)
        self.response_weights = np.asarray(self.response_weights, dtype=np.float64)
        self.distance_weights = np.asarray(self.distance_weights, dtype=np.float64).reshape(2, kl.MAX_DISTANCE + 1)
        self.flag_weights = np.asarray(self.flag_weights, dtype=np.float64)
        if self.class_weights.shape != (n,) or self.response_weights.shape != (n,):
            raise ValueError(f"a model of {len(self.codes)} codes has {n} class and response weights")
        if np.any(np.diff(self.codes) <= 0):
            raise ValueError("a model's codes must be sorted, each once")
        if self.flag_weights.shape != (len(FLAGS),):
            raise ValueError(f"a model has {len(FLAGS)} flag weights")
        self.refresh()

    @property
    def n_classes(self) -> int:
        return FIRST_CLASS + len(self.codes)

    def class_table(self) -> np.ndarray:
        """``class_of[c - 1, code]`` for the mover ``c`` (int32, 2 x N_CODES): the class of the
        code's canonical form read for the mover, FORBIDDEN for the mover's eye or a suicide,
        UNSEEN for a form not known. White's row is Black's of the code with the colours
        exchanged (``neighbourhood.swap_colours``)."""
        canonical = canonical_codes()
        where = np.searchsorted(self.codes, canonical)
        where = np.minimum(where, max(0, len(self.codes) - 1))
        known = (self.codes[where] == canonical) if len(self.codes) else np.zeros(kn.N_CODES, dtype=bool)
        table = np.where(known, where + FIRST_CLASS, UNSEEN).astype(np.int32)
        table[forbidden_codes()] = FORBIDDEN
        return np.stack([table, table[swapped_codes()]])

    def refresh(self) -> None:
        """Recompute ``arrays``, what the kernels read, from the weights (after they change)."""
        if getattr(self, "_table_of", None) is not self.codes:  # the codes alone decide the table
            self._table = self.class_table()
            self._table_of = self.codes
        self._tempered: dict[float, tuple] = {}
        self.arrays = self.tempered(1.0)

    def tempered(self, temperature: float) -> tuple:
        """What the kernels read for the model with every weight divided by ``temperature``
        (the ``learned`` policy's parameter), made once a temperature."""
        if temperature not in self._tempered:
            t = float(temperature)
            clipped = np.clip(self.class_weights / t, -MAX_WEIGHT, MAX_WEIGHT)
            rates = np.maximum(1, np.round(np.exp(clipped) * RATE_SCALE)).astype(np.int64)
            rates[FORBIDDEN] = 0
            response = np.exp(np.clip(self.response_weights / t, -MAX_WEIGHT, MAX_WEIGHT))
            distances = np.exp(np.clip(self.distance_weights / t, -MAX_WEIGHT, MAX_WEIGHT))
            flags = np.exp(np.clip(self.flag_weights / t, -MAX_WEIGHT, MAX_WEIGHT))
            scalars = np.zeros(kl.N_SCALARS)
            scalars[kl.NAKADE] = flags[0]
            scalars[kl.SELF_ATARI] = min(1.0, flags[1])  # a rejection keeps at most every draw
            scalars[kl.FAILED_ESCAPE] = min(1.0, flags[2])
            self._tempered[temperature] = (self._table, rates, response, distances, scalars)
        return self._tempered[temperature]

    # ---- files

    def save(self, path: str | Path) -> None:
        """Write the model (compressed npz) with its provenance inside, to ``path`` exactly."""
        with open(path, "wb") as handle:
            np.savez_compressed(
                handle,
                format=np.array(FORMAT),
                codes=self.codes,
                class_weights=self.class_weights.astype(np.float32),
                response_weights=self.response_weights.astype(np.float32),
                distance_weights=self.distance_weights,
                flag_weights=self.flag_weights,
                provenance=np.array(json.dumps(self.provenance, sort_keys=True)),
            )

    @classmethod
    def load(cls, path: str | Path) -> PlayoutModel:
        """Read a model file; ValueError for one that is not a model of this format."""
        try:
            with np.load(io.BytesIO(Path(path).read_bytes()), allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise ValueError(f"{path}: a playout model of format {int(data['format'])}, not {FORMAT}")
                return cls(
                    data["codes"],
                    data["class_weights"],
                    data["response_weights"],
                    data["distance_weights"],
                    data["flag_weights"],
                    json.loads(str(data["provenance"])),
                )
        except (OSError, KeyError, ValueError, zipfile.BadZipFile, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a playout model: {err}") from None

    @classmethod
    def uniform(cls) -> PlayoutModel:
        """The model of no knowledge: every playable point equally likely (every weight 0)."""
        return cls(
            np.zeros(0, dtype=np.int32),
            np.zeros(FIRST_CLASS),
            np.zeros(FIRST_CLASS),
            np.zeros((2, kl.MAX_DISTANCE + 1)),
            np.zeros(len(FLAGS)),
        )


@cache
def shipped() -> PlayoutModel:
    """The model that ships with the package (loaded once)."""
    return PlayoutModel.load(DEFAULT_PATH)


@cache
def no_model_arrays() -> tuple:
    """What the kernels are given when no search plays the learned policy: arrays typed as every
    model's (so that the kernels compile once either way), of one entry each; no kernel reads
    them."""
    return (
        np.zeros((2, 1), dtype=np.int32),
        np.zeros(FIRST_CLASS, dtype=np.int64),
        np.ones(FIRST_CLASS),
        np.ones((2, kl.MAX_DISTANCE + 1)),
        np.ones(kl.N_SCALARS),
    )
