"""The K-armed bandit laboratory (``goengine.kernels.bandit``, ``scripts/bandit.py``).

The kernel is checked against a slow loop that calls ``select_best`` once per pull from Python;
then its bookkeeping, its common random numbers, two known answers, and the script end to end.
"""

from __future__ import annotations

import csv
import importlib.util
import math
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from goengine import selection
from goengine.kernels import bandit as kb
from goengine.kernels import select as ks
from goengine.kernels.rng import rand_float

ROOT = Path(__file__).resolve().parent.parent


def _load_script():
    spec = importlib.util.spec_from_file_location("bandit_script", ROOT / "scripts" / "bandit.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bandit_script"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


bs = _load_script()


def config(rule, **params):
    gamma = params.get("gamma")
    return bs.Config(rule, tuple(params.items()), gamma)


def naive_play(rule, params, means, pulls, seed, run):
    """The game written out in Python, one ``select_best`` call per pull, the streams seeded alike."""
    k = len(means)
    arm_states = np.zeros((k, 1), dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    kb.seed_run(np.uint64(seed), np.int64(run), arm_states, rng)
    w, n, zeros = np.zeros(k), np.zeros(k), np.zeros(k)
    total = 0.0
    for p in range(pulls):
        i = ks.select_best(np.int64(rule), params, w, n, float(p), zeros, zeros, np.int64(0), np.int64(k), rng)
        r = 1.0 if rand_float(arm_states[i]) < means[i] else 0.0
        w[i] += r
        n[i] += 1.0
        total += r
    return total, n


def test_kernel_matches_a_slow_loop_over_select_best():
    means = bs.arm_means(0.2, 0.6, 5, 3, "even", 0)
    configs = [config("ucb1-tuned", gamma=0.7), config("beta-ucb", gamma=0.7), config("thompson"), config("kl-ucb")]
    rewards, counts = bs.simulate(configs, means, 300, seed=11, first_run=4)
    for c, cfg in enumerate(configs):
        rule_id, params = selection.resolve(cfg.rule, **dict(cfg.params))
        for r in range(3):
            total, n = naive_play(rule_id, params, means[r], 300, 11, 4 + r)
            assert rewards[c, r] == total
            np.testing.assert_array_equal(counts[c, r], n)


def test_every_pull_is_counted_once():
    means = bs.arm_means(0.4, 0.6, 10, 6, "even", 0)
    configs = [config("ucb1-tuned", gamma=1.0), config("beta-ucb", gamma=0.3), config("rave"), config("ucb-minimal")]
    rewards, counts = bs.simulate(configs, means, 10_000, seed=3)
    np.testing.assert_array_equal(counts.sum(axis=2), 10_000)
    assert np.all(counts >= 1)  # initially play each machine once (the +inf score)
    assert np.all((rewards >= 0) & (rewards <= 10_000))


def test_same_seed_reproduces_and_thread_count_does_not_matter():
    means = bs.arm_means(0.2, 0.4, 10, 8, "even", 0)
    configs = [config("beta-ucb", gamma=0.5), config("thompson")]
    first = bs.simulate(configs, means, 2_000, seed=5)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        second = bs.simulate(configs, means, 2_000, seed=5)
    finally:
        numba.set_num_threads(threads)
    other = bs.simulate(configs, means, 2_000, seed=6)
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    assert not np.array_equal(first[0], other[0])


def test_rules_that_choose_alike_get_identical_rewards():
    """Common random numbers: at gamma = 0 UCB1-Tuned and Beta-UCB are both greedy, and RAVE without
    AMAF (C = 0) is greedy too; the same choices meet the same machine outcomes."""
    means = bs.arm_means(0.4, 0.6, 10, 10, "even", 0)
    configs = [config("ucb1-tuned", gamma=0.0), config("beta-ucb", gamma=0.0), config("rave")]
    rewards, counts = bs.simulate(configs, means, 3_000, seed=9)
    np.testing.assert_array_equal(rewards[0], rewards[1])
    np.testing.assert_array_equal(rewards[0], rewards[2])
    np.testing.assert_array_equal(counts[0], counts[2])
    assert len(set(rewards[0])) > 1  # the runs themselves differ


def test_the_kth_pull_of_a_machine_is_the_same_whoever_pulls_it():
    """A machine with mean 1/2 pulled k times pays the same k outcomes under any rule: compare the
    reward each rule got from an arm with the prefix sums of that arm's own stream."""
    k, pulls, seed = 4, 400, 21
    means = np.full((1, k), 0.5)
    configs = [config("ucb1"), config("ucb1-tuned", gamma=2.0), config("thompson")]
    arm_states = np.zeros((k, 1), dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    kb.seed_run(np.uint64(seed), np.int64(0), arm_states, rng)
    outcomes = np.array([[rand_float(arm_states[i]) < 0.5 for _ in range(pulls)] for i in range(k)], dtype=float)
    prefix = np.concatenate([np.zeros((k, 1)), np.cumsum(outcomes, axis=1)], axis=1)
    rewards, counts = bs.simulate(configs, means, pulls, seed=seed)
    for c in range(len(configs)):
        expected = sum(prefix[i, int(counts[c, 0, i])] for i in range(k))
        assert rewards[c, 0] == expected
    assert len({tuple(counts[c, 0]) for c in range(len(configs))}) > 1  # the rules did choose differently


def test_greedy_after_the_first_round_keeps_the_certain_winner():
    """Means 1 and 0: the first round pulls each machine once (in random order); greedy then stays
    with the machine that paid, so the reward is pulls - 1 and the losing machine has one pull."""
    means = np.array([[0.0, 1.0]] * 5)
    rewards, counts = bs.simulate([config("ucb1-tuned", gamma=0.0), config("beta-ucb", gamma=0.0)], means, 1_000, 2)
    np.testing.assert_array_equal(rewards, 999.0)
    np.testing.assert_array_equal(counts[:, :, 0], 1.0)


def test_ucb1_pulls_the_worse_of_two_separated_machines_about_log_t_times():
    """UCB1 (c = sqrt 2) on means 0.9 and 0.1: E n_bad <= 8 ln T / gap^2 + 1 + pi^2/3 (Auer et al.
    2002, Theorem 1), about 120 for T = 10,000; and from 1,000 to 10,000 pulls it grows by far less
    than the tenfold of a linear regret."""
    means = np.array([[0.9, 0.1]] * 40)
    short = bs.simulate([config("ucb1")], means, 1_000, seed=4)[1][0, :, 1].mean()
    long = bs.simulate([config("ucb1")], means, 10_000, seed=4)[1][0, :, 1].mean()
    assert long <= 8 * math.log(10_000) / 0.8**2 + 1 + math.pi**2 / 3
    assert long / short < 2.0
    assert long < 0.01 * 10_000


def test_arm_means_are_evenly_spaced_with_both_ends():
    means = bs.arm_means(0.2, 0.4, 10, 3, "even", 0)
    np.testing.assert_allclose(means[0], 0.2 + 0.2 * np.arange(10) / 9)
    random = bs.arm_means(0.2, 0.4, 10, 3, "random", 0)
    assert random.min() >= 0.2 and random.max() <= 0.4 and not np.array_equal(random[0], random[1])
    with pytest.raises(ValueError):
        bs.simulate([config("ucb1")], np.array([[1.5, 0.2]]), 10, 0)


def test_kernel_entry_points_compile_once():
    bs.simulate([config("ucb1")], bs.arm_means(0.4, 0.6, 3, 2, "even", 0), 10, 0)
    assert len(kb.run_games.signatures) == 1


def test_quick_script_writes_csv_table_and_figure(tmp_path, capsys):
    assert bs.main(["--quick", "--runs", "6", "--pulls", "300", "--gammas", "0.2,1.0", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Beta-UCB" in out and "No AMAF" in out and "each at its best gamma" in out
    with (tmp_path / "bandit.csv").open() as f:
        rows = list(csv.DictReader(f))
    n_refs = len(selection.RULES) - 2
    assert len(rows) == 3 * (2 * 2 + n_refs)
    beta = [r for r in rows if r["rule"] == "beta-ucb"]
    assert all(r["diff_vs_ucb1_tuned"] != "" and r["se_diff"] != "" and r["runs"] == "6" for r in beta)
    assert all(float(r["regret"]) >= -300 for r in rows)
    assert (tmp_path / "meta.json").exists() and (tmp_path / "table.txt").exists()
    if importlib.util.find_spec("matplotlib") is not None:
        assert (tmp_path / "bandit.png").stat().st_size > 10_000
        (tmp_path / "bandit.png").unlink()
        assert bs.main(["--replot", str(tmp_path)]) == 0  # redrawn from the CSV alone
        assert (tmp_path / "bandit.png").stat().st_size > 10_000
