"""``scripts/calibration.py``: the positions it draws, the figures it reads out of a game record,
and the reliability table and Brier score it computes, against hand-computed values."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "calibration.py"
spec = importlib.util.spec_from_file_location("calibration_script", SCRIPT)
calibration = importlib.util.module_from_spec(spec)
sys.modules["calibration_script"] = calibration
spec.loader.exec_module(calibration)


def record(**fields):
    base = {
        "config": "default",
        "index": 3,
        "size": 9,
        "komi": 7.5,
        "moves": ["B E5", "W C4", "B D6", "W F4", "B pass", "W pass"],
        "winner": "W",
        "black": {"evaluations": []},
        "white": {"evaluations": []},
    }
    return {**base, **fields}


def test_the_positions_drawn_are_distinct_in_the_game_and_the_same_every_time():
    r = record()
    drawn = calibration.drawn_moves(r, 4)
    assert drawn == calibration.drawn_moves(r, 4) == sorted(set(drawn)) and len(drawn) == 4
    assert all(0 <= m < len(r["moves"]) for m in drawn)
    assert calibration.drawn_moves(r, 10) == list(range(6))  # a short game gives every position
    assert calibration.drawn_moves(record(index=4), 4) != drawn or calibration.drawn_moves(record(index=5), 4) != drawn


def test_the_figures_an_engine_reported_are_read_move_by_move_from_the_movers_side():
    # White reported on its three moves (the second could not be read); Black nothing
    r = record(white={"evaluations": [[0.6, 2.0, 100], None, [0.9, 12.5, 300]]}, area_score=-12.5)
    samples = calibration.reported_samples("folder", r)
    assert [(s["move"], s["to_move"], s["winrate"], s["won"], s["final_lead"]) for s in samples] == [
        (1, "W", 0.6, True, 12.5),
        (5, "W", 0.9, True, 12.5),
    ]
    assert all(s["reported"] and s["game"] == "default#3" for s in samples)


def test_the_reliability_table_and_the_brier_score_by_hand():
    samples = [
        {"winrate": 0.12, "won": False},
        {"winrate": 0.18, "won": True},
        {"winrate": 0.75, "won": True},
        {"winrate": 1.0, "won": True},  # the top bin holds 1.0
    ]
    assert calibration.reliability(samples) == [
        (2, pytest.approx(0.15), 0.5),
        (1, 0.75, 1.0),
        (1, 1.0, 1.0),
    ]
    # (0.12^2 + 0.82^2 + 0.25^2 + 0) / 4
    assert calibration.brier(samples) == pytest.approx((0.0144 + 0.6724 + 0.0625) / 4)


def test_the_stages_are_eighths_of_the_board():
    assert [calibration.stage(9, m) for m in (0, 9, 10, 29, 30, 80)] == [0, 0, 1, 2, 3, 3]
    assert calibration.stage_names(19) == ["moves 0-44", "moves 45-89", "moves 90-134", "moves 135+"]
