"""Every setting's rules live in one place (``goengine.config``): the same input gets the same
answer through the command line (``goengine --KEY VALUE``), GTP (``goengine-set KEY VALUE``) and
Python (``SearchConfig(...)``); a budget change keeps the search tree; the engine's configuration
is the search's; a move's ``Budget`` is the settings limited by the clock; one range of board sizes
(``BOARD_SIZES``) for every door.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from goengine import config as config_module
from goengine.board import BLACK
from goengine.config import (
    BOARD_SIZES,
    CHOSEN,
    DEFAULT_PLAYOUTS,
    MIN_TREE_NODES,
    SETTINGS,
    Budget,
    EngineConfig,
    SearchConfig,
    page,
    with_param,
    with_setting,
)
from goengine.engine import Engine
from goengine.gtp import GtpEngine, command
from goengine.kernels.tree import BYTES_PER_NODE
from goengine.options import config_from_args
from goengine.time_control import TimeSettings

#: per setting: values each door must refuse, with the message's start
BAD_VALUES = {
    "playouts": ["0", "-5", "x", "1.5", "1e3", "1000000001", "1_0"],
    "seconds": ["0", "-1", "x", "nan", "inf", "86401"],
    "threads": ["0", "65", "x", "2.5", "none"],
    "seed": ["-1", "x", "9223372036854775808", "none"],
    "expand_at": ["-3", "x", "1000001", "9223372036854775808"],
    "widen": ["-1", "x", "nan", "2e9"],
    "widen_factor": ["1", "0.5", "x", "inf", "101"],
    "max_memory_mb": ["0.001", "-1", "x", "1e308", "0.02"],
    "resign_threshold": ["-0.1", "1.5", "x", "nan"],
    "resign_min_visits": ["-1", "x", "0.5"],
    "ponder": ["maybe", "2", "none"],
    "extend_time": ["-0.5", "x", "nan", "11", "none"],
    "plan_share": ["0", "0.05", "x", "nan", "2.5"],
    "analysis_width": ["-0.1", "x", "nan", "inf", "11", "none"],
}
GOOD_VALUES = {
    "playouts": ["1", "8000", "none"],
    "seconds": ["0.5", "2", "off"],
    "threads": ["1", "2"],
    "seed": ["0", "42"],
    "expand_at": ["0", "3"],
    "widen": ["0", "40", "12.5"],
    "widen_factor": ["1.4", "2"],
    "max_memory_mb": ["64", "0.5"],
    "resign_threshold": ["0", "0.2"],
    "resign_min_visits": ["0", "500"],
    "ponder": ["on", "off", "1", "0", "true"],
    "extend_time": ["0", "1", "0.5"],
    "plan_share": ["1", "0.7", "0.1", "2", "none"],
    "analysis_width": ["0", "0.2", "10"],
}


@pytest.fixture(autouse=True)
def one_core(monkeypatch):
    """The command's default thread count is the cores (``options.config_from_args``); the engine's,
    which GTP sets from, is one. The two doors are compared on one core, where they agree."""
    monkeypatch.setattr(config_module, "available_cores", lambda: 1)


def cli_error(argv: list[str], capsys) -> str:
    """The message ``goengine ARGV`` exits with (argparse's ``goengine: error: ...``)."""
    with pytest.raises(SystemExit) as stop:
        command.options(argv)
    assert stop.value.code == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("goengine: error: ")]
    assert len(lines) == 1
    return lines[0].removeprefix("goengine: error: ")


def gtp_error(line: str) -> str:
    response = GtpEngine(Engine(EngineConfig(search=SearchConfig(playouts=20)))).send(line)
    assert response.startswith("? "), response
    return response[2:].rstrip("\n")


def option(key: str) -> str:
    return next(s.option for s in SETTINGS if s.key == key)


def test_every_setting_has_bad_and_good_examples():
    assert set(BAD_VALUES) == set(GOOD_VALUES) == {s.key for s in SETTINGS}


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, values in BAD_VALUES.items() for v in values])
def test_a_bad_setting_gets_the_same_error_through_the_command_line_and_gtp(key, value, capsys):
    from_cli = cli_error([option(key), value], capsys)
    from_gtp = gtp_error(f"goengine-set {key} {value}")
    assert from_cli == from_gtp
    assert from_gtp.startswith(key), from_gtp  # the message names the setting
    with pytest.raises(ValueError, match=re.escape(from_gtp)):
        with_setting(SearchConfig(), key, value)


@pytest.mark.parametrize("key", [s.key for s in SETTINGS if s.kind is int])
def test_an_integer_setting_is_ascii_digits_of_any_length_refused_with_its_range(key):
    """(Before: 5,000 digits got Python's own message, "Exceeds the limit (4300 digits) for
    integer string conversion ...", from int(); and Arabic-Indic digits, which int() reads, were
    taken: ``threads \u0662`` was 2 threads.)"""
    with pytest.raises(ValueError, match=rf"^{key} must be from \S+ to \S+, got an integer of 5000 digits$"):
        with_setting(SearchConfig(), key, "9" * 5000)
    with pytest.raises(ValueError, match=f"^{key} must be an integer, got '\u0662'$"):
        with_setting(SearchConfig(), key, "\u0662")


@pytest.mark.parametrize(("key", "value"), [(k, v) for k, values in GOOD_VALUES.items() for v in values])
def test_a_good_setting_gives_the_same_configuration_through_both_doors(key, value):
    from_cli = config_from_args(command.build_parser().parse_args([option(key), value])).search
    engine = Engine()
    gtp = GtpEngine(engine)
    assert gtp.send(f"goengine-set {key} {value}") == "=\n\n"
    assert engine.config.search == from_cli
    engine.close()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--rule", "foo"], "goengine-set rule foo"),
        (["--playout", "moggy"], "goengine-set playout moggy"),
        (["--prior", "mm-patterns"], "goengine-set prior mm-patterns"),
        (["--param", "c=nan"], "goengine-set c nan"),
        (["--param", "gamma=1"], "goengine-set rule.gamma 1"),
        (["--rule", "rave", "--param", "schedule=fast"], "goengine-set schedule fast"),
        (["--playout-param", "p=1"], "goengine-set playout.p 1"),
        (["--prior-param", "n=1"], "goengine-set prior.n 1"),
        (["--parallel", "leaf"], "goengine-set parallel leaf"),
    ],
)
def test_bad_choices_and_parameters_get_the_same_error_through_both_doors(args, line, capsys):
    assert cli_error(args, capsys) == gtp_error(line)


def test_a_choice_is_read_in_any_case_through_both_doors():
    from_cli = config_from_args(command.build_parser().parse_args(["--rule", "UCB1", "--playout", "Uniform"])).search
    assert (from_cli.rule, from_cli.playout) == ("ucb1", "uniform")
    engine = Engine()
    GtpEngine(engine).send("goengine-set rule UCB1")
    assert engine.config.search.rule == "ucb1"
    engine.close()


def test_python_configurations_are_checked_too():
    with pytest.raises(ValueError, match="playouts must be from 1"):
        SearchConfig(playouts=-5)
    with pytest.raises(ValueError, match="threads must be an integer"):
        SearchConfig(threads=1.5)
    with pytest.raises(ValueError, match="unknown selection rule"):
        SearchConfig(rule="ucb2")
    with pytest.raises(ValueError, match="has no parameter 'gamma'"):
        SearchConfig(rule="ucb1", params=(("gamma", 1.0),))
    with pytest.raises(ValueError, match="too small for 4 tree"):
        SearchConfig(max_memory_mb=0.1, threads=4, parallel="root")
    # one shared tree has all the memory: what four trees could not share, it can hold
    tight = MIN_TREE_NODES * BYTES_PER_NODE * 2 / 2**20
    assert SearchConfig(max_memory_mb=tight, threads=4, parallel="tree").trees == 1
    with pytest.raises(ValueError, match="too small for 4 tree"):
        SearchConfig(max_memory_mb=tight, threads=4, parallel="root")


def test_parameters_are_stored_by_name_and_number_whatever_was_given():
    config = SearchConfig(
        rule="RAVE", params=(("AMAF_weight_schedule", "hand"), ("k", "500")), playout="uniform", prior="none"
    )
    assert config.rule == "rave"
    assert config.params == (("k", 500.0), ("schedule", 0.0))
    assert with_setting(config, "hand_schedule_equivalence_k", "700").params == (("k", 700.0), ("schedule", 0.0))
    assert config.describe() == (
        "rave schedule=hand-selected k=500 b=0.01 c=0 distance=0; playout uniform; prior none; "
        "dynamic komi linear black_value=7 white_value=1 moves=200; parallel tree"
    )
    # a new rule starts from its own defaults
    assert with_setting(config, "rule", "ucb1").params == ()


def test_the_page_lists_every_setting_with_words_and_values_formatted_once():
    config = SearchConfig(rule="beta-mean-ucb", playout="uniform", prior="none", playouts=8000)
    rows = {row.key: row for row in page(config)}
    assert rows["selection_rule"].value == "beta-mean-ucb" and "kl-ucb" in rows["selection_rule"].choices
    assert rows["playout_policy"].choices == ("uniform", "heavy", "learned")
    assert rows["prior_knowledge"].choices == ("none", "even", "heuristic", "movemodel")
    assert rows["playouts_per_move"].value == "8000" and rows["seconds_per_move"].value == "none"
    assert rows["start_from_one_win_one_loss"].flag and rows["start_from_one_win_one_loss"].value == "1"
    for row in rows.values():  # GoGui shows the key capitalised, "_" as spaces: words, not letters
        assert len(row.key) > 3 and re.fullmatch(r"[A-Za-z0-9_]+", row.key), row.key
    assert rows["dynamic_komi"].choices == ("none", "linear", "adaptive")
    assert len(rows) == len(SETTINGS) + len(CHOSEN) + 2 + 3  # beta-mean-ucb's 2, linear's 3
    heavy = {row.key for row in page(SearchConfig(rule="ucb1", playout="heavy", prior="heuristic"))}
    assert {"nakade_vital_point", "read_ladders", "capture_visits", "near_last_move_visits"} <= heavy
    assert len(heavy) == len(SETTINGS) + len(CHOSEN) + 1 + 18 + 7 + 3


def test_a_budget_change_keeps_the_tree_and_any_other_change_starts_afresh():
    engine = Engine(EngineConfig(search=SearchConfig(playouts=300)))
    engine.analyze()
    tree = engine._search.trees[0]
    visits = int(tree.ti[4, 0])
    assert visits == 300
    for key, value in (("playouts", "500"), ("seconds", "1"), ("resign_threshold", "0.2")):
        engine.configure(with_setting(engine.config.search, key, value))
        assert engine._search.trees[0] is tree, key
    result = engine.analyze()  # the same position: the tree goes on
    assert int(engine._search.trees[0].ti[4, 0]) == visits + result.playouts
    for key, value in (("rule", "ucb1"), ("seed", "2"), ("expand_at", "2"), ("threads", "2")):
        before = engine._search.trees[0]
        engine.configure(with_setting(engine.config.search, key, value))
        assert engine._search.trees[0] is not before, key
        assert engine._search.trees[0].nodes == 1
    engine.close()


def test_the_engines_configuration_is_the_one_goengine_set_made():
    engine = Engine(EngineConfig(size=9, komi=7.5, search=SearchConfig(playouts=5000)))
    gtp = GtpEngine(engine)
    for line in ("goengine-set playouts 200", "goengine-set rule ucb1-tuned", "goengine-set gamma 0.5", "komi 6.5"):
        assert gtp.send(line) == "=\n\n"
    gtp.send("boardsize 13")
    config = engine.config
    assert (config.size, config.komi) == (13, 6.5)
    assert config.search == SearchConfig(rule="ucb1-tuned", params=(("gamma", 0.5),), playouts=200)
    assert config.search is engine._search.config
    engine.close()


def test_with_param_names_what_the_choice_has():
    with pytest.raises(ValueError, match=r"selection rule thompson has no parameter 'c'; it has: none"):
        with_param(SearchConfig(rule="thompson"), "rule", "c", 1)
    with pytest.raises(ValueError, match=r"playout policy uniform has no parameter 'p'; it has: none"):
        with_param(SearchConfig(playout="uniform"), "playout", "p", 1)
    with pytest.raises(ValueError, match=r"playout policy heavy has no parameter 'p'; it has: capture, escape,"):
        with_param(SearchConfig(playout="heavy"), "playout", "p", 1)
    with pytest.raises(ValueError, match=r"capture of heavy must be from 0 to 1, got '1.5'"):
        with_param(SearchConfig(playout="heavy"), "playout", "capture", "1.5")
    with pytest.raises(ValueError, match=r"even of heuristic must be from 0 to 100000, got '-1'"):
        with_param(SearchConfig(prior="heuristic"), "prior", "even", "-1")
    assert with_param(SearchConfig(), "rule", "exploration_constant_C", "0.3").params == (("c", 0.3),)


def test_keeps_trees_of_compares_every_field_but_the_budget_and_resignation():
    base = SearchConfig()
    assert replace(base, playouts=7, seconds=1.0, resign_threshold=0.3, resign_min_visits=9).keeps_trees_of(base)
    for change in (
        {"rule": "ucb1"},
        {"params": (("k", 5.0),)},
        {"seed": 2},
        {"batch": 64},
        {"reuse_tree": False},
    ):
        assert not replace(base, **change).keeps_trees_of(base), change


# ---- a move's budget (Budget) and the game's board sizes (BOARD_SIZES): one place each


def test_a_budget_needs_playouts_or_seconds_and_refuses_impossible_ones():
    assert Budget(playouts=0).playouts == 0  # re-roots without searching
    for bad in ({}, {"playouts": -1}, {"seconds": 0.0}, {"seconds": -1.0}, {"playouts": True}):
        with pytest.raises(ValueError):
            Budget(**bad)


@pytest.mark.parametrize(
    ("settings", "clock", "expected"),
    [
        ({}, None, Budget(playouts=DEFAULT_PLAYOUTS)),  # nothing set: the default playouts
        ({}, 2.0, Budget(seconds=2.0)),  # a clock alone: no playout cap comes with it
        ({"playouts": 500}, None, Budget(playouts=500)),
        ({"playouts": 500, "seconds": 5.0}, 2.0, Budget(500, 2.0)),  # the clock allows less
        ({"seconds": 1.0}, 2.0, Budget(seconds=1.0)),  # the settings allow less
    ],
)
def test_a_moves_budget_is_the_settings_limited_by_the_clock(settings, clock, expected):
    assert Budget.of(SearchConfig(**settings), clock) == expected


def test_genmove_under_a_clock_spends_the_clocks_seconds_with_no_playout_cap():
    engine = Engine(EngineConfig(size=9))  # no budget in the settings
    assert engine.budget(BLACK, engine.game.board) == Budget(playouts=DEFAULT_PLAYOUTS)
    engine.clocks.start(TimeSettings("absolute", 60.0))
    budget = engine.budget(BLACK, engine.game.board)
    assert budget.playouts is None and 0 < budget.seconds < 60.0
    assert budget.seconds == engine.seconds_for_move(BLACK, engine.game.board)


@pytest.mark.parametrize("size", [BOARD_SIZES[0] - 1, BOARD_SIZES[-1] + 1, 0, True, "9"])
def test_every_door_refuses_a_board_size_outside_the_one_range(size):
    with pytest.raises(ValueError, match="board size must be from 5 to 19"):
        EngineConfig(size=size)
    with pytest.raises(ValueError, match="board size must be from 5 to 19"):
        Engine().new_game(size)
    if isinstance(size, int) and not isinstance(size, bool):
        engine = GtpEngine(Engine())
        assert engine.send(f"boardsize {size}") == "? unacceptable size\n\n"
        with pytest.raises(ValueError, match="board size must be from 5 to 19"):
            config_from_args(command.build_parser().parse_args(["--size", str(size)]))


@pytest.mark.parametrize("size", [BOARD_SIZES[0], BOARD_SIZES[-1]])
def test_the_ends_of_the_range_are_games(size):
    engine = GtpEngine(Engine())
    assert engine.send(f"boardsize {size}").startswith("=") and engine.engine.game.size == size
    assert config_from_args(command.build_parser().parse_args(["--size", str(size)])).size == size


def test_available_cores_counts_the_cores_this_process_may_use(monkeypatch):
    import os

    from goengine import config

    monkeypatch.undo()  # the real count, not ``one_core``'s
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert config.available_cores() == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(100)), raising=False)
    assert config.available_cores() == 64  # the setting's range


def test_rave_weights_amaf_by_distance_beside_heavy_playouts_and_as_published_beside_uniform_ones():
    from goengine.kernels import search as ksearch
    from goengine.search import KernelSettings

    def distance(config: SearchConfig) -> float:
        return KernelSettings.of(config).params[ksearch.RULE_PARAMS, ksearch.RAVE_DISTANCE]

    default = SearchConfig()
    assert default.rule == "rave" and default.playout == "heavy"
    assert distance(default) == 3.0 and "distance=3" in default.describe()
    assert {row.key: row.value for row in page(default)}["AMAF_distance_weight"] == "3"
    assert distance(replace(default, playout="uniform")) == 0.0  # the research settings' games
    assert distance(SearchConfig(playout="uniform", prior="none", expand_at=1)) == 0.0
    assert distance(with_param(default, "rule", "distance", 0)) == 0.0  # given, it is kept
    assert distance(with_param(SearchConfig(playout="uniform"), "rule", "distance", 2)) == 2.0
    # only the rule it was measured with: KL-UCB+RAVE keeps its published default
    assert distance(SearchConfig(rule="kl-ucb-rave")) == 0.0
    # through goengine-set, the weight follows the playouts chosen after it, unless it was given
    uniform = with_setting(default, "playout", "uniform")
    assert distance(uniform) == 0.0 and distance(with_setting(uniform, "playout", "heavy")) == 3.0
    given = with_setting(with_setting(default, "distance", "0"), "playout", "uniform")
    assert distance(with_setting(given, "playout", "heavy")) == 0.0
