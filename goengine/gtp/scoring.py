"""GTP commands that show, score and save the game: showboard, final_score, final_status_list,
loadsgf, printsgf."""

from __future__ import annotations

from goengine import coords, sgf
from goengine.board import BLACK, WHITE, IllegalMove
from goengine.game import GameError
from goengine.gtp.commands import CommandGroup
from goengine.gtp.protocol import GtpError, integer, syntax_error


def format_score(score: float) -> str:
    """GTP's result format: ``B+3.5``, ``W+0.5``, ``0`` for a draw."""
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"


class ScoringCommands(CommandGroup):
    COMMANDS = {
        "showboard": "showboard",
        "final_score": "final_score",
        "final_status_list": "final_status_list",
        "loadsgf": "loadsgf",
        "printsgf": "printsgf",
    }

    def showboard(self) -> str:
        board = self.game.board
        caps = f"captures: black {board.captures[BLACK]}, white {board.captures[WHITE]}; komi {self.game.komi:g}"
        return "\n" + board.render() + "\n" + caps

    def final_score(self) -> str:
        try:
            return format_score(self.engine.final_score())
        except (ValueError, GameError):
            raise GtpError("cannot score") from None

    def final_status_list(self, args: list[str]) -> str:
        """The stones of a status, one chain a line (GoGui's plist reads every vertex)."""
        if len(args) != 1 or args[0].lower() not in ("alive", "dead", "seki"):
            raise syntax_error()
        stones = set(self.engine.final_status(args[0].lower()))
        board = self.game.board
        lines, done = [], set()
        for p in sorted(stones):
            if p in done:
                continue
            chain = [q for q in board.chain(p) if q in stones]
            done.update(chain)
            lines.append(" ".join(self.gtp.vertex_text(q) for q in chain))
        return "\n".join(lines)

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
            repeats = self.engine.load_position(game, superko=False)
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
