"""The research players' own moves (``goengine.research_players``): which player a configuration
names, the playout player's draws against the uniform policy's exact distribution, its random
stream (seeded as the search's first tree is, continued from move to move, started again with a
fresh search). Their games through the engine and over GTP are ``tests/test_players.py``'s."""

from __future__ import annotations

from collections import Counter

from scipy.stats import chisquare

from goengine import research_players
from goengine.board import BLACK, Board
from goengine.config import EngineConfig, SearchConfig
from goengine.engine import Engine

# Black's one-point eye at A1 (a move White may not play: suicide), everything else open
EYE = """
. X . . .
X X . . .
. . . . .
. . . . .
. . . . .
"""


def test_a_configuration_names_its_player_and_the_search_is_none():
    assert research_players.of(SearchConfig()) is None
    assert isinstance(research_players.of(SearchConfig(player="model")), research_players.ModelPlayer)
    assert isinstance(research_players.of(SearchConfig(player="playout")), research_players.PlayoutPlayer)


def test_the_uniform_playout_player_draws_every_legal_point_alike_and_never_fills_an_eye():
    """Black to move: its own eye at A5 is never drawn (the policy fills no eye); White to move:
    A5 is suicide, never drawn. The other 21 points, 2,100 draws: each about 100 times."""
    board = Board.from_ascii(EYE, to_move=BLACK)
    eye = board.points()[0]  # A5, the top-left point
    player = research_players.PlayoutPlayer(SearchConfig(player="playout", playout="uniform", seed=3))
    open_points = [p for p in board.points() if not board.color_at(p) and p != eye]
    for to_move in (1, 2):
        board.to_move = to_move
        counts = Counter(player.move(board) for _ in range(100 * len(open_points)))
        assert set(counts) == set(open_points)
        assert chisquare([counts[p] for p in open_points]).pvalue > 1e-4


def test_a_seed_repeats_the_draws_the_stream_goes_on_and_a_fresh_search_starts_it_again():
    config = SearchConfig(player="playout", playout="uniform", seed=11)
    board = Board(9)
    first = [research_players.PlayoutPlayer(config).move(board) for _ in range(5)]
    player = research_players.PlayoutPlayer(config)
    stream = [player.move(board) for _ in range(20)]
    assert first == [stream[0]] * 5  # a new player starts the same stream
    assert len(set(stream)) > 10  # one player's stream goes on: 20 draws of 81 points differ
    engine = Engine(EngineConfig(size=9, search=config))
    moves = [engine.genmove("b", commit=False).move for _ in range(3)]
    engine.fresh_search()
    assert moves == stream[:3] and engine.genmove("b", commit=False).move == stream[0]
