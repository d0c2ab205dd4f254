"""The GTP commands of ``goengine.gtp.scoring``: the board shown, the final score and the dead
stones through GTP's words. (``loadsgf`` and ``printsgf``: ``tests/test_gtp_sgf.py``.)"""

from __future__ import annotations

from pathlib import Path

from helpers import DEAD_STONE, set_up

from goengine import coords
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.scoring import format_score

DATA = Path(__file__).parent / "data"


def pt(engine: Engine, vertex: str) -> int:
    return coords.from_gtp(engine.game.size, vertex)


def names(engine: Engine, points) -> set[str]:
    return {coords.to_gtp(engine.game.size, p) for p in points}


# ---- dead stones and the final score


def test_format_score_writes_gtp_results():
    assert [format_score(x) for x in (3.5, -0.5, 0.0, 12.0)] == ["B+3.5", "W+0.5", "0", "B+12"]


def test_final_status_list_gives_one_chain_a_line_and_showboard_the_captures_and_komi():
    engine = set_up(DEAD_STONE)
    gtp = GtpEngine(engine)
    dead = gtp.send("final_status_list dead")
    assert dead == "= B5\n\n"
    alive = gtp.send("final_status_list alive")[2:-2].split("\n")
    assert sorted(sorted(line.split()) for line in alive) == [sorted(f"{c}{r}" for r in range(1, 10)) for c in "EF"]
    assert gtp.send("final_status_list unknown") == "? syntax error\n\n"
    board = gtp.send("showboard")
    assert "\n   A B C D E F G H J\n 9 . . . . X O . . . 9\n" in board
    assert board.endswith("\ncaptures: black 0, white 0; komi 7.5\n\n")
