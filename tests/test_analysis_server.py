"""KataGo's JSON analysis protocol end to end (``goengine.analysis.server``): transcripts written
from KataGo's docs/Analysis_Engine.md (``tests/data/analysis/*.txt``), the queue's order and
terminations, partial reports, and the ``goengine analysis`` command over pipes.

A transcript is read line by line: a line that is not a comment is sent as it stands; ``#? {...}``
expects some response line to match the JSON pattern, ``#! {...}`` expects none to (``matches``).
Whatever the expectations, every line written must be one JSON object, and every turn of every
query that was not refused must end with exactly one final response (``isDuringSearch`` false),
as KataGo promises.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from goengine import coords
from goengine.analysis import AnalysisServer
from goengine.analysis import server as analysis_server
from goengine.analysis.query import MAX_LINE_BYTES, MAX_NESTING, Query, read
from goengine.analysis.server import LongLine, input_lines
from goengine.board import BLACK, Board
from goengine.config import EngineConfig, SearchConfig

DATA = Path(__file__).parent / "data" / "analysis"
TRANSCRIPTS = sorted(DATA.glob("*.txt"))
VERTEX = re.compile(r"pass|[A-HJ-T](1[0-9]|[1-9])")
CONFIG = EngineConfig(search=SearchConfig(playouts=200, seed=7))


def matches(pattern, value) -> bool:
    """Whether ``value`` (a response's JSON) matches ``pattern``: a dict's keys each match (others
    may be present); ``{"@each": p}`` every element of a list, ``{"@length": n}`` a list of n;
    ``"@int"``, ``"@number"``, ``"@string"``, ``"@list"``, ``"@vertex"``, ``"@any"`` a kind;
    ``"re:X"`` a string X matches in full; anything else equality."""
    if isinstance(pattern, dict):
        if "@each" in pattern:
            return isinstance(value, list) and len(value) > 0 and all(matches(pattern["@each"], v) for v in value)
        if "@length" in pattern:
            return isinstance(value, list) and len(value) == pattern["@length"]
        return isinstance(value, dict) and all(k in value and matches(p, value[k]) for k, p in pattern.items())
    if isinstance(pattern, str) and pattern.startswith("@"):
        kinds = {
            "@int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "@number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
            "@string": lambda v: isinstance(v, str),
            "@list": lambda v: isinstance(v, list),
            "@vertex": lambda v: isinstance(v, str) and VERTEX.fullmatch(v) is not None,
            "@any": lambda v: True,
        }
        return kinds[pattern](value)
    if isinstance(pattern, str) and pattern.startswith("re:"):
        return isinstance(value, str) and re.fullmatch(pattern[3:], value, re.DOTALL) is not None
    return pattern == value


def test_the_pattern_matcher_can_fail():
    assert matches({"a": "@int"}, {"a": 1, "b": 2})
    assert not matches({"a": "@int"}, {"a": 1.5})
    assert not matches({"a": "@int"}, {"b": 1})
    assert not matches({"l": {"@each": "@vertex"}}, {"l": ["D4", "I5"]})
    assert not matches({"l": {"@length": 2}}, {"l": [1]})
    assert not matches("re:ab", "abc")


def run_server(lines: list[str], config: EngineConfig = CONFIG, workers: int = 1) -> list[str]:
    """Every line written by a server fed ``lines`` until their end."""
    out = []
    server = AnalysisServer(config, out.append, workers=workers)
    for line in lines:
        server.submit(line)
    server.finish()
    return out


def check_invariants(lines_in: list[str], lines_out: list[str]) -> list[dict]:
    """Each line written is one JSON object ending with a newline; each turn of each query that was
    read without error ends with exactly one final response. Returns the objects."""
    answers = []
    for line in lines_out:
        assert line.endswith("\n") and "\n" not in line[:-1]
        answer = json.loads(line)
        assert isinstance(answer, dict)
        answers.append(answer)
    refused = {a.get("id") for a in answers if "error" in a}
    for line in lines_in:
        try:
            query = read(line)
        except Exception:  # noqa: BLE001 - a line in error is checked by its expectation
            continue
        if not isinstance(query, Query) or query.query_id in refused:
            continue
        for turn in query.turns:
            finals = [
                a
                for a in answers
                if a.get("id") == query.query_id and a.get("turnNumber") == turn.number and not a["isDuringSearch"]
            ]
            assert len(finals) == 1, (query.query_id, turn.number)
    return answers


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_transcript(path):
    sent, expectations = [], []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("#?") or line.startswith("#!"):
            expectations.append((number, line[:2] == "#?", json.loads(line[2:])))
        elif line.strip() and not line.startswith("#"):
            sent.append(line)
    answers = check_invariants(sent, run_server(sent))
    failures = [
        f"line {number}: {'no' if wanted else 'a'} response matches {pattern}"
        for number, wanted, pattern in expectations
        if any(matches(pattern, a) for a in answers) != wanted
    ]
    assert failures == [], "\n".join(failures + ["responses:"] + [json.dumps(a)[:300] for a in answers])


def query(query_id: str, max_time: float | None = None, **fields) -> str:
    """A 9x9 query line; ``max_time`` goes where KataGo reads it, in ``overrideSettings``."""
    base = {"id": query_id, "moves": [], "rules": "chinese-kgs", "komi": 7.5, "boardXSize": 9, "boardYSize": 9}
    if max_time is not None:
        base["overrideSettings"] = {"maxTime": max_time}
    return json.dumps({**base, **fields})


class Collector:
    """A server's output, with a wait for a line that matches."""

    def __init__(self):
        self.lines: list[dict] = []
        self.arrived = threading.Condition()

    def write(self, line: str) -> None:
        with self.arrived:
            self.lines.append(json.loads(line))
            self.arrived.notify_all()

    def wait_for(self, pattern: dict, timeout: float = 120.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                found = next((a for a in self.lines if matches(pattern, a)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                assert left > 0, f"no response matched {pattern}: {self.lines}"
                self.arrived.wait(left)


def test_queued_turns_are_searched_highest_priority_first_then_in_order():
    out = Collector()
    server = AnalysisServer(CONFIG, out.write)
    # the first query keeps the one worker busy (stopped below) while the others queue up
    server.submit(query("busy", maxVisits=10**9, max_time=600, reportDuringSearchEvery=0.1))
    out.wait_for({"id": "busy", "isDuringSearch": True})
    out_of_order = [("low", -5), ("first-zero", 0), ("high", 10), ("second-zero", 0)]
    for name, priority in out_of_order:
        server.submit(query(name, maxVisits=20, priority=priority))
    server.terminate("busy", None)
    server.finish()
    finals = [a["id"] for a in out.lines if not a.get("isDuringSearch", True)]
    assert finals == ["busy", "high", "first-zero", "second-zero", "low"]


def test_a_terminated_turn_still_queued_answers_no_results_and_a_running_one_what_it_has():
    out = Collector()
    server = AnalysisServer(CONFIG, out.write)
    server.submit(query("long", maxVisits=10**9, max_time=600, reportDuringSearchEvery=0.1))
    server.submit(query("queued", maxVisits=20, analyzeTurns=[0]))
    out.wait_for({"id": "long", "isDuringSearch": True})  # it is being searched
    server.submit(json.dumps({"id": "t", "action": "terminate", "terminateId": "queued"}))
    server.submit(json.dumps({"id": "t2", "action": "terminate", "terminateId": "long", "turnNumbers": [0]}))
    server.finish()
    no_results = {"id": "queued", "isDuringSearch": False, "noResults": True, "turnNumber": 0}
    assert out.wait_for({"id": "queued"}) == no_results
    final = out.wait_for({"id": "long", "isDuringSearch": False})
    assert final["rootInfo"]["visits"] > 0 and "noResults" not in final
    assert [a["id"] for a in out.lines if "action" in a] == ["t", "t2"]


def test_terminating_some_turns_leaves_the_others():
    out = Collector()
    server = AnalysisServer(CONFIG, out.write)
    server.submit(query("busy", maxVisits=10**9, max_time=600, reportDuringSearchEvery=0.1))
    out.wait_for({"id": "busy", "isDuringSearch": True})
    server.submit(query("game", moves=[["B", "E5"], ["W", "C3"]], analyzeTurns=[0, 1, 2], maxVisits=20))
    server.submit(json.dumps({"id": "t", "action": "terminate", "terminateId": "game", "turnNumbers": [1]}))
    server.terminate("busy", None)
    server.finish()
    by_turn = {a["turnNumber"]: a for a in out.lines if a.get("id") == "game"}
    assert by_turn[1].get("noResults") is True
    assert by_turn[0]["rootInfo"]["visits"] > 0 and by_turn[2]["rootInfo"]["visits"] > 0


def test_terminate_all_ends_every_query():
    out = Collector()
    server = AnalysisServer(CONFIG, out.write)
    server.submit(query("a", maxVisits=10**9, max_time=600))
    server.submit(query("b", maxVisits=20))
    server.submit(json.dumps({"id": "all", "action": "terminate_all"}))
    server.finish()
    assert out.wait_for({"id": "b"}).get("noResults") is True
    assert out.wait_for({"id": "a", "isDuringSearch": False}).get("isDuringSearch") is False


def test_partial_reports_come_every_interval_before_the_final_one():
    out = Collector()
    server = AnalysisServer(CONFIG, out.write)
    server.submit(query("slow", maxVisits=10**9, max_time=1.2, reportDuringSearchEvery=0.25))
    server.finish()
    flags = [a["isDuringSearch"] for a in out.lines if a.get("id") == "slow"]
    assert flags[-1] is False and flags.count(False) == 1
    assert flags.count(True) >= 2
    visits = [a["rootInfo"]["visits"] for a in out.lines if a.get("id") == "slow"]
    assert visits == sorted(visits)  # the same search, growing


def test_each_perspective_reports_the_same_search_from_its_side():
    """White to move: under SIDETOMOVE and WHITE the figures are White's, under BLACK they are
    the complement (win rates) and the negation (scores, ownership); prior and visits stay."""
    answers = {}
    for perspective in ("SIDETOMOVE", "WHITE", "BLACK"):
        settings = {"reportAnalysisWinratesAs": perspective}
        line = query("p", moves=[["B", "E5"]], maxVisits=200, includeOwnership=True, overrideSettings=settings)
        answers[perspective] = [json.loads(x) for x in run_server([line])][-1]
    white, black = answers["WHITE"], answers["BLACK"]
    assert answers["SIDETOMOVE"] == white
    for w, b in zip(white["moveInfos"], black["moveInfos"], strict=True):
        assert (w["move"], w["visits"], w["prior"]) == (b["move"], b["visits"], b["prior"])
        assert w["winrate"] + b["winrate"] == pytest.approx(1.0)
        assert w["scoreLead"] == pytest.approx(-b["scoreLead"])
    assert white["rootInfo"]["winrate"] + black["rootInfo"]["winrate"] == pytest.approx(1.0)
    assert white["ownership"] == pytest.approx([-x for x in black["ownership"]])
    # Black's stone on E5 (row 5 from the top, column 5) is Black's: +1 seen from Black
    assert black["ownership"][4 * 9 + 4] > 0.5


def test_a_research_seed_gives_the_same_analysis_again():
    config = EngineConfig(search=SearchConfig(playouts=300, seed=3, playout="uniform", prior="none", expand_at=1))
    line = query("r", moves=[["B", "E5"], ["W", "D4"]], maxVisits=300)
    first, second = run_server([line], config), run_server([line], config)
    assert first == second


def test_two_workers_answer_every_turn():
    lines = [query(f"q{k}", moves=[["B", "E5"]], analyzeTurns=[0, 1], maxVisits=30) for k in range(3)]
    answers = check_invariants(lines, run_server(lines, workers=2))
    assert len([a for a in answers if not a.get("isDuringSearch", True)]) == 6


def run_command(stdin: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goengine", "analysis", "--threads", "1", "--playouts", "50", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.slow
def test_the_command_answers_on_stdout_only_json_and_ends_with_its_input():
    """Started as KaTrain starts KataGo (``-model``, ``-config``, ``-override-config``): the model
    is noted and ignored, the config's perspective honoured; stdout carries one JSON object a
    line and nothing else; at the end of input every queued turn is answered, then it exits 0."""
    config = DATA / "analysis_config.cfg"
    lines = [
        query("a", moves=[["B", "E5"]], analyzeTurns=[0, 1]),
        "garbage",
        json.dumps({"id": "v", "action": "query_version"}),
    ]
    done = run_command(
        "\n".join(lines) + "\n",
        "-model",
        "no-such-model.bin.gz",
        "-config",
        str(config),
        "-override-config",
        "homeDataDir=/nowhere,maxVisits=40",
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    finals = {a["turnNumber"]: a for a in answers if a.get("id") == "a"}
    assert sorted(finals) == [0, 1]
    # -override-config's 40 visits, not the config's 500
    assert all(0 < a["rootInfo"]["visits"] <= 40 for a in finals.values())
    assert [a.get("id") for a in answers if "error" in a or "action" in a] == [None, "v"]
    # the config says BLACK: at turn 1, White to move, the figures are Black's, the complement of
    # what the same search (the same seed) reports for White
    white = run_command(
        "\n".join(lines) + "\n",
        "-config",
        str(config),
        "-override-config",
        "maxVisits=40,reportAnalysisWinratesAs=WHITE",
    )
    as_white = {a["turnNumber"]: a for a in map(json.loads, white.stdout.splitlines()) if a.get("id") == "a"}
    assert finals[1]["rootInfo"]["currentPlayer"] == "W"
    assert finals[1]["rootInfo"]["winrate"] + as_white[1]["rootInfo"]["winrate"] == pytest.approx(1.0)
    assert "no-such-model.bin.gz" in done.stderr and "homeDataDir" in done.stderr
    # KaTrain takes these words on stderr for a crash
    assert "Uncaught exception" not in done.stderr and "what()" not in done.stderr


@pytest.mark.slow
def test_quit_without_waiting_ends_the_searches_at_the_end_of_input():
    line = query("forever", maxVisits=10**9, max_time=3600)
    start = time.monotonic()
    done = run_command(line + "\n", "-quit-without-waiting", timeout=120)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 60
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == ["forever"] and answers[0]["isDuringSearch"] is False


def test_bad_command_lines_are_refused_before_anything_starts():
    for args in (["-override-config", "maxVisits"], ["-override-config", "reportAnalysisWinratesAs=UP"]):
        done = run_command("", *args, timeout=120)
        assert done.returncode == 2 and done.stdout == ""


def test_a_lone_cr_inside_a_query_is_white_space_not_the_end_of_a_line():
    """Only LF ends a query (as GTP's lines, ``protocol.text_input``): a CR inside one is JSON's
    white space. (Before: Python's universal newlines cut the query in two, two errors.)"""
    done = run_command('{"id": "v",\r "action": "query_version"}\n', timeout=120)
    assert done.returncode == 0, done.stderr
    (answer,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert answer["id"] == "v" and answer["action"] == "query_version"


# ---- bad lines end nothing (issue 46): the limits, the server's own failures, the fuzz


def test_input_lines_read_past_a_line_too_long_and_go_on():
    data = b'{"a": 1}\r\n' + b"x" * 5000 + b"\n" + b"\xff\xfe {}\n" + b"y" * 100
    lines = list(input_lines(io.BytesIO(data), limit=1000))
    assert lines == ['{"a": 1}\r\n', LongLine(5001), "\ufffd\ufffd {}\n", "y" * 100]
    assert list(input_lines(io.BytesIO(b"z" * 3000), limit=1000)) == [LongLine(3000)]


def test_bad_lines_between_queries_lose_no_query_in_flight():
    """A NaN, a number of 4,301 digits, nesting 2,000 deep and a line too long each get an error,
    and the query sent before them and the one after still get their results. (Before: the first
    of them ended ``goengine analysis`` with a traceback and every query in flight was lost.)"""
    out = []
    server = AnalysisServer(CONFIG, out.append)
    server.submit(query("before", moves=[["B", "E5"]], analyzeTurns=[0, 1], maxVisits=50))
    for bad in (
        '{"id": "nan", "action": "query_version", "v": NaN}',
        '{"id": "long", "action": "query_version", "v": ' + "9" * 4301 + "}",
        "[" * 2000 + "]" * 2000,
        LongLine(50 << 20),
    ):
        server.submit(bad)
    server.submit(query("after", maxVisits=50))
    server.finish()
    answers = [json.loads(line) for line in out]
    errors = [a for a in answers if "error" in a]
    assert [a.get("id") for a in errors] == ["nan", "long", None, None]
    assert errors[3]["error"] == f"a line of {50 << 20} bytes; at most {MAX_LINE_BYTES}: not read"
    finals = sorted((a["id"], a["turnNumber"]) for a in answers if a.get("isDuringSearch") is False)
    assert finals == [("after", 0), ("before", 0), ("before", 1)]


def test_a_refused_line_is_answered_under_its_id_when_the_id_can_be_read():
    """Nesting too deep, a line too long and JSON cut short each name the query's id when its
    outermost object has one (a client waits on that id). (Before: these errors came without
    the id, and a client waiting for it waited for ever.)"""
    out = []
    server = AnalysisServer(CONFIG, out.append)
    head = '{"id": "far", "moves": [["B", "E5"]], "x": '
    long_line = (head + "1" * (MAX_LINE_BYTES + 10) + "}\n").encode()
    (too_long,) = list(input_lines(io.BytesIO(long_line)))
    assert isinstance(too_long, LongLine) and too_long.length == len(long_line)
    for bad in ('{"id": "deep", "moves": ' + "[" * 2000 + "]" * 2000 + "}", too_long, '{"id": "cut", "moves": [['):
        server.submit(bad)
    server.submit("[" * 2000)  # no object, no id
    server.finish()
    errors = [json.loads(line) for line in out]
    assert [e.get("id") for e in errors] == ["deep", "far", "cut", None]
    assert errors[0]["error"].startswith(f"Nested 2001 deep, at most {MAX_NESTING}")


def test_the_issues_line_of_escaped_quotes_is_refused_and_the_next_query_answered():
    """``"[" * 65 + '"' + '\\"' * 32000`` then ``query_version``, as ``goengine analysis`` reads
    them (the work of the nesting count is held to the line's length in
    tests/test_analysis_outline.py)."""
    text = "[" * 65 + '"' + '\\"' * 32000 + "\n" + '{"id":"s","action":"query_version"}\n'
    done = run_command(text, timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert "error" in answers[0] and answers[1]["id"] == "s" and answers[1]["action"] == "query_version"


def test_a_line_the_server_fails_on_is_answered_with_an_error_and_the_next_is_served(monkeypatch):
    out, logged = [], []
    server = AnalysisServer(CONFIG, out.append, log=logged.append)
    real = analysis_server.read

    def failing(line, defaults=None):
        if "boom" in line:
            raise RuntimeError("boom")
        return real(line, defaults)

    monkeypatch.setattr(analysis_server, "read", failing)
    server.submit('{"id": "boom"}')
    server.submit(json.dumps({"id": "v", "action": "query_version"}))
    server.finish()
    answers = [json.loads(line) for line in out]
    assert answers[0] == {"error": "internal error: RuntimeError: boom"}
    assert answers[1]["id"] == "v" and "Traceback" in logged[0]


FUZZ_LINES = 1500


def fuzz_lines(rng: random.Random, count: int) -> list[tuple[str, bytes]]:
    """``count`` seeded lines for the analysis protocol, each ``(kind, bytes)``: ``query`` (a
    valid 9x9 query of a few legal moves, small budgets), ``action`` (query_version, clear_cache,
    a terminate of nothing), or a hostile kind, each of which must get exactly one error: NaN and
    Infinity, numbers too long or too large, nesting too deep, cut JSON, random bytes (not UTF-8
    either), JSON that is not an object or has no id, fields of the wrong kind, an illegal move,
    and one line too long (MAX_LINE_BYTES and more)."""
    wrong = [
        ("boardXSize", "nine"),
        ("boardYSize", 25),
        ("moves", {}),
        ("moves", [["B"]]),
        ("komi", "x"),
        ("komi", 1000),
        ("analyzeTurns", [-1]),
        ("rules", 5),
        ("initialPlayer", "x"),
        ("includeOwnership", 1),
        ("overrideSettings", []),
    ]
    lines: list[tuple[str, bytes]] = []
    for k in range(count):
        board = Board(9)
        moves = []
        for _ in range(rng.randrange(6)):
            choices = board.legal_moves()
            p = rng.choice(choices)
            moves.append(["B" if board.to_move == BLACK else "W", coords.to_gtp(9, p)])
            board.play(board.to_move, p)
        valid = {"id": f"q{k}", "moves": moves, "rules": "chinese", "komi": 7.5, "boardXSize": 9, "boardYSize": 9}
        valid["maxVisits"] = rng.randrange(1, 12)
        valid["analyzeTurns"] = sorted(rng.sample(range(len(moves) + 1), rng.randrange(1, min(3, len(moves) + 1) + 1)))
        kind = rng.choice(
            ["query"] * 4
            + ["action", "nan", "number", "deep", "cut", "bytes", "not-object", "no-id", "wrong", "illegal"]
        )
        text = json.dumps(valid)
        if kind == "action":
            name = rng.choice(["query_version", "clear_cache", "terminate"])
            text = json.dumps({"id": f"a{k}", "action": name, "terminateId": "nobody"})
        elif kind == "nan":
            text = text[:-1] + ', "maxTime": ' + rng.choice(["NaN", "Infinity", "-Infinity"]) + "}"
        elif kind == "number":
            text = (
                text[:-1] + ', "maxVisits2": ' + rng.choice(["7" * rng.randrange(101, 6000), "1e400", "-2e999"]) + "}"
            )
        elif kind == "deep":
            depth = rng.randrange(MAX_NESTING + 1, 5000)
            text = text[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
        elif kind == "cut":
            text = text[: rng.randrange(1, len(text) - 1)]
        elif kind == "bytes":
            raw = bytes(rng.choice([b for b in range(256) if b != 10]) for _ in range(rng.randrange(1, 200)))
            lines.append((kind, b"!" + raw + b"\n"))  # "!": never blank, never JSON
            continue
        elif kind == "not-object":
            text = rng.choice(["[1, 2]", '"query"', "5", "null", "true"])
        elif kind == "no-id":
            text = json.dumps({key: value for key, value in valid.items() if key != "id"})
        elif kind == "wrong":
            key, value = rng.choice(wrong)
            text = json.dumps({**valid, key: value})
        elif kind == "illegal" and moves:
            text = json.dumps({**valid, "moves": [*moves, ["B" if len(moves) % 2 == 0 else "W", moves[0][1]]]})
        elif kind == "illegal":
            kind = "query"
        lines.append((kind, text.encode() + b"\n"))
    lines.insert(count // 2, ("too-long", b'{"id": "huge", "pad": "' + b"z" * (MAX_LINE_BYTES + 10) + b'"}\n'))
    return lines


def peak_memory_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1]) / 1024
    raise AssertionError("no VmHWM")


@pytest.mark.slow
def test_fuzz_every_line_gets_its_answer_or_one_error_and_memory_stays_bounded():
    """1,500 seeded lines (``fuzz_lines``) through ``goengine analysis`` over pipes, one line of
    16 MB and more among them: stdout holds only JSON objects; every valid query gets one final
    response a turn, every action its echo, every hostile line exactly one error; the process
    never grows past 200 MB over its size before the input (before, a 50 MB line was read,
    stripped, parsed and quoted whole)."""
    rng = random.Random(46)
    lines = fuzz_lines(rng, FUZZ_LINES)
    process = subprocess.Popen(
        [sys.executable, "-m", "goengine", "analysis", "--threads", "1", "--playouts", "8"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    first = process.stdout  # the version's answer says the engine is up; its size then is the base
    process.stdin.write(b'{"id": "up", "action": "query_version"}\n')
    process.stdin.flush()
    assert json.loads(first.readline())["id"] == "up"
    base = peak_memory_mb(process.pid)
    answers: list[dict] = []
    reader = threading.Thread(target=lambda: answers.extend(json.loads(line) for line in first))
    reader.start()
    for _, data in lines:
        process.stdin.write(data)
    process.stdin.write(b'{"id": "last", "action": "query_version"}\n')
    process.stdin.flush()
    deadline = time.monotonic() + 600
    while not any(a.get("id") == "last" for a in list(answers)) and time.monotonic() < deadline:
        time.sleep(0.2)
    peak = peak_memory_mb(process.pid)
    process.stdin.close()
    assert process.wait(timeout=600) == 0
    reader.join()
    assert all(isinstance(a, dict) for a in answers)
    hostile = [kind for kind, _ in lines if kind not in ("query", "action")]
    assert len([a for a in answers if "error" in a]) == len(hostile)
    assert len(set(hostile)) == 10  # every hostile kind, the line too long included
    actions = [json.loads(data)["id"] for kind, data in lines if kind == "action"]
    assert sorted(a["id"] for a in answers if "action" in a and "error" not in a) == sorted([*actions, "last"])
    for kind, data in lines:
        if kind == "query":
            request = json.loads(data)
            finals = [
                a["turnNumber"] for a in answers if a.get("id") == request["id"] and a.get("isDuringSearch") is False
            ]
            assert sorted(finals) == request["analyzeTurns"], request["id"]
    assert peak - base < 200, f"{peak - base:.0f} MB over the {base:.0f} MB it had before the input"
