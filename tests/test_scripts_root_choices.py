"""``scripts/root_choices.py``: its reading of the root against the kernels' own selection."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import Engine
from goengine.kernels import rng as krng
from goengine.kernels import select as ks
from goengine.kernels import tree as kt
from goengine.selection import RULES

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "root_choices.py"
spec = importlib.util.spec_from_file_location("root_choices", SCRIPT)
root_choices = importlib.util.module_from_spec(spec)
sys.modules["root_choices"] = root_choices  # dataclasses look their module up here
spec.loader.exec_module(root_choices)


def test_the_scores_are_those_the_kernels_select_by():
    """After a KL-UCB+RAVE search, the child the search kernel's ``select_best`` picks next has the
    highest eq. 5 score the script computes, and the child the RAVE rule with C = 0 would pick
    has the highest RAVE mix; "KL decides" says whether the two picks' mixes differ."""
    for moves in ([], ["B E5", "W C4"], ["B C3", "W G7", "B E5"]):
        engine = Engine(EngineConfig(size=9, search=SearchConfig(rule="kl-ucb-rave", threads=1, reuse_tree=False)))
        for move in moves:
            engine.game.play(*move.split())
        result = engine.analyze(request=SearchRequest(Budget(playouts=400)))
        full, mix = root_choices.root_scores(result)
        order = [s.move for s in result.stats]  # the result's order, most visited first
        tree = engine._search.trees[0]
        first, nc = int(tree.ti[kt.FIRST, 0]), int(tree.ti[kt.NCHILD, 0])
        assert len(full) == nc > 0
        stats = (tree.tf[kt.WINS], tree.ti[kt.VISITS], np.float64(tree.ti[kt.VISITS, 0]), tree.tf[kt.AWINS])
        arms = (*stats, tree.ti[kt.AVISITS], first, first + nc, krng.new_state(1))
        kl = ks.select_best(ks.KL_UCB_RAVE, RULES.array("kl-ucb-rave"), *arms)
        rave = ks.select_best(ks.RAVE, RULES.array("rave", {"c": 0.0}), *arms)
        kl, rave = (order.index(int(tree.ti[kt.MOVE, child])) for child in (kl, rave))
        assert full[kl] == max(full) and mix[rave] == max(mix)
        view = root_choices.root_view(result, "kl-ucb-rave")
        by_full = full.index(max(full))  # the script's pick among equals: the first in the result
        assert view.kl_decides == (mix[by_full] < max(mix))
        assert view.best == result.stats[0].move
        assert 0.0 < view.top_share <= 1.0
        if view.kl_decides:
            assert view.bonus_over_gap > 1.0  # the bonus lifted a rival over the mix's best
        engine.close()


def test_a_table_row_for_each_budget(tmp_path, capsys):
    record = {"index": 0, "size": 9, "komi": 6.5, "moves": ["B E5", "W C4", "B G5"], "void": None}
    (tmp_path / "games.jsonl").write_text(json.dumps(record) + "\n")
    assert root_choices.main([str(tmp_path), "--games", "1", "--moves", "0,2,9", "--budgets", "60,120"]) == 0
    rows = [
        line for line in capsys.readouterr().out.splitlines() if line.startswith("| 60 ") or line.startswith("| 120 ")
    ]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[1] == "2"  # after 0 and 2 moves; the game has no 9th
        for pct in cells[2:5] + cells[7:8]:
            assert 0 <= int(pct.rstrip("%")) <= 100
