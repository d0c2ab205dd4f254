"""What every handler group shares: ``CommandGroup``, a set of related GTP commands registered
into one ``GtpEngine``'s table."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the engine class assembles the groups; only its type is needed here
    from goengine.engine import Engine
    from goengine.game import Game
    from goengine.gtp.front import GtpEngine


class CommandGroup:
    """``COMMANDS`` maps each GTP command name to the method that handles it; ``register`` adds
    them to the front-end's table. A handler takes the argument words (a method of no parameters
    for a command without arguments: the table refuses any, ``Protocol.register``) and returns
    the response text (or None for an empty success), raising ``GtpError`` for a failure."""

    COMMANDS: dict[str, str] = {}

    def __init__(self, gtp: GtpEngine):
        self.gtp = gtp

    @property
    def engine(self) -> Engine:
        return self.gtp.engine

    @property
    def game(self) -> Game:
        """The engine's game: its record, set-up and moves (``goengine.game.Game``)."""
        return self.gtp.engine.game

    def register(self) -> None:
        for name, method in self.COMMANDS.items():
            self.gtp.register(name, getattr(self, method))
