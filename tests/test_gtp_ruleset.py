"""The rules commands (``goengine.gtp.ruleset``): what ``kata-set-rules`` and ``kgs-rules`` change
in the game (the handicap bonus, hence the komi the search and the count use), what they log, and
what they leave alone."""

from __future__ import annotations

import json

import pytest

from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import GtpEngine


def gtp_with_log(**config) -> tuple[GtpEngine, list[str]]:
    logged: list[str] = []
    engine = Engine(EngineConfig(size=9, komi=6.5, search=SearchConfig(playouts=50), **config))
    return GtpEngine(engine, log=logged.append), logged


@pytest.mark.parametrize(("rules", "bonus"), [("chinese", 4.0), ("aga", 3.0), ("tromp-taylor", 0.0)])
def test_set_rules_makes_the_handicap_bonus_part_of_the_scoring_komi(rules, bonus):
    gtp, _ = gtp_with_log()
    gtp.send("fixed_handicap 4")
    assert gtp.send(f"kata-set-rules {rules}") == "=\n\n"
    assert gtp.engine.game.scoring_komi == 6.5 + bonus
    assert gtp.send("get_komi") == "= 6.5\n\n"


def test_the_command_line_bonus_is_the_games_until_rules_change_it():
    gtp, _ = gtp_with_log(white_handicap_bonus="N")
    assert json.loads(gtp.send("kata-get-rules")[2:])["whiteHandicapBonus"] == "N"
    gtp.send("kgs-rules new_zealand")
    assert json.loads(gtp.send("kata-get-rules")[2:])["whiteHandicapBonus"] == "0"


def test_the_difference_of_accepted_rules_is_logged_and_a_refusal_changes_nothing():
    gtp, logged = gtp_with_log()
    gtp.send("kata-set-rules aga")
    assert logged == ["rules aga: goengine plays positional superko, not situational ko"]
    before = gtp.engine.game.rules
    assert gtp.send("kata-set-rules martian").startswith("? unknown rules 'martian'")
    assert gtp.send('kata-set-rules {"scoring": "SQUARES"}').startswith("? rules option scoring must be one of")
    assert gtp.engine.game.rules == before


@pytest.mark.parametrize("command", ["kata-set-rules japanese", "kata-set-rules korean", "kgs-rules japanese"])
def test_territory_rules_are_accepted_played_by_area_and_the_count_said(command):
    gtp, logged = gtp_with_log()
    assert gtp.send(command).startswith("=")
    assert json.loads(gtp.send("kata-get-rules")[2:])["scoring"] == "AREA"  # what goengine plays
    assert any("goengine counts by area, not territory" in line for line in logged)


def test_the_rules_last_through_a_new_game():
    gtp, _ = gtp_with_log()
    gtp.send("kata-set-rules chinese")
    gtp.send("boardsize 13")
    gtp.send("clear_board")
    assert json.loads(gtp.send("kata-get-rules")[2:])["whiteHandicapBonus"] == "N"
