"""The K-armed bandit laboratory: Bernoulli machines played by the tree's own selection rules.

Reading guide: ``play`` is one game (``pulls`` pulls of K machines); ``run_games`` plays many games,
for many rules, in parallel over the games; ``stream_seed`` names every random stream. The experiment
is that of Stogin, Chen, Drake and Pellegrino 2009, "The Beta Distribution in the UCB Algorithm
Applied to Monte-Carlo Go", section 3.1 (figures 7-9; seed 000_3122025fe939e09b.txt): ten
machines, 10,000 pulls, total reward as a function of the exploration coefficient.
``scripts/bandit.py`` drives it.

The arm is chosen by ``kernels.select.select_best``, the very function the tree's descent calls, so
a formula tested here is the formula that plays Go. A machine is an arm with reward sum ``w[i]``
and pulls ``n[i]``; the parent's visits ``t`` is the total pulls so far, P_T of the paper. "Initially
play each machine once" is the +inf score every rule gives an unvisited arm (ties among them broken
at random). There is no AMAF information in a flat bandit: ``aw`` and ``an`` stay zero, so the RAVE
rules reduce to their non-AMAF forms (``rave`` to UCB1 with its C, ``kl-ucb-rave`` to KL-UCB).

Common random numbers: machine ``i`` owns its own RNG stream, seeded by ``(seed, run, i)``, and its
k-th pull uses the k-th uniform u of that stream, paying 1 when ``u < means[i]``. So in a given run
every rule sees the same sequence of outcomes from each machine, and two rules that choose alike
get identical rewards; differences between rules then have small paired standard errors. The
policy's own randomness (ties, Thompson draws) is a further stream ``(seed, run, POLICY_STREAM)``,
also the same for every rule.
"""

import numpy as np
from numba import njit, prange

from .rng import rand_float, seed_state, splitmix64
from .select import select_best

POLICY_STREAM = 1 << 20  # stream id of the policy RNG; machines use 0 .. K-1


@njit(cache=True, _nrt=False)
def stream_seed(seed, run, stream):
    """The seed of random stream ``stream`` of run ``run`` of an experiment seeded ``seed``
    (all non-negative integers; ``seed`` as uint64)."""
    return splitmix64(splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(run)) ^ np.uint64(stream))


@njit(cache=True, _nrt=False)
def play(rule, params, means, pulls, arm_states, rng, w, n, aw, an):
    """One game: ``pulls`` pulls of the machines ``means`` (float64[K], win probabilities) under rule
    ``rule`` with ``params`` (``kernels.select``). Returns the total reward.

    ``arm_states`` (uint64[K, 1]) are the machines' RNG states, ``rng`` (uint64[1]) the policy's;
    ``w, n`` (float64[K], zero on entry) receive each machine's reward sum and pulls; ``aw, an``
    (float64[K]) are the AMAF statistics, zero in a flat bandit. Nothing is allocated here."""
    k = means.shape[0]
    total = 0.0
    for p in range(pulls):
        i = select_best(rule, params, w, n, np.float64(p), aw, an, 0, k, rng)
        r = 1.0 if rand_float(arm_states[i]) < means[i] else 0.0
        w[i] += r
        n[i] += 1.0
        total += r
    return total


@njit(cache=True, _nrt=False)
def seed_run(seed, run, arm_states, rng):
    """Seed the machine streams and the policy stream of run ``run``."""
    for i in range(arm_states.shape[0]):
        seed_state(arm_states[i], stream_seed(seed, run, i))
    seed_state(rng, stream_seed(seed, run, POLICY_STREAM))


@njit(cache=True, parallel=True)
def run_games(rules, params, means, pulls, seed, first_run, rewards, counts):
    """Play every rule on every run, in parallel over the runs.

    ``rules`` int64[C] and ``params`` float64[C, P]: C configurations (rule id, parameter row).
    ``means`` float64[R, K]: the machines of each of R runs (row r is run ``first_run + r``).
    Output: ``rewards`` float64[C, R] total rewards, ``counts`` float64[C, R, K] pulls per machine.
    Every configuration of run r starts from the same streams (common random numbers)."""
    n_cfg = rules.shape[0]
    n_runs = means.shape[0]
    k = means.shape[1]
    for r in prange(n_runs):
        w = np.zeros(k)
        n = np.zeros(k)
        aw = np.zeros(k)
        an = np.zeros(k)
        arm_states = np.zeros((k, 1), dtype=np.uint64)
        rng = np.zeros(1, dtype=np.uint64)
        for c in range(n_cfg):
            seed_run(seed, first_run + r, arm_states, rng)
            w[:] = 0.0
            n[:] = 0.0
            rewards[c, r] = play(rules[c], params[c], means[r], pulls, arm_states, rng, w, n, aw, an)
            counts[c, r, :] = n
