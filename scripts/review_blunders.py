"""Does ``goengine review`` find known blunders, and does it charge the search's best moves? Recall of
a blunder among its player's biggest mistakes, on blunders planted in real games and on the
blunders of GNU Go's regression suite; and on whole games, the loss of the search's own best moves
and the curve's changes from move to move, by the review's definition and the one before it.

    python scripts/review_blunders.py --planted 40 --visits 1000
    python scripts/review_blunders.py --gnugo --visits 1000 --json
    python scripts/review_blunders.py --saw 10 --visits 300

**Planted** (``--planted N``): the first N games of ``results/pachi-baseline-9x9-30s`` (goengine
against Pachi, 9x9). In each, at a move drawn from the game's name in the middle of the game
(from move 8 to 8 before the end), the move played is replaced by a blunder: a first-line point
of the mover with no stone within two lines of it, a move no strong player makes while the board
is open. The game is cut after the blunder and reviewed whole (``review.evaluate``,
``review.losses``): the blunder is found when it is among its player's three biggest mistakes.

**GNU Go's blunders** (``--gnugo``): the tests of ``data/regression/blunder.tst`` that name the
move not to play (``#? [!X]``): the game of the test up to its position, then the blunder
(the first move the pattern forbids, when legal), reviewed the same way; a test whose player has
made fewer than MIN_OWN_MOVES moves before it (a set-up position, most of them) is left out, since
there is nothing to rank its blunder among.

**The saw** (``--saw N``): the first N games of the same folder reviewed whole; over their moves,
how many of the search's own best moves are charged a loss of 5 % or more, and the mean change of
Black's win rate between consecutive positions, by the review's definition (``losses``) and by the
one before it (the best move's figures in the position before, less those of the position after,
each position's curve point its own search's).

Each review is at ``--visits`` a position, the default engine, one thread, seed 1. The table gives
the recall (found / blunders) and, over every move reviewed, how many moves the search itself
ranked best appear among the mistakes (by the review's definition none can: a check).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import re
import sys
from pathlib import Path

from goengine import coords
from goengine.board import BLACK, WHITE, Board
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.lab.regression import parse_file
from goengine.review import losses
from goengine.review.evaluate import evaluate
from goengine.review.gamefile import BadGame, ReviewGame, read

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "results" / "pachi-baseline-9x9-30s" / "sgf"
BLUNDERS = ROOT / "data" / "regression" / "blunder.tst"
TOP = 3
MIN_OWN_MOVES = 10  # a blunder is ranked among its player's moves: a test with fewer is left out


def board_after(game: ReviewGame, moves) -> Board:
    board = Board.from_stones(game.size, list(game.setup), game.first)
    for color, point in moves:
        board.play(color, point, superko=False)
    return board


def planted_blunder(game: ReviewGame, k: int) -> int | None:
    """A first-line point for the mover of move ``k`` with no stone within two lines, legal there."""
    color = game.moves[k][0]
    board = board_after(game, game.moves[:k])
    n = game.size
    for p in coords.all_points(n):
        r, c = coords.row_col(n, p)
        if r not in (0, n - 1) and c not in (0, n - 1):
            continue
        near = [
            (rr, cc)
            for rr in range(max(0, r - 2), min(n, r + 3))
            for cc in range(max(0, c - 2), min(n, c + 3))
            if board.color_at(coords.point(n, rr, cc))
        ]
        if not near and board.is_legal(color, p):
            return p
    return None


def review(game: ReviewGame, visits: int) -> list[losses.MoveReview]:
    config = EngineConfig(size=game.size, komi=game.komi, search=SearchConfig(threads=1, seed=1))
    evaluations = [evaluate(p, config, Budget(playouts=visits)) for p in game.positions()]
    return losses.review_moves(game.moves, evaluations, game.first_number)


def found(reviews: list[losses.MoveReview], number: int) -> tuple[bool, int]:
    """Whether move ``number`` is among its player's TOP mistakes, and how many of all the
    colours' listed mistakes were the search's best move."""
    color = next(r.color for r in reviews if r.number == number)
    listed = losses.mistakes(reviews, color, TOP)
    best_listed = sum(r.was_best for c in (BLACK, WHITE) for r in losses.mistakes(reviews, c, TOP))
    return any(r.number == number for r in listed), best_listed


def planted(count: int, visits: int) -> list[dict]:
    rows = []
    for path in sorted(GAMES.glob("*.sgf"))[:count]:
        game = read(path)
        n = len(game.moves)
        if n < 20:
            continue
        k = 8 + int(hashlib.sha256(path.name.encode()).hexdigest()[:8], 16) % (n - 16)
        point = planted_blunder(game, k)
        if point is None:
            continue
        color = game.moves[k][0]
        cut = dataclasses.replace(game, moves=game.moves[:k] + ((color, point),))
        hit, best_listed = found(review(cut, visits), cut.number(k))
        rows.append({"game": path.name, "move": cut.number(k), "blunder": coords.to_gtp(game.size, point),
                     "found": hit, "best_listed": best_listed})  # fmt: skip
        print(f"{path.name} move {cut.number(k)} {coords.to_gtp(game.size, point)}: {hit}", file=sys.stderr)
    return rows


def gnugo(visits: int) -> list[dict]:
    rows = []
    for test in parse_file(BLUNDERS).tests:
        if not test.pattern.startswith("!") or not test.setup or not test.setup[0].startswith("loadsgf"):
            continue
        words = test.setup[0].split()
        try:
            game = read(BLUNDERS.parent / words[1])
        except BadGame:  # a set-up position without moves: nothing to rank the blunder among
            continue
        upto = int(words[2]) - 1 if len(words) > 2 else len(game.moves)
        moves = list(game.moves[: max(0, upto - game.first_number + 1)])
        plays = [s.split() for s in test.setup[1:] if s.startswith("play ")]
        moves += [(BLACK if c.lower().startswith("b") else WHITE, coords.from_gtp(game.size, v)) for _, c, v in plays]
        color = BLACK if test.color.lower().startswith("b") else WHITE
        vertex = re.findall(r"[A-HJ-T]\d+", test.pattern.upper())[0]
        point = coords.from_gtp(game.size, vertex)
        cut = dataclasses.replace(game, moves=tuple(moves))
        if sum(c == color for c, _ in moves) < MIN_OWN_MOVES or not board_after(cut, cut.moves).is_legal(color, point):
            continue
        cut = dataclasses.replace(cut, moves=tuple(moves) + ((color, point),))
        hit, best_listed = found(review(cut, visits), cut.number(len(moves)))
        rows.append({"test": test.name, "move": cut.number(len(moves)), "blunder": vertex, "found": hit,
                     "best_listed": best_listed})  # fmt: skip
        print(f"{test.name} {vertex}: {hit}", file=sys.stderr)
    return rows


def saw(count: int, visits: int) -> dict:
    before_jumps, after_jumps, charged_before, charged_after, best_moves, judged, moves = [], [], 0, 0, 0, 0, 0
    for path in sorted(GAMES.glob("*.sgf"))[:count]:
        game = read(path)
        config = EngineConfig(size=game.size, komi=game.komi, search=SearchConfig(threads=1, seed=1))
        evaluations = [evaluate(p, config, Budget(playouts=visits)) for p in game.positions()]
        reviews = losses.review_moves(game.moves, evaluations, game.first_number)
        old = [e.black_winrate for e in evaluations]
        new = [rate for rate, _ in losses.curve(evaluations, reviews)]
        before_jumps += [abs(a - b) for a, b in zip(old, old[1:], strict=False)]
        after_jumps += [abs(a - b) for a, b in zip(new, new[1:], strict=False)]
        for r in reviews:
            moves += 1
            judged += r.judged_before
            if r.was_best:
                best_moves += 1
                charged_before += r.sign * (r.before.black_winrate - r.after.black_winrate) >= 0.05
                charged_after += r.winrate_loss >= 0.05
    return {
        "games": count,
        "moves": moves,
        "best_moves": best_moves,
        "best_charged_5pc_before": charged_before,
        "best_charged_5pc_after": charged_after,
        "mean_jump_before": sum(before_jumps) / len(before_jumps),
        "mean_jump_after": sum(after_jumps) / len(after_jumps),
        "judged_in_search_before": judged,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--planted", type=int, default=0, help="games to plant a blunder in")
    parser.add_argument("--gnugo", action="store_true", help="the blunders of data/regression/blunder.tst")
    parser.add_argument("--saw", type=int, default=0, help="games to review whole for the best moves' losses")
    parser.add_argument(
        "--playouts", "--visits", type=int, default=1000, help="a position (1000; --visits: its old name)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    if args.planted:
        results["planted"] = planted(args.planted, args.playouts)
    if args.gnugo:
        results["gnugo"] = gnugo(args.playouts)
    if args.saw:
        results["saw"] = saw(args.saw, args.playouts)
    if args.json:
        print(json.dumps(results, indent=1))
        return
    if "saw" in results:
        print(json.dumps(results.pop("saw")))
    for name, rows in results.items():
        hits = sum(r["found"] for r in rows)
        best = sum(r["best_listed"] for r in rows)
        print(
            f"{name}: {hits} of {len(rows)} blunders among their player's {TOP} biggest mistakes "
            f"({args.playouts} playouts a position); moves the search ranked best among the mistakes: {best}"
        )


if __name__ == "__main__":
    main()
