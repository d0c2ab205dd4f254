"""What several test modules share: running a search on a budget.

A module's own fixtures stay in the module; what two or more modules need lives here, so no test
module imports another.
"""

from __future__ import annotations

from goengine.board import Board
from goengine.config import Budget
from goengine.search import Search, SearchResult


def run(search: Search, board: Board, komi: float, **budget) -> SearchResult:
    """``search`` on ``board`` with the budget of its settings (``Budget.of``), or on ``budget``
    (``playouts=``, ``seconds=``) when given."""
    return search.run(board, komi, Budget(**budget) if budget else Budget.of(search.config))
