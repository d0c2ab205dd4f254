"""Game: one game's record with no search in it: moves and undo (the superko history and the ko
ban come back; a long game's history stays small), the handicap, and loading a position. The
SGF commands that read and write it are ``test_gtp_scoring.py``'s.

The positions are ASCII diagrams (``X`` black, ``O`` white), set up with ``Game.setup``.
"""

from __future__ import annotations

import random
import tracemalloc

import pytest
from helpers import set_up
from sgfmill import sgf as sgfmill

from goengine import coords, sgf
from goengine.board import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.game import (
    CHECKPOINT_EVERY,
    BadHandicap,
    BadStones,
    BoardNotEmpty,
    Game,
    NothingToUndo,
    Setup,
)
from goengine.gtp import GtpEngine

FAST = SearchConfig(playouts=100)


def pt(engine: Engine, vertex: str) -> int:
    return coords.from_gtp(engine.game.size, vertex)


def names(engine: Engine, points) -> set[str]:
    return {coords.to_gtp(engine.game.size, p) for p in points}


# ---- undo


def snapshot(board: Board):
    return (str(board), board.to_move, board.ko_point, board.hash, list(board.history), set(board._seen))


def test_undo_restores_the_position_and_the_superko_history():
    engine = Engine(EngineConfig(size=5))
    engine.game.play(BLACK, "C3")
    before = snapshot(engine.game.board)
    engine.game.play(WHITE, "A1")
    engine.game.undo()
    assert snapshot(engine.game.board) == before
    # the position after W A1 left the history with the move: playing it again is legal
    engine.game.play(WHITE, "A1")
    engine.game.undo()
    engine.game.undo()
    assert snapshot(engine.game.board)[:4] == (str(Board(5)), BLACK, None, Board(5).hash)
    with pytest.raises(NothingToUndo):
        engine.game.undo()


KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""


def test_undo_brings_back_the_ko_ban():
    engine = set_up(KO)
    engine.game.play(BLACK, "C4")  # takes B4: White may not retake at once
    assert engine.game.board.ko_point == pt(engine, "B4")
    with pytest.raises(IllegalMove):
        engine.game.play(WHITE, "B4")
    engine.game.play(WHITE, "E1")  # a threat lifts the ban
    engine.game.play(BLACK, "E2")
    engine.game.undo()
    engine.game.undo()
    assert engine.game.board.ko_point == pt(engine, "B4")
    with pytest.raises(IllegalMove):
        engine.game.play(WHITE, "B4")


def test_undo_after_a_superko_refusal_and_back_makes_the_move_legal_again():
    """B takes the ko, both pass, W's retake repeats a position (superko); undoing to before
    B's capture and replaying it is legal, the capture and the passes are forgotten."""
    engine = set_up(KO)
    engine.game.play(BLACK, "C4")
    engine.game.play(WHITE, PASS)
    engine.game.play(BLACK, PASS)
    with pytest.raises(IllegalMove, match="superko"):
        engine.game.play(WHITE, "B4")
    for _ in range(3):
        engine.game.undo()
    assert engine.game.board.color_at(pt(engine, "B4")) == WHITE
    engine.game.play(BLACK, "C4")
    assert engine.game.board.captures[BLACK] == 1


def test_a_position_that_fails_to_load_leaves_the_game_as_it_was():
    """All or nothing: the third move is on a stone, and the game keeps its board, moves, komi,
    handicap and size. (Before: the game was cleared, then the position replayed on it.)"""
    game = Game(9, komi=3.5)
    game.fixed_handicap(2)
    game.play(WHITE, coords.from_gtp(9, "E5"))
    before = (str(game.board), list(game.moves), list(game.board.history), game.komi, game.handicap, game.size)
    with pytest.raises(IllegalMove, match="occupied"):
        game.load_position(Setup(13, 6.5, moves=((BLACK, 20), (WHITE, 40), (BLACK, 20))))
    assert (str(game.board), list(game.moves), list(game.board.history), game.komi, game.handicap, game.size) == before
    game.undo()
    assert game.moves == [] and len(game.handicap) == 2


def test_a_record_may_repeat_a_position_and_undo_replays_it():
    """A recorded game's moves are history: B takes the ko, both pass, W retakes, repeating the
    first position, which superko forbids as a choice; ``load_position(..., superko=False)``
    plays it and names it, undo replays it, and a move chosen now still obeys superko. (Before:
    the load failed, and undo's replay would have failed on the repeat.)"""
    engine = set_up(KO)
    setup = engine.game.setup_stones
    moves = [(BLACK, pt(engine, "C4")), (WHITE, PASS), (BLACK, PASS), (WHITE, pt(engine, "B4")), (BLACK, PASS)]
    position = Setup(5, 0.5, tuple(setup), tuple(moves))
    with pytest.raises(IllegalMove, match="superko"):
        Game(5).load_position(position)
    game = Game(5)
    assert game.load_position(position, superko=False) == [3]
    assert game.moves == moves and game.board.hash == game.board.history[0]
    game.undo()  # replays the four moves before it from the start, the repeat among them
    assert game.moves == moves[:4] and game.board.color_at(pt(engine, "B4")) == WHITE
    game.undo()
    with pytest.raises(IllegalMove, match="superko"):
        game.play(WHITE, pt(engine, "B4"))


# ---- handicap


def test_fixed_handicap_then_white_moves_first():
    engine = Engine(EngineConfig(size=9, search=FAST))
    points = engine.game.fixed_handicap(2)
    assert names(engine, points) == {"C3", "G7"}
    assert engine.game.board.to_move == WHITE
    assert names(engine, engine.game.board.stones(BLACK)) == {"C3", "G7"}
    result = engine.genmove(WHITE)
    assert engine.game.board.moves == [(WHITE, result.move)]
    assert engine.game.board.to_move == BLACK
    game = engine.game
    text = sgf.dumps(9, game.komi, game.moves, game.setup_stones, handicap=len(game.handicap))
    game = sgfmill.Sgf_game.from_string(text)
    root = game.get_root()
    assert root.get("HA") == 2
    assert {coords.to_gtp(9, coords.from_sgf(9, p)) for p in root.get("AB")} == {"C3", "G7"}
    assert game.get_main_sequence()[1].get_move()[0] == "w"
    engine.game.undo()
    assert engine.game.board.to_move == WHITE and len(engine.game.board.stones(BLACK)) == 2
    with pytest.raises(NothingToUndo):
        engine.game.undo()  # handicap stones are the start of the game


def test_handicap_needs_an_empty_board():
    engine = Engine(EngineConfig(size=9, search=FAST))
    engine.game.play(BLACK, "E5")
    assert not engine.game.is_empty
    with pytest.raises(BoardNotEmpty, match="the board already has stones or moves"):
        engine.game.fixed_handicap(2)
    with pytest.raises(BoardNotEmpty):
        engine.game.place_handicap([pt(engine, "C3"), pt(engine, "G7")])
    # GTP words it as the specification does (GTP 2, section 6.3.2)
    gtp = GtpEngine(engine)
    assert gtp.send("fixed_handicap 2") == "? board not empty\n\n"
    assert gtp.send("set_free_handicap C3 G7") == "? board not empty\n\n"


def test_handicap_errors_say_what_is_wrong_and_gtp_words_them_as_the_specification():
    engine = Engine(EngineConfig(size=9, search=FAST))
    with pytest.raises(BadHandicap, match="2 to 9 stones, not 10"):
        engine.game.fixed_handicap(10)
    with pytest.raises(BadHandicap, match="no fixed handicap on a 5x5 board"):
        Game(5).fixed_handicap(2)
    with pytest.raises(BadStones, match="a point is given twice"):
        engine.game.place_handicap([pt(engine, "C3"), pt(engine, "C3")])
    gtp = GtpEngine(engine)
    assert gtp.send("fixed_handicap 10") == "? invalid number of stones\n\n"
    assert gtp.send("set_free_handicap C3 C3") == "? bad vertex list\n\n"
    assert engine.game.is_empty
    with pytest.raises(NothingToUndo, match="no move to undo"):
        engine.game.undo()
    assert gtp.send("undo") == "? cannot undo\n\n"


# ---- a long game: undo by rewinding, history of bounded size


def random_moves(size: int, n: int, seed: int) -> list[tuple[int, int]]:
    """``n`` legal moves of a random game on ``size`` (a pass where a side has no move, so the
    game runs on: both passing ends nothing here, the record just grows)."""
    rng = random.Random(seed)
    board = Board(size)
    moves = []
    for _ in range(n):
        color = board.to_move
        legal = board.legal_moves(color)
        p = rng.choice(legal) if legal and rng.random() < 0.97 else PASS
        board.play(color, p)
        moves.append((color, p))
    return moves


def replayed(size: int, moves: list[tuple[int, int]]) -> Board:
    """The slow reference: the position after ``moves``, from an empty board."""
    board = Board(size)
    for color, p in moves:
        board.play(color, p)
    return board


def position(board: Board):
    return (
        str(board),
        board.to_move,
        board.ko_point,
        board.ko_color,
        board.hash,
        board.passes,
        board.last_moves,
        dict(board.captures),
        list(board.history),
        list(board.moves),
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_undo_across_checkpoints_gives_the_position_replayed_from_the_start(seed):
    """Undo rewinds from the last checkpoint (every CHECKPOINT_EVERY moves) and replays; it must
    give exactly the position, ko, captures and history that replaying from the empty board
    gives, at a checkpoint, just after one and just before one."""
    n = 2 * CHECKPOINT_EVERY + 5
    moves = random_moves(7, n, seed)
    game = Game(7)
    for color, p in moves:
        game.play(color, p)
    for k in (n - 1, 2 * CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY + 1, 3, 0):
        while len(game.moves) > k:
            game.undo()
        assert position(game.board) == position(replayed(7, moves[:k])), k
    # and the game goes on from there, checkpoints and all
    for color, p in moves[: CHECKPOINT_EVERY + 2]:
        game.play(color, p)
    game.undo()
    assert position(game.board) == position(replayed(7, moves[: CHECKPOINT_EVERY + 1]))


def test_a_long_game_keeps_a_bounded_history_a_move():
    """8,192 moves (passes among them) cost under 1 KB a move: the record keeps each move and each
    position's hash, and a board's arrays only every CHECKPOINT_EVERY moves (once, a board copy per
    move for undo made a 100,000-move SGF grow the engine past 23 GB)."""
    moves = random_moves(19, 400, 3)
    moves += [(BLACK if i % 2 == 0 else WHITE, PASS) for i in range(len(moves) % 2, 8192 - 400 + len(moves) % 2)]
    moves = moves[:8192]
    game = Game(19)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for color, p in moves:
        game.play(color, p)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert len(game.moves) == 8192
    assert grown / len(moves) < 1024, f"{grown / len(moves):.0f} bytes a move"
    for _ in range(CHECKPOINT_EVERY + 3):
        game.undo()
    assert position(game.board) == position(replayed(19, moves[: 8192 - CHECKPOINT_EVERY - 3]))


def test_loadsgf_of_a_huge_game_then_undo(tmp_path):
    """A 20,000-move SGF loads through GTP, and undo takes its moves back."""
    moves = [";B[]" if i % 2 == 0 else ";W[]" for i in range(20000)]
    path = tmp_path / "passes.sgf"
    path.write_text("(;FF[4]GM[1]SZ[9]KM[7.5]" + "".join(moves) + ")")
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=FAST)))
    assert gtp.send(f"loadsgf {path}") == "=\n\n"
    assert len(gtp.engine.game.moves) == 20000
    assert gtp.send("undo") == "=\n\n"
    assert len(gtp.engine.game.moves) == 19999


def test_a_setup_brings_its_rules_or_keeps_the_games_and_a_failed_one_changes_neither():
    from goengine.ruleset import GOENGINE, JAPANESE

    game = Game(9)
    game.load_position(Setup(9, 6.5, moves=((BLACK, 20),)))
    assert game.rules == GOENGINE and game.komi == 6.5
    game.load_position(Setup(9, 6.5, moves=((BLACK, 20),), rules=JAPANESE))
    assert game.rules == JAPANESE
    stones = ((BLACK, coords.from_gtp(13, "D4")), (BLACK, coords.from_gtp(13, "K10")))
    game.load_position(Setup(13, 0.5, stones=stones, to_move=WHITE))
    assert game.rules == JAPANESE and game.board.to_move == WHITE and game.size == 13  # kept: none given
    with pytest.raises(IllegalMove):
        game.load_position(Setup(9, 7.5, moves=((BLACK, 20), (WHITE, 20)), rules=GOENGINE))
    assert game.rules == JAPANESE and game.size == 13
