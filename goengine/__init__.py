"""goengine: a Monte-Carlo tree search Go engine with pluggable bandit selection rules.

Layers, highest first; a module imports only the layers below it (an import-linter contract in
``pyproject.toml`` checks it, run by ``make lint`` and ``make test``):

- ``cli``: the ``goengine`` command, a dispatcher to the front-ends, where text stops: ``gtp``
  (GTP), ``analysis`` (KataGo's JSON protocol, ``goengine analysis``) and ``review`` (game files
  reviewed, ``goengine review``), each owning its command line; all reach the search only
  through ``engine`` (a second contract forbids them ``search`` and ``kernels``) and read a
  search's answer, an immutable ``SearchResult``, never the search;
- ``engine``: the decisions on one game (genmove, analyze, the count), owning the game, the
  clocks, the search, the ``ponder`` thread and a research player (``research_players``: the
  move model or the playout policy alone); ``options``: the engine's options, shared by every
  front-end's command line;
- ``search`` (the trees, the threads, the budget, one ``SearchRequest`` a search),
  ``time_control`` (the clocks and each move's time), ``game`` (the record: board, moves, undo,
  komi, handicap) and ``scoring`` (dead stones and the final count from an ownership map);
- ``result``: the search's answer (``SearchResult``) and the one snapshot that reads it out of
  the trees;
- ``config``: the settings and their rules; ``playout_training`` (fitting the learned playout
  policy, for ``scripts/``); ``training`` (fitting the move model, for
  ``scripts/``), ``sgf`` (game records in and out), ``movemodel`` (the learned move model) and
  ``playout_model`` (the learned playout policy's weights);
- ``board``, and the registries of the choices made by name: ``selection`` (the bandit rules),
  ``policies``, ``priors``, ``players``, ``dynkomi``, ``parallel`` and ``ruleset`` (the rules of
  Go); ``coords``, ``registry``, ``version``, ``mogo3x3`` (MoGo's 3x3 playout patterns) and
  ``jobs`` (the one job runner: here, a process pool or a Dask cluster), ``calibration`` (the
  win rate the front ends report, calibrated on games' results), ``numerals`` (numbers read
  from text in ASCII digits, in linear time) and ``output`` (standard output written whole, or
  one line and a conventional status) below them;
- ``kernels``: numba only, pure functions over arrays.

``lab`` (the match laboratory) stands beside the engine: it drives engines through GTP and uses
only the board, coordinates, the rules, SGF, the version and the job runner; nothing of the engine
imports it.

``docs/HACKING.md`` is the guide to the code: where to start reading, the kernels' conventions,
and the files to touch to add a selection rule, a playout policy, a prior or a GTP command.
"""

__version__ = "0.1.0"
