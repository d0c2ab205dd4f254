"""Full games between the ``goengine`` process and GNU Go 3.8, both over GTP on pipes.

A small referee (``play_game``) asks the side to move for ``genmove`` and passes the answer to
the other engine with ``play``, until two passes in a row, a resignation or a move cap. Every
move also goes onto a ``goengine.board.Board``, the referee's record.

Checked in every game:

- no illegal move from either side: goengine accepts every GNU Go move, GNU Go every goengine
  move, and the referee's Board (positional superko, as both engines are set up) accepts both;
- at the end, goengine's ``final_score`` and GNU Go's name the same winner;
- when neither engine calls any stone dead (``final_status_list dead``), both scores equal the
  Board's Tromp-Taylor count of the final position replayed from the move list;
- goengine never passes while behind on the Tromp-Taylor count of the board as it stands and
  ahead by its own ``final_score`` (a pass resting on stones it merely believes dead). It does
  pass while behind when it judges the game lost; the tally counts those passes.

GNU Go runs as ``gnugo --mode gtp --chinese-rules --positional-superko --capture-all-dead
--level 0 --seed 1`` (area scoring and goengine's superko rule; it removes dead stones before it
passes; the seed makes the games reproducible); goengine as the ``goengine`` console script
with a small playout budget and a fixed seed per game (see ``GAMES``). The five games take
about 20 s. ``-s`` prints each game and the tally of agreement.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.lab.client import GtpClient, GtpError

GNUGO = "/usr/games/gnugo"
GNUGO_ARGV = [
    GNUGO,
    "--mode",
    "gtp",
    "--chinese-rules",
    "--positional-superko",
    "--capture-all-dead",
    "--level",
    "0",
    "--seed",
    "1",
]
PLAYOUTS = 500
KOMI = 7.5
TIMEOUT = 60.0  # seconds for one GTP command

pytestmark = [
    pytest.mark.slow,
    pytest.mark.gnugo,
    pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason=f"GNU Go not installed at {GNUGO}"),
]

NAME = {BLACK: "black", WHITE: "white"}
LETTER = {BLACK: "B", WHITE: "W"}

# (board size, goengine's colour, seed, playouts, resign threshold). Both colours; 9x9 and 7x7.
# At 500 playouts goengine loses everything, so two games have a budget (still well under a
# second a move) at which the endings are contested; with a resign threshold of 0 goengine never
# resigns and the game is played out and scored; one game keeps the default threshold, and
# enough playouts for goengine to resign (it needs 1000 root visits: resign_min_visits).
GAMES = [
    (9, BLACK, 1, PLAYOUTS, 0.0),
    (9, WHITE, 2, PLAYOUTS, 0.0),
    (9, BLACK, 3, 8000, 0.0),
    (7, WHITE, 4, 8000, 0.0),
    (9, WHITE, 11, 2000, 0.1),
]


def goengine_argv(seed: int, playouts: int, resign_threshold: float) -> list[str]:
    beside = Path(sys.executable).with_name("goengine")
    exe = str(beside) if beside.exists() else shutil.which("goengine")
    if exe is None:
        pytest.fail(f"no goengine console script beside {sys.executable} or on PATH: pip install -e .")
    return [exe, "--playouts", str(playouts), "--seed", str(seed), "--resign-threshold", str(resign_threshold), "-q"]


@dataclass
class Game:
    size: int
    goengine_color: int
    seed: int
    moves: list[tuple[int, str]] = field(default_factory=list)  # (colour, vertex as answered)
    end: str = ""  # "two passes", "B resigned", "W resigned" or "move cap"
    goengine_score: str = ""
    gnugo_score: str = ""
    board_score: float | None = None  # Tromp-Taylor, Black minus White minus komi
    goengine_dead: list[str] = field(default_factory=list)
    gnugo_dead: list[str] = field(default_factory=list)
    # goengine's passes while behind on the Tromp-Taylor count: (move number, that count, its
    # own final_score of the position)
    passes_behind: list[tuple[int, str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def record(self) -> str:
        return " ".join(f"{LETTER[c]} {v}" for c, v in self.moves)

    def describe(self) -> str:
        who = f"goengine {LETTER[self.goengine_color]} (seed {self.seed}) vs GNU Go"
        dead = f"dead: goengine {len(self.goengine_dead)}, GNU Go {len(self.gnugo_dead)}"
        dead += f"; goengine passes while behind on the area count: {len(self.passes_behind)}"
        board = "-" if self.board_score is None else score_text(self.board_score)
        return (
            f"{self.size}x{self.size} {who}: {len(self.moves)} moves, {self.end}; final_score goengine "
            f"{self.goengine_score or '-'}, GNU Go {self.gnugo_score or '-'}, Tromp-Taylor {board}; {dead}; "
            f"{self.seconds:.1f} s"
        )


def score_value(text: str) -> float:
    """``B+3.5`` -> 3.5, ``W+2`` -> -2, ``0`` -> 0 (GTP's result format, resignation excluded)."""
    text = text.strip().upper()
    if text in ("0", "DRAW"):
        return 0.0
    if len(text) < 3 or text[0] not in "BW" or text[1] != "+":
        raise ValueError(f"not a GTP score: {text!r}")
    value = float(text[2:])
    return value if text[0] == "B" else -value


def score_text(score: float) -> str:
    return "0" if score == 0 else f"{'B' if score > 0 else 'W'}+{abs(score):g}"


def winner(score: float) -> str:
    return "B" if score > 0 else "W" if score < 0 else "draw"


def dead_list(engine: GtpClient) -> list[str]:
    return engine.send("final_status_list dead", timeout=TIMEOUT).split()


def play_game(size: int, goengine_color: int, seed: int, playouts: int, resign_threshold: float) -> Game:
    """One game; fails the test at the first move either engine or the Board refuses."""
    game = Game(size, goengine_color, seed)
    start = time.monotonic()
    with (
        GtpClient(goengine_argv(seed, playouts, resign_threshold), timeout=TIMEOUT) as ours,
        GtpClient(GNUGO_ARGV, timeout=TIMEOUT) as gnugo,
    ):
        engines = {goengine_color: ours, 3 - goengine_color: gnugo}
        label = {ours: "goengine", gnugo: "GNU Go"}
        for engine in (ours, gnugo):
            engine.send(f"boardsize {size}")
            engine.send("clear_board")
            engine.send(f"komi {KOMI}")
        board = Board(size)
        color = BLACK
        cap = 3 * size * size  # below GNU Go's 500-move history, see test_gnugo_crosscheck.py
        while True:
            if len(game.moves) >= cap:
                game.end = "move cap"
                break
            mover, other = engines[color], engines[3 - color]
            answer = mover.send(f"genmove {NAME[color]}").strip()
            if answer.lower() == "resign":
                game.end = f"{LETTER[color]} resigned"
                break
            try:
                point = coords.from_gtp(size, answer)
                board.play(color, point)
            except (ValueError, IllegalMove) as err:
                pytest.fail(
                    f"{label[mover]} answered genmove {NAME[color]} with {answer!r}, which the Board refuses "
                    f"({err}), after: {game.record()}\n{board.render()}"
                )
            game.moves.append((color, answer.upper()))
            if mover is ours and point == PASS:
                count = board.score(KOMI) * (1 if color == BLACK else -1)
                if count <= 0:  # a pass while behind (or even) on the board as it stands
                    own = ours.send("final_score")
                    game.passes_behind.append((len(game.moves), score_text(board.score(KOMI)), own))
            try:
                other.send(f"play {NAME[color]} {answer}")
            except GtpError as err:
                pytest.fail(
                    f"{label[other]} refused {label[mover]}'s move play {NAME[color]} {answer} ({err}) "
                    f"after: {game.record()}\n{board.render()}"
                )
            if board.is_over:
                game.end = "two passes"
                break
            color = 3 - color
        if game.end in ("two passes", "move cap"):
            game.goengine_score = ours.send("final_score")
            game.gnugo_score = gnugo.send("final_score")
            game.goengine_dead = dead_list(ours)
            game.gnugo_dead = dead_list(gnugo)
            replayed = Board(size)  # the final position, replayed from the move list
            for c, v in game.moves:
                replayed.play(c, PASS if v == "PASS" else coords.from_gtp(size, v))
            game.board_score = replayed.score(KOMI)
    game.seconds = time.monotonic() - start
    return game


@pytest.fixture(scope="module")
def tally():
    counts = {"games": 0, "scored": 0, "winner agreed": 0, "score agreed exactly": 0, "no dead stones": 0}
    counts["goengine passes while behind"] = 0
    yield counts
    print(f"\ngoengine vs GNU Go: {counts}")


@pytest.mark.parametrize(("size", "goengine_color", "seed", "playouts", "resign_threshold"), GAMES)
def test_full_game_against_gnugo(size, goengine_color, seed, playouts, resign_threshold, tally):
    game = play_game(size, goengine_color, seed, playouts, resign_threshold)
    print("\n" + game.describe() + "\n" + game.record())
    tally["games"] += 1
    tally["goengine passes while behind"] += len(game.passes_behind)
    assert game.end != "move cap", f"no end after {len(game.moves)} moves: {game.record()}"
    # goengine may pass when it is lost, but never on the strength of stones it merely believes
    # dead: a pass while behind on the area count must be a pass it also judges lost.
    believed = [p for p in game.passes_behind if winner(score_value(p[2])) == LETTER[goengine_color]]
    assert not believed, f"goengine passed, behind on the area count, judging itself ahead: {believed}"
    if game.end != "two passes":
        return  # a resignation: no score to compare
    ours, theirs = score_value(game.goengine_score), score_value(game.gnugo_score)
    tally["scored"] += 1
    tally["winner agreed"] += winner(ours) == winner(theirs)
    tally["score agreed exactly"] += ours == theirs
    no_dead = not game.goengine_dead and not game.gnugo_dead
    tally["no dead stones"] += no_dead
    assert winner(ours) == winner(theirs), (
        f"final_score disagrees on the winner: goengine {game.goengine_score}, GNU Go {game.gnugo_score} "
        f"(dead per goengine {game.goengine_dead}, per GNU Go {game.gnugo_dead}); {game.describe()}\n{game.record()}"
    )
    if no_dead:
        assert ours == game.board_score == theirs, (
            f"no dead stones, yet final_score goengine {game.goengine_score}, GNU Go {game.gnugo_score}, "
            f"Tromp-Taylor {score_text(game.board_score)}\n{game.record()}"
        )
