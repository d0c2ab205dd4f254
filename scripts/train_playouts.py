"""Train the learned playout policy from strong games and write it with its provenance inside.

    python scripts/train_playouts.py --out goengine/data/playouts.npz   # the shipped games
    python scripts/train_playouts.py GAMES.sgf.xz --out playouts.npz    # any other collection

Reads an SGF collection (``.sgf`` or ``.sgf.xz``; by default ``data/games/tom9d_2008-2011.sgf.xz``,
the 9-dan games the move model learned from), splits it by date as the move model's training
does (``--validate-from``: games from that day on are kept out of everything and measured only by
``scripts/predict.py --playouts``; ``--tune-from``: the months before it, kept out of the fit and
measured here), extracts every ``--every``-th position of the first ``--games`` training games with
all its candidates (``goengine.kernels.playout_features``), keeps the neighbourhood classes seen
among the candidates at least ``--min-count`` times, and fits the weights (L-BFGS, ``--iterations``,
prior ``--sigma``): ``goengine.playout_training`` says how. A game that cannot be read or replayed
under goengine's rules is skipped, named on stderr (the file, the line it starts on, the move, the
reason) and listed in the model's provenance; ``--strict`` stops at the first instead.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from goengine import playout_training, training, version
from goengine.playout_model import DEFAULT_PATH
from goengine.training import Split

GAMES = Path(__file__).resolve().parent.parent / "data" / "games" / "tom9d_2008-2011.sgf.xz"  # data/games/README.md


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument("games", nargs="?", default=str(GAMES), help="an SGF collection (default: the shipped games)")
    p.add_argument("--out", default=str(DEFAULT_PATH), help=f"the model file to write (default {DEFAULT_PATH})")
    p.add_argument("--games", dest="n_games", type=int, default=6000, help="training games used, the first (6000)")
    p.add_argument("--every", type=int, default=4, help="fit on every N-th position of each training game (4)")
    p.add_argument("--min-count", type=int, default=20, help="a class enters the model seen this often (20)")
    p.add_argument("--sigma", type=float, default=1.74, help="the Gaussian prior's deviation on each weight (1.74)")
    p.add_argument("--iterations", type=int, default=300, help="L-BFGS steps at most (300)")
    p.add_argument("--validate-from", default=Split.validate_from, help="the first day of the validation games")
    p.add_argument("--tune-from", default=Split.tune_from, help="the first day of the tuning games")
    p.add_argument("--tune-games", type=int, default=400, help="tuning games measured at the end (400)")
    p.add_argument("--strict", action="store_true", help="stop at the first game that cannot be read or replayed")
    return p.parse_args(argv)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    source = Path(args.games)
    if not source.is_file():
        log(f"train_playouts.py: no such file: {source}")
        return 2
    if not Path(args.out).parent.is_dir():
        log(f"train_playouts.py: no such folder for --out: {Path(args.out).parent}")
        return 2
    if min(args.n_games, args.every, args.min_count, args.iterations) < 1 or args.sigma <= 0:
        log("train_playouts.py: --games, --every, --min-count and --iterations must be at least 1, --sigma positive")
        return 2
    split = Split(args.validate_from, args.tune_from)
    started = time.time()
    skipped: list[training.Skipped] | None = None if args.strict else []
    try:
        games = training.read_games(source, skipped=skipped, keep=lambda g: split.part(g) != "validation")
    except (OSError, ValueError) as err:
        log(f"train_playouts.py: {err}")
        return 2
    skipped = skipped or []
    for game in skipped:
        log(f"skipped {game}")
    trained = [g for g in games if split.part(g) == "training"][: args.n_games]
    tuning = [g for g in games if split.part(g) == "tuning"][: args.tune_games]
    log(f"{len(games)} games read before {split.validate_from} ({len(skipped)} skipped); {len(trained)} trained on")
    if not trained:
        log("train_playouts.py: no training games")
        return 2
    try:
        data = playout_training.extract(trained, every=args.every)
        codes = playout_training.harvest(data, args.min_count)
        log(f"{len(data)} positions, {data.candidates} candidates, {len(codes)} classes seen {args.min_count}+ times")
        model = playout_training.new_model(codes)
        info = playout_training.fit(
            model,
            data,
            args.sigma,
            args.iterations,
            lambda k, loss: log(f"fit: evaluation {k}, {loss:.4f} a position") if k % 25 == 0 else None,
        )
        train_measure = playout_training.measure(model, data)
        tuned = playout_training.measure(model, playout_training.extract(tuning)) if tuning else None
    except ValueError as err:
        log(f"train_playouts.py: {err}")
        return 2
    model.provenance = {
        "games": {
            "file": source.name,
            "sha256": sha256(source),
            "read": len(games),
            "skipped": [game.as_dict() for game in skipped],
        },
        "split": {"validate_from": split.validate_from, "tune_from": split.tune_from},
        "trained_on": {"games": len(trained), "every": args.every, "positions": len(data)},
        "command": "python scripts/train_playouts.py " + " ".join(shlex.quote(a) for a in argv),
        "commit": version.full(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "classes": {"min_count": args.min_count, "known": len(codes)},
        "fit": {"sigma": args.sigma, **info, "candidates": data.candidates, "skipped_positions": data.skipped},
        "training_measure": train_measure.as_dict(),
        "tuning_measure": tuned.as_dict() if tuned else None,
        "seconds": round(time.time() - started),
    }
    model.save(args.out)
    log(f"wrote {args.out}: training top-1 {train_measure.top1:.3f}, log-likelihood {train_measure.loglik:.3f}")
    if tuned:
        log(f"tuning games ({tuned.moves} moves): top-1 {tuned.top1:.3f}, log-likelihood {tuned.loglik:.3f}")
    log(f"distances: {np.round(model.distance_weights[:, 2:], 2).tolist()}; flags {np.round(model.flag_weights, 2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
