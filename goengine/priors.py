"""The prior registry: names, parameters with their defaults, and sources.

A prior is chosen by name (``--prior``, ``goengine-set prior NAME``), as the selection rules are
(``goengine.selection``; the shared shape is ``goengine.registry``): its kernel lives in
``goengine.kernels.prior`` and gives a newly expanded node's children their initial (virtual)
visits and wins.

- ``none``: every child starts with no statistics, and PASS is always a child; the research
  setting.
- ``even``: every child starts with some visits at one half (Pachi's even prior).
- ``heuristic``: the even prior plus won visits for captures, atari escapes, 3x3 patterns and
  moves near the last one, lost visits for bad self-ataris and the first line in an empty area
  (Gelly and Silver 2007; Pachi's ``uct/prior.c``; michi).
- ``patterns`` (the default): the even prior plus sqrt(p) x ``weight`` won visits for a move the
  learned move model (``goengine.movemodel``) gives probability p (Coulom 2007; Pachi's pattern
  prior, with Pachi's 19x19 values: an even prior of 20 and a weight of 300).

Every prior but ``none`` keeps PASS out of the tree until the game nears its end
(``goengine.kernels.prior.pass_is_child``).
"""

from __future__ import annotations

from goengine.kernels import prior as kprior
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Param, Registry

DEFAULT_PRIOR = "movemodel"
MAX_VISITS = 100_000  # virtual visits a heuristic may give (the counts are int32)


def _even(default: float = 10.0) -> Param:
    return _visits("even", kprior.PRIOR_EVEN, default, "even_visits", "visits at one half every child starts with")


def _visits(name: str, index: int, default: float, words: str, doc: str) -> Param:
    return Param(name, index, default, words, doc, low=0.0, high=MAX_VISITS)


def _won(name: str, index: int, default: float, words: str, doc: str) -> Param:
    return _visits(name, index, default, words, f"won visits for {doc}")


PRIORS = Registry(
    "prior",
    (
        Choice("none", kprior.NONE, (), "no prior knowledge"),
        Choice("even", kprior.EVEN, (_even(),), "Pachi uct/prior.c (even prior)"),
        Choice(
            "heuristic",
            kprior.HEURISTIC,
            (
                _even(),
                _won("capture", kprior.PRIOR_CAPTURE, 15.0, "capture_visits", "a move that captures"),
                _won("escape", kprior.PRIOR_ESCAPE, 15.0, "atari_escape_visits", "an extension that saves a chain"),
                _won("pattern", kprior.PRIOR_PATTERN, 10.0, "pattern_visits", "a MoGo 3x3 pattern move"),
                _visits(
                    "self_atari",
                    kprior.PRIOR_SELF_ATARI,
                    10.0,
                    "self_atari_visits",
                    "lost visits for a self-atari of more than one stone",
                ),
                _visits(
                    "first_line",
                    kprior.PRIOR_FIRST_LINE,
                    10.0,
                    "first_line_visits",
                    "lost visits for the first line with no stone within distance 2",
                ),
                _won(
                    "near_last",
                    kprior.PRIOR_NEAR_LAST,
                    20.0,
                    "near_last_move_visits",
                    "a move within distance 2 of the last",
                ),
            ),
            "Gelly and Silver 2007 section 4; Pachi uct/prior.c; michi expand()",
        ),
        Choice(
            "movemodel",
            kprior.MOVE_MODEL,
            (
                _even(20.0),
                _won(
                    "weight",
                    kprior.MODEL_WEIGHT,
                    300.0,
                    "pattern_weight",
                    "a move of probability 1 under the move model (sqrt(p) x this for p)",
                ),
                Param(
                    "min_p",
                    kprior.MODEL_MIN_P,
                    0.001,
                    "pattern_min_probability",
                    "the probability under which a move gets the even visits only",
                    low=0.0,
                    high=1.0,
                ),
                Param(
                    "tactics",
                    kprior.MODEL_TACTICS,
                    0.0,
                    "tactical_visits",
                    "the unit of a quick reading's virtual games: a capture or a working escape of n stones wins "
                    "x (2 + (n - 1) / 2), a caught ladder run or a bad self-atari loses x 1; 0 reads nothing",
                    low=0.0,
                    high=MAX_VISITS,
                ),
            ),
            "Coulom 2007 (generalised Bradley-Terry move model); Pachi uct/prior.c (sqrt(p) pattern prior; "
            "Pachi 11: the policy's tactical assessment beside it)",
            needs_move_model=True,
            aliases=("patterns",),  # its name until the move model's names said what it is
        ),
    ),
    MAX_PARAMS,
)
