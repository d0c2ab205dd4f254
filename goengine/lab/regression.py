"""GNU Go's regression tests as a tactical benchmark for any GTP engine: reading the ``.tst`` files,
the families and the held-out half, running a test, and judging the answer.

A ``.tst`` file (GNU Go's Texinfo manual, "Regression") is a GTP session: unnumbered commands set
up a position (``loadsgf FILE [MOVE]``, ``play``, ``undo``, and GNU Go's own ``trymove`` /
``popgo`` and ``black`` / ``white``, which are a play and an undo), and each numbered command is a
test, answered on the next line by ``#? [PATTERN]``: a regular expression the answer must match
whole, ``!`` in front for one it must not, and a ``*`` after the bracket where GNU Go itself
failed the test when the suite was written. The tests that apply to any engine are those that
ask for a move, ``reg_genmove COLOR`` and ``gg_genmove COLOR``; both are asked here as
``reg_genmove`` (a move chosen, not played). Every other numbered command (``owl_attack``,
``dragon_status``, ``restricted_genmove``, ...) asks GNU Go's own machinery: it is counted, by
command, as skipped, never failed.

Reading guide: ``parse_file`` turns a file into ``RegressionTest`` objects, each holding the
commands that build its position (so a test runs alone, in any order, on any engine process);
``run_test`` plays one against a ``GtpClient``; ``judge`` is the pass mark. ``FAMILIES`` names
each file's family; ``held_out`` splits the tests in two fixed halves by a hash of their name,
so that no change is tuned on the held-out half.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from goengine.lab.client import GtpClient, GtpClientError, GtpError

MOVE_COMMANDS = ("reg_genmove", "gg_genmove")
# what builds a position: the command and the GTP command sent for it (GNU Go's trymove/popgo
# and black/white are a play and an undo)
SETUP_COMMANDS = {"loadsgf": "loadsgf", "play": "play", "undo": "undo", "trymove": "play", "popgo": "undo"}
COLOR_COMMANDS = {"black": "black", "white": "white"}
RESETS = ("loadsgf", "clear_board", "boardsize")
# GNU Go's own settings between tests: they change nothing another engine reads
IGNORED = ("increase_depths", "decrease_depths", "komi", "level")

# Each file's family, by what its tests ask. Every file not named here is a collection of
# positions from whole games (nngs*, trevor*, strategy*, tournaments, named players): "whole board".
FAMILIES = {
    "semeai.tst": "capturing races",
    "seki.tst": "seki",
    "tactics.tst": "tactics",
    "tactics1.tst": "tactics",
    "blunder.tst": "blunders",
    "endgame.tst": "endgame",
    "endgame1.tst": "endgame",
    "filllib.tst": "endgame",
    "joseki.tst": "opening",
    "safety.tst": "safety",
    "break_in.tst": "connection",
    "9x9.tst": "9x9",
    "13x13.tst": "13x13",
    "13x13b.tst": "13x13",
    "13x13c.tst": "13x13",
    "tiny.tst": "small boards",
    "ninestones.tst": "handicap",
}
WHOLE_BOARD = "whole board"

# GNU Go's maintainers tagged some tests with what they exercise (``#CATEGORY=OWL_TUNING`` in a
# comment before the test): where a tag names a kind of fight, it decides the family, whatever
# the file. The first word of the tag that starts one of these prefixes wins; tags of strategy,
# patterns and evaluation leave the file's family.
CATEGORY_FAMILIES = (
    ("SEMEAI", "capturing races"),
    ("KO", "ko"),
    ("OWL", "life and death"),
    ("OPTICS", "life and death"),
    ("TACTICAL", "tactics"),
    ("READING", "tactics"),
    ("ATARI_ATARI", "tactics"),
    ("CONNECTION", "connection"),
    ("BLUNDER", "blunders"),
    ("ENDGAME", "endgame"),
)


def family_of(file: str, category: str = "") -> str:
    """The family of a test of ``file`` tagged ``category``: the kind of fight its tag names
    (CATEGORY_FAMILIES), else its file's (by name: FAMILIES; ``goengine-FAMILY.tst`` files of our
    own name theirs, ``goengine-ko.tst`` being ``ko``)."""
    name = Path(file).name
    if name.startswith("goengine-"):
        return name[len("goengine-") : -len(".tst")].replace("-", " ")
    for word in re.split(r"[^A-Z_]+", category.upper()):
        for prefix, family in CATEGORY_FAMILIES:
            if word.startswith(prefix):
                return family
    return FAMILIES.get(name, WHOLE_BOARD)


def seed_of(name: str) -> int:
    """A seed of the test's own (from the SHA-256 of its name, below 2^31): set before each test,
    it makes an engine's answer the same whatever ran before it in the process, in any order."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big") >> 1


def held_out(file: str, number: int) -> bool:
    """Whether the test is in the held-out half: a fixed split by the SHA-256 of ``FILE:NUMBER``
    (its lowest bit), the same on every machine and for every version of the suite."""
    return hashlib.sha256(f"{Path(file).name}:{number}".encode()).digest()[-1] & 1 == 1


@dataclass(frozen=True)
class RegressionTest:
    """One test: ``file`` and ``number`` name it; ``setup`` the GTP commands that build its
    position from scratch; ``color`` asked to move; ``pattern`` (``!`` in front: must not match)
    the answers that pass; ``gnugo_failed`` when the suite marks the test as failed by GNU Go;
    ``category`` the maintainers' ``#CATEGORY=`` tag before it, if any."""

    file: str
    number: int
    setup: tuple[str, ...]
    color: str
    pattern: str
    gnugo_failed: bool = False
    category: str = ""

    @property
    def name(self) -> str:
        return f"{Path(self.file).name}:{self.number}"

    @property
    def family(self) -> str:
        return family_of(self.file, self.category)

    @property
    def held_out(self) -> bool:
        return held_out(self.file, self.number)


@dataclass
class ParsedFile:
    """What a ``.tst`` file holds: the move tests, and the numbered tests of other commands,
    counted by command (``skipped``)."""

    tests: list[RegressionTest] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)


_EXPECTED = re.compile(r"#\?\s*\[(?P<pattern>.*)\](?P<star>\*?)")
_CATEGORY = re.compile(r"#\s*CATEGORY\s*=\s*(?P<category>.*)")


def parse_file(path: Path) -> ParsedFile:
    """The tests of one ``.tst`` file, each with the commands that build its position since the
    last ``loadsgf``/``clear_board``/``boardsize`` (ValueError, naming the file and line, for a
    test without its ``#?`` line or an unreadable one)."""
    parsed = ParsedFile()
    setup: list[str] = []
    category = ""
    lines = path.read_text(encoding="latin-1").splitlines()
    for i, raw in enumerate(lines):
        tag = _CATEGORY.match(raw)
        if tag:
            category = tag["category"].strip()
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        number = None
        if words[0].isdigit():
            number, words = int(words[0]), words[1:]
        if not words:
            continue
        command, args = words[0], words[1:]
        if command in RESETS:
            keep = command == "clear_board" and setup[:1] and setup[0].startswith("boardsize")
            setup = (setup[:1] if keep else []) + [" ".join([command, *args])]
            continue
        if command in SETUP_COMMANDS:
            setup.append(" ".join([SETUP_COMMANDS[command], *args]))
            continue
        if command in COLOR_COMMANDS and number is None:
            setup.append(" ".join(["play", command, *args]))
            continue
        if number is None:
            if command not in IGNORED and command not in MOVE_COMMANDS:
                parsed.skipped[command] += 1
            continue
        if command not in MOVE_COMMANDS:
            parsed.skipped[command] += 1
            continue
        expected = next((s for s in lines[i + 1 : i + 3] if s.startswith("#?")), None)
        match = _EXPECTED.match(expected.strip()) if expected else None
        if match is None or not args:  # gg_genmove may add a random seed after the colour
            raise ValueError(f"{path}:{i + 1}: test {number} has no readable '#? [PATTERN]' line after it")
        parsed.tests.append(
            RegressionTest(path.name, number, tuple(setup), args[0], match["pattern"], match["star"] == "*", category)
        )
        category = ""  # a tag is the next test's
    return parsed


def judge(pattern: str, answer: str) -> bool:
    """Whether ``answer`` (a vertex, ``PASS`` or ``resign``; any case) passes ``pattern``: the
    regular expression matches the whole answer, or with ``!`` in front, does not."""
    negate = pattern.startswith("!")
    regex = pattern[1:] if negate else pattern
    matched = re.fullmatch(regex, answer.strip(), flags=re.IGNORECASE) is not None
    return matched != negate


def run_test(
    client: GtpClient, test: RegressionTest, folder: Path, timeout: float | None = None, seeded: bool = False
) -> dict:
    """Build the test's position on the engine (``boardsize 19`` and ``clear_board`` first when
    the file starts from an empty board; ``loadsgf`` paths are relative to ``folder``, as GNU Go
    runs the suite) and ask for the move. With ``seeded`` (an engine that knows
    ``goengine-set``), the test's own seed (``seed_of``) is set first, so its answer does not
    depend on the tests before it. The record: the test's name, family and half, the
    pattern, the answer and whether it passed, the seconds the move took; or ``error`` (and the
    command refused, ``error_command``) when the position could not be built (a missing file, a
    board size the engine lacks): such a test is counted apart, never as a pass or a failure."""
    record = {
        "test": test.name,
        "family": test.family,
        "held_out": test.held_out,
        "pattern": test.pattern,
        "gnugo_failed": test.gnugo_failed,
    }
    setup = list(test.setup)
    if not setup or not setup[0].startswith(RESETS):
        setup = ["boardsize 19", "clear_board", *setup]
    if seeded:
        setup.insert(0, f"goengine-set seed {seed_of(test.name)}")
    try:
        for command in setup:
            word, *args = command.split()
            if word == "loadsgf":
                args[0] = str(folder / args[0])
            client.send(" ".join([word, *args]))
        start = time.perf_counter()
        answer = client.send(f"reg_genmove {test.color}", timeout=timeout)
        record["seconds"] = round(time.perf_counter() - start, 3)
    except GtpError as error:
        record["error"] = f"{error.command}: {error}"
        record["error_command"] = error.command.split()[0] if error.command else "?"
        return record
    except GtpClientError as error:  # the engine died or hung: the caller restarts it
        record["error"] = f"engine: {error}"
        record["error_command"] = "engine"
        record["engine_failed"] = True
        return record
    record["answer"] = answer.upper()
    record["passed"] = judge(test.pattern, answer)
    return record


def load_suite(folder: Path) -> tuple[list[RegressionTest], Counter]:
    """Every move test of the ``.tst`` files in ``folder`` (sorted by file, then as written), and
    the other numbered tests counted by command."""
    tests: list[RegressionTest] = []
    skipped: Counter = Counter()
    for path in sorted(folder.glob("*.tst")):
        parsed = parse_file(path)
        tests += parsed.tests
        skipped += parsed.skipped
    return tests, skipped
