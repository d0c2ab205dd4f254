"""Which games a match still has to play, and where they run: one at a time, a local process
pool, or a Dask cluster (the one job runner, ``goengine.jobs``).

Reading guide: a ``Pairing`` is two ``engines.Player`` and what their records carry; ``pending``
turns pairings and the records already kept into ``GameSpec``s; ``play_games`` plays specs on a
``jobs.Runner`` and yields each record as its game ends. Before it starts a game it asks
``wanted(spec)``, so a sequential test that has decided stops its configuration: the games
already running finish and are kept, none is started after the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from goengine.jobs import Runner
from goengine.lab.engines import Player
from goengine.lab.records import finished_keys, void_counts
from goengine.lab.referee import GameSpec, play_game, void_record

ENGINE_COLORS = ("alternate", "black", "white")


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
    this_run: list[dict] = (),
    **spec_fields,
) -> list[GameSpec]:
    """The games still to play, each with its attempt number (its void records so far),
    interleaved by game index so that a run cut short leaves every configuration with as many
    games as the others. A game is tried at most twice in one run: one void in ``this_run``
    (the records this run has added) is retried, two leave it for the next run, which tries it
    again. ``engine_color``: ``alternate`` (the engine Black in even-numbered games), ``black``
    or ``white`` (every game; a handicap game's sides are not alike). ``spec_fields``: the
    GameSpec fields every game shares (size, komi, handicap, ...)."""
    if engine_color not in ENGINE_COLORS:
        raise ValueError(f"engine colour must be one of {', '.join(ENGINE_COLORS)}, not {engine_color!r}")
    done = finished_keys(records)
    voids = void_counts(records)
    voids_now = void_counts(list(this_run))
    specs = []
    for pairing in pairings:
        for i in range(games):
            key = f"{pairing.config}#{i}"
            if key in done or voids_now.get(key, 0) >= 2:
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


def play_games(
    runner: Runner, specs: list[GameSpec], wanted: Callable[[GameSpec], bool] = lambda spec: True
) -> Iterator[tuple[GameSpec, dict]]:
    """``(spec, record)`` for each of ``specs`` as its game ends, played by ``runner`` (the one job
    runner, ``goengine.jobs``: here, a process pool or a Dask cluster), which asks ``wanted(spec)``
    just before it starts each game and starts none after its ``stop()``. A game whose referee
    itself failed (it never should: ``play_game`` records an engine's failures as a void game) is
    a void record that names the error, so the match goes on and keeps every other game."""
    tasks = list(specs)
    for k, outcome in runner.run(play_game, enumerate(tasks), wanted=lambda k: wanted(tasks[k])):
        spec = tasks[k]
        if isinstance(outcome, BaseException):
            outcome = void_record(spec, f"the referee failed: {type(outcome).__name__}: {outcome}")
        yield spec, outcome
