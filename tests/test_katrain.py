"""``goengine analysis`` as KaTrain's engine: KaTrain 1.20.0's own ``KataGoEngine`` and ``Game``
review a real game with it, headless, and the test reads what KaTrain made of the answers; then
KaTrain plays a whole 9x9 game with goengine as its AI (``tests/katrain/play.py``, last section).

``tests/katrain/drive.py`` does what KaTrain's window does when a game is opened: it parses the SGF
(``KaTrainSGF.parse_file``), starts the engine through KaTrain's "custom" backend (its
``altcommand``, run by a shell: ``exec python -m goengine analysis --threads 1 --playouts 200``, the
``exec`` so that KaTrain's SIGTERM reaches goengine), builds a ``Game``, whose constructor asks for
the analysis of every node (``Game.analyze_all_nodes``), waits until KaTrain holds a complete
analysis of each, shuts the engine down KaTrain's way (``shutdown(finish=False)``) and prints a
JSON summary. The game is GNU Go 3.7.7 against itself on 9x9 (``data/regression/games/9x9-1.sgf``,
White won by 11 with no komi), with KaTrain's settings as they come: it sends the rules of the
file's ``RU[Japanese]`` (its ``game/rules`` setting, also Japanese, only fills in a missing one),
which goengine analyses as an area count, with a warning that says so.

What must hold: every node analysed, with candidate moves that KaTrain's own board accepts, a win
rate in [0, 1] and a score (Black's, as KaTrain asks with ``reportAnalysisWinratesAs``: at the end
of the game they must favour White, the winner), ownership and policy of the board's size, and
KaTrain's points lost for every move played; nothing in KaTrain's error log; every query with the
rules, komi and visits KaTrain chose, and the warning of the area count received; the engine
KaTrain started is goengine itself (the shell replaced), and after KaTrain's shutdown (SIGTERM) it
is gone, with a clean exit.

Setup: ``make katrain`` (``pip install --no-deps --target tests/katrain/site``: KaTrain and what
importing ``katrain.core`` needs, pinned in ``tests/katrain/requirements.txt``). Without it the test
is skipped, unless ``GOENGINE_REQUIRE_KATRAIN=1`` is set (``.ci/run`` sets it): then it fails. It
runs KaTrain in a subprocess with ``HOME`` in a scratch folder (kivy writes ``~/.kivy`` on import),
the kernels' cache shared with this process's.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import unavailable

from goengine.kernels import cache_dir

pytestmark = pytest.mark.slow  # KaTrain in a subprocess, a whole game analysed

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "tests" / "katrain" / "site"
DRIVER = ROOT / "tests" / "katrain" / "drive.py"
PLAYER = ROOT / "tests" / "katrain" / "play.py"
GAME = ROOT / "data" / "regression" / "games" / "9x9-1.sgf"
VISITS = 200  # KaTrain's engine/max_visits: every query's maxVisits
REQUIRED_BY = "GOENGINE_REQUIRE_KATRAIN"  # set, a missing KaTrain fails the test instead of skipping it
VERTEX = re.compile(r"^(pass|[A-HJ]([1-9]))$")  # a 9x9 board's GTP vertices, as KaTrain's pysgf reads them


def run_katrain(tmp_path_factory, script: Path, *args: str) -> dict:
    """The JSON summary a KaTrain script (``drive.py``, ``play.py``) prints, run with KaTrain on its
    path, goengine as its engine at VISITS playouts, and a scratch HOME."""
    if not (SITE / "katrain" / "core" / "engine.py").exists():
        unavailable(f"KaTrain is not installed in {SITE}: make katrain", REQUIRED_BY)
    home = tmp_path_factory.mktemp("katrain-home")
    command = f"exec {shlex.quote(sys.executable)} -m goengine analysis --threads 1 --playouts {VISITS} --seed 1"
    env = {
        **os.environ,
        "HOME": str(home),
        "PYTHONPATH": os.pathsep.join([str(SITE), str(ROOT)]),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "GOENGINE_CACHE_DIR": str(cache_dir().parent),  # HOME moved: keep the compiled kernels
    }
    done = subprocess.run(
        [sys.executable, str(script), *args, "--command", command, "--visits", str(VISITS), "--timeout", "900"],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    summary = json.loads(done.stdout)
    print(json.dumps({k: v for k, v in summary.items() if k not in ("nodes", "moves")}, indent=1))
    return summary


@pytest.fixture(scope="module")
def review(tmp_path_factory) -> dict:
    """The JSON summary of KaTrain reviewing the game with goengine."""
    return run_katrain(tmp_path_factory, DRIVER, str(GAME))


def played(review: dict) -> list[dict]:
    """The nodes with a move (every node but the root)."""
    return [node for node in review["nodes"] if node["move"] is not None]


def test_katrain_reads_the_game_as_recorded(review):
    assert review["size"] == [9, 9]
    assert review["komi"] == 0.0
    assert review["ruleset"] == "Japanese"
    moves = played(review)
    assert len(moves) == 53  # 50 moves, then three passes
    assert [node["move"] for node in moves[:3]] == ["E5", "D4", "E4"]
    assert [node["move"] for node in moves[-3:]] == ["pass"] * 3
    assert [node["player"] for node in moves] == ["B", "W"] * 26 + ["B"]


def test_every_node_is_analysed_once_with_the_rules_komi_and_visits_katrain_sent(review):
    queries = review["queries"]
    assert sorted(q["analyzeTurns"][0] for q in queries) == list(range(len(review["nodes"])))
    assert {(q["rules"], q["komi"], q["maxVisits"]) for q in queries} == {("japanese", 0.0, VISITS)}
    # each query answered, after KataGo's warning form: the count is by area
    area = [w for w in review["warnings"] if "'field': 'rules'" in w and "goengine counts by area, not territory" in w]
    assert len(area) == len(queries)
    assert all(node["complete"] for node in review["nodes"])
    assert review["errors"] == []  # KaTrain's OUTPUT_ERROR lines: a rejected query, a bad line
    assert not [line for line in review["stderr"] if "Uncaught exception" in line or "what()" in line]


def test_each_node_has_a_win_rate_a_score_ownership_and_policy(review):
    for node in review["nodes"]:
        assert 0.0 <= node["winrate"] <= 1.0, node
        assert math.isfinite(node["score"]) and abs(node["score"]) <= 81, node
        assert node["visits"] > 0, node
        assert node["ownership"] == 81 and node["policy"] == 82, node  # the board, row by row; and pass


def test_candidate_moves_are_vertices_katrains_board_accepts(review):
    for node in review["nodes"]:
        assert node["candidates"], node
        for candidate in node["candidates"]:
            assert VERTEX.match(candidate["move"]), candidate
            assert candidate["pv"][0] == candidate["move"], candidate
            assert 0.0 <= candidate["winrate"] <= 1.0, candidate
            assert math.isfinite(candidate["pointsLost"]), candidate
        assert node["refused"] == [], node  # KaTrain played each candidate there: occupied, ko, suicide
        best = [c for c in node["candidates"] if c["order"] == 0]
        assert len(best) == 1, node


def test_katrain_computes_the_points_lost_by_every_move(review):
    for node in played(review):
        assert isinstance(node["points_lost"], float) and math.isfinite(node["points_lost"]), node


def test_the_end_of_the_game_favours_white_from_blacks_side(review):
    """KaTrain asks for Black's view (``reportAnalysisWinratesAs: BLACK``) whoever is to move: after
    the last passes White, who won by 11, leads on both, and so on average over the last ten nodes,
    White to move at half of them (a side-to-move view would flip those)."""
    last = review["nodes"][-1]
    assert last["winrate"] < 0.5 and last["score"] < 0, last
    tail = review["nodes"][-10:]
    assert sum(n["winrate"] for n in tail) / len(tail) < 0.5
    assert sum(n["score"] for n in tail) / len(tail) < 0


def test_katrain_started_goengine_itself_and_its_shutdown_ends_it(review):
    engine = review["engine"]
    assert engine["cmdline"] is not None and "-m goengine analysis" in engine["cmdline"], engine  # not the shell
    assert engine["gone"], engine
    assert engine["returncode"] == 0, engine  # its SIGTERM handler: a clean exit


# ---- a whole game against goengine as KaTrain's AI player (tests/katrain/play.py)


@pytest.fixture(scope="module")
def ai_game(tmp_path_factory) -> dict:
    """The JSON summary of a 9x9 game KaTrain played: goengine as its default AI (White) against
    its policy-weighted AI (Black), KaTrain's settings as they come."""
    return run_katrain(tmp_path_factory, PLAYER, "--moves", "160")


def test_katrain_plays_a_whole_game_against_goengine_as_its_ai(ai_game):
    assert ai_game["size"] == [9, 9] and ai_game["ruleset"] == "japanese" and ai_game["komi"] == 6.5
    moves = ai_game["moves"]
    assert [m["player"] for m in moves] == ["B", "W"] * (len(moves) // 2) + ["B"] * (len(moves) % 2)
    assert all(VERTEX.match(m["move"]) for m in moves)  # and KaTrain's board took each (Game.play)
    # the game ended as a game does, by two passes, well before the cap
    assert ai_game["ended"] and len(moves) < 160 and [m["move"] for m in moves[-2:]] == ["pass", "pass"]
    # goengine's side played its analysis' top move, every time, from a complete analysis
    for m in moves:
        assert m["analysed"] and m["top"], m
        if m["player"] == "W":
            assert m["move"] == m["top"][0], m
    assert ai_game["errors"] == []
    assert any("goengine counts by area, not territory" in w for w in ai_game["warnings"])


def test_the_final_position_is_analysed_and_the_engine_ends_with_katrain(ai_game):
    final = ai_game["final"]
    assert final["complete"] and 0.0 <= final["winrate"] <= 1.0 and abs(final["score"]) <= 81, final
    engine = ai_game["engine"]
    assert engine["gone"] and engine["returncode"] == 0, engine
