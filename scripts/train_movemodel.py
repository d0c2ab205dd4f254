"""Train the move model from strong games and write it with its provenance inside.

    python scripts/train_movemodel.py --out goengine/data/movemodel.npz   # the shipped games
    python scripts/train_movemodel.py GAMES.sgf.xz --out model.npz        # any other collection

Reads an SGF collection (``.sgf`` or ``.sgf.xz``; one game a line or any layout; by default
``data/games/tom9d_2008-2011.sgf.xz``, the 9-dan games the shipped model learned from), splits it by
date (``--validate-from``: games from that day on are kept out of everything and measured only by
``scripts/predict.py --held-out``; ``--tune-from``: the months before it, kept out of the fit and
measured here), harvests the shapes played in the training games into a dictionary (``--min-count``
plays at least), extracts every ``--every``-th position of each training game with all its legal
moves, and fits the weights (L-BFGS, ``--iterations``, prior ``--sigma``): ``goengine.training``
says how. A game that cannot be read, or replayed under goengine's rules (a move on an occupied
point, a suicide, a ko retaken at once, a position repeated: positional superko), is skipped:
named on stderr (the file, the line the game starts on, the move, the reason), counted, and
listed with its reason in the model's provenance; ``--strict`` stops at the first such game
instead. The model file records the games (name, SHA-256, how many were read and which were
skipped), the split, the command, the commit, the counts, the fit and the tuning games' figures.

To retrain from any other SGF collection, give it instead. Games without a ``DT`` date all count
as training games (no date comes after the split's days); measure the model on another file with
``scripts/predict.py``.
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

from goengine import training, version
from goengine.movemodel import DEFAULT_PATH
from goengine.training import Split

GAMES = Path(__file__).resolve().parent.parent / "data" / "games" / "tom9d_2008-2011.sgf.xz"  # data/games/README.md


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument(
        "games", nargs="?", default=str(GAMES), help="an SGF collection (.sgf or .sgf.xz; default: the shipped games)"
    )
    p.add_argument("--out", default=str(DEFAULT_PATH), help=f"the model file to write (default {DEFAULT_PATH})")
    p.add_argument("--min-count", type=int, default=10, help="a shape enters the dictionary played this often (10)")
    p.add_argument("--every", type=int, default=5, help="fit on every N-th position of each training game (5)")
    p.add_argument("--sigma", type=float, default=1.74, help="the Gaussian prior's deviation on each weight (1.74)")
    p.add_argument("--iterations", type=int, default=300, help="L-BFGS steps at most (300)")
    p.add_argument("--validate-from", default=Split.validate_from, help="the first day of the validation games")
    p.add_argument("--tune-from", default=Split.tune_from, help="the first day of the tuning games")
    p.add_argument("--tune-games", type=int, default=400, help="tuning games measured at the end (400)")
    p.add_argument("--limit", type=int, default=None, help="read at most this many games (for a quick run)")
    p.add_argument("--no-progress", action="store_true", help="plain lines instead of progress bars")
    p.add_argument(
        "--strict", action="store_true", help="stop at the first game that cannot be read or replayed (not skip it)"
    )
    return p.parse_args(argv)


class Progress:
    """A rich progress bar, or plain lines on stderr with --no-progress (or without rich)."""

    def __init__(self, plain: bool):
        self.bar = None
        if not plain:
            try:
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

                self.bar = Progress(
                    TextColumn("{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeElapsedColumn(),
                    TextColumn("{task.fields[note]}"),
                    transient=False,
                )
            except ImportError:
                self.bar = None

    def __enter__(self) -> Progress:
        if self.bar:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar:
            self.bar.__exit__(*exc)

    def task(self, description: str, total: int):
        """A function advancing the task by n (with an optional note)."""
        if self.bar is None:
            log(f"{description} ({total})")
            return lambda n=1, note="": None
        task = self.bar.add_task(description, total=total, note="")

        def advance(n: int = 1, note: str = "") -> None:
            self.bar.update(task, advance=n, note=note)

        return advance


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    source = Path(args.games)
    if not source.is_file():
        log(f"train_movemodel.py: no such file: {source}")
        return 2
    if not Path(args.out).parent.is_dir():  # found now, not after the training
        log(f"train_movemodel.py: no such folder for --out: {Path(args.out).parent}")
        return 2
    if args.min_count < 1 or args.every < 1 or args.sigma <= 0 or args.iterations < 1:
        log("train_movemodel.py: --min-count, --every and --iterations must be at least 1, --sigma positive")
        return 2
    split = Split(args.validate_from, args.tune_from)
    started = time.time()
    skipped: list[training.Skipped] | None = None if args.strict else []
    try:
        games = training.read_games(source, limit=args.limit, skipped=skipped)
    except (OSError, ValueError) as err:
        log(f"train_movemodel.py: {err}")
        return 2
    skipped = skipped or []
    for game in skipped:
        log(f"skipped {game}")
    parts: dict[str, list] = {"training": [], "tuning": [], "validation": []}
    for game in games:
        parts[split.part(game)].append(game)
    log(
        f"{len(games)} games in {source} ({len(skipped)} skipped): {len(parts['training'])} training, "
        f"{len(parts['tuning'])} tuning (from {split.tune_from}), {len(parts['validation'])} validation "
        f"(from {split.validate_from}, not read again)"
    )
    if not parts["training"]:
        log("train_movemodel.py: no training games")
        return 2
    try:
        with Progress(args.no_progress) as progress:
            harvested = progress.task("harvest shapes", len(parts["training"]))
            keys, contents = training.harvest(parts["training"], harvested)
            d = training.dictionary(keys, contents, args.min_count)
            training.check_dictionary(d)
            per_size = np.bincount(d.sizes[1:], minlength=11)[3:].tolist()
            log(f"{len(keys)} moves played; {len(d)} shapes played {args.min_count}+ times (sizes 3-10: {per_size})")
            model = training.new_model(d)
            extracted = progress.task("extract positions", len(parts["training"]))
            data = training.extract(parts["training"], model, every=args.every, progress=extracted)
            log(f"{len(data)} positions, {data.candidates} candidate moves")
            fitted = progress.task("fit", args.iterations)
            info = training.fit(model, data, args.sigma, args.iterations, lambda i, loss: fitted(1, f"{loss:.4f}"))
            train_measure = training.measure(model, data)
            tune_games = parts["tuning"][: args.tune_games]
            tuned = None
            if tune_games:
                measured = progress.task("measure tuning games", len(tune_games))
                tuned = training.measure(model, training.extract(tune_games, model, progress=measured))
    except ValueError as err:
        log(f"train_movemodel.py: {err}")
        return 2
    model.provenance = {
        "games": {
            "file": source.name,
            "sha256": sha256(source),
            "read": len(games),
            "skipped": [game.as_dict() for game in skipped],
        },
        "split": {
            "validate_from": split.validate_from,
            "tune_from": split.tune_from,
            "training_games": len(parts["training"]),
            "tuning_games": len(parts["tuning"]),
            "validation_games": len(parts["validation"]),
        },
        "command": "python scripts/train_movemodel.py " + " ".join(shlex.quote(a) for a in argv),
        "commit": version.full(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "dictionary": {"min_count": args.min_count, "shapes": len(d), "by_size_3_to_10": per_size},
        "fit": {
            "positions": len(data),
            "candidates": data.candidates,
            "every": args.every,
            "sigma": args.sigma,
            **info,
        },
        "training_measure": train_measure.as_dict(),
        "tuning_measure": tuned.as_dict() if tuned else None,
        "seconds": round(time.time() - started),
    }
    model.save(args.out)
    log(f"wrote {args.out} ({Path(args.out).stat().st_size / 1e6:.1f} MB) in {time.time() - started:.0f} s")
    log(f"training positions: top-1 {train_measure.top1:.1%}, top-5 {train_measure.top5:.1%}")
    if tuned:
        log(
            f"tuning games ({len(tune_games)}): top-1 {tuned.top1:.1%}, top-5 {tuned.top5:.1%}, "
            f"loglik {tuned.loglik:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
