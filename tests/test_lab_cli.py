"""The match command as an installed command (``goengine.lab.cli``): the ``goengine-match``
console script, and the laboratory without the ``match`` extra. What the command does, match by
match, is ``tests/test_scripts_match.py``'s.

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

modules = sorted(m.name for m in pkgutil.iter_modules(goengine.lab.__path__))
for name in modules:
    importlib.import_module(f"goengine.lab.{name}")
from goengine.lab import cli

found = {"modules": modules, "progress": cli._progress(3)}
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
sys.argv = ["scripts/match.py", "--help"]
with contextlib.redirect_stdout(help_text):
    try:
        runpy.run_path("scripts/match.py", run_name="__main__")
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
    lab = {p.stem for p in (ROOT / "goengine" / "lab").glob("*.py")} - {"__init__"}
    assert set(found["modules"]) == lab  # every module was imported
    assert found["loaded"] == []  # and none of the extra came in by another way
    assert found["progress"] is None  # no rich: a plain line a game instead of the bar
    code, text = found["help"]
    assert code == 0 and text.startswith("usage: goengine-match") and "--tournament" in text
    for key, package in (("tournament", "scipy"), ("cluster", "dask")):
        code, err = found[key]
        assert code == 2, err
        assert err.startswith("goengine-match: ") and f"needs {package}" in err, err
        assert "pip install 'goengine[match]'" in err and "Traceback" not in err
    assert not out.exists()  # refused before anything was written


def test_goengine_match_is_a_console_script_of_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    module, _, function = project["scripts"]["goengine-match"].partition(":")
    assert (module, function) == ("goengine.lab.cli", "main")
    from goengine.lab import cli

    assert cli.PROG == "goengine-match" and callable(cli.main)
    # the checkout's script runs the same function
    assert "from goengine.lab.cli import main" in (ROOT / "scripts" / "match.py").read_text()


def test_the_handicap_bonus_defaults_to_gnu_gos_against_gnu_go_and_none_otherwise():
    from goengine.lab.cli import parse_args

    assert parse_args(["--out", "x"]).white_handicap_bonus == "N"  # the default opponent is GNU Go
    assert parse_args(["--out", "x", "--opponent", "gg=/usr/games/gnugo --mode gtp"]).white_handicap_bonus == "N"
    assert parse_args(["--out", "x", "--opponent", "other=pachi -t 1"]).white_handicap_bonus == "0"
    chosen = parse_args(["--out", "x", "--white-handicap-bonus", "N-1"])
    assert chosen.white_handicap_bonus == "N-1"
