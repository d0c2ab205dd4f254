"""Pondering: thinking on the opponent's time, a search on a thread of its own (KataGo's
``AsyncBot`` keeps its background search apart in the same way).

Lifecycle: ``start`` searches a position (the opponent to move, after the engine's move) with no
budget; ``stop`` ends it within a batch of iterations (milliseconds: well under 50 ms) and, with
``wait``, returns once the thread is done, so the search is its owner's again. The subtree is
handed over by the search itself: the next search of the game re-roots its trees on the move the
opponent played (``Search``'s re-rooting), so what pondering found under that move is kept. Nothing
is played, printed or charged to a clock here.
"""

from __future__ import annotations

import threading

from goengine.board import Board
from goengine.config import Budget, SearchRequest
from goengine.search import Search

PONDER_SECONDS = 86400.0  # a ponder search's budget: it runs until stopped


class Ponderer:
    """At most one background search at a time on ``search``."""

    def __init__(self, search: Search):
        self.search = search
        self._running: tuple[threading.Thread, threading.Event] | None = None

    @property
    def active(self) -> bool:
        """Whether a ponder search is running now."""
        return self._running is not None and self._running[0].is_alive()

    def start(self, board: Board, komi: float, extra_komi: float = 0.0) -> None:
        """Search ``board`` (a copy is taken; its side to move searches) with the playouts judged
        against ``komi + extra_komi`` until ``stop``. A running ponder search is stopped first."""
        self.stop()
        board = board.copy()
        stop = threading.Event()

        def ponder() -> None:
            if stop.is_set():
                return
            # the stop test, asked after every batch, is the one way a search stops early (it
            # also catches a stop that came before the search began)
            request = SearchRequest(Budget(seconds=PONDER_SECONDS), should_stop=stop.is_set, extra_komi=extra_komi)
            self.search.run(board, komi, request)

        thread = threading.Thread(target=ponder, name="ponder", daemon=True)
        self._running = (thread, stop)
        thread.start()

    def stop(self, wait: bool = True) -> None:
        """Stop the ponder search (after its current batch: milliseconds); with ``wait``, return
        once it has stopped. Thread-safe without ``wait`` (the front-end's input thread calls it
        the moment a line arrives)."""
        running = self._running
        if running is None:
            return
        thread, stop = running
        stop.set()
        if wait:
            thread.join()
            self._running = None
