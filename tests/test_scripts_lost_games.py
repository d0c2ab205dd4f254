"""``scripts/lost_games.py``: where goengine's lost games were lost (the review's curve read back
from the review SGF ``goengine review`` writes, or goengine's own win rates kept in the records)
and what kind of loss each was (stones captured in the game and GNU Go's dead stones at its
end)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from match_harness import GNUGO

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.lab.records import append_record
from goengine.review.annotate import review_sgf
from goengine.review.evaluate import Evaluation
from goengine.review.gamefile import read
from goengine.review.losses import review_moves

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "lost_games.py"
_spec = importlib.util.spec_from_file_location("lost_games", SCRIPT)
lost_games = importlib.util.module_from_spec(_spec)
sys.modules["lost_games"] = lost_games  # dataclasses look their module up here
_spec.loader.exec_module(lost_games)

# goengine (White) crawls along the first line under Black's wall and loses its five stones to F1
CAPTURE = ["B A2", "W A1", "B B2", "W B1", "B C2", "W C1", "B D2", "W D1", "B E2", "W E1", "B F1"]
# Black's wall on the D line, White's on the F line: 36 points each, so komi 7.5 decides
WALLS = [move for row in range(1, 10) for move in (f"B D{row}", f"W F{row}")]


def sgf_point(vertex: str) -> str:
    """A 9x9 GTP vertex (``D2``) as SGF letters (``dh``): columns skip I, rows count from the top."""
    column = "ABCDEFGHJ".index(vertex[0])
    return "abcdefghi"[column] + "abcdefghi"[9 - int(vertex[1:])]


def sgf_text(moves: list[str]) -> str:
    nodes = "".join(f";{m[0]}[{sgf_point(m[2:])}]" for m in moves)
    return f"(;GM[1]FF[4]SZ[9]KM[7.5]{nodes})"


def write_review(folder: Path, name: str, moves: list[str], black_after: list[float]) -> None:
    """The game's SGF and the review SGF ``goengine review`` would write for it: every move the
    search's best, so that Black's win rate after move ``k`` is ``black_after[k - 1]`` (the move's
    value in the search before it, as the review reads it)."""
    path = folder / f"{name}.sgf"
    path.write_text(sgf_text(moves))
    game = read(path)
    evaluations = []
    for i in range(len(moves) + 1):
        to_move = BLACK if i % 2 == 0 else WHITE
        best = coords.from_gtp(9, moves[i][2:] if i < len(moves) else "J9")
        black = black_after[min(i, len(moves) - 1)]
        evaluations.append(Evaluation(to_move, black if to_move == BLACK else 1.0 - black, 0.0, best, (best,), 500))
    reviews = review_moves(game.moves, evaluations, game.first_number)
    (folder / f"{name}-review.sgf").write_bytes(review_sgf(game, evaluations, reviews, "500 playouts"))


def record(index: int, name: str, moves: list[str], engine_black: bool, times: list[float]) -> dict:
    side = {"times": times}
    return {
        "config": "c",
        "index": index,
        "size": 9,
        "komi": 7.5,
        "moves": moves,
        "n_moves": len(moves),
        "engine_black": engine_black,
        "engine_won": False,
        "reason": "resignation",
        "sgf": f"sgf/{name}.sgf",
        "time": "30",
        "black": side if engine_black else {"times": []},
        "white": {"times": []} if engine_black else side,
    }


@pytest.mark.parametrize(
    "rates, move",
    [
        ([60, 40, 55, 45, 30], 4),  # above 50 after move 3, below from move 4 on
        ([40, 30, 20], 1),  # never reached 50
        ([40, 60], 3),  # not lost by the end
        ([50, 49.9], 2),  # 50 itself is not below
    ],
)
def test_a_game_is_lost_at_the_move_after_which_the_curve_stays_below_half(rates, move):
    assert lost_games.lost_at(rates) == move


@pytest.mark.parametrize(
    "move, size, stage",
    [
        (1, 9, "1-20"),
        (20, 9, "1-20"),
        (21, 9, "21-40"),
        (60, 9, "41-60"),
        (61, 9, "61+"),
        (95, 9, "61+"),
        (91, 19, "91-180"),
        (271, 19, "271+"),
    ],
)
def test_the_stages_are_quarters_of_the_boards_points(move, size, stage):
    assert lost_games.stage_name(move, size) == stage


def test_the_curve_and_the_losses_are_read_back_from_the_review_sgf(tmp_path):
    black_after = [0.55, 0.5, 0.6, 0.62, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99]
    write_review(tmp_path, "g", CAPTURE, black_after)
    white, losses = lost_games.curve(tmp_path / "g-review.sgf", WHITE)
    # White's win rate after each of the 11 moves, in percent
    assert white == pytest.approx([100 - 100 * r for r in black_after], abs=0.01)
    assert sorted(losses) == list(range(1, 12))
    assert all(loss == (0.0, 0.0) for loss in losses.values())  # every move was the search's best


@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_a_captured_group_and_a_loss_on_points_are_told_apart_gnugo_judging(tmp_path):
    reviews = tmp_path / "review"
    reviews.mkdir()
    # the capture game: White (goengine) is ahead until Black's wall closes, lost for good from
    # move 7 (Black's D2) on
    write_review(reviews, "capture", CAPTURE, [0.45, 0.4, 0.42, 0.45, 0.48, 0.49, 0.6, 0.7, 0.8, 0.9, 0.99])
    # the walls: goengine (Black) thought itself ahead to the end, the late fall of a blind spot
    write_review(reviews, "walls", WALLS, [0.6] * 16 + [0.55, 0.3])
    append_record(tmp_path / "games.jsonl", record(0, "capture", CAPTURE, False, [1.0, 2.0, 0.5, 1.0, 3.0]))
    append_record(tmp_path / "games.jsonl", record(1, "walls", WALLS, True, [1.0] * 9))
    append_record(tmp_path / "games.jsonl", {**record(2, "won", WALLS, False, [1.0] * 9), "engine_won": True})
    append_record(tmp_path / "games.jsonl", record(3, "unreviewed", WALLS, True, [1.0] * 9))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--reviews", str(reviews), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # a lost game without its review is named, and the status says one was missing
    assert done.returncode == 1 and "unreviewed-review.sgf" in done.stderr and "won-review" not in done.stderr
    capture, walls = (json.loads(line) for line in done.stdout.splitlines())
    assert capture["color"] == "W" and capture["moves"] == 11
    assert capture["lost_at"] == 7 and capture["lost_by"] == "opponent" and not capture["late_fall"]
    assert capture["stones_lost"] == 5 and capture["stones_won"] == 0 and capture["kind"] == "group"
    assert walls["color"] == "B" and walls["kind"] == "points" and walls["stones_lost"] == 0
    assert walls["lost_at"] == 18 and walls["late_fall"] and walls["lost_by"] == "opponent"


def game(
    kind: str, lost_at: int, late_fall: bool, lost: int, won: int, loss: float, seconds: float
) -> lost_games.LostGame:
    return lost_games.LostGame(
        game="g",
        color="B",
        moves=50,
        lost_at=lost_at,
        lost_by="goengine",
        late_fall=late_fall,
        stage=lost_games.stage_name(lost_at, 9),
        mistake_move=lost_at,
        mistake_winrate_loss=loss,
        mistake_points_loss=loss / 4,
        mistake_seconds=seconds,
        median_seconds=0.6,
        clock_left=10.0,
        stones_lost=lost,
        stones_won=won,
        kind=kind,
    )


def test_the_tables_count_the_kinds_the_stages_and_the_late_falls():
    games = [
        game("group", 30, False, 12, 2, 40.0, 0.5),  # 10 stones beyond the opponent's
        game("group", 50, True, 6, 0, 20.0, 1.0),  # 6
        game("group", 45, False, 9, 1, 10.0, 0.2),  # 8: the median of 10, 6, 8
        game("points", 65, True, 3, 3, 8.0, 0.9),
    ]
    text = lost_games.tables(games, 9)
    assert "4 lost games" in text
    group = next(line for line in text.splitlines() if line.startswith("group"))
    assert group.split()[:5] == ["group", "3", "1", "45", "8"] and group.endswith("20.0 %, 5.0")
    assert "1-20 0, 21-40 1, 41-60 2, 61+ 1" in text
    assert "late falls (below 50 % for good only in the last 4 moves): 2 of 4" in text
    assert "less than the game's median time a move: 2 of 4" in text


def test_the_curve_from_a_record_is_goengines_own_view_move_by_move():
    """goengine White in a five-move game it resigned after: its three searches (before moves 2
    and 4, and the resignation after move 5) said 0.6, 0.55 and 0.1. After its own move a search's
    value, after the opponent's the next search's; a move's loss is the fall by the next search,
    by hand."""
    rec = record(0, "g", ["B E5", "W C3", "B G7", "W C7", "B D4"], False, [1.0, 1.0, 1.0])
    rec["white"]["evaluations"] = [[0.6, 2.0, 500.0], [0.55, 1.0, 500.0], [0.1, -9.0, 500.0]]
    rates, losses = lost_games.curve_from_record(rec)
    assert rates == pytest.approx([60.0, 60.0, 55.0, 55.0, 10.0])
    assert losses == {2: pytest.approx((5.0, 1.0)), 4: pytest.approx((45.0, 10.0))}
    assert lost_games.lost_at(rates) == 5  # the opponent's D4: below 50 from then on
    # a game goengine did not resign: the last figure stands for the moves after its last search
    rec["white"]["evaluations"] = [[0.6, 2.0, 500.0], [0.3, -1.0, 500.0]]
    rates, losses = lost_games.curve_from_record(rec)
    assert rates == pytest.approx([60.0, 60.0, 30.0, 30.0, 30.0]) and losses == {2: pytest.approx((30.0, 3.0))}
    # a search that kept no figures is skipped; a record with none gives nothing
    rec["white"]["evaluations"] = [None, [0.3, -1.0, 500.0]]
    assert lost_games.curve_from_record(rec)[0] == pytest.approx([30.0] * 5)
    rec["white"]["evaluations"] = []
    assert lost_games.curve_from_record(rec) is None


@pytest.mark.gnugo
@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}")
def test_the_lost_games_read_from_the_records_alone_gnugo_judging(tmp_path):
    capture = record(0, "capture", CAPTURE, False, [1.0, 2.0, 0.5, 1.0, 3.0])
    # goengine (White) thought itself ahead until Black's D2 (move 7), then saw its stones caught
    capture["white"]["evaluations"] = [
        [0.6, 3.0, 500.0],
        [0.58, 2.0, 500.0],
        [0.55, 1.0, 500.0],
        [0.2, -8.0, 500.0],
        [0.05, -12.0, 500.0],
    ]
    append_record(tmp_path / "games.jsonl", capture)
    append_record(tmp_path / "games.jsonl", record(1, "figureless", WALLS, True, [1.0] * 9))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--from-records", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # the game without goengine's figures is named, and the status says one was missing
    assert done.returncode == 1 and "figureless" in done.stderr
    (game,) = (json.loads(line) for line in done.stdout.splitlines())
    assert game["lost_at"] == 7 and game["lost_by"] == "opponent" and game["kind"] == "group"
    # the biggest fall came after goengine's sixth move (C1): 55 % to 20 % once it saw D2
    assert game["mistake_move"] == 6 and game["mistake_winrate_loss"] == pytest.approx(35.0)
    assert game["mistake_points_loss"] == pytest.approx(9.0) and game["mistake_seconds"] == 0.5  # its third time


# A judge that answers every command, finds no dead stones, and crashes judging a game whose last
# move was F1 (GNU Go 3.8 crashes so on a few positions: a segmentation fault in final_status_list)
CRASHING_JUDGE = """\
import os, signal, sys
last = ""
for line in sys.stdin:
    command = line.strip()
    if command.startswith("play"):
        last = command.split()[-1]
    if command == "final_status_list dead" and last.upper() == "F1":
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.stdout.write("= \\n\\n")
    sys.stdout.flush()
"""


def test_a_game_the_judge_crashes_on_is_named_and_the_rest_are_judged_by_a_new_judge(tmp_path):
    """The first lost game crashes the judge: it is named with the reason and left out, the status
    says so, and the game after it is judged by a judge started again."""
    judge = tmp_path / "judge"
    judge.write_text(f"#!{sys.executable}\n{CRASHING_JUDGE}")
    judge.chmod(0o755)
    evaluations = [[0.6, 3.0, 500.0], [0.58, 2.0, 500.0], [0.55, 1.0, 500.0], [0.2, -8.0, 500.0], [0.05, -12.0, 500.0]]
    crash = record(0, "crash", CAPTURE, False, [1.0, 2.0, 0.5, 1.0, 3.0])
    crash["white"]["evaluations"] = evaluations
    walls = record(1, "walls", WALLS, False, [1.0] * 9)
    walls["white"]["evaluations"] = [[0.6, 1.0, 500.0]] * 8 + [[0.3, -2.0, 500.0]]
    append_record(tmp_path / "games.jsonl", crash)
    append_record(tmp_path / "games.jsonl", walls)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path), "--from-records", "--gnugo", str(judge), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "could not judge 1 lost games" in done.stderr and "crash (" in done.stderr and "exited" in done.stderr
    (game,) = (json.loads(line) for line in done.stdout.splitlines())
    assert game["game"] == "walls" and game["kind"] == "points" and game["stones_lost"] == 0
