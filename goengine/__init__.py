"""goengine: a Monte-Carlo tree search Go engine with pluggable bandit selection rules.

Layers, highest first; a module imports only the layers below it (an import-linter contract in
``pyproject.toml`` checks it, run by ``make lint`` and ``make test``):

- ``cli``: the ``goengine`` command; ``gtp``: the GTP front-end, where text stops; both reach the
  search only through ``engine`` (a second contract forbids them ``search`` and ``kernels``);
- ``engine``: one game, each move's budget and the move decision; ``search`` and
  ``time_control`` below it;
- ``config``: the settings and their rules; ``sgf``: game records in and out;
- ``board``, ``rules``, ``policies``, ``priors``: the game-level board and the registries of the
  choices made by name; ``coords``, ``registry`` and ``version`` below them;
- ``kernels``: numba only, pure functions over arrays.

``lab`` (the match laboratory) stands beside the engine: it drives engines through GTP and uses
only the board, coordinates and SGF; nothing of the engine imports it.

``docs/HACKING.md`` is the guide to the code: where to start reading, the kernels' conventions,
and the files to touch to add a selection rule, a playout policy, a prior or a GTP command.
"""

__version__ = "0.1.0"
