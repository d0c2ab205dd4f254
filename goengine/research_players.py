"""The research players: one part of the engine alone, each with its own move and no search.

``players.PLAYERS`` names them beside ``search`` (the engine itself): ``model`` plays the move
model's most probable legal move (Pachi's ``-e pattern`` engine is its counterpart), ``playout``
one draw of the playout policy chosen by ``--playout`` and its parameters (Pachi's ``-e replay``).
They measure which of an engine's parts carries its strength (issue 47), not ways to play well.
``of(config)`` builds the one a configuration names (None for ``search``); ``Engine.genmove``
asks its ``move``.

The playout player draws from a random stream of its own, seeded with the configuration's seed
as the search's first tree is: with one thread, a seed gives the games it gave when the player
drew from that tree's stream.
"""

from __future__ import annotations

import numpy as np

from goengine import movemodel
from goengine.board import PASS, ZOBRIST, Board
from goengine.config import SearchConfig
from goengine.kernels import board as kb
from goengine.kernels import learned as klearned
from goengine.kernels import policy as kpolicy
from goengine.kernels import search as ksearch
from goengine.kernels.replies import no_replies
from goengine.kernels.rng import new_state
from goengine.search import MOGO3X3, KernelSettings, learned_playouts


class ModelPlayer:
    """``model``: the move model's most probable legal move (PASS when it has none)."""

    name = "model"

    def move(self, board: Board) -> int:
        policy = movemodel.shipped().policy(board, board.to_move)
        return min(policy, key=lambda m: (-policy[m], m)) if policy else PASS


class PlayoutPlayer:
    """``playout``: one move of the configuration's playout policy for the side to move (PASS
    when it draws none, or a move positional superko forbids)."""

    name = "playout"

    def __init__(self, config: SearchConfig):
        kernel = KernelSettings.of(config)
        self.policy = kernel.settings[ksearch.POLICY]
        self.params = kernel.params[ksearch.POLICY_PARAMS]
        self.learned = learned_playouts(kernel) if self.policy == kpolicy.LEARNED else None
        self.rng = new_state(config.seed)

    def move(self, board: Board) -> int:
        c = board.to_move
        pts, meta = board.pts.copy(), board.meta.copy()
        if self.learned is not None:
            state = klearned.new_state(pts.shape[1], int(meta[kb.W]))
            move = klearned.first_move(pts, meta, ZOBRIST, self.learned, state, np.int64(c), self.rng)
        else:
            move = kpolicy.choose_move(
                self.policy, self.params, MOGO3X3, no_replies(), pts, meta, ZOBRIST, np.int64(c), self.rng
            )
        move = int(move)
        return move if move == PASS or board.is_legal(c, move) else PASS


def of(config: SearchConfig) -> ModelPlayer | PlayoutPlayer | None:
    """The research player ``config.player`` names, or None for ``search`` (the engine)."""
    if config.player == ModelPlayer.name:
        return ModelPlayer()
    if config.player == PlayoutPlayer.name:
        return PlayoutPlayer(config)
    return None
