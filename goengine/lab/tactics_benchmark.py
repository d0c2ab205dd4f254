"""The tactical benchmark: GNU Go 3.8's regression tests that ask for a move, played against goengine
(or any GTP engine) at a fixed budget, with the passes by family and in two fixed halves.

    goengine-tactics --out results/tactics-default-8000                 # the whole suite (resumes)
    goengine-tactics --half tune --family "capturing races" --out results/tactics-try
    goengine-tactics --report --out results/tactics-default-8000        # its table, no play
    goengine-tactics --report --out results/tactics-new --compare results/tactics-default-8000
    goengine-tactics --engine "/usr/games/gnugo --mode gtp --level 10" --out results/tactics-gnugo

A laboratory command beside ``goengine-match`` (``python -m goengine.lab.tactics_benchmark`` from a
checkout). The tests are ``data/regression/*.tst`` (``data/regression/README.md``: where they come
from and what was kept; ``goengine.lab.regression``: how a file is read and a test judged). Each
test's position is built from scratch (``loadsgf``, moves), then ``reg_genmove COLOR`` is asked
once. The held-out half (``goengine.lab.regression.held_out``, fixed by a hash of the test's name)
is for measuring only: tune on ``--half tune``, and report both. Tests asking GNU Go's own commands
(``owl_attack``, ``restricted_genmove``, ...) are counted as skipped, by command; a test whose
position the engine could not build (a board size it lacks, a missing file) is counted as not run,
with the reason; neither is a failure.

Every finished test is appended to ``OUT/tests.jsonl`` at once (the engine's command and version in
each record), so the same command resumes a stopped run and plays only what is missing; a folder
never mixes two engine commands. ``--jobs`` engine processes run at once (default: the cores), on
the one job runner (``goengine.jobs``), each worker keeping its engine from test to test. The
default engine is this Python's goengine with one search thread at ``--playouts 8000`` and
``--resign-threshold 0`` (a test asks for a move: in a lost position a resignation would hide it).
An engine that knows ``goengine-set`` gets each test's own seed before it, so a test's answer does
not depend on which tests the process ran before it.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections import Counter, defaultdict
from pathlib import Path

from goengine import numerals
from goengine.jobs import Runner
from goengine.lab.client import GtpClient
from goengine.lab.records import append_record, load_records
from goengine.lab.regression import RegressionTest, load_suite, run_test

PROG = "goengine-tactics"
SUITE = Path(__file__).resolve().parents[2] / "data" / "regression"  # in a checkout or the sdist
DEFAULT_PLAYOUTS = 8000
TOTAL = "all"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    p.add_argument("--engine", default=None, help="the engine's command line (default: this Python's goengine)")
    p.add_argument("--config", default="", help="arguments added to the goengine command (e.g. '--rule kl-ucb')")
    p.add_argument(
        "--playouts", type=numerals.option(int, 1), default=DEFAULT_PLAYOUTS, help="goengine's playouts a move (8000)"
    )
    p.add_argument("--suite", type=Path, default=SUITE, help="the folder of .tst files (data/regression)")
    p.add_argument("--half", choices=("tune", "held-out", "all"), default="all", help="which tests to play")
    p.add_argument("--family", action="append", default=[], help="only this family (repeatable)")
    p.add_argument(
        "--limit", type=numerals.option(int, 1), default=None, help="play at most this many of the tests chosen"
    )
    p.add_argument("--jobs", type=numerals.option(int, 1), default=None, help="engines at once (default: the cores)")
    p.add_argument(
        "--timeout", type=numerals.option(float, 0.001), default=600.0, help="seconds allowed for one command (600)"
    )
    p.add_argument("--out", type=Path, required=True, help="the folder of tests.jsonl")
    p.add_argument("--report", action="store_true", help="play nothing: the table of the tests in --out")
    p.add_argument("--compare", type=Path, default=None, help="with --report: another folder, before")
    p.add_argument("--markdown", action="store_true", help="the tables in Markdown")
    p.add_argument("--json", action="store_true", help="one JSON object a family instead of a table")
    return p.parse_args(argv)


def engine_command(args: argparse.Namespace) -> list[str]:
    """The engine's argv: ``--engine`` as given, or goengine with ``--config``, one thread and the
    playout budget."""
    if args.engine:
        return shlex.split(args.engine)
    return [
        sys.executable,
        "-m",
        "goengine",
        "--quiet",
        "--threads",
        "1",
        "--playouts",
        str(args.playouts),
        "--resign-threshold",
        "0",
        *shlex.split(args.config),
    ]


def chosen(tests: list[RegressionTest], args: argparse.Namespace) -> list[RegressionTest]:
    picked = [
        t
        for t in tests
        if (args.half == "all" or t.held_out == (args.half == "held-out"))
        and (not args.family or t.family in args.family)
    ]
    return picked[: args.limit] if args.limit is not None else picked


# ---- playing

# this process's engine for each command line: a worker of the job runner keeps its engine from
# test to test (``run_one``), as a player would keep GNU Go open for a whole regression file
_ENGINES: dict[tuple[str, ...], tuple[GtpClient, str, bool]] = {}


def _engine(command: tuple[str, ...], timeout: float) -> tuple[GtpClient, str, bool]:
    """This process's engine for ``command``: its client, its version and whether it knows
    ``goengine-set`` (so a test's seed can be set), started on first use."""
    if command not in _ENGINES:
        client = GtpClient(list(command), timeout=timeout)
        _ENGINES[command] = (client, client.send("version"), client.send("known_command goengine-set") == "true")
    return _ENGINES[command]


def close_engines() -> None:
    """Close this process's engines (a run in this process calls it at its end)."""
    for client, _, _ in _ENGINES.values():
        client.close()
    _ENGINES.clear()


def run_one(task: tuple[RegressionTest, tuple[str, ...], Path, float]) -> dict:
    """One test on this process's engine for the command (``_engine``): its record, with the
    engine's command line and version. An engine that dies or hangs is started again and the test
    tried once more; an engine that cannot start at all raises (the runner yields that error)."""
    test, command, suite, timeout = task
    for attempt in (1, 2):
        client, version, seeded = _engine(command, timeout)
        record = run_test(client, test, suite, timeout=timeout, seeded=seeded)
        if not record.pop("engine_failed", False) or attempt == 2:
            break
        client.close()
        _ENGINES.pop(command, None)
    record.update(engine=shlex.join(command), version=version)
    return record


def play(tests: list[RegressionTest], command: list[str], args: argparse.Namespace, path: Path) -> int:
    """Run ``tests`` on ``--jobs`` engines at once (the one job runner, ``goengine.jobs``: each
    worker process keeps its engine), appending each record as it finishes. Returns the number of
    tests recorded."""
    runner = Runner(max(1, args.jobs or os.cpu_count() or 1), in_flight=1)
    tasks = ((test.name, (test, tuple(command), args.suite, args.timeout)) for test in tests)
    done = 0
    failures = Counter()
    try:
        for name, record in runner.run(run_one, tasks):
            if isinstance(record, BaseException):
                failures[f"cannot run {shlex.join(command)}: {record}"] += 1
                continue
            append_record(path, record)
            done += 1
            mark = "error" if "error" in record else ("pass" if record["passed"] else "fail")
            print(f"{name} [{record['family']}]: {record.get('answer', '-')} {mark}", flush=True)
    finally:
        close_engines()
    for failure, count in failures.items():
        print(f"{failure} ({count} tests)", file=sys.stderr)
    return done


# ---- the tables


def tally(records: list[dict]) -> dict[str, dict[str, Counter]]:
    """``family -> half -> Counter(passed, tests, errors)``; the family ``all`` adds them up, the
    half ``all`` both halves."""
    table: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for record in records:
        half = "held-out" if record["held_out"] else "tune"
        for family in (record["family"], TOTAL):
            for h in (half, TOTAL):
                cell = table[family][h]
                if "error" in record:
                    cell["errors"] += 1
                else:
                    cell["tests"] += 1
                    cell["passed"] += int(record["passed"])
    return table


def cell_text(cell: Counter) -> str:
    tests = cell["tests"]
    return f"{cell['passed']}/{tests} ({100 * cell['passed'] / tests:.1f} %)" if tests else "-"


def rows(records: list[dict], before: list[dict] | None) -> list[list[str]]:
    table = tally(records)
    old = tally(before) if before is not None else None
    families = sorted((f for f in table if f != TOTAL), key=lambda f: (-table[f][TOTAL]["tests"], f)) + [TOTAL]
    out = []
    for family in families:
        row = [family] + [cell_text(table[family][h]) for h in ("tune", "held-out", TOTAL)]
        row.append(str(table[family][TOTAL]["errors"]))
        if old is not None:
            row += [cell_text(old[family][h]) if family in old else "-" for h in ("tune", "held-out")]
        out.append(row)
    return out


def print_table(head: list[str], body: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for row in body:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    for row in [head, *body]:
        print("  ".join(text.ljust(w) for text, w in zip(row, widths, strict=True)).rstrip())


def with_families(records: list[dict], tests: list[RegressionTest]) -> list[dict]:
    """The records with each test's family as the suite says it now (the families can be refined
    without playing a test again; a test the suite no longer has keeps its recorded one)."""
    family = {t.name: t.family for t in tests}
    return [{**r, "family": family.get(r["test"], r["family"])} for r in records]


def report(records: list[dict], skipped: Counter, args: argparse.Namespace, tests: list[RegressionTest]) -> None:
    records = with_families(records, tests)
    before = with_families(load_records(args.compare / "tests.jsonl"), tests) if args.compare else None
    if args.json:
        for family, halves in tally(records).items():
            print(json.dumps({"family": family, **{h: dict(c) for h, c in halves.items()}}, sort_keys=True))
        return
    engines = sorted({(r["engine"], r["version"]) for r in records})
    for engine, version in engines:
        print(f"engine: {engine} ({version})")
    head = ["family", "tune", "held-out", "all", "not run"]
    if before is not None:
        head += [f"tune before ({args.compare.name})", "held-out before"]
    print_table(head, rows(records, before), args.markdown)
    errors = Counter(r.get("error_command", "?") for r in records if "error" in r)
    if errors:
        print("not run (the position could not be built): " + ", ".join(f"{c} {n}" for c, n in errors.most_common()))
    print("skipped (tests of GNU Go's own commands): " + ", ".join(f"{c} {n}" for c, n in skipped.most_common()))
    if before is not None:
        old = {r["test"]: r.get("passed") for r in before if "error" not in r}
        new = {r["test"]: r.get("passed") for r in records if "error" not in r}
        gained = sorted(t for t in new if new[t] and old.get(t) is False)
        lost = sorted(t for t in new if not new[t] and old.get(t) is True)
        print(f"passed now, failed before ({len(gained)}): {' '.join(gained)}")
        print(f"failed now, passed before ({len(lost)}): {' '.join(lost)}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tests, skipped = load_suite(args.suite)
    path = args.out / "tests.jsonl"
    records = load_records(path)
    if not args.report:
        command = engine_command(args)
        engines = {r["engine"] for r in records}
        if engines and engines != {shlex.join(command)}:
            print(f"{path} holds tests of another engine command: {sorted(engines)}", file=sys.stderr)
            return 2
        done = {r["test"] for r in records}
        todo = [t for t in chosen(tests, args) if t.name not in done]
        print(f"{len(done)} tests already in {path}; playing {len(todo)} ({args.jobs or os.cpu_count()} at once)")
        try:
            play(todo, command, args, path)
        except KeyboardInterrupt:  # Ctrl-C: the tests finished are kept, as the match and the review do
            print(f"{PROG}: interrupted; the tests finished are in {path}: run it again to go on", file=sys.stderr)
            return 130
        records = load_records(path)
    if not records:
        print(f"no tests in {path}", file=sys.stderr)
        return 1
    report(records, skipped, args, tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
