"""The speed reference, run beside the benchmarks in the same sitting, and the anchors expressed
as multiples of it.

Absolute playouts a second do not carry from one machine to another, nor from a quiet hour of a
shared machine to a busy one; a ratio to a reference measured in the same sitting does. The
reference is ``bench/yardstick.py``, a frozen program of uniformly random light playouts on its
own small board (its docstring; ``GOENGINE_YARDSTICK`` names another copy), run as a separate
process because it times itself. It prints one line per size, "9 playouts/s X avg moves M mean
score S".

The anchors are other engines' rates as multiples of the reference. They were measured side by
side with the project's first reference, a light-playout kernel kept outside the repository
(issue 13): libego's light playouts ran 1.08x it on 9x9 and 1.17x on 19x19 (the target of our
uniform playouts); Pachi's UCT with light playouts, full iterations, one thread, 0.45x and 0.56x
(the target of every selection rule with ``--playout uniform``); Pachi's UCT with its heavy
playouts 0.15x and 0.20x (the target of ``--playout heavy``). ``bench/yardstick.py`` replaced it
so that the repository needs nothing outside itself, and the anchors were converted with the
rate of the new reference over the first one (``YARDSTICK_OVER_FIRST``), measured on a quiet
machine by ``python bench/reference.py --against FIRST/yardstick.py --rounds 7`` (both run
alternately, seven runs each, medians; the first reference as ``yardstick.py`` of the project's
shared tools folder), twice, 2026-11-26 15:26-15:27 UTC:

    first reference 86,228 and 86,453 (9x9), 20,610 and 20,558 (19x19) playouts/s
    bench/yardstick.py 70,067 and 70,528, 14,718 and 14,710: 0.8126x and 0.8158x on 9x9,
    0.7141x and 0.7155x on 19x19; their means, 0.814 and 0.715, are the ratios used

(a first measurement beside two matches, 0.72 and 0.67, was 10 % off.)
docs/performance.md tells the same story.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

DEFAULT_PATH = Path(__file__).resolve().parent / "yardstick.py"

# bench/yardstick.py's playouts/s over the first reference's, by size (measured as above)
YARDSTICK_OVER_FIRST = {9: 0.814, 19: 0.715}


def _converted(first: dict[int, float]) -> dict[int, float]:
    """Multiples of the first reference as multiples of bench/yardstick.py."""
    return {size: multiple / YARDSTICK_OVER_FIRST[size] for size, multiple in first.items()}


# multiples of the reference's playouts/s, by size (measured against the first reference)
LIBEGO = _converted({9: 1.08, 19: 1.17})
PACHI_LIGHT = _converted({9: 0.45, 19: 0.56})
PACHI_HEAVY = _converted({9: 0.15, 19: 0.20})

_LINE = re.compile(r"^(\d+) playouts/s ([0-9.eE+]+)")


def path() -> Path | None:
    """The reference script (``GOENGINE_YARDSTICK``, else ``bench/yardstick.py``), or None when
    that file does not exist."""
    candidate = Path(os.environ.get("GOENGINE_YARDSTICK", DEFAULT_PATH))
    return candidate if candidate.is_file() else None


def parse(output: str) -> dict[int, float]:
    """Playouts/s by board size from the reference's output."""
    rates = {}
    for line in output.splitlines():
        match = _LINE.match(line.strip())
        if match:
            rates[int(match.group(1))] = float(match.group(2))
    return rates


def run_once(script: Path) -> dict[int, float]:
    """One run of the reference in a fresh process (its numba cache makes the second start fast)."""
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    rates = parse(done.stdout)
    if not rates:
        raise RuntimeError(f"no 'N playouts/s X' line in the output of {script}: {done.stdout!r}")
    return rates


class Reference:
    """The reference's runs of one sitting: ``run()`` before, between and after the measurements,
    ``rate(size)`` their median. Empty (every ratio None) when no reference script is found."""

    def __init__(self, script: Path | None = None):
        self.script = script if script is not None else path()
        self.runs: list[dict[int, float]] = []

    @property
    def available(self) -> bool:
        return self.script is not None

    def run(self) -> None:
        if self.script is not None:
            self.runs.append(run_once(self.script))

    def rate(self, size: int) -> float | None:
        values = [r[size] for r in self.runs if size in r]
        return statistics.median(values) if values else None

    def ratio(self, value: float, size: int, anchor: dict[int, float]) -> float | None:
        """``value`` as a multiple of the anchor's equivalent (the anchor's multiple of the
        reference times the reference's median rate of this sitting) on ``size``; None without a
        reference run or an anchor for that size."""
        rate = self.rate(size)
        if rate is None or size not in anchor:
            return None
        return value / (anchor[size] * rate)

    def describe(self) -> str:
        if self.script is None:
            return "no reference (no yardstick at GOENGINE_YARDSTICK): no ratios"
        sizes = sorted({s for r in self.runs for s in r})
        parts = [f"{s}x{s} {self.rate(s):,.0f}" for s in sizes]
        return f"reference {self.script.name}, median of {len(self.runs)} runs in this sitting: " + ", ".join(parts)


def fmt_ratio(ratio: float | None) -> str:
    return "" if ratio is None else f"{ratio:.2f}x"


# ---- converting the anchors to another reference: python bench/reference.py --against OTHER.py


def compare(other: Path, ours: Path, rounds: int = 5) -> dict[int, tuple[float, float]]:
    """``other`` and ``ours`` run alternately, ``rounds`` runs each (the first of each pair
    alternating too, so that neither always follows the other); by size, the median rate of
    each, ``(other, ours)``."""
    runs: dict[Path, list[dict[int, float]]] = {other: [], ours: []}
    for k in range(rounds):
        for script in (other, ours) if k % 2 == 0 else (ours, other):
            runs[script].append(run_once(script))
    sizes = sorted(set(runs[other][0]) & set(runs[ours][0]))
    return {
        s: (statistics.median(r[s] for r in runs[other]), statistics.median(r[s] for r in runs[ours])) for s in sizes
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="The reference's rate over another reference's (YARDSTICK_OVER_FIRST when the "
        "other is the first reference): both run alternately, medians; numba caches warmed first."
    )
    p.add_argument("--against", required=True, type=Path, help="the other reference script")
    p.add_argument("--rounds", type=int, default=5, help="runs of each (default 5)")
    args = p.parse_args(argv)
    ours = path() or DEFAULT_PATH
    for script in (args.against, ours):  # compile, or load numba's cache, before any timed run
        run_once(script)
    print(f"load average {os.getloadavg()[0]:.2f}")
    for size, (other, mine) in compare(args.against, ours, args.rounds).items():
        print(f"{size}x{size}: {args.against} {other:,.0f}, {ours} {mine:,.0f} playouts/s: {mine / other:.4f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
