"""GTP version 2 as the specification words it, for the tests: what a controller may expect of any
engine, written independently of ``goengine.gtp``.

- ``preprocess(line)``: sections 2.1-2.3 of the specification: control characters other than
  HT and LF are discarded, a ``#`` starts a comment, HT becomes a space. Other bytes are kept: the
  specification allows any 8-bit text in comments and private extensions, so a non-ASCII character
  is part of the command, not noise.
- ``has_command(line)``: whether the engine owes a response (empty lines and comment-only lines
  get none). A line holding only an id does count: goengine answers it with ``?id syntax error``
  (the specification does not say; GNU Go 3.8 stays silent, leaving a controller waiting).
- ``expected_id(line)``: the id the response must echo (``0`` included), or None. An id is the
  text of its integer (``007`` is ``7``), never converted: GTP sets no limit on its digits, and
  Python's int() refuses more than 4,300.
- ``parse_response(text)``: checks the framing of one response and splits it into
  ``(ok, id, body)``; raises ``FramingError`` saying what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: GTP 2: "all other control characters [than HT, CR, LF] must be discarded on input"; CR as well,
#: since LF alone ends a line. DEL (127) is a control character too.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_HEADER = re.compile(r"([=?])(\d*)(?: (.*))?")
#: a body line that would read as the start of another response
_LOOKS_LIKE_HEADER = re.compile(r"[=?]\d*(?: .*)?")


class FramingError(AssertionError):
    """A response that breaks GTP's framing rules."""


def preprocess(line: str) -> str:
    """One input line as the engine must see it before parsing (no trailing newline)."""
    text = line[:-1] if line.endswith("\n") else line
    text = _CONTROL.sub("", text)
    text = text.split("#", 1)[0]
    return text.replace("\t", " ").strip(" ")


def has_command(line: str) -> bool:
    return bool(preprocess(line))


def words(line: str) -> list[str]:
    return [w for w in preprocess(line).split(" ") if w]


def _integer_text(digits: str) -> str:
    """The integer a string of digits writes, as text: leading zeros dropped."""
    return digits.lstrip("0") or "0"


def expected_id(line: str) -> str | None:
    first = words(line)[:1]
    if first and first[0].isascii() and first[0].isdigit():
        return _integer_text(first[0])
    return None


def command_name(line: str) -> str | None:
    """The command name of a line (after the id), or None."""
    ws = words(line)
    if ws and ws[0].isascii() and ws[0].isdigit():
        ws = ws[1:]
    return ws[0] if ws else None


@dataclass(frozen=True)
class Response:
    ok: bool
    id: str | None  # the text of the id's integer (``expected_id``)
    body: str  # the text after "=id " / "?id ", stripped; lines joined with "\n"


def parse_response(text: str) -> Response:
    """Check one response's framing and split it. The rules: one header ``=[id]`` or ``?[id]``
    (a space before any text on the header line), no empty line inside, no line that would read as
    another header, no control characters but LF, and the end marked by one empty line."""
    if not text.endswith("\n\n"):
        raise FramingError(f"does not end with an empty line: {text!r}")
    lines = text[:-2].split("\n")
    if any(line == "" for line in lines):
        raise FramingError(f"empty line inside the response: {text!r}")
    if any(_CONTROL.search(line) for line in lines):
        raise FramingError(f"control character in the response: {text!r}")
    header = _HEADER.fullmatch(lines[0])
    if header is None:
        raise FramingError(f"bad header line {lines[0]!r} in {text!r}")
    for line in lines[1:]:
        if _LOOKS_LIKE_HEADER.fullmatch(line):
            raise FramingError(f"a second header {line!r} inside the response {text!r}")
    body = "\n".join([header.group(3) or "", *lines[1:]]).strip()
    return Response(header.group(1) == "=", _integer_text(header.group(2)) if header.group(2) else None, body)


def split_stream(stdout: str) -> list[str]:
    """An engine's whole stdout cut into responses (each with its final empty line)."""
    if not stdout:
        return []
    if not stdout.endswith("\n\n"):
        raise FramingError(f"output does not end with an empty line: ...{stdout[-80:]!r}")
    return [block + "\n\n" for block in stdout[:-2].split("\n\n")]


#: one move of the analysis format of Leela Zero (``lz-analyze``)
VERTEX = r"(?:[A-HJ-T](?:1[0-9]|[1-9])|pass)"
LZ_INFO = rf"info move {VERTEX} visits (\d+) winrate (\d+)(?: prior (\d+))? lcb (\d+) order (\d+) pv((?: {VERTEX})+)"

#: one move of KataGo's analysis format (``kata-analyze``) as goengine writes it: rates in [0, 1]
#: and scores with six decimals; groups: visits, winrate, scoreMean, scoreSelfplay, scoreLead,
#: prior, lcb, order, pv
_DECIMAL = r"-?\d+\.\d{6}"
KATA_INFO = (
    rf"info move {VERTEX} visits (\d+) winrate ([01]\.\d{{6}}) scoreMean ({_DECIMAL}) scoreStdev \d+\.\d{{6}} "
    rf"scoreSelfplay ({_DECIMAL}) "
    rf"scoreLead ({_DECIMAL})(?: prior ([01]\.\d{{6}}))? lcb ([01]\.\d{{6}}) order (\d+) pv((?: {VERTEX})+)"
)
#: KataGo's ``rootInfo`` section as goengine writes it
KATA_ROOT = (
    rf"rootInfo visits \d+ winrate [01]\.\d{{6}} scoreMean {_DECIMAL} scoreStdev \d+\.\d{{6}} "
    rf"scoreSelfplay {_DECIMAL} scoreLead {_DECIMAL}"
)
