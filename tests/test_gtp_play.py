"""The GTP commands that set up and play the game (``goengine.gtp.play``), sent as a controller
sends them (``GtpEngine.send``), with what each does to the game checked beside the response:
``boardsize`` (5 to 19, ``unacceptable size``), ``clear_board``, ``komi``, ``play`` (either colour
in any order, captures, ``illegal move`` changing nothing), ``genmove`` and
``kgs-genmove_cleanup`` playing the move they answer, ``reg_genmove`` answering the same move
without playing it, ``undo`` (``cannot undo``), and the handicap commands (GTP 2, section 6.3.2:
``board not empty``, ``invalid number of stones``, ``bad vertex list``), whose stones are the
start of the game.

Every response's wording across many more malformed lines is in the transcripts
(``tests/data/setup.gtp``, ``play.gtp``, ``genmove.gtp``); the game's own rules are
``test_game.py``'s and ``test_board.py``'s.
"""

from __future__ import annotations

import re

import pytest
from helpers import set_up

from goengine import coords
from goengine.board import BLACK, EMPTY, PASS, WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.search import Search
from goengine.time_control import TimeSettings

FAST = SearchConfig(playouts=100, seed=5)
NINE_HANDICAP = ["C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7", "E5"]  # GTP 2, section 4.1, on 9x9

# White's C3 has one liberty, C2
CAPTURE = """
    . . . . .
    . . X . .
    . X O X .
    . . . . .
    . . . . .
"""
# A5 is Black's eye: White may not play there
SUICIDE = """
    . X . . .
    X . . . .
    . . . . .
    . . . . .
    . . . . .
"""
# Black's C4 captures White's B4, which may not be retaken at once
KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""


def gtp_for(size: int = 9, **config) -> GtpEngine:
    return GtpEngine(Engine(EngineConfig(size=size, search=FAST, **config)))


def gtp_on(diagram: str, to_move: int = BLACK) -> GtpEngine:
    return GtpEngine(set_up(diagram, to_move, search=FAST))


def at(gtp: GtpEngine, vertex: str) -> int:
    """The colour on ``vertex`` of the game's board."""
    return gtp.engine.game.board.color_at(coords.from_gtp(gtp.engine.game.size, vertex))


def point(gtp: GtpEngine, vertex: str) -> int:
    return coords.from_gtp(gtp.engine.game.size, vertex)


def state(gtp: GtpEngine):
    """Everything a command may change about the game."""
    game = gtp.engine.game
    return (game.size, game.komi, str(game.board), game.to_move, list(game.moves), dict(game.board.captures))


def body(response: str) -> str:
    assert response.startswith("= ") and response.endswith("\n\n"), response
    return response[2:-2]


# ---- boardsize, clear_board, komi


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("boardsize 4", "unacceptable size"),
        ("boardsize 20", "unacceptable size"),
        ("boardsize -9", "unacceptable size"),
        ("boardsize nine", "syntax error"),
        ("boardsize 9.0", "syntax error"),
        ("boardsize", "syntax error"),
        ("boardsize 9 9", "syntax error"),
    ],
)
def test_a_refused_boardsize_keeps_the_game_as_it_was(line, error):
    gtp = gtp_for(9)
    gtp.send("play b e5")
    before = state(gtp)
    assert gtp.send(line) == f"? {error}\n\n"
    assert state(gtp) == before


@pytest.mark.parametrize("size", [5, 13, 19])
def test_boardsize_starts_an_empty_game_of_that_size_and_keeps_the_komi(size):
    gtp = gtp_for(9)
    gtp.send("komi 0.5")
    gtp.send("play b e5")
    assert gtp.send(f"boardsize {size}") == "=\n\n"
    game = gtp.engine.game
    assert (game.size, game.komi, game.moves, game.is_empty, game.to_move) == (size, 0.5, [], True, BLACK)


def test_clear_board_empties_the_board_and_keeps_the_size_the_komi_and_the_time_system():
    gtp = gtp_for(9)
    for line in ("boardsize 7", "komi 3.5", "time_settings 60 0 0", "time_left b 10 0", "play b d4", "play w c3"):
        assert gtp.send(line) == "=\n\n", line
    assert gtp.send("clear_board") == "=\n\n"
    game, clocks = gtp.engine.game, gtp.engine.clocks
    assert (game.size, game.komi, game.moves, game.is_empty) == (7, 3.5, [], True)
    assert clocks.settings == TimeSettings("absolute", 60.0)
    assert clocks[BLACK].main == 60.0  # the clocks start again with the new game
    assert gtp.send("undo") == "? cannot undo\n\n"


@pytest.mark.parametrize(("text", "komi"), [("6.5", 6.5), ("-3.5", -3.5), ("0", 0.0), ("100", 100.0)])
def test_komi_sets_the_games_komi(text, komi):
    gtp = gtp_for(9)
    assert gtp.send(f"komi {text}") == "=\n\n"
    assert gtp.engine.game.komi == komi


@pytest.mark.parametrize("line", ["komi nan", "komi inf", "komi x", "komi", "komi 1 2"])
def test_a_refused_komi_is_a_syntax_error_and_keeps_the_komi(line):
    gtp = gtp_for(9)
    gtp.send("komi 0.5")
    assert gtp.send(line) == "? syntax error\n\n"
    assert gtp.engine.game.komi == 0.5


# ---- play


def test_play_puts_a_stone_of_the_colour_named_in_any_order_and_in_any_case():
    gtp = gtp_for(9)
    for line in ("play w c3", "play WHITE D4", "play b PASS", "play Black e5"):
        assert gtp.send(line) == "=\n\n", line
    assert (at(gtp, "C3"), at(gtp, "D4"), at(gtp, "E5")) == (WHITE, WHITE, BLACK)
    moves = [(WHITE, point(gtp, "C3")), (WHITE, point(gtp, "D4")), (BLACK, PASS), (BLACK, point(gtp, "E5"))]
    assert gtp.engine.game.moves == moves
    assert gtp.engine.game.to_move == WHITE


def test_play_captures_a_chain_without_liberties():
    gtp = gtp_on(CAPTURE)
    assert gtp.send("play b c2") == "=\n\n"
    assert at(gtp, "C3") == EMPTY and at(gtp, "C2") == BLACK
    assert gtp.engine.game.board.captures[BLACK] == 1


@pytest.mark.parametrize(
    ("diagram", "lines", "refused"),
    [
        (CAPTURE, [], "play w c4"),  # occupied by the other colour
        (CAPTURE, [], "play b c4"),  # occupied by the mover's own
        (SUICIDE, [], "play w a5"),  # suicide
        (KO, ["play b c4"], "play w b4"),  # the immediate retake of a ko
        (CAPTURE, [], "play b f1"),  # a vertex off this board
        (CAPTURE, [], "play b a6"),
    ],
    ids=["occupied-by-other", "occupied-by-own", "suicide", "ko", "off-the-board-column", "off-the-board-row"],
)
def test_an_illegal_move_is_refused_with_illegal_move_and_changes_nothing(diagram, lines, refused):
    gtp = gtp_on(diagram)
    for line in lines:
        assert gtp.send(line) == "=\n\n", line
    before = state(gtp)
    assert gtp.send(refused) == "? illegal move\n\n"
    assert state(gtp) == before


@pytest.mark.parametrize("line", ["play x e5", "play b", "play b e5 e6", "play b 5e", "play"])
def test_a_malformed_play_is_a_syntax_error_and_changes_nothing(line):
    gtp = gtp_for(9)
    before = state(gtp)
    assert gtp.send(line) == "? syntax error\n\n"
    assert state(gtp) == before


# ---- genmove, kgs-genmove_cleanup, reg_genmove


@pytest.mark.parametrize("command", ["genmove", "kgs-genmove_cleanup"])
def test_genmove_plays_the_move_it_answers_for_the_colour_named(command):
    gtp = gtp_for(9)
    gtp.send("play b e5")
    vertex = body(gtp.send(f"{command} b"))  # Black again: the colour named, not the side to move
    assert re.fullmatch(r"[A-HJ][1-9]", vertex)
    assert gtp.engine.game.moves[-1] == (BLACK, point(gtp, vertex))
    assert at(gtp, vertex) == BLACK and gtp.engine.game.to_move == WHITE


def test_reg_genmove_answers_a_legal_move_and_leaves_the_game_as_it_was():
    gtp = gtp_for(9)
    gtp.send("play b e5")
    before = state(gtp)
    vertex = body(gtp.send("reg_genmove w"))
    assert state(gtp) == before
    assert gtp.engine.game.board.is_legal(WHITE, point(gtp, vertex))


def test_reg_genmove_answers_the_move_genmove_plays_from_the_same_seed():
    """Two engines with the same seed on the same position: one thread searches the same, so
    the regression command predicts the move the game command plays."""
    asked, played = gtp_for(9), gtp_for(9)
    for gtp in (asked, played):
        gtp.send("play b e5")
    assert asked.send("reg_genmove w") == played.send("genmove w")
    assert asked.engine.game.moves == [(BLACK, point(asked, "E5"))]
    assert len(played.engine.game.moves) == 2


# ---- undo


def test_undo_takes_back_the_last_move_and_no_more():
    gtp = gtp_for(9)
    gtp.send("play b c3")
    after_black = state(gtp)
    gtp.send("play w d4")
    assert gtp.send("undo") == "=\n\n"
    assert state(gtp) == after_black and at(gtp, "D4") == EMPTY
    assert gtp.send("undo") == "=\n\n"
    assert gtp.engine.game.is_empty and gtp.engine.game.to_move == BLACK
    assert gtp.send("undo") == "? cannot undo\n\n"


def test_undo_with_an_argument_is_refused_and_takes_nothing_back():
    """``undo`` takes no arguments; ``undo 2`` (GNU Go's ``gg-undo 2``) must not take back one
    move as if it were understood. (Before: ``undo extra`` answered ``=`` and undid a move.)"""
    gtp = gtp_for(9)
    gtp.send("play b c3")
    before = state(gtp)
    for line in ("undo extra", "undo 2", "undo 1"):
        assert gtp.send(line) == "? syntax error\n\n"
        assert state(gtp) == before


def test_undo_of_a_capture_puts_the_captured_stone_back():
    gtp = gtp_on(CAPTURE)
    before = state(gtp)
    gtp.send("play b c2")
    assert gtp.send("undo") == "=\n\n"
    assert state(gtp) == before and at(gtp, "C3") == WHITE


def test_undo_takes_back_the_engines_own_move():
    gtp = gtp_for(9)
    vertex = body(gtp.send("genmove b"))
    assert gtp.send("undo") == "=\n\n"
    assert at(gtp, vertex) == EMPTY and gtp.engine.game.is_empty


# ---- handicap: the stones answered are the stones placed, and they are the start of the game


def black_stones(gtp: GtpEngine) -> set[str]:
    return {coords.to_gtp(gtp.engine.game.size, p) for p in gtp.engine.game.board.stones(BLACK)}


@pytest.mark.parametrize(("n", "layout"), [(2, "C3 G7"), (5, "C3 G7 C7 G3 E5"), (9, " ".join(NINE_HANDICAP))])
def test_fixed_handicap_places_the_layouts_stones_it_answers_and_white_moves_next(n, layout):
    gtp = gtp_for(9)
    assert body(gtp.send(f"fixed_handicap {n}")) == layout
    assert black_stones(gtp) == set(layout.split(" ")) and not gtp.engine.game.board.stones(WHITE)
    assert gtp.engine.game.to_move == WHITE
    assert gtp.send("undo") == "? cannot undo\n\n"  # the handicap is the start of the game


def test_fixed_handicap_on_a_board_without_a_layout_is_an_invalid_number_of_stones():
    gtp = gtp_for(5)
    assert gtp.send("fixed_handicap 2") == "? invalid number of stones\n\n"
    assert gtp.engine.game.is_empty


@pytest.mark.parametrize("line", ["fixed_handicap 1", "fixed_handicap 10", "place_free_handicap 1"])
def test_a_handicap_of_a_number_the_board_cannot_take_places_nothing(line):
    gtp = gtp_for(9)
    assert gtp.send(line) == "? invalid number of stones\n\n"
    assert gtp.engine.game.is_empty


def test_place_free_handicap_within_the_layout_is_the_fixed_handicap():
    gtp = gtp_for(9)
    assert body(gtp.send("place_free_handicap 4")) == "C3 G7 C7 G3"
    assert black_stones(gtp) == {"C3", "G7", "C7", "G3"} and gtp.engine.game.to_move == WHITE


@pytest.mark.parametrize(("size", "n"), [(9, 11), (5, 3)])
def test_place_free_handicap_beyond_the_layout_places_the_distinct_stones_it_answers(size, n):
    """On 9x9 the nine of the layout, then two more chosen by the search; on 5x5, which has no
    layout, every stone searched."""
    gtp = gtp_for(size)
    answer = body(gtp.send(f"place_free_handicap {n}")).split(" ")
    assert len(answer) == len(set(answer)) == n
    if size == 9:
        assert set(answer[:9]) == set(NINE_HANDICAP)
    assert black_stones(gtp) == set(answer) and gtp.engine.game.to_move == WHITE
    assert gtp.send("undo") == "? cannot undo\n\n"


def test_a_hundred_free_handicap_stones_share_the_budget_of_four(monkeypatch):
    """100 stones on 19x19: the nine of the layout, then 91 searched, which share four stones'
    budget (``FREE_HANDICAP_SEARCHED``), each at least 200 playouts. (Before, each of the 91 had
    four playouts a point, 131,404 playouts in all, and the command took 30 s; now 18,200.)"""
    spent = []
    run = Search.run

    def counted(self, board, komi, request):
        spent.append(request.budget.playouts)
        return run(self, board, komi, request)

    monkeypatch.setattr(Search, "run", counted)
    gtp = GtpEngine(Engine(EngineConfig(size=19, search=SearchConfig(playout="uniform", prior="none", seed=5))))
    answer = body(gtp.send("place_free_handicap 100")).split(" ")
    assert len(answer) == len(set(answer)) == 100 and black_stones(gtp) == set(answer)
    assert len(spent) == 91 and min(spent) >= 200 and sum(spent) <= max(4 * 4 * 361, 91 * 200)


def test_place_free_handicap_refuses_as_many_stones_as_points():
    gtp = gtp_for(5)
    assert gtp.send("place_free_handicap 25") == "? invalid number of stones\n\n"
    assert gtp.engine.game.is_empty


def test_set_free_handicap_places_black_stones_on_the_vertices_given_and_white_moves_next():
    gtp = gtp_for(9)
    assert gtp.send("set_free_handicap c3 G7 e5") == "=\n\n"
    assert black_stones(gtp) == {"C3", "G7", "E5"} and not gtp.engine.game.board.stones(WHITE)
    assert gtp.engine.game.to_move == WHITE
    assert gtp.send("undo") == "? cannot undo\n\n"
    assert gtp.send("play w d4") == "=\n\n"  # White moves first after a handicap


@pytest.mark.parametrize(
    "vertices",
    ["", "c3", "c3 c3", "c3 pass", "c3 z9", "c3 c10", "c3 xyz"],
    ids=["none", "one", "twice", "pass", "off-the-board", "off-the-board-row", "no-vertex"],
)
def test_a_bad_vertex_list_places_nothing(vertices):
    gtp = gtp_for(9)
    assert gtp.send(f"set_free_handicap {vertices}") == "? bad vertex list\n\n"
    assert gtp.engine.game.is_empty


@pytest.mark.parametrize("line", ["fixed_handicap 2", "place_free_handicap 2", "set_free_handicap c3 g7"])
def test_a_handicap_on_a_board_with_a_move_is_refused_and_the_move_stays(line):
    gtp = gtp_for(9)
    gtp.send("play b e5")
    before = state(gtp)
    assert gtp.send(line) == "? board not empty\n\n"
    assert state(gtp) == before
