"""The commands servers and controllers send beside the game (``goengine.gtp.servers``) and
CGOS's analysis (``cgos-genmove_analyze``, in ``goengine.gtp.streaming``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from goengine import coords
from goengine.board import BLACK, WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine, MoveStats, SearchResult
from goengine.gtp import GtpEngine
from goengine.gtp.streaming import CGOS_OWNERSHIP, cgos_json


def gtp_for(**search) -> GtpEngine:
    return GtpEngine(Engine(EngineConfig(size=9, komi=7.5, search=SearchConfig(playouts=100, **search))))


def body(answer: str) -> str:
    assert answer.startswith("= "), answer
    return answer[2:].rstrip("\n")


def test_chat_score_is_the_final_score_in_words():
    gtp = gtp_for()
    for move in ("b e5", "w pass", "b c3"):
        gtp.send(f"play {move}")
    score = gtp.engine.final_score()
    answer = body(gtp.send("kgs-chat private alice score"))
    assert answer == f"Black leads by {abs(score):g} by an area count, komi included, if play stopped here."
    assert score > 0  # two black stones, nothing white: Black's board less 7.5


@pytest.mark.parametrize("message", ["", "Hi", "help me", "ΣΩ", "score"])
def test_chat_never_fails_on_what_a_player_writes(message):
    gtp = gtp_for()
    assert gtp.send(f"kgs-chat game bob x {message}").startswith("= ")


def test_clear_cache_makes_the_next_search_start_from_nothing():
    gtp = gtp_for(seed=4)
    gtp.send("play b e5")
    gtp.send("reg_genmove w")
    kept = gtp.engine.analyze(WHITE).visits  # the tree of the move before is reused
    gtp.send("clear_cache")
    fresh = gtp.engine.analyze(WHITE).visits
    assert fresh < kept


@pytest.mark.parametrize("command", ["stop", "kgs-game_over"])
def test_stop_and_game_over_end_pondering(command):
    gtp = gtp_for(ponder=True)
    gtp.send("play b e5")
    assert gtp.engine.start_pondering() and gtp.engine.ponderer.active
    assert gtp.send(command) == "=\n\n"
    assert not gtp.engine.ponderer.active
    gtp.engine.close()


def test_cgos_json_is_from_the_movers_side_with_its_ownership_string():
    size = 9
    p = lambda v: coords.from_gtp(size, v)  # noqa: E731
    owner = np.zeros((size + 2) ** 2)
    owner[p("A9")] = 1.0  # Black's
    owner[p("B9")] = -1.0  # White's
    stats = (MoveStats(p("E5"), 30, 12.0, prior=0.4, score_lead=-2.5, pv=(p("E5"), p("D4"))),)
    result = SearchResult(color=WHITE, komi=7.5, stats=stats, ownership=owner, ownership_stdev=owner * 0)
    answer = json.loads(cgos_json(result, lambda m: coords.to_gtp(size, m), size))
    assert answer["moves"] == [{"move": "E5", "visits": 30, "winrate": 0.4, "score": -2.5, "prior": 0.4, "pv": "E5 D4"}]
    assert (answer["winrate"], answer["visits"]) == (0.4, 30)
    # White moves: A9 is the opponent's ('A'), B9 White's own ('+'), the rest even (the middle)
    assert answer["ownership"][:2] == "A+" and set(answer["ownership"][2:]) == {CGOS_OWNERSHIP[31]}
    assert len(answer["ownership"]) == 81
    black = SearchResult(color=BLACK, komi=7.5, stats=stats, ownership=owner, ownership_stdev=owner * 0)
    assert json.loads(cgos_json(black, lambda m: coords.to_gtp(size, m), size))["ownership"][:2] == "+A"


def test_cgos_genmove_analyze_plays_the_move_it_reports():
    gtp = gtp_for()
    lines = body(gtp.send("cgos-genmove_analyze b")).split("\n")
    analysis, play = json.loads(lines[0]), lines[1]
    assert play.startswith("play ")
    move = play.split()[1]
    assert gtp.engine.game.moves[-1] == (BLACK, coords.from_gtp(9, move))
    assert analysis["moves"][0]["move"] == move  # the most visited, which genmove plays here
