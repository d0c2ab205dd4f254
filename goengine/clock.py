"""Time control: the settings of a game's clock, each player's clock, and how much of it a move
may spend. No text: GTP's ``time_settings`` / ``kgs-time_settings`` arguments are read by the GTP
front-end (``goengine.gtp.clock``), which builds a ``TimeSettings``.

Reading guide: ``seconds_for_move`` is the allocation; ``TimeSettings`` and ``Clock`` are what it
reads.
"""

from __future__ import annotations

from dataclasses import dataclass

RESERVE_SHARE = 0.05  # of the main time, kept back for the game's last moves and for overheads
MIN_RESERVE = 0.5  # seconds: the least reserve
MOVE_MARGIN = 0.05  # seconds taken off every main-time move: the protocol's round trip
SAFETY_SHARE = 0.1  # of a byo-yomi period's time, kept back
SAFETY_SECONDS = 0.3  # and these seconds too: a period lost is a flag nearer
MIN_SECONDS = 0.05  # the least a move is given, however short the clock


@dataclass(frozen=True)
class TimeSettings:
    """A game's time system. ``kind``: ``none`` (no limit), ``absolute`` (``main`` seconds for the
    game), ``canadian`` (``main``, then ``byo_stones`` stones in every ``byo_time`` seconds),
    ``byoyomi`` (Japanese: ``main``, then ``periods`` periods of ``byo_time`` seconds)."""

    kind: str = "none"
    main: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0
    periods: int = 0


@dataclass
class Clock:
    """One player's clock as the controller last reported it (GTP ``time_left``): seconds left,
    and in byo-yomi the stones (Canadian) or periods (Japanese, KGS) left; ``known`` is false
    until a report arrives."""

    seconds: float = 0.0
    stones: int = 0  # stones left in the current byo-yomi period; 0 while in main time
    known: bool = False


def moves_to_plan(empty_points: int, size: int) -> float:
    """How many moves of its own a player still expects to play, as Fuego's SgDefaultTimeControl
    estimates it: half the empty points beyond a quarter of the board, and never fewer than 3N/2,
    so the time left is never planned over fewer moves than an endgame takes."""
    return max(empty_points - size * size / 4.0, 3.0 * size) / 2.0


def seconds_for_move(settings: TimeSettings, clock: Clock, empty_points: int, size: int) -> float | None:
    """The thinking time the clock allows for this move, or None without a clock.

    In main time: the time left less a reserve (RESERVE_SHARE of the main time, at least
    MIN_RESERVE) over the moves still expected (``moves_to_plan``), less MOVE_MARGIN; plus one
    byo-yomi period's share (a Canadian period over its stones, or a Japanese period) when
    byo-yomi follows, never more than half the main time left with it. The estimate shrinks
    towards 3N/2 moves while the time left keeps shrinking, so a move in the middle game gets
    more than one near the end, and the reserve is never planned away. In byo-yomi: a Japanese
    period's time, or a Canadian period's time over its stones, less SAFETY_SHARE and
    SAFETY_SECONDS. Without a report from the controller the main time is taken as all still
    left."""
    if settings.kind == "none":
        return None
    main_left = clock.seconds if clock.known else settings.main

    def period_share(seconds: float) -> float:
        return max(0.0, seconds * (1 - SAFETY_SHARE) - SAFETY_SECONDS)

    if settings.kind == "byoyomi" and clock.known and (clock.stones > 0 or clock.seconds <= settings.byo_time):
        # in a Japanese period: KGS's time_left gives the period's time and the periods left
        return max(MIN_SECONDS, period_share(clock.seconds))
    if clock.known and clock.stones > 0:  # in Canadian byo-yomi: time over stones
        return max(MIN_SECONDS, period_share(clock.seconds / clock.stones))
    reserve = max(MIN_RESERVE, RESERVE_SHARE * settings.main)
    main_part = max(0.0, main_left - reserve) / moves_to_plan(empty_points, size) - MOVE_MARGIN
    byo_part = 0.0
    if settings.kind == "canadian" and settings.byo_stones > 0:
        byo_part = period_share(settings.byo_time / settings.byo_stones)
    elif settings.kind == "byoyomi":
        byo_part = period_share(settings.byo_time)
    allowed = min(main_part + byo_part, main_left / 2 + byo_part)
    return max(MIN_SECONDS, allowed)
