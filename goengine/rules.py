"""The selection-rule registry: names, parameters with their defaults, papers, and ``score``.

A rule is chosen by name (``ucb1``, ``kl-ucb-rave``, ...). ``resolve(name, **params)`` turns a
name and parameter overrides into what the kernels take: an integer rule id and a float64
parameter array. The formulas themselves live in ``goengine.kernels.select``, once each; this
module only describes them.

    >>> round(score("ucb1", wins=20, visits=2, parent_visits=4, c=2.0), 3)  # seed 002's S1
    11.665
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from goengine.kernels import select as ks
from goengine.kernels.rng import new_state

SCHEDULES = {"hand": ks.SCHEDULE_HAND, "mse": ks.SCHEDULE_MSE}


@dataclass(frozen=True)
class Rule:
    """A selection rule: its kernel id, parameters (name -> default, in kernel order), whether it
    needs AMAF statistics, and where the formula comes from."""

    name: str
    rule_id: int
    params: dict[str, float] = field(default_factory=dict)
    needs_amaf: bool = False
    source: str = ""


_RAVE_PARAMS = {"schedule": ks.SCHEDULE_MSE, "k": 1000.0, "b": 0.01, "c": 0.0}

RULES: dict[str, Rule] = {
    r.name: r
    for r in (
        Rule("ucb1", ks.UCB1, {"c": 1.4142135623730951}, source="seed 002_76cbbfab57ec8172.txt; Auer et al. 2002"),
        Rule("ucb1-tuned", ks.UCB1_TUNED, {"gamma": 1.0}, source="seed 000_3122025fe939e09b.txt eq. 1.1-1.2, 3.1"),
        Rule("beta-ucb", ks.BETA_UCB, {"gamma": 1.0}, source="seed 000_3122025fe939e09b.txt eq. 2.1-2.2, 3.1"),
        Rule(
            "beta-mean-ucb",
            ks.BETA_MEAN_UCB,
            {"c": 0.4472135954999579, "prior": 1.0},
            source="seed 001_409292b0b5da6ccf.txt (libego; C = sqrt(0.2))",
        ),
        Rule("kl-ucb", ks.KL_UCB, {"c": 0.0}, source="seed 003_ec764aba0e4115cd.txt eq. 3; Garivier and Cappe 2011"),
        Rule("rave", ks.RAVE, dict(_RAVE_PARAMS), needs_amaf=True, source="Gelly and Silver 2011 (MC-RAVE)"),
        Rule("kl-ucb-rave", ks.KL_UCB_RAVE, dict(_RAVE_PARAMS), needs_amaf=True, source="seed 003 eq. 5"),
        Rule("ucb-v", ks.UCB_V, {"c": 1.0, "zeta": 1.0}, source="seed 004_b7bcabfe495e5caa.txt eq. 3-4"),
        Rule("ucb-minimal", ks.UCB_MINIMAL, {"c1": 2.5, "c2": 1.0}, source="seed 004_b7bcabfe495e5caa.txt eq. 2"),
        Rule("thompson", ks.THOMPSON, {}, source="Thompson 1933; Beta(W+1, L+1) posterior"),
    )
}


def get(name: str) -> Rule:
    """The rule called ``name``; ValueError listing the known names otherwise."""
    rule = RULES.get(name.strip().lower())
    if rule is None:
        raise ValueError(f"unknown selection rule {name!r}; known: {', '.join(RULES)}")
    return rule


def param_value(rule: Rule, key: str, value: float | str) -> float:
    """One parameter value as the kernel takes it (``schedule`` accepts ``hand``/``mse``)."""
    if key not in rule.params:
        raise ValueError(f"rule {rule.name} has no parameter {key!r}; it has: {', '.join(rule.params) or 'none'}")
    if key == "schedule" and isinstance(value, str):
        if value not in SCHEDULES:
            raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {value!r}")
        return SCHEDULES[value]
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"parameter {key} of {rule.name} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"parameter {key} of {rule.name} must be finite, got {value!r}")
    if key == "schedule" and number not in SCHEDULES.values():
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {value!r}")
    return number


def resolve(name: str, **params: float | str) -> tuple[int, np.ndarray]:
    """``(rule id, float64 parameter array)`` for the kernels, defaults overridden by ``params``."""
    rule = get(name)
    values = dict(rule.params)
    for key, value in params.items():
        values[key] = param_value(rule, key, value)
    array = np.zeros(max(1, len(values)), dtype=np.float64)
    for i, key in enumerate(rule.params):
        array[i] = values[key]
    return rule.rule_id, array


def describe(name: str, params: np.ndarray | None = None) -> str:
    """``name key=value ...`` for logs and SGF comments."""
    rule = get(name)
    values = list(rule.params.values()) if params is None else list(params[: len(rule.params)])
    parts = []
    for key, value in zip(rule.params, values, strict=True):
        if key == "schedule":
            parts.append(f"schedule={'hand' if value == ks.SCHEDULE_HAND else 'mse'}")
        else:
            parts.append(f"{key}={value:g}")
    return " ".join([rule.name, *parts])


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

    ``goengine.rules.score("beta-ucb", wins=3, visits=10, parent_visits=50, gamma=1.0)``.
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
