"""GtpClient: the controller's side of GTP, for driving another engine (GNU Go, any GTP engine).

This module owns the engine *process* and the *protocol framing*: starting the subprocess
(argv list, no shell), writing one command per line, reading back one full response, and
turning everything that can go wrong into one of four exceptions. It knows nothing about Go:
vertices, colours and scores are the caller's business. Standard library only.

Reading guide: ``GtpClient.send`` is the whole protocol; ``_read_response`` does the framing
(GTP 2, section 2.11: a response is ``=[id] text`` or ``?[id] message``, possibly over several
lines, ended by one empty line; we also take a line of blanks as the end). ``close`` shows the shutdown order.

Threads: one background thread reads stdout line by line into a queue, so ``send`` can wait on
it with a timeout; another drains stderr into a bounded buffer (the last ``stderr_limit``
bytes), so an engine that writes megabytes of diagnostics can never block on a full pipe.
Commands are written to a non-blocking stdin with a deadline, so an engine that stops reading
cannot hang the controller either.

Errors (all subclasses of ``GtpClientError``):

- ``GtpError``: the engine answered ``? message``. The connection is fine; ``str(err)`` is the
  message and ``err.command`` the command.
- ``GtpTimeout`` (also a ``TimeoutError``): no full response within the timeout. The engine may
  still answer later: the client remembers that a response is owed and discards it before it
  reads the next one, so the stream stays in step with a slow-but-sane engine.
- ``GtpEngineDied``: end of file on stdout or a broken stdin pipe (crash, exit). Every later
  ``send`` raises it too. The message carries the exit code and the tail of stderr.
- ``GtpProtocolError``: a response that is not GTP (a line that starts with neither ``=`` nor
  ``?``, or a response to the wrong id). The bad response has been read to its end.

An engine that stops reading its input while a command is half written leaves the stream
unusable: that ``send`` raises GtpTimeout, and every later one GtpClientError.

Response text: the ``=``/``?`` and the id are removed, with the whitespace that separates them
from the text; lines are joined with ``"\\n"`` (carriage returns dropped); a first line left
empty by a multi-line response (``= \\n...``, as ``showboard`` answers) is dropped; trailing
whitespace is removed. ``"= "`` gives ``""``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import selectors
import subprocess
import threading
import time
from collections.abc import Sequence
from types import EllipsisType

from goengine.jobs import child_ending_with_parent

DEFAULT_TIMEOUT = 30.0
DEFAULT_STDERR_LIMIT = 64 * 1024
_EOF = None  # what the stdout reader puts on the queue at end of file


class GtpClientError(Exception):
    """Anything that went wrong talking to a GTP engine."""


class GtpError(GtpClientError):
    """The engine answered a command with a failure response (``? message``)."""

    def __init__(self, message: str, command: str = ""):
        super().__init__(message)
        self.message = message
        self.command = command


class GtpTimeout(GtpClientError, TimeoutError):
    """No full response arrived within the timeout."""


class GtpEngineDied(GtpClientError):
    """The engine exited or closed its pipes."""


class GtpProtocolError(GtpClientError):
    """The engine wrote something that is not a GTP response."""


class GtpClient:
    """A GTP engine running as a subprocess.

    ``argv`` is the command line (a list; no shell). ``timeout`` is the default number of seconds
    ``send`` waits for a response (``None``: wait forever). With ``use_ids`` every command is
    sent with an increasing numeric id and the response's id is checked. ``stderr_limit`` bounds
    the stderr kept (the last bytes; see ``stderr_tail``). ``cwd`` and ``env`` go to ``Popen``.

    Starting a program that does not exist raises ``OSError`` (``FileNotFoundError``) from
    ``subprocess.Popen``. Use as a context manager, or call ``close``.
    """

    def __init__(
        self,
        argv: Sequence[str],
        timeout: float | None = DEFAULT_TIMEOUT,
        *,
        use_ids: bool = False,
        stderr_limit: int = DEFAULT_STDERR_LIMIT,
        cwd: str | os.PathLike | None = None,
        env: dict[str, str] | None = None,
    ):
        if isinstance(argv, str | bytes):
            raise TypeError("argv must be a sequence of arguments, not a string")
        self.argv = [os.fspath(a) for a in argv]
        if not self.argv:
            raise ValueError("argv is empty")
        self.timeout = timeout
        self.use_ids = use_ids
        self._stderr_limit = max(0, int(stderr_limit))
        self._stderr = bytearray()
        self._stderr_total = 0
        self._stderr_lock = threading.Lock()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._send_lock = threading.Lock()
        self._next_id = 1
        self._owed = 0  # commands sent whose responses are not read yet (timed-out ones first)
        self._partial: list[str] = []  # lines of a response not yet complete
        self._dead = False
        self._closed = False
        self._broken: str | None = None  # why the command stream can no longer be trusted
        self._proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            preexec_fn=child_ending_with_parent(),  # no engine outlives a match killed by SIGKILL
        )
        # Commands go straight to the pipe with os.write (never through proc.stdin's buffer).
        os.set_blocking(self._proc.stdin.fileno(), False)
        name = os.path.basename(self.argv[0])
        self._stdout_thread = threading.Thread(target=self._read_stdout, name=f"gtp-stdout-{name}", daemon=True)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, name=f"gtp-stderr-{name}", daemon=True)
        self._stdout_thread.start()
        self._stderr_thread.start()

    # ---- the protocol

    def send(self, command: str, timeout: float | None | EllipsisType = ...) -> str:
        """Send one command and return the text of its success response.

        ``timeout`` overrides the client's default for this command (``None``: no limit).
        Raises GtpError on ``? message``, GtpTimeout, GtpEngineDied or GtpProtocolError.
        """
        command = command.strip()
        if not command or any(ch in command for ch in "\r\n\0"):
            raise ValueError(f"a GTP command is one non-empty line, got {command!r}")
        limit = self.timeout if timeout is ... else timeout
        with self._send_lock:
            if self._closed:
                raise GtpClientError("the GTP client is closed")
            if self._dead:
                raise self._died()
            if self._broken:
                raise GtpClientError(self._broken)
            deadline = None if limit is None else time.monotonic() + limit
            cmd_id = None
            if self.use_ids:
                cmd_id = self._next_id
                self._next_id += 1
            self._write(f"{command if cmd_id is None else f'{cmd_id} {command}'}\n".encode(), deadline, command)
            self._owed += 1  # counts this command until its response is read
            while True:
                lines = self._read_response(deadline, command)
                self._owed -= 1
                if self._owed > 0:
                    continue  # the late answer to a command that timed out
                ok, got_id, text = _parse_response(lines, command)
                if cmd_id is not None and got_id is not None and got_id < cmd_id:
                    self._owed += 1  # a stale response, identified by its id; still waiting for ours
                    continue
                if cmd_id is not None and got_id != cmd_id:
                    raise GtpProtocolError(f"response to {command!r} has id {got_id}, expected {cmd_id}")
                break
        if not ok:
            raise GtpError(text, command)
        return text

    def _write(self, data: bytes, deadline: float | None, command: str) -> None:
        fd = self._proc.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while view:
                try:
                    view = view[os.write(fd, view) :]
                except BlockingIOError:
                    pass
                except OSError as err:  # BrokenPipeError: the engine is gone
                    self._dead = True
                    raise self._died() from err
                if view:
                    wait = None if deadline is None else deadline - time.monotonic()
                    if (wait is not None and wait <= 0) or not sel.select(wait):
                        if len(view) < len(data):  # half a command is in the pipe: no way back
                            self._broken = f"the engine stopped reading its input in the middle of {command!r}"
                        raise GtpTimeout(f"the engine stopped reading its input; could not send {command!r}")

    def _next_line(self, deadline: float | None, command: str) -> str:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            raise GtpTimeout(f"no response to {command!r} within the timeout") from None
        if line is _EOF:
            self._dead = True
            self._lines.put(_EOF)  # any later reader sees the end too
            raise self._died()
        return line

    def _read_response(self, deadline: float | None, command: str) -> list[str]:
        """The lines of the next full response, its closing empty line left off.

        Lines read before a timeout are kept in ``_partial``, so a response that arrives in
        pieces across two calls is still read whole."""
        while True:
            line = self._next_line(deadline, command)
            if line.strip():
                self._partial.append(line)
            elif self._partial:  # the empty line that ends a response
                lines, self._partial = self._partial, []
                return lines
            # else: empty lines between responses are allowed

    # ---- the background threads

    def _read_stdout(self) -> None:
        stream = self._proc.stdout
        try:
            for raw in iter(stream.readline, b""):
                self._lines.put(raw.decode("utf-8", errors="replace").rstrip("\n").replace("\r", ""))
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(_EOF)

    def _drain_stderr(self) -> None:
        stream = self._proc.stderr
        try:
            while True:
                chunk = stream.read1(65536)
                if not chunk:
                    break
                with self._stderr_lock:
                    self._stderr_total += len(chunk)
                    self._stderr += chunk
                    excess = len(self._stderr) - self._stderr_limit
                    if excess > 0:
                        del self._stderr[:excess]
        except (OSError, ValueError):
            pass

    # ---- state and diagnostics

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The exit code once the engine has exited, else None."""
        return self._proc.poll()

    def is_alive(self) -> bool:
        return not self._dead and self._proc.poll() is None

    def stderr_tail(self) -> str:
        """The last bytes the engine wrote to stderr (at most ``stderr_limit``), decoded."""
        with self._stderr_lock:
            return self._stderr.decode("utf-8", errors="replace")

    @property
    def stderr_bytes(self) -> int:
        """How many bytes the engine has written to stderr in all."""
        with self._stderr_lock:
            return self._stderr_total

    def _died(self) -> GtpEngineDied:
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr_thread.join(timeout=0.5)
        tail = self.stderr_tail().strip().splitlines()[-5:]
        status = "closed its output" if code is None else f"exited with code {code}"
        detail = ("; stderr: " + " | ".join(tail)) if tail else ""
        return GtpEngineDied(f"GTP engine {self.argv[0]} {status}{detail}")

    # ---- shutdown

    def close(self, timeout: float = 2.0) -> int | None:
        """Send ``quit``, wait up to ``timeout`` seconds for the engine to exit, kill it if it does
        not, and reap it. Safe to call twice. Returns the exit code."""
        if self._closed:
            return self._proc.returncode
        deadline = time.monotonic() + timeout
        if self.is_alive():
            with contextlib.suppress(GtpClientError):
                self.send("quit", timeout=timeout)
        self._closed = True
        with contextlib.suppress(OSError):
            self._proc.stdin.close()  # end of input: the polite way to stop an engine that ignored quit
        try:
            self._proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._stdout_thread.join(timeout=1.0)
        self._stderr_thread.join(timeout=1.0)
        # A pipe still held open by a grandchild keeps its reader blocked; closing a buffered
        # stream under a blocked reader would block too, so such a stream is left to the GC.
        for stream, thread in ((self._proc.stdout, self._stdout_thread), (self._proc.stderr, self._stderr_thread)):
            if not thread.is_alive():
                stream.close()
        return self._proc.returncode

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "alive" if self.is_alive() else "dead"
        return f"GtpClient({self.argv!r}, pid={self._proc.pid}, {state})"


def _parse_response(lines: list[str], command: str) -> tuple[bool, int | None, str]:
    """``(success, id or None, text)`` of a response's lines (see the module docstring)."""
    head = lines[0]
    if head[0] not in "=?":
        raise GtpProtocolError(f"not a GTP response to {command!r}: {head!r}")
    i = 1
    while i < len(head) and head[i].isdigit():
        i += 1
    if i < len(head) and head[i] not in " \t":
        raise GtpProtocolError(f"not a GTP response to {command!r}: {head!r}")
    got_id = int(head[1:i]) if i > 1 else None
    body = [head[i:].lstrip(" \t"), *lines[1:]]
    if len(body) > 1 and not body[0]:
        del body[0]
    return head[0] == "=", got_id, "\n".join(body).rstrip()
