"""A game file to review: read, replayed once to be sure of it, and cut into its positions.

``read(path)`` gives a ``ReviewGame`` or raises ``BadGame`` with the reason in words (not SGF,
not Go, a board size goengine does not play, a move that cannot be replayed): the command names
the file and the reason, and reviews the others. ``ReviewGame.positions()`` gives every position
of the main line, the one before the first move to the one after the last, as ``Position``s: the
unit of work, small plain data that a process pool or a Dask worker evaluations on its own.

goengine counts by area. A file's rules (``RU``) do not stop a review, which judges the moves; the
komi is the file's ``KM`` (0 when it has none, as ``loadsgf`` reads such a file), with the points
the engine's ``--white-handicap-bonus`` gives White for a handicap, and ``ReviewGame.terms`` says
it all in words for the review's heading.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from goengine import coords, sgf
from goengine.board import BLACK, WHITE, Board
from goengine.ruleset import goengine_rules

_LETTER = {BLACK: "B", WHITE: "W"}
AREA_RULES = ("chinese", "cn", "area", "tromp-taylor", "aga", "nz", "new zealand")  # RU values that count as goengine


class BadGame(ValueError):
    """A file that cannot be reviewed; the message is the reason, without the file's name."""


@dataclass(frozen=True)
class Position:
    """One position of a game's main line, to analyse: the game's ``size``, ``komi`` and set-up
    stones (``setup``, ``(color, point)``), the moves played to reach it (``moves``: the first
    ``turn`` of ``line``, all of it when ``turn`` is None) and the colour searched (``to_move``:
    the player of the next move, or after the last move the other player). ``first`` is who
    moves first from the set-up (the game's ``to_move`` before any move).

    The positions of one game share its ``line`` (``ReviewGame.positions``), so they take memory
    in the game's length, not in its square (a copy of the moves each took 1.77 GB for a record
    of 20,000 moves)."""

    size: int
    komi: float
    setup: tuple[tuple[int, int], ...]
    line: tuple[tuple[int, int], ...]
    to_move: int
    first: int
    turn: int | None = None

    @property
    def moves(self) -> tuple[tuple[int, int], ...]:
        """The moves played to reach the position, ``(color, point)``."""
        return self.line if self.turn is None else self.line[: self.turn]


@dataclass(frozen=True)
class ReviewGame:
    """A game read and replayed: its file (``path``, and ``data``, the bytes the review SGF is
    written from), ``size``, ``komi``, set-up stones, the moves reviewed (``moves``: the main
    line's, or those after its last set-up node when one comes after the first move, which
    ``sgf.parse`` folds into the set-up), the number of the first of them in the file
    (``first_number``), who moves first (``first``), the file's ``KM`` and ``RU`` as written
    (None when absent)."""

    path: Path
    data: bytes
    size: int
    komi: float
    setup: tuple[tuple[int, int], ...]
    moves: tuple[tuple[int, int], ...]
    first_number: int
    first: int
    km: str | None
    ru: str | None

    @property
    def handicap_stones(self) -> int:
        """The handicap: the set-up stones when there are two or more and all are Black's (as
        ``Game.handicap_stones`` counts them), else 0."""
        stones = self.setup
        return len(stones) if len(stones) >= 2 and all(c == BLACK for c, _ in stones) else 0

    def terms(self, white_handicap_bonus: str = "0") -> str:
        """The komi and the count used, and the file's rules when they count otherwise; with
        ``white_handicap_bonus`` (``ruleset.HANDICAP_BONUSES``), the points it gives White."""
        komi = f"komi {self.komi:g} (the file's KM)" if self.km is not None else "komi 0 (the file gives no KM)"
        bonus = goengine_rules(white_handicap_bonus).komi_bonus(self.handicap_stones)
        if bonus:
            komi += f" and {bonus:g} for White's {self.handicap_stones} handicap stones"
        rules = "counted by area"
        if self.ru is not None and self.ru.strip().lower() not in AREA_RULES:
            rules += f" (the file's rules, RU[{self.ru}], are not goengine's: the moves are judged all the same)"
        return f"{komi}, {rules}"

    def number(self, i: int) -> int:
        """The number in the file of ``moves[i]``."""
        return self.first_number + i

    def positions(self) -> list[Position]:
        """Every position of the main line: before ``moves[0]``, ..., after the last move."""
        setup = self.setup
        result = []
        for i in range(len(self.moves) + 1):
            if i < len(self.moves):
                to_move = self.moves[i][0]
            elif self.moves:
                to_move = WHITE if self.moves[-1][0] == BLACK else BLACK
            else:
                to_move = self.first
            result.append(Position(self.size, self.komi, setup, self.moves, to_move, self.first, turn=i))
        return result


def move_name(size: int, color: int, point: int) -> str:
    """``B D4``, ``W pass``."""
    return f"{_LETTER[color]} {coords.to_gtp(size, point)}"


def read(path: str | Path) -> ReviewGame:
    """The game in the SGF file at ``path`` (a regular file of at most ``sgf.MAX_SGF_BYTES``,
    ``sgf.read_file``), every move replayed with the rules; BadGame naming the reason when it
    cannot be read or replayed. A move that repeats an earlier position is replayed, as
    ``loadsgf`` does: the record is history, and a game played under a simple-ko rule may
    repeat one; any other illegal move is refused."""
    path = Path(path)
    try:
        data = sgf.read_file(str(path))
    except OSError as err:
        raise BadGame(f"cannot read it: {err.strerror or err}") from None
    except ValueError as err:  # not a regular file, or too large for a game record
        raise BadGame(str(err)) from None
    try:
        position = sgf.parse(data)
        about = sgf.info(data)
    except ValueError as err:
        raise BadGame(str(err) or "not an SGF game") from None
    moves = tuple(position.moves)
    if not moves:
        raise BadGame("no moves on its main line")
    first_number = about.main_line_moves - len(moves) + 1
    try:
        board = Board.from_stones(position.size, position.setup, moves[0][0])
    except ValueError as err:
        raise BadGame(f"its set-up cannot be placed: {err}") from None
    for i, (color, point) in enumerate(moves):
        try:
            board.play(color, point, superko=False)
        except ValueError as err:
            number = first_number + i
            raise BadGame(f"move {number} ({move_name(position.size, color, point)}) cannot be played: {err}") from None
    return ReviewGame(
        path,
        data,
        position.size,
        position.komi,
        tuple(position.setup),
        moves,
        first_number,
        moves[0][0],
        about.properties.get("KM"),
        about.properties.get("RU"),
    )
