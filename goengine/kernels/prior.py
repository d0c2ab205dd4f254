"""Prior knowledge: the initial statistics a node's new children get when it is expanded, one
kernel per prior, dispatched by an integer prior id.

Reading guide: ``init_children`` is called by the search (``kernels.search.expand``) right after
a node's children are allocated, with the position they are moves of; it may give each child
virtual visits and wins ("equivalent experience", Gelly and Silver 2007, "Combining online and
offline knowledge in UCT", section 4), written both into ``VISITS`` / ``WINS`` (so every
selection rule sees them) and into ``PRIOR_VISITS`` / ``PRIOR_WINS`` (so what was searched can be
told from what was assumed: ``kernels.tree``). Wins are from the point of view of the child's
mover, as everywhere in the tree. The Python registry ``goengine.priors`` holds the names,
parameters with their defaults, and sources.

``none`` gives nothing: every child starts at zero, the research setting.
"""

from numba import njit

NONE = 0
N_PRIORS = 1


@njit(cache=True, inline="always")
def init_children(prior, params, pts, meta, ti, tf, first, count):
    """Give the children ``first .. first + count - 1`` (the moves of the side to move in
    ``(pts, meta)``) the initial statistics of prior ``prior`` (an id above): virtual visits and
    wins added to both ``VISITS`` / ``WINS`` and ``PRIOR_VISITS`` / ``PRIOR_WINS``. ``none`` and an
    unknown id give nothing."""
    return
