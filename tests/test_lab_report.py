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
