"""The kernel-backed ``goengine.board.Board`` against the slow rules of ``tests/naive.py``.

Reading guide: ``check_position`` lists every comparison made after every move (colours, chains,
liberties, the kernel's pseudo-liberty sums, the empty list, Zobrist hash, ko, legality with its
reason for both colours, eyes, area score); ``play_and_check_game`` drives one game and also tries
illegal moves on the way. The tests below run it over many seeded games, over hypothesis-drawn
games on tiny boards, and then check the playout kernel and the uniformity of its move policy.

Loop sizes are the constants below ``NO_JIT``: smaller when ``NUMBA_DISABLE_JIT=1`` (the suite's
plain-Python run, for coverage and readable tracebacks).
"""

import math
import os
import random
from collections import Counter

import naive
import numpy as np
import pytest
from helpers import NO_MEMORY, TABLES, grid_of, point_map, random_position, to_point, to_rc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goengine import coords
from goengine.board import BLACK, EMPTY, PASS, WHITE, ZOBRIST, Board, IllegalMove
from goengine.kernels import board as kb
from goengine.kernels import playout as kp
from goengine.kernels import policy as kpolicy
from goengine.kernels.rng import new_state, rand_below
from goengine.mogo3x3 import table

PATTERNS = table()

pytestmark = pytest.mark.board

# With NUMBA_DISABLE_JIT=1 the kernels run as plain Python. Calls from Python into small kernels
# are then no slower (numba's dispatch costs about what interpreting them does), but playouts and
# batches of draws are, so that mode runs fewer of everything.
NO_JIT = os.environ.get("NUMBA_DISABLE_JIT") == "1"

# (size, games, move cap, first fully checked move) for the games that choose among all legal
# points, eye-filling included; then for the games of the playout policy (Board.random_move).
UNIFORM_GAMES = (
    [(5, 15, 100, 0), (7, 4, 150, 0), (9, 2, 200, 0), (13, 1, 160, 100), (19, 1, 220, 200)]
    if NO_JIT
    else [(5, 30, 100, 0), (7, 8, 150, 0), (9, 4, 200, 0), (13, 1, 220, 100), (19, 1, 250, 200)]
)
POLICY_GAMES = (
    [(5, 10, 100, 0), (7, 4, 150, 0), (9, 2, 200, 0), (13, 1, 200, 150), (19, 1, 260, 240)]
    if NO_JIT
    else [(5, 20, 100, 0), (7, 8, 150, 0), (9, 4, 200, 0), (13, 1, 300, 150), (19, 1, 300, 240)]
)
HYPOTHESIS_EXAMPLES = 30 if NO_JIT else 60
PLAYOUT_SEEDS = 5 if NO_JIT else 20
UNIFORM_DRAWS = 50_000 if NO_JIT else 200_000

PASS_PROBABILITY = 0.05  # passes lift the ko ban, so a retake becomes a superko question


# ---- conversions between goengine's padded indices and naive's (row, col): tests/helpers.py


def zobrist_of(grid):
    """The Zobrist hash of ``grid`` from scratch: XOR of ZOBRIST[colour, point] over its stones."""
    h = 0
    for (r, c), p in point_map(len(grid)).items():
        if grid[r][c] != EMPTY:
            h ^= int(ZOBRIST[grid[r][c], p])
    return h


def snapshot(board):
    return (
        board.pts.copy(),
        board.meta.copy(),
        list(board.history),
        list(board.moves),
        dict(board.captures),
    )


def assert_unchanged(board, before):
    pts, meta, history, moves, captures = before
    np.testing.assert_array_equal(board.pts, pts)
    np.testing.assert_array_equal(board.meta, meta)
    assert board.history == history
    assert board.moves == moves
    assert board.captures == captures


def playable_points(grid, color, ko_point=None, seen=()):
    """The naive playout policy's choices: legal points that are not ``color``'s eyes."""
    return {p for p in naive.legal_points(grid, color, ko_point, seen) if not naive.is_eye(grid, color, *p)}


# ---- the comparisons


def check_kernel_state(pts, meta, size, grid):
    """The kernel arrays describe ``grid``, with every derived field as its definition says.

    Colours; per chain: one root in CHAIN, the NEXT ring through exactly its stones, and at the root
    LIBS / LIBSUM / LIBSUM2 / CSIZE recomputed from (stone, empty neighbour) pairs; every chain has
    a liberty; the empty list and its inverse; the Zobrist hash.
    """
    pm = point_map(size)
    assert grid_of(pts, size) == grid
    for stones in naive.chains(grid):
        chain = sorted(pm[s] for s in stones)
        root = int(pts[kb.CHAIN, chain[0]])
        assert root in chain
        assert all(pts[kb.CHAIN, p] == root for p in chain)
        ring, s = [root], int(pts[kb.NEXT, root])
        while s != root and len(ring) <= len(chain):
            ring.append(s)
            s = int(pts[kb.NEXT, s])
        assert sorted(ring) == chain, "NEXT ring does not go through exactly the chain"
        pseudo = [pm[q] for s in stones for q in naive.neighbours(grid, *s) if grid[q[0]][q[1]] == EMPTY]
        assert pseudo, "a chain without liberties is on the board"
        got = tuple(int(pts[f, root]) for f in (kb.LIBS, kb.LIBSUM, kb.LIBSUM2, kb.CSIZE))
        assert got == (len(pseudo), sum(pseudo), sum(q * q for q in pseudo), len(chain))
    n = int(meta[kb.N_EMPTY])
    empties = pts[kb.EMPTIES, :n].tolist()
    assert sorted(empties) == sorted(pm[q] for q in naive.empty_points(grid))
    assert all(pts[kb.EMPTY_POS, p] == i for i, p in enumerate(empties))
    assert int(meta[kb.HASH]) == zobrist_of(grid)


def check_position(board, game, stats, full=True):
    """Everything the Board says about the position agrees with the naive game ``game``.

    Always: the kernel state, hash and history, ko, area score. With ``full``, also
    ``Board.chain`` and ``Board.liberties`` of every chain, every point's eye status and legality
    (with its reason) for both colours, and ``legal_moves``; then it returns naive's reasons,
    ``{colour: {point: reason or None}}`` (else None).
    """
    size = board.size
    grid = game.grid
    pm = point_map(size)
    check_kernel_state(board.pts, board.meta, size, grid)
    assert board.hash == board.history[-1] == zobrist_of(grid)
    assert len(board.history) == len(board.moves) + 1
    if game.ko is None:
        assert board.ko_point is None
    else:
        assert board.ko_point == pm[game.ko[0]]
        assert board.meta[kb.KO_COLOR] == game.ko[1]
    assert board.area_score() == naive.area_score(grid)
    if not full:
        return None
    for stones in naive.chains(grid):
        r, c = next(iter(stones))
        assert board.chain(pm[r, c]) == sorted(pm[s] for s in stones)
        assert board.liberties(pm[r, c]) == sorted(pm[q] for q in naive.liberties(grid, r, c))
    all_reasons = {}
    for color in (BLACK, WHITE):
        for q in naive.empty_points(grid):
            is_eye = bool(kb.is_eye(board.pts, board.meta, np.int64(pm[q]), np.int64(color)))
            assert is_eye == naive.is_eye(grid, color, *q), f"is_eye {q} for {color}\n{board}"
        reasons = {}
        for (r, c), p in pm.items():
            reason = game.illegal_reason(color, r, c)
            assert board.illegal_reason(color, p) == reason, f"{(r, c)} for {color}\n{board}"
            reasons[p] = reason
            stats[reason] += 1
        assert sorted(board.legal_moves(color)) == sorted(p for p, reason in reasons.items() if reason is None)
        all_reasons[color] = reasons
    return all_reasons


def try_illegal_moves(board, reasons, rnd, stats):
    """For each colour, play one illegal point of each kind, if any, and an off-board point: each
    raises IllegalMove with naive's reason (``reasons`` from ``check_position``) and leaves the
    board as it was."""
    w = board.size + 2
    before = snapshot(board)
    for color in (BLACK, WHITE):
        by_reason = {"off board": [0, w - 1, w, 2 * w - 1, w * w - 1, w * w, -2, 10**9]}
        for p, reason in reasons[color].items():
            if reason is not None:
                by_reason.setdefault(reason, []).append(p)
        for reason, points in by_reason.items():
            p = rnd.choice(points)
            with pytest.raises(IllegalMove) as excinfo:
                board.play(color, p)
            assert excinfo.value.reason == reason, f"{p} for {color}\n{board}"
            assert_unchanged(board, before)
            stats["raised " + reason] += 1


def choose_move(board, game, color, policy, reasons, rnd, rng):
    """The next move of ``color`` under ``policy`` (see ``play_and_check_game``)."""
    size = board.size
    if policy == "uniform":
        if reasons is None:
            legal = board.legal_moves(color)  # naive's game.play still checks the one played
        else:
            legal = [p for p, reason in reasons[color].items() if reason is None]
        if not legal or (board.passes == 0 and rnd.random() < PASS_PROBABILITY):
            return PASS
        return rnd.choice(sorted(legal))
    p = board.random_move(rng)
    if reasons is not None:
        legal = [to_rc(size, q) for q, reason in reasons[color].items() if reason is None]
        choices = {to_point(size, q) for q in legal if not naive.is_eye(game.grid, color, *q)}
    elif p == PASS:
        choices = {to_point(size, q) for q in playable_points(game.grid, color, game.ko_point(color), game.seen)}
    else:  # naive's game.play checks the legality of the move played
        choices = {p} if not naive.is_eye(game.grid, color, *to_rc(size, p)) else set()
    assert p in choices if p != PASS else not choices, f"random_move {p} for {color}\n{board}"
    return p


def play_and_check_game(size, seed, policy, max_moves, stats, full_from=0):
    """One game from the empty board, every move checked against naive.

    ``policy`` "uniform": any legal point, eye-filling included (so captures, suicide points and kos
    come often), and now and then a pass (never two in a row: the game goes on until the move cap
    or until nobody can move); "playout": ``Board.random_move``, which must pick a legal non-eye
    point (superko included), and pass only when there is none.

    From move ``full_from`` on, every move gets the full check (``check_position``) and illegal
    moves are tried; before it, the cheaper checks only, so that big boards reach the middle game
    (captures, kos) within the time budget.
    """
    rnd = random.Random(seed)
    rng = new_state(seed)
    board = Board(size)
    game = naive.Game(size)
    reasons = check_position(board, game, stats, full=full_from == 0)
    color = BLACK
    for t in range(max_moves):
        if reasons is not None:
            try_illegal_moves(board, reasons, rnd, stats)
        p = choose_move(board, game, color, policy, reasons, rnd, rng)
        passes = board.passes + 1 if p == PASS else 0
        captured = board.play(color, p)
        assert captured == len(game.play(color, to_rc(size, p)))
        assert board.to_move == 3 - color
        assert board.moves[-1] == (color, p)
        assert board.passes == passes
        stats["moves"] += 1
        stats["checked moves"] += t + 1 >= full_from
        stats["captures"] += captured > 0
        stats["kos"] += game.ko is not None
        reasons = check_position(board, game, stats, full=t + 1 >= full_from)
        if board.is_over:
            break
        color = 3 - color
    stats["games"] += 1


# ---- games


@pytest.mark.slow
@pytest.mark.parametrize(("size", "games", "max_moves", "full_from"), UNIFORM_GAMES)
def test_games_of_any_legal_move_match_naive_rules(size, games, max_moves, full_from):
    stats = Counter()
    for seed in range(games):
        play_and_check_game(size, 1000 * size + seed, "uniform", max_moves, stats, full_from)
    print(f"size {size}: {dict(stats)}")
    assert stats["captures"] > 0 and stats["suicide"] > 0
    if size == 5:  # 5x5 games must have shown every rule
        for reason in ("occupied", "suicide", "ko", "superko"):
            assert stats[reason] > 0 and stats["raised " + reason] > 0, reason
        assert stats["kos"] > 0


@pytest.mark.slow
@pytest.mark.parametrize(("size", "games", "max_moves", "full_from"), POLICY_GAMES)
def test_games_of_the_playout_policy_match_naive_rules(size, games, max_moves, full_from):
    stats = Counter()
    for seed in range(games):
        play_and_check_game(size, 2000 * size + seed, "playout", max_moves, stats, full_from)
    print(f"size {size}: {dict(stats)}")
    assert stats["captures"] > 0


@pytest.mark.slow
@settings(
    max_examples=HYPOTHESIS_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(size=st.sampled_from([2, 3, 4, 5]), data=st.data())
def test_hypothesis_games_on_tiny_boards_match_naive_rules(size, data):
    """Any sequence of legal moves and passes (either colour may move) keeps Board equal to naive."""
    board = Board(size)
    game = naive.Game(size)
    stats = Counter()
    for _ in range(data.draw(st.integers(1, 3 * size * size), label="moves")):
        color = data.draw(st.sampled_from([BLACK, WHITE]), label="color")
        choices = [None, *sorted(game.legal_points(color))]
        move = choices[data.draw(st.integers(0, len(choices) - 1), label="move")]
        assert board.play(color, to_point(size, move)) == len(game.play(color, move))
        check_position(board, game, stats)


# ---- directed rules


def test_off_board_points_raise_and_leave_board_unchanged():
    board = Board(5)
    board.play(BLACK, coords.point(5, 2, 2))
    before = snapshot(board)
    for p in (0, 6, 7, 13, 48, 49, -2, 10**9):
        with pytest.raises(IllegalMove) as excinfo:
            board.play(WHITE, p)
        assert excinfo.value.reason == "off board"
        assert_unchanged(board, before)


def test_passes_are_always_legal_and_lift_the_ko_ban():
    # Black captures at (0, 2) and makes a ko at (0, 1); after White and Black pass, the retake is
    # no longer "ko" but repeats the earlier position: "superko".
    game = naive.Game(4)
    board = Board(4)
    moves = [(BLACK, (0, 0)), (WHITE, (0, 1)), (BLACK, (1, 1)), (WHITE, (1, 2)), (BLACK, (3, 3))]
    moves += [(WHITE, (0, 3)), (BLACK, (0, 2))]
    for color, move in moves:
        board.play(color, to_point(4, move))
        game.play(color, move)
    stats = Counter()
    check_position(board, game, stats)
    retake = coords.point(4, 0, 1)
    assert board.ko_point == retake and board.illegal_reason(WHITE, retake) == "ko"
    for color in (WHITE, BLACK):
        board.play(color, PASS)
        game.play(color, None)
        check_position(board, game, stats)
    assert board.ko_point is None and board.illegal_reason(WHITE, retake) == "superko"


def test_random_move_falls_back_when_the_kernel_choice_repeats_a_position():
    # 3x3, White to move after two passes: its only legal-under-simple-ko non-eye point, (2, 1),
    # retakes a ko and repeats a position, so the policy must pass.
    moves = [(2, 2), (2, 1), (0, 1), (1, 0), (1, 1), (0, 2), (2, 0), None, None]
    board = Board(3)
    game = naive.Game(3)
    for i, move in enumerate(moves):
        board.play(BLACK if i % 2 == 0 else WHITE, to_point(3, move))
        game.play(BLACK if i % 2 == 0 else WHITE, move)
    assert board.to_move == WHITE
    assert playable_points(game.grid, WHITE, None, ()) == {(2, 1)}
    assert playable_points(game.grid, WHITE, None, game.seen) == set()
    pts, meta = board.pts.copy(), board.meta.copy()
    assert kpolicy.random_move(pts, meta, np.int64(WHITE), new_state(1)) == coords.point(3, 2, 1)
    for seed in range(5):
        assert board.random_move(new_state(seed)) == PASS


@pytest.mark.parametrize(
    "diagram",
    [
        ". X .\nX O X\n. X .",  # captured while placing: (2, 1) comes after (1, 1)
        ". . .\n. . O\n. O X",  # the last point placed has no liberty, and captures nothing
        "X X X\nX X X\nX X X",  # one chain filling the board
    ],
)
def test_from_ascii_rejects_a_chain_without_liberties(diagram):
    grid = naive.from_diagram(diagram)
    assert any(not naive.liberties(grid, *next(iter(s))) for s in naive.chains(grid))
    with pytest.raises(ValueError, match="without liberties"):
        Board.from_ascii(diagram)


# ---- playouts


UNIFORM = np.int64(kpolicy.UNIFORM)
NO_PARAMS = np.zeros(8)
NOT_PLAYED = 1 << 30


def run_one_playout(board, seed, depth=0):
    """A uniform playout (at most 3 * size^2 moves) from ``board`` on copies of its arrays, as
    ``run_playouts`` does, its first move at AMAF depth ``depth``. Returns ``(score, moves, pts,
    meta, amaf, amaf_depth)`` for the final position."""
    pts, meta = board.pts.copy(), board.meta.copy()
    amaf = np.zeros(pts.shape[1], dtype=np.int8)
    amaf_depth = np.full(pts.shape[1], NOT_PLAYED, dtype=np.int64)
    max_moves = 3 * board.size * board.size
    score, moves = kp.playout(
        pts,
        meta,
        ZOBRIST,
        new_state(seed),
        UNIFORM,
        NO_PARAMS,
        TABLES,
        max_moves,
        amaf,
        amaf_depth,
        depth,
        True,
        NO_MEMORY,
    )
    return int(score), int(moves), pts, meta, amaf, amaf_depth


@pytest.mark.parametrize("size", [5, 7, 9, 13, 19])
def test_playout_ends_in_a_valid_position_scored_as_naive_scores_it(size):
    for seed in range(PLAYOUT_SEEDS):
        board, _ = random_position(size, seed, (seed % 4) * size)
        before = snapshot(board)
        score, moves, pts, meta, amaf, amaf_depth = run_one_playout(board, seed, depth=seed)
        assert_unchanged(board, before)
        grid = grid_of(pts, size)
        check_kernel_state(pts, meta, size, grid)
        assert score == naive.area_score(grid)
        assert meta[kb.MOVES] == board.meta[kb.MOVES] + moves
        start = grid_of(board.pts, size)
        for r in range(size):
            for c in range(size):
                p = coords.point(size, r, c)
                if grid[r][c] != EMPTY and start[r][c] == EMPTY:
                    assert amaf[p] != 0, "a stone played in the playout is missing from the AMAF record"
        assert not amaf[[p for p in range(pts.shape[1]) if not coords.on_board(size, p)]].any()
        # the depth of a first move is the playout's start plus the moves before it
        recorded = amaf != 0
        assert np.all((amaf_depth[recorded] >= seed) & (amaf_depth[recorded] < seed + moves))
        assert np.all(amaf_depth[~recorded] == NOT_PLAYED)
        assert len(set(amaf_depth[recorded].tolist())) == int(recorded.sum())  # one move a depth
        if meta[kb.PASSES] >= 2:  # the last player passed because nothing was playable
            assert playable_points(grid, 3 - int(meta[kb.TO_MOVE])) == set()
        else:
            assert moves == 3 * size * size


@pytest.mark.parametrize("size", [5, 9])
def test_playout_is_reproducible_for_a_seed_and_varies_with_it(size):
    board, _ = random_position(size, 7, size)
    first = run_one_playout(board, 42)
    again = run_one_playout(board, 42)
    assert first[:2] == again[:2]
    for a, b in zip(first[2:], again[2:], strict=True):
        np.testing.assert_array_equal(a, b)
    finals = {run_one_playout(board, seed)[2][kb.COLOR].tobytes() for seed in range(10)}
    assert len(finals) >= 8


def test_run_playouts_equals_single_playouts_and_leaves_the_position_unchanged():
    board, _ = random_position(9, 3, 20)
    before = snapshot(board)
    n = 4
    scores = np.zeros(n, dtype=np.int64)
    rng = new_state(5)
    total = kp.run_playouts(board.pts, board.meta, ZOBRIST, rng, UNIFORM, NO_PARAMS, TABLES, n, 3 * 81, scores)
    assert_unchanged(board, before)
    rng = new_state(5)
    expected, moves = [], 0
    for _ in range(n):
        pts, meta = board.pts.copy(), board.meta.copy()
        amaf = np.zeros(pts.shape[1], dtype=np.int8)
        depths = np.zeros(pts.shape[1], dtype=np.int64)
        score, m = kp.playout(
            pts, meta, ZOBRIST, rng, UNIFORM, NO_PARAMS, TABLES, 3 * 81, amaf, depths, 0, False, NO_MEMORY
        )
        expected.append(int(score))
        moves += int(m)
    assert scores.tolist() == expected
    assert total == moves


# ---- uniformity of the playout policy

# White to play (2, 0), capturing at (3, 0). Then Black to move has 6 playable points, 4 of them
# with no empty neighbour (so the full tests run), and 3 rejected: the eye (0, 0), the suicide
# (4, 4), and the ko point (3, 0).
UNIFORM_POSITION = """
. X . O X
X . X . X
. X O O X
X O . . O
O . X O .
"""
UNIFORM_WHITE_MOVE = (2, 0)


def chi_square(counts, outcomes):
    """Pearson's statistic of ``counts`` against the uniform distribution over ``outcomes``."""
    total = sum(counts.values())
    expected = total / len(outcomes)
    assert set(counts) <= set(outcomes), f"drew a point outside the expected set: {set(counts) - set(outcomes)}"
    return sum((counts.get(o, 0) - expected) ** 2 / expected for o in outcomes)


def chi_square_limit(df, z=4.753):
    """The chi-square quantile at one-sided normal deviate ``z`` (4.753: p = 1e-6), by Wilson and
    Hilferty's cube-root approximation (1931)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def draw_counts(sampler, board, seed):
    pts, meta = board.pts.copy(), board.meta.copy()
    rng = new_state(seed)
    color = np.int64(board.to_move)
    return Counter(int(sampler(pts, meta, color, rng)) for _ in range(UNIFORM_DRAWS))


def probing_sampler(pts, meta, c, rng):
    """A biased policy for the test's own check: on a rejection, take the next playable point in
    the empty list. Points after unplayable ones are drawn more often."""
    n = int(meta[kb.N_EMPTY])
    i = int(rand_below(rng, n))
    for k in range(n):
        p = pts[kb.EMPTIES, (i + k) % n]
        if kpolicy.is_playable(pts, meta, p, c):
            return p
    return PASS


def test_random_move_is_uniform_over_legal_non_eye_points():
    board = Board.from_ascii(UNIFORM_POSITION, to_move=WHITE)
    board.play(WHITE, to_point(5, UNIFORM_WHITE_MOVE))
    game = naive.Game(5, naive.from_diagram(UNIFORM_POSITION))
    game.play(WHITE, UNIFORM_WHITE_MOVE)
    assert board.to_move == BLACK and board.ko_point == to_point(5, game.ko_point(BLACK))
    outcomes = {to_point(5, q) for q in playable_points(game.grid, BLACK, game.ko_point(BLACK), game.seen)}
    assert len(outcomes) == 6 and len(naive.empty_points(game.grid)) == 9
    counts = draw_counts(kpolicy.random_move, board, seed=11)
    assert chi_square(counts, outcomes) < chi_square_limit(len(outcomes) - 1)
    # the same check does catch a biased policy
    biased = draw_counts(probing_sampler, board, seed=11)
    assert chi_square(biased, outcomes) > chi_square_limit(len(outcomes) - 1)
