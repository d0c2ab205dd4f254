"""The referee's clocks: a match's time control, how it is told to the engines over GTP, and each
side's clock, moved forward by the wall time each ``genmove`` took (the command's round trip,
protocol included, as a referee measures it).

Reading guide: ``TimeControl.parse`` reads ``--time``; ``TimeControl.setup_commands`` is what each
engine is sent before the game; ``SideClock.spend`` runs one move and says whether the flag fell;
``SideClock.time_left`` is the ``time_left`` report sent before each ``genmove``.

Time controls (seconds):

- ``300``: sudden death, 300 s for the game (``time_settings 300 0 0``);
- ``60+5x3``: 60 s, then Japanese byo-yomi, 3 periods of 5 s: a move that takes longer than a
  period uses it up, and the last one used up loses (``kgs-time_settings byoyomi 60 5 3`` to an
  engine that knows it, ``time_settings 60 5 1`` to others: one stone a period);
- ``60+30/10``: 60 s, then Canadian byo-yomi, 10 moves in every 30 s (``time_settings 60 30 10``).

Time spent past the main time flows into byo-yomi within the same move, as on KGS.

These clocks are the referee's own code, deliberately apart from the engine's
(``goengine.time_control``, which has its own ``Clock`` and ``TimeSettings``): a judge that shared
the engine's model of the rules of time could not catch a mistake in it, and the laboratory
referees any GTP engine, not only goengine (an import-linter contract keeps the engine out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ASCII digits (\d takes other scripts'), quantifiers that never give back (goengine.numerals)
_FORMAT = re.compile(
    r"(?P<main>[0-9]++(?:\.[0-9]++)?+)(?:\+(?P<byo>[0-9]++(?:\.[0-9]++)?+)(?:(?P<x>x)|/)(?P<count>[0-9]++))?+"
)


@dataclass(frozen=True)
class TimeControl:
    """``kind``: ``absolute``, ``byoyomi`` (Japanese, ``count`` periods of ``byo`` s) or ``canadian``
    (``count`` moves in every ``byo`` s), after ``main`` seconds."""

    kind: str
    main: float
    byo: float = 0.0
    count: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``MAIN``, ``MAIN+BYOxPERIODS`` or ``MAIN+BYO/MOVES``; ValueError saying what is wrong."""
        m = _FORMAT.fullmatch(text.strip()) if len(text) <= 100 else None
        if not m:
            raise ValueError(f"--time wants MAIN, MAIN+BYOxPERIODS or MAIN+BYO/MOVES (seconds), got {text!r}")
        main = float(m["main"])
        if m["byo"] is None:
            if main <= 0:
                raise ValueError(f"--time {text}: sudden death needs a main time above 0")
            return cls("absolute", main)
        byo, count = float(m["byo"]), int(m["count"])
        if byo <= 0 or count <= 0:
            raise ValueError(f"--time {text}: byo-yomi needs a period above 0 s and at least one period or move")
        return cls("byoyomi" if m["x"] else "canadian", main, byo, count)

    def describe(self) -> str:
        if self.kind == "absolute":
            return f"{self.main:g}"
        return f"{self.main:g}+{self.byo:g}{'x' if self.kind == 'byoyomi' else '/'}{self.count}"

    def longest_move(self) -> float:
        """The longest one move may take before the flag falls, on a clock no move has touched:
        the main time, then every Japanese period (a move uses up each one it goes past, and
        keeps the one it ends in) or the one Canadian period."""
        if self.kind == "absolute":
            return self.main
        if self.kind == "byoyomi":
            return self.main + self.byo * self.count
        return self.main + self.byo

    def setup_commands(self, knows_kgs: bool) -> list[str]:
        """The GTP commands that tell an engine this time control."""
        if self.kind == "absolute":
            return [f"time_settings {self.main:g} 0 0"]
        if self.kind == "canadian":
            return [f"time_settings {self.main:g} {self.byo:g} {self.count}"]
        if knows_kgs:
            return [f"kgs-time_settings byoyomi {self.main:g} {self.byo:g} {self.count}"]
        return [f"time_settings {self.main:g} {self.byo:g} 1"]


class SideClock:
    """One side's clock under ``control``: main time left, then the byo-yomi state."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.main = control.main
        self.periods = control.count if control.kind == "byoyomi" else 0  # Japanese periods left
        self.period_left = control.byo  # Canadian: time left in the current period
        self.stones_left = control.count if control.kind == "canadian" else 0
        self.flag_fell = False

    @property
    def in_byoyomi(self) -> bool:
        return self.main <= 0 and self.control.kind != "absolute"

    def spend(self, seconds: float) -> bool:
        """Charge one move of ``seconds``; False when the flag fell (the side loses on time)."""
        overtime = seconds
        if self.main > 0:
            used = min(self.main, seconds)
            self.main -= used
            overtime = seconds - used
            if self.main > 0 or overtime <= 0:
                return True  # the move ended within the main time
        kind = self.control.kind
        if kind == "absolute":
            self.flag_fell = overtime > 0 or self.main < 0
        elif kind == "byoyomi":
            # every whole period the move went past is used up; the period it ends in is kept
            while overtime > self.control.byo and self.periods > 0:
                overtime -= self.control.byo
                self.periods -= 1
            self.flag_fell = self.periods == 0 or overtime > self.control.byo
        else:  # canadian
            self.period_left -= overtime
            if self.period_left < 0:
                self.flag_fell = True
            else:
                self.stones_left -= 1
                if self.stones_left == 0:
                    self.period_left, self.stones_left = self.control.byo, self.control.count
        return not self.flag_fell

    def time_left(self) -> tuple[float, int]:
        """``(seconds, count)`` for GTP ``time_left``: main time and 0; in Canadian byo-yomi the
        period's time and its stones left; in Japanese byo-yomi (KGS's convention) a period's time
        and the periods left."""
        if not self.in_byoyomi:
            return max(0.0, self.main), 0
        if self.control.kind == "byoyomi":
            return self.control.byo, self.periods
        return max(0.0, self.period_left), self.stones_left
