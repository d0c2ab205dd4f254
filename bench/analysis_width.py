"""How wide an analysis searches: the candidates it lists, and whether its best move stays the one
a move of the game would choose, for each weight of the root's exploration term
(``--analysis-width``, ``kernels.search``: ROOT_EXPLORE).

    python bench/analysis_width.py --size 9 --visits 1000 --widths 0 0.2 0.4 0.8
    python bench/analysis_width.py --size 19 --visits 2000 --positions 30 --json

Positions come from real games the project ships: on 9x9 the games of goengine against Pachi
(``results/pachi-baseline-9x9-30s/sgf``), on 19x19 the 9-dan games the move model learned from
(``data/games``); a seeded draw picks a game and a move number in the opening and middle game
(moves 4 to 40 on 9x9, 10 to 150 on 19x19), where a strong player weighs several moves. Each
position is searched from an empty tree with the default engine at the given visits, once with
width 0 (what ``genmove`` searches) and once with each width, all with the same seed; width 0 is
also searched with a second seed, so the agreement of two searches that differ only by chance is
printed beside the others.

For each width: the median and quartiles of the number of candidates (root moves with at least
1 % of the root's visits), the share of positions with at least the issue's target (8 on 9x9,
10 on 19x19), and the share whose best move (the most visited) is width 0's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

from goengine import sgf
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine
from goengine.game import Setup
from goengine.training import read_games

ROOT = Path(__file__).resolve().parent.parent

GAMES_9 = ROOT / "results" / "pachi-baseline-9x9-30s" / "sgf"
GAMES_19 = ROOT / "data" / "games" / "tom9d_2008-2011.sgf.xz"
MOVES = {9: (4, 40), 19: (10, 150)}
TARGET = {9: 8, 19: 10}  # issue 49: candidates at 1,000 visits on 9x9, 2,000 on 19x19
CANDIDATE_SHARE = 0.01


def positions_9(n: int, rng: random.Random) -> list[object]:
    files = sorted(GAMES_9.glob("*.sgf"))
    out = []
    while len(out) < n:
        path = rng.choice(files)
        game = sgf.load(str(path))
        lo, hi = MOVES[9]
        if len(game.moves) <= lo:
            continue
        number = rng.randint(lo, min(hi, len(game.moves) - 1))
        out.append(sgf.load(str(path), number))
    return out


def positions_19(n: int, rng: random.Random) -> list[tuple[str, object]]:
    games = [g for g in read_games(GAMES_19, limit=400) if g.size == 19 and len(g.setup_points) == 0]
    out = []
    lo, hi = MOVES[19]
    while len(out) < n:
        game = rng.choice(games)
        if len(game.moves) <= lo:
            continue
        out.append((game, rng.randint(lo, min(hi, len(game.moves) - 1))))
    return out


def engine_at(size: int, position, seed: int) -> Engine:
    engine = Engine(EngineConfig(size=size, komi=7.5 if size == 9 else 6.5, search=SearchConfig(seed=seed)))
    if size == 9:
        engine.load_position(Setup.from_sgf(position))
    else:
        game, number = position
        engine.new_game(19)
        for point, color in zip(game.moves[:number], game.colors[:number], strict=True):
            engine.game.play(int(color), int(point))
    return engine


def search(engine: Engine, visits: int, width: float) -> tuple[int, int]:
    """(the best move, the number of candidates) of a search from an empty tree."""
    engine.clear_cache()
    result = engine.analyze(request=SearchRequest(Budget(playouts=visits), root_explore=width))
    total = sum(s.visits for s in result.stats)
    candidates = sum(1 for s in result.stats if s.visits >= CANDIDATE_SHARE * total)
    return result.best.move, candidates


def quartiles(values: list[int]) -> tuple[float, float, float]:
    q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return q[0], statistics.median(values), q[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, choices=(9, 19), default=9)
    parser.add_argument(
        "--playouts",
        "--visits",
        type=int,
        default=None,
        help="a search (1000 on 9x9, 2000 on 19x19; --visits: its old name)",
    )
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--widths", type=float, nargs="+", default=[0.2, 0.4, 0.8])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    visits = args.playouts or (1000 if args.size == 9 else 2000)
    rng = random.Random(args.seed)
    chosen = positions_9(args.positions, rng) if args.size == 9 else positions_19(args.positions, rng)
    widths = [0.0] + [w for w in args.widths if w > 0]
    best = {w: [] for w in widths}
    counts = {w: [] for w in widths}
    again = []
    for k, position in enumerate(chosen):
        engine = engine_at(args.size, position, args.seed + k)
        for w in widths:
            move, candidates = search(engine, visits, w)
            best[w].append(move)
            counts[w].append(candidates)
        other = engine_at(args.size, position, args.seed + k + 10**6)
        again.append(search(other, visits, 0.0)[0] == best[0.0][-1])
        print(f"position {k + 1}/{len(chosen)}: {[counts[w][-1] for w in widths]}", file=sys.stderr)
    rows = []
    for w in widths:
        q1, med, q3 = quartiles(counts[w])
        rows.append(
            {
                "width": w,
                "candidates_median": med,
                "candidates_q1": q1,
                "candidates_q3": q3,
                "share_at_target": sum(c >= TARGET[args.size] for c in counts[w]) / len(counts[w]),
                "same_best": sum(a == b for a, b in zip(best[w], best[0.0], strict=True)) / len(best[w]),
            }
        )
    summary = {
        "size": args.size,
        "visits": visits,
        "positions": len(chosen),
        "target": TARGET[args.size],
        "same_best_other_seed": sum(again) / len(again),
        "rows": rows,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(f"{args.size}x{args.size}, {visits} visits, {len(chosen)} positions (candidates: >= 1 % of the visits)")
    print(f"width 0 with another seed: same best move in {summary['same_best_other_seed']:.0%}")
    print(f"{'width':>6} {'candidates (q1, median, q3)':>28} {'>= ' + str(TARGET[args.size]):>6} {'same best':>10}")
    for r in rows:
        spread = f"{r['candidates_q1']:g}, {r['candidates_median']:g}, {r['candidates_q3']:g}"
        print(f"{r['width']:>6g} {spread:>28} {r['share_at_target']:>6.0%} {r['same_best']:>10.0%}")


if __name__ == "__main__":
    main()
