"""``goengine review`` as a whole: a blunder planted in a strong game comes out at the top of its
colour's table, and Sabaki's own SGF parser (``@sabaki/sgf``, in ``tests/sabaki``) reads the
review's win rates as its graph would draw them. Both search whole games, so both are slow.

The strong game is game 1,149 of ``data/games/tom9d_2008-2011.sgf.xz`` (``GN[tom-52608696]``,
two 9-dans, 2008): before its move 58 White's nine stones around R7 have two liberties, S7 and
T8, and they live to the end of the game. The planted move 58 is White's S7, which joins them to
three more in a chain of twelve with one liberty; Black's move 59 takes the twelve stones at T8,
and the game is cut there. The review
must find move 58 to be White's worst by far, in win rate and in points.
"""

from __future__ import annotations

import json
import lzma
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import sabaki_project
from sgfmill import sgf as sgfmill

from goengine import coords, sgf
from goengine.board import BLACK, WHITE, Board
from goengine.cli import main
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.review import ReviewSettings, review

pytestmark = pytest.mark.slow  # whole games searched

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "data" / "games" / "tom9d_2008-2011.sgf.xz"  # one game a line (data/games/README.md)
STRONG_GAME = 1149  # its line in GAMES
BLUNDER = 58


def strong_game() -> sgf.SgfGame:
    with lzma.open(GAMES, "rb") as handle:
        for _ in range(STRONG_GAME - 1):
            handle.readline()
        text = handle.readline().strip()
    assert b"GN[tom-52608696]" in text
    return sgf.parse(text)


def planted_blunder() -> list[tuple[int, int]]:
    """The game's first 57 moves, White's self-atari S7 and Black's capture (module docstring)."""
    game = strong_game()
    moves = list(game.moves[: BLUNDER - 1])
    board = Board(19)
    for color, point in moves:
        board.play(color, point)
    chain = coords.from_gtp(19, "R7")
    assert board.color_at(chain) == WHITE and len(board.chain(chain)) == 9
    assert sorted(coords.to_gtp(19, p) for p in board.liberties(chain)) == ["S7", "T8"]
    moves.append((WHITE, coords.from_gtp(19, "S7")))
    moves.append((BLACK, coords.from_gtp(19, "T8")))
    board.play(*moves[-2])
    assert board.play(*moves[-1]) == 12
    return moves


def table_rows(out: str, colour: str) -> list[list[str]]:
    """The rows of ``colour``'s table in the command's output, each split into its words."""
    lines = out.splitlines()
    start = lines.index(f"{colour}'s biggest mistakes:") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("  ") or line.strip() == "none":
            break
        rows.append(line.split())
    return rows


def test_a_planted_blunder_tops_its_colours_table(tmp_path, capsys):
    path = tmp_path / "blunder.sgf"
    path.write_text(sgf.dumps(19, 7.5, planted_blunder()))
    status = main(["review", str(path), "--playouts", "500", "--jobs", "2", "--no-plot", "--no-progress"])
    out = capsys.readouterr().out
    assert status == 0
    white = table_rows(out, "White")
    number, played, best, rate_loss, _, score_loss = white[0]
    assert (number, played) == (str(BLUNDER), "S7") and best != "S7"
    assert float(rate_loss) > 15 and float(score_loss) > 20
    assert all(float(row[3]) < float(rate_loss) / 1.5 for row in white[1:]), out  # by far the worst
    node = sgfmill.Sgf_game.from_bytes((tmp_path / "blunder-review.sgf").read_bytes()).get_main_sequence()[BLUNDER]
    assert f"Move {BLUNDER} (W S7): loss {float(rate_loss):.1f} % of White's win rate" in node.get("C")
    assert float(node.get_raw("SBKV")) > 65  # Black's, after the blunder


def test_sabakis_parser_reads_the_reviews_win_rates_on_every_node(tmp_path):
    project = sabaki_project("@sabaki/sgf")
    game = tmp_path / "game.sgf"
    shutil.copy(ROOT / "tests" / "data" / "game9.sgf", game)
    settings = ReviewSettings(EngineConfig(search=SearchConfig(threads=1)), Budget(playouts=200), plot=False)
    assert review([game], settings) == 0
    written = tmp_path / "game-review.sgf"
    done = subprocess.run(
        ["node", str(project / "review.js"), str(written)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    parsed = json.loads(done.stdout)
    ours = sgfmill.Sgf_game.from_bytes(written.read_bytes()).get_main_sequence()
    assert parsed["games"] == 1 and len(parsed["nodes"]) == len(ours) == 11  # the root and ten moves
    for node, mine in zip(parsed["nodes"], ours, strict=True):
        assert node["SBKV"] == mine.get_raw("SBKV").decode()
        assert 0 <= node["graph"] <= 100 and node["graph"] == pytest.approx(float(node["SBKV"]))
        assert node["comment"] == mine.get("C")
        assert node["variations"] == max(0, len(mine) - 1)
    moves = ["ee", "ai", "ah", "eg", "bi", "tt", "cc", "ge", "gc", "ff"]
    assert [n["B"] or n["W"] for n in parsed["nodes"][1:]] == moves
    assert parsed["nodes"][0]["comment"].startswith("Reviewed by goengine")
