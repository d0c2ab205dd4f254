"""The analysis output a player sees in GoGui and Sabaki: board labels that fit a point, no label
for a move searched too little to mean anything, the analyze commands' types, Leela Zero's
``prior`` field (left out with no prior, the real share with one), and KataGo's ``kata-analyze``
on settled positions whose score and owners are known exactly: the sign for each side, the order
of the ownership values, what is left out unless asked for, and the arguments refused."""

from __future__ import annotations

import re

import gtp_spec
import pytest
from helpers import SETTLED, set_up

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.streaming import analysis_request, info_line, kata_line
from goengine.result import MoveStats, SearchResult


def vertex9(p: int) -> str:
    return coords.to_gtp(9, p)


def request_of(args: list[str], kata: bool = False):
    return analysis_request(args, BLACK, need_color=False, kata=kata)


def test_lz_analyze_leaves_out_prior_without_one_and_reports_the_share_with_one():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=500, playout="uniform", prior="none")))
    result = engine.analyze()
    engine.close()
    line = info_line(result, request_of([]), vertex9)
    assert re.fullmatch(rf"{gtp_spec.LZ_INFO}( {gtp_spec.LZ_INFO})*", line)
    assert " prior " not in line and all(s.prior == 0 for s in result.stats)
    # a result whose first two moves hold 75 % and 25 % of the prior: 7500 and 2500, the rest 0
    given = SearchResult(
        color=BLACK,
        stats=(
            MoveStats(40, 30, 15.0, prior=0.75, pv=(40, 41)),
            MoveStats(41, 20, 12.0, prior=0.25, pv=(41,)),
            MoveStats(42, 10, 2.0, pv=(42,)),
        ),
    )
    shares = {
        m.group(1): int(m.group(2))
        for m in re.finditer(
            r"info move (\S+) visits \d+ winrate \d+ prior (\d+)", info_line(given, request_of([]), vertex9)
        )
    }
    assert shares == {vertex9(40): 7500, vertex9(41): 2500, vertex9(42): 0}


def test_lz_analyze_reports_the_heuristic_priors_share():
    """The default prior's virtual visits reach ``prior``: each move's share of them, in 1/10000."""
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=300, prior="heuristic")))
    engine.game.play(BLACK, "E5")
    result = engine.analyze()
    line = info_line(result, analysis_request([], WHITE, False, False), vertex9)
    shares = {
        m.group(1): int(m.group(2)) for m in re.finditer(r"info move (\S+) visits \d+ winrate \d+ prior (\d+)", line)
    }
    given = engine._search.reader.root_prior()
    total = sum(v for v, _ in given.values())
    assert shares and total > 0
    for vertex, share in shares.items():
        visits = given[coords.from_gtp(9, vertex)][0]
        assert abs(share - 10000 * visits / total) <= 1, vertex
    # moves next to the last one get the near-last-move bonus, so a larger share than a far corner
    assert given[coords.from_gtp(9, "E6")][0] > given[coords.from_gtp(9, "A9")][0]
    engine.close()


# ---- KataGo's kata-analyze: exact formats on a position whose answer is known


def settled_line(color: str, *keys: str) -> str:
    """The one report of ``kata-analyze`` on SETTLED, where every empty point is a one-point eye:
    every playout ends with Black 15 points (A-C), White 10 (D-E)."""
    engine = set_up(SETTLED, search=SearchConfig(playouts=200, playout="heavy", expand_at=0))  # all 200 in the tree
    engine.game.set_komi(7.5)
    request = analysis_request([color, "10", *keys], BLACK, need_color=False, kata=True)
    result = engine.analyze(
        request.color, SearchRequest(Budget(playouts=200), ownership=request.ownership or request.ownership_stdev)
    )
    line = kata_line(result, request, lambda p: coords.to_gtp(5, p), 5)
    engine.close()
    return line


def test_kata_analyze_reports_the_score_and_ownership_from_the_side_analysed():
    """Black leads by 15 - 10 - 7.5 = -2.5; White by +2.5. Ownership is a row of five values per
    board row from the top (A5 first), +1 for the side analysed: Black owns columns A-C."""
    black = ["1.000000"] * 3 + ["-1.000000"] * 2
    white = ["-1.000000"] * 3 + ["1.000000"] * 2
    # Black can only pass and lose by 2.5; White wins every playout (lcb: 1 - 1.96 sqrt(1e-9 / 200))
    cases = (("B", "-2.500000", "0.000000", "0.000000", black), ("W", "2.500000", "1.000000", "0.999996", white))
    for color, lead, winrate, lcb, row in cases:
        line = settled_line(color, "ownership", "true", "rootInfo", "true", "ownershipStdev", "true")
        info, rest = line.split(" rootInfo ")
        scores = f"scoreMean {lead} scoreStdev 0.000000 scoreSelfplay {lead} scoreLead {lead}"  # one score: no spread
        assert re.fullmatch(
            rf"info move pass visits 200 winrate {winrate} {scores} prior 1\.000000 lcb {lcb} order 0 pv pass( pass)*",
            info,
        ), info
        root, owners = rest.split(" ownership ", 1)
        assert root == f"visits 200 winrate {winrate} {scores}"
        owner_text, spread_text = owners.split(" ownershipStdev ")
        assert owner_text.split() == row * 5
        assert spread_text.split() == ["0.000000"] * 25


def test_kata_analyze_leaves_out_what_was_not_asked_for():
    line = settled_line("B")
    assert line.startswith("info move pass visits 200 ") and line.count("info ") == 1
    assert "rootInfo" not in line and "ownership" not in line
    assert "ownershipStdev" not in settled_line("W", "ownership", "true") and "ownership " in settled_line(
        "W", "ownership", "1"
    )


SETTLED_ROWS = """
    X X X X X
    . X . X .
    X X X X X
    O O O O O
    . O . O .
"""


def test_kata_analyze_ownership_runs_from_the_top_row_down():
    """SETTLED splits the board by columns (so a mirrored or column-major order would show);
    here Black owns the top three rows, White the bottom two: from White's side, KataGo's order
    (A5 first, row by row down to E1) gives 15 values of -1, then 10 of +1."""
    engine = set_up(SETTLED_ROWS, search=SearchConfig(playouts=100, expand_at=0))
    engine.game.set_komi(7.5)
    request = analysis_request(["W", "ownership", "true"], BLACK, need_color=False, kata=True)
    result = engine.analyze(request.color, SearchRequest(Budget(playouts=100), ownership=True))
    line = kata_line(result, request, lambda p: coords.to_gtp(5, p), 5)
    assert line.split(" ownership ")[1].split() == ["-1.000000"] * 15 + ["1.000000"] * 10
    assert " scoreLead 2.500000 " in line  # 15 - 10 - 7.5 for Black: White leads by 2.5
    engine.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ownership"], "ownership needs a value"),
        (["ownership", "maybe"], "expected true or false, got maybe"),
        (["pvEdgeVisits", "true"], "pvEdgeVisits is not supported"),
        (["movesOwnership", "true"], "movesOwnership is not supported"),
        (["frobnicate", "1"], "unknown analysis key frobnicate"),
        (["maxmoves", "-1"], "maxmoves must not be negative"),
        (["b", "10", "interval", "x"], "syntax error"),
        (["b", "x"], "unknown analysis key x"),
    ],
)
def test_kata_analyze_refuses_bad_arguments_with_a_message(args, message):
    gtp = GtpEngine(Engine(EngineConfig(size=5, search=SearchConfig(playouts=50))))
    answer = gtp.send("kata-analyze " + " ".join(args))
    assert answer.startswith("? ") and message in answer, answer
    assert gtp.send("lz-analyze b 10 ownership true").startswith("? unknown analysis key ownership")


def test_kata_analyze_accepts_what_katago_accepts():
    request = request_of(
        ["white", "25", "pvVisits", "false", "maxmoves", "3", "minmoves", "2", "rootInfo", "TRUE"], True
    )
    assert (request.color, request.interval, request.max_moves, request.root_info) == (WHITE, 0.25, 3, True)
    assert not request.ownership
    assert request_of(["interval", "50"], True).interval == 0.5


def test_maxmoves_caps_the_moves_of_a_report():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=600)))
    result = engine.analyze()
    for kata in (True, False):
        request = request_of(["maxmoves", "2"], kata)
        line = kata_line(result, request, vertex9, 9) if kata else info_line(result, request, vertex9)
        assert line.count("info move ") == 2
    assert kata_line(result, request_of([], True), vertex9, 9).count("info move ") > 2
    engine.close()


# ---- streamed reports: one result each, consistent in itself


def report_fields(line: str) -> tuple[list[tuple[str, int, list[str]]], int]:
    """The moves of one kata-analyze report (vertex, visits, principal variation) and its
    ``rootInfo`` visits."""
    body, root = line.split(" rootInfo ")
    moves = []
    for part in body.split("info move ")[1:]:
        words = part.split()
        moves.append((words[0], int(words[words.index("visits") + 1]), words[words.index("pv") + 1 :]))
    return moves, int(root.split()[1])


@pytest.mark.parametrize("threads", [1, 2])
def test_each_streamed_report_is_one_result_consistent_in_itself(threads):
    """``kata-genmove_analyze`` streams reports while its search runs (on two threads: the tree
    changes under the report). Each line comes from one result: its rootInfo visits are the sum
    of its moves' visits (every visited move is listed), its moves are in order of visits, and
    each principal variation starts with its move; the reports' visits only grow."""
    written = []
    config = SearchConfig(playouts=6000, threads=threads, seed=4)
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=config)), write=written.append)
    assert gtp.send("kata-genmove_analyze b 2 rootInfo true") == "\n"
    lines = [line for text in written for line in text.splitlines() if line.startswith("info ")]
    assert len(lines) >= 2 and "".join(written).count("\nplay ") == 1
    seen = 0
    for line in lines:
        moves, root = report_fields(line)
        assert root == sum(visits for _, visits, _ in moves), line[:200]
        assert [v for _, v, _ in moves] == sorted((v for _, v, _ in moves), reverse=True)
        assert all(pv[0] == vertex for vertex, _, pv in moves)
        assert root >= seen
        seen = root
    gtp.engine.close()
