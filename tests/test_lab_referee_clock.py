"""The referee's clocks (``goengine.lab.referee_clock``): time controls read from ``--time``, the GTP
commands that tell them, the longest move each allows, and each side's clock on hand-made
sequences of moves."""

from __future__ import annotations

import pytest

from goengine.lab.referee_clock import SideClock, TimeControl


@pytest.mark.parametrize(
    ("text", "control", "plain", "kgs"),
    [
        ("300", TimeControl("absolute", 300), "time_settings 300 0 0", "time_settings 300 0 0"),
        ("60+5x3", TimeControl("byoyomi", 60, 5, 3), "time_settings 60 5 1", "kgs-time_settings byoyomi 60 5 3"),
        ("60+30/10", TimeControl("canadian", 60, 30, 10), "time_settings 60 30 10", "time_settings 60 30 10"),
        ("0+10x2", TimeControl("byoyomi", 0, 10, 2), "time_settings 0 10 1", "kgs-time_settings byoyomi 0 10 2"),
        ("1.5", TimeControl("absolute", 1.5), "time_settings 1.5 0 0", "time_settings 1.5 0 0"),
    ],
)
def test_time_controls_are_read_and_told_to_the_engines(text, control, plain, kgs):
    assert TimeControl.parse(text) == control
    assert control.describe() == text
    assert control.setup_commands(knows_kgs=False) == [plain]
    assert control.setup_commands(knows_kgs=True) == [kgs]


@pytest.mark.parametrize("text", ["", "x", "60+5", "60+5x0", "0", "60+0x3", "-5", "60x3", "60+5x3x2"])
def test_bad_time_controls_are_refused(text):
    with pytest.raises(ValueError, match="--time"):
        TimeControl.parse(text)


def test_sudden_death_falls_when_the_main_time_is_gone():
    clock = SideClock(TimeControl("absolute", 10))
    assert clock.spend(4) and clock.time_left() == (6, 0)
    assert clock.spend(6) and clock.time_left() == (0, 0)  # exactly all of it: still alive
    assert not clock.spend(0.01) and clock.flag_fell


def test_japanese_byoyomi_uses_a_period_for_every_move_that_overruns_one():
    clock = SideClock(TimeControl("byoyomi", 10, 5, 3))
    assert clock.spend(8) and clock.time_left() == (2, 0)
    assert clock.spend(6)  # 2 s of main time, then 4 s into the first period: it is kept
    assert clock.in_byoyomi and clock.time_left() == (5, 3)
    assert clock.spend(5) and clock.periods == 3  # exactly a period
    assert clock.spend(7) and clock.periods == 2  # overran one period, ended in the next
    assert not clock.spend(11) and clock.flag_fell  # 11 s needs three periods of 5: it has two
    clock = SideClock(TimeControl("byoyomi", 0, 5, 2))
    assert clock.spend(9) and clock.periods == 1  # one period used up, the move ended in the last
    assert not clock.spend(5.5)  # the last period overrun


def test_canadian_byoyomi_counts_moves_in_each_period():
    clock = SideClock(TimeControl("canadian", 5, 10, 3))
    assert clock.spend(7)  # 5 s of main time, 2 s of the first period
    assert clock.time_left() == (8, 2)
    assert clock.spend(3) and clock.time_left() == (5, 1)
    assert clock.spend(5) and clock.time_left() == (10, 3)  # the period's 3 moves done: a new one
    assert clock.spend(4) and not clock.spend(6.5)  # 6 s left for 2 moves: the second overruns


@pytest.mark.parametrize(
    ("text", "longest"),
    [("300", 300), ("60+5x3", 75), ("60+30/10", 90), ("0+10x2", 20), ("1.5", 1.5)],
)
def test_the_longest_move_a_clock_allows_keeps_the_flag_and_a_longer_one_drops_it(text, longest):
    control = TimeControl.parse(text)
    assert control.longest_move() == longest
    assert SideClock(control).spend(longest)
    assert not SideClock(control).spend(longest + 0.01)
