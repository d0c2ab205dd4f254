"""Tests of the selection rules (``goengine.kernels.select``) and their registry (``goengine.selection``).

Reading guide: the seed 002 worked example first, then hand-computed values (arithmetic in the
comments), then every rule against the slow reference ``tests/naive_selection.py`` (grid and
hypothesis), the edge cases the docstrings state, the KL inversion, ``select_best`` (argmax, ties,
unvisited arms, KL pruning), Thompson sampling, the registry, and the one-signature promise.
Every random test runs from a fixed seed, so its tolerance is deterministic.
"""

import math
import os
import subprocess
import sys
from pathlib import Path

import naive_selection as naive  # tests/naive_selection.py, the slow reference rules
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goengine import selection
from goengine.kernels import select as ks
from goengine.kernels.rng import new_state, rand_below

SQRT2 = math.sqrt(2.0)
KL_RULES = ("kl-ucb", "kl-ucb-rave")
AMAF_RULES = ("rave", "kl-ucb-rave")


def tol(name):
    """Comparison with the reference: rel 1e-9, or abs 1e-10 where a KL inversion is involved."""
    return {"abs": 1e-10} if name in KL_RULES else {"rel": 1e-9}


def same(got, want, name):
    if math.isinf(want) or math.isinf(got):
        return got == want
    return got == pytest.approx(want, **tol(name))


# --- seed 002: the UCB1 worked example, C = 2 ------------------------------------------------------

# (slide, node, reward sum t_i, visits n_i, parent visits N, value as printed, decimals printed)
SEED_002_SLIDES = [
    ("26", "S1", 20, 2, 4, 11.665, 3),
    ("26", "S2", 24, 2, 4, 13.665, 3),
    ("27", "S5", 14, 1, 4, 16.355, 3),
    ("28", "S1", 20, 2, 4, 11.665, 3),
    ("33", "S1", 20, 2, 5, 11.79, 2),
    ("33", "S2", 29, 3, 5, 11.13, 2),
    ("38", "S1", 23, 3, 6, 9.21, 2),
    ("38", "S2", 29, 3, 6, 11.21, 2),
    ("39", "S5", 14, 1, 6, 16.68, 2),
]


@pytest.mark.parametrize(("slide", "node", "wins", "visits", "parent", "printed", "decimals"), SEED_002_SLIDES)
def test_ucb1_reproduces_seed_002_worked_example(slide, node, wins, visits, parent, printed, decimals):
    got = selection.score("ucb1", wins=wins, visits=visits, parent_visits=parent, c=2.0)
    assert round(got, decimals) == printed, f"slide {slide} {node}: {got}"


def test_ucb1_seed_002_slide_39_s6_is_printed_truncated():
    # S6 = 5/1 + 2 sqrt(ln 6) = 5 + 2 * 1.338566 = 7.677132: the slide prints 7.67, a truncation
    # (every other value on the slides is rounded, e.g. S5 = 16.677 -> 16.68 on the same slide).
    got = selection.score("ucb1", wins=5, visits=1, parent_visits=6, c=2.0)
    assert got == pytest.approx(5.0 + 2.0 * math.sqrt(math.log(6.0)), rel=1e-12)
    assert math.floor(got * 100) / 100 == 7.67
    assert round(got, 2) == 7.68


@pytest.mark.parametrize(("slide", "parent"), [("27 S6", 4), ("33 S4", 5)])
def test_ucb1_seed_002_unvisited_node_is_infinite(slide, parent):
    assert selection.score("ucb1", wins=0, visits=0, parent_visits=parent, c=2.0) == math.inf, slide


# --- hand-computed values --------------------------------------------------------------------------

T_KL = (5.0 / 3.0) ** 10  # ln T_KL / 10 = ln(5/3) = KL(1/2, 9/10), so KL-UCB(5 wins of 10) = 0.9

HAND_VALUES = [
    # ln 50 = 3.912023005; ln 50 / 10 = 0.3912023005; sqrt = 0.6254616699
    # 0.3 + 1.4142135624 * 0.6254616699 = 0.3 + 0.8845363763 = 1.1845363763
    ("ucb1", dict(wins=3, visits=10, parent_visits=50, c=SQRT2), 1.1845363763),
    # V = x - x^2 + sqrt(2 ln 50 / 10) = 0.3 - 0.09 + 0.8845363763 = 1.0945363763 > 1/4, so min = 1/4;
    # 0.3 + sqrt(0.3912023005 * 0.25) = 0.3 + sqrt(0.0978005751) = 0.3 + 0.3127308350 = 0.6127308350
    ("ucb1-tuned", dict(wins=3, visits=10, parent_visits=50, gamma=1.0), 0.6127308350),
    # ln 1000 = 6.907755279; V = 0.1 - 0.01 + sqrt(2 * 0.006907755279) = 0.09 + 0.1175394000
    # = 0.2075394000 < 1/4; 0.1 + sqrt(0.006907755279 * 0.2075394000) = 0.1 + sqrt(0.001433631386)
    # = 0.1 + 0.0378633251 = 0.1378633251
    ("ucb1-tuned", dict(wins=100, visits=1000, parent_visits=1000, gamma=1.0), 0.1378633251),
    # a = 4, b = 8: Var = 32 / (144 * 13) = 0.0170940171; sqrt(2 ln 50 / 10) / 10 = 0.0884536376;
    # V = 0.1055476547; ln 50 * V = 0.4129048535; sqrt = 0.6425767296; * gamma/2 = 0.3212883648;
    # + 0.3 = 0.6212883648
    ("beta-ucb", dict(wins=3, visits=10, parent_visits=50, gamma=1.0), 0.6212883648),
    # same with gamma = 2: 0.3 + 0.6425767296 = 0.9425767296
    ("beta-ucb", dict(wins=3, visits=10, parent_visits=50, gamma=2.0), 0.9425767296),
    # no prior: m = (3+1)/(10+2) = 1/3; ln 50 * m / 10 = 0.1304007668; sqrt = 0.3611104635;
    # * sqrt(0.2) = 0.4472135955 * 0.3611104635 = 0.1614935088; + 0.3 = 0.4614935088
    ("beta-mean-ucb", dict(wins=3, visits=10, parent_visits=50, c=math.sqrt(0.2), bias=0), 0.4614935088),
    # prior: W = 4, L = 8, 12 playouts, rate = m = 1/3; ln 50 / 3 / 12 = 0.1086673057;
    # sqrt = 0.3296472443; * 0.4472135955 = 0.1474227294; + 1/3 = 0.4807560627
    ("beta-mean-ucb", dict(wins=3, visits=10, parent_visits=50, c=math.sqrt(0.2), bias=1), 0.4807560627),
    # KL(1/2, 9/10) = 1/2 ln(5/9) + 1/2 ln(5) = 1/2 ln(25/9) = ln(5/3) = ln(T_KL) / 10, so q = 0.9
    ("kl-ucb", dict(wins=5, visits=10, parent_visits=T_KL), 0.9),
    # KL(0, q) = -ln(1 - q) = ln 4 / 1, so q = 3/4
    ("kl-ucb", dict(wins=0, visits=1, parent_visits=4), 0.75),
    # no wins: q = 1 - exp(-ln 50 / 10) = 1 - 50^-0.1 = 1 - 0.6762433378 = 0.3237566622
    ("kl-ucb", dict(wins=0, visits=10, parent_visits=50), 0.3237566622),
    # mse: beta = 100 / (10 + 100 + 4 * 10 * 100 * 0.01^2) = 100 / 110.4;
    # (10.4 * 0.3 + 100 * 0.6) / 110.4 = 63.12 / 110.4 = 0.5717391304
    ("rave", dict(wins=3, visits=10, parent_visits=50, amaf_wins=60, amaf_visits=100, b=0.01), 0.5717391304),
    # hand (Gelly and Silver: N(s) is the parent's visits, 50): beta = sqrt(1000 / (150 + 1000))
    # = 0.9325048082; 0.3 + beta * (0.6 - 0.3) = 0.5797514425
    (
        "rave",
        dict(wins=3, visits=10, parent_visits=50, amaf_wins=60, amaf_visits=100, schedule="hand", k=1000),
        0.5797514425,
    ),
    # hand, parent visited 1000 times: beta = sqrt(1000 / (3000 + 1000)) = 1/2, whatever the
    # child's own visits: 0.3 + (0.6 - 0.3) / 2 = 0.45 (the child form, sqrt(1000/1030), gives 0.5956)
    (
        "rave",
        dict(wins=3, visits=10, parent_visits=1000, amaf_wins=60, amaf_visits=100, schedule="hand", k=1000),
        0.45,
    ),
    # q_KL = 0.9 (as above), weight = 1 - 100/110.4 = 10.4/110.4:
    # (10.4 * 0.9 + 100 * 0.6) / 110.4 = 69.36 / 110.4 = 0.6282608696
    ("kl-ucb-rave", dict(wins=5, visits=10, parent_visits=T_KL, amaf_wins=60, amaf_visits=100), 0.6282608696),
    # e = ln 50 = 3.912023005; s^2 = 0.3 * 0.7 = 0.21; sqrt(2 * 0.21 * e / 10) = sqrt(0.1643049662)
    # = 0.4053454900; 3 e / 10 = 1.1736069016; 0.3 + 0.4053454900 + 1.1736069016 = 1.8789523916
    ("ucb-v", dict(wins=3, visits=10, parent_visits=50, c=1.0, zeta=1.0), 1.8789523916),
    # zeta = 0.5: e = 1.9560115027; sqrt(2 * 0.21 * e / 10) = sqrt(0.0821524831) = 0.2866225447;
    # c 3 e / 10 = 1.4 * 0.5868034508 = 0.8215248311; 0.3 + 0.2866225447 + 0.8215248311 = 1.4081473758
    ("ucb-v", dict(wins=3, visits=10, parent_visits=50, c=1.4, zeta=0.5), 1.4081473758),
    # 0.3 + 2.5 / 10 = 0.55
    ("ucb-minimal", dict(wins=3, visits=10, parent_visits=50, c1=2.5, c2=1.0), 0.55),
    # 10^1.8 = 63.0957344480; 8.4 / 63.0957344480 = 0.1331310282; + 0.3 = 0.4331310282
    ("ucb-minimal", dict(wins=3, visits=10, parent_visits=50, c1=8.4, c2=1.8), 0.4331310282),
]


def test_ucb_minimal_with_a_hugely_negative_c2_takes_the_limit():
    """10^-1e308 underflows to 0: C1 / n^C2 is then +inf for C1 > 0, -inf below, 0 at C1 = 0 (it
    raised ZeroDivisionError inside a search, found by goengine-set c2 -1e308)."""
    args = dict(wins=3, visits=10, parent_visits=50, c2=-1e308)
    assert selection.score("ucb-minimal", c1=2.5, **args) == math.inf
    assert selection.score("ucb-minimal", c1=-2.5, **args) == -math.inf
    assert selection.score("ucb-minimal", c1=0.0, **args) == pytest.approx(0.3)
    assert selection.score("ucb-minimal", c1=2.5, wins=1, visits=1, parent_visits=5, c2=-1e308) == 3.5  # 1^C2 = 1


@pytest.mark.parametrize(("name", "args", "expected"), HAND_VALUES)
def test_rule_matches_hand_computation(name, args, expected):
    assert selection.score(name, **args) == pytest.approx(expected, abs=2e-10)


def test_ucb1_with_c_one_over_sqrt2_is_seed_003_eq_1():
    # seed 003 eq. 1: S/N + sqrt(log t / (2 N)), i.e. C = sqrt(1/2)
    for w, n, t in [(3, 10, 50), (0, 1, 2), (70, 99, 1000)]:
        expected = w / n + math.sqrt(math.log(t) / (2 * n))
        assert selection.score("ucb1", w, n, t, c=math.sqrt(0.5)) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("bias", "w", "n", "ucb1_w", "ucb1_n"), [(0, 5, 10, 5, 10), (1, 5, 10, 6, 12)])
def test_beta_mean_ucb_at_rate_one_half_equals_ucb1_with_half_the_constant_squared(bias, w, n, ucb1_w, ucb1_n):
    # seed 001: exp_param sqrt(0.2) is "doubled inside the square root so that when you have an
    # average child-win-rate-2 value of 0.5, the formula returns the same value as before" (sqrt(0.1))
    got = selection.score("beta-mean-ucb", w, n, 77, c=math.sqrt(0.2), bias=bias)
    assert got == pytest.approx(selection.score("ucb1", ucb1_w, ucb1_n, 77, c=math.sqrt(0.1)), rel=1e-12)


# --- every rule against the slow reference ---------------------------------------------------------

PARAM_VARIANTS = {
    "ucb1": [{}, {"c": 2.0}, {"c": 0.0}],
    "ucb1-tuned": [{}, {"gamma": 0.5}, {"gamma": 3.0}],
    "beta-ucb": [{}, {"gamma": 0.5}, {"gamma": 3.0}],
    "beta-mean-ucb": [{}, {"bias": 0.0}, {"c": 1.0, "bias": 1.0}],
    "kl-ucb": [{}, {"c": 3.0}],
    "rave": [{}, {"schedule": "hand"}, {"schedule": "hand", "k": 50.0, "c": 0.3}, {"b": 0.3, "c": 0.5}],
    "kl-ucb-rave": [{}, {"schedule": "hand", "k": 50.0}, {"c": 3.0, "b": 0.1}],
    "ucb-v": [{}, {"c": 1.4, "zeta": 0.5}, {"c": 1.68, "zeta": 0.54}],
    "ucb-minimal": [{}, {"c1": 8.4, "c2": 1.8}, {"c1": 11.0, "c2": 1.0}],
}
RULE_VARIANTS = [(name, params) for name, variants in PARAM_VARIANTS.items() for params in variants]


def reference_params(name, params):
    """Registry defaults overridden by ``params``, as the reference takes them."""
    values = selection.get(name).defaults
    values.update(params)
    if "schedule" in values and not isinstance(values["schedule"], str):
        values["schedule"] = "hand" if values["schedule"] == ks.SCHEDULE_HAND else "mse"
    return values


def grid():
    """(w, n, t) with w <= n <= t: few and many visits, no/one/some/all wins, half-point draws."""
    for n in (1, 2, 3, 7, 10, 50, 333, 10_000):
        for w in sorted({0.0, 0.5, 1.0, round(2 * n / 3) / 2, n - 0.5, float(n)}):
            if w > n:
                continue
            for t in (n, n + 1, 2 * n + 3, 100 * n, 10**7):
                yield w, n, t


def amaf_grid():
    for an in (0, 1, 20, 5000):
        for aw in sorted({0.0, 0.4 * an, float(an)}):
            yield aw, an


@pytest.mark.parametrize(("name", "params"), RULE_VARIANTS)
def test_rule_matches_reference_on_grid(name, params):
    ref = reference_params(name, params)
    amaf = list(amaf_grid()) if name in AMAF_RULES else [(0.0, 0)]
    bad = []
    for w, n, t in grid():
        for aw, an in amaf:
            got = selection.score(name, w, n, t, aw, an, **params)
            want = naive.score(name, w, n, t, aw, an, **ref)
            if not same(got, want, name):
                bad.append((w, n, t, aw, an, got, want))
    assert not bad, f"{len(bad)} mismatches (w, n, t, aw, an, kernel, reference), e.g. {bad[:5]}"


@st.composite
def arm_stats(draw):
    """(w, n, t, aw, an) with w <= n <= t, aw <= an, rewards in half points (draws)."""
    n = draw(st.integers(0, 10**6))
    w = draw(st.integers(0, 2 * n)) / 2
    t = n + draw(st.integers(0, 10**7))
    an = draw(st.integers(0, 10**6))
    aw = draw(st.integers(0, 2 * an)) / 2
    return w, n, t, aw, an


POSITIVE = st.floats(0.0, 5.0, allow_nan=False)
PARAM_STRATEGIES = {
    "ucb1": st.fixed_dictionaries({"c": POSITIVE}),
    "ucb1-tuned": st.fixed_dictionaries({"gamma": POSITIVE}),
    "beta-ucb": st.fixed_dictionaries({"gamma": POSITIVE}),
    "beta-mean-ucb": st.fixed_dictionaries({"c": POSITIVE, "bias": st.sampled_from([0.0, 1.0])}),
    "kl-ucb": st.fixed_dictionaries({"c": st.sampled_from([0.0, 3.0])}),
    "rave": st.fixed_dictionaries(
        {
            "schedule": st.sampled_from(["hand", "mse"]),
            "k": st.floats(1.0, 1e5),
            "b": st.floats(0.0, 1.0),
            "c": POSITIVE,
        }
    ),
    "kl-ucb-rave": st.fixed_dictionaries(
        {
            "schedule": st.sampled_from(["hand", "mse"]),
            "k": st.floats(1.0, 1e5),
            "b": st.floats(0.0, 1.0),
            "c": st.sampled_from([0.0, 3.0]),
        }
    ),
    "ucb-v": st.fixed_dictionaries({"c": POSITIVE, "zeta": POSITIVE}),
    "ucb-minimal": st.fixed_dictionaries({"c1": POSITIVE, "c2": st.floats(0.0, 3.0)}),
}


@pytest.mark.parametrize("name", naive.DETERMINISTIC)
@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=st.data())
def test_rule_matches_reference_on_random_stats(name, data):
    w, n, t, aw, an = data.draw(arm_stats())
    params = data.draw(PARAM_STRATEGIES[name])
    got = selection.score(name, w, n, t, aw, an, **params)
    want = naive.score(name, w, n, t, aw, an, **reference_params(name, params))
    assert same(got, want, name), (got, want)


# --- edge cases the docstrings state ---------------------------------------------------------------

INFINITE_WHEN_UNVISITED = ["ucb1", "ucb1-tuned", "beta-ucb", "kl-ucb", "rave", "kl-ucb-rave", "ucb-v", "ucb-minimal"]


@pytest.mark.parametrize("name", INFINITE_WHEN_UNVISITED)
@pytest.mark.parametrize("parent", [0, 1, 57])
def test_unvisited_arm_scores_infinity(name, parent):
    assert selection.score(name, wins=0, visits=0, parent_visits=parent) == math.inf


def test_beta_mean_ucb_unvisited_arm_is_infinite_without_the_initial_bias():
    assert selection.score("beta-mean-ucb", wins=0, visits=0, parent_visits=57, bias=0) == math.inf


def test_beta_mean_ucb_initial_bias_makes_unvisited_arm_finite():
    # one win and one loss: 1/2 + C sqrt(ln t * (1/2) / 2) = 1/2 + C sqrt(ln t / 4)
    got = selection.score("beta-mean-ucb", wins=0, visits=0, parent_visits=57, c=0.7, bias=1)
    assert got == pytest.approx(0.5 + 0.7 * math.sqrt(math.log(57) / 4), rel=1e-12)


@pytest.mark.parametrize("name", AMAF_RULES)
@pytest.mark.parametrize("c", [0.0, 2.0])
def test_rave_rules_score_unvisited_arm_by_amaf_mean(name, c):
    # the AMAF mean alone: no exploration term even when c > 0
    got = selection.score(name, wins=0, visits=0, parent_visits=100, amaf_wins=7.5, amaf_visits=20, c=c)
    assert got == 7.5 / 20


@pytest.mark.parametrize("name", AMAF_RULES)
def test_rave_rules_without_amaf_sample_fall_back_to_their_bandit(name):
    w, n, t = 3.0, 10.0, 50.0
    for schedule in ("hand", "mse"):
        got = selection.score(name, w, n, t, 0.0, 0.0, schedule=schedule, c=0.4)
        if name == "rave":
            assert got == pytest.approx(0.3 + 0.4 * math.sqrt(math.log(50) / 10), rel=1e-12)
        else:
            assert got == pytest.approx(selection.score("kl-ucb", w, n, t, c=0.4), rel=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_thompson_unvisited_arm_draws_from_unit_interval(seed):
    assert 0.0 <= selection.score("thompson", wins=0, visits=0, parent_visits=10, seed=seed) < 1.0


def one_visit_expectations(lt):
    """(rule, params, score after one loss, score after one win) for one visit, ln t = lt."""
    tuned = math.sqrt(lt * min(0.25, math.sqrt(2 * lt)))  # x - x^2 = 0 for a win and a loss
    beta = 0.5 * math.sqrt(lt * (2 / 36 + math.sqrt(2 * lt)))  # Var Beta(2,1) = Var Beta(1,2) = 2/36
    return [
        ("ucb1", {"c": 1.5}, 1.5 * math.sqrt(lt), 1 + 1.5 * math.sqrt(lt)),
        ("ucb1-tuned", {"gamma": 1.0}, tuned, 1 + tuned),
        ("beta-ucb", {"gamma": 1.0}, beta, 1 + beta),
        # prior: a loss is W=1, L=2, a win W=2, L=1 (3 playouts)
        ("beta-mean-ucb", {"c": 0.5}, 1 / 3 + 0.5 * math.sqrt(lt / 9), 2 / 3 + 0.5 * math.sqrt(lt * 2 / 9)),
        # no prior: m = 1/3 after a loss, 2/3 after a win
        ("beta-mean-ucb", {"c": 0.5, "bias": 0}, 0.5 * math.sqrt(lt / 3), 1 + 0.5 * math.sqrt(lt * 2 / 3)),
        ("kl-ucb", {}, -math.expm1(-lt), 1.0),  # KL(0, q) = -ln(1 - q) = ln t
        ("ucb-v", {"c": 1.0, "zeta": 1.0}, 3 * lt, 1 + 3 * lt),  # s^2 = 0
        ("ucb-minimal", {"c1": 2.5, "c2": 1.7}, 2.5, 3.5),  # x + C1
    ]


@pytest.mark.parametrize("index", range(8))
def test_one_visit_scores_follow_docstrings(index):
    t = 20
    name, params, after_loss, after_win = one_visit_expectations(math.log(t))[index]
    assert selection.score(name, 0, 1, t, **params) == pytest.approx(after_loss, rel=1e-12), name
    assert selection.score(name, 1, 1, t, **params) == pytest.approx(after_win, rel=1e-12), name


def test_kl_ucb_one_draw_solves_kl_equal_ln_t():
    q = selection.score("kl-ucb", 0.5, 1, 20)
    assert 0.5 < q < 1.0
    assert naive.bernoulli_kl(0.5, q) == pytest.approx(math.log(20), rel=1e-9)


@pytest.mark.parametrize("name", AMAF_RULES)
def test_rave_rules_after_one_visit_are_mostly_the_amaf_mean(name):
    # beta = 100 / (1 + 100 + 4 * 100 * 1e-4) = 0.98972; the score is within 1.03 % of the gap
    got = selection.score(name, 1, 1, 20, 50, 100)
    assert abs(got - 0.5) < 0.011


def all_wins_expectations(n, lt):
    return [
        ("ucb1", {"c": 1.5}, 1 + 1.5 * math.sqrt(lt / n)),
        ("ucb1-tuned", {}, 1 + math.sqrt(lt / n * min(0.25, math.sqrt(2 * lt / n)))),
        ("beta-ucb", {}, 1 + 0.5 * math.sqrt(lt * ((n + 1) / ((n + 2) ** 2 * (n + 3)) + math.sqrt(2 * lt / n) / n))),
        ("beta-mean-ucb", {"c": 0.5, "bias": 0}, 1 + 0.5 * math.sqrt(lt * (n + 1) / (n + 2) / n)),
        ("beta-mean-ucb", {"c": 0.5}, (n + 1) / (n + 2) + 0.5 * math.sqrt(lt * (n + 1) / (n + 2) / (n + 2))),
        ("kl-ucb", {}, 1.0),
        ("ucb-v", {"c": 1.2}, 1 + 1.2 * 3 * lt / n),
        ("ucb-minimal", {"c1": 2.5, "c2": 1.7}, 1 + 2.5 / n**1.7),
    ]


def no_wins_expectations(n, lt):
    return [
        ("ucb1", {"c": 1.5}, 1.5 * math.sqrt(lt / n)),
        ("ucb1-tuned", {}, math.sqrt(lt / n * min(0.25, math.sqrt(2 * lt / n)))),
        ("beta-ucb", {}, 0.5 * math.sqrt(lt * ((n + 1) / ((n + 2) ** 2 * (n + 3)) + math.sqrt(2 * lt / n) / n))),
        # the exploration term shrinks like 1/n: C sqrt(ln t / ((n + 2) n))
        ("beta-mean-ucb", {"c": 0.5, "bias": 0}, 0.5 * math.sqrt(lt / ((n + 2) * n))),
        ("beta-mean-ucb", {"c": 0.5}, 1 / (n + 2) + 0.5 * math.sqrt(lt / (n + 2) ** 2)),
        ("kl-ucb", {}, -math.expm1(-lt / n)),
        ("ucb-v", {"c": 1.2}, 1.2 * 3 * lt / n),
        ("ucb-minimal", {"c1": 2.5, "c2": 1.7}, 2.5 / n**1.7),
    ]


@pytest.mark.parametrize("n", [2, 40, 5000])
@pytest.mark.parametrize("index", range(8))
def test_all_wins_scores_follow_docstrings(n, index):
    t = 3 * n + 7
    name, params, expected = all_wins_expectations(n, math.log(t))[index]
    assert selection.score(name, n, n, t, **params) == pytest.approx(expected, rel=1e-12), name


@pytest.mark.parametrize("n", [2, 40, 5000])
@pytest.mark.parametrize("index", range(8))
def test_no_wins_scores_follow_docstrings(n, index):
    t = 3 * n + 7
    name, params, expected = no_wins_expectations(n, math.log(t))[index]
    assert selection.score(name, 0, n, t, **params) == pytest.approx(expected, rel=1e-12), name


@pytest.mark.parametrize("n", [1, 7, 300, 10**6])
@pytest.mark.parametrize("t", [1, 2, 50, 10**7])
def test_kl_ucb_without_wins_is_one_minus_exp_of_minus_ln_t_over_n(n, t):
    assert selection.score("kl-ucb", 0, n, max(t, n)) == pytest.approx(-math.expm1(-math.log(max(t, n)) / n), abs=1e-15)


def test_kl_ucb_rave_mixes_the_kl_bound_with_the_amaf_mean():
    # all wins: weight * 1 + beta * xa; no wins: weight * (1 - exp(-ln t / n)) + beta * xa
    n, t, aw, an = 40, 200, 30, 90
    beta = an / (n + an + 4 * n * an * 0.01**2)
    assert selection.score("kl-ucb-rave", n, n, t, aw, an) == pytest.approx((1 - beta) + beta * aw / an, rel=1e-12)
    q = -math.expm1(-math.log(t) / n)
    assert selection.score("kl-ucb-rave", 0, n, t, aw, an) == pytest.approx((1 - beta) * q + beta * aw / an, rel=1e-9)


def test_ln_t_counts_parent_below_one_as_one():
    # t = 1 or 0: ln t = 0, so UCB1 is the mean alone
    assert selection.score("ucb1", 3, 4, 1, c=5.0) == 0.75
    assert selection.score("ucb1", 3, 4, 0, c=5.0) == 0.75


def test_ucb_minimal_ignores_parent_visits():
    assert selection.score("ucb-minimal", 3, 10, 10) == selection.score("ucb-minimal", 3, 10, 10**9)


# --- kl_upper: the KL inversion --------------------------------------------------------------------

P_GRID = [0.0, 1e-9, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.77, 0.9, 0.99, 0.999999]
D_GRID = [1e-6, 1e-5, 1e-3, 0.01, 0.05, 0.2, 0.7, 1.0, 3.0, 7.0, 20.0]


def kl_slope(p, q):
    """d KL(p, q) / dq = (q - p) / (q (1 - q))."""
    return (q - p) / (q * (1.0 - q))


@pytest.mark.parametrize("p", P_GRID)
def test_kl_upper_solves_kl_equal_d_within_conditioning(p):
    for d in D_GRID:
        q = ks.kl_upper(p, d)
        if q == 1.0:  # the root is within an ulp of 1: KL(p, 1 - ulp) must still be <= d
            assert naive.bernoulli_kl(p, 1.0 - 2.0**-53) <= d * (1 + 1e-9), (p, d)
            continue
        # 1e-12 in q moves KL by slope * 1e-12; evaluating KL costs a few ulps of its terms
        terms = abs(p * math.log(p / q)) if p > 0 else 0.0
        terms += abs((1 - p) * math.log((1 - p) / (1 - q)))
        allowed = kl_slope(p, q) * 1e-12 + 8 * 2.0**-52 * terms
        assert abs(naive.bernoulli_kl(p, q) - d) <= allowed, (p, d, q)


@pytest.mark.parametrize("p", P_GRID)
def test_kl_upper_increases_with_d(p):
    ds = [10.0**e for e in np.linspace(-6, 2, 400)]
    qs = [ks.kl_upper(p, d) for d in ds]
    assert all(a <= b for a, b in zip(qs, qs[1:], strict=False)), p
    below_one = [(a, b) for a, b in zip(qs, qs[1:], strict=False) if b < 1.0]
    assert all(a < b for a, b in below_one), f"not strictly increasing below 1 for p={p}"


@settings(max_examples=400, deadline=None, derandomize=True)
@given(p=st.floats(0.0, 1.0), d=st.floats(1e-12, 100.0))
def test_kl_upper_lies_in_p_1(p, d):
    q = ks.kl_upper(p, d)
    assert p <= q <= 1.0


@settings(max_examples=400, deadline=None, derandomize=True)
@given(p=st.floats(0.0, 1.0), d=st.floats(1e-6, 100.0))
def test_kl_upper_within_1e_12_of_bisection(p, d):
    q = ks.kl_upper(p, d)
    assert abs(q - naive.kl_upper(p, d, tol=0.0)) <= 1e-12, (p, d, q)


@pytest.mark.parametrize("p", P_GRID)
def test_kl_upper_within_1e_12_of_bisection_on_grid(p):
    for d in D_GRID:
        assert abs(ks.kl_upper(p, d) - naive.kl_upper(p, d, tol=0.0)) <= 1e-12, (p, d)


@pytest.mark.parametrize("d", [1e-300, 1e-20, 1e-12, 1e-6, 0.01, 0.5, 1.0, 5.0, 30.0, 700.0])
def test_kl_upper_is_exact_for_p_zero(d):
    # KL(0, q) = -ln(1 - q), so q = 1 - exp(-d)
    assert ks.kl_upper(0.0, d) == pytest.approx(-math.expm1(-d), rel=4e-16, abs=0)


@pytest.mark.parametrize("p", [0.0, 1e-9, 0.3, 0.5, 0.999999, 1.0])
def test_kl_upper_returns_p_for_zero_d(p):
    assert ks.kl_upper(p, 0.0) == p


@pytest.mark.parametrize("d", [0.0, 1e-12, 0.5, 100.0])
def test_kl_upper_returns_one_for_p_one(d):
    assert ks.kl_upper(1.0, d) == 1.0


@settings(max_examples=400, deadline=None, derandomize=True)
@given(p=st.floats(0.0, 1.0), d=st.floats(1e-12, 100.0))
def test_kl_upper_bound_bounds_kl_upper(p, d):
    assert ks.kl_upper(p, d) <= ks.kl_upper_bound(p, d)


# Found by random search; d < 1e-13 means n > 1e13 visits, unreachable in a tree, but the docstring
# promises a q in [p, 1], and ``select_best`` trusts ``kl_upper_bound`` to bound it.
TINY_D = [
    (0.38096454846000705, 1.3069303535105018e-16),
    (0.5, 4.156667917652866e-17),
    (0.9999999985385307, 1.021171637727187e-18),
]


@pytest.mark.parametrize(("p", "d"), TINY_D)
def test_kl_upper_stays_in_p_1_for_tiny_d(p, d):
    q = ks.kl_upper(p, d)
    assert p <= q <= 1.0


@pytest.mark.parametrize(("p", "d"), [(0.4831995544323353, 2.519742894546804e-14)])
def test_kl_upper_bound_bounds_kl_upper_for_tiny_d(p, d):
    assert ks.kl_upper(p, d) <= ks.kl_upper_bound(p, d)


# --- select_best -----------------------------------------------------------------------------------


def arm_arrays(stats):
    """Tree dtypes: reward sums float32, counts int32 (``kernels.tree``)."""
    w = np.array([s[0] for s in stats], dtype=np.float32)
    n = np.array([s[1] for s in stats], dtype=np.int32)
    aw = np.array([s[2] if len(s) > 2 else 0 for s in stats], dtype=np.float32)
    an = np.array([s[3] if len(s) > 3 else 0 for s in stats], dtype=np.int32)
    return w, n, aw, an


def select(name, stats, t, rng, lo=0, hi=None, **params):
    rule_id, array = selection.resolve(name, **params)
    w, n, aw, an = arm_arrays(stats)
    hi = len(stats) if hi is None else hi
    return int(ks.select_best(np.int64(rule_id), array, w, n, np.float64(t), aw, an, lo, hi, rng))


def brute_force_best(name, stats, t, lo=0, hi=None, **params):
    """The set of indices in [lo, hi) with the highest ``selection.score``."""
    hi = len(stats) if hi is None else hi
    w, n, aw, an = arm_arrays(stats)
    scores = {
        i: selection.score(name, float(w[i]), int(n[i]), t, float(aw[i]), int(an[i]), **params) for i in range(lo, hi)
    }
    top = max(scores.values())
    return {i for i, s in scores.items() if s == top}


def random_stats(rng, count, with_amaf):
    """Arms with visits drawn to make close calls: shared visit counts, repeated arms, a few unvisited."""
    base_n = int(rng.integers(1, 400))
    stats = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.1:
            n = 0
        elif kind < 0.6:
            n = base_n
        else:
            n = int(rng.integers(1, 3 * base_n))
        w = int(rng.integers(0, 2 * n + 1)) / 2
        an = int(rng.integers(0, 1000)) if with_amaf and rng.random() < 0.8 else 0
        aw = int(rng.integers(0, 2 * an + 1)) / 2
        stats.append((w, n, aw, an))
        if stats and rng.random() < 0.15:
            stats.append(stats[int(rng.integers(0, len(stats)))])  # an exact duplicate: a tie
    return stats


@pytest.mark.parametrize(("name", "params"), RULE_VARIANTS)
def test_select_best_returns_an_argmax_of_score(name, params):
    gen = np.random.default_rng(2024)
    rng = new_state(7)
    for _ in range(60):
        stats = random_stats(gen, int(gen.integers(1, 25)), name in AMAF_RULES)
        t = sum(s[1] for s in stats) + int(gen.integers(0, 50))
        chosen = select(name, stats, t, rng, **params)
        assert chosen in brute_force_best(name, stats, t, **params), (stats, t, chosen)


@pytest.mark.parametrize(("name", "params"), [(n, p) for n, p in RULE_VARIANTS if n in KL_RULES])
def test_kl_pruning_never_changes_the_choice(name, params):
    # many random vectors for the rules whose select_best skips arms by ``upper_bound``
    gen = np.random.default_rng(99)
    rng = new_state(3)
    for _ in range(400):
        stats = random_stats(gen, int(gen.integers(2, 40)), name in AMAF_RULES)
        t = sum(s[1] for s in stats) + int(gen.integers(0, 10**5))
        chosen = select(name, stats, t, rng, **params)
        assert chosen in brute_force_best(name, stats, t, **params), (stats, t, chosen)


def eager_select(name, stats, t, rng, **params):
    """``select_best`` for the KL rules as first written, in Python: the bound pass, then every
    arm that survives the bound scored exactly (``ks.score``), ties drawn from ``rng``."""
    rule_id, array = selection.resolve(name, **params)
    w, n, aw, an = (x.astype(np.float64) for x in arm_arrays(stats))
    bounds = [ks.upper_bound(np.int64(rule_id), array, w[i], n[i], float(t), aw[i], an[i]) for i in range(len(w))]
    top = int(np.argmax(bounds))  # the first of the highest, as the kernel's strict ">"
    threshold = ks.score(np.int64(rule_id), array, w[top], n[top], float(t), aw[top], an[top], rng)
    best, best_score, ties = -1, -math.inf, 0
    for i in range(len(w)):
        if bounds[i] < threshold - ks.BOUND_MARGIN:
            continue
        s = ks.score(np.int64(rule_id), array, w[i], n[i], float(t), aw[i], an[i], rng)
        if s > best_score:
            best, best_score, ties = i, s, 1
        elif s == best_score:
            ties += 1
            if rand_below(rng, np.int64(ties)) == 0:
                best = i
    return best


@pytest.mark.parametrize(("name", "params"), [(n, p) for n, p in RULE_VARIANTS if n in KL_RULES])
def test_lazy_kl_scores_change_neither_the_choice_nor_the_random_draws(name, params):
    # select_best stops a KL inversion once the arm is known to lose; the chosen arm and the RNG
    # state after the call (the ties' draws) must be those of exact scores, or seeds would change
    gen = np.random.default_rng(5)
    lazy_rng, eager_rng = new_state(11), new_state(11)
    for _ in range(300):
        stats = random_stats(gen, int(gen.integers(2, 40)), name in AMAF_RULES)
        t = sum(s[1] for s in stats) + int(gen.integers(0, 10**4))
        assert select(name, stats, t, lazy_rng, **params) == eager_select(name, stats, t, eager_rng, **params)
        assert lazy_rng[0] == eager_rng[0]


@pytest.mark.parametrize("p", [0.0, 0.1, 0.5, 0.93])
def test_lazy_kl_inversion_is_exact_above_its_floor_and_below_it_under_the_floor(p):
    for d in (1e-4, 0.01, 0.3, 2.0):
        q = ks.kl_upper(p, d)
        for floor in (q - 0.2, q - 1e-6, q - 1e-11):
            assert ks.kl_upper_lazy(p, d, floor) == q
        for floor in (q + 1e-9, q + 0.01, 1.5):
            lazy = ks.kl_upper_lazy(p, d, floor)
            assert q - 1e-15 <= lazy < floor


@pytest.mark.parametrize("name", [*naive.DETERMINISTIC, "thompson"])
def test_select_best_stays_within_lo_hi(name):
    # the best arm overall (index 0) lies outside [2, 6)
    stats = [(100, 100, 100, 100), (1, 50, 1, 50), (10, 20, 10, 20), (3, 20, 3, 20), (15, 20, 15, 20), (2, 20, 2, 20)]
    rng = new_state(1)
    for _ in range(20):
        chosen = select(name, stats, 300, rng, lo=2, hi=6)
        assert 2 <= chosen < 6
        if name != "thompson":
            assert chosen in brute_force_best(name, stats, 300, lo=2, hi=6)


def chi_square(counts):
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


# 99.9 % quantiles of chi-square with k - 1 degrees of freedom
CHI2_999 = {2: 10.83, 3: 13.82, 4: 16.27}

TIE_CASES = [
    # (rule, arms, tied indices): arms with equal stats tie exactly; the others score lower
    ("ucb1", [(5, 10), (1, 10), (5, 10), (5, 10), (2, 10), (5, 10)], [0, 2, 3, 5]),
    ("ucb-minimal", [(0, 3), (7, 9), (7, 9), (1, 9)], [1, 2]),
    # KL-UCB: the two low arms are pruned by their bound, the three tied arms are not
    ("kl-ucb", [(1, 200), (90, 100), (0, 300), (90, 100), (90, 100)], [1, 3, 4]),
    ("kl-ucb-rave", [(90, 100, 50, 80), (1, 200, 2, 80), (90, 100, 50, 80)], [0, 2]),
    # unvisited arms (+inf) tie with each other and beat every visited arm
    ("ucb1", [(9, 10), (0, 0), (10, 10), (0, 0), (0, 0)], [1, 3, 4]),
    ("kl-ucb", [(0, 0), (10, 10), (0, 0)], [0, 2]),
]


@pytest.mark.parametrize(("name", "stats", "tied"), TIE_CASES)
def test_select_best_breaks_ties_uniformly_at_random(name, stats, tied):
    draws = 6000
    rng = new_state(12345)
    t = sum(s[1] for s in stats) + 1
    counts = dict.fromkeys(range(len(stats)), 0)
    for _ in range(draws):
        counts[select(name, stats, t, rng)] += 1
    assert {i for i, c in counts.items() if c} == set(tied), counts
    assert chi_square([counts[i] for i in tied]) < CHI2_999[len(tied)], counts


UNVISITED_FIRST = [
    ("ucb1", {}),
    ("ucb1-tuned", {}),
    ("beta-ucb", {}),
    ("beta-mean-ucb", {"bias": 0.0}),
    ("kl-ucb", {}),
    ("rave", {}),
    ("kl-ucb-rave", {}),
    ("ucb-v", {}),
    ("ucb-minimal", {}),
]


@pytest.mark.parametrize(("name", "params"), UNVISITED_FIRST)
@pytest.mark.parametrize("where", [0, 2, 4])
def test_select_best_tries_unvisited_arm_before_visited_ones(name, params, where):
    stats = [(50, 50, 50, 50), (49, 50, 49, 50), (1, 1, 1, 1), (30, 30, 30, 30)]
    stats.insert(where, (0, 0, 0, 0))
    rng = new_state(5)
    for _ in range(10):
        assert select(name, stats, 200, rng, **params) == where


def test_select_best_prefers_amaf_mean_of_unvisited_arm_only_when_it_is_higher():
    # kl-ucb-rave: an unvisited arm with an AMAF sample scores its AMAF mean, not +inf
    rng = new_state(0)
    low = [(99, 100, 0, 0), (0, 0, 1, 10)]  # KL-UCB of 99/100 > 0.1
    high = [(1, 100, 0, 0), (0, 0, 9, 10)]  # KL-UCB of 1/100 at t = 101 is about 0.08 < 0.9
    assert select("kl-ucb-rave", low, 101, rng) == 0
    assert select("kl-ucb-rave", high, 101, rng) == 1


def test_select_best_thompson_favours_the_clearly_better_arm():
    stats = [(0, 1000), (1000, 1000), (0, 1000)]
    rng = new_state(8)
    assert all(select("thompson", stats, 3000, rng) == 1 for _ in range(200))


# --- Thompson sampling -----------------------------------------------------------------------------


def moments_within(samples, mean, variance, k=5.0):
    """Sample mean and variance within k standard errors (the variance's from the 4th moment)."""
    x = np.asarray(samples)
    m = x.mean()
    s2 = x.var()
    m4 = ((x - m) ** 4).mean()
    se_mean = math.sqrt(variance / len(x))
    se_var = math.sqrt(max(m4 - s2 * s2, 0.0) / len(x))
    return abs(m - mean) <= k * se_mean and abs(s2 - variance) <= k * se_var, (m, mean, s2, variance)


@pytest.mark.parametrize(("w", "n"), [(0, 0), (1, 1), (0, 1), (3, 10), (100, 100), (2.5, 5), (0, 50), (700, 1000)])
def test_thompson_samples_have_the_beta_posterior_moments(w, n):
    a, b = w + 1.0, n - w + 1.0
    rng = new_state(2718)
    samples = [ks.thompson(float(w), float(n), rng) for _ in range(20000)]
    assert all(0.0 <= s <= 1.0 for s in samples)
    ok, detail = moments_within(samples, a / (a + b), naive.beta_variance(a, b))
    assert ok, detail


@pytest.mark.parametrize("a", [1.0, 1.5, 3.7, 40.0, 1001.0])
def test_sample_gamma_has_mean_and_variance_a(a):
    rng = new_state(31)
    samples = [ks.sample_gamma(a, rng) for _ in range(20000)]
    assert min(samples) > 0.0
    ok, detail = moments_within(samples, a, a)
    assert ok, detail


def test_thompson_score_is_reproducible_for_a_seed():
    draws = [selection.score("thompson", 3, 10, 50, seed=s) for s in range(50)]
    assert draws == [selection.score("thompson", 3, 10, 50, seed=s) for s in range(50)]
    assert len(set(draws)) == 50  # different seeds, different draws
    assert draws[0] == ks.thompson(3.0, 10.0, new_state(0))


# --- the registry ----------------------------------------------------------------------------------

ALL_NAMES = [
    "ucb1",
    "ucb1-tuned",
    "beta-ucb",
    "beta-mean-ucb",
    "kl-ucb",
    "rave",
    "kl-ucb-rave",
    "ucb-v",
    "ucb-minimal",
    "thompson",
]


def test_registry_lists_every_rule_with_a_distinct_kernel_id():
    assert list(selection.RULES) == ALL_NAMES
    assert sorted(r.id for r in selection.RULES.values()) == list(range(ks.N_RULES))


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_rule_name_resolves_and_scores(name):
    rule = selection.get(name)
    assert rule.name == name
    assert selection.get(f"  {name.upper()} ") is rule
    rule_id, array = selection.resolve(name)
    assert rule_id == rule.id
    assert array.dtype == np.float64 and array.shape == (selection.RULES.max_params,)
    assert list(array[: len(rule.params)]) == [p.default for p in sorted(rule.params, key=lambda p: p.index)]
    assert not array[len(rule.params) :].any()
    assert rule.source
    s = selection.score(name, 3, 10, 50, 6, 20)
    assert math.isfinite(s)


def test_registry_defaults_are_the_papers_suggestions():
    assert selection.get("ucb1").defaults == {"c": pytest.approx(SQRT2)}
    assert selection.get("beta-mean-ucb").defaults == {"c": pytest.approx(math.sqrt(0.2)), "bias": 1.0}  # seed 001
    assert selection.get("kl-ucb").defaults == {"c": 0.0}  # seed 003 eq. 3: ln t alone
    assert selection.get("ucb-v").defaults == {"c": 1.0, "zeta": 1.0}  # seed 004: suggested by [4]
    assert selection.get("ucb-minimal").defaults == {"c1": 2.5, "c2": 1.0}  # seed 004: suggested by [2]


def test_resolve_puts_overrides_in_kernel_order():
    assert list(selection.resolve("ucb-minimal", c2=1.8)[1][:2]) == [2.5, 1.8]
    assert list(selection.resolve("ucb-v", zeta=0.5, c=1.4)[1][:2]) == [1.4, 0.5]
    expected = [ks.SCHEDULE_HAND, 1000.0, 0.5, 0.2]
    assert list(selection.resolve("rave", c=0.2, schedule="hand", b=0.5)[1][:4]) == expected
    # the slots are the kernel's named constants, whatever the order the registry lists them in
    _, array = selection.resolve("rave", c=0.2, schedule="hand", b=0.5)
    assert (array[ks.RAVE_SCHEDULE], array[ks.RAVE_K], array[ks.RAVE_B], array[ks.RAVE_C]) == tuple(expected)


def test_a_registry_refuses_parameter_indices_that_are_not_0_to_n_minus_1():
    from goengine.registry import Choice, Param, Registry

    clash = Choice("x", 0, (Param("a", 0, 1.0, "a_words"), Param("b", 0, 2.0, "b_words")))
    gap = Choice("y", 1, (Param("a", 0, 1.0, "a_words"), Param("b", 2, 2.0, "b_words")))
    for choice in (clash, gap):
        with pytest.raises(ValueError, match="parameter indices"):
            Registry("test rule", (choice,), 4)
    with pytest.raises(ValueError, match="share a name"):
        Registry("test rule", (Choice("z", 0, (Param("a", 0, 1.0, "w"), Param("b", 1, 2.0, "A"))),), 4)


@pytest.mark.parametrize("name", AMAF_RULES)
def test_hand_schedule_weighs_every_child_of_a_node_alike(name):
    """Gelly and Silver's hand-selected beta depends on the parent's visits N(s) only: two children
    with the same means and different visits get the same mix (their scores differ only through
    the UCB/KL term, which C = 0 removes for RAVE)."""
    if name == "rave":
        few = selection.score(name, 3, 10, 400, 60, 100, schedule="hand", k=1000)
        many = selection.score(name, 30, 100, 400, 60, 100, schedule="hand", k=1000)
        beta = math.sqrt(1000 / (3 * 400 + 1000))
        assert few == pytest.approx(many) == pytest.approx((1 - beta) * 0.3 + beta * 0.6)
    got = selection.score(name, 3, 10, 400, 60, 100, schedule="hand", k=1000)
    assert got == pytest.approx(naive.score(name, 3, 10, 400, 60, 100, schedule="hand", k=1000), **tol(name))


def test_unknown_rule_raises_value_error_listing_known_rules():
    with pytest.raises(ValueError, match=r"unknown selection rule 'ucb2'.*known: ucb1, ucb1-tuned"):
        selection.get("ucb2")
    with pytest.raises(ValueError, match="unknown selection rule"):
        selection.score("no-such-rule", 1, 2, 3)


def test_unknown_parameter_raises_value_error_naming_the_rule_and_its_parameters():
    with pytest.raises(ValueError, match=r"rule ucb1 has no parameter 'gamma'; it has: c"):
        selection.resolve("ucb1", gamma=1.0)
    with pytest.raises(ValueError, match=r"rule thompson has no parameter 'c'; it has: none"):
        selection.score("thompson", 1, 2, 3, c=1.0)


def test_non_numeric_parameter_raises_value_error():
    with pytest.raises(ValueError, match=r"c of ucb1 must be a number, got 'big'"):
        selection.resolve("ucb1", c="big")


@pytest.mark.parametrize("name", AMAF_RULES)
def test_schedule_accepts_hand_and_mse(name):
    assert selection.resolve(name, schedule="hand")[1][0] == ks.SCHEDULE_HAND
    assert selection.resolve(name, schedule="mse")[1][0] == ks.SCHEDULE_MSE
    assert selection.resolve(name, schedule=ks.SCHEDULE_HAND)[1][0] == ks.SCHEDULE_HAND
    hand = selection.score(name, 3, 10, 50, 60, 100, schedule="hand", k=1000)
    mse = selection.score(name, 3, 10, 50, 60, 100, schedule="mse", b=0.01)
    assert hand != mse
    assert hand == pytest.approx(naive.score(name, 3, 10, 50, 60, 100, schedule="hand", k=1000), **tol(name))
    assert selection.resolve(name, schedule=" Hand-Selected ")[1][0] == ks.SCHEDULE_HAND  # as GoGui may send it
    assert selection.resolve(name, schedule="minimum-mse")[1][0] == ks.SCHEDULE_MSE
    for bad in ("fast", "hand-picked", 2.0, "0.5"):
        with pytest.raises(ValueError, match=f"schedule of {name} must be one of hand-selected, minimum-MSE"):
            selection.resolve(name, schedule=bad)


def test_needs_amaf_exactly_for_rave_rules():
    assert {name for name, rule in selection.RULES.items() if rule.needs_amaf} == {"rave", "kl-ucb-rave"}


def test_describe_prints_name_and_parameters():
    assert selection.describe("ucb1") == "ucb1 c=1.4142135623730951"
    assert selection.describe("thompson") == "thompson"
    assert selection.describe("beta-mean-ucb") == "beta-mean-ucb c=0.4472135954999579 bias=1"
    assert selection.describe("rave") == "rave schedule=minimum-MSE k=1000 b=0.01 c=0 distance=0"
    assert (
        selection.describe("kl-ucb-rave", schedule="hand", k=50, c=3)
        == "kl-ucb-rave schedule=hand-selected k=50 b=0.01 c=3 distance=0"
    )
    assert selection.describe("ucb-minimal", c1=8.4, c2=1.8) == "ucb-minimal c1=8.4 c2=1.8"
    assert selection.describe("beta-mean-ucb", bias=0) == "beta-mean-ucb c=0.4472135954999579 bias=0"


# --- dtypes fixed at the wrapper -------------------------------------------------------------------

SIGNATURE_PROBE = """
import numpy as np
from goengine import selection
from goengine.kernels import select as ks
for name in selection.RULES:
    selection.score(name, 3, 10, 50)
    selection.score(name, 2.5, 10.0, 50.0, 1, 4)
    selection.score(name, np.int32(3), np.int64(10), np.float32(50), np.float32(1.5), np.int32(4), seed=9)
    selection.score(name, True, 1, 1)
print(len(ks.score.signatures))
"""


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no signatures without the JIT")
def test_score_kernel_compiles_once_through_the_wrapper():
    # in a fresh process, so that no other test's direct kernel call can add a signature
    out = subprocess.run(
        [sys.executable, "-c", SIGNATURE_PROBE],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.split()[-1] == "1", out.stdout + out.stderr


def select_wide(name, stats, t, rng, c, **params):
    rule_id, array = selection.resolve(name, **params)
    w, n, aw, an = arm_arrays(stats)
    return int(ks.select_wide(np.int64(rule_id), array, w, n, np.float64(t), aw, an, 0, len(stats), rng, c))


@pytest.mark.parametrize("name", naive.DETERMINISTIC)
@pytest.mark.parametrize("c", [0.2, 1.0])
def test_a_wide_root_adds_a_ucb1_term_to_the_rule_and_tries_an_unvisited_arm_first(name, c):
    # the reference: the rule's slow score plus c sqrt(ln t / n), an unvisited arm +inf
    gen = np.random.default_rng(31)
    rng = new_state(4)
    for _ in range(40):
        stats = random_stats(gen, int(gen.integers(1, 25)), name in AMAF_RULES)
        t = sum(s[1] for s in stats) + int(gen.integers(0, 50))
        w, n, aw, an = arm_arrays(stats)
        wide = [
            naive.score(name, float(w[i]), int(n[i]), t, float(aw[i]), int(an[i]))
            + c * math.sqrt(naive.log_t(t) / n[i])
            if n[i] > 0
            else math.inf
            for i in range(len(stats))
        ]
        top = max(wide)
        chosen = select_wide(name, stats, t, rng, c)
        assert wide[chosen] == pytest.approx(top, rel=1e-9) or wide[chosen] == top, (stats, t, chosen)


def test_a_wide_root_explores_an_arm_the_rule_alone_would_never_try():
    # RAVE without exploration (its C = 0, the default) keeps to the arm with the better mean;
    # the UCB1 term brings the rarely tried arm back once ln t has grown past its few visits
    stats = [(60.0, 100, 0.0, 0), (2.0, 5, 0.0, 0)]
    assert select("rave", stats, 105, new_state(1)) == 0
    assert select_wide("rave", stats, 105, new_state(1), 0.0) == 0
    assert select_wide("rave", stats, 105, new_state(1), 0.5) == 1  # 0.4 + 0.5 sqrt(ln 105 / 5) > 0.6 + ...
