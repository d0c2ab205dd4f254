"""What several test modules share: a search on a budget, an engine on a diagram, a search clock
that counts batches, the lines of Python a call runs (``lines_run``), the skip of a test whose
outside program is missing, the Node project of Sabaki's libraries (``sabaki_project``), and the
conversions between goengine's boards and the naive grids of ``tests/naive.py``, a regression suite
of three tests (``write_suite``).

A module's own fixtures stay in the module; what two or more modules need lives here (the match
laboratory's fake engines and subprocess runs live in ``tests/match_harness.py``), so no test
module imports another.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import subprocess
import sys
import threading
import types
from pathlib import Path

import naive
import pytest

import goengine.search as search_module
from goengine import coords, mogo3x3, playout_model
from goengine.board import BLACK, PASS, Board
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine
from goengine.kernels import board as kb
from goengine.kernels import search as ksearch
from goengine.kernels.playout import outside_search
from goengine.result import SearchResult
from goengine.search import Search

#: what a caller outside a search passes for the last good replies (kernels.replies): the
#: policy's stand-in table, and the playout's memory with it, recording no moves (its learned
#: policy's scratch of the largest board serves every size)
NO_MEMORY = outside_search(21 * 21, 21)[4]
NO_REPLIES = NO_MEMORY[0]
#: the tables a playout reads: MoGo's 3x3 patterns, and no learned playout model
TABLES = (mogo3x3.table(), playout_model.no_model_arrays())


def unavailable(reason: str, required_by: str) -> None:
    """Skip the test: what it runs beside goengine (Sabaki's library, Lizzie's jar) is missing.
    Fail instead when the environment variable ``required_by`` is set (``.ci/run`` sets them, so
    that such a test can never skip there)."""
    if os.environ.get(required_by, "") not in ("", "0"):
        pytest.fail(f"{reason} ({required_by} is set)")
    pytest.skip(reason)


SABAKI_DIR = Path(__file__).parent / "sabaki"  # the Node project of Sabaki's libraries (make sabaki)
SABAKI_REQUIRED_BY = "GOENGINE_REQUIRE_SABAKI"  # set, a missing node or npm fails a Sabaki test instead of skipping it


def sabaki_project(package: str) -> Path:
    """``tests/sabaki`` with its node_modules installed (``npm ci`` when ``package``, e.g.
    ``@sabaki/gtp``, is missing from them); the test is skipped (``unavailable``) without node or
    npm, or when ``npm ci`` fails (offline)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        unavailable(f"node and npm are needed for the Sabaki tests ({package})", SABAKI_REQUIRED_BY)
    if not (SABAKI_DIR / "node_modules" / package / "package.json").exists():
        try:
            done = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"],
                cwd=SABAKI_DIR,
                capture_output=True,
                text=True,
                timeout=300,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            unavailable("npm ci in tests/sabaki took more than 300 s (offline?)", SABAKI_REQUIRED_BY)
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines()
            errors = [line for line in lines if line.startswith("npm error")] or lines
            tail = " | ".join(errors[:3])
            unavailable(f"npm ci in tests/sabaki failed (offline?): {tail}", SABAKI_REQUIRED_BY)
    return SABAKI_DIR


def run(search: Search, board: Board, komi: float, **budget) -> SearchResult:
    """``search`` on ``board`` with the budget of its settings (``Budget.of``), or on ``budget``
    (``playouts=``, ``seconds=``) when given."""
    return search.run(board, komi, SearchRequest(Budget(**budget) if budget else Budget.of(search.config)))


def set_up(diagram: str, to_move: int = BLACK, **config) -> Engine:
    """An Engine (``EngineConfig(**config)``) on the position of an ASCII ``diagram`` (``X`` black,
    ``O`` white, ``.`` empty), ``to_move`` to play."""
    board = Board.from_ascii(diagram)
    engine = Engine(EngineConfig(size=board.size, **config))
    engine.game.setup([(board.color_at(p), p) for p in board.points() if board.color_at(p)], to_move)
    return engine


# A settled 5x5 position: every empty point is a one-point eye, so no move but a pass is legal
# and useful, and every playout ends with Black 15 points (columns A-C), White 10 (D-E).
SETTLED = """
    X X X O O
    X . X O .
    X X X O O
    X . X O .
    X X X O O
"""

# A 9x9 board split by two walls, Black's on E and White's on F, with one white stone, B5, alone
# in Black's area: dead, which the count must remove (Black 45 points with it gone, White 36).
DEAD_STONE = """
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
"""


# ---- a search clock that counts batches


class BatchClock:
    """A fake clock for ``goengine.search``: its ``time.perf_counter`` stands still except when a
    batch of iterations (one ``kernels.search.run_iterations`` call) ends, which moves it on by
    ``step`` seconds. A search's deadline, its reports and its ``result.seconds`` are then counted
    in batches, whatever the machine's load. ``batches`` counts the calls (every thread's).

    Install it with ``BatchClock(monkeypatch, step)``; pytest's monkeypatch puts the real clock
    and kernel back after the test. A search that runs ``limit`` batches raises, so one that
    never looks at its clock fails instead of running for ever."""

    def __init__(self, monkeypatch, step: float, limit: int = 100_000) -> None:
        self.now = 1000.0
        self.step = step
        self.batches = 0
        self._lock = threading.Lock()
        real = ksearch.run_iterations

        def run_iterations(*args):
            ran = real(*args)
            with self._lock:
                self.now += step
                self.batches += 1
                if self.batches >= limit:
                    raise RuntimeError(f"{limit} batches: the search does not stop at its deadline")
            return ran

        monkeypatch.setattr(search_module, "time", types.SimpleNamespace(perf_counter=self.perf_counter))
        monkeypatch.setattr(ksearch, "run_iterations", run_iterations)

    def perf_counter(self) -> float:
        with self._lock:
            return self.now


# ---- goengine's padded indices and naive's (row, col)


@functools.cache
def point_map(size):
    """``{(row, col): padded index}`` for every point of the board."""
    return {(r, c): coords.point(size, r, c) for r in range(size) for c in range(size)}


def to_point(size, rc):
    return PASS if rc is None else point_map(size)[rc]


def to_rc(size, p):
    return None if p == PASS else coords.row_col(size, p)


def grid_of(pts, size):
    """The naive grid of the COLOR row of a kernel board."""
    colors = pts[kb.COLOR].tolist()
    return tuple(tuple(colors[coords.point(size, r, c)] for c in range(size)) for r in range(size))


def random_position(size, seed, moves):
    """A Board and its naive Game after ``moves`` moves of the uniform policy (passing only when
    nothing is legal)."""
    rnd = random.Random(seed)
    board = Board(size)
    game = naive.Game(size)
    color = BLACK
    for _ in range(moves):
        legal = board.legal_moves(color)  # naive's game.play checks the one played
        p = rnd.choice(legal) if legal else PASS
        board.play(color, p)
        game.play(color, to_rc(size, p))
        color = 3 - color
    return board, game


def recorded_decisions(engine: Engine) -> list:
    """Every ``Decision`` the engine's ``genmove`` returns from now on, in order (a list that
    grows): what a search spent, read from its result."""
    decisions = []
    genmove = engine.genmove

    def recording(*args, **kwargs):
        decisions.append(genmove(*args, **kwargs))
        return decisions[-1]

    engine.genmove = recording
    return decisions


def lines_run(call) -> int:
    """How many lines of Python ``call()`` runs (``sys.settrace``'s line events, the tracer's own
    aside): a count of the work done, the same on any machine however busy, so a test can tell
    work that grows with the square of the input from work that grows with it."""
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(previous)
    return count


def write_suite(folder: Path) -> None:
    """Three tests on a 9x9 game's opening: any move but a pass (passes), a pass (fails), and a
    test whose file is missing (not run)."""
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "opening.sgf").write_text("(;FF[4]GM[1]SZ[9]KM[7.5];B[ee];W[cc])")
    (folder / "tactics.tst").write_text(
        "loadsgf games/opening.sgf\n1 reg_genmove black\n#? [!PASS]\n\n"
        "2 reg_genmove black\n#? [PASS]\n\n"
        "loadsgf games/none.sgf\n3 reg_genmove black\n#? [A1]\n"
    )


RESEARCH = {"playout": "uniform", "prior": "none", "expand_at": 1}  # the setting these tests describe


def make_search(rule: str = "ucb1", **config) -> Search:
    """A search in the research setting (uniform playouts, no prior, expansion on the second visit) unless told."""
    for key, value in RESEARCH.items():
        config.setdefault(key, value)
    return Search(SearchConfig(rule=rule, **config))
