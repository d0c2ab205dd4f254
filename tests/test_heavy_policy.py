"""The ``heavy`` playout policy (``goengine.kernels.policy.heavy_move`` and its rules): each rule on
a position with one right answer, the probabilities of the rules, and whole heavy playouts
checked move by move against the slow rules of ``tests/naive.py``.

Reading guide: ``heavy_params`` switches every rule off (probability 0) but the ones named;
``draw_moves`` asks ``heavy_move`` for many moves of one position. Positions are ASCII diagrams
(``X`` black, ``O`` white, ``.`` empty, row 0 at the top, points written ``(row, col)``); the
last move is played with ``Board.play`` so that ``meta[LAST_MOVE]`` is right.
"""

import math
from collections import Counter

import naive
import numpy as np
import pytest
from helpers import NO_MEMORY, NO_REPLIES, TABLES, grid_of, random_position

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, ZOBRIST, Board
from goengine.kernels import board as kb
from goengine.kernels import playout as kp
from goengine.kernels import policy as kpolicy
from goengine.kernels import tactics
from goengine.kernels.rng import new_state
from goengine.mogo3x3 import MOGO_PATTERNS, matches_naive, table
from goengine.policies import POLICIES

PATTERNS = table()
HEAVY = np.int64(kpolicy.HEAVY)

ALL_OFF = {
    "capture": 0,
    "escape": 0,
    "pattern": 0,
    "nakade": 0,
    "capture_any": 0,
    "self_atari": 0,
    "self_atari_stones": 1,
    "ladders": 1,
    "self_atari_redirect": 0,
}


def heavy_params(**on):
    """The heavy policy's parameter array with every rule off except those given."""
    return POLICIES.array("heavy", {**ALL_OFF, **on})


def position(diagram, last=None, last_color=None):
    """A Board from ``diagram``, then ``last_color`` plays ``last`` (row, col): the last move."""
    board = Board.from_ascii(diagram)
    if last is not None:
        board.play(last_color, coords.point(board.size, *last))
    return board


def draw_moves(board, params, n, seed=1):
    """``n`` moves of ``heavy_move`` for the side to move in ``board``, as (row, col) or None."""
    pts, meta = board.pts.copy(), board.meta.copy()
    rng = new_state(seed)
    c = np.int64(board.to_move)
    moves = Counter()
    for _ in range(n):
        p = int(kpolicy.heavy_move(params, PATTERNS, NO_REPLIES, pts, meta, ZOBRIST, c, rng))
        moves[None if p == PASS else coords.row_col(board.size, p)] += 1
    np.testing.assert_array_equal(pts[kb.COLOR], board.pts[kb.COLOR])  # nothing was played
    return moves


def playable(board, color):
    """naive's playable points (legal, simple ko, not the mover's eye)."""
    grid = naive.from_diagram(str(board))
    ko = None
    if board.ko_point is not None and board.ko_color == color:
        ko = coords.row_col(board.size, board.ko_point)
    return {q for q in naive.legal_points(grid, color, ko) if not naive.is_eye(grid, color, *q)}


# ---- rule 1: capture next to the last move

# White's (1, 3) is the last move; White's (2, 2) next to it is in atari at (3, 2). White's
# (5, 5), in atari at (5, 6), is far from the last move.
CAPTURE = """
. . . . . . .
. . X . . . .
. X O X . . .
. . . . . . .
. . . . . X .
. . . . X O .
. . . . . X .
"""


def test_capture_takes_the_chain_in_atari_next_to_the_last_move():
    board = position(CAPTURE, (1, 3), WHITE)
    assert board.to_move == BLACK
    assert draw_moves(board, heavy_params(capture=1), 200) == {(3, 2): 200}
    # without the rule, a random move: the capture is one of many
    assert draw_moves(board, heavy_params(), 200)[(3, 2)] < 50


def test_local_capture_ignores_chains_in_atari_away_from_the_last_move():
    board = position(CAPTURE, (1, 3), WHITE)
    board.play(BLACK, "A1")
    board.play(WHITE, coords.point(7, 0, 6))  # far from both white chains in atari
    board.play(BLACK, "B1")
    board.play(WHITE, coords.point(7, 0, 5))
    pts, meta = board.pts, board.meta
    last = meta[kb.LAST_MOVE]
    assert kpolicy.local_capture(pts, meta, np.int64(BLACK), new_state(1), last) == PASS
    # capture anywhere finds both
    moves = draw_moves(board, heavy_params(capture=1, capture_any=1), 400)
    assert set(moves) == {(3, 2), (5, 6)} and min(moves.values()) > 20


def test_capture_of_the_last_move_stone_comes_before_the_atari_escape():
    # White's last move (3, 3) ataris Black's (2, 3) and is itself in atari at (4, 3). Black may
    # capture it (rule 1, and a counter-capture of rule 2) or extend to (2, 4) (rule 2).
    diagram = """
    . . . . . . .
    . . . O . . .
    . . O X . . .
    . . X . X . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """
    board = position(diagram, (3, 3), WHITE)
    assert draw_moves(board, heavy_params(capture=1, escape=1), 200) == {(4, 3): 200}
    escapes = draw_moves(board, heavy_params(escape=1), 400)
    assert set(escapes) == {(4, 3), (2, 4)} and min(escapes.values()) > 120


# ---- rule 2: atari escape


def test_escape_extends_the_chain_the_last_move_put_in_atari():
    diagram = """
    . . . . . . .
    . . . O . . .
    . . O X . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    """
    board = position(diagram, (3, 3), WHITE)
    assert draw_moves(board, heavy_params(escape=1), 200) == {(2, 4): 200}
    assert draw_moves(board, heavy_params(escape=1, ladders=0), 50) == {(2, 4): 50}


def ladder(size=9, breaker=None):
    """Black (4, 4), White around it; White's last move (3, 4) ataris it; extending to (4, 5)
    leaves two liberties and runs into a ladder to the bottom-right corner, unless ``breaker``
    (a black stone) is on its path."""
    rows = [["."] * size for _ in range(size)]
    rows[4][4] = "X"
    for r, c in ((4, 3), (5, 4), (3, 5)):
        rows[r][c] = "O"
    if breaker:
        rows[breaker[0]][breaker[1]] = "X"
    return position("\n".join(" ".join(row) for row in rows), (3, 4), WHITE)


def test_escape_does_not_run_into_a_working_ladder():
    board = ladder()
    pts, meta = board.pts, board.meta
    last = meta[kb.LAST_MOVE]
    black = np.int64(BLACK)
    assert kpolicy.atari_escape(pts, meta, ZOBRIST, black, new_state(1), last, True) == PASS
    assert kpolicy.atari_escape(pts, meta, ZOBRIST, black, new_state(1), last, False) == coords.point(9, 4, 5)
    # the heavy move: with ladders read, the escape rule offers nothing and a random move follows
    n = 400
    moves = draw_moves(board, heavy_params(escape=1, ladders=1), n)
    k = len(playable(board, BLACK))
    assert moves[(4, 5)] < n / k + 4 * math.sqrt(n / k) and len(moves) > 30
    assert draw_moves(board, heavy_params(escape=1, ladders=0), 100) == {(4, 5): 100}


def test_escape_runs_when_a_ladder_breaker_is_on_the_path():
    board = ladder(breaker=(7, 7))
    assert draw_moves(board, heavy_params(escape=1, ladders=1), 100) == {(4, 5): 100}


# Black's (2, 2) (2, 3) are in atari after White's (3, 2); extending to (3, 3) is suicide, but
# White's (2, 1), next to them, is in atari at (3, 1): the counter-capture.
COUNTER_CAPTURE = """
. . . . . . .
. X O O . . .
X O X X O . .
. . . . O . .
. . . O . . .
. . . . . . .
. . . . . . .
"""


def test_escape_counter_captures_a_chain_in_atari_next_to_ours():
    board = position(COUNTER_CAPTURE, (3, 2), WHITE)
    assert (2, 2) in {coords.row_col(7, p) for p in board.chain(coords.point(7, 2, 3))}
    assert len(board.liberties(coords.point(7, 2, 3))) == 1
    assert draw_moves(board, heavy_params(escape=1), 200) == {(3, 1): 200}


# ---- rule 3: patterns

# White's last move (6, 4): of its empty neighbours, (6, 3) is the edge block side cut
# ("OX? / X*O / ###"), (6, 5) matches nothing.
PATTERN = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . O X O O .
. . X . . . .
"""


def neighbours_of(grid, r, c):
    n = len(grid)
    return {
        (dr, dc): grid[r + dr][c + dc] if 0 <= r + dr < n and 0 <= c + dc < n else kb.BORDER
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    }


# White's E5 (the last move) and E6 have two liberties, E4 and E7: Black's atari on either
# leaves Black's stone three liberties, a safe atari.
WHITE_TWO_LIBERTIES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X O X . . .
    . . . X . X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# White's F5 (the last move) leaves Black's D5 E5 with two liberties, D6 and E6: an extension
# on either gives them three.
BLACK_TWO_LIBERTIES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . O X X . . . .
    . . . O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


@pytest.mark.parametrize(
    ("diagram", "last", "answers"),
    [
        (WHITE_TWO_LIBERTIES, (4, 4), {(2, 4), (5, 4)}),  # E5 played: ataris at E7 and E4
        (BLACK_TWO_LIBERTIES, (4, 5), {(3, 3), (3, 4)}),  # F5 played: extensions at D6 and E6
    ],
    ids=["safe-atari", "extension"],
)
def test_two_liberty_fights_answer_the_last_move_with_a_safe_atari_or_an_extension(diagram, last, answers):
    board = position(diagram, last, WHITE)
    assert set(draw_moves(board, heavy_params(two_libs=1), 300)) == answers
    assert POLICIES.array("heavy")[kpolicy.HEAVY_TWO_LIBS] == 0.0  # off unless asked for


# White's E5 (the last move) has two liberties, E4 and E6, and is safe by miai: on E6 it joins
# White's E7 F7 (four liberties), on E4 it runs out to D4 and F4.
WHITE_MIAI = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . O O . . .
    . . . X . X . . .
    . . . X . X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
# White's F5 (the last move) leaves Black's D5 E5 two liberties, D6 and E6, as in
# BLACK_TWO_LIBERTIES; White's D4 E4 next to them have two liberties too, C4 and F4, between
# Black's D3 E3: a Black atari on either is safe (two liberties for the stone).
BLACK_COUNTER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . O X X . . . .
    . . . O O . . . .
    . . . X X . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def two_libs_kernel(board, miai, counter, n=200, seed=1):
    """The moves rule 2b alone (``two_liberty_move``) offers the side to move, over ``n`` draws,
    as (row, col) or None for PASS."""
    pts, meta, rng = board.pts, board.meta, new_state(seed)
    c, last = np.int64(board.to_move), np.int64(meta[kb.LAST_MOVE])
    found = set()
    for _ in range(n):
        p = int(kpolicy.two_liberty_move(pts, meta, c, rng, last, miai, counter))
        found.add(None if p == PASS else coords.row_col(board.size, p))
    return found


def test_with_miai_a_chain_that_connects_on_one_liberty_and_runs_out_on_the_other_is_left_alone():
    board = position(WHITE_MIAI, (4, 4), WHITE)
    pts, meta = board.pts, board.meta
    e5, e4, e6 = (coords.point(9, *q) for q in ((4, 4), (5, 4), (3, 4)))
    root = np.int64(pts[kb.CHAIN, e5])
    assert kpolicy.two_liberty_miai(pts, meta, root, np.int64(WHITE), np.int64(e4), np.int64(e6))
    assert kpolicy.two_liberty_miai(pts, meta, root, np.int64(WHITE), np.int64(e6), np.int64(e4))
    # without miai Black ataris on either liberty; with it, rule 2b offers nothing
    assert two_libs_kernel(board, False, False) == {(3, 4), (5, 4)}
    assert two_libs_kernel(board, True, False) == {None}
    assert set(draw_moves(board, heavy_params(two_libs=1), 200)) == {(3, 4), (5, 4)}
    # WHITE_TWO_LIBERTIES' E5 E6 can run out on both liberties but connect on neither: no miai
    # (two ways out can both be blocked; Pachi's miai_2lib asks for a connection too)
    board = position(WHITE_TWO_LIBERTIES, (4, 4), WHITE)
    assert two_libs_kernel(board, True, False) == {(2, 4), (5, 4)}


def test_with_counter_our_chain_of_two_liberties_is_also_defended_by_an_atari_on_its_neighbour():
    board = position(BLACK_COUNTER, (4, 5), WHITE)
    assert two_libs_kernel(board, False, False) == {(3, 3), (3, 4)}  # the extensions
    assert two_libs_kernel(board, False, True) == {(3, 3), (3, 4), (5, 2), (5, 5)}  # and the ataris on D4 E4
    assert set(draw_moves(board, heavy_params(two_libs=1, two_libs_counter=1), 300)) == {
        (3, 3),
        (3, 4),
        (5, 2),
        (5, 5),
    }
    assert POLICIES.array("heavy")[kpolicy.HEAVY_TWO_LIBS_COUNTER] == 0.0  # off unless asked for
    assert POLICIES.array("heavy")[kpolicy.HEAVY_TWO_LIBS_MIAI] == 0.0


def naive_two_liberty_candidates(grid, board, color, last, miai, counter):
    """Rule 2b's candidates from naive, as its docstring states them: for each chain at or next
    to ``last`` with two liberties (skipped with ``miai`` when it connects, to a chain of its
    colour with two liberties or more, on one liberty and connects or has another empty
    neighbour on the other), the opponent's: each liberty where our stone keeps two liberties;
    ours: each liberty that gives three, and with ``counter`` the liberty of an opponent chain
    in atari next to it, if legal, and the safe ataris on one with two liberties."""
    size = len(grid)
    ko = None
    if board.ko_point is not None and board.ko_color == color:
        ko = coords.row_col(size, board.ko_point)

    def playable(q):
        return naive.illegal_reason(grid, color, *q, ko) is None and not naive.is_eye(grid, color, *q)

    def libs_after(q):
        after, _captured = naive.play(grid, color, *q)
        return len(naive.liberties(after, *q))

    def connects(lib, colour, stones):
        return any(
            grid[r][c] == colour and (r, c) not in stones and len(naive.liberties(grid, r, c)) >= 2
            for r, c in naive.neighbours(grid, *lib)
        )

    def pulls_out(lib, other):
        return any(grid[r][c] == kb.EMPTY and (r, c) != other for r, c in naive.neighbours(grid, *lib))

    def safe_ataris(libs):
        return {q for q in libs if playable(q) and libs_after(q) >= 2}

    out = set()
    seen = set()
    for q in [last, *naive.neighbours(grid, *last)]:
        colour = grid[q[0]][q[1]]
        if colour not in (BLACK, WHITE) or q in seen:
            continue
        stones = naive.chain(grid, *q)
        seen |= stones
        libs = naive.liberties(grid, *q)
        if len(libs) != 2:
            continue
        l0, l1 = sorted(libs)
        if miai:
            c0, c1 = connects(l0, colour, stones), connects(l1, colour, stones)
            if (c0 and (c1 or pulls_out(l1, l0))) or (c1 and pulls_out(l0, l1)):
                continue
        if colour != color:
            out |= safe_ataris(libs)
            continue
        out |= {x for x in libs if playable(x) and libs_after(x) >= 3}
        if counter:
            out |= naive_counter_ataris(grid, color, stones, ko, safe_ataris)
    return out


def naive_counter_ataris(grid, color, stones, ko, safe_ataris):
    """The counter-ataris of ``color``'s chain ``stones``: the liberty of each opponent chain in
    atari next to it (if legal), the safe ataris on each with two liberties."""
    out = set()
    for s in stones:
        for r, c in naive.neighbours(grid, *s):
            if grid[r][c] != 3 - color:
                continue
            libs = naive.liberties(grid, r, c)
            if len(libs) == 1:
                (lib,) = libs
                if naive.illegal_reason(grid, color, *lib, ko) is None:
                    out.add(lib)
            elif len(libs) == 2:
                out |= safe_ataris(libs)
    return out


@pytest.mark.parametrize(("miai", "counter"), [(False, False), (True, False), (False, True), (True, True)])
def test_two_liberty_fights_offer_exactly_the_naive_candidates_on_random_positions(miai, counter):
    """On random 9x9 positions, with every stone in turn as the last move: the moves rule 2b
    offers over many draws are exactly the naive candidates (PASS only when there are none)."""
    offered = 0
    for board, grid, rng, meta, rc, color in each_stone_as_last_move(range(900, 904), lambda k: 40 + 10 * k):
        last = int(meta[kb.LAST_MOVE])
        want = naive_two_liberty_candidates(grid, board, color, rc, miai, counter)
        got = set()
        for _ in range(60 if want else 3):
            p = int(kpolicy.two_liberty_move(board.pts, meta, np.int64(color), rng, last, miai, counter))
            got.add(None if p == PASS else coords.row_col(9, p))
        assert got == (want or {None}), (rc, color, miai, counter, str(board))
        offered += bool(want)
    assert offered > 20


def test_pattern_move_plays_the_one_pattern_next_to_the_last_move():
    board = position(PATTERN, (6, 4), WHITE)
    grid = naive.from_diagram(str(board))
    around = [(6 + dr, 4 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    empty = [q for q in around if 0 <= q[0] < 7 and 0 <= q[1] < 7 and grid[q[0]][q[1]] == kb.EMPTY]
    matching = [q for q in empty if any(matches_naive(d, neighbours_of(grid, *q)) for d in MOGO_PATTERNS.values())]
    assert sorted(empty) == [(6, 3), (6, 5)] and matching == [(6, 3)]
    assert draw_moves(board, heavy_params(pattern=1), 200) == {(6, 3): 200}
    # the same for White when Black played last, colours swapped
    swapped = PATTERN.replace("X", "x").replace("O", "X").replace("x", "O")
    board = position(swapped, (6, 4), BLACK)
    assert draw_moves(board, heavy_params(pattern=1), 100) == {(6, 3): 100}


def test_with_pattern_second_the_patterns_next_to_the_second_last_move_are_played_too():
    board = position(PATTERN, (6, 4), WHITE)  # White's move makes the pattern at (6, 3)
    board.play(BLACK, coords.point(7, 0, 0))  # then Black plays alone in the empty corner
    pts, meta, rng = board.pts, board.meta, new_state(3)
    last, second = np.int64(meta[kb.LAST_MOVE]), np.int64(meta[kb.LAST_MOVE2])
    assert second == coords.point(7, 6, 4)
    assert kpolicy.pattern_move(pts, meta, PATTERNS, np.int64(WHITE), rng, last, np.int64(PASS), 1.0) == PASS
    found = {kpolicy.pattern_move(pts, meta, PATTERNS, np.int64(WHITE), rng, last, second, 1.0) for _ in range(50)}
    assert found == {coords.point(7, 6, 3)}
    assert draw_moves(board, heavy_params(pattern=1, pattern_second=1), 100) == {(6, 3): 100}
    assert POLICIES.array("heavy")[kpolicy.HEAVY_PATTERN_SECOND] == 0.0  # off unless asked for


def each_stone_as_last_move(seeds, moves_of):
    """For each seed ``k`` of ``seeds``, a random 9x9 position after ``moves_of(k - seeds[0])``
    uniform moves, and each of its stones in turn as the last move: yields ``(board, grid, rng,
    meta, (row, col), color)``, ``meta`` a copy with that last move, ``color`` the side answering
    it, ``rng`` one random stream a position."""
    for k in seeds:
        board, _ = random_position(9, k, moves_of(k - seeds[0]))
        grid = naive.from_diagram(str(board))
        rng = new_state(k - seeds[0])
        for r in range(9):
            for c in range(9):
                if grid[r][c] == kb.EMPTY:
                    continue
                meta = board.meta.copy()
                meta[kb.LAST_MOVE] = coords.point(9, r, c)
                yield board, grid, rng, meta, (r, c), 3 - grid[r][c]


def valid_candidates(grid, board, color, last, rule):
    """What a rule may offer for ``color`` around the last move ``last`` (row, col), from naive:
    ``"pattern"``: the empty eight neighbours matching a pattern, playable and (the kernel's
    ``is_bad_self_atari``, tested in test_tactics) no bad self-atari; ``"capture"``: the
    liberties of opponent chains in atari at ``last`` or its eight neighbours, if legal."""
    size = len(grid)
    ko = None
    if board.ko_point is not None and board.ko_color == color:
        ko = coords.row_col(size, board.ko_point)
    around = [(last[0] + dr, last[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    around = [q for q in around if 0 <= q[0] < size and 0 <= q[1] < size]
    out = set()
    for q in around:
        colour = grid[q[0]][q[1]]
        if rule == "pattern" and q != last and colour == kb.EMPTY:
            if not any(matches_naive(d, neighbours_of(grid, *q)) for d in MOGO_PATTERNS.values()):
                continue
            if naive.illegal_reason(grid, color, *q, ko) is not None or naive.is_eye(grid, color, *q):
                continue
            p = coords.point(size, *q)
            if not kpolicy.is_bad_self_atari(board.pts, board.meta, p, np.int64(color), 1.0):
                out.add(q)
        elif rule == "capture" and colour == 3 - color:
            libs = naive.liberties(grid, *q)
            if len(libs) == 1 and naive.illegal_reason(grid, color, *next(iter(libs)), ko) is None:
                out |= libs
    return out


@pytest.mark.parametrize("rule", ["pattern", "capture"])
def test_pattern_and_capture_rules_offer_exactly_their_candidates_on_random_positions(rule):
    """On random positions, with every stone in turn as the last move: the rule's move is one of
    the candidates, and PASS only when there is none; pattern moves are never bad self-ataris."""
    offered = excluded = 0
    for board, grid, rng, meta, (r, c), color in each_stone_as_last_move(range(800, 806), lambda k: 30 + 8 * k):
        last = int(meta[kb.LAST_MOVE])
        want = valid_candidates(grid, board, color, (r, c), rule)
        for _ in range(4):
            if rule == "pattern":
                p = kpolicy.pattern_move(board.pts, meta, PATTERNS, np.int64(color), rng, last, PASS, 1.0)
            else:
                p = kpolicy.local_capture(board.pts, meta, np.int64(color), rng, last)
            if not want:
                assert p == PASS, ((r, c), color, board)
                continue
            assert p != PASS and coords.row_col(9, p) in want, ((r, c), color, board)
        offered += bool(want)
        if rule == "pattern":
            # matching, playable points refused as bad self-ataris
            for q in naive.empty_points(grid):
                near = max(abs(q[0] - r), abs(q[1] - c)) == 1
                excluded += (
                    near
                    and q not in want
                    and any(matches_naive(d, neighbours_of(grid, *q)) for d in MOGO_PATTERNS.values())
                    and naive.is_legal(grid, color, *q)
                    and not naive.is_eye(grid, color, *q)
                )
    assert offered > 20
    if rule == "pattern":
        assert excluded > 0


# ---- rule 4: nakade

# White's last move (0, 3) closes a straight three (0, 0) (0, 1) (0, 2) on the edge
NAKADE = """
. . . . . . .
O O O O . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_nakade_plays_the_vital_point_of_the_eye_space_next_to_the_last_move():
    board = position(NAKADE, (0, 3), WHITE)
    assert draw_moves(board, heavy_params(nakade=1), 200) == {(0, 1): 200}
    # the owner plays it as well (to make the eyes): White to move after Black closed the space
    board = position(NAKADE.replace("O", "X"), (0, 3), BLACK)
    assert draw_moves(board, heavy_params(nakade=1), 100) == {(0, 1): 100}
    # a space that is not next to the last move is not looked at
    board = position(". . . O . . .\n" + NAKADE.strip().split("\n", 1)[1], (6, 6), WHITE)
    assert naive.flood(naive.from_diagram(str(board)), 0, 0) == {(0, 0), (0, 1), (0, 2)}
    assert kpolicy.nakade_move(board.pts, board.meta, np.int64(BLACK), board.meta[kb.LAST_MOVE], np.int64(3)) == PASS


#: the eye spaces one move decides, each with its vital point (row, col), as every Go book draws
#: them; every other shape of three to six points has none (two eyes either way, or one)
KILLING_SHAPES = {
    "straight three": ({(0, 0), (0, 1), (0, 2)}, (0, 1)),
    "bent three": ({(0, 0), (0, 1), (1, 1)}, (0, 1)),
    "pyramid four": ({(0, 0), (0, 1), (0, 2), (1, 1)}, (0, 1)),
    "crossed five": ({(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)}, (1, 1)),
    "bulky five": ({(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)}, (1, 0)),
    "rabbity six": ({(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)}, (1, 1)),
}


def normalised(cells):
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def symmetries(cells, vital):
    """The eight rotations and reflections of a shape with its vital point, each normalised."""
    out = []
    for flip in (False, True):
        for turns in range(4):

            def move(rc, flip=flip, turns=turns):
                r, c = rc
                if flip:
                    r, c = c, r
                for _ in range(turns):
                    r, c = c, -r
                return r, c

            moved = [move(rc) for rc in cells]
            top, left = min(r for r, _ in moved), min(c for _, c in moved)
            out.append((normalised(moved), (move(vital)[0] - top, move(vital)[1] - left)))
    return out


def polyominoes(n):
    """Every shape of ``n`` orthogonally connected points, up to translation (grown point by point)."""
    shapes = {frozenset({(0, 0)})}
    for _ in range(n - 1):
        shapes = {
            normalised(shape | {(r + dr, c + dc)})
            for shape in shapes
            for r, c in shape
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if (r + dr, c + dc) not in shape
        }
    return shapes


def eye_space(cells, owner="X", offset=1):
    """A 9x9 board filled with ``owner``'s stones but for the empty ``cells`` (shifted by ``offset``)."""
    rows = [[owner] * 9 for _ in range(9)]
    for r, c in cells:
        rows[r + offset][c + offset] = "."
    return Board.from_ascii("\n".join(" ".join(row) for row in rows))


def test_the_shapes_are_the_polyominoes_and_the_killing_ones_are_among_them():
    assert [len(polyominoes(n)) for n in (3, 4, 5, 6)] == [6, 19, 63, 216]  # the fixed polyominoes
    for cells, _ in KILLING_SHAPES.values():
        assert normalised(cells) in polyominoes(len(cells))


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_nakade_point_finds_the_vital_point_of_exactly_the_killing_shapes(size):
    """Every shape of ``size`` points, in every orientation, surrounded by one colour: the vital
    point of the killing shapes above and of no other; from every point of the space; and none
    when the shape is larger than ``max_size`` allows."""
    vital = {}
    for cells, point in KILLING_SHAPES.values():
        if len(cells) == size:
            vital.update(symmetries(cells, point))
    for shape in polyominoes(size):
        board = eye_space(shape)
        expected = vital.get(shape)
        for r, c in shape:
            q = np.int64(coords.point(9, r + 1, c + 1))
            found = tactics.nakade_point(board.pts, board.meta, q, np.int64(6))
            want = kb.NO_POINT if expected is None else coords.point(9, expected[0] + 1, expected[1] + 1)
            assert found == want, (sorted(shape), (r, c))
            smaller = tactics.nakade_point(board.pts, board.meta, q, np.int64(size - 1))
            assert smaller == kb.NO_POINT


def test_an_eye_space_with_both_colours_around_it_or_of_two_points_has_no_vital_point():
    cells, _ = KILLING_SHAPES["rabbity six"]
    board = eye_space(cells)
    board.pts[kb.COLOR, coords.point(9, 0, 0)] = WHITE  # a stone of the other colour, far away: still one owner
    q = np.int64(coords.point(9, 2, 2))
    assert tactics.nakade_point(board.pts, board.meta, q, np.int64(6)) == coords.point(9, 2, 2)
    mixed = Board.from_ascii(str(eye_space(cells)).replace("X", "O", 9))  # the top row White, touching the space
    assert tactics.nakade_point(mixed.pts, mixed.meta, q, np.int64(6)) == kb.NO_POINT
    two = eye_space({(0, 0), (0, 1)})
    assert tactics.nakade_point(two.pts, two.meta, np.int64(coords.point(9, 1, 1)), np.int64(6)) == kb.NO_POINT


# White's last move (0, 2) closes a rabbity six in the corner: (0, 1), (1, 0) to (1, 2), (2, 1), (2, 2)
RABBITY = """
O . . O . . . . .
. . . O . . . . .
O . . O . . . . .
O O O O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_with_nakade_size_6_the_rule_plays_the_vital_point_of_a_rabbity_six_and_by_default_not():
    board = position(RABBITY, (0, 2), WHITE)
    assert draw_moves(board, heavy_params(nakade=1, nakade_size=6), 100) == {(1, 1): 100}
    assert draw_moves(board, heavy_params(nakade=1, nakade_size=5), 100).get((1, 1), 0) < 50
    assert draw_moves(board, heavy_params(nakade=1), 100).get((1, 1), 0) < 50  # the default: threes only


# ---- rule 0b: retaking a ko

# Black at (1, 2) takes the White stone at (1, 1): a ko, White banned from retaking at once
KO_SHAPE = """
. X O . . . .
X O . O . . .
. X O . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def ko_fight(*moves):
    """KO_SHAPE after Black takes the ko, then ``moves`` ((colour, (row, col)) each)."""
    board = position(KO_SHAPE, (1, 2), BLACK)
    for color, rc in moves:
        board.play(color, coords.point(board.size, *rc))
    return board


def retake(board):
    color = np.int64(board.to_move)
    m = int(kpolicy.ko_retake(board.pts, board.meta, color))
    return None if m == PASS else coords.row_col(board.size, m)


def test_the_board_keeps_the_last_ko_after_its_ban_lapses():
    board = ko_fight()
    ko = coords.point(7, 1, 1)
    assert (board.meta[kb.KO], board.meta[kb.KO_COLOR], board.meta[kb.LAST_KO]) == (ko, WHITE, ko)
    assert board.meta[kb.MOVES] - board.meta[kb.LAST_KO_MOVE] == 1
    board.play(WHITE, coords.point(7, 5, 5))
    assert (board.meta[kb.KO], board.meta[kb.KO_COLOR], board.meta[kb.LAST_KO]) == (kb.NO_POINT, WHITE, ko)
    assert Board(7).meta[kb.LAST_KO] == kb.NO_POINT


def test_ko_retake_retakes_a_ko_lost_lately_once_its_ban_has_lapsed():
    assert retake(ko_fight()) is None  # still banned
    threat_and_answer = ((WHITE, (5, 5)), (BLACK, (5, 4)))
    assert retake(ko_fight(*threat_and_answer)) == (1, 1)
    board = ko_fight(*threat_and_answer)
    assert draw_moves(board, heavy_params(ko_retake=1), 50) == {(1, 1): 50}
    assert draw_moves(board, heavy_params(), 50).get((1, 1), 0) < 50  # off by default
    # Black filled the ko instead of answering: nothing to retake
    assert retake(ko_fight((WHITE, (5, 5)), (BLACK, (1, 1)))) is None
    # too old: two more exchanges after the threat (5 moves since the capture, KO_AGE 4)
    old = threat_and_answer + ((WHITE, (6, 6)), (BLACK, (6, 5)))
    assert kpolicy.KO_AGE == 4 and retake(ko_fight(*old)) is None
    # the winner of the ko has nothing to retake
    assert retake(ko_fight((WHITE, (5, 5)))) is None


# ---- rule 6: the random move avoiding self-atari

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


def test_random_move_refuses_the_self_atari_of_a_five_stone_chain():
    board = position(FIVE_STONE_SELF_ATARI)
    assert board.last_moves == (PASS, PASS)
    n = 3000
    assert draw_moves(board, heavy_params(self_atari=1), n)[(2, 5)] == 0
    # the check can fail: without the rejection the point is drawn like any other
    k = len(playable(board, BLACK))
    assert draw_moves(board, heavy_params(self_atari=0), n)[(2, 5)] > n / k - 4 * math.sqrt(n / k)


def test_random_move_refuses_a_two_stone_self_atari_but_not_with_max_stones_two():
    diagram = """
    . . . . . . .
    . . . . . . .
    . . . O O . .
    . . O X . O .
    . . . O . . .
    . . . . . . .
    . . . . . . .
    """
    board = position(diagram)
    n = 3000
    assert draw_moves(board, heavy_params(self_atari=1, self_atari_stones=1), n)[(3, 4)] == 0
    k = len(playable(board, BLACK))
    got = draw_moves(board, heavy_params(self_atari=1, self_atari_stones=2), n)[(3, 4)]
    assert got > n / k - 4 * math.sqrt(n / k)


# Black's (3, 3) would leave Black's (3, 1) (3, 2) in atari at (3, 0) and capture nothing: a bad
# self-atari. Next to it, White's lone (3, 4) has two liberties, (3, 3) and (3, 5), and so has
# Black's chain, (3, 3) and (3, 0).
SELF_ATARI_BESIDE_TWO_CHAINS = """
. . . . . . .
. . . . . . .
. O O O X . .
. X X . O . .
. O O O X . .
. . . . . . .
. . . . . . .
"""


def cousin(board, p, seed=1):
    """``self_atari_cousin`` for Black's bad self-atari at ``p`` (row, col), as (row, col) or None."""
    rng = new_state(seed)
    q = coords.point(board.size, *p)
    m = kpolicy.self_atari_cousin(board.pts, board.meta, np.int64(q), np.int64(BLACK), rng, 1.0)
    return None if m == PASS else coords.row_col(board.size, m)


def test_a_self_atari_is_redirected_to_the_opponents_other_liberty_before_our_own():
    board = position(SELF_ATARI_BESIDE_TWO_CHAINS)
    assert kpolicy.is_bad_self_atari(board.pts, board.meta, np.int64(coords.point(7, 3, 3)), np.int64(BLACK), 1.0)
    # White's outside liberty, never Black's own (3, 0), whatever the draw
    assert {cousin(board, (3, 3), seed) for seed in range(1, 40)} == {(3, 5)}


def test_a_self_atari_is_redirected_to_our_chains_other_liberty_when_that_is_safe():
    board = position(FIVE_STONE_SELF_ATARI)
    assert cousin(board, (2, 5)) == (1, 4)  # the five stones extend to two liberties instead
    blocked = position(FIVE_STONE_SELF_ATARI.replace("\n. . . . . . . . .\n", "\n. . . . O . . . .\n", 1))
    assert cousin(blocked, (2, 5)) is None  # (1, 4) would be a bad self-atari too: no move


def test_a_rejected_self_atari_is_played_on_its_cousin_only_with_redirect():
    board = position(FIVE_STONE_SELF_ATARI)
    n = 4000
    k = len(playable(board, BLACK))
    plain = draw_moves(board, heavy_params(self_atari=1), n)
    redirected = draw_moves(board, heavy_params(self_atari=1, self_atari_redirect=1), n)
    assert plain[(2, 5)] == redirected[(2, 5)] == 0
    # (1, 4) is drawn for itself, and with redirect also whenever (2, 5) is drawn: twice as often
    expected = n / (k - 1)
    assert abs(plain[(1, 4)] - expected) < 4 * math.sqrt(expected)
    assert abs(redirected[(1, 4)] - 2 * expected) < 4 * math.sqrt(2 * expected)
    assert POLICIES.array("heavy")[kpolicy.HEAVY_SELF_ATARI_REDIRECT] == 0.0  # off unless asked for


# ---- probabilities


@pytest.mark.parametrize(
    ("rule", "diagram", "last", "answer"),
    [
        ("capture", CAPTURE, (1, 3), (3, 2)),
        ("pattern", PATTERN, (6, 4), (6, 3)),
        ("nakade", NAKADE, (0, 3), (0, 1)),
    ],
    ids=["capture", "pattern", "nakade"],
)
def test_a_rule_of_probability_one_half_fires_half_the_time(rule, diagram, last, answer):
    board = position(diagram, last, WHITE)
    n = 2000
    k = len(playable(board, BLACK))
    # the rule plays the answer half the time; the uniform random move otherwise, 1/k of it
    p = 0.5 + 0.5 / k
    got = draw_moves(board, heavy_params(**{rule: 0.5}), n, seed=7)[answer]
    assert abs(got - n * p) < 4 * math.sqrt(n * p * (1 - p)), (got, n * p)


# ---- heavy playouts against naive


PARAM_SETS = {
    "defaults": POLICIES.array("heavy"),
    "every rule always": POLICIES.array(
        "heavy",
        {"capture": 1, "escape": 1, "pattern": 1, "nakade": 1, "capture_any": 1, "self_atari": 1},
    ),
    "half": POLICIES.array(
        "heavy",
        {"capture": 0.5, "escape": 0.5, "pattern": 0.5, "nakade": 0.5, "capture_any": 0.5, "self_atari": 0.5},
    ),
}

# size, playouts (one a seed), moves of the random start position
PLAYOUT_STARTS = [(5, 30, 4), (9, 12, 20), (13, 4, 40), (19, 3, 60)]


def naive_self_atari(grid, color, r, c):
    """Whether ``color`` playing ``(r, c)`` leaves its chain one liberty, capturing nothing."""
    after, captured = naive.play(grid, color, r, c)
    return not captured and len(naive.liberties(after, r, c)) == 1


def step_heavy_playout(board, ko, params, seed, max_moves):
    """A heavy playout from ``board`` one move at a time (the calls the playout loop makes), each
    move checked against naive: legal under simple ko, not the mover's eye; a pass only when
    every playable point is a self-atari. Returns the moves and the final kernel state."""
    size = board.size
    pts, meta = board.pts.copy(), board.meta.copy()
    grid = naive.from_diagram(str(board))
    rng = new_state(seed)
    none_c, none_d = np.zeros(1, np.int8), np.zeros(1, np.int64)
    moves = []
    while meta[kb.PASSES] < 2 and len(moves) < max_moves:
        c = int(meta[kb.TO_MOVE])
        p = int(kpolicy.choose_move(HEAVY, params, PATTERNS, NO_REPLIES, pts, meta, ZOBRIST, np.int64(c), rng))
        ko_point = ko[0] if ko is not None and ko[1] == c else None
        if p == PASS:
            rest = {
                q
                for q in naive.legal_points(grid, c, ko_point)
                if not naive.is_eye(grid, c, *q) and not naive_self_atari(grid, c, *q)
            }
            assert not rest, f"passed with {rest} playable\n{board}"
            ko = None
        else:
            r, col = coords.row_col(size, p)
            assert naive.illegal_reason(grid, c, r, col, ko_point) is None, ((r, col), c, grid)
            assert not naive.is_eye(grid, c, r, col), ((r, col), c, grid)
            grid, captured = naive.play(grid, c, r, col)
            k = naive.ko_after(grid, r, col, captured)
            ko = None if k is None else (k, 3 - c)
        kp.apply_move(pts, meta, ZOBRIST, np.int64(p), np.int64(c), none_c, none_d, np.int64(0), False)
        assert grid_of(pts, size) == grid
        moves.append(p)
    return moves, pts, meta


@pytest.mark.parametrize("name", list(PARAM_SETS))
@pytest.mark.parametrize(("size", "seeds", "start_moves"), PLAYOUT_STARTS)
def test_heavy_playouts_play_legal_moves_never_fill_eyes_and_score_as_naive(name, size, seeds, start_moves):
    """Each move checked against naive (``step_heavy_playout``); the playout kernel plays the
    same moves from the same seed and returns naive's score of the final position."""
    params = PARAM_SETS[name]
    max_moves = 3 * size * size
    ended = 0
    for seed in range(seeds):
        board, game = random_position(size, 700 + seed, start_moves)
        moves, pts, meta = step_heavy_playout(board, game.ko, params, seed, max_moves)
        assert meta[kb.PASSES] >= 2 or len(moves) == max_moves
        ended += meta[kb.PASSES] >= 2
        # the playout kernel plays the same game from the same seed, and scores it as naive does
        pts2, meta2 = board.pts.copy(), board.meta.copy()
        amaf, depths = np.zeros(pts2.shape[1], np.int8), np.zeros(pts2.shape[1], np.int64)
        score, n = kp.playout(
            pts2, meta2, ZOBRIST, new_state(seed), HEAVY, params, TABLES, max_moves, amaf, depths, 0, False, NO_MEMORY
        )
        assert n == len(moves)
        np.testing.assert_array_equal(pts2[kb.COLOR], pts[kb.COLOR])
        assert score == naive.area_score(grid_of(pts, size))
    assert ended >= seeds / 2  # heavy playouts end by two passes, not at the cap


@pytest.mark.parametrize("size", [5, 9, 19])
def test_run_playouts_scores_are_the_naive_scores_of_the_single_playouts(size):
    board, _ = random_position(size, 900 + size, size)
    before = board.pts.copy(), board.meta.copy()
    params = PARAM_SETS["defaults"]
    n, max_moves = 4, 3 * size * size
    scores = np.zeros(n, dtype=np.int64)
    total = kp.run_playouts(
        board.pts, board.meta, ZOBRIST, new_state(5), HEAVY, params, TABLES, np.int64(n), np.int64(max_moves), scores
    )
    np.testing.assert_array_equal(board.pts, before[0])
    np.testing.assert_array_equal(board.meta, before[1])
    rng = new_state(5)
    expected, moves = [], 0
    for _ in range(n):
        pts, meta = board.pts.copy(), board.meta.copy()
        amaf, depths = np.zeros(pts.shape[1], np.int8), np.zeros(pts.shape[1], np.int64)
        score, m = kp.playout(
            pts, meta, ZOBRIST, rng, HEAVY, params, TABLES, max_moves, amaf, depths, 0, False, NO_MEMORY
        )
        assert score == naive.area_score(grid_of(pts, size))
        expected.append(int(score))
        moves += int(m)
    assert scores.tolist() == expected and total == moves


def test_a_seed_reproduces_the_same_heavy_playout():
    board, game = random_position(9, 11, 10)
    params = PARAM_SETS["defaults"]
    first = step_heavy_playout(board, game.ko, params, 42, 243)
    again = step_heavy_playout(board, game.ko, params, 42, 243)
    assert first[0] == again[0]
    np.testing.assert_array_equal(first[1], again[1])
    others = {tuple(step_heavy_playout(board, game.ko, params, seed, 243)[0]) for seed in range(6)}
    assert len(others) == 6


CUT_KEIMA = """
. . . . . . .
. . . . . . .
. . O X . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_with_pattern_extra_a_cut_keima_next_to_the_last_move_is_played():
    # White's (3, 4) makes a cut keima at (3, 3) (White (2, 2) and (3, 4) around Black's (2, 3)),
    # none of MoGo's shapes: without pattern_extra the policy falls through to random moves
    board = position(CUT_KEIMA, (3, 4), WHITE)
    assert draw_moves(board, heavy_params(pattern=1), 50)[(3, 3)] < 10
    # with it, the cut keima or (2, 4), where Black's (2, 3) and White's (3, 4) make a katatsuke
    moves = draw_moves(board, heavy_params(pattern=1, pattern_extra=1), 50)
    assert set(moves) == {(3, 3), (2, 4)} and min(moves.values()) > 5
    assert POLICIES.array("heavy")[kpolicy.HEAVY_PATTERN_EXTRA] == 0.0  # off unless asked for
