"""``GtpEngine`` and ``serve`` (``goengine.gtp.front``): the package hands them out on first use
without loading them at its own import; a move's round trip is charged to its player's clock once
its answer has left, and only a command that played a move is; each genmove is logged with its
search's summary; ``serve`` stops the engine's threads when the session ends. The table's
contents are ``test_gtp_group.py``'s, the framing ``test_gtp_protocol.py``'s."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from goengine import gtp
from goengine.board import WHITE
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.gtp import front

TINY = EngineConfig(size=5, search=SearchConfig(playouts=30, seed=4))


def test_the_package_hands_out_the_front_ends_objects_and_refuses_other_names():
    assert gtp.GtpEngine is front.GtpEngine and gtp.serve is front.serve and gtp.GROUPS is front.GROUPS
    with pytest.raises(AttributeError, match="has no attribute 'GtpEngin'"):
        _ = gtp.GtpEngin


def test_importing_the_package_loads_neither_the_front_end_nor_the_engine():
    code = "import sys, goengine.gtp; print([m for m in ('goengine.gtp.front', 'goengine.engine') if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_a_moves_round_trip_is_charged_to_its_player_once_its_answer_has_left(monkeypatch):
    engine = Engine(TINY)
    charged = []
    monkeypatch.setattr(engine, "move_answered", lambda color, seconds: charged.append((color, seconds)))
    front_end = front.GtpEngine(engine)
    front_end.send("name")
    front_end.answered(1.0, 1.5)
    assert charged == []  # no move played: nobody's clock runs
    assert front_end.send("genmove w").startswith("= ")
    assert charged == []  # not before the answer has left
    front_end.answered(10.0, 12.25)
    front_end.answered(13.0, 14.0)  # a later line charges nothing more
    assert charged == [(WHITE, 2.25)]
    engine.close()


def test_each_genmove_is_logged_with_its_searchs_summary():
    logged = []
    engine = Engine(TINY)
    front_end = front.GtpEngine(engine, log=logged.append)
    answer = front_end.send("genmove b").removeprefix("= ").strip()
    (line,) = logged
    assert re.fullmatch(
        rf"B {answer} \(\w[\w ]*\); 30 playouts in \d+\.\d\d s, \d+ nodes; ([A-E][1-5]|pass) \d+ [01]\.\d{{3}}(, .*)?",
        line,
    ), line
    engine.close()


def test_serve_stops_the_engines_threads_when_the_session_ends(monkeypatch):
    engine = Engine(TINY)
    closed = []
    real_close = engine.close
    monkeypatch.setattr(engine, "close", lambda: closed.append(True) or real_close())
    out = io.StringIO()
    assert front.serve(engine, stdin=io.StringIO("1 name\n"), stdout=out) == 0
    assert out.getvalue() == "=1 goengine\n\n" and closed == [True]
