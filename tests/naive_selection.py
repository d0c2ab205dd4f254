"""Slow, obviously correct selection rules in plain Python ``math``: the reference the kernels in
``goengine.kernels.select`` are tested against (``tests/test_selection.py``).

Written from the papers (seeds 000 to 004: Stogin et al. 2009; the computer-go list, 2008; Abel
2024 with Auer et al. 2002; Yang and Kaneko; Fijalkowski and Burczaniuk 2020, listed in full in
``goengine.kernels.select``'s docstring) and the kernel docstrings, apart from ``goengine``,
which this module must never import. Where a paper gives two equivalent forms of a formula, the
one the kernel does *not* use is taken here (UCB1-Tuned in the form of eq. 1.3), so that an
algebra slip in either shows up. Nothing here is fast: KL-UCB inverts the Bernoulli KL by plain
bisection.

Every rule scores one arm from ``w`` (reward sum: 1 a win, 1/2 a draw), ``n`` (visits) and ``t``
(the parent's visits; ``ln t`` is taken of ``max(t, 1)``); the RAVE rules also take ``aw``,
``an`` (AMAF reward sum and count). An unvisited arm scores ``math.inf`` unless the rule says
otherwise.
"""

import math

INF = math.inf
SQRT_2 = math.sqrt(2.0)  # UCB1's C (Auer et al. 2002)
SQRT_0_2 = math.sqrt(0.2)  # seed 001: exp_param = sqrt(0.2)


def log_t(t):
    """ln t, with t < 1 counted as 1 (so ln t >= 0)."""
    return math.log(max(t, 1.0))


def ucb1(w, n, t, c=SQRT_2):
    """UCB1, seed 002 (slide 17): v_i + C sqrt(ln N / n_i); n_i = 0 gives infinity (slide 20)."""
    if n == 0:
        return INF
    return w / n + c * math.sqrt(log_t(t) / n)


def ucb1_tuned(w, n, t, gamma=1.0):
    """UCB1-Tuned, seed 000 eq. 1.3 (the rewritten form of eq. 1.1-1.2) with gamma of eq. 3.1:
    R/P + gamma sqrt(ln P_T min(1/(4P), V')), V' = R(P-R)/P^3 + sqrt(2 ln P_T / P) / P."""
    if n == 0:
        return INF
    lt = log_t(t)
    v = w * (n - w) / n**3 + math.sqrt(2.0 * lt / n) / n
    return w / n + gamma * math.sqrt(lt * min(1.0 / (4.0 * n), v))


def beta_variance(a, b):
    """Variance of Beta(a, b): ab / ((a+b)^2 (a+b+1)) (seed 000, section 2.2)."""
    return a * b / ((a + b) ** 2 * (a + b + 1.0))


def beta_ucb(w, n, t, gamma=1.0):
    """Beta-UCB, seed 000 eq. 2.1-2.2, with gamma and the extra factor 1/2 of section 3.1:
    R/P + (gamma/2) sqrt(ln P_T V), V = Var Beta(R+1, P-R+1) + sqrt(2 ln P_T / P) / P; no min."""
    if n == 0:
        return INF
    lt = log_t(t)
    v = beta_variance(w + 1.0, n - w + 1.0) + math.sqrt(2.0 * lt / n) / n
    return w / n + gamma / 2.0 * math.sqrt(lt * v)


def beta_mean_ucb(w, n, t, c=SQRT_0_2, bias=True):
    """The beta-mean UCB of seed 001: rate + C sqrt(ln t * rate2 / playouts), with
    rate2 = (W+1)/(W+L+2). With the one-win-one-loss initial bias (``bias``), W and L each start at 1,
    and then rate2 is just the (biased) winning rate, as the post says."""
    wins, losses = w, n - w
    if bias:
        wins, losses = wins + 1.0, losses + 1.0
        playouts = wins + losses
        rate = wins / playouts
        rate2 = rate
    else:
        playouts = wins + losses
        if playouts == 0:
            return INF
        rate = wins / playouts
        rate2 = (wins + 1.0) / (wins + losses + 2.0)
    return rate + c * math.sqrt(log_t(t) * rate2 / playouts)


def bernoulli_kl(p, q):
    """KL(Bernoulli(p) || Bernoulli(q)) for 0 <= p <= 1, 0 < q < 1, with 0 log 0 = 0."""
    total = 0.0
    if p > 0.0:
        total += p * math.log(p / q)
    if p < 1.0:
        total += (1.0 - p) * math.log((1.0 - p) / (1.0 - q))
    return total


def kl_upper(p, d, tol=1e-13):
    """max {q in [p, 1] : KL(p, q) <= d}, by bisection of [p, 1] down to a bracket of width ``tol``
    (``tol=0``: until the bracket cannot shrink in floating point). KL(p, .) increases on [p, 1)
    and tends to infinity at 1 (for p < 1), so the set is an interval [p, q*]."""
    if p >= 1.0:
        return 1.0
    if d <= 0.0:
        return p
    lo, hi = p, 1.0  # KL(p, lo) <= d < KL(p, hi) throughout
    while hi - lo > tol:
        mid = (lo + hi) / 2.0
        if mid <= lo or mid >= hi:
            break
        if bernoulli_kl(p, mid) <= d:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def kl_ucb(w, n, t, c=0.0):
    """KL-UCB, seed 003 eq. 3 (Garivier and Cappe 2011): max {q : n KL(x, q) <= ln t + c ln ln t}.
    The c ln ln t term is only added for ln t > 1 (t > e), as the kernel does; below e it would be
    negative (the kernel docstring does not say so)."""
    if n == 0:
        return INF
    lt = log_t(t)
    bound = lt + (c * math.log(lt) if c != 0.0 and lt > 1.0 else 0.0)
    return kl_upper(w / n, bound / n)


def rave_beta_hand(t, k):
    """Hand-selected RAVE schedule (Gelly and Silver 2011, section 5.1): sqrt(k / (3 N(s) + k)),
    N(s) = t the visits of the node whose children are chosen."""
    return math.sqrt(k / (3.0 * t + k))


def rave_beta_mse(n, an, b):
    """Minimum-MSE RAVE schedule (Gelly and Silver 2011): an / (n + an + 4 n an b^2)."""
    return an / (n + an + 4.0 * n * an * b * b)


def rave_beta(n, an, t, schedule, k, b):
    if schedule == "hand":
        return rave_beta_hand(t, k)
    if schedule == "mse":
        return rave_beta_mse(n, an, b)
    raise ValueError(schedule)


def rave(w, n, t, aw, an, schedule="mse", k=1000.0, b=0.01, c=0.0, distance=0.0):
    """MC-RAVE: (1 - beta) x + beta xa + C sqrt(ln t / n). Unvisited: the AMAF mean if there is
    one (no exploration term), else infinity; no AMAF sample: plain UCB1 with C. (``distance``
    weights the AMAF samples as they are backed up, ``kernels.search.backup``: not the score.)"""
    if n == 0:
        return aw / an if an > 0 else INF
    if an == 0:
        return w / n + c * math.sqrt(log_t(t) / n)
    beta = rave_beta(n, an, t, schedule, k, b)
    return (1.0 - beta) * (w / n) + beta * (aw / an) + c * math.sqrt(log_t(t) / n)


def kl_ucb_rave(w, n, t, aw, an, schedule="mse", k=1000.0, b=0.01, c=0.0, distance=0.0):
    """KL-UCB+RAVE, seed 003 eq. 5: weight q_KL + (1 - weight) xa with weight = 1 - beta (Fuego's
    mix, the mean replaced by KL-UCB's q). Unvisited: the AMAF mean, else infinity; no AMAF
    sample: q_KL alone."""
    if n == 0:
        return aw / an if an > 0 else INF
    q = kl_ucb(w, n, t, c)
    if an == 0:
        return q
    weight = 1.0 - rave_beta(n, an, t, schedule, k, b)
    return weight * q + (1.0 - weight) * (aw / an)


def ucb_v(w, n, t, c=1.0, zeta=1.0):
    """UCB-V, seed 004 eq. 3-4: x + sqrt(2 s^2 e / n) + c 3 e / n, e = zeta ln t, s^2 the
    empirical variance of 0/1 rewards: mean of squares (= x) minus the squared mean."""
    if n == 0:
        return INF
    x = w / n
    variance = x - x * x
    e = zeta * log_t(t)
    return x + math.sqrt(2.0 * variance * e / n) + c * 3.0 * e / n


def ucb_minimal(w, n, c1=2.5, c2=1.0):
    """UCB-Minimal, seed 004 eq. 2: w/n + C1 / n^C2 (no parent count)."""
    if n == 0:
        return INF
    return w / n + c1 / n**c2


def score(name, w, n, t, aw=0.0, an=0.0, **params):
    """The score rule ``name`` (a registry name) gives one arm, parameters by their registry names
    (``bias`` as 0/1, ``schedule`` as ``"hand"``/``"mse"``)."""
    if name == "ucb1":
        return ucb1(w, n, t, **params)
    if name == "ucb1-tuned":
        return ucb1_tuned(w, n, t, **params)
    if name == "beta-ucb":
        return beta_ucb(w, n, t, **params)
    if name == "beta-mean-ucb":
        if "bias" in params:
            params["bias"] = params["bias"] != 0
        return beta_mean_ucb(w, n, t, **params)
    if name == "kl-ucb":
        return kl_ucb(w, n, t, **params)
    if name == "rave":
        return rave(w, n, t, aw, an, **params)
    if name == "kl-ucb-rave":
        return kl_ucb_rave(w, n, t, aw, an, **params)
    if name == "ucb-v":
        return ucb_v(w, n, t, **params)
    if name == "ucb-minimal":
        return ucb_minimal(w, n, **params)
    raise ValueError(f"no reference for rule {name!r}")


DETERMINISTIC = (
    "ucb1",
    "ucb1-tuned",
    "beta-ucb",
    "beta-mean-ucb",
    "kl-ucb",
    "rave",
    "kl-ucb-rave",
    "ucb-v",
    "ucb-minimal",
)
"""The rules with a reference here (Thompson sampling is tested by its distribution instead)."""
