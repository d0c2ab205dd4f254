"""goengine.playout_model: the learned playout policy's weights, their file, and the classes the
kernels read them by."""

from __future__ import annotations

import numpy as np
import pytest

from goengine.board import BLACK
from goengine.kernels import learned as kl
from goengine.kernels import neighbourhood as kn
from goengine.playout_model import (
    FIRST_CLASS,
    FORBIDDEN,
    RATE_SCALE,
    UNSEEN,
    PlayoutModel,
    canonical_codes,
    forbidden_codes,
    no_model_arrays,
)


def small_model() -> PlayoutModel:
    canonical = np.unique(canonical_codes())
    codes = canonical[~forbidden_codes()[canonical]][:5].astype(np.int32)
    n = FIRST_CLASS + len(codes)
    return PlayoutModel(
        codes, np.arange(n) * 0.5, np.arange(n) * -0.25, np.full((2, 7), 0.3), np.array([0.7, -2.0, 1.5]), {"x": 1}
    )


def test_a_model_survives_its_file_and_a_file_of_another_kind_is_refused(tmp_path):
    model = small_model()
    model.save(tmp_path / "m.npz")
    again = PlayoutModel.load(tmp_path / "m.npz")
    assert np.array_equal(again.codes, model.codes) and again.provenance == {"x": 1}
    assert np.allclose(again.class_weights, model.class_weights) and np.allclose(again.flag_weights, model.flag_weights)
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a playout model"):
        PlayoutModel.load(tmp_path / "bad.npz")


def test_the_class_table_knows_its_codes_in_every_orientation_and_forbids_eyes_and_suicides():
    model = small_model()
    tables, rates, response, distances, scalars = model.arrays
    table = tables[0]
    canonical = canonical_codes()
    for i, code in enumerate(model.codes):
        orientations = np.nonzero(canonical == code)[0]
        assert len(orientations) >= 1 and np.all(table[orientations] == FIRST_CLASS + i)
    eye = next(code for code in range(kn.N_CODES) if kn.is_eye(code, BLACK))
    assert table[eye] == FORBIDDEN and rates[FORBIDDEN] == 0
    assert rates[UNSEEN] == RATE_SCALE  # weight 0
    assert rates[FIRST_CLASS + 2] == round(np.exp(0.5 * (FIRST_CLASS + 2)) * RATE_SCALE)
    assert np.isclose(response[FIRST_CLASS], np.exp(-0.5)) and np.allclose(distances, np.exp(0.3))
    # the flags: the vital point's weight a multiplier; a self-atari's a chance of keeping it;
    # a positive weight on a rejection is no rejection at all (kept every time)
    assert np.isclose(scalars[kl.NAKADE], np.exp(0.7)) and np.isclose(scalars[kl.SELF_ATARI], np.exp(-2.0))
    assert scalars[kl.FAILED_ESCAPE] == 1.0


def test_the_stand_in_arrays_are_typed_as_a_models():
    real = PlayoutModel.uniform().arrays
    for a, b in zip(no_model_arrays(), real, strict=True):
        assert a.dtype == b.dtype and a.ndim == b.ndim


def test_weights_must_match_the_codes():
    with pytest.raises(ValueError, match="class and response weights"):
        PlayoutModel(np.array([5], dtype=np.int32), np.zeros(2), np.zeros(3), np.zeros((2, 7)), np.zeros(3))
    with pytest.raises(ValueError, match="sorted"):
        PlayoutModel(np.array([9, 5], dtype=np.int32), np.zeros(4), np.zeros(4), np.zeros((2, 7)), np.zeros(3))
