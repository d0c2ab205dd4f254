"""An in-process GTP session for the tests: a ``GtpEngine`` on a fresh ``Engine``, with what a
command writes (streamed analysis lines included) captured instead of going to stdout.

Streaming commands (``lz-analyze`` ...) run until input is pending; here the next line counts as
arriving ``next_line_after`` seconds after each command is sent.
"""

from __future__ import annotations

import time

import gtp_spec

from goengine.config import EngineConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine


class GtpHarness:
    def __init__(
        self, config: EngineConfig | None = None, next_line_after: float = 0.3, engine: Engine | None = None
    ) -> None:
        """A session on ``engine`` (one set up on a position, say), else on a new one of ``config``."""
        self.written: list[str] = []
        self.next_line_after = next_line_after
        self.next_line_at = 0.0
        self.gtp = GtpEngine(
            engine or Engine(config or EngineConfig()),
            write=self.written.append,
            input_pending=lambda: time.monotonic() >= self.next_line_at,
        )

    def send(self, line: str) -> str:
        """Everything the command wrote: streamed lines, then its response."""
        self.written.clear()
        self.next_line_at = time.monotonic() + self.next_line_after
        response = self.gtp.send(line)
        return "".join(self.written) + response

    def ok(self, line: str) -> str:
        """Send a line that must succeed; its body."""
        response = gtp_spec.parse_response(self.send(line))
        assert response.ok, f"{line!r} failed: {response.body}"
        return response.body
