"""``kata-analyze`` and ``lz-analyze`` read by the parser of a real client: Lizzie 0.7.4
(featurecat/lizzie), the jar of Debian's ``liblizzie-java``. ``tests/lizzie/LizzieParse.java`` hands
goengine's lines to Lizzie's own ``Leelaz.parseInfoKatago`` and ``MoveData.fromInfoKatago``, or
``Leelaz.parseInfo`` and ``MoveData.fromInfo`` (``src/main/java/featurecat/lizzie/analysis/
Leelaz.java`` and ``MoveData.java``), as Lizzie's ``Leelaz.parseLine`` does for an engine it takes for
KataGo (its ``name`` starts with "KataGo") or for any other (Leela Zero's format, what Lizzie asks
goengine for), and prints what Lizzie made of them: each move's coordinate, visits, win rate and
prior (in percent, as Lizzie keeps them), score and principal variation, and the position's
playouts.

What must hold: Lizzie reads every move of every streamed report, with the numbers goengine sent
(a field out of its key/value pair, a win rate in the other format's scale, a missing ``pv`` would
show), and on a settled position whose score is known it reads the winner and the score's sign for
the side analysed, White included.

Setup: ``make lizzie`` (``apt-get install liblizzie-java``; ``javac`` from a JDK). Without ``java``,
``javac`` or the jar the tests are skipped, unless ``GOENGINE_REQUIRE_LIZZIE=1`` is set (``.ci/run``
sets it): then they fail.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import gtp_spec
import pytest
from gtp_harness import GtpHarness
from helpers import SETTLED, set_up, unavailable

from goengine.config import EngineConfig, SearchConfig

pytestmark = pytest.mark.slow  # a JDK compiling and running Lizzie's parser

LIZZIE_JAR = Path("/usr/share/java/lizzie.jar")
DRIVER = Path(__file__).parent / "lizzie" / "LizzieParse.java"


def sent_moves(line: str, form: str) -> list[dict]:
    """What goengine sent of each move of an ``info`` line, read by the formats of
    ``tests/gtp_spec.py`` (``KATA_INFO``, ``LZ_INFO``): move, visits, win rate, prior, score (None
    in lz-analyze) and principal variation, as text."""
    if form == "kata":  # groups: visits, winrate, scoreMean, scoreSelfplay, scoreLead, prior, lcb, order, pv
        pattern, fields = gtp_spec.KATA_INFO, {"visits": 1, "winrate": 2, "score": 3, "prior": 6, "pv": 9}
    else:  # groups: visits, winrate, prior, lcb, order, pv (rates times 10,000)
        pattern, fields = gtp_spec.LZ_INFO, {"visits": 1, "winrate": 2, "prior": 3, "pv": 6}
    moves = []
    for match in re.finditer(pattern, line):
        move = {name: match.group(group) for name, group in fields.items()}
        move["move"] = re.match(r"info move (\S+)", match.group(0)).group(1)
        moves.append(move)
    return moves


@pytest.fixture(scope="module")
def lizzie(tmp_path_factory):
    """``read(lines, size, form)``: what Lizzie's parser made of each ``info`` line, one dict a line;
    ``form`` "kata" (``kata-analyze``) or "lz" (``lz-analyze``)."""
    missing = [tool for tool in ("java", "javac") if shutil.which(tool) is None]
    if missing or not LIZZIE_JAR.exists():
        unavailable(f"Lizzie's parser needs {', '.join(missing) or LIZZIE_JAR}: make lizzie", "GOENGINE_REQUIRE_LIZZIE")
    scratch = tmp_path_factory.mktemp("lizzie")
    classes = scratch / "classes"
    subprocess.run(
        ["javac", "-nowarn", "-cp", str(LIZZIE_JAR), "-d", str(classes), str(DRIVER)],
        check=True,
        capture_output=True,
        timeout=300,
    )

    def read(lines: list[str], size: int, form: str = "kata") -> list[dict]:
        done = subprocess.run(
            # Lizzie's Config writes its default settings under user.home: a scratch folder, not ~
            ["java", f"-Duser.home={scratch}", "-cp", f"{LIZZIE_JAR}:{classes}", "LizzieParse", str(size), form],
            input="\n".join(lines) + "\n",
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    return read


def stream(harness: GtpHarness, command: str) -> list[str]:
    """The ``info`` lines a streaming analysis wrote before the next line of input came (at least one;
    how many depends on the machine's speed, and nothing below counts on more)."""
    written = harness.send(command)
    assert written.startswith("=\n") and written.endswith("\n\n"), written[-200:]  # KataGo's "=", lines, blank
    lines = [line for line in written.splitlines() if line.startswith("info ")]
    assert lines, written[:500]
    return lines


@pytest.mark.parametrize("color", ["B", "W"])
@pytest.mark.parametrize("form", ["kata", "lz"])
def test_lizzie_reads_every_move_of_a_streamed_report_as_sent(lizzie, form, color):
    """A 9x9 opening analysed by the default engine for each side: Lizzie finds every move of
    every report, with its visits, win rate, prior and principal variation as sent (and the score,
    which only kata-analyze sends)."""
    harness = GtpHarness(EngineConfig(size=9), next_line_after=0.6)
    for move in ("B E5", "W C3", "B G4", "W D7"):
        harness.ok(f"play {move}")
    lines = stream(harness, f"{form}-analyze {color} 10")
    read = lizzie(lines, 9, form)
    percent = 100.0 if form == "kata" else 0.01  # sent * percent: Lizzie's %
    assert len(read) == len(lines)
    for line, position in zip(lines, read, strict=True):
        sent = sent_moves(line, form)
        assert len(sent) == line.count("info move ") > 0
        assert [m["move"] for m in position["moves"]] == [m["move"] for m in sent]
        for lizzie_move, move in zip(position["moves"], sent, strict=True):
            assert lizzie_move["visits"] == int(move["visits"]) > 0
            assert 0 <= lizzie_move["winrate"] <= 100
            assert lizzie_move["winrate"] == pytest.approx(percent * float(move["winrate"]))
            assert 0 <= lizzie_move["policy"] <= 100
            assert lizzie_move["policy"] == pytest.approx(percent * float(move["prior"]))
            if form == "kata":
                assert lizzie_move["scoreMean"] == pytest.approx(float(move["score"]))
            assert lizzie_move["pv"] == move["pv"].split()
            assert lizzie_move["pv"][0] == lizzie_move["move"]
        assert position["playouts"] == sum(int(m["visits"]) for m in sent)
        assert 0 <= position["winrate"] <= 100


@pytest.mark.parametrize(("color", "winrate", "score"), [("B", 0.0, -2.5), ("W", 100.0, 2.5)])
@pytest.mark.parametrize("ownership", [False, True])
def test_lizzie_reads_the_winner_and_the_score_from_the_side_analysed(lizzie, color, winrate, score, ownership):
    """SETTLED (tests/helpers.py): every playout ends Black 15, White 10, so with komi 7.5 White
    wins by 2.5 and Black can only pass. Lizzie reads pass with Black's 0 % and -2.5, White's 100 %
    and +2.5; an ownership block after the moves does not change what it reads of them."""
    engine = set_up(SETTLED, search=SearchConfig(playouts=200, playout="heavy", expand_at=0))
    harness = GtpHarness(next_line_after=0.4, engine=engine)
    harness.ok("komi 7.5")
    lines = stream(harness, f"kata-analyze {color} 10" + (" ownership true" if ownership else ""))
    for position in lizzie(lines, 5):
        first = position["moves"][0]
        assert (first["move"], first["winrate"], first["scoreMean"]) == ("pass", winrate, score)
        assert position["winrate"] == pytest.approx(winrate)
        if ownership:  # Lizzie 0.7.4 takes the block after the last move for more of its pv (KataGo's too)
            pv = first["pv"]
            black, white = ("1.000000", "-1.000000") if color == "B" else ("-1.000000", "1.000000")
            assert pv[pv.index("ownership") + 1 :] == ([black] * 3 + [white] * 2) * 5  # columns A-C Black's
    engine.close()
