"""The review's picture (``goengine.review.plot``): a PNG drawn for a game, mistakes marked; and
without matplotlib, the message that names the extra to install."""

from __future__ import annotations

import sys

import pytest

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.review.evaluate import Evaluation
from goengine.review.losses import curve, review_moves
from goengine.review.plot import INSTALL, draw, needs_matplotlib

pytest.importorskip("matplotlib")


def test_draw_writes_a_png_of_the_game_with_its_mistakes(tmp_path):
    size = 9
    moves = [
        (BLACK, coords.from_gtp(size, "E5")),
        (WHITE, coords.from_gtp(size, "A1")),
        (BLACK, coords.from_gtp(size, "C3")),
    ]
    rates = [0.5, 0.45, 0.9, 0.85]
    evaluations = [
        Evaluation(BLACK if k % 2 == 0 else WHITE, rate if k % 2 == 0 else 1 - rate, 0.0, moves[0][1], (), 10)
        for k, rate in enumerate(rates)
    ]
    reviews = review_moves(moves, evaluations, first_number=5)
    path = tmp_path / "game-review.png"
    path.write_bytes(draw("game.sgf", size, curve(evaluations, reviews), 5, [reviews[1]]))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_without_matplotlib_the_message_names_the_plot_extra(monkeypatch):
    assert needs_matplotlib() is None
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    message = needs_matplotlib()
    assert INSTALL in message and "pip install matplotlib" in message and "--no-plot" in message
