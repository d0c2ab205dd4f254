"""goengine: a Monte-Carlo tree search Go engine with pluggable bandit selection rules.

Layers, lowest first: ``kernels`` (numba, arrays only) -> ``coords``, ``board`` (the game-level
board) -> search and engine -> the GTP front-end. A module imports only the layers below it.
"""

__version__ = "0.1.0"
