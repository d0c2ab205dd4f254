"""The GTP (version 2) protocol core: reading a line, the command table, framing the response,
and the I/O loop. The Go it knows is only what GTP's argument types are: a colour and a vertex
(``color``, ``vertex``: ``goengine.board``'s colours, ``goengine.coords``' points) and the
message of an illegal move; the commands are the other modules of this package, which register
into the table. Those two modules load the compiled kernels, so they are imported where an
argument is read, not with this module: ``serve`` answers ``name`` before the engine exists.

Reading guide: ``Protocol.send`` turns one input line into one response; ``parse_line`` splits
it; ``format_response`` frames the answer; ``serve`` is the loop on stdin/stdout. The argument
helpers (``color``, ``vertex``, ``integer``, ``number``) raise GTP's canonical errors.

What a controller can rely on:

- one line in, one response out, ending with an empty line; an id, 0 included, is echoed, as
  the integer its digits write (leading zeros dropped), however many digits it has: it is kept
  as text, never converted (Python's ``int`` refuses more than 4,300 digits);
- any exception in a handler becomes ``? message``, never a traceback (that goes to the log,
  stderr); a multi-line response never contains an empty line (it would end it early);
- ``list_commands`` and ``known_command`` are generated from the table, never kept by hand;
- a command that takes no arguments refuses any (``syntax error``), checked once for the whole
  table: its handler is a function of no parameters (``Protocol.register``). ``quit`` alone
  ignores them, since GTP says it never fails (GNU Go ignores extra arguments everywhere; an
  ``undo 2`` that undid one move would be worse than a refusal);
- a line is split as GTP 2 section 3.1 says (``parse_line``): control characters removed,
  ``#`` comments cut, tokens split on runs of spaces and tabs; other characters, non-ASCII ones
  included, are kept, so an unknown word stays an unknown command;
- only LF ends a line: a CR is a control character, removed like the others (GTP 2 section
  2.2), so ``name\rname`` is one line, ``namename`` (``text_input``: Python's text mode would
  make a lone CR a line end, and a controller's answers would fall out of step);
- input is decoded leniently, so a stray byte cannot end the session; ``# interrupt`` (GoGui)
  interrupts a running search at once; a handler that streams its answer (``lz-analyze``)
  writes the header and body itself and returns ``STREAMED``;
- the first commands a controller sends are answered at once, while the engine is still being
  built: ``serve``'s ``early`` protocol answers ``name``, ``version``, ``protocol_version`` and
  ``quit`` until then, in the order the lines came; any other line waits for the engine.
"""

from __future__ import annotations

import inspect
import io
import queue
import re
import sys
import threading
import time
import traceback
from collections.abc import Callable

from goengine import numerals, output

NAME = "goengine"  # what ``name`` answers
EARLY_COMMANDS = ("protocol_version", "name", "version", "quit")  # what ``serve``'s early protocol answers
STREAMED = object()  # a handler's result meaning "the response was written as it went"
# a handler takes the argument words, or nothing when the command takes no arguments
Handler = Callable[[list[str]], object] | Callable[[], object]


class GtpError(Exception):
    """A failed command: its message is the text after ``?``."""


def syntax_error() -> GtpError:
    return GtpError("syntax error")


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
# GTP's numbers are ASCII: Python's int() and float() also read other scripts' digits and "1_0"
_DIGITS = re.compile("[0-9]++")  # possessive: a run of digits is never given back (numerals)


def parse_line(line: str) -> tuple[str | None, str | None, list[str]]:
    """``(id, command, arguments)`` of one input line, as GTP 2 section 3.1 says: control
    characters other than tab and newline removed, ``#`` comments cut, tabs made spaces, tokens
    split on any run of white space. Other characters, non-ASCII ones included, are kept: an
    unknown word stays an unknown command rather than turning into a known one. The id is the
    text of the integer (``007`` is ``7``), of any length."""
    text = _CONTROL.sub("", line.replace("\t", " ")).split("#", 1)[0]
    tokens = [token for token in text.split(" ") if token]  # GTP's white space: space and tab only
    message_id = None
    if tokens and _DIGITS.fullmatch(tokens[0]):
        message_id = tokens.pop(0).lstrip("0") or "0"
    if not tokens:
        return message_id, None, []
    return message_id, tokens[0], tokens[1:]


def format_response(message_id: str | None, ok: bool, text: str) -> str:
    """``=id text`` / ``?id text`` with a blank line after; no empty line inside the text."""
    lines = [line.rstrip() for line in text.replace("\r", "").split("\n")]
    body = "\n".join(line if line else " " for line in lines).strip("\n") if text else ""
    head = ("=" if ok else "?") + ("" if message_id is None else message_id)
    return f"{head} {body}\n\n" if body else f"{head}\n\n"


# ---- argument helpers, raising GTP's canonical errors


def color(text: str) -> int:
    """BLACK or WHITE from ``b``, ``black``, ``w``, ``white`` (any case); else a syntax error."""
    from goengine.board import parse_color  # loads the kernels: see the module docstring

    try:
        return parse_color(text)
    except ValueError:
        raise syntax_error() from None


def vertex(size: int, text: str) -> int:
    """The point of a GTP vertex (``pass`` gives PASS): a syntax error for what is no vertex,
    ``illegal move`` for a vertex off this board."""
    from goengine import coords  # loads the kernels: see the module docstring

    t = text.strip().lower()
    if t == "pass":
        return coords.PASS
    if len(t) < 2 or not t[0].isalpha() or not _DIGITS.fullmatch(t[1:]):
        raise syntax_error()
    try:
        return coords.from_gtp(size, t)
    except ValueError:
        raise GtpError("illegal move") from None


def integer(text: str) -> int:
    """An integer written in ASCII digits, with an optional sign: a syntax error for anything
    else (``1_0``, ``1.0``, other scripts' digits, which Python's int() takes), ``integer too
    long`` for more than ``numerals.MAX_CHARS`` digits (leading zeros aside). Linear in the
    text's length (``goengine.numerals``)."""
    try:
        return numerals.integer(text)
    except numerals.TooLong as err:
        raise GtpError(f"integer too long ({err.characters} digits; at most {numerals.MAX_CHARS})") from None
    except numerals.NotANumber:
        raise syntax_error() from None


def number(text: str) -> float:
    """A finite float in ASCII digits (``7.5``, ``-1``, ``.5``, ``1e3``); a syntax error otherwise
    (``nan``, ``inf``, ``1_0``, and what overflows, such as ``1e400``), ``number too long`` for
    more than ``numerals.MAX_CHARS`` characters (sign and leading zeros aside). Linear in the
    text's length (``goengine.numerals``)."""
    try:
        return numerals.decimal(text)
    except numerals.TooLong as err:
        raise GtpError(f"number too long ({err.characters} characters; at most {numerals.MAX_CHARS})") from None
    except numerals.NotANumber:
        raise syntax_error() from None


MAX_ERROR_CHARS = 1000  # an error's text at most: many times any message of ours with its value


def _bounded(message: str) -> str:
    """An error's text, cut to MAX_ERROR_CHARS: a message quotes the value it refuses, and a
    megabyte of value must not come back as a megabyte of answer."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    return f"{message[:MAX_ERROR_CHARS]}... ({len(message) - MAX_ERROR_CHARS} more characters)"


def _is_illegal_move(err: ValueError) -> bool:
    """Whether a handler's error is the board's ``IllegalMove`` (answered ``illegal move``)."""
    from goengine.board import IllegalMove  # loaded already: only the board raises it

    return isinstance(err, IllegalMove)


# ---- the table and the framing


class Protocol:
    """The command table and one-line-in, one-response-out.

    ``log`` receives diagnostics for stderr; ``write`` sends text to the controller at once (for
    handlers that stream); ``input_pending`` tells whether another line has arrived (which ends
    a streamed analysis). The administrative commands are registered here; ``disconnect`` is
    set by ``quit``."""

    def __init__(
        self,
        name: str,
        version: str,
        log: Callable[[str], None] | None = None,
        write: Callable[[str], None] | None = None,
        input_pending: Callable[[], bool] | None = None,
    ):
        self.log = log or (lambda text: None)
        self.write = write or (lambda text: None)
        self.input_pending = input_pending or (lambda: False)
        self.commands: dict[str, Handler] = {}
        self._no_arguments: set[str] = set()  # the commands whose handlers take no parameters
        self.disconnect = False
        self._id: str | None = None
        self.register("protocol_version", lambda: "2")
        self.register("name", lambda: name)
        self.register("version", lambda: version)
        self.register("known_command", self._known_command)
        self.register("list_commands", lambda: "\n".join(self.commands))
        self.register("quit", self._quit)

    def register(self, name: str, handler: Handler) -> None:
        """Add a command to the table (``list_commands`` lists them in this order). A handler
        with no parameters is a command without arguments: ``send`` refuses a line that gives it
        some, as a syntax error; any other handler takes the argument words and checks them."""
        self.commands[name] = handler
        if inspect.signature(handler).parameters:
            self._no_arguments.discard(name)
        else:
            self._no_arguments.add(name)

    def send(self, message: str) -> str:
        """The full response to one input line (ending with the blank line), or "" for a line
        that carries no command (empty, or only a comment)."""
        message_id, command, args = parse_line(message)
        self._id = message_id
        if not command:
            return "" if message_id is None else format_response(message_id, False, "syntax error")
        handler = self.commands.get(command)
        if handler is None:
            return format_response(message_id, False, "unknown command")
        try:
            if command not in self._no_arguments:
                result = handler(args)
            elif args:
                raise syntax_error()
            else:
                result = handler()
        except GtpError as err:
            return format_response(message_id, False, _bounded(str(err)))
        except output.OutputGone:  # a streaming handler's controller has gone: the session ends
            raise
        except ValueError as err:  # the engine's and the configuration's own messages
            if _is_illegal_move(err):
                return format_response(message_id, False, "illegal move")
            return format_response(message_id, False, _bounded(str(err) or "syntax error"))
        except Exception as err:  # noqa: BLE001 - any failure is a GTP error, never a dead engine
            self.log(traceback.format_exc())
            return format_response(message_id, False, _bounded(f"internal error: {type(err).__name__}: {err}"))
        if result is STREAMED:
            return "\n"  # the header and body were written already; only the blank line is left
        return format_response(message_id, True, "" if result is None else str(result))

    def header(self) -> str:
        """The success header of the current command, for handlers that stream their body."""
        return "=" + ("" if self._id is None else self._id) + "\n"

    def interrupt(self) -> None:
        """What ``# interrupt`` does; a subclass with a search stops it."""

    def line_arrived(self) -> None:
        """Called by ``serve``'s input thread the moment a line arrives (before it is handled);
        a subclass that thinks between commands (pondering) stops."""

    def answered(self, arrived: float, flushed: float) -> None:
        """Called by ``serve`` after each response is flushed, with the time its command arrived
        and the time its answer left (``time.perf_counter``); a subclass with a clock charges it."""

    def _known_command(self, args: list[str]) -> str:
        if len(args) != 1:
            raise syntax_error()
        return "true" if args[0] in self.commands else "false"

    def _quit(self, args: list[str]) -> None:
        """The session ends, whatever the arguments: GTP's ``quit`` never fails (an engine that
        refused would be left running by a controller that has gone)."""
        self.disconnect = True


def text_input(binary) -> io.TextIOWrapper:
    """GTP's lines from a binary stream: decoded leniently (a byte that is not UTF-8 becomes
    U+FFFD, so one stray byte cannot end the session) and ended by LF alone (``newline="\n"``:
    Python's default, universal newlines, would end a line at a lone CR too and turn one
    command into two); a CR stays in the line, for ``parse_line`` to remove."""
    return io.TextIOWrapper(binary, encoding="utf-8", errors="replace", newline="\n")


def serve(
    make: Callable[..., Protocol],
    stdin=None,
    stdout=None,
    log: Callable[[str], None] | None = None,
    early: Protocol | None = None,
) -> int:
    """The I/O loop: read lines, answer each on ``stdout`` (flushed), until ``quit`` or EOF; the
    exit code.

    ``make(log=, write=, input_pending=)`` builds the protocol object. A thread reads input into
    a queue, so a running search or analysis can tell that a new line has arrived; ``# interrupt``
    lines (GoGui) call ``Protocol.interrupt`` at once.

    With ``early``, a protocol that needs nothing built (``Protocol(NAME, version)``), ``make``
    runs in a thread of its own while ``early`` answers the ``EARLY_COMMANDS`` that come first;
    the first other line waits for ``make``, and so does the end of the session, so that a
    failure is never lost: a ``SystemExit`` from ``make`` (bad options) gives its exit code,
    any other exception is logged and gives 1.
    """
    if stdin is None:
        stdin = text_input(sys.stdin.buffer)
    stdout = stdout or sys.stdout
    if stdout is None:  # started with its standard output closed: nothing could be answered
        return output.OutputGone("it is closed", output.FAILED_STATUS).report(NAME)
    lines: queue.Queue[tuple[str, float] | None] = queue.Queue()
    lock = threading.Lock()

    def write(text: str) -> None:
        with lock:
            output.write(text, stdout)  # OutputGone when the controller has gone: the session ends

    # a failed build ends the session even while no line comes (a bad option typed in a terminal)
    build = _Build(make, dict(log=log, write=write, input_pending=lambda: not lines.empty()), log, lines.put)
    if early is None:
        build.run()
    else:
        threading.Thread(target=build.run, name="gtp-build", daemon=True).start()
    current = [early or build.protocol]  # what answers now; the reader's hooks follow it

    def reader() -> None:
        try:
            for line in stdin:
                if line.strip().lower().startswith("# interrupt"):
                    current[0].interrupt()
                    continue
                lines.put((line, time.perf_counter()))
                current[0].line_arrived()
        except Exception as err:  # noqa: BLE001 - unreadable input ends the session, never hangs it
            if log:
                log(f"goengine: input ended: {err}")
        finally:
            lines.put(None)
            current[0].line_arrived()  # the end of input stops thinking too

    if build.failed:
        return build.code
    threading.Thread(target=reader, name="gtp-reader", daemon=True).start()
    try:
        return _answer_lines(lines, current, early, build, write)
    except output.OutputGone as gone:  # one line on stderr, never a traceback
        return gone.report(NAME)


def _answer_lines(lines: queue.Queue, current: list, early, build: _Build, write) -> int:
    """``serve``'s loop: answer each line of ``lines`` with the protocol ``current[0]`` (the
    early one until the engine is built), until ``quit`` or the end of input; the exit code."""
    while True:
        item = lines.get()
        if item is None:
            break
        line, arrived = item
        if current[0] is early and parse_line(line)[1] not in EARLY_COMMANDS:
            if not build.wait():
                return build.code
            current[0] = build.protocol
        protocol = current[0]
        response = protocol.send(line)
        if response:
            write(response)
        protocol.answered(arrived, time.perf_counter())
        if protocol.disconnect:
            break
    return build.code if not build.wait() else 0


class _Build:
    """``make(**kwargs)`` run once (in ``serve``'s thread or one of its own), its protocol or
    its exit code kept for ``serve``; on a failure ``end(None)`` is called (``serve``'s queue of
    lines: the end of the session)."""

    def __init__(
        self,
        make: Callable[..., Protocol],
        kwargs: dict,
        log: Callable[[str], None] | None,
        end: Callable[[None], None],
    ):
        self._make, self._kwargs, self._log, self._end = make, kwargs, log or (lambda text: None), end
        self._done = threading.Event()
        self.protocol: Protocol | None = None
        self.code = 0

    @property
    def failed(self) -> bool:
        return self._done.is_set() and self.protocol is None

    def run(self) -> None:
        try:
            self.protocol = self._make(**self._kwargs)
        except SystemExit as exit_:  # argparse's bad options: it has printed why
            if not isinstance(exit_.code, int):
                self._log(str(exit_.code))
            self.code = exit_.code if isinstance(exit_.code, int) and exit_.code else 1  # never a success
        except BaseException:  # noqa: BLE001 - logged, and the session ends with an error
            self._log(traceback.format_exc())
            self.code = 1
        finally:
            self._done.set()
            if self.protocol is None:
                self._end(None)

    def wait(self) -> bool:
        """Wait for ``make`` to end; whether it built the protocol."""
        self._done.wait()
        return self.protocol is not None
