"""The tactics kernels (``goengine.kernels.tactics``) against the slow rules of ``tests/naive.py``
and against positions worked out by hand.

Reading guide: liberty counts are compared with naive on every chain and every empty point of
seeded random positions; then hand-drawn positions (``X`` black, ``O`` white, ``.`` empty, row 0
at the top, points written ``(row, col)``) for self-atari, ladders (each ladder also read by a
naive reader written here, which plays every atari and every answer) and nakade.
"""

import naive
import numpy as np
import pytest
from helpers import grid_of, random_position, set_up

from goengine import coords
from goengine.board import BLACK, EMPTY, WHITE, ZOBRIST, Board
from goengine.kernels import board as kb
from goengine.kernels import tactics as kt

NO_POINT = kb.NO_POINT


def at(board, r, c):
    return coords.point(board.size, r, c)


def chain_root(board, r, c):
    return int(board.pts[kb.CHAIN, at(board, r, c)])


# ---- liberty counts against naive


RANDOM_POSITIONS = [(5, seed, 6 + 3 * seed) for seed in range(8)]
RANDOM_POSITIONS += [(9, seed, 15 + 12 * seed) for seed in range(6)]
RANDOM_POSITIONS += [(19, seed, 80 + 60 * seed) for seed in range(3)]


@pytest.mark.parametrize(("size", "seed", "moves"), RANDOM_POSITIONS)
def test_chain_liberties_counts_distinct_liberties_up_to_the_limit(size, seed, moves):
    board, game = random_position(size, 100 + seed, moves)
    grid = game.grid
    assert grid_of(board.pts, size) == grid
    for stones in naive.chains(grid):
        r, c = next(iter(stones))
        libs = {at(board, *q) for q in naive.liberties(grid, r, c)}
        root = chain_root(board, r, c)
        for limit in (1, 2, 3):
            n, *found = kt.chain_liberties(board.pts, board.meta, root, limit)
            assert n == min(len(libs), limit), (stones, limit)
            first = found[:n]
            assert len(set(first)) == n and set(first) <= libs, (stones, limit, first)


def naive_after(grid, color, r, c):
    """``(liberties, chain size, captured stones)`` after ``color`` plays ``(r, c)``; a suicide
    leaves a chain without liberties (naive refuses to play it, so it is counted here)."""
    try:
        new_grid, captured = naive.play(grid, color, r, c)
    except naive.Illegal:
        placed = naive.with_colors(grid, {(r, c): color})
        return 0, len(naive.chain(placed, r, c)), set()
    return len(naive.liberties(new_grid, r, c)), len(naive.chain(new_grid, r, c)), captured


@pytest.mark.parametrize(("size", "seed", "moves"), RANDOM_POSITIONS)
def test_liberties_after_matches_naive_on_every_empty_point(size, seed, moves):
    board, game = random_position(size, 200 + seed, moves)
    grid = game.grid
    for r, c in sorted(naive.empty_points(grid)):
        p = at(board, r, c)
        for color in (BLACK, WHITE):
            libs, size_after, captured = naive_after(grid, color, r, c)
            # as documented: a chain captured is counted once for each neighbour of p it has
            expected_captured = sum(
                len(naive.chain(grid, *q))
                for q in naive.neighbours(grid, r, c)
                if grid[q[0]][q[1]] == 3 - color and q in captured
            )
            for limit in (1, 2, 3):
                got = tuple(int(x) for x in kt.liberties_after(board.pts, board.meta, p, color, limit))
                assert got == (min(libs, limit), size_after, expected_captured), ((r, c), color, limit, board)
            assert kt.captures_something(board.pts, board.meta, p, color) == expected_captured


def test_the_random_positions_have_captures_of_chains_that_free_liberties_of_the_capturer():
    """The positions above exercise the captures ``liberties_after`` must count: moves capturing
    a chain of several stones, some of them next to the capturing chain but not to the move."""
    found = 0
    for size, seed, moves in RANDOM_POSITIONS:
        if size == 19:
            continue
        _, game = random_position(size, 200 + seed, moves)
        grid = game.grid
        for r, c in naive.empty_points(grid):
            for color in (BLACK, WHITE):
                _, _, captured = naive_after(grid, color, r, c)
                far = captured - set(naive.neighbours(grid, r, c))
                found += bool(far)
    assert found >= 5


def test_liberties_after_counts_every_captured_stone_next_to_the_new_chain():
    # Black (0, 0) captures (0, 1) (0, 2) and joins the black chain in atari below them: the new
    # chain's liberties are the two captured points, (0, 2) only next to (1, 2)
    board = Board.from_ascii(
        """
        . O O X .
        X X X O .
        O O O O .
        . . . . .
        . . . . .
        """
    )
    assert naive_after(naive.from_diagram(str(board)), BLACK, 0, 0) == (2, 4, {(0, 1), (0, 2)})
    p = at(board, 0, 0)
    assert tuple(kt.liberties_after(board.pts, board.meta, p, BLACK, 3)) == (2, 4, 2)
    assert kt.escape_works(board.pts, board.meta, ZOBRIST, p, BLACK, True)


# ---- self-atari

FIVE_STONE_SELF_ATARI = """
. . . . . . . . .
. O O O . O . . .
O X X X X . O . .
. O O O O O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

TWO_STONE_SELF_ATARI = """
. . . . . . .
. . . . . . .
. . . O O . .
. . O X . O .
. . . O . . .
. . . . . . .
. . . . . . .
"""


def bad_self_atari(board, r, c, color, max_stones):
    return bool(kt.is_bad_self_atari(board.pts, board.meta, at(board, r, c), color, float(max_stones)))


def test_the_self_atari_of_a_five_stone_chain_is_bad():
    board = Board.from_ascii(FIVE_STONE_SELF_ATARI)
    grid = naive.from_diagram(FIVE_STONE_SELF_ATARI)
    assert naive_after(grid, BLACK, 2, 5) == (1, 5, set())
    for max_stones in (0, 1, 2, 3, 4):
        assert bad_self_atari(board, 2, 5, BLACK, max_stones)
    assert not bad_self_atari(board, 2, 5, BLACK, 5)
    # the other liberty is no self-atari: (1, 4) gives the chain (0, 4) and (2, 5)
    assert not bad_self_atari(board, 1, 4, BLACK, 1)


def test_a_single_stone_throw_in_is_allowed():
    # Black throws in at (0, 0) inside White's two-point eye (0, 0) (0, 1)
    board = Board.from_ascii(
        """
        . . O . .
        O O O . .
        . . . . .
        . . . . .
        . . . . .
        """
    )
    assert naive_after(naive.from_diagram(str(board)), BLACK, 0, 0) == (1, 1, set())
    assert not bad_self_atari(board, 0, 0, BLACK, 1)
    # with max_stones 0 it is still a throw-in into White's eye space: allowed
    assert not bad_self_atari(board, 0, 0, BLACK, 0)


def test_a_self_atari_that_captures_is_allowed():
    # Black (0, 0) captures (0, 1) and leaves three stones with the one liberty (0, 1)
    board = Board.from_ascii(
        """
        . O X . . . .
        X X O . . . .
        O O . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    libs, size_after, captured = naive_after(naive.from_diagram(str(board)), BLACK, 0, 0)
    assert (libs, size_after, captured) == (1, 3, {(0, 1)})
    assert not bad_self_atari(board, 0, 0, BLACK, 1)


def test_a_three_stone_nakade_throw_in_inside_the_opponent_eye_space_is_allowed():
    # White's corner eye space is the square (0, 0) (0, 1) (1, 0) (1, 1); Black fills three of it
    board = Board.from_ascii(
        """
        X X O . . . .
        . . O . . . .
        O O O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert naive_after(naive.from_diagram(str(board)), BLACK, 1, 0) == (1, 3, set())
    assert not bad_self_atari(board, 1, 0, BLACK, 1)
    # the same three stones with the last liberty open to the outside are a bad self-atari
    board = Board.from_ascii(
        """
        X X O . . . .
        . . O . . . .
        O . O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    assert naive_after(naive.from_diagram(str(board)), BLACK, 1, 0) == (1, 3, set())
    assert bad_self_atari(board, 1, 0, BLACK, 1)


# A seki from a game against Pachi (results/screen-1000-distance3-pattern-extra, game 251), the
# bottom left of the board at its end: Black's (7, 0) and (8, 1) and White's big chain share the
# liberty (7, 1); White's other liberty is its eye (8, 3), Black's the corner (8, 0). Whoever
# plays (7, 1) or (8, 0) first is taken. Counted as it stands, Black won by 6.5.
SEKI = """
X X X X X O O . O
X . X . X O . O O
X X X X X X O O .
. X O X X O X O O
X X O O O O X X O
O X O X X X X X X
O O O X O X X . .
X . O O O X . X X
. X O . O O X . X
"""


@pytest.mark.xfail(
    strict=True,
    reason="the playouts break this seki: Black's throw-in at (7, 1) or (8, 0) passes as a nakade, "
    "White takes and keeps its eye; judging it bad lost 5.3 points at a fixed budget against Pachi "
    "(docs/results/pachi-screens.md), so the default keeps the nakade exception as it is",
)
def test_the_playouts_keep_a_seki_where_a_throw_in_only_gives_the_opponent_a_second_eye():
    board = Board.from_ascii(SEKI)
    grid = naive.from_diagram(SEKI)
    # both throw-ins look like nakade: three stones in White's eye space, in atari, which the
    # self-atari test lets through
    for point in ((7, 1), (8, 0)):
        assert naive_after(grid, BLACK, *point)[:2] == (1, 3) and encloses(grid, BLACK, *point)
        assert not bad_self_atari(board, *point, BLACK, 1)
    # White takes the three stones and keeps its eye at (8, 3): alive, where it was in seki
    after, _ = naive.play(grid, BLACK, 7, 1)
    after, taken = naive.play(after, WHITE, 8, 0)
    assert taken == {(7, 0), (7, 1), (8, 1)} and naive.is_eye(after, WHITE, 8, 3)
    engine = set_up(SEKI, to_move=WHITE)
    try:
        assert engine.final_score() == 6.5  # what the area count of the board says: a seki
    finally:
        engine.close()


def test_a_two_stone_self_atari_on_open_board_is_bad_with_max_stones_one():
    board = Board.from_ascii(TWO_STONE_SELF_ATARI)
    assert naive_after(naive.from_diagram(TWO_STONE_SELF_ATARI), BLACK, 3, 4) == (1, 2, set())
    assert bad_self_atari(board, 3, 4, BLACK, 1)
    assert not bad_self_atari(board, 3, 4, BLACK, 2)
    # a move with two liberties is never a self-atari
    assert not bad_self_atari(board, 4, 4, BLACK, 0)


def encloses(grid, color, r, c):
    """After ``color`` plays ``(r, c)`` (a self-atari), whether the chain's one liberty touches
    only the opponent's stones, the edge and the chain: the chain fills an opponent eye space."""
    after, _ = naive.play(grid, color, r, c)
    (lib,) = naive.liberties(after, r, c)
    stones = naive.chain(after, r, c)
    return all(after[q[0]][q[1]] == 3 - color or q in stones for q in naive.neighbours(after, *lib))


def side(grid, q):
    """What is at ``q``: a colour, or "edge" off the board."""
    return grid[q[0]][q[1]] if naive.on_board(grid, *q) else "edge"


def naive_snapback(grid, color, r, c, lib):
    """The snapback rule of ``tactics.sets_up_snapback``, read from whole chains."""
    other = 3 - color
    around = [q for q in naive.neighbours(grid, *lib) if q != (r, c)]
    if any(side(grid, q) == naive.EMPTY for q in around):
        return False
    if not any(side(grid, q) == other for q in around):
        return False
    for q in around:
        libs = naive.liberties(grid, *q)
        if side(grid, q) == color and len(libs) == 1:
            return False
        if side(grid, q) == other and (len(libs) > 2 or (len(libs) == 2 and libs != {lib, (r, c)})):
            return False
    return any(side(grid, q) == other and len(naive.liberties(grid, *q)) == 2 for q in naive.neighbours(grid, r, c))


def naive_throw_in(grid, color, r, c, lib):
    """The false-eye throw-in rule of ``tactics.false_eye_throw_in``: None (no such throw-in),
    True (a bad one) or False (a good one)."""
    other = 3 - color
    sides = [side(grid, q) for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))]
    if sides.count("edge") >= 2 or sum(s in (other, "edge") for s in sides) != 3:
        return None
    diagonals = [side(grid, (r + i, c + j)) for i in (-1, 1) for j in (-1, 1)]
    if diagonals.count(color) + ("edge" in diagonals) < 2:
        return None
    (lr, lc) = lib
    around = [side(grid, q) for q in ((lr - 1, lc), (lr + 1, lc), (lr, lc - 1), (lr, lc + 1))]
    if other not in around or sum(s in (other, "edge") for s in around) < 2:
        return True
    across = [(lr, lc - 1), (lr, lc + 1)] if lc == c else [(lr - 1, lc), (lr + 1, lc)]
    return not all(side(grid, q) in (other, "edge") for q in across)


def naive_is_bad_self_atari(grid, color, r, c, max_stones):
    libs, size_after, captured = naive_after(grid, color, r, c)
    if libs >= 2 or captured or size_after <= max_stones:
        return False
    if size_after == 1:
        (lib,) = naive.liberties(naive.play(grid, color, r, c)[0], r, c)
        if naive_snapback(grid, color, r, c, lib):
            return False
        throw_in = naive_throw_in(grid, color, r, c, lib)
        if throw_in is not None:
            return throw_in
    return size_after > 3 or not encloses(grid, color, r, c)


@pytest.mark.parametrize(("size", "seed", "moves"), RANDOM_POSITIONS)
def test_is_bad_self_atari_on_random_positions(size, seed, moves):
    """A move leaving two liberties, or capturing, or of at most ``max_stones`` stones is never
    bad; a self-atari of more than three stones (the nakade limit) always is; one of two or three
    is bad unless its last liberty is enclosed by the opponent (a throw-in into an eye space); a
    lone stone (max_stones 0) is also judged by the snapback and false-eye rules, read here from
    whole chains."""
    board, game = random_position(size, 300 + seed, moves)
    grid = game.grid
    for r, c in sorted(naive.empty_points(grid)):
        for color in (BLACK, WHITE):
            if not naive.is_legal(grid, color, r, c):
                continue
            for max_stones in (0, 1, 3):
                expected = naive_is_bad_self_atari(grid, color, r, c, max_stones)
                assert bad_self_atari(board, r, c, color, max_stones) == expected, ((r, c), color, max_stones, board)


SNAPBACK = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X X . . . .
O O X . . . .
. . X . . . .
"""


def test_a_lone_stone_that_sets_up_a_snapback_is_allowed_and_it_is_one():
    # Black (6, 0) leaves White's (5, 0) (5, 1) in atari; White takes on (6, 1) and is taken back
    board = Board.from_ascii(SNAPBACK)
    grid = naive.from_diagram(SNAPBACK)
    assert naive_after(grid, BLACK, 6, 0) == (1, 1, set())
    assert not encloses(grid, BLACK, 6, 0)  # no eye space filled: only the snapback excuses it
    assert not bad_self_atari(board, 6, 0, BLACK, 0)
    after, _ = naive.play(grid, BLACK, 6, 0)
    after, taken = naive.play(after, WHITE, 6, 1)
    assert taken == {(6, 0)}
    _, retaken = naive.play(after, BLACK, 6, 0)
    assert retaken == {(5, 0), (5, 1), (6, 1)}


def test_a_throw_in_the_capture_does_not_punish_is_bad():
    # White's chain has a third liberty (4, 0): taking on (6, 1) leaves it two, no snapback
    board = Board.from_ascii(SNAPBACK.replace("X X X . . . .", ". X X . . . .", 1))
    assert bad_self_atari(board, 6, 0, BLACK, 0)
    # Black's wall next to the liberty in atari: White's capture takes it too, no snapback
    board = Board.from_ascii(
        """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X O . . . .
        O O X O . . .
        . . X O . . .
        """
    )
    assert bad_self_atari(board, 6, 0, BLACK, 0)


FALSE_EYE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . O . .
. X X O . . .
. . . X . . .
"""


def test_a_lone_throw_in_into_a_false_eye_is_allowed_when_its_liberty_is_closed_in():
    # White (6, 2) throws in beside Black's (6, 3): the eye at (6, 2) is false (Black's (5, 1) and
    # White's (5, 3) on its diagonals, the edge below), and the liberty (6, 1) is closed by Black's
    # (5, 1) above and the edge below
    board = Board.from_ascii(FALSE_EYE)
    grid = naive.from_diagram(FALSE_EYE)
    assert naive_after(grid, WHITE, 6, 2) == (1, 1, set())
    assert not encloses(grid, WHITE, 6, 2)  # (6, 1) also touches (6, 0): no eye space of Black's
    assert naive_throw_in(grid, WHITE, 6, 2, (6, 1)) is False
    assert not bad_self_atari(board, 6, 2, WHITE, 0)
    # the same with the liberty open above it: Black connects there, the stone is wasted
    board = Board.from_ascii(FALSE_EYE.replace(". X X O . . .", ". . X O . . ."))
    assert bad_self_atari(board, 6, 2, WHITE, 0)


# ---- ladders


def naive_ladder(grid, target, attacker, depth=120):
    """Whether ``attacker`` (to move) captures the chain on ``target`` (two liberties) in a
    ladder: some atari after which every answer (extending, or capturing an attacking chain in
    atari next to the target) leaves the target capturable, by recursion on the full tree."""
    libs = naive.liberties(grid, *target)
    if len(libs) >= 3:
        return False
    if len(libs) <= 1:
        return True
    if depth == 0:
        return False
    defender = 3 - attacker
    for a in sorted(libs):
        try:
            after, _ = naive.play(grid, attacker, *a)
        except naive.Illegal:
            continue
        answers = set(naive.liberties(after, *target))
        for s in naive.chain(after, *target):
            for q in naive.neighbours(after, *s):
                if after[q[0]][q[1]] == attacker and len(naive.liberties(after, *q)) == 1:
                    answers |= naive.liberties(after, *q)
        caught = True
        for answer in sorted(answers):
            try:
                answered, _ = naive.play(after, defender, *answer)
            except naive.Illegal:
                continue
            if not naive_ladder(answered, target, attacker, depth - 1):
                caught = False
                break
        if caught:
            return True
    return False


def ladder_board(size, origin, breaker=None):
    """A black stone at ``origin`` (r, c) in atari after White's (r - 1, c): White holds its
    west and south and the point north-east of it; Black's extension east, ``(r, c + 1)``, leaves
    two liberties and White ladders it towards the bottom-right corner. ``breaker``: a black stone
    on the ladder's path."""
    r, c = origin
    rows = [["."] * size for _ in range(size)]
    rows[r][c] = "X"
    for q in ((r, c - 1), (r + 1, c), (r - 1, c + 1), (r - 1, c)):
        rows[q[0]][q[1]] = "O"
    if breaker is not None:
        rows[breaker[0]][breaker[1]] = "X"
    return Board.from_ascii("\n".join(" ".join(row) for row in rows))


LADDERS = [
    # size, the black stone, a breaker on the path
    (9, (4, 4), (7, 7)),
    (9, (2, 2), (6, 5)),
    (19, (3, 3), (12, 12)),
    (19, (3, 3), (16, 15)),
]


@pytest.mark.parametrize(("size", "origin", "breaker"), LADDERS)
def test_ladder_captures_a_working_ladder_and_not_a_broken_one(size, origin, breaker):
    r, c = origin
    extension = (r, c + 1)
    for with_breaker, works in ((False, True), (True, False)):
        board = ladder_board(size, origin, breaker if with_breaker else None)
        before = board.pts.copy(), board.meta.copy()
        grid = naive.from_diagram(str(board))
        extended, _ = naive.play(grid, BLACK, *extension)
        assert len(naive.liberties(extended, *extension)) == 2
        assert naive_ladder(extended, extension, WHITE) == works, "the hand-drawn position is not what it says"
        p = at(board, *extension)
        assert bool(kt.ladder_captures(board.pts, board.meta, ZOBRIST, p, BLACK)) == works
        # read on the scratch rows: the position's rows and slots are untouched
        np.testing.assert_array_equal(board.pts[: kb.STATE_ROWS], before[0][: kb.STATE_ROWS])
        np.testing.assert_array_equal(board.meta[: kb.NMETA], before[1][: kb.NMETA])
        # escaping into the ladder does not work when ladders are read
        assert bool(kt.escape_works(board.pts, board.meta, ZOBRIST, p, BLACK, True)) == (not works)
        assert bool(kt.escape_works(board.pts, board.meta, ZOBRIST, p, BLACK, False))
        assert bool(kt.saves_chain_in_atari(board.pts, board.meta, ZOBRIST, p, BLACK, True)) == (not works)


def test_ladder_colours_are_symmetric():
    # the 9x9 ladder with the colours swapped
    board = ladder_board(9, (4, 4))
    swapped = Board.from_ascii(str(board).replace("X", "x").replace("O", "X").replace("x", "O"))
    p = at(board, 4, 5)
    assert kt.ladder_captures(board.pts, board.meta, ZOBRIST, p, BLACK)
    assert kt.ladder_captures(swapped.pts, swapped.meta, ZOBRIST, p, WHITE)


def test_a_ladder_whose_attacking_stone_can_be_captured_fails():
    # the 9x9 ladder, with White's south stone (5, 4) in atari at (5, 5), a liberty of the ladder
    board = Board.from_ascii(
        """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . O O . . .
        . . . O X . . . .
        . . . X O . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        """
    )
    grid = naive.from_diagram(str(board))
    extended, _ = naive.play(grid, BLACK, 4, 5)
    assert not naive_ladder(extended, (4, 5), WHITE)
    assert not kt.ladder_captures(board.pts, board.meta, ZOBRIST, at(board, 4, 5), BLACK)


def test_escape_works_by_liberty_count():
    board = Board.from_ascii(
        """
        . . . . . . .
        . . . O . . .
        . . O X . . .
        . . . O . O .
        . . . . O . .
        . . . . . . .
        . . . . . . .
        """
    )
    # Black (2, 3), in atari, extends to (2, 4): liberties (1, 4) (2, 5) and (3, 4)
    p = at(board, 2, 4)
    assert kt.liberties_after(board.pts, board.meta, p, BLACK, 3)[0] == 3
    assert kt.escape_works(board.pts, board.meta, ZOBRIST, p, BLACK, True)
    assert kt.saves_chain_in_atari(board.pts, board.meta, ZOBRIST, p, BLACK, True)
    # no white chain next to (3, 4) is in atari: nothing to save
    assert not kt.saves_chain_in_atari(board.pts, board.meta, ZOBRIST, at(board, 3, 4), WHITE, True)
    # an extension to one liberty does not work
    board = Board.from_ascii(
        """
        . . . . . . .
        . . . O O . .
        . . O X . O .
        . . . O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        """
    )
    p = at(board, 2, 4)
    assert kt.liberties_after(board.pts, board.meta, p, BLACK, 3)[0] == 1
    assert not kt.escape_works(board.pts, board.meta, ZOBRIST, p, BLACK, False)


# ---- nakade


def nakade(board, r, c, max_size=3):
    """``nakade_point`` at (r, c) for eye spaces of up to ``max_size`` points (the default's 3)."""
    return int(kt.nakade_point(board.pts, board.meta, at(board, r, c), np.int64(max_size)))


@pytest.mark.parametrize(
    ("diagram", "space", "middle"),
    [
        # straight three on the top edge, White around it
        (
            ". . . O . . .\nO O O O . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
            [(0, 0), (0, 1), (0, 2)],
            (0, 1),
        ),
        # bent three in the corner
        (
            ". . O . . . .\n. O O . . . .\nO O . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
            [(0, 0), (0, 1), (1, 0)],
            (0, 0),
        ),
        # bent three in the middle, Black around it
        (
            ". . . . . . .\n. . X X . . .\n. X . . X . .\n. X . X . . .\n. . X . . . .\n. . . . . . .\n. . . . . . .",
            [(2, 2), (2, 3), (3, 2)],
            (2, 2),
        ),
        # vertical straight three in the middle, Black around it
        (
            ". . . X . . .\n. . X . X . .\n. . X . X . .\n. . X . X . .\n. . . X . . .\n. . . . . . .\n. . . . . . .",
            [(1, 3), (2, 3), (3, 3)],
            (2, 3),
        ),
    ],
)
def test_nakade_point_is_the_middle_of_a_three_point_eye_space(diagram, space, middle):
    board = Board.from_ascii(diagram)
    grid = naive.from_diagram(diagram)
    assert naive.flood(grid, *space[0]) == set(space)  # the diagram has the eye space it says
    for q in space:
        assert nakade(board, *q) == at(board, *middle)
    # a stone, or a point of another region, has no nakade point
    assert nakade(board, 6, 6) == NO_POINT
    stone = next((r, c) for r in range(7) for c in range(7) if grid[r][c] != EMPTY)
    assert nakade(board, *stone) == NO_POINT


@pytest.mark.parametrize(
    "diagram",
    [
        # straight four
        ". . . . O . .\nO O O O O . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
        # a straight three touching both colours
        ". . . O . . .\nO X O O . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
        # a bent three touching both colours
        ". . X . . . .\n. O X . . . .\nO O . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
        # two points, then one
        ". . O . . . .\nO O O . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
        ". O . . . . .\nO O . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .",
    ],
)
def test_nakade_point_is_none_for_other_spaces(diagram):
    board = Board.from_ascii(diagram)
    assert nakade(board, 0, 0) == NO_POINT
    assert nakade(board, 4, 4) == NO_POINT  # the open board


def test_nakade_point_on_an_empty_board_is_none():
    board = Board(9)
    assert all(kt.nakade_point(board.pts, board.meta, p, np.int64(6)) == NO_POINT for p in board.points())


def slow_ladder(board, p, c):
    """The ladder reader as first written (before its shortcuts: two scratch boards used in
    turn, the attacking stone's atari seen before a copy, three free neighbours of the extension
    ending a line at once): the attacker tries both liberties in order on fresh copies."""
    work, wmeta = board.pts.copy(), board.meta.copy()
    o = 3 - c
    kb.place(work, wmeta, ZOBRIST, p, c)
    for _ in range(kt.MAX_LADDER_STEPS):
        n, a, b, _ = kt.chain_liberties(work, wmeta, work[kb.CHAIN, p], 3)
        if n >= 3:
            return False
        if n <= 1:
            return True
        followed = False
        for attack, extend in ((a, b), (b, a)):
            if not kb.is_legal(work, wmeta, attack, o):
                continue
            trial, tmeta = work.copy(), wmeta.copy()
            kb.place(trial, tmeta, ZOBRIST, attack, o)
            if kb.in_atari(trial, trial[kb.CHAIN, attack]):
                continue
            root = trial[kb.CHAIN, p]
            if kt.touches_chain_in_atari(trial, tmeta[kb.W], root, 3 - trial[kb.COLOR, root]):
                continue
            if not kb.is_legal(trial, tmeta, extend, c):
                return True
            kb.place(trial, tmeta, ZOBRIST, extend, c)
            m = kt.chain_liberties(trial, tmeta, trial[kb.CHAIN, p], 3)[0]
            if m <= 1:
                return True
            if m == 2:
                work, wmeta = trial, tmeta
                followed = True
                break
        if not followed:
            return False
    return False


def test_the_ladder_shortcuts_change_no_verdict_on_random_positions():
    # every escape to exactly two liberties on random 9x9 and 19x19 positions, both colours
    verdicts = []
    for size, seed, moves in [(9, s, 30 + 8 * s) for s in range(8)] + [(19, s, 150 + 60 * s) for s in range(4)]:
        board, _ = random_position(size, 400 + seed, moves)
        for p in board.pts[kb.EMPTIES, : board.meta[kb.N_EMPTY]].tolist():
            for c in (BLACK, WHITE):
                n, _size, captured = kt.liberties_after(board.pts, board.meta, p, c, 3)
                if n != 2 or captured > 0 or not kb.is_legal(board.pts, board.meta, p, c):
                    continue
                caught = slow_ladder(board, p, c)
                verdicts.append(caught)
                assert bool(kt.ladder_captures(board.pts, board.meta, ZOBRIST, p, c)) == caught, (size, seed, p, c)
                assert bool(kt.escape_works(board.pts, board.meta, ZOBRIST, p, c, True)) == (not caught)
    assert len(verdicts) > 200 and 20 < sum(verdicts) < len(verdicts) - 20, (len(verdicts), sum(verdicts))
