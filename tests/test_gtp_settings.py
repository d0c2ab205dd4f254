"""The GTP commands of the engine's settings (``goengine.gtp.settings``): ``goengine-set KEY
VALUE`` and ``goengine-params`` (GoGui's parameter page, ``page_line``). Every line of the page
reads back, through ``goengine-params KEY VALUE``, as the setting it shows; an unknown key or a
bad value is refused with the message saying why and changes nothing; and a setting made through
GTP is the one the next search uses: the same search as the engine configured so from the start,
a budget change keeping the tree and any other change starting afresh.

What each setting allows, and that the command line gives the same answers, is
``test_config.py``'s; the page's every line, word for word, is ``tests/data/settings.gtp``'s.
"""

from __future__ import annotations

import re

import pytest
from gtp_harness import GtpHarness as Harness
from helpers import recorded_decisions

from goengine.config import EngineConfig, PageRow, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.settings import page_line

SMALL = EngineConfig(size=5, search=SearchConfig(playouts=150))
_PAGE_LINE = re.compile(r"\[(list/[^\] ]+|bool|string)\] (\w+) (\S+)")


def gtp_for(config: EngineConfig = SMALL, log=None) -> GtpEngine:
    return GtpEngine(Engine(config), log=log)


def page_lines(gtp: GtpEngine) -> list[str]:
    response = gtp.send("goengine-params")
    assert response.startswith("= ") and response.endswith("\n\n"), response
    return response[2:-2].split("\n")


def root_stats(engine: Engine) -> list[tuple]:
    """What one search of the engine's budget finds at the root, move by move."""
    return [(s.move, s.visits, s.wins) for s in engine.analyze().stats]


# ---- the parameter page


@pytest.mark.parametrize(
    ("row", "line"),
    [
        (PageRow("playout_policy", "heavy", ("uniform", "heavy")), "[list/uniform/heavy] playout_policy heavy"),
        (PageRow("ponder", "0", flag=True), "[bool] ponder 0"),
        (PageRow("random_seed", "42"), "[string] random_seed 42"),
        (PageRow("read_ladders", "1", (), True), "[bool] read_ladders 1"),
    ],
)
def test_a_page_line_is_a_list_a_check_box_or_a_text_field(row, line):
    assert page_line(row) == line


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["goengine-set rule beta-mean-ucb", "goengine-set bias 0"],  # an on/off parameter
        ["goengine-set schedule hand", "goengine-set k 500"],  # a named value
        ["goengine-set playout uniform", "goengine-set threads 2", "goengine-set seconds 0.5"],
        ["goengine-set dynkomi adaptive", "goengine-set parallel root", "goengine-set ponder on"],
    ],
    ids=["defaults", "flag", "named-value", "settings", "choices"],
)
def test_every_line_of_the_page_reads_back_as_the_setting_it_shows(lines):
    """GoGui sends the page's values back as they are shown: each is accepted and changes nothing."""
    gtp = gtp_for()
    for line in lines:
        assert gtp.send(line) == "=\n\n", line
    shown = page_lines(gtp)
    keys = []
    for line in shown:
        kind, key, value = _PAGE_LINE.fullmatch(line).groups()
        keys.append(key)
        if kind.startswith("list/"):
            assert value in kind.removeprefix("list/").split("/"), line
        if kind == "bool":
            assert value in ("0", "1"), line
        assert gtp.send(f"goengine-params {key} {value}") == "=\n\n", line
    assert len(set(keys)) == len(keys)
    assert page_lines(gtp) == shown
    gtp.engine.close()


@pytest.mark.parametrize(
    ("key", "value"),
    [("playouts_per_move", "300"), ("playouts", "300"), ("exploration_constant_C", "0.3"), ("parallel_search", "root")],
)
def test_goengine_params_with_a_key_and_value_sets_it_as_goengine_set_does(key, value):
    by_set, by_params = gtp_for(), gtp_for()
    assert by_set.send(f"goengine-set {key} {value}") == by_params.send(f"goengine-params {key} {value}") == "=\n\n"
    assert by_params.engine.config == by_set.engine.config != SMALL


# ---- refusals change nothing


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("goengine-set playouts 0", "playouts must be from 1 to 1000000000, got 0"),
        # Python's int() refuses over 4,300 digits with a message about itself, which was the answer
        ("goengine-set playouts " + "9" * 5000, "playouts must be from 1 to 1000000000, got an integer of 5000 digits"),
        ("goengine-params playouts x", "playouts must be an integer, got 'x'"),
        ("goengine-set ponder maybe", "ponder must be on or off, got 'maybe'"),
        ("goengine-set playout moggy", "unknown playout policy 'moggy'; known: uniform, heavy, learned"),
        ("goengine-set playout.capture 1.5", "capture of heavy must be from 0 to 1, got '1.5'"),
        ("goengine-set playouts", "syntax error"),
        ("goengine-params playouts", "syntax error"),
        ("goengine-set", "syntax error"),
    ],
)
def test_a_bad_value_is_refused_saying_what_is_allowed_and_changes_nothing(line, message):
    gtp = gtp_for()
    page = page_lines(gtp)
    assert gtp.send(line) == f"? {message}\n\n"
    assert gtp.engine.config == SMALL and page_lines(gtp) == page


def test_an_unknown_key_is_refused_naming_the_keys_known_now():
    gtp = gtp_for()
    response = gtp.send("goengine-set playout_count 5")
    assert response.startswith("? unknown setting 'playout_count'; known now: playouts, seconds, threads, ")
    known = response.removesuffix("\n\n").split("known now: ")[1].split(", ")
    assert {"rule", "playout", "prior", "dynkomi", "parallel", "capture", "ladders"} <= set(known)
    assert gtp.engine.config == SMALL


# ---- a setting made through GTP is the one the next search uses


def test_goengine_set_playouts_caps_a_move_under_a_clock():
    """With a clock, ``goengine-set playouts`` still caps the move. (Before: ``Engine._budget``
    read the start-up configuration, not the one goengine-set made.)"""
    harness = Harness(EngineConfig())
    decisions = recorded_decisions(harness.gtp.engine)
    harness.ok("goengine-set playouts 200")
    harness.ok("time_settings 60 0 0")  # absolute: about 1 s for a move on an empty 9x9
    harness.ok("genmove b")
    assert decisions[0].result.playouts == 200


def test_goengine_set_playouts_replaces_a_start_up_budget():
    """``goengine --playouts 5000`` then ``goengine-set playouts 200``: genmove runs 200.
    (Before: it still ran 5000.)"""
    harness = Harness(EngineConfig(search=SearchConfig(playouts=5000)))
    decisions = recorded_decisions(harness.gtp.engine)
    harness.ok("goengine-set playouts 200")
    harness.ok("genmove b")
    assert decisions[0].result.playouts == 200


@pytest.mark.parametrize(
    ("line", "setting"),
    [
        ("goengine-set seed 9", {"seed": 9}),
        ("goengine-set random_seed 9", {"seed": 9}),
        ("goengine-set rule ucb1", {"rule": "ucb1"}),
        ("goengine-set exploration_constant_C 2", {"params": (("c", 2.0),)}),
        ("goengine-set playout uniform", {"playout": "uniform"}),
        ("goengine-set expand_at 0", {"expand_at": 0}),
    ],
)
def test_a_setting_made_through_gtp_searches_as_the_engine_configured_so_from_the_start(line, setting):
    """The engine searched once before the setting; after it, its search is the one a fresh
    engine configured with the setting makes (and not the one it made without)."""
    changed = Engine(SMALL)
    root_stats(changed)
    assert GtpEngine(changed).send(line) == "=\n\n"
    configured = Engine(EngineConfig(size=5, search=SearchConfig(playouts=150, **setting)))
    assert changed.config == configured.config
    assert root_stats(changed) == root_stats(configured) != root_stats(Engine(SMALL))


def test_a_budget_change_keeps_the_tree_and_another_change_starts_afresh():
    """The root's count (``parent_visits``) goes on from the last search after ``playouts``, and
    starts again from nothing after ``expand_at``."""
    gtp = gtp_for()
    assert gtp.engine.analyze().parent_visits == 150
    gtp.send("goengine-set playouts 100")
    assert gtp.engine.analyze().parent_visits == 250
    gtp.send("goengine-set expand_at 2")
    assert gtp.engine.analyze().parent_visits == 100


def test_goengine_set_logs_the_settings_now_in_force():
    logged = []
    gtp = gtp_for(log=logged.append)
    gtp.send("goengine-set rule ucb1")
    assert logged == [f"settings: {gtp.engine.config.search.describe()}"]
    assert logged[0].startswith("settings: ucb1 c=")
