"""Time control: the settings of a game's clock, each player's clock, and how much of it a move
may spend. No text: GTP's ``time_settings`` / ``kgs-time_settings`` arguments are read by the GTP
front-end (``goengine.gtp.clock``), which builds a ``TimeSettings``.

Reading guide: ``seconds_for_move`` is the allocation; ``TimeSettings`` and ``Clock`` are what it
reads.
"""

from __future__ import annotations

from dataclasses import dataclass

SAFETY_SECONDS = 0.3  # kept back on every move for latency and the controller's own bookkeeping
SAFETY_SHARE = 0.1  # and this share of the time allowed
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


def seconds_for_move(settings: TimeSettings, clock: Clock, empty_points: int) -> float | None:
    """The thinking time the clock allows for this move, or None without a clock.

    In main time, the time left is spread over the moves we still expect to play (half the
    empty points, at least 10, as Pachi and Fuego estimate), plus one byo-yomi period's share;
    in byo-yomi, a period's time over its stones. A safety margin is always kept back.
    Without a report from the controller the main time is taken as all still left."""
    if settings.kind == "none":
        return None
    main_left = clock.seconds if clock.known else settings.main
    if settings.kind == "byoyomi" and clock.known and (clock.stones > 0 or clock.seconds <= settings.byo_time):
        # in a Japanese period: KGS's time_left gives the period's time and the periods left
        per_move = clock.seconds
    elif clock.known and clock.stones > 0:  # in Canadian byo-yomi: time over stones
        per_move = clock.seconds / clock.stones
    else:
        expected = max(10, empty_points // 2)
        per_move = main_left / expected
        if settings.kind == "canadian" and settings.byo_stones > 0:
            per_move += settings.byo_time / settings.byo_stones
        elif settings.kind == "byoyomi":
            per_move += settings.byo_time
        per_move = min(per_move, main_left / 2 + settings.byo_time)
    allowed = per_move * (1 - SAFETY_SHARE) - SAFETY_SECONDS
    return max(MIN_SECONDS, allowed)
