"""Tuning goengine's continuous parameters on games: SPSA against a fixed opponent.

Simultaneous perturbation stochastic approximation (Spall 1992, "Multivariate stochastic
approximation using a simultaneous perturbation gradient approximation", IEEE TAC 37(3); gains
as in Spall 1998, "Implementation of the simultaneous perturbation algorithm for stochastic
optimization", IEEE TAES 34(3)). The parameters live on [0, 1] each (``Knob`` maps them to their
ranges). At iteration k (from 0):

    a_k = a / (k + 1 + A) ** 0.602        c_k = c / (k + 1) ** 0.101
    delta: each coordinate +1 or -1 at random
    theta+ = clip(theta + c_k delta), theta- = clip(theta - c_k delta)
    r+, r- = the share of games goengine wins at theta+ and at theta- against the opponent, over
             ``games`` games each (the same colours and seeds for both, so their luck is shared)
    theta = clip(theta + a_k (r+ - r-) / (2 c_k) delta)

so the win rate against the opponent climbs. ``A`` is a tenth of the planned iterations, as Spall
advises. Each game is a ``referee.GameSpec`` played where the match laboratory plays games
(``schedule.play_games`` on the one job runner, ``goengine.jobs``: here, a pool or a cluster),
recorded in ``OUT/games.jsonl`` (``records``); each iteration's figures are appended to
``OUT/spsa.jsonl``. The same command resumes: an iteration whose games are all recorded is not
played again, and theta is what the recorded iterations made it. The iterations' thetas are the
result; their mean over the last half is the estimate to confirm with a match. The iterates wander
on the noise of the games as well as climb: ``noise_spread`` says how far noise alone moves a knob
(printed when a run starts and in its report). With 2 games a side, a = c = 0.15 and 200
iterations it is a third of a knob's range, and a run against Pachi ended at an estimate that lost
10 points at the same budget (docs/results/spsa-9x9.md).

Reading guide: ``Knob`` (a parameter and its goengine option), ``gains``, ``noise_spread``,
``perturbed``, ``step`` (the formulas above, pure), ``Tuner`` (the games and the files).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from goengine import numerals
from goengine.coords import BOARD_SIZES
from goengine.jobs import Runner
from goengine.lab.engines import DEFAULT_ENGINE, TIMEOUT
from goengine.lab.records import append_record, load_records
from goengine.lab.referee import GameSpec
from goengine.lab.schedule import play_games

ALPHA = 0.602  # Spall 1998's exponents of the gain sequences
GAMMA = 0.101
_KNOB = re.compile(r"^(?:(rule|playout|prior|dynkomi)\.)?([a-z][a-z0-9_]*)$")
# The default gains. One iteration's score difference r+ - r- is noise of about 0.5 with two games
# a side, and a parameter's whole range is worth a few points of win rate in Go, so a step must be
# small: with a = c = 0.15 and A = 20, a difference of 0.5 moves a knob by 0.15 / 21^0.602 * 0.5 /
# 0.3 = 4 % of its range at first (a = 1 moved it 40 %, to its ends in one iteration: seen on the
# first run against Pachi), and theta + c delta stays within 15 % of theta.
DEFAULT_A = 0.15
DEFAULT_C = 0.15
_OPTION = {"rule": "--param", "playout": "--playout-param", "prior": "--prior-param", "dynkomi": "--dynkomi-param"}


@dataclass(frozen=True)
class Knob:
    """One parameter tuned: ``name`` as goengine names it (``prior.even``: a parameter of the
    prior, so ``--prior-param even=V``; ``rule.b``, ``playout.capture``, ``dynkomi.X`` likewise;
    a setting such as ``expand_at`` is ``--expand-at V``), its range ``low`` to ``high`` and
    whether it takes whole numbers."""

    name: str
    low: float
    high: float
    integer: bool = False

    def __post_init__(self) -> None:
        if not _KNOB.match(self.name):
            raise ValueError(f"{self.name!r}: a setting (expand_at) or a parameter (prior.even, rule.b)")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"{self.name}: the range {self.low:g} to {self.high:g} is empty")

    @classmethod
    def parse(cls, text: str) -> Knob:
        """``NAME=LOW:HIGH`` (``prior.even=5:40``), with ``:int`` for whole numbers."""
        name, sep, rest = text.partition("=")
        parts = rest.split(":")
        if not sep or len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "int"):
            raise ValueError(f"{text!r}: NAME=LOW:HIGH or NAME=LOW:HIGH:int")
        try:
            low, high = float(parts[0]), float(parts[1])
        except ValueError:
            raise ValueError(f"{text!r}: the range's ends are numbers") from None
        return cls(name.strip(), low, high, len(parts) == 3)

    def value(self, x: float) -> float:
        """The parameter's value at ``x`` in [0, 1]."""
        v = self.low + min(1.0, max(0.0, x)) * (self.high - self.low)
        return float(round(v)) if self.integer else v

    def unit(self, value: float) -> float:
        """Where ``value`` lies in [0, 1] (clipped)."""
        return min(1.0, max(0.0, (value - self.low) / (self.high - self.low)))

    def option(self, x: float) -> str:
        """The goengine command-line words that set this parameter to its value at ``x``."""
        group, name = _KNOB.match(self.name).groups()
        value = self.value(x)
        text = str(int(value)) if self.integer else f"{value:.6g}"
        if group is None:
            return f"--{name.replace('_', '-')} {text}"
        return f"{_OPTION[group]} {name}={text}"


def gains(k: int, a: float, c: float, big_a: float) -> tuple[float, float]:
    """``(a_k, c_k)`` of iteration ``k`` (module docstring)."""
    return a / (k + 1 + big_a) ** ALPHA, c / (k + 1) ** GAMMA


def noise_spread(
    iterations: int, games: int, a: float, c: float, sd_difference: float | None = None, planned: int | None = None
) -> float:
    """How far noise alone moves a knob over the first ``iterations`` of a run of ``planned``
    (default: as many; A is a tenth of them), as the standard deviation of its final theta on the
    unit scale, with no gradient and no clipping: each step adds a_k / (2 c_k)
    times r+ - r-, whose standard deviation is ``sd_difference``, by default sqrt(0.5 / games)
    (two independent win rates of ``games`` games each near one half; shared seeds make it a
    little smaller, so a run's own figure may be given). Above a tenth of a range the iterates
    are a random walk as much as a climb: the run's estimate then needs its confirmation match
    more than ever, and more games an iteration or a smaller ``a`` make the walk shorter (the
    spread falls as a / sqrt(games))."""
    sd = math.sqrt(0.5 / games) if sd_difference is None else sd_difference
    big_a = (planned or iterations) / 10.0
    total = 0.0
    for k in range(iterations):
        a_k, c_k = gains(k, a, c, big_a)
        total += (a_k / (2.0 * c_k) * sd) ** 2
    return math.sqrt(total)


def perturbed(theta: Sequence[float], delta: Sequence[int], c_k: float) -> tuple[list[float], list[float]]:
    """``(theta+, theta-)``, each coordinate clipped to [0, 1]."""
    plus = [min(1.0, max(0.0, t + c_k * d)) for t, d in zip(theta, delta, strict=True)]
    minus = [min(1.0, max(0.0, t - c_k * d)) for t, d in zip(theta, delta, strict=True)]
    return plus, minus


def step(
    theta: Sequence[float], delta: Sequence[int], r_plus: float, r_minus: float, a_k: float, c_k: float
) -> list[float]:
    """Theta after one iteration: up the estimated gradient of the score, clipped to [0, 1]."""
    g = (r_plus - r_minus) / (2.0 * c_k)
    return [min(1.0, max(0.0, t + a_k * g * d)) for t, d in zip(theta, delta, strict=True)]


def delta_of(seed: int, k: int, n: int) -> list[int]:
    """Iteration ``k``'s perturbation: ``n`` signs drawn from a stream of ``seed`` and ``k``, so a
    resumed run draws the same ones."""
    rng = random.Random(seed * 1_000_003 + k)
    return [1 if rng.random() < 0.5 else -1 for _ in range(n)]


@dataclass
class Tuner:
    """SPSA of ``knobs`` from ``start`` (values in their ranges) for ``iterations`` iterations:
    goengine (``engine``, a command line to which each side's options are added) against
    ``opponent``, ``games`` games a side and iteration, colours alternating from game to game of
    an iteration. ``spec`` holds the games' fields (size, komi, timeouts, clock) as a
    ``GameSpec``'s keywords; ``out`` the folder of the records."""

    knobs: list[Knob]
    start: list[float]
    engine: str
    opponent: str
    out: Path
    iterations: int = 100
    games: int = 2
    a: float = DEFAULT_A
    c: float = DEFAULT_C
    seed: int = 1
    spec: dict = field(default_factory=dict)

    def command(self, x: Sequence[float]) -> str:
        return " ".join([self.engine, *(k.option(v) for k, v in zip(self.knobs, x, strict=True))])

    def history(self) -> list[dict]:
        """The iterations recorded in ``spsa.jsonl``, in order."""
        path = self.out / "spsa.jsonl"
        return load_records(path) if path.exists() else []

    def theta(self) -> list[float]:
        """Theta now, on [0, 1]: the start, or the last recorded iteration's result."""
        done = self.history()
        return (
            list(done[-1]["theta_after"]) if done else [k.unit(v) for k, v in zip(self.knobs, self.start, strict=True)]
        )

    def specs(self, k: int, plus: Sequence[float], minus: Sequence[float]) -> list[GameSpec]:
        """Iteration ``k``'s games: for each of ``games``, theta+ and theta- with the same colour
        and seed."""
        specs = []
        for g in range(self.games):
            index = k * self.games + g
            seed = self.seed + index
            for side, x in (("plus", plus), ("minus", minus)):
                specs.append(
                    GameSpec(
                        config=side,
                        index=index,
                        engine=f"{self.command(x)} --seed {seed}",
                        opponent=self.opponent,
                        engine_black=g % 2 == 0,
                        **self.spec,
                    )
                )
        return specs

    def run(self, runner: Runner, log=print) -> list[float]:
        """Play the iterations still to play; theta at the end."""
        self.out.mkdir(parents=True, exist_ok=True)
        games_path = self.out / "games.jsonl"
        theta = self.theta()
        big_a = self.iterations / 10.0
        for k in range(len(self.history()), self.iterations):
            a_k, c_k = gains(k, self.a, self.c, big_a)
            delta = delta_of(self.seed, k, len(self.knobs))
            plus, minus = perturbed(theta, delta, c_k)
            recorded = load_records(games_path) if games_path.exists() else []
            have = {(r["config"], r["index"]): r for r in recorded if not r.get("void")}
            specs = [s for s in self.specs(k, plus, minus) if (s.config, s.index) not in have]
            for _, record in play_games(runner, specs):
                append_record(games_path, record)
                if not record.get("void"):
                    have[(record["config"], record["index"])] = record
            keys = [(side, k * self.games + g) for g in range(self.games) for side in ("plus", "minus")]
            missing = [key for key in keys if key not in have]
            if missing:  # stopped, or games void: the iteration waits for the next run
                log(f"iteration {k}: {len(keys) - len(missing)} of {len(keys)} games finished; run again to go on")
                break
            r_plus = sum(bool(have[key].get("engine_won")) for key in keys if key[0] == "plus") / self.games
            r_minus = sum(bool(have[key].get("engine_won")) for key in keys if key[0] == "minus") / self.games
            after = step(theta, delta, r_plus, r_minus, a_k, c_k)
            append_record(
                self.out / "spsa.jsonl",
                {
                    "k": k,
                    "a_k": a_k,
                    "c_k": c_k,
                    "delta": delta,
                    "theta": theta,
                    "r_plus": r_plus,
                    "r_minus": r_minus,
                    "theta_after": after,
                    "values": {kn.name: kn.value(x) for kn, x in zip(self.knobs, after, strict=True)},
                },
            )
            log(
                f"iteration {k}: {r_plus:.2f} vs {r_minus:.2f}; "
                + ", ".join(f"{kn.name} {kn.value(x):.4g}" for kn, x in zip(self.knobs, after, strict=True))
            )
            theta = after
        return theta

    def estimate(self) -> dict[str, float]:
        """The parameters' values at the mean theta of the last half of the iterations recorded
        (the start's when none)."""
        done = self.history()
        if not done:
            return {k.name: v for k, v in zip(self.knobs, self.start, strict=True)}
        tail = done[len(done) // 2 :]
        mean = [sum(r["theta_after"][i] for r in tail) / len(tail) for i in range(len(self.knobs))]
        return {k.name: k.value(x) for k, x in zip(self.knobs, mean, strict=True)}


def parse_args(argv: list[str] | None = None) -> tuple[argparse.Namespace, Tuner]:
    """The command line (``scripts/tune.py --help``) and the tuner it describes."""
    p = argparse.ArgumentParser(
        prog="scripts/tune.py",
        description="Tune goengine's parameters by SPSA on games against an opponent (goengine.lab.tune).",
        epilog="example: python scripts/tune.py --opponent 'PACHI -t =2000' --playouts 2000 "
        "--knob prior.even=5:40@20 --knob prior.weight=100:500@300 --iterations 200 --out results/tune-prior",
    )
    p.add_argument("--knob", action="append", default=[], metavar="NAME=LOW:HIGH[:int]@START", required=True)
    p.add_argument("--opponent", required=True, help="the opponent's GTP command line")
    p.add_argument("--engine", default=DEFAULT_ENGINE + " --threads 1", help="goengine's command line")
    p.add_argument("--playouts", type=numerals.option(int, 1), default=None, help="goengine's playouts a move")
    p.add_argument("--size", type=numerals.option(int, BOARD_SIZES[0], BOARD_SIZES[-1]), default=9)
    p.add_argument("--komi", type=numerals.option(float, -150, 150), default=7.5)
    p.add_argument("--iterations", type=numerals.option(int, 1), default=100)
    p.add_argument(
        "--games", type=numerals.option(int, 1), default=2, help="games a side and iteration (colours alternate)"
    )
    p.add_argument("--a", type=numerals.option(float), default=DEFAULT_A, help="SPSA's step gain a (on the unit scale)")
    p.add_argument(
        "--c", type=numerals.option(float), default=DEFAULT_C, help="SPSA's perturbation c (on the unit scale)"
    )
    p.add_argument("--seed", type=numerals.option(int, 0, 2**62), default=1)
    p.add_argument("--jobs", type=numerals.option(int, 1), default=1, help="games played at once")
    p.add_argument("--cluster", default=None, metavar="tcp://HOST:PORT")
    p.add_argument("--out", required=True, help="folder for games.jsonl and spsa.jsonl")
    p.add_argument("--report", action="store_true", help="play nothing: print the iterations and the estimate")
    args = p.parse_args(argv)
    knobs, start = [], []
    for text in args.knob:
        spec, at, value = text.rpartition("@")
        if not at:
            p.error(f"--knob {text}: NAME=LOW:HIGH[:int]@START")
        try:
            knob = Knob.parse(spec)
            start.append(float(value))
        except ValueError as err:
            p.error(f"--knob {text}: {err}")
        knobs.append(knob)
    engine = args.engine + (f" --playouts {args.playouts}" if args.playouts else "")
    spec = {"size": args.size, "komi": args.komi, "timeout": TIMEOUT}
    tuner = Tuner(knobs, start, engine, args.opponent, Path(args.out), args.iterations, args.games, args.a, args.c,
                  args.seed, spec)  # fmt: skip
    return args, tuner


def main(argv: list[str] | None = None) -> int:
    args, tuner = parse_args(argv)
    if not args.report:
        spread = noise_spread(tuner.iterations, tuner.games, tuner.a, tuner.c)
        print(
            f"noise alone would move each knob by a standard deviation of {spread:.2f} of its range over "
            f"{tuner.iterations} iterations of {tuner.games} games a side"
            + (": more games an iteration or a smaller --a shorten that walk" if spread > 0.1 else ""),
            file=sys.stderr,
        )
        runner = Runner(args.jobs, args.cluster, in_flight=1)
        tuner.run(runner, log=lambda text: print(text, file=sys.stderr, flush=True))
    done = tuner.history()
    for r in done:
        values = ", ".join(f"{k} {v:.4g}" for k, v in r["values"].items())
        print(f"{r['k']:4d}  {r['r_plus']:.2f} {r['r_minus']:.2f}  {values}")
    if done:
        differences = [r["r_plus"] - r["r_minus"] for r in done]
        mean = sum(differences) / len(differences)
        sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / len(differences))
        spread = noise_spread(len(done), tuner.games, tuner.a, tuner.c, sd, planned=tuner.iterations)
        print(
            f"noise alone: r+ - r- has a standard deviation of {sd:.3f}, which moves each knob by a "
            f"standard deviation of {spread:.3f} of its range over the {len(done)} iterations played"
        )
    print(f"estimate (mean of the last half of {len(done)} iterations): {json.dumps(tuner.estimate())}")
    return 0
