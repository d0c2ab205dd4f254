"""Engine: one game's state (board, komi, history for undo, handicap, clocks) and the decisions
on it (genmove, scoring, dead stones). No GTP: the front-end (``goengine.gtp``) reads its
arguments, words its errors and formats its answers; the engine takes points and colours
(``"D4"`` and ``"b"`` too, as ``Board`` does, for Python users), ``TimeSettings`` and
``SearchConfig`` objects, and raises ``EngineError`` subclasses that say what went wrong.

It is the front-end's one door into the search: ``genmove`` and ``analyze`` search, ``interrupt``
stops a search, ``principal_variation`` reads the tree, ``configure`` / ``config`` are the
settings, ``describe`` the start-up line and ``warm_up`` loads the kernels. Nothing above this
module imports ``goengine.search`` or the kernels (an import-linter contract).

Reading guide: ``genmove`` (``budget``: the settings limited by the clock, ``extra_komi``: the
dynamic komi -> ``Search.run`` -> ``decide`` -> play the move), then ``final_score`` and
``final_status``, which judge dead stones by playouts (``ownership``).

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
in the opponent's area is dead; seki is recognised from shared liberties (``chain_status``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from goengine import coords, dynkomi, movemodel, time_control
from goengine.board import BLACK, EMPTY, PASS, WHITE, Board, parse_color
from goengine.config import Budget, EngineConfig, SearchConfig, check_board_size
from goengine.search import MoveStats, Search, SearchResult
from goengine.time_control import Clock, TimeSettings

RESIGN = -2  # the move of a decision to resign
OWNERSHIP_PLAYOUTS = 1000
DEAD_SHARE = 0.5  # see Engine.chain_status
FREE_HANDICAP_PLAYOUTS = 4  # a point of the board: the search's budget for each free handicap stone
PONDER_SECONDS = 86400.0  # a ponder search's budget: it runs until stopped


class EngineError(ValueError):
    """A request the engine cannot carry out in the current state (the message says why)."""


class BoardNotEmpty(EngineError):
    """Set-up stones or a handicap asked for on a board that has stones or moves."""


class BadHandicap(EngineError):
    """A number of handicap stones the board cannot take."""


class BadStones(EngineError):
    """A list of set-up stones with a repeated point, a point off the board, or too few or too
    many stones."""


class NothingToUndo(EngineError):
    """``undo`` with no move to take back (set-up stones are the start of the game)."""


@dataclass
class Decision:
    """A move decided: the ``move`` (a point, PASS or RESIGN), the ``reason`` in words, and the
    ``search`` it rests on (the root's moves, the principal variation, what was spent)."""

    move: int
    reason: str
    search: SearchResult


def max_fixed_handicap(size: int) -> int:
    """The most stones GTP's fixed layout has on ``size`` (GTP 2, section 4.1.1): 9 on odd boards
    from 9x9, 4 on 7x7 and on even boards, none below 7x7."""
    if size < 7:
        return 0
    return 9 if size % 2 == 1 and size >= 9 else 4


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The GTP fixed handicap points (GTP 2, section 4.1.1) for ``n`` stones on ``size``, from 2
    to ``max_fixed_handicap(size)``."""
    limit = max_fixed_handicap(size)
    if limit == 0:
        raise BadHandicap(f"no fixed handicap on a {size}x{size} board (7x7 at least)")
    if not 2 <= n <= limit:
        raise BadHandicap(f"a fixed handicap on {size}x{size} has 2 to {limit} stones, not {n}")
    d = 3 if size < 13 else 4
    lo, hi, mid = d, size + 1 - d, (size + 1) // 2
    corners = [(lo, lo), (hi, hi), (lo, hi), (hi, lo)]  # D4 Q16 D16 Q4, as (column, row) from A1
    sides = [(lo, mid), (hi, mid)]  # D10 Q10
    tops = [(mid, lo), (mid, hi)]  # K4 K16
    center = [(mid, mid)]
    layout = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + center,
        6: corners + sides,
        7: corners + sides + center,
        8: corners + sides + tops,
        9: corners + sides + tops + center,
    }[n]
    return [coords.point(size, size - row, col - 1) for col, row in layout]


class Engine:
    """A game in progress and the engine's view of it."""

    def __init__(self, config: EngineConfig | None = None):
        config = config or EngineConfig()
        self.search = Search(config.search)
        self.komi = config.komi
        self.board = Board(config.size)
        self._undo: list[Board] = []
        self.handicap: list[int] = []
        self.setup_stones: list[tuple[int, int]] = []
        self.time_settings = TimeSettings()
        self.clocks = {BLACK: Clock(), WHITE: Clock()}
        self.overhead = 0.0  # the most a move has cost beyond its search (charge_clock)
        self.last_result: SearchResult | None = None  # the last move's search (charge_clock)
        # per colour, the extra komi of the engine's last move and the win rate its search found
        self._dynkomi: dict[int, tuple[float, float]] = {}
        self._ponder: tuple[threading.Thread, threading.Event] | None = None

    @property
    def config(self) -> EngineConfig:
        """The engine's settings as they are now: the board size and komi of the current game,
        and the search's configuration (the one source of truth for it)."""
        return EngineConfig(size=self.size, komi=self.komi, search=self.search.config)

    def configure(self, config: SearchConfig) -> None:
        """Search with ``config`` from now on; the search keeps its trees when only the budget
        or the resignation rule changed (``Search.configure``)."""
        self.search.configure(config)

    def describe(self) -> str:
        """The search as configured, for the start-up line: rule, policy, prior, seed, trees."""
        return self.search.describe()

    def close(self) -> None:
        """Stop pondering and the search's worker threads."""
        self.stop_pondering()
        self.search.close()

    # ---- thinking on the opponent's time

    def start_pondering(self) -> bool:
        """Search the position as it stands (the opponent to move, after the engine's move) on a
        thread of its own, with no budget, until ``stop_pondering``: the opponent's reply is then
        a child of the root, and the next ``genmove`` goes on from its subtree (``Search``'s
        re-rooting). The playouts are judged with the dynamic komi of the engine's last move, as
        Pachi keeps it while pondering. Nothing is played, printed or charged to a clock. Not
        after a pass (the game may be over: Pachi does the same) nor in a finished game. Whether
        it started."""
        self.stop_pondering()
        board = self.board
        if board.is_over or not board.moves or board.moves[-1][1] == PASS:
            return False
        extra = self._dynkomi.get(board.moves[-1][0], (0.0, None))[0]
        board = board.copy()
        stop = threading.Event()

        def ponder() -> None:
            if stop.is_set():
                return
            # the callback catches a stop that came before run() cleared the interrupt flag
            self.search.run(
                board,
                self.komi,
                Budget(seconds=PONDER_SECONDS),
                callback=lambda result: stop.is_set() and self.search.interrupt(),
                callback_interval=0.01,
                extra_komi=extra,
            )

        thread = threading.Thread(target=ponder, name="ponder", daemon=True)
        self._ponder = (thread, stop)
        thread.start()
        return True

    def stop_pondering(self, wait: bool = True) -> None:
        """Stop a ponder search (after its current batch: milliseconds); with ``wait``, return
        once it has stopped, so the engine's state is the caller's again. Thread-safe without
        ``wait`` (the front-end's input thread calls it the moment a line arrives)."""
        pondering = self._ponder
        if pondering is None:
            return
        thread, stop = pondering
        stop.set()
        self.search.interrupt()
        if wait:
            thread.join()
            self._ponder = None

    @property
    def pondering(self) -> bool:
        return self._ponder is not None and self._ponder[0].is_alive()

    def interrupt(self) -> None:
        """Ask the running search (``genmove``, ``analyze``) to stop after its current batch and
        answer with what it has (thread-safe: the front-end calls it on a command's arrival)."""
        self.search.interrupt()

    def prior_shares(self) -> dict[int, float]:
        """Each root move's share of the prior knowledge in the last search (``Search.root_policy``:
        the move model's probability under ``--prior patterns``); empty with ``--prior none``."""
        return self.search.root_policy()

    def principal_variation(self, first: int | None = None, length: int = 20) -> list[int]:
        """The most visited line of the last search's tree (from the root move ``first`` when
        given)."""
        return self.search.principal_variation(first, length)

    # ---- game set-up

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def board_is_empty(self) -> bool:
        """No stone on the board and no move played (set-up and handicap need it)."""
        return not self.board.moves and all(self.board.color_at(p) == EMPTY for p in self.board.points())

    def set_size(self, size: int) -> None:
        """A new, empty game on a ``size`` board (ValueError outside ``config.BOARD_SIZES``); both
        clocks start again from the time settings."""
        check_board_size(size)
        self.board = Board(size)
        self._undo.clear()
        self.handicap = []
        self.setup_stones = []
        self._dynkomi = {}
        self._start_clocks()

    def clear(self) -> None:
        self.set_size(self.size)

    def set_komi(self, komi: float) -> None:
        self.komi = float(komi)

    def setup(self, stones: list[tuple[int, int]], to_move: int = BLACK) -> None:
        """Start the game from set-up stones ``(color, point)`` on an empty board (SGF AB/AW):
        the position is the first of the game's history, and cannot be undone."""
        if not self.board_is_empty:
            raise BoardNotEmpty("the board already has stones or moves")
        points = [p for _, p in stones]
        if len(set(points)) != len(points):
            raise BadStones("a point is given twice")
        if any(p == PASS or not coords.on_board(self.size, p) for p in points):
            raise BadStones("a stone is not on the board")
        self.board = Board.from_stones(self.size, stones, to_move)
        self._undo.clear()
        self.setup_stones = list(stones)

    def load_position(self, position) -> None:
        """Start the game of ``position`` (an ``sgf.SgfPosition``: size, komi, set-up stones, then
        every move replayed with full rules, so an illegal one raises IllegalMove; a size outside
        ``config.BOARD_SIZES`` raises ValueError)."""
        self.set_size(position.size)
        self.set_komi(position.komi)
        if position.setup:
            self.setup(position.setup, position.to_move)
        for color, point in position.moves:
            self.play(color, point)

    def place_handicap(self, points: list[int]) -> None:
        """Black stones on an empty board (GTP ``set_free_handicap``); White moves next."""
        if len(points) < 2 or len(points) >= self.size * self.size:
            raise BadStones(f"a handicap has from 2 to {self.size * self.size - 1} stones, not {len(points)}")
        self.setup([(BLACK, p) for p in points], to_move=WHITE)
        self.handicap = list(points)

    def fixed_handicap(self, n: int) -> list[int]:
        points = fixed_handicap_points(self.size, n)
        self.place_handicap(points)
        return points

    def free_handicap(self, n: int) -> list[int]:
        """The engine's own choice (GTP ``place_free_handicap``): the fixed layout, which is
        what Pachi and Fuego also return for n up to the layout's limit; beyond it, the points
        the search likes best for Black, one by one."""
        if n < 2 or n >= self.size * self.size:
            raise BadHandicap(f"a handicap has from 2 to {self.size * self.size - 1} stones, not {n}")
        limit = max_fixed_handicap(self.size)
        if 2 <= n <= limit:
            return self.fixed_handicap(n)
        points = fixed_handicap_points(self.size, limit) if limit else []  # below 7x7: every stone searched
        if not self.board_is_empty:
            raise BoardNotEmpty("the board already has stones or moves")
        board = Board(self.size)
        for p in points:
            board.play(BLACK, p)
            board.play(WHITE, PASS)
        budget = Budget(playouts=max(200, FREE_HANDICAP_PLAYOUTS * self.size * self.size))
        while len(points) < n:
            board.to_move = BLACK
            result = self.search.run(board, self.komi, budget)
            choice = next((s.move for s in result.stats if s.move != PASS and board.is_legal(BLACK, s.move)), None)
            if choice is None:
                break
            points.append(choice)
            board.play(BLACK, choice)
            board.play(WHITE, PASS)
        self.place_handicap(points)
        return points

    # ---- moves

    def play(self, color: int | str, point: int | str) -> None:
        """Play a move of either colour (GTP allows any order); IllegalMove if the rules forbid it."""
        c = parse_color(color)
        before = self.board.copy()
        self.board.play(c, point)
        self._undo.append(before)

    def undo(self) -> None:
        """Take the last move back. The clocks are left as they are: time spent is gone on a real
        clock (KGS gives none back), and counting it spent can only make the engine quicker, never
        late; a controller that gives time back says so with ``time_left``."""
        if not self._undo:
            raise NothingToUndo("no move to undo")
        self.board = self._undo.pop()

    def genmove(
        self,
        color: int | str,
        commit: bool = True,
        cleanup: bool = False,
        callback: Callable[[SearchResult], None] | None = None,
        callback_interval: float = 1.0,
        ownership: bool = False,
    ) -> Decision:
        """Search for ``color`` on the move's budget (the settings, limited by the clock), decide
        (``decide``) and, with ``commit``, play the move (not a resignation). ``callback`` gets
        the search's statistics about every ``callback_interval`` seconds (analysis output);
        with ``ownership`` the search also counts the owners of the points (``search_ownership``).

        ``cleanup`` (``kgs-genmove_cleanup``): never pass while the opponent has stones the
        playouts call dead, so they get captured before the game ends."""
        c = parse_color(color)
        board = self.board.copy()
        board.to_move = c
        budget = self.budget(c, board)
        extra = self.extra_komi(c)
        result = self.search.run(
            board,
            self.komi,
            budget,
            callback=callback,
            callback_interval=callback_interval,
            ownership=ownership,
            extra_komi=extra,
        )
        self._dynkomi[c] = (extra, result.winrate)
        decision = self.decide(board, result, budget, cleanup)
        self.last_result = result
        if commit and decision.move != RESIGN:
            self.play(c, decision.move)
        return decision

    @property
    def handicap_stones(self) -> int:
        """The game's handicap stones: those of ``fixed_handicap``/``set_free_handicap``, or set-up
        stones that are all Black (an SGF handicap game's AB), else 0."""
        if self.handicap:
            return len(self.handicap)
        stones = self.setup_stones
        return len(stones) if len(stones) >= 2 and all(c == BLACK for c, _ in stones) else 0

    def extra_komi(self, color: int) -> float:
        """The dynamic komi the search of ``color``'s next move plays against (``goengine.dynkomi``:
        the settings' mode, the handicap, the moves played, and the engine's last move)."""
        config = self.search.config
        last_extra, last_winrate = self._dynkomi.get(color, (None, None))
        state = dynkomi.GameState(
            self.size, self.handicap_stones, len(self.board.moves), color, last_extra, last_winrate
        )
        return dynkomi.extra_komi(config.dynkomi, config.dynkomi_params, state)

    def decide(self, board: Board, result: SearchResult, budget: Budget, cleanup: bool = False) -> Decision:
        """The move to play in ``board`` (its side to move) after ``result``, a search on
        ``budget``: the rules in the module docstring, in order; clean-up overrides any pass."""
        me = board.to_move
        sign = 1 if me == BLACK else -1
        best = result.best
        config = self.search.config
        resign_visits = config.resign_min_visits
        if budget.playouts is not None:  # with a small budget, resigning waits for half of it
            resign_visits = min(resign_visits, max(1, budget.playouts // 2))
        if board.moves and board.moves[-1][1] == PASS and sign * board.score(self.komi) > 0:
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

    def analyze(
        self,
        color: int | str | None = None,
        budget: Budget | None = None,
        callback: Callable[[SearchResult], None] | None = None,
        callback_interval: float = 1.0,
        ownership: bool = False,
    ) -> SearchResult:
        """Search the current position for ``color`` (default: the side to move) without playing:
        analysis. ``budget`` defaults to the settings' budget; the game clock does not apply,
        since an analysis is not a move of the game and charges no clock. The tree is kept, so
        analysis and the next ``genmove`` build on each other. With ``ownership`` the search also
        counts the owners of the points (``search_ownership``)."""
        c = self.board.to_move if color is None else parse_color(color)
        board = self.board.copy()
        board.to_move = c
        budget = Budget.of(self.search.config) if budget is None else budget
        return self.search.run(
            board, self.komi, budget, callback=callback, callback_interval=callback_interval, ownership=ownership
        )

    def search_ownership(self) -> tuple[np.ndarray, np.ndarray]:
        """For every padded point, the mean owner at the end of the last searches' iterations from
        this position that counted owners (+1 Black, -1 White: ``Search.root_ownership``) and its
        standard deviation; when none did, the same from OWNERSHIP_PLAYOUTS playouts of their own
        (``ownership``)."""
        found = self.search.root_ownership()
        if found is not None:
            return found
        counts = self.search.owner_counts(self.board, OWNERSHIP_PLAYOUTS, self.search.config.seed, spread=True)
        mean = counts[0] / OWNERSHIP_PLAYOUTS
        return mean, np.sqrt(np.maximum(counts[1] / OWNERSHIP_PLAYOUTS - mean * mean, 0.0))

    # ---- the learned move model

    def move_probabilities(self, color: int | str | None = None) -> list[tuple[int, float]]:
        """Every legal move of ``color`` (default: the side to move) with the probability the
        shipped move model (``goengine.movemodel``) gives it, most likely first; no search."""
        c = self.board.to_move if color is None else parse_color(color)
        return movemodel.shipped().rate(self.board, c)

    def move_features(self, point: int, color: int | str | None = None) -> dict[str, str]:
        """The move model's feature values of one move, in words (``MoveModel.explain``);
        ValueError for a move that is not legal."""
        c = self.board.to_move if color is None else parse_color(color)
        return movemodel.shipped().explain(self.board, point, c)

    # ---- time

    def set_time(self, settings: TimeSettings) -> None:
        """The game's time system; both clocks start again from it."""
        self.time_settings = settings
        self._start_clocks()

    def _start_clocks(self) -> None:
        self.clocks = {color: Clock.full(self.time_settings) for color in (BLACK, WHITE)}

    def time_left(self, color: int | str, seconds: float, stones: int) -> None:
        """The controller's report of ``color``'s clock (GTP ``time_left``): it replaces the engine's
        own figures."""
        self.clocks[parse_color(color)].report(self.time_settings, float(seconds), int(stones))

    def charge_clock(self, color: int | str, seconds: float) -> None:
        """``color``'s move took ``seconds`` of the controller's time (from its command's arrival to
        its answer's flush): move the clock forward, and keep the worst overhead beyond the
        search's own time, which every later move keeps back (``time_control.seconds_for_move``)."""
        c = parse_color(color)
        self.clocks[c].charge(self.time_settings, seconds)
        if self.last_result is not None:
            self.overhead = max(self.overhead, seconds - self.last_result.seconds)

    def budget(self, color: int, board: Board) -> Budget:
        """What ``color``'s move in ``board`` may spend: the settings' playouts and seconds, with
        the seconds limited by what the clock allows (``seconds_for_move``): ``Budget.of``."""
        return Budget.of(self.search.config, self.seconds_for_move(color, board))

    def seconds_for_move(self, color: int, board: Board) -> float | None:
        """The thinking time the clock allows ``color`` for a move in ``board``, or None without
        a clock (``time_control.seconds_for_move``)."""
        empty = sum(1 for p in board.points() if board.color_at(p) == EMPTY)
        return time_control.seconds_for_move(self.time_settings, self.clocks[color], empty, board.size, self.overhead)

    # ---- scoring

    def ownership(self, playouts: int = OWNERSHIP_PLAYOUTS, seed: int | None = None) -> np.ndarray:
        """For every padded point, the share of playouts that ended with Black owning it minus the
        share for White, in [-1, 1] (area ownership)."""
        counts = self.search.owner_counts(self.board, playouts, self.search.config.seed if seed is None else seed)
        return counts / float(playouts)

    def chain_status(self, owner: np.ndarray | None = None) -> dict[int, str]:
        """``alive``, ``dead`` or ``seki`` for every stone, judged chain by chain.

        A chain's share is the mean, over its stones, of P(its owner's area) - P(the opponent's)
        at the end of the playouts (``ownership``). Seki first: a chain whose share is within
        DEAD_SHARE of 0 and that shares a liberty with an opponent chain not clearly dead (share
        above -DEAD_SHARE) -- uniform playouts always fill a shared liberty, so either side dies
        about half the time and both shares hover near 0. Any other chain with a negative share
        (its point ends in the opponent's area more often than in its own) is dead."""
        owner = self.ownership() if owner is None else owner
        board = self.board
        w = self.size + 2
        chains: list[tuple[int, list[int], float]] = []
        chain_of: dict[int, int] = {}
        for p in board.points():
            color = board.color_at(p)
            if color == EMPTY or p in chain_of:
                continue
            stones = board.chain(p)
            share = sum(owner[q] for q in stones) / len(stones) * (1 if color == BLACK else -1)
            for q in stones:
                chain_of[q] = len(chains)
            chains.append((color, stones, share))
        status = ["dead" if share < 0 else "alive" for _, _, share in chains]
        for i, (color, stones, share) in enumerate(chains):
            if abs(share) > DEAD_SHARE:
                continue
            for lib in board.liberties(stones[0]):
                rivals = {chain_of[q] for q in (lib - w, lib - 1, lib + 1, lib + w) if q in chain_of}
                if any(chains[j][0] != color and chains[j][2] >= -DEAD_SHARE for j in rivals):
                    status[i] = "seki"
                    break
        return {q: status[chain_of[q]] for q in chain_of}

    def dead_stones(self, color: int | None = None, owner: np.ndarray | None = None) -> list[int]:
        """Stones (of ``color``, or both) in chains the playouts judge dead (``chain_status``)."""
        return sorted(
            p
            for p, status in self.chain_status(owner).items()
            if status == "dead" and (color is None or self.board.color_at(p) == color)
        )

    def final_status(self, status: str) -> list[int]:
        """Stones that are ``alive``, ``dead`` or in ``seki`` (GTP ``final_status_list``)."""
        if status not in ("alive", "dead", "seki"):
            raise EngineError(f"unknown status {status!r}: alive, dead or seki")
        return sorted(p for p, s in self.chain_status().items() if s == status)

    def final_score(self) -> float:
        """Black's area score minus komi after removing the stones the playouts call dead."""
        board = self.board
        dead = set(self.dead_stones())
        if dead:
            alive = [(board.color_at(p), p) for p in board.points() if board.color_at(p) != EMPTY and p not in dead]
            board = Board.from_stones(self.size, alive)
        return board.area_score() - self.komi


def warm_up(log: Callable[[str], None]) -> None:
    """Load every kernel a game uses (compiling them the first time, under a minute; they are then
    cached on disk, ``goengine.kernels.cache_dir``), so the first ``genmove`` is not spent
    compiling. ``log`` hears when compiling starts and how long it all took."""
    from goengine.kernels import cache_dir

    where = os.environ.get("NUMBA_CACHE_DIR") or cache_dir()
    cold = not any(Path(where).rglob("*search*.nbi"))  # numba nests its index files one folder down
    if cold:
        log(f"goengine: compiling the kernels once (under a minute); they are cached in {where}")
    start = time.perf_counter()
    engine = Engine(EngineConfig(size=5, search=SearchConfig(playouts=64)))
    engine.play("b", "C3")
    engine.genmove("w")
    engine.ownership(8)
    Board(5).legal_moves()
    engine.close()
    log(f"goengine: kernels ready in {time.perf_counter() - start:.1f} s")


__all__ = [
    "BadHandicap",
    "BadStones",
    "BoardNotEmpty",
    "Budget",
    "Decision",
    "Engine",
    "EngineError",
    "MoveStats",
    "NothingToUndo",
    "PASS",
    "RESIGN",
    "SearchResult",
    "TimeSettings",
    "warm_up",
]
