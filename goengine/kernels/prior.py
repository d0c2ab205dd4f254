"""Prior knowledge: the initial statistics a node's new children get when it is expanded, one
kernel per prior, dispatched by an integer prior id.

Reading guide: ``init_children`` is called by the search (``kernels.search.expand``) right after
a node's children are allocated, with the position they are moves of; it may add to each child
virtual visits and wins ("equivalent experience", Gelly and Silver 2007, "Combining online and
offline knowledge in UCT", section 4) in ``VISITS`` / ``WINS``, so every selection rule sees them.
Wins are from the point of view of the child's mover, as everywhere in the tree. The Python
registry ``goengine.priors`` holds the names, parameters with their defaults, and sources.

A prior must be a function of the position and its parameters only (no random draw): the tree
does not store what a prior gave, and the search recomputes it for the root's children, by
calling ``init_children`` again on fresh counts, to report what it searched apart from what it
assumed (``Search.root_stats``).

``none`` gives nothing: every child starts at zero, the research setting.
"""

from numba import njit

NONE = 0
N_PRIORS = 1


@njit(cache=True, inline="always")
def init_children(prior, params, pts, meta, ti, tf, first, count):
    """Give the children ``first .. first + count - 1`` (the moves of the side to move in
    ``(pts, meta)``) the initial statistics of prior ``prior`` (an id above): virtual visits and
    wins added to ``VISITS`` / ``WINS``. ``none`` and an unknown id give nothing."""
    return
