"""Which games a match still has to play, and where they run: one at a time, a local process
pool, or a Dask cluster.

Reading guide: ``Player`` is an engine command line with a name; ``pending`` turns pairings and the
records already kept into ``GameSpec``s; ``Runner.run`` plays specs and yields each record as its
game ends. Before it starts a game it asks ``wanted(spec)``, so a sequential test that has
decided stops its configuration: the games already running finish and are kept, none is started
after the verdict.
"""

from __future__ import annotations

import shlex
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from goengine.lab import needs
from goengine.lab.records import finished_keys, void_counts
from goengine.lab.referee import GameSpec, play_game

ENGINE_COLORS = ("alternate", "black", "white")


@dataclass(frozen=True)
class Player:
    """An engine: ``name`` and ``command`` line; ``seeded`` engines (goengine) get ``--seed S`` for
    game i, S = ``seed + i``, so a game can be replayed."""

    name: str
    command: str
    seeded: bool = False

    def command_for(self, seed: int) -> str:
        return f"{self.command} --seed {seed}" if self.seeded else self.command

    def missing_program(self) -> str | None:
        """The program of the command line when it cannot be found or run, else None."""
        words = shlex.split(self.command)
        if not words:
            return "(empty command)"
        program = words[0]
        if "/" in program:
            path = Path(program)
            return None if path.is_file() and path.stat().st_mode & 0o111 else program
        return None if shutil.which(program) else program


@dataclass(frozen=True)
class Pairing:
    """Games to play between ``engine`` and ``opponent``, recorded as configuration ``config``
    (engine Black in even games); ``sgf_dir``: where their SGF files go; ``meta``: fields every
    record of theirs carries (the SPRT's parameters, a tournament pair's names)."""

    config: str
    engine: Player
    opponent: Player
    sgf_dir: str
    meta: tuple[tuple[str, object], ...] = ()


def pending(
    pairings: Iterable[Pairing],
    records: list[dict],
    games: int,
    seed: int,
    engine_color: str = "alternate",
    **spec_fields,
) -> list[GameSpec]:
    """The games still to play, each with its attempt number (a game void once is retried),
    interleaved by game index so that a run cut short leaves every configuration with as many
    games as the others. ``engine_color``: ``alternate`` (the engine Black in even-numbered
    games), ``black`` or ``white`` (every game; a handicap game's sides are not alike).
    ``spec_fields``: the GameSpec fields every game shares (size, komi, handicap, ...)."""
    if engine_color not in ENGINE_COLORS:
        raise ValueError(f"engine colour must be one of {', '.join(ENGINE_COLORS)}, not {engine_color!r}")
    done = finished_keys(records)
    voids = void_counts(records)
    specs = []
    for pairing in pairings:
        for i in range(games):
            key = f"{pairing.config}#{i}"
            if key in done or voids.get(key, 0) >= 2:
                continue
            specs.append(
                GameSpec(
                    config=pairing.config,
                    index=i,
                    engine=pairing.engine.command_for(seed + i),
                    opponent=pairing.opponent.command_for(seed + i),
                    engine_black=i % 2 == 0 if engine_color == "alternate" else engine_color == "black",
                    sgf_dir=pairing.sgf_dir,
                    attempt=voids.get(key, 0),
                    meta=pairing.meta,
                    **spec_fields,
                )
            )
    return sorted(specs, key=lambda spec: spec.index)  # stable: configurations in order within an index


class Runner:
    """Runs specs locally (one at a time, or a process pool of ``jobs``) or on the Dask scheduler
    ``cluster``, and yields ``(spec, record)`` as games end.

    At most ``jobs`` games run at once (on a cluster: ``jobs``, or else the cluster's threads), so
    ``wanted`` is asked about each game just before it starts. ``stop()`` starts no further game;
    the games already running are still played to the end and yielded, so none is lost."""

    def __init__(self, jobs: int, cluster: str | None = None):
        self.jobs = jobs
        self.cluster = cluster
        self.stopping = False

    def stop(self) -> None:
        self.stopping = True

    def run(self, specs: list[GameSpec], wanted: Callable[[GameSpec], bool] = lambda spec: True) -> Iterator:
        queue = list(specs)

        def next_spec() -> GameSpec | None:
            while queue and not self.stopping:
                spec = queue.pop(0)
                if wanted(spec):
                    return spec
            return None

        if self.cluster:
            yield from self._dask(next_spec)
        elif self.jobs <= 1:
            while (spec := next_spec()) is not None:
                yield spec, play_game(spec)
        else:
            yield from self._local(next_spec)

    def _local(self, next_spec) -> Iterator:
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            running = {}
            while True:
                while len(running) < self.jobs and (spec := next_spec()) is not None:
                    running[pool.submit(play_game, spec)] = spec
                if not running:
                    return
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()

    def _dask(self, next_spec) -> Iterator:
        distributed = needs("dask.distributed", "--cluster")
        with distributed.Client(self.cluster) as client:
            slots = self.jobs or max(1, sum(client.nthreads().values()))
            running = {}
            completed = distributed.as_completed()
            while True:
                while len(running) < slots and (spec := next_spec()) is not None:
                    key = f"game-{spec.config}#{spec.index}-{spec.attempt}-{time.time_ns()}"
                    future = client.submit(play_game, spec, pure=False, key=key)
                    running[future] = spec
                    completed.add(future)
                if not running:
                    return
                future = next(completed)
                yield running.pop(future), future.result()
