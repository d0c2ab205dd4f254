"""Who chooses the engine's move, by name: the search (the engine), or one of its parts alone.

- ``search`` (the default): the tree search with its selection rule, playouts and prior.
- ``model``: the move model's most probable legal move (``goengine.movemodel``), no search: what
  the prior knows, played alone (the counterpart of Pachi's ``-e pattern`` engine).
- ``playout``: one move of the playout policy (``--playout`` and its parameters), no search: what
  each playout knows, played alone (the counterpart of Pachi's ``-e replay`` engine).

The last two are research players (issue 47: which of an engine's parts carries its strength),
not ways to play well; each has its own move (``goengine.research_players``), and a seed
reproduces their games. The registry has the shape of the kernels' ones (``goengine.registry``);
the choice is made in Python.
"""

from __future__ import annotations

from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Registry

SEARCH = 0
MODEL = 1
PLAYOUT = 2

DEFAULT_PLAYER = "search"

PLAYERS = Registry(
    "player",
    (
        Choice("search", SEARCH, (), "the engine: UCT with its selection rule, playout policy and prior"),
        Choice("model", MODEL, (), "the move model's first choice (Coulom 2007), no search"),
        Choice("playout", PLAYOUT, (), "one move of the playout policy, no search"),
    ),
    MAX_PARAMS,
)
