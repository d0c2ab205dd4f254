"""What a match prints and draws: the result table (text or Markdown), the sequential test's
columns, the ratings table of a tournament, how the games ended, the time profile of games under
a clock, and the plots (win rates, ratings, time per move).

Reading guide: ``format_table`` is the table of one folder's records (``table_cells`` its rows,
from ``lab.stats.summarize``); ``format_ratings`` the tournament's Elo table (``lab.ratings``);
``format_endings`` how the games goengine won and lost ended (resignation, the count, the
clock) and how long they were; ``format_time_profile`` where in a game goengine spent its clock;
``plot_rates``, ``plot_ratings`` and ``plot_times`` write PNG files with matplotlib when it is
installed (they return False otherwise). ``show`` prints and draws all of it for a folder's
records, as a ``View`` says.
"""

from __future__ import annotations

import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from goengine.lab import Usage
from goengine.lab.ratings import Rating, Result, rate
from goengine.lab.sprt import Sprt
from goengine.lab.stats import score, summarize

TABLE_HEADER = (
    "configuration",
    "games",
    "win %",
    "95% interval",
    "Elo interval",
    "as B",
    "as W",
    "moves",
    "s/move",
    "max s",
    "opp s/mv",
    "voids",
    "score?",
)
TABLE_WIDTHS = (-16, 5, 6, 15, 17, 9, 9, 6, 7, 6, 8, 5, 6)  # negative: left-aligned
SPRT_HEADER = ("LLR", "bounds", "verdict")
SPRT_WIDTHS = (7, 15, 8)
TABLE_NOTE = (
    "win % counts a draw as half; interval: Wilson 95 %; Elo from its ends; as B / as W: win % / games "
    "with that colour; s/move: goengine's seconds per move, max s its longest move, opp s/mv the opponent's; "
    "score?: games whose final_score (either engine) disagreed with our area count"
)
SPRT_NOTE = (
    "; LLR: the SPRT's log-likelihood ratio (a draw half a win), bounds: Wald's, verdict: H1 (at least "
    "ELO1), H0 (no better than ELO0) or continue"
)


def _pct(w: float, n: int) -> str:
    return f"{100 * w / n:.0f}%/{n}" if n else "-"


def _elo(x: float) -> str:
    return "-inf" if x == -math.inf else "+inf" if x == math.inf else f"{x:+.0f}"


def sprt_cells(summary) -> tuple[str, str, str]:
    """The LLR, bounds and verdict of a summary's sequential test (blank without one)."""
    if not summary.sprt:
        return ("", "", "")
    test = Sprt(**summary.sprt)
    lower, upper = test.bounds
    return (
        f"{test.llr(summary.won, summary.draws, summary.lost):+.2f}",
        f"[{lower:+.2f}, {upper:+.2f}]",
        test.status(summary.won, summary.draws, summary.lost),
    )


def table_cells(records: list[dict]) -> list[tuple[str, ...]]:
    """One row of cells per configuration, in TABLE_HEADER's order, then SPRT_HEADER's when any
    configuration was played under a sequential test."""
    summaries = summarize(records)
    with_sprt = any(s.sprt for s in summaries)
    rows = []
    for s in summaries:
        lo, hi = s.interval
        elo_lo, elo_hi = s.elo_interval
        row = (
            s.config,
            str(s.games),
            f"{100 * s.rate:.1f}%",
            f"[{100 * lo:.1f}, {100 * hi:.1f}]",
            f"[{_elo(elo_lo)}, {_elo(elo_hi)}]",
            _pct(s.black_wins, s.black_games),
            _pct(s.white_wins, s.white_games),
            f"{s.moves / max(1, s.games):.1f}",
            f"{s.engine_seconds / max(1, s.engine_moves):.2f}",
            f"{s.engine_longest:.2f}",
            f"{s.opponent_seconds / max(1, s.opponent_moves):.2f}",
            str(s.voids),
            str(s.disagreements),
        )
        rows.append(row + sprt_cells(s) if with_sprt else row)
    return rows


def format_table(records: list[dict], markdown: bool = False) -> str:
    """The result table: aligned text for a terminal, or Markdown (for docs/results.md)."""
    cells = table_cells(records)
    with_sprt = bool(cells) and len(cells[0]) > len(TABLE_HEADER)
    header = TABLE_HEADER + SPRT_HEADER if with_sprt else TABLE_HEADER
    widths = TABLE_WIDTHS + SPRT_WIDTHS if with_sprt else TABLE_WIDTHS
    note = TABLE_NOTE + (SPRT_NOTE if with_sprt else "")
    return _format(header, widths, cells, note, markdown)


def _format(header, widths, cells, note: str, markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines + ["", note])
    lines = [
        " ".join(f"{cell:<{-w}}" if w < 0 else f"{cell:>{w}}" for cell, w in zip(row, widths, strict=True))
        for row in [header, *cells]
    ]
    return "\n".join(lines + [note])


RATINGS_HEADER = ("player", "Elo", "95% interval", "games", "score")
RATINGS_WIDTHS = (-24, 6, 15, 6, 7)


def format_ratings(ratings: list[Rating], anchor: str, markdown: bool = False) -> str:
    """The tournament's ratings, best first, on one scale with ``anchor`` at 0."""
    cells = [
        (r.player, f"{r.elo:+.0f}", f"[{r.low:+.0f}, {r.high:+.0f}]", str(r.games), f"{100 * r.score:.1f}%")
        for r in ratings
    ]
    note = (
        f"Bradley-Terry maximum likelihood, {anchor} = 0, one virtual draw per pair; interval: 2.5th-97.5th "
        "percentiles of a bootstrap of each pair's games (the virtual draw counted in); score: points (a draw "
        "half) per game"
    )
    return _format(RATINGS_HEADER, RATINGS_WIDTHS, cells, note, markdown)


TIME_STAGES = 4  # the stages of a game the time profile splits goengine's moves into


ENDINGS = (  # (column, the start of a record's reason that counts in it)
    ("resignation", "resignation"),
    ("count", "two passes"),
    ("time", "time"),
    ("illegal move", "illegal move"),
    ("move cap", "move cap"),
)


def endings_cells(records: list[dict]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """Per configuration, a row for the games goengine won, one for those it lost and one for the
    draws (when there are any): the games, how many ended by each of ``ENDINGS`` (a won game "by
    resignation" is one the opponent resigned), and the median and the range of their lengths in
    moves. Void games are left out. The header, then the rows."""
    header = ("configuration", "games", *(name for name, _ in ENDINGS), "median moves", "moves")
    rows = []
    played = [r for r in records if not r.get("void")]
    for config in dict.fromkeys(r["config"] for r in played):
        games = [r for r in played if r["config"] == config]
        for outcome, won in (("won", True), ("lost", False), ("drawn", None)):
            these = [r for r in games if r["engine_won"] is won]
            if not these and won is None:
                continue
            counts = [sum(r["reason"].startswith(start) for r in these) for _, start in ENDINGS]
            lengths = sorted(r["n_moves"] for r in these)
            median = f"{statistics.median(lengths):g}" if lengths else "-"
            span = f"{lengths[0]}-{lengths[-1]}" if lengths else "-"
            rows.append((f"{config}: {outcome}", str(len(these)), *map(str, counts), median, span))
    return header, rows


def format_endings(records: list[dict], markdown: bool = False) -> str:
    """How the games ended: ``endings_cells`` as a table ("" without a game played)."""
    header, rows = endings_cells(records)
    if not rows:
        return ""
    widths = (-22, 5, *(max(5, len(name)) for name, _ in ENDINGS), 12, 9)
    note = (
        "won / lost / drawn: goengine's result; resignation: the loser resigned; count: two passes, then "
        "the area count; time: the loser's flag fell; illegal move: the loser's; moves: the game's length"
    )
    return _format(header, widths, rows, note, markdown)


def under_a_clock(records: list[dict]) -> list[dict]:
    """The records of the games played under a clock, void ones left out."""
    return [r for r in records if r.get("time") and not r.get("void")]


def time_stage_length(size: int) -> int:
    """A side's own moves in one stage of the time profile: an eighth of the board's points, so
    that the first three stages cover the first three quarters of the points in game moves and the
    fourth the rest (45 moves a stage on 19x19, 10 on 9x9)."""
    return max(1, size * size // 8)


def time_profile_cells(records: list[dict]) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """For the games played under a clock, per configuration, a row for goengine and one for its
    opponent: the games, the clock the side used in a game (mean seconds), and its mean seconds a
    move in each stage of the game (its own moves 1 to L, L+1 to 2L, ..., L by
    ``time_stage_length`` of the first such game's size, for every game). A stage no game reached
    is "-". The header, then the rows; no rows without a game under a clock."""
    timed = under_a_clock(records)
    if not timed:
        return (), []
    length = time_stage_length(timed[0]["size"])
    stages = [f"{k * length + 1}-{(k + 1) * length}" for k in range(TIME_STAGES - 1)]
    stages.append(f"{(TIME_STAGES - 1) * length + 1}+")
    header = ("configuration", "games", "clock used", f"its moves {stages[0]}", *stages[1:])
    rows = []
    for config in dict.fromkeys(r["config"] for r in timed):
        games = [r for r in timed if r["config"] == config]
        rows.append(_time_profile_row(config, games, length, mine=True))
        rows.append(_time_profile_row(f"{config}'s opponent", games, length, mine=False))
    return header, rows


def _time_profile_row(label: str, games: list[dict], length: int, mine: bool) -> tuple[str, ...]:
    """One row of the time profile, in stages of ``length`` moves: goengine's side of ``games``
    (``mine``) or its opponent's."""
    spent = [0.0] * TIME_STAGES
    counted = [0] * TIME_STAGES
    used = 0.0
    for r in games:
        times = r["black" if r["engine_black"] == mine else "white"].get("times") or []
        used += sum(times)
        for k, seconds in enumerate(times):
            stage = min(k // length, TIME_STAGES - 1)
            spent[stage] += seconds
            counted[stage] += 1
    stages = tuple(f"{t / n:.2f}" if n else "-" for t, n in zip(spent, counted, strict=True))
    return (label, str(len(games)), f"{used / len(games):.1f} s", *stages)


def format_time_profile(records: list[dict], markdown: bool = False) -> str:
    """Where in a game goengine spent its clock: ``time_profile_cells`` as a table ("" without a
    game under a clock)."""
    header, rows = time_profile_cells(records)
    if not rows:
        return ""
    widths = (-22, 5, 10) + tuple(max(6, len(h)) for h in header[3:])
    clocks = ", ".join(sorted({str(r["time"]) for r in under_a_clock(records)}))
    note = (
        f"clock used: the side's seconds in a game, mean over the games under a clock ({clocks}); then its "
        "mean seconds a move in each stage of the game, counted in its own moves"
    )
    return _format(header, widths, rows, note, markdown)


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plot_rates(records: list[dict], path: Path) -> bool:
    """Each configuration's win rate with its Wilson interval."""
    plt = _pyplot()
    summaries = [s for s in summarize(records) if s.games]
    if plt is None or not summaries:
        return False
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(summaries) + 2), 3.5))
    xs = range(len(summaries))
    rates = [100 * s.rate for s in summaries]
    lows = [100 * (s.rate - s.interval[0]) for s in summaries]
    highs = [100 * (s.interval[1] - s.rate) for s in summaries]
    ax.errorbar(xs, rates, yerr=[lows, highs], fmt="o", capsize=5)
    ax.set_xticks(list(xs), [f"{s.config}\n({s.games} games)" for s in summaries], fontsize=8)
    ax.set_ylabel("win rate against the opponent (%)")
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", lw=0.5)
    ax.set_title("goengine match results, Wilson 95 % intervals", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def plot_ratings(ratings: list[Rating], anchor: str, path: Path) -> bool:
    """The tournament's ratings with their bootstrap intervals, best on top."""
    plt = _pyplot()
    if plt is None or not ratings:
        return False
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(ratings) + 1.5))
    ys = list(range(len(ratings)))[::-1]
    ax.errorbar(
        [r.elo for r in ratings],
        ys,
        xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(ys, [f"{r.player} ({r.games} games)" for r in ratings], fontsize=8)
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel(f"Elo ({anchor} = 0)")
    ax.set_title("ratings, 95 % bootstrap intervals", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def plot_times(records: list[dict], path: Path) -> bool:
    """goengine's thinking time per move over each game played under a clock, one line a game."""
    plt = _pyplot()
    timed = under_a_clock(records)
    if plt is None or not timed:
        return False
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for r in timed:
        times = r["black" if r["engine_black"] else "white"].get("times") or []
        ax.plot(range(1, len(times) + 1), times, lw=0.8, alpha=0.6)
    ax.set_xlabel("goengine's move")
    ax.set_ylabel("seconds")
    ax.set_title(f"goengine's time per move, {len(timed)} games, clock {timed[0]['time']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


@dataclass(frozen=True)
class View:
    """How a folder's results are shown: Markdown tables or text, plots drawn or not, and a
    tournament's ratings: the player rated 0 (``anchor``; None: gnugo, else the last player) and
    the bootstrap's resamples and seed for their intervals."""

    markdown: bool = False
    plot: bool = True
    anchor: str | None = None
    bootstrap: int = 1000
    seed: int = 1


def show(records: list[dict], out: Path, view: View) -> None:
    """The table on stdout, how the games ended, and for games under a clock the time profile
    after it; with ``view.plot``, the plots in ``out`` (winrate.png; time.png for games under a
    clock); for a tournament folder, the ratings table and ratings.png too."""
    if records:
        print(format_table(records, markdown=view.markdown))
        if view.plot and plot_rates(records, out / "winrate.png"):
            print(f"plot: {out / 'winrate.png'}", file=sys.stderr)
        if view.plot and plot_times(records, out / "time.png"):
            print(f"plot: {out / 'time.png'}", file=sys.stderr)
        for table in (
            format_endings(records, view.markdown),
            format_time_profile(records, view.markdown),
        ):
            if table:
                print()
                print(table)
    table = tournament_ratings(records, view)
    if table:
        ratings, anchor = table
        print()
        print(format_ratings(ratings, anchor, markdown=view.markdown))
        if view.plot and plot_ratings(ratings, anchor, out / "ratings.png"):
            print(f"plot: {out / 'ratings.png'}", file=sys.stderr)


def tournament_ratings(records: list[dict], view: View) -> tuple[list, str] | None:
    """The ratings table of a tournament's records (those that name their ``pair``), or None
    when there are none."""
    results, players = [], []
    for config in dict.fromkeys(r["config"] for r in records if r.get("pair") and not r.get("void")):
        a, b = next(r["pair"] for r in records if r["config"] == config)
        won, draws, lost = score(records, config)
        results.append(Result(a, b, won, draws, lost))
        players += [p for p in (a, b) if p not in players]
    if len(players) < 2:
        return None
    anchor = view.anchor or ("gnugo" if "gnugo" in players else players[-1])
    if anchor not in players:
        raise Usage(f"--anchor {anchor!r} is not a player of this tournament: {', '.join(players)}")
    return rate(players, results, anchor, samples=view.bootstrap, seed=view.seed), anchor
