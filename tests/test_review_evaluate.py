"""Evaluating positions (``goengine.review.evaluate``): an ``Evaluation`` read from a search's result
from the side to move and from Black's; one position searched with a known answer; a position's
figures independent of what ran before it and of where it ran (here or in a process pool); a
position that fails comes back as its exception, the others still analysed."""

from __future__ import annotations

import numpy as np
import pytest

from goengine import coords
from goengine.board import BLACK, PASS, WHITE, Board
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.engine import Engine, MoveStats, SearchRequest, SearchResult
from goengine.game import Setup
from goengine.jobs import Runner
from goengine.review.evaluate import Evaluation, evaluate, evaluated
from goengine.review.gamefile import Position

CONFIG = EngineConfig(search=SearchConfig(threads=1, seed=3))
BUDGET = Budget(playouts=300)

# White's ten stones in the middle have one liberty, G6: Black to move captures them
CAPTURE = """
. . . . . . . . .
. X X X X X . . .
X O O O O O X . .
X O O O O O . . .
. X X X X X . . .
. . . . . . . . .
. . . . . . O O .
. . . . . . O . .
. . . . . . . . .
"""


def position_of(diagram: str, to_move: int = BLACK, moves=()) -> Position:
    board = Board.from_ascii(diagram)
    setup = tuple((board.color_at(p), p) for p in board.points() if board.color_at(p))
    return Position(board.size, 7.5, setup, tuple(moves), to_move, to_move)


def at(vertex: str) -> int:
    return coords.from_gtp(9, vertex)


def test_an_analysis_holds_the_most_visited_moves_figures_for_the_side_to_move_and_for_black():
    stats = (
        MoveStats(at("E5"), visits=80, wins=60.0, score_lead=4.0, pv=(at("E5"), at("C3"))),
        MoveStats(at("C3"), visits=20, wins=5.0, score_lead=-2.0, pv=(at("C3"),)),
    )
    result = SearchResult(color=WHITE, komi=7.5, stats=stats, seconds=0.5)
    a = Evaluation.of(result)
    assert (a.to_move, a.best, a.pv, a.visits) == (WHITE, at("E5"), (at("E5"), at("C3")), 100)
    assert a.winrate == pytest.approx(0.75) and a.score_lead == pytest.approx(4.0)
    assert a.black_winrate == pytest.approx(0.25) and a.black_lead == pytest.approx(-4.0)
    black = Evaluation.of(SearchResult(color=BLACK, komi=7.5, stats=stats))
    assert black.black_winrate == pytest.approx(0.75) and black.black_lead == pytest.approx(4.0)


def test_a_search_that_searched_nothing_reads_as_an_even_position_and_a_pass():
    a = Evaluation.of(SearchResult(color=BLACK, komi=7.5, stats=()))
    assert (a.winrate, a.score_lead, a.best, a.pv, a.visits) == (0.5, 0.0, PASS, (), 0)


def test_the_search_finds_the_capture_of_ten_stones_and_calls_the_position_won():
    # the root of a move of the game: at 300 visits a wide root (the analysis default) spreads its
    # visits over the other winning moves too (G5 wins as well: White cannot escape)
    narrow = EngineConfig(search=SearchConfig(threads=1, seed=3, analysis_width=0.0))
    a = evaluate(position_of(CAPTURE), narrow, BUDGET)
    assert a.to_move == BLACK and a.best == at("G6") and a.pv[0] == at("G6")
    assert a.black_winrate > 0.9 and a.black_lead > 15
    assert 0 < a.visits <= BUDGET.playouts


def test_the_same_position_gives_the_same_figures_whatever_was_analysed_before():
    first = evaluate(position_of(CAPTURE), CONFIG, BUDGET)
    evaluate(Position(9, 7.5, (), ((BLACK, at("E5")),), WHITE, BLACK), CONFIG, BUDGET)
    assert evaluate(position_of(CAPTURE), CONFIG, BUDGET) == first


def test_the_moves_of_a_position_are_replayed_before_its_search():
    moves = ((BLACK, at("E5")), (WHITE, at("C3")))
    a = evaluate(Position(9, 7.5, (), moves, BLACK, BLACK), CONFIG, Budget(playouts=50))
    assert a.to_move == BLACK and a.best not in (at("E5"), at("C3"))


def test_the_runner_answers_every_key_once_and_a_failed_position_with_its_exception():
    broken = Position(9, 7.5, (), ((BLACK, at("E5")), (WHITE, at("E5"))), BLACK, BLACK)  # E5 twice
    tasks = [("a", position_of(CAPTURE)), ("b", broken), ("c", Position(9, 7.5, (), (), BLACK, BLACK))]
    answers = dict(evaluated(Runner(1), tasks, CONFIG, Budget(playouts=50)))
    assert sorted(answers) == ["a", "b", "c"]
    assert isinstance(answers["a"], Evaluation) and isinstance(answers["c"], Evaluation)
    assert isinstance(answers["b"], ValueError) and "occupied" in str(answers["b"])


def test_a_process_pool_gives_the_figures_this_process_gives():
    positions = [position_of(CAPTURE), Position(9, 7.5, (), ((BLACK, at("E5")),), WHITE, BLACK)]
    tasks = list(enumerate(positions))
    here = dict(evaluated(Runner(1), tasks, CONFIG, BUDGET))
    pooled = dict(evaluated(Runner(2), tasks, CONFIG, BUDGET))
    assert pooled == here


def test_an_evaluation_keeps_the_candidates_figures_and_trusts_those_searched_enough():
    # 1,000 visits: E5 600, C3 300, D4 40 (4 %: kept, too few to stand for its value), A1 5 (0.5 %: dropped)
    stats = (
        MoveStats(at("E5"), visits=600, wins=360.0, score_lead=2.0, pv=(at("E5"),)),
        MoveStats(at("C3"), visits=300, wins=150.0, score_lead=-1.0, pv=(at("C3"),)),
        MoveStats(at("D4"), visits=40, wins=10.0, score_lead=-5.0, pv=(at("D4"),)),
        MoveStats(at("A1"), visits=5, wins=0.0, score_lead=-30.0, pv=(at("A1"),)),
    )
    a = Evaluation.of(SearchResult(color=BLACK, komi=7.5, stats=stats))
    assert [m for m, *_ in a.moves] == [at("E5"), at("C3"), at("D4")]
    assert a.value_of(at("C3")) == (0.5, -1.0)  # no size: the rates as searched
    assert a.value_of(at("D4")) is None and a.value_of(at("A1")) is None


def test_a_games_positions_in_order_replay_it_once_and_give_a_new_engines_figures(monkeypatch):
    line = ((BLACK, at("E5")), (WHITE, at("C3")), (BLACK, at("G7")), (WHITE, at("C7")), (BLACK, at("G3")))
    positions = [Position(9, 7.5, (), line[:k], BLACK if k % 2 == 0 else WHITE, BLACK) for k in range(len(line) + 1)]
    config = EngineConfig(search=SearchConfig(threads=1, seed=11))  # one this process has not held yet
    fresh = []
    for p in positions:  # each with an engine of its own, as before the engines were kept
        engine = Engine(config)
        engine.load_position(Setup(9, 7.5, (), tuple(p.moves), BLACK), False)
        fresh.append(Evaluation.of(engine.analyze(p.to_move, SearchRequest(Budget(playouts=100)))))
    loads = []
    original = Engine.load_position
    monkeypatch.setattr(Engine, "load_position", lambda self, *a, **k: loads.append(1) or original(self, *a, **k))
    kept = [evaluate(p, config, Budget(playouts=100)) for p in positions]
    assert len(loads) == 1  # the first position loaded, each later one a move on
    assert kept == fresh


def test_a_long_records_positions_cost_no_more_each_than_a_short_ones(monkeypatch):
    """The positions of one game share its line: each later position plays its one new move,
    and nothing is compared or copied in the record's length (before: the moves were sliced and
    compared at every position, the history sorted at every search: a 100,000-move record was
    not reviewed in 600 s). Counted: the moves played, and the histories sorted."""
    from goengine import game as game_module

    line = tuple(random_line(400))
    positions = [Position(9, 7.5, (), line, WHITE if k % 2 else BLACK, BLACK, k) for k in range(len(line) + 1)]
    config = EngineConfig(search=SearchConfig(threads=1, seed=12, playout="uniform", prior="none"))
    played, sorted_histories = [], []
    original = game_module.Game.play
    monkeypatch.setattr(game_module.Game, "play", lambda self, *a, **k: played.append(1) or original(self, *a, **k))
    unique = np.unique
    monkeypatch.setattr(np, "unique", lambda *a, **k: sorted_histories.append(1) or unique(*a, **k))
    for p in positions:
        evaluate(p, config, Budget(playouts=2))
    assert len(played) == len(line)  # one move a position: none replayed
    assert len(sorted_histories) <= 2  # the history's hashes sorted when the game is loaded, not at each search


def random_line(moves: int) -> list[tuple[int, int]]:
    """A legal line of ``moves`` moves on 9x9, captures included (random, seeded)."""
    import random

    rng = random.Random(3)
    board = Board(9)
    line = []
    for _ in range(moves):
        legal = board.legal_moves()
        point = rng.choice(legal) if legal else PASS
        line.append((board.to_move, point))
        board.play(board.to_move, point)
    return line
