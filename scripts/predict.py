"""How often the move model predicts the move played: top-1, top-5 and the mean log-likelihood.

    python scripts/predict.py --held-out                       # the shipped games the training kept out
    python scripts/predict.py GAMES.sgf --games 100 --json

Replays each game and, before every move, ranks all legal moves by the model (the shipped one,
or ``--model``). Reports how often its first choice is the move played (top-1), how often the move
is among its first five (top-5), and the mean log-probability of the move played, overall and by
move number (0-29, 30-79, 80+). Passes are not counted, as in Pachi's predictor; equal scores
are ties broken at random (a tie of k moves for first place counts 1/k). ``--held-out`` measures
only the games the model's training kept out (from the validation date its provenance records):
the figure to quote. ``--json`` prints ``{"moves": ..., "top1": ..., "top5": ...}`` (and the
rest) on its last line.

``--playouts FILE`` measures a learned playout policy instead (``goengine.playout_model``; ``shipped``
for the one the package ships): its exact probabilities, from the candidates' features
(``goengine.playout_training``), with ``--held-out`` on the games its own training kept out.
``--policy NAME`` measures any playout policy by sampling: ``--draws`` moves of the policy (its
kernels, as a playout plays them) from each position; its first choice is the move drawn most
often (ties broken at random), and the log-likelihood is that of the drawn frequencies with half
a draw added to every playable point (a sampled policy has no probability of its own to read).

``--gtp COMMAND`` measures a GTP engine's first choice instead, on the same positions: before each
move it is asked ``genmove``, its answer taken back with ``undo``, and the move played given to it
with ``play`` (so it must know ``undo``); only top-1 is reported. Pachi's pattern engine, the prior
of its search played alone: ``--gtp "pachi --nodcnn --nojoseki -e pattern"``. A game the engine
refuses a command of (an error answer) is named on stderr with the move and left out.

A game that cannot be read, or replayed under goengine's rules (a move on an occupied point, a
suicide, a ko retaken at once, a position repeated: positional superko), is skipped: named on
stderr (the file, the line the game starts on, the move, the reason), counted in the table's
first line, and listed in the JSON line (``skipped``). ``--strict`` stops at the first such game
instead (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from goengine import coords, training
from goengine.board import BLACK, PASS
from goengine.lab.client import GtpClient, GtpClientError, GtpError
from goengine.movemodel import DEFAULT_PATH, MoveModel

GAMES = Path(__file__).resolve().parent.parent / "data" / "games" / "tom9d_2008-2011.sgf.xz"  # data/games/README.md
BATCH = 200  # games extracted at a time (memory: about 100 MB a batch on 19x19)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument(
        "games", nargs="?", default=str(GAMES), help="an SGF file or collection (default: the shipped games)"
    )
    p.add_argument("--model", default=str(DEFAULT_PATH), help="a model file (default: the shipped one)")
    p.add_argument("--games", dest="limit", type=int, default=None, help="measure at most N games")
    p.add_argument("--held-out", action="store_true", help="only the games the model's training kept out")
    p.add_argument("--json", action="store_true", help="a JSON line at the end")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--strict", action="store_true", help="stop at the first game that cannot be read or replayed (not skip it)"
    )
    p.add_argument("--gtp", metavar="COMMAND", help="measure this GTP engine's first choice (genmove) instead")
    p.add_argument(
        "--playouts", metavar="FILE", help="measure a learned playout policy's model ('shipped': the package's)"
    )
    p.add_argument(
        "--policy", metavar="NAME", help="measure a playout policy by sampling its moves (uniform, heavy, learned)"
    )
    p.add_argument("--draws", type=int, default=400, help="moves drawn from each position with --policy (400)")
    return p.parse_args(argv)


def policy_ranks(name: str, draws: int, games: list[training.Game], progress=None) -> training.Ranks:
    """``--policy``: for each position of ``games`` whose move is a point, the playout policy
    ``name``'s ``draws`` moves: its first choice (the most drawn), its first five, and the
    smoothed log-probability of the move played (module docstring)."""
    from goengine import playout_model
    from goengine.board import ZOBRIST, Board
    from goengine.kernels import board as kb
    from goengine.kernels import playout as kp
    from goengine.kernels.rng import new_state
    from goengine.mogo3x3 import table
    from goengine.policies import POLICIES

    policy = np.int64(POLICIES[name].id)
    params = POLICIES.array(name)
    model = playout_model.shipped().arrays if name == "learned" else playout_model.no_model_arrays()
    tables = (table(), model)
    rng = new_state(1)
    hit1, hit5, log_p, numbers = [], [], [], []
    for game in games:
        board = Board(game.size)
        for point, color in zip(game.setup_points.tolist(), game.setup_colors.tolist(), strict=True):
            board.play(color, point)
        board.meta[kb.MOVES] = 0
        for k, (point, color) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
            if point != PASS:
                board.to_move = color
                counts = np.zeros(board.pts.shape[1], dtype=np.int64)
                kp.draw_counts(board.pts, board.meta, ZOBRIST, rng, policy, params, tables, np.int64(draws), counts)
                counts[0] = 0  # a pass is no point the players chose
                mine = counts[point]
                greater = int(np.sum(counts > mine))
                equal = int(np.sum(counts == mine))
                hit1.append(min(1.0, max(0.0, (1 - greater) / equal)))
                hit5.append(min(1.0, max(0.0, (5 - greater) / equal)))
                playable = sum(1 for p in board.points() if board.is_legal(color, p))
                log_p.append(float(np.log((mine + 0.5) / (counts.sum() + 0.5 * playable))))
                numbers.append(k)
            board.play(color, point, superko=False)
        if progress:
            progress(1)
    return training.Ranks(
        np.array(hit1), np.array(hit5), np.array(log_p), np.array(numbers, dtype=np.int64), np.zeros(len(hit1), bool)
    )


def _vertex(size: int, color: int, point: int) -> tuple[str, str]:
    return ("b" if color == BLACK else "w"), ("pass" if point == PASS else coords.to_gtp(size, point))


def engine_choices(
    engine: GtpClient, games: list[training.Game], progress=None
) -> tuple[np.ndarray, np.ndarray, list[training.Skipped]]:
    """Before each move of ``games`` that is not a pass, the GTP ``engine``'s first choice
    (``genmove``, taken back with ``undo``) against the move played, which is then ``play``ed: for
    every move measured, 1.0 when they agree (else 0.0) and its number in its game (from 0); and
    the games the engine refused a command of (an error answer), each named with the move and left
    out of the figures. ``progress(1)`` after each game."""
    hits: list[float] = []
    numbers: list[int] = []
    refused: list[training.Skipped] = []
    for game in games:
        game_hits: list[float] = []
        game_numbers: list[int] = []
        k = -1
        try:
            engine.send(f"boardsize {game.size}")
            engine.send("clear_board")
            for point, color in zip(game.setup_points.tolist(), game.setup_colors.tolist(), strict=True):
                engine.send("play {} {}".format(*_vertex(game.size, color, point)))
            for k, (point, color) in enumerate(zip(game.moves.tolist(), game.colors.tolist(), strict=True)):
                mover, played = _vertex(game.size, color, point)
                if point != PASS:
                    chosen = engine.send(f"genmove {mover}").strip().lower()
                    game_hits.append(1.0 if chosen == played.lower() else 0.0)
                    game_numbers.append(k)
                    engine.send("undo")
                engine.send(f"play {mover} {played}")
        except GtpError as err:
            refused.append(training.Skipped(game.source, game.line, k + 1 if k >= 0 else None, f"the engine: {err}"))
        else:
            hits += game_hits
            numbers += game_numbers
        if progress:
            progress(1)
    return np.array(hits), np.array(numbers, dtype=np.int64), refused


def measure_engine(args: argparse.Namespace, games: list[training.Game], skipped: list, bar, task) -> int:
    """``--gtp``: the engine's top-1 on ``games``, as the model's table prints it (top-1 only)."""
    started = time.perf_counter()
    try:
        with GtpClient(shlex.split(args.gtp), timeout=120) as engine:
            progress = (lambda n: bar.update(task, advance=n)) if bar else None
            hits, numbers, refused = engine_choices(engine, games, progress)
    except (OSError, GtpClientError) as err:
        print(f"predict.py: the engine {args.gtp!r}: {err}", file=sys.stderr)
        return 2
    for game in refused:
        print(f"refused {game}", file=sys.stderr)
    seconds = time.perf_counter() - started
    n = len(games) - len(refused)
    print(f"{n} games, {len(skipped)} skipped, {len(refused)} refused, {len(hits)} moves (passes not counted); "
          f"engine {args.gtp}")  # fmt: skip
    print(f"{'moves':>8} {'count':>8} {'top-1':>7}")
    rows = {"all": np.ones(len(hits), dtype=bool)}
    rows.update({name: (numbers >= lo) & (numbers < hi) for name, lo, hi in training.BUCKETS})
    summary = {}
    for name, mask in rows.items():
        count = int(mask.sum())
        top1 = float(hits[mask].mean()) if count else 0.0
        summary[name] = {"moves": count, "top1": round(top1, 4)}
        print(f"{name:>8} {count:>8} {top1:>7.1%}")
    print(f"{len(hits) / seconds:.0f} positions a second ({seconds:.1f} s)")
    if args.json:
        every = summary.pop("all")
        print(json.dumps({**every, "buckets": summary, "games": n, "skipped": [g.as_dict() for g in skipped],
                          "refused": [g.as_dict() for g in refused]}))  # fmt: skip
    return 1 if refused else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.playouts:
            from goengine.playout_model import DEFAULT_PATH as PLAYOUTS_PATH
            from goengine.playout_model import PlayoutModel

            model = PlayoutModel.load(PLAYOUTS_PATH if args.playouts == "shipped" else args.playouts)
        else:
            model = MoveModel.load(args.model)
    except ValueError as err:
        print(f"predict.py: {err}", file=sys.stderr)
        return 2
    keep = None
    if args.held_out:
        start = (model.provenance.get("split") or {}).get("validate_from")
        if not start:
            print(f"predict.py: {args.model} records no held-out games", file=sys.stderr)
            return 2
        keep = lambda game: game.date >= start  # noqa: E731
    skipped: list[training.Skipped] | None = None if args.strict else []
    try:
        games = training.read_games(Path(args.games), limit=args.limit, keep=keep, skipped=skipped)
    except (OSError, ValueError) as err:
        print(f"predict.py: {err}", file=sys.stderr)
        return 2
    skipped = skipped or []
    for game in skipped:
        print(f"skipped {game}", file=sys.stderr)
    if not games:
        also = f" ({len(skipped)} skipped)" if skipped else ""
        print(f"predict.py: no games to measure in {args.games}{also}", file=sys.stderr)
        return 2
    ranks = training.Ranks.none()
    started = time.perf_counter()
    positions = 0
    bar = None
    if not args.no_progress:
        try:
            from rich.progress import Progress

            bar = Progress(transient=True)
        except ImportError:
            bar = None
    try:
        if bar:
            bar.start()
            task = bar.add_task("rank moves", total=len(games))
        if args.gtp:
            return measure_engine(args, games, skipped, bar, task if bar else None)
        if args.policy:
            advance = (lambda n: bar.update(task, advance=n)) if bar else None
            ranks = policy_ranks(args.policy, args.draws, games, advance)
            positions = len(ranks.log_p)
        for i in range(0, 0 if args.policy else len(games), BATCH):
            batch = games[i : i + BATCH]
            if args.playouts:
                from goengine import playout_training

                data = playout_training.extract(batch)
                ranks = ranks.extend(playout_training.rank(model, data))
            else:
                data = training.extract(batch, model)
                ranks = ranks.extend(training.rank(model, data))
            positions += len(data)
            if bar:
                bar.update(task, advance=len(batch))
    except ValueError as err:
        print(f"predict.py: {err}", file=sys.stderr)
        return 2
    finally:
        if bar:
            bar.stop()
    seconds = time.perf_counter() - started
    result = training.summarize(ranks)
    what = (
        f"policy {args.policy}, {args.draws} draws a position"
        if args.policy
        else f"model {args.playouts or args.model}"
    )
    print(f"{len(games)} games, {len(skipped)} skipped, {result.moves} moves (passes not counted); {what}")
    print(f"{'moves':>8} {'count':>8} {'top-1':>7} {'top-5':>7} {'loglik':>7}")
    print(f"{'all':>8} {result.moves:>8} {result.top1:>7.1%} {result.top5:>7.1%} {result.loglik:>7.3f}")
    for name, (count, top1, top5, loglik) in result.buckets.items():
        print(f"{name:>8} {count:>8} {top1:>7.1%} {top5:>7.1%} {loglik:>7.3f}")
    print(f"{positions / seconds:.0f} positions a second ({seconds:.1f} s, features and ranking)")
    if args.json:
        print(json.dumps({**result.as_dict(), "games": len(games), "skipped": [g.as_dict() for g in skipped]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
