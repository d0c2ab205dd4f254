"""The engine's own clock (``goengine.time_control``, and ``Engine``'s use of it): charged by each
move's round trip, replaced by ``time_left``, reset by ``time_settings`` and ``clear_board``, left
alone by ``undo``; the allocation (``seconds_for_move``) never plans past the time left less its
reserve, lasts inside the reserve, enters byo-yomi deliberately, and reads each time system
(absolute, Canadian, Japanese, KGS's byo-yomi) as GTP sends it; ``genmove`` searches for what the
clock allows; and a whole game against GNU Go under the referee's clock is never lost on time.

Times that a test needs exactly are counted on fake clocks (``helpers.BatchClock`` for the
search, a scripted ``perf_counter`` for ``serve``), so a loaded machine cannot break them.
"""

from __future__ import annotations

import itertools
import threading
import types

import pytest
from helpers import BatchClock, set_up
from match_harness import GNUGO, GNUGO_LEVEL1, HAVE_GNUGO, records_of, run_match

from goengine import engine as engine_module
from goengine.board import BLACK, WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine, protocol, serve
from goengine.gtp.timing import time_settings_from_gtp
from goengine.time_control import (
    MIN_RESERVE,
    MIN_SECONDS,
    MOVE_MARGIN,
    RESERVE_DRAW,
    SAFETY_SECONDS,
    SAFETY_SHARE,
    Clock,
    MoveTime,
    StopRule,
    TimeSettings,
    board_plan_share,
    move_time,
    moves_to_plan,
    seconds_for_move,
)

ABSOLUTE = TimeSettings("absolute", 30)
CANADIAN = TimeSettings("canadian", 5, 10, 5)
JAPANESE = TimeSettings("byoyomi", 5, 2, 0, 3)


def margin(per_move: float) -> float:
    """What ``seconds_for_move`` gives for ``per_move`` seconds of a byo-yomi period."""
    return per_move * (1 - SAFETY_SHARE) - SAFETY_SECONDS - MOVE_MARGIN


# The default plan share on 9x9 (``SearchConfig.plan_share`` None: ``board_plan_share``) and the moves it
# plans on an empty 9x9: 0.7 of Fuego's estimate, (81 - 81/4) / 2 = 30.375
SHARE = 0.7
EMPTY_9X9 = SHARE * 30.375  # 21.2625


def planned(main_left: float, reserve: float, moves: float) -> float:
    """What it gives in main time: the time left less the reserve, over the moves planned."""
    return (main_left - reserve) / moves - MOVE_MARGIN


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


# ---- the allocation (``seconds_for_move``) on hand-made clocks


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


# ---- the engine's clocks: set, reset, charged


def test_time_settings_and_clear_board_reset_the_clocks_and_undo_leaves_them():
    engine = Engine(EngineConfig(search=SearchConfig(playouts=50)))
    engine.clocks.start(time_settings_from_gtp(30, 0, 0))
    engine.genmove(BLACK)
    engine.move_answered(BLACK, 2.0)
    assert engine.clocks[BLACK].main == 28.0 and engine.clocks[WHITE].main == 30.0
    engine.game.undo()
    assert engine.clocks[BLACK].main == 28.0  # time spent stays spent
    engine.new_game()
    assert engine.clocks[BLACK].main == 30.0  # a new game
    engine.move_answered(WHITE, 5.0)
    engine.clocks.start(time_settings_from_gtp(60, 0, 0))
    assert engine.clocks[WHITE].main == 60.0
    engine.clocks.report(WHITE, 12, 0)
    assert engine.clocks[WHITE].main == 12.0


def test_charge_keeps_the_worst_overhead_beyond_the_search():
    engine = Engine(EngineConfig(search=SearchConfig(playouts=50)))
    engine.clocks.start(time_settings_from_gtp(30, 0, 0))
    result = engine.genmove(BLACK).result
    engine.move_answered(BLACK, result.seconds + 0.2)
    assert engine.clocks.overhead == pytest.approx(0.2)
    result = engine.genmove(WHITE).result
    engine.move_answered(WHITE, result.seconds + 0.05)
    assert engine.clocks.overhead == pytest.approx(0.2)  # the worst


# ---- the engine's allocation: each time system as GTP sets it


def test_no_time_settings_means_no_limit_from_the_clock():
    engine = Engine()
    assert engine.seconds_for_move(BLACK, engine.game.board) is None


def test_absolute_time_on_an_empty_9x9_is_spread_over_the_default_share_of_the_moves_fuego_expects():
    """81 empty points: (81 - 81/4) / 2 = 30.375 moves still to play (Fuego's estimate), of which
    the default plan share, 0.7, is 21.2625; 60 s less the reserve of 5 % (3 s) over them, less
    the margin: 2.63 s."""
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(60, 0, 0))
    allowed = engine.seconds_for_move(BLACK, engine.game.board)
    assert allowed == pytest.approx(planned(60, 3, EMPTY_9X9))
    assert allowed == pytest.approx(2.6308, abs=1e-4)


@pytest.mark.parametrize(
    ("share", "moves"),
    [
        (1.0, 30.375),  # Fuego's estimate
        (0.7, 21.2625),  # 0.7 x 60.75 / 2
        (0.4, 13.5),  # 0.4 x 60.75 = 24.3 is under 3N = 27: the floor, 3N/2
        (2.0, 60.75),
    ],
)
def test_plan_share_scales_the_moves_still_expected_but_not_their_floor(share, moves):
    """On an empty 9x9 with 60 s: the time left less the reserve over the scaled estimate, less
    the margin; the same through the engine's setting."""
    assert moves_to_plan(81, 9, share) == pytest.approx(moves)
    engine = Engine(EngineConfig(search=SearchConfig(plan_share=share)))
    engine.clocks.start(time_settings_from_gtp(60, 0, 0))
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(planned(60, 3, moves))
    allotted = engine.clocks.move_time(BLACK, 81, 9, share)
    assert allotted.planned == pytest.approx(planned(60, 3, moves))
    assert allotted.longest(1.0) == pytest.approx(2 * planned(60, 3, moves))


def test_time_left_replaces_the_main_time_and_is_per_colour():
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(600, 0, 0))
    engine.clocks.report(BLACK, 40, 0)
    # the reserve stays 5 % of the main time (30 s), whatever is left
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(planned(40, 30, EMPTY_9X9))
    assert engine.seconds_for_move(WHITE, engine.game.board) == pytest.approx(planned(600, 30, EMPTY_9X9))


def test_fewer_empty_points_give_more_time_per_move_but_at_least_3n_over_2_moves_are_planned():
    engine = set_up("\n".join(["X X X X X X X X X"] * 4 + [". . . . . . . . ."] * 5))
    engine.clocks.start(time_settings_from_gtp(60, 0, 0))
    # 45 empty: max(45 - 20.25, 27) / 2 = 13.5 moves, the floor already
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(planned(60, 3, 13.5))
    full = set_up("\n".join(["X X X X X X X X X"] * 8 + [". . . . . . . . ."]))
    full.clocks.start(time_settings_from_gtp(60, 0, 0))
    assert full.seconds_for_move(BLACK) == pytest.approx(planned(60, 3, 13.5))
    big = Engine(EngineConfig(size=19))  # 361 empty: the default share on 19x19 is 1, (361 - 90.25) / 2 = 135.375
    big.clocks.start(time_settings_from_gtp(600, 0, 0))
    assert big.seconds_for_move(BLACK) == pytest.approx(planned(600, 30, 135.375))


@pytest.mark.parametrize(
    ("size", "share"),
    [(5, 0.7), (9, 0.7), (13, 0.7), (14, 1.0), (19, 1.0)],
)
def test_the_default_plan_share_goes_by_the_board_size_and_a_set_share_overrides_it(size, share):
    """0.7 of Fuego's estimate below 14x14, 1 from there up; a share set in the settings is used
    as it is on every size. Through the engine: an empty board of 10 minutes plans over the share
    of (N^2 - N^2/4) / 2 moves."""
    assert board_plan_share(size) == share
    assert board_plan_share(size, 0.4) == 0.4
    moves = 0.75 * size * size / 2
    assert moves_to_plan(size * size, size, None) == pytest.approx(max(share * moves, 1.5 * size))
    for config_share, used in ((None, share), (1.3, 1.3)):
        engine = Engine(EngineConfig(size=size, search=SearchConfig(plan_share=config_share)))
        engine.clocks.start(time_settings_from_gtp(600, 0, 0))
        expected = planned(600, 30, max(used * moves, 1.5 * size))
        assert engine.seconds_for_move(BLACK) == pytest.approx(expected)


def test_a_sudden_death_game_spends_more_in_the_middle_than_at_the_end_and_keeps_its_reserve():
    """A 9x9 game of 45 moves each under 15 s sudden death, each move taking what it is allowed
    (plus 0.02 s of overhead): the flag never falls, the middle third gets more a move than the
    last third, and the reserve (0.75 s) is still there."""
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(15, 0, 0))
    left, empty, spent = 15.0, 81, []
    for _ in range(45):
        engine.clocks.report(BLACK, left, 0)
        board = set_up("\n".join(" ".join("X" if 9 * r + c >= empty else "." for c in range(9)) for r in range(9)))
        allowed = engine.seconds_for_move(BLACK, board.game.board)
        spent.append(allowed)
        left -= allowed + 0.02
        empty = max(1, empty - 2)
    assert left > 0.75
    assert sum(spent[15:30]) > sum(spent[30:45])


def test_canadian_byo_yomi_with_stones_left_spreads_the_period_over_them():
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(0, 300, 25))
    engine.clocks.report(BLACK, 120, 10)  # 10 stones to play in the 120 s left of the period
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(margin(12))


def test_canadian_main_time_adds_one_stone_share_of_the_period():
    engine = Engine()
    engine.clocks.start(time_settings_from_gtp(60, 30, 5))
    allowed = engine.seconds_for_move(BLACK, engine.game.board)
    assert allowed == pytest.approx(planned(60, 3, EMPTY_9X9) + margin(30 / 5))


def test_japanese_byoyomi_period_is_the_time_for_one_move():
    """In a Japanese period every move may use the whole period (GTP time_left sends stones 0)."""
    engine = Engine()
    engine.clocks.start(TimeSettings("byoyomi", 0, 30, 0, 5))
    engine.clocks.report(BLACK, 30, 0)
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(margin(30))


def test_japanese_byoyomi_main_time_adds_one_period():
    engine = Engine()
    engine.clocks.start(TimeSettings("byoyomi", 600, 30, 0, 5))
    engine.clocks.report(BLACK, 400, 0)
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(planned(400, 30, EMPTY_9X9) + margin(30))


def test_kgs_byoyomi_time_left_stones_count_periods_not_stones():
    """KGS (kgs-time_settings byoyomi) reports Japanese byo-yomi as ``time_left b 30 5``: 30 s in
    the current period and 5 PERIODS left (Leela Zero's TimeControl::adjust_time, "KGS
    extension": ``m_periods_left = stones``). The engine allows the whole period (26.7 s after the
    margin). (Before a fix it read the 5 as Canadian stones and allowed 30/5 s a move.)"""
    gtp = GtpEngine(Engine())
    gtp.send("kgs-time_settings byoyomi 600 30 5")
    gtp.send("time_left b 30 5")
    engine = gtp.engine
    assert engine.seconds_for_move(BLACK, engine.game.board) == pytest.approx(margin(30))


CLOCKS = [
    time_settings_from_gtp(600, 0, 0),
    time_settings_from_gtp(5, 0, 0),
    time_settings_from_gtp(600, 30, 5),
    time_settings_from_gtp(0, 60, 1),
    TimeSettings("byoyomi", 600, 30, 0, 5),
    TimeSettings("byoyomi", 0, 10, 0, 3),
]


@pytest.mark.parametrize("settings", CLOCKS, ids=lambda s: f"{s.kind}-{s.main:g}-{s.byo_time:g}-{s.byo_stones}")
def test_never_more_than_the_time_left(settings):
    """In main time the move may also draw on the byo-yomi that follows; in Canadian byo-yomi
    (stones left) only on the period's time left; without byo-yomi only on the main time left."""
    for size, seconds, stones in itertools.product((5, 9, 19), (0.1, 0.5, 2, 10, 60, 600, 3600), (0, 1, 5)):
        engine = Engine(EngineConfig(size=size))
        engine.clocks.start(settings)
        engine.clocks.report(BLACK, seconds, stones)
        allowed = engine.seconds_for_move(BLACK, engine.game.board)
        in_byo_yomi_or_absolute = stones > 0 or settings.kind == "absolute"
        limit = seconds if in_byo_yomi_or_absolute else seconds + settings.byo_time
        assert 0 < allowed < limit, (size, seconds, stones, allowed)


class ScriptedClock:
    """``time.perf_counter`` for ``goengine.gtp.protocol``: it moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


def test_serve_charges_each_genmove_with_its_round_trip_and_nothing_else(monkeypatch):
    """Over the I/O loop a genmove costs its player the time from the command's arrival to the
    answer's flush, without any time_left from the controller: its search and its writing, not the
    controller's pause before it, and no other command costs anything. Time is a scripted clock:
    the controller thinks 30 s before each genmove, Black's search takes 0.5 s and White's 0.25 s,
    and writing an answer 0.01 s."""
    clock = ScriptedClock()
    monkeypatch.setattr(protocol, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    engine = Engine(EngineConfig(search=SearchConfig(playouts=50)))
    search_seconds = {BLACK: 0.5, WHITE: 0.25}
    genmove, move_answered = engine.genmove, engine.move_answered
    written, charged = threading.Event(), threading.Event()
    charges = []

    def thinking_genmove(color, *args, **kwargs):
        clock.now += search_seconds[color]
        return genmove(color, *args, **kwargs)

    def recording_charge(color, seconds):
        charges.append((color, seconds))
        move_answered(color, seconds)
        charged.set()

    monkeypatch.setattr(engine, "genmove", thinking_genmove)
    monkeypatch.setattr(engine, "move_answered", recording_charge)

    class Out:
        def write(self, text):
            clock.now += 0.01
            written.set()

        def flush(self):
            pass

    def controller():
        """Sends a line only once the answer to the one before is out (and charged), as a
        controller does; thinks 30 s before each genmove."""
        yield "time_settings 20 0 0\n"
        written.wait(30)
        for line in ("genmove b\n", "genmove w\n"):
            clock.now += 30.0
            charged.clear()
            yield line
            charged.wait(30)
        yield "quit\n"

    thread = threading.Thread(target=serve, args=(engine,), kwargs={"stdin": controller(), "stdout": Out()})
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert [color for color, _ in charges] == [BLACK, WHITE]
    assert [seconds for _, seconds in charges] == pytest.approx([0.51, 0.26])
    assert engine.clocks[BLACK].main == pytest.approx(20 - 0.51)
    assert engine.clocks[WHITE].main == pytest.approx(20 - 0.26)


# ---- genmove under a clock


def clock_genmove(monkeypatch, extend=None, seconds=None, leaders=None, **settings):
    """genmove on an empty 9x9 with 20 s of sudden death and no playout budget, so the clock
    decides, counted on a BatchClock of 0.05 s a batch (the stop test's own clock too), with
    ``extend_time`` ``extend`` (None: the default's), the settings' ``seconds`` and any other
    ``settings`` of SearchConfig. With
    ``leaders``, the root's two leaders are ``leaders(playouts)`` (searched visits, win rate each)
    whenever the stop test asks. The budget given to the search, the result and the clock."""
    if extend is not None:
        settings["extend_time"] = extend
    search = SearchConfig(seconds=seconds, **settings)
    engine = Engine(EngineConfig(search=search))
    engine.clocks.start(time_settings_from_gtp(20, 0, 0))
    budgets = []
    run = engine._search.run

    def recording_run(board, komi, request):
        budgets.append(request.budget)
        return run(board, komi, request)

    monkeypatch.setattr(engine._search, "run", recording_run)
    clock = BatchClock(monkeypatch, step=0.05)
    monkeypatch.setattr(engine_module, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    if leaders is not None:

        def root_leaders():
            playouts = clock.batches * engine._search.config.batch
            return (*leaders(playouts), playouts)

        monkeypatch.setattr(engine._search, "root_leaders", root_leaders)
    result = engine.genmove(BLACK).result
    (budget,) = budgets
    return budget, result, clock


def test_genmove_searches_for_the_seconds_the_clock_allows(monkeypatch):
    """With no playout budget and ``extend_time`` 0 the clock decides alone: genmove gives the
    search the seconds ``seconds_for_move`` allows ((20 - 1) / 21.2625 - 0.05 = 0.84 s on an empty
    9x9) and no playout cap, and the search spends them, stopping at most one batch past them."""
    allowed = planned(20, 1, EMPTY_9X9)
    budget, result, clock = clock_genmove(monkeypatch, extend=0.0)
    assert budget.playouts is None and budget.seconds == pytest.approx(allowed)
    assert allowed <= result.seconds < allowed + clock.step
    assert result.playouts == clock.batches * SearchConfig().batch


# ---- stretching an unsure move, stopping a settled one


def test_only_main_time_outside_the_reserve_may_be_stretched():
    n = moves_to_plan(81, 9)  # 30.375
    fresh = move_time(TimeSettings("absolute", 60), Clock(main=60), 81, 9)
    assert fresh == MoveTime(planned(60, 3, n), planned(60, 3, n))
    assert fresh.longest(1.0) == pytest.approx(2 * planned(60, 3, n))
    assert fresh.longest(0.0) == fresh.planned
    # inside the reserve (3 s of a 60 s game) the move lasts and is never stretched
    assert move_time(TimeSettings("absolute", 60), Clock(main=2), 81, 9).extendable == 0.0
    # Canadian main time: the period's share is added, only the main part stretches
    canadian = move_time(CANADIAN, Clock(main=5), 81, 9)
    assert canadian.extendable == pytest.approx(planned(5, MIN_RESERVE, n))
    assert canadian.planned == pytest.approx(canadian.extendable + margin(10 / 5))
    # in byo-yomi a period is all a move has
    clock = Clock.full(JAPANESE)
    clock.charge(JAPANESE, 6.0)
    assert clock.in_byoyomi(JAPANESE) and move_time(JAPANESE, clock, 81, 9).extendable == 0.0
    assert move_time(TimeSettings(), Clock(), 81, 9) is None


@pytest.mark.parametrize(
    ("elapsed", "playouts", "best", "second", "stop"),
    [
        # sure (2.5 x the runner-up's visits or more, and the better win rate): the end is the plan
        # (1 s); before it, stop once the runner-up cannot close the gap with the 2000 playouts a
        # second still to come
        (0.5, 1000, (1500, 0.6), (400, 0.5), True),  # 1100 behind, 1000 to come
        (0.5, 1000, (1500, 0.6), (600, 0.5), False),  # 900 behind: it still could
        (0.5, 0, (0, 0.0), (0, 0.0), False),  # nothing searched yet
        (1.0, 2000, (1300, 0.6), (500, 0.5), True),  # at the plan
        (1.5, 3000, (1300, 0.6), (0, 0.0), True),  # one move only
        # unsure: the end is the longest time (2 s)
        (1.0, 2000, (1000, 0.6), (500, 0.5), False),  # only 2 x the runner-up's visits
        (1.0, 2000, (1300, 0.6), (500, 0.65), False),  # 2.6 x, but the runner-up wins more often
        (0.5, 1000, (1500, 0.6), (700, 0.5), False),  # 800 behind with 3000 to come
        (1.5, 3000, (2100, 0.5), (1000, 0.6), True),  # 1100 behind, 1000 to come: out of reach
        (2.0, 4000, (1000, 0.5), (999, 0.6), True),  # at the longest
    ],
)
def test_the_stop_rule_on_hand_computed_roots(elapsed, playouts, best, second, stop):
    assert StopRule(planned=1.0, longest=2.0).settled(elapsed, playouts, best, second) is stop


def test_an_unsure_search_thinks_up_to_twice_its_planned_time(monkeypatch):
    allowed = planned(20, 1, EMPTY_9X9)  # 0.84 s
    # two moves level: unsure, and the runner-up never out of reach
    budget, result, _ = clock_genmove(monkeypatch, leaders=lambda n: ((0.3 * n, 0.5), (0.3 * n, 0.52)))
    assert budget.playouts is None and budget.seconds == pytest.approx(2 * allowed)
    assert 2 * allowed <= result.seconds < 2 * allowed + 0.05


def test_an_unsure_search_stretches_the_plan_of_its_plan_share(monkeypatch):
    allowed = planned(20, 1, 30.375)  # a share of 1: Fuego's 30.375 moves
    budget, result, _ = clock_genmove(monkeypatch, leaders=lambda n: ((0.3 * n, 0.5), (0.3 * n, 0.52)), plan_share=1.0)
    assert budget.seconds == pytest.approx(2 * allowed)
    assert 2 * allowed <= result.seconds < 2 * allowed + 0.05


def test_a_settled_search_stops_once_the_runner_up_cannot_catch_up(monkeypatch):
    allowed = planned(20, 1, EMPTY_9X9)  # 0.844 s
    # a lead of 0.4 n after n playouts in t seconds: out of reach once 0.4 t > allowed - t,
    # that is after allowed / 1.4 = 0.603 s, so at the first batch's end past it, 0.65 s
    _, result, _ = clock_genmove(monkeypatch, leaders=lambda n: ((0.5 * n, 0.6), (0.1 * n, 0.5)))
    assert result.seconds == pytest.approx(0.65)
    assert result.seconds < allowed


def test_without_extend_time_or_under_a_shorter_seconds_setting_the_plan_stands(monkeypatch):
    allowed = planned(20, 1, EMPTY_9X9)
    unsure = lambda n: ((0.3 * n, 0.5), (0.3 * n, 0.52))  # noqa: E731
    budget, result, _ = clock_genmove(monkeypatch, extend=0.0, leaders=unsure)
    assert budget.seconds == pytest.approx(allowed) and allowed <= result.seconds < allowed + 0.05
    monkeypatch.undo()
    budget, result, _ = clock_genmove(monkeypatch, seconds=0.3, leaders=unsure)  # the settings' 0.3 s bind
    assert budget.seconds == pytest.approx(0.3) and 0.3 <= result.seconds < 0.35


# ---- a whole game under the referee's clock


@pytest.mark.slow
@pytest.mark.gnugo
@pytest.mark.skipif(not HAVE_GNUGO, reason=f"GNU Go not installed at {GNUGO}")
@pytest.mark.parametrize(
    ("clock", "time_left", "limit", "extend"),
    [
        ("30", False, 30.0, 1),  # sudden death, time_settings only: gogui-twogtp's way
        ("30", True, 30.0, 1),  # the same with time_left before every move
        ("30", False, 30.0, 0),  # sudden death, every move exactly its plan
        ("5+5/5", True, None, 1),  # Canadian byo-yomi: time_settings 5 5 5
        ("5+1x3", True, None, 1),  # Japanese byo-yomi, KGS style: kgs-time_settings byoyomi 5 1 3
    ],
    ids=["sudden-death-no-time-left", "sudden-death-time-left", "sudden-death-plan-only", "canadian", "kgs-japanese"],
)
def test_goengine_never_loses_on_time_in_a_whole_game(tmp_path, clock, time_left, limit, extend):
    """A whole 9x9 game on each colour against GNU Go level 1, goengine with no budget of its own
    (the clock decides) and resignation off, so the games run long (an overspend grows with the
    game's length). The referee's clock, charged each genmove's round trip, never falls for
    goengine, and under sudden death its thinking time, measured from outside, stays under the main
    time. (That a middle-game move gets more than a late one is asserted on a planned game in
    ``test_a_sudden_death_game_spends_more_in_the_middle_than_at_the_end_and_keeps_its_reserve``:
    a real game against GNU Go level 1 may end while the plan still gives every move the same
    share, (T - R) / n then (T - R - t) / (n - 1), so its own thirds differ only by noise.) With
    the default ``--extend-time 1`` an unsure move may think twice its plan and a settled one
    stops early; with ``--extend-time 0`` every move takes its plan: the same holds either way."""
    out = tmp_path / "out"
    args = ("--games", "2", "--jobs", "2", "--time", clock, "--opponent", GNUGO_LEVEL1)
    args += ("--config", f"default=--resign-threshold 0 --extend-time {extend}")
    args += () if time_left else ("--no-time-left",)
    result = run_match(out, *args, timeout=170)
    assert result.returncode == 0, result.stderr
    records = records_of(out)
    assert len(records) == 2 and {r["engine_black"] for r in records} == {True, False}
    for r in records:
        side = r["black" if r["engine_black"] else "white"]
        assert not r["reason"].startswith("time"), (r["reason"], sum(side["times"]))
        assert r["time_left"] is time_left
        times = side["times"]
        if limit is not None:
            assert sum(times) < limit
    assert (out / "time.png").is_file()
