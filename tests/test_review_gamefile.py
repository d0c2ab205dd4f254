"""Reading a game to review (``goengine.review.gamefile``): the positions of its main line, who is to
move in each, the move numbers, the komi and rules in words; and every kind of bad file refused
with its reason as a ``BadGame``, never another exception."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goengine import coords, sgf
from goengine.board import BLACK, PASS, WHITE
from goengine.review.gamefile import BadGame, move_name, read


def write(tmp_path, text: str | bytes, name: str = "game.sgf"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def at(vertex: str, size: int = 9) -> int:
    return coords.from_gtp(size, vertex)


def test_a_game_gives_every_position_of_its_main_line_with_the_player_to_move(tmp_path):
    path = write(tmp_path, "(;GM[1]SZ[9]KM[6.5]RU[Chinese];B[ee];W[cc](;B[gg];W[])(;B[aa]))")
    game = read(path)
    assert (game.size, game.komi, game.km, game.ru, game.first_number) == (9, 6.5, "6.5", "Chinese", 1)
    assert game.moves == ((BLACK, at("E5")), (WHITE, at("C7")), (BLACK, at("G3")), (WHITE, PASS))
    positions = game.positions()
    assert len(positions) == 5
    assert [len(p.moves) for p in positions] == [0, 1, 2, 3, 4]
    assert [p.to_move for p in positions] == [BLACK, WHITE, BLACK, WHITE, BLACK]
    assert positions[2].moves == game.moves[:2] and positions[2].komi == 6.5 and positions[2].size == 9


def test_a_handicap_game_starts_from_its_stones_with_white_to_move(tmp_path):
    game = read(write(tmp_path, "(;GM[1]SZ[9]HA[2]AB[cc][gg];W[ee];B[eg])"))
    assert set(game.setup) == {(BLACK, at("C7")), (BLACK, at("G3"))}
    assert game.first == WHITE
    assert [p.to_move for p in game.positions()] == [WHITE, BLACK, WHITE]


def test_the_same_colour_twice_is_searched_for_the_player_of_the_next_move(tmp_path):
    game = read(write(tmp_path, "(;GM[1]SZ[9];B[ee];B[cc];W[gg])"))
    assert [p.to_move for p in game.positions()] == [BLACK, BLACK, WHITE, BLACK]


def test_after_a_set_up_node_in_mid_game_the_moves_after_it_are_reviewed_with_their_numbers(tmp_path):
    game = read(write(tmp_path, "(;GM[1]SZ[9];B[ee];W[cc];AB[gg];W[dd];B[ff])"))
    assert game.first_number == 3
    assert game.moves == ((WHITE, at("D6")), (BLACK, at("F4")))
    assert game.number(0) == 3 and game.number(1) == 4
    assert (BLACK, at("G3")) in game.setup and (WHITE, at("C7")) in game.setup


@pytest.mark.parametrize(
    "root, words",
    [
        ("KM[6.5]RU[Chinese]", "komi 6.5 (the file's KM), counted by area"),
        ("KM[7]", "komi 7 (the file's KM), counted by area"),
        ("", "komi 0 (the file gives no KM), counted by area"),
        ("KM[6.5]RU[Japanese]", "komi 6.5 (the file's KM), counted by area (the file's rules, RU[Japanese]"),
    ],
)
def test_the_terms_say_the_komi_used_and_rules_that_count_otherwise(tmp_path, root, words):
    game = read(write(tmp_path, f"(;GM[1]SZ[9]{root};B[ee])"))
    assert game.terms().startswith(words)


def test_the_terms_count_the_points_a_handicap_bonus_gives_white(tmp_path):
    game = read(write(tmp_path, "(;GM[1]SZ[9]KM[0.5]HA[3]AB[cc][gg][cg];W[ee])"))
    assert game.handicap_stones == 3
    assert game.terms().startswith("komi 0.5 (the file's KM), counted")
    assert game.terms("N").startswith("komi 0.5 (the file's KM) and 3 for White's 3 handicap stones, counted")
    assert game.terms("N-1").startswith("komi 0.5 (the file's KM) and 2 for White's 3 handicap stones")
    even = read(write(tmp_path, "(;GM[1]SZ[9]KM[7]AB[cc]AW[gg];B[ee])"))
    assert even.handicap_stones == 0 and even.terms("N").startswith("komi 7 (the file's KM), counted")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("this is not SGF", "bad SGF"),
        ("(;GM[2]SZ[8];B[aa])", "not a game of Go"),
        ("(;GM[1]SZ[40];B[aa])", "size out of range"),
        ("(;GM[1]SZ[9];B[ee];W[ee])", "move 2 (W E5) cannot be played: illegal move white E5: occupied"),
        ("(;GM[1]SZ[9];B[zz])", "off the 9x9 board"),
        ("(;GM[1]SZ[9]KM[6.5])", "no moves"),
        ("(;GM[1]SZ[9]AB[aa]AW[ab][ba];W[cc])", "bad SGF: setup position not legal"),
        (b"\x00\xff\xfe(;GM[1]SZ[9];B[ee]", "bad SGF"),
    ],
)
def test_a_file_that_cannot_be_reviewed_is_refused_with_its_reason(tmp_path, text, reason):
    with pytest.raises(BadGame, match=None) as error:
        read(write(tmp_path, text))
    assert reason in str(error.value)


def test_a_missing_file_is_refused_as_unreadable(tmp_path):
    with pytest.raises(BadGame, match="cannot read it"):
        read(tmp_path / "missing.sgf")


def test_a_fifo_or_a_file_too_large_for_a_game_record_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.sgf"
    os.mkfifo(fifo)  # never written: reading it would wait for ever
    with pytest.raises(BadGame, match="not a regular file"):
        read(fifo)
    large = tmp_path / "large.sgf"
    large.write_bytes(b"(;GM[1]SZ[9]C[" + b"x" * sgf.MAX_SGF_BYTES + b"];B[ee])")
    with pytest.raises(BadGame, match="larger"):
        read(large)


def test_a_recorded_game_that_repeats_a_position_is_reviewed_as_loadsgf_loads_it():
    """GNU Go's regression game filllib10.sgf repeats a position at move 237 (B A2), which
    positional superko forbids: the record is history, so it is replayed to its end."""
    game = read(Path(__file__).parent / "data" / "filllib10.sgf")
    assert len(game.moves) >= 237


def test_a_ko_retaken_at_once_is_refused_as_unplayable(tmp_path):
    # Black takes the ko at C8, White retakes at once at B8
    shape = "(;GM[1]SZ[9]AB[ba][ab][bc]AW[ca][bb][db][cc];B[cb]"
    assert len(read(write(tmp_path, shape + ")")).moves) == 1
    with pytest.raises(BadGame, match=r"move 2 \(W B8\) cannot be played: .*ko"):
        read(write(tmp_path, shape + ";W[bb])"))


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200) | st.text(alphabet="();[]BWABEGMSZK019ab\\ ", max_size=120).map(str.encode))
def test_no_input_raises_anything_but_bad_game(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "game.sgf"
    path.write_bytes(data)
    with contextlib.suppress(BadGame):  # BadGame or nothing: any other exception fails the test
        read(path)


def test_a_move_is_named_with_its_colour_and_vertex():
    assert move_name(9, BLACK, at("E5")) == "B E5"
    assert move_name(9, WHITE, PASS) == "W pass"
