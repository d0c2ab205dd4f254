"""SGF in and out (``goengine.sgf``): ``load`` reads a file's size, komi, set-up stones, moves and
first player, cut before a move number, and refuses what it cannot play with ValueError; ``dumps``
writes what sgfmill reads back as the same game, every root property where it belongs and
none that was not given. ``load(dumps(...))`` gives back the position. ``info`` reads a file's
root properties and ``annotate`` writes a game review's notes on the right nodes.

The files here are written by hand, as the SGF specification (FF[4]) spells them: ``aa`` is the
top left point, rows go down, ``tt`` and ``[]`` are passes. What the engine does with a loaded
position (GTP ``loadsgf`` / ``printsgf``) is in ``test_engine.py`` and ``data/sgf.gtp``.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from helpers import lines_run
from sgfmill import sgf as sgfmill

from goengine import coords, sgf, version
from goengine.board import BLACK, PASS, WHITE

DATA = Path(__file__).parent / "data"


def pt(size: int, vertex: str) -> int:
    return coords.from_gtp(size, vertex)


def write(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "game.sgf"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


def sgf_moves(game: sgfmill.Sgf_game) -> list[tuple[str, tuple[int, int] | None]]:
    """The main line as sgfmill reads it: ``(colour, (row from the bottom, col) or None)``."""
    return [node.get_move() for node in game.get_main_sequence()[1:]]


# ---- load


def test_load_reads_size_komi_setup_moves_and_the_first_player():
    """tests/data/handicap9.sgf: two black handicap stones (cg = C3, gc = G7), komi 0.5, White
    first (PL[W]), then W E5 and B C5."""
    position = sgf.load(str(DATA / "handicap9.sgf"))
    assert (position.size, position.komi) == (9, 0.5)
    assert sorted(position.setup) == sorted([(BLACK, pt(9, "C3")), (BLACK, pt(9, "G7"))])
    assert position.moves == [(WHITE, pt(9, "E5")), (BLACK, pt(9, "C5"))]
    assert position.to_move == WHITE


def test_load_reads_points_as_the_specification_places_them(tmp_path):
    """``aa`` is the top left point (A9 on 9x9), ``ia`` the top right (J9), ``ai`` the bottom left
    (A1), ``ii`` the bottom right (J1): columns first, rows counted from the top."""
    text = "(;FF[4]GM[1]SZ[9];B[aa];W[ia];B[ai];W[ii])"
    position = sgf.load(write(tmp_path, text))
    assert position.moves == [
        (BLACK, pt(9, "A9")),
        (WHITE, pt(9, "J9")),
        (BLACK, pt(9, "A1")),
        (WHITE, pt(9, "J1")),
    ]


@pytest.mark.parametrize(("size", "pass_text"), [(9, "tt"), (19, "tt"), (9, ""), (19, "")])
def test_load_reads_tt_and_an_empty_move_as_passes(tmp_path, size, pass_text):
    position = sgf.load(write(tmp_path, f"(;FF[4]GM[1]SZ[{size}];B[{pass_text}];W[cc])"))
    assert position.moves == [(BLACK, PASS), (WHITE, pt(size, "C" + str(size - 2)))]


@pytest.mark.parametrize(
    ("move_number", "kept"),
    [(None, 10), (1, 0), (2, 1), (5, 4), (10, 9), (11, 10), (50, 10)],
)
def test_load_at_a_move_number_keeps_the_moves_before_it(move_number, kept):
    """GTP loadsgf: with move number n, the position before move n is played; a number past the
    end of the game gives the whole game."""
    whole = sgf.load(str(DATA / "game9.sgf"))
    assert len(whole.moves) == 10 and whole.moves[5] == (WHITE, PASS)
    position = sgf.load(str(DATA / "game9.sgf"), move_number)
    assert position.moves == whole.moves[:kept]
    assert (position.size, position.komi, position.setup) == (9, 6.5, [])


@pytest.mark.parametrize("move_number", [0, -1])
def test_load_refuses_a_move_number_below_one(move_number):
    with pytest.raises(ValueError, match="at least 1"):
        sgf.load(str(DATA / "game9.sgf"), move_number)


@pytest.mark.parametrize(
    ("root", "moves", "to_move"),
    [
        ("AB[cc][gg]", "", WHITE),  # handicap stones only: White plays first
        ("AB[cc][gg]PL[B]", "", BLACK),  # unless PL says otherwise
        ("AB[cc]AW[gg]", "", BLACK),  # a set-up with white stones is not a handicap
        ("AB[cc][gg]", ";B[ee]", BLACK),  # moves follow: the first of them says nothing, Black by default
        ("PL[W]", ";W[ee]", WHITE),
        ("AB[cc]AW[gg]PL[2]", "", WHITE),  # the 1 and 2 of older files (CGoban 1), as GNU Go reads them
        ("AB[cc]AW[gg]PL[1]", "", BLACK),
        ("", "", BLACK),
    ],
)
def test_load_chooses_the_first_player(tmp_path, root, moves, to_move):
    position = sgf.load(write(tmp_path, f"(;FF[4]GM[1]SZ[9]{root}{moves})"))
    assert position.to_move == to_move


def test_a_pl_that_names_no_player_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match=r"bad SGF: PL\[x\] is not a player"):
        sgf.load(write(tmp_path, "(;FF[4]GM[1]SZ[9]AB[cc]PL[X])"))


def test_load_without_komi_reads_komi_zero(tmp_path):
    assert sgf.load(write(tmp_path, "(;FF[4]GM[1]SZ[9];B[ee])")).komi == 0.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello, I am not SGF", "bad SGF"),
        ("", "bad SGF"),
        ("(;FF[4]GM[1]SZ[9]KM[abc];B[ee])", "bad SGF"),
        ("(;FF[4]GM[1]SZ[9];B[ee];AW[jj])", "bad SGF: a move or set-up stone is off the 9x9 board"),  # late
        ("(;FF[4]GM[1]SZ[9];B[zz])", "bad SGF: a move or set-up stone is off the 9x9 board"),
        ("(;FF[4]GM[1]SZ[9]AB[jj])", "bad SGF: a move or set-up stone is off the 9x9 board"),
        ("(;FF[4]GM[1]SZ[100])", "bad SGF"),
        ("(;FF[4]GM[1]SZ[1])", "board size 1 is not from 5 to 19"),
        ("(;FF[4]GM[1]SZ[4];B[aa])", "board size 4 is not from 5 to 19"),
        ("(;FF[4]GM[2]SZ[9];B[aa])", r"bad SGF: GM\[2\] is not a game of Go"),  # chess
        ("(;FF[4]GM[1]SZ[25]KM[0];B[aa])", "board size 25 is not from 5 to 19"),
        ("(;FF[4]GM[1]SZ[20])", "board size 20 is not from 5 to 19"),
    ],
    ids=[
        "not-sgf",
        "empty",
        "bad-komi",
        "late-setup-off-board",
        "off-board",
        "stone-off-board",
        "size-100",
        "size-1",
        "size-4",
        "not-go",
        "size-25",
        "size-20",
    ],  # fmt: skip
)
def test_load_refuses_what_it_cannot_play_with_value_error(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        sgf.load(write(tmp_path, text))


@pytest.mark.parametrize("size", [1, 4, 20, 26])
def test_a_size_goengine_does_not_play_is_a_board_size_error_naming_it(tmp_path, size):
    """``BoardSizeError`` carries the size; every reader words it alike, "from 5 to 19" (the
    review and the training said "from 2 to 19", the kernels' range, where the engine said 5)."""
    with pytest.raises(sgf.BoardSizeError) as error:
        sgf.load(write(tmp_path, f"(;FF[4]GM[1]SZ[{size}])"))
    assert error.value.size == size


def test_load_of_a_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        sgf.load(str(tmp_path / "no-such-game.sgf"))


def test_load_refuses_a_fifo_at_once_without_waiting_for_a_writer(tmp_path):
    """(Before: open() waited for a writer that never came, and ``loadsgf`` with it.) The load
    runs on a thread; the join's timeout only guards the suite against the old hang."""
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    errors: list[Exception] = []

    def load() -> None:
        try:
            sgf.load(str(fifo))
        except Exception as err:  # noqa: BLE001 - the test reads it
            errors.append(err)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive():  # the old hang: a writer's open lets the reader's open return
        os.close(os.open(fifo, os.O_WRONLY))
        reader.join()
        pytest.fail("load waited for a writer of the FIFO")
    assert [str(err) for err in errors] == ["not a regular file (a FIFO)"]


@pytest.mark.parametrize(("path", "kind"), [("/dev/null", "a device"), (".", "a folder")])
def test_load_refuses_what_is_not_a_regular_file(path, kind):
    """A device is read only as far as it is a file: /dev/zero was read without end (2.3 GB in
    1.4 s) before. (/dev/null is the safe device to test with: before, it read as an empty file,
    ``bad SGF``.)"""
    with pytest.raises(ValueError, match=f"^not a regular file \\({kind}\\)$"):
        sgf.load(path)


def test_write_file_writes_a_regular_file_and_refuses_anything_else_at_once(tmp_path):
    """A FIFO without a reader would hold the writer for ever (``printsgf`` did), a device would
    take the game: both are refused before anything is opened for writing."""
    os.mkfifo(tmp_path / "fifo")
    for path, kind in ((tmp_path / "fifo", "a FIFO"), ("/dev/null", "a device"), (tmp_path, "a folder")):
        with pytest.raises(ValueError, match=f"^not a regular file \\({kind}\\)$"):
            sgf.write_file(str(path), "(;)")
    target = tmp_path / "game.sgf"
    target.write_text("an older, longer text")
    sgf.write_file(str(target), "(;SZ[9])")
    assert target.read_text() == "(;SZ[9])"


def test_load_refuses_a_file_larger_than_a_game_record_may_be(tmp_path):
    """(Before: any file was read whole, whatever its size.)"""
    path = tmp_path / "huge.sgf"
    game = b"(;FF[4]GM[1]SZ[9]C["
    path.write_bytes(game + b"x" * (sgf.MAX_SGF_BYTES - len(game) - 2) + b"])")
    assert len(sgf.read_file(str(path))) == sgf.MAX_SGF_BYTES  # at the limit: read
    assert sgf.load(str(path)).size == 9
    with path.open("ab") as handle:
        handle.write(b"\n")
    with pytest.raises(ValueError, match="^larger than 4 MB, the most a game record may have$"):
        sgf.load(str(path))


# ---- dumps, read back with sgfmill


def test_dumps_writes_the_game_sgfmill_reads_back():
    setup = [(BLACK, pt(9, "C3")), (BLACK, pt(9, "G7")), (WHITE, pt(9, "C7"))]
    moves = [(WHITE, pt(9, "E5")), (BLACK, PASS), (WHITE, pt(9, "A9")), (BLACK, pt(9, "J1"))]
    text = sgf.dumps(
        9,
        6.5,
        moves,
        setup,
        handicap=2,
        names=("goengine 1.0", "GNU Go 3.8"),
        result="W+3.5",
        comment="a comment, with a ] and a \\ inside; \u00e9t\u00e9",
        date="2026-11-24",
        game_name="default#7",
    )
    game = sgfmill.Sgf_game.from_string(text)
    root = game.get_root()
    assert (game.get_size(), game.get_komi()) == (9, 6.5)
    assert root.get("RU") == "Chinese" and root.get("HA") == 2
    assert root.get("AP") == ("goengine", version.full())
    assert (root.get("PB"), root.get("PW")) == ("goengine 1.0", "GNU Go 3.8")
    assert (root.get("RE"), root.get("DT"), root.get("GN")) == ("W+3.5", "2026-11-24", "default#7")
    assert root.get("C") == "a comment, with a ] and a \\ inside; \u00e9t\u00e9"
    black, white, empty = root.get_setup_stones()
    assert black == {(2, 2), (6, 6)} and white == {(6, 2)} and not empty  # (row from the bottom, col)
    assert sgf_moves(game) == [("w", (4, 4)), ("b", None), ("w", (8, 0)), ("b", (0, 8))]


def test_dumps_leaves_out_the_properties_not_given():
    root = sgfmill.Sgf_game.from_string(sgf.dumps(9, 7.5, [], result="", comment=None)).get_root()
    for prop in ("HA", "PB", "PW", "RE", "C", "DT", "GN", "AB", "AW", "PL"):
        assert not root.has_property(prop), prop
    assert root.get("RU") == "Chinese" and root.get("KM") == 7.5


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19])
def test_dumps_writes_the_corners_where_the_specification_puts_them(size):
    """Black's first move at the top left is ``aa``; the last, at the bottom right, is the last
    letter twice; a pass on a board up to 19x19 is ``tt`` or ``[]`` (both mean a pass)."""
    last = "abcdefghijklmnopqrs"[size - 1]
    top_left = coords.point(size, 0, 0)
    bottom_right = coords.point(size, size - 1, size - 1)
    text = sgf.dumps(size, 0, [(BLACK, top_left), (WHITE, PASS), (BLACK, bottom_right)])
    body = "".join(text.split())
    assert f";B[aa];W[tt];B[{last}{last}])" in body or f";B[aa];W[];B[{last}{last}])" in body


@pytest.mark.parametrize("komi", [7.5, 0.0, -3.5, 6.0])
def test_load_of_dumps_gives_back_the_position(tmp_path, komi):
    setup = [(BLACK, pt(9, "C3")), (WHITE, pt(9, "G7"))]
    moves = [(BLACK, pt(9, "E5")), (WHITE, PASS), (BLACK, pt(9, "J9")), (BLACK, pt(9, "A1"))]  # twice Black
    path = write(tmp_path, sgf.dumps(9, komi, moves, setup))
    position = sgf.load(path)
    assert (position.size, position.komi) == (9, komi)
    assert sorted(position.setup) == sorted(setup)
    assert position.moves == moves


def test_set_up_stones_in_nodes_before_the_first_move_are_the_starting_position():
    """Problem files (GNU Go's regression suite among them) put AB/AW in the second node, with
    PL there too; each node's AE clears points before its stones are placed."""
    position = sgf.parse(b"(;FF[4]GM[1]SZ[9];AB[aa][bb]AW[cc]PL[W];AE[aa]AB[dd];W[ee];B[ff])")
    names = {(c, coords.to_gtp(9, p)) for c, p in position.setup}
    assert names == {(BLACK, "B8"), (WHITE, "C7"), (BLACK, "D6")}
    assert [coords.to_gtp(9, p) for _, p in position.moves] == ["E5", "F4"]
    assert position.to_move == WHITE  # PL of the set-up node


# B E5, W C3, then a set-up node clears C3 and adds Black A1 and White J9, then W G7, B D4
EDITED = b"(;FF[4]GM[1]SZ[9];B[ee];W[cg];AE[cg]AB[ai]AW[ia];W[gc];B[df])"


def named(stones):
    return {(c, coords.to_gtp(9, p)) for c, p in stones}


def test_a_set_up_node_after_moves_edits_the_position_they_made(tmp_path):
    """As GNU Go's loadsgf reads it: the moves before the node are replayed, the node clears and
    places its stones, and that position is where the game starts; the moves after it follow."""
    position = sgf.parse(EDITED)
    assert named(position.setup) == {(BLACK, "E5"), (BLACK, "A1"), (WHITE, "J9")}
    assert [(c, coords.to_gtp(9, p)) for c, p in position.moves] == [(WHITE, "G7"), (BLACK, "D4")]
    assert position.to_move == WHITE  # the player of the next move
    path = write(tmp_path, EDITED)
    # before move 3 (the node comes after move 2): folded, nothing to replay
    before_3 = sgf.load(path, 3)
    assert named(before_3.setup) == {(BLACK, "E5"), (BLACK, "A1"), (WHITE, "J9")}
    assert before_3.moves == [] and before_3.to_move == WHITE
    # before move 2: the node is not reached yet, the moves stay moves
    before_2 = sgf.load(path, 2)
    assert before_2.setup == [] and [coords.to_gtp(9, p) for _, p in before_2.moves] == ["E5"]
    assert before_2.to_move == BLACK  # who starts; after E5 is replayed White is to move
    # the node's PL decides who moves next
    with_pl = sgf.parse(EDITED.replace(b"AW[ia]", b"AW[ia]PL[B]"))
    assert with_pl.to_move == BLACK


def test_an_illegal_move_before_a_later_set_up_or_a_set_up_without_liberties_is_refused():
    with pytest.raises(ValueError, match="bad SGF: move 2, before a later set-up, is illegal"):
        sgf.parse(b"(;FF[4]GM[1]SZ[9];B[ee];W[ee];AB[aa];W[cc])")
    with pytest.raises(ValueError, match="bad SGF: the set-up after move 1 leaves a chain without liberties"):
        sgf.parse(b"(;FF[4]GM[1]SZ[9];B[aa];AW[ba][ab];W[cc])")


# ---- info and annotate (a game review's notes)


def test_info_gives_the_roots_properties_as_written_and_the_main_lines_moves():
    about = sgf.info(b"(;GM[1]SZ[9]KM[6.5]RU[Japanese]PB[Shusaku];B[ee];AB[aa];W[cc](;B[gg])(;B[hh];W[ii]))")
    assert about.properties["KM"] == "6.5" and about.properties["RU"] == "Japanese"
    assert about.properties["PB"] == "Shusaku" and "HA" not in about.properties
    assert about.main_line_moves == 3  # the set-up node is no move; the main line takes the first branch
    with pytest.raises(ValueError, match="bad SGF"):
        sgf.info(b"no game here")


def test_annotate_writes_notes_on_the_last_moves_of_the_main_line_and_keeps_the_rest():
    text = b"(;GM[1]SZ[9]C[root];B[ee]C[mine];AB[aa];W[cc](;B[gg])(;B[hh]))"
    notes = [
        sgf.Note("on C7", (("SBKV", "40.5"),)),
        sgf.Note("on G3", (("SBKV", "61"),), ((BLACK, pt(9, "D4")), (WHITE, PASS)), "a line"),
    ]
    out = sgf.annotate(text, notes, start=sgf.Note("before C7", (("SBKV", "50"),)), header="header")
    game = sgfmill.Sgf_game.from_bytes(out)
    root, e5, setup, c7, g3 = game.get_main_sequence()
    assert root.get("C") == "root\n\nheader" and not root.has_property("SBKV")
    assert e5.get("C") == "mine" and not e5.has_property("SBKV")
    assert setup.get("C") == "before C7" and setup.get_raw("SBKV") == b"50"  # the node before the first noted move
    assert c7.get("C") == "on C7" and c7.get_raw("SBKV") == b"40.5"
    assert g3.get("C") == "on G3" and g3.get_raw("SBKV") == b"61"
    assert [child.get_move() for child in c7] == [("b", (2, 6)), ("b", (1, 7)), ("b", (3, 3))]  # G3, H2, the line
    line = c7[2]
    assert line.get("C") == "a line" and line[0].get_move() == ("w", None)


def test_annotate_escapes_a_property_value_and_refuses_more_notes_than_moves():
    out = sgf.annotate(b"(;GM[1]SZ[9];B[ee])", [sgf.Note(properties=(("GN", "a]b\\c"),))])
    assert sgfmill.Sgf_game.from_bytes(out).get_main_sequence()[1].get("GN") == "a]b\\c"
    with pytest.raises(ValueError, match="2 notes for a main line of 1 moves"):
        sgf.annotate(b"(;GM[1]SZ[9];B[ee])", [sgf.Note(), sgf.Note()])


def test_dumps_works_in_the_number_of_moves():
    """Twice the moves, twice the work (``lines_run``, a count of Python lines, not a time). Before,
    each move walked the whole line from the root (sgfmill's ``extend_main_sequence``): ``printsgf``
    of 8,000 moves took 6.3 s and of 20,000 moves 40 s, and the match records' files the same."""
    moves = [(BLACK if k % 2 == 0 else WHITE, PASS) for k in range(4000)]
    small = lines_run(lambda: sgf.dumps(9, 7.5, moves[:2000]))
    large = lines_run(lambda: sgf.dumps(9, 7.5, moves))
    assert large < 2.3 * small, (small, large)


@pytest.mark.parametrize("setup", ["AB[ee]AW[ee]", "AW[ee]AB[ee]", "AB[ee]AE[ee]", "AB[aa][ee]AW[ee][ii]"])
def test_a_point_set_up_twice_in_one_node_is_refused_naming_it(setup):
    """FF[4] forbids it, and which colour would win is a guess. (Before: ``AB[ee]AW[ee]`` loaded
    as White's stone without a word.)"""
    with pytest.raises(ValueError, match=r"^bad SGF: point ee is set up twice in one node \(AB, AW or AE\)$"):
        sgf.parse(f"(;GM[1]FF[4]SZ[9]{setup})".encode())
    assert sgf.parse(b"(;GM[1]FF[4]SZ[9]AB[ee];AW[ee])").setup == [
        (WHITE, coords.from_sgf(9, (4, 4)))
    ]  # two nodes: in turn
