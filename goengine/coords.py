"""The one place that knows coordinate systems.

- padded index ``p`` (what the kernels use): ``p = (row + 1) * (size + 2) + (col + 1)``,
  row 0 at the top, column 0 at the left; ``PASS = -1``.
- ``(row, col)``: the same, zero-based, row 0 at the top (the order ASCII diagrams are read).
- GTP vertex: a column letter A..T without I, then the row number counted from the bottom
  (``A1`` is the bottom-left corner, ``pass``); letters are case-insensitive.
- SGF move as sgfmill gives it: ``(row from the bottom, col)``, zero-based; ``None`` for a pass.
"""

from goengine.kernels.board import MAX_SIZE, MIN_SIZE, PASS

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
# The board sizes a game may have. The kernels handle 2x2 to 19x19 (``check_size``), which the
# tests use; a game, from the command line, GTP's ``boardsize``, a game file or a query, is 5x5 to
# 19x19, as the GTP engines players know accept (below 5x5 there is no game worth an engine).
BOARD_SIZES = range(5, MAX_SIZE + 1)


def sizes_words() -> str:
    """``from 5 to 19``: the board sizes a game may have, as every message says them."""
    return f"from {BOARD_SIZES[0]} to {BOARD_SIZES[-1]}"


def check_size(size: int) -> int:
    """``size`` if the board kernels support it, else ValueError."""
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
    return size


def point(size: int, row: int, col: int) -> int:
    """Padded index of ``(row, col)``; ValueError when off the board."""
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"({row}, {col}) is off a {size}x{size} board")
    return (row + 1) * (size + 2) + col + 1


def row_col(size: int, p: int) -> tuple[int, int]:
    """``(row, col)`` of a padded index; ValueError when ``p`` is not on the board."""
    w = size + 2
    row, col = divmod(p, w)
    if not (1 <= row <= size and 1 <= col <= size):
        raise ValueError(f"{p} is not a point of a {size}x{size} board")
    return row - 1, col - 1


def on_board(size: int, p: int) -> bool:
    w = size + 2
    row, col = divmod(p, w)
    return 0 <= p < w * w and 1 <= row <= size and 1 <= col <= size


def all_points(size: int) -> list[int]:
    """Every point of the board, top row first."""
    return [point(size, r, c) for r in range(size) for c in range(size)]


def to_gtp(size: int, p: int) -> str:
    """``D4``-style vertex, or ``pass``."""
    if p == PASS:
        return "pass"
    row, col = row_col(size, p)
    return f"{GTP_COLUMNS[col]}{size - row}"


def from_gtp(size: int, vertex: str) -> int:
    """Padded index of a GTP vertex (``pass`` gives PASS); ValueError for anything else."""
    text = vertex.strip().upper()
    if text == "PASS":
        return PASS
    digits = text[1:]  # ASCII only: str.isdigit and int() take other scripts' digits too
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"invalid vertex {vertex!r}")
    col = GTP_COLUMNS.index(text[0])
    row = size - int(text[1:])
    if not (0 <= col < size and 0 <= row < size):
        raise ValueError(f"vertex {vertex!r} is off a {size}x{size} board")
    return point(size, row, col)


def to_sgf(size: int, p: int) -> tuple[int, int] | None:
    """sgfmill's move coordinates ``(row from the bottom, col)``, or None for a pass."""
    if p == PASS:
        return None
    row, col = row_col(size, p)
    return size - 1 - row, col


def from_sgf(size: int, move: tuple[int, int] | None) -> int:
    """Padded index from sgfmill's ``(row from the bottom, col)``; None is a pass."""
    if move is None:
        return PASS
    row, col = move
    return point(size, size - 1 - row, col)
