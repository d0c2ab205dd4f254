"""Engine: the move decision, undo, handicap, SGF in and out, dead stones and the final score (the
clock's allocation and charging: ``test_time_control.py``). No GTP text here except where a test
goes through ``GtpEngine`` on purpose.

The positions are ASCII diagrams (``X`` black, ``O`` white), set up with ``Engine.setup``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import set_up
from sgfmill import sgf as sgfmill

from goengine import coords, rules, sgf
from goengine.board import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.engine import (
    RESIGN,
    BadHandicap,
    BadStones,
    BoardNotEmpty,
    Engine,
    EngineError,
    NothingToUndo,
    SearchResult,
)
from goengine.gtp import GtpEngine

DATA = Path(__file__).parent / "data"
FAST = SearchConfig(playouts=100)


def pt(engine: Engine, vertex: str) -> int:
    return coords.from_gtp(engine.size, vertex)


def names(engine: Engine, points) -> set[str]:
    return {coords.to_gtp(engine.size, p) for p in points}


# ---- the move decision (``Engine.decide``): resign, pass, the most visited move

# HOPELESS, 5x5, Black to move: White owns the board with eyes on the edges; Black can only play
# in the middle row, where no black stone can ever have an eye (every point touches White).
HOPELESS = """
. O . O .
O O O O O
. . . . .
O O O O O
. O . O .
"""

DECIDING_RULES = list(rules.RULES)


def research_engine(diagram: str, komi: float, rule: str, **search) -> Engine:
    """An engine on ``diagram`` (Black to move) in the research setting (uniform playouts, no
    prior, expansion on the second visit), so the decision rests on plain search statistics."""
    search = {"playout": "uniform", "prior": "none", "expand_at": 1, "rule": rule, **search}
    return set_up(diagram, BLACK, komi=komi, search=SearchConfig(**search))


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_resigns_a_hopeless_position(rule):
    decision = research_engine(HOPELESS, 0.5, rule, playouts=2000, resign_threshold=0.1).genmove(BLACK)
    assert decision.move == RESIGN
    assert decision.search.winrate < 0.1 and "under 0.1" in decision.reason


@pytest.mark.parametrize("rule", ["ucb1", "rave"])
def test_never_resigns_with_threshold_zero(rule):
    engine = research_engine(HOPELESS, 0.5, rule, playouts=2000, resign_threshold=0.0)
    decision = engine.genmove(BLACK, commit=False)
    assert decision.move != RESIGN
    assert decision.move == decision.search.best.move
    assert decision.move == PASS or engine.board.is_legal(BLACK, decision.move)


@pytest.mark.parametrize("rule", ["ucb1", "rave"])
def test_resigns_only_after_enough_visits(rule):
    # resign_min_visits root visits, or half the playout budget when that is less. One search of
    # 600 playouts is judged as if a time budget had stopped it there (a hurried move: too few
    # visits to resign on) and as the playout budget it was; no clock decides the outcome.
    engine = research_engine(HOPELESS, 0.5, rule, playouts=600, resign_threshold=0.1, resign_min_visits=1000)
    board = engine.board.copy()
    board.to_move = BLACK
    result = engine.search.run(board, engine.komi, Budget(playouts=600))
    assert 300 <= result.visits < 1000 and result.best.winrate < 0.1
    assert engine.decide(board, result, Budget(seconds=0.5)).move != RESIGN
    assert engine.decide(board, result, Budget(playouts=5000, seconds=0.5)).move != RESIGN
    assert engine.decide(board, result, Budget(playouts=600)).move == RESIGN
    small = research_engine(HOPELESS, 0.5, rule, playouts=500, resign_threshold=0.1, resign_min_visits=1000)
    assert small.genmove(BLACK).move == RESIGN


# ENDGAME, 5x5: settled but for the dame C3. White has just passed; Black is to move. The area
# count is 12 to 12, so with komi -0.5 Black already wins by passing, and with komi 0.5 Black
# loses by passing but wins by filling C3 (13 to 12).
ENDGAME = """
. X . X .
X X X X X
X X . O O
O O O O O
. O . O .
"""


def endgame_after_white_pass(komi: float, rule: str) -> Engine:
    engine = research_engine(ENDGAME, komi, rule, playouts=1000, resign_threshold=0.1)
    engine.play(WHITE, PASS)
    return engine


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_passes_when_the_opponent_passed_and_the_count_wins(rule):
    engine = endgame_after_white_pass(-0.5, rule)
    assert engine.board.to_move == BLACK and engine.board.score(-0.5) > 0
    decision = engine.genmove(BLACK)
    assert decision.move == PASS
    assert "pass" in decision.reason


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_does_not_pass_when_a_move_still_wins(rule):
    engine = endgame_after_white_pass(0.5, rule)
    assert engine.board.score(0.5) < 0
    assert names(engine, [engine.genmove(BLACK).move]) == {"C3"}


def test_no_move_searched_is_a_pass():
    engine = Engine(EngineConfig(size=5))
    decision = engine.decide(engine.board, SearchResult(), Budget(playouts=10))
    assert (decision.move, decision.reason) == (PASS, "no move searched")


# ---- undo


def snapshot(board: Board):
    return (str(board), board.to_move, board.ko_point, board.hash, list(board.history), set(board._seen))


def test_undo_restores_the_position_and_the_superko_history():
    engine = Engine(EngineConfig(size=5))
    engine.play(BLACK, "C3")
    before = snapshot(engine.board)
    engine.play(WHITE, "A1")
    engine.undo()
    assert snapshot(engine.board) == before
    # the position after W A1 left the history with the move: playing it again is legal
    engine.play(WHITE, "A1")
    engine.undo()
    engine.undo()
    assert snapshot(engine.board)[:4] == (str(Board(5)), BLACK, None, Board(5).hash)
    with pytest.raises(EngineError):
        engine.undo()


KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""


def test_undo_brings_back_the_ko_ban():
    engine = set_up(KO)
    engine.play(BLACK, "C4")  # takes B4: White may not retake at once
    assert engine.board.ko_point == pt(engine, "B4")
    with pytest.raises(IllegalMove):
        engine.play(WHITE, "B4")
    engine.play(WHITE, "E1")  # a threat lifts the ban
    engine.play(BLACK, "E2")
    engine.undo()
    engine.undo()
    assert engine.board.ko_point == pt(engine, "B4")
    with pytest.raises(IllegalMove):
        engine.play(WHITE, "B4")


def test_undo_after_a_superko_refusal_and_back_makes_the_move_legal_again():
    """B takes the ko, both pass, W's retake repeats a position (superko); undoing to before
    B's capture and replaying it is legal, the capture and the passes are forgotten."""
    engine = set_up(KO)
    engine.play(BLACK, "C4")
    engine.play(WHITE, PASS)
    engine.play(BLACK, PASS)
    with pytest.raises(IllegalMove, match="superko"):
        engine.play(WHITE, "B4")
    for _ in range(3):
        engine.undo()
    assert engine.board.color_at(pt(engine, "B4")) == WHITE
    engine.play(BLACK, "C4")
    assert engine.board.captures[BLACK] == 1


# ---- handicap


def test_fixed_handicap_then_white_moves_first():
    engine = Engine(EngineConfig(size=9, search=FAST))
    points = engine.fixed_handicap(2)
    assert names(engine, points) == {"C3", "G7"}
    assert engine.board.to_move == WHITE
    assert names(engine, engine.board.stones(BLACK)) == {"C3", "G7"}
    result = engine.genmove(WHITE)
    assert engine.board.moves == [(WHITE, result.move)]
    assert engine.board.to_move == BLACK
    text = sgf.dumps(9, engine.komi, engine.board.moves, engine.setup_stones, handicap=len(engine.handicap))
    game = sgfmill.Sgf_game.from_string(text)
    root = game.get_root()
    assert root.get("HA") == 2
    assert {coords.to_gtp(9, coords.from_sgf(9, p)) for p in root.get("AB")} == {"C3", "G7"}
    assert game.get_main_sequence()[1].get_move()[0] == "w"
    engine.undo()
    assert engine.board.to_move == WHITE and len(engine.board.stones(BLACK)) == 2
    with pytest.raises(EngineError):
        engine.undo()  # handicap stones are the start of the game


def test_handicap_needs_an_empty_board():
    engine = Engine(EngineConfig(size=9, search=FAST))
    engine.play(BLACK, "E5")
    assert not engine.board_is_empty
    with pytest.raises(BoardNotEmpty, match="the board already has stones or moves"):
        engine.fixed_handicap(2)
    with pytest.raises(BoardNotEmpty):
        engine.place_handicap([pt(engine, "C3"), pt(engine, "G7")])
    # GTP words it as the specification does (GTP 2, section 6.3.2)
    gtp = GtpEngine(engine)
    assert gtp.send("fixed_handicap 2") == "? board not empty\n\n"
    assert gtp.send("set_free_handicap C3 G7") == "? board not empty\n\n"


def test_handicap_errors_say_what_is_wrong_and_gtp_words_them_as_the_specification():
    engine = Engine(EngineConfig(size=9, search=FAST))
    with pytest.raises(BadHandicap, match="2 to 9 stones, not 10"):
        engine.fixed_handicap(10)
    with pytest.raises(BadHandicap, match="no fixed handicap on a 5x5 board"):
        Engine(EngineConfig(size=5, search=FAST)).fixed_handicap(2)
    with pytest.raises(BadStones, match="a point is given twice"):
        engine.place_handicap([pt(engine, "C3"), pt(engine, "C3")])
    gtp = GtpEngine(engine)
    assert gtp.send("fixed_handicap 10") == "? invalid number of stones\n\n"
    assert gtp.send("set_free_handicap C3 C3") == "? bad vertex list\n\n"
    assert engine.board_is_empty
    with pytest.raises(NothingToUndo, match="no move to undo"):
        engine.undo()
    assert gtp.send("undo") == "? cannot undo\n\n"


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
    assert len(gtp.engine.board.moves) == min(move_number - 1, len(GAME9))


def test_printsgf_to_a_file_then_loadsgf_gives_the_same_game(tmp_path):
    engine = Engine()
    engine.load_position(sgf.load(str(DATA / "handicap9.sgf")))
    assert names(engine, engine.board.stones(BLACK)) == {"C3", "G7", "C5"}
    out = tmp_path / "copy.sgf"
    gtp = GtpEngine(engine)
    assert gtp.send(f"printsgf {out}") == "=\n\n"
    copy = Engine()
    copy.load_position(sgf.load(str(out)))
    assert str(copy.board) == str(engine.board)
    assert copy.board.moves == engine.board.moves == [(WHITE, pt(engine, "E5")), (BLACK, pt(engine, "C5"))]
    assert copy.setup_stones == engine.setup_stones
    assert copy.komi == engine.komi == 0.5


# ---- dead stones and the final score

DEAD_STONE = """
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
"""


def test_final_status_calls_a_lone_stone_in_the_opponent_area_dead():
    engine = set_up(DEAD_STONE)
    assert names(engine, engine.final_status("dead")) == {"B5"}
    alive = names(engine, engine.final_status("alive"))
    assert alive == {f"{c}{r}" for c in "EF" for r in range(1, 10)}
    assert engine.final_status("seki") == []


def test_final_score_removes_the_dead_stone_before_counting():
    engine = set_up(DEAD_STONE)
    # as it stands: A-D touch both colours (no one's), Black 9, White 9 + 1 + 27
    assert engine.board.area_score() == 9 - 37
    # B5 removed: Black 45 (E and A-D), White 36 (F and G-J)
    assert engine.final_score() == 45 - 36 - 7.5
    assert engine.board.area_score() == 9 - 37  # the board itself is untouched


def test_dead_stones_are_judged_after_both_players_passed():
    """final_score is asked after two passes; the judging playouts must play on from there (they
    once started with the pass count, stopped at once, and judged every stone alive)."""
    engine = set_up(DEAD_STONE)
    engine.play(BLACK, PASS)
    engine.play(WHITE, PASS)
    assert engine.board.is_over
    assert names(engine, engine.final_status("dead")) == {"B5"}
    assert engine.final_score() == 45 - 36 - 7.5


# A game of the seed 000 match (beta-ucb #59, goengine White) that ended with two passes and a
# black stone at B5 in atari inside White's area. GNU Go 3.8's final_score: W+6.5; the area count
# of the board as it stands: W+0.5.
MATCH_GAME = (
    "E5 F3 D3 D4 E4 D5 E6 E3 C3 D6 B5 E7 G6 D7 F7 F8 G8 C4 E2 B4 E1 B3 F2 C2 D2 G3 H2 G2 H3 F6 F5 G7 "
    "G1 F6 H7 F7 H5 B2 H8 F9 G9 C8 H1 C1 F1 B9 D1 D9 J9 pass J7 B7 H6 pass H4 A8 G4 pass F4 C5 pass J2 "
    "J3 E9 J1 A5 pass A7 pass pass"
)


def test_final_score_of_a_match_game_agrees_with_gnugo():
    engine = Engine()
    for i, vertex in enumerate(MATCH_GAME.split()):
        engine.play(BLACK if i % 2 == 0 else WHITE, vertex)
    assert engine.board.is_over
    assert engine.board.score(7.5) == -0.5
    assert names(engine, engine.final_status("dead")) == {"B5"}
    assert engine.final_score() == -6.5
    gtp = GtpEngine(engine)
    assert gtp.send("final_score") == "= W+6.5\n\n"


def test_genmove_after_two_passes_plays_on_when_passing_loses():
    """GTP leaves ending the game to the controller: asked for a move after both passed, White
    (behind by the whole board) must play, not pass."""
    engine = Engine(EngineConfig(search=SearchConfig(playouts=500, seed=3)))
    engine.play(BLACK, "E5")
    engine.play(WHITE, PASS)
    engine.play(BLACK, PASS)
    result = engine.genmove(WHITE)
    assert result.move != PASS, result.reason
    assert engine.board.color_at(result.move) == WHITE


SEKI = """
    . X X O . O .
    O . X O O O O
    O O O X X X X
    X X X X X X X
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


@pytest.mark.parametrize("diagram", [DEAD_STONE, SEKI], ids=["dead-stone", "seki"])
def test_final_status_never_splits_a_chain(diagram):
    """A chain lives or dies as a whole. (Before a fix, on SEKI White's chain A6 A5 B5 C5 came out
    with A5 dead and the rest alive: dead stones were judged point by point.)"""
    engine = set_up(diagram)
    for status in ("alive", "dead", "seki"):
        stones = set(engine.final_status(status))
        for p in stones:
            chain = set(engine.board.chain(p))
            assert chain <= stones, f"{status}: only {names(engine, chain & stones)} of {names(engine, chain)}"


def test_seki_chains_are_in_seki_not_dead():
    """B7 C7 C6 and A6 A5 B5 C5 share A7 and B6 and nothing else: seki. Area count: Black 35,
    White 12, so B+23 - 7.5 = B+15.5. (Before a fix they came out dead, uniform playouts filling
    the shared liberties, and the score was wrong.)"""
    engine = set_up(SEKI)
    seki = {"B7", "C7", "C6", "A6", "A5", "B5", "C5"}
    assert names(engine, engine.final_status("seki")) == seki
    assert engine.final_status("dead") == []
    assert engine.final_score() == 23 - 7.5
