"""The tactical benchmark's reading of GNU Go's regression files (``goengine.lab.regression``):
which commands build a position and which are tests, how an answer is judged, the families and the
fixed held-out half; then one test run against goengine over GTP. The command that runs a suite
is ``tests/test_lab_tactics_benchmark.py``'s."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from helpers import write_suite

from goengine.lab.client import GtpClient
from goengine.lab.regression import (
    WHOLE_BOARD,
    RegressionTest,
    family_of,
    held_out,
    judge,
    load_suite,
    parse_file,
    run_test,
    seed_of,
)

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "data" / "regression"

TST = """\
# a comment
loadsgf games/a.sgf 12
1 reg_genmove black
#? [C3|D4]

trymove white E5
2 gg_genmove white 7
#? [!E6]*
popgo
3 owl_attack E5
#? [1 E6]
black F6
4 reg_genmove white
#? [PASS]
boardsize 7
clear_board
increase_depths
5 reg_genmove black
#? [!(A1|B2)]
"""


def test_a_file_gives_each_move_test_with_the_commands_that_build_its_position(tmp_path):
    path = tmp_path / "semeai.tst"
    path.write_text(TST)
    parsed = parse_file(path)
    assert [(t.number, t.color, t.pattern, t.gnugo_failed) for t in parsed.tests] == [
        (1, "black", "C3|D4", False),
        (2, "white", "!E6", True),
        (4, "white", "PASS", False),
        (5, "black", "!(A1|B2)", False),
    ]
    setups = [t.setup for t in parsed.tests]
    assert setups[0] == ("loadsgf games/a.sgf 12",)
    assert setups[1] == ("loadsgf games/a.sgf 12", "play white E5")  # trymove is a play
    # popgo takes the tentative move back; GNU Go's "black F6" is a play
    assert setups[2] == ("loadsgf games/a.sgf 12", "play white E5", "undo", "play black F6")
    assert setups[3] == ("boardsize 7", "clear_board")  # clear_board keeps the size set before it
    assert parsed.skipped == {"owl_attack": 1}
    assert {t.family for t in parsed.tests} == {"capturing races"}


def test_a_test_without_its_expected_answer_is_refused_with_file_and_line(tmp_path):
    path = tmp_path / "x.tst"
    path.write_text("loadsgf a.sgf\n1 reg_genmove black\n\n\n2 reg_genmove white\n#? [A1]\n")
    with pytest.raises(ValueError, match=r"x\.tst:2: test 1 has no readable"):
        parse_file(path)


@pytest.mark.parametrize(
    ("pattern", "answer", "passes"),
    [
        ("C3|D4", "D4", True),
        ("C3|D4", "d4", True),  # GTP vertices in any case
        ("C3", "C13", False),  # the whole answer, not a part of it
        ("C3|D4", "E5", False),
        ("!C3", "E5", True),
        ("!C3", "C3", False),
        ("!(C3|D4)", "D4", False),
        ("!(C3|D4)", "A1", True),
        ("PASS", "pass", True),
        ("!PASS", "PASS", False),
        ("C3", "resign", False),
    ],
)
def test_an_answer_passes_when_the_pattern_matches_it_whole_or_with_a_bang_does_not(pattern, answer, passes):
    assert judge(pattern, answer) is passes


def test_the_families_come_from_the_file_names_or_the_maintainers_tag_of_a_fight():
    assert family_of("semeai.tst") == "capturing races"
    assert family_of("data/regression/seki.tst") == "seki"
    assert family_of("goengine-life-and-death.tst") == "life and death"
    assert family_of("nngs3.tst") == WHOLE_BOARD
    assert family_of("nngs3.tst", "OWL_TUNING") == "life and death"
    assert family_of("trevor.tst", "OWL_TUNING+KO") == "life and death"  # the first word decides
    assert family_of("trevor.tst", "KO_THREATS") == "ko"
    assert family_of("9x9.tst", "FUSEKI_STRATEGY") == "9x9"  # strategy leaves the file's family


def test_a_category_tag_belongs_to_the_next_test_only(tmp_path):
    path = tmp_path / "nngs.tst"
    path.write_text("# CATEGORY=SEMEAI\nloadsgf a.sgf\n1 reg_genmove black\n#? [A1]\n2 reg_genmove white\n#? [B1]\n")
    first, second = parse_file(path).tests
    assert (first.category, first.family) == ("SEMEAI", "capturing races")
    assert (second.category, second.family) == ("", WHOLE_BOARD)


def test_the_held_out_half_is_fixed_and_about_half_of_the_suite():
    # pinned: the split must never move, or a change could be tuned on the held-out half
    assert [held_out("semeai.tst", n) for n in range(1, 9)] == [held_out("bench/x/semeai.tst", n) for n in range(1, 9)]
    tests, _ = load_suite(SUITE)
    share = sum(t.held_out for t in tests) / len(tests)
    assert 0.45 < share < 0.55
    assert {t.name: t.held_out for t in tests if t.file == "semeai.tst"} == PINNED_SEMEAI


PINNED_SEMEAI = {
    "semeai.tst:29": True,
    "semeai.tst:89": True,
    "semeai.tst:92": True,
    "semeai.tst:95": False,
    "semeai.tst:98": False,
    "semeai.tst:107": True,
    "semeai.tst:132": True,
}


def test_the_shipped_suite_has_every_move_test_of_gnugo_and_the_files_they_load():
    tests, skipped = load_suite(SUITE)
    gnugo = [t for t in tests if not t.file.startswith("goengine-")]
    assert len(gnugo) == 2195
    assert len({t.file for t in gnugo}) == 64
    assert skipped["restricted_genmove"] == 343
    # our own positions (goengine-FAMILY.tst, data/regression/README.md), by family
    ours = Counter(t.family for t in tests if t.file.startswith("goengine-"))
    assert ours == {"ko": 7, "capturing races": 8, "connection": 7, "life and death": 9}
    assert len({t.file for t in tests if t.file.startswith("goengine-")}) == 4
    loaded = {c.split()[1] for t in tests for c in t.setup if c.startswith("loadsgf")}
    assert {f for f in loaded if not (SUITE / f).exists()} == {"games/endgame1.sgf"}  # missing upstream too


def test_each_of_our_own_tests_names_the_source_of_its_position_above_it():
    for path in sorted(SUITE.glob("goengine-*.tst")):
        comment: list[str] = []
        for line in path.read_text().splitlines():
            if line.startswith("#?"):
                continue
            if line.startswith("#"):
                comment.append(line)
            elif "reg_genmove" in line:
                assert any("Source:" in c for c in comment), f"{path.name}: {line}"
                comment = []
            elif not line.startswith("loadsgf"):
                comment = []


# ---- a test run against goengine


def engine() -> GtpClient:
    return GtpClient([sys.executable, "-m", "goengine", "--quiet", "--threads", "1", "--playouts", "300"], timeout=120)


def test_a_test_run_builds_the_position_and_judges_the_move(tmp_path):
    write_suite(tmp_path)
    tests, _ = load_suite(tmp_path)
    with engine() as client:
        records = [run_test(client, test, tmp_path) for test in tests]
        board = client.send("showboard")
    played, passing, missing = records
    assert played["passed"] is True and played["answer"] not in ("PASS", "RESIGN")
    assert passing["passed"] is False and passing["answer"] == played["answer"]  # the same position
    assert played["family"] == "tactics" and played["test"] == "tactics.tst:1"
    assert "error" in missing and "passed" not in missing and missing["error_command"] == "loadsgf"
    assert board.count("X") == 1 and board.count("O") == 1  # reg_genmove played nothing


def test_a_test_from_an_empty_board_gets_a_board_of_19_first(tmp_path):
    test = RegressionTest("x.tst", 1, ("play black D4",), "white", "!D4")
    with engine() as client:
        record = run_test(client, test, tmp_path)
        assert client.send("showboard").splitlines()[0].split() == list("ABCDEFGHJKLMNOPQRST")
    assert record["passed"] is True


def test_a_seeded_test_gets_its_own_seed_whatever_ran_before_it(tmp_path):
    """Each test's seed is set before it (``seed_of``, from its name), so a test run after
    another gives the answer it gives alone."""
    write_suite(tmp_path)
    first, second, _ = load_suite(tmp_path)[0]
    with engine() as client:
        alone = run_test(client, first, tmp_path, seeded=True)
        run_test(client, second, tmp_path, seeded=True)
        again = run_test(client, first, tmp_path, seeded=True)
        page = client.send("goengine-params")
    assert alone["answer"] == again["answer"]
    assert f"random_seed {seed_of(first.name)}" in page
    assert seed_of(first.name) != seed_of(second.name) and 0 <= seed_of(first.name) < 2**31
