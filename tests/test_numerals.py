"""goengine.numerals: numbers in ASCII digits, read in time linear in the text.

The work is counted, not timed: the grammar's expressions are wrapped so that every character
handed to them is counted, and a number of any length hands them at most MAX_CHARS characters.
(Before: GTP's ``komi`` read ``"1" * 32000 + "x"`` with an expression that gave digits back, in
time in the square of the length: 21 s, during which every search in the process stood still.)
"""

from __future__ import annotations

import argparse

import pytest
from gtp_harness import GtpHarness

from goengine import numerals
from goengine.config import SETTINGS, EngineConfig, SearchConfig
from goengine.gtp import protocol


class CountingPattern:
    """A compiled expression that counts the characters it is asked to match."""

    def __init__(self, pattern):
        self.pattern = pattern
        self.characters = 0
        self.calls = 0

    def fullmatch(self, text, *args):
        self.calls += 1
        self.characters += len(text)
        return self.pattern.fullmatch(text, *args)


@pytest.fixture
def counted(monkeypatch):
    patterns = {name: CountingPattern(getattr(numerals, name)) for name in ("_INTEGER", "_DECIMAL")}
    for name, pattern in patterns.items():
        monkeypatch.setattr(numerals, name, pattern)
    return patterns


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("7.5", 7.5),
        ("-1", -1.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e3", 1000.0),
        ("-.5e1", -5.0),
        ("+007.50", 7.5),
        ("0e5", 0.0),
        ("000", 0.0),
        ("0" * 5000 + "1.25", 1.25),
    ],
)
def test_a_decimal_in_ascii_is_read_as_python_reads_it(text, value):
    assert numerals.decimal(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "+",
        "-",
        ".",
        "e5",
        "-e5",
        "1e",
        "1e+",
        "nan",
        "inf",
        "-Infinity",
        "1_0",
        "1,5",
        "0x10",
        " 1",
        "1 ",
        "\u0667.\u0665",
        "\u0663",
        "1e400",
        "--1",
        "+-1",
        "1.2.3",
    ],
)
def test_what_is_not_a_finite_ascii_decimal_is_refused(text):
    with pytest.raises(numerals.NotANumber):
        numerals.decimal(text)


@pytest.mark.parametrize(("text", "value"), [("7", 7), ("-7", -7), ("+007", 7), ("000", 0), ("0" * 9000 + "12", 12)])
def test_an_integer_in_ascii_is_read(text, value):
    assert numerals.integer(text) == value


@pytest.mark.parametrize("text", ["", "+", "-", "1_0", "1.0", "1e3", "\u0663", "\u00b2", " 7", "--7"])
def test_what_is_not_an_ascii_integer_is_refused(text):
    with pytest.raises(numerals.NotANumber):
        numerals.integer(text)


def test_a_number_longer_than_the_limit_is_too_long_and_anything_else_long_is_no_number():
    with pytest.raises(numerals.TooLong, match="a number of 101 characters; at most 100"):
        numerals.integer("1" * 101)
    with pytest.raises(numerals.TooLong):
        numerals.decimal("1." + "5" * 200)
    numerals.decimal("1" * 99 + ".")  # 100 characters: still read
    with pytest.raises(numerals.NotANumber) as refused:
        numerals.integer("x" * 1000)
    assert not isinstance(refused.value, numerals.TooLong)


@pytest.mark.parametrize("length", [1_000, 32_000, 1_000_000])
@pytest.mark.parametrize("tail", ["x", "", ".5x", "e", "1e+"])
def test_the_grammar_sees_at_most_max_chars_characters_whatever_the_length(counted, length, tail):
    text = "1" * length + tail
    for reader in (numerals.integer, numerals.decimal):
        with pytest.raises(numerals.NotANumber):
            reader(text)
    seen = sum(pattern.characters for pattern in counted.values())
    assert seen <= 2 * (numerals.MAX_CHARS + 1)


def test_gtp_komi_of_32000_digits_and_a_stray_letter_is_refused_and_the_next_line_answered(counted):
    """The issue's probe: ``komi 111...1x`` then ``name``; both answered, the grammar shown at
    most MAX_CHARS characters however long the number."""
    session = GtpHarness(EngineConfig(search=SearchConfig(threads=1)))
    assert session.send("komi " + "1" * 32000 + "x") == "? number too long (32001 characters; at most 100)\n\n"
    assert session.send("name") == "= goengine\n\n"
    assert session.send("komi " + "7" * 100) == "=\n\n"  # 100 characters: read (a komi of 7.7e99)
    assert session.send("komi 7.5") == "=\n\n"
    assert sum(pattern.characters for pattern in counted.values()) <= 2 * numerals.MAX_CHARS + 3
    with pytest.raises(protocol.GtpError, match="syntax error"):
        protocol.number("1" * 99 + "x")


def test_a_setting_reads_its_number_as_gtp_does(counted):
    playouts = next(s for s in SETTINGS if s.key == "playouts")
    seconds = next(s for s in SETTINGS if s.key == "seconds")
    assert playouts.parse("+0100") == 100 and seconds.parse("2.5") == 2.5
    for text in ("1_0", "\u0661\u0660", "nan", "inf"):
        with pytest.raises(ValueError, match="must be an? (integer|number), got"):
            (seconds if text in ("nan", "inf") else playouts).parse(text)
    with pytest.raises(ValueError, match="must be a number, got '1_0'"):
        seconds.parse("1_0")
    with pytest.raises(ValueError, match="got an integer of 32000 digits"):
        playouts.parse("9" * 32000)
    assert sum(pattern.characters for pattern in counted.values()) <= 20 + numerals.MAX_CHARS


def test_an_option_type_names_what_it_wants_and_refuses_the_rest():
    read = numerals.option(int, 1, 10)
    assert read("007") == 7
    for text, words in (("0", "an integer at least 1 and at most 10, not 0"), ("1_0", "not '1_0'"), ("x", "not 'x'")):
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            read(text)
    seconds = numerals.option(float, 1e-3, what="a number of seconds above 0")
    assert seconds("2.5") == 2.5
    with pytest.raises(argparse.ArgumentTypeError, match="^a number of seconds above 0, not 'nan'$"):
        seconds("nan")
