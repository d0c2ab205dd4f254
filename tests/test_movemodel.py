"""The move model (``goengine.movemodel``): the shapes' geometry, their keys and the lookup table,
the model file, and the probabilities it gives.

Reading guide: the geometry first (the spiral, the rings, the eight orientations as a group);
then ``shape_keys`` against the slow hash of ``tests/naive_features.py``, turned and mirrored and
with the colours swapped; then shapes put on boards near a corner and an edge and found by
``kernels.features.shape_id`` in every orientation of the board, for either colour; the nested
lookup; ``build_table`` and the open-addressing table; the file (round trip, refusals); ``rate``
and ``explain``. ``model_of`` makes a model from shapes given as ``{offset: state}`` maps.
"""

from __future__ import annotations

import itertools
import math
import random

import naive_features as nf
import numpy as np
import pytest

from goengine import coords, movemodel
from goengine.board import BLACK, PASS, WHITE, Board
from goengine.kernels import features as kf
from goengine.movemodel import MoveModel, build_table, geometry, shape_keys, unpack_contents

GEO = geometry()


def model_of(chains, group_weights=None, shape_weights=None):
    """A model whose dictionary holds, for each ``(shape, sizes)`` of ``chains``, the shape
    (``{(dx, dy): state}``) cut at each of ``sizes``, each the parent of the next."""
    sizes, contents, parents = [0], [np.zeros(3, dtype=np.uint64)], [-1]
    for shape, chain_sizes in chains:
        parent = -1
        for d in chain_sizes:
            sizes.append(d)
            contents.append(nf.pack(shape))
            parents.append(parent)
            parent = len(sizes) - 1
    n = len(sizes)
    return MoveModel(
        sizes=np.array(sizes),
        contents=np.array(contents, dtype=np.uint64),
        parents=np.array(parents),
        shape_weights=np.zeros(n) if shape_weights is None else np.asarray(shape_weights, dtype=float),
        group_weights=np.zeros((kf.N_GROUPS, kf.MAX_VALUES)) if group_weights is None else group_weights,
    )


def shape_id(model, board, rc, color):
    """The kernel's id of the largest shape of ``model`` around ``rc`` for mover ``color``."""
    geo = GEO
    return int(
        kf.shape_id(
            board.pts,
            board.meta,
            coords.point(board.size, *rc),
            color,
            geo.spiral,
            geo.ring_end,
            geo.zkeys,
            geo.size_keys,
            model.table_keys,
            model.table_ids,
        )
    )


def grid_of(board):
    return nf.Position.of(board).grid


def random_states(rnd, n=kf.N_SPIRAL - 1, states=(0, 1, 2, 3)):
    return np.array([rnd.choice(states) for _ in range(n)], dtype=np.int64)


def turned(states, o):
    """The shape of ``states`` (spiral order from point 1) under orientation ``o``."""
    out = np.zeros_like(states)
    for i in range(1, kf.N_SPIRAL):
        out[GEO.orient[o, i] - 1] = states[i - 1]
    return out


# ---- geometry


def test_the_spiral_holds_the_73_points_within_distance_10_by_distance_then_row_then_column():
    spiral = [tuple(int(x) for x in o) for o in GEO.spiral]
    assert len(spiral) == kf.N_SPIRAL == 73 and len(set(spiral)) == 73
    assert spiral[0] == (0, 0)
    assert set(spiral) == {
        (dx, dy) for dx in range(-10, 11) for dy in range(-10, 11) if nf.gridcular((0, 0), (dx, dy)) <= 10
    }
    keys = [(nf.gridcular((0, 0), o), o[1], o[0]) for o in spiral]
    assert keys == sorted(keys)
    # the four neighbours, then the diagonals: the 3x3 square is the first nine
    assert set(spiral[1:5]) == {(0, -1), (-1, 0), (1, 0), (0, 1)}
    assert set(spiral[5:9]) == {(-1, -1), (1, -1), (-1, 1), (1, 1)}


def test_ring_ends_count_the_points_within_each_distance():
    assert GEO.ring_end.tolist() == [1, 1, 5, 9, 13, 21, 29, 37, 49, 61, 73]
    for d in range(kf.MAX_SHAPE + 1):
        inside = [i for i, o in enumerate(GEO.spiral.tolist()) if nf.gridcular((0, 0), o) <= d]
        assert inside == list(range(GEO.ring_end[d]))


def test_each_orientation_is_a_permutation_that_keeps_distances_and_the_eight_form_a_group():
    orient = GEO.orient
    assert orient.shape == (8, kf.N_SPIRAL)
    assert orient[0].tolist() == list(range(kf.N_SPIRAL))
    perms = {tuple(row) for row in orient.tolist()}
    assert len(perms) == 8  # eight different orientations
    for row in orient:
        assert sorted(row.tolist()) == list(range(kf.N_SPIRAL))
        assert row[0] == 0
        for i in range(kf.N_SPIRAL):
            assert nf.gridcular((0, 0), GEO.spiral[row[i]]) == nf.gridcular((0, 0), GEO.spiral[i])
    # closed under composition, and each has its inverse among them
    for a, b in itertools.product(orient.tolist(), repeat=2):
        assert tuple(b[a[i]] for i in range(kf.N_SPIRAL)) in perms
    # and they are the rotations and reflections: each moves (1, 2) where one of them does
    images = {tuple(int(x) for x in GEO.spiral[row[GEO.spiral.tolist().index([1, 2])]]) for row in orient}
    assert images == {t(1, 2) for t in nf.transforms()}


def test_the_zobrist_keys_are_zero_for_empty_points_and_the_centre_and_distinct_otherwise():
    assert not GEO.zkeys[:, 0].any() and not GEO.zkeys[0].any()
    others = GEO.zkeys[1:, 1:].ravel().tolist() + GEO.size_keys[kf.MIN_SHAPE :].tolist()
    assert 0 not in others and len(set(others)) == len(others)
    assert geometry() is GEO  # built once


# ---- shape keys


def test_shape_keys_are_the_reference_hash_of_each_orientation():
    rnd = random.Random(1)
    for d in range(kf.MIN_SHAPE, kf.MAX_SHAPE + 1):
        states = random_states(rnd)
        shape = {tuple(GEO.spiral[i].tolist()): int(states[i - 1]) for i in range(1, kf.N_SPIRAL)}
        keys = shape_keys(states, d)[0]
        assert {int(k) for k in keys} == nf.orientation_keys(shape, d)
        assert int(keys[0]) == nf.hash_of(shape, d)  # orientation 0 is the shape as it is


def test_shape_keys_are_the_same_under_the_eight_orientations():
    rnd = random.Random(2)
    for d in (3, 4, 7, 10):
        states = random_states(rnd)
        keys = sorted(shape_keys(states, d)[0].tolist())
        for o in range(8):
            assert sorted(shape_keys(turned(states, o), d)[0].tolist()) == keys


def test_shape_keys_ignore_the_points_beyond_the_size_and_differ_between_sizes():
    rnd = random.Random(3)
    states = random_states(rnd)
    for d in range(kf.MIN_SHAPE, kf.MAX_SHAPE + 1):
        outside = states.copy()
        outside[GEO.ring_end[d] - 1 :] = random_states(rnd, kf.N_SPIRAL - GEO.ring_end[d])
        assert shape_keys(outside, d).tolist() == shape_keys(states, d).tolist()
    # the same stones (an empty shape) at two sizes are two shapes
    empty = np.zeros(kf.N_SPIRAL - 1, dtype=np.int64)
    assert len({int(shape_keys(empty, d)[0, 0]) for d in range(3, 11)}) == 8


def test_shape_keys_change_when_the_colours_are_swapped():
    rnd = random.Random(4)
    for d in (3, 5, 10):
        states = random_states(rnd, states=(0, 1, 2))
        assert (states[: GEO.ring_end[d] - 1] > 0).any()
        swap = np.where(states == 1, 2, np.where(states == 2, 1, states))
        assert not set(shape_keys(swap, d)[0].tolist()) & set(shape_keys(states, d)[0].tolist())


def test_a_shape_seen_by_white_is_the_swapped_shape_seen_by_black():
    board = Board.from_ascii(
        """
        . . . . . . . . .
        . . O . . . . . .
        . X X O . . . . .
        . . . . . . . . .
        . . . O . X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    colours = str(board).replace("X", "x").replace("O", "X").replace("x", "O")
    swapped = Board.from_ascii(colours)
    rc = (3, 3)
    model = model_of([(nf.states(grid_of(board), rc, WHITE), range(3, 11))])
    assert shape_id(model, board, rc, WHITE) == 8
    assert shape_id(model, swapped, rc, BLACK) == 8
    # and not by the other side
    assert shape_id(model, board, rc, BLACK) == kf.NO_SHAPE
    assert shape_id(model, swapped, rc, WHITE) == kf.NO_SHAPE


def test_unpack_contents_reads_what_pack_writes():
    rnd = random.Random(5)
    rows = [random_states(rnd) for _ in range(3)]
    shapes = [{tuple(GEO.spiral[i].tolist()): int(row[i - 1]) for i in range(1, kf.N_SPIRAL)} for row in rows]
    packed = np.array([nf.pack(shape) for shape in shapes])
    assert unpack_contents(packed).tolist() == [row.tolist() for row in rows]


# ---- shapes on the board, in every orientation

OFF = nf.OFF_BOARD
CORNER = """
. X O . . . . . .
. X O . . . . . .
X O . O . . . . .
. . . . . . . . .
. . O . . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def transformed(board_text, t):
    rows = [line.split() for line in board_text.strip().splitlines()]
    n = len(rows)
    out = [[None] * n for _ in range(n)]
    for r, c in itertools.product(range(n), repeat=2):
        r2, c2 = moved(t, n, (r, c))
        out[r2][c2] = rows[r][c]
    return "\n".join(" ".join(row) for row in out)


def moved(t, n, rc):
    r, c = rc
    if t & 4:
        r, c = c, r
    if t & 1:
        r = n - 1 - r
    if t & 2:
        c = n - 1 - c
    return r, c


def embedded(text, size):
    """The diagram in the top-left corner of an empty ``size`` board."""
    rows = [line.split() for line in text.strip().splitlines()]
    rows = [row + ["."] * (size - len(row)) for row in rows] + [["."] * size] * (size - len(rows))
    return "\n".join(" ".join(row) for row in rows)


@pytest.mark.parametrize(("rc", "size"), [((1, 0), 9), ((2, 2), 9), ((1, 0), 19), ((3, 3), 19)])
def test_a_shape_near_a_corner_is_found_in_all_eight_orientations_for_either_colour(rc, size):
    text = embedded(CORNER, size)
    board = Board.from_ascii(text)
    shape = nf.states(grid_of(board), rc, BLACK)
    assert OFF in shape.values()  # the edge is part of the shape
    model = model_of([(shape, range(3, 11))])
    for t in range(8):
        turned_board = Board.from_ascii(transformed(text, t))
        where = moved(t, size, rc)
        assert shape_id(model, turned_board, where, BLACK) == 8, t
        colours = transformed(text, t).replace("X", "x").replace("O", "X").replace("x", "O")
        assert shape_id(model, Board.from_ascii(colours), where, WHITE) == 8, t


def test_a_shape_on_an_edge_is_found_in_all_eight_orientations_and_not_away_from_the_edge():
    text = """
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . X O . . . . . .
    . . . . O . X . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    """
    board = Board.from_ascii(text)
    rc = (3, 5)
    model = model_of([(nf.states(grid_of(board), rc, WHITE), range(3, 11))])
    for t in range(8):
        where = moved(t, 13, rc)
        assert shape_id(model, Board.from_ascii(transformed(text, t)), where, WHITE) == 8, t
    # the same stones one line further from the edge: the edge, four rows above the move, was
    # at distance 8 (dy = -4); now it is at 10, so sizes 3 to 7 are the same and 8 is not
    lower = Board.from_ascii("\n".join([". " * 13] + text.strip().splitlines()[:-1]))
    found = shape_id(model, lower, (4, 5), WHITE)
    assert model.sizes[found] == 7
    assert found == nf.largest_known(grid_of(lower), (4, 5), WHITE, known_keys(model))


def known_keys(model):
    """The reference's dictionary of a model: every orientation's key of each shape -> its id."""
    known = {}
    contents = unpack_contents(model.contents)
    for i in range(1, len(model.sizes)):
        shape = {tuple(GEO.spiral[j].tolist()): int(contents[i, j - 1]) for j in range(1, kf.N_SPIRAL)}
        known.update(dict.fromkeys(nf.orientation_keys(shape, int(model.sizes[i])), i))
    return known


# ---- the nested lookup


def test_the_lookup_stops_at_the_first_size_not_known():
    board = Board.from_ascii(embedded(CORNER, 9))
    rc = (2, 2)
    shape = nf.states(grid_of(board), rc, BLACK)
    # sizes 3 and 5 known, not 4: the lookup ends at 3
    model = model_of([(shape, (3, 5))])
    assert shape_id(model, board, rc, BLACK) == 1
    model = model_of([(shape, (3, 4, 5))])
    assert shape_id(model, board, rc, BLACK) == 3
    model = model_of([(shape, (3, 4, 5, 6, 7, 8, 9, 10))])
    assert shape_id(model, board, rc, BLACK) == 8
    # size 3 unknown: no shape, whatever is known beyond it
    model = model_of([(shape, (4, 5, 6))])
    assert shape_id(model, board, rc, BLACK) == kf.NO_SHAPE
    # the reference agrees on each
    for chain in [(3, 5), (3, 4, 5), (4, 5, 6)]:
        model = model_of([(shape, chain)])
        assert shape_id(model, board, rc, BLACK) == nf.largest_known(grid_of(board), rc, BLACK, known_keys(model))


def test_a_shape_scores_its_weight_and_all_its_cores_weights():
    board = Board.from_ascii(embedded(CORNER, 9))
    shape = nf.states(grid_of(board), (2, 2), BLACK)
    weights = [0.5, 1.0, 2.0, 4.0, 8.0]
    model = model_of([(shape, (3, 4, 5, 6))], shape_weights=weights)
    assert model.shape_scores.tolist() == [0.5, 1.0, 3.0, 7.0, 15.0]
    assert model.score(0, 4) == 15.0 and model.score(0, kf.NO_SHAPE) == 0.5


# ---- the table


def test_build_table_refuses_two_ids_for_one_key():
    with pytest.raises(ValueError, match="two shapes share the key 0x2a"):
        build_table(np.array([7, 42, 42], dtype=np.uint64), np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="key is 0"):
        build_table(np.array([7, 0], dtype=np.uint64), np.array([1, 2]))


def test_build_table_accepts_a_symmetric_shapes_repeated_keys():
    # the empty 3x3 square in the open is the same in every orientation: one key, eight times
    empty = np.zeros(kf.N_SPIRAL - 1, dtype=np.int64)
    keys = shape_keys(empty, 3)[0]
    assert len(set(keys.tolist())) == 1
    model = model_of([({}, (3,))])
    assert shape_id(model, Board(9), (4, 4), BLACK) == 1
    # a shape with one mirror symmetry repeats each of its keys twice
    board = Board.from_ascii(". . . . .\n. . . . .\n. X . X .\n. . . . .\n. . . . .")
    shape = nf.states(grid_of(board), (2, 2), BLACK)
    keys = nf.orientation_keys(shape, 3)
    assert len(keys) == 2
    model = model_of([(shape, (3,))])
    assert shape_id(model, board, (2, 2), BLACK) == 1
    assert shape_id(model, Board.from_ascii(transformed(str(board), 4)), (2, 2), BLACK) == 1


def test_the_table_is_a_power_of_two_at_least_twice_the_keys_and_probes_past_collisions():
    keys = np.array([16 * i + 3 for i in range(1, 7)] + [5], dtype=np.uint64)  # six keys in one slot
    ids = np.arange(10, 17, dtype=np.int32)
    table_keys, table_ids = build_table(keys, ids)
    assert len(table_keys) == 16 and len(table_ids) == 16
    for key, i in zip(keys, ids, strict=True):
        assert kf.probe(table_keys, table_ids, key) == i
    for absent in (np.uint64(16 * 9 + 3), np.uint64(4), np.uint64(2**63 + 3)):
        assert kf.probe(table_keys, table_ids, absent) == -1
    big = build_table(np.arange(1, 101, dtype=np.uint64), np.arange(100))[0]
    assert len(big) == 256


# ---- the model file


def trained_like_model():
    """A small model with weights of every kind (a shape chain, group weights)."""
    board = Board.from_ascii(embedded(CORNER, 9))
    shape = nf.states(grid_of(board), (2, 2), BLACK)
    group_weights = np.zeros((kf.N_GROUPS, kf.MAX_VALUES))
    group_weights[kf.EDGE, 1] = -1.25
    group_weights[kf.CAPTURE, 4] = 2.5
    group_weights[kf.DIST_LAST, 1] = 1.0
    model = model_of([(shape, (3, 4, 5)), ({}, (3, 4))], group_weights, [-2.0, 0.3, 0.1, 0.7, 0.2, -0.1])
    model.provenance = {"games": {"file": "x.sgf"}, "command": "python scripts/train_movemodel.py x.sgf"}
    model.counts = np.array([0, 9, 5, 4, 30, 12])
    return model


def test_a_saved_model_loads_back_the_same(tmp_path):
    model = trained_like_model()
    path = tmp_path / "model.npz"
    model.save(path)
    back = MoveModel.load(path)
    np.testing.assert_array_equal(back.sizes, model.sizes)
    np.testing.assert_array_equal(back.contents, model.contents)
    np.testing.assert_array_equal(back.parents, model.parents)
    np.testing.assert_array_equal(back.group_weights, model.group_weights)
    np.testing.assert_allclose(back.shape_weights, model.shape_weights, rtol=1e-6)  # kept as float32
    np.testing.assert_array_equal(back.counts, model.counts)
    assert back.provenance == model.provenance
    np.testing.assert_array_equal(back.table_keys, model.table_keys)
    board = Board.from_ascii(embedded(CORNER, 9))
    rated, rated_back = model.rate(board), back.rate(board)
    assert [m for m, _ in rated] == [m for m, _ in rated_back]
    np.testing.assert_allclose([p for _, p in rated], [p for _, p in rated_back], rtol=1e-5)


def test_the_second_load_maps_the_table_the_first_built_and_cached(tmp_path, model_cache):
    model = trained_like_model()
    path = tmp_path / "model.npz"
    model.save(path)
    first = MoveModel.load(path)
    folder = movemodel.table_folder(path.read_bytes())
    assert folder.parent == model_cache
    assert sorted(p.name for p in folder.iterdir()) == ["table_ids.npy", "table_keys.npy"]
    second = MoveModel.load(path)
    for mapped, built in ((second.table_keys, model.table_keys), (second.table_ids, model.table_ids)):
        assert isinstance(mapped.base, np.memmap) and mapped.flags.writeable  # copy-on-write, as the kernels need
        np.testing.assert_array_equal(mapped, built)
    np.testing.assert_array_equal(first.table_keys, model.table_keys)
    board = Board.from_ascii(embedded(CORNER, 9))
    assert second.rate(board) == first.rate(board)


def test_a_damaged_or_foreign_cached_table_is_built_again(tmp_path):
    model = trained_like_model()
    path = tmp_path / "model.npz"
    model.save(path)
    folder = movemodel.table_folder(path.read_bytes())
    folder.mkdir(parents=True, exist_ok=True)  # the test before may have cached this model
    (folder / "table_keys.npy").write_bytes(b"\x93NUMPY cut")  # a torn file
    np.save(folder / "table_ids.npy", model.table_ids)
    assert movemodel.mapped_table(folder, len(model.sizes)) is None
    np.save(folder / "table_keys.npy", model.table_keys[:16])  # a table too small for this dictionary
    np.save(folder / "table_ids.npy", model.table_ids[:16])
    assert movemodel.mapped_table(folder, 500) is None
    back = MoveModel.load(path)
    np.testing.assert_array_equal(back.table_keys, model.table_keys)
    assert not isinstance(back.table_keys.base, np.memmap)  # built, not mapped
    again = MoveModel.load(path)  # the bad folder was replaced by the table built
    assert isinstance(again.table_keys.base, np.memmap)
    np.testing.assert_array_equal(again.table_keys, model.table_keys)


def test_a_table_another_process_saved_first_is_kept(tmp_path):
    model = trained_like_model()
    folder = tmp_path / "movemodel-x"
    movemodel.save_table(folder, model.table, len(model.sizes))
    first = (folder / "table_keys.npy").stat().st_ino
    movemodel.save_table(folder, model.table, len(model.sizes))  # a second loader of the same model
    assert (folder / "table_keys.npy").stat().st_ino == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["movemodel-x"]  # no scratch folder left


def test_a_model_loads_when_its_table_cannot_be_cached(tmp_path, monkeypatch):
    model = trained_like_model()
    path = tmp_path / "model.npz"
    model.save(path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's folder would be")
    monkeypatch.setattr(movemodel, "cache_dir", lambda: blocker / "cache")
    back = MoveModel.load(path)
    np.testing.assert_array_equal(back.table_keys, model.table_keys)
    assert MoveModel.load(path, cache=False).table is not None


def test_the_table_built_in_chunks_is_the_table_built_at_once(monkeypatch):
    model = trained_like_model()
    keys = shape_keys(unpack_contents(model.contents[1:]), model.sizes[1:])
    whole = build_table(keys.reshape(-1), np.repeat(np.arange(1, len(model.sizes), dtype=np.int32), 8))
    monkeypatch.setattr(movemodel, "SHAPES_A_CHUNK", 2)
    chunked = movemodel.dictionary_table(model.contents[1:], model.sizes[1:])
    for a, b in zip(chunked, whole, strict=True):
        np.testing.assert_array_equal(a, b)


def test_cumulative_scores_add_every_core_on_the_chain_to_the_shape():
    rnd = random.Random(3)
    sizes, parents = [0], [-1]
    for k in range(1, 300):  # a forest: each shape's parent is a smaller one, or none
        size = rnd.randint(2, 12)
        smaller = [j for j in range(1, k) if sizes[j] < size]
        sizes.append(size)
        parents.append(rnd.choice(smaller) if smaller and rnd.random() < 0.8 else -1)
    weights = np.array([rnd.uniform(-2, 2) for _ in sizes])
    scores = movemodel.cumulative_scores(weights, np.array(parents), np.array(sizes))
    for k in range(1, len(sizes)):
        expected, j = 0.0, k
        while j > 0:
            expected += weights[j]
            j = parents[j]
        assert scores[k] == pytest.approx(expected)
    assert scores[0] == weights[0]


def test_a_model_is_written_at_the_path_given_even_without_npz(tmp_path):
    path = tmp_path / "model.bin"
    trained_like_model().save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.bin"]
    assert MoveModel.load(path).n_shapes == 5


def rewritten(src, dst, **changes):
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del arrays[key]
    np.savez(dst, **arrays)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": np.array(2)}, "format 2, this code reads format 1"),
        ({"zobrist_seed": np.array(12345)}, "hashed with other keys"),
        ({"parents": None}, "parents"),
    ],
)
def test_a_model_file_of_another_format_or_seed_is_refused_with_its_name(tmp_path, change, words):
    good = tmp_path / "good.npz"
    trained_like_model().save(good)
    bad = tmp_path / "bad.npz"
    rewritten(good, bad, **change)
    with pytest.raises(ValueError, match="bad.npz: not a goengine move model") as err:
        MoveModel.load(bad)
    assert words in str(err.value)


@pytest.mark.parametrize("content", [b"not a model\n", b"PK\x03\x04 cut short", b""])
def test_a_file_that_is_no_model_is_refused_with_its_name(tmp_path, content):
    path = tmp_path / "m.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="m.npz: not a goengine move model"):
        MoveModel.load(path)


def test_a_cut_or_damaged_model_file_a_single_array_and_a_missing_file_are_refused_with_their_names(tmp_path):
    good = tmp_path / "good.npz"
    trained_like_model().save(good)
    data = good.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[:200])
    with pytest.raises(ValueError, match="cut.npz: not a goengine move model"):
        MoveModel.load(cut)
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(data[:100] + bytes(b ^ 0x55 for b in data[100:400]) + data[400:])
    with pytest.raises(ValueError, match="damaged.npz: not a goengine move model"):
        MoveModel.load(damaged)
    one = tmp_path / "one.npy"
    np.save(one, np.zeros(3))
    with pytest.raises(ValueError, match="one.npy: not a goengine move model: one array"):
        MoveModel.load(one)
    with pytest.raises(ValueError, match="missing.npz: not a goengine move model"):
        MoveModel.load(tmp_path / "missing.npz")


def test_a_model_refuses_arrays_of_different_lengths():
    model = trained_like_model()
    with pytest.raises(ValueError, match="one entry a shape"):
        MoveModel(model.sizes, model.contents, model.parents[:-1], model.shape_weights, model.group_weights)
    with pytest.raises(ValueError, match="group weights"):
        MoveModel(model.sizes, model.contents, model.parents, model.shape_weights, np.zeros((8, 5)))


def test_the_shipped_model_loads_with_a_nested_dictionary():
    model = movemodel.shipped()
    assert model is movemodel.shipped()
    sizes, parents = model.sizes, model.parents
    assert model.n_shapes > 0 and sizes[0] == 0
    assert all(
        parents[i] == -1 if sizes[i] == kf.MIN_SHAPE else sizes[parents[i]] == sizes[i] - 1
        for i in range(1, len(sizes))
    )
    assert (np.diff(sizes[1:]) >= 0).all()  # by size


def test_no_model_has_the_arrays_of_a_model_typed_alike():
    model = trained_like_model()
    empty = movemodel.empty_arrays()
    assert len(empty) == len(model.arrays)
    for a, b in zip(empty, model.arrays, strict=True):
        assert (a.dtype, a.ndim) == (b.dtype, b.ndim)
    board = Board(9)
    moves, codes, shapes = model.position_features(board.pts, board.meta)
    assert len(moves) == 82 and moves[-1] == PASS


# ---- rate and explain

CAPTURES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_rate_gives_every_legal_move_a_probability_summing_to_one_ranked_by_score():
    model = trained_like_model()
    board = Board.from_ascii(CAPTURES)
    board.play(WHITE, coords.point(9, 0, 8))
    board.play(BLACK, coords.point(9, 8, 0))
    board.play(WHITE, coords.point(9, 1, 8))
    rated = model.rate(board)
    moves = [m for m, _ in rated]
    probs = np.array([p for _, p in rated])
    assert sorted(moves) == sorted([*board.legal_moves(), PASS])
    assert math.isclose(probs.sum(), 1.0)
    assert (np.diff(probs) <= 0).all()
    # each probability is exp(score) / the sum: the capture (its weight 2.5) comes first
    scores = {m: float(model.explain(board, m)["score"]) for m in moves}
    assert moves[0] == coords.point(9, 4, 4)
    assert model.explain(board, moves[0])["capture"] == "1-2 stones"
    total = sum(math.exp(s) for s in scores.values())
    for m, p in rated:
        assert math.isclose(p, math.exp(scores[m]) / total, rel_tol=1e-3)  # explain rounds to 3 places
    # ties are ordered by point, PASS first
    for (m1, p1), (m2, p2) in itertools.pairwise(rated):
        assert p1 > p2 or m1 < m2


def test_rate_for_the_other_colour_reads_the_shapes_from_its_side():
    model = trained_like_model()
    board = Board.from_ascii(embedded(CORNER, 9))
    black = dict(model.rate(board, BLACK))
    white = dict(model.rate(board, WHITE))
    p = coords.point(9, 2, 2)
    assert model.explain(board, p, BLACK)["shape"] == "size 5 (#3)"
    assert model.explain(board, p, WHITE)["shape"] != "size 5 (#3)"
    assert black[p] != white[p]


def test_explain_names_each_value_and_refuses_an_illegal_move():
    model = trained_like_model()
    board = Board.from_ascii(CAPTURES)
    words = model.explain(board, "E5")
    assert words["capture"] == "1-2 stones" and words["edge"] == "line 5+" and words["shape"] == "none known"
    assert "escape" not in words and "atari" not in words  # values 0 are left out
    assert model.explain(board, "pass") == {"pass": "pass", "shape": "none known", "score": "-2.000"}
    for illegal in ("D5", "D6"):  # a stone there; a white suicide
        color = BLACK if illegal == "D5" else WHITE
        with pytest.raises(ValueError, match=f"{illegal} is not a legal move"):
            model.explain(board, illegal, color)
    # a ko point banned to the side to move
    ko = Board.from_ascii(". . . . .\n. X O . .\nX O . O .\n. X O . .\n. . . . .")
    ko.play(BLACK, "C3")
    with pytest.raises(ValueError, match="B3 is not a legal move"):
        model.explain(ko, "B3")
    assert model.explain(ko, "B3", BLACK)["edge"] == "line 2"  # banned to White only
