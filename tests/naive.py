"""Slow, obviously correct Go rules on a plain grid: the reference the board kernels are tested against.

Reading guide: ``flood`` is the only algorithm; ``chain``, ``liberties``, ``play`` and ``area_score``
are written with it. ``illegal_reason`` gives the rules of a move, ``Game`` strings moves together.

A grid is a tuple of rows, each a tuple of colours (``EMPTY, BLACK, WHITE = 0, 1, 2``), row 0 at the
top; a point is ``(row, col)``. Grids are immutable and hashable, so a set of grids is a game's
history. Nothing is cached or counted incrementally: every question is answered by a fresh flood
fill. This module is written apart from ``goengine`` and must never import it.

Rules (Tromp-Taylor with a suicide ban):
- a stone captures every opponent chain it leaves without liberties; then, if its own chain has no
  liberty, the move is suicide, which is illegal (for one stone or many);
- simple ko: a move that captures exactly one stone, with a stone that is then alone in its chain
  with exactly one liberty, forbids the opponent to play on the captured point at once;
- positional superko: a move may not make a grid that occurred earlier in the game;
- the score is Black's area minus White's: stones, plus each empty region that reaches stones of
  one colour only. No komi.
"""

EMPTY, BLACK, WHITE = 0, 1, 2


def opponent(color):
    return 3 - color


def empty_grid(size):
    return tuple((EMPTY,) * size for _ in range(size))


def on_board(grid, r, c):
    return 0 <= r < len(grid) and 0 <= c < len(grid)


def neighbours(grid, r, c):
    """The on-board points next to ``(r, c)``."""
    n = len(grid)
    return [(i, j) for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= i < n and 0 <= j < n]


def flood(grid, r, c):
    """The set of points connected to ``(r, c)`` through points of its colour (a chain or an empty region)."""
    color = grid[r][c]
    seen = {(r, c)}
    todo = [(r, c)]
    while todo:
        p = todo.pop()
        for q in neighbours(grid, *p):
            if q not in seen and grid[q[0]][q[1]] == color:
                seen.add(q)
                todo.append(q)
    return seen


def border(grid, points):
    """The points next to ``points`` but not in it."""
    return {q for p in points for q in neighbours(grid, *p)} - set(points)


def chain(grid, r, c):
    """The stones of the chain on ``(r, c)``."""
    assert grid[r][c] != EMPTY, "no stone there"
    return flood(grid, r, c)


def liberties(grid, r, c):
    """The empty points next to the chain on ``(r, c)``."""
    return {q for q in border(grid, chain(grid, r, c)) if grid[q[0]][q[1]] == EMPTY}


def chains(grid):
    """Every chain on the board, as a list of sets of points."""
    found, seen = [], set()
    for r, row in enumerate(grid):
        for c, color in enumerate(row):
            if color != EMPTY and (r, c) not in seen:
                stones = chain(grid, r, c)
                seen |= stones
                found.append(stones)
    return found


def empty_points(grid):
    return {(r, c) for r, row in enumerate(grid) for c, color in enumerate(row) if color == EMPTY}


def with_colors(grid, changes):
    """A copy of ``grid`` with ``changes`` ({point: colour}) applied."""
    rows = [list(row) for row in grid]
    for (r, c), color in changes.items():
        rows[r][c] = color
    return tuple(tuple(row) for row in rows)


def from_diagram(text):
    """A grid from an ASCII diagram: one line a row, top first; ``X`` black, ``O`` white, ``.`` empty;
    spaces ignored."""
    colors = {".": EMPTY, "X": BLACK, "O": WHITE}
    rows = ["".join(line.split()) for line in text.strip().splitlines() if line.strip()]
    assert all(len(row) == len(rows) for row in rows), "diagram is not square"
    return tuple(tuple(colors[ch] for ch in row) for row in rows)


class Illegal(ValueError):
    """A move the rules forbid; ``reason`` is one of "off board", "occupied", "suicide", "ko", "superko"."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def play(grid, color, r, c):
    """``color`` plays ``(r, c)``: returns ``(new_grid, captured_points)``.

    Raises Illegal("off board" / "occupied" / "suicide"); ko and superko are the game's business
    (``illegal_reason``), since they depend on the history.
    """
    if not on_board(grid, r, c):
        raise Illegal("off board")
    if grid[r][c] != EMPTY:
        raise Illegal("occupied")
    grid = with_colors(grid, {(r, c): color})
    captured = set()
    for q in neighbours(grid, r, c):
        if grid[q[0]][q[1]] == opponent(color) and not liberties(grid, *q):
            captured |= chain(grid, *q)
    grid = with_colors(grid, dict.fromkeys(captured, EMPTY))
    if not liberties(grid, r, c):
        raise Illegal("suicide")
    return grid, captured


def ko_after(grid, r, c, captured):
    """The simple-ko point made by the move just played on ``(r, c)`` that captured ``captured``
    (the new ``grid``), or None. The ban applies to the opponent of the stone on ``(r, c)``."""
    if len(captured) == 1 and len(chain(grid, r, c)) == 1 and len(liberties(grid, r, c)) == 1:
        return next(iter(captured))
    return None


def illegal_reason(grid, color, r, c, ko_point=None, seen=()):
    """Why ``color`` may not play ``(r, c)``, or None when it may.

    ``ko_point`` is the point banned to ``color`` by simple ko (None if none); ``seen`` holds every
    earlier grid of the game, for positional superko. Reasons are checked in the order
    off board, occupied, ko, suicide, superko (retaking a ko would also repeat a grid).
    """
    if not on_board(grid, r, c):
        return "off board"
    if grid[r][c] != EMPTY:
        return "occupied"
    if (r, c) == ko_point:
        return "ko"
    try:
        new_grid, _ = play(grid, color, r, c)
    except Illegal as e:
        return e.reason
    if repeats(new_grid, seen):
        return "superko"
    return None


def is_legal(grid, color, r, c, ko_point=None, seen=()):
    return illegal_reason(grid, color, r, c, ko_point, seen) is None


def repeats(new_grid, seen):
    """Positional superko: whether ``new_grid`` occurred before (``seen`` is a set of earlier grids)."""
    return new_grid in seen


def legal_points(grid, color, ko_point=None, seen=()):
    """Every point ``color`` may play (pass, always legal, is not listed)."""
    return {p for p in empty_points(grid) if is_legal(grid, color, *p, ko_point, seen)}


def is_eye(grid, color, r, c):
    """Whether the empty point ``(r, c)`` is an eye of ``color`` for random playouts.

    All on-board neighbours are ``color`` stones; on-board diagonals hold fewer than two opponent
    stones in the centre and none when the point is on the edge or in a corner. Empty diagonals
    do not count.
    """
    if grid[r][c] != EMPTY or any(grid[q[0]][q[1]] != color for q in neighbours(grid, r, c)):
        return False
    diagonals = [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]
    on_edge = not all(on_board(grid, *q) for q in diagonals)
    bad = sum(1 for q in diagonals if on_board(grid, *q) and grid[q[0]][q[1]] == opponent(color))
    return bad == 0 if on_edge else bad < 2


def area_score(grid):
    """Tromp-Taylor area, Black minus White, no komi."""
    score = 0
    seen = set()
    for r, row in enumerate(grid):
        for c, color in enumerate(row):
            if color == BLACK:
                score += 1
            elif color == WHITE:
                score -= 1
            elif (r, c) not in seen:
                region = flood(grid, r, c)
                seen |= region
                reach = {grid[q[0]][q[1]] for q in border(grid, region)}
                if reach == {BLACK}:
                    score += len(region)
                elif reach == {WHITE}:
                    score -= len(region)
    return score


class Game:
    """A game from the empty board (or ``grid``): the grid, the simple-ko ban, and every grid so far.

    ``ko`` is ``(point, colour it is banned to)`` or None; a pass lifts it. Any colour may move at
    any time (the caller keeps the turn), as ``goengine.board.Board.play`` allows.
    """

    def __init__(self, size, grid=None):
        self.grid = empty_grid(size) if grid is None else grid
        self.ko = None
        self.seen = {self.grid}

    def ko_point(self, color):
        return self.ko[0] if self.ko and self.ko[1] == color else None

    def illegal_reason(self, color, r, c):
        return illegal_reason(self.grid, color, r, c, self.ko_point(color), self.seen)

    def legal_points(self, color):
        return legal_points(self.grid, color, self.ko_point(color), self.seen)

    def play(self, color, point):
        """Play ``(r, c)`` or ``None`` (pass). Returns the captured points; Illegal if forbidden."""
        if point is None:
            self.ko = None
            return set()
        reason = self.illegal_reason(color, *point)
        if reason is not None:
            raise Illegal(reason)
        self.grid, captured = play(self.grid, color, *point)
        ko = ko_after(self.grid, *point, captured)
        self.ko = None if ko is None else (ko, opponent(color))
        self.seen.add(self.grid)
        return captured


def neighbourhood_code(grid, r, c):
    """The 20-bit code of ``kernels.neighbourhood`` for the point ``(r, c)``, by flood fills:
    each orthogonal neighbour (N, W, E, S) as 0 empty, 1 off the board, 2-4 a black chain of 1,
    2, 3+ liberties, 5-7 a white one (3 bits each); each diagonal (NW, NE, SW, SE) as its colour,
    3 off the board (2 bits each, from bit 12)."""
    code = 0
    for k, (dr, dc) in enumerate(((-1, 0), (0, -1), (0, 1), (1, 0))):
        i, j = r + dr, c + dc
        if not on_board(grid, i, j):
            state = 1
        elif grid[i][j] == EMPTY:
            state = 0
        else:
            state = (2 if grid[i][j] == BLACK else 5) + min(3, len(liberties(grid, i, j))) - 1
        code |= state << (3 * k)
    for k, (dr, dc) in enumerate(((-1, -1), (-1, 1), (1, -1), (1, 1))):
        i, j = r + dr, c + dc
        color = grid[i][j] if on_board(grid, i, j) else 3
        code |= color << (12 + 2 * k)
    return code
