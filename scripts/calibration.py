"""How far goengine's reported win rates and score leads are from what happened: a reliability
diagram of the win rate against the game's result, by stage of the game, with its Brier score,
and the score lead against the final area count.

    python scripts/calibration.py sample results/pachi-baseline-9x9-30s results/default-1s-vs-gnugo10 \\
        --visits 1000 --per-game 5 --out calibration/samples-9x9.jsonl
    python scripts/calibration.py report calibration/samples-9x9.jsonl --plot docs/images/calibration-9x9.png

``sample`` draws ``--per-game`` positions from every finished game of the match folders (the
move numbers drawn from the game's own key, so a rerun draws the same ones and skips the games
already in ``--out``, which it appends to) and searches each with the default engine at
``--visits`` from an empty tree, the root of a move of the game (no analysis width), one thread;
it keeps the root's win rate and score lead for the side to move (KataGo's ``rootInfo``), and
whether that side won. A game whose record carries its engines' own figures
(``black.evaluations``, ``white.evaluations``: the match laboratory asks goengine through
``kata-genmove_analyze``) gives every one of them as well, marked ``reported``, without a search.

``report`` reads samples: for each stage of the game (the mover's share of the board's points
played: four stages of ``size**2 / 8`` moves, the last open-ended, as the clock table counts them)
the reliability table (the samples binned by reported win rate in tenths, each bin's mean
reported rate beside the share of its samples whose side won), the Brier score (mean squared
error of the reported rate against the result, 0 or 1) beside that of always saying 0.5 (0.25),
and for games that ended by the count, the score lead's mean error and spread against the final
area count. ``--plot`` draws the diagram (matplotlib, the plot extra).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from goengine.calibration import stage
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine
from goengine.game import Setup
from goengine.lab.gamefiles import game_key, record_moves, record_position
from goengine.lab.records import load_records

BINS = 10


def stage_names(size: int) -> list[str]:
    step = max(1, size * size // 8)
    return [f"moves {k * step}-{(k + 1) * step - 1}" for k in range(3)] + [f"moves {3 * step}+"]


def drawn_moves(record: dict, per_game: int) -> list[int]:
    """``per_game`` distinct move numbers (positions before that move) drawn from the game's key:
    the same game always gives the same ones."""
    n = len(record["moves"])
    seed = int(hashlib.sha256(f"{record['config']}#{record['index']}".encode()).hexdigest()[:12], 16)
    picked: list[int] = []
    k = 0
    while len(picked) < min(per_game, n):
        m = (seed // (k + 1) + 7919 * k) % n
        if m not in picked:
            picked.append(m)
        k += 1
    return sorted(picked)


def reported_samples(folder: str, record: dict) -> list[dict]:
    """The figures the game's engines reported themselves, one sample a move."""
    out = []
    moves = record_moves(record)
    seen = {"black": 0, "white": 0}
    for number, (color, _point) in enumerate(moves):
        side = "black" if color == 1 else "white"
        figures = record[side].get("evaluations") or []
        k = seen[side]
        seen[side] += 1
        if k < len(figures) and figures[k] is not None:
            winrate, lead, visits = figures[k]
            out.append(sample(folder, record, number, color, winrate, lead, int(visits), reported=True))
    return out


def sample(folder, record, number, color, winrate, lead, visits, reported=False) -> dict:
    won = record["winner"] == ("B" if color == 1 else "W")
    area = record.get("area_score")
    return {
        "folder": folder,
        "game": game_key(record),
        "size": record["size"],
        "move": number,
        "to_move": "B" if color == 1 else "W",
        "winrate": winrate,
        "score_lead": lead,
        "visits": visits,
        "won": won,
        "final_lead": None if area is None else (area if color == 1 else -area),
        "reported": reported,
    }


def run_sample(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        done = {(s["folder"], s["game"]) for s in map(json.loads, out.read_text().splitlines()) if s}
    engines: dict[int, Engine] = {}
    with out.open("a", encoding="utf-8") as handle:
        for folder in args.folders:
            records = [r for r in load_records(Path(folder) / "games.jsonl") if not r.get("void") and r.get("winner")]
            name = Path(folder).name
            for record in records:
                if (name, game_key(record)) in done:
                    continue
                size = int(record["size"])
                if size not in engines:
                    engines[size] = Engine(EngineConfig(size=size, search=SearchConfig(threads=1, seed=args.seed)))
                engine = engines[size]
                lines = reported_samples(name, record)
                for number in drawn_moves(record, args.per_game):
                    engine.load_position(Setup.from_sgf(record_position(record, number)))
                    engine.clear_cache()
                    result = engine.analyze(request=SearchRequest(Budget(playouts=args.playouts), root_explore=0.0))
                    color = engine.game.to_move
                    lines.append(
                        sample(name, record, number, color, result.root_winrate, result.score_lead, result.visits)
                    )
                for line in lines:
                    handle.write(json.dumps(line, sort_keys=True) + "\n")
                handle.flush()
                print(f"{name} {game_key(record)}: {len(lines)} samples", file=sys.stderr)


def read_lines(path: str) -> list[str]:
    """The lines of a samples file, plain or xz-compressed (``.xz``, as ``data/calibration`` keeps them)."""
    if path.endswith(".xz"):
        with lzma.open(path, "rt", encoding="utf-8") as handle:
            return handle.read().splitlines()
    return Path(path).read_text(encoding="utf-8").splitlines()


def reliability(samples: list[dict]) -> list[tuple[int, float, float]]:
    """Per tenth of the reported win rate that has samples: (count, mean reported, share won)."""
    bins: dict[int, list[dict]] = defaultdict(list)
    for s in samples:
        bins[min(BINS - 1, int(s["winrate"] * BINS))].append(s)
    return [
        (len(b), statistics.fmean(s["winrate"] for s in b), statistics.fmean(float(s["won"]) for s in b))
        for _k, b in sorted(bins.items())
    ]


def brier(samples: list[dict]) -> float:
    return statistics.fmean((s["winrate"] - float(s["won"])) ** 2 for s in samples)


def report(samples: list[dict]) -> str:
    lines = []
    for size in sorted({s["size"] for s in samples}):
        of_size = [s for s in samples if s["size"] == size]
        games = len({(s["folder"], s["game"]) for s in of_size})
        lines.append(f"{size}x{size}: {len(of_size)} samples from {games} games")
        names = stage_names(size)
        for k in range(4):
            group = [s for s in of_size if stage(size, s["move"]) == k]
            if not group:
                continue
            lines.append(f"  {names[k]}: {len(group)} samples, Brier {brier(group):.3f} (0.250 saying 0.5)")
            for count, mean, won in reliability(group):
                lines.append(f"    reported {mean:5.1%}  won {won:5.1%}  ({count})")
        counted = [s for s in of_size if s["final_lead"] is not None]
        if len(counted) >= 2:
            errors = [s["score_lead"] - s["final_lead"] for s in counted]
            lines.append(
                f"  score lead - final count ({len(counted)} samples of counted games): "
                f"mean {statistics.fmean(errors):+.1f}, spread (sd) {statistics.stdev(errors):.1f}"
            )
    return "\n".join(lines)


def held_out(s: dict) -> bool:
    """Whether the sample's game is in the check half (the other half fits): by its key's hash,
    so that every sample of one game is on the same side."""
    return hashlib.sha256(f"{s['folder']}/{s['game']}".encode()).digest()[0] % 2 == 1


def features(s: dict) -> list[float]:
    """The logistic recalibration's inputs: the logit of the reported rate in the column of the
    sample's stage (a slope a stage, no intercept: a rate and its complement stay complements)."""
    p = min(max(s["winrate"], 1e-4), 1 - 1e-4)
    x = [0.0, 0.0, 0.0, 0.0]
    x[stage(s["size"], s["move"])] = math.log(p / (1 - p))
    return x


def fit(samples: list[dict], steps: int = 50) -> list[float]:
    """The maximum-likelihood slopes of P(won) = sigmoid(a_stage logit(p)), by Newton's method
    (numpy): ``[a_0, a_1, a_2, a_3]`` (1 for a stage without samples)."""
    import numpy as np

    x = np.array([features(s) for s in samples])
    y = np.array([float(s["won"]) for s in samples])
    w = np.ones(4)  # start from the identity
    for _ in range(steps):
        q = 1.0 / (1.0 + np.exp(-x @ w))
        gradient = x.T @ (y - q)
        hessian = (x * (q * (1 - q))[:, None]).T @ x + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w = w + step
        if np.max(np.abs(step)) < 1e-10:
            break
    return [float(v) for v in w]


def recalibrated(s: dict, slopes: list[float]) -> dict:
    z = sum(a * x for a, x in zip(slopes, features(s), strict=True))
    return {**s, "winrate": 1.0 / (1.0 + math.exp(-z))}


def fit_report(samples: list[dict]) -> tuple[str, dict[int, list[float]]]:
    """Per board size: the coefficients fitted on one half of the games, and the Brier score on
    the other half before and after."""
    lines, fitted = [], {}
    for size in sorted({s["size"] for s in samples}):
        of_size = [s for s in samples if s["size"] == size]
        train = [s for s in of_size if not held_out(s)]
        check = [s for s in of_size if held_out(s)]
        coefficients = fit(train)
        fitted[size] = coefficients
        after = [recalibrated(s, coefficients) for s in check]
        lines.append(
            f"{size}x{size}: fitted on {len(train)} samples, checked on {len(check)}: "
            "slopes by stage " + " ".join(f"{a:.3f}" for a in coefficients)
        )
        for k, name in enumerate(stage_names(size)):
            group = [i for i, s in enumerate(check) if stage(size, s["move"]) == k]
            if group:
                before = brier([check[i] for i in group])
                lines.append(f"  {name}: Brier {before:.4f} -> {brier([after[i] for i in group]):.4f} ({len(group)})")
        lines.append(f"  all: Brier {brier(check):.4f} -> {brier(after):.4f}")
    return "\n".join(lines), fitted


def plot(samples: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted({s["size"] for s in samples})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 4.6), squeeze=False)
    for ax, size in zip(axes[0], sizes, strict=True):
        of_size = [s for s in samples if s["size"] == size]
        ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--")
        for k, name in enumerate(stage_names(size)):
            group = [s for s in of_size if stage(size, s["move"]) == k]
            if group:
                rows = reliability(group)
                ax.plot(
                    [r[1] for r in rows], [r[2] for r in rows], marker="o", label=f"{name} (Brier {brier(group):.3f})"
                )
        ax.set_title(f"{size}x{size}: {len(of_size)} positions")
        ax.set_xlabel("reported win rate of the side to move")
        ax.set_ylabel("share of those positions it won")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("sample", help="search positions of match folders' games")
    s.add_argument("folders", nargs="+")
    s.add_argument(
        "--playouts", "--visits", type=int, default=1000, help="playouts a search (1000; --visits: its old name)"
    )
    s.add_argument("--per-game", type=int, default=5)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", required=True)
    r = commands.add_parser("report", help="the reliability tables (and --plot) of sample files")
    r.add_argument("samples", nargs="+")
    r.add_argument("--plot", default=None)
    r.add_argument("--reported", action="store_true", help="only the figures the engines reported in play")
    r.add_argument("--fit", action="store_true", help="fit a recalibration on half the games, check it on the other")
    args = parser.parse_args()
    if args.command == "sample":
        run_sample(args)
        return
    samples = [json.loads(line) for path in args.samples for line in read_lines(path) if line]
    samples = [s for s in samples if s["reported"] == args.reported and math.isfinite(s["winrate"])]
    print(report(samples))
    if args.fit:
        text, fitted = fit_report(samples)
        print(text)
        print(json.dumps({str(k): v for k, v in fitted.items()}))
    if args.plot:
        plot(samples, args.plot)


if __name__ == "__main__":
    main()
