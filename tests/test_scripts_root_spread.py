"""``scripts/root_spread.py``: the bonuses against the papers' formulas worked by hand, and the
root's spread against the search's own statistics."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from goengine.config import Budget, SearchRequest
from goengine.engine import Engine
from goengine.game import Setup
from goengine.lab.gamefiles import record_position

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "root_spread.py"
spec = importlib.util.spec_from_file_location("root_spread", SCRIPT)
root_spread = importlib.util.module_from_spec(spec)
sys.modules["root_spread"] = root_spread
spec.loader.exec_module(root_spread)


def test_bonuses_are_the_seed_formulas():
    """Fijalkowski and Burczaniuk 2020 (seed 004_b7bcabfe495e5caa.txt), eq. 1-4, for a child with
    half its visits won: UCB1 ``c sqrt(ln t / n)``; UCB-Minimal ``C1 / n^C2``; UCB-V
    ``sqrt(2 x(1-x) e / n) + 3 c e / n`` with ``e = zeta ln t``."""
    t = 3000
    ucb1 = root_spread.config_of("--rule ucb1 --param c=2", seed=1)
    minimal = root_spread.config_of("--rule ucb-minimal --param c1=11 --param c2=1", seed=1)
    ucbv = root_spread.config_of("--rule ucb-v --param c=1.4 --param zeta=0.5", seed=1)
    for n in (1, 10, 100, 1000):
        assert root_spread.bonus(ucb1, n, t) == pytest.approx(2 * math.sqrt(math.log(t) / n))
        assert root_spread.bonus(minimal, n, t) == pytest.approx(11 / n)
        e = 0.5 * math.log(t)
        assert root_spread.bonus(ucbv, n, t) == pytest.approx(math.sqrt(2 * 0.25 * e / n) + 1.4 * 3 * e / n)
    # UCB-V explores more than UCB1 (c = 2) on a child of few visits, less on one of many
    assert root_spread.bonus(ucbv, 10, t) > root_spread.bonus(ucb1, 10, t)
    assert root_spread.bonus(ucbv, 1000, t) < root_spread.bonus(ucb1, 1000, t)


def test_config_is_the_commands_with_one_thread_and_a_fresh_tree():
    config = root_spread.config_of("--rule ucb-v --param c=2 --threads 4 --ponder", seed=7)
    assert config.search.rule == "ucb-v" and dict(config.search.params)["c"] == 2.0
    assert (config.search.threads, config.search.reuse_tree, config.search.ponder, config.search.seed) == (
        1,
        False,
        False,
        7,
    )
    with pytest.raises(SystemExit, match="no-such-rule"):
        root_spread.config_of("--rule no-such-rule", seed=1)


def _spread(options: str, playouts: int) -> tuple[float, int, int]:
    engine = Engine(dataclasses.replace(root_spread.config_of(options, seed=3), size=9))
    engine.load_position(Setup.from_sgf(record_position(_record(0, ["B E5", "W C3"]), 2)))
    result = engine.analyze(request=SearchRequest(Budget(playouts=playouts)))
    searched = sum(s.visits for s in result.stats)
    share, wide = root_spread.root_spread(result)
    engine.close()
    return share, wide, searched


def test_the_less_a_rule_explores_the_more_its_root_visits_gather():
    """At 1000 playouts on a 9x9 opening: UCB1 (c = 2) spreads its visits over most of the
    root's children, UCB-Minimal (11, 1), whose bonus falls as 1/n, gathers them more, and the
    default RAVE (no bonus) most. The shares are of searched visits only: 999 of 1000, the first
    playout having ended at the root before it was expanded, the prior's virtual visits left
    out."""
    ucb1 = _spread("--rule ucb1 --param c=2", 1000)
    minimal = _spread("--rule ucb-minimal --param c1=11 --param c2=1", 1000)
    default = _spread("", 1000)
    assert ucb1[2] == minimal[2] == default[2] == 1000 - 1
    assert ucb1[0] < minimal[0] < default[0] <= 1.0
    assert ucb1[1] > minimal[1] > default[1] >= 1
    assert ucb1[1] >= 40  # of 79 legal moves and the pass


def _record(index, moves):
    return {"index": index, "size": 9, "komi": 7.5, "moves": moves, "void": None}


def test_tables_have_a_row_a_configuration(tmp_path, capsys):
    (tmp_path / "games.jsonl").write_text(json.dumps(_record(0, ["B E5", "W C3", "B G7"])) + "\n")
    configs = ["--config", "u=--rule ucb1 --param c=2", "--config", "m=--rule ucb-minimal --param c1=11 --param c2=1"]
    assert root_spread.main([str(tmp_path), "--games", "1", "--moves", "0,2", "--playouts", "200", *configs]) == 0
    out = capsys.readouterr().out.splitlines()
    bonus_rows = [line for line in out if line.startswith("| u |") or line.startswith("| m |")]
    assert len(bonus_rows) == 4  # two tables
    assert "| m | 11.000 | 1.100 | 0.110 | 0.011 |" in out
    assert "2 positions from" in "\n".join(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--moves", "5"], "no game is longer"),
        (["--config", "u=--rule ucb1"], "a name of its own"),
        (["--config", "=--rule ucb1"], "NAME=OPTIONS"),
    ],
)
def test_bad_requests_get_a_clear_message(tmp_path, args, message):
    (tmp_path / "games.jsonl").write_text(json.dumps(_record(0, ["B E5", "W C3"])) + "\n")
    with pytest.raises(SystemExit, match=message):
        root_spread.main([str(tmp_path), "--config", "u=--rule ucb1 --param c=2", *args])
