"""goengine.output: standard output written whole, or one line and a conventional status when it
cannot be (closed, a reader that has gone, a full device), whatever the locale."""

from __future__ import annotations

import io
import os

import pytest

from goengine import output


class Refusing(io.TextIOWrapper):
    """A text stream whose every write fails with ``error``."""

    def __init__(self, error: OSError):
        super().__init__(io.BytesIO(), encoding="ascii")
        self.error = error

    def flush(self):
        raise self.error


def test_text_is_written_as_utf8_whatever_the_streams_encoding():
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    output.write("§ × é\n", stream)
    assert raw.getvalue() == "§ × é\n".encode()


@pytest.mark.parametrize(
    ("error", "status", "words"),
    [
        (BrokenPipeError(32, "Broken pipe"), output.BROKEN_PIPE_STATUS, "its reader has gone (a broken pipe)"),
        (OSError(28, "No space left on device"), output.FAILED_STATUS, "cannot write it: No space left on device"),
    ],
)
def test_a_write_that_fails_says_why_in_one_line_with_its_status(error, status, words, capfd):
    with pytest.raises(output.OutputGone) as gone:
        output.write("x\n", Refusing(error))
    assert gone.value.status == status
    saved = os.dup(1)
    try:
        assert gone.value.report("prog") == status
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    assert capfd.readouterr().err == f"prog: standard output: {words}\n"


def test_a_closed_stream_is_said_so(monkeypatch):
    stream = io.StringIO()
    stream.close()
    with pytest.raises(output.OutputGone, match="it is closed"):
        output.write("x", stream)
    monkeypatch.setattr("sys.stdout", None)  # what Python has when started with descriptor 1 closed
    with pytest.raises(output.OutputGone, match="it is closed"):
        output.write("x")
