"""A match, frozen, and how it is played: its pairings to the number of games asked for, resumed
from the records of its folder, on the one job runner.

Reading guide: a ``Match`` holds everything a run needs, read once from the command line
(``lab.cli``) or built by a program: its ``pairings`` (``pairings_against`` one opponent, or
``tournament_pairings``, every pair of players), the games each plays, the board and the clock,
the sequential test, where the records go and how the results are shown. ``play_match`` plays it:
it reads the folders' records (a torn last line said and cut off, ``lab.records``), refuses a
folder whose games were played otherwise (``mismatches``), warms goengine up, plays the games
that are missing (``schedule.pending``, ``schedule.play_games``) keeping each record as its game
ends, replays a void game once, and prints the tables (``report.show``). Its exit status: 0 when
the games were played (or had been), 1 when every game this run played was void, 2 when the run
stopped early (``max_voids`` voids in a row, a full disk, an interrupt).
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from goengine.jobs import Runner
from goengine.lab import Usage
from goengine.lab.engines import (
    STARTUP_TIMEOUT,
    TIMEOUT,
    Player,
    check_programs,
    engine_version_of,
    game_cores,
    settings,
    warm_up,
)
from goengine.lab.records import all_records, append_record, read_records, remove_torn_line
from goengine.lab.referee_clock import TimeControl
from goengine.lab.report import View, show
from goengine.lab.schedule import Pairing, pending, play_games
from goengine.lab.sprt import CONTINUE, Sprt
from goengine.lab.stats import engine_version, score, summarize

PROG = "goengine-match"


@dataclass(frozen=True)
class Match:
    """The games to play and how. Every configuration (or, in a ``tournament``, every pair) plays
    ``games`` games, goengine's seed for game i being ``seed + i``, on a ``size`` board with
    ``komi`` and a ``handicap`` of fixed stones (``white_handicap_bonus``: "0", "N-1" or "N"
    points for White), goengine's colour by ``engine_color`` (``schedule.ENGINE_COLORS``), under
    ``clock`` when there is one (``time_left``: whether the engines are sent ``time_left``).
    ``timeout`` bounds an answer once an engine has started, ``startup_timeout`` each command of
    its start-up (``engines.timeouts``). ``test``: the SPRT that stops a configuration early
    (``games`` is then the cap). Records go to ``out`` (a tournament's to ``out/pairs/PAIR``);
    a folder played by another version of the engine is refused unless ``allow_mixed_commits``.
    ``jobs`` games at once (None: one a core), or on the Dask scheduler at ``cluster``; the run
    stops after ``max_voids`` void games in a row; ``progress`` draws a progress bar (rich)
    rather than a line a game; ``view`` says how the tables are shown."""

    pairings: tuple[Pairing, ...]
    out: Path
    games: int = 4
    seed: int = 1
    size: int = 9
    komi: float = 7.5
    handicap: int = 0
    white_handicap_bonus: str = "0"
    engine_color: str = "alternate"
    clock: TimeControl | None = None
    time_left: bool = True
    timeout: float = TIMEOUT
    startup_timeout: float = STARTUP_TIMEOUT
    test: Sprt | None = None
    tournament: bool = False
    allow_mixed_commits: bool = False
    jobs: int | None = None
    cluster: str | None = None
    max_voids: int = 3
    progress: bool = True
    view: View = field(default_factory=View)

    def folder(self, config: str) -> Path:
        """Where the records of ``config`` (a configuration, or a tournament's pair) are kept."""
        return self.out / "pairs" / config if self.tournament else self.out

    @property
    def players(self) -> list[Player]:
        return [p for pairing in self.pairings for p in (pairing.engine, pairing.opponent)]


def pairings_against(configs: list[Player], opponent: list[Player], out: Path, test: Sprt | None) -> list[Pairing]:
    """Each configuration against the one opponent, in ``out``; the SPRT's parameters in every record."""
    if len(opponent) > 1:
        raise Usage("several --opponent engines need --tournament (or one match each)")
    if len({p.name for p in configs}) != len(configs):
        raise Usage("configuration names must differ")
    sgf_dir = str((out / "sgf").resolve())  # absolute: cluster workers run elsewhere
    meta = (("sprt", {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta}),) if test else ()
    return [Pairing(p.name, p, opponent[0], sgf_dir, meta) for p in configs]


def tournament_pairings(players: list[Player], out: Path) -> list[Pairing]:
    """Every pair of ``players`` (at least two, their names all different), each pair's games in
    ``out/pairs/A-vs-B``."""
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise Usage(f"player names must differ, got {', '.join(names)}")
    if len(players) < 2:
        raise Usage("a tournament needs at least two players")
    pairings = []
    for x, a in enumerate(players):
        for b in players[x + 1 :]:
            name = f"{a.name}-vs-{b.name}"
            sgf_dir = str((out / "pairs" / name / "sgf").resolve())
            pairings.append(Pairing(name, a, b, sgf_dir, meta=(("pair", (a.name, b.name)),)))
    return pairings


def mismatches(match: Match, records: list[dict]) -> list[str]:
    """How the games already in the folder differ from this match: a configuration played with
    other settings, another opponent, board size, komi or clock, or (unless
    ``allow_mixed_commits``) by another version of the engine. Resuming would mix them in one
    row of the table, so the run refuses instead."""
    wanted = {p.config: p for p in match.pairings}
    clock = match.clock.describe() if match.clock else None
    problems = set()
    played_by: dict[str, set[str]] = {}
    for r in records:
        pairing = wanted.get(r.get("config"))
        if pairing is None:
            continue  # another configuration of the same folder: not in this table, not touched
        engine = r["black_command"] if r["engine_black"] else r["white_command"]
        opponent = r["white_command"] if r["engine_black"] else r["black_command"]
        name = pairing.config
        if settings(engine) != settings(pairing.engine.command_for(0)):
            problems.add(f"{name}: played as {shlex.join(settings(engine))!r}, now {pairing.engine.command!r}")
        if settings(opponent) != settings(pairing.opponent.command_for(0)):
            problems.add(f"{name}: opponent was {opponent!r}, now {pairing.opponent.command!r}")
        # the bonus counts only with handicap stones (records before it had none: "0")
        if match.handicap and r.get("white_handicap_bonus", "0") != match.white_handicap_bonus:
            problems.add(
                f"{name}: played with white handicap bonus {r.get('white_handicap_bonus', '0')}, "
                f"now {match.white_handicap_bonus}"
            )
        if r["size"] != match.size or r["komi"] != match.komi or r.get("handicap", 0) != match.handicap:
            problems.add(
                f"{name}: played on {r['size']}x{r['size']} komi {r['komi']:g} handicap {r.get('handicap', 0)}, "
                f"now {match.size}x{match.size} komi {match.komi:g} handicap {match.handicap}"
            )
        black = r["index"] % 2 == 0 if match.engine_color == "alternate" else match.engine_color == "black"
        if r["engine_black"] != black:
            problems.add(f"{name}: goengine played {'black' if r['engine_black'] else 'white'} in game {r['index']}")
        if r.get("time") != clock:
            problems.add(f"{name}: played with clock {r.get('time')}, now {clock}")
        if not r.get("void"):
            played_by.setdefault(name, set()).add(engine_version(r))
    if not match.allow_mixed_commits:
        for pairing in match.pairings:
            versions = played_by.get(pairing.config)
            if versions:
                now = engine_version_of(pairing.engine, match.startup_timeout)
                if versions != {now}:
                    problems.add(
                        f"{pairing.config}: played by {', '.join(sorted(versions))}, the engine is now {now} "
                        "(--allow-mixed-commits to add its games; --report then shows one row per version)"
                    )
    return sorted(problems)


def no_valid_game(played: list[dict], shown: int = 5) -> str | None:
    """When the games a run played were all void, what says so and why: the voids' reasons, each
    with how many games it voided, the most frequent first (``shown`` of them); else None. A
    match that gave nothing to count must not end as one that did (exit status 1)."""
    if not played or any(not r.get("void") for r in played):
        return None
    reasons: dict[str, int] = {}
    for r in played:
        reasons[r["void"]] = reasons.get(r["void"], 0) + 1
    ranked = sorted(reasons.items(), key=lambda item: -item[1])
    lines = [f"{reason} ({count} game{'s' if count > 1 else ''})" for reason, count in ranked[:shown]]
    if len(ranked) > shown:
        lines.append(f"and {len(ranked) - shown} other reasons")
    games = f"the {len(played)} games played were all void" if len(played) > 1 else "the one game played was void"
    return f"no game was valid: {games}:\n  " + "\n  ".join(lines)


def prepared_records(match: Match) -> list[dict] | None:
    """The records already in the match's folders, each folder read once, the folders made; a
    torn last line said and cut off before anything is appended. None (the reasons on stderr)
    when the folder holds games played otherwise or a torn line cannot be removed."""
    records, torn = [], []
    for folder in sorted({match.folder(p.config) for p in match.pairings}):
        kept, tear = read_records(folder / "games.jsonl")
        records += kept
        if tear is not None:
            print(f"{tear.describe()}: skipped; its game is played again", file=sys.stderr)
            torn.append(tear)
    problems = mismatches(match, records)
    if problems:
        print(
            f"{match.out} holds games played with other settings; use another --out or another "
            "configuration name:\n  " + "\n  ".join(problems),
            file=sys.stderr,
        )
        return None
    for tear in torn:  # before any record is appended: the file ends with its last complete record
        try:
            remove_torn_line(tear)
        except (OSError, ValueError) as err:
            print(f"{PROG}: cannot remove the torn record of {tear.path}: {err}", file=sys.stderr)
            return None
        print(f"{tear.path}, line {tear.line}: the torn record's {tear.size} bytes removed", file=sys.stderr)
    for pairing in match.pairings:
        match.folder(pairing.config).mkdir(parents=True, exist_ok=True)
    return records


def games_at_once(match: Match) -> int:
    """``match.jobs``, or one game a core (0 on a cluster: its workers decide), and never more
    games than the machine's cores hold at a game's cores each (``engines.game_cores``)."""
    jobs = match.jobs or (0 if match.cluster else os.cpu_count() or 1)
    threads = max(game_cores(p.engine.command, p.opponent.command) for p in match.pairings)
    cores = os.cpu_count() or 1
    if not match.cluster and jobs * threads > cores:
        jobs = max(1, cores // threads)
        print(f"{threads} threads a game on {cores} cores: {jobs} game(s) at once", file=sys.stderr)
    return jobs


def play_match(match: Match) -> int:
    """Play the games of ``match`` that its folders lack; its exit status (the module's docstring)."""
    check_programs(match.players)
    records = prepared_records(match)
    if records is None:
        return 2
    kept = len(records)  # the records this run adds come after these
    test = match.test

    def verdict(config: str) -> str:
        """The configuration's SPRT status from its records so far (CONTINUE without a test)."""
        return CONTINUE if test is None else test.status(*score(records, config))

    def missing() -> list:
        return pending(
            match.pairings,
            records,
            match.games,
            match.seed,
            engine_color=match.engine_color,
            this_run=records[kept:],
            size=match.size,
            komi=match.komi,
            handicap=match.handicap,
            white_handicap_bonus=match.white_handicap_bonus,
            timeout=match.timeout,
            startup_timeout=match.startup_timeout,
            time_control=match.clock,
            time_left=match.time_left,
        )

    todo = missing()
    # a configuration whose test has already decided plays nothing more (nor warms up for it)
    specs = [spec for spec in todo if verdict(spec.config) == CONTINUE]
    total = len(match.pairings) * match.games
    jobs = games_at_once(match)
    where = match.out / "pairs" if match.tournament else match.out / "games.jsonl"
    print(
        f"{total - len(todo)} of {total} games already in {where}; playing {'up to ' if test else ''}{len(specs)} "
        f"({'cluster ' + match.cluster if match.cluster else f'{jobs} at once'})"
        + (f"; {test.describe()}" if test else ""),
        file=sys.stderr,
    )
    if specs and not match.cluster:  # goengine's configurations (the opponents are other programs)
        warm_up(list({p.name: p for p in match.players if p.seeded}.values()), match.startup_timeout)
    runner = Runner(jobs, match.cluster, in_flight=1)  # a game a slot: the SPRT's verdict stops the next
    stop = play(runner, match, specs, records, verdict, missing)
    show(all_records(match.out), match.out, match.view)
    if test:
        for pairing in match.pairings:
            print(f"{pairing.config}: {verdict(pairing.config)}", file=sys.stderr)
    sgf = match.out / "pairs" / "*" / "sgf" if match.tournament else match.out / "sgf"
    print(f"games: {where}; SGF: {sgf}", file=sys.stderr)
    nothing = no_valid_game(records[kept:])
    if nothing:
        print(f"{PROG}: {nothing}", file=sys.stderr)
    if stop:
        print(f"stopped: {stop}", file=sys.stderr)
        return 2
    return 1 if nothing else 0


def play(runner: Runner, match: Match, specs, records: list[dict], verdict, missing) -> str | None:
    """Play the specs, keep each record as it comes (in its configuration's folder, and in
    ``records``), retry void games once (``missing`` gives them again); the reason the run
    stopped early, or None."""
    in_a_row = 0
    stop = None
    progress = _progress(len(specs)) if match.progress and specs else None
    try:
        while specs and stop is None:
            retry = False
            for spec, record in play_games(runner, specs, wanted=lambda s: verdict(s.config) == CONTINUE):
                games = match.folder(spec.config) / "games.jsonl"
                try:
                    append_record(games, record)
                except OSError as err:  # a full disk: say so, keep the record in the log
                    print(f"could not save game {spec.key}: {err}; record: {record}", file=sys.stderr)
                    stop = f"cannot write {games}: {err}"
                    runner.stop()  # no new game that could not be saved; those running still end
                records.append(record)
                if record["void"]:
                    in_a_row += 1
                    print(f"void game {spec.key} (attempt {spec.attempt}): {record['void']}", file=sys.stderr)
                    retry = True  # pending() gives it once more, unless it was void twice in this run
                    if in_a_row >= match.max_voids and stop is None:
                        stop = f"{in_a_row} void games in a row; last: {record['void']}"
                        runner.stop()  # no new game; those running still finish and are kept
                else:
                    in_a_row = 0
                line = " ".join(
                    f"{s.config} {s.wins:g}/{s.games} [{100 * s.interval[0]:.0f}-{100 * s.interval[1]:.0f}%]"
                    for s in summarize(records)
                )
                if progress is not None:
                    progress[0].update(progress[1], advance=1, description=line[:150])
                else:
                    print(f"{spec.key}: {record['result']} ({record['reason']}); {line}", file=sys.stderr)
            specs = [] if stop or not retry else missing()
            if progress is not None and specs:
                progress[0].update(progress[1], total=progress[0].tasks[0].total + len(specs))
    except KeyboardInterrupt:
        stop = "interrupted; run the same command again to play the missing games"
    finally:
        if progress is not None:
            progress[0].stop()
    return stop


def _progress(total: int):
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    except ImportError:
        return None
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    progress = Progress(*columns, console=Console(stderr=True))  # stdout carries the tables alone
    progress.start()
    return progress, progress.add_task("games", total=total)
