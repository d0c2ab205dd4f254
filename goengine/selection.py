"""The selection-rule registry: names, parameters with their defaults, papers, and ``score``.

A rule is chosen by name (``ucb1``, ``kl-ucb-rave``, ...). ``resolve(name, **params)`` turns a
name and parameter overrides into what the kernels take: an integer rule id and a float64
parameter array, each parameter at the index constant of ``goengine.kernels.select`` the entry
below names. The formulas themselves live in ``goengine.kernels.select``, once each, whose
docstring lists the papers in full; this module only describes them (the shape every named
choice has: ``goengine.registry``).

    >>> round(score("ucb1", wins=20, visits=2, parent_visits=4, c=2.0), 3)  # Abel 2024's S1 (seed 002)
    11.665
"""

from __future__ import annotations

import numpy as np

from goengine.kernels import select as ks
from goengine.kernels.rng import new_state
from goengine.kernels.search import MAX_PARAMS
from goengine.registry import Choice, Param, Registry

SCHEDULES = (("hand-selected", ks.SCHEDULE_HAND), ("hand", ks.SCHEDULE_HAND))
SCHEDULES += (("minimum-MSE", ks.SCHEDULE_MSE), ("mse", ks.SCHEDULE_MSE))


def _rave_params() -> tuple[Param, ...]:
    return (
        Param(
            "schedule",
            ks.RAVE_SCHEDULE,
            ks.SCHEDULE_MSE,
            "AMAF_weight_schedule",
            "how the AMAF mean's weight falls: hand-selected sqrt(k/(3N+k)) or minimum-MSE",
            choices=SCHEDULES,
        ),
        Param("k", ks.RAVE_K, 1000.0, "hand_schedule_equivalence_k", "parent visits at which the weight is 1/2"),
        Param("b", ks.RAVE_B, 0.01, "minimum_MSE_bias_b", "the RAVE bias of the minimum-MSE schedule"),
        Param("c", ks.RAVE_C, 0.0, "exploration_constant_C", "UCB exploration term (0: none, the paper's)"),
        Param(
            "distance",
            ks.RAVE_DISTANCE,
            0.0,
            "AMAF_distance_weight",
            "an AMAF sample counts 1 + distance x (moves after it)/(moves after the node), rounded: early "
            "moves more (Pachi's distance_rave 3); 0: every sample 1. RAVE beside playouts other than "
            "uniform takes 3 unless given (config.RULE_DEFAULTS_WITH_KNOWLEDGE)",
            low=0.0,
            high=10.0,
        ),
    )


RULES = Registry(
    "selection rule",
    (
        Choice(
            "ucb1",
            ks.UCB1,
            (Param("c", ks.UCB1_C, 1.4142135623730951, "exploration_constant_C"),),
            "Auer, Cesa-Bianchi and Fischer 2002; Abel 2024 (seed 002_76cbbfab57ec8172.txt)",
        ),
        Choice(
            "ucb1-tuned",
            ks.UCB1_TUNED,
            (Param("gamma", ks.UCB1_TUNED_GAMMA, 1.0, "exploration_gamma"),),
            "Stogin et al. 2009 eq. 1.1-1.2, 3.1 (seed 000_3122025fe939e09b.txt)",
        ),
        Choice(
            "beta-ucb",
            ks.BETA_UCB,
            (Param("gamma", ks.BETA_UCB_GAMMA, 1.0, "exploration_gamma"),),
            "Stogin et al. 2009 eq. 2.1-2.2, 3.1 (seed 000_3122025fe939e09b.txt)",
        ),
        Choice(
            "beta-mean-ucb",
            ks.BETA_MEAN_UCB,
            (
                Param("c", ks.BETA_MEAN_UCB_C, 0.4472135954999579, "exploration_constant_C"),
                Param(
                    "bias",
                    ks.BETA_MEAN_UCB_BIAS,
                    1.0,
                    "start_from_one_win_one_loss",
                    "the one-win-one-loss initial bias",
                    flag=True,
                ),
            ),
            "computer-go list, January 2008 (libego; C = sqrt(0.2); seed 001_409292b0b5da6ccf.txt)",
        ),
        Choice(
            "kl-ucb",
            ks.KL_UCB,
            (Param("c", ks.KL_UCB_C, 0.0, "ln_ln_t_coefficient_c"),),
            "Yang and Kaneko eq. 3 (seed 003_ec764aba0e4115cd.txt); Garivier and Cappe 2011",
        ),
        Choice("rave", ks.RAVE, _rave_params(), "Gelly and Silver 2011 (MC-RAVE)", needs_amaf=True),
        Choice(
            "kl-ucb-rave",
            ks.KL_UCB_RAVE,
            _rave_params(),
            "Yang and Kaneko eq. 5 (seed 003_ec764aba0e4115cd.txt)",
            needs_amaf=True,
        ),
        Choice(
            "ucb-v",
            ks.UCB_V,
            (
                Param("c", ks.UCB_V_C, 1.0, "exploration_constant_c"),
                Param("zeta", ks.UCB_V_ZETA, 1.0, "exploration_function_zeta"),
            ),
            "Audibert et al. 2007; Fijalkowski and Burczaniuk 2020 eq. 3-4 (seed 004_b7bcabfe495e5caa.txt)",
        ),
        Choice(
            "ucb-minimal",
            ks.UCB_MINIMAL,
            (
                Param("c1", ks.UCB_MINIMAL_C1, 2.5, "bonus_C1"),
                Param("c2", ks.UCB_MINIMAL_C2, 1.0, "visits_exponent_C2"),
            ),
            "Maes et al. 2011; Fijalkowski and Burczaniuk 2020 eq. 2 (seed 004_b7bcabfe495e5caa.txt)",
        ),
        Choice("thompson", ks.THOMPSON, (), "Thompson 1933; Beta(W+1, L+1) posterior"),
    ),
    MAX_PARAMS,
)


def get(name: str) -> Choice:
    """The rule called ``name``; ValueError listing the known names otherwise."""
    return RULES.get_choice(name)


def resolve(name: str, **params: float | str) -> tuple[int, np.ndarray]:
    """``(rule id, float64 parameter array)`` for the kernels, defaults overridden by ``params``."""
    return get(name).id, RULES.array(name, params)


def describe(name: str, **params: float | str) -> str:
    """``name key=value ...`` for logs and SGF comments."""
    return RULES.describe(name, params)


def score(
    name: str,
    wins: float,
    visits: float,
    parent_visits: float,
    amaf_wins: float = 0.0,
    amaf_visits: float = 0.0,
    seed: int = 0,
    **params: float | str,
) -> float:
    """The score rule ``name`` gives one child, through the very kernel the tree uses.

    ``goengine.selection.score("beta-ucb", wins=3, visits=10, parent_visits=50, gamma=1.0)``.
    ``seed`` feeds the RNG for Thompson sampling.
    """
    rule_id, array = resolve(name, **params)
    return float(
        ks.score(
            np.int64(rule_id),
            array,
            float(wins),
            float(visits),
            float(parent_visits),
            float(amaf_wins),
            float(amaf_visits),
            new_state(seed),
        )
    )
