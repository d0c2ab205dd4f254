"""Standard output as goengine's commands write it: whole and in UTF-8, or, when it cannot be
written, one line on stderr and a conventional exit status, never a traceback.

Standard output can fail a program in three ways a user meets: it is closed (``goengine docs
>&-``: Python then has no ``sys.stdout`` at all), its reader has gone (a client that quit, ``|
head``: a broken pipe), or the file behind it is full (``> /dev/full``, a full disk). ``write``
turns each into ``OutputGone``, whose ``report`` says so in one line and gives the status: 141
for a broken pipe (128 + SIGPIPE, what a shell reports for a writer whose reader went), 1
otherwise. Text is written as UTF-8 bytes whatever the locale says (an ASCII locale would refuse
the documents' ``§`` and ``×``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE
FAILED_STATUS = 1


class OutputGone(Exception):
    """Standard output cannot be written: ``why`` in words, and the exit status to end with."""

    def __init__(self, why: str, status: int):
        super().__init__(why)
        self.why = why
        self.status = status

    @classmethod
    def of(cls, error: OSError) -> OutputGone:
        if isinstance(error, BrokenPipeError):
            return cls("its reader has gone (a broken pipe)", BROKEN_PIPE_STATUS)
        return cls(f"cannot write it: {error.strerror or error}", FAILED_STATUS)

    def report(self, program: str) -> int:
        """Say on stderr, in one line, that ``program`` stops because of this; its exit status.
        Standard output is pointed at /dev/null first, so that Python's own flush at exit does
        not fail again with a traceback of its own."""
        _silence_stdout()
        with contextlib.suppress(OSError, ValueError, AttributeError):  # no stderr either: the status says it
            print(f"{program}: standard output: {self.why}", file=sys.stderr, flush=True)
        return self.status


def write(text: str | bytes, stream: TextIO | None = None) -> None:
    """Write ``text`` to ``stream`` (standard output by default) as UTF-8 and flush it;
    OutputGone when that cannot be done."""
    stream = sys.stdout if stream is None else stream
    if stream is None:
        raise OutputGone("it is closed", FAILED_STATUS)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        binary = getattr(stream, "buffer", None)
        if binary is not None:
            stream.flush()  # what was written as text first, in order
            binary.write(data)
            binary.flush()
        else:
            stream.write(data.decode("utf-8"))
            stream.flush()
    except OSError as error:
        raise OutputGone.of(error) from None
    except ValueError:  # "I/O operation on closed file"
        raise OutputGone("it is closed", FAILED_STATUS) from None


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null: what Python still holds for standard output is
    flushed there at exit (its own recipe for a broken pipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    if devnull != 1:  # 1 was closed, and /dev/null took its place: nothing more to do
        os.dup2(devnull, 1)
        os.close(devnull)
