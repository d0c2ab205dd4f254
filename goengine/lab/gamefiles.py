"""Game files: a game's SGF made from its record alone, and written whole or not at all.

Every finished game is kept twice. Its record (one line of ``games.jsonl``, ``lab.records``) holds
every move, both engines' names, versions, commands and settings, the times, the result and the
date: it is what the tables are built from, and what git keeps. Its SGF file
(``SGF_DIR/CONFIG-NNNN.sgf``, one file a game, as GoGui's twogtp and gomill's ringmaster write
them) is what a person opens in Sabaki or GoGui. The SGF says nothing the record does not, so it
is made from the record and nothing else (``sgf_text``): the referee writes it through
``write_sgf`` as the game ends, and ``goengine-match --report --sgf`` writes it again from
``games.jsonl`` at any time through the same function, so a file written at play time and one
written later come from one code path. That is why the per-game files under ``results/`` are not
tracked (``.gitignore``): thousands of files that the records they are made from already hold.

``AP``, the SGF root property for the application that wrote the file (``goengine.sgf.dumps``
sets it), names the goengine that writes it, as the SGF standard defines the property: at play
time the referee's checkout, later the checkout that makes the file again. It is not taken from
the record: the record names the engines that played (``PB``/``PW`` give their names and versions,
``C`` their commands), not the referee, and the two can differ (``--engine`` another checkout, a
match between two other programs). So a file made at another commit differs from the play-time
one in ``AP`` alone.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterable
from pathlib import Path

from goengine import coords, sgf
from goengine.board import BLACK, WHITE
from goengine.lab import Usage
from goengine.lab.records import load_records, read_records, record_folders

_COLOR = {"B": BLACK, "W": WHITE}


def game_key(record: dict) -> str:
    """``CONFIG#INDEX``: the game's name in a folder (its SGF's ``GN``)."""
    return f"{record['config']}#{record['index']}"


def file_name(record: dict) -> str:
    """``CONFIG-NNNN.sgf``: the game's file in its folder's ``sgf/``."""
    return f"{record['config']}-{record['index']:04d}.sgf"


def record_moves(record: dict) -> list[tuple[int, int]]:
    """The record's moves (``"B F4"``, ``"W pass"``) as ``(color, point)``; ValueError for a move
    that is not one."""
    moves = []
    for move in record["moves"]:
        letter, _, vertex = move.partition(" ")
        if letter not in _COLOR:
            raise ValueError(f"move {move!r} of game {game_key(record)} names no colour")
        moves.append((_COLOR[letter], coords.from_gtp(record["size"], vertex)))
    return moves


def record_handicap(record: dict) -> list[tuple[int, int]]:
    """The record's handicap stones (none in an even game) as Black ``(color, point)`` stones."""
    return [(BLACK, coords.from_gtp(record["size"], v)) for v in record.get("handicap_stones", ())]


def record_position(record: dict, moves: int) -> sgf.SgfGame:
    """The position of a finished (non-void) game after its first ``moves`` moves, from its record:
    size, komi, the handicap stones as Black set-up stones (White then moves first), and the
    moves; ``Engine.load_position`` plays it. What ``scripts/root_choices.py`` and
    ``scripts/root_spread.py`` search again. ValueError for a void game or a move that is not one."""
    if record.get("void"):
        raise ValueError(f"game {game_key(record)} is void: it has no moves ({record['void']})")
    handicap = record_handicap(record)
    return sgf.SgfGame(
        size=int(record["size"]),
        komi=float(record["komi"]),
        setup=handicap,
        moves=record_moves(record)[:moves],
        to_move=WHITE if handicap else BLACK,
    )


def folder_positions(folder: Path, games: int, moves: Iterable[int]) -> list[sgf.SgfGame]:
    """``record_position`` of each of the first ``games`` finished games of a match folder's
    ``games.jsonl`` (void ones skipped) after each count of ``moves`` that leaves the game a move
    to choose (fewer than its length). ValueError when the folder has no finished game."""
    records = [r for r in load_records(Path(folder) / "games.jsonl") if not r.get("void")][:games]
    if not records:
        raise ValueError(f"{Path(folder) / 'games.jsonl'}: no finished games")
    counts = list(moves)
    return [record_position(r, m) for r in records for m in counts if m < len(r["moves"])]


def sgf_text(record: dict) -> str:
    """The SGF of a finished (non-void) game from its record as ``games.jsonl`` stores it: size,
    komi, the handicap stones (AB and HA, when the game had them), the moves, ``PB``/``PW`` (each
    engine's GTP name and version), ``RE``, ``DT`` (the day it started), ``GN``
    (``CONFIG#INDEX``) and a comment with both command lines, the configuration, game and
    attempt, how it ended, both engines' ``final_score`` and their settings (records older than
    ``goengine-params`` have none, and the comment then has no settings line); and on each move, the
    mover's own figures when its engine reported them (``evaluation_notes``). ValueError for a
    void game; KeyError for a record without one of these fields."""
    if record.get("void"):
        raise ValueError(f"game {game_key(record)} is void: it has no moves to show ({record['void']})")
    settings = "".join(
        f"\n{side} settings: {_settings_text(record[side]['settings'])}"
        for side in ("black", "white")
        if record[side].get("settings")
    )
    handicap = record_handicap(record)
    moves = record_moves(record)
    text = sgf.dumps(
        record["size"],
        record["komi"],
        moves,
        setup=handicap,
        handicap=len(handicap),
        names=(
            f"{record['black']['name']} {record['black']['version']}".strip(),
            f"{record['white']['name']} {record['white']['version']}".strip(),
        ),
        result=record["result"],
        date=record["started"][:10],
        game_name=game_key(record),
        comment=f"black: {record['black_command']}\nwhite: {record['white_command']}\n"
        f"configuration {record['config']}, game {record['index']}, attempt {record['attempt']}\n"
        f"termination: {record['reason']}\nfinal_score: {record.get('final_score')}" + settings,
    )
    notes = evaluation_notes(record, moves)
    return sgf.annotate(text.encode(), notes).decode() if notes else text


def evaluation_notes(record: dict, moves: list[tuple[int, int]]) -> list[sgf.Note]:
    """A note for every move of the game from the engines' own figures of their moves
    (``referee.Side.evaluations``): a comment with the mover's win rate, score lead and visits,
    and Sabaki's ``SBKV`` (Black's win rate in percent, the curve Sabaki draws); an empty note
    for a move without figures. No notes at all when neither side reported any (an older
    record, or engines without ``kata-genmove_analyze``)."""
    reported = {c: record[side].get("evaluations") or [] for c, side in ((BLACK, "black"), (WHITE, "white"))}
    if not reported[BLACK] and not reported[WHITE]:
        return []
    seen = {BLACK: 0, WHITE: 0}
    notes = []
    for color, _point in moves:
        k = seen[color]
        seen[color] += 1
        figures = reported[color][k] if k < len(reported[color]) else None
        if figures is None:
            notes.append(sgf.Note())
            continue
        winrate, lead, visits = figures
        black = winrate if color == BLACK else 1.0 - winrate
        notes.append(
            sgf.Note(
                comment=f"win rate {winrate:.1%}, score lead {lead:+.1f}, {visits:.0f} visits",
                properties=(("SBKV", f"{100.0 * black:.1f}"),),
            )
        )
    return notes


def _settings_text(settings: dict[str, str]) -> str:
    # In key order: games.jsonl stores its dicts with sorted keys (lab.records), so the engine's
    # own order is gone by the time a record is read back, and the play-time file must be the
    # file made later from the stored record.
    return " ".join(f"{key}={settings[key]}" for key in sorted(settings))


def write_sgf(record: dict, sgf_dir: str | os.PathLike) -> Path:
    """Write the game's SGF as ``SGF_DIR/CONFIG-NNNN.sgf``, whole or not at all: the text goes to a
    temporary file of its own in the same folder, which is then renamed over the file (a reader,
    or a crash, never sees half a file; two writers of the same game do not share a temporary
    file). The path written."""
    path = Path(sgf_dir) / file_name(record)
    text = sgf_text(record)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with tmp.open("x", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def write_sgf_files(records: Iterable[dict], sgf_dir: str | os.PathLike) -> list[Path]:
    """Write (or rewrite) the SGF of every non-void game of ``records`` in ``sgf_dir``; the paths
    written, one a game (a void game has no file: it has no moves)."""
    return [write_sgf(record, sgf_dir) for record in records if not record.get("void")]


def write_folder_sgf_files(out: Path) -> int:
    """``goengine-match --report --sgf``: the non-void games of ``out`` and of its tournament
    pairs' folders, each as ``FOLDER/sgf/CONFIG-NNNN.sgf`` made from its record (``sgf_text``, the
    referee's own code), each file written whole or not at all; says on stderr how many files it
    wrote in which folder, and returns how many in all. Every record is read before any file is
    written, so a record this code cannot read (edited by hand) stops the run (``Usage``) before
    it touches anything."""
    # a torn last line is skipped again, without a word: the report has just said so (all_records)
    folders = {folder: read_records(folder / "games.jsonl")[0] for folder in record_folders(out)}
    for folder, records in folders.items():
        for r in records:
            try:
                if not r.get("void"):
                    sgf_text(r)
            except (KeyError, TypeError, ValueError) as err:
                raise Usage(
                    f"{folder / 'games.jsonl'}: cannot make the SGF of {r.get('config')}#{r.get('index')}: "
                    f"{type(err).__name__}: {err}"
                ) from None
    total = 0
    for folder, records in folders.items():
        paths = set(write_sgf_files(records, folder / "sgf"))
        voids = sum(1 for r in records if r.get("void"))
        print(
            f"SGF: wrote {len(paths)} files in {folder / 'sgf'} ({len(records)} records, {voids} void)", file=sys.stderr
        )
        total += len(paths)
    return total
