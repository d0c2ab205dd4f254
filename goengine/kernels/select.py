"""The selection rules: one small scoring function per rule, dispatched by an integer rule id.

Every rule scores one arm (a child in the tree, a machine in the bandit laboratory) from its
statistics; the caller plays the arm with the highest score and breaks ties at random
(``select_best``). The tree (``kernels.search``) and the bandit laboratory (``scripts/bandit.py``)
call the same ``score`` kernel, so each formula exists once. The Python registry
``goengine.selection`` holds the names, parameter names and defaults, and the papers.

Arguments of every rule (rewards are 1 for a win, 0 for a loss, 1/2 for a draw):

- ``w``, ``n``: the arm's reward sum and visits (x = w / n is its mean);
- ``t``: the parent's visits (the total pulls P_T of the bandit papers); ``ln t`` is taken of
  ``max(t, 1)``;
- ``aw``, ``an``: the arm's AMAF ("all moves as first") reward sum and count, for RAVE rules;
- ``params``: float64 array, the rule's parameters at the index constants below (``UCB1_C``,
  ``RAVE_K``, ...), from which the registry ``goengine.selection`` is built: the registry checks
  that every rule's indices are 0, 1, ... in some order, so no parameter reaches another's slot;
- ``rng``: the RNG state (``kernels.rng``), for Thompson sampling.

Variances: rewards are Bernoulli, so the empirical variance of an arm is ``x (1 - x)``; with draws
this slightly overstates it (a draw counts as half a win).

Why rule ids rather than passing jitted functions: a kernel that takes a function argument is
recompiled in every process (STYLE.md); a switch on an integer is cached once.

The sources, cited below by author and year (the project's seed files in parentheses):

- Stogin, Chen, Drake and Pellegrino 2009, "The Beta Distribution in the UCB Algorithm Applied
  to Monte-Carlo Go" (seed 000_3122025fe939e09b.txt);
- a message to the computer-go mailing list, January 2008, answering Hiroshi Yamashita, on a UCB
  term scaled by the beta mean as tried in libego (seed 001_409292b0b5da6ccf.txt);
- Abel 2024, "CS310 AI Foundations, week 5: Monte Carlo Tree Search", lecture slides, and Auer,
  Cesa-Bianchi and Fischer 2002, "Finite-time Analysis of the Multiarmed Bandit Problem"
  (seed 002_76cbbfab57ec8172.txt);
- Yang and Kaneko, "An Improved Algorithm for Go Program with Adjusted UCB Value", an IPSJ
  conference paper in Japanese, undated (seed 003_ec764aba0e4115cd.txt), after Garivier and Cappe
  2011, "The KL-UCB Algorithm for Bounded Stochastic Bandits and Beyond";
- Fijalkowski and Burczaniuk 2020, "Zastosowanie algorytmu UCT do stworzenia sztucznej
  inteligencji grajacej w Connect4" (UCT for a Connect 4 player; seed 004_b7bcabfe495e5caa.txt),
  after Audibert, Munos and Szepesvari 2007 (UCB-V) and Maes, Wehenkel and Ernst 2011
  (UCB-Minimal).
"""

import math

import numpy as np
from numba import njit

from . import at
from .rng import rand_below, rand_float

UCB1 = 0
UCB1_TUNED = 1
BETA_UCB = 2
BETA_MEAN_UCB = 3
KL_UCB = 4
RAVE = 5
KL_UCB_RAVE = 6
UCB_V = 7
UCB_MINIMAL = 8
THOMPSON = 9
N_RULES = 10

# where each rule's parameters sit in its parameter array
UCB1_C = 0
UCB1_TUNED_GAMMA = 0
BETA_UCB_GAMMA = 0
BETA_MEAN_UCB_C = 0
BETA_MEAN_UCB_BIAS = 1
KL_UCB_C = 0
RAVE_SCHEDULE = 0  # also KL-UCB+RAVE's
RAVE_K = 1
RAVE_B = 2
RAVE_C = 3
RAVE_DISTANCE = 4  # AMAF samples weighted by how soon the move came (read by kernels.search.backup)
UCB_V_C = 0
UCB_V_ZETA = 1
UCB_MINIMAL_C1 = 0
UCB_MINIMAL_C2 = 1

INF = np.inf
KL_TOLERANCE = 1e-12
BOUND_MARGIN = 1e-9
TINY_KL = 1e-14
SCHEDULE_HAND = 0.0
SCHEDULE_MSE = 1.0


@njit(cache=True, _nrt=False)
def _log_t(t):
    return math.log(max(t, 1.0))


@njit(cache=True, _nrt=False)
def ucb1(w, n, t, c):
    """UCB1 (Auer, Cesa-Bianchi and Fischer 2002, as in Abel 2024; seed 002_76cbbfab57ec8172.txt):
    ``x + C sqrt(ln t / n)``.
    Unvisited: +inf (every arm is tried once). n = 1: ``x + C sqrt(ln t)``. All wins: x = 1
    plus the bonus; no wins: the bonus alone."""
    if n <= 0:
        return INF
    return w / n + c * math.sqrt(_log_t(t) / n)


@njit(cache=True, _nrt=False)
def ucb1_tuned(w, n, t, gamma):
    """UCB1-Tuned (Stogin et al. 2009, eq. 1.1-1.2, with gamma of eq. 3.1; seed
    000_3122025fe939e09b.txt):
    ``x + gamma sqrt((ln t / n) min(1/4, V))``, ``V = x - x^2 + sqrt(2 ln t / n)``.
    Unvisited: +inf. n = 1, all wins or no wins: x - x^2 = 0, so V is the sqrt term alone and
    the bonus is ``gamma sqrt(ln t min(1/4, sqrt(2 ln t)))``, the same for a win and a loss."""
    if n <= 0:
        return INF
    x = w / n
    lt = _log_t(t)
    v = x - x * x + math.sqrt(2.0 * lt / n)
    return x + gamma * math.sqrt(lt / n * min(0.25, v))


@njit(cache=True, _nrt=False)
def beta_ucb(w, n, t, gamma):
    """Beta-UCB (Stogin et al. 2009, eq. 2.1-2.2 with eq. 3.1 and the extra factor 1/2 of section
    3.1; seed 000_3122025fe939e09b.txt): ``x + (gamma / 2) sqrt(ln t V)`` with the variance of
    Beta(w+1, n-w+1),
    ``V = (w+1)(n-w+1) / ((n+2)^2 (n+3)) + sqrt(2 ln t / n) / n``; no min with 1/4 (eq. 2.1).
    Unvisited: +inf. n = 1: V = 2/36 + sqrt(2 ln t), the same for a win and a loss. All wins or
    no wins: the Beta variance (n+1)/((n+2)^2 (n+3)) is small but never zero, unlike UCB1-Tuned's."""
    if n <= 0:
        return INF
    lt = _log_t(t)
    a = w + 1.0
    b = n - w + 1.0
    v = a * b / ((n + 2.0) * (n + 2.0) * (n + 3.0)) + math.sqrt(2.0 * lt / n) / n
    return w / n + 0.5 * gamma * math.sqrt(lt * v)


@njit(cache=True, _nrt=False)
def beta_mean_ucb(w, n, t, c, bias):
    """The beta-mean UCB (the computer-go list, January 2008, as in libego; seed
    001_409292b0b5da6ccf.txt): UCB1 with the exploration term scaled by the mean of Beta(w+1, l+1),
    ``x + C sqrt(ln t m / n)``, ``m = (w+1) / (n+2)``.
    With ``bias`` nonzero (an on/off flag: the one-win-one-loss initial bias, libego's initial
    bias 2) the arm starts
    from one win and one loss: w -> w+1, n -> n+2, so x = m and an unvisited arm scores
    ``1/2 + C sqrt(ln t / 4)`` (finite). Without it an unvisited arm scores +inf.
    All wins: the term keeps its full size (m near 1); no wins: it shrinks like 1/n, so a losing
    move is abandoned faster than under UCB1 -- the point of the proposal."""
    if bias != 0.0:
        w = w + 1.0
        n = n + 2.0
    if n <= 0:
        return INF
    m = (w + 1.0) / (n + 2.0) if bias == 0.0 else w / n
    return w / n + c * math.sqrt(_log_t(t) * m / n)


@njit(cache=True, _nrt=False)
def bernoulli_kl(p, q):
    """KL(Bernoulli(p) || Bernoulli(q)), with 0 log 0 = 0; q is clipped inside (0, 1)."""
    eps = 1e-15
    q = min(max(q, eps), 1.0 - eps)
    r = 0.0
    if p > 0.0:
        r += p * math.log(p / q)
    if p < 1.0:
        r += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return r


@njit(cache=True, _nrt=False)
def kl_upper_bound(p, d):
    """An upper bound on ``kl_upper(p, d)`` from two lower bounds on KL(p, q), q >= p:
    Pinsker's 2 (q - p)^2, and (q - p)^2 / (2 q), which is tight for small p."""
    return min(1.0, p + math.sqrt(d / 2.0), p + d + math.sqrt(d * d + 2.0 * p * d))


@njit(cache=True, _nrt=False)
def kl_upper(p, d):
    """The largest q in [p, 1] with KL(p, q) <= d, to KL_TOLERANCE (1e-12) in q
    (``kl_upper_lazy`` with no floor)."""
    return kl_upper_lazy(p, d, -INF)


@njit(cache=True, _nrt=False)
def kl_upper_lazy(p, d, floor):
    """``kl_upper(p, d)`` when it is at least ``floor``; otherwise some value in [q, floor).

    Newton's method in v = -ln(1 - q), where KL(p, q) = p ln(p/q) + (1-p)(ln(1-p) + v) is convex
    and increasing with slope (q - p)/q, and nearly linear near q = 1 (where Newton in q would
    crawl). Started above the root, Newton on a convex increasing function descends monotonically
    to it, so every iterate is a valid upper confidence bound. Start: the smaller of
    ``kl_upper_bound`` and the v where the lower bound -H(p) + (1-p) v of KL reaches d. Below
    d = TINY_KL (beyond 10^13 visits) the quadratic expansion of KL answers instead, and p = 0
    has the closed form 1 - exp(-d). The result is always in [p, kl_upper_bound(p, d)].

    Laziness: every iterate is an upper bound on q, so once one is below ``floor`` the caller,
    who only needs to know whether q reaches ``floor`` (``select_best``: the score to beat), is
    answered; Newton stops there. Most children of a node lose, so most inversions end at the
    start or after a step or two instead of converging to 1e-12."""
    if d <= 0.0 or p >= 1.0:
        return p
    if p <= 0.0:
        return -math.expm1(-d)  # KL(0, q) = -ln(1 - q)
    hi = kl_upper_bound(p, d)
    if hi < floor:
        return hi
    if d < TINY_KL and d < 1e-6 * p * (1.0 - p):
        # KL(p, q) = (q - p)^2 / (2 p (1 - p)) + O((q - p)^3): exact to double precision here,
        # where rounding in KL itself (~1e-17) would otherwise be as large as d
        return min(hi, p + math.sqrt(2.0 * d * p * (1.0 - p)))
    neg_entropy = (p * math.log(p) if p > 0.0 else 0.0) + (1.0 - p) * math.log(1.0 - p)
    v = (d - neg_entropy) / (1.0 - p)
    if hi < 1.0:
        v = min(v, -math.log1p(-hi))
    q = -math.expm1(-v)
    for _ in range(100):
        if q < floor:
            break
        f = neg_entropy - (p * math.log(q) if p > 0.0 else 0.0) + (1.0 - p) * v - d
        if f <= 0.0 or q <= p:
            break
        v -= f * q / (q - p)
        nq = -math.expm1(-v)
        if q - nq <= 0.1 * KL_TOLERANCE:  # the step bounds the error left (quadratic convergence)
            q = nq
            break
        q = nq
    return min(hi, max(p, q))


@njit(cache=True, _nrt=False)
def _kl_budget(t, c):
    """KL-UCB's exploration budget ``ln t + c ln ln t`` (the c term only for t > e)."""
    lt = _log_t(t)
    if c != 0.0 and lt > 1.0:
        return lt + c * math.log(lt)
    return lt


@njit(cache=True, _nrt=False)
def kl_ucb(w, n, t, c):
    """KL-UCB (Yang and Kaneko, eq. 3, after Garivier and Cappe 2011; seed
    003_ec764aba0e4115cd.txt):
    ``max { q in [x, 1] : n KL(x, q) <= ln t + c ln ln t }``; Yang and Kaneko use c = 0. The
    ``c ln ln t`` term is added only for t > e, where ln ln t is positive.
    Unvisited: +inf. n = 1: q solves KL(x, q) = ln t. All wins: 1. No wins: q = 1 - exp(-ln t / n)
    for c = 0, since KL(0, q) = -ln(1 - q)."""
    return kl_ucb_lazy(w, n, t, c, -INF)


@njit(cache=True, _nrt=False)
def kl_ucb_lazy(w, n, t, c, floor):
    """``kl_ucb``, lazy below ``floor`` as ``kl_upper_lazy`` is."""
    if n <= 0:
        return INF
    return kl_upper_lazy(w / n, _kl_budget(t, c) / n, floor)


@njit(cache=True, _nrt=False)
def rave_beta(n, an, t, schedule, k, b):
    """The weight of the AMAF mean in MC-RAVE (Gelly and Silver 2011, "Monte-Carlo tree search and
    rapid action value estimation in computer Go", Artificial Intelligence 175).
    Hand-selected (section 5.1; Gelly and Silver 2007, section 4): ``sqrt(k / (3 t + k))`` with
    t = N(s) the visits of the node whose children are chosen (the parent), the same weight for
    every child; the equivalence parameter k is the N(s) at which it is 1/2. Minimum MSE
    (section 5.2, per child): ``an / (n + an + 4 n an b^2)`` (n, an: the child's visits and AMAF
    count; b: the RAVE bias)."""
    if schedule == SCHEDULE_HAND:
        return math.sqrt(k / (3.0 * t + k))
    denom = n + an + 4.0 * n * an * b * b
    return an / denom if denom > 0.0 else 1.0


@njit(cache=True, _nrt=False)
def rave(w, n, t, aw, an, schedule, k, b, c):
    """MC-RAVE (Gelly and Silver 2011): ``(1 - beta) x + beta xa + C sqrt(ln t / n)``, xa = aw / an
    the AMAF mean, beta from ``rave_beta``; C = 0 is the paper's choice (RAVE explores by itself).
    Unvisited: beta = 1, the AMAF mean alone (no exploration term); with no AMAF sample either,
    +inf. n = 1: mostly the AMAF mean (minimum-MSE: beta near 1 for an >> 1; hand-selected: beta
    near 1 while the parent's visits are few against k). All wins / no wins: pulled toward the
    AMAF mean until n outweighs an (minimum-MSE) or the parent's visits outweigh k (hand)."""
    if n <= 0:
        return aw / an if an > 0 else INF
    if an <= 0:
        return w / n + c * math.sqrt(_log_t(t) / n)
    beta = rave_beta(n, an, t, schedule, k, b)
    s = (1.0 - beta) * (w / n) + beta * (aw / an)
    if c != 0.0:
        s += c * math.sqrt(_log_t(t) / n)
    return s


@njit(cache=True, _nrt=False)
def kl_ucb_rave(w, n, t, aw, an, schedule, k, b, c):
    """KL-UCB+RAVE (Yang and Kaneko, eq. 5; seed 003_ec764aba0e4115cd.txt): Fuego's RAVE mix
    with the mean replaced by its KL-UCB upper bound: ``weight q_KL + (1 - weight) xa``,
    weight = 1 - beta (``rave_beta``), q_KL = ``kl_ucb(w, n, t, c)``.
    Unvisited: the AMAF mean alone (weight 0); with no AMAF sample either, +inf. n = 1: mostly
    the AMAF mean (as for ``rave``). All wins: q_KL = 1. No wins: q_KL = 1 - exp(-ln t / n)
    (c = 0)."""
    return kl_ucb_rave_lazy(w, n, t, aw, an, schedule, k, b, c, -INF)


@njit(cache=True, _nrt=False)
def kl_ucb_rave_lazy(w, n, t, aw, an, schedule, k, b, c, floor):
    """``kl_ucb_rave``, lazy below ``floor``: its q_KL is lazy below the value that would bring
    the mix to ``floor``."""
    if n <= 0:
        return aw / an if an > 0 else INF
    if an <= 0:
        return kl_ucb_lazy(w, n, t, c, floor)
    beta = rave_beta(n, an, t, schedule, k, b)
    xa = aw / an
    q_floor = (floor - beta * xa) / (1.0 - beta) if beta < 1.0 else -INF
    q = kl_ucb_lazy(w, n, t, c, q_floor)
    return (1.0 - beta) * q + beta * xa


@njit(cache=True, _nrt=False)
def ucb_v(w, n, t, c, zeta):
    """UCB-V (Audibert, Munos and Szepesvari 2007, as Fijalkowski and Burczaniuk 2020 give it, eq.
    3-4; seed 004_b7bcabfe495e5caa.txt):
    ``x + sqrt(2 s^2 e / n) + c 3 e / n`` with the exploration function ``e = zeta ln t`` and the
    empirical variance s^2 = x (1 - x). Unvisited: +inf. n = 1, all wins or no wins: s^2 = 0, so
    only the ``3 c e / n`` term explores."""
    if n <= 0:
        return INF
    x = w / n
    e = zeta * _log_t(t)
    return x + math.sqrt(2.0 * x * (1.0 - x) * e / n) + c * 3.0 * e / n


@njit(cache=True, _nrt=False)
def ucb_minimal(w, n, c1, c2):
    """UCB-Minimal (Maes, Wehenkel and Ernst 2011, as Fijalkowski and Burczaniuk 2020 give it, eq.
    2; seed 004_b7bcabfe495e5caa.txt):
    ``x + C1 / n^C2``; it ignores t. Unvisited: +inf. n = 1: x + C1. All wins: 1 + C1 / n^C2;
    no wins: C1 / n^C2."""
    if n <= 0:
        return INF
    scale = n**c2
    if scale <= 0.0:  # n^C2 underflows to 0 for a hugely negative C2: the limit of C1 / n^C2
        return w / n + (INF if c1 > 0.0 else -INF if c1 < 0.0 else 0.0)
    return w / n + c1 / scale


@njit(cache=True, _nrt=False)
def _standard_normal(rng):
    """Marsaglia's polar method."""
    while True:
        u = 2.0 * rand_float(rng) - 1.0
        v = 2.0 * rand_float(rng) - 1.0
        s = u * u + v * v
        if 0.0 < s < 1.0:
            return u * math.sqrt(-2.0 * math.log(s) / s)


@njit(cache=True, _nrt=False)
def sample_gamma(a, rng):
    """Gamma(a, 1) for a >= 1 (Marsaglia and Tsang 2000)."""
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = _standard_normal(rng)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = rand_float(rng)
        if u < 1.0 - 0.0331 * x * x * x * x or math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            return d * v


@njit(cache=True, _nrt=False)
def thompson(w, n, rng):
    """Thompson sampling: a draw from Beta(w + 1, n - w + 1), the posterior of the arm's mean
    under a uniform prior (Stogin et al. 2009, Theorem 1). Unvisited: a uniform draw. n = 1:
    Beta(2, 1) or Beta(1, 2). All wins: Beta(n + 1, 1), mean (n+1)/(n+2); no wins:
    Beta(1, n + 1)."""
    if n <= 0:
        return rand_float(rng)
    x = sample_gamma(w + 1.0, rng)
    y = sample_gamma(n - w + 1.0, rng)
    return x / (x + y)


@njit(cache=True, _nrt=False)
def score(rule, params, w, n, t, aw, an, rng):
    """The score of one arm under rule ``rule`` (an id above); higher is better, +inf first."""
    return score_lazy(rule, params, w, n, t, aw, an, rng, -INF)


@njit(cache=True, _nrt=False)
def score_lazy(rule, params, w, n, t, aw, an, rng, floor):
    """``score``, except that the KL rules may answer any value in [score, floor) when the score
    is below ``floor`` (``kl_upper_lazy``): enough for a caller with a score to beat."""
    if rule == UCB1:
        return ucb1(w, n, t, params[UCB1_C])
    if rule == UCB1_TUNED:
        return ucb1_tuned(w, n, t, params[UCB1_TUNED_GAMMA])
    if rule == BETA_UCB:
        return beta_ucb(w, n, t, params[BETA_UCB_GAMMA])
    if rule == BETA_MEAN_UCB:
        return beta_mean_ucb(w, n, t, params[BETA_MEAN_UCB_C], params[BETA_MEAN_UCB_BIAS])
    if rule == KL_UCB:
        return kl_ucb_lazy(w, n, t, params[KL_UCB_C], floor)
    if rule == RAVE:
        return rave(w, n, t, aw, an, params[RAVE_SCHEDULE], params[RAVE_K], params[RAVE_B], params[RAVE_C])
    if rule == KL_UCB_RAVE:
        return kl_ucb_rave_lazy(
            w, n, t, aw, an, params[RAVE_SCHEDULE], params[RAVE_K], params[RAVE_B], params[RAVE_C], floor
        )
    if rule == UCB_V:
        return ucb_v(w, n, t, params[UCB_V_C], params[UCB_V_ZETA])
    if rule == UCB_MINIMAL:
        return ucb_minimal(w, n, params[UCB_MINIMAL_C1], params[UCB_MINIMAL_C2])
    if rule == THOMPSON:
        return thompson(w, n, rng)
    return -INF


@njit(cache=True, _nrt=False)
def upper_bound(rule, params, w, n, t, aw, an):
    """A cheap upper bound on ``score`` for the rules whose exact score is costly, +inf otherwise.

    KL-UCB's q is at most ``kl_upper_bound(x, d)``, so ``select_best`` skips the KL inversion for
    a child whose bound is below the best score so far."""
    if n <= 0 or (rule != KL_UCB and rule != KL_UCB_RAVE):
        return INF
    c = params[KL_UCB_C] if rule == KL_UCB else params[RAVE_C]
    q = kl_upper_bound(w / n, _kl_budget(t, c) / n)
    if rule == KL_UCB or an <= 0:
        return q
    beta = rave_beta(n, an, t, params[RAVE_SCHEDULE], params[RAVE_K], params[RAVE_B])
    return (1.0 - beta) * q + beta * (aw / an)


@njit(cache=True, _nrt=False, inline="always")
def _arm(w, n, aw, an, i):
    """Arm ``i``'s statistics, as floats."""
    return np.float64(w[at(i)]), np.float64(n[at(i)]), np.float64(aw[at(i)]), np.float64(an[at(i)])


@njit(cache=True, _nrt=False, inline="always")
def _keep_best(s, i, best, best_score, ties, rng):
    """``(best, best_score, ties)`` after arm ``i`` scored ``s``: a higher score takes the lead, an
    equal one replaces the leader with probability 1 / ties (reservoir sampling over the tied arms:
    each is chosen with equal chance); a NaN never compares true, so it never leads."""
    if s > best_score:
        return i, s, 1
    if s == best_score:
        ties += 1
        if rand_below(rng, ties) == 0:
            return i, best_score, ties
    return best, best_score, ties


@njit(cache=True, _nrt=False)
def select_best(rule, params, w, n, t, aw, an, lo, hi, rng):
    """The index in [lo, hi) of the arm with the highest ``score``, ties broken uniformly at
    random (reservoir sampling over the tied arms). ``w, n, aw, an`` are arrays over arms.

    For the KL rules, whose exact score costs a root-finding, a first pass finds the arm with the
    highest cheap ``upper_bound`` and scores it exactly; the second pass scores exactly only the
    arms whose bound reaches that score; the others can neither win nor tie. BOUND_MARGIN absorbs
    rounding (an exact score may exceed its own bound by an ulp, and ties must not be lost). The
    arms scored are scored lazily (``score_lazy``) below the best score so far: a KL inversion
    stops as soon as its arm is known to lose.

    A NaN score never wins; when no arm scores above -inf (NaN parameters), an arm is drawn
    uniformly, so the caller always gets an index in [lo, hi)."""
    threshold = -INF
    if rule == KL_UCB or rule == KL_UCB_RAVE:
        top = lo
        top_bound = -INF
        for i in range(lo, hi):
            wi, ni, awi, ani = _arm(w, n, aw, an, i)
            b = upper_bound(rule, params, wi, ni, t, awi, ani)
            if b > top_bound:
                top = i
                top_bound = b
        wi, ni, awi, ani = _arm(w, n, aw, an, top)
        threshold = score(rule, params, wi, ni, t, awi, ani, rng)
    best = -1
    best_score = -INF
    ties = 0
    for i in range(lo, hi):
        wi, ni, awi, ani = _arm(w, n, aw, an, i)
        if threshold > -INF and upper_bound(rule, params, wi, ni, t, awi, ani) < threshold - BOUND_MARGIN:
            continue
        # lazy below the best so far: a score under it neither wins nor ties, so the choice and
        # the random draws of the ties are those of exact scores
        s = score_lazy(rule, params, wi, ni, t, awi, ani, rng, best_score - BOUND_MARGIN)
        best, best_score, ties = _keep_best(s, i, best, best_score, ties, rng)
    if best < 0:  # no score above -inf: every one NaN (a NaN parameter) or -inf
        best = lo + rand_below(rng, hi - lo)
    return best


@njit(cache=True, _nrt=False)
def select_wide(rule, params, w, n, t, aw, an, lo, hi, rng, c):
    """``select_best`` with ``c sqrt(ln t / n)`` added to every arm's score (an arm never visited
    first): a UCB1 exploration term (Auer, Cesa-Bianchi and Fischer 2002) over whatever the rule
    scores. The search asks it at the root of an analysis only, where a person wants the
    candidates compared, not the one move played (``kernels.search``: ROOT_EXPLORE); it scores
    every arm exactly, which at one node an iteration costs little. Ties are broken uniformly at
    random; a NaN score never wins."""
    lt = _log_t(t)
    best = -1
    best_score = -INF
    ties = 0
    for i in range(lo, hi):
        wi, ni, awi, ani = _arm(w, n, aw, an, i)
        s = score(rule, params, wi, ni, t, awi, ani, rng)
        s = s + c * math.sqrt(lt / ni) if ni > 0 else INF
        best, best_score, ties = _keep_best(s, i, best, best_score, ties, rng)
    if best < 0:  # every score NaN
        best = lo + rand_below(rng, hi - lo)
    return best
