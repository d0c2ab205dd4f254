"""Time control: the settings of a game's clock, each player's clock as the engine keeps it, and
how much of it a move may spend. No text: GTP's ``time_settings`` / ``kgs-time_settings`` /
``time_left`` arguments are read by the GTP front-end (``goengine.gtp.timing``).

Reading guide: ``seconds_for_move`` is the allocation (``move_time``: with the part a search may
stretch); ``StopRule`` ends a search between its planned and its longest time; ``GameClocks`` holds
both players' clocks and the overhead seen; ``Clock.charge`` moves a clock forward by a
move's time and ``Clock.report`` takes the controller's figures; ``TimeSettings`` is the system.

The engine keeps both clocks itself, as Pachi and Fuego do: a controller need not send
``time_left`` (gogui-twogtp and many scripts never do). Each ``genmove`` is charged with the wall
time from the command's arrival to the flush of its answer (``goengine.gtp.protocol.serve``), so
the interpreter's and the protocol's overhead count; a ``time_left`` report, when one comes,
replaces the engine's figures. The worst overhead seen (charged time less search time) is kept
back on every move on top of MOVE_MARGIN.
"""

from __future__ import annotations

from dataclasses import dataclass

RESERVE_SHARE = 0.05  # of the main time, kept back for the game's last moves and for overheads
MIN_RESERVE = 0.5  # seconds: the least reserve
MOVE_MARGIN = 0.05  # seconds taken off every move: the protocol's round trip (measured: at most 0.015)
SAFETY_SHARE = 0.1  # of a byo-yomi period's time, kept back
SAFETY_SECONDS = 0.3  # and these seconds too: a period lost is a flag nearer
MIN_SECONDS = 0.001  # the least a move is given: the search still runs one batch of iterations
RESERVE_DRAW = 8.0  # inside the reserve a move takes the time left over 8 x the moves planned
EXTEND_VISIT_RATIO = 2.5  # Pachi: a search is unsure while its best move has fewer than 2.5 x the runner-up's visits

# The plan's share of Fuego's estimate when the settings leave it to the board (``SearchConfig.plan_share``
# None), measured against Pachi 12.90 at equal clocks (docs/results/pachi-baselines.md): on 9x9 at 30 s
# 0.7 won 70.0 % of 200 (1: 66.0 %), on 19x19 at 120 s 1 won 75.0 % of 60 (0.7: 60.0 %, its late
# middle game starved of time). A size between takes the nearer measured size's share.
SMALL_BOARD_PLAN_SHARE = 0.7
LARGE_BOARD_PLAN_SHARE = 1.0
LARGE_BOARD_FROM = 14  # nearer 19 than 9


def board_plan_share(size: int, plan_share: float | None = None) -> float:
    """``plan_share`` when it is set, else the share the board's size is given by default: 0.7 of
    Fuego's estimate below LARGE_BOARD_FROM (short games decided early), Fuego's estimate itself
    from there up (long games decided late)."""
    if plan_share is not None:
        return plan_share
    return LARGE_BOARD_PLAN_SHARE if size >= LARGE_BOARD_FROM else SMALL_BOARD_PLAN_SHARE


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

    @property
    def has_byoyomi(self) -> bool:
        return self.kind in ("canadian", "byoyomi")


@dataclass
class Clock:
    """One player's clock, as the engine keeps it: ``main`` seconds left (negative once a flag
    fell), and in byo-yomi the ``period`` time left (Canadian: of the current period; Japanese:
    a period's length) with its ``stones`` left (Canadian; 0 in main time) or the ``periods``
    left (Japanese). ``reported``: the figures are the controller's last ``time_left``."""

    main: float = 0.0
    period: float = 0.0
    stones: int = 0
    periods: int = 0
    reported: bool = False

    @classmethod
    def full(cls, settings: TimeSettings) -> Clock:
        """The clock at the start of a game under ``settings``."""
        return cls(settings.main, settings.byo_time, 0, settings.periods)

    def in_byoyomi(self, settings: TimeSettings) -> bool:
        return settings.has_byoyomi and self.main <= 0

    def charge(self, settings: TimeSettings, seconds: float) -> None:
        """Move the clock forward by one move that took ``seconds``: main time first, then the
        byo-yomi the rules give (a Canadian period counts its moves and starts again when they are
        played; a Japanese move that overruns a period uses it up)."""
        if settings.kind == "none":
            return
        overtime = seconds
        if self.main > 0:
            used = min(self.main, seconds)
            self.main -= used
            overtime = seconds - used
            if overtime <= 0 and self.main > 0:
                return
        if settings.kind == "absolute":
            self.main -= overtime
            return
        self.main = min(self.main, 0.0)
        if settings.kind == "canadian":
            if self.stones <= 0:  # entering byo-yomi: a fresh period
                self.period, self.stones = settings.byo_time, settings.byo_stones
            self.period -= overtime
            self.stones -= 1
            if self.stones == 0 and self.period >= 0:
                self.period, self.stones = settings.byo_time, settings.byo_stones
        else:
            while overtime > settings.byo_time and self.periods > 0:
                overtime -= settings.byo_time
                self.periods -= 1
        self.reported = False

    def report(self, settings: TimeSettings, seconds: float, stones: int) -> None:
        """The controller's ``time_left``: ``stones`` 0 means main time (``seconds`` of it left);
        otherwise byo-yomi: a Canadian period's time and its stones left, or (KGS's convention for
        Japanese byo-yomi) a period's time and the periods left. A Japanese report of at most one
        period with stones 0 is read as byo-yomi too: some controllers send 0 there."""
        if stones > 0 or (settings.kind == "byoyomi" and seconds <= settings.byo_time and settings.main == 0):
            self.main = 0.0
            self.period = seconds
            if settings.kind == "byoyomi":
                self.periods = stones or max(1, self.periods)
            else:
                self.stones = stones
        else:
            self.main = seconds
        self.reported = True


def moves_to_plan(empty_points: int, size: int, share: float | None = 1.0) -> float:
    """How many moves of its own a player still expects to play, as Fuego's SgDefaultTimeControl
    estimates it: half the empty points beyond a quarter of the board, and never fewer than 3N/2,
    so the time left is never planned over fewer moves than an endgame takes. ``share`` scales
    the estimate but not its floor: below 1 the time left is spread over fewer moves, so a move
    now gets more and the game's last moves less (games between engines that resign end well
    before the board is full). ``share`` None: the board's default (``board_plan_share``)."""
    share = board_plan_share(size, share)
    return max(share * (empty_points - size * size / 4.0), 3.0 * size) / 2.0


def seconds_for_move(
    settings: TimeSettings,
    clock: Clock,
    empty_points: int,
    size: int,
    overhead: float = 0.0,
    plan_share: float | None = 1.0,
) -> float | None:
    """The thinking time the clock allows for this move, or None without a clock: the planned
    seconds of ``move_time``."""
    allotted = move_time(settings, clock, empty_points, size, overhead, plan_share)
    return None if allotted is None else allotted.planned


@dataclass(frozen=True)
class MoveTime:
    """A move's thinking time under a clock: ``planned``, and ``extendable``, the part of it taken
    from the main time's plan (0 in byo-yomi and inside the reserve), which an unsure search may
    stretch (``longest``)."""

    planned: float
    extendable: float

    def longest(self, extend: float) -> float:
        """The most the move may take when its search stays unsure: the planned time plus
        ``extend`` times its extendable part. Pachi lets a move run to twice its allotment
        (``extend`` 1); the plan spreads what is left over at least 3N/2 more moves, so one move
        at most doubles its share of it and the reserve is never touched."""
        return self.planned + extend * self.extendable


def move_time(
    settings: TimeSettings,
    clock: Clock,
    empty_points: int,
    size: int,
    overhead: float = 0.0,
    plan_share: float | None = 1.0,
) -> MoveTime | None:
    """The thinking time the clock allows for this move, or None without a clock. ``overhead``: the
    worst time a move has cost beyond its search so far (kept back with MOVE_MARGIN).

    In main time: the time left less a reserve (RESERVE_SHARE of the main time, at least
    MIN_RESERVE) over the moves still expected (``moves_to_plan``, its estimate scaled by
    ``plan_share``), less the margin. The estimate shrinks towards 3N/2 moves while the time
    left keeps shrinking, so a move in the middle game gets more than one near the end, and the
    reserve is never planned away: a game that outlasts the plan plays on inside it, each move
    taking the time left less the margin over RESERVE_DRAW times the moves planned, so it lasts
    and lasts (only the per-move overhead, about 0.01 s, is spent whatever happens). Either way
    a move never plans on more than the time left less the margin. When byo-yomi follows, a move
    may add one period's share (a Canadian period over its stones, or a Japanese period); once
    the main time left is no more than that share, the engine enters byo-yomi deliberately: it
    plays in the period and lets the main time run out within that move, never counting on main
    time it does not have. In byo-yomi: a Japanese period's time, or a Canadian period's time
    left over its stones left, less SAFETY_SHARE, SAFETY_SECONDS and the margin."""
    if settings.kind == "none":
        return None
    margin = max(MOVE_MARGIN, overhead)

    def period_share(seconds: float) -> float:
        return max(0.0, seconds * (1 - SAFETY_SHARE) - SAFETY_SECONDS - margin)

    if clock.in_byoyomi(settings):
        if settings.kind == "byoyomi":
            if clock.periods <= 0:
                return MoveTime(MIN_SECONDS, 0.0)  # the flag has fallen: answer at once
            return MoveTime(max(MIN_SECONDS, period_share(clock.period)), 0.0)
        stones = clock.stones if clock.stones > 0 else settings.byo_stones
        period = clock.period if clock.stones > 0 else settings.byo_time
        return MoveTime(max(MIN_SECONDS, period_share(period / max(1, stones))), 0.0)
    reserve = max(MIN_RESERVE, RESERVE_SHARE * settings.main)
    plan = moves_to_plan(empty_points, size, plan_share)
    planned = (clock.main - reserve) / plan - margin  # never more than the time left less the reserve
    lasting = (clock.main - margin) / (RESERVE_DRAW * plan)  # what a move takes inside the reserve
    main_part = max(planned, lasting)
    extendable = max(0.0, planned) if planned >= lasting else 0.0  # inside the reserve: no stretching
    if settings.kind == "absolute":
        return MoveTime(max(MIN_SECONDS, main_part), extendable)
    if settings.kind == "canadian":
        byo_part = period_share(settings.byo_time / max(1, settings.byo_stones))
    else:
        byo_part = period_share(settings.byo_time)
    if clock.main <= byo_part + margin:  # the main time is all but gone: into byo-yomi, deliberately
        return MoveTime(max(MIN_SECONDS, byo_part), 0.0)
    return MoveTime(max(MIN_SECONDS, max(0.0, main_part) + byo_part), extendable)


@dataclass(frozen=True)
class StopRule:
    """When the search of a move under a clock ends, between its ``planned`` seconds and its
    ``longest`` (``MoveTime``), as Pachi (``uct/search.c``: its early stop and its extension) and
    Fuego (``SgUctSearch::CheckAbort``) decide it. The search is unsure while its best move has
    fewer than EXTEND_VISIT_RATIO times the runner-up's visits or the runner-up's win rate is
    higher (Pachi's extension in ``uct/search.c``; tactics_notes.md section 13). Its end is then the
    longest time, else the planned time; it stops at its end, or before it once the runner-up
    cannot catch up: the best move leads it by more visits than the time left to the end gives
    at the rate so far (Fuego and Pachi), so the time is kept for later moves.

    The engine plays the most visited move, so stopping once the runner-up cannot catch up never
    changes the move that searching on to the end would have played."""

    planned: float
    longest: float

    def settled(self, elapsed: float, playouts: int, best: tuple[int, float], second: tuple[int, float]) -> bool:
        """Whether to stop after ``elapsed`` seconds and ``playouts`` playouts of this search,
        the root's two most visited moves having ``best`` and ``second`` (searched visits, win
        rate); a root with one move has a runner-up of (0, 0.0)."""
        (best_visits, best_rate), (second_visits, second_rate) = best, second
        unsure = best_visits < EXTEND_VISIT_RATIO * second_visits or second_rate > best_rate
        end = self.longest if unsure else self.planned
        if elapsed >= end:
            return True
        rate = playouts / elapsed if elapsed > 0 else 0.0
        return playouts > 0 and best_visits - second_visits > rate * (end - elapsed)


class GameClocks:
    """Both players' clocks in one game, as the engine keeps them: the ``settings``, a ``Clock``
    for each colour (BLACK 1, WHITE 2), and the ``overhead``, the most a move has cost beyond its
    search (kept back on every later move by ``seconds_for_move``)."""

    def __init__(self, settings: TimeSettings | None = None):
        self.overhead = 0.0
        self.start(settings or TimeSettings())

    def start(self, settings: TimeSettings | None = None) -> None:
        """Both clocks full, under ``settings`` (default: the ones in force): a new game, or a new
        time system."""
        if settings is not None:
            self.settings = settings
        self.clocks = {color: Clock.full(self.settings) for color in (1, 2)}

    def __getitem__(self, color: int) -> Clock:
        return self.clocks[color]

    def report(self, color: int, seconds: float, stones: int) -> None:
        """The controller's report of ``color``'s clock (GTP ``time_left``): it replaces the
        engine's own figures."""
        self.clocks[color].report(self.settings, float(seconds), int(stones))

    def charge(self, color: int, seconds: float, searched: float | None = None) -> None:
        """``color``'s move took ``seconds`` of the controller's time (from its command's arrival
        to its answer's flush): move the clock forward; when the move was a search of
        ``searched`` seconds, keep the worst overhead beyond it."""
        self.clocks[color].charge(self.settings, seconds)
        if searched is not None:
            self.overhead = max(self.overhead, seconds - searched)

    def seconds_for_move(
        self, color: int, empty_points: int, size: int, plan_share: float | None = 1.0
    ) -> float | None:
        """The thinking time ``color``'s clock allows for a move with ``empty_points`` empty points
        on a ``size`` board, or None without a clock (``seconds_for_move``)."""
        return seconds_for_move(self.settings, self.clocks[color], empty_points, size, self.overhead, plan_share)

    def move_time(self, color: int, empty_points: int, size: int, plan_share: float | None = 1.0) -> MoveTime | None:
        """``seconds_for_move`` with the part an unsure search may stretch (``move_time``)."""
        return move_time(self.settings, self.clocks[color], empty_points, size, self.overhead, plan_share)
