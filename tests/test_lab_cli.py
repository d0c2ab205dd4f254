"""The match command as an installed command (``goengine.lab.cli``): the ``goengine-match``
console script, the laboratory without the ``match`` extra, and the timeouts the games get from
the command line (``--timeout`` against the longest move, ``--startup-timeout``). What the command does, match by
match, is ``tests/test_lab_match.py``'s.

A plain ``pip install goengine`` brings numpy, numba and sgfmill, not the extra's rich, dask and
scipy. Here a fresh Python that cannot import those three (a ``sys.meta_path`` finder refuses
them, as if they were not installed) imports every module of ``goengine.lab``, prints the
command's help, and is refused a tournament and a cluster with a message naming the extra,
before anything is written.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTRA = ("rich", "dask", "distributed", "scipy")

WITHOUT_EXTRA = r"""
import contextlib, importlib, importlib.abc, io, json, pkgutil, runpy, sys

BLOCKED = set(sys.argv[1].split(","))


class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
import goengine.lab

modules = sorted(m.name for m in pkgutil.iter_modules(goengine.lab.__path__) if m.name != "__main__")
for name in modules:
    importlib.import_module(f"goengine.lab.{name}")
from goengine.lab import cli

from goengine.lab import match

found = {"modules": modules, "progress": match._progress(3)}
out = sys.argv[2]  # before sys.argv is the script's
for key, args in (
    ("tournament", ["--tournament", "--config", "a=", "--config", "b=", "--out", out]),
    ("cluster", ["--cluster", "tcp://127.0.0.1:1", "--out", out]),
):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main([*args, "--no-progress", "--no-plot"])
    found[key] = [code, err.getvalue()]
help_text = io.StringIO()
sys.argv = ["goengine-match", "--help"]
with contextlib.redirect_stdout(help_text):
    try:
        runpy.run_module("goengine.lab", run_name="__main__")
    except SystemExit as exit:
        found["help"] = [exit.code, help_text.getvalue()]
found["loaded"] = sorted(m for m in sys.modules if m.partition(".")[0] in BLOCKED)
print(json.dumps(found))
"""


def test_the_laboratory_imports_and_explains_itself_without_the_match_extra(tmp_path):
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRA, ",".join(EXTRA), str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    lab = {p.stem for p in (ROOT / "goengine" / "lab").glob("*.py")} - {"__init__", "__main__"}
    assert set(found["modules"]) == lab  # every module was imported
    assert found["loaded"] == []  # and none of the extra came in by another way
    assert found["progress"] is None  # no rich: a plain line a game instead of the bar
    code, text = found["help"]
    assert code == 0 and text.startswith("usage: goengine-match") and "--tournament" in text
    for key, package in (("tournament", "scipy"), ("cluster", "dask")):
        code, err = found[key]
        assert code == 2, err
        assert err.startswith("goengine-match: ") and f"needs {package}" in err, err
        assert "pip install rich 'dask[distributed]' scipy" in err and "Traceback" not in err
    assert not out.exists()  # refused before anything was written


def test_goengine_match_is_a_console_script_of_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    module, _, function = project["scripts"]["goengine-match"].partition(":")
    assert (module, function) == ("goengine.lab.cli", "main")
    from goengine.lab import cli

    assert cli.PROG == "goengine-match" and callable(cli.main)
    # python -m goengine.lab (a worktree's engine, from its virtualenv) runs the same function
    assert "from goengine.lab.cli import main" in (ROOT / "goengine" / "lab" / "__main__.py").read_text()


def test_the_handicap_bonus_defaults_to_gnu_gos_against_gnu_go_and_none_otherwise():
    from goengine.lab.cli import parse_args

    assert parse_args(["--out", "x"]).white_handicap_bonus == "N"  # the default opponent is GNU Go
    assert parse_args(["--out", "x", "--opponent", "gg=/usr/games/gnugo --mode gtp"]).white_handicap_bonus == "N"
    assert parse_args(["--out", "x", "--opponent", "other=pachi -t 1"]).white_handicap_bonus == "0"
    chosen = parse_args(["--out", "x", "--white-handicap-bonus", "N-1"])
    assert chosen.white_handicap_bonus == "N-1"


def resolved_timeouts(*argv: str) -> tuple[float, float]:
    """``(timeout, startup_timeout)`` the games of this command line would get."""
    from goengine.lab.cli import match_of, parse_args

    match = match_of(parse_args(["--out", "x", *argv]))
    return match.timeout, match.startup_timeout


@pytest.mark.parametrize(
    ("argv", "timeout", "startup"),
    [
        ((), 120, 600),
        (("--seconds", "1"), 120, 600),
        (("--time", "60+5x3"), 120, 600),  # 75 s at most: 88 s with room, under 120
        (("--time", "300"), 335, 600),  # a move may take the whole 300 s: 10 % and 5 s over it
        (("--time", "600+30/10"), 698, 698),  # the start-up allowance is never less than the timeout
        (("--config", "slow=--seconds 200"), 225, 600),  # a configuration's own --seconds counts
        (("--opponent", f"b={sys.executable} -m goengine --seconds 200"), 225, 600),  # so does a goengine opponent's
        (("--opponent", "other=/usr/bin/other --seconds 200"), 120, 600),  # another engine's means what it likes
        (("--seconds", "30", "--timeout", "38"), 38, 600),
        (("--timeout", "5", "--startup-timeout", "60"), 5, 60),  # nothing bounds a move: any timeout
        (("--timeout", "900", "--startup-timeout", "60"), 900, 900),
    ],
)
def test_the_timeout_defaults_to_120_s_or_the_longest_move_with_room_and_the_startup_allowance_to_600_s(
    argv, timeout, startup
):
    assert resolved_timeouts(*argv) == (timeout, startup)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--seconds", "30", "--timeout", "37"), "--seconds 30 (default) allows 30 s; give --timeout 38 or more"),
        (("--time", "60+5x3", "--timeout", "80"), "--time 60+5x3 allows 75 s; give --timeout 88 or more"),
        (("--config", "slow=--seconds 50", "--timeout", "30"), "--seconds 50 (slow) allows 50 s"),
    ],
)
def test_a_timeout_shorter_than_a_move_may_take_is_refused_saying_what_to_give(argv, message):
    from goengine.lab import Usage

    with pytest.raises(Usage) as refused:
        resolved_timeouts(*argv)
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--timeout", "nan"), "argument --timeout: a number of seconds above 0, not 'nan'"),
        (("--timeout", "inf"), "argument --timeout: a number of seconds above 0, not 'inf'"),
        (("--timeout", "0"), "argument --timeout: a number of seconds above 0, not 0"),
        (("--startup-timeout", "-1"), "argument --startup-timeout: a number of seconds above 0, not -1"),
        (("--seconds", "nan"), "argument --seconds: a number of seconds above 0, not 'nan'"),
        (("--size", "25"), "argument --size: a board size from 5 to 19, not 25"),
        (("--size", "4"), "argument --size: a board size from 5 to 19, not 4"),
        (("--komi", "nan"), "argument --komi: a komi from -150 to 150, not 'nan'"),
        (("--komi", "x"), "argument --komi: a komi from -150 to 150, not 'x'"),
        (("--jobs", "-3"), "argument --jobs: a whole number, at least 1, not -3"),
        (("--games", "0"), "argument --games: a whole number, at least 1, not 0"),
        (("--handicap", "1"), "argument --handicap: 0, or GTP's fixed handicap of 2 to 9 stones, not 1"),
        (("--handicap", "100"), "argument --handicap: 0, or GTP's fixed handicap of 2 to 9 stones, not 100"),
        (("--alpha", "0.7"), "argument --alpha: a probability above 0 and at most 0.5, not 0.7"),
        (("--seed", "-1"), "argument --seed: a seed from 0 to 2**62, not -1"),  # goengine refused it: all void
        (("--games", "1_0"), "argument --games: a whole number, at least 1, not '1_0'"),
        (("--komi", "\u0667.5"), "argument --komi: a komi from -150 to 150, not '\u0667.5'"),
    ],
)
def test_a_number_that_would_void_or_break_every_game_is_refused_by_its_option(argv, message, capsys):
    """Before: ``--timeout nan`` and ``--komi nan`` were taken and voided every game, ``--timeout
    inf``, ``--seconds nan`` and ``--size 25`` ended in tracebacks, ``--jobs -3`` played "-3 at
    once". Now argparse's error names the option and the exit status is 2, before anything runs."""
    from goengine.lab.cli import parse_args

    with pytest.raises(SystemExit) as exited:
        parse_args(list(argv))
    assert exited.value.code == 2 and message in capsys.readouterr().err


def test_the_match_command_says_its_version(capsys):
    from goengine import version
    from goengine.lab.cli import parse_args

    with pytest.raises(SystemExit) as exited:
        parse_args(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out == f"goengine-match {version.full()}\n"


def test_the_help_explains_both_timeouts(capsys):
    from goengine.lab.cli import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--timeout SECONDS seconds an engine may take to answer a command once it has started" in text
    assert "the longest a move may take under --seconds or --time" in text and "a shorter value is refused" in text
    assert "--startup-timeout SECONDS seconds an engine may take to answer each command of its start-up" in text
    assert "from its launch to its first move, that genmove included" in text and "(default 600)" in text


def test_the_progress_bar_goes_to_stderr_never_to_stdout(capsys):
    """stdout carries the tables alone (before, rich's bar was drawn on stdout)."""
    from goengine.lab.match import _progress

    progress, task = _progress(2)
    progress.update(task, advance=1)
    progress.console.print("a line of the bar's console")
    progress.stop()
    captured = capsys.readouterr()
    assert captured.out == "" and "a line of the bar's console" in captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--config", "a=--seed 5"), "--config a: the match gives each game its seed"),
        (("--config", "a=--rule ucb1 --seed=5"), "--config a: the match gives each game its seed"),
        (("--playouts", "100", "--config", "a=--playouts 500"), "--config a sets --playouts and so does the match"),
        (("--seconds", "1", "--config", "b=--seconds=2"), "--config b sets --seconds and so does the match"),
    ],
)
def test_a_configuration_setting_what_the_match_sets_is_refused(argv, message):
    """(Before: the match's own ``--seed`` and ``--playouts`` came last on the command line and
    silently won over the configuration's.)"""
    from goengine.lab import Usage
    from goengine.lab.cli import match_of, parse_args

    def engine(*argv: str) -> str:
        return match_of(parse_args(["--out", "x", *argv])).pairings[0].engine.command

    with pytest.raises(Usage, match=message):
        engine(*argv)
    # the same budget given once, in either place, is taken
    assert "--playouts 500" in engine("--config", "a=--playouts 500")
    assert "--seconds 2" in engine("--playouts", "9", "--config", "a=--seconds 2")
