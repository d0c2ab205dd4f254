"""The random number generator every kernel uses: xorshift64* over an explicit state array.

``np.random.seed`` called from Python does not seed jitted code, and a hidden global generator
cannot be split between threads. So the state is a ``uint64[1]`` array owned by the caller and
threaded through every kernel that draws a number: the seed reproduces a whole playout or search.

xorshift64* (Vigna 2016, "An experimental exploration of Marsaglia's xorshift generators,
scrambled") passes BigCrush except for the lowest bits, which we never use: ``rand_below``
takes the high 32 bits.
"""

import numpy as np
from numba import njit

_MULT = np.uint64(0x2545F4914F6CDD1D)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S32 = np.uint64(32)


@njit(cache=True, _nrt=False)
def splitmix64(z):
    """The splitmix64 finaliser of ``z`` + the golden ratio (Steele, Lea, Flood 2014): a bijection
    of uint64 that scatters nearby inputs, used to turn seeds and stream ids into states."""
    z = z + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def seed_state(state, seed):
    """Fill ``state`` (uint64[1]) from an integer seed with splitmix64, so nearby seeds differ."""
    z = splitmix64(np.uint64(seed))
    if z == np.uint64(0):  # xorshift never leaves zero
        z = _GOLDEN
    state[0] = z


@njit(cache=True, _nrt=False, inline="always")
def next_u64(state):
    """The next 64-bit output; advances ``state``."""
    x = state[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[0] = x
    return x * _MULT


@njit(cache=True, _nrt=False, inline="always")
def rand_below(state, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift on the high 32 bits;
    the bias is below n / 2**32)."""
    hi = next_u64(state) >> _S32
    return np.int64((hi * np.uint64(n)) >> _S32)


@njit(cache=True, _nrt=False)
def rand_float(state):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def new_state(seed: int) -> np.ndarray:
    """A fresh RNG state array seeded with ``seed`` (any Python int; reduced mod 2**64)."""
    state = np.zeros(1, dtype=np.uint64)
    seed_state(state, np.uint64(seed % (1 << 64)))
    return state
