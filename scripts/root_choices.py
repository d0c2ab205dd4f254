"""KL-UCB+RAVE against RAVE at the root: how often their choices differ, and when the KL bonus decides.

    python scripts/root_choices.py results/seed003-heavy-kl-ucb-rave-vs-rave --games 40 \\
        --moves 0,10,20,30,40 --budgets 500,1000,3000 --prior heuristic

Positions come from a match folder's records: the first ``--games`` games, after each of
``--moves`` moves (a game too short gives fewer). Each position is searched, with every budget of
``--budgets``, four times: by KL-UCB+RAVE and by RAVE (Yang and Kaneko's eq. 5, seed
003_ec764aba0e4115cd.txt, and Fuego's RAVE mix; ``goengine.kernels.select``), each with two
seeds. For each budget the table gives:

- ``KL vs RAVE``: positions where the two rules' most visited moves differ (seed 1 each);
- ``RAVE vs RAVE``, ``KL vs KL``: the same rule with seeds 1 and 2, the disagreement that noise
  alone makes, to read the first column against;
- ``top share``: the most visited move's share of the root's searched visits (mean), per rule;
- ``KL decides``: at the end of KL-UCB+RAVE's search, positions where the root's next selection
  (the highest eq. 5 score) is not the child the RAVE mix alone, ``(1 - beta) x + beta xa``,
  would pick: where the KL bonus, ``(1 - beta) (q_KL - x)``, outweighs the mix's differences;
- ``bonus / gap``: the median, over positions, of the KL bonus of the mix's best child's nearest
  rival minus its own, over the gap in the mix between them (above 1: the bonus overturns it).

Both rules search with the engine's knowledge as given by ``--prior`` (heavy playouts, expansion
after 8 visits, one thread); the selection formulas are the kernels' own (``kl_ucb_rave``, ``rave``), the
statistics the tree's (visits and wins including the prior's virtual ones, as selection sees
them).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine, SearchResult
from goengine.game import Setup
from goengine.kernels import select as ks
from goengine.lab.gamefiles import folder_positions
from goengine.selection import RULES

KL = "kl-ucb-rave"
RAVE = "rave"


@dataclass
class RootView:
    """A searched root: its most visited move, that move's share of the searched visits, and for
    KL-UCB+RAVE the selection with and without the KL bonus."""

    best: int
    top_share: float
    kl_decides: bool = False
    bonus_over_gap: float | None = None


@dataclass
class Row:
    differ: int = 0
    noise_rave: int = 0
    noise_kl: int = 0
    positions: int = 0
    share_kl: list[float] = field(default_factory=list)
    share_rave: list[float] = field(default_factory=list)
    kl_decides: int = 0
    ratios: list[float] = field(default_factory=list)


def root_scores(result: SearchResult) -> tuple[list[float], list[float]]:
    """For each root move of a search's ``result`` (one tree): its eq. 5 score, with which
    KL-UCB+RAVE selects, and its RAVE mix alone, ``(1 - beta) x + beta xa`` (the RAVE rule with
    C = 0), from the statistics as selection sees them (the prior's virtual visits and wins
    included)."""
    p = RULES.param_values(KL)
    schedule, k, b, c = int(p["schedule"]), p["k"], p["b"], p["c"]
    t = float(result.parent_visits)
    full, mix = [], []
    for s in result.stats:
        n, w = float(s.visits + s.prior_visits), float(s.wins + s.prior_wins)
        aw, an = float(s.amaf_wins), float(s.amaf_visits)
        full.append(ks.kl_ucb_rave(w, n, t, aw, an, schedule, k, b, c))
        mix.append(ks.rave(w, n, t, aw, an, schedule, k, b, 0.0))
    return full, mix


def root_view(result: SearchResult, rule: str) -> RootView:
    """What a search's ``result`` says of its root (one tree)."""
    stats = result.stats
    searched = sum(s.visits for s in stats)
    view = RootView(stats[0].move, stats[0].visits / searched if searched else 0.0)
    if rule != KL:
        return view
    full, mix = root_scores(result)
    by_full = max(range(len(full)), key=lambda i: full[i])
    by_mix = max(range(len(mix)), key=lambda i: mix[i])
    # ties: the bonus decides only when its pick is not among the mix's best
    view.kl_decides = mix[by_full] < mix[by_mix]
    rivals = [i for i in range(len(mix)) if mix[i] < mix[by_mix]]
    if rivals and mix[by_mix] < float("inf"):
        rival = max(rivals, key=lambda i: full[i])  # the rival the bonus lifts the most
        lift = (full[rival] - mix[rival]) - (full[by_mix] - mix[by_mix])
        view.bonus_over_gap = lift / (mix[by_mix] - mix[rival])
    return view


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="a match folder (its games.jsonl gives the positions)")
    parser.add_argument("--games", type=int, default=40, help="games of the folder to take positions from")
    parser.add_argument("--moves", default="0,10,20,30,40", help="after how many moves (comma-separated)")
    parser.add_argument("--budgets", default="500,1000,3000", help="playouts a search (comma-separated)")
    parser.add_argument("--prior", default="heuristic", help="the prior knowledge of both rules")
    args = parser.parse_args(argv)
    moves = [int(m) for m in args.moves.split(",")]
    budgets = [int(b) for b in args.budgets.split(",")]
    try:
        positions = folder_positions(Path(args.out), args.games, moves)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    engines = {
        (rule, seed): Engine(
            EngineConfig(
                size=positions[0].size,
                search=SearchConfig(
                    rule=rule, prior=args.prior, seed=seed, threads=1, reuse_tree=False, max_memory_mb=256
                ),
            )
        )
        for rule in (KL, RAVE)
        for seed in (1, 2)
    }
    rows = {b: Row() for b in budgets}
    for i, position in enumerate(positions):
        for b in budgets:
            views = {}
            for key, e in engines.items():
                e.load_position(Setup.from_sgf(position))
                views[key] = root_view(e.analyze(request=SearchRequest(Budget(playouts=b))), key[0])
            row = rows[b]
            row.positions += 1
            row.differ += views[KL, 1].best != views[RAVE, 1].best
            row.noise_kl += views[KL, 1].best != views[KL, 2].best
            row.noise_rave += views[RAVE, 1].best != views[RAVE, 2].best
            row.share_kl.append(views[KL, 1].top_share)
            row.share_rave.append(views[RAVE, 1].top_share)
            row.kl_decides += views[KL, 1].kl_decides
            if views[KL, 1].bonus_over_gap is not None:
                row.ratios.append(views[KL, 1].bonus_over_gap)
        print(f"position {i + 1} of {len(positions)}", file=sys.stderr, flush=True)
    for e in engines.values():
        e.close()
    where = f"games {args.games}, after moves {args.moves}, prior {args.prior}"
    print(f"{len(positions)} positions from {args.out} ({where})")
    head = ("playouts", "positions", "KL vs RAVE", "RAVE vs RAVE", "KL vs KL", "top share KL", "top share RAVE")
    print("| " + " | ".join((*head, "KL decides", "bonus / gap")) + " |")
    print("|" + " --- |" * 9)
    for b, r in rows.items():
        share = (100.0 * k / r.positions for k in (r.differ, r.noise_rave, r.noise_kl))
        ratio = f"{statistics.median(r.ratios):.2f}" if r.ratios else "-"
        print(
            f"| {b} | {r.positions} | " + " | ".join(f"{x:.0f}%" for x in share) + " | "
            f"{statistics.mean(r.share_kl):.2f} | {statistics.mean(r.share_rave):.2f} | "
            f"{100.0 * r.kl_decides / r.positions:.0f}% | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
