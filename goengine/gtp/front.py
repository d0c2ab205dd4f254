"""``GtpEngine``: the GTP command table assembled around an ``Engine`` from the handler groups
(``GROUPS``), and ``serve``, which runs it on stdin/stdout (``protocol.serve``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

from goengine import coords, version
from goengine.board import BLACK
from goengine.engine import RESIGN, Decision, Engine, SearchRequest
from goengine.gtp import protocol
from goengine.gtp.gogui import GoGuiCommands
from goengine.gtp.play import PlayCommands
from goengine.gtp.protocol import NAME, Protocol
from goengine.gtp.ruleset import RulesetCommands
from goengine.gtp.scoring import ScoringCommands
from goengine.gtp.servers import ServerCommands
from goengine.gtp.settings import SettingsCommands
from goengine.gtp.sgf import SgfCommands
from goengine.gtp.streaming import StreamingCommands
from goengine.gtp.timing import TimingCommands

GROUPS = (
    PlayCommands,
    RulesetCommands,
    ScoringCommands,
    SgfCommands,
    TimingCommands,
    SettingsCommands,
    StreamingCommands,
    GoGuiCommands,
    ServerCommands,
)


class GtpEngine(Protocol):
    """GTP commands on top of an ``Engine`` (``log``, ``write``, ``input_pending``: see
    ``Protocol``)."""

    def __init__(
        self,
        engine: Engine,
        log: Callable[[str], None] | None = None,
        write: Callable[[str], None] | None = None,
        input_pending: Callable[[], bool] | None = None,
    ):
        super().__init__(NAME, version.full(), log=log, write=write, input_pending=input_pending)
        self.engine = engine
        self._mover: int | None = None  # the colour whose move the current command played
        self._interrupted = threading.Event()  # GoGui's ``# interrupt`` during the current command
        for group in GROUPS:
            group(self).register()

    def interrupt(self) -> None:
        """``# interrupt`` (thread-safe: the input thread calls it): the current command's search
        stops after its batch and answers with what it has, through its stop test (``stops``)."""
        self._interrupted.set()

    def stops(self, *tests: Callable[[], bool] | None) -> Callable[[], bool]:
        """The stop test (``SearchRequest.should_stop``) of a search a command starts: an
        ``# interrupt`` during the command, or any of ``tests`` (None ones left out)."""
        interrupted, others = self._interrupted.is_set, [test for test in tests if test is not None]
        return lambda: interrupted() or any(test() for test in others)

    def line_arrived(self) -> None:
        """A line has come in: a ponder search stops now, before the line is even read (its
        command waits for it in ``send``)."""
        self.engine.ponderer.stop(wait=False)

    def send(self, message: str) -> str:
        self.engine.ponderer.stop()  # every command finds the engine idle
        self._mover = None
        self._interrupted.clear()  # an interrupt stops the command it came during, not the next
        return super().send(message)

    def answered(self, arrived: float, flushed: float) -> None:
        """A command that played a move (``genmove``, ``kgs-genmove_cleanup``,
        ``lz-genmove_analyze``, ``kata-genmove_analyze``) tells the engine how long the whole
        round trip took (``Engine.move_answered``: its player's clock is charged, and with
        ``ponder`` on the engine thinks on the opponent's time until the next line)."""
        if self._mover is not None:
            mover, self._mover = self._mover, None
            self.engine.move_answered(mover, flushed - arrived)

    def vertex_text(self, p: int) -> str:
        """A point (or PASS, or RESIGN) as GTP writes it on the current board."""
        if p == RESIGN:
            return "resign"
        return coords.to_gtp(self.engine.game.size, p)

    def genmove(
        self, color: int, commit: bool, cleanup: bool = False, request: SearchRequest | None = None
    ) -> Decision:
        """Search for ``color`` as ``request`` asks (``Engine.genmove``; play the move with
        ``commit``), log the result, and return the decision: the core of ``genmove``,
        ``reg_genmove``, ``kgs-genmove_cleanup``, ``lz-genmove_analyze``, ``kata-genmove_analyze``
        and ``cgos-genmove_analyze``."""
        request = request or SearchRequest()
        request = replace(request, should_stop=self.stops(request.should_stop))
        decision = self.engine.genmove(color, commit=commit, cleanup=cleanup, request=request)
        if commit:
            self._mover = color  # its clock is charged once the answer has left (``answered``)
        self._log_decision(color, decision)
        return decision

    def _log_decision(self, color: int, decision: Decision) -> None:
        result = decision.result
        summary = ", ".join(f"{self.vertex_text(s.move)} {s.visits} {s.winrate:.3f}" for s in result.stats[:5])
        extra = f", extra komi {result.extra_komi:g}" if result.extra_komi else ""
        self.log(
            f"{'B' if color == BLACK else 'W'} {self.vertex_text(decision.move)} ({decision.reason}); "
            f"{result.playouts} playouts in {result.seconds:.2f} s, {result.nodes} nodes{extra}; {summary}"
        )


def serve(engine: Engine, stdin=None, stdout=None, log: Callable[[str], None] | None = None) -> int:
    """Serve ``engine`` over GTP on stdin/stdout until ``quit`` or end of input
    (``protocol.serve``); the search's threads are stopped at the end."""
    try:
        return protocol.serve(lambda **io: GtpEngine(engine, **io), stdin=stdin, stdout=stdout, log=log)
    finally:
        engine.close()


__all__ = ["GROUPS", "GtpEngine", "serve"]
