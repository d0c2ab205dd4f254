"""The ``goengine`` command's dispatcher (``goengine.cli``): ``analysis``, ``review`` and ``docs``
go to their front ends' command lines with the rest of the words, anything else to the GTP
engine's; nothing of a front end is imported until it is chosen."""

from __future__ import annotations

import subprocess
import sys

import pytest

from goengine import cli


@pytest.mark.parametrize(
    ("argv", "module", "rest"),
    [
        (["analysis", "-model", "x"], "goengine.analysis.command", ["-model", "x"]),
        (["review", "a.sgf", "--playouts", "5"], "goengine.review.command", ["a.sgf", "--playouts", "5"]),
        (["docs", "gtp"], "goengine.docs_command", ["gtp"]),
        (["--playouts", "5"], "goengine.gtp.command", ["--playouts", "5"]),
        ([], "goengine.gtp.command", []),
    ],
)
def test_each_subcommand_goes_to_its_front_ends_command_line(argv, module, rest, monkeypatch):
    import importlib

    target = importlib.import_module(module)
    calls = []
    monkeypatch.setattr(target, "main", lambda words: calls.append(words) or 7)
    assert cli.main(argv) == 7 and calls == [rest]


def test_the_dispatcher_imports_no_front_end_of_its_own():
    code = "import sys, goengine.cli; print(sorted(m for m in sys.modules if m.startswith('goengine.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['goengine.cli']"
