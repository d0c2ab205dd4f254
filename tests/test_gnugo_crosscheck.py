"""goengine's Board cross-checked against GNU Go 3.8 over GTP.

Every game is played on a ``Board`` and replayed move by move into GNU Go with ``play``; GNU Go
must accept every move the Board calls legal. Along the way we compare the whole legal set
(``all_legal``), try moves the Board calls illegal (GNU Go must answer ``? illegal move``), and
compare the stones (``list_stones``) and the capture counts (``captures``).

What GNU Go 3.8 checks, read from its source (``engine/board.c``: ``is_allowed_move``, used by
``play``, ``is_legal`` and ``all_legal``) and confirmed by the tests below:

- occupied points, suicide (forbidden by default) and the simple-ko retake are always rejected;
- positional superko only with ``--positional-superko``; the default rule is simple ko, under
  which GNU Go accepts a move that repeats an earlier position
  (``test_gnugo_needs_the_positional_superko_flag_to_reject_a_repeated_position``);
- GNU Go remembers at most 500 moves: on the 501st move (passes count) it folds the first 51
  moves into its initial position, and positions from those moves no longer count for superko
  (``test_gnugo_forgets_positions_older_than_its_500_move_history``). The Board remembers the
  whole game. So the games here stop at ``MAX_MOVES`` = 500 moves, where the two rules agree.

So the main process runs ``gnugo --mode gtp --chinese-rules --positional-superko``, and there
the Board's legal set and GNU Go's must be equal.

Scoring: see ``test_finished_playout_area_score_equals_gnugo_final_score``.

Numbers: run with ``-s`` to see what each test cross-checked. One GNU Go process serves the
whole module (fixture ``gnugo``); ``boardsize`` and ``clear_board`` start each game.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from goengine import coords
from goengine.board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove
from goengine.kernels import board as kb
from goengine.kernels.rng import new_state, rand_below
from goengine.lab.client import GtpClient, GtpError

GNUGO = "/usr/games/gnugo"
GNUGO_ARGV = [GNUGO, "--mode", "gtp", "--chinese-rules"]
MAX_MOVES = 500  # GNU Go's move history (MAX_MOVE_HISTORY); see the module docstring

pytestmark = [
    pytest.mark.slow,
    pytest.mark.gnugo,
    pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}"),
]

SIZES = [5, 7, 9, 13, 19]
PLAYOUT_GAMES = {5: 50, 7: 35, 9: 25, 13: 8, 19: 3}  # light-playout games, legal sets compared
UNIFORM_GAMES = {5: 12, 7: 8, 9: 5, 13: 3, 19: 2}  # games over all legal moves, eye-filling included
SCORED_GAMES = {5: 200, 7: 140, 9: 80, 13: 20, 19: 6}  # finished playouts scored by both
LEGAL_SET_EVERY = {5: 1, 7: 1, 9: 1, 13: 2, 19: 4}  # compare all_legal every this many moves
KOMIS = [7.5, 0, 7, -2.5, 1, 6]  # odd integers make draws possible on odd boards

COLOR_NAME = {BLACK: "black", WHITE: "white"}


@pytest.fixture(scope="module")
def gnugo():
    """GNU Go under Chinese rules with positional superko: the Board's own rules."""
    with GtpClient([*GNUGO_ARGV, "--positional-superko"], timeout=60) as engine:
        assert engine.send("version").startswith("3.8")
        yield engine


@pytest.fixture(scope="module")
def gnugo_simple_ko():
    """GNU Go with its default ko rule (simple ko): for showing what the flag changes."""
    with GtpClient(GNUGO_ARGV, timeout=60) as engine:
        yield engine


# ---- helpers


def new_game(engine: GtpClient, size: int, komi: float = 7.5) -> Board:
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    return Board(size)


def vertex(board: Board, p: int) -> str:
    return coords.to_gtp(board.size, p)


def play_both(board: Board, engine: GtpClient, color: int, p: int) -> None:
    """Play on the Board (which checks legality) and in GNU Go, which must accept it."""
    board.play(color, p)
    try:
        engine.send(f"play {COLOR_NAME[color]} {vertex(board, p)}")
    except GtpError as err:
        pytest.fail(f"GNU Go rejected {COLOR_NAME[color]} {vertex(board, p)} ({err}) after {game_record(board)}")


def assert_rejected(board: Board, engine: GtpClient, color: int, p: int, reason: str) -> None:
    """The Board says ``color`` may not play ``p`` for ``reason``; GNU Go must refuse it too."""
    assert board.illegal_reason(color, p) == reason
    move = f"{COLOR_NAME[color]} {vertex(board, p)}"
    with pytest.raises(GtpError, match="illegal move"):
        engine.send(f"play {move}")
        pytest.fail(f"GNU Go accepted {move}, which the Board calls {reason}, after {game_record(board)}")


def illegal_reasons(board: Board, color: int) -> dict[int, str | None]:
    """``Board.illegal_reason`` of every point for ``color`` (None where legal)."""
    return {p: board.illegal_reason(color, p) for p in board.points()}


def assert_same_legal_moves(board: Board, engine: GtpClient, color: int, reasons: dict | None = None) -> None:
    """GNU Go's ``all_legal`` equals ``Board.legal_moves`` (or the points ``reasons`` calls legal)."""
    legal = board.legal_moves(color) if reasons is None else [p for p, why in reasons.items() if why is None]
    ours = {vertex(board, p) for p in legal}
    theirs = set(engine.send(f"all_legal {COLOR_NAME[color]}").split())
    assert ours == theirs, (
        f"legal moves for {COLOR_NAME[color]} differ: only Board {sorted(ours - theirs)}, "
        f"only GNU Go {sorted(theirs - ours)}, after {game_record(board)}\n{board.render()}"
    )


def assert_same_position(board: Board, engine: GtpClient) -> None:
    for color in (BLACK, WHITE):
        ours = {vertex(board, p) for p in board.stones(color)}
        theirs = set(engine.send(f"list_stones {COLOR_NAME[color]}").split())
        assert ours == theirs, f"{COLOR_NAME[color]} stones differ after {game_record(board)}\n{board.render()}"
        assert int(engine.send(f"captures {COLOR_NAME[color]}")) == board.captures[color]


def game_record(board: Board) -> str:
    moves = " ".join(f"{'BW'[c - 1]}[{vertex(board, p)}]" for c, p in board.moves)
    return f"{len(board.moves)} moves on {board.size}x{board.size}: {moves}"


def uniform_move(board: Board, rng, legal: list[int] | None = None) -> int:
    """A move drawn uniformly from every legal point (own eyes included), or PASS if none.
    ``legal``: the side to move's legal points, if already known."""
    legal = board.legal_moves() if legal is None else legal
    return PASS if not legal else legal[int(rand_below(rng, len(legal)))]


def probe_illegal_moves(board: Board, engine: GtpClient, rng, tally: Counter) -> None:
    """Try, for both colours, one occupied point and one suicide point (chosen at random) and
    the ko retake if a ko was just taken; GNU Go must refuse each one."""
    for color in (BLACK, WHITE):
        stones = board.stones(BLACK) + board.stones(WHITE)
        if stones:
            assert_rejected(board, engine, color, stones[int(rand_below(rng, len(stones)))], "occupied")
            tally["occupied probes"] += 1
        suicides = [p for p in board.points() if board.illegal_reason(color, p) == "suicide"]
        if suicides:
            assert_rejected(board, engine, color, suicides[int(rand_below(rng, len(suicides)))], "suicide")
            tally["suicide probes"] += 1
    if board.ko_point is not None:
        assert_rejected(board, engine, int(board.meta[kb.KO_COLOR]), board.ko_point, "ko")
        tally["ko retake probes"] += 1


def report(title: str, tally: Counter) -> None:
    print(f"\n{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))


# ---- legality


@pytest.mark.parametrize("size", SIZES)
def test_gnugo_accepts_every_playout_move_and_agrees_on_legal_moves(gnugo, size):
    """Light-playout games (``Board.random_move``), as the search will play them."""
    tally = Counter()
    for game in range(PLAYOUT_GAMES[size]):
        board = new_game(gnugo, size)
        rng = new_state(1000 * size + game)
        probe_rng = new_state(-1000 * size - game)
        while not board.is_over and len(board.moves) < MAX_MOVES:
            color = board.to_move
            if len(board.moves) % LEGAL_SET_EVERY[size] == 0:
                assert_same_legal_moves(board, gnugo, color)
                tally["legal sets compared"] += 1
            if board.ko_point is not None or len(board.moves) % (2 * size) == size:
                probe_illegal_moves(board, gnugo, probe_rng, tally)
            play_both(board, gnugo, color, board.random_move(rng))
            tally["moves"] += 1
        assert_same_position(board, gnugo)
        tally["games"] += 1
    report(f"playout games {size}x{size}", tally)
    assert tally["ko retake probes"] > 0 or size > 9


@pytest.mark.parametrize("size", SIZES)
def test_gnugo_agrees_on_games_of_uniformly_random_legal_moves(gnugo, size):
    """Moves drawn from *all* legal points, eyes included: groups fill their own eyes and die,
    so these games are full of captures, kos and (on small boards) superko positions."""
    tally = Counter()
    for game in range(UNIFORM_GAMES[size]):
        board = new_game(gnugo, size)
        rng = new_state(7000 * size + game)
        probe_rng = new_state(-7000 * size - game)
        while not board.is_over and len(board.moves) < MAX_MOVES:
            color = board.to_move
            compare = len(board.moves) % LEGAL_SET_EVERY[size] == 0
            for c in (color, 3 - color):  # GTP lets either colour play
                reasons = illegal_reasons(board, c)
                if c == color:
                    legal = [p for p, why in reasons.items() if why is None]
                if compare:
                    assert_same_legal_moves(board, gnugo, c, reasons)
                    tally["legal sets compared"] += 1
                for p, why in reasons.items():
                    if why == "superko":
                        assert_rejected(board, gnugo, c, p, "superko")
                        tally["superko probes"] += 1
            if board.ko_point is not None or len(board.moves) % (2 * size) == 0:
                probe_illegal_moves(board, gnugo, probe_rng, tally)
            if len(board.moves) % (4 * size) == 0:
                assert_same_position(board, gnugo)
            play_both(board, gnugo, color, uniform_move(board, rng, legal))
            tally["moves"] += 1
        assert_same_position(board, gnugo)
        tally["captured stones"] += board.captures[BLACK] + board.captures[WHITE]
        tally["games"] += 1
    report(f"uniform games {size}x{size}", tally)
    assert tally["ko retake probes"] > 0


def test_gnugo_with_positional_superko_rejects_exactly_the_boards_superko_moves(gnugo, gnugo_simple_ko):
    """Small boards repeat positions often. Every move the Board calls superko must be refused
    by GNU Go with ``--positional-superko`` and accepted by GNU Go under simple ko, and the
    legal sets must be equal with the flag and differ by exactly the superko moves without it."""
    tally = Counter()
    for size in (3, 4):
        for game in range(6):
            board = new_game(gnugo, size)
            new_game(gnugo_simple_ko, size)
            rng = new_state(31 * size + game)
            while not board.is_over and len(board.moves) < MAX_MOVES:
                color = board.to_move
                superko = {vertex(board, p) for p in board.points() if board.illegal_reason(color, p) == "superko"}
                assert_same_legal_moves(board, gnugo, color)
                simple = set(gnugo_simple_ko.send(f"all_legal {COLOR_NAME[color]}").split())
                assert simple == {vertex(board, p) for p in board.legal_moves(color)} | superko
                for v in sorted(superko):
                    assert_rejected(board, gnugo, color, coords.from_gtp(size, v), "superko")
                    tally["superko moves"] += 1
                p = uniform_move(board, rng)
                play_both(board, gnugo, color, p)
                gnugo_simple_ko.send(f"play {COLOR_NAME[color]} {vertex(board, p)}")
                tally["moves"] += 1
            tally["games"] += 1
    report("superko games 3x3 and 4x4", tally)
    assert tally["superko moves"] >= 20


SUPERKO_2X2 = ["b A1", "w B2", "w A2", "w B1"]  # then black A1 takes three stones: the position after move 1


def test_gnugo_needs_the_positional_superko_flag_to_reject_a_repeated_position(gnugo, gnugo_simple_ko):
    """On 2x2: black A1, white B2 A2 B1 (taking A1); black A1 now takes the three white stones
    and brings back the position after the first move. Not a simple ko (three stones)."""
    board = new_game(gnugo, 2)
    new_game(gnugo_simple_ko, 2)
    for move in SUPERKO_2X2:
        color, v = move.split()
        board.play(color, v)
        gnugo.send(f"play {move}")
        gnugo_simple_ko.send(f"play {move}")
    assert board.illegal_reason(BLACK, "A1") == "superko"
    with pytest.raises(IllegalMove, match="superko"):
        board.play(BLACK, "A1")
    assert gnugo.send("is_legal black A1") == "0"
    assert gnugo_simple_ko.send("is_legal black A1") == "1"


@pytest.mark.parametrize("passes, gnugo_remembers", [(496, True), (497, False)])
def test_gnugo_forgets_positions_older_than_its_500_move_history(gnugo, passes, gnugo_remembers):
    """The 2x2 superko above with black passes before the last white move: after 501 moves
    GNU Go has folded the first 51 into its initial position and allows the repetition; the
    Board still forbids it. (A GNU Go limit, not a rule: the cross-checks stop at 500 moves.)"""
    board = new_game(gnugo, 2)
    moves = [*SUPERKO_2X2[:3], *["b pass"] * passes, SUPERKO_2X2[3]]
    for move in moves:
        color, v = move.split()
        board.play(color, v)
        gnugo.send(f"play {move}")
    assert len(board.moves) == passes + 4
    assert board.illegal_reason(BLACK, "A1") == "superko"
    assert gnugo.send("is_legal black A1") == ("0" if gnugo_remembers else "1")


def test_board_and_gnugo_reject_the_same_off_board_and_malformed_vertices(gnugo):
    board = new_game(gnugo, 5)
    for v in ("F1", "A6", "I3", "Z9", "A0"):
        with pytest.raises(ValueError):
            board.play(BLACK, v)
        with pytest.raises(GtpError, match="invalid color or coordinate"):
            gnugo.send(f"play black {v}")


# ---- scoring


def format_score(score: float) -> str:
    """GNU Go's ``final_score`` text: ``B+3.5``, ``W+2.0`` or ``0``."""
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"


def assert_settled(board: Board) -> None:
    """Where a light playout ends, nothing can ever be captured: no chain is in atari, and every
    empty point is a one-point region whose neighbours are all stones of one colour."""
    w = board.size + 2
    for p in board.points():
        c = board.color_at(p)
        if c == EMPTY:
            around = {board.color_at(q) for q in (p - w, p - 1, p + 1, p + w) if coords.on_board(board.size, q)}
            assert len(around) == 1 and EMPTY not in around, f"{vertex(board, p)} is not an eye\n{board.render()}"
        else:
            assert len(board.liberties(p)) >= 2, f"{vertex(board, p)} is in atari\n{board.render()}"


@pytest.mark.parametrize("size", SIZES)
def test_finished_playout_area_score_equals_gnugo_final_score(gnugo, size):
    """At the end of a light playout (two passes) ``Board.score(komi)`` must equal GNU Go's
    ``final_score`` under ``--chinese-rules``, komi set with ``komi``.

    ``final_score`` is not a plain area count: GNU Go first judges dead stones itself. The two
    agree exactly here because of where a light playout stops. A player passes only when every
    empty point is its own eye or illegal for it. A point next to an empty point is legal and no
    eye; a point next to a chain in atari is a legal capture for the other side and not its eye.
    So at two passes every empty point is a one-point eye of one colour and every chain has at
    least two liberties (``assert_settled``): no stone can ever be captured (neither player has a
    legal move that is not a fill of its own eye), every stone is alive, and GNU Go's
    ``final_status_list dead`` is empty, which we assert in every game (it was in all of them).
    Comparing only games with no dead stones would therefore drop nothing.
    The komis include integers, so ``0`` (a draw) and ``W+6.0``-style results are exercised.

    These games run to their end, past ``MAX_MOVES`` (one 19x19 playout in ten does): beyond it
    GNU Go forgets old positions and so forbids a subset of what the Board forbids, and every
    move the Board allows stays legal for GNU Go.
    """
    tally = Counter()
    for game in range(SCORED_GAMES[size]):
        komi = KOMIS[game % len(KOMIS)]
        board = new_game(gnugo, size, komi)
        rng = new_state(50_000 + 1000 * size + game)
        while not board.is_over:
            assert len(board.moves) < 3 * size * size, "a light playout that does not end"
            play_both(board, gnugo, board.to_move, board.random_move(rng))
        assert_settled(board)
        assert gnugo.send("final_status_list dead") == "", game_record(board)
        assert gnugo.send("final_score") == format_score(board.score(komi)), game_record(board)
        tally["games"] += 1
        tally["moves"] += len(board.moves)
        tally["draws"] += board.score(komi) == 0
    report(f"scored playouts {size}x{size} (final_score matched in all)", tally)
