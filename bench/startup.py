"""Start-up benchmark: how soon the engine answers, and how much memory it holds, beside GNU Go.

    python bench/startup.py                # 5 runs each of goengine and GNU Go, alternating
    python bench/startup.py --runs 9 --json
    python bench/startup.py --cold --runs 1   # goengine after a plain pip install: an empty cache

Each run starts a fresh process of the GTP engine, goengine as a controller starts it (default
settings but one thread: ``goengine --threads 1``) or GNU Go 3.8 (``gnugo --mode gtp --level 10``),
and plays the set-up a controller plays:

- ``name`` sent at once: the seconds from starting the process to its answer (``name``);
- ``boardsize 19``, ``clear_board``, ``komi 7.5``; then the resident memory is read from
  ``/proc`` once it has stopped growing (goengine loads its kernels in the background; ``ready
  MB``), and the peak so far (``peak MB``);
- ``genmove b``: goengine at 10,000 playouts (``goengine-set playouts 10000``), GNU Go at its
  level; the seconds it took (``genmove``), and then the resident memory (``after MB``) and the
  peak of the whole run; ``first move``, the seconds from starting the process to that answer.

Beside them, in fresh processes of their own: ``model``, the seconds ``MoveModel.load()`` takes
to have the shipped move model ready (its lookup table mapped from the kernel cache), and
``import``, the seconds to import the engine and the GTP front-end.

``--cold`` gives every goengine run an empty cache (``GOENGINE_CACHE_DIR`` and
``NUMBA_CACHE_DIR`` in a temporary folder), as after ``pip install`` with no ``make``: then
``genmove`` includes the kernels' compilation, and the memory is read as the set-up ends, without
waiting for it to settle (it grows for as long as the kernels compile), so ``first move`` is
what a player waits for.

Medians over the runs, with the issue's targets beside goengine's figures; the speed reference
(``bench/reference.py``) runs before and after, so a figure can be read against the machine's
state (start-up, like playouts, scales with the machine). ``docs/performance.md`` holds the
latest figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import reference

GNUGO = "/usr/games/gnugo"
GOENGINE = [sys.executable, "-m", "goengine", "--threads", "1"]
GNUGO_COMMAND = [GNUGO, "--mode", "gtp", "--level", "10", "--chinese-rules"]
PLAYOUTS = 10_000  # the genmove: 19x19, 10,000 playouts
SETUP = ("boardsize 19", "clear_board", "komi 7.5")

#: issue 38's targets for goengine (warm cache, one thread): at most these
TARGETS = {"name": 0.5, "ready_mb": 250.0, "after_mb": 350.0, "model": 0.3}

_MODEL_CHILD = """
import time
from goengine.movemodel import MoveModel
start = time.perf_counter()
MoveModel.load()
print(time.perf_counter() - start)
"""

_IMPORT_CHILD = """
import time
start = time.perf_counter()
import goengine.engine, goengine.gtp
print(time.perf_counter() - start)
"""


def memory_mb(pid: int) -> tuple[float, float]:
    """The resident memory of process ``pid`` now and at its peak (``VmRSS``, ``VmHWM``), in MB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def settled_memory_mb(pid: int, quiet: float = 0.5, limit: float = 30.0) -> tuple[float, float]:
    """``memory_mb`` once the resident memory has not grown for ``quiet`` seconds (at most
    ``limit`` seconds of waiting): what the process holds when its start-up work is done."""
    rss, peak = memory_mb(pid)
    since = time.perf_counter()
    deadline = since + limit
    while time.perf_counter() < deadline:
        time.sleep(0.05)
        now, peak = memory_mb(pid)
        if now > rss + 1.0:
            rss, since = now, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            break
    return memory_mb(pid)


class Session:
    """A GTP engine started as a controller starts it, answering one command at a time."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None):
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )

    def ask(self, command: str) -> str:
        """The answer's text to ``command``; RuntimeError on a failure or a closed pipe."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{command!r}: the engine closed its output")
            if line == "\n" and lines:
                break
            lines.append(line)
        text = "".join(lines).strip()
        if not text.startswith("="):
            raise RuntimeError(f"{command!r} failed: {text}")
        return text[1:].strip()

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):  # an engine already gone needs no quit
            self.ask("quit")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def engine_run(
    command: list[str], setup: tuple[str, ...], env: dict[str, str] | None = None, settle: bool = True
) -> dict:
    """One start of an engine: the seconds to ``name``, the memory ready (once settled, with
    ``settle``) and after one 19x19 ``genmove``, the genmove's seconds and those from the start
    to its answer."""
    session = Session(command, env)
    try:
        session.ask("name")
        named = time.perf_counter() - session.started
        for line in SETUP + setup:
            session.ask(line)
        ready, ready_peak = settled_memory_mb(session.process.pid) if settle else memory_mb(session.process.pid)
        start = time.perf_counter()
        move = session.ask("genmove b")
        searched = time.perf_counter() - start
        first_move = time.perf_counter() - session.started
        after, peak = memory_mb(session.process.pid)
    finally:
        session.close()
    return {
        "name": named,
        "ready_mb": ready,
        "ready_peak_mb": ready_peak,
        "genmove": searched,
        "first_move": first_move,
        "after_mb": after,
        "peak_mb": peak,
        "move": move,
    }


def child_seconds(code: str, env: dict[str, str] | None = None) -> float:
    """The number a fresh Python process running ``code`` prints last."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the child failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return float(done.stdout.split()[-1])


def median_row(runs: list[dict]) -> dict:
    keys = [k for k, v in runs[0].items() if isinstance(v, float)]
    return {k: statistics.median(run[k] for run in runs) for k in keys} | {"runs": len(runs)}


def measure(runs: int, cold: bool, with_gnugo: bool) -> dict:
    """Medians of ``runs`` alternating starts of goengine and GNU Go (``with_gnugo``)."""
    ours, theirs, model, imports = [], [], [], []
    for k in range(runs):
        env = None
        scratch = None
        if cold:
            scratch = tempfile.TemporaryDirectory(prefix="goengine-startup-")
            env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
            env["GOENGINE_CACHE_DIR"] = scratch.name
        try:
            ours.append(engine_run(GOENGINE, (f"goengine-set playouts {PLAYOUTS}",), env, settle=not cold))
            if not cold:
                model.append(child_seconds(_MODEL_CHILD))
                imports.append(child_seconds(_IMPORT_CHILD))
        finally:
            if scratch:
                scratch.cleanup()
        if with_gnugo:
            theirs.append(engine_run(GNUGO_COMMAND, ()))
        row = ours[-1]
        print(
            f"run {k + 1}: goengine name {row['name']:.2f} s, ready {row['ready_mb']:.0f} MB, genmove "
            f"{row['genmove']:.2f} s, first move {row['first_move']:.2f} s, after {row['after_mb']:.0f} MB",
            file=sys.stderr,
            flush=True,
        )
    result = {"goengine": median_row(ours), "cold": cold}
    if model:
        result["goengine"]["model"] = statistics.median(model)
        result["goengine"]["import"] = statistics.median(imports)
    if theirs:
        result["gnugo"] = median_row(theirs)
    return result


def verdicts(row: dict) -> dict[str, bool]:
    """Each target goengine's row can be held to: met or not."""
    return {key: row[key] <= limit for key, limit in TARGETS.items() if key in row}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="starts of each engine (default 5)")
    parser.add_argument("--cold", action="store_true", help="goengine with an empty kernel cache each run")
    parser.add_argument("--no-gnugo", action="store_true", help="goengine only")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args(argv)
    with_gnugo = not args.no_gnugo and Path(GNUGO).exists()

    ref = reference.Reference()
    ref.run()
    result = measure(max(1, args.runs), args.cold, with_gnugo)
    ref.run()
    result["targets"] = TARGETS
    result["met"] = verdicts(result["goengine"]) if not args.cold else {}
    result["load_average"] = os.getloadavg()
    result["reference_9x9"] = ref.rate(9) if ref.available else None
    if args.json:
        print(json.dumps(result))
        return 0
    state = "cold cache (as after pip install)" if args.cold else "warm cache"
    print(
        f"medians of {result['goengine']['runs']} runs, {state}; load average {result['load_average'][0]:.2f}; "
        f"reference 9x9 {result['reference_9x9'] or 'n/a'} playouts/s"
    )
    columns = (
        ("name", "name s", "{:.2f}"),
        ("ready_mb", "ready MB", "{:.0f}"),
        ("genmove", "genmove s", "{:.2f}"),
        ("first_move", "1st move s", "{:.2f}"),
        ("after_mb", "after MB", "{:.0f}"),
        ("peak_mb", "peak MB", "{:.0f}"),
        ("model", "model s", "{:.3f}"),
        ("import", "import s", "{:.2f}"),
    )
    print(f"{'':10}" + "".join(f"{title:>11}" for _, title, _ in columns))
    rows = [("goengine", result["goengine"])]
    if "gnugo" in result:
        rows.append(("GNU Go", result["gnugo"]))
    for label, row in rows:
        cells = "".join(f"{(form.format(row[key]) if key in row else '-'):>11}" for key, _, form in columns)
        print(f"{label:10}{cells}")
    targets = "".join(f"{(f'<= {TARGETS[key]:g}' if key in TARGETS else ''):>11}" for key, _, _ in columns)
    print(f"{'target':10}{targets}")
    if result["met"]:
        missed = [key for key, ok in result["met"].items() if not ok]
        print("every target met" if not missed else f"missed: {', '.join(missed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
