"""goengine driven by Sabaki's own GTP library, ``@sabaki/gtp``, the way Sabaki drives engines.

The Node project in ``tests/sabaki`` (``package.json`` pins ``@sabaki/gtp`` and
``@sabaki/go-board``; ``package-lock.json``) holds ``drive.js``, which starts the ``goengine``
console script with ``new Controller(path, args)`` and plays a Sabaki session: pipelined
start-up commands, set-up stones synced as ``set_free_handicap`` and runs of same-colour
``play``s, ``genmove`` and ``kata-genmove_analyze``, a takeback synced with ``undo``, and
``kata-analyze`` streams stopped by ``protocol_version`` (Sabaki's way of stopping an analysis),
once by a move played during the analysis. The analysis commands are the ones Sabaki would
choose from ``list_commands`` (its settings prefer ``analyze``, then ``kata-analyze``, then
``lz-analyze``), and the info lines are parsed by the rules of Sabaki's ``parseAnalysis``
(``src/modules/enginesyncer.js`` in SabakiHQ/Sabaki), ``scoreLead`` included. It prints a JSON
summary and exits non-zero when a check failed; the module docstring of ``drive.js`` lists what it checks.

Setup: ``npm ci --prefix tests/sabaki`` (this test runs it when ``node_modules`` is missing).
Without node or npm, or when ``npm ci`` fails (offline), the test is skipped, unless
``GOENGINE_REQUIRE_SABAKI=1`` is set: then it fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SABAKI_DIR, sabaki_project

pytestmark = pytest.mark.slow  # Sabaki in node, a whole session

DRIVER = SABAKI_DIR / "drive.js"
ENGINE_ARGS = ["--playouts", "300", "--seed", "1"]


def _goengine() -> str:
    """The ``goengine`` console script of the environment running the tests."""
    beside = Path(sys.executable).with_name("goengine")
    if beside.exists():
        return str(beside)
    found = shutil.which("goengine")
    if found is None:
        pytest.fail(f"no goengine console script beside {sys.executable} or on PATH: pip install -e .")
    return found


@pytest.fixture(scope="module")
def node_project() -> Path:
    """``tests/sabaki`` with its node_modules installed (``helpers.sabaki_project``)."""
    return sabaki_project("@sabaki/gtp")


@pytest.fixture(scope="module")
def summary(node_project: Path) -> dict:
    """The JSON summary of one Sabaki-style session against goengine."""
    node = shutil.which("node")
    done = subprocess.run(
        [node, str(DRIVER), _goengine(), *ENGINE_ARGS],
        cwd=node_project,
        capture_output=True,
        text=True,
        timeout=420,
        stdin=subprocess.DEVNULL,
    )
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"drive.js printed no JSON (exit {done.returncode}): {done.stdout[-2000:]} {done.stderr[-2000:]}")
    result["exit_code"] = done.returncode
    print(json.dumps({k: v for k, v in result.items() if k != "transcript"}, indent=1))
    return result


def _explain(summary: dict) -> str:
    return json.dumps({k: summary[k] for k in ("failures", "steps", "stderr_tail", "transcript")}, indent=1)[:12000]


def test_sabaki_session_passes_every_check(summary):
    assert summary["failures"] == [], _explain(summary)
    assert summary["ok"] and summary["exit_code"] == 0, _explain(summary)


def test_startup_commands_pipelined_and_answered_in_order(summary):
    startup = summary["steps"]["startup"]
    assert startup["pipelined"] == 7  # name, version, protocol_version, list_commands, komi, boardsize, clear_board
    assert startup["name"] == "goengine"
    assert startup["protocol_version"] == "2"
    assert startup["errors"] == []
    assert startup["list_commands"] >= 14
    # Sabaki takes the first it knows of analyze, kata-analyze, lz-analyze (and the genmove kind)
    assert startup["analyze_command"] == "kata-analyze"
    assert startup["genmove_analyze_command"] == "kata-genmove_analyze"


def test_setup_stones_synced_as_handicap_and_same_colour_plays(summary):
    setup = summary["steps"]["setup"]
    assert setup["sent"] == [
        "clear_board",
        "set_free_handicap C3 G7",
        "play W C7",
        "play W G3",
        "play W E7",
        "play B D5",
        "play B E4",
        "play W F5",
    ]
    assert setup["board_matches"]


def test_engine_moves_and_takeback_with_undo(summary):
    steps = summary["steps"]
    assert not steps["genmove"]["error"] and steps["genmove"]["move"]
    assert steps["genmove_analyze"]["play_lines"] == 1 and not steps["genmove_analyze"]["error"]
    assert steps["genmove_analyze"]["info_lines"] >= 1 and steps["genmove_analyze"]["problems"] == []
    takeback = steps["takeback"]
    assert takeback["sent"] == ["undo", "undo", f"play B {takeback['move']}"]
    assert takeback["board_matches"]


def test_kata_analyze_streams_parsable_info_and_stops_on_protocol_version(summary):
    analyses = summary["steps"]["analyses"]
    assert [a["color"] for a in analyses] == ["W", "W", "B"]
    for a in analyses:
        assert a["command"] == "kata-analyze" and a["score_leads"], a  # every move with Sabaki's scoreLead
        assert a["info_lines"] >= 3 and a["problems"] == [], a
        assert not a["response_error"], a
        assert a["variations_last"] > 0 and a["best"]["visits"] > 0 and 0 <= a["best"]["winrate"] <= 100, a
        assert a["total_visits"] == sorted(a["total_visits"]), a  # the tree is kept between reports
        assert a["lines_after_stop"] <= 2, a  # it stopped at once
        assert a["stop_ms"] < 5000, a  # only a guard against an analysis that never stops (ten intervals)
    assert analyses[0]["stop_response"] == "2" and analyses[2]["stop_response"] == "2"
    during = summary["steps"]["move_during_analysis"]
    assert during["sent"] == ["protocol_version", f"play W {during['move']}"]
    assert during["abort_response"] == "2" and during["board_matches"]


def test_quit_ends_the_engine(summary):
    assert summary["steps"]["quit"]["exit"] == {"code": 0, "signal": None}


def test_engine_does_not_announce_a_compile_when_the_kernels_are_cached(summary):
    """Sabaki shows the engine's stderr in its GTP console. After the session above every kernel
    is compiled and cached, so a second start must not announce "compiling the kernels once
    (under a minute)". (It once did: numba keeps its index files one folder below
    ``cache_dir()``, where the check did not look, so the cache always looked cold.)"""
    done = subprocess.run(
        [_goengine(), "--playouts", "50"],
        input="boardsize 9\ngenmove b\nquit\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "compiling the kernels once" not in done.stderr, done.stderr
