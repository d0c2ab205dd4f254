"""GoGui's analyze commands (``goengine.gtp.gogui``): every command's answer has the type GoGui
reads, the board's labels are few (moves searched enough) and short (four characters), and they
come from the search's result."""

from __future__ import annotations

import re

import pytest

from goengine import coords
from goengine.calibration import reported
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine
from goengine.gtp.gogui import ANALYZE_COMMANDS, labelled, visits_label
from goengine.result import MoveStats


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
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=3000, seed=2)))
    gtp = GtpEngine(engine)
    visits = gtp.send("goengine-visits b")
    pairs = re.findall(r" ([A-HJ][1-9]) (\S+)", visits)
    assert pairs and all(len(label) <= 4 for _, label in pairs)
    # the same search again from a fresh engine of the same seed: the result the labels came from
    twin = Engine(EngineConfig(size=9, search=SearchConfig(playouts=3000, seed=2)))
    stats = {coords.to_gtp(9, s.move): s.visits for s in twin.analyze().stats}
    most = max(stats.values())
    for vertex, label in pairs:
        assert stats[vertex] >= max(10, 0.01 * most) and label == visits_label(stats[vertex])
    rates = re.findall(r" ([A-HJ][1-9]) (\d+)", gtp.send("goengine-winrates b"))  # the search goes on
    again = twin.analyze()
    stats = {coords.to_gtp(9, s.move): s for s in again.stats}
    most = max(s.visits for s in stats.values())
    assert rates and all(stats[v].visits >= max(10, 0.01 * most) for v, _ in rates)
    # the rates as every analysis shows them: calibrated (goengine.calibration)
    shown = {v: reported(s.winrate, again.size, again.moves_played) for v, s in stats.items()}
    assert all(int(rate) == round(100 * shown[v]) for v, rate in rates)


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
