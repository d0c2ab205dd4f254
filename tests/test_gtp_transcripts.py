"""GTP regression transcripts: every ``tests/data/*.gtp`` run through ``GtpEngine``, in the
style of Fuego's and GNU Go's ``.tst`` files.

A transcript is read line by line:

- ``#? [REGEX]``: the command on the line just above succeeded (``=``) and its body matches
  REGEX in full (``re.fullmatch``). The body is the response without the header, the id and the
  final empty line, stripped of surrounding whitespace; its lines are joined by ``\\n``. Use
  ``(?s)`` for ``.`` to cross lines.
- ``#? [REGEX]*``: the command failed (``?``) and its error message matches REGEX. Note: in
  GNU Go's and GoGui's regression tools a trailing ``*`` marks a test known to fail; here it
  means "an error is expected", and a known failure is simply a failing test.
- ``#? [!REGEX]``: succeeded, and the body does NOT match REGEX (GNU Go's negation); ``!`` and
  ``*`` combine.
- ``#> "LITERAL"``: send the Python string literal as it stands (tabs, CR LF, control
  characters, non-ASCII text, a missing newline). It is a line sent like any other.
- every other line (commands, comments, blank lines) is sent to the engine verbatim, with its
  newline. ``$DATA`` becomes the ``tests/data`` folder and ``$TMP`` a fresh temporary folder.

Whatever the expectations say, every line sent is checked against GTP itself
(``tests/gtp_spec.py``): a line with a command gets exactly one well-framed response echoing its
id; a blank or comment-only line gets none. A failure lists every mismatch of the file with its
line number, the command, the expectation and the actual response.

Each transcript starts on a fresh ``Engine()`` (the ``goengine`` command's defaults) and sets its
own budget (``goengine-set playouts 200``) and seed, so every result is reproducible. The
streaming analysis commands run as if the next line of input arrived ``NEXT_LINE_AFTER`` seconds
after the command. ``admin.gtp`` and ``genmove.gtp`` also run through the real ``goengine``
process over pipes.

Transcripts written for a bug (``whitespace_between_tokens.gtp``, ``non_ascii_text.gtp``,
``seki.gtp``, ``free_handicap_small_boards.gtp``) say in their header what went wrong before the
fix; they guard the behaviour now.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import gtp_spec
import pytest
from gtp_harness import GtpHarness

from goengine.engine import Engine
from goengine.gtp import GtpEngine

DATA = Path(__file__).parent / "data"
TRANSCRIPTS = sorted(DATA.glob("*.gtp"))
NEXT_LINE_AFTER = 0.3  # seconds: when a streaming analysis sees "the next line" arrive
_EXPECT = re.compile(r"#\?\s*\[(?P<neg>!?)(?P<pattern>.*)\](?P<error>\*?)\s*")


@dataclass(frozen=True)
class Expectation:
    lineno: int
    pattern: str
    error: bool  # a failure ("?") is expected
    negate: bool  # the body must not match

    def describe(self) -> str:
        kind = "error" if self.error else "success"
        return f"{kind} {'not ' if self.negate else ''}matching [{self.pattern}]"


@dataclass
class Step:
    """One line sent to the engine and what its response must be."""

    lineno: int
    text: str  # exactly what is sent, newline included
    expect: Expectation | None = None

    @property
    def has_command(self) -> bool:
        return gtp_spec.has_command(self.text)


class TranscriptError(Exception):
    """A malformed transcript (not an engine failure)."""


def parse_transcript(path: Path, tmp: Path) -> list[Step]:
    steps: list[Step] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[-1] == "":
        lines.pop()  # the file's final newline
    for lineno, line in enumerate(lines, start=1):
        if line.startswith("#?"):
            match = _EXPECT.fullmatch(line)
            if match is None:
                raise TranscriptError(f"{path.name}:{lineno}: bad expectation {line!r}")
            if not steps or not steps[-1].has_command or steps[-1].expect is not None:
                raise TranscriptError(f"{path.name}:{lineno}: an expectation must follow a command line")
            steps[-1].expect = Expectation(
                lineno, match["pattern"], error=bool(match["error"]), negate=bool(match["neg"])
            )
            continue
        if line.startswith("#>"):
            literal = ast.literal_eval(line[2:].strip())
            if not isinstance(literal, str):
                raise TranscriptError(f"{path.name}:{lineno}: #> needs a string literal")
            text = literal
        else:
            text = line + "\n"
        text = text.replace("$DATA", str(DATA)).replace("$TMP", str(tmp))
        steps.append(Step(lineno, text))
    return steps


def check_step(step: Step, output: str) -> str | None:
    """What is wrong with ``output`` as the response to ``step`` (None if nothing)."""
    if not step.has_command:
        return None if output == "" else "a line without a command got a response"
    if output == "":
        return "no response"
    try:
        response = gtp_spec.parse_response(output)
    except gtp_spec.FramingError as err:
        return f"badly framed: {err}"
    want_id = gtp_spec.expected_id(step.text)
    if response.id != want_id:
        return f"id {response.id} echoed, expected {want_id}"
    expect = step.expect
    if expect is None:
        return None
    if response.ok == expect.error:
        return f"expected {'an error' if expect.error else 'success'}"
    matched = re.fullmatch(expect.pattern, response.body) is not None
    if matched == expect.negate:
        return f"body {'matches' if expect.negate else 'does not match'} the pattern"
    return None


def check_transcript(path: Path, steps: list[Step], outputs: list[str]) -> list[str]:
    failures = []
    for step, output in zip(steps, outputs, strict=True):
        problem = check_step(step, output)
        if problem:
            where = step.lineno if step.expect is None else f"{step.lineno}-{step.expect.lineno}"
            failures.append(
                f"{path.name}:{where}: {problem}\n"
                f"    command:  {step.text!r}\n"
                f"    expected: {step.expect.describe() if step.expect else 'a well-framed response'}\n"
                f"    actual:   {output!r}"
            )
    return failures


def run_in_process(steps: list[Step]) -> list[str]:
    harness = GtpHarness(next_line_after=NEXT_LINE_AFTER)
    outputs = []
    for step in steps:
        if harness.gtp.disconnect:
            raise TranscriptError(f"line {step.lineno}: sent after quit")
        outputs.append(harness.send(step.text))
    return outputs


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_transcript(path: Path, tmp_path: Path) -> None:
    steps = parse_transcript(path, tmp_path)
    failures = check_transcript(path, steps, run_in_process(steps))
    assert not failures, f"{len(failures)} mismatch(es) in {path.name}:\n" + "\n".join(failures)


def test_transcripts_cover_every_command() -> None:
    table = set(GtpEngine(Engine()).commands)
    used = set()
    for path in TRANSCRIPTS:
        for step in parse_transcript(path, Path("/tmp")):
            name = gtp_spec.command_name(step.text)
            if name is not None:
                used.add(name)
    assert table - used == set(), "commands without a transcript line"


def test_expectation_syntax_is_read_as_documented(tmp_path: Path) -> None:
    path = tmp_path / "t.gtp"
    path.write_text('name\n#? [goengine]\nfoo\n#? [unknown command]*\n#> "2\\tname"\n#? [!x]\n# c\n\n')
    steps = parse_transcript(path, tmp_path)
    assert [s.text for s in steps] == ["name\n", "foo\n", "2\tname", "# c\n", "\n"]
    assert steps[0].expect == Expectation(2, "goengine", error=False, negate=False)
    assert steps[1].expect == Expectation(4, "unknown command", error=True, negate=False)
    assert steps[2].expect == Expectation(6, "x", error=False, negate=True)
    assert [s.has_command for s in steps] == [True, True, True, False, False]


# ---- the real process


def goengine_command() -> list[str]:
    script = Path(sys.executable).with_name("goengine")
    if script.exists():
        return [str(script)]
    found = shutil.which("goengine")
    return [found] if found else [sys.executable, "-m", "goengine"]


def run_subprocess(data: bytes, timeout: float = 60.0, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(goengine_command(), input=data, capture_output=True, timeout=timeout, env=env)


@pytest.mark.parametrize("name", ["admin.gtp", "genmove.gtp"])
def test_transcript_through_the_goengine_process(name: str, tmp_path: Path) -> None:
    """stdout carries GTP responses and nothing else (each starts with = or ?, ends with an empty
    line, one per command line, ids echoed); the logs go to stderr."""
    path = DATA / name
    steps = parse_transcript(path, tmp_path)
    proc = run_subprocess("".join(s.text for s in steps).encode("utf-8"))
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    stdout = proc.stdout.decode("utf-8")
    blocks = gtp_spec.split_stream(stdout)
    assert all(block[0] in "=?" for block in blocks), stdout
    commands = [s for s in steps if s.has_command]
    assert len(blocks) == len(commands), f"{len(blocks)} responses for {len(commands)} command lines:\n{stdout}"
    answers = iter(blocks)
    outputs = [next(answers) if s.has_command else "" for s in steps]
    failures = check_transcript(path, steps, outputs)
    assert not failures, "\n".join(failures)
    stderr = proc.stderr.decode("utf-8", errors="replace")
    assert "goengine" in stderr  # the start-up log
    if name == "genmove.gtp":
        assert "playouts in" in stderr  # one line per genmove


@pytest.mark.parametrize("name", ["genmove.gtp", "play.gtp", "setup.gtp"])
def test_a_seed_reproduces_every_move(name: str, tmp_path: Path) -> None:
    """Run twice on fresh engines: the same moves. (Only where every search is bounded by
    playouts: a search bounded by the clock, lz-analyze's included, varies, and so does every
    later search that reuses its tree.)"""
    steps = parse_transcript(DATA / name, tmp_path)
    first, second = run_in_process(steps), run_in_process(steps)
    for step, a, b in zip(steps, first, second, strict=True):
        if gtp_spec.command_name(step.text) in ("genmove", "reg_genmove", "kgs-genmove_cleanup"):
            assert a == b, f"{name}:{step.lineno}: {step.text!r} gave {a!r}, then {b!r}"
