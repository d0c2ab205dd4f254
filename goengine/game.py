"""Game: one game's record with no search in it: the board, the moves played (and undo), komi,
handicap and set-up stones, and loading a whole position.

Reading guide: ``play`` and ``undo`` are the heart. The history costs a bounded number of bytes a
move: the board keeps each move and each position's hash (for superko), and undo rewinds
(``Board.rewound``) from the nearest of the checkpoints taken every CHECKPOINT_EVERY moves,
replaying the moves after it, as GNU Go and KataGo replay their move lists, instead of keeping a
copy of the board for every move (whose history grows with the game: quadratic in its length).

The handicap: GTP's fixed layout (``fixed_handicap_points``) or any stones (``place_handicap``);
the engine's own choice of free handicap stones is a search, so it is ``Engine.free_handicap``.
A whole position to start from is a ``Setup``, whoever hands it over (``load_position``).
"""

from __future__ import annotations

from dataclasses import dataclass

from goengine import coords
from goengine.board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove, parse_color
from goengine.config import check_board_size
from goengine.ruleset import GOENGINE, Ruleset
from goengine.sgf import SgfGame

CHECKPOINT_EVERY = 256  # moves between undo checkpoints (a 19x19 one is 51 KB): an undo replays fewer


@dataclass(frozen=True)
class Setup:
    """A game to start from, as every front end hands it to the engine (``Engine.load_position``):
    GTP's ``loadsgf`` (an SGF file: ``from_sgf``), a turn of a JSON analysis query (its rules
    too), a position of a reviewed game. The board's ``size`` and ``komi``, the set-up ``stones``
    (``(colour, point)``), who moves first after them (``to_move``), the ``moves`` replayed, and
    the ``rules`` of the game (None: the engine's stay as they are)."""

    size: int
    komi: float
    stones: tuple[tuple[int, int], ...] = ()
    moves: tuple[tuple[int, int], ...] = ()
    to_move: int = BLACK
    rules: Ruleset | None = None

    @classmethod
    def from_sgf(cls, game: SgfGame, rules: Ruleset | None = None) -> Setup:
        """The game an SGF file sets up (``sgf.load``): its stones, moves and first player."""
        return cls(game.size, game.komi, tuple(game.setup), tuple(game.moves), game.to_move, rules)


class GameError(ValueError):
    """A request the game cannot carry out in its current state (the message says why)."""


class BoardNotEmpty(GameError):
    """Set-up stones or a handicap asked for on a board that has stones or moves."""


class BadHandicap(GameError):
    """A number of handicap stones the board cannot take."""


class BadStones(GameError):
    """A list of set-up stones with a repeated point, a point off the board, or too few or too
    many stones."""


class NothingToUndo(GameError):
    """``undo`` with no move to take back (set-up stones are the start of the game)."""


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


class Game:
    """A game in progress: ``board`` (the position, its moves and hashes), ``komi``, the
    ``rules`` (goengine's, with the handicap bonus the game chose: ``goengine.ruleset``), the
    ``handicap`` points and the ``setup_stones`` it started from."""

    def __init__(self, size: int = 9, komi: float = 7.5, rules: Ruleset = GOENGINE):
        self.komi = float(komi)
        self.rules = rules
        self.set_size(size)

    @property
    def scoring_komi(self) -> float:
        """What Black's area is judged against: the komi, and the points the rules give White for
        the handicap stones (``Ruleset.komi_bonus``). The search plays against it and the final
        score counts it."""
        return self.komi + self.rules.komi_bonus(self.handicap_stones)

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def moves(self) -> list[tuple[int, int]]:
        """``(color, point)`` of every move played since the starting position, passes included."""
        return self.board.moves

    @property
    def to_move(self) -> int:
        return self.board.to_move

    @property
    def is_empty(self) -> bool:
        """No stone on the board and no move played (set-up and handicap need it)."""
        return not self.board.moves and all(self.board.color_at(p) == EMPTY for p in self.board.points())

    @property
    def handicap_stones(self) -> int:
        """The game's handicap stones: those of ``fixed_handicap``/``place_handicap``, or set-up
        stones that are all Black (an SGF handicap game's AB), else 0."""
        if self.handicap:
            return len(self.handicap)
        stones = self.setup_stones
        return len(stones) if len(stones) >= 2 and all(c == BLACK for c, _ in stones) else 0

    # ---- set-up

    def set_size(self, size: int) -> None:
        """A new, empty game on a ``size`` board (ValueError outside ``config.BOARD_SIZES``); the
        komi stays."""
        check_board_size(size)
        self.board = Board(size)
        self.handicap: list[int] = []
        self.setup_stones: list[tuple[int, int]] = []
        self._start_checkpoints()

    def clear(self) -> None:
        self.set_size(self.size)

    def set_komi(self, komi: float) -> None:
        self.komi = float(komi)

    def setup(self, stones: list[tuple[int, int]], to_move: int = BLACK) -> None:
        """Start the game from set-up stones ``(color, point)`` on an empty board (SGF AB/AW):
        the position is the first of the game's history, and cannot be undone."""
        if not self.is_empty:
            raise BoardNotEmpty("the board already has stones or moves")
        points = [p for _, p in stones]
        if len(set(points)) != len(points):
            raise BadStones("a point is given twice")
        if any(p == PASS or not coords.on_board(self.size, p) for p in points):
            raise BadStones("a stone is not on the board")
        try:
            self.board = Board.from_stones(self.size, stones, to_move)
        except ValueError as error:
            raise BadStones(str(error)) from None
        self.setup_stones = list(stones)
        self._start_checkpoints()

    def place_handicap(self, points: list[int]) -> None:
        """Black stones on an empty board (GTP ``set_free_handicap``); White moves next."""
        if len(points) < 2 or len(points) >= self.size * self.size:
            raise BadStones(f"a handicap has from 2 to {self.size * self.size - 1} stones, not {len(points)}")
        self.setup([(BLACK, p) for p in points], to_move=WHITE)
        self.handicap = list(points)

    def fixed_handicap(self, n: int) -> list[int]:
        """GTP's fixed handicap of ``n`` stones (``fixed_handicap_points``), placed; its points."""
        points = fixed_handicap_points(self.size, n)
        self.place_handicap(points)
        return points

    def load_position(self, position: Setup, superko: bool = True) -> list[int]:
        """Start the game of ``position``: its size, komi and rules (the game's kept when it has
        none), its set-up stones, then every move replayed with full rules, so an illegal one
        raises IllegalMove; a size outside ``config.BOARD_SIZES`` raises ValueError. All or nothing: the game is
        built aside and takes this one's place only once it has loaded, so a position that fails
        leaves this game as it was (board, moves, komi, handicap, rules, size).

        Without ``superko``, the moves are a record's, history rather than choices: one that
        repeats an earlier position is played all the same (a game played under a simple-ko rule
        may repeat one), and the indices in ``position.moves`` of such moves are returned; on a
        stone, a suicide or a simple-ko retake is still IllegalMove (the board cannot play a
        suicide; a retake is illegal under every rule, so a record with one is broken)."""
        game = Game(position.size, position.komi, position.rules or self.rules)
        if position.stones:
            game.setup(list(position.stones), position.to_move)
        repeats = []
        for i, (color, point) in enumerate(position.moves):
            try:
                game.play(color, point)
            except IllegalMove as error:
                if superko or error.reason != "superko":
                    error.index = i  # which move of the record: the caller names it
                    raise
                game.play(color, point, superko=False)
                repeats.append(i)
        vars(self).update(vars(game))  # every field of the game: board, komi, handicap, checkpoints
        return repeats

    # ---- moves

    def play(self, color: int | str, point: int | str, superko: bool = True) -> None:
        """Play a move of either colour (GTP allows any order); IllegalMove if the rules forbid it
        (positional superko only with ``superko``: ``load_position``)."""
        self.board.play(parse_color(color), point, superko)
        if len(self.board.moves) % CHECKPOINT_EVERY == 0:
            self._checkpoints.append((len(self.board.moves), self.board.position_arrays()))

    def undo(self) -> None:
        """Take the last move back: rewind from the last checkpoint before it, replaying the moves
        in between (fewer than CHECKPOINT_EVERY)."""
        n = len(self.board.moves)
        if n == 0:
            raise NothingToUndo("no move to undo")
        while self._checkpoints[-1][0] > n - 1:
            self._checkpoints.pop()
        at, arrays = self._checkpoints[-1]
        self.board = self.board.rewound(n - 1, arrays, at)

    def _start_checkpoints(self) -> None:
        """The starting position is the first checkpoint (after 0 moves)."""
        self._checkpoints = [(0, self.board.position_arrays())]


__all__ = [
    "BadHandicap",
    "BadStones",
    "BoardNotEmpty",
    "Game",
    "GameError",
    "NothingToUndo",
    "fixed_handicap_points",
    "max_fixed_handicap",
]
