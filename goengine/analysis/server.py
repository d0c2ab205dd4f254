"""The analysis engine's loop: queries in from a reader, searches on worker engines, responses out.

``AnalysisServer.submit`` takes one input line: an action is answered at once; a query's
warnings are written, and each of its turns queued (highest ``priority`` first, then the order
they came in). Each worker thread owns one ``Engine`` and takes the next turn from the queue:
it sets up the position, searches it from fresh trees on the query's budget (``maxVisits`` as playouts,
``maxTime`` as seconds, else the engine's own budget), writes a partial response every
``reportDuringSearchEvery`` seconds and one final response (``isDuringSearch`` false). A
``terminate`` ends the matching turns: one still queued is answered ``noResults``, one being
searched stops and answers what it has (``noResults`` when nothing was searched yet), so every
turn of every query ends with exactly one final line, as KataGo promises.

Several queries are in flight at once; with one worker (the default) they are searched one after
the other in priority order, with N workers N at a time (each engine searching with the
command's threads). ``finish`` is the end of input: by default every queued turn is still
answered, as KataGo does; with ``quit_without_waiting`` they are terminated.

Every line written is one JSON object, written whole under a lock; nothing else goes to stdout.
A line that cannot be read (``query``'s limits, a line longer than ``query.MAX_LINE_BYTES``) is
answered with an error and the server goes on; so is a line on which the server itself fails
(its traceback goes to the log), so one line never ends the session or loses the queries in flight.
"""

from __future__ import annotations

import heapq
import itertools
import json
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from goengine import version
from goengine.analysis import response
from goengine.analysis.query import MAX_LINE_BYTES, Action, Defaults, Query, QueryError, Turn, read, readable_id
from goengine.config import Budget, EngineConfig
from goengine.engine import Engine, SearchRequest, SearchResult
from goengine.game import Setup

HEAD_BYTES = 1 << 20  # what is kept of a line too long to read: enough to find its id in


@dataclass(frozen=True)
class LongLine:
    """In place of an input line longer than MAX_LINE_BYTES, which was read past, not kept: its
    length in bytes, its line ending included, and its first HEAD_BYTES bytes (``head``), where
    the query's id is looked for so that the error can name it."""

    length: int
    head: str = field(default="", compare=False, repr=False)


def input_lines(binary, limit: int = MAX_LINE_BYTES):
    """The lines of a binary stream, ended by LF alone (a lone CR is JSON's white space) and
    decoded leniently (a byte that is not UTF-8 becomes U+FFFD); a line longer than ``limit``
    bytes is read past in pieces and given as a ``LongLine``, so memory stays bounded."""
    while True:
        line = binary.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit:
            yield line.decode("utf-8", errors="replace")
            continue
        length, head = len(line), line[:HEAD_BYTES].decode("utf-8", errors="replace")
        ended = line.endswith(b"\n")
        del line  # the rest is read past in pieces of a megabyte
        while not ended:
            piece = binary.readline(1 << 20)
            if not piece:
                break
            length += len(piece)
            ended = piece.endswith(b"\n")
        yield LongLine(length, head)


@dataclass
class _Job:
    """One turn of one query, queued or being searched."""

    query: Query
    turn: Turn
    terminated: threading.Event = field(default_factory=threading.Event)


class AnalysisServer:
    """KataGo's JSON analysis protocol over ``workers`` engines made from ``config``: ``submit``
    each input line, ``finish`` at the end of input. ``write`` takes one output line (a JSON
    object and its newline), ``log`` one line for stderr."""

    def __init__(
        self,
        config: EngineConfig,
        write: Callable[[str], None],
        log: Callable[[str], None] = lambda text: None,
        defaults: Defaults | None = None,
        workers: int = 1,
    ):
        self.config = config
        self.defaults = defaults or Defaults()
        self._write = write
        self.log = log
        self._lock = threading.Lock()  # the output, one whole line at a time
        self._queue: list[tuple[int, int, _Job]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._running: list[_Job] = []
        self._closing = False
        self._threads = [
            threading.Thread(target=self._work, args=(k,), name=f"analysis-{k}", daemon=True) for k in range(workers)
        ]
        for thread in self._threads:
            thread.start()

    # ---- output

    def send(self, answer: dict) -> None:
        """Write one response line."""
        line = json.dumps(answer, separators=(",", ":"), allow_nan=False)
        with self._lock:
            self._write(line + "\n")

    # ---- input

    def submit(self, line: str | LongLine) -> None:
        """Read one input line and act on it (``module docstring``); a line in error is answered
        with KataGo's error object and nothing else is done for it, and so is a line on which
        this server fails (its traceback to the log). ``clear_cache`` is only echoed: every turn
        is searched from fresh trees anyway."""
        try:
            self._submit(line)
        except Exception as error:  # noqa: BLE001 - one line never ends the session
            self.log(f"goengine analysis: failed on a line: {traceback.format_exc()}")
            self.send({"error": f"internal error: {type(error).__name__}: {str(error)[:200]}"})

    def _submit(self, line: str | LongLine) -> None:
        if isinstance(line, LongLine):
            error = QueryError(f"a line of {line.length} bytes; at most {MAX_LINE_BYTES}: not read")
            error.query_id = readable_id(line.head)
            self.send(error.to_json())
            return
        try:
            request = read(line, self.defaults)
        except QueryError as error:
            self.send(error.to_json())
            return
        if request is None:
            return
        if isinstance(request, Action):
            self._act(request)
            return
        for key, message in request.warnings:
            self.send({"warning": message, "field": key, "id": request.query_id})
        with self._ready:
            for turn in request.turns:
                heapq.heappush(self._queue, (-turn.priority, next(self._order), _Job(request, turn)))
            self._ready.notify_all()

    def _act(self, action: Action) -> None:
        answer = dict(action.raw)
        if action.action == "query_version":
            answer.update(version=version.full(), git_hash=version.commit() or "<omitted>")
        elif action.action == "query_models":
            answer["models"] = [{"name": "goengine", "internalName": version.full(), "maxBatchSize": 1}]
        elif action.action in ("terminate", "terminate_all"):
            self.terminate(action.terminate_id, action.turns)
        self.send(answer)

    def terminate(self, query_id: str | None, turns: tuple[int, ...] | None) -> None:
        """End the turns ``turns`` (all when None) of query ``query_id`` (every query when None),
        queued or being searched."""
        with self._ready:
            for job in [j for _, _, j in self._queue] + self._running:
                if (query_id is None or job.query.query_id == query_id) and (turns is None or job.turn.number in turns):
                    job.terminated.set()
            self._ready.notify_all()

    def finish(self, wait: bool = True) -> None:
        """The end of input: answer what is queued (or with ``wait`` False, terminate it all),
        then stop the workers and their engines."""
        if not wait:
            self.terminate(None, None)
        with self._ready:
            self._closing = True
            self._ready.notify_all()
        for thread in self._threads:
            thread.join()

    # ---- the workers

    def _next(self, k: int) -> _Job | None:
        """The next turn for worker ``k``: the queue's first, or None once input has ended and
        nothing is left."""
        with self._ready:
            while not self._queue and not self._closing:
                self._ready.wait()
            if not self._queue:
                return None
            job = heapq.heappop(self._queue)[2]
            self._running.append(job)
            return job

    def _work(self, k: int) -> None:
        engine = None
        try:
            while (job := self._next(k)) is not None:
                try:
                    if job.terminated.is_set():
                        self.send(response.no_results(job.query.query_id, job.turn.number))
                        continue
                    if engine is None:
                        engine = Engine(self.config)
                    self._analyse(engine, job)
                except Exception:  # noqa: BLE001 - one turn's failure must not end the others
                    self.log(traceback.format_exc())
                    self.send({"error": "internal error while searching", "id": job.query.query_id})
                finally:
                    with self._ready:
                        self._running.remove(job)
        finally:
            if engine is not None:
                engine.close()

    def _analyse(self, engine: Engine, job: _Job) -> None:
        """Search one turn and write its responses."""
        query, turn = job.query, job.turn
        # every turn from fresh trees, as KataGo searches each query afresh: ``maxVisits`` is then
        # the turn's own visits, and a turn's analysis does not depend on what came before it
        engine.clear_cache()
        setup_to_move = turn.moves[0][0] if turn.moves else turn.to_move
        engine.load_position(Setup(query.size, query.komi, query.stones, turn.moves, setup_to_move, query.rules))
        probabilities = engine.move_policy(turn.to_move) if query.policy else None
        budget = None
        if query.max_visits is not None or query.max_time is not None:
            budget = Budget(playouts=query.max_visits, seconds=query.max_time)

        def answer(result: SearchResult, during: bool) -> dict:
            return response.response(
                query.query_id,
                turn.number,
                result,
                query.size,
                query.perspective,
                query.pv_length,
                during,
                include_ownership=query.ownership,
                include_ownership_stdev=query.ownership_stdev,
                pv_visits=query.pv_visits,
                probabilities=probabilities,
            )

        every = query.report_every
        first = query.first_report_after if query.first_report_after is not None else every
        start = time.monotonic()
        reported = [None]

        def report(result: SearchResult) -> None:
            now = time.monotonic()
            due = first if reported[0] is None else every
            since = now - (start if reported[0] is None else reported[0])
            if result.visits > 0 and since >= 0.999 * due:
                reported[0] = now
                self.send(answer(result, True))

        request = SearchRequest(
            budget,
            callback=report if every is not None else None,
            interval=min(every, first) if every is not None else 1.0,
            ownership=query.ownership or query.ownership_stdev,
            pv_visits=query.pv_visits,
            should_stop=job.terminated.is_set,
        )
        result = engine.analyze(turn.to_move, request)
        if result.visits == 0 and job.terminated.is_set():
            self.send(response.no_results(query.query_id, turn.number))
        else:
            self.send(answer(result, False))


def serve(server: AnalysisServer, stdin, wait: bool = True) -> int:
    """Feed ``server`` every line of ``stdin`` until its end, then ``finish`` (answering what is
    queued unless ``wait`` is False). Returns the exit status, 0."""
    for line in stdin:
        server.submit(line)
    server.finish(wait)
    return 0


def watch_parent(log: Callable[[str], None], period: float = 1.0) -> None:
    """Exit when the process that started this one is gone (its parent changes): a client that
    starts the engine through a shell and ends the shell (KaTrain's custom command without
    ``exec``) would otherwise wait for it forever. Runs on a daemon thread."""
    import os

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(period)
        log("goengine analysis: the parent process has gone; exiting")
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
