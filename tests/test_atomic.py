"""The atomic operations a shared search tree is built on (``goengine.kernels.atomic``): the value
each returns, compare-and-swap's refusal, and, with two threads adding into the same elements at
once (the kernels release the GIL), not one update lost, which plain ``+=`` does not promise."""

import threading

import numpy as np
import pytest
from numba import njit

from goengine.kernels.atomic import atomic_add, atomic_add_1d, atomic_cas, atomic_load


@njit(nogil=True, cache=False)
def _add_many(counts, sums, meta, n):
    for _ in range(n):
        atomic_add(counts, 1, 2, np.int32(1))
        atomic_add(sums, 0, 1, 0.5)
        atomic_add_1d(meta, 1, np.int64(3))
    return n


@njit(cache=False)
def _single_steps(a, meta):
    before = atomic_add(a, 0, 1, np.int32(5))
    won = atomic_cas(a, 0, 1, np.int32(5), np.int32(-1))
    lost = atomic_cas(a, 0, 1, np.int32(5), np.int32(9))  # the value is -1 now: refused
    a[1, 0] = 42
    start = atomic_add_1d(meta, 0, np.int64(10))
    return before, won, lost, a[0, 1], atomic_load(a, 1, 0), start, meta[0]


def test_each_operation_returns_the_value_it_found_and_cas_refuses_a_changed_value():
    a = np.zeros((2, 3), dtype=np.int32)
    meta = np.array([7, 0], dtype=np.int64)
    assert _single_steps(a, meta) == (0, 5, -1, -1, 42, 7, 17)


def test_two_threads_adding_at_once_lose_no_update():
    counts = np.zeros((2, 3), dtype=np.int32)
    sums = np.zeros((1, 2), dtype=np.float64)
    meta = np.zeros(2, dtype=np.int64)
    _add_many(counts, sums, meta, 10)  # compile before the threads start
    counts[:] = 0
    sums[:] = 0.0
    meta[:] = 0
    n = 1_000_000
    threads = [threading.Thread(target=_add_many, args=(counts, sums, meta, n)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts[1, 2] == 2 * n and sums[0, 1] == n and meta[1] == 6 * n
    assert counts.sum() == 2 * n and sums[0, 0] == 0.0  # no other element touched


def test_only_c_contiguous_integer_or_float_elements_are_accepted():
    @njit(cache=False)
    def add_into(a):
        return atomic_add(a, 0, 0, a[0, 0])

    with pytest.raises(Exception, match="int32, int64 or float64"):
        add_into(np.zeros((1, 1), dtype=np.int8))
    with pytest.raises(Exception, match="C-contiguous 2-D"):
        add_into(np.zeros((3, 3), dtype=np.int32)[:, ::2])
