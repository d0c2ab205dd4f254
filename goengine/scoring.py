"""Scoring a game at its end: which stones are dead, alive or in seki, and the final score, judged
from an ownership map (for every padded point, P(Black owns it) - P(White owns it) at the end of
playouts from the position: ``Engine.ownership``). No search here: the engine runs the playouts,
this module reads them.

Reading guide: ``chain_status`` is the judgement; ``dead_stones``, ``final_status`` and
``final_score`` (GTP's ``final_status_list`` and ``final_score``) read it.
"""

from __future__ import annotations

import numpy as np

from goengine.board import BLACK, EMPTY, Board

DEAD_SHARE = 0.5  # see chain_status
STATUSES = ("alive", "dead", "seki")


def chain_status(board: Board, owner: np.ndarray) -> dict[int, str]:
    """``alive``, ``dead`` or ``seki`` for every stone of ``board``, judged chain by chain.

    A chain's share is the mean, over its stones, of P(its owner's area) - P(the opponent's)
    at the end of the playouts (``owner``). Seki first: a chain whose share is within DEAD_SHARE
    of 0 and that shares a liberty with an opponent chain not clearly dead (share above
    -DEAD_SHARE) -- uniform playouts always fill a shared liberty, so either side dies about half
    the time and both shares hover near 0. Any other chain with a negative share (its point ends
    in the opponent's area more often than in its own) is dead."""
    w = board.size + 2
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


def dead_stones(board: Board, owner: np.ndarray, color: int | None = None) -> list[int]:
    """Stones (of ``color``, or both) in chains the playouts judge dead (``chain_status``)."""
    return sorted(
        p
        for p, status in chain_status(board, owner).items()
        if status == "dead" and (color is None or board.color_at(p) == color)
    )


def final_status(board: Board, owner: np.ndarray, status: str) -> list[int]:
    """Stones that are ``alive``, ``dead`` or in ``seki`` (GTP ``final_status_list``);
    ValueError for another word."""
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}: alive, dead or seki")
    return sorted(p for p, s in chain_status(board, owner).items() if s == status)


def final_score(board: Board, komi: float, owner: np.ndarray) -> float:
    """Black's area score minus ``komi`` after removing the stones the playouts call dead."""
    dead = set(dead_stones(board, owner))
    if dead:
        alive = [(board.color_at(p), p) for p in board.points() if board.color_at(p) != EMPTY and p not in dead]
        board = Board.from_stones(board.size, alive)
    return board.area_score() - komi
