"""The GTP commands of time (``goengine.gtp.timing``): what ``time_settings`` (GTP 2, section
6.3.4: absolute, Canadian, and byo-yomi time without stones meaning no limit),
``kgs-time_settings`` (KGS's none, absolute, byoyomi, canadian) and ``time_left`` set in the
engine's clocks (``engine.clocks``: the ``TimeSettings`` in force, each colour's ``Clock``); that
a refused command (``syntax error``) leaves the clocks as they were; and ``cputime``.

How the clocks are charged and how much of them a move spends is ``test_time_control.py``'s;
every response's wording across many more malformed lines is ``tests/data/time.gtp``'s.
"""

from __future__ import annotations

import pytest

from goengine.board import BLACK, WHITE
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.timing import time_settings_from_gtp
from goengine.time_control import Clock, TimeSettings


def gtp_for() -> GtpEngine:
    return GtpEngine(Engine())


def clocks_of(gtp: GtpEngine):
    """The time system in force and both players' clocks, as copies."""
    clocks = gtp.engine.clocks
    return clocks.settings, Clock(**vars(clocks[BLACK])), Clock(**vars(clocks[WHITE]))


# ---- time_settings main_time byo_yomi_time byo_yomi_stones


@pytest.mark.parametrize(
    ("args", "settings"),
    [
        ((300, 0, 0), TimeSettings("absolute", 300)),
        ((1.5, 0, 0), TimeSettings("absolute", 1.5)),
        ((300, 30, 5), TimeSettings("canadian", 300, 30, 5)),
        ((0, 30, 1), TimeSettings("canadian", 0, 30, 1)),
        ((0, 0, 0), TimeSettings("none")),  # no time at all: no limit rather than a lost game
        ((0, 1, 0), TimeSettings("none")),  # byo-yomi time without stones: no limit (GoGui's 0 1 0)
        ((300, 30, 0), TimeSettings("none")),  # the same, with main time
        ((0, 0, 5), TimeSettings("none")),
    ],
)
def test_time_settings_are_read_as_gtp_2_says(args, settings):
    assert time_settings_from_gtp(*args) == settings


def test_time_settings_0_1_0_means_no_time_limit():
    """GTP 2, time_settings: byo-yomi time with no stones means no limit (GoGui sends 0 1 0)."""
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(0, 1, 0))
    assert engine.clocks.settings.kind == "none"
    assert engine.seconds_for_move(BLACK, engine.game.board) is None
    gtp = GtpEngine(Engine())
    assert gtp.send("time_settings 0 1 0") == "=\n\n"
    assert gtp.engine.seconds_for_move(WHITE, gtp.engine.game.board) is None


def test_time_settings_starts_both_clocks_full():
    gtp = gtp_for()
    assert gtp.send("time_settings 300 30 5") == "=\n\n"
    settings, black, white = clocks_of(gtp)
    assert settings == TimeSettings("canadian", 300.0, 30.0, 5)
    assert black == white == Clock(main=300.0, period=30.0, stones=0, periods=0)


def test_new_time_settings_start_the_clocks_again():
    gtp = gtp_for()
    gtp.send("time_settings 300 0 0")
    gtp.send("time_left b 12 0")
    assert gtp.send("time_settings 600 0 0") == "=\n\n"
    assert gtp.engine.clocks[BLACK].main == gtp.engine.clocks[WHITE].main == 600.0
    assert not gtp.engine.clocks[BLACK].reported


@pytest.mark.parametrize(
    "args",
    ["300 30", "300 30 5 5", "", "x 30 5", "300 30 x", "300 30 1.5", "-1 30 5", "300 -30 5", "300 30 -5", "nan 30 5"],
)
def test_a_refused_time_settings_is_a_syntax_error_and_keeps_the_clocks(args):
    gtp = gtp_for()
    gtp.send("time_settings 300 0 0")
    gtp.send("time_left w 100 0")
    before = clocks_of(gtp)
    assert gtp.send(f"time_settings {args}") == "? syntax error\n\n"
    assert clocks_of(gtp) == before


# ---- kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN BYO STONES


@pytest.mark.parametrize(
    ("args", "settings", "clock"),
    [
        ("none", TimeSettings("none"), Clock()),
        ("absolute 600", TimeSettings("absolute", 600), Clock(main=600.0)),
        ("byoyomi 600 30 5", TimeSettings("byoyomi", 600, 30, 0, 5), Clock(main=600.0, period=30.0, periods=5)),
        ("canadian 600 300 25", TimeSettings("canadian", 600, 300, 25), Clock(main=600.0, period=300.0)),
        ("Canadian 0 300 25", TimeSettings("canadian", 0, 300, 25), Clock(period=300.0)),
        ("NONE", TimeSettings("none"), Clock()),
    ],
)
def test_kgs_time_settings_sets_each_time_system_and_starts_both_clocks(args, settings, clock):
    """KGS's byoyomi counts periods (the last number), Canadian byo-yomi stones."""
    gtp = gtp_for()
    gtp.send("time_settings 10 0 0")
    assert gtp.send(f"kgs-time_settings {args}") == "=\n\n"
    assert clocks_of(gtp) == (settings, clock, clock)


@pytest.mark.parametrize(
    "args",
    [
        "",
        "none 5",
        "absolute",
        "absolute 600 30",
        "byoyomi 600 30",
        "canadian 600 300",
        "canadian 600 300 25 1",
        "fischer 600 10",
        "absolute x",
        "absolute -600",
        "byoyomi 600 nan 5",
        "byoyomi 600 30 2.5",  # a fraction of a period is not cut to 2
        "canadian 600 300 2.5",
    ],
)
def test_a_refused_kgs_time_settings_is_a_syntax_error_and_keeps_the_clocks(args):
    gtp = gtp_for()
    gtp.send("kgs-time_settings byoyomi 600 30 5")
    before = clocks_of(gtp)
    assert gtp.send(f"kgs-time_settings {args}") == "? syntax error\n\n"
    assert clocks_of(gtp) == before


# ---- time_left color time stones


def test_time_left_with_stones_0_is_the_main_time_left_of_that_colour_only():
    gtp = gtp_for()
    gtp.send("time_settings 300 30 5")
    assert gtp.send("time_left b 250 0") == "=\n\n"
    _, black, white = clocks_of(gtp)
    assert (black.main, black.reported) == (250.0, True)
    assert (white.main, white.reported) == (300.0, False)


def test_time_left_in_canadian_byoyomi_is_the_periods_time_and_stones_left():
    gtp = gtp_for()
    gtp.send("time_settings 300 30 5")
    assert gtp.send("time_left white 25.5 3") == "=\n\n"
    _, black, white = clocks_of(gtp)
    assert (white.main, white.period, white.stones, white.reported) == (0.0, 25.5, 3, True)
    assert black.main == 300.0


def test_time_left_in_kgs_byoyomi_counts_periods_not_stones():
    gtp = gtp_for()
    gtp.send("kgs-time_settings byoyomi 600 30 5")
    assert gtp.send("time_left B 28 2") == "=\n\n"
    black = gtp.engine.clocks[BLACK]
    assert (black.main, black.period, black.periods, black.stones) == (0.0, 28.0, 2, 0)


@pytest.mark.parametrize(
    "args", ["b 250", "b 250 0 1", "x 250 0", "b x 0", "b 250 x", "b 250 1.5", "b nan 0", "", "250 0 b"]
)
def test_a_refused_time_left_is_a_syntax_error_and_keeps_the_clocks(args):
    gtp = gtp_for()
    gtp.send("time_settings 300 30 5")
    gtp.send("time_left w 100 0")
    before = clocks_of(gtp)
    assert gtp.send(f"time_left {args}") == "? syntax error\n\n"
    assert clocks_of(gtp) == before


# ---- cputime


def test_cputime_is_the_processors_seconds_so_far_and_never_goes_back():
    gtp = gtp_for()
    first = gtp.send("cputime")
    second = gtp.send("cputime")
    for response in (first, second):
        assert response.startswith("= ") and response.endswith("\n\n"), response
        assert len(response[2:-2].split(".")[1]) == 3  # milliseconds
    assert 0 < float(first[2:-2]) <= float(second[2:-2])
