"""The GTP engine's command line (``goengine.gtp.command``): a bad value refused with one clear line
and exit code 2, ``--version``, ``--help`` naming every choice with its defaults,
``--random-game``, ``--compile``, and, run as ``python -m goengine``, nothing but GTP on stdout;
its first answers before anything heavy is loaded. (The engine's options read into an
``EngineConfig``: ``test_options.py``; that the command line and ``goengine-set`` give the same
answer to the same setting, word for word: ``test_config.py``.)
"""

from __future__ import annotations

import re
import subprocess
import sys

import gtp_spec
import pytest

from goengine import engine, version
from goengine.board import random_game
from goengine.config import CHOSEN, EngineConfig
from goengine.dynkomi import DYNKOMI
from goengine.gtp import command
from goengine.options import config_from_args
from goengine.policies import POLICIES
from goengine.selection import RULES


def configured(*argv: str) -> EngineConfig:
    """The configuration ``goengine ARGV`` would run with."""
    return config_from_args(command.build_parser().parse_args(list(argv)))


def refusal(argv: list[str], capsys, read=command.options) -> str:
    """The one error line ``goengine ARGV`` exits with (code 2, argparse's way), without its
    ``goengine: error: `` prefix, as the options are read (``command.options``, which the command
    runs beside its first GTP answers) or by ``read``."""
    with pytest.raises(SystemExit) as stop:
        read(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("goengine: error: ")]
    assert len(lines) == 1, err
    return lines[0].removeprefix("goengine: error: ")


# ---- refusals: one line on stderr, exit code 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threads", "0"], "threads must be from 1 to 64, got 0"),
        (["--playouts", "many"], "playouts must be an integer, got 'many'"),
        (["--seconds", "-1"], "seconds must be from 0.001 to 86400, got -1.0"),
        (["--size", "4"], "board size must be from 5 to 19, got 4"),
        (["--size", "nine"], "argument --size: an integer, not 'nine'"),
        (["--size", "1_9"], "argument --size: an integer, not '1_9'"),
        (["--komi", "nan"], "argument --komi: a number, not 'nan'"),
        (["--komi", "\u0667.5"], "argument --komi: a number, not '\u0667.5'"),
        (["--komi", "seven"], "argument --komi: a number, not 'seven'"),
        (["--param", "c"], "argument --param: expected KEY=VALUE, got 'c'"),
        (["--param", "=3"], "argument --param: expected KEY=VALUE, got '=3'"),
        (["--rule", "ucb1", "--param", "k=500"], "selection rule ucb1 has no parameter 'k'; it has: c"),
        (["--playout", "moggy"], "unknown playout policy 'moggy'; known: uniform, heavy, learned"),
    ],
)
def test_a_bad_option_is_refused_with_one_line_saying_why_and_exit_code_2(argv, message, capsys):
    assert refusal(argv, capsys) == message


def test_an_unknown_option_is_refused_with_exit_code_2(capsys):
    assert refusal(["--playout-count", "5"], capsys) == "unrecognized arguments: --playout-count 5"


# ---- what the command prints instead of serving


def test_version_prints_the_full_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as stop:
        command.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"goengine {version.full()}\n"


def test_help_names_every_choice_with_its_parameters_defaults():
    text = " ".join(command.build_parser().format_help().split())  # argparse wraps the lines anywhere
    for chosen in CHOSEN:
        for name in chosen.registry:
            assert chosen.registry.describe(name) in text, name
    assert f"Playout policies, with their parameters' defaults: {POLICIES.describe('uniform')};" in text
    assert RULES.describe("rave") in text and DYNKOMI.describe("linear") in text


@pytest.mark.parametrize("komi", ["7.5", "107.5"])
def test_random_game_prints_the_seeds_game_and_its_result_under_the_komi(komi, capsys):
    assert command.main(["--random-game", "--size", "5", "--seed", "3", "--komi", komi]) == 0
    board = random_game(5, 3)
    score = board.score(float(komi))
    winner = f"{'B' if score > 0 else 'W'}+{abs(score):g}"
    out = capsys.readouterr().out
    assert out == f"{board.render()}\n{len(board.moves)} moves, seed 3, result {winner}\n"
    assert re.search(r"^ 5 [.XO ]+ 5$", out, re.MULTILINE)  # the board is drawn, 5 rows high


def test_random_game_differs_from_seed_to_seed(capsys):
    command.main(["--random-game", "--size", "9", "--seed", "1"])
    first = capsys.readouterr().out
    command.main(["--random-game", "--size", "9", "--seed", "2"])
    assert capsys.readouterr().out != first


def test_compile_warms_the_kernels_up_and_exits_without_serving(monkeypatch):
    warmed = []
    monkeypatch.setattr(engine, "warm_up", warmed.append)
    monkeypatch.setattr(command, "serve", lambda *args, **kwargs: pytest.fail("--compile served GTP"))
    assert command.main(["--compile"]) == 0
    assert len(warmed) == 1


def test_a_bad_option_stops_the_command_before_anything_runs(monkeypatch, capsys):
    monkeypatch.setattr(engine, "warm_up", lambda log: pytest.fail("warmed up after a bad option"))
    refusal(["--compile", "--threads", "99"], capsys, read=command.main)


# ---- the real process


def test_python_m_goengine_writes_only_gtp_on_stdout_and_with_quiet_nothing_on_stderr():
    """The options reach the engine (the board, the komi, the budget, the threads) and, with
    ``--quiet``, stdout carries the GTP responses alone and stderr stays empty."""
    script = "1 showboard\n2 goengine-params\n3 genmove b\nquit\n"
    argv = ["--quiet", "--size", "5", "--komi", "0.5", "--playouts", "30", "--threads", "1", "--seed", "3"]
    proc = subprocess.run(
        [sys.executable, "-m", "goengine", *argv], input=script, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr == ""
    responses = [gtp_spec.parse_response(block) for block in gtp_spec.split_stream(proc.stdout)]
    assert [(r.ok, r.id) for r in responses] == [(True, "1"), (True, "2"), (True, "3"), (True, None)]
    board, params, move = (r.body for r in responses[:3])
    assert board.count("\n") == 7 and board.endswith("komi 0.5")  # 5 rows, 2 of letters, the captures
    assert {"playouts_per_move 30", "search_threads 1", "random_seed 3"} <= {
        line.split("] ", 1)[1] for line in params.split("\n")
    }
    assert re.fullmatch(r"[A-E][1-5]|pass|resign", move)


# ---- the first answers


def test_the_command_and_the_gtp_protocol_import_no_compiled_kernel():
    """What lets ``name`` be answered at once: neither the command nor the protocol core loads
    numba (the kernels load beside the first answers, ``command.serve``)."""
    code = (
        "import sys, goengine.cli, goengine.gtp, goengine.gtp.protocol; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba' or m.startswith('goengine.kernels')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_a_bad_option_ends_the_command_with_code_2_while_its_controller_waits():
    """A controller that started ``goengine --threads 0`` and sends nothing yet: the command
    still exits at once with argparse's message. (The options are read beside the first answers,
    so a failure must end a session in which no line ever comes.)"""
    proc = subprocess.Popen(
        [sys.executable, "-m", "goengine", "--threads", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        code = proc.wait(timeout=60)
    finally:
        proc.kill()
        out, err = proc.communicate()
    assert code == 2
    assert out == ""
    assert "goengine: error: threads must be from 1 to 64, got 0" in err


def test_name_is_answered_before_a_bad_option_ends_the_session():
    proc = subprocess.run(
        [sys.executable, "-m", "goengine", "--rule", "nonsense"],
        input="1 name\n2 boardsize 9\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout in ("", "=1 goengine\n\n")  # name may beat the options' check, or not
    assert "unknown selection rule 'nonsense'" in proc.stderr


def run_with_stdout(argv: list[str], stdin: bytes, stdout) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goengine", *argv], input=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=300
    )


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["--quiet", "--threads", "1", "--playouts", "50"], b"name\ngenmove b\nname\n"),
        (
            ["analysis", "--quiet", "--threads", "1", "--playouts", "50"],
            b'{"id":"a","moves":[],"rules":"chinese","komi":7.5,"boardXSize":9,"boardYSize":9,"analyzeTurns":[0,1,2]}\n',
        ),
    ],
    ids=["gtp", "analysis"],
)
def test_a_controller_that_goes_away_or_a_full_stdout_ends_the_session_in_one_line(argv, stdin):
    """A client that quits (its end of the pipe closed) and a full device: the engine says so in
    one line on stderr and ends with 141 (a broken pipe) or 1; no traceback. (Before: the GTP
    engine ended in an OSError traceback, ``goengine analysis`` printed BrokenPipeError tracebacks
    from its threads.)"""
    import os

    program = "goengine analysis" if argv[0] == "analysis" else "goengine"
    reader, writer = os.pipe()
    os.close(reader)
    try:
        gone = run_with_stdout(argv, stdin, writer)
    finally:
        os.close(writer)
    assert gone.returncode == 141
    assert gone.stderr.decode().endswith(f"{program}: standard output: its reader has gone (a broken pipe)\n")
    assert b"Traceback" not in gone.stderr
    with open("/dev/full", "wb") as full:
        full_run = run_with_stdout(argv, stdin, full)
    assert full_run.returncode == 1 and b"Traceback" not in full_run.stderr
    assert full_run.stderr.decode().endswith(f"{program}: standard output: cannot write it: No space left on device\n")
