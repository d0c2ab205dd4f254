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
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.analysis import ANALYZE_COMMANDS, labelled, visits_label
from goengine.kernels import tree as kt
from goengine.search import MoveStats


@pytest.mark.parametrize(
    ("visits", "label"),
    [
        (0, "0"),
        (7, "7"),
        (999, "999"),
        (1000, "1.0k"),
        (1849, "1.8k"),
        (9949, "9.9k"),
        (9960, "10k"),
        (18_400, "18k"),
        (180_400, "180k"),
        (999_499, "999k"),
        (999_500, "1.0M"),
        (1_849_000, "1.8M"),
        (18_000_000, "18M"),
        (180_000_000, "180M"),
    ],
)
def test_visit_labels_fit_in_four_characters(visits, label):
    assert visits_label(visits) == label
    assert len(label) <= 4


def test_moves_with_too_few_visits_get_no_label():
    stats = [MoveStats(move=m, visits=v, wins=v / 2) for m, v in ((20, 5000), (21, 60), (22, 49), (23, 9), (-1, 900))]
    assert [s.move for s in labelled(stats)] == [20, 21]  # 1 % of 5000 is 50; PASS is never on the board
    few = [MoveStats(move=m, visits=v, wins=0) for m, v in ((20, 12), (21, 10), (22, 9), (23, 1))]
    assert [s.move for s in labelled(few)] == [20, 21]  # at least LABEL_MIN_VISITS = 10
    assert labelled([MoveStats(20, 2, 2.0)]) == []  # one or two visits: a 0 or 100 % that means nothing


def test_gogui_labels_come_from_moves_searched_enough():
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=SearchConfig(playouts=3000, seed=2))))
    visits = gtp.send("goengine-visits b")
    pairs = re.findall(r" ([A-HJ][1-9]) (\S+)", visits)
    assert pairs and all(len(label) <= 4 for _, label in pairs)
    stats = {coords.to_gtp(9, s.move): s.visits for s in gtp.engine.search.root_stats()}
    most = max(stats.values())
    for vertex, label in pairs:
        assert stats[vertex] >= max(10, 0.01 * most) and label == visits_label(stats[vertex])
    rates = re.findall(r" ([A-HJ][1-9]) (\d+)", gtp.send("goengine-winrates b"))  # the search goes on
    stats = {coords.to_gtp(9, s.move): s for s in gtp.engine.search.root_stats()}
    most = max(s.visits for s in stats.values())
    assert rates and all(stats[v].visits >= max(10, 0.01 * most) for v, _ in rates)
    assert all(int(rate) == round(100 * stats[v].winrate) for v, rate in rates)


def test_every_analyze_command_has_the_type_its_answer_needs():
    """GoGui shows a ``string`` command's answer in a window, never a ``none`` command's: the final
    score must be ``string``. ``gfx`` answers draw (SQUARE, LABEL, VAR), ``dboard`` answers are
    rows of numbers, ``plist`` answers are points, ``param`` answers are ``[type] key value``;
    a ``string`` command that takes a point (``%p``, GoGui asks for one) is given C2."""
    gtp = GtpEngine(Engine(EngineConfig(size=5, search=SearchConfig(playouts=300))))
    gtp.send("play b c3")
    expected = {
        "gfx": r"(SQUARE|LABEL|VAR|COLOR)( \S+)+(\n(SQUARE|LABEL|VAR|COLOR)( \S+)+)*",
        "dboard": r"(-?[01]\.\d\d ?){5}(\n(-?[01]\.\d\d ?){5}){4}",
        "string": r"[BW]\+\d+(\.\d)?|0|C2: probability .*(\n.*)*",
        "plist": r"([A-E][1-5]( [A-E][1-5])*(\n|$))*",
        "param": r"(\[[^\]]+\] \S+ \S+\n?)+",
    }
    for entry in ANALYZE_COMMANDS:
        kind, label, command = entry.split("/", 2)
        answer = gtp.send(command.replace("%c", "b").replace("%p", "c2"))
        assert answer.startswith("= ") or answer == "=\n\n", (entry, answer)
        assert re.fullmatch(expected[kind], answer[2:].rstrip("\n")), (entry, answer)
    assert "string/Final score/final_score" in ANALYZE_COMMANDS


def test_lz_analyze_leaves_out_prior_without_one_and_reports_the_real_share_with_one():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=500, playout="uniform", prior="none")))
    gtp = GtpEngine(engine)
    analysis = gtp.commands["lz-analyze"].__self__  # the analysis group
    result = engine.analyze()
    line = analysis.info_line(result)
    assert re.fullmatch(rf"{gtp_spec.LZ_INFO}( {gtp_spec.LZ_INFO})*", line)
    assert " prior " not in line
    # a prior that gave the first two children 30 and 10 virtual visits: their shares 7500, 2500
    tree = engine.search.trees[0]
    kids = sorted(tree.children(0), key=lambda ch: -int(tree.ti[kt.VISITS, ch]))  # searched ones
    virtual = {}
    for child, visits in zip(kids[:2], (30, 10), strict=True):
        tree.ti[kt.VISITS, child] += visits
        virtual[int(tree.ti[kt.MOVE, child])] = (visits, 0.0)
    engine.search.root_prior = lambda: virtual
    result = engine.search.result()
    line = analysis.info_line(result)
    shares = {
        m.group(1): int(m.group(2)) for m in re.finditer(r"info move (\S+) visits \d+ winrate \d+ prior (\d+)", line)
    }
    first, second = (coords.to_gtp(9, int(tree.ti[kt.MOVE, c])) for c in kids[:2])
    assert shares[first] == 7500 and shares[second] == 2500
    assert all(v == 0 for k, v in shares.items() if k not in (first, second))
    engine.close()


def test_lz_analyze_reports_the_heuristic_priors_share():
    """The default prior's virtual visits reach ``prior``: each move's share of them, in 1/10000."""
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=300, prior="heuristic")))
    gtp = GtpEngine(engine)
    analysis = gtp.commands["lz-analyze"].__self__
    engine.play(BLACK, "E5")
    result = engine.analyze()
    line = analysis.info_line(result)
    shares = {
        m.group(1): int(m.group(2)) for m in re.finditer(r"info move (\S+) visits \d+ winrate \d+ prior (\d+)", line)
    }
    given = engine.search.root_prior()
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
    engine.set_komi(7.5)
    gtp = GtpEngine(engine)
    analysis = gtp.commands["kata-analyze"].__self__
    request = analysis._analysis_args([color, "10", *keys], need_color=False, kata=True)
    result = engine.analyze(request.color, Budget(playouts=200), ownership=request.ownership or request.ownership_stdev)
    line = analysis.kata_line(result, request)
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
        scores = f"scoreMean {lead} scoreSelfplay {lead} scoreLead {lead}"
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
    engine.set_komi(7.5)
    gtp = GtpEngine(engine)
    analysis = gtp.commands["kata-analyze"].__self__
    request = analysis._analysis_args(["W", "ownership", "true"], need_color=False, kata=True)
    line = analysis.kata_line(engine.analyze(request.color, Budget(playouts=100), ownership=True), request)
    assert line.split(" ownership ")[1].split() == ["-1.000000"] * 15 + ["1.000000"] * 10
    assert " scoreLead 2.500000 " in line  # 15 - 10 - 7.5 for Black: White leads by 2.5
    engine.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ownership"], "ownership needs a value"),
        (["ownership", "maybe"], "expected true or false, got maybe"),
        (["pvVisits", "true"], "pvVisits is not supported"),
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
    gtp = GtpEngine(Engine(EngineConfig(size=5, search=SearchConfig(playouts=50))))
    analysis = gtp.commands["kata-analyze"].__self__
    request = analysis._analysis_args(
        ["white", "25", "pvVisits", "false", "maxmoves", "3", "minmoves", "2", "rootInfo", "TRUE"], False, True
    )
    assert (request.color, request.interval, request.max_moves, request.root_info) == (WHITE, 0.25, 3, True)
    assert not request.ownership
    assert analysis._analysis_args(["interval", "50"], False, True).interval == 0.5


def test_maxmoves_caps_the_moves_of_a_report():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=600)))
    gtp = GtpEngine(engine)
    analysis = gtp.commands["kata-analyze"].__self__
    result = engine.analyze()
    for kata in (True, False):
        request = analysis._analysis_args(["maxmoves", "2"], False, kata)
        line = analysis.kata_line(result, request) if kata else analysis.info_line(result, request)
        assert line.count("info move ") == 2
    assert analysis.kata_line(result, analysis._analysis_args([], False, True)).count("info move ") > 2
    engine.close()
