"""The prior registry: names, parameters with their defaults, and sources.

A prior is chosen by name (``--prior``, ``goengine-set prior NAME``), as the selection rules are
(``goengine.rules``; the shared shape is ``goengine.registry``): its kernel lives in
``goengine.kernels.prior`` and gives a newly expanded node's children their initial (virtual)
visits and wins.

- ``none``: every child starts with no statistics; the research setting.
"""

from __future__ import annotations

from goengine.kernels import prior as kprior
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Registry

DEFAULT_PRIOR = "none"

PRIORS = Registry("prior", (Choice("none", kprior.NONE, (), "no prior knowledge"),), MAX_PARAMS)
