"""Engine: the move decision, the engine's free handicap, dead stones and the final score judged
by its playouts (the game record: ``test_game.py``; the count from an ownership map:
``test_scoring.py``; the clock's allocation and charging: ``test_time_control.py``). No GTP text
here except where a test goes through ``GtpEngine`` on purpose.

The positions are ASCII diagrams (``X`` black, ``O`` white), set up with ``Game.setup``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gtp_harness import GtpHarness
from helpers import DEAD_STONE, set_up
from hypothesis import given, settings
from hypothesis import strategies as st

from goengine import coords, selection
from goengine.board import BLACK, PASS, WHITE, Board, IllegalMove
from goengine.config import Budget, EngineConfig, SearchConfig, SearchRequest
from goengine.engine import (
    RESIGN,
    Engine,
    SearchResult,
)
from goengine.game import Setup
from goengine.gtp import GtpEngine
from goengine.kernels import tree as kt

DATA = Path(__file__).parent / "data"
FAST = SearchConfig(playouts=100)


def pt(engine: Engine, vertex: str) -> int:
    return coords.from_gtp(engine.game.size, vertex)


def names(engine: Engine, points) -> set[str]:
    return {coords.to_gtp(engine.game.size, p) for p in points}


# ---- loading a position


def game_state(engine: Engine):
    """All of the game a load may change: size, board, history, komi, handicap, rules."""
    game = engine.game
    board = game.board
    return (
        game.size,
        str(board),
        list(board.moves),
        list(board.history),
        dict(board.captures),
        game.to_move,
        game.komi,
        list(game.handicap),
        list(game.setup_stones),
        game.rules,
    )


def test_a_position_that_fails_to_load_leaves_the_game_as_it_was():
    """Move 3 of the position is on a stone: the load fails and the game is the one before it,
    with its own handicap, moves, komi and rules. (Before: the game was cleared and the position
    replayed on it, so a failure left the position's size and komi and its first two moves.)"""
    engine = Engine(EngineConfig(size=9, komi=3.5, white_handicap_bonus="N", search=FAST))
    engine.game.fixed_handicap(2)
    engine.game.play(WHITE, pt(engine, "E5"))
    before = game_state(engine)
    position = Setup(13, 6.5, moves=((BLACK, 20), (WHITE, 40), (BLACK, 20)))
    with pytest.raises(IllegalMove, match="occupied"):
        engine.load_position(position)
    assert game_state(engine) == before
    with pytest.raises(ValueError, match="board size"):
        engine.load_position(Setup(4, 0.5))
    assert game_state(engine) == before
    engine.load_position(Setup(13, 6.5, moves=((BLACK, 20), (WHITE, 40))))
    assert (engine.game.size, engine.game.komi, len(engine.game.moves), engine.game.handicap) == (13, 6.5, 2, [])
    assert engine.game.rules == before[-1]  # the rules are the engine's, not the file's


# ---- the move decision (``Engine.decide``): resign, pass, the most visited move

# HOPELESS, 5x5, Black to move: White owns the board with eyes on the edges; Black can only play
# in the middle row, where no black stone can ever have an eye (every point touches White).
HOPELESS = """
. O . O .
O O O O O
. . . . .
O O O O O
. O . O .
"""

DECIDING_RULES = list(selection.RULES)


def research_engine(diagram: str, komi: float, rule: str, **search) -> Engine:
    """An engine on ``diagram`` (Black to move) in the research setting (uniform playouts, no
    prior, expansion on the second visit), so the decision rests on plain search statistics."""
    search = {"playout": "uniform", "prior": "none", "expand_at": 1, "rule": rule, **search}
    return set_up(diagram, BLACK, komi=komi, search=SearchConfig(**search))


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_resigns_a_hopeless_position(rule):
    decision = research_engine(HOPELESS, 0.5, rule, playouts=2000, resign_threshold=0.1).genmove(BLACK)
    assert decision.move == RESIGN
    assert decision.result.winrate < 0.1 and "under 0.1" in decision.reason


@pytest.mark.parametrize("rule", ["ucb1", "rave"])
def test_never_resigns_with_threshold_zero(rule):
    engine = research_engine(HOPELESS, 0.5, rule, playouts=2000, resign_threshold=0.0)
    decision = engine.genmove(BLACK, commit=False)
    assert decision.move != RESIGN
    assert decision.move == decision.result.best.move
    assert decision.move == PASS or engine.game.board.is_legal(BLACK, decision.move)


@pytest.mark.parametrize("rule", ["ucb1", "rave"])
def test_resigns_only_after_enough_visits(rule):
    # resign_min_visits root visits, or half the playout budget when that is less. One search of
    # 600 playouts is judged as if a time budget had stopped it there (a hurried move: too few
    # visits to resign on) and as the playout budget it was; no clock decides the outcome.
    engine = research_engine(HOPELESS, 0.5, rule, playouts=600, resign_threshold=0.1, resign_min_visits=1000)
    board = engine.game.board.copy()
    board.to_move = BLACK
    result = engine._search.run(board, engine.game.komi, SearchRequest(Budget(playouts=600)))
    assert 300 <= result.visits < 1000 and result.best.winrate < 0.1
    assert engine.decide(board, result, Budget(seconds=0.5)).move != RESIGN
    assert engine.decide(board, result, Budget(playouts=5000, seconds=0.5)).move != RESIGN
    assert engine.decide(board, result, Budget(playouts=600)).move == RESIGN
    small = research_engine(HOPELESS, 0.5, rule, playouts=500, resign_threshold=0.1, resign_min_visits=1000)
    assert small.genmove(BLACK).move == RESIGN


# ENDGAME, 5x5: settled but for the dame C3. White has just passed; Black is to move. The area
# count is 12 to 12, so with komi -0.5 Black already wins by passing, and with komi 0.5 Black
# loses by passing but wins by filling C3 (13 to 12).
ENDGAME = """
. X . X .
X X X X X
X X . O O
O O O O O
. O . O .
"""


def endgame_after_white_pass(komi: float, rule: str) -> Engine:
    engine = research_engine(ENDGAME, komi, rule, playouts=1000, resign_threshold=0.1)
    engine.game.play(WHITE, PASS)
    return engine


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_passes_when_the_opponent_passed_and_the_count_wins(rule):
    engine = endgame_after_white_pass(-0.5, rule)
    assert engine.game.board.to_move == BLACK and engine.game.board.score(-0.5) > 0
    decision = engine.genmove(BLACK)
    assert decision.move == PASS
    assert "pass" in decision.reason


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_does_not_pass_when_a_move_still_wins(rule):
    engine = endgame_after_white_pass(0.5, rule)
    assert engine.game.board.score(0.5) < 0
    assert names(engine, [engine.genmove(BLACK).move]) == {"C3"}


def test_no_move_searched_is_a_pass():
    engine = Engine(EngineConfig(size=5))
    decision = engine.decide(engine.game.board, SearchResult(), Budget(playouts=10))
    assert (decision.move, decision.reason) == (PASS, "no move searched")


def test_final_status_calls_a_lone_stone_in_the_opponent_area_dead():
    engine = set_up(DEAD_STONE)
    assert names(engine, engine.final_status("dead")) == {"B5"}
    alive = names(engine, engine.final_status("alive"))
    assert alive == {f"{c}{r}" for c in "EF" for r in range(1, 10)}
    assert engine.final_status("seki") == []


def test_final_score_removes_the_dead_stone_before_counting():
    engine = set_up(DEAD_STONE)
    # as it stands: A-D touch both colours (no one's), Black 9, White 9 + 1 + 27
    assert engine.game.board.area_score() == 9 - 37
    # B5 removed: Black 45 (E and A-D), White 36 (F and G-J)
    assert engine.final_score() == 45 - 36 - 7.5
    assert engine.game.board.area_score() == 9 - 37  # the board itself is untouched


@pytest.mark.parametrize(("bonus", "points"), [("N-1", 2.0), ("N", 3.0)])
def test_final_score_counts_the_handicap_bonus_the_rules_give_white(bonus, points):
    """Three handicap stones: Chinese rules (N) give White 3 points, AGA's (N-1) 2, goengine's
    (0) none; the same game scores that much less for Black."""

    def score(rule: str) -> tuple[float, float]:
        engine = Engine(EngineConfig(size=9, komi=0.5, white_handicap_bonus=rule))
        engine.game.fixed_handicap(3)
        for color, point in ((WHITE, "E5"), (BLACK, "C5"), (WHITE, PASS), (BLACK, PASS)):
            engine.game.play(color, point)
        return engine.game.scoring_komi, engine.final_score()

    (komi0, score0), (komi, with_bonus) = score("0"), score(bonus)
    assert (komi0, komi) == (0.5, 0.5 + points)
    assert with_bonus == score0 - points


def test_dead_stones_are_judged_after_both_players_passed():
    """final_score is asked after two passes; the judging playouts must play on from there (they
    once started with the pass count, stopped at once, and judged every stone alive)."""
    engine = set_up(DEAD_STONE)
    engine.game.play(BLACK, PASS)
    engine.game.play(WHITE, PASS)
    assert engine.game.board.is_over
    assert names(engine, engine.final_status("dead")) == {"B5"}
    assert engine.final_score() == 45 - 36 - 7.5


# A game of the seed 000 match (beta-ucb #59, goengine White) that ended with two passes and a
# black stone at B5 in atari inside White's area. GNU Go 3.8's final_score: W+6.5; the area count
# of the board as it stands: W+0.5.
MATCH_GAME = (
    "E5 F3 D3 D4 E4 D5 E6 E3 C3 D6 B5 E7 G6 D7 F7 F8 G8 C4 E2 B4 E1 B3 F2 C2 D2 G3 H2 G2 H3 F6 F5 G7 "
    "G1 F6 H7 F7 H5 B2 H8 F9 G9 C8 H1 C1 F1 B9 D1 D9 J9 pass J7 B7 H6 pass H4 A8 G4 pass F4 C5 pass J2 "
    "J3 E9 J1 A5 pass A7 pass pass"
)


def test_final_score_of_a_match_game_agrees_with_gnugo():
    engine = Engine()
    for i, vertex in enumerate(MATCH_GAME.split()):
        engine.game.play(BLACK if i % 2 == 0 else WHITE, vertex)
    assert engine.game.board.is_over
    assert engine.game.board.score(7.5) == -0.5
    assert names(engine, engine.final_status("dead")) == {"B5"}
    assert engine.final_score() == -6.5
    gtp = GtpEngine(engine)
    assert gtp.send("final_score") == "= W+6.5\n\n"


def test_genmove_after_two_passes_plays_on_when_passing_loses():
    """GTP leaves ending the game to the controller: asked for a move after both passed, White
    (behind by the whole board) must play, not pass."""
    engine = Engine(EngineConfig(search=SearchConfig(playouts=500, seed=3)))
    engine.game.play(BLACK, "E5")
    engine.game.play(WHITE, PASS)
    engine.game.play(BLACK, PASS)
    result = engine.genmove(WHITE)
    assert result.move != PASS, result.reason
    assert engine.game.board.color_at(result.move) == WHITE


SEKI = """
    . X X O . O .
    O . X O O O O
    O O O X X X X
    X X X X X X X
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


@pytest.mark.parametrize("diagram", [DEAD_STONE, SEKI], ids=["dead-stone", "seki"])
def test_final_status_never_splits_a_chain(diagram):
    """A chain lives or dies as a whole. (Before a fix, on SEKI White's chain A6 A5 B5 C5 came out
    with A5 dead and the rest alive: dead stones were judged point by point.)"""
    engine = set_up(diagram)
    for status in ("alive", "dead", "seki"):
        stones = set(engine.final_status(status))
        for p in stones:
            chain = set(engine.game.board.chain(p))
            assert chain <= stones, f"{status}: only {names(engine, chain & stones)} of {names(engine, chain)}"


def test_seki_chains_are_in_seki_not_dead():
    """B7 C7 C6 and A6 A5 B5 C5 share A7 and B6 and nothing else: seki. Area count: Black 35,
    White 12, so B+23 - 7.5 = B+15.5. (Before a fix they came out dead, uniform playouts filling
    the shared liberties, and the score was wrong.)"""
    engine = set_up(SEKI)
    seki = {"B7", "C7", "C6", "A6", "A5", "B5", "C5"}
    assert names(engine, engine.final_status("seki")) == seki
    assert engine.final_status("dead") == []
    assert engine.final_score() == 23 - 7.5


# ---- warm_up: on a cold cache, a second process compiles the playouts' kernels


class FakeProcess:
    def __init__(self, argv, **kwargs):
        self.argv, self.calls = argv, []
        STARTED.append(self)

    def kill(self):
        self.calls.append("kill")

    def wait(self):
        self.calls.append("wait")


STARTED: list[FakeProcess] = []


def cold_cache(monkeypatch, tmp_path, cores: int) -> list[str]:
    """warm_up sees an empty cache (its kernels are already loaded in this process, so nothing
    compiles), ``cores`` cores, and a Popen that records what it starts; what it logs."""
    import goengine.config
    import goengine.engine

    STARTED.clear()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(goengine.config, "available_cores", lambda: cores)
    monkeypatch.setattr(goengine.engine.subprocess, "Popen", FakeProcess)
    return []


def test_a_cold_warm_up_on_two_cores_starts_the_playout_compiler_and_stops_it_at_the_end(monkeypatch, tmp_path):
    from goengine.engine import warm_up

    logged = cold_cache(monkeypatch, tmp_path, cores=2)
    warm_up(logged.append)
    (second,) = STARTED
    assert second.argv[1:] == ["-c", "from goengine.engine import warm_up_playouts; warm_up_playouts()"]
    assert second.calls == ["kill", "wait"]  # whatever it still compiles, nobody needs
    assert "compiling the kernels once" in logged[0] and logged[-1].startswith("goengine: kernels ready in")


@pytest.mark.parametrize("cores, helper", [(1, True), (2, False)])
def test_one_core_or_no_helper_compiles_alone(monkeypatch, tmp_path, cores, helper):
    from goengine.engine import warm_up

    logged = cold_cache(monkeypatch, tmp_path, cores=cores)
    warm_up(logged.append, helper=helper)
    assert STARTED == [] and logged[-1].startswith("goengine: kernels ready in")


def test_a_second_process_that_cannot_start_leaves_the_warm_up_to_this_one(monkeypatch, tmp_path):
    import goengine.engine

    logged = cold_cache(monkeypatch, tmp_path, cores=2)

    def refuse(*args, **kwargs):
        raise OSError("no more processes")

    monkeypatch.setattr(goengine.engine.subprocess, "Popen", refuse)
    goengine.engine.warm_up(logged.append)
    assert logged[-1].startswith("goengine: kernels ready in")


def test_warm_up_playouts_compiles_through_an_ownership_map(monkeypatch):
    import goengine.engine

    asked = []
    monkeypatch.setattr(goengine.engine.Engine, "ownership", lambda self, playouts: asked.append(playouts))
    goengine.engine.warm_up_playouts()
    assert asked == [8]


# ---- the search stays whole under any sequence of commands (issue 46)


def tree_errors(board, tree, limit: int = 3000) -> list[str]:
    """What is wrong in ``tree`` searched from ``board`` (its side to move at the root): a node
    whose move is not legal for the side whose turn it is there (the tree alternates colours from
    the root), or whose wins are outside [0, visits]. At most ``limit`` nodes are read."""
    ti, tf = tree.ti, tree.tf
    errors, stack, read = [], [(0, board.copy())], 0
    while stack and read < limit and not errors:
        node, position = stack.pop()
        read += 1
        if not 0.0 <= tf[kt.WINS, node] <= ti[kt.VISITS, node] + 1e-9:
            errors.append(f"node {node}: wins {tf[kt.WINS, node]} of {ti[kt.VISITS, node]} visits")
        for child in tree.children(node):
            move = int(ti[kt.MOVE, child])
            reason = position.illegal_reason(position.to_move, move, superko=False)
            if reason is not None:
                errors.append(f"node {child}: {coords.to_gtp(board.size, move)} is {reason} for {position.to_move}")
                break
            if ti[kt.NCHILD, child] > 0:
                after = position.copy()
                after.play(position.to_move, move, superko=False)
                stack.append((child, after))
    return errors


def replayed(game) -> Board:
    """The game's board built again from nothing: its moves played on an empty board."""
    board = Board(game.size)
    for color, point in game.moves:
        board.play(color, point, superko=False)
    return board


SEQUENCE_SETTINGS = {
    "one thread": SearchConfig(playouts=40, threads=1, seed=3),
    "two threads, one tree, pondering": SearchConfig(playouts=40, threads=2, seed=3, ponder=True),
    "two trees": SearchConfig(playouts=40, threads=2, parallel="root", seed=3),
}


@pytest.mark.parametrize("name", list(SEQUENCE_SETTINGS))
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_any_sequence_of_commands_keeps_the_trees_legal_and_the_board_replayable(name, data, tmp_path_factory):
    """Random sequences of ``play``, ``genmove`` of either colour (two of one colour in a row
    included), ``undo``, ``clear_board``, ``printsgf`` and ``loadsgf`` over GTP, with one thread,
    two on one tree with pondering between the commands, and two trees. After every re-rooting and
    every search, each tree's moves are legal for the side whose turn it is (``tree_errors``); after
    every command, the game's board is the one its moves give from an empty board. (Before the
    fix, two genmoves of one colour kept a subtree of the other colour's moves; 5 of 10 random
    sequences failed at 50 playouts, by a hang or a segmentation fault.)"""
    folder = tmp_path_factory.mktemp("sequence")
    harness = GtpHarness(EngineConfig(size=5, komi=0.5, search=SEQUENCE_SETTINGS[name]))
    engine = harness.gtp.engine
    search = engine._search
    errors: list[str] = []
    reroot, run = search._reroot, search.run

    def checked_reroot(board, komi):
        reroot(board, komi)
        errors.extend(e for tree in search.trees for e in tree_errors(board, tree))

    def checked_run(board, *args, **kwargs):
        result = run(board, *args, **kwargs)
        errors.extend(e for tree in search.trees for e in tree_errors(board, tree))
        errors.extend(f"win rate {s.winrate}" for s in result.stats if not 0.0 <= s.winrate <= 1.0)
        return result

    search._reroot, search.run = checked_reroot, checked_run
    try:
        for step in range(data.draw(st.integers(1, 30), label="commands")):
            kind = data.draw(st.sampled_from(["play", "genmove", "genmove", "undo", "clear", "save", "load"]))
            color = data.draw(st.sampled_from(["b", "w"]), label="color")
            if kind == "play":
                legal = [coords.to_gtp(5, p) for p in engine.game.board.legal_moves(color)] + ["pass"]
                harness.ok(f"play {color} {data.draw(st.sampled_from(legal), label='vertex')}")
            elif kind == "genmove":
                harness.ok(f"genmove {color}")
                harness.gtp.answered(0.0, 0.01)  # as serve does: the clock charged, pondering started
            elif kind == "undo":
                harness.send("undo")  # refused on an empty game
            elif kind == "clear":
                harness.ok("clear_board")
            elif kind == "save":
                harness.ok(f"printsgf {folder / 'game.sgf'}")
            elif (folder / "game.sgf").exists():
                harness.ok(f"loadsgf {folder / 'game.sgf'}")
            engine.ponderer.stop()  # a ponder search's checks are done before the board is read
            assert not errors, f"after command {step} ({kind} {color}): {errors[:3]}"
            board = engine.game.board
            assert (str(replayed(engine.game)), replayed(engine.game).history) == (str(board), board.history)
    finally:
        engine.close()


def candidates(result, share=0.01):
    total = sum(s.visits for s in result.stats)
    return sum(1 for s in result.stats if s.visits >= share * total)


def test_an_analysis_spreads_its_root_over_the_candidates_and_a_move_of_the_game_does_not():
    def engine(width):
        e = Engine(EngineConfig(size=9, search=SearchConfig(playouts=800, seed=3, analysis_width=width)))
        e.game.play(BLACK, coords.from_gtp(9, "E5"))
        e.game.play(WHITE, coords.from_gtp(9, "C4"))
        return e

    narrow = engine(0.0).analyze()
    wide = engine(0.3).analyze()
    assert narrow.playouts == wide.playouts == 800
    assert candidates(wide) >= 8 and candidates(wide) >= 2 * candidates(narrow), (candidates(wide), narrow)
    # genmove searches its root as before whatever the analysis width: the same seed, the same tree
    moves = [engine(width).genmove(BLACK).result for width in (0.0, 0.3)]
    assert [[(s.move, s.visits) for s in r.stats] for r in moves[:1]] == [
        [(s.move, s.visits) for s in r.stats] for r in moves[1:]
    ]
    # a request's own root exploration is taken over the setting
    assert candidates(engine(0.3).analyze(request=SearchRequest(root_explore=0.0))) == candidates(narrow)
