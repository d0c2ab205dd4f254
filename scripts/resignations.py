"""Were goengine's resignations justified? GNU Go's own score estimate at each resignation.

    python scripts/resignations.py results/seed000 --games 24

For the first ``--games`` games of the JSONL that goengine lost by resigning, the handicap stones
(if any) and the moves are replayed into GNU Go (level 10, Chinese rules, the game's komi) and its
``estimate_score`` is read: a resignation is justified when GNU Go, too, has goengine behind.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from goengine.lab.client import GtpClient
from goengine.lab.records import CorruptRecords, load_records
from goengine.lab.referee import GNUGO, replay_record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="a match's --out folder (holding games.jsonl)")
    parser.add_argument("--games", type=int, default=24, help="resigned games to check (default 24)")
    args = parser.parse_args(argv)
    try:
        records = load_records(Path(args.out) / "games.jsonl")
    except CorruptRecords as err:  # a damaged or edited file: one line saying where, no traceback
        print(f"resignations.py: {err}", file=sys.stderr)
        return 2
    resigned = [r for r in records if r["reason"] == "resignation" and r["engine_won"] is False][: args.games]
    margins = []
    with GtpClient(shlex.split(GNUGO), timeout=120) as gnugo:
        for r in resigned:
            replay_record(gnugo, r)
            estimate = gnugo.send("estimate_score")
            lead = estimate.split()[0]
            value = float(lead[2:]) if "+" in lead else 0.0
            mine = "B" if r["engine_black"] else "W"
            margin = value if lead[0] == mine else -value
            margins.append(margin)
            print(
                f"{r['config']} #{r['index']}: goengine {mine}, {r['n_moves']} moves, GNU Go: {estimate} "
                f"-> goengine {margin:+.1f}"
            )
    losses = [-m for m in margins if m < 0]
    span = f" (by {min(losses):.1f} to {max(losses):.1f} points)" if losses else ""
    print(f"GNU Go has goengine behind in {len(losses)} of {len(margins)} resignations{span}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
