"""The research players (``goengine.players``): the move model alone plays its most probable
legal move, the playout policy alone plays what one playout would, neither searches, a seed
reproduces their games, and they are chosen by name as every other part is (command line,
``goengine-set``, the start-up line)."""

from __future__ import annotations

import pytest
from gtp_harness import GtpHarness

from goengine import coords, movemodel
from goengine.board import BLACK, WHITE, Board
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine
from goengine.players import PLAYERS

# Black's stone C3, played last, is in atari at C2: the heavy policy's capture rule (probability
# 0.9) takes it there, and White has nothing else as urgent
ATARI = """
. . . . .
. . O . .
. O . O .
. . . . .
. . . . .
"""


def engine_on(diagram: str, player: str, seed: int = 1, **search) -> Engine:
    board = Board.from_ascii(diagram)
    engine = Engine(EngineConfig(size=board.size, search=SearchConfig(player=player, seed=seed, **search)))
    stones = [(board.color_at(p), p) for p in board.points() if board.color_at(p)]
    engine.game.setup(stones, BLACK)
    return engine


def test_the_registry_names_the_three_players():
    assert list(PLAYERS) == ["search", "model", "playout"]
    assert SearchConfig().describe().endswith("parallel tree")  # the default says nothing of it
    assert SearchConfig(player="model").describe().endswith("; player model")
    with pytest.raises(ValueError, match="player"):
        SearchConfig(player="oracle")


def test_the_model_player_plays_the_models_most_probable_legal_move_without_searching():
    engine = Engine(EngineConfig(size=9, search=SearchConfig(player="model")))
    for vertex in ("E5", "C3", "G7"):
        engine.game.play(BLACK if vertex != "C3" else WHITE, vertex)
    policy = movemodel.shipped().policy(engine.game.board, WHITE)
    best = max(policy, key=lambda m: (policy[m], -m))
    decision = engine.genmove(WHITE)
    assert decision.move == best and decision.result.playouts == 0 and decision.result.stats == ()
    assert engine.game.moves[-1] == (WHITE, best)


def test_the_playout_player_plays_the_policys_move_and_a_seed_repeats_it():
    """Black has just played C3 into atari: over 20 seeds the heavy policy's capture at C2 is
    White's move at least 15 times (its rule tries 9 times in 10); every move is legal; the same
    seed gives the same move. The uniform policy captures far less often."""
    capture = coords.from_gtp(5, "C2")

    def moves(playout: str) -> list[int]:
        chosen = []
        for seed in range(20):
            engine = engine_on(ATARI, "playout", seed=seed, playout=playout)
            engine.game.play(BLACK, "C3")
            board = engine.game.board.copy()
            decision = engine.genmove(WHITE)
            assert decision.move == -1 or board.is_legal(WHITE, decision.move)
            assert decision.result.playouts == 0
            chosen.append(decision.move)
        return chosen

    heavy = moves("heavy")
    assert heavy.count(capture) >= 15, heavy
    assert moves("uniform").count(capture) <= 8
    again = engine_on(ATARI, "playout", seed=19)
    again.game.play(BLACK, "C3")
    assert again.genmove(WHITE).move == heavy[19]


def test_players_are_set_over_gtp_and_play_a_whole_game_against_each_other():
    """``goengine-set player model`` over GTP; then the model plays Black and (after a second
    ``goengine-set``) the playout policy White, one move each, for a game of 9x9 until both pass
    or 200 moves: every move legal on the referee's own board."""
    harness = GtpHarness(EngineConfig(size=9, search=SearchConfig(seed=3)))
    board = Board(9)
    passes = 0
    for k in range(200):
        colour = "b" if k % 2 == 0 else "w"
        harness.ok(f"goengine-set player {'model' if colour == 'b' else 'playout'}")
        vertex = harness.ok(f"genmove {colour}")
        board.play(colour, vertex.lower())
        passes = passes + 1 if vertex.lower() == "pass" else 0
        if passes == 2:
            break
    assert k > 40, k
    assert f"player {'model' if k % 2 == 0 else 'playout'}" in harness.gtp.engine.describe()
