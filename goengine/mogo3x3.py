"""The 3x3 playout patterns of MoGo, as diagrams, and the lookup table the kernels read.

Source: Gelly, Wang, Munos, Teytaud (2006), "Modification of UCT with patterns in Monte-Carlo Go",
INRIA RR-6062, section 3.2 and figures 2-5: the hane, cut and edge shapes MoGo's playouts answer
around the last move. The same shapes appear in Fuego (``GoUctPatterns.h``), Pachi
(``playout/moggy.c``) and michi; the diagrams below are our transcription of the paper's figures.

Each diagram is three rows of three symbols around the candidate move (the centre, written
``*``): ``X`` and ``O`` the two colours, ``.`` empty, ``#`` off the board, ``?`` anything, ``x``
anything but an ``X`` stone, ``o`` anything but an ``O`` stone. The paper matches each pattern
with its rotations, reflections and colours swapped, so the table has all of them, and a move
matches whoever plays it.

``build_table`` expands the diagrams into a ``uint8[65536]`` indexed by the neighbourhood code of
``goengine.kernels.mogo3x3.code3x3`` (the kernels' only view of patterns): 1 for a pattern move,
0 otherwise; ``table()`` packs it into the bit set the kernels read. ``matches_naive`` is the
slow reference the tests compare the kernels with.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from goengine.kernels.board import BLACK, BORDER, EMPTY, WHITE
from goengine.kernels.mogo3x3 import N_CODES

# name -> the diagram, top row first; the centre is the move
MOGO_PATTERNS: dict[str, tuple[str, str, str]] = {
    # hane: answer a contact move by wrapping around it
    "hane enclosing": ("XOX", ".*.", "???"),
    "hane non-cutting": ("XO.", ".*.", "?.?"),
    "hane magari": ("XO?", "X*.", "x.?"),
    # cut: separate two diagonal stones of one colour
    "cut1 unprotected": ("XO?", "O*o", "?o?"),
    "cut1 peeped": ("XO?", "O*X", "???"),
    "cut2": ("?X?", "O*O", "ooo"),
    # edge: the centre is on the first line
    "edge chase": ("X.?", "O*?", "##?"),
    "edge block side cut": ("OX?", "X*O", "###"),
    "edge block side connection": ("?X?", "x*O", "###"),
    "edge sagari": ("?XO", "x*x", "###"),
    "edge cut": ("?OX", "X*O", "###"),
}

# Shapes Pachi's playouts answer beside MoGo's (``playout/moggy.c``, its 3x3 list, with the gamma
# Pachi gives each), in the notation above. Pachi's own notation tells a stone in atari from one
# that is not; the 3x3 code has no liberties, so a shape that asks for a stone not in atari is
# read here as any stone of that colour. Pachi's "thin hane", which it plays for one colour only,
# has no place in a table that matches whoever plays.
EXTRA_PATTERNS: dict[str, tuple[str, str, str]] = {
    "cut keima": ("OX?", "?*O", "?o?"),  # Pachi's largest gamma, 0.82
    "side make eye": ("?X.", "O*X", "###"),  # 0.44
    "katatsuke": (".O.", "X*.", "..."),  # a diagonal attachment, 0.37
}

# which colours each symbol allows, with X = BLACK and O = WHITE (the swap is expanded later)
_ALLOWED = {
    "X": {BLACK},
    "O": {WHITE},
    ".": {EMPTY},
    "#": {BORDER},
    "?": {EMPTY, BLACK, WHITE, BORDER},
    "x": {EMPTY, WHITE, BORDER},
    "o": {EMPTY, BLACK, BORDER},
}
_SWAP = {"X": "O", "O": "X", "x": "o", "o": "x"}

# the eight neighbours as (row, col) offsets, in the code's order (kernels.mogo3x3.NEIGHBOUR_ORDER)
OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _cells(diagram: tuple[str, str, str]) -> dict[tuple[int, int], str]:
    rows = [row.replace(" ", "") for row in diagram]
    if len(rows) != 3 or any(len(r) != 3 for r in rows) or rows[1][1] != "*":
        raise ValueError(f"a pattern is three rows of three symbols around '*': {diagram!r}")
    return {(r - 1, c - 1): rows[r][c] for r in range(3) for c in range(3) if (r, c) != (1, 1)}


def variants(diagram: tuple[str, str, str]) -> list[dict[tuple[int, int], str]]:
    """The diagram under the 8 symmetries of the square, each with and without the colours
    swapped: 16 maps ``(row, col) offset -> symbol`` (some may coincide)."""
    cells = _cells(diagram)
    out = []
    for swap in (False, True):
        for transpose in (False, True):
            for flip_r in (1, -1):
                for flip_c in (1, -1):
                    v = {}
                    for (r, c), s in cells.items():
                        rr, cc = (c, r) if transpose else (r, c)
                        v[(rr * flip_r, cc * flip_c)] = _SWAP.get(s, s) if swap else s
                    out.append(v)
    return out


def matches_naive(diagram: tuple[str, str, str], neighbours: dict[tuple[int, int], int]) -> bool:
    """Whether the colours ``neighbours`` (offset -> colour) match the diagram in some orientation
    and colouring: the slow reference, trying every variant."""
    return any(all(neighbours[o] in _ALLOWED[s] for o, s in v.items()) for v in variants(diagram))


def build_table(diagrams) -> np.ndarray:
    """``uint8[65536]``: 1 at every neighbourhood code that matches one of ``diagrams`` in some
    orientation and colouring."""
    codes = np.arange(N_CODES, dtype=np.int64)
    colour = [(codes >> (2 * i)) & 3 for i in range(8)]
    table = np.zeros(N_CODES, dtype=np.uint8)
    for diagram in diagrams:
        for v in variants(diagram):
            ok = np.ones(N_CODES, dtype=bool)
            for i, offset in enumerate(OFFSETS):
                allowed = np.zeros(4, dtype=bool)
                allowed[list(_ALLOWED[v[offset]])] = True
                ok &= allowed[colour[i]]
            table[ok] = 1
    return table


@cache
def table() -> np.ndarray:
    """The patterns' table as the kernels read it (``kernels.mogo3x3``): MoGo's, then in a
    second plane the EXTRA_PATTERNS, each ``build_table``'s bytes packed eight codes a byte,
    built once per process (shared: do not write to it; it stays a writeable array because
    numba compiles read-only arrays as another type)."""
    planes = (build_table(MOGO_PATTERNS.values()), build_table(EXTRA_PATTERNS.values()))
    return np.concatenate([np.packbits(plane, bitorder="little") for plane in planes])
