"""Coordinate systems (goengine.coords): padded index, (row, col), GTP vertex, sgfmill move tuple.

Every expected value here is worked out by hand from the conventions in the module docstring:
``p = (row + 1) * (size + 2) + col + 1`` with row 0 at the top; GTP columns A..T without I and
rows counted from the bottom (A1 bottom-left); sgfmill moves ``(row from the bottom, col)``.
"""

import pytest

from goengine import coords
from goengine.kernels.board import PASS

# ---- padded index and (row, col)


def test_point_formula_matches_padded_layout():
    # 9x9: w = 11; top-left is (1 * 11 + 1) = 12, bottom-right (9 * 11 + 9) = 108
    assert coords.point(9, 0, 0) == 12
    assert coords.point(9, 0, 8) == 20
    assert coords.point(9, 8, 0) == 100
    assert coords.point(9, 8, 8) == 108
    assert coords.point(19, 3, 15) == 4 * 21 + 16
    assert coords.point(2, 1, 1) == 2 * 4 + 2


def test_row_col_inverts_point_on_every_size():
    for size in (2, 5, 9, 13, 19):
        for r in range(size):
            for c in range(size):
                assert coords.row_col(size, coords.point(size, r, c)) == (r, c)


@pytest.mark.parametrize("row, col", [(-1, 0), (0, -1), (9, 0), (0, 9), (9, 9)])
def test_point_off_board_raises(row, col):
    with pytest.raises(ValueError, match="off"):
        coords.point(9, row, col)


@pytest.mark.parametrize("p", [0, 10, 11, 21, 22, 110, 120, -1, 121, 10_000])
def test_border_and_outside_indices_are_not_on_board(p):
    # 9x9, w = 11: 0..10 top border, 11 and 21 the left/right border of row 1, 110..120 bottom
    assert not coords.on_board(9, p)
    with pytest.raises(ValueError):
        coords.row_col(9, p)


def test_on_board_accepts_exactly_the_interior():
    size, w = 9, 11
    inside = {p for p in range(w * w) if coords.on_board(size, p)}
    assert len(inside) == 81
    assert inside == set(coords.all_points(size))


def test_all_points_lists_top_row_first():
    pts = coords.all_points(3)
    # w = 5: rows 1..3, cols 1..3
    assert pts == [6, 7, 8, 11, 12, 13, 16, 17, 18]


@pytest.mark.parametrize("size", [1, 0, 20, -9, 9.0, "9", None])
def test_check_size_rejects_unsupported_sizes(size):
    with pytest.raises(ValueError):
        coords.check_size(size)


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19])
def test_check_size_returns_supported_sizes(size):
    assert coords.check_size(size) == size


# ---- GTP vertices


@pytest.mark.parametrize("size", [9, 19])
def test_gtp_round_trip_every_point(size):
    seen = set()
    for p in coords.all_points(size):
        v = coords.to_gtp(size, p)
        assert coords.from_gtp(size, v) == p
        assert "I" not in v
        seen.add(v)
    assert len(seen) == size * size


@pytest.mark.parametrize("size", [9, 19])
def test_gtp_columns_skip_i(size):
    letters = {coords.to_gtp(size, coords.point(size, 0, c))[0] for c in range(size)}
    expected = "ABCDEFGHJ" if size == 9 else "ABCDEFGHJKLMNOPQRST"
    assert letters == set(expected)
    # the column after H is J
    assert coords.to_gtp(size, coords.point(size, size - 1, 8)) == "J1"


def test_gtp_corners_on_9x9():
    assert coords.to_gtp(9, coords.point(9, 8, 0)) == "A1"  # bottom-left
    assert coords.to_gtp(9, coords.point(9, 0, 0)) == "A9"  # top-left
    assert coords.to_gtp(9, coords.point(9, 0, 8)) == "J9"  # top-right
    assert coords.to_gtp(9, coords.point(9, 8, 8)) == "J1"  # bottom-right


def test_gtp_known_points_on_19x19():
    assert coords.from_gtp(19, "A1") == coords.point(19, 18, 0)
    assert coords.from_gtp(19, "T19") == coords.point(19, 0, 18)
    assert coords.from_gtp(19, "D4") == coords.point(19, 15, 3)
    assert coords.from_gtp(19, "Q16") == coords.point(19, 3, 15)
    assert coords.from_gtp(19, "K10") == coords.point(19, 9, 9)  # tengen: K is column 9 (no I)


def test_gtp_lower_case_and_spaces_are_accepted():
    assert coords.from_gtp(9, "d4") == coords.from_gtp(9, "D4") == coords.point(9, 5, 3)
    assert coords.from_gtp(9, " e5 ") == coords.point(9, 4, 4)
    assert coords.from_gtp(19, "t19") == coords.point(19, 0, 18)


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass", " pass\n"])
def test_gtp_pass(text):
    assert coords.from_gtp(9, text) == PASS


def test_to_gtp_pass():
    assert coords.to_gtp(9, PASS) == "pass"
    assert coords.to_gtp(19, PASS) == "pass"


@pytest.mark.parametrize(
    "size, text",
    [
        (9, "I5"),  # no column I
        (19, "i5"),
        (9, "A0"),  # rows start at 1
        (9, "A10"),  # above the top row
        (9, "T20"),
        (9, "K9"),  # K is the 10th column
        (19, "U1"),
        (19, "A20"),
        (19, "Z99"),
        (9, ""),
        (9, "D"),
        (9, "4D"),
        (9, "DD"),
        (9, "D\u0664"),  # an Arabic-Indic 4, which int() reads (before: D4)
        (9, "D-4"),
        (9, "D 4"),
        (9, "passs"),
        (9, "D4.5"),
    ],
)
def test_gtp_invalid_vertices_raise(size, text):
    with pytest.raises(ValueError):
        coords.from_gtp(size, text)


@pytest.mark.parametrize("p", [0, 11, 21, 120, -2])
def test_to_gtp_rejects_off_board_index(p):
    with pytest.raises(ValueError):
        coords.to_gtp(9, p)


def test_gtp_columns_constant_has_no_i():
    assert "I" not in coords.GTP_COLUMNS
    assert coords.GTP_COLUMNS[:19] == "ABCDEFGHJKLMNOPQRST"


# ---- SGF (sgfmill move tuples: (row from the bottom, col))


@pytest.mark.parametrize("size", [9, 19])
def test_sgf_round_trip_every_point(size):
    seen = set()
    for p in coords.all_points(size):
        m = coords.to_sgf(size, p)
        assert coords.from_sgf(size, m) == p
        seen.add(m)
    assert seen == {(r, c) for r in range(size) for c in range(size)}


def test_sgf_matches_gtp_orientation():
    # sgfmill's (0, 0) is A1, the bottom-left; row grows upwards like the GTP number
    assert coords.to_sgf(9, coords.from_gtp(9, "A1")) == (0, 0)
    assert coords.to_sgf(9, coords.from_gtp(9, "D4")) == (3, 3)
    assert coords.to_sgf(9, coords.from_gtp(9, "J9")) == (8, 8)
    assert coords.to_sgf(9, coords.from_gtp(9, "A9")) == (8, 0)
    assert coords.to_sgf(19, coords.from_gtp(19, "Q3")) == (2, 15)
    assert coords.from_sgf(19, (15, 3)) == coords.from_gtp(19, "D16")


def test_sgf_pass_is_none():
    assert coords.to_sgf(9, PASS) is None
    assert coords.from_sgf(9, None) == PASS


@pytest.mark.parametrize("move", [(9, 0), (0, 9), (-1, 0), (0, -1)])
def test_sgf_off_board_raises(move):
    with pytest.raises(ValueError):
        coords.from_sgf(9, move)


def test_to_sgf_rejects_border_index():
    with pytest.raises(ValueError):
        coords.to_sgf(9, 11)
