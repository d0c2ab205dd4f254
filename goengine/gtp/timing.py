"""GTP commands of time: time_settings, time_left, kgs-time_settings, cputime. GTP's
arguments become a ``goengine.time_control.TimeSettings`` here; how the time is spent is the engine's
business (``goengine.time_control.seconds_for_move``)."""

from __future__ import annotations

import time

from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import color, integer, number, syntax_error
from goengine.time_control import TimeSettings


def time_settings_from_gtp(main: float, byo_time: float, byo_stones: int) -> TimeSettings:
    """``time_settings main byo_time byo_stones`` (GTP 2, section 6.3.4): byo_stones 0 with
    byo_time > 0 means no limit (GoGui sends ``0 1 0``); byo_time 0 means absolute time; else
    Canadian byo-yomi."""
    if byo_time > 0 and byo_stones == 0:
        return TimeSettings("none")
    if byo_time == 0 and main == 0:
        return TimeSettings("none")
    if byo_time == 0:
        return TimeSettings("absolute", main)
    return TimeSettings("canadian", main, byo_time, byo_stones)


class TimingCommands(CommandGroup):
    COMMANDS = {
        "time_settings": "time_settings",
        "time_left": "time_left",
        "kgs-time_settings": "kgs_time_settings",
        "cputime": "cputime",
    }

    def time_settings(self, args: list[str]) -> None:
        if len(args) != 3:
            raise syntax_error()
        main, byo, stones = number(args[0]), number(args[1]), integer(args[2])
        if main < 0 or byo < 0 or stones < 0:
            raise syntax_error()
        self.engine.clocks.start(time_settings_from_gtp(main, byo, stones))

    def time_left(self, args: list[str]) -> None:
        if len(args) != 3:
            raise syntax_error()
        self.engine.clocks.report(color(args[0]), number(args[1]), integer(args[2]))

    def kgs_time_settings(self, args: list[str]) -> None:
        """``kgs-time_settings none | absolute MAIN | byoyomi MAIN BYO PERIODS | canadian MAIN BYO STONES``;
        the periods and the stones are whole numbers, as in ``time_settings`` (a fraction is a
        syntax error, never cut down)."""
        if not args:
            raise syntax_error()
        kind = args[0].lower()
        nums = [number(a) for a in args[1:3]] + [integer(a) for a in args[3:]]
        if any(n < 0 for n in nums):
            raise syntax_error()
        if kind == "none" and not nums:
            settings = TimeSettings("none")
        elif kind == "absolute" and len(nums) == 1:
            settings = TimeSettings("absolute", nums[0])
        elif kind == "byoyomi" and len(nums) == 3:
            settings = TimeSettings("byoyomi", nums[0], nums[1], 0, int(nums[2]))
        elif kind == "canadian" and len(nums) == 3:
            settings = TimeSettings("canadian", nums[0], nums[1], int(nums[2]))
        else:
            raise syntax_error()
        self.engine.clocks.start(settings)

    def cputime(self) -> str:
        """The process's CPU seconds so far (GoGui's and twogtp's own accounting)."""
        return f"{time.process_time():.3f}"
