"""The 3x3 patterns: the kernel's neighbourhood code and table lookup (``goengine.kernels.mogo3x3``)
against the slow matcher of ``goengine.mogo3x3``, the MoGo shapes on boards drawn by hand, and
the symmetries of the table.

Reading guide: ``neighbours_of`` reads a point's eight neighbours from a naive grid (off the
board: BORDER), independently of the kernel's padded board; ``expected_match`` asks the slow
matcher about every diagram. Hand-drawn boards mark the move with ``*`` (``X`` black, ``O``
white, ``.`` empty, row 0 at the top) and are turned and mirrored as whole boards.
"""

import random

import naive
import numpy as np
import pytest
from helpers import grid_of, random_position

from goengine import coords
from goengine.board import Board
from goengine.kernels import board as kb
from goengine.kernels import mogo3x3 as kmogo
from goengine.mogo3x3 import EXTRA_PATTERNS, MOGO_PATTERNS, OFFSETS, build_table, matches_naive, table, variants

EMPTY, BLACK, WHITE, BORDER = kb.EMPTY, kb.BLACK, kb.WHITE, kb.BORDER
TABLE = table()  # packed, as the kernels read it: MoGo's plane, then the extra shapes'
CODES = np.unpackbits(TABLE[: kmogo.PLANE], bitorder="little")  # one byte per code: 1 where it matches
EXTRA_CODES = np.unpackbits(TABLE[kmogo.PLANE :], bitorder="little")

# the code's order, written out here rather than taken from the module under test
ORDER = {"NW": (-1, -1), "N": (-1, 0), "NE": (-1, 1), "W": (0, -1), "E": (0, 1), "SW": (1, -1), "S": (1, 0)}
ORDER["SE"] = (1, 1)


def neighbours_of(grid, r, c):
    """``{(dr, dc): colour}`` of the eight neighbours of ``(r, c)``, BORDER off the board."""
    n = len(grid)
    return {
        (dr, dc): grid[r + dr][c + dc] if 0 <= r + dr < n and 0 <= c + dc < n else BORDER
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    }


def decode(code):
    """The neighbour map a 16-bit code stands for."""
    return {ORDER[name]: (code >> (2 * i)) & 3 for i, name in enumerate(kmogo.NEIGHBOUR_ORDER)}


def encode(neighbours):
    return sum(neighbours[ORDER[name]] << (2 * i) for i, name in enumerate(kmogo.NEIGHBOUR_ORDER))


def expected_match(neighbours):
    return any(matches_naive(d, neighbours) for d in MOGO_PATTERNS.values())


def kernel_code(board, r, c):
    p = coords.point(board.size, r, c)
    return int(kmogo.code3x3(board.pts, p, board.size + 2))


def test_the_order_of_the_code_is_the_documented_one():
    assert list(ORDER) == list(kmogo.NEIGHBOUR_ORDER)
    assert [ORDER[name] for name in kmogo.NEIGHBOUR_ORDER] == list(OFFSETS)


# ---- (a) the kernel against the slow matcher


POSITIONS = [(5, seed, 4 + 3 * seed) for seed in range(6)]
POSITIONS += [(9, seed, 10 + 14 * seed) for seed in range(6)]
POSITIONS += [(19, seed, 60 + 90 * seed) for seed in range(3)]


@pytest.mark.parametrize(("size", "seed", "moves"), POSITIONS)
def test_code_and_lookup_match_the_naive_matcher_on_every_empty_point(size, seed, moves):
    board, game = random_position(size, 500 + seed, moves)
    grid = game.grid
    assert grid_of(board.pts, size) == grid
    w = size + 2
    matched = 0
    for r, c in sorted(naive.empty_points(grid)):
        neighbours = neighbours_of(grid, r, c)
        code = kernel_code(board, r, c)
        assert decode(code) == neighbours, (r, c)
        expected = expected_match(neighbours)
        p = coords.point(size, r, c)
        assert bool(kmogo.matches(TABLE, board.pts, p, w)) == expected, ((r, c), neighbours)
        assert bool(CODES[code]) == expected
        matched += expected
    if moves >= 30:
        assert matched > 0


def three_by_three(neighbours):
    """A 3x3 COLOR row holding ``neighbours`` around the middle point 4 (width 3)."""
    pts = np.zeros((kb.NFIELDS, 9), dtype=np.int32)
    for (dr, dc), colour in neighbours.items():
        pts[kb.COLOR, 4 + 3 * dr + dc] = colour
    return pts


def random_neighbourhoods(rnd, n):
    """Uniformly random neighbourhoods, and ones drawn from a random variant of a random pattern
    (wildcards filled at random) with a cell or two changed now and then: matches and near
    misses."""
    symbols = {
        "X": [BLACK],
        "O": [WHITE],
        ".": [EMPTY],
        "#": [BORDER],
        "?": [EMPTY, BLACK, WHITE, BORDER],
        "x": [EMPTY, WHITE, BORDER],
        "o": [EMPTY, BLACK, BORDER],
    }
    diagrams = list(MOGO_PATTERNS.values())
    for k in range(n):
        if k % 3 == 0:
            yield {o: rnd.randrange(4) for o in OFFSETS}
            continue
        variant = rnd.choice(variants(rnd.choice(diagrams)))
        neighbours = {o: rnd.choice(symbols[s]) for o, s in variant.items()}
        for _ in range(rnd.choice([0, 0, 1, 2])):
            neighbours[rnd.choice(OFFSETS)] = rnd.randrange(4)
        yield neighbours


def test_code_and_lookup_match_the_naive_matcher_on_random_neighbourhoods():
    rnd = random.Random(3)
    counts = {True: 0, False: 0}
    for neighbours in random_neighbourhoods(rnd, 4000):
        pts = three_by_three(neighbours)
        code = int(kmogo.code3x3(pts, 4, 3))
        assert code == encode(neighbours)
        expected = expected_match(neighbours)
        assert bool(kmogo.matches(TABLE, pts, 4, 3)) == expected, neighbours
        counts[expected] += 1
    assert min(counts.values()) > 500


def rotations_of_diagram(diagram):
    """The 8 orientations of a 3x3 diagram, turned as strings."""
    rows = [row.replace(" ", "") for row in diagram]
    out = []
    for _ in range(4):
        rows = ["".join(rows[2 - r][c] for r in range(3)) for c in range(3)]  # a quarter turn
        out.append(rows)
        out.append([row[::-1] for row in rows])
    return out


SWAP = str.maketrans("XOxo", "OXox")


def independent_table(diagrams=MOGO_PATTERNS):
    """The table built here from the diagrams turned as strings (not from ``variants``)."""
    allowed = {
        "X": {BLACK},
        "O": {WHITE},
        ".": {EMPTY},
        "#": {BORDER},
        "?": {EMPTY, BLACK, WHITE, BORDER},
        "x": {EMPTY, WHITE, BORDER},
        "o": {EMPTY, BLACK, BORDER},
    }
    codes = np.arange(1 << 16)
    fields = {ORDER[name]: (codes >> (2 * i)) & 3 for i, name in enumerate(kmogo.NEIGHBOUR_ORDER)}
    result = np.zeros(1 << 16, dtype=bool)
    for diagram in diagrams.values():
        for rows in rotations_of_diagram(diagram):
            for text in (rows, [row.translate(SWAP) for row in rows]):
                ok = np.ones(1 << 16, dtype=bool)
                for (dr, dc), field in fields.items():
                    ok &= np.isin(field, list(allowed[text[dr + 1][dc + 1]]))
                result |= ok
    return result


def test_the_table_equals_a_table_built_independently_for_every_code():
    assert TABLE.dtype == np.uint8 and TABLE.shape == (2 << 13,)
    np.testing.assert_array_equal(CODES.astype(bool), independent_table())
    np.testing.assert_array_equal(build_table(MOGO_PATTERNS.values()), CODES)
    # the second plane: Pachi's extra shapes, and nothing of MoGo's that is not one of them
    np.testing.assert_array_equal(EXTRA_CODES.astype(bool), independent_table(EXTRA_PATTERNS))


CUT_KEIMA = """
. . . . . . .
. . . . . . .
. . O X . . .
. . . . O . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_the_kernel_reads_the_extra_shapes_from_the_second_plane():
    # a cut keima at (3, 3): White's (2, 2) and (3, 4) on either side of Black's (2, 3)
    grid = naive.from_diagram(CUT_KEIMA)
    board = Board.from_ascii(CUT_KEIMA)
    p = coords.point(7, 3, 3)
    assert any(matches_naive(d, neighbours_of(grid, 3, 3)) for d in EXTRA_PATTERNS.values())
    assert not expected_match(neighbours_of(grid, 3, 3))  # none of MoGo's
    assert kmogo.matches_extra(TABLE, board.pts, p, 9) and not kmogo.matches(TABLE, board.pts, p, 9)


def test_variants_are_the_eight_orientations_with_and_without_swapped_colours():
    for name, diagram in MOGO_PATTERNS.items():
        got = {tuple(sorted(v.items())) for v in variants(diagram)}
        want = set()
        for rows in rotations_of_diagram(diagram):
            for text in (rows, [row.translate(SWAP) for row in rows]):
                want.add(tuple(sorted((o, text[o[0] + 1][o[1] + 1]) for o in OFFSETS)))
        assert got == want, name


def test_one_pattern_table_has_the_codes_counted_by_hand():
    # "XOX / .*. / ???": 4 orientations (it is its own mirror image) x 2 colourings x 4^3 codes,
    # less the codes two orientations share: XOX above and XOX (or OXO) below, W and E empty (4),
    # and the same turned a quarter (4)
    assert int(build_table([MOGO_PATTERNS["hane enclosing"]]).sum()) == 4 * 2 * 64 - 8


# ---- (b) each pattern on a board drawn by hand

HAND_DRAWN = {
    "hane enclosing": """
        . . . . .
        . X O X .
        . . * . .
        . O . X .
        . . . . .""",
    "hane non-cutting": """
        . . . . .
        . X O . .
        . . * . .
        . O . X .
        . . . . .""",
    "hane magari": """
        . . . . .
        . X O X .
        . X * . .
        . O . . .
        . . . . .""",
    "cut1 unprotected": """
        . . . . .
        . X O . .
        . O * X .
        . . X . .
        . . . . .""",
    "cut1 peeped": """
        . . . . .
        . X O O .
        . O * X .
        . . O . .
        . . . . .""",
    "cut2": """
        . . . . .
        . . X . .
        . O * O .
        . . X . .
        . . . . .""",
    "edge chase": """
        . . . . .
        . . . . .
        . . . . .
        . X . O .
        . O * X .""",
    "edge block side cut": """
        . . . . .
        . . . . .
        . . . . .
        . O X . .
        . X * O .""",
    "edge block side connection": """
        . . . . .
        . . . . .
        . . . . .
        . . X . .
        . O * O .""",
    "edge sagari": """
        . . . . .
        . . . . .
        . . . . .
        . . X O .
        . . * . .""",
    "edge cut": """
        . . . . .
        . . . . .
        . . . . .
        . . O X .
        . X * O .""",
}


def parse(diagram):
    """Rows of symbols, the move ``*`` included."""
    return [line.split() for line in diagram.strip().splitlines()]


def board_symmetries(rows):
    """The 8 turns and mirror images of a square diagram, each with the colours swapped too."""
    out = []
    for _ in range(4):
        rows = [[rows[len(rows) - 1 - r][c] for r in range(len(rows))] for c in range(len(rows))]
        for turned in (rows, [row[::-1] for row in rows]):
            out.append(turned)
            out.append([[{"X": "O", "O": "X"}.get(s, s) for s in row] for row in turned])
    return out


def board_and_move(rows):
    (move,) = [(r, c) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "*"]
    text = "\n".join(" ".join("." if s == "*" else s for s in row) for row in rows)
    return Board.from_ascii(text), naive.from_diagram(text), move


def test_every_pattern_has_a_hand_drawn_board():
    assert set(HAND_DRAWN) == set(MOGO_PATTERNS)


@pytest.mark.parametrize("name", list(MOGO_PATTERNS))
def test_each_pattern_matches_its_hand_drawn_board_in_every_orientation_and_colouring(name):
    for rows in board_symmetries(parse(HAND_DRAWN[name])):
        board, grid, (r, c) = board_and_move(rows)
        neighbours = neighbours_of(grid, r, c)
        assert matches_naive(MOGO_PATTERNS[name], neighbours), (name, board)
        p = coords.point(board.size, r, c)
        assert kmogo.matches(TABLE, board.pts, p, board.size + 2), (name, board)
        assert decode(kernel_code(board, r, c)) == neighbours


# ---- (c) shapes that match no pattern

NON_MATCHES = {
    "the empty board": """
        . . . . .
        . . . . .
        . . * . .
        . . . . .
        . . . . .""",
    "a lone stone next to the move": """
        . . . . .
        . . X . .
        . . * . .
        . . . . .
        . . . . .""",
    "hane enclosing with the far stone of the other colour": """
        . . . . .
        . X O O .
        . . * . .
        . . . . .
        . . . . .""",
    "cut1 peeped without the diagonal stone": """
        . . . . .
        . . O . .
        . O * X .
        . . . . .
        . . . . .""",
    "cut1 unprotected with an O below the move": """
        . . . . .
        . X O . .
        . O * . .
        . . O . .
        . . . . .""",
    "cut2 with one of the three below of the cut colour": """
        . . . . .
        . . X . .
        . O * O .
        . . . O .
        . . . . .""",
    "hane magari with an X below-left": """
        . . . . .
        . X O . .
        . X * . .
        . X . . .
        . . . . .""",
    "edge block side cut with an X, not an O, east of the move": """
        . . . . .
        . . . . .
        . . . . .
        . O X . .
        . X * X .""",
    "edge sagari with an X west of the move": """
        . . . . .
        . . . . .
        . . . . .
        . . X O .
        . X * . .""",
}


@pytest.mark.parametrize("name", list(NON_MATCHES))
def test_shapes_that_differ_from_every_pattern_do_not_match(name):
    for rows in board_symmetries(parse(NON_MATCHES[name])):
        board, grid, (r, c) = board_and_move(rows)
        assert not expected_match(neighbours_of(grid, r, c)), (name, board)
        p = coords.point(board.size, r, c)
        assert not kmogo.matches(TABLE, board.pts, p, board.size + 2), (name, board)


# ---- (d) symmetries of the table


def code_permutation(transform):
    """For a map of offsets, the map of codes: the field of offset ``o`` moves to ``transform(o)``."""
    codes = np.arange(1 << 16)
    out = np.zeros(1 << 16, dtype=np.int64)
    for i, o in enumerate(OFFSETS):
        j = OFFSETS.index(transform(o))
        out |= ((codes >> (2 * i)) & 3) << (2 * j)
    return out


def square_symmetries():
    turn = lambda o: (o[1], -o[0])  # noqa: E731
    mirror = lambda o: (o[0], -o[1])  # noqa: E731
    out = []
    for k in range(4):
        for m in (False, True):

            def t(o, k=k, m=m):
                for _ in range(k):
                    o = turn(o)
                return mirror(o) if m else o

            out.append(t)
    return out


def test_the_table_is_symmetric_under_the_eight_symmetries_of_the_square():
    images = set()
    for t in square_symmetries():
        perm = code_permutation(t)
        images.add(tuple(perm[::997].tolist()))
        np.testing.assert_array_equal(CODES[perm], CODES)
    assert len(images) == 8  # eight different permutations


def test_the_table_is_symmetric_under_the_colour_swap():
    codes = np.arange(1 << 16)
    swap = np.array([EMPTY, WHITE, BLACK, BORDER])
    swapped = np.zeros(1 << 16, dtype=np.int64)
    for i in range(8):
        swapped |= swap[(codes >> (2 * i)) & 3] << (2 * i)
    assert not np.array_equal(swapped, codes)
    np.testing.assert_array_equal(CODES[swapped], CODES)
    assert 0 < int(CODES.sum()) < (1 << 16) // 4
