"""Simulation balancing of the learned playout policy: positions valued by deep searches, then the
weights moved so that the playouts' mean outcome from each position comes closer to its value.

    python scripts/balance_playouts.py targets --records results/m0-control-1000 results/spsa-9x9-1000 \\
        --positions 2400 --playouts 20000 --jobs 2 --out data/balancing/positions-9x9.jsonl
    python scripts/balance_playouts.py balance --positions data/balancing/positions-9x9.jsonl \\
        --rounds 20 --rate 2 --out goengine/data/playouts.npz
    python scripts/balance_playouts.py measure --positions data/balancing/positions-9x9.jsonl --policy heavy

``targets`` picks one position from each game of the match records given (a move number drawn
between 10 and ten before the end, seeded by the game), and searches it with goengine's own
default engine (``--visits`` playouts, one thread) on the one job runner (``--jobs`` processes, or
``--cluster ADDRESS``, a Dask scheduler): its value is Black's win rate as the engine reports it
(``review.evaluate``: the search's, calibrated on games' results). Each position is appended to
``--out`` as it is done (one JSON line: where it comes from, its moves, its value), so the same
command resumes.

``balance`` reads such a file, keeps every ``--held-out``-th position out (the error they are
measured on), and runs ``--rounds`` rounds of Silver and Tesauro's policy-gradient balancing
(``goengine.playout_training.balance``; Huang, Coulom and Lin 2010 did it for Erica) from the model
``--model`` (the shipped one by default), on the same job runner. It writes the balanced model
with the base model's provenance and the run's appended to its list ``balanced`` (the positions
file, the command, the rounds' errors, the held-out error before and after): a model balanced in
several runs names every one.

``measure`` says how far a policy's playouts are from the held-out positions' values (the same
split as ``balance``'s, or every position with ``--held-out 1``): the mean squared error balancing
lowers and the mean signed error, for any policy by name (``--policy``; the learned one with
``--model``'s weights), so that the learned policy's outcomes can be set beside the heavy one's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from goengine import coords, playout_training, version
from goengine.board import BLACK, PASS, WHITE
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.jobs import Runner
from goengine.lab.records import load_records
from goengine.playout_model import DEFAULT_PATH, PlayoutModel
from goengine.policies import POLICIES
from goengine.review.evaluate import evaluated
from goengine.review.gamefile import Position


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("targets", help="value positions of recorded games by deep searches")
    t.add_argument("--records", nargs="+", required=True, help="match folders (their games.jsonl)")
    t.add_argument("--size", type=int, default=9, help="the board size of the games taken (9)")
    t.add_argument("--positions", type=int, default=2400, help="positions at most, one a game (2400)")
    t.add_argument(
        "--playouts",
        "--visits",
        type=int,
        default=20000,
        help="playouts of each deep search (20000; --visits: its old name)",
    )
    t.add_argument("--jobs", type=int, default=2, help="searches at once (2)")
    t.add_argument("--cluster", default=None, help="the Dask scheduler's address, for the searches")
    t.add_argument("--seed", type=int, default=1, help="which positions are drawn (1)")
    t.add_argument("--out", required=True, help="the positions file (JSON lines), appended to")
    b = sub.add_parser("balance", help="balance a model on valued positions")
    b.add_argument("--positions", required=True, help="a file the targets command wrote")
    b.add_argument("--model", default=str(DEFAULT_PATH), help="the model to start from (the shipped one)")
    b.add_argument("--rounds", type=int, default=20)
    b.add_argument("--rate", type=float, default=2.0, help="the step size alpha (2)")
    b.add_argument("--batch", type=int, default=8, help="positions a task (8)")
    b.add_argument("--value-playouts", type=int, default=64, help="playouts for V a position (64)")
    b.add_argument("--gradient-playouts", type=int, default=64, help="playouts for the gradient a position (64)")
    b.add_argument("--held-out", type=int, default=8, help="every N-th position kept out and measured (8)")
    b.add_argument("--measure-playouts", type=int, default=400, help="playouts a held-out position (400)")
    b.add_argument("--jobs", type=int, default=2)
    b.add_argument("--cluster", default=None)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--out", required=True, help="the balanced model file to write")
    m = sub.add_parser("measure", help="how far a policy's playouts are from the held-out positions' values")
    m.add_argument("--positions", required=True, help="a file the targets command wrote")
    m.add_argument("--policy", default="learned", help="a playout policy by name (learned)")
    m.add_argument("--model", default=str(DEFAULT_PATH), help="the learned policy's weights (the shipped ones)")
    m.add_argument("--held-out", type=int, default=8, help="every N-th position is measured, as balance keeps out (8)")
    m.add_argument("--playouts", type=int, default=400, help="playouts a position (400)")
    m.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


def _move(size: int, text: str) -> tuple[int, int]:
    colour, vertex = text.split()
    return (BLACK if colour.upper() == "B" else WHITE), (
        PASS if vertex.lower() == "pass" else coords.from_gtp(size, vertex)
    )


def drawn_positions(folders: list[str], size: int, count: int, seed: int) -> list[dict]:
    """One position from each non-void game of ``size`` in the folders' records (a move number
    drawn from 10 to ten before the end, seeded by the game), in the records' order, at most
    ``count``."""
    found = []
    for folder in folders:
        for r in load_records(Path(folder) / "games.jsonl"):
            if r.get("void") or r.get("size") != size or r.get("handicap", 0) or len(r["moves"]) < 30:
                continue
            key = f"{Path(folder).name}/{r['config']}#{r['index']}"
            rng = random.Random(f"{seed}:{key}")
            turn = rng.randrange(10, len(r["moves"]) - 10)
            found.append({"key": key, "size": size, "komi": r["komi"], "moves": r["moves"][:turn], "turn": turn})
    random.Random(seed).shuffle(found)
    return found[:count]


def targets(args: argparse.Namespace) -> int:
    out = Path(args.out)
    done = {json.loads(line)["key"] for line in out.read_text().splitlines() if line.strip()} if out.exists() else set()
    wanted = [p for p in drawn_positions(args.records, args.size, args.positions, args.seed) if p["key"] not in done]
    log(f"{len(done)} positions valued already in {out}; valuing {len(wanted)} at {args.playouts} playouts")
    config = EngineConfig(search=SearchConfig(threads=1, seed=args.seed))
    tasks = []
    for k, p in enumerate(wanted):
        moves = tuple(_move(p["size"], m) for m in p["moves"])
        to_move = WHITE if moves and moves[-1][0] == BLACK else BLACK
        tasks.append((k, Position(p["size"], p["komi"], (), moves, to_move, BLACK)))
    runner = Runner(args.jobs, args.cluster)
    started = time.time()
    with out.open("a") as handle:
        for n, (k, evaluation) in enumerate(evaluated(runner, tasks, config, Budget(playouts=args.playouts)), 1):
            if isinstance(evaluation, BaseException):
                log(f"{wanted[k]['key']}: the search failed: {evaluation}")
                continue
            line = {**wanted[k], "target": round(evaluation.black_winrate, 4), "visits": evaluation.visits}
            handle.write(json.dumps(line) + "\n")
            handle.flush()
            if n % 50 == 0:
                log(f"{n} of {len(tasks)} valued ({time.time() - started:.0f} s)")
    return 0


def read_positions(path: Path) -> tuple[list[playout_training.Balanced], list[str]]:
    """The positions of a file ``targets`` wrote, and a line for each one it cannot read or replay
    (``FILE:LINE: reason``): those are left out, never silently."""
    positions, problems = [], []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            p = json.loads(line)
            moves = tuple(_move(p["size"], m) for m in p["moves"])
            target = float(p["target"])
            if not 0.0 <= target <= 1.0:
                raise ValueError(f"target {target} is not a probability")
            position = playout_training.Balanced(int(p["size"]), float(p["komi"]), moves, target)
            position.board()  # every move legal, or the reason it is not
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            problems.append(f"{path}:{number}: {type(e).__name__}: {e}")
            continue
        positions.append(position)
    return positions, problems


def balance(args: argparse.Namespace, argv: list[str]) -> int:
    source = Path(args.positions)
    positions, problems = read_positions(source)
    for problem in problems:
        log(f"left out: {problem}")
    held = positions[:: args.held_out]
    trained = [p for i, p in enumerate(positions) if i % args.held_out]
    model = PlayoutModel.load(args.model)
    log(f"{len(trained)} positions to balance on, {len(held)} held out; model {args.model}")
    before = playout_training.playout_error(model, held, args.measure_playouts, args.seed)
    log(f"held-out mean squared error before: {before:.4f}")
    runner = Runner(args.jobs, args.cluster)
    errors = playout_training.balance(
        model,
        trained,
        runner,
        args.rounds,
        args.rate,
        args.batch,
        args.value_playouts,
        args.gradient_playouts,
        args.seed,
        lambda k, e: log(f"round {k}: mean squared error {e:.4f}"),
    )
    after = playout_training.playout_error(model, held, args.measure_playouts, args.seed)
    log(f"held-out mean squared error after: {after:.4f}")
    run = {
        "positions": {"file": source.name, "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
                      "trained": len(trained), "held_out": len(held)},
        "command": "python scripts/balance_playouts.py " + " ".join(shlex.quote(a) for a in argv),
        "commit": version.full(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "rounds": [round(e, 5) for e in errors],
        "held_out_error": {"before": round(before, 5), "after": round(after, 5)},
    }  # fmt: skip
    # a model balanced again keeps every run that made it, oldest first
    earlier = model.provenance.get("balanced", [])
    model.provenance = {**model.provenance, "balanced": [*(earlier if isinstance(earlier, list) else [earlier]), run]}
    model.save(args.out)
    log(f"wrote {args.out}")
    return 0


def measure(args: argparse.Namespace) -> int:
    positions, problems = read_positions(Path(args.positions))
    for problem in problems:
        log(f"left out: {problem}")
    try:
        policy = POLICIES.get_choice(args.policy).name
    except ValueError as e:
        log(str(e))
        return 2
    held = positions[:: args.held_out]
    model = PlayoutModel.load(args.model) if policy == "learned" else None
    squared, signed = playout_training.outcome_errors(held, args.playouts, policy, model, args.seed)
    which = f"{policy} ({args.model})" if model else policy
    print(f"{which}: {len(held)} positions, {args.playouts} playouts each: mean squared error {squared:.4f}, "
          f"mean of target - outcome {signed:+.4f}")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.command == "targets":
        return targets(args)
    if args.command == "measure":
        return measure(args)
    return balance(args, argv)


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
