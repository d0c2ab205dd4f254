"""The speed reference, run beside the benchmarks in the same sitting, and the anchors expressed
as multiples of it.

Absolute playouts a second do not carry from one machine to another, nor from a quiet hour of a
shared machine to a busy one; a ratio to a reference measured in the same sitting does. The
reference is ``../shared/tools/yardstick.py`` (a compact numba kernel of light playouts, not part
of goengine; ``GOENGINE_YARDSTICK`` names another copy), run as a separate process because it
times itself at import. It prints one line per size, "9 playouts/s X avg moves M mean score S".

The anchors, measured side by side with the reference on this project's kind of machine (the
reference's own docstring and issue 13):

- libego's light playouts: 1.08x the reference on 9x9, 1.17x on 19x19 (the target of our uniform
  playouts);
- Pachi's UCT with light playouts, full iterations, one thread: 0.45x and 0.56x (the target of
  every selection rule with ``--playout uniform``);
- Pachi's UCT with its heavy playouts: 0.15x and 0.20x (the target of ``--playout heavy``).
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = ROOT.parent / "shared" / "tools" / "yardstick.py"

# multiples of the reference's playouts/s, by size
LIBEGO = {9: 1.08, 19: 1.17}
PACHI_LIGHT = {9: 0.45, 19: 0.56}
PACHI_HEAVY = {9: 0.15, 19: 0.20}

_LINE = re.compile(r"^(\d+) playouts/s ([0-9.eE+]+)")


def path() -> Path | None:
    """The reference script, or None when this checkout has none beside it."""
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
            return "no reference (../shared/tools/yardstick.py not found; GOENGINE_YARDSTICK names one): no ratios"
        sizes = sorted({s for r in self.runs for s in r})
        parts = [f"{s}x{s} {self.rate(s):,.0f}" for s in sizes]
        return f"reference {self.script.name}, median of {len(self.runs)} runs in this sitting: " + ", ".join(parts)


def fmt_ratio(ratio: float | None) -> str:
    return "" if ratio is None else f"{ratio:.2f}x"
