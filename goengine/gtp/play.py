"""GTP commands that set up and play the game: size, komi, moves, genmove, undo, handicap."""

from __future__ import annotations

from goengine.config import BOARD_SIZES
from goengine.game import BadHandicap, BadStones, BoardNotEmpty, NothingToUndo
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError, color, integer, number, syntax_error, vertex


class PlayCommands(CommandGroup):
    COMMANDS = {
        "boardsize": "boardsize",
        "clear_board": "clear_board",
        "komi": "komi",
        "play": "play",
        "genmove": "genmove",
        "reg_genmove": "reg_genmove",
        "kgs-genmove_cleanup": "genmove_cleanup",
        "undo": "undo",
        "fixed_handicap": "fixed_handicap",
        "place_free_handicap": "place_free_handicap",
        "set_free_handicap": "set_free_handicap",
    }

    def boardsize(self, args: list[str]) -> None:
        if len(args) != 1:
            raise syntax_error()
        size = integer(args[0])
        if size not in BOARD_SIZES:
            raise GtpError("unacceptable size")
        self.engine.new_game(size)

    def clear_board(self) -> None:
        self.engine.new_game()

    def komi(self, args: list[str]) -> None:
        if len(args) != 1:
            raise syntax_error()
        self.game.set_komi(number(args[0]))

    def play(self, args: list[str]) -> None:
        if len(args) != 2:
            raise syntax_error()
        c = color(args[0])
        self.game.play(c, vertex(self.game.size, args[1]))

    def _genmove(self, args: list[str], commit: bool, cleanup: bool = False) -> str:
        if len(args) != 1:
            raise syntax_error()
        return self.gtp.vertex_text(self.gtp.genmove(color(args[0]), commit=commit, cleanup=cleanup).move)

    def genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=True)

    def reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=False)

    def genmove_cleanup(self, args: list[str]) -> str:
        return self._genmove(args, commit=True, cleanup=True)

    def undo(self) -> None:
        try:
            self.game.undo()
        except NothingToUndo:
            raise GtpError("cannot undo") from None

    # ---- handicap (GTP 2, section 6.3.2: the errors are "board not empty",
    # "invalid number of stones" and, for set_free_handicap, "bad vertex list")

    def fixed_handicap(self, args: list[str]) -> str:
        return self._handicap(args, self.game.fixed_handicap)

    def place_free_handicap(self, args: list[str]) -> str:
        return self._handicap(args, self.engine.free_handicap)

    def _handicap(self, args: list[str], place) -> str:
        if len(args) != 1:
            raise syntax_error()
        n = integer(args[0])
        if not self.game.is_empty:
            raise GtpError("board not empty")
        try:
            points = place(n)
        except BadHandicap:
            raise GtpError("invalid number of stones") from None
        return " ".join(self.gtp.vertex_text(p) for p in points)

    def set_free_handicap(self, args: list[str]) -> None:
        if len(args) < 2:
            raise GtpError("bad vertex list")
        try:
            points = [vertex(self.game.size, a) for a in args]
        except GtpError:
            raise GtpError("bad vertex list") from None
        if not self.game.is_empty:
            raise GtpError("board not empty")
        try:
            self.game.place_handicap(points)
        except BoardNotEmpty:
            raise GtpError("board not empty") from None
        except (BadStones, ValueError):  # ValueError: a chain without liberties
            raise GtpError("bad vertex list") from None
