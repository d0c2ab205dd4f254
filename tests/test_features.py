"""The features of candidate moves (``goengine.kernels.features``): hand positions with a known
value for each group, then the kernels against the slow reference of ``tests/naive_features.py``
on random positions, every legal move, both colours, on 5x5, 9x9 and 19x19.

Reading guide: ``values`` gives the kernel's value of every group for one move (decoded from its
packed code), ``reference`` the naive one; each hand test asserts the value it expects of both.
Diagrams: ``X`` black, ``O`` white, ``.`` empty, row 0 at the top; points are written
``(row, col)``. Moves played on a diagram with ``play`` make the last moves the features read.
The random positions also check the shapes: ``dictionary_around`` makes a dictionary of shapes
seen around some of the position's points (turned, mirrored, from either side), and every
move's shape id must be the reference's largest known shape; the harvest's canonical keys and
packed surroundings are checked on a sample of moves. ``tests/data/tom9d_six_games.sgf`` (six
games of ``data/games/tom9d_2008-2011.sgf.xz``, as they are there) gives real 19x19
positions, with real ladders.
"""

from __future__ import annotations

import random
from pathlib import Path

import naive
import naive_features as nf
import numpy as np
import pytest
from helpers import random_position

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, ZOBRIST, Board
from goengine.kernels import board as kb
from goengine.kernels import features as kf
from goengine.movemodel import MoveModel, empty_arrays, geometry

DATA = Path(__file__).parent / "data"


def point(board, rc):
    return PASS if rc is None else coords.point(board.size, *rc)


def kernel_candidates(board, color=None, arrays=None):
    """``[(point or None, {group: value}, shape id)]`` of every legal move, from
    ``position_features`` on copies of the board's arrays."""
    pts, meta = board.pts.copy(), board.meta.copy()
    if color is not None:
        meta[kb.TO_MOVE] = color
    moves = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
    codes = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
    shapes = np.zeros(kf.MAX_CANDIDATES, dtype=np.int64)
    n = kf.position_features(
        pts,
        meta,
        ZOBRIST,
        empty_arrays() if arrays is None else arrays,
        np.zeros_like(pts),
        np.zeros_like(meta),
        moves,
        codes,
        shapes,
    )
    out = []
    for k in range(n):
        p = int(moves[k])
        rc = None if p == PASS else coords.row_col(board.size, p)
        out.append((rc, decode(int(codes[k])), int(shapes[k])))
    return out


def decode(code):
    return {g: int(kf.value_of(code, i)) for i, g in enumerate(nf.GROUPS)}


def values(board, rc, color=None):
    """The kernel's value of every group for ``color`` (default: the side to move) playing
    ``rc`` (None: pass), which must be legal."""
    for q, found, _ in kernel_candidates(board, color):
        if q == rc:
            return found
    raise AssertionError(f"{rc} is not among the kernel's legal moves")


def reference(board, rc, color=None):
    return nf.features(nf.Position.of(board, color), rc)


def both(board, rc, group, color=None):
    """The value of ``group`` from the kernel and from the reference."""
    return values(board, rc, color)[group], reference(board, rc, color)[group]


def play(board, *moves):
    """Play ``(color, (row, col) or None)`` moves on the board."""
    for color, rc in moves:
        board.play(color, point(board, rc))
    return board


def without(diagram, rc):
    """The diagram with the point ``rc`` emptied."""
    return with_stone(diagram, rc, ".")


def with_stone(diagram, rc, stone):
    rows = [line.split() for line in diagram.strip().splitlines()]
    rows[rc[0]][rc[1]] = stone
    return "\n".join(" ".join(row) for row in rows)


def swapped(diagram):
    return diagram.replace("X", "x").replace("O", "X").replace("x", "O")


def transformed(diagram, t):
    """The diagram under the t-th of the eight rotations and reflections of the board."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    n = len(rows)
    out = [[None] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            r2, c2 = moved(t, n, (r, c))
            out[r2][c2] = rows[r][c]
    return "\n".join(" ".join(row) for row in out)


def moved(t, n, rc):
    """Where the point ``rc`` of an n x n board goes under the t-th orientation."""
    r, c = rc
    if t & 4:
        r, c = c, r
    if t & 1:
        r = n - 1 - r
    if t & 2:
        c = n - 1 - c
    return r, c


# ---- the packed code


def test_every_group_value_fits_its_bits_and_decodes_alone():
    assert len(nf.GROUPS) == kf.N_GROUPS
    for g in range(kf.N_GROUPS):
        assert kf.GROUP_SIZES[g] - 1 <= kf.GROUP_MASKS[g] and kf.GROUP_SIZES[g] <= kf.MAX_VALUES
        if g + 1 < kf.N_GROUPS:  # the fields do not overlap
            assert kf.GROUP_SHIFTS[g] + kf.GROUP_MASKS[g].bit_length() <= kf.GROUP_SHIFTS[g + 1]
    # every group at its largest value at once, and each alone
    largest = [size - 1 for size in kf.GROUP_SIZES]
    code = sum(v << kf.GROUP_SHIFTS[g] for g, v in enumerate(largest))
    assert code < 2**31  # the training data holds codes as int32
    assert [int(kf.value_of(code, g)) for g in range(kf.N_GROUPS)] == largest
    for g, v in enumerate(largest):
        alone = v << kf.GROUP_SHIFTS[g]
        assert [int(kf.value_of(alone, h)) for h in range(kf.N_GROUPS)] == [v if h == g else 0 for h in range(8)]


# ---- PASS


def test_a_pass_after_the_opponents_pass_differs_from_any_other_pass():
    board = Board(9)
    assert both(board, None, "pass") == (2, 2)  # no move yet
    play(board, (BLACK, (4, 4)))
    assert both(board, None, "pass") == (2, 2)
    play(board, (WHITE, None))
    assert both(board, None, "pass") == (1, 1)
    # a point has no PASS value, and a pass no other value
    assert values(board, (0, 0))["pass"] == 0
    assert set(values(board, None).values()) == {0, 1}


def test_a_diagram_has_no_last_move_so_its_pass_is_not_after_a_pass():
    board = Board.from_ascii(". X .\n. . .\nO . .")
    assert both(board, None, "pass") == (2, 2)
    assert values(board, (1, 1))["dist_last"] == 0 and values(board, (1, 1))["dist_last2"] == 0


# ---- CAPTURE

KO = """
. . . . .
. X O . .
X O . O .
. X O . .
. . . . .
"""


def test_a_ko_capture():
    board = Board.from_ascii(KO)
    assert both(board, (2, 2), "capture") == (1, 1)
    # the same capture by a stone that keeps another liberty is not a ko
    board = Board.from_ascii(KO.replace("X O . O .", "X O . . ."))
    assert both(board, (2, 2), "capture") == (4, 4)


SAVING_CAPTURE = """
. . . . . . .
. O O . . . .
O X X O . . .
. . X O . . .
. X O X . . .
. . . . . . .
. . . . . . .
"""


def test_a_capture_that_saves_an_own_chain_in_atari():
    # Black's chain (2, 1) (2, 2) (3, 2) has one liberty, (3, 1); taking White (4, 2) at (5, 2)
    # frees (4, 2), next to it
    board = Board.from_ascii(SAVING_CAPTURE)
    assert naive.liberties(nf.Position.of(board).grid, 2, 1) == {(3, 1)}
    assert both(board, (5, 2), "capture") == (2, 2)
    # with the chain out of atari it is another capture
    board = Board.from_ascii(SAVING_CAPTURE.replace("O X X O", ". X X O"))
    assert both(board, (5, 2), "capture") == (4, 4)


ONE_STONE_IN_ATARI = ". . . . .\n. . X . .\n. X O . .\n. . X . .\n. . . . ."


def test_a_capture_of_the_last_moves_chain():
    # White's last move (2, 2) went into atari
    board = play(Board.from_ascii(without(ONE_STONE_IN_ATARI, (2, 2))), (WHITE, (2, 2)))
    assert both(board, (2, 3), "capture") == (3, 3)
    # the same stone taken when the last move was elsewhere
    board = play(Board.from_ascii(ONE_STONE_IN_ATARI), (WHITE, (4, 4)))
    assert both(board, (2, 3), "capture") == (4, 4)
    # a chain next to the last move (Black's own, when Black is rated again) counts too
    board = play(Board.from_ascii(without(ONE_STONE_IN_ATARI, (3, 2))), (BLACK, (3, 2)))
    assert both(board, (2, 3), "capture", color=BLACK) == (3, 3)
    # a chain of two stones whose second stone was the last move
    board = play(Board.from_ascii("X . . . .\nX X X . .\n. . . . .\n. . . . .\n. . . . ."), (WHITE, (0, 1)))
    play(board, (BLACK, (4, 4)), (WHITE, (0, 2)))
    assert both(board, (0, 3), "capture") == (3, 3)


@pytest.mark.parametrize(
    ("diagram", "move", "expected"),
    [
        # two stones
        (". O O X .\nX X X . .\n. . . . .\n. . . . .\n. . . . .", (0, 0), 4),
        # three stones
        ("O O O . .\nX X X X .\n. . . . .\n. . . . .\n. . . . .", (0, 3), 5),
        # two chains of one stone each
        (". O X . .\nO X . . .\nX . . . .\n. . . . .\n. . . . .", (0, 0), 4),
        # two chains of one and two stones
        (". O X . .\nO X . . .\nO X . . .\nX . . . .\n. . . . .", (0, 0), 5),
    ],
)
def test_captures_by_the_number_of_stones(diagram, move, expected):
    board = Board.from_ascii(diagram)
    assert both(board, move, "capture") == (expected, expected)


def test_a_move_that_captures_nothing_has_no_capture_value():
    assert both(Board.from_ascii(KO), (4, 4), "capture") == (0, 0)


# ---- ESCAPE


LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . O O . . .
. . . O X . . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""
# Black (4, 4) is in atari; extending to (4, 5) leaves two liberties, and White ladders the chain
# towards the bottom-right corner. A black stone at (7, 7) breaks the ladder.
BROKEN_LADDER = with_stone(LADDER, (7, 7), "X")


def test_the_ladder_diagrams_are_what_they_say():
    for diagram, caught in ((LADDER, True), (BROKEN_LADDER, False)):
        board = Board.from_ascii(diagram)
        grid = nf.Position.of(board).grid
        assert naive.liberties(grid, 4, 4) == {(4, 5)}
        extended, _ = naive.play(grid, BLACK, 4, 5)
        assert len(naive.liberties(extended, 4, 5)) == 2
        assert nf.ladder(board.pts, board.meta, (4, 5), BLACK, 9) == caught


def test_escapes_from_a_new_atari_that_work_and_fail():
    # White's last move (3, 4) put Black (4, 4) in atari
    for diagram, expected in ((LADDER, 2), (BROKEN_LADDER, 1)):
        board = play(Board.from_ascii(without(diagram, (3, 4))), (BLACK, (8, 0)), (WHITE, (3, 4)))
        assert both(board, (4, 5), "escape") == (expected, expected)
    # an escape to three liberties works, whatever the ladders
    board = Board.from_ascii(". . . . . . .\n. . . . . . .\n. . . O . . .\n. . O X . . .\n" + ". . . . . . .\n" * 3)
    play(board, (WHITE, (4, 3)))
    assert both(board, (3, 4), "escape") == (1, 1)


def test_escapes_from_an_older_atari_that_work_and_fail():
    for diagram, expected in ((LADDER, 4), (BROKEN_LADDER, 3)):
        # White's last move far away
        board = play(Board.from_ascii(diagram), (BLACK, (8, 0)), (WHITE, (0, 8)))
        assert both(board, (4, 5), "escape") == (expected, expected)
        # no last move at all
        assert both(Board.from_ascii(diagram), (4, 5), "escape") == (expected, expected)


def test_an_escape_to_two_liberties_that_captures_works_without_a_ladder_read():
    # Black (1, 1) (1, 2), in atari, extends to (0, 1) and takes White (0, 2): two liberties
    board = Board.from_ascii(". . O X .\nO X X O .\n. O O . .\n. . . . .\n. . . . .")
    assert both(board, (0, 1), "escape") == (3, 3)
    assert both(board, (0, 1), "capture") == (2, 2)  # and the capture saves the chain


def test_a_move_next_to_no_chain_in_atari_is_no_escape():
    board = Board.from_ascii(LADDER)
    assert both(board, (6, 6), "escape") == (0, 0)
    assert both(board, (4, 5), "escape", color=WHITE) == (0, 0)


# ---- ATARI

# the ladder with the colours swapped: Black ataris White (4, 4) at (3, 4), and White's extension
# to (4, 5) is caught; with a white stone at (7, 7) it is not
ATARI_LADDER = swapped(without(LADDER, (3, 4)))
ATARI_NO_LADDER = swapped(without(BROKEN_LADDER, (3, 4)))


def test_an_atari_in_a_ladder_and_one_out_of_it():
    assert both(Board.from_ascii(ATARI_LADDER), (3, 4), "atari") == (1, 1)
    assert both(Board.from_ascii(ATARI_NO_LADDER), (3, 4), "atari") == (3, 3)


def test_an_atari_whose_chain_cannot_even_extend_is_a_net():
    # after Black (1, 1), White (0, 0) (0, 1) has the one liberty (0, 2), suicide for White
    board = Board.from_ascii("O O . X .\nX . X . .\n. . . . .\n. . . . .\n. . . . .")
    assert both(board, (1, 1), "atari") == (1, 1)


KO_AND_ATARI = """
. X O . . . . . .
X . X O . . . . .
. X O . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . X . .
. . . . . X O . .
. . . . . . . . .
. . . . . . . . .
"""


def test_an_atari_with_a_ko_on_the_board():
    # White (1, 1) takes Black (1, 2) in a ko; Black's atari (7, 6) on White (6, 6) is then a ko
    # threat
    board = play(Board.from_ascii(KO_AND_ATARI), (WHITE, (1, 1)))
    assert board.ko_point == coords.point(9, 1, 2) and board.ko_color == BLACK
    assert both(board, (7, 6), "atari") == (2, 2)
    # without the ko it is another atari
    board = play(Board.from_ascii(KO_AND_ATARI), (WHITE, (8, 8)))
    assert both(board, (7, 6), "atari") == (3, 3)


def test_a_capture_is_no_atari():
    assert both(Board.from_ascii(KO), (2, 2), "atari") == (0, 0)


# Black (3, 3) ataris White (3, 2) and White (3, 4). White (3, 2) escapes to (4, 2) with three
# liberties; White (3, 4), extending to (4, 4), has one (Black (4, 5) and (5, 4) close it in).
DOUBLE_ATARI = """
. . . . . . .
. . . . . . .
. . X . X . .
. X O . O X .
. . . . . X .
. . . . X . .
. . . . . . .
"""


def test_a_double_atari_is_a_net_when_either_chain_cannot_escape_in_every_orientation():
    for t in range(8):
        board = Board.from_ascii(transformed(DOUBLE_ATARI, t))
        assert both(board, moved(t, 7, (3, 3)), "atari") == (1, 1), t
    # with both chains free to escape it is another atari
    free = without(without(DOUBLE_ATARI, (4, 5)), (5, 4))
    for t in range(8):
        board = Board.from_ascii(transformed(free, t))
        assert both(board, moved(t, 7, (3, 3)), "atari") == (3, 3), t


# ---- SELF_ATARI


@pytest.mark.parametrize(
    ("diagram", "move", "expected"),
    [
        # one stone thrown into White's two-point eye
        (". . O . .\nO O O . .\n. . . . .\n. . . . .\n. . . . .", (0, 0), 1),
        # three stones filling White's four-point corner eye space (a nakade)
        ("X X O . .\n. . O . .\nO O O . .\n. . . . .\n. . . . .", (1, 0), 1),
        # the same three stones with their last liberty open to the outside
        ("X X O . .\n. . O . .\nO . O . .\n. . . . .\n. . . . .", (1, 0), 3),
        # four stones in an eye space: too many for a nakade
        ("X X X O .\n. . O O .\nO O O . .\n. . . . .\n. . . . .", (1, 0), 3),
        # one stone among three White stones, its liberty open
        (". . . . .\n. . O . .\n. O . O .\n. . . . .\n. . . . .", (2, 2), 2),
        # two stones in the open
        (
            ". . . . . . .\n. . . . . . .\n. . . O O . .\n. . O X . O .\n. . . O . . .\n. . . . . . .\n. . . . . . .",
            (3, 4),
            3,
        ),
    ],
)
def test_self_ataris(diagram, move, expected):
    board = Board.from_ascii(diagram)
    assert both(board, move, "self_atari") == (expected, expected)


def test_a_self_atari_that_captures_is_none():
    # Black (0, 0) takes White (0, 1), which also gives Black (1, 0) (1, 1) a liberty back
    board = Board.from_ascii(". O X . .\nX X O . .\nO O . . .\n. . . . .\n. . . . .")
    assert both(board, (0, 0), "self_atari") == (0, 0)
    assert both(board, (0, 0), "capture") == (2, 2)


# ---- EDGE


@pytest.mark.parametrize(
    ("size", "rc", "line"),
    [(9, (0, 0), 1), (9, (0, 4), 1), (9, (8, 3), 1), (9, (1, 5), 2), (9, (6, 2), 3), (9, (3, 3), 4), (9, (4, 4), 5)]
    + [(19, (9, 9), 5), (19, (3, 15), 4), (19, (18, 9), 1), (5, (2, 2), 3), (5, (1, 3), 2)],
)
def test_the_edge_line(size, rc, line):
    assert both(Board(size), rc, "edge") == (line, line)


# ---- DIST_LAST and DIST_LAST2


@pytest.mark.parametrize(
    ("rc", "to_last", "to_last2"),
    [
        # 19x19, the last move (6, 6), the one before it (2, 2); (dx, dy) -> d, then the value
        ((6, 7), 1, 14),  # (1, 0) -> 2 -> 1;  (5, 4) -> 14
        ((7, 7), 2, 15),  # (1, 1) -> 3 -> 2;  (5, 5) -> 15
        ((6, 8), 3, 16),  # (2, 0) -> 4 -> 3;  (6, 4) -> 16
        ((5, 7), 2, 13),  # (1, 1) -> 3 -> 2;  (5, 3) -> 13
        ((4, 4), 5, 6),  # (2, 2) -> 6 -> 5;  (2, 2) -> 6
        ((2, 3), 10, 2),  # (3, 4) -> 11 -> 10;  (1, 0) -> 2
        ((3, 3), 8, 3),  # (3, 3) -> 9 -> 8;  (1, 1) -> 3
        ((0, 2), 15, 4),  # (4, 6) -> 16 -> 15;  (0, 2) -> 4
        ((0, 1), 16, 5),  # (5, 6) -> 17 -> 16;  (1, 2) -> 5
        ((18, 18), 16, 17),  # 36 -> 16;  48 -> 17
    ],
)
def test_gridcular_distances_to_the_last_two_moves(rc, to_last, to_last2):
    board = play(Board(19), (BLACK, (2, 2)), (WHITE, (6, 6)))
    assert both(board, rc, "dist_last") == (to_last, to_last)
    assert both(board, rc, "dist_last2") == (to_last2, to_last2)


def test_dist_last2_is_one_on_the_point_of_the_movers_own_captured_stone():
    # Black plays (0, 1) into atari, White takes both stones at (0, 2), Black may play (0, 1) again
    board = play(Board.from_ascii("X . . . .\nO O . . .\n. . . . .\n. . . . .\n. . . . ."), (BLACK, (0, 1)))
    play(board, (WHITE, (0, 2)))
    assert board.color_at(point(board, (0, 1))) == 0
    assert both(board, (0, 1), "dist_last2") == (1, 1)
    assert both(board, (0, 0), "dist_last2") == (2, 2)
    assert both(board, (0, 1), "dist_last") == (1, 1)


def test_no_distance_to_a_pass():
    board = play(Board(9), (BLACK, (4, 4)), (WHITE, None))
    assert both(board, (4, 5), "dist_last") == (0, 0)
    assert both(board, (4, 5), "dist_last2") == (2, 2)
    play(board, (BLACK, None))
    assert both(board, (4, 5), "dist_last") == (0, 0)
    assert both(board, (4, 5), "dist_last2") == (0, 0)


# ---- the kernels against the reference


def dictionary_around(grid, rnd, share=3):
    """A move model knowing the nested shapes around one point in ``share`` (for a random mover,
    in a random orientation, up to a random size), and ``{key: id}`` of all eight orientations of
    each of its shapes: the reference's dictionary."""
    sizes, contents, parents = [0], [np.zeros(3, dtype=np.uint64)], [-1]
    ids = {}  # frozenset of a shape's orientation keys -> id
    known = {}
    points = [(r, c) for r in range(len(grid)) for c in range(len(grid)) if grid[r][c] == naive.EMPTY]
    for rc in rnd.sample(points, len(points) // share):
        shape = nf.states(grid, rc, rnd.choice((BLACK, WHITE)))
        turn = rnd.choice(nf.transforms())
        shape = {turn(*offset): state for offset, state in shape.items()}
        parent = -1
        for d in range(3, rnd.randint(3, 10) + 1):
            keys = frozenset(nf.orientation_keys(shape, d))
            if keys not in ids:
                ids[keys] = len(sizes)
                sizes.append(d)
                contents.append(nf.pack(shape))
                parents.append(parent)
                known.update(dict.fromkeys(keys, ids[keys]))
            parent = ids[keys]
    n = len(sizes)
    model = MoveModel(
        sizes=np.array(sizes),
        contents=np.array(contents, dtype=np.uint64),
        parents=np.array(parents),
        shape_weights=np.zeros(n),
        group_weights=np.zeros((kf.N_GROUPS, kf.MAX_VALUES)),
    )
    return model, known


def check_position(board, seed, harvest_every=5):
    """Every legal move of both colours: the kernel's values and shape against the reference;
    the harvest's canonical keys and packed surroundings for one move in ``harvest_every``."""
    rnd = random.Random(seed)
    grid = nf.Position.of(board).grid
    model, known = dictionary_around(grid, rnd)
    geo = geometry()
    counts = {"shapes": 0}
    for color in (BLACK, WHITE):
        pos = nf.Position.of(board, color)
        got = kernel_candidates(board, color, model.arrays)
        expected = nf.candidates(pos)
        assert [rc for rc, _, _ in got] == [rc for rc, _ in expected], color
        for k, ((rc, found, shape), (_, want)) in enumerate(zip(got, expected, strict=True)):
            assert found == want, (rc, color, {g: (found[g], want[g]) for g in found if found[g] != want[g]}, board)
            if rc is None:
                assert shape == kf.NO_SHAPE
                continue
            assert shape == nf.largest_known(grid, rc, color, known), (rc, color)
            counts["shapes"] += shape != kf.NO_SHAPE
            if k % harvest_every == 0:
                keys = np.zeros(kf.MAX_SHAPE + 1, dtype=np.uint64)
                content = np.zeros(3, dtype=np.uint64)
                kf.canonical_keys(
                    board.pts,
                    board.meta,
                    point(board, rc),
                    color,
                    geo.spiral,
                    geo.ring_end,
                    geo.zkeys,
                    geo.size_keys,
                    geo.orient,
                    keys,
                    content,
                )
                assert [int(keys[d]) for d in range(3, 11)] == [
                    nf.canonical_key(grid, rc, color, d) for d in range(3, 11)
                ]
                assert content.tolist() == nf.pack(nf.states(grid, rc, color)).tolist()
    return counts


RANDOM_POSITIONS = [(5, seed, 3 + 2 * seed) for seed in range(8)]
RANDOM_POSITIONS += [(9, seed, 8 + 9 * seed) for seed in range(8)]
RANDOM_POSITIONS += [(19, seed, 40 + 90 * seed) for seed in range(3)]


@pytest.mark.parametrize(("size", "seed", "moves"), RANDOM_POSITIONS)
def test_the_kernels_match_the_reference_on_random_positions(size, seed, moves):
    board, game = random_position(size, 9100 + seed, moves)
    for color in (BLACK, WHITE):  # the position the reference reads is naive's game
        pos = nf.Position.of(board, color)
        assert pos.grid == game.grid and pos.ko == game.ko_point(color)
    counts = check_position(board, seed)
    assert counts["shapes"] > 0  # the dictionary is found on the board


def test_the_kernels_match_the_reference_on_real_19x19_positions():
    from goengine.training import read_games

    game = read_games(DATA / "tom9d_six_games.sgf", limit=1)[0]
    board = Board(19)
    for k, (p, c) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
        if k in (31, 120, 211):
            board.to_move = c
            check_position(board, k, harvest_every=11)
        board.play(c, p)


def test_the_random_positions_have_every_value_of_every_group():
    """What the comparisons above cover: each value of each group is met, except those only
    the hand positions make (a pass after a pass, an atari with a ko, DIST_LAST2's d = 0)."""
    seen = set()
    for size, seed, moves in RANDOM_POSITIONS:
        board, _ = random_position(size, 9100 + seed, moves)
        for color in (BLACK, WHITE):
            for _, found in nf.candidates(nf.Position.of(board, color)):
                seen |= {(g, v) for g, v in found.items()}
    missing = {(g, v) for i, g in enumerate(nf.GROUPS) for v in range(kf.GROUP_SIZES[i])} - seen
    assert missing <= {("pass", 1), ("atari", 2), ("dist_last2", 1)}, sorted(missing)
