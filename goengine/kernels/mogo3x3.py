"""3x3 patterns: the code of a point's neighbourhood, and the test of a move against a table.

The code of an empty point ``p`` packs the colours of its eight neighbours, two bits each
(``EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3``, the values ``kernels.board`` stores), in the order
NW, N, NE, W, E, SW, S, SE (bits 0-1 for NW, ..., 14-15 for SE): a 16-bit integer. The padded
board has a border ring, so the eight neighbours of every point on the board are inside the array
and an off-board neighbour reads BORDER; the code is computed on the fly from ``pts[COLOR]``
(eight reads, no state to keep), as Pachi's ``pattern3_hash`` does by default.

A table is a bit set over the codes, ``uint8[8192]``: code ``k`` matches when bit ``k & 7`` of
byte ``k >> 3`` is set. It is built in Python (``goengine.mogo3x3``) from the pattern diagrams
with every rotation, reflection and colour swap already expanded, so the lookup is one read and
needs no normalisation. Packed, it takes 8 KB and stays in the L1 cache beside the board; a byte
per code (64 KB) did not, and the heavy playouts ran slower with it (``docs/performance.md``). It
is passed to the kernels as an argument (numba freezes module-level arrays into compiled code).
The table the search passes holds two such planes one after the other, ``uint8[16384]``: MoGo's
patterns (``matches``), then the shapes Pachi's playouts add to them (``matches_extra``), read
only when the heavy policy's ``pattern_extra`` asks.
"""

from numba import njit

from . import at
from .board import COLOR

N_CODES = 1 << 16
PLANE = N_CODES >> 3  # bytes of one bit set: the second plane starts here
NEIGHBOUR_ORDER = ("NW", "N", "NE", "W", "E", "SW", "S", "SE")


@njit(cache=True, _nrt=False, inline="always")
def code3x3(pts, p, w):
    """The 16-bit code of the eight neighbours of ``p`` (order NW N NE W E SW S SE, two bits each)."""
    col = pts[COLOR]
    return (
        col[at(p - w - 1)]
        | (col[at(p - w)] << 2)
        | (col[at(p - w + 1)] << 4)
        | (col[at(p - 1)] << 6)
        | (col[at(p + 1)] << 8)
        | (col[at(p + w - 1)] << 10)
        | (col[at(p + w)] << 12)
        | (col[at(p + w + 1)] << 14)
    )


@njit(cache=True, _nrt=False, inline="always")
def matches(table, pts, p, w):
    """Whether the neighbourhood of the point ``p`` is one of ``table``'s patterns."""
    code = code3x3(pts, p, w)
    return (table[at(code >> 3)] >> (code & 7)) & 1 != 0


@njit(cache=True, _nrt=False, inline="always")
def matches_extra(table, pts, p, w):
    """Whether the neighbourhood of ``p`` is one of the shapes of ``table``'s second plane."""
    code = code3x3(pts, p, w)
    return (table[at(PLANE + (code >> 3))] >> (code & 7)) & 1 != 0
