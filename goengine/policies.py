"""The playout-policy registry: names, parameters with their defaults, and sources.

A playout policy is chosen by name (``--playout``, ``goengine-set playout NAME``), as the
selection rules are (``goengine.rules``; the shared shape is ``goengine.registry``): its kernel
lives in ``goengine.kernels.policy`` and is dispatched there by the id below.

- ``uniform``: every legal move that does not fill the mover's own eye is equally likely (the
  light playouts of libego and Pachi); the research setting.
"""

from __future__ import annotations

from goengine.kernels import policy as kpolicy
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Registry

DEFAULT_POLICY = "uniform"

POLICIES = Registry(
    "playout policy",
    (Choice("uniform", kpolicy.UNIFORM, (), "light playouts: libego, Pachi's playout/light.c"),),
    MAX_PARAMS,
    plural="playout policies",
)
