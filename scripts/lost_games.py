"""Where goengine's lost games were lost, and what kind of loss each was.

    goengine review GAMES --playouts 5000 --threads 1 --mistakes 3 > review.txt   # GAME-review.sgf beside each
    python scripts/lost_games.py results/pachi-baseline-9x9-30s --reviews results/pachi-baseline-9x9-30s/review

For every game of the match folder's ``games.jsonl`` that goengine lost, its review SGF (the file
``goengine review`` writes, ``NAME-review.sgf`` for the game's ``NAME.sgf``, in ``--reviews``)
gives the reviewer's win rate for goengine after every move (``SBKV``, Black's) and each move's
loss. From them and the record:

- **lost at**: the move after which the reviewer's win rate for goengine stays below 50 % to the
  end, and whose move it was (goengine's or the opponent's). A game whose curve fell for good only
  in its last ``LATE`` moves was, to the reviewer, still won shortly before the end: a **late
  fall**. The reviewer is goengine's own search with a larger budget, so such a game was lost to
  something its playouts misjudge, not to a move more time would have found.
- **stage**: the stage of the game ``lost at`` falls in, in quarters of the board's points
  (moves 1-20, 21-40, 41-60 and 61 on, on 9x9).
- **biggest mistake**: goengine's move with the largest loss of win rate, that loss, its loss in
  points, the seconds goengine spent on it against its median for the game, and its clock left
  before it.
- **kind**: ``time`` when goengine lost on time; else ``group`` when goengine lost at least
  ``GROUP_STONES`` stones more than the opponent, captured during the game or dead at its end
  (GNU Go's ``final_status_list dead`` on the last position): a group that died or a race lost;
  else ``points``: no group was lost, the game was lost on the count of territory.

GNU Go (``--gnugo``, Debian's ``/usr/games/gnugo``) is the judge of the dead stones, an engine
with other blind spots than goengine's. GNU Go 3.8 crashes judging a few positions: such a game is
named on stderr with the reason and left out of the tables, a new GNU Go judges the games after
it, and the exit status is 1 (as it is when a lost game has no review or no figures).
``--json`` prints one object a game instead of the tables.

``--from-records`` reads no review: the curve is goengine's own view during the game, the root
win rates the match laboratory kept for each of its moves (``kata-genmove_analyze``'s, in the
record's ``evaluations``). After goengine's move it is the win rate its search gave that move;
after the opponent's, the one its next search began from (the last figure for moves after its
last search). Its searches choose their best move, so no move of its own loses anything by its
own search; the **biggest mistake** is then the move of goengine's after which its win rate fell
most by its next search (the move and the reply it did not see), in win rate and in score lead.
This reading searches nothing (a review searches every position again), and its judge is the
player itself with the time it had in the game.

    python scripts/lost_games.py results/clock-distance3-plan07-19x19-120s-vs-pachi --from-records
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shlex
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from sgfmill import sgf as sgfmill

from goengine import coords
from goengine.board import BLACK, WHITE, Board
from goengine.lab.client import GtpClient, GtpClientError
from goengine.lab.records import CorruptRecords, load_records
from goengine.lab.referee import GNUGO, replay_record
from goengine.lab.referee_clock import TimeControl

LATE = 4  # a curve that falls below 50 % for good only in the last LATE moves: a late fall
GROUP_STONES = 5  # stones lost beyond the opponent's that make a loss a group's
LOSS = re.compile(r"Move (\d+) \([BW] [A-Z]+\d*\): loss (-?[\d.]+) % of \w+'s win rate, (-?[\d.]+) points")


@dataclass(frozen=True)
class LostGame:
    """One lost game, as the module's docstring defines its figures (win rates in percent)."""

    game: str
    color: str
    moves: int
    lost_at: int
    lost_by: str  # "goengine" or "opponent": whose move lost_at is
    late_fall: bool
    stage: str
    mistake_move: int
    mistake_winrate_loss: float
    mistake_points_loss: float
    mistake_seconds: float | None
    median_seconds: float | None
    clock_left: float | None
    stones_lost: int  # goengine's stones captured in the game or dead at its end
    stones_won: int  # the opponent's
    kind: str


def curve(review: Path, color: int) -> tuple[list[float], dict[int, tuple[float, float]]]:
    """From a review SGF: the reviewer's win rate for ``color`` after each move of the main line
    (percent), and each move's (win-rate loss, points loss) by its number."""
    game = sgfmill.Sgf_game.from_bytes(review.read_bytes())
    rates: list[float] = []
    losses: dict[int, tuple[float, float]] = {}
    for node in game.get_main_sequence()[1:]:
        if node.get_move()[0] is None:
            continue
        black = float(node.get("SBKV"))
        rates.append(black if color == BLACK else 100.0 - black)
        match = LOSS.search(node.get("C") if node.has_property("C") else "")
        if match:
            losses[int(match.group(1))] = (float(match.group(2)), float(match.group(3)))
    return rates, losses


def curve_from_record(record: dict) -> tuple[list[float], dict[int, tuple[float, float]]] | None:
    """From a record's own evaluations (``--from-records``, module docstring): goengine's win rate
    after each move (percent), and for each of its moves the fall of its win rate and score lead
    by its next search; None when the record kept no figures of goengine's."""
    color = BLACK if record["engine_black"] else WHITE
    letter = "B" if color == BLACK else "W"
    figures = (record["black" if color == BLACK else "white"] or {}).get("evaluations") or []
    own = [n for n, move in enumerate(record["moves"], 1) if move.startswith(letter)]
    # one figure a search: before each of its moves, and one more when it resigned after the last
    ends = own + [len(record["moves"]) + 1]
    searched = [(n, f) for n, f in zip(ends, figures, strict=False) if f]
    if not searched:
        return None
    rates: list[float] = []
    losses: dict[int, tuple[float, float]] = {}
    nxt = 0  # the first search at or after the move being read
    for n in range(1, len(record["moves"]) + 1):
        while nxt < len(searched) and searched[nxt][0] < n:
            nxt += 1
        if nxt < len(searched) and searched[nxt][0] == n:
            rate = searched[nxt][1][0]  # goengine's move: its search's value of it
            if nxt + 1 < len(searched):
                after = searched[nxt + 1][1]
                losses[n] = (100.0 * (rate - after[0]), searched[nxt][1][1] - after[1])
        else:
            rate = searched[min(nxt, len(searched) - 1)][1][0]  # the opponent's move: its next search
        rates.append(100.0 * rate)
    return rates, losses


def lost_at(rates: list[float]) -> int:
    """The move (numbered from 1) after which ``rates`` stay below 50 to the end: 1 when they
    never reach 50 after move 1, len(rates) + 1 when the last is not below 50."""
    k = len(rates)
    while k > 0 and rates[k - 1] < 50.0:
        k -= 1
    return k + 1


def stage_name(move: int, size: int) -> str:
    """The quarter of the board's points a move number falls in: "1-20", ..., "61+" on 9x9."""
    quarter = max(1, size * size // 4)
    k = min((move - 1) // quarter, 3)
    return f"{k * quarter + 1}+" if k == 3 else f"{k * quarter + 1}-{(k + 1) * quarter}"


def captured_stones(size: int, moves: list[str], handicap: list[str] = ()) -> tuple[Board, dict[int, int]]:
    """The game replayed from its ``handicap`` stones (vertices, Black's): its last board and how
    many stones of each colour were captured."""
    board = Board.from_stones(size, [(BLACK, coords.from_gtp(size, v)) for v in handicap])
    lost = {BLACK: 0, WHITE: 0}
    for move in moves:
        color, vertex = move.split()
        color = BLACK if color == "B" else WHITE
        taken = board.play(color, vertex, superko=False)
        lost[WHITE if color == BLACK else BLACK] += taken
    return board, lost


def dead_stones(gnugo: GtpClient, record: dict, board: Board) -> dict[int, int]:
    """GNU Go's dead stones of each colour in the game's last position (``board``, the game
    replayed, tells their colours)."""
    replay_record(gnugo, record)
    dead = {BLACK: 0, WHITE: 0}
    for vertex in gnugo.send("final_status_list dead").split():
        color = board.color_at(vertex)
        if color in dead:
            dead[color] += 1
    return dead


def examine(record: dict, reading: tuple[list[float], dict[int, tuple[float, float]]], gnugo: GtpClient) -> LostGame:
    """The figures of one lost game (``record``, a line of games.jsonl) from its ``reading``: the
    curve and the losses of its review (``curve``) or of its record (``curve_from_record``)."""
    color = BLACK if record["engine_black"] else WHITE
    rates, losses = reading
    at = lost_at(rates)
    letter = "B" if color == BLACK else "W"
    first = next(k + 1 for k, move in enumerate(record["moves"]) if move.startswith(letter))  # then every other
    # a game of one search has no fall to charge: its first move, with none
    own = {n: losses[n] for n in range(first, len(rates) + 1, 2) if n in losses} or {first: (0.0, 0.0)}
    mistake = max(own, key=lambda n: own[n][0])
    times = record["black" if color == BLACK else "white"].get("times") or []
    index = (mistake - first) // 2
    seconds = times[index] if index < len(times) else None
    main_time = TimeControl.parse(str(record["time"])).main if record.get("time") else None
    clock_left = main_time - sum(times[:index]) if main_time is not None and times else None
    board, captured = captured_stones(record["size"], record["moves"], record.get("handicap_stones") or [])
    dead = dead_stones(gnugo, record, board)
    other = WHITE if color == BLACK else BLACK
    stones_lost, stones_won = captured[color] + dead[color], captured[other] + dead[other]
    if record["reason"] == "time":
        kind = "time"
    elif stones_lost - stones_won >= GROUP_STONES:
        kind = "group"
    else:
        kind = "points"
    by_goengine = at <= len(rates) and (at - first) % 2 == 0
    return LostGame(
        game=Path(record["sgf"]).stem,
        color=letter,
        moves=len(rates),
        lost_at=at,
        lost_by="goengine" if by_goengine else "opponent",
        late_fall=at > len(rates) - LATE,
        stage=stage_name(min(at, len(rates)), record["size"]),
        mistake_move=mistake,
        mistake_winrate_loss=own[mistake][0],
        mistake_points_loss=own[mistake][1],
        mistake_seconds=seconds,
        median_seconds=statistics.median(times) if times else None,
        clock_left=clock_left,
        stones_lost=stones_lost,
        stones_won=stones_won,
        kind=kind,
    )


def tables(games: list[LostGame], size: int, own_view: bool = False) -> str:
    """The lost games summed up: by kind and by stage, then the late falls and the time. With
    ``own_view`` (the curve from the records) whose move the fall was is left out: goengine's own
    curve changes only when it sees the opponent's move."""
    n = len(games)
    header = (
        "kind    games  late falls  lost at (median move)  stones lost beyond the opponent's (median)  "
        "goengine's biggest mistake (median win-rate loss, points)"
    )
    lines = [f"{n} lost games", "", header]
    for kind in ("group", "points", "time"):
        these = [g for g in games if g.kind == kind]
        if these:
            lines.append(
                f"{kind:7} {len(these):5}  {sum(g.late_fall for g in these):10}  "
                f"{statistics.median(g.lost_at for g in these):21g}  "
                f"{statistics.median(g.stones_lost - g.stones_won for g in these):42g}  "
                f"{statistics.median(g.mistake_winrate_loss for g in these):.1f} %, "
                f"{statistics.median(g.mistake_points_loss for g in these):.1f}"
            )
    stages = [stage_name(m, size) for m in (1, size * size // 4 + 1, size * size // 2 + 1, 3 * size * size // 4 + 1)]
    lines += [
        "",
        "stage of the game where the curve fell for good: "
        + ", ".join(f"{s} {sum(g.stage == s for g in games)}" for s in stages),
    ]
    late = [g for g in games if g.late_fall]
    by_goengine = sum(g.lost_by == "goengine" for g in games)
    lines.append(f"late falls (below 50 % for good only in the last {LATE} moves): {len(late)} of {n}")
    if not own_view:
        lines.append(f"the fall's move was goengine's: {by_goengine} of {n}")
    timed = [g for g in games if g.mistake_seconds is not None and g.median_seconds]
    if timed:
        shorter = sum(g.mistake_seconds < g.median_seconds for g in timed)
        lines.append(
            f"biggest mistake played in less than the game's median time a move: {shorter} of {len(timed)}; "
            f"clock left before it: median {statistics.median(g.clock_left for g in timed):.1f} s"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="a match's --out folder (holding games.jsonl)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--reviews", help="the folder of the lost games' NAME-review.sgf files")
    source.add_argument(
        "--from-records", action="store_true", help="goengine's own win rates in the records instead of a review"
    )
    judge = shlex.split(GNUGO)
    parser.add_argument("--gnugo", default=judge[0], help=f"GNU Go's binary (default {judge[0]})")
    parser.add_argument("--json", action="store_true", help="one JSON object a game")
    args = parser.parse_args(argv)
    try:
        records = load_records(Path(args.out) / "games.jsonl")
    except CorruptRecords as err:
        print(f"lost_games.py: {err}", file=sys.stderr)
        return 2
    lost = [r for r in records if r.get("engine_won") is False and not r.get("void")]
    games = []
    missing = []
    unjudged = []
    start_judge = functools.partial(GtpClient, [args.gnugo, *judge[1:]], timeout=120)
    gnugo = start_judge()
    try:
        for record in lost:
            if args.from_records:
                reading = curve_from_record(record)
                if reading is None:
                    missing.append(Path(record["sgf"]).stem)
                    continue
            else:
                review = Path(args.reviews) / f"{Path(record['sgf']).stem}-review.sgf"
                if not review.is_file():
                    missing.append(review.name)
                    continue
                reading = curve(review, BLACK if record["engine_black"] else WHITE)
            try:
                games.append(examine(record, reading, gnugo))
            except GtpClientError as err:  # GNU Go 3.8 can crash judging a position: name the game, go on
                unjudged.append(f"{Path(record['sgf']).stem} ({err})")
                gnugo.close()
                gnugo = start_judge()
    finally:
        gnugo.close()
    if missing:
        what = "goengine's figures in the record" if args.from_records else "review"
        print(f"lost_games.py: no {what} for {len(missing)} lost games: {', '.join(missing)}", file=sys.stderr)
    if unjudged:
        print(
            f"lost_games.py: GNU Go could not judge {len(unjudged)} lost games, left out: {'; '.join(unjudged)}",
            file=sys.stderr,
        )
    if args.json:
        for game in games:
            print(json.dumps(asdict(game)))
    elif games:
        print(tables(games, lost[0]["size"], own_view=args.from_records))
    return 1 if missing or unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
