"""GTP commands that show and score the game: showboard, final_score, final_status_list. (Loading
and saving it, ``loadsgf`` and ``printsgf``, are ``goengine.gtp.sgf``'s.)"""

from __future__ import annotations

from goengine.board import BLACK, WHITE
from goengine.game import GameError
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError, syntax_error


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
