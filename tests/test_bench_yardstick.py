"""The frozen speed reference (``bench/yardstick.py``): its playouts replayed on the slow,
obviously correct board of ``tests/naive.py``, and its output in the form ``bench/reference.py``
reads. The yardstick has no superko (nor has any light playout), so the replay leaves it out."""

import subprocess
import sys
from pathlib import Path

import naive
import numpy as np
import pytest
import reference  # bench/reference.py and bench/yardstick.py: pytest's pythonpath holds bench/
import yardstick

BENCH = Path(__file__).resolve().parent.parent / "bench"


def playouts(n, count, seed):
    """``count`` yardstick playouts on n x n from one RNG state: (score, turns, record) each."""
    points = (n + 2) * (n + 2)
    arrays = [np.zeros(points, np.int8)] + [np.zeros(points, np.int64) for _ in range(5)]
    rng = np.array([seed], dtype=np.uint64)
    for _ in range(count):
        record = np.zeros(3 * n * n, np.int64)
        score, turns = yardstick.playout(n, rng, *arrays, record)
        yield score, turns, record[:turns].copy()


@pytest.mark.parametrize(("n", "count"), [(5, 40), (9, 12), (19, 2)])
def test_playouts_follow_the_rules_of_the_reference_board_and_score_as_it_does(n, count):
    """Every move is legal under simple ko and the suicide ban and never fills the mover's own
    eye; a pass comes only when no such move is left; a playout ended by two passes has the
    reference's area score."""
    w = n + 2
    for score, turns, record in playouts(n, count, seed=12345):
        game = naive.Game(n)
        color = naive.BLACK
        for k, p in enumerate(record):
            ko = game.ko_point(color)
            allowed = {
                q
                for q in naive.empty_points(game.grid)
                if naive.illegal_reason(game.grid, color, *q, ko) is None and not naive.is_eye(game.grid, color, *q)
            }
            if p < 0:
                assert not allowed, f"turn {k}: passed with {sorted(allowed)} left"
                game.play(color, None)
            else:
                point = (int(p) // w - 1, int(p) % w - 1)
                assert point in allowed, f"turn {k}: {point} is illegal or an own eye"
                game.grid, captured = naive.play(game.grid, color, *point)
                ko_point = naive.ko_after(game.grid, *point, captured)
                game.ko = None if ko_point is None else (ko_point, naive.opponent(color))
            color = naive.opponent(color)
        if turns < 3 * n * n:
            assert list(record[-2:]) == [-1, -1]
            assert score == naive.area_score(game.grid)


def test_a_seed_gives_the_same_playouts():
    first = [(s, t, list(r)) for s, t, r in playouts(9, 5, seed=7)]
    again = [(s, t, list(r)) for s, t, r in playouts(9, 5, seed=7)]
    assert first == again and len({t for _, t, _ in first}) > 1


def test_it_prints_one_line_a_size_that_the_reference_reads():
    done = subprocess.run(
        [sys.executable, str(BENCH / "yardstick.py")], capture_output=True, text=True, check=True, timeout=300
    )
    rates = reference.parse(done.stdout)
    assert sorted(rates) == [9, 19] and all(rate > 0 for rate in rates.values())
    assert reference.DEFAULT_PATH == BENCH / "yardstick.py"
