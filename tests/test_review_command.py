"""The review command's run (``goengine.review.command.review``): bad files named with their
reasons and the others reviewed, a non-zero status; outputs beside each game; folders; a
missing extra refused before any search; a review that cannot be written or a search that fails
named; and, marked slow, the positions sent to a local Dask cluster."""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from sgfmill import sgf

from goengine import cli, coords
from goengine import config as config_module
from goengine import sgf as sgf_module
from goengine.board import BLACK, PASS, WHITE, Board
from goengine.config import Budget, EngineConfig, SearchConfig
from goengine.review import command
from goengine.review import evaluate as evaluate_module
from goengine.review.command import ReviewSettings, budget_words, game_files, review
from goengine.review.gamefile import ReviewGame, read

DATA = Path(__file__).parent / "data"
SETTINGS = ReviewSettings(EngineConfig(search=SearchConfig(threads=1, seed=5)), Budget(playouts=100), progress=False)
GAME = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[gc];B[cg];W[gg];B[cc];W[fe])"


def run(paths, settings: ReviewSettings = SETTINGS) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = review(paths, settings, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_bad_files_are_named_with_their_reasons_and_the_others_reviewed(tmp_path):
    good = tmp_path / "good.sgf"
    good.write_text(GAME)
    (tmp_path / "text.sgf").write_text("a shopping list")
    (tmp_path / "illegal.sgf").write_text("(;GM[1]SZ[9];B[ee];W[ee])")
    status, out, err = run([tmp_path / "text.sgf", good, tmp_path / "illegal.sgf", tmp_path / "missing.sgf"])
    assert status == 1
    assert f"{tmp_path / 'text.sgf'}: bad SGF" in err
    assert f"{tmp_path / 'illegal.sgf'}: move 2 (W E5) cannot be played" in err
    assert f"{tmp_path / 'missing.sgf'}: cannot read it" in err
    assert "Traceback" not in err and "3 file(s) not reviewed" in err
    assert (tmp_path / "good-review.sgf").exists() and (tmp_path / "good-review.png").exists()
    assert out.startswith(f"{good}: 6 moves reviewed at 100 playouts a position, komi 7 (the file's KM)")
    assert "Black's biggest mistakes:" in out and "White's biggest mistakes:" in out
    assert not (tmp_path / "text-review.sgf").exists()


def test_every_game_reviewed_gives_status_zero_and_a_line_a_game_on_stderr(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgf").write_text(GAME)
    status, out, err = run(
        [tmp_path / "a.sgf", tmp_path / "b.sgf"], ReviewSettings(**{**vars(SETTINGS), "plot": False})
    )
    assert status == 0
    assert f"[1/2] {tmp_path / 'a.sgf'}: reviewed, 6 moves: {tmp_path / 'a-review.sgf'}" in err
    assert f"[2/2] {tmp_path / 'b.sgf'}: reviewed" in err
    assert "2 game(s), 14 positions" in err
    assert not (tmp_path / "a-review.png").exists()
    assert out.count("moves reviewed at") == 2


def test_a_folder_is_its_sgf_files_and_a_review_is_never_reviewed_again(tmp_path):
    (tmp_path / "one.sgf").write_text(GAME)
    (tmp_path / "one-review.sgf").write_text(GAME)
    (tmp_path / "notes.txt").write_text("not a game")
    err = io.StringIO()
    assert game_files([tmp_path], err) == [tmp_path / "one.sgf"]
    assert game_files([tmp_path / "one-review.sgf"], err) == []
    assert "one-review.sgf: skipped, a review itself" in err.getvalue()


def test_a_missing_extra_is_refused_before_any_search(tmp_path, monkeypatch):
    (tmp_path / "g.sgf").write_text(GAME)
    monkeypatch.setattr(command.plot, "needs_matplotlib", lambda: "the plot needs matplotlib: pip install matplotlib")
    status, out, err = run([tmp_path / "g.sgf"])
    assert status == 2 and "pip install matplotlib" in err and out == ""
    assert not (tmp_path / "g-review.sgf").exists()


def test_without_a_readable_game_nothing_is_searched(tmp_path):
    (tmp_path / "x.sgf").write_text("nothing")
    status, _, err = run([tmp_path / "x.sgf"])
    assert status == 1 and "no game to review" in err


def test_a_review_that_cannot_be_written_is_named_and_the_others_still_written(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.sgf").write_text(GAME)
    (tmp_path / "a-review.sgf").mkdir()  # where the review would go
    status, _, err = run([tmp_path / "a.sgf", tmp_path / "b.sgf"])
    assert status == 1 and f"{tmp_path / 'a.sgf'}: cannot write its review" in err
    assert (tmp_path / "b-review.sgf").is_file()


def test_a_blocked_plot_leaves_the_review_written_and_says_what_was_not(tmp_path):
    """The PNG's place taken by a folder: the SGF and the table are written and the game counts
    as reviewed; the line names the plot not written, the summary counts it, the status is 1.
    (Before: the SGF was written, yet the game was reported as not written.)"""
    (tmp_path / "a.sgf").write_text(GAME)
    (tmp_path / "a-review.png").mkdir()
    status, out, err = run([tmp_path / "a.sgf"])
    assert status == 1 and (tmp_path / "a-review.sgf").is_file() and "moves reviewed at" in out
    line = next(line for line in err.splitlines() if f"{tmp_path / 'a.sgf'}: reviewed" in line)
    assert f"{tmp_path / 'a-review.sgf'}; cannot write {tmp_path / 'a-review.png'}" in line
    assert err.rstrip().endswith("1 plot(s) not written") and "not reviewed" not in err


def test_a_search_that_fails_is_named_with_its_game_and_the_others_reviewed(tmp_path, monkeypatch):
    (tmp_path / "a.sgf").write_text(GAME)
    (tmp_path / "b.sgf").write_text("(;GM[1]SZ[9];B[cc];W[gg])")
    real = evaluate_module.evaluate

    def failing(position, config, budget):  # the position after a's third move fails
        if len(position.moves) == 3 and position.moves[0] == (BLACK, coords.from_gtp(9, "E5")):
            raise RuntimeError("the engine fell over")
        return real(position, config, budget)

    monkeypatch.setattr(evaluate_module, "evaluate", failing)
    status, out, err = run([tmp_path / "a.sgf", tmp_path / "b.sgf"])
    assert status == 1
    assert f"{tmp_path / 'a.sgf'}: not reviewed: a search failed (RuntimeError: the engine fell over)" in err
    assert not (tmp_path / "a-review.sgf").exists() and (tmp_path / "b-review.sgf").exists()
    assert f"{tmp_path / 'b.sgf'}: 2 moves reviewed" in out


@pytest.mark.parametrize(
    "budget, words",
    [
        (Budget(playouts=2000), "2000 playouts"),
        (Budget(seconds=1.5), "1.5 s"),
        (Budget(500, 2.0), "500 playouts or 2 s"),
    ],
)
def test_the_budget_in_words(budget, words):
    assert budget_words(budget) == words


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A local Dask cluster of two single-threaded worker processes (as the match laboratory's
    tests start one), its workers in a scratch folder."""
    distributed = pytest.importorskip("distributed")
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("dask-worker-cwd"))
    try:
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
    finally:
        os.chdir(here)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.mark.slow
def test_a_cluster_reviews_the_positions_of_two_games_as_this_machine_does(tmp_path, dask_cluster):
    here, there = tmp_path / "here", tmp_path / "there"
    for folder in (here, there):
        folder.mkdir()
        (folder / "a.sgf").write_text(GAME)
        shutil.copy(DATA / "game9.sgf", folder / "b.sgf")
    settings = ReviewSettings(**{**vars(SETTINGS), "plot": False})
    assert run([here / "a.sgf", here / "b.sgf"], settings)[0] == 0
    status, out, err = run(
        [there / "a.sgf", there / "b.sgf"],
        ReviewSettings(**{**vars(settings), "cluster": dask_cluster.scheduler_address}),
    )
    assert status == 0, err
    assert "2 game(s), 18 positions" in err and out.count("moves reviewed at") == 2
    for name in ("a", "b"):  # one thread an engine, a fresh engine a position: the same figures
        assert (there / f"{name}-review.sgf").read_bytes() == (here / f"{name}-review.sgf").read_bytes()


# ---- what a folder may hold (issue 46): comments of several values, links and FIFOs in the way


def test_a_comment_of_several_values_is_kept_and_the_folder_reviewed(tmp_path):
    """``C[a][b]`` (valid SGF for some editors; sgfmill will not read it as one text) on a move:
    the review keeps both values and writes its own after them. (Before: a traceback, and no game
    of the folder reviewed.)"""
    (tmp_path / "a.sgf").write_text(GAME.replace("B[ee]", "B[ee]C[first][sec\\]ond]"))
    (tmp_path / "b.sgf").write_text(GAME)
    status, _, err = run([tmp_path], ReviewSettings(**{**vars(SETTINGS), "plot": False}))
    assert status == 0, err
    written = sgf.Sgf_game.from_bytes((tmp_path / "a-review.sgf").read_bytes())
    comment = written.get_main_sequence()[1].get("C")
    assert comment.startswith("first\n\nsec]ond\n\ngoengine")
    assert (tmp_path / "b-review.sgf").is_file()


def test_a_link_or_a_fifo_where_a_review_goes_is_left_alone_and_named(tmp_path):
    """An existing ``GAME-review.sgf`` that is a symbolic link is not written through (before, the
    review went to its target, outside the folder), and a FIFO there is refused at once (before,
    the review blocked on it forever); each game is named, the others are reviewed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "precious.sgf"
    target.write_text("keep me")
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("linked", "piped", "plain"):
        (folder / f"{name}.sgf").write_text(GAME)
    (folder / "linked-review.sgf").symlink_to(target)
    os.mkfifo(folder / "piped-review.sgf")
    status, _, err = run([folder], ReviewSettings(**{**vars(SETTINGS), "plot": False}))
    assert status == 1
    assert f"{folder / 'linked.sgf'}: cannot write its review: not a regular file (a symbolic link)" in err
    assert f"{folder / 'piped.sgf'}: cannot write its review: not a regular file (a FIFO)" in err
    assert target.read_text() == "keep me" and (folder / "linked-review.sgf").is_symlink()
    assert (folder / "plain-review.sgf").is_file()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no temporary left


def test_the_positions_of_a_long_game_take_memory_in_its_length():
    """The 20,001 positions of a 20,000-move record share its moves: a few MB in all. (Before,
    each held a copy of the moves before it: 1.77 GB for this record.)"""
    moves = tuple((BLACK if k % 2 == 0 else WHITE, PASS) for k in range(20_000))
    game = ReviewGame(Path("long.sgf"), b"", 9, 7.5, (), moves, 1, BLACK, None, None)
    tracemalloc.start()
    try:
        positions = game.positions()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(positions) == 20_001 and positions[7].moves == moves[:7] and positions[-1].to_move == BLACK
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MB"


# ---- the fuzz (slow, seeded): a folder of hostile files through ``goengine review``

# goengine review in a process that measures its own memory: the kernels loaded first (their
# compile, on a cold cache, peaks at hundreds of MB whatever the files), then the peak reset
# (Linux: 5 to /proc/self/clear_refs), the review run, and the peak since printed on stderr
RSS_PROBE = (
    "import sys\n"
    "from pathlib import Path\n"
    "from goengine.engine import warm_up\n"
    "from goengine.cli import main\n"
    "warm_up(lambda text: None)\n"
    "Path('/proc/self/clear_refs').write_text('5')\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    status = Path('/proc/self/status').read_text().splitlines()\n"
    "    peak = next(int(r.split()[1]) for r in status if r.startswith('VmHWM:'))\n"
    "    print(f'peak {peak} kB', file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def fuzz_folder(rng: random.Random, folder: Path, outside: Path, count: int) -> dict[str, str]:
    """``count`` seeded game files in ``folder`` and what each should come to: ``reviewed``, or
    ``named`` (refused with its reason): games of legal moves, some with comments of several
    values, long comments or a charset; the same cut short, with bytes changed or junk, a bad
    size or komi, a move on a stone, variations nested thousands deep, a file over the size limit,
    an empty one; a FIFO and a folder named ``.sgf``; a link to a game outside (read, reviewed);
    and, where a review goes, a link to a file outside and a FIFO (named, never written to)."""
    kinds: dict[str, str] = {}
    for k in range(count):
        board = Board(9)
        nodes = []
        for _ in range(rng.randrange(2, 30)):
            p = rng.choice(board.legal_moves())
            color = board.to_move
            row, col = coords.row_col(9, p)
            nodes.append(f";{'B' if color == BLACK else 'W'}[{chr(97 + col)}{chr(97 + row)}]")
            board.play(color, p)
        root = "(;GM[1]FF[4]SZ[9]KM[7.5]"
        kind = rng.choice(
            ["good", "comments", "charset", "cut", "flip", "junk", "size", "komi", "stone", "deep", "huge", "empty"]
        )
        name, expect = f"g{k:03d}-{kind}.sgf", "named"
        if kind == "good":
            text, expect = root + "".join(nodes) + ")", "reviewed"
        elif kind == "comments":
            nodes[0] += "C[one][two]" + "C[" + "x" * rng.randrange(1, 100_000) + "]"
            text, expect = root + "PB[a][b]" + "".join(nodes) + ")", "reviewed"
        elif kind == "charset":
            data = (root + "CA[ISO-8859-1]C[\xe9t\xe9]" + "".join(nodes) + ")").encode("latin-1")
            (folder / name).write_bytes(data)
            kinds[name] = "reviewed"
            continue
        elif kind == "cut":
            text = (root + "".join(nodes) + ")")[: rng.randrange(1, len(root) + 4)]
        elif kind == "flip":
            text = root.replace("SZ[9]", "SZ[" + rng.choice(["0", "1", "4", "25", "x", "-9", "9:9"]) + "]")
            text += "".join(nodes) + ")"
        elif kind == "junk":
            data = b"(;" + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
            (folder / name).write_bytes(data)
            kinds[name] = "named"
            continue
        elif kind == "size":
            text = "(;GM[1]SZ[" + str(rng.choice([2, 3, 4, 20, 52])) + "]" + "".join(nodes) + ")"
        elif kind == "komi":
            text = root.replace("KM[7.5]", "KM[" + rng.choice(["nan", "inf", "-1e999", "abc"]) + "]")
            text += "".join(nodes) + ")"
        elif kind == "stone":
            last = nodes[-1]  # its point holds the stone just played; the other colour plays there
            text = (
                root
                + "".join(nodes)
                + (last.replace(";B[", ";W[") if ";B[" in last else last.replace(";W[", ";B["))
                + ")"
            )
        elif kind == "deep":
            depth = rng.randrange(1000, 5000)
            text = root + "(;B[aa]" * depth + ")" * depth + ")"
        elif kind == "huge":
            text = root + "C[" + "y" * (sgf_module.MAX_SGF_BYTES + 1) + "]" + "".join(nodes) + ")"
        else:
            text = ""
        (folder / name).write_text(text)
        kinds[name] = expect
    os.mkfifo(folder / "pipe.sgf")
    (folder / "folder.sgf").mkdir()
    good = outside / "elsewhere.sgf"
    good.write_text(GAME)
    (folder / "linked-in.sgf").symlink_to(good)
    kinds.update({"pipe.sgf": "named", "folder.sgf": "named", "linked-in.sgf": "reviewed"})
    (folder / "out-link.sgf").write_text(GAME)
    (folder / "out-link-review.sgf").symlink_to(outside / "precious.sgf")
    (folder / "out-pipe.sgf").write_text(GAME)
    os.mkfifo(folder / "out-pipe-review.sgf")
    kinds.update({"out-link.sgf": "named", "out-pipe.sgf": "named"})
    return kinds


@pytest.mark.slow
def test_fuzz_a_folder_of_hostile_files_is_reviewed_or_named_file_by_file(tmp_path):
    """120 seeded files (``fuzz_folder``) through ``goengine review`` in a process of its own:
    every file is reviewed or named with a reason on stderr, no traceback, stdout holds the
    tables only; nothing outside the folder changes (a link where a review goes is not written
    through) and nothing but reviews is added to it; once its kernels are loaded the process's
    peak stays under 500 MB (it holds about 300)."""
    rng = random.Random(46)
    folder, outside = tmp_path / "games", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (outside / "precious.sgf").write_text("keep me")
    kinds = fuzz_folder(rng, folder, outside, 120)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    args = ["review", "--playouts", "4", "--threads", "1", "--no-progress", "--no-plot", str(folder)]
    args += [str(folder / "pipe.sgf"), str(folder / "folder.sgf")]
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, *args], capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert all(line.startswith((str(folder), "Black's", "White's", "  ", "")) for line in done.stdout.splitlines()), (
        done.stdout[:2000]
    )
    for name, expect in kinds.items():
        path = folder / name
        if expect == "reviewed":
            assert f"{path}: reviewed" in done.stderr, name
            assert sgf.Sgf_game.from_bytes(path.with_name(path.stem + "-review.sgf").read_bytes())
        else:
            assert re.search(rf"{re.escape(str(path))}: (?!reviewed)\S", done.stderr), name
            assert not path.with_name(path.stem + "-review.sgf").is_file() or name.startswith("out-"), name
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before
    made = {p.name for p in folder.iterdir()} - set(kinds) - {"out-link-review.sgf", "out-pipe-review.sgf"}
    assert made == {Path(name).stem + "-review.sgf" for name, expect in kinds.items() if expect == "reviewed"}
    (peak,) = re.findall(r"peak (\d+) kB", done.stderr)
    assert int(peak) < 500 * 1024, f"{int(peak) // 1024} MB"


def test_the_kernels_are_loaded_before_the_first_search_and_a_compile_is_said(tmp_path, monkeypatch):
    """The review loads (on a cold cache, compiles) the kernels before any position is searched,
    and says so on stderr with what it costs (before, a cold review was silent for 109 s)."""
    (tmp_path / "g.sgf").write_text(GAME)
    order = []
    monkeypatch.setattr(command, "warm_up", lambda log: (order.append("warm"), log("goengine: compiling (test)")))
    real = evaluate_module.evaluate
    monkeypatch.setattr(evaluate_module, "evaluate", lambda *a, **k: (order.append("search"), real(*a, **k))[1])
    status, _, err = run([tmp_path / "g.sgf"], ReviewSettings(**{**vars(SETTINGS), "plot": False}))
    assert status == 0 and order[0] == "warm" and order.count("warm") == 1 and "search" in order
    assert err.startswith("goengine: compiling (test)\n")


# ---- goengine review: its options


def review_settings(*argv: str):
    """The settings ``goengine review game.sgf ARGV`` would review with."""
    return command.review_settings(command.build_review_parser().parse_args(["game.sgf", *argv]))


def test_a_review_searches_2000_playouts_a_position_with_one_thread_an_engine_and_an_engine_a_core(monkeypatch):
    monkeypatch.setattr(config_module, "available_cores", lambda: 4)
    settings = review_settings()
    assert (settings.budget.playouts, settings.budget.seconds) == (2000, None)
    assert settings.config.search.threads == 1 and settings.jobs == 4
    assert settings.plot and settings.progress and settings.cluster is None and settings.mistakes == 5


def test_a_reviews_budget_is_playouts_or_seconds_and_the_old_visits_still_works_with_a_note(capsys):
    assert review_settings("--playouts", "300").budget.playouts == 300
    capsys.readouterr()
    assert review_settings("--visits", "300").budget == review_settings("--playouts", "300").budget
    assert "--visits is the old name of --playouts" in capsys.readouterr().err
    seconds = review_settings("--seconds", "1.5").budget
    assert (seconds.playouts, seconds.seconds) == (None, 1.5)


def test_a_reviews_threads_share_the_cores_with_its_jobs(monkeypatch):
    monkeypatch.setattr(config_module, "available_cores", lambda: 4)
    settings = review_settings("--threads", "2", "--rule", "ucb1")
    assert settings.config.search.threads == 2 and settings.jobs == 2 and settings.config.search.rule == "ucb1"
    assert review_settings("--jobs", "3").jobs == 3
    cluster = review_settings("--cluster", "tcp://10.0.0.1:8786", "--no-plot", "--no-progress", "--mistakes", "3")
    assert (cluster.cluster, cluster.plot, cluster.progress, cluster.mistakes) == (
        "tcp://10.0.0.1:8786",
        False,
        False,
        3,
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--visits", "100", "--playouts", "200"], "--visits and --playouts say the same thing: give one"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--mistakes", "0"], "--mistakes must be at least 1"),
        (["--size", "9"], "unrecognized arguments: --size 9"),  # each file gives its board and komi
        (["--threads", "0"], "threads must be from 1 to 64, got 0"),
    ],
)
def test_a_bad_review_option_is_refused_with_one_line_and_exit_code_2(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["review", "game.sgf", *argv])
    assert stop.value.code == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("goengine review: error: ")]
    assert lines == [f"goengine review: error: {message}"]


def test_review_names_a_bad_file_and_exits_1_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[1]SZ[9];B[ee];W[ee])")
    proc = subprocess.run(
        [sys.executable, "-m", "goengine", "review", str(bad), "--no-plot"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"goengine review: {bad}: move 2 (W E5) cannot be played" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---- a worker killed, a review killed (issue 57)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z" and b"warm_up" not in _cmdline(stat.parent):
            found.append(int(stat.parent.name))
    return found


def _cmdline(folder: Path) -> bytes:
    try:
        return (folder / "cmdline").read_bytes()
    except OSError:
        return b""


def _start_review(tmp_path, visits: str) -> subprocess.Popen:
    """``goengine review --jobs 2`` of a 9-dan game of about 200 moves (19x19)."""
    (tmp_path / "g.sgf").write_text((DATA / "tom9d_six_games.sgf").read_text().splitlines()[0])
    argv = [sys.executable, "-m", "goengine", "review", str(tmp_path / "g.sgf"), "--jobs", "2", "--threads", "1"]
    return subprocess.Popen(
        [*argv, "--playouts", visits, "--no-plot", "--no-progress", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_children(proc: subprocess.Popen, count: int) -> list[int]:
    deadline = time.monotonic() + 120
    while len(_children(proc.pid)) < count and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    workers = _children(proc.pid)
    assert len(workers) >= count, "the pool's workers never started"
    return workers


@pytest.mark.slow
def test_a_review_whose_worker_is_killed_reviews_every_position(tmp_path):
    """One of the pool's two workers killed with SIGKILL halfway: the position it searched is
    searched again by a new worker, and the review is written whole. (Before: a BrokenProcessPool
    traceback, and the review was lost.)"""
    proc = _start_review(tmp_path, "300")
    try:
        victim = _wait_for_children(proc, 2)[0]
        time.sleep(3.0)  # a few positions into the game
        os.kill(victim, signal.SIGKILL)
        _, stderr = proc.communicate(timeout=600)
    finally:
        proc.kill()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr and (tmp_path / "g-review.sgf").is_file()
    moves = len(read(tmp_path / "g.sgf").moves)
    review = sgf.Sgf_game.from_bytes((tmp_path / "g-review.sgf").read_bytes())
    assert sum(1 for node in review.get_main_sequence() if node.has_property("SBKV")) == moves + 1


@pytest.mark.slow
def test_a_review_killed_with_sigkill_leaves_no_worker_behind(tmp_path):
    """``kill -9`` of ``goengine review --jobs 2``: its workers end too. (Before: they ran on
    for good, 164 MB each.)"""
    proc = _start_review(tmp_path, "100000")
    workers = _wait_for_children(proc, 2)
    proc.kill()
    proc.communicate(timeout=60)
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False
