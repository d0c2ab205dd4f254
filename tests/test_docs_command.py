"""``goengine docs``: the user's documents reach a user from the installed package, not only from
a clone (issue 46: a wheel's README had 37 relative links and no way to the docs, and
``goengine analysis --help`` cited a ``docs/gtp.md`` that was not installed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from goengine import docs_command
from goengine.docs_command import TOPICS, main, path_of

ROOT = Path(__file__).resolve().parent.parent


def test_every_topic_names_a_document_of_the_checkout():
    for topic, file, _ in TOPICS:
        path = path_of(topic)
        assert path is not None and path.is_file(), topic
        assert path == (ROOT / file if file == "README.md" else ROOT / "docs" / file)


def test_the_list_then_one_document_then_a_name_it_does_not_know(capsys):
    assert main([]) == 0
    listed = capsys.readouterr().out
    assert all(f"  {topic}" in listed for topic, _, _ in TOPICS) and "goengine docs NAME" in listed
    assert main(["gtp"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "gtp.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as refused:
        main(["nothing"])
    assert refused.value.code == 2 and "invalid choice: 'nothing'" in capsys.readouterr().err


def test_an_installed_package_reads_its_own_copies(tmp_path, monkeypatch, capsys):
    """Without a checkout's ``docs/`` beside it, the package's copies (a build makes them) are read;
    with neither, the command says so and exits 1."""
    package = tmp_path / "site" / "goengine"
    (package / "docs").mkdir(parents=True)
    (package / "docs" / "gtp.md").write_text("# the copy\n")
    (package / "docs" / "README.md").write_text("# the readme's copy\n")
    monkeypatch.setattr(docs_command, "PACKAGE", package)
    assert main(["gtp"]) == 0 and capsys.readouterr().out == "# the copy\n"
    assert main(["readme"]) == 0 and capsys.readouterr().out == "# the readme's copy\n"
    assert main(["--path"]) == 0 and capsys.readouterr().out == f"{package / 'docs'}\n"
    assert main(["engine"]) == 1 and "engine is not in" in capsys.readouterr().err
    (package / "docs" / "gtp.md").unlink()
    assert main([]) == 1 and "no documents here" in capsys.readouterr().err


def test_the_command_line_reaches_it_and_the_help_names_it():
    done = subprocess.run([sys.executable, "-m", "goengine", "docs"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "gtp" in done.stdout
    helped = subprocess.run([sys.executable, "-m", "goengine", "analysis", "--help"], capture_output=True, text=True)
    assert "goengine docs gtp" in helped.stdout and "docs/gtp.md" not in helped.stdout


def test_a_foreign_projects_docs_beside_the_installed_package_are_not_taken_for_a_checkout(
    tmp_path, monkeypatch, capsys
):
    """Installed, the package's parent is site-packages, where another project may have put a
    ``docs/gtp.md`` and a ``README.md``: only a tree whose pyproject.toml names goengine is a
    checkout. (Before: the foreign files were printed as goengine's.)"""
    site = tmp_path / "site"
    package = site / "goengine"
    (package / "docs").mkdir(parents=True)
    (package / "docs" / "gtp.md").write_text("# goengine's copy\n")
    (site / "docs").mkdir()
    (site / "docs" / "gtp.md").write_text("# someone else's\n")
    (site / "README.md").write_text("# someone else's readme\n")
    monkeypatch.setattr(docs_command, "PACKAGE", package)
    assert main(["gtp"]) == 0 and capsys.readouterr().out == "# goengine's copy\n"
    (site / "pyproject.toml").write_text('[project]\nname = "other"\n')
    assert main(["gtp"]) == 0 and capsys.readouterr().out == "# goengine's copy\n"
    (site / "pyproject.toml").write_text('[project]\nname = "goengine"\n')
    assert main(["gtp"]) == 0 and capsys.readouterr().out == "# someone else's\n"  # a checkout of ours now


def docs_with(stdout, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goengine", "docs", "engine"],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        env=env,
    )


def test_a_closed_full_or_gone_stdout_ends_with_one_line_and_its_status(tmp_path):
    """(Before: each ended in a traceback: AttributeError, OSError, BrokenPipeError.)"""
    import os

    with open("/dev/full", "w") as full:
        done = docs_with(full)
    assert (done.returncode, done.stderr) == (
        1,
        "goengine docs: standard output: cannot write it: No space left on device\n",
    )
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = docs_with(writer)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (
        141,
        "goengine docs: standard output: its reader has gone (a broken pipe)\n",
    )
    closed = subprocess.run(
        f"{sys.executable} -m goengine docs engine >&-", shell=True, capture_output=True, text=True, timeout=120
    )
    assert (closed.returncode, closed.stderr) == (1, "goengine docs: standard output: it is closed\n")


def test_an_ascii_locale_gets_the_documents_bytes_as_written():
    env = {**__import__("os").environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "goengine", "docs", "engine"], capture_output=True, timeout=120, env=env
    )
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout == (ROOT / "docs" / "engine.md").read_bytes()
