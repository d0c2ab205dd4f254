"""Slow, plain-Python features of a candidate move: the reference ``goengine.kernels.features`` is
tested against, written from that module's docstring (each group and value) with the flood fills
of ``tests/naive.py``.

Reading guide: ``Position.of`` reads a position off a ``goengine.board.Board`` (its stones as a
naive grid, the simple-ko ban, the last two moves); ``features`` gives one candidate's value of
every group, ``candidates`` every legal move's; the group functions (``capture``, ``escape``,
``atari``, ``self_atari``, ``edge``, ``dist_last``, ``dist_last2``, ``pass_value``) each follow one
paragraph of the docstring. Shapes: ``states`` reads the points around a move, ``shape_key`` and
``canonical_key`` hash them, ``largest_known`` walks the nested sizes against a dict of keys.

What is not written again here:
- the ladder read itself. ESCAPE's "works or fails" and ATARI's "ladder or net" call
  ``goengine.kernels.tactics.ladder_captures`` (on the kernel board of the position, or of the
  position after the move, made with ``kernels.board.place``) when the liberty count leaves a
  ladder open; everything around it (which chains, how many liberties, a capture on the way,
  an extension that is illegal) is counted here. As ``tactics.escape_works`` does, an extension
  to two liberties that captures counts as working without a ladder read;
- the shapes' geometry and keys: ``goengine.movemodel.geometry()``'s spiral, Zobrist keys and
  size keys define the hash. Which points are within distance d, their states, the eight
  orientations and the XOR are computed here.

Coordinates are naive's ``(row, col)``, row 0 at the top; colours ``EMPTY, BLACK, WHITE``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import naive
import numpy as np

from goengine import coords
from goengine.board import PASS, ZOBRIST, Board
from goengine.kernels import board as kb
from goengine.kernels import tactics as kt
from goengine.movemodel import geometry

EMPTY, BLACK, WHITE = naive.EMPTY, naive.BLACK, naive.WHITE
OFF_BOARD = 3  # a shape point's state off the board (0 empty, 1 the mover's, 2 the opponent's)

GROUPS = ("pass", "capture", "escape", "atari", "self_atari", "edge", "dist_last", "dist_last2")


def gridcular(a, b):
    """Coulom's distance between two points: ``|dx| + |dy| + max(|dx|, |dy|)``."""
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc + max(dr, dc)


@dataclass(frozen=True)
class Position:
    """What the features of a position depend on: the stones (a naive grid), the side to move,
    the point it may not play because of simple ko (or None), whether a simple-ko ban is on the
    board at all (for either colour), the points of the last move and of the one before it (None
    for a pass or no move), whether the last move was a pass, and the ``board`` itself (only for
    the kernel's ladder reads). The stones, the ko ban and the moves are read from the Board as
    its state; every feature is then computed from them here."""

    grid: tuple
    to_move: int
    ko: tuple | None
    ko_on_board: bool
    last: tuple | None
    last2: tuple | None
    after_pass: bool
    board: Board

    @classmethod
    def of(cls, board: Board, color: int | None = None) -> Position:
        """The position of ``board`` with ``color`` (default: the side to move) to play."""
        size = board.size
        c = board.to_move if color is None else color
        grid = tuple(tuple(board.color_at(coords.point(size, r, col)) for col in range(size)) for r in range(size))
        ko = None
        if board.ko_point is not None and board.ko_color == c:
            ko = coords.row_col(size, board.ko_point)
        played = [p for _, p in board.moves]

        def point(k):
            if len(played) < k or played[-k] == PASS:
                return None
            return coords.row_col(size, played[-k])

        return cls(
            grid, c, ko, board.ko_point is not None, point(1), point(2), bool(played) and played[-1] == PASS, board
        )

    @property
    def size(self):
        return len(self.grid)

    def kernel_point(self, rc):
        return coords.point(self.size, *rc)


# ---- liberties, the naive way


def libs(grid, rc):
    return naive.liberties(grid, *rc)


def in_atari(grid, rc):
    return len(libs(grid, rc)) == 1


def after(grid, color, rc):
    """``(grid, captured)`` after ``color`` plays ``rc``, or None when it is suicide."""
    try:
        return naive.play(grid, color, *rc)
    except naive.Illegal:
        return None


def legal_points(pos):
    """The points the side to move may play under simple ko (no superko), in board order."""
    return sorted(naive.legal_points(pos.grid, pos.to_move, pos.ko))


def touches(grid, stones, rc):
    """Whether the point ``rc`` is one of ``stones`` or next to one."""
    return rc in stones or any(q in stones for q in naive.neighbours(grid, *rc))


def ladder(pts, meta, rc, color, size):
    """The kernel's ladder read (``tactics.ladder_captures``): is the chain ``color`` makes on
    ``rc`` (two liberties, the opponent to move) caught? On copies: nothing is changed."""
    return bool(kt.ladder_captures(pts.copy(), meta.copy(), ZOBRIST, coords.point(size, *rc), color))


def escape_works(grid, color, rc, pts, meta):
    """Whether ``color`` extending on ``rc`` saves its chain (``tactics.escape_works``, as the
    docstring defines "works"): three liberties or more after the move, or two and either a
    capture on the way or no ladder. ``(pts, meta)``: the kernel board of ``grid``, for the
    ladder read only."""
    played = after(grid, color, rc)
    if played is None:
        return False
    new, captured = played
    n = len(libs(new, rc))
    if n >= 3:
        return True
    if n <= 1:
        return False
    if captured:
        return True
    return not ladder(pts, meta, rc, color, len(grid))


# ---- the groups, one function each


def pass_value(pos):
    """PASS of a pass: 1 after the opponent's pass, 2 any other pass."""
    return 1 if pos.after_pass else 2


def capture(pos, rc):
    """CAPTURE: 1 a ko capture, 2 a capture saving an own chain in atari next to the captured
    one, 3 the captured chain holds or touches the last move, 4 another of 1-2 stones, 5 of 3+
    (the first that applies)."""
    grid, c = pos.grid, pos.to_move
    new, captured = after(grid, c, rc)
    if not captured:
        return 0
    if naive.ko_after(new, *rc, captured) is not None:
        return 1
    for s in captured:
        for q in naive.neighbours(grid, *s):
            if grid[q[0]][q[1]] == c and in_atari(grid, q):
                return 2
    if pos.last is not None and touches(grid, captured, pos.last):
        return 3
    return 4 if len(captured) <= 2 else 5


def escape(pos, rc):
    """ESCAPE: the move is the liberty of own chains in atari; 1/2 when one of them holds or
    touches the last move (new), 3/4 otherwise (old); 1/3 when the extension works."""
    grid, c = pos.grid, pos.to_move
    chains = [naive.chain(grid, *q) for q in naive.neighbours(grid, *rc) if grid[q[0]][q[1]] == c and in_atari(grid, q)]
    if not chains:
        return 0
    new = pos.last is not None and any(touches(grid, stones, pos.last) for stones in chains)
    works = escape_works(grid, c, rc, pos.board.pts, pos.board.meta)
    if new:
        return 1 if works else 2
    return 3 if works else 4


def atari(pos, rc):
    """ATARI: the move leaves an opponent chain next to it with one liberty (it had two); 1 when
    for one such chain extending on its liberty is illegal or does not work (read after the move,
    the opponent to play), else 2 when a ko is on the board, else 3."""
    grid, c = pos.grid, pos.to_move
    o = 3 - c
    new, captured = after(grid, c, rc)
    # an adjacent opponent chain in atari before the move is captured by it, so one in atari
    # after it had two liberties: the move and the one left
    targets = {}
    for q in naive.neighbours(new, *rc):
        if new[q[0]][q[1]] == o and in_atari(new, q):
            targets[min(naive.chain(new, *q))] = next(iter(libs(new, q)))
    if not targets:
        return 0
    # the kernel board after the move, for the ladder read
    pts, meta = pos.board.pts.copy(), pos.board.meta.copy()
    kb.place(pts, meta, ZOBRIST, np.int64(pos.kernel_point(rc)), np.int64(c))
    ko_now = naive.ko_after(new, *rc, captured)  # the point banned to the opponent after the move
    for lib in targets.values():
        if lib == ko_now or after(new, o, lib) is None or not escape_works(new, o, lib, pts, meta):
            return 1
    return 2 if pos.ko_on_board else 3


def self_atari(pos, rc):
    """SELF_ATARI: the move leaves its own chain with one liberty and captures nothing; 1 when
    the chain has at most three stones and, with its liberty, fills a region bounded only by the
    opponent's stones and the edge; else 2 for one stone, 3 for more."""
    grid, c = pos.grid, pos.to_move
    new, captured = after(grid, c, rc)
    if captured:
        return 0
    liberties = libs(new, rc)
    if len(liberties) != 1:
        return 0
    stones = naive.chain(new, *rc)
    region = stones | liberties
    enclosed = all(new[q[0]][q[1]] == 3 - c for q in naive.border(new, region))
    if len(stones) <= 3 and enclosed:
        return 1
    return 2 if len(stones) == 1 else 3


def edge(size, rc):
    """EDGE: 1-4 the first to fourth line, 5 further in."""
    r, c = rc
    return min(r + 1, c + 1, size - r, size - c, 5)


def dist_last(pos, rc):
    """DIST_LAST: 0 without a last move (or after a pass); d = 2..16 gives d - 1; 17+ gives 16."""
    if pos.last is None:
        return 0
    d = gridcular(rc, pos.last)
    assert d >= 2, "the last move's stone is on the board"
    return 16 if d >= 17 else d - 1


def dist_last2(pos, rc):
    """DIST_LAST2: 0 without that move; 1 for d = 0 (the same point); d for 2..16; 17 beyond."""
    if pos.last2 is None:
        return 0
    d = gridcular(rc, pos.last2)
    if d == 0:
        return 1
    return min(d, 17)


def features(pos, rc):
    """Every group's value for the side to move playing ``rc`` (a legal point) or None (pass),
    as a dict named as ``GROUPS``."""
    if rc is None:
        return dict.fromkeys(GROUPS, 0) | {"pass": pass_value(pos)}
    return {
        "pass": 0,
        "capture": capture(pos, rc),
        "escape": escape(pos, rc),
        "atari": atari(pos, rc),
        "self_atari": self_atari(pos, rc),
        "edge": edge(pos.size, rc),
        "dist_last": dist_last(pos, rc),
        "dist_last2": dist_last2(pos, rc),
    }


def candidates(pos):
    """``[(point or None, features)]``: every legal point in board order, then the pass."""
    return [(rc, features(pos, rc)) for rc in legal_points(pos)] + [(None, features(pos, None))]


# ---- shapes


def _reach():
    """Every offset ``(dx, dy)`` within distance 10 (dx along a row to the right, dy down)."""
    return [(dx, dy) for dx in range(-5, 6) for dy in range(-5, 6) if gridcular((0, 0), (dx, dy)) <= 10]


@functools.cache
def spiral_index():
    """``{(dx, dy): i}``: the index geometry's spiral gives each offset."""
    geo = geometry()
    return {(int(dx), int(dy)): i for i, (dx, dy) in enumerate(geo.spiral)}


def transforms():
    """The eight rotations and reflections of an offset, written out."""
    return [
        lambda x, y, sx=sx, sy=sy, swap=swap: (sx * y, sy * x) if swap else (sx * x, sy * y)
        for swap in (False, True)
        for sx in (1, -1)
        for sy in (1, -1)
    ]


def states(grid, rc, color):
    """``{(dx, dy): state}`` of every point within distance 10 of ``rc`` for mover ``color``:
    0 empty, 1 ``color``'s, 2 the other colour's, 3 off the board."""
    n = len(grid)
    out = {}
    for dx, dy in _reach():
        r, c = rc[0] + dy, rc[1] + dx
        if not (0 <= r < n and 0 <= c < n):
            out[(dx, dy)] = OFF_BOARD
        elif grid[r][c] == EMPTY:
            out[(dx, dy)] = 0
        else:
            out[(dx, dy)] = 1 if grid[r][c] == color else 2
    return out


def hash_of(shape, d, transform=None):
    """The key of the size-``d`` part of ``shape`` ({offset: state}), each point moved by
    ``transform`` first: the XOR of the spiral's Zobrist key of (where it lands, its state) over
    the points at distance 1..d, and the key of size d."""
    geo = geometry()
    index = spiral_index()
    h = 0
    for offset, state in shape.items():
        if offset == (0, 0) or gridcular((0, 0), offset) > d:
            continue
        where = transform(*offset) if transform else offset
        h ^= int(geo.zkeys[index[where], state])
    return h ^ int(geo.size_keys[d])


def shape_key(grid, rc, color, d):
    """The key ``shape_id`` probes for the size-``d`` shape around ``rc`` as the board has it."""
    return hash_of(states(grid, rc, color), d)


def orientation_keys(shape, d):
    """The eight orientations' keys of a shape (what the dictionary holds for it)."""
    return {hash_of(shape, d, t) for t in transforms()}


def canonical_key(grid, rc, color, d):
    """The harvest's key: the least of the eight orientations' hashes without the size key, then
    the size key XORed in (``canonical_keys`` takes the minimum before adding the size)."""
    shape = states(grid, rc, color)
    size_key = int(geometry().size_keys[d])
    return min(hash_of(shape, d, t) ^ size_key for t in transforms()) ^ size_key


def largest_known(grid, rc, color, known):
    """The id of the largest shape around ``rc`` whose key is in ``known`` ({key: id}), looking
    from size 3 outwards and stopping at the first size not known; 0 (no shape) if size 3 is not."""
    found = 0
    for d in range(3, 11):
        key = shape_key(grid, rc, color, d)
        if key not in known:
            break
        found = known[key]
    return found


def pack(shape):
    """The three 64-bit words of a shape's states (spiral order from point 1, 2 bits a point,
    32 a word): the layout of ``MoveModel.contents``."""
    words = [0, 0, 0]
    for offset, i in spiral_index().items():
        if i == 0:
            continue
        j = i - 1
        words[j // 32] |= shape.get(offset, 0) << (2 * (j % 32))
    return np.array(words, dtype=np.uint64)
