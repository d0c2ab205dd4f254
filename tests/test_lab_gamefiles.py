"""A game's SGF made from its record alone (``goengine.lab.gamefiles``): what the file holds, that
the referee's play-time file is the file made later from the stored record, that
``goengine-match --report --sgf`` writes one file per non-void game (a tournament's in each
pair's folder), and that every record under ``results/`` makes an SGF with its moves."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from goengine import coords
from goengine.board import BLACK, WHITE, IllegalMove
from goengine.config import EngineConfig
from goengine.engine import Engine
from goengine.game import Setup
from goengine.lab import gamefiles
from goengine.lab.records import append_record, load_records
from goengine.lab.referee import GameSpec, play_game

ROOT = Path(__file__).resolve().parent.parent
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRST"


def sgf_game(text: str | bytes) -> sgf.Sgf_game:
    return sgf.Sgf_game.from_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def main_line(game: sgf.Sgf_game) -> list[tuple[str, tuple[int, int] | None]]:
    """The moves of the file as sgfmill reads them: ``(colour, (row from the bottom, col))``,
    None for a pass."""
    return [node.get_move() for node in game.get_main_sequence()[1:]]


def expected_moves(record: dict) -> list[tuple[str, tuple[int, int] | None]]:
    """The record's ``"B F4"`` / ``"W pass"`` in sgfmill's terms, worked out here (not by
    ``goengine.coords``): column letter without I, row number from the bottom."""
    moves = []
    for move in record["moves"]:
        colour, vertex = move.split()
        point = None if vertex == "pass" else (int(vertex[1:]) - 1, GTP_COLUMNS.index(vertex[0]))
        moves.append((colour.lower(), point))
    return moves


def check_file(record: dict, game: sgf.Sgf_game) -> None:
    """The SGF says what the record says: moves, size, komi, result, players, name, day."""
    root = game.get_root()
    assert main_line(game) == expected_moves(record)
    assert game.get_size() == record["size"]
    assert game.get_komi() == record["komi"]
    assert root.get("RE") == record["result"]
    assert root.get("PB") == f"{record['black']['name']} {record['black']['version']}".strip()
    assert root.get("PW") == f"{record['white']['name']} {record['white']['version']}".strip()
    assert root.get("GN") == f"{record['config']}#{record['index']}"
    assert root.get("DT") == record["started"][:10]


def a_record(**changes) -> dict:
    """A finished game as games.jsonl stores it, with passes, a capture-free 13x13 game and both
    engines' settings (in the engine's order, not sorted)."""
    record = {
        "config": "rave",
        "index": 7,
        "attempt": 1,
        "engine_black": False,
        "black_command": "/usr/games/gnugo --mode gtp --level 10",
        "white_command": "python -m goengine --quiet --playouts 100 --seed 8",
        "size": 13,
        "komi": 6.5,
        "time": None,
        "time_left": None,
        "started": "2026-11-23T10:00:00+00:00",
        "finished": "2026-11-23T10:05:00+00:00",
        "moves": ["B D4", "W K10", "B pass", "W J13", "B A1", "W N1", "B pass", "W pass"],
        "n_moves": 8,
        "black": {"name": "GNU Go", "version": "3.8", "moves": 4, "seconds": 1.0, "settings": {}, "times": []},
        "white": {
            "name": "goengine",
            "version": "0.1.0+g0123456789",
            "moves": 4,
            "seconds": 2.0,
            "settings": {"selection_rule": "rave", "playouts_per_move": "100", "AMAF_weight_schedule": "minimum-MSE"},
            "times": [],
        },
        "area_score": -20.5,
        "final_score": {"black": "W+20.5", "white": "W+20.5"},
        "score_disagreement": False,
        "void": None,
        "reason": "two passes",
        "winner": "W",
        "engine_won": True,
        "result": "W+20.5",
    }
    record.update(changes)
    return record


def an_old_record() -> dict:
    """A record as the first matches (results/seed000) wrote it: no settings, no times, no
    clock fields, no final_score (the game was resigned)."""
    record = a_record(size=9, komi=7.5, moves=["B E5", "W C3", "B G7"], n_moves=3, result="W+R", reason="resignation")
    for key in ("time", "time_left", "area_score", "final_score", "score_disagreement"):
        del record[key]
    for side in ("black", "white"):
        del record[side]["settings"], record[side]["times"]
    return record


# ---- the file made from a record


@pytest.mark.parametrize("record", [a_record(), an_old_record()], ids=["13x13-settings-passes", "9x9-old-record"])
def test_the_sgf_of_a_record_holds_its_game(record):
    game = sgf_game(gamefiles.sgf_text(record))
    check_file(record, game)
    comment = game.get_root().get("C")
    assert f"black: {record['black_command']}\nwhite: {record['white_command']}\n" in comment
    assert f"configuration {record['config']}, game {record['index']}, attempt {record['attempt']}" in comment
    assert f"termination: {record['reason']}" in comment
    assert f"final_score: {record.get('final_score')}" in comment
    if record["white"].get("settings"):  # in key order, as a stored record gives them back
        assert comment.endswith(
            "\nwhite settings: AMAF_weight_schedule=minimum-MSE playouts_per_move=100 selection_rule=rave"
        )
        assert "black settings" not in comment  # GNU Go has none
    else:
        assert "settings" not in comment


def test_a_void_game_has_no_sgf(tmp_path):
    void = a_record(void="ProcessExited: engine exited", result="Void", moves=[], n_moves=0)
    with pytest.raises(ValueError, match="void"):
        gamefiles.sgf_text(void)
    written = gamefiles.write_sgf_files([void, a_record()], tmp_path)
    assert written == [tmp_path / "rave-0007.sgf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rave-0007.sgf"]


def test_a_bad_move_is_refused():
    with pytest.raises(ValueError):
        gamefiles.sgf_text(a_record(moves=["B D4", "W Z99"]))
    with pytest.raises(ValueError, match="colour"):
        gamefiles.sgf_text(a_record(moves=["X D4"]))


# ---- the positions of a record's game


def test_a_records_position_after_n_moves():
    position = gamefiles.record_position(a_record(), 3)
    assert (position.size, position.komi, position.setup, position.to_move) == (13, 6.5, [], BLACK)
    assert [(c, coords.to_gtp(13, p)) for c, p in position.moves] == [(BLACK, "D4"), (WHITE, "K10"), (BLACK, "pass")]
    assert gamefiles.record_position(a_record(), 0).moves == []
    with pytest.raises(ValueError, match="void"):
        gamefiles.record_position(a_record(void="ProcessExited: engine exited"), 0)


def test_a_handicap_games_position_starts_from_its_stones():
    """The handicap stones are Black set-up stones and White moves first, so the engine replays
    the moves as they were played."""
    record = a_record(handicap_stones=["D4", "K10"], moves=["W C3", "B G7", "W pass"])
    position = gamefiles.record_position(record, 2)
    assert [(c, coords.to_gtp(13, p)) for c, p in position.setup] == [(BLACK, "D4"), (BLACK, "K10")]
    assert position.to_move == WHITE
    engine = Engine(EngineConfig(size=9))
    engine.load_position(Setup.from_sgf(position))
    assert engine.game.size == 13 and engine.game.handicap_stones == 2
    assert engine.game.board.to_move == WHITE  # the replay ended with Black's G7
    with pytest.raises(IllegalMove):
        engine.game.play("B", "C3")  # occupied by White's first move
    engine.close()


def test_a_folders_positions(tmp_path):
    games = [
        a_record(index=0, moves=["B D4", "W K10", "B C3"]),
        a_record(index=1, void="ProcessExited: engine exited", moves=[]),
        a_record(index=2, moves=["B C3", "W D4"]),
    ]
    for record in games:
        append_record(tmp_path / "games.jsonl", record)
    found = gamefiles.folder_positions(tmp_path, games=5, moves=[0, 2, 3])
    # game 0 gives 0 and 2 (after its 3 moves there is no move left to choose); the void game
    # nothing; game 2 gives 0 only
    assert [len(p.moves) for p in found] == [0, 2, 0]
    assert [len(p.moves) for p in gamefiles.folder_positions(tmp_path, games=1, moves=[0, 2])] == [0, 2]
    with pytest.raises(ValueError, match="no finished games"):
        gamefiles.folder_positions(tmp_path / "empty", games=5, moves=[0])


def test_a_file_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A failure before the rename leaves the file as it was and no temporary file behind."""
    path = gamefiles.write_sgf(a_record(), tmp_path)
    before = path.read_bytes()

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(gamefiles.os, "replace", fail)
    changed = a_record(result="B+R", reason="resignation", winner="B")
    with pytest.raises(OSError, match="No space"):
        gamefiles.write_sgf(changed, tmp_path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    monkeypatch.undo()
    gamefiles.write_sgf(changed, tmp_path)  # rewritten over the old file
    assert sgf_game(path.read_bytes()).get_root().get("RE") == "B+R"


# ---- the referee's file is the file made from the stored record

FAKE_ENGINE = r'''
"""A GTP engine for tests/test_lab_gamefiles.py: lays stones on a fixed list of points, then passes."""
import sys

SPREAD = ["C3", "G7", "C7", "G3", "E5", "E3", "E7", "C5", "G5"]  # no two adjacent: no captures
moves = int(sys.argv[1])
occupied, played = [], 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    reply = ""
    if words[0] == "quit":
        sys.stdout.write("= \n\n")
        break
    if words[0] == "name":
        reply = "fake"
    elif words[0] == "version":
        reply = "1.0"
    elif words[0] == "play" and words[2].lower() != "pass":
        occupied.append(words[2].upper())
    elif words[0] == "genmove":
        free = [v for v in SPREAD if v not in occupied]
        if played >= moves or not free:
            reply = "pass"
        else:
            played += 1
            occupied.append(free[0])
            reply = free[0]
    elif words[0] not in ("boardsize", "clear_board", "komi", "play"):
        sys.stdout.write("? unknown command\n\n")
        sys.stdout.flush()
        continue
    sys.stdout.write(f"= {reply}\n\n")
    sys.stdout.flush()
'''


@pytest.fixture
def fake(tmp_path):
    """``fake(moves)``: the command line of an engine that lays ``moves`` stones, then passes."""
    path = tmp_path / "fake_gtp.py"
    path.write_text(FAKE_ENGINE, encoding="utf-8")
    return lambda moves: shlex.join([sys.executable, str(path), str(moves)])


GOENGINE = shlex.join([sys.executable, "-m", "goengine", "--quiet", "--playouts", "16", "--seed", "5"])


@pytest.mark.parametrize("players", ["goengine-vs-fake", "fake-vs-fake"])
def test_the_referees_file_is_the_file_made_from_the_stored_record(tmp_path, fake, players):
    """goengine answers ``goengine-params`` (its settings reach the comment in its own order at play
    time, in key order from games.jsonl); the fakes end on two passes."""
    engine = GOENGINE if players == "goengine-vs-fake" else fake(3)
    spec = GameSpec("cfg", 3, engine, fake(2), engine_black=True, max_moves=12, sgf_dir=str(tmp_path / "play"))
    played = play_game(spec)
    assert not played["void"], played["void"]
    path = Path(played["sgf"])
    assert path == tmp_path / "play" / "cfg-0003.sgf"
    append_record(tmp_path / "games.jsonl", played)
    (stored,) = load_records(tmp_path / "games.jsonl")
    again = gamefiles.write_sgf(stored, tmp_path / "again")
    assert again.read_bytes() == path.read_bytes()
    game = sgf_game(path.read_bytes())
    check_file(stored, game)
    if players == "goengine-vs-fake":
        assert list(played["black"]["settings"]) != sorted(played["black"]["settings"])  # the case that matters
        assert "black settings: " in game.get_root().get("C")
    else:
        assert stored["moves"][-2:] == ["W pass", "B pass"] and len(stored["moves"]) == 7


# ---- goengine-match --report --sgf


def run_report(out: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goengine.lab", "--no-plot", "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def write_records(path: Path, records: list[dict]) -> None:
    for record in records:
        append_record(path, record)


def some_records(config: str, count: int, **changes) -> list[dict]:
    """``count`` finished games of ``config``, colours alternating, and one void game."""
    records = []
    for i in range(count):
        record = a_record(config=config, index=i, engine_black=i % 2 == 0, **changes)
        record["moves"] = record["moves"][: 2 + i]  # each game its own
        records.append(record)
    void = a_record(config=config, index=count, void="ProcessExited: engine exited", result="Void")
    void.update(moves=[], n_moves=0, winner=None, engine_won=None, reason=void["void"])
    return [*records, void]


def without_application(text: str) -> str:
    """SGF text with the AP property emptied: ``goengine:<version>`` is the writing process's, and
    a subprocess asks git afresh (a commit made, or an engine file edited, while the suite runs
    changes it)."""
    return re.sub(r"AP\[[^\]]*\]", "AP[]", text)


def test_report_sgf_writes_one_file_per_non_void_game(tmp_path):
    out = tmp_path / "match"
    records = some_records("a", 3) + some_records("b", 2)
    write_records(out / "games.jsonl", records)
    (out / "sgf").mkdir()
    (out / "sgf" / "a-0000.sgf").write_text("(;GM[1]SZ[9] stale", encoding="utf-8")  # rewritten, not kept
    result = run_report(out, "--report", "--sgf")
    assert result.returncode == 0, result.stderr
    assert "configuration" in result.stdout  # the tables too
    assert f"SGF: wrote 5 files in {out / 'sgf'} (7 records, 2 void)" in result.stderr
    finished = [r for r in records if not r["void"]]
    assert sorted(p.name for p in (out / "sgf").iterdir()) == sorted(gamefiles.file_name(r) for r in finished)
    for record in finished:
        text = (out / "sgf" / gamefiles.file_name(record)).read_text(encoding="utf-8")
        assert without_application(text) == without_application(gamefiles.sgf_text(record))
        assert sgf_game(text).get_root().get("AP")[0] == "goengine"
        check_file(record, sgf_game(text))


def test_report_sgf_writes_each_pair_of_a_tournament(tmp_path):
    out = tmp_path / "tournament"
    pairs = {"x-vs-y": some_records("x-vs-y", 2, pair=["x", "y"]), "x-vs-z": some_records("x-vs-z", 3, pair=["x", "z"])}
    for name, records in pairs.items():
        write_records(out / "pairs" / name / "games.jsonl", records)
    result = run_report(out, "--report", "--sgf", "--bootstrap", "20")
    assert result.returncode == 0, result.stderr
    assert not (out / "sgf").exists()  # a tournament's games are its pairs'
    for name, records in pairs.items():
        sgf_dir = out / "pairs" / name / "sgf"
        finished = [r for r in records if not r["void"]]
        assert f"SGF: wrote {len(finished)} files in {sgf_dir}" in result.stderr
        assert sorted(p.name for p in sgf_dir.iterdir()) == [f"{name}-{i:04d}.sgf" for i in range(len(finished))]
        for record in finished:
            check_file(record, sgf_game((sgf_dir / gamefiles.file_name(record)).read_bytes()))


@pytest.mark.parametrize(
    ("args", "records", "message"),
    [
        (("--report", "--sgf"), None, "no games in"),
        (("--sgf",), None, "--sgf goes with --report"),
        (("--report", "--sgf"), "no moves", "cannot make the SGF of a#1: KeyError: 'moves'"),
    ],
)
def test_report_sgf_bad_input_gets_a_clear_message_and_writes_nothing(tmp_path, args, records, message):
    out = tmp_path / "out"
    if records:
        games = some_records("a", 3)
        del games[1]["moves"]
        write_records(out / "games.jsonl", games)
    result = run_report(out, *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (out / "sgf").exists()


# ---- every record of the repository


def test_every_record_in_results_makes_an_sgf_with_its_moves():
    """Each non-void record of every games.jsonl under results/ (old ones without settings or
    clock fields included) makes an SGF that sgfmill reads back with the record's moves, size,
    komi, result and players: the per-game files, which git does not keep, can always be made
    again (``goengine-match --report --sgf``)."""
    files = sorted((ROOT / "results").rglob("games.jsonl"))
    assert files, "no games.jsonl under results/"
    games = 0
    for path in files:
        records = load_records(path)
        assert records, f"{path}: no records"
        assert len(records) == sum(1 for line in path.open(encoding="utf-8") if line.strip()), f"{path}: torn line"
        for record in records:
            if record.get("void"):
                continue
            check_file(record, sgf_game(gamefiles.sgf_text(record)))
            games += 1
    assert games >= len(files)
