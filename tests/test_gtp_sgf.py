"""GTP's SGF commands (``goengine.gtp.sgf``): ``loadsgf`` at a move number, ``printsgf`` to a
file and back, what a file may not be (a size goengine does not play, a FIFO, a device), a load
that fails changing nothing, and a recorded game that repeats a position.

``tests/data/filllib10.sgf`` is a game of GNU Go 3.8's regression suite (its
``regression/games/filllib10.sgf``, GPL v3 as GNU Go; tests/data/README.md): a 19x19 game whose
move 237, B A2, repeats an earlier position."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill

from goengine import coords, sgf
from goengine.board import BLACK, WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.game import Setup
from goengine.gtp import GtpEngine

DATA = Path(__file__).parent / "data"


def pt(engine: Engine, vertex: str) -> int:
    return coords.from_gtp(engine.game.size, vertex)


def names(engine: Engine, points) -> set[str]:
    return {coords.to_gtp(engine.game.size, p) for p in points}


# ---- SGF


def moves_of(text: str) -> list[tuple[str, tuple[int, int] | None]]:
    game = sgfmill.Sgf_game.from_string(text)
    return [node.get_move() for node in game.get_main_sequence()[1:]]


GAME9 = moves_of((DATA / "game9.sgf").read_text())


@pytest.mark.parametrize("move_number", [1, 2, 5, 6, 7, 10, 11, 50])
def test_loadsgf_at_a_move_number_then_printsgf_gives_the_moves_before_it(move_number):
    gtp = GtpEngine(Engine())
    assert gtp.send(f"loadsgf {DATA / 'game9.sgf'} {move_number}") == "=\n\n"
    response = gtp.send("printsgf")
    assert response.startswith("= (;")
    text = response[2:-2]
    game = sgfmill.Sgf_game.from_string(text)
    assert game.get_size() == 9 and game.get_komi() == 6.5
    assert moves_of(text) == GAME9[: move_number - 1]
    assert len(gtp.engine.game.board.moves) == min(move_number - 1, len(GAME9))


def test_printsgf_to_a_file_then_loadsgf_gives_the_same_game(tmp_path):
    engine = Engine()
    engine.load_position(Setup.from_sgf(sgf.load(str(DATA / "handicap9.sgf"))))
    assert names(engine, engine.game.board.stones(BLACK)) == {"C3", "G7", "C5"}
    out = tmp_path / "copy.sgf"
    gtp = GtpEngine(engine)
    assert gtp.send(f"printsgf {out}") == "=\n\n"
    copy = Engine()
    copy.load_position(Setup.from_sgf(sgf.load(str(out))))
    assert str(copy.game.board) == str(engine.game.board)
    assert copy.game.board.moves == engine.game.board.moves == [(WHITE, pt(engine, "E5")), (BLACK, pt(engine, "C5"))]
    assert copy.game.setup_stones == engine.game.setup_stones
    assert copy.game.komi == engine.game.komi == 0.5


@pytest.mark.parametrize("size", [25, 20, 4, 2, 1])
def test_loadsgf_of_a_size_goengine_does_not_play_names_the_sizes_it_plays(tmp_path, size):
    """(Before: sizes the kernels cannot hold said "from 2 to 19", the others "from 5 to 19".)"""
    path = tmp_path / "game.sgf"
    path.write_text(f"(;FF[4]GM[1]SZ[{size}]KM[0])")
    assert GtpEngine(Engine()).send(f"loadsgf {path}") == (
        f"? cannot load file: board size {size} is not from 5 to 19\n\n"
    )


def test_printsgf_refuses_a_fifo_a_device_or_a_folder_at_once(tmp_path):
    """(Before: ``printsgf`` to a FIFO waited for a reader that never came, and the engine with
    it; to a device, it wrote the game there.) The command runs on a thread; the join's timeout
    only guards the suite against the old hang."""
    fifo = tmp_path / "fifo.sgf"
    os.mkfifo(fifo)
    gtp = GtpEngine(Engine())
    answers: list[str] = []
    writer = threading.Thread(target=lambda: answers.append(gtp.send(f"printsgf {fifo}")), daemon=True)
    writer.start()
    writer.join(timeout=30)
    if writer.is_alive():  # the old hang: a reader's open lets the writer's open return
        with open(fifo, "rb") as reader:
            reader.read()
        writer.join()
        pytest.fail("printsgf waited for a reader of the FIFO")
    assert answers == ["? cannot save file: not a regular file (a FIFO)\n\n"]
    assert gtp.send("printsgf /dev/null") == "? cannot save file: not a regular file (a device)\n\n"
    assert gtp.send(f"printsgf {tmp_path}") == "? cannot save file: not a regular file (a folder)\n\n"
    assert gtp.send(f"printsgf {tmp_path / 'game.sgf'}") == "=\n\n"
    assert (tmp_path / "game.sgf").read_text().startswith("(;FF[4]")


def test_a_loadsgf_that_fails_leaves_the_game_as_it_was(tmp_path):
    """The file's third move is on a stone: an error naming it, and the board, the moves, the komi,
    the handicap and the rules are those of before. (Before: the file's size, komi and first two
    moves were left on the board.)"""
    path = tmp_path / "illegal.sgf"
    path.write_text("(;FF[4]GM[1]SZ[13]KM[6.5];B[dd];W[jj];B[dd])")
    gtp = GtpEngine(Engine())
    for line in ("boardsize 9", "komi 3.5", "kgs-rules aga", "fixed_handicap 2", "play w e5"):
        assert gtp.send(line).startswith("="), line
    seen = [gtp.send(line) for line in ("showboard", "printsgf", "kata-get-rules", "get_komi")]
    history = list(gtp.engine.game.board.history)
    assert gtp.send(f"loadsgf {path}") == "? cannot load file: move 3 (B D10) is illegal: occupied\n\n"
    assert [gtp.send(line) for line in ("showboard", "printsgf", "kata-get-rules", "get_komi")] == seen
    assert gtp.engine.game.board.history == history
    assert gtp.send("undo") == "=\n\n" and gtp.send("undo") == "? cannot undo\n\n"  # the handicap stays


@pytest.mark.parametrize(("make", "message"), [("fifo", "a FIFO"), ("/dev/zero", "a device")])
def test_loadsgf_refuses_what_is_not_a_regular_file_at_once(tmp_path, make, message):
    """(Before: a FIFO hung the engine, waiting for a writer; /dev/zero was read until memory ran
    out.) ``sgf.read_file`` asks what the file is before reading it (tests/test_sgf.py)."""
    path = tmp_path / "game.sgf"
    if make == "fifo":
        os.mkfifo(path)
    else:
        path = Path(make)
    gtp = GtpEngine(Engine())
    assert gtp.send(f"loadsgf {path}") == f"? cannot load file: not a regular file ({message})\n\n"


# ---- a record that repeats a position (issue 38)

# KO, 5x5 as SGF set-up stones: B5, A4 and B3 Black, C5, B4, D4 and C3 White; Black's C4 takes B4
KO_SETUP = "(;FF[4]GM[1]SZ[5]KM[0.5]AB[ba][ab][bc]AW[ca][bb][db][cc]"


def test_loadsgf_plays_a_recorded_move_that_breaks_only_superko_and_says_so(tmp_path):
    """A recorded game's moves are history, not choices: B takes the ko, both pass, W retakes,
    repeating the first position. GNU Go loads such a record (it plays any move onto an empty
    point), and so does KataGo (its tolerant replay ignores superko); goengine plays it too, logs
    a warning naming the move, and plays on from there, where a move it chooses still obeys
    superko. (Before: ``? illegal move``.)"""
    path = tmp_path / "repeat.sgf"
    path.write_text(KO_SETUP + ";B[cb];W[];B[];W[bb];B[ee])")
    logs: list[str] = []
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=SearchConfig(playouts=50))), log=logs.append)
    assert gtp.send(f"loadsgf {path}") == "=\n\n"
    assert logs == [
        f"warning: loadsgf {path}: move 4 (W B4) repeats an earlier position, which positional superko "
        "forbids; played, since the record has it"
    ]
    assert len(gtp.engine.game.moves) == 5
    assert gtp.send("undo") == "=\n\n" and gtp.send("undo") == "=\n\n"
    assert gtp.send("play w b4") == "? illegal move\n\n"  # a choice now: superko holds
    assert gtp.send("genmove w").startswith("= ")


@pytest.mark.parametrize(
    ("moves", "answer", "why"),
    [
        (";B[cb];W[bb]", "move 2 (W B4) is illegal: ko", "a simple-ko retake: illegal under every rule"),
        (";B[de];W[];B[ed];W[ee]", "move 4 (W E1) is illegal: suicide", "W E1 between B D1 and B E2"),
        (";B[ba]", "move 1 (B B5) is illegal: occupied", "a stone on a stone"),
    ],
)
def test_loadsgf_still_refuses_a_record_with_any_other_illegal_move_and_names_it(tmp_path, moves, answer, why):
    """The error names the move, its number and the reason (before: ``? illegal move`` alone),
    in the file's coordinates whatever the engine's board size was, and the game is unchanged."""
    path = tmp_path / "broken.sgf"
    path.write_text(KO_SETUP + moves + ")")
    gtp = GtpEngine(Engine(EngineConfig(size=19)))
    before = gtp.send("showboard")
    assert gtp.send(f"loadsgf {path}") == f"? cannot load file: {answer}\n\n", why
    assert gtp.send("showboard") == before


def test_loadsgf_of_gnu_gos_filllib10_a_real_game_that_repeats_a_position():
    """filllib10.sgf's move 237, B A2, repeats the position after move 233 (NNGS, 2002; GNU Go
    loads it). The whole game loads with one warning, undo takes moves back across the repeat,
    and the engine plays on. (Before: ``? illegal move``.)"""
    logs: list[str] = []
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=SearchConfig(playouts=50))), log=logs.append)
    path = DATA / "filllib10.sgf"
    assert gtp.send(f"loadsgf {path}") == "=\n\n"
    assert len(gtp.engine.game.moves) == 306 and gtp.engine.game.komi == 0.5
    assert len(logs) == 1 and ": move 237 (B A2) repeats an earlier position" in logs[0]
    for _ in range(306 - 236):
        assert gtp.send("undo") == "=\n\n"
    assert gtp.engine.game.board.illegal_reason(BLACK, "A2") == "superko"
    assert gtp.send("play b a2") == "? illegal move\n\n"
    assert gtp.send(f"loadsgf {path} 240") == "=\n\n" and len(gtp.engine.game.moves) == 239
    assert gtp.send("genmove w").startswith("= ")
