"""How much each configuration explores: its rule's bonus by the kernels, and its root's visits.

    python scripts/root_spread.py results/seed004-round-robin/pairs/ucb1-c2-vs-gnugo --games 20 \\
        --moves 0,10,20,30 --playouts 3000 \\
        --config "ucb1-c2=--rule ucb1 --param c=2" \\
        --config "ucb-minimal-11-1=--rule ucb-minimal --param c1=11 --param c2=1"

Two tables, one row a configuration (``--config NAME=OPTIONS``, the options of the ``goengine``
command as ``goengine-match`` takes them):

- the exploration bonus, the rule's score minus the child's win rate, for a child that has won
  half of ``n`` visits under a parent of ``--playouts`` visits, for n = 1, 10, 100, 1000: the
  rule's own kernel (``goengine.kernels.select.score``) with the configuration's parameters, so
  a rule that explores more shows it here before any game; rules that mix in AMAF statistics
  are given none (their bonus is then that of the tree's own statistics);
- the root after a search of ``--playouts`` playouts at each position: the most visited move's
  share of the root's searched visits (mean) and the children with at least 1 % of them
  (median).

Positions come from a match folder's records (``lab.gamefiles.folder_positions``): the first
``--games`` games, after each of ``--moves`` moves. Each configuration searches with its own
knowledge, one thread, a fresh tree a position.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import shlex
import statistics
import sys
from pathlib import Path

import numpy as np

from goengine.config import Budget, EngineConfig, SearchRequest
from goengine.engine import Engine, SearchResult
from goengine.game import Setup
from goengine.gtp.command import build_parser
from goengine.kernels import rng as krng
from goengine.kernels import select as ks
from goengine.lab.gamefiles import folder_positions
from goengine.options import config_from_args
from goengine.selection import RULES

BONUS_VISITS = (1, 10, 100, 1000)
MIN_SHARE = 0.01


def config_of(options: str, seed: int) -> EngineConfig:
    """The engine configuration the ``goengine`` command would build from ``options``, searching
    with one thread and a fresh tree a position, seeded with ``seed``; SystemExit on bad options."""
    try:
        config = config_from_args(build_parser().parse_args(shlex.split(options)))
    except ValueError as error:
        raise SystemExit(f"{options!r}: {error}") from None
    search = dataclasses.replace(config.search, threads=1, reuse_tree=False, seed=seed, ponder=False, max_memory_mb=256)
    return dataclasses.replace(config, search=search)


def bonus(config: EngineConfig, n: int, t: int) -> float:
    """The exploration bonus of the configuration's rule for a child that won half of its ``n``
    visits under a parent of ``t``: its score minus its win rate, without AMAF statistics."""
    rule = config.search.rule
    params = RULES.array(rule, config.search.params)
    w = 0.5 * n
    score = ks.score(RULES[rule].id, params, float(w), float(n), float(t), 0.0, 0.0, krng.new_state(1))
    return score - w / n


def root_spread(result: SearchResult) -> tuple[float, int]:
    """The root of a search's ``result``: its most visited move's share of the searched visits,
    and the children with at least ``MIN_SHARE`` of them."""
    stats = result.stats
    searched = sum(s.visits for s in stats)
    if searched <= 0:
        return 0.0, 0
    wide = sum(1 for s in stats if s.visits >= MIN_SHARE * searched)
    return stats[0].visits / searched, wide


def parse_config(text: str) -> tuple[str, str]:
    name, sep, options = text.partition("=")
    if not sep or not name.strip():
        raise SystemExit(f"--config {text!r}: expected NAME=OPTIONS")
    return name.strip(), options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="a match folder (its games.jsonl gives the positions)")
    parser.add_argument("--config", action="append", required=True, help="NAME=goengine options (repeatable)")
    parser.add_argument("--games", type=int, default=20, help="games of the folder to take positions from")
    parser.add_argument("--moves", default="0,10,20,30", help="after how many moves (comma-separated)")
    parser.add_argument("--playouts", type=int, default=3000, help="playouts a search")
    args = parser.parse_args(argv)
    named = [parse_config(text) for text in args.config]
    if len({name for name, _ in named}) < len(named):
        raise SystemExit("--config: each configuration needs a name of its own")
    configs = {name: config_of(options, seed=1) for name, options in named}
    print(f"exploration bonus at {args.playouts} parent visits, a child with half its visits won")
    print("| configuration | " + " | ".join(f"n = {n}" for n in BONUS_VISITS) + " |")
    print("|" + " --- |" * (1 + len(BONUS_VISITS)))
    for name, config in configs.items():
        cells = (bonus(config, n, args.playouts) for n in BONUS_VISITS)
        print(f"| {name} | " + " | ".join("inf" if math.isinf(b) else f"{b:.3f}" for b in cells) + " |")

    moves = [int(m) for m in args.moves.split(",")]
    try:
        positions = folder_positions(Path(args.out), args.games, moves)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    if not positions:
        raise SystemExit(f"{args.out}: no game is longer than any of --moves {args.moves}")
    size = positions[0].size
    engines = {name: Engine(dataclasses.replace(c, size=size)) for name, c in configs.items()}
    shares: dict[str, list[float]] = {name: [] for name in configs}
    widths: dict[str, list[int]] = {name: [] for name in configs}
    for i, position in enumerate(positions):
        for name, engine in engines.items():
            engine.load_position(Setup.from_sgf(position))
            share, wide = root_spread(engine.analyze(request=SearchRequest(Budget(playouts=args.playouts))))
            shares[name].append(share)
            widths[name].append(wide)
        print(f"position {i + 1} of {len(positions)}", file=sys.stderr, flush=True)
    for engine in engines.values():
        engine.close()
    where = f"games {args.games}, after moves {args.moves}, {args.playouts} playouts"
    print(f"\n{len(positions)} positions from {args.out} ({where})")
    print(f"| configuration | top share | children with >= {MIN_SHARE:.0%} |")
    print("| --- | --- | --- |")
    for name in configs:
        print(f"| {name} | {np.mean(shares[name]):.2f} | {statistics.median(widths[name]):g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
