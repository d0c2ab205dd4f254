"""Numbers read from text that a user or a controller sent: ASCII digits only, in time linear in
the text's length.

GTP's numbers (``komi``, the time commands), the settings' values (``goengine-set``, the command
lines' options, ``--param``) and the match command's options are all read here. Python's own
readers take too much: ``int()`` and ``float()`` read other scripts' digits (``٣``) and
underscores (``1_0``), ``float()`` reads ``nan`` and ``inf``, and ``int()`` takes time in the
square of its digits. A regular expression whose quantifiers may give characters back (``[0-9]+
\\.?[0-9]*``) takes time in the square of the text too, on a long run of digits that ends in a
stray character, and Python holds its lock while it runs: every search in the process stalls.

So each reader first drops the sign and the leading zeros (one pass of ``str.lstrip``), refuses
what is left when it is longer than MAX_CHARS (``TooLong``), and only then checks the grammar,
with an expression whose quantifiers are possessive (they never give back): whatever the length
of the text, the expression sees at most MAX_CHARS characters (``tests/test_numerals.py`` counts
them).
"""

from __future__ import annotations

import math
import re

# The most characters a number may have, sign and leading zeros aside: far more than any value
# needs (a float's 17 significant digits, GTP's ten-digit integers, the seed's 19), and far fewer
# than Python's int() reads from text before it refuses with a message of its own (4,300 digits).
MAX_CHARS = 100

_NUMBER_CHARACTERS = "0123456789.eE+-"
_INTEGER = re.compile(r"[0-9]*+")  # what is left of an integer after its sign and leading zeros
_DECIMAL = re.compile(r"(?:[0-9]++(?:\.[0-9]*+)?+|\.[0-9]++)(?:[eE][+-]?+[0-9]++)?+")  # likewise of a decimal


class NotANumber(ValueError):
    """The text is not a number of the kind asked for."""


class TooLong(NotANumber):
    """The text has more than MAX_CHARS characters once its sign and leading zeros are dropped."""

    def __init__(self, characters: int):
        super().__init__(f"a number of {characters} characters; at most {MAX_CHARS}")
        self.characters = characters


def _significant(text: str) -> tuple[str, str]:
    """``(sign, rest)``: the sign of ``text`` (``""``, ``+`` or ``-``) and what follows it
    without its leading zeros; TooLong when that is longer than MAX_CHARS."""
    sign = text[:1] if text[:1] in ("+", "-") else ""
    rest = text[len(sign) :].lstrip("0")
    if len(rest) > MAX_CHARS:
        # a long run of what numbers are written with is a number too long; anything else, not one
        if rest[: MAX_CHARS + 1].strip(_NUMBER_CHARACTERS):
            raise NotANumber(f"not a number: {_quoted(text)}")
        raise TooLong(len(rest))
    return sign, rest


def integer(text: str) -> int:
    """An integer in ASCII digits with an optional sign (``-7``, ``+007``); NotANumber for
    anything else (``1_0``, ``1.0``, ``٣``, an empty text), TooLong for more than MAX_CHARS
    digits (leading zeros aside)."""
    sign, rest = _significant(text)
    if not (text[len(sign) :] and _INTEGER.fullmatch(rest)):
        raise NotANumber(f"not an integer: {_quoted(text)}")
    return int(sign + (rest or "0"))


def decimal(text: str) -> float:
    """A finite number in ASCII (``7.5``, ``-1``, ``.5``, ``5.``, ``1e3``); NotANumber for
    anything else (``nan``, ``inf``, ``1_0``, ``1,5``, ``٣``, what overflows such as ``1e400``),
    TooLong for more than MAX_CHARS characters (sign and leading zeros aside)."""
    sign, rest = _significant(text)
    body = text[len(sign) :]
    # leading zeros that were the whole integer part ("0e5", "000") leave it empty: give it back one
    candidate = "0" + rest if len(body) > len(rest) and rest[:1] in ("", "e", "E") else rest
    if not _DECIMAL.fullmatch(candidate):
        raise NotANumber(f"not a number: {_quoted(text)}")
    value = float(sign + candidate)
    if not math.isfinite(value):
        raise NotANumber(f"too large a number: {_quoted(text)}")
    return value


def _quoted(text: str, most: int = 40) -> str:
    """``text`` as an error quotes it: whole up to ``most`` characters, else cut, saying so."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text)} characters)"


def option(kind: type, low: float = -math.inf, high: float = math.inf, what: str | None = None):
    """An argparse ``type`` reading an option's value with ``integer`` (``kind`` int) or
    ``decimal`` (float), from ``low`` to ``high``: argparse's error, which names the option and
    exits with status 2, for anything else (``what`` says what is wanted; by default the kind and
    the range)."""
    import argparse  # the command lines' own module, imported only by them

    if what is None:
        noun = "an integer" if kind is int else "a number"
        bounds = [f"at least {low:g}" if math.isfinite(low) else "", f"at most {high:g}" if math.isfinite(high) else ""]
        what = " ".join([noun, " and ".join(b for b in bounds if b)]).strip()

    def read(text: str) -> int | float:
        try:
            value = integer(text) if kind is int else decimal(text)
        except TooLong as err:
            raise argparse.ArgumentTypeError(f"{what}, not {err}") from None
        except NotANumber:
            raise argparse.ArgumentTypeError(f"{what}, not {_quoted(text)}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what}, not {text}")
        return value

    read.__name__ = "integer" if kind is int else "number"  # argparse names the type in its errors
    return read
