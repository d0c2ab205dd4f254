"""Board: the game-level board, a thin wrapper that owns the kernel arrays.

It adds what the kernels leave to the game: argument checking with a reason for every illegal
move, positional superko over the game's history of Zobrist hashes, capture counts, starting
positions (``from_stones``; ``from_ascii`` reads a diagram, for tests), a diagram out for
``showboard``, and rewinding for undo (``rewound``). Everything that touches stones runs in
``goengine.kernels.board``; start reading at ``Board.play``.

Positional superko: a move is illegal when the position it makes (the stones only, whoever is to
move) occurred earlier in the game. Passes never repeat a position in this sense; they are always
legal. A move already in the game's history is history, not a choice: ``play(..., superko=False)``
plays one that breaks superko alone (a recorded game's, played under a simple-ko rule), and
``rewound`` replays the history so.
"""

from __future__ import annotations

import numpy as np

from goengine import coords
from goengine.kernels import board as kb
from goengine.kernels import policy as kpolicy
from goengine.kernels.rng import new_state, rand_below

EMPTY, BLACK, WHITE, BORDER = kb.EMPTY, kb.BLACK, kb.WHITE, kb.BORDER
PASS = kb.PASS

#: Zobrist keys shared by every board (a fixed seed: hashes are comparable across runs).
ZOBRIST = np.random.default_rng(0x60E9).integers(
    np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(3, kb.MAX_POINTS), dtype=np.int64
)
ZOBRIST[EMPTY] = 0

_COLOR_NAMES = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
_STONE_CHARS = {".": EMPTY, "+": EMPTY, "X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}
_CHAR_OF = {EMPTY: ".", BLACK: "X", WHITE: "O"}


class IllegalMove(ValueError):
    """A move the rules forbid. ``reason`` is one of REASONS; ``index``, when a record's moves were
    being replayed (``Game.load_position``), the move's index among them (else None)."""

    REASONS = ("occupied", "suicide", "ko", "superko", "off board")

    def __init__(self, reason: str, color: int, point: int, size: int):
        self.reason = reason
        self.color = color
        self.point = point
        self.index: int | None = None
        where = coords.to_gtp(size, point) if coords.on_board(size, point) or point == PASS else str(point)
        super().__init__(f"illegal move {color_name(color)} {where}: {reason}")


def parse_color(color: int | str) -> int:
    """BLACK or WHITE from ``1``/``2`` or ``b``/``black``/``w``/``white`` (any case)."""
    if isinstance(color, str):
        value = _COLOR_NAMES.get(color.strip().lower())
        if value is None:
            raise ValueError(f"invalid color {color!r}")
        return value
    if color in (BLACK, WHITE):
        return int(color)
    raise ValueError(f"invalid color {color!r}")


def color_name(color: int) -> str:
    return {BLACK: "black", WHITE: "white"}.get(color, str(color))


def _seen_of(history: list[int]) -> np.ndarray:
    """The sorted array of the distinct hashes of ``history`` (``Board.seen_hashes``)."""
    return np.unique(np.array(history, dtype=np.int64))


class Board:
    """A position with its game history: who is to move, ko, passes, and every earlier position.

    Attributes: ``size``; ``pts`` and ``meta`` (the kernel state, see ``kernels.board``);
    ``history`` (the hash of every position of the game, the current one last);
    ``moves`` (``(color, point)`` in order, passes included); ``captures`` (stones captured
    by each colour).
    """

    def __init__(self, size: int = 9):
        self.size = coords.check_size(size)
        self.pts, self.meta = kb.new_board(np.int64(size))
        self.history: list[int] = [int(self.meta[kb.HASH])]
        self._seen = _seen_of(self.history)
        self.moves: list[tuple[int, int]] = []
        self.captures = {BLACK: 0, WHITE: 0}

    # ---- reading the position

    @property
    def to_move(self) -> int:
        return int(self.meta[kb.TO_MOVE])

    @to_move.setter
    def to_move(self, color: int | str) -> None:
        self.meta[kb.TO_MOVE] = parse_color(color)

    @property
    def passes(self) -> int:
        """Consecutive passes just played."""
        return int(self.meta[kb.PASSES])

    @property
    def is_over(self) -> bool:
        """Two consecutive passes end the game."""
        return self.passes >= 2

    @property
    def ko_point(self) -> int | None:
        """The point the side in ``ko_color`` may not retake now, if any."""
        ko = int(self.meta[kb.KO])
        return None if ko == kb.NO_POINT else ko

    @property
    def ko_color(self) -> int | None:
        """The colour banned from ``ko_point``, if any."""
        return None if self.ko_point is None else int(self.meta[kb.KO_COLOR])

    @property
    def last_moves(self) -> tuple[int, int]:
        """The points of the last move and of the one before it (PASS for a pass, or where the
        game has fewer moves); the playout policies read them from the kernel state."""
        return int(self.meta[kb.LAST_MOVE]), int(self.meta[kb.LAST_MOVE2])

    @property
    def hash(self) -> int:
        return int(self.meta[kb.HASH])

    def color_at(self, point: int | str) -> int:
        return int(self.pts[kb.COLOR, self._point(point)])

    def points(self) -> list[int]:
        return coords.all_points(self.size)

    def stones(self, color: int) -> list[int]:
        return [p for p in self.points() if self.pts[kb.COLOR, p] == color]

    def chain(self, point: int | str) -> list[int]:
        """The stones of the chain on ``point``, sorted."""
        p = self._point(point)
        if self.pts[kb.COLOR, p] not in (BLACK, WHITE):
            raise ValueError(f"no stone at {coords.to_gtp(self.size, p)}")
        root = self.pts[kb.CHAIN, p]
        return sorted(
            q for q in self.points() if self.pts[kb.COLOR, q] in (BLACK, WHITE) and self.pts[kb.CHAIN, q] == root
        )

    def liberties(self, point: int | str) -> list[int]:
        """The distinct liberties of the chain on ``point``, sorted."""
        w = self.size + 2
        libs = {q for s in self.chain(point) for q in (s - w, s - 1, s + 1, s + w) if self.pts[kb.COLOR, q] == EMPTY}
        return sorted(libs)

    # ---- moves

    def illegal_reason(self, color: int | str, point: int | str, superko: bool = True) -> str | None:
        """Why ``color`` may not play ``point`` now (one of ``IllegalMove.REASONS``), or None;
        without ``superko``, a repeated position is no reason."""
        c = parse_color(color)
        p = self._vertex(point)
        if p == PASS:
            return None
        if not coords.on_board(self.size, p):
            return "off board"
        if self.pts[kb.COLOR, p] != EMPTY:
            return "occupied"
        if p == self.meta[kb.KO] and c == self.meta[kb.KO_COLOR]:
            return "ko"
        if not kb.is_legal(self.pts, self.meta, np.int64(p), np.int64(c)):
            return "suicide"
        if superko and self._has_been(int(kb.hash_after(self.pts, self.meta, ZOBRIST, np.int64(p), np.int64(c)))):
            return "superko"
        return None

    def is_legal(self, color: int | str, point: int | str) -> bool:
        return self.illegal_reason(color, point) is None

    def play(self, color: int | str, point: int | str, superko: bool = True) -> int:
        """Play ``point`` (padded index, ``PASS``, or a GTP vertex such as ``"D4"``) for ``color``.

        Raises IllegalMove with the reason, leaving the board unchanged. Returns the number of
        stones captured. The side to move becomes ``color``'s opponent, whoever was to move.
        Without ``superko``, a move that repeats an earlier position is played (a move of the
        game's history: see the module's docstring); every other rule holds.
        """
        c = parse_color(color)
        p = self._vertex(point)
        reason = self.illegal_reason(c, p, superko)
        if reason is not None:
            raise IllegalMove(reason, c, p, self.size)
        captured = int(kb.play(self.pts, self.meta, ZOBRIST, np.int64(p), np.int64(c)))
        self.captures[c] += captured
        self.moves.append((c, p))
        h = int(self.meta[kb.HASH])
        self.history.append(h)
        at = int(np.searchsorted(self._seen, h))
        if at == len(self._seen) or self._seen[at] != h:
            self._seen = np.insert(self._seen, at, h)  # a new array: copies that share the old keep it
        return captured

    def seen_hashes(self) -> np.ndarray:
        """Every position of the game so far, as its Zobrist hash: sorted, each once (what the
        search's positional superko looks moves up in). Kept as the game goes and shared by
        copies, so a long game's search does not sort its history again each move: never
        written to (a move replaces it; a kernel given it only reads it)."""
        return self._seen

    def _has_been(self, h: int) -> bool:
        at = int(np.searchsorted(self._seen, h))
        return at < len(self._seen) and int(self._seen[at]) == h

    def legal_moves(self, color: int | str | None = None) -> list[int]:
        """Every point ``color`` (default: the side to move) may play, superko included; pass is
        always legal and not listed."""
        c = self.to_move if color is None else parse_color(color)
        return [p for p in self.points() if self.illegal_reason(c, p) is None]

    def random_move(self, rng: np.ndarray) -> int:
        """A move of the ``uniform`` playout policy for the side to move (uniform over legal points
        that are not its own eyes, superko respected), or PASS. ``rng`` is a ``kernels.rng`` state."""
        c = self.to_move
        # on a copy: the kernel reorders the empty-point list, and this is a query
        p = int(kpolicy.random_move(self.pts.copy(), self.meta, np.int64(c), rng))
        if p == PASS or self.is_legal(c, p):
            return p
        # The kernel knows only simple ko; on the rare superko clash, draw again in Python.
        choices = [q for q in self.legal_moves(c) if not kb.is_eye(self.pts, self.meta, np.int64(q), np.int64(c))]
        return PASS if not choices else choices[int(rand_below(rng, len(choices)))]

    # ---- scoring

    def area_score(self) -> int:
        """Tromp-Taylor area, Black minus White, without komi."""
        return int(kb.area_score(self.pts, self.meta))

    def score(self, komi: float = 7.5) -> float:
        """Area score minus komi: positive when Black wins."""
        return self.area_score() - komi

    # ---- copies and text

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.size = self.size
        other.pts = self.pts.copy()
        other.meta = self.meta.copy()
        other.history = list(self.history)
        other._seen = self._seen  # shared: a move replaces it, never changes it
        other.moves = list(self.moves)
        other.captures = dict(self.captures)
        return other

    @classmethod
    def from_stones(cls, size: int, stones: list[tuple[int, int]], to_move: int | str = BLACK) -> Board:
        """A board holding ``stones`` (``(color, point)``, padded points) as its starting position:
        set-up or handicap stones, or a diagram's (``from_ascii``); the history starts here.

        ValueError for a point off the board or given twice, a colour that is not BLACK or
        WHITE, or a chain without liberties."""
        board = cls(size)
        placed: set[int] = set()
        for color, p in stones:
            if not coords.on_board(size, p):
                raise ValueError(f"point {p} is not on a {size}x{size} board")
            if p in placed:
                raise ValueError(f"point {coords.to_gtp(size, p)} is given twice")
            if color not in (BLACK, WHITE):
                raise ValueError(f"invalid stone color {color!r}")
            placed.add(p)
            kb.place(board.pts, board.meta, ZOBRIST, np.int64(p), np.int64(color))
        # Valid stones make no capture whatever the order of placing (a partial chain always has a
        # liberty where its missing stones go), so a stone gone means a chain had none; a chain
        # completed last captures nothing, so its liberties are checked as well.
        for color, p in stones:
            if board.pts[kb.COLOR, p] != color or board.pts[kb.LIBS, board.pts[kb.CHAIN, p]] == 0:
                raise ValueError("the stones have a chain without liberties")
        board.meta[kb.KO] = kb.NO_POINT
        board.meta[kb.LAST_KO] = kb.NO_POINT
        board.meta[kb.MOVES] = 0
        board.meta[kb.PASSES] = 0
        board.meta[kb.LAST_MOVE] = PASS  # a starting position has no moves
        board.meta[kb.LAST_MOVE2] = PASS
        board.meta[kb.TO_MOVE] = parse_color(to_move)
        board.history = [board.hash]
        board._seen = _seen_of(board.history)
        return board

    @classmethod
    def from_ascii(cls, text: str, to_move: int | str = BLACK) -> Board:
        """A board from a diagram (``from_stones`` of its stones): one line a row, top row first;
        ``X`` black, ``O`` white, ``.`` or ``+`` empty; spaces ignored; blank lines skipped.

        ValueError for a ragged or unsupported diagram, or one with a chain without liberties.
        """
        rows = ["".join(line.split()) for line in text.strip().splitlines() if line.strip()]
        size = len(rows)
        coords.check_size(size)
        stones = []
        for r, row in enumerate(rows):
            if len(row) != size or any(ch not in _STONE_CHARS for ch in row):
                raise ValueError(f"diagram row {r + 1} {row!r} is not {size} of {''.join(_STONE_CHARS)}")
            stones += [(_STONE_CHARS[ch], coords.point(size, r, c)) for c, ch in enumerate(row) if _STONE_CHARS[ch]]
        return cls.from_stones(size, stones, to_move)

    # ---- taking moves back (goengine.game's undo)

    def position_arrays(self) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
        """Copies of what the position is beyond its history: the kernel arrays and the capture
        counts (a checkpoint for ``rewound``)."""
        return self.pts.copy(), self.meta.copy(), dict(self.captures)

    def rewound(self, moves: int, checkpoint: tuple[np.ndarray, np.ndarray, dict[int, int]], at: int) -> Board:
        """This game as it stood after its first ``moves`` moves: from ``checkpoint``
        (``position_arrays`` taken after ``at`` moves, ``at <= moves``), replaying the moves after
        it. The history is this board's, cut; its moves are replayed as history, superko aside
        (a recorded game's move that broke it was played so)."""
        if not 0 <= at <= moves <= len(self.moves):
            raise ValueError(f"cannot rewind {len(self.moves)} moves to {moves} from a checkpoint at {at}")
        other = Board.__new__(Board)
        other.size = self.size
        other.pts, other.meta = checkpoint[0].copy(), checkpoint[1].copy()
        other.captures = dict(checkpoint[2])
        other.moves = self.moves[:at]
        other.history = self.history[: at + 1]
        other._seen = _seen_of(other.history)
        for color, point in self.moves[at:moves]:
            other.play(color, point, superko=False)
        return other

    def __str__(self) -> str:
        """The diagram ``from_ascii`` reads: rows top first, ``X``/``O``/``.`` separated by spaces."""
        return "\n".join(
            " ".join(_CHAR_OF[int(self.pts[kb.COLOR, coords.point(self.size, r, c)])] for c in range(self.size))
            for r in range(self.size)
        )

    def render(self) -> str:
        """The diagram with GTP coordinates around it (for ``showboard`` and logs)."""
        letters = "   " + " ".join(coords.GTP_COLUMNS[: self.size])
        lines = [letters]
        for r, row in enumerate(str(self).splitlines()):
            n = self.size - r
            lines.append(f"{n:2d} {row} {n}")
        lines.append(letters)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board(size={self.size}, to_move={color_name(self.to_move)}, moves={len(self.moves)})"

    # ---- helpers

    def _vertex(self, point: int | str) -> int:
        if isinstance(point, str):
            return coords.from_gtp(self.size, point)
        return int(point)

    def _point(self, point: int | str) -> int:
        p = self._vertex(point)
        if not coords.on_board(self.size, p):
            raise ValueError(f"{point!r} is not a point of the board")
        return p


def random_game(size: int, seed: int) -> Board:
    """A game of ``Board.random_move`` moves (the ``uniform`` playout policy, superko respected)
    from the empty ``size`` board, drawn with ``seed``, until two passes or 3 x size^2 moves (the
    playouts' cap): ``goengine --random-game`` prints one."""
    board = Board(size)
    rng = new_state(seed)
    while not board.is_over and len(board.moves) < 3 * size * size:
        board.play(board.to_move, board.random_move(rng))
    return board
