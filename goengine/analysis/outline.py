"""A JSON line's outline, read without parsing it, in one pass linear in its length: how deep its
arrays and objects nest, and the ``id`` of the object it holds.

``query.read`` asks before it parses (Python's JSON reader recurses once a level, so a line nested
thousands deep must be refused first), and again for a line it refuses, so that the error can
carry the query's id when the line has a readable one (a client waits on that id). A regular
expression over the strings of the line took time in the square of its length on a run of
escaped quotes (it tried again from each quote); this scan reads every byte once.

Reading guide: ``outline`` runs ``_Scan.feed`` over the UTF-8 bytes in blocks of BLOCK bytes, each
block a few vectorised passes (numpy) that carry four numbers to the next: the depth, whether the
block ends inside a string, the run of backslashes it ends with, and the deepest depth so far.
A byte is *escaped* when an odd run of backslashes comes just before it; a quote that is not
escaped opens or closes a string; a bracket outside the strings nests. In valid JSON backslashes
occur only inside strings, so the depth is exact for every line the reader would accept; for
other lines it is a bound that cannot be cheated into recursion, since the reader then fails.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np

BLOCK = 1 << 16  # bytes a block: a few hundred kilobytes of temporaries at most, for a line of any length
_QUOTE, _BACKSLASH = ord('"'), ord("\\")
_OPEN = (ord("["), ord("{"))
_CLOSE = (ord("]"), ord("}"))
_KEY_ID = b'"id"'
_TO_VALUE = re.compile(rb'[ \t\r\n]*+:[ \t\r\n]*+(?=")')  # after the key: the colon, up to the value's quote


@dataclass(frozen=True)
class Outline:
    """``depth``: how deep the arrays and objects nest (0 for a line with none); ``query_id``: the
    string under the key ``id`` of the outermost object, when the line holds one that reads as a
    JSON string (else None)."""

    depth: int
    query_id: str | None


class _Scan:
    """The state one block hands the next, and the work done (``examined``: bytes scanned)."""

    def __init__(self, codes: np.ndarray):
        self.codes = codes  # the whole line's bytes
        self.depth = 0
        self.deepest = 0
        self.in_string = 0
        self.backslashes = 0  # the run of backslashes the bytes so far end with
        self.examined = 0

    def feed(self, start: int, stop: int) -> np.ndarray:
        """Scan the bytes from ``start`` to ``stop``; where, among them, a string ``"id"`` opens
        right inside the outermost object (depth 1): the candidates for the query's id key."""
        block = self.codes[start:stop]
        n = len(block)
        self.examined += n
        slash = block == _BACKSLASH
        index = np.arange(n, dtype=np.int64)
        # the last byte at or before each one that is not a backslash (-1: none in this block)
        last_other = np.maximum.accumulate(np.where(slash, -1, index))
        run = index - last_other  # backslashes ending at each byte, itself included
        run[last_other < 0] += self.backslashes  # a run that began in an earlier block
        before = np.empty(n, dtype=np.int64)
        before[0] = self.backslashes
        before[1:] = run[:-1]
        quote = (block == _QUOTE) & (before % 2 == 0)
        quotes = np.cumsum(quote, dtype=np.int64) + self.in_string  # odd: inside a string after this byte
        outside = quotes % 2 == 0
        step = (np.isin(block, _OPEN) & outside).astype(np.int64) - (np.isin(block, _CLOSE) & outside)
        depth = np.cumsum(step) + self.depth  # after each byte (a quote leaves it as it was)
        self.deepest = max(self.deepest, int(depth.max()))
        self.depth = int(depth[-1])
        self.in_string = int(quotes[-1] % 2)
        self.backslashes = int(run[-1])
        opening = np.flatnonzero(quote & ~outside & (depth == 1)) + start
        opening = opening[opening + 3 < len(self.codes)]
        codes = self.codes
        spells_id = (codes[opening + 1] == ord("i")) & (codes[opening + 2] == ord("d")) & (codes[opening + 3] == _QUOTE)
        return opening[spells_id]


def outline(text: str, find_id: bool = False, block: int = BLOCK) -> Outline:
    """The outline of ``text`` (one JSON line); the id is looked for only with ``find_id``."""
    return _outline(text, find_id, block)[0]


def _outline(text: str, find_id: bool, block: int) -> tuple[Outline, int]:
    """``(outline, bytes examined)``: the work is counted, so a test can hold it to the length."""
    data = text.encode("utf-8", "replace")
    scan = _Scan(np.frombuffer(data, dtype=np.uint8))
    key = None
    tried = 0  # "id" strings looked at as the key: a line of thousands of them is not read for one
    for start in range(0, len(data), block):
        candidates = scan.feed(start, min(start + block, len(data)))
        if find_id and key is None:
            for k in candidates[: max(0, MAX_ID_TRIES - tried)]:
                tried += 1
                if _TO_VALUE.match(data, int(k) + 4):
                    key = int(k)
                    break
    query_id = _id_value(data, key) if key is not None else None
    return Outline(scan.deepest, query_id), scan.examined


MAX_ID_TRIES = 64  # "id" strings right inside the object looked at as its key (a query has one)


def _id_value(data: bytes, key: int) -> str | None:
    """The JSON string after the key at ``key`` (``"id": "..."``), or None when it does not read
    as one (cut off, a number, bytes that are not text)."""
    colon = _TO_VALUE.match(data, key + 4)
    if colon is None:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(data[colon.end() :].decode("utf-8", "replace"))
    except (json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, str) else None
