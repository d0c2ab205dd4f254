"""Engine: the decisions on one game. It owns the game's record (``goengine.game.Game``), both
clocks (``goengine.time_control.GameClocks``), the search (``goengine.search.Search``) and its
pondering (``goengine.ponder.Ponderer``), and decides: ``genmove``, ``analyze``, the end-of-game
count (``final_score``, ``final_status``: ``goengine.scoring`` reading the playouts' ownership)
and the engine's own free handicap stones. A search stops early in one way only: its request's
stop test (``config.SearchRequest.should_stop``), which the front-ends give. No GTP: the front-end
(``goengine.gtp``) reads the arguments, words the errors and formats the answers.

It is the front-end's one door into the search: nothing above this module imports
``goengine.search`` or the kernels (an import-linter contract), and nothing outside
``engine.py`` and ``search.py`` reads the search or its trees: a search's answer is one immutable
``SearchResult``, which the front-end and the scripts format or read. The game and the clocks are
the front-end's to use directly (``engine.game.play``, ``engine.clocks.report``), as is the
ponderer's ``stop``.

Reading guide: ``genmove`` (``budget``: the settings limited by the clock; ``_clock_stop``: with
``extend_time``, that budget stretched and the stop test that ends the search between the planned
and the longest time; ``extra_komi``: the dynamic komi -> ``Search.run`` -> ``decide`` -> play the
move), then ``move_answered`` (the clock charged, pondering started) and ``final_score`` /
``final_status``.

The move decision, all of it in ``decide``: when the opponent has just passed, the engine passes
back only if the Tromp-Taylor count of the board as it stands already wins, the stricter test:
ending the game never rests on stones it merely believes dead. It resigns when the most visited
move's win rate is under ``resign_threshold`` after ``resign_min_visits`` root visits (or half the
playout budget when that is less), unless the search played against a dynamic komi that made its
task harder (``goengine.dynkomi``: its win rates are then against more than the real komi).
Otherwise it plays the most visited move, a pass included when the search likes it best (every
other move looks no better). In clean-up (``kgs-genmove_cleanup``) it never passes, for either
reason, while the opponent has dead stones left to capture.

Dead stones: after ``OWNERSHIP_PLAYOUTS`` playouts from the position, a chain that ended mostly
in the opponent's area is dead; seki is recognised from shared liberties
(``scoring.chain_status``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from goengine import dynkomi, movemodel, research_players, scoring
from goengine.board import BLACK, EMPTY, PASS, WHITE, Board, parse_color
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.game import (
    BadHandicap,
    BoardNotEmpty,
    Game,
    GameError,
    Setup,
    fixed_handicap_points,
    max_fixed_handicap,
)
from goengine.ponder import Ponderer
from goengine.result import MoveStats, SearchResult
from goengine.ruleset import goengine_rules
from goengine.search import OWNERSHIP_PLAYOUTS, Search
from goengine.time_control import GameClocks, StopRule, TimeSettings

RESIGN = -2  # the move of a decision to resign
FREE_HANDICAP_PLAYOUTS = 4  # a point of the board: the search's budget for each free handicap stone
FREE_HANDICAP_SEARCHED = 4  # the stones beyond the fixed layout share at most this many stones' budget
STOP_CHECK_SECONDS = 0.05  # a clock's stop test reads the root this often: every few batches, not every one


@dataclass(frozen=True)
class Decision:
    """A move decided: the ``move`` (a point, PASS or RESIGN), the ``reason`` in words, and the
    ``result`` of the search it rests on (the root's moves, the principal variation, what was
    spent)."""

    move: int
    reason: str
    result: SearchResult


class Engine:
    """A game in progress and the engine's decisions on it."""

    def __init__(self, config: EngineConfig | None = None):
        config = config or EngineConfig()
        self._search = Search(config.search)
        self.game = Game(config.size, config.komi, goengine_rules(config.white_handicap_bonus))
        self.clocks = GameClocks()
        self.ponderer = Ponderer(self._search)
        self._choose_player(config.search)
        # per colour, the extra komi of the engine's last move and the win rate its search found
        self._dynkomi: dict[int, tuple[float, float]] = {}
        self._searched: float | None = None  # the seconds the last move's search took

    @property
    def config(self) -> EngineConfig:
        """The settings now: the game's size, komi and handicap bonus, and the search's own."""
        return EngineConfig(self.game.size, self.game.komi, self._search.config, self.game.rules.white_handicap_bonus)

    def configure(self, config: SearchConfig) -> None:
        """Search with ``config`` from now on; the search keeps its trees when the change leaves
        them valid (``SearchConfig.keeps_trees_of``), and a research player starts afresh when
        they do not."""
        self.ponderer.stop()
        keep = config.keeps_trees_of(self._search.config)
        self._search.configure(config)
        if not keep:  # a new player, its random stream seeded afresh as the search's are
            self._choose_player(config)

    def describe(self) -> str:
        """The search as configured, for the start-up line: rule, policy, prior, seed, trees."""
        return self._search.describe()

    def close(self) -> None:
        """Stop pondering and the search's worker threads."""
        self.ponderer.stop()
        self._search.close()

    # ---- a new game

    def new_game(self, size: int | None = None) -> None:
        """A new, empty game on a ``size`` board (default: the current one; ValueError outside
        ``config.BOARD_SIZES``): the komi stays, both clocks start again, the dynamic komi forgets."""
        self.game.set_size(self.game.size if size is None else size)
        self.clocks.start()
        self._dynkomi = {}

    def load_position(self, position: Setup, superko: bool = True) -> list[int]:
        """A new game (as ``new_game``) of ``position`` (a ``game.Setup``, its rules included),
        all or nothing (``Game.load_position``)."""
        repeats = self.game.load_position(position, superko)
        self.clocks.start()
        self._dynkomi = {}
        return repeats

    def free_handicap(self, n: int) -> list[int]:
        """The engine's own choice (GTP ``place_free_handicap``): the fixed layout, which is
        what Pachi and Fuego also return for n up to the layout's limit; beyond it, the points the
        search likes best for Black, one by one, sharing FREE_HANDICAP_SEARCHED stones' budget."""
        game = self.game
        size = game.size
        if n < 2 or n >= size * size:
            raise BadHandicap(f"a handicap has from 2 to {size * size - 1} stones, not {n}")
        limit = max_fixed_handicap(size)
        if 2 <= n <= limit:
            return game.fixed_handicap(n)
        points = fixed_handicap_points(size, limit) if limit else []  # below 7x7: every stone searched
        if not game.is_empty:
            raise BoardNotEmpty("the board already has stones or moves")
        board = Board(size)
        for p in points:
            board.play(BLACK, p)
            board.play(WHITE, PASS)
        budget = _free_stone_budget(size, n - len(points))
        while len(points) < n:
            board.to_move = BLACK
            result = self._search.run(board, game.scoring_komi, SearchRequest(budget))
            choice = next((s.move for s in result.stats if s.move != PASS and board.is_legal(BLACK, s.move)), None)
            if choice is None:
                break
            points.append(choice)
            board.play(BLACK, choice)
            board.play(WHITE, PASS)
        game.place_handicap(points)
        return points

    # ---- moves

    def genmove(
        self, color: int | str, commit: bool = True, cleanup: bool = False, request: SearchRequest | None = None
    ) -> Decision:
        """The move of ``color`` as the player decides it (``_choose_player``: the search, as
        ``request`` asks, its budget else the move's, the settings limited by the clock, against
        the game's dynamic komi, then ``decide``; or a research player alone) and, with
        ``commit``, played (not a resignation). ``cleanup`` (``kgs-genmove_cleanup``): never pass
        while the playouts call stones dead."""
        c = parse_color(color)
        board = self.game.board.copy()
        board.to_move = c
        decision = self._decide_move(board, request or SearchRequest(), cleanup)
        if commit and decision.move != RESIGN:
            self.game.play(c, decision.move)
        return decision

    def _choose_player(self, config: SearchConfig) -> None:
        """Who decides a move from now on (``config.player``): the search (``_searched_move``), or
        a research player alone (``research_players``), each with its own move."""
        player = research_players.of(config)
        if player is None:
            self._decide_move = self._searched_move
            return

        def alone(board: Board, request: SearchRequest, cleanup: bool) -> Decision:
            result = SearchResult(board.to_move, self.game.komi)
            return Decision(player.move(board), f"the {player.name} player alone", result)

        self._decide_move = alone

    def _searched_move(self, board: Board, request: SearchRequest, cleanup: bool) -> Decision:
        """The search's move for the side to move of ``board``: on the request's budget, else the
        move's (``budget``, stretched by the clock's stop test), against the dynamic komi."""
        c = board.to_move
        budget, clock_stop = self._clock_stop(c, board, request.budget or self.budget(c, board))
        extra = self.extra_komi(c)
        stops = [test for test in (request.should_stop, clock_stop) if test is not None]
        should_stop = (lambda: any(test() for test in stops)) if stops else None
        request = replace(request, budget=budget, extra_komi=extra, should_stop=should_stop)
        result = self._search.run(board, self.game.scoring_komi, request)
        self._dynkomi[c] = (extra, result.winrate)
        self._searched = result.seconds
        return self.decide(board, result, budget, cleanup)

    def move_answered(self, color: int | str, seconds: float) -> None:
        """``color``'s move (a ``genmove``) took ``seconds`` of the controller's time, from its
        command's arrival to its answer's flush: charge ``color``'s clock (and keep the worst
        overhead beyond the search, ``GameClocks.charge``); then, with ``ponder`` on and the move
        played (not a resignation), think on the opponent's time (``start_pondering``)."""
        c = parse_color(color)
        self.clocks.charge(c, seconds, self._searched)
        moves = self.game.moves
        if self._search.config.ponder and moves and moves[-1][0] == c:
            self.start_pondering()

    def start_pondering(self) -> bool:
        """Search the position as it stands (the opponent to move, after the engine's move) in
        the background until the next command (``Ponderer``): the opponent's reply is then a child
        of the root, and the next ``genmove`` goes on from its subtree. The playouts are judged
        with the dynamic komi of the engine's last move, as Pachi keeps it while pondering. Not
        after a pass (the game may be over: Pachi does the same) nor in a finished game. Whether
        it started."""
        self.ponderer.stop()
        board = self.game.board
        if board.is_over or not board.moves or board.moves[-1][1] == PASS:
            return False
        extra = self._dynkomi.get(board.moves[-1][0], (0.0, None))[0]
        self.ponderer.start(board, self.game.scoring_komi, extra)
        return True

    def extra_komi(self, color: int) -> float:
        """The dynamic komi the search of ``color``'s next move plays against (``goengine.dynkomi``:
        the settings' mode, the handicap, the moves played, and the engine's last move)."""
        config = self._search.config
        last_extra, last_winrate = self._dynkomi.get(color, (None, None))
        state = dynkomi.GameState(
            self.game.size, self.game.handicap_stones, len(self.game.moves), color, last_extra, last_winrate
        )
        return dynkomi.extra_komi(config.dynkomi, config.dynkomi_params, state)

    def decide(self, board: Board, result: SearchResult, budget: Budget, cleanup: bool = False) -> Decision:
        """The move to play in ``board`` (its side to move) after ``result``, a search on
        ``budget``: the rules in the module docstring, in order; clean-up overrides any pass."""
        me = board.to_move
        sign = 1 if me == BLACK else -1
        best = result.best
        config = self._search.config
        resign_visits = config.resign_min_visits
        if budget.playouts is not None:  # with a small budget, resigning waits for half of it
            resign_visits = min(resign_visits, max(1, budget.playouts // 2))
        if board.moves and board.moves[-1][1] == PASS and sign * board.score(self.game.scoring_komi) > 0:
            move, reason = PASS, "the opponent passed and passing wins on the area count"
        elif best is None:
            move, reason = PASS, "no move searched"
        elif (
            config.resign_threshold > 0
            and result.visits >= resign_visits
            and best.winrate < config.resign_threshold
            and sign * result.extra_komi <= 0  # not while a dynamic komi makes our task harder
        ):
            return Decision(RESIGN, f"best win rate {best.winrate:.3f} is under {config.resign_threshold}", result)
        else:
            move, reason = best.move, "most visited"
        if cleanup and move == PASS and self.dead_stones(3 - me):
            better = next((s.move for s in result.stats if s.move != PASS and s.visits > 0), None)
            if better is not None:
                move, reason = better, "cleanup: opponent stones still to capture"
        if move != PASS and not board.is_legal(me, move):
            move, reason = PASS, "search returned an illegal move"  # never expected
        return Decision(move, reason, result)

    def analyze(self, color: int | str | None = None, request: SearchRequest | None = None) -> SearchResult:
        """Search the current position for ``color`` (default: the side to move) without playing,
        as ``request`` asks (``config.SearchRequest``: its budget, else the settings'; its root
        exploration, else the ``analysis_width`` setting; the game clock does not apply, since an
        analysis is not a move of the game and charges no clock).
        The tree is kept, so analysis and the next ``genmove`` build on each other, and so are
        the owners counted."""
        c = self.game.to_move if color is None else parse_color(color)
        board = self.game.board.copy()
        board.to_move = c
        request = request or SearchRequest()
        if request.budget is None:
            request = replace(request, budget=Budget.of(self._search.config))
        if request.root_explore is None:
            request = replace(request, root_explore=self._search.config.analysis_width)
        return self._search.run(board, self.game.scoring_komi, request)

    def move_policy(self, color: int | str | None = None) -> dict[int, float]:
        """The move model's policy for ``color`` (default: the side to move) here: what an
        analysis reports, whatever the prior (``MoveModel.policy``)."""
        return movemodel.shipped().policy(self.game.board, color)

    def fresh_search(self) -> None:
        """Fresh trees and random streams, seeded as a new engine's (``Search.reset``): what
        ``goengine review`` asks between the positions an engine of its own searches, so that a
        position's figures are those a new engine would find."""
        self.ponderer.stop()
        self._search.reset()
        self._choose_player(self._search.config)

    def clear_cache(self) -> None:
        """Forget the search's trees: the next search starts from nothing (``clear_cache``)."""
        self.ponderer.stop()
        self._search.clear()

    # ---- time

    def budget(self, color: int, board: Board) -> Budget:
        """What ``color``'s move in ``board`` may spend: the settings' playouts and seconds, with
        the seconds limited by what the clock allows (``seconds_for_move``): ``Budget.of``."""
        return Budget.of(self._search.config, self.seconds_for_move(color, board))

    def _clock_stop(self, color: int, board: Board, budget: Budget) -> tuple[Budget, Callable[[], bool] | None]:
        """With ``extend_time`` set and the clock deciding the move's time (no shorter
        ``seconds`` in the settings): the budget stretched to the move's longest time, and the
        stop test (``time_control.StopRule``, asked at most every STOP_CHECK_SECONDS) that ends
        the search between its planned time and that. Otherwise ``budget`` as it is, no test."""
        config = self._search.config
        allotted = None
        if config.extend_time > 0:
            allotted = self.clocks.move_time(color, _empty_points(board), board.size, config.plan_share)
        if allotted is None or (config.seconds is not None and config.seconds < allotted.planned):
            return budget, None
        rule = StopRule(allotted.planned, allotted.longest(config.extend_time))
        search = self._search
        start = time.perf_counter()
        next_check = start

        def should_stop() -> bool:
            nonlocal next_check
            now = time.perf_counter()
            if now < next_check:
                return False
            next_check = now + STOP_CHECK_SECONDS
            best, second, playouts = search.root_leaders()
            return rule.settled(now - start, playouts, best, second)

        return Budget(budget.playouts, rule.longest), should_stop

    def seconds_for_move(self, color: int, board: Board | None = None) -> float | None:
        """The thinking time the clock allows ``color`` for a move in ``board`` (default: the
        game's), or None without a clock (``GameClocks.seconds_for_move``)."""
        board = self.game.board if board is None else board
        share = self._search.config.plan_share
        return self.clocks.seconds_for_move(parse_color(color), _empty_points(board), board.size, share)

    # ---- scoring

    def ownership(self, playouts: int = OWNERSHIP_PLAYOUTS, seed: int | None = None) -> np.ndarray:
        """For every padded point, the share of playouts (of the search's policy) from the game's
        position that ended with Black owning it minus the share for White, in [-1, 1]."""
        seed = self._search.config.seed if seed is None else seed
        return self._search.owner_counts(self.game.board, playouts, seed) / float(playouts)

    def dead_stones(self, color: int | None = None) -> list[int]:
        """Stones (of ``color``, or both) in chains the playouts judge dead (``scoring``)."""
        return scoring.dead_stones(self.game.board, self.ownership(), color)

    def final_status(self, status: str) -> list[int]:
        """Stones ``alive``, ``dead`` or in ``seki`` (``final_status_list``); else GameError."""
        if status not in scoring.STATUSES:
            raise GameError(f"unknown status {status!r}: alive, dead or seki")
        return scoring.final_status(self.game.board, self.ownership(), status)

    def final_score(self) -> float:
        """Black's area less ``Game.scoring_komi``, the stones the playouts call dead removed."""
        return scoring.final_score(self.game.board, self.game.scoring_komi, self.ownership())


def kernels_cached() -> bool:
    """Whether this install's kernels are in the disk cache already: numba's index files of the
    search's kernels for this Python in ``kernels.cache_dir`` (a folder of this install's alone),
    or in the user's ``NUMBA_CACHE_DIR``."""
    from goengine.kernels import cache_dir

    where = os.environ.get("NUMBA_CACHE_DIR") or cache_dir()
    # numba nests its index files one folder down, one a kernel and Python version
    return any(Path(where).rglob(f"search.*.py{sys.version_info[0]}{sys.version_info[1]}.nbi"))


def warm_up(log: Callable[[str], None], helper: bool = True) -> None:
    """Load every kernel a game uses (compiling them the first time: ``kernels.COMPILE_TIME``; they are then
    cached on disk, ``goengine.kernels.cache_dir``), so the first ``genmove`` is not spent
    compiling. ``log`` hears when compiling starts and how long it all took.

    On a cold cache with a second core (and ``helper``), a second process compiles the playouts'
    kernels (``warm_up_playouts``) while this one compiles the search's: a search compiles its
    expansion and prior first, and by the time it reaches the playout that process has cached
    it, so the first move waits about a third less (``docs/performance.md``). numba writes each
    cache file whole (a temporary file renamed), so either process may stop at any time."""
    from goengine.config import available_cores
    from goengine.kernels import COMPILE_TIME, cache_dir

    cold = not kernels_cached()
    if cold:
        where = os.environ.get("NUMBA_CACHE_DIR") or cache_dir()
        log(f"goengine: compiling the kernels once ({COMPILE_TIME}); they are cached in {where}")
    start = time.perf_counter()
    second = None
    if cold and helper and available_cores() > 1:
        code = "from goengine.engine import warm_up_playouts; warm_up_playouts()"
        devnull = subprocess.DEVNULL
        try:
            second = subprocess.Popen([sys.executable, "-c", code], stdin=devnull, stdout=devnull, stderr=devnull)
        except OSError:  # no second process to be had: this one compiles it all, as on one core
            second = None
    try:
        engine = Engine(EngineConfig(size=5, search=SearchConfig(playouts=64)))
        engine.game.play("b", "C3")
        engine.genmove("w")
        engine.ownership(8)
        Board(5).legal_moves()
        engine.close()
    finally:
        if second is not None:  # all is cached now: what it still compiles, nobody needs
            second.kill()
            second.wait()
    log(f"goengine: kernels ready in {time.perf_counter() - start:.1f} s")


def warm_up_playouts() -> None:
    """Compile the playouts' kernels (through an ownership map, which runs playouts outside a
    search): ``warm_up``'s second process."""
    engine = Engine(EngineConfig(size=5, search=SearchConfig(playouts=64)))
    engine.ownership(8)
    engine.close()


def _free_stone_budget(size: int, stones: int) -> Budget:
    """The search's budget for each of ``stones`` free handicap stones beyond the fixed layout:
    FREE_HANDICAP_PLAYOUTS a point, shared when there are more than FREE_HANDICAP_SEARCHED stones
    (100 stones on 19x19 then take seconds, not half a minute), and 200 playouts at least."""
    share = min(1.0, FREE_HANDICAP_SEARCHED / stones)
    return Budget(playouts=max(200, int(FREE_HANDICAP_PLAYOUTS * size * size * share)))


def _empty_points(board: Board) -> int:
    """The empty points of ``board``: what a clock plans the moves left by."""
    return sum(1 for p in board.points() if board.color_at(p) == EMPTY)


__all__ = [
    "Budget",
    "Decision",
    "Engine",
    "MoveStats",
    "PASS",
    "RESIGN",
    "SearchRequest",
    "SearchResult",
    "TimeSettings",
    "warm_up",
]
