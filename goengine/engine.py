"""Engine: one game's state (board, komi, history for undo, handicap, clocks) and the decisions
on it (genmove, scoring, dead stones). No GTP: the front-end (``goengine.gtp``) reads its
arguments, words its errors and formats its answers; the engine takes points and colours
(``"D4"`` and ``"b"`` too, as ``Board`` does, for Python users), ``TimeSettings`` and
``SearchConfig`` objects, and raises ``EngineError`` subclasses that say what went wrong.

Reading guide: ``genmove`` (time budget -> ``Search.run`` -> play the move), then ``final_score``
and ``final_status``, which judge dead stones by playouts (``ownership``). ``configure`` changes
the search settings; ``config`` describes the engine as it is now.

Dead stones: after ``OWNERSHIP_PLAYOUTS`` playouts from the position, a chain that ended mostly
in the opponent's area is dead; seki is recognised from shared liberties (``chain_status``).
When the opponent has just passed, the engine passes back only if the Tromp-Taylor count of the
board as it stands already wins (``Search._decide``), the stricter test: ending the game never
rests on stones it merely believes dead. Otherwise a pass is played when it is the search's most
visited move (every other move looks no better).
"""

from __future__ import annotations

import numpy as np

from goengine import clock as timing
from goengine import coords
from goengine.board import BLACK, EMPTY, PASS, WHITE, Board, parse_color
from goengine.clock import Clock, TimeSettings
from goengine.config import EngineConfig, SearchConfig
from goengine.search import RESIGN, Search, SearchResult

OWNERSHIP_PLAYOUTS = 1000
DEAD_SHARE = 0.5  # see Engine.chain_status


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


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The GTP fixed handicap points (GTP 2, section 4.1.1) for ``n`` stones on ``size``:
    2 to 9 stones on odd boards from 9x9, 2 to 4 on 7x7 and on even boards, none below 7x7."""
    if size < 7:
        raise BadHandicap(f"no fixed handicap on a {size}x{size} board (7x7 at least)")
    limit = 9 if size % 2 == 1 and size >= 9 else 4
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


def board_of(size: int, stones: list[tuple[int, int]], to_move: int = BLACK) -> Board:
    """A board holding ``stones`` (``(color, point)``) as its starting position; ValueError when a
    chain would have no liberty (``Board.from_ascii``)."""
    diagram = [["."] * size for _ in range(size)]
    for color, p in stones:
        r, c = coords.row_col(size, p)
        diagram[r][c] = "X" if color == BLACK else "O"
    return Board.from_ascii("\n".join("".join(row) for row in diagram), to_move=to_move)


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
        self.last_result: SearchResult | None = None

    @property
    def config(self) -> EngineConfig:
        """The engine's settings as they are now: the board size and komi of the current game,
        and the search's configuration (the one source of truth for it)."""
        return EngineConfig(size=self.size, komi=self.komi, search=self.search.config)

    def configure(self, config: SearchConfig) -> None:
        """Search with ``config`` from now on; the search keeps its trees when only the budget
        or the resignation rule changed (``Search.configure``)."""
        self.search.configure(config)

    def close(self) -> None:
        """Stop the search's worker threads."""
        self.search.close()

    # ---- game set-up

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def board_is_empty(self) -> bool:
        """No stone on the board and no move played (set-up and handicap need it)."""
        return not self.board.moves and all(self.board.color_at(p) == EMPTY for p in self.board.points())

    def set_size(self, size: int) -> None:
        """A new, empty game on a ``size`` board; both clocks start again from the time settings."""
        coords.check_size(size)
        self.board = Board(size)
        self._undo.clear()
        self.handicap = []
        self.setup_stones = []
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
        self.board = board_of(self.size, stones, to_move)
        self._undo.clear()
        self.setup_stones = list(stones)

    def load_position(self, position) -> None:
        """Start the game of ``position`` (an ``sgf.SgfPosition``: size, komi, set-up stones, then
        every move replayed with full rules, so an illegal one raises IllegalMove)."""
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
        if self.size >= 7:
            limit = 9 if self.size % 2 and self.size >= 9 else 4
            if n <= limit:
                return self.fixed_handicap(n)
            points = fixed_handicap_points(self.size, limit)
        else:
            points = []  # no fixed layout below 7x7: every stone is the search's choice
        if not self.board_is_empty:
            raise BoardNotEmpty("the board already has stones or moves")
        board = Board(self.size)
        for p in points:
            board.play(BLACK, p)
            board.play(WHITE, PASS)
        while len(points) < n:
            board.to_move = BLACK
            result = self.search.run(board, self.komi, playouts=max(200, self.size * self.size * 4))
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
        callback=None,
        callback_interval: float = 1.0,
    ) -> SearchResult:
        """Search for ``color`` and, with ``commit``, play the move found (not a resignation).

        ``cleanup`` (``kgs-genmove_cleanup``): never pass while the opponent has stones the
        playouts call dead, so they get captured before the game ends."""
        c = parse_color(color)
        board = self.board.copy()
        board.to_move = c
        playouts, seconds = self._budget(c, board)
        result = self.search.run(
            board, self.komi, playouts=playouts, seconds=seconds, callback=callback, callback_interval=callback_interval
        )
        if cleanup and result.move == PASS and self.dead_stones(3 - c):
            better = next((s.move for s in result.stats if s.move != PASS and s.visits > 0), None)
            if better is not None:
                result.move, result.reason = better, "cleanup: opponent stones still to capture"
        if result.move not in (PASS, RESIGN) and not board.is_legal(c, result.move):
            result.move, result.reason = PASS, "search returned an illegal move"  # never expected
        self.last_result = result
        if commit and result.move != RESIGN:
            self.play(c, result.move)
        return result

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
        search's own time, which every later move keeps back (``clock.seconds_for_move``)."""
        c = parse_color(color)
        self.clocks[c].charge(self.time_settings, seconds)
        if self.last_result is not None:
            self.overhead = max(self.overhead, seconds - self.last_result.seconds)

    def _budget(self, color: int, board: Board) -> tuple[int | None, float | None]:
        """Playouts and seconds for this move: the searcher's budget, limited by the clock."""
        cfg = self.search.config
        playouts, seconds = cfg.playouts, cfg.seconds
        allowed = self.seconds_for_move(color, board)
        if allowed is None:
            return playouts, seconds
        seconds = allowed if seconds is None else min(seconds, allowed)
        return playouts, seconds

    def seconds_for_move(self, color: int, board: Board) -> float | None:
        """The thinking time the clock allows ``color`` for a move in ``board``, or None without
        a clock (``clock.seconds_for_move``)."""
        empty = sum(1 for p in board.points() if board.color_at(p) == EMPTY)
        return timing.seconds_for_move(self.time_settings, self.clocks[color], empty, board.size, self.overhead)

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
            board = board_of(self.size, alive)
        return board.area_score() - self.komi


__all__ = [
    "BadHandicap",
    "BadStones",
    "BoardNotEmpty",
    "Engine",
    "EngineError",
    "NothingToUndo",
    "PASS",
    "RESIGN",
    "TimeSettings",
]
