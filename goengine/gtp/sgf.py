"""GTP commands that load and save the game as SGF: loadsgf, printsgf (``goengine.sgf`` reads and
writes the files)."""

from __future__ import annotations

from goengine import coords, sgf
from goengine.board import BLACK, IllegalMove
from goengine.game import Setup
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError, integer, syntax_error


class SgfCommands(CommandGroup):
    COMMANDS = {
        "loadsgf": "loadsgf",
        "printsgf": "printsgf",
    }

    def loadsgf(self, args: list[str]) -> None:
        if not 1 <= len(args) <= 2:
            raise syntax_error()
        move_number = integer(args[1]) if len(args) == 2 else None
        try:
            game = sgf.load(args[0], move_number)
        except OSError as err:
            raise GtpError(f"cannot load file: {err.strerror or err}") from None
        except ValueError as err:  # a size goengine does not play among them (``sgf.BoardSizeError``)
            raise GtpError(f"cannot load file: {err}") from None
        try:
            repeats = self.engine.load_position(Setup.from_sgf(game), superko=False)
        except IllegalMove as err:
            number = game.first_number + (err.index or 0)
            move = f"{'B' if err.color == BLACK else 'W'} {coords.to_gtp(game.size, err.point)}"  # the file's size
            raise GtpError(f"cannot load file: move {number} ({move}) is illegal: {err.reason}") from None
        for i in repeats:
            color, point = game.moves[i]
            self.gtp.log(
                f"warning: loadsgf {args[0]}: move {game.first_number + i} ({'B' if color == BLACK else 'W'} "
                f"{self.gtp.vertex_text(point)}) repeats an earlier position, which positional superko forbids; "
                "played, since the record has it"
            )

    def printsgf(self, args: list[str]) -> str | None:
        if len(args) > 1:
            raise syntax_error()
        game = self.game
        text = sgf.dumps(game.size, game.komi, game.moves, game.setup_stones, handicap=len(game.handicap))
        if args:
            try:
                sgf.write_file(args[0], text)
            except OSError as err:
                raise GtpError(f"cannot save file: {err.strerror or err}") from None
            except ValueError as err:  # a FIFO, a device, a folder
                raise GtpError(f"cannot save file: {err}") from None
            return None
        return text.strip()
