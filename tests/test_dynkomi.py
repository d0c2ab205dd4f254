"""Dynamic komi (``goengine.dynkomi``): the extra komi of each mode against hand-computed values,
the engine applying it to its moves only (the playouts judged with it, the score and analysis
without it), the tree kept while it changes, no resignation while it makes the engine's task
harder, and the setting through both doors."""

from __future__ import annotations

import time

import pytest
from helpers import SETTLED, set_up

from goengine import coords, dynkomi
from goengine.board import BLACK, PASS, WHITE
from goengine.config import Budget, EngineConfig, SearchConfig, with_param, with_setting
from goengine.engine import RESIGN, Engine
from goengine.gtp import GtpEngine
from goengine.kernels import search as ksearch
from goengine.kernels import tree as kt
from goengine.result import MoveStats, SearchResult


def state(size=19, handicap=4, moves=0, color=BLACK, last=None):
    extra, winrate = last if last else (None, None)
    return dynkomi.GameState(size, handicap, moves, color, extra, winrate)


@pytest.mark.parametrize(
    ("size", "handicap", "moves", "expected"),
    [
        (19, 4, 0, 28.0),  # 7 a stone
        (19, 4, 100, 14.0),  # half way to move 200
        (19, 4, 150, 7.0),
        (19, 4, 200, 0.0),
        (19, 4, 260, 0.0),
        (19, 9, 50, 47.25),  # 63 x 150 / 200
        (9, 2, 0, 14.0),
        (9, 2, 20, 14.0 * (200 * 81 / 361 - 20) / (200 * 81 / 361)),  # ends at move 44.9 on 9x9
        (9, 2, 45, 0.0),
        (19, 0, 0, 0.0),  # an even game: nothing
        (9, 4, 0, 20.25),  # 28, but at most a quarter of 81
        (5, 21, 0, 6.25),  # a set-up "handicap" of most of the board
    ],
)
def test_linear_komi_falls_from_the_handicap_value_to_zero(size, handicap, moves, expected):
    """Black's default, 7 a stone; White's is the same shape at 1 a stone (below), and with
    white_value=7 the same values."""
    assert dynkomi.extra_komi("linear", (), state(size, handicap, moves, BLACK)) == pytest.approx(expected)
    white_7 = (("white_value", 7.0),)
    assert dynkomi.extra_komi("linear", white_7, state(size, handicap, moves, WHITE)) == pytest.approx(expected)
    assert dynkomi.extra_komi("none", (), state(size, handicap, moves)) == 0.0


@pytest.mark.parametrize(
    ("size", "handicap", "moves", "expected"),
    [(19, 4, 0, 4.0), (19, 4, 100, 2.0), (19, 4, 200, 0.0), (9, 2, 0, 2.0), (9, 2, 45, 0.0), (19, 0, 0, 0.0)],
)
def test_white_takes_one_point_a_stone_by_default(size, handicap, moves, expected):
    assert dynkomi.extra_komi("linear", (), state(size, handicap, moves, WHITE)) == pytest.approx(expected)


def test_linear_komi_has_a_value_for_each_colour():
    params = (("black_value", 8.0), ("white_value", 1.0), ("moves", 100.0))
    assert dynkomi.extra_komi("linear", params, state(color=BLACK)) == 32.0
    assert dynkomi.extra_komi("linear", params, state(color=WHITE)) == 4.0
    assert dynkomi.extra_komi("linear", params, state(moves=50, color=BLACK)) == 16.0


def test_adaptive_komi_follows_the_win_rate_in_the_engines_favour_or_against_it():
    params = (("step", 2.0), ("max_komi", 5.0))
    even = dict(size=9, handicap=0, moves=30)
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=BLACK)) == 0.0  # nothing known yet
    # Black winning: more komi for White; Black losing: less
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=BLACK, last=(1.0, 0.8))) == 3.0
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=BLACK, last=(1.0, 0.2))) == -1.0
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=BLACK, last=(1.0, 0.5))) == 1.0  # yellow
    # White winning: less komi for White; White losing: more
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=WHITE, last=(1.0, 0.8))) == -1.0
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=WHITE, last=(1.0, 0.2))) == 3.0
    # never past max_komi either way
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=BLACK, last=(4.5, 0.9))) == 5.0
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=WHITE, last=(4.5, 0.1))) == 5.0
    assert dynkomi.extra_komi("adaptive", params, state(**even, color=WHITE, last=(-4.5, 0.9))) == -5.0
    # in a handicap game it is linear while linear gives anything
    assert dynkomi.extra_komi("adaptive", (), state(handicap=2, moves=10, last=(14.0, 0.9))) == pytest.approx(
        14.0 * 190 / 200
    )


def handicap_engine(n: int = 2, **search) -> Engine:
    """``n`` fixed stones on 9x9, komi 0.5. White's value is set to 7 a stone (not its default
    1), so that its extra komi (14 for two) tells many playouts' results apart from the real komi's."""
    search.setdefault("playouts", 600)
    search.setdefault("dynkomi_params", (("white_value", 7.0),))
    engine = Engine(EngineConfig(size=9, komi=0.5, search=SearchConfig(**search)))
    engine.game.fixed_handicap(n)
    return engine


def depth_of(tree, node: int) -> int:
    d = 0
    while node != 0:
        node = int(tree.ti[kt.PARENT, node])
        d += 1
    return d


def test_the_playouts_of_a_handicap_game_are_judged_with_the_extra_komi():
    """White to move after two stones on 9x9, komi 0.5: the search plays against 0.5 + 14. A node
    searched once holds one playout, whose win was judged with that komi (its SCORE has none)."""
    engine = handicap_engine(2, playout="uniform", prior="none", expand_at=1)
    assert engine.game.handicap_stones == 2 and engine.extra_komi(WHITE) == 14.0
    decision = engine.genmove(WHITE)
    assert decision.result.extra_komi == 14.0
    tree = engine._search.trees[0]
    once = [i for i in range(1, tree.nodes) if tree.ti[kt.VISITS, i] == 1]
    assert len(once) > 50
    judged_differently = 0
    for i in once:
        mover = BLACK if depth_of(tree, i) % 2 == 0 else WHITE  # the root's move is Black's
        area = tree.tf[kt.SCORE, i]
        assert tree.tf[kt.WINS, i] == ksearch.reward(area - 14.5, mover)
        judged_differently += ksearch.reward(area - 14.5, mover) != ksearch.reward(area - 0.5, mover)
    assert judged_differently > 0  # the test tells the two komis apart
    engine.close()


def test_even_games_and_analysis_get_no_extra_komi():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(playouts=200)))
    assert engine.game.handicap_stones == 0
    assert engine.genmove(BLACK).result.extra_komi == 0.0
    handicapped = handicap_engine(2, playouts=200, dynkomi_params=())
    assert handicapped.analyze().extra_komi == 0.0  # analysis: the real komi
    assert handicapped.genmove(WHITE).result.extra_komi == 2.0  # the default: 1 a stone for White
    engine.close()
    handicapped.close()


def test_black_set_up_stones_count_as_a_handicap():
    engine = Engine(EngineConfig(size=9, komi=0.5, search=SearchConfig(playouts=100)))
    engine.game.setup([(BLACK, coords.from_gtp(9, "C3")), (BLACK, coords.from_gtp(9, "G7"))], to_move=WHITE)
    assert engine.game.handicap_stones == 2
    mixed = Engine(EngineConfig(size=9))
    mixed.game.setup([(BLACK, coords.from_gtp(9, "C3")), (WHITE, coords.from_gtp(9, "G7"))])
    assert mixed.game.handicap_stones == 0


def test_the_tree_is_kept_while_the_extra_komi_changes():
    """Black answers with the reply the first search looked at most, so its subtree exists: the
    second search (against less extra komi) starts from it, as under a fixed komi."""
    engine = handicap_engine(2, playouts=400)
    first = engine.genmove(WHITE)
    reply = first.result.best.pv[1]
    engine.game.play(BLACK, reply)
    second = engine.genmove(WHITE)
    assert first.result.extra_komi > second.result.extra_komi > 0
    assert second.result.playouts == 400
    assert engine._search.trees[0].ti[kt.VISITS, 0] > 400  # the kept subtree's visits, and 400 more
    engine.close()


def test_no_resignation_while_the_extra_komi_makes_the_task_harder():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(resign_threshold=0.2, resign_min_visits=10)))
    losing = [MoveStats(coords.from_gtp(9, "E5"), 100, 5.0)]
    board = engine.game.board.copy()
    for color, extra, resigns in ((BLACK, 10.0, False), (BLACK, 0.0, True), (BLACK, -10.0, True),
                                  (WHITE, -10.0, False), (WHITE, 10.0, True)):  # fmt: skip
        board.to_move = color
        result = SearchResult(color, stats=tuple(losing), extra_komi=extra)
        decision = engine.decide(board, result, Budget(playouts=100))
        assert (decision.move == RESIGN) == resigns, (color, extra)
    engine.close()


def test_the_setting_through_both_doors_and_on_the_parameter_page():
    config = with_setting(SearchConfig(), "dynkomi", "adaptive")
    config = with_param(config, "dynkomi", "step", "2")
    assert config.dynkomi == "adaptive" and dict(config.dynkomi_params) == {"step": 2.0}
    assert "dynamic komi adaptive black_value=7 white_value=1 moves=200 red=0.45" in config.describe()
    assert config.keeps_trees_of(SearchConfig())  # the dynamic komi does not rebuild the trees
    with pytest.raises(ValueError, match="dynamic komi"):
        with_setting(SearchConfig(), "dynkomi", "sometimes")
    gtp = GtpEngine(Engine(EngineConfig(size=9, search=SearchConfig(playouts=50))))
    assert gtp.send("goengine-set dynamic_komi none") == "=\n\n"
    assert gtp.engine._search.config.dynkomi == "none"
    assert "[list/none/linear/adaptive] dynamic_komi none" in gtp.send("goengine-params")
    assert gtp.send("goengine-set handicap_komi_as_White 3").startswith("? ")  # not a parameter of none
    gtp.send("goengine-set dynkomi linear")
    assert gtp.send("goengine-set handicap_komi_as_White 3") == "=\n\n"
    assert dict(gtp.engine._search.config.dynkomi_params) == {"white_value": 3.0}
    gtp.engine.close()


def test_passing_back_counts_the_real_komi():
    """SETTLED: Black 15, White 10. With komi 0.5 Black wins the count by 4.5, so after White's
    pass Black passes back, although a search against 10 more komi would see the game lost."""
    engine = set_up(SETTLED, to_move=WHITE, komi=0.5)
    engine.game.play(WHITE, PASS)
    board = engine.game.board.copy()
    result = SearchResult([MoveStats(PASS, 100, 10.0)], extra_komi=10.0)
    assert engine.decide(board, result, Budget(playouts=100)).move == PASS
    engine.game.set_komi(5.5)  # now White wins the count: Black plays on (here its one move is a pass too)
    assert "passing wins" not in engine.decide(board, result, Budget(playouts=100)).reason
    engine.close()


def test_pondering_keeps_the_extra_komi_of_the_engines_last_move():
    """White gave two stones and moved against 0.5 + 14: the ponder search that follows judges
    its playouts with the same komi (a node searched once shows it)."""
    engine = handicap_engine(2, playout="uniform", prior="none", expand_at=1, playouts=200)
    assert engine.genmove(WHITE).result.extra_komi == 14.0
    assert engine.start_pondering()
    deadline = time.monotonic() + 30.0  # only a guard
    while engine._search.trees[0].ti[kt.VISITS, 0] < 3000 and time.monotonic() < deadline:
        time.sleep(0.01)
    engine.ponderer.stop()
    tree = engine._search.trees[0]
    assert tree.ti[kt.VISITS, 0] >= 3000
    once = [i for i in range(1, tree.nodes) if tree.ti[kt.VISITS, i] == 1]
    assert len(once) > 50
    for i in once:
        mover = WHITE if depth_of(tree, i) % 2 == 0 else BLACK  # the root's move is White's
        area = tree.tf[kt.SCORE, i]
        assert tree.tf[kt.WINS, i] == ksearch.reward(area - 14.5, mover)
    engine.close()
