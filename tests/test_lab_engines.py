"""The engines a match plays (``goengine.lab.engines``): what a command line says of its engine,
goengine's configurations, and the timeouts a match gives its games."""

from __future__ import annotations

import sys

import pytest
from match_harness import GNUGO_LEVEL0

from goengine.lab import Usage, engines
from goengine.lab.referee_clock import TimeControl


def test_goengine_commands_are_pinned_to_one_thread_unless_they_say():
    python = "/usr/bin/python3 -m goengine --quiet"
    assert engines.pinned(python) == f"{python} --threads 1"
    assert engines.pinned("/x/.venv/bin/goengine --playouts 5") == "/x/.venv/bin/goengine --playouts 5 --threads 1"
    for told in (f"{python} --threads 2", f"{python} --threads=2 --seconds 1"):
        assert engines.pinned(told) == told and engines.thread_count(told) == 2
    assert engines.pinned(GNUGO_LEVEL0) == GNUGO_LEVEL0  # other programs are left alone
    assert engines.thread_count(GNUGO_LEVEL0) == engines.thread_count(python) == 1
    # a record written before the pin (no --threads) is the same configuration as a pinned command
    assert engines.settings(f"{python} --rule ucb1 --seed 7") == engines.settings(
        engines.pinned(f"{python} --rule ucb1") + " --seed 7"
    )
    assert engines.settings(f"{python} --seed 7") != engines.settings(f"{python} --threads 2 --seed 7")


def test_a_game_with_a_pondering_engine_counts_both_engines_threads():
    """Two engines in a game take turns, unless one ponders: then both search at once."""
    python = "/usr/bin/python3 -m goengine --quiet"
    assert engines.game_cores(f"{python} --threads 2", f"{python} --threads 1") == 2
    assert engines.game_cores(f"{python} --threads 1 --ponder", f"{python} --threads 1") == 2
    assert engines.game_cores(f"{python} --threads 1", f"{python} --threads 2 --ponder") == 3
    assert engines.game_cores(f"{python} --threads 1 --ponder", GNUGO_LEVEL0) == 2
    assert engines.game_cores(f"{python} --threads 1", f"{GNUGO_LEVEL0} --ponder") == 1  # not goengine's option


def test_a_goengine_command_is_its_console_script_or_python_dash_m():
    assert engines.is_goengine("/x/.venv/bin/goengine --playouts 5")
    assert engines.is_goengine(f"{sys.executable} -m goengine --quiet")
    assert not engines.is_goengine(f"{sys.executable} -m goengine.lab")  # the match command, not the engine
    assert not engines.is_goengine(GNUGO_LEVEL0) and not engines.is_goengine("")


def test_the_seconds_of_a_command_line_are_its_last_and_a_refused_one_bounds_nothing():
    assert engines.move_seconds("goengine --seconds 2 --seconds=5") == 5.0
    assert engines.move_seconds("goengine --seconds x") is None  # goengine refuses it, and its games say why
    assert engines.move_seconds("goengine --playouts 100") is None


def test_configurations_and_opponents_are_named_and_pinned():
    engine = f"{sys.executable} -m goengine --quiet"
    found = engines.configurations(engine, ["a=--rule ucb1", "b="], playouts=50)
    assert [(p.name, p.seeded) for p in found] == [("a", True), ("b", True)]
    assert found[0].command == f"{engine} --rule ucb1 --playouts 50 --threads 1"
    assert found[1].command_for(7) == f"{engine} --playouts 50 --threads 1 --seed 7"
    assert [p.name for p in engines.configurations(engine, [])] == ["default"]
    with pytest.raises(Usage, match="NAME=ARGS with a plain name"):
        engines.configurations(engine, ["no name"])
    opponents = engines.opponents(["/usr/games/gnugo --mode gtp", "/usr/games/gnugo --level 1", "p=pachi -t 5"])
    assert [(p.name, p.command, p.seeded) for p in opponents] == [
        ("gnugo-1", "/usr/games/gnugo --mode gtp", False),
        ("gnugo-2", "/usr/games/gnugo --level 1", False),
        ("p", "pachi -t 5", False),
    ]
    assert [p.name for p in engines.opponents([])] == ["gnugo"]


def test_the_timeout_covers_the_longest_move_a_clock_or_a_budget_allows():
    engine = engines.Player("a", f"{sys.executable} -m goengine --seconds 200", seeded=True)
    assert engines.timeouts([engine], None) == (225, 600)  # 200 s, 10 % and 5 s over it
    assert engines.timeouts([], TimeControl.parse("600+30/10")) == (698, 698)
    assert engines.timeouts([], None, requested=5, startup=60) == (5, 60)
    with pytest.raises(Usage, match="give --timeout 225 or more"):
        engines.timeouts([engine], None, requested=100)
