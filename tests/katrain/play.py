"""A whole 9x9 game against goengine as KaTrain's AI player: what ``tests/test_katrain.py`` runs.

Run with KaTrain 1.20.0 on the path, as ``drive.py`` is (``make katrain``):

    HOME=$(mktemp -d) KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 \\
    PYTHONPATH=tests/katrain/site:. python tests/katrain/play.py \\
        --command 'exec python -m goengine analysis --threads 1 --playouts 100' --visits 100

It does what KaTrain's window does for a new game against its AI, with KaTrain's settings as they
come (9x9, komi 6.5 and Japanese rules from its ``game`` settings, the engine's visits from
``--visits``): ``Game(katrain, engine)`` on an empty board, then, until both players pass or
``--moves`` moves are played, each side's move by KaTrain's own ``generate_ai_move``: White is
goengine through KaTrain's default AI (``ai:default``, the engine's top move), Black a "human"
played by KaTrain's policy-weighted AI (``ai:p:weighted``, which picks among the engine's policy).
Each move is played on KaTrain's own board (``Game.play``, which refuses an illegal one) and
analysed by the engine before the next. ``--seed`` seeds Python's ``random``, from which the
weighted AI draws. It prints one JSON object: every move, who chose it and
the top candidates of the analysis it was chosen from, the final position's figures, how the game
ended, KaTrain's error log and what became of the engine's process.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import random
import sys
import time
import traceback

from drive import RecordingKaTrain, read_cmdline, shut_down
from katrain.core.ai import generate_ai_move
from katrain.core.constants import AI_DEFAULT, AI_WEIGHTED
from katrain.core.engine import KataGoEngine
from katrain.core.game import Game

AI_OF = {"W": AI_DEFAULT, "B": AI_WEIGHTED}  # goengine's own choice plays White


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", required=True, help="KaTrain's altcommand: the engine, started by a shell")
    parser.add_argument("--visits", type=int, default=100, help="KaTrain's engine/max_visits")
    parser.add_argument("--moves", type=int, default=160, help="stop after this many moves without two passes")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds")
    parser.add_argument("--seed", type=int, default=1, help="seeds Python's random (KaTrain's weighted AI)")
    args = parser.parse_args()
    random.seed(args.seed)
    faulthandler.dump_traceback_later(args.timeout + 120, exit=True, file=sys.__stderr__)

    katrain = RecordingKaTrain()
    config = dict(katrain.config("engine"))
    config.update(backend="custom", altcommand=args.command, allow_recovery=False)
    config.update(max_visits=args.visits, fast_visits=args.visits, max_time=1000.0)
    started = time.monotonic()
    engine = KataGoEngine(katrain, config)
    process = engine.katago_process
    cmdline = read_cmdline(process)
    game = Game(katrain, engine, game_properties={"SZ": 9})
    moves = []
    while game.end_result is None and len(moves) < args.moves and time.monotonic() - started < args.timeout:
        node = game.current_node
        player = node.next_player
        mode = AI_OF[player]
        move, played = generate_ai_move(game, mode, katrain.config(f"ai/{mode}"))
        if played is None:
            break
        moves.append(
            {
                "player": player,
                "ai": mode,
                "move": move.gtp(),
                "top": [c["move"] for c in node.candidate_moves[:3]],
                "analysed": node.analysis_complete,
            }
        )
    final = game.current_node
    deadline = time.monotonic() + 60
    while not final.analysis_complete and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    seconds = time.monotonic() - started

    returncode, gone = shut_down(engine, process)
    json.dump(
        {
            "size": list(game.board_size),
            "ruleset": game.root.ruleset,
            "komi": game.komi,
            "seconds": round(seconds, 1),
            "moves": moves,
            "ended": game.end_result is not None,
            "final": {"winrate": final.winrate, "score": final.score, "complete": final.analysis_complete},
            "queries": len(katrain.queries),
            "errors": katrain.errors,
            "warnings": katrain.warnings[:3],
            "stderr": katrain.stderr[-20:],
            "engine": {"cmdline": cmdline, "returncode": returncode, "gone": gone},
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
