"""KaTrain's own engine class reviewing a real game with goengine: what ``tests/test_katrain.py`` runs.

Run with KaTrain 1.20.0 on the path (``make katrain`` installs it in ``tests/katrain/site``), as a
separate process so that kivy's import side effects (its ``~/.kivy``, its log) stay out of the test's:

    HOME=$(mktemp -d) KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 \\
    PYTHONPATH=tests/katrain/site:. python tests/katrain/drive.py GAME.sgf \\
        --command 'exec python -m goengine analysis --threads 1 --playouts 200' --visits 200

It does what KaTrain's window does when a game is opened: ``KaTrainSGF.parse_file``, then
``Game(katrain, engine, move_tree)``, whose constructor asks the engine (``KataGoEngine``, the
"custom" backend: KaTrain starts ``--command`` with ``shell=True``, hence the ``exec``) for the
analysis of every node (``Game.analyze_all_nodes``). ``--rules`` sets the game's ``RU`` first, as
KaTrain's "edit game" dialog does (KaTrain sends the rules of ``RU``; its ``game/rules`` setting only
fills in a missing ``RU``). It waits until KaTrain holds a complete analysis of every node, then
shuts the engine down the way KaTrain does (``shutdown(finish=False)``: SIGTERM, then the reader
threads joined) and prints one JSON object: what KaTrain made of each node (win rate, score, visits,
points lost, candidate moves, each candidate played on KaTrain's own board to see that it is legal
there), the queries it sent, its error log and goengine's stderr, and what became of the process.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import sys
import time
import traceback

from katrain.core.base_katrain import KaTrainBase
from katrain.core.constants import OUTPUT_DEBUG, OUTPUT_ERROR, OUTPUT_KATAGO_STDERR
from katrain.core.engine import KataGoEngine
from katrain.core.game import BaseGame, Game, IllegalMoveException, KaTrainSGF
from pysgf import Move


class RecordingKaTrain(KaTrainBase):
    """KaTrain without a window, keeping its log: errors, warnings received, goengine's stderr and
    the queries sent."""

    def __init__(self):
        self.errors, self.warnings, self.stderr, self.queries = [], [], [], []
        super().__init__(force_package_config=True, debug_level=OUTPUT_DEBUG)

    def log(self, message, level=0):
        text = str(message)
        if level == OUTPUT_ERROR:
            self.errors.append(text)
        elif level == OUTPUT_KATAGO_STDERR:
            self.stderr.append(text)
        elif level == OUTPUT_DEBUG and text.startswith("Sending query"):
            self.queries.append(json.loads(text.split(": ", 1)[1]))
        elif level == OUTPUT_DEBUG and isinstance(message, str) and text.startswith("{'warning'"):
            self.warnings.append(text)


def legality(path: str, katrain, nodes, candidates) -> list[list[str]]:
    """For each node, the candidate moves KaTrain's own board refuses (``BaseGame.play``: occupied,
    ko, suicide), each as "MOVE: reason"; played on a second copy of the game, with no engine."""
    referee = BaseGame(katrain, move_tree=KaTrainSGF.parse_file(path))
    refused = []
    for node, moves in zip(referee.root.nodes_in_tree[: len(nodes)], candidates, strict=True):
        here = []
        for gtp in moves:
            referee.set_current_node(node)
            try:
                referee.play(Move.from_gtp(gtp, player=node.next_player))
            except IllegalMoveException as err:
                here.append(f"{gtp}: {err}")
        refused.append(here)
    return refused


def read_cmdline(process, wait: float = 30.0) -> str | None:
    """The engine's command line from /proc, once it has one: read at once after the spawn, the
    child may not have exec'd yet (its cmdline then reads empty), so it is read again until it
    names something, the process ends, or ``wait`` seconds pass. None when it cannot be read."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with open(f"/proc/{process.pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode().strip()
        except OSError:
            return None
        if cmdline or process.poll() is not None or time.monotonic() > deadline:
            return cmdline
        time.sleep(0.01)


def shut_down(engine, process) -> tuple[int | None, bool]:
    """KaTrain's own way out (``shutdown(finish=False)``: SIGTERM, then its reader and writer
    threads joined), then what became of the engine's process: its exit code (None when it did
    not end within a minute) and whether it is gone."""
    engine.shutdown(finish=False)
    try:
        returncode = process.wait(timeout=60)
    except Exception:
        returncode = None
    try:
        os.kill(process.pid, 0)
    except ProcessLookupError:
        return returncode, True
    return returncode, False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sgf")
    parser.add_argument("--command", required=True, help="KaTrain's altcommand: the engine, started by a shell")
    parser.add_argument("--rules", help="set the game's RU to these rules first (KaTrain's 'edit game')")
    parser.add_argument("--visits", type=int, default=200, help="KaTrain's engine/max_visits")
    parser.add_argument("--max-time", type=float, default=1000.0, help="KaTrain's engine/max_time, seconds")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up waiting after this many seconds")
    args = parser.parse_args()
    # kivy's logger replaced sys.stderr on import: tracebacks go to the real one
    faulthandler.dump_traceback_later(args.timeout + 120, exit=True, file=sys.__stderr__)  # a hang shows where

    katrain = RecordingKaTrain()
    config = dict(katrain.config("engine"))
    # allow_recovery False: KaTrain's recovery popup needs its window
    config.update(backend="custom", altcommand=args.command, allow_recovery=False)
    config.update(max_visits=args.visits, max_time=args.max_time)
    move_tree = KaTrainSGF.parse_file(args.sgf)
    if args.rules:
        move_tree.set_property("RU", args.rules)

    started = time.monotonic()
    engine = KataGoEngine(katrain, config)
    process = engine.katago_process
    cmdline = read_cmdline(process)
    game = Game(katrain, engine, move_tree=move_tree)
    nodes = game.root.nodes_in_tree
    while not all(node.analysis_complete for node in nodes) and time.monotonic() - started < args.timeout:
        if process.poll() is not None:
            break
        time.sleep(0.2)
    seconds = time.monotonic() - started

    shutdown_started = time.monotonic()
    returncode, gone = shut_down(engine, process)

    report = []
    for node in nodes:
        move = node.move
        candidates = node.candidate_moves
        report.append(
            {
                "move": move.gtp() if move else None,
                "player": move.player if move else None,
                "next_player": node.next_player,
                "complete": node.analysis_complete,
                "winrate": node.winrate,
                "score": node.score,
                "visits": node.root_visits,
                "points_lost": node.points_lost,
                "candidates": [
                    {key: c.get(key) for key in ("move", "visits", "winrate", "scoreLead", "pointsLost", "order", "pv")}
                    for c in candidates
                ],
                "ownership": len(node.ownership or []),
                "policy": len(node.policy or []),
            }
        )
    refused = legality(args.sgf, katrain, nodes, [[c["move"] for c in n["candidates"]] for n in report])
    for entry, bad in zip(report, refused, strict=True):
        entry["refused"] = bad
    json.dump(
        {
            "size": list(game.board_size),
            "ruleset": game.root.ruleset,
            "komi": game.komi,
            "seconds": round(seconds, 1),
            "queries": [{k: q.get(k) for k in ("rules", "komi", "maxVisits", "analyzeTurns")} for q in katrain.queries],
            "nodes": report,
            "errors": katrain.errors,
            "warnings": katrain.warnings,
            "stderr": katrain.stderr[-40:],
            "engine": {
                "cmdline": cmdline,
                "returncode": returncode,
                "gone": gone,
                "shutdown_seconds": round(time.monotonic() - shutdown_started, 1),
            },
        },
        sys.__stdout__,
    )
    print(file=sys.__stdout__)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:
        traceback.print_exc(file=sys.__stderr__)
        sys.exit(1)
