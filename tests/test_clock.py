"""The engine's own clock (``goengine.time_control``, ``Engine``): charged by each move's round trip,
replaced by ``time_left``, reset by ``time_settings`` and ``clear_board``, left alone by
``undo``; the allocation never plans past the time left less its reserve, lasts inside the
reserve, and enters byo-yomi deliberately."""

from __future__ import annotations

import threading
import time

import pytest

from goengine.board import BLACK, WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import serve
from goengine.gtp.timing import time_settings_from_gtp
from goengine.time_control import (
    MIN_RESERVE,
    MIN_SECONDS,
    MOVE_MARGIN,
    RESERVE_DRAW,
    Clock,
    TimeSettings,
    moves_to_plan,
    seconds_for_move,
)

ABSOLUTE = TimeSettings("absolute", 30)
CANADIAN = TimeSettings("canadian", 5, 10, 5)
JAPANESE = TimeSettings("byoyomi", 5, 2, 0, 3)


# ---- the clock on hand-made sequences


def test_sudden_death_is_charged_move_by_move():
    clock = Clock.full(ABSOLUTE)
    for seconds in (1.5, 2.0, 0.25):
        clock.charge(ABSOLUTE, seconds)
    assert clock.main == pytest.approx(26.25)
    clock.charge(ABSOLUTE, 27.0)
    assert clock.main == pytest.approx(-0.75)  # the flag fell: the clock says so


def test_canadian_byoyomi_counts_its_stones_and_starts_each_period_afresh():
    clock = Clock.full(CANADIAN)
    clock.charge(CANADIAN, 4.0)
    assert (clock.main, clock.stones) == (1.0, 0) and not clock.in_byoyomi(CANADIAN)
    clock.charge(CANADIAN, 3.0)  # 1 s of main time, 2 s of the first period: 4 stones in 8 s left
    assert (clock.main, clock.period, clock.stones) == (0.0, 8.0, 4) and clock.in_byoyomi(CANADIAN)
    for _ in range(4):
        clock.charge(CANADIAN, 1.5)
    assert (clock.period, clock.stones) == (10.0, 5)  # the period's stones played in time: a new one


def test_japanese_byoyomi_loses_a_period_for_each_move_that_overruns_one():
    clock = Clock.full(JAPANESE)
    clock.charge(JAPANESE, 6.0)  # 5 s of main, 1 s of a period
    assert (clock.main, clock.periods) == (0.0, 3)
    clock.charge(JAPANESE, 2.0)  # exactly a period
    assert clock.periods == 3
    clock.charge(JAPANESE, 4.5)  # two periods overrun, ends in the third
    assert clock.periods == 1


def test_time_left_replaces_the_engines_figures():
    clock = Clock.full(CANADIAN)
    clock.charge(CANADIAN, 2.0)
    clock.report(CANADIAN, 4.0, 0)
    assert (clock.main, clock.reported) == (4.0, True)
    clock.report(CANADIAN, 7.0, 3)  # in byo-yomi: 7 s for 3 stones
    assert (clock.main, clock.period, clock.stones) == (0.0, 7.0, 3)
    clock.charge(CANADIAN, 1.0)
    assert (clock.period, clock.stones, clock.reported) == (6.0, 2, False)
    japanese = Clock.full(JAPANESE)
    japanese.report(JAPANESE, 2.0, 2)  # KGS: a period's time and the periods left
    assert (japanese.main, japanese.period, japanese.periods) == (0.0, 2.0, 2)


# ---- the allocation


@pytest.mark.parametrize("left", [30.0, 10.0, 3.0, 1.6, 1.5, 1.0, 0.3, 0.06])
def test_sudden_death_never_plans_past_the_time_left_less_the_margin(left):
    clock = Clock(main=left)
    reserve = max(MIN_RESERVE, 0.05 * ABSOLUTE.main)  # 1.5 s
    plan = moves_to_plan(81, 9)  # 30.375
    allowed = seconds_for_move(ABSOLUTE, clock, 81, 9)
    assert allowed <= left - MOVE_MARGIN + 1e-12
    planned = (left - reserve) / plan - MOVE_MARGIN
    lasting = (left - MOVE_MARGIN) / (RESERVE_DRAW * plan)
    assert allowed == pytest.approx(max(0.001, planned, lasting))
    if left >= 10.0:
        assert allowed == pytest.approx(planned)  # the plan, the reserve kept back
    else:
        assert allowed == pytest.approx(max(0.001, lasting))  # inside the reserve: a little of it


def test_inside_the_reserve_a_long_endgame_still_does_not_lose_on_time():
    """From 1.5 s left (the reserve of a 30 s game), 60 more moves of its own (a 9x9 game far longer
    than planned), each charged what it was allowed plus 0.012 s of overhead (the worst round trip
    measured): the clock never reaches zero."""
    clock = Clock(main=1.5)
    for _ in range(60):
        allowed = seconds_for_move(ABSOLUTE, clock, 10, 9, overhead=0.012)
        clock.charge(ABSOLUTE, allowed + 0.012)
    assert clock.main > 0


def test_byoyomi_is_entered_deliberately_when_the_main_time_is_all_but_gone():
    settings = TimeSettings("byoyomi", 60, 10, 0, 3)
    share = 10 * 0.9 - 0.3 - MOVE_MARGIN  # a period's time, less the margins
    assert seconds_for_move(settings, Clock(main=0.5, period=10, periods=3), 60, 9) == pytest.approx(share)
    in_main = seconds_for_move(settings, Clock(main=40, period=10, periods=3), 60, 9)
    assert in_main > share  # main time's share on top of a period's
    assert seconds_for_move(settings, Clock(main=0, period=10, periods=3), 60, 9) == pytest.approx(share)
    assert seconds_for_move(settings, Clock(main=0, period=10, periods=0), 60, 9) == MIN_SECONDS  # flag fell


def test_the_worst_overhead_seen_is_kept_back_on_every_move():
    clock = Clock(main=20.0)
    plain = seconds_for_move(ABSOLUTE, clock, 81, 9)
    assert seconds_for_move(ABSOLUTE, clock, 81, 9, overhead=0.3) == pytest.approx(plain - (0.3 - MOVE_MARGIN))


# ---- the engine


def test_time_settings_and_clear_board_reset_the_clocks_and_undo_leaves_them():
    engine = Engine(EngineConfig(search=SearchConfig(playouts=50)))
    engine.set_time(time_settings_from_gtp(30, 0, 0))
    engine.genmove(BLACK)
    engine.charge_clock(BLACK, 2.0)
    assert engine.clocks[BLACK].main == 28.0 and engine.clocks[WHITE].main == 30.0
    engine.undo()
    assert engine.clocks[BLACK].main == 28.0  # time spent stays spent
    engine.clear()
    assert engine.clocks[BLACK].main == 30.0  # a new game
    engine.charge_clock(WHITE, 5.0)
    engine.set_time(time_settings_from_gtp(60, 0, 0))
    assert engine.clocks[WHITE].main == 60.0
    engine.time_left(WHITE, 12, 0)
    assert engine.clocks[WHITE].main == 12.0


def test_charge_keeps_the_worst_overhead_beyond_the_search():
    engine = Engine(EngineConfig(search=SearchConfig(playouts=50)))
    engine.set_time(time_settings_from_gtp(30, 0, 0))
    result = engine.genmove(BLACK).search
    engine.charge_clock(BLACK, result.seconds + 0.2)
    assert engine.overhead == pytest.approx(0.2)
    result = engine.genmove(WHITE).search
    engine.charge_clock(WHITE, result.seconds + 0.05)
    assert engine.overhead == pytest.approx(0.2)  # the worst


class Script:
    """stdin for ``serve``: lines, with pauses; remembers when the last line was handed over."""

    def __init__(self, *items):
        self.items = items

    def __iter__(self):
        for item in self.items:
            if isinstance(item, str):
                yield item
            else:
                time.sleep(item)


def test_serve_charges_each_genmove_with_its_round_trip(capfd):
    """Over the I/O loop, a genmove costs its player the time from the command's arrival to the
    answer's flush, without any time_left from the controller."""
    engine = Engine(EngineConfig(search=SearchConfig(playouts=None)))
    # a controller sends a genmove only once it has the answer to the one before: 1.2 s apart
    lines = Script("time_settings 20 0 0\n", "genmove b\n", 1.2, "genmove w\n", 1.2, "quit\n")
    out_lines: list[str] = []

    class Out:
        def write(self, text):
            out_lines.append(text)

        def flush(self):
            pass

    start = time.perf_counter()
    thread = threading.Thread(target=serve, args=(engine,), kwargs={"stdin": lines, "stdout": Out()})
    thread.start()
    thread.join(30)
    elapsed = time.perf_counter() - start
    spent_black = 20.0 - engine.clocks[BLACK].main
    spent_white = 20.0 - engine.clocks[WHITE].main
    allowed = (20 - 1.0) / moves_to_plan(81, 9) - MOVE_MARGIN  # what each was allowed: 0.575 s
    for spent in (spent_black, spent_white):
        assert allowed - 0.01 < spent < allowed + 0.1
    assert spent_black + spent_white < elapsed
