"""SPSA tuning (``goengine.lab.tune``): the gains and the step against Spall's formulas computed by
hand, convergence on a noisy objective whose optimum is known, the goengine options a knob
writes, and a run of the tuner on a fake runner (the games' results drawn from the command lines
it was given), resumed where it stopped."""

from __future__ import annotations

import random
import re

import pytest

from goengine.lab.records import load_records
from goengine.lab.tune import DEFAULT_A, DEFAULT_C, Knob, Tuner, delta_of, gains, noise_spread, perturbed, step


def test_the_gains_and_a_step_are_spalls_formulas():
    a_k, c_k = gains(0, a=1.0, c=0.1, big_a=10.0)
    assert a_k == pytest.approx(1.0 / 11**0.602) and c_k == pytest.approx(0.1)
    a_k, c_k = gains(9, a=2.0, c=0.2, big_a=10.0)
    assert a_k == pytest.approx(2.0 / 20**0.602) and c_k == pytest.approx(0.2 / 10**0.101)
    plus, minus = perturbed([0.5, 0.95], [1, 1], 0.1)
    assert plus == pytest.approx([0.6, 1.0]) and minus == pytest.approx([0.4, 0.85])  # clipped to [0, 1]
    # the score rose with theta+: (0.75 - 0.25) / (2 * 0.1) = 2.5, times a_k 0.1 and delta
    assert step([0.5, 0.5], [1, -1], 0.75, 0.25, 0.1, 0.1) == pytest.approx([0.75, 0.25])
    assert delta_of(7, 3, 5) == delta_of(7, 3, 5) and set(delta_of(7, 3, 50)) == {1, -1}


def test_the_default_gains_take_a_small_first_step():
    """Two games a side, one more won at theta+ than at theta- (r+ - r- = 0.5), 200 iterations
    planned (A = 20): the first step moves a knob by 0.15 / 21^0.602 * 0.5 / 0.3 = 4.0 % of its
    range, by hand; a gain of 1 moved it 40 %, to the end of its range in one iteration."""
    a_k, c_k = gains(0, DEFAULT_A, DEFAULT_C, big_a=20.0)
    assert c_k == pytest.approx(0.15)
    (moved,) = step([0.5], [1], 0.75, 0.25, a_k, c_k)
    assert moved - 0.5 == pytest.approx(0.15 / 21**0.602 * 0.5 / 0.3) == pytest.approx(0.040, abs=0.001)


def test_spsa_climbs_to_the_optimum_of_a_noisy_win_rate():
    """Two parameters; the chance of a win is 0.5 + 0.4 (1 - 4 |x - x*|^2) around x* = (0.3, 0.7),
    seen through 8 games a side and iteration: after 300 iterations the mean of the last half is
    within 0.08 of x* on each coordinate, from a start at (0.8, 0.2)."""
    target = (0.3, 0.7)
    rng = random.Random(5)

    def win_rate(x):
        d2 = sum((a - b) ** 2 for a, b in zip(x, target, strict=True))
        return min(1.0, max(0.0, 0.5 + 0.4 * (1 - 4 * d2)))

    theta = [0.8, 0.2]
    tail = []
    for k in range(300):
        a_k, c_k = gains(k, a=0.5, c=0.1, big_a=30)
        delta = delta_of(1, k, 2)
        plus, minus = perturbed(theta, delta, c_k)
        r_plus = sum(rng.random() < win_rate(plus) for _ in range(8)) / 8
        r_minus = sum(rng.random() < win_rate(minus) for _ in range(8)) / 8
        theta = step(theta, delta, r_plus, r_minus, a_k, c_k)
        if k >= 150:
            tail.append(theta)
    mean = [sum(t[i] for t in tail) / len(tail) for i in range(2)]
    assert abs(mean[0] - 0.3) < 0.08 and abs(mean[1] - 0.7) < 0.08, mean


@pytest.mark.parametrize(
    ("text", "x", "words"),
    [
        ("prior.even=5:40:int", 0.5, "--prior-param even=22"),
        ("rule.b=0.001:0.1", 0.0, "--param b=0.001"),
        ("playout.capture=0:1", 1.0, "--playout-param capture=1"),
        ("expand_at=1:16:int", 1.0, "--expand-at 16"),
        ("plan_share=0.4:1.2", 0.5, "--plan-share 0.8"),
    ],
)
def test_a_knob_writes_its_goengine_option(text, x, words):
    knob = Knob.parse(text)
    assert knob.option(x) == words
    assert knob.unit(knob.value(x)) == pytest.approx(x, abs=0.02)


@pytest.mark.parametrize("text", ["even=5", "prior.even=5:x", "prior.even=9:5", "Prior.Even=1:2", "a.b=1:2"])
def test_a_knob_that_does_not_parse_is_refused(text):
    with pytest.raises(ValueError):
        Knob.parse(text)


class FakeRunner:
    """A job runner that plays no game: goengine wins when its ``--prior-param even`` is above 20
    (so the tuner should raise it), and each game's record has the referee's shape."""

    def __init__(self, stop_after: int | None = None):
        self.played = 0
        self.stop_after = stop_after

    def run(self, function, tasks, wanted=lambda key: True):
        for key, spec in tasks:
            if self.stop_after is not None and self.played >= self.stop_after:
                return
            self.played += 1
            even = float(re.search(r"even=([0-9.]+)", spec.engine).group(1))
            yield key, {"config": spec.config, "index": spec.index, "engine_won": even > 20, "void": None}


def test_the_tuner_records_every_game_and_iteration_and_resumes(tmp_path):
    knob = Knob.parse("prior.even=5:40")
    tuner = Tuner([knob], [18.0], "goengine", "opponent", tmp_path, iterations=6, games=2, a=0.5, c=0.1)
    partial = FakeRunner(stop_after=9)  # dies in the third iteration's games
    tuner.run(partial, log=lambda text: None)
    first = tuner.history()
    assert len(first) == 2 and len(load_records(tmp_path / "games.jsonl")) == 9
    rest = FakeRunner()
    theta = tuner.run(rest, log=lambda text: None)
    assert rest.played == 6 * 4 - 9  # only the games not yet recorded
    done = tuner.history()
    assert [r["k"] for r in done] == list(range(6)) and done[:2] == first
    assert knob.value(theta[0]) > 18.0 and tuner.estimate()["prior.even"] > 18.0
    commands = [r for r in load_records(tmp_path / "games.jsonl")]
    assert len({(r["config"], r["index"]) for r in commands}) == 24


def test_the_noise_spread_is_the_sum_of_the_steps_variances():
    """One iteration: the step is a_0 / (2 c_0) times r+ - r-, so its spread is a_0 / (2 c_0) times
    that of r+ - r-: with 2 games a side sqrt(0.5 / 2) = 0.5, and a = c = 0.15, A = 0.1, by hand
    0.15 / 1.1^0.602 / 0.3 * 0.5. Over many iterations the variances add (a slow sum here), and
    four times the games halve the spread; the run against Pachi's figures (200 iterations of 2
    games, a spread of 0.43 measured) give about a third of a range. A run's first iterations
    take their gains from the iterations it plans (A is a tenth of them), as the report counts."""
    assert noise_spread(1, 2, 0.15, 0.15) == pytest.approx(0.15 / 1.1**0.602 / 0.3 * 0.5)
    total = 0.0
    for k in range(50):
        a_k = 0.3 / (k + 1 + 5.0) ** 0.602
        c_k = 0.1 / (k + 1) ** 0.101
        total += (a_k / (2 * c_k)) ** 2 * 0.3**2
    assert noise_spread(50, 2, 0.3, 0.1, sd_difference=0.3) == pytest.approx(total**0.5)
    assert noise_spread(200, 8, 0.15, 0.15) == pytest.approx(noise_spread(200, 2, 0.15, 0.15) / 2)
    assert 0.28 < noise_spread(200, 2, 0.15, 0.15, sd_difference=0.43) < 0.33
    # the first 50 of 200 planned iterations take their gains from A = 20, not 5: smaller steps
    first = sum((0.15 / (k + 21) ** 0.602 / (2 * 0.15 / (k + 1) ** 0.101) * 0.5) ** 2 for k in range(50)) ** 0.5
    assert noise_spread(50, 2, 0.15, 0.15, planned=200) == pytest.approx(first)
    assert first < noise_spread(50, 2, 0.15, 0.15)
