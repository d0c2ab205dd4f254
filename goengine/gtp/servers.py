"""GTP commands that game servers and controllers send beside the game: KGS's ``kgs-game_over``
and ``kgs-chat``, and ``stop`` and ``clear_cache`` (KataGo's). None of them changes the game.

``kgs-chat`` answers a player who writes to the bot on KGS (kgsGtp sends the text of a success
back to them): ``help``, ``info`` and ``score`` get a short answer; anything else the list of
what it answers. It never fails on what a player writes."""

from __future__ import annotations

from goengine import version
from goengine.gtp.group import CommandGroup
from goengine.gtp.protocol import GtpError

CHAT_HELP = "I am goengine, a Monte-Carlo Go engine. Ask me: help, info, score."


class ServerCommands(CommandGroup):
    COMMANDS = {
        "kgs-game_over": "game_over",
        "kgs-chat": "chat",
        "stop": "stop",
        "clear_cache": "clear_cache",
    }

    def game_over(self) -> None:
        """The server says the game has ended: stop pondering (every command stops it, and only
        a move of the engine starts it again)."""
        self.engine.ponderer.stop()

    def stop(self) -> None:
        """End pondering or a running analysis. Any line that arrives already stops both (the
        analysis ends its response when input is pending); ``stop`` is the line a controller sends
        to mean only that."""
        self.engine.ponderer.stop()

    def clear_cache(self) -> None:
        """Forget the search's trees: the next search starts from nothing."""
        self.engine.clear_cache()

    def chat(self, args: list[str]) -> str:
        """``kgs-chat game|private NAME MESSAGE``: a short answer to ``help``, ``info`` or
        ``score`` (the first word of the message, any case)."""
        if len(args) < 3 or args[0] not in ("game", "private"):
            raise GtpError("kgs-chat wants: game|private NAME MESSAGE")
        word = args[2].lower().strip("!?.,")
        if word == "info":
            return f"goengine {version.full()}: {self.engine.describe()}"
        if word == "score":
            return self._score()
        return CHAT_HELP

    def _score(self) -> str:
        """The count of the position as it stands: the dead stones the playouts see removed."""
        score = self.engine.final_score()
        if score == 0:
            return "The position counts even (komi included)."
        leader = "Black" if score > 0 else "White"
        return f"{leader} leads by {abs(score):g} by an area count, komi included, if play stopped here."
