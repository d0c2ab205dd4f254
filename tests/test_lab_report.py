"""The result table (``goengine.lab.report``): the text and the Markdown tables hold the same cells."""

from __future__ import annotations

from match_harness import (
    hand_record,
)

from goengine.lab import report
from goengine.lab.stats import elo, wilson


def test_table_text_and_markdown_hold_the_same_cells():
    records = [
        hand_record("a", 0, True),
        hand_record("a", 1, False, reason="resignation"),
        hand_record("a", 2, None, reason="two passes, draw"),
        hand_record("a", 3, True, disagree=True),
        hand_record("a", 4, None, void="GtpTimeout: no response"),
        hand_record("a", 4, True),
    ]
    lo, hi = wilson(3.5, 5)
    expected = [
        "a",
        "5",
        "70.0%",
        f"[{100 * lo:.1f}, {100 * hi:.1f}]",
        f"[{elo(lo):+.0f}, {elo(hi):+.0f}]",
        "83%/3",
        "50%/2",
        "10.0",
        "0.20",
        "0.40",  # the longest move
        "0.10",
        "1",
        "1",
    ]
    markdown = report.format_table(records, markdown=True).splitlines()
    assert markdown[0].startswith("| configuration | games | win % |")
    assert set(markdown[1].replace(" ", "")) == {"|", "-"}
    assert [cell.strip() for cell in markdown[2].strip("|").split("|")] == expected
    text = report.format_table(records).splitlines()
    assert text[0].split()[:3] == ["configuration", "games", "win"]
    row = text[1]
    for cell in expected:
        assert cell in row
    assert row.split()[:3] == ["a", "5", "70.0%"]


def clocked(config, engine_black, engine_times, opponent_times, size=5, void=None):
    """A record of a game under a 60 s clock, with each side's time per move."""
    record = hand_record(config, 0 if engine_black else 1, True, void=void)
    engine, opponent = ("black", "white") if engine_black else ("white", "black")
    record.update(size=size, time="60")
    record[engine] = {"times": engine_times}
    record[opponent] = {"times": opponent_times}
    return record


def test_time_profile_splits_each_sides_moves_into_stages_of_an_eighth_of_the_board():
    # 5x5: a stage is 25 // 8 = 3 of a side's own moves; the fourth stage takes all the rest
    records = [
        clocked("a", True, [1, 2, 3, 4, 4, 4, 1, 1, 1, 9, 9, 9, 9], [0.5] * 3),
        clocked("a", False, [3, 3, 3, 2], [1.0] * 7),
        clocked("a", False, [100.0], [100.0], void="GtpTimeout: no response"),  # void: not counted
        hand_record("b", 0, True),  # no clock: no row
    ]
    header, rows = report.time_profile_cells(records)
    assert header == ("configuration", "games", "clock used", "its moves 1-3", "4-6", "7-9", "10+")
    # stage 1: 1, 2, 3 and 3, 3, 3 -> 15 / 6; stage 2: 4, 4, 4 and 2 -> 14 / 4; then 1, 1, 1; 9 x 4
    assert rows == [
        ("a", "2", f"{(57 + 11) / 2:.1f} s", "2.50", "3.50", "1.00", "9.00"),
        ("a's opponent", "2", f"{(1.5 + 7) / 2:.1f} s", f"{(1.5 + 3) / 6:.2f}", "1.00", "1.00", "-"),
    ]
    assert report.time_stage_length(19) == 45 and report.time_stage_length(9) == 10
    markdown = report.format_time_profile(records, markdown=True).splitlines()
    assert markdown[0] == "| configuration | games | clock used | its moves 1-3 | 4-6 | 7-9 | 10+ |"
    assert markdown[2] == "| a | 2 | 34.0 s | 2.50 | 3.50 | 1.00 | 9.00 |"
    assert "(60)" in markdown[-1]


def test_no_time_profile_without_a_game_under_a_clock():
    records = [hand_record("a", 0, True), hand_record("a", 1, False)]
    assert report.time_profile_cells(records) == ((), [])
    assert report.format_time_profile(records) == ""


def test_endings_count_each_way_a_won_lost_or_drawn_game_ended_and_their_lengths():
    records = [
        hand_record("a", 0, True, reason="resignation", n_moves=40),
        hand_record("a", 1, True, reason="time: white's flag fell", n_moves=61),
        hand_record("a", 2, True, reason="two passes", n_moves=81),
        hand_record("a", 3, False, reason="resignation", n_moves=50),
        hand_record("a", 4, False, reason="illegal move 'Z9' by black: off the board", n_moves=5),
        hand_record("a", 5, None, void="GtpTimeout: no response"),  # void: not counted
        hand_record("b", 0, None, reason="two passes, draw", n_moves=70),
        hand_record("b", 1, False, reason="move cap 400", n_moves=400),
    ]
    header, rows = report.endings_cells(records)
    assert header == (
        "configuration", "games", "resignation", "count", "time", "illegal move", "move cap", "median moves", "moves"
    )  # fmt: skip
    assert rows == [
        ("a: won", "3", "1", "1", "1", "0", "0", "61", "40-81"),
        ("a: lost", "2", "1", "0", "0", "1", "0", "27.5", "5-50"),
        ("b: won", "0", "0", "0", "0", "0", "0", "-", "-"),
        ("b: lost", "1", "0", "0", "0", "0", "1", "400", "400-400"),
        ("b: drawn", "1", "0", "1", "0", "0", "0", "70", "70-70"),
    ]
    markdown = report.format_endings(records, markdown=True).splitlines()
    assert markdown[2] == "| a: won | 3 | 1 | 1 | 1 | 0 | 0 | 61 | 40-81 |"
    assert report.format_endings([hand_record("a", 0, None, void="crashed")]) == ""
