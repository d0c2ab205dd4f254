"""Last good replies with forgetting (LGRF-2): the playouts' memory of which reply won.

Drake 2009, "The Last-Good-Reply Policy for Monte-Carlo Go" (ICGA Journal 32(4)); Baier and
Drake 2010, "The Power of Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go"
(IEEE TCIAIG 2(4)); Orego's ``LgrfTable``, which keeps one table for all threads
(tactics_notes.md section 8).

``replies`` is int32[3, MAX_POINTS + 1, MAX_POINTS], indexed by colour and padded points:
``replies[c, a, b]`` is ``c``'s last good reply to the move ``b`` played after ``a`` (LGR-2), and
``replies[c, NO_PREVIOUS, b]`` (the last row, ``no_previous``) its last good reply to ``b``
whatever came before (LGR-1); PASS where there is none. After each iteration every move of it
(tree part and playout, after the two moves that led to the root) is learnt as the reply to the
one or two before it when its player won, and forgotten (the entry cleared, if it holds that
move) when its player lost. Passes are never stored, nor replies to a pass. A draw teaches
nothing.

The table is a function of the board's width (padded points): the search clears it when the board
size changes (``goengine.search``). All threads write it without locks, as Orego does: an int32
store is whole, and a lost update only forgets one reply. A table of shape (3, 1, 1)
(``no_replies``) is the "none" a caller without a search passes; the playout policy never reads
it (``policy.last_good_reply``).
"""

import numpy as np
from numba import njit

from . import at
from .board import BLACK, MAX_POINTS, PASS


def new_replies() -> np.ndarray:
    """An empty table for any board size up to 19x19 (2.3 MB)."""
    return np.full((3, MAX_POINTS + 1, MAX_POINTS), PASS, dtype=np.int32)


@njit(cache=True)
def no_replies():
    """The stand-in of callers that keep no replies: typed as a table, so kernels compile once.
    A kernel, so that ``playout.outside_search`` can make it too."""
    return np.full((3, 1, 1), PASS, dtype=np.int32)


@njit(cache=True, _nrt=False, inline="always")
def no_previous(replies):
    """The row of the LGR-1 replies."""
    return replies.shape[1] - 1


@njit(cache=True, _nrt=False)
def learn_replies(replies, seq, n, first_color, black_wins):
    """Learn from one iteration's moves ``seq[:n]``, played alternately from ``first_color``
    (``seq[0]``, ``seq[1]``: the two moves before the root, learnt from but not learnt), which
    ended with ``black_wins``: each later move is stored as its player's reply to the move before
    it (and to the two before, LGR-2) when its player won, and its entries cleared when they hold
    it and its player lost."""
    none = no_previous(replies)
    for t in range(2, n):
        m = seq[at(t)]
        prev = seq[at(t - 1)]
        if m == PASS or prev == PASS:
            continue
        c = first_color if t % 2 == 0 else 3 - first_color
        prev2 = seq[at(t - 2)]
        if (c == BLACK) == black_wins:
            replies[c, none, at(prev)] = m
            if prev2 != PASS:
                replies[c, at(prev2), at(prev)] = m
        else:
            if replies[c, none, at(prev)] == m:
                replies[c, none, at(prev)] = PASS
            if prev2 != PASS and replies[c, at(prev2), at(prev)] == m:
                replies[c, at(prev2), at(prev)] = PASS
